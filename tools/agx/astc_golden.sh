#!/bin/sh
# Regenerate corpus/agx/astc/astcenc_golden.txt, the golden decodes `exec::astc`'s tests compare
# against: clones ARM's astc-encoder at a fixed commit, builds its codec library with the plain
# C++ (no SIMD) configuration, and runs tools/agx/astc_golden.cpp against it.
# Usage: sh tools/agx/astc_golden.sh WORKDIR     (needs git and g++; about a minute)
# ASTCENC_REPO=URL-or-path clones from elsewhere (a local mirror) instead of GitHub.
set -eu
work="${1:?usage: astc_golden.sh WORKDIR}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COMMIT=86aa2eb70db4f67090d94bf547ebbde6f529c287   # astc-encoder main, 2026-07-01 ("Update ChangeLog (#656)")
mkdir -p "$work"
if [ ! -d "$work/astc-encoder" ]; then
    git clone --no-checkout "${ASTCENC_REPO:-https://github.com/ARM-software/astc-encoder}" \
        "$work/astc-encoder"
fi
git -C "$work/astc-encoder" checkout -q "$COMMIT" -- Source
src="$work/astc-encoder/Source"
rm -f "$work"/astcenc_*.o "$work/libastcenc.a"
for f in "$src"/astcenc_*.cpp; do
    g++ -O2 -c -DASTCENC_SSE=0 -DASTCENC_AVX=0 -DASTCENC_NEON=0 -DASTCENC_SVE=0 \
        -DASTCENC_POPCNT=0 -DASTCENC_F16C=0 "$f" -o "$work/$(basename "$f").o"
done
ar rcs "$work/libastcenc.a" "$work"/astcenc_*.o
g++ -O1 -I "$src" "$ROOT/tools/agx/astc_golden.cpp" "$work/libastcenc.a" -o "$work/astc_golden" -lpthread
mkdir -p "$ROOT/corpus/agx/astc"
"$work/astc_golden" > "$ROOT/corpus/agx/astc/astcenc_golden.txt"
wc -l "$ROOT/corpus/agx/astc/astcenc_golden.txt"
