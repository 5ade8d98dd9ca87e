#!/bin/sh
# Everything doctor --level 2, info and bench need measured on the GPU
# machine, in one call: the build, the GPU tests, level 2 (wall time, the
# PTX path, a holder), the library runs, info against nvidia-smi, bench
# beside PyTorch in the same run, and the telemetry beside nvidia-smi.  Each part's script writes its own folder;
# the whole lands in $OUT/gpu-run.tgz with the summary log beside it.
# Usage (repo root on the GPU machine): sh bench/gpu_active.sh PATH/TO/torch_anchors.py
anchors=${1:?usage: sh bench/gpu_active.sh PATH/TO/torch_anchors.py}
OUT=${OUT:-./out-gpu}
work=$(mktemp -d)
mkdir -p "$OUT"
{
    date -u; uname -r; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    make -j"$(nproc)" >"$work/build.log" 2>&1 || { echo "build failed"; tail -40 "$work/build.log"; exit 1; }
    echo "==== make test-gpu"; make test-gpu 2>&1 | grep -v '^       |' | tail -30
    echo "==== level 2"; SKIP_TEST_GPU=1 OUT=$work/level2 sh bench/gpu_level2.sh 5 | tail -60
    echo "==== level 2's libraries"; OUT=$work/libs sh bench/gpu_libs_l2.sh 5 | tail -60
    echo "==== info"; OUT=$work/info sh bench/gpu_info.sh | tail -40
    echo "==== bench beside PyTorch"; OUT=$work/bench sh bench/gpu_bench.sh "$anchors" 3 | tail -80
    echo "==== telemetry beside nvidia-smi"; OUT=$work/telemetry sh bench/gpu_telemetry.sh 20 | tail -60
    echo "==== cuprobe processes left (zombies included)"; sleep 1
    ps -eo pid=,stat=,comm= | awk '$3 == "cuprobe"'; echo "(end)"
} 2>&1 | tee "$work/summary.log"
cp "$work/summary.log" "$OUT/summary.log"
tar czf "$OUT/gpu-run.tgz" -C "$work" . 2>/dev/null
