#!/bin/sh
# cuprobe trace --counters on the GPU machine, in one call: build (bench/trace_setup.sh)
# and tests/gpu/trace/counters_cases.cu (nvcc), trace its three kernels of known bounds
# (fma_loop compute-bound, triad memory-bound, chase latency-bound) with --counters,
# measure the same kernels with ncu, with the metrics cuprobe says it used (read from its
# JSON) and with sm__throughput / dram__throughput, and print one table: kernel, share of
# GPU time, cuprobe's SM % and DRAM %, ncu's of the same metrics, ncu's sm__throughput
# and dram__throughput, and the labels (ncu's by the same rule, from the same metrics and
# from the throughputs); then the overhead of --counters: the program's wall (its kernels'
# phases) and the whole command's, traced without and with --counters, medians of 3; last,
# the same program ending with cudaDeviceReset, traced with --counters.
# Without ncu (or without permission for it) cuprobe's figures are still printed.
# What comes back lands in $OUT (default ./gpu-trace-counters-out): counters.txt (all of
# the above), cuprobe.txt / cuprobe.out (the program's stdout, then the report) /
# cuprobe.json (the report alone) / cuprobe.err (the --counters run), ncu.csv,
# overhead.raw, and fixture/*.cptrace (the trace, to commit as a CI fixture).
# Usage: bench/gpu_trace_counters.sh [SCALE]     (launches times SCALE; default 1)
scale=${1:-1}
out=${OUT:-./gpu-trace-counters-out}
mkdir -p "$out"
py=${PYTHON:-python3}
log() { echo "== $*"; }
. bench/trace_setup.sh

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
bin=build/gpu-trace/counters_cases
mkdir -p build/gpu-trace
if [ -x "$nvcc" ]; then
    "$nvcc" -O2 -arch=sm_90 -o "$bin" tests/gpu/trace/counters_cases.cu 2>"$out/nvcc.err" || { cat "$out/nvcc.err"; exit 1; }
fi
[ -x "$bin" ] || { echo "no nvcc ($nvcc) and no prebuilt $bin"; exit 1; }
base=sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
tmp=${TMPDIR:-/tmp}/cuprobe-gpu-counters
rm -rf "$tmp"
mkdir -p "$tmp"

log "cuprobe trace --counters -- $bin all $scale"
./cuprobe trace --counters --json --out "$tmp/trace" -- "$bin" all "$scale" >"$out/cuprobe.out" 2>"$out/cuprobe.err"
echo "exit $?"
# the program's own lines come first: the report is from the line starting {"schema" on
sed -n '/^{"schema"/,$p' "$out/cuprobe.out" >"$out/cuprobe.json"
[ -s "$out/cuprobe.json" ] || echo "no JSON report in $out/cuprobe.out"
# the metrics cuprobe used, for ncu to measure the same ones
used=$("$py" -c '
import json, sys
try:
    rep = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit(0)
seen = []
for g in rep.get("gpus", []):
    c = g.get("counters") or {}
    for m in [c.get("sm_metric")] + list(c.get("dram_metrics") or []):
        if m and m not in seen: seen.append(m)
print(",".join(seen))' "$out/cuprobe.json")
echo "metrics cuprobe used: ${used:-none}"
metrics=$base
for m in $(echo "$used" | tr , ' '); do
    case ",$metrics," in *",$m,"*) ;; *) metrics="$metrics,$m" ;; esac
done
cat "$out/cuprobe.err"
./cuprobe trace --analyze "$tmp/trace" >"$out/cuprobe.txt" 2>&1
sed -n '/hardware counters/,/bound: SM or DRAM/p' "$out/cuprobe.txt"
rm -rf "$out/fixture"
mkdir -p "$out/fixture"
cp "$tmp"/trace/*.cptrace "$out/fixture/" 2>/dev/null

log "ncu --metrics $metrics (5 launches of each kernel)"
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
: >"$out/ncu.csv"
if [ -x "$ncu" ]; then
    for km in fma_loop:compute triad:memory chase:latency; do
        k=${km%%:*}
        "$ncu" --metrics "$metrics,gpu__time_duration.sum" -k "$k" -c 5 --csv "$bin" "${km#*:}" 0.2 \
            >"$tmp/ncu-$k.out" 2>&1
        if ! grep -q '^"' "$tmp/ncu-$k.out" && [ "$metrics" != "$base" ]; then
            echo "ncu refused $metrics for $k:"; grep -v '^"' "$tmp/ncu-$k.out" | tail -3
            echo "again with $base alone"
            "$ncu" --metrics "$base,gpu__time_duration.sum" -k "$k" -c 5 --csv "$bin" "${km#*:}" 0.2 \
                >"$tmp/ncu-$k.out" 2>&1
        fi
        grep '^"' "$tmp/ncu-$k.out" >>"$out/ncu.csv"
        grep -q '^"' "$tmp/ncu-$k.out" || { echo "ncu gave no figures for $k:"; grep -v '^"' "$tmp/ncu-$k.out" | tail -5; }
    done
else
    echo "ncu not found ($ncu): cuprobe's figures only"
fi

log "comparison"
"$py" - "$out/cuprobe.json" "$out/ncu.csv" <<'EOF' | tee "$out/counters.txt"
import csv, json, sys
rep = json.load(open(sys.argv[1]))
ncu = {}
try:
    rows = list(csv.reader(open(sys.argv[2])))
except OSError:
    rows = []
head = None
for r in rows:
    if "Metric Name" in r:
        head = {n: i for i, n in enumerate(r)}
        continue
    if not head or len(r) < len(head):
        continue
    name = r[head["Kernel Name"]].split("(")[0]
    try:
        v = float(r[head["Metric Value"]].replace(",", ""))
    except ValueError:
        continue
    ncu.setdefault(name, {}).setdefault(r[head["Metric Name"]], []).append(v)
def mean(k, m):
    v = ncu.get(k, {}).get(m, [])
    return sum(v) / len(v) if v else None
def label(sm, dram, cut):
    if sm is None and dram is None: return "unmeasured"
    a, b = sm or 0.0, dram or 0.0
    if a >= cut and a >= b: return "compute-bound"
    if b >= cut: return "memory-bound"
    return "neither"
def f(v): return "-" if v is None else "%.1f" % v
def total(k, ms):
    v = [mean(k, m) for m in ms]
    return None if not ms or None in v else sum(v)
SMT, DRT = "sm__throughput.avg.pct_of_peak_sustained_elapsed", "dram__throughput.avg.pct_of_peak_sustained_elapsed"
for g in rep["gpus"]:
    c = g.get("counters")
    print("process %d, GPU %d: %d kernels, busy %.1f %%" % (g["pid"], g["device"], g["kernels"], g["busy_pct"] or 0))
    if not c:
        print("  no counters record: was --counters passed through?")
        continue
    if c["status"] != "ok":
        print("  counters missing (%s): %s" % (c["status"], c["reason"]))
    else:
        print("  PM sampling: %d samples every %d us, clock %s, samples over %.1f %% of kernel time" %
              (c["samples"], c["interval_ns"] // 1000, c["clock"], 100.0 * c["sampled_kernel_ns"] / max(g["kernel_ns"], 1)))
        print("  metrics: SM %s; DRAM %s" % (c["sm_metric"], " + ".join(c["dram_metrics"])))
    cut = c.get("bound_pct", 60)
    sm_used = [c["sm_metric"]] if c.get("sm_metric") else []
    dram_used = list(c.get("dram_metrics") or [])
    print("  ncu same: the metrics above, measured by ncu (DRAM summed as cuprobe does); ncu tput: sm__throughput, dram__throughput")
    print("  %-10s %6s  %8s %8s  %9s %9s  %9s %9s  %-13s %-13s %-13s" % ("kernel", "share", "cp SM%", "cp DRAM%",
          "same SM%", "same DRAM", "tput SM%", "tput DRAM", "cuprobe", "ncu same", "ncu tput"))
    for k in g["kernel_table"]:
        n = k["name"]
        sm, dr = k.get("sm_pct"), k.get("dram_pct")
        ssm, sdr = total(n, sm_used), total(n, dram_used)
        nsm, ndr = mean(n, SMT), mean(n, DRT)
        seen = n in ncu
        print("  %-10s %5.1f%%  %8s %8s  %9s %9s  %9s %9s  %-13s %-13s %-13s" % (n[:10], 100 * (k["share"] or 0), f(sm), f(dr),
              f(ssm), f(sdr), f(nsm), f(ndr), k.get("bound", "unmeasured"),
              label(ssm, sdr, cut) if seen and (sm_used or dram_used) else "-", label(nsm, ndr, cut) if seen else "-"))
if not ncu:
    print("  (no ncu figures: see above)")
EOF

log "overhead of --counters: 3 rounds of cuprobe trace without and with --counters, in turn"
: >"$out/overhead.raw"
for r in 1 2 3; do
    t0=$(date +%s%N)
    a=$(./cuprobe trace --out "$tmp/plain" -- "$bin" all "$scale" 2>/dev/null | sed -n 's/^all wall_s //p')
    t1=$(date +%s%N)
    b=$(./cuprobe trace --counters --out "$tmp/ctr" -- "$bin" all "$scale" 2>/dev/null | sed -n 's/^all wall_s //p')
    t2=$(date +%s%N)
    u=$("$bin" all "$scale" | sed -n 's/^all wall_s //p')
    echo "round $r untraced ${u:-0} traced ${a:-0} counters ${b:-0} cmd_traced $(( (t1 - t0) / 1000000 )) cmd_counters $(( (t2 - t1) / 1000000 ))" |
        tee -a "$out/overhead.raw"
    rm -rf "$tmp/plain" "$tmp/ctr"
done
awk "$awk_med"'
{ n++; u[n] = $4; a[n] = $6; b[n] = $8; ca[n] = $10; cb[n] = $12 }
END {
    mu = med(u, n); ma = med(a, n); mb = med(b, n); mca = med(ca, n); mcb = med(cb, n)
    if (ma > 0) printf "program wall (its kernels), median of %d: untraced %.4f s, traced %.4f s, traced --counters %.4f s (%+.2f %% against traced)\n", n, mu, ma, mb, 100 * (mb - ma) / ma
    if (mca > 0) printf "whole command (start-up, exit decode, analysis), median of %d: traced %d ms, --counters %d ms (%+.2f %%)\n", n, mca, mcb, 100 * (mcb - mca) / mca
}' "$out/overhead.raw" | tee -a "$out/counters.txt"
log "cudaDeviceReset before exit: sampling ends as the context goes (cuprobe trace --counters -- $bin all $scale reset)"
./cuprobe trace --counters --out "$tmp/reset" -- "$bin" all "$scale" reset >"$tmp/reset.out" 2>"$tmp/reset.err"
echo "exit $? (the program's own: 0)" | tee -a "$out/counters.txt"
grep -E 'hardware counters|bound  ' "$tmp/reset.out" | tee -a "$out/counters.txt"
grep -v '^cuprobe: trace kept' "$tmp/reset.err" | head -5
rm -rf "$tmp"
log "done: $out"
