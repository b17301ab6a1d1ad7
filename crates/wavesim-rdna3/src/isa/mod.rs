//! The gfx11 instruction set as data.
//!
//! `table.rs` lists every gfx11 opcode once: its encoding family, opcode number, identifier,
//! operand signature and facts (`Facts`: VOP3 modifiers, DPP, memory kind/width/D16/atomic
//! operation, image facts, register classes, ...). Decoding (`crate::decode`), disassembly (`crate::disasm`) and execution
//! (`crate::exec`) all derive from it; there is no second list of opcodes anywhere.

use std::sync::OnceLock;

mod facts;
mod table;

pub use facts::{Facts, Fmak, MemKind, MimgFacts, MimgKind, RegClass, Vop3Mods, D16};

/// Encoding families of gfx11 (RDNA3 ISA, "Microcode Formats").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Fmt {
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    /// VOP3-only opcodes (the VOP3 forms of VOP1/VOP2/VOPC are derived from those).
    Vop3,
    /// VOP3 with a scalar destination (carry-out / VCC-like lane mask).
    Vop3sd,
    Vop3p,
    Vinterp,
    Ldsdir,
    Ds,
    Mubuf,
    Mtbuf,
    Mimg,
    Exp,
    /// FLAT, GLOBAL and SCRATCH share one opcode space and differ in the `seg` field.
    Flat,
    Global,
    Scratch,
}

/// What an operand holds, as far as decoding, printing and execution care.
///
/// Register widths follow from the type (`B64` = 2 registers, `B128` = 4, ...). `Mask` is a lane
/// mask: one SGPR in wave32, an aligned pair in wave64 (RDNA3 ISA guide, Shader Concepts). Immediate kinds say how a
/// SOPP/SOPK/SMEM immediate is interpreted and printed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Ty {
    None,
    B16,
    I16,
    U16,
    F16,
    Bf16,
    B32,
    I32,
    U32,
    F32,
    B64,
    I64,
    U64,
    F64,
    /// Two 16-bit lanes packed in 32 bits (VOP3P).
    PkF16,
    PkI16,
    PkU16,
    PkBf16,
    /// A lane mask: VCC_LO or one SGPR in wave32, VCC or an SGPR pair in wave64.
    Mask,
    B96,
    B128,
    B160,
    B192,
    B224,
    B256,
    B512,
    /// A signed 16-bit immediate printed in decimal.
    Simm16,
    /// An unsigned 16-bit immediate printed in hexadecimal.
    Imm16,
    /// An unsigned 16-bit immediate that llvm prints like an integer operand: in decimal when it
    /// is an inline integer constant (0..=64), in hexadecimal otherwise (`s_nop 5`,
    /// `s_nop 0x91`; also s_sleep, s_trap, s_setprio, s_setkill, s_sethalt, s_denorm_mode,
    /// s_incperflevel, s_decperflevel).
    Imm16Inline,
    /// A branch target: signed 16-bit dword offset from the next instruction.
    Label,
    /// `s_waitcnt` counters.
    Waitcnt,
    /// `s_sendmsg` message id / operation / stream.
    Sendmsg,
    /// `s_getreg`/`s_setreg` register, offset and size.
    Hwreg,
    /// `s_delay_alu` instruction dependencies.
    DelayAlu,
    /// `s_waitcnt_depctr` counters.
    Depctr,
}

impl Ty {
    /// Number of 32-bit registers the operand occupies (lane masks are counted as one; wave64
    /// doubles them at decode time).
    pub const fn dwords(self) -> u8 {
        match self {
            Ty::B64 | Ty::I64 | Ty::U64 | Ty::F64 => 2,
            Ty::B96 => 3,
            Ty::B128 => 4,
            Ty::B160 => 5,
            Ty::B192 => 6,
            Ty::B224 => 7,
            Ty::B256 => 8,
            Ty::B512 => 16,
            Ty::None => 0,
            _ => 1,
        }
    }

    /// True for 16-bit scalar types (inline constants and literals print and apply differently).
    pub const fn is_16bit(self) -> bool {
        matches!(self, Ty::B16 | Ty::I16 | Ty::U16 | Ty::F16 | Ty::Bf16)
    }

    pub const fn is_float(self) -> bool {
        matches!(
            self,
            Ty::F16 | Ty::Bf16 | Ty::F32 | Ty::F64 | Ty::PkF16 | Ty::PkBf16
        )
    }

    const fn parse(tok: &[u8]) -> Ty {
        match tok {
            b"b16" => Ty::B16,
            b"i16" => Ty::I16,
            b"u16" => Ty::U16,
            b"f16" => Ty::F16,
            b"bf16" => Ty::Bf16,
            b"b32" => Ty::B32,
            b"i32" => Ty::I32,
            b"u32" => Ty::U32,
            b"f32" => Ty::F32,
            b"b64" => Ty::B64,
            b"i64" => Ty::I64,
            b"u64" => Ty::U64,
            b"f64" => Ty::F64,
            b"pk_f16" => Ty::PkF16,
            b"pk_i16" => Ty::PkI16,
            b"pk_u16" => Ty::PkU16,
            b"pk_bf16" => Ty::PkBf16,
            b"mask" => Ty::Mask,
            b"b96" => Ty::B96,
            b"b128" => Ty::B128,
            b"b160" => Ty::B160,
            b"b192" => Ty::B192,
            b"b224" => Ty::B224,
            b"b256" => Ty::B256,
            b"b512" => Ty::B512,
            b"simm16" => Ty::Simm16,
            b"imm16" => Ty::Imm16,
            b"imm16_inline" => Ty::Imm16Inline,
            b"label" => Ty::Label,
            b"waitcnt" => Ty::Waitcnt,
            b"sendmsg" => Ty::Sendmsg,
            b"hwreg" => Ty::Hwreg,
            b"delay_alu" => Ty::DelayAlu,
            b"depctr" => Ty::Depctr,
            // Unreachable at run time: `ops!` evaluates every signature in a `const` block, so a
            // bad table row is a compile error.
            _ => panic!("unknown operand type in instruction table signature"),
        }
    }
}

/// Operand signature of one instruction: destinations and sources in assembly order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sig {
    pub dst: [Ty; 2],
    pub src: [Ty; 4],
}

impl Sig {
    /// Parses `"d0 [d1] : s0 s1 s2"` at compile time; a malformed signature is a build error.
    pub const fn parse(s: &str) -> Sig {
        let b = s.as_bytes();
        let mut sig = Sig {
            dst: [Ty::None; 2],
            src: [Ty::None; 4],
        };
        let mut i = 0;
        let mut in_src = false;
        let mut nd = 0;
        let mut ns = 0;
        let mut seen_colon = false;
        while i < b.len() {
            if b[i] == b' ' {
                i += 1;
                continue;
            }
            if b[i] == b':' {
                assert!(!in_src, "two ':' in signature");
                in_src = true;
                seen_colon = true;
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && b[i] != b' ' && b[i] != b':' {
                i += 1;
            }
            let (tok, _) = b.split_at(i);
            let (_, tok) = tok.split_at(start);
            let ty = Ty::parse(tok);
            if in_src {
                assert!(ns < 4, "too many sources in signature");
                sig.src[ns] = ty;
                ns += 1;
            } else {
                assert!(nd < 2, "too many destinations in signature");
                sig.dst[nd] = ty;
                nd += 1;
            }
        }
        assert!(
            seen_colon,
            "signature needs ':' between destinations and sources"
        );
        sig
    }

    pub fn num_src(&self) -> usize {
        self.src.iter().take_while(|t| **t != Ty::None).count()
    }
}

/// Static facts about one instruction, straight from its table row.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// The identifier in the table (`V_ADD_F32`); `Op::name` gives the lower-case mnemonic.
    pub ident: &'static str,
    pub fmt: Fmt,
    pub opc: u16,
    pub sig: Sig,
    pub flags: u32,
}

/// Instruction flags (table column after the signature).
pub mod flags {
    /// Executed even when EXEC is zero and only once in wave64 (RDNA3 ISA guide, Wave State, "instruction skipping").
    pub const NEVER_SKIP: u32 = 1 << 0;
    /// The VOP1/VOP2/VOPC opcode has no VOP3 (e64) form.
    pub const NO_VOP3: u32 = 1 << 1;
    /// The instruction writes EXEC (v_cmpx).
    pub const WRITES_EXEC: u32 = 1 << 2;
    /// The opcode exists on RDNA3.5 (gfx1150/gfx1151) only: LLVM 19 decodes it for gfx1150
    /// and not for gfx1100 (SALU float instructions, s_singleuse_vdst).
    pub const GFX115: u32 = 1 << 3;
}

/// The gfx11 ISA variants wavesim decodes and runs. They share one table; rows flagged
/// `flags::GFX115` exist only on RDNA3.5.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Target {
    /// RDNA3: gfx1100, gfx1101, gfx1102, gfx1103 and gfx11-generic (one ISA; LLVM 19 decodes
    /// them alike).
    #[default]
    Gfx1100,
    /// RDNA3.5: gfx1150, gfx1151, gfx1152 (SALU float instructions and s_singleuse_vdst; LLVM
    /// 19's FeatureISAVersion11_5_Common, which also lets the assembler take an SGPR as src1 of
    /// VOP3 DPP, a form the gfx1100 decoder already accepts).
    Gfx1150,
}

impl Target {
    /// The target of an LLVM processor name (`gfx1100` ... `gfx1103`, `gfx1150`, `gfx1151`).
    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "gfx1100" | "gfx1101" | "gfx1102" | "gfx1103" | "gfx11-generic" => {
                Some(Target::Gfx1100)
            }
            "gfx1150" | "gfx1151" | "gfx1152" => Some(Target::Gfx1150),
            _ => None,
        }
    }

    /// The target of an AMDGPU ELF `e_flags` machine (EF_AMDGPU_MACH, bits 7:0; AMDGPUUsage
    /// "AMDGPU ELF Header": gfx1100 0x41, gfx1101 0x46, gfx1102 0x47, gfx1103 0x44,
    /// gfx11-generic 0x54, gfx1150 0x43, gfx1151 0x4a, gfx1152 0x55; checked with llvm-mc-19).
    pub fn from_elf_mach(mach: u32) -> Option<Target> {
        match mach {
            0x41 | 0x46 | 0x47 | 0x44 | 0x54 => Some(Target::Gfx1100),
            0x43 | 0x4a | 0x55 => Some(Target::Gfx1150),
            _ => None,
        }
    }

    /// The LLVM processor name objdump's `--mcpu` takes for this target's reference listing.
    pub fn mcpu(self) -> &'static str {
        match self {
            Target::Gfx1100 => "gfx1100",
            Target::Gfx1150 => "gfx1150",
        }
    }

    /// True if `op` exists on this target.
    pub fn has(self, op: Op) -> bool {
        op.info().flags & flags::GFX115 == 0 || self == Target::Gfx1150
    }
}

macro_rules! ops {
    ($( $fmt:ident $opc:literal $id:ident $sig:literal $($facts:literal)? $(| $flag:ident)* ;)*) => {
        /// Every gfx11 instruction, one variant per table row.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Op { $($id,)* }

        /// Table rows, indexed by `Op as usize`.
        pub static OPS: &[OpInfo] = &[
            $( OpInfo {
                ident: stringify!($id),
                fmt: Fmt::$fmt,
                opc: $opc,
                sig: const { Sig::parse($sig) },
                flags: 0 $(| flags::$flag)*,
            }, )*
        ];

        /// The facts column of each row, indexed by `Op as usize` (kept apart from `OPS` so
        /// that the per-instruction lookups of the step loop touch a small table).
        pub static FACTS: &[Facts] = &[
            $( const { Facts::parse(concat!("" $(, $facts)?)) }, )*
        ];

        impl Op {
            /// All instructions in table order.
            pub const ALL: &'static [Op] = &[$(Op::$id,)*];
        }
    };
}
pub(crate) use ops;

impl Op {
    #[inline]
    pub fn info(self) -> &'static OpInfo {
        &OPS[self as usize]
    }

    /// The lower-case mnemonic without encoding suffix (`v_add_f32`).
    pub fn name(self) -> &'static str {
        static NAMES: OnceLock<Vec<String>> = OnceLock::new();
        let names =
            NAMES.get_or_init(|| OPS.iter().map(|o| o.ident.to_ascii_lowercase()).collect());
        &names[self as usize]
    }

    #[inline]
    pub fn fmt(self) -> Fmt {
        self.info().fmt
    }

    #[inline]
    pub fn sig(self) -> &'static Sig {
        &self.info().sig
    }

    /// The row's facts column.
    #[inline]
    pub fn facts(self) -> &'static Facts {
        &FACTS[self as usize]
    }
}

pub use table::*;

/// Opcode lookup per encoding family, built once from the table.
pub struct Lookup {
    maps: Vec<Vec<Option<Op>>>,
}

impl Lookup {
    /// The gfx1100 (RDNA3) opcodes.
    pub fn get() -> &'static Lookup {
        Lookup::for_target(Target::Gfx1100)
    }

    /// The opcodes of `target`.
    pub fn for_target(target: Target) -> &'static Lookup {
        static L: OnceLock<Lookup> = OnceLock::new();
        static L115: OnceLock<Lookup> = OnceLock::new();
        match target {
            Target::Gfx1100 => L.get_or_init(|| Lookup::build(target)),
            Target::Gfx1150 => L115.get_or_init(|| Lookup::build(target)),
        }
    }

    fn build(target: Target) -> Lookup {
        {
            let mut maps: Vec<Vec<Option<Op>>> = vec![Vec::new(); Fmt::Scratch as usize + 1];
            for &op in Op::ALL.iter().filter(|&&op| target.has(op)) {
                let info = op.info();
                let m = &mut maps[info.fmt as usize];
                if m.len() <= info.opc as usize {
                    m.resize(info.opc as usize + 1, None);
                }
                m[info.opc as usize] = Some(op);
            }
            Lookup { maps }
        }
    }

    /// The instruction with opcode `opc` in family `fmt`, if gfx11 defines one.
    #[inline]
    pub fn find(&self, fmt: Fmt, opc: u32) -> Option<Op> {
        self.maps[fmt as usize].get(opc as usize).copied().flatten()
    }
}
