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

# OpenCL image kernels (cl/*.cl): clang-19 with the ROCm device libraries (as corpus/build.sh does),
# linked with ld.lld-19 into cl-w32/NAME.hsaco and cl-w64/NAME.hsaco, with llvm-objdump-19 goldens.
BC=${BC:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The Debian ROCm device libraries have no gfx11 ISA-version file; it only defines this constant.
printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 11000, align 4\n' > "$TMP/isa.ll"
llvm-as-19 "$TMP/isa.ll" -o "$TMP/isa.bc"
for w in 32 64; do
  mkdir -p "cl-w$w"
  if [ "$w" = 64 ]; then ws=on; wflag=-mwavefrontsize64; else ws=off; wflag=; fi
  libs=""
  for f in "$BC/opencl.bc" "$BC/ocml.bc" "$BC/ockl.bc" "$TMP/isa.bc" "$BC/oclc_wavefrontsize64_$ws.bc" \
      "$BC/oclc_abi_version_500.bc" "$BC/oclc_daz_opt_off.bc" "$BC/oclc_finite_only_off.bc" \
      "$BC/oclc_unsafe_math_off.bc" "$BC/oclc_correctly_rounded_sqrt_on.bc"; do
    libs="$libs -Xclang -mlink-builtin-bitcode -Xclang $f"
  done
  for f in cl/*.cl; do
    n=$(basename "$f" .cl)
    # shellcheck disable=SC2086
    clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 $wflag -O2 -nogpulib \
      -Xclang -finclude-default-header -Wno-linker-warnings $libs -c "$f" -o "$TMP/$n.o"
    ld.lld-19 -shared "$TMP/$n.o" -o "cl-w$w/$n.hsaco"
    llvm-objdump-19 -d --mcpu=gfx1100 "cl-w$w/$n.hsaco" | sed '1,/file format/d' > "cl-w$w/$n.objdump"
  done
done
echo "built $(ls cl/*.cl | wc -l) OpenCL image sources for gfx1100 wave32 and wave64"
