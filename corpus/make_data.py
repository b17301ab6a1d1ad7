#!/usr/bin/env python3
"""Generate the corpus's run descriptions, inputs and reference outputs.

Writes (deterministically, fixed seeds):
  corpus/data/RUN.aK.bin           input bytes of kernel argument K (buf:)
  corpus/data/RUN.aK.expect.bin    expected bytes of buffer argument K after the run
  corpus/data/RUN.aK.expect_w64.bin   (only where wave64 differs from wave32)
  corpus/runs.toml                 one [[run]] table per dispatch (format: see README.md)

Reference outputs are computed independently of wavesim:
  * "pocl":  the very same cl/OBJECT.cl source is compiled and run natively on the CPU by PoCL
             (pip install numpy pyopencl; apt-get install pocl-opencl-icd ocl-icd-opencl-dev);
  * "model": a Python/numpy re-implementation of the kernel (for features PoCL lacks: half,
             sub-groups, AMDGPU builtins, OpenCL 2.0 work-item/work-group functions; and as a cross-check).
When a run has both, both are computed and must agree under the run's comparison rule.

Usage: python3 corpus/make_data.py [--only RUN[,RUN...]] [--no-pocl]
  --no-pocl   skip PoCL (runs whose only reference is PoCL keep their existing expect files).
"""
import argparse
import math
import os
import struct
import sys
import zlib
from fractions import Fraction

try:
    import numpy as np
except ImportError:
    sys.exit("make_data.py: numpy is missing: pip install numpy")

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
CL_DIR = os.path.join(HERE, "cl")

# ----------------------------------------------------------------------------------------------
# argument specs
# ----------------------------------------------------------------------------------------------
SCALAR_TYPES = {
    "u8": np.uint8, "i8": np.int8, "u16": np.uint16, "i16": np.int16,
    "u32": np.uint32, "i32": np.int32, "u64": np.uint64, "i64": np.int64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
}


class Scalar:
    def __init__(self, ty, value):
        self.ty = ty
        self.value = SCALAR_TYPES[ty](value)
        if ty.startswith("f"):
            assert float(self.value) == float(value) or math.isnan(value), (ty, value)

    def spec(self):
        if self.ty.startswith("f"):
            return "%s:%r" % (self.ty, float(self.value))
        return "%s:%d" % (self.ty, int(self.value))


class Buf:
    def __init__(self, array):
        self.data = np.ascontiguousarray(array).tobytes()


class Zeros:
    def __init__(self, nbytes):
        self.nbytes = int(nbytes)


class Local:
    def __init__(self, nbytes):
        self.nbytes = int(nbytes)


class Run:
    def __init__(self, name, obj, kernel, glob, local, args, expect, compare=None, offset=None,
                 model=None, model_w64=None, pocl=True, pocl_pad=False, pocl_options="", note="",
                 pocl_exempt=None):
        self.name, self.obj, self.kernel = name, obj, kernel
        self.glob, self.local = list(glob), list(local)
        assert len(self.glob) == len(self.local)
        self.offset = list(offset) if offset else None
        self.args = args
        self.expect = list(expect)          # buffer argument indices that are checked
        self.compare = compare or {}        # index -> rule (default exact)
        self.model = model                  # f(run) -> {index: bytes}   (wave32, or wave-independent)
        self.model_w64 = model_w64          # f(run) -> {index: bytes}   (wave64 where it differs)
        self.pocl = pocl
        self.pocl_pad = pocl_pad            # PoCL needs a uniform grid: pad it (kernel bounds-checks)
        self.pocl_options = pocl_options
        # f(run) -> {index: bool array over the buffer's 32-bit words}: words where the AMD device
        # libraries linked into the code objects define the result differently from PoCL's
        # library (documented at the run). The model follows the code object there; those
        # words are not cross-checked against PoCL.
        self.pocl_exempt = pocl_exempt
        self.note = note
        self.cl_dir = CL_DIR  # cl/ (gfx1100 objects); cl115/ for the RDNA3.5 runs

    # helpers for models
    def inbuf(self, k, dtype):
        a = self.args[k]
        if isinstance(a, Buf):
            return np.frombuffer(a.data, dtype=dtype).copy()
        assert isinstance(a, Zeros)
        return np.zeros(a.nbytes // np.dtype(dtype).itemsize, dtype=dtype)

    def scalar(self, k):
        return self.args[k].value


# ----------------------------------------------------------------------------------------------
# exact rounding helpers (Fraction -> binary floating point)
# ----------------------------------------------------------------------------------------------
FMT = {"f16": (11, -14, 15, np.float16), "f32": (24, -126, 127, np.float32), "f64": (53, -1022, 1023, np.float64)}


def round_frac(fr, fmt, mode="rte", zero_sign=0):
    """Round an exact rational to the format with the given rounding mode; returns a numpy scalar."""
    p, emin, emax, ty = FMT[fmt]
    if fr == 0:
        return ty(-0.0) if zero_sign else ty(0.0)
    neg = fr < 0
    a = -fr if neg else fr
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    if Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)
    q = Fraction(2) ** (e - (p - 1))
    m = a / q
    fl = m.numerator // m.denominator
    rem = m - fl
    if mode == "rte":
        up = rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1)
    elif mode == "rtz":
        up = False
    elif mode == "rtp":
        up = rem > 0 and not neg
    elif mode == "rtn":
        up = rem > 0 and neg
    else:
        raise ValueError(mode)
    m = fl + (1 if up else 0)
    val = m * q
    maxf = (Fraction(2) - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if val > maxf:
        if mode == "rte" or (mode == "rtp" and not neg) or (mode == "rtn" and neg):
            val = None
        else:
            val = maxf
    if val is None:
        r = ty(np.inf)
    else:
        r = ty(float(val))
    return ty(-r) if neg else r


def exact_fma(a, b, c, fmt):
    a, b, c = float(a), float(b), float(c)
    prod = Fraction(a) * Fraction(b)
    s = prod + Fraction(c)
    zero_sign = 0
    if s == 0:
        # exact zero: -0 only when both addends are zeros with negative sign (round to nearest)
        prod_neg = (math.copysign(1, a) * math.copysign(1, b)) < 0
        zero_sign = 1 if (prod == 0 and c == 0 and prod_neg and math.copysign(1, c) < 0) else 0
    return round_frac(s, fmt, "rte", zero_sign)


def int_to_float(v, fmt, mode="rte"):
    return round_frac(Fraction(int(v)), fmt, mode)


# ----------------------------------------------------------------------------------------------
# comparison rules (also documented in README.md)
# ----------------------------------------------------------------------------------------------
FTYPE = {"f16": (np.float16, np.uint16, 16), "f32": (np.float32, np.uint32, 32), "f64": (np.float64, np.uint64, 64)}


def parse_rule(rule):
    if rule == "exact":
        return ("exact", 0, None)
    parts = rule.split(":")
    if parts[0] == "exact_nan" and len(parts) == 2:
        return ("exact_nan", 0, parts[1])
    if parts[0] == "ulp" and len(parts) in (2, 3):
        return ("ulp", int(parts[1]), parts[2] if len(parts) > 2 else "f32")
    raise ValueError(rule)


def ordinal(bits, nbits):
    """Map IEEE bit patterns to integers ordered like the values (+0 and -0 both map to 0)."""
    sign = 1 << (nbits - 1)
    return [b if not (b & sign) else -(b ^ sign) for b in bits]


def compare_bytes(got, want, rule):
    """Returns None if equal under the rule, else a description of the first mismatch."""
    kind, n, fmt = parse_rule(rule)
    if len(got) != len(want):
        return "length %d != %d" % (len(got), len(want))
    if kind == "exact":
        if got == want:
            return None
        g = np.frombuffer(got, np.uint8)
        w = np.frombuffer(want, np.uint8)
        i = int(np.nonzero(g != w)[0][0])
        return "byte %d: got %#x want %#x (%d bytes differ)" % (i, g[i], w[i], int((g != w).sum()))
    fty, ity, nbits = FTYPE[fmt]
    gf = np.frombuffer(got, fty)
    wf = np.frombuffer(want, fty)
    gb = np.frombuffer(got, ity).tolist()
    wb = np.frombuffer(want, ity).tolist()
    go, wo = ordinal(gb, nbits), ordinal(wb, nbits)
    gn, wn = np.isnan(gf), np.isnan(wf)
    for i in range(len(gb)):
        if gn[i] or wn[i]:
            if gn[i] and wn[i]:
                continue
            return "element %d: got %r want %r" % (i, gf[i], wf[i])
        if kind == "exact_nan":
            if gb[i] != wb[i]:
                return "element %d: got %r (%#x) want %r (%#x)" % (i, gf[i], gb[i], wf[i], wb[i])
        elif abs(go[i] - wo[i]) > n:
            return "element %d: got %r want %r (%d ulp > %d)" % (i, gf[i], wf[i], abs(go[i] - wo[i]), n)
    return None


def max_ulp(got, want, fmt):
    fty, ity, nbits = FTYPE[fmt]
    gf, wf = np.frombuffer(got, fty), np.frombuffer(want, fty)
    go = ordinal(np.frombuffer(got, ity).tolist(), nbits)
    wo = ordinal(np.frombuffer(want, ity).tolist(), nbits)
    m = 0
    for i in range(len(go)):
        if np.isnan(gf[i]) and np.isnan(wf[i]):
            continue
        m = max(m, abs(go[i] - wo[i]))
    return m


# ----------------------------------------------------------------------------------------------
# PoCL runner
# ----------------------------------------------------------------------------------------------
_cl = None
_ctx = None
_queue = None
_programs = {}


def pocl_init():
    global _cl, _ctx, _queue
    try:
        import pyopencl as cl
    except ImportError:
        sys.exit("make_data.py: pyopencl is missing. Install PoCL and pyopencl:\n"
                 "    apt-get install -y pocl-opencl-icd ocl-icd-opencl-dev && pip install pyopencl\n"
                 "or run with --no-pocl (keeps the existing expect files of PoCL-only runs).")
    _cl = cl
    plats = [p for p in cl.get_platforms() if "Portable Computing Language" in p.name]
    if not plats:
        raise RuntimeError("PoCL platform not found")
    _ctx = cl.Context(plats[0].get_devices())
    _queue = cl.CommandQueue(_ctx)


def build_flags(obj, cl_dir=CL_DIR):
    src = os.path.join(cl_dir, obj + ".cl")
    flags = []
    for line in open(src):
        if line.startswith("// build-flags:"):
            flags += line.split(":", 1)[1].split()
    return flags


def pocl_run(run):
    cl = _cl
    key = (run.cl_dir, run.obj, run.pocl_options)
    if key not in _programs:
        src = open(os.path.join(run.cl_dir, run.obj + ".cl")).read()
        opts = " ".join(build_flags(run.obj, run.cl_dir) + (run.pocl_options or "-cl-std=CL1.2").split())
        _programs[key] = cl.Program(_ctx, src).build(options=opts)
    prog = _programs[key]
    kern = getattr(prog, run.kernel)
    mf = cl.mem_flags
    cargs, bufs = [], {}
    for k, a in enumerate(run.args):
        if isinstance(a, Scalar):
            cargs.append(a.value)
        elif isinstance(a, Buf):
            b = cl.Buffer(_ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.frombuffer(a.data, np.uint8).copy())
            bufs[k] = (b, len(a.data))
            cargs.append(b)
        elif isinstance(a, Zeros):
            b = cl.Buffer(_ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(a.nbytes, np.uint8))
            bufs[k] = (b, a.nbytes)
            cargs.append(b)
        elif isinstance(a, Local):
            cargs.append(cl.LocalMemory(a.nbytes))
    glob = list(run.glob)
    if any(g % l for g, l in zip(glob, run.local)):
        if not run.pocl_pad:
            raise RuntimeError("%s: non-uniform grid but pocl_pad not allowed" % run.name)
        glob = [(g + l - 1) // l * l for g, l in zip(glob, run.local)]
    kern.set_args(*cargs)
    cl.enqueue_nd_range_kernel(_queue, kern, tuple(glob), tuple(run.local),
                               global_work_offset=tuple(run.offset) if run.offset else None)
    out = {}
    for k in run.expect:
        b, n = bufs[k]
        h = np.empty(n, np.uint8)
        cl.enqueue_copy(_queue, h, b)
        out[k] = h.tobytes()
    _queue.finish()
    return out


# ----------------------------------------------------------------------------------------------
# data helpers
# ----------------------------------------------------------------------------------------------
def rng(seed):
    return np.random.default_rng(seed)


def u32_mix(r, n, specials=()):
    a = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    small = r.integers(0, 300, n // 4).astype(np.uint32)
    a[: n // 4] = small
    r.shuffle(a)
    for i, s in enumerate(specials):
        a[i * 7 % n] = s
    return a


def u64_mix(r, n, specials=()):
    a = r.integers(0, 2**64, n, dtype=np.uint64)
    k = n // 4
    a[:k] = r.integers(0, 2**32, k, dtype=np.uint64)
    a[k:2 * k] = r.integers(0, 1000, k, dtype=np.uint64)
    r.shuffle(a)
    for i, s in enumerate(specials):
        a[i * 7 % n] = np.uint64(s)
    return a


def ceil_to(x, m):
    return (x + m - 1) // m * m


RUNS = []


def add(run):
    """Register a run. Models are evaluated right away, while the defining scope's variables
    (sizes such as n) still have the values the run was built with."""
    run.model_result = run.model(run) if run.model else None
    run.model64_result = run.model_w64(run) if run.model_w64 else None
    RUNS.append(run)
    return run


def asbytes(arr, dtype=None):
    a = np.asarray(arr, dtype=dtype) if dtype is not None else np.asarray(arr)
    return np.ascontiguousarray(a).tobytes()


def to_u32(x):
    return x & 0xFFFFFFFF


def s32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


def s64(x):
    x &= 0xFFFFFFFFFFFFFFFF
    return x - (1 << 64) if x >> 63 else x


def cdiv(a, b):
    """C integer division (truncating)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def crem(a, b):
    return a - cdiv(a, b) * b


# ==============================================================================================
# run definitions
# ==============================================================================================
M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


def popc(x):
    return bin(x).count("1")


def clz32(x):
    return 32 - x.bit_length()


def ctz32(x):
    return 32 if x == 0 else (x & -x).bit_length() - 1


def rotl32(x, s):
    s &= 31
    return ((x << s) | (x >> (32 - s))) & M32 if s else x


def rotl64(x, s):
    s &= 63
    return ((x << s) | (x >> (64 - s))) & M64 if s else x


def per_elem(n, width, dtype, fn):
    out = np.zeros(n * width, dtype=dtype)
    for i in range(n):
        out[i * width:(i + 1) * width] = fn(i)
    return out


def define_integer_runs():
    # ---- int32_arith ------------------------------------------------------------------------
    r = rng(101)
    n = 600
    sp = [0, 1, M32, 0x80000000, 0x7FFFFFFF, 2, 31, 32, 0xFFFF, 0x10000, 0x800000, 0xFF800000]
    a, b = u32_mix(r, n, sp), u32_mix(r, n, sp[::-1])

    def m_int32_arith(run):
        A, B = run.inbuf(0, np.uint32), run.inbuf(1, np.uint32)

        def f(i):
            x, y = int(A[i]), int(B[i])
            sx, sy = s32(x), s32(y)
            s = y & 31
            se24 = lambda v: s32((v << 8) & M32) >> 8
            return [to_u32(v) for v in [
                x + y, x - y, x * y, x << s, x >> s, sx >> s, x & y, x | y, x ^ y, ~x,
                (x * y) >> 32, (sx * sy) >> 32, (x & 0xFFFFFF) * (y & 0xFFFFFF), se24(x) * se24(y) + sx,
                abs(sx), abs(s32(x - y)), min(x + y, M32), max(min(sx + sy, 2**31 - 1), -2**31),
                max(x - y, 0), max(min(sx - sy, 2**31 - 1), -2**31), (x + y) >> 1, (x + y + 1) >> 1,
                min(x, y), max(sx, sy), max(min(sx, 100000), -100000),
                (sx < sy) | ((x < y) << 1) | ((x == y) << 2) | ((sx >= sy) << 3) | ((x != y) << 4),
                x * 0x9E3779B9 + 12345, x // 10, x % 1000, cdiv(sx, -7), crem(sx, 13),
                cdiv(sx, 16) + (x >> 3) * 5 - (x << 30)]]
        return {2: asbytes(per_elem(n, 32, np.uint32, f))}

    # abs_diff(int, int): the ROCm device library computes max(x, y) - min(x, y) as a signed
    # `sub nsw`, which LLVM folds into abs(x - y) (v_sub + v_max_i32 of d and -d in the code
    # object): where x - y overflows int it yields |wrapped difference|, not OpenCL's exact
    # |x - y|. The model follows the code object (o[15]); PoCL's exact value is not compared there.
    def abs_diff_overflows(run):
        A, B = run.inbuf(0, np.uint32), run.inbuf(1, np.uint32)
        mask = np.zeros(len(A) * 32, bool)
        for i in range(len(A)):
            dlt = s32(int(A[i])) - s32(int(B[i]))
            mask[i * 32 + 15] = not (-2**31 <= dlt < 2**31)
        return {2: mask}
    add(Run("int32_arith", "int32_arith", "int32_arith", [640], [128],
            [Buf(a), Buf(b), Zeros(n * 32 * 4), Scalar("u32", n)], [2], model=m_int32_arith,
            pocl_exempt=abs_diff_overflows,
            note="padded grid: last work-group has 40 idle lanes; abs_diff(int) follows the ROCm "
                 "device library (|x - y| of the wrapped 32-bit difference)"))

    # ---- int32_bits -------------------------------------------------------------------------
    r = rng(102)
    n = 1000
    a, b = u32_mix(r, n, sp), u32_mix(r, n, [3, 0, 31, 32, 33, 64, M32])

    def m_int32_bits(run):
        A, B = run.inbuf(0, np.uint32), run.inbuf(1, np.uint32)

        def f(i):
            x, y = int(A[i]), int(B[i])
            c = 0x0F0F0F0F ^ (x >> 4)
            bs = ((x & 0xFF) << 24) | ((x & 0xFF00) << 8) | ((x >> 8) & 0xFF00) | (x >> 24)
            return [to_u32(v) for v in [
                popc(x), clz32(x), ctz32(x), rotl32(x, y), rotl32(x, 13), (x >> 5) & 0x3FF,
                s32((x << 7) & M32) >> 20, (x & ~(0xFF << 8)) | ((y & 0xFF) << 8),
                (x & ~c) | (y & c), bs, int("{:032b}".format(x)[::-1], 2), ((x & 0xFFFF) << 16) | (y >> 16),
                popc(x & y) + clz32(x | 1) * 100, clz32(y) + popc(x) * 64, x & (x - 1), x & (-x)]]
        return {2: asbytes(per_elem(n, 16, np.uint32, f))}
    add(Run("int32_bits", "int32_bits", "int32_bits", [1000], [100],
            [Buf(a), Buf(b), Zeros(n * 16 * 4), Scalar("u32", n)], [2], model=m_int32_bits,
            pocl_options="-cl-std=CL2.0", note="PoCL needs -cl-std=CL2.0 for ctz"))

    # ---- int64_ops --------------------------------------------------------------------------
    r = rng(103)
    n = 400
    sp64 = [0, 1, M64, 1 << 63, (1 << 63) - 1, 1 << 32, M32, 63, 64, 0xFFFFFFFF00000000]
    a, b = u64_mix(r, n, sp64), u64_mix(r, n, sp64[::-1])

    def m_int64(run):
        A, B = run.inbuf(0, np.uint64), run.inbuf(1, np.uint64)

        def f(i):
            x, y = int(A[i]), int(B[i])
            sx, sy = s64(x), s64(y)
            s = y & 63
            return [v & M64 for v in [
                x + y, x - y, x * y, x << s, x >> s, sx >> s, (x & y) ^ (x | (~y & M64)),
                (x * y) >> 64, (sx * sy) >> 64, (x & M32) * (y & M32), s32(x & M32) * s32(y & M32),
                x if sx < sy else y, x + 1 if x < y else y - 1,
                (x == y) | ((sx > sy) << 1) | ((x >= y) << 2) | ((sx <= 0) << 3),
                popc(x) + ((64 - x.bit_length()) << 8) + (popc(y) << 16), rotl64(x, s), min(x, y),
                max(sx, sy), abs(sx), x * 0x9E3779B97F4A7C15 + 0x1234567890, (x >> 32) | (y << 32),
                s32((x >> 16) & M32), min(x + y, M64), max(min(sx - sy, 2**63 - 1), -2**63)]]
        return {2: asbytes(per_elem(n, 24, np.uint64, f))}
    add(Run("int64_ops", "int64_ops", "int64_ops", [448], [64],
            [Buf(a), Buf(b), Zeros(n * 24 * 8), Scalar("u32", n)], [2], model=m_int64))

    # ---- intdiv32 ---------------------------------------------------------------------------
    r = rng(104)
    n = 1000
    a = u32_mix(r, n, [0, 1, M32, 0x80000000, 0x7FFFFFFF, 12345, 0xFFFFFFF9])
    b = np.concatenate([r.integers(1, 100, n // 4), r.integers(1, 1 << 16, n // 4),
                        r.integers(1, 1 << 32, n // 4), (-r.integers(1, 1000, n - 3 * (n // 4))) & M32]).astype(np.uint32)
    r.shuffle(b)
    b[:8] = [1, M32, 2, 0x80000000, 7, 0xFFFFFFF9, 3, M32]
    for i in range(n):
        if b[i] == 0:
            b[i] = 1
        if a[i] == 0x80000000 and (b[i] == M32 or (int(b[i]) | 3) == M32):
            b[i] = 5

    def m_div32(run):
        A, B = run.inbuf(0, np.uint32), run.inbuf(1, np.uint32)

        def f(i):
            x, y = int(A[i]), int(B[i])
            sx, sy = s32(x), s32(y)
            return [to_u32(v) for v in [x // y, x % y, cdiv(sx, sy), crem(sx, sy), x // 7, crem(sx, -9),
                                        x // ((y >> 8) | 1), cdiv(sx, s32(y | 3))]]
        return {2: asbytes(per_elem(n, 8, np.uint32, f))}
    add(Run("intdiv32", "intdiv32", "intdiv32", [1000], [64],
            [Buf(a), Buf(b), Zeros(n * 8 * 4), Scalar("u32", n)], [2], model=m_div32, pocl_pad=True,
            note="non-uniform grid: last work-group has 40 work-items"))

    # ---- intdiv64 ---------------------------------------------------------------------------
    r = rng(105)
    n = 500
    a = u64_mix(r, n, [0, 1, M64, (1 << 63) - 1, 1 << 40, 10**18])
    b = np.concatenate([r.integers(1, 100, n // 4, dtype=np.uint64), r.integers(1, 1 << 32, n // 4, dtype=np.uint64),
                        r.integers(1, 1 << 63, n // 4, dtype=np.uint64),
                        (np.uint64(0) - r.integers(1, 1 << 40, n - 3 * (n // 4), dtype=np.uint64))]).astype(np.uint64)
    r.shuffle(b)
    for i in range(n):
        if b[i] == 0:
            b[i] = 1
        if int(a[i]) == 1 << 63:
            a[i] = 12345

    def m_div64(run):
        A, B = run.inbuf(0, np.uint64), run.inbuf(1, np.uint64)

        def f(i):
            x, y = int(A[i]), int(B[i])
            sx, sy = s64(x), s64(y)
            return [v & M64 for v in [x // y, x % y, cdiv(sx, sy), crem(sx, sy), x // ((y | 1) & M32),
                                      x // 1000000007, crem(sx, -12345), cdiv(sx, (sy >> 40) | 1)]]
        return {2: asbytes(per_elem(n, 8, np.uint64, f))}
    add(Run("intdiv64", "intdiv64", "intdiv64", [512], [64],
            [Buf(a), Buf(b), Zeros(n * 8 * 8), Scalar("u32", n)], [2], model=m_div64))

    # ---- hash_mix ---------------------------------------------------------------------------
    r = rng(106)
    n = 512
    seeds = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    seeds[0] = 0

    def m_hash(run):
        S = run.inbuf(0, np.uint32)
        rounds = int(run.scalar(3))
        o32 = np.zeros(2 * n, np.uint32)
        o64 = np.zeros(n, np.uint64)
        for i in range(n):
            x = int(S[i]) | 1
            h = int(S[i]) ^ 0x9747B28C
            z = (int(S[i]) << 32) | i
            for _ in range(rounds):
                x ^= (x << 13) & M32
                x ^= x >> 17
                x ^= (x << 5) & M32
                k = (x * 0xCC9E2D51) & M32
                k = (rotl32(k, 15) * 0x1B873593) & M32
                h ^= k
                h = (rotl32(h, 13) * 5 + 0xE6546B64) & M32
                z = (z + 0x9E3779B97F4A7C15) & M64
                q = z
                q = ((q ^ (q >> 30)) * 0xBF58476D1CE4E5B9) & M64
                q = ((q ^ (q >> 27)) * 0x94D049BB133111EB) & M64
                z ^= q ^ (q >> 31)
            h ^= h >> 16
            h = (h * 0x85EBCA6B) & M32
            h ^= h >> 13
            h = (h * 0xC2B2AE35) & M32
            h ^= h >> 16
            o32[2 * i], o32[2 * i + 1], o64[i] = x, h, z
        return {1: asbytes(o32), 2: asbytes(o64)}
    add(Run("hash_mix", "hash_mix", "hash_mix", [512], [128],
            [Buf(seeds), Zeros(2 * n * 4), Zeros(n * 8), Scalar("u32", 100), Scalar("u32", n)], [1, 2], model=m_hash))

    # ---- bytes_shorts -----------------------------------------------------------------------
    r = rng(107)
    n = 500
    u8 = r.integers(0, 256, n).astype(np.uint8)
    i8 = r.integers(-128, 128, n).astype(np.int8)
    u16 = r.integers(0, 65536, n).astype(np.uint16)
    i16 = r.integers(-32768, 32768, n).astype(np.int16)
    u8[:3] = [0, 255, 128]
    i8[:3] = [-128, 127, -1]
    u16[:3] = [0, 65535, 32768]
    i16[:3] = [-32768, 32767, -1]

    def m_bytes(run):
        A, B, C, D = run.inbuf(0, np.uint8), run.inbuf(1, np.int8), run.inbuf(2, np.uint16), run.inbuf(3, np.int16)
        k, s = int(run.scalar(7)), int(run.scalar(8))
        o8 = np.zeros(3 * n, np.uint8)
        o16 = np.zeros(2 * n, np.int16)
        o32 = np.zeros(4 * n, np.int32)

        def sh16(v):
            v &= 0xFFFF
            return v - 65536 if v >> 15 else v
        for i in range(n):
            a, b, c, d = int(A[i]), int(B[i]), int(C[i]), int(D[i])
            o32[4 * i:4 * i + 4] = [a + b, c * d, (b >> 2) - (d >> 3) + (a >> 1), ((a * k) & 0xFF) + sh16(d * s)]
            o8[3 * i:3 * i + 3] = [(a + k) & 0xFF, (b ^ k) & 0xFF, c >> 8]
            o16[2 * i:2 * i + 2] = [sh16(d + s), sh16(c - (b & 0xFFFF))]
        return {4: asbytes(o8), 5: asbytes(o16), 6: asbytes(o32)}
    add(Run("bytes_shorts", "bytes_shorts", "bytes_shorts", [512], [64],
            [Buf(u8), Buf(i8), Buf(u16), Buf(i16), Zeros(3 * n), Zeros(2 * n * 2), Zeros(4 * n * 4),
             Scalar("u8", 37), Scalar("i16", -1234), Scalar("u32", n)], [4, 5, 6], model=m_bytes))

    # ---- crc32 ------------------------------------------------------------------------------
    r = rng(108)
    nrec = 200
    lens = r.integers(0, 64, nrec)
    lens[:3] = [0, 1, 63]
    offs = np.concatenate([[0], np.cumsum(lens)]).astype(np.uint32)
    data = r.integers(0, 256, int(offs[-1])).astype(np.uint8)

    def m_crc(run):
        D, O = run.inbuf(0, np.uint8).tobytes(), run.inbuf(1, np.uint32)
        return {2: asbytes(np.array([zlib.crc32(D[O[k]:O[k + 1]]) for k in range(nrec)], np.uint32))}
    add(Run("crc32", "crc32", "crc32", [256], [64],
            [Buf(data), Buf(offs), Zeros(nrec * 4), Scalar("u32", nrec)], [2], model=m_crc,
            note="reference: Python zlib.crc32 and PoCL"))

    # ---- calls ------------------------------------------------------------------------------
    r = rng(109)
    n = 300
    xin = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)

    def m_calls(run):
        X = run.inbuf(0, np.uint32)
        out = np.zeros(4 * n, np.uint32)
        fout = np.zeros(n, np.float32)
        for i in range(n):
            x = int(X[i])
            a, b, c = x, (x * 3) & M32, i
            a = (a - c) & M32; a ^= rotl32(c, 4); c = (c + b) & M32
            b = (b - a) & M32; b ^= rotl32(a, 6); a = (a + c) & M32
            m = a ^ b ^ c
            A = [(x + k) & M32 for k in range(35)] + [m]
            s = (A[0] + 3 * A[1] + 5 * A[2] + 7 * A[3] + (A[4] ^ A[5]) + (A[6] | A[7]) + A[8] * A[9] + A[10] - A[11] +
                 (A[12] & A[13]) + A[14] + A[15] + A[16] + A[17] * 2 + A[18] + A[19] + A[20] + A[21] + A[22] + A[23] +
                 A[24] * A[25] + A[26] + A[27] + A[28] + A[29] + A[30] + (A[31] << 1) + A[32] * 11 + A[33] * 13 +
                 A[34] * 17 + A[35] * 19) & M32
            out[4 * i:4 * i + 4] = [m, (m + (x >> 16)) & M32, s, 2]
            fout[i] = np.float32(x & 1023) * np.float32(2.0) + np.float32(1.0)
        return {1: asbytes(out), 2: asbytes(fout)}
    add(Run("calls", "calls", "calls", [320], [64],
            [Buf(xin), Zeros(4 * n * 4), Zeros(n * 4), Scalar("u32", n)], [1, 2], model=m_calls))

    # ---- scratch_private --------------------------------------------------------------------
    r = rng(110)
    n = 256
    seeds = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)

    def m_scratch(run):
        S = run.inbuf(0, np.uint32)

        def f(i):
            seed = int(S[i])
            t = [((seed * (j + 1)) ^ (j << 20)) & M32 for j in range(64)]
            x = seed
            for rr in range(32):
                x = (x * 1664525 + 1013904223) & M32
                a, b = x >> 26, (x >> 20) & 63
                tmp = t[a]
                t[a] = (t[b] + rr) & M32
                t[b] = tmp
            k = sorted(t[(seed + j * 7) & 63] >> 8 for j in range(16))
            h = 0
            for j in range(64):
                h = (h * 31 + t[j]) & M32
            return [h, t[seed & 63]] + k
        return {1: asbytes(per_elem(n, 18, np.uint32, f))}
    add(Run("scratch_private", "scratch_private", "scratch_private", [256], [64],
            [Buf(seeds), Zeros(n * 18 * 4), Scalar("u32", n)], [1], model=m_scratch))


def f32_mix(r, n, lo=-100.0, hi=100.0, specials=()):
    a = r.uniform(lo, hi, n).astype(np.float32)
    k = n // 5
    a[:k] = (r.integers(-40, 41, k) / 4.0).astype(np.float32)       # ties for rounding functions
    a[k:2 * k] = (r.uniform(-1, 1, k) * 10.0 ** r.integers(-20, 21, k)).astype(np.float32)
    r.shuffle(a)
    for i, s in enumerate(specials):
        a[(i * 13) % n] = s
    return a


def define_float_runs():
    # ---- f32_arith --------------------------------------------------------------------------
    r = rng(201)
    n = 1000
    x = f32_mix(r, n, specials=[0.0, -0.0, 1e-40, -3e-39, 0.5, -0.5, 1.5, -2.5, 8388609.0, 1e30, -1e30, 3.4e38])
    y = f32_mix(r, n, specials=[1.0, 2.0, -1e-40, 1e30, 3.0])
    z = f32_mix(r, n, specials=[-1.0, 1e-38, 7.0])

    def m_f32_arith(run):
        X, Y, Z = run.inbuf(0, np.float32), run.inbuf(1, np.float32), run.inbuf(2, np.float32)
        o = np.zeros((n, 20), np.float32)
        with np.errstate(all="ignore"):
            o[:, 0], o[:, 1], o[:, 2] = X + Y, X - Y, X * Y
            o[:, 3] = [exact_fma(X[i], Y[i], Z[i], "f32") for i in range(n)]
            o[:, 4] = X * Y + Z
            o[:, 5], o[:, 6], o[:, 7], o[:, 8] = np.fmin(X, Y), np.fmax(X, Z), np.abs(X), -Y
            o[:, 9] = np.copysign(X, Y)
            o[:, 10], o[:, 11], o[:, 12], o[:, 13] = np.floor(X), np.ceil(X), np.trunc(X), np.rint(X)
            t = np.trunc(X)
            o[:, 14] = np.where(np.abs(X - t) >= np.float32(0.5), t + np.copysign(np.float32(1), X), t)
            o[:, 15] = np.where(X < Y, Z, X)
            o[:, 16] = np.where(X >= Z, X - Z, Z - X)
            o[:, 17] = [exact_fma(-X[i], np.float32(0.5), Y[i] * np.float32(3), "f32") for i in range(n)]
            o[:, 18] = X * np.float32(0.25) + np.float32(1)
            o[:, 19] = np.where(X > Y, X - Y, np.float32(0))
            fl = ((X < Y) * 1 | (X <= Y) * 2 | (X == Y) * 4 | (X != Z) * 8 | (X > Z) * 16 | (np.abs(X) > 1) * 32 |
                  np.signbit(X) * 64).astype(np.int32)
        return {3: asbytes(o), 4: asbytes(fl)}
    add(Run("f32_arith", "f32_arith", "f32_arith", [1000], [64],
            [Buf(x), Buf(y), Buf(z), Zeros(n * 20 * 4), Zeros(n * 4), Scalar("u32", n)], [3, 4],
            model=m_f32_arith, pocl_pad=True, note="denormal inputs included; no NaN results"))

    # ---- f32_convert ------------------------------------------------------------------------
    r = rng(202)
    n = 1000
    x = np.concatenate([r.uniform(-300, 300, n // 4), r.integers(-600, 601, n // 4) / 2.0,
                        r.uniform(-2e9, 2e9, n // 4), r.uniform(-3, 3, n - 3 * (n // 4))]).astype(np.float32)
    r.shuffle(x)
    x[:12] = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 2147483520.0, -2147483648.0, 1e-30, -0.9999999]

    def m_f2i(run):
        X = run.inbuf(0, np.float32)
        oi = np.zeros(8 * n, np.int32)
        ou = np.zeros(2 * n, np.uint32)
        ol = np.zeros(2 * n, np.int64)

        def sat(v, lo, hi):
            return lo if v < lo else hi if v > hi else v

        def rte(v):
            return int(round(Fraction(float(v))))   # Python rounds half to even

        for i in range(n):
            v = X[i]
            fv = float(v)
            p1000 = float(v * np.float32(1000))
            p100 = float(v * np.float32(100))
            oi[8 * i:8 * i + 8] = [math.trunc(fv), rte(v), math.floor(fv), math.ceil(fv),
                                   sat(math.trunc(p1000), -2**31, 2**31 - 1), sat(math.trunc(fv), -128, 127),
                                   sat(rte(p100), -32768, 32767), sat(math.trunc(fv), 0, 255)]
            ou[2 * i:2 * i + 2] = [sat(math.trunc(float(v * np.float32(1e8))), 0, M32),
                                   sat(rte(v * np.float32(3)), 0, M32)]
            ol[2 * i:2 * i + 2] = [math.trunc(float(v * np.float32(1e9))),
                                   s64(sat(math.trunc(float(v * np.float32(1e12))), 0, M64))]
        return {1: asbytes(oi), 2: asbytes(ou), 3: asbytes(ol)}
    add(Run("f32_to_int", "f32_convert", "f32_to_int", [1024], [256],
            [Buf(x), Zeros(8 * n * 4), Zeros(2 * n * 4), Zeros(2 * n * 8), Scalar("u32", n)], [1, 2, 3], model=m_f2i))

    ia = np.concatenate([r.integers(-2**31, 2**31, n // 2), r.integers(-2**25, 2**25, n // 4),
                         r.integers(-1000, 1000, n - 3 * (n // 4))]).astype(np.int32)
    lb = np.concatenate([r.integers(-2**63, 2**63, n // 2, dtype=np.int64), r.integers(-2**40, 2**40, n // 4),
                         r.integers(-2**25, 2**25, n - 3 * (n // 4))]).astype(np.int64)
    r.shuffle(ia)
    r.shuffle(lb)
    ia[:6] = [0, -1, 2**31 - 1, -2**31, 16777217, -16777219]
    lb[:6] = [0, -1, 2**63 - 1, -2**63, 2**53 + 1, -(2**40) - 3]

    def m_i2f(run):
        A, B = run.inbuf(0, np.int32), run.inbuf(1, np.int64)
        o = np.zeros(8 * n, np.float32)
        for i in range(n):
            xi, yl = int(A[i]), int(B[i])
            o[8 * i:8 * i + 8] = [int_to_float(xi, "f32"), int_to_float(xi, "f32", "rtz"), int_to_float(xi, "f32", "rtn"),
                                  int_to_float(xi & M32, "f32"), int_to_float(xi & M32, "f32", "rtp"),
                                  int_to_float(yl, "f32"), int_to_float(yl & M64, "f32"), int_to_float(yl, "f32", "rtz")]
        return {2: asbytes(o)}
    add(Run("int_to_f32", "f32_convert", "int_to_f32", [1000], [128],
            [Buf(ia), Buf(lb), Zeros(8 * n * 4), Scalar("u32", n)], [2], model=m_i2f, pocl_pad=True))

    # ---- f32_misc ---------------------------------------------------------------------------
    r = rng(203)
    n = 800
    mag = 2.0 ** r.uniform(-149, 127, n)
    x = (mag * r.choice([-1.0, 1.0], n)).astype(np.float32)
    x[: n // 4] = (r.integers(-4000, 4000, n // 4) / 16.0).astype(np.float32)
    r.shuffle(x)
    x[:12] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-40, 1.0, -1.0, 0.75, -2.5, 3.4028235e38]
    y = r.uniform(-40, 40, n).astype(np.float32)
    y[r.integers(0, n, n // 8)] = (r.uniform(-1, 1, n // 8) * 1e-3).astype(np.float32)
    y[y == 0] = np.float32(1.5)

    def m_misc(run):
        X, Y = run.inbuf(0, np.float32), run.inbuf(1, np.float32)
        o = np.zeros(10 * n, np.float32)
        p = np.zeros(4 * n, np.int32)
        one_m = np.float32(np.nextafter(np.float32(1), np.float32(0)))
        with np.errstate(all="ignore"):
            for i in range(n):
                xv, yv = X[i], Y[i]
                isn = bool(np.isnan(xv))
                isi = bool(np.isinf(xv))
                fin = not isn and not isi
                norm = fin and xv != 0 and abs(float(xv)) >= 2.0 ** -126
                p[4 * i] = (isn | (isi << 1) | (fin << 2) | (norm << 3) | (int(np.signbit(xv)) << 4) |
                            (int(bool(xv < yv)) << 5))
                if not fin or xv == 0:
                    continue
                mant, e = np.frexp(xv)
                fl = np.floor(xv)
                tr = np.trunc(xv)
                k = math.trunc(float(yv * np.float32(4)))
                q = Fraction(float(xv)) / Fraction(float(yv))
                nq = round(q)  # half to even
                rem = Fraction(float(xv)) - nq * Fraction(float(yv))
                remf = np.float32(float(rem)) if rem != 0 else np.copysign(np.float32(0), xv)
                o[10 * i:10 * i + 10] = [mant, np.ldexp(xv, k), np.nextafter(xv, yv), min(xv - fl, one_m), fl,
                                         np.copysign(xv - tr, xv), tr, np.fmod(xv, yv), remf, np.float32(e - 1)]
                p[4 * i + 1:4 * i + 4] = [e, e - 1, np.nextafter(xv, np.float32(0)).view(np.int32)]
        return {2: asbytes(o), 3: asbytes(p)}
    add(Run("f32_misc", "f32_misc", "f32_misc", [800], [64],
            [Buf(x), Buf(y), Zeros(10 * n * 4), Zeros(4 * n * 4), Scalar("u32", n)], [2, 3], model=m_misc,
            pocl_pad=True))
    # Operands of like magnitude (exponents within 12 of each other in every lane): fmod and
    # remainder skip their reduction loop for whole waves, so the code on that path executes.
    r2 = rng(2031)
    x2 = (r2.uniform(1.0, 60.0, n) * r2.choice([-1.0, 1.0], n)).astype(np.float32)
    y2 = (r2.uniform(1.0, 60.0, n) * r2.choice([-1.0, 1.0], n)).astype(np.float32)
    add(Run("f32_misc_near", "f32_misc", "f32_misc", [800], [64],
            [Buf(x2), Buf(y2), Zeros(10 * n * 4), Zeros(4 * n * 4), Scalar("u32", n)], [2, 3], model=m_misc,
            pocl_pad=True))

    # ---- f32_divsqrt_cr ---------------------------------------------------------------------
    r = rng(204)
    n = 1000
    x = (2.0 ** r.uniform(-149, 127, n) * r.choice([-1.0, 1.0], n, p=[0.2, 0.8])).astype(np.float32)
    y = (2.0 ** r.uniform(-149, 127, n) * r.choice([-1.0, 1.0], n)).astype(np.float32)
    x[:8] = [0.0, -0.0, np.inf, 1.0, 2.0, 1e-45, 3.4028235e38, 4.0]
    y[:8] = [0.0, 1.0, 3.0, np.inf, -0.0, 3.0, 1e-45, 7.0]

    def m_cr(run):
        X, Y = run.inbuf(0, np.float32), run.inbuf(1, np.float32)
        with np.errstate(all="ignore"):
            o = np.stack([X / Y, np.sqrt(X), np.float32(1) / Y], axis=1).astype(np.float32)
        return {2: asbytes(o)}
    add(Run("f32_divsqrt_cr", "f32_divsqrt_cr", "f32_divsqrt_cr", [1024], [64],
            [Buf(x), Buf(y), Zeros(3 * n * 4), Scalar("u32", n)], [2], compare={2: "exact_nan:f32"}, model=m_cr,
            note="correctly rounded: exact except NaN payloads"))

    # ---- f64_arith --------------------------------------------------------------------------
    r = rng(205)
    n = 600
    x = np.concatenate([r.uniform(-1000, 1000, n // 2), r.integers(-2000, 2000, n // 4) / 4.0,
                        r.uniform(-1, 1, n - 3 * (n // 4)) * 10.0 ** r.integers(-30, 7, n - 3 * (n // 4))])
    y = np.concatenate([r.uniform(-1000, 1000, n // 2), r.uniform(-1, 1, n - n // 2) * 10.0 ** r.integers(-5, 3, n - n // 2)])
    z = r.uniform(-1000, 1000, n)
    r.shuffle(x)
    r.shuffle(y)
    x[:6] = [0.0, -0.0, 2.5, -3.5, 1e-310, 123456.789]
    y[y == 0] = 1.0
    y[:6] = [3.0, 7.0, -0.1, 1e-300, 2.0, 1.0 / 3.0]

    def m_f64(run):
        X, Y, Z = run.inbuf(0, np.float64), run.inbuf(1, np.float64), run.inbuf(2, np.float64)
        o = np.zeros((n, 14))
        of = np.zeros(2 * n, np.float32)
        ol = np.zeros(2 * n, np.int64)
        with np.errstate(all="ignore"):
            o[:, 0], o[:, 1], o[:, 2], o[:, 3] = X + Y, X - Y, X * Y, X / Y
            o[:, 4] = np.sqrt(np.abs(X))
            o[:, 5] = [exact_fma(X[i], Y[i], Z[i], "f64") for i in range(n)]
            o[:, 6], o[:, 7], o[:, 8], o[:, 9] = np.fmin(X, Y), np.fmax(X, Z), np.floor(X), np.ceil(Y)
            o[:, 10], o[:, 11] = np.rint(X * 10.0), np.trunc(Z)
            o[:, 12] = np.where(X < Y, Z, -X)
            o[:, 13] = (X.astype(np.float32).astype(np.float64) + np.trunc(Z).astype(np.int32).astype(np.float64)) \
                + np.trunc(np.abs(Y)).astype(np.uint32).astype(np.float64)
            for i in range(n):
                of[2 * i] = np.float32(X[i])
                of[2 * i + 1] = round_frac(Fraction(float(Y[i])), "f32", "rtz")
                ol[2 * i] = math.trunc(float(X[i] * 1e6))
                ol[2 * i + 1] = s64(int(np.rint(Z[i])) + int(float(math.trunc(float(Y[i] * 1e15)))))
        return {3: asbytes(o), 4: asbytes(of), 5: asbytes(ol)}
    add(Run("f64_arith", "f64_arith", "f64_arith", [640], [64],
            [Buf(x), Buf(y), Buf(z), Zeros(14 * n * 8), Zeros(2 * n * 4), Zeros(2 * n * 8), Scalar("u32", n)],
            [3, 4, 5], model=m_f64, note="f64 div and sqrt are correctly rounded in OpenCL: exact"))

    # ---- f64_horner -------------------------------------------------------------------------
    r = rng(206)
    n = 500
    xs = r.uniform(-2, 2, n)
    xs[:4] = [0.0, 1.0, -1.0, 2.0]
    coef = [1.0, -0.5, 0.25, -0.125, 0.0625, 3.0e-2, -1.5e-2, 7.5e-3, -3.75e-3, 1.875e-3, 9.0e-4, -4.5e-4, 2.25e-4]

    def m_horner(run):
        X = run.inbuf(0, np.float64)
        out = np.zeros(2 * n)
        for i in range(n):
            t = X[i]
            rr = np.float64(coef[12])
            for k in range(11, -1, -1):
                rr = exact_fma(rr, t, coef[k], "f64")
            s, pp = np.float64(0), np.float64(1)
            for k in range(13):
                s = s + np.float64(coef[k]) * pp
                pp = pp * t
            out[2 * i], out[2 * i + 1] = rr, s
        return {1: asbytes(out)}
    add(Run("f64_horner", "f64_horner", "f64_horner", [512], [128],
            [Buf(xs), Zeros(2 * n * 8), Scalar("u32", n)], [1], model=m_horner))

    # ---- saxpy / daxpy ----------------------------------------------------------------------
    r = rng(207)
    n = 1000
    sx = r.uniform(-10, 10, n).astype(np.float32)
    sy = r.uniform(-10, 10, n).astype(np.float32)

    def m_saxpy(run):
        a, X, Y = run.scalar(1), run.inbuf(2, np.float32), run.inbuf(3, np.float32)
        return {3: asbytes(np.array([exact_fma(a, X[i], Y[i], "f32") for i in range(n)], np.float32))}
    add(Run("saxpy", "saxpy", "saxpy", [1000], [64],
            [Scalar("u32", n), Scalar("f32", 2.5), Buf(sx), Buf(sy)], [3], model=m_saxpy, pocl_pad=True,
            note="a*x+y is contracted to a single fma by clang; non-uniform grid (last group 40 items)"))
    n2 = 777
    dx = r.uniform(-10, 10, n2)
    dy = r.uniform(-10, 10, n2)

    def m_daxpy(run):
        a, X, Y = run.scalar(1), run.inbuf(2, np.float64), run.inbuf(3, np.float64)
        return {3: asbytes(np.array([exact_fma(a, X[i], Y[i], "f64") for i in range(n2)]))}
    add(Run("daxpy", "saxpy", "daxpy", [800], [32],
            [Scalar("u32", n2), Scalar("f64", -1.25), Buf(dx), Buf(dy)], [3], model=m_daxpy))

    # ---- mandelbrot -------------------------------------------------------------------------
    W, H, MAXIT = 70, 45, 200
    X0, Y0, STEP = -2.0, -1.125, 0.046875

    def m_mandel(run):
        px, py = np.meshgrid(np.arange(W), np.arange(H))
        cx = np.float32(X0) + px.astype(np.float32) * np.float32(STEP)
        cy = np.float32(Y0) + py.astype(np.float32) * np.float32(STEP)
        x = np.zeros_like(cx)
        y = np.zeros_like(cy)
        it = np.zeros(cx.shape, np.uint32)
        active = np.ones(cx.shape, bool)
        for _ in range(MAXIT):
            xx, yy = x * x, y * y
            active &= ~(xx + yy > np.float32(4))
            xy = x * y
            x = np.where(active, (xx - yy) + cx, x)
            y = np.where(active, (xy + xy) + cy, y)
            it += active
        return {0: asbytes(it)}
    add(Run("mandelbrot", "mandelbrot", "mandelbrot", [W, H], [8, 8],
            [Zeros(W * H * 4), Scalar("u32", W), Scalar("u32", H), Scalar("f32", X0), Scalar("f32", Y0),
             Scalar("f32", STEP), Scalar("u32", MAXIT)], [0], model=m_mandel, pocl_pad=True,
            note="2-D non-uniform grid (70x45 with 8x8 groups)"))


# OpenCL 2.0 full-profile accuracy bounds (ulp); the reference is the f64 numpy result rounded to the
# type (f32), or numpy's own f64 functions (f64, ~1 ulp), so one extra ulp of margin is added.
MATH_F32 = {  # name: (ulp bound, numpy function, input generator id)
    "sin": (4, np.sin, "trig"), "cos": (4, np.cos, "trig"), "tan": (5, np.tan, "trig"),
    "exp": (3, np.exp, "exp"), "exp2": (3, np.exp2, "exp2"), "log": (3, np.log, "pos"),
    "log2": (3, np.log2, "pos"), "sqrt": (3, np.sqrt, "pos"), "rsqrt": (2, lambda v: 1.0 / np.sqrt(v), "pos"),
    "tanh": (5, np.tanh, "tanh"), "cbrt": (2, np.cbrt, "any"),
    "pow": (16, np.power, "pow"), "div": (3, np.divide, "div"), "atan2": (6, np.arctan2, "atan2"),
}
MATH_F64 = {
    "sin": (4, np.sin, "trig"), "cos": (4, np.cos, "trig"), "exp": (3, np.exp, "exp"), "log": (3, np.log, "pos"),
    "tanh": (5, np.tanh, "tanh"), "cbrt": (2, np.cbrt, "any"), "pow": (16, np.power, "pow"),
    "atan2": (6, np.arctan2, "atan2"),
}


def math_inputs(r, kind, n, dt):
    big = 300.0 if dt == np.float64 else 38.0
    sp_common = [0.0, -0.0, np.inf, -np.inf, np.nan]
    if kind == "trig":
        a = np.concatenate([r.uniform(-10, 10, n * 7 // 10), r.uniform(-1e4, 1e4, n // 5),
                            r.choice([-1, 1], n - n * 7 // 10 - n // 5) * 10.0 ** r.uniform(5, 30, n - n * 7 // 10 - n // 5)])
        sp = sp_common + [1e-30, 3.14159265, 1.5707963, 1e6, -1e20]
        return [a, sp]
    if kind == "exp":
        lim = 700.0 if dt == np.float64 else 87.0
        a = r.uniform(-lim, lim, n)
        sp = sp_common + [1.0, -1.0, lim + 2, -(lim + 16), 1e-20]
        return [a, sp]
    if kind == "exp2":
        a = r.uniform(-125, 127, n)
        sp = sp_common + [1.0, 0.5, 130.0, -140.0, -149.5]
        return [a, sp]
    if kind == "pos":
        a = 10.0 ** r.uniform(-big, big, n)
        sp = sp_common + [1.0, 2.0, 4.0, -1.0, 1e-40 if dt == np.float32 else 1e-310, 0.999999]
        return [a, sp]
    if kind == "tanh":
        a = np.concatenate([r.uniform(-10, 10, n // 2), r.choice([-1, 1], n - n // 2) * 10.0 ** r.uniform(-8, 1, n - n // 2)])
        sp = sp_common + [20.0, -20.0, 1e-10]
        return [a, sp]
    if kind == "any":
        a = r.choice([-1, 1], n) * 10.0 ** r.uniform(-big, big, n)
        sp = sp_common + [1.0, -8.0, 27.0, 1e-40 if dt == np.float32 else 1e-310]
        return [a, sp]
    if kind == "pow":
        x = 10.0 ** r.uniform(-3, 2, n)
        y = r.uniform(-20, 20, n)
        k = n // 10
        x[:k] = -x[:k]
        y[:k] = r.integers(-10, 11, k)
        spx = [0.0, 0.0, -0.0, 1.0, -2.0, np.inf, 2.0, -1.0, np.nan, 10.0]
        spy = [-1.0, 2.0, 3.0, np.nan, 0.5, -1.0, 200.0, np.inf, 0.0, -50.0]
        return [x, spx, y, spy]
    if kind == "div":
        x = r.choice([-1, 1], n) * 10.0 ** r.uniform(-15, 15, n)
        y = r.choice([-1, 1], n) * 10.0 ** r.uniform(-15, 15, n)
        return [x, [1.0, -0.0, 1e20, 3.0], y, [3.0, 7.0, 1e-15, -3.0]]
    if kind == "atan2":
        x = r.uniform(-10, 10, n)
        y = r.uniform(-10, 10, n)
        spx = [0.0, 0.0, -0.0, 1.0, -1.0, np.inf, np.inf, 1e-30, 5.0]
        spy = [0.0, -0.0, -1.0, np.inf, -np.inf, 1.0, np.inf, 1e30, 0.0]
        return [x, spx, y, spy]
    raise ValueError(kind)


def define_math_runs():
    for prec, table, dt, ftag in (("f32", MATH_F32, np.float32, "f32"), ("f64", MATH_F64, np.float64, "f64")):
        for idx, (name, (ulp, fn, kind)) in enumerate(sorted(table.items())):
            r = rng(300 + idx + (50 if prec == "f64" else 0))
            n = 1000
            parts = math_inputs(r, kind, n, dt)
            arrays = []
            for j in range(0, len(parts), 2):
                a = parts[j].astype(dt)
                for i, s in enumerate(parts[j + 1]):
                    a[i] = s
                arrays.append(a)
            nin = len(arrays)

            def model(run, fn=fn, nin=nin, dt=dt):
                ins = [run.inbuf(k, dt).astype(np.float64) for k in range(nin)]
                with np.errstate(all="ignore"):
                    res = np.asarray(fn(*ins)).astype(dt)
                return {nin: asbytes(res)}
            margin = 1 if prec == "f32" else 2
            add(Run("%s_%s" % (prec, name), "mathlib_" + prec, "%s_%s" % (prec, name), [1024], [256],
                    [Buf(a) for a in arrays] + [Zeros(n * np.dtype(dt).itemsize), Scalar("u32", n)], [nin],
                    compare={nin: "ulp:%d:%s" % (ulp + margin, ftag)}, model=model,
                    note="reference: numpy %s; bound = OpenCL spec %d ulp + %d" %
                    ("float64 rounded to float32" if prec == "f32" else "float64 (libm)", ulp, margin)))


def define_f16_runs():
    r = rng(401)
    n = 600
    h = lambda a: np.asarray(a).astype(np.float16)
    x = h(np.concatenate([r.uniform(-50, 50, n // 2), r.integers(-64, 65, n // 4) / 4.0,
                          r.choice([-1, 1], n - 3 * (n // 4)) * 10.0 ** r.uniform(-7, 2, n - 3 * (n // 4))]))
    y = h(r.uniform(-50, 50, n))
    z = h(r.choice([-1, 1], n) * 10.0 ** r.uniform(-7, 3, n))
    r.shuffle(x)
    x[:8] = h([0.0, -0.0, 6e-8, -3e-5, 0.5, 1.5, -2.5, 65504.0])
    y[y == 0] = np.float16(1)
    y[:8] = h([1.0, 3.0, 0.25, -7.0, 1e-3, 2.0, -1.0, 0.5])

    def m_f16(run):
        X, Y, Z = run.inbuf(0, np.float16), run.inbuf(1, np.float16), run.inbuf(2, np.float16)
        o = np.zeros((n, 10), np.float16)
        o2 = np.zeros((n, 2), np.float16)
        with np.errstate(all="ignore"):
            o[:, 0], o[:, 1], o[:, 2] = X + Y, X - Y, X * Y
            o[:, 3] = [exact_fma(X[i], Y[i], Z[i], "f16") for i in range(n)]
            o[:, 4], o[:, 5] = np.fmin(X, Y), np.fmax(Y, Z)
            o[:, 6] = np.abs(X) * np.float16(0.5)
            o[:, 7] = np.where(X < Y, Z, -Z)
            o[:, 8], o[:, 9] = np.floor(X), np.rint(Y)
            o2[:, 0], o2[:, 1] = X / Y, np.sqrt(np.abs(Z))
        return {3: asbytes(o), 4: asbytes(o2)}
    add(Run("f16_arith", "f16_arith", "f16_arith", [640], [64],
            [Buf(x), Buf(y), Buf(z), Zeros(n * 10 * 2), Zeros(n * 2 * 2), Scalar("u32", n)], [3, 4],
            compare={4: "ulp:1:f16"}, model=m_f16, pocl=False,
            note="PoCL has no cl_khr_fp16: numpy float16 model (basic ops are correctly rounded)"))

    n = 400
    a = h(r.uniform(-100, 100, 2 * n))
    b = h(r.uniform(-100, 100, 2 * n))
    a[:4] = h([0.0, -0.0, 1e-5, 65000.0])
    K = 1.5

    def m_f16v(run):
        A, B = run.inbuf(0, np.float16), run.inbuf(1, np.float16)
        k = np.float16(K)
        o = np.zeros((n, 4, 2), np.float16)
        with np.errstate(all="ignore"):
            for i in range(n):
                xv, yv = A[2 * i:2 * i + 2], B[2 * i:2 * i + 2]
                o[i, 0], o[i, 1] = xv + yv, xv * yv
                o[i, 2] = [exact_fma(xv[0], yv[0], k, "f16"), exact_fma(xv[1], yv[1], -k, "f16")]
                o[i, 3] = np.fmax(xv, yv) - k
        return {2: asbytes(o)}
    add(Run("f16_vec", "f16_arith", "f16_vec", [400], [64],
            [Buf(a), Buf(b), Zeros(n * 4 * 4), Scalar("f16", K), Scalar("u32", n)], [2], model=m_f16v, pocl=False,
            note="half2 packed math; f16 scalar kernel argument"))

    n = 500
    a = h(r.uniform(-3000, 3000, n))
    a[:6] = h([0.0, -0.0, 0.5, -1.5, 2.5, 1e-6])
    f = np.concatenate([r.uniform(-2000, 2000, n // 2), r.choice([-1, 1], n - n // 2) * 10.0 ** r.uniform(-9, 6, n - n // 2)]).astype(np.float32)
    r.shuffle(f)
    f[:8] = [0.0, -0.0, 65519.0, 65520.0, 1e6, -1e6, 1e-8, 3e-5]
    f[8:10] = [4000.0, -2047.99]

    def m_f16c(run):
        A, F = run.inbuf(0, np.float16), run.inbuf(1, np.float32)
        of = np.zeros(n, np.float32)
        oi = np.zeros(2 * n, np.int32)
        oh = np.zeros(2 * n, np.float16)
        ob = np.zeros(4 * n, np.uint16)
        for i in range(n):
            xv, yv = A[i], F[i]
            of[i] = np.float32(xv) * np.float32(3)
            oi[2 * i] = math.trunc(float(xv))
            oi[2 * i + 1] = int(round(Fraction(float(xv * np.float16(8)))))
            with np.errstate(over="ignore"):
                oh[2 * i] = np.float16(yv)
            oh[2 * i + 1] = int_to_float(math.trunc(float(yv * np.float32(16))), "f16")
            fy = Fraction(float(yv))
            # Fraction() drops the sign of -0.0; a conversion keeps it in every rounding mode.
            zs = int(np.signbit(yv))
            ob[4 * i:4 * i + 3] = [round_frac(fy, "f16", m, zs).view(np.uint16) for m in ("rtz", "rtp", "rtn")]
            ob[4 * i + 3] = np.float16(np.float32(xv) + np.float32(1)).view(np.uint16)
        return {2: asbytes(of), 3: asbytes(oi), 4: asbytes(oh), 5: asbytes(ob)}
    add(Run("f16_convert", "f16_arith", "f16_convert", [512], [128],
            [Buf(a), Buf(f), Zeros(n * 4), Zeros(2 * n * 4), Zeros(2 * n * 2), Zeros(4 * n * 2), Scalar("u32", n)],
            [2, 3, 4, 5], model=m_f16c, pocl=False, note="vstore_half_rt{z,p,n} include overflow and underflow cases"))


def define_memory_runs():
    # ---- lds_reduce -------------------------------------------------------------------------
    r = rng(501)
    n = 2000
    a = r.integers(0, 2**24, n).astype(np.uint32)
    G = ceil_to(n, 128) // 128

    def m_reduce(run):
        A = np.concatenate([run.inbuf(0, np.uint32), np.zeros(G * 128 - n, np.uint32)]).reshape(G, 128)
        return {1: asbytes((A.astype(np.uint64).sum(1) & M32).astype(np.uint32)), 2: asbytes(A.max(1))}
    add(Run("lds_reduce", "lds_reduce", "lds_reduce", [G * 128], [128],
            [Buf(a), Zeros(G * 4), Zeros(G * 4), Scalar("u32", n)], [1, 2], model=m_reduce))

    # ---- lds_transpose ----------------------------------------------------------------------
    Wd, Ht = 100, 70
    a = r.integers(0, 2**32, Wd * Ht, dtype=np.uint64).astype(np.uint32)
    add(Run("lds_transpose", "lds_transpose", "lds_transpose", [112, 80], [16, 16],
            [Buf(a), Zeros(Wd * Ht * 4), Scalar("u32", Wd), Scalar("u32", Ht)], [1],
            model=lambda run: {1: asbytes(run.inbuf(0, np.uint32).reshape(Ht, Wd).T.copy())}))

    # ---- sgemm (values k/8: every product and sum is exact, so summation order cannot matter) ----
    def sg_vals(shape):
        return (r.integers(-16, 17, shape) / 8.0).astype(np.float32)
    M, N, K = 33, 40, 27
    A, B, C = sg_vals((M, K)), sg_vals((K, N)), (r.integers(-40, 41, (M, N)) / 4.0).astype(np.float32)
    alpha, beta = 1.5, -0.5

    def m_sgemm(run):
        A_ = run.inbuf(0, np.float32).reshape(M, K).astype(np.float64)
        B_ = run.inbuf(1, np.float32).reshape(K, N).astype(np.float64)
        C_ = run.inbuf(2, np.float32).reshape(M, N).astype(np.float64)
        return {2: asbytes((alpha * (A_ @ B_) + beta * C_).astype(np.float32))}
    add(Run("sgemm_naive", "sgemm_naive", "sgemm_naive", [48, 48], [16, 16],
            [Buf(A), Buf(B), Buf(C), Scalar("u32", M), Scalar("u32", N), Scalar("u32", K),
             Scalar("f32", alpha), Scalar("f32", beta)], [2], model=m_sgemm,
            note="inputs are multiples of 1/8 so all arithmetic is exact"))
    M2, N2, K2 = 50, 37, 45
    A2, B2 = sg_vals((M2, K2)), sg_vals((K2, N2))
    add(Run("sgemm_tiled", "sgemm_tiled", "sgemm_tiled", [48, 64], [16, 16],
            [Buf(A2), Buf(B2), Zeros(M2 * N2 * 4), Scalar("u32", M2), Scalar("u32", N2), Scalar("u32", K2)], [2],
            model=lambda run: {2: asbytes((run.inbuf(0, np.float32).reshape(M2, K2).astype(np.float64) @
                                           run.inbuf(1, np.float32).reshape(K2, N2).astype(np.float64)).astype(np.float32))},
            note="inputs are multiples of 1/8 so all arithmetic is exact"))

    # ---- lds_atomics ------------------------------------------------------------------------
    n, L = 1000, 64
    G = ceil_to(n, L) // L
    a = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)

    def m_lds_atomics(run):
        V = run.inbuf(0, np.uint32)
        out = np.zeros(G * 28, np.uint32)
        for g in range(G):
            v = [int(t) for t in V[g * L:min(n, (g + 1) * L)]]
            sv = [s32(t) for t in v]
            u = [sum(v) & M32, min(v + [M32]), max(v + [0]), 0, M32, 0, len(v),
                 (1000000 - sum(t & 0xFF for t in v)) & M32, max([t >> 8 for t in v] + [0]), 7 if v else 0]
            for t in v:
                u[3] |= t & 0x00FF00FF
                u[4] &= t | 0x0F0F0F0F
                u[5] ^= t
            s = [min(sv + [2**31 - 1]), max(sv + [-2**31])]
            hist = [0] * 16
            for t in v:
                hist[t & 15] += 1
            out[g * 28:(g + 1) * 28] = [to_u32(t) for t in u + s + hist]
        return {1: asbytes(out)}
    add(Run("lds_atomics", "lds_atomics", "lds_atomics", [G * L], [L],
            [Buf(a), Zeros(G * 28 * 4), Scalar("u32", n)], [1], model=m_lds_atomics))

    # ---- global_atomics ---------------------------------------------------------------------
    n = 3000
    a = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    acc0 = np.array([0, 0x80000000, 5, 7, M32, 0, M32, 0, 0x12345678], np.uint32)
    sacc0 = np.array([2**31 - 1, -2**31, 0], np.int32)

    def m_gatom(run):
        v = [int(t) for t in run.inbuf(0, np.uint32)]
        acc = [int(t) for t in run.inbuf(1, np.uint32)]
        sacc = [int(t) for t in run.inbuf(2, np.int32)]
        acc[0] = (acc[0] + sum(v)) & M32
        acc[1] = (acc[1] - sum(t >> 4 for t in v)) & M32
        acc[2] = (acc[2] + n) & M32
        acc[3] = (acc[3] - n) & M32
        acc[4] = min([acc[4]] + v)
        acc[5] = max([acc[5]] + v)
        for t in v:
            acc[6] &= t | 0x11111111
            acc[7] |= t & 0x88888888
            acc[8] ^= t
        sv = [s32(t) for t in v]
        sacc[0] = min([sacc[0]] + sv)
        sacc[1] = max([sacc[1]] + sv)
        sacc[2] = s32(sacc[2] + sum(t >> 12 for t in sv))
        return {1: asbytes(np.array(acc, np.uint32)), 2: asbytes(np.array(sacc, np.int32))}
    add(Run("global_atomics", "global_atomics", "global_atomics", [3000], [256],
            [Buf(a), Buf(acc0), Buf(sacc0), Scalar("u32", n)], [1, 2], model=m_gatom, pocl_pad=True,
            note="atomic_inc/atomic_dec are plain +1/-1 in OpenCL (wrapping); results are order independent"))

    n = 2000
    a = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    slots = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    fm0 = np.full(64, -1e30, np.float32)
    fm0[5] = np.float32(7000.0)

    def m_xchg(run):
        V = run.inbuf(0, np.uint32)
        S = run.inbuf(1, np.uint32)
        owner = np.zeros(64, np.uint32)
        wins = np.zeros(64, np.uint32)
        fm = run.inbuf(5, np.float32)
        for t in V:
            b = int(t) & 63
            owner[b] = 1
            wins[b] = 1
            fm[b] = max(fm[b], np.float32(int(t) & 0xFFFF) * np.float32(0.125) - np.float32(1000))
        return {1: asbytes(V), 2: asbytes(S), 3: asbytes(owner), 4: asbytes(wins), 5: asbytes(fm)}
    add(Run("atomic_xchg_cmpxchg", "global_atomics", "atomic_xchg_cmpxchg", [2048], [128],
            [Buf(a), Buf(slots), Zeros(n * 4), Zeros(64 * 4), Zeros(64 * 4), Buf(fm0), Scalar("u32", n)],
            [1, 2, 3, 4, 5], model=m_xchg))

    # ---- atomics64 --------------------------------------------------------------------------
    n = 1000
    a = u64_mix(r, n, [0, M64, 1 << 63])
    acc0 = np.array([0, 1 << 63, M64, 0, M64, 0, 0x0123456789ABCDEF, 3], np.uint64)
    sacc0 = np.array([2**63 - 1, -2**63], np.int64)
    slots = r.integers(0, 2**64, 2 * n, dtype=np.uint64)
    for i in range(n):
        slots[2 * i + 1] = i if i % 2 == 0 else i + 1

    def m_atom64(run):
        v = [int(t) for t in run.inbuf(0, np.uint64)]
        acc = [int(t) for t in run.inbuf(1, np.uint64)]
        sacc = [int(t) for t in run.inbuf(2, np.int64)]
        S = [int(t) for t in run.inbuf(3, np.uint64)]
        acc[0] = (acc[0] + sum(v)) & M64
        acc[1] = (acc[1] - sum(t >> 3 for t in v)) & M64
        acc[2] = min([acc[2]] + v)
        acc[3] = max([acc[3]] + v)
        for t in v:
            acc[4] &= t | 0x1111111111111111
            acc[5] |= t & 0x8888888888888888
            acc[6] ^= t
        acc[7] = (acc[7] + n) & M64
        sv = [s64(t) for t in v]
        sacc = [min([sacc[0]] + sv), max([sacc[1]] + sv)]
        olds = list(S)
        for i in range(n):
            S[2 * i] = v[i]
            if S[2 * i + 1] == i:
                S[2 * i + 1] = v[i]
        return {1: asbytes(np.array(acc, np.uint64)), 2: asbytes(np.array(sacc, np.int64)),
                3: asbytes(np.array(S, np.uint64)), 4: asbytes(np.array(olds, np.uint64))}
    add(Run("atomics64", "atomics64", "atomics64", [1024], [64],
            [Buf(a), Buf(acc0), Buf(sacc0), Buf(slots), Zeros(2 * n * 8), Scalar("u32", n)], [1, 2, 3, 4],
            model=m_atom64))

    # ---- histogram --------------------------------------------------------------------------
    n = 5000
    data = np.minimum(np.abs(r.normal(0, 60, n)), 255).astype(np.uint8)
    data[:3] = [0, 255, 128]
    hist = lambda run: {1: asbytes(np.bincount(run.inbuf(0, np.uint8), minlength=256).astype(np.uint32))}
    add(Run("histogram_global", "histogram", "histogram_global", [5120], [256],
            [Buf(data), Zeros(1024), Scalar("u32", n)], [1], model=hist))
    add(Run("histogram_local", "histogram", "histogram_local", [1024], [128],
            [Buf(data), Zeros(1024), Scalar("u32", n)], [1], model=hist,
            note="grid-stride loop over 5000 bytes with 1024 work-items"))

    # ---- local_arg_scan ---------------------------------------------------------------------
    n, L = 1000, 128
    G = ceil_to(n, L) // L
    a = r.integers(0, 1000, n).astype(np.uint32)

    def m_scan(run):
        A = np.concatenate([run.inbuf(0, np.uint32), np.zeros(G * L - n, np.uint32)]).reshape(G, L)
        cs = np.cumsum(A, axis=1).astype(np.uint32)
        return {1: asbytes(cs.reshape(-1)[:n]), 2: asbytes(cs[:, -1])}
    add(Run("local_arg_scan", "local_arg_scan", "local_arg_scan", [G * L], [L],
            [Buf(a), Zeros(n * 4), Zeros(G * 4), Local(2 * L * 4), Scalar("u32", n)], [1, 2], model=m_scan))
    # Work-groups of one work-item: the scan loop runs zero times, so the code after its
    # zero-iteration exit executes (the hazard checker's mutants there need a run that reaches it).
    n1 = 200
    a1 = rng(1327).integers(0, 1000, n1).astype(np.uint32)

    def m_scan1(run):
        A = run.inbuf(0, np.uint32)
        return {1: asbytes(A), 2: asbytes(A)}
    add(Run("local_arg_scan_l1", "local_arg_scan", "local_arg_scan", [n1], [1],
            [Buf(a1), Zeros(n1 * 4), Zeros(n1 * 4), Local(2 * 4), Scalar("u32", n1)], [1, 2], model=m_scan1))

    # ---- bitonic_sort -----------------------------------------------------------------------
    a = r.integers(0, 2**32, 4 * 256, dtype=np.uint64).astype(np.uint32)
    a[:10] = 7
    add(Run("bitonic_sort", "bitonic_sort", "bitonic_sort", [512], [128], [Buf(a)], [0],
            model=lambda run: {0: asbytes(np.sort(run.inbuf(0, np.uint32).reshape(4, 256), axis=1))}))

    # ---- image_blur -------------------------------------------------------------------------
    Wd, Ht = 61, 37
    img = r.integers(0, 256, (Ht, Wd)).astype(np.uint8)

    def m_blur(run):
        I = run.inbuf(0, np.uint8).reshape(Ht, Wd).astype(np.uint32)
        P = np.pad(I, 1, mode="edge")
        s = sum(P[1 + dy:1 + dy + Ht, 1 + dx:1 + dx + Wd] for dy in (-1, 0, 1) for dx in (-1, 0, 1))
        return {1: asbytes(((s + 4) // 9).astype(np.uint8))}
    add(Run("image_blur", "image_blur", "image_blur", [64, 40], [16, 8],
            [Buf(img), Zeros(Wd * Ht), Scalar("i32", Wd), Scalar("i32", Ht)], [1], model=m_blur))

    # ---- stencil3d --------------------------------------------------------------------------
    nx, ny, nz = 20, 12, 9
    vol = r.integers(-1000, 1001, (nz, ny, nx)).astype(np.int32)

    def m_stencil(run):
        V = run.inbuf(0, np.int32).reshape(nz, ny, nx)
        P = np.pad(V, 1, mode="edge")
        c = P[1:-1, 1:-1, 1:-1]
        o = 6 * c - P[1:-1, 1:-1, :-2] - P[1:-1, 1:-1, 2:] - P[1:-1, :-2, 1:-1] - P[1:-1, 2:, 1:-1] \
            - P[:-2, 1:-1, 1:-1] - P[2:, 1:-1, 1:-1]
        return {1: asbytes(o.astype(np.int32))}
    add(Run("stencil3d", "stencil3d", "stencil3d", [24, 12, 10], [8, 4, 2],
            [Buf(vol), Zeros(nx * ny * nz * 4), Scalar("u32", nx), Scalar("u32", ny), Scalar("u32", nz)], [1],
            model=m_stencil, note="3-D grid, padded in x and z"))

    # ---- buffer_rsrc (AMDGPU buffer builtins: model only) ----------------------------------
    n = 96
    inb = r.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32)
    IN_BYTES, OUT_TOTAL = 256, 96 * 32
    OUT_BYTES = OUT_TOTAL - 96

    def m_buffer(run):
        raw = run.inbuf(0, np.uint8).tobytes()
        out = bytearray(OUT_TOTAL)

        def ld(off, size):
            if off + size > IN_BYTES:
                return 0
            return int.from_bytes(raw[off:off + size], "little")

        def st(off, size, val):
            if off + size <= OUT_BYTES:
                out[off:off + size] = (val & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
        for i in range(n):
            w0, w1, w2, w3 = ld(4 * i, 4), ld((i & 15) * 4 + 64, 4), ld(3 * i, 1), ld(2 * i, 2)
            v2 = [ld(8 * i, 4) if 8 * i + 8 <= IN_BYTES else 0, ld(8 * i + 4, 4) if 8 * i + 8 <= IN_BYTES else 0]
            v4 = [ld(16 * i + 4 * k, 4) if 16 * i + 16 <= IN_BYTES else 0 for k in range(4)]
            base = 32 * i
            if base + 16 <= OUT_BYTES:
                for k, w in enumerate((w0, w1, w2, w3)):
                    st(base + 4 * k, 4, w)
            if base + 24 <= OUT_BYTES:
                st(base + 16, 4, v2[0] + 1)
                st(base + 20, 4, v2[1] + 2)
            st(base + 24, 4, v4[0] ^ v4[1] ^ v4[2] ^ v4[3])
            st(base + 28, 2, w0 >> 4)
            st(base + 30, 1, w1)
            st(base + 31, 1, 0xAB)
        return {1: bytes(out)}
    add(Run("buffer_rsrc", "buffer_rsrc", "buffer_rsrc", [96], [32],
            [Buf(inb), Zeros(OUT_TOTAL), Scalar("u32", IN_BYTES), Scalar("u32", OUT_BYTES), Scalar("u32", n)], [1],
            model=m_buffer, pocl=False,
            note="num_records limits: loads past 256 bytes read 0 although the buffer holds 512; "
                 "stores past 2976 bytes are dropped (no access straddles a limit)"))


def define_ir_runs():
    # ---- ll/buffer_struct.ll: structured buffer loads, raw store, buffer atomics ----------------
    r = rng(801)
    n = 300
    recs = r.integers(0, 2**32, (n, 4), dtype=np.uint64).astype(np.uint32)

    def m_bstruct(run):
        R = run.inbuf(0, np.uint32).reshape(n, 4).astype(np.uint64)
        key, a, b, c = R[:, 0], R[:, 1], R[:, 2], R[:, 3]
        out = (((a + b * key) & M32) ^ c).astype(np.uint32)
        acc = np.array([int(key.sum()) & M32, int(c.max()), n, (n * (n - 1) // 2) & M32], np.uint32)
        return {1: asbytes(out), 2: asbytes(acc)}
    add(Run("buffer_struct", "buffer_struct", "buffer_struct", [320], [64],
            [Buf(recs), Zeros(n * 4), Zeros(16), Scalar("u32", n)], [1, 2], model=m_bstruct, pocl=False,
            note="LLVM IR kernel (ll/buffer_struct.ll), work-group size fixed at 64; acc[3] = sum of the old "
                 "values returned by acc[2] += 1, i.e. n(n-1)/2 in any order"))


    # ---- ll/buffer_formats.ll: MUBUF format ops, MTBUF, D16, buffer atomics fadd/cmpswap ------
    # Format conversions follow the data formats' definitions, rounded once from the exact value
    # (UNORM x / (2^b - 1), SNORM max(x / (2^(b-1) - 1), -1), float -> f16 / SNORM8 to nearest
    # even). Inputs avoid 16-bit SNORM values |s| <= 2, whose f32 value would be an f16 denormal
    # in the store_format to 16_16_16_16_FLOAT (hardware denormal handling there is unspecified).
    r = rng(802)
    n, total = 150, 180
    fin = r.integers(0, 2**32, total, dtype=np.uint64).astype(np.uint32)
    lo, hi = fin & 0xFFFF, fin >> 16
    for h in (lo, hi):
        small = (h <= 2) | (h >= 0xFFFE)
        h[small] = h[small] ^ 0x1234
    fin = (lo | (hi << 16)).astype(np.uint32)
    fin[3] = (fin[3] & 0xFFFF0000) | 0x8000      # SNORM16 -32768 -> -1.0
    fin[5] = (fin[5] & 0x0000FFFF) | 0x80010000  # SNORM16 -32767 -> -1.0
    acc0 = np.concatenate([[0], np.arange(total)]).astype(np.uint32)

    def unorm(u, bits, fmt):
        return round_frac(Fraction(int(u), (1 << bits) - 1), fmt)

    def snorm(s, bits, fmt):
        return round_frac(max(Fraction(int(s), (1 << (bits - 1)) - 1), Fraction(-1)), fmt)

    def to_snorm8(x):
        q = max(min(Fraction(float(x)), Fraction(1)), Fraction(-1)) * 127
        fl = q.numerator // q.denominator
        rem = q - fl
        v = fl + (1 if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2) else 0)
        return v & 0xFF

    def m_bformats(run):
        words = run.inbuf(0, np.uint32)
        acc = run.inbuf(2, np.uint32)
        out = bytearray(48 * total)
        fsum = Fraction(0)
        for i in range(total):
            b = [(int(words[i]) >> (8 * k)) & 0xFF for k in range(4)]
            s16 = [int(np.int16(np.uint16((int(words[i]) >> (16 * k)) & 0xFFFF))) for k in range(2)]
            inr = i < n
            # +0: structured (stride 4, num_records n, OOB_SELECT 1: index >= n is out) 8_8_8_8_UNORM
            # with dst_sel (Z, Y, X, SEL_1); out of range the selects still give (0, 0, 0, 1).
            f = [unorm(b[2], 8, "f32"), unorm(b[1], 8, "f32"), unorm(b[0], 8, "f32")] if inr else \
                [np.float32(0)] * 3
            f.append(np.float32(1.0))
            # +16: tbuffer 16_16_SNORM at 4i of a raw 4n-byte V#: whole element in range iff i < n.
            t = [snorm(s, 16, "f32") for s in s16] if inr else [np.float32(0)] * 2
            rec = asbytes(np.array(f + t, np.float32))
            # +24: store_format 16_16_16_16_FLOAT of (f.x, f.y, t.x, t.y).
            rec += asbytes(np.array([round_frac(Fraction(float(v)), "f16") for v in (f[0], f[1], t[0], t[1])],
                                    np.float16))
            # +32: D16 load_format of 8_8_8_8_UNORM (identity selects), 0 out of range.
            rec += asbytes(np.array([unorm(v, 8, "f16") if inr else 0 for v in b], np.float16))
            # +40: tbuffer store 8_8_8_8_SNORM of (t.x, -t.y, 0.5, -1.0).
            rec += bytes([to_snorm8(t[0]), to_snorm8(-t[1]), to_snorm8(0.5), to_snorm8(-1.0)])
            # +44: cmpswap on acc[1 + i] (= i) returns i.
            rec += asbytes(np.array([int(acc[1 + i]) ^ 0xABC], np.uint32))
            out[48 * i:48 * i + 48] = rec
            fsum += Fraction(i, 2)
        res = acc.copy()
        # acc[0] += 0.5 i for every item: multiples of 0.5 below 2^24, exact in any order.
        res[0] = np.frombuffer(asbytes(np.array([round_frac(fsum, "f32")], np.float32)), np.uint32)[0]
        for i in range(total):
            if int(acc[1 + i]) == i + (i & 1):
                res[1 + i] = 3 * i
        return {1: bytes(out), 2: asbytes(res)}
    add(Run("buffer_formats", "buffer_formats", "buffer_formats", [192], [64],
            [Buf(fin), Zeros(48 * total), Buf(acc0), Scalar("u32", n), Scalar("u32", total)], [1, 2],
            model=m_bformats, pocl=False,
            note="LLVM IR kernel (ll/buffer_formats.ll), work-group size fixed at 64, padded grid (180 items); "
                 "V#s expose n = 150 of the 180 input dwords, so items 150.. read out of range; "
                 "conversions rounded once from the exact value"))


def define_control_runs():
    r = rng(601)
    # ---- divergent: branchy -----------------------------------------------------------------
    n = 1000
    v = r.integers(-30000, 30001, n).astype(np.int32)

    def m_branchy(run):
        V = run.inbuf(0, np.int32)
        out = np.zeros(n, np.int32)
        for i in range(n):
            lid, x = i % 64, int(V[i])
            if lid & 1:
                rr = x * 3 if x > 0 else -x + 7
            elif (lid & 6) == 4:
                rr = x ^ 0x5A5A
            else:
                rr = x - lid
                if rr < 0:
                    rr = rr * rr
            c = x & 7
            if c == 0:
                rr += 100
            elif c in (1, 2):
                if c == 1:
                    rr -= 3
                rr *= 2
            elif c == 5:
                rr = ~rr
            else:
                rr ^= 1
            out[i] = s32(rr)
        return {1: asbytes(out)}
    add(Run("branchy", "divergent", "branchy", [1000], [64], [Buf(v), Zeros(n * 4), Scalar("u32", n)], [1],
            model=m_branchy, pocl_pad=True))

    # ---- divergent: collatz -----------------------------------------------------------------
    n = 700
    c = r.integers(1, 100000, n).astype(np.uint32)
    c[:4] = [0, 1, 27, 77031]

    def m_collatz(run):
        C = run.inbuf(0, np.uint32)
        st = np.zeros(n, np.uint32)
        pk = np.zeros(n, np.uint32)
        for i in range(n):
            x, s, p = int(C[i]), 0, int(C[i])
            while x != 1 and s < 1000:
                x = 3 * x + 1 if x & 1 else x >> 1
                p = max(p, x)
                s += 1
            st[i], pk[i] = s, min(p, M32)
        return {1: asbytes(st), 2: asbytes(pk)}
    add(Run("collatz", "divergent", "collatz", [768], [64], [Buf(c), Zeros(n * 4), Zeros(n * 4), Scalar("u32", n)],
            [1, 2], model=m_collatz))

    # ---- divergent: early_exit --------------------------------------------------------------
    n = 900
    e = r.integers(-50, 51, n).astype(np.int32)
    e[r.integers(0, n, 40)] = -950
    e[r.integers(0, n, 100)] = 0
    LIMIT = 400

    def m_early(run):
        E = run.inbuf(0, np.int32)
        out = np.zeros(n, np.int32)
        for i in range(n):
            acc, res = 0, None
            for k in range(64):
                x = int(E[(i + k) % n])
                if x == 0:
                    continue
                if x < -900:
                    res = -1000 - k
                    break
                acc += x
                if acc > LIMIT:
                    break
            out[i] = acc if res is None else res
        return {1: asbytes(out)}
    add(Run("early_exit", "divergent", "early_exit", [960], [64],
            [Buf(e), Zeros(n * 4), Scalar("u32", n), Scalar("i32", LIMIT)], [1], model=m_early))

    # ---- structs_vectors: particles ---------------------------------------------------------
    n = 300
    PT = np.dtype([("pos", "<f4", 4), ("vel", "<f4", 4), ("cell", "<i4", 2), ("color", "u1", 4), ("id", "<u4")])
    assert PT.itemsize == 48
    parts = np.zeros(n, PT)
    parts["pos"] = r.uniform(-50, 50, (n, 4))
    parts["vel"] = r.uniform(-10, 10, (n, 4))
    parts["cell"] = r.integers(-100, 100, (n, 2))
    parts["color"] = r.integers(0, 256, (n, 4))
    parts["id"] = r.integers(0, 2**31, n)
    DT = 0.25

    def m_particles(run):
        P = np.frombuffer(run.args[0].data, PT).copy()
        pos = P["pos"] + P["vel"] * np.float32(DT)
        vel = P["vel"][:, ::-1] * np.array([0.5, 1.0, -1.0, 2.0], np.float32)
        cell = np.floor(pos[:, :2]).astype(np.int32) + np.stack([P["cell"][:, 1], -P["cell"][:, 0]], 1)
        col = np.minimum(P["color"].astype(np.int32) + np.array([200, 10, 0, 255]), 255).astype(np.uint8) \
            ^ (P["id"] & 0xFF).astype(np.uint8)[:, None]
        P["pos"], P["vel"], P["cell"], P["color"] = pos, vel, cell, col
        P["id"] = P["id"] * np.uint32(2) + np.uint32(1)
        return {0: P.tobytes()}
    add(Run("particles", "structs_vectors", "particles", [320], [64],
            [Buf(parts), Scalar("f32", DT), Scalar("u32", n)], [0], model=m_particles,
            note="48-byte struct {float4 pos; float4 vel; int2 cell; uchar4 color; uint id;} updated in place"))

    # ---- structs_vectors: vec_ops -----------------------------------------------------------
    n = 256
    fa = r.uniform(-1e4, 1e4, 4 * n).astype(np.float32)
    ib = r.integers(-2**26, 2**26, 4 * n).astype(np.int32)
    ib[: n] = r.integers(-300, 300, n)

    def m_vec(run):
        X = run.inbuf(0, np.float32).reshape(n, 4)
        Y = run.inbuf(1, np.int32).reshape(n, 4)
        fo = np.zeros(5 * n, np.float32)
        io = np.zeros(9 * n, np.int32)
        rr = np.fmax(X, np.float32(0)) + Y[:, [1, 2, 3, 0]].astype(np.float32) * np.float32(0.5)
        fo[:4 * n] = rr.reshape(-1)
        s = (Y >> 2) * np.array([1, -2, 3, -4], np.int32) + np.trunc(X).astype(np.int32)
        w = np.stack([Y[:, 0], s[:, 0], Y[:, 1], s[:, 1], Y[:, 2], s[:, 2], Y[:, 3], s[:, 3]], 1)
        io[:8 * n] = w.reshape(-1)
        cc = np.clip(Y, 0, 255).astype(np.uint8)
        io[8 * n:] = np.ascontiguousarray(cc[:, [2, 1, 0, 3]]).view(np.int32).reshape(-1)
        h = X[:, :2] - X[:, 2:]
        fo[4 * n:] = h[:, 0] * h[:, 1]
        return {2: asbytes(fo), 3: asbytes(io)}
    add(Run("vec_ops", "structs_vectors", "vec_ops", [256], [64],
            [Buf(fa), Buf(ib), Zeros(5 * n * 4), Zeros(9 * n * 4), Scalar("u32", n)], [2, 3], model=m_vec))


def grid_model(glob, local, offset):
    dims = len(glob)
    G = list(glob) + [1] * (3 - dims)
    Lc = list(local) + [1] * (3 - dims)
    O = (list(offset) if offset else [0] * dims) + [0] * (3 - dims)
    total = G[0] * G[1] * G[2]
    out = np.zeros(total * 20, np.uint32)
    ng = [(G[d] + Lc[d] - 1) // Lc[d] for d in range(3)]
    for z in range(G[2]):
        for y in range(G[1]):
            for x in range(G[0]):
                idx = (x, y, z)
                grp = [idx[d] // Lc[d] for d in range(3)]
                lid = [idx[d] % Lc[d] for d in range(3)]
                lsz = [Lc[d] if (grp[d] < ng[d] - 1 or G[d] % Lc[d] == 0) else G[d] % Lc[d] for d in range(3)]
                lin = (z * G[1] + y) * G[0] + x
                # get_local_linear_id: ockl's __ockl_get_local_linear_id multiplies by the
                # enqueued work-group sizes (hidden_group_size_*), also in a partial last group
                # (OpenCL 2.0 would use the actual get_local_size there).
                out[lin * 20:(lin + 1) * 20] = [
                    x + O[0], y + O[1], z + O[2], lid[0], lid[1], lid[2], grp[0], grp[1], grp[2],
                    lsz[0], lsz[1], lsz[2], ng[0] | ng[1] << 8 | ng[2] << 16, G[0] | G[1] << 8 | G[2] << 16,
                    O[0] | O[1] << 8 | O[2] << 16, dims, Lc[0] | Lc[1] << 8 | Lc[2] << 16,
                    (lid[2] * Lc[1] + lid[1]) * Lc[0] + lid[0], lin, 0xC0FFEE]
    return out


def define_grid_runs():
    for name, glob, local, offset in (("grid_ids_1d", [200], [64], None),
                                      ("grid_ids_2d", [30, 7], [8, 4], [5, 3]),
                                      ("grid_ids_3d", [10, 6, 5], [4, 3, 2], [1, 2, 3]),
                                      ("grid_ids_3d_uniform", [8, 6, 4], [4, 3, 2], [2, 0, 1])):
        total = int(np.prod(glob))
        uniform = all(g % l == 0 for g, l in zip(glob, local))
        add(Run(name, "grid_ids", "grid_ids", glob, local, [Zeros(total * 20 * 4)], [0], offset=offset,
                model=lambda run: {0: asbytes(grid_model(run.glob, run.local, run.offset))}, pocl=uniform,
                pocl_options="-cl-std=CL2.0",
                note="non-uniform groups report their actual get_local_size (OpenCL 2.0); get_local_linear_id "
                     "follows the ROCm device library, which uses the enqueued sizes (hidden_group_size_*); "
                     "PoCL cannot run non-uniform grids, so only the uniform run is cross-checked with it"))


def subgroup_model(vals, L, W):
    n = len(vals)
    out = np.zeros((n, 12), np.int64)
    for g0 in range(0, n, L):
        for s0 in range(g0, min(g0 + L, n), W):
            sv = [int(t) for t in vals[s0:min(s0 + W, g0 + L)]]
            size = len(sv)
            for j, t in enumerate(sv):
                i = s0 + j
                out[i] = [sum(sv), min(sv), max(sv), sv[5], sum(sv[:j + 1]), sum(sv[:j]), max(sv[:j + 1]),
                          int(any(u > 900 for u in sv)), int(all(u > -1000 for u in sv)), j, (s0 - g0) // W,
                          size * 1000 + (L + W - 1) // W]
    return out.astype(np.int32)


def lanes_model(vals, W):
    n = len(vals)
    out = np.zeros((n, 8), np.int64)
    v = [int(t) for t in vals]
    for w0 in range(0, n, W):
        wv = v[w0:w0 + W]
        mask = 0
        for j, t in enumerate(wv):
            if t > 0:
                mask |= 1 << j
        if W == 64:
            mask = (mask & M32) ^ (mask >> 32)
        for j in range(W):
            hb = j & ~31
            out[w0 + j] = [j, wv[hb | ((j + 3) & 31)], wv[hb | (31 - (j & 31))], wv[0],
                           wv[2] if (j & 3) == 2 else -1, wv[j ^ 1], wv[(j & ~3) | (3 - (j & 3))], s32(mask)]
    return out.astype(np.int32)


def wg_model(vals, L):
    n = len(vals)
    out = np.zeros((n, 8), np.int64)
    for g0 in range(0, n, L):
        gv = [int(t) for t in vals[g0:g0 + L]]
        for j, t in enumerate(gv):
            out[g0 + j] = [sum(gv), min(gv), max(gv), gv[7], sum(gv[:j + 1]), max(gv[:j]) if j else -2**31,
                           int(any(u == 123 for u in gv)), int(all(u >= -500 for u in gv))]
    return out.astype(np.int32)


def define_wave_runs():
    r = rng(701)
    for name, n, L in (("subgroups", 256, 128), ("subgroups_wg96", 192, 96)):
        v = r.integers(-1000, 1001, n).astype(np.int32)
        v[r.integers(0, n, 3)] = 950
        v[:40] = np.abs(v[:40]) % 900
        add(Run(name, "subgroups", "subgroups", [n], [L], [Buf(v), Zeros(n * 12 * 4)], [1],
                model=lambda run, L=L: {1: asbytes(subgroup_model(run.inbuf(0, np.int32), L, 32))},
                model_w64=lambda run, L=L: {1: asbytes(subgroup_model(run.inbuf(0, np.int32), L, 64))},
                pocl=False, note="sub-group = wave: 32 lanes (wave32) or 64 (wave64); with 96-item groups "
                                 "wave64 has a 32-lane partial sub-group"))
    n = 256
    v = r.integers(-1000, 1001, n).astype(np.int32)
    add(Run("amdgcn_lanes", "amdgcn_lanes", "amdgcn_lanes", [n], [64], [Buf(v), Zeros(n * 8 * 4)], [1],
            model=lambda run: {1: asbytes(lanes_model(run.inbuf(0, np.int32), 32))},
            model_w64=lambda run: {1: asbytes(lanes_model(run.inbuf(0, np.int32), 64))}, pocl=False,
            note="lane = local id mod wave size; wave64 ballot is folded to 32 bits (lo ^ hi)"))
    for name, n, L in (("workgroup_collectives", 512, 128), ("workgroup_collectives_wg96", 288, 96)):
        v = r.integers(-500, 501, n).astype(np.int32)
        v[5] = 123
        v[L + 9] = -501
        add(Run(name, "workgroup_collectives", "workgroup_collectives", [n], [L], [Buf(v), Zeros(n * 8 * 4)], [1],
                model=lambda run, L=L: {1: asbytes(wg_model(run.inbuf(0, np.int32), L))}, pocl=False,
                note="OpenCL 2.0 work-group functions (PoCL here is OpenCL C 1.2)"))


# ==============================================================================================
# output
# ==============================================================================================
# ----------------------------------------------------------------------------------------------
# RDNA3.5 (gfx1150 / gfx1151): cl115/ sources, objects in gfx1150-w*/ and gfx1151-w*/, runs in
# runs_rdna35.toml (same format; `object` names a code object of each of those directories)
# ----------------------------------------------------------------------------------------------
CL115_DIR = os.path.join(HERE, "cl115")
RUNS115 = []


def add115(run):
    run.cl_dir = CL115_DIR
    add(run)
    RUNS.remove(run)
    RUNS115.append(run)
    return run


def f16_of(x):
    return np.float16(x)


def r16(fr):
    """An exact rational rounded to f16 (nearest even)."""
    return round_frac(fr, "f16")


def define_rdna35_runs():
    # salu_f32: the uniform values are computed by SALU float ops; PoCL runs the same source.
    for k, (a, b, c, n, u) in enumerate([(1.1, -2.7, 3.3, -7, 123456789),
                                         (0.375, -6.5e-3, 250.75, 100000, 3)]):
        add115(Run("salu_f32_%d" % k, "salu_float", "salu_f32", [96], [32],
                   [Zeros(96 * 16 * 4), Scalar("f32", np.float32(a)), Scalar("f32", np.float32(b)),
                    Scalar("f32", np.float32(c)), Scalar("i32", n), Scalar("u32", u)], [0],
                   note="uniform f32 math in SGPRs (s_fmamk/s_fmaak/s_fmac_f32, s_cvt_*, s_cmp_*_f32)"))
    add115(Run("salu_loop", "salu_float", "salu_loop", [64], [64],
               [Zeros(64 * 4), Scalar("f32", np.float32(0.3)), Scalar("f32", np.float32(1.7)),
                Scalar("i32", 37)], [0], note="a uniform f32 loop"))

    # salu_cmp: ordered and unordered compares, NaN operands included (PoCL).
    nan = float("nan")
    for k, (a, b) in enumerate([(1.0, 2.0), (2.0, 2.0), (-0.0, 0.0), (nan, 1.0), (3.5, nan),
                                (float("inf"), -1e30)]):
        add115(Run("salu_cmp_%d" % k, "salu_cmp", "salu_cmp", [64], [64],
                   [Zeros(64 * 4), Scalar("f32", np.float32(a)), Scalar("f32", np.float32(b))], [0],
                   note="uniform f32 compares (s_cmp_*_f32, including the negated/unordered forms)"))
    # salu_minmax: fmin/fmax with finite math (PoCL with the same -cl-finite-math-only).
    # (OpenCL leaves fmin(-0, +0) open; the hardware rule -0 < +0 is tested in exact_salu_float.)
    for k, (a, b, c) in enumerate([(1.5, -2.25, 0.125), (-0.5, 0.25, -7.5)]):
        add115(Run("salu_minmax_%d" % k, "salu_minmax", "salu_minmax", [32], [32],
                   [Zeros(32 * 8), Scalar("f32", np.float32(a)), Scalar("f32", np.float32(b)),
                    Scalar("f32", np.float32(c))], [0],
                   note="uniform fmin/fmax with -cl-finite-math-only (s_min_f32/s_max_f32)"))

    # salu_f16cvt: half kernel arguments widened in SGPRs (model; PoCL has no cl_khr_fp16).
    h0, hv0, hv1, fa = f16_of(-3.5), f16_of(0.099976), f16_of(1234.0), np.float32(0.3)

    def m_f16cvt(run):
        o = np.zeros((64, 4), np.float32)
        hf, lo, hi = np.float32(h0), np.float32(hv0), np.float32(hv1)
        for i in range(64):
            o[i] = [hf * fa, lo + hi, hi - np.float32(i), lo if hf < hi else hi]
        return {0: asbytes(o)}
    add115(Run("salu_f16cvt", "salu_f16cvt", "salu_f16cvt", [64], [64],
               [Zeros(64 * 16), Scalar("f16", h0), Scalar("u32", int(np.array([hv0, hv1]).view(np.uint32)[0])),
                Scalar("f32", fa)], [0], model=m_f16cvt, pocl=False,
               note="half and half2 arguments widened with s_cvt_f32_f16 / s_cvt_hi_f32_f16 "
                    "(half2 passed as its 32-bit pattern); model only (PoCL has no cl_khr_fp16)"))

    # salu_f16: PoCL has no cl_khr_fp16, so a model computes it (exact rationals, one rounding
    # per operation as the source spells it; FP_CONTRACT is off).
    a, b, c, f = f16_of(1.5), f16_of(-0.333), f16_of(2.71875), np.float32(3.14159)
    F = lambda x: Fraction(float(x))

    def m_f16(run):
        s0 = r16(F(a) + F(b))
        s1 = r16(F(r16(F(a) * F(c))) - F(b))
        s2 = exact_fma(a, b, c, "f16")
        s3, s4 = min(a, b), max(b, c)
        t = r16(F(np.floor(a)) + F(np.ceil(c)))
        t = r16(F(t) + F(np.trunc(b)))
        s5 = r16(F(t) + F(np.rint(c)))
        s6 = r16(F(f))
        s7 = round_frac(F(np.float32(a)) * F(f), "f32")
        s8 = a if a < c else c
        s9 = np.float16(1.0) if b == c else np.float16(2.0)
        o = np.zeros((64, 12), np.float16)
        for i in range(64):
            o[i] = [r16(F(s0) + F(np.float16(i))), s1, s2, s3, s4, s5, s6, r16(F(s7)), s8, s9,
                    r16(F(np.float32(s0)) + F(np.float32(s2))), r16(F(np.float16(i & 3)) * F(s0))]
        return {0: asbytes(o)}
    add115(Run("salu_f16", "salu_float_f16", "salu_f16", [64], [32],
               [Zeros(64 * 12 * 2), Scalar("f16", a), Scalar("f16", b), Scalar("f16", c),
                Scalar("f32", f)], [0], model=m_f16, pocl=False,
               note="uniform f16 math in SGPRs (s_add/sub/mul/fmac_f16, s_cmp_*_f16); model only "
                    "(PoCL has no cl_khr_fp16)"))


def toml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_toml(runs, path):
    lines = [
        "# wavesim corpus: kernel dispatches with inputs and reference outputs.",
        "# GENERATED by make_data.py -- do not edit by hand. Format: see README.md.",
        "",
    ]
    for run in runs:
        lines.append("[[run]]")
        lines.append("name = %s" % toml_str(run.name))
        lines.append("object = %s" % toml_str(run.obj))
        lines.append("kernel = %s" % toml_str(run.kernel))
        lines.append("global = [%s]" % ", ".join(str(g) for g in run.glob))
        lines.append("local = [%s]" % ", ".join(str(g) for g in run.local))
        if run.offset:
            lines.append("offset = [%s]" % ", ".join(str(g) for g in run.offset))
        lines.append("args = [")
        for k, a in enumerate(run.args):
            if isinstance(a, Scalar):
                sp = a.spec()
            elif isinstance(a, Buf):
                sp = "buf:%s.a%d.bin" % (run.name, k)
            elif isinstance(a, Zeros):
                sp = "zeros:%d" % a.nbytes
            else:
                sp = "local:%d" % a.nbytes
            lines.append("    %s,  # %d" % (toml_str(sp), k))
        lines.append("]")
        lines.append("expect = { %s }" % ", ".join("%d = %s" % (k, toml_str(run.expect_files[k])) for k in run.expect))
        if run.expect_w64_files:
            lines.append("expect_w64 = { %s }" % ", ".join("%d = %s" % (k, toml_str(f))
                                                          for k, f in sorted(run.expect_w64_files.items())))
        if run.compare:
            lines.append("compare = { %s }" % ", ".join("%d = %s" % (k, toml_str(v)) for k, v in sorted(run.compare.items())))
        lines.append("reference = %s" % toml_str(run.reference))
        if run.note:
            lines.append("note = %s" % toml_str(run.note))
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated run names (others keep their files; runs.toml is rewritten)")
    ap.add_argument("--no-pocl", action="store_true", help="do not run PoCL")
    args = ap.parse_args()

    define_integer_runs()
    define_float_runs()
    define_math_runs()
    define_f16_runs()
    define_memory_runs()
    define_control_runs()
    define_ir_runs()
    define_grid_runs()
    define_wave_runs()
    define_rdna35_runs()
    names = [r.name for r in RUNS + RUNS115]
    assert len(names) == len(set(names)), "duplicate run names"
    only = set(args.only.split(",")) if args.only else None
    use_pocl = not args.no_pocl
    if use_pocl:
        pocl_init()
    os.makedirs(DATA, exist_ok=True)
    problems = []
    produced = set()
    for run in RUNS + RUNS115:
        run.expect_files = {k: "%s.a%d.expect.bin" % (run.name, k) for k in run.expect}
        run.expect_w64_files = {}
        refs = []
        if run.model:
            refs.append("model")
        if run.pocl:
            refs.append("pocl")
        run.reference = "+".join(refs)
        for k, a in enumerate(run.args):
            if isinstance(a, Buf):
                fn = "%s.a%d.bin" % (run.name, k)
                produced.add(fn)
                with open(os.path.join(DATA, fn), "wb") as f:
                    f.write(a.data)
        w64_names = {k: "%s.a%d.expect_w64.bin" % (run.name, k) for k in run.expect}
        if only is not None and run.name not in only:
            produced.update(run.expect_files.values())
            for k, fn in w64_names.items():
                if os.path.exists(os.path.join(DATA, fn)):
                    run.expect_w64_files[k] = fn
                    produced.add(fn)
            continue
        model = run.model_result
        model64 = run.model64_result
        pres = None
        if run.pocl and use_pocl:
            pres = pocl_run(run)
        if model is not None and pres is not None:
            exempt = run.pocl_exempt(run) if run.pocl_exempt else {}
            for k in run.expect:
                if k in exempt:
                    p = np.frombuffer(pres[k], np.uint32).copy()
                    m = np.frombuffer(model[k], np.uint32)
                    p[exempt[k]] = m[exempt[k]]
                    print("  %-28s arg %d: %d words exempt from the PoCL cross-check" %
                          (run.name, k, int(np.count_nonzero(exempt[k]))))
                    pres[k] = p.tobytes()
                msg = compare_bytes(pres[k], model[k], run.compare.get(k, "exact"))
                if msg:
                    problems.append("%s arg %d: PoCL vs model: %s" % (run.name, k, msg))
                rule = run.compare.get(k, "exact")
                if rule.startswith("ulp"):
                    fmt = parse_rule(rule)[2]
                    print("  %-28s arg %d: PoCL vs model max %d ulp (allowed %s)" %
                          (run.name, k, max_ulp(pres[k], model[k], fmt), rule))
        result = model if model is not None else pres
        if result is None:
            for fn in run.expect_files.values():
                if not os.path.exists(os.path.join(DATA, fn)):
                    problems.append("%s: no reference (PoCL disabled) and no existing %s" % (run.name, fn))
                produced.add(fn)
            continue
        for k in run.expect:
            with open(os.path.join(DATA, run.expect_files[k]), "wb") as f:
                f.write(result[k])
            produced.add(run.expect_files[k])
            if model64 is not None and model64[k] != result[k]:
                with open(os.path.join(DATA, w64_names[k]), "wb") as f:
                    f.write(model64[k])
                run.expect_w64_files[k] = w64_names[k]
                produced.add(w64_names[k])
        bad = any(p.startswith(run.name + " ") for p in problems)
        print("%-30s %-12s %s" % (run.name, run.reference, "MISMATCH" if bad else "ok"))
    for fn in sorted(os.listdir(DATA)):
        if fn not in produced:
            os.remove(os.path.join(DATA, fn))
    write_toml(RUNS, os.path.join(HERE, "runs.toml"))
    write_toml(RUNS115, os.path.join(HERE, "runs_rdna35.toml"))
    total = sum(os.path.getsize(os.path.join(DATA, f)) for f in os.listdir(DATA))
    print("%d runs, %d data files, %.1f KiB" % (len(RUNS), len(os.listdir(DATA)), total / 1024))
    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print("  " + p)
        sys.exit(1)


if __name__ == "__main__":
    main()
