"""wavesim: run real GPU machine code on the CPU, bit-exactly.

    import numpy as np, wavesim
    dev = wavesim.Device()
    mod = dev.load("examples/saxpy.hsaco")          # a path or the code object's bytes
    x = np.arange(1000, dtype=np.float32); y = np.ones(1000, np.float32)
    dev.dispatch(mod, "saxpy", 1024, 256, 1000, 2.5, x, y)   # y is updated in place

Arguments are checked against the kernel's metadata before the run: numpy arrays for buffers
(their dtype against the pointee type when the code object names it), Python or numpy numbers
for scalars (a float for an integer argument, or a value out of its range, is an error), numpy
arrays or tuples for vectors, bytes for structs, ``wavesim.local(n)`` for OpenCL ``__local``
pointers. Every failure raises ``wavesim.WavesimError`` carrying wavesim's message.
"""

import os

import numpy as np

from ._native import WavesimError, demangle, disassemble, draw, run_agx, run_r700
from ._native import debug_agx, debug_r700
from ._native import Device as _Device
from ._native import run_asm as _run_asm
from ._native import debug as _debug

__all__ = [
    "Device",
    "WavesimError",
    "local",
    "disassemble",
    "demangle",
    "run_r700",
    "run_agx",
    "debug_r700",
    "debug_agx",
    "run_asm",
    "draw",
]


def run_asm(code, global_size, local_size, kernarg=0, rsrc2=0, scratch_size=0):
    """Runs bare gfx11 instruction bytes in wave32 on HOST memory (the C ``run_asm``; raw mode,
    not sandboxed). ``global_size`` counts WORKGROUPS (as C ``run_asm`` and tinygrad do),
    ``local_size`` work-items per workgroup. ``kernarg`` is the host address s[0:1] holds (for
    example ``array.ctypes.data``); the caller keeps every buffer the kernel touches alive.
    ``rsrc2`` is COMPUTE_PGM_RSRC2."""
    if isinstance(kernarg, np.ndarray):
        kernarg = kernarg.ctypes.data
    g = (_dims(global_size, "global_size") + [1, 1, 1])[:3]
    l = (_dims(local_size, "local_size") + [1, 1, 1])[:3]  # noqa: E741
    _run_asm(
        bytes(code),
        g,
        l,
        _uint(kernarg, "kernarg", 64),
        int(rsrc2) & 0xFFFFFFFF,
        _uint(scratch_size, "scratch_size", 32),
    )

# OpenCL C scalar type names (kernel metadata's .type_name) and their numpy types.
_C_TYPES = {
    "char": np.int8,
    "signed char": np.int8,
    "uchar": np.uint8,
    "unsigned char": np.uint8,
    "bool": np.uint8,
    "short": np.int16,
    "ushort": np.uint16,
    "unsigned short": np.uint16,
    "int": np.int32,
    "uint": np.uint32,
    "unsigned int": np.uint32,
    "long": np.int64,
    "ulong": np.uint64,
    "unsigned long": np.uint64,
    "size_t": np.uint64,
    "half": np.float16,
    "float": np.float32,
    "double": np.float64,
}


def _c_type(name):
    """(numpy type, lanes) for an OpenCL scalar or vector type name, else None."""
    if not name:
        return None
    name = name.strip()
    base = name.rstrip("0123456789")
    lanes = int(name[len(base):]) if len(base) < len(name) else 1
    t = _C_TYPES.get(base)
    return (t, lanes) if t is not None and lanes in (1, 2, 3, 4, 8, 16) else None


class local:
    """``n`` bytes of dynamic LDS for an OpenCL ``__local`` pointer argument."""

    def __init__(self, nbytes):
        self.nbytes = int(nbytes)


def _uint(v, name, bits):
    """``v`` as an unsigned ``bits``-bit integer, or a WavesimError naming the argument."""
    try:
        n = int(v)
    except (TypeError, ValueError):
        raise WavesimError(f"{name}: an integer, not {type(v).__name__}") from None
    if n < 0 or n >= 1 << bits:
        raise WavesimError(f"{name} = {n}: must be 0 to {(1 << bits) - 1}")
    return n


def _dims(v, name):
    """A grid or block size (an int or up to 3 ints), each a 32-bit unsigned value."""
    if isinstance(v, (int, np.integer)):
        v = [v]
    try:
        v = list(v)
    except TypeError:
        raise WavesimError(f"{name}: an integer or a sequence of 1 to 3 integers") from None
    if not 1 <= len(v) <= 3:
        raise WavesimError(f"{name}: 1 to 3 dimensions, got {len(v)}")
    return [_uint(x, f"{name}[{i}]", 32) for i, x in enumerate(v)]


class Module:
    """A loaded code object; ``kernels`` lists its kernel symbols."""

    def __init__(self, native, code=b""):
        self._m = native
        self._code = code

    @property
    def kernels(self):
        return self._m.kernels()

    def args(self, kernel):
        """The kernel's explicit arguments (name, kind, size, offset, type_name, is_const)."""
        return self._m.args(kernel)

    def signature(self, kernel):
        return self._m.signature(kernel)


class Device:
    """A sandboxed device with its own memory. ``threads`` host threads run workgroups: by
    default every core (or ``WAVESIM_THREADS``); 1 runs them in order, for debugging."""

    def __init__(self, threads=None):
        self._dev = _Device(threads)
        self.printf_output = ""

    def load(self, code):
        """Loads a code object (or offload bundle): a path or its bytes."""
        if isinstance(code, (str, os.PathLike)):
            with open(code, "rb") as f:
                code = f.read()
        return Module(self._dev.load(bytes(code)), bytes(code))

    def dispatch(self, module, kernel, grid, block=None, *args, dynamic_shared=0):
        """Runs ``kernel`` over ``grid`` work-items in workgroups of ``block`` (default: the
        kernel's reqd_work_group_size). Buffers are copied in and, unless const, back into the
        arrays. Returns the text the kernel printed with printf."""
        m = module._m
        meta, grid, block, packed = _prepare(m, kernel, grid, block, args)
        dynamic_shared = _uint(dynamic_shared, "dynamic_shared", 32)
        outs, text = self._dev.run(m, kernel, grid, block, packed, dynamic_shared)
        for a, v, out in zip(meta, args, outs):
            if out is not None and isinstance(v, np.ndarray) and not a["is_const"]:
                # The buffer holds the array's elements in C order (as packed); assigning
                # through the array's own indexing writes them back whatever its layout
                # (Fortran order, transposed, strided views).
                v[...] = np.frombuffer(out, dtype=v.dtype, count=v.size).reshape(v.shape)
        self.printf_output = text
        return text

    # ---- Step API (issue 16) ----

    def debug(
        self,
        module=None,
        kernel=None,
        grid=None,
        block=None,
        *args,
        config=None,
        target=None,
        code=None,
        config_dir=None,
    ):
        """The step debugger for every ISA, with the words of ``wavesim debug``.

        RDNA3: ``debug(module, kernel, grid, block, *args)`` starts ``kernel`` (arguments as for
        ``dispatch``) and returns a session: ``break_at(pc)``, ``break_if(kind, value, index,
        lane)`` (kind ``sgpr``, ``vgpr`` or ``exec``), ``step(wave)``, ``cont()``, ``pc(wave)``,
        ``next_instruction(wave)``, ``read_sgpr``/``write_sgpr``, ``read_vgpr``/``write_vgpr``,
        ``read_mem``/``write_mem`` (device addresses; ``buffers`` holds the buffer arguments'),
        ``read_lds``/``write_lds`` and ``finish()`` (the buffers' final bytes).

        R700: ``debug(shader, config=TOML)`` (the object's bytes or path, the runner
        configuration's text), as ``debug_r700``. AGX: ``debug(target="agx", config=TOML,
        code=None, config_dir=None)``, as ``debug_agx``. Both return ``(session, stop)``, the
        session stopped before the first instruction (see ``debug_r700``).

        The session runs on a device of its own: this device's memory is not touched."""
        if target is not None and target != "agx":
            raise WavesimError(
                f"debug: target {target!r}: give target='agx' for AGX jobs (R700 shaders and "
                "RDNA3 code objects say their ISA themselves)"
            )
        if target == "agx" or config is not None:
            rdna3 = [n for n, v in (("kernel", kernel), ("grid", grid), ("block", block)) if v is not None]
            if rdna3 or args:
                raise WavesimError(
                    "debug: kernel, grid, block and kernel arguments are for RDNA3 code objects; "
                    "an R700 shader or AGX job takes config="
                )
            if config is None:
                raise WavesimError("debug: target='agx' debugs a job: give config=TOML")
            if target == "agx":
                if module is not None:
                    raise WavesimError("debug: an AGX job's code is code=, not a module")
                return debug_agx(config, code, config_dir)
            if code is not None or config_dir is not None:
                raise WavesimError("debug: code= and config_dir= are for AGX jobs (target='agx')")
            if module is None:
                raise WavesimError("debug: give the R700 shader object (bytes or a path)")
            if isinstance(module, (str, os.PathLike)):
                with open(module, "rb") as f:
                    module = f.read()
            return debug_r700(bytes(module), config)
        if module is None or kernel is None or grid is None:
            raise WavesimError(
                "debug: give module, kernel and grid (RDNA3), a shader and config= (R700) or "
                "target='agx' and config= (AGX)"
            )
        m = module._m
        _, grid, block, packed = _prepare(m, kernel, grid, block, args)
        return _debug(module._code, m.resolve(kernel), grid, block, packed)


def _prepare(m, kernel, grid, block, args):
    """The kernel's argument metadata, the geometry (block defaults to reqd_work_group_size)
    and the packed arguments, checked against the metadata."""
    sig = m.signature(kernel)
    meta = m.args(kernel)
    grid = _dims(grid, "grid")
    if block is None:
        reqd = m.reqd_local(kernel)
        if reqd is None:
            raise WavesimError(f"kernel {sig} has no reqd_work_group_size: give block")
        block = list(reqd[: len(grid)])
    block = _dims(block, "block")
    if len(args) != len(meta):
        raise WavesimError(f"kernel {kernel} takes {len(meta)} arguments, got {len(args)}: {sig}")
    packed = [_pack(i, a, v, sig) for i, (a, v) in enumerate(zip(meta, args))]
    return meta, grid, block, packed


def _pack(i, a, v, sig):
    what = f"argument {i + 1} ({a['name'] or 'unnamed'}"
    what += f", {a['type_name']})" if a["type_name"] else ")"
    bad = lambda why: WavesimError(f"{what} of {sig}: {why}")  # noqa: E731
    kind = a["kind"]
    if kind == "global_buffer":
        if isinstance(v, (bytes, bytearray, memoryview)):
            return ("buffer", bytes(v))
        if not isinstance(v, np.ndarray):
            raise bad(f"is a global buffer; give a numpy array, not {type(v).__name__}")
        want = _c_type((a["type_name"] or "").rstrip("*").replace("const", "").strip())
        if want is not None and v.dtype != np.dtype(want[0]):
            raise bad(f"points to {np.dtype(want[0]).name}; the array is {v.dtype.name}")
        if not a["is_const"] and not v.flags.writeable:
            raise bad(
                "is written by the kernel (not const) but the array is read-only; "
                "pass a writeable array (or a copy)"
            )
        return ("buffer", np.ascontiguousarray(v).tobytes())
    if kind == "dynamic_shared_pointer":
        if not isinstance(v, local):
            raise bad("is a __local pointer; give wavesim.local(nbytes)")
        return ("local", v.nbytes)
    if kind != "by_value":
        raise bad(f"has kind {kind}, which dispatch cannot fill")
    size = a["size"]
    if isinstance(v, (bytes, bytearray)):
        if len(v) != size:
            raise bad(f"is a {size}-byte value; got {len(v)} bytes")
        return ("value", bytes(v))
    want = _c_type(a["type_name"])
    if want is None:
        # No OpenCL type (HIP, structs): the size decides, with the Python value's kind.
        if isinstance(v, (float, np.floating)):
            t = {2: np.float16, 4: np.float32, 8: np.float64}.get(size)
        elif isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            t = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}.get(size)
            if t is not None and v > np.iinfo(t).max:
                t = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[size]
        else:
            t = None
        if t is None:
            raise bad(f"is a {size}-byte value; give bytes of that size")
        want = (t, 1)
    t, lanes = want
    values = np.asarray(v).reshape(-1)
    if values.size != lanes:
        raise bad(f"takes {lanes} value(s), got {values.size}")
    if np.issubdtype(np.dtype(t), np.integer):
        if not (np.issubdtype(values.dtype, np.integer) or values.dtype == np.bool_):
            raise bad(f"is an integer type; got {values.dtype.name} {v!r}")
        info = np.iinfo(t)
        for x in values.tolist():
            if x < info.min or x > info.max:
                raise bad(f"{x} is out of range for {a['type_name'] or np.dtype(t).name}")
    elif not (np.issubdtype(values.dtype, np.number)):
        raise bad(f"is a floating-point type; got {values.dtype.name}")
    data = values.astype(t).tobytes()
    # OpenCL: a 3-lane vector occupies the size of a 4-lane one.
    data = data.ljust(size, b"\0")
    if len(data) != size:
        raise bad(f"is a {size}-byte value; got {len(data)} bytes")
    return ("value", data)
