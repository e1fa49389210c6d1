//! `.skn` parse and write of a 1,000,000-vertex skin: ossuary's text codec
//! against a split-whitespace-and-parse reader and a `{}` writer.

use std::hint::black_box;

use bench::{naive, synthetic};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use formats::sims::skn::Skn;

fn skn_1m_vertices(c: &mut Criterion) {
    let skin = synthetic::skn(1_000_000);
    let text = skin.to_text().expect("ossuary writes the synthetic skin");
    let same_values = |text: &str| {
        let parsed = naive::parse_skn(text).expect("the naive reader reads the skin");
        assert_eq!(
            Skn {
                style: skin.style.clone(),
                ..parsed
            },
            skin,
            "the naive codec loses values"
        );
    };
    same_values(std::str::from_utf8(&text).expect("the synthetic skin is ASCII"));
    same_values(&naive::write_skn(&skin));

    let mut group = c.benchmark_group("skn 1M vertices parse");
    // Seconds an iteration before the fast text path: ten samples say enough.
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("ossuary", |b| {
        b.iter_with_large_drop(|| Skn::from_text(black_box(&text)).expect("parses"))
    });
    group.bench_function("naive", |b| {
        b.iter_with_large_drop(|| {
            let text = std::str::from_utf8(black_box(&text)).expect("the synthetic skin is ASCII");
            naive::parse_skn(text).expect("parses")
        })
    });
    group.finish();

    let mut group = c.benchmark_group("skn 1M vertices write");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("ossuary", |b| {
        b.iter_with_large_drop(|| black_box(&skin).to_text().expect("writes"))
    });
    group.bench_function("naive", |b| {
        b.iter_with_large_drop(|| naive::write_skn(black_box(&skin)))
    });
    group.finish();
}

criterion_group!(text, skn_1m_vertices);
criterion_main!(text);
