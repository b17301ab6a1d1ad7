#!/bin/sh
# Renders every runnable pipeline of corpus/radv/shader-db (built by tools/radv/shader_db.py)
# with lavapipe (Mesa's CPU Vulkan driver, Debian's mesa-vulkan-drivers) and writes the goldens
# crates/wavesim-drm-amdgpu/tests/radv_shader_db.rs compares RADV-on-wavesim with:
# corpus/radv/shader-db/NAME.png (64x64 RGBA8).
# Needs: mesa-vulkan-drivers, libvulkan1, cargo.
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -f corpus/radv/shader-db/*.png
cargo test --release -p wavesim-drm-amdgpu --test radv_shader_db -- --ignored --exact write_goldens --nocapture
echo "shader_db_goldens.sh: corpus/radv/shader-db/*.png updated"
