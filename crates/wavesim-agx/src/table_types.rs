//! The shape of one row of the instruction table (`table.rs`, generated from applegpu's descriptors).

use crate::fields::Fields;
use crate::operand::OperandKind;

/// A named bit field of an instruction word; `parts` are `(start bit, width)` pieces, lowest part first,
/// concatenated into one value (AGX splits many fields into a low part and an "extension" part that
/// only the long form carries).
#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub parts: &'static [(u8, u8)],
}

/// One operand in assembly order: its field name prefix and how its fields decode.
#[derive(Debug)]
pub struct OperandRow {
    pub name: &'static str,
    pub kind: OperandKind,
}

/// How the mnemonic is formed from the fields and operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mnem {
    /// The row's name.
    Plain,
    /// The name, plus `.sat` when field `S` is set.
    Saturatable,
    /// `iadd`/`isub` by field `N`, plus `.sat`.
    IAddSub,
    /// `imadd`/`imsub` by field `N`, plus `.sat`.
    IMAddSub,
    /// `bitop` prints as `and`/`or`/`xor`/`nand`/`nor`/`xnor` by its truth table, `not`/`mov` when B is 0,
    /// `bitop_mov_a` for the tables that select A.
    BitopAlias,
    /// `if_fcmp eq 0.0, 0.0` prints as `update_exec` (n = 0) or `push_exec`.
    IfFCmpAlias,
    /// `else_icmp` with the alias test applegpu applies (it compares operands to `eq`/`0.0`).
    ElseICmpAlias,
    /// The tile access prints as `ld_tile` or `st_tile` by its `load` bit.
    LdstTileAlias,
    /// `map`/`unmap` by the `op` field.
    MapAlias,
}

/// The executor's dispatch column: which semantic function runs the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sem {
    MovImm,
    GetSr,
    IAdd,
    IMAdd,
    Bfi,
    Bfeil,
    Extr,
    Shlhi,
    Shrhi,
    Asr,
    Asrh,
    Bitop,
    Bitrev,
    Popcount,
    Ffs,
    Intl,
    Convert,
    Dfdx,
    Dfdy,
    FMadd32,
    FMadd16,
    FAdd32,
    FAdd16,
    FMul32,
    FMul16,
    Floor,
    Ceil,
    Trunc,
    Rint,
    Rcp,
    Rsqrt,
    /// `rsqrt_special`, `sin_pt_1`, `sin_pt_2`: no public rule; only under the documented-intent
    /// opt-in (`exec::float::approximation`).
    RsqrtSpecial,
    SinPt1,
    SinPt2,
    Log2,
    Exp2,
    Ret,
    Stop,
    Trap,
    JmpExecAny,
    JmpExecNone,
    Call,
    PopExec,
    IfICmp,
    IfFCmp,
    WhileICmp,
    WhileFCmp,
    ElseICmp,
    ElseFCmp,
    ICmpsel,
    FCmpsel,
    ICmpBallot,
    FCmpBallot,
    /// Ballot within each quad (the quad's bits at 0-3).
    ICmpQuadBallot,
    FCmpQuadBallot,
    /// Broadcast within each quad / exchange with thread i ^ B of the quad.
    QuadShuffle,
    QuadShuffleXor,
    SimdShuffle,
    SimdShuffleDown,
    SimdShuffleUp,
    SimdShuffleRotateUp,
    SimdShuffleXor,
    /// `simd_matrix_fmadd32`/`simd_matrix_fmadd16`: the hardware's rule is not public; only under the
    /// documented-intent opt-in (`exec::simd::matrix_fmadd`).
    SimdMatrixFMadd32,
    SimdMatrixFMadd16,
    Wait,
    DeviceLoad,
    DeviceStore,
    ThreadgroupLoad,
    ThreadgroupStore,
    ThreadgroupBarrier,
    MemoryBarrier,
    /// Reduction over the active threads of the SIMD group, result in every active thread.
    SimdReduce(RedOp),
    /// Exclusive prefix over the active threads in thread order.
    SimdPrefix(RedOp),
    /// Reduction within each quad (threads 4k..4k+3).
    QuadReduce(RedOp),
    /// Exclusive prefix within each quad.
    QuadPrefix(RedOp),
    /// Device-memory atomic read-modify-write.
    Atomic,
    /// Threadgroup-memory atomic read-modify-write.
    ThreadgroupAtomic,
    /// Per-thread stack (spill) load and store.
    StackLoad,
    StackStore,
    /// Store a 32-bit register to a vertex output (varying) slot.
    StoreVarying,
    /// Interpolate coefficient registers at the pixel (`iter`; `iterproj` divides by the W plane).
    Iter,
    /// `ld_tile` / `st_tile` (exec/tile.rs).
    TileAccess,
    /// `wait_pix` / `signal_pix` (exec/tile.rs).
    PixelOrder,
    /// `texture_sample` / `texture_load` (exec/texture.rs).
    TextureSample,
    TextureLoad,
    /// `image_write` (exec/image.rs).
    ImageWrite,
    /// `image_write_block`: the end-of-tile store of the tile buffer (exec/block_store.rs).
    ImageWriteBlock,
    /// `zs_emit`: depth/stencil output and tests (exec/zs_emit.rs).
    ZsEmit,
    /// applegpu's `device_load.TODO`: Mesa 25.0's coherent device load (exec/memory.rs).
    DeviceLoadCoherent,
    IterProj,
    /// Load a coefficient register's plane (`ldcf`).
    Ldcf,
    /// The vertex shader writes no varyings (`no_var`).
    NoVaryings,
    /// Kill samples or run their tests (`sample_mask`).
    SampleMask,
    /// Store 16-bit registers to uniform registers (a preamble initialising the main shader's uniforms).
    UniformStore,
    /// Ring the helper-program doorbell (needs a [`crate::helper::HelperPort`]).
    Doorbell,
    /// Jump over the following doorbell when no thread is active.
    JmpIfSkippingDoorbell,
    /// `map`/`unmap` of a helper program's stack blocks (needs a [`crate::helper::HelperPort`]).
    StackMap,
    /// Decodes and disassembles, but has no semantics yet: execution stops with
    /// [`crate::exec::Fault::Unsupported`] naming the instruction.
    Unsupported,
}

/// Operation of a SIMD-group or quad reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedOp {
    And,
    Or,
    Xor,
    IAdd,
    FAdd,
    FMul,
    MinU,
    MaxU,
    MinS,
    MaxS,
    MinF,
    MaxF,
}

/// One instruction encoding: exact/mask pattern, short and long sizes, the bit that selects the long
/// form, its fields and operands, and per-instruction facts.
#[derive(Debug)]
pub struct Encoding {
    pub name: &'static str,
    /// (short, long) size in bytes; equal when the encoding has one size.
    pub sizes: (u8, u8),
    /// Bit that selects the long form.
    pub length_bit: u8,
    pub mask: u128,
    pub bits: u128,
    pub fields: &'static [Field],
    pub operands: &'static [OperandRow],
    pub mnem: Mnem,
    pub sem: Sem,
    /// Which destination size the assembler accepts for this row (the two `mov_imm` rows are chosen
    /// by destination size, as in applegpu's assembler).
    pub asm_dst: AsmDst,
}

/// Destination-size constraint for assembly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AsmDst {
    Any,
    R16,
    R32,
}

impl Encoding {
    /// Size in bytes of the instruction starting with `word`.
    pub fn size_of(&self, word: u128) -> usize {
        if (word >> self.length_bit) & 1 == 1 {
            self.sizes.1 as usize
        } else {
            self.sizes.0 as usize
        }
    }

    /// `word` restricted to this encoding's size.
    pub fn truncate(&self, word: u128) -> u128 {
        let bits = self.size_of(word) * 8;
        if bits >= 128 {
            word
        } else {
            word & ((1u128 << bits) - 1)
        }
    }

    /// Whether `word` is this encoding.
    pub fn matches(&self, word: u128) -> bool {
        self.truncate(word) & self.mask == self.bits
    }

    /// The value of every field of `word`.
    pub fn field_values(&self, word: u128) -> Fields {
        let word = self.truncate(word);
        let values = self
            .fields
            .iter()
            .map(|f| {
                let mut v = 0u64;
                let mut shift = 0;
                for &(start, size) in f.parts {
                    let part = (word >> start) as u64 & ((1u64 << size) - 1);
                    v |= part << shift;
                    shift += size;
                }
                (f.name, v)
            })
            .collect();
        Fields { values }
    }
}
