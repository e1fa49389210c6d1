//! Reading exact byte counts with precise positions, without per-read seeks.

use std::io::{Read, Seek, SeekFrom};

use super::{Error, ErrorKind};

/// Reads exactly `N` bytes. On a short read the error's offset is where the
/// value began: the position is asked for only on that failure path.
pub fn read_array<const N: usize, R: Read + Seek>(reader: &mut R) -> Result<[u8; N], Error> {
    let mut buffer = [0u8; N];
    let mut filled = 0;
    while filled < N {
        let slot = buffer.get_mut(filled..).unwrap_or_default();
        match reader.read(slot) {
            Ok(0) => return Err(end_of_input(reader, N as u64, filled as u64)),
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_error(reader, e)),
        }
    }
    Ok(buffer)
}

/// Reads exactly `len` bytes into a new vector, after checking they exist.
pub fn read_bytes<R: Read + Seek>(reader: &mut R, len: u64) -> Result<Vec<u8>, Error> {
    let left = remaining(reader)?;
    if len > left {
        let offset = position(reader)?;
        return Err(Error::at_byte(
            offset,
            ErrorKind::UnexpectedEnd {
                needed: len,
                available: left,
            },
        ));
    }
    let mut bytes = Vec::new();
    reader
        .take(len)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(reader, e))?;
    if (bytes.len() as u64) < len {
        return Err(end_of_input(reader, len, bytes.len() as u64));
    }
    Ok(bytes)
}

/// Bytes between the reader's position and the end of its input.
pub fn remaining<R: Seek>(reader: &mut R) -> Result<u64, Error> {
    let here = position(reader)?;
    let end = reader
        .seek(SeekFrom::End(0))
        .map_err(|e| Error::at_byte(here, ErrorKind::Io(e)))?;
    reader
        .seek(SeekFrom::Start(here))
        .map_err(|e| Error::at_byte(here, ErrorKind::Io(e)))?;
    Ok(end.saturating_sub(here))
}

pub fn position<R: Seek>(reader: &mut R) -> Result<u64, Error> {
    reader
        .stream_position()
        .map_err(|e| Error::at_byte(0, ErrorKind::Io(e)))
}

fn end_of_input<R: Seek>(reader: &mut R, needed: u64, available: u64) -> Error {
    let end = reader.stream_position().unwrap_or(available);
    Error::at_byte(
        end.saturating_sub(available),
        ErrorKind::UnexpectedEnd { needed, available },
    )
}

fn io_error<R: Seek>(reader: &mut R, error: std::io::Error) -> Error {
    let offset = reader.stream_position().unwrap_or(0);
    Error::at_byte(offset, ErrorKind::Io(error))
}
