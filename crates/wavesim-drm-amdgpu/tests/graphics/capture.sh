#!/bin/sh
# Captures RADV's graphics pipelines through the DRM shim and makes the disassembly goldens
# tests/graphics_capture.rs checks wavesim's disassembler against.
#
# Builds the shaders (glslangValidator), draw.c (a C Vulkan program drawing one triangle) and
# the shim, then runs each pipeline on RADV (Debian's mesa-vulkan-drivers 22.3.6) through the
# shim with WAVESIM_DRM_CAPTURE set. The shim captures every draw of the submission and fails it
# (draws are not executed yet). The first draw is RADV's own render-pass clear (a meta
# pipeline), the second the program's triangle; both are kept:
#   captures/clear/      RADV's clear (from the tri run)
#   captures/tri/        tri.vert + tri.frag (vertices from gl_VertexIndex)
#   captures/vbuf/       vbuf.vert + ubo.frag (vertex buffer, push constants, uniform buffer)
#   captures/discard/    tri.vert + discard.frag (discard)
#   captures/deriv/      tri.vert + deriv.frag (dFdx, dFdy, fwidth)
#   captures/math/       tri.vert + math.frag (transcendentals, bit operations, a loop)
#   captures/flat/       flat.vert + flat.frag (flat integer, noperspective, clip distance)
#   captures/depth/      tri.vert + depth.frag (gl_FragDepth)
#   captures/tex/        tri.vert + tex.frag (a combined image sampler: sample with bias, with
#                        an explicit LOD, texel fetch); its draw is the third of the submission
#                        (vkCmdClearColorImage on the texture is a draw of RADV's too)
#   captures/math_w32/   math with RADV_PERFTEST=gewave32,pswave32 (wave32 programs)
# each with hw_gs.bin / hw_ps.bin (the programs), draw.txt, registers.txt (docs/DRM_SHIM.md)
# and hw_*.objdump: llvm-objdump-19's disassembly of each program in the wave size the
# registers select (VGT_SHADER_STAGES_EN.GS_W32_EN, SPI_PS_IN_CONTROL.PS_W32_EN).
# Needs: glslang-tools, a C compiler, libvulkan-dev, mesa-vulkan-drivers, llvm-19, cargo.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
cd "$here"
for f in *.vert *.frag; do
    glslangValidator -V --target-env vulkan1.2 -o "$f.spv" "$f" >/dev/null
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O1 -Wall -o "$tmp/draw" draw.c -lvulkan
(cd "$root" && cargo build --release -p wavesim-drm-amdgpu)
shim="$root/target/release/libwavesim_drm_amdgpu.so"

run() { # name mode vert frag [RADV_PERFTEST]
    mkdir -p "$tmp/cap/$1"
    status=0
    RADV_PERFTEST="${5:-}" WAVESIM_DRM_CAPTURE="$tmp/cap/$1" LD_PRELOAD="$shim" \
        VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/radeon_icd.x86_64.json \
        MESA_SHADER_CACHE_DISABLE=true XDG_RUNTIME_DIR="$tmp" \
        "$tmp/draw" "$2" "$3.spv" "$4.spv" "$tmp/$1.rgba" 2>"$tmp/$1.err" || status=$?
    # Exit status 2: the device was lost because the shim refused the draw, as it should.
    if [ "$status" != 2 ]; then
        cat "$tmp/$1.err" >&2
        echo "capture.sh: $1 exited with $status, expected 2 (draw refused)" >&2
        exit 1
    fi
}

keep() { # capture-dir name
    rm -rf "captures/$2"
    mkdir -p "captures/$2"
    cp "$1"/hw_*.bin "$1/draw.txt" "$1/registers.txt" "captures/$2/"
    for bin in "captures/$2"/hw_*.bin; do
        stage=$(basename "$bin" .bin)
        case $stage in
        hw_gs) reg=VGT_SHADER_STAGES_EN bit=22 ;;
        hw_ps) reg=SPI_PS_IN_CONTROL bit=15 ;;
        *) echo "capture.sh: no wave-size rule for $stage" >&2; exit 1 ;;
        esac
        value=$(awk -v r="$reg" '$3 == r { print $4 }' "captures/$2/registers.txt")
        if [ $(( (value >> bit) & 1 )) = 1 ]; then wave=32; mattr=; else wave=64; mattr=--mattr=+wavefrontsize64; fi
        words=$(od -An -v -tx4 "$bin" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//; s/ /, 0x/g; s/^/0x/')
        printf '.text\n.long %s\n' "$words" >"$tmp/prog.s"
        llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -filetype=obj "$tmp/prog.s" -o "$tmp/prog.o"
        {
            echo "# wave$wave: llvm-objdump-19 -d -z --mcpu=gfx1100 $mattr of $stage.bin (tests/graphics/capture.sh)"
            llvm-objdump-19 -d -z --mcpu=gfx1100 $mattr "$tmp/prog.o" | awk '
                /^\t/ {
                    n = split($0, p, "// ")
                    text = p[1]; sub(/^\t/, "", text); sub(/[ \t]+$/, "", text)
                    tail = p[n]; sub(/^[0-9A-Fa-f]+: /, "", tail); sub(/[ \t]+$/, "", tail)
                    sub(/ <.*$/, "", tail)
                    print tail "\t" text
                }'
        } >"captures/$2/$stage.objdump"
    done
}

run tri tri tri.vert tri.frag
run vbuf vbuf vbuf.vert ubo.frag
run discard tri tri.vert discard.frag
run deriv tri tri.vert deriv.frag
run math tri tri.vert math.frag
run flat tri flat.vert flat.frag
run depth tri tri.vert depth.frag
run tex tex tri.vert tex.frag
run math_w32 tri tri.vert math.frag gewave32,pswave32
keep "$(ls -d "$tmp"/cap/tri/*-draw-0000)" clear
for name in tri vbuf discard deriv math flat depth math_w32; do
    keep "$(ls -d "$tmp/cap/$name"/*-draw-0001)" "$name"
done
keep "$(ls -d "$tmp"/cap/tex/*-draw-0002)" tex
echo "capture.sh: captures/ updated"
