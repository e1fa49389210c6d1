//! The schema language's keys for layouts that are not read front to back,
//! each with a hand-written slice codec of the same layout, as a careful
//! engineer writes one (one bounds check per run of fixed-size fields,
//! counts checked against the bytes left before anything is allocated,
//! writers appending to one `Vec<u8>`), producing and taking the same
//! values:
//!
//! - [`Items`]: a header giving the offset of a table of offsets to
//!   items (`offset = u32`, values written where the writer places them);
//! - [`Words`]: a stream of 16-bit command words, each 3 bits of command
//!   and 13 of count (`tag = u16, bits = 3`);
//! - [`Sprite`]: rows of run-length commands, each row's size in its
//!   command word (`calc`, `size`), pixel runs padded to even lengths
//!   (`align = 2`), ended by an end command (`until`);
//! - [`Packed`]: a gzip stream holding a record list (`Transformed`),
//!   against `flate2` and the hand-written reader of the records.

use formats::schema::{At, Calc, Count, Gzip, Padding, RawString, Transformed};
use formats::Schema;

use crate::hand::Malformed;
use crate::synthetic::Sequence;

/// An item file: the offset of the table of items, from the file's start.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Items {
    #[schema(offset = u32)]
    pub table: At<Table>,
}

/// A count, then the offset of each item, from the file's start.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Table {
    #[schema(prefix = u32, offset = u32)]
    pub items: Vec<At<Item>>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Item {
    #[schema(pascal)]
    pub name: RawString,
    pub value: u32,
}

/// Command words, a count of them first.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Words {
    #[schema(prefix = u32)]
    pub words: Vec<Word>,
}

/// A command word: its top 3 bits choose the command, the other 13 hold
/// its count.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, tag = u16, bits = 3)]
pub enum Word {
    #[schema(when = 1)]
    Draw(Run),
    #[schema(when = 3)]
    Skip(Run),
    #[schema(when = 4)]
    SkipRows(Run),
    #[schema(when = 6)]
    Fill(Run),
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Run {
    #[schema(bits = 13)]
    pub count: u16,
}

/// A sprite: row commands until the end command.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Sprite {
    #[schema(until = |command: &RowCommand| matches!(command, RowCommand::End))]
    pub rows: Vec<RowCommand>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, tag = u16, bits = 3)]
pub enum RowCommand {
    #[schema(when = 0)]
    Row(Row),
    #[schema(when = 4)]
    Skip(Run),
    #[schema(when = 5)]
    End,
}

/// A row: its size in bytes (its own word included), then its pixel
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
#[schema(little, tag = u16, bits = 3)]
pub enum PixelCommand {
    /// Pixels of a colour each, padded to an even length.
    #[schema(when = 1)]
    Pixels(Pixels),
    #[schema(when = 3)]
    Transparent(Run),
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

/// A gzip stream holding records, to the end of the file.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Packed {
    pub records: Transformed<Gzip, Records>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Records {
    #[schema(prefix = u32)]
    pub records: Vec<Record>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Record {
    pub position: [f32; 3],
    pub id: u32,
}

/// About `bytes` of items, placed after the table in their own order, as
/// a writer places values built by hand.
pub fn items(bytes: usize) -> Items {
    let mut sequence = Sequence::new(41);
    let mut items = Vec::new();
    let mut size = 8;
    while size < bytes {
        let length = 4 + sequence.below(12) as usize;
        let name: Vec<u8> = (0..length)
            .map(|_| b'a' + sequence.below(26) as u8)
            .collect();
        size += 4 + 1 + length + 4;
        items.push(At::new(Item {
            name: RawString(name),
            value: sequence.next_u64() as u32,
        }));
    }
    Items {
        table: At::new(Table { items }),
    }
}

/// About `bytes` of command words.
pub fn words(bytes: usize) -> Words {
    let mut sequence = Sequence::new(43);
    let words = (0..bytes / 2)
        .map(|_| {
            let run = Run {
                count: sequence.below(1 << 13) as u16,
            };
            match sequence.below(4) {
                0 => Word::Draw(run),
                1 => Word::Skip(run),
                2 => Word::SkipRows(run),
                _ => Word::Fill(run),
            }
        })
        .collect();
    Words { words }
}

/// About `bytes` of rows of pixel runs (1 to 40 pixels, half of them of
/// odd length, so padded) between transparent runs, a skip now and then.
pub fn sprite(bytes: usize) -> Sprite {
    let mut sequence = Sequence::new(47);
    let mut rows = Vec::new();
    let mut size = 2;
    while size < bytes {
        if sequence.below(16) == 0 {
            rows.push(RowCommand::Skip(Run {
                count: 1 + sequence.below(8) as u16,
            }));
            size += 2;
            continue;
        }
        let mut commands = Vec::new();
        for _ in 0..1 + sequence.below(12) {
            commands.push(PixelCommand::Transparent(Run {
                count: 1 + sequence.below(30) as u16,
            }));
            let count = 1 + sequence.below(40) as usize;
            let colours: Vec<u8> = (0..count).map(|_| sequence.below(256) as u8).collect();
            size += 2 + 2 + count + count % 2;
            commands.push(PixelCommand::Pixels(Pixels {
                count: Count::default(),
                colours,
                padding: Padding::default(),
            }));
        }
        size += 2;
        rows.push(RowCommand::Row(Row {
            bytes: Calc::default(),
            commands,
        }));
    }
    rows.push(RowCommand::End);
    Sprite { rows }
}

/// About `bytes` of records (before compression), compressed anew.
pub fn packed(bytes: usize) -> Packed {
    let mut sequence = Sequence::new(53);
    let records = (0..bytes / 16)
        .map(|index| Record {
            position: [
                sequence.float(10.0).round(),
                sequence.float(10.0).round(),
                sequence.float(10.0).round(),
            ],
            id: index as u32,
        })
        .collect();
    Packed {
        records: Transformed::new(Records { records }),
    }
}

/// The unread rest of an input and where it starts in the whole.
struct Input<'a> {
    all: &'a [u8],
    at: usize,
}

impl<'a> Input<'a> {
    fn malformed(&self) -> Malformed {
        Malformed { offset: self.at }
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], Malformed> {
        let end = self.at.checked_add(len).ok_or(self.malformed())?;
        let taken = self.all.get(self.at..end).ok_or(self.malformed())?;
        self.at = end;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Malformed> {
        let taken = self.take(N)?;
        taken.try_into().map_err(|_| self.malformed())
    }

    fn u16(&mut self) -> Result<u16, Malformed> {
        self.array().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, Malformed> {
        self.array().map(u32::from_le_bytes)
    }

    fn left(&self) -> usize {
        self.all.len().saturating_sub(self.at)
    }
}

/// The item file by hand: the table where the header points, each item
/// where the table points, gaps kept as the generated reader keeps them
/// (none in a file the writer laid out).
pub fn decode_items(bytes: &[u8]) -> Result<Items, Malformed> {
    let mut input = Input { all: bytes, at: 0 };
    let table_offset = input.u32()?;
    input.at = table_offset as usize;
    let count = input.u32()? as usize;
    // Each offset takes 4 bytes, each item at least 5.
    if count > input.left() / 9 {
        return Err(input.malformed());
    }
    let offsets = input.take(count * 4)?;
    let (offsets, _) = offsets.as_chunks::<4>();
    let mut items = Vec::with_capacity(count);
    for offset in offsets {
        let offset = u32::from_le_bytes(*offset);
        input.at = offset as usize;
        let length = input.array::<1>()?[0] as usize;
        let name = input.take(length)?;
        let value = input.u32()?;
        items.push(At {
            offset: Some(u64::from(offset)),
            value: Item {
                name: RawString(name.to_vec()),
                value,
            },
            gap: Vec::new(),
        });
    }
    Ok(Items {
        table: At {
            offset: Some(u64::from(table_offset)),
            value: Table { items },
            gap: Vec::new(),
        },
    })
}

/// The item file by hand, laid out as the generated writer lays out
/// values built by hand: the header, the table, the items in order.
pub fn encode_items(items: &Items) -> Result<Vec<u8>, Malformed> {
    let table = &items.table.value.items;
    let count = u32::try_from(table.len()).map_err(|_| Malformed { offset: 4 })?;
    let mut out = Vec::with_capacity(8 + table.len() * 20);
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    let offsets_at = out.len();
    out.resize(offsets_at + table.len() * 4, 0);
    for (index, item) in table.iter().enumerate() {
        let here = u32::try_from(out.len()).map_err(|_| Malformed { offset: out.len() })?;
        out[offsets_at + index * 4..offsets_at + index * 4 + 4]
            .copy_from_slice(&here.to_le_bytes());
        let name = item.value.name.as_bytes();
        let length = u8::try_from(name.len()).map_err(|_| Malformed { offset: out.len() })?;
        out.push(length);
        out.extend_from_slice(name);
        out.extend_from_slice(&item.value.value.to_le_bytes());
    }
    Ok(out)
}

fn run(word: u16) -> Run {
    Run {
        count: word & 0x1FFF,
    }
}

fn word(command: u16, run: &Run) -> u16 {
    command << 13 | run.count & 0x1FFF
}

/// The command words by hand, mapped in bulk.
pub fn decode_words(bytes: &[u8]) -> Result<Words, Malformed> {
    let mut input = Input { all: bytes, at: 0 };
    let count = input.u32()? as usize;
    let words = input.take(count.checked_mul(2).ok_or(input.malformed())?)?;
    let (words, _) = words.as_chunks::<2>();
    words
        .iter()
        .enumerate()
        .map(|(index, word)| {
            let word = u16::from_le_bytes(*word);
            Ok(match word >> 13 {
                1 => Word::Draw(run(word)),
                3 => Word::Skip(run(word)),
                4 => Word::SkipRows(run(word)),
                6 => Word::Fill(run(word)),
                _ => {
                    return Err(Malformed {
                        offset: 4 + index * 2,
                    })
                }
            })
        })
        .collect::<Result<_, _>>()
        .map(|words| Words { words })
}

pub fn encode_words(words: &Words) -> Result<Vec<u8>, Malformed> {
    let count = u32::try_from(words.words.len()).map_err(|_| Malformed { offset: 0 })?;
    let mut out = Vec::with_capacity(4 + words.words.len() * 2);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend(words.words.iter().flat_map(|command| {
        let value = match command {
            Word::Draw(run) => word(1, run),
            Word::Skip(run) => word(3, run),
            Word::SkipRows(run) => word(4, run),
            Word::Fill(run) => word(6, run),
        };
        value.to_le_bytes()
    }));
    Ok(out)
}

/// The sprite by hand: each row's commands read to the row's size.
pub fn decode_sprite(bytes: &[u8]) -> Result<Sprite, Malformed> {
    let mut input = Input { all: bytes, at: 0 };
    let mut rows = Vec::new();
    loop {
        let start = input.at;
        let word = input.u16()?;
        match word >> 13 {
            0 => {
                let size = usize::from(word & 0x1FFF);
                let end = start.checked_add(size).ok_or(input.malformed())?;
                if size < 2 || end > bytes.len() {
                    return Err(Malformed { offset: start });
                }
                let mut commands = Vec::new();
                while input.at < end {
                    let at = input.at;
                    let word = input.u16()?;
                    commands.push(match word >> 13 {
                        1 => {
                            let count = usize::from(word & 0x1FFF);
                            let colours = input.take(count)?.to_vec();
                            // Kept only when not zero, as the layout keeps it.
                            let padding = input.take(count % 2)?;
                            let padding = match padding.iter().all(|&byte| byte == 0) {
                                true => Padding::default(),
                                false => Padding(padding.to_vec()),
                            };
                            PixelCommand::Pixels(Pixels {
                                count: Count::default(),
                                colours,
                                padding,
                            })
                        }
                        3 => PixelCommand::Transparent(run(word)),
                        _ => return Err(Malformed { offset: at }),
                    });
                }
                if input.at != end {
                    return Err(Malformed { offset: input.at });
                }
                rows.push(RowCommand::Row(Row {
                    bytes: Calc::default(),
                    commands,
                }));
            }
            4 => rows.push(RowCommand::Skip(run(word))),
            5 => {
                rows.push(RowCommand::End);
                return Ok(Sprite { rows });
            }
            _ => return Err(Malformed { offset: start }),
        }
    }
}

pub fn encode_sprite(sprite: &Sprite) -> Result<Vec<u8>, Malformed> {
    let mut out = Vec::new();
    for row in &sprite.rows {
        match row {
            RowCommand::Row(row) => {
                let start = out.len();
                out.extend_from_slice(&[0, 0]);
                for command in &row.commands {
                    match command {
                        PixelCommand::Pixels(pixels) => {
                            let count = u16::try_from(pixels.colours.len())
                                .ok()
                                .filter(|&count| count < 1 << 13)
                                .ok_or(Malformed { offset: out.len() })?;
                            out.extend_from_slice(&(1 << 13 | count).to_le_bytes());
                            out.extend_from_slice(&pixels.colours);
                            match pixels.padding.0.len() == pixels.colours.len() % 2 {
                                true => out.extend_from_slice(&pixels.padding.0),
                                false => out.resize(out.len() + pixels.colours.len() % 2, 0),
                            }
                        }
                        PixelCommand::Transparent(run) => {
                            out.extend_from_slice(&word(3, run).to_le_bytes())
                        }
                    }
                }
                let size = u16::try_from(out.len() - start)
                    .ok()
                    .filter(|&size| size < 1 << 13)
                    .ok_or(Malformed { offset: start })?;
                out[start..start + 2].copy_from_slice(&size.to_le_bytes());
            }
            RowCommand::Skip(run) => out.extend_from_slice(&word(4, run).to_le_bytes()),
            RowCommand::End => out.extend_from_slice(&(5u16 << 13).to_le_bytes()),
        }
    }
    Ok(out)
}

/// The records by hand, from their decompressed bytes.
pub fn decode_records(bytes: &[u8]) -> Result<Records, Malformed> {
    let mut input = Input { all: bytes, at: 0 };
    let count = input.u32()? as usize;
    if count > input.left() / 16 {
        return Err(input.malformed());
    }
    let records = input.take(count * 16)?;
    let (records, _) = records.as_chunks::<16>();
    let records = records
        .iter()
        .map(|record| {
            let float = |at: usize| {
                f32::from_le_bytes([record[at], record[at + 1], record[at + 2], record[at + 3]])
            };
            Record {
                position: [float(0), float(4), float(8)],
                id: u32::from_le_bytes([record[12], record[13], record[14], record[15]]),
            }
        })
        .collect();
    Ok(Records { records })
}

pub fn encode_records(records: &Records) -> Result<Vec<u8>, Malformed> {
    let count = u32::try_from(records.records.len()).map_err(|_| Malformed { offset: 0 })?;
    let mut out = Vec::with_capacity(4 + records.records.len() * 16);
    out.extend_from_slice(&count.to_le_bytes());
    for record in &records.records {
        for coordinate in record.position {
            out.extend_from_slice(&coordinate.to_le_bytes());
        }
        out.extend_from_slice(&record.id.to_le_bytes());
    }
    Ok(out)
}
