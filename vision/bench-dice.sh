#!/bin/bash
# make bench-dice: the dice readers' CPU time per 640x480 frame (the
# issue's budget is 4 ms), the least and the mean of N interleaved runs of
# every reader's benchmarks: on a shared machine the speed drifts from
# minute to minute, and one run of a benchmark says more about the
# minute than about the reader. The least is the nearest to the reader's
# own cost. N=5 by default.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-5}
mkdir -p bin
"${GO:-go}" test -c -o bin/vision.test ./vision
cd vision
for i in $(seq "$N"); do
	../bin/vision.test -test.run '^$' -test.bench 'Read640$|Rendered640$' -test.benchtime 300x
done | awk '
/cpu-ns\/op/ {
	name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
	v = $5 / 1e6
	if (!(name in lo) || v < lo[name]) lo[name] = v
	sum[name] += v; n[name]++
}
END {
	for (k in lo) printf "%-28s least %6.2f ms   mean %6.2f ms a frame (%d runs)\n", k, lo[k], sum[k] / n[k], n[k]
}' | sort
