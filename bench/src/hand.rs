//! The benchmarked layouts decoded and encoded by hand, as a careful person
//! writes a slice codec: one length check per fixed-size run of fields,
//! counts checked against the bytes left before anything is allocated,
//! records of a column mapped in bulk (`as_chunks`: fixed-size records whose
//! fields are read without a check each, so the compiler vectorises the
//! mapping), writers appending to one `Vec<u8>`. They
//! produce and take ossuary's own types, and fail with a byte offset only.

use formats::schema::{At, Count, RawString};
use formats::sims::bmf::{self, Bmf};
use formats::sims::skel::{self, Bone, Property, PropertyList};
use formats::swg::skt::{self, Quaternion, SkeletonForm, SkeletonV2, SkeletonVersion};

/// Where the input was too short or wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Malformed {
    pub offset: usize,
}

/// The unread rest of an input, and where it starts in the whole.
#[derive(Clone, Copy)]
pub(crate) struct Input<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Input<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Input { bytes, offset: 0 }
    }

    /// The bytes of `whole` from `offset` on.
    pub(crate) fn at(whole: &'a [u8], offset: usize) -> Result<Self, Malformed> {
        let bytes = whole.get(offset..).ok_or(Malformed { offset })?;
        Ok(Input { bytes, offset })
    }

    /// Where the unread rest starts in the whole.
    pub(crate) fn position(&self) -> usize {
        self.offset
    }

    /// The unread rest.
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.bytes
    }

    pub(crate) fn malformed(&self) -> Malformed {
        Malformed {
            offset: self.offset,
        }
    }

    pub(crate) fn take(&mut self, len: usize) -> Result<&'a [u8], Malformed> {
        let (taken, rest) = self.bytes.split_at_checked(len).ok_or(self.malformed())?;
        self.bytes = rest;
        self.offset += len;
        Ok(taken)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], Malformed> {
        let (taken, rest) = self.bytes.split_first_chunk().ok_or(self.malformed())?;
        self.bytes = rest;
        self.offset += N;
        Ok(*taken)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, Malformed> {
        self.array().map(|[byte]| byte)
    }

    fn u16_be(&mut self) -> Result<u16, Malformed> {
        self.array().map(u16::from_be_bytes)
    }

    fn u32_be(&mut self) -> Result<u32, Malformed> {
        self.array().map(u32::from_be_bytes)
    }

    pub(crate) fn u16_le(&mut self) -> Result<u16, Malformed> {
        self.array().map(u16::from_le_bytes)
    }

    pub(crate) fn u32_le(&mut self) -> Result<u32, Malformed> {
        self.array().map(u32::from_le_bytes)
    }

    fn pascal(&mut self) -> Result<RawString, Malformed> {
        let len = self.u8()?;
        Ok(RawString(self.take(len.into())?.to_vec()))
    }

    fn null_terminated(&mut self) -> Result<RawString, Malformed> {
        let len = self
            .bytes
            .iter()
            .position(|&byte| byte == 0)
            .ok_or(self.malformed())?;
        let text = self.take(len + 1)?;
        Ok(RawString(text[..len].to_vec()))
    }

    /// `count` records of `size` bytes, checked in one go.
    pub(crate) fn records(&mut self, count: usize, size: usize) -> Result<&'a [u8], Malformed> {
        let len = count.checked_mul(size).ok_or(self.malformed())?;
        self.take(len)
    }

    /// Fails unless the count could fit in what is left, before allocating.
    pub(crate) fn capacity(&self, count: usize, min_size: usize) -> Result<usize, Malformed> {
        match count.checked_mul(min_size) {
            Some(len) if len <= self.bytes.len() => Ok(count),
            _ => Err(self.malformed()),
        }
    }

    pub(crate) fn finish(self) -> Result<(), Malformed> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(self.malformed())
        }
    }
}

/// The values a table of `count` little-endian u32 offsets (from the start
/// of `whole`, read from `input`) points to, each decoded by `decode`; they
/// must lie in the order of their offsets, each after the one before, and
/// the last must end `whole`. The bytes between one and the next are kept
/// as the value's gap, as the generated reader keeps them.
pub(crate) fn items_at_offsets<T>(
    input: &mut Input,
    whole: &[u8],
    count: usize,
    mut decode: impl FnMut(&mut Input) -> Result<T, Malformed>,
) -> Result<Vec<At<T>>, Malformed> {
    let (offsets, _) = input.records(count, 4)?.as_chunks::<4>();
    let mut end = input.position();
    let mut items = Vec::with_capacity(count);
    for offset in offsets {
        let offset = u32::from_le_bytes(*offset) as usize;
        let gap = whole.get(end..offset).ok_or(Malformed { offset: end })?;
        let mut item_input = Input::at(whole, offset)?;
        let value = decode(&mut item_input)?;
        end = item_input.position();
        items.push(At {
            offset: Some(offset as u64),
            value,
            gap: gap.to_vec(),
        });
    }
    if end != whole.len() {
        return Err(Malformed { offset: end });
    }
    Ok(items)
}

/// The 4-byte words of a record, first to last: a record of a known size
/// gives them without a bounds check each.
fn words<const N: usize>(record: &[u8]) -> [[u8; 4]; N] {
    let (words, _) = record.as_chunks::<4>();
    std::array::from_fn(|index| words.get(index).copied().unwrap_or_default())
}

fn f32s<const N: usize>(record: &[u8]) -> [f32; N] {
    words(record).map(f32::from_le_bytes)
}

fn i32s<const N: usize>(record: &[u8]) -> [i32; N] {
    words(record).map(i32::from_le_bytes)
}

pub fn decode_skel(bytes: &[u8]) -> Result<skel::Skeleton, Malformed> {
    let mut input = Input::new(bytes);
    let version = input.u32_be()?;
    let name = input.pascal()?;
    let count = input.u16_be()?.into();
    let count = input.capacity(count, 55)?;
    let mut bones = Vec::with_capacity(count);
    for _ in 0..count {
        let unknown = input.u32_be()?;
        let name = input.pascal()?;
        let parent = input.pascal()?;
        let has_properties = input.u8()?;
        let property_lists = if has_properties != 0 {
            let count = input.u32_be()? as usize;
            let count = input.capacity(count, 4)?;
            let mut lists = Vec::with_capacity(count);
            for _ in 0..count {
                let count = input.u32_be()? as usize;
                let count = input.capacity(count, 2)?;
                let mut properties = Vec::with_capacity(count);
                for _ in 0..count {
                    properties.push(Property {
                        key: input.pascal()?,
                        value: input.pascal()?,
                    });
                }
                lists.push(PropertyList { properties });
            }
            Some(lists)
        } else {
            None
        };
        // The fixed tail: 7 floats, 3 integers, 2 floats.
        let tail = input.array::<48>()?;
        let [_, _, _, _, _, _, _, can_translate, can_rotate, can_blend, wiggle_value, wiggle_power] =
            words::<12>(&tail);
        bones.push(Bone {
            unknown,
            name,
            parent,
            has_properties,
            property_lists,
            translation: f32s(&tail),
            rotation: f32s(tail.get(12..).unwrap_or_default()),
            can_translate: i32::from_be_bytes(can_translate),
            can_rotate: i32::from_be_bytes(can_rotate),
            can_blend: i32::from_be_bytes(can_blend),
            wiggle_value: f32::from_le_bytes(wiggle_value),
            wiggle_power: f32::from_le_bytes(wiggle_power),
        });
    }
    input.finish()?;
    Ok(skel::Skeleton {
        version,
        name,
        bones,
    })
}

fn put_pascal(out: &mut Vec<u8>, text: &RawString) -> Result<(), Malformed> {
    let len = u8::try_from(text.0.len()).map_err(|_| Malformed { offset: out.len() })?;
    out.push(len);
    out.extend_from_slice(&text.0);
    Ok(())
}

fn put_f32s_le(out: &mut Vec<u8>, values: &[f32]) {
    for value in values {
        out.extend_from_slice(&value.to_le_bytes());
    }
}

fn put_i32s_le(out: &mut Vec<u8>, values: &[i32]) {
    for value in values {
        out.extend_from_slice(&value.to_le_bytes());
    }
}

fn put_count(out: &mut Vec<u8>, count: usize) -> Result<(), Malformed> {
    let count = u32::try_from(count).map_err(|_| Malformed { offset: out.len() })?;
    out.extend_from_slice(&count.to_le_bytes());
    Ok(())
}

pub fn encode_skel(skeleton: &skel::Skeleton) -> Result<Vec<u8>, Malformed> {
    let mut out = Vec::new();
    append_skel(&mut out, skeleton)?;
    Ok(out)
}

/// Appends the encoding to `out` (reserving room first), as into a
/// buffer reused between files.
pub fn append_skel(out: &mut Vec<u8>, skeleton: &skel::Skeleton) -> Result<(), Malformed> {
    out.reserve(64 + skeleton.bones.len() * 80);
    out.extend_from_slice(&skeleton.version.to_be_bytes());
    put_pascal(out, &skeleton.name)?;
    let count = u16::try_from(skeleton.bones.len()).map_err(|_| Malformed { offset: out.len() })?;
    out.extend_from_slice(&count.to_be_bytes());
    for bone in &skeleton.bones {
        out.extend_from_slice(&bone.unknown.to_be_bytes());
        put_pascal(out, &bone.name)?;
        put_pascal(out, &bone.parent)?;
        out.push(bone.has_properties);
        if bone.has_properties != 0 {
            let lists = bone.property_lists.as_deref().unwrap_or_default();
            let count = u32::try_from(lists.len()).map_err(|_| Malformed { offset: out.len() })?;
            out.extend_from_slice(&count.to_be_bytes());
            for list in lists {
                let count = u32::try_from(list.properties.len())
                    .map_err(|_| Malformed { offset: out.len() })?;
                out.extend_from_slice(&count.to_be_bytes());
                for property in &list.properties {
                    put_pascal(out, &property.key)?;
                    put_pascal(out, &property.value)?;
                }
            }
        }
        put_f32s_le(out, &bone.translation);
        put_f32s_le(out, &bone.rotation);
        for flag in [bone.can_translate, bone.can_rotate, bone.can_blend] {
            out.extend_from_slice(&flag.to_be_bytes());
        }
        put_f32s_le(out, &[bone.wiggle_value, bone.wiggle_power]);
    }
    Ok(())
}

pub fn decode_bmf(bytes: &[u8]) -> Result<Bmf, Malformed> {
    let mut input = Input::new(bytes);
    let name = input.pascal()?;
    let texture = input.pascal()?;
    let count = input.u32_le()? as usize;
    let count = input.capacity(count, 1)?;
    let mut bones = Vec::with_capacity(count);
    for _ in 0..count {
        bones.push(input.pascal()?);
    }
    let mut column = |size: usize| -> Result<&[u8], Malformed> {
        let count = input.u32_le()? as usize;
        input.records(count, size)
    };
    let faces = column(12)?
        .as_chunks::<12>()
        .0
        .iter()
        .map(|record| i32s(record))
        .collect();
    let bindings = column(20)?
        .as_chunks::<20>()
        .0
        .iter()
        .map(|record| {
            let [bone, first_vertex, vertex_count, first_blend, blend_count] = i32s(record);
            bmf::Binding {
                bone,
                first_vertex,
                vertex_count,
                first_blend,
                blend_count,
            }
        })
        .collect();
    let uvs: Vec<[f32; 2]> = column(8)?
        .as_chunks::<8>()
        .0
        .iter()
        .map(|record| f32s(record))
        .collect();
    let blends: Vec<bmf::Blend> = column(8)?
        .as_chunks::<8>()
        .0
        .iter()
        .map(|record| {
            let [raw_weight, vertex] = i32s(record);
            bmf::Blend { raw_weight, vertex }
        })
        .collect();
    // The stored count is kept; the vertices are one per uv, then one per
    // blend.
    let vertex_count = input.u32_le()?;
    let mut vertices = |count: usize| -> Result<Vec<bmf::Vertex>, Malformed> {
        Ok(input
            .records(count, 24)?
            .as_chunks::<24>()
            .0
            .iter()
            .map(|record| {
                let [x, y, z, nx, ny, nz] = f32s(record);
                bmf::Vertex {
                    position: [x, y, z],
                    normal: [nx, ny, nz],
                }
            })
            .collect())
    };
    let real_vertices = vertices(uvs.len())?;
    let blend_vertices = vertices(blends.len())?;
    input.finish()?;
    Ok(Bmf {
        name,
        texture,
        body: bmf::Body {
            bones,
            faces,
            bindings,
            real_count: Count::new(),
            uvs,
            blend_count: Count::new(),
            blends,
            vertex_count,
            vertices: real_vertices,
            blend_vertices,
        },
    })
}

pub fn encode_bmf(skin: &Bmf) -> Result<Vec<u8>, Malformed> {
    let mut out = Vec::new();
    append_bmf(&mut out, skin)?;
    Ok(out)
}

/// Appends the encoding to `out` (reserving room first), as into a
/// buffer reused between files.
pub fn append_bmf(out: &mut Vec<u8>, bmf: &Bmf) -> Result<(), Malformed> {
    let skin = &bmf.body;
    out.reserve(
        1024 + skin.faces.len() * 12
            + skin.uvs.len() * 8
            + skin.blends.len() * 8
            + (skin.vertices.len() + skin.blend_vertices.len()) * 24,
    );
    put_pascal(out, &bmf.name)?;
    put_pascal(out, &bmf.texture)?;
    put_count(out, skin.bones.len())?;
    for bone in &skin.bones {
        put_pascal(out, bone)?;
    }
    put_count(out, skin.faces.len())?;
    for face in &skin.faces {
        put_i32s_le(out, face);
    }
    put_count(out, skin.bindings.len())?;
    for b in &skin.bindings {
        put_i32s_le(
            out,
            &[
                b.bone,
                b.first_vertex,
                b.vertex_count,
                b.first_blend,
                b.blend_count,
            ],
        );
    }
    put_count(out, skin.uvs.len())?;
    for uv in &skin.uvs {
        put_f32s_le(out, uv);
    }
    put_count(out, skin.blends.len())?;
    for blend in &skin.blends {
        put_i32s_le(out, &[blend.raw_weight, blend.vertex]);
    }
    out.extend_from_slice(&skin.vertex_count.to_le_bytes());
    for vertex in skin.vertices.iter().chain(&skin.blend_vertices) {
        put_f32s_le(out, &vertex.position);
        put_f32s_le(out, &vertex.normal);
    }
    Ok(())
}

/// An IFF form's or chunk's payload, checked against what is left.
fn iff_block<'a>(input: &mut Input<'a>, kind: &[u8; 4]) -> Result<Input<'a>, Malformed> {
    let at = input.offset;
    if input.array::<4>()? != *kind {
        return Err(Malformed { offset: at });
    }
    let size = input.u32_be()? as usize;
    let offset = input.offset;
    Ok(Input {
        bytes: input.take(size)?,
        offset,
    })
}

fn form<'a>(input: &mut Input<'a>, form_type: &[u8; 4]) -> Result<Input<'a>, Malformed> {
    let mut form = iff_block(input, b"FORM")?;
    let at = form.offset;
    if form.array::<4>()? != *form_type {
        return Err(Malformed { offset: at });
    }
    Ok(form)
}

/// A chunk of `count` records of `size` bytes and nothing else.
fn column<'a>(
    input: &mut Input<'a>,
    tag: &[u8; 4],
    count: usize,
    size: usize,
) -> Result<&'a [u8], Malformed> {
    let mut chunk = iff_block(input, tag)?;
    let records = chunk.records(count, size)?;
    chunk.finish()?;
    Ok(records)
}

fn quaternion(record: &[u8]) -> Quaternion {
    let [w, x, y, z] = f32s(record);
    Quaternion { w, x, y, z }
}

/// A `FORM SKTM` holding one version 2 skeleton.
pub fn decode_skt(bytes: &[u8]) -> Result<skt::Skeleton, Malformed> {
    let mut input = Input::new(bytes);
    let mut sktm = form(&mut input, b"SKTM")?;
    let mut v2 = form(&mut sktm, b"0002")?;
    let count = u32::from_le_bytes(
        column(&mut v2, b"INFO", 1, 4)?
            .try_into()
            .unwrap_or_default(),
    );
    let count = count as usize;
    let mut name_chunk = iff_block(&mut v2, b"NAME")?;
    let mut names = Vec::with_capacity(name_chunk.capacity(count, 1)?);
    for _ in 0..count {
        names.push(name_chunk.null_terminated()?);
    }
    name_chunk.finish()?;
    let parents = column(&mut v2, b"PRNT", count, 4)?
        .as_chunks::<4>()
        .0
        .iter()
        .map(|record| i32::from_le_bytes(*record))
        .collect();
    let pre_rotations = column(&mut v2, b"RPRE", count, 16)?
        .as_chunks::<16>()
        .0
        .iter()
        .map(|record| quaternion(record))
        .collect();
    let post_rotations = column(&mut v2, b"RPST", count, 16)?
        .as_chunks::<16>()
        .0
        .iter()
        .map(|record| quaternion(record))
        .collect();
    let bind_translations = column(&mut v2, b"BPTR", count, 12)?
        .as_chunks::<12>()
        .0
        .iter()
        .map(|record| f32s(record))
        .collect();
    let bind_rotations = column(&mut v2, b"BPRO", count, 16)?
        .as_chunks::<16>()
        .0
        .iter()
        .map(|record| quaternion(record))
        .collect();
    let rotation_orders = column(&mut v2, b"JROR", count, 4)?
        .as_chunks::<4>()
        .0
        .iter()
        .map(|record| i32::from_le_bytes(*record))
        .collect();
    v2.finish()?;
    sktm.finish()?;
    input.finish()?;
    Ok(skt::Skeleton::Single(SkeletonForm {
        version: SkeletonVersion::V2(SkeletonV2 {
            joint_count: Default::default(),
            names,
            parents,
            pre_rotations,
            post_rotations,
            bind_translations,
            bind_rotations,
            rotation_orders,
        }),
    }))
}

/// Starts a form or chunk; [`end_block`] patches its size.
fn begin_block(out: &mut Vec<u8>, tag: &[u8; 4]) -> usize {
    out.extend_from_slice(tag);
    out.extend_from_slice(&[0; 4]);
    out.len()
}

fn end_block(out: &mut [u8], start: usize) -> Result<(), Malformed> {
    let size = u32::try_from(out.len() - start).map_err(|_| Malformed { offset: start })?;
    out[start - 4..start].copy_from_slice(&size.to_be_bytes());
    Ok(())
}

fn put_quaternions(
    out: &mut Vec<u8>,
    tag: &[u8; 4],
    column: &[Quaternion],
) -> Result<(), Malformed> {
    let start = begin_block(out, tag);
    for q in column {
        put_f32s_le(out, &[q.w, q.x, q.y, q.z]);
    }
    end_block(out, start)
}

/// A `FORM SKTM` skeleton; the columns must agree in length.
pub fn encode_skt(skeleton: &skt::Skeleton) -> Result<Vec<u8>, Malformed> {
    let mut out = Vec::new();
    append_skt(&mut out, skeleton)?;
    Ok(out)
}

/// Appends the encoding to `out` (reserving room first), as into a
/// buffer reused between files.
pub fn append_skt(out: &mut Vec<u8>, skeleton: &skt::Skeleton) -> Result<(), Malformed> {
    let skt::Skeleton::Single(SkeletonForm {
        version: SkeletonVersion::V2(columns),
    }) = skeleton
    else {
        return Err(Malformed { offset: 0 });
    };
    let count = columns.names.len();
    out.reserve(128 + count * (16 + 68));
    let sktm = begin_block(out, b"FORM");
    out.extend_from_slice(b"SKTM");
    let v2 = begin_block(out, b"FORM");
    out.extend_from_slice(b"0002");
    let info = begin_block(out, b"INFO");
    put_count(out, count)?;
    end_block(out, info)?;
    let names = begin_block(out, b"NAME");
    for name in &columns.names {
        out.extend_from_slice(&name.0);
        out.push(0);
    }
    end_block(out, names)?;
    let parents = begin_block(out, b"PRNT");
    put_i32s_le(out, &columns.parents);
    end_block(out, parents)?;
    put_quaternions(out, b"RPRE", &columns.pre_rotations)?;
    put_quaternions(out, b"RPST", &columns.post_rotations)?;
    let translations = begin_block(out, b"BPTR");
    for translation in &columns.bind_translations {
        put_f32s_le(out, translation);
    }
    end_block(out, translations)?;
    put_quaternions(out, b"BPRO", &columns.bind_rotations)?;
    let orders = begin_block(out, b"JROR");
    put_i32s_le(out, &columns.rotation_orders);
    end_block(out, orders)?;
    end_block(out, v2)?;
    end_block(out, sktm)?;
    Ok(())
}
