"""Open a rig made in Blender, brought back into the Sims' files by ossuary, with ts1-blender-io,
and measure how far every joint and vertex lands from where Blender had them.

    python3.11 peers/ts1_rig.py ADDON_ROOT SKELETON.cmx FOLDER POSES.json

ADDON_ROOT holds ts1-blender-io's `io_scene_ts1/`. SKELETON.cmx is the skeleton the rig was
converted for (`convert RIG.glb --to sims-cmx --skeleton SKELETON.cmx -o FOLDER`); FOLDER holds what
`convert` wrote (the suits, skins and one skill); POSES.json is what
`export/tests/blender/make_fixtures.py` recorded of the rig in Blender: every joint and vertex at
rest and at each keyed frame, in the Sims' axes.

The importer is run as a modder would: the skeleton first (from its file, nothing else of it; its
armature named `adult`, as the importer binds skins and `a2o-` skills to an armature of that name),
then each suit and the skill with the importer's default options. ts1-blender-io puts the Sims' (x, y, z) at Blender's
(x, z, y) / 3 and a skill's frame k at Blender's frame k + 1; the places it shows are taken back to
the Sims' axes that way and compared with Blender's. Prints one JSON object: the furthest joint and
vertex at rest and at each frame, the figure's height, and whether all lie within 1e-3 of it;
exits 1 when they do not.
"""

import contextlib
import io
import json
import math
import pathlib
import sys

import bpy  # first: it puts Blender's own modules (addon_utils) on the path

import addon_utils  # noqa: E402

BONE_SCALE = 3.0
WITHIN = 1e-3


def to_sims(point) -> list[float]:  # noqa: ANN001
    """A point of ts1-blender-io's Blender scene in the Sims' axes."""
    x, y, z = point
    return [x * BONE_SCALE, z * BONE_SCALE, y * BONE_SCALE]


MESSAGES: list[str] = []


def import_file(path: pathlib.Path, **options: bool) -> None:
    """Import one file; the importer's report (it reports what it could not find, textures among
    them, after importing the rest) is kept, as Blender raises it."""
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            getattr(bpy.ops, "import").bcf(directory=str(path.parent) + "/", files=[{"name": path.name}], **options)
    except RuntimeError as report:
        MESSAGES.append(str(report).strip())


def shown(armature: bpy.types.Object) -> dict:
    """Every joint and every mesh's vertices where the scene shows them, in the Sims' axes."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    vertices = {}
    for obj in bpy.data.objects:
        if obj.type != 'MESH':
            continue
        evaluated = obj.evaluated_get(depsgraph)
        mesh = evaluated.to_mesh()
        vertices[obj.name] = [to_sims(evaluated.matrix_world @ vertex.co) for vertex in mesh.vertices]
        evaluated.to_mesh_clear()
    joints = {bone.name: to_sims(armature.matrix_world @ bone.head) for bone in armature.pose.bones}
    return {"joints": joints, "vertices": vertices}


def furthest(expected: dict, got: dict) -> tuple[float, float]:
    """The furthest joint from its place, and the furthest vertex from the nearest shown one."""
    joint = max(math.dist(place, got["joints"][name]) for name, place in expected["joints"].items())
    shown_points = [point for points in got["vertices"].values() for point in points]
    vertex = max(
        min(math.dist(point, candidate) for candidate in shown_points)
        for points in expected["vertices"].values()
        for point in points
    )
    return joint, vertex


def main() -> None:
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    addon_root, skeleton, folder, poses_file = (pathlib.Path(argument).resolve() for argument in sys.argv[1:])
    sys.path.insert(0, str(addon_root))
    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon_utils.enable("io_scene_ts1", default_set=True, persistent=True)
    # The skeleton alone: a character file may hold suits and skills of its own.
    import_file(skeleton, import_meshes=False, import_animations=False)
    armature = next(obj for obj in bpy.data.objects if obj.type == 'ARMATURE')
    armature.name = "adult"
    bpy.context.view_layer.objects.active = armature
    for path in sorted(folder.glob("*.cmx")):
        bpy.context.view_layer.objects.active = armature
        import_file(path)
    poses = json.loads(poses_file.read_text())
    heights = [place[1] for place in poses["rest"]["joints"].values()]
    height = max(heights) - min(heights)
    report = {"height": height, "rest": None, "frames": {}}
    armature.data.pose_position = 'REST'
    bpy.context.scene.frame_set(1)
    report["rest"] = furthest(poses["rest"], shown(armature))
    armature.data.pose_position = 'POSE'
    action = next(iter(bpy.data.actions), None)
    if action is not None:
        armature.animation_data.action = action
    for frame, expected in poses["frames"].items():
        bpy.context.scene.frame_set(int(frame) + 1)
        report["frames"][frame] = furthest(expected, shown(armature))
    worst = max([*report["rest"], *(value for pair in report["frames"].values() for value in pair)])
    report["meshes"] = sorted(obj.name for obj in bpy.data.objects if obj.type == 'MESH')
    report["actions"] = sorted(action.name for action in bpy.data.actions)
    report["importer_messages"] = MESSAGES
    report["within"] = worst <= WITHIN * height
    print(json.dumps(report), flush=True)
    sys.stdout.flush()
    # bpy 4.2 can crash tearing itself down; the result is out.
    import os  # noqa: PLC0415

    os._exit(0 if report["within"] else 1)


if __name__ == "__main__":
    main()
