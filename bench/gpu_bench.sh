#!/bin/sh
# cuprobe bench on the GPU machine beside PyTorch, in one call.  Builds
# nothing: ./cuprobe (or $TOOL) is the binary built on the development
# machine.  Runs `cuprobe bench --json` (timed: the default run must take
# <= 30 s on one H200), `--sweep --svg`, the copies again at PyTorch's
# 1 GiB, then the PyTorch anchors script given as the argument, and writes
# both JSON documents and the comparison (ours / PyTorch's, with the same
# byte counting) to $OUT (default ./out-gpu).
# Usage (repo root on the GPU machine): sh bench/gpu_bench.sh PATH/TO/torch_anchors.py [ROUNDS]
anchors=${1:?usage: sh bench/gpu_bench.sh PATH/TO/torch_anchors.py [ROUNDS]}
rounds=${2:-3}
tool=${TOOL:-./cuprobe}
OUT=${OUT:-./out-gpu}
mkdir -p "$OUT"
{
    date -u; uname -r; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    echo "== cuprobe bench --json"
    t0=$(date +%s%N)
    "$tool" bench --json >"$OUT/bench.json" 2>"$OUT/bench.err"; echo "exit $?"
    t1=$(date +%s%N)
    echo "wall: $(( (t1 - t0) / 1000000 )) ms (the default run must take <= 30000)"
    "$tool" bench --no-color >"$OUT/bench.txt" 2>&1; echo "text run: exit $?"
    echo "== cuprobe bench --sweep --svg"
    "$tool" bench --sweep --svg "$OUT/sweep.svg" --no-color >"$OUT/sweep.txt" 2>&1; echo "exit $?"
    "$tool" bench --sweep --json >"$OUT/sweep.json" 2>"$OUT/sweep.err"; echo "json: exit $?"
    echo "== ours and PyTorch in turn, $rounds rounds (the copies at PyTorch's 1 GiB and 20 repeats)"
    k=1
    while [ $k -le "$rounds" ]; do
        "$tool" bench --json --size 1G --iters 20 --only copy.h2d,copy.d2h,copy.d2d,gemm.bf16 \
            >"$OUT/bench-1g-$k.json" 2>"$OUT/bench-1g-$k.err"; echo "ours, round $k: exit $?"
        python3 "$anchors" >"$OUT/torch-$k.json" 2>"$OUT/torch-$k.err"; echo "PyTorch, round $k: exit $?"
        k=$((k + 1))
    done
    echo "== ours / PyTorch"
    python3 - "$OUT" "$rounds" <<'PY' | tee "$OUT/compare.txt"
import json, sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
ours = json.load(open(out + "/bench.json"))
bigs = [json.load(open("%s/bench-1g-%d.json" % (out, k))) for k in range(1, rounds + 1)]
torches = [json.load(open("%s/torch-%d.json" % (out, k))) for k in range(1, rounds + 1)]
def median(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None
def val(doc, rid, dev=0):
    for r in doc.get("rows", []):
        if r["id"] == rid and r["device"] == dev and r["state"] == "ok":
            return r["value"]
    return None
print("child peak RSS %s kB, cuBLASLt load+init %s kB, cuprobe %s kB, wall %.0f ms" % (
    ours.get("child_maxrss_kb"), ours.get("libs_rss_kb"), ours.get("self_maxrss_kb"), ours.get("wall_ms") or 0))
# (ours' id, factor to PyTorch's byte counting, PyTorch's key, goal)
pairs = [
    ("copy.h2d.pinned.ce", 1, "h2d_pinned_GBs", 0.99),
    ("copy.d2h.pinned.ce", 1, "d2h_pinned_GBs", 0.99),
    ("copy.h2d.pageable.ce", 1, "h2d_pageable_GBs", None),
    ("copy.d2h.pageable.ce", 1, "d2h_pageable_GBs", None),
    ("copy.d2d.ce", 2, "d2d_GBs_rw", 0.99),     # ours counts bytes copied once, PyTorch read + write
    ("gemm.bf16", 1, "gemm_bf16_TFLOPs", 0.97),
    ("gemm.fp16", 1, "gemm_fp16_TFLOPs", None),
    ("gemm.tf32", 1, "gemm_tf32_TFLOPs", None),
    ("gemm.fp32", 1, "gemm_fp32_TFLOPs", None),
]
print("medians of %d rounds taken in turn (ours 1G, then PyTorch); each round's figures in rounds.txt" % rounds)
print("%-22s %12s %12s %12s %8s  %s" % ("measurement", "ours 256M", "ours 1G", "PyTorch", "ratio", "goal"))
with open(out + "/rounds.txt", "w") as rf:
    for rid, f, key, goal in pairs:
        rf.write("%-22s ours %s  PyTorch %s\n" % (rid, [val(b, rid) for b in bigs], [t.get(key) for t in torches]))
for rid, f, key, goal in pairs:
    a, b, t = val(ours, rid), median([val(x, rid) for x in bigs]), median([x.get(key) for x in torches])
    a = a * f if a is not None else None
    b = b * f if b is not None else None
    best = b if b is not None else a
    ratio = best / t if best is not None and t else None
    verdict = "" if goal is None or ratio is None else ("met (>= %.0f%%)" % (goal * 100) if ratio >= goal
                                                          else "MISSED (< %.0f%%)" % (goal * 100))
    fmt = lambda v: "%12.2f" % v if v is not None else "%12s" % "-"
    print("%-22s %s %s %s %8s  %s" % (rid, fmt(a), fmt(b), fmt(t), "%.3f" % ratio if ratio else "-", verdict))
for rid in ("launch.plain", "launch.roundtrip", "launch.graph"):
    v = val(ours, rid)
    print("%-22s %12s us   (PyTorch's per-op cost of back-to-back x.add_(1): %.2f us)" % (
        rid, "%.2f" % v if v is not None else "-", median([x.get("launch_us_per_op") for x in torches]) or float("nan")))
bad = [r for r in ours.get("rows", []) if r["state"] != "ok"]
for r in bad:
    print("not ok: %s (GPU %s): %s: %s" % (r["id"], r["device"], r["state"], r.get("detail")))
PY
} 2>&1 | tee "$OUT/gpu_bench.log"
