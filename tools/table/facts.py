"""Per-instruction facts of the gfx11 table (the row's second string column), for gen_table.py.

The signature column is probed from LLVM's tools. The facts here are rules over the probed rows
(mnemonic, family, operand types), each with its source. They are written once, here, so that
the decoder, disassembler and executor read them from the table instead of keeping hand lists
or parsing mnemonics at run time. Tokens (parsed at compile time by `isa::Facts::parse`):

  VALU (VOP1/VOP2/VOPC/VOP3/VOP3SD), the modifiers the VOP3 (e64) form takes:
    fm=0bN   sources that take float neg/abs       im=0bN   sources that take integer sext
    os=0bN   op_sel bits that exist (0-2 sources, 3 destination)
    ign      neg/abs bits accepted and ignored     clamp    omod
  dpp        has DPP16/DPP8 forms; dppf=0bN / dppi=0bN: float / sext modifiers of the e32 DPP form
  fmamk fmaak  the K literal in the middle / at the end (v_fmamk_*, v_fmaak_*, s_fmamk_f32, ...)
  fmamix     v_fma_mix*: VOP3P encoding with VOP3-style modifiers
  wmma       wave matrix multiply-accumulate; wmma_os: it has op_sel/op_sel_hi
  class      v_cmp(x)_class_*: src1 is a class mask
  sN=CLASS   source N only admits a register class (LLVM's operand class): vgpr (VGPR_32),
             sreg (SReg_32 / an SGPR-only SALU source), sreg_or_lds (SRegOrLds_32),
             vreg_or_lds (VRegOrLds_32); other sources take any register or constant
  memory:
    mem=K    load store atomic (returns the old value with GLC) atomic_rtn atomic_nortn (DS)
             load2 store2 xchg2 (DS two-address forms) cache (SMEM invalidations/probes,
             MUBUF gl0/gl1 invalidations)
             gds (DS on GDS/GWS hardware: gws_*, ordered_count, *_gs_reg_rtn)
             bvh_stack (ds_bvh_stack_rtn_b32, the ray-tracing traversal stack)
    bytes=N  bytes accessed per lane and address     sext  sign-extending load
    comps=N  MUBUF/MTBUF format conversions: number of format components (x, xy, xyz, xyzw)
    d16 / d16hi  writes / stores the low / high 16 bits of the VGPR, keeping the other half
    st64     DS two-address offsets scaled by 64 elements
    atom=OP  the atomic operation (`wavesim_core::memory::AtomicOp`)
    noaddr   no VGPR address (DS M0/wave-id forms, *_addtid_*)
    addtid   address from the lane id (DS/GLOBAL *_addtid_b32)
    lds      MUBUF load to LDS (no VGPR data, no tfe)
    sbuf     SMEM load through a buffer descriptor
    twoaddr  DS instruction with two offsets (offset0/offset1 printed separately)
  MIMG: img=K (sample gather load store atomic cmpswap msaa bvh bvh64), extra=N (offset, bias,
    z-compare arguments), grad, g16, lod (a lod/clamp/mip argument), nocoords, nod16.
"""

import re

FLOAT_TY = {"f16", "bf16", "f32", "f64", "pk_f16", "pk_bf16"}
VALU = ("Vop1", "Vop2", "Vopc", "Vop3", "Vop3sd")
WIDE = {"b64", "i64", "u64", "f64", "b96", "b128", "b160", "b192", "b224", "b256", "b512"}

# VOP3 modifier rules that do not follow from the operand types. Source: LLVM 19
# AMDGPU VOP3Instructions.td / VOPInstructions.td (the VOP3 profiles' HasModifiers,
# HasClamp, HasOMod, HasOpSel per instruction), checked by assembling each modifier with
# llvm-mc-19 for gfx1100 (the decode tests and the disassembly sweep cover every row).
# Value: (fmods, imods, ign_mods, clamp, omod, op_sel); fmods None = the float sources.
def _rule(fm=0, im=0, ign=False, clamp=False, omod=False, os=0):
    return (fm, im, ign, clamp, omod, os)


VOP3_RULES = {}


def _set(names, rule):
    for n in names.split():
        VOP3_RULES[n] = rule


# Lane selects of v_cndmask take float modifiers (gfx10+); no clamp.
_set("v_cndmask_b32 v_cndmask_b16", _rule(fm=0b011))
_set("v_cmp_class_f16 v_cmp_class_f32 v_cmp_class_f64 v_cmpx_class_f16 v_cmpx_class_f32 "
     "v_cmpx_class_f64", _rule(fm=0b001))
_set("v_dot2_f16_f16 v_dot2_bf16_bf16", _rule(fm=0b111, os=0b1100))
_set("v_permlane16_b32 v_permlanex16_b32", _rule(ign=True, os=0b0011))
_set("v_pack_b32_f16 v_cvt_pk_norm_i16_f16 v_cvt_pk_norm_u16_f16",
     _rule(fm=0b011, clamp=True, os=0b1011))
_set("v_add_nc_u16 v_sub_nc_u16 v_add_nc_i16 v_sub_nc_i16", _rule(ign=True, clamp=True, os=0b1011))
_set("v_mad_u16 v_mad_i16 v_min3_i16 v_min3_u16 v_max3_i16 v_max3_u16 v_med3_i16 v_med3_u16 "
     "v_mad_u32_u16 v_mad_i32_i16", _rule(ign=True, clamp=True, os=0b1111))
# In VOP3 the exponent of v_ldexp_f16 takes float modifiers like the mantissa.
_set("v_ldexp_f16", _rule(fm=0b011, clamp=True, omod=True))
_set("v_fmac_f16", _rule(fm=0b011, clamp=True, omod=True, os=0b1011))
_set("v_fma_f16 v_min3_f16 v_max3_f16 v_med3_f16 v_div_fixup_f16",
     _rule(fm=0b111, clamp=True, omod=True, os=0b1111))
_set("v_ldexp_f32 v_ldexp_f64 v_trig_preop_f64", _rule(fm=0b001, im=0b010, clamp=True, omod=True))
_set("v_cvt_pk_u8_f32", _rule(fm=0b001, im=0b110, clamp=True))
_set("v_cvt_pk_i16_f32 v_cvt_pk_u16_f32 v_cvt_pk_norm_i16_f32 v_cvt_pk_norm_u16_f32 "
     "v_cvt_nearest_i32_f32 v_cvt_floor_i32_f32 v_frexp_exp_i32_f32", _rule(fm=None, clamp=True))
# Carry and 64-bit multiply-add ops: the bits above vdst hold sdst; clamp only.
_set("v_add_co_ci_u32 v_sub_co_ci_u32 v_subrev_co_ci_u32 v_mad_u64_u32 v_mad_i64_i32 "
     "v_add_co_u32 v_sub_co_u32 v_subrev_co_u32", _rule(clamp=True))
_set("v_mad_i32_i24 v_mad_u32_u24 v_sad_u8 v_sad_hi_u8 v_sad_u16 v_sad_u32 v_msad_u8 "
     "v_qsad_pk_u16_u8 v_mqsad_pk_u16_u8 v_mqsad_u32_u8 v_mul_i32_i24 v_mul_u32_u24 "
     "v_add_nc_u32 v_sub_nc_u32 v_subrev_nc_u32 v_sub_nc_i32 v_add_nc_i32", _rule(clamp=True))


def vop3_mods(r):
    n = len(r.srcs)
    fmods = sum(1 << i for i, t in enumerate(r.srcs) if t in FLOAT_TY)
    if r.mnem in VOP3_RULES:
        fm, im, ign, clamp, omod, os = VOP3_RULES[r.mnem]
        return (fmods if fm is None else fm, im, ign, clamp, omod, os)
    dst_float = bool(r.dsts) and r.dsts[0] in FLOAT_TY
    src0_float = bool(r.srcs) and r.srcs[0] in FLOAT_TY
    if r.fmt == "Vopc":
        # Float compares: modifiers and clamp, no omod; integer compares: nothing.
        if fmods:
            return ((1 << n) - 1, 0, False, True, False, 0)
        return (0, 0, False, False, False, 0)
    if src0_float or fmods:
        return (fmods, 0, False, True, True, 0)
    if dst_float:
        # Integer to float conversions: clamp and output modifier, no input modifiers.
        return (0, 0, False, True, True, 0)
    return (0, 0, False, False, False, 0)


FMAMK = {"v_fmamk_f32", "v_fmamk_f16", "s_fmamk_f32"}
FMAAK = {"v_fmaak_f32", "v_fmaak_f16", "s_fmaak_f32"}
# No DPP forms for these (LLVM 19, gfx11: the VOP profiles set HasExtDPP = 0 for lane reads and
# writes, swaps, the dx9 FMAs, the division helpers, the permlanes and the 32-bit multiplies).
NO_DPP = set("v_readfirstlane_b32 v_swap_b32 v_permlane64_b32 v_swaprel_b32 "
             "v_fmac_dx9_zero_f32 v_fma_dx9_zero_f32 v_div_fixup_f32 v_div_fmas_f32 "
             "v_div_scale_f32 v_permlane16_b32 v_permlanex16_b32 v_mul_lo_u32 v_mul_hi_u32 "
             "v_mul_hi_i32 v_readlane_b32 v_writelane_b32".split())


def has_dpp(r):
    """DPP16/DPP8 forms: not for 64-bit operands (LLVM: no DPP for 64-bit VALU on gfx11), not
    without sources, not for the FMAMK/FMAAK literal forms, not for NO_DPP."""
    if not r.srcs or r.mnem in FMAMK or r.mnem in FMAAK:
        return False
    if any(t in WIDE for t in r.dsts + r.srcs):
        return False
    return r.mnem not in NO_DPP


def dpp_e32_mods(r, fm):
    """Input modifiers of the VOP1/VOP2/VOPC DPP forms: v_ldexp_f16's exponent takes sext there
    (but float modifiers in VOP3); v_mov_b16's source takes sext (llvm prints `sext(vN.l)`)."""
    if r.mnem == "v_ldexp_f16":
        return 0b01, 0b10
    if r.mnem == "v_mov_b16":
        return 0, 0b01
    return fm & 0b11, 0


# Sources restricted to a register class, from LLVM 19's gfx11 operand classes (VOP1/VOP2/VOP3
# and SOP1 instruction definitions): lane reads and writes, permlanes, VGPR-indexed moves and
# swaps, and the SALU moves/jumps whose source is SReg only. The disassembler prints a register
# of another class, or a constant, with LLVM's "Invalid register/immediate" remark.
REG_CLASSES = {
    "v_readlane_b32": ["vgpr", "sreg"],
    "v_readfirstlane_b32": ["vreg_or_lds"],
    "v_writelane_b32": ["sreg_or_lds", "sreg"],
    "v_permlane16_b32": ["vgpr", "sreg", "sreg"],
    "v_permlanex16_b32": ["vgpr", "sreg", "sreg"],
    "s_movrels_b32": ["sreg"],
    "s_movrels_b64": ["sreg"],
    "s_setpc_b64": ["sreg"],
    "s_rfe_b64": ["sreg"],
}
for _n in ("v_movrels_b32 v_movrelsd_b32 v_movrelsd_2_b32 v_swap_b32 v_swaprel_b32 "
           "v_permlane64_b32").split():
    REG_CLASSES[_n] = ["vgpr"] * 4  # every source of these VGPR data movements


def reg_classes(r):
    return ["s%d=%s" % (k, c) for k, c in enumerate(REG_CLASSES.get(r.mnem, [])[:len(r.srcs)])]


def b(v):
    return "0b{:b}".format(v)


def valu_facts(r):
    out = []
    fm, im, ign, clamp, omod, os = vop3_mods(r)
    if fm:
        out.append("fm=" + b(fm))
    if im:
        out.append("im=" + b(im))
    if os:
        out.append("os=" + b(os))
    out += [t for t, on in (("ign", ign), ("clamp", clamp), ("omod", omod)) if on]
    if has_dpp(r):
        out.append("dpp")
        if r.fmt in ("Vop1", "Vop2", "Vopc"):
            f, i = dpp_e32_mods(r, fm)
            if f:
                out.append("dppf=" + b(f))
            if i:
                out.append("dppi=" + b(i))
    if r.mnem in FMAMK:
        out.append("fmamk")
    if r.mnem in FMAAK:
        out.append("fmaak")
    if re.match(r"v_cmpx?_class_", r.mnem):
        out.append("class")
    return out + reg_classes(r)


def vop3p_facts(r):
    out = []
    # v_fma_mix*: VOP3P encodings with VOP3-style modifiers (neg_hi bits are abs); RDNA3 ISA,
    # "VOP3P": V_FMA_MIX_F32, V_FMA_MIXLO_F16, V_FMA_MIXHI_F16.
    if r.mnem in ("v_fma_mix_f32", "v_fma_mixlo_f16", "v_fma_mixhi_f16"):
        out.append("fmamix")
    if r.mnem.startswith("v_wmma_"):
        out.append("wmma")
        # The 16-bit-accumulator WMMAs have op_sel (which half of the D/C registers); the
        # others have neither op_sel nor op_sel_hi (RDNA3 ISA "WMMA"; LLVM VOP3PInstructions.td).
        if r.mnem.split("_")[2] in ("f16", "bf16"):
            out.append("wmma_os")
    return out


# Atomic operation of the mnemonic body (`add_u32`, `min_rtn_f64`, `cmpswap_b32`, ...): the
# RDNA3 ISA's atomic opcode tables ("FLAT, Scratch and Global Instructions", "LDS", "MUBUF")
# name the operation and its type the same way in every family.
ATOMS = {"add": "add", "sub": "sub", "rsub": "rsub", "csub": "csub", "inc": "inc", "dec": "dec",
         "and": "and", "or": "or", "xor": "xor", "mskor": "mskor", "swap": "xchg",
         "storexchg": "xchg", "wrap": "wrap"}


def atomic_op(body):
    body = body.replace("_rtn", "")
    if "_" not in body:
        return None
    tok, ty = body.rsplit("_", 1)
    f, i = ty.startswith("f"), ty.startswith("i")
    if tok == "add" and f:
        return "addf"
    if tok in ("min", "max"):
        return tok + ("f" if f else "i" if i else "u")
    if tok in ("cmpswap", "cmpstore"):
        return "cmpswapf" if f else "cmpswap"
    return ATOMS.get(tok)


LOADS = {"u8": (1, False), "i8": (1, True), "u16": (2, False), "i16": (2, True), "b32": (4, False),
         "b64": (8, False), "b96": (12, False), "b128": (16, False)}
STORES = {"b8": 1, "b16": 2, "b32": 4, "b64": 8, "b96": 12, "b128": 16}


def load_store(rest, d16_suffix):
    """Facts of a plain load/store body (`load_i8`, `load_d16_hi_b16`, `store_b8_d16_hi`, ...).
    FLAT/MUBUF spell D16 before the type (`load_d16_hi_u8`), DS after it (`load_u8_d16_hi`)."""
    toks = rest.split("_")
    kind = toks[0]
    if kind not in ("load", "store"):
        return None
    toks = toks[1:]
    d16 = hi = False
    if d16_suffix:
        if toks[-1:] == ["hi"] and toks[-2:-1] == ["d16"]:
            d16, hi, toks = True, True, toks[:-2]
        elif toks[-1:] == ["d16"]:
            d16, toks = True, toks[:-1]
    else:
        if toks[:2] == ["d16", "hi"]:
            d16, hi, toks = True, True, toks[2:]
        elif toks[:1] == ["d16"]:
            d16, toks = True, toks[1:]
    if len(toks) != 1:
        return None
    t = toks[0]
    if kind == "load":
        if t == "b16" and d16:
            t = "u16"  # load_d16_b16 / ds_load_u16_d16: a 16-bit load
        if t not in LOADS:
            return None
        n, sext = LOADS[t]
        out = ["mem=load", "bytes=%d" % n] + (["sext"] if sext else [])
    else:
        if t not in STORES:
            return None
        out = ["mem=store", "bytes=%d" % STORES[t]]
    if d16:
        out.append("d16hi" if hi else "d16")
    return out


def flat_facts(r):
    rest = r.mnem.split("_", 1)[1]
    if rest in ("load_addtid_b32", "store_addtid_b32"):
        return ["mem=" + rest.split("_")[0], "bytes=4", "noaddr", "addtid"]
    if rest.startswith("atomic_"):
        a = atomic_op(rest[len("atomic_"):])
        out = ["mem=atomic", "bytes=%d" % (8 if rest.endswith("64") else 4)]
        return out + (["atom=" + a] if a else [])
    return load_store(rest, False) or []


# DS instructions without a VGPR address: they work on M0 or the wave id (RDNA3 ISA, "LDS and
# GDS instructions").
DS_NOADDR = {"ds_nop", "ds_consume", "ds_append", "ds_store_addtid_b32", "ds_load_addtid_b32",
             "ds_gws_init", "ds_gws_sema_v", "ds_gws_sema_br", "ds_gws_sema_p",
             "ds_gws_barrier", "ds_gws_sema_release_all", "ds_add_gs_reg_rtn",
             "ds_sub_gs_reg_rtn"}


def ds_facts(r):
    rest = r.mnem[len("ds_"):]
    out = []
    m = re.match(r"(load|store|storexchg)_2addr_(stride64_)?(rtn_)?b(32|64)$", rest)
    if m:
        kind = {"load": "load2", "store": "store2", "storexchg": "xchg2"}[m.group(1)]
        out = ["mem=" + kind, "bytes=%d" % (int(m.group(4)) // 8), "twoaddr"]
        if m.group(2):
            out.append("st64")
    elif rest in ("load_addtid_b32", "store_addtid_b32"):
        out = ["mem=" + rest.split("_")[0], "bytes=4", "addtid"]
    elif load_store(rest, True):
        out = load_store(rest, True)
    elif rest.startswith("gws_") or rest == "ordered_count" or rest.endswith("gs_reg_rtn"):
        # Global wave sync, ordered count and the GS streamout registers work on GDS/GWS
        # hardware (RDNA3 ISA, "Global Data Share"), not on the workgroup's LDS.
        out = ["mem=gds"]
    elif rest.startswith("bvh_stack"):
        out = ["mem=bvh_stack"]
    elif rest != "condxchg32_rtn_b64":
        a = atomic_op(rest)
        if a:
            out = ["mem=atomic_rtn" if "_rtn_" in rest else "mem=atomic_nortn",
                   "bytes=%d" % (8 if rest.endswith("64") else 4), "atom=" + a]
    if r.mnem in DS_NOADDR:
        out.append("noaddr")
    return out


def buffer_facts(r):
    rest = r.mnem.split("_", 1)[1]
    if rest.startswith("atomic_"):
        a = atomic_op(rest[len("atomic_"):])
        out = ["mem=atomic", "bytes=%d" % (8 if rest.endswith("64") else 4)]
        return out + (["atom=" + a] if a else [])
    m = re.match(r"(load|store)_(d16_(hi_)?)?format_(x|xy|xyz|xyzw)$", rest)
    if m and "_lds_" not in r.mnem:
        # Format conversions: one element per component of the (buffer or instruction) format.
        out = ["mem=" + m.group(1), "comps=%d" % len(m.group(4))]
        if m.group(2):
            out.append("d16hi" if m.group(3) else "d16")
        return out
    if rest in ("gl0_inv", "gl1_inv"):
        return ["mem=cache"]
    out = load_store(rest, False) or []
    if "_lds_" in r.mnem:
        out.append("lds")
    return out


def smem_facts(r):
    m = re.match(r"s_(buffer_)?load_b(\d+)$", r.mnem)
    if m:
        return ["mem=load", "bytes=%d" % (int(m.group(2)) // 8)] + (["sbuf"] if m.group(1) else [])
    if r.mnem in ("s_dcache_inv", "s_gl1_inv", "s_atc_probe", "s_atc_probe_buffer"):
        return ["mem=cache"]
    return []


# Image atomics name the operation and its signedness without a type suffix (RDNA3 ISA, "Image
# Instructions": IMAGE_ATOMIC_SMIN = signed minimum, ...).
IMAGE_ATOMS = {"swap": "xchg", "cmpswap": "cmpswap", "add": "add", "sub": "sub", "smin": "mini",
               "umin": "minu", "smax": "maxi", "umax": "maxu", "and": "and", "or": "or",
               "xor": "xor", "inc": "inc", "dec": "dec"}


def mimg_facts(r):
    """Address and data properties of an image opcode (LLVM's `MIMGBaseOpcode` fields, which
    the mnemonic spells: `_o` offset, `_b` bias, `_c` z-compare, `_d` gradients, `_g16` 16-bit
    gradients, `_l`/`_cl`/`_mip` a lod argument)."""
    name = r.mnem
    parts = name.split("_")
    has = lambda s: s in parts[2:]
    if name.startswith("image_bvh"):
        return ["img=bvh64" if name.startswith("image_bvh64") else "img=bvh", "nod16"]
    if name.startswith("image_sample") or name.startswith("image_gather4") or \
            name == "image_get_lod":
        out = ["img=gather" if name.startswith("image_gather4") else "img=sample"]
        extra = int(has("o")) + int(has("b")) + int(has("c"))
        if extra:
            out.append("extra=%d" % extra)
        out += [t for t, on in (("grad", has("d")), ("g16", has("g16")),
                                ("lod", has("l") or has("cl")),
                                ("nod16", name == "image_get_lod")) if on]
        return out
    if name.startswith("image_atomic"):
        op = IMAGE_ATOMS.get(name[len("image_atomic_"):])
        out = ["img=cmpswap" if op == "cmpswap" else "img=atomic", "nod16", "mem=atomic"]
        return out + (["atom=" + op] if op else [])
    if name == "image_msaa_load":
        return ["img=msaa"]
    out = ["img=store" if name.startswith("image_store") else "img=load"]
    out += [t for t, on in (("lod", has("mip") or name == "image_get_resinfo"),
                            ("nocoords", name == "image_get_resinfo"),
                            ("nod16", "_pck" in name or name == "image_get_resinfo")) if on]
    return out


def facts(r):
    """The facts tokens of row `r` (a gen_table.Row)."""
    if r.fmt in VALU:
        return valu_facts(r)
    if r.fmt in ("Sop1", "Sop2", "Sopc", "Sopk"):
        fmak = ["fmamk"] if r.mnem in FMAMK else ["fmaak"] if r.mnem in FMAAK else []
        return fmak + reg_classes(r)
    if r.fmt == "Vop3p":
        return vop3p_facts(r)
    if r.fmt in ("Flat", "Global", "Scratch"):
        return flat_facts(r)
    if r.fmt == "Ds":
        return ds_facts(r)
    if r.fmt in ("Mubuf", "Mtbuf"):
        return buffer_facts(r)
    if r.fmt == "Smem":
        return smem_facts(r)
    if r.fmt == "Mimg":
        return mimg_facts(r)
    return []
