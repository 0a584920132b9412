#!/bin/bash
# make model-smoke: make model's whole path, small, twice (CI runs it):
# the pictures rendered and drawn, the crops cut, both networks trained
# and exported, each run into its own temporary folder, never over the
# committed networks. It fails when a step fails, when the two runs
# write other bytes (the training is meant to be reproducible on one
# machine), when the committed networks changed, or when the reader
# cannot read a frame with the networks written. About a minute on two
# cores; the real make model is vision/train/README.md's.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
committed() { sha256sum vision/model/dicenet.onnx vision/model/posenet.onnx; }
before=$(committed)
small() {
	local t0=$SECONDS
	if ! MODEL_DATA="$tmp/$1/data" MODEL_OUT="$tmp/$1/model" NTRAIN=20 NSYNTH=20 SHARDS=2 EPOCHS=1 \
		NCOCKED=2 NWALLED=2 POSE_EPOCHS=1 POSE_BESIDE=1 vision/train/make-model.sh > "$tmp/$1.log" 2>&1; then
		echo "model-smoke: make-model.sh failed (run $1); its last lines, then the pose network's:" >&2
		tail -n 40 "$tmp/$1.log" >&2
		tail -n 20 "$tmp/$1/data/pose.log" >&2 || true
		exit 1
	fi
	echo "model-smoke: run $1 in $((SECONDS - t0)) s"
}
small a
small b
for f in dicenet posenet; do
	for r in a b; do
		if [ ! -s "$tmp/$r/model/$f.onnx" ]; then
			echo "model-smoke: run $r wrote no $f.onnx" >&2
			exit 1
		fi
	done
	if ! cmp -s "$tmp/a/model/$f.onnx" "$tmp/b/model/$f.onnx"; then
		echo "model-smoke: two runs from the same seeds wrote two $f.onnx: $(sha256sum "$tmp"/[ab]/model/$f.onnx | cut -c1-16 | tr '\n' ' ')" >&2
		echo "(the training is no longer reproducible: see vision/train/README.md, Retrain)" >&2
		exit 1
	fi
	echo "model-smoke: $f.onnx $(sha256sum "$tmp/a/model/$f.onnx" | cut -c1-16)…, the same bytes twice"
done
if [ "$before" != "$(committed)" ]; then
	echo "model-smoke: the committed networks in vision/model changed" >&2
	exit 1
fi
# the Go reader reads frames with the networks written (a network OpenCV
# cannot read, or of another input or output, is refused by the reader)
go build -o "$tmp/comptoir" ./cmd/comptoir
frames=(vision/testdata/rendered/000[0-9].jpg)
out=$("$tmp/comptoir" dice --model "$tmp/a/model/dicenet.onnx" --pose-model "$tmp/a/model/posenet.onnx" "${frames[@]}" 2> "$tmp/read.err") || {
	echo "model-smoke: comptoir dice could not read with the networks written:" >&2
	cat "$tmp/read.err" >&2
	exit 1
}
n=$(grep -c ' blue=[1-8?] red=[1-8?]$' <<< "$out" || true)
if [ "$n" -ne "${#frames[@]}" ]; then
	echo "model-smoke: comptoir dice printed $n readings for ${#frames[@]} frames:" >&2
	echo "$out" >&2
	exit 1
fi
echo "model-smoke: comptoir dice read ${#frames[@]} frames with them"
