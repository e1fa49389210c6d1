//! ozz-animation and ossuary agree on every case the benchmarks time
//! (`bench/src/contest.rs` checks each when it builds it, before any
//! timing), here on fewer vertices, so that a build with the `ozz` feature
//! is checked without timing anything. Built only with that feature.

use bench::contest::{self, LocalToModel, Sampling, Sims, Weighted};

/// The real adult walk where the corpus is, and the synthetic skeleton.
fn clips() -> Vec<(skinning::Skeleton, formats::rig::JointMotion, usize)> {
    let mut clips: Vec<_> = contest::adult_walk().into_iter().collect();
    clips.push(contest::synthetic_clip(1000, 60));
    clips
}

#[test]
fn sampling_agrees_with_ozz() {
    for clip in clips() {
        let mut case = Sampling::new(clip);
        case.ossuary();
        case.ozz();
    }
}

#[test]
fn local_to_model_agrees_with_ozz() {
    for clip in clips() {
        let mut case = LocalToModel::new(clip);
        case.ossuary();
        case.ozz();
    }
}

#[test]
fn weighted_skinning_agrees_with_ozz() {
    for influences in [1, 2, 3, 4] {
        for normals in [false, true] {
            let mut case = Weighted::new(10_003, influences, normals);
            case.ossuary();
            case.ossuary_as_blended();
            case.ozz();
        }
    }
}

#[test]
fn sims_deformation_agrees_with_ozz() {
    let mut case = Sims::new(10_000);
    case.ossuary();
    case.ozz();
}
