#!/bin/bash
# make model-pose: render frames of the wide distribution's train split
# with a die cocked against a tray wall (dicewide -cocked) and with a die
# flat against one (dicewide -walled), cut the pose crops of every die
# (cropexport -pose), add the throws of vision/testdata/rendered and
# rendered-hard and the real photos' training clips (flat dice), train the
# pose network and write vision/model/posenet.onnx (see
# vision/train/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
NCOCKED=${NCOCKED:-2400}
NWALLED=${NWALLED:-400}
JOBS=${JOBS:-2}
POSE_EPOCHS=${POSE_EPOCHS:-60}
# MODEL_DATA and MODEL_OUT: as make-model.sh's
DATA=${MODEL_DATA:-vision/train/data}/pose
OUT=${MODEL_OUT:-vision/model}
mkdir -p "$DATA" "$OUT" bin
# BUILT=1: make-model.sh, which runs this beside it, has built them
if [ -z "${BUILT:-}" ]; then
	go build -o bin/dicewide ./vision/render/cmd/dicewide
	go build -o bin/cropexport ./vision/train/cropexport
fi
. vision/train/generator.sh
. vision/train/procs.sh
gen="$(generator)"
# render: folder, flag, count, seed; the pictures of an earlier run of the
# same generator are kept (-keep: an interrupted run goes on)
render() {
	local d="$DATA/$1" want="seed=$4 n=$3 $gen"
	if [ ! -f "$d/stamp" ] || [ "$(cat "$d/stamp")" != "$want" ]; then
		rm -rf "$d"
		mkdir -p "$d"
		echo "$want" > "$d/stamp"
	fi
	run nice -n 10 bin/dicewide -kind frames "$2" -split train -n "$3" -seed "$4" -aa 0 -jobs "$JOBS" -keep -out "$d"
}
render cocked -cocked "$NCOCKED" 101
render walled -walled "$NWALLED" 201
run bin/cropexport -pose -dir "$DATA/cocked" -out "$DATA/cocked"
run bin/cropexport -pose -dir "$DATA/walled" -out "$DATA/walled"
run bin/cropexport -pose -dir vision/testdata/rendered -out "$DATA/rendered"
run bin/cropexport -pose -dir vision/testdata/rendered-hard -out "$DATA/rendered-hard"
run bin/cropexport -pose -dir vision/testdata/real -out "$DATA/real" -colour any
run nice -n 10 /usr/bin/python3 vision/train/posenet.py --out "$OUT/posenet.onnx" --epochs "$POSE_EPOCHS" --real "$DATA/real" \
	"$DATA/cocked" "$DATA/walled" "$DATA/rendered" "$DATA/rendered-hard"
sha256sum "$OUT/posenet.onnx"
