//! The real Sims 1 files: every `.skn`, `.cmx` and `.cfp` reads and writes
//! back byte for byte, also through its binary twin and through JSON, and a
//! `.cfp` also through its components. Runs when
//! `OSSUARY_CORPUS` names the corpus folder (with a `sims1` folder inside);
//! skips quietly when it is unset. The files are never copied here.

use std::path::Path;

use formats::schema::text::float::{format_g, parse_g};
use formats::schema::BinarySchema;
use formats::sims::bcf::Bcf;
use formats::sims::bmf::Bmf;
use formats::sims::cfp::{Cfp, Streams, StreamsContext, ValueCount};
use formats::sims::cmx::Cmx;
use formats::sims::skn::Skn;

/// Where two texts first differ, as `line N`, for a readable failure.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let line = a[..at].iter().filter(|&&byte| byte == b'\n').count() + 1;
    format!("first difference at byte {at} (line {line})")
}

fn assert_same(path: &Path, what: &str, original: &[u8], written: &[u8]) {
    assert!(
        original == written,
        "{}: {what}: {}",
        path.display(),
        first_difference(original, written)
    );
}

#[test]
fn every_skn_comes_back_byte_for_byte() {
    let Some(files) = tests::corpus_files("sims1", "skn") else {
        return;
    };
    for path in files {
        let original = std::fs::read(&path).unwrap();
        let skn = Skn::from_text(&original).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_same(&path, "skn -> skn", &original, &skn.to_text().unwrap());

        let bmf_bytes = Bmf::from_skn(&skn).to_bytes().unwrap();
        let bmf = Bmf::from_bytes(&bmf_bytes).unwrap();
        let back = bmf.to_skn().to_text().unwrap();
        assert_same(&path, "skn -> bmf -> skn", &original, &back);

        let json = serde_json::to_string(&skn).unwrap();
        let from_json: Skn = serde_json::from_str(&json).unwrap();
        assert_same(
            &path,
            "skn -> json -> skn",
            &original,
            &from_json.to_text().unwrap(),
        );
    }
}

/// The `.cmx` at `path` read, written back and through JSON, each the
/// same bytes; its bytes and value.
fn cmx_back_alone_and_through_json(path: &Path) -> (Vec<u8>, Cmx) {
    let original = std::fs::read(path).unwrap();
    let cmx = Cmx::from_text(&original).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_same(path, "cmx -> cmx", &original, &cmx.to_text().unwrap());
    let json = serde_json::to_string(&cmx).unwrap();
    let from_json: Cmx = serde_json::from_str(&json).unwrap();
    assert_same(
        path,
        "cmx -> json -> cmx",
        &original,
        &from_json.to_text().unwrap(),
    );
    (original, cmx)
}

#[test]
fn every_cmx_comes_back_byte_for_byte() {
    let Some(files) = tests::corpus_files("sims1", "cmx") else {
        return;
    };
    for path in files {
        let (original, cmx) = cmx_back_alone_and_through_json(&path);
        let bcf_bytes = Bcf::from_cmx(&cmx).to_bytes().unwrap();
        let bcf = Bcf::from_bytes(&bcf_bytes).unwrap();
        let back = bcf.to_cmx().to_text().unwrap();
        assert_same(&path, "cmx -> bcf -> cmx", &original, &back);
    }
}

/// Every `.cmx` of the 1998 prototype (`version 200`, `.CMX` in upper case
/// too) reads with nothing left over and comes back byte for byte, alone
/// and through JSON.
#[test]
fn every_prototype_cmx_comes_back_byte_for_byte() {
    let Some(files) = tests::corpus_files("sims1-prototype", "cmx") else {
        return;
    };
    for path in files {
        let (_, cmx) = cmx_back_alone_and_through_json(&path);
        assert_eq!(cmx.version, 200, "{}", path.display());
    }
}

/// Every real `.cfp` as tokens and through JSON; and split by the counts of
/// the skill that names it (in a `.cmx` beside it) into components that
/// hold the counts' values, all finite, and write back the same bytes.
#[test]
fn every_cfp_comes_back_byte_for_byte() {
    let (Some(files), Some(cmx)) = (
        tests::corpus_files("sims1", "cfp"),
        tests::corpus_files("sims1", "cmx"),
    ) else {
        return;
    };
    let skills: Vec<_> = cmx
        .iter()
        .flat_map(|path| {
            Cmx::from_text(&std::fs::read(path).unwrap())
                .unwrap()
                .skills
        })
        .collect();
    for path in files {
        let original = std::fs::read(&path).unwrap();
        let cfp = Cfp::from_bytes(&original).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_same(&path, "cfp -> cfp", &original, &cfp.to_bytes().unwrap());

        let json = serde_json::to_string(&cfp).unwrap();
        let from_json: Cfp = serde_json::from_str(&json).unwrap();
        assert_same(
            &path,
            "cfp -> json -> cfp",
            &original,
            &from_json.to_bytes().unwrap(),
        );

        let stem = path.file_stem().unwrap().to_string_lossy();
        let skill = skills
            .iter()
            .find(|skill| skill.animation.to_text().eq_ignore_ascii_case(&stem))
            .unwrap_or_else(|| panic!("{}: no skill names it", path.display()));
        let counts = StreamsContext {
            position_count: ValueCount(skill.position_count as u32),
            rotation_count: ValueCount(skill.rotation_count as u32),
        };
        let streams = Streams::split(&original, &counts)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_same(
            &path,
            "cfp -> components -> cfp",
            &original,
            &streams.to_bytes_with(&counts).unwrap(),
        );
        let values = streams.values().unwrap();
        assert_eq!(values.translations.len(), skill.position_count as usize);
        assert_eq!(values.rotations.len(), skill.rotation_count as usize);
        let every_value = values.translations.iter().flatten();
        assert!(every_value
            .chain(values.rotations.iter().flatten())
            .all(|value| value.is_finite()));
    }
}

/// Every float-looking token (with a point or an exponent) of the real
/// `.cmx` and `.skn` files is printed back exactly by the MSVC `%g` formatter.
#[test]
fn every_corpus_float_token_prints_back_exactly() {
    let (Some(cmx), Some(skn)) = (
        tests::corpus_files("sims1", "cmx"),
        tests::corpus_files("sims1", "skn"),
    ) else {
        return;
    };
    let mut checked = 0;
    for path in cmx.iter().chain(&skn) {
        let text = std::fs::read(path).unwrap();
        for token in text.split(|b| b.is_ascii_whitespace()) {
            let token = String::from_utf8_lossy(token);
            if !token.contains(['.', 'e']) {
                continue;
            }
            if let Some(value) = parse_g(&token) {
                assert_eq!(format_g(value), token, "{}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no float tokens found");
}
