//! The executor (work in progress).
