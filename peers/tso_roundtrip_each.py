"""Run ts1-blender-io's own round trip (its tests' functions) on each file alone, and say where it differs.

    python3.11 peers/tso_roundtrip_each.py ADDON_ROOT FOLDER

The peer's tests stop at the first failing file (they map over a pool); this runs the same
functions on every .mesh and .anim under FOLDER and every .skel read, one line per file, and for
a file whose rewrite differs, the first differing byte and the sizes.
"""

import io
import pathlib
import sys


def first_difference(left: bytes, right: bytes) -> int | None:
    """Offset of the first byte that differs (or where the shorter ends), None when equal."""
    for offset, (a, b) in enumerate(zip(left, right)):
        if a != b:
            return offset
    return None if len(left) == len(right) else min(len(left), len(right))


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, str(pathlib.Path(sys.argv[1]).resolve()))
    from tests import test_anim, test_mesh  # noqa: PLC0415 -- the peer's, found through ADDON_ROOT
    from ts1_formats import anim, mesh, skel  # noqa: PLC0415

    folder = pathlib.Path(sys.argv[2])
    checks = [
        ("*.mesh", test_mesh.roundtrip_mesh, mesh.read_file, mesh.write_mesh),
        ("*.anim", test_anim.roundtrip_anim, anim.read_file, anim.write_anim),
    ]
    failures = 0
    for pattern, roundtrip, read, write in checks:
        for path in sorted(folder.rglob(pattern)):
            try:
                roundtrip(path)
                print(f"pass {path.name}")
            except Exception as exception:  # noqa: BLE001 -- the peer's failure is what we report
                failures += 1
                written = io.BytesIO()
                write(written, read(path))
                original = path.read_bytes()
                offset = first_difference(original, written.getvalue())
                print(
                    f"FAIL {path.name}: {type(exception).__name__} {exception!s:.80}; "
                    f"file {len(original)} bytes, peer writes {written.tell()}, first difference at byte {offset}",
                )
    for path in sorted(folder.rglob("*.skel")):
        try:
            skeleton = skel.read_file(path)
            print(f"pass {path.name} (read: {len(skeleton.bones)} bones)")
        except Exception as exception:  # noqa: BLE001
            failures += 1
            print(f"FAIL {path.name}: {type(exception).__name__} {exception}")
    print(f"{failures} failed")


if __name__ == "__main__":
    main()
