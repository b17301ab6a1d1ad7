#!/usr/bin/env python3
"""wavesim next to PoCL, in one run, on the benchmark kernels of crates/wavesim/benches/kernels.rs.

For every benchmark case the very same OpenCL C source (corpus/cl/OBJECT.cl, which clang-19 compiled
into the gfx1100 code object wavesim runs) is built by PoCL for this CPU and run on the same grid,
workgroup and argument values. Both sides are timed the same way: best wall time of one dispatch
(enqueue to finish for PoCL, `Device::dispatch` for wavesim) over --iters runs after a warm-up run
(PoCL compiles its kernel in the warm-up; wavesim's bench checks its result against a Rust model
there). Two thread counts: 1 against PoCL with one compute unit, and all cores against PoCL with
all of them.

Two float modes: "ieee" (f32 denormals kept, as the code objects were compiled) and "ftz" (PoCL
builds with -cl-denorms-are-zero; wavesim runs the same code objects with FLOAT_DENORM_MODE_32 = 0,
the NAME_ftz cases of kernels.rs, for the f32 kernels; the integer and f64 kernels do not depend on
it and keep their rows). Every engine runs through `Device::dispatch`; "raw-ENGINE" runs through
the raw ABI (`wavesim::dispatch_raw`, WAVESIM_BENCH_RAW=1), as tinygrad's drop-in does. "cold" is
the first dispatch of the process (what the engine compiles included), "warm" the best of --iters.

Usage:  python3 tools/bench/pocl_compare.py [--iters 5] [--engines interp,jit,auto,raw-auto]
                                            [--modes ieee,ftz] [--out FILE.md]
                                            [--kernels saxpy,...] [--profile release] [--cpu]
Needs:  cargo, python3 with numpy and pyopencl, Debian's pocl-opencl-icd.
Prints a Markdown table per float mode and thread count with the ratio wavesim/PoCL per kernel and
the geomean.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# The cases of benches/kernels.rs: (name, source object, kernel, global, local, argument builder).
# Argument values and sizes mirror kernels.rs (the full, not the WAVESIM_BENCH_QUICK, sizes), so
# both sides do the same work (loop trip counts depend on them).


def cases(np):
    def f32(n, seed):
        return (np.random.default_rng(seed).integers(-64, 64, n) / 8).astype(np.float32)

    def u32(n, seed):
        return np.random.default_rng(seed).integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)

    U, F = np.uint32, np.float32
    n_saxpy = 1 << 22
    n_hash, rounds = 16384, 256
    w, h = 512, 384
    m = 192
    mt = 256
    n_red = 1 << 20
    n_hist = 1 << 22
    n_f64 = 1 << 19
    mandel = lambda: [("out", 4 * w * h), U(w), U(h), F(-2.25), F(-1.125), F(3.0 / w), U(256)]
    hashmix = lambda: [("in", u32(n_hash, 2)), ("out", 8 * n_hash), ("out", 8 * n_hash), U(rounds), U(n_hash)]
    hist = lambda: [("in", (u32(n_hist, 6) & 0xFF).astype(np.uint8)), ("out", 1024), U(n_hist)]
    return [
        ("hash_mix", "hash_mix", "hash_mix", [n_hash], [128], hashmix),
        ("hash_mix_w64", "hash_mix", "hash_mix", [n_hash], [128], hashmix),
        ("mandelbrot", "mandelbrot", "mandelbrot", [w, h], [16, 16], mandel),
        ("mandelbrot_w64", "mandelbrot", "mandelbrot", [w, h], [16, 16], mandel),
        ("saxpy", "saxpy", "saxpy", [n_saxpy], [256],
         lambda: [U(n_saxpy), F(2.5), ("in", f32(n_saxpy, 1)), ("in", f32(n_saxpy, 11))]),
        ("sgemm_naive", "sgemm_naive", "sgemm_naive", [m, m], [16, 16],
         lambda: [("in", f32(m * m, 3)), ("in", f32(m * m, 31)), ("in", f32(m * m, 32)),
                  U(m), U(m), U(m), F(1.5), F(-0.5)]),
        ("sgemm_tiled", "sgemm_tiled", "sgemm_tiled", [mt, mt], [16, 16],
         lambda: [("in", f32(mt * mt, 4)), ("in", f32(mt * mt, 41)), ("out", 4 * mt * mt),
                  U(mt), U(mt), U(mt)]),
        ("lds_reduce", "lds_reduce", "lds_reduce", [n_red], [128],
         lambda: [("in", u32(n_red, 5)), ("out", 4 * n_red // 128), ("out", 4 * n_red // 128), U(n_red)]),
        ("histogram_global", "histogram", "histogram_global", [n_hist], [256], hist),
        ("histogram_local", "histogram", "histogram_local", [64 * 256], [256], hist),
        ("f64_horner", "f64_horner", "f64_horner", [n_f64], [128],
         lambda: [("in", np.random.default_rng(7).uniform(-2, 2, n_f64)), ("out", 16 * n_f64), U(n_f64)]),
    ]


def pocl_worker(iters, ftz, kernels):
    """Runs in a child whose environment already limits PoCL's compute units; prints JSON."""
    import numpy as np
    import pyopencl as cl

    plat = [p for p in cl.get_platforms() if "Portable" in p.name or "PoCL" in p.version]
    if not plat:
        sys.exit("PoCL is not installed (apt-get install pocl-opencl-icd)")
    dev = plat[0].get_devices()[0]
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    programs = {}
    out = {"device": dev.name, "compute_units": dev.max_compute_units, "ms": {}}
    mf = cl.mem_flags
    for name, obj, kernel, glob, local, make in cases(np):
        if kernels and name not in kernels:
            continue
        if obj not in programs:
            src = open(os.path.join(ROOT, "corpus", "cl", obj + ".cl")).read()
            programs[obj] = cl.Program(ctx, src).build(options=["-cl-denorms-are-zero"] if ftz else [])
        k = cl.Kernel(programs[obj], kernel)
        args = []
        for a in make():
            if isinstance(a, tuple) and a[0] == "in":
                args.append(cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a[1]))
            elif isinstance(a, tuple):
                args.append(cl.Buffer(ctx, mf.READ_WRITE, size=a[1]))
            else:
                args.append(a)
        best = math.inf
        for i in range(iters + 1):
            t0 = time.perf_counter()
            k.set_args(*args)
            cl.enqueue_nd_range_kernel(q, k, glob, local)
            q.finish()
            if i:  # the first run builds PoCL's work-group function
                best = min(best, time.perf_counter() - t0)
        out["ms"][name] = best * 1e3
    print(json.dumps(out))


def bench_binary(profile):
    msgs = subprocess.run(
        ["cargo", "bench", "-p", "wavesim", "--bench", "kernels", "--no-run", "--message-format=json"]
        + (["--profile", profile] if profile else []),
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for line in msgs.splitlines():
        m = json.loads(line)
        if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "kernels":
            return m["executable"]
    sys.exit("cargo did not report the kernels bench executable")


def wavesim_ms(exe, iters, threads, engine, kernels):
    env = dict(os.environ, WAVESIM_BENCH_ITERS=str(iters), WAVESIM_BENCH_THREADS=str(threads))
    if engine.startswith("raw-"):
        env["WAVESIM_BENCH_RAW"] = "1"
        engine = engine[4:]
    if engine:
        env["WAVESIM_ENGINE"] = engine
    # The bench's name filter (substrings of "NAME/threads=T"): NAME/ for the kernels asked for
    # and their _ftz variants, else "threads" (every case). ("threads" with names would select
    # every case again: a filter matches when any of its substrings does.)
    names = [f"{k}{suffix}/" for k in kernels for suffix in ("", "_ftz")] or ["threads"]
    txt = subprocess.run([exe, "--bench"] + names, cwd=os.path.join(ROOT, "crates", "wavesim"),
                         env=env, check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in txt.splitlines():
        f = line.split()
        if len(f) >= 7 and f[0] != "kernel":
            rows[f[0]] = {"wall": float(f[3]), "cpu": float(f[4]), "wave": int(f[1]), "lane": int(f[2]),
                          "jit_ms": float(f[7]) if len(f) >= 9 else 0.0,
                          "cold": float(f[9]) if len(f) >= 10 else float("nan")}
    return rows


def pocl_ms(iters, threads, ftz, kernels):
    # PoCL 3.1 reports all cores whatever POCL_CPU_MAX_CU_NUM says, so the CPU set is limited too.
    env = dict(os.environ, POCL_CPU_MAX_CU_NUM=str(threads), POCL_MAX_PTHREAD_COUNT=str(threads))
    cpus = ",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:threads])
    cmd = ["taskset", "-c", cpus, sys.executable, __file__, "--pocl-worker", "--iters", str(iters)]
    cmd += ["--kernels", ",".join(kernels)] if kernels else []
    txt = subprocess.run(cmd + (["--ftz"] if ftz else []),
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(txt.strip().splitlines()[-1])


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--engines", default="", help="comma-separated WAVESIM_ENGINE values (default: the default engine)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="the 'all threads' count")
    ap.add_argument("--out", help="also write the Markdown to this file")
    ap.add_argument("--modes", default="ieee,ftz", help="float modes: ieee (denormals kept), ftz (flushed)")
    ap.add_argument("--kernels", default="", help="comma-separated case names (default: all), e.g. saxpy,sgemm_naive "
                    "(the _ftz variants come with them)")
    ap.add_argument("--profile", default="", help="cargo profile of the bench binary (default: bench; "
                    "'release' reuses the test builds' crates)")
    ap.add_argument("--cpu", action="store_true", help="wavesim's column is the bench's CPU time of its thread "
                    "(one thread; for a loaded machine) instead of wall time")
    ap.add_argument("--pocl-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--ftz", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    kernels = [k for k in a.kernels.split(",") if k]
    if a.pocl_worker:
        return pocl_worker(a.iters, a.ftz, kernels)
    exe = bench_binary(a.profile)
    engines = [e for e in a.engines.split(",") if e] or [""]
    lines = [f"Best wall ms of {a.iters} dispatches after a warm-up; ratio = wavesim / PoCL "
             f"(lower is better). wavesim bench binary: {os.path.relpath(exe, ROOT)}.", ""]
    modes = [m for m in a.modes.split(",") if m]
    for t in sorted({1, max(1, a.threads)}):
        ws = {e: wavesim_ms(exe, a.iters, t, e, kernels) for e in engines}
        for mode in modes:
            ftz = mode == "ftz"
            pocl = pocl_ms(a.iters, t, ftz, kernels)
            head = "| kernel | lane-instr | JIT compile ms | PoCL ms |" + "".join(
                f" wavesim{'-' + e if e else ''} ms | ratio | cold ratio |" for e in engines)
            lines += [f"### {mode}, {t} thread(s) (PoCL: {pocl['device']}, {t} compute unit(s)"
                      f"{', -cl-denorms-are-zero' if ftz else ''})", "", head,
                      "| --- | ---: | ---: | ---: |" + " ---: | ---: | ---: |" * len(engines)]
            ratios = {e: [] for e in engines}
            colds = {e: [] for e in engines}
            for name, p in pocl["ms"].items():
                # The flushed variant of a case where kernels.rs has one.
                def row_of(e):
                    r = ws[e].get(name + "_ftz") if ftz else None
                    return r or ws[e].get(name)
                first = row_of(engines[0]) or {}
                jit = max(((row_of(e) or {}).get("jit_ms", 0.0) for e in engines), default=0.0)
                label = name + ("_ftz" if ftz and ws[engines[0]].get(name + "_ftz") else "")
                row = f"| {label} | {first.get('lane', 0):,} | {jit:.1f} | {p:.1f} |"
                for e in engines:
                    w = row_of(e)
                    if w is None:
                        row += " - | - | - |"
                        continue
                    ms = w["cpu"] if a.cpu and t == 1 else w["wall"]
                    r, c = ms / p, w["cold"] / p
                    ratios[e].append(r)
                    colds[e].append(c)
                    row += f" {ms:.1f} | {r:.1f} | {c:.1f} |"
                lines.append(row)
            lines.append("| **geomean** | | | |" + "".join(
                f" | **{geomean(ratios[e]):.1f}** | **{geomean(colds[e]):.1f}** |" for e in engines))
            lines.append("")
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
