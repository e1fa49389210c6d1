//! Four 3D vectors held as one SIMD vector per coordinate: the layout
//! the deformation binds stored vertices into, which `skin` moves four
//! lanes at a time and `wide` eight.

use std::ops::{Add, Mul, Sub};

use glam::{Vec3, Vec4};

/// Four vectors with each coordinate's four values in one SIMD vector (an
/// SSE2 register on x86-64), so that a bone's matrix moves four vertices
/// with whole-register multiplications and additions, and no 12-byte
/// `Vec3` is widened into a register and narrowed back on its own. Laid out
/// as its 12 floats in order (x0 x1 x2 x3 y0 ...), which the AVX-512 loops
/// load four blocks at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct Vec3x4 {
    pub(crate) x: Vec4,
    pub(crate) y: Vec4,
    pub(crate) z: Vec4,
}

impl Vec3x4 {
    /// The vector in `lane`, which must be below 4.
    pub(crate) fn lane(&self, lane: usize) -> Vec3 {
        Vec3::new(self.x[lane], self.y[lane], self.z[lane])
    }

    pub(crate) fn set_lane(&mut self, lane: usize, value: Vec3) {
        self.x[lane] = value.x;
        self.y[lane] = value.y;
        self.z[lane] = value.z;
    }

    pub(crate) fn to_vec3s(self) -> [Vec3; 4] {
        [self.lane(0), self.lane(1), self.lane(2), self.lane(3)]
    }

    pub(crate) fn from_vec3s([a, b, c, d]: [Vec3; 4]) -> Vec3x4 {
        Vec3x4 {
            x: Vec4::new(a.x, b.x, c.x, d.x),
            y: Vec4::new(a.y, b.y, c.y, d.y),
            z: Vec4::new(a.z, b.z, c.z, d.z),
        }
    }

    /// Each vector as `Vec3::normalize_or_zero` computes it: each
    /// coordinate times `1 / sqrt((x * x + y * y) + z * z)`, or zero where
    /// that factor is not finite and positive.
    pub(crate) fn normalize_or_zero(self) -> Vec3x4 {
        let length = sqrt(self.x * self.x + self.y * self.y + self.z * self.z);
        let recip = length.recip();
        // Finite and positive: above 0 and below infinity (NaN is neither).
        let usable = recip.cmpgt(Vec4::ZERO) & recip.cmplt(Vec4::INFINITY);
        let scaled = self * recip;
        Vec3x4 {
            x: Vec4::select(usable, scaled.x, Vec4::ZERO),
            y: Vec4::select(usable, scaled.y, Vec4::ZERO),
            z: Vec4::select(usable, scaled.z, Vec4::ZERO),
        }
    }
}

impl Add for Vec3x4 {
    type Output = Vec3x4;

    fn add(self, other: Vec3x4) -> Vec3x4 {
        Vec3x4 {
            x: self.x + other.x,
            y: self.y + other.y,
            z: self.z + other.z,
        }
    }
}

impl Sub for Vec3x4 {
    type Output = Vec3x4;

    fn sub(self, other: Vec3x4) -> Vec3x4 {
        Vec3x4 {
            x: self.x - other.x,
            y: self.y - other.y,
            z: self.z - other.z,
        }
    }
}

/// Each lane's vector times that lane's factor.
impl Mul<Vec4> for Vec3x4 {
    type Output = Vec3x4;

    fn mul(self, factors: Vec4) -> Vec3x4 {
        Vec3x4 {
            x: self.x * factors,
            y: self.y * factors,
            z: self.z * factors,
        }
    }
}

/// Each lane's square root, correctly rounded as `f32::sqrt` is: one
/// instruction for the four with SSE.
fn sqrt(values: Vec4) -> Vec4 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: one SSE instruction, which every x86-64 processor has.
        unsafe { std::arch::x86_64::_mm_sqrt_ps(values.into()).into() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec4::from_array(values.to_array().map(f32::sqrt))
    }
}
