#!/bin/sh
# Sourced by tests/trace-fake.sh and tests/gpu/trace.sh: run a program untraced
# and under `cuprobe trace`, and compare what its user sees.
#   same_as_untraced TOOL DIR PROGRAM ARGS...
# runs PROGRAM ARGS untraced (DIR/plain.out, its status in DIR/plain.rc) and as
# `TOOL trace --out DIR/trace --json -- PROGRAM ARGS` (DIR/traced.out, .err, .rc;
# DIR/report.json, the JSON analysis). Returns 0 when the program's stdout is
# byte for byte the same (the traced output is the untraced one, then a blank
# line and the analysis) and the status is the same (a signal death: the same
# signal, 128 + N as sh reports it); otherwise 1 with the reason in DIR/why.
same_as_untraced() {
    tool=$1 d=$2; shift 2
    rm -rf "${d:?}"; mkdir -p "$d"
    # (the shell's own "Segmentation fault" lines go to DIR/*.sh)
    { (env -u CUDA_INJECTION64_PATH "$@" >"$d/plain.out" 2>"$d/plain.err"); echo $? >"$d/plain.rc"; } 2>"$d/plain.sh"
    { ("$tool" trace --out "$d/trace" --json -- "$@" >"$d/traced.out" 2>"$d/traced.err"); echo $? >"$d/traced.rc"; } \
        2>"$d/traced.sh"
    n=$(wc -c <"$d/plain.out")
    head -c "$n" "$d/traced.out" >"$d/traced.prog"
    tail -c +"$((n + 1))" "$d/traced.out" >"$d/traced.rest"
    sed -n '/^{"schema"/,$p' "$d/traced.rest" >"$d/report.json"
    if [ "$(cat "$d/plain.rc")" != "$(cat "$d/traced.rc")" ]; then
        echo "exit status $(cat "$d/traced.rc") traced, $(cat "$d/plain.rc") untraced" >"$d/why"; return 1
    fi
    if ! cmp -s "$d/plain.out" "$d/traced.prog" || [ "$(head -c 2 "$d/traced.rest")" != "
{" ]; then
        echo "stdout differs from the untraced run's ($(cmp "$d/plain.out" "$d/traced.prog" 2>&1 | head -1))" >"$d/why"
        return 1
    fi
    return 0
}

# covers_pids DIR: every trace file's pid appears in DIR/report.json's process_list,
# and the count matches; prints the pids.
covers_pids() {
    files=0
    for f in "$1"/trace/*.cptrace; do [ -f "$f" ] && files=$((files + 1)); done
    listed=$(tr -d '\n' <"$1/report.json" | sed 's/.*"process_list": \[//' | grep -o '"pid": [0-9]*' | wc -l)
    [ "$files" = "$listed" ]
}
