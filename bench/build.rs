//! With the `ozz` feature: builds ozz-animation's runtime and offline
//! libraries from its source (CMake, through the `cmake` crate) and the C
//! shim the benchmarks call (`ozz/shim.cc`, through the `cc` crate).
//! Without it, nothing: a normal build needs no C++ compiler and no CMake.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(feature = "ozz")]
    ozz::build();
}

#[cfg(feature = "ozz")]
mod ozz {
    use std::path::PathBuf;

    /// Where ozz's source is: `OZZ_SOURCE_DIR`, or the shared copy beside
    /// the repository (`../shared/third_party/ozz-animation-0.16.0`).
    fn source() -> PathBuf {
        println!("cargo::rerun-if-env-changed=OZZ_SOURCE_DIR");
        if let Some(dir) = std::env::var_os("OZZ_SOURCE_DIR") {
            return PathBuf::from(dir);
        }
        let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
        manifest.join("../../shared/third_party/ozz-animation-0.16.0")
    }

    /// Fails the build with the way to get CMake where it cannot be run
    /// (the `cmake` crate's own failure only asks whether it is
    /// installed). The crate runs `CMAKE`, else `cmake` on the path.
    fn check_cmake() {
        println!("cargo::rerun-if-env-changed=CMAKE");
        let cmake = std::env::var_os("CMAKE").unwrap_or_else(|| "cmake".into());
        let runs = std::process::Command::new(&cmake)
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success());
        assert!(
            runs,
            "the `ozz` feature builds ozz-animation with CMake, and `{}` does not run. \
             Install CMake 3.24 or later, which ozz asks for (`pip install cmake`, or \
             Debian's `apt-get install cmake`), or set CMAKE to its path; a C++17 compiler is \
             needed too (Debian's `g++`). Without the feature the benchmarks run \
             ossuary's rows alone.",
            cmake.to_string_lossy()
        );
    }

    pub fn build() {
        let source = source();
        assert!(
            source.join("CMakeLists.txt").is_file(),
            "ozz-animation's source is not at {} (set OZZ_SOURCE_DIR)",
            source.display()
        );
        check_cmake();
        // Only the libraries: no tools, samples, how-tos or tests, and
        // library names without a per-configuration suffix. Release, with
        // ozz's own compiler settings (SSE2, as the Rust side's baseline
        // x86-64 build).
        let built = cmake::Config::new(&source)
            .profile("Release")
            .define("ozz_build_tools", "OFF")
            .define("ozz_build_fbx", "OFF")
            .define("ozz_build_gltf", "OFF")
            .define("ozz_build_samples", "OFF")
            .define("ozz_build_howtos", "OFF")
            .define("ozz_build_tests", "OFF")
            .define("ozz_build_postfix", "OFF")
            // Built, not installed: ozz's install step copies files the
            // shared copy of its source does not have (CHANGES.md).
            .build_target("all")
            .build();
        cc::Build::new()
            .cpp(true)
            .std("c++17")
            .opt_level(2)
            .include(source.join("include"))
            .file("ozz/shim.cc")
            .compile("ossuary_ozz_shim");
        println!("cargo::rerun-if-changed=ozz/shim.cc");
        // After the shim (which `cc` already linked), dependents first.
        for (folder, library) in [
            ("src/animation/offline", "ozz_animation_offline"),
            ("src/animation/runtime", "ozz_animation"),
            ("src/geometry/runtime", "ozz_geometry"),
            ("src/base", "ozz_base"),
        ] {
            println!(
                "cargo::rustc-link-search=native={}",
                built.join("build").join(folder).display()
            );
            println!("cargo::rustc-link-lib=static={library}");
        }
    }
}
