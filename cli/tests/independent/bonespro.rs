//! BonesPro's conventions in plain f64 row-vector math, as the design
//! states them, for checking the CLI: 3ds Max matrices (three rotation rows,
//! then the translation row; `v' = v * M`), Euler angles `ABC` as
//! `R_A(e0) * R_B(e1) * R_C(e2)`, a relative transform composed as
//! `world = R * parent_world`, and skinning as
//! `v' = sum of w_b * v * inverse(B_b) * B_b(f)`.

/// A 3x3 rotation for row vectors.
pub type Rotation = [[f64; 3]; 3];

/// A row-vector transform: three rotation rows, then the translation row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row4 {
    pub rotation: Rotation,
    pub translation: [f64; 3],
}

/// `R_X`, `R_Y`, `R_Z` (axis 0, 1, 2) as the design writes them.
pub fn axis_rotation(axis: usize, angle: f64) -> Rotation {
    let (c, s) = (angle.cos(), angle.sin());
    match axis {
        0 => [[1.0, 0.0, 0.0], [0.0, c, s], [0.0, -s, c]],
        1 => [[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]],
        _ => [[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]],
    }
}

pub fn multiply3(a: &Rotation, b: &Rotation) -> Rotation {
    let mut out = [[0.0; 3]; 3];
    for (row, out_row) in out.iter_mut().enumerate() {
        for (column, cell) in out_row.iter_mut().enumerate() {
            *cell = (0..3).map(|k| a[row][k] * b[k][column]).sum();
        }
    }
    out
}

fn transpose(m: &Rotation) -> Rotation {
    let mut out = [[0.0; 3]; 3];
    for (row, out_row) in out.iter_mut().enumerate() {
        for (column, cell) in out_row.iter_mut().enumerate() {
            *cell = m[column][row];
        }
    }
    out
}

/// `R_A(e0) * R_B(e1) * R_C(e2)` for the order's axes `[A, B, C]`.
pub fn euler_rotation(order: [usize; 3], angles: [f64; 3]) -> Rotation {
    let [a, b, c] = order;
    multiply3(
        &multiply3(&axis_rotation(a, angles[0]), &axis_rotation(b, angles[1])),
        &axis_rotation(c, angles[2]),
    )
}

/// Whether `(i, j, k)` is an even permutation of the axes.
fn even(i: usize, j: usize, k: usize) -> bool {
    matches!((i, j, k), (0, 1, 2) | (1, 2, 0) | (2, 0, 1))
}

/// The angles of `rotation` in `order`, in radians (Shoemake's formulas on
/// the column-vector matrix, the transpose: `Rot_C(e2) Rot_B(e1) Rot_A(e0)`),
/// checked by composing them again.
pub fn euler_angles(order: [usize; 3], rotation: &Rotation) -> [f64; 3] {
    let m = transpose(rotation);
    let [i, j, k] = order;
    let angles = if i != k {
        let s = if even(i, j, k) { 1.0 } else { -1.0 };
        [
            (s * m[k][j]).atan2(m[k][k]),
            (-s * m[k][i]).clamp(-1.0, 1.0).asin(),
            (s * m[j][i]).atan2(m[i][i]),
        ]
    } else {
        let other = 3 - i - j;
        let s = if even(i, j, other) { 1.0 } else { -1.0 };
        [
            m[i][j].atan2(s * m[i][other]),
            m[i][i].clamp(-1.0, 1.0).acos(),
            m[j][i].atan2(-s * m[other][i]),
        ]
    };
    let again = euler_rotation(order, angles);
    let error = (0..3)
        .flat_map(|row| (0..3).map(move |column| (row, column)))
        .map(|(row, column)| (again[row][column] - rotation[row][column]).abs())
        .fold(0.0, f64::max);
    assert!(
        error < 1e-9,
        "{order:?}: angles {angles:?} recompose {error} off"
    );
    angles
}

/// The row-vector rotation of the unit quaternion (x, y, z, w).
pub fn quaternion_rotation([x, y, z, w]: [f64; 4]) -> Rotation {
    // The column-vector matrix, transposed.
    transpose(&[
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ])
}

impl Row4 {
    /// `self * other`: `self` applied first (row vectors).
    pub fn then(&self, other: &Row4) -> Row4 {
        Row4 {
            rotation: multiply3(&self.rotation, &other.rotation),
            translation: other.apply(self.translation),
        }
    }

    /// `p * M` for the point `p`.
    pub fn apply(&self, p: [f64; 3]) -> [f64; 3] {
        let r = &self.rotation;
        [0, 1, 2].map(|column| {
            p[0] * r[0][column]
                + p[1] * r[1][column]
                + p[2] * r[2][column]
                + self.translation[column]
        })
    }

    /// The inverse, for a rotation (orthonormal) part.
    pub fn inverse(&self) -> Row4 {
        let rotation = transpose(&self.rotation);
        let moved = Row4 {
            rotation,
            translation: [0.0; 3],
        }
        .apply(self.translation);
        Row4 {
            rotation,
            translation: moved.map(|c| -c),
        }
    }
}

/// Each bone's world transform from its relative one:
/// `world = R * parent_world`, parents found by index in any order.
pub fn worlds_from_relative(relative: &[Row4], parents: &[Option<usize>]) -> Vec<Row4> {
    fn world(relative: &[Row4], parents: &[Option<usize>], bone: usize) -> Row4 {
        match parents[bone] {
            Some(parent) => relative[bone].then(&world(relative, parents, parent)),
            None => relative[bone],
        }
    }
    (0..relative.len())
        .map(|bone| world(relative, parents, bone))
        .collect()
}

/// The relative transform that puts a bone at `world` under a parent at
/// `parent_world`: `world * inverse(parent_world)`.
pub fn relative_to(world: &Row4, parent_world: Option<&Row4>) -> Row4 {
    match parent_world {
        Some(parent) => world.then(&parent.inverse()),
        None => *world,
    }
}

/// `v' = sum of w_b * v * inverse(B_b) * B_b(f)` for each vertex, its
/// influences `(bone, weight)`.
pub fn skin(
    positions: &[[f64; 3]],
    influences: &[Vec<(usize, f64)>],
    rest: &[Row4],
    posed: &[Row4],
) -> Vec<[f64; 3]> {
    positions
        .iter()
        .zip(influences)
        .map(|(&position, influences)| {
            influences.iter().fold([0.0; 3], |sum, &(bone, weight)| {
                let moved = posed[bone].apply(rest[bone].inverse().apply(position));
                [0, 1, 2].map(|c| sum[c] + weight * moved[c])
            })
        })
        .collect()
}
