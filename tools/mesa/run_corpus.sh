#!/usr/bin/env bash
# Compile every shader-db .shader_test under SHADERS with Mesa 22.3.6 built by tools/mesa/build.sh,
# writing each program's shaders as machine code (tools/mesa/patch_asahi.py, patch_r600.py) into OUT:
#   OUT/<path of the .shader_test without the suffix>/NNNN.{vs,ps,fetch,fs}.{bin,txt}
# and one line per file into OUT/results.txt ("linked" or "FAILED <why>").
#
#   tools/mesa/run_corpus.sh r600 RV770 SHADERS OUT [WORKDIR]   # also RV730, RV710
#   tools/mesa/run_corpus.sh asahi -    SHADERS OUT [WORKDIR]
#
# SHADERS: shader-db's shaders/ folder (Mesa's public collection of application and game shaders,
# github.com/karolherbst/shader-db or gitlab.freedesktop.org/mesa/shader-db). The drivers run on
# no kernel: r600 on Mesa's radeon no-op DRM shim with RADEON_GPU_ID naming the chip; asahi 22.3
# through the software-screen path (its device layer is IOKit-only and a stub on Linux).
set -euo pipefail
driver="$1"; chip="$2"; shaders="$(cd "$3" && pwd)"; out="$4"; work="${5:-/tmp/wavesim-mesa}"
here="$(cd "$(dirname "$0")" && pwd)"
lib="$work/install/lib/x86_64-linux-gnu"
[ -d "$lib" ] || lib="$work/install/lib"
# One harness per driver: the r600 and asahi corpora may be rebuilt side by side from different
# checkouts of shader_test.c (both include shader_test_common.h).
# asahi uses the copy tools/agx/mesa_corpus.py builds its llvmpipe references from (the same
# textures, e.g. depth textures for shadow samplers, on both sides).
src="$here/shader_test.c"
[ "$driver" != asahi ] || src="$here/../agx/mesa_shader_test.c"
harness="$work/shader_test_$driver"
if [ ! -x "$harness" ] || [ "$src" -nt "$harness" ] || [ "$here/shader_test_common.h" -nt "$harness" ]; then
    cc -O2 -o "$harness" "$src" -I"$work/install/include" -L"$lib" -lEGL \
        -Wl,-rpath,"$lib"
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
export LD_LIBRARY_PATH="$lib" LIBGL_DRIVERS_PATH="$lib/dri" EGL_PLATFORM=surfaceless
harness_args=(); info_name=
case "$driver" in
r600)
    shim="$(find "$work/build/src/amd/drm-shim" -name 'libradeon_noop_drm_shim.so' | head -1)"
    env_driver=(MESA_LOADER_DRIVER_OVERRIDE=r600 RADEON_GPU_ID="$chip" LD_PRELOAD="$shim")
    dumpvar=R600_DUMP_DIR
    # issue 28: uniforms, textures and attributes keyed by name, their values listed in info.txt
    # (tools/r700/mesa_corpus.py reads them; shader_test.c "r600 corpus modes").
    harness_args=(--r700-dump); info_name=info.txt ;;
asahi)
    # The 2022 asahi driver offers GL 2.1; shader-db's GLSL 1.30-3.30 programs need the override.
    env_driver=(GALLIUM_DRIVER=asahi LIBGL_ALWAYS_SOFTWARE=1 MESA_GL_VERSION_OVERRIDE=3.3COMPAT
                MESA_GLSL_VERSION_OVERRIDE=330)
    dumpvar=AGX_DUMP_DIR ;;
*) echo "driver must be r600 or asahi" >&2; exit 2 ;;
esac
: > "$out/results.txt"
find "$shaders" -name '*.shader_test' | sort | while read -r f; do
    rel="${f#"$shaders"/}"; rel="${rel%.shader_test}"
    mkdir -p "$out/$rel"
    info="/dev/null"; [ -z "$info_name" ] || info="$out/$rel/$info_name"
    line=$(env "${env_driver[@]}" "$dumpvar=$out/$rel" timeout 60 "$harness" "${harness_args[@]}" "$f" \
        2>&1 >"$info" | grep '^shader_test: ' | tail -1 || true)
    [ -n "$line" ] || line="shader_test: $f: FAILED crashed or timed out"
    echo "$rel: ${line#"shader_test: $f: "}" >> "$out/results.txt"
    [ "$info" = /dev/null ] || [ -s "$info" ] || rm -f "$info"
    rmdir "$out/$rel" 2>/dev/null || true
done
echo "$(grep -c ': linked' "$out/results.txt") linked of $(wc -l < "$out/results.txt") in $out/results.txt"
