//! `ossuary check`: decode, re-encode, compare, for every file named or
//! found in the folders named.

use formats::catalogue::Catalogue;
use formats::format::{Encoding, Format};
use serde_json::Map;

use crate::batch::{self, Detail, Entry, FilesArgs, Outcome, Report, Style};
use formats::schema::Position;

use crate::error::{decode_error, shown, CliError, Located, Problem};
use crate::Context;

pub fn run(context: &mut Context, args: &FilesArgs) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let json = args.json;
    let (forced, entries) = args.resolve(&catalogue)?;
    let single = batch::single_file(&entries).is_some();
    let style = Style {
        json,
        compares: true,
        summary: !single,
    };
    // One file's failure shows the bytes around its error; a folder's
    // report keeps to a line a file.
    let counts = batch::run(context, &entries, style, |entry| {
        check_file(&catalogue, entry, forced, single)
    })?;
    Ok(counts.all_good())
}

fn check_file(
    catalogue: &Catalogue,
    entry: &Entry,
    forced: Option<&'static Format>,
    with_bytes: bool,
) -> Result<Report, Report> {
    let (format, bytes) = batch::open(catalogue, entry, forced)?;
    let fail = |problem: Problem| {
        let error = CliError::input(&entry.path, problem);
        Report::failed(Some(format), &entry.path, &error)
    };
    let document = (format.decode)(&bytes).map_err(|error| {
        if with_bytes {
            Report::failed(
                Some(format),
                &entry.path,
                &decode_error(&entry.path, &bytes, error),
            )
        } else {
            fail(error.into())
        }
    })?;
    let encoded = document.encode().map_err(|source| {
        fail(Problem::Encode {
            format: format.name,
            source,
        })
    })?;
    let outcome = match first_difference(&bytes, &encoded) {
        None => Outcome::Ok {
            text: format!("{}: ok\n", shown(&entry.path)),
            fields: Map::new(),
        },
        Some(offset) => Outcome::Differs(describe_difference(format, &bytes, &encoded, offset)),
    };
    Ok(Report {
        format: Some(format),
        outcome,
    })
}

fn first_difference(original: &[u8], encoded: &[u8]) -> Option<usize> {
    original
        .iter()
        .zip(encoded)
        .position(|(a, b)| a != b)
        .or_else(|| (original.len() != encoded.len()).then(|| original.len().min(encoded.len())))
}

fn describe_difference(format: &Format, original: &[u8], encoded: &[u8], offset: usize) -> Detail {
    let show = |bytes: &[u8]| {
        bytes
            .get(offset)
            .map_or("end of file".to_owned(), |b| format!("0x{b:02x}"))
    };
    match format.encoding {
        Encoding::Binary => {
            let message = format!("original {}, re-encoded {}", show(original), show(encoded));
            Detail {
                sentence: format!("differs at byte {offset}: {message}"),
                located: Located {
                    message,
                    position: Some(Position::Byte(offset as u64)),
                    field: None,
                },
            }
        }
        Encoding::Text => {
            let before = original.get(..offset).unwrap_or(original);
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let column = offset
                - before
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |newline| newline + 1)
                + 1;
            Detail {
                sentence: format!("differs at line {line}:{column}"),
                located: Located {
                    message: "the re-encoded text differs".to_owned(),
                    position: Some(Position::Text { line, column }),
                    field: None,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_found_at_the_first_byte_or_at_a_length_change() {
        assert_eq!(first_difference(b"abc", b"abc"), None);
        assert_eq!(first_difference(b"abc", b"abd"), Some(2));
        assert_eq!(first_difference(b"abc", b"ab"), Some(2));
    }

    #[test]
    fn text_differences_are_given_as_line_and_column() {
        let format = Format {
            encoding: Encoding::Text,
            ..*formats::catalogue::FORMATS[0]
        };
        let detail = describe_difference(&format, b"one\r\ntwo\r\n", b"one\r\ntwx\r\n", 7);
        assert_eq!(detail.sentence, "differs at line 2:3");
        assert_eq!(
            detail.located.position,
            Some(Position::Text { line: 2, column: 3 })
        );
    }
}
