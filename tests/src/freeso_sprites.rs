//! An independent sprite decoder, ported line by line from FreeSO's
//! readers (`SPR2.cs` and `SPR.cs` in `tso.files/Formats/IFF/Chunks`), to
//! check the library's decoder against: it reads the chunk's bytes itself
//! and shares no code with `formats`.
//!
//! FreeSO's quirks are kept: an SPR2 pixel without alpha is opaque, the
//! 5-bit alpha is scaled by 8.2258 and truncated, a transparent run takes
//! the palette's transparent colour with alpha 0, the rest of a row keeps
//! the cleared pixel (0, 0, 0, 0) and the z-buffer 255; an SPR# frame
//! whose palette is missing is drawn with black.

use std::collections::HashMap;

/// A decoded frame: RGBA pixels row by row, and the z-buffer where the
/// frame has one.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceFrame {
    pub width: usize,
    pub height: usize,
    pub rgba: Vec<[u8; 4]>,
    pub z: Option<Vec<u8>>,
}

/// Palettes by `PALT` id: their colours.
pub type Palettes = HashMap<u16, Vec<[u8; 3]>>;

/// Reads little-endian values from a byte slice as FreeSO's `IoBuffer`
/// does; reading past the end is an error.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> Result<u8, String> {
        let byte = *self.bytes.get(self.at).ok_or("read past the end")?;
        self.at += 1;
        Ok(byte)
    }

    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes([self.u8()?, self.u8()?]))
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes([
            self.u8()?,
            self.u8()?,
            self.u8()?,
            self.u8()?,
        ]))
    }

    fn has_more(&self) -> bool {
        self.at < self.bytes.len()
    }
}

/// Every frame of an `SPR2` chunk's payload, FreeSO's way.
pub fn spr2_frames(payload: &[u8], palettes: &Palettes) -> Result<Vec<ReferenceFrame>, String> {
    let mut io = Reader {
        bytes: payload,
        at: 0,
    };
    let version = io.u32()?;
    let mut frames = Vec::new();
    if version == 1000 {
        let count = io.u32()?;
        let default_palette = io.u32()?;
        let offsets = (0..count)
            .map(|_| io.u32())
            .collect::<Result<Vec<_>, _>>()?;
        for offset in offsets {
            let mut frame = Reader {
                bytes: payload,
                at: offset as usize,
            };
            frames.push(spr2_frame(&mut frame, version, default_palette, palettes)?);
        }
    } else if version == 1001 {
        let default_palette = io.u32()?;
        let count = io.u32()?;
        for _ in 0..count {
            let _frame_version = io.u32()?;
            let size = io.u32()? as usize;
            let bytes = payload
                .get(io.at..io.at + size)
                .ok_or("frame past the end")?;
            io.at += size;
            let mut frame = Reader { bytes, at: 0 };
            frames.push(spr2_frame(&mut frame, version, default_palette, palettes)?);
        }
    }
    Ok(frames)
}

fn spr2_frame(
    io: &mut Reader,
    version: u32,
    default_palette: u32,
    palettes: &Palettes,
) -> Result<ReferenceFrame, String> {
    let width = usize::from(io.u16()?);
    let height = usize::from(io.u16()?);
    let flags = io.u32()?;
    let mut palette_id = io.u16()?;
    if version == 1000 || palette_id == 0 || palette_id == 0xA3A3 {
        palette_id = default_palette as u16;
    }
    let transparent_index = usize::from(io.u16()?);
    let _y = io.u16()?;
    let _x = io.u16()?;

    let has_pixels = flags & 1 == 1;
    let has_z = flags & 2 == 2;
    let has_alpha = flags & 4 == 4;
    let pixels = width * height;
    let mut rgba = vec![[0u8; 4]; if has_pixels { pixels } else { 0 }];
    let mut z = has_z.then(|| vec![0u8; pixels]);
    // A missing palette is 256 cleared colours.
    let colors: Vec<[u8; 4]> = match palettes.get(&palette_id) {
        Some(colors) => colors.iter().map(|&[r, g, b]| [r, g, b, 255]).collect(),
        None => vec![[0; 4]; 256],
    };
    let color = |index: usize| {
        colors
            .get(index)
            .copied()
            .ok_or("palette index past the end")
    };
    let mut transparent = color(transparent_index)?;
    transparent[3] = 0;

    let mut y = 0usize;
    let mut end = false;
    while !end && io.has_more() {
        let marker = io.u16()?;
        let command = marker >> 13;
        let count = usize::from(marker & 0x1FFF);
        match command {
            0 => {
                let mut bytes = count as isize - 2;
                let mut x = 0usize;
                while bytes > 0 {
                    let pixel_marker = io.u16()?;
                    let pixel_command = pixel_marker >> 13;
                    let pixel_count = usize::from(pixel_marker & 0x1FFF);
                    bytes -= 2;
                    match pixel_command {
                        1 | 2 => {
                            let with_alpha = pixel_command == 2;
                            for _ in 0..pixel_count {
                                let z_value = io.u8()?;
                                let index = io.u8()?;
                                bytes -= 2;
                                let mut pixel = color(usize::from(index))?;
                                if with_alpha {
                                    let alpha = io.u8()?;
                                    pixel[3] = (f64::from(alpha) * 8.225_806_451_612_903) as u8;
                                    bytes -= 1;
                                }
                                let offset = y * width + x;
                                *rgba.get_mut(offset).ok_or("pixel outside the frame")? = pixel;
                                *z.as_mut()
                                    .ok_or("depth without a z-buffer")?
                                    .get_mut(offset)
                                    .ok_or("pixel outside the frame")? = z_value;
                                x += 1;
                            }
                            if with_alpha && (pixel_count * 3) % 2 != 0 {
                                bytes -= 1;
                                io.u8()?;
                            }
                        }
                        3 => {
                            for _ in 0..pixel_count {
                                let offset = y * width + x;
                                *rgba.get_mut(offset).ok_or("pixel outside the frame")? =
                                    transparent;
                                if let Some(z) = z.as_mut() {
                                    *z.get_mut(offset).ok_or("pixel outside the frame")? = 255;
                                }
                                x += 1;
                            }
                        }
                        6 => {
                            for _ in 0..pixel_count {
                                let index = io.u8()?;
                                bytes -= 1;
                                let offset = y * width + x;
                                *rgba.get_mut(offset).ok_or("pixel outside the frame")? =
                                    color(usize::from(index))?;
                                if let Some(z) = z.as_mut() {
                                    *z.get_mut(offset).ok_or("pixel outside the frame")? = 0;
                                }
                                x += 1;
                            }
                            if pixel_count % 2 != 0 {
                                bytes -= 1;
                                io.u8()?;
                            }
                        }
                        _ => {}
                    }
                }
                while x < width {
                    if let Some(z) = z.as_mut() {
                        *z.get_mut(y * width + x).ok_or("pixel outside the frame")? = 255;
                    }
                    x += 1;
                }
            }
            4 => {
                for row in 0..count {
                    for column in 0..width {
                        let offset = (y + row) * width + column;
                        if has_pixels {
                            *rgba.get_mut(offset).ok_or("row outside the frame")? = transparent;
                        }
                        if has_alpha {
                            rgba.get_mut(offset).ok_or("row outside the frame")?[3] = 0;
                        }
                        if let Some(z) = z.as_mut() {
                            *z.get_mut(offset).ok_or("row outside the frame")? = 255;
                        }
                    }
                }
                y = (y + count).wrapping_sub(1);
            }
            5 => end = true,
            _ => {}
        }
        y = y.wrapping_add(1);
    }
    Ok(ReferenceFrame {
        width,
        height,
        rgba,
        z,
    })
}

/// Every frame of an `SPR#` chunk's payload, FreeSO's way: byte order by
/// the version's first two bytes, frames by the offset table (or, for
/// version 1001, one after another), colours from the sprite's palette or
/// black where it is missing.
pub fn spr_frames(payload: &[u8], palettes: &Palettes) -> Result<Vec<ReferenceFrame>, String> {
    let big = payload.get(..2) == Some(&[0, 0][..]);
    let mut io = Reader {
        bytes: payload,
        at: 0,
    };
    let read32 = |io: &mut Reader| -> Result<u32, String> {
        let value = io.u32()?;
        Ok(if big { value.swap_bytes() } else { value })
    };
    let first = io.u16()?;
    let second = io.u16()?;
    let version = if first == 0 {
        u32::from(second.swap_bytes())
    } else {
        u32::from(first)
    };
    let count = read32(&mut io)?;
    let palette_id = read32(&mut io)? as u16;
    let colors: Vec<[u8; 4]> = match palettes.get(&palette_id) {
        Some(colors) => colors.iter().map(|&[r, g, b]| [r, g, b, 255]).collect(),
        None => vec![[0, 0, 0, 255]; 256],
    };
    let mut frames = Vec::new();
    if version != 1001 {
        let offsets = (0..count)
            .map(|_| read32(&mut io))
            .collect::<Result<Vec<_>, _>>()?;
        for offset in offsets {
            let mut frame = Reader {
                bytes: payload,
                at: offset as usize,
            };
            frames.push(spr_frame(&mut frame, big, &colors)?);
        }
    } else {
        while io.has_more() {
            let _version = read32(&mut io)?;
            let _size = read32(&mut io)?;
            frames.push(spr_frame(&mut io, big, &colors)?);
        }
    }
    Ok(frames)
}

fn spr_frame(io: &mut Reader, big: bool, colors: &[[u8; 4]]) -> Result<ReferenceFrame, String> {
    let read16 = |io: &mut Reader| -> Result<u16, String> {
        let value = io.u16()?;
        Ok(if big { value.swap_bytes() } else { value })
    };
    let _reserved = io.u32()?;
    let height = usize::from(read16(io)?);
    let width = usize::from(read16(io)?);
    let mut rgba = vec![[0u8; 4]; width * height];
    let color = |index: u8| {
        colors
            .get(usize::from(index))
            .copied()
            .ok_or("palette index past the end")
    };
    let mut y = 0usize;
    loop {
        let command = io.u8()?;
        let count = usize::from(io.u8()?);
        match command {
            0x00 | 0x10 => {}
            0x04 => {
                let mut bytes = count as isize - 2;
                let mut x = 0usize;
                while bytes > 0 {
                    let pixel_command = io.u8()?;
                    let pixel_count = usize::from(io.u8()?);
                    bytes -= 2;
                    match pixel_command {
                        0x01 => x += pixel_count,
                        0x02 => {
                            let index = io.u8()?;
                            let _padding = io.u8()?;
                            bytes -= 2;
                            let pixel = color(index)?;
                            for _ in 0..pixel_count {
                                *rgba
                                    .get_mut(y * width + x)
                                    .ok_or("pixel outside the frame")? = pixel;
                                x += 1;
                            }
                        }
                        0x03 => {
                            for _ in 0..pixel_count {
                                let pixel = color(io.u8()?)?;
                                *rgba
                                    .get_mut(y * width + x)
                                    .ok_or("pixel outside the frame")? = pixel;
                                x += 1;
                            }
                            bytes -= pixel_count as isize;
                            if pixel_count % 2 != 0 {
                                io.u8()?;
                                bytes -= 1;
                            }
                        }
                        _ => {}
                    }
                }
                y += 1;
            }
            0x05 => break,
            0x09 => y += count,
            _ => {}
        }
    }
    Ok(ReferenceFrame {
        width,
        height,
        rgba,
        z: None,
    })
}
