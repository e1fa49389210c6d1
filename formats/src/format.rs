//! What a format is to the rest of the project: its registration
//! ([`Format`]), the decoded file it gives ([`Document`]), and the helpers a
//! format module builds its registration from. The list of every format is
//! [`crate::catalogue`].

use std::any::Any;
use std::collections::HashMap;
use std::io::Cursor;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::rig::Rig;
pub use crate::schema::json::JsonError;
use crate::schema::text::TextSchema;
use crate::schema::{
    json, BinarySchema, Endian, Error, ErrorKind, HasContext, Layout, SizeOutput, TextLayout,
    TypeLayout,
};

/// Binary files compare by byte offset; text files by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Binary,
    Text,
}

/// One registered format.
#[derive(Clone, Copy)]
pub struct Format {
    /// The name `--format` takes, e.g. `tso-skel`.
    pub name: &'static str,
    /// What a person calls it, e.g. "The Sims Online skeleton".
    pub title: &'static str,
    /// File extensions without the dot, lower case.
    pub extensions: &'static [&'static str],
    pub encoding: Encoding,
    /// Whether a file's bytes look like this format (for files whose
    /// extension says nothing).
    pub sniff: fn(&[u8]) -> bool,
    pub decode: fn(&[u8]) -> Decoded,
    pub from_json: fn(&str) -> Result<Box<dyn Document>, JsonError>,
    /// The format's top-level schema type, for its reference page; the
    /// types it holds are reached through its fields.
    pub layout: TypeLayout,
    /// Synthetic sample files the project ships (`cargo xtask regen`).
    pub samples: fn() -> Vec<Sample>,
    /// Lossless conversions between this format and others carrying the
    /// same data, in either direction: the module that knows both types
    /// declares them, so neither twin imports the other twice.
    pub conversions: &'static [Conversion],
}

impl Format {
    /// Whether two registrations are the same format.
    pub fn is(&self, other: &Format) -> bool {
        self.name == other.name
    }

    /// A binary format whose file is one `T`: its encoding, decoder, JSON
    /// reader and reference page all come from `T`, so a registration
    /// cannot disagree with itself. It has no samples and no conversions;
    /// set them with struct update syntax
    /// (`Format { samples, ..Format::binary::<T>(...) }`).
    pub const fn binary<T>(
        name: &'static str,
        title: &'static str,
        extensions: &'static [&'static str],
        sniff: fn(&[u8]) -> bool,
    ) -> Format
    where
        T: BinarySchema
            + HasContext<Context = ()>
            + Layout
            + Serialize
            + DeserializeOwned
            + Describe
            + Rig
            + 'static,
    {
        let codec = Codec {
            encoding: Encoding::Binary,
            decode: decode_binary::<T>,
            from_json: binary_from_json::<T>,
            layout: T::LAYOUT,
        };
        codec.registered(name, title, extensions, sniff)
    }

    /// [`Format::binary`] for a text format whose file is one `T`.
    pub const fn text<T>(
        name: &'static str,
        title: &'static str,
        extensions: &'static [&'static str],
        sniff: fn(&[u8]) -> bool,
    ) -> Format
    where
        T: TextSchema
            + HasContext<TextContext = ()>
            + TextLayout
            + Serialize
            + DeserializeOwned
            + Describe
            + Rig
            + 'static,
    {
        let codec = Codec {
            encoding: Encoding::Text,
            decode: decode_text::<T>,
            from_json: text_from_json::<T>,
            layout: T::TEXT_LAYOUT,
        };
        codec.registered(name, title, extensions, sniff)
    }
}

/// What a registration takes from its type.
struct Codec {
    encoding: Encoding,
    decode: fn(&[u8]) -> Decoded,
    from_json: fn(&str) -> Result<Box<dyn Document>, JsonError>,
    layout: TypeLayout,
}

impl Codec {
    /// The registration, without samples or conversions.
    const fn registered(
        self,
        name: &'static str,
        title: &'static str,
        extensions: &'static [&'static str],
        sniff: fn(&[u8]) -> bool,
    ) -> Format {
        Format {
            name,
            title,
            extensions,
            encoding: self.encoding,
            sniff,
            decode: self.decode,
            from_json: self.from_json,
            layout: self.layout,
            samples: no_samples,
            conversions: &[],
        }
    }
}

/// The samples of a format that ships none.
fn no_samples() -> Vec<Sample> {
    Vec::new()
}

/// A lossless conversion from one registered format to another.
#[derive(Clone, Copy)]
pub struct Conversion {
    pub from: &'static Format,
    pub to: &'static Format,
    /// `None` when the document is not of `from`'s type.
    pub convert: fn(&dyn Any) -> Option<Box<dyn Document>>,
}

/// What decoding a file gives.
pub type Decoded = Result<Box<dyn Document>, Error>;

/// A synthetic sample file of a format.
pub struct Sample {
    pub file_name: &'static str,
    pub document: Box<dyn Document>,
}

/// A decoded file of some format.
pub trait Document: Any {
    fn encode(&self) -> Result<Vec<u8>, Error>;
    /// The decoded value as pretty JSON; `encode(from_json(to_json(x)))` gives x's bytes.
    fn to_json(&self) -> Result<String, serde_json::Error>;
    fn describe(&self) -> Description;
    /// The skeleton, meshes and animations the file holds, for posing.
    fn rig(&self) -> &dyn Rig;
    /// The decoded value itself, for the conversion between twin formats.
    fn as_any(&self) -> &dyn Any;
    /// For a binary schema type: `bytes` decoded as this document's type
    /// and written back both ways the generated codec offers, which must
    /// agree (the tests compare them over every registered binary format,
    /// using a sample document to stand for its type). `None` for text
    /// formats and documents the schema did not make.
    fn codec_paths(&self, bytes: &[u8]) -> Option<CodecPaths> {
        let _ = bytes;
        None
    }
}

/// What the two ways through a binary codec made of the same bytes: the
/// bytes written back, or the error.
#[derive(Debug)]
pub struct CodecPaths {
    /// `from_bytes` then `to_bytes`: a byte slice and a byte vector, the
    /// fast paths. A writer whose counting pass disagrees with what it
    /// wrote is an error here.
    pub through_slice: Result<Vec<u8>, Error>,
    /// `read_from` then `write_to`: any `Read + Seek` and `Write + Seek`,
    /// the paths binrw and streams take. Bytes after the value are an error
    /// spelled as `from_bytes` spells it.
    pub through_stream: Result<Vec<u8>, Error>,
}

/// A readable summary of a file, for `ossuary info`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Description {
    /// Labelled values in display order, e.g. ("bones", "29").
    pub facts: Vec<(&'static str, String)>,
    /// The joint tree, if the file has one, in file order.
    pub joints: Vec<Joint>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub name: String,
    /// Index of the parent in `joints`; `None` for a root or an unknown parent.
    pub parent: Option<usize>,
}

impl Joint {
    /// Joints whose parents are given by name, as the Sims formats store
    /// them; a parent name that no joint has leaves the joint a root.
    pub fn tree_from_parent_names<'a>(
        bones: impl IntoIterator<Item = (String, &'a [u8])>,
        names: &[&[u8]],
    ) -> Vec<Joint> {
        // The first joint with a name wins, as a linear search would find it;
        // a map keeps `ossuary info` linear on a 65,535-bone file.
        let mut index_of: HashMap<&[u8], usize> = HashMap::with_capacity(names.len());
        for (index, name) in names.iter().enumerate() {
            index_of.entry(name).or_insert(index);
        }
        bones
            .into_iter()
            .map(|(name, parent)| Joint {
                name,
                parent: index_of.get(parent).copied(),
            })
            .collect()
    }
}

/// What a format's types say about themselves for `ossuary info`.
pub trait Describe {
    fn describe(&self) -> Description;
}

/// How a document's value becomes a file again.
trait FileEncoding<T> {
    fn encode(value: &T) -> Result<Vec<u8>, Error>;
    /// See [`Document::codec_paths`].
    fn codec_paths(bytes: &[u8]) -> Option<CodecPaths>;
}

/// Through the binary schema (`BinarySchema::to_bytes`).
struct AsBinary;

/// Through the text schema (`TextSchema::to_text`).
struct AsText;

impl<T: BinarySchema + HasContext<Context = ()>> FileEncoding<T> for AsBinary {
    fn encode(value: &T) -> Result<Vec<u8>, Error> {
        value.to_bytes()
    }

    fn codec_paths(bytes: &[u8]) -> Option<CodecPaths> {
        Some(CodecPaths {
            through_slice: through_slice::<T>(bytes),
            through_stream: through_stream::<T>(bytes),
        })
    }
}

fn through_slice<T: BinarySchema + HasContext<Context = ()>>(
    bytes: &[u8],
) -> Result<Vec<u8>, Error> {
    let value = T::from_bytes(bytes)?;
    let written = value.to_bytes()?;
    let mut size = SizeOutput::default();
    value.encode_output(&mut size, Endian::Little, &())?;
    if size.counted() != written.len() as u64 {
        return Err(Error::new(ErrorKind::Invalid(format!(
            "the counting pass gave {} bytes, but the writer wrote {}",
            size.counted(),
            written.len()
        ))));
    }
    Ok(written)
}

fn through_stream<T: BinarySchema + HasContext<Context = ()>>(
    bytes: &[u8],
) -> Result<Vec<u8>, Error> {
    let mut cursor = Cursor::new(bytes);
    let value = T::read_from(&mut cursor)?;
    let end = cursor.position();
    let len = bytes.len() as u64;
    if end != len {
        return Err(Error::at_byte(
            end,
            ErrorKind::Invalid(format!("{} byte(s) follow the end of the data", len - end)),
        ));
    }
    let mut written = Cursor::new(Vec::new());
    value.write_to(&mut written)?;
    Ok(written.into_inner())
}

impl<T: TextSchema + HasContext<TextContext = ()>> FileEncoding<T> for AsText {
    fn encode(value: &T) -> Result<Vec<u8>, Error> {
        value.to_text()
    }

    fn codec_paths(_: &[u8]) -> Option<CodecPaths> {
        None
    }
}

/// A format's value as a [`Document`], written back with encoding `E`.
struct Wrapped<T, E> {
    value: T,
    encoding: PhantomData<E>,
}

impl<T, E> Wrapped<T, E> {
    fn boxed(value: T) -> Box<Self> {
        Box::new(Wrapped {
            value,
            encoding: PhantomData,
        })
    }
}

impl<T, E> Document for Wrapped<T, E>
where
    T: Serialize + Describe + Rig + 'static,
    E: FileEncoding<T> + 'static,
{
    fn encode(&self) -> Result<Vec<u8>, Error> {
        E::encode(&self.value)
    }

    fn to_json(&self) -> Result<String, serde_json::Error> {
        json::to_string_pretty(&self.value)
    }

    fn describe(&self) -> Description {
        self.value.describe()
    }

    fn rig(&self) -> &dyn Rig {
        &self.value
    }

    fn as_any(&self) -> &dyn Any {
        &self.value
    }

    fn codec_paths(&self, bytes: &[u8]) -> Option<CodecPaths> {
        E::codec_paths(bytes)
    }
}

/// Wraps a text schema value, e.g. for a format's samples.
pub fn text_document<T>(value: T) -> Box<dyn Document>
where
    T: TextSchema + HasContext<TextContext = ()> + Serialize + Describe + Rig + 'static,
{
    Wrapped::<T, AsText>::boxed(value)
}

/// `Format::decode` for a text schema type.
pub fn decode_text<T>(bytes: &[u8]) -> Decoded
where
    T: TextSchema + HasContext<TextContext = ()> + Serialize + Describe + Rig + 'static,
{
    Ok(Wrapped::<T, AsText>::boxed(T::from_text(bytes)?))
}

/// `Format::from_json` for a text schema type.
pub fn text_from_json<T>(json: &str) -> Result<Box<dyn Document>, JsonError>
where
    T: TextSchema
        + HasContext<TextContext = ()>
        + Serialize
        + DeserializeOwned
        + Describe
        + Rig
        + 'static,
{
    Ok(Wrapped::<T, AsText>::boxed(json::from_str::<T>(json)?))
}

/// `Conversion::convert` for a conversion from `S`: `convert`'s document,
/// or `None` when the source is not an `S`.
pub fn converted<S: 'static>(
    source: &dyn Any,
    convert: impl FnOnce(&S) -> Box<dyn Document>,
) -> Option<Box<dyn Document>> {
    source.downcast_ref::<S>().map(convert)
}

/// `Format::decode` for a binary schema type.
pub fn decode_binary<T>(bytes: &[u8]) -> Decoded
where
    T: BinarySchema + HasContext<Context = ()> + Serialize + Describe + Rig + 'static,
{
    Ok(Wrapped::<T, AsBinary>::boxed(T::from_bytes(bytes)?))
}

/// `Format::from_json` for a binary schema type.
pub fn binary_from_json<T>(json: &str) -> Result<Box<dyn Document>, JsonError>
where
    T: BinarySchema
        + HasContext<Context = ()>
        + Serialize
        + DeserializeOwned
        + Describe
        + Rig
        + 'static,
{
    Ok(Wrapped::<T, AsBinary>::boxed(json::from_str::<T>(json)?))
}

/// Wraps a binary schema value, e.g. for a format's samples.
pub fn binary_document<T>(value: T) -> Box<dyn Document>
where
    T: BinarySchema + HasContext<Context = ()> + Serialize + Describe + Rig + 'static,
{
    Wrapped::<T, AsBinary>::boxed(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registration_by_type_takes_everything_from_the_type() {
        let binary = Format::binary::<crate::swg::mgn::Mesh>("m", "M", &["m"], |_| false);
        assert_eq!(binary.encoding, Encoding::Binary);
        assert_eq!(binary.layout.name, "Mesh");
        assert!((binary.samples)().is_empty() && binary.conversions.is_empty());
        let sample = (crate::swg::mgn::FORMAT.samples)().remove(0);
        let bytes = sample.document.encode().unwrap();
        let decoded = (binary.decode)(&bytes).unwrap();
        assert_eq!(decoded.encode().unwrap(), bytes);
        let json = decoded.to_json().unwrap();
        assert_eq!((binary.from_json)(&json).unwrap().encode().unwrap(), bytes);

        let text = Format::text::<crate::sims::skn::Skn>("s", "S", &["s"], |_| false);
        assert_eq!(text.encoding, Encoding::Text);
        assert_eq!(text.layout.name, "Skn");
        let sample = (crate::sims::skn::FORMAT.samples)().remove(0);
        let bytes = sample.document.encode().unwrap();
        assert_eq!((text.decode)(&bytes).unwrap().encode().unwrap(), bytes);
    }

    #[test]
    fn parents_by_name_resolve_to_the_first_joint_of_that_name() {
        let names: [&[u8]; 4] = [b"ROOT", b"ARM", b"ARM", b"HAND"];
        let bones = [
            ("ROOT".to_owned(), &b"NULL"[..]),
            ("ARM".to_owned(), &b"ROOT"[..]),
            ("ARM".to_owned(), &b"ROOT"[..]),
            ("HAND".to_owned(), &b"ARM"[..]),
        ];
        let parents: Vec<Option<usize>> = Joint::tree_from_parent_names(bones, &names)
            .iter()
            .map(|joint| joint.parent)
            .collect();
        assert_eq!(parents, vec![None, Some(0), Some(0), Some(1)]);
    }
}
