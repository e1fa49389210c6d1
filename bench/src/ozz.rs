//! ozz-animation 0.16 as a baseline (the `ozz` feature): its runtime jobs
//! (`SamplingJob`, `LocalToModelJob`, `SkinningJob`) through the C shim in
//! `ozz/shim.cc`, on data handed over from ossuary's own types, so both
//! run on the same skeletons, keys and vertices. ozz orders a skeleton's
//! joints depth-first; [`Rig`] maps that order back to ossuary's.

use std::ffi::{c_int, c_void};
use std::ptr::NonNull;

use glam::{Affine3A, Mat4, Quat, Vec3};
use skinning::Skeleton;

unsafe extern "C" {
    fn ozz_rig_new(
        count: c_int,
        parents: *const c_int,
        translations: *const f32,
        rotations: *const f32,
        order: *mut c_int,
    ) -> *mut c_void;
    fn ozz_rig_free(rig: *mut c_void);
    fn ozz_local_to_model(rig: *mut c_void) -> c_int;
    fn ozz_rig_models(rig: *mut c_void) -> *const f32;
    fn ozz_rig_locals(rig: *mut c_void, translations: *mut f32, rotations: *mut f32);
    fn ozz_clip_new(
        rig: *mut c_void,
        frames: c_int,
        translations: *const f32,
        rotations: *const f32,
        order: *const c_int,
    ) -> *mut c_void;
    fn ozz_clip_free(clip: *mut c_void);
    fn ozz_sample(clip: *mut c_void, rig: *mut c_void, frame: f32) -> c_int;
    #[allow(clippy::too_many_arguments)]
    fn ozz_skin(
        vertices: c_int,
        influences: c_int,
        matrices: *const f32,
        joints: c_int,
        indices: *const u16,
        weights: *const f32,
        positions: *const f32,
        normals: *const f32,
        out_positions: *mut f32,
        out_normals: *mut f32,
    ) -> c_int;
}

/// A local transform as translation and rotation (the skeletons here have
/// no scale).
fn parts(local: &Affine3A) -> (Vec3, Quat) {
    let (_, rotation, translation) = local.to_scale_rotation_translation();
    (translation, rotation)
}

/// An ozz skeleton built from an ossuary one, with the buffers its jobs
/// write (SoA locals, model matrices).
pub struct Rig {
    rig: NonNull<c_void>,
    /// `order[j]`: ossuary's index of ozz's joint `j`.
    order: Vec<c_int>,
}

impl Rig {
    /// ozz's skeleton of `skeleton`'s joints at its rest locals. ozz takes
    /// up to 1,024 joints.
    pub fn new(skeleton: &Skeleton) -> Rig {
        let count = skeleton.len();
        let parents: Vec<c_int> = skeleton
            .parents()
            .iter()
            .map(|parent| parent.map_or(-1, |parent| parent as c_int))
            .collect();
        let (translations, rotations) = flatten(skeleton.rest_locals().iter().map(parts));
        let mut order = vec![0; count];
        // SAFETY: every pointer covers `count` joints' worth of values, as
        // the shim reads and writes them.
        let rig = unsafe {
            ozz_rig_new(
                count as c_int,
                parents.as_ptr(),
                translations.as_ptr(),
                rotations.as_ptr(),
                order.as_mut_ptr(),
            )
        };
        Rig {
            rig: NonNull::new(rig).expect("ozz builds the skeleton"),
            order,
        }
    }

    /// `LocalToModelJob` on the current locals.
    pub fn local_to_model(&mut self) {
        // SAFETY: the rig is alive and owns its buffers.
        assert!(unsafe { ozz_local_to_model(self.rig.as_ptr()) } == 1);
    }

    /// The model matrices, in ossuary's joint order.
    pub fn models(&self) -> Vec<Affine3A> {
        // SAFETY: the shim's buffer holds 16 floats a joint.
        let floats = unsafe {
            std::slice::from_raw_parts(ozz_rig_models(self.rig.as_ptr()), 16 * self.order.len())
        };
        let mut models = vec![Affine3A::IDENTITY; self.order.len()];
        for (matrix, &joint) in floats.chunks_exact(16).zip(&self.order) {
            models[joint as usize] = Affine3A::from_mat4(Mat4::from_cols_slice(matrix));
        }
        models
    }

    /// The locals (translation, rotation), in ossuary's joint order.
    pub fn locals(&self) -> Vec<(Vec3, Quat)> {
        let count = self.order.len();
        let mut translations = vec![0.0; 3 * count];
        let mut rotations = vec![0.0; 4 * count];
        // SAFETY: the buffers hold `count` joints' values.
        unsafe {
            ozz_rig_locals(
                self.rig.as_ptr(),
                translations.as_mut_ptr(),
                rotations.as_mut_ptr(),
            )
        };
        let mut locals = vec![(Vec3::ZERO, Quat::IDENTITY); count];
        for (ozz, &joint) in self.order.iter().enumerate() {
            locals[joint as usize] = (
                Vec3::from_slice(&translations[3 * ozz..]),
                Quat::from_slice(&rotations[4 * ozz..]),
            );
        }
        locals
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        // SAFETY: made by `ozz_rig_new`, freed once.
        unsafe { ozz_rig_free(self.rig.as_ptr()) }
    }
}

/// Translations and rotations as flat floats.
fn flatten(parts: impl Iterator<Item = (Vec3, Quat)>) -> (Vec<f32>, Vec<f32>) {
    let mut translations = Vec::new();
    let mut rotations = Vec::new();
    for (translation, rotation) in parts {
        translations.extend(translation.to_array());
        rotations.extend(rotation.to_array());
    }
    (translations, rotations)
}

/// An ozz animation, built by ozz's `AnimationBuilder` (which stores
/// translations as half floats and rotations quantized), with its
/// sampling context.
pub struct Clip {
    clip: NonNull<c_void>,
}

impl Clip {
    /// An animation of `rig`'s joints keyed at every frame with the locals
    /// `frames[f]` (one per joint, ossuary's order), one frame a second.
    pub fn new(rig: &Rig, frames: &[Vec<Affine3A>]) -> Clip {
        let (translations, rotations) = flatten(frames.iter().flatten().map(parts));
        assert_eq!(translations.len(), 3 * rig.order.len() * frames.len());
        // SAFETY: the keys hold every joint of every frame.
        let clip = unsafe {
            ozz_clip_new(
                rig.rig.as_ptr(),
                frames.len() as c_int,
                translations.as_ptr(),
                rotations.as_ptr(),
                rig.order.as_ptr(),
            )
        };
        Clip {
            clip: NonNull::new(clip).expect("ozz builds the animation"),
        }
    }

    /// `SamplingJob` at `frame` into `rig`'s locals.
    pub fn sample(&mut self, rig: &mut Rig, frame: f32) {
        // SAFETY: both alive; the rig's locals fit the animation's joints.
        assert!(unsafe { ozz_sample(self.clip.as_ptr(), rig.rig.as_ptr(), frame) } == 1);
    }
}

impl Drop for Clip {
    fn drop(&mut self) {
        // SAFETY: made by `ozz_clip_new`, freed once.
        unsafe { ozz_clip_free(self.clip.as_ptr()) }
    }
}

/// Vertices laid out for ozz's `SkinningJob`: `influences` joint indices
/// and `influences - 1` weights a vertex (ozz restores the last).
pub struct Skin {
    pub influences: usize,
    pub indices: Vec<u16>,
    pub weights: Vec<f32>,
    pub positions: Vec<Vec3>,
    /// Empty for a positions-only job.
    pub normals: Vec<Vec3>,
}

impl Skin {
    /// `SkinningJob` with the joints' skinning matrices `matrices` into
    /// the outputs (as long as the inputs; `out_normals` is ignored when
    /// the skin has no normals).
    pub fn skin(&self, matrices: &[Mat4], out_positions: &mut [Vec3], out_normals: &mut [Vec3]) {
        let count = self.positions.len();
        assert!(out_positions.len() == count && self.indices.len() == count * self.influences);
        let with_normals = !self.normals.is_empty();
        assert!(!with_normals || (self.normals.len() == count && out_normals.len() == count));
        let floats = |vectors: &[Vec3]| vectors.as_ptr().cast::<f32>();
        // SAFETY: lengths checked above; `Mat4` is 16 floats, 16-byte
        // aligned, column-major, as ozz's `Float4x4`.
        let done = unsafe {
            ozz_skin(
                count as c_int,
                self.influences as c_int,
                matrices.as_ptr().cast(),
                matrices.len() as c_int,
                self.indices.as_ptr(),
                self.weights.as_ptr(),
                floats(&self.positions),
                if with_normals {
                    floats(&self.normals)
                } else {
                    std::ptr::null()
                },
                out_positions.as_mut_ptr().cast(),
                if with_normals {
                    out_normals.as_mut_ptr().cast()
                } else {
                    std::ptr::null_mut()
                },
            )
        };
        assert!(done == 1, "ozz's skinning job refuses its input");
    }
}
