//! Vectors stored sixteen to a group, one array a coordinate: the layout
//! skins are bound into, whose coordinates the deformation's loops load a
//! group at a time (one 512-bit register, or two of 256 bits).

use glam::Vec3;

/// Vectors a group holds.
pub(crate) const GROUP: usize = 16;

/// Sixteen vectors, each coordinate's values side by side; aligned to a
/// cache line, so that a coordinate is one aligned 64-byte load.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Vec3x16 {
    pub(crate) x: [f32; GROUP],
    pub(crate) y: [f32; GROUP],
    pub(crate) z: [f32; GROUP],
}

impl Vec3x16 {
    /// The vector in `lane`, which must be below [`GROUP`].
    pub(crate) fn lane(&self, lane: usize) -> Vec3 {
        Vec3::new(self.x[lane], self.y[lane], self.z[lane])
    }

    fn set_lane(&mut self, lane: usize, value: Vec3) {
        self.x[lane] = value.x;
        self.y[lane] = value.y;
        self.z[lane] = value.z;
    }
}

/// Vectors stored sixteen to a [`Vec3x16`]: vector `i` is lane `i % 16` of
/// group `i / 16`, and the last group's unused lanes are zero.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Vec3Groups {
    pub(crate) groups: Vec<Vec3x16>,
    len: usize,
}

impl Vec3Groups {
    pub(crate) fn new(values: impl ExactSizeIterator<Item = [f32; 3]>) -> Vec3Groups {
        let len = values.len();
        let mut groups = vec![Vec3x16::default(); len.div_ceil(GROUP)];
        for (index, value) in values.enumerate() {
            groups[index / GROUP].set_lane(index % GROUP, Vec3::from_array(value));
        }
        Vec3Groups { groups, len }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Vector `index`, which must be below `len`.
    pub(crate) fn get(&self, index: usize) -> Vec3 {
        self.groups[index / GROUP].lane(index % GROUP)
    }

    /// Sets vector `index`, which must be below `len`.
    pub(crate) fn set(&mut self, index: usize, value: Vec3) {
        self.groups[index / GROUP].set_lane(index % GROUP, value);
    }
}
