//! Ossuary's file formats, each described once as annotated Rust types.
//!
//! [`schema`] is the runtime `#[derive(Schema)]` expands to; each game family
//! has its own module.

// Lets the derive's `::formats::schema` paths resolve inside this crate too.
extern crate self as formats;

pub mod catalogue;
pub mod files;
pub mod format;
pub mod rig;
pub mod schema;
pub mod sims;
pub mod swg;

pub use schema_derive::Schema;
