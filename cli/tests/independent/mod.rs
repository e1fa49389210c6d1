//! An independent implementation of the families' posing and
//! skinning conventions in plain f64 matrices, for checking the CLI's output.
//! It shares no code with the crates under test.

#![allow(dead_code)] // each test binary uses part of it

pub mod bonespro;

use formats::sims::{cmx, skel, skn};
use formats::swg::skt;

pub type Mat4 = [[f64; 4]; 4];

pub fn multiply(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [[0.0; 4]; 4];
    for (row, out_row) in out.iter_mut().enumerate() {
        for (column, cell) in out_row.iter_mut().enumerate() {
            *cell = (0..4).map(|k| a[row][k] * b[k][column]).sum();
        }
    }
    out
}

/// Column-vector rotation matrix of the unit quaternion (x, y, z, w).
pub fn rotation(q: [f64; 4]) -> Mat4 {
    let [x, y, z, w] = q;
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
            0.0,
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
            0.0,
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
            0.0,
        ],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

pub fn translation(t: [f64; 3]) -> Mat4 {
    [
        [1.0, 0.0, 0.0, t[0]],
        [0.0, 1.0, 0.0, t[1]],
        [0.0, 0.0, 1.0, t[2]],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// A Sims bone as stored: name, parent name (`NULL` for the root),
/// translation and rotation (x, y, z, w).
pub struct SimsBone {
    pub name: Vec<u8>,
    pub parent: Vec<u8>,
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
}

pub fn skel_bones(skeleton: &skel::Skeleton) -> Vec<SimsBone> {
    skeleton
        .bones
        .iter()
        .map(|bone| SimsBone {
            name: bone.name.0.clone(),
            parent: bone.parent.0.clone(),
            translation: bone.translation,
            rotation: bone.rotation,
        })
        .collect()
}

pub fn cmx_bones(skeleton: &cmx::Skeleton) -> Vec<SimsBone> {
    skeleton
        .bones
        .iter()
        .map(|bone| SimsBone {
            name: bone.name.0.clone(),
            parent: bone.parent.0.clone(),
            translation: bone.translation,
            rotation: bone.rotation,
        })
        .collect()
}

/// world = parent * T(translation) * R(conjugate(stored rotation)), parents
/// found by name (they may come later in the list).
pub fn sims_world_matrices(bones: &[SimsBone]) -> Vec<Mat4> {
    fn world(bones: &[SimsBone], index: usize, depth: usize) -> Mat4 {
        let bone = &bones[index];
        let [x, y, z, w] = bone.rotation.map(f64::from);
        let local = multiply(
            &translation(bone.translation.map(f64::from)),
            &rotation([-x, -y, -z, w]),
        );
        match bones
            .iter()
            .position(|candidate| candidate.name == bone.parent)
        {
            Some(parent) if depth < bones.len() => {
                multiply(&world(bones, parent, depth + 1), &local)
            }
            _ => local,
        }
    }
    (0..bones.len())
        .map(|index| world(bones, index, 0))
        .collect()
}

/// The seven components of a `.cfp` as its readers describe the format:
/// `0xFF` then a little-endian f32 is a value; `0xFE` then a little-endian
/// u16 `n` repeats the previous value `n + 1` times; any other byte `c`
/// adds Dave Baum's fitted delta `3.9676e-10 (c - 126)^3 |c - 126|`. The
/// previous value starts at 0 in each component; the components are the
/// translations' x, y, z (`positions` values each), then the rotations'
/// x, y, z, w (`rotations` values each).
pub fn cfp_components(bytes: &[u8], positions: usize, rotations: usize) -> Vec<Vec<f64>> {
    let mut at = 0;
    let mut components = Vec::new();
    for count in [positions; 3].into_iter().chain([rotations; 4]) {
        let mut values = Vec::new();
        let mut previous = 0.0;
        while values.len() < count {
            let code = bytes[at];
            at += 1;
            match code {
                0xFF => {
                    previous = f64::from(f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()));
                    at += 4;
                    values.push(previous);
                }
                0xFE => {
                    let n = u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
                    at += 2;
                    values.extend(std::iter::repeat_n(previous, usize::from(n) + 1));
                }
                _ => {
                    let c = f64::from(code) - 126.0;
                    previous += 3.9676e-10 * c.powi(3) * c.abs();
                    values.push(previous);
                }
            }
        }
        assert_eq!(values.len(), count, "a repeat crosses a component's end");
        components.push(values);
    }
    assert_eq!(at, bytes.len(), "bytes after the last component");
    components
}

/// The seven components of a 1998 prototype `.bin`, in the order
/// `cfp_components` gives them: the file is `positions` translations
/// (x, y, z) then `rotations` rotations (x, y, z, w), little-endian f32s.
pub fn bin_components(bytes: &[u8], positions: usize, rotations: usize) -> Vec<Vec<f64>> {
    assert_eq!(
        bytes.len(),
        4 * (3 * positions + 4 * rotations),
        "a .bin's size"
    );
    let floats: Vec<f64> = bytes
        .chunks_exact(4)
        .map(|chunk| f64::from(f32::from_le_bytes(chunk.try_into().unwrap())))
        .collect();
    let (translations, rotations_floats) = floats.split_at(3 * positions);
    let mut components: Vec<Vec<f64>> = (0..3)
        .map(|axis| translations.iter().skip(axis).step_by(3).copied().collect())
        .collect();
    components.extend((0..4).map(|axis| {
        rotations_floats
            .iter()
            .skip(axis)
            .step_by(4)
            .copied()
            .collect()
    }));
    components
}

/// A 1998 prototype `.msh` read from its bytes: after the u32 0xB0B0B0B2,
/// blocks of (i32 count, i32 stride, count * stride bytes): positions,
/// uvs, faces (i32 a, b, c, 0), vertex records (i32 position index, i32
/// uv index, f32 normal x, y, z, u32), texture name.
pub struct PrototypeMesh {
    pub positions: Vec<[f64; 3]>,
    pub uvs: Vec<[f64; 2]>,
    pub faces: Vec<[usize; 3]>,
    /// Position index, uv index, normal.
    pub vertices: Vec<(usize, usize, [f64; 3])>,
    pub texture: String,
}

pub fn read_msh(bytes: &[u8]) -> PrototypeMesh {
    let int = |at: usize| i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let float = |at: usize| f64::from(f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()));
    assert_eq!(&bytes[..4], &[0xB2, 0xB0, 0xB0, 0xB0], "signature");
    let mut at = 4;
    let mut blocks = Vec::new();
    for _ in 0..5 {
        let (count, stride) = (int(at) as usize, int(at + 4) as usize);
        blocks.push((at + 8, count, stride));
        at += 8 + count * stride;
    }
    assert_eq!(at, bytes.len(), "bytes after the texture block");
    let entries = |block: usize| {
        let (start, count, stride) = blocks[block];
        (0..count).map(move |index| start + index * stride)
    };
    PrototypeMesh {
        positions: entries(0)
            .map(|at| [float(at), float(at + 4), float(at + 8)])
            .collect(),
        uvs: entries(1).map(|at| [float(at), float(at + 4)]).collect(),
        faces: entries(2)
            .map(|at| [int(at) as usize, int(at + 4) as usize, int(at + 8) as usize])
            .collect(),
        vertices: entries(3)
            .map(|at| {
                (
                    int(at) as usize,
                    int(at + 4) as usize,
                    [float(at + 8), float(at + 12), float(at + 16)],
                )
            })
            .collect(),
        texture: {
            let (start, _, stride) = blocks[4];
            String::from_utf8_lossy(&bytes[start..start + stride]).into_owned()
        },
    }
}

/// A prototype mesh posed rigidly by the bone its suit names: each vertex
/// record's position through that bone's world matrix.
pub fn posed_msh(mesh: &PrototypeMesh, bone_world: &Mat4) -> Vec<[f64; 3]> {
    mesh.vertices
        .iter()
        .map(|&(position, _, _)| transform_point(bone_world, mesh.positions[position]))
        .collect()
}

/// The bones posed by a skill at `frame`: each motion's bone takes entry
/// `first_position + frame` of the translations and `first_rotation +
/// frame` of the rotations (normalized) in place of its rest values, when
/// the motion uses them; other bones keep their rest values.
pub fn sims_skill_pose(
    bones: &[SimsBone],
    skill: &cmx::Skill,
    components: &[Vec<f64>],
    frame: usize,
) -> Vec<SimsBone> {
    let mut posed: Vec<SimsBone> = bones
        .iter()
        .map(|bone| SimsBone {
            name: bone.name.clone(),
            parent: bone.parent.clone(),
            translation: bone.translation,
            rotation: bone.rotation,
        })
        .collect();
    for motion in &skill.motions {
        let bone = posed
            .iter_mut()
            .find(|bone| bone.name == motion.bone.0)
            .expect("motion bone in skeleton");
        if motion.positions_used != 0 {
            let at = motion.first_position as usize + frame;
            bone.translation = [0, 1, 2].map(|axis| components[axis][at] as f32);
        }
        if motion.rotations_used != 0 {
            let at = motion.first_rotation as usize + frame;
            let q = [3, 4, 5, 6].map(|component| components[component][at]);
            let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
            bone.rotation = q.map(|c| (c / length) as f32);
        }
    }
    posed
}

pub fn transform_point(m: &Mat4, p: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|row| m[row][0] * p[0] + m[row][1] * p[1] + m[row][2] * p[2] + m[row][3])
}

pub fn transform_vector(m: &Mat4, v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|row| m[row][0] * v[0] + m[row][1] * v[1] + m[row][2] * v[2])
}

/// A Sims skin deformed as the game did: vertices in their bone's space,
/// real vertices by their binding's range, blend vertices by theirs (offset
/// by the uv count), then `(1 - w) * real + w * blend` with `w = raw / 32768`
/// for each blend entry in order; normals likewise, renormalized. Returns
/// positions and normals of the real vertices.
pub fn sims_skin(skin: &skn::Skn, bones: &[SimsBone]) -> (Vec<[f64; 3]>, Vec<[f64; 3]>) {
    let world = sims_world_matrices(bones);
    let real = skin.uvs.len();
    let stored: Vec<([f64; 3], [f64; 3])> = skin
        .vertices
        .iter()
        .map(|vertex| (vertex.position.map(f64::from), vertex.normal.map(f64::from)))
        .collect();
    let mut posed = stored.clone();
    for binding in &skin.bindings {
        let bone_name = &skin.bones[binding.bone as usize].0;
        let joint = bones
            .iter()
            .position(|bone| &bone.name == bone_name)
            .expect("mesh bone in skeleton");
        let matrix = &world[joint];
        let reals =
            binding.first_vertex as usize..(binding.first_vertex + binding.vertex_count) as usize;
        let blends = if binding.blend_count > 0 {
            real + binding.first_blend as usize
                ..real + (binding.first_blend + binding.blend_count) as usize
        } else {
            0..0
        };
        for index in reals.chain(blends) {
            let (position, normal) = stored[index];
            posed[index] = (
                transform_point(matrix, position),
                transform_vector(matrix, normal),
            );
        }
    }
    for (entry, blend) in skin.blends.iter().enumerate() {
        let w = f64::from(blend.raw_weight) / 32768.0;
        let (blend_position, blend_normal) = posed[real + entry];
        let (position, normal) = &mut posed[blend.vertex as usize];
        for axis in 0..3 {
            position[axis] = (1.0 - w) * position[axis] + w * blend_position[axis];
            normal[axis] = (1.0 - w) * normal[axis] + w * blend_normal[axis];
        }
        let length = normal.iter().map(|c| c * c).sum::<f64>().sqrt();
        if length > 0.0 {
            normal.iter_mut().for_each(|c| *c /= length);
        }
    }
    posed.truncate(real);
    posed.into_iter().unzip()
}

/// Hamilton product of quaternions stored (w, x, y, z).
pub fn hamilton(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [aw, ax, ay, az] = a;
    let [bw, bx, by, bz] = b;
    [
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ]
}

pub fn wxyz(q: skt::Quaternion) -> [f64; 4] {
    [q.w, q.x, q.y, q.z].map(f64::from)
}

/// SWG: R = RPST * BPRO * RPRE, local = T(BPTR) * R, world = parent * local.
pub fn swg_world_matrices(joints: &[skt::Joint]) -> Vec<Mat4> {
    let mut world: Vec<Mat4> = Vec::new();
    for joint in joints {
        let [w, x, y, z] = hamilton(
            hamilton(wxyz(joint.post_rotation), wxyz(joint.bind_rotation)),
            wxyz(joint.pre_rotation),
        );
        let local = multiply(
            &translation(joint.bind_translation.map(f64::from)),
            &rotation([x, y, z, w]),
        );
        world.push(match usize::try_from(joint.parent) {
            Ok(parent) => multiply(&world[parent], &local),
            Err(_) => local,
        });
    }
    world
}

pub type Mat3 = [[f64; 3]; 3];

/// An Outcast joint as the traversal needs it: its depth index, rest
/// position and turn (a row-vector matrix).
pub struct OutcastJoint {
    pub depth: i32,
    pub position: [f32; 3],
    pub turn: Mat3,
}

/// Outcast's traversal as its source document writes it, in row-vector
/// math (`v' = v * M`, translations in the last row): each joint turns
/// about its own rest position, `T(-p) * R * T(p)`; `rotations[0]` is the
/// identity; a joint at depth d accumulates `rotations[d]` from
/// `rotations[d - 1]` (child's turn first, or the document's literal order,
/// parent's first); its position is `p * rotations[d - 1]`. Returns each
/// joint's position and the linear part of its `rotations[d]`.
pub fn outcast_joints(joints: &[OutcastJoint], literal: bool) -> Vec<([f64; 3], Mat3)> {
    let mut rotations: Vec<Mat4> = vec![identity4()];
    joints
        .iter()
        .map(
            |&OutcastJoint {
                 depth,
                 position,
                 turn,
             }| {
                let depth = depth as usize;
                let p = position.map(f64::from);
                let pivot = multiply(
                    &multiply(&row_translation([-p[0], -p[1], -p[2]]), &row_linear(turn)),
                    &row_translation(p),
                );
                let above = rotations[depth - 1];
                let accumulated = if literal {
                    multiply(&above, &pivot)
                } else {
                    multiply(&pivot, &above)
                };
                rotations.truncate(depth);
                rotations.push(accumulated);
                let at = [p[0], p[1], p[2], 1.0];
                let moved: Vec<f64> = (0..3)
                    .map(|column| (0..4).map(|k| at[k] * above[k][column]).sum())
                    .collect();
                let linear = [0, 1, 2].map(|row| [0, 1, 2].map(|column| accumulated[row][column]));
                ([moved[0], moved[1], moved[2]], linear)
            },
        )
        .collect()
}

/// `R_X(x) * R_Y(y) * R_Z(z)` (row vectors, X applied first) of fixed-point
/// angles where 65536 is a full turn, with the document's
/// `R_X(a) = [[1,0,0],[0,cos a,sin a],[0,-sin a,cos a]]` and likewise for y, z.
pub fn outcast_angles(angles: [i16; 3]) -> Mat3 {
    let [x, y, z] = angles.map(|angle| f64::from(angle) / 65536.0 * std::f64::consts::TAU);
    let about_x = [
        [1.0, 0.0, 0.0],
        [0.0, x.cos(), x.sin()],
        [0.0, -x.sin(), x.cos()],
    ];
    let about_y = [
        [y.cos(), 0.0, -y.sin()],
        [0.0, 1.0, 0.0],
        [y.sin(), 0.0, y.cos()],
    ];
    let about_z = [
        [z.cos(), z.sin(), 0.0],
        [-z.sin(), z.cos(), 0.0],
        [0.0, 0.0, 1.0],
    ];
    multiply3(&multiply3(&about_x, &about_y), &about_z)
}

fn multiply3(a: &Mat3, b: &Mat3) -> Mat3 {
    [0, 1, 2].map(|row| [0, 1, 2].map(|column| (0..3).map(|k| a[row][k] * b[k][column]).sum()))
}

fn identity4() -> Mat4 {
    row_linear([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
}

fn row_linear(m: Mat3) -> Mat4 {
    [
        [m[0][0], m[0][1], m[0][2], 0.0],
        [m[1][0], m[1][1], m[1][2], 0.0],
        [m[2][0], m[2][1], m[2][2], 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

fn row_translation(t: [f64; 3]) -> Mat4 {
    [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [t[0], t[1], t[2], 1.0],
    ]
}

/// One IFF child: a chunk's tag and payload, or a form's type and contents.
pub struct IffChild<'a> {
    pub tag: [u8; 4],
    pub form: bool,
    pub data: &'a [u8],
}

/// The children in `bytes` (sizes big-endian; a form's data starts after its type).
pub fn iff_children(mut bytes: &[u8]) -> Vec<IffChild<'_>> {
    let mut children = Vec::new();
    while !bytes.is_empty() {
        let tag: [u8; 4] = bytes[..4].try_into().unwrap();
        let size = u32::from_be_bytes(bytes[4..8].try_into().unwrap()) as usize;
        let (child, rest) = bytes[8..].split_at(size);
        children.push(if &tag == b"FORM" {
            IffChild {
                tag: child[..4].try_into().unwrap(),
                form: true,
                data: &child[4..],
            }
        } else {
            IffChild {
                tag,
                form: false,
                data: child,
            }
        });
        bytes = rest;
    }
    children
}

fn le_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn le_f32(bytes: &[u8], at: usize) -> f64 {
    f64::from(f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()))
}

fn vectors(bytes: &[u8]) -> Vec<[f64; 3]> {
    bytes
        .chunks_exact(12)
        .map(|v| [le_f32(v, 0), le_f32(v, 4), le_f32(v, 8)])
        .collect()
}

fn strings(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|&byte| byte == 0)
        .filter(|name| !name.is_empty())
        .map(|name| String::from_utf8_lossy(name).into_owned())
        .collect()
}

/// One shader group of a SWG mesh: per shader vertex its position index
/// (PIDX), normal index (NIDX) and 2-D texture coordinates (the first
/// TCSD), and its triangles of shader vertices (ITL or OITL).
pub struct SwgShaderGroup {
    pub shader: String,
    pub position_indices: Vec<usize>,
    pub normal_indices: Vec<usize>,
    pub uvs: Vec<[f64; 2]>,
    pub triangles: Vec<[usize; 3]>,
}

/// A SWG blend target: its name, and (index, offset) pairs for positions
/// and for normals.
pub struct SwgBlendTarget {
    pub name: String,
    pub positions: Vec<(usize, [f64; 3])>,
    pub normals: Vec<(usize, [f64; 3])>,
}

/// A `.mgn` read chunk by chunk, as the game's loader lays it out.
pub struct SwgMesh {
    pub joints: Vec<String>,
    pub positions: Vec<[f64; 3]>,
    /// Per position, its (joint index into `joints`, weight) pairs.
    pub weights: Vec<Vec<(usize, f64)>>,
    pub normals: Vec<[f64; 3]>,
    pub blend_targets: Vec<SwgBlendTarget>,
    pub groups: Vec<SwgShaderGroup>,
}

fn offsets(bytes: &[u8]) -> Vec<(usize, [f64; 3])> {
    bytes
        .chunks_exact(16)
        .map(|entry| {
            (
                le_i32(entry, 0) as usize,
                [le_f32(entry, 4), le_f32(entry, 8), le_f32(entry, 12)],
            )
        })
        .collect()
}

pub fn swg_mesh(bytes: &[u8]) -> SwgMesh {
    let skmg = &iff_children(bytes)[0];
    assert_eq!(&skmg.tag, b"SKMG");
    let version = &iff_children(skmg.data)[0];
    let mut mesh = SwgMesh {
        joints: Vec::new(),
        positions: Vec::new(),
        weights: Vec::new(),
        normals: Vec::new(),
        blend_targets: Vec::new(),
        groups: Vec::new(),
    };
    let mut counts = Vec::new();
    for child in iff_children(version.data) {
        match (&child.tag, child.form) {
            (b"XFNM", false) => mesh.joints = strings(child.data),
            (b"POSN", false) => mesh.positions = vectors(child.data),
            (b"TWHD", false) => {
                counts = child
                    .data
                    .chunks_exact(4)
                    .map(|count| le_i32(count, 0) as usize)
                    .collect()
            }
            (b"TWDT", false) => {
                let mut pairs = child
                    .data
                    .chunks_exact(8)
                    .map(|pair| (le_i32(pair, 0) as usize, le_f32(pair, 4)));
                mesh.weights = counts
                    .iter()
                    .map(|&count| pairs.by_ref().take(count).collect())
                    .collect();
            }
            (b"NORM", false) => mesh.normals = vectors(child.data),
            (b"BLTS", true) => {
                for target in iff_children(child.data) {
                    let mut blend = SwgBlendTarget {
                        name: String::new(),
                        positions: Vec::new(),
                        normals: Vec::new(),
                    };
                    for part in iff_children(target.data) {
                        match &part.tag {
                            b"INFO" => blend.name = strings(&part.data[8..]).remove(0),
                            b"POSN" => blend.positions = offsets(part.data),
                            b"NORM" => blend.normals = offsets(part.data),
                            _ => {}
                        }
                    }
                    mesh.blend_targets.push(blend);
                }
            }
            (b"PSDT", true) => mesh.groups.push(shader_group(child.data)),
            _ => {}
        }
    }
    mesh
}

fn shader_group(bytes: &[u8]) -> SwgShaderGroup {
    let mut group = SwgShaderGroup {
        shader: String::new(),
        position_indices: Vec::new(),
        normal_indices: Vec::new(),
        uvs: Vec::new(),
        triangles: Vec::new(),
    };
    let indices = |bytes: &[u8]| -> Vec<usize> {
        bytes
            .chunks_exact(4)
            .map(|index| le_i32(index, 0) as usize)
            .collect()
    };
    for child in iff_children(bytes) {
        match &child.tag {
            b"NAME" => group.shader = strings(child.data).remove(0),
            b"PIDX" => group.position_indices = indices(&child.data[4..]),
            b"NIDX" => group.normal_indices = indices(child.data),
            b"TCSF" => {
                let first = &iff_children(child.data)[0];
                group.uvs = first
                    .data
                    .chunks_exact(8)
                    .map(|uv| [le_f32(uv, 0), le_f32(uv, 4)])
                    .collect();
            }
            b"PRIM" => {
                for primitive in iff_children(child.data) {
                    let stride = match &primitive.tag {
                        b"ITL " => 12,
                        b"OITL" => 14,
                        _ => continue,
                    };
                    for triangle in primitive.data[4..].chunks_exact(stride) {
                        let corners = &triangle[stride - 12..];
                        group
                            .triangles
                            .push([0, 4, 8].map(|at| le_i32(corners, at) as usize));
                    }
                }
            }
            _ => {}
        }
    }
    group
}

/// SWG skinning: each position moved by the weighted sum of its joints'
/// `world(pose) * inverse(world(bind))` (joints found by name in
/// `names`), after the blend targets' position offsets times their
/// weights. Normals get their offsets and are renormalized, but not posed:
/// this is for checking meshes at the bind pose.
pub fn swg_skin(
    mesh: &SwgMesh,
    names: &[String],
    bind: &[Mat4],
    pose: &[Mat4],
    blends: &[(&str, f64)],
) -> (Vec<[f64; 3]>, Vec<[f64; 3]>) {
    let mut positions = mesh.positions.clone();
    let mut normals = mesh.normals.clone();
    let mut applied = false;
    for target in &mesh.blend_targets {
        let Some(&(_, weight)) = blends.iter().find(|(name, _)| *name == target.name) else {
            continue;
        };
        applied |= weight != 0.0;
        for &(index, offset) in &target.positions {
            (0..3).for_each(|axis| positions[index][axis] += weight * offset[axis]);
        }
        for &(index, offset) in &target.normals {
            (0..3).for_each(|axis| normals[index][axis] += weight * offset[axis]);
        }
    }
    if applied {
        for normal in &mut normals {
            let length = normal.iter().map(|c| c * c).sum::<f64>().sqrt();
            normal.iter_mut().for_each(|c| *c /= length);
        }
    }
    let skinning: Vec<Mat4> = mesh
        .joints
        .iter()
        .map(|joint| {
            let at = names
                .iter()
                .position(|name| name.eq_ignore_ascii_case(joint))
                .expect("mesh joint in skeleton");
            multiply(&pose[at], &inverse_rigid(&bind[at]))
        })
        .collect();
    let posed_positions = positions
        .iter()
        .zip(&mesh.weights)
        .map(|(&position, weights)| {
            let mut sum = [0.0; 3];
            for &(joint, weight) in weights {
                let moved = transform_point(&skinning[joint], position);
                (0..3).for_each(|axis| sum[axis] += weight * moved[axis]);
            }
            sum
        })
        .collect();
    (posed_positions, normals)
}

/// The inverse of a rotation-and-translation matrix.
pub fn inverse_rigid(m: &Mat4) -> Mat4 {
    let mut out = [[0.0; 4]; 4];
    for row in 0..3 {
        for column in 0..3 {
            out[row][column] = m[column][row];
        }
        out[row][3] = -(0..3).map(|k| m[k][row] * m[k][3]).sum::<f64>();
    }
    out[3][3] = 1.0;
    out
}
