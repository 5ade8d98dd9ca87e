#!/bin/sh
# Wall time of a command, N runs after one warm-up: prints min/median/max in ms.
# Usage: bench/median_ms.sh N CMD [ARGS...]   (output of CMD is discarded)
n=$1; shift
"$@" >/dev/null 2>&1
i=0
while [ $i -lt "$n" ]; do
    t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
    i=$((i + 1))
done | sort -n | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "runs=%d min=%.2fms median=%.2fms max=%.2fms\n", NR, v[1] / 1000, m / 1000, v[NR] / 1000 }'
