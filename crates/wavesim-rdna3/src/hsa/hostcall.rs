//! Hostcall: the requests a kernel makes of the host while it runs, served as ROCm's runtime
//! serves them (HIP `printf`, `fprintf(stderr)`, assertion messages, device `malloc`/`free`).
//!
//! The device side is the device libraries' `__ockl_hostcall_internal` (ockl, ROCm device libs
//! 5.2, read from the bitcode with `llvm-dis`); the host side is ROCclr's hostcall listener
//! (`devhostcall.cpp`/`.hpp`), message assembly (`devhcmessages.cpp`) and printf formatting
//! (`devhcprintf.cpp`). wavesim writes its own code from the layouts and rules they define:
//!
//! - The buffer (`hidden_hostcall_buffer`) starts with `{headers, payloads, doorbell signal,
//!   free_stack, ready_stack, index_mask}`, six u64. Packets are 24-byte headers `{next,
//!   activemask, service u32, control u32}` (control bit 0 = READY) and 4096-byte payloads
//!   (64 lanes x 8 u64). Stacks hold tagged pointers: index = ptr & index_mask, the bits above
//!   are a tag the device bumps on every pop (ABA).
//! - A wave pops a packet off the free stack, fills its lanes' slots, sets READY, pushes the
//!   packet on the ready stack, adds 1 to the doorbell signal's value and then polls READY,
//!   `s_sleep 1` between polls, until the host clears it; then it reads slots 0 and 1 of its
//!   lanes and pushes the packet back on the free stack.
//! - The listener takes the whole ready stack (exchanging it with 0) and, latest packet first,
//!   serves every active lane in increasing lane order, then clears READY.
//!
//! wavesim has no listener thread: the waves' `s_sleep` hands the host its turn
//! ([`HostServices::serve`]), so a request is served at the first poll after it was made and,
//! with one host thread, records come out in the same order on every run.
//!
//! Services (ids of ockl's `__ockl_hostcall_preview` callers): 2 printf messages (BEGIN/END
//! descriptors carrying a message id; stdout, or stderr when the control word's bit 0 is set),
//! 3 device memory (`__ockl_devmem_request`: slabs and large blocks for `__ockl_dm_alloc`). The
//! function-call service (1) would call a host function pointer from the kernel and the
//! sanitizer service (4) reports address-sanitizer faults; both, and every other id, stop the
//! kernel with an error naming the service.

use super::printf::{c_format_stars, CValue};
use crate::exec::{ExecError, HostServices};
use std::collections::BTreeMap;
use std::sync::Mutex;
use wavesim_core::memory::{AtomicOp, DeviceMemory, MemError};

/// Bytes of the buffer header the device reads (six u64).
const HEADER_BYTES: u64 = 48;
/// Bytes of one packet header: next, activemask, service, control.
const PACKET_HEADER_BYTES: u64 = 24;
/// Bytes of one payload: 64 lanes of 8 u64.
const PAYLOAD_BYTES: u64 = 64 * 8 * 8;
/// Bytes of an `amd_signal_t` (kind, value, event mailbox, event id, ...: 64 bytes).
pub const SIGNAL_BYTES: u64 = 64;
/// `AMD_SIGNAL_KIND_USER`: a signal whose value is written by the host or the device. The event
/// mailbox stays 0, so the device's signal add sends no interrupt message.
const SIGNAL_KIND_USER: u64 = 1;

/// Service ids (ockl's callers of `__ockl_hostcall_preview`; ROCclr's `handlePayload`).
pub const SERVICE_FUNCTION_CALL: u32 = 1;
pub const SERVICE_PRINTF: u32 = 2;
pub const SERVICE_DEVMEM: u32 = 3;
pub const SERVICE_SANITIZER: u32 = 4;

/// Bytes of the device heap given in `hidden_heap_v1`: the device libraries' `heap_t` (5.2: three
/// arrays of 16 32-byte records, two of 16 32-byte records, 16 x 256 24-byte slab records and a
/// u64: 100,872 bytes), zeroed as ROCm's runtime hands it over, with room for newer layouts.
pub const HEAP_BYTES: u64 = 256 * 1024;
/// Device memory the devmem service hands out during one dispatch (2 MiB slabs and large
/// blocks of `__ockl_dm_alloc`). A request that does not fit gets 0, as a failed allocation
/// does on ROCm (`malloc` returns NULL).
pub const DEVMEM_ARENA_BYTES: u64 = 32 << 20;
/// Alignment of devmem blocks: ROCclr aligns 2 MiB requests (the heap's slabs) to 2 MiB and
/// others to the page.
pub const SLAB_BYTES: u64 = 2 << 20;
const PAGE_BYTES: u64 = 4096;

/// The buffer's size and packet count for `waves` waves that may be in flight at once: one
/// packet each (a wave holds at most one), a power of two (the index mask), at least 2.
pub fn layout(waves: u64) -> (u64, u64) {
    let packets = waves.max(2).next_power_of_two();
    let payloads = (HEADER_BYTES + packets * PACKET_HEADER_BYTES).next_multiple_of(64);
    (payloads + packets * PAYLOAD_BYTES, packets)
}

/// What the kernel printed and what stopped it.
#[derive(Default, Debug)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Why serving a request failed or the kernel aborted (the dispatch error says where).
    pub stop: Option<Stop>,
}

/// Why host services stopped a dispatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A request wavesim cannot serve (unknown service, bad message).
    Request(String),
    /// `s_trap` with the id the runtime's trap handler treats as abort (llvm.trap: 2).
    Abort(u32),
}

/// The host side of one dispatch's hostcall buffer, device heap and trap handler.
pub struct Hostcall {
    buffer: u64,
    headers: u64,
    payloads: u64,
    index_mask: u64,
    /// The devmem arena: (base, bytes), or None when the kernel declares no heap.
    arena: Option<(u64, u64)>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Message slots by id: the words of a message being assembled, None when free.
    messages: Vec<Option<Vec<u64>>>,
    /// Free message ids, reused last-freed first (ROCclr's `freeSlots_`).
    free_ids: Vec<u64>,
    out: Output,
    /// Free blocks of the arena (address -> bytes) and the blocks handed out.
    free: BTreeMap<u64, u64>,
    used: BTreeMap<u64, u64>,
}

impl Hostcall {
    /// Initialises the buffer at `buffer` (`layout(waves)` bytes, zeroed) with its doorbell
    /// signal at `signal` (SIGNAL_BYTES, zeroed) the way ROCclr's `HostcallBuffer::initialize`
    /// does: every packet on the free stack, packet 0 at the bottom, the pointer to it tagged
    /// with 1 so that no tagged pointer on the stack is 0 (the empty stack).
    pub fn new(
        mem: &DeviceMemory,
        buffer: u64,
        signal: u64,
        waves: u64,
        arena: Option<(u64, u64)>,
    ) -> Result<Hostcall, MemError> {
        let (_, packets) = layout(waves);
        let headers = buffer + HEADER_BYTES;
        let payloads = (HEADER_BYTES + packets * PACKET_HEADER_BYTES).next_multiple_of(64) + buffer;
        let index_mask = packets - 1;
        let mut next = index_mask + 1;
        mem.write_u64(headers, 0)?;
        for i in 1..packets {
            mem.write_u64(headers + i * PACKET_HEADER_BYTES, next)?;
            next = i;
        }
        for (off, v) in [
            (0, headers),
            (8, payloads),
            (16, signal),
            (24, next),
            (32, 0),
            (40, index_mask),
        ] {
            mem.write_u64(buffer + off, v)?;
        }
        mem.write_u64(signal, SIGNAL_KIND_USER)?;
        let mut state = State::default();
        if let Some((base, bytes)) = arena {
            state.free.insert(base, bytes);
        }
        Ok(Hostcall {
            buffer,
            headers,
            payloads,
            index_mask,
            arena,
            state: Mutex::new(state),
        })
    }

    /// The buffer's device address (`hidden_hostcall_buffer`).
    pub fn buffer(&self) -> u64 {
        self.buffer
    }

    /// What the kernel printed and why it stopped, leaving the service empty.
    pub fn take_output(&self) -> Output {
        match self.state.lock() {
            Ok(mut s) => std::mem::take(&mut s.out),
            Err(p) => std::mem::take(&mut p.into_inner().out),
        }
    }

    fn serve_all(&self, mem: &DeviceMemory, st: &mut State) -> Result<(), Stop> {
        let mem_err = |e: MemError| Stop::Request(format!("hostcall buffer: {e}"));
        // Take every ready packet; the latest comes first (ROCclr's `processPackets`).
        let mut ptr = mem
            .atomic64(self.buffer + 32, AtomicOp::Xchg, 0, 0)
            .map_err(mem_err)?;
        while ptr != 0 {
            let index = ptr & self.index_mask;
            let header = self.headers + index * PACKET_HEADER_BYTES;
            let payload = self.payloads + index * PAYLOAD_BYTES;
            let next = mem.read_u64(header).map_err(mem_err)?;
            let mut active = mem.read_u64(header + 8).map_err(mem_err)?;
            let service = mem.read_u32(header + 16).map_err(mem_err)?;
            while active != 0 {
                let lane = active.trailing_zeros() as u64;
                active &= active - 1;
                let slot_addr = payload + lane * 64;
                let mut slot = [0u64; 8];
                for (i, w) in slot.iter_mut().enumerate() {
                    *w = mem.read_u64(slot_addr + 8 * i as u64).map_err(mem_err)?;
                }
                self.serve_slot(mem, st, service, &mut slot)
                    .map_err(|why| Stop::Request(format!("lane {lane}: {why}")))?;
                for (i, w) in slot.iter().enumerate() {
                    mem.write_u64(slot_addr + 8 * i as u64, *w)
                        .map_err(mem_err)?;
                }
            }
            let control = mem.read_u32(header + 20).map_err(mem_err)?;
            mem.write_u32(header + 20, control & !1).map_err(mem_err)?;
            ptr = next;
        }
        Ok(())
    }

    fn serve_slot(
        &self,
        mem: &DeviceMemory,
        st: &mut State,
        service: u32,
        slot: &mut [u64; 8],
    ) -> Result<(), String> {
        match service {
            SERVICE_PRINTF => message(st, slot),
            SERVICE_DEVMEM => self.devmem(mem, st, slot),
            SERVICE_FUNCTION_CALL => Err("hostcall service 1 (function call: the kernel asks \
                the host to call a host function pointer) is not supported by wavesim"
                .into()),
            SERVICE_SANITIZER => Err("hostcall service 4 (address sanitizer report) is not \
                supported by wavesim"
                .into()),
            id => Err(format!(
                "unknown hostcall service id {id} (ROCm serves 1 function call, 2 printf, 3 \
                 device memory, 4 sanitizer)"
            )),
        }
    }

    /// Service 3: slot 0 = a block to free, else slot 1 = bytes to allocate; the answer (the
    /// block's address, 0 when there is no room) goes to slot 0 (ROCclr's `SERVICE_DEVMEM`).
    fn devmem(
        &self,
        mem: &DeviceMemory,
        st: &mut State,
        slot: &mut [u64; 8],
    ) -> Result<(), String> {
        let (free_addr, size) = (slot[0], slot[1]);
        let Some((base, bytes)) = self.arena else {
            return Err(format!(
                "device memory request (free {free_addr:#x}, allocate {size} bytes) from a \
                 kernel whose metadata declares no hidden_heap_v1, so wavesim reserved no \
                 device heap for it"
            ));
        };
        if free_addr != 0 {
            let Some(len) = st.used.remove(&free_addr) else {
                // ROCclr logs "Unknown pointer" and goes on; a kernel that frees what it
                // was not given has a bug worth stopping for.
                return Err(format!(
                    "device memory service: free of {free_addr:#x}, which it never handed out"
                ));
            };
            insert_free(&mut st.free, free_addr, len);
            return Ok(());
        }
        if size == 0 {
            return Err("device memory service: a request with both payload words 0".into());
        }
        let align = if size == SLAB_BYTES {
            SLAB_BYTES
        } else {
            PAGE_BYTES
        };
        let len = size.next_multiple_of(PAGE_BYTES);
        let found = st.free.iter().find_map(|(&a, &n)| {
            let start = a.next_multiple_of(align);
            (start + len <= a + n && start + len <= base + bytes).then_some((a, n, start))
        });
        slot[0] = match found {
            Some((a, n, start)) => {
                st.free.remove(&a);
                if start > a {
                    st.free.insert(a, start - a);
                }
                if start + len < a + n {
                    st.free.insert(start + len, a + n - start - len);
                }
                st.used.insert(start, len);
                // Blocks come back zeroed, as fresh ROCm buffers are.
                mem.fill(start, 0, len).map_err(|e| e.to_string())?;
                start
            }
            None => 0,
        };
        Ok(())
    }
}

/// Puts a block back on the free list, merged with its neighbours.
fn insert_free(free: &mut BTreeMap<u64, u64>, mut addr: u64, mut len: u64) {
    if let Some((&a, &n)) = free.range(..addr).next_back() {
        if a + n == addr {
            free.remove(&a);
            addr = a;
            len += n;
        }
    }
    if let Some(n) = free.remove(&(addr + len)) {
        len += n;
    }
    free.insert(addr, len);
}

/// Descriptor fields of a message packet (slot 0; ROCclr `devhcmessages.cpp`): BEGIN bit 0, END
/// bit 1, LEN (data words in this packet) bits 5..8, message id bits 8..64.
const DESC_BEGIN: u64 = 1;
const DESC_END: u64 = 2;

/// Service 2: one packet of a message. BEGIN opens a message and returns its id in the
/// descriptor; the data words are appended; END formats the message and answers with printf's
/// return value.
fn message(st: &mut State, slot: &mut [u64; 8]) -> Result<(), String> {
    let mut desc = slot[0];
    let id = if desc & DESC_BEGIN != 0 {
        let id = match st.free_ids.pop() {
            Some(id) => id,
            None => {
                st.messages.push(None);
                st.messages.len() as u64 - 1
            }
        };
        st.messages[id as usize] = Some(Vec::new());
        desc = (desc & !DESC_BEGIN & 0xff) | id << 8;
        slot[0] = desc;
        id
    } else {
        desc >> 8
    };
    let Some(Some(words)) = st.messages.get_mut(id as usize) else {
        return Err(format!(
            "printf message packet for message {id}, which no BEGIN packet opened \
             (descriptor {desc:#x})"
        ));
    };
    let len = ((desc >> 5) & 7) as usize;
    words.extend_from_slice(&slot[1..1 + len]);
    if desc & DESC_END == 0 {
        return Ok(());
    }
    let words = std::mem::take(words);
    st.messages[id as usize] = None;
    st.free_ids.push(id);
    // ROCclr `handlePrintf`: word 0 is the control word; only bit 0 (stderr) is defined.
    let control = words.first().copied().unwrap_or(0);
    if control & !1 != 0 {
        slot[0] = u64::MAX;
        return Ok(());
    }
    let text = format(&words[1..])?;
    slot[0] = text.len() as i64 as u64;
    if control & 1 != 0 {
        st.out.stderr.extend_from_slice(&text);
    } else {
        st.out.stdout.extend_from_slice(&text);
    }
    Ok(())
}

/// The bytes of `words` in memory order.
fn bytes_of(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The NUL-terminated string at the start of `words` (all of them when there is no NUL).
fn c_string(words: &[u64]) -> Vec<u8> {
    let mut b = bytes_of(words);
    if let Some(n) = b.iter().position(|&c| c == 0) {
        b.truncate(n);
    }
    b
}

/// The conversions ROCclr's `format` looks for after a `%`.
const CONVERSIONS: &[u8] = b"diouxXfFeEgGaAcspn";

/// Formats a printf message (the format string padded to whole words, then one word per
/// argument, strings inline padded to whole words) the way ROCclr's `format` does: literal
/// text as it is, `%%` as `%`, each conversion handed to the C library's printf with its
/// argument words. Its rules, kept here because they decide the output:
/// - output stops at the first conversion for which no argument word is left;
/// - a conversion is the text from `%` to the next conversion letter of [`CONVERSIONS`];
/// - `*` widths and precisions take one word each, before the value (more than two stars, or
///   too few words for them, consume every remaining word);
/// - integers are the argument word as C's `printf` reads it for the length modifier (no
///   modifier, `h`, `hh`: the low 32 bits as an `int`; `l`, `ll`, `j`, `z`, `t`: all 64);
/// - a string argument is read up to its NUL, and the words skipped after it are
///   `(characters printed + 1 + 7) / 8`, so a width or precision that changes the printed
///   length misplaces the arguments after it, exactly as on ROCm;
/// - `%n` skips one word and prints nothing.
///
/// Conversions ROCm would hand to printf with the wrong C type (a `long double`, wide
/// characters and strings, vector conversions) are errors here.
fn format(words: &[u64]) -> Result<Vec<u8>, String> {
    let fmt = c_string(words);
    let mut ptr = (fmt.len() + 8) / 8;
    let end = words.len();
    let mut out = Vec::new();
    let mut point = 0usize;
    loop {
        let mark = point;
        let Some(pct) = fmt[point..]
            .iter()
            .position(|&c| c == b'%')
            .map(|i| i + point)
        else {
            out.extend_from_slice(&fmt[mark..]);
            return Ok(out);
        };
        out.extend_from_slice(&fmt[mark..pct]);
        point = pct + 1;
        if fmt.get(point) == Some(&b'%') {
            out.push(b'%');
            point += 1;
            continue;
        }
        if ptr >= end {
            return Ok(out);
        }
        let Some(conv) = fmt[point..]
            .iter()
            .position(|c| CONVERSIONS.contains(c))
            .map(|i| i + point)
        else {
            return Ok(out);
        };
        point = conv + 1;
        let spec = &fmt[pct..point];
        ptr = conversion(spec, words, ptr, &mut out)?;
    }
}

/// One conversion `spec` (`%` to its letter) with its arguments from `words[ptr..]`; returns
/// the index of the first word after them.
fn conversion(spec: &[u8], words: &[u64], ptr: usize, out: &mut Vec<u8>) -> Result<usize, String> {
    let end = words.len();
    let text = String::from_utf8_lossy(spec).into_owned();
    let stars = spec.iter().filter(|&&c| c == b'*').count();
    if stars > 2 || end - ptr < stars + 1 {
        return Ok(end);
    }
    let star_args: Vec<i32> = words[ptr..ptr + stars].iter().map(|&w| w as i32).collect();
    let at = ptr + stars;
    let conv = *spec.last().unwrap_or(&b'd');
    // %[flags][width][.precision][length]conversion, nothing else (ROCm would hand anything
    // else, such as OpenCL's vector `v4`, to the C library as it is).
    let body = &spec[1..spec.len() - 1];
    let mut i = 0;
    while i < body.len() && b"-+ #0'".contains(&body[i]) {
        i += 1;
    }
    let width_start = i;
    while i < body.len() && (body[i].is_ascii_digit() || (body[i] == b'*' && i == width_start)) {
        i += 1;
    }
    if i < body.len() && body[i] == b'.' {
        i += 1;
        let p = i;
        while i < body.len() && (body[i].is_ascii_digit() || (body[i] == b'*' && i == p)) {
            i += 1;
        }
    }
    let length = &body[i..];
    let bad = |why: &str| Err(format!("printf conversion `{text}`: {why}"));
    if !matches!(
        length,
        b"" | b"h" | b"hh" | b"l" | b"ll" | b"j" | b"z" | b"t" | b"L" | b"q"
    ) {
        return bad("not a C conversion ROCm's printf can print (vector conversions are OpenCL's buffered printf's)");
    }
    let wide = matches!(length, b"l" | b"ll" | b"j" | b"z" | b"t" | b"q");
    let w = words[at];
    let value = match conv {
        b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => {
            if length == b"L" {
                return bad("the L modifier on an integer conversion");
            }
            if wide {
                CValue::U64(w)
            } else {
                CValue::Int(w as u32 as i32)
            }
        }
        b'c' => {
            if !length.is_empty() {
                return bad("wide characters are not supported by ROCm's printf");
            }
            CValue::Int(w as u32 as i32)
        }
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
            if !matches!(length, b"" | b"l") {
                return bad("ROCm passes every floating-point argument as a double");
            }
            CValue::F64(f64::from_bits(w))
        }
        b'p' => {
            if !length.is_empty() {
                return bad("a length modifier on %p");
            }
            CValue::Ptr(w)
        }
        b's' => {
            if !length.is_empty() {
                return bad("wide strings are not supported by ROCm's printf");
            }
            let s = c_string(&words[at..]);
            let c = std::ffi::CString::new(s).map_err(|e| e.to_string())?;
            let printed = c_format_stars(&text, &star_args, &CValue::Str(c));
            out.extend_from_slice(&printed);
            return Ok((at + (printed.len() + 1).div_ceil(8)).min(end));
        }
        // %n: nothing printed, one word skipped.
        _ => return Ok(at + 1),
    };
    out.extend_from_slice(&c_format_stars(&text, &star_args, &value));
    Ok(at + 1)
}

impl std::fmt::Debug for Hostcall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hostcall {{ buffer: {:#x} }}", self.buffer)
    }
}

impl HostServices for Hostcall {
    fn serve(&self, mem: &DeviceMemory) -> Result<(), ExecError> {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(stop) = &st.out.stop {
            return Err(stop_error(stop));
        }
        let r = self.serve_all(mem, &mut st);
        if let Err(stop) = r {
            let e = stop_error(&stop);
            st.out.stop = Some(stop);
            return Err(e);
        }
        Ok(())
    }

    /// ROCm's trap handler (AMDGPUUsage, "Trap Handler ABI"): `s_trap 3` (llvm.debugtrap) does
    /// nothing without a debugger; `s_trap 2` (llvm.trap, as after a failed `assert`) halts the
    /// wave and puts the queue into the error state, ending the dispatch; so does every other
    /// id, which that ABI reserves.
    fn trap(&self, id: u32) -> Result<(), ExecError> {
        if id == 3 {
            return Ok(());
        }
        let stop = Stop::Abort(id);
        let e = stop_error(&stop);
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.out.stop.get_or_insert(stop);
        Err(e)
    }
}

fn stop_error(stop: &Stop) -> ExecError {
    match stop {
        Stop::Request(why) => ExecError::Other(format!("hostcall: {why}")),
        Stop::Abort(2) => ExecError::Other(
            "s_trap 2 (llvm.trap): the kernel aborted; ROCm's trap handler ends the dispatch"
                .into(),
        ),
        Stop::Abort(id) => ExecError::Other(format!(
            "s_trap {id}: a trap id ROCm's trap handler treats as an abort; the dispatch ends"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs a format string and arguments into message words as ockl does (strings padded
    /// to whole words, each scalar one word).
    fn words(fmt: &str, args: &[Arg]) -> Vec<u64> {
        let mut b = fmt.as_bytes().to_vec();
        b.push(0);
        let mut w = pack(&b);
        for a in args {
            match a {
                Arg::W(v) => w.push(*v),
                Arg::S(s) => {
                    let mut b = s.as_bytes().to_vec();
                    b.push(0);
                    w.extend(pack(&b));
                }
            }
        }
        w
    }
    fn pack(b: &[u8]) -> Vec<u64> {
        b.chunks(8)
            .map(|c| {
                let mut x = [0u8; 8];
                x[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(x)
            })
            .collect()
    }
    enum Arg {
        W(u64),
        S(&'static str),
    }
    use Arg::{S, W};

    fn f(fmt: &str, args: &[Arg]) -> String {
        String::from_utf8(format(&words(fmt, args)).unwrap()).unwrap()
    }

    #[test]
    fn conversions_follow_c_printf() {
        // C printf: %d of the low 32 bits 0xfffffff9 is -7; %ld of the whole word.
        assert_eq!(f("%d|%ld", &[W(0xffff_fff9), W(u64::MAX)]), "-7|-1");
        // %5.2f of 2.5: width 5, two decimals.
        assert_eq!(f("%5.2f", &[W(2.5f64.to_bits())]), " 2.50");
        // %*d: the width comes from the word before the value.
        assert_eq!(f("[%*d]", &[W(4), W(7)]), "[   7]");
        assert_eq!(
            f("%x %X %o %c", &[W(255), W(255), W(8), W(b'A' as u64)]),
            "ff FF 10 A"
        );
        assert_eq!(f("%s and %s", &[S("one"), S("two")]), "one and two");
        assert_eq!(f("100%% %a", &[W(1.0f64.to_bits())]), "100% 0x1p+0");
        // %hhd: the int's low byte as a signed char (0x1ff -> -1).
        assert_eq!(f("%hhd", &[W(0x1ff)]), "-1");
    }

    #[test]
    fn rocm_rules_for_missing_arguments_and_strings() {
        // Output stops at the first conversion without an argument.
        assert_eq!(f("a %d b %d c", &[W(1)]), "a 1 b ");
        // %n prints nothing and takes one word.
        assert_eq!(f("%n%d", &[W(0), W(5)]), "5");
        // "%-6s" prints 6 characters, so ROCm skips (6 + 1 + 7) / 8 = 1 word: "ab" took 1.
        assert_eq!(f("%-6s|%d", &[S("ab"), W(3)]), "ab    |3");
        // "%-9s" prints 9, so ROCm skips 2 words while "ab" took 1: the %d that follows
        // finds no word left and output stops there.
        assert_eq!(f("%-9s|%d", &[S("ab"), W(3)]), "ab       |");
    }

    #[test]
    fn conversions_rocm_cannot_print_are_errors() {
        assert!(format(&words("%Lf", &[W(0)])).is_err());
        assert!(format(&words("%v4d", &[W(0)])).is_err());
        assert!(format(&words("%ls", &[W(0)])).is_err());
    }

    #[test]
    fn free_blocks_merge() {
        let mut m = BTreeMap::new();
        insert_free(&mut m, 0x1000, 0x1000);
        insert_free(&mut m, 0x3000, 0x1000);
        insert_free(&mut m, 0x2000, 0x1000);
        assert_eq!(m.into_iter().collect::<Vec<_>>(), vec![(0x1000, 0x3000)]);
    }
}
