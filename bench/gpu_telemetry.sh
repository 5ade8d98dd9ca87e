#!/bin/sh
# Telemetry on the GPU machine, in one run: `cuprobe monitor` beside
# `nvidia-smi --query-gpu` for the same fields, on GPU 0, during a GEMM loop
# (kernel-active ~100 %, SM activity > 80 % expected) and during a loop of
# single-thread kernels (torch.cuda._sleep: one block on one SM; kernel-active
# ~100 %, SM activity < 10 % expected); the cost of a tick on the real NVML
# (the JSON lines' tick_seconds); the exporter's scrape time (200 scrapes,
# median and p99) beside the time of a whole `nvidia-smi --query-gpu` process
# for the same fields (median of 20 runs), its RSS and its CPU time at one
# scrape a second; top's screen during each loop (with tmux); the device's
# sample period behind kernel-active (kernel_active_period_seconds).
# Writes everything under $OUT (default ./out-gpu); summary.txt sums it up.
# Usage (repo root on the GPU machine): sh bench/gpu_telemetry.sh [SECONDS]
secs=${1:-20}
OUT=${OUT:-./out-gpu}
mkdir -p "$OUT"
py=$(command -v python3)
smi_fields=index,utilization.gpu,utilization.memory,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,pcie.link.gen.current,clocks_event_reasons.active
mon_fields=kernel_active_percent,kernel_active_period_seconds,kernel_active_samples,memory_active_percent,sm_active_percent,sm_occupancy_percent,tensor_active_percent,dram_bandwidth_percent,sm_clock_hertz,sm_clock_max_hertz,memory_clock_hertz,power_watts,temperature_celsius,pcie_link_generation

# side_by_side NAME: monitor and nvidia-smi for $secs s, both at 1 s
side_by_side() {
    nvidia-smi --query-gpu=$smi_fields --format=csv -i 0 -l 1 >"$OUT/$1-smi.csv" 2>&1 &
    smi=$!
    ./cuprobe monitor --interval 1 --count "$secs" --fields "$mon_fields" >"$OUT/$1-monitor.csv" 2>"$OUT/$1-monitor.err"
    kill "$smi" 2>/dev/null; wait "$smi" 2>/dev/null
}

# load NAME: a python3+torch loop on GPU 0 in the background; sets load
load() {
    case $1 in
    gemm) code='import torch, time
a = torch.randn(8192, 8192, device="cuda", dtype=torch.float16); b = torch.randn_like(a)
print("gemm loop", flush=True)
end = time.time() + float(__import__("sys").argv[1])
while time.time() < end:
    for _ in range(20): c = a @ b
    torch.cuda.synchronize()' ;;
    tiny) code='import torch, time
torch.zeros(1, device="cuda")
print("tiny-kernel loop", flush=True)
end = time.time() + float(__import__("sys").argv[1])
while time.time() < end:
    for _ in range(100): torch.cuda._sleep(2000000)   # one thread spinning ~1 ms
    torch.cuda.synchronize()' ;;
    esac
    CUDA_VISIBLE_DEVICES=0 "$py" -c "$code" $((secs + 8)) >"$OUT/$1-load.txt" 2>&1 &
    load=$!
    k=0; while [ $k -lt 120 ] && ! grep -q loop "$OUT/$1-load.txt"; do sleep 0.5; k=$((k + 1)); done
    sleep 2   # past the first samples' warm-up
}

# median of column COL (by header name) of a CSV for GPU 0
median_col() {
    awk -F, -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) { h = $i; gsub(/^ +| +$/, "", h); if (h == col) c = i }; next }
        c && ($2 == "0" || $1 == "0") { v = $c; gsub(/[^0-9.]/, "", v); if (v != "") print v }' "$1" |
        sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "n/a" }'
}

{
    date -u; uname -r; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
    echo "== monitor --list-fields"; ./cuprobe monitor --list-fields
    echo "== idle, 5 samples, JSON lines (tick cost on the real NVML)"
    ./cuprobe monitor --interval 1 --count 5 --format jsonl >"$OUT/idle.jsonl" 2>"$OUT/idle.err"
    cat "$OUT/idle.err"
    echo "tick_seconds: $(sed -n 's/.*"tick_seconds": \([0-9.]*\).*/\1/p' "$OUT/idle.jsonl" | tr '\n' ' ')"
    echo "kernel_active_period_seconds (GPU 0, each tick): $(sed -n 's/.*"gpu": 0,[^}]*"kernel_active_period_seconds": \([0-9.e-]*\|null\).*/\1/p' "$OUT/idle.jsonl" | tr '\n' ' ')"
    echo "kernel_active_samples (GPU 0, each tick): $(sed -n 's/.*"gpu": 0,[^}]*"kernel_active_samples": \([0-9]*\|null\).*/\1/p' "$OUT/idle.jsonl" | tr '\n' ' ')"
    if [ -n "$py" ] && "$py" -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
        for w in gemm tiny; do
            echo "== $w loop: monitor beside nvidia-smi, $secs s"
            load $w
            side_by_side $w
            if command -v tmux >/dev/null 2>&1; then   # top's screen while the load still runs
                tmux -S "$OUT/tmux.sock" new-session -d -s top -x 110 -y 30 "./cuprobe top; sleep 30"
                sleep 4
                tmux -S "$OUT/tmux.sock" capture-pane -p -t top >"$OUT/$w-top.txt"
                tmux -S "$OUT/tmux.sock" kill-server
                echo "$w: top's screen in $OUT/$w-top.txt"; head -8 "$OUT/$w-top.txt"
            fi
            kill "$load" 2>/dev/null; wait "$load" 2>/dev/null
            cat "$OUT/$w-monitor.err"
            echo "$w: cuprobe kernel_active_period_seconds median $(median_col "$OUT/$w-monitor.csv" kernel_active_period_seconds)," \
                 "kernel_active_samples a tick $(median_col "$OUT/$w-monitor.csv" kernel_active_samples)"
            echo "$w: cuprobe kernel_active_percent median $(median_col "$OUT/$w-monitor.csv" kernel_active_percent)," \
                 "sm_active_percent $(median_col "$OUT/$w-monitor.csv" sm_active_percent)," \
                 "sm_occupancy_percent $(median_col "$OUT/$w-monitor.csv" sm_occupancy_percent)," \
                 "tensor_active_percent $(median_col "$OUT/$w-monitor.csv" tensor_active_percent)," \
                 "dram_bandwidth_percent $(median_col "$OUT/$w-monitor.csv" dram_bandwidth_percent)"
            echo "$w: nvidia-smi utilization.gpu median $(median_col "$OUT/$w-smi.csv" 'utilization.gpu [%]')," \
                 "utilization.memory $(median_col "$OUT/$w-smi.csv" 'utilization.memory [%]')," \
                 "clocks.sm $(median_col "$OUT/$w-smi.csv" 'clocks.sm [MHz]') MHz," \
                 "power.draw $(median_col "$OUT/$w-smi.csv" 'power.draw [W]') W"
            echo "$w: cuprobe sm_clock $(median_col "$OUT/$w-monitor.csv" sm_clock_hertz) Hz," \
                 "power $(median_col "$OUT/$w-monitor.csv" power_watts) W"
        done
    else
        echo "no python3 with torch and a GPU: the two loops are skipped"
    fi
    echo "== exporter: 200 scrapes, RSS, CPU at one scrape a second for 60 s"
    port=19400
    ./cuprobe exporter --listen 127.0.0.1:$port >"$OUT/exporter.log" 2>&1 &
    ex=$!
    k=0; while [ $k -lt 100 ] && ! grep -q serving "$OUT/exporter.log"; do sleep 0.1; k=$((k + 1)); done
    if [ -n "$py" ]; then
        "$py" - "$port" <<'PY' | tee "$OUT/scrape.txt"
import sys, time, urllib.request
url = "http://127.0.0.1:%s/metrics" % sys.argv[1]
t = []
for _ in range(200):
    s = time.perf_counter(); body = urllib.request.urlopen(url).read(); t.append(time.perf_counter() - s)
t.sort()
print("scrape: %d bytes, median %.3f ms, p99 %.3f ms (urllib client, sequential)"
      % (len(body), t[100] * 1e3, t[198] * 1e3))
PY
        cpu0=$(awk '{print $14 + $15}' /proc/$ex/stat)
        "$py" -c 'import sys, time, urllib.request
for _ in range(60):
    urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1]).read(); time.sleep(1)' $port
        cpu1=$(awk '{print $14 + $15}' /proc/$ex/stat)
        hz=$(getconf CLK_TCK)
        echo "exporter CPU over 60 s at 1 scrape/s: $(( (cpu1 - cpu0) * 1000 / hz )) ms" \
             "($(awk -v c=$((cpu1 - cpu0)) -v hz="$hz" 'BEGIN { printf "%.2f", c / hz / 60 * 100 }') % of one core)"
        curl -s "http://127.0.0.1:$port/metrics" >"$OUT/metrics.txt" 2>/dev/null ||
            "$py" -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1]).read().decode())' $port >"$OUT/metrics.txt"
    fi
    echo "exporter RSS: $(awk '/^VmRSS/ {print $2}' /proc/$ex/status) kB, descriptors: $(ls /proc/$ex/fd | wc -l)"
    echo "== nvidia-smi --query-gpu for the same fields: 20 runs of the whole process"
    if [ -n "$py" ]; then
        "$py" - "$smi_fields" <<'PY' | tee "$OUT/smi-time.txt"
import subprocess, sys, time
cmd = ["nvidia-smi", "--query-gpu=" + sys.argv[1], "--format=csv"]
t = []
for _ in range(20):
    s = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    t.append(time.perf_counter() - s)
t.sort()
print("nvidia-smi --query-gpu: median %.3f ms, min %.3f ms, max %.3f ms (20 runs, every GPU)"
      % ((t[9] + t[10]) / 2 * 1e3, t[0] * 1e3, t[19] * 1e3))
PY
        echo "beside: $(sed -n 's/^scrape: .*\(median [0-9.]* ms\).*/exporter scrape \1/p' "$OUT/scrape.txt")," \
             "$(sed -n 's/^nvidia-smi --query-gpu: \(median [0-9.]* ms\).*/nvidia-smi \1/p' "$OUT/smi-time.txt")"
    else
        i=0; : >"$OUT/smi-ns.txt"
        while [ $i -lt 20 ]; do
            s=$(date +%s%N); nvidia-smi --query-gpu=$smi_fields --format=csv >/dev/null 2>&1; e=$(date +%s%N)
            echo $(( (e - s) / 1000 )) >>"$OUT/smi-ns.txt"; i=$((i + 1))
        done
        echo "nvidia-smi --query-gpu: median $(sort -n "$OUT/smi-ns.txt" | awk '{ a[NR] = $1 } END { printf "%.3f", (a[10] + a[11]) / 2 / 1e3 }') ms (20 runs)"
    fi
    command -v promtool >/dev/null 2>&1 && { promtool check metrics <"$OUT/metrics.txt" && echo "promtool: ok"; }
    kill -TERM $ex; wait $ex; echo "exporter exit $?"
    grep -E "sm_active|kernel_active" "$OUT/metrics.txt" | grep -v '^#' | head -6
} 2>&1 | tee "$OUT/summary.txt"
