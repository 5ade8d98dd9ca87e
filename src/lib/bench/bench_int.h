/*
 * Inside cuprobe bench (not API): what the parent (run.c) hands the probe
 * child (child.c), and the GEMM measurement (gemm.c) the child calls.
 *
 * The child answers in the answers format (facts/kv.h), one key per field
 * of a row, "bench.N.FIELD"; a row's id, device, peer and size go out
 * (flushed) before it is measured, its state and value after, so a row left
 * without a state is the one a hang or a crash cut.
 */
#ifndef CP_BENCH_INT_H
#define CP_BENCH_INT_H

#include "cuprobe/bench.h"
#include "dl/cublaslt_api.h"
#include "probe/deadline.h"
#include "rt/rt.h"

/* The repeats when opts say 0, the iterations of the copies' warm-up, and
 * the GEMM's order. */
#define CP_BENCH_DEFAULT_ITERS 10
#define CP_BENCH_GEMM_N 8192
#define CP_BENCH_GEMM_WORKSPACE (32ll << 20)   /* as PyTorch gives cuBLASLt */

/* What the child is asked to do (a copy of the parent's opts, resolved). */
typedef struct {
    int device;               /* -1: every visible device */
    int64_t size;             /* bytes per copy */
    int iters;
    bool sweep;
    char only[256];           /* "" or a comma list of id prefixes */
} cp_bench_job;

/* The probe child: measure and answer on out (cp_probe_fn). */
void cp_bench_child(cp_probe_out *out, void *arg);

/* Is id selected by the --only list (a comma list of id prefixes, "" all)?
 * A prefix matches at a dot: "copy" selects "copy.h2d.pinned.ce", "gemm.bf16"
 * selects "gemm.bf16", "gemm.bf" selects nothing. */
bool cp_bench_selected(const char *only, const char *id);

/* The GEMM kinds, in the rows' order. */
typedef enum { CP_GEMM_BF16 = 0, CP_GEMM_FP16, CP_GEMM_TF32, CP_GEMM_FP32, CP_GEMM_KINDS } cp_gemm_kind;
extern const char *const cp_gemm_ids[CP_GEMM_KINDS];   /* "gemm.bf16" ... */

/* One n x n x n GEMM rate on rt's device (made current) through lt, on s:
 * fresh random operands, the heuristic's best algorithm with a 32 MiB
 * workspace, a spot check of a few outputs (poisoned first) against a CPU
 * reference in double, then iters event-timed runs after a warm-up.  Fills
 * row->state, value (TFLOP/s), spread, repeats and detail.  Returns 0, or
 * -1 when the failure was the driver's (the context may be lost: row->detail
 * names the call). */
int cp_bench_gemm(cp_rt *rt, const cp_cublaslt_api *lt, cp_lt_handle h, cp_rt_stream *s, cp_gemm_kind kind, int n,
                  int iters, cp_bench_row *row);

/* The CPU halves of the spot check, exposed for the unit test: float to
 * bf16 and fp16 with round-to-nearest-even, and back. */
uint16_t cp_bench_f32_to_bf16(float f);
uint16_t cp_bench_f32_to_f16(float f);
float cp_bench_bf16_to_f32(uint16_t h);
float cp_bench_f16_to_f32(uint16_t h);

/* The runtime's last failure as a row's detail ("cuMemAlloc_v2:
 * CUDA_ERROR_OUT_OF_MEMORY (2)"); returns its result (CP_RT_NO_SYMBOL,
 * CP_RT_NO_HOST_MEMORY, or a CUresult; CP_RT_NO_HOST_MEMORY when none). */
int cp_bench_rt_detail(const cp_rt *rt, char *detail, size_t cap);

/* Median of n values (sorted in place) and (max - min) / median; NAN for n < 1. */
double cp_bench_median(double *v, int n, double *spread);

#endif
