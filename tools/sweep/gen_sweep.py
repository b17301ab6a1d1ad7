#!/usr/bin/env python3
"""Generate golden files for the gfx11 (RDNA3 / gfx1100) disassembler sweep test.

For every opcode value of every gfx11 encoding format this script builds several
encodings with varied operand fields, lets LLVM 19 assemble them from raw
`.long` words and disassemble them with `llvm-objdump-19 -d --mcpu=gfx1100`,
and records objdump's text for each case in
`crates/wavesim-rdna3/tests/golden/sweep/<FORMAT>.txt`.

Only the Python 3 standard library is used.  The output is deterministic: all
"random" choices come from random.Random seeded with SEED and the format name.

Usage:
    python3 tools/sweep/gen_sweep.py                 # all formats
    python3 tools/sweep/gen_sweep.py --only VOP1 SMEM
    python3 tools/sweep/gen_sweep.py --out DIR       # write somewhere else

Environment overrides: LLVM_MC (default llvm-mc-19), LLVM_OBJDUMP
(default llvm-objdump-19).

Golden file format (see the README.md next to the golden files):
    line 1: a '#' comment saying how the file was generated
    then one block per case, each preceded by one empty line; each block has
    one line per instruction objdump printed for that case:
        WORDS<TAB>TEXT
    WORDS = the instruction's dwords as objdump prints them (upper-case hex,
    space separated), TEXT = objdump's instruction text without the trailing
    `// address: words` comment, without branch-target `<...>` annotations and
    `; Warning: ...` comments, and with trailing whitespace removed.

The layouts of the encodings (bit ranges, LSB = 0, dword 1 = bits 63..32 etc.)
are documented next to each Enc definition below; they follow LLVM's AMDGPU
TableGen files and are checked on every run (check_layouts) by encoding sample
instructions field by field and comparing with
`llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import OrderedDict

SEED = 0x5EED1100
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-19")
LLVM_OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-19")
MCPU = "gfx1100"
# -z (--disassemble-zeroes): without it objdump replaces any run of >= 8 zero
# bytes that starts at an instruction boundary by "...", which would hide the
# text of cases such as all-zero operand dwords.  With -z every byte is shown;
# output is otherwise identical to plain `-d`.
OBJDUMP_ARGS = ["-d", "-z", "--mcpu=" + MCPU]
# The wave64 spelling (VCC and lane masks as pairs, no VOPD, 4-VGPR WMMA accumulators).
WAVE64_ARGS = ["--mattr=+wavefrontsize64"]
MC_ARGS = ["-arch=amdgcn", "-mcpu=" + MCPU, "-filetype=obj"]



def set_mcpu(cpu):
    """Points every llvm-mc / llvm-objdump call at processor `cpu`."""
    global MCPU, OBJDUMP_ARGS, MC_ARGS
    MCPU = cpu
    OBJDUMP_ARGS = ["-d", "-z", "--mcpu=" + MCPU]
    MC_ARGS = ["-arch=amdgcn", "-mcpu=" + MCPU, "-filetype=obj"]


REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEFAULT_OUT = os.path.join(REPO_ROOT, "crates", "wavesim-rdna3", "tests", "golden", "sweep")

# ---------------------------------------------------------------------------
# Operand value pools (gfx11 operand encodings)
# ---------------------------------------------------------------------------
# 8/9-bit source operand codes:
#   0-105 s0..s105, 106 vcc_lo, 107 vcc_hi, 108-123 ttmp0..15, 124 null,
#   125 m0, 126 exec_lo, 127 exec_hi, 128 0, 129-192 1..64, 193-208 -1..-16,
#   233 DPP8, 234 DPP8+FI, 235-238 src_{shared,private}_{base,limit},
#   240 0.5, 241 -0.5, 242 1.0, 243 -1.0, 244 2.0, 245 -2.0, 246 4.0,
#   247 -4.0, 248 1/(2*pi), 250 DPP16, 251 vccz, 252 execz, 253 scc,
#   254 lds_direct, 255 literal, 256-511 v0..v255 (9-bit fields only).
NULL = 124
M0 = 125
VCC_LO = 106
VCC_HI = 107
EXEC_LO = 126
EXEC_HI = 127
TTMP0 = 108
LIT = 255
DPP16 = 0xFA
DPP8 = 0xE9
DPP8FI = 0xEA

SGPR_LO = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 15, 20, 33]
SGPR_HI = [100, 101, 102, 103, 104, 105]
SPECIAL = [VCC_LO, VCC_HI, NULL, M0, EXEC_LO, EXEC_HI]
TTMPS = list(range(108, 124))
INT_CONST = [128, 129, 130, 192, 193, 194, 208, 160]          # 0 1 2 64 -1 -2 -16 32
FLT_CONST = [240, 241, 242, 243, 244, 245, 246, 247, 248]     # 0.5 .. 1/(2pi)
MISC_SRC = [235, 236, 237, 238, 239, 249, 251, 252, 253, 254, 209, 220, 232]
VGPRS = [0, 1, 2, 3, 4, 5, 8, 16, 100, 127, 128, 200, 254, 255]

# 32-bit literal values: integer-looking and float-looking values, values that
# equal inline constants (objdump prints some of them specially), f16 and f64
# bit patterns.
INT_LITS = [0x12345678, 0x00004248, 0x00000041, 0xFFFFFFF0, 0x80000000,
            0x0000FFFF, 0x7FFFFFFF, 0x00001234, 0x00000040, 0xFFFFFFFF,
            0x00010000, 0x00003C00, 0xFFFF8000, 0x00000000, 0x0000FFC0]
FLT_LITS = [0x3F800001, 0x3E22F983, 0x3F800000, 0xBF800000, 0x40490FDB,
            0x00003800, 0x00003118, 0x3FC00000, 0x42F60000, 0xC2C80000,
            0x3E230000, 0x3FF00000, 0x40100000, 0x3FC45F30, 0xBE22F983,
            0x40800000, 0x3F000000, 0x7FC00000, 0x0000BC00, 0x3800BC00]
ALL_LITS = INT_LITS + FLT_LITS

SDST_POOL = SGPR_LO + SGPR_HI + SPECIAL + TTMPS[::3]
SSRC_POOL = SGPR_LO + SGPR_HI + SPECIAL + TTMPS[::3] + INT_CONST + FLT_CONST + MISC_SRC


def v(n):
    """9-bit source code of VGPR n."""
    return 256 + n


def pick(rng, pool):
    return pool[rng.randrange(len(pool))]


def src9_any(rng, allow_lit=True, allow_dpp=False):
    """A 9-bit VALU source drawn from every interesting category."""
    cat = rng.randrange(9)
    if cat == 0:
        return v(pick(rng, VGPRS))
    if cat == 1:
        return pick(rng, SGPR_LO + SGPR_HI)
    if cat == 2:
        return pick(rng, SPECIAL + TTMPS)
    if cat == 3:
        return pick(rng, INT_CONST)
    if cat == 4:
        return pick(rng, FLT_CONST)
    if cat == 5:
        return pick(rng, MISC_SRC)
    if cat == 6 and allow_lit:
        return LIT
    if cat == 7:
        return rng.randrange(512) if allow_dpp else v(rng.randrange(256))
    return v(rng.randrange(256))


# ---------------------------------------------------------------------------
# objdump driver
# ---------------------------------------------------------------------------
# objdump line: TAB text [padding] "// " address ": " words [" <target>"] [" ; Warning: ..."]
LINE_RE = re.compile(r"^\t(.*?)\s*// ([0-9A-Fa-f]+): ((?:[0-9A-F]{8})(?: [0-9A-F]{8})*)(.*)$")
TAIL_RE = re.compile(r"^(?:\s*<[^>]*>)?(?:\s*;(.*))?\s*$")
WARNINGS = {}  # format -> number of objdump lines carrying a "; Warning: ..." comment
SECTION_RE = re.compile(r"^Disassembly of section \.text\.case(\d+):$")


def run_objdump(cases, workdir, tag, extra_args=()):
    """Assemble `cases` (lists of dwords), disassemble, return per-case lines.

    Returns a list (one entry per case) of lists of (words_str, text).
    """
    asm_path = os.path.join(workdir, tag + ".s")
    obj_path = os.path.join(workdir, tag + ".o")
    with open(asm_path, "w") as f:
        for i, words in enumerate(cases):
            f.write('.section .text.case%d,"ax"\n' % i)
            f.write(".long " + ", ".join("0x%08X" % w for w in words) + "\n")
    subprocess.run([LLVM_MC] + MC_ARGS + [asm_path, "-o", obj_path], check=True)
    proc = subprocess.run([LLVM_OBJDUMP] + OBJDUMP_ARGS + list(extra_args) + [obj_path], check=True,
                          stdout=subprocess.PIPE, universal_newlines=True)
    result = [[] for _ in cases]
    cur = None
    for line in proc.stdout.splitlines():
        m = SECTION_RE.match(line)
        if m:
            cur = int(m.group(1))
            continue
        if cur is None or not line.startswith("\t"):
            continue
        m = LINE_RE.match(line)
        if not m:
            if line.strip() == "...":
                raise RuntimeError("objdump skipped zeroes in case %d: %r" % (cur, line))
            raise RuntimeError("cannot parse objdump line in case %d: %r" % (cur, line))
        text = m.group(1).rstrip()
        t = TAIL_RE.match(m.group(4))
        if not t:
            raise RuntimeError("cannot parse objdump line tail in case %d: %r" % (cur, line))
        if t.group(1) and not tag.endswith("_probe"):
            WARNINGS[tag] = WARNINGS.get(tag, 0) + 1
        result[cur].append((m.group(3), text))
    # Sanity check: every dword of every case is accounted for.
    for i, words in enumerate(cases):
        got = " ".join(w for w, _ in result[i]).split()
        want = ["%08X" % w for w in words]
        if got != want:
            raise RuntimeError("case %d of %s: objdump words %r != input %r" % (i, tag, got, want))
    os.remove(asm_path)
    os.remove(obj_path)
    return result



# ---------------------------------------------------------------------------
# Encodings: constant bits plus named fields at global bit offsets
# (bit 0 = LSB of dword 0, bit 32 = LSB of dword 1, ...)
# ---------------------------------------------------------------------------
class Enc:
    def __init__(self, ndw, const, fields):
        self.ndw = ndw
        self.const = const            # list of (lo, width, value)
        self.fields = fields          # name -> (lo, width)

    def encode(self, vals):
        x = 0
        for lo, w, val in self.const:
            x |= (val & ((1 << w) - 1)) << lo
        for k, val in vals.items():
            if k.startswith("_"):
                continue
            lo, w = self.fields[k]
            x |= (val & ((1 << w) - 1)) << lo
        return [(x >> (32 * i)) & 0xFFFFFFFF for i in range(self.ndw)]


def F(**kw):
    return kw


# SOP2: [31:30]=0b10 [29:23]=op [22:16]=sdst [15:8]=ssrc1 [7:0]=ssrc0
#   (op values 0x60-0x7F of the 7-bit field are the SOPK/SOP1/SOPC/SOPP prefixes)
E_SOP2 = Enc(1, [(30, 2, 0b10)], F(op=(23, 7), sdst=(16, 7), ssrc1=(8, 8), ssrc0=(0, 8)))
# SOPK: [31:28]=0b1011 [27:23]=op [22:16]=sdst [15:0]=simm16   (op 0x1D-0x1F = SOP1/SOPC/SOPP)
E_SOPK = Enc(1, [(28, 4, 0b1011)], F(op=(23, 5), sdst=(16, 7), simm16=(0, 16)))
# SOP1: [31:23]=0x17D [22:16]=sdst [15:8]=op [7:0]=ssrc0
E_SOP1 = Enc(1, [(23, 9, 0x17D)], F(sdst=(16, 7), op=(8, 8), ssrc0=(0, 8)))
# SOPC: [31:23]=0x17E [22:16]=op [15:8]=ssrc1 [7:0]=ssrc0
E_SOPC = Enc(1, [(23, 9, 0x17E)], F(op=(16, 7), ssrc1=(8, 8), ssrc0=(0, 8)))
# SOPP: [31:23]=0x17F [22:16]=op [15:0]=simm16
E_SOPP = Enc(1, [(23, 9, 0x17F)], F(op=(16, 7), simm16=(0, 16)))
# SMEM: dw0 [31:26]=0x3D [25:18]=op [17:15]=unused [14]=glc [13]=dlc [12:6]=sdata [5:0]=sbase(>>1)
#       dw1 [63:57]=soffset (7-bit SGPR code, 124 = null) [56:53]=unused [52:32]=offset (signed 21)
E_SMEM = Enc(2, [(26, 6, 0x3D)], F(op=(18, 8), junk0=(15, 3), glc=(14, 1), dlc=(13, 1), sdata=(6, 7),
                                   sbase=(0, 6), soffset=(57, 7), junk1=(53, 4), offset=(32, 21)))
# VOP1: [31:25]=0x3F [24:17]=vdst [16:9]=op [8:0]=src0
E_VOP1 = Enc(1, [(25, 7, 0x3F)], F(vdst=(17, 8), op=(9, 8), src0=(0, 9)))
# VOP2: [31]=0 [30:25]=op [24:17]=vdst [16:9]=vsrc1 [8:0]=src0   (op 0x3E/0x3F = VOPC/VOP1)
E_VOP2 = Enc(1, [], F(op=(25, 6), vdst=(17, 8), vsrc1=(9, 8), src0=(0, 9)))
# VOPC: [31:25]=0x3E [24:17]=op [16:9]=vsrc1 [8:0]=src0
E_VOPC = Enc(1, [(25, 7, 0x3E)], F(op=(17, 8), vsrc1=(9, 8), src0=(0, 9)))
# VOP3 / VOP3SD:
#   dw0 [31:26]=0x35 [25:16]=op [15]=clamp [14:11]=op_sel [10:8]=abs [7:0]=vdst
#       (VOP3SD: [14:8]=sdst, field "mid" here)
#   dw1 [63:61]=neg [60:59]=omod [58:50]=src2 [49:41]=src1 [40:32]=src0
#   op ranges: 0x000-0x0FF VOPC (v_cmp / v_cmpx as VOP3), 0x100-0x17F VOP2,
#   0x180-0x1FF VOP1, 0x200-0x3FF VOP3-only and VOP3SD.
E_VOP3 = Enc(2, [(26, 6, 0x35)], F(op=(16, 10), clamp=(15, 1), opsel=(11, 4), abs=(8, 3), mid=(8, 7),
                                   vdst=(0, 8), neg=(61, 3), omod=(59, 2), src2=(50, 9), src1=(41, 9),
                                   src0=(32, 9)))
# VOP3P:
#   dw0 [31:23]=0x198 (0xCC << 24, bit 23 = 0) [22:16]=op [15]=clamp [14]=op_sel_hi[2]
#       [13:11]=op_sel [10:8]=neg_hi [7:0]=vdst
#   dw1 [63:61]=neg_lo [60:59]=op_sel_hi[1:0] [58:50]=src2 [49:41]=src1 [40:32]=src0
E_VOP3P = Enc(2, [(23, 9, 0x198)], F(op=(16, 7), clamp=(15, 1), opsel_hi2=(14, 1), opsel=(11, 3),
                                     neg_hi=(8, 3), vdst=(0, 8), neg_lo=(61, 3), opsel_hi=(59, 2),
                                     src2=(50, 9), src1=(41, 9), src0=(32, 9)))
# VOPD (dual issue):
#   dw0 [31:26]=0x32 [25:22]=opx [21:17]=opy [16:9]=vsrcx1 [8:0]=srcx0
#   dw1 [63:56]=vdstx [55:49]=vdsty>>1 [48:41]=vsrcy1 [40:32]=srcy0
#   (vdsty's low bit is implied: the opposite of vdstx's low bit)
E_VOPD = Enc(2, [(26, 6, 0x32)], F(opx=(22, 4), opy=(17, 5), vsrcx1=(9, 8), srcx0=(0, 9),
                                   vdstx=(56, 8), vdsty=(49, 7), vsrcy1=(41, 8), srcy0=(32, 9)))
# VINTERP:
#   dw0 [31:24]=0xCD [22:16]=op [15]=clamp [14:11]=op_sel [10:8]=wait_exp [7:0]=vdst
#   dw1 [63:61]=neg [60:59]=unused [58:50]=src2 [49:41]=src1 [40:32]=src0
E_VINTERP = Enc(2, [(24, 8, 0xCD)], F(op=(16, 7), clamp=(15, 1), opsel=(11, 4), waitexp=(8, 3),
                                      vdst=(0, 8), neg=(61, 3), junk=(59, 2), src2=(50, 9),
                                      src1=(41, 9), src0=(32, 9)))
# LDSDIR: [31:24]=0xCE [23:22]=unused [21:20]=op [19:16]=wait_vdst [15:10]=attr [9:8]=attr_chan [7:0]=vdst
E_LDSDIR = Enc(1, [(24, 8, 0xCE)], F(junk=(22, 2), op=(20, 2), wait=(16, 4), attr=(10, 6), chan=(8, 2),
                                     vdst=(0, 8)))
# DS: dw0 [31:26]=0x36 [25:18]=op [17]=gds [16]=unused [15:8]=offset1 [7:0]=offset0
#     dw1 [63:56]=vdst [55:48]=data1 [47:40]=data0 [39:32]=addr
E_DS = Enc(2, [(26, 6, 0x36)], F(op=(18, 8), gds=(17, 1), junk=(16, 1), offset1=(8, 8), offset0=(0, 8),
                                 vdst=(56, 8), data1=(48, 8), data0=(40, 8), addr=(32, 8)))
# MUBUF: dw0 [31:26]=0x38 [25:18]=op [17:15]=unused [14]=glc [13]=dlc [12]=slc [11:0]=offset
#        dw1 [63:56]=soffset [55]=idxen [54]=offen [53]=tfe [52:48]=srsrc(>>2) [47:40]=vdata [39:32]=vaddr
_BUF_DW1 = F(soffset=(56, 8), idxen=(55, 1), offen=(54, 1), tfe=(53, 1), srsrc=(48, 5), vdata=(40, 8),
             vaddr=(32, 8))
E_MUBUF = Enc(2, [(26, 6, 0x38)], dict(F(op=(18, 8), junk=(15, 3), glc=(14, 1), dlc=(13, 1), slc=(12, 1),
                                         offset=(0, 12)), **_BUF_DW1))
# MTBUF: dw0 [31:26]=0x3A [25:19]=format [18:15]=op [14]=glc [13]=dlc [12]=slc [11:0]=offset; dw1 as MUBUF
E_MTBUF = Enc(2, [(26, 6, 0x3A)], dict(F(format=(19, 7), op=(15, 4), glc=(14, 1), dlc=(13, 1), slc=(12, 1),
                                         offset=(0, 12)), **_BUF_DW1))
# MIMG: dw0 [31:26]=0x3C [25:18]=op [17]=d16 [16]=a16 [15]=r128 [14]=glc [13]=dlc [12]=slc
#           [11:8]=dmask [7]=unorm [6:5]=unused [4:2]=dim [1:0]=nsa (number of extra address dwords)
#       dw1 [63]=unused [62:58]=ssamp(>>2) [57:55]=unused [54]=lwe [53]=tfe [52:48]=srsrc(>>2)
#           [47:40]=vdata [39:32]=vaddr
#       NSA dwords follow: one byte per additional address VGPR, 4 per dword.
E_MIMG = Enc(2, [(26, 6, 0x3C)], F(op=(18, 8), d16=(17, 1), a16=(16, 1), r128=(15, 1), glc=(14, 1),
                                   dlc=(13, 1), slc=(12, 1), dmask=(8, 4), unorm=(7, 1), junk0=(5, 2),
                                   dim=(2, 3), nsa=(0, 2), junk1=(63, 1), ssamp=(58, 5), junk2=(55, 3),
                                   lwe=(54, 1), tfe=(53, 1), srsrc=(48, 5), vdata=(40, 8), vaddr=(32, 8)))
# EXP: dw0 [31:26]=0x3E [25:14]=unused [13]=row_en [12]=unused (vm before gfx11) [11]=done
#          [10]=unused (compr before gfx11) [9:4]=target [3:0]=en
#      dw1 [63:56]=vsrc3 [55:48]=vsrc2 [47:40]=vsrc1 [39:32]=vsrc0
E_EXP = Enc(2, [(26, 6, 0x3E)], F(junk=(14, 12), row_en=(13, 1), vm=(12, 1), done=(11, 1), compr=(10, 1),
                                  target=(4, 6), en=(0, 4), vsrc3=(56, 8), vsrc2=(48, 8), vsrc1=(40, 8),
                                  vsrc0=(32, 8)))
# FLAT / GLOBAL / SCRATCH:
#   dw0 [31:26]=0x37 [25]=unused [24:18]=op [17:16]=seg (0 flat, 1 scratch, 2 global, 3 -)
#       [15]=slc [14]=glc [13]=dlc [12:0]=offset (signed 13-bit)
#   dw1 [63:56]=vdst [55]=sve (scratch: VGPR address enable) [54:48]=saddr (124 = off)
#       [47:40]=data [39:32]=addr
E_FLAT = Enc(2, [(26, 6, 0x37)], F(junk=(25, 1), op=(18, 7), seg=(16, 2), slc=(15, 1), glc=(14, 1),
                                   dlc=(13, 1), offset=(0, 13), vdst=(56, 8), sve=(55, 1), saddr=(48, 7),
                                   data=(40, 8), addr=(32, 8)))

# DPP16 dword (src0 field = 0xFA):
#   [31:28]=row_mask [27:24]=bank_mask [23]=src1_abs [22]=src1_neg [21]=src0_abs [20]=src0_neg
#   [19]=bound_ctrl [18]=fi [17]=unused [16:8]=dpp_ctrl [7:0]=src0 VGPR
# DPP8 dword (src0 field = 0xE9, or 0xEA for fi:1): [31:8] = 8 x 3-bit lane selects, [7:0]=src0 VGPR
# dpp_ctrl: 0x000-0x0FF quad_perm, 0x101-0x10F row_shl, 0x111-0x11F row_shr,
# 0x121-0x12F row_ror, 0x140 row_mirror, 0x141 row_half_mirror, 0x150-0x15F row_share,
# 0x160-0x16F row_xmask; the other values are not valid on gfx11.
DPP_CTRLS = [0x000, 0x0E4, 0x01B, 0x039, 0x0FF, 0x101, 0x10F, 0x111, 0x118, 0x11F, 0x121,
             0x12F, 0x140, 0x141, 0x150, 0x15F, 0x160, 0x16F, 0x130, 0x134, 0x138, 0x13C,
             0x142, 0x143, 0x100, 0x110, 0x120, 0x148, 0x170, 0x1FF]


def dpp16_dword(src0, ctrl, row_mask=0xF, bank_mask=0xF, bc=0, fi=0, mods=0, junk=0):
    return (row_mask << 28) | (bank_mask << 24) | (mods << 20) | (bc << 19) | (fi << 18) | \
        (junk << 17) | (ctrl << 8) | src0


def dpp8_dword(src0, sel):
    return (sel << 8) | src0


# ---------------------------------------------------------------------------
# Format specification and the generic generator
# ---------------------------------------------------------------------------
PROBE_LIT = 0x3F800001


class Spec:
    """How to sweep one format.

    ops:          list of opcode keys; opfields(op) gives the field values for a key.
    base:         field values of a plain, typical encoding (used for probing).
    probe_fields: [(field, neutral value)].  For every op the probe finds the
                  smallest set of these fields that must hold their neutral value
                  for objdump to decode the base encoding (e.g. src2 of a 2-source
                  VOP3 op must be 0).  Profiles are then encoded with those fields
                  neutral, except profiles marked _raw.
    probe_tail:   dwords appended to the base encoding while probing (DPP control).
    lit_srcs:     fields in which the value 255 selects a 32-bit literal.
    dpp_src:      src0 field of a VALU format: a DPP marker there (0xFA/0xE9/0xEA)
                  gets a random DPP dword appended (non-DPP formats only).
    profiles:     function (rng, op) -> list of dicts of field values; keys
                  starting with '_' are: _lit (literal value), _tail (dwords
                  appended after the encoding: DPP control, NSA addresses),
                  _raw (do not apply the probed neutral fields).
    invalid_keep: number of profiles used for ops that no probe decodes
                  (plus the _raw ones).
    fixup:        function (vals, neutral set) adjusting a non-_raw profile to the
                  probed operand count (clears modifier bits of absent sources).
    probe_bases:  list of field overrides of `base` the probe tries in turn (the
                  first is normally {}): opcodes that only decode with some fixed
                  field values (the gds bit of ds_gws_*, r128/unorm/dmask of
                  image_bvh*) are found with a later entry, whose overrides are
                  then applied to that opcode's non-_raw profiles too.
    alt_probe:    {field: (probe value, pool)}: when the probe neutralised the
                  field, try the probe value too; if that decodes cleanly the
                  field is an SGPR-only operand (e.g. the carry-in / mask src2 of
                  v_add_co_ci_u32_e64 / v_cndmask_b32_e64) and profiles take
                  values from pool instead of the neutral value.
    """

    def __init__(self, name, enc, ops, base, profiles, opfields=None, probe_fields=(), probe_tail=(),
                 lit_srcs=(), dpp_src=None, invalid_keep=4, fixup=None, alt_probe=None,
                 probe_bases=None):
        self.name = name
        self.enc = enc
        self.ops = ops
        self.base = base
        self.profiles = profiles
        self.opfields = opfields or (lambda op: {"op": op})
        self.probe_fields = list(probe_fields)
        self.probe_tail = list(probe_tail)
        self.lit_srcs = list(lit_srcs)
        self.dpp_src = dpp_src
        self.invalid_keep = invalid_keep
        self.fixup = fixup
        self.alt_probe = alt_probe or {}
        self.probe_bases = probe_bases or [{}]


def subsets(items):
    out = [()]
    for k in range(1, len(items) + 1):
        out.extend(_combinations(items, k))
    return out


def _combinations(items, k):
    if k == 0:
        return [()]
    if len(items) < k:
        return []
    first, rest = items[0], items[1:]
    return [(first,) + c for c in _combinations(rest, k - 1)] + _combinations(rest, k)


def probe(spec, workdir):
    """op -> (neutral field set or None, takes_literal, SGPR-only fields, base overrides)."""
    neutral = dict(spec.probe_fields)
    sets = subsets([f for f, _ in spec.probe_fields])
    cases, keys = [], []
    for op in spec.ops:
        for b, over in enumerate(spec.probe_bases):
            for s in sets:
                vals = dict(spec.base)
                vals.update(over)
                vals.update(spec.opfields(op))
                for f in s:
                    vals[f] = neutral[f]
                cases.append(spec.enc.encode(vals) + spec.probe_tail + [PROBE_LIT])
                keys.append((op, s, b))
    res = run_objdump(cases, workdir, spec.name + "_probe")
    info = {}
    need = spec.enc.ndw + len(spec.probe_tail)
    # First choice: the smallest neutral set giving a clean decode; fallback:
    # one that decodes only with an inline "/*Invalid ...*/" comment.
    for clean in (True, False):
        for (op, s, b), lines in zip(keys, res):
            if op in info:
                continue
            words, text = lines[0]
            n = len(words.split())
            if not text.startswith(".long") and n >= need and (not clean or "/*" not in text):
                info[op] = (s, n > need, b)
    for op in spec.ops:
        info.setdefault(op, (None, False, 0))
    # SGPR-only operands among the neutralised fields
    alt_cases, alt_keys = [], []
    for op in spec.ops:
        nset = info[op][0]
        for f, (val, _) in spec.alt_probe.items():
            if nset and f in nset:
                vals = dict(spec.base)
                vals.update(spec.probe_bases[info[op][2]])
                vals.update(spec.opfields(op))
                for g in nset:
                    vals[g] = neutral[g]
                vals[f] = val
                alt_cases.append(spec.enc.encode(vals) + spec.probe_tail + [PROBE_LIT])
                alt_keys.append((op, f))
    alt = {op: set() for op in spec.ops}
    if alt_cases:
        for (op, f), lines in zip(alt_keys, run_objdump(alt_cases, workdir, spec.name + "_alt_probe")):
            text = lines[0][1]
            if not text.startswith(".long") and "/*" not in text:
                alt[op].add(f)
    return {op: (info[op][0], info[op][1], alt[op], spec.probe_bases[info[op][2]]) for op in spec.ops}


def generate(spec, rng, workdir):
    info = probe(spec, workdir)
    neutral = dict(spec.probe_fields)
    cases, seen = [], set()
    for op in spec.ops:
        nset, takes_lit, altset, over = info[op]
        profs = spec.profiles(rng, op)
        if nset is None:
            raw = [p for p in profs if p.get("_raw")]
            profs = [p for p in profs if not p.get("_raw")][:spec.invalid_keep] + raw[:1]
        for p in profs:
            vals = dict(p)
            if not p.get("_raw"):
                vals.update(over)
            vals.update(spec.opfields(op))
            if nset and not p.get("_raw"):
                for f in nset:
                    vals[f] = pick(rng, spec.alt_probe[f][1]) if f in altset else neutral[f]
                if spec.fixup:
                    spec.fixup(vals, nset)
            words = spec.enc.encode(vals) + list(vals.get("_tail", []))
            if spec.dpp_src and (vals.get(spec.dpp_src, 0) & 0x1FF) in (DPP16, DPP8, DPP8FI):
                words.append(rng.getrandbits(32))
            if takes_lit or any((vals.get(f, 0) & 0x1FF) == LIT for f in spec.lit_srcs):
                words.append(vals["_lit"] if "_lit" in vals else lit_pick(rng))
            key = tuple(words)
            if key in seen:
                continue
            seen.add(key)
            cases.append(words)
    return cases, info


def lit_pick(rng, kind=None):
    if kind == "int":
        return pick(rng, INT_LITS)
    if kind == "flt":
        return pick(rng, FLT_LITS)
    return pick(rng, ALL_LITS)


# ---------------------------------------------------------------------------
# Profiles (operand variations) per format
# ---------------------------------------------------------------------------
def hwreg(hid, off=0, size=32):
    return hid | (off << 6) | ((size - 1) << 11)


def p_sop2(rng, op):
    R = rng.randrange
    return [
        dict(sdst=5, ssrc0=1, ssrc1=2),
        dict(sdst=100, ssrc0=102, ssrc1=104),
        dict(sdst=VCC_LO, ssrc0=EXEC_LO, ssrc1=VCC_LO),
        dict(sdst=NULL, ssrc0=M0, ssrc1=TTMP0 + 4),
        dict(sdst=pick(rng, TTMPS[::2]), ssrc0=pick(rng, INT_CONST), ssrc1=pick(rng, FLT_CONST)),
        dict(sdst=pick(rng, SGPR_LO), ssrc0=LIT, ssrc1=pick(rng, SGPR_LO + SGPR_HI), _lit=lit_pick(rng, "int")),
        dict(sdst=pick(rng, SGPR_LO), ssrc0=pick(rng, SGPR_LO), ssrc1=LIT, _lit=lit_pick(rng, "flt")),
        dict(sdst=7, ssrc0=5, ssrc1=pick(rng, MISC_SRC)),
        dict(sdst=EXEC_LO, ssrc0=LIT, ssrc1=LIT),
        dict(sdst=R(128), ssrc0=R(256), ssrc1=R(256), _raw=True),
    ]


SOPK_IMMS = [0x0000, 0x0001, 0x7FFF, 0x8000, 0xFFFF, 0x1234, 0xFFFE, 0x0040,
             hwreg(1), hwreg(2), hwreg(3), hwreg(1, 3, 5), hwreg(4), hwreg(5, 0, 16),
             hwreg(6), hwreg(7), hwreg(15), hwreg(18), hwreg(19), hwreg(20), hwreg(21),
             hwreg(22), hwreg(23), hwreg(24), hwreg(25), hwreg(26), hwreg(29), hwreg(30),
             hwreg(63, 31, 1), hwreg(2, 10, 22), 0x3F]
SOPK_SDSTS = [5, 100, VCC_LO, NULL, M0, EXEC_LO, TTMP0 + 4, 4, 105, 0, 127]


def p_sopk(rng, op):
    out = [dict(sdst=SOPK_SDSTS[i % len(SOPK_SDSTS)], simm16=imm) for i, imm in enumerate(SOPK_IMMS)]
    out += [dict(sdst=rng.randrange(128), simm16=rng.getrandbits(16)) for _ in range(2)]
    out += [dict(sdst=rng.randrange(128), simm16=rng.getrandbits(16), _raw=True)]
    return out


def p_sop1(rng, op):
    R = rng.randrange
    return [
        dict(sdst=5, ssrc0=1),
        dict(sdst=100, ssrc0=104),
        dict(sdst=VCC_LO, ssrc0=EXEC_LO),
        dict(sdst=M0, ssrc0=NULL),
        dict(sdst=NULL, ssrc0=M0),
        dict(sdst=pick(rng, TTMPS[::2]), ssrc0=pick(rng, INT_CONST)),
        dict(sdst=pick(rng, SGPR_LO), ssrc0=pick(rng, FLT_CONST)),
        dict(sdst=pick(rng, SGPR_LO + SGPR_HI), ssrc0=LIT, _lit=lit_pick(rng, "int")),
        dict(sdst=pick(rng, SGPR_LO), ssrc0=LIT, _lit=lit_pick(rng, "flt")),
        dict(sdst=7, ssrc0=pick(rng, MISC_SRC + [VCC_HI, EXEC_HI, 101])),
        dict(sdst=R(128), ssrc0=R(256), _raw=True),
    ]


def p_sopc(rng, op):
    R = rng.randrange
    return [
        dict(ssrc0=1, ssrc1=2),
        dict(ssrc0=100, ssrc1=104),
        dict(ssrc0=VCC_LO, ssrc1=EXEC_LO),
        dict(ssrc0=M0, ssrc1=NULL),
        dict(ssrc0=pick(rng, TTMPS), ssrc1=pick(rng, INT_CONST)),
        dict(ssrc0=pick(rng, FLT_CONST), ssrc1=pick(rng, SGPR_LO)),
        dict(ssrc0=LIT, ssrc1=pick(rng, SGPR_LO + SGPR_HI)),
        dict(ssrc0=pick(rng, SGPR_LO), ssrc1=LIT),
        dict(ssrc0=pick(rng, MISC_SRC), ssrc1=7),
        dict(ssrc0=R(256), ssrc1=R(256), _raw=True),
    ]


SOPP_IMMS = [
    0x0000, 0x0001, 0x0003, 0x0004, 0x003F, 0xFFFF, 0xFFFE, 0xFFC0, 0x8000, 0x7FFF, 0x1234,
    # s_waitcnt: vmcnt [15:10], lgkmcnt [9:4], expcnt [2:0]
    0xFC07, 0x0007, 0xFC00, 0x03F7, 0x0407, 0xFC0F, 0x03F0, 0xFFF7, 0x0C17, 0xFFF8, 0x0008,
    # s_delay_alu: instid0 [3:0], instskip [6:4], instid1 [10:7]
    0x0091, 0x05A3, 0x0405, 0x000B, 0x0102, 0x07FF, 0x0009, 0x00A4, 0x0380, 0x0800,
    # s_sendmsg / s_sendmsghalt: msg [7:0], op [10:8], stream [9:8]/[13:12] depending on msg
    0x0002, 0x0005, 0x0006, 0x0008, 0x0009, 0x000A, 0x000F, 0x0010, 0x0022, 0x0033, 0x0080,
    0x0083, 0x0084, 0x0085, 0x0122, 0x0202, 0x0313, 0x00FF,
    # s_waitcnt_depctr / s_clause / s_set_inst_prefetch_distance / s_wait_event
    0xFFE3, 0x0FFF, 0xE01F, 0x0021,
]


def p_sopp(rng, op):
    # every op gets all interesting immediates plus random ones
    out = [dict(simm16=i) for i in SOPP_IMMS]
    out += [dict(simm16=rng.getrandbits(16)) for _ in range(2)]
    out += [dict(simm16=rng.getrandbits(16), _raw=True), dict(simm16=pick(rng, [1, 0xFFFF, 0x3F]), _raw=True)]
    return out


def p_smem(rng, op):
    R = rng.randrange
    return [
        dict(sdata=5, sbase=1, offset=0x1234, soffset=NULL),
        dict(sdata=100, sbase=50, offset=0, soffset=7, glc=1),
        dict(sdata=VCC_LO, sbase=53, offset=0xFFFFF, soffset=M0, dlc=1),
        dict(sdata=TTMP0 + 4, sbase=56, offset=-0x100000, soffset=NULL, glc=1, dlc=1),
        dict(sdata=8, sbase=R(53), offset=-1, soffset=pick(rng, SGPR_LO + SGPR_HI)),
        dict(sdata=NULL, sbase=0, offset=R(1 << 21), soffset=NULL),
        dict(sdata=EXEC_LO, sbase=2, offset=4, soffset=0, glc=1),
        dict(sdata=pick(rng, [12, 16, 20, 24, 40, 96, 11]), sbase=pick(rng, [4, 10, 20, 63]),
             offset=pick(rng, [0x10, 0x100, 0xFFFFC, 0x1FFFF0]), soffset=pick(rng, [NULL, 3, M0, 105])),
        dict(sdata=R(128), sbase=R(64), offset=R(1 << 21), soffset=R(128), glc=R(2), dlc=R(2)),
        dict(sdata=R(128), sbase=R(64), offset=R(1 << 21), soffset=R(128), glc=R(2), dlc=R(2),
             junk0=R(1, 8), junk1=R(1, 16), _raw=True),
    ]


def p_valu32(rng, op, with_vdst=True, with_vsrc1=True):
    """VOP1 / VOP2 / VOPC operand profiles."""
    R = rng.randrange
    rows = [
        (1, v(2), 3, None),
        (255, 5, 255, None),
        (0, pick(rng, SPECIAL), 1, None),
        (10, pick(rng, INT_CONST), 11, None),
        (11, pick(rng, FLT_CONST), 12, None),
        (12, LIT, 13, lit_pick(rng, "int")),
        (13, LIT, 14, lit_pick(rng, "flt")),
        (20, pick(rng, TTMPS + SGPR_HI), 200, None),
        (4, pick(rng, [v(6), v(7), 100, 101, VCC_LO, EXEC_LO]), 8, None),
        (R(256), pick(rng, MISC_SRC), R(256), None),
        (R(256), src9_any(rng, allow_dpp=True), R(256), None),
        (R(256), src9_any(rng, allow_dpp=True), R(256), "raw"),
    ]
    out = []
    for vdst, s0, s1, lit in rows:
        d = dict(src0=s0)
        if with_vdst:
            d["vdst"] = vdst
        if with_vsrc1:
            d["vsrc1"] = s1
        if lit == "raw":
            d["_raw"] = True
        elif lit is not None:
            d["_lit"] = lit
        out.append(d)
    return out


def p_vop3(rng, op):
    R = rng.randrange
    return [
        dict(vdst=1, src0=v(2), src1=v(3), src2=v(4)),
        dict(vdst=255, src0=5, src1=v(255), src2=100),
        dict(vdst=6, src0=v(7), src1=v(8), src2=v(9), abs=7, neg=7),
        dict(vdst=7, src0=v(8), src1=v(9), src2=v(10), abs=R(1, 8)),
        dict(vdst=8, src0=v(9), src1=v(10), src2=v(11), neg=R(1, 8)),
        dict(vdst=9, src0=v(10), src1=pick(rng, SGPR_LO), src2=v(11), clamp=1),
        dict(vdst=10, src0=v(11), src1=pick(rng, SGPR_LO), src2=v(12), clamp=R(2), omod=R(1, 4), neg=R(8)),
        dict(vdst=14, src0=v(15), src1=v(16), src2=v(17), opsel=R(1, 16), abs=R(8)),
        dict(vdst=18, src0=pick(rng, INT_CONST), src1=pick(rng, FLT_CONST), src2=pick(rng, INT_CONST)),
        dict(vdst=20, src0=LIT, src1=v(21), src2=pick(rng, [LIT, v(22)]), _lit=lit_pick(rng, "int")),
        dict(vdst=24, src0=v(25), src1=LIT, src2=v(26), neg=R(8), _lit=lit_pick(rng, "flt")),
        dict(vdst=28, src0=pick(rng, SPECIAL + TTMPS), src1=pick(rng, FLT_CONST + MISC_SRC), src2=v(29),
             mid=pick(rng, [VCC_LO, 10, NULL, 101])),
        dict(vdst=pick(rng, [VCC_LO, EXEC_LO, NULL, 10, 100, TTMP0 + 2]), src0=v(30),
             src1=pick(rng, [v(31), M0, EXEC_HI, 248]), src2=pick(rng, [v(32), 130])),
        dict(vdst=R(256), src0=src9_any(rng), src1=src9_any(rng), src2=src9_any(rng), abs=R(8), neg=R(8),
             clamp=R(2), omod=R(4), opsel=R(16)),
        dict(vdst=R(256), src0=src9_any(rng, allow_dpp=True), src1=src9_any(rng), src2=src9_any(rng),
             abs=R(8), neg=R(8), clamp=R(2), omod=R(4), opsel=R(16), _raw=True),
    ]


def vop3p_fields(vdst, s0, s1, s2, opsel=0, opsel_hi=7, neg_lo=0, neg_hi=0, clamp=0):
    return dict(vdst=vdst, src0=s0, src1=s1, src2=s2, opsel=opsel, opsel_hi2=(opsel_hi >> 2) & 1,
                opsel_hi=opsel_hi & 3, neg_lo=neg_lo, neg_hi=neg_hi, clamp=clamp)


def p_vop3p(rng, op):
    R = rng.randrange
    out = [
        vop3p_fields(1, v(2), v(3), v(4)),
        vop3p_fields(5, v(6), v(7), v(8), opsel=R(1, 8), opsel_hi=R(8)),
        vop3p_fields(9, v(10), v(11), v(12), neg_lo=7, neg_hi=7),
        vop3p_fields(13, pick(rng, SGPR_LO), pick(rng, SGPR_HI), v(14), clamp=1, neg_lo=R(8)),
        vop3p_fields(15, pick(rng, INT_CONST), pick(rng, INT_CONST), v(16), opsel_hi=0),
        vop3p_fields(17, pick(rng, FLT_CONST), v(18), pick(rng, FLT_CONST), opsel=R(8)),
        vop3p_fields(19, LIT, v(20), pick(rng, [LIT, v(21)])),
        vop3p_fields(255, v(255), v(16), v(24), opsel_hi=3),
        vop3p_fields(32, v(40), v(48), v(32), opsel_hi=0),
        vop3p_fields(R(256), src9_any(rng), src9_any(rng), src9_any(rng), R(8), R(8), R(8), R(8), R(2)),
        vop3p_fields(R(256), src9_any(rng, allow_dpp=True), src9_any(rng), src9_any(rng), R(8), R(8),
                     R(8), R(8), R(2)),
    ]
    out[-1]["_raw"] = True
    return out


def p_vopd(rng, op):
    R = rng.randrange
    return [
        dict(vdstx=0, srcx0=v(1), vsrcx1=2, vdsty=1, srcy0=v(4), vsrcy1=5),
        dict(vdstx=255, srcx0=pick(rng, SGPR_LO + SGPR_HI + SPECIAL), vsrcx1=R(256), vdsty=127,
             srcy0=pick(rng, INT_CONST + FLT_CONST), vsrcy1=254),
        dict(vdstx=R(256), srcx0=pick(rng, [LIT, src9_any(rng)]), vsrcx1=R(256), vdsty=R(128),
             srcy0=pick(rng, [LIT, src9_any(rng)]), vsrcy1=R(256)),
        dict(vdstx=R(256), srcx0=src9_any(rng), vsrcx1=R(256), vdsty=R(128), srcy0=src9_any(rng),
             vsrcy1=R(256), _raw=True),
    ]


def p_vinterp(rng, op):
    R = rng.randrange
    return [
        dict(vdst=1, src0=v(2), src1=v(3), src2=v(4)),
        dict(vdst=255, src0=v(255), src1=v(254), src2=v(253), waitexp=7),
        dict(vdst=5, src0=v(6), src1=v(7), src2=v(8), neg=7, clamp=1, waitexp=R(8)),
        dict(vdst=9, src0=v(10), src1=v(11), src2=v(12), opsel=R(1, 16)),
        dict(vdst=13, src0=pick(rng, SGPR_LO), src1=v(14), src2=pick(rng, INT_CONST)),
        dict(vdst=R(256), src0=v(R(256)), src1=v(R(256)), src2=v(R(256)), waitexp=R(8), opsel=R(16),
             neg=R(8), clamp=R(2)),
        dict(vdst=R(256), src0=src9_any(rng, False), src1=src9_any(rng, False), src2=src9_any(rng, False),
             waitexp=R(8), opsel=R(16), neg=R(8), clamp=R(2), junk=R(4), _raw=True),
    ]


def p_ldsdir(rng, op):
    R = rng.randrange
    out = [dict(vdst=vd, attr=a, chan=c, wait=w)
           for vd, a, c, w in [(1, 0, 0, 0), (255, 63, 3, 15), (5, 1, 1, 1), (0, 32, 2, 3), (2, 31, 3, 7)]]
    out += [dict(vdst=R(256), attr=R(64), chan=R(4), wait=R(16)) for _ in range(18)]
    out += [dict(vdst=R(256), attr=R(64), chan=R(4), wait=R(16), _raw=True) for _ in range(2)]
    out += [dict(vdst=R(256), attr=R(64), chan=R(4), wait=R(16), junk=R(1, 4), _raw=True)]
    return out


def p_ds(rng, op):
    R = rng.randrange
    return [
        dict(addr=1, data0=2, data1=3, vdst=4),
        dict(addr=255, data0=255, data1=255, vdst=255, offset0=0xFF, offset1=0xFF, gds=1),
        dict(addr=0, data0=10, data1=12, vdst=16, offset0=0x10, offset1=0x20),
        dict(addr=5, data0=6, data1=7, vdst=8, offset0=0xFF, offset1=0xFF),
        dict(addr=250, data0=252, data1=254, vdst=248, offset0=R(256), offset1=R(256), gds=1),
        dict(addr=R(256), data0=R(256), data1=R(256), vdst=R(256), offset0=R(256), offset1=R(256)),
        dict(addr=R(256), data0=R(256), data1=R(256), vdst=R(256), offset0=R(256), offset1=R(256),
             gds=R(2)),
        dict(addr=R(256), data0=R(256), data1=R(256), vdst=R(256), offset0=R(256), offset1=R(256),
             gds=R(2), _raw=True),
        dict(addr=R(256), data0=R(256), data1=R(256), vdst=R(256), offset0=R(256), offset1=R(256),
             gds=R(2), junk=1, _raw=True),
    ]


def p_buf(rng, op, mtbuf=False):
    R = rng.randrange
    out = [
        dict(offset=0, vaddr=0, vdata=1, srsrc=2, soffset=3),
        dict(offset=4095, vaddr=2, vdata=1, srsrc=2, soffset=3, offen=1, glc=1),
        dict(offset=12, vaddr=2, vdata=5, srsrc=1, soffset=M0, idxen=1, slc=1, dlc=1),
        dict(offset=R(4096), vaddr=2, vdata=8, srsrc=3, soffset=NULL, idxen=1, offen=1, tfe=1),
        dict(offset=1, vaddr=255, vdata=255, srsrc=31, soffset=128, glc=1, slc=1, dlc=1),
        dict(offset=R(4096), vaddr=R(256), vdata=R(256), srsrc=28, soffset=101, offen=1, tfe=1),
        dict(offset=R(4096), vaddr=R(256), vdata=R(256), srsrc=R(32),
             soffset=pick(rng, SGPR_LO + SPECIAL + INT_CONST + FLT_CONST + [LIT, 253]),
             glc=R(2), dlc=R(2), slc=R(2), tfe=R(2), offen=R(2), idxen=R(2)),
        dict(offset=R(4096), vaddr=R(256), vdata=R(256), srsrc=R(32), soffset=R(256),
             glc=R(2), dlc=R(2), slc=R(2), tfe=R(2), offen=R(2), idxen=R(2), _raw=True),
    ]
    if mtbuf:
        for d in out:
            d["format"] = pick(rng, MTBUF_FORMATS) if R(2) else R(128)
    else:
        out[-1]["junk"] = R(1, 8)
    return out


MTBUF_FORMATS = [0, 1, 2, 14, 22, 32, 49, 50, 63, 64, 76, 77, 78, 90, 127]


def p_mtbuf(rng, op):
    # only 16 opcodes: three rounds of the buffer profiles with varied formats
    return p_buf(rng, op, True) + p_buf(rng, op, True) + p_buf(rng, op, True)


def nsa_dwords(regs):
    words = []
    for i in range(0, len(regs), 4):
        chunk = regs[i:i + 4]
        words.append(sum(b << (8 * j) for j, b in enumerate(chunk)))
    return words


# Fixed fields of image_bvh_intersect_ray / image_bvh64_intersect_ray (ops 0x19, 0x1A): dmask
# 0xf, unorm, r128, dim 1D, no d16/tfe/lwe/cache bits. Only a16 and the registers vary.
BVH_FIXED = dict(r128=1, unorm=1, dmask=0xF, dim=0, d16=0, tfe=0, lwe=0, glc=0, slc=0, dlc=0)
BVH_OPS = (0x19, 0x1A)


def p_bvh(rng, op):
    R = rng.randrange
    # NSA address operands: node pointer (2 VGPRs for bvh64), ray extent, then 3-VGPR tuples
    # (origin, direction, inverse direction; a16 packs the last two into two tuples). Tuples
    # must stay below v256: llvm-objdump 19 crashes on NSA tuples that run past v255.
    def nsa(a16):
        return nsa_dwords([R(255), R(253), R(253), R(253) if not a16 else 0])
    out = [
        dict(vdata=4, vaddr=9, srsrc=1),
        dict(vdata=4, vaddr=9, srsrc=1, a16=1),
        dict(vdata=252, vaddr=244, srsrc=25),
        dict(vdata=253, vaddr=9, srsrc=1),
        dict(vdata=0, vaddr=245, srsrc=27, a16=1),
        dict(vdata=0, vaddr=248, srsrc=30),
        dict(vdata=8, vaddr=248, srsrc=30, a16=1),
        dict(vdata=R(253), vaddr=R(240), srsrc=26),
        dict(vdata=R(253), vaddr=R(240), srsrc=31, a16=1),
        dict(vdata=4, vaddr=9, srsrc=1, nsa=1, _tail=nsa_dwords([10, 11, 14, 17])),
        dict(vdata=4, vaddr=9, srsrc=1, nsa=1, a16=1, _tail=nsa_dwords([10, 11, 14, 0])),
        dict(vdata=R(253), vaddr=R(254), srsrc=R(32), nsa=1, _tail=nsa(0)),
        dict(vdata=R(253), vaddr=R(254), srsrc=R(32), nsa=1, a16=1, _tail=nsa(1)),
        dict(BVH_FIXED, vdata=4, vaddr=9, srsrc=1, ssamp=R(1, 32), _raw=True),
        # Fixed fields off: do not decode.
        dict(BVH_FIXED, vdata=4, vaddr=9, srsrc=1, r128=0, _raw=True),
        dict(BVH_FIXED, vdata=4, vaddr=9, srsrc=1, dmask=0x7, _raw=True),
        dict(BVH_FIXED, vdata=4, vaddr=9, srsrc=1, glc=1, _raw=True),
        dict(BVH_FIXED, vdata=4, vaddr=9, srsrc=1, unorm=0, a16=1, _raw=True),
        dict(BVH_FIXED, vdata=4, vaddr=9, srsrc=1, dim=1, _raw=True),
        dict(BVH_FIXED, vdata=4, vaddr=9, srsrc=1, tfe=1, _raw=True),
        dict(BVH_FIXED, vdata=4, vaddr=9, srsrc=1, d16=1, _raw=True),
    ]
    return out


def p_mimg_widths(rng, op):
    """Variations aimed at LLVM's choice of data/address widths: sampling ops on MSAA
    dimensions (no variant fits: default widths), d16 + tfe (gather4 has no 3-dword form),
    register tuples running past v255 (default widths, or no decode if even those do not fit),
    non-sequential addresses needing more than five VGPRs (the fifth becomes a tuple),
    atomic data sizes, descriptors outside the SGPR/TTMP tuples."""
    R = rng.randrange
    nsa_tail = lambda: nsa_dwords([R(250) for _ in range(3)] + [pick(rng, [R(250), 250, 252, 255])])
    return [
        dict(vdata=12, vaddr=30, srsrc=2, ssamp=4, dmask=pick(rng, [0x1, 0x3, 0x7, 0xF]), dim=pick(rng, [6, 7]),
             a16=R(2)),
        dict(vdata=12, vaddr=30, srsrc=2, ssamp=4, dmask=pick(rng, [0x1, 0x3, 0x7, 0xF]), dim=R(8), d16=1, tfe=1),
        dict(vdata=pick(rng, [252, 253, 254, 255]), vaddr=30, srsrc=2, ssamp=4, dmask=0xF, dim=R(8),
             tfe=R(2)),
        dict(vdata=12, vaddr=pick(rng, [248, 250, 252, 253, 254, 255]), srsrc=2, ssamp=4, dmask=0x3, dim=R(8),
             a16=R(2)),
        dict(vdata=12, vaddr=30, srsrc=2, ssamp=4, dmask=pick(rng, [0x3, 0xF]), dim=pick(rng, [2, 3, 5, 7]),
             nsa=1, a16=R(2), _tail=nsa_tail()),
        dict(vdata=12, vaddr=30, srsrc=pick(rng, [24, 25, 26, 27, 29, 30, 31]),
             ssamp=pick(rng, [25, 26, 27, 30, 31]), dmask=R(16), dim=R(8), tfe=R(2)),
    ]


def p_mimg(rng, op):
    R = rng.randrange
    if op in BVH_OPS:
        return p_bvh(rng, op)
    return [
        dict(vdata=1, vaddr=5, srsrc=2, ssamp=4, dmask=0x1, dim=0),
        dict(vdata=1, vaddr=5, srsrc=2, ssamp=4, dmask=0xF, dim=1, unorm=1, glc=1),
        dict(vdata=10, vaddr=20, srsrc=3, ssamp=5, dmask=0x7, dim=2, slc=1, dlc=1, r128=1),
        dict(vdata=255, vaddr=250, srsrc=4, ssamp=6, dmask=0x3, dim=3, a16=1, d16=1),
        dict(vdata=0, vaddr=8, srsrc=1, ssamp=7, dmask=0x1, dim=5, tfe=1, lwe=1),
        dict(vdata=1, vaddr=5, srsrc=2, ssamp=4, dmask=0xF, dim=1, nsa=1, _tail=nsa_dwords([7, 8, 9, 10])),
        dict(vdata=12, vaddr=30, srsrc=2, ssamp=4, dmask=pick(rng, [0x1, 0x3, 0xF, 0x8]),
             dim=pick(rng, [2, 5, 6, 7]), nsa=2, a16=R(2), _tail=nsa_dwords([R(256) for _ in range(8)])),
        dict(vdata=R(256), vaddr=R(256), srsrc=R(32), ssamp=R(32), dmask=R(16), dim=R(8), unorm=R(2),
             glc=R(2), dlc=R(2), slc=R(2), r128=R(2), a16=R(2), d16=R(2), tfe=R(2), lwe=R(2)),
        dict(vdata=R(256), vaddr=R(256), srsrc=R(32), ssamp=R(32), dmask=R(16), dim=R(8), nsa=R(1, 4),
             unorm=R(2), glc=R(2), dlc=R(2), slc=R(2), r128=R(2), a16=R(2), d16=R(2), tfe=R(2),
             lwe=R(2), _tail=nsa_dwords([R(256) for _ in range(12)]), _raw=True),
        dict(vdata=R(256), vaddr=R(256), srsrc=R(32), ssamp=R(32), dmask=R(16), dim=R(8), unorm=R(2),
             glc=R(2), dlc=R(2), slc=R(2), r128=R(2), a16=R(2), d16=R(2), tfe=R(2), lwe=R(2),
             junk0=R(4), junk1=R(2), junk2=R(8), _raw=True),
    ] + p_mimg_widths(rng, op)


def p_exp(rng, op):
    R = rng.randrange
    regs = lambda: dict(vsrc0=R(256), vsrc1=R(256), vsrc2=R(256), vsrc3=R(256))
    return [
        dict(en=0xF, vsrc0=1, vsrc1=2, vsrc2=3, vsrc3=4),
        dict(en=0x1, done=1),
        dict(en=0x5, vsrc0=5, vsrc1=6, vsrc2=7, vsrc3=8, row_en=1),
        dict(en=0x0, done=1),
        dict(en=0xF, vsrc0=255, vsrc1=254, vsrc2=253, vsrc3=252, done=1, row_en=1),
        dict(en=R(16), done=R(2), row_en=R(2), **regs()),
        dict(en=R(16), done=R(2), row_en=R(2), **regs()),
        dict(en=R(16), done=R(2), row_en=R(2), compr=R(2), vm=R(2), junk=R(1, 1 << 12), _raw=True, **regs()),
    ]


def p_flat(rng, op):
    R = rng.randrange
    seg = op[0]
    return [
        dict(addr=2, data=4, vdst=1, saddr=NULL),
        dict(addr=2, data=4, vdst=1, saddr=4, offset=4095, glc=1, sve=1 if seg == 1 else 0),
        dict(addr=255, data=255, vdst=255, saddr=NULL, offset=-4096, slc=1, dlc=1),
        dict(addr=10, data=12, vdst=14, saddr=pick(rng, [0, 2, 100, VCC_LO, 104, TTMP0 + 2]), offset=-1,
             sve=R(2)),
        dict(addr=R(256), data=R(256), vdst=R(256), saddr=pick(rng, [M0, EXEC_LO, 5, 127, 101]),
             offset=R(8192)),
        dict(addr=R(256), data=R(256), vdst=R(256), saddr=R(128), offset=R(8192), glc=R(2), slc=R(2),
             dlc=R(2), sve=R(2), junk=R(2), _raw=True),
    ]


# ---- DPP profiles -----------------------------------------------------------
def dpp_tails(rng, mods_mask=0xF):
    """(src0 marker, function src0-vgpr -> DPP dword) x 5: three DPP16, DPP8, DPP8 with fi.

    mods_mask limits the neg/abs bits of the second one (VOP1 has no src1)."""
    R = rng.randrange
    return [
        (DPP16, lambda s: dpp16_dword(s, R(256))),
        (DPP16, lambda s: dpp16_dword(s, pick(rng, DPP_CTRLS), R(16), R(16), R(2), R(2), R(16) & mods_mask)),
        (DPP16, lambda s: dpp16_dword(s, R(512), R(16), R(16), R(2), R(2), R(16), R(2))),
        (DPP8, lambda s: dpp8_dword(s, rng.getrandbits(24))),
        (DPP8FI, lambda s: dpp8_dword(s, pick(rng, [0xFAC688, 0, rng.getrandbits(24)]))),
    ]


def p_vop1_dpp(rng, op):
    out = []
    regs = [(1, 2), (255, 255), (5, 6), (7, 8), (rng.randrange(256), rng.randrange(256))]
    for (mark, mk), (vdst, s0) in zip(dpp_tails(rng, 0x3), regs):
        out.append(dict(vdst=vdst, src0=mark, _tail=[mk(s0)]))
    out[2]["_raw"] = True
    return out


def p_vop2_dpp(rng, op):
    out = []
    for rep in range(2):
        R = rng.randrange
        regs = [(1, 2, 3), (255, 255, 254), (5, 6, 7), (8, 9, 10), (R(256), R(256), R(256))]
        for (mark, mk), (vdst, s0, s1) in zip(dpp_tails(rng), regs):
            out.append(dict(vdst=vdst, src0=mark, vsrc1=s1, _tail=[mk(s0)]))
    out[2]["_raw"] = True
    return out


def p_vopc_dpp(rng, op):
    out = []
    regs = [(2, 3), (255, 254), (6, 7), (9, 10), (rng.randrange(256), rng.randrange(256))]
    for (mark, mk), (s0, s1) in zip(dpp_tails(rng), regs):
        out.append(dict(src0=mark, vsrc1=s1, _tail=[mk(s0)]))
    out[2]["_raw"] = True
    return out


def p_vop3_dpp(rng, op):
    R = rng.randrange
    t = dpp_tails(rng)
    return [
        dict(vdst=1, src0=t[0][0], src1=v(3), src2=v(4), _tail=[t[0][1](2)]),
        dict(vdst=5, src0=t[1][0], src1=pick(rng, [v(7), 7, 129]), src2=v(8), abs=R(8), neg=R(8),
             clamp=R(2), opsel=R(16), _tail=[t[1][1](6)]),
        dict(vdst=pick(rng, [9, VCC_LO, 255]), src0=t[3][0], src1=v(11), src2=v(12), mid=R(128), omod=R(4),
             _tail=[t[3][1](10)]),
        dict(vdst=R(256), src0=t[4][0], src1=src9_any(rng, False), src2=src9_any(rng, False), abs=R(8),
             neg=R(8), clamp=R(2), omod=R(4), opsel=R(16), _tail=[t[4][1](R(256))]),
        dict(vdst=R(256), src0=t[2][0], src1=src9_any(rng, False), src2=src9_any(rng, False), abs=R(8),
             neg=R(8), clamp=R(2), omod=R(4), opsel=R(16), _tail=[t[2][1](R(256))], _raw=True),
    ]


def p_vop3p_dpp(rng, op):
    R = rng.randrange
    t = dpp_tails(rng)
    out = [
        dict(vop3p_fields(1, t[0][0], v(3), v(4)), _tail=[t[0][1](2)]),
        dict(vop3p_fields(5, t[1][0], v(7), v(8), R(8), R(8), R(8), R(8), R(2)), _tail=[t[1][1](6)]),
        dict(vop3p_fields(9, t[3][0], v(11), v(12)), _tail=[t[3][1](10)]),
        dict(vop3p_fields(R(256), t[4][0], src9_any(rng, False), src9_any(rng, False), R(8), R(8), R(8),
                          R(8), R(2)), _tail=[t[4][1](R(256))]),
        dict(vop3p_fields(R(256), t[2][0], src9_any(rng, False), src9_any(rng, False), R(8), R(8), R(8),
                          R(8), R(2)), _tail=[t[2][1](R(256))], _raw=True),
    ]
    return out


S9 = ("src0", "src1", "src2")


def clear_absent(mod_fields):
    """fixup: clear bit i of each modifier field when source i is absent."""
    def fix(vals, nset):
        for i, src in enumerate(S9):
            if src in nset:
                for f in mod_fields:
                    if f in vals:
                        vals[f] &= ~(1 << i)
    return fix


# ---------------------------------------------------------------------------
# The formats
# ---------------------------------------------------------------------------
_DPP_PROBE = [dpp16_dword(2, 0x0E4)]
SGPR_SRC2 = {"src2": (VCC_LO, [VCC_LO, VCC_LO, 10, 100, 105, NULL, TTMP0 + 4, EXEC_LO, 7, 128])}

SPECS = [
    Spec("SOP1", E_SOP1, list(range(256)), dict(sdst=4, ssrc0=2), p_sop1,
         probe_fields=[("sdst", 0), ("ssrc0", 0)], lit_srcs=["ssrc0"]),
    Spec("SOP2", E_SOP2, list(range(0x60)), dict(sdst=4, ssrc0=2, ssrc1=6), p_sop2,
         probe_fields=[("sdst", 0), ("ssrc0", 0), ("ssrc1", 0)], lit_srcs=["ssrc0", "ssrc1"]),
    Spec("SOPK", E_SOPK, list(range(0x1D)), dict(sdst=4, simm16=hwreg(1)), p_sopk,
         probe_fields=[("sdst", 0)]),
    Spec("SOPC", E_SOPC, list(range(128)), dict(ssrc0=2, ssrc1=4), p_sopc,
         probe_fields=[("ssrc0", 0), ("ssrc1", 0)], lit_srcs=["ssrc0", "ssrc1"]),
    Spec("SOPP", E_SOPP, list(range(128)), dict(simm16=3), p_sopp, probe_fields=[("simm16", 0)]),
    Spec("SMEM", E_SMEM, list(range(256)), dict(sdata=4, sbase=1, offset=0x10, soffset=7), p_smem,
         probe_fields=[("sdata", 0), ("sbase", 0), ("soffset", NULL), ("offset", 0)]),
    Spec("VOP1", E_VOP1, list(range(256)), dict(vdst=1, src0=v(2)),
         lambda r, o: p_valu32(r, o, True, False),
         probe_fields=[("vdst", 0), ("src0", 0)], lit_srcs=["src0"], dpp_src="src0"),
    Spec("VOP2", E_VOP2, list(range(0x3E)), dict(vdst=1, src0=v(2), vsrc1=3),
         lambda r, o: p_valu32(r, o) + p_valu32(r, o)[-3:],
         probe_fields=[("vdst", 0), ("src0", 0), ("vsrc1", 0)], lit_srcs=["src0"], dpp_src="src0"),
    Spec("VOPC", E_VOPC, list(range(256)), dict(src0=v(2), vsrc1=3),
         lambda r, o: p_valu32(r, o, False, True),
         probe_fields=[("src0", 0), ("vsrc1", 0)], lit_srcs=["src0"], dpp_src="src0"),
    Spec("VOP3", E_VOP3, list(range(1024)), dict(vdst=1, src0=v(2), src1=v(3), src2=v(4)), p_vop3,
         probe_fields=[("vdst", 0), ("src0", 0), ("src1", 0), ("src2", 0)], lit_srcs=S9, dpp_src="src0",
         invalid_keep=3, fixup=clear_absent(("abs", "neg", "opsel")), alt_probe=SGPR_SRC2),
    Spec("VOP3P", E_VOP3P, list(range(128)),
         vop3p_fields(1, v(2), v(3), v(4)), p_vop3p,
         probe_fields=[("vdst", 0), ("src0", 0), ("src1", 0), ("src2", 0)], lit_srcs=S9, dpp_src="src0",
         fixup=clear_absent(("neg_lo", "neg_hi", "opsel"))),
    Spec("VOPD", E_VOPD, [(x, y) for x in range(16) for y in range(32)],
         dict(vdstx=0, srcx0=v(1), vsrcx1=2, vdsty=1, srcy0=v(4), vsrcy1=5), p_vopd,
         opfields=lambda o: {"opx": o[0], "opy": o[1]},
         probe_fields=[("vsrcx1", 0), ("vsrcy1", 0)], lit_srcs=["srcx0", "srcy0"], invalid_keep=2),
    Spec("VINTERP", E_VINTERP, list(range(128)), dict(vdst=1, src0=v(2), src1=v(3), src2=v(4)), p_vinterp,
         probe_fields=[("vdst", 0), ("src0", 0), ("src1", 0), ("src2", 0)], invalid_keep=3),
    Spec("LDSDIR", E_LDSDIR, list(range(4)), dict(vdst=1, attr=1, chan=1, wait=1), p_ldsdir,
         probe_fields=[("attr", 0), ("chan", 0)], invalid_keep=12),
    Spec("DS", E_DS, list(range(256)), dict(addr=1, data0=2, data1=3, vdst=4), p_ds,
         probe_fields=[("addr", 0), ("data0", 0), ("data1", 0), ("vdst", 0)],
         probe_bases=[{}, dict(gds=1)]),
    Spec("MUBUF", E_MUBUF, list(range(256)), dict(vaddr=2, vdata=1, srsrc=2, soffset=3, offen=1),
         p_buf, probe_fields=[("vaddr", 0), ("vdata", 0), ("srsrc", 0), ("soffset", 0), ("offen", 0)],
         lit_srcs=["soffset"]),
    Spec("MTBUF", E_MTBUF, list(range(16)),
         dict(vaddr=2, vdata=1, srsrc=2, soffset=3, offen=1, format=22), p_mtbuf,
         probe_fields=[("vaddr", 0), ("vdata", 0), ("srsrc", 0), ("soffset", 0), ("offen", 0)],
         lit_srcs=["soffset"]),
    Spec("MIMG", E_MIMG, list(range(256)), dict(vdata=1, vaddr=5, srsrc=2, ssamp=4, dmask=0xF, dim=1),
         p_mimg, probe_fields=[("ssamp", 0), ("vaddr", 0), ("vdata", 0), ("dmask", 1)],
         probe_bases=[{}, BVH_FIXED]),
    Spec("EXP", E_EXP, list(range(64)), dict(en=0xF, vsrc0=1, vsrc1=2, vsrc2=3, vsrc3=4), p_exp,
         opfields=lambda t: {"target": t}, invalid_keep=8),
    Spec("FLAT", E_FLAT, [(s, o) for s in range(4) for o in range(128)],
         dict(addr=2, data=4, vdst=1, saddr=4), p_flat,
         opfields=lambda o: {"seg": o[0], "op": o[1]},
         probe_fields=[("addr", 0), ("data", 0), ("vdst", 0), ("saddr", NULL)], invalid_keep=3),
    Spec("VOP1_DPP", E_VOP1, list(range(256)), dict(vdst=1, src0=DPP16), p_vop1_dpp,
         probe_fields=[("vdst", 0)], probe_tail=_DPP_PROBE, invalid_keep=3),
    Spec("VOP2_DPP", E_VOP2, list(range(0x3E)), dict(vdst=1, src0=DPP16, vsrc1=3), p_vop2_dpp,
         probe_fields=[("vdst", 0), ("vsrc1", 0)], probe_tail=_DPP_PROBE),
    Spec("VOPC_DPP", E_VOPC, list(range(256)), dict(src0=DPP16, vsrc1=3), p_vopc_dpp,
         probe_fields=[("vsrc1", 0)], probe_tail=_DPP_PROBE, invalid_keep=3),
    Spec("VOP3_DPP", E_VOP3, list(range(1024)), dict(vdst=1, src0=DPP16, src1=v(3), src2=v(4)), p_vop3_dpp,
         probe_fields=[("vdst", 0), ("src1", 0), ("src2", 0)], probe_tail=_DPP_PROBE, invalid_keep=2,
         fixup=clear_absent(("abs", "neg", "opsel")), alt_probe=SGPR_SRC2),
    Spec("VOP3P_DPP", E_VOP3P, list(range(128)), vop3p_fields(1, DPP16, v(3), v(4)), p_vop3p_dpp,
         probe_fields=[("vdst", 0), ("src1", 0), ("src2", 0)], probe_tail=_DPP_PROBE, invalid_keep=2,
         fixup=clear_absent(("neg_lo", "neg_hi", "opsel"))),
]
FORMATS = OrderedDict((s.name, s) for s in SPECS)



# ---------------------------------------------------------------------------
# Layout self-check: encode sample instructions field by field and compare
# with what llvm-mc assembles.
# ---------------------------------------------------------------------------
LAYOUT_SAMPLES = [
    ("s_add_u32 s5, s1, s104", E_SOP2, dict(op=0, sdst=5, ssrc0=1, ssrc1=104)),
    ("s_movk_i32 s5, 0x1234", E_SOPK, dict(op=0, sdst=5, simm16=0x1234)),
    ("s_mov_b32 m0, null", E_SOP1, dict(op=0, sdst=M0, ssrc0=NULL)),
    ("s_cmp_eq_u32 s1, exec_lo", E_SOPC, dict(op=6, ssrc0=1, ssrc1=EXEC_LO)),
    ("s_branch 3", E_SOPP, dict(op=0x20, simm16=3)),
    ("s_load_b32 s5, s[2:3], s7 offset:0x12 glc dlc", E_SMEM,
     dict(op=0, sdata=5, sbase=1, soffset=7, offset=0x12, glc=1, dlc=1)),
    ("v_mov_b32_e32 v1, s2", E_VOP1, dict(op=1, vdst=1, src0=2)),
    ("v_add_f32_e32 v1, v2, v3", E_VOP2, dict(op=3, vdst=1, src0=v(2), vsrc1=3)),
    ("v_cmp_lt_f32_e32 vcc_lo, v2, v3", E_VOPC, dict(op=0x11, src0=v(2), vsrc1=3)),
    ("v_fma_f32 v1, -|v2|, v3, |v4| clamp mul:4", E_VOP3,
     dict(op=0x213, vdst=1, src0=v(2), src1=v(3), src2=v(4), abs=5, neg=1, clamp=1, omod=2)),
    ("v_add_co_u32 v1, s5, v2, v3", E_VOP3, dict(op=0x300, vdst=1, mid=5, src0=v(2), src1=v(3))),
    ("v_pk_fma_f16 v1, v2, v3, v4 op_sel:[1,0,1] op_sel_hi:[0,1,0] neg_lo:[1,0,1] neg_hi:[0,1,1] clamp",
     E_VOP3P, dict(op=0x0E, vdst=1, src0=v(2), src1=v(3), src2=v(4), opsel=5, opsel_hi2=0, opsel_hi=2,
                   neg_lo=5, neg_hi=6, clamp=1)),
    ("v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5", E_VOPD,
     dict(opx=3, opy=4, vdstx=0, srcx0=v(1), vsrcx1=2, vdsty=1, srcy0=v(4), vsrcy1=5)),
    ("v_interp_p10_f32 v1, -v2, v3, v4 clamp wait_exp:7", E_VINTERP,
     dict(op=0, vdst=1, src0=v(2), src1=v(3), src2=v(4), neg=1, clamp=1, waitexp=7)),
    ("lds_param_load v1, attr32.w wait_vdst:3", E_LDSDIR, dict(op=0, vdst=1, attr=32, chan=3, wait=3)),
    ("ds_store_2addr_b32 v1, v2, v3 offset0:3 offset1:200 gds", E_DS,
     dict(op=0x0E, addr=1, data0=2, data1=3, offset0=3, offset1=200, gds=1)),
    ("buffer_load_b32 v1, v2, s[8:11], s3 idxen offset:4095 glc slc dlc", E_MUBUF,
     dict(op=0x14, vdata=1, vaddr=2, srsrc=2, soffset=3, idxen=1, offset=4095, glc=1, slc=1, dlc=1)),
    ("buffer_load_b32 v[1:2], v2, s[8:11], m0 offen tfe", E_MUBUF,
     dict(op=0x14, vdata=1, vaddr=2, srsrc=2, soffset=M0, offen=1, tfe=1)),
    ("tbuffer_load_format_x v1, v2, s[4:7], s3 format:[BUF_FMT_32_FLOAT] idxen offset:12 glc", E_MTBUF,
     dict(op=0, format=22, vdata=1, vaddr=2, srsrc=1, soffset=3, idxen=1, offset=12, glc=1)),
    ("image_sample v[1:2], v[5:6], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm glc slc dlc r128 d16",
     E_MIMG, dict(op=0x1B, vdata=1, vaddr=5, srsrc=2, ssamp=4, dmask=0xF, dim=1, unorm=1, glc=1, slc=1,
                  dlc=1, r128=1, d16=1)),
    ("image_load v[1:5], v5, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D a16 tfe", E_MIMG,
     dict(op=0, vdata=1, vaddr=5, srsrc=2, dmask=0xF, dim=1, a16=1, tfe=1)),
    ("exp pos0 v1, off, v3, off done row_en", E_EXP,
     dict(target=12, en=5, vsrc0=1, vsrc2=3, done=1, row_en=1)),
    ("global_load_b32 v1, v2, s[4:5] offset:-4096 glc slc dlc", E_FLAT,
     dict(op=0x14, seg=2, vdst=1, addr=2, saddr=4, offset=-4096, glc=1, slc=1, dlc=1)),
    ("scratch_load_b32 v1, v2, s4 offset:12", E_FLAT,
     dict(op=0x14, seg=1, vdst=1, addr=2, saddr=4, sve=1, offset=12)),
]


def check_layouts(workdir):
    """Fail loudly if an Enc layout disagrees with llvm-mc."""
    path = os.path.join(workdir, "layouts.s")
    with open(path, "w") as f:
        for text, _, _ in LAYOUT_SAMPLES:
            f.write(text + "\n")
    out = subprocess.run([LLVM_MC, "-arch=amdgcn", "-mcpu=" + MCPU, "-show-encoding", path],
                         stdout=subprocess.PIPE, universal_newlines=True, check=True).stdout
    encs = re.findall(r"encoding: \[([^\]]*)\]", out)
    if len(encs) != len(LAYOUT_SAMPLES):
        raise RuntimeError("llvm-mc did not assemble every layout sample:\n" + out)
    for (text, enc, vals), e in zip(LAYOUT_SAMPLES, encs):
        b = [int(x, 16) for x in e.split(",")]
        want = [int.from_bytes(bytes(b[i:i + 4]), "little") for i in range(0, len(b), 4)]
        got = enc.encode(vals)
        if got != want[:len(got)]:
            raise RuntimeError("layout mismatch for %r: ours %s, llvm-mc %s"
                               % (text, ["%08X" % w for w in got], ["%08X" % w for w in want]))


def tool_version(tool):
    out = subprocess.run([tool, "--version"], stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout
    for line in out.splitlines():
        if "version" in line.lower():
            return line.strip()
    return "unknown version"


def mnemonic(text):
    if "::" in text:
        return " :: ".join(part.split()[0] for part in text.split("::") if part.split())
    return text.split()[0] if text.split() else ""


def target_sweep(cpu, out, names):
    """The goldens of another gfx11 processor (RDNA3.5 gfx1150) next to the gfx1100 ones.

    Per format: when the cases generated for `cpu` (its own opcode probe) are the gfx1100 cases,
    OUT/FORMAT.txt lists only the cases whose `cpu` text differs from the gfx1100 text (first
    line `# diff ...`; a checker substitutes them, matched by words, into ../sweep/FORMAT.txt);
    when the probe finds other opcodes (the SALU float formats) the case lists differ and the
    file lists every case (first line `# full ...`)."""
    os.makedirs(out, exist_ok=True)
    ver = tool_version(LLVM_OBJDUMP)
    with tempfile.TemporaryDirectory(prefix="gen_sweep_") as workdir:
        set_mcpu(cpu)
        check_layouts(workdir)
        for name in names:
            spec = FORMATS[name]
            set_mcpu("gfx1100")
            base_cases, _ = generate(spec, random.Random("%d:%s" % (SEED, name)), workdir)
            set_mcpu(cpu)
            cases, _ = generate(spec, random.Random("%d:%s" % (SEED, name)), workdir)
            results = run_objdump(cases, workdir, name)
            full = cases != base_cases
            if full:
                keep = results
            else:
                set_mcpu("gfx1100")
                base = run_objdump(cases, workdir, name + "_base")
                set_mcpu(cpu)
                keep = [r for r, b in zip(results, base) if r != b]
            kind = "full" if full else "diff"
            header = ("# %s: generated by tools/sweep/gen_sweep.py --mcpu %s (seed 0x%X): %s "
                      "text from `%s -d -z --mcpu=%s` (%s). Format as in ../sweep."
                      % (kind, cpu, SEED,
                         "every case" if full else
                         "the cases of ../sweep whose text differs from gfx1100,",
                         LLVM_OBJDUMP, cpu, ver))
            with open(os.path.join(out, name + ".txt"), "w") as f:
                f.write(header + "\n")
                for lines in keep:
                    f.write("\n")
                    for words, text in lines:
                        f.write("%s\t%s\n" % (words, text))
            if full:
                # The wave64 text of these cases where it differs (lane masks as pairs, ...).
                res64 = run_objdump(cases, workdir, name + "_wave64", WAVE64_ARGS)
                out64 = out.rstrip("/") + "_wave64"
                os.makedirs(out64, exist_ok=True)
                with open(os.path.join(out64, name + ".txt"), "w") as f:
                    f.write("# generated by tools/sweep/gen_sweep.py --mcpu %s: the cases of "
                            "../sweep_%s/%s.txt whose text differs with `--mattr=+wavefrontsize64` "
                            "(%s). Format as in ../sweep.\n" % (cpu, cpu, name, ver))
                    for lines, lines64 in zip(results, res64):
                        if lines64 != lines:
                            f.write("\n")
                            for words, text in lines64:
                                f.write("%s\t%s\n" % (words, text))
            print("%-10s %s: %d of %d cases" % (name, kind, len(keep), len(cases)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default: %(default)s)")
    ap.add_argument("--only", nargs="*", help="generate only these formats")
    ap.add_argument("--out64", help="output directory of the wave64 cases (default: OUT_wave64)")
    ap.add_argument("--mcpu", default="gfx1100",
                    help="another gfx11 processor (gfx1150): write its goldens to OUT_MCPU "
                         "(see target_sweep)")
    args = ap.parse_args()
    if args.mcpu != "gfx1100":
        out = args.out if args.out != DEFAULT_OUT else DEFAULT_OUT + "_" + args.mcpu
        target_sweep(args.mcpu, out, list(FORMATS) if not args.only else args.only)
        return
    out64 = args.out64 or (args.out.rstrip("/") + "_wave64")

    names = list(FORMATS) if not args.only else args.only
    for n in names:
        if n not in FORMATS:
            sys.exit("unknown format %s (known: %s)" % (n, ", ".join(FORMATS)))
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(out64, exist_ok=True)
    header64 = ("# Generated by tools/sweep/gen_sweep.py (seed 0x%X): the cases of ../sweep whose text "
                "differs in wave64, from `%s %s %s` (%s). Format as in ../sweep."
                % (SEED, LLVM_OBJDUMP, " ".join(OBJDUMP_ARGS), " ".join(WAVE64_ARGS),
                   tool_version(LLVM_OBJDUMP)))
    header = ("# Generated by tools/sweep/gen_sweep.py (seed 0x%X): words assembled with `%s %s`, "
              "text from `%s %s` (%s). Format: WORDS<TAB>TEXT per instruction, "
              "blank line before each case."
              % (SEED, LLVM_MC, " ".join(MC_ARGS), LLVM_OBJDUMP, " ".join(OBJDUMP_ARGS),
                 tool_version(LLVM_OBJDUMP)))

    summary = []
    with tempfile.TemporaryDirectory(prefix="gen_sweep_") as workdir:
        check_layouts(workdir)
        for name in names:
            spec = FORMATS[name]
            rng = random.Random("%d:%s" % (SEED, name))
            cases, info = generate(spec, rng, workdir)
            results = run_objdump(cases, workdir, name)
            mnems = set()
            invalid = 0
            lines_total = 0
            path = os.path.join(args.out, name + ".txt")
            with open(path, "w") as f:
                f.write(header + "\n")
                for lines in results:
                    f.write("\n")
                    for words, text in lines:
                        f.write("%s\t%s\n" % (words, text))
                    lines_total += len(lines)
                    first = lines[0][1]
                    if first.startswith(".long"):
                        invalid += 1
                    else:
                        mnems.add(mnemonic(first))
            # Wave64: the same words disassembled for a wave64 target; keep the cases whose text
            # differs (lane masks as SGPR pairs, no VOPD, 4-VGPR WMMA accumulators).
            results64 = run_objdump(cases, workdir, name + "_wave64", WAVE64_ARGS)
            n64 = 0
            with open(os.path.join(out64, name + ".txt"), "w") as f:
                f.write(header64 + "\n")
                for lines, lines64 in zip(results, results64):
                    if lines64 != lines:
                        n64 += 1
                        f.write("\n")
                        for words, text in lines64:
                            f.write("%s\t%s\n" % (words, text))
            valid_ops = sum(1 for s, _, _, _ in info.values() if s is not None)
            lit_ops = sum(1 for _, lit, _, _ in info.values() if lit)
            row = (name, len(spec.ops), valid_ops, lit_ops, len(cases), len(mnems), invalid,
                   lines_total, WARNINGS.get(name, 0), os.path.getsize(path), n64)
            summary.append(row)
            print("%-10s done: %d cases" % (name, len(cases)), file=sys.stderr)

    cols = ("format", "opcodes", "valid_ops", "lit_ops", "cases", "mnemonics", "invalid", "lines",
            "warnings", "bytes", "wave64")
    fmt = "%-10s" + " %9s" * (len(cols) - 1)
    print(fmt % cols)
    tot = [0] * (len(cols) - 1)
    for row in summary:
        print(fmt % row)
        for k, x in enumerate(row[1:]):
            tot[k] += x
    print(fmt % tuple(["total"] + tot))
    print("opcodes   = opcode values swept (VOPD: opx*opy pairs, EXP: targets, FLAT: seg*op)")
    print("valid_ops = opcode values for which a plain encoding decodes (probe)")
    print("lit_ops   = opcode values that always take a trailing literal dword")
    print("mnemonics = distinct mnemonics of the first instruction of valid cases")
    print("invalid   = cases whose first dword objdump prints as .long")
    print("warnings  = objdump lines with a trailing '; Warning: ...' comment (not part of TEXT)")
    print("wave64    = cases whose wave64 text differs (written to %s)" % out64)


if __name__ == "__main__":
    main()
