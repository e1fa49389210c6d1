//! The way back goes through model space: where the glTF's rest puts each
//! joint and vertex, and where the game's skeleton rests.
//!
//! **The glTF's rest is its nodes' own transforms**, composed up to the
//! scene's root (an armature object's transform, as Blender writes one
//! above its bones, included): it is what every viewer shows when no
//! animation plays, and what animation channels replace. A vertex rests
//! where glTF's skinning puts it with the joints at that rest: its bind
//! position carried by each of its joints' `world x inverse bind matrix`
//! by their weights. Where the inverse bind matrices are the inverse of the
//! joints' rest (Blender's exporter and ossuary's write them so) that is
//! the bind position itself; where they are not (a glTF bound in another
//! pose) the vertex is where the viewer shows it, not where it was bound.
//!
//! Everything here is in the games' left-handed axes: glTF's mirrored in x
//! (`C * M * C` for a matrix, `C` the mirror).

use std::collections::HashMap;

use formats::rig;
use glam::{Affine3A, Mat4, Quat, Vec3};

use super::document::Asset;
use super::ImportError;

/// A scale this close to 1 is float noise, not a scale: Blender writes
/// joints unchanged since their import scaled by up to 1 ± 2e-5.
pub const SCALE_NOISE: f32 = 1e-4;

/// A skinning matrix this close to the identity (each entry, the
/// translation relative to the joint's distance from the origin) is the
/// identity: export and Blender write each inverse bind matrix as the
/// inverse of the joint's rest, within float error.
const IDENTITY_NOISE: f32 = 1e-5;

/// Joints further apart than this share of the figure's height rest in
/// different places.
pub const ELSEWHERE: f32 = 1e-3;

/// The mirror in x between glTF's axes and the games'.
fn mirror() -> Affine3A {
    Affine3A::from_scale(Vec3::new(-1.0, 1.0, 1.0))
}

/// A transform in glTF's axes as the same transform in the games'.
pub fn mirrored(transform: &Affine3A) -> Affine3A {
    mirror() * *transform * mirror()
}

/// Which game a joint is being brought into, for what its messages say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    Sims,
    Swg,
}

impl Game {
    /// What the game's joints cannot hold: "a Sims bone has no scale".
    pub fn no_scale(self) -> &'static str {
        match self {
            Game::Sims => "a Sims bone has no scale",
            Game::Swg => "a Star Wars Galaxies joint has no scale",
        }
    }
}

/// The asset's nodes at rest: each node's parent, its own transform and
/// its world transform (every ancestor's applied), in the games' axes.
pub struct Scene {
    pub parents: Vec<Option<usize>>,
    pub locals: Vec<Affine3A>,
    pub worlds: Vec<Affine3A>,
    /// Each node's name (empty without one).
    pub names: Vec<String>,
    /// What the scene's root stands in: the identity, or the similarity
    /// that brings a rig in another tool's units and axes onto the game's
    /// skeleton (see [`Scene::bring`]).
    pub root: Affine3A,
}

impl Scene {
    /// The nodes of `asset`; a transform that is not finite, or a node
    /// among its own ancestors, is an error naming the node.
    pub fn of(asset: &Asset) -> Result<Scene, ImportError> {
        let document = &asset.document;
        let count = document.nodes().len();
        let mut parents = vec![None; count];
        for node in document.nodes() {
            for child in node.children() {
                if let Some(slot) = parents.get_mut(child.index()) {
                    *slot = Some(node.index());
                }
            }
        }
        let names: Vec<String> = document
            .nodes()
            .map(|node| node.name().unwrap_or_default().to_owned())
            .collect();
        let locals = document
            .nodes()
            .map(|node| {
                let local = local_of(&node);
                if local.is_finite() {
                    Ok(mirrored(&local))
                } else {
                    Err(ImportError::Node {
                        node: node_label(&node),
                        problem: "its transform is not finite".to_owned(),
                    })
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        // Each node's world once: up its ancestors to the first one known,
        // then down again; a chain longer than the nodes is a cycle.
        let mut known: Vec<Option<Affine3A>> = vec![None; count];
        let mut chain = Vec::new();
        for start in 0..count {
            let mut at = Some(start);
            while let Some(node) = at {
                if known.get(node).copied().flatten().is_some() {
                    break;
                }
                if chain.len() >= count {
                    return Err(ImportError::Node {
                        node: names.get(start).cloned().unwrap_or_default(),
                        problem: "it is among its own ancestors".to_owned(),
                    });
                }
                chain.push(node);
                at = parents.get(node).copied().flatten();
            }
            let mut world = at
                .and_then(|node| known.get(node).copied().flatten())
                .unwrap_or(Affine3A::IDENTITY);
            while let Some(node) = chain.pop() {
                world *= locals.get(node).copied().unwrap_or_default();
                if let Some(slot) = known.get_mut(node) {
                    *slot = Some(world);
                }
            }
        }
        Ok(Scene {
            parents,
            locals,
            worlds: known.into_iter().map(Option::unwrap_or_default).collect(),
            names,
            root: Affine3A::IDENTITY,
        })
    }

    /// Every node carried by `into` (the scene's root set in it): the
    /// glTF's model space taken into another.
    pub fn bring(&mut self, into: Affine3A) {
        for world in &mut self.worlds {
            *world = into * *world;
        }
        self.root = into * self.root;
    }

    pub fn world(&self, node: usize) -> Affine3A {
        self.worlds.get(node).copied().unwrap_or_default()
    }

    pub fn local(&self, node: usize) -> Affine3A {
        self.locals.get(node).copied().unwrap_or_default()
    }

    pub fn parent(&self, node: usize) -> Option<usize> {
        self.parents.get(node).copied().flatten()
    }
}

impl Scene {
    /// For each node, its nearest ancestor (not itself) that is among
    /// `members`; each node's answer found once, so that a long chain
    /// above many members is walked once.
    pub fn nearest_ancestors(&self, members: &[bool]) -> Vec<Option<usize>> {
        let count = self.parents.len();
        let mut answers: Vec<Option<Option<usize>>> = vec![None; count];
        let mut chain = Vec::new();
        for start in 0..count {
            let mut at = start;
            // Up to a node whose answer is known, or whose parent is a
            // member, or a root; the worlds' walk refused cycles already.
            let answer = loop {
                if let Some(known) = answers.get(at).copied().flatten() {
                    break known;
                }
                chain.push(at);
                match self.parent(at) {
                    Some(parent) if members.get(parent).copied().unwrap_or(false) => {
                        break Some(parent)
                    }
                    Some(parent) if chain.len() <= count => at = parent,
                    _ => break None,
                }
            };
            for node in chain.drain(..) {
                if let Some(slot) = answers.get_mut(node) {
                    *slot = Some(answer);
                }
            }
        }
        answers.into_iter().map(Option::flatten).collect()
    }

    /// A joint node's frame at rest in model space, checked: its own scale
    /// is none (within [`SCALE_NOISE`]), as `game`'s joints have none, and
    /// its ancestors' scale (an armature object's) is the same along every
    /// axis, which the frame leaves out (the joint's place keeps it).
    pub fn joint_frame(
        &self,
        node: usize,
        name: &str,
        game: Game,
    ) -> Result<Affine3A, ImportError> {
        let (scale, _, _) = self.local(node).to_scale_rotation_translation();
        if (scale - Vec3::ONE).abs().max_element() > SCALE_NOISE {
            return Err(ImportError::Scaled {
                joint: name.to_owned(),
                scale: scale.to_array(),
                game: game.no_scale(),
            });
        }
        let (frame, _) = frame(&self.world(node)).ok_or_else(|| ImportError::Node {
            node: name.to_owned(),
            problem: "its transform at rest, with its ancestors' (an armature object's), \
                      scales it unevenly or shears it, which no joint can hold: apply the \
                      armature's scale (in Blender, Object > Apply > Scale) first"
                .to_owned(),
        })?;
        Ok(frame)
    }
}

/// A joint of the glTF's own skeleton at rest.
pub struct RestJoint {
    pub name: String,
    pub node: usize,
    /// Index of the parent joint (before this one).
    pub parent: Option<usize>,
    /// Its frame in model space: place and turn, in the games' axes.
    pub model: Affine3A,
}

impl RestJoint {
    /// Its frame relative to its parent's (to the model for a root: an
    /// armature object's transform is then in it).
    pub fn local(&self, joints: &[RestJoint]) -> Affine3A {
        match self.parent.and_then(|parent| joints.get(parent)) {
            Some(parent) => parent.model.inverse() * self.model,
            None => self.model,
        }
    }
}

/// The joints of the asset's first skin at rest, each under its nearest
/// ancestor that is a joint, parents first; a joint named twice, scaled
/// (see [`Scene::joint_frame`]) or listed before its parent is an error
/// naming it.
pub fn own_skeleton(
    asset: &Asset,
    scene: &Scene,
    game: Game,
) -> Result<Vec<RestJoint>, ImportError> {
    let skin = asset.document.skins().next().ok_or(ImportError::NoSkin)?;
    let nodes: Vec<usize> = skin.joints().map(|joint| joint.index()).collect();
    let mut members = vec![false; scene.parents.len()];
    // Per node: its place in the skin's joint list.
    let mut position_of: HashMap<usize, usize> = HashMap::with_capacity(nodes.len());
    for (position, &node) in nodes.iter().enumerate() {
        if let Some(slot) = members.get_mut(node) {
            *slot = true;
        }
        position_of.entry(node).or_insert(position);
    }
    let nearest = scene.nearest_ancestors(&members);
    let mut names: HashMap<String, usize> = HashMap::with_capacity(nodes.len());
    let mut joints: Vec<RestJoint> = Vec::with_capacity(nodes.len());
    for (position, &node) in nodes.iter().enumerate() {
        let name = scene.names.get(node).cloned().unwrap_or_default();
        if names.insert(name.clone(), position).is_some() {
            return Err(ImportError::JointTwice(name));
        }
        let parent = nearest
            .get(node)
            .copied()
            .flatten()
            .and_then(|ancestor| position_of.get(&ancestor).copied());
        if parent.is_some_and(|parent| parent >= position) {
            return Err(ImportError::ParentAfter(name));
        }
        let model = scene.joint_frame(node, &name, game)?;
        joints.push(RestJoint {
            name,
            node,
            parent,
            model,
        });
    }
    Ok(joints)
}

/// A node's own transform, in glTF's axes.
fn local_of(node: &gltf::Node) -> Affine3A {
    match node.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            Affine3A::from_mat4(Mat4::from_cols_array_2d(&matrix))
        }
        gltf::scene::Transform::Decomposed {
            translation,
            rotation,
            scale,
        } => Affine3A::from_scale_rotation_translation(
            Vec3::from_array(scale),
            Quat::from_array(rotation).normalize(),
            Vec3::from_array(translation),
        ),
    }
}

/// A node's name, or its index where it has none.
fn node_label(node: &gltf::Node) -> String {
    node.name()
        .map_or_else(|| format!("node {}", node.index()), str::to_owned)
}

/// Text from the asset as a message quotes it: at most 60 characters,
/// nothing raw, in double quotes.
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", formats::schema::quoted(text.as_bytes()))
}

/// A transform's place and turn, its scale taken out: a joint's frame.
/// `None` when the scale is not the same along every axis (beyond
/// [`SCALE_NOISE`]), which no joint's frame can hold.
pub fn frame(transform: &Affine3A) -> Option<(Affine3A, f32)> {
    let (scale, rotation, translation) = transform.to_scale_rotation_translation();
    let uniform = scale.x;
    let even = (scale - Vec3::splat(uniform)).abs().max_element() <= SCALE_NOISE * uniform.abs();
    // A shear (a scale under a turn) leaves the columns not at right angles.
    let columns = [
        transform.matrix3.x_axis,
        transform.matrix3.y_axis,
        transform.matrix3.z_axis,
    ];
    let square = uniform * uniform;
    let right_angles = columns[0].dot(columns[1]).abs() <= SCALE_NOISE * square
        && columns[1].dot(columns[2]).abs() <= SCALE_NOISE * square
        && columns[0].dot(columns[2]).abs() <= SCALE_NOISE * square;
    (even && right_angles && uniform > 0.0 && rotation.is_finite()).then(|| {
        (
            Affine3A::from_rotation_translation(rotation.normalize(), translation),
            uniform,
        )
    })
}

/// The matrix that carries a vertex bound to a joint to where it rests:
/// the joint's rest world times its inverse bind matrix, the identity
/// where it is that within float error.
pub fn skinning(world: &Affine3A, inverse_bind: &Affine3A) -> Affine3A {
    let matrix = *world * *inverse_bind;
    let reach = 1.0 + world.translation.length();
    let close = (matrix.matrix3.x_axis - glam::Vec3A::X).abs().max_element() <= IDENTITY_NOISE
        && (matrix.matrix3.y_axis - glam::Vec3A::Y).abs().max_element() <= IDENTITY_NOISE
        && (matrix.matrix3.z_axis - glam::Vec3A::Z).abs().max_element() <= IDENTITY_NOISE
        && matrix.translation.abs().max_element() <= IDENTITY_NOISE * reach;
    if close {
        Affine3A::IDENTITY
    } else {
        matrix
    }
}

/// A vertex's position and normal at rest: its bind position and normal
/// carried by its joints' skinning matrices, by their weights; and the
/// blended matrices' linear part, which carries a move (a morph target's).
pub fn at_rest(
    skinning: &[Affine3A],
    influences: &[(usize, f32)],
    position: Vec3,
    normal: Vec3,
) -> (Vec3, Vec3, glam::Mat3A) {
    let matrix = |joint: usize| skinning.get(joint).copied().unwrap_or_default();
    if influences
        .iter()
        .all(|&(joint, _)| matrix(joint) == Affine3A::IDENTITY)
    {
        return (position, normal, glam::Mat3A::IDENTITY);
    }
    let total: f32 = influences.iter().map(|&(_, weight)| weight).sum();
    let mut blended = Affine3A::ZERO;
    for &(joint, weight) in influences {
        let share = if total > 0.0 { weight / total } else { 0.0 };
        let joint = matrix(joint);
        blended.matrix3 += joint.matrix3 * share;
        blended.translation += joint.translation * share;
    }
    (
        blended.transform_point3(position),
        blended
            .transform_vector3(normal)
            .try_normalize()
            .unwrap_or(normal),
        blended.matrix3,
    )
}

/// A skin's inverse bind matrices in the games' axes, one per joint
/// (the identity for each without them, as glTF says).
pub fn inverse_binds(
    asset: &Asset,
    skin: &gltf::Skin,
    joints: usize,
) -> Result<Vec<Affine3A>, ImportError> {
    let Some(accessor) = skin.inverse_bind_matrices() else {
        return Ok(vec![Affine3A::IDENTITY; joints]);
    };
    let matrices = asset.floats::<16>(&accessor)?;
    if let Some(joint) = matrices
        .iter()
        .position(|matrix| !matrix.iter().all(|x| x.is_finite()))
    {
        return Err(ImportError::Accessor {
            index: accessor.index(),
            problem: format!(
                "the inverse bind matrix of joint {joint} holds a number that is not finite"
            ),
        });
    }
    if matrices.len() != joints {
        return Err(ImportError::Accessor {
            index: accessor.index(),
            problem: format!(
                "{} inverse bind matrices for {joints} joints",
                matrices.len()
            ),
        });
    }
    Ok(matrices
        .iter()
        .map(|matrix| mirrored(&Affine3A::from_mat4(Mat4::from_cols_array(matrix))))
        .collect())
}

/// The game's skeleton at rest: each joint's name, parent and model
/// matrix, found by name.
pub struct GameRest {
    pub names: Vec<String>,
    pub parents: Vec<Option<usize>>,
    pub model: Vec<Affine3A>,
    /// Joints, parents first.
    pub order: Vec<usize>,
    by_name: HashMap<String, usize>,
    /// The span of its joints along y (the figure's height), or along the
    /// axis it spans most when it stands on none.
    pub height: f32,
}

impl GameRest {
    pub fn of(skeleton: &rig::Skeleton) -> Result<GameRest, ImportError> {
        let posed = skinning::Skeleton::new(skeleton)
            .map_err(|error| ImportError::Gltf(format!("the skeleton: {error}")))?;
        let model = skinning::Pose::rest(&posed)
            .model_matrices(&posed)
            .map_err(|error| ImportError::Gltf(format!("the skeleton: {error}")))?;
        let mut by_name = HashMap::with_capacity(skeleton.joints.len());
        for (index, joint) in skeleton.joints.iter().enumerate() {
            by_name.entry(joint.name.clone()).or_insert(index);
        }
        let height = height(model.iter().map(|joint| Vec3::from(joint.translation)));
        Ok(GameRest {
            names: posed.names().to_vec(),
            parents: skeleton.joints.iter().map(|joint| joint.parent).collect(),
            model,
            order: posed
                .evaluation_order()
                .iter()
                .map(|&joint| joint as usize)
                .collect(),
            by_name,
            height,
        })
    }

    /// The joint named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    pub fn model(&self, joint: usize) -> Affine3A {
        self.model.get(joint).copied().unwrap_or_default()
    }
}

/// The span of `points` along y, or along the axis they span most when
/// that is none (a figure lying down, a single joint: 1).
pub fn height(points: impl Iterator<Item = Vec3>) -> f32 {
    let (low, high) = points.fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(low, high), point| (low.min(point), high.max(point)),
    );
    let span = (high - low).max(Vec3::ZERO);
    if span.y > 0.0 {
        span.y
    } else if span.max_element() > 0.0 {
        span.max_element()
    } else {
        1.0
    }
}

/// Joints of the glTF that do not rest where the game's skeleton has them,
/// said once: the first few by name, the distance of the furthest.
#[derive(Debug, Default)]
pub struct Elsewhere {
    joints: Vec<(String, f32)>,
}

impl Elsewhere {
    /// Notes that the joint `name` rests `distance` from the game's, when
    /// that is past [`ELSEWHERE`] of `height`; each joint once.
    pub fn note(&mut self, name: &str, distance: f32, height: f32) {
        if distance > ELSEWHERE * height && !self.joints.iter().any(|(known, _)| known == name) {
            self.joints.push((name.to_owned(), distance));
        }
    }

    /// One sentence, when any joint rests elsewhere: `what_moves` says what
    /// the difference does.
    pub fn warning(&self, what_moves: &str) -> Option<String> {
        const SHOWN: usize = 4;
        let furthest = self
            .joints
            .iter()
            .map(|&(_, distance)| distance)
            .fold(0.0f32, f32::max);
        let mut names: Vec<String> = self
            .joints
            .iter()
            .take(SHOWN)
            .map(|(name, _)| quoted(name))
            .collect();
        if self.joints.len() > SHOWN {
            names.push(format!("and {} more", self.joints.len() - SHOWN));
        }
        (!self.joints.is_empty()).then(|| {
            format!(
                "{} of its joints ({}) do not rest where the skeleton has them (up to {furthest} \
                 apart); {what_moves}",
                self.joints.len(),
                names.join(", ")
            )
        })
    }
}
