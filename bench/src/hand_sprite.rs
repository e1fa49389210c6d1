//! A sprite (`SPR2`) decoded by hand into ossuary's own types, as a careful
//! person writes it from the layout: each command word split once, pixel
//! runs taken as one slice and mapped in bulk, counts checked against the
//! bytes left before anything is allocated, and the same checks the
//! layout makes (rows within the frame's height, pixels within its width).
//! Version 1000's frames must lie in the order of their offsets, each
//! after the one before, as The Sims' tools write them.

use formats::objects::sprites::{
    ClearPixels, ClearRows, ColorOnly, DepthColor, DepthColorAlpha, Frame, PixelCommand, Row,
    RowCommand, SizedFrame, Sprite, SpriteV1000, SpriteV1001, Unused,
};
use formats::schema::{Block, Calc, Count, Padding};

use crate::hand::{items_at_offsets, Input, Malformed};

/// Bytes of a frame before its rows; the least a frame can take with its
/// end command.
const FRAME_HEADER: usize = 16;
const SMALLEST_FRAME: usize = FRAME_HEADER + 2;

pub fn decode_sprite(bytes: &[u8]) -> Result<Sprite, Malformed> {
    let mut input = Input::new(bytes);
    match input.u32_le()? {
        1000 => decode_v1000(input, bytes).map(Sprite::V1000),
        1001 => decode_v1001(input).map(Sprite::V1001),
        _ => Err(Malformed { offset: 0 }),
    }
}

fn decode_v1000(mut input: Input, whole: &[u8]) -> Result<SpriteV1000, Malformed> {
    let count = input.u32_le()? as usize;
    let default_palette = input.u32_le()?;
    let count = input.capacity(count, 4 + SMALLEST_FRAME)?;
    let frames = items_at_offsets(&mut input, whole, count, decode_frame)?;
    Ok(SpriteV1000 {
        count: Count::new(),
        default_palette,
        frames,
    })
}

fn decode_v1001(mut input: Input) -> Result<SpriteV1001, Malformed> {
    let default_palette = input.u32_le()?;
    let count = input.u32_le()? as usize;
    let count = input.capacity(count, 8 + SMALLEST_FRAME)?;
    let mut frames = Vec::with_capacity(count);
    for _ in 0..count {
        let version = input.u32_le()?;
        let size = input.u32_le()? as usize;
        let start = input.position();
        let mut frame_input = Input::new(input.take(size)?);
        let value = decode_frame(&mut frame_input).map_err(|malformed| Malformed {
            offset: start + malformed.offset,
        })?;
        frames.push(SizedFrame {
            version,
            size: Calc::computed(),
            frame: Block {
                value,
                rest: frame_input.rest().to_vec(),
            },
        });
    }
    Ok(SpriteV1001 {
        default_palette,
        frames,
        trailing: input.rest().to_vec(),
    })
}

/// A command word's top 3 bits and low 13.
fn split(word: u16) -> (u16, u16) {
    (word >> 13, word & 0x1fff)
}

fn decode_frame(input: &mut Input) -> Result<Frame, Malformed> {
    let header: [u8; FRAME_HEADER] = input.array()?;
    let half = |at: usize| [header[at], header[at + 1]];
    let (width, height) = (u16::from_le_bytes(half(0)), u16::from_le_bytes(half(2)));
    let mut frame = Frame {
        width,
        height,
        flags: u32::from_le_bytes([header[4], header[5], header[6], header[7]]),
        palette: u16::from_le_bytes(half(8)),
        transparent_index: u16::from_le_bytes(half(10)),
        position: [i16::from_le_bytes(half(12)), i16::from_le_bytes(half(14))],
        rows: Vec::new(),
    };
    let mut y = 0u32;
    loop {
        let at = input.malformed();
        let (command, low) = split(input.u16_le()?);
        let (row, passes) = match command {
            0 => {
                let body_len = usize::from(low).checked_sub(2).ok_or(at)?;
                let body = Input::at(input.take(body_len)?, 0)?;
                let commands =
                    decode_row(body, u32::from(width)).map_err(|malformed| Malformed {
                        offset: at.offset + 2 + malformed.offset,
                    })?;
                (
                    RowCommand::Row(Row {
                        size: Calc::computed(),
                        commands,
                    }),
                    1,
                )
            }
            4 => (
                RowCommand::ClearRows(ClearRows { rows: low }),
                u32::from(low),
            ),
            5 => {
                frame.rows.push(RowCommand::End(Unused { value: low }));
                return Ok(frame);
            }
            unused => {
                let value = Unused { value: low };
                let row = match unused {
                    1 => RowCommand::Unused1(value),
                    2 => RowCommand::Unused2(value),
                    3 => RowCommand::Unused3(value),
                    6 => RowCommand::Unused6(value),
                    _ => RowCommand::Unused7(value),
                };
                frame.rows.push(row);
                y += 1;
                continue;
            }
        };
        y += passes;
        if y > u32::from(height) {
            return Err(at);
        }
        frame.rows.push(row);
    }
}

/// A row's pixel commands, from its bytes after its command word.
fn decode_row(mut input: Input, width: u32) -> Result<Vec<PixelCommand>, Malformed> {
    let mut commands = Vec::new();
    let mut x = 0u32;
    while !input.rest().is_empty() {
        let at = input.malformed();
        let (command, count) = split(input.u16_le()?);
        let pixels = usize::from(count);
        let command = match command {
            1 => PixelCommand::DepthColor(DepthColor {
                count: Count::new(),
                pixels: input.records(pixels, 2)?.as_chunks::<2>().0.to_vec(),
            }),
            2 => {
                let pixels = input.records(pixels, 3)?.as_chunks::<3>().0.to_vec();
                PixelCommand::DepthColorAlpha(DepthColorAlpha {
                    count: Count::new(),
                    pixels,
                    padding: even_padding(&mut input)?,
                })
            }
            3 => PixelCommand::Clear(ClearPixels { pixels: count }),
            6 => {
                let indices = input.take(pixels)?.to_vec();
                PixelCommand::Color(ColorOnly {
                    count: Count::new(),
                    indices,
                    padding: even_padding(&mut input)?,
                })
            }
            unused => {
                let value = Unused { value: count };
                commands.push(match unused {
                    0 => PixelCommand::Unused0(value),
                    4 => PixelCommand::Unused4(value),
                    5 => PixelCommand::Unused5(value),
                    _ => PixelCommand::Unused7(value),
                });
                continue;
            }
        };
        x += u32::from(count);
        if x > width {
            return Err(at);
        }
        commands.push(command);
    }
    Ok(commands)
}

/// The byte that pads a run to an even length within its row, kept when
/// it is not zero.
fn even_padding(input: &mut Input) -> Result<Padding, Malformed> {
    if input.position().is_multiple_of(2) {
        return Ok(Padding::default());
    }
    match input.u8()? {
        0 => Ok(Padding::default()),
        byte => Ok(Padding(vec![byte])),
    }
}
