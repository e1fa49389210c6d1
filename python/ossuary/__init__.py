"""Read, write, check, pose and convert the character files of late-1990s
games: The Sims (and its 1998 prototype), The Sims Online, Star Wars
Galaxies, BonesPro exports from 3ds Max, Outcast.

A thin layer over ossuary's Rust crates: files are read as the ``ossuary``
command reads them, values are the JSON model ``ossuary dump`` prints (and
``ossuary encode`` takes back, byte for byte), ``check``, ``explain`` and
the glTF conversions run the command line itself, and a character's rig
comes as NumPy arrays.

>>> import ossuary
>>> skin = ossuary.read("xskin-b001mafit_01-PELVIS-BODY.skn")   # doctest: +SKIP
>>> print(skin["bones"])                                          # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Iterable, Sequence, Union

import numpy as np

from . import _ossuary
from ._ossuary import OssuaryError

__all__ = [
    "OssuaryError",
    "Character",
    "Clip",
    "Joints",
    "Pose",
    "Skin",
    "character",
    "check",
    "dressing",
    "explain",
    "formats",
    "from_gltf",
    "identify",
    "read",
    "to_gltf",
    "write",
]

PathLike = Union[str, "os.PathLike[str]"]
Source = Union[PathLike, bytes, bytearray, memoryview]


def formats() -> list[dict[str, Any]]:
    """Every format ossuary reads: ``name`` (what ``format=`` takes),
    ``title``, ``extensions`` and ``encoding`` (``binary`` or ``text``)."""
    return _ossuary.formats()


def _data_and_name(source: Source) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>"
    path = Path(source)
    return path.read_bytes(), str(path)


def identify(source: Source, format: str | None = None) -> str:
    """The name of the format ``source`` (a path, or bytes) is in, as its
    name or its bytes show it."""
    data, name = _data_and_name(source)
    found, _ = _ossuary.decode(data, name, format)
    return found


def read(source: Source, format: str | None = None) -> Any:
    """The file ``source`` (a path, or its bytes) decoded: the JSON model
    ``ossuary dump`` prints, as dicts, lists, strings and numbers.
    ``format`` names the format when the name and bytes do not tell it
    (always for bytes whose content says nothing).

    Raises :class:`OssuaryError` with the file, the byte (or line and
    column) and the field where the file is wrong."""
    data, name = _data_and_name(source)
    _, text = _ossuary.decode(data, name, format)
    return json.loads(text)


def write(value: Any, format: str) -> bytes:
    """The file ``value`` (as :func:`read` gives it) describes, in
    ``format``: ``write(read(f), fmt)`` gives ``f``'s bytes back."""
    return _ossuary.encode(json.dumps(value, ensure_ascii=False, allow_nan=False), format)


_PLACE = re.compile(
    r"^(?:byte (?P<byte>\d+)|line (?P<line>\d+):(?P<column>\d+)): (?:(?P<path>[^ :]+): )?"
)


def _command(*args: str) -> bytes:
    """Runs the command line in process: its standard output, or an
    :class:`OssuaryError` with its sentence."""
    status, out, err = _ossuary.run([os.fspath(arg) for arg in args])
    if status == 0:
        return out
    raise _command_error(err, args)


def _command_error(err: bytes, args: Sequence[str]) -> OssuaryError:
    """The command's sentence as an :class:`OssuaryError`: the file is the
    argument the sentence starts with (names may hold ``: ``), then the
    byte or line:column and the field path when the sentence gives them."""
    lines = err.decode("utf-8", "replace").strip().splitlines()
    sentences = [line.removeprefix("ossuary: ") for line in lines]
    first = next((line for line in sentences if not line.startswith("warning:")), "")
    if not first:
        first = "\n".join(sentences) or "the command failed"
    file = next((arg for arg in args if first.startswith(f"{arg}: ")), None)
    rest = first[len(file) + 2 :] if file else first
    place = _PLACE.match(rest)
    number = lambda name: int(place[name]) if place and place[name] else None  # noqa: E731
    return _error(
        first,
        file=file,
        byte=number("byte"),
        line=number("line"),
        column=number("column"),
        path=place["path"] if place else None,
    )


def _error(message: str, **place: Any) -> OssuaryError:
    """An :class:`OssuaryError` with every attribute the native ones have."""
    error = OssuaryError(message)
    for name in ("file", "byte", "line", "column", "path"):
        setattr(error, name, place.get(name))
    return error


def _warnings(err: bytes) -> list[str]:
    return [
        line.removeprefix("ossuary: warning: ")
        for line in err.decode("utf-8", "replace").splitlines()
        if line.startswith("ossuary: warning: ")
    ]


def check(path: PathLike) -> list[dict[str, Any]]:
    """Decodes and re-encodes a file, or every file under a folder, as
    ``ossuary check`` does: one dict per file with its ``path``,
    ``format`` and ``result`` (``ok``, ``differs`` with the first differing
    ``offset`` or ``line``, ``failed`` with its ``error``, or
    ``not_supported``). A file that cannot be read is a ``failed`` row,
    as the command reports it."""
    status, out, err = _ossuary.run(["check", "--json", os.fspath(path)])
    rows = [json.loads(line) for line in out.decode("utf-8").splitlines() if line.strip()]
    results = [row for row in rows if "summary" not in row]
    if status == 2 or not results:
        raise _command_error(err, ["check", os.fspath(path)])
    return results


def explain(path: PathLike, at: int | None = None) -> dict[str, Any]:
    """The byte map of a file, as ``ossuary explain --json`` gives it:
    ``format``, ``len`` and ``spans``, every value's bytes (lines for
    text), field path, type and value. With ``at``, the one span holding
    that byte (``path``, ``type``, ``start``, ``end``, ``value``)."""
    args = ["explain", "--json", os.fspath(path)]
    if at is not None:
        args += ["--at", str(at)]
    return json.loads(_command(*args))


def to_gltf(
    inputs: Sequence[PathLike] | PathLike,
    out: PathLike,
    anim: Sequence[PathLike] | PathLike = (),
    skill: Sequence[str] = (),
    lod: int = 0,
    tone: str | None = None,
    blend: dict[str, float] | None = None,
    custom: dict[str, int] | None = None,
) -> list[str]:
    """A character as one glTF 2.0 asset (``.glb`` or ``.gltf`` by
    ``out``'s extension), as ``ossuary convert`` makes it: the first input
    with a skeleton poses the meshes of every input, with the animations of
    the ``anim`` files (those ``skill`` names, or every one). Returns the
    warnings."""
    args = ["convert", *_paths(inputs), "-o", os.fspath(out), "--lod", str(lod)]
    for file in _paths(anim):
        args += ["--anim", file]
    for name in skill:
        args += ["--skill", name]
    if tone is not None:
        args += ["--tone", tone]
    for name, weight in (blend or {}).items():
        args += ["--blend", f"{name}={weight!r}"]
    for name, index in (custom or {}).items():
        args += ["--custom", f"{name}={index}"]
    return _run_for_warnings(args)


def from_gltf(
    path: PathLike,
    to: str,
    out: PathLike,
    skeleton: PathLike | None = None,
    write_skeleton: bool = False,
) -> list[str]:
    """A glTF asset back into a game's files in the folder ``out``, as
    ``ossuary convert IN --to TO`` writes them (``to``: ``sims-cmx``,
    ``sims-bcf`` or ``swg-sat``). Returns the warnings."""
    args = ["convert", os.fspath(path), "--to", to, "-o", os.fspath(out)]
    if skeleton is not None:
        args += ["--skeleton", os.fspath(skeleton)]
    if write_skeleton:
        args.append("--write-skeleton")
    return _run_for_warnings(args)


def _paths(paths: Sequence[PathLike] | PathLike) -> list[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(path) for path in paths]


def _run_for_warnings(args: list[str]) -> list[str]:
    status, _, err = _ossuary.run(args)
    if status != 0:
        raise _command_error(err, args)
    return _warnings(err)


def dressing(path: PathLike) -> list[str]:
    """The files ``ossuary view`` dresses the character ``path`` names
    with when it opens it: its own meshes and, from its folder, the default
    outfit (a Sims skeleton: a body, a head of the body's sex and hands; a
    TSO skeleton: its appearances)."""
    return [str(found) for found in _ossuary.dressing(Path(path))]


def _matrices(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype="<f4").reshape(-1, 4, 4)


class Joints:
    """A skeleton: ``names``, ``parents`` (int32, -1 for a root), ``rest``
    (each joint's rest transform relative to its parent) and ``model``
    (each joint's rest transform in model space), both float32 arrays of
    shape (joints, 4, 4) acting on column vectors (``m @ [x, y, z, 1]``),
    in the file's own axes (``axes``)."""

    def __init__(self, native: Any) -> None:
        self.names: list[str] = native.joint_names()
        self.parents = np.frombuffer(native.parents(), dtype="<i4")
        self.rest = _matrices(native.rest_locals())
        self.model = _matrices(native.rest_model())
        self.axes: str = native.axes()

    def __len__(self) -> int:
        return len(self.names)


class Skin:
    """A mesh at rest in model space: ``positions`` and ``normals``
    (float32, (vertices, 3)), ``uvs`` (float32, (vertices, 2), v counted
    from the top of the image, as glTF counts it), ``triangles`` (uint32,
    (triangles, 3)), ``joints`` (int32 indices into the skeleton, -1 for
    none) and ``weights`` (float32), both (vertices, k), and
    ``blend_targets`` (name to float32 offsets, (vertices, 3))."""

    def __init__(self, native: dict[str, Any]) -> None:
        count = native["vertices"]
        self.name: str = native["name"]
        self.file: str = native["file"]
        self.texture: str | None = native["texture"]
        self.positions = np.frombuffer(native["positions"], dtype="<f4").reshape(count, 3)
        self.normals = np.frombuffer(native["normals"], dtype="<f4").reshape(-1, 3)
        self.uvs = np.frombuffer(native["uvs"], dtype="<f4").reshape(-1, 2)
        self.triangles = np.frombuffer(native["triangles"], dtype="<u4").reshape(-1, 3)
        width = native["width"]
        self.joints = np.frombuffer(native["joints"], dtype="<i4").reshape(count, width)
        self.weights = np.frombuffer(native["weights"], dtype="<f4").reshape(count, width)
        self.blend_targets = {
            name: np.frombuffer(offsets, dtype="<f4").reshape(count, 3)
            for name, offsets in native["blend_targets"].items()
        }


class Clip:
    """An animation: its ``name``, each frame's time in seconds
    (``times``, float32), its frame count (``len``) and, computed when
    first asked, ``transforms``: each frame's joint model matrices,
    float32 (frames, joints, 4, 4)."""

    def __init__(self, native: Any, index: int, name: str, times: bytes, frames: int) -> None:
        self._native = native
        self._transforms: np.ndarray | None = None
        self.index = index
        self.name = name
        self.times = np.frombuffer(times, dtype="<f4")
        self.frames = frames

    def __len__(self) -> int:
        return self.frames

    @property
    def transforms(self) -> np.ndarray:
        if self._transforms is None:
            models = [self._native.pose(self.index, frame)[0] for frame in range(self.frames)]
            self._transforms = np.stack([_matrices(model) for model in models])
        return self._transforms


class Pose:
    """A posed character: ``model`` (each joint's model matrix, float32
    (joints, 4, 4)) and, per skin, its deformed ``positions`` and
    ``normals`` (float32, (vertices, 3))."""

    def __init__(self, model: bytes, skins: list[tuple[bytes, bytes]]) -> None:
        self.model = _matrices(model)
        self.positions = [np.frombuffer(p, dtype="<f4").reshape(-1, 3) for p, _ in skins]
        self.normals = [np.frombuffer(n, dtype="<f4").reshape(-1, 3) for _, n in skins]


class Character:
    """A skeleton (``joints``), its meshes (``skins``) and animations
    (``clips``), as :func:`character` reads them; :meth:`pose` poses it."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self.joints = Joints(native)
        self.skins = [Skin(skin) for skin in native.skins()]
        self.clips = [Clip(native, index, *clip) for index, clip in enumerate(native.clips())]

    def pose(self, frame: int = 0, clip: int | str | Clip | None = None) -> Pose:
        """The character at ``frame`` (from 0) of ``clip`` (an index, a
        name or a :class:`Clip`; the first clip when there is one and none
        is named), or at rest when it has none."""
        return Pose(*self._native.pose(self._clip_index(clip), frame))

    def transforms(self, clip: int | str | Clip | None = None) -> np.ndarray:
        """Every frame of ``clip`` (as :meth:`pose` names one): each
        joint's model matrix, float32 (frames, joints, 4, 4)."""
        index = self._clip_index(clip)
        if index is None:
            return self.joints.model[np.newaxis].copy()
        return self.clips[index].transforms

    def _clip_index(self, clip: int | str | Clip | None) -> int | None:
        if isinstance(clip, Clip):
            return clip.index
        if isinstance(clip, str):
            for known in self.clips:
                if known.name == clip:
                    return known.index
            names = ", ".join(known.name for known in self.clips)
            raise _error(f"no clip is named {clip!r}; the character has: {names}")
        if clip is None:
            return 0 if self.clips else None
        return clip


def character(
    inputs: Sequence[PathLike] | PathLike,
    anim: PathLike | None = None,
    skill: str | None = None,
    lod: int = 0,
    format: str | None = None,
) -> Character:
    """The character of ``inputs``: the skeleton of the first that has one,
    the meshes of every one (level of detail ``lod``, 0 the most detailed),
    the animations of ``anim`` (every one, or the one ``skill`` names)."""
    native = _ossuary.character(
        [Path(path) for path in _paths(inputs)],
        Path(anim) if anim is not None else None,
        skill,
        lod,
        format,
    )
    return Character(native)

