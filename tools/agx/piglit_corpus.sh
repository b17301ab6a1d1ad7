#!/usr/bin/env bash
# Build corpus/agx/piglit22: piglit's GLSL 1.10, 1.20 and 1.30 execution tests that have a vertex
# and a fragment shader (the selection of tools/r700/piglit_corpus.sh, same piglit commit), compiled
# by Mesa 22.3.6's asahi driver and converted with llvmpipe references exactly as the shader-db
# corpus is (tools/agx/mesa_corpus.py, docs/AGX.md). The asahi harness gives its own uniforms,
# attributes and textures, so each test's [test] and [vertex data] sections are left out.
#
#   tools/agx/piglit_corpus.sh WORKDIR [MESA_WORKDIR]
#
# WORKDIR receives piglit's checkout, the selected tests and the dumps; MESA_WORKDIR is the Mesa
# build of tools/mesa/build.sh (default /tmp/wavesim-mesa). Not run in CI (the Mesa build, network).
set -euo pipefail
work="$(mkdir -p "$1" && cd "$1" && pwd)"; mesa="${2:-/tmp/wavesim-mesa}"
here="$(cd "$(dirname "$0")" && pwd)"; repo="$(cd "$here/../.." && pwd)"
commit=5e97a3485e013e069f04a9189a9870afd42c42e0
if [ ! -d "$work/piglit" ]; then
    git clone --filter=blob:none https://github.com/mesa3d/piglit.git "$work/piglit"
fi
git -C "$work/piglit" checkout -q "$commit"
rm -rf "$work/vsfs" "$work/dumps"
(cd "$work/piglit" && grep -rl --include='*.shader_test' '^\[vertex shader\]' \
     tests/spec/glsl-1.10/execution tests/spec/glsl-1.20/execution tests/spec/glsl-1.30/execution |
     xargs grep -l '^\[fragment shader\]' | sort) | while read -r f; do
    mkdir -p "$work/vsfs/$(dirname "$f")"
    awk '/^\[/ { keep = ($0 !~ /^\[(test|vertex data)\]/) } keep' "$work/piglit/$f" > "$work/vsfs/$f"
done
"$repo/tools/mesa/run_corpus.sh" asahi - "$work/vsfs" "$work/dumps" "$mesa"
rm -rf "$repo/corpus/agx/piglit22"
python3 "$here/mesa_corpus.py" "$work/dumps" "$work/vsfs" "$repo/corpus/agx/piglit22" \
    --exclude "$here/mesa_corpus_piglit_excluded.txt"
