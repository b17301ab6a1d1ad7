//! The R700 instruction table: one row per instruction, for every word format (CF, CF_ALU, CF export,
//! ALU OP2/OP3, TEX, VTX/MEM). Decoding, disassembly, assembly and the executor's dispatch all read
//! these rows; nothing else lists opcodes.
//!
//! Sources (facts only): opcode numbers and unit restrictions are those of the AMD "R700-Family
//! Instruction Set Architecture" reference (chapter 9 instruction descriptions; chapter 10 microcode
//! formats) as tabulated in Mesa's `r600_isa.c` (r7xx column). The printed mnemonic (`llc`) is the text
//! LLVM 19's R600 back end prints (`R600Instructions.td` asm strings), so that disassembly equals
//! `llc-19 -filetype=asm`; rows LLVM never emits print their ISA name.
mod table;
pub use table::{ALU, CF, CF_ALU, EXPORT, TEX, VTX};

/// Which ALU slots an instruction may occupy (R700 ISA reference, 4.7 "ALU instruction slots":
/// vector slots x, y, z, w and the transcendental slot t).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// x, y, z or w only.
    Vector,
    /// the transcendental (t) slot only.
    Trans,
    /// any of the five slots.
    Any,
    /// a reduction that occupies all four vector slots of its group (DOT4, CUBE, MAX4).
    Reduction,
}

/// ALU word-1 encoding: OP2 (11-bit opcode in bits 17:7) or OP3 (5-bit opcode in bits 17:13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluEnc {
    Op2,
    Op3,
}

/// Comparison kinds of SET*, PRED_SET*, KILL*, CND* (R700 ISA reference, 9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    E,
    Gt,
    Ge,
    Ne,
    /// Only the PRED_SETLT/LE_PUSH_INT rows test "less than": R700 has no other LT/LE compare.
    Lt,
    Le,
}

/// Operand type of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpTy {
    F32,
    I32,
    U32,
}

/// How the executor runs an ALU row. Plain per-thread functions take and return raw 32-bit values.
#[derive(Clone, Copy)]
pub enum AluExec {
    /// no operation (ALU_NOP).
    Nop,
    Un(fn(u32) -> u32),
    Bin(fn(u32, u32) -> u32),
    Tri(fn(u32, u32, u32) -> u32),
    /// SETcc family whose result is 1.0f/0.0f (float) or 0xFFFFFFFF/0 (DX10 and integer forms).
    Set {
        cmp: Cmp,
        ty: CmpTy,
        int_result: bool,
    },
    /// PRED_SET*: writes 1.0f/0.0f and the predicate; `push` for the *_PUSH forms.
    PredSet {
        cmp: Cmp,
        ty: CmpTy,
        push: bool,
    },
    /// MUL_LIT family with its output scale (1, 2, 4 or 0.5); see `semantics::mul_lit`.
    MulLit(f32),
    PredSetInv,
    PredSetPop,
    PredSetClr,
    PredSetRestore,
    /// KILL*: kills the pixel when the comparison holds; writes 1.0f/0.0f.
    Kill {
        cmp: Cmp,
        ty: CmpTy,
    },
    /// MOVA family: writes AR (and the destination GPR).
    Mova(MovaKind),
    /// DOT4 over the four vector slots of the group.
    Dot4 {
        ieee: bool,
    },
    Cube,
    Max4,
    /// Conditional moves: dst = cmp(src0, 0) ? src1 : src2.
    Cnd {
        cmp: Cmp,
        ty: CmpTy,
    },
    /// Double precision over the X/Y slot pair of one group (rv770 only).
    Pair64(Pair64Op),
    /// A row wavesim decodes and prints but does not execute; the executor stops with a typed error
    /// naming the instruction and this reason.
    NotModelled(&'static str),
}

/// Double-precision operations that occupy the X and Y vector slots of one instruction group. Layout
/// (Mesa's r600 `sfn_instr_alu.cpp` emitters, the public driver code that runs these opcodes): the X-slot
/// instruction's sources carry the high dwords and the Y-slot's the low dwords of the 64-bit operands;
/// the X slot's destination receives the low dword of the result and the Y slot's the high dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pair64Op {
    /// ADD_64: a + b.
    Add,
    /// FLT32_TO_FLT64: the X slot's src0 is the binary32 value (the Y slot's source is unused).
    F32ToF64,
    /// FLT64_TO_FLT32: the X slot's destination receives the binary32 result; the Y slot writes nothing.
    F64ToF32,
    /// FRACT_64: a - floor(a).
    Fract,
    /// MUL_64: a * b over all four vector slots (below).
    Mul,
    /// FREXP_64: a = m * 2^e with 0.5 <= |m| < 1, over all four vector slots (below).
    Frexp,
    /// LDEXP_64: a * 2^e over the X/Y pair; e is the integer src1 (both slots must carry it).
    Ldexp,
}

impl Pair64Op {
    /// MUL_64 and FREXP_64 fill the four vector slots of their group (the rest use X and Y).
    /// - MUL_64: X, Y and Z read the high dwords of the operands, W the low dwords; X's destination
    ///   receives the low dword of the result and Y's the high dword, Z and W write nothing (Mesa's r600
    ///   emitters: `emit_alu_op2_64bit` with three high-dword copies of MUL_64 and `emit_alu_fma_64bit`
    ///   in sfn_instr_alu.cpp, and the older `cayman_mul_double_instr` of r600_shader.c, which Mesa used
    ///   for Evergreen as well as Cayman).
    /// - FREXP_64: X and Z read the high dword, Y and W the low dword (`fp64_switch`); Y's destination
    ///   receives the exponent (an integer), Z's the mantissa's low dword and W's its high dword, X's
    ///   nothing Mesa reads (r600_shader.c `tgsi_dfracexp`, which copies temp.y to the exponent and
    ///   temp.z/temp.w to the significand).
    ///
    /// Those are Evergreen-family emitters; Mesa has no R700 double-precision path, so the R700 layout
    /// is assumed to be the same, as for ADD_64 (whose X/Y layout also comes from these emitters).
    pub fn four_slots(self) -> bool {
        matches!(self, Pair64Op::Mul | Pair64Op::Frexp)
    }

    /// For four-slot ops: which slots carry the operands' high dwords (the others the low dwords).
    pub fn high_slots(self) -> [bool; 4] {
        match self {
            Pair64Op::Frexp => [true, false, true, false],
            _ => [true, true, true, false],
        }
    }

    /// Which slots' destinations receive a defined value (a write from another slot is an error, and
    /// for four-slot ops its PV stays unset).
    pub fn writes(self) -> [bool; 4] {
        match self {
            Pair64Op::F64ToF32 => [true, false, false, false],
            Pair64Op::Frexp => [false, true, true, true],
            _ => [true, true, false, false],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovaKind {
    /// MOVA: round to nearest (float source).
    Round,
    /// MOVA_FLOOR: floor (float source).
    Floor,
    /// MOVA_INT: integer source.
    Int,
}

/// One ALU instruction.
#[derive(Clone, Copy)]
pub struct AluRow {
    pub enc: AluEnc,
    pub opcode: u16,
    /// Text printed by llc-19 (or the ISA name for rows LLVM never emits).
    pub llc: &'static str,
    /// Unique ISA name (R700 ISA reference / Mesa `r600_isa.c`), accepted by the assembler.
    pub isa: &'static str,
    /// Number of source operands.
    pub srcs: u8,
    pub unit: Unit,
    /// True when llc prints it with the 1-source OP2 template (`R600_1OP`), which omits the
    /// update_exec_mask/update_pred text.
    pub one_src_form: bool,
    /// True when the result is a float, so the output modifier (OMOD) and clamp apply; false for
    /// integer results and bit moves (R700 ISA reference, 4.7.3: OMOD/CLAMP act on float results).
    pub float_out: bool,
    pub exec: AluExec,
}

/// Looks an ALU row up by encoding and opcode.
pub fn alu_row(enc: AluEnc, opcode: u16) -> Option<&'static AluRow> {
    ALU.iter().find(|r| r.enc == enc && r.opcode == opcode)
}

/// How a CF instruction's operands are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfForm {
    /// no operands (`CALL_FS`, `RETURN`, `NOP`).
    Bare,
    /// `NAME CNT @ADDR` (fetch clauses).
    Clause,
    /// `NAME @ADDR`.
    Addr,
    /// `NAME @ADDR POP:n`.
    AddrPop,
}

/// What a CF instruction does in the executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfExec {
    Nop,
    TexClause,
    VtxClause,
    LoopStart { al: LoopAl },
    LoopEnd,
    LoopContinue,
    LoopBreak,
    Jump,
    Push,
    PushElse,
    Else,
    Pop,
    PopJump,
    PopPush,
    PopPushElse,
    Call,
    CallFs,
    Return,
    Kill,
    Emit,
    NotModelled(&'static str),
}

/// How LOOP_START* treats the loop index aL (R700 ISA reference, 3.7 "Loops").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopAl {
    /// LOOP_START: aL = I.init, stepped by I.inc each iteration; count from I.count.
    FromConstant,
    /// LOOP_START_NO_AL: count from I, aL untouched.
    NoAl,
    /// LOOP_START_DX10: loops until broken out of; ignores the constant.
    Dx10,
}

#[derive(Clone, Copy)]
pub struct CfRow {
    pub opcode: u8,
    pub llc: &'static str,
    pub isa: &'static str,
    pub form: CfForm,
    pub exec: CfExec,
}

/// What an ALU clause instruction does to the stack and active mask (R700 ISA reference, 3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfAluExec {
    Alu,
    PushBefore,
    PopAfter,
    Pop2After,
    Continue,
    Break,
    ElseAfter,
}

#[derive(Clone, Copy)]
pub struct CfAluRow {
    /// CF_ALU_WORD1.CF_INST (4 bits).
    pub opcode: u8,
    pub llc: &'static str,
    pub exec: CfAluExec,
}

/// Export/memory-write CF instructions (CF_ALLOC_EXPORT words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    /// SWIZ word 1 (pixel/position/parameter exports).
    Swizzle,
    /// BUF word 1 (memory streams, scratch, ring, reduction).
    Buffer,
}

#[derive(Clone, Copy)]
pub struct ExportRow {
    pub opcode: u8,
    pub isa: &'static str,
    pub kind: ExportKind,
    /// For memory streams: the stream number.
    pub stream: Option<u8>,
    pub done: bool,
}

/// Fetch instruction families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchExec {
    /// TEX_SAMPLE family: `lod` says which LOD source the row uses.
    Sample {
        compare: bool,
        lod: TexLod,
    },
    /// SET_GRADIENTS_H (false) / SET_GRADIENTS_V (true): loads the four selected source components as
    /// the thread's horizontal / vertical gradients for later SAMPLE_G / SAMPLE_C_G (Mesa's r600
    /// `TexInstr::emit_set_gradients` issues both before the sample, with no destination).
    SetGradients {
        vertical: bool,
    },
    /// GET_GRADIENTS_H (false) / GET_GRADIENTS_V (true): the difference of the four selected source
    /// components across the thread's 2x2 pixel quad (see `exec::fetch::get_gradients`).
    GetGradients {
        vertical: bool,
    },
    /// TEX_LD: the texel at integer coordinates X/Y (layer or slice in Z) and level W (Mesa's r600
    /// `TexInstr::emit_tex_txf`; see `exec::fetch::load_texels`).
    Load,
    /// GET_TEXTURE_RESINFO: the resource's size at the level in the selected source components
    /// (Mesa's `TexInstr::emit_tex_txs`; see `exec::fetch::resinfo`).
    ResInfo,
    /// Vertex fetch through a fetch constant.
    VertexFetch,
    /// R700 local data share write/read (MEM_RD format with MEM_OP 4/5).
    LdsWrite,
    LdsRead,
    NotModelled(&'static str),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexLod {
    /// implicit LOD: exact only when a single level can be chosen (one level or MIP_FILTER none);
    /// otherwise a typed error (the quad's derivatives are not modelled).
    Implicit,
    Explicit,
    Bias,
    Zero,
    /// SAMPLE_G / SAMPLE_C_G: the LOD comes from the gradients SET_GRADIENTS_H/V loaded. How the
    /// texture unit turns gradients into a LOD is implementation-defined (the OpenGL specification,
    /// 8.14.1, allows approximations of the scale factor), so these are exact only where a single level
    /// can be chosen (one level or MIP_FILTER none) and a typed error otherwise.
    Gradients,
}

#[derive(Clone, Copy)]
pub struct TexRow {
    /// TEX_WORD0.TEX_INST (5 bits).
    pub opcode: u8,
    pub llc: &'static str,
    pub exec: FetchExec,
}

/// Vertex-cache instructions: VTX_WORD0.VC_INST (5 bits) and, for MEM (2), MEM_RD_WORD0.MEM_OP.
#[derive(Clone, Copy)]
pub struct VtxRow {
    pub vc_inst: u8,
    pub mem_op: Option<u8>,
    pub llc: &'static str,
    pub exec: FetchExec,
}

/// Chips the R600 back end targets with an R700 ISA, from ELF `e_flags` (LLVM `ELF::EF_AMDGPU_MACH_R600_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chip {
    Rv710,
    Rv730,
    Rv770,
}

impl Chip {
    pub fn from_e_flags(flags: u32) -> Option<Chip> {
        match flags & 0xff {
            5 => Some(Chip::Rv710),
            6 => Some(Chip::Rv730),
            7 => Some(Chip::Rv770),
            _ => None,
        }
    }
    pub fn e_flags(self) -> u32 {
        match self {
            Chip::Rv710 => 5,
            Chip::Rv730 => 6,
            Chip::Rv770 => 7,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Chip::Rv710 => "rv710",
            Chip::Rv730 => "rv730",
            Chip::Rv770 => "rv770",
        }
    }
    pub fn from_name(s: &str) -> Option<Chip> {
        match s {
            "rv710" => Some(Chip::Rv710),
            "rv730" => Some(Chip::Rv730),
            "rv770" => Some(Chip::Rv770),
            _ => None,
        }
    }
    /// Threads per wavefront: 64 on RV770 (R700 ISA reference 1.1: a wavefront is 64 threads), 32 on
    /// RV730 and RV710, whose SIMDs have 8 thread processors (Mesa's `r600_wavefront_size` in
    /// r600_pipe_common.h; LLVM's R600Processors.td gives rv710/rv730 FeatureWavefrontSize32). The
    /// reference's per-chip statement could not be read from any stored copy (title page only); these
    /// two public sources agree, so they decide.
    pub fn wave_size(self) -> usize {
        match self {
            Chip::Rv770 => 64,
            Chip::Rv730 => 32,
            Chip::Rv710 => 32,
        }
    }
    /// Stack entries available to one wavefront when the program does not state STACK_SIZE (raw
    /// programs). The R700 ISA reference (2.5) calls the stack size chip-specific without giving numbers
    /// in the parts wavesim uses; these limits are wavesim's assumption. Objects from llc carry
    /// STACK_SIZE in `.AMDGPU.config`, which the runner enforces instead.
    pub fn max_stack_entries(self) -> u32 {
        match self {
            Chip::Rv770 => 512,
            Chip::Rv730 => 256,
            Chip::Rv710 => 256,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_are_unique_per_format() {
        for (i, a) in ALU.iter().enumerate() {
            for b in &ALU[i + 1..] {
                assert!(
                    !(a.enc == b.enc && a.opcode == b.opcode),
                    "ALU {:?} {:#x} twice",
                    a.enc,
                    a.opcode
                );
                assert_ne!(a.isa, b.isa, "ISA name {} twice", a.isa);
            }
        }
        for (i, a) in CF.iter().enumerate() {
            assert!(
                CF[i + 1..]
                    .iter()
                    .all(|b| b.opcode != a.opcode && b.llc != a.llc),
                "CF {}",
                a.llc
            );
            assert!(
                EXPORT.iter().all(|e| e.opcode != a.opcode),
                "CF {} collides with an export",
                a.llc
            );
            assert!(
                a.opcode < 64,
                "CF_INST {} would set bit 29, the CF_ALU marker",
                a.opcode
            );
        }
        for (i, a) in TEX.iter().enumerate() {
            assert!(TEX[i + 1..]
                .iter()
                .all(|b| b.opcode != a.opcode && b.llc != a.llc));
        }
        for (i, a) in VTX.iter().enumerate() {
            assert!(VTX[i + 1..]
                .iter()
                .all(|b| (b.vc_inst, b.mem_op) != (a.vc_inst, a.mem_op) && b.llc != a.llc));
        }
    }

    /// Every row either has semantics or names why it stops with a typed error; the list of rows
    /// without semantics is pinned here so that a new row cannot silently lack them.
    #[test]
    fn every_row_has_semantics_or_a_reason() {
        let mut missing: Vec<&str> = ALU
            .iter()
            .filter_map(|r| match r.exec {
                AluExec::NotModelled(why) => {
                    assert!(!why.is_empty());
                    Some(r.isa)
                }
                _ => None,
            })
            .collect();
        missing.sort();
        assert_eq!(
            missing,
            [
                "MOVA_GPR_INT",
                "MULADD_64",
                "MULADD_64_D2",
                "MULADD_64_M2",
                "MULADD_64_M4",
                "PRED_SETE_64",
                "PRED_SETGE_64",
                "PRED_SETGT_64",
                "RECIP_INT"
            ]
        );
        let cf_missing: Vec<&str> = CF
            .iter()
            .filter(|r| matches!(r.exec, CfExec::NotModelled(_)))
            .map(|r| r.isa)
            .collect();
        assert!(cf_missing.is_empty(), "{cf_missing:?}");
        let tex_modelled: Vec<&str> = TEX
            .iter()
            .filter(|r| !matches!(r.exec, FetchExec::NotModelled(_)))
            .map(|r| r.llc)
            .collect();
        for t in [
            "TEX_SAMPLE",
            "TEX_SAMPLE_L",
            "TEX_LD",
            "TEX_GET_TEXTURE_RESINFO",
        ] {
            assert!(tex_modelled.contains(&t), "{t}");
        }
    }
}
