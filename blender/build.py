"""Builds the Blender extension's zip with the ossuary wheel inside, as
Blender's own `extension build` lays it out:

    python blender/build.py --wheel dist/ossuary-*.whl -o ossuary-blender.zip
"""

import argparse
import zipfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "ossuary_blender"


def build(wheel: Path, out: Path) -> None:
    manifest = (SOURCE / "blender_manifest.toml").read_text()
    if "./wheels/WHEEL" not in manifest:
        raise SystemExit("blender_manifest.toml must name its wheel ./wheels/WHEEL")
    manifest = manifest.replace("./wheels/WHEEL", f"./wheels/{wheel.name}")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("blender_manifest.toml", manifest)
        for path in sorted(SOURCE.glob("*.py")):
            archive.write(path, path.name)
        archive.write(wheel, f"wheels/{wheel.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, required=True)
    parser.add_argument("-o", "--output", type=Path, required=True)
    arguments = parser.parse_args()
    build(arguments.wheel, arguments.output)


if __name__ == "__main__":
    main()
