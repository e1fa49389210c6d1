"""Import Sims files with ts1-blender-io's importer, headless, and count what it made.

Run with a Python that has the `bpy` module of Blender 4.1 or newer (`pip install "bpy>=4.2,<4.3"`):

    python3.11 peers/ts1_import.py ADDON_ROOT CASE_NAME=FILE.cmx[,FILE.cmx...] [CASE_NAME=...]

ADDON_ROOT is the folder holding the add-on's package `io_scene_ts1/`. Each case starts from an
empty scene and imports its files in order, one operator call each, with the importer's default
options (as a modder's first click does). The counts of each case are printed as one JSON object
per line: armatures (by name), meshes parented to an armature with an Armature modifier on it,
meshes left without one, meshes with an image texture, actions whose curves hold keyframes, and
every message or exception the importer gave.
"""

import contextlib
import io
import json
import logging
import pathlib
import sys

import bpy  # first: it puts Blender's own modules (addon_utils) on the path

import addon_utils  # noqa: E402


class ListHandler(logging.Handler):
    """Keep the importer's log lines (it logs what it skipped: meshes, textures, bones)."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def import_operator():  # noqa: ANN201
    """The importer's operator: its id is `import.bcf`, and `import` is a Python keyword."""
    return getattr(bpy.ops, "import").bcf


def mesh_is_bound(obj: bpy.types.Object) -> bool:
    """A mesh the importer put on an armature: parented to it and deformed by it."""
    if obj.parent is None or obj.parent.type != 'ARMATURE':
        return False
    return any(m.type == 'ARMATURE' and m.object == obj.parent for m in obj.modifiers)


def mesh_has_image(obj: bpy.types.Object) -> bool:
    """A mesh whose material shows an image that Blender could load."""
    for material in obj.data.materials:
        if material is None or not material.use_nodes:
            continue
        for node in material.node_tree.nodes:
            if node.type == 'TEX_IMAGE' and node.image is not None and node.image.has_data:
                return True
            if node.type == 'TEX_IMAGE' and node.image is not None:
                with contextlib.suppress(RuntimeError):
                    node.image.reload()
                    if node.image.pixels and len(node.image.pixels) > 0:
                        return True
    return False


def count_scene() -> dict:
    """Count what the importer made in the current file."""
    armatures = sorted(o.name for o in bpy.data.objects if o.type == 'ARMATURE')
    meshes = [o for o in bpy.data.objects if o.type == 'MESH']
    bound = [o for o in meshes if mesh_is_bound(o)]
    bound_by_armature: dict[str, int] = {}
    for obj in bound:
        bound_by_armature[obj.parent.name] = bound_by_armature.get(obj.parent.name, 0) + 1
    actions_with_keys = []
    actions_without_keys = []
    for action in bpy.data.actions:
        keys = sum(len(curve.keyframe_points) for curve in action.fcurves)
        moving_curves = sum(1 for curve in action.fcurves if len(curve.keyframe_points) > 1)
        entry = {"name": action.name, "curves": len(action.fcurves), "keys": keys, "curves_with_2+_keys": moving_curves}
        (actions_with_keys if moving_curves > 0 else actions_without_keys).append(entry)
    return {
        "armatures": armatures,
        "meshes": len(meshes),
        "meshes_on_armature": len(bound),
        "meshes_on_armature_by_name": bound_by_armature,
        "meshes_not_on_armature": sorted(o.name for o in meshes if o not in bound),
        "meshes_with_image": sum(1 for o in meshes if mesh_has_image(o)),
        "meshes_without_image": sorted(o.name for o in meshes if not mesh_has_image(o)),
        "actions_with_keys": actions_with_keys,
        "actions_without_keys": actions_without_keys,
    }


def run_case(name: str, files: list[pathlib.Path], handler: ListHandler) -> dict:
    """Import the files of one case into an empty scene and count the result."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    enable_addon()
    logging.getLogger("io_scene_ts1").addHandler(handler)
    handler.lines = []
    errors = []
    for file in files:
        stdout = io.StringIO()
        try:
            with contextlib.redirect_stdout(stdout):
                result = import_operator()(directory=str(file.parent) + "/", files=[{"name": file.name}])
        except RuntimeError as exception:
            # Blender turns both an operator's ERROR report and a Python exception inside it into a
            # RuntimeError; a report comes after the import finished, an exception stopped it.
            text = str(exception).strip()
            kind = "exception" if "Traceback" in text else "reported"
            errors.append({"file": file.name, kind: text.splitlines()[-1] if kind == "exception" else text})
            continue
        if result != {'FINISHED'}:
            errors.append({"file": file.name, "result": sorted(result)})
    counts = count_scene()
    return {"case": name, "files": [f.name for f in files], **counts, "importer_log": handler.lines, "errors": errors}


ADDON_MODULE = "io_scene_ts1"


def enable_addon() -> None:
    """Register the add-on as Blender would after installing it (its preferences included)."""
    addon_utils.enable(ADDON_MODULE, default_set=True, persistent=True)
    if ADDON_MODULE not in bpy.context.preferences.addons:
        sys.exit(f"could not enable {ADDON_MODULE}")


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    addon_root = pathlib.Path(sys.argv[1]).resolve()
    if not (addon_root / ADDON_MODULE / "__init__.py").is_file():
        sys.exit(f"{addon_root} holds no {ADDON_MODULE}/__init__.py")
    sys.path.insert(0, str(addon_root))
    handler = ListHandler()
    for argument in sys.argv[2:]:
        name, _, file_list = argument.partition("=")
        files = [pathlib.Path(f).resolve() for f in file_list.split(",")]
        print(json.dumps(run_case(name, files, handler)), flush=True)


if __name__ == "__main__":
    main()
