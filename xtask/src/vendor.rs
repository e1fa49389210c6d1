//! `cargo xtask vendor-three`: refreshes the copy of three.js the viewer
//! embeds, from the npm package of the pinned version (npm and tar must be
//! installed; the registry is reached by package name).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The three.js release the viewer is written against.
pub const THREE_VERSION: &str = "0.170.0";

/// The package's files the page imports, and where they go under
/// `viewer/web/vendor/three/`: the library, the loader and controls it
/// uses (with what they import), and the licence.
const FILES: &[(&str, &str)] = &[
    ("build/three.module.js", "three.module.js"),
    (
        "examples/jsm/loaders/GLTFLoader.js",
        "addons/loaders/GLTFLoader.js",
    ),
    (
        "examples/jsm/controls/OrbitControls.js",
        "addons/controls/OrbitControls.js",
    ),
    (
        "examples/jsm/utils/BufferGeometryUtils.js",
        "addons/utils/BufferGeometryUtils.js",
    ),
    ("LICENSE", "LICENSE"),
];

pub fn run(root: &Path) -> Result<(), String> {
    let work = std::env::temp_dir().join(format!("ossuary-three-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|error| format!("{}: {error}", work.display()))?;
    let result = fetch_and_copy(root, &work);
    let _ = std::fs::remove_dir_all(&work);
    result
}

fn fetch_and_copy(root: &Path, work: &Path) -> Result<(), String> {
    let package = format!("three@{THREE_VERSION}");
    run_in(work, "npm", &["pack", "--silent", &package])?;
    let tarball = format!("three-{THREE_VERSION}.tgz");
    run_in(work, "tar", &["xzf", &tarball])?;
    let target = root.join("viewer/web/vendor/three");
    for (from, to) in FILES {
        let to: PathBuf = target.join(to);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|error| format!("{}: {error}", parent.display()))?;
        }
        std::fs::copy(work.join("package").join(from), &to)
            .map_err(|error| format!("{from}: {error}"))?;
    }
    std::fs::write(target.join("VERSION"), format!("{THREE_VERSION}\n"))
        .map_err(|error| format!("VERSION: {error}"))?;
    Ok(())
}

fn run_in(dir: &Path, program: &str, args: &[&str]) -> Result<(), String> {
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .status()
        .map_err(|error| format!("{program}: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{program} {} failed: {status}", args.join(" ")))
    }
}
