"""The frame rate of a glTF asset's animations, read from the asset itself:
Blender's glTF importer turns seconds into frames at the scene's rate, so
the scene must run at the game's rate for each action to keep the game's
frame count."""

import json
import struct
from pathlib import Path


def frame_rate(glb: Path):
    """The frame rate of the first animation with two keys or more, as the
    scene's `fps` and `fps_base`, or None for an asset without animations.
    Blender's glTF importer and exporter both turn seconds into frames at
    `fps * fps_base` frames a second (not the `fps / fps_base` Blender
    plays at), so the product is the game's rate (a Sims skill of 60
    frames over 1,999 ms: 30 x 1.0005), and the game's frame k is keyed at
    Blender's frame k, both ways."""
    document = _document(glb)
    accessors = document.get("accessors", [])
    for animation in document.get("animations", []):
        for sampler in animation.get("samplers", []):
            times = accessors[sampler["input"]]
            count = times.get("count", 0)
            start, end = times.get("min", [0])[0], times.get("max", [0])[0]
            if count >= 2 and end > start:
                rate = (count - 1) / (end - start)
                whole = max(1, round(rate))
                return whole, rate / whole
    return None


def _document(glb: Path) -> dict:
    data = glb.read_bytes()
    magic, _version, _length = struct.unpack_from("<4sII", data, 0)
    if magic != b"glTF":
        raise ValueError(f"{glb} is not a binary glTF asset")
    chunk_length, chunk_type = struct.unpack_from("<I4s", data, 12)
    if chunk_type != b"JSON":
        raise ValueError(f"{glb}: its first chunk is not JSON")
    return json.loads(data[20 : 20 + chunk_length])
