//! Equity (placeholder until it lands).
