#!/bin/bash
# make model: render the wide distribution's train split, draw the cheap
# synthetic pictures (synth.py), cut the numeral crops, add the real
# photos' training clips, train the classifier and write
# vision/model/dicenet.onnx (see vision/train/README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
NTRAIN=${NTRAIN:-5000}
# synthetic pictures per shard; shard k draws pictures k*SHARD .. k*SHARD+NSYNTH-1
NSYNTH=${NSYNTH:-3200}
SHARDS=${SHARDS:-8}
SHARD=8000
JOBS=${JOBS:-2}
EPOCHS=${EPOCHS:-30}
# MODEL_DATA: where the pictures and crops go (kept between runs);
# MODEL_OUT: where the networks are written (a small run, make
# model-smoke, writes neither over the committed ones)
DATA=${MODEL_DATA:-vision/train/data}
OUT=${MODEL_OUT:-vision/model}
mkdir -p "$DATA" "$OUT" bin
. vision/train/generator.sh
go build -o bin/dicewide ./vision/render/cmd/dicewide
go build -o bin/cropexport ./vision/train/cropexport
# POSE_BESIDE=1 (make model): the pose network is made meanwhile
# (make-pose.sh, its output in $DATA/pose.log): its frames are rendered
# beside this script's pictures, whose POV-Ray processes leave their
# cores idle much of the time, and beside the classifier's training,
# which runs on one thread (so that it is reproducible). It runs at the
# lowest priority: the training can use only one core, and should never
# wait for a pose frame; the pose frames take what it leaves.
. vision/train/procs.sh
pose=
if [ -n "${POSE_BESIDE:-}" ]; then
	BUILT=1 MODEL_DATA="$DATA" MODEL_OUT="$OUT" nice -n 9 vision/train/make-pose.sh > "$DATA/pose.log" 2>&1 &
	pose=$!
fi
stamp="$DATA/crops-train/stamp"
want="seed=1 $(generator)"
# pictures of an earlier run of the same generator are kept (-keep: an
# interrupted run goes on); a changed generator renders them all again
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
	rm -rf "$DATA/crops-train"
	mkdir -p "$DATA/crops-train"
	echo "$want" > "$stamp"
fi
# twice as many POV-Ray processes as cores, in batches of 25 pictures:
# rendering a crop leaves its core idle about half the time (the same
# pictures whatever the number of processes and the batch)
run nice -n 10 bin/dicewide -kind crops -split train -n "$NTRAIN" -seed 1 -batch 25 -aa 0 -jobs $((2 * JOBS)) -keep -out "$DATA/crops-train"
# the synthetic pictures, JOBS shards drawn at once
want="seed=1 n=$NSYNTH $(cat vision/train/synth.py vision/render/wide.yaml | sha256sum | cut -c1-16)"
# started PID: a job was started in the background; once JOBS of them
# run, wait for them all (drain: a job that failed stops the script)
pids=()
started() {
	pids+=("$1")
	if [ "${#pids[@]}" -ge "$JOBS" ]; then drain; fi
}
drain() {
	local p
	for p in "${pids[@]}"; do wait "$p"; done
	pids=()
}
synth=()
for k in $(seq 0 $((SHARDS - 1))); do
	d="$DATA/synth-$k"
	synth+=("$d")
	if [ ! -f "$d/stamp" ] || [ "$(cat "$d/stamp")" != "$want" ]; then
		rm -rf "$d"
		mkdir -p "$d"
		(nice -n 10 /usr/bin/python3 vision/train/synth.py --out "$d" --n "$NSYNTH" --first $((k * SHARD)) --seed 1 && echo "$want" > "$d/stamp") &
		started $!
	fi
done
drain
# cut the crops, JOBS folders at once (a folder's crops are the same
# whatever runs beside it)
cuts=("$DATA/crops-train $DATA/train")
for d in "${synth[@]}"; do
	cuts+=("$d $d")
done
cuts+=("vision/testdata/real $DATA/real -colour any")
# the earlier renders of vision/testdata (fonts timrom and cyrvetic, of the
# train split) are training material too
cuts+=("vision/testdata/rendered $DATA/rendered" "vision/testdata/rendered-hard $DATA/rendered-hard")
for c in "${cuts[@]}"; do
	read -r -a a <<< "$c"
	bin/cropexport -dir "${a[0]}" -out "${a[1]}" "${a[@]:2}" &
	started $!
done
drain
# the POV-Ray crops of the train split are given twice: they weigh as
# much as half the synthetic pictures (the test split is POV-Ray's too,
# with other fonts and tables)
run nice -n 10 /usr/bin/python3 vision/train/dicenet.py --out "$OUT/dicenet.onnx" --epochs "$EPOCHS" --real "$DATA/real" \
	"$DATA/train" "$DATA/train" "${synth[@]}" "$DATA/rendered" "$DATA/rendered-hard"
sha256sum "$OUT/dicenet.onnx"
if [ -n "$pose" ]; then
	status=0
	wait "$pose" || status=$?
	tail -n 20 "$DATA/pose.log"
	if [ "$status" -ne 0 ]; then
		echo "make-pose.sh failed ($status): see $DATA/pose.log" >&2
		exit "$status"
	fi
fi
