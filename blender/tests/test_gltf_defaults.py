"""Blender's own glTF importer and exporter with their defaults, as a user
who converted a character with `ossuary convert` opens it in Blender and
exports it again: Blender then keeps no `extras`, and the character's own
files ride in its first texture, which Blender writes as it read it."""

from __future__ import annotations

import bpy

from test_extension import ossuary_module


def run(*args) -> None:
    status, _, err = ossuary_module()._ossuary.run([str(arg) for arg in args])
    assert status == 0, err.decode()


def through_blender_s_defaults(exported, tmp_path, edit=None):
    """`exported` opened by Blender's glTF importer and written by its
    exporter, both with their defaults; `edit` changes the scene between."""
    bpy.ops.wm.read_homefile(use_empty=True)
    assert bpy.ops.import_scene.gltf(filepath=str(exported)) == {"FINISHED"}
    if edit is not None:
        edit()
    from_blender = tmp_path / "from-blender.glb"
    assert bpy.ops.export_scene.gltf(filepath=str(from_blender)) == {"FINISHED"}
    return from_blender


def test_an_swg_character_through_blender_s_defaults_comes_back_without_a_skeleton_named(
    extension, corpus, tmp_path
):
    # The extension carries the ossuary module this test runs.
    game = corpus / "swg"
    exported = tmp_path / "twk_f.glb"
    run("convert", game / "appearance" / "twk_f.sat", "-o", exported)
    from_blender = through_blender_s_defaults(exported, tmp_path)
    back = tmp_path / "back"
    run("convert", from_blender, "--to", "swg-sat", "-o", back)
    written = sorted(path.relative_to(back) for path in back.rglob("*") if path.is_file())
    assert [str(path) for path in written] == [
        "appearance/mesh/twk_f_body.lmg",
        *(f"appearance/mesh/twk_f_body_l{level}.mgn" for level in range(4)),
        "appearance/mesh/twk_f_head.lmg",
        *(f"appearance/mesh/twk_f_head_l{level}.mgn" for level in range(4)),
        "appearance/skeleton/all_b.skt",
        "appearance/skeleton/hum_f_face.skt",
        "appearance/twk_f.sat",
    ]
    for path in written:
        assert (back / path).read_bytes() == (game / path).read_bytes(), path


def test_an_swg_edit_through_blender_s_defaults_changes_only_the_mesh_edited(
    extension, corpus, tmp_path
):
    game = corpus / "swg"
    exported = tmp_path / "twk_f.glb"
    run("convert", game / "appearance" / "twk_f.sat", "-o", exported)

    def move_a_vertex():
        # The largest mesh (the body's most detailed level): one vertex up
        # by 5 cm, as a modder drags it.
        body = max(
            (obj for obj in bpy.context.scene.objects if obj.type == "MESH"),
            key=lambda obj: len(obj.data.vertices),
        )
        body.data.vertices[122].co.z += 0.05
        # With shape keys, the mesh written is its Basis key's.
        if body.data.shape_keys:
            body.data.shape_keys.key_blocks[0].data[122].co.z += 0.05

    from_blender = through_blender_s_defaults(exported, tmp_path, move_a_vertex)
    back = tmp_path / "back"
    run("convert", from_blender, "--to", "swg-sat", "-o", back)
    written = sorted(path.relative_to(back) for path in back.rglob("*") if path.is_file())
    changed = [str(path) for path in written if (back / path).read_bytes() != (game / path).read_bytes()]
    assert len(written) == 13
    assert changed == ["appearance/mesh/twk_f_body_l0.mgn"]


def test_a_retail_sim_through_blender_s_defaults_comes_back_as_its_files(extension, corpus, tmp_path):
    """The suit and its skin byte for byte, although Blender split the
    body's vertices along seams and kept none of their extras (the skill's
    keys it samples at its own frames: those come back as Blender gives
    them)."""
    folder = corpus / "sims1"
    exported = tmp_path / "sim.glb"
    run("convert", folder / "adult-skeleton.cmx", folder / "B001FAFat_01.cmx", "-o", exported)
    from_blender = through_blender_s_defaults(exported, tmp_path)
    back = tmp_path / "back"
    run("convert", from_blender, "--to", "sims-cmx", "-o", back)
    for name in ("B001FAFat_01.cmx", "xskin-b001fafat_01-PELVIS-BODY.skn"):
        assert (back / name).read_bytes() == (folder / name).read_bytes(), name
