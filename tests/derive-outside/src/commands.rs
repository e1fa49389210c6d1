//! A stream of 16-bit command words with bit fields: a sprite's rows run-
//! length coded, each word a 3-bit command and 13 bits that begin what
//! the command holds (a count, a size, a number of pixels), as The Sims'
//! sprites are.

use ossuary_schema::{Calc, Count, Padding, Schema};

/// A sprite: row commands until the end command.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Sprite {
    #[schema(until = |command: &RowCommand| matches!(command, RowCommand::End))]
    pub rows: Vec<RowCommand>,
}

/// A row command: the top 3 bits of a 16-bit word choose it, the other
/// 13 begin its value.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, tag = u16, bits = 3)]
pub enum RowCommand {
    /// A row of pixel commands.
    #[schema(when = 0)]
    Row(Row),
    /// Rows left empty.
    #[schema(when = 4)]
    Skip(SkipRows),
    /// The end of the sprite.
    #[schema(when = 5)]
    End,
}

/// A row: its size in bytes (its command word included), then its pixel
/// commands, to that size.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Row {
    #[schema(bits = 13, calc = size_of(commands) + 2)]
    pub bytes: Calc<u16>,
    #[schema(size = i64::from(bytes) - 2, to_end)]
    pub commands: Vec<PixelCommand>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct SkipRows {
    #[schema(bits = 13)]
    pub rows: u16,
}

/// A pixel command: the top 3 bits of a 16-bit word choose it.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, tag = u16, bits = 3)]
pub enum PixelCommand {
    /// Pixels of a colour each, padded to an even length.
    #[schema(when = 1)]
    Pixels(Pixels),
    /// Transparent pixels.
    #[schema(when = 3)]
    Transparent(Transparent),
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Pixels {
    #[schema(bits = 13)]
    pub count: Count<u16>,
    #[schema(count = count)]
    pub colours: Vec<u8>,
    #[schema(align = 2)]
    pub padding: Padding,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Transparent {
    #[schema(bits = 13)]
    pub pixels: u16,
}

/// A byte of flags, its first field in its least significant bit.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Flags {
    #[schema(word = u8, lsb_first, bits = 1)]
    pub visible: bool,
    /// A signed level, -4 to 3.
    #[schema(bits = 3)]
    pub level: i8,
    #[schema(bits = 4)]
    pub kind: u8,
}

#[cfg(test)]
mod tests {
    use ossuary_schema::map::record_spans;
    use ossuary_schema::BinarySchema;

    use super::*;
    use crate::every_byte_in_one_span;

    #[rustfmt::skip]
    const SPRITE: &[u8] = &[
        0x0A, 0x00,       // row (0 << 13) of 10 bytes, its word included
        0x03, 0x20,       //   pixels (1 << 13), 3 of them
        7, 8, 9,          //   their colours
        0,                //   padding to an even length
        0x05, 0x60,       //   transparent (3 << 13), 5 pixels
        0x02, 0x80,       // skip (4 << 13) 2 rows
        0x00, 0xA0,       // end (5 << 13)
    ];

    fn sprite() -> Sprite {
        Sprite {
            rows: vec![
                RowCommand::Row(Row {
                    bytes: Calc::computed(),
                    commands: vec![
                        PixelCommand::Pixels(Pixels {
                            count: Count::new(),
                            colours: vec![7, 8, 9],
                            padding: Padding::default(),
                        }),
                        PixelCommand::Transparent(Transparent { pixels: 5 }),
                    ],
                }),
                RowCommand::Skip(SkipRows { rows: 2 }),
                RowCommand::End,
            ],
        }
    }

    #[test]
    fn command_words_read_and_write_back() {
        assert_eq!(Sprite::from_bytes(SPRITE).unwrap(), sprite());
        assert_eq!(
            Sprite::from_bytes(SPRITE).unwrap().to_bytes().unwrap(),
            SPRITE
        );
        every_byte_in_one_span(SPRITE, || Sprite::from_bytes(SPRITE));
    }

    #[test]
    fn a_sprite_reads_from_a_stream_that_cannot_seek() {
        // A byte slice reads but cannot seek; the sprite's layout never
        // moves back nor asks where the input ends, so it reads forward,
        // and no further than its end command.
        let mut bytes = SPRITE.to_vec();
        bytes.extend_from_slice(b"next");
        let mut stream = &bytes[..];
        let first = Sprite::read_from_stream(&mut stream).unwrap();
        assert_eq!(first, sprite());
        assert_eq!(stream, b"next");
        // A stream cut short fails as the same bytes in memory do.
        let error = Sprite::read_from_stream(&SPRITE[..7]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 2: rows[0].Row.commands: size 8 runs past the end of the enclosing data (5 \
             byte(s) left)"
        );
        let in_memory = Sprite::from_bytes(&SPRITE[..7]).unwrap_err();
        assert_eq!(error.to_string(), in_memory.to_string());
    }

    #[test]
    fn a_sprite_built_by_hand_gets_its_counts_and_sizes() {
        assert_eq!(sprite().to_bytes().unwrap(), SPRITE);
    }

    #[test]
    fn the_byte_map_shows_each_word_s_bit_fields() {
        let (_, spans) = record_spans(|| Sprite::from_bytes(SPRITE));
        let skip = spans.iter().find(|span| span.start == 10).unwrap();
        let fields: Vec<(&str, u32, u32, u64)> = skip
            .bits
            .iter()
            .map(|bits| (bits.name, bits.shift, bits.width, bits.value))
            .collect();
        assert_eq!((skip.start, skip.end), (10, 12));
        assert_eq!(fields, [("tag", 13, 3, 4), ("rows", 0, 13, 2)]);
    }

    #[test]
    fn a_value_its_bits_cannot_hold_is_a_write_error() {
        let wide = Sprite {
            rows: vec![RowCommand::Skip(SkipRows { rows: 9000 }), RowCommand::End],
        };
        assert_eq!(
            wide.to_bytes().unwrap_err().to_string(),
            "rows[0].Skip.rows: 9000 does not fit 13 bits"
        );
    }

    #[test]
    fn an_unknown_command_is_an_error_at_its_word() {
        assert_eq!(
            Sprite::from_bytes(&[0x00, 0xE0]).unwrap_err().to_string(),
            "byte 0: rows[0]: unknown tag 7; known: 0 (`Row`), 4 (`Skip`), 5 (`End`)"
        );
    }

    #[test]
    fn fields_take_their_bits_from_the_least_significant() {
        // visible 1, level -2 (0b110), kind 9: 1001_110_1
        let flags = Flags::from_bytes(&[0b1001_1101]).unwrap();
        assert_eq!(
            flags,
            Flags {
                visible: true,
                level: -2,
                kind: 9
            }
        );
        assert_eq!(flags.to_bytes().unwrap(), [0b1001_1101]);
        every_byte_in_one_span(&[0b1001_1101], || Flags::from_bytes(&[0b1001_1101]));
    }
}
