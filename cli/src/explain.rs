//! `ossuary explain`: where every value of a file came from (its byte map,
//! as the generated readers report it), the field holding one byte, or how
//! much of the files under a folder the layouts describe.

use std::path::{Path, PathBuf};

use formats::explain::tree::Node;
use formats::explain::{self, CoverageReport, Explanation};
use formats::format::Encoding;

use crate::error::{bytes_shown, shown, CliError, Problem};
use crate::{batch, input, Context};

/// `ossuary explain`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The file to explain (`-` for standard input), or with `--coverage`
    /// the folder whose files are measured.
    pub path: PathBuf,
    /// Read the file as this format instead of guessing it.
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    /// Only the value holding this byte (for a text file: this line, from
    /// 1). Decimal, or hexadecimal after `0x`.
    #[arg(long, value_name = "OFFSET", value_parser = parse_offset, conflicts_with = "coverage")]
    pub at: Option<u64>,
    /// Per format, the share of the files' bytes (lines for text) the
    /// layouts describe: typed fields and IFF headers, against blocks kept
    /// as found.
    #[arg(long)]
    pub coverage: bool,
    /// The values as a tree, folded below this many levels: a folded
    /// node is one row with its offset, size and count of children, a
    /// list of plain numbers one row. With `--json`, the tree in JSON.
    #[arg(long, value_name = "N", conflicts_with_all = ["coverage", "at"])]
    pub depth: Option<usize>,
    /// The spans (or the coverage) as JSON.
    #[arg(long)]
    pub json: bool,
}

/// An offset in decimal or `0x` hexadecimal.
fn parse_offset(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| format!("`{text}` is not an offset, e.g. 132 or 0x84"))
}

pub fn run(context: &mut Context, args: &Args) -> Result<bool, CliError> {
    if args.coverage {
        return coverage(context, &args.path, args.json);
    }
    let bytes = input::read(&args.path)?;
    let format = input::format_of(
        &context.catalogue,
        &args.path,
        &bytes,
        args.format.as_deref(),
    )?;
    let (explained, error) = explain::explain_until_error(format, &bytes);
    let Some(error) = error else {
        return show(context, args, &bytes, &explained, None);
    };
    // What was read before the error, the failing field marked, then the
    // bytes around it: the error alone names an offset, not a context.
    if args.at.is_none() {
        show(context, args, &bytes, &explained, Some(&error))?;
    }
    if let Some(around) = explain::bytes_around(&bytes, &error) {
        context.warn(&format!(
            "{} does not decode; {}",
            shown(&args.path),
            bytes_shown(&around)
        ));
    }
    Err(CliError::input(&args.path, Problem::Decode(error)))
}

/// Prints the map (at `--at`, as a tree at `--depth`, as JSON at
/// `--json`), with the failing field at the end when there is `error`.
fn show(
    context: &mut Context,
    args: &Args,
    bytes: &[u8],
    explained: &Explanation,
    error: Option<&formats::schema::Error>,
) -> Result<bool, CliError> {
    if let Some(at) = args.at {
        return explain_at(context, &args.path, explained, at, args.json);
    }
    let tree = args.depth.map(|depth| (Node::of(explained, error), depth));
    if args.json {
        // The spans, or the tree when asked for one, written out as they
        // are serialized (a big file's spans never in memory all at once
        // as JSON values).
        let listing = explained.listing(
            tree.as_ref().map(|(tree, depth)| tree.folded(*depth)),
            error.map(ToString::to_string),
        );
        context
            .print_json_streamed(|out| serde_json::to_writer_pretty(out, &listing))?
            .map_err(|error| CliError::input(&args.path, Problem::ToJson(error)))?;
        return Ok(true);
    }
    match &tree {
        Some((tree, depth)) => context.print(&tree.render(explained.encoding, *depth))?,
        None => {
            explained.render_in_parts(bytes, |part| context.print(part))?;
            if let Some(error) = error {
                context.print(&explain::failing_row(error))?;
            }
        }
    }
    Ok(true)
}

/// The value holding byte (or line) `at`.
fn explain_at(
    context: &mut Context,
    path: &Path,
    explained: &Explanation,
    at: u64,
    json: bool,
) -> Result<bool, CliError> {
    let unit = match explained.encoding {
        Encoding::Binary => "byte",
        Encoding::Text => "line",
    };
    let Some(span) = explained.at(at) else {
        return Err(CliError::Usage(format!(
            "{}: no value holds {unit} {at}: the file has {} {unit}s",
            shown(path),
            explained.len
        )));
    };
    if json {
        let text = serde_json::to_string_pretty(&span)
            .map_err(|error| CliError::input(path, Problem::ToJson(error)))?;
        context.print_json(&format!("{text}\n"))?;
        return Ok(true);
    }
    let held = match span.end.saturating_sub(span.start) {
        0 | 1 => format!("{unit} {}", span.start),
        _ => format!("{unit}s {} to {}", span.start, span.end - 1),
    };
    context.print(&format!(
        "{unit} {at} is in {} ({}, {held}): {}\n",
        span.path,
        span.type_name,
        span.short_value()
    ))?;
    Ok(true)
}

/// The coverage of every file below `dir` whose format ossuary knows,
/// read as the other folder commands read them (regular files only, each
/// within `--max-input`).
fn coverage(context: &mut Context, dir: &Path, json: bool) -> Result<bool, CliError> {
    let folder = batch::FilesArgs {
        paths: vec![dir.to_path_buf()],
        format: None,
        json,
    };
    let (_, entries) = folder.resolve(&context.catalogue)?;
    let mut report = CoverageReport::default();
    for entry in entries {
        if let Some(error) = &entry.listing_error {
            return Err(CliError::Usage(format!(
                "{}: cannot list the folder: {error}",
                shown(&entry.path)
            )));
        }
        if entry.special.is_some() {
            continue;
        }
        let bytes = input::read(&entry.path)?;
        let name = entry.path.strip_prefix(dir).unwrap_or(&entry.path);
        let name = name.to_string_lossy();
        if let Some(format) = context.catalogue.detect(&name, &bytes) {
            report.add_file(&name, format, &bytes);
        }
    }
    if json {
        let text = serde_json::to_string_pretty(&report)
            .map_err(|error| CliError::input(dir, Problem::ToJson(error)))?;
        context.print_json(&format!("{text}\n"))?;
    } else {
        context.print(&format!("{}\n", report.render().trim_end()))?;
    }
    Ok(report.failed.is_empty())
}
