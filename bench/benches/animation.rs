//! Animation against ozz-animation (with `--features ozz`; alone without):
//! sampling a clip (the real adult Sims skeleton walking, and a
//! 1,000-joint synthetic one), local-to-model posing of the same two
//! skeletons, weighted skinning of a million vertices with 1, 2 and 4
//! influences, positions alone and with normals (unit normals against ozz
//! followed by a normalization pass, and normals left as blended against
//! ozz alone), and the Sims deformation
//! against ozz's one-influence job on the same million vertices. Every
//! case checks that both agree before it is timed (`bench/src/contest.rs`).
//! On 1 thread (a pinned pool), as ozz's jobs run; the deformations also
//! on 2.

use criterion::{criterion_group, criterion_main, Criterion};

use bench::contest::{self, LocalToModel, Sampling, Sims, Weighted};
use bench::threads;

/// Both skeletons and clips, with their names; the real one only where the
/// corpus is.
fn clips() -> Vec<(
    &'static str,
    (skinning::Skeleton, formats::rig::JointMotion, usize),
)> {
    let mut clips = Vec::new();
    match contest::adult_walk() {
        Some(walk) => clips.push(("adult walk", walk)),
        None => eprintln!("adult walk rows skipped: the corpus is not there (OSSUARY_CORPUS)"),
    }
    clips.push(("1000 joints", contest::synthetic_clip(1000, 60)));
    clips
}

fn sampling(c: &mut Criterion) {
    for (name, clip) in clips() {
        let mut case = Sampling::new(clip);
        let mut group = c.benchmark_group(format!("sampling {name}"));
        group.bench_function("ossuary", |b| b.iter(|| case.ossuary()));
        #[cfg(feature = "ozz")]
        group.bench_function("ozz", |b| b.iter(|| case.ozz()));
        group.finish();
    }
}

fn local_to_model(c: &mut Criterion) {
    for (name, clip) in clips() {
        let mut case = LocalToModel::new(clip);
        let mut group = c.benchmark_group(format!("local_to_model {name}"));
        group.bench_function("ossuary", |b| b.iter(|| case.ossuary()));
        #[cfg(feature = "ozz")]
        group.bench_function("ozz", |b| b.iter(|| case.ozz()));
        group.finish();
    }
}

fn weighted(c: &mut Criterion) {
    for influences in [1, 2, 4] {
        for normals in [false, true] {
            let mut case = Weighted::new(1_000_000, influences, normals);
            let what = if normals {
                "positions+normals"
            } else {
                "positions"
            };
            let mut group = c.benchmark_group(format!(
                "weighted skin 1M vertices {influences} influence(s) {what}"
            ));
            group.sample_size(30);
            #[cfg(feature = "ozz")]
            group.bench_function("ozz", |b| b.iter(|| case.ozz()));
            // Like with like: ozz's normals made unit length as ossuary's
            // are, and ossuary's left as blended as ozz's are.
            #[cfg(feature = "ozz")]
            if normals {
                group.bench_function("ozz then unit normals", |b| b.iter(|| case.ozz_unit()));
            }
            for threads in [1, 2] {
                let pool = threads::pinned_pool(threads);
                group.bench_function(format!("ossuary {threads} thread(s)"), |b| {
                    pool.install(|| b.iter(|| case.ossuary()))
                });
            }
            if normals {
                let pool = threads::pinned_pool(1);
                group.bench_function("ossuary normals as blended 1 thread(s)", |b| {
                    pool.install(|| b.iter(|| case.ossuary_as_blended()))
                });
            }
            group.finish();
        }
    }
}

fn sims(c: &mut Criterion) {
    let mut case = Sims::new(1_000_000);
    let mut group = c.benchmark_group("sims deform 1M vertices against ozz 1 influence");
    group.sample_size(30);
    #[cfg(feature = "ozz")]
    group.bench_function("ozz", |b| b.iter(|| case.ozz()));
    for threads in [1, 2] {
        let pool = threads::pinned_pool(threads);
        group.bench_function(format!("ossuary {threads} thread(s)"), |b| {
            pool.install(|| b.iter(|| case.ossuary()))
        });
    }
    group.finish();
}

fn without_ozz(_: &mut Criterion) {
    #[cfg(not(feature = "ozz"))]
    eprintln!("{}", contest::WITHOUT_OZZ);
}

criterion_group!(
    animation,
    without_ozz,
    sampling,
    local_to_model,
    weighted,
    sims
);
criterion_main!(animation);
