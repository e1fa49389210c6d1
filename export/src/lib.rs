//! glTF 2.0 export: a skeleton, the meshes bound to it and its animations,
//! all as neutral rig data, become one glTF asset (`.gltf` JSON with its
//! buffer embedded as a data URI, or one `.glb` binary file). Nothing here
//! knows a file format, so every family whose rig data the skinning crate
//! poses exports the same way.
//!
//! What the asset holds:
//! - one node per joint, named exactly as the file names it, in the file's
//!   hierarchy, with the rest pose as its translation, rotation (and scale,
//!   where a family's matrices carry one);
//! - one glTF skin over every joint of the skeleton (inverse bind matrices
//!   from the rest pose), written with or without meshes, so that a
//!   skeleton alone imports as an armature;
//! - one skinned mesh per skin (points where it has no triangles), all
//!   sharing that skin, with as many `JOINTS_n`/`WEIGHTS_n` sets as the
//!   most influenced vertex needs;
//! - one glTF animation per joint animation: translation and rotation
//!   channels (scale where a key carries one) for every joint a track
//!   drives, keyed at the animation's own times, whole-transform keys
//!   decomposed;
//! - one glTF animation per vertex animation (every frame's positions of a
//!   mesh, no skeleton involved): each frame a morph target of every mesh
//!   with that many vertices, and a weights channel whose key at each
//!   frame's time shows that frame alone (glTF morphs before it skins, so
//!   the frames show as given while the skeleton is at rest);
//! - a mesh's blend shapes (Star Wars Galaxies' `blend_fat`...) as its
//!   morph targets, after any vertex animation's frames: each the move of
//!   every vertex at rest from weight 0 to weight 1, named in the mesh's
//!   `extras.targetNames` (what Blender's importer and three.js read), its
//!   default weight [`Character::blend_weights`]' (0 unless given);
//! - a material for each mesh: the texture it names, PNG-encoded, when an
//!   image of that name was found ([`find_texture`]; meshes naming one
//!   image share it), else one plain material; for a Star Wars Galaxies
//!   mesh, the material its shader describes ([`shader`]), named by the
//!   shader's path: the main texture coloured as the effect colours it as
//!   base colour, the normal map as normal texture (the specular and
//!   environment maps are left out); each image encoded once per process
//!   ([`encoded`]), a PNG file the validator takes as it is embedded as its
//!   own bytes;
//! - in the scene's `extras`, the game files the character was read from
//!   ([`Character::originals`]), whole, so that the import
//!   ([`import::carried`]) gives back what glTF has no place for.
//!
//! Tangents are not written: a mesh with a normal map leaves them to the
//! viewer, as glTF allows (the Khronos validator's warning
//! `MESH_PRIMITIVE_GENERATED_TANGENT_SPACE`). MikkTSpace, which glTF names
//! for them, gives a tangent per triangle corner, and where the corners of
//! one vertex differ (where texture coordinates are mirrored, the tangents'
//! handedness flips) glTF needs the vertex split in two. The asset keeps one
//! glTF vertex per vertex of the game's file, which the import back into
//! the game's files, the blend shapes and a Star Wars Galaxies mesh's shared
//! positions all count on; the Twi'lek's meshes with normal maps have 99 of
//! their 1,959 vertices where triangles of both texture orientations meet.
//! Tangents without the split would differ from MikkTSpace's there, which is
//! what the warning is about.
//!
//! Axes: glTF is right-handed and y up. Left-handed files (the Sims, The
//! Sims Online, Star Wars Galaxies) are mirrored in x with their triangle
//! winding reversed; z-up files (3ds Max) are turned so that z goes up as y;
//! files whose axes are unknown go as stored. Positions keep the file's
//! units.
//!
//! Bind pose: every vertex sits where ossuary's own deformation puts it at
//! the skeleton's rest pose, so the asset at rest is the character at rest.
//! Weighted skins deform in glTF exactly as in ossuary (weights are scaled
//! to sum to 1, which glTF requires, and positions scaled by the same sum).
//! A vertex stored in its bone's space (the Sims) follows that bone with
//! weight 1; one pulled by blend vertices follows each bone by the share
//! the pulls give it: `(1 - w, w)` for one pull. glTF blends those bones'
//! motions of the vertex's one bind position, where the game blends each
//! bone's motion of its own stored point; the two agree at rest and
//! wherever the stored points coincide at rest, and part where they do not
//! (by `w (1 - w)` times the gap times how differently the two bones turn).
//! A vertex no joint carries follows the skeleton's first joint.

mod animation;
pub mod assembly;
mod axes;
mod buffer;
pub mod character;
pub mod encoded;
pub mod input;
mod mesh;
pub mod objects;
pub mod shader;
pub mod summary;
mod texture;

pub mod import;

use std::path::PathBuf;

use formats::files::FoundFile;
use formats::rig::{self, Motion};
use gltf::json;
use skinning::{ClipError, Composition, JobError, SkeletonError, SkinError};

pub use texture::{find_texture, rgba};

/// A blend shape's weight as people give it, `NAME=WEIGHT` (the command
/// line's `--blend`, the viewer's `blend=`): the weight a finite number,
/// the name everything before the last `=`.
pub fn blend_weight(text: &str) -> Result<(String, f32), String> {
    let (name, weight) = text
        .rsplit_once('=')
        .filter(|(name, _)| !name.is_empty())
        .ok_or_else(|| format!("`{}` is not NAME=WEIGHT, e.g. blend_fat=0.5", quoted(text)))?;
    let weight: f32 = weight
        .trim()
        .parse()
        .ok()
        .filter(|weight: &f32| weight.is_finite())
        .ok_or_else(|| format!("`{}` in `{}` is not a number", quoted(weight), quoted(text)))?;
    Ok((name.to_owned(), weight))
}

/// Text a person gave or a file holds, as a message quotes it: at most 60
/// characters, nothing raw.
fn quoted(text: &str) -> String {
    formats::schema::quoted(text.as_bytes())
}

/// Everything one asset holds.
pub struct Character<'a> {
    pub skeleton: &'a rig::Skeleton,
    pub meshes: Vec<Mesh<'a>>,
    pub animations: &'a [rig::Animation],
    /// Per animation (in the same order), the Sims skill record it came
    /// from, carried in the glTF animation's extras so that the import
    /// gives back the same skill; `None` (or a shorter list) for others.
    pub sims_skills: &'a [Option<formats::sims::cmx::Skill>],
    /// The meshes' morph targets' default weights, by target name (a name
    /// given twice: the last); a target not named has weight 0.
    pub blend_weights: &'a [(String, f32)],
    /// How the joints' transforms compose into model space. glTF nodes
    /// compose as a hierarchy; another composition (Outcast's parent-first
    /// pivots) is written as the hierarchy's locals that give the same model
    /// matrices, at rest and at every key (then every joint is keyed).
    pub composition: Composition,
    /// The files the character was read from, carried in the scene's
    /// extras for what glTF has no place for (see [`import::carried`]).
    pub originals: &'a [import::carried::Original],
}

/// The locals that, composed as glTF composes nodes (`parent * local`),
/// give the model matrices `composition` makes of `pose`.
fn hierarchy_locals(
    skeleton: &skinning::Skeleton,
    pose: &skinning::Pose,
    composition: Composition,
) -> Result<Vec<glam::Affine3A>, JobError> {
    if composition == Composition::Hierarchy {
        return Ok(pose.locals().to_vec());
    }
    let model = pose.model_matrices_by(skeleton, composition)?;
    Ok(model
        .iter()
        .zip(skeleton.parents())
        .map(
            |(joint, parent)| match parent.and_then(|parent| model.get(parent as usize)) {
                Some(parent) => parent.inverse() * *joint,
                None => *joint,
            },
        )
        .collect())
}

/// A skin and the image its texture names, when one was found, or the
/// material its Star Wars Galaxies shader describes.
pub struct Mesh<'a> {
    pub skin: &'a rig::Skin,
    pub texture: Option<FoundFile>,
    /// The material of the shader the skin names; it takes the place of
    /// `texture`.
    pub shader: Option<&'a texture::ShaderMaterial>,
    /// The Sims suit that wears the skin, carried in the mesh node's extras
    /// so that the import groups the skins into the same suits.
    pub suit: Option<import::sims::SuitPlace>,
}

/// Which kind of glTF file to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    /// JSON, with the binary buffer embedded as a base64 data URI.
    Gltf,
    /// One binary file: JSON chunk, then the buffer.
    Glb,
}

/// Why an asset cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Skeleton(#[from] SkeletonError),
    #[error(transparent)]
    Pose(#[from] JobError),
    #[error("the skeleton has {0} joints; glTF vertices address at most 65,536")]
    TooManyJoints(usize),
    /// `index` counts [`Character::meshes`].
    #[error("mesh \"{}\": {problem}", quoted(.name))]
    Mesh {
        index: usize,
        name: String,
        problem: MeshProblem,
    },
    /// `index` counts [`Character::animations`].
    #[error("animation \"{}\": {problem}", quoted(.name))]
    Animation {
        index: usize,
        name: String,
        problem: AnimationProblem,
    },
    #[error("the asset needs {0} bytes, more than a glTF file can hold (4 GiB)")]
    TooLarge(usize),
    #[error("cannot write the glTF JSON: {0}")]
    Json(#[from] json::Error),
    #[error("cannot write the GLB file: {0}")]
    Glb(#[from] gltf::Error),
}

/// What is wrong with one mesh.
#[derive(Debug, thiserror::Error)]
pub enum MeshProblem {
    #[error(transparent)]
    Skin(#[from] SkinError),
    #[error("the skeleton has no joint to carry it")]
    NoJoints,
    #[error(
        "vertex {vertex} would follow joint \"{}\" by {weight}; glTF weights cannot be negative or infinite",
        quoted(.joint)
    )]
    Weight {
        vertex: usize,
        joint: String,
        weight: f32,
    },
    #[error("{}: cannot read the texture: {source}", .path.display())]
    Texture { path: PathBuf, source: TextureError },
    /// glTF allows only finite numbers; the file's own would make an
    /// asset no viewer accepts.
    #[error("vertex {vertex}'s {what} is not a finite number ({value:?})")]
    NotFinite {
        vertex: usize,
        what: &'static str,
        value: Vec<f32>,
    },
}

/// Why a texture's image cannot go into the asset.
#[derive(Debug, thiserror::Error)]
pub enum TextureError {
    #[error(transparent)]
    Decode(#[from] image::ImageError),
    /// A DDS file that image_dds cannot read.
    #[error("cannot read the DDS image: {0}")]
    Dds(String),
    /// Checked before anything is decoded: a small file can claim a huge
    /// image (a PNG of 510 KB holding 535 MB of pixels).
    #[error(
        "the image is {width} x {height} pixels; ossuary decodes images of at most \
         {max} x {max}, well past any texture the games ship",
        max = texture::MAX_SIDE
    )]
    TooLarge { width: u32, height: u32 },
}

/// What is wrong with one animation.
#[derive(Debug, thiserror::Error)]
pub enum AnimationProblem {
    #[error(transparent)]
    Clip(#[from] ClipError),
    #[error(transparent)]
    Pose(#[from] JobError),
    #[error("it has no frames")]
    NoFrames,
    #[error(
        "frame {frame} is at {time} s; glTF needs times from 0 up, each later than the one before"
    )]
    Time { frame: usize, time: f32 },
    #[error("it has {frames} frames but {times} times")]
    FrameCount { frames: usize, times: usize },
    #[error("frame {frame} moves {vertices} vertices, frame 0 {first}")]
    FrameVertices {
        frame: usize,
        vertices: usize,
        first: usize,
    },
    #[error("its frames move {0} vertices, and no mesh has that many")]
    NoMesh(usize),
    #[error("its frames pose nothing on their own: {0} is needed")]
    Incomplete(String),
}

/// The asset as the bytes of a `.gltf` or `.glb` file.
pub fn export(character: &Character, container: Container) -> Result<Vec<u8>, ExportError> {
    let skeleton = skinning::Skeleton::new(character.skeleton)?;
    let joint_count = skeleton.len();
    if joint_count > usize::from(u16::MAX) + 1 {
        return Err(ExportError::TooManyJoints(joint_count));
    }
    let change = axes::Change::new(skeleton.axes());
    let mut asset = buffer::Asset::new();
    if !character.originals.is_empty() {
        asset.carry_in_first_png(import::carried::carrier_chunk(character.originals));
    }
    let rest = skinning::Pose::rest(&skeleton);
    let rest_locals = hierarchy_locals(&skeleton, &rest, character.composition)?;
    let joints = axes::joint_nodes(&mut asset.root, &skeleton, &rest_locals, &change);
    let mut scene_nodes: Vec<json::Index<json::Node>> = skeleton
        .parents()
        .iter()
        .zip(&joints)
        .filter(|(parent, _)| parent.is_none())
        .map(|(_, &node)| node)
        .collect();
    let animation_error = |index: usize, problem: AnimationProblem| ExportError::Animation {
        index,
        name: character
            .animations
            .get(index)
            .map(|animation| animation.name.clone())
            .unwrap_or_default(),
        problem,
    };
    // Vertex animations are checked first: their frames become parts of meshes.
    let mut vertex_animations = Vec::new();
    for (index, animation) in character.animations.iter().enumerate() {
        if let Motion::Vertices(frames) = &animation.motion {
            animation::check_vertex_frames(animation, frames)
                .map_err(|problem| animation_error(index, problem))?;
            vertex_animations.push((index, frames.as_slice()));
        }
    }
    let rest_model = rest.model_matrices_by(&skeleton, character.composition)?;
    let bind = mesh::Bind {
        skeleton: &skeleton,
        rest_model: &rest_model,
        change: &change,
        // A skeleton alone gets its skin too: that is what makes clients
        // (Blender's importer) build an armature rather than loose empties.
        skin: (joint_count > 0)
            .then(|| mesh::shared_skin(&mut asset, &joints, &rest_model, &change)),
    };
    let mut materials = texture::Materials::default();
    // Per animation, the meshes it morphs.
    let mut morphed: Vec<Vec<animation::Morphed>> = vec![Vec::new(); character.animations.len()];
    for (index, source) in character.meshes.iter().enumerate() {
        let fail = |problem: MeshProblem| ExportError::Mesh {
            index,
            name: source.skin.name.clone(),
            problem,
        };
        let material = materials.material(&mut asset, source).map_err(fail)?;
        // A vertex animation moves every mesh with as many vertices as its frames.
        let moving: Vec<(usize, &[Vec<[f32; 3]>])> = vertex_animations
            .iter()
            .copied()
            .filter(|(_, frames)| {
                frames
                    .first()
                    .is_some_and(|frame| frame.len() == source.skin.positions.len())
            })
            .collect();
        let frames: Vec<&[Vec<[f32; 3]>]> = moving.iter().map(|&(_, frames)| frames).collect();
        let node = mesh::skinned_mesh(
            &mut asset,
            &bind,
            source.skin,
            material,
            &frames,
            character.blend_weights,
        )
        .map_err(fail)?;
        if let Some(suit) = &source.suit {
            if let Some(mesh_node) = asset.root.nodes.get_mut(node.value()) {
                mesh_node.extras = import::sims::suit_extras(suit);
            }
        }
        scene_nodes.push(node);
        let targets = frames.iter().map(|frames| frames.len()).sum();
        let mut first = 0;
        for (animation, frames) in moving {
            if let Some(meshes) = morphed.get_mut(animation) {
                meshes.push(animation::Morphed {
                    node,
                    first,
                    targets,
                });
            }
            first += frames.len();
        }
    }
    for ((index, animation), morphed) in character.animations.iter().enumerate().zip(&morphed) {
        let exported = animation::animation(
            &mut asset,
            animation,
            &animation::Target {
                skeleton: &skeleton,
                composition: character.composition,
                change: &change,
                joints: &joints,
                morphed,
            },
        )
        .map_err(|problem| animation_error(index, problem))?;
        let skill = character.sims_skills.get(index).and_then(Option::as_ref);
        asset.root.animations.extend(exported.map(|exported| {
            json::Animation {
                extras: skill
                    .and_then(import::sims::skill_extras)
                    .or(exported.extras),
                ..exported
            }
        }));
    }
    if !scene_nodes.is_empty() {
        // Plain JSON always serializes: `ok` drops nothing.
        let extras = (!character.originals.is_empty())
            .then(|| {
                serde_json::value::to_raw_value(&import::carried::files_extras(character.originals))
                    .ok()
            })
            .flatten();
        let scene = asset.root.push(json::Scene {
            extensions: None,
            extras,
            name: None,
            nodes: scene_nodes,
        });
        asset.root.scene = Some(scene);
    }
    asset.finish(container)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A skin with a name and a texture and nothing else, for the tests
    /// of how meshes find their images.
    pub(crate) fn skin_without_vertices(name: &str, texture: &str) -> rig::Skin {
        rig::Skin {
            name: name.to_owned(),
            texture: Some(texture.to_owned()),
            positions: Vec::new(),
            normals: Vec::new(),
            uvs: Vec::new(),
            triangles: Vec::new(),
            binding: rig::Binding::BoneSpace(rig::BoneSpace {
                bones: Vec::new(),
                ranges: Vec::new(),
                blend_positions: Vec::new(),
                blend_normals: Vec::new(),
                blends: Vec::new(),
            }),
            morph_targets: Vec::new(),
            shared_positions: None,
        }
    }

    #[test]
    fn blend_weights_are_name_equals_number() {
        assert_eq!(
            blend_weight("blend_fat=0.5"),
            Ok(("blend_fat".to_owned(), 0.5))
        );
        assert_eq!(blend_weight("a=b=-1"), Ok(("a=b".to_owned(), -1.0)));
        assert!(blend_weight("=1").is_err());
        assert!(blend_weight("blend_fat").is_err());
        assert_eq!(
            blend_weight("blend_fat=lots"),
            Err("`lots` in `blend_fat=lots` is not a number".to_owned())
        );
        assert!(blend_weight("blend_fat=inf").is_err());
        assert!(blend_weight("blend_fat=NaN").is_err());
    }
}
