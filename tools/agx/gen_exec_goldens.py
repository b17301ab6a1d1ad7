#!/usr/bin/env python3
"""Differential execution goldens from applegpu's emulator.

Random straight-line streams (1-6 instructions) of the forms applegpu executes are run by applegpu's
emulator on 8-register, 32-thread states; the final registers and exec mask are written to
corpus/agx/exec_goldens.txt. The initial state is derived from a per-case seed with a generator that
wavesim's test re-implements (splitmix64, below), so the file stays small.

Format, per case:
    case SEED EXEC_INIT            (EXEC_INIT: 'all' = all threads active, 'r0l' = exec from r0l == 0)
    code HEX
    exec HEX32                     (final exec mask, bit per thread)
    r0 .. r7: 32 space-separated 8-digit hex values (final state)

Usage: APPLEGPU=/tmp/applegpu python3 tools/agx/gen_exec_goldens.py [cases] > corpus/agx/exec_goldens.txt
"""
import contextlib
import io
import os
import random
import sys

sys.path.insert(0, os.environ['APPLEGPU'])
import applegpu as ag  # noqa: E402

MASK64 = (1 << 64) - 1
NUM_REGS = 8
DEVICE_BASE = 0x1000_0000  # wavesim_core::memory::DEVICE_BASE (the first allocation)
MEM_SIZE = 256
INTERESTING = [
    0x3f800000, 0xbf800000, 0x40000000, 0x3f000000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
    0x7fc00000, 0x00000001, 0x3c003c00, 0xbc00c000, 0x7bff0400, 0x00010000, 0x477fe000, 0x33800000,
]


class SplitMix:
    def __init__(self, seed):
        self.s = seed & MASK64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def value32(self):
        k = self.next() % 4
        if k == 0:
            return self.next() & 0xFFFFFFFF
        if k == 1:
            return self.next() % 8
        if k == 2:
            return INTERESTING[self.next() % 16]
        # a float in [-8, 8) with a short significand, or an f16 pair
        return (self.next() & 0xC0FFE000) | 0x3E000000


def initial_state(seed):
    """Registers [reg][lane], uniforms u0..u15, memory bytes (same derivation as the Rust test)."""
    g = SplitMix(seed)
    regs = [[g.value32() for _ in range(32)] for _ in range(NUM_REGS)]
    for lane in range(32):
        regs[0][lane] = (regs[0][lane] & 0xFFFF0000) | (g.next() % 3)  # r0l: a small nesting counter
        regs[6][lane] = DEVICE_BASE + 4 * (g.next() % 8)  # r6_r7: a device address
        regs[7][lane] = 0
    uniforms = [g.value32() for _ in range(16)]
    mem = bytes(g.next() & 0xFF for _ in range(MEM_SIZE))
    return regs, uniforms, mem


EXECUTABLE = [
    'MovImm16InstructionDesc', 'MovImm32InstructionDesc', 'MovFromSrInstructionDesc', 'IAddInstructionDesc',
    'IMAddInstructionDesc', 'BitfieldInsertInstructionDesc', 'BitfieldExtractInstructionDesc',
    'ExtractInstructionDesc', 'ShlhiInstructionDesc', 'ShrhiInstructionDesc', 'ArithmeticShiftRightInstructionDesc',
    'ArithmeticShiftRightHighInstructionDesc', 'BitopInstructionDesc', 'BitReverseInstructionDesc',
    'PopCountInstructionDesc', 'FindFirstSetInstructionDesc', 'FMAdd32InstructionDesc', 'FMAdd16InstructionDesc',
    'FAdd32InstructionDesc', 'FAdd16InstructionDesc', 'FMul32InstructionDesc', 'FMul16InstructionDesc',
    'PopExecInstructionDesc', 'IfICmpInstructionDesc', 'IfFCmpInstructionDesc', 'WhileICmpInstructionDesc',
    'WhileFCmpInstructionDesc', 'ElseICmpInstructionDesc', 'ElseFCmpInstructionDesc', 'ICmpselInstructionDesc',
    'FCmpselInstructionDesc', 'ICmpBallotInstructionDesc', 'SimdShuffleInstructionDesc',
    'SimdShuffleDownInstructionDesc', 'SimdShuffleUpInstructionDesc', 'SimdShuffleRotateUpInstructionDesc',
    'SimdShuffleXorInstructionDesc', 'WaitInstructionDesc', 'DeviceLoadInstructionDesc',
]
descs = [d for d in ag.instruction_descriptors if type(d).__name__ in EXECUTABLE]
assert len(descs) == len(EXECUTABLE)

rng = random.Random(2024)
REG_FIELD_SUFFIXES = ('', 'x')


def random_instruction(d):
    widths = {name: size for start, size, name in d.fields}
    fields = {}
    for name, subs in d.merged_fields:
        width = sum(widths[s] for s, _ in subs)
        v = rng.getrandbits(width)
        # register numbers: keep most within the 8 allocated registers (16 halves)
        if name in ('D', 'A', 'B', 'C', 'X', 'Y', 'R') and rng.random() < 0.9:
            v = rng.randrange(16)
        if name in ('cc',) and rng.random() < 0.8:
            v = rng.choice([0, 1, 2, 4, 5, 6] if 'ICmp' in type(d).__name__ or 'icmp' in d.name else [0, 1, 2, 5, 6])
        fields[name] = v
    name = type(d).__name__
    if name == 'MovFromSrInstructionDesc':
        fields['SR'] = 80
    if name == 'DeviceLoadInstructionDesc':
        fields['A'] = 12
        fields['At'] = 0
        fields['Ot'] = 1
        fields['O'] = rng.randrange(0, 24)
        fields['F'] = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 13])
    if 'n' in fields and rng.random() < 0.7:
        fields['n'] = rng.randrange(0, 4)
    try:
        return d.patch_fields(d.bits, fields)
    except AssertionError:
        return None  # the fields contradict a constant bit of this row


def make_state(seed, exec_mode):
    regs, uniforms, mem = initial_state(seed)
    u = ag.Uniforms()
    for i, v in enumerate(uniforms):
        u.set_reg32(i, v)
    space = ag.AddressSpace()
    space.map(DEVICE_BASE - 1, MEM_SIZE + 1)
    for i, b in enumerate(mem):
        space.set_byte(DEVICE_BASE + i, b)
    cs = ag.CoreState(num_registers=NUM_REGS, uniforms=u, device_memory=space)
    for r in range(NUM_REGS):
        for lane in range(32):
            cs.set_reg32(r, lane, regs[r][lane])
    if exec_mode == 'r0l':
        cs.exec = [cs.get_reg16(0, t) == 0 for t in range(32)]
    return cs


def run(cs, code):
    p = 0
    while p < len(code):
        n = ag.opcode_to_number(code[p:])
        d = ag.get_instruction_descriptor(n)
        d.exec(n, cs)
        p += d.decode_size(n)


cases = int(sys.argv[1]) if len(sys.argv) > 1 else 300
out = []
seed = 1
made = 0
while made < cases:
    seed += 1
    exec_mode = 'r0l' if seed % 2 else 'all'
    code = b''
    length = rng.randrange(1, 7)
    attempts = 0
    while len(code) < 64 and attempts < 60 and length > 0:
        attempts += 1
        d = rng.choice(descs)
        n = random_instruction(d)
        if n is None:
            continue
        first = ag.get_instruction_descriptor(n)
        if first is not d:
            continue
        size = d.decode_size(n)
        word = bytes((n >> (8 * k)) & 0xFF for k in range(size))
        candidate = code + word
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                d.disassemble(n)
                run(make_state(seed, exec_mode), candidate)
        except Exception:
            continue
        code = candidate
        length -= 1
    if not code:
        continue
    cs = make_state(seed, exec_mode)
    with contextlib.redirect_stdout(io.StringIO()):
        run(cs, code)
    exec_bits = sum(1 << t for t in range(32) if cs.exec[t])
    out.append('case %d %s' % (seed, exec_mode))
    out.append('code ' + code.hex())
    out.append('exec %08x' % exec_bits)
    for r in range(NUM_REGS):
        out.append(' '.join('%08x' % cs.get_reg32(r, t) for t in range(32)))
    made += 1
print('\n'.join(out))
