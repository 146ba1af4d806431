//! The compiled kernels of mtpalette: loops over int-encoded tokens.
//!
//! Two floors. The compute modules below know nothing of Python: they take slices and
//! `Grid`s, return `Vec`s, refuse bad input with an `InputError`, and run their parallel
//! loops on rayon's pool; `cargo test` tests them on their own. The binding (`python.rs`,
//! built with the `python` feature, as maturin does) is the only module that knows PyO3 and
//! numpy: it converts arrays and errors, releases the GIL around the work, and registers every
//! function of `mtpalette._core`. Python reaches the core only through `mtpalette.kernels`.
//! `unsafe` only around SSE2 intrinsics (the byte masks of the text tokenizers).

// the kernels follow their papers' index-based recurrences
#![allow(clippy::needless_range_loop)]

// shared by the kernels
pub mod error;
pub mod grid;
pub mod pairs;
pub mod parallel;
mod table;

// the kernels, one module per family
pub mod acs;
pub mod analysis;
pub mod bleu_text;
pub mod chrf;
pub mod chrf_text;
pub mod distinct;
pub mod edit;
pub mod encode_text;
pub mod gtm;
pub mod interning;
pub mod lcs_bits;
pub mod legacy_mt;
pub mod local_ngrams;
pub mod ngram;
pub mod nist;
pub mod pairwise;
pub mod porter;
pub mod rouge_lsum;
pub mod rouge_score_tok;
pub mod rouge_text;
pub mod scores;
pub mod scratch;
pub mod sign_sums;
pub mod skipbigram;
pub mod stats;
pub mod subsequence;
pub mod ter;
pub mod text_pairs;
pub mod token_keys;
pub mod tokenize;
pub mod tokenize_bytes;
pub mod vocab;

// the Python binding
#[cfg(feature = "python")]
mod python;
