#!/usr/bin/env bash
# A newer Mesa for the AGX corpus (issue 27): Mesa 22.3's asahi gallium driver (tools/mesa/build.sh)
# has no compute shaders and no images; the asahi driver of Mesa 25.0 has both and starts on
# Linux under its no-op DRM shim (LD_PRELOAD=libasahi_noop_drm_shim.so).
#
# Source: Debian's bookworm-backports source package mesa 25.0.7-2~bpo12+1, of which only the
# upstream tarball (mesa_25.0.7.orig.tar.xz) is needed (apt-get source --tar-only; no patches).
# Build facts found on Debian 12:
#   - meson >= 1.1 is required (Debian 12 has 1.0.1): meson and Mesa's Python generators come
#     from pip into a venv (WORKDIR/venv);
#   - asahi needs Mesa's OpenCL C compiler (mesa_clc) for its libagx shaders, so LLVM cannot be
#     disabled: LLVM 15, libclang 15, libclc 15 and SPIRV-LLVM-Translator 15 from Debian 12;
#   - libdrm 2.4.114 (Debian 12) is enough: 2.4.121 is needed only with amdgpu drivers.
# It configures with the options below and builds (~1080 ninja steps). Note: upstream 25.0's
# asahi gallium screen refuses to probe (agx_screen_create returns NULL: no stable kernel UAPI
# upstream, and the code asks that this not be patched out), so EGL gets no asahi context even
# under the DRM shim; what this build gives wavesim is the compiler and libagx's precompiled
# kernels (tools/agx/build_libagx_corpus.sh).
#
# Usage: tools/mesa/build_new.sh [WORKDIR]   (default /tmp/wavesim-mesa-new; needs root for
# apt-get). JOBS (default 1) and NICE (default 19) set the build's parallelism and priority.
# The result: WORKDIR/install/{lib,...}, with WORKDIR/build/src/asahi/drm-shim/
# libasahi_noop_drm_shim.so.
set -euo pipefail
work="${1:-/tmp/wavesim-mesa-new}"
version="25.0.7-2~bpo12+1"
jobs="${JOBS:-1}"
nice_level="${NICE:-19}"
mkdir -p "$work"
cd "$work"
src_list=/etc/apt/sources.list.d/debian-backports-src.sources
if [ ! -f "$src_list" ]; then
    cat > "$src_list" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ninja-build bison flex pkg-config \
    libdrm-dev libexpat1-dev zlib1g-dev libelf-dev libzstd-dev libegl-dev libgles-dev libgl-dev \
    llvm-15-dev libclang-15-dev libclang-cpp15-dev libclc-15 libclc-15-dev \
    libllvmspirvlib-15-dev spirv-tools glslang-tools python3-venv >/dev/null
if [ ! -x venv/bin/meson ]; then
    python3 -m venv venv
    venv/bin/pip install --quiet meson mako pyyaml ply pycparser packaging
fi
export PATH="$work/venv/bin:$PATH"
if [ ! -d mesa-25.0.7 ]; then
    apt-get source --download-only --tar-only "mesa=$version"
    tar xJf mesa_25.0.7.orig.tar.xz
fi
cat > llvm15.ini <<'EOF'
[binaries]
llvm-config = '/usr/lib/llvm-15/bin/llvm-config'
EOF
if [ ! -f build/build.ninja ]; then
    meson setup build mesa-25.0.7 --native-file llvm15.ini --prefix="$work/install" \
        --buildtype=release -Dgallium-drivers=asahi -Dvulkan-drivers= -Dtools=drm-shim \
        -Dplatforms= -Degl=enabled -Dgles2=enabled -Dgles1=disabled -Dglx=disabled -Dgbm=disabled \
        -Dglvnd=disabled -Dllvm=enabled -Dshared-llvm=enabled -Dvalgrind=disabled \
        -Dlibunwind=disabled -Dbuild-tests=false -Dgallium-va=disabled -Dgallium-vdpau=disabled \
        -Dzstd=enabled -Dlmsensors=disabled -Dvideo-codecs=
fi
nice -n "$nice_level" ninja -C build -j "$jobs" install
