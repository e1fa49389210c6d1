//! `ossuary info`: a readable summary of each file named or found in the
//! folders named.

use export::summary::summary;
use formats::catalogue::Catalogue;
use formats::format::{Description, Format, Joint};
use serde_json::{json, Map, Value};
use viewer::messages::bounded;

use crate::batch::{self, Entry, FilesArgs, Outcome, Report, Style};
use crate::error::{shown, CliError};
use crate::{input, Context};

pub fn run(context: &mut Context, args: &FilesArgs) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let json = args.json;
    let (forced, entries) = args.resolve(&catalogue)?;
    if let (Some(only), false) = (batch::single_file(&entries), json) {
        // One file: its summary, or an error like any other command's.
        let path = &only.path;
        let input = input::load(&catalogue, path, forced.map(|format| format.name))?;
        context.print(&summary(
            &shown(path),
            input.format.title,
            input.format.name,
            &bounded_description(input.document.describe()),
        ))?;
        return Ok(true);
    }
    let style = Style {
        json,
        compares: false,
        summary: true,
    };
    let counts = batch::run(context, &entries, style, |entry| {
        describe_file(&catalogue, entry, forced)
    })?;
    Ok(counts.all_good())
}

fn describe_file(
    catalogue: &Catalogue,
    entry: &Entry,
    forced: Option<&'static Format>,
) -> Result<Report, Report> {
    let (format, bytes) = batch::open(catalogue, entry, forced)?;
    let document = input::decode(&entry.path, format, &bytes)
        .map_err(|error| Report::failed(Some(format), &entry.path, &error))?;
    let description = bounded_description(document.describe());
    let text = summary(&shown(&entry.path), format.title, format.name, &description);
    Ok(Report {
        format: Some(format),
        outcome: Outcome::Ok {
            // A blank line after each summary keeps the files apart.
            text: format!("{text}\n"),
            fields: description_json(format, &description),
        },
    })
}

/// A file's description with each value and joint name as a message
/// shows it ([`bounded`]): a summary is for people, and a name a file
/// holds can be megabytes long.
fn bounded_description(description: Description) -> Description {
    Description {
        facts: description
            .facts
            .into_iter()
            .map(|(label, value)| (label, bounded(&value).into_owned()))
            .collect(),
        joints: description
            .joints
            .into_iter()
            .map(|joint| Joint {
                name: bounded(&joint.name).into_owned(),
                ..joint
            })
            .collect(),
    }
}

/// `--json`'s fields of a summary: the title, the facts in order and the
/// joint tree as parent indices.
fn description_json(format: &Format, description: &Description) -> Map<String, Value> {
    let facts: Vec<Value> = description
        .facts
        .iter()
        .map(|(label, value)| json!({ "label": label, "value": value }))
        .collect();
    let joints: Vec<Value> = description
        .joints
        .iter()
        .map(|joint| json!({ "name": joint.name, "parent": joint.parent }))
        .collect();
    let mut fields = Map::new();
    fields.insert("title".into(), json!(format.title));
    fields.insert("facts".into(), Value::Array(facts));
    fields.insert("joints".into(), Value::Array(joints));
    fields
}
