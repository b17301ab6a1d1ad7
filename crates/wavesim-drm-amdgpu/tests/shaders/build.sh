#!/bin/sh
# Compiles the Vulkan compute shaders the DRM shim tests run (GLSL -> SPIR-V with Debian's
# glslang-tools 12.0.0). The .spv files are committed; run this after changing a .comp file.
set -e
cd "$(dirname "$0")"
for f in *.comp; do
    glslangValidator -V --target-env vulkan1.2 -o "${f%.comp}.spv" "$f"
done
