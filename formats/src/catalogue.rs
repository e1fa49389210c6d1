//! Every format, registered once. The CLI, the generated docs, the fixtures
//! and the tests crate's round trips all work from this list.

use crate::format::{Conversion, Format};

/// Every registered format.
pub static FORMATS: &[&Format] = &[
    &crate::sims::skel::FORMAT,
    &crate::sims::cmx::FORMAT,
    &crate::sims::bcf::FORMAT,
    &crate::sims::skn::FORMAT,
    &crate::sims::bmf::FORMAT,
    &crate::swg::skt::FORMAT,
];

/// The format with this `--format` name.
pub fn by_name(name: &str) -> Option<&'static Format> {
    FORMATS.iter().copied().find(|format| format.name == name)
}

/// The format a file is in: by its extension, then by its content.
pub fn detect(file_name: &str, bytes: &[u8]) -> Option<&'static Format> {
    let extension = file_name
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase());
    let by_extension: Vec<&'static Format> = FORMATS
        .iter()
        .copied()
        .filter(|format| {
            extension
                .as_deref()
                .is_some_and(|ext| format.extensions.contains(&ext))
        })
        .collect();
    match by_extension.as_slice() {
        [only] => Some(*only),
        [] => FORMATS.iter().copied().find(|format| (format.sniff)(bytes)),
        several => several.iter().copied().find(|format| (format.sniff)(bytes)),
    }
}

/// Whether some format claims this extension (directory walks take only these).
pub fn is_known_extension(file_name: &str) -> bool {
    file_name.rsplit_once('.').is_some_and(|(_, extension)| {
        let extension = extension.to_ascii_lowercase();
        FORMATS
            .iter()
            .any(|format| format.extensions.contains(&extension.as_str()))
    })
}

/// The conversions `ossuary convert` can make from `format`, wherever they
/// are declared.
pub fn conversions_from(format: &Format) -> impl Iterator<Item = &'static Conversion> + '_ {
    FORMATS
        .iter()
        .flat_map(|declaring| declaring.conversions)
        .filter(move |conversion| conversion.from.is(format))
}
