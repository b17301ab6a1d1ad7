//! Apple AGX (G13) for wavesim: seed 001's split-program register ABI; work in progress.
