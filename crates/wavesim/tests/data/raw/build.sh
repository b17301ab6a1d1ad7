#!/usr/bin/env bash
# Rebuilds the kernels of tests/raw_dispatch.rs (the raw dispatch ABI) and tests/hostcall.rs:
#   dispatch_ptr.hsaco  clang-19, OpenCL C: dispatch pointer in s[0:1], kernarg pointer in s[2:3]
#   denorm_flush.hsaco  clang-19, OpenCL C, -cl-denorms-are-zero: RSRC1.FLOAT_DENORM_MODE_32 = 0
#   ballot_w64.hsaco    llc-19, LLVM IR, wave64 (+wavefrontsize64)
#   hostcall.hsaco      clang-19, OpenCL C + ROCm device libraries: __ockl_hostcall_preview
#   fill_o0.hsaco       clang-19 -O0, OpenCL C + device libraries: declares hidden_hostcall_buffer, unused
#   state.bin           llvm-mc-19, bare gfx1100 code: stores the initial wave state
# Needs clang-19, llc-19, lld-19, llvm-19 and (for hostcall.hsaco) Debian's rocm-device-libs.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CL=(clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -O2 -nogpulib
    -Xclang -finclude-default-header)

"${CL[@]}" -c dispatch_ptr.cl -o "$TMP/dp.o"
ld.lld-19 -shared "$TMP/dp.o" -o dispatch_ptr.hsaco

"${CL[@]}" -cl-denorms-are-zero -c denorm_flush.cl -o "$TMP/dn.o"
ld.lld-19 -shared "$TMP/dn.o" -o denorm_flush.hsaco

llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 -mattr=+wavefrontsize64 -O2 -filetype=obj \
    ballot_w64.ll -o "$TMP/b.o"
ld.lld-19 -shared "$TMP/b.o" -o ballot_w64.hsaco

BC=${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 11000, align 4\n' > "$TMP/isa.ll"
llvm-as-19 "$TMP/isa.ll" -o "$TMP/isa.bc"
libs=()
for f in "$BC/opencl.bc" "$BC/ocml.bc" "$BC/ockl.bc" "$TMP/isa.bc" "$BC/oclc_wavefrontsize64_off.bc" \
    "$BC/oclc_abi_version_500.bc" "$BC/oclc_daz_opt_off.bc" "$BC/oclc_finite_only_off.bc" \
    "$BC/oclc_unsafe_math_off.bc" "$BC/oclc_correctly_rounded_sqrt_on.bc"; do
    libs+=(-Xclang -mlink-builtin-bitcode -Xclang "$f")
done
"${CL[@]}" -Wno-linker-warnings "${libs[@]}" -c hostcall.cl -o "$TMP/h.o"
ld.lld-19 -shared "$TMP/h.o" -o hostcall.hsaco
"${CL[@]/-O2/-O0}" -Wno-linker-warnings "${libs[@]}" -c fill_o0.cl -o "$TMP/f.o"
ld.lld-19 -shared "$TMP/f.o" -o fill_o0.hsaco

llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -filetype=obj state.s -o "$TMP/state.o"
llvm-objcopy-19 -O binary -j .text "$TMP/state.o" state.bin

# The code as llvm-objdump-19 prints it (without the s_code_end padding), to read along.
for k in dispatch_ptr denorm_flush ballot_w64 hostcall fill_o0; do
    llvm-objdump-19 -d --mcpu=gfx1100 $k.hsaco | sed -n '/<.*>:$/,$p' | grep -v s_code_end > $k.s
done
