"""Blender itself (the `bpy` module of Blender 4.2) with the extension
installed from its zip through Blender's own extension install, as a user
installs it. `OSSUARY_WHEEL` names the ossuary wheel the zip carries.

Blender's user folders go to a temporary folder, set before `bpy` loads,
so that the tests never touch a real installation's preferences."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

USER_FOLDER = tempfile.mkdtemp(prefix="ossuary-blender-user-")
os.environ["BLENDER_USER_RESOURCES"] = USER_FOLDER

import bpy  # noqa: E402  (after the user folder is chosen)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "blender"))

import build  # noqa: E402


@pytest.fixture(scope="session")
def extension(tmp_path_factory):
    """The extension's zip, built around the wheel and installed and
    enabled by Blender's extension install."""
    wheel = os.environ.get("OSSUARY_WHEEL")
    if not wheel:
        raise RuntimeError("OSSUARY_WHEEL must name the ossuary wheel the extension carries")
    archive = tmp_path_factory.mktemp("extension") / "ossuary-blender.zip"
    build.build(Path(wheel), archive)
    result = bpy.ops.extensions.package_install_files(
        filepath=str(archive), repo="user_default", enable_on_install=True
    )
    assert result == {"FINISHED"}
    assert "bl_ext.user_default.ossuary" in bpy.context.preferences.addons
    return archive


@pytest.fixture
def scene(extension):
    """An empty scene (no default cube, camera or light)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    for action in list(bpy.data.actions):
        bpy.data.actions.remove(action)
    return bpy.context.scene


@pytest.fixture
def fixtures() -> Path:
    return ROOT / "tests" / "fixtures"


@pytest.fixture
def corpus() -> Path:
    named = os.environ.get("OSSUARY_CORPUS")
    if not named:
        pytest.skip("OSSUARY_CORPUS is not set")
    folder = Path(named)
    if not folder.is_dir():
        raise FileNotFoundError(f"OSSUARY_CORPUS names {folder}, which is not a folder")
    return folder


def pytest_sessionfinish(session, exitstatus):
    session.config.ossuary_exit_status = int(exitstatus)


def pytest_unconfigure(config):
    """Leaves at once, after pytest's report, with the tests' status: the
    `bpy` module (4.2) can crash while Python tears it down after the last
    test, which would turn a passing run into a failing exit status."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(getattr(config, "ossuary_exit_status", 1))
