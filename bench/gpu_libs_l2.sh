#!/bin/sh
# doctor --level 2's library runs on the GPU machine: the verdict, the wall
# time of the whole of level 2 (median of N runs) beside the same run with
# every library made missing (what the libraries add, if anything, to the
# wall: they run in their own child beside the libcuda one), each library's
# file, load / init / run times and RSS as the check shows them and as the
# answers carry them, the children's peak RSS, and the cross-check that
# every library's result equalled the CPU reference.
# Writes everything under $OUT (default ./out-gpu-libs).
# Usage (repo root on the GPU machine): sh bench/gpu_libs_l2.sh [N]
n=${1:-5}
OUT=${OUT:-./out-gpu-libs}
mkdir -p "$OUT"
none="CUPROBE_LIBCUBLAS=/nonexistent/libcublas.so.13 CUPROBE_LIBCUFFT=/nonexistent/libcufft.so.12"
none="$none CUPROBE_LIBCUDNN=/nonexistent/libcudnn.so.9 CUPROBE_LIBNVRTC=/nonexistent/libnvrtc.so.13"
none="$none CUPROBE_LIBNCCL=/nonexistent/libnccl.so.2"
median() { sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
wall_times() {   # wall_times FILE [env...]: N wall times of doctor --level 2 --json, 0.3 s apart
    f=$1; shift; i=0; : >"$f"
    while [ $i -lt "$n" ]; do
        sleep 0.3
        t0=$(date +%s%N); env "$@" ./cuprobe doctor --level 2 --json >/dev/null 2>&1; t1=$(date +%s%N)
        echo $(( (t1 - t0) / 1000000 )) >>"$f"; i=$((i + 1))
    done
    echo "ms: $(sort -n "$f" | tr '\n' ' ') median $(median "$f") ms"
}
{
    date -u; uname -r; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
    echo "== the library copies a program here gets (level 1)"
    ./cuprobe doctor -v 2>&1 | sed -n '/libraries.found/,/libraries.driver/p' | grep -E 'cublas|cufft|cudnn|nvrtc|nccl' | head -12
    echo "== doctor --level 2 -v: libraries.run"
    ./cuprobe doctor --level 2 -v >"$OUT/level2.txt" 2>&1; echo "exit $?"
    sed -n '/libraries.run/,/framework.found/p' "$OUT/level2.txt" | grep -v framework.found
    ./cuprobe doctor --level 2 --json >"$OUT/level2.json" 2>&1
    echo "== cross-check: every library's result equals the CPU reference"
    grep -o '"check": "libraries.run"[^}]*"status": "[a-z]*"' "$OUT/level2.json"
    ok=$(grep -o "elements equal the CPU's" "$OUT/level2.txt" | wc -l)
    echo "libraries whose every element equals the CPU's: $ok of 5"
    grep -E "differ from the CPU's|did not finish|does not load| = [0-9]+ " "$OUT/level2.txt" | head -10
    echo "== the answers (snapshot --level 2): per library file, result, times (us), RSS (bytes)"
    rm -rf "$OUT/snap"; ./cuprobe snapshot --level 2 "$OUT/snap" >/dev/null 2>&1; echo "snapshot exit $?"
    grep -E '^libl2\.' "$OUT/snap/answers.txt" |
        grep -E '\.(path|result|call|status|status_name|ranks|elements|wrong|load_us|init_us|run_us|rss_before_bytes|rss_loaded_bytes|rss_after_bytes|hwm_after_bytes) |^libl2\.(skip|rss_start_bytes|rss_ctx_bytes|hwm_bytes|run\.maxrss_kb|run\.elapsed_ms) '
    grep -E '^cuda\.run\.maxrss_kb|^nvml\.run\.maxrss_kb' "$OUT/snap/answers.txt"
    echo "== wall time of doctor --level 2, $n runs"
    wall_times "$OUT/l2-times.txt"
    echo "== the same with every library missing (level 2 without the library runs' work)"
    # shellcheck disable=SC2086 # the variables are split on purpose
    wall_times "$OUT/l2-nolibs-times.txt" $none
    echo "== peak memory (CUPROBE_BENCH_RUSAGE)"
    CUPROBE_BENCH_RUSAGE=1 ./cuprobe doctor --level 2 --json 2>&1 >/dev/null | grep rusage
    echo "== cuprobe processes left (zombies included)"; sleep 1
    ps -eo pid=,stat=,comm= | awk '$3 == "cuprobe"'; echo "(end)"
} 2>&1 | tee "$OUT/run.log"
