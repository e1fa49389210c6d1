//! BonesPro exports from 3ds Max: structure files (bones and the mesh bound
//! to them) and animation files (per frame, bones or vertices), both text.

pub mod animation;
mod samples;
pub mod structure;
pub mod transform;

#[cfg(test)]
mod tests;

use crate::format::{self, Encoding, Format, Sample};
use crate::schema::text::TextSchema;
use crate::schema::Layout;

/// The structure file's registration.
pub static STRUCTURE: Format = Format {
    name: "bonespro-structure",
    title: "BonesPro structure export",
    extensions: &["txt"],
    encoding: Encoding::Text,
    sniff: structure::sniff,
    decode: |bytes| {
        Ok(format::text_document(structure::Structure::from_text(
            bytes,
        )?))
    },
    from_json: format::text_from_json::<structure::Structure>,
    layout: structure::Structure::LAYOUT,
    samples: || {
        vec![Sample {
            file_name: "bonespro-biped.txt",
            document: format::text_document(samples::biped()),
        }]
    },
    conversions: &[],
};

/// The animation file's registration.
pub static ANIMATION: Format = Format {
    name: "bonespro-animation",
    title: "BonesPro animation export",
    extensions: &["txt"],
    encoding: Encoding::Text,
    sniff: animation::sniff,
    decode: |bytes| {
        Ok(format::text_document(animation::Animation::from_text(
            bytes,
        )?))
    },
    from_json: format::text_from_json::<animation::Animation>,
    layout: animation::Animation::LAYOUT,
    samples: samples::animations,
    conversions: &[],
};
