#!/usr/bin/env bash
# Rebuilds grid_ids_v4.hsaco: corpus/cl/grid_ids.cl as an HSA code object v4 (the work-group
# sizes come from the AQL dispatch packet instead of hidden arguments), for tests/api.rs.
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
    "$BC/oclc_abi_version_400.bc" "$BC/oclc_daz_opt_off.bc" "$BC/oclc_finite_only_off.bc" \
    "$BC/oclc_unsafe_math_off.bc" "$BC/oclc_correctly_rounded_sqrt_on.bc"; do
    libs+=(-Xclang -mlink-builtin-bitcode -Xclang "$f")
done
clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -mcode-object-version=4 -O2 \
    -nogpulib -Xclang -finclude-default-header -Wno-linker-warnings "${libs[@]}" \
    -c ../../../../corpus/cl/grid_ids.cl -o "$TMP/g.o"
ld.lld-19 -shared "$TMP/g.o" -o grid_ids_v4.hsaco
