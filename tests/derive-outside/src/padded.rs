//! Padding to 2 and 4 bytes (`align`), counted from the start of the
//! enclosing block; padding a file holds that is not zero is kept.

use ossuary_schema::{Calc, Padding, RawString, Schema};

/// A name table: names, each padded to an even length, then values
/// aligned to 4 bytes.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Names {
    #[schema(prefix = u8)]
    pub names: Vec<Name>,
    #[schema(align = 4)]
    pub before_values: Padding,
    #[schema(prefix = u16)]
    pub values: Vec<u32>,
}

/// A Pascal string, then padding to the next even byte.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Name {
    #[schema(pascal)]
    pub text: RawString,
    #[schema(align = 2)]
    pub padding: Padding,
}

/// A tag, then a block of a computed length whose padding counts from
/// the block's start, not the file's.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Boxed {
    pub tag: u8,
    #[schema(calc = size_of(inner))]
    pub length: Calc<u8>,
    #[schema(size = length)]
    pub inner: Aligned,
}

#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Aligned {
    pub first: u8,
    #[schema(align = 4)]
    pub padding: Padding,
    pub value: u32,
}

#[cfg(test)]
mod tests {
    use ossuary_schema::BinarySchema;

    use super::*;
    use crate::every_byte_in_one_span;

    #[rustfmt::skip]
    const NAMES: &[u8] = &[
        2,                // two names
        3, b'a', b'b', b'c',
        0xEE,             // padding to byte 6, not zero: kept
        2, b'd', b'e',
        0,                // padding to byte 10
        0, 0,             // padding to byte 12, a multiple of 4
        1, 0,             // one value
        7, 0, 0, 0,
    ];

    #[test]
    fn padding_aligns_and_keeps_what_is_not_zero() {
        let names = Names::from_bytes(NAMES).unwrap();
        assert_eq!(names.names[0].padding, Padding(vec![0xEE]));
        assert_eq!(names.names[1].padding, Padding::default());
        assert_eq!(names.values, [7]);
        assert_eq!(names.to_bytes().unwrap(), NAMES);
        every_byte_in_one_span(NAMES, || Names::from_bytes(NAMES));
    }

    #[test]
    fn a_value_built_by_hand_is_padded_with_zeros() {
        let names = Names {
            names: vec![Name {
                text: RawString::from("x"),
                padding: Padding::default(),
            }],
            before_values: Padding::default(),
            values: vec![1],
        };
        #[rustfmt::skip]
        let expected = [
            1,
            1, b'x',          // to byte 3
            0,                // to byte 4
            // already a multiple of 4
            1, 0, 1, 0, 0, 0,
        ];
        assert_eq!(names.to_bytes().unwrap(), expected);
    }

    #[rustfmt::skip]
    const BOXED: &[u8] = &[
        9,          // tag
        8,          // the block's length
        // the block, from byte 2
        1,          // first
        0, 0, 0,    // to 4 bytes into the block (byte 6 of the file)
        5, 0, 0, 0, // value
    ];

    #[test]
    fn padding_counts_from_the_start_of_its_block() {
        let boxed = Boxed::from_bytes(BOXED).unwrap();
        assert_eq!(boxed.inner.value, 5);
        assert_eq!(boxed.to_bytes().unwrap(), BOXED);
        every_byte_in_one_span(BOXED, || Boxed::from_bytes(BOXED));
    }
}
