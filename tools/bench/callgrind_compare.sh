#!/usr/bin/env bash
# Instructions executed by two wavesim binaries on the same runs, counted by valgrind's callgrind:
# repeatable whatever else the machine is doing, so a before/after comparison needs no idle machine.
#   tools/bench/callgrind_compare.sh BEFORE/wavesim AFTER/wavesim
# (build BEFORE with `git worktree add /tmp/before REV && cargo build --release -p wavesim` there).
set -euo pipefail
cd "$(dirname "$0")/../.."
before="$1"; after="$2"
runs=(
  "hash_mix run corpus/gfx1100-w32/hash_mix.hsaco --kernel hash_mix --global 512 --local 64 --arg buf:corpus/data/hash_mix.a0.bin --arg zeros:4096 --arg zeros:4096 --arg u32:2000 --arg u32:512"
  "mandelbrot run corpus/gfx1100-w32/mandelbrot.hsaco --kernel mandelbrot --global 64,32 --local 16,4 --arg zeros:8192 --arg u32:64 --arg u32:32 --arg f32:-2 --arg f32:-1 --arg f32:0.046875 --arg u32:256"
)
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*I *refs: *//p' | tr -d ,; }
printf '| run | engine | before | after | change |\n| --- | --- | ---: | ---: | ---: |\n'
for r in "${runs[@]}"; do
  name="${r%% *}"; args="${r#* }"
  for engine in interp jit; do
    # shellcheck disable=SC2086
    b=$(count "$before" $args --engine "$engine"); a=$(count "$after" $args --engine "$engine")
    printf '| %s | %s | %s | %s | %+.2f%% |\n' "$name" "$engine" "$b" "$a" \
      "$(echo "($a - $b) * 100 / $b" | bc -l)"
  done
done
