//! The animation rules (`--anim`, `--frame` from 0, `--skill`) and `check`
//! finding a difference, through the CLI run with a catalogue of its own:
//! no registered format gives animations yet, and every real format writes
//! back what it read. The test format is a whole registration, so this also
//! shows the CLI working from the catalogue alone.
//!
//! A `.rig` file is `RIG` and then one frame count per animation, e.g.
//! `RIG 3 2`: a two-joint skeleton, a one-triangle skin and animations
//! `anim0` (3 frames), `anim1` (2 frames) that lift the root by the frame
//! number in y. A file whose text contains `differ` writes back one byte
//! more than it read.

use std::any::Any;
use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use formats::catalogue::Catalogue;
use formats::files::Files;
use formats::format::{Decoded, Description, Document, Encoding, Format, JsonError, Sample};
use formats::rig::{
    self, Animation, Binding, Influence, JointMotion, Keys, Motion, Rig, RigError, RigOptions,
    Track, TrackTarget, Transform, Weights,
};
use formats::schema::{ByteOrder, Error, TypeLayout};

struct RigFile {
    bytes: Vec<u8>,
    frame_counts: Vec<usize>,
}

impl Rig for RigFile {
    fn skeleton(&self, _: &Files, _: RigOptions) -> Option<Result<rig::Skeleton, RigError>> {
        let joint = |name: &str, parent, y| rig::Joint {
            name: name.to_owned(),
            parent,
            rest: Transform::TranslationRotation {
                translation: [0.0, y, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
        };
        Some(Ok(rig::Skeleton {
            joints: vec![joint("ROOT", None, 0.0), joint("TIP", Some(0), 1.0)],
            axes: rig::Axes::RightHandedYUp,
        }))
    }

    fn skins(&self, _: &Files, _: RigOptions) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(Ok(vec![rig::Skin {
            name: "triangle".to_owned(),
            texture: None,
            morph_targets: Vec::new(),
            shared_positions: None,
            positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            normals: Vec::new(),
            uvs: Vec::new(),
            triangles: vec![[0, 1, 2]],
            binding: Binding::Weighted(Weights {
                joints: vec!["ROOT".to_owned()],
                counts: vec![1, 1, 1],
                influences: vec![
                    Influence {
                        joint: 0,
                        weight: 1.0
                    };
                    3
                ],
            }),
        }]))
    }

    fn animations(&self, _: &Files) -> Option<Result<Vec<Animation>, RigError>> {
        let animations = self
            .frame_counts
            .iter()
            .enumerate()
            .map(|(index, &frames)| Animation {
                name: format!("anim{index}"),
                times: (0..frames).map(|frame| frame as f32 / 30.0).collect(),
                end: None,
                events: Vec::new(),
                motion: Motion::Joints(JointMotion {
                    tracks: vec![Track {
                        joint: TrackTarget::Name("ROOT".to_owned()),
                        keys: Keys::Parts {
                            translations: (0..frames)
                                .map(|frame| [0.0, frame as f32, 0.0])
                                .collect(),
                            rotations: Vec::new(),
                        },
                    }],
                    depth_pattern: None,
                }),
            })
            .collect();
        Some(Ok(animations))
    }
}

impl Document for RigFile {
    fn encode(&self) -> Result<Vec<u8>, Error> {
        let mut bytes = self.bytes.clone();
        if bytes.windows(6).any(|window| window == b"differ") {
            bytes.push(b'!');
        }
        Ok(bytes)
    }

    fn to_json(&self) -> Result<String, serde_json::Error> {
        Ok("{}".to_owned())
    }

    fn describe(&self) -> Description {
        Description::default()
    }

    fn rig(&self) -> &dyn Rig {
        self
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn decode(bytes: &[u8]) -> Decoded {
    let text = String::from_utf8_lossy(bytes);
    let frame_counts = text
        .split_whitespace()
        .skip(1)
        .filter_map(|word| word.parse().ok())
        .collect();
    Ok(Box::new(RigFile {
        bytes: bytes.to_vec(),
        frame_counts,
    }))
}

static RIG_FORMAT: Format = Format {
    name: "test-rig",
    title: "Test rig",
    extensions: &["rig"],
    encoding: Encoding::Binary,
    sniff: |bytes| bytes.starts_with(b"RIG"),
    decode,
    from_json: |_| {
        Err(JsonError {
            line: 1,
            column: 1,
            path: ".".to_owned(),
            message: "not for this test".to_owned(),
        })
    },
    layout: TypeLayout {
        name: "RigFile",
        doc: "`RIG` and one frame count per animation.",
        byte_order: ByteOrder::Text,
        form: None,
        chunk: None,
        context: &[],
        chosen_by: None,
        fields: &[],
        min_size: 3,
        fixed_size: None,
    },
    samples: || {
        vec![Sample {
            file_name: "sample.rig",
            document: decode(b"RIG 3").expect("the sample decodes"),
        }]
    },
    conversions: &[],
};

static FORMATS: &[&Format] = &[&RIG_FORMAT, &formats::sims::skel::FORMAT];

/// What a run printed, and its exit status.
struct Ran {
    code: ExitCode,
    stdout: String,
    stderr: String,
}

fn ossuary(args: &[&str]) -> Ran {
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let args = std::iter::once("ossuary")
        .chain(args.iter().copied())
        .map(OsString::from);
    let code = ossuary::run(Catalogue::new(FORMATS), args, &mut stdout, &mut stderr);
    Ran {
        code,
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// The root joint's height in `joints` output.
fn root_height(ran: &Ran) -> f64 {
    let joints: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    joints[0]["position"][1].as_f64().unwrap()
}

#[test]
fn frames_count_from_0_and_default_to_0() {
    let dir = tempfile::tempdir().unwrap();
    let figure = write(dir.path(), "figure.rig", "RIG");
    let walk = write(dir.path(), "walk.rig", "RIG 3");
    let first = ossuary(&["joints", &figure, "--anim", &walk]);
    assert_eq!(first.code, ExitCode::SUCCESS, "{}", first.stderr);
    assert_eq!(root_height(&first), 0.0);
    let last = ossuary(&["joints", &figure, "--anim", &walk, "--frame", "2"]);
    assert_eq!(last.code, ExitCode::SUCCESS, "{}", last.stderr);
    assert_eq!(root_height(&last), 2.0);
}

#[test]
fn a_frame_past_the_end_is_a_usage_error_naming_the_frame_count() {
    let dir = tempfile::tempdir().unwrap();
    let figure = write(dir.path(), "figure.rig", "RIG");
    let walk = write(dir.path(), "walk.rig", "RIG 3");
    let png = dir.path().join("out.png");
    let obj = dir.path().join("out.obj");
    let (png, obj) = (png.to_str().unwrap(), obj.to_str().unwrap());
    for args in [
        vec!["joints", &figure, "--anim", &walk, "--frame", "3"],
        vec!["skin", &figure, "--anim", &walk, "--frame", "3", "-o", obj],
        vec![
            "render", &figure, "--anim", &walk, "--frame", "3", "-o", png,
        ],
    ] {
        let ran = ossuary(&args);
        assert_eq!(ran.code, ExitCode::from(2), "{args:?}");
        assert_eq!(
            ran.stderr,
            format!(
                "ossuary: --frame 3 is past the end of {walk}: its animation has 3 frame(s), counted from 0\n"
            )
        );
        assert_eq!(ran.stdout, "");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 2, "only the inputs remain");
}

#[test]
fn several_animations_need_skill() {
    let dir = tempfile::tempdir().unwrap();
    let figure = write(dir.path(), "figure.rig", "RIG");
    let moves = write(dir.path(), "moves.rig", "RIG 3 2");
    let unchosen = ossuary(&["joints", &figure, "--anim", &moves]);
    assert_eq!(unchosen.code, ExitCode::from(2));
    assert_eq!(
        unchosen.stderr,
        format!("ossuary: {moves} holds several animations; choose one with --skill NAME: anim0, anim1\n")
    );
    let unknown = ossuary(&["joints", &figure, "--anim", &moves, "--skill", "run"]);
    assert_eq!(unknown.code, ExitCode::from(2));
    assert!(unknown
        .stderr
        .contains("no animation named \"run\"; it has: anim0, anim1"));
    let chosen = ossuary(&[
        "joints", &figure, "--anim", &moves, "--skill", "anim1", "--frame", "1",
    ]);
    assert_eq!(chosen.code, ExitCode::SUCCESS, "{}", chosen.stderr);
    assert_eq!(root_height(&chosen), 1.0);
    let past = ossuary(&[
        "joints", &figure, "--anim", &moves, "--skill", "anim1", "--frame", "2",
    ]);
    assert_eq!(past.code, ExitCode::from(2));
    assert!(past.stderr.contains("has 2 frame(s)"), "{}", past.stderr);
}

#[test]
fn check_counts_a_file_that_writes_back_differently() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "same.rig", "RIG 1");
    let differs = write(dir.path(), "differs.rig", "RIG differ");
    let folder = dir.path().to_string_lossy().into_owned();
    let ran = ossuary(&["check", &folder]);
    assert_eq!(ran.code, ExitCode::from(1));
    assert_eq!(
        ran.stdout,
        format!(
            "{differs}: differs at byte 10: original end of file, re-encoded 0x21\n\
             {folder}/same.rig: ok\n\
             1 ok, 1 differ, 0 failed, 0 not supported\n"
        )
    );
    let json = ossuary(&["check", "--json", &differs]);
    assert_eq!(json.code, ExitCode::from(1));
    let first: serde_json::Value =
        serde_json::from_str(json.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["result"], "differs");
    assert_eq!(first["error"]["offset"], 10);
}
