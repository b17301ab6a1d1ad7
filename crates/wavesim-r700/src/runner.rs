//! The runner (work in progress).
