#!/bin/sh
# The whole GPU-machine run for the foundation: build, GPU tests, level-1
# timing against the floor, peak RSS, a snapshot fixture, and a run as an
# ordinary user.  Writes everything under $OUT (default ./out-gpu).
# Usage (repo root on the GPU machine): sh bench/gpu_level1.sh
OUT=${OUT:-./out-gpu}
mkdir -p "$OUT"
{
    date -u; uname -r; nvidia-smi -L; cat /proc/driver/nvidia/version
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
    echo "== make test-gpu"; make test-gpu 2>&1 | tee "$OUT/gpu-tests.txt"
    echo "== level 1 vs floor"; bench/l1_vs_floor.sh 10 2>&1 | tee "$OUT/bench.txt"
    echo "== level 1 vs floor, again"; bench/l1_vs_floor.sh 10 2>&1 | tee -a "$OUT/bench.txt"
    echo "== experiment: lazy JIT-library loading (CUDA_FORCE_PRELOAD_LIBRARIES=0) for both"
    CUDA_FORCE_PRELOAD_LIBRARIES=0 bench/l1_vs_floor.sh 10 2>&1 | tee -a "$OUT/bench.txt"
    echo "== where the probes' memory goes"; make -s --no-print-directory bench &&
        for m in cuda nvml nvml-noattach; do build/bench/probe_rss $m; done | tee -a "$OUT/bench.txt"
    echo "== peers: nvidia-smi"; bench/median_ms.sh 10 nvidia-smi -q | tee -a "$OUT/bench.txt"
    bench/median_ms.sh 10 nvidia-smi --query-gpu=name,driver_version,memory.used --format=csv | tee -a "$OUT/bench.txt"
    echo "== unit and CLI tests on this machine"; make check-unit check-cli 2>&1 | grep -E "^(FAIL|[0-9]+ passed)" | tee "$OUT/tests-here.txt"
    echo "== hidden GPUs and a short deadline on the real driver"
    CUDA_VISIBLE_DEVICES=-1 ./cuprobe | sed -n '/^root cause/,/fix:/p'
    bench/median_ms.sh 5 ./cuprobe --timeout 0.05; ./cuprobe --timeout 0.05 | sed -n '/^root cause/,/fix:/p'
    ./cuprobe -v >"$OUT/doctor.txt"; echo "doctor exit $?"
    ./cuprobe --json >"$OUT/doctor.json"; echo "doctor --json exit $?"
    snap=h200-$(nvidia-smi -L | wc -l)gpu
    rm -rf "/tmp/$snap" && ./cuprobe snapshot "/tmp/$snap" && tar czf "$OUT/h200-snapshot.tgz" -C /tmp "$snap"
    echo "== as an ordinary user (uid 65534)"
    cp cuprobe /tmp/cuprobe-user && chmod 755 /tmp/cuprobe-user
    setpriv --reuid=65534 --regid=65534 --clear-groups /tmp/cuprobe-user >"$OUT/doctor-user.txt" 2>&1; echo "user exit $?"
    grep -E "root cause|healthy|xid" "$OUT/doctor-user.txt"
} 2>&1 | tee "$OUT/run.log"
