//! Every format, registered once. The CLI, the generated docs and fixtures,
//! and the tests crate's round trips all work from this list.

use crate::format::{Conversion, Format};

/// Every format ossuary knows.
pub static FORMATS: &[&Format] = &[
    &crate::sims::skel::FORMAT,
    &crate::sims::mesh::FORMAT,
    &crate::sims::anim::FORMAT,
    &crate::sims::apr::FORMAT,
    &crate::sims::bnd::FORMAT,
    &crate::sims::cmx::FORMAT,
    &crate::sims::bcf::FORMAT,
    &crate::sims::skn::FORMAT,
    &crate::sims::bmf::FORMAT,
    &crate::sims::msh::FORMAT,
    &crate::sims::cfp::FORMAT,
    &crate::sims::bin::FORMAT,
    &crate::swg::skt::FORMAT,
    &crate::swg::mgn::FORMAT,
    &crate::swg::lmg::FORMAT,
    &crate::swg::sat::FORMAT,
    &crate::swg::sht::FORMAT,
    &crate::swg::pal::FORMAT,
    &crate::objects::FORMAT,
    &crate::outcast::skeleton::FORMAT,
    &crate::outcast::animation::FORMAT,
    &crate::bonespro::STRUCTURE,
    &crate::bonespro::ANIMATION,
];

/// A list of formats to choose from: [`FORMATS`], or another list for a
/// program (or a test) that brings formats of its own.
#[derive(Clone, Copy)]
pub struct Catalogue {
    formats: &'static [&'static Format],
}

impl Default for Catalogue {
    fn default() -> Self {
        Catalogue::new(FORMATS)
    }
}

impl Catalogue {
    pub const fn new(formats: &'static [&'static Format]) -> Self {
        Catalogue { formats }
    }

    pub fn formats(&self) -> &'static [&'static Format] {
        self.formats
    }

    /// The format with this `--format` name.
    pub fn by_name(&self, name: &str) -> Option<&'static Format> {
        self.formats
            .iter()
            .copied()
            .find(|format| format.name == name)
    }

    /// The formats whose extensions include the file name's (ignoring case).
    pub fn by_extension<'a>(
        &self,
        file_name: &'a str,
    ) -> impl Iterator<Item = &'static Format> + 'a {
        let extension = file_name
            .rsplit_once('.')
            .map(|(_, extension)| extension.to_ascii_lowercase());
        self.formats.iter().copied().filter(move |format| {
            extension
                .as_deref()
                .is_some_and(|extension| format.extensions.contains(&extension))
        })
    }

    /// The format a file is in: by its extension, then by its content.
    pub fn detect(&self, file_name: &str, bytes: &[u8]) -> Option<&'static Format> {
        let by_extension: Vec<&'static Format> = self.by_extension(file_name).collect();
        match by_extension.as_slice() {
            [only] => Some(*only),
            [] => self
                .formats
                .iter()
                .copied()
                .find(|format| (format.sniff)(bytes)),
            several => several.iter().copied().find(|format| (format.sniff)(bytes)),
        }
    }

    /// The conversions `ossuary convert` can make from `format`, wherever
    /// they are declared.
    pub fn conversions_from<'a>(
        &self,
        format: &'a Format,
    ) -> impl Iterator<Item = &'static Conversion> + 'a {
        self.formats
            .iter()
            .flat_map(|declaring| declaring.conversions)
            .filter(move |conversion| conversion.from.is(format))
    }
}
