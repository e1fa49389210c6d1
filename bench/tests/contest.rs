//! ozz-animation and ossuary agree on every case the benchmarks time
//! (`bench/src/contest.rs` checks each when it builds it, before any
//! timing), here on fewer vertices, so that a build with the `ozz` feature
//! is checked without timing anything. Built only with that feature.

use bench::contest::{self, LocalToModel, Sampling, Sims, Weighted};
use bench::floor::Floor;

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
            case.floor();
        }
    }
}

#[test]
fn sims_deformation_agrees_with_ozz() {
    let mut case = Sims::new(10_000);
    case.ossuary();
    case.ozz();
    case.floor();
}

#[test]
fn floors_move_the_bytes_their_rows_do() {
    // A million vertices, 1 influence of weight 1 with normals: 24 bytes of
    // stored vertex, 2 of place, 2 of mask per 16; 24 written.
    let one = Floor::weighted(1_000_000, 1, true, true);
    assert_eq!(one.bytes(), (26_125_000, 24_000_000));
    // Four influences without normals: 12 + 4 * (2 + 4) + 1/8.
    let four = Floor::weighted(1_000_000, 4, false, false);
    assert_eq!(four.bytes(), (36_125_000, 12_000_000));
    // The Sims case: 800,000 vertices (26 and 1/8 bytes each), 200,000
    // blend vertices (32 each); 24 bytes written a vertex.
    let sims = Floor::sims(800_000, 200_000);
    assert_eq!(sims.bytes(), (27_300_000, 19_200_000));
}
