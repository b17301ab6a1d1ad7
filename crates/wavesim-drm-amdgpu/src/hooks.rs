//! The C library functions the shim interposes when loaded with `LD_PRELOAD`. Each one
//! answers for the render node and its sysfs entries (`sysfs.rs`) and forwards everything else
//! to the C library's own definition (`real.rs`).
//!
//! Variadic functions (`open`, `openat`, `fcntl`, `ioctl`): Rust stable cannot define a
//! C-variadic function, so they are defined with a fixed last argument. On x86-64 System V
//! a variadic argument is passed exactly like a fixed one of the same class (the integer
//! registers rdi, rsi, rdx, rcx...), so a fixed `mode`/`arg` parameter receives the caller's
//! variadic one; when the caller passed none, the register holds garbage that is only used
//! when the flags say an argument was passed (O_CREAT/O_TMPFILE for open; commands with an
//! argument for fcntl), exactly as the C library itself reads it.

#![allow(clippy::missing_safety_doc)]

use libc::{c_char, c_int, c_ulong, c_void, off_t, size_t};
use std::collections::HashSet;
use std::ffi::CStr;
use std::sync::Mutex;

use crate::drm;
use crate::real;
use crate::sysfs::{self, Node};

#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
compile_error!("the DRM shim's interposed variadic functions assume x86-64 Linux (System V ABI)");

fn path_of<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated path from the caller.
    unsafe { CStr::from_ptr(p) }.to_str().ok()
}

fn set_errno(e: c_int) {
    // SAFETY: this thread's errno.
    unsafe { *libc::__errno_location() = e };
}

fn trace(what: &str, path: &str) {
    if drm::debug_enabled() {
        drm::report(&format!("{what} {path}"));
    }
}

/// Opens one of our paths; None if `path` is not ours.
fn open_ours(path: *const c_char, flags: c_int) -> Option<c_int> {
    let p = path_of(path)?;
    if !sysfs::is_ours(p) {
        return None;
    }
    trace("open", p);
    Some(match sysfs::lookup(p) {
        Some(Node::RenderNode) => {
            // A real descriptor (of /dev/null) reserves the number; its meaning is ours.
            // SAFETY: valid path, no O_CREAT.
            let fd = unsafe {
                real::open(
                    c"/dev/null".as_ptr(),
                    libc::O_RDWR | (flags & libc::O_CLOEXEC),
                    0,
                )
            };
            if fd < 0 {
                return Some(fd);
            }
            if let Err(e) = drm::register_open(fd) {
                // SAFETY: our own descriptor.
                unsafe { real::close(fd) };
                set_errno(e);
                return Some(-1);
            }
            fd
        }
        Some(Node::File(bytes)) => {
            if flags & libc::O_ACCMODE != libc::O_RDONLY {
                set_errno(libc::EACCES);
                return Some(-1);
            }
            file_fd(&bytes, flags)
        }
        Some(Node::Dir(_)) | Some(Node::Link { .. }) => {
            if flags & libc::O_DIRECTORY != 0 || flags & libc::O_PATH != 0 {
                // A directory descriptor: nothing reads it (libdrm lists with opendir).
                set_errno(libc::ENOTSUP);
            } else {
                set_errno(libc::EISDIR);
            }
            -1
        }
        None => {
            set_errno(libc::ENOENT);
            -1
        }
    })
}

/// A read-only descriptor whose contents are `bytes` (a sealed memfd, positioned at 0).
fn file_fd(bytes: &[u8], flags: c_int) -> c_int {
    let cloexec = if flags & libc::O_CLOEXEC != 0 {
        libc::MFD_CLOEXEC
    } else {
        0
    };
    // SAFETY: system calls on a descriptor we create.
    unsafe {
        let fd = libc::memfd_create(c"wavesim-sysfs".as_ptr(), cloexec);
        if fd < 0 {
            return -1;
        }
        if libc::write(fd, bytes.as_ptr() as *const c_void, bytes.len()) != bytes.len() as isize {
            real::close(fd);
            set_errno(libc::EIO);
            return -1;
        }
        libc::lseek(fd, 0, libc::SEEK_SET);
        fd
    }
}

#[no_mangle]
pub unsafe extern "C" fn open(path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int {
    match open_ours(path, flags) {
        Some(fd) => fd,
        None => unsafe { real::open(path, flags, mode) },
    }
}

#[no_mangle]
pub unsafe extern "C" fn open64(path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int {
    match open_ours(path, flags) {
        Some(fd) => fd,
        None => unsafe { real::open64(path, flags, mode) },
    }
}

#[no_mangle]
pub unsafe extern "C" fn __open_2(path: *const c_char, flags: c_int) -> c_int {
    match open_ours(path, flags) {
        Some(fd) => fd,
        None => unsafe { real::open_2(path, flags) },
    }
}

#[no_mangle]
pub unsafe extern "C" fn __open64_2(path: *const c_char, flags: c_int) -> c_int {
    match open_ours(path, flags) {
        Some(fd) => fd,
        None => unsafe { real::open64_2(path, flags) },
    }
}

#[no_mangle]
pub unsafe extern "C" fn openat(
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mode: libc::mode_t,
) -> c_int {
    match open_ours(path, flags) {
        Some(fd) => fd,
        None => unsafe { real::openat(dirfd, path, flags, mode) },
    }
}

#[no_mangle]
pub unsafe extern "C" fn openat64(
    dirfd: c_int,
    path: *const c_char,
    flags: c_int,
    mode: libc::mode_t,
) -> c_int {
    match open_ours(path, flags) {
        Some(fd) => fd,
        None => unsafe { real::openat64(dirfd, path, flags, mode) },
    }
}

fn fopen_ours(path: *const c_char, mode: *const c_char) -> Option<*mut libc::FILE> {
    let p = path_of(path)?;
    if !sysfs::is_ours(p) {
        return None;
    }
    let fd = open_ours(path, libc::O_RDONLY | libc::O_CLOEXEC)?;
    if fd < 0 {
        return Some(std::ptr::null_mut());
    }
    // SAFETY: fd is ours; mode is the caller's NUL-terminated string.
    let f = unsafe { libc::fdopen(fd, mode) };
    if f.is_null() {
        // SAFETY: our descriptor.
        unsafe { real::close(fd) };
    }
    Some(f)
}

#[no_mangle]
pub unsafe extern "C" fn fopen(path: *const c_char, mode: *const c_char) -> *mut libc::FILE {
    match fopen_ours(path, mode) {
        Some(f) => f,
        None => unsafe { real::fopen(path, mode) },
    }
}

#[no_mangle]
pub unsafe extern "C" fn fopen64(path: *const c_char, mode: *const c_char) -> *mut libc::FILE {
    match fopen_ours(path, mode) {
        Some(f) => f,
        None => unsafe { real::fopen64(path, mode) },
    }
}

/// Fills a `struct stat` (the same layout as `stat64` on x86-64) for one of our nodes.
fn fill_stat(node: &Node, buf: *mut libc::stat) {
    // SAFETY: all-zero is a valid struct stat.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    st.st_nlink = 1;
    st.st_blksize = 4096;
    match node {
        Node::RenderNode => {
            st.st_mode = libc::S_IFCHR | 0o666;
            st.st_rdev = libc::makedev(crate::device::DRM_MAJOR, crate::device::RENDER_MINOR);
            st.st_ino = 0x5741_5645;
        }
        Node::Dir(_) => {
            st.st_mode = libc::S_IFDIR | 0o755;
            st.st_nlink = 2;
        }
        Node::File(b) => {
            st.st_mode = libc::S_IFREG | 0o444;
            // sysfs reports 4096 for attributes whatever their contents.
            st.st_size = 4096.max(b.len() as i64);
        }
        Node::Link { .. } => st.st_mode = libc::S_IFLNK | 0o777,
    }
    // SAFETY: the caller's stat buffer.
    unsafe { *buf = st };
}

/// stat/lstat of our paths: Some(result) if ours. `follow`: stat (links resolved).
fn stat_ours(path: *const c_char, buf: *mut libc::stat, follow: bool) -> Option<c_int> {
    let p = path_of(path)?;
    if !sysfs::is_ours(p) {
        return None;
    }
    trace("stat", p);
    Some(match sysfs::lookup(p) {
        Some(Node::Link { .. }) if follow => {
            // Links point at sysfs directories (bus, driver).
            fill_stat(&Node::Dir(vec![]), buf);
            0
        }
        Some(n) => {
            fill_stat(&n, buf);
            0
        }
        None => {
            set_errno(libc::ENOENT);
            -1
        }
    })
}

fn fstat_ours(fd: c_int, buf: *mut libc::stat) -> Option<c_int> {
    if !drm::is_shim_fd(fd) {
        return None;
    }
    fill_stat(&Node::RenderNode, buf);
    Some(0)
}

fn fstatat_ours(
    dirfd: c_int,
    path: *const c_char,
    buf: *mut libc::stat,
    flags: c_int,
) -> Option<c_int> {
    if flags & libc::AT_EMPTY_PATH != 0 && path_of(path) == Some("") {
        return fstat_ours(dirfd, buf);
    }
    stat_ours(path, buf, flags & libc::AT_SYMLINK_NOFOLLOW == 0)
}

/// Defines interposed stat functions: `paths` take a path (`follow`: stat, not lstat), `fds` a
/// descriptor, `at` a directory descriptor, path and flags; each answers for our nodes and
/// forwards everything else to the C library's function of the same shape. Leading arguments
/// (the `ver` of glibc's pre-2.33 `__xstat` family) are passed through.
macro_rules! interpose_stat {
    (paths: $($name:ident => $real:ident ($($pre:ident: $pty:ty),*) $st:ty, $follow:expr;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($pre: $pty,)* path: *const c_char, buf: *mut $st) -> c_int {
            stat_ours(path, buf.cast(), $follow)
                .unwrap_or_else(|| unsafe { real::$real($($pre,)* path, buf) })
        }
    )*};
    (fds: $($name:ident => $real:ident ($($pre:ident: $pty:ty),*) $st:ty;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($pre: $pty,)* fd: c_int, buf: *mut $st) -> c_int {
            fstat_ours(fd, buf.cast()).unwrap_or_else(|| unsafe { real::$real($($pre,)* fd, buf) })
        }
    )*};
    (at: $($name:ident => $real:ident ($($pre:ident: $pty:ty),*) $st:ty;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            $($pre: $pty,)*
            dirfd: c_int,
            path: *const c_char,
            buf: *mut $st,
            flags: c_int,
        ) -> c_int {
            fstatat_ours(dirfd, path, buf.cast(), flags)
                .unwrap_or_else(|| unsafe { real::$real($($pre,)* dirfd, path, buf, flags) })
        }
    )*};
}

// glibc 2.33+ exports stat, lstat, fstat, fstatat (and the *64 names, the same layout on
// x86-64); binaries built before call the versioned `__xstat` wrappers, still exported.
interpose_stat!(paths:
    stat => stat () libc::stat, true;
    stat64 => stat64 () libc::stat64, true;
    lstat => lstat () libc::stat, false;
    lstat64 => lstat64 () libc::stat64, false;
    __xstat => xstat (ver: c_int) libc::stat, true;
    __xstat64 => xstat64 (ver: c_int) libc::stat64, true;
    __lxstat => lxstat (ver: c_int) libc::stat, false;
    __lxstat64 => lxstat64 (ver: c_int) libc::stat64, false;
);
interpose_stat!(fds:
    fstat => fstat () libc::stat;
    fstat64 => fstat64 () libc::stat64;
    __fxstat => fxstat (ver: c_int) libc::stat;
    __fxstat64 => fxstat64 (ver: c_int) libc::stat64;
);
interpose_stat!(at:
    fstatat => fstatat () libc::stat;
    fstatat64 => fstatat64 () libc::stat64;
    __fxstatat => fxstatat (ver: c_int) libc::stat;
    __fxstatat64 => fxstatat64 (ver: c_int) libc::stat64;
);

#[no_mangle]
pub unsafe extern "C" fn readlink(path: *const c_char, buf: *mut c_char, size: size_t) -> isize {
    if let Some(p) = path_of(path).filter(|p| sysfs::is_ours(p)) {
        trace("readlink", p);
        return match sysfs::readlink(p) {
            Some(t) => {
                // readlink does not NUL-terminate and truncates silently.
                let n = t.len().min(size);
                // SAFETY: the caller's buffer of `size` bytes.
                unsafe { std::ptr::copy_nonoverlapping(t.as_ptr() as *const c_char, buf, n) };
                n as isize
            }
            None => {
                set_errno(if sysfs::lookup(p).is_some() {
                    libc::EINVAL
                } else {
                    libc::ENOENT
                });
                -1
            }
        };
    }
    unsafe { real::readlink(path, buf, size) }
}

fn realpath_ours(path: *const c_char, resolved: *mut c_char) -> Option<*mut c_char> {
    let p = path_of(path).filter(|p| sysfs::is_ours(p))?;
    trace("realpath", p);
    let Some(r) = sysfs::realpath(p) else {
        set_errno(libc::ENOENT);
        return Some(std::ptr::null_mut());
    };
    let out = if resolved.is_null() {
        // realpath(3) allocates with malloc when no buffer is given.
        // SAFETY: malloc of the needed size.
        let m = unsafe { libc::malloc(r.len() + 1) } as *mut c_char;
        if m.is_null() {
            set_errno(libc::ENOMEM);
            return Some(m);
        }
        m
    } else {
        resolved
    };
    // SAFETY: `out` holds PATH_MAX bytes (the caller's, as realpath requires) or r.len()+1.
    unsafe {
        std::ptr::copy_nonoverlapping(r.as_ptr() as *const c_char, out, r.len());
        *out.add(r.len()) = 0;
    }
    Some(out)
}

#[no_mangle]
pub unsafe extern "C" fn realpath(path: *const c_char, resolved: *mut c_char) -> *mut c_char {
    realpath_ours(path, resolved).unwrap_or_else(|| unsafe { real::realpath(path, resolved) })
}

#[no_mangle]
pub unsafe extern "C" fn __realpath_chk(
    path: *const c_char,
    resolved: *mut c_char,
    len: size_t,
) -> *mut c_char {
    realpath_ours(path, resolved)
        .unwrap_or_else(|| unsafe { real::realpath_chk(path, resolved, len) })
}

/// A directory listing the shim made up; its address stands in for a `DIR *`.
struct FakeDir {
    names: Vec<&'static str>,
    pos: usize,
    ent: libc::dirent64,
}

static FAKE_DIRS: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

fn is_fake_dir(d: *mut libc::DIR) -> bool {
    FAKE_DIRS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .is_some_and(|s| s.contains(&(d as usize)))
}

#[no_mangle]
pub unsafe extern "C" fn opendir(path: *const c_char) -> *mut libc::DIR {
    if let Some(p) = path_of(path).filter(|p| sysfs::is_ours(p)) {
        trace("opendir", p);
        return match sysfs::lookup(p) {
            Some(Node::Dir(names)) => {
                let d = Box::new(FakeDir {
                    names,
                    pos: 0,
                    // SAFETY: all-zero is a valid dirent64.
                    ent: unsafe { std::mem::zeroed() },
                });
                let ptr = Box::into_raw(d) as usize;
                FAKE_DIRS
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert_with(HashSet::new)
                    .insert(ptr);
                ptr as *mut libc::DIR
            }
            Some(_) => {
                set_errno(libc::ENOTDIR);
                std::ptr::null_mut()
            }
            None => {
                set_errno(libc::ENOENT);
                std::ptr::null_mut()
            }
        };
    }
    unsafe { real::opendir(path) }
}

fn fake_readdir(d: *mut libc::DIR) -> *mut libc::dirent64 {
    // SAFETY: d is a live FakeDir (checked by the caller).
    let f = unsafe { &mut *(d as *mut FakeDir) };
    let Some(name) = f.names.get(f.pos) else {
        return std::ptr::null_mut();
    };
    f.pos += 1;
    f.ent.d_ino = f.pos as u64;
    f.ent.d_off = f.pos as i64;
    f.ent.d_reclen = std::mem::size_of::<libc::dirent64>() as u16;
    f.ent.d_type = if name.starts_with("renderD") {
        libc::DT_CHR
    } else {
        libc::DT_UNKNOWN
    };
    f.ent.d_name = [0; 256];
    for (k, b) in name.bytes().take(255).enumerate() {
        f.ent.d_name[k] = b as c_char;
    }
    &mut f.ent
}

#[no_mangle]
pub unsafe extern "C" fn readdir(d: *mut libc::DIR) -> *mut libc::dirent {
    if is_fake_dir(d) {
        // dirent and dirent64 have the same layout on 64-bit Linux.
        return fake_readdir(d) as *mut libc::dirent;
    }
    unsafe { real::readdir(d) }
}

#[no_mangle]
pub unsafe extern "C" fn readdir64(d: *mut libc::DIR) -> *mut libc::dirent64 {
    if is_fake_dir(d) {
        return fake_readdir(d);
    }
    unsafe { real::readdir64(d) }
}

#[no_mangle]
pub unsafe extern "C" fn rewinddir(d: *mut libc::DIR) {
    if is_fake_dir(d) {
        // SAFETY: a live FakeDir.
        unsafe { (*(d as *mut FakeDir)).pos = 0 };
        return;
    }
    unsafe { real::rewinddir(d) }
}

#[no_mangle]
pub unsafe extern "C" fn dirfd(d: *mut libc::DIR) -> c_int {
    if is_fake_dir(d) {
        set_errno(libc::ENOTSUP);
        return -1;
    }
    unsafe { real::dirfd(d) }
}

#[no_mangle]
pub unsafe extern "C" fn closedir(d: *mut libc::DIR) -> c_int {
    let ours = FAKE_DIRS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
        .is_some_and(|s| s.remove(&(d as usize)));
    if ours {
        // SAFETY: made by Box::into_raw in opendir, removed from the set just now.
        drop(unsafe { Box::from_raw(d as *mut FakeDir) });
        return 0;
    }
    unsafe { real::closedir(d) }
}

#[no_mangle]
pub unsafe extern "C" fn close(fd: c_int) -> c_int {
    drm::register_close(fd);
    unsafe { real::close(fd) }
}

#[no_mangle]
pub unsafe extern "C" fn dup(fd: c_int) -> c_int {
    let r = unsafe { real::dup(fd) };
    if r >= 0 && drm::is_shim_fd(fd) {
        drm::register_dup(fd, r);
    }
    r
}

#[no_mangle]
pub unsafe extern "C" fn dup2(fd: c_int, fd2: c_int) -> c_int {
    if fd != fd2 {
        drm::register_close(fd2);
    }
    let r = unsafe { real::dup2(fd, fd2) };
    if r >= 0 && drm::is_shim_fd(fd) {
        drm::register_dup(fd, r);
    }
    r
}

#[no_mangle]
pub unsafe extern "C" fn dup3(fd: c_int, fd2: c_int, flags: c_int) -> c_int {
    if fd != fd2 {
        drm::register_close(fd2);
    }
    let r = unsafe { real::dup3(fd, fd2, flags) };
    if r >= 0 && drm::is_shim_fd(fd) {
        drm::register_dup(fd, r);
    }
    r
}

fn fcntl_common(fd: c_int, cmd: c_int, arg: usize, r: c_int) -> c_int {
    if r >= 0 && (cmd == libc::F_DUPFD || cmd == libc::F_DUPFD_CLOEXEC) && drm::is_shim_fd(fd) {
        drm::register_dup(fd, r);
    }
    let _ = arg;
    r
}

/// `fcntl(fd, cmd, ...)`: the variadic argument arrives in the fixed `arg` (see the module
/// documentation); F_DUPFD/F_DUPFD_CLOEXEC of the render node make another descriptor of it.
#[no_mangle]
pub unsafe extern "C" fn fcntl(fd: c_int, cmd: c_int, arg: usize) -> c_int {
    let r = unsafe { real::fcntl(fd, cmd, arg) };
    fcntl_common(fd, cmd, arg, r)
}

#[no_mangle]
pub unsafe extern "C" fn fcntl64(fd: c_int, cmd: c_int, arg: usize) -> c_int {
    let r = unsafe { real::fcntl64(fd, cmd, arg) };
    fcntl_common(fd, cmd, arg, r)
}

/// `ioctl(fd, request, ...)`: the argument pointer arrives in the fixed `arg`.
#[no_mangle]
pub unsafe extern "C" fn ioctl(fd: c_int, request: c_ulong, arg: *mut c_void) -> c_int {
    if !drm::is_shim_fd(fd) {
        return unsafe { real::ioctl(fd, request, arg) };
    }
    // SAFETY: forwarded to the caller (the argument is what the request says).
    match unsafe { drm::ioctl(fd, request, arg as u64) } {
        Ok(v) => v,
        Err(e) => {
            set_errno(e);
            -1
        }
    }
}

fn mmap_ours(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    off: off_t,
) -> Option<*mut c_void> {
    if !drm::is_shim_fd(fd) {
        return None;
    }
    Some(match drm::mmap_target(fd, off as u64, len as u64) {
        // SAFETY: a shared mapping of the BO's pages in the memfd (the same pages the device
        // view maps), where the application asked for it.
        Ok((memfd, o)) => unsafe { real::mmap(addr, len, prot, flags, memfd, o as off_t) },
        Err(e) => {
            set_errno(e);
            libc::MAP_FAILED
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn mmap(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    off: off_t,
) -> *mut c_void {
    mmap_ours(addr, len, prot, flags, fd, off)
        .unwrap_or_else(|| unsafe { real::mmap(addr, len, prot, flags, fd, off) })
}

#[no_mangle]
pub unsafe extern "C" fn mmap64(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    off: off_t,
) -> *mut c_void {
    mmap_ours(addr, len, prot, flags, fd, off)
        .unwrap_or_else(|| unsafe { real::mmap64(addr, len, prot, flags, fd, off) })
}
