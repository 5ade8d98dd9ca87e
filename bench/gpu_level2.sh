#!/bin/sh
# doctor --level 2 on the GPU machine, in one run: build, the GPU tests,
# level 2 verbose, its wall time (median of N runs, each after a pause), the
# PTX path (CUDA_FORCE_PTX_JIT=1 makes the driver JIT the embedded PTX
# instead of loading the SASS), a second process holding most of the GPU's
# memory (must be named), and the peak memory of cuprobe and its probes.
# Writes everything under $OUT (default ./out-gpu).
# Usage (repo root on the GPU machine): sh bench/gpu_level2.sh [N]
n=${1:-5}
OUT=${OUT:-./out-gpu}
mkdir -p "$OUT"
py=$(command -v python3)
{
    date -u; uname -r; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
    [ -n "$SKIP_TEST_GPU" ] || { echo "== make test-gpu"; make test-gpu 2>&1 | grep -v '^       |' | tail -30; }
    echo "== doctor --level 2 -v"
    ./cuprobe doctor --level 2 -v >"$OUT/level2.txt" 2>&1; echo "exit $?"
    sed -n '/^findings/,$p' "$OUT/level2.txt" | grep -i -A3 'level\|compute\|context\|overlap\|headroom\|copy\|rate\|stream' | head -60
    ./cuprobe doctor --level 2 --json >"$OUT/level2.json" 2>&1
    echo "== wall time of doctor --level 2, $n runs, 0.3 s apart"
    i=0; : >"$OUT/l2-times.txt"
    while [ $i -lt "$n" ]; do
        sleep 0.3
        t0=$(date +%s%N); ./cuprobe doctor --level 2 --json >/dev/null 2>&1; t1=$(date +%s%N)
        echo $(( (t1 - t0) / 1000000 )) >>"$OUT/l2-times.txt"; i=$((i + 1))
    done
    echo "ms: $(sort -n "$OUT/l2-times.txt" | tr '\n' ' ')"
    echo "median: $(sort -n "$OUT/l2-times.txt" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }') ms"
    echo "== peak memory (CUPROBE_BENCH_RUSAGE)"
    CUPROBE_BENCH_RUSAGE=1 ./cuprobe doctor --level 2 --json 2>&1 >/dev/null | grep rusage
    CUPROBE_BENCH_RUSAGE=1 ./cuprobe doctor --level 1 --json 2>&1 >/dev/null | grep rusage
    echo "== the embedded PTX through the driver's JIT (CUDA_FORCE_PTX_JIT=1)"
    CUDA_FORCE_PTX_JIT=1 ./cuprobe doctor --level 2 -v >"$OUT/level2-ptx.txt" 2>&1; echo "exit $?"
    grep -E "^root cause|^healthy|FAIL|WARN" "$OUT/level2-ptx.txt" | head -10
    echo "== a second process holding most of the GPU's memory"
    if [ -n "$py" ] && "$py" -c 'import torch' 2>/dev/null; then
        "$py" -c 'import torch, time, sys
free, total = torch.cuda.mem_get_info()
x = torch.empty(int(free * 0.92), dtype=torch.uint8, device="cuda")
print("holder: %d MiB of %d MiB" % (x.numel() >> 20, total >> 20), flush=True)
time.sleep(40)' >"$OUT/holder.txt" 2>&1 &
        holder=$!
        k=0; while [ $k -lt 60 ] && ! grep -q holder "$OUT/holder.txt"; do sleep 0.5; k=$((k + 1)); done
        cat "$OUT/holder.txt"; echo "holder pid $holder"
        ./cuprobe doctor --level 2 -v >"$OUT/level2-held.txt" 2>&1; echo "exit $?"
        grep -E "^root cause|fix:|$holder|python" "$OUT/level2-held.txt" | head -12
        kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
    else
        echo "no python3 with torch: skipped"
    fi
    echo "== cuprobe processes left (zombies included)"; sleep 1
    ps -eo pid=,stat=,comm= | awk '$3 == "cuprobe"'; echo "(end)"
} 2>&1 | tee "$OUT/run.log"
