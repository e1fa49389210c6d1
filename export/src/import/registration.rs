//! A rig made in another tool's units and axes, brought onto the game's
//! skeleton: ts1-blender-io imports a Sims skeleton at a third of its size
//! with its axes turned half a turn about the vertical from glTF's, so a
//! hat a modder puts on its head comes out of Blender a third of the size
//! and turned. Where the glTF's joints, relative to their armature (the
//! node above them: its own transform is the modder's, applied as glTF
//! gives it), rest where the skeleton's do once scaled, turned and moved as
//! one (within [`rest::ELSEWHERE`] of the figure's height), the glTF's model
//! space is taken into the skeleton's by that similarity, meshes and
//! animations with it, and one warning says so.
//!
//! The similarity is the least-squares fit of the joints' places
//! (Umeyama's: the turn from the singular value decomposition of the
//! places' cross-covariance, a proper turn always, since a flat set of
//! joints fits a mirror as well).

use glam::{Affine3A, Mat3, Quat, Vec3};

use super::document::Asset;
use super::rest::{self, GameRest, Scene};

/// A similarity this close to the identity is none.
const SAME: f32 = 1e-4;

/// The similarity taking the glTF's model space into the skeleton's, and
/// the sentence saying so; `None` when none is needed (the joints rest
/// where the skeleton's do, or elsewhere in a way no similarity explains).
pub fn fitted(asset: &Asset, scene: &Scene, game: &GameRest) -> Option<(Affine3A, String)> {
    let skin = asset.document.skins().next()?;
    let nodes: Vec<usize> = skin.joints().map(|joint| joint.index()).collect();
    let mut members = vec![false; scene.parents.len()];
    for &node in &nodes {
        if let Some(slot) = members.get_mut(node) {
            *slot = true;
        }
    }
    // The armature: the node above the skin's first root joint.
    let armature = nodes
        .iter()
        .find(|&&node| {
            scene
                .parent(node)
                .is_none_or(|parent| !members.get(parent).copied().unwrap_or(false))
        })
        .and_then(|&root| scene.parent(root))
        .map_or(Affine3A::IDENTITY, |node| scene.world(node));
    let from_armature = armature.inverse();
    // Each joint's place in the model and relative to the armature, and
    // the game's joint's place.
    let places: Vec<(Vec3, Vec3, Vec3)> = nodes
        .iter()
        .filter_map(|&node| {
            let joint = game.find(scene.names.get(node)?)?;
            let place = Vec3::from(scene.world(node).translation);
            Some((
                place,
                from_armature.transform_point3(place),
                Vec3::from(game.model(joint).translation),
            ))
        })
        .collect();
    let near = rest::ELSEWHERE * game.height;
    if places
        .iter()
        .all(|(place, _, target)| place.distance(*target) <= near)
    {
        return None;
    }
    let pairs: Vec<(Vec3, Vec3)> = places
        .iter()
        .map(|&(_, relative, target)| (relative, target))
        .collect();
    let (scale, turn, shift) = similarity(&pairs)?;
    let fits = pairs
        .iter()
        .all(|(place, target)| (turn * *place * scale + shift).distance(*target) <= near);
    let needed = (scale - 1.0).abs() > SAME
        || turn.angle_between(Quat::IDENTITY) > SAME
        || shift.length() > near;
    if !(fits && needed) {
        return None;
    }
    let fit = Affine3A::from_scale_rotation_translation(Vec3::splat(scale), turn, shift);
    let (axis, angle) = turn.to_axis_angle();
    let said = format!(
        "its joints rest where the skeleton's do once scaled by {scale} and turned by {} degrees \
         about ({}, {}, {}) (another tool's units and axes, as ts1-blender-io's armatures have): \
         its meshes and animations are brought into the skeleton's",
        angle.to_degrees().round(),
        // Adding 0 makes a -0 0.
        axis.x.round() + 0.0,
        axis.y.round() + 0.0,
        axis.z.round() + 0.0
    );
    Some((armature * fit * from_armature, said))
}

/// The scale, proper turn and shift that best take each pair's first point
/// onto its second (Umeyama's least squares); `None` for fewer than three
/// points not on one line.
fn similarity(pairs: &[(Vec3, Vec3)]) -> Option<(f32, Quat, Vec3)> {
    let count = pairs.len() as f32;
    let from_centre = pairs.iter().map(|(from, _)| *from).sum::<Vec3>() / count;
    let to_centre = pairs.iter().map(|(_, to)| *to).sum::<Vec3>() / count;
    // The cross-covariance, taking the first points' space to the second's.
    let mut covariance = Mat3::ZERO;
    let mut spread = 0.0;
    for (from, to) in pairs {
        let (a, b) = (*from - from_centre, *to - to_centre);
        covariance += Mat3::from_cols(b * a.x, b * a.y, b * a.z);
        spread += a.length_squared();
    }
    if spread <= 0.0 {
        return None;
    }
    let (values, right) = symmetric_eigen(covariance.transpose() * covariance);
    let singular: Vec<f32> = values.iter().map(|value| value.max(0.0).sqrt()).collect();
    let largest = singular.first().copied().unwrap_or(0.0);
    if largest <= 0.0 || singular.get(1).copied().unwrap_or(0.0) <= largest * 1e-6 {
        return None;
    }
    let left0 = (covariance * right.x_axis / singular[0]).normalize();
    let left1 = (covariance * right.y_axis / singular[1]).normalize();
    let left2 = left0.cross(left1);
    let left = Mat3::from_cols(left0, left1, left2);
    // A proper turn: the least singular direction flips where it must.
    let sign = (left.determinant() * right.determinant()).signum();
    let turn = left * Mat3::from_diagonal(Vec3::new(1.0, 1.0, sign)) * right.transpose();
    let scale =
        (singular[0] + singular[1] + sign * singular.get(2).copied().unwrap_or(0.0)) / spread;
    let turn = Quat::from_mat3(&turn).normalize();
    let shift = to_centre - turn * from_centre * scale;
    (scale.is_finite() && scale > 0.0).then_some((scale, turn, shift))
}

/// Entries `p` and `q` of `row` turned by Jacobi's rotation of cosine `c`
/// and sine `s`.
fn turn_pair(row: &mut [f32; 3], p: usize, q: usize, c: f32, s: f32) {
    let (at_p, at_q) = (row[p], row[q]);
    row[p] = c * at_p - s * at_q;
    row[q] = s * at_p + c * at_q;
}

/// A symmetric matrix's eigenvalues, largest first, and its eigenvectors
/// as the columns in that order (Jacobi's rotations).
fn symmetric_eigen(matrix: Mat3) -> ([f32; 3], Mat3) {
    let mut a = matrix.to_cols_array_2d();
    let mut vectors = Mat3::IDENTITY.to_cols_array_2d();
    for _ in 0..50 {
        let off = a[0][1].abs() + a[0][2].abs() + a[1][2].abs();
        if off <= f32::EPSILON * (a[0][0].abs() + a[1][1].abs() + a[2][2].abs()) {
            break;
        }
        for (p, q) in [(0usize, 1usize), (0, 2), (1, 2)] {
            if a[p][q].abs() <= f32::MIN_POSITIVE {
                continue;
            }
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            // Columns p and q of a, then its rows p and q, then the
            // eigenvectors' columns: a = J^T a J, vectors = vectors J.
            for row in &mut a {
                turn_pair(row, p, q, c, s);
            }
            let (row_p, row_q) = (a[p], a[q]);
            for k in 0..3 {
                a[p][k] = c * row_p[k] - s * row_q[k];
                a[q][k] = s * row_p[k] + c * row_q[k];
            }
            for row in &mut vectors {
                turn_pair(row, p, q, c, s);
            }
        }
    }
    // `a[row][column]` and `vectors[row][column]` (the matrix is
    // symmetric, so glam's columns read as rows): eigenvector k is column k.
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| a[j][j].total_cmp(&a[i][i]));
    let column = |k: usize| Vec3::new(vectors[0][k], vectors[1][k], vectors[2][k]);
    (
        order.map(|k| a[k][k]),
        Mat3::from_cols(column(order[0]), column(order[1]), column(order[2])),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_similarity_is_fitted_to_a_flat_figure_scaled_and_turned() {
        // A flat figure (every point at z = 0), as the humanoid is, seen
        // at a third of its size and turned half a turn about y.
        let figure = [
            Vec3::new(0.0, 3.0, 0.0),
            Vec3::new(0.45, 4.7, 0.0),
            Vec3::new(-0.45, 4.7, 0.0),
            Vec3::new(0.2, 0.1, 0.0),
            Vec3::new(0.0, 5.0, 0.0),
        ];
        let turn = Quat::from_rotation_y(std::f32::consts::PI);
        let pairs: Vec<(Vec3, Vec3)> = figure
            .iter()
            .map(|&point| (turn * point / 3.0 + Vec3::new(0.1, 0.0, 0.0), point))
            .collect();
        let (scale, fitted, shift) = similarity(&pairs).unwrap();
        assert!((scale - 3.0).abs() < 1e-4, "{scale}");
        for (from, to) in &pairs {
            assert!((fitted * *from * scale + shift).distance(*to) < 1e-4);
        }
        // Points on one line fit no turn.
        let line: Vec<(Vec3, Vec3)> = (0..4)
            .map(|index| (Vec3::X * index as f32, Vec3::Y * index as f32))
            .collect();
        assert!(similarity(&line).is_none());
    }
}
