//! Running the `ossuary` binary as a person does, and reading what it left.

#![allow(dead_code)] // each test binary uses part of it

pub mod objects;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The binary, run from `dir` (a test's own folder, so that a stray file
/// named `-` or a temporary would show there).
pub fn command(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ossuary"));
    command.current_dir(dir);
    command
}

/// Runs the binary with `args` and no standard input.
pub fn ossuary(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ossuary"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ossuary")
}

/// Runs the binary in `dir` with `input` on standard input.
pub fn ossuary_fed(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = command(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ossuary");
    let mut stdin = child.stdin.take().expect("a standard input");
    // A command that stops early (a usage error) leaves its input unread.
    if let Err(error) = stdin.write_all(input) {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    drop(stdin);
    child.wait_with_output().expect("wait for ossuary")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts the exit status, showing what the command said when it differs.
pub fn assert_status(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(output),
        stderr(output)
    );
}

/// Writes a file into `dir` and returns its path as a string.
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// A sample file the project ships (`tests/fixtures`).
pub fn fixture(name: &str) -> String {
    tests::fixtures_dir()
        .join(name)
        .to_string_lossy()
        .into_owned()
}

pub fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(tests::fixtures_dir().join(name)).unwrap()
}

/// Every file below `dir`, hidden ones too, relative to it and sorted: what
/// a command left behind.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// The lines of standard output, each parsed as JSON.
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("{line:?}: {error}")))
        .collect()
}

/// Deterministic pseudo-random numbers (xorshift), so failures reproduce.
pub struct Numbers(pub u64);

impl Numbers {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in [-1, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() % 2_000_000) as f64 / 1_000_000.0 - 1.0
    }

    /// A number in [0, bound).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// A path as an argument for the binary.
pub fn text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A `.gltf` file's JSON, and its one buffer decoded.
pub fn gltf_parts(path: &Path) -> (serde_json::Value, Vec<u8>) {
    use base64::Engine as _;
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let uri = json["buffers"][0]["uri"].as_str().unwrap();
    let encoded = uri.split_once(";base64,").unwrap().1;
    let buffer = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .unwrap();
    (json, buffer)
}

/// Writes a `.gltf` file of `json` with `buffer` as its one buffer.
pub fn write_gltf(path: &Path, mut json: serde_json::Value, buffer: &[u8]) {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(buffer);
    json["buffers"][0]["uri"] = format!("data:application/octet-stream;base64,{encoded}").into();
    std::fs::write(path, serde_json::to_vec(&json).unwrap()).unwrap();
}

/// Where vertex `vertex`'s `attribute` (`POSITION`, `TEXCOORD_0`...) of
/// the first primitive of mesh `mesh` starts in the buffer.
pub fn attribute_offset(
    json: &serde_json::Value,
    mesh: usize,
    attribute: &str,
    vertex: usize,
) -> usize {
    let accessor = json["meshes"][mesh]["primitives"][0]["attributes"][attribute]
        .as_u64()
        .unwrap() as usize;
    let accessor = &json["accessors"][accessor];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let size = match accessor["type"].as_str().unwrap() {
        "VEC2" => 8,
        "VEC3" => 12,
        _ => 16,
    };
    let stride = view["byteStride"].as_u64().unwrap_or(size) as usize;
    view["byteOffset"].as_u64().unwrap_or(0) as usize
        + accessor["byteOffset"].as_u64().unwrap_or(0) as usize
        + vertex * stride
}

/// Adds `delta` to the float at byte `at` of `buffer`.
pub fn add_to(buffer: &mut [u8], at: usize, delta: f32) {
    let x = f32::from_le_bytes(buffer[at..at + 4].try_into().unwrap()) + delta;
    buffer[at..at + 4].copy_from_slice(&x.to_le_bytes());
}

/// Writes at `path` a `.gltf` of `json` changed by `change`, with `buffer`.
pub fn edited_gltf(
    path: &Path,
    json: &serde_json::Value,
    buffer: &[u8],
    change: &dyn Fn(&mut serde_json::Value),
) -> PathBuf {
    let mut json = json.clone();
    change(&mut json);
    write_gltf(path, json, buffer);
    path.to_path_buf()
}

/// Variants of the `.gltf` at `gltf` that no game file can hold, written
/// into `dir`, each with what its refusal says: a mesh without a skin,
/// primitives that are lines, an accessor whose elements do not fit its
/// buffer, a joint named twice (the joints are the first nodes).
pub fn unholdable_variants(dir: &Path, gltf: &Path) -> Vec<(PathBuf, &'static str)> {
    let (json, buffer) = gltf_parts(gltf);
    let edited = |name: &str, change: &dyn Fn(&mut serde_json::Value)| {
        edited_gltf(&dir.join(name), &json, &buffer, change)
    };
    let mesh_node = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|node| node.get("mesh").is_some())
        .unwrap();
    vec![
        (
            edited("unskinned.gltf", &|json| {
                json["nodes"][mesh_node]
                    .as_object_mut()
                    .unwrap()
                    .remove("skin");
            }),
            "has no skin",
        ),
        (
            edited("lines.gltf", &|json| {
                json["meshes"][0]["primitives"][0]["mode"] = 1.into();
            }),
            "not triangles",
        ),
        (
            edited("broken.gltf", &|json| {
                let accessor = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"]
                    .as_u64()
                    .unwrap() as usize;
                json["accessors"][accessor]["count"] = 1_000_000_000u64.into();
            }),
            "elements do not fit",
        ),
        (
            edited("twice.gltf", &|json| {
                json["nodes"][1]["name"] = json["nodes"][0]["name"].clone();
            }),
            "twice",
        ),
    ]
}

/// The `.glb` at `glb` cut in half, written into `dir`.
pub fn truncated_glb(dir: &Path, glb: &Path) -> PathBuf {
    let bytes = std::fs::read(glb).unwrap();
    let truncated = dir.join("truncated.glb");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    truncated
}

/// Asserts a refusal as the import gives one: status 1, one sentence
/// holding `expected`, and no folder `out` left behind.
pub fn assert_refused(output: &Output, out: &Path, expected: &str) {
    assert_status(output, 1);
    let message = stderr(output);
    assert!(message.contains(expected), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(!out.exists(), "{} was left behind", out.display());
}

/// Runs `args` and waits at most `seconds`; a command that takes longer
/// is killed and the test fails.
pub fn within(seconds: u64, dir: &Path, args: &[&str]) -> Output {
    let mut child = command(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(seconds) {
            child.kill().unwrap();
            panic!("{args:?} still runs after {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Every `extras` of the glTF left out but each mesh's morph target
/// names, as Blender 4.2's exporter writes it with its defaults.
pub fn without_extras(json: &mut serde_json::Value) {
    match json {
        serde_json::Value::Object(object) => {
            let target_names = object
                .remove("extras")
                .and_then(|extras| extras.get("targetNames").cloned());
            for value in object.values_mut() {
                without_extras(value);
            }
            if let Some(names) = target_names {
                object.insert(
                    "extras".to_owned(),
                    serde_json::json!({ "targetNames": names }),
                );
            }
        }
        serde_json::Value::Array(values) => values.iter_mut().for_each(without_extras),
        _ => {}
    }
}
