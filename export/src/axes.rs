//! From the file's axes to glTF's (right-handed, y up), and the skeleton as
//! a node hierarchy in them.

use formats::rig::Axes;
use glam::{Affine3A, Mat3, Quat, Vec3};
use gltf::json;
use skinning::axes::{reverses_winding, right_handed_y_up};
use skinning::Skeleton;

/// A scale this close to 1 is the float noise of a rotation stored a little
/// off unit length, not a scale the file means; it is left out.
const SCALE_NOISE: f32 = 1e-5;

/// The change of axes as a matrix `C`: a point `p` of the file is `C * p`
/// in glTF, and a transform `M` of the file is `C * M * C^-1`.
pub struct Change {
    matrix: Affine3A,
    inverse: Affine3A,
    reverses_winding: bool,
}

/// A local transform split as glTF nodes and animation channels take it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trs {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Trs {
    /// Whether the scale is one the file means (see [`SCALE_NOISE`]).
    pub fn has_scale(&self) -> bool {
        !self.scale.abs_diff_eq(Vec3::ONE, SCALE_NOISE)
    }
}

impl Change {
    pub fn new(axes: Axes) -> Change {
        let axis = |unit: Vec3| right_handed_y_up(axes, unit);
        // Each change is a mirror or a turn: orthogonal, its inverse its transpose.
        let matrix = Mat3::from_cols(axis(Vec3::X), axis(Vec3::Y), axis(Vec3::Z));
        Change {
            matrix: Affine3A::from_mat3(matrix),
            inverse: Affine3A::from_mat3(matrix.transpose()),
            reverses_winding: reverses_winding(axes),
        }
    }

    /// A position (or a direction: the change keeps lengths and angles).
    pub fn point(&self, point: Vec3) -> Vec3 {
        self.matrix.transform_vector3(point)
    }

    /// A transform of the file as the same transform in glTF's axes.
    pub fn transform(&self, transform: &Affine3A) -> Affine3A {
        self.matrix * *transform * self.inverse
    }

    /// A local transform in glTF's axes, split into translation, unit
    /// rotation (continuing `previous`'s hemisphere, so that keys
    /// interpolate the short way) and scale.
    pub fn trs(&self, local: &Affine3A, previous: Option<Quat>) -> Trs {
        let (scale, rotation, translation) = self.transform(local).to_scale_rotation_translation();
        let rotation = rotation.normalize();
        let rotation = match previous {
            Some(previous) if previous.dot(rotation) < 0.0 => -rotation,
            _ => rotation,
        };
        Trs {
            translation,
            rotation,
            scale,
        }
    }

    /// A triangle wound so that it faces the same way after the change.
    pub fn triangle(&self, [a, b, c]: [u32; 3]) -> [u32; 3] {
        if self.reverses_winding {
            [a, c, b]
        } else {
            [a, b, c]
        }
    }
}

/// One node per joint, in the skeleton's order (so a joint's index is its
/// node's), named as the file names the joint, with its rest transform and
/// its children.
pub fn joint_nodes(
    root: &mut json::Root,
    skeleton: &Skeleton,
    rest_locals: &[Affine3A],
    change: &Change,
) -> Vec<json::Index<json::Node>> {
    let nodes: Vec<json::Index<json::Node>> = skeleton
        .names()
        .iter()
        .zip(rest_locals)
        .map(|(name, local)| {
            let rest = change.trs(local, None);
            root.push(json::Node {
                name: Some(name.clone()),
                translation: Some(rest.translation.to_array()),
                rotation: Some(json::scene::UnitQuaternion(rest.rotation.to_array())),
                scale: rest.has_scale().then(|| rest.scale.to_array()),
                ..Default::default()
            })
        })
        .collect();
    for (&node, parent) in nodes.iter().zip(skeleton.parents()) {
        let parent_node = parent
            .and_then(|parent| nodes.get(parent as usize))
            .and_then(|parent| root.nodes.get_mut(parent.value()));
        if let Some(parent_node) = parent_node {
            parent_node.children.get_or_insert_with(Vec::new).push(node);
        }
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_handed_files_are_mirrored_in_x_and_rewound() {
        let change = Change::new(Axes::LeftHandedYUp);
        assert_eq!(
            change.point(Vec3::new(1.0, 2.0, 3.0)),
            Vec3::new(-1.0, 2.0, 3.0)
        );
        assert_eq!(change.triangle([0, 1, 2]), [0, 2, 1]);
        // A quarter turn about +y (z -> x) acts on mirrored space as a
        // quarter turn about -y (z -> -x).
        let turn = Affine3A::from_quat(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
        let turned = change.trs(&turn, None).rotation * Vec3::Z;
        assert!(turned.abs_diff_eq(Vec3::NEG_X, 1e-6), "{turned}");
    }

    #[test]
    fn z_up_files_turn_z_to_y_and_keep_winding() {
        let change = Change::new(Axes::RightHandedZUp);
        assert_eq!(
            change.point(Vec3::new(1.0, 2.0, 3.0)),
            Vec3::new(1.0, 3.0, -2.0)
        );
        assert_eq!(change.triangle([0, 1, 2]), [0, 1, 2]);
    }

    #[test]
    fn keys_stay_in_one_hemisphere_and_noise_is_no_scale() {
        let change = Change::new(Axes::RightHandedYUp);
        let local = Affine3A::from_quat(Quat::from_rotation_x(0.5));
        let flipped = change.trs(&local, Some(-Quat::from_rotation_x(0.4)));
        assert!(flipped.rotation.w < 0.0);
        assert!(!flipped.has_scale());
        let doubled = change.trs(&Affine3A::from_scale(Vec3::splat(2.0)), None);
        assert!(doubled.has_scale());
    }
}
