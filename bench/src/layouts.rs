//! Four small layouts of the kinds ossuary's derive is asked to read at
//! a hand-written codec's speed (`benches/layouts.rs`): an offset table
//! with its items, bit-field command words, a padded run-length stream,
//! and a gzip block holding a struct. Each is defined with the derive,
//! and decoded and encoded here by hand as a careful person writes a
//! slice codec for it, into and from the same types: one length check per
//! run of fixed-size fields, counts checked against the bytes left before
//! anything is allocated, records mapped in bulk, writers appending to one
//! `Vec<u8>`, and the checks the layout makes (bit fields that fit their
//! bits, items where their offsets point).

use std::io::{Read, Write};

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use formats::schema::{At, Count, Gzip, Magic, Padding, Transformed};
use formats::Schema;

use crate::hand::{items_at_offsets, Input, Malformed};
use crate::synthetic::Sequence;

// ---------------------------------------------------------------------
// The offset table.

/// A u32 count, a table of u32 offsets (from the file's start), and the
/// items where they point.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Table {
    pub count: Count<u32>,
    #[schema(count = count, offset = u32)]
    pub items: Vec<At<Item>>,
}

/// One item: an id, a position, and a u16-counted list of samples.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Item {
    pub id: u32,
    pub position: [i32; 3],
    #[schema(prefix = u16)]
    pub samples: Vec<u16>,
}

/// Bytes of an item before its samples; the least one takes.
const ITEM_HEADER: usize = 18;

/// A table of `items` items of 8 to 40 samples each, laid out after the
/// table one after another (about 60 bytes an item).
pub fn table(items: usize) -> Table {
    let mut sequence = Sequence::new(0x7461_626c);
    let items = (0..items)
        .map(|index| {
            let samples = 8 + sequence.below(33) as usize;
            At::new(Item {
                id: index as u32,
                position: [0; 3].map(|_| sequence.next_u64() as i32 >> 8),
                samples: (0..samples).map(|_| sequence.next_u64() as u16).collect(),
            })
        })
        .collect();
    Table {
        count: Count::new(),
        items,
    }
}

/// The table decoded by hand. Items must lie in the order of their
/// offsets, each after the one before, as the writer places them.
pub fn decode_table(bytes: &[u8]) -> Result<Table, Malformed> {
    let mut input = Input::new(bytes);
    let count = input.u32_le()? as usize;
    let count = input.capacity(count, 4 + ITEM_HEADER)?;
    let items = items_at_offsets(&mut input, bytes, count, decode_item)?;
    Ok(Table {
        count: Count::new(),
        items,
    })
}

fn decode_item(input: &mut Input) -> Result<Item, Malformed> {
    let header: [u8; ITEM_HEADER] = input.array()?;
    let word = |at: usize| [header[at], header[at + 1], header[at + 2], header[at + 3]];
    let samples = usize::from(u16::from_le_bytes([header[16], header[17]]));
    let (samples, _) = input.records(samples, 2)?.as_chunks::<2>();
    Ok(Item {
        id: u32::from_le_bytes(word(0)),
        position: [4, 8, 12].map(|at| i32::from_le_bytes(word(at))),
        samples: samples
            .iter()
            .map(|pair| u16::from_le_bytes(*pair))
            .collect(),
    })
}

/// The table encoded by hand: each item after its gap, its offset where
/// it then lies.
pub fn encode_table(table: &Table) -> Result<Vec<u8>, Malformed> {
    let too_long = Malformed { offset: 0 };
    let count = u32::try_from(table.items.len()).map_err(|_| too_long)?;
    let mut out = Vec::with_capacity(4 + 64 * table.items.len());
    out.extend_from_slice(&count.to_le_bytes());
    let offsets_at = out.len();
    out.resize(offsets_at + 4 * table.items.len(), 0);
    for (index, at) in table.items.iter().enumerate() {
        out.extend_from_slice(&at.gap);
        let offset = u32::try_from(out.len()).map_err(|_| too_long)?;
        let item = &at.value;
        let samples = u16::try_from(item.samples.len()).map_err(|_| too_long)?;
        out.extend_from_slice(&item.id.to_le_bytes());
        for coordinate in item.position {
            out.extend_from_slice(&coordinate.to_le_bytes());
        }
        out.extend_from_slice(&samples.to_le_bytes());
        for sample in &item.samples {
            out.extend_from_slice(&sample.to_le_bytes());
        }
        let slot = offsets_at + 4 * index;
        out[slot..slot + 4].copy_from_slice(&offset.to_le_bytes());
    }
    Ok(out)
}

// ---------------------------------------------------------------------
// Bit-field command words.

/// A u32 count, then the commands.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Script {
    #[schema(prefix = u32)]
    pub commands: Vec<Command>,
}

/// A 16-bit word: its top 4 bits choose the command, its other 12 begin it.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, tag = u16, bits = 4)]
pub enum Command {
    #[schema(when = 0)]
    Move(Move),
    #[schema(when = 1)]
    Wait(Wait),
    #[schema(when = 2)]
    Set(Set),
    #[schema(when = 3)]
    Call(Call),
}

/// A step of 6 signed bits each way.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Move {
    #[schema(bits = 6)]
    pub dx: i8,
    #[schema(bits = 6)]
    pub dy: i8,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Wait {
    #[schema(bits = 12)]
    pub ticks: u16,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Set {
    #[schema(bits = 4)]
    pub register: u8,
    #[schema(bits = 8)]
    pub value: u8,
}

/// A routine's number in the word, then a u16 argument after it.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Call {
    #[schema(bits = 12)]
    pub routine: u16,
    pub argument: u16,
}

/// `commands` commands of the four kinds, mostly moves.
pub fn script(commands: usize) -> Script {
    let mut sequence = Sequence::new(0x636d_6473);
    let commands = (0..commands)
        .map(|_| {
            let bits = sequence.next_u64();
            match bits % 8 {
                0..=3 => Command::Move(Move {
                    dx: ((bits >> 8) % 64) as i8 - 32,
                    dy: ((bits >> 16) % 64) as i8 - 32,
                }),
                4 | 5 => Command::Wait(Wait {
                    ticks: (bits >> 8) as u16 & 0xfff,
                }),
                6 => Command::Set(Set {
                    register: (bits >> 8) as u8 & 0xf,
                    value: (bits >> 16) as u8,
                }),
                _ => Command::Call(Call {
                    routine: (bits >> 8) as u16 & 0xfff,
                    argument: (bits >> 24) as u16,
                }),
            }
        })
        .collect();
    Script { commands }
}

/// The low `bits` bits of `value`, as a signed number.
fn signed(value: u16, bits: u32) -> i8 {
    ((value << (16 - bits)) as i16 >> (16 - bits)) as i8
}

pub fn decode_script(bytes: &[u8]) -> Result<Script, Malformed> {
    let mut input = Input::new(bytes);
    let count = input.u32_le()? as usize;
    let count = input.capacity(count, 2)?;
    let mut commands = Vec::with_capacity(count);
    for _ in 0..count {
        let at = input.malformed();
        let word = input.u16_le()?;
        let low = word & 0xfff;
        commands.push(match word >> 12 {
            0 => Command::Move(Move {
                dx: signed(low >> 6, 6),
                dy: signed(low & 0x3f, 6),
            }),
            1 => Command::Wait(Wait { ticks: low }),
            2 => Command::Set(Set {
                register: (low >> 8) as u8,
                value: low as u8,
            }),
            3 => Command::Call(Call {
                routine: low,
                argument: input.u16_le()?,
            }),
            _ => return Err(at),
        });
    }
    input.finish()?;
    Ok(Script { commands })
}

/// The script encoded by hand, refusing a value its bits cannot hold.
pub fn encode_script(script: &Script) -> Result<Vec<u8>, Malformed> {
    let refused = Malformed { offset: 0 };
    let count = u32::try_from(script.commands.len()).map_err(|_| refused)?;
    let mut out = Vec::with_capacity(4 + 3 * script.commands.len());
    out.extend_from_slice(&count.to_le_bytes());
    let fits_signed = |value: i8| (-32..32).contains(&value);
    for command in &script.commands {
        let word: u16 = match command {
            Command::Move(step) if fits_signed(step.dx) && fits_signed(step.dy) => {
                ((step.dx as u16 & 0x3f) << 6) | (step.dy as u16 & 0x3f)
            }
            Command::Wait(wait) if wait.ticks < 0x1000 => (1 << 12) | wait.ticks,
            Command::Set(set) if set.register < 16 => {
                (2 << 12) | (u16::from(set.register) << 8) | u16::from(set.value)
            }
            Command::Call(call) if call.routine < 0x1000 => (3 << 12) | call.routine,
            _ => return Err(refused),
        };
        out.extend_from_slice(&word.to_le_bytes());
        if let Command::Call(call) = command {
            out.extend_from_slice(&call.argument.to_le_bytes());
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------
// A padded run-length stream.

/// A picture's size, then its runs to the end of the input.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Picture {
    pub width: u16,
    pub height: u16,
    #[schema(to_end)]
    pub runs: Vec<Run>,
}

/// A u8 tag, then the run, padded to an even length from the file's start.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, tag = u8)]
pub enum Run {
    #[schema(when = 0)]
    Literal(Literal),
    #[schema(when = 1)]
    Repeat(Repeat),
}

/// Bytes as they are.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Literal {
    pub count: Count<u8>,
    #[schema(count = count)]
    pub bytes: Vec<u8>,
    #[schema(align = 2)]
    pub padding: Padding,
}

/// One byte, `count` times.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Repeat {
    pub count: u8,
    pub value: u8,
    #[schema(align = 2)]
    pub padding: Padding,
}

/// A picture of about `runs` runs, literal ones of 1 to 48 bytes and
/// repeats, as an image of flat areas and detail encodes to.
pub fn picture(runs: usize) -> Picture {
    let mut sequence = Sequence::new(0x726c_6521);
    let runs = (0..runs)
        .map(|_| {
            let bits = sequence.next_u64();
            if bits.is_multiple_of(3) {
                Run::Repeat(Repeat {
                    count: (bits >> 8) as u8,
                    value: (bits >> 16) as u8,
                    padding: Padding::default(),
                })
            } else {
                let len = 1 + (bits >> 8) % 48;
                Run::Literal(Literal {
                    count: Count::new(),
                    bytes: (0..len).map(|_| sequence.next_u64() as u8).collect(),
                    padding: Padding::default(),
                })
            }
        })
        .collect();
    Picture {
        width: 640,
        height: 480,
        runs,
    }
}

pub fn decode_picture(bytes: &[u8]) -> Result<Picture, Malformed> {
    let mut input = Input::new(bytes);
    let [width_low, width_high, height_low, height_high] = input.array()?;
    let mut runs = Vec::new();
    while !input.rest().is_empty() {
        let at = input.malformed();
        let [tag, count] = input.array()?;
        runs.push(match tag {
            0 => {
                let bytes = input.take(usize::from(count))?.to_vec();
                Run::Literal(Literal {
                    count: Count::new(),
                    bytes,
                    padding: even_padding(&mut input)?,
                })
            }
            1 => Run::Repeat(Repeat {
                count,
                value: input.u8()?,
                padding: even_padding(&mut input)?,
            }),
            _ => return Err(at),
        });
    }
    Ok(Picture {
        width: u16::from_le_bytes([width_low, width_high]),
        height: u16::from_le_bytes([height_low, height_high]),
        runs,
    })
}

/// The byte that pads a run to an even length, kept when it is not zero.
fn even_padding(input: &mut Input) -> Result<Padding, Malformed> {
    if input.position().is_multiple_of(2) {
        return Ok(Padding::default());
    }
    match input.u8()? {
        0 => Ok(Padding::default()),
        byte => Ok(Padding(vec![byte])),
    }
}

pub fn encode_picture(picture: &Picture) -> Result<Vec<u8>, Malformed> {
    let mut out = Vec::with_capacity(4 + 16 * picture.runs.len());
    out.extend_from_slice(&picture.width.to_le_bytes());
    out.extend_from_slice(&picture.height.to_le_bytes());
    for run in &picture.runs {
        let padding = match run {
            Run::Literal(literal) => {
                let count = u8::try_from(literal.bytes.len())
                    .map_err(|_| Malformed { offset: out.len() })?;
                out.extend_from_slice(&[0, count]);
                out.extend_from_slice(&literal.bytes);
                &literal.padding
            }
            Run::Repeat(repeat) => {
                out.extend_from_slice(&[1, repeat.count, repeat.value]);
                &repeat.padding
            }
        };
        // The kept byte where it fits, else a zero.
        if out.len() % 2 == 1 {
            out.push(
                padding
                    .0
                    .first()
                    .copied()
                    .filter(|_| padding.0.len() == 1)
                    .unwrap_or(0),
            );
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------
// A gzip block holding a struct.

/// A signature, then a gzip stream holding the samples, to the end.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Packed {
    #[schema(magic = b"PACK")]
    pub magic: Magic,
    pub body: Transformed<Gzip, Samples>,
}

/// A u32 count, then 4 u16s a record.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Samples {
    #[schema(prefix = u32)]
    pub records: Vec<[u16; 4]>,
}

/// `records` records of slowly changing values with a little noise, which
/// deflate to about a third.
pub fn packed(records: usize) -> Packed {
    let mut sequence = Sequence::new(0x677a_6970);
    let records = (0..records)
        .map(|index| {
            let base = (index / 16) as u16;
            [0, 1, 2, 3].map(|lane| base.wrapping_mul(lane + 1) ^ (sequence.below(4) as u16))
        })
        .collect();
    Packed {
        magic: Magic,
        body: Transformed::new(Samples { records }),
    }
}

/// The most a stream may inflate to per byte of it, as the runtime allows.
const MOST_DECODED_PER_BYTE: usize = 1100;

pub fn decode_packed(bytes: &[u8]) -> Result<Packed, Malformed> {
    let mut input = Input::new(bytes);
    if input.array()? != *b"PACK" {
        return Err(Malformed { offset: 0 });
    }
    let encoded = input.rest();
    let most = encoded.len().saturating_mul(MOST_DECODED_PER_BYTE);
    let mut decoded = Vec::new();
    GzDecoder::new(encoded)
        .take(most as u64 + 1)
        .read_to_end(&mut decoded)
        .map_err(|_| Malformed { offset: 4 })?;
    if decoded.len() > most {
        return Err(Malformed { offset: 4 });
    }
    let mut body = Input::new(&decoded);
    let count = body.u32_le()? as usize;
    let (records, _) = body.records(count, 8)?.as_chunks::<8>();
    let records = records
        .iter()
        .map(|record| {
            let half = |at: usize| u16::from_le_bytes([record[at], record[at + 1]]);
            [half(0), half(2), half(4), half(6)]
        })
        .collect();
    body.finish().map_err(|_| Malformed { offset: 4 })?;
    Ok(Packed {
        magic: Magic,
        body: Transformed::new(Samples { records }),
    })
}

/// Encoded by hand: the samples compressed anew, as the runtime does for
/// a value not read from a file.
pub fn encode_packed(packed: &Packed) -> Result<Vec<u8>, Malformed> {
    let records = &packed.body.value.records;
    let count = u32::try_from(records.len()).map_err(|_| Malformed { offset: 4 })?;
    let mut body = Vec::with_capacity(4 + 8 * records.len());
    body.extend_from_slice(&count.to_le_bytes());
    for record in records {
        for half in record {
            body.extend_from_slice(&half.to_le_bytes());
        }
    }
    let mut encoder = GzEncoder::new(b"PACK".to_vec(), Compression::default());
    encoder
        .write_all(&body)
        .map_err(|_| Malformed { offset: 4 })?;
    encoder.finish().map_err(|_| Malformed { offset: 4 })
}
