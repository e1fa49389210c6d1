//! A gzip-compressed block holding a struct (`Transformed<Gzip, _>`): the
//! value read from the decompressed bytes, the file's compressed bytes
//! written back while it is unchanged.

use ossuary_schema::{Gzip, Magic, Schema, Transformed};

/// A packed mesh: a signature, then a gzip stream holding the mesh, to
/// the end of the file.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Packed {
    #[schema(magic = b"GZMS")]
    pub magic: Magic,
    pub mesh: Transformed<Gzip, Mesh>,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Mesh {
    #[schema(prefix = u8)]
    pub points: Vec<[i8; 2]>,
}

#[cfg(test)]
mod tests {
    use ossuary_schema::map::record_spans;
    use ossuary_schema::BinarySchema;

    use super::*;
    use crate::every_byte_in_one_span;

    /// The mesh [(1, 2), (3, 4)] (`02 01 02 03 04`) in a gzip stream of
    /// one stored (uncompressed) deflate block, its CRC-32 worked out
    /// apart (`zlib.crc32` gives 0x2b9a80ac).
    #[rustfmt::skip]
    const PACKED: &[u8] = &[
        b'G', b'Z', b'M', b'S',
        0x1F, 0x8B, 8, 0,       // gzip, deflate, no flags
        0, 0, 0, 0,             // no time
        0, 0xFF,                // no extra flags, unknown system
        1, 5, 0, 0xFA, 0xFF,    // the last block, stored: 5 bytes (and their complement)
        2, 1, 2, 3, 4,          // the mesh: 2 points
        0xAC, 0x80, 0x9A, 0x2B, // CRC-32 of the 5 bytes
        5, 0, 0, 0,             // 5 bytes in all
    ];

    #[test]
    fn a_compressed_block_reads_and_writes_back_its_own_bytes() {
        let packed = Packed::from_bytes(PACKED).unwrap();
        assert_eq!(packed.mesh.value.points, [[1, 2], [3, 4]]);
        assert_eq!(packed.to_bytes().unwrap(), PACKED);
        every_byte_in_one_span(PACKED, || Packed::from_bytes(PACKED));
    }

    #[test]
    fn a_changed_value_is_compressed_anew() {
        let mut packed = Packed::from_bytes(PACKED).unwrap();
        packed.mesh.value.points.push([5, 6]);
        let bytes = packed.to_bytes().unwrap();
        assert_ne!(&bytes[4..], &PACKED[4..]);
        assert_eq!(
            Packed::from_bytes(&bytes).unwrap().mesh.value.points.len(),
            3
        );
    }

    #[test]
    fn the_byte_map_shows_the_decompressed_bytes_under_the_compressed_block() {
        let (_, spans) = record_spans(|| Packed::from_bytes(PACKED));
        let block = spans.iter().find(|span| span.start == 4).unwrap();
        assert_eq!(
            (block.type_name, block.end),
            ("gzip stream", PACKED.len() as u64)
        );
        assert_eq!(block.decoded_bytes, [2, 1, 2, 3, 4]);
        let decoded: Vec<(String, u64, u64)> = block
            .decoded
            .iter()
            .map(|span| (span.path.to_string(), span.start, span.end))
            .collect();
        assert_eq!(
            decoded,
            // The count, then the list of number pairs as one span.
            [
                ("mesh.points".to_owned(), 0, 1),
                ("mesh.points".to_owned(), 1, 5),
            ]
        );
    }

    #[test]
    fn a_stream_that_does_not_decode_is_an_error_at_it() {
        let mut bytes = PACKED.to_vec();
        bytes[4] = 0;
        assert_eq!(
            Packed::from_bytes(&bytes).unwrap_err().to_string(),
            "byte 4: mesh: the gzip stream does not decode: invalid gzip header"
        );
    }
}
