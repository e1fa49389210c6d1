//! The benchmarked layouts written with binrw's own derive, as a binrw user
//! would write them: counts as `temp` fields the writer calculates, a
//! Pascal string as a length and its bytes, IFF sizes calculated from the
//! columns. They check what binrw checks (magics, lengths available), not
//! what ossuary's readers also check (chunk sizes against their contents),
//! which only flatters binrw.

use binrw::{binrw, NullString};

/// A u8 length, then that many bytes.
#[binrw]
#[derive(Debug, Clone, PartialEq)]
pub struct Pascal {
    #[br(temp)]
    #[bw(try_calc = u8::try_from(bytes.len()))]
    len: u8,
    #[br(count = len)]
    pub bytes: Vec<u8>,
}

/// The Sims Online `.skel`.
#[binrw]
#[brw(big)]
#[derive(Debug, Clone, PartialEq)]
pub struct Skel {
    pub version: u32,
    pub name: Pascal,
    #[br(temp)]
    #[bw(try_calc = u16::try_from(bones.len()))]
    bone_count: u16,
    #[br(count = bone_count)]
    pub bones: Vec<SkelBone>,
}

#[binrw]
#[brw(big)]
#[derive(Debug, Clone, PartialEq)]
pub struct SkelBone {
    pub unknown: u32,
    pub name: Pascal,
    pub parent: Pascal,
    pub has_properties: u8,
    #[br(if(has_properties != 0))]
    pub property_lists: Option<PropertyLists>,
    #[brw(little)]
    pub translation: [f32; 3],
    #[brw(little)]
    pub rotation: [f32; 4],
    pub can_translate: i32,
    pub can_rotate: i32,
    pub can_blend: i32,
    #[brw(little)]
    pub wiggle_value: f32,
    #[brw(little)]
    pub wiggle_power: f32,
}

#[binrw]
#[brw(big)]
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyLists {
    #[br(temp)]
    #[bw(try_calc = u32::try_from(lists.len()))]
    count: u32,
    #[br(count = count)]
    pub lists: Vec<PropertyList>,
}

#[binrw]
#[brw(big)]
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyList {
    #[br(temp)]
    #[bw(try_calc = u32::try_from(properties.len()))]
    count: u32,
    #[br(count = count)]
    pub properties: Vec<Property>,
}

#[binrw]
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub key: Pascal,
    pub value: Pascal,
}

/// The Sims `.bmf`.
#[binrw]
#[brw(little)]
#[derive(Debug, Clone, PartialEq)]
pub struct Bmf {
    pub name: Pascal,
    pub texture: Pascal,
    #[br(temp)]
    #[bw(try_calc = u32::try_from(bones.len()))]
    bone_count: u32,
    #[br(count = bone_count)]
    pub bones: Vec<Pascal>,
    #[br(temp)]
    #[bw(try_calc = u32::try_from(faces.len()))]
    face_count: u32,
    #[br(count = face_count)]
    pub faces: Vec<[i32; 3]>,
    #[br(temp)]
    #[bw(try_calc = u32::try_from(bindings.len()))]
    binding_count: u32,
    #[br(count = binding_count)]
    pub bindings: Vec<BmfBinding>,
    #[br(temp)]
    #[bw(try_calc = u32::try_from(uvs.len()))]
    uv_count: u32,
    #[br(count = uv_count)]
    pub uvs: Vec<[f32; 2]>,
    #[br(temp)]
    #[bw(try_calc = u32::try_from(blends.len()))]
    blend_count: u32,
    #[br(count = blend_count)]
    pub blends: Vec<BmfBlend>,
    #[br(temp)]
    #[bw(try_calc = u32::try_from(vertices.len()))]
    vertex_count: u32,
    #[br(count = vertex_count)]
    pub vertices: Vec<BmfVertex>,
}

#[binrw]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BmfBinding {
    pub bone: i32,
    pub first_vertex: i32,
    pub vertex_count: i32,
    pub first_blend: i32,
    pub blend_count: i32,
}

#[binrw]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BmfBlend {
    pub raw_weight: i32,
    pub vertex: i32,
}

#[binrw]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BmfVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
}

/// A Star Wars Galaxies `.skt` holding one skeleton: `FORM SKTM > FORM
/// 0002 >` the eight column chunks.
#[binrw]
#[brw(big, magic = b"FORM")]
#[derive(Debug, Clone, PartialEq)]
pub struct Skt {
    #[br(temp)]
    #[bw(calc = 4 + 8 + v2_size(names, parents.len()))]
    sktm_size: u32,
    #[brw(magic = b"SKTMFORM")]
    #[br(temp)]
    #[bw(calc = v2_size(names, parents.len()))]
    v2_size: u32,
    #[brw(magic = b"0002INFO")]
    #[br(temp)]
    #[bw(calc = 4)]
    info_size: u32,
    #[brw(little)]
    #[br(temp)]
    #[bw(try_calc = u32::try_from(names.len()))]
    joint_count: u32,
    #[brw(magic = b"NAME")]
    #[br(temp)]
    #[bw(calc = names_size(names))]
    names_size: u32,
    #[br(count = joint_count)]
    pub names: Vec<NullString>,
    #[brw(magic = b"PRNT")]
    #[br(temp)]
    #[bw(calc = column_size(parents.len(), 4))]
    parents_size: u32,
    #[brw(little)]
    #[br(count = joint_count)]
    pub parents: Vec<i32>,
    #[brw(magic = b"RPRE")]
    #[br(temp)]
    #[bw(calc = column_size(pre_rotations.len(), 16))]
    pre_size: u32,
    #[brw(little)]
    #[br(count = joint_count)]
    pub pre_rotations: Vec<[f32; 4]>,
    #[brw(magic = b"RPST")]
    #[br(temp)]
    #[bw(calc = column_size(post_rotations.len(), 16))]
    post_size: u32,
    #[brw(little)]
    #[br(count = joint_count)]
    pub post_rotations: Vec<[f32; 4]>,
    #[brw(magic = b"BPTR")]
    #[br(temp)]
    #[bw(calc = column_size(bind_translations.len(), 12))]
    translations_size: u32,
    #[brw(little)]
    #[br(count = joint_count)]
    pub bind_translations: Vec<[f32; 3]>,
    #[brw(magic = b"BPRO")]
    #[br(temp)]
    #[bw(calc = column_size(bind_rotations.len(), 16))]
    rotations_size: u32,
    #[brw(little)]
    #[br(count = joint_count)]
    pub bind_rotations: Vec<[f32; 4]>,
    #[brw(magic = b"JROR")]
    #[br(temp)]
    #[bw(calc = column_size(rotation_orders.len(), 4))]
    orders_size: u32,
    #[brw(little)]
    #[br(count = joint_count)]
    pub rotation_orders: Vec<i32>,
}

fn column_size(count: usize, record: usize) -> u32 {
    (count * record) as u32
}

fn names_size(names: &[NullString]) -> u32 {
    names.iter().map(|name| name.len() + 1).sum::<usize>() as u32
}

/// `FORM 0002`'s size: its type, then eight chunks (tag and size each).
fn v2_size(names: &[NullString], joints: usize) -> u32 {
    4 + 8 * 8 + 4 + names_size(names) + column_size(joints, 4 + 16 + 16 + 12 + 16 + 4)
}
