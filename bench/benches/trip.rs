//! The whole trip from the game's files to a glTF asset and back, as people
//! make it, in criterion: `convert` to `.glb` of three real characters with
//! their textures, `convert` of each `.glb` back into the game's files, and
//! the viewer's answer to `/api/gltf`; each beside its floor (reading the
//! files it reads and writing as many bytes as it writes). Then the cost of
//! the textures' PNG encoding at each setting of the encoder, on the
//! corpus's images. Needs the corpus (`OSSUARY_CORPUS`); its rows are
//! skipped, saying so, without it.

use std::ffi::OsString;
use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};
use formats::catalogue::Catalogue;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use viewer::listing;
use viewer::roots::Roots;
use viewer::server::{self, Viewer};

/// The shared corpus: `OSSUARY_CORPUS`, or `../shared/corpus` beside the
/// repository.
fn corpus() -> PathBuf {
    std::env::var_os("OSSUARY_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
        PathBuf::from,
    )
}

/// A character: how `convert` is asked for it, and the files it reads (as
/// `strace -e openat` shows the command line opening them).
struct Character {
    name: &'static str,
    /// `convert`'s inputs and options, before `-o OUT`.
    args: Vec<OsString>,
    reads: Vec<PathBuf>,
    /// The skeleton `convert IN.glb --to ...` is given to bring it back,
    /// and that format's name.
    back: Option<(&'static str, PathBuf)>,
    /// The character's file under the corpus, as the viewer's `open=`.
    open: &'static str,
}

/// The 1998 prototype's `samnud.cmx` (27 bones, 20 meshes, 13 PNG
/// textures), the retail Ross (a body, a head and two hands on the adult
/// skeleton, BMP textures of the `med` tone) and Star Wars Galaxies'
/// Twi'lek female (the corpus's one, and largest, SWG character: its `.sat`,
/// two mesh lists, two skeletons). `None` where the corpus is not there.
fn characters() -> Option<Vec<Character>> {
    let corpus = corpus();
    if !corpus.is_dir() {
        return None;
    }
    let prototype = corpus.join("sims1-prototype");
    let retail = corpus.join("sims1");
    let swg = corpus.join("swg/appearance");
    let in_folder = |folder: &Path, names: &[&str]| -> Vec<PathBuf> {
        names.iter().map(|name| folder.join(name)).collect()
    };
    let mut prototype_reads = vec![prototype.join("samnud.cmx")];
    let mut listed = |folder: &Path, keep: &dyn Fn(&str) -> bool| {
        let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
            .ok()
            .into_iter()
            .flatten()
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.file_name().and_then(|n| n.to_str()).is_some_and(keep))
            .collect();
        found.sort();
        prototype_reads.extend(found);
    };
    listed(&prototype, &|name| {
        name.starts_with("xskin-samnud-") && name.ends_with(".msh")
    });
    listed(&prototype.join("Textures"), &|name| {
        name.starts_with("mfem") || name == "samfoot.png"
    });
    let retail_skins = [
        "adult-skeleton.cmx",
        "xskin-b001mafit_01-PELVIS-BODY.skn",
        "xskin-C001MA_Ross-HEAD-HEADB.skn",
        "xskin-hmlo-L_HAND-HANDML.skn",
        "xskin-hmro-R_HAND-HANDMR.skn",
    ];
    let os = |path: PathBuf| path.into_os_string();
    let mut retail_args: Vec<OsString> = in_folder(&retail, &retail_skins)
        .into_iter()
        .map(os)
        .collect();
    retail_args.extend(["--tone".into(), "med".into()]);
    Some(vec![
        Character {
            name: "prototype samnud",
            args: vec![os(prototype.join("samnud.cmx"))],
            reads: prototype_reads,
            back: Some(("sims-cmx", retail.join("adult-skeleton.cmx"))),
            open: "sims1-prototype/samnud.cmx",
        },
        Character {
            name: "retail Ross",
            args: retail_args,
            reads: [
                in_folder(&retail, &retail_skins),
                in_folder(
                    &retail,
                    &[
                        "B001MAFitmed_relax.bmp",
                        "C001MAmed_Ross.bmp",
                        "HUAOmed.bmp",
                    ],
                ),
            ]
            .concat(),
            back: Some(("sims-cmx", retail.join("adult-skeleton.cmx"))),
            open: "sims1/adult-skeleton.cmx",
        },
        Character {
            name: "swg twk_f",
            args: vec![os(swg.join("twk_f.sat"))],
            reads: [
                in_folder(
                    &swg,
                    &[
                        "twk_f.sat",
                        "mesh/twk_f_body.lmg",
                        "mesh/twk_f_body_l0.mgn",
                        "mesh/twk_f_body_l1.mgn",
                        "mesh/twk_f_body_l2.mgn",
                        "mesh/twk_f_body_l3.mgn",
                        "mesh/twk_f_head.lmg",
                        "mesh/twk_f_head_l0.mgn",
                        "mesh/twk_f_head_l1.mgn",
                        "mesh/twk_f_head_l2.mgn",
                        "mesh/twk_f_head_l3.mgn",
                        "skeleton/all_b.skt",
                        "skeleton/hum_f_face.skt",
                    ],
                ),
                // Its materials: shaders, the textures and palettes they name.
                in_folder(
                    &corpus.join("swg"),
                    &[
                        "palette/pc_eye_twk.pal",
                        "palette/pc_skin_twk.pal",
                        "palette/pc_skin_twk_leccu.pal",
                        "palette/white.pal",
                        "shader/hum_f_teeth.sht",
                        "shader/twk_f_body.sht",
                        "shader/twk_f_face.sht",
                        "shader/twk_f_leccu.sht",
                        "shader/twk_f_mouth.sht",
                        "shader/twk_f_skull.sht",
                        "texture/hum_f_body.dds",
                        "texture/hum_f_body_cn.dds",
                        "texture/hum_f_mouth.dds",
                        "texture/hum_f_mouth_hue.dds",
                        "texture/twk_f_face.dds",
                        "texture/twk_f_head.dds",
                        "texture/twk_f_head_cn.dds",
                        "texture/twk_f_leccu_cn.dds",
                        "texture/twk_f_leccu_pattern20.dds",
                        "texture/twk_wrinkles_f_s04_cn.dds",
                    ],
                ),
            ]
            .concat(),
            back: Some(("swg-sat", swg.join("twk_f.sat"))),
            open: "swg/appearance/twk_f.sat",
        },
    ])
}

/// Runs one command line in this process, as the `ossuary` binary would;
/// returns what it wrote to standard output. Panics if it fails.
fn ossuary(args: &[OsString]) -> Vec<u8> {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = ossuary::run(
        Catalogue::default(),
        std::iter::once(OsString::from("ossuary")).chain(args.iter().cloned()),
        &mut stdout,
        &mut stderr,
    );
    assert_eq!(
        status,
        ExitCode::SUCCESS,
        "ossuary {args:?}: {}",
        String::from_utf8_lossy(&stderr)
    );
    stdout
}

/// `convert` of `character` to `.glb` at `out`.
fn convert_to_glb(character: &Character, out: &Path) {
    let mut args = vec![OsString::from("convert")];
    args.extend(character.args.iter().cloned());
    args.extend(["-o".into(), out.into()]);
    ossuary(&args);
}

/// `convert` of the `.glb` at `glb` back into the game's files in `into`.
fn convert_back(character: &Character, glb: &Path, into: &Path) {
    let Some((to, skeleton)) = &character.back else {
        return;
    };
    ossuary(&[
        "convert".into(),
        glb.into(),
        "--to".into(),
        (*to).into(),
        "--skeleton".into(),
        skeleton.into(),
        "-o".into(),
        into.into(),
    ]);
}

/// The floor of a conversion: every file it reads read whole, and as many
/// bytes as it writes written to `out`.
fn floor(reads: &[PathBuf], written: usize, out: &Path) {
    let mut read = 0;
    for path in reads {
        read += std::fs::read(path).map_or(0, |bytes| bytes.len());
    }
    std::hint::black_box(read);
    std::fs::write(out, vec![0u8; written]).expect("the floor writes");
}

/// All files under `folder` and their total size.
fn files_under(folder: &Path) -> (Vec<PathBuf>, usize) {
    let mut files = Vec::new();
    let mut size = 0;
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                size += entry.metadata().map_or(0, |meta| meta.len() as usize);
                files.push(path);
            }
        }
    }
    (files, size)
}

/// One `GET` of `target` from the server at `address` (HTTP/1.1, the
/// connection closed after); returns the status and the body's length.
fn get(address: &str, target: &str) -> (u16, usize) {
    let mut stream = TcpStream::connect(address).expect("the server listens");
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .expect("the request is sent");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("the answer comes");
    let head_end = answer
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .expect("the answer has a head");
    let status = std::str::from_utf8(&answer[..head_end])
        .ok()
        .and_then(|head| head.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .expect("the answer has a status");
    (status, answer.len() - head_end - 4)
}

/// The line printed where the corpus is missing.
const WITHOUT_CORPUS: &str = "trip rows skipped: the corpus is not there (OSSUARY_CORPUS)";

fn convert(c: &mut Criterion) {
    let Some(characters) = characters() else {
        eprintln!("{WITHOUT_CORPUS}");
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary folder");
    for character in &characters {
        let name = character.name;
        let glb = dir.path().join(format!("{name}.glb"));
        convert_to_glb(character, &glb);
        let written = std::fs::metadata(&glb).map_or(0, |meta| meta.len() as usize);
        let floor_out = dir.path().join("floor");
        let mut group = c.benchmark_group(format!("convert {name} to glb ({written} bytes)"));
        group.bench_function("floor", |b| {
            b.iter(|| floor(&character.reads, written, &floor_out))
        });
        group.bench_function("ossuary", |b| b.iter(|| convert_to_glb(character, &glb)));
        group.finish();
        let Some((to, _)) = &character.back else {
            continue;
        };
        let back = dir.path().join(format!("{name} back"));
        convert_back(character, &glb, &back);
        let (files, written) = files_under(&back);
        let mut group = c.benchmark_group(format!(
            "convert {name} glb back to {to} ({} files, {written} bytes)",
            files.len()
        ));
        group.bench_function("floor", |b| {
            b.iter(|| floor(std::slice::from_ref(&glb), written, &floor_out))
        });
        group.bench_function("ossuary", |b| {
            b.iter(|| convert_back(character, &glb, &back))
        });
        group.finish();
    }
}

/// The query string's value for a path under the roots.
fn query_value(rel: &str) -> String {
    rel.replace('/', "%2F")
}

fn median_ms(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2] * 1e3
}

fn viewer_gltf(c: &mut Criterion) {
    let Some(characters) = characters() else {
        eprintln!("{WITHOUT_CORPUS}");
        return;
    };
    let roots = Roots::new(&[corpus()]).expect("the corpus is a folder");
    let catalogue = Catalogue::default();
    let running = server::start(
        Viewer::new(
            roots.clone(),
            catalogue,
            formats::files::DEFAULT_INPUT_LIMIT,
        ),
        0,
    )
    .expect("the viewer listens on 127.0.0.1");
    let address = running
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    for character in characters.iter().filter(|c| c.name != "retail Ross") {
        let target = format!("/api/gltf?open={}", query_value(character.open));
        // The measure: the first answer, then the median of five.
        let timed = || {
            let start = Instant::now();
            let (status, length) = get(&address, &target);
            assert_eq!(status, 200, "{target}");
            (start.elapsed().as_secs_f64(), length)
        };
        let (first, length) = timed();
        let mut five: Vec<f64> = (0..5).map(|_| timed().0).collect();
        eprintln!(
            "viewer /api/gltf {}: {length} bytes, first {:.1} ms, then median of five {:.1} ms",
            character.name,
            first * 1e3,
            median_ms(&mut five)
        );
        let mut group = c.benchmark_group(format!("viewer /api/gltf {}", character.name));
        group.bench_function("ossuary", |b| b.iter(|| get(&address, &target)));
        // The server's own share before it asks for the asset: finding
        // the meshes that dress the character.
        group.bench_function("meshes_of alone", |b| {
            b.iter(|| listing::meshes_of(&roots, &catalogue, character.open, &|| false))
        });
        group.finish();
    }
    running.stop();
}

/// The corpus's largest images of each kind the conversions meet, decoded
/// to RGBA as export decodes them: a retail BMP (256 x 256, 8-bit
/// indexed), a prototype PNG (64 x 64, indexed) and Star Wars Galaxies'
/// largest DDS (512 x 512 DXT5).
fn images() -> Vec<(&'static str, image::DynamicImage)> {
    let corpus = corpus();
    [
        ("retail bmp 256x256", "sims1/B001MAFitmed_relax.bmp"),
        (
            "prototype png 64x64",
            "sims1-prototype/Textures/mfemtorso.png",
        ),
        ("swg dds 512x512", "swg/texture/hum_f_body.dds"),
    ]
    .into_iter()
    .filter_map(|(name, rel)| {
        let decoded = image::ImageReader::open(corpus.join(rel))
            .ok()?
            .with_guessed_format()
            .ok()?
            .decode()
            .ok()?;
        Some((name, decoded))
    })
    .collect()
}

fn png_settings(c: &mut Criterion) {
    let images = images();
    if images.is_empty() {
        eprintln!("{WITHOUT_CORPUS}");
        return;
    }
    let settings = [
        (
            "fast adaptive (export today)",
            CompressionType::Fast,
            FilterType::Adaptive,
        ),
        (
            "default adaptive",
            CompressionType::Default,
            FilterType::Adaptive,
        ),
        (
            "fast no filter",
            CompressionType::Fast,
            FilterType::NoFilter,
        ),
        ("fast up", CompressionType::Fast, FilterType::Up),
        ("fast sub", CompressionType::Fast, FilterType::Sub),
        ("best adaptive", CompressionType::Best, FilterType::Adaptive),
    ];
    for (name, decoded) in &images {
        let mut group = c.benchmark_group(format!("png encode {name}"));
        // The slowest settings take half a second a call.
        group.sample_size(10);
        for (setting, compression, filter) in settings {
            let encode = || {
                let mut png = Vec::new();
                decoded
                    .write_with_encoder(PngEncoder::new_with_quality(&mut png, compression, filter))
                    .expect("the image encodes");
                png
            };
            eprintln!("png {name}, {setting}: {} bytes", encode().len());
            group.bench_function(setting, |b| b.iter(encode));
        }
        group.finish();
    }
}

criterion_group!(trip, convert, viewer_gltf, png_settings);
criterion_main!(trip);
