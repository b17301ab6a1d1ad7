//! The DRM device: open files of the render node, their buffer objects, contexts, BO lists and
//! syncobjs, and the ioctls libdrm_amdgpu and RADV send, answered as Linux's amdgpu driver
//! answers them (return values and errno). Command submission runs the IBs at once through
//! the PM4 executor, so every fence is signalled when `AMDGPU_CS` returns.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard};

use crate::device;
use crate::memory::{Memory, VaMapping};
use crate::pm4::{self, QueueState};
use crate::uapi::*;

pub use crate::log::{debug_enabled, report};

/// An ioctl's failure: the errno the kernel returns, and what to tell the user (None for
/// failures the driver expects and handles, e.g. a timed-out wait).
pub struct Fail {
    pub errno: i32,
    pub msg: Option<String>,
}

fn fail(errno: i32, msg: impl Into<String>) -> Fail {
    Fail {
        errno,
        msg: Some(msg.into()),
    }
}

type R<T = ()> = Result<T, Fail>;

#[derive(Debug)]
struct Bo {
    create: GemCreateIn,
    file_off: u64,
    size: u64,
    cpu_mapped: bool,
    metadata: Option<Box<GemMetadata>>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Syncobj {
    /// A fence is attached (binary semantics) and, every submission being complete, signalled.
    signaled: bool,
    /// The timeline's last signalled point.
    point: u64,
}

impl Syncobj {
    fn satisfied(&self, point: u64) -> bool {
        if point == 0 {
            self.signaled
        } else {
            self.point >= point
        }
    }
    fn signal(&mut self, point: u64) {
        self.signaled = true;
        self.point = self.point.max(point);
    }
}

#[derive(Debug, Default)]
struct DrmFile {
    bos: HashMap<u32, Bo>,
    next_bo: u32,
    ctxs: HashMap<u32, HashMap<(u32, u32), u64>>,
    next_ctx: u32,
    lists: HashMap<u32, Vec<u32>>,
    next_list: u32,
    syncobjs: HashMap<u32, Syncobj>,
    next_syncobj: u32,
}

fn new_handle(next: &mut u32) -> u32 {
    *next += 1;
    *next
}

pub struct Shim {
    pub mem: Memory,
    files: HashMap<u32, DrmFile>,
    fds: HashMap<i32, u32>,
    next_file: u32,
    /// Register state of each hardware queue (ip type, ring), kept across submissions as the
    /// CP keeps it.
    queues: HashMap<(u32, u32), QueueState>,
    usage: [u64; 3],
    /// Reserved partially-resident (PRT) ranges: address -> bytes.
    prt: HashMap<u64, u64>,
}

static SHIM: Mutex<Option<Shim>> = Mutex::new(None);
/// Signalled whenever a syncobj or fence may have changed (waits block on it).
static CHANGED: Condvar = Condvar::new();

/// Most file descriptor numbers the shim tracks (a lock-free flag per number, so the
/// interposed close/ioctl/mmap of every other file cost one atomic load).
pub const MAX_FD: usize = 1 << 16;
static IS_SHIM_FD: [std::sync::atomic::AtomicBool; MAX_FD] =
    [const { std::sync::atomic::AtomicBool::new(false) }; MAX_FD];

pub fn is_shim_fd(fd: i32) -> bool {
    usize::try_from(fd)
        .ok()
        .and_then(|i| IS_SHIM_FD.get(i))
        .is_some_and(|b| b.load(std::sync::atomic::Ordering::Acquire))
}

fn set_shim_fd(fd: i32, on: bool) {
    if let Some(b) = usize::try_from(fd).ok().and_then(|i| IS_SHIM_FD.get(i)) {
        b.store(on, std::sync::atomic::Ordering::Release);
    }
}

fn lock() -> Result<MutexGuard<'static, Option<Shim>>, Fail> {
    let mut g = SHIM.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_none() {
        let mem = Memory::new().map_err(|e| fail(libc::ENOMEM, e.to_string()))?;
        *g = Some(Shim {
            mem,
            files: HashMap::new(),
            fds: HashMap::new(),
            next_file: 0,
            queues: HashMap::new(),
            usage: [0; 3],
            prt: HashMap::new(),
        });
    }
    Ok(g)
}

/// Registers `fd` (a descriptor the shim opened for the render node) as a new DRM file.
pub fn register_open(fd: i32) -> Result<(), i32> {
    if usize::try_from(fd).map_or(true, |i| i >= MAX_FD) {
        report(&format!("render node fd {fd} is beyond {MAX_FD}"));
        return Err(libc::EMFILE);
    }
    let mut g = lock().map_err(|f| f.errno)?;
    let Some(s) = g.as_mut() else {
        return Err(libc::EIO);
    };
    s.next_file += 1;
    let id = s.next_file;
    s.files.insert(id, DrmFile::default());
    s.fds.insert(fd, id);
    set_shim_fd(fd, true);
    Ok(())
}

/// `new` now refers to the same open file as `old` (dup, dup2, fcntl F_DUPFD).
pub fn register_dup(old: i32, new: i32) {
    if usize::try_from(new).map_or(true, |i| i >= MAX_FD) {
        report(&format!(
            "duplicate render node fd {new} is beyond {MAX_FD}"
        ));
        return;
    }
    if let Ok(mut g) = lock() {
        if let Some(s) = g.as_mut() {
            if let Some(&id) = s.fds.get(&old) {
                s.fds.insert(new, id);
                set_shim_fd(new, true);
            }
        }
    }
}

/// The descriptor is being closed: the file goes away with its last descriptor (its BOs,
/// VA mappings, contexts and syncobjs with it, as the kernel releases them).
pub fn register_close(fd: i32) {
    if !is_shim_fd(fd) {
        return;
    }
    set_shim_fd(fd, false);
    let Ok(mut g) = lock() else { return };
    let Some(s) = g.as_mut() else { return };
    let Some(id) = s.fds.remove(&fd) else { return };
    if s.fds.values().any(|&f| f == id) {
        return;
    }
    if let Some(file) = s.files.remove(&id) {
        for va in s.mem.mappings_where(|_, m| m.file == id) {
            let _ = s.mem.unmap(va);
        }
        for bo in file.bos.values() {
            if !bo.cpu_mapped {
                s.mem.release(bo.file_off, bo.size);
            }
        }
    }
}

/// The memfd and offset to map for an mmap of the render node at `offset` (a GEM_MMAP
/// offset), after checking it lies in one of the file's BOs.
pub fn mmap_target(fd: i32, offset: u64, len: u64) -> Result<(i32, u64), i32> {
    let g = lock().map_err(|f| f.errno)?;
    let Some(s) = g.as_ref() else {
        return Err(libc::EIO);
    };
    let ok = s
        .fds
        .get(&fd)
        .and_then(|id| s.files.get(id))
        .is_some_and(|f| {
            f.bos.values().any(|b| {
                offset >= b.file_off
                    && offset + len <= b.file_off + b.size.max(1).next_multiple_of(4096)
            })
        });
    if !ok {
        report(&format!(
            "mmap of the render node at offset {offset:#x} (+{len:#x}) is not inside a buffer object"
        ));
        return Err(libc::EINVAL);
    }
    Ok((s.mem.memfd(), offset))
}

/// Reads a `T` from the application's argument.
///
/// # Safety
/// `p` must point to a readable `T` (the ioctl's argument as the caller passed it).
unsafe fn rd<T: Copy>(p: u64) -> T {
    unsafe { std::ptr::read_unaligned(p as *const T) }
}

/// # Safety
/// `p` must point to a writable `T`.
unsafe fn wr<T: Copy>(p: u64, v: T) {
    unsafe { std::ptr::write_unaligned(p as *mut T, v) }
}

/// Copies `min(len, size_of T)` bytes of `v` to `p` (INFO queries: the kernel copies at most
/// what the caller asked for).
///
/// # Safety
/// `p` must be writable for `len` bytes.
unsafe fn wr_partial<T: Copy>(p: u64, len: u32, v: &T) {
    let n = (len as usize).min(std::mem::size_of::<T>());
    unsafe { std::ptr::copy_nonoverlapping(v as *const T as *const u8, p as *mut u8, n) }
}

/// Handles one ioctl on a render-node descriptor; `Err(errno)` after reporting it.
///
/// # Safety
/// `arg` is the application's ioctl argument: it must point to the structure the request
/// names, and every user pointer inside it to what the uapi says (as for the kernel, except
/// that a bad pointer faults in the application instead of returning EFAULT).
pub unsafe fn ioctl(fd: i32, request: u64, arg: u64) -> Result<i32, i32> {
    let req = IoctlRequest::decode(request);
    let r = loop {
        let r = unsafe { ioctl_once(fd, req, request, arg) };
        // A syncobj wait for work another thread has yet to submit: block until something
        // changes or the deadline (absolute, CLOCK_MONOTONIC) passes, then look again.
        if let Err(Fail {
            errno: libc::EBUSY,
            msg: None,
        }) = r
        {
            let deadline: i64 = match req.nr {
                NR_SYNCOBJ_WAIT => unsafe { rd(arg + 8) },
                _ => unsafe { rd(arg + 16) },
            };
            if wait_for_change(deadline) {
                continue;
            }
            break Err(Fail {
                errno: libc::ETIME,
                msg: None,
            });
        }
        break r;
    };
    match r {
        Ok(v) => {
            if debug_enabled() {
                report(&format!("ioctl nr {:#x} size {} ok", req.nr, req.size));
            }
            CHANGED.notify_all();
            Ok(v)
        }
        Err(f) => {
            if let Some(m) = f.msg {
                report(&m);
            }
            Err(f.errno)
        }
    }
}

/// One attempt at an ioctl under the shim's lock.
///
/// # Safety
/// As [`ioctl`].
unsafe fn ioctl_once(fd: i32, req: IoctlRequest, request: u64, arg: u64) -> R<i32> {
    if req.ty != DRM_IOCTL_TYPE {
        Err(fail(
            libc::ENOTTY,
            format!("ioctl {request:#x} is not a DRM ioctl"),
        ))
    } else if arg == 0 && req.size != 0 {
        Err(fail(
            libc::EFAULT,
            format!("ioctl {request:#x} without an argument"),
        ))
    } else {
        let mut g = lock()?;
        match g.as_mut() {
            // SAFETY: forwarded.
            Some(s) => unsafe { s.ioctl(fd, req, arg) },
            None => Err(fail(libc::EIO, "shim state missing")),
        }
    }
}

/// Names of the core and amdgpu ioctls, for messages.
fn ioctl_name(nr: u32) -> &'static str {
    match nr {
        NR_VERSION => "DRM_IOCTL_VERSION",
        NR_GEM_CLOSE => "DRM_IOCTL_GEM_CLOSE",
        NR_GET_CAP => "DRM_IOCTL_GET_CAP",
        NR_SET_CLIENT_CAP => "DRM_IOCTL_SET_CLIENT_CAP",
        NR_PRIME_HANDLE_TO_FD => "DRM_IOCTL_PRIME_HANDLE_TO_FD",
        NR_PRIME_FD_TO_HANDLE => "DRM_IOCTL_PRIME_FD_TO_HANDLE",
        NR_SYNCOBJ_HANDLE_TO_FD => "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD",
        NR_SYNCOBJ_FD_TO_HANDLE => "DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE",
        n if n >= DRM_COMMAND_BASE => match n - DRM_COMMAND_BASE {
            AMDGPU_GEM_USERPTR => "DRM_IOCTL_AMDGPU_GEM_USERPTR",
            AMDGPU_SCHED => "DRM_IOCTL_AMDGPU_SCHED",
            _ => "an amdgpu ioctl",
        },
        _ => "a DRM ioctl",
    }
}

fn now_ns() -> i64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: valid out pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
    t.tv_sec.saturating_mul(1_000_000_000) + t.tv_nsec
}

impl Shim {
    fn file(&mut self, fd: i32) -> R<(u32, &mut DrmFile)> {
        let id = *self
            .fds
            .get(&fd)
            .ok_or_else(|| fail(libc::EBADF, format!("fd {fd} is not a render node")))?;
        let f = self
            .files
            .get_mut(&id)
            .ok_or_else(|| fail(libc::EBADF, "file gone"))?;
        Ok((id, f))
    }

    unsafe fn ioctl(&mut self, fd: i32, req: IoctlRequest, arg: u64) -> R<i32> {
        // SAFETY (all reads/writes of `arg` below): the caller vouches for `arg`, and each
        // request's size field was checked against the structure's size first.
        let size_ok = |t: usize| {
            if req.size as usize == t {
                Ok(())
            } else {
                Err(fail(
                    libc::EINVAL,
                    format!(
                        "{} (nr {:#x}) with argument size {} (expected {t})",
                        ioctl_name(req.nr),
                        req.nr,
                        req.size
                    ),
                ))
            }
        };
        use std::mem::size_of as sz;
        match req.nr {
            NR_VERSION => {
                size_ok(sz::<DrmVersion>())?;
                let mut v: DrmVersion = unsafe { rd(arg) };
                let (major, minor, patch) = device::DRM_VERSION;
                v.version_major = major;
                v.version_minor = minor;
                v.version_patchlevel = patch;
                let put = |buf: *mut u8, len: &mut usize, s: &[u8]| {
                    if !buf.is_null() {
                        let n = (*len).min(s.len());
                        // SAFETY: the caller's buffer of *len bytes.
                        unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), buf, n) };
                    }
                    *len = s.len();
                };
                put(v.name, &mut v.name_len, b"amdgpu");
                put(v.date, &mut v.date_len, b"20150101");
                put(v.desc, &mut v.desc_len, b"AMD GPU");
                unsafe { wr(arg, v) };
                Ok(0)
            }
            NR_GET_CAP => {
                size_ok(sz::<DrmGetCap>())?;
                let mut c: DrmGetCap = unsafe { rd(arg) };
                c.value = match c.capability {
                    DRM_CAP_SYNCOBJ | DRM_CAP_SYNCOBJ_TIMELINE => 1,
                    // amdgpu is a KMS driver with DRM format modifiers (gfx9+), and DRM event
                    // timestamps are CLOCK_MONOTONIC.
                    DRM_CAP_ADDFB2_MODIFIERS | DRM_CAP_TIMESTAMP_MONOTONIC => 1,
                    // DRM_PRIME_CAP_IMPORT | EXPORT are not offered: no dma-bufs.
                    DRM_CAP_PRIME => 0,
                    other => {
                        return Err(fail(
                            libc::EINVAL,
                            format!("DRM_IOCTL_GET_CAP: capability {other:#x} is not answered"),
                        ))
                    }
                };
                unsafe { wr(arg, c) };
                Ok(0)
            }
            NR_GEM_CLOSE => {
                size_ok(sz::<DrmGemClose>())?;
                let c: DrmGemClose = unsafe { rd(arg) };
                self.gem_close(fd, c.handle)?;
                Ok(0)
            }
            NR_SYNCOBJ_CREATE => {
                size_ok(sz::<SyncobjCreate>())?;
                let mut c: SyncobjCreate = unsafe { rd(arg) };
                if c.flags & !DRM_SYNCOBJ_CREATE_SIGNALED != 0 {
                    return Err(fail(
                        libc::EINVAL,
                        format!("SYNCOBJ_CREATE flags {:#x}", c.flags),
                    ));
                }
                let (_, f) = self.file(fd)?;
                let h = new_handle(&mut f.next_syncobj);
                let mut s = Syncobj::default();
                if c.flags & DRM_SYNCOBJ_CREATE_SIGNALED != 0 {
                    s.signal(0);
                }
                f.syncobjs.insert(h, s);
                c.handle = h;
                unsafe { wr(arg, c) };
                Ok(0)
            }
            NR_SYNCOBJ_DESTROY => {
                size_ok(sz::<SyncobjDestroy>())?;
                let c: SyncobjDestroy = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                f.syncobjs
                    .remove(&c.handle)
                    .ok_or_else(|| fail(libc::EINVAL, format!("no syncobj {}", c.handle)))?;
                Ok(0)
            }
            NR_SYNCOBJ_RESET | NR_SYNCOBJ_SIGNAL => {
                size_ok(sz::<SyncobjArray>())?;
                let a: SyncobjArray = unsafe { rd(arg) };
                let handles = unsafe { read_array::<u32>(a.handles, a.count_handles)? };
                let (_, f) = self.file(fd)?;
                for h in &handles {
                    let s = syncobj(f, *h)?;
                    if req.nr == NR_SYNCOBJ_RESET {
                        s.signaled = false;
                    } else {
                        s.signal(0);
                    }
                }
                Ok(0)
            }
            NR_SYNCOBJ_TIMELINE_SIGNAL | NR_SYNCOBJ_QUERY => {
                size_ok(sz::<SyncobjTimelineArray>())?;
                let a: SyncobjTimelineArray = unsafe { rd(arg) };
                let handles = unsafe { read_array::<u32>(a.handles, a.count_handles)? };
                let mut points = unsafe { read_array::<u64>(a.points, a.count_handles)? };
                let (_, f) = self.file(fd)?;
                for (h, p) in handles.iter().zip(points.iter_mut()) {
                    let s = syncobj(f, *h)?;
                    if req.nr == NR_SYNCOBJ_QUERY {
                        *p = s.point;
                    } else {
                        s.signal(*p);
                    }
                }
                if req.nr == NR_SYNCOBJ_QUERY {
                    unsafe { write_array(a.points, &points) };
                }
                Ok(0)
            }
            NR_SYNCOBJ_TRANSFER => {
                size_ok(sz::<SyncobjTransfer>())?;
                let t: SyncobjTransfer = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                let src = *syncobj(f, t.src_handle)?;
                if !src.satisfied(t.src_point) {
                    return Err(fail(
                        libc::EINVAL,
                        format!(
                            "SYNCOBJ_TRANSFER from syncobj {} point {} which has no fence yet",
                            t.src_handle, t.src_point
                        ),
                    ));
                }
                syncobj(f, t.dst_handle)?.signal(t.dst_point);
                Ok(0)
            }
            NR_SYNCOBJ_WAIT => {
                size_ok(sz::<SyncobjWait>())?;
                let mut w: SyncobjWait = unsafe { rd(arg) };
                let handles = unsafe { read_array::<u32>(w.handles, w.count_handles)? };
                let points = vec![0u64; handles.len()];
                w.first_signaled =
                    self.wait_syncobjs(fd, &handles, &points, w.flags, w.timeout_nsec)?;
                unsafe { wr(arg, w) };
                Ok(0)
            }
            NR_SYNCOBJ_TIMELINE_WAIT => {
                size_ok(sz::<SyncobjTimelineWait>())?;
                let mut w: SyncobjTimelineWait = unsafe { rd(arg) };
                let handles = unsafe { read_array::<u32>(w.handles, w.count_handles)? };
                let points = unsafe { read_array::<u64>(w.points, w.count_handles)? };
                w.first_signaled =
                    self.wait_syncobjs(fd, &handles, &points, w.flags, w.timeout_nsec)?;
                unsafe { wr(arg, w) };
                Ok(0)
            }
            n if n >= DRM_COMMAND_BASE => unsafe { self.amdgpu_ioctl(fd, req, arg, &size_ok) },
            _ => Err(fail(
                libc::EINVAL,
                format!(
                    "{} (nr {:#x}) is not supported by the emulated device",
                    ioctl_name(req.nr),
                    req.nr
                ),
            )),
        }
    }

    /// Waits (releasing the lock) until the syncobjs are satisfied or the absolute
    /// CLOCK_MONOTONIC deadline passes; returns the first signalled index.
    fn wait_syncobjs(
        &mut self,
        fd: i32,
        handles: &[u32],
        points: &[u64],
        flags: u32,
        deadline: i64,
    ) -> R<u32> {
        let all = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL != 0;
        let for_submit = flags
            & (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT | DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE)
            != 0;
        let (_, f) = self.file(fd)?;
        let mut first = None;
        let mut done = true;
        for (i, (h, p)) in handles.iter().zip(points).enumerate() {
            let s = syncobj(f, *h)?;
            if s.satisfied(*p) {
                first.get_or_insert(i as u32);
            } else {
                done = false;
                if !for_submit {
                    // The kernel refuses to wait for a fence that was never submitted.
                    return Err(Fail {
                        errno: libc::EINVAL,
                        msg: None,
                    });
                }
            }
        }
        if (all && done) || (!all && first.is_some()) {
            return Ok(first.unwrap_or(0));
        }
        if deadline <= now_ns() {
            return Err(Fail {
                errno: libc::ETIME,
                msg: None,
            });
        }
        // Another thread has to submit the work: the caller retries after CHANGED; the
        // kernel's blocking wait is modelled by the caller-side loop in `hooks::ioctl`.
        Err(Fail {
            errno: libc::EBUSY,
            msg: None,
        })
    }

    unsafe fn amdgpu_ioctl(
        &mut self,
        fd: i32,
        req: IoctlRequest,
        arg: u64,
        size_ok: &dyn Fn(usize) -> R,
    ) -> R<i32> {
        use std::mem::size_of as sz;
        match req.nr - DRM_COMMAND_BASE {
            AMDGPU_INFO => {
                size_ok(sz::<Info>())?;
                let info: Info = unsafe { rd(arg) };
                unsafe { self.info(&info)? };
                Ok(0)
            }
            AMDGPU_GEM_CREATE => {
                size_ok(sz::<GemCreateIn>())?;
                let c: GemCreateIn = unsafe { rd(arg) };
                if c.domains & !0x7 != 0 {
                    return Err(fail(
                        libc::EINVAL,
                        format!(
                            "GEM_CREATE in domains {:#x}: only CPU, GTT and VRAM are emulated (GDS, GWS, OA are not)",
                            c.domains
                        ),
                    ));
                }
                let file_off = self
                    .mem
                    .alloc(c.bo_size, c.alignment)
                    .map_err(|e| fail(libc::ENOMEM, e.to_string()))?;
                let heap = if c.domains & 4 != 0 { 0 } else { 2 };
                self.usage[heap] += c.bo_size;
                let (_, f) = self.file(fd)?;
                let h = new_handle(&mut f.next_bo);
                f.bos.insert(
                    h,
                    Bo {
                        create: c,
                        file_off,
                        size: c.bo_size,
                        cpu_mapped: false,
                        metadata: None,
                    },
                );
                // out.handle overlays in.bo_size; the rest of the union is cleared.
                unsafe { wr(arg, [h as u64, 0u64, 0, 0]) };
                Ok(0)
            }
            AMDGPU_GEM_MMAP => {
                size_ok(sz::<GemMmap>())?;
                let m: GemMmap = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                let bo = bo(f, m.handle_or_offset as u32)?;
                bo.cpu_mapped = true;
                let off = bo.file_off;
                unsafe {
                    wr(
                        arg,
                        GemMmap {
                            handle_or_offset: off,
                        },
                    )
                };
                Ok(0)
            }
            AMDGPU_GEM_VA => {
                size_ok(sz::<GemVa>())?;
                let va: GemVa = unsafe { rd(arg) };
                self.gem_va(fd, &va)?;
                Ok(0)
            }
            AMDGPU_GEM_WAIT_IDLE => {
                size_ok(16)?;
                let (h, _flags): (u32, u32) = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                let domains = bo(f, h)?.create.domains as u32;
                // Every submission is complete when CS returns: the BO is idle.
                unsafe { wr(arg, [0u32, domains, 0, 0]) };
                Ok(0)
            }
            AMDGPU_GEM_OP => {
                size_ok(sz::<GemOp>())?;
                let op: GemOp = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                let b = bo(f, op.handle)?;
                match op.op {
                    AMDGPU_GEM_OP_GET_GEM_CREATE_INFO => {
                        let c = b.create;
                        unsafe {
                            wr(
                                op.value,
                                GemCreateInfo {
                                    bo_size: c.bo_size,
                                    alignment: c.alignment,
                                    domains: c.domains,
                                    domain_flags: c.domain_flags,
                                },
                            )
                        };
                    }
                    AMDGPU_GEM_OP_SET_PLACEMENT => b.create.domains = op.value,
                    o => return Err(fail(libc::EINVAL, format!("GEM_OP op {o}"))),
                }
                Ok(0)
            }
            AMDGPU_GEM_METADATA => {
                size_ok(sz::<GemMetadata>())?;
                let mut m: GemMetadata = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                let b = bo(f, m.handle)?;
                match m.op {
                    AMDGPU_GEM_METADATA_OP_SET_METADATA => {
                        if m.data_size_bytes > 256 {
                            return Err(fail(libc::EINVAL, "GEM_METADATA: more than 256 bytes"));
                        }
                        b.metadata = Some(Box::new(m));
                    }
                    AMDGPU_GEM_METADATA_OP_GET_METADATA => {
                        match &b.metadata {
                            Some(s) => {
                                m.flags = s.flags;
                                m.tiling_info = s.tiling_info;
                                m.data_size_bytes = s.data_size_bytes;
                                m.data = s.data;
                            }
                            None => {
                                m.flags = 0;
                                m.tiling_info = 0;
                                m.data_size_bytes = 0;
                            }
                        }
                        unsafe { wr(arg, m) };
                    }
                    o => return Err(fail(libc::EINVAL, format!("GEM_METADATA op {o}"))),
                }
                Ok(0)
            }
            AMDGPU_CTX => {
                size_ok(sz::<CtxIn>())?;
                let c: CtxIn = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                match c.op {
                    AMDGPU_CTX_OP_ALLOC_CTX => {
                        let id = new_handle(&mut f.next_ctx);
                        f.ctxs.insert(id, HashMap::new());
                        unsafe { wr(arg, [id, 0, 0, 0]) };
                    }
                    AMDGPU_CTX_OP_FREE_CTX => {
                        f.ctxs.remove(&c.ctx_id).ok_or_else(|| {
                            fail(libc::EINVAL, format!("no context {}", c.ctx_id))
                        })?;
                    }
                    AMDGPU_CTX_OP_QUERY_STATE | AMDGPU_CTX_OP_QUERY_STATE2 => {
                        if !f.ctxs.contains_key(&c.ctx_id) {
                            return Err(fail(libc::EINVAL, format!("no context {}", c.ctx_id)));
                        }
                        // No GPU reset ever happens: flags 0, hangs 0, AMDGPU_CTX_NO_RESET.
                        unsafe { wr(arg, [0u32; 4]) };
                    }
                    o => {
                        return Err(fail(
                            libc::EINVAL,
                            format!("AMDGPU_CTX op {o} (stable power states) is not supported"),
                        ))
                    }
                }
                Ok(0)
            }
            AMDGPU_BO_LIST => {
                size_ok(sz::<BoListIn>())?;
                let l: BoListIn = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                match l.operation {
                    AMDGPU_BO_LIST_OP_CREATE | AMDGPU_BO_LIST_OP_UPDATE => {
                        let entries =
                            unsafe { read_bo_entries(l.bo_info_ptr, l.bo_number, l.bo_info_size)? };
                        for h in &entries {
                            bo(f, *h)?;
                        }
                        let id = if l.operation == AMDGPU_BO_LIST_OP_CREATE {
                            new_handle(&mut f.next_list)
                        } else {
                            l.list_handle
                        };
                        f.lists.insert(id, entries);
                        unsafe { wr(arg, [id, 0, 0, 0, 0, 0]) };
                    }
                    AMDGPU_BO_LIST_OP_DESTROY => {
                        f.lists.remove(&l.list_handle).ok_or_else(|| {
                            fail(libc::EINVAL, format!("no BO list {}", l.list_handle))
                        })?;
                    }
                    o => return Err(fail(libc::EINVAL, format!("BO_LIST operation {o}"))),
                }
                Ok(0)
            }
            AMDGPU_CS => {
                size_ok(sz::<CsIn>())?;
                let cs: CsIn = unsafe { rd(arg) };
                let seq = unsafe { self.submit(fd, &cs)? };
                unsafe { wr(arg, [seq, 0u64, 0]) };
                Ok(0)
            }
            AMDGPU_WAIT_CS => {
                size_ok(sz::<WaitCsIn>())?;
                let w: WaitCsIn = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                if !f.ctxs.contains_key(&w.ctx_id) {
                    return Err(fail(
                        libc::EINVAL,
                        format!("WAIT_CS: no context {}", w.ctx_id),
                    ));
                }
                submitted(f, w.ctx_id, w.ip_type, w.ring, w.handle, "WAIT_CS")?;
                // status 0: idle (the kernel sets 1 only when the wait timed out).
                unsafe { wr(arg, [0u64; 4]) };
                Ok(0)
            }
            AMDGPU_WAIT_FENCES => {
                size_ok(sz::<WaitFencesIn>())?;
                let w: WaitFencesIn = unsafe { rd(arg) };
                let fences = unsafe { read_array::<Fence>(w.fences, w.fence_count)? };
                let (_, f) = self.file(fd)?;
                for fe in &fences {
                    submitted(f, fe.ctx_id, fe.ip_type, fe.ring, fe.seq_no, "WAIT_FENCES")?;
                }
                // status 1: signalled; first_signaled 0.
                unsafe { wr(arg, [1u32, 0, 0, 0, 0, 0]) };
                Ok(0)
            }
            AMDGPU_FENCE_TO_HANDLE => {
                size_ok(32)?;
                let (fence, what): (Fence, u32) = unsafe { rd(arg) };
                let (_, f) = self.file(fd)?;
                submitted(
                    f,
                    fence.ctx_id,
                    fence.ip_type,
                    fence.ring,
                    fence.seq_no,
                    "FENCE_TO_HANDLE",
                )?;
                if what != 0 {
                    return Err(fail(
                        libc::EINVAL,
                        format!("FENCE_TO_HANDLE what={what}: only GET_SYNCOBJ (no sync files or syncobj fds)"),
                    ));
                }
                let h = new_handle(&mut f.next_syncobj);
                let mut s = Syncobj::default();
                s.signal(0);
                f.syncobjs.insert(h, s);
                unsafe { wr(arg, [h, 0, 0, 0, 0, 0, 0, 0]) };
                Ok(0)
            }
            AMDGPU_VM => {
                size_ok(8)?;
                let (op, _flags): (u32, u32) = unsafe { rd(arg) };
                match op {
                    // AMDGPU_VM_OP_RESERVE_VMID / UNRESERVE_VMID: a dedicated VMID only
                    // matters for hardware debuggers and tracing; the emulator has one VM.
                    1 | 2 => {
                        unsafe { wr(arg, 0u64) };
                        Ok(0)
                    }
                    o => Err(fail(libc::EINVAL, format!("AMDGPU_VM op {o}"))),
                }
            }
            _ => Err(fail(
                libc::EINVAL,
                format!(
                    "{} (nr {:#x}) is not supported by the emulated device",
                    ioctl_name(req.nr),
                    req.nr
                ),
            )),
        }
    }

    unsafe fn info(&mut self, info: &Info) -> R {
        let out = info.return_pointer;
        let len = info.return_size;
        if out == 0 {
            return Err(fail(libc::EFAULT, "AMDGPU_INFO without a return pointer"));
        }
        match info.query {
            AMDGPU_INFO_ACCEL_WORKING => unsafe { wr_partial(out, len, &1u32) },
            AMDGPU_INFO_DEV_INFO => unsafe { wr_partial(out, len, &device::device_info()) },
            AMDGPU_INFO_HW_IP_INFO => {
                let (ip, _) = device::hw_ip(info.args[0]).ok_or_else(|| {
                    fail(
                        libc::EINVAL,
                        format!("HW_IP_INFO for IP type {}", info.args[0]),
                    )
                })?;
                if info.args[1] != 0 {
                    return Err(fail(
                        libc::EINVAL,
                        format!("HW_IP_INFO instance {}", info.args[1]),
                    ));
                }
                unsafe { wr_partial(out, len, &ip) }
            }
            AMDGPU_INFO_HW_IP_COUNT => {
                let (_, count) = device::hw_ip(info.args[0]).ok_or_else(|| {
                    fail(
                        libc::EINVAL,
                        format!("HW_IP_COUNT for IP type {}", info.args[0]),
                    )
                })?;
                unsafe { wr_partial(out, len, &count) }
            }
            AMDGPU_INFO_FW_VERSION => {
                let fw = device::firmware(info.args[0]).ok_or_else(|| {
                    fail(
                        libc::EINVAL,
                        format!("FW_VERSION of firmware type {:#x}", info.args[0]),
                    )
                })?;
                unsafe { wr_partial(out, len, &fw) }
            }
            AMDGPU_INFO_TIMESTAMP => {
                // gpu_counter_freq 100000 kHz: one tick per 10 ns.
                let ticks = (now_ns() / 10) as u64;
                unsafe { wr_partial(out, len, &ticks) }
            }
            AMDGPU_INFO_VRAM_USAGE | AMDGPU_INFO_VIS_VRAM_USAGE => unsafe {
                wr_partial(out, len, &self.usage[0])
            },
            AMDGPU_INFO_GTT_USAGE => unsafe { wr_partial(out, len, &self.usage[2]) },
            // Nothing is ever evicted or moved: BOs stay where they were created.
            AMDGPU_INFO_NUM_EVICTIONS | AMDGPU_INFO_NUM_BYTES_MOVED => unsafe {
                wr_partial(out, len, &0u64)
            },
            AMDGPU_INFO_VRAM_LOST_COUNTER => unsafe { wr_partial(out, len, &0u32) },
            AMDGPU_INFO_GDS_CONFIG => unsafe { wr_partial(out, len, &InfoGds::default()) },
            AMDGPU_INFO_VRAM_GTT => unsafe {
                wr_partial(
                    out,
                    len,
                    &InfoVramGtt {
                        vram_size: device::VRAM_BYTES,
                        vram_cpu_accessible_size: device::VISIBLE_VRAM_BYTES,
                        gtt_size: device::GTT_BYTES,
                    },
                )
            },
            AMDGPU_INFO_MEMORY => {
                let mut m = device::memory_info();
                m.vram.heap_usage = self.usage[0];
                m.gtt.heap_usage = self.usage[2];
                unsafe { wr_partial(out, len, &m) }
            }
            AMDGPU_INFO_READ_MMR_REG => {
                let [offset, count, _instance, _flags] = info.args;
                if count != 1 || offset != device::GB_ADDR_CONFIG.0 {
                    return Err(fail(
                        libc::EINVAL,
                        format!("READ_MMR_REG of {count} register(s) at dword {offset:#x}: only GB_ADDR_CONFIG (0x263e) is answered"),
                    ));
                }
                unsafe { wr_partial(out, len, &device::GB_ADDR_CONFIG.1) }
            }
            AMDGPU_INFO_VIDEO_CAPS => {
                // No video codec is emulated: every codec entry reads invalid (zero).
                unsafe { std::ptr::write_bytes(out as *mut u8, 0, (len as usize).min(192)) }
            }
            q => {
                return Err(fail(
                    libc::EINVAL,
                    format!("AMDGPU_INFO query {q:#x} is not answered by the emulated device"),
                ))
            }
        }
        Ok(())
    }

    fn gem_close(&mut self, fd: i32, handle: u32) -> R {
        let (id, f) = self.file(fd)?;
        let b = f.bos.remove(&handle).ok_or_else(|| {
            fail(
                libc::EINVAL,
                format!("GEM_CLOSE of unknown handle {handle}"),
            )
        })?;
        let heap = if b.create.domains & 4 != 0 { 0 } else { 2 };
        self.usage[heap] = self.usage[heap].saturating_sub(b.size);
        for va in self
            .mem
            .mappings_where(|_, m| m.file == id && m.handle == handle)
        {
            let _ = self.mem.unmap(va);
        }
        if !b.cpu_mapped {
            self.mem.release(b.file_off, b.size);
        }
        Ok(())
    }

    fn gem_va(&mut self, fd: i32, va: &GemVa) -> R {
        let known = AMDGPU_VM_DELAY_UPDATE
            | AMDGPU_VM_PAGE_READABLE
            | AMDGPU_VM_PAGE_WRITEABLE
            | AMDGPU_VM_PAGE_EXECUTABLE
            | AMDGPU_VM_MTYPE_MASK;
        if va.flags & !(known | AMDGPU_VM_PAGE_PRT) != 0 {
            return Err(fail(libc::EINVAL, format!("GEM_VA flags {:#x}", va.flags)));
        }
        let (id, f) = self.file(fd)?;
        let end = va.va_address.saturating_add(va.map_size);
        if va.flags & AMDGPU_VM_PAGE_PRT != 0 {
            // A partially resident range (sparse resources) without a BO: the VA is reserved
            // but not backed; a device access there is a fault naming the address (hardware
            // would read zero and drop writes: sparse residency is not emulated).
            return match va.operation {
                AMDGPU_VA_OP_MAP => {
                    self.prt.insert(va.va_address, va.map_size);
                    Ok(())
                }
                AMDGPU_VA_OP_UNMAP => {
                    self.prt.remove(&va.va_address).map(|_| ()).ok_or_else(|| {
                        fail(
                            libc::ENOENT,
                            format!("GEM_VA unmap of PRT range {:#x}: not mapped", va.va_address),
                        )
                    })
                }
                o => Err(fail(
                    libc::EINVAL,
                    format!("GEM_VA operation {o} on a PRT range"),
                )),
            };
        }
        match va.operation {
            AMDGPU_VA_OP_MAP | AMDGPU_VA_OP_REPLACE => {
                let b = bo(f, va.handle)?;
                let bo_len = b.size.max(1).next_multiple_of(4096);
                if va.offset_in_bo.saturating_add(va.map_size) > bo_len
                    || !va.offset_in_bo.is_multiple_of(4096)
                {
                    return Err(fail(
                        libc::EINVAL,
                        format!(
                            "GEM_VA map of {:#x} bytes at offset {:#x} of a {:#x}-byte BO",
                            va.map_size, va.offset_in_bo, b.size
                        ),
                    ));
                }
                let m = VaMapping {
                    len: va.map_size,
                    file_off: b.file_off + va.offset_in_bo,
                    handle: va.handle,
                    file: id,
                };
                if va.operation == AMDGPU_VA_OP_REPLACE {
                    for at in self
                        .mem
                        .mappings_where(|a, m| m.file == id && a < end && a + m.len > va.va_address)
                    {
                        let _ = self.mem.unmap(at);
                    }
                }
                self.mem
                    .map(va.va_address, m)
                    .map_err(|e| fail(libc::EINVAL, format!("GEM_VA map: {e}")))?;
            }
            AMDGPU_VA_OP_UNMAP => {
                match self
                    .mem
                    .mappings_where(|a, m| a == va.va_address && m.file == id)
                    .first()
                {
                    Some(&at) => {
                        let _ = self.mem.unmap(at);
                    }
                    None => {
                        return Err(fail(
                            libc::ENOENT,
                            format!("GEM_VA unmap of {:#x}: not mapped", va.va_address),
                        ))
                    }
                }
            }
            AMDGPU_VA_OP_CLEAR => {
                for at in self
                    .mem
                    .mappings_where(|a, m| m.file == id && a < end && a + m.len > va.va_address)
                {
                    let _ = self.mem.unmap(at);
                }
            }
            o => return Err(fail(libc::EINVAL, format!("GEM_VA operation {o}"))),
        }
        Ok(())
    }

    /// AMDGPU_CS: checks every chunk, waits for nothing (all earlier work is complete), runs
    /// the IBs in order, then signals the out syncobjs and the user fence. Returns the
    /// submission's sequence number.
    unsafe fn submit(&mut self, fd: i32, cs: &CsIn) -> R<u64> {
        let chunk_ptrs = unsafe { read_array::<u64>(cs.chunks, cs.num_chunks)? };
        let mut ibs = Vec::new();
        let mut signals: Vec<(u32, u64)> = Vec::new();
        let mut user_fence = None;
        let (_, f) = self.file(fd)?;
        if !f.ctxs.contains_key(&cs.ctx_id) {
            return Err(fail(libc::EINVAL, format!("CS: no context {}", cs.ctx_id)));
        }
        if cs.bo_list_handle != 0 && !f.lists.contains_key(&cs.bo_list_handle) {
            return Err(fail(
                libc::ENOENT,
                format!("CS: no BO list {}", cs.bo_list_handle),
            ));
        }
        for &p in &chunk_ptrs {
            let c: CsChunk = unsafe { rd(p) };
            let bytes = c.length_dw as usize * 4;
            match c.chunk_id {
                AMDGPU_CHUNK_ID_IB => {
                    if bytes < std::mem::size_of::<CsChunkIb>() {
                        return Err(fail(libc::EINVAL, "CS: short IB chunk"));
                    }
                    ibs.push(unsafe { rd::<CsChunkIb>(c.chunk_data) });
                }
                AMDGPU_CHUNK_ID_FENCE => {
                    let fe: CsChunkFence = unsafe { rd(c.chunk_data) };
                    let b = bo(f, fe.handle)?;
                    user_fence = Some((b.file_off, b.size, fe.offset));
                }
                AMDGPU_CHUNK_ID_DEPENDENCIES | AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES => {
                    // Fences of earlier submissions: all complete already (checked to exist).
                    for d in unsafe { read_array::<CsChunkDep>(c.chunk_data, (bytes / 24) as u32)? }
                    {
                        submitted(f, d.ctx_id, d.ip_type, d.ring, d.handle, "CS dependency")?;
                    }
                }
                AMDGPU_CHUNK_ID_SYNCOBJ_IN | AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT => {
                    let timeline = c.chunk_id == AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT;
                    for (h, point) in unsafe { syncobj_chunk(&c, timeline) } {
                        if !syncobj(f, h)?.satisfied(point) {
                            return Err(fail(
                                libc::EINVAL,
                                format!("CS waits for syncobj {h} point {point}, which nothing will signal (the shim runs submissions in order)"),
                            ));
                        }
                    }
                }
                AMDGPU_CHUNK_ID_SYNCOBJ_OUT | AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL => {
                    let timeline = c.chunk_id == AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL;
                    for (h, point) in unsafe { syncobj_chunk(&c, timeline) } {
                        syncobj(f, h)?;
                        signals.push((h, point));
                    }
                }
                AMDGPU_CHUNK_ID_BO_HANDLES => {
                    let l: BoListIn = unsafe { rd(c.chunk_data) };
                    for h in unsafe { read_bo_entries(l.bo_info_ptr, l.bo_number, l.bo_info_size)? }
                    {
                        bo(f, h)?;
                    }
                }
                id => {
                    return Err(fail(
                        libc::EINVAL,
                        format!("CS chunk id {id:#x} is not supported"),
                    ))
                }
            }
        }
        if ibs.is_empty() {
            return Err(fail(libc::EINVAL, "CS without an IB"));
        }
        let (ip, ring) = (ibs[0].ip_type, ibs[0].ring);
        for ib in &ibs {
            if ib.ip_type != ip || ib.ring != ring {
                return Err(fail(
                    libc::EINVAL,
                    "CS: IBs for different rings in one submission",
                ));
            }
        }
        let kind = match ip {
            AMDGPU_HW_IP_COMPUTE => pm4::Queue::Compute,
            AMDGPU_HW_IP_GFX => pm4::Queue::Graphics,
            other => {
                return Err(fail(
                    libc::EINVAL,
                    format!(
                    "CS on hardware IP {other}: only the graphics and compute rings are emulated"
                ),
                ))
            }
        };
        if ring > 3 || (ip == AMDGPU_HW_IP_GFX && ring > 0) {
            return Err(fail(libc::EINVAL, format!("CS on ring {ring} of IP {ip}")));
        }
        let state = self
            .queues
            .entry((ip, ring))
            .or_insert_with(|| QueueState::new(kind));
        for ib in &ibs {
            if ib.flags & !(AMDGPU_IB_FLAG_PREAMBLE | 1) != 0 {
                return Err(fail(libc::EINVAL, format!("CS: IB flags {:#x}", ib.flags)));
            }
            if let Err(e) = pm4::execute(&self.mem, state, ib.va_start, ib.ib_bytes) {
                // The kernel reports a failed job as -ECANCELED on its fence; the submission
                // fails here so the application hears about it at once.
                return Err(fail(
                    libc::ECANCELED,
                    format!("command submission failed: {e}"),
                ));
            }
        }
        let (_, f) = self.file(fd)?;
        let seq = {
            let ctx = f
                .ctxs
                .get_mut(&cs.ctx_id)
                .ok_or_else(|| fail(libc::EINVAL, "context gone"))?;
            let s = ctx.entry((ip, ring)).or_insert(0);
            *s += 1;
            *s
        };
        for (h, point) in signals {
            syncobj(f, h)?.signal(point);
        }
        if let Some((file_off, size, offset)) = user_fence {
            // The user fence: the kernel's end-of-pipe event writes the 64-bit sequence
            // number at the BO offset; written through the memfd, both views see it.
            if offset as u64 + 8 > size {
                return Err(fail(libc::EINVAL, "CS: user fence outside its BO"));
            }
            let bytes = seq.to_le_bytes();
            // SAFETY: writing 8 bytes of ours into our memfd.
            let n = unsafe {
                libc::pwrite(
                    self.mem.memfd(),
                    bytes.as_ptr() as *const libc::c_void,
                    8,
                    (file_off + offset as u64) as i64,
                )
            };
            if n != 8 {
                return Err(fail(libc::EIO, "CS: writing the user fence failed"));
            }
        }
        Ok(seq)
    }
}

/// Checks that submission `seq` of a context's ring happened (every submitted one is
/// complete when `AMDGPU_CS` returns, so a wait for it succeeds at once).
fn submitted(f: &DrmFile, ctx: u32, ip: u32, ring: u32, seq: u64, what: &str) -> R {
    let last = f
        .ctxs
        .get(&ctx)
        .and_then(|c| c.get(&(ip, ring)))
        .copied()
        .unwrap_or(0);
    if seq > last {
        return Err(fail(
            libc::EINVAL,
            format!("{what}: sequence {seq} of context {ctx} (IP {ip}, ring {ring}) was never submitted (last {last})"),
        ));
    }
    Ok(())
}

/// The (handle, point) pairs of a syncobj chunk: `drm_amdgpu_cs_chunk_sem` handles (point 0)
/// or, for the timeline chunks, `drm_amdgpu_cs_chunk_syncobj`s.
///
/// # Safety
/// `c.chunk_data` must point to `c.length_dw` readable dwords.
unsafe fn syncobj_chunk(c: &CsChunk, timeline: bool) -> Vec<(u32, u64)> {
    let bytes = c.length_dw as u64 * 4;
    if timeline {
        (0..bytes / 16)
            .map(|i| {
                let s: CsChunkSyncobj = unsafe { rd(c.chunk_data + 16 * i) };
                (s.handle, s.point)
            })
            .collect()
    } else {
        (0..bytes / 4)
            .map(|i| (unsafe { rd::<u32>(c.chunk_data + 4 * i) }, 0))
            .collect()
    }
}

fn bo(f: &mut DrmFile, h: u32) -> R<&mut Bo> {
    f.bos
        .get_mut(&h)
        .ok_or_else(|| fail(libc::ENOENT, format!("no buffer object with handle {h}")))
}

fn syncobj(f: &mut DrmFile, h: u32) -> R<&mut Syncobj> {
    f.syncobjs
        .get_mut(&h)
        .ok_or_else(|| fail(libc::ENOENT, format!("no syncobj with handle {h}")))
}

/// Most entries of an array argument (handles, points, fences, chunks, BO list entries).
const MAX_ARRAY: u32 = 1 << 20;

/// # Safety
/// `p` must point to `n` readable `T`s (or n == 0).
unsafe fn read_array<T: Copy>(p: u64, n: u32) -> R<Vec<T>> {
    // The kernel bounds its arrays too; a count this large is a corrupt argument, refused
    // before allocating for it.
    if n > MAX_ARRAY {
        return Err(fail(
            libc::EINVAL,
            format!("an array of {n} entries (at most {MAX_ARRAY})"),
        ));
    }
    Ok((0..n as u64)
        .map(|i| unsafe { rd::<T>(p + i * std::mem::size_of::<T>() as u64) })
        .collect())
}

/// # Safety
/// `p` must point to `v.len()` writable `T`s.
unsafe fn write_array<T: Copy>(p: u64, v: &[T]) {
    for (i, x) in v.iter().enumerate() {
        unsafe { wr(p + (i * std::mem::size_of::<T>()) as u64, *x) };
    }
}

/// The handles of `n` `drm_amdgpu_bo_list_entry`s of `size` bytes each.
///
/// # Safety
/// `p` must point to `n * size` readable bytes.
unsafe fn read_bo_entries(p: u64, n: u32, size: u32) -> R<Vec<u32>> {
    if n > MAX_ARRAY {
        return Err(fail(
            libc::EINVAL,
            format!("a BO list of {n} entries (at most {MAX_ARRAY})"),
        ));
    }
    if size < 4 {
        return Err(fail(
            libc::EINVAL,
            format!("BO list entries of {size} bytes"),
        ));
    }
    Ok((0..n as u64)
        .map(|i| unsafe { rd::<u32>(p + i * size as u64) })
        .collect())
}

/// Blocks until something changed (a submission or a signal from another thread) or the
/// absolute CLOCK_MONOTONIC deadline passes; used by syncobj waits that must wait for a
/// submission (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT).
pub fn wait_for_change(deadline: i64) -> bool {
    let now = now_ns();
    if deadline <= now {
        return false;
    }
    let g = SHIM.lock().unwrap_or_else(|e| e.into_inner());
    let dur = std::time::Duration::from_nanos((deadline - now).min(50_000_000) as u64);
    let _ = CHANGED.wait_timeout(g, dur);
    true
}
