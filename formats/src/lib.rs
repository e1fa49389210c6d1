//! Ossuary's file formats, each described once as annotated Rust types.
//!
//! [`schema`] is the runtime `#[derive(Schema)]` expands to (the crate
//! `schema`, re-exported); each game family has its own module.
//!
//! A crate that depends on `formats` alone derives with [`Schema`], and
//! finds the runtime at `formats::schema`:
//!
//! ```
//! use formats::schema::BinarySchema;
//! use formats::Schema;
//!
//! #[derive(Debug, PartialEq, Schema)]
//! #[schema(little)]
//! struct Header {
//!     version: u16,
//!     #[schema(prefix = u8)]
//!     values: Vec<u32>,
//! }
//!
//! let header = Header::from_bytes(&[2, 0, 1, 7, 0, 0, 0]).unwrap();
//! assert_eq!(header, Header { version: 2, values: vec![7] });
//! assert_eq!(header.to_bytes().unwrap(), [2, 0, 1, 7, 0, 0, 0]);
//! ```

// The generated round-trip test of an object definition (`OBJD`, 80
// fields) nests its value strategies deeper than the default limit.
#![recursion_limit = "256"]

// Lets the derive's `::formats::__private` paths resolve inside this crate too.
extern crate self as formats;

pub mod bonespro;
pub mod capabilities;
pub mod catalogue;
pub mod explain;
pub mod files;
pub mod format;
pub mod objects;
pub mod outcast;
pub mod rig;
/// The schema runtime (the crate `schema`), re-exported so that
/// `formats::schema::...` paths name it.
pub use schema;
pub mod sims;
pub mod swg;

/// `#[derive(Schema)]` for a crate that depends on `formats` alone: the
/// derive of [`schema::Schema`], its expansions reaching the runtime
/// through `::formats` (which re-exports it) instead of `::schema`.
pub use schema_derive::SchemaInFormats as Schema;

/// What `#[derive(Schema)]` expansions call: the runtime's own hidden
/// module, re-exported so `::formats::__private` paths resolve. Not public
/// API.
#[doc(hidden)]
pub use schema::__private;
