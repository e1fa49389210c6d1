#!/usr/bin/env bash
# Write Sims, Sims Online and Star Wars Galaxies files with ossuary, open them with the peers'
# own importers and tests (headless), and print what the peers counted. See peers/README.md.
#
#   peers/run_all.sh TS1_ADDON_ROOT SWG_ADDON_ROOT [OUT_DIR] [OSSUARY] [CORPUS]
#
# TS1_ADDON_ROOT holds ts1-blender-io's `io_scene_ts1/`, `ts1_formats/`, `tso_formats/`, `tests/`;
# SWG_ADDON_ROOT holds io_scene_swg_msh's `io_scene_swg/`. Needs python3.11 with bpy 4.2 and
# pytest, and Debian's `blender` (3.4) for the SWG mesh importer.
set -euo pipefail

ts1_addon=$(realpath "$1")
swg_addon=$(realpath "$2")
out=$(realpath -m "${3:-/tmp/ossuary-peers-run}")
ossuary=${4:-/work/main/target/debug/ossuary}
corpus=${5:-/work/shared/corpus}
peers=$(realpath "$(dirname "$0")")
python=${PYTHON:-python3.11}

rm -rf "$out"
mkdir -p "$out/retail" "$out/swg"
echo "ossuary: $("$ossuary" --version)"

echo "== 3a. ts1-blender-io's importer on converted Sims characters"
prototype=$corpus/sims1-prototype
for character in samnud adult-greet01 Ross-idle1 xskin-suit-coffeemug; do
    "$ossuary" convert "$prototype/$character.cmx" --to sims-cmx -o "$out/prototype/$character"
done
retail=$corpus/sims1
"$ossuary" convert "$retail/adult-skeleton.cmx" "$retail/xskin-b001mafit_01-PELVIS-BODY.skn" \
    "$retail/xskin-C001MA_Ross-HEAD-HEADB.skn" "$retail/xskin-hmlo-L_HAND-HANDML.skn" \
    "$retail/xskin-hmro-R_HAND-HANDMR.skn" --anim "$retail/adult-idle1.cmx" \
    "$retail/adult-walking-frantic-loop.cmx" --tone med -o "$out/retail/male.glb"
"$ossuary" convert "$retail/adult-skeleton.cmx" "$retail/B001FAFat_01.cmx" \
    "$retail/xskin-c005ma_hipster-HEAD-SPECS.skn" "$retail/xskin-hflo-L_HAND-HANDFL.skn" \
    "$retail/xskin-hfro-R_HAND-HANDFR.skn" -o "$out/retail/female.glb"
for character in male female; do
    "$ossuary" convert "$out/retail/$character.glb" --to sims-cmx --skeleton "$retail/adult-skeleton.cmx" \
        -o "$out/retail/$character"
done
# The binary formats (.bcf, .bmf) too.
"$ossuary" convert "$prototype/samnud.cmx" --to sims-bcf -o "$out/prototype-bcf"
"$ossuary" convert "$out/retail/male.glb" --to sims-bcf --skeleton "$retail/adult-skeleton.cmx" -o "$out/retail/male-bcf"
p=$out/prototype
r=$out/retail
"$python" "$peers/ts1_import.py" "$ts1_addon" \
    prototype-samnud="$p/samnud/samnud.cmx" \
    prototype-greet="$p/samnud/samnud.cmx,$p/adult-greet01/adult-greet01.cmx" \
    prototype-ross-idle="$p/samnud/samnud.cmx,$p/Ross-idle1/Ross-idle1.cmx" \
    prototype-coffeemug="$p/samnud/samnud.cmx,$p/xskin-suit-coffeemug/xskin-suit-coffeemug.cmx" \
    retail-original="$retail/adult-skeleton.cmx,$retail/B001FAFat_01.cmx,$retail/C002FC_Lisa.cmx,$retail/adult-idle1.cmx,$retail/adult-walking-frantic-loop.cmx" \
    retail-male-from-glb="$retail/adult-skeleton.cmx,$r/male/b001mafit_01.cmx,$r/male/c001ma_ross.cmx,$r/male/hmlo.cmx,$r/male/hmro.cmx,$r/male/adult-idle1.cmx,$r/male/adult-walking-frantic-loop.cmx" \
    retail-female-from-glb="$retail/adult-skeleton.cmx,$r/female/B001FAFat_01.cmx,$r/female/c005ma_hipster.cmx,$r/female/hflo.cmx,$r/female/hfro.cmx" \
    prototype-samnud-bcf="$out/prototype-bcf/samnud.bcf" \
    retail-male-bcf-from-glb="$retail/adult-skeleton.cmx,$r/male-bcf/b001mafit_01.bcf,$r/male-bcf/c001ma_ross.bcf,$r/male-bcf/hmlo.bcf,$r/male-bcf/hmro.bcf,$r/male-bcf/adult-idle1.bcf,$r/male-bcf/adult-walking-frantic-loop.bcf" \
    2>"$out/ts1_import.stderr" | tee "$out/ts1_import.jsonl"

echo "== 3b. ts1-blender-io's TSO format tests on files ossuary wrote"
"$peers/tso_tests.sh" "$ts1_addon" "$ossuary" "$corpus" 2>&1 | tee "$out/tso_tests.log" |
    grep -E "^(ossuary:|==|pass|FAIL|FAILED|[0-9]+ (passed|failed))"

echo "== 3c. io_scene_swg_msh's importers on SWG files ossuary wrote from glTF"
swg=$corpus/swg/appearance
"$ossuary" convert "$swg/twk_f.sat" -o "$out/swg/twk_f.glb"
"$ossuary" convert "$out/swg/twk_f.glb" --to swg-sat --skeleton "$swg/twk_f.sat" -o "$out/swg/back"
"$ossuary" convert "$out/swg/twk_f.glb" --to swg-sat --write-skeleton -o "$out/swg/back-skt"
b=$out/swg
blender -b --factory-startup --python "$peers/swg_import.py" -- "$swg_addon" \
    original-mgn="$swg/mesh/twk_f_body_l0.mgn,$swg/mesh/twk_f_head_l0.mgn" \
    ossuary-mgn="$b/back/appearance/mesh/twk_f_body_l0.mgn,$b/back/appearance/mesh/twk_f_head_l0.mgn" \
    ossuary-lmg-sat="$b/back/appearance/mesh/twk_f_body.lmg,$b/back/appearance/twk_f.sat" \
    >"$out/swg_mgn.log" 2>&1
grep '^PEER_RESULT ' "$out/swg_mgn.log" | sed 's/^PEER_RESULT //'
"$python" "$peers/swg_import.py" "$swg_addon" \
    original-skt="$swg/skeleton/all_b.skt,$swg/skeleton/hum_f_face.skt" \
    ossuary-skt="$b/back-skt/appearance/skeleton/twk_f.skt" \
    >"$out/swg_skt.log" 2>&1
grep -E '^(PEER_RESULT |ERROR)' "$out/swg_skt.log" | sed 's/^PEER_RESULT //'
echo "== outputs and logs in $out"
