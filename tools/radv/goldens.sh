#!/bin/sh
# Renders every case of crates/wavesim-drm-amdgpu/tests/radv_draw.rs with lavapipe (Mesa's CPU
# Vulkan driver, Debian's mesa-vulkan-drivers) and writes the goldens the test compares
# RADV-on-wavesim with: crates/wavesim-drm-amdgpu/tests/graphics/goldens/NAME.rgba (64x64
# RGBA8, rows packed). The SPIR-V comes from tests/graphics/capture.sh's glslangValidator step.
# Needs: mesa-vulkan-drivers, libvulkan1, cargo.
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cargo test --release -p wavesim-drm-amdgpu --test radv_draw -- --ignored --exact write_goldens
# tests/radv_mips.rs's mip-mapped texture read at every level: goldens/mips.png.
cargo test --release -p wavesim-drm-amdgpu --test radv_mips -- --ignored --exact write_golden
echo "goldens.sh: crates/wavesim-drm-amdgpu/tests/graphics/goldens/ updated"
