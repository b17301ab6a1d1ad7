#!/usr/bin/env bash
# Rebuilds examples/saxpy.hsaco and its input/expected files (the committed ones are what this
# script produces). Needs clang-19, lld-19 and rocm-device-libs (see corpus/README.md); running
# the example needs none of them.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")"
BC=${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 11000, align 4\n' > "$TMP/isa.ll"
llvm-as-19 "$TMP/isa.ll" -o "$TMP/isa.bc"
libs=()
for f in "$BC/opencl.bc" "$BC/ocml.bc" "$BC/ockl.bc" "$TMP/isa.bc" "$BC/oclc_wavefrontsize64_off.bc" \
    "$BC/oclc_abi_version_500.bc" "$BC/oclc_daz_opt_off.bc" "$BC/oclc_finite_only_off.bc" \
    "$BC/oclc_unsafe_math_off.bc" "$BC/oclc_correctly_rounded_sqrt_on.bc"; do
    libs+=(-Xclang -mlink-builtin-bitcode -Xclang "$f")
done
clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -O2 -nogpulib \
    -Xclang -finclude-default-header -Wno-linker-warnings "${libs[@]}" -c saxpy.cl -o "$TMP/saxpy.o"
ld.lld-19 -shared "$TMP/saxpy.o" -o saxpy.hsaco
# Inputs: x[i] = i / 4, y[i] = 1000 - i; expected: fmaf(2.5, x[i], y[i]) (clang contracts a*x+y).
python3 - <<'PY'
import struct
n = 1000
x = [i / 4 for i in range(n)]
y = [1000.0 - i for i in range(n)]
open("x.bin", "wb").write(struct.pack("<%df" % n, *x))
open("y.bin", "wb").write(struct.pack("<%df" % n, *y))
# 2.5 * (i/4) + (1000 - i) is exact in float32 for these values, so FMA and mul+add agree.
open("expected.bin", "wb").write(struct.pack("<%df" % n, *[2.5 * a + b for a, b in zip(x, y)]))
PY
echo "built examples/saxpy.hsaco, x.bin, y.bin, expected.bin"
