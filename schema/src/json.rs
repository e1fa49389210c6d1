//! Values as JSON, every float bit for bit. JSON has no NaN or infinity, so
//! those are written as strings holding the bit pattern (`"bits:0x7fc00000"`);
//! finite values are plain numbers, printed shortest-exact so they parse back
//! to the same bits. [`to_string_pretty`] and [`from_str`] apply this to every
//! `f32` and `f64` anywhere in a value, with no attribute on the fields: they
//! wrap serde_json's serializer and deserializer, and every nested serializer,
//! deserializer, visitor and access serde hands out, the way
//! serde_path_to_error does.
//!
//! Serde's untagged and internally tagged enums buffer their content before
//! choosing a variant, and a buffered `"bits:…"` string no longer reads as a
//! float; the formats use externally tagged enums only.

use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, Visitor};
use serde::ser::{self, Serialize, Serializer};

/// JSON that does not describe a value of the type, with where and why.
#[derive(Debug, thiserror::Error)]
#[error("line {line} column {column}: {path}: {message}")]
pub struct JsonError {
    pub line: usize,
    pub column: usize,
    /// Where in the value, e.g. `bones[3].name` (`.` for the whole value).
    pub path: String,
    pub message: String,
}

/// The value as indented JSON.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    value.serialize(FloatBits(&mut serde_json::Serializer::pretty(&mut out)))?;
    String::from_utf8(out).map_err(ser::Error::custom)
}

/// Reads a value from JSON written by [`to_string_pretty`] (or by hand).
pub fn from_str<T: DeserializeOwned>(json: &str) -> Result<T, JsonError> {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let value =
        serde_path_to_error::deserialize(FloatBits(&mut deserializer)).map_err(|error| {
            let path = error.path().to_string();
            let inner = error.into_inner();
            JsonError {
                line: inner.line(),
                column: inner.column(),
                path,
                message: strip_position(&inner.to_string()),
            }
        })?;
    deserializer.end().map_err(|inner| JsonError {
        line: inner.line(),
        column: inner.column(),
        path: ".".to_owned(),
        message: strip_position(&inner.to_string()),
    })?;
    Ok(value)
}

/// serde_json ends its messages with " at line L column C", which the
/// error already carries separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(cut) => message.get(..cut).unwrap_or(message).to_owned(),
        None => message.to_owned(),
    }
}

/// A float's JSON form: a number when finite, else its bits as a string.
trait JsonFloat: Copy {
    fn is_finite(self) -> bool;
    fn bits_text(self) -> String;
    /// The non-finite float a `bits:0x…` string holds.
    fn from_bits_text(text: &str) -> Option<Self>;
    fn visit<'de, V: Visitor<'de>, E: de::Error>(self, visitor: V) -> Result<V::Value, E>;
}

macro_rules! json_float {
    ($float:ty, $bits:ty, $width:literal, $visit:ident) => {
        impl JsonFloat for $float {
            fn is_finite(self) -> bool {
                <$float>::is_finite(self)
            }

            fn bits_text(self) -> String {
                format!(concat!("bits:0x{:0", $width, "x}"), self.to_bits())
            }

            fn from_bits_text(text: &str) -> Option<Self> {
                text.strip_prefix("bits:0x")
                    .and_then(|hex| <$bits>::from_str_radix(hex, 16).ok())
                    .map(<$float>::from_bits)
                    .filter(|value| !value.is_finite())
            }

            fn visit<'de, V: Visitor<'de>, E: de::Error>(self, visitor: V) -> Result<V::Value, E> {
                visitor.$visit(self)
            }
        }
    };
}

json_float!(f32, u32, 8, visit_f32);
json_float!(f64, u64, 16, visit_f64);

/// A serializer or deserializer (or one of serde's compound parts) whose
/// floats, and those of everything nested in it, take their JSON form.
struct FloatBits<T>(T);

fn serialize_float<S: Serializer, F: JsonFloat>(
    serializer: S,
    value: F,
    number: impl FnOnce(S, F) -> Result<S::Ok, S::Error>,
) -> Result<S::Ok, S::Error> {
    if value.is_finite() {
        number(serializer, value)
    } else {
        serializer.serialize_str(&value.bits_text())
    }
}

/// A value to serialize through [`FloatBits`].
struct Nested<'a, T: ?Sized>(&'a T);

impl<T: Serialize + ?Sized> Serialize for Nested<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(FloatBits(serializer))
    }
}

macro_rules! forward_serialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method(self $(, $arg: $ty)*) -> Result<S::Ok, S::Error> {
            self.0.$method($($arg),*)
        }
    )*};
}

impl<S: Serializer> Serializer for FloatBits<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = FloatBits<S::SerializeSeq>;
    type SerializeTuple = FloatBits<S::SerializeTuple>;
    type SerializeTupleStruct = FloatBits<S::SerializeTupleStruct>;
    type SerializeTupleVariant = FloatBits<S::SerializeTupleVariant>;
    type SerializeMap = FloatBits<S::SerializeMap>;
    type SerializeStruct = FloatBits<S::SerializeStruct>;
    type SerializeStructVariant = FloatBits<S::SerializeStructVariant>;

    forward_serialize! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        serialize_float(self.0, v, S::serialize_f32)
    }

    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        serialize_float(self.0, v, S::serialize_f64)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Nested(value))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Nested(value))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Nested(value))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(FloatBits)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(FloatBits)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(FloatBits)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(FloatBits)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(FloatBits)
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(FloatBits)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_struct_variant(name, index, variant, len)
            .map(FloatBits)
    }

    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.collect_str(value)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// The compound serializers: each element, field, key and value is nested.
macro_rules! serialize_compound {
    ($trait:ident, $method:ident($($arg:ident: $ty:ty),*)) => {
        impl<S: ser::$trait> ser::$trait for FloatBits<S> {
            type Ok = S::Ok;
            type Error = S::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, $($arg: $ty,)* value: &T) -> Result<(), S::Error> {
                self.0.$method($($arg,)* &Nested(value))
            }

            fn end(self) -> Result<S::Ok, S::Error> {
                self.0.end()
            }
        }
    };
}

serialize_compound!(SerializeSeq, serialize_element());
serialize_compound!(SerializeTuple, serialize_element());
serialize_compound!(SerializeTupleStruct, serialize_field());
serialize_compound!(SerializeTupleVariant, serialize_field());
serialize_compound!(SerializeStruct, serialize_field(key: &'static str));
serialize_compound!(SerializeStructVariant, serialize_field(key: &'static str));

impl<S: ser::SerializeMap> ser::SerializeMap for FloatBits<S> {
    type Ok = S::Ok;
    type Error = S::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), S::Error> {
        self.0.serialize_key(&Nested(key))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
        self.0.serialize_value(&Nested(value))
    }

    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

/// Reads a float from a number, or from the `bits:0x…` string of a
/// non-finite one, and hands it to the visitor that asked for the float.
struct FloatVisitor<V, F> {
    visitor: V,
    float: std::marker::PhantomData<F>,
}

impl<'de, V: Visitor<'de>, F: JsonFloat> Visitor<'de> for FloatVisitor<V, F> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number, or a \"bits:0x…\" string for NaN and infinities")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.visitor.visit_f64(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.visitor.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.visitor.visit_u64(v)
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        match F::from_bits_text(text) {
            Some(value) => value.visit(self.visitor),
            None => Err(E::custom(format!("{text:?} is not a float's bit pattern"))),
        }
    }
}

macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self $(, $arg: $ty)*, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method($($arg,)* FloatBits(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for FloatBits<D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
    }

    /// Serde's derived structs skip a key they do not know by reading its
    /// value as `IgnoredAny`, and the formats' values have no other use for
    /// it: a misspelt key would vanish unnoticed from the value written.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, D::Error> {
        Err(de::Error::custom("no such field in this value"))
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(FloatVisitor::<V, f32> {
            visitor,
            float: std::marker::PhantomData,
        })
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(FloatVisitor::<V, f64> {
            visitor,
            float: std::marker::PhantomData,
        })
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.0.$method(v)
        }
    )*};
}

/// A visitor whose nested deserializers and accesses keep the float form.
impl<'de, V: Visitor<'de>> Visitor<'de> for FloatBits<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    forward_visit! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_i64(i64);
        visit_i128(i128);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_u64(u64);
        visit_u128(u128);
        visit_f32(f32);
        visit_f64(f64);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(FloatBits(deserializer))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(FloatBits(deserializer))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(FloatBits(seq))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(FloatBits(map))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(FloatBits(data))
    }
}

/// A seed whose deserializer keeps the float form.
impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for FloatBits<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(FloatBits(deserializer))
    }
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for FloatBits<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(FloatBits(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for FloatBits<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(FloatBits(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(FloatBits(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for FloatBits<A> {
    type Error = A::Error;
    type Variant = FloatBits<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(FloatBits(seed))
            .map(|(value, variant)| (value, FloatBits(variant)))
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for FloatBits<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(FloatBits(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, FloatBits(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, FloatBits(visitor))
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::*;

    #[derive(Debug, Serialize, Deserialize)]
    struct Sample {
        one: f32,
        many: [f32; 3],
        nested: Vec<Option<Inner>>,
        wide: f64,
        choice: Choice,
    }

    #[derive(Debug, Serialize, Deserialize)]
    struct Inner {
        value: f32,
    }

    #[derive(Debug, Serialize, Deserialize)]
    enum Choice {
        Point([f32; 2]),
        Named { weight: f32 },
    }

    fn sample(bits: u32) -> Sample {
        let value = f32::from_bits(bits);
        Sample {
            one: value,
            many: [value, 1.5, -0.0],
            nested: vec![None, Some(Inner { value })],
            wide: f64::from(value),
            choice: Choice::Named { weight: value },
        }
    }

    /// Every float of the value, as bits.
    fn bits(sample: &Sample) -> Vec<u64> {
        let Choice::Named { weight } = sample.choice else {
            return Vec::new();
        };
        let floats = [sample.one, weight]
            .into_iter()
            .chain(sample.many)
            .chain(sample.nested.iter().flatten().map(|inner| inner.value));
        floats
            .map(|value| u64::from(value.to_bits()))
            .chain([sample.wide.to_bits()])
            .collect()
    }

    fn through_json(value: &Sample) -> Sample {
        let json = to_string_pretty(value).unwrap();
        from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"))
    }

    #[test]
    fn every_bit_pattern_comes_back_wherever_the_float_is() {
        let patterns = [
            0x7fc0_0000u32,
            0xffc0_0001,
            0x7f80_0000,
            0x8000_0000,
            0x3f80_0000,
            0x0000_0001,
        ];
        for bits_of in patterns {
            let value = sample(bits_of);
            assert_eq!(bits(&through_json(&value)), bits(&value), "{bits_of:#x}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
        #[test]
        fn any_float_survives_json(bits_of: u32, wide: u64) {
            let mut value = sample(bits_of);
            value.many[2] = f32::from_bits(bits_of.rotate_left(7));
            value.wide = f64::from_bits(wide);
            proptest::prop_assert_eq!(bits(&through_json(&value)), bits(&value));
        }
    }

    #[test]
    fn finite_floats_are_numbers_and_the_others_their_bits() {
        let value = Inner {
            value: f32::from_bits(0x7fc0_0000),
        };
        assert_eq!(
            to_string_pretty(&value).unwrap(),
            "{\n  \"value\": \"bits:0x7fc00000\"\n}"
        );
        let choice = Choice::Point([0.25, f32::NEG_INFINITY]);
        assert_eq!(
            to_string_pretty(&choice).unwrap(),
            serde_json::to_string_pretty(&serde_json::json!({
                "Point": [0.25, "bits:0xff800000"]
            }))
            .unwrap()
        );
    }

    #[test]
    fn a_bad_bit_pattern_names_where_it_is() {
        let error =
            from_str::<Vec<Inner>>("[\n{\"value\": 1.0},\n{\"value\": \"bits:0x3f800000\"}]")
                .unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 3 column 27: [1].value: \"bits:0x3f800000\" is not a float's bit pattern"
        );
        let error = from_str::<Inner>("{\"value\": true}").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 1 column 14: value: invalid type: boolean `true`, expected a number, \
             or a \"bits:0x…\" string for NaN and infinities"
        );
    }

    #[test]
    fn an_unknown_key_is_an_error_naming_it() {
        let error =
            from_str::<Vec<Inner>>("[\n{\"value\": 1.0},\n{\"value\": 2.0, \"valeu\": 3.0}]")
                .unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 3 column 24: [1].valeu: no such field in this value"
        );
    }

    #[test]
    fn text_after_the_value_is_an_error() {
        let error = from_str::<Inner>("{\"value\": 1.0} x").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 1 column 16: .: trailing characters"
        );
    }
}
