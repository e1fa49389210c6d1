//! A glTF asset read for import: the document, its buffers, and accessors
//! read with every offset, stride and count checked against the bytes
//! there are (so broken accessors are an error naming the accessor, never
//! a panic or an allocation past the file's size).

use std::path::Path;

use base64::Engine;
use gltf::accessor::{DataType, Dimensions};
use gltf::Document;

use super::ImportError;

/// The most elements of an accessor without a buffer view (all zeros): they
/// take no input, so, as for every list whose elements take no bytes, at
/// most 65,536.
const MAX_ZEROS: usize = 65_536;

/// The prefix of a buffer or image embedded as base64 in a `.gltf` file.
const DATA_URI_BASE64: &str = ";base64,";

/// A parsed asset and the bytes of each of its buffers, in buffer order.
pub struct Asset {
    pub document: Document,
    pub buffers: Vec<Vec<u8>>,
    /// Values still to be read from accessors (see [`decoding_budget`]).
    budget: std::cell::Cell<u64>,
}

/// The most values an import reads from an asset's accessors: four per
/// byte of its buffers (a value takes at least one byte, and an accessor
/// read again, as animations share their key times, takes more), and a
/// few million for accessors that hold zeros. Accessors can share bytes,
/// and meshes accessors: without a bound, a small asset whose thousands
/// of meshes read one large accessor would take memory and time its size
/// does not allow.
fn decoding_budget(buffers: &[Vec<u8>]) -> u64 {
    let bytes: u64 = buffers.iter().map(|buffer| buffer.len() as u64).sum();
    bytes.saturating_mul(4).saturating_add(1 << 22)
}

impl Asset {
    /// A `.glb` or `.gltf` file's bytes. Buffers are the GLB's binary chunk
    /// or data URIs; `external` gives a buffer or image file a `.gltf`
    /// names by a relative URI (`None`: only embedded data is allowed).
    pub fn read(
        bytes: &[u8],
        external: &dyn Fn(&str) -> Option<Vec<u8>>,
    ) -> Result<Asset, ImportError> {
        let unreadable = |error: gltf::Error| ImportError::Gltf(error.to_string());
        let gltf::Gltf { document, blob } =
            gltf::Gltf::from_slice_without_validation(bytes).map_err(unreadable)?;
        // The gltf crate's own validation indexes a primitive's POSITION
        // accessor unchecked: that index is checked first.
        let root = document.into_json();
        positions_in_range(&root)?;
        validated(&root)?;
        let document = gltf::Document::from_json_without_validation(root);
        checked(document.as_json())?;
        let mut buffers = Vec::new();
        let mut blob = blob;
        for buffer in document.buffers() {
            let data = match buffer.source() {
                gltf::buffer::Source::Bin => blob.take().ok_or_else(|| ImportError::Buffer {
                    index: buffer.index(),
                    problem: "it is the GLB's binary chunk, and the file has none".to_owned(),
                })?,
                gltf::buffer::Source::Uri(uri) => {
                    uri_bytes(uri, external).map_err(|problem| ImportError::Buffer {
                        index: buffer.index(),
                        problem,
                    })?
                }
            };
            if data.len() < buffer.length() {
                return Err(ImportError::Buffer {
                    index: buffer.index(),
                    problem: format!(
                        "it holds {} bytes where its byteLength says {}",
                        data.len(),
                        buffer.length()
                    ),
                });
            }
            buffers.push(data);
        }
        let budget = std::cell::Cell::new(decoding_budget(&buffers));
        Ok(Asset {
            document,
            buffers,
            budget,
        })
    }

    /// The bytes of a buffer view.
    pub fn view_bytes(&self, view: &gltf::buffer::View) -> Option<&[u8]> {
        let buffer = self.buffers.get(view.buffer().index())?;
        let end = view.offset().checked_add(view.length())?;
        buffer.get(view.offset()..end)
    }

    /// An accessor's elements as f32 components (`N` per element):
    /// floats as they are, normalized integers scaled to 0..1 (or -1..1).
    pub fn floats<const N: usize>(
        &self,
        accessor: &gltf::Accessor,
    ) -> Result<Vec<[f32; N]>, ImportError> {
        self.elements(accessor, N, |bytes, data_type, normalized| {
            component_as_float(bytes, data_type, normalized)
        })
    }

    /// An accessor's elements as unsigned integers (joints, indices).
    pub fn integers<const N: usize>(
        &self,
        accessor: &gltf::Accessor,
    ) -> Result<Vec<[u32; N]>, ImportError> {
        self.elements(accessor, N, |bytes, data_type, _| {
            component_as_integer(bytes, data_type)
        })
    }

    fn elements<T: Copy + Default, const N: usize>(
        &self,
        accessor: &gltf::Accessor,
        components: usize,
        read: impl Fn(&[u8], DataType, bool) -> Option<T>,
    ) -> Result<Vec<[T; N]>, ImportError> {
        let fail = |problem: String| ImportError::Accessor {
            index: accessor.index(),
            problem,
        };
        if dimension_count(accessor.dimensions()) != components {
            return Err(fail(format!(
                "it holds {:?} elements where {components} components are needed",
                accessor.dimensions()
            )));
        }
        let data_type = accessor.data_type();
        let component_size = data_type.size();
        let element_size = component_size * components;
        let count = accessor.count();
        let Some(view) = accessor.view() else {
            // All zeros (glTF 2.0, 3.6.2.3); they take no bytes of the
            // input, so their count is bounded here.
            if count > MAX_ZEROS {
                return Err(fail(format!(
                    "it has no buffer view and {count} elements; such an accessor (all zeros) \
                     is read up to {MAX_ZEROS}"
                )));
            }
            self.spend(count, components).map_err(fail)?;
            let mut elements = vec![[T::default(); N]; count];
            self.sparse(accessor, &mut elements, &read)?;
            return Ok(elements);
        };
        let bytes = self
            .view_bytes(&view)
            .ok_or_else(|| fail("its buffer view lies outside its buffer".to_owned()))?;
        let stride = view.stride().unwrap_or(element_size);
        if stride < element_size {
            return Err(fail(format!(
                "its stride {stride} is shorter than an element ({element_size} bytes)"
            )));
        }
        // The last element's end, checked before anything is allocated.
        let fits = match count.checked_sub(1) {
            None => true,
            Some(last) => last
                .checked_mul(stride)
                .and_then(|at| at.checked_add(accessor.offset()))
                .and_then(|at| at.checked_add(element_size))
                .is_some_and(|end| end <= bytes.len()),
        };
        if !fits {
            return Err(fail(format!(
                "{count} elements do not fit the {} bytes of its buffer view",
                bytes.len()
            )));
        }
        self.spend(count, components).map_err(fail)?;
        let mut elements = Vec::with_capacity(count);
        for element in 0..count {
            let start = accessor.offset() + element * stride;
            let mut values = [T::default(); N];
            for (component, value) in values.iter_mut().enumerate() {
                let at = start + component * component_size;
                *value = bytes
                    .get(at..at + component_size)
                    .and_then(|bytes| read(bytes, data_type, accessor.normalized()))
                    .ok_or_else(|| {
                        fail(format!(
                            "element {element} has a component of an unreadable type"
                        ))
                    })?;
            }
            elements.push(values);
        }
        self.sparse(accessor, &mut elements, &read)?;
        Ok(elements)
    }

    /// Takes `count` elements of `components` values from what is left to
    /// read (see [`decoding_budget`]), or says why not.
    fn spend(&self, count: usize, components: usize) -> Result<(), String> {
        let values = (count as u64).saturating_mul(components as u64);
        let left = self.budget.get();
        if values > left {
            return Err(format!(
                "reading its {count} elements would take the values read from the asset's \
                 accessors past {}, four for each byte of its buffers (meshes reading the same \
                 data many times over?)",
                decoding_budget(&self.buffers)
            ));
        }
        self.budget.set(left - values);
        Ok(())
    }

    /// Applies a sparse accessor's substitutions (Blender writes shape keys
    /// so): `count` indices of the elements to replace, then as many
    /// elements, tightly packed.
    fn sparse<T: Copy + Default, const N: usize>(
        &self,
        accessor: &gltf::Accessor,
        elements: &mut [[T; N]],
        read: &impl Fn(&[u8], DataType, bool) -> Option<T>,
    ) -> Result<(), ImportError> {
        let Some(sparse) = accessor.sparse() else {
            return Ok(());
        };
        let fail = |problem: String| ImportError::Accessor {
            index: accessor.index(),
            problem,
        };
        let count = sparse.count();
        let indices = sparse.indices();
        let index_size = indices.index_type().size();
        let index_bytes = self
            .view_bytes(&indices.view())
            .and_then(|bytes| bytes.get(indices.offset()..))
            .ok_or_else(|| fail("its sparse indices lie outside their buffer".to_owned()))?;
        let data_type = accessor.data_type();
        let component_size = data_type.size();
        let element_size = component_size * N;
        let values = sparse.values();
        let value_bytes = self
            .view_bytes(&values.view())
            .and_then(|bytes| bytes.get(values.offset()..))
            .ok_or_else(|| fail("its sparse values lie outside their buffer".to_owned()))?;
        let fits = count
            .checked_mul(index_size)
            .is_some_and(|end| end <= index_bytes.len())
            && count
                .checked_mul(element_size)
                .is_some_and(|end| end <= value_bytes.len());
        if !fits {
            return Err(fail(format!(
                "its {count} sparse substitutions do not fit their buffer views"
            )));
        }
        for substitution in 0..count {
            let at = substitution * index_size;
            let index = index_bytes
                .get(at..at + index_size)
                .and_then(|bytes| component_as_integer(bytes, index_data_type(index_size)?))
                .ok_or_else(|| fail(format!("sparse index {substitution} is unreadable")))?;
            let element = elements
                .get_mut(index as usize)
                .ok_or_else(|| fail(format!("sparse index {index} is past its elements")))?;
            for (component, value) in element.iter_mut().enumerate() {
                let at = substitution * element_size + component * component_size;
                *value = value_bytes
                    .get(at..at + component_size)
                    .and_then(|bytes| read(bytes, data_type, accessor.normalized()))
                    .ok_or_else(|| fail(format!("sparse value {substitution} is unreadable")))?;
            }
        }
        Ok(())
    }

    /// An image's encoded bytes (PNG or JPEG), from a buffer view, a data
    /// URI or a file beside the asset.
    pub fn image_bytes(
        &self,
        image: &gltf::Image,
        external: &dyn Fn(&str) -> Option<Vec<u8>>,
    ) -> Result<Vec<u8>, ImportError> {
        match image.source() {
            gltf::image::Source::View { view, .. } => self
                .view_bytes(&view)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| ImportError::Image {
                    index: image.index(),
                    problem: "its buffer view lies outside its buffer".to_owned(),
                }),
            gltf::image::Source::Uri { uri, .. } => {
                uri_bytes(uri, external).map_err(|problem| ImportError::Image {
                    index: image.index(),
                    problem,
                })
            }
        }
    }
}

/// The gltf crate's validation, but for one rule glTF 2.0 does not have:
/// an accessor without a buffer view is all zeros (Blender writes its
/// shape keys' unchanged normals so), which the crate calls missing data.
fn validated(root: &gltf::json::Root) -> Result<(), ImportError> {
    use gltf::json::validation::{Error, Validate};
    let mut problems = Vec::new();
    root.validate(root, gltf::json::Path::new, &mut |path, error| {
        let path = path();
        let zeros = matches!(error, Error::Missing)
            && path.as_str().starts_with("accessors[")
            && path.as_str().ends_with("].bufferView");
        if !zeros {
            problems.push(format!("{path}: {error}"));
        }
    });
    if problems.is_empty() {
        Ok(())
    } else {
        Err(ImportError::Gltf(format!(
            "invalid glTF: {}",
            problems.join("; ")
        )))
    }
}

/// Every primitive's (and morph target's) POSITION accessor is one the
/// asset has.
fn positions_in_range(root: &gltf::json::Root) -> Result<(), ImportError> {
    use gltf::json::mesh::Semantic;
    use gltf::json::validation::Checked;
    let accessors = root.accessors.len();
    for (index, mesh) in root.meshes.iter().enumerate() {
        for primitive in &mesh.primitives {
            let position = primitive
                .attributes
                .get(&Checked::Valid(Semantic::Positions));
            let targets = primitive.targets.iter().flatten();
            let out_of_range = position
                .into_iter()
                .chain(targets.filter_map(|target| target.positions.as_ref()))
                .any(|accessor| accessor.value() >= accessors);
            if out_of_range {
                return Err(ImportError::Gltf(format!(
                    "mesh {index} names a POSITION accessor the asset does not have"
                )));
            }
        }
    }
    Ok(())
}

/// What the gltf crate's validation leaves unchecked and its accessors
/// would unwrap: an animation channel's target, node and sampler, a
/// sampler's interpolation, a primitive's mode and attribute names, an
/// image's source, an accessor's component type and element type.
fn checked(root: &gltf::json::Root) -> Result<(), ImportError> {
    use gltf::json::validation::Checked;
    let invalid = |what: String| ImportError::Gltf(format!("{what} is not valid glTF"));
    for (index, animation) in root.animations.iter().enumerate() {
        for (channel_index, channel) in animation.channels.iter().enumerate() {
            let at = || format!("animation {index}, channel {channel_index}");
            if channel.sampler.value() >= animation.samplers.len()
                || channel.target.node.value() >= root.nodes.len()
                || !matches!(channel.target.path, Checked::Valid(_))
            {
                return Err(invalid(at()));
            }
        }
        for (sampler_index, sampler) in animation.samplers.iter().enumerate() {
            if !matches!(sampler.interpolation, Checked::Valid(_))
                || sampler.input.value() >= root.accessors.len()
                || sampler.output.value() >= root.accessors.len()
            {
                return Err(invalid(format!(
                    "animation {index}, sampler {sampler_index}"
                )));
            }
        }
    }
    for (index, mesh) in root.meshes.iter().enumerate() {
        for (primitive_index, primitive) in mesh.primitives.iter().enumerate() {
            let names_valid = primitive
                .attributes
                .keys()
                .all(|name| matches!(name, Checked::Valid(_)));
            if !matches!(primitive.mode, Checked::Valid(_)) || !names_valid {
                return Err(invalid(format!(
                    "mesh {index}, primitive {primitive_index}"
                )));
            }
        }
    }
    for (index, image) in root.images.iter().enumerate() {
        let sourced = match &image.buffer_view {
            Some(_) => image.mime_type.is_some(),
            None => image.uri.is_some(),
        };
        if !sourced {
            return Err(invalid(format!(
                "image {index} (a buffer view needs a MIME type, else a URI is needed)"
            )));
        }
    }
    for (index, accessor) in root.accessors.iter().enumerate() {
        if !matches!(accessor.component_type, Checked::Valid(_))
            || !matches!(accessor.type_, Checked::Valid(_))
        {
            return Err(invalid(format!("accessor {index}")));
        }
    }
    Ok(())
}

fn dimension_count(dimensions: Dimensions) -> usize {
    dimensions.multiplicity()
}

fn component_as_float(bytes: &[u8], data_type: DataType, normalized: bool) -> Option<f32> {
    let value = match data_type {
        DataType::F32 => return Some(f32::from_le_bytes(bytes.try_into().ok()?)),
        DataType::U8 => f32::from(*bytes.first()?) / if normalized { 255.0 } else { 1.0 },
        DataType::U16 => {
            f32::from(u16::from_le_bytes(bytes.try_into().ok()?))
                / if normalized { 65535.0 } else { 1.0 }
        }
        DataType::I8 => {
            let value = f32::from(i8::from_le_bytes(bytes.try_into().ok()?));
            if normalized {
                (value / 127.0).max(-1.0)
            } else {
                value
            }
        }
        DataType::I16 => {
            let value = f32::from(i16::from_le_bytes(bytes.try_into().ok()?));
            if normalized {
                (value / 32767.0).max(-1.0)
            } else {
                value
            }
        }
        DataType::U32 => return None,
    };
    Some(value)
}

/// The integer type of sparse indices of `size` bytes.
fn index_data_type(size: usize) -> Option<DataType> {
    match size {
        1 => Some(DataType::U8),
        2 => Some(DataType::U16),
        4 => Some(DataType::U32),
        _ => None,
    }
}

fn component_as_integer(bytes: &[u8], data_type: DataType) -> Option<u32> {
    match data_type {
        DataType::U8 => bytes.first().map(|&byte| u32::from(byte)),
        DataType::U16 => Some(u32::from(u16::from_le_bytes(bytes.try_into().ok()?))),
        DataType::U32 => Some(u32::from_le_bytes(bytes.try_into().ok()?)),
        _ => None,
    }
}

/// The bytes of the file a `.gltf` names by `uri` in `folder` (the one
/// holding the asset), at most `limit`: `uri` must name a file right there
/// (one plain name, no folder), and that file must be a regular file,
/// which is checked before it is opened: opening a named pipe waits for a
/// writer that never comes, and a device never ends.
pub fn read_beside(folder: &Path, uri: &str, limit: u64) -> Result<Vec<u8>, String> {
    let mut parts = Path::new(uri).components();
    let plain = matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(_)), None)
    );
    if !plain {
        return Err(format!(
            "the file {} it names is not one plain file name beside the asset",
            super::rest::quoted(uri)
        ));
    }
    let path = folder.join(uri);
    let metadata = std::fs::metadata(&path).map_err(|error| {
        format!(
            "the file {} it names cannot be read beside the asset: {error}",
            super::rest::quoted(uri)
        )
    })?;
    if !metadata.is_file() {
        return Err(format!(
            "the file {} it names is not a regular file (a folder, a named pipe or a device), \
             so it is not read",
            super::rest::quoted(uri)
        ));
    }
    formats::files::read_file(&path, limit).map_err(|error| {
        format!(
            "the file {} it names cannot be read beside the asset: {error}",
            super::rest::quoted(uri)
        )
    })
}

/// The bytes a URI names: base64 data, or a file beside the asset.
fn uri_bytes(uri: &str, external: &dyn Fn(&str) -> Option<Vec<u8>>) -> Result<Vec<u8>, String> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let (_, encoded) = rest
            .split_once(DATA_URI_BASE64)
            .ok_or_else(|| "its data URI is not base64".to_owned())?;
        return base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|error| format!("its data URI does not decode: {error}"));
    }
    external(uri).ok_or_else(|| {
        format!(
            "the file {} it names cannot be read beside the asset",
            super::rest::quoted(uri)
        )
    })
}
