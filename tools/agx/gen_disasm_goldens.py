#!/usr/bin/env python3
"""Disassembly goldens: random valid words of every applegpu encoding (short and long forms), run through
applegpu's own disassembler (disassemble.py's `disassemble`, stdout captured), written to
corpus/agx/disasm_goldens.txt.

Format: a line `= HEX` (the instruction bytes), then exactly what disassemble.py printed for those bytes,
or the single line `!error` when applegpu raised while decoding them.

Usage: APPLEGPU=/tmp/applegpu python3 tools/agx/gen_disasm_goldens.py [count_per_form] > corpus/agx/disasm_goldens.txt
"""
import contextlib
import io
import os
import random
import sys

path = os.environ.get('APPLEGPU')
if not path:
    sys.exit('set APPLEGPU to an applegpu checkout')
os.environ.pop('APPLEGPU_CRYPTIC', None)
sys.path.insert(0, path)
import applegpu  # noqa: E402
import disassemble  # noqa: E402

count = int(sys.argv[1]) if len(sys.argv) > 1 else 24
rng = random.Random(12)
seen = set()
records = []


def emit(code):
    if code in seen:
        return
    seen.add(code)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            disassemble.disassemble(code)
        out = buf.getvalue()
    except Exception:
        out = '!error\n'
    records.append('= ' + code.hex() + '\n' + out)


for d in applegpu.instruction_descriptors:
    long_size = max(d.sizes)
    forms = [0, 1] if d.sizes[0] != d.sizes[1] else [None]
    for form in forms:
        for i in range(count):
            n = rng.getrandbits(long_size * 8)
            # Bias half the words towards small field values, where the interesting cases are.
            if i % 2:
                n &= rng.getrandbits(long_size * 8)
            if form is not None:
                n = (n & ~(1 << d.length_bit_pos)) | (form << d.length_bit_pos)
            n = (n & ~d.mask) | d.bits
            if not d.matches(n):
                continue
            size = d.decode_size(n)
            # the word is valid for this row; the disassembler decodes it with the first row that
            # matches, which is what the golden records.
            first = next(o for o in applegpu.instruction_descriptors if o.matches(n))
            size = first.decode_size(n)
            code = bytes((n >> (8 * k)) & 0xFF for k in range(size))
            emit(code)

sys.stdout.write(''.join(records))
