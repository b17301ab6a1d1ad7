//! The shim's messages: one line on stderr per refusal (the application only sees errno), and
//! with WAVESIM_DRM_DEBUG set, a trace of paths, ioctls and packets.

/// Writes one line to stderr: what failed and why (the application only sees errno).
pub fn report(msg: &str) {
    let line = format!("wavesim-drm: {msg}\n");
    // SAFETY: writing our own buffer to fd 2.
    unsafe { libc::write(2, line.as_ptr() as *const libc::c_void, line.len()) };
}

pub fn debug_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("WAVESIM_DRM_DEBUG").is_some())
}
