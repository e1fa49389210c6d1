"""Files as values: formats, read, write, check, explain, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ossuary
from ossuary import _ossuary


def sample_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.iterdir() if path.name != "README.md")


def test_formats_name_every_family():
    names = {entry["name"] for entry in ossuary.formats()}
    for family in ("sims-cmx", "sims-skn", "sims-iff", "tso-mesh", "swg-mgn", "swg-sat",
                   "bonespro-structure", "outcast-skeleton"):
        assert family in names
    for entry in ossuary.formats():
        assert entry["encoding"] in ("binary", "text")
        assert entry["title"]


def test_every_sample_reads_and_writes_back_byte_for_byte(fixtures):
    files = sample_files(fixtures)
    assert len(files) >= 30
    for path in files:
        value = ossuary.read(path)
        assert ossuary.write(value, ossuary.identify(path)) == path.read_bytes(), path.name


def test_read_gives_the_json_model_dump_prints(fixtures):
    path = fixtures / "humanoid.mgn"
    status, out, _ = _ossuary.run(["dump", str(path)])
    assert status == 0
    assert ossuary.read(path) == json.loads(out)


def test_bytes_read_with_their_format(fixtures):
    data = (fixtures / "xskin-humanoid-L_ARM-ARM.skn").read_bytes()
    value = ossuary.read(data, format="sims-skn")
    assert value["bones"]
    assert ossuary.write(value, "sims-skn") == data


def test_an_edit_comes_back_in_the_file(fixtures):
    value = ossuary.read(fixtures / "xskin-humanoid-L_ARM-ARM.skn")
    value["name"] = "edited-arm"
    again = ossuary.read(ossuary.write(value, "sims-skn"), format="sims-skn")
    assert again["name"] == "edited-arm"


def test_a_broken_file_raises_with_its_place():
    with pytest.raises(ossuary.OssuaryError) as caught:
        ossuary.read(b"FORM\x00\x00\x00\x40SKMG", format="swg-mgn")
    error = caught.value
    assert error.file == "<bytes>"
    assert isinstance(error.byte, int)
    assert "byte" in str(error)


def test_a_text_file_error_has_line_and_column(tmp_path, fixtures):
    broken = tmp_path / "broken.cmx"
    lines = (fixtures / "humanoid.cmx").read_bytes().split(b"\r\n")
    lines[2] = b"not a number"
    broken.write_bytes(b"\r\n".join(lines))
    with pytest.raises(ossuary.OssuaryError) as caught:
        ossuary.read(broken)
    assert caught.value.file == str(broken)
    assert caught.value.line == 3
    assert caught.value.column is not None


def test_write_refuses_a_value_that_does_not_fit():
    with pytest.raises(ossuary.OssuaryError):
        ossuary.write({"not": "a skin"}, "sims-skn")


def test_check_reports_each_file(fixtures, tmp_path):
    results = ossuary.check(fixtures)
    by_name = {Path(row["path"]).name: row["result"] for row in results}
    assert by_name["humanoid.mgn"] == "ok"
    assert by_name["README.md"] == "not_supported"
    assert all(result in ("ok", "not_supported") for result in by_name.values())

    missing = ossuary.check(tmp_path / "missing.mgn")
    assert [row["result"] for row in missing] == ["failed"]


def test_explain_maps_every_byte(fixtures):
    path = fixtures / "humanoid.skt"
    mapped = ossuary.explain(path)
    assert mapped["format"] == "swg-skt"
    assert mapped["len"] == path.stat().st_size
    assert mapped["spans"]
    one = ossuary.explain(path, at=40)
    assert one["start"] <= 40 < one["end"]
    assert one["path"].startswith("SKTM/")


def test_error_of_a_command_names_the_file(tmp_path):
    with pytest.raises(ossuary.OssuaryError) as caught:
        ossuary.explain(tmp_path / "missing.skt")
    assert caught.value.file == str(tmp_path / "missing.skt")
