//! The format reference, one Markdown page per format, from `Layout` metadata.

use std::fmt::Write as _;

use formats::format::{Encoding, Format};
use formats::schema::{ByteOrder, TypeLayout};

pub fn format_page(format: &Format, generated: &str) -> String {
    let mut page = format!("{generated}\n\n# {} (`{}`)\n\n", format.title, format.name);
    let (extensions, encoding) = (extension_list(format), encoding_name(format));
    let _ = writeln!(
        page,
        "Extensions: {extensions}. Encoding: {encoding}. CLI: `--format {}`.\n",
        format.name
    );
    let _ = writeln!(page, "{}\n", format.layout.doc.trim());
    for (index, layout) in layouts_within(format.layout).iter().enumerate() {
        // The top-level type's doc already opens the page.
        type_section(&mut page, layout, index > 0);
    }
    page
}

/// The type and every schema type it holds, however deep, each once, in
/// the order a reader of the file meets them (depth first).
fn layouts_within(top: TypeLayout) -> Vec<TypeLayout> {
    let mut found = Vec::new();
    let mut pending = vec![top];
    while let Some(layout) = pending.pop() {
        if found
            .iter()
            .any(|seen: &TypeLayout| seen.name == layout.name)
        {
            continue;
        }
        // Reversed, so the first field's type comes off the stack first.
        pending.extend(
            layout
                .fields
                .iter()
                .rev()
                .filter_map(|field| field.nested)
                .map(|nested| nested()),
        );
        found.push(layout);
    }
    found
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
        ByteOrder::Big => "big-endian unless a field says otherwise".to_owned(),
        ByteOrder::Little => "little-endian unless a field says otherwise".to_owned(),
        ByteOrder::Text => "text".to_owned(),
        ByteOrder::PerForm => "each variant's own".to_owned(),
        ByteOrder::Context(param) => {
            format!("the context value `{param}`'s, unless a field says otherwise")
        }
    };
    let framing = match (
        layout.form,
        layout.chunk,
        layout.chosen_by,
        layout.byte_order,
    ) {
        (Some(form), _, _, _) => format!("IFF `FORM {form}` (sizes big-endian, no pad bytes). "),
        (None, Some(tag), _, _) => format!("IFF chunk `{tag}` (size big-endian). "),
        (None, None, Some(chosen_by), _) => {
            format!("One of these variants, chosen by {chosen_by}. ")
        }
        (None, None, None, ByteOrder::PerForm) => {
            "One of these IFF elements, chosen by the next form's type or chunk's tag. ".to_owned()
        }
        (None, None, None, _) => String::new(),
    };
    let _ = writeln!(page, "{framing}Byte order: {order}. Size: {size}.\n");
    if !layout.context.is_empty() {
        let params: Vec<String> = layout
            .context
            .iter()
            .map(|param| format!("`{}: {}`", param.name, param.rust_type))
            .collect();
        let _ = writeln!(
            page,
            "Context (given by the type that holds it, not stored here): {}.\n",
            params.join(", ")
        );
    }
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
            order_cell(field.byte_order),
            cell(field.count.unwrap_or("—")),
            cell(&field.doc.replace('\n', " ")),
        );
    }
    page.push('\n');
}

/// A field's byte order in its table row; a variant's is its form's own,
/// stated in that form's section.
fn order_cell(order: ByteOrder) -> String {
    match order {
        ByteOrder::Big => "big".to_owned(),
        ByteOrder::Little => "little".to_owned(),
        ByteOrder::Text => "text".to_owned(),
        ByteOrder::PerForm => String::new(),
        ByteOrder::Context(param) => format!("`{param}`"),
    }
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
