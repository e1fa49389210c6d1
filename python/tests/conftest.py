"""Where the tests find files: the project's own samples (``tests/fixtures``
in the repository) and, when ``OSSUARY_CORPUS`` names it, the folder of
real game files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures"


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


@pytest.fixture
def corpus() -> Path:
    """The real files: skipped when ``OSSUARY_CORPUS`` is not set, an
    error when it is set and the folder is missing."""
    named = os.environ.get("OSSUARY_CORPUS")
    if not named:
        pytest.skip("OSSUARY_CORPUS is not set")
    folder = Path(named)
    if not folder.is_dir():
        raise FileNotFoundError(f"OSSUARY_CORPUS names {folder}, which is not a folder")
    return folder
