#!/bin/sh
# cuprobe trace on the GPU machine, in one call: build (the injection library
# needs cupti.h: a toolkit's, or the nvidia-cuda-cupti wheel's include folder),
# the verdict tests (tests/gpu/trace.sh, CUDA C and PyTorch), and the overhead
# on a PyTorch training-style loop: the same loop untraced, under cuprobe trace
# and under torch.profiler, taken in turn over rounds, medians compared.
# What comes back lands in $OUT (default ./gpu-trace-out), few files: the recorded
# traces (fixtures.tar.xz: <case>/*.cptrace, to commit as CI fixtures; the
# million-kernel one is left out for its size), each case's JSON, HTML and output
# (reports.tar.xz), verdicts.txt and overhead.txt.
# Usage: bench/gpu_trace.sh [ROUNDS]     (default 5)
rounds=${1:-5}
out=${OUT:-./gpu-trace-out}
mkdir -p "$out"
py=${PYTHON:-python3}
log() { echo "== $*"; }

if [ -z "${CUPTI_INC:-}" ] && [ ! -f /usr/local/cuda/include/cupti.h ]; then
    # the PyTorch wheels' CUPTI carries its headers
    inc=$("$py" -c 'import nvidia.cuda_cupti as m, os; print(os.path.join(list(m.__path__)[0], "include"))' 2>/dev/null)
    [ -n "$inc" ] && [ -f "$inc/cupti.h" ] && CUPTI_INC=$inc && export CUPTI_INC
fi
make -s -j8 cuprobe 2>&1 | tail -5
if [ -n "${CUPTI_INC:-}" ] || [ -f /usr/local/cuda/include/cupti.h ]; then
    make -s ${CUPTI_INC:+CUPTI_INC="$CUPTI_INC"} build/libcuprobe-trace.so 2>&1 | tail -5
fi
# without a cupti.h here, a build/libcuprobe-trace.so carried from a machine with one serves
[ -f build/libcuprobe-trace.so ] || { echo "no build/libcuprobe-trace.so: no cupti.h found (set CUPTI_INC)"; exit 1; }
# where libcupti is: the toolkit's, else the wheel's
if [ -z "${CUPROBE_CUPTI:-}" ]; then
    for c in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13 \
             "$("$py" -c 'import nvidia.cuda_cupti as m, glob; print((glob.glob(list(m.__path__)[0] + "/lib/libcupti.so*") + [""])[0])' 2>/dev/null)"; do
        [ -n "$c" ] && [ -f "$c" ] && { CUPROBE_CUPTI=$c; export CUPROBE_CUPTI; break; }
    done
fi
log "libcupti: ${CUPROBE_CUPTI:-(the loader's search)}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1

log "verdicts"
cases=${TMPDIR:-/tmp}/cuprobe-gpu-trace-cases
rm -rf "$cases"
sh tests/gpu/trace.sh ./cuprobe "$cases" | tee "$out/verdicts.txt"
# what comes back is a few files: the reports and the traces each packed in one tarball
pack=${TMPDIR:-/tmp}/cuprobe-gpu-trace-pack
rm -rf "$pack"; mkdir -p "$pack/fixtures" "$pack/reports"
for d in "$cases"/*/; do
    n=$(basename "$d")
    mkdir -p "$pack/reports/$n"
    cp "$d"/report.json "$d"/report.html "$d"/out.txt "$d"/err.txt "$pack/reports/$n/" 2>/dev/null
    [ "$n" = c-million ] && continue          # over 100 MB: not a fixture
    [ -d "$d/trace" ] || continue
    mkdir -p "$pack/fixtures/$n"; cp "$d"/trace/* "$pack/fixtures/$n/"
done
tar -C "$pack" -cJf "$out/reports.tar.xz" reports
tar -C "$pack" -cJf "$out/fixtures.tar.xz" fixtures
ls -l "$out"/*.tar.xz; du -sh "$pack"/fixtures/*

log "overhead: a training-style loop, $rounds rounds of untraced / cuprobe trace / torch.profiler in turn"
loop=tests/gpu/trace/trace_cases.py
: >"$out/overhead.raw"
for r in $(seq 1 "$rounds"); do
    a=$("$py" "$loop" train | sed -n 's/^train wall_s //p')
    b=$(./cuprobe trace --out "$out/train-trace" -- "$py" "$loop" train | sed -n 's/^train wall_s //p')
    ./cuprobe trace --analyze "$out/train-trace" --json >"$out/train-trace.json"
    busy=$(tr -d '\n' <"$out/train-trace.json" | sed 's/.*"busy_pct": \([0-9.]*\).*/\1/')
    c=$("$py" "$loop" train --profile >"$out/prof.txt"; sed -n 's/^train wall_s //p' "$out/prof.txt")
    pb=$(sed -n 's/^profiler busy_pct //p' "$out/prof.txt")
    echo "round $r untraced $a traced $b profiler $c trace_busy $busy profiler_busy $pb" | tee -a "$out/overhead.raw"
done
awk '
function med(v, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                                return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
{ n++; a[n] = $4; b[n] = $6; c[n] = $8; tb[n] = $10; pb[n] = $12 }
END {
    ma = med(a, n); mb = med(b, n); mc = med(c, n)
    printf "loop wall, median of %d: untraced %.4f s, cuprobe trace %.4f s (%+.2f %%), torch.profiler %.4f s (%+.2f %%)\n",
           n, ma, mb, 100 * (mb - ma) / ma, mc, 100 * (mc - ma) / ma
    printf "busy over the timed loop: cuprobe trace %.2f %% (its cudaProfilerStart..Stop window), torch.profiler %.2f %%\n", med(tb, n), med(pb, n)
}' "$out/overhead.raw" | tee "$out/overhead.txt"
rm -rf "$out/train-trace"
log "done: $out"
