//! The cases measured against ozz-animation (and measured alone when the
//! `ozz` feature is off): sampling a clip, local-to-model posing, weighted
//! skinning and the Sims deformation. Each case is built once, with both
//! contenders' outputs checked to agree before any timing, then offers one
//! call per contender; `benches/animation.rs` (criterion) and
//! `benches/alternating.rs` (turn-taking) time the same calls.

use std::path::{Path, PathBuf};

use formats::catalogue::Catalogue;
use formats::files::Files;
use formats::rig::{self, Keys, Motion, RigOptions, Track, TrackTarget};
use glam::{Affine3A, Quat, Vec3};
use skinning::{local_to_model, Clip, Deformer, PosedSkin, Skeleton, WeightedNormals};

use crate::floor::Floor;
use crate::synthetic::{self, Sequence};
use crate::weighted;

/// The line the benches print where ozz's rows are left out.
pub const WITHOUT_OZZ: &str =
    "ozz rows skipped: built without the `ozz` feature (cargo bench -p bench --features ozz)";

/// The shared corpus: `OSSUARY_CORPUS`, or `../shared/corpus` beside the
/// repository.
fn corpus() -> PathBuf {
    std::env::var_os("OSSUARY_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
        PathBuf::from,
    )
}

fn rig_of(path: &Path) -> Option<Box<dyn formats::format::Document>> {
    let bytes = std::fs::read(path).ok()?;
    let name = path.file_name()?.to_str()?;
    let format = Catalogue::default().detect(name, &bytes)?;
    (format.decode)(&bytes).ok()
}

/// The real adult Sims skeleton and a real skill of it (the frantic walk,
/// its keys from its `.cfp`), or `None` where the corpus is not there.
pub fn adult_walk() -> Option<(Skeleton, rig::JointMotion, usize)> {
    let folder = corpus().join("sims1");
    let skeleton_file = folder.join("adult-skeleton.cmx");
    let skeleton = rig_of(&skeleton_file)?
        .rig()
        .skeleton(&Files::beside(&skeleton_file), RigOptions::default())?
        .ok()?;
    let skill_file = folder.join("adult-walking-frantic-loop.cmx");
    let animations = rig_of(&skill_file)?
        .rig()
        .animations(&Files::beside(&skill_file))?
        .ok()?;
    let (motion, frames) = animations
        .into_iter()
        .find_map(|animation| match animation.motion {
            Motion::Joints(motion) => Some((motion, animation.times.len())),
            _ => None,
        })?;
    Some((Skeleton::new(&skeleton).ok()?, motion, frames))
}

/// A skeleton of `joints` joints (the synthetic binary tree) and a clip of
/// `frames` frames keying every joint's rotation and translation, moving
/// smoothly from frame to frame.
pub fn synthetic_clip(joints: usize, frames: usize) -> (Skeleton, rig::JointMotion, usize) {
    let skeleton = Skeleton::new(&synthetic::rig_skeleton(joints)).expect("the skeleton poses");
    let mut sequence = Sequence::new(0xC11B);
    let tracks = (0..joints)
        .map(|joint| {
            let [x, y, z] = sequence.unit_vector();
            let axis = Vec3::new(x, y, z);
            let start = Vec3::new(
                sequence.float(1.0),
                sequence.float(1.0),
                sequence.float(1.0),
            );
            let step = Vec3::new(
                sequence.float(0.05),
                sequence.float(0.05),
                sequence.float(0.05),
            );
            let turn = sequence.float(0.1);
            Track {
                joint: TrackTarget::Index(joint),
                keys: Keys::Parts {
                    translations: (0..frames)
                        .map(|frame| (start + step * frame as f32).to_array())
                        .collect(),
                    rotations: (0..frames)
                        .map(|frame| Quat::from_axis_angle(axis, turn * frame as f32).to_array())
                        .collect(),
                },
            }
        })
        .collect();
    let motion = rig::JointMotion {
        tracks,
        depth_pattern: None,
    };
    (skeleton, motion, frames)
}

/// Sampling a clip frame after frame (wrapping at the end): ossuary's
/// [`Clip::sample`] into kept locals, ozz's `SamplingJob` from the same
/// keys through its `AnimationBuilder`.
pub struct Sampling {
    skeleton: Skeleton,
    clip: Clip,
    frames: usize,
    locals: Vec<Affine3A>,
    ours: usize,
    #[cfg(feature = "ozz")]
    ozz: (crate::ozz::Rig, crate::ozz::Clip, usize),
}

impl Sampling {
    pub fn new((skeleton, motion, frames): (Skeleton, rig::JointMotion, usize)) -> Sampling {
        let clip = Clip::bind(&motion, frames, &skeleton).expect("the clip binds");
        let locals = skeleton.rest_locals().to_vec();
        let case = Sampling {
            #[cfg(feature = "ozz")]
            ozz: {
                let per_frame: Vec<Vec<Affine3A>> = (0..frames)
                    .map(|frame| {
                        clip.pose(&skeleton, frame)
                            .expect("samples")
                            .locals()
                            .to_vec()
                    })
                    .collect();
                let rig = crate::ozz::Rig::new(&skeleton);
                let ozz_clip = crate::ozz::Clip::new(&rig, &per_frame);
                (rig, ozz_clip, 0)
            },
            skeleton,
            clip,
            frames,
            locals,
            ours: 0,
        };
        #[cfg(feature = "ozz")]
        let case = case.checked();
        case
    }

    /// Ossuary samples the next frame.
    pub fn ossuary(&mut self) {
        self.clip
            .sample(&self.skeleton, self.ours, &mut self.locals)
            .expect("samples");
        self.ours = (self.ours + 1) % self.frames;
    }

    /// ozz samples the next frame.
    #[cfg(feature = "ozz")]
    pub fn ozz(&mut self) {
        let (rig, clip, frame) = &mut self.ozz;
        clip.sample(rig, *frame as f32);
        *frame = (*frame + 1) % self.frames;
    }

    /// Every frame, both ways: translations within half-float precision
    /// (ozz stores them so), rotations within ozz's 16-bit quantization.
    #[cfg(feature = "ozz")]
    fn checked(mut self) -> Sampling {
        for frame in 0..self.frames {
            self.ossuary();
            self.ozz();
            let theirs = self.ozz.0.locals();
            for (joint, (ours, (translation, rotation))) in
                self.locals.iter().zip(theirs).enumerate()
            {
                let (_, our_rotation, our_translation) = ours.to_scale_rotation_translation();
                let off = (our_translation - translation).abs().max_element();
                assert!(
                    off <= 1e-3 * our_translation.abs().max_element().max(1.0),
                    "frame {frame} joint {joint}: translation {our_translation} against ozz's {translation}"
                );
                assert!(
                    our_rotation.dot(rotation).abs() >= 1.0 - 1e-4,
                    "frame {frame} joint {joint}: rotation {our_rotation} against ozz's {rotation}"
                );
            }
        }
        self
    }
}

/// Local-to-model posing of a sampled pose: ossuary's
/// [`local_to_model`] from matrices, ozz's `LocalToModelJob` from its SoA
/// translations and rotations (the same pose, as ozz samples it).
pub struct LocalToModel {
    skeleton: Skeleton,
    locals: Vec<Affine3A>,
    model: Vec<Affine3A>,
    #[cfg(feature = "ozz")]
    ozz: crate::ozz::Rig,
}

impl LocalToModel {
    pub fn new((skeleton, motion, frames): (Skeleton, rig::JointMotion, usize)) -> LocalToModel {
        let clip = Clip::bind(&motion, frames, &skeleton).expect("the clip binds");
        let frame = frames / 2;
        let locals = clip
            .pose(&skeleton, frame)
            .expect("samples")
            .locals()
            .to_vec();
        let model = vec![Affine3A::IDENTITY; locals.len()];
        let case = LocalToModel {
            #[cfg(feature = "ozz")]
            ozz: {
                let mut rig = crate::ozz::Rig::new(&skeleton);
                let mut ozz_clip = crate::ozz::Clip::new(&rig, std::slice::from_ref(&locals));
                ozz_clip.sample(&mut rig, 0.0);
                rig
            },
            skeleton,
            locals,
            model,
        };
        #[cfg(feature = "ozz")]
        let case = case.checked();
        case
    }

    pub fn ossuary(&mut self) {
        local_to_model(&self.skeleton, &self.locals, &mut self.model).expect("poses");
    }

    #[cfg(feature = "ozz")]
    pub fn ozz(&mut self) {
        self.ozz.local_to_model();
    }

    /// ozz poses the locals it stored (half-float translations, quantized
    /// rotations): ossuary is given the same ones, and the model matrices
    /// then agree within float rounding.
    #[cfg(feature = "ozz")]
    fn checked(mut self) -> LocalToModel {
        self.locals = self
            .ozz
            .locals()
            .iter()
            .map(|&(translation, rotation)| {
                Affine3A::from_rotation_translation(rotation, translation)
            })
            .collect();
        self.ossuary();
        self.ozz();
        for (joint, (ours, theirs)) in self.model.iter().zip(self.ozz.models()).enumerate() {
            let scale = Vec3::from(ours.translation).abs().max_element().max(1.0);
            assert!(
                ours.abs_diff_eq(theirs, 1e-4 * scale),
                "joint {joint}: {ours:?} against ozz's {theirs:?}"
            );
        }
        self
    }
}

/// Weighted skinning of a million vertices: ossuary's [`Deformer`] against
/// ozz's `SkinningJob` on the same vertices, influences and skinning
/// matrices. ozz leaves a blended normal's length as the blend makes it;
/// ossuary makes it unit length unless asked not to
/// ([`WeightedNormals::AsBlended`]), so each is compared with its like:
/// ossuary's unit normals with ozz's job followed by the normalization its
/// caller would have to add, ossuary's blended normals with ozz's job alone.
pub struct Weighted {
    case: weighted::Case,
    /// The bytes this case's deformation reads and writes, streamed.
    floor: Floor,
    deformer: Deformer,
    posed: PosedSkin,
    /// Normals as blended.
    blended: (Deformer, PosedSkin),
    #[cfg(feature = "ozz")]
    ozz: (crate::ozz::Skin, Vec<glam::Mat4>, Vec<Vec3>, Vec<Vec3>),
}

impl Weighted {
    pub fn new(vertices: usize, influences: usize, normals: bool) -> Weighted {
        let case = weighted::case(vertices, influences, normals);
        let mut deformer = Deformer::default();
        let mut posed = PosedSkin::default();
        case.deform(&mut deformer, &mut posed);
        let mut blended = (
            Deformer::with_weighted_normals(WeightedNormals::AsBlended),
            PosedSkin::default(),
        );
        case.deform(&mut blended.0, &mut blended.1);
        let contest = Weighted {
            floor: Floor::weighted(vertices, influences, normals, influences == 1),
            blended,
            #[cfg(feature = "ozz")]
            ozz: {
                let (indices, weights) = case.ozz_layout();
                let vec3s = |values: &[[f32; 3]]| values.iter().copied().map(Vec3::from).collect();
                let skin = crate::ozz::Skin {
                    influences,
                    indices,
                    weights,
                    positions: vec3s(&case.skin.positions),
                    normals: vec3s(&case.skin.normals),
                };
                let matrices = case.matrices();
                let positions = vec![Vec3::ZERO; vertices];
                let normals = vec![Vec3::ZERO; case.skin.normals.len()];
                (skin, matrices, positions, normals)
            },
            case,
            deformer,
            posed,
        };
        #[cfg(feature = "ozz")]
        let contest = contest.checked();
        contest
    }

    /// Ossuary's deformation, normals of unit length.
    pub fn ossuary(&mut self) {
        self.case.deform(&mut self.deformer, &mut self.posed);
    }

    /// The deformation's streaming floor (normals of either kind: the
    /// same bytes).
    pub fn floor(&mut self) {
        self.floor.stream();
    }

    /// Ossuary's deformation, normals as blended.
    pub fn ossuary_as_blended(&mut self) {
        let (deformer, posed) = &mut self.blended;
        self.case.deform(deformer, posed);
    }

    /// ozz's `SkinningJob`, normals as blended.
    #[cfg(feature = "ozz")]
    pub fn ozz(&mut self) {
        let (skin, matrices, positions, normals) = &mut self.ozz;
        skin.skin(matrices, positions, normals);
    }

    /// ozz's `SkinningJob`, then its normals made unit length as ossuary's
    /// are (`normalize_or_zero`, one pass over them, in kept buffers).
    #[cfg(feature = "ozz")]
    pub fn ozz_unit(&mut self) {
        self.ozz();
        for normal in &mut self.ozz.3 {
            *normal = normal.normalize_or_zero();
        }
    }

    /// Positions within float rounding of each other; normals too, as
    /// blended and of unit length.
    #[cfg(feature = "ozz")]
    fn checked(mut self) -> Weighted {
        self.ozz();
        let (_, _, positions, normals) = &self.ozz;
        let (_, blended) = &self.blended;
        for ours in [&self.posed.positions, &blended.positions] {
            let off = weighted::largest_difference(ours, positions);
            assert!(off < 1e-5, "positions differ from ozz's by {off}");
        }
        let off = weighted::largest_difference(&blended.normals, normals);
        assert!(off < 1e-5, "blended normals differ from ozz's by {off}");
        self.ozz_unit();
        let off = weighted::largest_difference(&self.posed.normals, &self.ozz.3);
        assert!(off < 1e-5, "unit normals differ from ozz's by {off}");
        self
    }
}

/// The Sims deformation of a million vertex records (ossuary: bone space,
/// a fifth of them blend vertices pulling the others) against ozz's
/// one-influence `SkinningJob` moving the same million stored vertices by
/// the same bones' model matrices (no blends: ozz has none).
pub struct Sims {
    case: crate::scalar::Case,
    /// The bytes ossuary's deformation reads and writes, streamed.
    floor: Floor,
    deformer: Deformer,
    posed: PosedSkin,
    #[cfg(feature = "ozz")]
    ozz: (crate::ozz::Skin, Vec<glam::Mat4>, Vec<Vec3>, Vec<Vec3>),
}

impl Sims {
    pub fn new(vertices: usize) -> Sims {
        let case = crate::scalar::case(vertices);
        let mut deformer = Deformer::default();
        let mut posed = PosedSkin::default();
        crate::scalar::ossuary_deform(&case.bound, &case.model, &mut deformer, &mut posed);
        let rig::Binding::BoneSpace(binding) = &case.skin.binding else {
            panic!("the Sims case is bone-space");
        };
        let floor = Floor::sims(case.skin.positions.len(), binding.blends.len());
        let contest = Sims {
            floor,
            #[cfg(feature = "ozz")]
            ozz: {
                let rig::Binding::BoneSpace(binding) = &case.skin.binding else {
                    panic!("the Sims case is bone-space");
                };
                let mut indices = Vec::new();
                fn vec3s(values: &[[f32; 3]]) -> impl Iterator<Item = Vec3> + '_ {
                    values.iter().copied().map(Vec3::from)
                }
                let positions: Vec<Vec3> = vec3s(&case.skin.positions)
                    .chain(vec3s(&binding.blend_positions))
                    .collect();
                let normals: Vec<Vec3> = vec3s(&case.skin.normals)
                    .chain(vec3s(&binding.blend_normals))
                    .collect();
                indices.resize(positions.len(), 0u16);
                let real = case.skin.positions.len();
                for range in &binding.ranges {
                    let bone = range.bone as u16;
                    let vertices = range.vertices.start as usize..range.vertices.end as usize;
                    indices[vertices].fill(bone);
                    let blends =
                        real + range.blends.start as usize..real + range.blends.end as usize;
                    indices[blends].fill(bone);
                }
                let count = positions.len();
                let skin = crate::ozz::Skin {
                    influences: 1,
                    indices,
                    weights: Vec::new(),
                    positions,
                    normals,
                };
                let matrices = case.model.iter().map(|&m| glam::Mat4::from(m)).collect();
                (
                    skin,
                    matrices,
                    vec![Vec3::ZERO; count],
                    vec![Vec3::ZERO; count],
                )
            },
            case,
            deformer,
            posed,
        };
        #[cfg(feature = "ozz")]
        let contest = contest.checked();
        contest
    }

    pub fn ossuary(&mut self) {
        crate::scalar::ossuary_deform(
            &self.case.bound,
            &self.case.model,
            &mut self.deformer,
            &mut self.posed,
        );
    }

    #[cfg(feature = "ozz")]
    pub fn ozz(&mut self) {
        let (skin, matrices, positions, normals) = &mut self.ozz;
        skin.skin(matrices, positions, normals);
    }

    /// The streaming floor of ossuary's deformation.
    pub fn floor(&mut self) {
        self.floor.stream();
    }

    /// The vertices no blend pulls come out of both the same, within float
    /// rounding.
    #[cfg(feature = "ozz")]
    fn checked(mut self) -> Sims {
        self.ozz();
        let rig::Binding::BoneSpace(binding) = &self.case.skin.binding else {
            panic!("the Sims case is bone-space");
        };
        let mut pulled = vec![false; self.posed.positions.len()];
        for blend in &binding.blends {
            pulled[blend.vertex as usize] = true;
        }
        let (_, _, positions, normals) = &self.ozz;
        let unpulled = |ours: &[Vec3], theirs: &[Vec3]| {
            let (ours, theirs): (Vec<Vec3>, Vec<Vec3>) = ours
                .iter()
                .zip(theirs)
                .zip(&pulled)
                .filter(|(_, &pulled)| !pulled)
                .map(|((a, b), _)| (*a, *b))
                .unzip();
            weighted::largest_difference(&ours, &theirs)
        };
        let off = unpulled(&self.posed.positions, positions);
        assert!(off < 1e-5, "positions differ from ozz's by {off}");
        let off = unpulled(&self.posed.normals, normals);
        assert!(off < 1e-5, "normals differ from ozz's by {off}");
        self
    }
}
