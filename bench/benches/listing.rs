//! `ossuary view`'s listing of a folder of 10,000 files (the project's
//! samples copied into 345 folders), against the floor any listing pays:
//! walking the same tree and reading each file's first bytes.

use std::fs;
use std::hint::black_box;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use formats::catalogue::Catalogue;
use viewer::listing;
use viewer::roots::Roots;

const FILES: usize = 10_000;

/// Copies the samples into folders until `FILES` files are there.
fn many_files(into: &Path) -> usize {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
    let mut names: Vec<PathBuf> = fs::read_dir(&samples)
        .expect("the samples")
        .map(|entry| entry.expect("a sample").path())
        .collect();
    names.sort();
    let mut count = 0;
    for folder in 0.. {
        let folder = into.join(format!("copy{folder:03}"));
        fs::create_dir(&folder).expect("a folder");
        for sample in &names {
            if count == FILES {
                return count;
            }
            let name = sample.file_name().expect("a file name");
            fs::copy(sample, folder.join(name)).expect("a copy");
            count += 1;
        }
    }
    count
}

/// The floor: every file found and its first 4 KiB read, as telling
/// formats apart by their bytes needs.
fn walk_and_sniff(dir: &Path, sniffed: &mut usize) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a folder")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk_and_sniff(&path, sniffed);
        } else {
            let mut head = Vec::with_capacity(4096);
            fs::File::open(&path)
                .expect("a file")
                .take(4096)
                .read_to_end(&mut head)
                .expect("its bytes");
            *sniffed += head.len();
        }
    }
}

fn list_10k_files(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let files = many_files(dir.path());
    let roots = Roots::new(&[dir.path().to_path_buf()]).expect("the folder");
    let catalogue = Catalogue::default();
    let listed = listing::list(&roots, &catalogue, &|| false);
    assert!(
        listed.characters.len() > 1_000 && listed.problems.is_empty(),
        "the listing finds the samples' characters"
    );

    let mut group = c.benchmark_group("view listing 10k files");
    group.sample_size(10);
    group.throughput(Throughput::Elements(files as u64));
    group.bench_function("walk and sniff (floor)", |b| {
        b.iter(|| {
            let mut sniffed = 0;
            walk_and_sniff(dir.path(), &mut sniffed);
            black_box(sniffed)
        })
    });
    group.bench_function("ossuary", |b| {
        b.iter(|| listing::list(black_box(&roots), &catalogue, &|| false))
    });
    group.finish();
}

criterion_group!(listing_benches, list_10k_files);
criterion_main!(listing_benches);
