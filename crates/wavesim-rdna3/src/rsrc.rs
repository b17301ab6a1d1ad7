//! The launch registers' fields a kernel descriptor carries and a dispatch reads:
//! `kernel_code_properties` and COMPUTE_PGM_RSRC1/2 (AMDGPUUsage, "Kernel Descriptor",
//! "compute_pgm_rsrc1/2 for GFX6-GFX12"). Below `dispatch` (which starts waves from them) and
//! `hsa` (which parses them from code objects), so neither imports the other for them.

/// `kernel_code_properties` bits: which user SGPRs the wave is launched with (in this order).
pub mod kcp {
    pub const ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER: u16 = 1 << 0;
    pub const ENABLE_SGPR_DISPATCH_PTR: u16 = 1 << 1;
    pub const ENABLE_SGPR_QUEUE_PTR: u16 = 1 << 2;
    pub const ENABLE_SGPR_KERNARG_SEGMENT_PTR: u16 = 1 << 3;
    pub const ENABLE_SGPR_DISPATCH_ID: u16 = 1 << 4;
    pub const ENABLE_SGPR_FLAT_SCRATCH_INIT: u16 = 1 << 5;
    pub const ENABLE_SGPR_PRIVATE_SEGMENT_SIZE: u16 = 1 << 6;
    /// gfx10+: the kernel was compiled for wave32 (else wave64).
    pub const ENABLE_WAVEFRONT_SIZE32: u16 = 1 << 10;
    pub const USES_DYNAMIC_STACK: u16 = 1 << 11;
}

/// COMPUTE_PGM_RSRC2 fields (AMDGPUUsage, "compute_pgm_rsrc2 for GFX6-GFX12").
pub mod rsrc2 {
    /// Private segment wave byte offset SGPR (and scratch) enabled.
    pub const ENABLE_PRIVATE_SEGMENT: u32 = 1 << 0;
    pub const USER_SGPR_COUNT_SHIFT: u32 = 1;
    pub const USER_SGPR_COUNT_MASK: u32 = 0x1f;
    pub const ENABLE_TRAP_HANDLER: u32 = 1 << 6;
    pub const ENABLE_SGPR_WORKGROUP_ID_X: u32 = 1 << 7;
    pub const ENABLE_SGPR_WORKGROUP_ID_Y: u32 = 1 << 8;
    pub const ENABLE_SGPR_WORKGROUP_ID_Z: u32 = 1 << 9;
    pub const ENABLE_SGPR_WORKGROUP_INFO: u32 = 1 << 10;
    pub const ENABLE_VGPR_WORKITEM_ID_SHIFT: u32 = 11;
    /// LDS size in 128-dword (512-byte) granules on gfx11 (set by the CP; compilers leave 0).
    pub const GRANULATED_LDS_SIZE_SHIFT: u32 = 15;
    pub const GRANULATED_LDS_SIZE_MASK: u32 = 0x1ff;
}

/// COMPUTE_PGM_RSRC1 fields used to initialise the MODE register.
pub mod rsrc1 {
    pub const VGPR_COUNT_MASK: u32 = 0x3f;
    pub const FLOAT_ROUND_MODE_32_SHIFT: u32 = 12;
    pub const FLOAT_ROUND_MODE_16_64_SHIFT: u32 = 14;
    pub const FLOAT_DENORM_MODE_32_SHIFT: u32 = 16;
    pub const FLOAT_DENORM_MODE_16_64_SHIFT: u32 = 18;
    pub const PRIV: u32 = 1 << 20;
    pub const ENABLE_DX10_CLAMP: u32 = 1 << 21;
    pub const DEBUG_MODE: u32 = 1 << 22;
    pub const ENABLE_IEEE_MODE: u32 = 1 << 23;
    pub const FP16_OVFL: u32 = 1 << 26;
    pub const WGP_MODE: u32 = 1 << 29;
    pub const MEM_ORDERED: u32 = 1 << 30;
}
