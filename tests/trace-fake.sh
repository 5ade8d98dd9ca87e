#!/bin/sh
# cuprobe trace on programs that fork, exec, crash, exit oddly or run 8 threads,
# through the fake libcupti (tests/fakes/fake_cupti.c) and the fake driver host
# (tests/fakes/inject_host.c): each program's stdout and exit status (or signal)
# traced must be byte for byte those untraced, and the report must cover every
# process (one trace file each, none of a parent's records twice) and thread,
# saying how each process ended.  Usage: tests/trace-fake.sh TOOL BUILD; skipped
# where the injection library is not built (no cupti.h).  Appends
# "cli trace-fake P F S" to BUILD/results.txt.
tool=$1
case $tool in */*) ;; *) tool=./$tool ;; esac
build=$2
root=$(pwd)
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); printf 'ok     trace-fake %s\n' "$1"; }
bad() { fail=$((fail + 1)); printf 'FAIL   trace-fake %s: %s\n' "$1" "$2"; }
if [ ! -f "$build/libcuprobe-trace.so" ]; then
    echo "skip   trace-fake (no $build/libcuprobe-trace.so: make found no cupti.h)"
    echo "cli trace-fake 0 0 1" >>"$build/results.txt"
    exit 0
fi
# shellcheck source=tests/trace-same.sh
. "$root/tests/trace-same.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-trace-fake.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
host=$root/$build/fakes/inject_host
export CUPROBE_TRACE_LIB="$root/$build/libcuprobe-trace.so" CUPROBE_CUPTI="$root/$build/fakes/cupti/libcupti.so.13"
export FAKE_CUPTI_STEPS=20
# shellcheck disable=SC3045 # dash, bash and busybox sh all have ulimit -c
ulimit -c 0 2>/dev/null || :              # the crashes leave no core files, traced or not

# the process_list as one "pid end signal kernels threads" line per process
procs() {
    tr -d '\n' <"$1/report.json" | sed 's/.*"process_list": \[//; s/{"pid"/\n{"pid"/g' | grep '^{"pid"' |
        sed 's/{"pid": \([0-9]*\), "end": "\([a-z]*\)", "end_signal": \([0-9a-z]*\),.*"kernels": \([0-9]*\), "copies".*"threads": \[\(.*\)/\1 \2 \3 \4 \5/' |
        while read -r pid end sig k th; do
            printf '%s %s %s %s %s\n' "$pid" "$end" "$sig" "$k" "$(printf '%s' "$th" | grep -o '"tid"' | wc -l)"
        done
}
# case NAME EXPECT ARGS...: EXPECT is the processes' "end signal kernels threads",
# sorted, joined by ';' (pids left out)
case_() {
    name=$1 want=$2; shift 2
    d=$tmp/$name
    if ! same_as_untraced "$tool" "$d" "$host" "$@"; then bad "$name" "$(cat "$d/why")"; return; fi
    got=$(procs "$d" | cut -d' ' -f2- | sort | paste -sd';' -)
    if [ "$got" != "$want" ]; then bad "$name" "processes '$got', expected '$want'"; return; fi
    if ! covers_pids "$d"; then bad "$name" "the report does not list every trace file's process"; return; fi
    ok "$name"
}

case_ fork           "exit null 20 1"                 say parent fork say both exit 6
case_ fork-flushed   "exit null 20 1"                 flush sleep 50 fork say both exit 0
case_ spawn          "exit null 20 1;exit null 20 1"  say parent spawn say child exit 4
case_ exec           "exit null 20 1;none null 20 1"  flush sleep 300 exec say after
case_ crash          "signal 11 20 1"                 say before crash say never
case_ segv           "signal 11 20 1"                 say before segv
case_ abort          "signal 6 20 1"                  say before abort
case_ term           "signal 15 20 1"                 say before term
case_ kill           "none null 20 1"                 flush sleep 300 say before kill
case_ _exit          "none null 0 0"                  say before _exit 3
case_ thread-exit    "exit null 20 1"                 say before thread-exit 5
export FAKE_CUPTI_THREADS=8
case_ threads        "exit null 20 8"                 threads 8 say after exit 2
unset FAKE_CUPTI_THREADS
export CUPROBE_TRACE_SIGNALS=0                          # no handler: the crash loses the unflushed buffers
case_ no-handler     "none null 0 0"                  say before crash
unset CUPROBE_TRACE_SIGNALS

echo "cli trace-fake $pass $fail $skip" >>"$build/results.txt"
printf '%d passed, %d failed\n' "$pass" "$fail"
