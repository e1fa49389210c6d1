//! The fuzz crate's generated files: one target per registered format and
//! the manifest that lists them, so a new format gets its target from regen.

use std::fmt::Write as _;

use formats::format::Format;

/// `fuzz/fuzz_targets/<format>.rs`: the format's name handed to the check
/// every reader must pass (`tests::round_trip`).
pub fn target(format: &Format, generated: &str) -> String {
    format!(
        "// {generated}\n\
         //! Fuzzes the `{name}` reader ({title}).\n\
         //! Any bytes decode to an error, or to a value that encodes back to\n\
         //! exactly those bytes (`tests::round_trip`).\n\
         #![no_main]\n\
         \n\
         libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {{\n    \
         tests::round_trip::fails_or_round_trips_as(\"{name}\", bytes);\n\
         }});\n",
        name = format.name,
        title = format.title,
    )
}

/// `fuzz/Cargo.toml`: a workspace of its own, so the root workspace never
/// builds the targets, and a binary per target.
pub fn manifest(formats: &[&Format], generated: &str) -> String {
    let mut manifest = format!(
        "# {generated}\n\
         # The fuzz targets, built and run by `cargo xtask fuzz`.\n\
         [package]\n\
         name = \"ossuary-fuzz\"\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         \n\
         [package.metadata]\n\
         cargo-fuzz = true\n\
         \n\
         # Its own workspace: libFuzzer's instrumented builds stay out of the root's.\n\
         [workspace]\n\
         \n\
         [dependencies]\n\
         # libFuzzer's driver and the `fuzz_target!` entry point; it builds on\n\
         # the stable toolchain with the flags `cargo xtask fuzz` passes.\n\
         libfuzzer-sys = \"0.4\"\n\
         tests = {{ path = \"../tests\" }}\n\
         \n\
         # Line tables keep a finding's backtrace readable.\n\
         [profile.release]\n\
         debug = \"line-tables-only\"\n"
    );
    for format in formats {
        let _ = write!(
            manifest,
            "\n[[bin]]\n\
             name = \"{name}\"\n\
             path = \"fuzz_targets/{name}.rs\"\n\
             test = false\n\
             doc = false\n\
             bench = false\n",
            name = format.name
        );
    }
    manifest
}
