#!/usr/bin/env bash
# Run ts1-blender-io's own format tests (test_mesh.py, test_anim.py, test_skel.py: read, write,
# re-read, same size) on The Sims Online files that ossuary wrote.
#
#   peers/tso_tests.sh ADDON_ROOT [OSSUARY] [CORPUS]
#
# ADDON_ROOT holds the add-on's `tests/` and the package they import, `ts1_formats/` (which holds
# The Sims Online's readers too: `mesh.py`, `anim.py`, `skel.py`). Every .mesh, .anim and .skel
# under the corpus's `tso/` folder (and ossuary's own .skel fixture) is decoded with `ossuary dump`
# and written again with `ossuary encode`; the copies go to a fresh folder, which the peer's tests
# then read with --files-directory. The originals are tested too, so a failure on a copy can be
# told from one the peer has on the game's own files.
#
# Exits 0 when every copy is byte for byte its original and the peer's results on the copies are
# its results on the originals (the peer fails some of the game's own files: see README.md).
set -euo pipefail

addon_root=$(realpath "$1")
repository=$(realpath "$(dirname "$0")/..")
ossuary=${2:-$repository/target/debug/ossuary}
corpus=${3:-$repository/../shared/corpus}
python=${PYTHON:-python3.11}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/original" "$work/written"
differences=0

# Files named like the game's keep their names; encode picks the format by the name given.
copy_through_ossuary() {
    local input=$1 format=$2
    local name
    name=$(basename "$input")
    cp "$input" "$work/original/$name"
    "$ossuary" dump "$input" >"$work/$name.json"
    "$ossuary" encode "$work/$name.json" --format "$format" -o "$work/written/$name"
    if cmp -s "$input" "$work/written/$name"; then
        echo "ossuary: $name written again byte for byte"
    else
        echo "ossuary: $name written again DIFFERS from the original"
        differences=$((differences + 1))
    fi
}

while IFS= read -r -d '' file; do copy_through_ossuary "$file" tso-mesh; done \
    < <(find "$corpus/tso" -name '*.mesh' -print0)
while IFS= read -r -d '' file; do copy_through_ossuary "$file" tso-anim; done \
    < <(find "$corpus/tso" -name '*.anim' -print0)
copy_through_ossuary "$repository/tests/fixtures/humanoid.skel" tso-skel

for folder in original written; do
    echo "== ts1-blender-io tests on the $folder files: $(find "$work/$folder" -type f | wc -l) files"
    (cd "$addon_root" && "$python" -m pytest -q -p no:cacheprovider tests/test_mesh.py tests/test_anim.py \
        tests/test_skel.py --files-directory "$work/$folder") >"$work/$folder.pytest" 2>&1 || true
    tail -n 1 "$work/$folder.pytest"
    echo "== the same round trip on each $folder file alone"
    "$python" "$repository/peers/tso_roundtrip_each.py" "$addon_root" "$work/$folder" | tee "$work/$folder.each"
done

if ! cmp -s "$work/original.each" "$work/written.each"; then
    echo "== the peer's round trip differs between the originals and ossuary's copies:"
    diff "$work/original.each" "$work/written.each" || true
    differences=$((differences + 1))
fi
echo "== done: $differences difference(s) between the originals and ossuary's copies"
[ "$differences" -eq 0 ]
