//! Input made by an attacker, around the readers: names that would lead
//! outside `-o`, special files in folders, messages that would echo the
//! input, group writes that fail half-way, images that claim huge sizes,
//! meshes that are not numbers.

mod support;

use std::path::Path;
use std::process::Command;

use support::{assert_status, files_below, fixture, fixture_bytes, ossuary, stderr, stdout, text};

/// The prototype sample character with its one skin and its one skill's
/// keys named `skin` and `animation` in the file, its mesh and its keys
/// beside it under the names a reader finds for them (the last part of
/// each).
fn character(dir: &Path, skin: &str, animation: &str) -> String {
    character_with_skill(dir, skin, "humanoid-wave", animation)
}

/// [`character`], its skill named `skill`.
fn character_with_skill(dir: &Path, skin: &str, skill: &str, animation: &str) -> String {
    let cmx = String::from_utf8(fixture_bytes("humanoid-prototype.cmx"))
        .unwrap()
        .replace("xskin-humanoid-L_ARM-ARM", skin)
        .replace("xskill-humanoid-wave", animation)
        .replace("\r\nhumanoid-wave\r\n", &format!("\r\n{skill}\r\n"));
    std::fs::write(
        dir.join("xskin-humanoid_proto-L_ARM-ARM.msh"),
        fixture_bytes("xskin-humanoid_proto-L_ARM-ARM.msh"),
    )
    .unwrap();
    std::fs::write(
        dir.join("xskill-humanoid-wave.bin"),
        fixture_bytes("xskill-humanoid-wave.bin"),
    )
    .unwrap();
    support::write(dir, "character.cmx", cmx.as_bytes())
}

#[test]
fn names_inside_a_character_never_lead_outside_the_output_folder() {
    let outside = tempfile::tempdir().unwrap();
    let target = text(&outside.path().join("xskin-humanoid_proto-L_ARM-ARM"));
    let skill = || "humanoid-wave".to_owned();
    let keys = || "xskill-humanoid-wave".to_owned();
    let proto_skin = || "xskin-humanoid_proto-L_ARM-ARM".to_owned();
    let routes = [
        ("absolute", target.clone(), skill(), keys()),
        (
            "climbing",
            format!("../../../../../../../../{}", proto_skin()),
            skill(),
            keys(),
        ),
        (
            "backslashes",
            format!("..\\..\\{}", proto_skin()),
            skill(),
            keys(),
        ),
        (
            "a skill's keys climbing",
            proto_skin(),
            skill(),
            format!("../{}", keys()),
        ),
        // The keys' file is named after the skill's released name.
        (
            "a skill's name climbing",
            proto_skin(),
            "adult-../../../escape".to_owned(),
            keys(),
        ),
        ("a NUL", format!("{}\0", proto_skin()), skill(), keys()),
        ("only dots", "..".to_owned(), skill(), "...".to_owned()),
        (
            "a character Windows refuses",
            format!("{}|x", proto_skin()),
            skill(),
            keys(),
        ),
    ];
    for (route, skin, skill, animation) in routes {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("a/b/c");
        std::fs::create_dir_all(&work).unwrap();
        let input = character_with_skill(&work, &skin, &skill, &animation);
        let out = work.join("out");
        let output = ossuary(&["convert", &input, "--to", "sims-cmx", "-o", &text(&out)]);
        let said = stderr(&output);
        let mut everything = files_below(dir.path());
        everything.retain(|path| !path.starts_with("a/b/c/out"));
        everything.sort();
        assert_eq!(
            everything,
            [
                "a/b/c/character.cmx",
                "a/b/c/xskill-humanoid-wave.bin",
                "a/b/c/xskin-humanoid_proto-L_ARM-ARM.msh"
            ]
            .map(std::path::PathBuf::from),
            "{route}: {said}"
        );
        assert!(files_below(outside.path()).is_empty(), "{route}: {said}");
        match output.status.code() {
            // Found, and refused by name, before anything is written.
            Some(1) => {
                assert!(said.contains("is not a plain file name"), "{route}: {said}");
                assert!(!out.exists(), "{route}: {said}");
            }
            // Not found under a name a reader allows: left as it is, said.
            Some(0) => assert!(said.contains("warning"), "{route}: {said}"),
            other => panic!("{route}: exit {other:?}: {said}"),
        }
        assert!(!said.contains('\0'), "{route}: {said:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_link_inside_the_output_folder_is_not_followed_out_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let glb = text(&dir.path().join("humanoid.glb"));
    assert_status(
        &ossuary(&["convert", &fixture("humanoid.sat"), "-o", &glb]),
        0,
    );
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    // A link in the place of a folder the files go into, at either depth.
    for linked in ["appearance", "appearance/mesh"] {
        let out = dir.path().join(format!("out-{}", linked.replace('/', "-")));
        let link = out.join(linked);
        std::fs::create_dir_all(link.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let output = ossuary(&["convert", &glb, "--to", "swg-sat", "-o", &text(&out)]);
        assert_status(&output, 1);
        let said = stderr(&output);
        assert!(said.contains(&text(&link)), "{said}");
        assert!(
            said.contains("links inside the output folder are not followed"),
            "{said}"
        );
        assert!(files_below(&outside).is_empty(), "{linked}: {said}");
    }
    // Converting a folder into a folder: the mirrored tree's folders too.
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::copy(fixture("humanoid.cmx"), input.join("sub/humanoid.cmx")).unwrap();
    let out = dir.path().join("mirrored");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&outside, out.join("sub")).unwrap();
    let output = ossuary(&[
        "convert",
        &text(&input),
        "--to",
        "sims-bcf",
        "-o",
        &text(&out),
    ]);
    assert_status(&output, 1);
    assert!(stdout(&output).contains("links inside the output folder are not followed"));
    assert!(files_below(&outside).is_empty());
    // The folder -o names may itself be a link: it is the user's to name.
    let named = dir.path().join("named");
    std::os::unix::fs::symlink(&outside, &named).unwrap();
    let output = ossuary(&["convert", &glb, "--to", "swg-sat", "-o", &text(&named)]);
    assert_status(&output, 0);
    assert!(!files_below(&outside).is_empty());
}

/// The longest run of `x` in `said`.
fn longest_run_of_x(said: &str) -> usize {
    said.split(|c| c != 'x').map(str::len).max().unwrap_or(0)
}

/// What a command said, on both outputs, checked to quote no run of more
/// than 60 characters of the long name and to stay short.
fn assert_quotes_briefly(output: &std::process::Output, what: &str) {
    let said = format!("{}{}", stdout(output), stderr(output));
    assert!(longest_run_of_x(&said) <= 60, "{what}: {}", said.len());
    assert!(said.len() < 8_000, "{what}: {} bytes", said.len());
}

#[test]
fn a_name_of_a_megabyte_is_quoted_in_sixty_characters_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(1 << 20);
    // A Star Wars Galaxies mesh whose first shader is named by a megabyte,
    // beside the skeleton it names, as the game's tree has them.
    let skeleton = dir.path().join("appearance/skeleton/humanoid.skt");
    std::fs::create_dir_all(skeleton.parent().unwrap()).unwrap();
    std::fs::copy(fixture("humanoid.skt"), &skeleton).unwrap();
    let dumped = ossuary(&["dump", &fixture("humanoid.mgn")]);
    let mut json: serde_json::Value = serde_json::from_slice(&dumped.stdout).unwrap();
    json["version"]["v4"]["shader_groups"][0]["shader"] = format!("shader/{long}.sht").into();
    let json_path = support::write(dir.path(), "long.json", json.to_string().as_bytes());
    let mesh = text(&dir.path().join("appearance/mesh/long.mgn"));
    std::fs::create_dir_all(dir.path().join("appearance/mesh")).unwrap();
    assert_status(
        &ossuary(&["encode", &json_path, "--format", "swg-mgn", "-o", &mesh]),
        0,
    );
    let glb = text(&dir.path().join("long.glb"));
    let png = text(&dir.path().join("long.png"));
    let folder = text(&dir.path().join("appearance"));
    for args in [
        vec!["info", &mesh],
        vec!["info", &mesh, "--json"],
        vec!["check", &folder],
        vec!["render", &mesh, "-o", &png],
        vec!["convert", &mesh, "-o", &glb],
    ] {
        let output = ossuary(&args);
        assert!(
            output.status.code().is_some_and(|code| code <= 1),
            "{args:?}"
        );
        assert_quotes_briefly(&output, &format!("{args:?}"));
    }
    // A glTF mesh named by a megabyte, which names the skin file written
    // (too long a name for any file system), and a joint named so.
    let gltf = dir.path().join("h.gltf");
    assert_status(
        &ossuary(&["convert", &fixture("humanoid.cmx"), "-o", &text(&gltf)]),
        0,
    );
    let original: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&gltf).unwrap()).unwrap();
    type Edit<'a> = &'a dyn Fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 2] = [
        ("mesh", &|json| {
            // Without the files and names carried: the name is the mesh's.
            json["scenes"][0]["extras"] = serde_json::Value::Null;
            json["meshes"][0]["extras"] = serde_json::Value::Null;
            json["meshes"][0]["name"] = format!("m{long}").into();
        }),
        ("joint", &|json| {
            json["nodes"][1]["name"] = long.clone().into()
        }),
    ];
    for (what, edit) in edits {
        let mut json = original.clone();
        edit(&mut json);
        let edited = support::write(dir.path(), "edited.gltf", json.to_string().as_bytes());
        let out = text(&dir.path().join(format!("out-{what}")));
        let output = ossuary(&[
            "convert",
            &edited,
            "--to",
            "sims-cmx",
            "--skeleton",
            &fixture("humanoid.cmx"),
            "-o",
            &out,
        ]);
        assert_status(&output, 1);
        assert_quotes_briefly(&output, what);
    }
}

/// A `.gltf` whose buffer is a named pipe beside it: refused before it is
/// opened (opening would wait for a writer that never comes).
#[cfg(unix)]
#[test]
fn a_gltf_buffer_that_is_a_named_pipe_is_refused_not_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let exported = dir.path().join("h.gltf");
    assert_status(
        &ossuary(&["convert", &fixture("humanoid.cmx"), "-o", &text(&exported)]),
        0,
    );
    let (mut json, _) = support::gltf_parts(&exported);
    json["buffers"][0]["uri"] = "buffer.bin".into();
    std::fs::write(dir.path().join("piped.gltf"), json.to_string()).unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.path().join("buffer.bin"))
        .status()
        .unwrap();
    assert!(made.success());
    let skeleton = fixture("humanoid.cmx");
    let output = support::within(
        30,
        dir.path(),
        &[
            "convert",
            "piped.gltf",
            "--to",
            "sims-cmx",
            "--skeleton",
            &skeleton,
            "-o",
            "out",
        ],
    );
    assert_status(&output, 1);
    assert!(stderr(&output).contains("buffer"), "{}", stderr(&output));
    assert!(!dir.path().join("out").exists());
}

#[cfg(unix)]
#[test]
fn special_files_in_a_folder_are_not_supported_and_hold_nothing_up() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("d");
    std::fs::create_dir(&folder).unwrap();
    for fifo in ["x.msh", "no-extension", "y.cmx"] {
        let made = Command::new("mkfifo")
            .arg(folder.join(fifo))
            .status()
            .unwrap();
        assert!(made.success());
    }
    std::os::unix::net::UnixListener::bind(folder.join("z.skn")).unwrap();
    std::fs::copy(fixture("humanoid.skel"), folder.join("humanoid.skel")).unwrap();
    let out = text(&dir.path().join("out"));
    for args in [
        vec!["check", "d"],
        vec!["info", "d"],
        vec!["convert", "d", "--to", "sims-bcf", "-o", &out],
    ] {
        let output = support::within(20, dir.path(), &args);
        let said = stdout(&output);
        assert_eq!(
            said.matches("not supported: a named pipe").count(),
            3,
            "{args:?}: {said}"
        );
        assert_eq!(
            said.matches("not supported: a socket").count(),
            1,
            "{args:?}: {said}"
        );
    }
}

#[test]
fn a_gigantic_line_is_quoted_as_a_short_escaped_line() {
    let dir = tempfile::tempdir().unwrap();
    let nuls = vec![0u8; 64 << 20];
    let output = support::ossuary_fed(dir.path(), &["check", "--format", "sims-cmx", "-"], &nuls);
    assert_status(&output, 1);
    let said = format!("{}{}", stdout(&output), stderr(&output));
    assert!(said.len() < 200, "{} bytes: {}", said.len(), &said[..200]);
    assert!(said.contains("\\0\\0\\0"), "{said}");
    assert!(!said.contains('\0'), "{said:?}");
}

#[test]
fn terminal_escapes_in_a_file_reach_the_terminal_inert() {
    let dir = tempfile::tempdir().unwrap();
    let attack = "\x1b]0;owned\x07\x1b[2J";
    let bad_line = format!("// x\r\nversion 300\r\n{attack}\r\n");
    let bad = support::write(dir.path(), "e.cmx", bad_line.as_bytes());
    // A bone named with the escapes, in a file that reads.
    let named = String::from_utf8(fixture_bytes("humanoid.cmx"))
        .unwrap()
        .replace("\r\nROOT\r\n", &format!("\r\nROOT{attack}\r\n"));
    let good = support::write(dir.path(), "named.cmx", named.as_bytes());
    for args in [
        vec!["info", bad.as_str()],
        vec!["check", bad.as_str()],
        vec!["info", good.as_str()],
        vec!["joints", good.as_str()],
    ] {
        let output = ossuary(&args);
        let said = format!("{}{}", stdout(&output), stderr(&output));
        assert!(
            !said.contains('\x1b') && !said.contains('\x07'),
            "{args:?}: {said:?}"
        );
        // Escaped by ossuary in text, by JSON in JSON.
        assert!(
            said.contains("\\x1b]0;owned") || said.contains("\\u001b]0;owned"),
            "{args:?}: {said}"
        );
    }
}

#[test]
fn a_failed_group_write_leaves_every_old_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let input = character(
        dir.path(),
        "xskin-humanoid_proto-L_ARM-ARM",
        "xskill-humanoid-wave",
    );
    let out = dir.path().join("g");
    // The character file and the keys (named as released skills name
    // theirs) can be written; the skin cannot,
    // for a folder holds its name.
    std::fs::create_dir_all(out.join("xskin-humanoid_proto-L_ARM-ARM.skn")).unwrap();
    std::fs::write(
        out.join("xskin-humanoid_proto-L_ARM-ARM.skn/f"),
        "in the way",
    )
    .unwrap();
    std::fs::write(out.join("character.cmx"), "OLD").unwrap();
    std::fs::write(out.join("xskill-A2O-humanoid-wave.cfp"), "OLD KEYS").unwrap();
    let before = files_below(&out);
    let output = ossuary(&["convert", &input, "--to", "sims-cmx", "-o", &text(&out)]);
    assert_status(&output, 1);
    assert_eq!(files_below(&out), before, "{}", stderr(&output));
    assert_eq!(std::fs::read(out.join("character.cmx")).unwrap(), b"OLD");
    assert_eq!(
        std::fs::read(out.join("xskill-A2O-humanoid-wave.cfp")).unwrap(),
        b"OLD KEYS"
    );

    // With the way clear, the group replaces the old files.
    std::fs::remove_dir_all(out.join("xskin-humanoid_proto-L_ARM-ARM.skn")).unwrap();
    let output = ossuary(&["convert", &input, "--to", "sims-cmx", "-o", &text(&out)]);
    assert_status(&output, 0);
    assert_ne!(std::fs::read(out.join("character.cmx")).unwrap(), b"OLD");
    assert_eq!(
        files_below(&out),
        [
            "character.cmx",
            "xskill-A2O-humanoid-wave.cfp",
            "xskin-humanoid_proto-L_ARM-ARM.skn"
        ]
        .map(std::path::PathBuf::from)
    );
}

/// A PNG whose header claims `width` x `height` pixels, with one byte of
/// (broken) image data: its size is all a reader may look at.
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut crc_input = kind.to_vec();
        crc_input.extend_from_slice(data);
        let mut bytes = (data.len() as u32).to_be_bytes().to_vec();
        bytes.extend_from_slice(&crc_input);
        bytes.extend_from_slice(&crc32(&crc_input).to_be_bytes());
        bytes
    }
    let mut header = width.to_be_bytes().to_vec();
    header.extend_from_slice(&height.to_be_bytes());
    // 8 bits a channel, RGBA, deflate, no filter, not interlaced.
    header.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &header));
    png.extend(chunk(b"IDAT", &[0x78]));
    png.extend(chunk(b"IEND", &[]));
    png
}

/// PNG's CRC-32 (the polynomial 0xEDB88320, bit by bit).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn an_image_claiming_a_huge_size_is_refused_before_it_is_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let input = character(
        dir.path(),
        "xskin-humanoid_proto-L_ARM-ARM",
        "xskill-humanoid-wave",
    );
    let texture = String::from_utf8_lossy(&fixture_bytes("xskin-humanoid_proto-L_ARM-ARM.msh"))
        .rsplit('\0')
        .next()
        .unwrap()
        .to_owned();
    support::write(
        dir.path(),
        &format!("Textures/{texture}.png"),
        &png_claiming(12_000, 11_000),
    );
    let out = text(&dir.path().join("c.glb"));
    let output = ossuary(&["convert", &input, "-o", &out]);
    assert_status(&output, 1);
    let said = stderr(&output);
    assert!(said.contains("12000 x 11000 pixels"), "{said}");
    assert!(said.contains("at most 4096 x 4096"), "{said}");
}

#[test]
fn a_mesh_whose_positions_are_not_numbers_makes_no_asset() {
    let dir = tempfile::tempdir().unwrap();
    let input = character(
        dir.path(),
        "xskin-humanoid_proto-L_ARM-ARM",
        "xskill-humanoid-wave",
    );
    let mesh = dir.path().join("xskin-humanoid_proto-L_ARM-ARM.msh");
    let mut bytes = std::fs::read(&mesh).unwrap();
    // The magic, the positions' count and stride, then the first x.
    bytes.splice(12..16, f32::NAN.to_le_bytes());
    std::fs::write(&mesh, bytes).unwrap();
    for out in ["c.glb", "c.gltf"] {
        let out = text(&dir.path().join(out));
        let output = ossuary(&["convert", &input, "-o", &out]);
        assert_status(&output, 1);
        assert!(stderr(&output).contains("vertex 0's position is not a finite number"));
        assert!(!Path::new(&out).exists());
    }
}

#[cfg(target_os = "linux")]
#[test]
fn writing_to_a_closed_standard_output_is_an_error() {
    let output = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" dump \"$1\" >&-")
        .arg(env!("CARGO_BIN_EXE_ossuary"))
        .arg(fixture("humanoid.skel"))
        .output()
        .unwrap();
    assert_status(&output, 1);
    assert!(stderr(&output).contains("standard output is closed"));
    // `>/dev/null` is a place to write to, not a closed output.
    let output = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" dump \"$1\" >/dev/null")
        .arg(env!("CARGO_BIN_EXE_ossuary"))
        .arg(fixture("humanoid.skel"))
        .output()
        .unwrap();
    assert_status(&output, 0);
}
