//! The Sims 1 compressed float stream (`.cfp`): a skill's translations and
//! rotations.

use serde::{Deserialize, Serialize};

use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::Rig;
use crate::schema::{BinarySchema, Error, ErrorKind, HasContext, Segment};
use crate::Schema;

/// The Sims 1 compressed float stream (`.cfp`): the translations and
/// rotations of one skill, as self-delimiting tokens with no header. Each
/// token gives the next value, or run of values, of a stream of floats:
///
/// - `0xFF`, then a little-endian f32: the value itself;
/// - `0xFE`, then a little-endian u16 `n`: the previous value again, `n + 1`
///   times;
/// - any other byte `c`: the previous value plus entry `c` of a table of 253
///   deltas (codes 0 to 252), `0.1 * sign(c - 126) * ((c - 126) / 126)^4`:
///   dense near zero, 0 at 126, ±0.1 at the ends.
///
/// The values form seven component streams, one after another: the x, y
/// and z of every translation, then the x, y, z and w of every rotation
/// (quaternions that act as their conjugates, like a bone's rest
/// rotation). Each translation component holds the skill's
/// `position_count` values, each rotation component its `rotation_count`
/// (the skill is in the `.cmx`/`.bcf`); the previous value is 0 at the
/// start of each component, and no repeat runs from one into the next.
/// Neither count is in the file, so a `.cfp` reads on its own as its tokens
/// and splits into its components only with its skill's counts (ossuary's
/// `cfp::Streams`, which takes them as context). The tokens are kept as found: which one the encoder chose
/// for each value is data, so a file writes back byte for byte.
///
/// Sources. FreeSO's `CFP` reader and ts1-blender-io's importer agree on
/// the three tokens, the repeat standing for `n + 1` values, the order of
/// the components and the previous value starting at 0 in each. An older
/// reader (PySims) takes a repeat for `n` values and reads the rotations w
/// first; the corpus's two real skills refute both: only `n + 1` makes
/// their tokens hold exactly 3 × `position_count` + 4 × `rotation_count`
/// values, and only x, y, z, w puts the idle's first frame near the rest
/// pose. Every component of both files starts with a full value, as
/// VitaMoo's account of the original encoder says it must. The delta
/// table is VitaMoo's reconstruction of the game's (253 entries, a quartic
/// spread over ±0.1); Dave Baum's fitted `3.9676e-10 (c - 126)^3 |c - 126|`,
/// which FreeSO and ts1-blender-io use, differs from it by less than 3e-6
/// per delta.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Cfp {
    /// Every token, in file order: the seven components one after another.
    #[schema(to_end)]
    pub tokens: Vec<Token>,
}

/// One token: the next value, or run of values, of a component stream.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, tag = u8)]
pub enum Token {
    /// The value itself.
    #[schema(when = 0xFF)]
    Full(f32),
    /// The previous value again, `n + 1` times.
    #[schema(when = 0xFE)]
    Repeat(u16),
    /// The previous value plus the delta this code stands for.
    #[schema(other)]
    Delta(u8),
}

impl Token {
    /// How many values the token stands for.
    pub fn value_count(self) -> u64 {
        match self {
            Token::Full(_) | Token::Delta(_) => 1,
            Token::Repeat(n) => u64::from(n) + 1,
        }
    }
}

/// How many values the tokens stand for.
pub fn value_count(tokens: &[Token]) -> u64 {
    tokens.iter().map(|token| token.value_count()).sum()
}

/// Codes 0 to 252 are deltas; 253 has no entry.
pub const DELTA_CODES: u8 = 253;

/// The delta a code adds to the previous value; `None` past the table.
pub fn delta(code: u8) -> Option<f32> {
    (code < DELTA_CODES).then(|| {
        let unit = (f64::from(code) - 126.0) / 126.0;
        (0.1 * unit * unit.abs().powi(3)) as f32
    })
}

/// How many values a component stream holds: one of its skill's counts,
/// given to [`Streams`] as context. A type of its own so that the derive's
/// round trips draw small counts for it: a `u32` passed to a codec is drawn
/// whole, and a component can need a token for every 65,536 values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ValueCount(pub u32);

impl HasContext for ValueCount {
    type Context = ();
    type TextContext = ();
}

/// Counts the generated round trips draw: small, since a component drawn
/// for a count has a token for every value at most.
#[cfg(test)]
impl crate::schema::testing::Sample for ValueCount {
    fn context_strategy() -> crate::schema::testing::proptest::strategy::BoxedStrategy<()> {
        use crate::schema::testing::proptest::strategy::{Just, Strategy};
        Just(()).boxed()
    }

    fn strategy_with(
        _: &(),
    ) -> crate::schema::testing::proptest::strategy::BoxedStrategy<ValueCount> {
        use crate::schema::testing::proptest::strategy::Strategy;
        (0u32..=40).prop_map(ValueCount).boxed()
    }
}

/// A `.cfp` split into its seven component streams by its skill's counts:
/// `position_count` values in each translation component,
/// `rotation_count` in each rotation component. A component whose tokens
/// end before its count, or whose last repeat runs past it, is an error
/// naming the values it holds and the count.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, context(position_count: ValueCount, rotation_count: ValueCount))]
pub struct Streams {
    /// The x of every translation.
    #[schema(with = component, context(position_count))]
    pub translations_x: Vec<Token>,
    #[schema(with = component, context(position_count))]
    pub translations_y: Vec<Token>,
    #[schema(with = component, context(position_count))]
    pub translations_z: Vec<Token>,
    /// The x of every rotation.
    #[schema(with = component, context(rotation_count))]
    pub rotations_x: Vec<Token>,
    #[schema(with = component, context(rotation_count))]
    pub rotations_y: Vec<Token>,
    #[schema(with = component, context(rotation_count))]
    pub rotations_z: Vec<Token>,
    #[schema(with = component, context(rotation_count))]
    pub rotations_w: Vec<Token>,
}

/// One component stream: tokens until they stand for the skill's count of
/// values.
mod component {
    use std::io::{Read, Seek, Write};

    use super::{value_count, Token, ValueCount};
    use crate::schema::io::{position, remaining};
    use crate::schema::{Decode, Encode, Endian, Error, ErrorKind, Segment};

    pub fn read<R: Read + Seek>(
        reader: &mut R,
        endian: Endian,
        count: ValueCount,
    ) -> Result<Vec<Token>, Error> {
        let wanted = u64::from(count.0);
        let mut tokens = Vec::new();
        let mut held = 0;
        while held < wanted {
            let start = position(reader)?;
            if remaining(reader)? == 0 {
                return Err(Error::at_byte(
                    start,
                    ErrorKind::Invalid(format!(
                        "the file ends after {held} of the component's {wanted} values (its skill's count)"
                    )),
                ));
            }
            let index = tokens.len();
            let token = Token::decode(reader, endian, &())
                .map_err(|error| error.within(Segment::Index(index)))?;
            held += token.value_count();
            if held > wanted {
                return Err(Error::at_byte(
                    start,
                    ErrorKind::Invalid(format!(
                        "the repeat takes the component to {held} values, past its skill's count of {wanted}"
                    )),
                )
                .within(Segment::Index(index)));
            }
            tokens.push(token);
        }
        Ok(tokens)
    }

    pub fn write<W: Write + Seek>(
        tokens: &[Token],
        writer: &mut W,
        endian: Endian,
        count: ValueCount,
    ) -> Result<(), Error> {
        let held = value_count(tokens);
        if held != u64::from(count.0) {
            return Err(Error::new(ErrorKind::Invalid(format!(
                "the tokens stand for {held} values, but the skill's count is {}",
                count.0
            ))));
        }
        for (index, token) in tokens.iter().enumerate() {
            token
                .encode(writer, endian, &())
                .map_err(|error| error.within(Segment::Index(index)))?;
        }
        Ok(())
    }

    /// Any tokens that stand for exactly `count` values: one drawn per
    /// value, each repeat cut to the values left.
    #[cfg(test)]
    pub fn strategy(
        count: ValueCount,
    ) -> crate::schema::testing::proptest::strategy::BoxedStrategy<Vec<Token>> {
        use crate::schema::testing::proptest::collection::vec;
        use crate::schema::testing::proptest::strategy::Strategy;
        use crate::schema::testing::strategy;
        let wanted = count.0;
        vec(strategy::<Token>(), wanted as usize)
            .prop_map(move |drawn| {
                let mut left = wanted;
                let mut tokens = Vec::new();
                for token in drawn {
                    if left == 0 {
                        break;
                    }
                    let token = match token {
                        Token::Repeat(n) => {
                            Token::Repeat(n.min(u16::try_from(left - 1).unwrap_or(u16::MAX)))
                        }
                        other => other,
                    };
                    left -= token.value_count() as u32;
                    tokens.push(token);
                }
                tokens
            })
            .boxed()
    }
}

/// A skill's translations and rotations, as stored: each rotation a
/// quaternion `(x, y, z, w)` that acts as its conjugate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Values {
    pub translations: Vec<[f32; 3]>,
    pub rotations: Vec<[f32; 4]>,
}

impl Streams {
    /// Splits a `.cfp` into the components its skill's counts name. A file
    /// whose tokens stand for more or fewer values than the counts need,
    /// or whose repeat runs from one component into the next, is an error
    /// naming the values and the counts.
    pub fn split(bytes: &[u8], counts: &StreamsContext) -> Result<Streams, Error> {
        let held = Cfp::from_bytes(bytes)?.value_count();
        let [positions, rotations] =
            [counts.position_count, counts.rotation_count].map(|count| u64::from(count.0));
        let needed = 3 * positions + 4 * rotations;
        if held != needed {
            return Err(Error::new(ErrorKind::Invalid(format!(
                "the tokens stand for {held} values, but the skill's counts need {needed} \
                 (3 × {positions} translations + 4 × {rotations} rotations)"
            ))));
        }
        Streams::from_bytes_with(bytes, counts)
    }

    /// The counts these components hold, for writing them.
    pub fn counts(&self) -> Result<StreamsContext, Error> {
        let count = |tokens: &[Token], field| {
            u32::try_from(value_count(tokens))
                .map(ValueCount)
                .map_err(|_| {
                    Error::new(ErrorKind::Invalid(
                        "more values than a skill can count".to_owned(),
                    ))
                    .in_field(field)
                })
        };
        Ok(StreamsContext {
            position_count: count(&self.translations_x, "translations_x")?,
            rotation_count: count(&self.rotations_x, "rotations_x")?,
        })
    }

    /// The components as fields, in file order.
    fn components(&self) -> [(&'static str, &[Token]); 7] {
        [
            ("translations_x", &self.translations_x),
            ("translations_y", &self.translations_y),
            ("translations_z", &self.translations_z),
            ("rotations_x", &self.rotations_x),
            ("rotations_y", &self.rotations_y),
            ("rotations_z", &self.rotations_z),
            ("rotations_w", &self.rotations_w),
        ]
    }

    /// The values the tokens stand for. A delta code past the table, or
    /// components of one vector that differ in length, is an error naming
    /// the field.
    pub fn values(&self) -> Result<Values, Error> {
        let component =
            |field, tokens: &[Token]| decode(tokens).map_err(|error| error.in_field(field));
        let x = component("translations_x", &self.translations_x)?;
        let y = component("translations_y", &self.translations_y)?;
        let z = component("translations_z", &self.translations_z)?;
        let rx = component("rotations_x", &self.rotations_x)?;
        let ry = component("rotations_y", &self.rotations_y)?;
        let rz = component("rotations_z", &self.rotations_z)?;
        let rw = component("rotations_w", &self.rotations_w)?;
        let as_long = |field, values: &[f32], first_field, first: &[f32]| {
            if values.len() == first.len() {
                Ok(())
            } else {
                Err(Error::new(ErrorKind::Invalid(format!(
                    "{} values, but {first_field} has {}",
                    values.len(),
                    first.len()
                )))
                .in_field(field))
            }
        };
        as_long("translations_y", &y, "translations_x", &x)?;
        as_long("translations_z", &z, "translations_x", &x)?;
        as_long("rotations_y", &ry, "rotations_x", &rx)?;
        as_long("rotations_z", &rz, "rotations_x", &rx)?;
        as_long("rotations_w", &rw, "rotations_x", &rx)?;
        Ok(Values {
            translations: x
                .into_iter()
                .zip(y)
                .zip(z)
                .map(|((x, y), z)| [x, y, z])
                .collect(),
            rotations: rx
                .into_iter()
                .zip(ry)
                .zip(rz)
                .zip(rw)
                .map(|(((x, y), z), w)| [x, y, z, w])
                .collect(),
        })
    }

    /// New data encoded plainly, without loss: each component starts with
    /// a full value, a value equal (bit for bit) to the one before it
    /// extends a repeat, and every other value is stored in full. The
    /// files are larger than the game's, whose deltas round the values.
    pub fn plain(values: &Values) -> Streams {
        let translations =
            |axis: fn(&[f32; 3]) -> f32| plain_tokens(values.translations.iter().map(axis));
        let rotations =
            |axis: fn(&[f32; 4]) -> f32| plain_tokens(values.rotations.iter().map(axis));
        Streams {
            translations_x: translations(|t| t[0]),
            translations_y: translations(|t| t[1]),
            translations_z: translations(|t| t[2]),
            rotations_x: rotations(|r| r[0]),
            rotations_y: rotations(|r| r[1]),
            rotations_z: rotations(|r| r[2]),
            rotations_w: rotations(|r| r[3]),
        }
    }
}

/// The values of one component, the previous value starting at 0.
fn decode(tokens: &[Token]) -> Result<Vec<f32>, Error> {
    let mut values = Vec::new();
    let mut previous = 0f32;
    for (index, token) in tokens.iter().enumerate() {
        match *token {
            Token::Full(value) => {
                previous = value;
                values.push(value);
            }
            Token::Repeat(n) => values.extend(std::iter::repeat_n(previous, usize::from(n) + 1)),
            Token::Delta(code) => {
                let step = delta(code).ok_or_else(|| {
                    Error::new(ErrorKind::Invalid(format!(
                        "delta code {code} is past the table's {DELTA_CODES} entries"
                    )))
                    .within(Segment::Index(index))
                })?;
                previous += step;
                values.push(previous);
            }
        }
    }
    Ok(values)
}

/// One component's values as full values and repeats.
fn plain_tokens(values: impl Iterator<Item = f32>) -> Vec<Token> {
    let mut tokens: Vec<Token> = Vec::new();
    let mut previous: Option<u32> = None;
    for value in values {
        if previous == Some(value.to_bits()) {
            match tokens.last_mut() {
                Some(Token::Repeat(n)) if *n < u16::MAX => *n += 1,
                _ => tokens.push(Token::Repeat(0)),
            }
        } else {
            tokens.push(Token::Full(value));
            previous = Some(value.to_bits());
        }
    }
    tokens
}

impl From<&Streams> for Cfp {
    /// The components one after another.
    fn from(streams: &Streams) -> Self {
        Cfp {
            tokens: streams
                .components()
                .into_iter()
                .flat_map(|(_, tokens)| tokens.iter().copied())
                .collect(),
        }
    }
}

impl Cfp {
    /// How many values the tokens stand for, every component together.
    pub fn value_count(&self) -> u64 {
        value_count(&self.tokens)
    }
}

impl Describe for Cfp {
    /// The tokens by kind and the values they stand for; the components
    /// need the skill's counts.
    fn describe(&self) -> Description {
        let count = |kind: fn(&Token) -> bool| self.tokens.iter().filter(|t| kind(t)).count();
        Description {
            facts: vec![
                ("tokens", self.tokens.len().to_string()),
                ("values", self.value_count().to_string()),
                (
                    "full values",
                    count(|t| matches!(t, Token::Full(_))).to_string(),
                ),
                (
                    "repeats",
                    count(|t| matches!(t, Token::Repeat(_))).to_string(),
                ),
                (
                    "deltas",
                    count(|t| matches!(t, Token::Delta(_))).to_string(),
                ),
            ],
            joints: Vec::new(),
        }
    }
}

/// Posed only through its skill.
impl Rig for Cfp {}

/// The `.cfp` registration. No signature: found by extension only.
pub static FORMAT: Format = Format {
    samples: || {
        vec![Sample {
            file_name: "xskill-humanoid-wave.cfp",
            document: format::binary_document(humanoid_wave()),
        }]
    },
    ..Format::binary::<Cfp>(
        "sims-cfp",
        "The Sims compressed float stream",
        &["cfp"],
        |_| false,
    )
};

/// The data of the humanoid's wave (the skill of [`super::cmx::humanoid`]),
/// encoded plainly: the left arm at rest, then raised sideways, out to +x,
/// by a quarter turn about z.
pub fn humanoid_wave() -> Cfp {
    let half = std::f32::consts::FRAC_1_SQRT_2;
    Cfp::from(&Streams::plain(&Values {
        translations: Vec::new(),
        // Stored quaternions act as their conjugates: this one turns by
        // -90 degrees as written, +90 as applied.
        rotations: vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, -half, half]],
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Position;

    /// A skill's data with two translations and two rotations, written by
    /// hand from the layout.
    #[rustfmt::skip]
    const GOLDEN: &[u8] = &[
        0xFF, 0x00, 0x00, 0x80, 0x3F, // translations x: 1.0
        0xFE, 0x00, 0x00,             //   the same again, once: 1.0
        0xFF, 0x00, 0x00, 0x00, 0x3F, // translations y: 0.5
        0xBD,                         //   + delta 189 (0.00625): 0.50625
        0xFC,                         // translations z: 0 + delta 252 (0.1), the previous value starting at 0
        0x00,                         //   + delta 0 (-0.1): 0
        0xFF, 0x00, 0x00, 0x00, 0x00, // rotations x: 0
        0xFE, 0x00, 0x00,             //   0
        0xFE, 0x01, 0x00,             // rotations y: the starting 0, twice
        0xFF, 0xF3, 0x04, 0x35, 0xBF, // rotations z: -0.70710677
        0xFE, 0x00, 0x00,             //   -0.70710677
        0xFF, 0xF3, 0x04, 0x35, 0x3F, // rotations w: 0.70710677
        0xFE, 0x00, 0x00,             //   0.70710677
    ];

    fn counts(positions: u32, rotations: u32) -> StreamsContext {
        StreamsContext {
            position_count: ValueCount(positions),
            rotation_count: ValueCount(rotations),
        }
    }

    #[test]
    fn the_delta_table_runs_from_minus_to_plus_a_tenth_densest_near_zero() {
        assert_eq!(delta(0), Some(-0.1));
        assert_eq!(delta(126), Some(0.0));
        assert_eq!(delta(252), Some(0.1));
        assert_eq!(delta(189), Some(0.00625));
        assert_eq!(delta(63), Some(-0.00625));
        assert_eq!(delta(DELTA_CODES), None);
    }

    #[test]
    fn golden_bytes_read_on_their_own_as_tokens_and_write_back() {
        let cfp = Cfp::from_bytes(GOLDEN).unwrap();
        assert_eq!(cfp.tokens.len(), 13);
        assert_eq!(
            cfp.tokens[..4],
            [
                Token::Full(1.0),
                Token::Repeat(0),
                Token::Full(0.5),
                Token::Delta(0xBD)
            ]
        );
        assert_eq!(cfp.value_count(), 14);
        assert_eq!(cfp.to_bytes().unwrap(), GOLDEN);
        assert_eq!(
            cfp.describe().facts,
            [
                ("tokens", "13".to_owned()),
                ("values", "14".to_owned()),
                ("full values", "5".to_owned()),
                ("repeats", "5".to_owned()),
                ("deltas", "3".to_owned()),
            ]
        );
    }

    #[test]
    fn golden_bytes_split_by_their_skills_counts_into_known_values() {
        let streams = Streams::split(GOLDEN, &counts(2, 2)).unwrap();
        assert_eq!(streams.rotations_y, [Token::Repeat(1)]);
        let values = streams.values().unwrap();
        let sqrt_half = std::f32::consts::FRAC_1_SQRT_2;
        assert_eq!(
            values.translations,
            [[1.0, 0.5, 0.1], [1.0, 0.5 + 0.00625, 0.1 - 0.1]]
        );
        assert_eq!(values.rotations, [[0.0, 0.0, -sqrt_half, sqrt_half]; 2]);
        assert_eq!(streams.counts().unwrap(), counts(2, 2));
        assert_eq!(streams.to_bytes_with(&counts(2, 2)).unwrap(), GOLDEN);
        assert_eq!(Cfp::from(&streams).to_bytes().unwrap(), GOLDEN);
    }

    #[test]
    fn counts_that_disagree_with_the_tokens_are_errors_naming_both() {
        assert_eq!(
            Streams::split(GOLDEN, &counts(3, 2))
                .unwrap_err()
                .to_string(),
            "the tokens stand for 14 values, but the skill's counts need 17 \
             (3 × 3 translations + 4 × 2 rotations)"
        );
        // One full value, then a repeat of three: four values.
        let repeat = [0xFF, 0x00, 0x00, 0x80, 0x3F, 0xFE, 0x02, 0x00];
        assert_eq!(
            Streams::from_bytes_with(&repeat, &counts(2, 0))
                .unwrap_err()
                .to_string(),
            "byte 5: translations_x[1]: the repeat takes the component to 4 values, \
             past its skill's count of 2"
        );
        let error = Streams::from_bytes_with(&repeat, &counts(5, 0)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "byte 8: translations_x: the file ends after 4 of the component's 5 values \
             (its skill's count)"
        );
        // The four values fill x, but y and z find nothing.
        assert_eq!(
            Streams::split(&repeat, &counts(4, 0))
                .unwrap_err()
                .to_string(),
            "the tokens stand for 4 values, but the skill's counts need 12 \
             (3 × 4 translations + 4 × 0 rotations)"
        );
    }

    #[test]
    fn every_cut_of_the_golden_bytes_fails_to_split() {
        for len in 0..GOLDEN.len() {
            let error = Streams::from_bytes_with(&GOLDEN[..len], &counts(2, 2)).unwrap_err();
            assert!(
                matches!(error.position, Some(Position::Byte(offset)) if offset <= len as u64),
                "{len}: {error}"
            );
            assert!(Streams::split(&GOLDEN[..len], &counts(2, 2)).is_err());
        }
    }

    #[test]
    fn components_that_disagree_with_their_counts_do_not_write() {
        let mut streams = Streams::split(GOLDEN, &counts(2, 2)).unwrap();
        streams.rotations_z.push(Token::Delta(1));
        assert_eq!(
            streams
                .to_bytes_with(&counts(2, 2))
                .unwrap_err()
                .to_string(),
            "rotations_z: the tokens stand for 3 values, but the skill's count is 2"
        );
        assert_eq!(
            streams.values().unwrap_err().to_string(),
            "rotations_z: 3 values, but rotations_x has 2"
        );
        streams.rotations_z.pop();
        streams.rotations_w[1] = Token::Delta(DELTA_CODES);
        assert_eq!(
            streams.values().unwrap_err().to_string(),
            "rotations_w[1]: delta code 253 is past the table's 253 entries"
        );
    }

    #[test]
    fn the_plain_encoder_keeps_every_value_bit_for_bit() {
        let long_run = 70_000;
        let translations: Vec<[f32; 3]> = [[1.5, -0.0, f32::NAN]; 2]
            .into_iter()
            .chain(std::iter::repeat_n([0.0, 0.0, 2.0], long_run))
            .collect();
        let values = Values {
            translations,
            rotations: vec![[0.0, 0.0, 0.0, 1.0], [0.25, 0.0, 0.0, 1.0]],
        };
        let streams = Streams::plain(&values);
        assert_eq!(
            streams.translations_x,
            [
                Token::Full(1.5),
                Token::Repeat(0),
                Token::Full(0.0),
                Token::Repeat(u16::MAX),
                Token::Repeat((long_run - 2 - 65_536) as u16),
            ]
        );
        let bytes = Cfp::from(&streams).to_bytes().unwrap();
        let counts = counts(long_run as u32 + 2, 2);
        assert_eq!(streams.counts().unwrap(), counts);
        let decoded = Streams::split(&bytes, &counts).unwrap().values().unwrap();
        let bits = |values: &Values| -> Vec<u32> {
            let translations = values.translations.iter().flatten();
            let rotations = values.rotations.iter().flatten();
            translations
                .chain(rotations)
                .map(|value| value.to_bits())
                .collect()
        };
        assert_eq!(bits(&decoded), bits(&values));
    }
}
