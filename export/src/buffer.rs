//! The asset under construction: the glTF document and its one binary
//! buffer, and how data goes into the buffer (views, accessors, images).

use base64::Engine as _;
use gltf::json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked, USize64};

use crate::{Container, ExportError};

/// The document and the bytes its buffer views point into.
pub struct Asset {
    pub root: json::Root,
    bytes: Vec<u8>,
    /// A PNG chunk (whole: length, kind, data and checksum) that the first
    /// PNG image written carries (see [`crate::import::carried`]).
    png_carrier: Option<Vec<u8>>,
}

impl Asset {
    pub fn new() -> Asset {
        Asset {
            root: json::Root {
                asset: json::Asset {
                    generator: Some(format!("ossuary {}", env!("CARGO_PKG_VERSION"))),
                    ..Default::default()
                },
                ..Default::default()
            },
            bytes: Vec::new(),
            png_carrier: None,
        }
    }

    /// Has the first PNG image written carry `chunk`.
    pub fn carry_in_first_png(&mut self, chunk: Vec<u8>) {
        self.png_carrier = Some(chunk);
    }

    /// Appends a PNG image as a buffer view: with the carried chunk after
    /// its header, for the first image.
    pub fn png_view(&mut self, png: &[u8]) -> json::Index<json::buffer::View> {
        let Some(chunk) = self.png_carrier.take() else {
            return self.view(png, None);
        };
        // The signature (8 bytes) and the header chunk (25) come first.
        let (head, rest) = png.split_at(png.len().min(33));
        self.view(&[head, &chunk, rest].concat(), None)
    }

    /// Appends `data` as a buffer view. Every view starts on a multiple of
    /// four bytes, as glTF requires of accessor data.
    pub fn view(&mut self, data: &[u8], target: Option<Target>) -> json::Index<json::buffer::View> {
        pad_to_four(&mut self.bytes, 0);
        let offset = self.bytes.len();
        self.bytes.extend_from_slice(data);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(data.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// Float vectors (`N` components each, read as `type_`); `bounds` adds
    /// the per-component minimum and maximum, which positions and animation
    /// times must have.
    pub fn floats<const N: usize>(
        &mut self,
        items: &[[f32; N]],
        type_: Type,
        target: Option<Target>,
        bounds: bool,
    ) -> json::Index<json::Accessor> {
        let data: Vec<u8> = items
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let bounds = bounds.then(|| {
            let mut min = [f32::INFINITY; N];
            let mut max = [f32::NEG_INFINITY; N];
            for item in items {
                for ((low, high), &value) in min.iter_mut().zip(max.iter_mut()).zip(item) {
                    *low = low.min(value);
                    *high = high.max(value);
                }
            }
            [
                json::Value::from(min.to_vec()),
                json::Value::from(max.to_vec()),
            ]
        });
        self.accessor(
            &data,
            items.len(),
            type_,
            ComponentType::F32,
            target,
            bounds,
        )
    }

    /// Joint indices, four per vertex.
    pub fn joints(&mut self, items: &[[u16; 4]]) -> json::Index<json::Accessor> {
        let data: Vec<u8> = items
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let target = Some(Target::ArrayBuffer);
        self.accessor(
            &data,
            items.len(),
            Type::Vec4,
            ComponentType::U16,
            target,
            None,
        )
    }

    /// Triangle corners.
    pub fn indices(&mut self, items: &[u32]) -> json::Index<json::Accessor> {
        let data: Vec<u8> = items.iter().flat_map(|v| v.to_le_bytes()).collect();
        let target = Some(Target::ElementArrayBuffer);
        self.accessor(
            &data,
            items.len(),
            Type::Scalar,
            ComponentType::U32,
            target,
            None,
        )
    }

    /// An accessor over its own view of `data`; `bounds` are the minimum
    /// and maximum, when given.
    fn accessor(
        &mut self,
        data: &[u8],
        count: usize,
        type_: Type,
        component: ComponentType,
        target: Option<Target>,
        bounds: Option<[json::Value; 2]>,
    ) -> json::Index<json::Accessor> {
        let view = self.view(data, target);
        let [min, max] = bounds.map_or([None, None], |bounds| bounds.map(Some));
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(type_),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// The finished file. A `.gltf` carries the buffer as a data URI, a
    /// `.glb` in its binary chunk.
    pub fn finish(mut self, container: Container) -> Result<Vec<u8>, ExportError> {
        if !self.bytes.is_empty() {
            pad_to_four(&mut self.bytes, 0);
            let uri = (container == Container::Gltf).then(|| {
                let encoded = base64::engine::general_purpose::STANDARD.encode(&self.bytes);
                format!("data:application/octet-stream;base64,{encoded}")
            });
            self.root.push(json::Buffer {
                byte_length: USize64::from(self.bytes.len()),
                name: None,
                uri,
                extensions: None,
                extras: Default::default(),
            });
        }
        match container {
            Container::Gltf => Ok(self.root.to_vec_pretty()?),
            Container::Glb => {
                let mut json = self.root.to_vec()?;
                pad_to_four(&mut json, b' ');
                // The header and two chunk headers, 12 + 8 + 8 bytes.
                let length = 28 + json.len() + self.bytes.len();
                let Ok(length) = u32::try_from(length) else {
                    return Err(ExportError::TooLarge(length));
                };
                let glb = gltf::binary::Glb {
                    header: gltf::binary::Header {
                        magic: *b"glTF",
                        version: 2,
                        length,
                    },
                    json: json.into(),
                    bin: (!self.bytes.is_empty()).then_some(self.bytes.into()),
                };
                Ok(glb.to_vec()?)
            }
        }
    }
}

fn pad_to_four(bytes: &mut Vec<u8>, filler: u8) {
    bytes.resize(bytes.len().next_multiple_of(4), filler);
}
