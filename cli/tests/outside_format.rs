//! A format defined outside the family folders (here, in this test) takes
//! one module's worth of code and one registration line, and then every
//! command accepts it: `info`, `dump`, `check`, `joints`, `skin`, `render`.
//! Nothing in the CLI, the skinning crate or the renderer knows it.

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

use formats::catalogue::Catalogue;
use formats::files::Files;
use formats::format::{self, Describe, Description, Encoding, Format, Joint, Sample};
use formats::rig::{self, Axes, Influence, Rig, RigError, RigOptions, Transform, Weights};
use formats::schema::{BinarySchema, Layout, Magic, RawString};
use formats::Schema;
use serde::{Deserialize, Serialize};

/// A stick figure: joints (each an offset from its parent) and a mesh whose
/// vertices each follow one joint.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Stick {
    #[schema(magic = b"STIK")]
    #[serde(skip)]
    pub magic: Magic,
    #[schema(prefix = u8)]
    pub joints: Vec<StickJoint>,
    #[schema(prefix = u16)]
    pub vertices: Vec<StickVertex>,
    #[schema(prefix = u16)]
    pub triangles: Vec<[u16; 3]>,
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct StickJoint {
    #[schema(pascal)]
    pub name: RawString,
    /// Index of the parent joint; negative for the root.
    pub parent: i8,
    pub offset: [f32; 3],
}

#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct StickVertex {
    /// Where the rest pose puts the vertex.
    pub position: [f32; 3],
    pub joint: u8,
}

impl Describe for Stick {
    fn describe(&self) -> Description {
        Description {
            facts: vec![("joints", self.joints.len().to_string())],
            joints: self
                .joints
                .iter()
                .map(|joint| Joint {
                    name: joint.name.to_text(),
                    parent: usize::try_from(joint.parent).ok(),
                })
                .collect(),
        }
    }
}

impl Rig for Stick {
    fn skeleton(&self, _: &Files, _: RigOptions) -> Option<Result<rig::Skeleton, RigError>> {
        let joints = self
            .joints
            .iter()
            .map(|joint| rig::Joint {
                name: joint.name.to_text(),
                parent: usize::try_from(joint.parent).ok(),
                rest: Transform::TranslationRotation {
                    translation: joint.offset,
                    rotation: [0.0, 0.0, 0.0, 1.0],
                },
            })
            .collect();
        Some(Ok(rig::Skeleton {
            joints,
            axes: Axes::RightHandedYUp,
        }))
    }

    fn skins(&self, _: &Files, _: RigOptions) -> Option<Result<Vec<rig::Skin>, RigError>> {
        Some(Ok(vec![rig::Skin {
            name: "stick".to_owned(),
            texture: None,
            morph_targets: Vec::new(),
            shared_positions: None,
            positions: self.vertices.iter().map(|vertex| vertex.position).collect(),
            normals: Vec::new(),
            uvs: Vec::new(),
            triangles: self
                .triangles
                .iter()
                .map(|corners| corners.map(u32::from))
                .collect(),
            binding: rig::Binding::Weighted(Weights {
                joints: self
                    .joints
                    .iter()
                    .map(|joint| joint.name.to_text())
                    .collect(),
                counts: vec![1; self.vertices.len()],
                influences: self
                    .vertices
                    .iter()
                    .map(|vertex| Influence {
                        joint: u32::from(vertex.joint),
                        weight: 1.0,
                    })
                    .collect(),
            }),
        }]))
    }
}

/// The registration.
static STICK: Format = Format {
    name: "stick",
    title: "Stick figure",
    extensions: &["stick"],
    encoding: Encoding::Binary,
    sniff: |bytes| bytes.starts_with(b"STIK"),
    decode: format::decode_binary::<Stick>,
    from_json: format::binary_from_json::<Stick>,
    layout: Stick::LAYOUT,
    samples: || {
        vec![Sample {
            file_name: "figure.stick",
            document: format::binary_document(figure()),
        }]
    },
    conversions: &[],
};

/// The one registration line.
static CATALOGUE: &[&Format] = &[&STICK];

/// A root at height 1 with an arm 2 along x, and a triangle on the arm.
fn figure() -> Stick {
    let joint = |name: &str, parent: i8, offset: [f32; 3]| StickJoint {
        name: RawString::from(name),
        parent,
        offset,
    };
    let vertex = |position: [f32; 3], joint: u8| StickVertex { position, joint };
    Stick {
        magic: Magic,
        joints: vec![
            joint("root", -1, [0.0, 1.0, 0.0]),
            joint("arm", 0, [2.0, 0.0, 0.0]),
        ],
        vertices: vec![
            vertex([0.0, 1.0, 0.0], 0),
            vertex([2.0, 1.0, 0.0], 1),
            vertex([2.0, 2.0, 0.0], 1),
        ],
        triangles: vec![[0, 1, 2]],
    }
}

/// Runs the command line in this process with the stick catalogue.
fn ossuary(args: &[&str]) -> (ExitCode, String, String) {
    let args = std::iter::once("ossuary")
        .chain(args.iter().copied())
        .map(OsString::from);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = ossuary::run(Catalogue::new(CATALOGUE), args, &mut stdout, &mut stderr);
    (
        code,
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn every_command_accepts_a_format_registered_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = path(dir.path(), "figure.stick");
    std::fs::write(&file, figure().to_bytes().unwrap()).unwrap();

    let (code, out, err) = ossuary(&["info", &file]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(
        out.contains("Stick figure (stick)") && out.contains("└─ arm"),
        "{out}"
    );

    let (code, json, err) = ossuary(&["dump", &file]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let json_file = path(dir.path(), "figure.json");
    std::fs::write(&json_file, &json).unwrap();
    let again = path(dir.path(), "again.stick");
    let (code, _, err) = ossuary(&["encode", &json_file, "--format", "stick", "-o", &again]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&file).unwrap()
    );

    let (code, out, err) = ossuary(&["check", &file]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(out.contains("figure.stick: ok"), "{out}");

    let (code, out, err) = ossuary(&["joints", &file]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let joints: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(joints[1]["name"], "arm");
    assert_eq!(joints[1]["parent"], "root");
    assert_eq!(joints[1]["position"], serde_json::json!([2.0, 1.0, 0.0]));

    let obj = path(dir.path(), "figure.obj");
    let (code, _, err) = ossuary(&["skin", &file, "-o", &obj]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let obj = std::fs::read_to_string(&obj).unwrap();
    assert!(
        obj.contains("v 2 2 0\n") && obj.contains("f 1 2 3\n"),
        "{obj}"
    );

    let png = path(dir.path(), "figure.png");
    let (code, _, err) = ossuary(&["render", &file, "-o", &png, "--size", "200x150"]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}
