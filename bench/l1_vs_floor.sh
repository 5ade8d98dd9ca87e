#!/bin/sh
# doctor --level 1 against the floor (bench/floor_l1.c), interleaved, on this
# machine: medians of N runs each after a warm-up, and peak RSS of both.
# Usage (repo root, after `make`): bench/l1_vs_floor.sh [N]
n=${1:-10}
cc -O2 -o bench/floor_l1 bench/floor_l1.c -ldl || exit 1
./cuprobe >/dev/null 2>&1; bench/floor_l1 >/dev/null 2>&1
i=0
while [ $i -lt "$n" ]; do
    t0=$(date +%s%N); bench/floor_l1 >/dev/null 2>&1; t1=$(date +%s%N)
    ./cuprobe --json >/dev/null 2>&1; t2=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 )) $(( (t2 - t1) / 1000 ))"
    i=$((i + 1))
done >/tmp/l1_vs_floor.$$
med() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m / 1000 }'; }
f=$(cut -d' ' -f1 /tmp/l1_vs_floor.$$ | med)
d=$(cut -d' ' -f2 /tmp/l1_vs_floor.$$ | med)
rm -f /tmp/l1_vs_floor.$$
echo "floor (dlopen + cuInit + nvmlInit): median ${f} ms over $n runs"
echo "cuprobe doctor --level 1 --json:    median ${d} ms over $n runs"
awk -v d="$d" -v f="$f" 'BEGIN { printf "ratio doctor/floor: %.3f\n", d / f }'
bench/floor_l1
CUPROBE_BENCH_RUSAGE=1 ./cuprobe --json 2>&1 >/dev/null | grep rusage
