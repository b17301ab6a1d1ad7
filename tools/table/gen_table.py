#!/usr/bin/env python3
"""Regenerates crates/wavesim-rdna3/src/isa/table.rs by probing LLVM's own tools.

LLVM 19 (llvm-mc-19, llvm-objdump-19, gfx1100) is the reference for which gfx11 opcodes exist,
what they are called and which registers they print. The probe runs once per target in TARGETS
(gfx1100 = RDNA3, gfx1150 = RDNA3.5); an opcode only the later target decodes gets that target's
flag (`GFX115`), and an opcode that decodes differently on the two targets stops the script. For every encoding family the script
builds one encoding per opcode value (several variants per opcode, because LLVM's decoder
rejects encodings whose unused operand fields are not zero), with distinctive registers:

    VALU   vdst v10, src0 v20, src1 v30, src2 v40 (or s20/s30/s40 for SGPR-only operands)
    SALU   sdst s10, ssrc0 s20, ssrc1 s30
    memory vdst v10, addr v20, data0 v30, data1 v40 (DS/FLAT); vdata v10 (MUBUF/MTBUF/MIMG)

assembles them as `.long` words (one ELF section per case, so nothing desynchronises),
disassembles them with llvm-objdump and parses the text: mnemonic, and which field each printed
register came from and how wide it is. Operand *types* come from the mnemonic (see `valu_types`
and `OVERRIDES`), cross-checked against how llvm-objdump prints an inline constant (1.0) and a
literal in every VALU source: a 16-bit source prints a literal as 16 bits, a 16-bit integer
source prints inline 1.0 as 0x3c00. The VOP3 (e64) form of every VOP1/VOP2/VOPC opcode is probed
too, to verify the derived VOP3 opcode (VOPC: same, VOP2: 0x100+op, VOP1: 0x180+op).

Usage: python3 tools/table/gen_table.py [--out PATH] [--check]
  --check  do not write; exit 1 if the generated text differs from the file.
Prints counts per family at the end. Needs llvm-mc-19 and llvm-objdump-19 on PATH
(override with $LLVM_MC / $LLVM_OBJDUMP).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from facts import facts  # noqa: E402  (per-instruction fact rules, see facts.py)

MC = os.environ.get("LLVM_MC", "llvm-mc-19")
OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-19")
MCPU = "gfx1100"
LIT = 0x12345678  # literal dword appended to every VALU/SALU probe
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "crates", "wavesim-rdna3", "src", "isa", "table.rs")

WARNINGS = []


def warn(msg):
    WARNINGS.append(msg)


# ------------------------------------------------------------------------------------------------
# LLVM plumbing
# ------------------------------------------------------------------------------------------------

def disasm(cases):
    """cases: list of lists of 32-bit words. Returns, per case, (text, comment) of the first
    instruction llvm-objdump prints for it, or None if it prints `.long` (invalid encoding)."""
    with tempfile.TemporaryDirectory() as td:
        src = os.path.join(td, "probe.s")
        obj = os.path.join(td, "probe.o")
        with open(src, "w") as f:
            for i, words in enumerate(cases):
                f.write('.section .text.%d,"ax",@progbits\n' % i)
                f.write(".long " + ", ".join("0x%08x" % w for w in words) + "\n")
        subprocess.run([MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + MCPU, "-filetype=obj",
                        src, "-o", obj], check=True)
        out = subprocess.run([OBJDUMP, "-d", "--mcpu=" + MCPU, obj], check=True,
                             capture_output=True, text=True).stdout
    res = [None] * len(cases)
    done = [False] * len(cases)
    cur = None
    for line in out.splitlines():
        m = re.match(r"Disassembly of section \.text\.(\d+):", line)
        if m:
            cur = int(m.group(1))
            continue
        if cur is None or done[cur] or not line.startswith("\t"):
            continue
        done[cur] = True
        text, _, comment = line.strip().partition("//")
        text = text.strip()
        if text.startswith(".long") or "Invalid" in text or "/*" in text:
            continue
        res[cur] = (text, comment.strip())
    return res


def split_operands(s):
    """Splits an operand string on commas outside brackets/parentheses."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_insn(text):
    """'v_add_f32_e32 v10, v20, v30 clamp' -> ('v_add_f32_e32', ['v10', 'v20', 'v30'], 'clamp')."""
    mnem, _, rest = text.partition(" ")
    ops = split_operands(rest.strip())
    mods = ""
    if ops:
        # the last operand may carry space-separated modifiers (offset:4, glc, wait_exp:0, ...)
        last = ops[-1]
        if not last.startswith("[") and " " in last and not re.match(r"\w+\(", last):
            first, _, mods = last.partition(" ")
            ops[-1] = first
        elif last.startswith("[") and "]" in last:
            i = last.index("]") + 1
            mods = last[i:].strip()
            ops[-1] = last[:i]
    return mnem, ops, mods


REG_RE = re.compile(r"^(v|s|ttmp)(\d+)(\.[lh])?$")
RANGE_RE = re.compile(r"^(v|s|ttmp)\[(\d+):(\d+)\]$")


def reg(tok):
    """Register token -> (file, first, bits) or None."""
    m = REG_RE.match(tok)
    if m:
        return (m.group(1), int(m.group(2)), 16 if m.group(3) else 32)
    m = RANGE_RE.match(tok)
    if m:
        a, b = int(m.group(2)), int(m.group(3))
        return (m.group(1), a, 32 * (b - a + 1))
    if tok in ("vcc_lo", "vcc"):
        return ("vcc", 106, 32 if tok == "vcc_lo" else 64)
    if tok in ("exec_lo", "exec"):
        return ("exec", 126, 32 if tok == "exec_lo" else 64)
    return None


def base_mnemonic(m):
    for suf in ("_e32", "_e64", "_dpp", "_sdwa"):
        if m.endswith(suf):
            return m[: -len(suf)]
    return m


BITS_TY = {16: "b16", 32: "b32", 64: "b64", 96: "b96", 128: "b128", 160: "b160", 192: "b192",
           224: "b224", 256: "b256", 512: "b512"}


def bits_ty(bits):
    if bits not in BITS_TY:
        raise SystemExit("no type for a %d-bit register operand" % bits)
    return BITS_TY[bits]


def best(decodes, prefer_more=True):
    """Chooses among the decodes of one opcode's variants: the one with the most operands
    (an unused field that is not zero is rejected by LLVM, so more operands = all fields used),
    ties broken by variant order."""
    cands = [(i, d) for i, d in enumerate(decodes) if d is not None]
    if not cands:
        return None, None
    if prefer_more:
        cands.sort(key=lambda c: (-len(parse_insn(c[1][0])[1]), c[0]))
    return cands[0]


def probe_family(opcodes, variants):
    """variants: list of functions op -> words. Returns {op: (variant_index, (text, comment))}."""
    cases, idx = [], []
    for op in opcodes:
        for vi, enc in enumerate(variants):
            w = enc(op)
            if w is None:
                continue
            cases.append(w)
            idx.append((op, vi))
    res = disasm(cases)
    per = OrderedDict()
    for (op, vi), r in zip(idx, res):
        per.setdefault(op, [None] * len(variants))[vi] = r
    out = OrderedDict()
    for op, decs in per.items():
        vi, d = best(decs)
        if d is not None:
            out[op] = (vi, d, decs)
    return out


# ------------------------------------------------------------------------------------------------
# Encoders (bit layouts of gfx11, confirmed with llvm-mc -show-encoding round trips)
# ------------------------------------------------------------------------------------------------

def V(n):
    return 256 + n


# VALU source choices per operand: a VGPR, an SGPR, or the field left zero (operand absent).
VSRC = {"V": lambda n: V(n), "S": lambda n: n, "Z": lambda n: 0}


def src_variants(nsrc):
    out = [""]
    for _ in range(nsrc):
        out = [o + c for o in out for c in "VSZ"]
    return out


def enc_sop2(op):
    return [0x80000000 | op << 23 | 10 << 16 | 30 << 8 | 20, LIT]


def enc_sop1(op, dst=10, src=20):
    return [0xBE800000 | dst << 16 | op << 8 | src, LIT]


def enc_sopc(op):
    return [0xBF000000 | op << 16 | 30 << 8 | 20, LIT]


def enc_sopk(op, imm=0x1234, dst=10):
    return [0xB0000000 | op << 23 | dst << 16 | imm, LIT]


def enc_sopp(op, imm):
    return [0xBF800000 | op << 16 | imm]


def enc_smem(op, sdata=10, sbase=20):
    return [0xF4000000 | op << 18 | sdata << 6 | sbase >> 1, 0xF8000000]


def enc_vop2(op, s0=V(20)):
    return [op << 25 | 10 << 17 | 30 << 9 | s0, LIT]


def enc_vop1(op, s0=V(20), dst=10):
    return [0x7E000000 | dst << 17 | op << 9 | s0, LIT]


def enc_vopc(op, s0=V(20)):
    return [0x7C000000 | op << 17 | 30 << 9 | s0, LIT]


def enc_vop3(op, srcs, dst=10, lit=LIT):
    s = [x for x in srcs] + [0] * (3 - len(srcs))
    return [0xD4000000 | op << 16 | dst, s[0] | s[1] << 9 | s[2] << 18, lit]


def enc_vop3p(op, srcs, dst=10, lit=LIT):
    s = [x for x in srcs] + [0] * (3 - len(srcs))
    # op_sel_hi = [1,1,1] (the default of packed math)
    return [0xCC000000 | op << 16 | 1 << 14 | dst, s[0] | s[1] << 9 | s[2] << 18 | 3 << 27, lit]


def enc_vinterp(op, srcs):
    s = list(srcs) + [0] * (3 - len(srcs))
    return [0xCD000000 | op << 16 | 10, s[0] | s[1] << 9 | s[2] << 18]


def enc_ldsdir(op):
    return [0xCE000000 | op << 20 | 10]


def enc_ds(op, vdst, addr, d0, d1, gds=0):
    return [0xD8000000 | op << 18 | gds << 17, vdst << 24 | d1 << 16 | d0 << 8 | addr]


def enc_mubuf(op, vdata, offen, glc=0):
    return [0xE0000000 | op << 18 | glc << 14,
            30 << 24 | offen << 22 | 6 << 16 | vdata << 8 | (20 if offen else 0)]


def enc_mtbuf(op, vdata, offen):
    return [0xE8000000 | 22 << 19 | op << 15,
            30 << 24 | offen << 22 | 6 << 16 | vdata << 8 | (20 if offen else 0)]


def enc_mimg(op, dmask, ssamp, extra=0):
    return [0xF0000000 | op << 18 | dmask << 8 | extra,
            ssamp << 26 | 6 << 16 | 10 << 8 | 20]


def enc_flat(op, seg, vdst, data, glc=0):
    sve = (1 << 23) if seg == 1 else 0
    return [0xDC000000 | op << 18 | seg << 16 | glc << 14,
            vdst << 24 | sve | 0x7C << 16 | data << 8 | 20]


SEG = {"Flat": 0, "Scratch": 1, "Global": 2}


# ------------------------------------------------------------------------------------------------
# Probing the families
# ------------------------------------------------------------------------------------------------

class Row:
    def __init__(self, fmt, opc, mnem, dsts, srcs, flags=()):
        self.fmt, self.opc, self.mnem = fmt, opc, mnem
        self.dsts, self.srcs, self.flags = list(dsts), list(srcs), list(flags)

    @property
    def ident(self):
        return self.mnem.upper()

    def sig(self):
        d = " ".join(self.dsts)
        s = " ".join(self.srcs)
        return (d + " : " + s).strip() if (d or s) else ": "

    def __repr__(self):
        return "%s 0x%x %s %r" % (self.fmt, self.opc, self.mnem, self.sig())


def scalar_ty(kind, bits):
    """A scalar operand type of `bits` bits with the signedness/kind of a type token."""
    if bits == 32:
        return {"i": "i32", "u": "u32", "b": "b32", "f": "f32"}[kind]
    if bits == 64:
        return {"i": "i64", "u": "u64", "b": "b64", "f": "f64"}[kind]
    return bits_ty(bits)


TOK_RE = re.compile(r"(?<![a-z0-9])(bf16|f16|f32|f64|i16|i32|i64|u16|u32|u64|b16|b32|b64|i8|u8|"
                    r"i4|u4|iu8|iu4|i24|u24)(?![a-z0-9])")


def tokens(name):
    return TOK_RE.findall(name.replace("_", " "))


# -------------------------------- SALU -----------------------------------------------------------

def gen_sop2():
    res = probe_family(range(0x60), [enc_sop2])
    rows = []
    for op, (vi, (text, _), _) in res.items():
        m, ops, _ = parse_insn(text)
        name = base_mnemonic(m)
        toks = tokens(name)
        dsts, srcs = [], []
        for o in ops:
            r = reg(o)
            if r is None:
                # The literal constant K of s_fmamk_f32 / s_fmaak_f32 (RDNA3.5), a source.
                srcs.append(32)
                continue
            (dsts if r[1] == 10 else srcs).append(r[2])
        main = toks[0]
        kind = main[0]
        mbits = int(main[1:])
        rows.append(Row("Sop2", op, name,
                        [scalar_ty(kind, b) for b in dsts],
                        [scalar_ty(kind, b) if b == mbits else scalar_ty("u", b) for b in srcs]))
    return rows


def gen_sopc():
    res = probe_family(range(128), [enc_sopc])
    rows = []
    for op, (vi, (text, _), _) in res.items():
        m, ops, _ = parse_insn(text)
        name = base_mnemonic(m)
        main = tokens(name)[0]
        kind, mbits = main[0], int(main[1:])
        srcs = [reg(o)[2] for o in ops]
        rows.append(Row("Sopc", op, name, [],
                        [scalar_ty(kind, b) if b == mbits else scalar_ty("u", b) for b in srcs]))
    return rows


def gen_sop1():
    res = probe_family(range(256), [lambda op: enc_sop1(op), lambda op: enc_sop1(op, dst=0),
                                    lambda op: enc_sop1(op, src=0)])
    rows = []
    for op, (vi, (text, _), _) in res.items():
        m, ops, _ = parse_insn(text)
        name = base_mnemonic(m)
        toks = tokens(name)
        dsts, srcs = [], []
        for o in ops:
            if o.startswith("sendmsg("):
                srcs.append("sendmsg")
                continue
            r = reg(o)
            if r[1] == 10:
                dsts.append(r[2])
            else:
                srcs.append(r[2])
        # dst kind from the first type token, src kind from the last one (s_ctz_i32_b64, ...)
        dk = toks[0][0] if toks else "b"
        sk = toks[-1][0] if toks else "b"
        if name in ("s_cls_i32_i64", "s_cls_i32"):
            sk = "i"
        rows.append(Row("Sop1", op, name, [scalar_ty(dk, b) for b in dsts],
                        [s if isinstance(s, str) else scalar_ty(sk, s) for s in srcs]))
    return rows


def imm_kind(pairs, sopk=False):
    """Classifies how llvm prints a 16-bit immediate from (value, printed text) pairs."""
    prints = [p for _, p in pairs]
    joined = " ".join(prints)
    for marker, kind in (("sendmsg(", "sendmsg"), ("vmcnt(", "waitcnt"), ("expcnt(", "waitcnt"),
                         ("lgkmcnt(", "waitcnt"), ("instid", "delay_alu"),
                         ("instskip", "delay_alu"), ("depctr", "depctr"), ("hwreg(", "hwreg")):
        if marker in joined:
            return kind
    hexes = [p.startswith("0x") for p in prints]
    if sopk:
        # SOPK: simm16 or imm16 by what llvm prints (s_version also prints UC_VERSION_* names)
        return "imm16" if any(hexes) else "simm16"
    if all(hexes):
        return "imm16"
    if all(re.match(r"^-?\d+$", p) for p in prints):
        return "simm16"
    if all(h == (v > 64) for (v, _), h in zip(pairs, hexes)):
        return "imm16_inline"  # decimal for 0..=64, hex otherwise
    raise SystemExit("unclassified immediate printing: %r" % pairs)


IMM_VALUES = [0x0000, 0x0005, 0x1234, 0xFFF0, 0xFFE3, 0x0091, 0x0003]


def gen_sopk():
    vals = IMM_VALUES
    res = probe_family(range(0x1D), [lambda op, v=v: enc_sopk(op, imm=v) for v in vals])
    rows = []
    for op, (vi, _, decs) in res.items():
        texts = [d for d in decs if d]
        m, ops, _ = parse_insn(texts[0][0])
        name = base_mnemonic(m)
        is_label = any("<.text" in c for _, c in texts)
        toks = tokens(name)
        kind = toks[0][0] if toks else "b"
        # which operand is the immediate, which the register
        dsts, srcs = [], []
        reg_is_dst = name.startswith(("s_movk", "s_cmovk", "s_addk", "s_mulk", "s_getreg",
                                      "s_call", "s_subvector_loop"))
        imm_prints = []
        for v, d in zip(vals, decs):
            if d is None:
                continue
            _, o2, _ = parse_insn(d[0])
            imm_prints.append((v, [o for o in o2 if reg(o) is None][0]))
        for o in ops:
            r = reg(o)
            if r is not None:
                t = scalar_ty(kind, r[2])
                (dsts if reg_is_dst else srcs).append(t)
            elif o.startswith("hwreg("):
                srcs.append("hwreg")
            elif is_label or name == "s_call_b64":
                # llvm-objdump shows no target for s_call_b64, but it is a PC-relative branch
                srcs.append("label")
            elif name == "s_setreg_imm32_b32":
                srcs.append("b32")  # the 32-bit literal
            else:
                srcs.append(imm_kind(imm_prints, sopk=True))
        rows.append(Row("Sopk", op, name, dsts, srcs))
    return rows


def gen_sopp():
    vals = IMM_VALUES
    res = probe_family(range(128), [lambda op, v=v: enc_sopp(op, v) for v in vals])
    rows = []
    for op, (vi, _, decs) in res.items():
        texts = [d for d in decs if d]
        name = base_mnemonic(texts[0][0].split()[0])
        pairs = [(v, d[0].partition(" ")[2].strip()) for v, d in zip(vals, decs) if d]
        zero = decs[0]
        if zero is not None and zero[0].strip() == name:
            srcs = []  # llvm prints no operand (s_endpgm, s_barrier, ...)
        elif any("<.text" in c for _, c in texts):
            srcs = ["label"]
        else:
            srcs = [imm_kind([(v, p) for v, p in pairs if p])]
        rows.append(Row("Sopp", op, name, [], srcs))
    return rows


def gen_smem():
    res = probe_family(range(256), [lambda op: enc_smem(op), lambda op: enc_smem(op, sdata=0),
                                    lambda op: enc_smem(op, sdata=0, sbase=0)])
    rows = []
    for op, (vi, (text, _), _) in res.items():
        m, ops, _ = parse_insn(text)
        name = base_mnemonic(m)
        dsts, srcs = [], []
        if ops:
            if re.match(r"^\d+$", ops[0]):
                srcs.append("simm16")  # s_atc_probe*: the sdata field is a 7-bit immediate
            else:
                dsts.append(bits_ty(reg(ops[0])[2]))
            srcs.append(bits_ty(reg(ops[1])[2]))
        rows.append(Row("Smem", op, name, dsts, srcs))
    return rows


# -------------------------------- VALU -----------------------------------------------------------

class Opnd:
    """One printed VALU operand: role ('dst'/'src'), source index, width in bits, and
    'v' (VGPR or any source), 's' (an SGPR-only scalar), 'mask' (lane mask) or 'lit' (a K literal)."""

    def __init__(self, role, idx, bits, kind):
        self.role, self.idx, self.bits, self.kind = role, idx, bits, kind

    def __repr__(self):
        return "%s%d:%d%s" % (self.role, self.idx, self.bits, self.kind)


def classify_valu(text):
    """Printed operands -> list of Opnd, using the distinctive register numbers."""
    m, ops, _ = parse_insn(text)
    out = []
    for o in ops:
        r = reg(o)
        if r is None:
            if re.match(r"^0x[0-9a-f]+$", o):
                out.append(Opnd("src", -1, 32, "lit"))  # v_fmamk/v_fmaak K
                continue
            raise SystemExit("unexpected VALU operand %r in %r" % (o, text))
        f, n, bits = r
        if f == "vcc":
            # e32 VCC: a destination until the first source has been printed
            role = "src" if any(x.role == "src" for x in out) else "dst"
            out.append(Opnd(role, 1 if role == "dst" else -1, 32, "mask"))
        elif n == 10:
            out.append(Opnd("dst", 0, bits, "v" if f == "v" else "s"))
        elif n == 0 and f == "s" and out and out[-1].role == "dst":
            out.append(Opnd("dst", 1, bits, "mask"))  # VOP3SD sdst (field left zero)
        elif n in (20, 30, 40):
            out.append(Opnd("src", (n - 20) // 10, bits, "v" if f == "v" else "s"))
        else:
            raise SystemExit("unexpected register %r in %r" % (o, text))
    # number the sources in assembly order (the K literal and e32 vcc carry-in included)
    k = 0
    for o in out:
        if o.role == "src":
            o.idx = k
            k += 1
    return base_mnemonic(m), out


def gen_valu_structure():
    """Probes VOP1/VOP2/VOPC (e32), the whole VOP3 opcode space and VOP3P.
    Returns (e32 rows: {(fmt, op): (name, opnds)}, vop3: {op: (name, opnds, text, variant)},
    vop3p: {op: (...)})."""
    e32 = OrderedDict()
    res = probe_family(range(256), [lambda op: enc_vop1(op), lambda op: enc_vop1(op, s0=0),
                                    lambda op: enc_vop1(op, s0=0, dst=0)])
    for op, (vi, (text, _), _) in res.items():
        e32[("Vop1", op)] = classify_valu(text) + (text,)
    # VOP2 opcodes 0x3e/0x3f would be the VOPC/VOP1 encodings
    # (the all-zero word is v_illegal, which llvm decodes as VOP2 opcode 0 without operands)
    res = probe_family(range(0x3E), [lambda op: enc_vop2(op), lambda op: [op << 25]])
    for op, (vi, (text, _), _) in res.items():
        e32[("Vop2", op)] = classify_valu(text) + (text,)
    res = probe_family(range(256), [lambda op: enc_vopc(op)])
    for op, (vi, (text, _), _) in res.items():
        e32[("Vopc", op)] = classify_valu(text) + (text,)

    vs = src_variants(3)
    srcregs = lambda v: [VSRC[c](20 + 10 * i) for i, c in enumerate(v)]
    variants = [lambda op, v=v: enc_vop3(op, srcregs(v)) for v in vs]
    variants += [lambda op: enc_vop3(op, [], dst=0)]  # v_nop, v_pipeflush
    vop3 = OrderedDict()
    for op, (vi, (text, _), _) in probe_family(range(1024), variants).items():
        name, opnds = classify_valu(text)
        vop3[op] = (name, opnds, text, vs[vi] if vi < len(vs) else "ZZZ")
    variants = [lambda op, v=v: enc_vop3p(op, srcregs(v)) for v in vs]
    vop3p = OrderedDict()
    for op, (vi, (text, _), _) in probe_family(range(128), variants).items():
        name, opnds = classify_valu(text)
        vop3p[op] = (name, opnds, text, vs[vi])
    return e32, vop3, vop3p


def probe_sources(items):
    """items: list of (key, encoder(srcs) -> words, variant string). For every source position
    that holds a register, encodes inline 1.0 (242) and a literal (255 + LIT) there.
    Returns {key: [(inline_print, literal_print) or None per source]}."""
    cases, idx = [], []
    for key, enc, variant in items:
        for i, c in enumerate(variant):
            if c == "Z":
                continue
            base = [VSRC[c](20 + 10 * j) for j, c in enumerate(variant)]
            for kind, val in (("inl", 242), ("lit", 255)):
                s = list(base)
                s[i] = val
                cases.append(enc(s))
                idx.append((key, i, kind))
    res = disasm(cases)
    out = {}
    for (key, i, kind), r in zip(idx, res):
        d = out.setdefault(key, {})
        if r is None:
            d[(i, kind)] = None
            continue
        _, ops, _ = parse_insn(r[0])
        # the probed operand is the one that is not a register
        cand = [o for o in ops if reg(o) is None and not o.startswith("[")]
        d[(i, kind)] = cand[0] if cand else None
    return out


# Operand types that the mnemonic alone does not give. Key: base mnemonic; value: the signature
# in e64 assembly order. Every entry is still checked against the printed register widths and
# the inline-constant / literal probes.
OVERRIDES = {
    # ---- VOP1 ----
    "v_cvt_f32_ubyte0": "f32 : u32",
    "v_cvt_f32_ubyte1": "f32 : u32",
    "v_cvt_f32_ubyte2": "f32 : u32",
    "v_cvt_f32_ubyte3": "f32 : u32",
    "v_sat_pk_u8_i16": "u16 : b32",
    # ---- VOP2 ----
    "v_cndmask_b32": "b32 : b32 b32 mask",
    "v_dot2acc_f32_f16": "f32 : pk_f16 pk_f16",
    "v_lshlrev_b32": "b32 : u32 b32",
    "v_lshrrev_b32": "b32 : u32 b32",
    "v_ashrrev_i32": "i32 : u32 i32",
    "v_add_co_ci_u32": "u32 mask : u32 u32 mask",
    "v_sub_co_ci_u32": "u32 mask : u32 u32 mask",
    "v_subrev_co_ci_u32": "u32 mask : u32 u32 mask",
    "v_cvt_pk_rtz_f16_f32": "pk_f16 : f32 f32",
    "v_ldexp_f16": "f16 : f16 i16",
    "v_pk_fmac_f16": "pk_f16 : pk_f16 pk_f16",
    # ---- VOP3 ----
    "v_bfe_i32": "i32 : i32 u32 u32",
    "v_alignbit_b32": "b32 : b32 b32 u32",
    "v_alignbyte_b32": "b32 : b32 b32 u32",
    "v_sad_u16": "u32 : u32 u32 u32",
    "v_cvt_pk_u8_f32": "b32 : f32 u32 b32",
    "v_qsad_pk_u16_u8": "b64 : b64 u32 b64",
    "v_mqsad_pk_u16_u8": "b64 : b64 u32 b64",
    "v_mqsad_u32_u8": "b128 : b64 u32 b128",
    "v_lshl_or_b32": "b32 : b32 u32 b32",
    "v_mad_u32_u16": "u32 : u16 u16 u32",
    "v_mad_i32_i16": "i32 : i16 i16 i32",
    "v_permlane16_b32": "b32 : b32 u32 u32",
    "v_permlanex16_b32": "b32 : b32 u32 u32",
    "v_cndmask_b16": "b16 : b16 b16 mask",
    "v_dot2_f16_f16": "f16 : pk_f16 pk_f16 f16",
    "v_dot2_bf16_bf16": "bf16 : pk_bf16 pk_bf16 bf16",
    "v_div_scale_f32": "f32 mask : f32 f32 f32",
    "v_div_scale_f64": "f64 mask : f64 f64 f64",
    "v_mad_u64_u32": "u64 mask : u32 u32 u64",
    "v_mad_i64_i32": "i64 mask : i32 i32 i64",
    "v_add_co_u32": "u32 mask : u32 u32",
    "v_sub_co_u32": "u32 mask : u32 u32",
    "v_subrev_co_u32": "u32 mask : u32 u32",
    "v_cvt_pk_i16_f32": "pk_i16 : f32 f32",
    "v_cvt_pk_u16_f32": "pk_u16 : f32 f32",
    "v_pack_b32_f16": "b32 : f16 f16",
    "v_cvt_pk_norm_i16_f16": "pk_i16 : f16 f16",
    "v_cvt_pk_norm_u16_f16": "pk_u16 : f16 f16",
    "v_cvt_pk_norm_i16_f32": "pk_i16 : f32 f32",
    "v_cvt_pk_norm_u16_f32": "pk_u16 : f32 f32",
    "v_cvt_pk_u16_u32": "pk_u16 : u32 u32",
    "v_cvt_pk_i16_i32": "pk_i16 : i32 i32",
    "v_ldexp_f32": "f32 : f32 i32",
    "v_ldexp_f64": "f64 : f64 i32",
    "v_bfm_b32": "b32 : u32 u32",
    "v_bcnt_u32_b32": "u32 : b32 u32",
    "v_mbcnt_lo_u32_b32": "u32 : b32 u32",
    "v_mbcnt_hi_u32_b32": "u32 : b32 u32",
    "v_trig_preop_f64": "f64 : f64 u32",
    "v_lshlrev_b16": "b16 : u16 b16",
    "v_lshrrev_b16": "b16 : u16 b16",
    "v_ashrrev_i16": "i16 : u16 i16",
    "v_lshlrev_b64": "b64 : u32 b64",
    "v_lshrrev_b64": "b64 : u32 b64",
    "v_ashrrev_i64": "i64 : u32 i64",
    "v_readlane_b32": "b32 : b32 u32",
    "v_writelane_b32": "b32 : b32 u32",
    # ---- VOP3P ----
    "v_pk_ashrrev_i16": "pk_i16 : pk_u16 pk_i16",
    "v_dot2_f32_f16": "f32 : pk_f16 pk_f16 f32",
    "v_dot2_f32_bf16": "f32 : pk_bf16 pk_bf16 f32",
    "v_dot4_i32_iu8": "i32 : b32 b32 i32",
    "v_dot4_u32_u8": "u32 : b32 b32 u32",
    "v_dot8_i32_iu4": "i32 : b32 b32 i32",
    "v_dot8_u32_u4": "u32 : b32 b32 u32",
    "v_fma_mix_f32": "f32 : f16 f16 f16",
    "v_fma_mixlo_f16": "f16 : f16 f16 f16",
    "v_fma_mixhi_f16": "f16 : f16 f16 f16",
    # ---- VINTERP ----
    "v_interp_p10_f32": "f32 : f32 f32 f32",
    "v_interp_p2_f32": "f32 : f32 f32 f32",
    "v_interp_p10_f16_f32": "f32 : f16 f32 f16",
    "v_interp_p2_f16_f32": "f16 : f16 f32 f32",
    "v_interp_p10_rtz_f16_f32": "f32 : f16 f32 f16",
    "v_interp_p2_rtz_f16_f32": "f16 : f16 f32 f32",
}

TY_BITS = {"b16": 16, "i16": 16, "u16": 16, "f16": 16, "bf16": 16, "b32": 32, "i32": 32,
           "u32": 32, "f32": 32, "b64": 64, "i64": 64, "u64": 64, "f64": 64, "pk_f16": 32,
           "pk_i16": 32, "pk_u16": 32, "pk_bf16": 32, "mask": 32, "b96": 96, "b128": 128,
           "b160": 160, "b192": 192, "b224": 224, "b256": 256, "b512": 512}


def norm_tok(t):
    return {"i24": "i32", "u24": "u32", "i8": "i32", "u8": "u32", "i4": "i32", "u4": "u32",
            "iu8": "i32", "iu4": "i32"}.get(t, t)


def adjust(t, bits):
    """Type token t stretched to a printed register width."""
    if TY_BITS[t] == bits or (TY_BITS[t] == 16 and bits == 32):
        return t
    if t.startswith("pk_") or t == "mask":
        return t
    kind = t[0] if t[0] in "iufb" else "b"
    if bits in (32, 64):
        return scalar_ty(kind, bits)
    return bits_ty(bits)


def valu_types(name, opnds):
    """Default operand types of a VALU instruction from its mnemonic."""
    dsts = [o for o in opnds if o.role == "dst"]
    srcs = [o for o in opnds if o.role == "src"]
    if name in OVERRIDES:
        d, _, s = OVERRIDES[name].partition(":")
        return d.split(), s.split()
    toks = [norm_tok(t) for t in tokens(name[2:])]
    if name.startswith(("v_cmp_", "v_cmpx_")):
        t = toks[-1]
        st = [t, t]
        if "_class_" in name:
            st = [t, "u32"]  # the class mask is a 32-bit operand, also for f16 (llvm agrees)
        return ([] if name.startswith("v_cmpx_") else ["mask"]), st
    if name.startswith("v_pk_"):
        t = "pk_" + toks[-1].replace("b16", "u16")
        return [t for _ in dsts], [t for _ in srcs]
    if name.startswith("v_wmma_"):
        return [bits_ty(o.bits) for o in dsts], [bits_ty(o.bits) for o in srcs]
    if not toks:
        return [bits_ty(o.bits) for o in dsts], [bits_ty(o.bits) for o in srcs]
    dt, st = toks[0], toks[-1]
    return ([("mask" if o.kind == "mask" else adjust(dt, o.bits)) for o in dsts],
            [("mask" if o.kind == "mask" else adjust(st, o.bits)) for o in srcs])


def check_types(name, opnds, dts, sts, probes):
    """Checks the chosen types against the printed widths and the source probes."""
    dsts = [o for o in opnds if o.role == "dst"]
    srcs = [o for o in opnds if o.role == "src"]
    if len(dsts) != len(dts) or len(srcs) != len(sts):
        raise SystemExit("%s: signature %r does not match the printed operands %r"
                         % (name, (dts, sts), opnds))
    for o, t in zip(dsts + srcs, dts + sts):
        if o.kind == "lit":
            continue
        if o.kind == "mask" or (o.kind == "s" and t == "mask"):
            if t != "mask":
                warn("%s: lane-mask operand typed %s" % (name, t))
            continue
        if t == "mask":
            warn("%s: operand %r typed mask" % (name, o))
            continue
        tb = TY_BITS[t]
        if not (tb == o.bits or (tb == 16 and o.bits == 32)):
            raise SystemExit("%s: %s operand printed %d bits wide" % (name, t, o.bits))
    for i, t in enumerate(sts):
        if probes is None or t == "mask":
            continue
        inl, lit = probes.get((i, "inl")), probes.get((i, "lit"))
        if inl is None and lit is None:
            continue
        sixteen = lit is not None and len(lit) <= 6 and lit.startswith("0x") and lit != "0x12345678"
        if t in ("pk_f16", "pk_i16", "pk_u16", "pk_bf16"):
            continue
        if TY_BITS[t] == 16:
            if lit is not None and not sixteen:
                warn("%s src%d typed %s but a literal prints as %s" % (name, i, t, lit))
            want = "0x3c00" if t in ("i16", "u16", "b16") else ("1.0" if t == "f16" else None)
            if t == "bf16":
                want = inl if inl in ("1.0", "0x3f80") else "1.0/0x3f80"
            if inl is not None and want is not None and inl != want:
                warn("%s src%d typed %s but inline 1.0 prints as %s" % (name, i, t, inl))
        else:
            if sixteen:
                warn("%s src%d typed %s but a literal prints as %s (16-bit)" % (name, i, t, lit))
            if inl is not None and inl != "1.0":
                warn("%s src%d typed %s but inline 1.0 prints as %s" % (name, i, t, inl))


NEVER_SKIP = {"v_nop", "v_pipeflush", "v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32",
              "buffer_gl0_inv", "buffer_gl1_inv"}
VOP3_OFFSET = {"Vopc": 0x000, "Vop2": 0x100, "Vop1": 0x180}
REPORT = []  # notes for the summary (non-derived VOP3 opcodes, ...)


def finish_valu(rows_in, probes):
    rows = []
    for fmt, op, name, opnds, key, flags in rows_in:
        dts, sts = valu_types(name, opnds)
        check_types(name, opnds, dts, sts, probes.get(key))
        if name in NEVER_SKIP:
            flags = flags + ["NEVER_SKIP"]
        if name.startswith("v_cmpx_"):
            flags = flags + ["WRITES_EXEC"]
        rows.append(Row(fmt, op, name, dts, sts, flags))
    return rows


def gen_valu():
    e32, vop3, vop3p = gen_valu_structure()
    vop3_ops_by_name = {}
    for op, (name, _, _, _) in vop3.items():
        vop3_ops_by_name.setdefault(name, []).append(op)
    e32_names = set(n for n, _, _ in e32.values())
    pending, probe_items, derived = [], [], set()
    for (fmt, op), (name, opnds, text) in e32.items():
        e64op = op + VOP3_OFFSET[fmt]
        e64 = vop3.get(e64op)
        if e64 is not None and e64[0] == name:
            derived.add(e64op)
            _, opnds64, _, variant = e64
            key = ("vop3", e64op)
            probe_items.append((key, lambda s, o=e64op: enc_vop3(o, s), variant))
            pending.append((fmt, op, name, opnds64, key, []))
        else:
            if e64 is not None:
                raise SystemExit("VOP3 0x%03x is %s, not the e64 form of %s %s 0x%02x"
                                 % (e64op, e64[0], fmt, name, op))
            if name in vop3_ops_by_name:
                REPORT.append("%s: %s opcode 0x%02x but VOP3 opcode(s) %s (expected 0x%03x)"
                              % (name, fmt, op, ", ".join("0x%03x" % x for x in
                                                          vop3_ops_by_name[name]), e64op))
            key = ("e32", fmt, op)
            if opnds and any(o.role == "src" for o in opnds):
                if fmt == "Vop1":
                    enc = lambda s, o=op: enc_vop1(o, s0=s[0])
                elif fmt == "Vop2":
                    enc = lambda s, o=op: enc_vop2(o, s0=s[0])
                else:
                    enc = lambda s, o=op: enc_vopc(o, s0=s[0])
                probe_items.append((key, enc, "V"))
            pending.append((fmt, op, name, opnds, key, ["NO_VOP3"]))
    for op, (name, opnds, text, variant) in vop3.items():
        if op in derived:
            continue
        if name in e32_names:
            REPORT.append("%s: VOP3 opcode 0x%03x is not derived from its e32 opcode" % (name, op))
            continue
        fmt = "Vop3sd" if any(o.role == "dst" and o.kind == "mask" for o in opnds) else "Vop3"
        key = ("vop3", op)
        if variant != "ZZZ":
            probe_items.append((key, lambda s, o=op: enc_vop3(o, s), variant))
        pending.append((fmt, op, name, opnds, key, []))
    for op, (name, opnds, text, variant) in vop3p.items():
        key = ("vop3p", op)
        probe_items.append((key, lambda s, o=op: enc_vop3p(o, s), variant))
        pending.append(("Vop3p", op, name, opnds, key, []))
    probes = probe_sources(probe_items)
    globals()["VALU_PROBES"] = probes
    rows = finish_valu(pending, probes)
    order = ["Vop1", "Vop2", "Vopc", "Vop3", "Vop3sd", "Vop3p"]
    rows.sort(key=lambda r: (order.index(r.fmt), r.opc))
    return rows


def gen_vinterp():
    srcs = [V(20), V(30), V(40)]
    res = probe_family(range(128), [lambda op: enc_vinterp(op, srcs)])
    rows = []
    for op, (vi, (text, _), _) in res.items():
        name, opnds = classify_valu(text)
        dts, sts = valu_types(name, opnds)
        check_types(name, opnds, dts, sts, None)
        rows.append(Row("Vinterp", op, name, dts, sts))
    return rows


def gen_ldsdir():
    res = probe_family(range(4), [enc_ldsdir])
    rows = []
    for op, (vi, (text, _), _) in res.items():
        m, ops, _ = parse_insn(text)
        rows.append(Row("Ldsdir", op, base_mnemonic(m), [bits_ty(reg(ops[0])[2])], []))
    return rows


# -------------------------------- memory ---------------------------------------------------------

def roles(ops, dst_regs, src_regs):
    """Printed memory operands -> (dst widths, src widths) by register number."""
    d, s = [], []
    for o in ops:
        r = reg(o)
        if r is None or r[0] != "v":
            continue
        if r[1] in dst_regs:
            d.append(r[2])
        elif r[1] in src_regs:
            s.append(r[2])
        elif r[1] == 0:
            raise SystemExit("ambiguous v0 in %r" % ops)
    return d, s


def gen_ds():
    variants = []
    for gds in (0, 1):
        for vdst in (10, 0):
            for addr in (20, 0):
                for d0 in (30, 0):
                    for d1 in (40, 0):
                        variants.append(lambda op, a=(vdst, addr, d0, d1, gds): enc_ds(op, *a))
    res = probe_family(range(256), variants)
    rows = []
    for op, (vi, (text, _), _) in res.items():
        m, ops, _ = parse_insn(text)
        name = base_mnemonic(m)
        # ds_gws_*: llvm encodes the data operand in the ADDR field
        srcs = (20, 30, 40) if name.startswith("ds_gws_") else (30, 40)
        d, s = roles(ops, (10,), srcs)
        rows.append(Row("Ds", op, name, [bits_ty(b) for b in d], [bits_ty(b) for b in s]))
    return rows


def data_by_name(name, bits):
    """vdata of MUBUF/MTBUF/MIMG is printed once; its direction follows from the mnemonic."""
    if bits is None:
        return [], []
    t = bits_ty(bits)
    if "atomic" in name:
        ret = bits // 2 if "cmpswap" in name else bits
        return [bits_ty(ret)], [t]
    if "store" in name:
        return [], [t]
    return [t], []


def gen_buffer(fmt, enc):
    variants = [lambda op, a=a: enc(op, *a) for a in ((10, 1), (10, 0), (0, 1), (0, 0))]
    res = probe_family(range(256 if fmt == "Mubuf" else 16), variants)
    rows = []
    for op, (vi, (text, _), _) in res.items():
        m, ops, _ = parse_insn(text)
        name = base_mnemonic(m)
        bits = None
        if ops:
            r = reg(ops[0])
            if r is not None and r[1] == 10:
                bits = r[2]
        d, s = data_by_name(name, bits)
        flags = ["NEVER_SKIP"] if name in NEVER_SKIP else []
        rows.append(Row(fmt, op, name, d, s, flags))
    return rows


def gen_flat(fmt):
    seg = SEG[fmt]
    variants = []
    for glc in (1, 0):
        for vdst in (10, 0):
            for data in (30, 0):
                variants.append(lambda op, a=(seg, vdst, data, glc): enc_flat(op, *a))
    res = probe_family(range(128), variants)
    rows = []
    for op, (vi, (text, _), _) in res.items():
        m, ops, _ = parse_insn(text)
        d, s = roles(ops, (10,), (30,))
        rows.append(Row(fmt, op, base_mnemonic(m), [bits_ty(b) for b in d],
                        [bits_ty(b) for b in s]))
    return rows


def gen_mimg():
    # dmask 0xf with and without a sampler; BVH needs r128 and unorm set; image atomics are
    # probed with their natural dmask (0x1, or 0x3 for cmpswap): llvm prints a 5-register vdata
    # for an atomic with dmask 0xf.
    configs = [(0xF, 8, 0), (0xF, 0, 0), (0xF, 0, 1 << 15 | 1 << 7), (0x1, 0, 0), (0x3, 0, 0)]
    cases, idx = [], []
    for op in range(256):
        for ci, c in enumerate(configs):
            cases.append(enc_mimg(op, *c))
            idx.append((op, ci))
    per = OrderedDict()
    for (op, ci), r in zip(idx, disasm(cases)):
        per.setdefault(op, [None] * len(configs))[ci] = r
    rows = []
    for op, decs in per.items():
        valid = [(ci, d) for ci, d in enumerate(decs) if d is not None]
        if not valid:
            continue
        name = base_mnemonic(valid[0][1][0].split()[0])
        if "atomic" in name:
            want = 4 if "cmpswap" in name else 3
            if decs[want] is None:
                raise SystemExit("%s does not decode with its natural dmask" % name)
            text = decs[want][0]
        else:
            text = valid[0][1][0]
        m, ops, mods = parse_insn(text)
        r = reg(ops[0])
        d, s = data_by_name(name, r[2])
        rows.append(Row("Mimg", op, name, d, s))
    return rows


def gen_exp():
    # EXP has no opcode field: check that llvm decodes the encoding, emit one row.
    r = disasm([[0xF800000F, 10 | 20 << 8 | 30 << 16 | 40 << 24]])[0]
    if r is None or not r[0].startswith("exp "):
        raise SystemExit("llvm does not decode EXP")
    return [Row("Exp", 0, "exp", [], [])]


# SALU operands whose type the first type token of the mnemonic does not give (shift amounts,
# bit indices, field descriptors). Checked against the probed widths like OVERRIDES.
SALU_OVERRIDES = {
    "s_lshl_b32": "b32 : b32 u32",
    "s_lshr_b32": "b32 : b32 u32",
    "s_ashr_i32": "i32 : i32 u32",
    "s_bfe_i32": "i32 : i32 u32",
    "s_bfm_b32": "b32 : u32 u32",
    "s_bitset0_b32": "b32 : u32",
    "s_bitset1_b32": "b32 : u32",
    "s_bitset0_b64": "b64 : u32",
    "s_bitset1_b64": "b64 : u32",
    "s_bitcmp0_b32": ": b32 u32",
    "s_bitcmp1_b32": ": b32 u32",
}


def salu_float16(rows):
    """RDNA3.5 SALU float ops keep an f16 in the low half of a 32-bit SGPR (s_cvt_hi_f32_f16:
    the high half): the operands whose mnemonic type token is f16 are `f16`, not the 32-bit
    register width; s_cvt_pk_rtz_f16_f32 packs two f16 results."""
    for r in rows:
        if r.fmt not in ("Sop1", "Sop2", "Sopc") or "f16" not in r.mnem:
            continue
        toks = tokens(r.mnem)
        if any(TY_BITS.get(t) != 32 for t in r.dsts + r.srcs):
            raise SystemExit("%s: f16 SALU operands should be 32-bit SGPRs: %r" % (r.mnem, r.sig()))
        if r.mnem == "s_cvt_pk_rtz_f16_f32":
            r.dsts, r.srcs = ["pk_f16"], ["f32"] * len(r.srcs)
            continue
        if toks[0] == "f16":
            r.dsts = ["f16"] * len(r.dsts)
        if toks[-1] == "f16":
            r.srcs = ["f16"] * len(r.srcs)
    return rows


def apply_salu_overrides(rows):
    for r in rows:
        if r.mnem not in SALU_OVERRIDES:
            continue
        d, _, s = SALU_OVERRIDES[r.mnem].partition(":")
        d, s = d.split(), s.split()
        if [TY_BITS.get(t) for t in d] != [TY_BITS.get(t) for t in r.dsts] or \
                [TY_BITS.get(t) for t in s] != [TY_BITS.get(t) for t in r.srcs]:
            raise SystemExit("%s: override %r does not fit the probed operands %r"
                             % (r.mnem, SALU_OVERRIDES[r.mnem], r.sig()))
        r.dsts, r.srcs = d, s
    return rows


# ------------------------------------------------------------------------------------------------
# Output
# ------------------------------------------------------------------------------------------------

FAMILIES = [
    ("Sop1", "SOP1: 0b10111110_1 | sdst[22:16] | op[15:8] | ssrc0[7:0]"),
    ("Sop2", "SOP2: 0b10 | op[29:23] | sdst[22:16] | ssrc1[15:8] | ssrc0[7:0] (op < 0x60)"),
    ("Sopk", "SOPK: 0b1011 | op[27:23] | sdst[22:16] | simm16[15:0] (op < 0x1d)"),
    ("Sopc", "SOPC: 0b10111111_0 | op[22:16] | ssrc1[15:8] | ssrc0[7:0]"),
    ("Sopp", "SOPP: 0b10111111_1 | op[22:16] | simm16[15:0]"),
    ("Smem", "SMEM: 0b111101 | op[25:18] | sdata[12:6] | sbase[5:0] ; offset, soffset"),
    ("Vop1", "VOP1: 0b0111111 | vdst[24:17] | op[16:9] | src0[8:0]; VOP3 opcode = 0x180 + op"),
    ("Vop2", "VOP2: 0b0 | op[30:25] | vdst[24:17] | vsrc1[16:9] | src0[8:0] (op < 0x3e); "
             "VOP3 opcode = 0x100 + op"),
    ("Vopc", "VOPC: 0b0111110 | op[24:17] | vsrc1[16:9] | src0[8:0]; VOP3 opcode = op"),
    ("Vop3", "VOP3 only: 0b110101 | op[25:16] | ... | vdst[7:0] ; src2 | src1 | src0"),
    ("Vop3sd", "VOP3 with a scalar destination: 0b110101 | op[25:16] | sdst[14:8] | vdst[7:0]"),
    ("Vop3p", "VOP3P: 0b11001100 | op[22:16] | ... | vdst[7:0] ; src2 | src1 | src0"),
    ("Vinterp", "VINTERP: 0b11001101 | op[22:16] | ... | vdst[7:0] ; src2 | src1 | src0"),
    ("Ldsdir", "LDSDIR: 0b11001110 | op[21:20] | ... | vdst[7:0]"),
    ("Ds", "DS: 0b110110 | op[25:18] | gds[17] ; vdst | data1 | data0 | addr (data registers only)"),
    ("Mubuf", "MUBUF: 0b111000 | op[25:18] ; vdata (atomics: return : data)"),
    ("Mtbuf", "MTBUF: 0b111010 | format[25:19] | op[18:15] ; vdata"),
    ("Mimg", "MIMG: 0b111100 | op[25:18] | dmask[11:8] ; vdata width for dmask 0xf "
             "(atomics: dmask 0x1 / 0x3), no d16/tfe"),
    ("Exp", "EXP: 0b111110, no opcode field"),
    ("Flat", "FLAT: 0b110111 | op[24:18] | seg[17:16]=0 ; vdst | saddr | data | addr"),
    ("Global", "GLOBAL: FLAT with seg[17:16]=2"),
    ("Scratch", "SCRATCH: FLAT with seg[17:16]=1"),
]

HEADER = """\
//! Every gfx11 opcode, once. Columns: encoding family, opcode, identifier (upper-case mnemonic),
//! operand signature `"destinations : sources"` (see `Ty`), optional facts `"token ..."` (see
//! `Facts` and tools/table/facts.py, which documents each token and the rule behind it),
//! optional `| FLAG`s.
//!
//! GENERATED by `tools/table/gen_table.py` from LLVM 19 (llvm-mc / llvm-objdump, gfx1100 and
//! gfx1150): do not edit by hand; change the script and regenerate
//! (`python3 tools/table/gen_table.py`). Rows flagged `GFX115` exist on RDNA3.5 (gfx1150,
//! gfx1151) only.
//!
//! VOP1/VOP2/VOPC rows are listed once with their e32 opcode; their VOP3 (e64) opcode is derived
//! (VOPC: same, VOP2: 0x100 + op, VOP1: 0x180 + op) unless the row says `NO_VOP3`. Signatures
//! follow the e64 assembly order; lane masks (VCC, carry, v_cmp results) are `mask`. Memory rows
//! list data registers only (no addresses or descriptors).
use super::{flags, ops, Facts, Fmt, OpInfo, Sig};
"""


def render(rows):
    by_fmt = OrderedDict((f, []) for f, _ in FAMILIES)
    for r in rows:
        by_fmt[r.fmt].append(r)
    idw = max(len(r.ident) for r in rows)
    out = [HEADER, "ops! {"]
    first = True
    for fmt, desc in FAMILIES:
        group = sorted(by_fmt[fmt], key=lambda r: r.opc)
        if not first:
            out.append("")
        first = False
        out.append("    // %s" % ("-" * 94))
        out.append("    // %s (%d)" % (desc, len(group)))
        out.append("    // %s" % ("-" * 94))
        wide = fmt in ("Vop3", "Vop3sd")
        for r in group:
            opc = ("0x%03x" if wide else "0x%02x") % r.opc
            flags = "".join(" | " + f for f in r.flags)
            fx = " ".join(facts(r))
            fx = ' "%s"' % fx if fx else ""
            out.append("    %-6s %-5s %-*s \"%s\"%s%s;" % (fmt, opc, idw, r.ident, r.sig(), fx,
                                                         flags))
    out.append("}")
    return "\n".join(out) + "\n"


# Targets probed, oldest first, with the table flag of opcodes that appear from that target on.
TARGETS = [("gfx1100", None), ("gfx1150", "GFX115")]


def generate_all():
    """The rows of every target in TARGETS, merged (see the module docstring)."""
    global MCPU
    base, keyed = None, None
    for cpu, flag in TARGETS:
        MCPU = cpu
        rows = generate()
        if base is None:
            base, keyed = rows, {(r.fmt, r.opc): r for r in rows}
            continue
        seen = set()
        for r in rows:
            k = (r.fmt, r.opc)
            seen.add(k)
            b = keyed.get(k)
            if b is None:
                r.flags.append(flag)
                base.append(r)
                keyed[k] = r
            elif (b.mnem, b.sig(), [f for f in b.flags if not f.startswith("GFX")]) != \
                    (r.mnem, r.sig(), r.flags):
                raise SystemExit("%s: %r on %s but %r before" % (cpu, r, cpu, b))
        gone = [keyed[k] for k in keyed if k not in seen and not keyed[k].flags[-1:] == [flag]]
        if gone:
            raise SystemExit("%s lacks opcodes of earlier targets: %r" % (cpu, gone))
    MCPU = TARGETS[0][0]
    return base


def generate():
    rows = []
    rows += salu_float16(apply_salu_overrides(gen_sop1() + gen_sop2() + gen_sopk() + gen_sopc()))
    rows += gen_sopp() + gen_smem()
    rows += gen_valu()
    rows += gen_vinterp() + gen_ldsdir() + gen_ds()
    rows += gen_buffer("Mubuf", enc_mubuf) + gen_buffer("Mtbuf", enc_mtbuf)
    rows += gen_mimg() + gen_exp()
    rows += gen_flat("Flat") + gen_flat("Global") + gen_flat("Scratch")
    # sanity: unique identifiers, unique (family, opcode), VOP3/VOP3SD share one opcode space
    seen, keys = {}, {}
    for r in rows:
        if r.ident in seen:
            raise SystemExit("duplicate identifier %s" % r.ident)
        seen[r.ident] = r
        k = ("Vop3" if r.fmt == "Vop3sd" else r.fmt, r.opc)
        if k in keys:
            raise SystemExit("duplicate opcode %r: %s and %s" % (k, keys[k].ident, r.ident))
        keys[k] = r
        for t in r.dsts + r.srcs:
            if t not in TY_TOKENS:
                raise SystemExit("%s: unknown type token %r" % (r.ident, t))
    return rows


TY_TOKENS = set(TY_BITS) | {"simm16", "imm16", "imm16_inline", "label", "waitcnt", "sendmsg",
                            "hwreg", "delay_alu", "depctr"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    rows = generate_all()
    text = render(rows)
    if args.check:
        with open(args.out) as f:
            if f.read() != text:
                print("%s is out of date" % args.out, file=sys.stderr)
                sys.exit(1)
    else:
        with open(args.out, "w") as f:
            f.write(text)
    for w in WARNINGS:
        print("note: " + w)
    for r in REPORT:
        print("note: " + r)
    counts = OrderedDict((f, 0) for f, _ in FAMILIES)
    for r in rows:
        counts[r.fmt] += 1
    print("rows per family:")
    for f, n in counts.items():
        print("  %-8s %4d" % (f, n))
    print("  %-8s %4d" % ("total", len(rows)))


if __name__ == "__main__":
    main()
