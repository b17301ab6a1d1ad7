#!/bin/sh
# Compile wavesim's grid kernels (corpus/agx/kernels/*.cl) to G13 machine code with Mesa's asahi_clc
# at Mesa 702c038b916, extended by tools/agx/asahi_clc_kernels.patch so that it
# also compiles exported functions as compute kernels whose arguments live in uniforms.
#
# Why a patch: at that version asahi_clc compiles only `libagx_helper` to machine code (no entry
# points with arguments). Later Mesa (asahi_clc with nir_precompiled.h) precompiles every kernel with
# this rule, which the patch applies with that version's compiler:
#   - the argument at byte offset B is `load_preamble` with base B / 2 (uniform half B / 2);
#   - arguments are laid out in order, each aligned to its own size and to at least 2 bytes;
#   - the key reserves those uniforms (reserved_preamble = bytes / 2) and promotes constants to
#     uniforms (immediates, which the driver pushes at immediate_base_uniform).
# Workgroups are 32x1x1; OpenCL's global offset is zero.
#
# Outputs per kernel NAME: corpus/agx/kernels/NAME.bin (the code: main part at main_offset, the
# preamble at preamble_offset) and NAME.toml (what asahi_clc reports: argument layout, registers,
# preamble, immediates).
#
# Usage: MESA_SRC=/path/to/mesa-702c038b916 MESA_BUILD=/path/to/its/build sh tools/agx/build_clc_grid_kernels.sh
# MESA_BUILD is a configured and built tree as in /work/shared/TOOLCHAIN.md (ninja -C build
# src/asahi/clc/asahi_clc); the patched asahi_clc is compiled and linked with that build's own
# commands into a temporary directory (Mesa's tree is not modified).
set -eu
: "${MESA_SRC:?set MESA_SRC to Mesa's source tree at 702c038b916}"
: "${MESA_BUILD:?set MESA_BUILD to its meson build directory}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SRC="$ROOT/corpus/agx/kernels"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cp "$MESA_SRC/src/asahi/clc/asahi_clc.c" "$TMP/asahi_clc.c"
(cd "$TMP" && patch -s -p4 < "$ROOT/tools/agx/asahi_clc_kernels.patch")
cd "$MESA_BUILD"
python3 - "$TMP" <<'PY'
import json, os, subprocess, sys
tmp = sys.argv[1]
cc = [c for c in json.load(open('compile_commands.json')) if c['file'].endswith('asahi/clc/asahi_clc.c')][0]
cmd = cc['command'].replace('-o src/asahi/clc/asahi_clc.p/asahi_clc.c.o', '-o %s/asahi_clc.o' % tmp)
cmd = cmd.replace('-c ../src/asahi/clc/asahi_clc.c', '-c %s/asahi_clc.c' % tmp)
subprocess.check_call(cmd, shell=True)
link = subprocess.check_output(['ninja', '-t', 'commands', 'src/asahi/clc/asahi_clc'], text=True).strip().splitlines()[-1]
link = link.replace('-o src/asahi/clc/asahi_clc src/asahi/clc/asahi_clc.p/asahi_clc.c.o',
                    '-o %s/asahi_clc %s/asahi_clc.o' % (tmp, tmp))
subprocess.check_call(link, shell=True)
PY

for cl in "$SRC"/*.cl; do
    name=$(basename "$cl" .cl)
    MESA_SHADER_CACHE_DISABLE=true WAVESIM_KERNELS="wk_$name" "$TMP/asahi_clc" --prefix "wavesim_$name" \
        -i "$cl" -o "$TMP/$name.h" -- -cl-std=cl2.0 -D__OPENCL_VERSION__=200
    python3 - "$TMP/$name.h" "wk_$name" "$SRC/$name.bin" "$SRC/$name.toml" <<'PY'
import re, struct, sys
text, entry, bin_out, toml_out = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3], sys.argv[4]
def words(array):
    m = re.search(r'%s_%s\[\] = \{([^}]*)\}' % (entry, array), text)
    return [int(w, 16) for w in re.findall(r'0x([0-9a-fA-F]+)', m.group(1))] if m else []
code = words('code')
open(bin_out, 'wb').write(struct.pack('<%dI' % len(code), *code))
report = re.search(r'/\* wavesim_kernel %s args(.*?) size_B=(.*?)\*/' % entry, text)
args = [[int(x) for x in re.split('[:x]', a)] for a in report.group(1).split()]
info = dict(kv.split('=') for kv in ('size_B=' + report.group(2)).split())
imm = []
for w in words('immediates'):
    imm += [w & 0xFFFF, w >> 16]
imm = imm[:int(info['imm_size16'])]
with open(toml_out, 'w') as f:
    f.write('# asahi_clc report for %s (tools/agx/build_clc_grid_kernels.sh)\n' % entry)
    f.write('entry = "%s"\nworkgroup = [32, 1, 1]\n' % entry)
    f.write('# [byte offset, components, bits] per argument\nargs = %s\n' % args)
    for key, name in [('size_B', 'args_size'), ('nr_gprs', 'nr_gprs'), ('nr_preamble_gprs', 'nr_preamble_gprs'),
                      ('preamble_offset', 'preamble_offset'), ('main_offset', 'main_offset'),
                      ('push_count', 'push_count'), ('local_size', 'local_size'), ('scratch', 'scratch'),
                      ('imm_base', 'immediate_base')]:
        f.write('%s = %s\n' % (name, info[key]))
    f.write('has_preamble = %s\n' % ('true' if info['has_preamble'] == '1' else 'false'))
    f.write('immediates = %s\n' % imm)
PY
    echo "$name: $(wc -c < "$SRC/$name.bin") bytes"
done
