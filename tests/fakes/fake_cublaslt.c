/*
 * A fake libcublasLt.so.13 for cuprobe bench's GEMM rows, driven by the
 * scenario file like the fake driver (fake_common.h).  The fake libcuda's
 * device memory is host memory, so cublasLtMatmul computes D = A x B on the
 * CPU, column-major, no transposes, in the layouts' type (CUDA_R_16BF,
 * CUDA_R_16F, CUDA_R_32F; fp32 accumulation), alpha 1 and beta 0 only.
 * Keys:
 *   cublaslt.create=N      cublasLtCreate answers status N (default 0)
 *   cublaslt.no_algo=1     cublasLtMatmulAlgoGetHeuristic returns no algorithm
 *   cublaslt.wrong=1       cublasLtMatmul adds 1 to every output element
 *   cublaslt.matmul=N      cublasLtMatmul answers status N
 *   cublaslt.drop=NAMES    these exported names are absent
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the scenario reader's per-device helpers are the drivers' (unused here) */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "fake_common.h"

FK_LOAD_CONSTRUCTOR("cublaslt")

typedef int st;
enum { OK = 0, NOT_INITIALIZED = 1, ALLOC_FAILED = 3, INVALID_VALUE = 7, NOT_SUPPORTED = 15 };
enum { R_32F = 0, R_16F = 2, R_16BF = 14 };

typedef struct { int magic; } fk_handle;
typedef struct { int compute, scale, transa, transb; } fk_desc;
typedef struct { int type; uint64_t rows, cols; int64_t ld; } fk_layout;
typedef struct { uint64_t ws; } fk_pref;
typedef struct { uint64_t data[8]; } fk_algo;
typedef struct { fk_algo algo; size_t ws; st state; float waves; int reserved[4]; } fk_heur;

static void *obj(size_t n)
{
    return calloc(1, n);
}

st cublasLtCreate(fk_handle **h)
{
    fk_load(1);
    long long r = fk_int("cublaslt.create", 0);
    if (r) return (st)r;
    *h = obj(sizeof **h);
    return *h ? OK : ALLOC_FAILED;
}
st cublasLtDestroy(fk_handle *h) { free(h); return OK; }
size_t cublasLtGetVersion(void) { return 130000; }
const char *cublasLtGetStatusName(st s)
{
    switch (s) {
    case OK: return "CUBLAS_STATUS_SUCCESS";
    case NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "CUBLAS_STATUS_UNKNOWN";
    }
}
st cublasLtMatmulDescCreate(fk_desc **d, int compute, int scale)
{
    *d = obj(sizeof **d);
    if (!*d) return ALLOC_FAILED;
    (*d)->compute = compute;
    (*d)->scale = scale;
    return OK;
}
st cublasLtMatmulDescDestroy(fk_desc *d) { free(d); return OK; }
st cublasLtMatmulDescSetAttribute(fk_desc *d, int attr, const void *buf, size_t n)
{
    if (!d || !buf || n != sizeof(int)) return INVALID_VALUE;
    if (attr == 3) memcpy(&d->transa, buf, n);
    else if (attr == 4) memcpy(&d->transb, buf, n);
    return OK;
}
st cublasLtMatrixLayoutCreate(fk_layout **l, int type, uint64_t rows, uint64_t cols, int64_t ld)
{
    if (type != R_32F && type != R_16F && type != R_16BF) return NOT_SUPPORTED;
    *l = obj(sizeof **l);
    if (!*l) return ALLOC_FAILED;
    **l = (fk_layout){ type, rows, cols, ld };
    return OK;
}
st cublasLtMatrixLayoutDestroy(fk_layout *l) { free(l); return OK; }
st cublasLtMatmulPreferenceCreate(fk_pref **p) { *p = obj(sizeof **p); return *p ? OK : ALLOC_FAILED; }
st cublasLtMatmulPreferenceDestroy(fk_pref *p) { free(p); return OK; }
st cublasLtMatmulPreferenceSetAttribute(fk_pref *p, int attr, const void *buf, size_t n)
{
    if (!p || !buf) return INVALID_VALUE;
    if (attr == 1) {
        if (n != sizeof p->ws) return INVALID_VALUE;
        memcpy(&p->ws, buf, n);
    }
    return OK;
}
st cublasLtMatmulAlgoGetHeuristic(fk_handle *h, fk_desc *d, fk_layout *a, fk_layout *b, fk_layout *c, fk_layout *dd,
                                  fk_pref *p, int want, fk_heur *out, int *got)
{
    if (!h || !d || !a || !b || !c || !dd || !p || want < 1 || !out || !got) return INVALID_VALUE;
    memset(out, 0, sizeof *out);
    *got = fk_int("cublaslt.no_algo", 0) ? 0 : 1;
    return OK;
}

static float get(const void *m, int type, size_t i)
{
    if (type == R_32F) return ((const float *)m)[i];
    uint16_t h = ((const uint16_t *)m)[i];
    uint32_t x;
    float f;
    if (type == R_16BF) {
        x = (uint32_t)h << 16;
        memcpy(&f, &x, sizeof f);
        return f;
    }
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (e == 0) return (s ? -1.0f : 1.0f) * ldexpf((float)mant, -24);
    if (e == 31) return s ? -INFINITY : INFINITY;
    x = s | ((e - 15 + 127) << 23) | (mant << 13);
    memcpy(&f, &x, sizeof f);
    return f;
}

/* Round to the output type (nearest even; the outputs here are normal numbers). */
static void put(void *m, int type, size_t i, float v)
{
    uint32_t x;
    memcpy(&x, &v, sizeof x);
    if (type == R_32F) {
        ((float *)m)[i] = v;
    } else if (type == R_16BF) {
        ((uint16_t *)m)[i] = (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
    } else {
        uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
        int32_t exp = (int32_t)((x >> 23) & 0xffu) - 127 + 15;
        uint16_t h = (uint16_t)sign;
        if (exp >= 31) h = (uint16_t)(sign | 0x7c00u);
        else if (exp > 0) {
            uint32_t r = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fffu;
            if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) r++;
            h = (uint16_t)(sign | r);
        }
        ((uint16_t *)m)[i] = h;
    }
}

st cublasLtMatmul(fk_handle *h, fk_desc *d, const void *alpha, const void *a, fk_layout *al, const void *b,
                  fk_layout *bl, const void *beta, const void *c, fk_layout *cl, void *dd, fk_layout *dl,
                  const fk_algo *algo, void *ws, size_t wsbytes, void *stream)
{
    (void)c; (void)cl; (void)algo; (void)ws; (void)wsbytes; (void)stream;
    long long r = fk_int("cublaslt.matmul", 0);
    if (r) return (st)r;
    if (!h || !d || !alpha || !beta || !a || !b || !dd || !al || !bl || !dl) return INVALID_VALUE;
    if (d->transa || d->transb || *(const float *)alpha != 1.0f || *(const float *)beta != 0.0f) return NOT_SUPPORTED;
    uint64_t m = al->rows, k = al->cols, n = bl->cols;
    if (bl->rows != k || dl->rows != m || dl->cols != n) return INVALID_VALUE;
    float add = fk_int("cublaslt.wrong", 0) ? 1.0f : 0.0f;
    for (uint64_t j = 0; j < n; j++)
        for (uint64_t i = 0; i < m; i++) {
            float acc = 0;
            for (uint64_t q = 0; q < k; q++)
                acc += get(a, al->type, i + q * (uint64_t)al->ld) * get(b, bl->type, q + j * (uint64_t)bl->ld);
            put(dd, dl->type, i + j * (uint64_t)dl->ld, acc + add);
        }
    return OK;
}
