#!/bin/sh
# Compile wavesim's AGX test kernels (corpus/agx/clc/*.cl) with Mesa's asahi_clc at Mesa 702c038b916
# (Mesa 702c038b916, the last commit before 7faca2220cb) and extract the G13 machine code.
#
# That asahi_clc compiles the function `libagx_helper` of its input to G13 machine code and prints it
# as the C array `libagx_g13_helper`; each kernel is written as such a function (see common.h).
#
# Optionally (MESA_SRC and MESA_BUILD set) it also compiles Mesa's own libagx shader library the way
# Mesa's build does, which yields Mesa's compiled helper program (corpus/agx/mesa_libagx_g13_helper.bin).
#
# Usage: ASAHI_CLC=/path/to/build/src/asahi/clc/asahi_clc [MESA_SRC=... MESA_BUILD=...] \
#        sh tools/agx/build_clc_kernels.sh
# (Building asahi_clc itself: see /work/shared/TOOLCHAIN.md; this script does not build Mesa.)
set -eu
: "${ASAHI_CLC:?set ASAHI_CLC to an asahi_clc binary}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC="$ROOT/corpus/agx/clc"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

extract() { # header -> binary file (little-endian u32 words of libagx_g13_helper)
    python3 - "$1" "$2" <<'PY'
import re, struct, sys
text = open(sys.argv[1]).read()
m = re.search(r'libagx_g13_helper\[\] = \{([^}]*)\}', text)
words = [int(w, 16) for w in re.findall(r'0x([0-9a-fA-F]+)', m.group(1))]
open(sys.argv[2], 'wb').write(struct.pack('<%dI' % len(words), *words))
PY
}

for cl in "$SRC"/*.cl; do
    name=$(basename "$cl" .cl)
    MESA_SHADER_CACHE_DISABLE=true "$ASAHI_CLC" --prefix "wavesim_$name" -i "$cl" -o "$TMP/$name.h" -- \
        -cl-std=cl2.0 -D__OPENCL_VERSION__=200 -I"$SRC"
    extract "$TMP/$name.h" "$SRC/$name.bin"
    echo "$name: $(wc -c < "$SRC/$name.bin") bytes"
done

if [ -n "${MESA_SRC:-}" ] && [ -n "${MESA_BUILD:-}" ]; then
    set --
    # the input list of Mesa's libagx_shaders target (src/asahi/lib/meson.build)
    for f in libagx.h compression.cl draws.cl draws.h geometry.cl geometry.h query.cl query.h \
             tessellation.cl tessellator.cl tessellator.h texture.cl helper.cl; do
        set -- "$@" --in "$MESA_SRC/src/asahi/lib/shaders/$f"
    done
    MESA_SHADER_CACHE_DISABLE=true "$ASAHI_CLC" --prefix libagx_shaders "$@" -o "$TMP/libagx_shaders.h" -- \
        -cl-std=cl2.0 -D__OPENCL_VERSION__=200 -I"$MESA_SRC/src/asahi/lib" -I"$MESA_SRC/src" \
        -I"$MESA_SRC/src/asahi/lib/shaders" -I"$MESA_BUILD/src/asahi/genxml"
    extract "$TMP/libagx_shaders.h" "$ROOT/corpus/agx/mesa_libagx_g13_helper.bin"
    echo "mesa helper: $(wc -c < "$ROOT/corpus/agx/mesa_libagx_g13_helper.bin") bytes"
fi
