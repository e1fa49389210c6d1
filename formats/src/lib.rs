//! Ossuary's file formats, each described once as annotated Rust types.
//!
//! [`schema`] is the runtime `#[derive(Schema)]` expands to; each game family
//! has its own module.

// Lets the derive's `::formats::__private` paths resolve inside this crate too.
extern crate self as formats;

pub mod bonespro;
pub mod capabilities;
pub mod catalogue;
pub mod files;
pub mod format;
pub mod outcast;
pub mod rig;
pub mod schema;
pub mod sims;
pub mod swg;

pub use schema_derive::Schema;

/// What `#[derive(Schema)]` expansions call, and nothing else: the one path
/// through which generated code reaches the runtime (`#[schema(crate =
/// "...")]` names another root for it). Not public API.
#[doc(hidden)]
pub mod __private {
    pub use binrw;

    pub use crate::schema::check::{checked_at_byte, checking};
    pub use crate::schema::choice::{
        tag_taken, unknown_selector, unknown_tag, unknown_text_selector, variant_disagrees,
    };
    pub use crate::schema::collection::{
        check_condition, check_len, check_presence, context_len, encode_each, read_count,
        read_elements, read_flagged, read_to_end, read_vec, shared_len, write_count, write_each,
        write_flagged, FlagInt,
    };
    pub use crate::schema::iff::{
        check_absent_count, next_is, next_is_element, peek_form_type, peek_start, read_chunk,
        read_form, unknown_element, unknown_form, write_chunk, write_form, IffBody, IffElement,
        IffStart, Start, CHUNK_HEADER_SIZE, FORM_HEADER_SIZE,
    };
    pub use crate::schema::input::{decode_plain_next, read_plain_run};
    pub use crate::schema::markers::{read_magic, write_magic, CountField, NoContext};
    pub use crate::schema::output::{encode_plain_next, write_plain_run};
    pub use crate::schema::size::{add_fixed, add_min, add_plain, lesser_min};
    pub use crate::schema::string::{
        read_fixed_width, read_null_terminated, read_pascal, write_fixed_width,
        write_null_terminated, write_pascal,
    };
    #[cfg(feature = "testing")]
    pub use crate::schema::testing::{self, proptest};
    pub use crate::schema::text::checks::checked;
    pub use crate::schema::text::forms::{
        read_angle_bracketed, read_comment, read_keywords, read_line_string, read_or_none,
        read_token_line, read_vector, write_angle_bracketed, write_comment, write_keywords,
        write_line_string, write_or_none, write_token_line, write_vector,
    };
    pub use crate::schema::text::reader::{
        read_counted, read_flowing_list, read_lines_to_end, read_list,
    };
    pub use crate::schema::text::writer::{write_elements, write_flowing_list, write_list};
    pub use crate::schema::text::{
        Keyword, TextRead, TextReader, TextSchema, TextStyle, TextTokens, TextWrite, TextWriter,
    };
    pub use crate::schema::{
        BinarySchema, ByteOrder, ContextLayout, Decode, Encode, Endian, Error, FieldLayout,
        HasContext, Input, Layout, Output, Segment, TypeLayout,
    };

    /// Expands to its input when the `testing` feature is on, and to nothing
    /// otherwise: the generated round-trip test modules are wrapped in it.
    pub use crate::__testing_only as testing_only;
}

#[cfg(feature = "testing")]
#[doc(hidden)]
#[macro_export]
macro_rules! __testing_only {
    ($($item:tt)*) => { $($item)* };
}

#[cfg(not(feature = "testing"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __testing_only {
    ($($item:tt)*) => {};
}
