"""The same characters imported by a peer add-on and by ossuary's Blender
extension, compared: bone names, rest positions (within 1e-5 of the
figure's height) and vertex counts.

Run with a Python that has the `bpy` module of Blender 4.2:

    python3.11 peers/compare_with_extension.py TS1_ADDON_ROOT OSSUARY_WHEEL CORPUS

TS1_ADDON_ROOT holds ts1-blender-io's `io_scene_ts1/`. Each case imports
its files into an empty scene with the peer's importer (one call per file,
its default options) and then with the extension (one call, the files
chosen together, its default options). The add-ons choose their own units
and facing (ts1-blender-io a third of the game's unit, facing +y), so the
rest poses are compared after the uniform scale and turn that fit them
best, which are printed; the peer merges the vertices a seam splits, so its
count is compared with ours or with our count of distinct places. Prints
one JSON object per case and exits 1 when any differs.
"""

import json
import os
import pathlib
import sys
import tempfile

os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp(prefix="ossuary-peers-user-")

import bpy  # noqa: E402
import addon_utils  # noqa: E402
import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "blender"))

import build  # noqa: E402
from fit import similarity  # noqa: E402

CASES = {
    "sims adult with a suit": ("sims1", ["adult-skeleton.cmx", "B001FAFat_01.cmx"]),
    "sims adult skeleton": ("sims1", ["adult-skeleton.cmx"]),
}


def empty_scene() -> None:
    bpy.ops.wm.read_homefile(use_empty=True)


def what_was_imported() -> dict:
    armatures = [obj for obj in bpy.context.scene.objects if obj.type == "ARMATURE"]
    bones = {}
    for arm in armatures:
        for bone in arm.data.bones:
            bones[bone.name] = list(arm.matrix_world @ bone.head_local)
    meshes = [
        obj
        for obj in bpy.context.scene.objects
        if obj.type == "MESH" and any(mod.type == "ARMATURE" for mod in obj.modifiers)
    ]
    return {
        "bones": bones,
        "vertex_counts": sorted(len(obj.data.vertices) for obj in meshes),
        "places": sorted(distinct_places(obj) for obj in meshes),
    }


def distinct_places(obj) -> int:
    """The mesh's vertices counted once per place (within 1e-4 of the
    figure's units): the peer merges the vertices a seam splits."""
    return len({tuple(round(c / 1e-4) for c in vertex.co) for vertex in obj.data.vertices})


def compare(peer: dict, ours: dict) -> tuple[list[str], dict]:
    problems = []
    if set(peer["bones"]) != set(ours["bones"]):
        problems.append(f"bone names differ: {sorted(set(peer['bones']) ^ set(ours['bones']))}")
    scale, rotation, _, residual = similarity(peer["bones"], ours["bones"])
    heights = [p[2] for p in peer["bones"].values()]
    height = max(heights) - min(heights)
    if residual > 1e-5 * height:
        problems.append(f"the rest poses differ by {residual:.3g} (height {height:.3g}) after scale and turn")
    counts_agree = peer["vertex_counts"] == ours["vertex_counts"] or peer["vertex_counts"] == ours["places"]
    if not counts_agree:
        problems.append(
            f"vertex counts differ: {peer['vertex_counts']} against {ours['vertex_counts']} ({ours['places']} places)"
        )
    facts = {
        "scale": round(scale, 6),
        "turn": np.round(rotation, 6).tolist(),
        "residual_of_height": residual / height,
        "peer_vertices": peer["vertex_counts"],
        "our_vertices": ours["vertex_counts"],
        "our_places": ours["places"],
    }
    return problems, facts


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    addon_root, wheel, corpus = (pathlib.Path(arg).resolve() for arg in sys.argv[1:])
    archive = pathlib.Path(tempfile.mkdtemp()) / "ossuary-blender.zip"
    build.build(wheel, archive)
    bpy.ops.extensions.package_install_files(filepath=str(archive), repo="user_default", enable_on_install=True)
    sys.path.insert(0, str(addon_root))
    addon_utils.enable("io_scene_ts1", default_set=True)
    failed = False
    for name, (folder, files) in CASES.items():
        folder = corpus / folder
        empty_scene()
        for file in files:
            getattr(bpy.ops, "import").bcf(directory=str(folder) + "/", files=[{"name": file}])
        peer = what_was_imported()
        empty_scene()
        # A file chosen alone is not dressed: ts1-blender-io imports a
        # skeleton alone as bones only.
        bpy.ops.import_scene.ossuary(
            directory=str(folder) + "/", files=[{"name": file} for file in files], dress=False
        )
        ours = what_was_imported()
        problems, facts = compare(peer, ours)
        failed |= bool(problems)
        print(json.dumps({"case": name, "bones": len(ours["bones"]), **facts, "problems": problems}), flush=True)
    sys.stdout.flush()
    os._exit(1 if failed else 0)


if __name__ == "__main__":
    main()
