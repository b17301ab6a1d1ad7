#!/usr/bin/env bash
# One Mesa build for the three Mesa corpora (issues 27, 28, 29): Debian 12's own Mesa source
# package (22.3.6, the version of the RADV and llvmpipe that Debian installs), configured with
#   - the r600 gallium driver and Mesa's radeon no-op DRM shim (R700 shaders: RADEON_GPU_ID=RV770...),
#   - the asahi gallium driver, which in 22.3 starts on Linux without a kernel (its device layer is
#     IOKit-only): GALLIUM_DRIVER=asahi through the software-screen path (Mesa's
#     target-helpers/inline_sw_helper.h), which is why softpipe (swrast) is built too,
#   - EGL surfaceless + GLES2/GL so a small harness (tools/mesa/shader_test.c) compiles shader-db's
#     .shader_test files.
# RADV is not built: Debian's mesa-vulkan-drivers is the same 22.3.6 RADV and runs on wavesim's own
# amdgpu shim (crates/wavesim-drm-amdgpu).
#
# Neither driver has a switch that writes machine code out with the facts the driver sets up around
# it, so the source is given one (tools/mesa/patch_asahi.py: AGX_DUMP_DIR; tools/mesa/patch_r600.py:
# R600_DUMP_DIR); the corpus script (tools/mesa/run_corpus.sh) sets them.
#
# Usage: tools/mesa/build.sh [WORKDIR]   (default /tmp/wavesim-mesa; ~25 min on 2 cores; needs root
# for apt-get). The result: WORKDIR/install/{lib,...}.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="${1:-/tmp/wavesim-mesa}"
version="22.3.6-1+deb12u2"
mkdir -p "$work"
cd "$work"
if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
        > /etc/apt/sources.list.d/debian-src.sources
    apt-get update -qq
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq meson ninja-build python3-mako bison flex \
    libdrm-dev libexpat1-dev zlib1g-dev libelf-dev libzstd-dev pkg-config libegl-dev libgles-dev \
    libgl-dev glslang-tools >/dev/null
# Mesa's generators need mako in the python3 that meson finds.
python3 -c 'import mako' 2>/dev/null || python3 -m pip install --quiet mako
if [ ! -d mesa-22.3.6 ]; then
    apt-get source --download-only "mesa=$version"
    tar xzf mesa_22.3.6.orig.tar.gz
fi
python3 "$here/patch_asahi.py" mesa-22.3.6
python3 "$here/patch_r600.py" mesa-22.3.6
if [ ! -f build/build.ninja ]; then
    meson setup build mesa-22.3.6 --prefix="$work/install" --buildtype=release \
        -Dgallium-drivers=r600,asahi,swrast -Dvulkan-drivers= -Dtools=drm-shim \
        -Dplatforms= -Degl=enabled -Dgles2=enabled -Dgles1=disabled -Dglx=disabled -Dgbm=disabled \
        -Dglvnd=false -Dllvm=disabled -Dshared-llvm=disabled -Dvalgrind=disabled -Dlibunwind=disabled \
        -Dzstd=enabled -Dbuild-tests=false
fi
ninja -C build install
# Meson builds src/amd (and with it the radeon no-op DRM shim) only for radeonsi/RADV; build the
# shim here from its one source file, the drm-shim library and Mesa's util, with the flags meson
# gave the drm-shim library (patch_r600.py gives it the PCI identity libdrm needs).
shim_dir=build/src/amd/drm-shim
if [ ! -f "$shim_dir/libradeon_noop_drm_shim.so" ] \
    || [ mesa-22.3.6/src/amd/drm-shim/radeon_noop_drm_shim.c -nt "$shim_dir/libradeon_noop_drm_shim.so" ]; then
    mkdir -p "$shim_dir"
    flags=$(python3 -c 'import json,shlex,sys
for c in json.load(open("build/compile_commands.json")):
    if c["file"].endswith("drm-shim/device.c"):
        print(" ".join(a for a in shlex.split(c["command"]) if a.startswith("-D") or a.startswith("-std")))
        break')
    (cd build && eval cc -O2 -shared -fPIC -fvisibility=hidden "$flags" \
        -o src/amd/drm-shim/libradeon_noop_drm_shim.so \
        ../mesa-22.3.6/src/amd/drm-shim/radeon_noop_drm_shim.c -I../mesa-22.3.6/src/amd \
        -I../mesa-22.3.6/src/amd/common -I../mesa-22.3.6/src -I../mesa-22.3.6/include -Isrc \
        -I../mesa-22.3.6/src/util -I/usr/include/libdrm \
        -Wl,--whole-archive src/drm-shim/libdrm_shim.a -Wl,--no-whole-archive \
        src/util/libmesa_util.a src/util/libmesa_util_sse41.a -lz -lzstd -ldl -lpthread -lm)
fi
echo "built: $work/install (tools/mesa/run_corpus.sh compiles shader-db with it)"
