//! glTF back into The Sims' own files: each skinned mesh a `.skn`, grouped
//! into suits (`.cmx`), its texture an 8-bit BMP; each animation a skill
//! (`sims_skill` in the import module).
//!
//! Export's conventions undone: glTF is right-handed, the Sims left-handed,
//! so x is mirrored and triangles are wound back. The way back goes through
//! model space ([`super::rest`]): a vertex is where the glTF's rest puts it
//! (its joints' node transforms up to the scene's root, an armature
//! object's included, and their inverse bind matrices), and is stored in
//! the space of the bone that carries it as the game's skeleton rests
//! (`inverse(bone's model rest) x vertex`), so it shows at the game's rest
//! where it showed in the glTF, whichever way the glTF's joints were
//! turned (Blender's bones point from head to child; the game's do not).
//! Joints of the glTF resting elsewhere than the skeleton's (past
//! [`rest::ELSEWHERE`] of the figure's height) are named in one warning:
//! the meshes then turn about the skeleton's joints, not the glTF's. The
//! game's rules:
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

use std::collections::{BTreeMap, HashMap};

use formats::rig::{self, BoneSpace};
use formats::schema::text::{FloatStyle, TextStyle};
use formats::schema::{Magic, RawString};
use formats::sims::cmx::{self, Cmx, MAXIS_COMMENT, RETAIL_VERSION};
use formats::sims::skn::{self, Skn};
use glam::{Affine3A, Vec3};
use serde::{Deserialize, Serialize};

use super::carried::Original;
use super::document::Asset;
use super::rest::{self, Elsewhere, Game, GameRest, Scene};
use super::sims_files::SimsCharacter;
use super::sims_original::StoredSkin;
use super::{bmp, ImportError};

pub use super::sims_skill::{skill_extras, SKILL_EXTRAS};

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

/// A rig skin's extras as JSON (see [`SkinExtras`]).
pub fn skin_extras(skin: &rig::Skin, bone_space: &BoneSpace) -> serde_json::Value {
    serde_json::to_value(extras_of(skin, bone_space)).unwrap_or_default()
}

/// A rig skin's extras (see [`SkinExtras`]).
pub fn extras_of(skin: &rig::Skin, bone_space: &BoneSpace) -> SkinExtras {
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
    SkinExtras {
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
    }
}

/// What a glTF that carries none of the Sims' own data (made elsewhere, or
/// exported without custom properties) cannot give back, derived instead.
pub const WITHOUT_SIMS_DATA: &str = "it carries none of the Sims' own data (a glTF made \
    elsewhere, or exported without custom properties), so that was derived: each vertex's \
    bone and blend from its two heaviest weights, blend vertices where the vertex shows at \
    rest, unit normals, suits from the nodes or the skins' names, texture names by skin \
    tone, skills' released names (a2o-) and frames from their keys";

/// What the meshes do where the glTF's joints rest elsewhere than the
/// skeleton's.
const ELSEWHERE_MESHES: &str = "the meshes are written where the glTF shows them at rest, \
    so they turn about the skeleton's joints, not the glTF's, when posed";

/// The character `asset` holds, for `skeleton` (in the file's axes: the
/// Sims'), with the files it carries (`originals`, read once by the
/// caller: [`super::carried::originals`]). `external` reads a file a
/// `.gltf` names beside itself.
pub fn import(
    asset: &Asset,
    skeleton: &rig::Skeleton,
    originals: &[Original],
    external: &dyn Fn(&str) -> Option<Vec<u8>>,
) -> Result<SimsCharacter, ImportError> {
    let document = &asset.document;
    let mut scene = Scene::of(asset)?;
    let game = GameRest::of(skeleton)?;
    let mut character = SimsCharacter::default();
    // A rig in another tool's units and axes (ts1-blender-io's) is brought
    // onto the skeleton first.
    if let Some((into, said)) = super::registration::fitted(asset, &scene, &game) {
        scene.bring(into);
        character.warnings.push(said);
    }
    let mut elsewhere = Elsewhere::default();
    let holds_joints = holds_joints(document, &scene);
    // By file name (without extension).
    let mut suits: BTreeMap<String, cmx::Suit> = BTreeMap::new();
    // Per glTF image: the texture file it was written as.
    let mut images: HashMap<usize, String> = HashMap::new();
    let mut more_than_two = 0;
    // What a mesh's carried skin is posed on, to find the vertices Blender
    // split along seams.
    let posed_skeleton = skinning::Skeleton::new(skeleton).ok();
    let carried_places = super::sims_original::carried_places(originals);
    let mesh_nodes = super::mesh::placed(document)?;
    for node in &mesh_nodes {
        let Some(mesh) = node.mesh() else {
            continue;
        };
        let node_name = node.name().unwrap_or_default().to_owned();
        let mesh_name = mesh
            .name()
            .map_or_else(|| format!("mesh {}", mesh.index()), str::to_owned);
        let gltf_skin = node.skin().ok_or_else(|| ImportError::Mesh {
            mesh: mesh_name.clone(),
            problem: "it has no skin: a Sims skin must follow the skeleton's bones".to_owned(),
        })?;
        let joints = skin_joints(asset, &gltf_skin, &game, &scene, &mut elsewhere)?;
        let from_gltf = mesh
            .extras()
            .as_ref()
            .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
            .and_then(|value| value.get(SKIN_EXTRAS).cloned())
            .and_then(|value| serde_json::from_value::<SkinExtras>(value).ok());
        // The carried skin of the extras' name, else of the mesh's: read
        // once, and only when the mesh needs it.
        let skin_name = from_gltf
            .as_ref()
            .map_or_else(|| mesh_name.clone(), |extras| extras.name.clone());
        let carried = std::cell::OnceCell::new();
        let carried_skin = || {
            carried
                .get_or_init(|| super::sims_original::carried_rig_skin(originals, &skin_name))
                .as_ref()
        };
        // Blender's defaults keep no extras: the carried skin gives them.
        let extras = from_gltf.or_else(|| super::sims_original::carried_extras(carried_skin()?));
        // Posed only for a mesh of another vertex count than its extras say.
        let stored_if_split = |count: usize| {
            extras
                .as_ref()
                .filter(|extras| extras.vertex_count as usize != count)?;
            super::sims_original::stored_vertices(
                carried_skin()?,
                posed_skeleton.as_ref()?,
                &game.model,
            )
        };
        let read = read_mesh(asset, &mesh, &mesh_name, &joints, stored_if_split)?;
        more_than_two += read.more_than_two;
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
                        "mesh {}: its Sims skin data (extras) no longer fits its vertices and \
                         weights; its bones, bindings and blends are derived",
                        rest::quoted(&mesh_name)
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
        // for a new image a name by skin tone (the name its image already
        // has, where another mesh shares it); the image as an 8-bit BMP,
        // converted and written once however many meshes show it.
        let shared = read
            .image
            .as_ref()
            .and_then(|image| images.get(&image.index()));
        let skn = match (&fitting, &read.image, shared) {
            (None, Some(_), Some(file)) => Skn {
                texture: RawString::from(file.strip_suffix(".bmp").unwrap_or(file)),
                ..skn
            },
            (None, Some(_), None) => Skn {
                texture: RawString::from(texture_name(&skn.name.to_text()).as_str()),
                ..skn
            },
            _ => skn,
        };
        let image_file = read.image.as_ref().and_then(|image| match fitting {
            Some(_) => image_file_name(image.name(), &skn.texture.to_text()),
            None => Some(format!("{}.bmp", skn.texture.to_text())),
        });
        if let (Some(image), Some(file), None) = (read.image, image_file, shared) {
            // Meshes naming one texture share its image: written once.
            let known = character
                .textures
                .iter()
                .any(|(name, _)| name.eq_ignore_ascii_case(&file));
            if !known {
                let bytes = bmp::indexed_bmp(&asset.image_bytes(&image, external)?, None).map_err(
                    |error| ImportError::Image {
                        index: image.index(),
                        problem: error.to_string(),
                    },
                )?;
                character.textures.push((file.clone(), bytes));
            }
            images.insert(image.index(), file);
        }
        let place = node
            .extras()
            .as_ref()
            .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
            .and_then(|value| value.get(SUIT_EXTRAS).cloned())
            .and_then(|value| serde_json::from_value::<SuitPlace>(value).ok())
            .or_else(|| {
                carried_places
                    .get(&skn.name.to_text().to_ascii_lowercase())
                    .cloned()
            })
            .unwrap_or_else(|| {
                let skin_name = skn.name.to_text();
                let suit = suit_of(&scene, &holds_joints, node.index())
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
    character.skills = super::sims_skill::import_skills(asset, &scene, &game, originals)?;
    if mesh_nodes.is_empty() && character.skills.is_empty() {
        return Err(ImportError::NoMeshes);
    }
    character
        .warnings
        .extend(elsewhere.warning(ELSEWHERE_MESHES));
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
    super::sims_original::keep_originals(&mut character, originals);
    Ok(character)
}

/// Per node, whether it is a joint or holds one (an armature, as Blender
/// writes one, holds its meshes beside its bones: it is no suit).
fn holds_joints(document: &gltf::Document, scene: &Scene) -> Vec<bool> {
    let mut holds = vec![false; scene.parents.len()];
    for skin in document.skins() {
        for joint in skin.joints() {
            let mut at = Some(joint.index());
            // Up to the first node already marked: each node is marked once.
            while let Some(node) = at {
                match holds.get_mut(node) {
                    Some(slot) if !*slot => *slot = true,
                    _ => break,
                }
                at = scene.parent(node);
            }
        }
    }
    holds
}

/// The suit a mesh node is grouped into: its parent, by its name, unless
/// that is a joint or holds joints.
fn suit_of(scene: &Scene, holds_joints: &[bool], node: usize) -> Option<String> {
    let parent = scene.parent(node)?;
    if holds_joints.get(parent).copied().unwrap_or(true) {
        return None;
    }
    scene
        .names
        .get(parent)
        .filter(|name| !name.is_empty())
        .cloned()
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

/// A glTF skin's joints as the skeleton's, and what carries a vertex
/// from the glTF's bind to the skeleton's bone spaces.
struct Joints {
    names: Vec<String>,
    /// Per glTF skin joint: its skeleton index.
    skeleton: Vec<usize>,
    /// Per glTF skin joint: from the model to the space of the skeleton's
    /// joint at rest (the inverse of its model rest).
    to_bone: Vec<Affine3A>,
    /// Per glTF skin joint: from a vertex's bind position to where it
    /// rests ([`rest::skinning`]).
    skinning: Vec<Affine3A>,
    /// Per glTF skin joint, by name.
    by_name: HashMap<String, usize>,
}

impl Joints {
    /// The glTF skin joint named `name`.
    fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }
}

fn skin_joints(
    asset: &Asset,
    skin: &gltf::Skin,
    game: &GameRest,
    scene: &Scene,
    elsewhere: &mut Elsewhere,
) -> Result<Joints, ImportError> {
    let count = skin.joints().len();
    let inverse_binds = rest::inverse_binds(asset, skin, count)?;
    let mut joints = Joints {
        names: Vec::with_capacity(count),
        skeleton: Vec::with_capacity(count),
        to_bone: Vec::with_capacity(count),
        skinning: Vec::with_capacity(count),
        by_name: HashMap::with_capacity(count),
    };
    for (position, (joint, inverse_bind)) in skin.joints().zip(&inverse_binds).enumerate() {
        let name = joint.name().unwrap_or_default().to_owned();
        if joints.by_name.insert(name.clone(), position).is_some() {
            return Err(ImportError::JointTwice(name));
        }
        let index = game
            .find(&name)
            .ok_or_else(|| ImportError::UnknownJoint(name.clone()))?;
        let frame = scene.joint_frame(joint.index(), &name, Game::Sims)?;
        let model = game.model(index);
        elsewhere.note(
            &name,
            (frame.translation - model.translation).length(),
            game.height,
        );
        joints
            .skinning
            .push(rest::skinning(&scene.world(joint.index()), inverse_bind));
        joints.to_bone.push(model.inverse());
        joints.names.push(name);
        joints.skeleton.push(index);
    }
    Ok(joints)
}

/// A mesh's vertices where the glTF's rest puts them, in the file's axes,
/// its triangles wound as the file winds them, and each vertex's two
/// heaviest joints (glTF skin joint indices) with weights summing to 1.
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
    joints: &Joints,
    stored_if_split: impl FnOnce(usize) -> Option<StoredSkin>,
) -> Result<ReadMesh<'a>, ImportError> {
    let mut read = super::mesh::read(asset, mesh, name, joints.names.len())?;
    read.move_to_rest(&joints.skinning);
    // Blender split vertices along seams: the skin's own vertices again.
    let count = read.positions.len();
    if let Some(stored) = stored_if_split(count).filter(|stored| stored.vertices.len() != count) {
        let triangles = stored.triangles.iter().copied();
        if let Some(mapped) = super::seams::mapped_back(&read, &stored.vertices, triangles) {
            read = mapped;
        }
    }
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
    // Each bone of the extras as a glTF skin joint, found by name once.
    let bone_joints: Vec<Option<usize>> =
        extras.bones.iter().map(|name| joints.find(name)).collect();
    let bone_joint = |bone: usize| bone_joints.get(bone).copied().flatten();
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
        joints
            .find(name)
            .and_then(|joint| joints.to_bone.get(joint))
            .copied()
            .ok_or_else(|| format!("the skin's joints lack its bone {}", rest::quoted(name)))
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
pub(super) fn shortest() -> TextStyle {
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
    // Per glTF skin joint: its place among the bones used.
    let mut bone_of = vec![0usize; joints.names.len()];
    for (bone, &joint) in used.iter().enumerate() {
        if let Some(slot) = bone_of.get_mut(joint) {
            *slot = bone;
        }
    }
    let bone_of_joint = |joint: usize| bone_of.get(joint).copied().unwrap_or_default();
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
        let bind = |joint: usize| joints.to_bone.get(joint).copied().unwrap_or_default();
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

/// The glTF's own skeleton (its first skin's joints, each under its
/// nearest ancestor that is a joint) as a Sims skeleton named `name`, each
/// joint where the glTF's rest puts it in model space (an armature
/// object's transform applied: its scale in the joints' places), turned as
/// the joint of that name in `turns` is turned at rest (in model space),
/// else as the glTF turns it.
///
/// Why the turns come from the game's skeleton: a skin stores its vertices
/// in its bones' own spaces and a skill turns bones from their rest, so the
/// game's bodies and skills fit a skeleton whose bones are turned as the
/// game's are. A rig built in Blender turns each bone to point from its
/// head to its child (and ts1-blender-io's import of `adult-skeleton.cmx`
/// turns them so too); written as they are, those turns would twist every
/// body made for the game. The glTF's own meshes and animations come back
/// right on either skeleton, since the way back goes through model space.
///
/// What glTF has no place for takes the released skeletons' values: no
/// property lists, can-translate 1 on the root and 0 elsewhere, can-rotate
/// 1, can-blend 1 where it cannot translate, wiggle 0.
pub fn new_skeleton(
    asset: &Asset,
    name: &str,
    turns: Option<&rig::Skeleton>,
) -> Result<cmx::Skeleton, ImportError> {
    let scene = Scene::of(asset)?;
    let joints = rest::own_skeleton(asset, &scene, Game::Sims)?;
    let game = turns.map(GameRest::of).transpose()?;
    let models: Vec<Affine3A> = joints
        .iter()
        .map(|joint| {
            let turned = game
                .as_ref()
                .and_then(|game| game.find(&joint.name).map(|index| game.model(index)));
            match turned {
                Some(turned) => Affine3A {
                    matrix3: turned.matrix3,
                    translation: joint.model.translation,
                },
                None => joint.model,
            }
        })
        .collect();
    let bones = joints
        .iter()
        .zip(&models)
        .map(|(joint, model)| {
            let parent = joint.parent.and_then(|parent| joints.get(parent));
            let local = match joint.parent.and_then(|parent| models.get(parent)) {
                Some(parent_model) => parent_model.inverse() * *model,
                None => *model,
            };
            let (_, rotation, translation) = local.to_scale_rotation_translation();
            // The stored quaternion acts as its conjugate (0 - x: a zero
            // stays 0, not -0).
            let [x, y, z, w] = rotation.normalize().to_array();
            let can_translate = i32::from(parent.is_none());
            cmx::Bone {
                name: RawString::from(joint.name.as_str()),
                parent: RawString::from(parent.map_or("NULL", |parent| parent.name.as_str())),
                property_lists: Some(Vec::new()),
                translation: translation.to_array(),
                rotation: [0.0 - x, 0.0 - y, 0.0 - z, w],
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

/// [`new_skeleton`], turned as the skeleton of a character file among
/// `originals` (ossuary's export of a Sims character carries its files),
/// or as the glTF turns its joints where it carries none.
pub fn skeleton_of(
    asset: &Asset,
    name: &str,
    originals: &[Original],
) -> Result<cmx::Skeleton, ImportError> {
    let carried = originals.iter().find_map(carried_skeleton);
    new_skeleton(asset, name, carried.as_ref())
}

/// The first skeleton of a carried character file, as rig data.
fn carried_skeleton(original: &Original) -> Option<rig::Skeleton> {
    use formats::rig::Rig;
    let (_, file) = super::sims_original::carried_character(original)?;
    file.skeleton(
        &formats::files::Files::nowhere(),
        rig::RigOptions::default(),
    )?
    .ok()
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
}
