#!/bin/sh
# Runs every pipeline of corpus/radv/shader-db-vs (built by tools/radv/shader_db_vs.py) on
# lavapipe (Mesa's CPU Vulkan driver, Debian's mesa-vulkan-drivers) and writes the goldens
# crates/wavesim-drm-amdgpu/tests/radv_shader_db_vs.rs compares RADV-on-wavesim with:
# corpus/radv/shader-db-vs/NAME.out (per output slot, 16x4 texels of 4 little-endian f32).
# Needs: mesa-vulkan-drivers, libvulkan1, cargo.
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -f corpus/radv/shader-db-vs/*.out
cargo test --release -p wavesim-drm-amdgpu --test radv_shader_db_vs -- --ignored --exact write_goldens --nocapture
echo "shader_db_vs_goldens.sh: corpus/radv/shader-db-vs/*.out updated"
