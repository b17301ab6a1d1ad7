#!/usr/bin/env python3
"""wavesim next to remu (tinygrad's RDNA3 emulator, Rust, once tinygrad's extra/remu) on the benchmark
kernels remu can run, both through their `run_asm` entry, on the same code, grid and inputs.

remu is not part of this repository: build its cdylib from a tinygrad checkout that still has it
(it left the tree in tinygrad commit 16f50a40a5, "remove REMU from tree"; use its parent):
    git -C TINYGRAD archive 16f50a40a5~1 extra/remu | tar -x -C /tmp/remu
    (cd /tmp/remu/extra/remu && cargo build --release)
and pass --remu /tmp/remu/extra/remu/target/release/libremu.so. wavesim's library comes from
`cargo build --release -p wavesim` (target/release/libwavesim.so).

The code objects are corpus/gfx1100-w32/OBJECT.hsaco (clang-19, corpus/build.sh). remu's ABI is
fixed: s[0:1] = kernarg pointer, the workgroup ids in s15 (1D) or s14-s15 (2D), v0 = packed
work-item ids, wave32. clang-19's wave32 kernels match it: kernarg pointer in s[0:1] and the ids
ending at s15 (their descriptors' USER_SGPR_COUNT is 15 for 1D and 14 for 2D grids), so both
run the kernel's own code; wavesim gets the descriptor's RSRC2 (and its LDS size).
Every kernel runs in a child process (remu panics, aborting the process, on what it does not
support); the outputs of both are compared byte for byte.

Usage: python3 tools/bench/remu_compare.py --remu PATH/libremu.so [--wavesim PATH] [--iters 3]
                                           [--kernels saxpy,...] [--engine auto]
Prints a Markdown table: best wall time of --iters dispatches (after a first one) for each side,
remu / wavesim, and whether the outputs agree.
"""
import argparse
import ctypes
import json
import math
import os
import random
import struct
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def f32s(n, seed):
    r = random.Random(seed)
    return struct.pack(f"<{n}f", *[r.randrange(-64, 64) / 8 for _ in range(n)])


def u32s(n, seed, mask=0xFFFFFFFF):
    r = random.Random(seed)
    return struct.pack(f"<{n}I", *[r.getrandbits(32) & mask for _ in range(n)])


def cases():
    """(name, object, kernel, global, local, args): args are ("in", bytes), ("out", size) or
    (struct format, value). Sizes are the PoCL comparison's divided by 16 to 64: remu is slow."""
    n_saxpy, n_hash, rounds, w, h, m, n_red, n_hist, n_f64 = 1 << 16, 2048, 64, 128, 96, 64, 1 << 15, 1 << 16, 1 << 13
    hist = lambda: [("in", bytes(b & 0xFF for b in u32s(n_hist, 6))[:n_hist]), ("out", 1024), ("I", n_hist)]
    return [
        ("saxpy", "saxpy", "saxpy", [n_saxpy], [256],
         lambda: [("I", n_saxpy), ("f", 2.5), ("in", f32s(n_saxpy, 1)), ("in", f32s(n_saxpy, 11))]),
        ("hash_mix", "hash_mix", "hash_mix", [n_hash], [128],
         lambda: [("in", u32s(n_hash, 2)), ("out", 8 * n_hash), ("out", 8 * n_hash), ("I", rounds), ("I", n_hash)]),
        ("mandelbrot", "mandelbrot", "mandelbrot", [w, h], [16, 16],
         lambda: [("out", 4 * w * h), ("I", w), ("I", h), ("f", -2.25), ("f", -1.125), ("f", 3.0 / w), ("I", 64)]),
        ("sgemm_naive", "sgemm_naive", "sgemm_naive", [m, m], [16, 16],
         lambda: [("in", f32s(m * m, 3)), ("in", f32s(m * m, 31)), ("in", f32s(m * m, 32)),
                  ("I", m), ("I", m), ("I", m), ("f", 1.5), ("f", -0.5)]),
        ("sgemm_tiled", "sgemm_tiled", "sgemm_tiled", [m, m], [16, 16],
         lambda: [("in", f32s(m * m, 4)), ("in", f32s(m * m, 41)), ("out", 4 * m * m), ("I", m), ("I", m), ("I", m)]),
        ("lds_reduce", "lds_reduce", "lds_reduce", [n_red], [128],
         lambda: [("in", u32s(n_red, 5)), ("out", 4 * n_red // 128), ("out", 4 * n_red // 128), ("I", n_red)]),
        ("histogram_global", "histogram", "histogram_global", [n_hist], [256], hist),
        ("histogram_local", "histogram", "histogram_local", [64 * 256], [256], hist),
        ("f64_horner", "f64_horner", "f64_horner", [n_f64], [128],
         lambda: [("in", struct.pack(f"<{n_f64}d", *[random.Random(7).uniform(-2, 2) for _ in range(n_f64)])),
                  ("out", 16 * n_f64), ("I", n_f64)]),
    ]


def elf_kernel(path, kernel):
    """The kernel's code (from its entry to the end of .text) and its descriptor's RSRC2."""
    b = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx]
    name = lambda off, tab: b[tab + off:b.index(b"\0", tab + off)].decode()
    by = {name(s[0], names[4]): s for s in secs}
    text, symtab = by[".text"], by[".symtab"]
    strtab = secs[symtab[6]]
    syms = {}
    for i in range(symtab[5] // 24):
        st_name, _, _, _, value, size = struct.unpack_from("<IBBHQQ", b, symtab[4] + 24 * i)
        syms[name(st_name, strtab[4])] = value

    def file_off(addr):  # section holding the virtual address
        for s in secs:
            if s[3] <= addr < s[3] + s[5] and s[1] != 8:
                return s[4] + addr - s[3]
        raise KeyError(hex(addr))
    entry = syms[kernel]
    code = b[file_off(entry):text[4] + text[5]]
    kd = file_off(syms[kernel + ".kd"])
    rsrc2, = struct.unpack_from("<I", b, kd + 52)
    lds, = struct.unpack_from("<I", b, kd)
    return code, rsrc2 | (lds + 511) // 512 << 15


def kernarg_layout(notes, kernel):
    """[(offset, size, value_kind)] of `kernel`'s arguments, from the committed llvm-readelf notes."""
    out, args, cur, name = {}, [], None, None
    for line in open(notes).read().split("amdhsa.kernels:")[1].splitlines():
        t = line.strip()
        if line.startswith("  - .args:"):
            if name:
                out[name] = args
            args, name = [], None
        elif t.startswith("- .") and line.startswith("      - "):
            cur = {}
            args.append(cur)
            t = t[2:]
        if line.startswith("    .name:"):
            name = t.split(":", 1)[1].strip()
        elif cur is not None and line.startswith("        ") or line.startswith("      - "):
            k, _, v = t.partition(":")
            if k in (".offset", ".size", ".value_kind"):
                cur[k] = v.strip()
        if t.startswith("amdhsa.target") or t.startswith("amdhsa.version"):
            break
    if name:
        out[name] = args
    return [(int(a[".offset"]), int(a[".size"]), a[".value_kind"]) for a in out[kernel]]


def child(lib_path, which, case_name, iters, engine):
    c = [c for c in cases() if c[0] == case_name][0]
    name, obj, kernel, glob, local, make = c
    code, rsrc2 = elf_kernel(os.path.join(ROOT, "corpus", "gfx1100-w32", obj + ".hsaco"), kernel)
    layout = kernarg_layout(os.path.join(ROOT, "corpus", "gfx1100-w32", obj + ".notes"), kernel)
    groups = [g // l for g, l in zip(glob, local)] + [1] * (3 - len(glob))
    lsz = local + [1] * (3 - len(local))
    code_buf = ctypes.create_string_buffer(code, len(code))
    args = make()
    bufs = []
    ka = bytearray(max(o + s for o, s, _ in layout) + 8)
    explicit = [a for a in layout if not a[2].startswith("hidden")]
    for (off, size, kind), a in zip(explicit, args):
        if a[0] in ("in", "out"):
            data = a[1] if a[0] == "in" else bytes(a[1])
            buf = ctypes.create_string_buffer(data, len(data))
            bufs.append(buf)
            struct.pack_into("<Q", ka, off, ctypes.addressof(buf))
        else:
            struct.pack_into("<" + a[0], ka, off, a[1])
    hidden = {"hidden_block_count_x": groups[0], "hidden_block_count_y": groups[1], "hidden_block_count_z": groups[2],
              "hidden_group_size_x": lsz[0], "hidden_group_size_y": lsz[1], "hidden_group_size_z": lsz[2],
              "hidden_grid_dims": len(glob)}
    for off, size, kind in layout:
        if kind in hidden:
            struct.pack_into({2: "<H", 4: "<I", 8: "<Q"}[size], ka, off, hidden[kind])
    ka_buf = ctypes.create_string_buffer(bytes(ka), len(ka))
    inputs = [bytes(b) for b in bufs]
    lib = ctypes.CDLL(lib_path)
    if which == "remu":
        run = lambda: lib.run_asm(code_buf, ctypes.c_uint32(len(code)), *map(ctypes.c_uint32, groups + lsz),
                                  ctypes.c_void_p(ctypes.addressof(ka_buf)))
    else:
        eng = {"interp": 0, "jit": 1, "auto": 2}[engine]
        lib.wavesim_set_default_engine(ctypes.c_int32(eng))
        lib.wavesim_set_default_threads(ctypes.c_uint32(1))
        run = lambda: lib.run_asm(code_buf, ctypes.c_uint32(len(code)), *map(ctypes.c_uint32, groups + lsz),
                                  ctypes.c_void_p(ctypes.addressof(ka_buf)), ctypes.c_uint32(rsrc2), ctypes.c_uint32(0))
    best, first = math.inf, None
    for i in range(iters + 1):
        for b, d in zip(bufs, inputs):  # every dispatch starts from the same inputs
            ctypes.memmove(b, d, len(d))
        t0 = time.perf_counter()
        err = run()
        dt = time.perf_counter() - t0
        if err != 0:
            msg = f"run_asm returned {err}"
            if which == "wavesim":
                lib.wavesim_last_error.restype = ctypes.c_char_p
                msg += ": " + (lib.wavesim_last_error() or b"").decode()
            print(json.dumps({"error": msg}))
            return
        if i == 0:
            first = dt
        else:
            best = min(best, dt)
    digest = __import__("hashlib").sha256(b"".join(bytes(b) for b in bufs)).hexdigest()
    print(json.dumps({"ms": best * 1e3, "cold_ms": first * 1e3, "out": digest}))


def measure(lib, which, name, iters, engine):
    p = subprocess.run([sys.executable, __file__, "--child", which, "--lib", lib, "--kernels", name,
                        "--iters", str(iters), "--engine", engine], capture_output=True, text=True)
    lines = p.stdout.strip().splitlines()
    if p.returncode != 0 or not lines:
        err = p.stderr.strip().splitlines() or lines or ["exit %d" % p.returncode]
        # A Rust panic: "thread ... panicked at FILE:LINE:COL:" then the message.
        at = next((i for i, l in enumerate(err) if "panicked at" in l), None)
        msg = " ".join(l.strip() for l in err[at + 1:at + 3] if not l.startswith("note:")) if at is not None else err[-1]
        return {"error": msg.strip()[:100]}
    return json.loads(lines[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--remu", help="remu's libremu.so")
    ap.add_argument("--wavesim", default=os.path.join(ROOT, "target", "release", "libwavesim.so"))
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--engine", default="auto", help="wavesim's engine: interp, jit or auto")
    ap.add_argument("--kernels", default="")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--lib", help=argparse.SUPPRESS)
    a = ap.parse_args()
    names = [k for k in a.kernels.split(",") if k] or [c[0] for c in cases()]
    if a.child:
        return child(a.lib, a.child, names[0], a.iters, a.engine)
    if not a.remu:
        sys.exit("--remu PATH/libremu.so is needed (see the module doc for how to build it)")
    print(f"Best wall ms of {a.iters} run_asm calls after a first one, one thread; wavesim engine {a.engine}.\n")
    print("| kernel | remu ms | wavesim ms | remu / wavesim | wavesim cold ms | outputs |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    ratios = []
    for n in names:
        r = measure(a.remu, "remu", n, a.iters, a.engine)
        w = measure(a.wavesim, "wavesim", n, a.iters, a.engine)
        if "error" in w:
            print(f"| {n} | - | - | - | - | wavesim: {w['error']} |")
            continue
        if "error" in r:
            print(f"| {n} | - | {w['ms']:.2f} | - | {w['cold_ms']:.2f} | remu cannot run it: {r['error']} |")
            continue
        ratio = r["ms"] / w["ms"]
        ratios.append(ratio)
        same = "identical" if r["out"] == w["out"] else "DIFFER"
        print(f"| {n} | {r['ms']:.2f} | {w['ms']:.2f} | {ratio:.1f} | {w['cold_ms']:.2f} | {same} |")
    if ratios:
        g = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"| **geomean** | | | **{g:.1f}** | | |")


if __name__ == "__main__":
    main()
