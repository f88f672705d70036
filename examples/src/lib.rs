//! Example bots (being built).
