"""Bad input from Python (issue 24): an error naming the argument before anything runs, or the
right result; never a lost result, an abort or a silently untouched array."""

import os

import numpy as np
import pytest

import wavesim

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SAXPY = os.path.join(ROOT, "corpus", "gfx1100-w32", "saxpy.hsaco")


def saxpy(y, n=None, threads=None):
    """y = 2.5 * x + y over y's elements, x = 0, 1, 2, ... in y's shape; returns the expected y."""
    dev = wavesim.Device(threads)
    mod = dev.load(SAXPY)
    n = y.size if n is None else n
    x = np.arange(y.size, dtype=np.float32).reshape(y.shape)
    # The kernel sees the elements in C order (what the buffer holds); so does the expectation.
    want = np.float32(2.5) * x + y
    dev.dispatch(mod, "saxpy", 1024, 256, n, 2.5, x, y)
    return want


def test_fortran_order_and_transposed_outputs_are_written_back():
    for y in [
        np.asfortranarray(np.ones((8, 16), np.float32)),
        np.ones((16, 8), np.float32).T,
    ]:
        before = y.copy()
        want = saxpy(y)
        assert not np.array_equal(y, before)
        assert np.array_equal(y, want)


def test_a_strided_view_gets_its_results():
    big = np.ones(512, np.float32)
    view = big[::2]
    want = saxpy(view)
    assert np.array_equal(view, want)
    # The elements between are untouched.
    assert np.array_equal(big[1::2], np.ones(256, np.float32))


def test_read_only_outputs_are_refused_before_running():
    y = np.ones(64, np.float32)
    y.flags.writeable = False
    with pytest.raises(wavesim.WavesimError, match="read-only"):
        saxpy(y)


def test_negative_or_huge_sizes_name_the_argument():
    dev = wavesim.Device()
    mod = dev.load(SAXPY)
    x = np.zeros(4, np.float32)
    y = np.zeros(4, np.float32)
    with pytest.raises(wavesim.WavesimError, match=r"grid\[0\] = -4"):
        dev.dispatch(mod, "saxpy", -4, 4, 4, 2.5, x, y)
    with pytest.raises(wavesim.WavesimError, match=r"block\[1\] = 4294967296"):
        dev.dispatch(mod, "saxpy", [4, 1], [4, 2**32], 4, 2.5, x, y)
    with pytest.raises(wavesim.WavesimError, match="dynamic_shared = -1"):
        dev.dispatch(mod, "saxpy", 4, 4, 4, 2.5, x, y, dynamic_shared=-1)
    with pytest.raises(wavesim.WavesimError, match="scratch_size = -1"):
        wavesim.run_asm(b"\x00\x00\xb0\xbf", 1, 32, scratch_size=-1)


def test_grid_overflow_is_an_error_naming_the_dimension():
    dev = wavesim.Device()
    mod = dev.load(SAXPY)
    x = np.zeros(4, np.float32)
    with pytest.raises(wavesim.WavesimError, match=r"dimension 2 \(z\)"):
        dev.dispatch(mod, "saxpy", [2**31, 2**31, 4], [1, 1, 1], 4, 2.5, x, x.copy())
    with pytest.raises(wavesim.WavesimError, match=r"dimension 2 \(z\)"):
        wavesim.run_asm(b"\x00\x00\xb0\xbf", [2**31, 2**31, 4], [1, 1, 1])


def test_run_asm_scratch_and_rsrc2_refusals():
    code = b"\x00\x00\xb0\xbf"  # s_endpgm
    with pytest.raises(wavesim.WavesimError, match="scratch_size is 4294967292 bytes"):
        wavesim.run_asm(code, 1, 32, rsrc2=1, scratch_size=0xFFFFFFFC)
    with pytest.raises(wavesim.WavesimError, match="TRAP_PRESENT"):
        wavesim.run_asm(code, 1, 32, rsrc2=1 << 6)


def test_many_threads_are_clamped():
    y = np.ones(1000, np.float32)
    want = saxpy(y, threads=100000)
    assert np.array_equal(y, want)


def test_debug_read_mem_of_a_huge_size_is_an_error():
    dev = wavesim.Device()
    mod = dev.load(SAXPY)
    x = np.arange(64, dtype=np.float32)
    y = np.ones(64, dtype=np.float32)
    s = dev.debug(mod, "saxpy", 64, 32, 64, 2.0, x, y)
    with pytest.raises(wavesim.WavesimError, match="read_mem n is 1099511627776 bytes; at most"):
        s.read_mem(s.buffers[2], 2**40)
    assert len(s.read_mem(s.buffers[2], 16)) == 16


def _kernel_descriptor_offset(elf, symbol):
    """File offset of an ELF64 symbol's bytes (here a kernel descriptor, `NAME.kd`)."""
    import struct

    shoff = struct.unpack_from("<Q", elf, 0x28)[0]
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    # sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size, sh_link, sh_info, sh_addralign, sh_entsize
    secs = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    for sec in secs:
        if sec[1] != 2:  # SHT_SYMTAB
            continue
        strtab = secs[sec[6]][4]
        for j in range(sec[5] // sec[9]):
            name, _, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", elf, sec[4] + j * sec[9])
            end = elf.index(b"\0", strtab + name)
            if elf[strtab + name : end] == symbol:
                return value - secs[shndx][3] + secs[shndx][4]
    raise AssertionError(f"no symbol {symbol!r}")


def test_a_huge_descriptor_kernarg_size_is_an_error_before_allocation():
    # The kernel descriptor's KERNARG_SIZE (bytes 8-11) says 0xFFFFFFFF: refused with the limit,
    # not a 4 GiB allocation per dispatch.
    elf = bytearray(open(SAXPY, "rb").read())
    at = _kernel_descriptor_offset(bytes(elf), b"saxpy.kd")
    elf[at + 8 : at + 12] = (0xFFFFFFFF).to_bytes(4, "little")
    dev = wavesim.Device()
    mod = dev.load(bytes(elf))
    x = np.zeros(4, np.float32)
    y = np.zeros(4, np.float32)
    with pytest.raises(wavesim.WavesimError, match="at most 65536 bytes"):
        dev.dispatch(mod, "saxpy", 4, 4, 4, 2.5, x, y)
