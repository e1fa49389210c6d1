//! Transforms as BonesPro writes them: 3ds Max matrices, or Euler angles
//! and a translation, and what they mean in column-vector math.

use glam::{Affine3A, Mat4, Quat, Vec3};
use serde::{Deserialize, Serialize};

use crate::rig;
use crate::Schema;

/// A transform as 3ds Max writes a matrix (ossuary's reading of the
/// specification): four lines of three numbers, the rows of a row-vector
/// matrix (`v' = v * M`). The first three rows are where the x, y and z
/// axes go; the fourth is the translation.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments)]
pub struct Matrix {
    /// The first row: the image of the x axis.
    pub x_axis: [f32; 3],
    /// The second row: the image of the y axis.
    pub y_axis: [f32; 3],
    /// The third row: the image of the z axis.
    pub z_axis: [f32; 3],
    /// The fourth row: the translation.
    pub translation: [f32; 3],
}

/// A transform as Euler angles (ossuary's reading): a line of the three
/// angles, in the header's order and units, then a line of the translation.
/// Order `ABC` with angles `(e0, e1, e2)` turns about the fixed axis A by
/// e0 first, then about B by e1, then about C by e2: in row-vector math
/// `R = R_A(e0) * R_B(e1) * R_C(e2)`, with `R_X(a)` the rows
/// `(1, 0, 0), (0, cos a, sin a), (0, -sin a, cos a)` (a turn by the
/// right-hand rule), and likewise about y and z.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, comments)]
pub struct Euler {
    /// The angles about the order's first, second and third axis.
    pub angles: [f32; 3],
    /// The translation row.
    pub translation: [f32; 3],
}

/// How the animation's bone transforms are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub enum Representation {
    /// Four lines: the rows of a 3ds Max matrix.
    #[schema(keyword = "Matrix")]
    Matrix,
    /// Two lines: the angles, then the translation.
    #[schema(keyword = "Euler Angles")]
    EulerAngles,
}

/// The axes Euler angles turn about, in the order they apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub enum EulerOrder {
    #[schema(keyword = "XYZ")]
    Xyz,
    #[schema(keyword = "XZY")]
    Xzy,
    #[schema(keyword = "YZX")]
    Yzx,
    #[schema(keyword = "YXZ")]
    Yxz,
    #[schema(keyword = "ZXY")]
    Zxy,
    #[schema(keyword = "ZYX")]
    Zyx,
    #[schema(keyword = "XYX")]
    Xyx,
    #[schema(keyword = "YZY")]
    Yzy,
    #[schema(keyword = "ZXZ")]
    Zxz,
}

/// The unit of Euler angles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(text)]
pub enum AngleUnits {
    #[schema(keyword = "Degrees")]
    Degrees,
    #[schema(keyword = "Radians")]
    Radians,
}

/// One transform of an animation frame, as the header's representation says.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(text, context(representation: Representation), select = representation)]
pub enum Transform {
    #[schema(when = Representation::Matrix)]
    Matrix(Matrix),
    #[schema(when = Representation::EulerAngles)]
    Euler(Euler),
}

impl EulerOrder {
    /// Every order, in the specification's list.
    pub const ALL: [EulerOrder; 9] = [
        EulerOrder::Xyz,
        EulerOrder::Xzy,
        EulerOrder::Yzx,
        EulerOrder::Yxz,
        EulerOrder::Zxy,
        EulerOrder::Zyx,
        EulerOrder::Xyx,
        EulerOrder::Yzy,
        EulerOrder::Zxz,
    ];

    /// The axes in the order their turns apply.
    pub fn axes(self) -> [Vec3; 3] {
        let (x, y, z) = (Vec3::X, Vec3::Y, Vec3::Z);
        match self {
            EulerOrder::Xyz => [x, y, z],
            EulerOrder::Xzy => [x, z, y],
            EulerOrder::Yzx => [y, z, x],
            EulerOrder::Yxz => [y, x, z],
            EulerOrder::Zxy => [z, x, y],
            EulerOrder::Zyx => [z, y, x],
            EulerOrder::Xyx => [x, y, x],
            EulerOrder::Yzy => [y, z, y],
            EulerOrder::Zxz => [z, x, z],
        }
    }
}

impl AngleUnits {
    pub fn to_radians(self, angle: f32) -> f32 {
        match self {
            AngleUnits::Degrees => angle.to_radians(),
            AngleUnits::Radians => angle,
        }
    }
}

impl Matrix {
    /// The transform in column-vector math: the row-vector matrix's rows
    /// are the column-vector matrix's columns.
    pub fn to_affine(&self) -> Affine3A {
        Affine3A::from_cols(
            Vec3::from_array(self.x_axis).into(),
            Vec3::from_array(self.y_axis).into(),
            Vec3::from_array(self.z_axis).into(),
            Vec3::from_array(self.translation).into(),
        )
    }

    /// The matrix of a column-vector transform.
    pub fn from_affine(affine: &Affine3A) -> Matrix {
        Matrix {
            x_axis: affine.matrix3.x_axis.to_array(),
            y_axis: affine.matrix3.y_axis.to_array(),
            z_axis: affine.matrix3.z_axis.to_array(),
            translation: affine.translation.to_array(),
        }
    }
}

impl Euler {
    /// The transform in column-vector math: the row-vector product
    /// `R_A(e0) * R_B(e1) * R_C(e2)` applies A first, which in
    /// column-vector terms is `R_C * R_B * R_A`.
    pub fn to_affine(&self, order: EulerOrder, units: AngleUnits) -> Affine3A {
        let [first, second, third] = order.axes();
        let [e0, e1, e2] = self.angles.map(|angle| units.to_radians(angle));
        let rotation = Quat::from_axis_angle(third, e2)
            * Quat::from_axis_angle(second, e1)
            * Quat::from_axis_angle(first, e0);
        Affine3A::from_rotation_translation(rotation, Vec3::from_array(self.translation))
    }
}

impl Transform {
    /// The transform in column-vector math; Euler angles are read in
    /// `order` and `units`.
    pub fn to_affine(&self, order: EulerOrder, units: AngleUnits) -> Affine3A {
        match self {
            Transform::Matrix(matrix) => matrix.to_affine(),
            Transform::Euler(euler) => euler.to_affine(order, units),
        }
    }
}

/// A column-vector transform as a rig matrix (four columns of four rows).
pub(super) fn rig_matrix(affine: &Affine3A) -> rig::Transform {
    rig::Transform::Matrix(Mat4::from(*affine).to_cols_array_2d())
}
