//! dealer (being built).
