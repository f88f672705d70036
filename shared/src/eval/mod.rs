//! Hand evaluation (placeholder until the evaluator lands).
