#!/bin/sh
# How long `cuprobe explain -` takes on a 1 MB log (the target is <= 100 ms).
#
# Builds, in $TMPDIR (default /tmp), log.txt: ~1 MB of ordinary training-log
# lines (timestamps, losses, ANSI colour) with every tests/explain-corpus case
# mixed in, plus one 64 KB line; runs the tool 7 times and prints each
# wall time and the median.
# Usage: bench/explain_big.sh [CUPROBE]  (default ./cuprobe)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$here/cuprobe}
tmp=${TMPDIR:-/tmp}/cp_explain_big.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM

awk 'BEGIN {
    for (i = 0; i < 11000; i++)
        printf "\033[32m2025-03-04 10:%02d:%02d\033[0m INFO trainer.py:%d step %d loss=%.4f lr=3.0e-05 grad_norm=%.3f tokens/s=%d\n", \
            i / 60 % 60, i % 60, 100 + i % 900, i, 2.5 / (1 + i / 1000), 0.5 + i % 7 / 10, 40000 + i % 999
}' >"$tmp/noise.txt"
for f in "$here"/tests/explain-corpus/*.txt; do sed "/^# expect: /d; /^# source: /d" "$f"; done >"$tmp/signals.txt"
{
    head -n 5000 "$tmp/noise.txt"
    cat "$tmp/signals.txt"
    awk 'BEGIN { for (i = 0; i < 1024; i++) printf "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"; printf "\n" }'
    tail -n +5001 "$tmp/noise.txt"
    cat "$tmp/signals.txt"
} | head -c 1048576 >"$tmp/log.txt"
echo "log: $(wc -c <"$tmp/log.txt") bytes, $(wc -l <"$tmp/log.txt") lines"
"$tool" explain - <"$tmp/log.txt" | head -n 1
: >"$tmp/ms.txt"
for i in 1 2 3 4 5 6 7; do
    t0=$(date +%s%N)
    "$tool" explain - <"$tmp/log.txt" >/dev/null || [ $? = 4 ]
    echo $(( ($(date +%s%N) - t0) / 1000000 )) >>"$tmp/ms.txt"
done
echo "runs (ms): $(tr '\n' ' ' <"$tmp/ms.txt")"
echo "median: $(sort -n "$tmp/ms.txt" | sed -n 4p) ms"
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "peak RSS: %M kB" "$tool" explain - <"$tmp/log.txt" >/dev/null 2>"$tmp/rss.txt" || true
    tail -n 1 "$tmp/rss.txt"
fi
