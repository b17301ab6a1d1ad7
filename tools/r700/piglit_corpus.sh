#!/usr/bin/env bash
# Build corpus/r700/piglit (issue 28): piglit's GLSL 1.10, 1.20 and 1.30 execution tests that have
# a vertex and a fragment shader, compiled by Mesa 22.3.6's r600 driver for RV770, RV730 and RV710
# and converted with llvmpipe references exactly as the shader-db corpus is (docs/R700.md).
# The harness takes each uniform's first value and the user clip planes from piglit's [test] section;
# it gives its own attributes and textures ([vertex data], rectangles and texture commands are not used).
#
#   tools/r700/piglit_corpus.sh WORKDIR [MESA_WORKDIR]
#
# WORKDIR receives piglit's checkout, the selected tests, the dumps and the llvmpipe cache;
# MESA_WORKDIR is the Mesa build of tools/mesa/build.sh (default /tmp/wavesim-mesa).
# Not run in CI: it needs the Mesa build (root for apt-get, ~25 min) and network access.
set -euo pipefail
work="$(mkdir -p "$1" && cd "$1" && pwd)"; mesa="${2:-/tmp/wavesim-mesa}"
here="$(cd "$(dirname "$0")" && pwd)"; repo="$(cd "$here/../.." && pwd)"
# The piglit commit the committed corpus was built from (2021-07-12; GitHub mirror of gitlab.freedesktop.org/mesa/piglit).
commit=5e97a3485e013e069f04a9189a9870afd42c42e0
if [ ! -d "$work/piglit" ]; then
    git clone --filter=blob:none https://github.com/mesa3d/piglit.git "$work/piglit"
fi
git -C "$work/piglit" checkout -q "$commit"
rm -rf "$work/vsfs"
(cd "$work/piglit" && grep -rl --include='*.shader_test' '^\[vertex shader\]' \
     tests/spec/glsl-1.10/execution tests/spec/glsl-1.20/execution tests/spec/glsl-1.30/execution |
     xargs grep -l '^\[fragment shader\]' | sort) | while read -r f; do
    mkdir -p "$work/vsfs/$(dirname "$f")"
    cp "$work/piglit/$f" "$work/vsfs/$f"
done
for c in RV770 RV730 RV710; do
    "$repo/tools/mesa/run_corpus.sh" r600 "$c" "$work/vsfs" "$work/dumps/${c,,}" "$mesa"
done
python3 "$here/mesa_corpus.py" "$work/vsfs" "$work/dumps" "$repo/corpus/r700/piglit" \
    --cache "$work/cache"
