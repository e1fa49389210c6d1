//! The example files, written by hand, read to known values and
//! written back byte for byte; damaged copies fail at their line and column.

use glam::{Affine3A, Vec3};

use super::animation::{self, Animation, ExportMode, Frame, TransformSystem};
use super::structure::Structure;
use super::transform::{AngleUnits, Euler, EulerOrder, Representation, Transform};
use crate::files::Files;
use crate::format::Describe;
use crate::rig::{self, Binding, Keys, Motion, Rig, RigOptions, TrackTarget};
use crate::schema::text::TextSchema;
use crate::schema::{HasContext, RawString};

const STRUCTURE: &str = "// BonesPro structure export\n\
2\t// bones\n\
2\t// vertices\n\
<Bip01 Pelvis>\n\
*\n\
0.5 0.4 0.3\n\
1 0 0\n\
0 1 0\n\
0 0 1\n\
0 0 1\n\
1 0 0\n\
0 1 0\n\
0 0 1\n\
0 0 1\n\
<Bip01 L Thigh>   // parent: bone 0\n\
0\n\
0.2 0.2 0.6\n\
1 0 0\n\
0 0 1\n\
0 -1 0\n\
0.1 0 0.9\n\
1 0 0\n\
0 0 1\n\
0 -1 0\n\
0.1 0 0.9\n\
0.1 0 0.5\n\
2\n\
1 0.75\n\
0 0.25\n\
0 0 1.2\n\
1\n\
0 1.0\n";

const ANIMATION: &str = "2\n\
2\n\
1\n\
\"Bones\"\n\
\"Relative to parent\"\n\
\"Euler Angles\"\n\
\"ZXZ\"\n\
\"Degrees\"\n\
0\n\
0\n\
1\n\
0.5 0.4 0.3\n\
0 0 0\n\
0 0 1\n\
0 0 0\n\
0 0 1\n\
0.2 0.2 0.6\n\
-90 0 0\n\
0.1 0 -0.1\n\
-90 0 0\n\
0.1 0 -0.1\n";

#[test]
fn the_structure_example_reads_and_comes_back_byte_for_byte() {
    let structure = Structure::from_text(STRUCTURE.as_bytes()).unwrap();
    assert_eq!(structure.bones[1].name, RawString::from("Bip01 L Thigh"));
    assert_eq!(structure.bones[0].parent, None);
    assert_eq!(structure.bones[1].parent, Some(0));
    assert_eq!(structure.bones[1].bone_transform.z_axis, [0.0, -1.0, 0.0]);
    assert_eq!(structure.vertices[0].influences.len(), 2);
    assert_eq!(structure.vertices[1].influences[0].weight, 1.0);
    assert_eq!(
        String::from_utf8(structure.to_text().unwrap()).unwrap(),
        STRUCTURE
    );
}

/// The specification does not fix where a vertex's `bone weight` pairs
/// break lines: all on one line, broken inside a pair, several lines of
/// several pairs, with comments and odd spacing; each reads to the same
/// influences and comes back as it was.
#[test]
fn influence_pairs_read_with_any_whitespace_and_come_back_as_read() {
    let pairs = "2\n1 0.75\n0 0.25\n";
    for spelled in [
        "2\n1 0.75 0 0.25\n",
        "2\n1\n0.75 0\n0.25\n",
        "2\n1  0.75\t0 // both pairs\n 0.25\n",
        "2\n1 0.75\n0 0.25\n",
    ] {
        let text = STRUCTURE.replacen(pairs, spelled, 1);
        let structure =
            Structure::from_text(text.as_bytes()).unwrap_or_else(|e| panic!("{spelled:?}: {e}"));
        let influences = &structure.vertices[0].influences;
        assert_eq!(
            influences
                .iter()
                .map(|influence| (influence.bone, influence.weight))
                .collect::<Vec<_>>(),
            [(1, 0.75), (0, 0.25)],
            "{spelled:?}"
        );
        assert_eq!(structure.vertices[1].position, [0.0, 0.0, 1.2]);
        assert_eq!(
            String::from_utf8(structure.to_text().unwrap()).unwrap(),
            text,
            "{spelled:?}"
        );
    }
}

/// Pairs the file put on one line stay on one line when a value changes;
/// a vertex given more pairs than the file had writes the extra ones a
/// line each.
#[test]
fn edited_influences_keep_the_files_line_breaks() {
    let text = STRUCTURE.replacen("2\n1 0.75\n0 0.25\n", "2\n1 0.75 0 0.25\n", 1);
    let mut structure = Structure::from_text(text.as_bytes()).unwrap();
    structure.vertices[0].influences[1].weight = 0.5;
    let written = String::from_utf8(structure.to_text().unwrap()).unwrap();
    assert!(
        written.contains("\n2\n1 0.75 0 0.5\n0 0 1.2\n"),
        "{written}"
    );
}

#[test]
fn the_animation_example_reads_and_comes_back_byte_for_byte() {
    let animation = Animation::from_text(ANIMATION.as_bytes()).unwrap();
    assert_eq!(animation.mode, ExportMode::Bones);
    assert_eq!(animation.system, TransformSystem::RelativeToParent);
    assert_eq!(animation.representation, Representation::EulerAngles);
    assert_eq!(animation.order, EulerOrder::Zxz);
    assert_eq!(animation.units, AngleUnits::Degrees);
    let Frame::Bones(frame) = &animation.frames[0] else {
        panic!("a Bones frame");
    };
    assert!(matches!(
        frame.bones[1].bone_transform,
        Transform::Euler(euler) if euler.angles == [-90.0, 0.0, 0.0]
    ));
    assert_eq!(
        String::from_utf8(animation.to_text().unwrap()).unwrap(),
        ANIMATION
    );
}

/// The error reading `golden` with `from` replaced by `to` gives.
fn error_of<T: TextSchema + HasContext<TextContext = ()> + std::fmt::Debug>(
    golden: &str,
    from: &str,
    to: &str,
) -> String {
    assert!(golden.contains(from), "{from}");
    T::from_text(golden.replacen(from, to, 1).as_bytes())
        .unwrap_err()
        .to_string()
}

#[test]
fn damaged_structures_name_line_column_and_field() {
    let thigh_parent = "// parent: bone 0\n0\n";
    for (from, to, expected) in [
        (
            thigh_parent,
            "// parent: bone 0\n2\n",
            "line 15:1: bones[1]: parent 2 is not one of the 2 bones (0 to 1)",
        ),
        (
            thigh_parent,
            "// parent: bone 0\n1\n",
            "line 15:1: bones[1]: its parents loop back to it: bones 1 -> 1",
        ),
        (
            "*\n",
            "1\n",
            "line 4:1: bones[0]: its parents loop back to it: bones 0 -> 1 -> 0",
        ),
        (
            "1 0.75",
            "5 0.75",
            "line 26:1: vertices[0]: influence 0 names bone 5, but there are 2 bones",
        ),
        (
            "0 0.25",
            "0 1.#QNAN",
            "line 29:3: vertices[0].influences[1].weight: weight NaN is not a finite number",
        ),
        (
            "2\t// vertices",
            "9\t// vertices",
            "line 26:1: vertices: count 9 needs at least 18 more lines but only 7 remain",
        ),
        (
            "<Bip01 L Thigh>",
            "Bip01 L Thigh",
            "line 15:1: bones[1].name: expected a `<name>`, found `Bip01`",
        ),
    ] {
        assert_eq!(
            error_of::<Structure>(STRUCTURE, from, to),
            expected,
            "{to:?}"
        );
    }
}

#[test]
fn damaged_animations_name_line_column_and_field() {
    let range = "0\n0\n1\n0.5";
    for (from, to, expected) in [
        (
            range,
            "0\n4\n1\n0.5",
            "line 11:1: step: frames 0 to 4 by 1 make 5, but the frame count is 1",
        ),
        (
            range,
            "0\n0\n0\n0.5",
            "line 11:1: step: step 0 is not at least 1",
        ),
        (
            range,
            "3\n0\n1\n0.5",
            "line 11:1: step: the last frame 0 comes before the first frame 3",
        ),
        (
            "\"Degrees\"",
            "\"Gradians\"",
            "line 8:1: units: expected one of `Degrees`, `Radians`, found `\"Gradians\"`",
        ),
    ] {
        assert_eq!(
            error_of::<Animation>(ANIMATION, from, to),
            expected,
            "{to:?}"
        );
    }
}

#[test]
fn bone_space_frames_name_bones_and_vertices_that_exist() {
    let text = "1\n2\n1\nMesh (bones c.s)\nAbsolute\nMatrix\nXYZ\nDegrees\n0\n0\n1\n\
                0 2\n0 1 2 3\n1 4 5 6\n";
    let animation = Animation::from_text(text.as_bytes()).unwrap();
    let Frame::MeshBonesCs(frame) = &animation.frames[0] else {
        panic!("a bones c.s frame");
    };
    assert_eq!(frame.bones[0].vertices[1].position, [4.0, 5.0, 6.0]);
    assert_eq!(animation.to_text().unwrap(), text.as_bytes());
    let error = |from: &str, to: &str| {
        Animation::from_text(text.replacen(from, to, 1).as_bytes())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error("0 2\n", "3 2\n"),
        "line 12:1: frames[0].MeshBonesCs.bones[0].bone: bone 3 is not one of the 1 bones"
    );
    assert_eq!(
        error("1 4 5 6", "2 4 5 6"),
        "line 14:1: frames[0].MeshBonesCs.bones[0].vertices[1]: vertex 2 is not one of the 2 \
         vertices"
    );
}

/// Where a transform takes a vector (no translation).
fn turns(transform: &Affine3A, from: Vec3, to: Vec3) -> bool {
    transform.transform_vector3(from).abs_diff_eq(to, 1e-6)
}

#[test]
fn euler_angles_turn_about_the_first_axis_first_by_the_right_hand() {
    let euler = |angles: [f32; 3], order, units| {
        Euler {
            angles,
            translation: [0.0; 3],
        }
        .to_affine(order, units)
    };
    // By hand from R_X(90) = rows (1 0 0), (0 0 1), (0 -1 0): y goes to z.
    let x = euler([90.0, 0.0, 0.0], EulerOrder::Xyz, AngleUnits::Degrees);
    assert!(turns(&x, Vec3::Y, Vec3::Z));
    // XYZ (90, 90, 0): y to z about x, then z to x about y.
    let xy = euler([90.0, 90.0, 0.0], EulerOrder::Xyz, AngleUnits::Degrees);
    assert!(turns(&xy, Vec3::Y, Vec3::X));
    // ZXZ in radians (pi/2, pi/2, 0): x to y about z, then y to z about x.
    let half_pi = std::f32::consts::FRAC_PI_2;
    let zx = euler(
        [half_pi, half_pi, 0.0],
        EulerOrder::Zxz,
        AngleUnits::Radians,
    );
    assert!(turns(&zx, Vec3::X, Vec3::Z));
    // The order's repeated axis turns again: XYX (0, 90, 90) takes z to x
    // about y, then x stays on x.
    let yx = euler([0.0, 90.0, 90.0], EulerOrder::Xyx, AngleUnits::Degrees);
    assert!(turns(&yx, Vec3::Z, Vec3::X));
}

#[test]
fn the_structure_gives_a_skeleton_of_local_transforms_and_a_weighted_mesh() {
    let structure = Structure::from_text(STRUCTURE.as_bytes()).unwrap();
    let files = Files::nowhere();
    let skeleton = structure
        .skeleton(&files, RigOptions::default())
        .unwrap()
        .unwrap();
    assert_eq!(skeleton.axes, rig::Axes::RightHandedZUp);
    assert_eq!(skeleton.joints[1].name, "Bip01 L Thigh");
    assert_eq!(skeleton.joints[1].parent, Some(0));
    let rig::Transform::Matrix(columns) = skeleton.joints[1].rest else {
        panic!("a matrix");
    };
    let local = Affine3A::from_mat4(glam::Mat4::from_cols_array_2d(&columns));
    // The thigh's world transform is R_X(90) at (0.1, 0, 0.9); the pelvis
    // is at (0, 0, 1) unturned: relative to it, the thigh is at
    // (0.1, 0, -0.1), and turns y to z.
    assert!(Vec3::from(local.translation).abs_diff_eq(Vec3::new(0.1, 0.0, -0.1), 1e-6));
    assert!(turns(&local, Vec3::Y, Vec3::Z));

    let skins = structure
        .skins(&files, RigOptions::default())
        .unwrap()
        .unwrap();
    let Binding::Weighted(weights) = &skins[0].binding else {
        panic!("weighted");
    };
    assert_eq!(skins[0].positions, [[0.1, 0.0, 0.5], [0.0, 0.0, 1.2]]);
    assert_eq!(weights.joints, ["Bip01 Pelvis", "Bip01 L Thigh"]);
    assert_eq!(weights.counts, [2, 1]);
    let pairs: Vec<(u32, f32)> = weights
        .influences
        .iter()
        .map(|influence| (influence.joint, influence.weight))
        .collect();
    assert_eq!(pairs, [(1, 0.75), (0, 0.25), (0, 1.0)]);
}

#[test]
fn an_influence_on_a_bone_named_like_an_earlier_one_cannot_be_bound() {
    let mut structure = Structure::from_text(STRUCTURE.as_bytes()).unwrap();
    structure.bones[1].name = RawString::from("Bip01 Pelvis");
    assert_eq!(
        structure.skin().unwrap_err().to_string(),
        "vertices[0].influences[0].bone: bone 1 has the name of bone 0 (\"Bip01 Pelvis\"), and \
         the mesh finds its bones by name"
    );
}

#[test]
fn the_animation_gives_relative_bones_absolute_bones_vertices_or_what_it_needs() {
    let mut animation = Animation::from_text(ANIMATION.as_bytes()).unwrap();
    let motion = |animation: &Animation| {
        let mut animations = animation.animations(&Files::nowhere()).unwrap().unwrap();
        assert_eq!(animations.len(), 1);
        animations.remove(0)
    };
    let relative = motion(&animation);
    assert_eq!(relative.times, [0.0]);
    let Motion::Joints(joints) = &relative.motion else {
        panic!("joints");
    };
    assert_eq!(joints.tracks[1].joint, TrackTarget::Index(1));
    let Keys::Transforms(transforms) = &joints.tracks[1].keys else {
        panic!("local transforms");
    };
    let rig::Transform::Matrix(columns) = transforms[0] else {
        panic!("a matrix");
    };
    let thigh = Affine3A::from_mat4(glam::Mat4::from_cols_array_2d(&columns));
    // ZXZ (-90, 0, 0) degrees: a quarter turn about z, x to -y.
    assert!(turns(&thigh, Vec3::X, Vec3::NEG_Y));
    assert!(Vec3::from(thigh.translation).abs_diff_eq(Vec3::new(0.1, 0.0, -0.1), 1e-6));

    animation.system = TransformSystem::Absolute;
    let Motion::Joints(joints) = motion(&animation).motion else {
        panic!("joints");
    };
    assert!(matches!(joints.tracks[1].keys, Keys::ModelTransforms(_)));

    animation.mode = ExportMode::MeshBonesCs;
    assert_eq!(
        motion(&animation).motion,
        Motion::Incomplete {
            needs: "a `Bones` animation of the same frames (the bone transforms its vertices \
                    are given in)"
                .to_owned()
        }
    );
    // A frame the mode does not describe cannot pose.
    animation.mode = ExportMode::MeshAbsolute;
    assert_eq!(
        animation
            .animations(&Files::nowhere())
            .unwrap()
            .unwrap_err()
            .to_string(),
        "frames[0]: the mode is `Mesh (absolute)`, but the frame is not"
    );
}

#[test]
fn a_bone_count_without_frames_makes_no_tracks() {
    // No file has no frames (the span makes at least one); a value may.
    let mut animation = Animation::from_text(ANIMATION.as_bytes()).unwrap();
    animation.bone_count = 4_000_000_000;
    animation.frames.clear();
    let animations = animation.animations(&Files::nowhere()).unwrap().unwrap();
    let Motion::Joints(joints) = &animations[0].motion else {
        panic!("joints");
    };
    assert!(joints.tracks.is_empty());
}

#[test]
fn frames_play_at_thirty_per_second_from_the_first_exported() {
    assert_eq!(animation::frames_in_span(10, 25, 5), Some(4));
    assert_eq!(animation::frames_in_span(0, 9, 5), Some(2));
    assert_eq!(animation::frames_in_span(5, 4, 1), None);
    assert_eq!(animation::frames_in_span(0, 4, 0), None);
    let mut animation = Animation::from_text(ANIMATION.as_bytes()).unwrap();
    animation.step = 15;
    animation.frames.push(animation.frames[0].clone());
    let animations = animation.animations(&Files::nowhere()).unwrap().unwrap();
    assert_eq!(animations[0].times, [0.0, 0.5]);
}

#[test]
fn descriptions_show_the_tree_and_the_header() {
    let structure = Structure::from_text(STRUCTURE.as_bytes())
        .unwrap()
        .describe();
    assert_eq!(
        structure.facts,
        [
            ("bones", "2".to_owned()),
            ("vertices", "2".to_owned()),
            ("influences", "3".to_owned())
        ]
    );
    assert_eq!(structure.joints[1].parent, Some(0));
    let animation = Animation::from_text(ANIMATION.as_bytes())
        .unwrap()
        .describe();
    let fact = |label: &str| {
        animation
            .facts
            .iter()
            .find(|(name, _)| *name == label)
            .map(|(_, value)| value.clone())
    };
    assert_eq!(fact("mode").as_deref(), Some("Bones"));
    assert_eq!(fact("system").as_deref(), Some("Relative to parent"));
    assert_eq!(fact("order").as_deref(), Some("ZXZ"));
}

#[test]
fn each_format_knows_its_own_files() {
    let structure = super::STRUCTURE.sniff;
    let animation = super::ANIMATION.sniff;
    assert!(structure(STRUCTURE.as_bytes()));
    assert!(!structure(ANIMATION.as_bytes()));
    assert!(animation(ANIMATION.as_bytes()));
    assert!(!animation(STRUCTURE.as_bytes()));
    // A misspelt mode still shows an animation, to be told what is wrong.
    assert!(animation(ANIMATION.replace("Bones", "Bonez").as_bytes()));
}
