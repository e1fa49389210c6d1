//! The Sims' object files: sprite (`SPR2`) decoding, ossuary's generated
//! decoder against one written by hand into the same types
//! (`bench/src/hand_sprite.rs`), on a synthetic 1 MB sprite of each
//! version and on every sprite of the corpus's object files; then `check`
//! of those files, in process, beside decoding them alone and reading
//! them (its floor). The corpus rows need `OSSUARY_CORPUS`; without it
//! they are skipped, saying so.

use std::ffi::OsString;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;

use bench::{hand_sprite, synthetic};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use formats::catalogue::Catalogue;
use formats::objects::file::{ChunkData, IffFile};
use formats::objects::sprites::Sprite;
use formats::schema::BinarySchema;

/// The corpus's object files, if `OSSUARY_CORPUS` names the corpus.
fn corpus_objects() -> Option<Vec<PathBuf>> {
    let corpus = PathBuf::from(std::env::var_os("OSSUARY_CORPUS")?);
    let mut files = Vec::new();
    for family in ["freeso", "sims1"] {
        let folder = corpus.join("objects").join(family);
        let entries = std::fs::read_dir(&folder)
            .unwrap_or_else(|error| panic!("{}: {error}", folder.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("iff"))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    Some(files)
}

/// The two decoders on one sprite's bytes, after checking that they give
/// the same value.
fn sprite_group(c: &mut Criterion, name: &str, payloads: &[Vec<u8>]) {
    for bytes in payloads {
        let generated = Sprite::from_bytes(bytes).expect("ossuary decodes the sprite");
        assert_eq!(
            hand_sprite::decode_sprite(bytes).as_ref(),
            Ok(&generated),
            "{name}: the hand-written decoder differs"
        );
    }
    let total: usize = payloads.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group(format!("{name} decode"));
    group.throughput(Throughput::Bytes(total as u64));
    group.bench_function("ossuary", |b| {
        b.iter_with_large_drop(|| {
            payloads
                .iter()
                .map(|bytes| Sprite::from_bytes(black_box(bytes)).expect("decodes"))
                .collect::<Vec<_>>()
        })
    });
    group.bench_function("hand", |b| {
        b.iter_with_large_drop(|| {
            payloads
                .iter()
                .map(|bytes| hand_sprite::decode_sprite(black_box(bytes)).expect("decodes"))
                .collect::<Vec<_>>()
        })
    });
    group.finish();
}

fn synthetic_sprites(c: &mut Criterion) {
    for version in [1000, 1001] {
        let bytes = synthetic::sprite(version, 56, 128)
            .to_bytes()
            .expect("the synthetic sprite encodes");
        let name = format!("SPR2 {version}, {} KiB", bytes.len() / 1024);
        sprite_group(c, &name, &[bytes]);
    }
}

fn corpus_sprites(c: &mut Criterion) {
    let Some(files) = corpus_objects() else {
        eprintln!("OSSUARY_CORPUS is not set: the corpus's sprites are skipped");
        return;
    };
    let mut payloads = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("a corpus object file");
        let file = IffFile::from_bytes(&bytes).expect("the corpus object file decodes");
        for chunk in &file.chunks {
            if let ChunkData::Sprite(sprite) = &chunk.data {
                payloads.push(sprite.to_bytes().expect("the sprite encodes"));
            }
        }
    }
    let name = format!("every corpus SPR2 ({} sprites)", payloads.len());
    sprite_group(c, &name, &payloads);
}

/// `ossuary check` of `files` in this process; panics unless they pass.
fn check(files: &[PathBuf]) {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let args = ["ossuary", "check"]
        .map(OsString::from)
        .into_iter()
        .chain(files.iter().map(|path| path.as_os_str().to_owned()));
    let status = ossuary::run(Catalogue::default(), args, &mut stdout, &mut stderr);
    assert_eq!(
        status,
        ExitCode::SUCCESS,
        "{}",
        String::from_utf8_lossy(&stderr)
    );
}

fn read_all(files: &[PathBuf]) -> Vec<Vec<u8>> {
    files
        .iter()
        .map(|path| std::fs::read(path).expect("a corpus object file"))
        .collect()
}

fn corpus_check(c: &mut Criterion) {
    let Some(files) = corpus_objects() else {
        eprintln!("OSSUARY_CORPUS is not set: check of the corpus's objects is skipped");
        return;
    };
    let total: usize = read_all(&files).iter().map(Vec::len).sum();
    let mut group = c.benchmark_group(format!("check, {} object files", files.len()));
    group.throughput(Throughput::Bytes(total as u64));
    group.sample_size(10);
    group.bench_function("floor (read)", |b| {
        b.iter_with_large_drop(|| read_all(&files))
    });
    group.bench_function("read and decode", |b| {
        b.iter_with_large_drop(|| {
            read_all(&files)
                .iter()
                .map(|bytes| IffFile::from_bytes(bytes).expect("decodes"))
                .collect::<Vec<_>>()
        })
    });
    group.bench_function("ossuary check", |b| b.iter(|| check(&files)));
    group.finish();
}

criterion_group!(objects, synthetic_sprites, corpus_sprites, corpus_check);
criterion_main!(objects);
