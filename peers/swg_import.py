"""Import SWG .mgn and .skt files with io_scene_swg_msh's importers, headless, and count what they made.

The add-on needs Blender 4.0 or older (it sets Mesh.use_auto_smooth and makes face maps, both
gone in 4.1); Debian's `blender` package (3.4) runs it:

    blender -b --factory-startup --python peers/swg_import.py -- ADDON_ROOT CASE_NAME=FILE[,FILE...] ...

The .skt importer, though, uses Armature.relation_line_position, which Blender 3.4 lacks; it runs
under the bpy module of 4.2 (`python3.11 peers/swg_import.py ADDON_ROOT CASE=FILE.skt`).

ADDON_ROOT is the folder holding the add-on's package `io_scene_swg/`. Each case starts from an
empty scene and imports its files in order with the importers' default options (.mgn with
`import_scene.mgn`, .skt with `import_scene.skt`); the add-on has no importer for .lmg or .sat
(only exporters), so those are listed as not importable. One JSON object per case is printed on a
line starting with `PEER_RESULT `: per armature its bones, per mesh its vertices, faces, vertex
groups, weighted vertices, shape keys (without the basis), face maps (occlusion zones), uv layers
and materials, and each file's exception if the importer raised one.
"""

import json
import pathlib
import sys

import bpy  # first: it puts Blender's own modules (addon_utils) on the path

import addon_utils  # noqa: E402

ADDON_MODULE = "io_scene_swg"


def enable_addon() -> None:
    """Register the add-on with its preferences, as Blender does after installing it."""
    addon_utils.enable(ADDON_MODULE, default_set=True, persistent=True)
    if ADDON_MODULE not in bpy.context.preferences.addons:
        sys.exit(f"could not enable {ADDON_MODULE}")


def import_file(path: pathlib.Path) -> None:
    """Run the add-on's importer for the file's extension, with its default options."""
    if path.suffix == ".mgn":
        bpy.ops.import_scene.mgn(filepath=str(path))
    elif path.suffix == ".skt":
        bpy.ops.import_scene.skt(filepath=str(path), files=[{"name": path.name}])
    else:
        raise ValueError(f"io_scene_swg_msh has no importer for {path.suffix} files")


def count_scene() -> dict:
    """Count the armatures and meshes the importers made."""
    armatures = {
        obj.name: len(obj.data.bones) for obj in bpy.data.objects if obj.type == 'ARMATURE'
    }
    meshes = {}
    for obj in bpy.data.objects:
        if obj.type != 'MESH':
            continue
        mesh = obj.data
        weighted = sum(1 for vertex in mesh.vertices if len(vertex.groups) > 0)
        shape_keys = mesh.shape_keys.key_blocks[1:] if mesh.shape_keys else []
        moved_shape_keys = sum(
            1 for key in shape_keys
            if any((a.co - b.co).length > 0.0 for a, b in zip(key.data, mesh.shape_keys.key_blocks[0].data))
        )
        meshes[obj.name.rsplit("/", 1)[-1]] = {
            "vertices": len(mesh.vertices),
            "faces": len(mesh.polygons),
            "vertex_groups": len(obj.vertex_groups),
            "weighted_vertices": weighted,
            "shape_keys": len(shape_keys),
            "shape_keys_that_move_a_vertex": moved_shape_keys,
            "face_maps": len(obj.face_maps) if hasattr(obj, "face_maps") else "none in this Blender",
            "uv_layers": len(mesh.uv_layers),
            "materials": [m.name for m in mesh.materials if m is not None],
            "skeletons_named": [obj[key] for key in obj.keys() if key.startswith("SKTM_")],
        }
    return {"armatures": armatures, "meshes": meshes}


def run_case(name: str, files: list[pathlib.Path]) -> dict:
    """Import the files of one case into an empty scene and count the result."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    enable_addon()
    errors = []
    for file in files:
        try:
            import_file(file)
        except Exception as exception:  # noqa: BLE001 -- the peer's own exception text is the finding
            errors.append({"file": file.name, "exception": str(exception).strip().splitlines()[-1]})
    return {"case": name, "files": [f.name for f in files], **count_scene(), "errors": errors}


def main() -> None:
    # Under the blender binary the script's arguments follow "--"; under the bpy module, argv[1:].
    arguments = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
    if len(arguments) < 2:
        sys.exit(__doc__)
    addon_root = pathlib.Path(arguments[0]).resolve()
    if not (addon_root / ADDON_MODULE / "__init__.py").is_file():
        sys.exit(f"{addon_root} holds no {ADDON_MODULE}/__init__.py")
    sys.path.insert(0, str(addon_root))
    for argument in arguments[1:]:
        name, _, file_list = argument.partition("=")
        files = [pathlib.Path(f).resolve() for f in file_list.split(",")]
        print("PEER_RESULT " + json.dumps(run_case(name, files)), flush=True)


main()
