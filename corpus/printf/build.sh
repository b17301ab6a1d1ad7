#!/usr/bin/env bash
# Rebuilds corpus/printf/: OpenCL kernels for wavesim's printf, by-value argument and
# reqd_work_group_size tests (gfx1100, wave32, code object v5, as corpus/build.sh builds), and the
# PoCL reference output of the printf kernel (expected.txt) when PoCL is installed:
#   apt-get install -y pocl-opencl-icd ocl-icd-opencl-dev && pip install pyopencl numpy
# Usage: corpus/printf/build.sh
set -euo pipefail
export LC_ALL=C TZ=UTC
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"
BC=${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The Debian device libraries have no gfx11 ISA-version file; it only defines this constant.
printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 11000, align 4\n' > "$TMP/isa.ll"
llvm-as-19 "$TMP/isa.ll" -o "$TMP/isa.bc"
libs=()
for f in "$BC/opencl.bc" "$BC/ocml.bc" "$BC/ockl.bc" "$TMP/isa.bc" "$BC/oclc_wavefrontsize64_off.bc" \
    "$BC/oclc_abi_version_500.bc" "$BC/oclc_daz_opt_off.bc" "$BC/oclc_finite_only_off.bc" \
    "$BC/oclc_unsafe_math_off.bc" "$BC/oclc_correctly_rounded_sqrt_on.bc"; do
    libs+=(-Xclang -mlink-builtin-bitcode -Xclang "$f")
done
cl() { # $1 = source, $2 = output, the rest = extra flags
    local src=$1 out=$2; shift 2
    clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -O2 -nogpulib \
        -Xclang -finclude-default-header -Wno-linker-warnings -Werror=implicit-function-declaration \
        "$@" -c "$src" -o "$TMP/$out.o"
    ld.lld-19 -shared "$TMP/$out.o" -o "$out.hsaco"
    llvm-readelf-19 --notes "$out.hsaco" > "$out.notes"
}
# printf.cl: the OpenCL library's opencl.bc defines printf, which would keep LLVM's printf lowering
# (format strings into amdhsa.printf, records through the library's __printf_alloc) from running. So:
# compile without libraries, lower printf with opt, then link the library for __printf_alloc alone.
clang-19 -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -O2 -nogpulib \
    -Xclang -finclude-default-header -emit-llvm -c printf.cl -o "$TMP/printf.bc"
opt-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 -passes=amdgpu-printf-runtime-binding \
    "$TMP/printf.bc" -o "$TMP/printf-lowered.bc"
llvm-link-19 "$TMP/printf-lowered.bc" --only-needed "$BC/opencl.bc" "$BC/ockl.bc" "$TMP/isa.bc" \
    "$BC/oclc_wavefrontsize64_off.bc" "$BC/oclc_abi_version_500.bc" -o "$TMP/printf-linked.bc"
clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx1100 -O2 -nogpulib -c "$TMP/printf-linked.bc" -o "$TMP/printf.o"
ld.lld-19 -shared "$TMP/printf.o" -o printf.hsaco
llvm-readelf-19 --notes printf.hsaco > printf.notes
cl args.cl args "${libs[@]}"
# The input of `hello`: x[i] = i * 1.25 - 2 for 8 work-items.
python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<8f", *[i * 1.25 - 2 for i in range(8)]))' > x.bin
if python3 -c 'import pyopencl' 2>/dev/null; then
    python3 pocl_reference.py > expected.txt
    echo "built printf.hsaco and expected.txt (PoCL)"
else
    echo "built printf.hsaco; pyopencl/PoCL missing, expected.txt left as it is" >&2
fi
