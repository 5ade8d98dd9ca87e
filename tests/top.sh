#!/bin/sh
# cuprobe top driven in tmux against the fake NVML: the layout at 80x24 and
# 200x60, a resize, eight GPUs in one line each, `?` and back, `q`, and the
# terminal's state after q and after SIGTERM (main screen, cursor shown).
# Usage: tests/top.sh TOOL BUILD.  Needs tmux (.ci/run installs it);
# without it the test is skipped, unless CUPROBE_REQUIRE_TMUX=1.
# Appends "cli top P F S" to BUILD/results.txt.
tool=$1
case $tool in */*) ;; *) tool=./$tool ;; esac
build=$2
out=$build/results.txt
root=$(pwd)
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); printf 'ok     top %s\n' "$1"; }
bad() { fail=$((fail + 1)); printf 'FAIL   top %s\n' "$1"; [ -n "$2" ] && sed 's/^/    /' "$2" | tail -n 30; }
if ! command -v tmux >/dev/null 2>&1; then
    if [ "${CUPROBE_REQUIRE_TMUX:-0}" = 1 ]; then bad "tmux is missing"; else skip=1; echo "skip   top (no tmux)"; fi
    echo "cli top $pass $fail $skip" >>"$out"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-top.XXXXXX")
sock=$tmp/tmux.sock
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
# start NAME SCENARIO W H: top in a detached session of its own
start() {
    t new-session -d -s "$1" -x "$3" -y "$4" \
        "env CUPROBE_LIBNVML=$root/$build/fakes/libnvidia-ml.so.1 CUPROBE_FAKE_SCENARIO=$root/tests/fakes/scenarios/$2.txt LANG=C.UTF-8 TERM=xterm-256color $tool top --interval 0.2; echo \$? >$tmp/status.$1; stty -a >$tmp/stty.$1; sleep 60" || return 1
    sleep 1.5
}
cap() { t capture-pane -p -t "$1" >"$tmp/screen"; }
state() { t display-message -p -t "$1" "$2"; }
status() { cat "$tmp/status.$1" 2>/dev/null; }
# top_pid NAME: the pid of top, the child of the pane's shell
top_pid() {
    sh_pid=$(state "$1" '#{pane_pid}')
    for d in /proc/[0-9]*; do
        [ "$(awk '/^PPid:/ {print $2}' "$d/status" 2>/dev/null)" = "$sh_pid" ] && { echo "${d#/proc/}"; return; }
    done
}
# wait_done NAME: until top has exited and the shell after it has looked at
# the terminal (at most 3 s); the pane lives on, so tmux's view of the
# terminal is what top left
wait_done() {
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
        [ -s "$tmp/stty.$1" ] && { sleep 0.2; return 0; }
        sleep 0.1
    done
    return 1
}
# restored NAME: main screen, cursor shown, line mode and echo back
restored() {
    [ "$(status "$1")" = 0 ] && [ "$(state "$1" '#{alternate_on}')" = 0 ] &&
        [ "$(state "$1" '#{cursor_flag}')" = 1 ] &&
        grep -q ' icanon ' "$tmp/stty.$1" && grep -q ' echo ' "$tmp/stty.$1"
}

start a tele-throttle 80 24
cap a
if grep -q "^GPU 0  NVIDIA H200  0000:00:06.0  ok" "$tmp/screen" && grep -q "kernel-active \[" "$tmp/screen" &&
   grep -q "SM active     \[" "$tmp/screen" && grep -q "clocks held by: sw power cap, sw thermal slowdown" "$tmp/screen" &&
   grep -q "processes: 4242 .* 74.0 GiB 97 %" "$tmp/screen" && grep -q "^GPU 1 " "$tmp/screen"; then
    ok "80x24: each GPU with bars, history, throttle reasons, XIDs and processes"
else bad "80x24: each GPU with bars, history, throttle reasons, XIDs and processes" "$tmp/screen"; fi
if grep -q "hw thermal slowdown   XIDs: none" "$tmp/screen"; then bad "80x24 cuts lines at the width" "$tmp/screen"
else ok "80x24 cuts lines at the width"; fi

t resize-window -t a -x 200 -y 60
sleep 0.8
cap a
if grep -q "sw thermal slowdown, hw thermal slowdown   XIDs: none" "$tmp/screen" &&
   [ "$(wc -l <"$tmp/screen")" -ge 59 ]; then ok "a resize to 200x60 redraws at the new size"
else bad "a resize to 200x60 redraws at the new size" "$tmp/screen"; fi

t send-keys -t a '?'
sleep 0.5
cap a
if grep -q "what each number means" "$tmp/screen" && grep -q "not how busy the SMs are" "$tmp/screen" &&
   grep -q "not how much memory is in use" "$tmp/screen" &&
   grep -q "^kernel_active_period_seconds (seconds): the device's own sample period" "$tmp/screen"; then ok "? explains each metric"
else bad "? explains each metric" "$tmp/screen"; fi
t send-keys -t a '?'
sleep 0.5
cap a
if grep -q "^GPU 0 " "$tmp/screen"; then ok "? again goes back"; else bad "? again goes back" "$tmp/screen"; fi

t send-keys -t a q
if wait_done a && restored a; then ok "q quits (exit 0): main screen, cursor, line mode and echo back"
else bad "q quits (exit $(status a), screen and cursor $(state a '#{alternate_on} #{cursor_flag}'))" "$tmp/stty.a"; fi

start b tele-8gpu 80 24
cap b
if [ "$(grep -c '^[0-7]    ok    100 %' "$tmp/screen")" = 8 ]; then ok "8 GPUs at 80x24: one line each"
else bad "8 GPUs at 80x24: one line each" "$tmp/screen"; fi
pid=$(top_pid b)
kill -TERM "$pid"
if wait_done b && restored b; then ok "SIGTERM: exit 0, main screen, cursor, line mode and echo back"
else bad "SIGTERM (pid $pid): exit $(status b), screen and cursor $(state b '#{alternate_on} #{cursor_flag}')" "$tmp/stty.b"; fi

start c tele-containers 200 60
cap c
if grep -q "kernel-active \[.*per 167 ms" "$tmp/screen"; then ok "kernel-active says the device's sample period"
else bad "kernel-active says the device's sample period" "$tmp/screen"; fi
if grep -q "processes: 4194399 pid not visible here 1.0 GiB 3 %, 4242 " "$tmp/screen"; then
    ok "a process from another PID namespace says so"
else bad "a process from another PID namespace says so" "$tmp/screen"; fi
t send-keys -t c q
wait_done c

echo "cli top $pass $fail $skip" >>"$out"
exit 0
