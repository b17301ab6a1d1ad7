#!/usr/bin/env bash
# Rebuilds the hostcall test kernels of tests/hostcall.rs and the expected printf text:
#   kernels_w32.hsaco, kernels_w64.hsaco        kernels.hip (HIP, clang-19 without HIP headers)
#   kernels_cl_w32.hsaco, kernels_cl_w64.hsaco  kernels.cl (OpenCL C)
#   stub_printf.hsaco                           stub_printf.cl: OpenCL printf linked without the
#                                               printf lowering (opencl.bc's stub; an error)
#   kernels_w32_compressed.co                   kernels_w32.hsaco in a compressed offload bundle
#                                               (clang-offload-bundler-19 -compress: CCOB v2, zstd)
#   formats_expected.txt                        reference.cpp: formats.inc's printf calls made
#                                               by the host C library (what ROCm formats with)
# Needs clang-19, lld-19, llvm-19, a host C++ compiler and Debian's rocm-device-libs (5.2).
#
# Debian's device libraries (ROCm 5.2) predate gfx11: ockl's clock (used by the slab allocator
# behind mallocs of up to 3072 bytes to pace new slabs) reads s_memrealtime, which gfx11 lacks,
# so clang drops it and such a malloc waits forever (on hardware too). Newer device libraries
# read gfx11's REALTIME message (s_sendmsg_rtn_b64); the copy of ockl.bc made here does the same.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
BC=${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}

llvm-dis-19 "$BC/ockl.bc" -o "$TMP/ockl.ll"
sed -e 's/call i64 @llvm.amdgcn.s.memrealtime()/call i64 @llvm.amdgcn.s.sendmsg.rtn.i64(i32 131)/' \
    -e 's/^declare i64 @llvm.amdgcn.s.memrealtime() #[0-9]*/declare i64 @llvm.amdgcn.s.sendmsg.rtn.i64(i32 immarg)/' \
    -e 's/"target-features"="+s-memrealtime"//' "$TMP/ockl.ll" > "$TMP/ockl_gfx11.ll"
llvm-as-19 "$TMP/ockl_gfx11.ll" -o "$TMP/ockl.bc"
printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 11000, align 4\n' > "$TMP/isa.ll"
llvm-as-19 "$TMP/isa.ll" -o "$TMP/isa.bc"

libs() { # $1 = on|off (wave64), $2.. extra libraries
    local w=$1; shift
    for f in "$@" "$BC/ocml.bc" "$TMP/ockl.bc" "$TMP/isa.bc" "$BC/oclc_wavefrontsize64_$w.bc" \
        "$BC/oclc_abi_version_500.bc" "$BC/oclc_daz_opt_off.bc" "$BC/oclc_finite_only_off.bc" \
        "$BC/oclc_unsafe_math_off.bc" "$BC/oclc_correctly_rounded_sqrt_on.bc"; do
        echo -Xclang -mlink-builtin-bitcode -Xclang "$f"
    done
}

for w in 32 64; do
    on=off wave=()
    if [ $w = 64 ]; then on=on wave=(-mwavefrontsize64); fi
    # HIP: -c with --no-gpu-bundle-output writes the linked code object itself.
    clang-19 -x hip --offload-arch=gfx1100 -nogpulib -nogpuinc --cuda-device-only \
        --no-gpu-bundle-output -O2 "${wave[@]}" $(libs $on) -Wno-linker-warnings \
        -c kernels.hip -o kernels_w$w.hsaco
    clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -O2 -nogpulib \
        -Xclang -finclude-default-header "${wave[@]}" $(libs $on "$BC/opencl.bc") \
        -Wno-linker-warnings -c kernels.cl -o "$TMP/cl.o"
    ld.lld-19 -shared "$TMP/cl.o" -o kernels_cl_w$w.hsaco
done

clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -O2 -nogpulib \
    -Xclang -finclude-default-header $(libs off "$BC/opencl.bc") -Wno-linker-warnings \
    -c stub_printf.cl -o "$TMP/stub.o"
ld.lld-19 -shared "$TMP/stub.o" -o stub_printf.hsaco

clang-offload-bundler-19 --type=o -compress --input=/dev/null --input=kernels_w32.hsaco \
    --targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx1100 \
    --output=kernels_w32_compressed.co

c++ -O0 -o "$TMP/reference" reference.cpp
"$TMP/reference" > formats_expected.txt
