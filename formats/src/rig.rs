//! Neutral rig data: what a decoded file holds for posing, in plain types
//! (no math library). Each format module builds these from its own layout
//! and applies its family's conventions there (which way a stored
//! quaternion turns, in which order rotations compose, how the axes lie),
//! so whatever consumes them (posing, skinning, drawing, export) knows no
//! file format.
//!
//! All transforms use column-vector math: a point `p` in a joint's space is
//! `local * p` in its parent's space.

use std::path::PathBuf;

use crate::files::{Files, FindError};

/// How a file's axes lie. Positions and rotations stay in the file's own
/// axes everywhere; only drawing and export turn them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axes {
    /// y up, left-handed (DirectX style): the Sims, The Sims Online, Star
    /// Wars Galaxies. Mirrored in x to become right-handed.
    LeftHandedYUp,
    /// z up, right-handed (3ds Max). Turned to y up by `(x, y, z) -> (x, z, -y)`.
    RightHandedZUp,
    /// Right-handed and y up, or not documented and taken as stored.
    RightHandedYUp,
}

/// A joint's transform relative to its parent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Transform {
    /// `T(translation) * R(rotation)`: a unit quaternion `[x, y, z, w]`
    /// acting on column vectors, then a translation.
    TranslationRotation {
        translation: [f32; 3],
        rotation: [f32; 4],
    },
    /// An affine matrix, for families that store matrices: four columns of
    /// four rows each (the last row `0, 0, 0, 1`).
    Matrix([[f32; 4]; 4]),
}

impl Transform {
    pub const IDENTITY: Transform = Transform::TranslationRotation {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
}

/// A skeleton: joints in the file's order, each with its parent and its
/// rest transform. Parents may come after their children; cycles and
/// parents out of range are for the consumer to refuse.
#[derive(Debug, Clone, PartialEq)]
pub struct Skeleton {
    pub joints: Vec<Joint>,
    pub axes: Axes,
}

impl Skeleton {
    /// Appends `other`'s joints after this skeleton's, its roots becoming
    /// children of joint `under` (or staying roots): how a skeleton made of
    /// several files is put together. Both must lie in the same axes.
    pub fn attach(&mut self, other: Skeleton, under: Option<usize>) -> Result<(), RigError> {
        if other.axes != self.axes {
            return Err(RigError::Invalid(format!(
                "a skeleton in axes {:?} cannot be attached to one in axes {:?}",
                other.axes, self.axes
            )));
        }
        if let Some(under) = under.filter(|&under| under >= self.joints.len()) {
            return Err(RigError::Invalid(format!(
                "joint {under} to attach under is not among the skeleton's {} joints",
                self.joints.len()
            )));
        }
        let offset = self.joints.len();
        self.joints
            .extend(other.joints.into_iter().map(|joint| Joint {
                parent: joint.parent.map(|parent| parent + offset).or(under),
                ..joint
            }));
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub name: String,
    /// Index of the parent in [`Skeleton::joints`]; `None` for a root.
    pub parent: Option<usize>,
    /// Rest pose relative to the parent.
    pub rest: Transform,
}

/// A triangle mesh bound to the joints of a skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Skin {
    /// The mesh's name, e.g. `xskin-b001fafat_01-PELVIS-BODY`.
    pub name: String,
    /// The texture the mesh names, if any (a name as the file gives it).
    pub texture: Option<String>,
    /// One per vertex, in the file's order.
    pub positions: Vec<[f32; 3]>,
    /// One per vertex, or none.
    pub normals: Vec<[f32; 3]>,
    /// One per vertex, or none.
    pub uvs: Vec<[f32; 2]>,
    /// Vertex indices, wound as the file winds them.
    pub triangles: Vec<[u32; 3]>,
    /// How the vertices follow the joints.
    pub binding: Binding,
    /// Blend shapes, applied by name with weights the user gives (0 unless
    /// given) to the stored vertices before the joints move them.
    pub morph_targets: Vec<MorphTarget>,
    /// When the file lists positions apart from its vertices and several
    /// skins share that list: which entry each vertex stands at.
    pub shared_positions: Option<SharedPositions>,
}

/// A blend shape: offsets to add, scaled by the target's weight `w`, to the
/// stored positions and normals of some vertices, before skinning:
/// `position += w * offset`; normals likewise, then every normal of the
/// skin is renormalized (whenever some weight is not 0).
#[derive(Debug, Clone, PartialEq)]
pub struct MorphTarget {
    /// The name the weight is given by, e.g. `blend_fat`.
    pub name: String,
    pub positions: Vec<MorphOffset>,
    pub normals: Vec<MorphOffset>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MorphOffset {
    /// Index into the skin's vertices.
    pub vertex: u32,
    /// The change at weight 1.
    pub offset: [f32; 3],
}

/// A position list that a file keeps apart from its vertices, each vertex
/// naming its entry, and that several skins share (Star Wars Galaxies: one
/// list per mesh, indexed by each shader group). Writers that index
/// positions apart from the other attributes (OBJ) keep the file's list.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedPositions {
    /// Names the list: skins giving the same name share it (the file's path
    /// as the document names it).
    pub list: String,
    /// How many entries the list has.
    pub count: u32,
    /// Per vertex of the skin, its entry.
    pub entries: Vec<u32>,
}

/// How a skin's vertices follow the skeleton.
#[derive(Debug, Clone, PartialEq)]
pub enum Binding {
    /// Vertices are stored where the skeleton's rest pose puts them (model
    /// space); each moves with a weighted sum of its joints' motions:
    /// `v' = sum of w * model(f) * inverse(model(rest)) * v`.
    Weighted(Weights),
    /// The Sims' scheme: each vertex is stored in the space of the one bone
    /// that carries it, and blend vertices pull some of them toward a second
    /// bone.
    BoneSpace(BoneSpace),
}

/// Per-vertex joint weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// The joints the influences refer to, by index, found in the skeleton by name.
    pub joints: Vec<String>,
    /// How many entries of `influences` belong to each vertex, in vertex order.
    pub counts: Vec<u32>,
    /// Every vertex's influences, one vertex after another.
    pub influences: Vec<Influence>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Influence {
    /// Index into [`Weights::joints`].
    pub joint: u32,
    pub weight: f32,
}

/// Vertices stored in their bone's space (no inverse bind matrix).
#[derive(Debug, Clone, PartialEq)]
pub struct BoneSpace {
    /// The bones the ranges refer to, by index, found in the skeleton by name.
    pub bones: Vec<String>,
    /// Which bone carries which vertices and which blend vertices.
    pub ranges: Vec<BoneRange>,
    /// Blend vertices, each stored in the space of the bone whose range holds it.
    pub blend_positions: Vec<[f32; 3]>,
    /// One per blend vertex, or none.
    pub blend_normals: Vec<[f32; 3]>,
    /// One per blend vertex: the vertex it pulls and how far.
    pub blends: Vec<Blend>,
}

/// `vertices` (indices into the skin's vertices) and `blends` (indices into
/// the blend vertices) carried by one bone.
#[derive(Debug, Clone, PartialEq)]
pub struct BoneRange {
    /// Index into [`BoneSpace::bones`].
    pub bone: u32,
    pub vertices: std::ops::Range<u32>,
    pub blends: std::ops::Range<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Blend {
    /// The skin vertex this blend vertex pulls.
    pub vertex: u32,
    /// How far, from 0 (not at all) to 1 (onto the blend vertex):
    /// `final = (1 - weight) * vertex + weight * blend vertex`, both posed.
    pub weight: f32,
}

/// An animation: a pose per frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    pub name: String,
    /// Each frame's time in seconds from the start of the animation.
    pub times: Vec<f32>,
    pub motion: Motion,
    /// How long the file says the animation lasts, where it says so: a
    /// time after the last frame's (a Sims skill of 18 frames over 600 ms
    /// has its last frame at 567 ms).
    pub end: Option<End>,
    /// What the animation makes happen besides moving joints (The Sims
    /// Online's `dress`, `undress`, sounds, footsteps), in file order.
    pub events: Vec<Event>,
}

/// Something an animation makes happen at a time: key/value pairs, as
/// the file gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The joint whose motion holds it.
    pub joint: String,
    /// When, as the file stores it: its unit is the format's (The Sims
    /// Online's are not known; FreeSO's broom flight of 7.6 s dresses the
    /// broom at 1 and undresses it at 8756), so it is passed on, not turned
    /// into seconds.
    pub time: u32,
    /// The pairs, in file order (`dress` = `fso-broom-handr`).
    pub properties: Vec<(String, String)>,
}

/// What happens from an animation's last frame to its stated end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum End {
    /// It plays in a loop: at `seconds` it is back at its first pose, so a
    /// player wrapping there moves on smoothly.
    Loops { seconds: f32 },
    /// It plays once: its last pose holds until `seconds`.
    Holds { seconds: f32 },
}

impl End {
    pub fn seconds(self) -> f32 {
        match self {
            End::Loops { seconds } | End::Holds { seconds } => seconds,
        }
    }
}

/// What an animation moves.
#[derive(Debug, Clone, PartialEq)]
pub enum Motion {
    /// Joints of a skeleton.
    Joints(JointMotion),
    /// Every frame's vertex positions of one mesh, in its vertex order: no
    /// skeleton is involved.
    Vertices(Vec<Vec<[f32; 3]>>),
    /// Frames that pose nothing on their own (vertices given in the space of
    /// the bones carrying them, which become positions only with those
    /// bones' transforms at the same frames): they can be shown, not posed.
    /// `needs` says in the format's words what must come with them, e.g.
    /// "a `Bones` animation of the same frames".
    Incomplete { needs: String },
}

/// Per-joint tracks; a joint no track names keeps its rest pose.
#[derive(Debug, Clone, PartialEq)]
pub struct JointMotion {
    pub tracks: Vec<Track>,
    /// When the file records the hierarchy it was made for: the depth of the
    /// joint each track drives (in track order), up to a constant offset.
    /// Such tracks bind to joints by position, and only to a skeleton whose
    /// joint depths have the same pattern.
    pub depth_pattern: Option<Vec<i64>>,
}

/// One joint's keys, one per frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Track {
    pub joint: TrackTarget,
    pub keys: Keys,
}

/// Which joint a track drives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrackTarget {
    Name(String),
    /// Position in the skeleton's joint list.
    Index(usize),
}

/// A track's keys, one per frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Keys {
    /// Parts of the local transform; an empty list keeps that part of the
    /// rest transform (which must then be a [`Transform::TranslationRotation`]).
    Parts {
        translations: Vec<[f32; 3]>,
        /// Unit quaternions `[x, y, z, w]` acting on column vectors.
        rotations: Vec<[f32; 4]>,
    },
    /// Whole local transforms.
    Transforms(Vec<Transform>),
    /// Whole transforms in model space: where the joint is in the whole
    /// model at each frame, its parents' motion included. Posing turns each
    /// into the local transform that puts the joint there under its
    /// parent's posed transform.
    ModelTransforms(Vec<Transform>),
}

/// Choices a person makes about what to read from a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RigOptions {
    /// Level of detail: 0 is the most detailed.
    pub lod: usize,
}

impl RigOptions {
    /// Level `lod` of a file's levels of detail (0 the most detailed), or
    /// an error saying how many there are.
    pub fn level<T>(self, levels: &[T]) -> Result<&T, RigError> {
        levels.get(self.lod).ok_or_else(|| {
            RigError::Invalid(format!(
                "there is no level of detail {} (the file has {}, from 0)",
                self.lod,
                levels.len()
            ))
        })
    }

    /// For a file with one level of detail: level 0, or that error.
    pub fn single_level(self) -> Result<(), RigError> {
        self.level(&[()]).map(|_| ())
    }
}

/// Why a file's rig data cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum RigError {
    /// A file the document refers to is missing or unreadable.
    #[error(transparent)]
    File(#[from] FindError),
    /// A file the document refers to does not decode.
    #[error("{}: {source}", .path.display())]
    Referenced {
        path: PathBuf,
        source: Box<crate::schema::Error>,
    },
    /// The values do not make a rig (a parent that is no joint, a range past
    /// the vertices...): one sentence naming the field.
    #[error("{0}")]
    Invalid(String),
}

/// What a format's decoded value offers for posing. Every method has a
/// default meaning "the file holds none"; a format implements those that
/// apply, and the command line, the renderer and the exporters then accept
/// it without knowing it.
pub trait Rig {
    /// The skeleton the file describes.
    fn skeleton(&self, _files: &Files, _options: RigOptions) -> Option<Result<Skeleton, RigError>> {
        None
    }

    /// The meshes the file describes or names.
    fn skins(&self, _files: &Files, _options: RigOptions) -> Option<Result<Vec<Skin>, RigError>> {
        None
    }

    /// The same meshes part by part, each file the document names read on
    /// its own (an appearance's mesh lists, a TSO appearance's bindings), so
    /// that a part whose file is missing leaves the others to be drawn. By
    /// default the meshes come as one part, under an empty name.
    fn skin_parts(&self, files: &Files, options: RigOptions) -> Option<Vec<SkinPart>> {
        self.skins(files, options).map(|skins| {
            vec![SkinPart {
                name: String::new(),
                skins,
            }]
        })
    }

    /// The animations the file describes or names.
    fn animations(&self, _files: &Files) -> Option<Result<Vec<Animation>, RigError>> {
        None
    }

    /// The same animations one by one, each named and read on its own, so
    /// that one whose data cannot be had (a Sims skill's missing keys)
    /// leaves the others to be had. By default the file's animations come
    /// as one result: a failure is the file's, under an empty name.
    fn named_animations(&self, files: &Files) -> Option<Vec<NamedAnimation>> {
        Some(match self.animations(files)? {
            Ok(animations) => animations
                .into_iter()
                .map(|animation| NamedAnimation {
                    name: animation.name.clone(),
                    animation: Ok(animation),
                })
                .collect(),
            Err(error) => vec![NamedAnimation {
                name: String::new(),
                animation: Err(error),
            }],
        })
    }
}

/// One part of a file's meshes (a file it names), as it could be read.
#[derive(Debug)]
pub struct SkinPart {
    /// The reference as the document gives it (`appearance/mesh/x.lmg`).
    pub name: String,
    pub skins: Result<Vec<Skin>, RigError>,
}

/// One of a file's animations, by name, as it could be read.
#[derive(Debug)]
pub struct NamedAnimation {
    pub name: String,
    pub animation: Result<Animation, RigError>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(names: &[&str], axes: Axes) -> Skeleton {
        Skeleton {
            joints: names
                .iter()
                .enumerate()
                .map(|(index, name)| Joint {
                    name: (*name).to_owned(),
                    parent: index.checked_sub(1),
                    rest: Transform::IDENTITY,
                })
                .collect(),
            axes,
        }
    }

    fn parents(skeleton: &Skeleton) -> Vec<Option<usize>> {
        skeleton.joints.iter().map(|joint| joint.parent).collect()
    }

    #[test]
    fn an_attached_skeleton_hangs_under_the_joint_named() {
        let mut body = chain(&["root", "spine", "head"], Axes::LeftHandedYUp);
        let face = chain(&["face_root", "jaw"], Axes::LeftHandedYUp);
        body.attach(face.clone(), Some(2)).unwrap();
        assert_eq!(
            parents(&body),
            vec![None, Some(0), Some(1), Some(2), Some(3)]
        );
        body.attach(face, None).unwrap();
        assert_eq!(parents(&body).get(5..), Some(&[None, Some(5)][..]));
    }

    #[test]
    fn attaching_needs_the_same_axes_and_a_joint_that_exists() {
        let mut body = chain(&["root"], Axes::LeftHandedYUp);
        let other = chain(&["x"], Axes::RightHandedZUp);
        assert!(body.attach(other, None).is_err());
        let face = chain(&["face_root"], Axes::LeftHandedYUp);
        let error = body.attach(face, Some(1)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "joint 1 to attach under is not among the skeleton's 1 joints"
        );
        assert_eq!(body.joints.len(), 1);
    }

    #[test]
    fn a_level_of_detail_past_the_file_s_is_an_error_counting_them() {
        let levels = ["fine", "coarse"];
        assert_eq!(RigOptions { lod: 1 }.level(&levels).unwrap(), &"coarse");
        assert_eq!(
            RigOptions { lod: 2 }
                .level(&levels)
                .unwrap_err()
                .to_string(),
            "there is no level of detail 2 (the file has 2, from 0)"
        );
        assert!(RigOptions::default().single_level().is_ok());
        assert_eq!(
            RigOptions { lod: 1 }
                .single_level()
                .unwrap_err()
                .to_string(),
            "there is no level of detail 1 (the file has 1, from 0)"
        );
    }
}
