#!/bin/sh
# Build tools/agx/glsl_compute.c against Mesa 25.0.7's build tree (tools/mesa/build_new.sh WORKDIR):
# the compile flags are asahi_clc's (compile_commands.json), the libraries asahi_clc's plus the
# object holding libagx's NIR (libagx_shaders.c, which agx_preprocess_nir links against).
# Usage: sh tools/agx/build_glsl_compute.sh WORKDIR OUT_BINARY
set -eu
work="${1:?usage: build_glsl_compute.sh WORKDIR OUT_BINARY}"
out="${2:?usage: build_glsl_compute.sh WORKDIR OUT_BINARY}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
b="$work/build"
PATH="$work/venv/bin:$PATH" nice -n 19 ninja -C "$b" src/asahi/clc/asahi_clc \
    src/asahi/lib/libasahi_lib.a src/asahi/layout/libasahi_layout.a
flags=$(python3 - "$b" <<'PY'
import json, shlex, sys
for e in json.load(open(sys.argv[1] + '/compile_commands.json')):
    if e['file'].endswith('asahi_clc.c'):
        args = shlex.split(e['command'])[1:]
        keep, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ('-o', '-c', '-MF', '-MQ'):
                skip = True
                continue
            if a == '-MD' or a.endswith('asahi_clc.c'):
                continue
            keep.append(a)
        print(' '.join(shlex.quote(a) for a in keep))
        break
PY
)
cd "$b"
# shellcheck disable=SC2086
src=$(sed -n 's/.*--internal regenerate \([^ ]*\) .*/\1/p' build.ninja | head -n 1)
eval cc $flags -I"$src/src/asahi/compiler" -I"$src/src/asahi/lib" -I"$src/src/asahi" \
    -I"$src/src/asahi/layout" -I"$src/src/asahi/genxml" -Isrc/asahi/lib -Isrc/asahi/genxml \
    -Wno-error=missing-prototypes -c "$ROOT/tools/agx/glsl_compute.c" -o "$out.o"
c++ -o "$out" "$out.o" src/asahi/lib/libasahi_lib.a.p/meson-generated_.._libagx_shaders.c.o \
    -Wl,--start-group src/asahi/lib/libasahi_lib.a src/asahi/layout/libasahi_layout.a \
    src/asahi/compiler/libasahi_compiler.a src/compiler/nir/libnir.a \
    src/compiler/libcompiler.a src/util/libmesa_util.a src/util/libmesa_util_sse41.a \
    src/util/blake3/libblake3.a src/c11/impl/libmesa_util_c11.a src/compiler/spirv/libvtn.a \
    /usr/lib/x86_64-linux-gnu/libSPIRV-Tools-opt.a /usr/lib/x86_64-linux-gnu/libSPIRV-Tools.a \
    -lz -pthread -lm -lzstd -Wl,--end-group
