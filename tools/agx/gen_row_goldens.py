#!/usr/bin/env python3
"""Per-row disassembly goldens: for every applegpu instruction descriptor (including the four that
`disassemble.py` never reaches because an earlier row matches their words first), random words of
that row decoded *by that row* (`descriptor.disassemble(n)`), written to corpus/agx/disasm_rows.txt as
`ROW<TAB>HEX<TAB>TEXT` (`!error` where applegpu raises). wavesim's `decode_as(row, word)` must agree.

Usage: APPLEGPU=/tmp/applegpu python3 tools/agx/gen_row_goldens.py > corpus/agx/disasm_rows.txt
"""
import contextlib
import io
import os
import random
import sys

sys.path.insert(0, os.environ['APPLEGPU'])
os.environ.pop('APPLEGPU_CRYPTIC', None)
import applegpu  # noqa: E402

rng = random.Random(34)
for index, d in enumerate(applegpu.instruction_descriptors):
    long_size = max(d.sizes)
    forms = [0, 1] if d.sizes[0] != d.sizes[1] else [None]
    for form in forms:
        for i in range(6):
            n = rng.getrandbits(long_size * 8)
            if i % 2:
                n &= rng.getrandbits(long_size * 8)
            if form is not None:
                n = (n & ~(1 << d.length_bit_pos)) | (form << d.length_bit_pos)
            n = (n & ~d.mask) | d.bits
            if not d.matches(n):
                continue
            size = d.decode_size(n)
            code = bytes((n >> (8 * k)) & 0xFF for k in range(size))
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    text = str(d.disassemble(n, pc=0))
            except Exception:
                text = '!error'
            print('%d\t%s\t%s' % (index, code.hex(), text))
