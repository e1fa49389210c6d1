//! Running the `ossuary` binary as a person does, and reading what it left.

#![allow(dead_code)] // each test binary uses part of it

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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
