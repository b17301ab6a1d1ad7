//! The shim's kernel interface driven directly, without RADV: this test binary links the crate,
//! so its own `open`/`fstat`/`ioctl`/`mmap` calls reach the shim's definitions (as an
//! `LD_PRELOAD`ed library's would). Checks the render node, the INFO answers, that the CPU view
//! (GEM_MMAP + mmap) and the device view (GEM_VA) share their bytes, a submission, syncobjs
//! and the errors of unsupported requests.

use std::ffi::c_void;
use wavesim_drm_amdgpu::uapi::*;

/// `_IOC(dir, 'd', nr, size)` (asm-generic/ioctl.h): dir 1 = write, 3 = read and write.
fn ioc(dir: u64, nr: u32, size: usize) -> u64 {
    dir << 30 | (size as u64) << 16 | (DRM_IOCTL_TYPE as u64) << 8 | nr as u64
}

fn amdgpu<T>(dir: u64, nr: u32) -> u64 {
    ioc(dir, DRM_COMMAND_BASE + nr, std::mem::size_of::<T>())
}

/// ioctl through the C library symbol (the shim's, in this binary); Err(errno) on failure.
fn ioctl<T>(fd: i32, req: u64, arg: &mut T) -> Result<(), i32> {
    // SAFETY: `arg` is the structure the request names.
    let r = unsafe { libc::ioctl(fd, req, arg as *mut T as *mut c_void) };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(0))
    }
}

fn open_node() -> i32 {
    // SAFETY: a NUL-terminated path.
    let fd = unsafe {
        libc::open(
            c"/dev/dri/renderD128".as_ptr(),
            libc::O_RDWR | libc::O_CLOEXEC,
        )
    };
    assert!(fd >= 0, "open failed");
    fd
}

fn gem_create(fd: i32, size: u64) -> u32 {
    let mut c = GemCreateIn {
        bo_size: size,
        alignment: 4096,
        domains: 2,
        domain_flags: 0,
    };
    ioctl(fd, amdgpu::<GemCreateIn>(3, AMDGPU_GEM_CREATE), &mut c).unwrap();
    c.bo_size as u32
}

fn gem_va(fd: i32, handle: u32, op: u32, va: u64, size: u64) -> Result<(), i32> {
    let mut v = GemVa {
        handle,
        pad: 0,
        operation: op,
        flags: AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE,
        va_address: va,
        offset_in_bo: 0,
        map_size: size,
    };
    ioctl(fd, amdgpu::<GemVa>(1, AMDGPU_GEM_VA), &mut v)
}

/// A CPU mapping of a BO through GEM_MMAP and mmap of the render node.
fn cpu_map(fd: i32, handle: u32, size: usize) -> *mut u32 {
    let mut m = GemMmap {
        handle_or_offset: handle as u64,
    };
    ioctl(fd, amdgpu::<GemMmap>(3, AMDGPU_GEM_MMAP), &mut m).unwrap();
    // SAFETY: mapping a BO's range as the uapi describes.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd,
            m.handle_or_offset as i64,
        )
    };
    assert_ne!(p, libc::MAP_FAILED);
    p as *mut u32
}

#[test]
fn render_node_info_memory_and_submission() {
    let fd = open_node();
    // fstat: character device 226:128.
    // SAFETY: all-zero is a valid struct stat; fstat fills it.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::fstat(fd, &mut st) }, 0);
    assert_eq!(st.st_mode & libc::S_IFMT, libc::S_IFCHR);
    assert_eq!(st.st_rdev, libc::makedev(226, 128));

    // DRM_IOCTL_VERSION: amdgpu 3.49.
    let mut name = [0u8; 16];
    let mut v = DrmVersion {
        version_major: 0,
        version_minor: 0,
        version_patchlevel: 0,
        name_len: name.len(),
        name: name.as_mut_ptr(),
        date_len: 0,
        date: std::ptr::null_mut(),
        desc_len: 0,
        desc: std::ptr::null_mut(),
    };
    ioctl(fd, ioc(3, NR_VERSION, 64), &mut v).unwrap();
    assert_eq!((v.version_major, v.version_minor), (3, 49));
    assert_eq!(&name[..v.name_len], b"amdgpu");

    // AMDGPU_INFO_DEV_INFO: Navi 31.
    let mut dev = InfoDevice::default();
    let mut info = Info {
        return_pointer: &mut dev as *mut InfoDevice as u64,
        return_size: std::mem::size_of::<InfoDevice>() as u32,
        query: AMDGPU_INFO_DEV_INFO,
        args: [0; 4],
    };
    ioctl(fd, amdgpu::<Info>(1, AMDGPU_INFO), &mut info).unwrap();
    assert_eq!(
        (dev.device_id, dev.family, dev.external_rev),
        (0x744c, 145, 1)
    );
    // A query the device does not answer: EINVAL.
    info.query = 0x1d; // AMDGPU_INFO_SENSOR
    assert_eq!(
        ioctl(fd, amdgpu::<Info>(1, AMDGPU_INFO), &mut info),
        Err(libc::EINVAL)
    );

    // One BO, two views: what the CPU writes, the device address reads, and back.
    let bo = gem_create(fd, 8192);
    let cpu = cpu_map(fd, bo, 8192);
    let va = 0x20_0000_0000u64;
    gem_va(fd, bo, AMDGPU_VA_OP_MAP, va, 8192).unwrap();
    // SAFETY: both are live 8 KiB mappings of the BO.
    unsafe {
        *cpu.add(5) = 0x1234_5678;
        assert_eq!(*(va as *const u32).add(5), 0x1234_5678);
        *(va as *mut u32).add(6) = 0x9abc_def0;
        assert_eq!(*cpu.add(6), 0x9abc_def0);
    }
    // Mapping the same VA twice overlaps: refused.
    assert_eq!(
        gem_va(fd, bo, AMDGPU_VA_OP_MAP, va, 4096),
        Err(libc::EINVAL)
    );

    // A submission: WRITE_DATA (DST_SEL 5) of 0xfeed to va + 0x100, then a fence syncobj.
    let ib: [u32; 5] = [
        3 << 30 | 3 << 16 | 0x37 << 8,
        5 << 8,
        (va + 0x100) as u32,
        ((va + 0x100) >> 32) as u32,
        0xfeed,
    ];
    // SAFETY: the IB goes at the BO's second page through the CPU view.
    unsafe { std::ptr::copy_nonoverlapping(ib.as_ptr(), cpu.add(1024), ib.len()) };
    let mut ctx = CtxIn {
        op: AMDGPU_CTX_OP_ALLOC_CTX,
        ..Default::default()
    };
    ioctl(fd, amdgpu::<CtxIn>(3, AMDGPU_CTX), &mut ctx).unwrap();
    let ctx_id = ctx.op; // out.alloc.ctx_id overlays in.op
    let mut sc = SyncobjCreate::default();
    ioctl(fd, ioc(3, NR_SYNCOBJ_CREATE, 8), &mut sc).unwrap();
    let chunk_ib = CsChunkIb {
        va_start: va + 4096,
        ib_bytes: 20,
        ip_type: AMDGPU_HW_IP_COMPUTE,
        ..Default::default()
    };
    let out_sync = [sc.handle];
    // The user fence: the sequence number lands at byte 0x800 of the BO.
    let fence = CsChunkFence {
        handle: bo,
        offset: 0x800,
    };
    let chunks = [
        CsChunk {
            chunk_id: AMDGPU_CHUNK_ID_IB,
            length_dw: 8,
            chunk_data: &chunk_ib as *const CsChunkIb as u64,
        },
        CsChunk {
            chunk_id: AMDGPU_CHUNK_ID_SYNCOBJ_OUT,
            length_dw: 1,
            chunk_data: out_sync.as_ptr() as u64,
        },
        CsChunk {
            chunk_id: AMDGPU_CHUNK_ID_FENCE,
            length_dw: 2,
            chunk_data: &fence as *const CsChunkFence as u64,
        },
    ];
    let chunk_ptrs: Vec<u64> = chunks.iter().map(|c| c as *const CsChunk as u64).collect();
    let mut cs = CsIn {
        ctx_id,
        bo_list_handle: 0,
        num_chunks: 3,
        flags: 0,
        chunks: chunk_ptrs.as_ptr() as u64,
    };
    ioctl(fd, amdgpu::<CsIn>(3, AMDGPU_CS), &mut cs).unwrap();
    let seq = cs.ctx_id as u64 | (cs.bo_list_handle as u64) << 32; // out.handle overlays
    assert_eq!(seq, 1);
    // SAFETY: inside the CPU view.
    assert_eq!(unsafe { *cpu.add(0x40) }, 0xfeed);
    // SAFETY: inside the CPU view: the 64-bit user fence holds sequence 1.
    assert_eq!(unsafe { (*cpu.add(0x200), *cpu.add(0x201)) }, (1, 0));
    // The out syncobj is signalled: a wait with timeout 0 succeeds.
    let mut w = SyncobjWait {
        handles: out_sync.as_ptr() as u64,
        timeout_nsec: 0,
        count_handles: 1,
        ..Default::default()
    };
    ioctl(fd, ioc(3, NR_SYNCOBJ_WAIT, 32), &mut w).unwrap();
    // WAIT_CS for sequence 1: idle.
    let mut wc = WaitCsIn {
        handle: 1,
        timeout: 0,
        ip_type: AMDGPU_HW_IP_COMPUTE,
        ip_instance: 0,
        ring: 0,
        ctx_id,
    };
    ioctl(fd, amdgpu::<WaitCsIn>(3, AMDGPU_WAIT_CS), &mut wc).unwrap();
    assert_eq!(wc.handle, 0, "status 0: idle");

    // An IB with a packet the executor does not know fails the submission: ECANCELED.
    // SAFETY: inside the CPU view.
    unsafe { *cpu.add(1024) = 3 << 30 | 0x99 << 8 };
    let mut cs2 = CsIn {
        ctx_id,
        num_chunks: 1,
        chunks: chunk_ptrs.as_ptr() as u64,
        ..Default::default()
    };
    assert_eq!(
        ioctl(fd, amdgpu::<CsIn>(3, AMDGPU_CS), &mut cs2),
        Err(libc::ECANCELED)
    );

    // An ioctl the device does not implement (DRM_IOCTL_PRIME_HANDLE_TO_FD): EINVAL.
    let mut prime = [0u32; 3];
    assert_eq!(
        ioctl(fd, ioc(3, NR_PRIME_HANDLE_TO_FD, 12), &mut prime),
        Err(libc::EINVAL)
    );

    // GEM_CLOSE unmaps the BO's device view: the VA can be mapped again by a new BO.
    let mut close = DrmGemClose { handle: bo, pad: 0 };
    ioctl(fd, ioc(1, NR_GEM_CLOSE, 8), &mut close).unwrap();
    let bo2 = gem_create(fd, 4096);
    gem_va(fd, bo2, AMDGPU_VA_OP_MAP, va, 4096).unwrap();
    // SAFETY: closing our descriptor.
    assert_eq!(unsafe { libc::close(fd) }, 0);
}
