//! Posing and skinning: Sims deformation of a 1,000,000-vertex skin
//! (positions, normals, blends) against a straightforward scalar loop and
//! the copy of its positions and normals (the floor), on one and two
//! threads; local-to-model posing of a 100,000-joint skeleton
//! against a plain loop.

use std::hint::black_box;

use bench::{scalar, synthetic, threads};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::Affine3A;
use skinning::{local_to_model, BlendRule, Deformer, PosedSkin, Skeleton};

fn sims_deformation(c: &mut Criterion) {
    let mut case = scalar::case(1_000_000);
    let vertices = case.skin.positions.len() as u64
        + match &case.skin.binding {
            formats::rig::Binding::BoneSpace(binding) => binding.blend_positions.len() as u64,
            formats::rig::Binding::Weighted(_) => 0,
        };

    let one_thread = threads::pinned_pool(1);
    let mut group = c.benchmark_group("sims deform 1M vertices");
    group.throughput(Throughput::Elements(vertices));
    // The plain glam loop, into buffers kept from one run to the next.
    group.bench_function("scalar", |b| {
        b.iter(|| {
            case.plain
                .deform(black_box(&case.model), &mut case.baseline)
        })
    });
    let mut floor = scalar::CopyFloor::new(&case.skin);
    group.bench_function("copy floor", |b| {
        b.iter(|| black_box(&mut floor).copy(black_box(&case.skin)))
    });
    // What reusing the buffers is worth: the same deformation into new ones.
    group.bench_function("ossuary 1 thread(s), new buffers", |b| {
        one_thread.install(|| {
            b.iter_with_large_drop(|| {
                case.bound
                    .deform(black_box(&case.model), BlendRule::Game)
                    .expect("deforms")
            })
        })
    });
    for threads in [1, 2] {
        let pool = threads::pinned_pool(threads);
        // A deformer poses into the same buffers frame after frame.
        let mut deformer = Deformer::default();
        let mut posed = PosedSkin::default();
        group.bench_function(format!("ossuary {threads} thread(s)"), |b| {
            pool.install(|| {
                b.iter(|| {
                    scalar::ossuary_deform(&case.bound, &case.model, &mut deformer, &mut posed)
                })
            })
        });
    }
    group.finish();
}

fn local_to_model_100k_joints(c: &mut Criterion) {
    let skeleton = Skeleton::new(&synthetic::rig_skeleton(100_000)).expect("poses");
    let locals = skeleton.rest_locals().to_vec();
    // The synthetic tree lists parents first, so one pass in file order works.
    let parents: Vec<Option<usize>> = skeleton
        .parents()
        .iter()
        .map(|parent| parent.map(|parent| parent as usize))
        .collect();
    let mut model = vec![Affine3A::IDENTITY; locals.len()];

    let mut group = c.benchmark_group("local_to_model 100k joints");
    group.throughput(Throughput::Elements(locals.len() as u64));
    group.bench_function("plain loop", |b| {
        b.iter(|| {
            for (joint, (local, parent)) in locals.iter().zip(&parents).enumerate() {
                model[joint] = match parent {
                    Some(parent) => model[*parent] * *local,
                    None => *local,
                };
            }
            black_box(&model);
        })
    });
    group.bench_function("ossuary", |b| {
        b.iter(|| local_to_model(&skeleton, black_box(&locals), &mut model).expect("poses"))
    });
    group.finish();
}

criterion_group!(skinning, sims_deformation, local_to_model_100k_joints);
criterion_main!(skinning);
