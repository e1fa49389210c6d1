//! Floats in JSON, bit for bit. JSON has no NaN or infinity, so those are
//! written as strings holding the bit pattern (`"bits:0x7fc00000"`); finite
//! values are plain numbers, printed shortest-exact so they parse back to the
//! same bits. Use with `#[serde(with = "formats::schema::json::float")]` on
//! fields of type `f32`, `f64` or arrays and vectors of them.

pub mod float {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// A float or a collection of floats with the JSON form described above.
    pub trait JsonFloat: Sized {
        fn to_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
        fn from_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
    }

    pub fn serialize<T: JsonFloat, S: Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value.to_json(serializer)
    }

    pub fn deserialize<'de, T: JsonFloat, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        T::from_json(deserializer)
    }

    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Repr<F> {
        Number(F),
        Bits(String),
    }

    macro_rules! json_float {
        ($float:ty, $bits:ty, $width:literal) => {
            impl JsonFloat for $float {
                fn to_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                    if self.is_finite() {
                        Serialize::serialize(self, serializer)
                    } else {
                        serializer.serialize_str(&format!(
                            concat!("bits:0x{:0", $width, "x}"),
                            self.to_bits()
                        ))
                    }
                }

                fn from_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                    match Repr::<$float>::deserialize(deserializer)? {
                        Repr::Number(value) => Ok(value),
                        Repr::Bits(text) => text
                            .strip_prefix("bits:0x")
                            .and_then(|hex| <$bits>::from_str_radix(hex, 16).ok())
                            .map(<$float>::from_bits)
                            .filter(|value| !value.is_finite())
                            .ok_or_else(|| {
                                D::Error::custom(format!("{text:?} is not a float's bit pattern"))
                            }),
                    }
                }
            }
        };
    }

    json_float!(f32, u32, 8);
    json_float!(f64, u64, 16);

    /// Serializes each element with its float form.
    struct Each<'a, T>(&'a T);

    impl<T: JsonFloat> Serialize for Each<'_, T> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.0.to_json(serializer)
        }
    }

    /// Deserializes each element with its float form.
    struct FromEach<T>(T);

    impl<'de, T: JsonFloat> Deserialize<'de> for FromEach<T> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            T::from_json(deserializer).map(FromEach)
        }
    }

    impl<T: JsonFloat, const N: usize> JsonFloat for [T; N] {
        fn to_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.iter().map(Each))
        }

        fn from_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let elements = Vec::<FromEach<T>>::deserialize(deserializer)?;
            let len = elements.len();
            elements
                .into_iter()
                .map(|FromEach(value)| value)
                .collect::<Vec<T>>()
                .try_into()
                .map_err(|_| D::Error::invalid_length(len, &format!("{N} floats").as_str()))
        }
    }

    impl<T: JsonFloat> JsonFloat for Vec<T> {
        fn to_json<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.iter().map(Each))
        }

        fn from_json<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let elements = Vec::<FromEach<T>>::deserialize(deserializer)?;
            Ok(elements.into_iter().map(|FromEach(value)| value).collect())
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[derive(Serialize, Deserialize)]
        struct Sample {
            #[serde(with = "super")]
            one: f32,
            #[serde(with = "super")]
            many: [f32; 3],
        }

        #[test]
        fn every_bit_pattern_comes_back() {
            let patterns = [
                0x7fc0_0000u32,
                0xffc0_0001,
                0x7f80_0000,
                0x8000_0000,
                0x3f80_0000,
                0x0000_0001,
            ];
            for bits in patterns {
                let value = f32::from_bits(bits);
                let sample = Sample {
                    one: value,
                    many: [value, 1.5, -0.0],
                };
                let json = serde_json::to_string(&sample).unwrap();
                let back: Sample = serde_json::from_str(&json).unwrap();
                assert_eq!(back.one.to_bits(), bits, "{json}");
                assert_eq!(
                    back.many.map(f32::to_bits),
                    sample.many.map(f32::to_bits),
                    "{json}"
                );
            }
        }

        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
            #[test]
            fn any_f32_survives_json(bits: u32) {
                let sample = Sample { one: f32::from_bits(bits), many: [f32::from_bits(bits.rotate_left(7)); 3] };
                let json = serde_json::to_string(&sample).unwrap();
                let back: Sample = serde_json::from_str(&json).unwrap();
                proptest::prop_assert_eq!(back.one.to_bits(), bits);
                proptest::prop_assert_eq!(back.many[0].to_bits(), bits.rotate_left(7));
            }
        }

        #[test]
        fn nan_is_written_as_its_bits() {
            let sample = Sample {
                one: f32::from_bits(0x7fc0_0000),
                many: [0.25, 2.0, 3.0],
            };
            assert_eq!(
                serde_json::to_string(&sample).unwrap(),
                r#"{"one":"bits:0x7fc00000","many":[0.25,2.0,3.0]}"#
            );
        }
    }
}
