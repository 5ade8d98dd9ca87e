#!/bin/bash
# The exporter under load with the fake NVML (8 GPUs, tests/fakes/scenarios/
# tele-8gpu.txt): N clients scraping once a second each for SECONDS, the
# exporter's RSS and descriptors every 10 s (they must not grow), its CPU
# time; then one client at one scrape a second for 60 s (the CPU share of
# a normal scrape rate).  Writes $OUT/soak.csv and prints a summary.
# Usage (repo root, after make): bash bench/exporter_soak.sh [SECONDS] [N]
secs=${1:-3600}
n=${2:-50}
OUT=${OUT:-./out-soak}
mkdir -p "$OUT"
root=$(pwd)
export CUPROBE_LIBNVML=$root/build/fakes/libnvidia-ml.so.1 CUPROBE_LIBCUDA=$root/build/fakes/libcuda.so.1
export CUPROBE_FAKE_SCENARIO=$root/tests/fakes/scenarios/tele-8gpu.txt
port=$((20000 + RANDOM % 20000))
./cuprobe exporter --listen 127.0.0.1:$port --doctor-every 1 2>"$OUT/exporter.log" &
ex=$!
for _ in $(seq 50); do grep -q serving "$OUT/exporter.log" && break; sleep 0.1; done
scrape() {
    exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
    printf 'GET /metrics HTTP/1.1\r\nHost: s\r\n\r\n' >&3
    cat <&3 >/dev/null
    exec 3<&-
}
clients=""
end=$(($(date +%s) + secs))
for i in $(seq "$n"); do
    (while [ "$(date +%s)" -lt $end ]; do scrape || echo fail >>"$OUT/failures"; sleep 1; done) &
    clients="$clients $!"
done
hz=$(getconf CLK_TCK)
echo "seconds,rss_kb,fds,cpu_ms" >"$OUT/soak.csv"
t0=$(date +%s)
while [ "$(date +%s)" -lt $end ]; do
    echo "$(($(date +%s) - t0)),$(awk '/^VmRSS/ {print $2}' /proc/$ex/status),$(ls /proc/$ex/fd | wc -l),$(awk -v hz="$hz" '{print ($14 + $15) * 1000 / hz}' /proc/$ex/stat)" >>"$OUT/soak.csv"
    sleep 10
done
for c in $clients; do wait "$c" 2>/dev/null; done
c0=$(awk '{print $14 + $15}' /proc/$ex/stat)
for _ in $(seq 60); do scrape; sleep 1; done
c1=$(awk '{print $14 + $15}' /proc/$ex/stat)
kill -TERM $ex; wait $ex; st=$?
echo "soak: $n clients x 1 scrape/s for $secs s, 8 fake GPUs; failures: $(cat "$OUT/failures" 2>/dev/null | wc -l)"
echo "rss_kb first/last/max: $(awk -F, 'NR == 2 {f = $2} NR > 1 {l = $2; if ($2 > m) m = $2} END {print f "/" l "/" m}' "$OUT/soak.csv")"
echo "fds first/last/max: $(awk -F, 'NR == 2 {f = $3} NR > 1 {l = $3; if ($3 > m) m = $3} END {print f "/" l "/" m}' "$OUT/soak.csv")"
echo "cpu over the soak: $(tail -n 1 "$OUT/soak.csv" | cut -d, -f4) ms"
echo "1 scrape/s for 60 s: $(( (c1 - c0) * 1000 / hz )) ms of CPU ($(awk -v c=$((c1 - c0)) -v hz="$hz" 'BEGIN { printf "%.2f", c / hz / 60 * 100 }') % of one core)"
echo "exporter exit: $st"
