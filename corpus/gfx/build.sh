#!/bin/sh
# Regenerates the RDNA3 graphics corpus: for every ll/*.ll shader the llc-19 PAL object for gfx1100
# (obj/w32/NAME.o, and obj/w64/NAME.o built with +wavefrontsize64), llc-19's assembly (asm/...) and
# llvm-objdump-19's disassembly of .text (dis/.../NAME.txt), which the disassembler test compares with,
# and the PAL metadata (notes/.../NAME.txt from llvm-readelf-19 --notes) for reading.
# Needs llc-19, llvm-objdump-19 and llvm-readelf-19 (Debian package llvm-19). Usage: corpus/gfx/build.sh
set -eu
cd "$(dirname "$0")"
for w in 32 64; do
  mkdir -p "obj/w$w" "asm/w$w" "dis/w$w" "notes/w$w"
  attr="" dattr=""
  [ "$w" = 64 ] && attr="-mattr=+wavefrontsize64" dattr="--mattr=+wavefrontsize64"
  for f in ll/*.ll; do
    n=$(basename "$f" .ll)
    # shellcheck disable=SC2086
    llc-19 -mtriple=amdgcn--amdpal -mcpu=gfx1100 $attr -filetype=obj "$f" -o "obj/w$w/$n.o"
    # shellcheck disable=SC2086
    llc-19 -mtriple=amdgcn--amdpal -mcpu=gfx1100 $attr -filetype=asm "$f" -o "asm/w$w/$n.s"
    llvm-objdump-19 -d --mcpu=gfx1100 $dattr --no-show-raw-insn --no-leading-addr "obj/w$w/$n.o" \
      | sed -n '/^main>:$/,$p;/<main>:$/,$p' > "dis/w$w/$n.txt"
    llvm-readelf-19 --notes "obj/w$w/$n.o" > "notes/w$w/$n.txt"
  done
done
echo "built $(ls ll/*.ll | wc -l) shaders for gfx1100 wave32 and wave64"
