//! The format reference, one Markdown page per format, from `Layout` metadata.

use std::fmt::Write as _;

use formats::format::{Encoding, Format};
use formats::schema::TypeLayout;

pub fn format_page(format: &Format, generated: &str) -> String {
    let mut page = format!("{generated}\n\n# {} (`{}`)\n\n", format.title, format.name);
    let (extensions, encoding) = (extension_list(format), encoding_name(format));
    let _ = writeln!(
        page,
        "Extensions: {extensions}. Encoding: {encoding}. CLI: `--format {}`.\n",
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
        "" => "each variant's own",
        other => other,
    };
    let framing = match layout.form {
        Some(form) => format!("IFF `FORM {form}` (sizes big-endian, no pad bytes). "),
        None if layout.byte_order.is_empty() => {
            "One of these forms, chosen by its type. ".to_owned()
        }
        None => String::new(),
    };
    let _ = writeln!(page, "{framing}Byte order: {order}. Size: {size}.\n");
    page.push_str(
        "| offset | field | Rust type | stored as | byte order | count from | description |\n",
    );
    page.push_str("|---|---|---|---|---|---|---|\n");
    for field in layout.fields {
        let offset = field
            .offset
            .map_or("—".to_owned(), |offset| offset.to_string());
        let stored_as = match field.chunk {
            Some(tag) => format!("chunk `{tag}`: {}", field.encoding),
            None => field.encoding.to_owned(),
        };
        let _ = writeln!(
            page,
            "| {offset} | `{}` | `{}` | {} | {} | {} | {} |",
            field.name,
            field.rust_type,
            cell(&stored_as),
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
        let (extensions, encoding) = (extension_list(format), encoding_name(format));
        let _ = writeln!(
            page,
            "| [{}]({}.md) | `{}` | {extensions} | {encoding} |",
            format.title, format.name, format.name,
        );
    }
    page
}

/// `` `.skel`, `.skl` ``
fn extension_list(format: &Format) -> String {
    let extensions: Vec<String> = format
        .extensions
        .iter()
        .map(|ext| format!("`.{ext}`"))
        .collect();
    extensions.join(", ")
}

fn encoding_name(format: &Format) -> &'static str {
    match format.encoding {
        Encoding::Binary => "binary",
        Encoding::Text => "text",
    }
}
