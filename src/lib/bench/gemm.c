/*
 * The GEMM rate of cuprobe bench through cuBLASLt (bench_int.h).
 *
 * D = A x B, column-major, no transposes, n x n x n: the layout PyTorch's
 * row-major torch.matmul reaches with its operands swapped.  The operands
 * are fresh random numbers in [-1, 1) (a clock-seeded hash, rounded to the
 * kind's input type); the output is poisoned (all bits set: NaN in every
 * kind) before the checked run.  The spot check recomputes a few outputs
 * in double from the same rounded inputs and allows the kind's rounding:
 * the output type's half ulp of the result plus the input rounding the
 * kind does on the way (tf32's 10-bit mantissa) over the sum of |a b|.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench_int.h"
#include "kernels/kernels.h"
#include "util/alloc.h"
#include "util/str.h"

const char *const cp_gemm_ids[CP_GEMM_KINDS] = { "gemm.bf16", "gemm.fp16", "gemm.tf32", "gemm.fp32" };

enum { CHECKS = 8 };

typedef struct {
    int type;                 /* cudaDataType of A, B, C and D */
    int compute;              /* cublasComputeType */
    size_t elem;              /* bytes per element */
    double out_rel;           /* the output's relative rounding */
    double in_rel;            /* the inputs' rounding inside the product, over sum |a b| */
} kind_info;

static const kind_info kinds[CP_GEMM_KINDS] = {
    { CP_LT_R_16BF, CP_LT_COMPUTE_32F, 2, 1.0 / 256, 1e-5 },
    { CP_LT_R_16F, CP_LT_COMPUTE_32F, 2, 1.0 / 2048, 1e-5 },
    { CP_LT_R_32F, CP_LT_COMPUTE_32F_FAST_TF32, 4, 1e-6, 1.0 / 1024 },
    { CP_LT_R_32F, CP_LT_COMPUTE_32F, 4, 1e-6, 1e-5 },
};

static uint32_t fresh_seed(int kind)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^ ((uint64_t)getpid() << 40);
    return cp_k_hash((uint32_t)(x >> 32) ^ (uint32_t)kind, x);
}

/* The operand element i as the GPU sees it, in double. */
static double elem(const void *m, int kind, size_t i)
{
    if (kind == CP_GEMM_BF16) return cp_bench_bf16_to_f32(((const uint16_t *)m)[i]);
    if (kind == CP_GEMM_FP16) return cp_bench_f16_to_f32(((const uint16_t *)m)[i]);
    return ((const float *)m)[i];
}

/* Fill n elements of the kind's type with random numbers in [-1, 1). */
static void fill(void *m, int kind, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        float v = (float)((int32_t)cp_k_hash(seed, i) >> 8) / 8388608.0f;
        if (kind == CP_GEMM_BF16) ((uint16_t *)m)[i] = cp_bench_f32_to_bf16(v);
        else if (kind == CP_GEMM_FP16) ((uint16_t *)m)[i] = cp_bench_f32_to_f16(v);
        else ((float *)m)[i] = v;
    }
}

static const char *lt_name(const cp_cublaslt_api *lt, cp_lt_status st)
{
    const char *s = lt->cublasLtGetStatusName ? lt->cublasLtGetStatusName(st) : NULL;
    return s ? s : "cuBLAS error";
}

/* The row fails with the cuBLASLt call and its status. */
static int lt_failed(const cp_cublaslt_api *lt, cp_bench_row *row, const char *call, cp_lt_status st)
{
    row->state = CP_BENCH_FAILED;
    snprintf(row->detail, sizeof row->detail, "%s: %s (%d)", call, lt_name(lt, st), st);
    return 0;
}

/* The row fails with the runtime's last call; -1 unless it was out of
 * memory (then the context may be lost). */
static int rt_failed(const cp_rt *rt, cp_bench_row *row)
{
    row->state = CP_BENCH_FAILED;
    int r = cp_bench_rt_detail(rt, row->detail, sizeof row->detail);
    return r == CP_CUDA_ERROR_OUT_OF_MEMORY || r == CP_RT_NO_HOST_MEMORY ? 0 : -1;
}

/* One GEMM rate (bench_int.h). */
int cp_bench_gemm(cp_rt *rt, const cp_cublaslt_api *lt, cp_lt_handle h, cp_rt_stream *s, cp_gemm_kind kind, int n,
                  int iters, cp_bench_row *row)
{
    const kind_info *k = &kinds[kind];
    const size_t count = (size_t)n * (size_t)n, bytes = count * k->elem;
    void *ha = cp_malloc(bytes), *hb = cp_malloc(bytes);
    double *ms = cp_calloc((size_t)iters, sizeof *ms);
    cp_rt_dptr da = 0, db = 0, dd = 0, ws = 0;
    cp_rt_event *e0 = NULL, *e1 = NULL;
    cp_lt_matmul_desc desc = NULL;
    cp_lt_layout la = NULL, lb = NULL, ld = NULL;
    cp_lt_pref pref = NULL;
    cp_lt_heuristic best;
    int found = 0, rc = 0;
    cp_lt_status st;
    float alpha = 1.0f, beta = 0.0f;
    const int op = CP_LT_OP_N;
    const uint64_t wsbytes = CP_BENCH_GEMM_WORKSPACE;
    row->state = CP_BENCH_OK;
    if (!ha || !hb || !ms) {
        row->state = CP_BENCH_FAILED;
        snprintf(row->detail, sizeof row->detail, "malloc: out of host memory");
        goto out;
    }
    uint32_t seed = fresh_seed(kind);
    fill(ha, kind, count, seed);
    fill(hb, kind, count, seed ^ 0x9e3779b9u);
    if (cp_rt_alloc(rt, bytes, &da) || cp_rt_alloc(rt, bytes, &db) || cp_rt_alloc(rt, bytes, &dd) ||
        cp_rt_alloc(rt, (size_t)wsbytes, &ws) || cp_rt_event_create(rt, &e0) || cp_rt_event_create(rt, &e1) ||
        cp_rt_copy_htod(rt, da, ha, bytes, NULL) || cp_rt_copy_htod(rt, db, hb, bytes, NULL) ||
        cp_rt_memset32(rt, dd, 0xffffffffu, bytes / 4, NULL)) {
        rc = rt_failed(rt, row);
        goto out;
    }
#define LT(call, args) \
    do { \
        if ((st = lt->call args) != 0) { rc = lt_failed(lt, row, #call, st); goto out; } \
    } while (0)
    LT(cublasLtMatmulDescCreate, (&desc, k->compute, CP_LT_R_32F));
    LT(cublasLtMatmulDescSetAttribute, (desc, CP_LT_DESC_TRANSA, &op, sizeof op));
    LT(cublasLtMatmulDescSetAttribute, (desc, CP_LT_DESC_TRANSB, &op, sizeof op));
    LT(cublasLtMatrixLayoutCreate, (&la, k->type, (uint64_t)n, (uint64_t)n, n));
    LT(cublasLtMatrixLayoutCreate, (&lb, k->type, (uint64_t)n, (uint64_t)n, n));
    LT(cublasLtMatrixLayoutCreate, (&ld, k->type, (uint64_t)n, (uint64_t)n, n));
    LT(cublasLtMatmulPreferenceCreate, (&pref));
    LT(cublasLtMatmulPreferenceSetAttribute, (pref, CP_LT_PREF_MAX_WORKSPACE_BYTES, &wsbytes, sizeof wsbytes));
    memset(&best, 0, sizeof best);
    LT(cublasLtMatmulAlgoGetHeuristic, (h, desc, la, lb, ld, ld, pref, 1, &best, &found));
    if (found < 1 || best.state != 0) {
        row->state = CP_BENCH_FAILED;
        snprintf(row->detail, sizeof row->detail, "cublasLtMatmulAlgoGetHeuristic: no algorithm for this GEMM");
        goto out;
    }
    void *dptr_a, *dptr_b, *dptr_d, *dptr_ws;
    memcpy(&dptr_a, &da, sizeof dptr_a);
    memcpy(&dptr_b, &db, sizeof dptr_b);
    memcpy(&dptr_d, &dd, sizeof dptr_d);
    memcpy(&dptr_ws, &ws, sizeof dptr_ws);
    CUstream cs = cp_rt_stream_handle(s);
#define MATMUL() \
    lt->cublasLtMatmul(h, desc, &alpha, dptr_a, la, dptr_b, lb, &beta, dptr_d, ld, dptr_d, ld, &best.algo, dptr_ws, \
                       (size_t)wsbytes, cs)
    /* the checked run, on the poisoned output */
    if ((st = MATMUL()) != 0) {
        rc = lt_failed(lt, row, "cublasLtMatmul", st);
        goto out;
    }
    if (cp_rt_stream_sync(rt, s)) {
        rc = rt_failed(rt, row);
        goto out;
    }
    for (int c = 0; c < CHECKS; c++) {
        size_t i = cp_k_hash(seed, (uint64_t)c * 2 + 1) % (size_t)n, j = cp_k_hash(seed, (uint64_t)c * 2 + 2) % (size_t)n;
        double ref = 0, mag = 0;
        for (size_t q = 0; q < (size_t)n; q++) {
            double p = elem(ha, kind, i + q * (size_t)n) * elem(hb, kind, q + j * (size_t)n);
            ref += p;
            mag += fabs(p);
        }
        unsigned char got_raw[4] = { 0 };
        size_t at = (i + j * (size_t)n) * k->elem;
        if (cp_rt_copy_dtoh(rt, got_raw, dd + at, k->elem, NULL)) {
            rc = rt_failed(rt, row);
            goto out;
        }
        double got = elem(got_raw, kind, 0);
        double tol = k->out_rel * fabs(ref) + k->in_rel * mag + 1e-6 * mag;
        if (!(fabs(got - ref) <= tol)) {   /* NaN fails too: an element left unwritten */
            row->state = CP_BENCH_FAILED;
            snprintf(row->detail, sizeof row->detail,
                     "wrong result: D[%zu,%zu] = %.6g, a CPU reference in double gives %.6g (allowed error %.3g)", i,
                     j, got, ref, tol);
            goto out;
        }
    }
    /* warm-up, then the timed runs */
    for (int w = 0; w < 2; w++)
        if ((st = MATMUL()) != 0) {
            rc = lt_failed(lt, row, "cublasLtMatmul", st);
            goto out;
        }
    for (int r = 0; r < iters; r++) {
        float t = 0;
        if (cp_rt_event_record(rt, e0, s)) { rc = rt_failed(rt, row); goto out; }
        if ((st = MATMUL()) != 0) { rc = lt_failed(lt, row, "cublasLtMatmul", st); goto out; }
        if (cp_rt_event_record(rt, e1, s) || cp_rt_event_sync(rt, e1) || cp_rt_event_elapsed_ms(rt, e0, e1, &t)) {
            rc = rt_failed(rt, row);
            goto out;
        }
        ms[r] = t;
    }
    if (cp_rt_stream_sync(rt, s)) {
        rc = rt_failed(rt, row);
        goto out;
    }
    double med = cp_bench_median(ms, iters, &row->spread);
    row->value = med > 0 ? 2.0 * (double)n * n * n / (med * 1e-3) / 1e12 : NAN;
    row->repeats = iters;
    snprintf(row->detail, sizeof row->detail, "cuBLASLt, heuristic's best algorithm, %lld MiB workspace, %d outputs checked",
             (long long)(wsbytes >> 20), CHECKS);
out:
    if (pref) (void)lt->cublasLtMatmulPreferenceDestroy(pref);
    if (la) (void)lt->cublasLtMatrixLayoutDestroy(la);
    if (lb) (void)lt->cublasLtMatrixLayoutDestroy(lb);
    if (ld) (void)lt->cublasLtMatrixLayoutDestroy(ld);
    if (desc) (void)lt->cublasLtMatmulDescDestroy(desc);
    if (rc == 0) {   /* after a lost context the frees fail too; cp_rt_close does what is left */
        if (e0) (void)cp_rt_event_destroy(rt, e0);
        if (e1) (void)cp_rt_event_destroy(rt, e1);
        if (da) (void)cp_rt_free(rt, da);
        if (db) (void)cp_rt_free(rt, db);
        if (dd) (void)cp_rt_free(rt, dd);
        if (ws) (void)cp_rt_free(rt, ws);
    }
    free(ha);
    free(hb);
    free(ms);
    return rc;
}
