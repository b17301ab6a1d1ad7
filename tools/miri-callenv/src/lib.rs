//! A pure-Rust model of the aliasing protocol between a compiled JIT block and its callbacks into
//! the interpreter (`crates/wavesim-rdna3/src/jit/cache.rs`: `Tier::step`, `register_pointers`,
//! `call`), small enough for Miri, which cannot run cranelift's machine code.
//!
//! The protocol: the step loop turns its `&mut Wave` into one raw pointer; the block's register
//! pointers (scalar file, VGPR buffer, SCC) are projected from it without creating references;
//! the block accesses registers only through them, stores what a handler may touch before a
//! callback and reloads after it; the callback makes the only `&mut Wave` from the same raw
//! pointer and it is dead when the callback returns. `block` below plays the compiled code
//! (stores, a callback, reloads, more stores), `call` the callback, `handler` an interpreter
//! handler using the wave through safe code. `run.sh` runs the tests under Miri with Stacked
//! Borrows and with Tree Borrows: the protocol must pass, and the derivation the JIT used before
//! (`&mut` borrows of the register fields) must be reported as undefined behaviour.

/// The parts of `wavesim_rdna3::wave::Wave` compiled code reaches, with the same types.
pub struct Wave {
    pub pc: u64,
    pub sgpr: [u32; 128],
    pub vgpr: Vec<u32>,
    pub scc: bool,
}

#[repr(C)]
pub struct CallEnv {
    callback: unsafe extern "C" fn(*mut CallEnv, u32) -> u32,
    /// Written by compiled code (a self-loop's iterations) and read by the callback, as in
    /// `jit::cache::CallEnv`.
    done: u64,
    wave: *mut Wave,
}

/// As `jit::cache::register_pointers` (`run.sh` checks that its projections are these).
///
/// # Safety
/// `wave` points to a live `Wave` nothing else accesses while the pointers are used.
pub unsafe fn register_pointers(wave: *mut Wave) -> (*mut u32, *mut u32, *mut u8) {
    unsafe {
        (
            std::ptr::addr_of_mut!((*wave).sgpr).cast::<u32>(),
            (*std::ptr::addr_of_mut!((*wave).vgpr)).as_mut_ptr(),
            std::ptr::addr_of_mut!((*wave).scc).cast::<u8>(),
        )
    }
}

/// The derivation before: `&mut` borrows of the fields, then raw pointers from them.
///
/// # Safety
/// As [`register_pointers`].
pub unsafe fn register_pointers_through_references(
    wave: *mut Wave,
) -> (*mut u32, *mut u32, *mut u8) {
    unsafe {
        (
            (*wave).sgpr.as_mut_ptr(),
            (*wave).vgpr.as_mut_ptr(),
            std::ptr::from_mut(&mut (*wave).scc).cast::<u8>(),
        )
    }
}

/// An interpreter handler: safe code on `&mut Wave` (reads what the block stored, writes
/// registers the block reloads).
fn handler(w: &mut Wave) {
    w.sgpr[4] = w.sgpr[3] * 10;
    w.vgpr[6] = w.vgpr[5] + 1;
    w.scc = !w.scc;
    w.pc += 4;
}

/// The callback (`jit::cache::call`): the one `&mut Wave`, from the environment's raw pointer.
unsafe extern "C" fn call(env: *mut CallEnv, _idx: u32) -> u32 {
    let env = unsafe { &mut *env };
    let w = unsafe { &mut *env.wave };
    handler(w);
    w.pc += env.done;
    0
}

/// The compiled block: stores (spills), calls back, reloads and stores again, through the raw
/// pointers only.
unsafe extern "C" fn block(sgpr: *mut u32, vgpr: *mut u32, scc: *mut u8, env: *mut CallEnv) -> u32 {
    unsafe {
        *sgpr.add(3) = 7;
        *vgpr.add(5) = 41;
        *scc = 1;
        (*env).done += 1;
        let callback = (*env).callback;
        if callback(env, 0) != 0 {
            return 2;
        }
        let s4 = *sgpr.add(4);
        let v6 = *vgpr.add(6);
        *vgpr.add(7) = s4 + v6;
        *sgpr.add(5) = u32::from(*scc);
        *scc = 1;
        (*env).done += 1;
    }
    0
}

/// `Tier::step`: one raw pointer from the step loop's `&mut Wave`; `w` is used again only
/// after the block returns.
pub fn step(w: &mut Wave, through_references: bool) -> u32 {
    let wave: *mut Wave = w;
    let (sgpr, vgpr, scc) = unsafe {
        if through_references {
            register_pointers_through_references(wave)
        } else {
            register_pointers(wave)
        }
    };
    let mut env = CallEnv {
        callback: call,
        done: 0,
        wave,
    };
    let exit = unsafe { block(sgpr, vgpr, scc, &mut env) };
    w.pc += 4;
    exit
}

pub fn new_wave() -> Wave {
    Wave {
        pc: 0,
        sgpr: [0; 128],
        vgpr: vec![0; 64 * 8],
        scc: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_protocol_keeps_the_blocks_pointers_valid_across_callbacks() {
        let mut w = new_wave();
        assert_eq!(step(&mut w, false), 0);
        // Derived from the handler's and the block's rules: s3 = 7, s4 = 70, v5 = 41, v6 = 42,
        // v7 = 70 + 42, SCC 1 -> !1 = 0 -> stored in s5, then 1; pc: the handler's 4, the
        // callback's env.done (1), the step's 4.
        assert_eq!((w.sgpr[3], w.sgpr[4], w.sgpr[5]), (7, 70, 0));
        assert_eq!((w.vgpr[5], w.vgpr[6], w.vgpr[7]), (41, 42, 112));
        assert!(w.scc);
        assert_eq!(w.pc, 9);
    }

    /// Undefined behaviour under Miri (run.sh expects Miri to report it); the same values
    /// natively, which is why only Miri can tell the two derivations apart.
    #[test]
    #[ignore = "undefined behaviour: run.sh runs it under Miri and expects an error"]
    fn field_references_are_invalidated_by_the_callbacks_wave_reference() {
        let mut w = new_wave();
        assert_eq!(step(&mut w, true), 0);
        assert_eq!(w.vgpr[7], 112);
    }
}
