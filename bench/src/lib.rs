//! What the benchmarks in `benches/` share: synthetic inputs and the
//! baselines ossuary is measured against. Run them with `cargo bench`
//! (BENCHMARKS.md says how to read them).

pub mod hand;
pub mod naive;
pub mod scalar;
pub mod synthetic;
pub mod threads;
pub mod twins;
