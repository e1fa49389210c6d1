//! What the server asks of the files, answered by the same code as the
//! command line's: the glTF asset as `convert` makes it
//! ([`export::character`]), the facts as `info` gives them.

use std::path::{Path, PathBuf};

use export::character::{self, Request};
use export::input::{self, CharacterError, Input, Reading};
use export::Container;
use formats::catalogue::Catalogue;
use formats::rig::{self, RigOptions};
use skinning::Composition;

use crate::listing::family_of;
use crate::{Assets, GltfRequest, Info, Made, Refused, Skill, Variable};

/// The most levels of detail looked for.
const MAX_LEVELS: usize = 16;

/// Files read and assets made as the command line makes them, reading only
/// as `reading` allows.
pub(crate) struct Exported {
    pub catalogue: Catalogue,
    pub reading: Reading,
}

impl From<CharacterError> for Refused {
    fn from(error: CharacterError) -> Refused {
        Refused {
            usage: error.is_usage(),
            message: error.to_string(),
        }
    }
}

impl Exported {
    fn load(&self, path: &Path) -> Result<Input, CharacterError> {
        input::load(&self.catalogue, path, None, &self.reading)
    }

    fn load_all(&self, paths: &[PathBuf]) -> Result<Vec<Input>, CharacterError> {
        paths.iter().map(|path| self.load(path)).collect()
    }
}

impl Assets for Exported {
    fn gltf(&self, request: &GltfRequest) -> Result<Made, Refused> {
        let inputs: Vec<PathBuf> = std::iter::once(request.open.clone())
            .chain(request.meshes.iter().cloned())
            .collect();
        let animations: Vec<PathBuf> = request.anim.iter().cloned().collect();
        let skills: Vec<String> = request.skill.iter().cloned().collect();
        let customization = customization_for_export(&request.customization);
        let convert = Request {
            inputs: &inputs,
            animations: &animations,
            skills: &skills,
            blend_weights: &request.blends,
            // Outcast's joints as the command line composes them by
            // default (`--outcast-order child-first`).
            composition: Composition::Hierarchy,
            options: RigOptions { lod: request.lod },
            format: None,
            container: Container::Glb,
            dressing: request.dressing.clone(),
            // Export tints the materials; the viewer applies nothing itself.
            customization: &customization,
            // A part that is missing is left out; the rest is shown.
            leave_out_missing: true,
            carry_files: false,
        };
        let mut warnings = Vec::new();
        let glb = character::assemble(&self.catalogue, &self.reading, &convert, &mut |warning| {
            warnings.push(warning)
        })?;
        Ok(Made { glb, warnings })
    }

    fn info(
        &self,
        open: &Path,
        meshes: &[PathBuf],
        anim: Option<&Path>,
        lod: usize,
    ) -> Result<Info, Refused> {
        let input = self.load(open)?;
        let animated = match anim {
            Some(anim) => Some(self.load(anim)?),
            None => None,
        };
        let info = facts(&input, animated.as_ref().unwrap_or(&input), lod);
        let worn = self.load_all(meshes)?;
        let variables = variables_of(std::iter::once(&input).chain(&worn), lod);
        Ok(Info { variables, ..info })
    }

    fn variables(
        &self,
        open: &Path,
        meshes: &[PathBuf],
        lod: usize,
    ) -> Result<Vec<Variable>, Refused> {
        let input = self.load(open)?;
        let worn = self.load_all(meshes)?;
        Ok(variables_of(std::iter::once(&input).chain(&worn), lod))
    }
}

/// The chosen customization as export takes it (`--custom`'s values).
/// The server has checked each value against its variable's choices (a
/// palette's entries, a run of textures), all well within an `i32`.
fn customization_for_export(chosen: &[(String, u32)]) -> Vec<(String, i32)> {
    chosen
        .iter()
        .map(|(name, value)| (name.clone(), i32::try_from(*value).unwrap_or(i32::MAX)))
        .collect()
}

/// The customization variables of the shaders the meshes of `inputs` name
/// at level `lod`, each name once (the first shader naming it says what it
/// chooses), as export applies them: palette entries tinting a texture
/// factor, and texture switches. A shader or palette that cannot be had
/// gives no variables: making the asset says why.
fn variables_of<'a>(inputs: impl Iterator<Item = &'a Input>, lod: usize) -> Vec<Variable> {
    let mut variables: Vec<Variable> = Vec::new();
    // Only Star Wars Galaxies meshes name shaders: no other file's skins
    // are made for this.
    for input in inputs.filter(|input| family_of(input.format) == "swg") {
        let Ok(skins) = input.skins(RigOptions { lod }) else {
            continue;
        };
        let names = skins.iter().filter_map(|skin| skin.texture.as_deref());
        for variable in export::shader::variables(names, &input.files) {
            if !variables
                .iter()
                .any(|known| known.name.eq_ignore_ascii_case(&variable.name))
            {
                variables.push(variable);
            }
        }
    }
    variables
}

/// What `info` says of `input`, its levels and the blend targets of its
/// meshes at level `lod` (a level may have fewer), and the skills of
/// `animated`.
fn facts(input: &Input, animated: &Input, lod: usize) -> Info {
    let summary = export::summary::summary(
        &input.path.display().to_string(),
        input.format.title,
        input.format.name,
        &input.document.describe(),
    );
    let skins = input.skins(RigOptions { lod }).unwrap_or_default();
    let mut blends: Vec<String> = Vec::new();
    for target in skins.iter().flat_map(|skin| &skin.morph_targets) {
        if !blends.contains(&target.name) {
            blends.push(target.name.clone());
        }
    }
    // A level exists when the file's skeleton and meshes can be had at it.
    let lods = (0..MAX_LEVELS)
        .take_while(|&lod| {
            let options = RigOptions { lod };
            input.skeleton(options).is_ok() && input.skins(options).is_ok()
        })
        .count()
        .max(1);
    let skills = match animated.named_animations() {
        Ok(named) => named
            .into_iter()
            .map(|named| match named.animation {
                // Frames that need another file's to pose anything (a
                // BonesPro `Mesh (bones c.s)` export) cannot be shown alone.
                Ok(rig::Animation {
                    motion: rig::Motion::Incomplete { needs },
                    ..
                }) => Skill {
                    name: named.name,
                    times: Vec::new(),
                    problem: Some(format!(
                        "its frames pose nothing on their own: {needs} is needed"
                    )),
                },
                Ok(animation) => Skill {
                    name: named.name,
                    times: animation.times,
                    problem: None,
                },
                Err(error) => Skill {
                    name: named.name,
                    times: Vec::new(),
                    problem: Some(error.to_string()),
                },
            })
            .collect(),
        // A file without animations has no skills to offer.
        Err(_) => Vec::new(),
    };
    let axes = match input.skeleton(RigOptions::default()) {
        Ok(Some(skeleton)) => match skeleton.axes {
            rig::Axes::LeftHandedYUp => "left-handed-y-up",
            rig::Axes::RightHandedZUp => "right-handed-z-up",
            rig::Axes::RightHandedYUp => "right-handed-y-up",
        },
        _ => "",
    };
    Info {
        facts: summary.lines().map(str::to_owned).collect(),
        lods,
        blends,
        skills,
        warnings: Vec::new(),
        axes: axes.to_owned(),
        variables: Vec::new(),
    }
}
