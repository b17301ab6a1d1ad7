#!/bin/sh
# corpus/agx/libagx: Mesa 25.0.7's precompiled libagx compute kernels, as its build compiles them
# (tools/mesa/build_new.sh builds the tree; only the target src/asahi/lib/libagx_shaders.c is
# needed, ~65 ninja steps), extracted into wavesim's grid-kernel form by libagx_kernels.py. The
# disassembly goldens come from tools/agx/gen_binary_disasm.sh (needs APPLEGPU).
# Usage: sh tools/agx/build_libagx_corpus.sh MESA_NEW_WORKDIR
set -eu
work="${1:?usage: build_libagx_corpus.sh WORKDIR of tools/mesa/build_new.sh}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$work/venv/bin:$PATH" nice -n 19 ninja -C "$work/build" src/asahi/lib/libagx_shaders.c
kernels="libagx_copy_query libagx_copy_query_gl libagx_increment_statistic
    libagx_increment_cs_invocations libagx_write_u32 libagx_copy_timestamp libagx_write_u32s
    libagx_predicate_indirect:0 libagx_predicate_indirect:1 libagx_increment_ia
    libagx_copy_xfb_counters libagx_prefix_sum_geom libagx_increment_ia_restart libagx_helper
    libagx_draw_without_adj"
for v in $(seq 0 32); do kernels="$kernels libagx_unroll_restart:$v"; done
# shellcheck disable=SC2086
python3 "$ROOT/tools/agx/libagx_kernels.py" "$work/build" "$ROOT/corpus/agx/libagx" g13g $kernels
