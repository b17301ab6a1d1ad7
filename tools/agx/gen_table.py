#!/usr/bin/env python3
"""Write crates/wavesim-agx/src/table.rs: one row per AGX (G13) instruction encoding.

The facts (exact/mask patterns, short/long sizes, the length bit, operand bit fields, enum names) are read
from dougallj/applegpu's instruction descriptors, which this script imports from the checkout given by
$APPLEGPU (or argv[1]). Nothing of applegpu's code is copied: the output is data only, and every
operand kind it names is decoded by wavesim-agx's own Rust code (src/operand.rs).

Usage: APPLEGPU=/tmp/applegpu python3 tools/agx/gen_table.py > crates/wavesim-agx/src/table.rs
"""
import os
import sys

path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('APPLEGPU')
if not path:
    sys.exit('usage: APPLEGPU=/path/to/applegpu gen_table.py')
sys.path.insert(0, path)
import applegpu as ag  # noqa: E402

# Python descriptor class -> semantic column (the executor's dispatch). Encodings not listed here get
# Sem::Unsupported and stop execution with a typed error naming the instruction.
SEM_BY_CLASS = {
    'MovImm16InstructionDesc': 'MovImm', 'MovImm32InstructionDesc': 'MovImm',
    'MovFromSrInstructionDesc': 'GetSr',
    'IAddInstructionDesc': 'IAdd', 'IMAddInstructionDesc': 'IMAdd',
    'BitfieldInsertInstructionDesc': 'Bfi', 'BitfieldExtractInstructionDesc': 'Bfeil',
    'ExtractInstructionDesc': 'Extr', 'ShlhiInstructionDesc': 'Shlhi', 'ShrhiInstructionDesc': 'Shrhi',
    'ArithmeticShiftRightInstructionDesc': 'Asr', 'ArithmeticShiftRightHighInstructionDesc': 'Asrh',
    'BitopInstructionDesc': 'Bitop', 'BitReverseInstructionDesc': 'Bitrev',
    'PopCountInstructionDesc': 'Popcount', 'FindFirstSetInstructionDesc': 'Ffs',
    'InterleaveInstructionDesc': 'Intl',
    'ConvertInstructionDesc': 'Convert',
    'DfdxInstructionDesc': 'Dfdx', 'DfdyInstructionDesc': 'Dfdy',
    'FMAdd32InstructionDesc': 'FMadd32', 'FMAdd16InstructionDesc': 'FMadd16',
    'FAdd32InstructionDesc': 'FAdd32', 'FAdd16InstructionDesc': 'FAdd16',
    'FMul32InstructionDesc': 'FMul32', 'FMul16InstructionDesc': 'FMul16',
    'FloorInstructionDesc': 'Floor', 'CeilInstructionDesc': 'Ceil', 'TruncInstructionDesc': 'Trunc',
    'RintInstructionDesc': 'Rint', 'ReciprocalInstructionDesc': 'Rcp', 'RsqrtInstructionDesc': 'Rsqrt',
    'RsqrtSpecialInstructionDesc': 'RsqrtSpecial', 'SinPt1InstructionDesc': 'SinPt1',
    'SinPt2InstructionDesc': 'SinPt2', 'Log2InstructionDesc': 'Log2', 'Exp2InstructionDesc': 'Exp2',
    'RetInstructionDesc': 'Ret', 'StopInstructionDesc': 'Stop', 'TrapInstructionDesc': 'Trap',
    'JmpAnyInstructionDesc': 'JmpExecAny', 'JmpNoneInstructionDesc': 'JmpExecNone',
    'CallInstructionDesc': 'Call', 'PopExecInstructionDesc': 'PopExec',
    'IfICmpInstructionDesc': 'IfICmp', 'IfFCmpInstructionDesc': 'IfFCmp',
    'WhileICmpInstructionDesc': 'WhileICmp', 'WhileFCmpInstructionDesc': 'WhileFCmp',
    'ElseICmpInstructionDesc': 'ElseICmp', 'ElseFCmpInstructionDesc': 'ElseFCmp',
    'ICmpselInstructionDesc': 'ICmpsel', 'FCmpselInstructionDesc': 'FCmpsel',
    'ICmpBallotInstructionDesc': 'ICmpBallot', 'FCmpBallotInstructionDesc': 'FCmpBallot',
    'ICmpQuadBallotInstructionDesc': 'ICmpQuadBallot', 'FCmpQuadBallotInstructionDesc': 'FCmpQuadBallot',
    'SimdShuffleInstructionDesc': 'SimdShuffle', 'SimdShuffleDownInstructionDesc': 'SimdShuffleDown',
    'SimdShuffleUpInstructionDesc': 'SimdShuffleUp', 'SimdShuffleRotateUpInstructionDesc': 'SimdShuffleRotateUp',
    'SimdShuffleXorInstructionDesc': 'SimdShuffleXor',
    'SimdMatrixFMadd32InstructionDesc': 'SimdMatrixFMadd32',
    'SimdMatrixFMadd16InstructionDesc': 'SimdMatrixFMadd16',
    'WaitInstructionDesc': 'Wait', 'DeviceLoadInstructionDesc': 'DeviceLoad',
    'DeviceStoreInstructionDesc': 'DeviceStore',
    'ThreadgroupLoadInstructionDesc': 'ThreadgroupLoad', 'ThreadgroupStoreInstructionDesc': 'ThreadgroupStore',
    'ThreadgroupBarriernstructionDesc': 'ThreadgroupBarrier', 'MemoryBarrierInstructionDesc': 'MemoryBarrier',
    'StoreToUniformInstructionDesc': 'UniformStore',
    'DoorbellInstructionDesc': 'Doorbell', 'JumpNoDoorbellInstructionDesc': 'JmpIfSkippingDoorbell',
    'MapInstructionDesc': 'StackMap',
    'ZSEmitInstructionDesc': 'ZsEmit', 'ImageWriteBlockInstructionDesc': 'ImageWriteBlock',
}

# The SIMD-group and quad reductions are rows built in a loop (one per operation); their semantics are
# assigned per row name here.
SEM_BY_NAME = {}
for scope, prefix in (('simd', 'Simd'), ('quad', 'Quad')):
    for op, red in (('and', 'And'), ('or', 'Or'), ('xor', 'Xor'), ('iadd', 'IAdd'), ('fadd', 'FAdd'), ('fmul', 'FMul'),
                    ('min.u', 'MinU'), ('max.u', 'MaxU'), ('min.s', 'MinS'), ('max.s', 'MaxS'), ('min.f', 'MinF'),
                    ('max.f', 'MaxF')):
        SEM_BY_NAME['%s_%s' % (scope, op)] = '%sReduce(RedOp::%s)' % (prefix, red)
        SEM_BY_NAME['%s_prefix_%s' % (scope, op)] = '%sPrefix(RedOp::%s)' % (prefix, red)
SEM_BY_NAME['atomic'] = 'Atomic'
SEM_BY_NAME['threadgroup_atomic'] = 'ThreadgroupAtomic'
SEM_BY_NAME['stack_load'] = 'StackLoad'
SEM_BY_NAME['stack_store'] = 'StackStore'
SEM_BY_NAME['st_var'] = 'StoreVarying'
SEM_BY_NAME['st_var_final'] = 'StoreVarying'
SEM_BY_NAME['quad_shuffle'] = 'QuadShuffle'
SEM_BY_NAME['quad_shuffle_xor'] = 'QuadShuffleXor'
SEM_BY_NAME['iter'] = 'Iter'
SEM_BY_NAME['iterproj'] = 'IterProj'
SEM_BY_NAME['TODO.ldcf'] = 'Ldcf'
SEM_BY_NAME['no_var'] = 'NoVaryings'
SEM_BY_NAME['sample_mask'] = 'SampleMask'
SEM_BY_NAME['TODO.ld/st_tile'] = 'TileAccess'
SEM_BY_NAME['wait_pix'] = 'PixelOrder'
SEM_BY_NAME['signal_pix'] = 'PixelOrder'
SEM_BY_NAME['texture_sample'] = 'TextureSample'
SEM_BY_NAME['texture_load'] = 'TextureLoad'
SEM_BY_NAME['image_write'] = 'ImageWrite'
SEM_BY_NAME['device_load.TODO'] = 'DeviceLoadCoherent'

MNEM_BY_CLASS = {
    'IAddInstructionDesc': 'IAddSub', 'IMAddInstructionDesc': 'IMAddSub',
    'BitopInstructionDesc': 'BitopAlias', 'IfFCmpInstructionDesc': 'IfFCmpAlias',
    'ElseICmpInstructionDesc': 'ElseICmpAlias', 'LdstTileDesc': 'LdstTileAlias', 'MapInstructionDesc': 'MapAlias',
}


def rust_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def enum_table(values):
    items = sorted(values.items())
    return '&[' + ', '.join('(%d, %s)' % (k, rust_str(v)) for k, v in items) + ']'


def operand_kind(o):
    c = type(o).__name__
    if c in ('ALUDstDesc', 'ALUDst64Desc', 'ALUDst16Desc', 'FloatDstDesc', 'FloatDst16Desc', 'PairedALUDstDesc'):
        return 'Dst(DstKind { allow32: %s, allow64: %s, paired: %s, float: %s })' % (
            str(o._allow32()).lower(), str(o._allow64()).lower(), str(o._paired()).lower(),
            str(isinstance(o, ag.FloatDstDesc)).lower())
    if c in ('ALUSrcDesc', 'ALUSrc64Desc', 'ALUSrc16Desc', 'MulSrcDesc', 'AddSrcDesc', 'FloatSrcDesc',
             'FloatSrc16Desc', 'PairedFloatSrcDesc'):
        return 'Src(SrcKind { allow32: %s, allow64: %s, paired: %s, float: %s, sx: %s })' % (
            str(o._allow32()).lower(), str(o._allow64()).lower(), str(o._paired()).lower(),
            str(isinstance(o, ag.FloatSrcDesc)).lower(), str(isinstance(o, ag.MulSrcDesc)).lower())
    if c == 'EnumDesc':
        return 'Enum(%s)' % enum_table(o.values)
    if c == 'BinaryDesc':
        return 'Binary(%d)' % o.size
    if c == 'BranchOffsetDesc':
        return 'BranchOffset(%d)' % o.size
    if c == 'SampleMaskDesc':
        return 'SampleMask(%d)' % o.flags_type
    if c == 'ThreadgroupMemoryRegDesc':
        return 'ThreadgroupMemoryReg(%s)' % str(o.is_optional).lower()
    if c == 'IConditionDesc':
        return 'ICond'
    if c == 'FConditionDesc':
        return 'FCond'
    simple = {
        'ImplicitR0LDesc': 'ImplicitR0l', 'CmpselSrcDesc': 'CmpselSrc', 'TruthTableDesc': 'TruthTable',
        'ImmediateDesc': 'Immediate', 'Reg32Desc': 'Reg32', 'UReg64Desc': 'UReg64', 'ShiftDesc': 'Shift',
        'MaskDesc': 'Mask', 'StackAdjustmentDesc': 'StackAdjustment', 'StackReg32Desc': 'StackReg32',
        'MemoryShiftDesc': 'MemoryShift', 'MemoryIndexDesc': 'MemoryIndex',
        'ThreadgroupIndexDesc': 'ThreadgroupIndex', 'AsyncMemoryRegDesc': 'AsyncMemoryReg',
        'AsyncMemoryBaseDesc': 'AsyncMemoryBase', 'MemoryBaseDesc': 'MemoryBase', 'DiscardMaskDesc': 'DiscardMask',
        'ZSDesc': 'Zs', 'MemoryRegDesc': 'MemoryReg', 'SampleRegDesc': 'MemoryReg',
        'TileToMemoryRegDesc': 'TileToMemoryReg', 'ThreadgroupMemoryBaseDesc': 'ThreadgroupMemoryBase',
        'SReg32Desc': 'SReg32', 'ExReg32Desc': 'ExReg32', 'VarRegisterDesc': 'VarRegister',
        'VarTripleRegisterDesc': 'VarTripleRegister', 'UVSIndexDesc': 'UvsIndex', 'CFDesc': 'Cf',
        'CFPerspectiveDesc': 'CfPerspective', 'IterSampleID': 'IterSampleId',
        'TextureStateDestDesc': 'TextureStateDest', 'SamplerStateDestDesc': 'SamplerStateDest',
        'SampleURegDesc': 'SampleUReg', 'TextureDesc': 'Texture', 'SamplerDesc': 'Sampler', 'CoordsDesc': 'Coords',
        'SampleCompareOffDesc': 'SampleCompareOff', 'LodDesc': 'Lod', 'AtomicSourceDesc': 'AtomicSource',
        'AtomicDestinationDesc': 'AtomicDestination', 'PBELodDesc': 'PbeLod', 'Reg32_4_4_Desc': 'Reg32x44',
        'PBESourceRegDesc': 'PbeSourceReg',
    }
    if c in simple:
        return simple[c]
    raise SystemExit('unknown operand class %s' % c)


def mnem_rule(d):
    c = type(d).__name__
    if c in MNEM_BY_CLASS:
        return 'Mnem::' + MNEM_BY_CLASS[c]
    if isinstance(d, ag.SaturatableInstructionDesc):
        return 'Mnem::Saturatable'
    return 'Mnem::Plain'


out = []
w = out.append
w('// @generated by tools/agx/gen_table.py from dougallj/applegpu\'s instruction descriptors (facts only:')
w('// bit patterns, sizes, field positions, enum names). Do not edit by hand; rerun the script.')
w('#![cfg_attr(rustfmt, rustfmt_skip)]')
w('use crate::operand::{DstKind, OperandKind::*, SrcKind};')
w('use crate::table_types::{AsmDst, Encoding, Field, Mnem, OperandRow, RedOp, Sem};')
w('')
w('/// Every encoding, in applegpu\'s match order: the first row whose pattern matches decodes the word.')
w('pub static ENCODINGS: &[Encoding] = &[')
for d in ag.instruction_descriptors:
    raw = {name: (start, size) for start, size, name in d.fields}
    fields = []
    for name, subs in d.merged_fields:
        parts = []
        for subname, shift in subs:
            start, size = raw[subname]
            parts.append('(%d, %d)' % (start, size))
        fields.append('Field { name: %s, parts: &[%s] }' % (rust_str(name), ', '.join(parts)))
    operands = ['OperandRow { name: %s, kind: %s }' % (rust_str(o.name), operand_kind(o)) for o in d.ordered_operands]
    sem = SEM_BY_CLASS.get(type(d).__name__) or SEM_BY_NAME.get(d.name, 'Unsupported')
    w('    Encoding {')
    w('        name: %s,' % rust_str(d.name))
    w('        sizes: (%d, %d), length_bit: %d,' % (d.sizes[0], d.sizes[1], d.length_bit_pos))
    w('        mask: 0x%x, bits: 0x%x,' % (d.mask, d.bits))
    w('        fields: &[%s],' % ', '.join(fields))
    w('        operands: &[%s],' % ', '.join(operands))
    asm_dst = {'MovImm16InstructionDesc': 'R16', 'MovImm32InstructionDesc': 'R32'}.get(type(d).__name__, 'Any')
    w('        mnem: %s, sem: Sem::%s, asm_dst: AsmDst::%s,' % (mnem_rule(d), sem, asm_dst))
    w('    },')
w('];')
print('\n'.join(out))
