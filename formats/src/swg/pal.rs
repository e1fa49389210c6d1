//! Star Wars Galaxies palette (`.pal`): the colours a customization
//! variable chooses among, e.g. `palette/pc_skin_twk.pal` for a Twi'lek's
//! skin.
//!
//! A Microsoft RIFF palette, little-endian throughout (sizes included,
//! unlike IFF): `RIFF`, the u32 size of what follows, `PAL `, then one
//! `data` chunk (its u32 size, then a `LOGPALETTE`: a u16 version, 0x0300,
//! a u16 entry count and four bytes per entry: red, green, blue and a
//! flags byte). As the game's loader reads it (SOE's `PaletteArgb`, in
//! SWG-Source/client-tools): it refuses a file whose RIFF size is not the
//! `data` size plus 12, or whose `data` size is not 4 plus 4 per entry, and
//! takes every colour as opaque; the flags byte is not alpha (`white.pal`'s
//! are 0, the skin palettes' 255), and it reads nothing after the RIFF
//! chunk: three of the 263 public palettes (`npc_jinda_light.pal`,
//! `npc_skin_nightsister.pal`, `npc_skin_sing_mt_clan.pal`, 1,048 bytes
//! each) carry 256, 220 and 88 leftover bytes there, kept as found.
//! Checked against the real palettes in `shared/corpus/swg/palette`.

use serde::{Deserialize, Serialize};

use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::Rig;
use crate::schema::{Magic, Refusal, Segment};
use crate::Schema;

/// A `.pal` file: a Microsoft RIFF palette, little-endian throughout
/// (sizes included): `RIFF`, a size, `PAL `, then a `data` chunk holding a
/// `LOGPALETTE` (version, entry count, four bytes per entry), then any
/// bytes left after the RIFF chunk, which the game ignores. The two sizes
/// are kept as read and must agree with the entries as the game requires
/// (the type's check: the RIFF size is the `data` size plus 12, the `data`
/// size 4 plus 4 per entry); `Palette::new` computes them for a palette
/// made in code.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, check = sizes_agree)]
pub struct Palette {
    /// `RIFF`.
    #[schema(magic = b"RIFF")]
    #[serde(skip)]
    pub riff: Magic,
    /// The bytes after this size to the end of the RIFF chunk: the `data`
    /// chunk's size plus 12.
    pub riff_size: u32,
    /// `PAL `: the RIFF form type.
    #[schema(magic = b"PAL ")]
    #[serde(skip)]
    pub form_type: Magic,
    /// `data`: the chunk holding the palette.
    #[schema(magic = b"data")]
    #[serde(skip)]
    pub data_tag: Magic,
    /// The `data` chunk's size: 4 plus 4 per entry.
    pub data_size: u32,
    /// The `LOGPALETTE` version: 0x0300 in every known file (stored
    /// `00 03`).
    pub version: u16,
    /// A u16 count, then the entries.
    #[schema(prefix = u16)]
    pub entries: Vec<PaletteEntry>,
    /// Bytes after the RIFF chunk, which the game does not read (leftover
    /// data in a few real files; none in most).
    #[schema(to_end)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing: Vec<u8>,
}

/// One colour (a `PALETTEENTRY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct PaletteEntry {
    /// Red, 0 to 255.
    pub red: u8,
    /// Green, 0 to 255.
    pub green: u8,
    /// Blue, 0 to 255.
    pub blue: u8,
    /// Windows' palette flags, not alpha: the game draws every entry
    /// opaque (0 in `white.pal`, 255 in the skin palettes).
    pub flags: u8,
}

/// Bytes of the `data` chunk before the entries: version and count.
const DATA_HEADER: u64 = 4;
/// Bytes the RIFF size counts besides the `data` chunk's payload: `PAL `,
/// `data` and the chunk's size.
const RIFF_HEADER: u64 = 12;
/// Where `riff_size` and `data_size` lie in the file.
const RIFF_SIZE_AT: u64 = 4;
const DATA_SIZE_AT: u64 = 16;

/// The sizes the game requires, else a refusal at the size that is wrong.
fn sizes_agree(palette: &Palette) -> Result<(), Refusal> {
    let data_size = DATA_HEADER + 4 * palette.entries.len() as u64;
    if u64::from(palette.data_size) != data_size {
        return Err(Refusal::new(format!(
            "the data chunk's size is {}, but its {} entries take {data_size} bytes",
            palette.data_size,
            palette.entries.len()
        ))
        .inside([Segment::Field("data_size")])
        .bytes_in(DATA_SIZE_AT));
    }
    let riff_size = data_size + RIFF_HEADER;
    if u64::from(palette.riff_size) != riff_size {
        return Err(Refusal::new(format!(
            "the RIFF size is {}, but the palette after it takes {riff_size} bytes",
            palette.riff_size
        ))
        .inside([Segment::Field("riff_size")])
        .bytes_in(RIFF_SIZE_AT));
    }
    Ok(())
}

/// More entries than a palette's u16 count can say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a palette holds at most 65,535 entries, not {0}")]
pub struct TooManyEntries(pub usize);

impl Palette {
    /// A palette of `entries`, version 0x0300, with the sizes computed.
    pub fn new(entries: Vec<PaletteEntry>) -> Result<Palette, TooManyEntries> {
        if entries.len() > usize::from(u16::MAX) {
            return Err(TooManyEntries(entries.len()));
        }
        // At most 65,535 entries of 4 bytes: the sizes fit a u32.
        let data_size = (DATA_HEADER + 4 * entries.len() as u64) as u32;
        Ok(Palette {
            riff: Magic,
            riff_size: data_size + RIFF_HEADER as u32,
            form_type: Magic,
            data_tag: Magic,
            data_size,
            version: 0x0300,
            entries,
            trailing: Vec::new(),
        })
    }

    /// The colour at `index` (red, green, blue), as a customization
    /// variable's value chooses it; `None` past the end.
    pub fn color(&self, index: usize) -> Option<[u8; 3]> {
        self.entries
            .get(index)
            .map(|entry| [entry.red, entry.green, entry.blue])
    }
}

impl Describe for Palette {
    fn describe(&self) -> Description {
        let mut facts = vec![
            ("version", format!("{:#06x}", self.version)),
            ("entries", self.entries.len().to_string()),
        ];
        if let Some(first) = self.entries.first() {
            facts.push((
                "first colour",
                format!(
                    "#{:02x}{:02x}{:02x} (flags {})",
                    first.red, first.green, first.blue, first.flags
                ),
            ));
        }
        Description {
            facts,
            joints: Vec::new(),
        }
    }
}

/// A palette holds no skeleton, mesh or animation.
impl Rig for Palette {}

/// The `.pal` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "humanoid.pal",
            document: format::binary_document(humanoid()),
        }]
    },
    ..Format::binary::<Palette>(
        "swg-pal",
        "Star Wars Galaxies palette",
        &["pal"],
        // `RIFF`, a size, then `PAL `.
        |bytes| bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"PAL "),
    )
};

/// A small skin palette: three tones, flags as the game's skin palettes
/// have them.
pub fn humanoid() -> Palette {
    let tone = |red, green, blue| PaletteEntry {
        red,
        green,
        blue,
        flags: 0xFF,
    };
    Palette::new(vec![
        tone(0xCF, 0x9B, 0x8A),
        tone(0xB6, 0x8A, 0x7C),
        tone(0x83, 0x69, 0x60),
    ])
    .unwrap_or_else(|TooManyEntries(count)| unreachable!("three entries, not {count}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::BinarySchema;

    #[test]
    fn a_colour_is_chosen_by_index() {
        let palette = humanoid();
        assert_eq!(palette.color(1), Some([0xB6, 0x8A, 0x7C]));
        assert_eq!(palette.color(3), None);
    }

    #[test]
    fn new_computes_the_sizes_the_game_requires() {
        let palette = humanoid();
        assert_eq!(palette.data_size, 4 + 3 * 4);
        assert_eq!(palette.riff_size, 16 + 12);
        assert!(Palette::new(vec![humanoid().entries[0]; 65_536]).is_err());
    }

    #[test]
    fn bytes_after_the_riff_chunk_are_kept() {
        // As `npc_jinda_light.pal`: 256 leftover bytes after the chunk.
        let mut bytes = humanoid().to_bytes().unwrap();
        let end = bytes.len();
        bytes.extend((0..=255u8).rev());
        let palette = Palette::from_bytes(&bytes).unwrap();
        assert_eq!(palette.entries, humanoid().entries);
        assert_eq!(palette.trailing.len(), 256);
        assert_eq!(palette.to_bytes().unwrap(), bytes);
        let (_, spans) = crate::schema::map::record_spans(|| Palette::from_bytes(&bytes));
        let trailing: Vec<_> = spans
            .iter()
            .filter(|span| span.path.to_string().starts_with("trailing"))
            .collect();
        // The leftover bytes are one span.
        assert_eq!(trailing.len(), 1);
        assert_eq!(trailing[0].start, end as u64);
        assert_eq!(trailing[0].end, bytes.len() as u64);
    }

    #[test]
    fn a_size_that_disagrees_is_an_error_at_that_size() {
        let mut bytes = humanoid().to_bytes().unwrap();
        bytes[16] += 4;
        let error = Palette::from_bytes(&bytes).unwrap_err().to_string();
        assert!(error.starts_with("byte 16: data_size: "), "{error}");
        let mut bytes = humanoid().to_bytes().unwrap();
        bytes[4] += 1;
        let error = Palette::from_bytes(&bytes).unwrap_err().to_string();
        assert!(error.starts_with("byte 4: riff_size: "), "{error}");
    }
}
