//! glTF back into Star Wars Galaxies' files: the skinned meshes as `.mgn`
//! meshes (each glTF mesh one shader group), a `.lmg` naming each and a
//! `.sat` putting them together on the skeleton.
//!
//! Export's conventions undone: x mirrored back (glTF is right-handed, SWG
//! left-handed), triangles wound back. A mesh's positions are where the
//! bind pose puts them, as a `.mgn` stores them (the skeleton's rest pose
//! is taken to be the glTF's bind pose). Each vertex keeps every joint it
//! follows, by its weight. A shader group is named by its glTF mesh's name
//! when that names a shader (`shader/....sht`, as ossuary names the groups
//! it exports), else by its material's name when that does, else
//! `shader/<material>.sht` (`shader/<mesh>.sht` without a material). Morph targets become blend
//! targets by their names (`extras.targetNames`), offsets of the positions
//! they move; a mesh can hold two targets of one name, each kept apart
//! (the n-th of a name is the n-th of that name, and a name Blender
//! suffixed, `blend_jaw_1.001`, is the earlier name again).
//!
//! Which glTF meshes are the groups of one `.mgn`, and at which entry of
//! its position list each vertex stands, travels in the mesh `extras`
//! ([`GROUP_EXTRAS`]); without it each glTF mesh is a `.mgn` of its own,
//! with a position per vertex.
//!
//! The files the character was exported from travel whole in the scene's
//! extras ([`super::carried`]): each `.mgn` comes back as its original
//! with the glTF's edits ([`super::swg_original`]), with its occlusion
//! zones, lighting vectors, hardpoints, vertex colours, texture renderers
//! and integers; its mesh list and other levels of detail, the appearance
//! and the skeletons (their stored `RPRE`, `BPRO`, `RPST`) as they were.
//! Without them (a glTF made elsewhere) the mesh is derived from the glTF
//! alone and one warning says what could not come back: a normal list is
//! rebuilt (equal normals shared), and joints are listed in the order the
//! vertices first name them.

use std::collections::{BTreeMap, HashMap, HashSet};

use formats::rig;
use formats::schema::{BinarySchema, Count, RawString};
use formats::swg::lmg::{LevelName, MeshLevels, MeshLevelsV0, MeshLevelsVersion};
use formats::swg::mgn::{
    BlendTarget, CoordinateSet, IndexedTriangles, Mesh, MeshBody, MeshVersion, Offset, Primitives,
    ShaderGroup, TriangleList, Weight,
};
use formats::swg::sat::{Appearance, AppearanceV3, AppearanceVersion, SkeletonAttachment};
use formats::swg::skt::{
    LodForm, LodListV0, LodVersion, Quaternion, Skeleton as Skt, SkeletonForm, SkeletonV2,
    SkeletonVersion,
};
use glam::{Affine3A, Vec3};
use serde::{Deserialize, Serialize};

use super::carried::{self, Original};
use super::document::Asset;
use super::rest::{self, Game, Scene};
use super::{swg_original, ImportError};

/// The mesh `extras` key of an SWG shader group's place in its `.mgn`.
pub const GROUP_EXTRAS: &str = "ossuary_swg_group";

/// Where a glTF mesh's vertices stand in the `.mgn` it is a group of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupExtras {
    /// The `.mgn`, as the appearance names it
    /// (`appearance/mesh/twk_f_body_l0.mgn`).
    pub mesh: String,
    /// How many positions its list holds (the entries are checked against
    /// it; the list written back is as long as they reach).
    pub position_count: u32,
    /// Per vertex, its entry in the list.
    pub entries: Vec<u32>,
}

/// A shader group's extras (see [`GroupExtras`]).
pub fn group_extras(shared: &rig::SharedPositions) -> serde_json::Value {
    serde_json::to_value(GroupExtras {
        mesh: shared.list.clone(),
        position_count: shared.count,
        entries: shared.entries.clone(),
    })
    .unwrap_or_default()
}

/// What a glTF that carries no files of the game (made elsewhere, or
/// exported without custom properties) cannot give back.
pub const WITHOUT_ORIGINALS: &str = "it carries no files of the game (a glTF made \
    elsewhere, or exported without custom properties), so its meshes are derived from the \
    glTF alone: a position list per glTF mesh unless its extras share one, the joints in \
    the order the vertices name them, each normal stored once; no occlusion zones, lighting \
    vectors (DOT3), hardpoints, vertex colours, texture renderers or other levels of detail, \
    and INFO's integers 0";

/// A Star Wars Galaxies character read from glTF.
#[derive(Debug)]
pub struct SwgCharacter {
    /// Each `.mgn` with the `.lmg` naming it.
    pub meshes: Vec<SwgMesh>,
    /// The appearance naming every `.lmg` and the skeleton.
    pub appearance: Appearance,
    /// The file name of the appearance the glTF carries (`twk_f.sat`), which
    /// the character is written as; `None` when it carries none.
    pub appearance_file: Option<String>,
    /// Files carried in the glTF that come back as they were: a mesh
    /// list's other levels of detail (the glTF holds one).
    pub unchanged: Vec<Original>,
    /// What could not be kept, a sentence each.
    pub warnings: Vec<String>,
}

/// One `.mgn` and the mesh list (`.lmg`) naming it, with their file names;
/// no list when the carried appearance names the `.mgn` itself.
#[derive(Debug)]
pub struct SwgMesh {
    pub file: String,
    pub mesh: Mesh,
    pub list: Option<(String, MeshLevels)>,
}

/// Where the game looks up a character's files, relative to the folder
/// holding `appearance/`.
const MESH_FOLDER: &str = "appearance/mesh";
const SKELETON_FOLDER: &str = "appearance/skeleton";

/// The skeleton file `file` (e.g. `all_b.skt`) as an appearance names it,
/// at the root.
pub fn skeleton_at_root(file: &str) -> SkeletonAttachment {
    SkeletonAttachment {
        skeleton: RawString::from(format!("{SKELETON_FOLDER}/{file}").as_str()),
        joint: RawString::default(),
    }
}

/// The glTF's own skeleton ([`rest::own_skeleton`]) as a new SWG skeleton:
/// each joint's rest where the glTF's rest puts it in model space (an
/// armature object's transform applied: its scale in the joints' places),
/// relative to its parent: its turn stored whole as its bind rotation
/// (`BPRO`), its pre- and post-rotations (`RPRE`, `RPST`) the identity,
/// since the three export composed cannot be split again; its place as its
/// bind translation (`BPTR`); rotation order 0. An SWG mesh stores its
/// positions in model space, so the game's own meshes fit it whichever
/// way its joints are turned. Written as one level of detail in a
/// `FORM SLOD`.
pub fn skeleton_of(asset: &Asset) -> Result<Skt, ImportError> {
    let scene = Scene::of(asset)?;
    let joints = rest::own_skeleton(asset, &scene, Game::Swg)?;
    let locals: Vec<Affine3A> = joints.iter().map(|joint| joint.local(&joints)).collect();
    let identity = Quaternion {
        w: 1.0,
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };
    let count = |what: &str| ImportError::Gltf(format!("too many joints for {what}"));
    let skeleton = SkeletonForm {
        version: SkeletonVersion::V2(SkeletonV2 {
            joint_count: Count::new(),
            names: joints
                .iter()
                .map(|joint| RawString::from(joint.name.as_str()))
                .collect(),
            parents: joints
                .iter()
                .map(|joint| match joint.parent {
                    Some(parent) => i32::try_from(parent).map_err(|_| count("a .skt")),
                    None => Ok(-1),
                })
                .collect::<Result<_, _>>()?,
            pre_rotations: vec![identity; joints.len()],
            post_rotations: vec![identity; joints.len()],
            bind_translations: locals
                .iter()
                .map(|local| local.translation.to_array())
                .collect(),
            bind_rotations: locals
                .iter()
                .map(|local| {
                    let (_, turn, _) = local.to_scale_rotation_translation();
                    let [x, y, z, w] = turn.normalize().to_array();
                    Quaternion { w, x, y, z }
                })
                .collect(),
            rotation_orders: vec![0; joints.len()],
        }),
    };
    // In a level-of-detail wrapper of one level, as `all_b.skt` is: the game
    // reads either kind, and io_scene_swg_msh's importer only this one.
    Ok(Skt::LevelsOfDetail(LodForm {
        version: LodVersion::V0(LodListV0 {
            level_count: Count::new(),
            levels: vec![skeleton],
        }),
    }))
}

/// A skeleton file as the appearance attaches it, and its joints' names.
pub struct SkeletonFile {
    pub attachment: SkeletonAttachment,
    pub joints: Vec<String>,
}

/// The character `asset` holds, for the skeleton made of `skeletons` (the
/// appearance's `SKTI`); each mesh names (`SKTM`) those whose joints it
/// follows.
///
/// Files carried in the glTF (`originals`, see [`super::carried`]) give
/// back what glTF has no place for: each `.mgn` is its original with the
/// glTF's edits ([`super::swg_original`]), its mesh list and the
/// appearance come back as they were when they still name the meshes and
/// skeletons written.
pub fn import(
    asset: &Asset,
    skeletons: &[SkeletonFile],
    originals: &[Original],
) -> Result<SwgCharacter, ImportError> {
    let scene = Scene::of(asset)?;
    // The skeleton's joints, as SWG compares them: without regard to case.
    let known: HashSet<String> = skeletons
        .iter()
        .flat_map(|file| &file.joints)
        .map(|joint| joint.to_ascii_lowercase())
        .collect();
    let most_detailed = most_detailed_meshes(originals);
    let mut taken: HashSet<(usize, usize)> = HashSet::new();
    // Per .mgn (by its file stem): its groups, in the asset's order.
    let mut meshes: BTreeMap<String, Vec<Group>> = BTreeMap::new();
    for node in super::mesh::placed(&asset.document)? {
        let Some(mesh) = node.mesh() else {
            continue;
        };
        let mesh_name = mesh
            .name()
            .map_or_else(|| format!("mesh {}", mesh.index()), str::to_owned);
        let gltf_skin = node.skin().ok_or_else(|| ImportError::Mesh {
            mesh: mesh_name.clone(),
            problem: "it has no skin: an SWG mesh must follow the skeleton's joints".to_owned(),
        })?;
        let mut joints = Vec::new();
        let mut named = HashSet::new();
        for joint in gltf_skin.joints() {
            let name = joint.name().unwrap_or_default().to_owned();
            if !named.insert(name.clone()) {
                return Err(ImportError::JointTwice(name));
            }
            if !known.contains(&name.to_ascii_lowercase()) {
                return Err(ImportError::UnknownJoint(name));
            }
            scene.joint_frame(joint.index(), &name, Game::Swg)?;
            joints.push(name);
        }
        let inverse_binds = rest::inverse_binds(asset, &gltf_skin, joints.len())?;
        let skinning: Vec<Affine3A> = gltf_skin
            .joints()
            .zip(&inverse_binds)
            .map(|(joint, inverse_bind)| rest::skinning(&scene.world(joint.index()), inverse_bind))
            .collect();
        let mut read = super::mesh::read(asset, &mesh, &mesh_name, joints.len())?;
        read.move_to_rest(&skinning);
        let mut extras = mesh
            .extras()
            .as_ref()
            .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
            .and_then(|value| value.get(GROUP_EXTRAS).cloned())
            .and_then(|value| serde_json::from_value::<GroupExtras>(value).ok())
            .filter(|place| {
                place
                    .entries
                    .iter()
                    .all(|&entry| entry < place.position_count)
            });
        let target_names: Vec<String> = mesh
            .extras()
            .as_ref()
            .and_then(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
            .and_then(|value| value.get("targetNames").cloned())
            .and_then(|value| serde_json::from_value(value).ok())
            .unwrap_or_default();
        let target_keys = target_keys(&target_names);
        let material = mesh
            .primitives()
            .next()
            .and_then(|primitive| primitive.material().name().map(str::to_owned));
        // A shader path as the game looks it up: the mesh's name or the
        // material's when it is one, else made of the material's name (or
        // the mesh's, without a named material).
        let is_shader = |name: &String| name.to_ascii_lowercase().ends_with(".sht");
        let shader = if is_shader(&mesh_name) {
            mesh_name.clone()
        } else {
            match material {
                Some(material) if is_shader(&material) => material,
                Some(material) => format!("shader/{material}.sht"),
                None => format!("shader/{mesh_name}.sht"),
            }
        };
        // Without extras (Blender's exporter leaves them out by default) the
        // group is the original's shader group of its shader whose vertices
        // it still has, when the originals are known.
        if extras.is_none() {
            if let Some((found, mapped)) = by_shader(&most_detailed, &read, &shader, &mut taken) {
                extras = Some(found);
                read = mapped;
            }
        }
        let place = extras
            .clone()
            .filter(|place| place.entries.len() == read.positions.len());
        // The .mgn keeps its name when Blender changed its vertices' count.
        let stem = match &extras {
            Some(extras) => file_stem(&extras.mesh),
            None => file_stem(&mesh_name),
        };
        meshes.entry(stem).or_default().push(Group {
            shader,
            joints,
            target_keys,
            extras,
            place,
            read,
        });
    }
    for groups in meshes.values_mut() {
        in_original_order(groups, originals);
    }
    if meshes.is_empty() {
        return Err(ImportError::NoMeshes);
    }
    let mut built = Vec::new();
    let mut unchanged = Vec::new();
    let mut warnings = Vec::new();
    if originals.is_empty() {
        warnings.push(WITHOUT_ORIGINALS.to_owned());
    }
    for (stem, groups) in meshes {
        // The skeleton files holding a joint the mesh's vertices follow.
        let mut followed: HashSet<String> = HashSet::new();
        for group in &groups {
            let mut used = vec![false; group.joints.len()];
            for &(joint, _) in group.read.influences.iter().flatten() {
                if let Some(slot) = used.get_mut(joint) {
                    *slot = true;
                }
            }
            followed.extend(
                group
                    .joints
                    .iter()
                    .zip(used)
                    .filter(|(_, used)| *used)
                    .map(|(name, _)| name.to_ascii_lowercase()),
            );
        }
        let skeleton_paths: Vec<RawString> = skeletons
            .iter()
            .filter(|file| {
                file.joints
                    .iter()
                    .any(|joint| followed.contains(&joint.to_ascii_lowercase()))
            })
            .map(|file| file.attachment.skeleton.clone())
            .collect();
        let derived = mgn(&groups, &skeleton_paths).map_err(|problem| ImportError::Mesh {
            mesh: stem.clone(),
            problem,
        })?;
        let path = groups
            .iter()
            .find_map(|group| group.extras.as_ref())
            .map_or_else(
                || format!("{MESH_FOLDER}/{stem}.mgn"),
                |extras| extras.mesh.clone(),
            );
        let original = carried::find(originals, &path)
            .and_then(|original| Mesh::from_bytes(&original.bytes).ok());
        let mesh = match original {
            Some(original) => {
                let (mesh, lost) = swg_original::merged(&original, derived.body().clone());
                warnings.extend(lost.map(|lost| format!("{path}: {lost}")));
                mesh
            }
            None => derived,
        };
        let list = match carried_list(originals, &path) {
            Some((list, levels, others)) => {
                unchanged.extend(others);
                Some((list, levels))
            }
            None if named_by_appearance(originals, &path) => None,
            None => Some((
                format!("{}.lmg", list_stem(&stem)),
                MeshLevels {
                    version: MeshLevelsVersion::V0(MeshLevelsV0 {
                        level_count: Count::new(),
                        levels: vec![LevelName {
                            path: RawString::from(format!("{MESH_FOLDER}/{stem}.mgn").as_str()),
                        }],
                    }),
                },
            )),
        };
        built.push(SwgMesh {
            file: format!("{stem}.mgn"),
            mesh,
            list,
        });
    }
    // What the appearance names: each mesh's list, or the mesh itself.
    let lists: Vec<String> = built
        .iter()
        .map(|mesh| {
            let file = mesh.list.as_ref().map_or(&mesh.file, |(file, _)| file);
            format!("{MESH_FOLDER}/{file}")
        })
        .collect();
    let attachments: Vec<SkeletonAttachment> = skeletons
        .iter()
        .map(|file| file.attachment.clone())
        .collect();
    let appearance =
        carried_appearance(originals, &lists, &attachments).unwrap_or_else(|| Appearance {
            version: AppearanceVersion::V3(AppearanceV3 {
                mesh_count: Count::new(),
                skeleton_count: Count::new(),
                animation_controller: 1,
                meshes: lists
                    .iter()
                    .map(|list| RawString::from(list.as_str()))
                    .collect(),
                skeletons: attachments,
                animation_tables: None,
                lod_distances: None,
                soft_skinning: None,
                always_play_action_animations: None,
                unknown: Vec::new(),
            }),
        });
    let appearance_file = originals
        .iter()
        .find(|original| Appearance::from_bytes(&original.bytes).is_ok())
        .map(|original| original.file_name().to_owned());
    Ok(SwgCharacter {
        meshes: built,
        appearance,
        appearance_file,
        unchanged,
        warnings,
    })
}

/// The carried mesh list naming the `.mgn` at `path` (its file name, its
/// levels), with its other levels' carried files; `None` when there is
/// none or a level is not carried.
fn carried_list(originals: &[Original], path: &str) -> Option<(String, MeshLevels, Vec<Original>)> {
    let name = carried::file_name(path);
    originals.iter().find_map(|original| {
        let levels = MeshLevels::from_bytes(&original.bytes).ok()?;
        let paths = levels.levels();
        let named = paths
            .iter()
            .any(|level| carried::file_name(level).eq_ignore_ascii_case(name));
        if !named {
            return None;
        }
        let others = paths
            .iter()
            .filter(|level| !carried::file_name(level).eq_ignore_ascii_case(name))
            .map(|level| carried::find(originals, level).cloned())
            .collect::<Option<Vec<Original>>>()?;
        Some((original.file_name().to_owned(), levels, others))
    })
}

/// Whether a carried appearance names the `.mgn` at `path` itself (by file
/// name), not through a mesh list.
fn named_by_appearance(originals: &[Original], path: &str) -> bool {
    let name = carried::file_name(path);
    originals.iter().any(|original| {
        Appearance::from_bytes(&original.bytes).is_ok_and(|appearance| {
            let AppearanceVersion::V3(contents) = &appearance.version;
            contents
                .meshes
                .iter()
                .any(|mesh| carried::file_name(&mesh.to_text()).eq_ignore_ascii_case(name))
        })
    })
}

/// The carried appearance, when it names exactly the mesh lists (by file
/// name) and the skeletons the character is written with.
fn carried_appearance(
    originals: &[Original],
    lists: &[String],
    skeletons: &[SkeletonAttachment],
) -> Option<Appearance> {
    originals.iter().find_map(|original| {
        let appearance = Appearance::from_bytes(&original.bytes).ok()?;
        let AppearanceVersion::V3(contents) = &appearance.version;
        let mut named: Vec<String> = contents
            .meshes
            .iter()
            .map(|mesh| carried::file_name(&mesh.to_text()).to_lowercase())
            .collect();
        let mut written: Vec<String> = lists
            .iter()
            .map(|list| carried::file_name(list).to_lowercase())
            .collect();
        named.sort();
        written.sort();
        (named == written && contents.skeletons == skeletons).then_some(appearance)
    })
}

/// One glTF mesh: a shader group to be.
struct Group<'a> {
    shader: String,
    /// The glTF skin's joints, by name.
    joints: Vec<String>,
    /// Per morph target, the blend target it is.
    target_keys: Vec<TargetKey>,
    /// Its place in its `.mgn` as its extras say.
    extras: Option<GroupExtras>,
    /// The same, when it fits the vertices read.
    place: Option<GroupExtras>,
    read: super::mesh::MeshData<'a>,
}

/// The groups of one `.mgn` in the order of the carried `.mgn`'s shader
/// groups (Blender writes its objects sorted by name), each matched by its
/// shader and its extras' position entries; and each whose extras no
/// longer fit its vertices read back in the vertices of its shader group
/// where Blender only split or merged them ([`super::swg_seams`]).
fn in_original_order(groups: &mut Vec<Group>, originals: &[Original]) {
    let Some(original) = groups
        .iter()
        .find_map(|group| group.extras.as_ref())
        .and_then(|extras| carried::find(originals, &extras.mesh))
        .and_then(|original| Mesh::from_bytes(&original.bytes).ok())
    else {
        return;
    };
    let stored = &original.body().shader_groups;
    let mut taken = vec![false; stored.len()];
    // Per group, the shader group it is: the same shader and entries first,
    // then the same shader.
    let mut matched: Vec<Option<usize>> = vec![None; groups.len()];
    for same_entries in [true, false] {
        for (group, slot) in groups.iter().zip(&mut matched) {
            if slot.is_some() {
                continue;
            }
            let found = stored.iter().enumerate().position(|(index, shader_group)| {
                let entries = group.extras.as_ref().map(|extras| &extras.entries);
                !taken.get(index).copied().unwrap_or(true)
                    && shader_group.shader.to_text() == group.shader
                    && (!same_entries
                        || entries.is_some_and(|entries| {
                            entries.len() == shader_group.position_indices.len()
                                && entries
                                    .iter()
                                    .zip(&shader_group.position_indices)
                                    .all(|(&a, &b)| i64::from(a) == i64::from(b))
                        }))
            });
            if let Some(index) = found {
                *slot = Some(index);
                if let Some(taken) = taken.get_mut(index) {
                    *taken = true;
                }
            }
        }
    }
    for (group, index) in groups.iter_mut().zip(&matched) {
        let (Some(index), Some(extras)) = (index, group.extras.as_ref()) else {
            continue;
        };
        if group.place.is_some() {
            continue;
        }
        let mapped = super::swg_seams::mapped_back(&group.read, original.body(), *index)
            .filter(|mapped| mapped.positions.len() == extras.entries.len());
        if let Some(mapped) = mapped {
            group.read = mapped;
            group.place = Some(extras.clone());
        }
    }
    let mut order: Vec<(usize, Group)> = matched
        .into_iter()
        .map(|index| index.unwrap_or(usize::MAX))
        .zip(groups.drain(..))
        .collect();
    order.sort_by_key(|(index, _)| *index);
    groups.extend(order.into_iter().map(|(_, group)| group));
}

/// The most detailed `.mgn` of each mesh the original appearance names
/// (its list's first level, or the `.mgn` it names itself), by path, read.
fn most_detailed_meshes(originals: &[Original]) -> Vec<(String, Mesh)> {
    let Some(appearance) = originals
        .iter()
        .find_map(|original| Appearance::from_bytes(&original.bytes).ok())
    else {
        return Vec::new();
    };
    let AppearanceVersion::V3(contents) = &appearance.version;
    contents
        .meshes
        .iter()
        .filter_map(|named| {
            let named = carried::find(originals, &named.to_text())?;
            let path = match MeshLevels::from_bytes(&named.bytes) {
                Ok(levels) => levels.levels().into_iter().next()?,
                Err(_) => named.path.clone(),
            };
            let mesh = Mesh::from_bytes(&carried::find(originals, &path)?.bytes).ok()?;
            Some((path, mesh))
        })
        .collect()
}

/// The place in `meshes` of a glTF mesh without extras, found by its
/// shader: the first shader group not `taken` of that shader whose
/// vertices the glTF's are, up to Blender's seam splits
/// ([`super::swg_seams`]), with the glTF's vertices read back in its
/// vertices and order.
fn by_shader<'a>(
    meshes: &[(String, Mesh)],
    read: &super::mesh::MeshData<'a>,
    shader: &str,
    taken: &mut HashSet<(usize, usize)>,
) -> Option<(GroupExtras, super::mesh::MeshData<'a>)> {
    for (mesh_index, (path, mesh)) in meshes.iter().enumerate() {
        let body = mesh.body();
        for (group_index, group) in body.shader_groups.iter().enumerate() {
            if taken.contains(&(mesh_index, group_index))
                || !group.shader.to_text().eq_ignore_ascii_case(shader)
            {
                continue;
            }
            let Some(mapped) = super::swg_seams::mapped_back(read, body, group_index) else {
                continue;
            };
            let entries: Option<Vec<u32>> = group
                .position_indices
                .iter()
                .map(|&entry| u32::try_from(entry).ok())
                .collect();
            let position_count = u32::try_from(body.positions.len()).ok()?;
            taken.insert((mesh_index, group_index));
            return Some((
                GroupExtras {
                    mesh: path.clone(),
                    position_count,
                    entries: entries?,
                },
                mapped,
            ));
        }
    }
    None
}

/// A blend target as a glTF mesh's morph targets name it: its name and
/// how many targets before it in the mesh have that name (a `.mgn` can
/// hold two of one name, and each group of it lists them alike).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct TargetKey {
    name: String,
    repeat: usize,
}

/// Per morph target name, the blend target it is. Blender renames a shape
/// key whose name an earlier key has (the second `blend_jaw_1` becomes
/// `blend_jaw_1.001`): a name that is an earlier target's name, a dot and
/// digits is that name again.
fn target_keys(names: &[String]) -> Vec<TargetKey> {
    // How many targets so far have each name: one look-up a target, so
    // a glTF naming many targets costs in proportion.
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut keys: Vec<TargetKey> = Vec::with_capacity(names.len());
    for name in names {
        let renamed = name
            .rsplit_once('.')
            .filter(|(_, digits)| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .map(|(base, _)| base)
            .filter(|base| seen.contains_key(base));
        let name = renamed.unwrap_or(name);
        let count = seen.entry(name).or_default();
        keys.push(TargetKey {
            name: name.to_owned(),
            repeat: *count,
        });
        *count += 1;
    }
    keys
}

/// The name of a new mesh list for the mesh `stem`: the game names a
/// level `<list>_l<N>` (`twk_f_body_l0.mgn` in `twk_f_body.lmg`), so a
/// level's suffix is left off.
fn list_stem(stem: &str) -> &str {
    match stem.rsplit_once("_l") {
        Some((list, level))
            if !list.is_empty()
                && !level.is_empty()
                && level.bytes().all(|b| b.is_ascii_digit()) =>
        {
            list
        }
        _ => stem,
    }
}

/// `appearance/mesh/twk_f_body_l0.mgn` as `twk_f_body_l0`.
fn file_stem(path: &str) -> String {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.strip_suffix(".mgn")
        .or_else(|| name.strip_suffix(".MGN"))
        .unwrap_or(name)
        .to_owned()
}

fn to_i32(value: usize, what: &str) -> Result<i32, String> {
    i32::try_from(value).map_err(|_| format!("{value} {what} are past a .mgn's limit (2^31)"))
}

/// One `.mgn` of its groups.
fn mgn(groups: &[Group], skeletons: &[RawString]) -> Result<Mesh, String> {
    // The position list: the extras' entries (as long as the entries reach,
    // so its length follows the vertices read, not a number in the
    // extras), or a position per vertex.
    // Every position a vertex stands at: a list reaching past the vertices
    // there are is not one they can share.
    let vertices: usize = groups.iter().map(|group| group.read.positions.len()).sum();
    let reach = groups
        .iter()
        .flat_map(|group| group.place.iter().flat_map(|place| &place.entries))
        .map(|&entry| entry as usize + 1)
        .max()
        .unwrap_or(0);
    let shared = groups.iter().all(|group| group.place.is_some()) && reach <= vertices;
    let position_count = if shared { reach } else { vertices };
    let mut next = 0usize;
    let entries: Vec<Vec<usize>> = groups
        .iter()
        .map(|group| match (&group.place, shared) {
            (Some(place), true) => place.entries.iter().map(|&entry| entry as usize).collect(),
            _ => {
                let first = next;
                next += group.read.positions.len();
                (first..next).collect()
            }
        })
        .collect();
    let mut positions: Vec<Option<Vec3>> = vec![None; position_count];
    let mut weights: Vec<Vec<(usize, f32)>> = vec![Vec::new(); position_count];
    let mut joints: Vec<String> = Vec::new();
    let mut normals: Vec<[f32; 3]> = Vec::new();
    let mut normal_index: HashMap<[u32; 3], usize> = HashMap::new();
    let mut shader_groups = Vec::with_capacity(groups.len());
    // Per blend target name, per position entry, its offset.
    let mut targets: BTreeMap<TargetKey, BTreeMap<usize, Vec3>> = BTreeMap::new();
    let mut target_order: Vec<TargetKey> = Vec::new();
    let mut joint_index: HashMap<String, usize> = HashMap::new();
    for (group, entries) in groups.iter().zip(&entries) {
        let read = &group.read;
        // Per glTF skin joint of the group: its index in the mesh's joints.
        let mut group_joints: Vec<Option<usize>> = vec![None; group.joints.len()];
        let mut normal_indices = Vec::with_capacity(read.normals.len());
        for (vertex, &entry) in entries.iter().enumerate() {
            let slot = positions
                .get_mut(entry)
                .ok_or_else(|| format!("position entry {entry} is past {position_count}"))?;
            if slot.is_none() {
                *slot = read.positions.get(vertex).copied();
                let own = read.influences.get(vertex).map_or(&[][..], Vec::as_slice);
                let mut named = Vec::with_capacity(own.len());
                for &(joint, weight) in own {
                    // Each of the group's joints is looked up by name once.
                    let index = match group_joints.get(joint).copied().flatten() {
                        Some(index) => index,
                        None => {
                            let name = group.joints.get(joint).cloned().unwrap_or_default();
                            let index = *joint_index.entry(name.clone()).or_insert_with(|| {
                                joints.push(name);
                                joints.len() - 1
                            });
                            if let Some(slot) = group_joints.get_mut(joint) {
                                *slot = Some(index);
                            }
                            index
                        }
                    };
                    named.push((index, weight));
                }
                if let Some(slot) = weights.get_mut(entry) {
                    *slot = named;
                }
            }
            let normal = read.normals.get(vertex).copied().unwrap_or_default();
            let key = normal.to_array().map(f32::to_bits);
            let index = *normal_index.entry(key).or_insert_with(|| {
                normals.push(normal.to_array());
                normals.len() - 1
            });
            normal_indices.push(to_i32(index, "normals")?);
        }
        for (target, moves) in read.morph_positions.iter().enumerate() {
            let key = group.target_keys.get(target).cloned().unwrap_or(TargetKey {
                name: format!("blend_{target}"),
                repeat: 0,
            });
            if !targets.contains_key(&key) {
                target_order.push(key.clone());
            }
            let offsets = targets.entry(key).or_default();
            for (&entry, &offset) in entries.iter().zip(moves) {
                if offset != Vec3::ZERO {
                    offsets.entry(entry).or_insert(offset);
                }
            }
        }
        let uvs: Vec<f32> = read.uvs.iter().flatten().copied().collect();
        shader_groups.push(ShaderGroup {
            shader: RawString::from(group.shader.as_str()),
            vertex_count: Count::new(),
            position_indices: entries
                .iter()
                .map(|&entry| to_i32(entry, "positions"))
                .collect::<Result<_, _>>()?,
            normal_indices: Some(normal_indices),
            lighting_vector_indices: None,
            colors: None,
            coordinate_dimensions: Some(vec![2]),
            coordinate_sets: Some(vec![CoordinateSet { values: uvs }]),
            primitives: Primitives {
                list_count: Count::new(),
                lists: vec![TriangleList::Indexed(IndexedTriangles {
                    triangles: read
                        .triangles
                        .iter()
                        .map(|triangle| {
                            let [a, b, c] = triangle.map(|corner| corner as usize);
                            Ok([
                                to_i32(a, "vertices")?,
                                to_i32(b, "vertices")?,
                                to_i32(c, "vertices")?,
                            ])
                        })
                        .collect::<Result<_, String>>()?,
                })],
            },
        });
    }
    let weights_per_position = weights
        .iter()
        .map(|own| to_i32(own.len(), "weights"))
        .collect::<Result<_, _>>()?;
    let blend_targets: Vec<BlendTarget> = target_order
        .iter()
        .map(|key| {
            let offsets = targets.get(key).cloned().unwrap_or_default();
            Ok(BlendTarget {
                position_count: Count::new(),
                normal_count: Count::new(),
                name: RawString::from(key.name.as_str()),
                positions: Some(
                    offsets
                        .iter()
                        .map(|(&entry, offset)| {
                            Ok(Offset {
                                index: to_i32(entry, "positions")?,
                                offset: offset.to_array(),
                            })
                        })
                        .collect::<Result<_, String>>()?,
                ),
                normals: None,
                lighting_vectors: None,
                hardpoints: None,
            })
        })
        .collect::<Result<_, String>>()?;
    let body = MeshBody {
        skeletons: skeletons.to_vec(),
        joints: joints
            .iter()
            .map(|joint| RawString::from(joint.as_str()))
            .collect(),
        // A position no group stands at keeps the origin.
        positions: positions
            .iter()
            .map(|position| position.unwrap_or_default().to_array())
            .collect(),
        weights_per_position,
        weights: weights
            .iter()
            .flatten()
            .map(|&(joint, weight)| {
                Ok(Weight {
                    joint: to_i32(joint, "joints")?,
                    weight,
                })
            })
            .collect::<Result<_, String>>()?,
        normals: Some(normals),
        blend_targets: (!blend_targets.is_empty()).then_some(blend_targets),
        shader_groups,
        ..MeshBody::default()
    };
    Ok(Mesh {
        version: MeshVersion::V4(body),
    })
}

/// The skeleton files the carried appearance attaches (without one, each
/// carried `.skt` at the root), each with its joints' names and its
/// carried file, when the glTF's joints are still theirs (so the stored
/// `RPRE`, `BPRO` and `RPST` come back as they were): `None` when the glTF
/// carries no skeleton, else the files or why the glTF's joints are not
/// theirs.
pub fn carried_skeletons(
    asset: &Asset,
    originals: &[Original],
) -> Option<Result<Vec<(SkeletonFile, Original)>, String>> {
    let appearance = originals
        .iter()
        .find_map(|original| Appearance::from_bytes(&original.bytes).ok());
    // Without an appearance, each skeleton file carried, at the root.
    let attached: Vec<(SkeletonAttachment, &Original)> = match &appearance {
        Some(appearance) => {
            let AppearanceVersion::V3(contents) = &appearance.version;
            contents
                .skeletons
                .iter()
                .map(|attachment| {
                    let original = carried::find(originals, &attachment.skeleton.to_text())?;
                    Some((attachment.clone(), original))
                })
                .collect::<Option<_>>()?
        }
        None => originals
            .iter()
            .filter(|original| Skt::from_bytes(&original.bytes).is_ok())
            .map(|original| (skeleton_at_root(original.file_name()), original))
            .collect(),
    };
    if attached.is_empty() {
        return None;
    }
    let mut files = Vec::new();
    for (attachment, original) in attached {
        let skeleton = Skt::from_bytes(&original.bytes)
            .ok()?
            .levels()
            .into_iter()
            .next()?
            .skeleton()
            .ok()?;
        files.push((attachment, skeleton, original.clone()));
    }
    let rest = match Scene::of(asset).and_then(|scene| rest::own_skeleton(asset, &scene, Game::Swg))
    {
        Ok(rest) => rest,
        Err(error) => return Some(Err(error.to_string())),
    };
    let by_name: HashMap<String, usize> = rest
        .iter()
        .enumerate()
        .map(|(index, joint)| (joint.name.to_ascii_lowercase(), index))
        .collect();
    let found = |name: &str| {
        by_name
            .get(&name.to_ascii_lowercase())
            .and_then(|&index| rest.get(index))
    };
    // Within this of the carried joint's place is the carried place: an
    // asset Blender imported and exported unchanged moves joints by float
    // noise.
    let near = rest::ELSEWHERE
        * rest::height(rest.iter().map(|joint| Vec3::from(joint.model.translation)));
    let mut kept = Vec::with_capacity(files.len());
    for (attachment, skeleton, original) in files {
        for joint in &skeleton.joints {
            let Some(glt) = found(&joint.name) else {
                return Some(Err(format!(
                    "the glTF has no joint {}",
                    rest::quoted(&joint.name)
                )));
            };
            let parent = joint
                .parent
                .and_then(|parent| skeleton.joints.get(parent))
                .map(|parent| parent.name.clone())
                .or_else(|| Some(attachment.joint.to_text()).filter(|joint| !joint.is_empty()));
            let glt_parent = glt
                .parent
                .and_then(|parent| rest.get(parent))
                .map(|parent| parent.name.clone());
            let same_parent = match (&parent, &glt_parent) {
                (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                (None, None) => true,
                _ => false,
            };
            if !same_parent || !same_rest(&joint.rest, &glt.local(&rest), near) {
                return Some(Err(format!(
                    "its joint {} is not where the carried skeleton has it",
                    rest::quoted(&joint.name)
                )));
            }
        }
        kept.push((
            SkeletonFile {
                attachment,
                joints: skeleton
                    .joints
                    .into_iter()
                    .map(|joint| joint.name)
                    .collect(),
            },
            original,
        ));
    }
    Some(Ok(kept))
}

/// Whether a skeleton file's joint rests where the glTF's joint does:
/// within `near` of its place, turned alike within float noise (a rotation
/// and its negation are one turn).
fn same_rest(rest: &rig::Transform, local: &Affine3A, near: f32) -> bool {
    let rig::Transform::TranslationRotation {
        translation,
        rotation,
    } = rest
    else {
        return false;
    };
    let (_, turn, place) = local.to_scale_rotation_translation();
    let dot = glam::Quat::from_array(*rotation).dot(turn.normalize());
    (place - Vec3::from_array(*translation)).length() <= near
        && (dot.abs() - 1.0).abs() <= TURNED_ALIKE
}

/// Two unit rotations whose dot product is this close to 1 turn alike
/// (within about a tenth of a degree).
const TURNED_ALIKE: f32 = 1e-6;

#[cfg(test)]
mod tests {
    use super::{list_stem, target_keys, TargetKey};

    #[test]
    fn a_new_mesh_list_is_named_as_the_game_names_its_levels() {
        assert_eq!(list_stem("twk_f_body_l0"), "twk_f_body");
        assert_eq!(list_stem("hum_m_hair_l12"), "hum_m_hair");
        assert_eq!(list_stem("Cube"), "Cube");
        assert_eq!(list_stem("wall_lamp"), "wall_lamp");
        assert_eq!(list_stem("_l0"), "_l0");
        assert_eq!(list_stem("body_l"), "body_l");
    }

    #[test]
    fn a_target_name_blender_suffixed_is_the_earlier_target_again() {
        let names = ["jaw", "jaw", "jaw.001", "lip.001", "jaw.x", "jaw.002"];
        let keys = target_keys(&names.map(str::to_owned));
        let key = |name: &str, repeat| TargetKey {
            name: name.to_owned(),
            repeat,
        };
        assert_eq!(
            keys,
            [
                key("jaw", 0),
                key("jaw", 1),
                key("jaw", 2),
                key("lip.001", 0),
                key("jaw.x", 0),
                key("jaw", 3),
            ]
        );
    }
}
