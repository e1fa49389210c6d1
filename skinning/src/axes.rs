//! From a file's own axes to right-handed, y-up ones, for drawing and
//! export: left-handed files (the Sims, SWG) are mirrored in x, z-up files
//! (3ds Max) turned so that z goes up as y. All rotations here are
//! column-vector quaternions, the kind the posing jobs produce.
//!
//! Mirroring also reverses triangle winding: an exporter must swap two
//! indices of each face ([`reverses_winding`]).

use formats::rig::Axes;
use glam::{Quat, Vec3};

/// A position in right-handed, y-up axes.
pub fn right_handed_y_up(axes: Axes, position: Vec3) -> Vec3 {
    match axes {
        Axes::LeftHandedYUp => mirror_position(position),
        Axes::RightHandedZUp => Vec3::new(position.x, position.z, -position.y),
        Axes::RightHandedYUp => position,
    }
}

/// A rotation acting in the file's axes, as it acts in right-handed, y-up ones.
pub fn right_handed_y_up_rotation(axes: Axes, rotation: Quat) -> Quat {
    match axes {
        Axes::LeftHandedYUp => mirror_rotation(rotation),
        // (x, y, z) -> (x, z, -y) is a quarter turn about -x: C * R * C^-1.
        Axes::RightHandedZUp => {
            let turn = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
            turn * rotation * turn.conjugate()
        }
        Axes::RightHandedYUp => rotation,
    }
}

/// Whether the change of axes turns triangles inside out (a mirror does).
pub fn reverses_winding(axes: Axes) -> bool {
    axes == Axes::LeftHandedYUp
}

/// A position mirrored in x: `(x, y, z) -> (-x, y, z)`.
pub fn mirror_position(position: Vec3) -> Vec3 {
    Vec3::new(-position.x, position.y, position.z)
}

/// The rotation that acts on mirrored space as `rotation` acts on the
/// original: `S * R * S` with `S = diag(-1, 1, 1)`, which is
/// `(x, y, z, w) -> (x, -y, -z, w)` for a column-vector quaternion.
pub fn mirror_rotation(rotation: Quat) -> Quat {
    Quat::from_xyzw(rotation.x, -rotation.y, -rotation.z, rotation.w)
}

/// The rule `(x, y, z, w) -> (-x, y, z, w)`, which holds for a quaternion
/// as the Sims stores it: the stored value acts as its conjugate, so this is
/// [`mirror_rotation`] of the conjugate.
pub fn mirror_stored_sims_rotation(stored: Quat) -> Quat {
    Quat::from_xyzw(-stored.x, stored.y, stored.z, stored.w)
}

#[cfg(test)]
mod tests {
    use glam::Mat3;

    use super::*;

    const MIRROR: Mat3 = Mat3::from_cols(Vec3::NEG_X, Vec3::Y, Vec3::Z);

    fn sample_rotations() -> Vec<Quat> {
        vec![
            Quat::from_rotation_x(0.7),
            Quat::from_rotation_y(-1.2),
            Quat::from_rotation_z(2.5),
            Quat::from_axis_angle(Vec3::new(1.0, 2.0, -3.0).normalize(), 0.9),
            Quat::from_xyzw(0.1, -0.5, 0.3, 0.8).normalize(),
        ]
    }

    #[test]
    fn mirrored_position_negates_x() {
        assert_eq!(
            mirror_position(Vec3::new(1.0, 2.0, 3.0)),
            Vec3::new(-1.0, 2.0, 3.0)
        );
    }

    #[test]
    fn mirrored_rotation_is_s_r_s() {
        for rotation in sample_rotations() {
            let expected = MIRROR * Mat3::from_quat(rotation) * MIRROR;
            let actual = Mat3::from_quat(mirror_rotation(rotation));
            assert!(actual.abs_diff_eq(expected, 1e-6), "{rotation:?}");
        }
    }

    #[test]
    fn mirrored_transform_moves_mirrored_points_to_mirrored_places() {
        let point = Vec3::new(0.3, -1.0, 2.0);
        for rotation in sample_rotations() {
            let original = rotation * point;
            let mirrored = mirror_rotation(rotation) * mirror_position(point);
            assert!(mirrored.abs_diff_eq(mirror_position(original), 1e-6));
        }
    }

    #[test]
    fn z_up_turns_to_y_up_and_rotations_follow() {
        let point = Vec3::new(0.3, -1.0, 2.0);
        assert_eq!(
            right_handed_y_up(Axes::RightHandedZUp, point),
            Vec3::new(0.3, 2.0, 1.0)
        );
        for rotation in sample_rotations() {
            let turned = right_handed_y_up_rotation(Axes::RightHandedZUp, rotation)
                * right_handed_y_up(Axes::RightHandedZUp, point);
            let expected = right_handed_y_up(Axes::RightHandedZUp, rotation * point);
            assert!(turned.abs_diff_eq(expected, 1e-6), "{rotation:?}");
        }
    }

    #[test]
    fn stored_sims_rule_mirrors_the_conjugate() {
        for stored in sample_rotations() {
            let acting = Mat3::from_quat(stored).transpose();
            let expected = MIRROR * acting * MIRROR;
            let actual = Mat3::from_quat(mirror_stored_sims_rotation(stored));
            assert!(actual.abs_diff_eq(expected, 1e-6), "{stored:?}");
        }
    }
}
