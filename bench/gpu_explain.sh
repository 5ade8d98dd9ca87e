#!/bin/sh
# explain on the GPU machine: real errors made by PyTorch and by CUDA
# programs built here, explained and checked against this machine
# (tests/gpu/explain_live.sh), the corpus replayed through the tool, the
# 1 MB log timing, and the whole GPU test suite.
# Usage (repo root on the GPU machine): sh bench/gpu_explain.sh   (writes $OUT)
OUT=${OUT:-./out-gpu}
mkdir -p "$OUT"
{
    date -u; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>&1
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
    echo "== live errors, explained and checked here"
    sh tests/gpu/explain_live.sh ./cuprobe /tmp/cp-live
    echo "== the texts and what explain --check said"
    for f in /tmp/cp-live/*.txt; do
        n=$(basename "$f" .txt)
        echo "--- $n: $(head -c 300 "$f" | tr '\n' ' ')"
        ./cuprobe explain --check - <"$f" | grep -E '^\[|here:|library:|values:' | head -8
    done
    tar czf "$OUT/live.tgz" -C /tmp cp-live
    echo "== 1 MB log"; sh bench/explain_big.sh ./cuprobe
    echo "== make test-gpu"; make test-gpu 2>&1 | tail -16
} 2>&1 | tee "$OUT/run.log"
