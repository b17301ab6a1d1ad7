#!/usr/bin/env bash
# Rebuilds corpus/hip/kernels.co: a clang offload bundle (what `hipcc --genco` writes) of
# kernels.hip for gfx1030 and gfx1100, so that wavesim has to pick the gfx11 entry.
# Needs clang-19 only (no HIP headers or device libraries: -nogpuinc -nogpulib).
# With Debian's hipcc the same bundle comes from: hipcc --genco --offload-arch=gfx1100 kernels.hip
set -euo pipefail
export LC_ALL=C TZ=UTC
cd "$(dirname "${BASH_SOURCE[0]}")"
clang-19 -x hip --offload-arch=gfx1030 --offload-arch=gfx1100 -nogpulib -nogpuinc \
    --cuda-device-only -O2 -c kernels.hip -o kernels.co
clang-offload-bundler-19 --list --type=o --input=kernels.co > kernels.entries
echo "built kernels.co: $(tr '\n' ' ' < kernels.entries)"
