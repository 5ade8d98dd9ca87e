#!/bin/sh
# The verdicts on the GPU machine, in one run: build, the GPU tests (the
# fault cases of tests/gpu/faults.sh among them, each case's report kept),
# a live doctor and one under a short deadline, `arch` on the real cuFFT
# beside cuobjdump (which cubins it finds, and the time), and level 1
# against the floor beside the build before (whose opening of the device
# nodes this run's build added).  Writes everything under $OUT (default
# ./out-gpu).
# Usage (repo root on the GPU machine): sh bench/gpu_verdicts.sh [OLD_CUPROBE [N]]
old=${1:-}
n=${2:-10}
OUT=${OUT:-./out-gpu}
mkdir -p "$OUT"
{
    date -u; uname -r; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
    echo "== make test-gpu"; make test-gpu 2>&1 | tail -60
    echo "== faults.sh, each case's report kept in faults/"
    sh tests/gpu/faults.sh ./cuprobe "$OUT/faults"; echo "faults.sh exit $?"
    echo "== live doctor"; ./cuprobe -v >"$OUT/doctor.txt"; echo "doctor exit $?"
    grep -E "libraries.load|driver.libcuda|driver.cuinit|kernel.devnodes|system.devnode_access" "$OUT/doctor.txt"
    echo "== doctor --timeout 0.2 (a real cuInit under a short deadline)"
    ./cuprobe --timeout 0.2 >"$OUT/doctor-0.2.txt"; echo "exit $?"; sed -n '/root cause/,/fix/p' "$OUT/doctor-0.2.txt"
    echo "== cuprobe processes right after a run, and a second later (zombies included); PID 1 is $(cat /proc/1/comm)"
    ./cuprobe >/dev/null; ps -eo pid=,ppid=,stat=,etime=,comm= | awk '$5 == "cuprobe"'; echo "(end)"
    sleep 1; ps -eo pid=,ppid=,stat=,etime=,comm= | awk '$5 == "cuprobe"'; echo "(end)"
    echo "== arch on cuFFT beside cuobjdump"
    for f in /usr/local/cuda/lib64/libcufft.so.12 \
             "$(python3 -c 'import nvidia.cufft, os; print(os.path.join(list(nvidia.cufft.__path__)[0], "lib", "libcufft.so.12"))' 2>/dev/null)"; do
        [ -f "$f" ] || continue
        echo "-- $f ($(stat -c %s "$f") bytes)"
        if [ -x /usr/bin/time ]; then
            /usr/bin/time -f "arch: %e s, %M KB peak" ./cuprobe arch --sm 90 "$f" >"$OUT/arch-cufft.txt" 2>"$OUT/arch-time.txt"
        else
            t0=$(date +%s.%N); ./cuprobe arch --sm 90 "$f" >"$OUT/arch-cufft.txt"; t1=$(date +%s.%N)
            echo "arch: $(awk "BEGIN { print $t1 - $t0 }") s" >"$OUT/arch-time.txt"
        fi
        echo "arch exit $?"; cat "$OUT/arch-time.txt"; grep -E "SASS|PTX|on CC|modules|containers" "$OUT/arch-cufft.txt"
        if command -v cuobjdump >/dev/null 2>&1; then
            t0=$(date +%s.%N)
            timeout 300 cuobjdump --list-elf "$f" >"$OUT/cuobjdump-elf.txt" 2>&1
            t1=$(date +%s.%N)
            echo "cuobjdump --list-elf: $(awk "BEGIN { print $t1 - $t0 }") s"
            echo "cuobjdump cubins per arch (it reads .nv_fatbin only):"; grep -o 'sm_[0-9]*[af]\?' "$OUT/cuobjdump-elf.txt" | sort | uniq -c
            echo "cuprobe SASS line:"; sed -n 's/^  SASS: //p' "$OUT/arch-cufft.txt"
            echo "every container cut out by its magic, 400 of them given to cuobjdump:"
            t0=$(date +%s.%N); python3 tests/gpu/carve_fatbins.py "$f" 400; t1=$(date +%s.%N)
            echo "(carving and cuobjdump: $(awk "BEGIN { print $t1 - $t0 }") s)"
        fi
        break
    done
    if [ -n "$old" ] && [ -x "$old" ]; then
        echo "== level 1 vs floor, this build and $old in the same rounds, 0.3 s apart"
        SETTLE_S=0.3 bench/l1_vs_floor.sh "$n" "$old"
    fi
} 2>&1 | tee "$OUT/run.log"
tar czf "$OUT/faults.tgz" -C "$OUT" faults 2>/dev/null && rm -rf "$OUT/faults"
