#!/bin/sh
# The upper layers on the GPU machine: cuprobe arch on PyTorch against
# cuobjdump and torch.cuda.get_arch_list(), the whole PyTorch install timed,
# the framework and libraries layers, a 1 GB file, and a snapshot.
# Usage (repo root on the GPU machine): sh bench/gpu_arch_frameworks.sh   (writes $OUT)
OUT=${OUT:-./out-gpu}
mkdir -p "$OUT"
run() { python3 -c 'import resource,subprocess,sys,time
t=time.time(); r=subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); w=time.time()-t
print("wall=%.3fs maxrss=%dkB exit=%d" % (w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode))' "$@"; }
{
    date -u; nvidia-smi -L; cat /proc/driver/nvidia/version | head -1
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
    T=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))')
    L=$T/lib/libtorch_cuda.so
    echo "== torch.cuda.get_arch_list()"; python3 -c 'import torch; print(" ".join(torch.cuda.get_arch_list()))'
    echo "== cuobjdump --list-elf (distinct arches)"
    cuobjdump --list-elf "$L" | grep -o 'sm_[0-9]*[af]\?' | sort -u -V | tr '\n' ' '; echo
    echo "== cuobjdump --list-ptx (distinct)"
    cuobjdump --list-ptx "$L" | grep -o 'sm_[0-9]*[af]\?' | sort -u -V | tr '\n' ' '; echo
    echo "== cuprobe arch on libtorch_cuda.so"; ./cuprobe arch "$L"
    echo "== timing: cuprobe arch on the whole torch install, then cuobjdump --list-elf on libtorch_cuda.so"
    ./cuprobe arch "$T" >/dev/null; run ./cuprobe arch "$T"; run ./cuprobe arch "$T"
    run cuobjdump --list-elf "$L"; run cuobjdump --list-elf "$L"
    du -sh "$T"
    echo "== samples on this GPU"; ./cuprobe arch tests/fatbin-samples/sm100.so tests/fatbin-samples/ptx80.so tests/fatbin-samples/sm90.so
    echo "== doctor: libraries and framework layers"; ./cuprobe -v | sed -n '1,12p;/libraries.found/,/framework.conflicts/p'
    ./cuprobe --json >"$OUT/doctor.json"; echo "doctor exit $?"
    bench/median_ms.sh 10 ./cuprobe
    echo "== a 1 GB file"; sh bench/arch_big.sh 2>&1 | tail -8
    snap=h200-$(nvidia-smi -L | wc -l)gpu
    rm -rf "/tmp/$snap" && ./cuprobe snapshot "/tmp/$snap" && tar czf "$OUT/h200-snapshot.tgz" -C /tmp "$snap"
    make test-gpu 2>&1 | tail -1
} 2>&1 | tee "$OUT/run.log"
