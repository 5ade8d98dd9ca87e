#!/bin/sh
# doctor --level 1 against the floor (bench/floor_l1.c), interleaved, on this
# machine: medians of N runs each after a warm-up, and peak RSS.  Each further
# TOOL (another build of cuprobe, e.g. the one before a change) runs in the
# same rounds, so every ratio comes from the same run.  SETTLE_S: the pause
# before each command (default 0.3 s).
# Usage (repo root, after `make`): bench/l1_vs_floor.sh [N [TOOL...]]
n=${1:-10}
[ $# -gt 0 ] && shift
set -- ./cuprobe "$@"
make -s --no-print-directory bench || exit 1
floor=build/bench/floor_l1
tmp=/tmp/l1_vs_floor.$$
"$floor" >/dev/null 2>&1
for t in "$@"; do "$t" >/dev/null 2>&1; done
# One round runs the floor and every tool once, starting one later each
# round, with a pause before each command: a cuprobe returns while its
# probe children are still being torn down by the driver, and whatever runs
# next would pay for that.  Columns stay in the floor, TOOL... order.
k=$(($# + 1))
i=0
while [ $i -lt "$n" ]; do
    j=0
    while [ $j -lt $k ]; do
        slot=$(( (i + j) % k ))
        sleep "${SETTLE_S:-0.3}"
        if [ $slot -eq 0 ]; then
            t0=$(date +%s%N); "$floor" >/dev/null 2>&1; t1=$(date +%s%N)
        else
            eval "t=\${$slot}"
            t0=$(date +%s%N); "$t" --json >/dev/null 2>&1; t1=$(date +%s%N)
        fi
        eval "c$slot=$(( (t1 - t0) / 1000 ))"
        j=$((j + 1))
    done
    line=""
    j=0
    while [ $j -lt $k ]; do eval "line=\"\$line \$c$j\""; j=$((j + 1)); done
    echo "${line# }"
    i=$((i + 1))
done >"$tmp"
med() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f", m / 1000 }'; }
f=$(cut -d' ' -f1 "$tmp" | med)
echo "floor (dlopen + cuInit + nvmlInit): median ${f} ms over $n runs"
col=2
for t in "$@"; do
    d=$(cut -d' ' -f$col "$tmp" | med)
    echo "$t doctor --level 1 --json: median ${d} ms over $n runs"
    awk -v d="$d" -v f="$f" -v t="$t" 'BEGIN { printf "ratio %s/floor: %.3f\n", t, d / f }'
    col=$((col + 1))
done
rm -f "$tmp"
"$floor"
for t in "$@"; do echo "$t:"; CUPROBE_BENCH_RUSAGE=1 "$t" --json 2>&1 >/dev/null | grep rusage; done
