//! Issue 47's layouts (`bench/src/layouts.rs`): an offset table with its
//! items, bit-field command words, a padded run-length stream and a gzip
//! block holding a struct, each decoded and encoded by ossuary's
//! generated codec and by a hand-written one of the same types, about
//! 1 MB each. Both codecs are checked to agree before anything is timed:
//! the same value decoded, the same bytes encoded.

use std::fmt::Debug;
use std::hint::black_box;

use bench::hand::Malformed;
use bench::layouts;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use formats::schema::BinarySchema;
use formats::schema::HasContext;

/// One layout: its value, and its hand-written decoder and encoder.
struct Case<T> {
    name: &'static str,
    value: T,
    decode: fn(&[u8]) -> Result<T, Malformed>,
    encode: fn(&T) -> Result<Vec<u8>, Malformed>,
}

fn run_case<T>(c: &mut Criterion, case: Case<T>)
where
    T: BinarySchema + HasContext<Context = ()> + PartialEq + Debug,
{
    let bytes = case.value.to_bytes().expect("ossuary encodes the value");
    let generated = T::from_bytes(&bytes).expect("ossuary decodes its bytes");
    let hand = (case.decode)(&bytes).expect("the hand-written decoder decodes them");
    assert_eq!(hand, generated, "{}: the decoders differ", case.name);
    assert_eq!(
        (case.encode)(&hand).expect("the hand-written encoder encodes"),
        bytes,
        "{}: the hand-written encoder differs",
        case.name
    );
    let name = format!("{}, {} KiB", case.name, bytes.len() / 1024);

    let mut group = c.benchmark_group(format!("{name} decode"));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("ossuary", |b| {
        b.iter_with_large_drop(|| T::from_bytes(black_box(&bytes)).expect("decodes"))
    });
    group.bench_function("hand", |b| {
        b.iter_with_large_drop(|| (case.decode)(black_box(&bytes)).expect("decodes"))
    });
    group.finish();

    let mut group = c.benchmark_group(format!("{name} encode"));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("ossuary", |b| {
        b.iter_with_large_drop(|| black_box(&hand).to_bytes().expect("encodes"))
    });
    group.bench_function("hand", |b| {
        b.iter_with_large_drop(|| (case.encode)(black_box(&hand)).expect("encodes"))
    });
    group.finish();
}

fn offset_table(c: &mut Criterion) {
    run_case(
        c,
        Case {
            name: "offset table",
            value: layouts::table(17_000),
            decode: layouts::decode_table,
            encode: layouts::encode_table,
        },
    );
}

fn command_words(c: &mut Criterion) {
    run_case(
        c,
        Case {
            name: "bit-field command words",
            value: layouts::script(450_000),
            decode: layouts::decode_script,
            encode: layouts::encode_script,
        },
    );
}

fn padded_stream(c: &mut Criterion) {
    run_case(
        c,
        Case {
            name: "padded run-length stream",
            value: layouts::picture(64_000),
            decode: layouts::decode_picture,
            encode: layouts::encode_picture,
        },
    );
}

fn gzip_block(c: &mut Criterion) {
    run_case(
        c,
        Case {
            name: "gzip block",
            value: layouts::packed(128_000),
            decode: layouts::decode_packed,
            encode: layouts::encode_packed,
        },
    );
}

criterion_group!(
    layouts,
    offset_table,
    command_words,
    padded_stream,
    gzip_block
);
criterion_main!(layouts);
