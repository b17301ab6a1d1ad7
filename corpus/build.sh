#!/usr/bin/env bash
# Rebuilds the wavesim corpus of real compiler output from the kernel sources.
#
#   corpus/cl/NAME.cl  (OpenCL C)      -> gfx1100-w32/NAME.{hsaco,objdump,notes}
#   corpus/ll/NAME.ll  (LLVM IR, opt.)    gfx1100-w64/NAME.{hsaco,objdump,notes}
#   corpus/cl115/NAME.cl (RDNA3.5)     -> gfx1150-w{32,64}/ and gfx1151-w{32,64}/NAME.{...}
#
# Usage: corpus/build.sh [NAME...]     (no names: rebuild everything; runnable from any directory)
#
# Deterministic: fixed flags, sources compiled by relative path from inside corpus/, LC_ALL=C.
# A source may add compiler flags with a line of the form
#   // build-flags: -cl-fp32-correctly-rounded-divide-sqrt
set -euo pipefail
export LC_ALL=C TZ=UTC

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE"

BC=${ROCM_DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
CLANG=clang-19 LLD=ld.lld-19 LLVM_AS=llvm-as-19 OBJDUMP=llvm-objdump-19 READELF=llvm-readelf-19

missing=()
for t in "$CLANG:clang-19" "$LLD:lld-19" "$LLVM_AS:llvm-19" "$OBJDUMP:llvm-19" "$READELF:llvm-19"; do
    command -v "${t%%:*}" >/dev/null 2>&1 || missing+=("${t##*:}")
done
[ -f "$BC/ocml.bc" ] || missing+=(rocm-device-libs)
if [ ${#missing[@]} -ne 0 ]; then
    pkgs=$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')
    echo "build.sh: missing tools/libraries. Install them with:" >&2
    echo "    apt-get update && apt-get install -y $pkgs" >&2
    exit 1
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The Debian ROCm device libraries have no gfx11 ISA-version file; it only defines this constant.
for v in 1100:11000 1150:11500 1151:11501; do
    printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 %s, align 4\n' "${v#*:}" > "$TMP/isa${v%%:*}.ll"
    "$LLVM_AS" "$TMP/isa${v%%:*}.ll" -o "$TMP/isa${v%%:*}.bc"
done

link_libs() { # $1 = on|off (wavefrontsize64), $2 = gfx number (1100, 1150, 1151)
    local f
    for f in "$BC/opencl.bc" "$BC/ocml.bc" "$BC/ockl.bc" "$TMP/isa$2.bc" "$BC/oclc_wavefrontsize64_$1.bc" \
        "$BC/oclc_abi_version_500.bc" "$BC/oclc_daz_opt_off.bc" "$BC/oclc_finite_only_off.bc" \
        "$BC/oclc_unsafe_math_off.bc" "$BC/oclc_correctly_rounded_sqrt_on.bc"; do
        printf -- '-Xclang\n-mlink-builtin-bitcode\n-Xclang\n%s\n' "$f"
    done
}
# Strip everything up to and including the "NAME.hsaco:  file format elf64-amdgpu" header line,
# so the golden text does not depend on the path of the code object. $2 = processor.
golden_objdump() { "$OBJDUMP" -d --mcpu="$2" "$1" > "$1.tmp" && sed '1,/file format/d' "$1.tmp"; local rc=$?; rm -f "$1.tmp"; return $rc; }

build_one() { # $1 = source path relative to corpus/ (cl/NAME.cl, ll/NAME.ll or cl115/NAME.cl)
    local src=$1 name ext extra w dir wflag cpu cpus
    name=$(basename "$src"); ext=${name##*.}; name=${name%.*}
    # shellcheck disable=SC2207
    extra=($(sed -n 's|^// build-flags:||p; s|^; build-flags:||p' "$src"))
    # RDNA3.5 sources (cl115/) are built for both RDNA3.5 processors.
    if [ "${src%%/*}" = cl115 ]; then cpus=(gfx1150 gfx1151); else cpus=(gfx1100); fi
    for cpu in "${cpus[@]}"; do
    for w in 32 64; do
        dir=$cpu-w$w
        mkdir -p "$dir"
        if [ "$w" = 64 ]; then wflag=(-mwavefrontsize64); mapfile -t libs < <(link_libs on "${cpu#gfx}")
        else wflag=(); mapfile -t libs < <(link_libs off "${cpu#gfx}"); fi
        if [ "$ext" = cl ]; then
            "$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$cpu" "${wflag[@]}" -O2 -nogpulib \
                -Xclang -finclude-default-header -Wno-linker-warnings -Werror=implicit-function-declaration \
                "${libs[@]}" "${extra[@]}" -c "$src" -o "$TMP/$name.o" || return 1
        else
            "$CLANG" -x ir -target amdgcn-amd-amdhsa -mcpu="$cpu" "${wflag[@]}" -O2 -nogpulib "${extra[@]}" \
                -c "$src" -o "$TMP/$name.o" || return 1
        fi
        "$LLD" -shared "$TMP/$name.o" -o "$dir/$name.hsaco" || return 1
        golden_objdump "$dir/$name.hsaco" "$cpu" > "$dir/$name.objdump" || return 1
        "$READELF" --notes "$dir/$name.hsaco" > "$dir/$name.notes" || return 1
    done
    done
    echo "built $name"
}

srcs=()
if [ $# -gt 0 ]; then
    for n in "$@"; do
        if [ -f "cl/$n.cl" ]; then srcs+=("cl/$n.cl")
        elif [ -f "ll/$n.ll" ]; then srcs+=("ll/$n.ll")
        elif [ -f "cl115/$n.cl" ]; then srcs+=("cl115/$n.cl")
        else echo "build.sh: no source cl/$n.cl, ll/$n.ll or cl115/$n.cl" >&2; exit 1; fi
    done
else
    shopt -s nullglob
    srcs=(cl/*.cl ll/*.ll cl115/*.cl)
fi
failed=()
for src in "${srcs[@]}"; do
    build_one "$src" || failed+=("$src")
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "build.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "build.sh: ${#srcs[@]} sources built for wave32 and wave64"
