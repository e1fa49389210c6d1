//! The assembly of a character, shared by the command line (`convert`,
//! `render`, `skin`) and the viewer: which input gives the skeleton, the
//! meshes every input gives, the image each mesh is dressed with, and the
//! warnings met on the way (each said once).
//!
//! Dressing. A mesh's image is, first, the one chosen for it by name
//! ([`Dressing::images`], the command line's `--texture SKIN=IMAGE`); then
//! the image its texture names ([`find_texture`]); then, for a retail Sims
//! skin, which names its texture `x` (or an image the game does not ship),
//! the image the game would choose when
//! dressing a Sim: a BMP beside the mesh's file whose name starts with the
//! suit's code and the skin tone ([`Dressing::tone`]), then anything (the
//! outfit): `B001MAFitlgt_relax.bmp` for the body
//! `xskin-b001mafit_01-PELVIS-BODY`, `C001MAmed_Ross.bmp` for the head
//! `xskin-c001ma_ross-HEAD-HEADB`. Hands carry no suit code of their own:
//! they wear the game's hand images of their shape, for either sex and
//! both sides, `HUA` then `O` (open), `C` (closed) or `P` (pointing):
//! `HUAO<tone>.bmp` for the open hands `xskin-hmlo-L_HAND-HANDML` and
//! `xskin-hulo-L_HAND-HANDCL`, `HUAC<tone>.bmp` for the fist
//! `xskin-hurc-R_HAND-FISTCR`. A child wears the same hands and images as
//! an adult: the game's hand meshes and images name no age (its images are
//! `H`, the sex `M`, `F` or `U`, the side `L`, `R` or `A` for both, the
//! shape, the tone; the released game ships no child's own).
//! Where several outfits fit, the first by name is taken. The skin's own
//! texture field is never changed: the image is the view's choice.
//!
//! A Star Wars Galaxies mesh names a shader (`shader/twk_f_skull.sht`)
//! rather than an image: it is dressed in the material the shader
//! describes ([`crate::shader`]), customized by
//! [`Assembly::customization`].

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use formats::files::{read_file, Files, FindError, FoundFile};
use formats::rig::{self, RigError};

use crate::import::sims::SuitPlace;
use crate::shader;
use crate::texture::find_texture;
use crate::texture::ShaderMaterial;
use crate::{Character, Container, ExportError, Mesh};

/// A Sim's skin tone, as the game names it in its texture files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tone {
    #[default]
    Light,
    Medium,
    Dark,
}

impl Tone {
    pub const ALL: [Tone; 3] = [Tone::Light, Tone::Medium, Tone::Dark];

    /// The tone's code in file names: `lgt`, `med`, `drk`.
    pub fn code(self) -> &'static str {
        match self {
            Tone::Light => "lgt",
            Tone::Medium => "med",
            Tone::Dark => "drk",
        }
    }
}

impl fmt::Display for Tone {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.code())
    }
}

/// A tone that is none of `lgt`, `med`, `drk`.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a skin tone: lgt, med or drk")]
pub struct UnknownTone(String);

impl FromStr for Tone {
    type Err = UnknownTone;

    fn from_str(text: &str) -> Result<Tone, UnknownTone> {
        Tone::ALL
            .into_iter()
            .find(|tone| tone.code().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownTone(text.to_owned()))
    }
}

/// How a character is dressed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dressing {
    /// The skin tone retail Sims skins are dressed in.
    pub tone: Tone,
    /// Images chosen for skins, by skin name or, for retail suits, by the
    /// suit's set ([`Suit::set`]: `b001mafit`, `hmo` for both hands of
    /// `hmlo` and `hmro`), any case: they replace whatever the skin's
    /// texture would give.
    pub images: Vec<(String, PathBuf)>,
}

/// A Sim's age, as the suits' names and the skeletons' file names give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Age {
    Adult,
    Child,
}

impl Age {
    /// The age a skeleton or animation file's name gives (`adult-skeleton`,
    /// `child-idle`), if any.
    pub fn of_file(name: &str) -> Option<Age> {
        let name = name.to_ascii_lowercase();
        if name.starts_with("adult") {
            Some(Age::Adult)
        } else if name.starts_with("child") {
            Some(Age::Child)
        } else {
            None
        }
    }
}

/// Where a suit goes on a Sim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Body,
    Head,
    Hands,
}

/// What a retail suit's name says: `b001mafit_01` is a body (`b`) for a
/// male (`m`) adult (`a`), its code `b001mafit`; `c002fc_lisa` a head
/// (`c`) for a female child; `hmlo` a left hand (`l`), open (`o`), whose
/// pair is `hmro`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suit {
    pub slot: Slot,
    /// `None` for hands, whose names carry no age.
    pub age: Option<Age>,
    /// What the textures' names start with, in lower case.
    pub code: String,
    /// Suits of one set are worn together (a left and a right hand).
    pub set: String,
    /// `m`, `f` or `u` (either).
    pub sex: char,
}

impl Suit {
    /// The suit a retail suit or skin name describes (`b001mafit_01`,
    /// `xskin-b001mafit_01-PELVIS-BODY`, a file name with its extension);
    /// `None` for any other name.
    pub fn of_name(name: &str) -> Option<Suit> {
        let name = name.to_ascii_lowercase();
        let stem = name
            .rsplit_once('.')
            .filter(|(_, extension)| matches!(*extension, "skn" | "cmx" | "bcf" | "bmf"))
            .map_or(name.as_str(), |(stem, _)| stem);
        let suit = match stem.strip_prefix("xskin-") {
            Some(rest) => rest.split('-').next()?,
            None => stem,
        };
        let code = suit.split('_').next()?;
        let letters: Vec<char> = code.chars().collect();
        match letters.as_slice() {
            ['b' | 'c', d1, d2, d3, sex, age, ..]
                if [d1, d2, d3].iter().all(|digit| digit.is_ascii_digit()) =>
            {
                let age = match age {
                    'a' => Age::Adult,
                    'c' => Age::Child,
                    _ => return None,
                };
                let slot = if letters.first() == Some(&'b') {
                    Slot::Body
                } else {
                    Slot::Head
                };
                Some(Suit {
                    slot,
                    age: Some(age),
                    code: code.to_owned(),
                    set: code.to_owned(),
                    sex: *sex,
                })
            }
            // The side (`l`, `r`) only tells a pair's two halves apart.
            ['h', sex, 'l' | 'r', shape] => Some(Suit {
                slot: Slot::Hands,
                age: None,
                code: code.to_owned(),
                set: format!("h{sex}{shape}"),
                sex: *sex,
            }),
            _ => None,
        }
    }

    /// Whether the suit fits a Sim of `age` (suits and Sims of no known
    /// age fit all).
    pub fn fits(&self, age: Option<Age>) -> bool {
        self.age.is_none() || age.is_none() || self.age == age
    }

    /// What the names of this suit's textures start with, in lower case:
    /// the suit's code, or for hands, which have none, the hand images of
    /// their shape (`hua` and the code's last letter: `huao` for `hmlo`),
    /// the same for adults and children (see the module's documentation).
    pub fn texture_prefix(&self) -> String {
        match self.slot {
            Slot::Hands => format!("hua{}", self.code.get(3..).unwrap_or_default()),
            Slot::Body | Slot::Head => self.code.clone(),
        }
    }
}

/// The images in `folder` that dress `suit` in `tone`: BMPs whose names
/// start with its texture prefix and the tone's code, by name. Names only;
/// they are read through [`Files`], which keeps to the folders allowed.
pub fn suit_images(folder: &Path, suit: &Suit, tone: Tone) -> Vec<String> {
    let start = format!("{}{tone}", suit.texture_prefix());
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| {
            let lower = name.to_ascii_lowercase();
            lower.starts_with(&start) && lower.ends_with(".bmp")
        })
        .collect();
    names.sort_by_key(|name| name.to_ascii_lowercase());
    names
}

/// Why a character cannot be assembled.
#[derive(Debug, thiserror::Error)]
pub enum AssemblyError {
    /// A file's reference could not be read.
    #[error("{}: {source}", .path.display())]
    File { path: PathBuf, source: RigError },
    /// An image chosen for a skin cannot be read.
    #[error(
        "{}: cannot read the image chosen for \"{}\": {source}",
        .path.display(),
        crate::quoted(.skin)
    )]
    Image {
        path: PathBuf,
        skin: String,
        source: formats::files::ReadError,
    },
    /// The asset cannot be written; `path` is the file of the failing part.
    /// Boxed: export errors are large and rare.
    #[error("{}: {source}", .path.display())]
    Export {
        path: PathBuf,
        source: Box<ExportError>,
    },
}

/// A mesh of the character, where it came from, and its image.
pub struct Dressed {
    pub skin: rig::Skin,
    /// The file that gave the mesh.
    pub path: PathBuf,
    pub texture: Option<FoundFile>,
    /// The material of the Star Wars Galaxies shader the skin names, if
    /// it could be had (then `texture` is `None`).
    pub shader: Option<Arc<ShaderMaterial>>,
    /// The Sims suit that wears it, if known.
    pub suit: Option<SuitPlace>,
}

/// A character being assembled: inputs are added in order; the first with
/// a skeleton gives it.
#[derive(Default)]
pub struct Assembly {
    pub dressing: Dressing,
    /// The skeleton and the file it came from.
    pub skeleton: Option<(PathBuf, rig::Skeleton)>,
    pub meshes: Vec<Dressed>,
    /// The files the character was read from, for the asset to carry.
    pub originals: Vec<crate::import::carried::Original>,
    /// The values of Star Wars Galaxies customization variables
    /// (`index_color_skin`, 12), by name; a variable not given takes
    /// palette entry 0, or the texture its shader names.
    pub customization: Vec<(String, i32)>,
    /// Said once each, in the order met.
    pub warnings: Vec<String>,
    /// Shader materials made so far, by shader name (`None`: the shader
    /// could not be had), so that meshes sharing a shader share it.
    shaders: HashMap<String, Option<Arc<ShaderMaterial>>>,
    /// Textures (and a shader's files) already warned about: a texture
    /// several meshes name without an image is said once.
    missing_textures: Vec<String>,
}

impl Assembly {
    pub fn new(dressing: Dressing) -> Assembly {
        Assembly {
            dressing,
            ..Assembly::default()
        }
    }

    /// Adds a warning unless it was given already.
    pub fn warn(&mut self, warning: String) {
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
    }

    /// Takes `skeleton` (from `path`) as the character's, unless it has one.
    /// Whether it was taken.
    pub fn offer_skeleton(&mut self, path: &Path, skeleton: rig::Skeleton) -> bool {
        if self.skeleton.is_some() {
            return false;
        }
        self.skeleton = Some((path.to_path_buf(), skeleton));
        true
    }

    /// Adds the skins `path` gives, each dressed ([`Assembly::image`]).
    /// `suits` says, by skin name (any case), which Sims suit wears each
    /// skin, for the asset to carry.
    pub fn add_skins(
        &mut self,
        path: &Path,
        files: &Files,
        skins: Vec<rig::Skin>,
        suits: &[(String, SuitPlace)],
    ) -> Result<(), AssemblyError> {
        for skin in skins {
            let shader = self.shader(files, &skin);
            let names_shader = skin.texture.as_deref().is_some_and(shader::names_shader);
            let texture = if names_shader {
                None
            } else {
                self.image(path, files, &skin)?
            };
            let suit = suits
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(&skin.name))
                .map(|(_, place)| place.clone());
            self.meshes.push(Dressed {
                skin,
                path: path.to_path_buf(),
                texture,
                shader,
                suit,
            });
        }
        Ok(())
    }

    /// The material of the Star Wars Galaxies shader `skin` names (its
    /// files found through `files`, customized by
    /// [`Assembly::customization`]), made once per shader; `None` when the
    /// skin names no shader or the shader cannot be had (a warning).
    pub fn shader(&mut self, files: &Files, skin: &rig::Skin) -> Option<Arc<ShaderMaterial>> {
        let name = skin
            .texture
            .as_deref()
            .filter(|name| shader::names_shader(name))?;
        if let Some(made) = self.shaders.get(name) {
            return made.clone();
        }
        let mut warnings = Vec::new();
        let made = shader::material(name, files, &self.customization, &mut |file, warning| {
            warnings.push((file.to_owned(), warning))
        })
        .map(Arc::new);
        // A file several shaders name (a palette) is said missing once.
        for (file, warning) in warnings {
            if !self.missing_textures.contains(&file) {
                self.missing_textures.push(file);
                self.warn(warning);
            }
        }
        self.shaders.insert(name.to_owned(), made.clone());
        made
    }

    /// Warns of each customization variable given that no shader made so
    /// far declares (a name mistyped), once: call it when every mesh is in.
    pub fn warn_unknown_customization(&mut self) {
        let unknown: Vec<String> = self
            .customization
            .iter()
            .map(|(name, _)| name)
            .filter(|name| {
                !self.shaders.values().flatten().any(|material| {
                    material
                        .variables
                        .iter()
                        .any(|known| known.eq_ignore_ascii_case(name))
                })
            })
            .map(|name| {
                format!(
                    "no shader of the character has the customization variable \"{}\"",
                    crate::quoted(name)
                )
            })
            .collect();
        for warning in unknown {
            self.warn(warning);
        }
    }

    /// The image `skin` (from the file at `path`, its references found
    /// through `files`) is dressed with, as the module's documentation
    /// says; a warning when it names a texture and none is found.
    pub fn image(
        &mut self,
        path: &Path,
        files: &Files,
        skin: &rig::Skin,
    ) -> Result<Option<FoundFile>, AssemblyError> {
        let suit = Suit::of_name(&skin.name);
        let chosen = self.dressing.images.iter().rev().find(|(name, _)| {
            name.eq_ignore_ascii_case(&skin.name)
                || suit
                    .as_ref()
                    .is_some_and(|suit| suit.set.eq_ignore_ascii_case(name))
        });
        if let Some((_, image)) = chosen {
            let bytes = read_file(image, files.limit()).map_err(|source| AssemblyError::Image {
                path: image.clone(),
                skin: skin.name.clone(),
                source,
            })?;
            return Ok(Some(FoundFile {
                path: image.clone(),
                bytes,
            }));
        }
        let file_error = |source: RigError| AssemblyError::File {
            path: path.to_path_buf(),
            source,
        };
        if let Some(found) = find_texture(skin, files).map_err(file_error)? {
            return Ok(Some(found));
        }
        if let Some(suit) = suit {
            // A bare file name's folder is the current one (`read_dir("")` fails).
            let folder = path
                .parent()
                .filter(|parent| !parent.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let names = suit_images(folder, &suit, self.dressing.tone);
            let what = format!(
                "the {} texture of {}",
                self.dressing.tone,
                crate::quoted(&skin.name)
            );
            match files.find_beside(&what, &names) {
                Ok(found) => return Ok(Some(found)),
                Err(FindError::Missing { .. }) => {
                    let prefix = suit.texture_prefix();
                    self.warn(format!(
                        "{}: no image {}{}*.bmp beside it for {} in skin tone {}; its meshes \
                         get a plain material",
                        path.display(),
                        crate::quoted(&prefix.to_ascii_uppercase()),
                        self.dressing.tone,
                        crate::quoted(&skin.name),
                        self.dressing.tone
                    ));
                    return Ok(None);
                }
                Err(other) => return Err(file_error(other.into())),
            }
        }
        if let Some(name) = skin
            .texture
            .as_ref()
            .filter(|name| !self.missing_textures.contains(name))
        {
            self.missing_textures.push(name.clone());
            self.warn(format!(
                "{}: no image found for the texture \"{}\" (of {}), beside the file \
                 or in a Textures folder beside it; its meshes get a plain material",
                path.display(),
                crate::quoted(name),
                crate::quoted(&skin.name)
            ));
        }
        Ok(None)
    }

    /// The glTF asset of the character with `animations` (each with the
    /// file it came from, and in `sims_skills` the Sims skill record it
    /// came from, if any). `None` when no input gave a skeleton.
    pub fn export(
        &self,
        animations: &[(PathBuf, rig::Animation)],
        sims_skills: &[Option<formats::sims::cmx::Skill>],
        blend_weights: &[(String, f32)],
        composition: skinning::Composition,
        container: Container,
    ) -> Option<Result<Vec<u8>, AssemblyError>> {
        let (skeleton_path, skeleton) = self.skeleton.as_ref()?;
        let clips: Vec<rig::Animation> = animations
            .iter()
            .map(|(_, animation)| animation.clone())
            .collect();
        let character = Character {
            skeleton,
            meshes: self
                .meshes
                .iter()
                .map(|dressed| Mesh {
                    skin: &dressed.skin,
                    texture: dressed.texture.clone(),
                    shader: dressed.shader.as_deref(),
                    suit: dressed.suit.clone(),
                })
                .collect(),
            animations: &clips,
            sims_skills,
            blend_weights,
            composition,
            originals: &self.originals,
        };
        Some(crate::export(&character, container).map_err(|source| {
            // Name the file the failing part came from.
            let path = match &source {
                ExportError::Mesh { index, .. } => {
                    self.meshes.get(*index).map(|dressed| &dressed.path)
                }
                ExportError::Animation { index, .. } => {
                    animations.get(*index).map(|(path, _)| path)
                }
                _ => None,
            };
            AssemblyError::Export {
                path: path.unwrap_or(skeleton_path).clone(),
                source: Box::new(source),
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retail_names_give_their_suits() {
        let body = Suit::of_name("xskin-b001mafit_01-PELVIS-BODY").unwrap();
        assert_eq!(
            (body.slot, body.age, body.code.as_str()),
            (Slot::Body, Some(Age::Adult), "b001mafit")
        );
        let head = Suit::of_name("C002FC_Lisa.cmx").unwrap();
        assert_eq!(
            (head.slot, head.age, head.code.as_str()),
            (Slot::Head, Some(Age::Child), "c002fc")
        );
        let left = Suit::of_name("xskin-hmlo-L_HAND-HANDML.skn").unwrap();
        let right = Suit::of_name("xskin-hmro-R_HAND-HANDMR").unwrap();
        assert_eq!((left.slot, left.age), (Slot::Hands, None));
        assert_eq!(left.set, right.set);
        assert_ne!(
            left.set,
            Suit::of_name("xskin-hflo-L_HAND-HANDFL").unwrap().set
        );
        for other in [
            "adult-skeleton.cmx",
            "xskin-humanoid-L_ARM-ARM",
            "humanoid.skn",
        ] {
            assert_eq!(Suit::of_name(other), None, "{other}");
        }
    }

    #[test]
    fn a_tone_without_an_image_is_one_warning_and_a_plain_mesh() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("B001MAFitlgt_relax.bmp"), b"BM").unwrap();
        let path = dir.path().join("B001MAFit_01.cmx");
        let files = Files::beside(&path);
        let skin = crate::tests::skin_without_vertices("xskin-b001mafit_01-PELVIS-BODY", "x");
        let mut assembly = Assembly::new(Dressing {
            tone: Tone::Dark,
            images: Vec::new(),
        });
        assembly
            .add_skins(&path, &files, vec![skin.clone(), skin.clone()], &[])
            .unwrap();
        assert!(assembly.meshes.iter().all(|mesh| mesh.texture.is_none()));
        assert_eq!(assembly.warnings.len(), 1, "{:?}", assembly.warnings);
        assert!(assembly.warnings[0].contains("no image B001MAFITdrk*.bmp"));
        let mut light = Assembly::new(Dressing::default());
        let found = light.image(&path, &files, &skin).unwrap().unwrap();
        assert!(found.path.ends_with("B001MAFitlgt_relax.bmp"));
    }

    #[test]
    fn tones_read_as_the_files_name_them() {
        assert_eq!("MED".parse::<Tone>().unwrap(), Tone::Medium);
        assert_eq!(
            "tan".parse::<Tone>().unwrap_err().to_string(),
            "`tan` is not a skin tone: lgt, med or drk"
        );
    }

    #[test]
    fn a_suit_wears_the_images_of_its_code_and_tone_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "B001MAFitlgt_relax.bmp",
            "B001MAFitmed_relax.bmp",
            "b001mafitlgt_beach.bmp",
            "B001MAFatlgt_relax.bmp",
            "HUAOlgt.bmp",
            "HUACdrk.bmp",
        ] {
            std::fs::write(dir.path().join(name), b"BM").unwrap();
        }
        let body = Suit::of_name("xskin-b001mafit_01-PELVIS-BODY").unwrap();
        assert_eq!(
            suit_images(dir.path(), &body, Tone::Light),
            ["b001mafitlgt_beach.bmp", "B001MAFitlgt_relax.bmp"]
        );
        assert!(suit_images(dir.path(), &body, Tone::Dark).is_empty());
        let hands = Suit::of_name("xskin-hmlo-L_HAND-HANDML").unwrap();
        assert_eq!(
            suit_images(dir.path(), &hands, Tone::Light),
            ["HUAOlgt.bmp"]
        );
        let fist = Suit::of_name("xskin-hurc-R_HAND-FISTCR").unwrap();
        assert_eq!(suit_images(dir.path(), &fist, Tone::Dark), ["HUACdrk.bmp"]);
        assert!(suit_images(dir.path(), &fist, Tone::Light).is_empty());
    }

    #[test]
    fn a_child_wears_the_hand_images_an_adult_does() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["HUAOmed.bmp", "HUAPmed.bmp", "B001UCChdmed_01.bmp"] {
            std::fs::write(dir.path().join(name), b"BM").unwrap();
        }
        let mut child = Assembly::new(Dressing {
            tone: Tone::Medium,
            images: Vec::new(),
        });
        let skeleton = dir.path().join("child-skeleton.cmx");
        let bones = rig::Skeleton {
            joints: Vec::new(),
            axes: rig::Axes::LeftHandedYUp,
        };
        child.offer_skeleton(&skeleton, bones);
        let suit = dir.path().join("HULP.cmx");
        let files = Files::beside(&suit);
        for (skin, image) in [
            ("xskin-hulp-L_HAND-POINTCL", "HUAPmed.bmp"),
            ("xskin-hmlo-L_HAND-HANDML", "HUAOmed.bmp"),
            (
                "xskin-b001ucchd_01-PELVIS-KBODYNAKED",
                "B001UCChdmed_01.bmp",
            ),
        ] {
            let skin = crate::tests::skin_without_vertices(skin, "x");
            let found = child.image(&suit, &files, &skin).unwrap().unwrap();
            assert!(found.path.ends_with(image), "{:?}", found.path);
        }
        assert!(child.warnings.is_empty(), "{:?}", child.warnings);
    }
}
