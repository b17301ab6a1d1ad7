#!/bin/sh
# Regenerates the Mesa ACO pixel shaders of corpus/gfx/aco: each NAME.frag is linked with the
# vertex shader its "// vs:" line names, compiled to SPIR-V by glslangValidator and into a
# Vulkan graphics pipeline by Mesa's RADV (acodump.c), on RADV's null device for gfx1100
# (RADV_FORCE_FAMILY=gfx1100, no GPU needed), once in wave64 (RADV's default for pixel shaders)
# and once in wave32 (RADV_PERFTEST=pswave32). RADV_DEBUG=shaders makes RADV print ACO's
# listing with each instruction's encoding; from it this script writes
#   wNN/NAME.bin   the pixel shader's machine code (the encodings, little-endian words),
#   wNN/NAME.txt   ACO's argument list (p_startpgm: which SGPRs and VGPRs the shader reads)
#                  and its disassembly, as RADV printed them,
#   wNN/NAME.dis   llvm-mc-19's disassembly of the bytes (the golden for wavesim's disassembler).
# Needs (Debian 12): mesa-vulkan-drivers (RADV, Mesa 22.3), libvulkan-dev, glslang-tools, gcc,
# python3, llvm-19. Usage: corpus/gfx/aco/build.sh
set -eu
cd "$(dirname "$0")"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O1 -Wall acodump.c -o "$TMP/acodump" -lvulkan
for v in *.vert; do
  glslangValidator -V "$v" -o "$TMP/$(basename "$v" .vert).vs.spv" > /dev/null
done
for f in *.frag; do
  n=$(basename "$f" .frag)
  vs=$(sed -n 's|^// vs: \([a-z0-9_]*\)\.vert.*|\1|p' "$f")
  fmt=$(sed -n 's|.*format: \([a-z0-9]*\).*|\1|p' "$f")
  glslangValidator -V "$f" -o "$TMP/$n.spv" > /dev/null
  for w in 32 64; do
    mkdir -p "w$w"
    if [ "$w" = 32 ]; then perf=pswave32; else perf=; fi
    RADV_FORCE_FAMILY=gfx1100 RADV_DEBUG=shaders RADV_PERFTEST=$perf \
      "$TMP/acodump" "$TMP/$vs.vs.spv" "$TMP/$n.spv" "$fmt" 2> "$TMP/$n.log"
    python3 - "$TMP/$n.log" "w$w/$n" <<'PY'
import re, struct, sys
log, out = sys.argv[1], sys.argv[2]
lines = open(log).read().splitlines()
# ACO's IR after register allocation of the fragment shader: its p_startpgm line.
start = next(i for i, l in enumerate(lines) if l.startswith("ACO shader stage: fragment"))
args = next(l.strip() for l in lines[start:] if "p_startpgm" in l)
# The disassembly under "Pixel Shader", up to s_endpgm.
ps = lines.index("Pixel Shader")
listing, words = [], []
for l in lines[ps + 2:]:
    listing.append(l)
    m = re.search(r";\s*([0-9a-f]{8})(?: ([0-9a-f]{8}))?(?: ([0-9a-f]{8}))?\s*$", l)
    if m:
        words += [int(x, 16) for x in m.groups() if x]
    if l.strip().startswith("s_endpgm"):
        break
open(out + ".bin", "wb").write(b"".join(struct.pack("<I", w) for w in words))
open(out + ".txt", "w").write("p_startpgm: " + args + "\n" + "\n".join(listing) + "\n")
PY
    # llvm-mc-19 disassembles the bytes (one line per instruction, encodings dropped).
    od -An -v -tx1 "w$w/$n.bin" | tr -s ' \n' ' ' | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1 /g' \
      | llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 --disassemble \
        $( [ "$w" = 64 ] && echo -mattr=+wavefrontsize64 ) \
      | grep -v '^\s*\.text' > "w$w/$n.dis"
  done
done
echo "built $(ls *.frag | wc -l) ACO pixel shaders for gfx1100 wave32 and wave64"
