//! `ossuary formats`: every format of the catalogue, what it converts to
//! and what the posing commands can do with it.

use crate::error::CliError;
use crate::Context;
use formats::capabilities::Capabilities;

const HEADINGS: [&str; 8] = [
    "NAME",
    "TITLE",
    "EXTENSIONS",
    "CONVERTS TO",
    "POSE",
    "SKIN",
    "ANIMATE",
    "RENDER",
];

/// What the yes/no columns mean.
const LEGEND: &str = "\
POSE: has a skeleton (`joints`, and posing meshes in `skin` and `render`).
SKIN: has meshes that a skeleton deforms (`skin`, `render`).
ANIMATE: has animations (`--anim`).
RENDER: `render` draws it.
";

pub fn run(context: &mut Context) -> Result<bool, CliError> {
    let catalogue = context.catalogue;
    let yes_or_no = |yes: bool| if yes { "yes" } else { "-" }.to_owned();
    let mut rows = vec![HEADINGS.map(str::to_owned)];
    for format in catalogue.formats() {
        let capabilities = Capabilities::of(format);
        let extensions: Vec<String> = format
            .extensions
            .iter()
            .map(|extension| format!(".{extension}"))
            .collect();
        let targets: Vec<&str> = catalogue
            .conversions_from(format)
            .map(|conversion| conversion.to.name)
            .collect();
        rows.push([
            format.name.to_owned(),
            format.title.to_owned(),
            extensions.join(" "),
            if targets.is_empty() {
                "-".to_owned()
            } else {
                targets.join(", ")
            },
            yes_or_no(capabilities.skeleton),
            yes_or_no(capabilities.meshes),
            yes_or_no(capabilities.animations),
            yes_or_no(capabilities.renders()),
        ]);
    }
    let mut widths = [0; HEADINGS.len()];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut text = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:width$}"))
            .collect();
        text.push_str(cells.join("  ").trim_end());
        text.push('\n');
    }
    text.push('\n');
    text.push_str(LEGEND);
    context.print(&text)?;
    Ok(true)
}
