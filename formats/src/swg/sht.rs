//! Star Wars Galaxies shader template (`.sht`): a mesh's material, naming
//! its textures (`texture/*.dds`) by tag, the effect (`effect/*.eft`) that
//! combines them, and, for a customizable shader, the customization
//! variables that tint it from palettes (`palette/*.pal`) or switch its
//! textures.
//!
//! An IFF file, payloads little-endian, no pad bytes: `FORM SSHT` (a
//! static shader) or `FORM CSHD` (a customizable shader, wrapping a whole
//! `FORM SSHT` and adding its customizations). Tags inside payloads
//! (`MAIN`, `CNRM`, `SPEC`, `HUEB`, `ENVM`...) are u32s written
//! little-endian, so the file spells them backwards (`NIAM`); ossuary
//! shows them as the game names them. Every version the game's loaders
//! know is read (SOE's `StaticShaderTemplate`, `CustomizableShaderTemplate`
//! and `Material`, in SWG-Source/client-tools); checked against the real
//! shaders in `shared/corpus/swg/shader`, which are `SSHT 0000` with
//! textures `0001`, and `CSHD 0001`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::files::{Files, FindError, FoundFile};
use crate::format::{self, Describe, Description, Format, Sample};
use crate::rig::Rig;
use crate::schema::{RawChunk, RawString};
use crate::Schema;

/// A tag naming a texture, material or value slot, stored as a
/// little-endian u32 whose big-endian bytes spell it: `MAIN` is stored
/// `NIAM`. Shown (and written in JSON) as it reads, `MAIN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Schema)]
#[schema(little)]
pub struct Tag {
    /// The tag as a number: its first letter in the high byte.
    pub value: u32,
}

impl Tag {
    /// The tag spelled `name` (four bytes, e.g. `b"MAIN"`).
    pub const fn new(name: [u8; 4]) -> Tag {
        Tag {
            value: u32::from_be_bytes(name),
        }
    }

    /// The four letters as the game names the tag.
    pub fn name(self) -> RawString {
        RawString(self.value.to_be_bytes().to_vec())
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().to_text())
    }
}

impl Serialize for Tag {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.name().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Tag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = RawString::deserialize(deserializer)?;
        <[u8; 4]>::try_from(name.as_bytes())
            .map(Tag::new)
            .map_err(|_| serde::de::Error::custom(format!("{name:?} is not a tag of four letters")))
    }
}

/// The texture tags the game's character shaders use, by name.
pub mod tags {
    use super::Tag;

    /// The main (diffuse) texture.
    pub const MAIN: Tag = Tag::new(*b"MAIN");
    /// The compressed normal map.
    pub const CNRM: Tag = Tag::new(*b"CNRM");
    /// The specular map.
    pub const SPEC: Tag = Tag::new(*b"SPEC");
    /// The hue mask (which parts a second palette tints).
    pub const HUEB: Tag = Tag::new(*b"HUEB");
    /// The environment map, which the game supplies itself.
    pub const ENVM: Tag = Tag::new(*b"ENVM");
}

/// A `.sht` file: a static shader (`FORM SSHT`) or a customizable one
/// (`FORM CSHD`, wrapping a whole `FORM SSHT`). IFF sizes are big-endian,
/// payloads little-endian, with no pad bytes after odd-sized chunks. A tag
/// inside a payload (`MAIN`, `CNRM`, `SPEC`, `HUEB`, `ENVM`...) is a
/// little-endian u32, so the file spells it backwards (`NIAM`); ossuary
/// shows it as the game names it. Paths (`texture/twk_f_head.dds`,
/// `palette/pc_skin_twk.pal`, `effect\h_specmap.eft`) are relative to the
/// folder holding `appearance/`, with either slash.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shader {
    /// `FORM SSHT`.
    Static(StaticShader),
    /// `FORM CSHD`.
    Customizable(CustomizableShader),
}

/// `FORM SSHT`: a static shader, in one of its versions.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "SSHT")]
pub struct StaticShader {
    /// The versioned contents (`FORM 0000` or `FORM 0001`).
    pub version: StaticShaderVersion,
}

/// The static shader versions, chosen by the version form's type.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StaticShaderVersion {
    /// `FORM 0000`: the effect last (every known file).
    V0(StaticShaderV0),
    /// `FORM 0001`: the effect first, and texture scrolling.
    V1(StaticShaderV1),
}

/// `FORM 0000` inside `SSHT`: each part optional, the effect last.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0000")]
pub struct StaticShaderV0 {
    /// `FORM MATS`: the lighting materials by tag.
    pub materials: Option<Materials>,
    /// `FORM TXMS`: the textures by tag.
    pub textures: Option<Textures>,
    /// `FORM TCSS`: which texture coordinate set each tag uses.
    pub coordinate_sets: Option<CoordinateSets>,
    /// `FORM TFNS`: texture factors (constant colours) by tag.
    pub texture_factors: Option<TextureFactors>,
    /// `FORM ARVS`: alpha-test reference values by tag.
    pub alpha_references: Option<AlphaReferences>,
    /// `FORM SRVS`: stencil reference values by tag.
    pub stencil_references: Option<StencilReferences>,
    /// `NAME`: the effect, a null-terminated path such as
    /// `effect\h_specmap_cbmp.eft`.
    #[schema(chunk = "NAME", null_terminated)]
    pub effect: RawString,
}

/// `FORM 0001` inside `SSHT`: the effect first, then each part optional.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0001")]
pub struct StaticShaderV1 {
    /// `NAME`: the effect, a null-terminated path.
    #[schema(chunk = "NAME", null_terminated)]
    pub effect: RawString,
    /// `FORM MATS`: the lighting materials by tag.
    pub materials: Option<Materials>,
    /// `FORM TXMS`: the textures by tag.
    pub textures: Option<Textures>,
    /// `FORM TCSS`: which texture coordinate set each tag uses.
    pub coordinate_sets: Option<CoordinateSets>,
    /// `FORM TFNS`: texture factors (constant colours) by tag.
    pub texture_factors: Option<TextureFactors>,
    /// `FORM TSNS`: texture scrolling by tag.
    pub texture_scrolls: Option<TextureScrolls>,
    /// `FORM ARVS`: alpha-test reference values by tag.
    pub alpha_references: Option<AlphaReferences>,
    /// `FORM SRVS`: stencil reference values by tag.
    pub stencil_references: Option<StencilReferences>,
}

/// `FORM MATS`: the materials, in a version form.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "MATS")]
pub struct Materials {
    /// `FORM 0000`, the only version: a `TAG ` chunk then a `MATL` chunk
    /// per material.
    #[schema(form = "0000", to_end)]
    pub parts: Vec<MaterialPart>,
}

/// A child of `MATS/0000`: the tag of the material that follows, or the
/// material. The game reads them in pairs, a tag first.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaterialPart {
    /// `TAG `: the next material's tag (`MAIN`).
    #[schema(chunk = "TAG ")]
    Tag(Tag),
    /// `MATL`.
    Material(Material),
}

/// `MATL`: a fixed-function lighting material. Each colour is alpha, red,
/// green, blue (floats, 0 to 1).
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, chunk = "MATL")]
pub struct Material {
    /// Ambient colour (alpha, red, green, blue).
    pub ambient: [f32; 4],
    /// Diffuse colour.
    pub diffuse: [f32; 4],
    /// Emissive colour.
    pub emissive: [f32; 4],
    /// Specular colour.
    pub specular: [f32; 4],
    /// The specular exponent.
    pub specular_power: f32,
}

/// `FORM TXMS`: one `FORM TXM ` per texture.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "TXMS")]
pub struct Textures {
    /// One `FORM TXM ` per texture, to the end of the form.
    #[schema(to_end)]
    pub textures: Vec<Texture>,
}

/// `FORM TXM `: one texture, in one of its versions.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "TXM ")]
pub struct Texture {
    /// The versioned contents (`FORM 0000` to `FORM 0002`).
    pub version: TextureVersion,
}

/// The texture versions, chosen by the version form's type.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextureVersion {
    /// `FORM 0000`: placeholder flag and tag only.
    V0(TextureV0),
    /// `FORM 0001`: with addressing and filtering (every known file).
    V1(TextureV1),
    /// `FORM 0002`: with the maximum anisotropy too.
    V2(TextureV2),
}

/// `FORM 0000` inside `TXM `.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0000")]
pub struct TextureV0 {
    /// `DATA`: not 0 when the game supplies the texture itself (always so
    /// for `ENVM`).
    #[schema(chunk = "DATA")]
    pub placeholder: u8,
    /// `DATA`: the texture's tag.
    #[schema(chunk = "DATA")]
    pub tag: Tag,
    /// `NAME`: the texture, a null-terminated path such as
    /// `texture/twk_f_head.dds` (absent from some placeholders).
    #[schema(chunk = "NAME", null_terminated)]
    pub name: Option<RawString>,
}

/// `FORM 0001` inside `TXM `.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0001")]
pub struct TextureV1 {
    /// `DATA`: the texture's tag.
    #[schema(chunk = "DATA")]
    pub tag: Tag,
    /// `DATA`: not 0 when the game supplies the texture itself (always so
    /// for `ENVM`).
    #[schema(chunk = "DATA")]
    pub placeholder: u8,
    /// `DATA`: how the texture is sampled.
    #[schema(chunk = "DATA")]
    pub sampling: Sampling,
    /// `NAME`: the texture, a null-terminated path (absent from some
    /// placeholders).
    #[schema(chunk = "NAME", null_terminated)]
    pub name: Option<RawString>,
}

/// How a texture is sampled: the game's texture addressing and filter
/// values, one byte each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct Sampling {
    /// Addressing along u (wrap, mirror, clamp...).
    pub address_u: u8,
    /// Addressing along v.
    pub address_v: u8,
    /// Addressing along w.
    pub address_w: u8,
    /// The filter between mip levels.
    pub mip_filter: u8,
    /// The filter when the texture is drawn smaller.
    pub minification_filter: u8,
    /// The filter when the texture is drawn larger.
    pub magnification_filter: u8,
}

/// `FORM 0002` inside `TXM `.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0002")]
pub struct TextureV2 {
    /// `DATA`: the texture's tag.
    #[schema(chunk = "DATA")]
    pub tag: Tag,
    /// `DATA`: not 0 when the game supplies the texture itself.
    #[schema(chunk = "DATA")]
    pub placeholder: u8,
    /// `DATA`: how the texture is sampled.
    #[schema(chunk = "DATA")]
    pub sampling: Sampling,
    /// `DATA`: the maximum anisotropy.
    #[schema(chunk = "DATA")]
    pub max_anisotropy: u8,
    /// `NAME`: the texture, a null-terminated path (absent from some
    /// placeholders).
    #[schema(chunk = "NAME", null_terminated)]
    pub name: Option<RawString>,
}

/// `FORM TCSS`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "TCSS")]
pub struct CoordinateSets {
    /// Chunk `0000`: entries to its end.
    #[schema(chunk = "0000", to_end)]
    pub sets: Vec<CoordinateSet>,
}

/// Which texture coordinate set a tag's texture is drawn with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct CoordinateSet {
    /// The tag of the texture (`MAIN`, or `DOT3` for per-pixel lighting).
    pub tag: Tag,
    /// The set's index in the mesh (0 to 7).
    pub set: u8,
}

/// `FORM TFNS`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "TFNS")]
pub struct TextureFactors {
    /// Chunk `0000`: entries to its end.
    #[schema(chunk = "0000", to_end)]
    pub factors: Vec<TextureFactor>,
}

/// A constant colour the effect combines with textures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct TextureFactor {
    /// The factor's tag (`MAIN`, `HUEB`).
    pub tag: Tag,
    /// The colour, packed as 0xAARRGGBB.
    pub argb: u32,
}

/// `FORM TSNS` (version `0001` shaders only).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "TSNS")]
pub struct TextureScrolls {
    /// Chunk `0000`: entries to its end.
    #[schema(chunk = "0000", to_end)]
    pub scrolls: Vec<TextureScroll>,
}

/// How fast a tag's texture coordinates scroll: two layers' (u, v) rates.
#[derive(Debug, Clone, Copy, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct TextureScroll {
    /// The tag of the texture scrolled.
    pub tag: Tag,
    /// The first layer's u rate.
    pub u1: f32,
    /// The first layer's v rate.
    pub v1: f32,
    /// The second layer's u rate.
    pub u2: f32,
    /// The second layer's v rate.
    pub v2: f32,
}

/// `FORM ARVS`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "ARVS")]
pub struct AlphaReferences {
    /// Chunk `0000`: entries to its end.
    #[schema(chunk = "0000", to_end)]
    pub references: Vec<AlphaReference>,
}

/// The alpha below which a tag's pass draws nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct AlphaReference {
    /// The pass's tag.
    pub tag: Tag,
    /// The reference alpha, 0 to 255.
    pub value: u8,
}

/// `FORM SRVS`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "SRVS")]
pub struct StencilReferences {
    /// Chunk `0000`: entries to its end.
    #[schema(chunk = "0000", to_end)]
    pub references: Vec<StencilReference>,
}

/// A tag's stencil reference value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct StencilReference {
    /// The pass's tag.
    pub tag: Tag,
    /// The reference value.
    pub value: u32,
}

/// `FORM CSHD`: a customizable shader, in one of its versions.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "CSHD")]
pub struct CustomizableShader {
    /// The versioned contents (`FORM 0000` or `FORM 0001`).
    pub version: CustomizableShaderVersion,
}

/// The customizable shader versions, chosen by the version form's type.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CustomizableShaderVersion {
    /// `FORM 0000`: material tints without a private flag; the game
    /// skips its `TFAC`.
    V0(CustomizableShaderV0),
    /// `FORM 0001` (every known file).
    V1(CustomizableShaderV1),
}

/// `FORM 0000` inside `CSHD`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0000")]
pub struct CustomizableShaderV0 {
    /// The shader customized, whole.
    pub base: StaticShader,
    /// `FORM MATR`: material colours from palettes.
    pub materials: Option<MaterialTintsV0>,
    /// `FORM TXTR`: textures chosen by a variable.
    pub texture_switches: Option<TextureSwitches>,
    /// `FORM TFAC`: the game skips this version's texture factor
    /// customizations, so its children are kept as they are.
    #[schema(form = "TFAC", to_end)]
    pub texture_factors: Option<Vec<RawChunk>>,
}

/// `FORM 0001` inside `CSHD`.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "0001")]
pub struct CustomizableShaderV1 {
    /// The shader customized, whole.
    pub base: StaticShader,
    /// `FORM MATR`: material colours from palettes.
    pub materials: Option<MaterialTintsV1>,
    /// `FORM TXTR`: textures chosen by a variable.
    pub texture_switches: Option<TextureSwitches>,
    /// `FORM TFAC`: texture factors from palettes, one `PAL ` chunk each.
    #[schema(form = "TFAC", to_end)]
    pub palette_tints: Option<Vec<PaletteTint>>,
}

/// `FORM MATR` of a version `0000` shader: one `FORM ENTR` per material.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "MATR")]
pub struct MaterialTintsV0 {
    /// One `FORM ENTR` per material, to the end of the form.
    #[schema(to_end)]
    pub entries: Vec<MaterialTintEntryV0>,
}

/// `FORM ENTR` of a version `0000` shader.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "ENTR")]
pub struct MaterialTintEntryV0 {
    /// `INFO`: the tag of the material tinted.
    #[schema(chunk = "INFO")]
    pub material: Tag,
    /// Which of its colours each variable sets.
    #[schema(to_end)]
    pub tints: Vec<MaterialTintV0>,
}

/// A material colour a palette variable sets (version `0000`: the
/// variable is private).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaterialTintV0 {
    /// `AMCL`: the ambient colour.
    #[schema(chunk = "AMCL")]
    Ambient(PaletteVariableV0),
    /// `DFCL`: the diffuse colour.
    #[schema(chunk = "DFCL")]
    Diffuse(PaletteVariableV0),
    /// `EMCL`: the emissive colour (the game's loader then expects a
    /// `DFCL` chunk, so it cannot load one; kept so such a file reads).
    #[schema(chunk = "EMCL")]
    Emissive(PaletteVariableV0),
}

/// A palette variable as version `0000` stores it.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct PaletteVariableV0 {
    /// The variable's name, null-terminated (`index_color_skin`).
    #[schema(null_terminated)]
    pub variable: RawString,
    /// The palette, a null-terminated path (`palette/pc_skin_twk.pal`).
    #[schema(null_terminated)]
    pub palette: RawString,
    /// The entry chosen until the variable is set (i32).
    pub default: i32,
}

/// `FORM MATR` of a version `0001` shader: one `FORM ENTR` per material.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "MATR")]
pub struct MaterialTintsV1 {
    /// One `FORM ENTR` per material, to the end of the form.
    #[schema(to_end)]
    pub entries: Vec<MaterialTintEntryV1>,
}

/// `FORM ENTR` of a version `0001` shader.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "ENTR")]
pub struct MaterialTintEntryV1 {
    /// `INFO`: the tag of the material tinted.
    #[schema(chunk = "INFO")]
    pub material: Tag,
    /// Which of its colours each variable sets.
    #[schema(to_end)]
    pub tints: Vec<MaterialTintV1>,
}

/// A material colour a palette variable sets (version `0001`).
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaterialTintV1 {
    /// `AMCL`: the ambient colour.
    #[schema(chunk = "AMCL")]
    Ambient(PaletteVariableV1),
    /// `DFCL`: the diffuse colour.
    #[schema(chunk = "DFCL")]
    Diffuse(PaletteVariableV1),
    /// `EMCL`: the emissive colour (the game's loader then expects a
    /// `DFCL` chunk, so it cannot load one; kept so such a file reads).
    #[schema(chunk = "EMCL")]
    Emissive(PaletteVariableV1),
}

/// A palette variable as version `0001` stores it.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little)]
pub struct PaletteVariableV1 {
    /// The variable's name, null-terminated.
    #[schema(null_terminated)]
    pub variable: RawString,
    /// Not 0 when the variable belongs to this object alone, 0 when it is
    /// shared with the object's owner (i8).
    pub private: i8,
    /// The palette, a null-terminated path.
    #[schema(null_terminated)]
    pub palette: RawString,
    /// The entry chosen until the variable is set (i32).
    pub default: i32,
}

/// `FORM TXTR`: the textures a variable may choose, and the switches.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, form = "TXTR")]
pub struct TextureSwitches {
    /// `DATA`: an i16 count, then null-terminated texture paths; each
    /// switch chooses among a run of them.
    #[schema(chunk = "DATA", prefix = i16, null_terminated)]
    pub textures: Vec<RawString>,
    /// `FORM CUST`: one `TX1D` chunk per switch.
    #[schema(form = "CUST", to_end)]
    pub switches: Vec<TextureSwitch>,
}

/// `TX1D`: a variable choosing a tag's texture from a run of `DATA`'s.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, chunk = "TX1D")]
pub struct TextureSwitch {
    /// The texture's tag (`CNRM`).
    pub tag: Tag,
    /// The run's first texture in `DATA` (i16).
    pub first: i16,
    /// How many textures the run holds: the variable's values are 0 to
    /// this less one (i16).
    pub count: i16,
    /// The variable's name, null-terminated (`index_age`).
    #[schema(null_terminated)]
    pub variable: RawString,
    /// Not 0 when the variable belongs to this object alone (i8).
    pub private: i8,
    /// The value until the variable is set (i16).
    pub default: i16,
}

/// `PAL ` inside `TFAC`: a texture factor set from a palette.
#[derive(Debug, Clone, PartialEq, Schema, Serialize, Deserialize)]
#[schema(little, chunk = "PAL ")]
pub struct PaletteTint {
    /// The variable's name, null-terminated (`index_color_skin`).
    #[schema(null_terminated)]
    pub variable: RawString,
    /// Not 0 when the variable belongs to this object alone (i8).
    pub private: i8,
    /// The texture factor set, which tints the texture of the same tag
    /// (`MAIN`).
    pub tag: Tag,
    /// The palette, a null-terminated path (`palette/pc_skin_twk.pal`).
    #[schema(null_terminated)]
    pub palette: RawString,
    /// The entry chosen until the variable is set (i32).
    pub default: i32,
}

/// A texture a shader names, as the materials step asks for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextureRef<'a> {
    /// The texture's tag.
    pub tag: Tag,
    /// The texture's path, e.g. `texture/twk_f_head.dds`; `None` for a
    /// placeholder without one.
    pub name: Option<&'a RawString>,
    /// Whether the game supplies the texture itself (an environment map):
    /// a placeholder's path, if any, is not what the game draws.
    pub placeholder: bool,
}

/// A customization variable a shader declares, and what it changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomizationVariable<'a> {
    /// Its name, e.g. `index_color_skin`.
    pub name: &'a RawString,
    /// Whether it belongs to this object alone (else it is shared with the
    /// object's owner, as a character's skin colour is).
    pub private: bool,
    /// What its value chooses.
    pub choice: Choice<'a>,
}

/// What a customization variable's value chooses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice<'a> {
    /// An entry of a palette, which tints `tinted`.
    Palette {
        palette: &'a RawString,
        tinted: Tinted,
        /// The entry until the variable is set.
        default: i32,
    },
    /// One of a run of textures, for the texture of `tag`.
    Texture {
        tag: Tag,
        /// The run, in value order (empty when the switch points outside
        /// the shader's texture list).
        textures: &'a [RawString],
        /// The value until the variable is set.
        default: i16,
    },
}

/// What a palette colour tints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tinted {
    /// The texture factor of this tag, which the effect multiplies into the
    /// texture of the same tag (`MAIN`, or `HUEB` for the hue-masked parts).
    TextureFactor(Tag),
    /// A colour of the material of this tag.
    Material {
        material: Tag,
        colour: MaterialColour,
    },
}

/// Which colour of a material a palette sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialColour {
    Ambient,
    Diffuse,
    Emissive,
}

/// A file a shader names that cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum ShaderFileError {
    #[error("the shader names no texture with the tag {0}")]
    NoTexture(Tag),
    #[error("the shader's {0} texture is a placeholder the game supplies itself")]
    Placeholder(Tag),
    #[error(transparent)]
    Find(#[from] FindError),
}

impl StaticShader {
    /// The version form's type (`0000`, `0001`).
    pub fn version_tag(&self) -> &'static str {
        match self.version {
            StaticShaderVersion::V0(_) => "0000",
            StaticShaderVersion::V1(_) => "0001",
        }
    }

    /// The effect's path, e.g. `effect\h_specmap_cbmp.eft`.
    pub fn effect(&self) -> &RawString {
        match &self.version {
            StaticShaderVersion::V0(shader) => &shader.effect,
            StaticShaderVersion::V1(shader) => &shader.effect,
        }
    }

    fn texture_forms(&self) -> &[Texture] {
        let textures = match &self.version {
            StaticShaderVersion::V0(shader) => &shader.textures,
            StaticShaderVersion::V1(shader) => &shader.textures,
        };
        textures.as_ref().map_or(&[], |textures| &textures.textures)
    }

    /// Every texture, in file order.
    pub fn textures(&self) -> Vec<TextureRef<'_>> {
        self.texture_forms()
            .iter()
            .map(|texture| match &texture.version {
                TextureVersion::V0(data) => (data.tag, data.name.as_ref(), data.placeholder),
                TextureVersion::V1(data) => (data.tag, data.name.as_ref(), data.placeholder),
                TextureVersion::V2(data) => (data.tag, data.name.as_ref(), data.placeholder),
            })
            .map(|(tag, name, placeholder)| TextureRef {
                tag,
                name,
                // The game treats an `ENVM` texture as a placeholder whatever
                // its flag says.
                placeholder: placeholder != 0 || tag == tags::ENVM,
            })
            .collect()
    }

    /// The texture of `tag` (the first, as the game keeps one per tag).
    pub fn texture(&self, tag: Tag) -> Option<TextureRef<'_>> {
        self.textures()
            .into_iter()
            .find(|texture| texture.tag == tag)
    }

    /// The materials by tag: each `MATL` with the `TAG ` before it (a
    /// material without one is left out).
    pub fn materials(&self) -> Vec<(Tag, &Material)> {
        let materials = match &self.version {
            StaticShaderVersion::V0(shader) => &shader.materials,
            StaticShaderVersion::V1(shader) => &shader.materials,
        };
        let parts = materials.as_ref().map_or(&[][..], |m| &m.parts);
        let mut pending = None;
        let mut paired = Vec::new();
        for part in parts {
            match part {
                MaterialPart::Tag(tag) => pending = Some(*tag),
                MaterialPart::Material(material) => {
                    if let Some(tag) = pending.take() {
                        paired.push((tag, material));
                    }
                }
            }
        }
        paired
    }

    /// The texture factor of `tag` (0xAARRGGBB), which a palette variable
    /// may replace.
    pub fn texture_factor(&self, tag: Tag) -> Option<u32> {
        let factors = match &self.version {
            StaticShaderVersion::V0(shader) => &shader.texture_factors,
            StaticShaderVersion::V1(shader) => &shader.texture_factors,
        };
        factors
            .iter()
            .flat_map(|factors| &factors.factors)
            .find(|factor| factor.tag == tag)
            .map(|factor| factor.argb)
    }
}

impl Shader {
    /// The static shader: the file itself, or the one a customizable
    /// shader wraps.
    pub fn base(&self) -> &StaticShader {
        match self {
            Shader::Static(shader) => shader,
            Shader::Customizable(CustomizableShader {
                version: CustomizableShaderVersion::V0(shader),
            }) => &shader.base,
            Shader::Customizable(CustomizableShader {
                version: CustomizableShaderVersion::V1(shader),
            }) => &shader.base,
        }
    }

    /// The texture of `tag`, by its readable tag (`tags::MAIN`).
    pub fn texture(&self, tag: Tag) -> Option<TextureRef<'_>> {
        self.base().texture(tag)
    }

    /// The customization variables in file order: material tints, texture
    /// switches, then texture factor tints. A static shader has none.
    pub fn variables(&self) -> Vec<CustomizationVariable<'_>> {
        let Shader::Customizable(customizable) = self else {
            return Vec::new();
        };
        let mut variables = Vec::new();
        let switches = match &customizable.version {
            CustomizableShaderVersion::V0(shader) => {
                for entry in shader.materials.iter().flat_map(|m| &m.entries) {
                    for tint in &entry.tints {
                        let (colour, variable) = match tint {
                            MaterialTintV0::Ambient(v) => (MaterialColour::Ambient, v),
                            MaterialTintV0::Diffuse(v) => (MaterialColour::Diffuse, v),
                            MaterialTintV0::Emissive(v) => (MaterialColour::Emissive, v),
                        };
                        // Version 0000 stores no flag: the game makes these
                        // variables private.
                        variables.push(CustomizationVariable {
                            name: &variable.variable,
                            private: true,
                            choice: Choice::Palette {
                                palette: &variable.palette,
                                tinted: Tinted::Material {
                                    material: entry.material,
                                    colour,
                                },
                                default: variable.default,
                            },
                        });
                    }
                }
                &shader.texture_switches
            }
            CustomizableShaderVersion::V1(shader) => {
                for entry in shader.materials.iter().flat_map(|m| &m.entries) {
                    for tint in &entry.tints {
                        let (colour, variable) = match tint {
                            MaterialTintV1::Ambient(v) => (MaterialColour::Ambient, v),
                            MaterialTintV1::Diffuse(v) => (MaterialColour::Diffuse, v),
                            MaterialTintV1::Emissive(v) => (MaterialColour::Emissive, v),
                        };
                        variables.push(CustomizationVariable {
                            name: &variable.variable,
                            private: variable.private != 0,
                            choice: Choice::Palette {
                                palette: &variable.palette,
                                tinted: Tinted::Material {
                                    material: entry.material,
                                    colour,
                                },
                                default: variable.default,
                            },
                        });
                    }
                }
                &shader.texture_switches
            }
        };
        if let Some(switches) = switches {
            for switch in &switches.switches {
                variables.push(CustomizationVariable {
                    name: &switch.variable,
                    private: switch.private != 0,
                    choice: Choice::Texture {
                        tag: switch.tag,
                        textures: switch.run(&switches.textures),
                        default: switch.default,
                    },
                });
            }
        }
        if let CustomizableShaderVersion::V1(shader) = &customizable.version {
            for tint in shader.palette_tints.iter().flatten() {
                variables.push(CustomizationVariable {
                    name: &tint.variable,
                    private: tint.private != 0,
                    choice: Choice::Palette {
                        palette: &tint.palette,
                        tinted: Tinted::TextureFactor(tint.tag),
                        default: tint.default,
                    },
                });
            }
        }
        variables
    }

    /// The palettes the variables name, each once, in file order.
    pub fn palettes(&self) -> Vec<&RawString> {
        let mut palettes: Vec<&RawString> = Vec::new();
        for variable in self.variables() {
            if let Choice::Palette { palette, .. } = variable.choice {
                if !palettes.contains(&palette) {
                    palettes.push(palette);
                }
            }
        }
        palettes
    }

    /// Reads the texture of `tag` through `files`: under the folder
    /// holding `texture/` (the root, or above the shader), without regard
    /// to case or slash direction.
    pub fn find_texture(&self, files: &Files, tag: Tag) -> Result<FoundFile, ShaderFileError> {
        let texture = self.texture(tag).ok_or(ShaderFileError::NoTexture(tag))?;
        match texture.name {
            Some(name) if !texture.placeholder => {
                Ok(find_named(files, &format!("the {tag} texture"), name)?)
            }
            _ => Err(ShaderFileError::Placeholder(tag)),
        }
    }

    /// Reads a file a shader names by path (a palette such as
    /// `palette/pc_skin_twk.pal`, or a texture a switch chooses) through
    /// `files`, as [`Shader::find_texture`] finds textures.
    pub fn find_file(files: &Files, path: &RawString) -> Result<FoundFile, FindError> {
        find_named(files, &path.to_text(), path)
    }
}

/// A path a shader names, looked up through `files`; `what` names it in
/// the error.
fn find_named(files: &Files, what: &str, name: &RawString) -> Result<FoundFile, FindError> {
    files.find(what, &[name.to_text()])
}

impl TextureSwitch {
    /// The run of `textures` this switch chooses among; empty when it
    /// lies outside them.
    pub fn run<'a>(&self, textures: &'a [RawString]) -> &'a [RawString] {
        let (Ok(first), Ok(count)) = (usize::try_from(self.first), usize::try_from(self.count))
        else {
            return &[];
        };
        textures.get(first..first + count).unwrap_or(&[])
    }
}

impl fmt::Display for Tinted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tinted::TextureFactor(tag) => write!(f, "the {tag} texture factor"),
            Tinted::Material { material, colour } => {
                let colour = match colour {
                    MaterialColour::Ambient => "ambient",
                    MaterialColour::Diffuse => "diffuse",
                    MaterialColour::Emissive => "emissive",
                };
                write!(f, "the {colour} colour of material {material}")
            }
        }
    }
}

impl Describe for Shader {
    /// The kind and versions, the effect, the textures by tag, the
    /// palettes and the customization variables.
    fn describe(&self) -> Description {
        let base = self.base();
        let kind = match self {
            Shader::Static(_) => format!("static shader (FORM SSHT {})", base.version_tag()),
            Shader::Customizable(customizable) => {
                let version = match customizable.version {
                    CustomizableShaderVersion::V0(_) => "0000",
                    CustomizableShaderVersion::V1(_) => "0001",
                };
                format!(
                    "customizable shader (FORM CSHD {version}) over a static shader (FORM SSHT {})",
                    base.version_tag()
                )
            }
        };
        let textures: Vec<String> = base
            .textures()
            .iter()
            .map(|texture| {
                let name = texture
                    .name
                    .map_or_else(|| "no file".to_owned(), RawString::to_text);
                let placeholder = if texture.placeholder {
                    " (placeholder)"
                } else {
                    ""
                };
                format!("{} {name}{placeholder}", texture.tag)
            })
            .collect();
        let mut facts = vec![
            ("kind", kind),
            ("effect", base.effect().to_text()),
            ("textures", textures.join(", ")),
        ];
        let palettes: Vec<String> = self.palettes().iter().map(|p| p.to_text()).collect();
        if !palettes.is_empty() {
            facts.push(("palettes", palettes.join(", ")));
        }
        let variables: Vec<String> = self.variables().iter().map(describe_variable).collect();
        if !variables.is_empty() {
            facts.push(("customization variables", variables.join("; ")));
        }
        Description {
            facts,
            joints: Vec::new(),
        }
    }
}

fn describe_variable(variable: &CustomizationVariable<'_>) -> String {
    let what = match &variable.choice {
        Choice::Palette {
            palette,
            tinted,
            default,
        } => format!("an entry of {palette} tints {tinted} (default {default})"),
        Choice::Texture {
            tag,
            textures,
            default,
        } => {
            let first = textures
                .first()
                .map_or_else(String::new, |first| format!(", from {first}"));
            format!(
                "one of {} {tag} textures{first} (default {default})",
                textures.len()
            )
        }
    };
    let private = if variable.private { "private " } else { "" };
    format!("{private}{}: {what}", variable.name)
}

/// A shader holds no skeleton, mesh or animation.
impl Rig for Shader {}

/// The `.sht` registration.
pub static FORMAT: Format = Format {
    samples: || {
        vec![
            Sample {
                file_name: "humanoid.sht",
                document: format::binary_document(humanoid()),
            },
            Sample {
                file_name: "humanoid-static.sht",
                document: format::binary_document(humanoid_static()),
            },
        ]
    },
    ..Format::binary::<Shader>(
        "swg-sht",
        "Star Wars Galaxies shader",
        &["sht"],
        // `FORM`, a size, then `SSHT` or `CSHD`.
        |bytes| bytes.starts_with(b"FORM") && matches!(bytes.get(8..12), Some(b"SSHT" | b"CSHD")),
    )
};

/// Sampling as the real character shaders have it.
const SAMPLING: Sampling = Sampling {
    address_u: 0,
    address_v: 0,
    address_w: 0,
    mip_filter: 2,
    minification_filter: 2,
    magnification_filter: 2,
};

fn texture_v1(tag: Tag, placeholder: u8, name: &str) -> Texture {
    Texture {
        version: TextureVersion::V1(TextureV1 {
            tag,
            placeholder,
            sampling: SAMPLING,
            name: Some(RawString::from(name)),
        }),
    }
}

/// A customizable skin shader as the game's character shaders are
/// (`CSHD 0001` over `SSHT 0000`): a main texture tinted from
/// `palette/humanoid.pal` (the palette sample), a normal map switched by
/// age among two, a placeholder environment map named with a backslash,
/// and a diffuse material tint.
pub fn humanoid() -> Shader {
    let base = StaticShader {
        version: StaticShaderVersion::V0(StaticShaderV0 {
            materials: None,
            textures: Some(Textures {
                textures: vec![
                    texture_v1(tags::CNRM, 0, "texture/humanoid_age0_cn.dds"),
                    texture_v1(tags::MAIN, 0, "texture/humanoid.dds"),
                    texture_v1(tags::ENVM, 0, "texture\\env_theed.dds"),
                ],
            }),
            coordinate_sets: Some(CoordinateSets {
                sets: vec![CoordinateSet {
                    tag: tags::MAIN,
                    set: 0,
                }],
            }),
            texture_factors: Some(TextureFactors {
                factors: vec![TextureFactor {
                    tag: tags::MAIN,
                    argb: 0xFFFF_FFFF,
                }],
            }),
            alpha_references: None,
            stencil_references: None,
            effect: RawString::from("effect\\h_specmap_cbmp.eft"),
        }),
    };
    Shader::Customizable(CustomizableShader {
        version: CustomizableShaderVersion::V1(CustomizableShaderV1 {
            base,
            materials: Some(MaterialTintsV1 {
                entries: vec![MaterialTintEntryV1 {
                    material: tags::MAIN,
                    tints: vec![MaterialTintV1::Diffuse(PaletteVariableV1 {
                        variable: RawString::from("index_color_glow"),
                        private: 1,
                        palette: RawString::from("palette/humanoid.pal"),
                        default: 2,
                    })],
                }],
            }),
            texture_switches: Some(TextureSwitches {
                textures: vec![
                    RawString::from("texture/humanoid_age0_cn.dds"),
                    RawString::from("texture/humanoid_age1_cn.dds"),
                ],
                switches: vec![TextureSwitch {
                    tag: tags::CNRM,
                    first: 0,
                    count: 2,
                    variable: RawString::from("index_age"),
                    private: 1,
                    default: 0,
                }],
            }),
            palette_tints: Some(vec![PaletteTint {
                variable: RawString::from("index_color_skin"),
                private: 0,
                tag: tags::MAIN,
                palette: RawString::from("palette/humanoid.pal"),
                default: 1,
            }]),
        }),
    })
}

/// A static shader in the newer layout the game also reads (`SSHT 0001`,
/// known from its source, not from a file): a material, textures of
/// versions `0000` and `0002`, texture scrolling, alpha and stencil
/// references.
pub fn humanoid_static() -> Shader {
    Shader::Static(StaticShader {
        version: StaticShaderVersion::V1(StaticShaderV1 {
            effect: RawString::from("effect/a_alpha.eft"),
            materials: Some(Materials {
                parts: vec![
                    MaterialPart::Tag(tags::MAIN),
                    MaterialPart::Material(Material {
                        ambient: [1.0; 4],
                        diffuse: [1.0; 4],
                        emissive: [0.0; 4],
                        specular: [1.0, 0.14, 0.16, 0.2],
                        specular_power: 20.0,
                    }),
                ],
            }),
            textures: Some(Textures {
                textures: vec![
                    Texture {
                        version: TextureVersion::V0(TextureV0 {
                            placeholder: 0,
                            tag: tags::MAIN,
                            name: Some(RawString::from("texture/humanoid_hair.dds")),
                        }),
                    },
                    Texture {
                        version: TextureVersion::V2(TextureV2 {
                            tag: tags::SPEC,
                            placeholder: 0,
                            sampling: Sampling {
                                address_u: 1,
                                address_v: 1,
                                ..SAMPLING
                            },
                            max_anisotropy: 4,
                            name: Some(RawString::from("texture/humanoid_hair_spec.dds")),
                        }),
                    },
                ],
            }),
            coordinate_sets: None,
            texture_factors: None,
            texture_scrolls: Some(TextureScrolls {
                scrolls: vec![TextureScroll {
                    tag: tags::MAIN,
                    u1: 0.5,
                    v1: 0.0,
                    u2: 0.0,
                    v2: -0.25,
                }],
            }),
            alpha_references: Some(AlphaReferences {
                references: vec![AlphaReference {
                    tag: tags::MAIN,
                    value: 128,
                }],
            }),
            stencil_references: Some(StencilReferences {
                references: vec![StencilReference {
                    tag: tags::MAIN,
                    value: 1,
                }],
            }),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::BinarySchema;

    #[test]
    fn a_tag_is_stored_backwards_and_shown_as_it_reads() {
        assert_eq!(tags::MAIN.to_bytes().unwrap(), b"NIAM");
        assert_eq!(Tag::from_bytes(b"MRNC").unwrap(), tags::CNRM);
        assert_eq!(tags::HUEB.to_string(), "HUEB");
        assert_eq!(serde_json::to_string(&tags::SPEC).unwrap(), "\"SPEC\"");
        let back: Tag = serde_json::from_str("\"ENVM\"").unwrap();
        assert_eq!(back, tags::ENVM);
        assert!(serde_json::from_str::<Tag>("\"MAINS\"").is_err());
    }

    #[test]
    fn textures_are_found_by_readable_tag() {
        let shader = humanoid();
        let main = shader.texture(tags::MAIN).unwrap();
        assert_eq!(main.name.unwrap().to_text(), "texture/humanoid.dds");
        assert!(!main.placeholder);
        // `ENVM` is a placeholder whatever its flag says.
        assert!(shader.texture(tags::ENVM).unwrap().placeholder);
        assert_eq!(shader.texture(tags::SPEC), None);
        assert_eq!(
            shader.base().effect().to_text(),
            "effect\\h_specmap_cbmp.eft"
        );
        assert_eq!(shader.base().texture_factor(tags::MAIN), Some(0xFFFF_FFFF));
        let hair = humanoid_static();
        let materials = hair.base().materials();
        assert_eq!(materials.len(), 1);
        assert_eq!(materials[0].0, tags::MAIN);
        assert_eq!(materials[0].1.specular_power, 20.0);
    }

    #[test]
    fn variables_say_what_they_tint_or_switch_and_their_defaults() {
        let shader = humanoid();
        let palette = RawString::from("palette/humanoid.pal");
        let variables = shader.variables();
        let names: Vec<String> = variables.iter().map(|v| v.name.to_text()).collect();
        assert_eq!(names, ["index_color_glow", "index_age", "index_color_skin"]);
        assert_eq!(
            variables[0].choice,
            Choice::Palette {
                palette: &palette,
                tinted: Tinted::Material {
                    material: tags::MAIN,
                    colour: MaterialColour::Diffuse
                },
                default: 2,
            }
        );
        let Choice::Texture {
            tag,
            textures,
            default,
        } = &variables[1].choice
        else {
            panic!("index_age switches a texture: {:?}", variables[1]);
        };
        assert_eq!((*tag, textures.len(), *default), (tags::CNRM, 2, 0));
        assert_eq!(textures[1].to_text(), "texture/humanoid_age1_cn.dds");
        assert!(!variables[2].private);
        assert_eq!(
            variables[2].choice,
            Choice::Palette {
                palette: &palette,
                tinted: Tinted::TextureFactor(tags::MAIN),
                default: 1,
            }
        );
        assert_eq!(shader.palettes(), [&palette]);
        assert!(humanoid_static().variables().is_empty());
    }

    #[test]
    fn a_switch_outside_the_texture_list_chooses_among_none() {
        let textures = [RawString::from("a.dds"), RawString::from("b.dds")];
        let switch = |first, count| TextureSwitch {
            tag: tags::MAIN,
            first,
            count,
            variable: RawString::from("index_texture_1"),
            private: 0,
            default: 0,
        };
        assert_eq!(switch(1, 1).run(&textures), &textures[1..]);
        assert!(switch(1, 2).run(&textures).is_empty());
        assert!(switch(-1, 1).run(&textures).is_empty());
        assert!(switch(0, -1).run(&textures).is_empty());
    }

    #[test]
    fn files_are_found_without_regard_to_case_or_slash_direction() {
        let dir = std::env::temp_dir().join(format!("ossuary-sht-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("Texture")).unwrap();
        std::fs::create_dir_all(dir.join("palette")).unwrap();
        std::fs::create_dir_all(dir.join("shader")).unwrap();
        std::fs::write(dir.join("Texture/HUMANOID.dds"), b"dds").unwrap();
        std::fs::write(dir.join("palette/humanoid.pal"), b"pal").unwrap();
        let mut shader = humanoid();
        let Shader::Customizable(CustomizableShader {
            version: CustomizableShaderVersion::V1(customizable),
        }) = &mut shader
        else {
            unreachable!("the sample is CSHD 0001");
        };
        let StaticShaderVersion::V0(base) = &mut customizable.base.version else {
            unreachable!("the sample wraps SSHT 0000");
        };
        let textures = &mut base.textures.as_mut().unwrap().textures;
        let TextureVersion::V1(main) = &mut textures[1].version else {
            unreachable!("MAIN is a version 0001 texture");
        };
        main.name = Some(RawString::from("texture\\humanoid.dds"));

        // Beside the shader: the folders above it are looked in.
        let files = Files::beside(&dir.join("shader/humanoid.sht"));
        let found = shader.find_texture(&files, tags::MAIN).unwrap();
        assert_eq!(found.bytes, b"dds");
        let palette = shader.palettes()[0];
        assert_eq!(Shader::find_file(&files, palette).unwrap().bytes, b"pal");
        // Under a root, from anywhere.
        let rooted = Files::beside(&std::env::temp_dir().join("elsewhere/x.sht"))
            .with_root(Some(dir.clone()));
        assert!(shader.find_texture(&rooted, tags::MAIN).is_ok());

        let missing = shader.find_texture(&files, tags::CNRM).unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("cannot find the CNRM texture; looked for "),
            "{missing}"
        );
        assert!(matches!(
            shader.find_texture(&files, tags::ENVM),
            Err(ShaderFileError::Placeholder(_))
        ));
        assert!(matches!(
            shader.find_texture(&files, tags::SPEC),
            Err(ShaderFileError::NoTexture(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
