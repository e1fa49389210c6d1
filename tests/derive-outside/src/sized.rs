//! Blocks of a given length: chunks whose size the writer computes
//! (`calc`) and whose payload is read from exactly that many bytes
//! (`size`), and records whose length is data, whose block keeps what
//! its value leaves (`Block`).

use ossuary_schema::{Block, Calc, Schema};

/// A little container: chunks one after another to the end of the file.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(big)]
pub struct Container {
    #[schema(to_end)]
    pub chunks: Vec<Chunk>,
}

/// A chunk: a four-byte kind, its size in bytes (its 8-byte header
/// included, big-endian), then its payload (little-endian).
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(big)]
pub struct Chunk {
    pub kind: [u8; 4],
    /// Computed by the writer from the payload it writes.
    #[schema(calc = size_of(payload) + 8)]
    pub size: Calc<u32>,
    /// Widened before the header is taken off, so that a size below 8
    /// is an error, not an overflow.
    #[schema(size = i64::from(size) - 8)]
    pub payload: Payload,
}

/// A chunk's payload: an id, then bytes to the end of the chunk.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Payload {
    pub id: u16,
    #[schema(to_end)]
    pub data: Vec<u8>,
}

/// A record whose length is data: its body is read from that many bytes,
/// and the bytes its value leaves are kept.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Record {
    pub length: u8,
    #[schema(size = length)]
    pub body: Block<Body>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Body {
    pub value: u16,
}

#[cfg(test)]
mod tests {
    use ossuary_schema::BinarySchema;

    use super::*;
    use crate::every_byte_in_one_span;

    #[rustfmt::skip]
    const CONTAINER: &[u8] = &[
        // HEAD: 8 header bytes and 6 of payload
        b'H', b'E', b'A', b'D',
        0, 0, 0, 14,            // size, big-endian, the header included
        1, 0,                   // id 1, little-endian
        0xAA, 0xBB, 0xCC, 0xDD, // data to the chunk's end
        // BODY: a header and 2 bytes of payload, no data
        b'B', b'O', b'D', b'Y',
        0, 0, 0, 10,
        2, 0,
    ];

    #[test]
    fn chunks_read_their_size_and_write_it_back() {
        let container = Container::from_bytes(CONTAINER).unwrap();
        assert_eq!(container.chunks.len(), 2);
        assert_eq!(container.chunks[0].size, Calc::computed());
        assert_eq!(container.chunks[0].payload.data, [0xAA, 0xBB, 0xCC, 0xDD]);
        assert_eq!(container.to_bytes().unwrap(), CONTAINER);
        every_byte_in_one_span(CONTAINER, || Container::from_bytes(CONTAINER));
    }

    #[test]
    fn a_chunk_built_by_hand_gets_its_size() {
        let chunk = Chunk {
            kind: *b"BODY",
            size: Calc::computed(),
            payload: Payload {
                id: 2,
                data: Vec::new(),
            },
        };
        assert_eq!(chunk.to_bytes().unwrap(), CONTAINER[14..]);
    }

    #[test]
    fn a_size_that_is_none_is_an_error_at_the_block() {
        let mut bytes = CONTAINER.to_vec();
        bytes[7] = 4;
        assert_eq!(
            Container::from_bytes(&bytes).unwrap_err().to_string(),
            "byte 8: chunks[0].payload: `i64::from(size) - 8` gives -4, which is not a size"
        );
        bytes[7] = 200;
        assert_eq!(
            Container::from_bytes(&bytes).unwrap_err().to_string(),
            "byte 8: chunks[0].payload: size 192 runs past the end of the enclosing data \
             (16 byte(s) left)"
        );
    }

    #[rustfmt::skip]
    const RECORD: &[u8] = &[
        4,          // length: the body takes 4 bytes
        0x02, 0x01, // value
        0xEE, 0xFF, // what the value leaves of the block, kept
    ];

    #[test]
    fn a_block_keeps_what_its_value_leaves() {
        let record = Record::from_bytes(RECORD).unwrap();
        assert_eq!(record.body.value, Body { value: 0x0102 });
        assert_eq!(record.body.rest, [0xEE, 0xFF]);
        assert_eq!(record.to_bytes().unwrap(), RECORD);
        every_byte_in_one_span(RECORD, || Record::from_bytes(RECORD));
        let wrong = Record {
            length: 3,
            ..record
        };
        assert_eq!(
            wrong.to_bytes().unwrap_err().to_string(),
            "body: the block holds 4 byte(s), but `length` gives 3"
        );
    }
}
