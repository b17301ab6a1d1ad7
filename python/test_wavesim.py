"""Tests of the Python front end (python/wavesim.py) over libwavesim.so.

Run: python3 python/test_wavesim.py  (WAVESIM_LIB=path/to/libwavesim.so to pick the library;
crates/wavesim/tests/python.rs runs this with the library cargo built).
"""

import ctypes
import os
import struct
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import wavesim  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")

# Each work-item stores wg * 1000 + id to out[wg * 48 + id], where wg = workgroup id X (in s2:
# rsrc2 USER_SGPR_COUNT = 2 with the workgroup id X enabled), id = work-item id X (v0[9:0]),
# and `out` is the 64-bit host pointer at kernarg offset 0. From llvm-mc-19 -mcpu=gfx1100.
STORE_IDS = struct.pack("<14I", *[
    0xF4040100, 0xF8000000,  # s_load_b64 s[4:5], s[0:1], 0x0
    0x360200FF, 0x000003FF,  # v_and_b32_e32 v1, 0x3ff, v0
    0x9603B002,  # s_mul_i32 s3, s2, 48
    0x4A040203,  # v_add_nc_u32_e32 v2, s3, v1
    0x30040482,  # v_lshlrev_b32_e32 v2, 2, v2
    0xD60B0003, 0x0405FE02, 0x000003E8,  # v_mad_u32_u24 v3, s2, 0x3e8, v1
    0xBF89FC07,  # s_waitcnt lgkmcnt(0)
    0xDC6A0000, 0x00040302,  # global_store_b32 v2, v3, s[4:5]
    0xBFB00000,  # s_endpgm
])
RSRC2_WG_ID_X_IN_S2 = 2 << 1 | 1 << 7  # USER_SGPR_COUNT = 2, ENABLE_SGPR_WORKGROUP_ID_X

# 0xbfff0000 is no gfx11 instruction (SOPP opcode 127; llvm-mc-19 -disassemble: "invalid
# instruction encoding"), followed by s_endpgm (0xbfb00000).
INVALID = struct.pack("<2I", 0xBFFF0000, 0xBFB00000)


def read(name):
    with open(os.path.join(EXAMPLES, name), "rb") as f:
        return f.read()


class DeviceTest(unittest.TestCase):
    def test_readme_saxpy(self):
        with wavesim.Device() as dev:
            mod = dev.load(os.path.join(EXAMPLES, "saxpy.hsaco"))
            x = dev.alloc_with(read("x.bin"))
            y = dev.alloc_with(read("y.bin"))
            dev.dispatch(mod, "saxpy", 1024, 256,
                         [wavesim.u32(1000), wavesim.f32(2.5), x, y])
            self.assertEqual(dev.download(y), read("expected.bin"))
            self.assertEqual(dev.download(x), read("x.bin"))  # the input is not written

    def test_saxpy_from_bytes_parallel_and_partial(self):
        # n = 100 of 1000 floats, grid 160 = one full and one partial workgroup of 128, four
        # host threads: y[0..100) = 2.5 x + y, y[100..) untouched.
        x, y = read("x.bin"), read("y.bin")
        with wavesim.Device(threads=4) as dev:
            mod = dev.load(read("saxpy.hsaco"))
            bx, by = dev.alloc_with(x), dev.alloc_with(y)
            dev.dispatch(mod, "saxpy", (160,), (128,),
                         [wavesim.u32(100), wavesim.f32(2.5), bx, by])
            out = dev.download(by)
        self.assertEqual(out[:400], read("expected.bin")[:400])
        self.assertEqual(out[400:], y[400:])

    def test_raw_kernarg_matches_typed_args(self):
        with wavesim.Device() as dev:
            mod = dev.load(os.path.join(EXAMPLES, "saxpy.hsaco"))
            x = dev.alloc_with(read("x.bin"))
            y = dev.alloc_with(read("y.bin"))
            ka = struct.pack("<IfQQ", 1000, 2.5, x.addr, y.addr)
            dev.dispatch(mod, "saxpy", 1000, 200, kernarg=ka)
            self.assertEqual(dev.download(y), read("expected.bin"))

    def test_upload_download_offsets(self):
        with wavesim.Device() as dev:
            b = dev.alloc(16)
            self.assertEqual(dev.download(b), bytes(16))  # alloc is zeroed
            dev.upload(b, b"\x01\x02\x03", offset=5)
            self.assertEqual(dev.download(b, 4, offset=4), b"\x00\x01\x02\x03")
            dev.free(b)

    def test_argument_layout_is_natural_alignment(self):
        with wavesim.Device() as dev:
            b = dev.alloc(4)
            seg, lds = wavesim._layout([wavesim.u8(7), wavesim.f16(1.0), wavesim.local(256),
                                        wavesim.i64(-2), b, wavesim.f64(0.5)])
        # u8 at 0, f16 at 2 (0x3c00), local slot at 4, i64 at 8, buffer at 16, f64 at 24.
        want = (b"\x07\x00" + b"\x00\x3c" + bytes(4) + struct.pack("<q", -2)
                + struct.pack("<Q", b.addr) + struct.pack("<d", 0.5))
        self.assertEqual(seg, want)
        self.assertEqual(lds, [256])


class RunAsmTest(unittest.TestCase):
    def run_store_ids(self, out):
        """STORE_IDS over 3 workgroups of 48 work-items (wave32: the second wave of each
        workgroup has lanes 16..31 off) into the host buffer `out`."""
        cbuf = (ctypes.c_char * len(out)).from_buffer(out)
        kernarg = struct.pack("<Q", ctypes.addressof(cbuf))
        wavesim.run_asm(STORE_IDS, 3, 48, kernarg, RSRC2_WG_ID_X_IN_S2)
        del cbuf

    def test_stores_to_host_bytearray(self):
        sentinel = 0xDEADBEEF
        out = bytearray(struct.pack("<I", sentinel) * (3 * 48 + 20))
        self.run_store_ids(out)
        got = struct.unpack("<%dI" % (len(out) // 4), out)
        for i, v in enumerate(got):
            want = (i // 48) * 1000 + i % 48 if i < 3 * 48 else sentinel
            self.assertEqual(v, want, "element %d" % i)

    def test_ctypes_structure_kernarg_and_tuple_sizes(self):
        out = (ctypes.c_uint32 * 64)(*([7] * 64))

        class Args(ctypes.Structure):
            _fields_ = [("out", ctypes.c_void_p)]

        wavesim.run_asm(STORE_IDS, (1, 1, 1), (40, 1), Args(ctypes.addressof(out)),
                        rsrc2=RSRC2_WG_ID_X_IN_S2)
        self.assertEqual(list(out), list(range(40)) + [7] * 24)

    def test_invalid_instruction(self):
        with self.assertRaises(wavesim.WavesimError) as cm:
            wavesim.run_asm(INVALID, 1, 32, bytes(8))
        self.assertEqual(cm.exception.code, 2)
        self.assertEqual(cm.exception.code_name, "WAVESIM_ERR_EXEC")
        msg = str(cm.exception).lower()
        self.assertIn("0xbfff0000", msg)
        self.assertIn("pc", msg)
        # The thread's error state is reset: a good run after a failed one succeeds.
        out = bytearray(4 * 3 * 48)
        self.run_store_ids(out)
        self.assertEqual(struct.unpack_from("<I", out, 4 * 50)[0], 1002)

    def test_bad_arguments(self):
        with self.assertRaises(wavesim.WavesimError):
            wavesim.run_asm(b"", 1, 32)
        with self.assertRaises(wavesim.WavesimError) as cm:
            wavesim.run_asm(STORE_IDS, 1, 0, bytes(8))  # an empty workgroup
        self.assertEqual(cm.exception.code, 1)
        self.assertTrue(str(cm.exception))
        with self.assertRaises(wavesim.WavesimError):
            wavesim.run_asm(STORE_IDS, (1, 1, 1, 1), 32, bytes(8))


class ErrorTest(unittest.TestCase):
    def setUp(self):
        self.dev = wavesim.Device()
        self.mod = self.dev.load(os.path.join(EXAMPLES, "saxpy.hsaco"))
        self.x = self.dev.alloc_with(read("x.bin"))
        self.y = self.dev.alloc_with(read("y.bin"))
        self.args = [wavesim.u32(1000), wavesim.f32(2.5), self.x, self.y]

    def tearDown(self):
        self.dev.close()

    def test_unknown_kernel(self):
        with self.assertRaises(wavesim.WavesimError) as cm:
            self.dev.dispatch(self.mod, "saxpyy", 1024, 256, self.args)
        self.assertEqual(cm.exception.code, 1)
        # The message names the missing kernel and the ones that exist.
        self.assertIn("saxpyy", str(cm.exception))
        self.assertIn("saxpy", str(cm.exception).replace("saxpyy", ""))

    def test_missing_argument(self):
        with self.assertRaises(wavesim.WavesimError) as cm:
            self.dev.dispatch(self.mod, "saxpy", 1024, 256, self.args[:3])
        self.assertEqual(cm.exception.code, 1)
        self.assertIn("saxpy", str(cm.exception))

    def test_untyped_argument(self):
        with self.assertRaises(wavesim.WavesimError) as cm:
            self.dev.dispatch(self.mod, "saxpy", 1024, 256, [1000, 2.5, self.x, self.y])
        self.assertIn("wavesim.u32(1000)", str(cm.exception))

    def test_out_of_range_value(self):
        with self.assertRaises(wavesim.WavesimError):
            self.dev.dispatch(self.mod, "saxpy", 1024, 256,
                              [wavesim.u32(-1), wavesim.f32(2.5), self.x, self.y])

    def test_memory_fault_stays_in_the_sandbox(self):
        # y points 4000 bytes past x's start, i.e. just past its end: the first lane faults.
        bad = wavesim.Buffer(self.dev, self.x.addr + 4000, 4000)
        with self.assertRaises(wavesim.WavesimError) as cm:
            self.dev.dispatch(self.mod, "saxpy", 1024, 256,
                              [wavesim.u32(1000), wavesim.f32(2.5), self.x, bad])
        self.assertEqual(cm.exception.code_name, "WAVESIM_ERR_EXEC")
        msg = str(cm.exception).lower()
        self.assertIn("memory fault", msg)
        self.assertIn("address 0x%x" % (self.x.addr + 4000), msg)
        # The device stays usable.
        self.dev.dispatch(self.mod, "saxpy", 1024, 256, self.args)
        self.assertEqual(self.dev.download(self.y), read("expected.bin"))

    def test_malformed_code_object(self):
        with self.assertRaises(wavesim.WavesimError) as cm:
            self.dev.load(b"\x7fELF not really")
        self.assertEqual(cm.exception.code, 5)

    def test_download_out_of_bounds(self):
        with self.assertRaises(wavesim.WavesimError) as cm:
            self.dev.download(self.x, 8, offset=3996)
        self.assertEqual(cm.exception.code, 6)

    def test_closed_device(self):
        self.dev.close()
        self.dev.close()  # idempotent
        with self.assertRaises(wavesim.WavesimError):
            self.dev.alloc(4)
        with self.assertRaises(wavesim.WavesimError):
            self.dev.dispatch(self.mod, "saxpy", 1024, 256, self.args)


if __name__ == "__main__":
    unittest.main(verbosity=2)
