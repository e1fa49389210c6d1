//! What the benchmarks in `benches/` share: synthetic inputs and the
//! baselines ossuary is measured against. Run them with `cargo bench`
//! (BENCHMARKS.md says how to read them); `--features ozz` adds
//! ozz-animation as a baseline, built from its source.

pub mod contest;
pub mod floor;
pub mod hand;
pub mod hand_sprite;
pub mod keys;
pub mod layouts;
pub mod naive;
#[cfg(feature = "ozz")]
pub mod ozz;
pub mod scalar;
pub mod synthetic;
pub mod threads;
pub mod twins;
pub mod weighted;
