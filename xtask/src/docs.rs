//! The format reference, one Markdown page per format, from `Layout` metadata.

use std::fmt::Write as _;

use formats::registry::{Encoding, Format};
use formats::schema::TypeLayout;

pub fn format_page(format: &Format, generated: &str) -> String {
    let mut page = format!("{generated}\n\n# {} (`{}`)\n\n", format.title, format.name);
    let extensions: Vec<String> = format
        .extensions
        .iter()
        .map(|ext| format!("`.{ext}`"))
        .collect();
    let encoding = match format.encoding {
        Encoding::Binary => "binary",
        Encoding::Text => "text",
    };
    let _ = writeln!(
        page,
        "Extensions: {}. Encoding: {encoding}. CLI: `--format {}`.\n",
        extensions.join(", "),
        format.name
    );
    if let Some(top) = format.layouts.first() {
        let _ = writeln!(page, "{}\n", top.doc.trim());
    }
    for (index, layout) in format.layouts.iter().enumerate() {
        // The top-level type's doc already opens the page.
        type_section(&mut page, layout, index > 0);
    }
    page
}

fn type_section(page: &mut String, layout: &TypeLayout, with_doc: bool) {
    let _ = writeln!(page, "## `{}`\n", layout.name);
    if with_doc && !layout.doc.trim().is_empty() {
        let _ = writeln!(page, "{}\n", layout.doc.trim());
    }
    let size = match layout.fixed_size {
        Some(size) => format!("always {size} bytes"),
        None => format!("at least {} bytes", layout.min_size),
    };
    let order = match layout.byte_order {
        "big" => "big-endian unless a field says otherwise",
        "little" => "little-endian unless a field says otherwise",
        other => other,
    };
    let _ = writeln!(page, "Byte order: {order}. Size: {size}.\n");
    page.push_str(
        "| offset | field | Rust type | stored as | byte order | count from | description |\n",
    );
    page.push_str("|---|---|---|---|---|---|---|\n");
    for field in layout.fields {
        let offset = field
            .offset
            .map_or("—".to_owned(), |offset| offset.to_string());
        let _ = writeln!(
            page,
            "| {offset} | `{}` | `{}` | {} | {} | {} | {} |",
            field.name,
            field.rust_type,
            cell(field.encoding),
            field.byte_order,
            cell(field.count.unwrap_or("—")),
            cell(&field.doc.replace('\n', " ")),
        );
    }
    page.push('\n');
}

/// Table cells cannot hold `|`.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

pub fn index_page(formats: &[&Format], generated: &str) -> String {
    let mut page = format!("{generated}\n\n# Format reference\n\nOne page per format, generated from the schema types.\n\n");
    page.push_str("| format | name | extensions | encoding |\n|---|---|---|---|\n");
    for format in formats {
        let extensions: Vec<String> = format
            .extensions
            .iter()
            .map(|ext| format!("`.{ext}`"))
            .collect();
        let encoding = match format.encoding {
            Encoding::Binary => "binary",
            Encoding::Text => "text",
        };
        let _ = writeln!(
            page,
            "| [{}]({}.md) | `{}` | {} | {encoding} |",
            format.title,
            format.name,
            format.name,
            extensions.join(", ")
        );
    }
    page
}
