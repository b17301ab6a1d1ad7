//! The kernel interface as the Linux uapi headers define it: `drm.h` (core DRM: version, caps,
//! GEM close, syncobjs) and `amdgpu_drm.h` (the amdgpu driver's ioctls and INFO queries), as
//! Debian 12's libdrm-dev 2.4.114 ships them. Every struct is `#[repr(C)]` with its size
//! checked against the header's (`sizeof` printed by a C program against those headers).

/// DRM ioctls are `_IOC(dir, 'd', nr, size)`; the driver's start at `DRM_COMMAND_BASE`.
pub const DRM_IOCTL_TYPE: u32 = b'd' as u32;
pub const DRM_COMMAND_BASE: u32 = 0x40;

/// An ioctl request split into its `_IOC` fields (asm-generic/ioctl.h: nr 8 bits, type 8,
/// size 14, dir 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoctlRequest {
    pub nr: u32,
    pub ty: u32,
    pub size: u32,
    pub dir: u32,
}

impl IoctlRequest {
    pub fn decode(request: u64) -> IoctlRequest {
        let r = request as u32;
        IoctlRequest {
            nr: r & 0xff,
            ty: (r >> 8) & 0xff,
            size: (r >> 16) & 0x3fff,
            dir: r >> 30,
        }
    }
}

// Core DRM ioctl numbers (drm.h).
pub const NR_VERSION: u32 = 0x00;
pub const NR_GEM_CLOSE: u32 = 0x09;
pub const NR_GET_CAP: u32 = 0x0c;
pub const NR_SET_CLIENT_CAP: u32 = 0x0d;
pub const NR_PRIME_HANDLE_TO_FD: u32 = 0x2d;
pub const NR_PRIME_FD_TO_HANDLE: u32 = 0x2e;
pub const NR_SYNCOBJ_CREATE: u32 = 0xbf;
pub const NR_SYNCOBJ_DESTROY: u32 = 0xc0;
pub const NR_SYNCOBJ_HANDLE_TO_FD: u32 = 0xc1;
pub const NR_SYNCOBJ_FD_TO_HANDLE: u32 = 0xc2;
pub const NR_SYNCOBJ_WAIT: u32 = 0xc3;
pub const NR_SYNCOBJ_RESET: u32 = 0xc4;
pub const NR_SYNCOBJ_SIGNAL: u32 = 0xc5;
pub const NR_SYNCOBJ_TIMELINE_WAIT: u32 = 0xca;
pub const NR_SYNCOBJ_QUERY: u32 = 0xcb;
pub const NR_SYNCOBJ_TRANSFER: u32 = 0xcc;
pub const NR_SYNCOBJ_TIMELINE_SIGNAL: u32 = 0xcd;

// amdgpu ioctl numbers (amdgpu_drm.h), relative to DRM_COMMAND_BASE.
pub const AMDGPU_GEM_CREATE: u32 = 0x00;
pub const AMDGPU_GEM_MMAP: u32 = 0x01;
pub const AMDGPU_CTX: u32 = 0x02;
pub const AMDGPU_BO_LIST: u32 = 0x03;
pub const AMDGPU_CS: u32 = 0x04;
pub const AMDGPU_INFO: u32 = 0x05;
pub const AMDGPU_GEM_METADATA: u32 = 0x06;
pub const AMDGPU_GEM_WAIT_IDLE: u32 = 0x07;
pub const AMDGPU_GEM_VA: u32 = 0x08;
pub const AMDGPU_WAIT_CS: u32 = 0x09;
pub const AMDGPU_GEM_OP: u32 = 0x10;
pub const AMDGPU_GEM_USERPTR: u32 = 0x11;
pub const AMDGPU_WAIT_FENCES: u32 = 0x12;
pub const AMDGPU_VM: u32 = 0x13;
pub const AMDGPU_FENCE_TO_HANDLE: u32 = 0x14;
pub const AMDGPU_SCHED: u32 = 0x15;

// DRM capabilities (drm.h).
pub const DRM_CAP_PRIME: u64 = 0x5;
pub const DRM_CAP_TIMESTAMP_MONOTONIC: u64 = 0x6;
pub const DRM_CAP_ADDFB2_MODIFIERS: u64 = 0x10;
pub const DRM_CAP_SYNCOBJ: u64 = 0x13;
pub const DRM_CAP_SYNCOBJ_TIMELINE: u64 = 0x14;

pub const DRM_SYNCOBJ_CREATE_SIGNALED: u32 = 1;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL: u32 = 1;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT: u32 = 2;
pub const DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE: u32 = 4;

// INFO queries (amdgpu_drm.h).
pub const AMDGPU_INFO_ACCEL_WORKING: u32 = 0x00;
pub const AMDGPU_INFO_HW_IP_INFO: u32 = 0x02;
pub const AMDGPU_INFO_HW_IP_COUNT: u32 = 0x03;
pub const AMDGPU_INFO_TIMESTAMP: u32 = 0x05;
pub const AMDGPU_INFO_FW_VERSION: u32 = 0x0e;
pub const AMDGPU_INFO_NUM_BYTES_MOVED: u32 = 0x0f;
pub const AMDGPU_INFO_VRAM_USAGE: u32 = 0x10;
pub const AMDGPU_INFO_GTT_USAGE: u32 = 0x11;
pub const AMDGPU_INFO_GDS_CONFIG: u32 = 0x13;
pub const AMDGPU_INFO_VRAM_GTT: u32 = 0x14;
pub const AMDGPU_INFO_READ_MMR_REG: u32 = 0x15;
pub const AMDGPU_INFO_DEV_INFO: u32 = 0x16;
pub const AMDGPU_INFO_VIS_VRAM_USAGE: u32 = 0x17;
pub const AMDGPU_INFO_NUM_EVICTIONS: u32 = 0x18;
pub const AMDGPU_INFO_MEMORY: u32 = 0x19;
pub const AMDGPU_INFO_VRAM_LOST_COUNTER: u32 = 0x1f;
pub const AMDGPU_INFO_VIDEO_CAPS: u32 = 0x21;

// Hardware IP blocks.
pub const AMDGPU_HW_IP_GFX: u32 = 0;
pub const AMDGPU_HW_IP_COMPUTE: u32 = 1;
pub const AMDGPU_HW_IP_DMA: u32 = 2;
pub const AMDGPU_HW_IP_NUM: u32 = 9;

// GEM_VA operations and flags.
pub const AMDGPU_VA_OP_MAP: u32 = 1;
pub const AMDGPU_VA_OP_UNMAP: u32 = 2;
pub const AMDGPU_VA_OP_CLEAR: u32 = 3;
pub const AMDGPU_VA_OP_REPLACE: u32 = 4;
pub const AMDGPU_VM_DELAY_UPDATE: u32 = 1 << 0;
pub const AMDGPU_VM_PAGE_READABLE: u32 = 1 << 1;
pub const AMDGPU_VM_PAGE_WRITEABLE: u32 = 1 << 2;
pub const AMDGPU_VM_PAGE_EXECUTABLE: u32 = 1 << 3;
pub const AMDGPU_VM_PAGE_PRT: u32 = 1 << 4;
/// AMDGPU_VM_MTYPE_MASK: memory type bits (caching policy, no functional effect here).
pub const AMDGPU_VM_MTYPE_MASK: u32 = 0xf << 5;

// Contexts.
pub const AMDGPU_CTX_OP_ALLOC_CTX: u32 = 1;
pub const AMDGPU_CTX_OP_FREE_CTX: u32 = 2;
pub const AMDGPU_CTX_OP_QUERY_STATE: u32 = 3;
pub const AMDGPU_CTX_OP_QUERY_STATE2: u32 = 4;

// BO lists.
pub const AMDGPU_BO_LIST_OP_CREATE: u32 = 0;
pub const AMDGPU_BO_LIST_OP_DESTROY: u32 = 1;
pub const AMDGPU_BO_LIST_OP_UPDATE: u32 = 2;

// CS chunks.
pub const AMDGPU_CHUNK_ID_IB: u32 = 0x01;
pub const AMDGPU_CHUNK_ID_FENCE: u32 = 0x02;
pub const AMDGPU_CHUNK_ID_DEPENDENCIES: u32 = 0x03;
pub const AMDGPU_CHUNK_ID_SYNCOBJ_IN: u32 = 0x04;
pub const AMDGPU_CHUNK_ID_SYNCOBJ_OUT: u32 = 0x05;
pub const AMDGPU_CHUNK_ID_BO_HANDLES: u32 = 0x06;
pub const AMDGPU_CHUNK_ID_SCHEDULED_DEPENDENCIES: u32 = 0x07;
pub const AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_WAIT: u32 = 0x08;
pub const AMDGPU_CHUNK_ID_SYNCOBJ_TIMELINE_SIGNAL: u32 = 0x09;
/// drm_amdgpu_cs_chunk_ib.flags: AMDGPU_IB_FLAG_PREAMBLE (the IB may be skipped when the
/// context did not change; executing it every time is what the kernel does on a context switch).
pub const AMDGPU_IB_FLAG_PREAMBLE: u32 = 1 << 1;

// GEM_OP.
pub const AMDGPU_GEM_OP_GET_GEM_CREATE_INFO: u32 = 0;
pub const AMDGPU_GEM_OP_SET_PLACEMENT: u32 = 1;

// GEM_METADATA.
pub const AMDGPU_GEM_METADATA_OP_SET_METADATA: u32 = 1;
pub const AMDGPU_GEM_METADATA_OP_GET_METADATA: u32 = 2;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DrmVersion {
    pub version_major: i32,
    pub version_minor: i32,
    pub version_patchlevel: i32,
    pub name_len: usize,
    pub name: *mut u8,
    pub date_len: usize,
    pub date: *mut u8,
    pub desc_len: usize,
    pub desc: *mut u8,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmGetCap {
    pub capability: u64,
    pub value: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DrmGemClose {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncobjCreate {
    pub handle: u32,
    pub flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncobjDestroy {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncobjWait {
    pub handles: u64,
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    pub first_signaled: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncobjTimelineWait {
    pub handles: u64,
    pub points: u64,
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    pub first_signaled: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncobjArray {
    pub handles: u64,
    pub count_handles: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncobjTimelineArray {
    pub handles: u64,
    pub points: u64,
    pub count_handles: u32,
    pub flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct SyncobjTransfer {
    pub src_handle: u32,
    pub dst_handle: u32,
    pub src_point: u64,
    pub dst_point: u64,
    pub flags: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GemCreateIn {
    pub bo_size: u64,
    pub alignment: u64,
    pub domains: u64,
    pub domain_flags: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GemMmap {
    /// In: the handle (low 32 bits); out: the fake offset to pass to mmap.
    pub handle_or_offset: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CtxIn {
    pub op: u32,
    pub flags: u32,
    pub ctx_id: u32,
    pub priority: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct BoListIn {
    pub operation: u32,
    pub list_handle: u32,
    pub bo_number: u32,
    pub bo_info_size: u32,
    pub bo_info_ptr: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CsIn {
    pub ctx_id: u32,
    pub bo_list_handle: u32,
    pub num_chunks: u32,
    pub flags: u32,
    pub chunks: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CsChunk {
    pub chunk_id: u32,
    pub length_dw: u32,
    pub chunk_data: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CsChunkIb {
    pub pad: u32,
    pub flags: u32,
    pub va_start: u64,
    pub ib_bytes: u32,
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CsChunkFence {
    pub handle: u32,
    pub offset: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CsChunkSyncobj {
    pub handle: u32,
    pub flags: u32,
    pub point: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CsChunkDep {
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
    pub ctx_id: u32,
    pub handle: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Info {
    pub return_pointer: u64,
    pub return_size: u32,
    pub query: u32,
    /// The query's parameters (a union in the header; 16 bytes).
    pub args: [u32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GemVa {
    pub handle: u32,
    pub pad: u32,
    pub operation: u32,
    pub flags: u32,
    pub va_address: u64,
    pub offset_in_bo: u64,
    pub map_size: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct WaitCsIn {
    pub handle: u64,
    pub timeout: u64,
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
    pub ctx_id: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Fence {
    pub ctx_id: u32,
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
    pub seq_no: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct WaitFencesIn {
    pub fences: u64,
    pub fence_count: u32,
    pub wait_all: u32,
    pub timeout_ns: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GemOp {
    pub handle: u32,
    pub op: u32,
    pub value: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GemCreateInfo {
    pub bo_size: u64,
    pub alignment: u64,
    pub domains: u64,
    pub domain_flags: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GemMetadata {
    pub handle: u32,
    pub op: u32,
    pub flags: u64,
    pub tiling_info: u64,
    pub data_size_bytes: u32,
    pub data: [u32; 64],
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct InfoHwIp {
    pub hw_ip_version_major: u32,
    pub hw_ip_version_minor: u32,
    pub capabilities_flags: u64,
    pub ib_start_alignment: u32,
    pub ib_size_alignment: u32,
    pub available_rings: u32,
    /// `ip_discovery_version` in later headers (`_pad` in libdrm 2.4.114's).
    pub ip_discovery_version: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct InfoFirmware {
    pub ver: u32,
    pub feature: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct HeapInfo {
    pub total_heap_size: u64,
    pub usable_heap_size: u64,
    pub heap_usage: u64,
    pub max_allocation: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct MemoryInfo {
    pub vram: HeapInfo,
    pub cpu_accessible_vram: HeapInfo,
    pub gtt: HeapInfo,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct InfoVramGtt {
    pub vram_size: u64,
    pub vram_cpu_accessible_size: u64,
    pub gtt_size: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct InfoGds {
    pub gds_gfx_partition_size: u32,
    pub compute_partition_size: u32,
    pub gds_total_size: u32,
    pub gws_per_gfx_partition: u32,
    pub gws_per_compute_partition: u32,
    pub oa_per_gfx_partition: u32,
    pub oa_per_compute_partition: u32,
    pub pad: u32,
}

/// `struct drm_amdgpu_info_device` with the fields Linux 6.1 appends after libdrm 2.4.114's
/// `tcc_disabled_mask` (min clocks, cache sizes, MALL size, `enabled_rb_pipes_mask_hi`), as
/// Mesa 22.3's own copy of the header has them; the kernel copies `min(return_size, sizeof)`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct InfoDevice {
    pub device_id: u32,
    pub chip_rev: u32,
    pub external_rev: u32,
    pub pci_rev: u32,
    pub family: u32,
    pub num_shader_engines: u32,
    pub num_shader_arrays_per_engine: u32,
    pub gpu_counter_freq: u32,
    pub max_engine_clock: u64,
    pub max_memory_clock: u64,
    pub cu_active_number: u32,
    pub cu_ao_mask: u32,
    pub cu_bitmap: [[u32; 4]; 4],
    pub enabled_rb_pipes_mask: u32,
    pub num_rb_pipes: u32,
    pub num_hw_gfx_contexts: u32,
    pub pad: u32,
    pub ids_flags: u64,
    pub virtual_address_offset: u64,
    pub virtual_address_max: u64,
    pub virtual_address_alignment: u32,
    pub pte_fragment_size: u32,
    pub gart_page_size: u32,
    pub ce_ram_size: u32,
    pub vram_type: u32,
    pub vram_bit_width: u32,
    pub vce_harvest_config: u32,
    pub gc_double_offchip_lds_buf: u32,
    pub prim_buf_gpu_addr: u64,
    pub pos_buf_gpu_addr: u64,
    pub cntl_sb_buf_gpu_addr: u64,
    pub param_buf_gpu_addr: u64,
    pub prim_buf_size: u32,
    pub pos_buf_size: u32,
    pub cntl_sb_buf_size: u32,
    pub param_buf_size: u32,
    pub wave_front_size: u32,
    pub num_shader_visible_vgprs: u32,
    pub num_cu_per_sh: u32,
    pub num_tcc_blocks: u32,
    pub gs_vgt_table_depth: u32,
    pub gs_prim_buffer_depth: u32,
    pub max_gs_waves_per_vgt: u32,
    pub pad1: u32,
    pub cu_ao_bitmap: [[u32; 4]; 4],
    pub high_va_offset: u64,
    pub high_va_max: u64,
    pub pa_sc_tile_steering_override: u32,
    pub tcc_disabled_mask: u64,
    pub min_engine_clock: u64,
    pub min_memory_clock: u64,
    pub tcp_cache_size: u32,
    pub num_sqc_per_wgp: u32,
    pub sqc_data_cache_size: u32,
    pub sqc_inst_cache_size: u32,
    pub gl1c_cache_size: u32,
    pub gl2c_cache_size: u32,
    pub mall_size: u64,
    pub enabled_rb_pipes_mask_hi: u32,
}

// Sizes from the headers (`sizeof` of each type, libdrm-dev 2.4.114).
const _: () = {
    assert!(std::mem::size_of::<DrmVersion>() == 64);
    assert!(std::mem::size_of::<DrmGetCap>() == 16);
    assert!(std::mem::size_of::<GemCreateIn>() == 32);
    assert!(std::mem::size_of::<GemMmap>() == 8);
    assert!(std::mem::size_of::<CtxIn>() == 16);
    assert!(std::mem::size_of::<BoListIn>() == 24);
    assert!(std::mem::size_of::<CsIn>() == 24);
    assert!(std::mem::size_of::<Info>() == 32);
    assert!(std::mem::size_of::<GemMetadata>() == 288);
    assert!(std::mem::size_of::<GemVa>() == 40);
    assert!(std::mem::size_of::<WaitCsIn>() == 32);
    assert!(std::mem::size_of::<GemOp>() == 16);
    assert!(std::mem::size_of::<WaitFencesIn>() == 24);
    assert!(std::mem::size_of::<SyncobjWait>() == 32);
    assert!(std::mem::size_of::<SyncobjTimelineWait>() == 40);
    assert!(std::mem::size_of::<SyncobjArray>() == 16);
    assert!(std::mem::size_of::<SyncobjTimelineArray>() == 24);
    assert!(std::mem::size_of::<SyncobjTransfer>() == 32);
    assert!(std::mem::size_of::<CsChunkIb>() == 32);
    assert!(std::mem::size_of::<InfoHwIp>() == 32);
    assert!(std::mem::size_of::<MemoryInfo>() == 96);
    // 368 bytes up to tcc_disabled_mask (libdrm 2.4.114) + 52 bytes of Linux 6.1's fields.
    assert!(std::mem::offset_of!(InfoDevice, min_engine_clock) == 368);
    assert!(std::mem::size_of::<InfoDevice>() == 424);
};
