#!/bin/sh
# Regenerates the R700 corpus goldens: for every ll/*.ll shader and every R700 chip, the llc-19 object
# (obj/CHIP/NAME.o) and llc-19's assembly text (asm/CHIP/NAME.s), which the disassembler tests compare with.
# A first line "; llc-flags: FLAGS (why)" in a shader adds FLAGS to its llc command lines.
# Needs llc-19 (Debian package llvm-19). Usage: corpus/r700/build.sh
set -eu
cd "$(dirname "$0")"
LLC=${LLC:-llc-19}
for chip in rv770 rv730 rv710; do
  mkdir -p "obj/$chip" "asm/$chip"
  for f in ll/*.ll; do
    n=$(basename "$f" .ll)
    flags=$(sed -n '1s/^; llc-flags: \([^(]*\).*/\1/p' "$f")
    # shellcheck disable=SC2086
    "$LLC" -mtriple=r600-- -mcpu="$chip" $flags -filetype=obj "$f" -o "obj/$chip/$n.o"
    # shellcheck disable=SC2086
    "$LLC" -mtriple=r600-- -mcpu="$chip" $flags -filetype=asm "$f" -o "asm/$chip/$n.s"
  done
done
echo "built $(ls ll/*.ll | wc -l) shaders for rv770, rv730, rv710"
