//! glTF back into The Sims' own files: each skinned mesh a `.skn`, grouped
//! into suits (`.cmx`), its texture an 8-bit BMP.
//!
//! Export's conventions undone: glTF is right-handed, the Sims left-handed,
//! so x is mirrored and triangles are wound back; a vertex is stored in the
//! space of the bone that carries it, found by that joint's inverse bind
//! matrix (so a glTF whose bind pose differs from the skeleton's rest keeps
//! each vertex where it sits on its bone). The game's rules:
//! - a vertex follows one bone, or blends two: with more influences its two
//!   largest are kept, renormalised (one warning counts such vertices);
//!   the heavier carries the vertex, the lighter a blend vertex at the same
//!   place pulling it by its weight (in 1/32768ths);
//! - vertices are grouped by bone, bones in the skeleton's order.
//!
//! What glTF cannot hold of a skin travels in its mesh's `extras`
//! ([`SKIN_EXTRAS`]): its name and texture field, its bones, bindings and
//! blends as the file stores them, and each blend's two stored points (a
//! blend vertex's own position and normal, and the vertex it pulls). When
//! they still fit the mesh (as many vertices, each following the joints the
//! bindings and blends say, by their weights), the skin comes back with
//! exactly that structure; a pulled vertex the glTF shows where the stored
//! points put it comes back as stored, one moved comes back moved by as
//! much (both of its points). When they do not fit (the mesh was edited
//! into other vertices), the structure is derived as above, with a warning.

use std::collections::BTreeMap;

use formats::rig::{self, BoneSpace};
use formats::schema::text::{FloatStyle, TextStyle};
use formats::schema::{BinarySchema, Magic, RawString};
use formats::sims::cmx::{self, Cmx, MAXIS_COMMENT, RETAIL_VERSION};
use formats::sims::skn::{self, Skn};
use glam::{Affine3A, Mat4, Vec3};
use serde::{Deserialize, Serialize};

use super::document::Asset;
use super::sims_files::{SimsCharacter, SkillFile};
use super::{bmp, ImportError};

/// The mesh `extras` key of a Sims skin's own data (a Blender custom
/// property of the mesh of that name).
pub const SKIN_EXTRAS: &str = "ossuary_sims_skin";

/// The mesh node `extras` key of the suit wearing a Sims skin (a Blender
/// custom property of the mesh object of that name).
pub const SUIT_EXTRAS: &str = "ossuary_sims_suit";

/// Where a Sims skin is worn: its suit, and the suit's record of the skin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuitPlace {
    /// The suit's name, e.g. `b001fafat_01`.
    pub suit: String,
    /// The file holding the suit, without extension, e.g. `B001FAFat_01`.
    pub file: String,
    pub suit_type: i32,
    pub suit_unknown: i32,
    /// The bone the suit binds the skin to, e.g. `PELVIS`.
    pub bone: String,
    pub censor_flags: i32,
    pub unknown: i32,
}

/// A mesh node's extras holding `suit`.
pub fn suit_extras(suit: &SuitPlace) -> Option<Box<serde_json::value::RawValue>> {
    serde_json::value::to_raw_value(&serde_json::json!({ SUIT_EXTRAS: suit })).ok()
}

/// A pulled vertex shown further than this (in the file's units) from
/// where its stored points put it has been moved.
const MOVED: f32 = 1e-4;

/// A weight this far from the one a skin's extras give means the mesh was
/// reweighted (glTF weights stored as bytes are 1/255 apart).
const REWEIGHTED: f32 = 1.0 / 255.0;

/// The blend weight's unit: the game stores 1.0 as 32768.
const BLEND_ONE: f32 = 32768.0;

/// What glTF cannot hold of a Sims skin, as its mesh's extras carry it.
/// Lists are flat (Blender keeps flat number lists as custom properties).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkinExtras {
    pub name: String,
    /// The texture line as stored (`x` for none).
    pub texture: String,
    pub bones: Vec<String>,
    /// Five integers per binding: bone, first vertex, vertex count, first
    /// blend, blend count.
    pub bindings: Vec<i32>,
    /// Two integers per blend: the vertex it pulls, the raw weight.
    pub blends: Vec<i32>,
    /// Six floats per blend: the blend vertex's stored position and normal.
    pub blend_vertices: Vec<f32>,
    /// Six floats per blend: the pulled vertex's stored position and normal.
    pub pulled_vertices: Vec<f32>,
    pub vertex_count: u32,
}

/// A rig skin's extras (see [`SkinExtras`]).
pub fn skin_extras(skin: &rig::Skin, bone_space: &BoneSpace) -> serde_json::Value {
    let first = |range: &std::ops::Range<u32>| {
        if range.is_empty() {
            -1
        } else {
            i32::try_from(range.start).unwrap_or(i32::MAX)
        }
    };
    let count = |range: &std::ops::Range<u32>| i32::try_from(range.len()).unwrap_or(i32::MAX);
    let six = |positions: &[[f32; 3]], normals: &[[f32; 3]], index: usize| {
        let position = positions.get(index).copied().unwrap_or_default();
        let normal = normals.get(index).copied().unwrap_or_default();
        [position, normal].concat()
    };
    let extras = SkinExtras {
        name: skin.name.clone(),
        texture: skin.texture.clone().unwrap_or_else(|| "x".to_owned()),
        bones: bone_space.bones.clone(),
        bindings: bone_space
            .ranges
            .iter()
            .flat_map(|range| {
                [
                    i32::try_from(range.bone).unwrap_or(i32::MAX),
                    first(&range.vertices),
                    count(&range.vertices),
                    first(&range.blends),
                    count(&range.blends),
                ]
            })
            .collect(),
        blends: bone_space
            .blends
            .iter()
            .flat_map(|blend| {
                [
                    i32::try_from(blend.vertex).unwrap_or(i32::MAX),
                    // Exact: the weight was read as raw / 32768.
                    (blend.weight * BLEND_ONE).round() as i32,
                ]
            })
            .collect(),
        blend_vertices: (0..bone_space.blends.len())
            .flat_map(|index| {
                six(
                    &bone_space.blend_positions,
                    &bone_space.blend_normals,
                    index,
                )
            })
            .collect(),
        pulled_vertices: bone_space
            .blends
            .iter()
            .flat_map(|blend| six(&skin.positions, &skin.normals, blend.vertex as usize))
            .collect(),
        vertex_count: u32::try_from(skin.positions.len()).unwrap_or(u32::MAX),
    };
    serde_json::to_value(extras).unwrap_or_default()
}

/// What a glTF that carries none of the Sims' own data (made elsewhere, or
/// exported without custom properties) cannot give back, derived instead.
pub const WITHOUT_SIMS_DATA: &str = "it carries none of the Sims' own data (a glTF made \
    elsewhere, or exported without custom properties), so that was derived: each vertex's \
    bone and blend from its two heaviest weights, blend vertices where the vertex shows at \
    rest, unit normals, suits from the nodes or the skins' names, texture names by skin \
    tone, skills' released names (a2o-) and frames from their keys";

/// The character `asset` holds, for `skeleton` (in the file's axes: the
/// Sims'). `external` reads a file a `.gltf` names beside itself.
pub fn import(
    asset: &Asset,
    skeleton: &rig::Skeleton,
    external: &dyn Fn(&str) -> Option<Vec<u8>>,
) -> Result<SimsCharacter, ImportError> {
    let document = &asset.document;
    let parents = parents(document);
    let joint_nodes: Vec<usize> = document
        .skins()
        .flat_map(|skin| skin.joints().map(|joint| joint.index()).collect::<Vec<_>>())
        .collect();
    let mut character = SimsCharacter::default();
    // By file name (without extension).
    let mut suits: BTreeMap<String, cmx::Suit> = BTreeMap::new();
    let mut more_than_two = 0;
    let mut mesh_nodes = 0;
    for node in document.nodes() {
        let Some(mesh) = node.mesh() else {
            continue;
        };
        mesh_nodes += 1;
        let node_name = node.name().unwrap_or_default().to_owned();
        let mesh_name = mesh
            .name()
            .map_or_else(|| format!("mesh {}", mesh.index()), str::to_owned);
        let gltf_skin = node.skin().ok_or_else(|| ImportError::Mesh {
            mesh: mesh_name.clone(),
            problem: "it has no skin: a Sims skin must follow the skeleton's bones".to_owned(),
        })?;
        let joints = skin_joints(asset, &gltf_skin, skeleton)?;
        let read = read_mesh(asset, &mesh, &mesh_name, joints.names.len())?;
        more_than_two += read.more_than_two;
        let extras = mesh
            .extras()
            .as_ref()
            .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
            .and_then(|value| value.get(SKIN_EXTRAS).cloned())
            .and_then(|value| serde_json::from_value::<SkinExtras>(value).ok());
        let fitting = extras.filter(|extras| fits(extras, &read, &joints));
        let skn = match &fitting {
            Some(extras) => skin_from_extras(extras, &read, &joints),
            None => {
                if mesh
                    .extras()
                    .as_ref()
                    .is_some_and(|raw| raw.get().contains(SKIN_EXTRAS))
                {
                    character.warnings.push(format!(
                        "mesh {mesh_name:?}: its Sims skin data (extras) no longer fits its \
                         vertices and weights; its bones, bindings and blends are derived"
                    ));
                }
                derived_skin(&mesh_name, &read, &joints, skeleton)
            }
        }
        .map_err(|problem| ImportError::Mesh {
            mesh: mesh_name.clone(),
            problem,
        })?;
        // The texture field the skin keeps (its own, from the extras), or
        // for a new image a name by skin tone; the image as an 8-bit BMP.
        let skn = match (&fitting, &read.image) {
            (None, Some(_)) => Skn {
                texture: RawString::from(texture_name(&skn.name.to_text()).as_str()),
                ..skn
            },
            _ => skn,
        };
        let image_file = read.image.as_ref().and_then(|image| match fitting {
            Some(_) => image_file_name(image.name(), &skn.texture.to_text()),
            None => Some(format!("{}.bmp", skn.texture.to_text())),
        });
        if let (Some(image), Some(file)) = (read.image, image_file) {
            let known = character
                .textures
                .iter()
                .any(|(name, _)| name.eq_ignore_ascii_case(&file));
            // Meshes naming one texture share its image: written once.
            if !known {
                let bytes = bmp::indexed_bmp(&asset.image_bytes(&image, external)?, None).map_err(
                    |error| ImportError::Image {
                        index: image.index(),
                        problem: error.to_string(),
                    },
                )?;
                character.textures.push((file, bytes));
            }
        }
        let place = node
            .extras()
            .as_ref()
            .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
            .and_then(|value| value.get(SUIT_EXTRAS).cloned())
            .and_then(|value| serde_json::from_value::<SuitPlace>(value).ok())
            .unwrap_or_else(|| {
                let skin_name = skn.name.to_text();
                let suit = suit_of(document, &parents, &joint_nodes, node.index())
                    .unwrap_or_else(|| suit_of_skin_name(&skin_name).unwrap_or(node_name.clone()));
                let bone = bone_of_skin_name(&skin_name)
                    .filter(|bone| skn.bones.iter().any(|own| own.to_text() == *bone))
                    .or_else(|| skn.bones.first().map(RawString::to_text))
                    .unwrap_or_default();
                SuitPlace {
                    file: suit.clone(),
                    suit,
                    suit_type: 0,
                    suit_unknown: 0,
                    bone,
                    censor_flags: 0,
                    unknown: 0,
                }
            });
        let suit = suits
            .entry(place.file.clone())
            .or_insert_with(|| cmx::Suit {
                name: RawString::from(place.suit.as_str()),
                suit_type: Some(place.suit_type),
                unknown: Some(place.suit_unknown),
                skins: Vec::new(),
            });
        suit.skins.push(cmx::Skin {
            bone: RawString::from(place.bone.as_str()),
            name: skn.name.clone(),
            censor_flags: Some(place.censor_flags),
            unknown: Some(place.unknown),
        });
        character.skins.push(skn);
    }
    character.skills = import_skills(asset)?;
    if mesh_nodes == 0 && character.skills.is_empty() {
        return Err(ImportError::NoMeshes);
    }
    if more_than_two > 0 {
        character.warnings.push(format!(
            "{more_than_two} vertices followed more than two joints: each keeps its two \
             largest weights, renormalised (a Sims vertex follows one bone or blends two)"
        ));
    }
    character.suits = suits
        .into_iter()
        .map(|(file, suit)| {
            let cmx = Cmx {
                style: TextStyle::default(),
                comment: RawString::from(MAXIS_COMMENT),
                version_keyword: Magic,
                version: RETAIL_VERSION,
                skeletons: Vec::new(),
                suits: vec![suit],
                skills: Vec::new(),
            };
            (file, cmx)
        })
        .collect();
    let originals = super::carried::originals(asset);
    let skin_data = document.meshes().any(|mesh| {
        mesh.extras()
            .as_ref()
            .is_some_and(|raw| raw.get().contains(SKIN_EXTRAS))
    });
    let skill_data = document.animations().any(|animation| {
        animation
            .extras()
            .as_ref()
            .is_some_and(|raw| raw.get().contains(SKILL_EXTRAS))
    });
    if originals.is_empty() && !skin_data && !skill_data {
        character.warnings.push(WITHOUT_SIMS_DATA.to_owned());
    }
    super::sims_original::keep_originals(&mut character, &originals);
    Ok(character)
}

/// Each node's parent, by node index.
fn parents(document: &gltf::Document) -> Vec<Option<usize>> {
    let mut parents = vec![None; document.nodes().len()];
    for node in document.nodes() {
        for child in node.children() {
            if let Some(slot) = parents.get_mut(child.index()) {
                *slot = Some(node.index());
            }
        }
    }
    parents
}

/// The suit a mesh node is grouped into: the nearest ancestor that is not
/// a joint nor holds joints (an armature, as Blender writes one, holds its
/// meshes beside its bones: it is no suit), by its name.
fn suit_of(
    document: &gltf::Document,
    parents: &[Option<usize>],
    joints: &[usize],
    node: usize,
) -> Option<String> {
    // Every ancestor of a joint, the joints included.
    let mut holds_joints = vec![false; parents.len()];
    for &joint in joints {
        let mut at = Some(joint);
        // Bounded by the node count: a cycle cannot hold a valid glTF.
        for _ in 0..parents.len() {
            let Some(node) = at else { break };
            match holds_joints.get_mut(node) {
                Some(slot) if !*slot => *slot = true,
                _ => break,
            }
            at = parents.get(node).copied().flatten();
        }
    }
    let parent = parents.get(node).copied().flatten()?;
    if holds_joints.get(parent).copied().unwrap_or(true) {
        return None;
    }
    document.nodes().nth(parent)?.name().map(str::to_owned)
}

/// `b001mafit_01` of `xskin-b001mafit_01-PELVIS-BODY`.
fn suit_of_skin_name(name: &str) -> Option<String> {
    let mut parts = name.strip_prefix("xskin-")?.split('-');
    parts
        .next()
        .filter(|suit| !suit.is_empty())
        .map(str::to_owned)
}

/// `PELVIS` of `xskin-b001mafit_01-PELVIS-BODY`.
fn bone_of_skin_name(name: &str) -> Option<String> {
    name.strip_prefix("xskin-")?
        .split('-')
        .nth(1)
        .map(str::to_owned)
}

/// The file the image of a skin that keeps its own texture field is
/// written as: under the image's own name
/// (ossuary's export names each image as the game's file it came from,
/// `C001MAmed_Ross.bmp`), as an 8-bit `.bmp`, so that a skin whose texture
/// field is `x` (the game chooses its image by suit and skin tone), or
/// names another outfit's image, finds it without its field changing; an
/// image without a name is written under the skin's texture field, and
/// not at all when that is `x`. (A new skin's field is named for its
/// image, and the image is written under it.)
fn image_file_name(image_name: Option<&str>, texture_field: &str) -> Option<String> {
    let named = image_name
        .map(|name| {
            let lower = name.to_ascii_lowercase();
            [".bmp", ".png", ".tga", ".jpg", ".jpeg"]
                .iter()
                .find_map(|extension| {
                    lower
                        .ends_with(extension)
                        .then(|| &name[..name.len() - extension.len()])
                })
                .unwrap_or(name)
        })
        .filter(|stem| !stem.is_empty());
    match named {
        Some(stem) => Some(format!("{stem}.bmp")),
        None if texture_field == "x" => None,
        None => Some(format!("{texture_field}.bmp")),
    }
}

/// The texture name of a new image for a skin, as the game and
/// ts1-blender-io look for one by skin tone: `<type>lgt_<identifier>` for
/// a skin `xskin-<type>_<identifier>-...` (the light tone; `B001MAFitlgt_relax`
/// dresses `xskin-b001mafit_01-...`), `<suit>lgt` for one without an
/// identifier, `<name>lgt` for a name of another form.
fn texture_name(skin_name: &str) -> String {
    let suit = suit_of_skin_name(skin_name).unwrap_or_else(|| skin_name.to_owned());
    match suit.split_once('_') {
        Some((kind, identifier)) => format!("{kind}lgt_{identifier}"),
        None => format!("{suit}lgt"),
    }
}

/// A skin's joints as indices of the skeleton, with their inverse bind
/// matrices in the file's axes (`C^-1 * IBM * C`, C the mirror in x).
struct Joints {
    names: Vec<String>,
    /// Per glTF skin joint: its skeleton index.
    skeleton: Vec<usize>,
    /// Per glTF skin joint: from the model at bind to the joint's space,
    /// in the file's axes.
    inverse_binds: Vec<Affine3A>,
}

/// The mirror in x that turns the Sims' left-handed axes into glTF's.
const MIRROR: Vec3 = Vec3::new(-1.0, 1.0, 1.0);

fn skin_joints(
    asset: &Asset,
    skin: &gltf::Skin,
    skeleton: &rig::Skeleton,
) -> Result<Joints, ImportError> {
    let mut names = Vec::new();
    let mut indices = Vec::new();
    for joint in skin.joints() {
        let name = joint.name().unwrap_or_default().to_owned();
        if names.contains(&name) {
            return Err(ImportError::JointTwice(name));
        }
        let index = skeleton
            .joints
            .iter()
            .position(|known| known.name == name)
            .ok_or_else(|| ImportError::UnknownJoint(name.clone()))?;
        let (_, _, scale) = joint.transform().decomposed();
        if scale.iter().any(|&axis| (axis - 1.0).abs() > SCALE_NOISE) {
            return Err(ImportError::Scaled { joint: name, scale });
        }
        names.push(name);
        indices.push(index);
    }
    let mirror_matrix = Affine3A::from_scale(MIRROR);
    let inverse_binds = match skin.inverse_bind_matrices() {
        Some(accessor) => {
            let matrices = asset.floats::<16>(&accessor)?;
            if matrices.len() != names.len() {
                return Err(ImportError::Accessor {
                    index: accessor.index(),
                    problem: format!(
                        "{} inverse bind matrices for {} joints",
                        matrices.len(),
                        names.len()
                    ),
                });
            }
            matrices
                .iter()
                .map(|matrix| {
                    let matrix = Affine3A::from_mat4(Mat4::from_cols_array(matrix));
                    mirror_matrix * matrix * mirror_matrix
                })
                .collect()
        }
        None => vec![Affine3A::IDENTITY; names.len()],
    };
    Ok(Joints {
        names,
        skeleton: indices,
        inverse_binds,
    })
}

/// A mesh's vertices as glTF gives them, in the file's axes, its
/// triangles wound as the file winds them, and each vertex's two heaviest
/// joints (glTF skin joint indices) with weights summing to 1.
struct ReadMesh<'a> {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<[f32; 2]>,
    triangles: Vec<[u32; 3]>,
    influences: Vec<Influences>,
    more_than_two: usize,
    image: Option<gltf::Image<'a>>,
}

#[derive(Debug, Clone, Copy)]
struct Influences {
    carrier: usize,
    /// The second joint and its weight, when there is one.
    blend: Option<(usize, f32)>,
}

fn read_mesh<'a>(
    asset: &'a Asset,
    mesh: &gltf::Mesh<'a>,
    name: &str,
    joint_count: usize,
) -> Result<ReadMesh<'a>, ImportError> {
    let read = super::mesh::read(asset, mesh, name, joint_count)?;
    let mut influences = Vec::with_capacity(read.influences.len());
    let mut more_than_two = 0;
    for (vertex, weighted) in read.influences.into_iter().enumerate() {
        let (kept, dropped) = two_heaviest(weighted).ok_or_else(|| ImportError::Mesh {
            mesh: name.to_owned(),
            problem: format!("vertex {vertex} follows no joint"),
        })?;
        more_than_two += usize::from(dropped);
        influences.push(kept);
    }
    Ok(ReadMesh {
        positions: read.positions,
        normals: read.normals,
        uvs: read.uvs,
        triangles: read.triangles,
        influences,
        more_than_two,
        image: read.image,
    })
}

/// The two heaviest joints, renormalised; whether more were dropped.
fn two_heaviest(influences: Vec<(usize, f32)>) -> Option<(Influences, bool)> {
    let mut merged: BTreeMap<usize, f32> = BTreeMap::new();
    for (joint, weight) in influences {
        *merged.entry(joint).or_default() += weight;
    }
    let mut sorted: Vec<(usize, f32)> = merged.into_iter().collect();
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let dropped = sorted.len() > 2;
    let &(carrier, heavy) = sorted.first()?;
    let blend = sorted
        .get(1)
        .map(|&(joint, light)| (joint, light / (heavy + light)));
    // A pull too small for the game's 1/32768ths is no pull.
    let blend = blend.filter(|&(_, weight)| (weight * BLEND_ONE).round() >= 1.0);
    Some((Influences { carrier, blend }, dropped))
}

/// Whether a skin's extras still describe the mesh: as many vertices, every
/// index in range, and each vertex following the joints they say by the
/// weights they say.
fn fits(extras: &SkinExtras, read: &ReadMesh, joints: &Joints) -> bool {
    let vertices = read.positions.len();
    if extras.vertex_count as usize != vertices
        || extras.bindings.len() % 5 != 0
        || extras.blends.len() % 2 != 0
        || extras.blend_vertices.len() != extras.blends.len() * 3
        || extras.pulled_vertices.len() != extras.blends.len() * 3
    {
        return false;
    }
    let Some(structure) = Structure::of(extras, vertices) else {
        return false;
    };
    // Each vertex's joints by name, as the extras have them.
    let bone_joint = |bone: usize| {
        let name = extras.bones.get(bone)?;
        joints.names.iter().position(|joint| joint == name)
    };
    read.influences
        .iter()
        .zip(&structure.carriers)
        .enumerate()
        .all(|(vertex, (influences, &carrier))| {
            let Some(carrier) = carrier.and_then(bone_joint) else {
                return false;
            };
            let pull = structure.pulls.get(&vertex).copied();
            match (influences.blend, pull) {
                (None, None) => influences.carrier == carrier,
                (Some((second, weight)), Some((bone, raw))) => {
                    let Some(puller) = bone_joint(bone) else {
                        return false;
                    };
                    let pulled = raw as f32 / BLEND_ONE;
                    let agree = |a: usize, wa: f32, b: usize, wb: f32| {
                        influences.carrier == a
                            && second == b
                            && (weight - wb).abs() <= REWEIGHTED
                            && (1.0 - weight - wa).abs() <= REWEIGHTED
                    };
                    agree(carrier, 1.0 - pulled, puller, pulled)
                        || agree(puller, pulled, carrier, 1.0 - pulled)
                }
                // A pull by the carrying bone itself, or of weight 0 or 1,
                // shows as one joint.
                (None, Some((bone, raw))) => {
                    let puller = bone_joint(bone);
                    (influences.carrier == carrier && (raw == 0 || puller == Some(carrier)))
                        || (raw as f32 == BLEND_ONE && puller == Some(influences.carrier))
                }
                (Some(_), None) => false,
            }
        })
}

/// The bindings and blends of a skin's extras, checked against its vertex
/// count: which bone carries each vertex, and which (bone, raw weight) pulls
/// it (one pull per vertex: more are not a shape glTF gives back).
struct Structure {
    carriers: Vec<Option<usize>>,
    pulls: BTreeMap<usize, (usize, i32)>,
    /// Per blend: the bone carrying its blend vertex.
    blend_bones: Vec<usize>,
}

impl Structure {
    fn of(extras: &SkinExtras, vertices: usize) -> Option<Structure> {
        let blend_count = extras.blends.len() / 2;
        let mut carriers = vec![None; vertices];
        let mut blend_bones = vec![None; blend_count];
        for binding in extras.bindings.chunks_exact(5) {
            let bone = usize::try_from(binding[0])
                .ok()
                .filter(|&bone| bone < extras.bones.len())?;
            let range = |first: i32, count: i32, len: usize| {
                let count = usize::try_from(count).ok()?;
                if count == 0 {
                    return Some(0..0);
                }
                let first = usize::try_from(first).ok()?;
                let end = first.checked_add(count).filter(|&end| end <= len)?;
                Some(first..end)
            };
            for slot in carriers.get_mut(range(binding[1], binding[2], vertices)?)? {
                *slot = Some(bone);
            }
            for slot in blend_bones.get_mut(range(binding[3], binding[4], blend_count)?)? {
                *slot = Some(bone);
            }
        }
        let blend_bones: Vec<usize> = blend_bones.into_iter().collect::<Option<_>>()?;
        let mut pulls = BTreeMap::new();
        for (blend, &bone) in extras.blends.chunks_exact(2).zip(&blend_bones) {
            let vertex = usize::try_from(blend[0])
                .ok()
                .filter(|&vertex| vertex < vertices)?;
            if pulls.insert(vertex, (bone, blend[1])).is_some() {
                return None;
            }
        }
        Some(Structure {
            carriers,
            pulls,
            blend_bones,
        })
    }
}

/// A vertex line: position and normal in a bone's space, from the model at
/// bind (file axes).
fn in_bone(inverse_bind: &Affine3A, position: Vec3, normal: Vec3) -> skn::Vertex {
    let position = inverse_bind.transform_point3(position);
    let normal = inverse_bind
        .transform_vector3(normal)
        .try_normalize()
        .unwrap_or(normal);
    skn::Vertex {
        position: position.to_array(),
        normal: normal.to_array(),
    }
}

/// The skin with its extras' structure; positions and normals from the mesh.
fn skin_from_extras(extras: &SkinExtras, read: &ReadMesh, joints: &Joints) -> Result<Skn, String> {
    let vertices = read.positions.len();
    let structure =
        Structure::of(extras, vertices).ok_or_else(|| "its extras do not fit".to_owned())?;
    let inverse_bind = |bone: usize| -> Result<Affine3A, String> {
        let name = extras
            .bones
            .get(bone)
            .ok_or_else(|| format!("bone {bone} is not in its list"))?;
        let joint = joints
            .names
            .iter()
            .position(|joint| joint == name)
            .ok_or_else(|| format!("the skin's joints lack its bone {name:?}"))?;
        joints
            .inverse_binds
            .get(joint)
            .copied()
            .ok_or_else(|| format!("joint {name:?} has no inverse bind matrix"))
    };
    let stored = |list: &[f32], blend: usize| -> (Vec3, Vec3) {
        let at = |offset: usize| list.get(blend * 6 + offset).copied().unwrap_or_default();
        (
            Vec3::new(at(0), at(1), at(2)),
            Vec3::new(at(3), at(4), at(5)),
        )
    };
    let mut real = Vec::with_capacity(vertices);
    for (vertex, carrier) in structure.carriers.iter().enumerate() {
        let bone = carrier.ok_or_else(|| format!("vertex {vertex} is in no binding"))?;
        let position = read.positions.get(vertex).copied().unwrap_or_default();
        let normal = read.normals.get(vertex).copied().unwrap_or_default();
        real.push(in_bone(&inverse_bind(bone)?, position, normal));
    }
    let mut blend_vertices = Vec::with_capacity(structure.blend_bones.len());
    for (blend, (pair, &bone)) in extras
        .blends
        .chunks_exact(2)
        .zip(&structure.blend_bones)
        .enumerate()
    {
        let vertex = usize::try_from(pair[0]).unwrap_or_default();
        let weight = pair[1] as f32 / BLEND_ONE;
        let carrier = structure
            .carriers
            .get(vertex)
            .copied()
            .flatten()
            .ok_or_else(|| format!("blend {blend} pulls vertex {vertex}, which no bone carries"))?;
        let (carrier_bind, puller_bind) = (inverse_bind(carrier)?, inverse_bind(bone)?);
        let (pulled_position, pulled_normal) = stored(&extras.pulled_vertices, blend);
        let (blend_position, blend_normal) = stored(&extras.blend_vertices, blend);
        // Where the stored points show at bind, and where the mesh shows it.
        let shown = carrier_bind.inverse().transform_point3(pulled_position) * (1.0 - weight)
            + puller_bind.inverse().transform_point3(blend_position) * weight;
        let now = read.positions.get(vertex).copied().unwrap_or_default();
        let moved = now - shown;
        if moved.length() <= MOVED {
            if let Some(slot) = real.get_mut(vertex) {
                *slot = skn::Vertex {
                    position: pulled_position.to_array(),
                    normal: pulled_normal.to_array(),
                };
            }
            blend_vertices.push(skn::Vertex {
                position: blend_position.to_array(),
                normal: blend_normal.to_array(),
            });
        } else {
            // Both points move by the edit, so the vertex shows moved by it.
            let normal = read.normals.get(vertex).copied().unwrap_or_default();
            if let Some(slot) = real.get_mut(vertex) {
                *slot = skn::Vertex {
                    position: (pulled_position + carrier_bind.transform_vector3(moved)).to_array(),
                    normal: in_bone(&carrier_bind, Vec3::ZERO, normal).normal,
                };
            }
            blend_vertices.push(skn::Vertex {
                position: (blend_position + puller_bind.transform_vector3(moved)).to_array(),
                normal: in_bone(&puller_bind, Vec3::ZERO, normal).normal,
            });
        }
    }
    Ok(Skn {
        style: shortest(),
        name: RawString::from(extras.name.as_str()),
        texture: RawString::from(extras.texture.as_str()),
        bones: extras
            .bones
            .iter()
            .map(|bone| RawString::from(bone.as_str()))
            .collect(),
        faces: faces(&read.triangles, |vertex| vertex)?,
        bindings: extras
            .bindings
            .chunks_exact(5)
            .map(|binding| skn::Binding {
                bone: binding[0],
                first_vertex: binding[1],
                vertex_count: binding[2],
                first_blend: binding[3],
                blend_count: binding[4],
            })
            .collect(),
        uvs: read.uvs.clone(),
        blends: extras
            .blends
            .chunks_exact(2)
            .map(|pair| skn::Blend {
                vertex: pair[0],
                raw_weight: pair[1],
            })
            .collect(),
        vertices: real.into_iter().chain(blend_vertices).collect(),
    })
}

/// Floats written as the shortest decimals that read back to the same
/// `f32`s, so a value that came through unchanged comes back bit for bit.
fn shortest() -> TextStyle {
    TextStyle {
        float_style: FloatStyle::Shortest,
        ..TextStyle::default()
    }
}

fn faces(
    triangles: &[[u32; 3]],
    new_index: impl Fn(usize) -> usize,
) -> Result<Vec<[i32; 3]>, String> {
    triangles
        .iter()
        .map(|triangle| {
            let mut face = [0i32; 3];
            for (slot, &corner) in face.iter_mut().zip(triangle) {
                *slot = i32::try_from(new_index(corner as usize))
                    .map_err(|_| "a vertex index is past a .skn's limit (2^31)".to_owned())?;
            }
            Ok(face)
        })
        .collect()
}

/// A skin whose structure is derived from its weights (see the module).
fn derived_skin(
    name: &str,
    read: &ReadMesh,
    joints: &Joints,
    skeleton: &rig::Skeleton,
) -> Result<Skn, String> {
    let skeleton_index = |joint: usize| joints.skeleton.get(joint).copied().unwrap_or_default();
    // Bones in the skeleton's order, those the skin uses.
    let mut used: Vec<usize> = read
        .influences
        .iter()
        .flat_map(|influences| {
            std::iter::once(influences.carrier).chain(influences.blend.map(|(joint, _)| joint))
        })
        .collect();
    used.sort_by_key(|&joint| skeleton_index(joint));
    used.dedup();
    let bone_of_joint = |joint: usize| {
        used.iter()
            .position(|&used| used == joint)
            .unwrap_or_default()
    };
    // Vertices grouped by the bone carrying them, in order within each.
    let mut order: Vec<usize> = (0..read.positions.len()).collect();
    order.sort_by_key(|&vertex| {
        read.influences
            .get(vertex)
            .map_or(0, |influences| bone_of_joint(influences.carrier))
    });
    let mut new_index = vec![0usize; order.len()];
    for (new, &old) in order.iter().enumerate() {
        if let Some(slot) = new_index.get_mut(old) {
            *slot = new;
        }
    }
    let to_i32 = |value: usize| {
        i32::try_from(value).map_err(|_| "a count is past a .skn's limit (2^31)".to_owned())
    };
    let mut vertices = Vec::with_capacity(order.len());
    let mut uvs = Vec::with_capacity(order.len());
    // Per bone: its real vertices' range, and its blends (new vertex, raw weight, blend vertex).
    let mut carried = vec![0usize; used.len()];
    let mut pulls: Vec<Vec<(usize, i32, skn::Vertex)>> = vec![Vec::new(); used.len()];
    for (new, &old) in order.iter().enumerate() {
        let influences = read
            .influences
            .get(old)
            .copied()
            .ok_or("a vertex without weights")?;
        let position = read.positions.get(old).copied().unwrap_or_default();
        let normal = read.normals.get(old).copied().unwrap_or_default();
        let bind = |joint: usize| joints.inverse_binds.get(joint).copied().unwrap_or_default();
        vertices.push(in_bone(&bind(influences.carrier), position, normal));
        uvs.push(read.uvs.get(old).copied().unwrap_or_default());
        if let Some(count) = carried.get_mut(bone_of_joint(influences.carrier)) {
            *count += 1;
        }
        if let Some((joint, weight)) = influences.blend {
            let raw = (weight * BLEND_ONE).round() as i32;
            if let Some(list) = pulls.get_mut(bone_of_joint(joint)) {
                list.push((new, raw, in_bone(&bind(joint), position, normal)));
            }
        }
    }
    let mut bindings = Vec::with_capacity(used.len());
    let mut blends = Vec::new();
    let mut blend_vertices = Vec::new();
    let (mut first_vertex, mut first_blend) = (0usize, 0usize);
    for (bone, (count, pulls)) in carried.iter().zip(pulls).enumerate() {
        let blend_count = pulls.len();
        bindings.push(skn::Binding {
            bone: to_i32(bone)?,
            first_vertex: if *count == 0 {
                -1
            } else {
                to_i32(first_vertex)?
            },
            vertex_count: to_i32(*count)?,
            first_blend: if blend_count == 0 {
                -1
            } else {
                to_i32(first_blend)?
            },
            blend_count: to_i32(blend_count)?,
        });
        for (vertex, raw, blend_vertex) in pulls {
            blends.push(skn::Blend {
                vertex: to_i32(vertex)?,
                raw_weight: raw,
            });
            blend_vertices.push(blend_vertex);
        }
        first_vertex += count;
        first_blend += blend_count;
    }
    let skin_name = if name.starts_with("xskin-") {
        name.to_owned()
    } else {
        // `xskin-<suit>-<BONE>-<part>`: the mesh's name as suit and part,
        // the bone carrying most of it.
        let most = carried
            .iter()
            .enumerate()
            .max_by_key(|&(_, count)| *count)
            .and_then(|(bone, _)| used.get(bone))
            .and_then(|&joint| skeleton.joints.get(skeleton_index(joint)))
            .map_or("ROOT", |joint| joint.name.as_str());
        format!("xskin-{name}-{most}-{}", name.to_uppercase())
    };
    Ok(Skn {
        style: shortest(),
        name: RawString::from(skin_name.as_str()),
        texture: RawString::from("x"),
        bones: used
            .iter()
            .map(|&joint| RawString::from(joints.names.get(joint).map_or("", String::as_str)))
            .collect(),
        faces: faces(&read.triangles, |vertex| {
            new_index.get(vertex).copied().unwrap_or_default()
        })?,
        bindings,
        uvs,
        blends,
        vertices: vertices.into_iter().chain(blend_vertices).collect(),
    })
}

/// A scale this far from 1 on a joint is one the Sims' bones cannot hold.
const SCALE_NOISE: f32 = 1e-5;

/// The glTF's own skeleton (the joints of its first skin, each under its
/// nearest ancestor that is a joint) as a Sims skeleton named `name`: each
/// node's rest translation and rotation in the Sims' axes and its stored
/// quaternion convention (both mirrored back in x: `(x, y, z)` to
/// `(-x, y, z)`, a rotation `(x, y, z, w)` to the stored `(-x, y, z, w)`).
/// What glTF has no place for takes the released skeletons' values: no
/// property lists, can-translate 1 on the root and 0 elsewhere, can-rotate
/// 1, can-blend 1 where it cannot translate, wiggle 0.
pub fn skeleton_of(asset: &Asset, name: &str) -> Result<cmx::Skeleton, ImportError> {
    let joints = rest_joints(asset)?;
    let bones = joints
        .iter()
        .map(|joint| {
            let parent = joint
                .parent
                .and_then(|parent| joints.get(parent))
                .map_or("NULL", |parent| parent.name.as_str());
            let [x, y, z] = joint.translation;
            let [qx, qy, qz, qw] = joint.rotation;
            let can_translate = i32::from(joint.parent.is_none());
            cmx::Bone {
                name: RawString::from(joint.name.as_str()),
                parent: RawString::from(parent),
                property_lists: Some(Vec::new()),
                translation: [-x, y, z],
                rotation: [-qx, qy, qz, qw],
                can_translate,
                can_rotate: 1,
                can_blend: Some(1 - can_translate),
                wiggle_value: Some(0.0),
                wiggle_power: Some(0.0),
            }
        })
        .collect();
    Ok(cmx::Skeleton {
        name: RawString::from(name),
        bones,
    })
}

/// A joint of the glTF's own skeleton at rest, in glTF's axes.
pub(super) struct RestJoint {
    pub name: String,
    /// Index of the parent joint (before this one).
    pub parent: Option<usize>,
    pub translation: [f32; 3],
    /// `[x, y, z, w]`, acting on column vectors.
    pub rotation: [f32; 4],
}

/// The joints of the glTF's first skin, each under its nearest ancestor
/// that is a joint, parents first; a joint named twice, scaled, or listed
/// before its parent is an error naming it.
pub(super) fn rest_joints(asset: &Asset) -> Result<Vec<RestJoint>, ImportError> {
    let document = &asset.document;
    let skin = document.skins().next().ok_or(ImportError::NoSkin)?;
    let joints: Vec<gltf::Node> = skin.joints().collect();
    let parents = parents(document);
    let mut rest: Vec<RestJoint> = Vec::with_capacity(joints.len());
    for (position, joint) in joints.iter().enumerate() {
        let name = joint.name().unwrap_or_default().to_owned();
        if rest.iter().any(|known| known.name == name) {
            return Err(ImportError::JointTwice(name));
        }
        let mut ancestor = parents.get(joint.index()).copied().flatten();
        // Bounded by the node count: a cycle cannot hold a valid glTF.
        for _ in 0..parents.len() {
            match ancestor {
                Some(node) if joints.iter().all(|joint| joint.index() != node) => {
                    ancestor = parents.get(node).copied().flatten();
                }
                _ => break,
            }
        }
        let parent =
            ancestor.and_then(|node| joints.iter().position(|joint| joint.index() == node));
        if parent.is_some_and(|parent| parent >= position) {
            return Err(ImportError::ParentAfter(name));
        }
        let (translation, rotation, scale) = joint.transform().decomposed();
        if scale.iter().any(|&axis| (axis - 1.0).abs() > SCALE_NOISE) {
            return Err(ImportError::Scaled { joint: name, scale });
        }
        rest.push(RestJoint {
            name,
            parent,
            translation,
            rotation,
        });
    }
    Ok(rest)
}

/// A skeleton file holding `skeleton` alone, as the game's
/// `adult-skeleton.cmx` does.
pub fn skeleton_file(skeleton: cmx::Skeleton) -> Cmx {
    Cmx {
        style: shortest(),
        comment: RawString::from(MAXIS_COMMENT),
        version_keyword: Magic,
        version: RETAIL_VERSION,
        skeletons: vec![skeleton],
        suits: Vec::new(),
        skills: Vec::new(),
    }
}

/// The glTF animation `extras` key of a Sims skill's own record (a Blender
/// custom property of the action of that name).
pub const SKILL_EXTRAS: &str = "ossuary_sims_skill";

/// A glTF animation's extras holding the skill's record (its names,
/// duration, distance, motions and their property lists: all but the keys).
pub fn skill_extras(skill: &cmx::Skill) -> Option<Box<serde_json::value::RawValue>> {
    serde_json::value::to_raw_value(&serde_json::json!({ SKILL_EXTRAS: skill })).ok()
}

/// Frames a second where an animation's keys are not evenly spaced and
/// must be sampled: the released skills' rate.
const FRAMES_PER_SECOND: f32 = 30.0;

/// The most frames a skill is sampled at: over half an hour at 30 a second,
/// where the real skills have at most a few hundred. Frames come from
/// times, not from counts the input's size bounds, so they are bounded here.
const MAX_FRAMES: usize = 65_536;

/// Key times this close are one frame apart evenly.
const EVEN: f32 = 1e-4;

/// One joint's channels: key times and values, as glTF gives them.
#[derive(Default)]
struct Channels {
    translation: Option<(Vec<f32>, Vec<[f32; 3]>, bool)>,
    rotation: Option<(Vec<f32>, Vec<[f32; 4]>, bool)>,
}

/// Each glTF animation as a skill (see [`import_skills`]).
pub fn import_skills(asset: &Asset) -> Result<Vec<SkillFile>, ImportError> {
    asset
        .document
        .animations()
        .map(|animation| import_skill(asset, &animation))
        .collect()
}

/// A glTF animation as a Sims skill: every joint with a rotation channel
/// gets a motion (with translations too where its translation channel
/// moves it off its rest), sampled at the skill's frames. With the skill's
/// record in the extras, its names, duration, frames, distance and
/// property lists are kept; otherwise the name is made a released one
/// (`a2o-...`, [`retail::released_skill_name`]), the frames are the keys'
/// times when evenly spaced (else 30 a second), and distance, moving and
/// property lists are 0 and none.
fn import_skill(asset: &Asset, animation: &gltf::Animation) -> Result<SkillFile, ImportError> {
    let gltf_name = animation
        .name()
        .map_or_else(|| format!("animation {}", animation.index()), str::to_owned);
    let fail = |problem: String| ImportError::Animation {
        animation: gltf_name.clone(),
        problem,
    };
    let record = animation
        .extras()
        .as_ref()
        .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .and_then(|value| value.get(SKILL_EXTRAS).cloned())
        .and_then(|value| serde_json::from_value::<cmx::Skill>(value).ok());
    // Per joint node, by the node's name.
    let mut channels: BTreeMap<String, (usize, Channels)> = BTreeMap::new();
    for channel in animation.channels() {
        let node = channel.target().node();
        let name = node.name().unwrap_or_default().to_owned();
        let sampler = channel.sampler();
        let cubic = sampler.interpolation() == gltf::animation::Interpolation::CubicSpline;
        let step = sampler.interpolation() == gltf::animation::Interpolation::Step;
        let times: Vec<f32> = asset
            .floats::<1>(&sampler.input())?
            .into_iter()
            .map(|[time]| time)
            .collect();
        let entry = &mut channels
            .entry(name)
            .or_insert_with(|| (node.index(), Channels::default()))
            .1;
        match channel.target().property() {
            gltf::animation::Property::Translation => {
                let values = key_values(asset.floats::<3>(&sampler.output())?, cubic);
                entry.translation = Some((times, values, step));
            }
            gltf::animation::Property::Rotation => {
                let values = key_values(asset.floats::<4>(&sampler.output())?, cubic);
                entry.rotation = Some((times, values, step));
            }
            // Blender keys every joint's scale, at 1: only a scale that is
            // not 1 is one the game cannot play.
            gltf::animation::Property::Scale => {
                let scales = key_values(asset.floats::<3>(&sampler.output())?, cubic);
                let scaled = scales
                    .iter()
                    .flatten()
                    .any(|&axis| (axis - 1.0).abs() > SCALE_NOISE);
                if scaled {
                    return Err(fail(format!(
                        "it scales the joint {:?}; a Sims bone has no scale",
                        node.name().unwrap_or_default()
                    )));
                }
            }
            gltf::animation::Property::MorphTargetWeights => {}
        }
    }
    for (name, (_, channels)) in &channels {
        let lengths = [
            channels
                .translation
                .as_ref()
                .map(|(t, v, _)| (t.len(), v.len())),
            channels
                .rotation
                .as_ref()
                .map(|(t, v, _)| (t.len(), v.len())),
        ];
        if let Some((times, values)) = lengths
            .into_iter()
            .flatten()
            .find(|(t, v)| t != v || *t == 0)
        {
            return Err(fail(format!(
                "the joint {name:?} has {values} keys for {times} times"
            )));
        }
    }
    let (start, seconds, frames) = match &record {
        Some(skill) => (
            0.0,
            skill.duration / 1000.0,
            usize::try_from(skill.frame_count()).unwrap_or_default(),
        ),
        None => frames_of(&channels),
    };
    if frames == 0 {
        return Err(fail("it has no frames".to_owned()));
    }
    if frames > MAX_FRAMES {
        return Err(fail(format!(
            "it needs {frames} frames; a skill here has at most {MAX_FRAMES}"
        )));
    }
    // The same arithmetic as the export's, so that its keys are hit exactly.
    let seconds_per_frame = seconds / frames as f32;
    let times: Vec<f32> = (0..frames)
        .map(|frame| start + frame as f32 * seconds_per_frame)
        .collect();
    let rest_translation = |node: usize| {
        asset
            .document
            .nodes()
            .nth(node)
            .map(|node| node.transform().decomposed().0)
            .unwrap_or_default()
    };
    let mut values = no_values();
    let mut motions = Vec::new();
    let record_motion = |bone: &str| {
        record.as_ref().and_then(|skill| {
            skill
                .motions
                .iter()
                .find(|motion| motion.bone.to_text() == bone)
        })
    };
    // Motions in the record's order, its keys laid out as it lays them;
    // others in node order (the skeleton's, for ossuary's own assets).
    let mut order: Vec<(&String, &(usize, Channels))> = channels.iter().collect();
    order.sort_by_key(|(bone, (node, _))| {
        let kept = record.as_ref().and_then(|skill| {
            skill
                .motions
                .iter()
                .position(|motion| motion.bone.to_text() == **bone)
        });
        (kept.unwrap_or(usize::MAX), *node)
    });
    for (bone, (node, channels)) in order {
        let kept = record_motion(bone);
        let rotations = match (kept, &channels.rotation) {
            (Some(motion), _) if motion.rotations_used == 0 => None,
            (_, rotation) => rotation.as_ref(),
        };
        let translations: Option<Vec<[f32; 3]>> =
            channels
                .translation
                .as_ref()
                .map(|(key_times, keys, step)| {
                    times
                        .iter()
                        .map(|&t| sample3(key_times, keys, *step, t))
                        .collect()
                });
        let moves = |translations: &Vec<[f32; 3]>| {
            let rest = rest_translation(*node);
            translations
                .iter()
                .any(|key| key.iter().zip(&rest).any(|(a, b)| (a - b).abs() > EVEN))
        };
        let translations = match kept {
            Some(motion) => translations.filter(|_| motion.positions_used != 0),
            None => translations.filter(moves),
        };
        if rotations.is_none() && translations.is_none() && kept.is_none() {
            continue;
        }
        let too_many = || fail("too many keys for a skill".to_owned());
        let first_position = match &translations {
            Some(keys) => {
                let first = values.translations.len();
                values
                    .translations
                    .extend(keys.iter().map(|&[x, y, z]| [-x, y, z]));
                i32::try_from(first).map_err(|_| too_many())?
            }
            None => -1,
        };
        let first_rotation = match rotations {
            Some((key_times, rotations, step)) => {
                let first = i32::try_from(values.rotations.len()).map_err(|_| too_many())?;
                let mut previous: Option<[f32; 4]> = None;
                for &time in &times {
                    let [x, y, z, w] = sample4(key_times, rotations, *step, time);
                    // glTF's turn as the Sims store it (mirrored back,
                    // acting as its conjugate): (x, y, z, w) to (-x, y, z,
                    // w); each key in the hemisphere of the one before, so
                    // keys interpolate the short way.
                    let mut stored = [-x, y, z, w];
                    if let Some(previous) = previous {
                        let dot: f32 = previous.iter().zip(&stored).map(|(a, b)| a * b).sum();
                        if dot < 0.0 {
                            stored = stored.map(|c| -c);
                        }
                    }
                    previous = Some(stored);
                    values.rotations.push(stored);
                }
                first
            }
            None => -1,
        };
        let frame_count = i32::try_from(frames).map_err(|_| fail("too many frames".to_owned()))?;
        motions.push(cmx::Motion {
            bone: RawString::from(bone.as_str()),
            frame_count,
            duration: kept.map_or(seconds * 1000.0, |motion| motion.duration),
            positions_used: i32::from(translations.is_some()),
            rotations_used: i32::from(rotations.is_some()),
            first_position,
            first_rotation,
            property_lists: kept
                .map(|motion| motion.property_lists.clone())
                .unwrap_or_default(),
            time_property_lists: kept
                .map(|motion| motion.time_property_lists.clone())
                .unwrap_or_default(),
        });
    }
    let count =
        |len: usize| i32::try_from(len).map_err(|_| fail("too many keys for a skill".to_owned()));
    let skill = match &record {
        Some(kept) => cmx::Skill {
            position_count: count(values.translations.len())?,
            rotation_count: count(values.rotations.len())?,
            motions,
            ..kept.clone()
        },
        None => {
            let unnamed = cmx::Skill {
                name: RawString::from(gltf_name.as_str()),
                animation: RawString::from(format!("xskill-{gltf_name}").as_str()),
                duration: seconds * 1000.0,
                distance: 0.0,
                moving: 0,
                position_count: count(values.translations.len())?,
                rotation_count: count(values.rotations.len())?,
                motions,
            };
            let (name, keys) = formats::sims::retail::released_skill_name(
                &unnamed,
                formats::sims::retail::Figure::Adult,
            );
            cmx::Skill {
                name,
                animation: keys,
                ..unnamed
            }
        }
    };
    let counts = formats::sims::cfp::StreamsContext {
        position_count: formats::sims::cfp::ValueCount(skill.position_count.unsigned_abs()),
        rotation_count: formats::sims::cfp::ValueCount(skill.rotation_count.unsigned_abs()),
    };
    let stream = formats::sims::cfp::Streams::plain(&values)
        .to_bytes_with(&counts)
        .map_err(|error| fail(error.to_string()))?;
    let name = skill.name.to_text();
    let stem = match name.get(..4).map(str::to_ascii_lowercase).as_deref() {
        Some("a2o-") => format!("adult-{}", name.get(4..).unwrap_or_default()),
        Some("c2o-") => format!("child-{}", name.get(4..).unwrap_or_default()),
        _ => name,
    };
    let stream_name = format!("{}.cfp", skill.animation.to_text());
    Ok(SkillFile {
        stem,
        cmx: Some(Cmx {
            style: shortest(),
            comment: RawString::from(MAXIS_COMMENT),
            version_keyword: Magic,
            version: RETAIL_VERSION,
            skeletons: Vec::new(),
            suits: Vec::new(),
            skills: vec![skill],
        }),
        stream: (stream_name, stream),
    })
}

fn no_values() -> formats::sims::cfp::Values {
    formats::sims::cfp::Values {
        translations: Vec::new(),
        rotations: Vec::new(),
    }
}

/// The values of a sampler's output; of a cubic spline's, each key's
/// value (between its in- and out-tangents).
fn key_values<const N: usize>(output: Vec<[f32; N]>, cubic: bool) -> Vec<[f32; N]> {
    if cubic {
        output.into_iter().skip(1).step_by(3).collect()
    } else {
        output
    }
}

/// The skill's start, duration and frames when no record gives them: from
/// the first key, the key times when evenly spaced (the last frame lasting
/// as long as the others); else 30 frames a second up to the last key.
fn frames_of(channels: &BTreeMap<String, (usize, Channels)>) -> (f32, f32, usize) {
    let mut times: Vec<f32> = channels
        .values()
        .flat_map(|(_, channels)| {
            let translation = channels
                .translation
                .iter()
                .flat_map(|(times, _, _)| times.clone());
            let rotation = channels
                .rotation
                .iter()
                .flat_map(|(times, _, _)| times.clone());
            translation.chain(rotation).collect::<Vec<_>>()
        })
        .filter(|time| time.is_finite())
        .collect();
    times.sort_by(f32::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() <= EVEN);
    // The skill starts at the first key (Blender's first frame is at 1/24
    // of a second): before it, glTF holds the first key's pose anyway.
    let first = times.first().copied().unwrap_or_default().max(0.0);
    let last = times.last().copied().unwrap_or_default().max(first);
    let span = last - first;
    let even = times.len() >= 2 && {
        let step = times.get(1).copied().unwrap_or_default() - first;
        times
            .windows(2)
            .all(|pair| ((pair[1] - pair[0]) - step).abs() <= EVEN)
    };
    if even {
        let step = span / (times.len() - 1) as f32;
        (first, span + step, times.len())
    } else {
        // A float cast saturates: a last key past every bound asks for more
        // than MAX_FRAMES, which the caller refuses.
        let frames = ((span * FRAMES_PER_SECOND).round() as usize).saturating_add(1);
        (first, frames as f32 / FRAMES_PER_SECOND, frames)
    }
}

/// Where `time` falls among `times`: the key before and the share of the
/// way to the next.
fn segment(times: &[f32], time: f32, step: bool) -> (usize, usize, f32) {
    let after = times.partition_point(|&key| key <= time);
    let before = after.saturating_sub(1);
    let next = after.min(times.len().saturating_sub(1));
    let (t0, t1) = (
        times.get(before).copied().unwrap_or_default(),
        times.get(next).copied().unwrap_or_default(),
    );
    let share = if step || next == before || t1 <= t0 {
        0.0
    } else {
        ((time - t0) / (t1 - t0)).clamp(0.0, 1.0)
    };
    (before, next, share)
}

fn sample3(times: &[f32], keys: &[[f32; 3]], step: bool, time: f32) -> [f32; 3] {
    let (before, next, share) = segment(times, time, step);
    let a = Vec3::from_array(keys.get(before).copied().unwrap_or_default());
    let b = Vec3::from_array(keys.get(next).copied().unwrap_or_default());
    if share == 0.0 {
        return a.to_array();
    }
    a.lerp(b, share).to_array()
}

fn sample4(times: &[f32], keys: &[[f32; 4]], step: bool, time: f32) -> [f32; 4] {
    let (before, next, share) = segment(times, time, step);
    let a = glam::Quat::from_array(keys.get(before).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]));
    let b = glam::Quat::from_array(keys.get(next).copied().unwrap_or([0.0, 0.0, 0.0, 1.0]));
    if share == 0.0 {
        return a.to_array();
    }
    a.slerp(b, share).to_array()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vertex_keeps_its_two_heaviest_joints_renormalised() {
        let (kept, dropped) =
            two_heaviest(vec![(3, 0.2), (1, 0.5), (2, 0.1), (1, 0.1), (4, 0.1)]).unwrap();
        // Joint 1's two entries merge (0.6); joint 3 is next (0.2); the
        // rest are dropped: 0.2 / 0.8 of the pair.
        assert!(dropped);
        assert_eq!(kept.carrier, 1);
        assert_eq!(kept.blend, Some((3, 0.25)));
        let (alone, dropped) = two_heaviest(vec![(5, 1.0)]).unwrap();
        assert!(!dropped);
        assert_eq!((alone.carrier, alone.blend), (5, None));
        // A pull below the game's 1/32768 is none.
        let (tiny, _) = two_heaviest(vec![(0, 1.0), (1, 1e-6)]).unwrap();
        assert_eq!(tiny.blend, None);
        assert!(two_heaviest(Vec::new()).is_none());
    }

    #[test]
    fn images_are_written_under_their_own_names_apart_from_the_texture_field() {
        // A retail head whose field is x: the image the export chose to show it.
        assert_eq!(
            image_file_name(Some("C001MAmed_Ross.bmp"), "x").as_deref(),
            Some("C001MAmed_Ross.bmp")
        );
        // A body whose field names another outfit's image keeps its field;
        // the image shown is written under its own name beside it.
        assert_eq!(
            image_file_name(Some("B001MAFitmed_relax.bmp"), "extrememlgt_01").as_deref(),
            Some("B001MAFitmed_relax.bmp")
        );
        // An image from elsewhere (Blender names it without an extension, or .png).
        assert_eq!(
            image_file_name(Some("cape.png"), "x").as_deref(),
            Some("cape.bmp")
        );
        assert_eq!(
            image_file_name(Some("CAPE.PNG"), "x").as_deref(),
            Some("CAPE.bmp")
        );
        // Without a name: the texture field's, and none for x.
        assert_eq!(
            image_file_name(None, "capelgt").as_deref(),
            Some("capelgt.bmp")
        );
        assert_eq!(image_file_name(Some(""), "x"), None);
    }

    #[test]
    fn new_textures_are_named_by_skin_tone_as_the_game_looks_for_them() {
        assert_eq!(
            texture_name("xskin-b001mafit_01-PELVIS-BODY"),
            "b001mafitlgt_01"
        );
        assert_eq!(texture_name("xskin-hulp-L_HAND-POINTCL"), "hulplgt");
        assert_eq!(texture_name("cape"), "capelgt");
    }

    #[test]
    fn skin_names_give_their_suit_and_bone() {
        let name = "xskin-b001mafit_01-PELVIS-BODY";
        assert_eq!(suit_of_skin_name(name).as_deref(), Some("b001mafit_01"));
        assert_eq!(bone_of_skin_name(name).as_deref(), Some("PELVIS"));
        assert_eq!(suit_of_skin_name("cape"), None);
    }

    #[test]
    fn evenly_spaced_keys_are_the_frames_and_others_are_sampled_at_30_a_second() {
        let channels = |times: Vec<f32>| {
            let rotations = vec![[0.0, 0.0, 0.0, 1.0]; times.len()];
            let mut map = BTreeMap::new();
            map.insert(
                "ROOT".to_owned(),
                (
                    0,
                    Channels {
                        translation: None,
                        rotation: Some((times, rotations, false)),
                    },
                ),
            );
            map
        };
        // Three frames a tenth of a second apart: the last lasts a tenth too.
        let (start, seconds, frames) = frames_of(&channels(vec![0.0, 0.1, 0.2]));
        assert_eq!((start, frames), (0.0, 3));
        assert!((seconds - 0.3).abs() < 1e-6);
        let (start, seconds, frames) = frames_of(&channels(vec![0.0, 0.1, 0.5]));
        assert_eq!((start, frames), (0.0, 16));
        assert!((seconds - 16.0 / 30.0).abs() < 1e-6);
        // Blender's keys start at its frame 1, a 24th of a second in: the
        // skill starts there.
        let blender: Vec<f32> = (1..=25).map(|frame| frame as f32 / 24.0).collect();
        let (start, seconds, frames) = frames_of(&channels(blender));
        assert_eq!((start, frames), (1.0 / 24.0, 25));
        assert!((seconds - 25.0 / 24.0).abs() < 1e-6);
    }

    #[test]
    fn keys_are_sampled_between_and_at_their_times() {
        let times = [0.0, 1.0];
        let keys = [[0.0, 0.0, 0.0], [2.0, 4.0, 6.0]];
        assert_eq!(sample3(&times, &keys, false, 0.25), [0.5, 1.0, 1.5]);
        assert_eq!(sample3(&times, &keys, true, 0.75), [0.0, 0.0, 0.0]);
        assert_eq!(sample3(&times, &keys, false, 1.0), [2.0, 4.0, 6.0]);
        // Past the last key, the last holds.
        assert_eq!(sample3(&times, &keys, false, 3.0), [2.0, 4.0, 6.0]);
    }
}
