//! Conversion from the Sims' and SWG's left-handed axes to right-handed ones
//! (for glTF), by mirroring x. All rotations here are column-vector
//! quaternions, the kind the posing jobs produce.
//!
//! Mirroring also reverses triangle winding: an exporter must swap two
//! indices of each face.

use glam::{Quat, Vec3};

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

/// DESIGN.md's rule `(x, y, z, w) -> (-x, y, z, w)`, which holds for a
/// quaternion as the Sims stores it: the stored value acts as its conjugate,
/// so this is [`mirror_rotation`] of the conjugate.
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
    fn stored_sims_rule_mirrors_the_conjugate() {
        for stored in sample_rotations() {
            let acting = Mat3::from_quat(stored).transpose();
            let expected = MIRROR * acting * MIRROR;
            let actual = Mat3::from_quat(mirror_stored_sims_rotation(stored));
            assert!(actual.abs_diff_eq(expected, 1e-6), "{stored:?}");
        }
    }
}
