use super::*;
use crate::catalogue::FORMATS;

/// Every registered binary format's samples, written out.
fn binary_samples() -> Vec<(&'static Format, &'static str, Vec<u8>)> {
    FORMATS
        .iter()
        .filter(|format| format.encoding == Encoding::Binary)
        .flat_map(|format| {
            (format.samples)().into_iter().map(move |sample| {
                let bytes = sample.document.encode().unwrap();
                (*format, sample.file_name, bytes)
            })
        })
        .collect()
}

#[test]
fn every_byte_of_every_binary_sample_is_in_exactly_one_span() {
    let samples = binary_samples();
    assert!(samples.len() > 10);
    for (format, name, bytes) in samples {
        let explanation = explain(format, &bytes).unwrap();
        let misses = explanation.misses();
        assert!(
            misses.is_empty(),
            "{name}: {misses:?}\n{}",
            explanation
                .render(&bytes)
                .lines()
                .take(12)
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert_eq!(explanation.len, bytes.len() as u64);
    }
}

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(path).unwrap()
}

#[test]
fn annotated_hex_names_each_value_with_its_bytes() {
    let bytes = fixture("humanoid.skt");
    let explanation = explain(&crate::swg::skt::FORMAT, &bytes).unwrap();
    let rendered = explanation.render(&bytes);
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(
        lines
            .first()
            .map(|line| line.split_whitespace().collect::<Vec<_>>()),
        Some(vec![
            "00000000", "46", "4f", "52", "4d", "SKTM", "FORM", "tag", "FORM"
        ])
    );
    assert!(
        rendered.contains(
            "00000020  0c 00 00 00                                       \
             SKTM/0002/INFO/joint_count  u32  12"
        ),
        "{rendered}"
    );
    let holding = explanation.at(0x2e).unwrap();
    assert_eq!(
        (holding.path.as_str(), holding.start, holding.end),
        ("SKTM/0002/NAME/names[0]", 0x2c, 0x31)
    );
    assert_eq!(holding.value, "\"root\"");
    assert!(explanation.at(bytes.len() as u64).is_none());
    let coverage = explanation.coverage();
    assert_eq!(coverage.typed + coverage.headers, bytes.len() as u64);
    assert_eq!(coverage.opaque, 0);
}

#[test]
fn text_files_are_explained_line_by_line() {
    let bytes = fixture("humanoid.cmx");
    let explanation = explain(&crate::sims::cmx::FORMAT, &bytes).unwrap();
    assert_eq!(explanation.encoding, Encoding::Text);
    let rendered = explanation.render(&bytes);
    assert!(
        rendered.contains("     4  humanoid\n        ^ skeletons[0].name  a line\n"),
        "{rendered}"
    );
    assert_eq!(
        explanation.at(5).map(|span| span.path),
        Some("skeletons[0].bones".to_owned())
    );
}

#[test]
fn each_token_of_a_text_line_has_its_own_span() {
    let bytes = fixture("humanoid.cmx");
    let explanation = explain(&crate::sims::cmx::FORMAT, &bytes).unwrap();
    // `version 300`: the keyword, then the version, each at its columns.
    let tokens: Vec<_> = explanation
        .spans()
        .filter(|span| span.start == 2 && span.columns.is_some())
        .map(|span| (span.path, span.columns, span.value))
        .collect();
    assert_eq!(
        tokens,
        [
            (
                "version_keyword".to_owned(),
                Some((1, 8)),
                "version".to_owned()
            ),
            ("version".to_owned(), Some((9, 12)), "300".to_owned()),
        ]
    );
    let rendered = explanation.render(&bytes);
    assert!(
        rendered.contains("\n                ^^^ version  u32  300\n"),
        "{rendered}"
    );
    // The tokens lie within their lines: every line is still covered once.
    assert!(explanation.misses().is_empty());
}

#[test]
fn spans_serialize_with_their_kind() {
    let bytes = fixture("humanoid.skt");
    let explanation = explain(&crate::swg::skt::FORMAT, &bytes).unwrap();
    let json = serde_json::to_value(explanation.listing(None, None)).unwrap();
    assert_eq!(json["encoding"], "binary");
    assert_eq!(json["spans"][0]["kind"], "header");
    assert_eq!(json["spans"][0]["type"], "FORM tag");
    assert_eq!(json["spans"][8]["path"], "SKTM/0002/INFO/joint_count");
    assert_eq!(json["spans"][8]["kind"], "field");
}

#[test]
fn kept_chunks_count_as_opaque() {
    // The sample mesh with a chunk its layout does not name, kept as
    // found at the version form's end.
    let mut bytes = fixture("humanoid.mgn");
    let extra = b"XTRA\0\0\0\x02hi";
    bytes.extend_from_slice(extra);
    let inner = u32::from_be_bytes(bytes[16..20].try_into().unwrap()) + extra.len() as u32;
    let outer = u32::from_be_bytes(bytes[4..8].try_into().unwrap()) + extra.len() as u32;
    bytes[16..20].copy_from_slice(&inner.to_be_bytes());
    bytes[4..8].copy_from_slice(&outer.to_be_bytes());
    let explanation = explain(&crate::swg::mgn::FORMAT, &bytes).unwrap();
    assert!(explanation.misses().is_empty());
    assert_eq!(explanation.coverage().opaque, extra.len() as u64);
    let mut report = CoverageReport::default();
    report.add_file("a.mgn", &crate::swg::mgn::FORMAT, &bytes);
    report.add_file("b.mgn", &crate::swg::mgn::FORMAT, b"FORM");
    assert_eq!(report.formats["swg-mgn"].files, 1);
    assert_eq!(report.failed.len(), 1);
    assert!(report.render().contains("| swg-mgn | 1 |"));
}

#[test]
fn the_bytes_around_an_error_mark_its_byte() {
    let mut bytes = fixture("humanoid.skt");
    bytes[0x24] = b'X';
    let error = match (crate::swg::skt::FORMAT.decode)(&bytes) {
        Err(error) => error,
        Ok(_) => panic!("a wrong tag decoded"),
    };
    let shown = bytes_around(&bytes, &error).unwrap();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 6, "{shown}");
    assert!(
        lines[2].starts_with("00000020  0c 00 00 00 58 41 4d 45"),
        "{shown}"
    );
    assert_eq!(lines[3].trim_start(), "^^ byte 36");
    assert_eq!(lines[3].find("^^"), Some(10 + 3 * 4));
    let past = Error::at_byte(4, crate::schema::ErrorKind::Invalid("x".to_owned()));
    assert!(bytes_around(b"ab", &past).unwrap().contains("past the end"));
    assert!(bytes_around(
        &bytes,
        &Error::new(crate::schema::ErrorKind::Invalid("x".to_owned()))
    )
    .is_none());
}

#[test]
fn a_file_that_does_not_decode_keeps_the_values_read_before_the_error() {
    let mut bytes = fixture("humanoid.skt");
    bytes[0x24] = b'X';
    let (explanation, error) = explain_until_error(&crate::swg::skt::FORMAT, &bytes);
    assert_eq!(
        error.unwrap().position,
        Some(crate::schema::Position::Byte(0x24))
    );
    let last = explanation.spans().last().unwrap();
    assert_eq!(
        (last.path.as_str(), last.end),
        ("SKTM/0002/INFO/joint_count", 0x24)
    );
    assert!(explain(&crate::swg::skt::FORMAT, &bytes).is_err());
}

#[test]
fn the_tree_groups_values_by_path_and_finds_the_field_at_a_byte() {
    let bytes = fixture("humanoid.skel");
    let explanation = explain(&crate::sims::skel::FORMAT, &bytes).unwrap();
    let tree = tree::Node::of(&explanation, None);
    let labels: Vec<String> = tree.children.iter().map(|c| c.label()).collect();
    assert_eq!(labels, ["version", "name", "bones"]);
    let bones = &tree.children[2];
    assert_eq!((bones.start, bones.end), (13, bytes.len() as u64));
    assert_eq!(bones.children.len(), 12);
    // Byte 16: the first bone's unknown u32 (bytes 15 to 18).
    let indices = tree.indices_at(16);
    let field = tree.at_indices(&indices).unwrap();
    assert_eq!(tree.path_to(&indices).unwrap(), "bones[0].unknown");
    assert_eq!((field.start, field.end), (15, 19));
    assert!(tree.at_indices(&[2, 99]).is_none());
}

#[test]
fn the_tree_of_a_broken_file_marks_the_failing_field() {
    let mut bytes = fixture("humanoid.skel");
    bytes.truncate(20);
    let (explanation, error) = explain_until_error(&crate::sims::skel::FORMAT, &bytes);
    let error = error.unwrap();
    let tree = tree::Node::of(&explanation, Some(&error));
    assert!(tree.error_below);
    // The list's count (bytes 13 and 14) promises more bones than the
    // 5 bytes left hold.
    let indices = tree.indices_at(15);
    let failing = tree.at_indices(&indices).unwrap();
    assert_eq!(
        (tree.path_to(&indices).unwrap(), failing.label()),
        ("bones".to_owned(), "!!".to_owned())
    );
    assert!(failing
        .error
        .as_deref()
        .is_some_and(|e| e.starts_with("count 12")));
    // Folding keeps the way to it open.
    let folded = tree.folded(1);
    assert!(folded.children[2].folded_children == 0 && !folded.children[2].children.is_empty());
}

#[test]
fn the_map_writes_paths_as_errors_do() {
    // A mesh whose POSN chunk says it holds one byte more: the error is
    // inside the chunk, at a path the map has too.
    let mut bytes = fixture("humanoid.mgn");
    let at = bytes
        .windows(4)
        .position(|window| window == b"POSN")
        .unwrap()
        + 4;
    let size = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    bytes[at..at + 4].copy_from_slice(&(size - 1).to_be_bytes());
    let (explanation, error) = explain_until_error(&crate::swg::mgn::FORMAT, &bytes);
    let error = error.unwrap().path.to_string();
    assert!(error.contains("/POSN"), "{error}");
    assert!(
        explanation
            .spans()
            .any(|span| span.path.starts_with(&error)),
        "no span at {error}"
    );
    assert!(explanation
        .spans()
        .all(|span| !span.path.contains("version")));
}
