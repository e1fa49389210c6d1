//! Four 3D vectors held as one SIMD vector per coordinate: the layout
//! the deformation binds stored vertices into, which `skin` moves four
//! lanes at a time and `wide` eight.

use std::ops::{Add, Mul, Sub};

use glam::{Vec3, Vec3A, Vec4};

/// Four vectors with each coordinate's four values in one SIMD vector (an
/// SSE2 register on x86-64), so that a bone's matrix moves four vertices
/// with whole-register multiplications and additions, and no 12-byte
/// `Vec3` is widened into a register and narrowed back on its own.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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

    /// The four vectors' 12 floats in order (x0 y0 z0 x1 ...), as three
    /// registers' worth: with SSE, six shuffles instead of twelve lane
    /// extractions.
    pub(crate) fn to_floats(self) -> [Vec4; 3] {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_shuffle_ps, _mm_unpackhi_ps, _mm_unpacklo_ps};
            let (x, y, z) = (self.x.into(), self.y.into(), self.z.into());
            // x = [x0 x1 x2 x3] and so on become [x0 y0 z0 x1],
            // [y1 z1 x2 y2] and [z2 x3 y3 z3], as `wide` does per half.
            // SAFETY: register shuffles only, of SSE, which every x86-64
            // processor has.
            unsafe {
                let xy_low = _mm_unpacklo_ps(x, y);
                let xy_high = _mm_unpackhi_ps(x, y);
                let zx_low = _mm_unpacklo_ps(z, x);
                let zx_high = _mm_unpackhi_ps(z, x);
                let yz_low = _mm_unpacklo_ps(y, z);
                let yz_high = _mm_unpackhi_ps(y, z);
                [
                    _mm_shuffle_ps::<0b11_00_01_00>(xy_low, zx_low).into(),
                    _mm_shuffle_ps::<0b01_00_11_10>(yz_low, xy_high).into(),
                    _mm_shuffle_ps::<0b11_10_11_00>(zx_high, yz_high).into(),
                ]
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let [a, b, c, d] = self.to_vec3s();
            [
                Vec4::new(a.x, a.y, a.z, b.x),
                Vec4::new(b.y, b.z, c.x, c.y),
                Vec4::new(c.z, d.x, d.y, d.z),
            ]
        }
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

/// The vector in the first three lanes of a register, the fourth
/// unspecified: free with SSE, where a `Vec3A` is that register already.
pub(crate) fn widen(vector: Vec3A) -> Vec4 {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::x86_64::__m128::from(vector).into()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        vector.extend(0.0)
    }
}
