#!/bin/sh
# cuprobe trace on a real GPU: programs of known behaviour (tests/gpu/trace/), in CUDA C
# and in PyTorch, each traced, each verdict checked; and programs that fork, crash and run
# 8 threads (trace_procs.cu), their stdout and exit status traced byte for byte as untraced;
# and --counters on kernels of known bounds (counters_cases.cu).  Without a GPU, the injection
# library, nvcc or PyTorch, the cases that need them report skip, never fail.
# Usage: tests/gpu/trace.sh TOOL [KEEP]    KEEP: a folder to keep each case's trace and
#        JSON in (KEEP/<case>/); default a temporary one
# Prints one line per case and "N passed, N failed, N skipped" last; exit 1 on a failure.
tool=${1:-./cuprobe}
keep=${2:-}
pass=0 fail=0 skip=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-trace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ -n "$keep" ] || keep=$tmp/keep
mkdir -p "$keep"
ok()   { pass=$((pass + 1)); echo "ok     gpu trace $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL   gpu trace $1: $2"; }
skip() { skip=$((skip + 1)); echo "skip   gpu trace $1: $2"; }
dir=$(dirname "$0")/trace
build=${BUILD:-build}
cases="gemm launch pageable sync"
expect() { case $1 in gemm) echo gpu-bound ;; launch) echo launch-bound ;; pageable) echo pageable-copy-bound ;;
                      sync) echo sync-bound ;; esac; }

done_() {
    printf '%d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
    [ "$fail" = 0 ]
    exit $?
}
if [ ! -e /dev/nvidiactl ]; then
    for c in $cases million fork spawn segv abort threads thread-exit counters counters-reset; do skip "c-$c" "no NVIDIA GPU"; done
    for c in $cases; do skip "py-$c" "no NVIDIA GPU"; done
    done_
fi
if [ ! -f "$build/libcuprobe-trace.so" ]; then
    for c in $cases million fork spawn segv abort threads thread-exit counters counters-reset; do skip "c-$c" "no $build/libcuprobe-trace.so (make found no cupti.h)"; done
    done_
fi

# One traced run: case name, then the command.  Leaves KEEP/<name>/ with the trace
# (trace/), the program's output and the analysis (out.txt), the JSON (report.json).
run_case() {
    name=$1; shift
    rm -rf "${keep:?}/$name"; mkdir -p "$keep/$name"
    "$tool" trace --out "$keep/$name/trace" --json --html "$keep/$name/report.html" -- "$@" \
        >"$keep/$name/out.txt" 2>"$keep/$name/err.txt"
    rc=$?
    sed -n '/^{"schema"/,$p' "$keep/$name/out.txt" >"$keep/$name/report.json"
    return $rc
}

# the verdict of the GPU entry (process, GPU) with the most kernel time
verdict() { tr -d '\n' <"$1" | sed 's/{"pid"/\n{"pid"/g' | grep '"pid"' |
            sed 's/.*"verdict": "\([^"]*\)".*"kernel_ns": \([0-9]*\).*/\2 \1/' | sort -n | tail -1 | cut -d' ' -f2; }
field() { tr -d '\n' <"$2" | sed "s/.*\"$1\": \\([0-9.]*\\).*/\\1/"; }

check() {   # name, mode
    want=$(expect "$2")
    got=$(verdict "$keep/$1/report.json")
    if [ "$got" != "$want" ]; then
        bad "$1" "verdict '$got', expected $want ($(grep -o '"busy_pct": [0-9.]*' "$keep/$1/report.json" | head -1))"
    elif [ "$2" = gemm ] && [ "$(field steady_busy_pct "$keep/$1/report.json" | cut -d. -f1)" -lt 95 ]; then
        bad "$1" "busy $(field steady_busy_pct "$keep/$1/report.json") % without library start-up, expected >= 95"
    else ok "$1"; fi
}

# where in the program: the first place of the sync time (sync_sites) names the case's function
where_check() {   # name, expected "file:function"
    got=$(grep -o '"sync_sites": \[{"where": [^,]*' "$keep/$1/report.json" | head -1 | sed 's/.*"where": //; s/"//g')
    if [ "$got" = "$2" ]; then ok "$1-where"
    else bad "$1-where" "the sync time's first place is '$got', expected $2 (stacks: $(field stacks "$keep/$1/report.json"))"; fi
}

# CUDA C: built here with nvcc (or taken prebuilt from $build/gpu-trace/trace_cases)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
bin=$build/gpu-trace/trace_cases
if [ ! -x "$bin" ] && [ -x "$nvcc" ]; then
    mkdir -p "$build/gpu-trace"
    "$nvcc" -O2 -arch=sm_90 -o "$bin" "$dir/trace_cases.cu" 2>"$tmp/nvcc.err" || cat "$tmp/nvcc.err" >&2
fi
if [ -x "$bin" ]; then
    for c in $cases; do
        if run_case "c-$c" "$bin" "$c" && grep -q "^$c done" "$keep/c-$c/out.txt"; then
            check "c-$c" "$c"
            [ "$c" = sync ] && where_check c-sync "trace_cases:sync_steps"
        else bad "c-$c" "the program failed: $(tail -2 "$keep/c-$c/err.txt")"; fi
    done
    # a million kernels, every one recorded, none dropped
    if run_case c-million "$bin" million; then
        k=$(field kernels "$keep/c-million/report.json"); d=$(field dropped "$keep/c-million/report.json")
        if [ "$k" = 1000000 ] && [ "$d" = 0 ]; then ok c-million
        else bad c-million "kernels $k, dropped $d (expected 1000000, 0)"; fi
    else bad c-million "the program failed"; fi
else
    for c in $cases million; do skip "c-$c" "no nvcc and no prebuilt $bin"; done
fi

# Programs that fork, crash and run 8 threads (trace_procs.cu): traced, their stdout and exit
# status byte for byte as untraced, and the report covers every process and thread
# shellcheck source=tests/trace-same.sh
. "$dir/../../trace-same.sh"
pbin=$build/gpu-trace/trace_procs
if [ ! -x "$pbin" ] && [ -x "$nvcc" ]; then
    mkdir -p "$build/gpu-trace"
    "$nvcc" -O2 -arch=sm_90 -o "$pbin" "$dir/trace_procs.cu" -lpthread 2>"$tmp/nvcc2.err" || cat "$tmp/nvcc2.err" >&2
fi
# procs_check NAME WANT: WANT is a Python expression over p, the process_list (each
# process's "end", "end_signal", "kernels", "threads": [{"kernels", "streams", ...}])
procs_check() {
    "${PYTHON:-python3}" - "$keep/$1/report.json" "$2" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["process_list"]
ok = eval(sys.argv[2], {"p": p, "ge8": lambda q: sum(1 for t in q["threads"] if t["kernels"] >= 200) >= 8})
print(json.dumps([{k: q[k] for k in ("pid", "end", "end_signal", "kernels")} | {"threads": len(q["threads"])} for q in p]))
sys.exit(0 if ok else 1)
PY
}
proc_case() {   # name, check, args
    name=$1 want=$2; shift 2
    if ! same_as_untraced "$tool" "$keep/$name" "$pbin" "$@"; then bad "$name" "$(cat "$keep/$name/why")"
    elif ! covers_pids "$keep/$name"; then bad "$name" "the report does not list every trace file's process"
    elif ! got=$(procs_check "$name" "$want"); then bad "$name" "processes $got, expected $want"
    else ok "$name"; fi
}
if [ -x "$pbin" ]; then
    # shellcheck disable=SC3045 # dash, bash and busybox sh all have ulimit -c
    ulimit -c 0 2>/dev/null || :          # no core dumps of the crashing CUDA programs, traced or not
    proc_case c-fork "len(p) == 1 and p[0]['end'] == 'exit' and p[0]['kernels'] == 200" fork
    proc_case c-spawn "len(p) == 2 and all(q['end'] == 'exit' for q in p) and any(ge8(q) for q in p)" spawn "$pbin"
    proc_case c-segv "len(p) == 1 and p[0]['end'] == 'signal' and p[0]['end_signal'] == 11 and p[0]['kernels'] == 100" segv
    proc_case c-abort "len(p) == 1 and p[0]['end'] == 'signal' and p[0]['end_signal'] == 6 and p[0]['kernels'] == 100" abort
    proc_case c-threads "len(p) == 1 and p[0]['end'] == 'exit' and ge8(p[0]) and all(t['streams'] == 1 for t in p[0]['threads'] if t['kernels'] == 200)" threads
    proc_case c-thread-exit "len(p) == 1 and p[0]['end'] == 'exit' and p[0]['kernels'] == 100" thread-exit
else
    for c in fork spawn segv abort threads thread-exit; do skip "c-$c" "no nvcc and no prebuilt $pbin"; done
fi

# --counters (PM sampling): counters_cases' three kernels of known bounds get them, and the
# program ends as untraced (status 0, its own last line), also when it ends with cudaDeviceReset
cbin=$build/gpu-trace/counters_cases
if [ ! -x "$cbin" ] && [ -x "$nvcc" ]; then
    mkdir -p "$build/gpu-trace"
    "$nvcc" -O2 -arch=sm_90 -o "$cbin" "$dir/counters_cases.cu" 2>"$tmp/nvcc3.err" || cat "$tmp/nvcc3.err" >&2
fi
counters_case() {   # name, then the words after counters_cases' "all 1"
    name=$1; shift
    rm -rf "${keep:?}/$name"; mkdir -p "$keep/$name"
    "$tool" trace --counters --json --out "$keep/$name/trace" -- "$cbin" all 1 "$@" \
        >"$keep/$name/out.txt" 2>"$keep/$name/err.txt"
    rc=$?
    sed -n '/^{"schema"/,$p' "$keep/$name/out.txt" >"$keep/$name/report.json"
    if [ "$rc" != 0 ] || ! grep -q '^all done' "$keep/$name/out.txt"; then
        bad "$name" "exit $rc: $(grep -v '^cuprobe: trace kept' "$keep/$name/err.txt" | tail -2)"; return
    fi
    if got=$("${PYTHON:-python3}" - "$keep/$name/report.json" <<'PY'
import json, sys
g = max(json.load(open(sys.argv[1]))["gpus"], key=lambda g: g["kernel_ns"])
b = {k["name"]: k.get("bound") for k in g["kernel_table"]}
print(g["counters"]["status"], b)
sys.exit(0 if b == {"fma_loop": "compute-bound", "triad": "memory-bound", "chase": "neither"} else 1)
PY
    ); then ok "$name"; else bad "$name" "counters $got, expected fma_loop compute-bound, triad memory-bound, chase neither"; fi
}
if [ -x "$cbin" ]; then
    counters_case c-counters
    counters_case c-counters-reset reset
else
    for c in counters counters-reset; do skip "c-$c" "no nvcc and no prebuilt $cbin"; done
fi

# PyTorch
py=${PYTHON:-python3}
if "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    for c in $cases; do
        if run_case "py-$c" "$py" "$dir/trace_cases.py" "$c" && grep -q "^$c done" "$keep/py-$c/out.txt"; then
            check "py-$c" "$c"
            if [ "$c" != sync ]; then :
            elif "$py" -c 'import sys; sys.exit(0 if hasattr(sys, "activate_stack_trampoline") else 1)'; then
                where_check py-sync "trace_cases.py:sync"    # through CPython's perf map
            else skip py-sync-where "$py has no perf trampoline (CPython 3.12+ names its functions)"; fi
        else bad "py-$c" "the program failed: $(tail -2 "$keep/py-$c/err.txt")"; fi
    done
else
    for c in $cases; do skip "py-$c" "no PyTorch with CUDA for $py"; done
fi
done_
