"""The Star Wars Galaxies character of the corpus imported by io_scene_swg_msh
and by ossuary's Blender extension, compared; and the files ossuary writes
back from glTF imported by io_scene_swg_msh beside the originals.

Run with a Python that has the `bpy` module of Blender 4.2:

    python3.11 peers/compare_swg_with_extension.py SWG_ADDON_ROOT WHEEL OSSUARY CORPUS [BLENDER]

SWG_ADDON_ROOT holds io_scene_swg_msh's `io_scene_swg/`; OSSUARY is the
`ossuary` binary; BLENDER (default `/usr/bin/blender`) a Blender 4.0 or
older, for the peer's mesh importer (it makes face maps and sets
`Mesh.use_auto_smooth`, both gone in 4.1). The peer's skeleton importer
needs 4.1 or newer (`Armature.relation_line_position`), so skeletons are
imported in this process and meshes in a BLENDER process that runs this
script with `--peer-meshes` and prints one JSON line.

The characters: `appearance/twk_f.sat`, which the extension imports with
its default options (level of detail 0), and which the peer, having no
`.sat` or `.lmg` importer, imports as what the `.sat` names at that level
(the skeletons and the `_l0` meshes), and the same at levels 1 to 3 (the
extension's `lod` option, the peer's `_l1` to `_l3` meshes); and the hair piece
`twk_f_hair_s01_l0.mgn`, chosen with `all_b.skt` for the extension (it poses
a mesh only with a skeleton). Compared, per the peer's default options:

- bone names: the peer lowercases them (`lThigh` becomes `lthigh`), so they
  are compared without case; it reads a skeleton only inside `FORM SLOD`,
  so the face's (`hum_f_face.skt`, a bare `FORM SKTM`, as the game also
  reads them) is wrapped in one for it, and compared apart, since the peer
  places it at its own origin where the `.sat` hangs it from `head`;
- rest positions: after the uniform scale and rotation that take ours onto
  the peer's best (the add-ons choose their own axes), within 1e-5 of the
  figure's height;
- vertices per `.mgn`: the peer makes one vertex per position of the file
  (its `POSN` chunk) and keeps seams in its loops; the extension one object
  per shader, with a vertex per distinct position, normal and texture
  coordinate, each naming its position (`ossuary_swg_group.entries`): the
  distinct positions named are compared with the peer's count, and every
  vertex's place, at rest and in every shape key, with the peer's vertex of
  that position;
- faces, shape key names (in order), and the vertex groups that weight a
  vertex, with each vertex's weights (compared without case: the peer names
  groups after the mesh's joint list, lowercase in these files, ours after
  the skeleton's joints); the peer's face maps (occlusion zones) have no
  counterpart in Blender 4.2 and are only counted.

Then, in the scene the extension imported, one position of the body moved
up by a centimetre (every vertex naming it, at rest and in every shape key)
and the character exported by the extension as `swg-sat`: the peer imports
the `.mgn` written as the original but for that position, moved by as much,
at rest and in every shape key (faces, face maps and the faces in them,
shape keys, weights all as they were).

And `ossuary convert twk_f.sat -o twk_f.glb` and back with
`--to swg-sat`, `--to swg-sat --skeleton twk_f.sat`, and with
`--write-skeleton`: each
`.mgn` written (the four levels of body and head) is imported by the peer
and compared with its original the same way (vertices, faces, places, groups and weights, shape keys, face
maps), and the bones of the written skeleton with the extension's.

Prints one JSON object per comparison and exits 1 when any differs.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile

TOLERANCE = 1e-5  # of the figure's height
ADDON_MODULE = "io_scene_swg"
CHARACTER = "appearance/twk_f.sat"
SKELETONS = ["appearance/skeleton/all_b.skt", "appearance/skeleton/hum_f_face.skt"]
MESHES = ["appearance/mesh/twk_f_body_l0.mgn", "appearance/mesh/twk_f_head_l0.mgn"]
# The hair piece, a `.mgn` worn on the same skeleton, chosen with it (the
# extension poses a mesh only with a skeleton).
HAIR_FILES = ["skeleton/all_b.skt", "mesh/twk_f_hair_s01_l0.mgn"]
HAIR_MESH = "appearance/mesh/twk_f_hair_s01_l0.mgn"
# Written back: every level the `.lmg`s name.
LEVELS = [f"appearance/mesh/twk_f_{part}_l{level}.mgn" for part in ("body", "head") for level in range(4)]
PEER_MESHES_LINE = "PEER_MESHES "


# --- Under Blender 3.4 (`--peer-meshes`): the peer's .mgn importer --------


def peer_mesh_facts(obj) -> dict:
    """What the peer's importer made of one .mgn: its vertices (one per
    position of the file) at rest and per shape key, faces, weights and
    face maps, in the peer's scene axes."""
    mesh = obj.data
    names = [group.name for group in obj.vertex_groups]
    keys = mesh.shape_keys.key_blocks[1:] if mesh.shape_keys else []
    return {
        "positions": [list(vertex.co) for vertex in mesh.vertices],
        "faces": len(mesh.polygons),
        "weights": [{names[g.group]: g.weight for g in vertex.groups if g.weight > 0} for vertex in mesh.vertices],
        "shape_keys": {key.name: [list(point.co) for point in key.data] for key in keys},
        "shape_key_order": [key.name for key in keys],
        "face_maps": len(obj.face_maps) if hasattr(obj, "face_maps") else None,
        "faces_in_face_maps": sum(1 for face in mesh.face_maps[0].data if face.value >= 0) if mesh.face_maps else 0,
        "uv_layers": len(mesh.uv_layers),
        "materials": [material.name for material in mesh.materials if material is not None],
    }


def run_peer_meshes(addon_root: pathlib.Path, files: list) -> None:
    """Imports each .mgn into an empty scene with the peer's importer and its
    default options, and prints what it made of each, as one JSON line."""
    import bpy

    import addon_utils

    sys.path.insert(0, str(addon_root))
    result = {}
    for file in files:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        addon_utils.enable(ADDON_MODULE, default_set=True)
        bpy.ops.import_scene.mgn(filepath=file)
        meshes = [obj for obj in bpy.data.objects if obj.type == "MESH"]
        if len(meshes) != 1:
            raise SystemExit(f"the peer made {len(meshes)} meshes of {file}, not one")
        result[file] = peer_mesh_facts(meshes[0])
    print(PEER_MESHES_LINE + json.dumps(result), flush=True)


def peer_meshes(blender: str, addon_root: pathlib.Path, files: list) -> dict:
    """The peer's meshes, imported by a Blender old enough for its importer."""
    command = [blender, "-b", "--factory-startup", "--python", __file__, "--", "--peer-meshes", str(addon_root)]
    # The peer looks for each shader under the folder it runs in (its root
    # preference is empty): an empty folder, so that no material is set up.
    with tempfile.TemporaryDirectory(prefix="ossuary-peer-") as folder:
        run = subprocess.run(command + [str(f) for f in files], capture_output=True, text=True, cwd=folder)
    for line in run.stdout.splitlines():
        if line.startswith(PEER_MESHES_LINE):
            return json.loads(line[len(PEER_MESHES_LINE):])
    raise SystemExit(f"{blender} printed no peer meshes (exit {run.returncode}): {run.stderr[-2000:]}")


# --- Under bpy 4.2: the peer's skeletons and the extension -----------------


def peer_skeleton(path: pathlib.Path) -> dict:
    """The bones the peer's .skt importer makes of the most detailed level
    (it makes an armature per level, named after the file's whole path, which
    Blender may cut short): name to head position in the scene."""
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.import_scene.skt(filepath=str(path), files=[{"name": path.name}])
    armatures = [obj for obj in bpy.context.scene.objects if obj.type == "ARMATURE"]
    if not armatures:
        return {}
    arm = max(armatures, key=lambda obj: len(obj.data.bones))
    return {bone.name: list(arm.matrix_world @ bone.head_local) for bone in arm.data.bones}


def peer_skeleton_as_read(path: pathlib.Path, out: pathlib.Path) -> tuple:
    """The peer's bones of the skeleton, wrapped in `FORM SLOD` when the
    peer makes none of the file itself; and whether it was wrapped."""
    bones = peer_skeleton(path)
    if bones or path.read_bytes()[8:12] != b"SKTM":
        return bones, False
    return peer_skeleton(wrapped_in_slod(path, out)), True


def wrapped_in_slod(path: pathlib.Path, out: pathlib.Path) -> pathlib.Path:
    """A bare `FORM SKTM` skeleton (the game reads those) in the one-level
    `FORM SLOD` the peer reads (`0000`, an `INFO` count of 1): the peer
    refuses the bare form, whose joints are the same."""
    sktm = path.read_bytes()
    info = b"INFO" + (2).to_bytes(4, "big") + (1).to_bytes(2, "little")
    version = b"0000" + info + sktm
    slod = b"SLOD" + b"FORM" + len(version).to_bytes(4, "big") + version
    wrapped = out / path.name
    wrapped.write_bytes(b"FORM" + len(slod).to_bytes(4, "big") + slod)
    return wrapped


def extension_character(folder: pathlib.Path, names: list, lod: int = 0) -> tuple:
    """The armature and the meshes the extension makes of the files chosen
    together, with its default options: bones (name to head position) and,
    per .mgn the meshes came from, its objects' vertices with the position
    each names."""
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.import_scene.ossuary(directory=str(folder) + "/", files=[{"name": name} for name in names], lod=lod)
    armatures = [obj for obj in bpy.context.scene.objects if obj.type == "ARMATURE"]
    bones = {bone.name: list(arm.matrix_world @ bone.head_local) for arm in armatures for bone in arm.data.bones}
    meshes = {}
    for obj in bpy.context.scene.objects:
        if obj.type != "MESH" or "ossuary_swg_group" not in obj.data:
            continue
        group = obj.data["ossuary_swg_group"].to_dict()
        mesh = obj.data
        group_names = [g.name for g in obj.vertex_groups]
        keys = mesh.shape_keys.key_blocks[1:] if mesh.shape_keys else []
        part = meshes.setdefault(pathlib.PurePosixPath(group["mesh"]).name, {"objects": []})
        part["position_count"] = int(group["position_count"])
        part["objects"].append(
            {
                "name": obj.name,
                "entries": [int(entry) for entry in group["entries"]],
                "positions": [list(obj.matrix_world @ v.co) for v in mesh.vertices],
                "faces": len(mesh.polygons),
                "weights": [{group_names[g.group]: g.weight for g in v.groups if g.weight > 0} for v in mesh.vertices],
                "shape_keys": {key.name: [list(obj.matrix_world @ p.co) for p in key.data] for key in keys},
                "shape_key_order": [key.name for key in keys],
            }
        )
    return bones, meshes


EDIT = (0.0, 0.0, 0.01)  # a position moved up by a centimetre, in the scene


def move_one_position_and_export(mgn: str, out: pathlib.Path) -> int:
    """In the scene the extension imported: moves the position the first
    vertex of the .mgn's first object names (every vertex naming it, at rest
    and in every shape key, so the blend targets keep their offsets) by
    EDIT, and exports the character with the extension as `swg-sat` into
    `out`. Returns the position moved."""
    import bpy
    from mathutils import Vector

    objects = [
        obj
        for obj in bpy.context.scene.objects
        if obj.type == "MESH"
        and "ossuary_swg_group" in obj.data
        and pathlib.PurePosixPath(obj.data["ossuary_swg_group"]["mesh"]).name == mgn
    ]
    entry = int(objects[0].data["ossuary_swg_group"]["entries"][0])
    for obj in objects:
        shift = obj.matrix_world.to_3x3().inverted() @ Vector(EDIT)
        keys = obj.data.shape_keys.key_blocks if obj.data.shape_keys else []
        for index, named in enumerate(obj.data["ossuary_swg_group"]["entries"]):
            if int(named) != entry:
                continue
            obj.data.vertices[index].co += shift
            for key in keys:
                key.data[index].co += shift
    result = bpy.ops.export_scene.ossuary(directory=str(out), to="swg-sat")
    if result != {"FINISHED"}:
        raise SystemExit(f"the extension did not export the edited character: {result}")
    return entry


def compare_edited_mesh(name: str, original: dict, edited: dict, entry: int, shift, height: float) -> tuple:
    """The peer's import of the .mgn exported after the edit against its
    import of the original: the moved position moved by `shift` (at rest
    and in every shape key), everything else as it was."""
    import numpy as np

    problems = []
    counted = {"vertices": [len(original["positions"]), len(edited["positions"])]}
    for field in ("faces", "face_maps", "faces_in_face_maps", "uv_layers", "materials", "shape_key_order"):
        counted[field] = [original[field], edited[field]]
    for field, (before, after) in counted.items():
        if before != after:
            problems.append(f"{name}: {field} {after} after the edit, {before} before")
    facts = {"moved_position": entry, "moved_by_in_the_peer": [round(float(c), 6) for c in shift], **counted}
    if counted["vertices"][0] != counted["vertices"][1]:
        return problems, facts
    expected = np.array(original["positions"])
    expected[entry] += shift
    rest = float(np.abs(np.array(edited["positions"]) - expected).max())
    if rest > TOLERANCE * height:
        problems.append(f"{name}: after the edit a vertex lies {rest:.3g} from where the edit put it")
    key = 0.0
    for key_name in original["shape_key_order"]:
        if key_name in edited["shape_keys"]:
            expected = np.array(original["shape_keys"][key_name])
            expected[entry] += shift
            key = max(key, float(np.abs(np.array(edited["shape_keys"][key_name]) - expected).max()))
    if key > TOLERANCE * height:
        problems.append(f"{name}: after the edit a shape key puts a vertex {key:.3g} from where the edit put it")
    weight = max(weight_difference(a, b) for a, b in zip(original["weights"], edited["weights"]))
    if weight > 1e-6:
        problems.append(f"{name}: after the edit a vertex's weight differs by {weight:.3g}")
    facts.update(rest_distance_of_height=rest / height, shape_key_distance_of_height=key / height)
    facts["weight_difference"] = weight
    return problems, facts


# --- Comparing ---------------------------------------------------------------


def height_of(points: dict) -> float:
    heights = [p[2] for p in points.values()]
    return max(heights) - min(heights)


def distinct_places(points, precision: float) -> int:
    return len({tuple(round(c / precision) for c in point) for point in points})


def weight_difference(a: dict, b: dict) -> float:
    """The largest difference of two vertices' weights, groups compared
    without case (the peer's names are the mesh's, ours the skeleton's)."""
    a = {name.lower(): w for name, w in a.items()}
    b = {name.lower(): w for name, w in b.items()}
    return max((abs(a.get(name, 0.0) - b.get(name, 0.0)) for name in set(a) | set(b)), default=0.0)


def compare_bones(peer: dict, ours: dict, face_joints: list, height: float = 0.0) -> tuple:
    """Bone names (without case) and rest positions after the best fit,
    within the tolerance of `height` (the peer's bones' own when 0); bones
    only we have are a problem unless of `face_joints`."""
    problems = []
    ours_by_lower = {name.lower(): name for name in ours}
    if len(ours_by_lower) != len(ours):
        problems.append("two of our bones differ only in case, which the peer cannot tell apart")
    peer_only = sorted(set(peer) - set(ours_by_lower))
    ours_only = sorted(name for name in ours if name.lower() not in peer)
    if peer_only:
        problems.append(f"bones only the peer has: {peer_only}")
    unexplained = [name for name in ours_only if name.lower() not in {j.lower() for j in face_joints}]
    if unexplained:
        problems.append(f"bones only the extension has, not of the face skeleton: {unexplained}")
    ours_lower = {name.lower(): position for name, position in ours.items()}
    if not set(peer) & set(ours_lower):
        problems.append("no bone in common")
        return problems, {"peer_bones": len(peer), "our_bones": len(ours)}, None, height
    from fit import similarity  # numpy: not in the peer's Blender, which runs this file too

    scale, rotation, move, residual = similarity(peer, ours_lower)
    height = height or height_of(peer)
    if residual > TOLERANCE * height:
        problems.append(f"the rest poses differ by {residual:.3g} (height {height:.3g}) after scale and turn")
    facts = {
        "peer_bones": len(peer),
        "our_bones": len(ours),
        "bones_only_ours": ours_only,
        "bones_the_peer_renames": sorted(name for name in ours if name.lower() in peer and name != name.lower()),
        "scale": round(scale, 6),
        "turn": [[round(value, 6) for value in row] for row in rotation.tolist()],
        "height": round(height, 6),
        "rest_residual_of_height": residual / height,
    }
    return problems, facts, move, height


def compare_mesh(name: str, peer: dict, ours: dict, move, height: float) -> tuple:
    """Our objects of one .mgn against the peer's mesh of it."""
    import numpy as np

    problems = []
    objects = ours["objects"]
    entries = [entry for obj in objects for entry in obj["entries"]]
    peer_positions = np.array(peer["positions"])
    named = sorted(set(entries))
    if len(peer_positions) != ours["position_count"] or len(named) != len(peer_positions):
        problems.append(
            f"{name}: the peer has {len(peer_positions)} vertices; our vertices name {len(named)} "
            f"of {ours['position_count']} positions"
        )
    if any(entry >= len(peer_positions) for entry in entries):
        return problems + [f"{name}: our vertices name positions past the peer's {len(peer_positions)}"], {}
    our_positions = move([p for obj in objects for p in obj["positions"]])
    rest = float(np.abs(our_positions - peer_positions[entries]).max())
    if rest > TOLERANCE * height:
        problems.append(f"{name}: a vertex lies {rest:.3g} from the peer's at rest (height {height:.3g})")
    faces = sum(obj["faces"] for obj in objects)
    if faces != peer["faces"]:
        problems.append(f"{name}: {faces} faces, the peer {peer['faces']}")
    key_orders = {tuple(obj["shape_key_order"]) for obj in objects}
    if key_orders != {tuple(peer["shape_key_order"])}:
        problems.append(f"{name}: shape keys {sorted(key_orders)} against the peer's {peer['shape_key_order']}")
    key_distance = 0.0
    for key in peer["shape_key_order"]:
        if all(key in obj["shape_keys"] for obj in objects):
            moved = move([p for obj in objects for p in obj["shape_keys"][key]])
            target = np.array(peer["shape_keys"][key])[entries]
            key_distance = max(key_distance, float(np.abs(moved - target).max()))
    if key_distance > TOLERANCE * height:
        problems.append(f"{name}: a shape key puts a vertex {key_distance:.3g} from the peer's")
    peer_groups = {group for weights in peer["weights"] for group in weights}
    our_groups = {group for obj in objects for weights in obj["weights"] for group in weights}
    if {g.lower() for g in peer_groups} != {g.lower() for g in our_groups}:
        problems.append(f"{name}: groups weighting a vertex differ: {sorted(peer_groups ^ our_groups)}")
    our_weights = [w for obj in objects for w in obj["weights"]]
    weight = max(weight_difference(peer["weights"][e], w) for e, w in zip(entries, our_weights))
    if weight > 1e-6:
        problems.append(f"{name}: a vertex's weight differs by {weight:.3g} from the peer's")
    facts = {
        "peer_vertices": len(peer_positions),
        "our_vertices": len(entries),
        "our_objects": [obj["name"] for obj in objects],
        "positions_our_vertices_name": len(named),
        "peer_places": distinct_places(peer_positions, 1e-4),
        "our_places": distinct_places(our_positions, 1e-4),
        "faces": faces,
        "rest_distance_of_height": rest / height,
        "shape_keys": len(peer["shape_key_order"]),
        "shape_key_distance_of_height": key_distance / height,
        "groups_weighting": len(peer_groups),
        "groups_named_otherwise": sorted(g for g in our_groups if g not in peer_groups),
        "weight_difference": weight,
        "peer_face_maps": peer["face_maps"],
        "peer_faces_in_face_maps": peer["faces_in_face_maps"],
    }
    return problems, facts


def compare_written_mesh(name: str, original: dict, written: dict, height: float) -> tuple:
    """The peer's import of a .mgn ossuary wrote against its import of the
    original: the same importer, so the same axes, vertex for vertex."""
    import numpy as np

    problems = []
    facts = {
        field: [original[field], written[field]]
        for field in ("faces", "face_maps", "faces_in_face_maps", "uv_layers", "materials")
    }
    facts["vertices"] = [len(original["positions"]), len(written["positions"])]
    facts["shape_keys"] = [len(original["shape_key_order"]), len(written["shape_key_order"])]
    original_groups = sorted({g for w in original["weights"] for g in w})
    written_groups = sorted({g for w in written["weights"] for g in w})
    facts["groups_weighting"] = [len(original_groups), len(written_groups)]
    for field, (before, after) in facts.items():
        if before != after:
            problems.append(f"{name}: {field} {before} in the original, {after} written back")
    if original["shape_key_order"] != written["shape_key_order"]:
        problems.append(f"{name}: shape keys {written['shape_key_order']}, the original {original['shape_key_order']}")
    if original_groups != written_groups:
        problems.append(f"{name}: groups {written_groups}, the original {original_groups}")
    if len(original["positions"]) == len(written["positions"]):
        rest = float(np.abs(np.array(original["positions"]) - np.array(written["positions"])).max())
        facts["rest_distance_of_height"] = rest / height
        if rest > TOLERANCE * height:
            problems.append(f"{name}: a vertex lies {rest:.3g} from the original's")
        weight = max(weight_difference(a, b) for a, b in zip(original["weights"], written["weights"]))
        facts["weight_difference"] = weight
        if weight > 1e-6:
            problems.append(f"{name}: a vertex's weight differs by {weight:.3g} from the original's")
    return problems, facts


def write_back(ossuary: str, corpus: pathlib.Path, out: pathlib.Path) -> dict:
    """`convert` the character to glTF and back to SWG files: as it is (the
    glTF carries its skeletons), with the original's skeleton named, and
    with the glTF's own skeleton written."""
    asset = out / "twk_f.glb"
    subprocess.run([ossuary, "convert", str(corpus / CHARACTER), "-o", str(asset)], check=True, capture_output=True)
    runs = {
        "without a skeleton option": [],
        "--skeleton twk_f.sat": ["--skeleton", str(corpus / CHARACTER)],
        "--write-skeleton": ["--write-skeleton"],
    }
    folders = {}
    for label, options in runs.items():
        folder = out / "back" / (label.split()[0].strip("-") if options else "plain")
        subprocess.run(
            [ossuary, "convert", str(asset), "--to", "swg-sat", *options, "-o", str(folder)],
            check=True,
            capture_output=True,
        )
        folders[label] = folder
    return folders


def main() -> None:
    arguments = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else sys.argv[1:]
    if arguments[:1] == ["--peer-meshes"]:
        run_peer_meshes(pathlib.Path(arguments[1]), arguments[2:])
        return
    if len(arguments) not in (4, 5):
        sys.exit(__doc__)
    addon_root, wheel, ossuary, corpus = (pathlib.Path(arg).resolve() for arg in arguments[:4])
    blender = arguments[4] if len(arguments) == 5 else "/usr/bin/blender"
    corpus = corpus / "swg"

    os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp(prefix="ossuary-peers-user-")
    import bpy  # first: it puts Blender's own modules (addon_utils) on the path

    import addon_utils

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "blender"))
    import build

    archive = pathlib.Path(tempfile.mkdtemp(prefix="ossuary-peers-")) / "ossuary-blender.zip"
    build.build(wheel, archive)
    bpy.ops.extensions.package_install_files(filepath=str(archive), repo="user_default", enable_on_install=True)
    sys.path.insert(0, str(addon_root))
    addon_utils.enable(ADDON_MODULE, default_set=True)

    failed = False

    def report(case: str, problems: list, facts: dict) -> None:
        nonlocal failed
        failed |= bool(problems)
        print(json.dumps({"case": case, **facts, "problems": problems}), flush=True)

    # The extension: the .sat with its default options, a position moved
    # and the character exported; the hair piece; the .sat at levels 1 to 3.
    # The peer: the skeletons (a bare `FORM SKTM` wrapped as it reads them)
    # and the meshes: the originals, the edited one and those ossuary writes
    # back from its own glTF.
    originals = [corpus / mesh for mesh in MESHES]
    edited_mesh = MESHES[0]
    with tempfile.TemporaryDirectory(prefix="ossuary-swg-back-") as out:
        out = pathlib.Path(out)
        character = corpus / CHARACTER
        our_bones, our_meshes = extension_character(character.parent, [character.name])
        moved = move_one_position_and_export(pathlib.PurePosixPath(edited_mesh).name, out / "edited")
        hair_bones, hair_meshes = extension_character(corpus / "appearance", HAIR_FILES)
        other_levels = {lod: extension_character(character.parent, [character.name], lod) for lod in (1, 2, 3)}
        body, _ = peer_skeleton_as_read(corpus / SKELETONS[0], out)
        face, face_wrapped = peer_skeleton_as_read(corpus / SKELETONS[1], out)
        folders = write_back(str(ossuary), corpus, out)
        written = {
            label: {mesh: folder / mesh for mesh in LEVELS if (folder / mesh).is_file()}
            for label, folder in folders.items()
        }
        edited = out / "edited" / edited_mesh
        every_mesh = [corpus / mesh for mesh in [*LEVELS, HAIR_MESH]] + ([edited] if edited.is_file() else [])
        every_mesh += [path for files in written.values() for path in files.values()]
        peer = peer_meshes(blender, addon_root, every_mesh)
        written_skeleton = folders["--write-skeleton"] / "appearance/skeleton/twk_f.skt"
        written_bones, written_wrapped = (
            peer_skeleton_as_read(written_skeleton, out) if written_skeleton.is_file() else ({}, False)
        )

    problems, facts, move, height = compare_bones(body, our_bones, list(face))
    report("twk_f.sat: bones of all_b.skt", problems, facts)
    if move is None:
        sys.stdout.flush()
        os._exit(1)  # without a fit, no place can be compared
    # The face skeleton hangs from the joint `head`: its own fit.
    our_face = {name: position for name, position in our_bones.items() if name.lower() in face}
    problems, facts, _, _ = compare_bones(face, our_face, [], height)
    facts["wrapped_in_slod_for_the_peer"] = face_wrapped
    report("twk_f.sat: bones of hum_f_face.skt", problems, facts)
    for original in originals:
        name = original.name
        if name not in our_meshes:
            report(f"twk_f.sat: {name}", [f"the extension made no mesh of {name}"], {})
            continue
        problems, facts = compare_mesh(name, peer[str(original)], our_meshes[name], move, height)
        report(f"twk_f.sat: {name}", problems, facts)

    # The other levels of detail (the extension's `lod` option), each with
    # the peer's import of that level's meshes.
    for lod, (level_bones, level_meshes) in other_levels.items():
        problems, facts, level_move, _ = compare_bones(body, level_bones, list(face), height)
        report(f"twk_f.sat, level {lod}: bones of all_b.skt", problems, facts)
        for part in ("body", "head"):
            name = f"twk_f_{part}_l{lod}.mgn"
            if level_move is None or name not in level_meshes:
                missing = f"the extension made no mesh of {name}, or no bone to fit"
                report(f"twk_f.sat, level {lod}: {name}", [missing], {})
                continue
            original = peer[str(corpus / "appearance/mesh" / name)]
            problems, facts = compare_mesh(name, original, level_meshes[name], level_move, height)
            report(f"twk_f.sat, level {lod}: {name}", problems, facts)

    # The hair piece with its skeleton: the peer's all_b.skt, its own fit.
    problems, facts, hair_move, _ = compare_bones(body, hair_bones, [], height)
    report("hair piece (all_b.skt, twk_f_hair_s01_l0.mgn): bones", problems, facts)
    name = pathlib.PurePosixPath(HAIR_MESH).name
    if hair_move is None or name not in hair_meshes:
        report(f"hair piece: {name}", [f"the extension made no mesh of {name}, or no bone to fit"], {})
    else:
        problems, facts = compare_mesh(name, peer[str(corpus / HAIR_MESH)], hair_meshes[name], hair_move, height)
        report(f"hair piece: {name}", problems, facts)

    # A position moved in Blender, exported by the extension.
    name = pathlib.PurePosixPath(edited_mesh).name
    case = f"edited in Blender, exported by the extension: {name}"
    if str(edited) not in peer:
        report(case, [f"the extension wrote no {edited_mesh}"], {})
    else:
        shift = move([EDIT])[0] - move([(0.0, 0.0, 0.0)])[0]
        original = peer[str(corpus / edited_mesh)]
        problems, facts = compare_edited_mesh(name, original, peer[str(edited)], moved, shift, height)
        report(case, problems, facts)

    # What ossuary writes back from its own glTF, through the peer's importers.
    for label, files in written.items():
        for mesh in LEVELS:
            name = pathlib.PurePosixPath(mesh).name
            if mesh not in files:
                report(f"written back {label}: {name}", [f"convert wrote no {mesh}"], {})
                continue
            problems, facts = compare_written_mesh(name, peer[str(corpus / mesh)], peer[str(files[mesh])], height)
            report(f"written back {label}: {name}", problems, facts)
    if not written_bones:
        report("written back --write-skeleton: twk_f.skt", ["the peer made no bones of the written skeleton"], {})
    else:
        problems, facts, _, _ = compare_bones(written_bones, our_bones, [], height)
        facts["wrapped_in_slod_for_the_peer"] = written_wrapped
        report("written back --write-skeleton: twk_f.skt, against the extension's", problems, facts)
    sys.stdout.flush()
    os._exit(1 if failed else 0)


if __name__ == "__main__":
    main()
