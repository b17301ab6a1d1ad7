#!/usr/bin/env bash
# Runs the model of the JIT callback protocol under Miri (needs `rustup component add miri
# rust-src --toolchain nightly`): the protocol must pass under Stacked and Tree Borrows, and the
# old derivation must be reported as undefined behaviour under both (so the check can fail).
# Also checks that jit/cache.rs still derives the register pointers as the model does.
set -euo pipefail
cd "$(dirname "$0")"
cache=../../crates/wavesim-rdna3/src/jit/cache.rs
for line in 'std::ptr::addr_of_mut!((*wave).sgpr).cast::<u32>(),' \
            '(*std::ptr::addr_of_mut!((*wave).vgpr)).as_mut_ptr(),' \
            'std::ptr::addr_of_mut!((*wave).scc).cast::<u8>(),'; do
    grep -qF "$line" "$cache" || { echo "jit/cache.rs no longer has: $line" >&2; exit 1; }
done
for model in "" "-Zmiri-tree-borrows"; do
    MIRIFLAGS="$model" cargo +nightly miri test -q --lib >/tmp/miri-callenv.log 2>&1 || { cat /tmp/miri-callenv.log >&2; exit 1; }
    grep -q "test result: ok. 1 passed" /tmp/miri-callenv.log || { cat /tmp/miri-callenv.log >&2; exit 1; }
    if MIRIFLAGS="$model" cargo +nightly miri test -q --lib -- --ignored >/tmp/miri-callenv.log 2>&1; then
        echo "Miri ($model) accepted the old derivation; the model no longer shows the bug" >&2
        exit 1
    fi
    grep -q "Undefined Behavior" /tmp/miri-callenv.log || { cat /tmp/miri-callenv.log >&2; exit 1; }
    echo "Miri ${model:-(stacked borrows)}: protocol ok, old derivation rejected as undefined behaviour"
done
