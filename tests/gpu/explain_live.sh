#!/bin/sh
# explain on errors made live by real software on this GPU: each case makes
# a real CUDA error (PyTorch, a CUDA program built here with nvcc), feeds
# what it printed to `cuprobe explain --check -` and checks the signal, the
# numbers taken from it against the program's own, and what this machine
# says (confirmed / not seen here).  Without a GPU every case is a skip.
# Usage: tests/gpu/explain_live.sh TOOL [OUTDIR]   (OUTDIR keeps the texts and answers)
tool=${1:-./cuprobe}
keep=${2:-}
pass=0 fail=0 skip=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-explain-live.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ok()   { pass=$((pass + 1)); echo "ok     explain-live $1"; }
bad()  { fail=$((fail + 1)); echo "FAIL   explain-live $1: $2"; }
skip() { skip=$((skip + 1)); echo "skip   explain-live $1: $2"; }
names="torch_oom device_assert illegal_address no_kernel_image no_gpus_visible torch_healthy missing_library"

if [ ! -e /dev/nvidiactl ] || [ ! -r /proc/driver/nvidia/version ]; then
    for t in $names; do skip "$t" "no NVIDIA GPU on this machine"; done
    printf '%d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
    exit 0
fi
have_torch=0
python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null && have_torch=1
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || nvcc=""

# explain NAME [ENV...]: explain --check --json of $tmp/NAME.txt into $tmp/NAME.json
explain() {
    n=$1; shift
    env "$@" "$tool" explain --check --json - <"$tmp/$n.txt" >"$tmp/$n.json" 2>"$tmp/$n.err"
    echo $?
}
# has NAME TEXT: the JSON answer holds TEXT
has() { grep -qF -- "$2" "$tmp/$1.json"; }
# first_confirmed NAME: the answer's first signal is one this machine confirms (--check lists those first)
first_confirmed() { grep -m1 '"layer": ' "$tmp/$1.json" | grep -qF '"here": {"verdict": "confirmed"'; }

# 1. PyTorch out of memory: the sizes explain reads match what torch itself says
if [ $have_torch = 1 ]; then
    python3 - >"$tmp/torch_oom.ref" 2>"$tmp/torch_oom.txt" <<'EOF'
import sys, torch
ask = 400 * 10**9
try:
    torch.empty(ask, dtype=torch.uint8, device="cuda")
except torch.OutOfMemoryError as e:
    free, total = torch.cuda.mem_get_info()
    print(ask, free, total)
    print("torch.OutOfMemoryError: " + str(e), file=sys.stderr)
EOF
    code=$(explain torch_oom)
    read -r ask free total <"$tmp/torch_oom.ref"
    vals=$(python3 - "$tmp/torch_oom.json" "$ask" "$free" "$total" <<'EOF'
import json, sys
s = [x for x in json.load(open(sys.argv[1]))["signals"] if x["code"] == "torch.oom"]
if not s: print("no torch.oom"); sys.exit()
v = s[0]["values"]; ask, free, total = map(int, sys.argv[2:5])
# torch prints two decimals of GiB/MiB: allow that rounding (0.005 GiB, 1% of free)
errs = []
if abs(v.get("requested_bytes", -1) - ask) > 0.006 * 2**30: errs.append("requested %s vs %d" % (v.get("requested_bytes"), ask))
if abs(v.get("total_bytes", -1) - total) > 0.006 * 2**30: errs.append("total %s vs %d" % (v.get("total_bytes"), total))
if abs(v.get("free_bytes", -1) - free) > max(0.01 * free, 0.006 * 2**30): errs.append("free %s vs %d" % (v.get("free_bytes"), free))
print("ok" if not errs else "; ".join(errs))
EOF
)
    if [ "$code" = 0 ] && [ "$vals" = ok ]; then ok torch_oom; else bad torch_oom "exit $code, $vals"; fi
else skip torch_oom "PyTorch with CUDA not installed"; fi

# 2. a device-side assert from an out-of-range index
if [ $have_torch = 1 ]; then
    python3 -c 'import torch; x = torch.zeros(3, device="cuda"); i = torch.tensor([5], device="cuda"); print(x[i].sum().item())' \
        >/dev/null 2>"$tmp/device_assert.txt"
    code=$(explain device_assert)
    if [ "$code" = 0 ] && has device_assert '"code": "cuda.device_assert"'; then ok device_assert
    else bad device_assert "exit $code: $(head -c 300 "$tmp/device_assert.json")"; fi
else skip device_assert "PyTorch with CUDA not installed"; fi

# 3. a kernel writing through a bad pointer, checked with the runtime's own message
if [ -n "$nvcc" ]; then
    cat >"$tmp/bad.cu" <<'EOF'
#include <cstdio>
__global__ void poke(int *p) { p[threadIdx.x] = 1; }
int main() {
    poke<<<1, 32>>>((int *)0x10);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "CUDA error at bad.cu:5 code=%d(%s) \"%s\"\n", (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
    return e != cudaSuccess;
}
EOF
    "$nvcc" -o "$tmp/bad" "$tmp/bad.cu" 2>"$tmp/bad.build" && { "$tmp/bad" 2>"$tmp/illegal_address.txt"; true; }
    code=$(explain illegal_address)
    if [ "$code" = 0 ] && has illegal_address '"code": "cuda.illegal_address"'; then ok illegal_address
    else bad illegal_address "exit $code: $(cat "$tmp/illegal_address.txt" "$tmp/bad.build" | head -c 300)"; fi
else skip illegal_address "nvcc not installed"; fi

# 4. no kernel image: an extension built for sm_100 only, in a package the
#    traceback names; --check must find that library and say it cannot run here
if [ -n "$nvcc" ]; then
    pkg=$tmp/site-packages/ext
    mkdir -p "$pkg"
    cat >"$tmp/ext.cu" <<'EOF'
#include <cstdio>
__global__ void k(int *p) { if (p) p[0] = 1; }
extern "C" int ext_run(void) {
    k<<<1, 1>>>(nullptr);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) fprintf(stderr, "RuntimeError: CUDA error: %s\n", cudaGetErrorString(e));
    return (int)e;
}
EOF
    printf 'extern int ext_run(void);\nint main(void) { return ext_run() != 0; }\n' >"$tmp/main.c"
    if "$nvcc" -shared -Xcompiler -fPIC -gencode arch=compute_100,code=sm_100 -o "$pkg/_C.so" "$tmp/ext.cu" 2>"$tmp/ext.build" &&
       "$nvcc" -o "$tmp/ext_main" "$tmp/main.c" "$pkg/_C.so" 2>>"$tmp/ext.build"; then
        {
            echo 'Traceback (most recent call last):'
            echo "  File \"$pkg/__init__.py\", line 12, in forward"
            LD_LIBRARY_PATH=$pkg "$tmp/ext_main" 2>&1
        } >"$tmp/no_kernel_image.txt"
        code=$(explain no_kernel_image)
        if [ "$code" = 0 ] && has no_kernel_image '"code": "cuda.no_kernel_image"' &&
           has no_kernel_image '"here": {"verdict": "confirmed"' && has no_kernel_image "_C.so\", \"verdict\": \"cannot run\"" &&
           first_confirmed no_kernel_image && has no_kernel_image '"here_root": '; then
            ok no_kernel_image
        else bad no_kernel_image "exit $code: $(head -c 600 "$tmp/no_kernel_image.json")"; fi
    else bad no_kernel_image "build failed: $(head -c 300 "$tmp/ext.build")"; fi
else skip no_kernel_image "nvcc not installed"; fi

# 5. every GPU hidden: PyTorch's message, and --check in the same environment confirms it
if [ $have_torch = 1 ]; then
    CUDA_VISIBLE_DEVICES=-1 python3 -c 'import torch; torch.zeros(1).cuda()' >/dev/null 2>"$tmp/no_gpus_visible.txt"
    code=$(explain no_gpus_visible CUDA_VISIBLE_DEVICES=-1)
    if [ "$code" = 0 ] && has no_gpus_visible '"layer": "system"' && has no_gpus_visible '"here": {"verdict": "confirmed"'; then
        ok no_gpus_visible
    else bad no_gpus_visible "exit $code: $(head -c 400 "$tmp/no_gpus_visible.json")"; fi
else skip no_gpus_visible "PyTorch with CUDA not installed"; fi

# 6. the same "no kernel image" text naming the installed PyTorch: its code runs
#    here, so this machine does not confirm it
if [ $have_torch = 1 ]; then
    t=$(python3 -c 'import torch, os; print(os.path.dirname(torch.__file__))')
    printf 'Traceback (most recent call last):\n  File "%s/nn/modules/module.py", line 1751, in _call_impl\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n' "$t" \
        >"$tmp/torch_healthy.txt"
    code=$(explain torch_healthy)
    if [ "$code" = 0 ] && has torch_healthy '"here": {"verdict": "not_seen"' && has torch_healthy '"verdict": "can run"'; then
        ok torch_healthy
    else bad torch_healthy "exit $code: $(head -c 600 "$tmp/torch_healthy.json")"; fi
else skip torch_healthy "PyTorch with CUDA not installed"; fi

# 7. the dynamic loader's own message for a CUDA 11 runtime this machine lacks:
#    --check looks for that soname where the loader (and each framework) looks
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import ctypes; ctypes.CDLL("libcudart.so.11.0")' >/dev/null 2>"$tmp/missing_library.txt"
    code=$(explain missing_library)
    if [ "$code" = 0 ] && has missing_library '"code": "loader.runtime"' && has missing_library '"soname": "libcudart.so.11.0"' &&
       has missing_library '"here": {"verdict": "confirmed"'; then ok missing_library
    else bad missing_library "exit $code: $(cat "$tmp/missing_library.txt" | head -c 200) $(head -c 600 "$tmp/missing_library.json")"; fi
else skip missing_library "python3 not installed"; fi

if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$tmp"/*.txt "$tmp"/*.json "$keep"/ 2>/dev/null; fi
printf '%d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
[ $fail = 0 ]
