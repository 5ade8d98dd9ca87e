#!/bin/sh
# Tests that need a real NVIDIA GPU.  Without one each reports skip, never fail.
# Usage: tests/gpu/run.sh TOOL   (make test-gpu)
tool=${1:-./cuprobe}
pass=0 fail=0 skip=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-gpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ok()   { pass=$((pass + 1)); echo "ok     gpu $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL   gpu $1: $2"; }
skip() { skip=$((skip + 1)); echo "skip   gpu $1: $2"; }

have_gpu=1
[ -e /dev/nvidiactl ] || have_gpu=0
[ -r /proc/driver/nvidia/version ] || have_gpu=0
names="healthy_stack snapshot_replay visibility_hides_all json_devices arch_vs_cuobjdump faults level2 info bench"
if [ $have_gpu = 0 ]; then
    for t in $names; do skip "$t" "no NVIDIA GPU on this machine"; done
    printf '%d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
    exit 0
fi

# 1. on a healthy GPU machine every examined layer passes and the exit code is 0
"$tool" --json >"$tmp/doctor.json"; code=$?
miss=""
for l in hardware kernel system driver runtime; do
    grep -q "\"name\": \"$l\", \"status\": \"pass\"" "$tmp/doctor.json" || miss="$miss $l"
done
# (exit 1 is healthy too when only the application layer warns: an application
# XID in the kernel log, e.g. from explain_live.sh's deliberate bad pointer)
app_only=0
[ $code = 1 ] && grep -q '"root_cause": {"layer": "application"' "$tmp/doctor.json" && app_only=1
if { [ $code = 0 ] || [ $app_only = 1 ]; } && [ -z "$miss" ]; then ok healthy_stack
else bad healthy_stack "exit $code, not passing:$miss $(grep -o '"root_cause": {[^}]*' "$tmp/doctor.json")"; fi

# 2. a snapshot replays to the same findings
if "$tool" snapshot "$tmp/snap" 2>"$tmp/snap.err"; then
    "$tool" doctor --json --from "$tmp/snap" >"$tmp/replay.json"
    grep '"check"' "$tmp/doctor.json" | grep -v 'gpu_processes\|memory_headroom\|clocks' >"$tmp/a"
    grep '"check"' "$tmp/replay.json" | grep -v 'gpu_processes\|memory_headroom\|clocks' >"$tmp/b"
    if cmp -s "$tmp/a" "$tmp/b"; then ok snapshot_replay; else bad snapshot_replay "$(diff "$tmp/a" "$tmp/b" | head -5)"; fi
else bad snapshot_replay "$(cat "$tmp/snap.err")"; fi

# 3. hiding every GPU is a system-layer failure that blocks the driver layer
CUDA_VISIBLE_DEVICES=-1 "$tool" --json >"$tmp/hidden.json"; code=$?
if [ $code = 2 ] && grep -q '"root_cause": {"layer": "system", "check": "system.visibility"' "$tmp/hidden.json" \
   && grep -q '"name": "driver", "status": "blocked"' "$tmp/hidden.json"; then ok visibility_hides_all
else bad visibility_hides_all "exit $code, $(grep root_cause "$tmp/hidden.json")"; fi

# 4. every GPU nvidia-smi lists is in the JSON devices with its UUID
if command -v nvidia-smi >/dev/null 2>&1; then
    m=""
    for u in $(nvidia-smi --query-gpu=uuid --format=csv,noheader); do grep -q "\"uuid\": \"$u\"" "$tmp/doctor.json" || m="$m $u"; done
    if [ -z "$m" ]; then ok json_devices; else bad json_devices "missing$m"; fi
else skip json_devices "nvidia-smi not installed"; fi

# 5. cuprobe arch lists the same SASS and PTX as cuobjdump, on the checked-in
#    samples and on PyTorch's libtorch_cuda.so where it is installed
if command -v cuobjdump >/dev/null 2>&1; then
    files=$(ls tests/fatbin-samples/*.so tests/fatbin-samples/*.obj 2>/dev/null)
    t=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))' 2>/dev/null)
    [ -n "$t" ] && [ -f "$t/lib/libtorch_cuda.so" ] && files="$files $t/lib/libtorch_cuda.so"
    m=""
    for f in $files; do
        # cuobjdump 13.0 names family cubins without their "f" (sm100f.so built
        # with -arch=sm_100f lists as sm_100; seen on the H200, 2026-11-30):
        # compare with the f dropped; test_fatbin checks the f itself
        ours_s=$("$tool" arch --sm 90 "$f" | sed -n 's/^  SASS: //p' | tr ' ' '\n' | grep '^sm_' | sed 's/f$//' | sort -u | tr '\n' ' ')
        ours_p=$("$tool" arch --sm 90 "$f" | sed -n 's/^  PTX:  //p' | grep -o 'compute_[0-9]*[af]\?' | sed 's/compute_/sm_/' | sort -u | tr '\n' ' ')
        if "$tool" arch --sm 90 "$f" | grep -q 'found through relocations'; then
            # containers outside .nv_fatbin (cuFFT's layout), which cuobjdump
            # does not look for in a library: each cut out and read by it
            carved=$(python3 tests/gpu/carve_fatbins.py "$f")
            theirs_s=$(echo "$carved" | sed -n 's/^sass: //p' | tr ' ' '\n' | sed 's/f$//' | grep . | sort -u | tr '\n' ' ')
            theirs_p=$(echo "$carved" | sed -n 's/^ptx: //p' | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
        else
            theirs_s=$(cuobjdump --list-elf "$f" 2>/dev/null | grep -o 'sm_[0-9]*[af]\?' | sort -u | tr '\n' ' ')
            theirs_p=$(cuobjdump --list-ptx "$f" 2>/dev/null | grep -o 'sm_[0-9]*[af]\?' | sort -u | tr '\n' ' ')
        fi
        [ "$ours_s" = "$theirs_s" ] && [ "$ours_p" = "$theirs_p" ] || m="$m ${f##*/}(sass: $ours_s/$theirs_s ptx: $ours_p/$theirs_p)"
    done
    if [ -z "$m" ]; then ok arch_vs_cuobjdump; else bad arch_vs_cuobjdump "$m"; fi
else skip arch_vs_cuobjdump "cuobjdump not installed"; fi

# 6. kernel- and system-layer faults made in mount namespaces (tests/gpu/faults.sh:
#    one line per case; as root, else the namespace cases skip)
if sh tests/gpu/faults.sh "$tool" >"$tmp/faults.txt" 2>&1; then ok faults
else bad faults "$(grep -c '^FAIL' "$tmp/faults.txt") case(s) failed"; fi
sed 's/^/       | /' "$tmp/faults.txt"

# 7. doctor --level 2 on a healthy GPU: every level-2 check passes, within
#    3 s wall in all (the figure is printed for docs/RESULTS.md)
l2checks="driver.context driver.kernels driver.streams hardware.compute hardware.copy_rates system.memory_holders"
t0=$(date +%s%N)
"$tool" doctor --level 2 --json >"$tmp/l2.json"; code=$?
t1=$(date +%s%N)
wall_ms=$(( (t1 - t0) / 1000000 ))
miss=""
for c in $l2checks; do
    grep -q "{\"check\": \"$c\", \"layer\": \"[a-z]*\", \"status\": \"pass\"" "$tmp/l2.json" || miss="$miss $c"
done
echo "       | doctor --level 2: exit $code, ${wall_ms} ms wall"
for c in $l2checks; do
    grep -o "{\"check\": \"$c\"[^}]*}" "$tmp/l2.json" | sed 's/^/       | /'
done
if [ -z "$miss" ] && [ "$wall_ms" -le 3000 ]; then ok level2
else bad level2 "exit $code, ${wall_ms} ms, not passing:${miss:- none}"; fi

# 8. cuprobe info: exit 0, a device per GPU nvidia-smi lists, no attribute
#    unknown on a real GPU, and memory, SM count and max clocks that agree
#    with nvidia-smi; the JSON and a snapshot's replay say the same
if "$tool" info >"$tmp/info.txt" 2>&1 && "$tool" info --json >"$tmp/info.json" 2>&1; then
    m=""
    grep -q '"attributes": null' "$tmp/info.json" && m="$m attributes-null"
    grep -q '"l2_cache_bytes": null\|"warp_size": null\|"clock_khz": null' "$tmp/info.json" && m="$m attribute-unknown"
    if command -v nvidia-smi >/dev/null 2>&1; then
        n=$(nvidia-smi -L | grep -c '^GPU ')
        grep -q "), $n device" "$tmp/info.txt" || m="$m count($n)"
        for u in $(nvidia-smi --query-gpu=uuid --format=csv,noheader); do grep -q "$u" "$tmp/info.txt" || m="$m $u"; done
        sm=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1 | tr -d ' ')
        grep -q "\"max_sm_clock_mhz\": $sm" "$tmp/info.json" || m="$m max_sm($sm)"
    fi
    if "$tool" snapshot "$tmp/isnap" >/dev/null 2>&1 && "$tool" info --from "$tmp/isnap" >"$tmp/info2.txt"; then
        # the header names the origin; the current PCIe link drops at idle
        sed 1d "$tmp/info.txt" | grep -v "PCIe link" >"$tmp/i1"; sed 1d "$tmp/info2.txt" | grep -v "PCIe link" >"$tmp/i2"
        cmp -s "$tmp/i1" "$tmp/i2" || m="$m replay($(diff "$tmp/i1" "$tmp/i2" | head -3 | tr '\n' ' '))"
    else m="$m snapshot"; fi
    if [ -z "$m" ]; then ok info; else bad info "$m"; fi
else bad info "exit non-zero: $(head -3 "$tmp/info.txt")"; fi

# 9. cuprobe bench on a healthy GPU: no row fails, the copies, HBM, launch and
# bf16 GEMM rows ran, in at most 30 s (the default run's budget on one H200)
t0=$(date +%s%N)
"$tool" bench --json >"$tmp/bench.json" 2>"$tmp/bench.err"; code=$?
t1=$(date +%s%N)
wall_ms=$(( (t1 - t0) / 1000000 ))
miss=""
for id in copy.h2d.pinned.ce copy.d2h.pinned.ce copy.bidir.pinned.ce copy.h2d.pinned.sm copy.d2d.ce copy.d2d.sm \
          hbm.read hbm.write launch.plain launch.roundtrip launch.graph gemm.bf16; do
    grep -q "{\"id\":\"$id\",[^}]*\"state\":\"ok\"" "$tmp/bench.json" || miss="$miss $id"
done
echo "       | cuprobe bench: exit $code, ${wall_ms} ms wall"
grep -o '{"id":"[^"]*"[^}]*"state":"[a-z]*"' "$tmp/bench.json" | sed 's/,"title".*"state"/ state/; s/^/       | /'
if [ $code = 0 ] && [ -z "$miss" ] && [ "$wall_ms" -le 30000 ]; then ok bench
else bad bench "exit $code, ${wall_ms} ms, not ok:${miss:- none} $(grep -o '"state":"failed"[^}]*' "$tmp/bench.json" | head -3)"; fi

printf '%d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
[ $fail = 0 ]
