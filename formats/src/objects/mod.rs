//! The Sims' object files (IFF 2.5): the container of The Sims' and The
//! Sims Online's objects, walls, floors and sprite files, FreeSO's own
//! objects included, and every chunk type they hold.
//!
//! The container is [`file::IffFile`]; each chunk type's payload is a
//! schema type of its own module, little-endian as the game stores it.
//! Beside the layouts: a sprite frame drawn to RGBA and made from it
//! ([`sprites`]), a draw group composed ([`draw_group`]), the objects a
//! file defines and its resource map kept in step ([`mod@file`]).

pub mod behavior;
pub mod definition;
pub mod draw_group;
pub mod file;
pub mod image;
pub mod interactions;
pub mod mesh;
pub mod names;
pub mod old_sprites;
pub mod palette;
pub mod pixels;
pub mod resource_map;
pub mod samples;
pub mod slots;
pub mod sprites;
pub mod strings;

use serde::{Deserialize, Serialize};

use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::Rig;
use crate::Schema;
use file::IffFile;

/// A filler chunk (`XXXX`): what is left where a tool deleted a chunk.
/// The game skips it; its bytes are the deleted chunk's leftovers, kept as
/// found.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Filler {
    /// The leftover bytes.
    #[schema(to_end)]
    pub bytes: Vec<u8>,
}

/// A chunk no reader describes (`POSI`, found in one object; FreeSO and
/// the editors skip it): its bytes, as found.
#[derive(Debug, Clone, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Undescribed {
    /// The chunk's bytes.
    #[schema(to_end)]
    pub bytes: Vec<u8>,
}

impl Describe for IffFile {
    fn describe(&self) -> Description {
        let mut facts = vec![
            ("signature", file::signature_text(&self.signature)),
            ("chunks", self.chunks.len().to_string()),
        ];
        let disagreements = self.resource_map_disagreements();
        facts.push((
            "resource map",
            match (
                self.chunks.iter().any(|chunk| &chunk.kind.tag == b"rsmp"),
                disagreements.first(),
            ) {
                (false, _) => "none".to_owned(),
                (true, None) => "agrees with the chunks".to_owned(),
                (true, Some(first)) => format!(
                    "{} disagreement(s) with the chunks, the first: {first}",
                    disagreements.len()
                ),
            },
        ));
        for object in self.objects() {
            facts.push((
                "object",
                format!(
                    "{} (OBJD {}, GUID {:#010x})",
                    object.name, object.id, object.guid
                ),
            ));
        }
        for chunk in &self.chunks {
            let label = crate::schema::RawString(chunk.label_text().to_vec());
            facts.push((
                "chunk",
                format!("{} {} {label}", chunk.kind, chunk.id)
                    .trim_end()
                    .to_owned(),
            ));
        }
        Description {
            facts,
            joints: Vec::new(),
        }
    }
}

/// An object file holds no skeleton or skinned mesh.
impl Rig for IffFile {}

/// The object files' registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "chair.iff",
            document: format::binary_document(samples::chair()),
        }]
    },
    ..Format::binary::<IffFile>(
        "sims-iff",
        "The Sims object file (IFF 2.5: objects, sprites, walls, floors)",
        &["iff", "spf", "wll", "flr"],
        |bytes| bytes.starts_with(b"IFF FILE 2."),
    )
};
