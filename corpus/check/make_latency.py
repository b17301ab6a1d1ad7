#!/usr/bin/env python3
"""Result latencies of LLVM's gfx11 scheduling model for every ALU instruction of the corpus.

Writes corpus/check/latency.txt: one line per distinct instruction text of the gfx1100 listings
(corpus/gfx1100-w*/*.objdump) that is a VALU or SALU instruction, `LATENCY<TAB>TEXT`, as
`llvm-mca-19 -mcpu=gfx1100 --instruction-info` reports it (the Latency column: the largest
write latency of the instruction's scheduling class). The test `latencies_match_llvm_mca`
(crates/wavesim/tests/inside.rs) checks `inside::hazard::latency` against it. Needs llvm-mca-19;
deterministic; rerun after corpus/build.sh:
    python3 corpus/check/make_latency.py
"""
import glob
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
LINE = re.compile(r"^\t(\S+)(.*?)\s*// ([0-9A-F]{12}): ")
SKIP = ("s_waitcnt", "s_delay_alu", "s_nop", "s_clause", "s_code_end", "s_sendmsg", "s_endpgm",
        "s_barrier", "s_branch", "s_cbranch", "s_setpc", "s_swappc", "s_getpc", "s_load",
        "s_buffer_load", "s_set_inst_prefetch", "s_dcache", "s_icache", "v_nop")


def texts(wave):
    seen = {}
    for path in sorted(glob.glob(os.path.join(CORPUS, f"gfx1100-{wave}", "*.objdump"))):
        for line in open(path):
            m = LINE.match(line)
            if not m:
                continue
            mnem, text = m.group(1), (m.group(1) + m.group(2)).strip()
            if not (mnem.startswith("v_") or mnem.startswith("s_")) or mnem.startswith(SKIP):
                continue
            if "<" in text:
                continue
            seen.setdefault(text, None)
    return list(seen)


def mca(lines, wave):
    # The w64 listings are disassembled in wave32 syntax too (vcc_lo, s0): parse both as wave32;
    # the latency does not depend on the wave size.
    attr = []
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        name = f.name
    try:
        out = subprocess.run(["llvm-mca-19", "-mtriple=amdgcn", "-mcpu=gfx1100", *attr,
                              "--instruction-info", "-skip-unsupported-instructions=parse-failure",
                              "-iterations=1", name], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(name)
    table = out.split("Instruction Info:", 1)[1]
    section = table.split("Instructions:\n", 1)[1].split("\n\n", 1)[0]
    return [int(r.split()[1]) for r in section.strip().splitlines() if r.strip()]


def main():
    out = []
    for wave in ("w32", "w64"):
        lines = texts(wave)
        lats = mca(lines, wave)
        if len(lats) != len(lines):
            raise SystemExit(f"{wave}: llvm-mca reported {len(lats)} rows for {len(lines)} lines")
        out += [f"{lat}\t{text}" for lat, text in zip(lats, lines)]
    uniq = sorted(set(out), key=lambda l: l.split("\t", 1)[1])
    open(os.path.join(HERE, "latency.txt"), "w").write(
        "# LATENCY<TAB>TEXT -- llvm-mca-19 -mcpu=gfx1100, made by make_latency.py\n" + "\n".join(uniq) + "\n")
    print(f"{len(uniq)} instruction texts")


if __name__ == "__main__":
    main()
