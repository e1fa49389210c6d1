"""The extension in Blender 4.2, headless: every family imported with
default options and checked against ossuary's own answers (joint
positions, vertex counts, weights, shape keys, textures, actions frame by
frame), and characters exported back as the game's files: unchanged ones
byte for byte, edited ones with their edits."""

from __future__ import annotations

import json
from pathlib import Path

import bpy
import numpy as np
import pytest

# Blender's glTF importer turns glTF's y-up axes into its own z-up ones:
# (x, y, z) -> (x, -z, y). ossuary's export turns a file's axes into glTF's
# (left-handed files mirrored in x, z-up ones turned so that z goes up as y).
TO_BLENDER = {
    "left-handed-y-up": lambda p: np.array([-p[0], -p[2], p[1]]),
    "right-handed-y-up": lambda p: np.array([p[0], -p[2], p[1]]),
    "right-handed-z-up": lambda p: np.array([p[0], p[1], p[2]]),
}


def ossuary_module():
    import ossuary

    return ossuary


def command_joints(*args) -> list[dict]:
    status, out, err = ossuary_module()._ossuary.run(["joints", *map(str, args)])
    assert status == 0, err.decode()
    return json.loads(out)


def import_files(folder: Path, names: list[str]) -> None:
    result = bpy.ops.import_scene.ossuary(
        files=[{"name": name} for name in names], directory=str(folder) + "/"
    )
    assert result == {"FINISHED"}


def armature_object():
    armatures = [obj for obj in bpy.context.scene.objects if obj.type == "ARMATURE"]
    assert len(armatures) == 1
    return armatures[0]


def mesh_objects():
    """The character's meshes: not the bone shape Blender's glTF importer
    adds in its collection of things never exported."""
    return sorted(
        (
            obj
            for obj in bpy.context.scene.objects
            if obj.type == "MESH"
            and not any(c.name.startswith("glTF_not_exported") for c in obj.users_collection)
        ),
        key=lambda obj: obj.name,
    )


def expected_places(joints: list[dict], axes: str) -> tuple[dict, float]:
    """Each joint's place in Blender's axes, and the tolerance: 1e-5 of the
    figure's height (its largest extent)."""
    places = {joint["name"]: TO_BLENDER[axes](joint["position"]) for joint in joints}
    stacked = np.array(list(places.values()))
    height = float((stacked.max(axis=0) - stacked.min(axis=0)).max()) or 1.0
    return places, 1e-5 * height


def assert_rest_joints(skeleton: Path, axes: str) -> None:
    arm = armature_object()
    places, tolerance = expected_places(command_joints(skeleton), axes)
    assert {bone.name for bone in arm.data.bones} == set(places)
    for bone in arm.data.bones:
        head = np.array(arm.matrix_world @ bone.head_local)
        assert np.abs(head - places[bone.name]).max() <= tolerance, bone.name


def assert_posed_joints(skeleton: Path, animation_file: Path, clip, axes: str) -> None:
    """Every frame of the clip's action poses the armature where `ossuary
    joints --anim --frame` puts the joints."""
    arm = armature_object()
    actions = [action for action in bpy.data.actions if action.name.startswith(clip.name)]
    assert len(actions) == 1, [action.name for action in bpy.data.actions]
    action = actions[0]
    keyed = {round(key.co[0], 3) for curve in action.fcurves for key in curve.keyframe_points}
    assert set(map(float, range(len(clip)))) <= keyed, "each game frame keyed at its own frame"
    arm.animation_data.action = action
    for frame in range(len(clip)):
        bpy.context.scene.frame_set(frame)
        expected = command_joints(
            skeleton, "--anim", animation_file, "--skill", clip.name, "--frame", frame
        )
        places, tolerance = expected_places(expected, axes)
        for bone in arm.pose.bones:
            head = np.array(arm.matrix_world @ bone.head)
            assert np.abs(head - places[bone.name]).max() <= tolerance, (frame, bone.name)


def assert_meshes(character, textured: bool) -> None:
    arm = armature_object()
    meshes = mesh_objects()
    assert sorted(len(obj.data.vertices) for obj in meshes) == sorted(
        len(skin.positions) for skin in character.skins
    )
    for obj in meshes:
        assert any(mod.type == "ARMATURE" and mod.object == arm for mod in obj.modifiers), obj.name
        assert obj.vertex_groups, obj.name
        for vertex in obj.data.vertices:
            assert sum(group.weight for group in vertex.groups) > 0.99, (obj.name, vertex.index)
        images = [
            node.image
            for material in obj.data.materials
            if material and material.use_nodes
            for node in material.node_tree.nodes
            if node.type == "TEX_IMAGE" and node.image
        ]
        if textured:
            assert images and all(image.size[0] > 0 for image in images), obj.name
    targets = sorted(len(skin.blend_targets) for skin in character.skins)
    keys = sorted(
        len(obj.data.shape_keys.key_blocks) - 1 if obj.data.shape_keys else 0 for obj in meshes
    )
    assert keys == targets


class Family:
    """Files a user chooses in the import dialog, and what ossuary reads of
    them: the skeleton file, the character's files (skeleton and meshes),
    the animation file, and whether the game's files give textures."""

    def __init__(self, name, chosen, skeleton, character, animation=None, textured=False):
        self.name, self.chosen, self.skeleton = name, chosen, skeleton
        self.character, self.animation, self.textured = character, animation, textured


FAMILIES = [
    Family("sims", ["humanoid.cmx"], "humanoid.cmx", ["humanoid.cmx"], "humanoid.cmx"),
    Family("sims-binary", ["humanoid.bcf"], "humanoid.bcf", ["humanoid.bcf"], "humanoid.bcf"),
    Family(
        "sims-prototype",
        ["humanoid-prototype.cmx"],
        "humanoid-prototype.cmx",
        ["humanoid-prototype.cmx"],
        "humanoid-prototype.cmx",
    ),
    Family(
        "tso",
        ["humanoid.skel", "humanoid-arm.000010020000000c.apr", "a2o-humanoid-wave.anim"],
        "humanoid.skel",
        ["humanoid.skel", "humanoid-arm.000010020000000c.apr"],
        "a2o-humanoid-wave.anim",
    ),
    Family("swg", ["humanoid.sat"], "humanoid.sat", ["humanoid.sat"]),
    Family(
        "bonespro",
        ["bonespro-biped.txt", "bonespro-walk-euler-xyz.txt"],
        "bonespro-biped.txt",
        ["bonespro-biped.txt"],
        "bonespro-walk-euler-xyz.txt",
    ),
    Family("outcast", ["biped.osk", "biped-wave.oan"], "biped.osk", ["biped.osk"], "biped-wave.oan"),
]


@pytest.mark.parametrize("family", FAMILIES, ids=[family.name for family in FAMILIES])
def test_every_family_imports_as_ossuary_reads_it(scene, fixtures, family):
    import_files(fixtures, family.chosen)
    assert_character(fixtures, family)


def assert_character(folder: Path, family: Family) -> None:
    animation = folder / family.animation if family.animation else None
    character = ossuary_module().character(
        [folder / name for name in family.character], anim=animation
    )
    skeleton = folder / family.skeleton
    axes = character.joints.axes
    assert_rest_joints(skeleton, axes)
    assert_meshes(character, family.textured)
    assert len(bpy.data.actions) == len(character.clips)
    for clip in character.clips:
        assert_posed_joints(skeleton, animation, clip, axes)


def test_sims_from_the_corpus(scene, corpus):
    folder = corpus / "sims1"
    skeleton, suit, idle = "adult-skeleton.cmx", "B001FAFat_01.cmx", "adult-idle1.cmx"
    import_files(folder, [skeleton, suit, idle])
    assert_character(folder, Family("sims", [], skeleton, [skeleton, suit], idle, textured=True))


def test_a_skeleton_chosen_alone_is_dressed_as_the_viewer_dresses_it(scene, corpus):
    ossuary = ossuary_module()
    folder = corpus / "sims1"
    skeleton = folder / "adult-skeleton.cmx"
    worn = ossuary.dressing(skeleton)
    assert len(worn) == 4, worn  # a body, a head and two hands
    import_files(folder, [skeleton.name])
    assert_character(folder, Family("sims", [], skeleton.name, [skeleton.name, *worn], textured=True))


def test_swg_from_the_corpus(scene, corpus):
    folder = corpus / "swg" / "appearance"
    import_files(folder, ["twk_f.sat"])
    assert_character(folder, Family("swg", [], "twk_f.sat", ["twk_f.sat"], textured=True))


def test_prototype_from_the_corpus(scene, corpus):
    folder = corpus / "sims1-prototype"
    import_files(folder, ["samnud.cmx", "adult-greet01.cmx"])
    family = Family("prototype", [], "samnud.cmx", ["samnud.cmx"], "adult-greet01.cmx", textured=True)
    assert_character(folder, family)


def export_files(folder: Path, to: str) -> list[Path]:
    result = bpy.ops.export_scene.ossuary(directory=str(folder), to=to)
    assert result == {"FINISHED"}
    return sorted(path.relative_to(folder) for path in folder.rglob("*") if path.is_file())


@pytest.mark.parametrize(
    "chosen, to, expected",
    [
        (["humanoid.cmx"], "sims-cmx", ["humanoid.cmx", "xskill-humanoid-wave.cfp", "xskin-humanoid-L_ARM-ARM.skn"]),
        (["humanoid.bcf"], "sims-bcf", ["humanoid.bcf", "xskill-humanoid-wave.cfp", "xskin-humanoid-L_ARM-ARM.bmf"]),
        (["humanoid.sat"], "swg-sat", None),
    ],
    ids=["sims", "sims-binary", "swg"],
)
def test_an_unchanged_character_exports_as_its_files(scene, fixtures, tmp_path, chosen, to, expected):
    import_files(fixtures, chosen)
    written = export_files(tmp_path, to)
    if expected is not None:
        assert [str(path) for path in written] == expected
    assert written
    for path in written:
        assert (tmp_path / path).read_bytes() == (fixtures / path.name).read_bytes(), path
    assert all(row["result"] == "ok" for row in ossuary_module().check(tmp_path))


def test_the_real_twilek_exports_as_its_files(scene, corpus, tmp_path):
    folder = corpus / "swg"
    import_files(folder / "appearance", ["twk_f.sat"])
    written = export_files(tmp_path, "swg-sat")
    characters = [path for path in written if path.suffix in (".sat", ".lmg", ".mgn", ".skt")]
    assert {path.name for path in characters} >= {"twk_f.sat", "twk_f_body.lmg", "twk_f_body_l0.mgn"}
    for path in characters:
        assert (tmp_path / path).read_bytes() == (folder / path).read_bytes(), path


def test_the_real_sims_export_as_their_files(scene, corpus, tmp_path):
    """A retail Sim with a skill, imported and exported unchanged: Blender
    splits the body's vertices along seams (466 become 476) and keeps no
    animation's custom properties, and the files still come back byte for
    byte."""
    folder = corpus / "sims1"
    import_files(folder, ["adult-skeleton.cmx", "B001FAFat_01.cmx", "adult-idle1.cmx"])
    written = export_files(tmp_path, "sims-cmx")
    characters = [path for path in written if path.suffix in (".cmx", ".skn", ".cfp")]
    assert {path.name for path in characters} == {
        "B001FAFat_01.cmx",
        "xskin-b001fafat_01-PELVIS-BODY.skn",
        "adult-idle1.cmx",
        "xskill-A2O-idle1.cfp",
    }
    for path in characters:
        assert (tmp_path / path).read_bytes() == (folder / path).read_bytes(), path


def test_the_real_prototype_exports_as_its_conversion(scene, corpus, tmp_path):
    """The 1998 prototype's Sim, imported and exported unchanged, is the
    released game's files `ossuary convert --to sims-cmx` makes of it."""
    folder = corpus / "sims1-prototype"
    import_files(folder, ["samnud.cmx", "adult-greet01.cmx"])
    written = export_files(tmp_path / "blender", "sims-cmx")
    converted = tmp_path / "converted"
    for name in ("samnud.cmx", "adult-greet01.cmx"):
        status, _, err = ossuary_module()._ossuary.run(
            ["convert", str(folder / name), "--to", "sims-cmx", "-o", str(converted)]
        )
        assert status == 0, err.decode()
    characters = [path for path in written if path.suffix in (".cmx", ".skn", ".cfp")]
    # samnud.cmx, its 20 skins, the skill's .cmx and its keys' .cfp.
    assert len(characters) == 23, characters
    assert {path.name for path in characters} <= {path.name for path in converted.iterdir()}
    for path in characters:
        assert (tmp_path / "blender" / path).read_bytes() == (converted / path).read_bytes(), path


def test_a_moved_vertex_and_a_keyed_bone_come_back_in_the_game_s_files(scene, fixtures, tmp_path):
    ossuary = ossuary_module()
    import_files(fixtures, ["humanoid.cmx"])
    (mesh,) = mesh_objects()
    mesh.data.vertices[0].co.z += 0.5
    arm = armature_object()
    bone = arm.pose.bones["L_ARM"]
    bone.rotation_mode = "QUATERNION"
    bpy.context.scene.frame_set(0)
    turn = np.array([np.cos(0.3), np.sin(0.3), 0.0, 0.0])  # 0.6 rad about the bone's x
    bone.rotation_quaternion = turn.tolist()
    bone.keyframe_insert("rotation_quaternion", frame=0)
    export_files(tmp_path, "sims-cmx")

    original = ossuary.character(fixtures / "humanoid.cmx", anim=fixtures / "humanoid.cmx")
    edited = ossuary.character(tmp_path / "humanoid.cmx", anim=tmp_path / "humanoid.cmx")
    moved = np.abs(edited.skins[0].positions - original.skins[0].positions).max(axis=1) > 1e-4
    assert moved.sum() == 1, "one vertex moved"
    (index,) = np.flatnonzero(moved)
    # Blender's z is the file's y (the Sims are y-up).
    shift = edited.skins[0].positions[index] - original.skins[0].positions[index]
    assert np.allclose(shift, [0, 0.5, 0], atol=1e-4)

    arm_index = original.joints.names.index("L_ARM")
    at_first = [character.pose(0).model[arm_index][:3, :3] for character in (original, edited)]
    assert np.abs(at_first[0] - at_first[1]).max() > 0.1, "the keyed frame turns the arm"
    at_last = [character.pose(1).model[arm_index] for character in (original, edited)]
    assert np.allclose(at_last[0], at_last[1], atol=1e-4), "the frame not keyed is as it was"


def test_what_the_game_cannot_hold_is_refused_with_ossuary_s_sentence(scene, fixtures, tmp_path):
    import_files(fixtures, ["humanoid.cmx"])
    bpy.ops.mesh.primitive_cube_add()
    cube = bpy.context.active_object
    cube.parent = armature_object()
    with pytest.raises(RuntimeError, match="it has no skin"):
        bpy.ops.export_scene.ossuary(directory=str(tmp_path / "out"), to="sims-cmx")
    assert not (tmp_path / "out").exists()
