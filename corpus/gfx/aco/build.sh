#!/bin/sh
# Regenerates the Mesa ACO shaders of corpus/gfx/aco: each NAME.frag is linked with the
# vertex shader its "// vs:" line names, compiled to SPIR-V by glslangValidator and into a
# Vulkan graphics pipeline by Mesa's RADV (acodump.c), on RADV's null device for gfx1100
# (RADV_FORCE_FAMILY=gfx1100, no GPU needed), once in wave64 (RADV's default for pixel shaders)
# and once in wave32 (RADV_PERFTEST=pswave32). RADV_DEBUG=shaders makes RADV print ACO's
# listing with each instruction's encoding (",nocache" and MESA_SHADER_CACHE_DISABLE: every run
# compiles instead of reading a cached binary). Each NAME.comp becomes a compute pipeline with 16
# bytes of push constants (wave64, and wave32 with RADV_PERFTEST=cswave32). From the listing
# this script writes
#   wNN/NAME.bin   the pixel (or compute) shader's machine code (little-endian words),
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
# extract LOG OUT STAGE HEADER: the shader's ACO argument list and listing from RADV's output.
extract() {
  python3 - "$1" "$2" "$3" "$4" <<'PY'
import re, struct, sys
log, out, stage, header = sys.argv[1:5]
lines = open(log).read().splitlines()
# ACO's IR after register allocation of the shader: its p_startpgm line.
start = next(i for i, l in enumerate(lines) if l.startswith("ACO shader stage: " + stage))
args = next(l.strip() for l in lines[start:] if "p_startpgm" in l)
# The disassembly under the stage's header, up to s_endpgm.
first = lines.index(header)
listing, words = [], []
for l in lines[first + 2:]:
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
  od -An -v -tx1 "$2.bin" | tr -s ' \n' ' ' | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1 /g' \
    | llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 --disassemble $5 \
    | grep -v '^\s*\.text' > "$2.dis"
}
for f in *.frag; do
  n=$(basename "$f" .frag)
  vs=$(sed -n 's|^// vs: \([a-z0-9_]*\)\.vert.*|\1|p' "$f")
  fmt=$(sed -n 's|.*format: \([a-z0-9]*\).*|\1|p' "$f")
  glslangValidator -V "$f" -o "$TMP/$n.spv" > /dev/null
  for w in 32 64; do
    mkdir -p "w$w"
    if [ "$w" = 32 ]; then perf=pswave32; attr=; else perf=; attr=-mattr=+wavefrontsize64; fi
    RADV_FORCE_FAMILY=gfx1100 RADV_DEBUG=shaders,nocache MESA_SHADER_CACHE_DISABLE=true RADV_PERFTEST=$perf \
      "$TMP/acodump" "$TMP/$vs.vs.spv" "$TMP/$n.spv" "$fmt" 2> "$TMP/$n.log"
    extract "$TMP/$n.log" "w$w/$n" fragment "Pixel Shader" "$attr"
  done
done
for f in *.comp; do
  n=$(basename "$f" .comp)
  glslangValidator -V "$f" -o "$TMP/$n.spv" > /dev/null
  for w in 32 64; do
    mkdir -p "w$w"
    if [ "$w" = 32 ]; then perf=cswave32; attr=; else perf=; attr=-mattr=+wavefrontsize64; fi
    RADV_FORCE_FAMILY=gfx1100 RADV_DEBUG=shaders,nocache MESA_SHADER_CACHE_DISABLE=true RADV_PERFTEST=$perf \
      "$TMP/acodump" --compute "$TMP/$n.spv" 2> "$TMP/$n.log"
    extract "$TMP/$n.log" "w$w/$n" compute "Compute Shader" "$attr"
  done
done
echo "built $(ls *.frag | wc -l) ACO pixel and $(ls *.comp | wc -l) compute shaders for gfx1100 wave32 and wave64"
