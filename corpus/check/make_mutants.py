#!/usr/bin/env python3
"""Mutated copies of corpus kernels for the checkers' tests (crates/wavesim/tests/inside.rs).

Each mutant replaces ONE instruction word of a real clang-19 code object with `s_nop 0`
(0xBF800000, same size, so nothing else moves):

  barrier/OBJECT.WAVE.ADDR.hsaco  one s_barrier removed, for every s_barrier of the objects whose
                                  corpus runs have more than one wave per workgroup (the race
                                  checker must find each one);
  waits.txt                       one line per s_waitcnt* / s_delay_alu of the objects listed in
                                  WAIT_OBJECTS, per s_waitcnt_depctr of every object with a
                                  corpus run, and per `s_nop 0` right before
                                  `s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)` in WAIT_OBJECTS:
                                  `KIND WAVE OBJECT ADDR WORD TEXT` with KIND wait, delay, depctr
                                  or nop; the test applies the patch in memory and expects the
                                  waits or hazards checker to find it. wait, delay and depctr
                                  replace the word by `s_nop 0`; nop removes the s_nop (the
                                  s_sendmsg and s_endpgm after it move up one word and
                                  `s_code_end` fills the freed word).

Instruction addresses come from the committed llvm-objdump listings (corpus/gfx1100-w*/*.objdump),
file offsets from the ELF section headers. Deterministic; rerun after corpus/build.sh:
    python3 corpus/check/make_mutants.py
"""
import os
import re
import struct
import sys
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
S_NOP_0 = 0xBF800000
BARRIER_OBJECTS = [
    "lds_reduce", "lds_transpose", "sgemm_tiled", "lds_atomics", "histogram",
    "local_arg_scan", "bitonic_sort", "workgroup_collectives",
]
WAIT_OBJECTS = [
    "saxpy", "lds_reduce", "sgemm_tiled", "histogram", "global_atomics", "int64_ops",
    "local_arg_scan", "lds_transpose", "bitonic_sort", "image_blur", "stencil3d", "crc32",
]
LINE = re.compile(r"^\t(\S+)(.*?)\s*// ([0-9A-F]{12}): ([0-9A-F]{8})")


def text_section(elf):
    """(sh_addr, sh_offset, sh_size) of .text in an ELF64 little-endian object."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    def sh(i):
        return struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
    names = sh(shstrndx)
    for i in range(shnum):
        s = sh(i)
        start = names[4] + s[0]
        name = elf[start:elf.index(b"\0", start)].decode()
        if name == ".text":
            return s[3], s[4], s[5]
    raise SystemExit("no .text")


def listing(wave, obj):
    with open(os.path.join(CORPUS, f"gfx1100-{wave}", f"{obj}.objdump")) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                yield m.group(1), (m.group(1) + m.group(2)).strip(), int(m.group(3), 16), int(m.group(4), 16)


def patched(wave, obj, addr, word):
    path = os.path.join(CORPUS, f"gfx1100-{wave}", f"{obj}.hsaco")
    elf = bytearray(open(path, "rb").read())
    vaddr, off, size = text_section(elf)
    at = off + addr - vaddr
    assert 0 <= addr - vaddr < size
    assert struct.unpack_from("<I", elf, at)[0] == word, (obj, hex(addr))
    struct.pack_into("<I", elf, at, S_NOP_0)
    return bytes(elf)


def waves_per_group(run, wave):
    items = 1
    for d in run["local"]:
        items *= d
    return -(-items // (32 if wave == "w32" else 64))


def main():
    runs = tomllib.load(open(os.path.join(CORPUS, "runs.toml"), "rb"))["run"]
    bdir = os.path.join(HERE, "barrier")
    os.makedirs(bdir, exist_ok=True)
    for f in os.listdir(bdir):
        os.remove(os.path.join(bdir, f))
    n_barrier = 0
    for obj in BARRIER_OBJECTS:
        for wave in ("w32", "w64"):
            if not any(r["object"] == obj and waves_per_group(r, wave) > 1 for r in runs):
                continue
            for mnem, _, addr, word in listing(wave, obj):
                if mnem == "s_barrier":
                    out = os.path.join(bdir, f"{obj}.{wave}.{addr:x}.hsaco")
                    open(out, "wb").write(patched(wave, obj, addr, word))
                    n_barrier += 1
    lines = ["# KIND WAVE OBJECT ADDR WORD TEXT -- made by make_mutants.py; each line is one mutant"]
    run_objects = sorted({r["object"] for r in runs})
    for obj in run_objects:
        for wave in ("w32", "w64"):
            if not os.path.exists(os.path.join(CORPUS, f"gfx1100-{wave}", f"{obj}.objdump")):
                continue
            insts = list(listing(wave, obj))
            for i, (mnem, text, addr, word) in enumerate(insts):
                kind = None
                nxt = insts[i + 1][1] if i + 1 < len(insts) else ""
                if mnem == "s_waitcnt_depctr":
                    kind = "depctr"
                elif obj not in WAIT_OBJECTS:
                    pass
                elif mnem.startswith("s_waitcnt"):
                    kind = "wait"
                elif mnem == "s_delay_alu":
                    kind = "delay"
                elif text == "s_nop 0" and nxt == "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)":
                    kind = "nop"
                if kind:
                    patched(wave, obj, addr, word)  # checks the word is where the listing says
                    lines.append(f"{kind} {wave} {obj} {addr:#x} {word:#010x} {text}")
    open(os.path.join(HERE, "waits.txt"), "w").write("\n".join(lines) + "\n")
    print(f"{n_barrier} barrier mutants, {len(lines) - 1} wait/delay mutants", file=sys.stderr)


if __name__ == "__main__":
    main()
