//! MUBUF / MTBUF execution against the rules of the RDNA3 ISA guide (Buffer Instructions) (buffer instructions) and the RDNA3 ISA guide (Wave State)
//! (out-of-range VGPRs, alignment).
//!
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` (the
//! assembly is next to each constant). Every test runs in wave32 and wave64, most with EXEC only
//! partly set. Expected values are derived in the comments from the rules:
//! - address = V#.base + soffset + buffer_offset; linear buffer_offset = index * stride + offset,
//!   index = (idxen ? vindex : 0) + (add_tid ? lane : 0), offset = ((offen ? voffset : 0) +
//!   inst_offset) mod 2^32 (soffset is outside that sum); swizzled: (index / IS * stride + offset / E * E) * IS + index % IS * E +
//!   offset % E;
//! - OOB_SELECT 0: index >= num_records || offset + payload > stride; 1: index >= num_records;
//!   2: num_records == 0; 3: swizzled with stride as 0, else buffer_offset + payload > num_records
//!   (soffset never counts).

use wavesim_rdna3::exec::ExecError;
use wavesim_rdna3::testing::Harness;

// ---------------------------------------------------------------------------------------------
// Instruction words.

/// buffer_load_b32 v1, v0, s[4:7], 0 offen
const LOAD_B32: [u32; 2] = [0xe0500000, 0x80410100];
/// buffer_load_b32 v1, v0, s[4:7], s8 offen offset:4
const LOAD_B32_SOFF_S8_OFF4: [u32; 2] = [0xe0500004, 0x08410100];
/// buffer_load_b32 v1, v0, s[4:7], 0 idxen offset:4
const LOAD_B32_IDXEN_OFF4: [u32; 2] = [0xe0500004, 0x80810100];
/// buffer_load_b32 v1, v[2:3], s[4:7], 0 idxen offen
const LOAD_B32_IDXEN_OFFEN: [u32; 2] = [0xe0500000, 0x80c10102];
/// buffer_load_b32 v1, off, s[4:7], 0 offset:8
const LOAD_B32_OFF_OFFSET8: [u32; 2] = [0xe0500008, 0x80010100];
/// buffer_load_b32 v[1:2], v0, s[4:7], 0 offen tfe
const LOAD_B32_TFE: [u32; 2] = [0xe0500000, 0x80610100];
/// buffer_load_b32 v1, v0, s[4:7], null offen
const LOAD_B32_SOFF_NULL: [u32; 2] = [0xe0500000, 0x7c410100];
/// buffer_load_b32 v1, v0, s[4:7], m0 offen
const LOAD_B32_SOFF_M0: [u32; 2] = [0xe0500000, 0x7d410100];
/// buffer_load_b32 v1, v0, ttmp[4:7], 0 offen
const LOAD_B32_TTMP: [u32; 2] = [0xe0500000, 0x805c0100];
/// buffer_load_b64 v[4:5], v0, s[4:7], 0 offen
const LOAD_B64: [u32; 2] = [0xe0540000, 0x80410400];
/// buffer_load_b96 v[4:6], v0, s[4:7], 0 offen
const LOAD_B96: [u32; 2] = [0xe0580000, 0x80410400];
/// buffer_load_b128 v[4:7], v0, s[4:7], 0 offen
const LOAD_B128: [u32; 2] = [0xe05c0000, 0x80410400];
/// buffer_store_b32 v1, v0, s[4:7], 0 offen
const STORE_B32: [u32; 2] = [0xe0680000, 0x80410100];
/// buffer_store_b64 v[4:5], v0, s[4:7], 0 offen
const STORE_B64: [u32; 2] = [0xe06c0000, 0x80410400];
/// buffer_store_b128 v[4:7], v0, s[4:7], 0 offen
const STORE_B128: [u32; 2] = [0xe0740000, 0x80410400];
/// buffer_store_b8 v1, v0, s[4:7], 0 offen
const STORE_B8: [u32; 2] = [0xe0600000, 0x80410100];
/// buffer_store_b16 v1, v0, s[4:7], 0 offen
const STORE_B16: [u32; 2] = [0xe0640000, 0x80410100];
/// buffer_store_d16_hi_b8 v1, v0, s[4:7], 0 offen
const STORE_D16_HI_B8: [u32; 2] = [0xe0900000, 0x80410100];
/// buffer_store_d16_hi_b16 v1, v0, s[4:7], 0 offen
const STORE_D16_HI_B16: [u32; 2] = [0xe0940000, 0x80410100];
/// buffer_load_u8 v1, v0, s[4:7], 0 offen
const LOAD_U8: [u32; 2] = [0xe0400000, 0x80410100];
/// buffer_load_i8 v1, v0, s[4:7], 0 offen
const LOAD_I8: [u32; 2] = [0xe0440000, 0x80410100];
/// buffer_load_u16 v1, v0, s[4:7], 0 offen
const LOAD_U16: [u32; 2] = [0xe0480000, 0x80410100];
/// buffer_load_i16 v1, v0, s[4:7], 0 offen
const LOAD_I16: [u32; 2] = [0xe04c0000, 0x80410100];
/// buffer_load_d16_u8 v1, v0, s[4:7], 0 offen
const LOAD_D16_U8: [u32; 2] = [0xe0780000, 0x80410100];
/// buffer_load_d16_i8 v1, v0, s[4:7], 0 offen
const LOAD_D16_I8: [u32; 2] = [0xe07c0000, 0x80410100];
/// buffer_load_d16_b16 v1, v0, s[4:7], 0 offen
const LOAD_D16_B16: [u32; 2] = [0xe0800000, 0x80410100];
/// buffer_load_d16_hi_u8 v1, v0, s[4:7], 0 offen
const LOAD_D16_HI_U8: [u32; 2] = [0xe0840000, 0x80410100];
/// buffer_load_d16_hi_i8 v1, v0, s[4:7], 0 offen
const LOAD_D16_HI_I8: [u32; 2] = [0xe0880000, 0x80410100];
/// buffer_load_d16_hi_b16 v1, v0, s[4:7], 0 offen
const LOAD_D16_HI_B16: [u32; 2] = [0xe08c0000, 0x80410100];
/// buffer_load_format_x v1, v0, s[4:7], 0 offen
const LOAD_FORMAT_X: [u32; 2] = [0xe0000000, 0x80410100];
/// buffer_load_format_xy v[4:5], v0, s[4:7], 0 offen
const LOAD_FORMAT_XY: [u32; 2] = [0xe0040000, 0x80410400];
/// buffer_load_format_xyz v[4:6], v0, s[4:7], 0 offen
const LOAD_FORMAT_XYZ: [u32; 2] = [0xe0080000, 0x80410400];
/// buffer_load_format_xyzw v[4:7], v0, s[4:7], 0 offen
const LOAD_FORMAT_XYZW: [u32; 2] = [0xe00c0000, 0x80410400];
/// buffer_store_format_x v1, v0, s[4:7], 0 offen
const STORE_FORMAT_X: [u32; 2] = [0xe0100000, 0x80410100];
/// buffer_store_format_xyzw v[4:7], v0, s[4:7], 0 offen
const STORE_FORMAT_XYZW: [u32; 2] = [0xe01c0000, 0x80410400];
/// buffer_load_d16_format_x v1, v0, s[4:7], 0 offen
const LOAD_D16_FORMAT_X: [u32; 2] = [0xe0200000, 0x80410100];
/// buffer_load_d16_format_xy v1, v0, s[4:7], 0 offen
const LOAD_D16_FORMAT_XY: [u32; 2] = [0xe0240000, 0x80410100];
/// buffer_load_d16_format_xyz v[4:5], v0, s[4:7], 0 offen
const LOAD_D16_FORMAT_XYZ: [u32; 2] = [0xe0280000, 0x80410400];
/// buffer_load_d16_format_xyzw v[4:5], v0, s[4:7], 0 offen
const LOAD_D16_FORMAT_XYZW: [u32; 2] = [0xe02c0000, 0x80410400];
/// buffer_load_d16_hi_format_x v1, v0, s[4:7], 0 offen
const LOAD_D16_HI_FORMAT_X: [u32; 2] = [0xe0980000, 0x80410100];
/// buffer_store_d16_format_xy v1, v0, s[4:7], 0 offen
const STORE_D16_FORMAT_XY: [u32; 2] = [0xe0340000, 0x80410100];
/// buffer_store_d16_format_xyzw v[4:5], v0, s[4:7], 0 offen
const STORE_D16_FORMAT_XYZW: [u32; 2] = [0xe03c0000, 0x80410400];
/// buffer_store_d16_hi_format_x v1, v0, s[4:7], 0 offen
const STORE_D16_HI_FORMAT_X: [u32; 2] = [0xe09c0000, 0x80410100];
/// tbuffer_load_format_x v1, v0, s[4:7], 0 format:1 offen (format patched by `mtbuf`)
const TLOAD_FORMAT_X: [u32; 2] = [0xe8080000, 0x80410100];
/// tbuffer_load_format_xyzw v[4:7], v0, s[4:7], 0 format:1 offen
const TLOAD_FORMAT_XYZW: [u32; 2] = [0xe8098000, 0x80410400];
/// tbuffer_store_format_xyzw v[4:7], v0, s[4:7], 0 format:1 offen
const TSTORE_FORMAT_XYZW: [u32; 2] = [0xe80b8000, 0x80410400];
/// tbuffer_load_d16_format_x v1, v0, s[4:7], 0 format:1 offen
const TLOAD_D16_FORMAT_X: [u32; 2] = [0xe80c0000, 0x80410100];
/// tbuffer_store_d16_format_xy v1, v0, s[4:7], 0 format:1 offen
const TSTORE_D16_FORMAT_XY: [u32; 2] = [0xe80e8000, 0x80410100];
/// buffer_atomic_add_u32 v1, v0, s[4:7], 0 offen glc
const ATOMIC_ADD_RTN: [u32; 2] = [0xe0d44000, 0x80410100];
/// buffer_atomic_add_u32 v1, v0, s[4:7], 0 offen
const ATOMIC_ADD: [u32; 2] = [0xe0d40000, 0x80410100];
/// buffer_atomic_cmpswap_b32 v[4:5], v0, s[4:7], 0 offen glc
const ATOMIC_CMPSWAP_RTN: [u32; 2] = [0xe0d04000, 0x80410400];
/// buffer_atomic_add_u64 v[4:5], v0, s[4:7], 0 offen glc
const ATOMIC_ADD_U64_RTN: [u32; 2] = [0xe10c4000, 0x80410400];
/// buffer_atomic_cmpswap_b64 v[4:7], v0, s[4:7], 0 offen glc
const ATOMIC_CMPSWAP_B64_RTN: [u32; 2] = [0xe1084000, 0x80410400];
/// buffer_atomic_add_f32 v1, v0, s[4:7], 0 offen glc
const ATOMIC_ADD_F32_RTN: [u32; 2] = [0xe1584000, 0x80410100];
/// buffer_atomic_max_i32 v1, v0, s[4:7], 0 offen glc
const ATOMIC_MAX_I32_RTN: [u32; 2] = [0xe0e84000, 0x80410100];
/// buffer_atomic_csub_u32 v1, v0, s[4:7], 0 offen glc
const ATOMIC_CSUB_RTN: [u32; 2] = [0xe0dc4000, 0x80410100];
/// buffer_atomic_inc_u32 v1, v0, s[4:7], 0 offen glc
const ATOMIC_INC_RTN: [u32; 2] = [0xe0fc4000, 0x80410100];
/// buffer_atomic_min_u64 v[4:5], v0, s[4:7], 0 offen glc
const ATOMIC_MIN_U64_RTN: [u32; 2] = [0xe1184000, 0x80410400];
/// buffer_gl0_inv
const GL0_INV: [u32; 2] = [0xe0ac0000, 0x00000000];
/// buffer_gl1_inv
const GL1_INV: [u32; 2] = [0xe0b00000, 0x00000000];
/// buffer_load_lds_b32 off, s[4:7], 0
const LOAD_LDS_B32: [u32; 2] = [0xe0c40000, 0x80010000];

/// An MTBUF word with its FORMAT field (bits 25:19) set to `fmt`.
fn mtbuf(w: [u32; 2], fmt: u32) -> [u32; 2] {
    [(w[0] & !(0x7f << 19)) | fmt << 19, w[1]]
}

/// A MUBUF/MTBUF word with vdata (dword 1 bits 15:8) replaced.
fn with_vdata(w: [u32; 2], v: u32) -> [u32; 2] {
    [w[0], (w[1] & !0xff00) | v << 8]
}

/// A MUBUF/MTBUF word with srsrc (dword 1 bits 20:16, SGPR / 4) replaced.
fn with_srsrc(w: [u32; 2], s4: u32) -> [u32; 2] {
    [w[0], (w[1] & !(0x1f << 16)) | s4 << 16]
}

// gfx11 BUF_FMT codes used below (LLVM's `format:[BUF_FMT_*]` numbering).
const FMT_8_UNORM: u32 = 1;
const FMT_8_UINT: u32 = 5;
const FMT_16_SINT: u32 = 12;
const FMT_8_8_UNORM: u32 = 14;
const FMT_32_UINT: u32 = 20;
const FMT_32_FLOAT: u32 = 22;
const FMT_16_16_UINT: u32 = 27;
const FMT_8_8_8_8_UNORM: u32 = 42;
const FMT_8_8_8_8_UINT: u32 = 46;
const FMT_16_16_16_16_SINT: u32 = 56;
const FMT_16_16_16_16_FLOAT: u32 = 57;
const FMT_32_32_32_32_UINT: u32 = 61;
const FMT_32_32_32_32_FLOAT: u32 = 63;

// dst_sel values.
const SEL_0: u32 = 0;
const SEL_1: u32 = 1;
const X: u32 = 4;
const Y: u32 = 5;
const Z: u32 = 6;
const W: u32 = 7;

/// A V# in fields (see src/exec/buffer/resource.rs for the gfx11 layout).
#[derive(Clone, Copy, Debug)]
struct VSharp {
    base: u64,
    stride: u32,
    swizzle: u32,
    num_records: u32,
    dst_sel: [u32; 4],
    format: u32,
    index_stride: u32,
    add_tid: bool,
    oob: u32,
    rtype: u32,
}

impl VSharp {
    /// A raw buffer: stride 0, OOB_SELECT 3, identity dst_sel, format 32_FLOAT.
    fn raw(base: u64, num_records: u32) -> VSharp {
        VSharp {
            base,
            stride: 0,
            swizzle: 0,
            num_records,
            dst_sel: [X, Y, Z, W],
            format: FMT_32_FLOAT,
            index_stride: 0,
            add_tid: false,
            oob: 3,
            rtype: 0,
        }
    }

    fn words(&self) -> [u32; 4] {
        [
            self.base as u32,
            (self.base >> 32) as u32 & 0xffff | self.stride << 16 | self.swizzle << 30,
            self.num_records,
            self.dst_sel[0]
                | self.dst_sel[1] << 3
                | self.dst_sel[2] << 6
                | self.dst_sel[3] << 9
                | self.format << 12
                | self.index_stride << 21
                | (self.add_tid as u32) << 23
                | self.oob << 28
                | self.rtype << 30,
        ]
    }
}

/// EXEC for the partial-EXEC runs: a mix of on and off lanes in both halves.
const EXEC_MIX: u64 = 0xf0f0_5a5a_ff00_0ff1;

/// A wave with one zeroed buffer of `bytes` bytes.
struct T {
    h: Harness,
    base: u64,
}

impl T {
    fn new(wave64: bool, bytes: u64) -> T {
        let mut h = Harness::new(wave64);
        let base = h.mem.alloc(bytes, 256).unwrap();
        T { h, base }
    }

    fn lanes(&self) -> usize {
        if self.h.wave.wave64 {
            64
        } else {
            32
        }
    }

    fn exec(&self) -> u64 {
        self.h.wave.exec()
    }

    fn active(&self, l: usize) -> bool {
        self.exec() >> l & 1 != 0
    }

    fn rsrc(&mut self, v: VSharp) {
        let w = v.words();
        self.h.wave.sgpr[4..8].copy_from_slice(&w);
    }

    fn fill_words(&self, n: usize, f: impl Fn(u32) -> u32) {
        for k in 0..n {
            self.h
                .mem
                .write_u32(self.base + 4 * k as u64, f(k as u32))
                .unwrap();
        }
    }

    fn write(&self, off: u64, b: &[u8]) {
        self.h.mem.write(self.base + off, b).unwrap();
    }

    fn word(&self, off: u64) -> u32 {
        self.h.mem.read_u32(self.base + off).unwrap()
    }

    fn bytes(&self, off: u64, n: usize) -> Vec<u8> {
        let mut b = vec![0; n];
        self.h.mem.read(self.base + off, &mut b).unwrap();
        b
    }

    fn run(&mut self, w: [u32; 2]) -> Result<(), ExecError> {
        self.h.run(&w)
    }

    fn v(&self, r: usize, l: usize) -> u32 {
        self.h.v(r, l)
    }

    /// Presets VGPR `r` of every lane to a recognisable value (so untouched lanes show).
    fn poison(&mut self, r: usize) {
        self.h.set_v(r, |l| 0xdead_0000 | l as u32);
    }
}

fn both(f: impl Fn(bool)) {
    f(false);
    f(true);
}

// ---------------------------------------------------------------------------------------------
// Addressing and range checking.

#[test]
fn raw_offen_range_check_and_exec() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        t.fill_words(64, |k| 0x1000 + k);
        // Raw (OOB_SELECT 3), num_records = 100 bytes: lane l reads offset 4l, in range iff
        // 4l + 4 <= 100, i.e. l <= 24; the memory past 100 holds data but reads 0.
        t.rsrc(VSharp::raw(t.base, 100));
        t.h.set_v(0, |l| 4 * l as u32);
        t.poison(1);
        t.h.wave.set_exec(EXEC_MIX);
        t.run(LOAD_B32).unwrap();
        for l in 0..t.lanes() {
            let want = if !t.active(l) {
                0xdead_0000 | l as u32
            } else if l <= 24 {
                0x1000 + l as u32
            } else {
                0
            };
            assert_eq!(t.v(1, l), want, "lane {l}");
        }
    });
}

#[test]
fn soffset_is_in_the_base_not_the_range_check() {
    both(|w64| {
        let mut t = T::new(w64, 512);
        t.fill_words(128, |k| 0x2000 + k);
        t.rsrc(VSharp::raw(t.base, 32));
        t.h.wave.sgpr[8] = 16;
        t.h.set_v(0, |l| 4 * l as u32);
        t.poison(1);
        t.run(LOAD_B32_SOFF_S8_OFF4).unwrap();
        // address = base + 16 + 4l + 4 -> word 5 + l; range check on offset 4l + 4 only:
        // 4l + 4 + 4 <= 32 -> l <= 6 (lane 7 reads base + 48, inside the allocation, yet 0).
        for l in 0..t.lanes() {
            let want = if l <= 6 { 0x2005 + l as u32 } else { 0 };
            assert_eq!(t.v(1, l), want, "lane {l}");
        }
    });
}

/// buffer_load_b32 v1, v0, s[4:7], 0 offen offset:252 (the form ACO emits for `252 - 4 * i`)
const LOAD_B32_OFF252: [u32; 2] = [0xe05000fc, 0x80410100];
/// buffer_load_b32 v1, v0, s[4:7], s8 offen offset:8
const LOAD_B32_SOFF_S8_OFF8: [u32; 2] = [0xe0500008, 0x08410100];

#[test]
fn vgpr_offset_plus_inst_offset_wraps_at_32_bits() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        t.fill_words(64, |k| 0x3000 + k);
        t.rsrc(VSharp::raw(t.base, 256));
        // ACO's descriptor-indexing address: v0 = 0 - 4l (v_sub_nc_u32 v0, 0, v0), offset:252.
        // offset = (2^32 - 4l + 252) mod 2^32 = 252 - 4l, so lane l reads word 63 - l;
        // 252 - 4l + 4 <= 256 for every lane, all in range. (Summed in 64 bits, every lane but
        // 0 would be at 2^32 + 252 - 4l: out of range, 0.)
        t.h.set_v(0, |l| 0u32.wrapping_sub(4 * l as u32));
        t.poison(1);
        t.run(LOAD_B32_OFF252).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0x3000 + 63 - l as u32, "lane {l}");
        }
        // Near 2^32: v0 = 2^32 - 4 + 4l' (lane 0: 0xffff_fffc, lane 1: 0) with offset:252.
        // Lane 0: (0xffff_fffc + 252) mod 2^32 = 248 -> word 62. Lane 1: 252 -> word 63.
        // Lane 2: v0 = 4, 256: 256 + 4 > 256, out of range -> 0.
        t.h.set_v(0, |l| 0xffff_fffcu32.wrapping_add(4 * l as u32));
        t.poison(1);
        t.run(LOAD_B32_OFF252).unwrap();
        assert_eq!(
            [t.v(1, 0), t.v(1, 1), t.v(1, 2)],
            [0x3000 + 62, 0x3000 + 63, 0]
        );
        // No wrap without a carry: v0 = 0xffff_ff00 with offset:252 is 0xffff_fffc, far out of
        // range -> 0 (the wrap is modulo 2^32, not a signed offset clamp).
        t.h.set_v(0, |_| 0xffff_ff00);
        t.poison(1);
        t.run(LOAD_B32_OFF252).unwrap();
        assert_eq!(t.v(1, 0), 0);
    });
}

#[test]
fn soffset_does_not_wrap_with_the_offset() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        t.fill_words(64, |k| 0x4000 + k);
        t.rsrc(VSharp::raw(t.base, 256));
        // soffset = 0xffff_fff0 joins the 48-bit base: lane 0's offset v0 + 8 = 24 is in range
        // (24 + 4 <= 256), but its address is base + 0xffff_fff0 + 24 = base + 2^32 + 8, not
        // base + 8: outside the buffer's memory, a fault naming that address.
        t.h.wave.sgpr[8] = 0xffff_fff0;
        t.h.set_v(0, |_| 16);
        t.h.wave.set_exec(1);
        match t.run(LOAD_B32_SOFF_S8_OFF8) {
            Err(ExecError::MemoryFault { lane: 0, addr, .. }) => {
                assert_eq!(addr, t.base + (1 << 32) + 8)
            }
            other => panic!("expected a memory fault, got {other:?}"),
        }
    });
}

#[test]
fn soffset_null_m0_and_inline_constant() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        t.fill_words(64, |k| 0x3000 + k);
        t.rsrc(VSharp::raw(t.base, 256));
        t.h.set_v(0, |l| 4 * (l as u32 % 8));
        // NULL reads 0: lane l reads word l % 8.
        t.run(LOAD_B32_SOFF_NULL).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0x3000 + l as u32 % 8);
        }
        // M0 = 12: word 3 + l % 8.
        t.h.wave.sgpr[125] = 12;
        t.run(LOAD_B32_SOFF_M0).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0x3003 + l as u32 % 8);
        }
        // The inline constant 0 (code 128) of LOAD_B32: word l % 8.
        t.run(LOAD_B32).unwrap();
        assert_eq!(t.v(1, 9), 0x3001);
    });
}

#[test]
fn structured_idxen_oob_select_0_and_1() {
    both(|w64| {
        let mut t = T::new(w64, 1024);
        t.fill_words(256, |k| 0x4000 + k);
        t.h.set_v(0, |l| l as u32);
        // Stride 12, 5 records, inst_offset 4: address 12l + 4 -> word 3l + 1.
        // OOB_SELECT 1: index l < 5. OOB_SELECT 0 adds offset + 4 <= 12, true here.
        for oob in [0, 1] {
            let mut v = VSharp::raw(t.base, 5);
            v.stride = 12;
            v.oob = oob;
            t.rsrc(v);
            t.poison(1);
            t.run(LOAD_B32_IDXEN_OFF4).unwrap();
            for l in 0..t.lanes() {
                let want = if l < 5 { 0x4000 + 3 * l as u32 + 1 } else { 0 };
                assert_eq!(t.v(1, l), want, "oob {oob} lane {l}");
            }
        }
        // Stride 4 with 64 records: offset 4 + payload 4 > stride -> every lane out of range
        // under OOB_SELECT 0, while OOB_SELECT 1 reads word l + 1.
        let mut v = VSharp::raw(t.base, 64);
        v.stride = 4;
        v.oob = 0;
        t.rsrc(v);
        t.run(LOAD_B32_IDXEN_OFF4).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0, "oob 0 lane {l}");
        }
        v.oob = 1;
        t.rsrc(v);
        t.run(LOAD_B32_IDXEN_OFF4).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0x4000 + l as u32 + 1, "oob 1 lane {l}");
        }
    });
}

#[test]
fn idxen_and_offen_take_two_vgprs() {
    both(|w64| {
        let mut t = T::new(w64, 2048);
        t.fill_words(512, |k| 0x5000 + k);
        let mut v = VSharp::raw(t.base, 10);
        v.stride = 16;
        v.oob = 1;
        t.rsrc(v);
        // v2 = index l, v3 = offset 4 (l % 4): address 16l + 4(l % 4) -> word 4l + l % 4,
        // in range iff l < 10.
        t.h.set_v(2, |l| l as u32);
        t.h.set_v(3, |l| 4 * (l as u32 % 4));
        t.h.wave.set_exec(EXEC_MIX);
        t.poison(1);
        t.run(LOAD_B32_IDXEN_OFFEN).unwrap();
        for l in 0..t.lanes() {
            let want = if !t.active(l) {
                0xdead_0000 | l as u32
            } else if l < 10 {
                0x5000 + 4 * l as u32 + l as u32 % 4
            } else {
                0
            };
            assert_eq!(t.v(1, l), want, "lane {l}");
        }
    });
}

#[test]
fn oob_select_2_checks_only_num_records_zero() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        t.fill_words(64, |k| 0x6000 + k);
        t.h.set_v(0, |l| 4 * l as u32);
        // num_records = 4 but no range check: every lane reads word l.
        let mut v = VSharp::raw(t.base, 4);
        v.oob = 2;
        t.rsrc(v);
        t.run(LOAD_B32).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0x6000 + l as u32);
        }
        // num_records = 0: everything is out of range.
        v.num_records = 0;
        t.rsrc(v);
        t.run(LOAD_B32).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0);
        }
    });
}

#[test]
fn oob_select_3_swizzled_with_stride_checks_like_structured() {
    both(|w64| {
        let mut t = T::new(w64, 1024);
        t.fill_words(256, |k| 0x7000 + k);
        // Swizzled (E = 4), index_stride 8, stride 8, 3 records, idxen index l, offset 4:
        // buffer_offset = (l/8 * 8 + 4/4 * 4) * 8 + (l % 8) * 4 + 0 = 64(l/8) + 32 + 4(l%8).
        // OOB_SELECT 3 with swizzle and stride: index < 3 and 4 + 4 <= 8 -> lanes 0..2 read
        // word 8 + l.
        let mut v = VSharp::raw(t.base, 3);
        v.swizzle = 1;
        v.stride = 8;
        t.rsrc(v);
        t.h.set_v(0, |l| l as u32);
        t.run(LOAD_B32_IDXEN_OFF4).unwrap();
        for l in 0..t.lanes() {
            let want = if l < 3 { 0x7008 + l as u32 } else { 0 };
            assert_eq!(t.v(1, l), want, "lane {l}");
        }
    });
}

#[test]
fn swizzled_addressing_element_16_index_stride_16() {
    both(|w64| {
        let mut t = T::new(w64, 2048);
        t.fill_words(512, |k| 0xabc0_0000 ^ k);
        // E = 16 (swizzle_enable 3), index stride 16 (field 1), stride 32, no range check.
        // index l, offset 20: (l/16 * 32 + 20/16 * 16) * 16 + (l % 16) * 16 + 20 % 16
        //                   = 512 (l/16) + 256 + 16 (l % 16) + 4.
        let mut v = VSharp::raw(t.base, 1);
        v.swizzle = 3;
        v.index_stride = 1;
        v.stride = 32;
        v.oob = 2;
        t.rsrc(v);
        t.h.set_v(2, |l| l as u32);
        t.h.set_v(3, |_| 20);
        t.run(LOAD_B32_IDXEN_OFFEN).unwrap();
        for l in 0..t.lanes() {
            let off = 512 * (l / 16) + 256 + 16 * (l % 16) + 4;
            assert_eq!(t.v(1, l), 0xabc0_0000 ^ (off / 4) as u32, "lane {l}");
        }
    });
}

#[test]
fn add_tid_scratch_style_swizzle() {
    both(|w64| {
        let mut t = T::new(w64, 1024);
        t.fill_words(256, |k| 0x8000 + k);
        // Scratch-style V#: add_tid, swizzled E = 4, index_stride 64 (field 3), stride 8,
        // OOB_SELECT 2. index = lane, offset 4 (v0):
        // (0 * 8 + 1 * 4) * 64 + l * 4 + 0 = 256 + 4l -> word 64 + l ("dword 1 of each lane is
        // 64 dwords after dword 0").
        let mut v = VSharp::raw(t.base, 0xffff_ffff);
        v.add_tid = true;
        v.swizzle = 1;
        v.index_stride = 3;
        v.stride = 8;
        v.oob = 2;
        t.rsrc(v);
        t.h.set_v(0, |_| 4);
        t.run(LOAD_B32).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0x8040 + l as u32, "lane {l}");
        }
    });
}

#[test]
fn add_tid_linear() {
    both(|w64| {
        let mut t = T::new(w64, 1024);
        t.fill_words(256, |k| 0x9000 + k);
        // Linear, stride 16, add_tid: index = lane, no VGPR address, inst_offset 8:
        // address 16l + 8 -> word 4l + 2. Raw check: 16l + 8 + 4 <= 1024 for every lane.
        let mut v = VSharp::raw(t.base, 1024);
        v.add_tid = true;
        v.stride = 16;
        t.rsrc(v);
        t.run(LOAD_B32_OFF_OFFSET8).unwrap();
        for l in 0..t.lanes() {
            assert_eq!(t.v(1, l), 0x9000 + 4 * l as u32 + 2, "lane {l}");
        }
    });
}

#[test]
fn multi_dword_loads_are_checked_per_dword() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        t.fill_words(64, |k| 0xa000 + k);
        // num_records = 8 bytes. Lane offsets 4 (l % 3):
        //   0 -> dwords at 0, 4 in range, 8, 12 out: [w0, w1, 0, 0]
        //   4 -> dword at 4 in range:             [w1, 0, 0, 0]
        //   8 -> nothing in range:                 [0, 0, 0, 0]
        t.rsrc(VSharp::raw(t.base, 8));
        t.h.set_v(0, |l| 4 * (l as u32 % 3));
        for r in 4..8 {
            t.poison(r);
        }
        t.run(LOAD_B128).unwrap();
        for l in 0..t.lanes() {
            let got: Vec<u32> = (4..8).map(|r| t.v(r, l)).collect();
            let want = match l % 3 {
                0 => vec![0xa000, 0xa001, 0, 0],
                1 => vec![0xa001, 0, 0, 0],
                _ => vec![0, 0, 0, 0],
            };
            assert_eq!(got, want, "lane {l}");
        }
        // b96 and b64 the same way.
        t.run(LOAD_B96).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0), t.v(6, 0)], [0xa000, 0xa001, 0]);
        t.run(LOAD_B64).unwrap();
        assert_eq!([t.v(4, 1), t.v(5, 1)], [0xa001, 0]);
    });
}

#[test]
fn multi_dword_stores_are_checked_per_dword() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |_| 0x5555_5555);
        t.rsrc(VSharp::raw(t.base, 8));
        t.h.set_v(0, |_| 0);
        for r in 4..8 {
            t.h.set_v(r, |_| 0x100 + r as u32);
        }
        t.h.wave.set_exec(1);
        t.run(STORE_B128).unwrap();
        // Dwords 0 and 1 are inside the 8 bytes, 2 and 3 are dropped.
        assert_eq!(
            [t.word(0), t.word(4), t.word(8), t.word(12)],
            [0x104, 0x105, 0x5555_5555, 0x5555_5555]
        );
    });
}

#[test]
fn raw_range_check_is_exact_for_unaligned_accesses() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        let b: Vec<u8> = (1..=32).collect();
        t.write(0, &b);
        t.h.cfg.alignment_mode = 3; // UNALIGNED
        t.rsrc(VSharp::raw(t.base, 9));
        // b32 at 5: 5 + 4 <= 9 -> bytes 5..8 = 6,7,8,9; at 6: 10 > 9 -> 0.
        t.h.set_v(0, |l| if l % 2 == 0 { 5 } else { 6 });
        t.run(LOAD_B32).unwrap();
        assert_eq!(t.v(1, 0), u32::from_le_bytes([6, 7, 8, 9]));
        assert_eq!(t.v(1, 1), 0);
        // b64 at 1: dwords 1..4 and 5..8 both end by 9; at 2 the second (6..9) ends at 10.
        t.h.set_v(0, |l| if l % 2 == 0 { 1 } else { 2 });
        t.run(LOAD_B64).unwrap();
        assert_eq!(
            [t.v(4, 0), t.v(5, 0)],
            [
                u32::from_le_bytes([2, 3, 4, 5]),
                u32::from_le_bytes([6, 7, 8, 9])
            ]
        );
        assert_eq!(
            [t.v(4, 1), t.v(5, 1)],
            [u32::from_le_bytes([3, 4, 5, 6]), 0]
        );
    });
}

#[test]
fn mtbuf_out_of_range_is_whole_thread_mubuf_per_dword() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |k| 0xb000 + k);
        t.rsrc(VSharp::raw(t.base, 24));
        t.h.set_v(0, |l| if l % 2 == 0 { 0 } else { 16 });
        // tbuffer xyzw 32_32_32_32_UINT: element 16 bytes. Lane at 0: 16 <= 24, all four.
        // Lane at 16: 32 > 24 -> the whole thread reads 0 although dwords 16..24 are inside.
        t.run(mtbuf(TLOAD_FORMAT_XYZW, FMT_32_32_32_32_UINT))
            .unwrap();
        assert_eq!(
            [t.v(4, 0), t.v(5, 0), t.v(6, 0), t.v(7, 0)],
            [0xb000, 0xb001, 0xb002, 0xb003]
        );
        assert_eq!([t.v(4, 1), t.v(5, 1), t.v(6, 1), t.v(7, 1)], [0, 0, 0, 0]);
        // buffer_load_b128 at 16: only the dwords past 24 read 0.
        t.run(LOAD_B128).unwrap();
        assert_eq!(
            [t.v(4, 1), t.v(5, 1), t.v(6, 1), t.v(7, 1)],
            [0xb004, 0xb005, 0, 0]
        );
        // And a format op on the same V# is all-or-nothing too (MUBUF format: V# format).
        let mut v = VSharp::raw(t.base, 24);
        v.format = FMT_32_32_32_32_UINT;
        t.rsrc(v);
        t.run(LOAD_FORMAT_XYZW).unwrap();
        assert_eq!([t.v(4, 1), t.v(5, 1), t.v(6, 1), t.v(7, 1)], [0, 0, 0, 0]);
    });
}

#[test]
fn stores_out_of_range_are_dropped() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        t.rsrc(VSharp::raw(t.base, 40));
        t.h.set_v(0, |l| 4 * l as u32);
        t.h.set_v(1, |l| 0x100 + l as u32);
        t.h.wave.set_exec(EXEC_MIX);
        t.run(STORE_B32).unwrap();
        // In range: 4l + 4 <= 40 -> l <= 9; others dropped (memory stays 0).
        for l in 0..t.lanes() {
            let want = if l <= 9 && t.active(l) {
                0x100 + l as u32
            } else {
                0
            };
            assert_eq!(t.word(4 * l as u64), want, "lane {l}");
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Sub-dword and D16 non-format ops.

#[test]
fn byte_and_short_loads_extend() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.write(0, &[0xfe, 0x81, 0x34, 0x92]);
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.set_v(0, |_| 0);
        let cases: [([u32; 2], u32); 4] = [
            (LOAD_U8, 0xfe),         // zero-extended byte
            (LOAD_I8, 0xffff_fffe),  // sign-extended byte
            (LOAD_U16, 0x81fe),      // zero-extended short
            (LOAD_I16, 0xffff_81fe), // sign-extended short
        ];
        for (w, want) in cases {
            t.run(w).unwrap();
            assert_eq!(t.v(1, 3), want);
        }
        // D16: only one half is written, the other is kept.
        let d16: [([u32; 2], u32); 6] = [
            (LOAD_D16_U8, 0xabcd_00fe),
            (LOAD_D16_I8, 0xabcd_fffe),
            (LOAD_D16_B16, 0xabcd_81fe),
            (LOAD_D16_HI_U8, 0x00fe_1234),
            (LOAD_D16_HI_I8, 0xfffe_1234),
            (LOAD_D16_HI_B16, 0x81fe_1234),
        ];
        for (k, (w, want)) in d16.into_iter().enumerate() {
            t.h.set_v(1, |_| 0xabcd_1234);
            t.run(w).unwrap();
            assert_eq!(t.v(1, 5), want, "d16 case {k}");
        }
    });
}

#[test]
fn byte_and_short_stores() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.wave.set_exec(1);
        t.h.set_v(1, |_| 0x1122_3344);
        let cases: [([u32; 2], u32, &[u8]); 4] = [
            (STORE_B8, 0, &[0x44]),
            (STORE_B16, 4, &[0x44, 0x33]),
            (STORE_D16_HI_B8, 8, &[0x22]),
            (STORE_D16_HI_B16, 12, &[0x22, 0x11]),
        ];
        for (w, off, want) in cases {
            t.h.set_v(0, |_| off);
            t.run(w).unwrap();
            // The written bytes and nothing after them.
            assert_eq!(t.bytes(off as u64, want.len() + 1)[..want.len()], *want);
            assert_eq!(t.bytes(off as u64 + want.len() as u64, 1), vec![0]);
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Formats.

/// Loads one element with `buffer_load_format_xyzw` (V# format `fmt`, identity dst_sel) and
/// returns the four VGPRs of lane 0.
fn load_fmt(t: &mut T, fmt: u32, mem: &[u8]) -> [u32; 4] {
    let mut m = mem.to_vec();
    m.resize(16, 0);
    t.write(0, &m);
    let mut v = VSharp::raw(t.base, 64);
    v.format = fmt;
    t.rsrc(v);
    t.h.set_v(0, |_| 0);
    t.run(LOAD_FORMAT_XYZW).unwrap();
    [t.v(4, 0), t.v(5, 0), t.v(6, 0), t.v(7, 0)]
}

/// Stores `vals` with `buffer_store_format_xyzw` (V# format `fmt`) and returns the first
/// `n` bytes of memory (which starts as 0xee).
fn store_fmt(t: &mut T, fmt: u32, vals: [u32; 4], n: usize) -> Vec<u8> {
    t.write(0, &[0xee; 32]);
    let mut v = VSharp::raw(t.base, 64);
    v.format = fmt;
    t.rsrc(v);
    t.h.set_v(0, |_| 0);
    for (k, val) in vals.iter().enumerate() {
        t.h.set_v(4 + k, |_| *val);
    }
    t.h.wave.set_exec(1);
    t.run(STORE_FORMAT_XYZW).unwrap();
    t.bytes(0, n)
}

const ONE: u32 = 0x3f80_0000;
const NEG_ONE: u32 = 0xbf80_0000;
const INF: u32 = 0x7f80_0000;

/// Every gfx11 format code, memory -> VGPRs. Components a format lacks read 0 (identity
/// dst_sel XYZW). Exact values of the fractions were rounded to f32 by hand (RNE).
#[test]
fn every_format_loads() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        #[rustfmt::skip]
        let cases: &[(u32, &[u8], [u32; 4])] = &[
            // 8_UNORM: 128/255 = 0.50196078.. -> 0x3f008081; 255 -> 1.0
            (1, &[0x80], [0x3f00_8081, 0, 0, 0]),
            (1, &[0xff], [ONE, 0, 0, 0]),
            // 8_SNORM: 0x80 (-128) and 0x81 (-127) both -1.0; 0x40: 64/127 = 0x3f010204
            (2, &[0x80], [NEG_ONE, 0, 0, 0]),
            (2, &[0x81], [NEG_ONE, 0, 0, 0]),
            (2, &[0x40], [0x3f01_0204, 0, 0, 0]),
            (2, &[0xff], [0xbc01_0204, 0, 0, 0]), // -1/127
            (3, &[0xc8], [200f32.to_bits(), 0, 0, 0]),   // 8_USCALED
            (4, &[0x80], [(-128f32).to_bits(), 0, 0, 0]), // 8_SSCALED
            (5, &[0xfe], [0xfe, 0, 0, 0]),                // 8_UINT
            (6, &[0xfe], [0xffff_fffe, 0, 0, 0]),         // 8_SINT
            (7, &[0x01, 0x00], [0x3780_0080, 0, 0, 0]),   // 16_UNORM 1/65535
            (8, &[0x00, 0x80], [NEG_ONE, 0, 0, 0]),       // 16_SNORM -32768
            (8, &[0xfb, 0xff], [0xb920_0140, 0, 0, 0]),   // 16_SNORM -5/32767
            (9, &[0xff, 0xff], [65535f32.to_bits(), 0, 0, 0]),
            (10, &[0x00, 0x80], [(-32768f32).to_bits(), 0, 0, 0]),
            (11, &[0x01, 0x80], [0x8001, 0, 0, 0]),
            (12, &[0x01, 0x80], [0xffff_8001, 0, 0, 0]),
            // 16_FLOAT: inf, the smallest denormal 2^-24, a NaN (payload kept)
            (13, &[0x00, 0x7c], [INF, 0, 0, 0]),
            (13, &[0x01, 0x00], [0x3380_0000, 0, 0, 0]),
            (13, &[0x01, 0xfe], [0xffc0_2000, 0, 0, 0]),
            (14, &[0x00, 0xff], [0, ONE, 0, 0]),          // 8_8_UNORM
            (15, &[0x7f, 0x80], [ONE, NEG_ONE, 0, 0]),    // 8_8_SNORM
            (16, &[0x01, 0xff], [ONE, 255f32.to_bits(), 0, 0]),
            (17, &[0xff, 0x7f], [NEG_ONE, 127f32.to_bits(), 0, 0]),
            (18, &[0x01, 0xff], [1, 0xff, 0, 0]),
            (19, &[0x01, 0xff], [1, 0xffff_ffff, 0, 0]),
            (20, &[0x78, 0x56, 0x34, 0x92], [0x9234_5678, 0, 0, 0]),
            (21, &[0x78, 0x56, 0x34, 0x92], [0x9234_5678, 0, 0, 0]),
            // 32_FLOAT: bits are copied, a signalling NaN included
            (22, &[0x01, 0x00, 0xa0, 0x7f], [0x7fa0_0001, 0, 0, 0]),
            (23, &[0xff, 0xff, 0x00, 0x00], [ONE, 0, 0, 0]),           // 16_16_UNORM
            (24, &[0xff, 0x7f, 0x01, 0x80], [ONE, NEG_ONE, 0, 0]),     // 16_16_SNORM
            (25, &[0x02, 0x00, 0x03, 0x00], [2f32.to_bits(), 3f32.to_bits(), 0, 0]),
            (26, &[0xfe, 0xff, 0x03, 0x00], [(-2f32).to_bits(), 3f32.to_bits(), 0, 0]),
            (27, &[0xfe, 0xff, 0x03, 0x00], [0xfffe, 3, 0, 0]),
            (28, &[0xfe, 0xff, 0x03, 0x00], [0xffff_fffe, 3, 0, 0]),
            (29, &[0x00, 0x3c, 0x00, 0xc0], [ONE, (-2f32).to_bits(), 0, 0]),
            // 10_11_11_FLOAT: X f11 [10:0] = 0x3c0 (1.0), Y f11 [21:11] = 0x7c0 (inf),
            // Z f10 [31:22] = 0x1c0 (0.5): 0x3c0 | 0x7c0 << 11 | 0x1c0 << 22 = 0x703e03c0
            (30, &0x703e_03c0u32.to_le_bytes(), [ONE, INF, 0x3f00_0000, 0]),
            // 11_11_10_FLOAT: X f10 [9:0] = 0x001 (denormal 2^-19), Y f11 [20:10] = 0x001
            // (2^-20), Z f11 [31:21] = 0x7e0 (NaN, quiet): 0x001 | 0x001 << 10 | 0x7e0 << 21
            (31, &(0x001 | 0x001 << 10 | 0x7e0u32 << 21).to_le_bytes(),
                [0x3600_0000, 0x3580_0000, 0x7fc0_0000, 0]),
            // 10_10_10_2_UNORM: X 2 bits [1:0] = 3 (1.0), Y [11:2] = 1023 (1.0), Z [21:12] = 0,
            // W [31:22] = 512 (512/1023 = 0x3f002008)
            (32, &(3 | 1023 << 2 | 512u32 << 22).to_le_bytes(), [ONE, ONE, 0, 0x3f00_2008]),
            // 10_10_10_2_SNORM: X (2 bits) = 2 -> -2 -> clamped to -1.0, Y = 1 -> 1/511
            // (0x3b004020), Z = 0x200 (-512) -> -1.0, W = 100 -> 100/511 (0x3e486432)
            (33, &(2 | 1 << 2 | 0x200 << 12 | 100u32 << 22).to_le_bytes(),
                [NEG_ONE, 0x3b00_4020, NEG_ONE, 0x3e48_6432]),
            (34, &(3 | 5 << 2 | 6 << 12 | 1023u32 << 22).to_le_bytes(), [3, 5, 6, 1023]),
            (35, &(3 | 5 << 2 | 0x3ff << 12 | 512u32 << 22).to_le_bytes(),
                [0xffff_ffff, 5, 0xffff_ffff, 0xffff_fe00]),
            // 2_10_10_10_UNORM: X [9:0] = 1023, Y [19:10] = 512, Z [29:20] = 0, W [31:30] = 1
            // (1/3 = 0x3eaaaaab)
            (36, &(1023 | 512 << 10 | 1u32 << 30).to_le_bytes(), [ONE, 0x3f00_2008, 0, 0x3eaa_aaab]),
            (37, &(0x200 | 511 << 10 | 2u32 << 30).to_le_bytes(), [NEG_ONE, ONE, 0, NEG_ONE]),
            (38, &(7 | 8 << 10 | 9 << 20 | 3u32 << 30).to_le_bytes(),
                [7f32.to_bits(), 8f32.to_bits(), 9f32.to_bits(), 3f32.to_bits()]),
            (39, &(0x3ff | 8 << 10 | 9 << 20 | 2u32 << 30).to_le_bytes(),
                [NEG_ONE, 8f32.to_bits(), 9f32.to_bits(), (-2f32).to_bits()]),
            (40, &(7 | 8 << 10 | 9 << 20 | 3u32 << 30).to_le_bytes(), [7, 8, 9, 3]),
            (41, &(7 | 8 << 10 | 0x3ff << 20 | 2u32 << 30).to_le_bytes(),
                [7, 8, 0xffff_ffff, 0xffff_fffe]),
            (42, &[0x00, 0xff, 0x80, 0x01], [0, ONE, 0x3f00_8081, 0x3b80_8081]),
            (43, &[0x80, 0x7f, 0x40, 0xff], [NEG_ONE, ONE, 0x3f01_0204, 0xbc01_0204]),
            (44, &[1, 2, 3, 255], [ONE, 2f32.to_bits(), 3f32.to_bits(), 255f32.to_bits()]),
            (45, &[1, 2, 3, 255], [ONE, 2f32.to_bits(), 3f32.to_bits(), NEG_ONE]),
            (46, &[1, 2, 3, 255], [1, 2, 3, 255]),
            (47, &[1, 2, 3, 255], [1, 2, 3, 0xffff_ffff]),
            (48, &[1, 0, 0, 0, 2, 0, 0, 0x80], [1, 0x8000_0002, 0, 0]),
            (49, &[1, 0, 0, 0, 2, 0, 0, 0x80], [1, 0x8000_0002, 0, 0]),
            (50, &[0, 0, 0x80, 0x3f, 0, 0, 0x80, 0xff], [ONE, 0xff80_0000, 0, 0]),
            // 16_16_16_16_UNORM: 32768/65535 = 0x3f000080, 1/65535 = 0x37800080
            (51, &[0xff, 0xff, 0, 0, 0, 0x80, 1, 0], [ONE, 0, 0x3f00_0080, 0x3780_0080]),
            (52, &[0xff, 0x7f, 0, 0x80, 0, 0, 0xfb, 0xff], [ONE, NEG_ONE, 0, 0xb920_0140]),
            (53, &[1, 0, 2, 0, 3, 0, 0xff, 0xff],
                [ONE, 2f32.to_bits(), 3f32.to_bits(), 65535f32.to_bits()]),
            (54, &[1, 0, 2, 0, 3, 0, 0xff, 0xff],
                [ONE, 2f32.to_bits(), 3f32.to_bits(), NEG_ONE]),
            (55, &[1, 0, 2, 0, 3, 0, 0xff, 0xff], [1, 2, 3, 0xffff]),
            (56, &[1, 0, 2, 0, 3, 0, 0xff, 0xff], [1, 2, 3, 0xffff_ffff]),
            (57, &[0, 0x3c, 0, 0xbc, 0, 0x7c, 0, 0x38], [ONE, NEG_ONE, INF, 0x3f00_0000]),
            (58, &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0], [1, 2, 3, 0]),
            (59, &[1, 0, 0, 0, 2, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], [1, 2, 0xffff_ffff, 0]),
            (60, &[0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x7f, 0, 0, 0, 0x80], [ONE, INF, 0x8000_0000, 0]),
            (61, &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0], [1, 2, 3, 4]),
            (62, &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff],
                [1, 2, 3, 0xffff_fffc]),
            (63, &[0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40, 1, 0, 0xc0, 0x7f],
                [ONE, 2f32.to_bits(), 3f32.to_bits(), 0x7fc0_0001]),
        ];
        for (fmt, mem, want) in cases {
            assert_eq!(
                load_fmt(&mut t, *fmt, mem),
                *want,
                "format {fmt} mem {mem:x?}"
            );
        }
    });
}

/// VGPRs -> memory for every data format with the rounding, clamping and NaN edges.
#[test]
fn every_format_stores() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        let f = |x: f32| x.to_bits();
        const NAN: u32 = 0x7fc0_0000;
        #[rustfmt::skip]
        let cases: &[(u32, [u32; 4], &[u8])] = &[
            // 8_UNORM: 0.5 * 255 = 127.5 -> ties to even 128; NaN -> 0; -1 -> 0; 2 -> 255
            (1, [f(0.5), 0, 0, 0], &[0x80, 0xee]),
            (1, [NAN, 0, 0, 0], &[0x00]),
            (1, [f(-1.0), 0, 0, 0], &[0x00]),
            (1, [f(2.0), 0, 0, 0], &[0xff]),
            // 8_SNORM: -1 -> -127 (0x81); 0.5 * 127 = 63.5 -> 64; -2 clamps to -127; NaN -> 0
            (2, [f(-1.0), 0, 0, 0], &[0x81]),
            (2, [f(0.5), 0, 0, 0], &[0x40]),
            (2, [f(-2.0), 0, 0, 0], &[0x81]),
            (2, [NAN, 0, 0, 0], &[0x00]),
            // 8_USCALED: 2.5 -> 2 (ties to even), 300 -> 255, -5 -> 0
            (3, [f(2.5), 0, 0, 0], &[2]),
            (3, [f(300.0), 0, 0, 0], &[255]),
            (3, [f(-5.0), 0, 0, 0], &[0]),
            // 8_SSCALED: -128.5 -> -128 (clamp), 3.5 -> 4
            (4, [f(-128.5), 0, 0, 0], &[0x80]),
            (4, [f(3.5), 0, 0, 0], &[4]),
            // 8_UINT saturates: 300 -> 255; 8_SINT: -200 -> -128, 100 -> 100
            (5, [300, 0, 0, 0], &[0xff]),
            (6, [(-200i32) as u32, 0, 0, 0], &[0x80]),
            (6, [100, 0, 0, 0], &[100]),
            // 16_UNORM: 1/3 * 65535 = 21845 exactly? f32(1/3) = 0.333333343 -> 21845.0006 -> 21845
            (7, [f(1.0 / 3.0), 0, 0, 0], &[0x55, 0x55, 0xee]),
            (8, [f(-0.5), 0, 0, 0], &[0x00, 0xc0]), // -0.5 * 32767 = -16383.5 -> -16384
            (9, [f(70000.0), 0, 0, 0], &[0xff, 0xff]),
            (10, [f(-40000.0), 0, 0, 0], &[0x00, 0x80]),
            (11, [0x1_0000, 0, 0, 0], &[0xff, 0xff]),
            (12, [0x8000, 0, 0, 0], &[0xff, 0x7f]),
            // 16_FLOAT, ties to even: 65520 is halfway between 65504 and 65536 -> inf;
            // 1 + 2^-11 halfway between 1 and 1 + 2^-10 -> 1.0; 1 + 3 * 2^-11 -> 1 + 2^-9;
            // -0 stays -0; NaN stays NaN; 2^-25 halfway between 0 and 2^-24 -> 0
            (13, [f(65520.0), 0, 0, 0], &[0x00, 0x7c]),
            (13, [f(1.0 + 1.0 / 2048.0), 0, 0, 0], &[0x00, 0x3c]),
            (13, [f(1.0 + 3.0 / 2048.0), 0, 0, 0], &[0x02, 0x3c]),
            (13, [0x8000_0000, 0, 0, 0], &[0x00, 0x80]),
            (13, [NAN, 0, 0, 0], &[0x00, 0x7e]),
            (13, [f(2f32.powi(-25)), 0, 0, 0], &[0x00, 0x00]),
            (14, [f(0.5), f(1.0), 0, 0], &[0x80, 0xff, 0xee]),
            (15, [f(-1.0), f(1.0), 0, 0], &[0x81, 0x7f]),
            (16, [f(1.0), f(2.0), 0, 0], &[1, 2]),
            (17, [f(-1.0), f(2.0), 0, 0], &[0xff, 2]),
            (18, [1, 256, 0, 0], &[1, 0xff]),
            (19, [(-1i32) as u32, 128, 0, 0], &[0xff, 0x7f]),
            (20, [0x9234_5678, 0, 0, 0], &[0x78, 0x56, 0x34, 0x92, 0xee]),
            (21, [0x9234_5678, 0, 0, 0], &[0x78, 0x56, 0x34, 0x92]),
            (22, [0x7fa0_0001, 0, 0, 0], &[0x01, 0x00, 0xa0, 0x7f]),
            (23, [f(1.0), f(0.0), 0, 0], &[0xff, 0xff, 0, 0]),
            (24, [f(1.0), f(-1.0), 0, 0], &[0xff, 0x7f, 0x01, 0x80]),
            (25, [f(2.0), f(3.0), 0, 0], &[2, 0, 3, 0]),
            (26, [f(-2.0), f(3.0), 0, 0], &[0xfe, 0xff, 3, 0]),
            (27, [0x1_0000, 3, 0, 0], &[0xff, 0xff, 3, 0]),
            (28, [(-40000i32) as u32, 3, 0, 0], &[0x00, 0x80, 3, 0]),
            (29, [f(1.0), f(-2.0), 0, 0], &[0x00, 0x3c, 0x00, 0xc0]),
            // 10_11_11_FLOAT: X f11(1.0) = 0x3c0, Y f11(-1.0) = 0 (no sign), Z f10(inf) = 0x3e0
            (30, [f(1.0), f(-1.0), INF, 0], &(0x3c0 | 0x3e0u32 << 22).to_le_bytes()),
            // 11_11_10_FLOAT: X f10(NaN) = 0x3f0 (quiet), Y f11(0.5) = 0x380, Z f11(2^-20) = 1
            (31, [NAN, f(0.5), f(2f32.powi(-20)), 0],
                &(0x3f0 | 0x380 << 10 | 1u32 << 21).to_le_bytes()),
            // 10_10_10_2_UNORM: X (2 bits) 1.0 -> 3, Y 0.5 * 1023 = 511.5 -> 512, Z 0, W 1 -> 1023
            (32, [f(1.0), f(0.5), 0, f(1.0)], &(3 | 512 << 2 | 1023u32 << 22).to_le_bytes()),
            (33, [f(-1.0), f(1.0), f(-1.0), 0], &(3 | 511 << 2 | 0x201u32 << 12).to_le_bytes()),
            (34, [4, 5, 6, 7], &(3 | 5 << 2 | 6 << 12 | 7u32 << 22).to_le_bytes()),
            (35, [(-3i32) as u32, 5, 600, 0], &(2 | 5 << 2 | 511u32 << 12).to_le_bytes()),
            // 2_10_10_10_UNORM: X 1.0 -> 1023, Y 0.5 -> 512, Z 0, W 0.5 * 3 = 1.5 -> 2
            (36, [f(1.0), f(0.5), 0, f(0.5)], &(1023 | 512 << 10 | 2u32 << 30).to_le_bytes()),
            (37, [f(-1.0), f(1.0), 0, f(-1.0)], &(0x201 | 511 << 10 | 3u32 << 30).to_le_bytes()),
            (38, [f(7.0), f(8.0), f(9.0), f(5.0)], &(7 | 8 << 10 | 9 << 20 | 3u32 << 30).to_le_bytes()),
            (39, [f(-1.0), f(8.0), f(9.0), f(-2.0)],
                &(0x3ff | 8 << 10 | 9 << 20 | 2u32 << 30).to_le_bytes()),
            (40, [7, 8, 9, 4], &(7 | 8 << 10 | 9 << 20 | 3u32 << 30).to_le_bytes()),
            (41, [7, 8, (-1i32) as u32, (-3i32) as u32],
                &(7 | 8 << 10 | 0x3ff << 20 | 2u32 << 30).to_le_bytes()),
            (42, [0, f(1.0), f(0.5), NAN], &[0, 0xff, 0x80, 0]),
            (43, [f(-1.0), f(1.0), f(0.5), f(-0.5)], &[0x81, 0x7f, 0x40, 0xc0]),
            (44, [f(1.0), f(2.0), f(3.0), f(255.0)], &[1, 2, 3, 255]),
            (45, [f(1.0), f(2.0), f(3.0), f(-1.0)], &[1, 2, 3, 255]),
            (46, [1, 2, 3, 1000], &[1, 2, 3, 255]),
            (47, [1, 2, 3, (-1000i32) as u32], &[1, 2, 3, 0x80]),
            (48, [1, 0x8000_0002, 0, 0], &[1, 0, 0, 0, 2, 0, 0, 0x80, 0xee]),
            (49, [1, 0x8000_0002, 0, 0], &[1, 0, 0, 0, 2, 0, 0, 0x80]),
            (50, [f(1.0), 0xff80_0000, 0, 0], &[0, 0, 0x80, 0x3f, 0, 0, 0x80, 0xff]),
            (51, [f(1.0), 0, f(0.5), f(2.0)], &[0xff, 0xff, 0, 0, 0, 0x80, 0xff, 0xff]),
            (52, [f(1.0), f(-1.0), 0, f(-0.5)], &[0xff, 0x7f, 0x01, 0x80, 0, 0, 0x00, 0xc0]),
            (53, [f(1.0), f(2.0), f(3.0), f(1e9)], &[1, 0, 2, 0, 3, 0, 0xff, 0xff]),
            (54, [f(1.0), f(2.0), f(3.0), f(-1e9)], &[1, 0, 2, 0, 3, 0, 0x00, 0x80]),
            (55, [1, 2, 3, 0x1_0000], &[1, 0, 2, 0, 3, 0, 0xff, 0xff]),
            (56, [1, 2, 3, (-1i32) as u32], &[1, 0, 2, 0, 3, 0, 0xff, 0xff]),
            (57, [f(1.0), f(-1.0), INF, f(0.5)], &[0, 0x3c, 0, 0xbc, 0, 0x7c, 0, 0x38, 0xee]),
            (58, [1, 2, 3, 4], &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xee]),
            (59, [1, 2, 3, 4], &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]),
            (60, [f(1.0), INF, 0x8000_0000, 0], &[0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x7f, 0, 0, 0, 0x80]),
            (61, [1, 2, 3, 4], &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xee]),
            (62, [1, 2, 3, 4], &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]),
            (63, [f(1.0), 2, 3, NAN], &[0, 0, 0x80, 0x3f, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0xc0, 0x7f]),
        ];
        for (fmt, vals, want) in cases {
            assert_eq!(
                store_fmt(&mut t, *fmt, *vals, want.len()),
                *want,
                "format {fmt} vals {vals:x?}"
            );
        }
    });
}

#[test]
fn format_count_mismatch() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |k| 0xc000 + k);
        t.h.set_v(0, |_| 0);
        // load_format_x with 32_32_32_32: 16 bytes are fetched (range-checked as one element)
        // and X is returned.
        let mut v = VSharp::raw(t.base, 16);
        v.format = FMT_32_32_32_32_UINT;
        t.rsrc(v);
        t.run(LOAD_FORMAT_X).unwrap();
        assert_eq!(t.v(1, 0), 0xc000);
        v.num_records = 12; // the element ends at 16 > 12: all or nothing -> 0
        t.rsrc(v);
        t.run(LOAD_FORMAT_X).unwrap();
        assert_eq!(t.v(1, 0), 0);
        // load_format_xyzw with 32: one dword, YZW from dst_sel (format lacks them -> 0 here,
        // W = SEL_1 -> integer 1).
        let mut v = VSharp::raw(t.base, 64);
        v.format = FMT_32_UINT;
        v.dst_sel = [X, Y, Z, SEL_1];
        t.rsrc(v);
        t.run(LOAD_FORMAT_XYZW).unwrap();
        assert_eq!(
            [t.v(4, 0), t.v(5, 0), t.v(6, 0), t.v(7, 0)],
            [0xc000, 0, 0, 1]
        );
        // xy / xyz return the first components.
        let mut v = VSharp::raw(t.base, 64);
        v.format = FMT_32_32_32_32_UINT;
        t.rsrc(v);
        t.run(LOAD_FORMAT_XY).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0)], [0xc000, 0xc001]);
        t.run(LOAD_FORMAT_XYZ).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0), t.v(6, 0)], [0xc000, 0xc001, 0xc002]);

        // store_format_x with 32_32_32_32: four dwords per dst_sel: X from v1, Y = SEL_1,
        // Z = SEL_0, W = X again.
        t.fill_words(16, |_| 0xeeee_eeee);
        let mut v = VSharp::raw(t.base, 64);
        v.format = FMT_32_32_32_32_UINT;
        v.dst_sel = [X, SEL_1, SEL_0, X];
        t.rsrc(v);
        t.h.set_v(1, |_| 0x1234);
        t.h.wave.set_exec(1);
        t.run(STORE_FORMAT_X).unwrap();
        assert_eq!(
            [t.word(0), t.word(4), t.word(8), t.word(12)],
            [0x1234, 1, 0, 0x1234]
        );
        // With identity selects the components the instruction does not supply are 0.
        v.dst_sel = [X, Y, Z, W];
        t.rsrc(v);
        t.run(STORE_FORMAT_X).unwrap();
        assert_eq!(
            [t.word(0), t.word(4), t.word(8), t.word(12)],
            [0x1234, 0, 0, 0]
        );
        // store_format_xyzw with 32: X only, the next dword is untouched.
        t.fill_words(16, |_| 0xeeee_eeee);
        v.format = FMT_32_UINT;
        t.rsrc(v);
        for r in 4..8 {
            t.h.set_v(r, |_| r as u32);
        }
        t.run(STORE_FORMAT_XYZW).unwrap();
        assert_eq!([t.word(0), t.word(4)], [4, 0xeeee_eeee]);
    });
}

#[test]
fn dst_sel_swizzles_and_sel_1_survives_out_of_range() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.write(0, &[1, 2, 3, 4]);
        // 8_8_8_8_UINT with dst_sel (W, Z, SEL_1, SEL_0): [4, 3, 1, 0].
        let mut v = VSharp::raw(t.base, 4);
        v.format = FMT_8_8_8_8_UINT;
        v.dst_sel = [W, Z, SEL_1, SEL_0];
        t.rsrc(v);
        t.h.set_v(0, |l| if l == 0 { 0 } else { 4 });
        t.run(LOAD_FORMAT_XYZW).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0), t.v(6, 0), t.v(7, 0)], [4, 3, 1, 0]);
        // Lane 1 is out of range: zeros except SEL_1.
        assert_eq!([t.v(4, 1), t.v(5, 1), t.v(6, 1), t.v(7, 1)], [0, 0, 1, 0]);
        // UNORM: SEL_1 is 1.0, in and out of range.
        v.format = FMT_8_8_8_8_UNORM;
        t.rsrc(v);
        t.run(LOAD_FORMAT_XYZW).unwrap();
        // W = 4/255 = 0x3c808081, Z = 3/255 = 0x3c40c0c1
        assert_eq!(
            [t.v(4, 0), t.v(5, 0), t.v(6, 0), t.v(7, 0)],
            [0x3c80_8081, 0x3c40_c0c1, ONE, 0]
        );
        assert_eq!([t.v(4, 1), t.v(5, 1), t.v(6, 1), t.v(7, 1)], [0, 0, ONE, 0]);
        // Non-format loads ignore dst_sel (identity): SEL_1 does not apply out of range.
        t.run(LOAD_B32).unwrap();
        assert_eq!(t.v(1, 1), 0);
        // MTBUF uses the identity too, whatever the V# says: 8_8_8_8_UINT -> [1, 2, 3, 4].
        t.run(mtbuf(TLOAD_FORMAT_XYZW, FMT_8_8_8_8_UINT)).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0), t.v(6, 0), t.v(7, 0)], [1, 2, 3, 4]);
        assert_eq!([t.v(4, 1), t.v(5, 1), t.v(6, 1), t.v(7, 1)], [0, 0, 0, 0]);
    });
}

#[test]
fn mtbuf_takes_the_format_from_the_instruction() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.write(0, &[0x80, 0xff, 0, 0]);
        // The V# says 32_FLOAT; the instruction's 8_UNORM wins: 128/255.
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.set_v(0, |_| 0);
        t.run(mtbuf(TLOAD_FORMAT_X, FMT_8_UNORM)).unwrap();
        assert_eq!(t.v(1, 0), 0x3f00_8081);
        // Store 16_16_16_16_FLOAT: 1.0, 0.5, -2, inf -> f16 halves.
        let vals = [ONE, 0x3f00_0000, 0xc000_0000, INF];
        for (k, val) in vals.iter().enumerate() {
            t.h.set_v(4 + k, |_| *val);
        }
        t.h.wave.set_exec(1);
        t.run(mtbuf(TSTORE_FORMAT_XYZW, FMT_16_16_16_16_FLOAT))
            .unwrap();
        assert_eq!(t.bytes(0, 8), vec![0, 0x3c, 0, 0x38, 0, 0xc0, 0, 0x7c]);
    });
}

#[test]
fn invalid_format_and_null_resource() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |k| 0xd000 + k);
        t.h.set_v(0, |_| 0);
        // INVALID (0) format on a valid V#: format loads return 0, stores write nothing.
        let mut v = VSharp::raw(t.base, 64);
        v.format = 0;
        t.rsrc(v);
        t.poison(1);
        t.run(LOAD_FORMAT_X).unwrap();
        assert_eq!(t.v(1, 0), 0);
        t.h.set_v(1, |_| 7);
        t.run(STORE_FORMAT_X).unwrap();
        assert_eq!(t.word(0), 0xd000);
        // MTBUF format 0 and an undefined code (100) behave the same.
        t.run(mtbuf(TLOAD_FORMAT_X, 100)).unwrap();
        assert_eq!(t.v(1, 0), 0);
        // Null V# (all zero): loads return 0, stores and atomics do nothing (and touch no
        // memory: address 0 is not mapped, so any access would fault).
        t.h.wave.sgpr[4..8].copy_from_slice(&[0; 4]);
        t.poison(1);
        t.run(LOAD_B32).unwrap();
        assert_eq!(t.v(1, 0), 0);
        t.run(LOAD_FORMAT_XYZW).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0), t.v(6, 0), t.v(7, 0)], [0, 0, 0, 0]);
        t.run(STORE_B32).unwrap();
        t.run(STORE_FORMAT_XYZW).unwrap();
        t.poison(1);
        t.run(ATOMIC_ADD_RTN).unwrap();
        assert_eq!(t.v(1, 0), 0);
        // srsrc = NULL (field 31) is the null resource as well.
        t.rsrc(VSharp::raw(t.base, 64));
        t.poison(1);
        t.run(with_srsrc(LOAD_B32, 31)).unwrap();
        assert_eq!(t.v(1, 0), 0);
        // TTMPs read 0 outside the trap handler: ttmp[4:7] is a null V# too.
        t.h.wave.sgpr[112..116].copy_from_slice(&VSharp::raw(t.base, 64).words());
        t.poison(1);
        t.run(LOAD_B32_TTMP).unwrap();
        assert_eq!(t.v(1, 0), 0);
    });
}

#[test]
fn resource_type_mismatch_ignores_the_instruction() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |k| 0xe000 + k);
        // An otherwise valid V# with type 2 (an image descriptor type).
        let mut v = VSharp::raw(t.base, 64);
        v.rtype = 2;
        t.rsrc(v);
        t.h.set_v(0, |_| 0);
        t.poison(1);
        t.run(LOAD_B32).unwrap();
        assert_eq!(t.v(1, 0), 0xdead_0000, "a load writes nothing");
        t.h.set_v(1, |_| 0x77);
        t.run(STORE_B32).unwrap();
        assert_eq!(t.word(0), 0xe000, "a store changes no memory");
        t.run(ATOMIC_ADD_RTN).unwrap();
        assert_eq!((t.word(0), t.v(1, 0)), (0xe000, 0x77));
    });
}

// ---------------------------------------------------------------------------------------------
// D16 format ops.

#[test]
fn d16_format_loads() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.h.set_v(0, |_| 0);
        // 32_FLOAT -> f16 by truncation: 1 + 2^-11 + 2^-12 = 0x3f801800 truncates to 1.0
        // (0x3c00; nearest would be 0x3c01). The high half is kept.
        t.write(0, &0x3f80_1800u32.to_le_bytes());
        let mut v = VSharp::raw(t.base, 64);
        v.format = FMT_32_FLOAT;
        t.rsrc(v);
        t.h.set_v(1, |_| 0xabcd_0000);
        t.run(LOAD_D16_FORMAT_X).unwrap();
        assert_eq!(t.v(1, 0), 0xabcd_3c00);
        // MTBUF: the same truncation, and 65520 truncates to 65504 (0x7bff), not inf.
        t.write(0, &65520f32.to_bits().to_le_bytes());
        t.run(mtbuf(TLOAD_D16_FORMAT_X, FMT_32_FLOAT)).unwrap();
        assert_eq!(t.v(1, 0), 0xabcd_7bff);
        // 8_8_UNORM -> f16 rounded to nearest: 128/255 -> 0x3804, 255 -> 1.0, packed x | y << 16.
        t.write(0, &[0x80, 0xff]);
        v.format = FMT_8_8_UNORM;
        t.rsrc(v);
        t.run(LOAD_D16_FORMAT_XY).unwrap();
        assert_eq!(t.v(1, 0), 0x3c00_3804);
        // 16_16_16_16_SINT, xyz: v4 = x | y << 16 with x = -1 -> 0xffff, v5 low = z, high kept.
        t.write(0, &[0xff, 0xff, 2, 0, 3, 0, 4, 0]);
        v.format = FMT_16_16_16_16_SINT;
        t.rsrc(v);
        t.h.set_v(5, |_| 0x5555_0000);
        t.run(LOAD_D16_FORMAT_XYZ).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0)], [0x0002_ffff, 0x5555_0003]);
        t.run(LOAD_D16_FORMAT_XYZW).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0)], [0x0002_ffff, 0x0004_0003]);
        // 16_16_16_16_FLOAT passes the halves through.
        t.write(0, &[0x00, 0x3c, 0x01, 0x7e, 0x00, 0xfc, 0x01, 0x00]);
        v.format = FMT_16_16_16_16_FLOAT;
        t.rsrc(v);
        t.run(LOAD_D16_FORMAT_XYZW).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0)], [0x7e01_3c00, 0x0001_fc00]);
        // D16_HI: 8_UINT 0xfe into the high half, the low half kept.
        t.write(0, &[0xfe]);
        v.format = FMT_8_UINT;
        t.rsrc(v);
        t.h.set_v(1, |_| 0x1111_2222);
        t.run(LOAD_D16_HI_FORMAT_X).unwrap();
        assert_eq!(t.v(1, 0), 0x00fe_2222);
        // D16 SEL_1 is f16 1.0 (float formats) or 1 (integer): 8_UNORM with dst_sel
        // (SEL_1, X, ..) xy -> 0x3c00 | f16(128/255) << 16 ... with 0x80 in memory.
        t.write(0, &[0x80]);
        v.format = FMT_8_UNORM;
        v.dst_sel = [SEL_1, X, SEL_0, SEL_0];
        t.rsrc(v);
        t.run(LOAD_D16_FORMAT_XY).unwrap();
        assert_eq!(t.v(1, 0), 0x3804_3c00);
    });
}

#[test]
fn d16_format_stores() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.h.set_v(0, |_| 0);
        t.h.wave.set_exec(1);
        // 8_8_UNORM from f16 halves: x = 0.5 (0x3800) -> 127.5 -> 128, y = 1.0 -> 255.
        let mut v = VSharp::raw(t.base, 64);
        v.format = FMT_8_8_UNORM;
        t.rsrc(v);
        t.h.set_v(1, |_| 0x3c00_3800);
        t.run(STORE_D16_FORMAT_XY).unwrap();
        assert_eq!(t.bytes(0, 2), vec![0x80, 0xff]);
        // D16_HI into 16_SINT: the high half 0x8000 is -32768.
        v.format = FMT_16_SINT;
        t.rsrc(v);
        t.h.set_v(1, |_| 0x8000_1234);
        t.run(STORE_D16_HI_FORMAT_X).unwrap();
        assert_eq!(t.bytes(0, 2), vec![0x00, 0x80]);
        // 32_32_32_32_FLOAT from f16 widens exactly: 1.0, -inf, 2^-24 (denormal), NaN.
        v.format = FMT_32_32_32_32_FLOAT;
        t.rsrc(v);
        t.h.set_v(4, |_| 0xfc00_3c00);
        t.h.set_v(5, |_| 0x7e00_0001);
        t.run(STORE_D16_FORMAT_XYZW).unwrap();
        assert_eq!(
            [t.word(0), t.word(4), t.word(8), t.word(12)],
            [ONE, 0xff80_0000, 0x3380_0000, 0x7fc0_0000]
        );
        // MTBUF 16_16_UINT from two halves.
        t.h.set_v(1, |_| 0xbeef_1234);
        t.run(mtbuf(TSTORE_D16_FORMAT_XY, FMT_16_16_UINT)).unwrap();
        assert_eq!(t.word(0), 0xbeef_1234);
    });
}

// ---------------------------------------------------------------------------------------------
// Alignment modes (RDNA3 ISA guide, Buffer Instructions "Alignment"; ExecConfig.alignment_mode = SH_MEM_CONFIG).

fn memviol_lane(e: ExecError) -> (u32, u64) {
    match e {
        ExecError::MemViol { lane, addr, .. } => (lane, addr),
        other => panic!("expected MEMVIOL, got {other:?}"),
    }
}

#[test]
fn alignment_dword_forces_alignment() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |k| 0xf000 + k);
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.cfg.alignment_mode = 0;
        // b32 at 6: the two LSBs are ignored -> word at 4. u16 at 3 -> at 2 (high half of w0).
        t.h.set_v(0, |_| 6);
        t.run(LOAD_B32).unwrap();
        assert_eq!(t.v(1, 0), 0xf001);
        t.h.set_v(0, |_| 3);
        t.run(LOAD_U16).unwrap();
        assert_eq!(t.v(1, 0), 0x0000);
        // b64 at 6: each dword address loses its LSBs -> words at 4 and 8.
        t.h.set_v(0, |_| 6);
        t.run(LOAD_B64).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0)], [0xf001, 0xf002]);
        // A store at 6 writes the word at 4.
        t.h.set_v(1, |_| 0x1234_5678);
        t.h.wave.set_exec(1);
        t.run(STORE_B32).unwrap();
        assert_eq!(t.word(4), 0x1234_5678);
    });
}

#[test]
fn alignment_dword_strict_and_strict_raise_memviol() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |k| 0xf100 + k);
        t.rsrc(VSharp::raw(t.base, 64));
        // DWORD_STRICT: min(size, 4). Lane 1 misaligned (offset 6), lane 0 fine (offset 8).
        t.h.cfg.alignment_mode = 1;
        t.h.set_v(0, |l| if l == 1 { 6 } else { 8 });
        t.poison(1);
        let e = t.run(LOAD_B32).unwrap_err();
        assert_eq!(memviol_lane(e), (1, t.base + 6));
        // The instruction still ran: aligned lanes loaded, the misaligned one reads 0.
        assert_eq!([t.v(1, 0), t.v(1, 1), t.v(1, 2)], [0xf102, 0, 0xf102]);
        // u16 at 2 is fine for DWORD_STRICT; b64 at 4 is fine (min(8, 4) = 4).
        t.h.set_v(0, |_| 2);
        t.run(LOAD_U16).unwrap();
        t.h.set_v(0, |_| 4);
        t.run(LOAD_B64).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0)], [0xf101, 0xf102]);
        // A misaligned store is dropped (and reported).
        t.h.set_v(0, |_| 2);
        t.h.set_v(1, |_| 0x99);
        t.h.wave.set_exec(1);
        assert!(matches!(t.run(STORE_B32), Err(ExecError::MemViol { .. })));
        assert_eq!(t.bytes(0, 8), [0x00, 0xf1, 0, 0, 0x01, 0xf1, 0, 0]);
        // STRICT: the access size. b64 at 4 -> MEMVIOL; at 8 fine.
        t.h.cfg.alignment_mode = 2;
        t.h.wave.set_exec(u64::MAX);
        t.h.set_v(0, |_| 4);
        assert_eq!(memviol_lane(t.run(LOAD_B64).unwrap_err()).1, t.base + 4);
        t.h.set_v(0, |_| 8);
        t.run(LOAD_B64).unwrap();
        assert_eq!([t.v(4, 3), t.v(5, 3)], [0xf102, 0xf103]);
        // b96 needs 16 under STRICT (12 rounded up to a power of two): 16 is fine, 8 is not;
        // b16 at 2 is aligned to its size.
        t.h.set_v(0, |_| 16);
        t.run(LOAD_B96).unwrap();
        t.h.set_v(0, |_| 8);
        assert!(t.run(LOAD_B96).is_err());
        t.h.mem.write_u32(t.base, 0xabcd_f100).unwrap();
        t.h.set_v(0, |_| 2);
        t.run(LOAD_U16).unwrap();
        assert_eq!(t.v(1, 0), 0xabcd);
    });
}

#[test]
fn alignment_unaligned_and_format_and_atomic_rules() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        let b: Vec<u8> = (0..64).collect();
        t.write(0, &b);
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.cfg.alignment_mode = 3;
        // UNALIGNED: b32 at 6 reads bytes 6..9.
        t.h.set_v(0, |_| 6);
        t.run(LOAD_B32).unwrap();
        assert_eq!(t.v(1, 0), u32::from_le_bytes([6, 7, 8, 9]));
        // Format ops need min(element, 4) in every mode: 8_8_8_8 at 2 faults, at 4 is fine;
        // 8_8 (2 bytes) at 2 is fine, at 1 faults.
        let mut v = VSharp::raw(t.base, 64);
        v.format = FMT_8_8_8_8_UINT;
        t.rsrc(v);
        t.h.set_v(0, |_| 2);
        t.poison(4);
        let e = t.run(LOAD_FORMAT_XYZW).unwrap_err();
        assert_eq!(memviol_lane(e), (0, t.base + 2));
        assert_eq!(t.v(4, 0), 0, "a misaligned format load returns 0");
        t.h.set_v(0, |_| 4);
        t.run(LOAD_FORMAT_XYZW).unwrap();
        assert_eq!([t.v(4, 0), t.v(5, 0), t.v(6, 0), t.v(7, 0)], [4, 5, 6, 7]);
        v.format = FMT_8_8_UNORM;
        t.rsrc(v);
        t.h.set_v(0, |_| 2);
        t.run(LOAD_FORMAT_XY).unwrap();
        t.h.set_v(0, |_| 1);
        assert!(t.run(LOAD_FORMAT_XY).is_err());
        // Atomics must be aligned to their size even in UNALIGNED mode; memory is unchanged.
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.set_v(0, |_| 2);
        t.h.set_v(1, |_| 1);
        t.h.wave.set_exec(1);
        assert!(matches!(
            t.run(ATOMIC_ADD_RTN),
            Err(ExecError::MemViol { lane: 0, .. })
        ));
        assert_eq!(t.bytes(0, 8), (0..8).collect::<Vec<u8>>());
    });
}

// ---------------------------------------------------------------------------------------------
// Destinations, TFE, faults.

#[test]
fn out_of_range_destination_nullifies() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        // A wave with 8 VGPRs (v0..v7), so v8 is out of range (RDNA3 ISA guide, Wave State).
        t.h.wave = wavesim_rdna3::wave::Wave::new(w64, 8);
        t.h.wave.set_exec(u64::MAX);
        t.fill_words(16, |k| 0x100 + k);
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.set_v(0, |_| 0);
        t.h.set_v(7, |_| 0x5a5a);
        // buffer_load_b64 v[7:8]: v8 does not exist -> nothing is written.
        t.run(with_vdata(LOAD_B64, 7)).unwrap();
        assert_eq!(t.v(7, 0), 0x5a5a);
        // b32 with TFE into v7: the status VGPR v8 is out of range -> nullified.
        t.run(with_vdata(LOAD_B32_TFE, 7)).unwrap();
        assert_eq!(t.v(7, 0), 0x5a5a);
        // The same with an unmapped address: nullified before any access, so no fault.
        let mut v = VSharp::raw(0x40, 64);
        v.oob = 2;
        t.rsrc(v);
        t.run(with_vdata(LOAD_B64, 7)).unwrap();
        // A returning 64-bit atomic into v[7:8] is nullified: memory unchanged.
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.wave.set_exec(1);
        t.h.set_v(7, |_| 1);
        t.run(with_vdata(ATOMIC_ADD_U64_RTN, 7)).unwrap();
        assert_eq!((t.word(0), t.word(4)), (0x100, 0x101));
        // Without GLC the atomic returns nothing, so it runs; its out-of-range data VGPR v8
        // reads v0 (= 0): 0x101_00000100 + 0x0_00000001.
        t.run(with_vdata(ATOMIC_ADD_U64_RTN.map(|w| w & !(1 << 14)), 7))
            .unwrap();
        assert_eq!((t.word(0), t.word(4)), (0x101, 0x101));
        // b32 into v7 is in range.
        t.run(with_vdata(LOAD_B32, 7)).unwrap();
        assert_eq!(t.v(7, 0), 0x101);
    });
}

#[test]
fn tfe_writes_zero_status() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |k| 0x200 + k);
        t.rsrc(VSharp::raw(t.base, 8));
        t.h.set_v(0, |l| 4 * (l as u32 % 4));
        t.h.set_v(2, |_| 0xffff_ffff);
        t.h.wave.set_exec(EXEC_MIX);
        t.run(LOAD_B32_TFE).unwrap();
        for l in 0..t.lanes() {
            if t.active(l) {
                let want = if l % 4 < 2 { 0x200 + l as u32 % 4 } else { 0 };
                assert_eq!((t.v(1, l), t.v(2, l)), (want, 0), "lane {l}");
            } else {
                assert_eq!(t.v(2, l), 0xffff_ffff, "lane {l}");
            }
        }
    });
}

#[test]
fn unmapped_address_in_range_is_a_memory_fault() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        // OOB_SELECT 2 with a large num_records: the check passes, the address does not exist.
        let mut v = VSharp::raw(t.base, 0x10_0000);
        v.oob = 2;
        t.rsrc(v);
        t.h.set_v(0, |l| if l == 3 { 0x8000 } else { 0 });
        match t.run(LOAD_B32) {
            Err(ExecError::MemoryFault { lane, addr, .. }) => {
                assert_eq!((lane, addr), (3, t.base + 0x8000))
            }
            other => panic!("expected a memory fault, got {other:?}"),
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Atomics.

#[test]
fn atomic_add_returns_pre_op_values_in_lane_order() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.fill_words(16, |_| 1000);
        t.rsrc(VSharp::raw(t.base, 8));
        // All lanes on word 0, data l + 1. Lane l sees 1000 + sum_{k < l, active} (k + 1).
        t.h.set_v(0, |_| 0);
        t.h.set_v(1, |l| l as u32 + 1);
        t.h.wave.set_exec(EXEC_MIX);
        t.run(ATOMIC_ADD_RTN).unwrap();
        let mut acc = 1000;
        for l in 0..t.lanes() {
            if t.active(l) {
                assert_eq!(t.v(1, l), acc, "lane {l}");
                acc += l as u32 + 1;
            } else {
                assert_eq!(t.v(1, l), l as u32 + 1, "inactive lane {l} keeps its data");
            }
        }
        assert_eq!(t.word(0), acc);
        // Without GLC nothing is returned; out-of-range lanes (offset 8 >= 8) do nothing.
        t.h.set_v(0, |l| if l % 2 == 0 { 4 } else { 8 });
        t.h.set_v(1, |_| 1);
        t.h.wave.set_exec(u64::MAX);
        t.run(ATOMIC_ADD).unwrap();
        assert_eq!((t.word(4), t.word(8)), (1000 + t.lanes() as u32 / 2, 1000));
        assert_eq!(t.v(1, 0), 1);
        // A returning out-of-range lane gets 0.
        t.run(ATOMIC_ADD_RTN).unwrap();
        assert_eq!(t.v(1, 1), 0);
        assert_eq!(t.v(1, 0), 1000 + t.lanes() as u32 / 2);
    });
}

#[test]
fn atomic_cmpswap_and_others() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.set_v(0, |_| 0);
        t.h.wave.set_exec(1);
        // cmpswap_b32: v4 = new value, v5 = compare value.
        t.fill_words(16, |_| 5);
        t.h.set_v(4, |_| 9);
        t.h.set_v(5, |_| 4);
        t.run(ATOMIC_CMPSWAP_RTN).unwrap();
        assert_eq!((t.v(4, 0), t.word(0)), (5, 5), "5 != 4: no swap, returns 5");
        t.h.set_v(4, |_| 9);
        t.h.set_v(5, |_| 5);
        t.run(ATOMIC_CMPSWAP_RTN).unwrap();
        assert_eq!((t.v(4, 0), t.word(0)), (5, 9));
        // cmpswap_b64: v[4:5] new, v[6:7] compare.
        t.h.mem.write_u64(t.base + 8, 0x1_0000_0002).unwrap();
        t.h.set_v(0, |_| 8);
        t.h.set_v(4, |_| 0x33);
        t.h.set_v(5, |_| 0x44);
        t.h.set_v(6, |_| 2);
        t.h.set_v(7, |_| 1);
        t.run(ATOMIC_CMPSWAP_B64_RTN).unwrap();
        assert_eq!((t.v(4, 0), t.v(5, 0)), (2, 1));
        assert_eq!(t.h.mem.read_u64(t.base + 8).unwrap(), 0x44_0000_0033);
        // add_u64 carries across the halves; min_u64.
        t.h.mem.write_u64(t.base + 16, 0xffff_ffff).unwrap();
        t.h.set_v(0, |_| 16);
        t.h.set_v(4, |_| 1);
        t.h.set_v(5, |_| 0);
        t.run(ATOMIC_ADD_U64_RTN).unwrap();
        assert_eq!(t.h.mem.read_u64(t.base + 16).unwrap(), 0x1_0000_0000);
        t.h.set_v(4, |_| 7);
        t.run(ATOMIC_MIN_U64_RTN).unwrap();
        assert_eq!((t.v(4, 0), t.v(5, 0)), (0, 1));
        assert_eq!(t.h.mem.read_u64(t.base + 16).unwrap(), 7);
        // add_f32: 1.5 + 2.25 = 3.75.
        t.h.mem.write_u32(t.base + 24, 1.5f32.to_bits()).unwrap();
        t.h.set_v(0, |_| 24);
        t.h.set_v(1, |_| 2.25f32.to_bits());
        t.run(ATOMIC_ADD_F32_RTN).unwrap();
        assert_eq!(t.v(1, 0), 1.5f32.to_bits());
        assert_eq!(t.word(24), 3.75f32.to_bits());
        // max_i32 (signed), csub (clamps at 0), inc (wraps to 0 at the limit).
        t.h.mem.write_u32(t.base + 28, (-5i32) as u32).unwrap();
        t.h.set_v(0, |_| 28);
        t.h.set_v(1, |_| 3);
        t.run(ATOMIC_MAX_I32_RTN).unwrap();
        assert_eq!(t.word(28), 3);
        t.h.set_v(1, |_| 10);
        t.run(ATOMIC_CSUB_RTN).unwrap();
        assert_eq!((t.v(1, 0), t.word(28)), (3, 0));
        // inc with limit 5: 0 -> 1; at the limit it wraps: 5 -> 0.
        t.h.set_v(1, |_| 5);
        t.run(ATOMIC_INC_RTN).unwrap();
        assert_eq!(t.word(28), 1);
        t.h.mem.write_u32(t.base + 28, 5).unwrap();
        t.run(ATOMIC_INC_RTN).unwrap();
        assert_eq!((t.v(1, 0), t.word(28)), (5, 0));
    });
}

// ---------------------------------------------------------------------------------------------
// Cache invalidation, unsupported forms.

#[test]
fn cache_invalidations_run_with_exec_zero() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.h.wave.set_exec(0);
        t.run(GL0_INV).unwrap();
        t.run(GL1_INV).unwrap();
    });
}

#[test]
fn buffer_load_lds_is_a_typed_error() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.rsrc(VSharp::raw(t.base, 64));
        match t.run(LOAD_LDS_B32) {
            Err(ExecError::Other(m)) => assert!(m.contains("buffer_load_lds_b32"), "{m}"),
            other => panic!("expected a typed error, got {other:?}"),
        }
    });
}

// ---------------------------------------------------------------------------------------------
// Faults are all or nothing; misalignment is per lane (RDNA3 ISA guide, Buffer Instructions "Alignment").

/// The highest active lane of `exec` (the last one performed in lane order, so every other active
/// lane would already have been performed by an instruction that faults lane by lane).
fn last_active(exec: u64) -> usize {
    63 - exec.leading_zeros() as usize
}

/// A V# whose range check passes everywhere (OOB_SELECT 2, num_records != 0) over a buffer at
/// `base`, so an offset past the allocation is an in-range access to unmapped memory.
fn unchecked(base: u64, format: u32) -> VSharp {
    let mut v = VSharp::raw(base, 0x10_0000);
    v.oob = 2;
    v.format = format;
    v
}

/// Far past the test buffer: in range for `unchecked`, in no allocation.
const UNMAPPED: u32 = 0x8000;

/// Data VGPRs v1 and v4..v7 hold recognisable values (every byte and half that a store of a lane
/// writes is nonzero).
fn fill_data(t: &mut T) {
    t.h.set_v(1, |l| 0x1180 + l as u32);
    for r in 4..8 {
        t.h.set_v(r, |l| (r as u32) << 12 | l as u32);
    }
}

fn data_unchanged(t: &T) -> bool {
    (0..64).all(|l| {
        t.v(1, l) == 0x1180 + l as u32 && (4..8).all(|r| t.v(r, l) == (r as u32) << 12 | l as u32)
    })
}

/// (name, word, bytes per lane, V# format) of every kind of buffer store and atomic.
const WRITERS: [(&str, [u32; 2], u32, u32); 9] = [
    ("store_b8", STORE_B8, 4, FMT_32_FLOAT),
    ("store_b32", STORE_B32, 4, FMT_32_FLOAT),
    ("store_b64", STORE_B64, 8, FMT_32_FLOAT),
    ("store_b128", STORE_B128, 16, FMT_32_FLOAT),
    (
        "store_format_xyzw",
        STORE_FORMAT_XYZW,
        16,
        FMT_32_32_32_32_UINT,
    ),
    (
        "store_d16_format_xyzw",
        STORE_D16_FORMAT_XYZW,
        8,
        FMT_16_16_16_16_SINT,
    ),
    ("atomic_add_u32 glc", ATOMIC_ADD_RTN, 4, FMT_32_FLOAT),
    ("atomic_add_u32", ATOMIC_ADD, 4, FMT_32_FLOAT),
    ("atomic_add_u64 glc", ATOMIC_ADD_U64_RTN, 8, FMT_32_FLOAT),
];

#[test]
fn a_fault_in_any_lane_changes_no_memory_and_no_vgpr() {
    both(|w64| {
        for exec in [u64::MAX, EXEC_MIX] {
            for (name, word, stride, fmt) in WRITERS {
                let mut t = T::new(w64, 1024);
                t.rsrc(unchecked(t.base, fmt));
                t.h.wave.set_exec(exec);
                let fl = last_active(t.exec());
                // Every lane has its own slot; the last active lane's address is unmapped.
                t.h.set_v(0, |l| if l == fl { UNMAPPED } else { stride * l as u32 });
                fill_data(&mut t);
                match t.run(word) {
                    Err(ExecError::MemoryFault { lane, addr, .. }) => {
                        assert_eq!(
                            (lane as usize, addr),
                            (fl, t.base + UNMAPPED as u64),
                            "{name} wave64={w64}"
                        )
                    }
                    other => panic!("{name} wave64={w64}: expected a fault, got {other:?}"),
                }
                assert!(
                    t.bytes(0, 1024).iter().all(|&b| b == 0),
                    "{name} wave64={w64} exec={exec:#x}: no lane may have written memory"
                );
                assert!(data_unchanged(&t), "{name} wave64={w64}: no VGPR written");
            }
        }
    });
}

#[test]
fn a_fault_in_an_inactive_lane_is_no_fault() {
    both(|w64| {
        for (name, word, stride, fmt) in WRITERS {
            let mut t = T::new(w64, 1024);
            t.rsrc(unchecked(t.base, fmt));
            t.h.wave.set_exec(EXEC_MIX);
            // Lane 1 is off in EXEC_MIX (0x...0ff1); only it has the unmapped address.
            assert!(!t.active(1));
            t.h.set_v(0, |l| if l == 1 { UNMAPPED } else { stride * l as u32 });
            fill_data(&mut t);
            t.run(word)
                .unwrap_or_else(|e| panic!("{name} wave64={w64}: {e}"));
            // Every active lane wrote its (nonzero) data into its slot.
            for l in 0..t.lanes() {
                let slot = t.bytes(stride as u64 * l as u64, stride as usize);
                let written = slot.iter().any(|&b| b != 0);
                assert_eq!(written, t.active(l), "{name} wave64={w64} lane {l}");
            }
        }
    });
}

#[test]
fn misaligned_lanes_are_dropped_one_by_one_while_the_others_store() {
    both(|w64| {
        let mut t = T::new(w64, 512);
        t.rsrc(VSharp::raw(t.base, 512));
        t.h.cfg.alignment_mode = 1; // DWORD_STRICT
        t.h.wave.set_exec(EXEC_MIX);
        // Lane 4 (active) stores to 4 * 4 + 2: misaligned. The others to 4l.
        assert!(t.active(4));
        t.h.set_v(0, |l| 4 * l as u32 + if l == 4 { 2 } else { 0 });
        t.h.set_v(1, |l| 0x5500 + l as u32);
        let e = t.run(STORE_B32).unwrap_err();
        assert_eq!(memviol_lane(e), (4, t.base + 18));
        for l in 0..t.lanes() {
            let want = if t.active(l) && l != 4 {
                0x5500 + l as u32
            } else {
                0
            };
            assert_eq!(t.word(4 * l as u64), want, "lane {l}");
        }
        // A misaligned atomic (any mode): that lane does nothing and returns 0, the others run.
        t.h.cfg.alignment_mode = 3;
        t.h.set_v(1, |_| 1);
        let e = t.run(ATOMIC_ADD_RTN).unwrap_err();
        assert_eq!(memviol_lane(e), (4, t.base + 18));
        for l in 0..t.lanes() {
            if !t.active(l) {
                assert_eq!(t.v(1, l), 1, "inactive lane {l} keeps its data");
            } else if l == 4 {
                assert_eq!(t.v(1, l), 0, "the misaligned lane returns 0");
                assert_eq!(t.word(16), 0, "and adds nothing");
            } else {
                assert_eq!(t.v(1, l), 0x5500 + l as u32, "lane {l} pre-op value");
                assert_eq!(t.word(4 * l as u64), 0x5501 + l as u32, "lane {l}");
            }
        }
    });
}

#[test]
fn a_fault_beats_a_misaligned_lane_and_nothing_is_stored() {
    both(|w64| {
        let mut t = T::new(w64, 512);
        t.rsrc(unchecked(t.base, FMT_32_FLOAT));
        t.h.cfg.alignment_mode = 1; // DWORD_STRICT
        let fl = t.lanes() - 1;
        // Lane 0 is misaligned, the last lane faults, the rest are fine.
        t.h.set_v(0, |l| match l {
            0 => 2,
            _ if l == fl => UNMAPPED,
            _ => 4 * l as u32,
        });
        t.h.set_v(1, |l| 0x7700 + l as u32);
        for word in [STORE_B32, ATOMIC_ADD] {
            match t.run(word) {
                Err(ExecError::MemoryFault { lane, .. }) => assert_eq!(lane as usize, fl),
                other => panic!("expected a fault, got {other:?}"),
            }
            assert!(t.bytes(0, 512).iter().all(|&b| b == 0));
        }
    });
}

// ---------------------------------------------------------------------------------------------
// s_waitcnt counters (RDNA3 ISA "Data dependency resolution"; LLVM SIInsertWaitcnts for gfx11).

#[test]
fn loads_and_returning_atomics_count_in_vm_stores_and_other_atomics_in_vs() {
    both(|w64| {
        // (word, VM_CNT, VS_CNT) after running it once from zero.
        let cases: [([u32; 2], u8, u8); 12] = [
            (LOAD_B32, 1, 0),
            (LOAD_B128, 1, 0),
            (LOAD_D16_HI_B16, 1, 0),
            (LOAD_FORMAT_XYZW, 1, 0),
            (mtbuf(TLOAD_FORMAT_X, FMT_32_UINT), 1, 0),
            (STORE_B8, 0, 1),
            (STORE_FORMAT_XYZW, 0, 1),
            (mtbuf(TSTORE_FORMAT_XYZW, FMT_32_32_32_32_UINT), 0, 1),
            (ATOMIC_ADD_RTN, 1, 0),
            (ATOMIC_ADD, 0, 1),
            (ATOMIC_CMPSWAP_B64_RTN, 1, 0),
            // Cache invalidations are not waited for (LLVM counts them in no counter).
            (GL0_INV, 0, 0),
        ];
        for (k, (word, vm, vs)) in cases.into_iter().enumerate() {
            for exec in [u64::MAX, EXEC_MIX, 0] {
                let mut t = T::new(w64, 256);
                t.rsrc(VSharp::raw(t.base, 256));
                // 8-byte aligned (the 64-bit atomic needs it).
                t.h.set_v(0, |l| 8 * l as u32 % 256);
                t.h.wave.set_exec(exec);
                t.h.wave.cnt = Default::default();
                t.run(word).unwrap();
                let c = t.h.wave.cnt;
                assert_eq!(
                    (c.vm, c.vs, c.lgkm, c.exp),
                    (vm, vs, 0, 0),
                    "case {k} exec {exec:#x}"
                );
            }
        }
    });
}

#[test]
fn nullified_and_ignored_buffer_instructions_still_count() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.h.wave = wavesim_rdna3::wave::Wave::new(w64, 8);
        t.h.wave.set_exec(u64::MAX);
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.set_v(0, |_| 0);
        // buffer_load_b64 v[7:8] with 8 VGPRs: nullified (RDNA3 ISA guide, Wave State), but it issued.
        t.run(with_vdata(LOAD_B64, 7)).unwrap();
        assert_eq!((t.h.wave.cnt.vm, t.h.wave.cnt.vs), (1, 0));
        // A V# of the wrong type: ignored, issued.
        let mut v = VSharp::raw(t.base, 64);
        v.rtype = 1;
        t.rsrc(v);
        t.run(STORE_B32).unwrap();
        assert_eq!((t.h.wave.cnt.vm, t.h.wave.cnt.vs), (1, 1));
        // A faulting store issued too (the fault ends it without effect).
        t.rsrc(unchecked(t.base, FMT_32_FLOAT));
        t.h.set_v(0, |_| UNMAPPED);
        assert!(t.run(STORE_B32).is_err());
        assert_eq!((t.h.wave.cnt.vm, t.h.wave.cnt.vs), (1, 2));
    });
}

#[test]
fn wait_counters_saturate_at_the_field_maximum() {
    both(|w64| {
        let mut t = T::new(w64, 256);
        t.rsrc(VSharp::raw(t.base, 256));
        t.h.set_v(0, |_| 0);
        t.h.wave.cnt = Default::default();
        // 70 loads and 70 stores: both counters stop at 63 (6-bit vmcnt / vscnt fields).
        let prog: Vec<u32> = (0..70)
            .flat_map(|_| LOAD_B32.into_iter().chain(STORE_B32))
            .collect();
        t.h.run(&prog).unwrap();
        assert_eq!((t.h.wave.cnt.vm, t.h.wave.cnt.vs), (63, 63));
        // s_waitcnt vmcnt(0) (0xbf8903f7) and s_waitcnt_vscnt null, 0 (0xbc7c0000) clear them.
        t.h.run(&[0xbf8903f7, 0xbc7c0000]).unwrap();
        assert_eq!((t.h.wave.cnt.vm, t.h.wave.cnt.vs), (0, 0));
    });
}

// ---------------------------------------------------------------------------------------------
// Memory violations with a trap handler installed (RDNA3 ISA guide, Wave State "MODE.EXCP_EN": MEMVIOL cannot be
// masked; the step loop sets TRAPSTS.MEM_VIOL and enters the handler).

const TRAP_EN: u32 = 1 << 6;
const PRIV: u32 = 1 << 5;
const TRAPSTS_MEMVIOL: u32 = 1 << 8;

/// `bad` at 0, `v_mov_b32 v9, 7` at 8, s_endpgm at 12; the handler at TBA = 16 saves TRAPSTS
/// and TTMP0/1 in s10, s20, s21 and returns with s_rfe_b64.
fn trap_program(bad: [u32; 2]) -> Vec<u32> {
    vec![
        bad[0], bad[1], 0x7e120287, // v_mov_b32_e32 v9, 7
        0xbfb00000, // s_endpgm
        0xb88af803, // s_getreg_b32 s10, hwreg(HW_REG_TRAPSTS)
        0xbe94006c, // s_mov_b32 s20, ttmp0
        0xbe95006d, // s_mov_b32 s21, ttmp1
        0xbe804a6c, // s_rfe_b64 ttmp[0:1]
    ]
}

/// Runs `bad` with the handler installed and checks the trap was taken and returned from.
fn run_trapping(t: &mut T, bad: [u32; 2]) {
    t.h.wave.tba = 16;
    t.h.wave.hw.status |= TRAP_EN;
    t.h.wave.hw.trapsts = 0;
    t.h.set_v(9, |_| 0);
    t.h.run(&trap_program(bad)).unwrap();
    assert_ne!(t.h.s(10) & TRAPSTS_MEMVIOL, 0, "TRAPSTS.MEM_VIOL");
    // The handler saw TTMP0/1 = the PC after the buffer instruction (8), trapID 0, HT 0.
    assert_eq!((t.h.s(20), t.h.s(21)), (8, 0));
    assert_eq!(t.h.wave.hw.status & PRIV, 0, "s_rfe left the handler");
    // The program went on after the buffer instruction.
    for l in 0..t.lanes() {
        assert_eq!(t.v(9, l), if t.active(l) { 7 } else { 0 }, "lane {l}");
    }
}

#[test]
fn buffer_faults_and_memviols_enter_the_trap_handler() {
    both(|w64| {
        for exec in [u64::MAX, EXEC_MIX] {
            // A faulting store: the handler runs, memory is untouched.
            let mut t = T::new(w64, 256);
            t.rsrc(unchecked(t.base, FMT_32_FLOAT));
            t.h.wave.set_exec(exec);
            let fl = last_active(t.exec());
            t.h.set_v(0, |l| if l == fl { UNMAPPED } else { 4 * l as u32 });
            t.h.set_v(1, |_| 0xabcd);
            run_trapping(&mut t, STORE_B32);
            assert!(t.bytes(0, 256).iter().all(|&b| b == 0));
            // A faulting returning atomic: no VGPR written either.
            run_trapping(&mut t, ATOMIC_ADD_RTN);
            assert!(t.bytes(0, 256).iter().all(|&b| b == 0));
            assert!((0..64).all(|l| t.v(1, l) == 0xabcd));
            // A misaligned load under DWORD_STRICT: that lane reads 0, the others loaded.
            t.fill_words(64, |k| 0x300 + k);
            t.rsrc(VSharp::raw(t.base, 256));
            t.h.cfg.alignment_mode = 1;
            t.h.set_v(0, |l| 4 * l as u32 + if l == fl { 1 } else { 0 });
            t.poison(1);
            run_trapping(&mut t, LOAD_B32);
            for l in 0..t.lanes() {
                let want = match l {
                    _ if !t.active(l) => 0xdead_0000 | l as u32,
                    _ if l == fl => 0,
                    _ => 0x300 + l as u32,
                };
                assert_eq!(t.v(1, l), want, "lane {l}");
            }
            // A misaligned atomic (MEMVIOL in every mode), UNALIGNED mode: the others add.
            t.h.cfg.alignment_mode = 3;
            t.h.set_v(1, |_| 1);
            run_trapping(&mut t, ATOMIC_ADD);
            for l in 0..t.lanes() {
                let add = (t.active(l) && l != fl) as u32;
                assert_eq!(t.word(4 * l as u64), 0x300 + l as u32 + add, "lane {l}");
            }
        }
    });
}

#[test]
fn buffer_memviol_inside_the_handler_or_without_one_ends_the_wave() {
    both(|w64| {
        let mut t = T::new(w64, 64);
        t.rsrc(VSharp::raw(t.base, 64));
        t.h.set_v(0, |_| 2);
        t.h.wave.tba = 16;
        // No handler: the MEMVIOL is the error and TRAPSTS is untouched.
        assert!(matches!(
            t.h.run(&trap_program(ATOMIC_ADD)),
            Err(ExecError::MemViol { lane: 0, .. })
        ));
        assert_eq!(t.h.wave.hw.trapsts, 0);
        // In the handler (PRIV) a memory violation cannot trap again.
        t.h.wave.hw.status |= TRAP_EN | PRIV;
        assert!(matches!(
            t.h.run(&trap_program(ATOMIC_ADD)),
            Err(ExecError::MemViol { .. })
        ));
    });
}
