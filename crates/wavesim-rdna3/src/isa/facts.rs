//! Per-instruction facts: the table's facts column (`"fm=0b11 clamp omod dpp"`), parsed at
//! compile time. tools/table/facts.py writes the column and documents each token and the rule
//! (with its source) behind it; decoding, disassembly and execution read the facts from here
//! instead of keeping hand lists or parsing mnemonics.

use wavesim_core::memory::AtomicOp;

/// The VOP3 (e64) modifier capabilities of a VALU instruction.
///
/// `fmods` (bit i): src i takes `neg`/`abs` (float input modifiers). `imods` (bit i): src i takes
/// the integer modifier `sext` (the neg bit; abs is ignored). `ign_mods`: neg/abs bits are
/// accepted and ignored (16-bit integer ops whose modifier operands only carry op_sel).
/// `op_sel`: which op_sel bits (0-2 sources, 3 destination) exist; other op_sel bits are ignored.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Vop3Mods {
    pub fmods: u8,
    pub imods: u8,
    pub ign_mods: bool,
    pub clamp: bool,
    pub omod: bool,
    pub op_sel: u8,
}

/// Where v_fmamk/v_fmaak take their K literal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fmak {
    /// Not an FMAMK/FMAAK form.
    None,
    /// v_fmamk: `D = S0 * K + S1`, K in the middle.
    Mk,
    /// v_fmaak: `D = S0 * S1 + K`, K at the end.
    Ak,
}

/// The register class a source admits, when it is narrower than "any register or constant"
/// (LLVM's operand classes; the disassembler prints other operands with an "Invalid" remark).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RegClass {
    Any,
    /// VGPR_32.
    Vgpr,
    /// SReg_32 (or an SGPR-only SALU source).
    SReg,
    /// SRegOrLds_32.
    SRegOrLds,
    /// VRegOrLds_32.
    VRegOrLds,
}

/// What a memory instruction does with memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MemKind {
    /// Not a memory access (or one with no fact in the table, e.g. buffer format loads).
    None,
    Load,
    Store,
    /// FLAT/GLOBAL/SCRATCH, MUBUF, MIMG atomics: the old value is returned only with GLC.
    Atomic,
    /// DS atomic `_rtn_` forms: always return the old value.
    AtomicRtn,
    /// DS atomics without return.
    AtomicNoRtn,
    /// DS two-address load, store and store-exchange (`*_2addr_*`).
    Load2,
    Store2,
    Xchg2,
    /// SMEM and MUBUF cache invalidations, SMEM translation probes.
    Cache,
    /// DS instructions on GDS/GWS hardware (global wave sync, ordered count, GS registers).
    Gds,
    /// ds_bvh_stack_rtn_b32: the ray-tracing traversal stack in LDS.
    BvhStack,
}

/// Which half of a VGPR a 16-bit (D16) load writes or store reads; the other half is kept.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum D16 {
    None,
    Lo,
    Hi,
}

/// What an image opcode is, as far as operand widths go (RDNA3 ISA "MIMG"; the variant sets
/// follow LLVM 19's MIMG instruction definitions, which the disassembler has to reproduce).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MimgKind {
    /// image_load*, image_get_resinfo: no sampler.
    Load,
    /// image_store*.
    Store,
    /// image_atomic_* except cmpswap.
    Atomic,
    /// image_atomic_cmpswap: data and compare value.
    AtomicCmpswap,
    /// image_msaa_load: returns four channels like gather4.
    MsaaLoad,
    /// image_sample*, image_get_lod.
    Sample,
    /// image_gather4*: always four channels.
    Gather,
    /// image_bvh_intersect_ray / image_bvh64_intersect_ray.
    Bvh { is64: bool },
}

/// Image facts (LLVM's `MIMGBaseOpcode` fields): extra arguments (offset, bias, z-compare),
/// gradients (16-bit with the `_g16` forms), a lod/clamp/mip argument, coordinates, a d16 form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimgFacts {
    pub kind: MimgKind,
    pub extra: u32,
    pub gradients: bool,
    pub g16: bool,
    pub lod: bool,
    pub coords: bool,
    pub has_d16: bool,
}

/// The facts column of one table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub vop3: Vop3Mods,
    /// The VALU instruction has DPP16 and DPP8 forms.
    pub dpp: bool,
    /// Float (`neg`/`abs`) and integer (`sext`) source modifiers of the e32 DPP form.
    pub dpp_fmods: u8,
    pub dpp_imods: u8,
    pub fmak: Fmak,
    /// v_fma_mix*: VOP3P encoding with VOP3-style modifiers.
    pub fma_mix: bool,
    pub wmma: bool,
    /// A WMMA with op_sel/op_sel_hi (16-bit accumulators).
    pub wmma_op_sel: bool,
    /// v_cmp(x)_class_*.
    pub class: bool,
    pub mem: MemKind,
    /// Bytes per lane and address (per element for the DS two-address forms).
    pub bytes: u8,
    /// Sign-extending load.
    pub sext: bool,
    /// MUBUF/MTBUF format conversions: the number of format components (0: not a format op).
    pub comps: u8,
    pub d16: D16,
    /// DS two-address offsets in units of 64 elements.
    pub st64: bool,
    pub atomic: Option<AtomicOp>,
    /// No VGPR address operand.
    pub no_addr: bool,
    /// The address comes from the lane id (`*_addtid_b32`).
    pub addtid: bool,
    /// MUBUF load to LDS.
    pub lds: bool,
    /// SMEM load through a buffer descriptor.
    pub sbuf: bool,
    /// DS instruction with two offsets.
    pub two_addr: bool,
    pub mimg: Option<MimgFacts>,
    /// The register class each source admits.
    pub src_class: [RegClass; 3],
}

impl Facts {
    pub const NONE: Facts = Facts {
        vop3: Vop3Mods {
            fmods: 0,
            imods: 0,
            ign_mods: false,
            clamp: false,
            omod: false,
            op_sel: 0,
        },
        dpp: false,
        dpp_fmods: 0,
        dpp_imods: 0,
        fmak: Fmak::None,
        fma_mix: false,
        wmma: false,
        wmma_op_sel: false,
        class: false,
        mem: MemKind::None,
        bytes: 0,
        sext: false,
        comps: 0,
        d16: D16::None,
        st64: false,
        atomic: None,
        no_addr: false,
        addtid: false,
        lds: false,
        sbuf: false,
        two_addr: false,
        mimg: None,
        src_class: [RegClass::Any; 3],
    };

    /// Parses a facts column at compile time; an unknown token is a build error.
    pub const fn parse(s: &str) -> Facts {
        let b = s.as_bytes();
        let mut f = Facts::NONE;
        let mut img = MimgFacts {
            kind: MimgKind::Load,
            extra: 0,
            gradients: false,
            g16: false,
            lod: false,
            coords: true,
            has_d16: true,
        };
        let mut is_img = false;
        let mut i = 0;
        while i < b.len() {
            if b[i] == b' ' {
                i += 1;
                continue;
            }
            let start = i;
            let mut eq = usize::MAX;
            while i < b.len() && b[i] != b' ' {
                if b[i] == b'=' && eq == usize::MAX {
                    eq = i;
                }
                i += 1;
            }
            let (tok, _) = b.split_at(i);
            let (_, tok) = tok.split_at(start);
            if eq == usize::MAX {
                match tok {
                    b"ign" => f.vop3.ign_mods = true,
                    b"clamp" => f.vop3.clamp = true,
                    b"omod" => f.vop3.omod = true,
                    b"dpp" => f.dpp = true,
                    b"fmamk" => f.fmak = Fmak::Mk,
                    b"fmaak" => f.fmak = Fmak::Ak,
                    b"fmamix" => f.fma_mix = true,
                    b"wmma" => f.wmma = true,
                    b"wmma_os" => f.wmma_op_sel = true,
                    b"class" => f.class = true,
                    b"sext" => f.sext = true,
                    b"d16" => f.d16 = D16::Lo,
                    b"d16hi" => f.d16 = D16::Hi,
                    b"st64" => f.st64 = true,
                    b"noaddr" => f.no_addr = true,
                    b"addtid" => f.addtid = true,
                    b"lds" => f.lds = true,
                    b"sbuf" => f.sbuf = true,
                    b"twoaddr" => f.two_addr = true,
                    b"grad" => img.gradients = true,
                    b"g16" => img.g16 = true,
                    b"lod" => img.lod = true,
                    b"nocoords" => img.coords = false,
                    b"nod16" => img.has_d16 = false,
                    _ => panic!("unknown token in instruction table facts"),
                }
                continue;
            }
            let (key, val) = tok.split_at(eq - start);
            let (_, val) = val.split_at(1);
            match key {
                b"fm" => f.vop3.fmods = num(val),
                b"im" => f.vop3.imods = num(val),
                b"os" => f.vop3.op_sel = num(val),
                b"dppf" => f.dpp_fmods = num(val),
                b"dppi" => f.dpp_imods = num(val),
                b"bytes" => f.bytes = num(val),
                b"comps" => f.comps = num(val),
                b"extra" => img.extra = num(val) as u32,
                b"mem" => {
                    f.mem = match val {
                        b"load" => MemKind::Load,
                        b"store" => MemKind::Store,
                        b"atomic" => MemKind::Atomic,
                        b"atomic_rtn" => MemKind::AtomicRtn,
                        b"atomic_nortn" => MemKind::AtomicNoRtn,
                        b"load2" => MemKind::Load2,
                        b"store2" => MemKind::Store2,
                        b"xchg2" => MemKind::Xchg2,
                        b"cache" => MemKind::Cache,
                        b"gds" => MemKind::Gds,
                        b"bvh_stack" => MemKind::BvhStack,
                        _ => panic!("unknown memory kind in instruction table facts"),
                    }
                }
                b"atom" => f.atomic = Some(atomic_op(val)),
                b"s0" => f.src_class[0] = reg_class(val),
                b"s1" => f.src_class[1] = reg_class(val),
                b"s2" => f.src_class[2] = reg_class(val),
                b"img" => {
                    is_img = true;
                    img.kind = match val {
                        b"sample" => MimgKind::Sample,
                        b"gather" => MimgKind::Gather,
                        b"load" => MimgKind::Load,
                        b"store" => MimgKind::Store,
                        b"atomic" => MimgKind::Atomic,
                        b"cmpswap" => MimgKind::AtomicCmpswap,
                        b"msaa" => MimgKind::MsaaLoad,
                        b"bvh" => MimgKind::Bvh { is64: false },
                        b"bvh64" => MimgKind::Bvh { is64: true },
                        _ => panic!("unknown image kind in instruction table facts"),
                    }
                }
                _ => panic!("unknown key in instruction table facts"),
            }
        }
        if is_img {
            f.mimg = Some(img);
        }
        f
    }
}

/// A decimal or `0b` binary number of a facts token.
const fn num(v: &[u8]) -> u8 {
    let (radix, mut i) = if v.len() > 2 && v[0] == b'0' && v[1] == b'b' {
        (2u32, 2)
    } else {
        (10u32, 0)
    };
    let mut n = 0u32;
    assert!(i < v.len(), "empty number in instruction table facts");
    while i < v.len() {
        let d = v[i].wrapping_sub(b'0') as u32;
        assert!(d < radix, "bad digit in instruction table facts");
        n = n * radix + d;
        i += 1;
    }
    assert!(n <= 255, "number too large in instruction table facts");
    n as u8
}

const fn reg_class(v: &[u8]) -> RegClass {
    match v {
        b"vgpr" => RegClass::Vgpr,
        b"sreg" => RegClass::SReg,
        b"sreg_or_lds" => RegClass::SRegOrLds,
        b"vreg_or_lds" => RegClass::VRegOrLds,
        _ => panic!("unknown register class in instruction table facts"),
    }
}

const fn atomic_op(v: &[u8]) -> AtomicOp {
    match v {
        b"add" => AtomicOp::Add,
        b"addf" => AtomicOp::AddF,
        b"sub" => AtomicOp::Sub,
        b"rsub" => AtomicOp::Rsub,
        b"csub" => AtomicOp::CSub,
        b"inc" => AtomicOp::Inc,
        b"dec" => AtomicOp::Dec,
        b"minf" => AtomicOp::MinF,
        b"mini" => AtomicOp::MinI,
        b"minu" => AtomicOp::MinU,
        b"maxf" => AtomicOp::MaxF,
        b"maxi" => AtomicOp::MaxI,
        b"maxu" => AtomicOp::MaxU,
        b"and" => AtomicOp::And,
        b"or" => AtomicOp::Or,
        b"xor" => AtomicOp::Xor,
        b"mskor" => AtomicOp::MskOr,
        b"xchg" => AtomicOp::Xchg,
        b"cmpswap" => AtomicOp::CmpSwap,
        b"cmpswapf" => AtomicOp::CmpSwapF,
        b"wrap" => AtomicOp::Wrap,
        _ => panic!("unknown atomic operation in instruction table facts"),
    }
}
