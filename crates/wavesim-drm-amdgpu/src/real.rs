//! The C library's own functions, found with `dlsym(RTLD_NEXT, name)`: the shim's interposed
//! functions forward every call that is not about the emulated device to them, and the shim
//! itself uses them (calling `libc::open` from inside the shim would reach the shim again).

// `rewinddir` returns nothing: its `-> ()` is the macro's uniform shape.
#![allow(clippy::unused_unit)]

use libc::{c_char, c_int, c_void, off_t, size_t};
use std::sync::OnceLock;

/// Looks up the next definition of `name` (a NUL-terminated symbol name) once.
fn next(cell: &OnceLock<usize>, name: &'static [u8]) -> usize {
    *cell.get_or_init(|| {
        // SAFETY: name is NUL-terminated; RTLD_NEXT searches the libraries after this one.
        unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr() as *const c_char) as usize }
    })
}

macro_rules! real_fn {
    ($name:ident, $sym:literal, fn($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty, $fail:expr $(,)?) => {
        /// The next definition of the C library function of this name.
        ///
        /// # Safety
        /// As the C function.
        pub unsafe fn $name($($arg: $ty),*) -> $ret {
            static CELL: OnceLock<usize> = OnceLock::new();
            let f = next(&CELL, $sym);
            if f == 0 {
                // SAFETY: setting errno of this thread.
                unsafe { *libc::__errno_location() = libc::ENOSYS };
                return $fail;
            }
            // SAFETY: dlsym returned the function of this C signature.
            let f: unsafe extern "C" fn($($ty),*) -> $ret = unsafe { std::mem::transmute(f) };
            unsafe { f($($arg),*) }
        }
    };
}

real_fn!(
    open,
    b"open\0",
    fn(path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int,
    -1
);
real_fn!(
    open64,
    b"open64\0",
    fn(path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int,
    -1
);
real_fn!(
    openat,
    b"openat\0",
    fn(dirfd: c_int, path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int,
    -1
);
real_fn!(
    openat64,
    b"openat64\0",
    fn(dirfd: c_int, path: *const c_char, flags: c_int, mode: libc::mode_t) -> c_int,
    -1
);
real_fn!(
    open_2,
    b"__open_2\0",
    fn(path: *const c_char, flags: c_int) -> c_int,
    -1
);
real_fn!(
    open64_2,
    b"__open64_2\0",
    fn(path: *const c_char, flags: c_int) -> c_int,
    -1
);
real_fn!(
    fopen,
    b"fopen\0",
    fn(path: *const c_char, mode: *const c_char) -> *mut libc::FILE,
    std::ptr::null_mut()
);
real_fn!(
    fopen64,
    b"fopen64\0",
    fn(path: *const c_char, mode: *const c_char) -> *mut libc::FILE,
    std::ptr::null_mut()
);
real_fn!(
    stat,
    b"stat\0",
    fn(path: *const c_char, buf: *mut libc::stat) -> c_int,
    -1
);
real_fn!(
    stat64,
    b"stat64\0",
    fn(path: *const c_char, buf: *mut libc::stat64) -> c_int,
    -1
);
real_fn!(
    lstat,
    b"lstat\0",
    fn(path: *const c_char, buf: *mut libc::stat) -> c_int,
    -1
);
real_fn!(
    lstat64,
    b"lstat64\0",
    fn(path: *const c_char, buf: *mut libc::stat64) -> c_int,
    -1
);
real_fn!(
    fstat,
    b"fstat\0",
    fn(fd: c_int, buf: *mut libc::stat) -> c_int,
    -1
);
real_fn!(
    fstat64,
    b"fstat64\0",
    fn(fd: c_int, buf: *mut libc::stat64) -> c_int,
    -1
);
real_fn!(
    fstatat,
    b"fstatat\0",
    fn(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) -> c_int,
    -1
);
real_fn!(
    fstatat64,
    b"fstatat64\0",
    fn(dirfd: c_int, path: *const c_char, buf: *mut libc::stat64, flags: c_int) -> c_int,
    -1
);
real_fn!(
    xstat,
    b"__xstat\0",
    fn(ver: c_int, path: *const c_char, buf: *mut libc::stat) -> c_int,
    -1
);
real_fn!(
    xstat64,
    b"__xstat64\0",
    fn(ver: c_int, path: *const c_char, buf: *mut libc::stat64) -> c_int,
    -1
);
real_fn!(
    lxstat,
    b"__lxstat\0",
    fn(ver: c_int, path: *const c_char, buf: *mut libc::stat) -> c_int,
    -1
);
real_fn!(
    lxstat64,
    b"__lxstat64\0",
    fn(ver: c_int, path: *const c_char, buf: *mut libc::stat64) -> c_int,
    -1
);
real_fn!(
    fxstat,
    b"__fxstat\0",
    fn(ver: c_int, fd: c_int, buf: *mut libc::stat) -> c_int,
    -1
);
real_fn!(
    fxstat64,
    b"__fxstat64\0",
    fn(ver: c_int, fd: c_int, buf: *mut libc::stat64) -> c_int,
    -1
);
real_fn!(
    fxstatat,
    b"__fxstatat\0",
    fn(ver: c_int, dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) -> c_int,
    -1
);
real_fn!(
    fxstatat64,
    b"__fxstatat64\0",
    fn(
        ver: c_int,
        dirfd: c_int,
        path: *const c_char,
        buf: *mut libc::stat64,
        flags: c_int,
    ) -> c_int,
    -1
);
real_fn!(
    readlink,
    b"readlink\0",
    fn(path: *const c_char, buf: *mut c_char, size: size_t) -> isize,
    -1
);
real_fn!(
    realpath,
    b"realpath\0",
    fn(path: *const c_char, resolved: *mut c_char) -> *mut c_char,
    std::ptr::null_mut()
);
real_fn!(
    realpath_chk,
    b"__realpath_chk\0",
    fn(path: *const c_char, resolved: *mut c_char, len: size_t) -> *mut c_char,
    std::ptr::null_mut()
);
real_fn!(
    opendir,
    b"opendir\0",
    fn(path: *const c_char) -> *mut libc::DIR,
    std::ptr::null_mut()
);
real_fn!(
    readdir,
    b"readdir\0",
    fn(dir: *mut libc::DIR) -> *mut libc::dirent,
    std::ptr::null_mut()
);
real_fn!(
    readdir64,
    b"readdir64\0",
    fn(dir: *mut libc::DIR) -> *mut libc::dirent64,
    std::ptr::null_mut()
);
real_fn!(
    closedir,
    b"closedir\0",
    fn(dir: *mut libc::DIR) -> c_int,
    -1
);
real_fn!(dirfd, b"dirfd\0", fn(dir: *mut libc::DIR) -> c_int, -1);
real_fn!(rewinddir, b"rewinddir\0", fn(dir: *mut libc::DIR) -> (), ());
real_fn!(close, b"close\0", fn(fd: c_int) -> c_int, -1);
real_fn!(dup, b"dup\0", fn(fd: c_int) -> c_int, -1);
real_fn!(dup2, b"dup2\0", fn(fd: c_int, fd2: c_int) -> c_int, -1);
real_fn!(
    dup3,
    b"dup3\0",
    fn(fd: c_int, fd2: c_int, flags: c_int) -> c_int,
    -1
);
real_fn!(
    fcntl,
    b"fcntl\0",
    fn(fd: c_int, cmd: c_int, arg: usize) -> c_int,
    -1
);
real_fn!(
    fcntl64,
    b"fcntl64\0",
    fn(fd: c_int, cmd: c_int, arg: usize) -> c_int,
    -1
);
real_fn!(
    ioctl,
    b"ioctl\0",
    fn(fd: c_int, request: libc::c_ulong, arg: *mut c_void) -> c_int,
    -1
);
real_fn!(
    mmap,
    b"mmap\0",
    fn(
        addr: *mut c_void,
        len: size_t,
        prot: c_int,
        flags: c_int,
        fd: c_int,
        off: off_t,
    ) -> *mut c_void,
    libc::MAP_FAILED
);
real_fn!(
    mmap64,
    b"mmap64\0",
    fn(
        addr: *mut c_void,
        len: size_t,
        prot: c_int,
        flags: c_int,
        fd: c_int,
        off: off_t,
    ) -> *mut c_void,
    libc::MAP_FAILED
);
