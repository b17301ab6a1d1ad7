"""wavesim from Python: ctypes bindings over libwavesim.so (crates/wavesim/include/wavesim.h).

Standard library only. Two modes, as in the C library:

* ``run_asm(code, global_size, local_size, kernarg, rsrc2, scratch_size)``: bare gfx11
  instruction bytes on *host* memory (unsandboxed by design, for tinygrad-style callers).
* ``Device``: a sandboxed device with its own address space. Load a code object, allocate and
  copy buffers, dispatch a kernel by name with typed arguments::

      with wavesim.Device() as dev:
          mod = dev.load("examples/saxpy.hsaco")
          x = dev.alloc_with(open("examples/x.bin", "rb").read())
          y = dev.alloc_with(open("examples/y.bin", "rb").read())
          dev.dispatch(mod, "saxpy", 1024, 256,
                       [wavesim.u32(1000), wavesim.f32(2.5), x, y])
          out = dev.download(y)

Every failure is raised as ``WavesimError`` carrying wavesim's message and error code.
"""

import ctypes
import os
import struct

__all__ = [
    "WavesimError", "load_library", "run_asm", "Device", "Module", "Buffer",
    "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f16", "f32", "f64", "local",
]

# Return codes of include/wavesim.h.
ERROR_NAMES = {
    1: "WAVESIM_ERR_INVALID",
    2: "WAVESIM_ERR_EXEC",
    3: "WAVESIM_ERR_WATCHDOG",
    4: "WAVESIM_ERR_DEADLOCK",
    5: "WAVESIM_ERR_CODE_OBJECT",
    6: "WAVESIM_ERR_MEMORY",
    7: "WAVESIM_ERR_INTERNAL",
}


class WavesimError(Exception):
    """A failed wavesim call: ``str(e)`` is wavesim's message, ``e.code`` the C return code."""

    def __init__(self, message, code=0):
        super().__init__(message)
        self.code = code

    @property
    def code_name(self):
        return ERROR_NAMES.get(self.code, "code %d" % self.code)


_lib = None
_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_library(path=None):
    """Loads libwavesim.so (once; later calls return the same library).

    Looks at ``path``, then ``$WAVESIM_LIB``, then target/release and target/debug of the
    repository this file belongs to (``cargo build --release`` builds target/release).
    """
    global _lib
    if _lib is not None and path is None:
        return _lib
    candidates = [path] if path else []
    if not candidates and os.environ.get("WAVESIM_LIB"):
        candidates = [os.environ["WAVESIM_LIB"]]
    if not candidates:
        candidates = [os.path.join(_REPO, "target", p, "libwavesim.so")
                      for p in ("release", "debug")]
    found = next((c for c in candidates if os.path.exists(c)), None)
    if found is None:
        raise WavesimError("libwavesim.so not found (tried %s); run `cargo build --release` "
                           "or set WAVESIM_LIB" % ", ".join(candidates))
    lib = ctypes.CDLL(found)
    _declare(lib)
    _lib = lib
    return lib


def _declare(lib):
    """The prototypes of include/wavesim.h."""
    c = ctypes
    u32, u64, i32, vp = c.c_uint32, c.c_uint64, c.c_int32, c.c_void_p
    lib.run_asm.argtypes = [vp, u32, u32, u32, u32, u32, u32, u32, vp, u32, u32]
    lib.run_asm.restype = i32
    lib.wavesim_last_error.argtypes = []
    lib.wavesim_last_error.restype = c.c_char_p
    lib.wavesim_device_create.argtypes = []
    lib.wavesim_device_create.restype = vp
    lib.wavesim_device_destroy.argtypes = [vp]
    lib.wavesim_device_destroy.restype = None
    lib.wavesim_set_threads.argtypes = [vp, u32]
    lib.wavesim_set_threads.restype = i32
    lib.wavesim_alloc.argtypes = [vp, u64, c.POINTER(u64)]
    lib.wavesim_alloc.restype = i32
    lib.wavesim_free.argtypes = [vp, u64]
    lib.wavesim_free.restype = i32
    lib.wavesim_write.argtypes = [vp, u64, vp, u64]
    lib.wavesim_write.restype = i32
    lib.wavesim_read.argtypes = [vp, u64, vp, u64]
    lib.wavesim_read.restype = i32
    lib.wavesim_load.argtypes = [vp, vp, u64, c.POINTER(vp)]
    lib.wavesim_load.restype = i32
    lib.wavesim_module_destroy.argtypes = [vp]
    lib.wavesim_module_destroy.restype = None
    lib.wavesim_dispatch.argtypes = [vp, vp, c.c_char_p, u32, c.POINTER(u32), c.POINTER(u32),
                                     vp, u64, c.POINTER(u32), u32]
    lib.wavesim_dispatch.restype = i32


def _check(lib, rc):
    """Raises the thread's last wavesim error when ``rc`` is not WAVESIM_OK."""
    if rc != 0:
        msg = lib.wavesim_last_error() or b""
        msg = msg.decode("utf-8", "replace") or "wavesim call failed"
        raise WavesimError(msg, rc)


def _dims(size, what):
    """An int or a 1..3-tuple of positive ints as a list of 1..3 entries."""
    dims = [size] if isinstance(size, int) else list(size)
    if not 1 <= len(dims) <= 3 or not all(isinstance(d, int) and 0 <= d < 2**32 for d in dims):
        raise WavesimError("%s must be an int or 1 to 3 ints in 0..2**32, not %r"
                           % (what, size), 1)
    return dims


def _host_pointer(obj, what):
    """(address, keep-alive) of a host buffer: bytes, bytearray, ctypes object, int, or None."""
    if obj is None:
        return None, None
    if isinstance(obj, int):
        return obj, None
    if isinstance(obj, bytes):
        buf = ctypes.create_string_buffer(obj, len(obj))
        return ctypes.addressof(buf), buf
    if isinstance(obj, (bytearray, memoryview)):
        buf = (ctypes.c_char * len(obj)).from_buffer(obj)  # no copy: writes are seen by obj
        return ctypes.addressof(buf), buf
    try:
        return ctypes.addressof(obj), obj  # any ctypes instance: array, structure, scalar
    except TypeError:
        pass
    raise WavesimError("%s must be bytes, bytearray, a ctypes object, an address or None, "
                       "not %s" % (what, type(obj).__name__), 1)


def run_asm(code, global_size, local_size, kernarg=None, rsrc2=0, scratch_size=0, lib=None):
    """Runs bare gfx11 instruction bytes in wave32 on HOST memory (the C ``run_asm``).

    ``global_size`` counts WORKGROUPS per dimension (as C ``run_asm`` and tinygrad do) and
    ``local_size`` work-items per workgroup; each is an int or a tuple of up to 3 ints.
    ``kernarg`` (bytes, bytearray, a ctypes object or a raw address) is what s[0:1] points to;
    every address the kernel uses is a host address, so the caller must keep the memory it
    stores to alive (e.g. a ctypes array whose address is in ``kernarg``). ``rsrc2`` is
    COMPUTE_PGM_RSRC2 (USER_SGPR_COUNT in bits 5:1 places the workgroup ids). Returns None or
    raises ``WavesimError``.
    """
    lib = lib or load_library()
    if not isinstance(code, (bytes, bytearray)) or not code:
        raise WavesimError("run_asm: code must be non-empty bytes", 1)
    g = _dims(global_size, "global_size") + [1] * 3
    loc = _dims(local_size, "local_size") + [1] * 3
    # The code runs in place (s_getpc_b64-relative data works), so hold its buffer until done.
    code_buf = ctypes.create_string_buffer(bytes(code), len(code))
    ka, keep = _host_pointer(kernarg, "kernarg")
    rc = lib.run_asm(code_buf, len(code), g[0], g[1], g[2], loc[0], loc[1], loc[2], ka,
                     rsrc2 & 0xFFFFFFFF, scratch_size)
    del keep
    _check(lib, rc)


# ---- Typed kernel arguments for Device.dispatch --------------------------------------------

class _Scalar:
    """A by-value kernel argument: struct format, little-endian, naturally aligned."""

    fmt = None

    def __init__(self, value):
        self.value = value

    def pack(self):
        try:
            return struct.pack("<" + self.fmt, self.value)
        except (struct.error, OverflowError, TypeError) as e:
            raise WavesimError("argument %r: %s" % (self, e), 1) from None

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self.value)


def _scalar(name, fmt):
    return type(name, (_Scalar,), {"fmt": fmt, "__doc__": "A %s kernel argument." % name})


u8, u16, u32, u64 = (_scalar(n, f) for n, f in
                     (("u8", "B"), ("u16", "H"), ("u32", "I"), ("u64", "Q")))
i8, i16, i32, i64 = (_scalar(n, f) for n, f in
                     (("i8", "b"), ("i16", "h"), ("i32", "i"), ("i64", "q")))
f16, f32, f64 = (_scalar(n, f) for n, f in (("f16", "e"), ("f32", "f"), ("f64", "d")))


class local:
    """``nbytes`` of dynamic LDS for an OpenCL ``__local`` pointer argument."""

    def __init__(self, nbytes):
        self.nbytes = nbytes

    def __repr__(self):
        return "local(%d)" % self.nbytes


class Buffer:
    """Device memory from ``Device.alloc``: ``addr`` is a device address, ``size`` bytes."""

    def __init__(self, device, addr, size):
        self.device, self.addr, self.size = device, addr, size

    def __repr__(self):
        return "Buffer(addr=0x%x, size=%d)" % (self.addr, self.size)


class Module:
    """A loaded code object (from ``Device.load``); freed with its device or by ``close()``."""

    def __init__(self, device, handle):
        self._device, self._handle = device, handle

    def close(self):
        if self._handle:
            self._device._lib.wavesim_module_destroy(self._handle)
            self._device._modules.discard(self)
            self._handle = None


def _layout(args):
    """Lays the explicit arguments out as clang does: in order, each at its natural alignment
    (buffers as 8-byte device addresses, ``__local`` slots as 4-byte LDS offsets that wavesim
    fills in). Returns (kernarg bytes, dynamic LDS sizes)."""
    seg, locals_ = bytearray(), []
    for a in args:
        if isinstance(a, Buffer):
            raw = struct.pack("<Q", a.addr)
        elif isinstance(a, _Scalar):
            raw = a.pack()
        elif isinstance(a, local):
            raw = b"\0" * 4
            locals_.append(a.nbytes)
        elif isinstance(a, (bool, int, float)):
            raise WavesimError("untyped argument %r: wrap it, e.g. wavesim.u32(%r) or "
                               "wavesim.f32(%r)" % (a, a, a), 1)
        else:
            raise WavesimError("unsupported argument %r (use a Buffer, wavesim.u32(...), "
                               "wavesim.f32(...), wavesim.local(n), ...)" % (a,), 1)
        seg += b"\0" * (-len(seg) % len(raw)) + raw
    return bytes(seg), locals_


class Device:
    """A sandboxed wavesim device: guest code sees only device addresses of its allocations.

    Use as a context manager or call ``close()``; modules it loaded are freed with it.
    """

    def __init__(self, threads=1, lib=None):
        self._lib = lib or load_library()
        self._handle = self._lib.wavesim_device_create()
        if not self._handle:
            raise WavesimError("wavesim_device_create failed", 7)
        self._modules = set()
        if threads != 1:
            self.set_threads(threads)

    def _dev(self):
        if not self._handle:
            raise WavesimError("device is closed", 1)
        return self._handle

    def close(self):
        """Frees the modules and the device (idempotent)."""
        for m in list(self._modules):
            m.close()
        if self._handle:
            self._lib.wavesim_device_destroy(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def set_threads(self, threads):
        """Host threads running workgroups in parallel (1 = deterministic order)."""
        _check(self._lib, self._lib.wavesim_set_threads(self._dev(), threads))

    def load(self, code_object):
        """Loads a code object (a path or the ELF bytes) and returns its ``Module``."""
        if isinstance(code_object, (str, os.PathLike)):
            with open(code_object, "rb") as f:
                code_object = f.read()
        data = bytes(code_object)
        handle = ctypes.c_void_p()
        _check(self._lib, self._lib.wavesim_load(self._dev(), data, len(data),
                                                 ctypes.byref(handle)))
        m = Module(self, handle.value)
        self._modules.add(m)
        return m

    def alloc(self, nbytes):
        """Allocates ``nbytes`` zeroed bytes of device memory."""
        addr = ctypes.c_uint64()
        _check(self._lib, self._lib.wavesim_alloc(self._dev(), nbytes, ctypes.byref(addr)))
        return Buffer(self, addr.value, nbytes)

    def alloc_with(self, data):
        """Allocates a buffer holding ``data``."""
        buf = self.alloc(len(data))
        self.upload(buf, data)
        return buf

    def free(self, buf):
        _check(self._lib, self._lib.wavesim_free(self._dev(), buf.addr))

    def upload(self, buf, data, offset=0):
        """Copies host bytes into ``buf`` at byte ``offset``."""
        data = bytes(data)
        _check(self._lib, self._lib.wavesim_write(self._dev(), buf.addr + offset, data,
                                                  len(data)))

    def download(self, buf, nbytes=None, offset=0):
        """The bytes of ``buf`` (``nbytes`` from ``offset``; default: the rest of the buffer)."""
        n = buf.size - offset if nbytes is None else nbytes
        out = ctypes.create_string_buffer(max(n, 1))
        _check(self._lib, self._lib.wavesim_read(self._dev(), buf.addr + offset, out, n))
        return out.raw[:n]

    def dispatch(self, module, kernel, global_size, local_size, args=(), kernarg=None,
                 local_sizes=()):
        """Runs ``kernel`` of ``module``. ``global_size`` counts WORK-ITEMS (as AQL and
        OpenCL do; a partial last workgroup is allowed), ``local_size`` work-items per
        workgroup: an int or up to 3 ints each.

        ``args`` are the explicit arguments in order: ``Buffer``s, typed scalars
        (``wavesim.u32(5)``, ``wavesim.f32(2.5)``, ...) and ``wavesim.local(n)``; they are laid
        out at natural alignment, as clang does for scalar and pointer arguments. For other
        layouts (vectors, structs) pass the raw segment as ``kernarg`` bytes instead, with
        ``local_sizes`` for the ``__local`` arguments. Hidden arguments are filled in.
        """
        if not isinstance(module, Module) or module._device is not self or not module._handle:
            raise WavesimError("dispatch needs a live Module loaded by this device", 1)
        g = _dims(global_size, "global_size")
        loc = _dims(local_size, "local_size")
        if len(g) != len(loc):
            raise WavesimError("global_size %r and local_size %r differ in dimensions"
                               % (global_size, local_size), 1)
        if kernarg is None:
            seg, locals_ = _layout(args)
        else:
            seg, locals_ = bytes(kernarg), list(local_sizes)
        n = len(g)
        grid = (ctypes.c_uint32 * n)(*g)
        lsz = (ctypes.c_uint32 * n)(*loc)
        lds = (ctypes.c_uint32 * max(len(locals_), 1))(*locals_)
        _check(self._lib, self._lib.wavesim_dispatch(
            self._dev(), module._handle, kernel.encode(), n, grid, lsz, seg or None, len(seg),
            lds, len(locals_)))
