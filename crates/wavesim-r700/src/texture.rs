//! Texture sampling (work in progress).
