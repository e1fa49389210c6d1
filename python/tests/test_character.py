"""The rig as NumPy arrays: joints, skins, clips and poses, checked against
the command line's own ``joints`` and against the glTF way back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import ossuary
from ossuary import _ossuary


def command_joints(*args: str) -> list[dict]:
    status, out, err = _ossuary.run(["joints", *args])
    assert status == 0, err
    return json.loads(out)


def assert_joints_match(joints: ossuary.Joints, expected: list[dict], tolerance: float) -> None:
    assert joints.names == [joint["name"] for joint in expected]
    for index, joint in enumerate(expected):
        parent = joint["parent"]
        assert joints.parents[index] == (joints.names.index(parent) if parent else -1)
        position = joints.model[index][:3, 3]
        assert np.abs(position - joint["position"]).max() < tolerance, joint["name"]


def test_skeleton_at_rest_as_the_command_gives_it(fixtures):
    character = ossuary.character(fixtures / "humanoid.cmx")
    assert_joints_match(character.joints, command_joints(str(fixtures / "humanoid.cmx")), 1e-5)
    # Each joint's model matrix is its parent's times its own rest.
    joints = character.joints
    for index, parent in enumerate(joints.parents):
        if parent >= 0:
            composed = joints.model[parent] @ joints.rest[index]
            assert np.allclose(composed, joints.model[index], atol=1e-5)


def test_skins_are_arrays_weighted_to_the_skeleton(fixtures):
    character = ossuary.character(fixtures / "humanoid.cmx")
    assert len(character.skins) == 1
    skin = character.skins[0]
    count = len(skin.positions)
    assert skin.positions.shape == (count, 3) and skin.positions.dtype == np.float32
    assert skin.normals.shape == (count, 3)
    assert skin.uvs.shape == (count, 2)
    assert skin.triangles.max() < count
    used = skin.joints >= 0
    assert skin.joints[used].max() < len(character.joints)
    assert np.allclose(np.where(used, skin.weights, 0).sum(axis=1), 1, atol=1e-5)


def test_a_clip_poses_the_skeleton_as_the_command_does(fixtures):
    cmx = str(fixtures / "humanoid.cmx")
    character = ossuary.character(cmx, anim=cmx)
    assert [clip.name for clip in character.clips] == ["humanoid-wave"]
    clip = character.clips[0]
    assert len(clip) == len(clip.times) >= 2
    for frame in range(len(clip)):
        pose = character.pose(frame, clip="humanoid-wave")
        expected = command_joints(cmx, "--anim", cmx, "--frame", str(frame))
        for index, joint in enumerate(expected):
            assert np.abs(pose.model[index][:3, 3] - joint["position"]).max() < 1e-5


def test_a_clip_s_transforms_are_its_poses(fixtures):
    cmx = fixtures / "humanoid.cmx"
    character = ossuary.character(cmx, anim=cmx)
    transforms = character.transforms("humanoid-wave")
    assert transforms.shape == (2, len(character.joints), 4, 4)
    assert transforms is character.clips[0].transforms
    for frame, model in enumerate(transforms):
        assert np.array_equal(model, character.pose(frame).model)
    still = ossuary.character(cmx).transforms()
    assert np.array_equal(still[0], character.joints.model)


def test_rest_pose_leaves_the_skins_where_they_are(fixtures):
    character = ossuary.character(fixtures / "humanoid.cmx")
    pose = character.pose()
    assert np.allclose(pose.model, character.joints.model, atol=1e-5)
    assert np.allclose(pose.positions[0], character.skins[0].positions, atol=1e-4)


def test_a_frame_past_the_end_is_an_error(fixtures):
    cmx = fixtures / "humanoid.cmx"
    character = ossuary.character(cmx, anim=cmx)
    with pytest.raises(ossuary.OssuaryError, match="past the end"):
        character.pose(len(character.clips[0]))
    with pytest.raises(ossuary.OssuaryError, match="no clip is named"):
        character.pose(0, clip="nothing")


def test_gltf_there_and_back(fixtures, tmp_path):
    cmx = fixtures / "humanoid.cmx"
    asset = tmp_path / "humanoid.glb"
    assert ossuary.to_gltf(cmx, asset, anim=cmx) == []
    assert asset.read_bytes()[:4] == b"glTF"
    back = tmp_path / "back"
    ossuary.from_gltf(asset, to="sims-cmx", out=back)
    written = sorted(path.name for path in back.iterdir())
    assert "humanoid.cmx" in written
    assert all(row["result"] == "ok" for row in ossuary.check(back))
    again = ossuary.character(back / "humanoid.cmx")
    original = ossuary.character(cmx)
    assert again.joints.names == original.joints.names
    assert np.allclose(again.joints.model, original.joints.model, atol=1e-4)


def test_from_gltf_refuses_what_the_game_cannot_hold(fixtures, tmp_path):
    asset = tmp_path / "humanoid.glb"
    ossuary.to_gltf(fixtures / "humanoid.cmx", asset)
    with pytest.raises(ossuary.OssuaryError):
        ossuary.from_gltf(asset, to="outcast-skeleton", out=tmp_path / "out")


def test_swg_character_from_the_corpus(corpus):
    sat = corpus / "swg" / "appearance" / "twk_f.sat"
    character = ossuary.character(sat)
    assert_joints_match(character.joints, command_joints(str(sat)), 1e-5)
    assert len(character.skins) >= 2
    assert any(skin.blend_targets for skin in character.skins)
    for skin in character.skins:
        for offsets in skin.blend_targets.values():
            assert offsets.shape == skin.positions.shape


def test_sims_character_from_the_corpus(corpus):
    folder = corpus / "sims1"
    skeleton = folder / "adult-skeleton.cmx"
    skins = sorted(folder.glob("xskin-b001mafit_01-*.skn"))
    character = ossuary.character([skeleton, *skins], anim=folder / "adult-idle1.cmx")
    assert_joints_match(character.joints, command_joints(str(skeleton)), 1e-5)
    assert len(character.skins) == len(skins)
    assert character.clips and len(character.clips[0]) > 1
    pose = character.pose(len(character.clips[0]) - 1)
    assert not np.allclose(pose.positions[0], character.skins[0].positions)


def test_a_skeleton_is_dressed_as_the_viewer_dresses_it(corpus):
    folder = corpus / "sims1"
    worn = [Path(path).name for path in ossuary.dressing(folder / "adult-skeleton.cmx")]
    assert worn == [
        "xskin-b001mafit_01-PELVIS-BODY.skn",
        "xskin-C001MA_Ross-HEAD-HEADB.skn",
        "xskin-hmlo-L_HAND-HANDML.skn",
        "xskin-hmro-R_HAND-HANDMR.skn",
    ]
    character = ossuary.character([folder / "adult-skeleton.cmx", *(folder / name for name in worn)])
    assert len(character.skins) == 4
