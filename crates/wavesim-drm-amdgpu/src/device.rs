//! The emulated device: a Radeon RX 7900 XTX (Navi 31, gfx1100) as the amdgpu kernel driver
//! describes it to user space, and the PCI/sysfs facts libdrm reads.
//!
//! Sources: the PCI ids (vendor 0x1002, device 0x744c, revision 0xc8) are the board's public
//! PCI ids (pci.ids, "Navi 31 [Radeon RX 7900 XT/7900 XTX]"); the chip family and revision
//! come from the amdgpu uapi (`AMDGPU_FAMILY_GC_11_0_0` = 145) and Mesa's
//! `amdgpu_asic_addr.h` (`AMDGPU_GFX1100_RANGE` = external revisions 0x01..0x10, so
//! external_rev 0x01 makes ac_gpu_info choose CHIP_GFX1100); the shader-engine layout (6 SEs,
//! 2 shader arrays each, 96 CUs = 8 per array), wave32, 1536 VGPRs per SIMD lane and the cache
//! sizes are AMD's RDNA3 public specifications; the VRAM (24 GiB, 384-bit GDDR6), clocks and
//! MALL (96 MiB Infinity Cache) are the RX 7900 XTX's public specifications. Field shapes
//! (which fields gfx11 fills, e.g. `ce_ram_size` 0) follow Mesa's `src/amd/drm-shim/`
//! gfx11 entries. Firmware versions only gate driver workarounds; the values are those
//! Mesa's drm-shim lists for its gfx11 (gfx1150) entry.
//!
//! The virtual address range is the emulator's own choice (see [`VA_START`]).

use crate::uapi::{HeapInfo, InfoDevice, InfoFirmware, InfoHwIp, MemoryInfo};

pub const PCI_VENDOR: u32 = 0x1002;
pub const PCI_DEVICE: u32 = 0x744c;
pub const PCI_REVISION: u32 = 0xc8;
pub const PCI_SUBSYS_VENDOR: u32 = 0x1002;
pub const PCI_SUBSYS_DEVICE: u32 = 0x0e3b;
pub const PCI_SLOT: &str = "0000:03:00.0";

/// The render node's character device: DRM major 226, first render minor 128.
pub const DRM_MAJOR: u32 = 226;
pub const RENDER_MINOR: u32 = 128;

/// `AMDGPU_FAMILY_GC_11_0_0` (amdgpu_drm.h).
pub const FAMILY_GC_11_0_0: u32 = 145;

/// The driver version RADV sees (Linux 6.1's amdgpu reports 3.49).
pub const DRM_VERSION: (i32, i32, i32) = (3, 49, 0);

/// First device virtual address. Device addresses are also host addresses (each VA mapping
/// is a shared host mapping at the same address, see `memory.rs`), so the range must be free
/// in the host process: 1 GiB keeps clear of non-PIE executables (0x400000) and their heap.
pub const VA_START: u64 = 0x4000_0000;
/// End of the device address range: libdrm's 32-bit allocator serves [VA_START, 4 GiB) (RADV's
/// 32-bit descriptor and shader addresses), its general allocator [4 GiB, VA_END). There is no
/// high range (high_va_offset 0): 0xffff8000_00000000 is not a user-space host address.
pub const VA_END: u64 = 0x40_0000_0000;

pub const VRAM_BYTES: u64 = 24 << 30;
/// Without resizable BAR the CPU sees 256 MiB of VRAM.
pub const VISIBLE_VRAM_BYTES: u64 = 256 << 20;
pub const GTT_BYTES: u64 = 16 << 30;

/// GB_ADDR_CONFIG (mmio dword 0x263e), the one register libdrm and ac_gpu_info read with
/// AMDGPU_INFO_READ_MMR_REG on gfx9+. Fields (gfx11 register header): NUM_PIPES [2:0] = 5
/// (32 pipes), PIPE_INTERLEAVE_SIZE [5:3] = 0 (256 B), MAX_COMPRESSED_FRAGS [7:6] = 1,
/// NUM_PKRS [10:8] = 5 (32 packers); as Navi 31's 24 channels of 16 bits round up to.
pub const GB_ADDR_CONFIG: (u32, u32) = (0x263e, 0x0000_0545);

pub fn device_info() -> InfoDevice {
    let mut cu_bitmap = [[0u32; 4]; 4];
    // ac_gpu_info reads CU masks as cu_bitmap[se % 4][sa + (se / 4) * 2]; 8 CUs per array.
    for se in 0..6usize {
        for sa in 0..2usize {
            cu_bitmap[se % 4][sa + (se / 4) * 2] = 0xff;
        }
    }
    InfoDevice {
        device_id: PCI_DEVICE,
        chip_rev: 0x00,
        external_rev: 0x01,
        pci_rev: PCI_REVISION,
        family: FAMILY_GC_11_0_0,
        num_shader_engines: 6,
        num_shader_arrays_per_engine: 2,
        gpu_counter_freq: 100_000,
        max_engine_clock: 2_500_000,
        max_memory_clock: 1_250_000,
        cu_active_number: 96,
        cu_ao_mask: 0,
        cu_bitmap,
        enabled_rb_pipes_mask: 0xff_ffff,
        num_rb_pipes: 24,
        num_hw_gfx_contexts: 8,
        pad: 0,
        ids_flags: 0,
        virtual_address_offset: VA_START,
        virtual_address_max: VA_END,
        virtual_address_alignment: 4096,
        pte_fragment_size: 2 << 20,
        gart_page_size: 4096,
        ce_ram_size: 0,
        // AMDGPU_VRAM_TYPE_GDDR6
        vram_type: 9,
        vram_bit_width: 384,
        vce_harvest_config: 0,
        gc_double_offchip_lds_buf: 1,
        prim_buf_gpu_addr: 0,
        pos_buf_gpu_addr: 0,
        cntl_sb_buf_gpu_addr: 0,
        param_buf_gpu_addr: 0,
        prim_buf_size: 0,
        pos_buf_size: 0,
        cntl_sb_buf_size: 0,
        param_buf_size: 0,
        wave_front_size: 32,
        num_shader_visible_vgprs: 1536,
        num_cu_per_sh: 8,
        num_tcc_blocks: 24,
        gs_vgt_table_depth: 32,
        gs_prim_buffer_depth: 1792,
        max_gs_waves_per_vgt: 32,
        pad1: 0,
        cu_ao_bitmap: [[0; 4]; 4],
        high_va_offset: 0,
        high_va_max: 0,
        pa_sc_tile_steering_override: 0,
        tcc_disabled_mask: 0,
        min_engine_clock: 500_000,
        min_memory_clock: 96_000,
        tcp_cache_size: 32,
        num_sqc_per_wgp: 1,
        sqc_data_cache_size: 16,
        sqc_inst_cache_size: 32,
        gl1c_cache_size: 256,
        gl2c_cache_size: 6144,
        mall_size: 96 << 20,
        enabled_rb_pipes_mask_hi: 0,
    }
}

/// HW IP info: the graphics ring (one, as on every amdgpu board) and four compute rings. No
/// SDMA or multimedia rings: wavesim does not execute SDMA packets or video yet, so they are
/// not offered (RADV then runs transfers on the compute/graphics queues).
pub fn hw_ip(ip: u32) -> Option<(InfoHwIp, u32)> {
    let gfx11 = |rings| InfoHwIp {
        hw_ip_version_major: 11,
        hw_ip_version_minor: 0,
        capabilities_flags: 0,
        ib_start_alignment: 32,
        ib_size_alignment: 32,
        available_rings: rings,
        ip_discovery_version: 0xb_0000,
    };
    match ip {
        crate::uapi::AMDGPU_HW_IP_GFX => Some((gfx11(0x1), 1)),
        crate::uapi::AMDGPU_HW_IP_COMPUTE => Some((gfx11(0xf), 1)),
        ip if ip < crate::uapi::AMDGPU_HW_IP_NUM => Some((InfoHwIp::default(), 0)),
        _ => None,
    }
}

/// Firmware versions by AMDGPU_INFO_FW_* type: ME 0x04, PFP 0x05, MEC 0x08; every other
/// firmware (VCE, UVD, GMC, CE, RLC, SMC, SDMA, SOS, ASD, VCN, ...) reads as version 0 (no
/// such firmware runs in the emulator).
pub fn firmware(fw_type: u32) -> Option<InfoFirmware> {
    let v = |ver, feature| Some(InfoFirmware { ver, feature });
    match fw_type {
        0x04 => v(29, 35),
        0x05 => v(39, 35),
        0x08 => v(24, 35),
        0x01..=0x16 => v(0, 0),
        _ => None,
    }
}

pub fn memory_info() -> MemoryInfo {
    let heap = |total: u64| HeapInfo {
        total_heap_size: total,
        usable_heap_size: total,
        heap_usage: 0,
        max_allocation: total / 4 * 3,
    };
    MemoryInfo {
        vram: heap(VRAM_BYTES),
        cpu_accessible_vram: heap(VISIBLE_VRAM_BYTES),
        gtt: heap(GTT_BYTES),
    }
}
