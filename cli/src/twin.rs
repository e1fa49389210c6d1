//! `ossuary convert` between formats that carry the same data (e.g. .cmx
//! <-> .bcf, .skn <-> .bmf): one file to one file, or every file of some
//! folders into an output folder that mirrors their trees.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use formats::catalogue::Catalogue;
use formats::format::{Document, Format};
use formats::sims::cmx::Cmx;
use serde_json::Map;

use crate::batch::{self, Detail, Entry, Outcome, Report, Style};
use crate::error::{shown, CliError, Problem};
use crate::{input, output, retail, Context};

/// The inputs converted to `to` (or to the format OUT's extension names).
pub fn run(
    context: &mut Context,
    inputs: &[PathBuf],
    output_path: &Path,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<bool, CliError> {
    let into_folder = output_path.is_dir() || ends_with_separator(output_path);
    match inputs {
        [input] if !input.is_dir() && !into_folder => {
            convert_one(context, input, output_path, from, to)
        }
        _ if into_folder || inputs.iter().any(|input| input.is_dir()) => {
            convert_into_folder(context, inputs, output_path, from, to)
        }
        _ => Err(CliError::Usage(format!(
            "{} inputs make one file each: -o must name a folder (it is created if missing)",
            inputs.len()
        ))),
    }
}

fn ends_with_separator(path: &Path) -> bool {
    path.as_os_str()
        .to_string_lossy()
        .ends_with(std::path::is_separator)
}

/// One input, one output file.
fn convert_one(
    context: &mut Context,
    input_path: &Path,
    output_path: &Path,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let loaded = input::load(&catalogue, input_path, from)?;
    let target = target_format(&catalogue, output_path, to)?;
    let bytes = convert(
        &catalogue,
        input_path,
        loaded.format,
        loaded.document.as_ref(),
        target,
    )?;
    output::write(context, output_path, &bytes)?;
    Ok(true)
}

/// The document's bytes in the target format.
fn convert(
    catalogue: &Catalogue,
    input_path: &Path,
    format: &'static Format,
    document: &dyn Document,
    target: &'static Format,
) -> Result<Vec<u8>, CliError> {
    let converted;
    let document = if target.is(format) {
        document
    } else {
        let conversion = catalogue
            .conversions_from(format)
            .find(|conversion| conversion.to.is(target))
            .ok_or_else(|| no_conversion(catalogue, format, target))?;
        converted = (conversion.convert)(document.as_any()).ok_or_else(|| {
            CliError::Usage(format!(
                "{}: the conversion from {} to {} is registered for another type",
                input_path.display(),
                conversion.from.name,
                conversion.to.name
            ))
        })?;
        converted.as_ref()
    };
    document.encode().map_err(|source| {
        CliError::input(
            input_path,
            Problem::Encode {
                format: target.name,
                source,
            },
        )
    })
}

/// Every input file, and every file below the input folders, converted to
/// `--to` in `folder` (see [`output_path`]).
fn convert_into_folder(
    context: &mut Context,
    inputs: &[PathBuf],
    folder: &Path,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let target = to
        .map(|name| input::format_named(&catalogue, name))
        .transpose()?
        .ok_or_else(|| {
            CliError::Usage(format!(
                "converting into a folder needs --to NAME (one of: {})",
                input::known_names(&catalogue)
            ))
        })?;
    let extension = target.extensions.first().ok_or_else(|| {
        CliError::Usage(format!("{} has no file extension to write", target.name))
    })?;
    let forced = from
        .map(|name| input::format_named(&catalogue, name))
        .transpose()?;
    let entries = batch::collect(inputs)?;
    if entries.iter().any(|entry| entry.path.as_os_str() == "-") {
        return Err(CliError::Usage(
            "standard input has no name to give its output in a folder; convert it to a file"
                .to_owned(),
        ));
    }
    let owners = output_owners(&entries, folder, extension);
    let style = Style {
        json: false,
        compares: false,
        summary: true,
    };
    let counts = batch::run(context, &entries, style, |entry| {
        let output = output_path(entry, folder, extension);
        match owners.get(&output) {
            Some(owner) if owner != &entry.path => Err(Report {
                format: None,
                outcome: Outcome::Failed(Detail::plain(format!(
                    "its output {} would overwrite that of {}",
                    output.display(),
                    owner.display()
                ))),
            }),
            _ => convert_file(&catalogue, entry, forced, target, folder, &output),
        }
    })?;
    Ok(counts.all_good())
}

/// Where an entry's output goes: a file named on the command line by its
/// name, a file found in a folder at its place relative to that folder.
fn output_path(entry: &Entry, folder: &Path, extension: &str) -> PathBuf {
    let relative = match &entry.folder {
        Some(root) => entry.path.strip_prefix(root).unwrap_or(&entry.path),
        None => Path::new(entry.path.file_name().unwrap_or(entry.path.as_os_str())),
    };
    folder.join(relative).with_extension(extension)
}

/// Which input each output belongs to: the first in input order to want it.
fn output_owners(entries: &[Entry], folder: &Path, extension: &str) -> HashMap<PathBuf, PathBuf> {
    let mut owners = HashMap::new();
    for entry in entries {
        owners
            .entry(output_path(entry, folder, extension))
            .or_insert_with(|| entry.path.clone());
    }
    owners
}

fn convert_file(
    catalogue: &Catalogue,
    entry: &Entry,
    forced: Option<&'static Format>,
    target: &'static Format,
    folder: &Path,
    output_path: &Path,
) -> Result<Report, Report> {
    let (format, bytes) = batch::open(catalogue, entry, forced)?;
    let stop = |outcome| Report {
        format: Some(format),
        outcome,
    };
    let converts = target.is(format)
        || catalogue
            .conversions_from(format)
            .any(|conversion| conversion.to.is(target));
    if !converts {
        let detail = Detail::plain(no_conversion(catalogue, format, target).to_string());
        return Err(stop(if entry.named() {
            Outcome::Failed(detail)
        } else {
            Outcome::NotSupported(detail)
        }));
    }
    if output_path == entry.path {
        return Err(stop(Outcome::Failed(Detail::plain(
            "its output would replace it; choose another folder".to_owned(),
        ))));
    }
    let failed = |error: CliError| Report::failed(Some(format), &entry.path, &error);
    let document = input::decode(&entry.path, format, &bytes).map_err(failed)?;
    let parent = output_path.parent().unwrap_or(Path::new("."));
    output::folders_inside(folder, parent).map_err(failed)?;
    // A 1998 prototype character becomes the released game's files, as
    // when it is converted alone: the character file, its meshes, keys and
    // textures, beside where its output goes.
    if retail::is_prototype_for(document.as_ref(), target.name) {
        let input = input::load(catalogue, &entry.path, Some(format.name)).map_err(failed)?;
        let cmx = input.document.as_any().downcast_ref::<Cmx>();
        let warnings = cmx
            .map(|cmx| retail::write_retail(cmx, &input, parent, target.name == "sims-bcf"))
            .transpose()
            .map_err(failed)?
            .unwrap_or_default();
        let mut text = format!(
            "{}: ok, wrote it and the files it names in the released game's formats into {}\n",
            shown(&entry.path),
            parent.display()
        );
        for warning in warnings {
            text.push_str(&format!("  warning: {warning}\n"));
        }
        return Ok(stop(Outcome::Ok {
            text,
            fields: Map::new(),
        }));
    }
    convert(catalogue, &entry.path, format, document.as_ref(), target)
        .and_then(|converted| output::write_file(output_path, &converted))
        .map_err(failed)?;
    Ok(stop(Outcome::Ok {
        text: format!(
            "{}: ok, wrote {}\n",
            shown(&entry.path),
            output_path.display()
        ),
        fields: Map::new(),
    }))
}

/// `--to`, else the format the output file's extension names.
fn target_format(
    catalogue: &Catalogue,
    output_path: &Path,
    to: Option<&str>,
) -> Result<&'static Format, CliError> {
    if let Some(name) = to {
        return input::format_named(catalogue, name);
    }
    catalogue
        .by_extension(&output_path.to_string_lossy())
        .next()
        .ok_or_else(|| {
            CliError::Usage(format!(
                "{}: cannot tell the output format from the extension; pass --to (one of: {})",
                output_path.display(),
                input::known_names(catalogue)
            ))
        })
}

fn no_conversion(catalogue: &Catalogue, from: &Format, to: &Format) -> CliError {
    let targets: Vec<&str> = catalogue
        .conversions_from(from)
        .map(|conversion| conversion.to.name)
        .collect();
    let possible = if targets.is_empty() {
        "none".to_owned()
    } else {
        targets.join(", ")
    };
    CliError::Usage(format!(
        "cannot convert {} ({}) to {} ({}); it converts to: {possible}",
        from.title, from.name, to.title, to.name
    ))
}
