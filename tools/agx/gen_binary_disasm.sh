#!/bin/sh
# Disassembly goldens for the real binaries under corpus/agx: runs applegpu's disassemble.py (path in
# $APPLEGPU) on each .bin and writes NAME.applegpu.txt next to it.
# Usage: APPLEGPU=/path/to/applegpu sh tools/agx/gen_binary_disasm.sh
set -eu
: "${APPLEGPU:?set APPLEGPU to an applegpu checkout}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
for bin in "$ROOT"/corpus/agx/*.bin "$ROOT"/corpus/agx/clc/*.bin; do
    [ -f "$bin" ] || continue
    env -u APPLEGPU_CRYPTIC python3 "$APPLEGPU/disassemble.py" "$bin" > "${bin%.bin}.applegpu.txt"
    echo "$(basename "$bin"): $(wc -l < "${bin%.bin}.applegpu.txt") lines"
done
