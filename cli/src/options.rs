//! Options several commands share: posing (`--anim`, `--frame`, `--skill`,
//! `--lod`, `--root`, `--outcast-order`), morphing (`--blend`) and dressing
//! (`--texture`, `--tone`, `--custom`).

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use export::assembly::{Tone, UnknownTone};
use formats::catalogue::Catalogue;
use formats::rig::RigOptions;
use skinning::Composition;

use crate::error::CliError;
use crate::input::{self, AnimationChoice};

/// The options every posing command takes.
#[derive(Args)]
pub struct Posing {
    /// Pose with an animation from this file instead of the rest pose.
    #[arg(long, value_name = "FILE")]
    pub anim: Option<PathBuf>,
    /// The frame of the animation, counted from 0 (the first, by default).
    #[arg(long, value_name = "N", requires = "anim")]
    frame: Option<usize>,
    /// Which animation, for a file that holds several.
    #[arg(long, value_name = "NAME", requires = "anim")]
    skill: Option<String>,
    /// Level of detail of skeletons and meshes: 0 is the most detailed.
    #[arg(long, value_name = "N", default_value_t = 0)]
    lod: usize,
    /// Where the files a document refers to by folder (`appearance/mesh/x.lmg`) are
    /// looked up first; the folders above the document's own come next.
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// How an Outcast skeleton composes its joints' turns about their rest
    /// positions: `child-first` turns each joint by its own turn, then by its
    /// ancestors' (the default, which keeps a limb joined); `literal` applies
    /// a parent's accumulated turn first, then each child's about its rest
    /// pivot, which moves joints two or more levels down.
    #[arg(long, value_name = "ORDER", value_enum, default_value_t = OutcastOrder::ChildFirst)]
    outcast_order: OutcastOrder,
}

/// The options of commands that deform meshes.
#[derive(Args)]
pub struct Morphing {
    /// Weight a mesh's morph target (blend shape) by name, e.g. `blend_fat=0.5`
    /// (1 is the whole target); targets not named keep weight 0.
    #[arg(long = "blend", value_name = "NAME=W", value_parser = export::blend_weight)]
    pub blends: Vec<(String, f32)>,
}

/// The options of commands that dress meshes with images (`convert` to
/// glTF, `render`, `skin`): see [`export::assembly`].
#[derive(Args)]
pub struct Dressing {
    /// Dress the mesh (skin) of this name, or the retail suit of this code, with this
    /// image instead of the one its texture gives, e.g.
    /// `xskin-b001mafit_01-PELVIS-BODY=B001MAFitmed_relax.bmp` or
    /// `b001mafit=B001MAFitmed_relax.bmp` (repeatable).
    #[arg(long = "texture", value_name = "SKIN=IMAGE", value_parser = parse_texture)]
    pub images: Vec<(String, PathBuf)>,
    /// The skin tone of retail Sims meshes whose texture is chosen when dressing
    /// (`x`): the images beside them named after their suit and this tone
    /// (`B001MAFit<tone>_*.bmp`, `HUAO<tone>.bmp` for adult hands).
    #[arg(long, value_name = "TONE", default_value = "lgt", value_parser = parse_tone)]
    pub tone: Tone,
    /// Set a Star Wars Galaxies customization variable, as `info` lists a shader's:
    /// a palette entry (`index_color_skin=12`) or one of a run of textures
    /// (`index_texture_1=3`, the Twi'lek head-tail pattern); variables not given take
    /// palette entry 0 and the texture the shader names (repeatable).
    #[arg(long = "custom", value_name = "NAME=INDEX", value_parser = export::shader::custom_value)]
    pub custom: Vec<(String, i32)>,
}

impl Dressing {
    pub fn dressing(&self) -> export::assembly::Dressing {
        export::assembly::Dressing {
            tone: self.tone,
            images: self.images.clone(),
        }
    }

    /// Whether an option other than the defaults is given.
    pub fn given(&self) -> bool {
        !self.images.is_empty() || self.tone != Tone::default() || !self.custom.is_empty()
    }
}

/// Parses `SKIN=IMAGE`.
fn parse_texture(text: &str) -> Result<(String, PathBuf), String> {
    text.split_once('=')
        .filter(|(skin, image)| !skin.is_empty() && !image.is_empty())
        .map(|(skin, image)| (skin.to_owned(), PathBuf::from(image)))
        .ok_or_else(|| {
            format!(
                "`{text}` is not SKIN=IMAGE, e.g. xskin-c001ma_ross-HEAD-HEADB=C001MAmed_Ross.bmp"
            )
        })
}

fn parse_tone(text: &str) -> Result<Tone, String> {
    text.parse().map_err(|error: UnknownTone| error.to_string())
}

/// `--outcast-order`.
#[derive(Clone, Copy, ValueEnum)]
pub enum OutcastOrder {
    ChildFirst,
    Literal,
}

impl OutcastOrder {
    pub fn composition(self) -> Composition {
        match self {
            OutcastOrder::ChildFirst => Composition::Hierarchy,
            OutcastOrder::Literal => Composition::LiteralPivots,
        }
    }
}

impl Posing {
    pub fn animation(&self) -> AnimationChoice<'_> {
        AnimationChoice {
            file: self.anim.as_deref(),
            frame: self.frame,
            name: self.skill.as_deref(),
        }
    }

    pub fn options(&self) -> RigOptions {
        RigOptions { lod: self.lod }
    }

    /// Reads, identifies and decodes a file, its references looked up
    /// under `--root` first.
    pub fn load(
        &self,
        catalogue: &Catalogue,
        path: &Path,
        format: Option<&str>,
    ) -> Result<input::Input, CliError> {
        Ok(input::load(catalogue, path, format)?.with_root(self.root.as_deref()))
    }

    pub fn composition(&self) -> Composition {
        self.outcast_order.composition()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_are_skin_equals_image() {
        assert_eq!(
            parse_texture("xskin-a-HEAD-HEAD=x=y.bmp"),
            Ok(("xskin-a-HEAD-HEAD".to_owned(), PathBuf::from("x=y.bmp")))
        );
        assert!(parse_texture("=a.bmp").is_err());
        assert!(parse_texture("skin=").is_err());
        assert!(parse_texture("skin").is_err());
        assert_eq!(parse_tone("drk"), Ok(Tone::Dark));
        assert!(parse_tone("dark").is_err());
    }
}
