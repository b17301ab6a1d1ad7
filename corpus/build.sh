#!/usr/bin/env bash
# Rebuilds the wavesim corpus of real compiler output from the kernel sources.
#
#   corpus/cl/NAME.cl  (OpenCL C)      -> gfx1100-w32/NAME.{hsaco,objdump,notes}
#   corpus/ll/NAME.ll  (LLVM IR, opt.)    gfx1100-w64/NAME.{hsaco,objdump,notes}
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
printf 'target triple = "amdgcn-amd-amdhsa"\n@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 11000, align 4\n' > "$TMP/isa1100.ll"
"$LLVM_AS" "$TMP/isa1100.ll" -o "$TMP/isa1100.bc"

link_libs() { # $1 = on|off (wavefrontsize64)
    local f
    for f in "$BC/opencl.bc" "$BC/ocml.bc" "$BC/ockl.bc" "$TMP/isa1100.bc" "$BC/oclc_wavefrontsize64_$1.bc" \
        "$BC/oclc_abi_version_500.bc" "$BC/oclc_daz_opt_off.bc" "$BC/oclc_finite_only_off.bc" \
        "$BC/oclc_unsafe_math_off.bc" "$BC/oclc_correctly_rounded_sqrt_on.bc"; do
        printf -- '-Xclang\n-mlink-builtin-bitcode\n-Xclang\n%s\n' "$f"
    done
}
mapfile -t LIBS32 < <(link_libs off)
mapfile -t LIBS64 < <(link_libs on)

# Strip everything up to and including the "NAME.hsaco:  file format elf64-amdgpu" header line,
# so the golden text does not depend on the path of the code object.
golden_objdump() { "$OBJDUMP" -d --mcpu=gfx1100 "$1" > "$1.tmp" && sed '1,/file format/d' "$1.tmp"; local rc=$?; rm -f "$1.tmp"; return $rc; }

build_one() { # $1 = source path relative to corpus/ (cl/NAME.cl or ll/NAME.ll)
    local src=$1 name ext extra w dir wflag
    name=$(basename "$src"); ext=${name##*.}; name=${name%.*}
    # shellcheck disable=SC2207
    extra=($(sed -n 's|^// build-flags:||p; s|^; build-flags:||p' "$src"))
    for w in 32 64; do
        dir=gfx1100-w$w
        mkdir -p "$dir"
        if [ "$w" = 64 ]; then wflag=(-mwavefrontsize64); libs=("${LIBS64[@]}"); else wflag=(); libs=("${LIBS32[@]}"); fi
        if [ "$ext" = cl ]; then
            "$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1100 "${wflag[@]}" -O2 -nogpulib \
                -Xclang -finclude-default-header -Wno-linker-warnings -Werror=implicit-function-declaration \
                "${libs[@]}" "${extra[@]}" -c "$src" -o "$TMP/$name.o" || return 1
        else
            "$CLANG" -x ir -target amdgcn-amd-amdhsa -mcpu=gfx1100 "${wflag[@]}" -O2 -nogpulib "${extra[@]}" \
                -c "$src" -o "$TMP/$name.o" || return 1
        fi
        "$LLD" -shared "$TMP/$name.o" -o "$dir/$name.hsaco" || return 1
        golden_objdump "$dir/$name.hsaco" > "$dir/$name.objdump" || return 1
        "$READELF" --notes "$dir/$name.hsaco" > "$dir/$name.notes" || return 1
    done
    echo "built $name"
}

srcs=()
if [ $# -gt 0 ]; then
    for n in "$@"; do
        if [ -f "cl/$n.cl" ]; then srcs+=("cl/$n.cl")
        elif [ -f "ll/$n.ll" ]; then srcs+=("ll/$n.ll")
        else echo "build.sh: no source cl/$n.cl or ll/$n.ll" >&2; exit 1; fi
    done
else
    shopt -s nullglob
    srcs=(cl/*.cl ll/*.ll)
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
