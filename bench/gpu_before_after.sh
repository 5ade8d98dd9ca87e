#!/bin/sh
# A change measured on the GPU machine beside the build before it: build,
# GPU tests, level 1 against the floor with both builds in the same rounds,
# and one live snapshot taken by each build and replayed by both (the
# findings must not differ).  Writes everything under $OUT (default
# ./out-gpu).
# Usage (repo root on the GPU machine): sh bench/gpu_before_after.sh OLD_CUPROBE [N]
old=$1
n=${2:-20}
OUT=${OUT:-./out-gpu}
[ -x "$old" ] || { echo "usage: $0 OLD_CUPROBE [N]" >&2; exit 64; }
mkdir -p "$OUT"
{
    date -u; uname -r; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
    echo "== make test-gpu"; make test-gpu 2>&1 | tail -25
    echo "== level 1 vs floor, this build and $old in the same rounds, 0.3 s apart"
    SETTLE_S=0.3 bench/l1_vs_floor.sh "$n" "$old"
    echo "== the same back to back (each command may pay for the last one's teardown)"
    SETTLE_S=0 bench/l1_vs_floor.sh "$n" "$old"
    echo "== a live snapshot from each build, replayed by both"
    for who in new old; do
        tool=./cuprobe; [ $who = old ] && tool=$old
        rm -rf "/tmp/snap-$who"; "$tool" snapshot "/tmp/snap-$who" >/dev/null || echo "snapshot by $who failed"
    done
    for snap in new old; do
        ./cuprobe doctor --json --from "/tmp/snap-$snap" >"/tmp/replay-$snap-by-new.json"; a=$?
        "$old" doctor --json --from "/tmp/snap-$snap" >"/tmp/replay-$snap-by-old.json"; b=$?
        if cmp -s "/tmp/replay-$snap-by-new.json" "/tmp/replay-$snap-by-old.json"; then
            echo "snapshot by $snap build: same findings from both builds (exit $a and $b)"
        else
            echo "snapshot by $snap build: findings DIFFER (exit $a and $b)"
            diff "/tmp/replay-$snap-by-old.json" "/tmp/replay-$snap-by-new.json" | head -20
        fi
    done
    ./cuprobe -v >"$OUT/doctor.txt"; echo "doctor exit $?"
    tar czf "$OUT/snapshots.tgz" -C /tmp snap-new snap-old
} 2>&1 | tee "$OUT/run.log"
