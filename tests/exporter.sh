#!/bin/bash
# cuprobe exporter against the fake NVML, over loopback: the exposition
# passes `promtool check metrics`, a real Prometheus server scrapes it and
# the series are read back through Prometheus' HTTP API; malformed, silent
# and 50 concurrent clients; a GPU lost while serving; SIGTERM.  Prints the
# scrape time, the exporter's RSS and its CPU time.
#
# Usage: tests/exporter.sh TOOL BUILD [SANFLAGS]
# Needs bash (for /dev/tcp) and, for the Prometheus part, Debian's
# `prometheus` package (promtool and the server; .ci/run installs it).
# Without them that part is skipped, unless CUPROBE_REQUIRE_PROMETHEUS=1
# (CI), where their absence is a failure.
# Appends "cli exporter P F S" to BUILD/results.txt.
tool=$1
case $tool in */*) ;; *) tool=./$tool ;; esac   # "cuprobe" from make: the one here
build=$2
sanflags=$3
out=$build/results.txt
root=$(pwd)
pass=0 fail=0 skip=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-exporter.XXXXXX")
pids=""
cleanup() {
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); printf 'ok     exporter %s\n' "$1"; }
bad() { fail=$((fail + 1)); printf 'FAIL   exporter %s\n' "$1"; [ -n "$2" ] && sed 's/^/    /' "$2" | tail -n 20; }

export CUPROBE_LIBNVML=$root/$build/fakes/libnvidia-ml.so.1
export CUPROBE_LIBCUDA=$root/$build/fakes/libcuda.so.1
export CUPROBE_TEST_MARK=${CUPROBE_TEST_MARK:-exporter.$$}
# shellcheck source=tests/leftovers.sh
. "$(dirname "$0")/leftovers.sh"

# get PORT PATH [REQUEST]: the whole response on stdout
get() {
    exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
    if [ -n "$3" ]; then printf '%b' "$3" >&3; else printf 'GET %s HTTP/1.1\r\nHost: t\r\n\r\n' "$2" >&3; fi
    timeout 5 cat <&3
    exec 3<&-
}
body() { sed '1,/^\r$/d'; }

# start SCENARIO ARGS...: an exporter on a free port; sets port and epid
start() {
    export CUPROBE_FAKE_SCENARIO=$root/tests/fakes/scenarios/$1.txt
    shift
    for try in 1 2 3 4 5; do
        port=$((20000 + (RANDOM % 20000)))
        "$tool" exporter --listen "127.0.0.1:$port" "$@" 2>"$tmp/exporter.$port.log" &
        epid=$!
        pids="$pids $epid"
        for _ in $(seq 50); do
            grep -q "serving" "$tmp/exporter.$port.log" 2>/dev/null && return 0
            kill -0 "$epid" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "$epid" 2>/dev/null
        wait "$epid" 2>/dev/null
    done
    return 1
}

# wait_for PORT PATTERN SECONDS: until the body holds PATTERN
wait_for() {
    for _ in $(seq $(($3 * 10))); do
        get "$1" /metrics | body >"$tmp/body" 2>/dev/null
        grep -q -- "$2" "$tmp/body" && return 0
        sleep 0.1
    done
    return 1
}

export CUPROBE_TEST_CLIENT_TIMEOUT_MS=1500
if ! start tele-steady-2gpu --interval 0.2 --doctor-every 0; then
    bad "starts and listens" "$tmp/exporter.$port.log"
    echo "cli exporter $pass $((fail + 1)) 0" >>"$out"
    exit 0
fi
ok "starts and listens on loopback"

get "$port" /metrics >"$tmp/resp"
if head -n 1 "$tmp/resp" | grep -q "^HTTP/1.1 200 OK" && grep -q "^Content-Type: text/plain; version=0.0.4" "$tmp/resp"; then
    ok "GET /metrics answers 200 with the text format"
else bad "GET /metrics answers 200 with the text format" "$tmp/resp"; fi

if wait_for "$port" 'cuprobe_layer_status{layer="driver",status="pass"} 1' 15 &&
   grep -q 'cuprobe_gpu_sm_active_percent{gpu="1",.*} 1$' "$tmp/body" &&
   grep -q '^# HELP cuprobe_gpu_kernel_active_percent kernel-active: .*not how busy the SMs are' "$tmp/body"; then
    ok "series with meanings, GPM and doctor's verdict per layer"
else bad "series with meanings, GPM and doctor's verdict per layer" "$tmp/body"; fi

if command -v promtool >/dev/null 2>&1; then
    if promtool check metrics <"$tmp/body" >"$tmp/promtool" 2>&1; then ok "promtool check metrics"
    else bad "promtool check metrics" "$tmp/promtool"; fi
elif [ "${CUPROBE_REQUIRE_PROMETHEUS:-0}" = 1 ]; then bad "promtool check metrics (promtool missing)"
else skip=$((skip + 1)); echo "skip   exporter promtool check metrics (no promtool)"; fi

get "$port" / 'GARBAGE\r\n\r\n' >"$tmp/resp"
if head -n 1 "$tmp/resp" | grep -q "^HTTP/1.1 400"; then ok "a malformed request gets 400"
else bad "a malformed request gets 400" "$tmp/resp"; fi
get "$port" / 'POST /metrics HTTP/1.1\r\n\r\n' >"$tmp/resp"
if head -n 1 "$tmp/resp" | grep -q "^HTTP/1.1 405"; then ok "POST gets 405"
else bad "POST gets 405" "$tmp/resp"; fi

# a client that connects and says nothing does not hold up the others
exec 4<>"/dev/tcp/127.0.0.1/$port"
t0=$(date +%s%N)
get "$port" /metrics >"$tmp/resp"
t1=$(date +%s%N)
exec 4<&-
if head -n 1 "$tmp/resp" | grep -q "200 OK" && [ $(((t1 - t0) / 1000000)) -lt 1000 ]; then
    ok "a silent client holds up no one"
else bad "a silent client holds up no one" "$tmp/resp"; fi

# a client that sends half a request and stalls is dropped at its deadline
exec 4<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /metrics HTTP/1.1\r\nHost: sl' >&4
if timeout 5 cat <&4 >"$tmp/slow"; then ok "a stalled client is dropped after its deadline"
else bad "a stalled client is dropped after its deadline (still open after 5 s)"; fi
exec 4<&-

# 50 clients at once
for i in $(seq 50); do (get "$port" /metrics | head -n 1 >"$tmp/c.$i") & done
wait_n=0
for i in $(seq 50); do
    for _ in $(seq 50); do [ -s "$tmp/c.$i" ] && break; sleep 0.1; done
    grep -q "200 OK" "$tmp/c.$i" && wait_n=$((wait_n + 1))
done
if [ "$wait_n" = 50 ]; then ok "50 concurrent clients all get 200"
else bad "50 concurrent clients all get 200 ($wait_n did)"; fi

# sequential scrapes: the time of one, median of 200
for i in $(seq 200); do
    s=$(date +%s%N); get "$port" /metrics >/dev/null; e=$(date +%s%N)
    echo $(((e - s) / 1000))
done | sort -n | sed -n 100p >"$tmp/median"
rss=$(awk '/^VmRSS/ {print $2}' "/proc/$epid/status")
fds=$(ls "/proc/$epid/fd" | wc -l)
echo "exporter: 2 fake GPUs, scrape median $(cat "$tmp/median") us (bash client), RSS $rss kB, $fds descriptors"

kill -TERM "$epid"
st=0
for _ in $(seq 30); do kill -0 "$epid" 2>/dev/null || break; sleep 0.1; done
wait "$epid"; st=$?
if [ "$st" = 0 ] && grep -q "exporter stopped" "$tmp/exporter.$port.log"; then ok "SIGTERM stops it cleanly (exit 0)"
else bad "SIGTERM stops it cleanly (exit $st)" "$tmp/exporter.$port.log"; fi

# monitor --textfile: node_exporter's textfile, whole after every sample,
# no temporary file left
if "$tool" monitor --count 3 --interval 0.05 --format prom --textfile "$tmp/gpu.prom" 2>"$tmp/mon.err" &&
   grep -q '^cuprobe_gpu_kernel_active_percent{gpu="1"' "$tmp/gpu.prom" &&
   [ -z "$(ls "$tmp" | grep 'gpu.prom.tmp')" ] &&
   { ! command -v promtool >/dev/null 2>&1 || promtool check metrics <"$tmp/gpu.prom" >"$tmp/promtool" 2>&1; }; then
    ok "monitor --textfile writes a whole exposition, no temporary left"
else bad "monitor --textfile writes a whole exposition, no temporary left" "$tmp/mon.err"; fi

# monitor until told to stop: SIGTERM ends it cleanly, its child with it
"$tool" monitor --interval 0.1 --format jsonl >"$tmp/mon.jsonl" 2>"$tmp/mon.err" &
mpid=$!
pids="$pids $mpid"
sleep 1
kill -TERM "$mpid"
wait "$mpid"; st=$?
if [ "$st" = 0 ] && grep -q '"seq": 3,' "$tmp/mon.jsonl"; then ok "monitor stops on SIGTERM (exit 0)"
else bad "monitor stops on SIGTERM (exit $st)" "$tmp/mon.err"; fi

# a GPU lost while serving: the other keeps its series
if start tele-lost --interval 0.1 --doctor-every 0 &&
   wait_for "$port" 'cuprobe_gpu_up{gpu="0",.*} 0$' 10 &&
   grep -q 'cuprobe_gpu_up{gpu="1",.*} 1$' "$tmp/body" &&
   grep -q 'cuprobe_gpu_state{gpu="0",.*state="lost"} 1$' "$tmp/body" &&
   grep -q 'cuprobe_gpu_kernel_active_percent{gpu="1",' "$tmp/body" &&
   ! grep -q 'cuprobe_gpu_kernel_active_percent{gpu="0",' "$tmp/body"; then
    ok "a lost GPU: its series go, the other GPU's stay"
else bad "a lost GPU: its series go, the other GPU's stay" "$tmp/body"; fi
kill -TERM "$epid" 2>/dev/null; wait "$epid" 2>/dev/null

# pod labels from the kubelet's pod-resources socket (gRPC on a unix
# socket): a stand-in kubelet served by gRPC's own Python server
# (tests/kubelet/podres_server.py, Debian's python3-grpcio)
export CUPROBE_TEST_PODRES_EVERY_MS=300
# kubelet MODE: a stand-in on $tmp/kubelet-MODE.sock; sets kpid
kubelet() {
    rm -f "$tmp/kubelet-$1.sock"
    "$kpy" tests/kubelet/podres_server.py "$tmp/kubelet-$1.sock" "$1" >"$tmp/kubelet-$1.log" 2>&1 &
    kpid=$!
    pids="$pids $kpid"
    for _ in $(seq 100); do grep -q ready "$tmp/kubelet-$1.log" 2>/dev/null && return 0; sleep 0.1; done
    return 1
}
# scrapes_fast N: N scrapes, each answered in under 500 ms
scrapes_fast() {
    for _ in $(seq "$1"); do
        s=$(date +%s%N)
        get "$port" /metrics | head -n 1 | grep -q "200 OK" || return 1
        [ $((($(date +%s%N) - s) / 1000000)) -lt 500 ] || return 1
        sleep 0.1
    done
}
stop_exporter() { kill -TERM "$epid" 2>/dev/null; wait "$epid" 2>/dev/null; }

if start tele-steady-2gpu --interval 0.2 --doctor-every 0 --pod-resources "$tmp/absent.sock" &&
   wait_for "$port" 'cuprobe_gpu_up{gpu="1",' 10 && sleep 1 && ! grep -q 'pod=' "$tmp/body" &&
   [ "$(grep -c 'no pod labels' "$tmp/exporter.$port.log")" = 1 ] &&
   grep -q "no pod labels: cannot connect to $tmp/absent.sock: no such file or directory" "$tmp/exporter.$port.log"; then
    ok "pod labels: no socket, no labels and one line in the log"
else bad "pod labels: no socket, no labels and one line in the log" "$tmp/exporter.$port.log"; fi
stop_exporter

kpy=
for p in /usr/bin/python3 python3; do "$p" -c 'import grpc' 2>/dev/null && { kpy=$p; break; }; done
if [ -n "$kpy" ]; then
    if kubelet ok && start tele-steady-2gpu --interval 0.2 --doctor-every 0 --pod-resources "$tmp/kubelet-ok.sock" &&
       wait_for "$port" 'cuprobe_gpu_up{gpu="1",.*,pod="trainer-0",namespace="ml",container="pytorch"} 1$' 10 &&
       grep -q 'cuprobe_gpu_power_watts{gpu="0",uuid="GPU-2a36941f-[^}]*,pod="infer-7",namespace="serving",container="server"} ' "$tmp/body" &&
       ! grep -q 'cuprobe_gpu_up{gpu="0",.*pod="trainer-0"' "$tmp/body" &&
       grep -q "pod labels from $tmp/kubelet-ok.sock (2 NVIDIA devices held by containers)" "$tmp/exporter.$port.log"; then
        ok "pod labels: pod, namespace and container on the GPU each container holds"
    else bad "pod labels: pod, namespace and container on the GPU each container holds" "$tmp/body"; sed 's/^/    /' "$tmp/exporter.$port.log" "$tmp/kubelet-ok.log" | tail -n 8; fi
    if command -v promtool >/dev/null 2>&1; then
        if promtool check metrics <"$tmp/body" >"$tmp/promtool" 2>&1; then ok "pod labels: promtool check metrics"
        else bad "pod labels: promtool check metrics" "$tmp/promtool"; fi
    fi
    # the kubelet goes away: the last answer is kept, and said so once
    kill -9 "$kpid" 2>/dev/null; wait "$kpid" 2>/dev/null
    for _ in $(seq 30); do grep -q "keeping the last answer" "$tmp/exporter.$port.log" && break; sleep 0.1; done
    sleep 1
    if wait_for "$port" 'cuprobe_gpu_up{gpu="1",.*,pod="trainer-0",' 2 &&
       [ "$(grep -c 'keeping the last answer' "$tmp/exporter.$port.log")" = 1 ]; then
        ok "pod labels: a kubelet gone keeps the last answer"
    else bad "pod labels: a kubelet gone keeps the last answer" "$tmp/exporter.$port.log"; fi
    stop_exporter

    # garbage, a gRPC error, a kubelet that never answers, a socket that is not HTTP/2
    for case in "garbage:not a ListPodResourcesResponse (malformed protobuf)" \
                "denied:gRPC status 7: not for you" \
                "hang:no answer within 2000 ms" "silent:no answer within 2000 ms"; do
        mode=${case%%:*} why=${case#*:}
        if kubelet "$mode" && start tele-steady-2gpu --interval 0.2 --doctor-every 0 --pod-resources "$tmp/kubelet-$mode.sock" &&
           scrapes_fast 25 && wait_for "$port" 'cuprobe_gpu_up{gpu="1",' 5 && ! grep -q 'pod=' "$tmp/body" &&
           grep -q "no pod labels: $tmp/kubelet-$mode.sock: $why" "$tmp/exporter.$port.log" &&
           [ "$(grep -c 'no pod labels' "$tmp/exporter.$port.log")" = 1 ]; then
            ok "pod labels: a kubelet answering $mode: no labels, one line, scrapes stay fast"
        else bad "pod labels: a kubelet answering $mode: no labels, one line, scrapes stay fast" "$tmp/exporter.$port.log"; fi
        stop_exporter
        kill -9 "$kpid" 2>/dev/null; wait "$kpid" 2>/dev/null
    done
elif [ "${CUPROBE_REQUIRE_GRPC:-0}" = 1 ]; then bad "pod labels against a gRPC server (python3-grpcio missing)"
else skip=$((skip + 1)); echo "skip   exporter pod labels against a gRPC server (no python3 with grpc: Debian's python3-grpcio)"; fi
unset CUPROBE_TEST_PODRES_EVERY_MS

# a real Prometheus scrapes 8 fake GPUs and answers for them
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
    if start tele-8gpu --interval 1 --doctor-every 0; then
        pport=$((port + 1))
        cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: cuprobe
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
        prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
            --web.listen-address="127.0.0.1:$pport" >"$tmp/prometheus.log" 2>&1 &
        ppid_=$!
        pids="$pids $ppid_"
        got=0
        for _ in $(seq 60); do
            promtool query instant "http://127.0.0.1:$pport" 'cuprobe_gpu_kernel_active_percent' >"$tmp/q" 2>&1
            [ "$(grep -c '=> 100' "$tmp/q")" = 8 ] && { got=1; break; }
            sleep 0.5
        done
        if [ $got = 1 ] && grep -q 'name="NVIDIA H200"' "$tmp/q" && grep -q 'pci_bus_id=' "$tmp/q"; then
            ok "Prometheus scrapes it and answers for the 8 GPUs"
        else bad "Prometheus scrapes it and answers for the 8 GPUs" "$tmp/q"; cat "$tmp/prometheus.log" | tail -5; fi
        sleep 3
        promtool query instant "http://127.0.0.1:$pport" \
            'quantile_over_time(0.5, scrape_duration_seconds{job="cuprobe"}[1m])' >"$tmp/sd" 2>&1
        rss=$(awk '/^VmRSS/ {print $2}' "/proc/$epid/status")
        cpu=$(awk '{print $14 + $15}' "/proc/$epid/stat")
        echo "exporter: 8 fake GPUs, Prometheus scrape_duration median $(sed -n 's/.*=> \([^ ]*\) .*/\1/p' "$tmp/sd" | head -n 1) s, RSS $rss kB, CPU $cpu ticks since start"
        if [ -z "$sanflags" ] && [ -n "$rss" ] && [ "$rss" -gt 10240 ]; then bad "RSS at most 10 MB ($rss kB)"
        elif [ -z "$sanflags" ]; then ok "RSS at most 10 MB ($rss kB)"; fi
        kill -TERM "$ppid_" 2>/dev/null; wait "$ppid_" 2>/dev/null
        kill -TERM "$epid" 2>/dev/null; wait "$epid" 2>/dev/null
    else bad "starts with 8 GPUs" "$tmp/exporter.$port.log"; fi
elif [ "${CUPROBE_REQUIRE_PROMETHEUS:-0}" = 1 ]; then bad "Prometheus scrapes it (prometheus or promtool missing)"
else skip=$((skip + 1)); echo "skip   exporter Prometheus scrape (no prometheus; .ci/run installs it)"; fi

left=$(leftovers_wait "$CUPROBE_TEST_MARK" 2>/dev/null)
if [ -n "$left" ]; then bad "no process left behind: $left"; fi
echo "cli exporter $pass $fail $skip" >>"$out"
exit 0
