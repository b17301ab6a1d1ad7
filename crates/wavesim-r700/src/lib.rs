//! AMD R700 (rv770, rv730, rv710) for wavesim: seed 003's program state; work in progress.
