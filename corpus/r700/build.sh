#!/bin/sh
# Regenerates the R700 corpus goldens: for every ll/*.ll shader and every R700 chip, the llc-19 object
# (obj/CHIP/NAME.o) and llc-19's assembly text (asm/CHIP/NAME.s), which the disassembler tests compare with.
# Needs llc-19 (Debian package llvm-19). Usage: corpus/r700/build.sh
set -eu
cd "$(dirname "$0")"
LLC=${LLC:-llc-19}
for chip in rv770 rv730 rv710; do
  mkdir -p "obj/$chip" "asm/$chip"
  for f in ll/*.ll; do
    n=$(basename "$f" .ll)
    "$LLC" -mtriple=r600-- -mcpu="$chip" -filetype=obj "$f" -o "obj/$chip/$n.o"
    "$LLC" -mtriple=r600-- -mcpu="$chip" -filetype=asm "$f" -o "asm/$chip/$n.s"
  done
done
echo "built $(ls ll/*.ll | wc -l) shaders for rv770, rv730, rv710"
