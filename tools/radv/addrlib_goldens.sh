#!/usr/bin/env bash
# Regenerates, from Mesa's addrlib (the library RADV lays images out with) for gfx1100 through
# tools/radv/addrlib_golden.cpp:
# - crates/wavesim-rdna3/tests/golden/addrlib_gfx11.txt: texel addresses of linear and tiled
#   surfaces (the test tests/gfx_image_layout.rs);
# - crates/wavesim-rdna3/src/exec/image/swizzle_equations.rs: the swizzle modes' address
#   equations wavesim lays tiled images out with (exec::image::swizzle). addrlib is compiled here from a Mesa 22.3.6 source tree (the
# version of Debian 12's RADV): MESA_SRC, or the tree tools/mesa/build.sh unpacks.
#
# Usage: tools/radv/addrlib_goldens.sh [MESA_SRC]   (needs g++; ~1 min on 2 cores)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
src="${1:-${MESA_SRC:-/tmp/wavesim-mesa/mesa-22.3.6}}"
addr="$src/src/amd/addrlib"
[ -d "$addr" ] || { echo "no addrlib at $addr (run tools/mesa/build.sh or give MESA_SRC)" >&2; exit 1; }
work="${ADDRLIB_OBJ_DIR:-/tmp/wavesim-addrlib}"   # addrlib's objects, kept for reruns
mkdir -p "$work"
inc=(-I"$addr/inc" -I"$addr/src" -I"$addr/src/core" -I"$addr/src/chip/gfx9" -I"$addr/src/chip/gfx10"
     -I"$addr/src/chip/gfx11" -I"$addr/src/chip/r800" -I"$src/include" -I"$src/src")
objs=()
for f in "$addr"/src/addrinterface.cpp "$addr"/src/core/*.cpp "$addr"/src/gfx9/*.cpp \
         "$addr"/src/gfx10/*.cpp "$addr"/src/gfx11/*.cpp "$addr"/src/r800/*.cpp; do
    o="$work/$(basename "$f" .cpp).o"
    [ "$o" -nt "$f" ] || g++ -O1 -w -DADDR_FASTCALL= -DLITTLEENDIAN_CPU "${inc[@]}" -c "$f" -o "$o"
    objs+=("$o")
done
g++ -O1 -w -DLITTLEENDIAN_CPU "${inc[@]}" "$here/addrlib_golden.cpp" "${objs[@]}" -o "$work/addrlib_golden"
"$work/addrlib_golden" > "$repo/crates/wavesim-rdna3/tests/golden/addrlib_gfx11.txt"
wc -l "$repo/crates/wavesim-rdna3/tests/golden/addrlib_gfx11.txt"
"$work/addrlib_golden" equations > "$repo/crates/wavesim-rdna3/src/exec/image/swizzle_equations.rs"
# HTILE (depth metadata) addresses: tools/radv/addrlib_htile.cpp, for
# crates/wavesim-rdna3/tests/golden/addrlib_htile_gfx11.txt (tests/gfx_htile.rs) and
# crates/wavesim-rdna3/src/exec/image/htile_equations.rs (exec::image::htile).
g++ -O1 -w -DLITTLEENDIAN_CPU "${inc[@]}" "$here/addrlib_htile.cpp" "${objs[@]}" -o "$work/addrlib_htile"
"$work/addrlib_htile" > "$repo/crates/wavesim-rdna3/tests/golden/addrlib_htile_gfx11.txt"
"$work/addrlib_htile" equations > "$repo/crates/wavesim-rdna3/src/exec/image/htile_equations.rs"
