# Sourced by the trace benchmarks (bench/gpu_trace.sh, bench/gpu_trace_counters.sh): build
# ./cuprobe and build/libcuprobe-trace.so (the injection library needs cupti.h: a toolkit's,
# or the nvidia-cuda-cupti wheel's include folder), then find libcupti (the toolkit's, else
# the wheel's) into CUPROBE_CUPTI, and awk_med: an awk function med(v, n), the median of
# v[1..n].  Needs $py; exits 1 without an injection library.
if [ -z "${CUPTI_INC:-}" ] && [ ! -f /usr/local/cuda/include/cupti.h ]; then
    # the PyTorch wheels' CUPTI carries its headers
    inc=$("$py" -c 'import nvidia.cuda_cupti as m, os; print(os.path.join(list(m.__path__)[0], "include"))' 2>/dev/null)
    [ -n "$inc" ] && [ -f "$inc/cupti.h" ] && CUPTI_INC=$inc && export CUPTI_INC
fi
make -s -j8 cuprobe 2>&1 | tail -5
if [ -n "${CUPTI_INC:-}" ] || [ -f /usr/local/cuda/include/cupti.h ]; then
    make -s ${CUPTI_INC:+CUPTI_INC="$CUPTI_INC"} build/libcuprobe-trace.so 2>&1 | tail -5
fi
# without a cupti.h here, a build/libcuprobe-trace.so carried from a machine with one serves
[ -f build/libcuprobe-trace.so ] || { echo "no build/libcuprobe-trace.so: no cupti.h found (set CUPTI_INC)"; exit 1; }
if [ -z "${CUPROBE_CUPTI:-}" ]; then
    for c in /usr/local/cuda/lib64/libcupti.so.13 /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13 \
             "$("$py" -c 'import nvidia.cuda_cupti as m, glob; print((glob.glob(list(m.__path__)[0] + "/lib/libcupti.so*") + [""])[0])' 2>/dev/null)"; do
        [ -n "$c" ] && [ -f "$c" ] && { CUPROBE_CUPTI=$c; export CUPROBE_CUPTI; break; }
    done
fi
echo "== libcupti: ${CUPROBE_CUPTI:-(the loader's search)}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1
awk_med='function med(v, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                                return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'
