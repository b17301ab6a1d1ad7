#!/bin/sh
# Disassembly goldens for the real binaries under corpus/agx: runs applegpu's disassemble.py (path in
# $APPLEGPU) on each .bin and writes NAME.applegpu.txt next to it (the script's default listing, which
# ends after the first `stop`) and NAME.applegpu_all.txt (the same script with its STOP_ON_STOP switch
# off: every byte to the end, which is what wavesim's raw listing prints).
# Usage: APPLEGPU=/path/to/applegpu sh tools/agx/gen_binary_disasm.sh
set -eu
: "${APPLEGPU:?set APPLEGPU to an applegpu checkout}"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# A copy of disassemble.py with STOP_ON_STOP = False, next to applegpu.py so that its import works.
ALL="$APPLEGPU/disassemble_all_bytes.py"
sed 's/^STOP_ON_STOP = True$/STOP_ON_STOP = False/' "$APPLEGPU/disassemble.py" > "$ALL"
grep -q '^STOP_ON_STOP = False$' "$ALL" || { echo "disassemble.py has no STOP_ON_STOP switch" >&2; exit 1; }
trap 'rm -f "$ALL"' EXIT
for bin in "$ROOT"/corpus/agx/*.bin "$ROOT"/corpus/agx/clc/*.bin; do
    [ -f "$bin" ] || continue
    env -u APPLEGPU_CRYPTIC python3 "$APPLEGPU/disassemble.py" "$bin" > "${bin%.bin}.applegpu.txt"
    env -u APPLEGPU_CRYPTIC python3 "$ALL" "$bin" > "${bin%.bin}.applegpu_all.txt"
    echo "$(basename "$bin"): $(wc -l < "${bin%.bin}.applegpu.txt") lines"
done
# Grid kernels: the main part from offset 0 and, when asahi_clc reports one, the preamble from its
# offset (disassemble.py lists raw code from its start, so the preamble is cut out first).
for bin in "$ROOT"/corpus/agx/kernels/*.bin; do
    [ -f "$bin" ] || continue
    env -u APPLEGPU_CRYPTIC python3 "$APPLEGPU/disassemble.py" "$bin" > "${bin%.bin}.applegpu.txt"
    env -u APPLEGPU_CRYPTIC python3 "$ALL" "$bin" > "${bin%.bin}.applegpu_all.txt"
    off=$(sed -n 's/^preamble_offset = //p' "${bin%.bin}.toml")
    if grep -q '^has_preamble = true' "${bin%.bin}.toml"; then
        tail -c +$((off + 1)) "$bin" > "${bin%.bin}.preamble.tmp"
        env -u APPLEGPU_CRYPTIC python3 "$APPLEGPU/disassemble.py" "${bin%.bin}.preamble.tmp" \
            > "${bin%.bin}.preamble.applegpu.txt"
        rm "${bin%.bin}.preamble.tmp"
    fi
    echo "$(basename "$bin"): $(wc -l < "${bin%.bin}.applegpu.txt") lines"
done
# Mesa 25.0's libagx kernels (tools/agx/libagx_kernels.py): the promoted constants come first, so
# the listing of every byte starts at the main part (main_offset).
for bin in "$ROOT"/corpus/agx/libagx/*.bin; do
    [ -f "$bin" ] || continue
    off=$(sed -n 's/^main_offset = //p' "${bin%.bin}.toml")
    tail -c +$((off + 1)) "$bin" > "${bin%.bin}.main.tmp"
    env -u APPLEGPU_CRYPTIC python3 "$ALL" "${bin%.bin}.main.tmp" > "${bin%.bin}.applegpu_all.txt"
    rm "${bin%.bin}.main.tmp"
    echo "$(basename "$bin"): $(wc -l < "${bin%.bin}.applegpu_all.txt") lines"
done
