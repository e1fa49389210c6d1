//! BonesPro exports from 3ds Max: structure files (bones and the mesh bound
//! to them) and animation files (per frame, bones or vertices), both text.

pub mod animation;
mod samples;
pub mod structure;
pub mod transform;

#[cfg(test)]
mod tests;

use crate::format::{self, Format, Sample};

/// The structure file's registration.
pub static STRUCTURE: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "bonespro-biped.txt",
            document: format::text_document(samples::biped()),
        }]
    },
    ..Format::text::<structure::Structure>(
        "bonespro-structure",
        "BonesPro structure export",
        &["txt"],
        structure::sniff,
    )
};

/// The animation file's registration.
pub static ANIMATION: Format = Format {
    samples: samples::animations,
    ..Format::text::<animation::Animation>(
        "bonespro-animation",
        "BonesPro animation export",
        &["txt"],
        animation::sniff,
    )
};
