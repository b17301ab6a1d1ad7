//! An amdgpu DRM shim: loaded with `LD_PRELOAD`, it makes `/dev/dri/renderD128` an emulated
//! Radeon RX 7900 XTX (gfx1100) for libdrm_amdgpu and the unmodified RADV Vulkan driver, and
//! runs the compute work RADV submits on wavesim's RDNA3 executor.
//!
//! Layers (arrows point down):
//! - `hooks`: the C library functions interposed (open, stat, opendir, ioctl, mmap, ...);
//! - `sysfs`: the render node and the sysfs/PCI files libdrm reads;
//! - `drm`: DRM files, buffer objects, contexts, syncobjs, the ioctls;
//! - `pm4`: the command processor (packets, registers from `regs`, dispatches through
//!   `wavesim_rdna3::hsa::raw`);
//! - `graphics`: the graphics ring's register state (names in `gfx_regs`) and the draw capture;
//!   `gfx_draw` executes draws from it, with the depth block in `gfx_depth` (its stencil half
//!   in `gfx_stencil`);
//! - `memory`: device memory (one memfd, CPU and device views shared);
//! - `device`: gfx1100's identity and limits; `log`: messages; `uapi`: the kernel's structures; `real`: the
//!   C library's own functions.
//!
//! See docs/DRM_SHIM.md.

pub mod device;
pub mod drm;
pub mod gfx_depth;
pub mod gfx_draw;
pub mod gfx_msaa;
pub mod gfx_regs;
pub mod gfx_stencil;
pub mod graphics;
pub mod hooks;
pub mod log;
pub mod memory;
pub mod pm4;
pub mod real;
pub mod regs;
pub mod sysfs;
pub mod uapi;
