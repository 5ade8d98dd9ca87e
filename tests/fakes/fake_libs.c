/*
 * Fake CUDA libraries for doctor --level 2's library runs: the calls of
 * src/lib/dl/libs_api.h for cuBLAS, cuFFT, cuDNN, NVRTC and NCCL, carried
 * out over host memory (the fake libcuda's device pointers are host
 * pointers).  One file, built once per soname (libcublas.so.13,
 * libcufft.so.12, libcudnn.so.9, libnvrtc.so.13, libnccl.so.2); each copy
 * exports every call, the loader takes the ones its table names.
 *
 * Scenario keys (fake_common.h; NAME is cublas, cufft, cudnn, nvrtc, nccl):
 *   lib.NAME.init=S     the library's first call (cublasCreate_v2, cufftPlan1d,
 *                       cudnnCreate, nvrtcCompileProgram, ncclCommInitAll)
 *                       answers status S
 *   lib.NAME.fail=S     the run's call (cublasSgemm_v2, cufftExecC2C,
 *                       cudnnConvolutionForward, nvrtcGetPTX, ncclAllReduce)
 *                       answers status S
 *   lib.NAME.wrong=I    output element I comes back off by 1.5 (NVRTC: the
 *                       fake libcuda runs the kernel; use cuda.rt.wrong_element)
 *   lib.NAME.hang=1     the run's call never returns
 *   libs.drop=a,b       exported names made absent; libs.load.hang=1
 */
#include <math.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"   /* the helpers for devices the libraries do not read */
#include "fake_common.h"
#pragma GCC diagnostic pop

FK_LOAD_CONSTRUCTOR("libs")

static long long key(const char *lib, const char *what, long long dflt)
{
    char k[FK_KEY];
    snprintf(k, sizeof k, "lib.%s.%s", lib, what);
    return fk_int(k, dflt);
}

static void maybe_hang(const char *lib)
{
    if (key(lib, "hang", 0))
        for (;;)
            pause();
}

static void maybe_wrong(const char *lib, float *out, long long n)
{
    long long i = key(lib, "wrong", -1);
    if (i >= 0 && i < n) out[i] += 1.5f;
}

static const char *status_name(int s)
{
    static char buf[32];
    snprintf(buf, sizeof buf, "FAKE_STATUS_%d", s);
    return buf;
}

/* -------------------------------------------------------------- cuBLAS -- */
int cublasCreate_v2(void **h)
{
    int s = (int)key("cublas", "init", 0);
    if (s) return s;
    *h = malloc(1);
    return *h ? 0 : 3;
}
int cublasDestroy_v2(void *h) { free(h); return 0; }
int cublasSetStream_v2(void *h, void *s) { (void)h; (void)s; return 0; }
const char *cublasGetStatusName(int s) { return s == 3 ? "CUBLAS_STATUS_ALLOC_FAILED" : status_name(s); }

int cublasSgemm_v2(void *h, int ta, int tb, int m, int n, int k, const float *alpha, const float *A, int lda,
                   const float *B, int ldb, const float *beta, float *C, int ldc)
{
    (void)h;
    if (ta || tb) return 7;                   /* CUBLAS_STATUS_INVALID_VALUE: only N, N here */
    int s = (int)key("cublas", "fail", 0);
    if (s) return s;
    maybe_hang("cublas");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            float sum = 0;
            for (int l = 0; l < k; l++) sum += A[i + l * lda] * B[l + j * ldb];
            C[i + j * ldc] = *alpha * sum + (*beta != 0 ? *beta * C[i + j * ldc] : 0);
        }
    maybe_wrong("cublas", C, (long long)ldc * n);
    return 0;
}

/* --------------------------------------------------------------- cuFFT -- */
static int fft_n;
int cufftPlan1d(int *plan, int nx, int type, int batch)
{
    int s = (int)key("cufft", "init", 0);
    if (s) return s;
    if (type != 0x29 || batch != 1 || nx <= 0) return 4;   /* CUFFT_INVALID_VALUE */
    fft_n = nx;
    *plan = 1;
    return 0;
}
int cufftDestroy(int plan) { return plan == 1 ? 0 : 1; }
int cufftExecC2C(int plan, float *in, float *out, int dir)
{
    if (plan != 1) return 1;
    int s = (int)key("cufft", "fail", 0);
    if (s) return s;
    maybe_hang("cufft");
    int n = fft_n;
    for (int k = 0; k < n; k++) {
        double re = 0, im = 0;
        for (int j = 0; j < n; j++) {
            double a = dir * 6.283185307179586 * (double)((long long)k * j % n) / n;
            re += in[2 * j] * cos(a) - in[2 * j + 1] * sin(a);
            im += in[2 * j] * sin(a) + in[2 * j + 1] * cos(a);
        }
        out[2 * k] = (float)re;
        out[2 * k + 1] = (float)im;
    }
    maybe_wrong("cufft", out, 2LL * n);
    return 0;
}

/* --------------------------------------------------------------- cuDNN -- */
typedef struct { int n, c, h, w; } fk_dims;
typedef struct { int pad_h, pad_w, u, v; } fk_conv;
int cudnnCreate(void **h)
{
    int s = (int)key("cudnn", "init", 0);
    if (s) return s;
    *h = malloc(1);
    return *h ? 0 : 2;
}
int cudnnDestroy(void *h) { free(h); return 0; }
const char *cudnnGetErrorString(int s) { return s == 4 ? "CUDNN_STATUS_INTERNAL_ERROR" : status_name(s); }
static int dnn_new(void **d, size_t n)
{
    *d = calloc(1, n);
    return *d ? 0 : 2;
}
int cudnnCreateTensorDescriptor(void **d) { return dnn_new(d, sizeof(fk_dims)); }
int cudnnCreateFilterDescriptor(void **d) { return dnn_new(d, sizeof(fk_dims)); }
int cudnnCreateConvolutionDescriptor(void **d) { return dnn_new(d, sizeof(fk_conv)); }
int cudnnDestroyTensorDescriptor(void *d) { free(d); return 0; }
int cudnnDestroyFilterDescriptor(void *d) { free(d); return 0; }
int cudnnDestroyConvolutionDescriptor(void *d) { free(d); return 0; }
int cudnnSetTensor4dDescriptor(fk_dims *d, int format, int type, int n, int c, int h, int w)
{
    if (format != 0 || type != 0) return 3;   /* CUDNN_STATUS_BAD_PARAM: NCHW float only */
    *d = (fk_dims){ n, c, h, w };
    return 0;
}
int cudnnSetFilter4dDescriptor(fk_dims *d, int type, int format, int k, int c, int h, int w)
{
    if (format != 0 || type != 0) return 3;
    *d = (fk_dims){ k, c, h, w };
    return 0;
}
int cudnnSetConvolution2dDescriptor(fk_conv *d, int ph, int pw, int u, int v, int dh, int dw, int mode, int type)
{
    if (dh != 1 || dw != 1 || mode != 1 || type != 0) return 3;
    *d = (fk_conv){ ph, pw, u, v };
    return 0;
}
int cudnnConvolutionForward(void *h, const float *alpha, const fk_dims *xd, const float *x, const fk_dims *wd,
                            const float *w, const fk_conv *cd, int algo, void *ws, size_t wss, const float *beta,
                            const fk_dims *yd, float *y)
{
    (void)h; (void)ws; (void)wss; (void)beta;
    if (algo != 0 || xd->c != wd->c || yd->c != wd->n) return 3;
    int s = (int)key("cudnn", "fail", 0);
    if (s) return s;
    maybe_hang("cudnn");
    for (int k = 0; k < yd->c; k++)
        for (int i = 0; i < yd->h; i++)
            for (int j = 0; j < yd->w; j++) {
                float sum = 0;
                for (int c = 0; c < wd->c; c++)
                    for (int r = 0; r < wd->h; r++)
                        for (int q = 0; q < wd->w; q++) {
                            int yi = i * cd->u + r - cd->pad_h, xj = j * cd->v + q - cd->pad_w;
                            if (yi < 0 || yi >= xd->h || xj < 0 || xj >= xd->w) continue;
                            sum += w[((k * wd->c + c) * wd->h + r) * wd->w + q] * x[(c * xd->h + yi) * xd->w + xj];
                        }
                y[(k * yd->h + i) * yd->w + j] = *alpha * sum;
            }
    maybe_wrong("cudnn", y, (long long)yd->c * yd->h * yd->w);
    return 0;
}

/* --------------------------------------------------------------- NVRTC -- */
/* The "PTX" names the kernel; the fake libcuda loads text starting with
 * "//" and runs the kernel it names by its CPU twin. */
static const char fake_ptx[] = "//\n// fake NVRTC PTX\n//\n.version 8.0\n.target sm_90\n.visible .entry cp_k_fma_f32()\n";
typedef struct { int compiled; } fk_prog;
int nvrtcCreateProgram(fk_prog **p, const char *src, const char *name, int nh, const char *const *h,
                       const char *const *inc)
{
    (void)name; (void)nh; (void)h; (void)inc;
    if (!src || !strstr(src, "cp_k_fma_f32")) return 3;   /* NVRTC_ERROR_INVALID_INPUT */
    *p = calloc(1, sizeof **p);
    return *p ? 0 : 1;
}
int nvrtcCompileProgram(fk_prog *p, int n, const char *const *opts)
{
    int s = (int)key("nvrtc", "init", 0);
    if (s) return s;
    if (n != 1 || strncmp(opts[0], "--gpu-architecture=compute_", 27) != 0) return 5;   /* INVALID_OPTION */
    p->compiled = 1;
    return 0;
}
int nvrtcGetProgramLogSize(fk_prog *p, size_t *n)
{
    (void)p;
    *n = sizeof "cuprobe_l2.cu(1): error: fake compile error\nmore\n";
    return 0;
}
int nvrtcGetProgramLog(fk_prog *p, char *log)
{
    (void)p;
    memcpy(log, "cuprobe_l2.cu(1): error: fake compile error\nmore\n", sizeof "cuprobe_l2.cu(1): error: fake compile error\nmore\n");
    return 0;
}
int nvrtcGetPTXSize(fk_prog *p, size_t *n)
{
    if (!p->compiled) return 7;
    *n = sizeof fake_ptx;
    return 0;
}
int nvrtcGetPTX(fk_prog *p, char *ptx)
{
    if (!p->compiled) return 7;
    int s = (int)key("nvrtc", "fail", 0);
    if (s) return s;
    maybe_hang("nvrtc");
    memcpy(ptx, fake_ptx, sizeof fake_ptx);
    return 0;
}
int nvrtcDestroyProgram(fk_prog **p)
{
    free(*p);
    *p = NULL;
    return 0;
}
const char *nvrtcGetErrorString(int s) { return s == 6 ? "NVRTC_ERROR_COMPILATION" : status_name(s); }

/* ---------------------------------------------------------------- NCCL -- */
/* A clique of ranks made by ncclCommInitAll; an all-reduce is queued per
 * rank and carried out once every rank has queued its own (at
 * ncclGroupEnd, or at the last rank's call outside a group). */
typedef struct { int rank; } fk_comm;
enum { FK_MAX_RANKS = 64 };
static int nccl_ranks, nccl_group, nccl_queued;
static struct { const float *send; float *recv; size_t n; } nccl_q[FK_MAX_RANKS];

int ncclCommInitAll(fk_comm **comm, int n, const int *devs)
{
    (void)devs;
    int s = (int)key("nccl", "init", 0);
    if (s) return s;
    if (n <= 0 || n > FK_MAX_RANKS) return 4;   /* ncclInvalidArgument */
    for (int i = 0; i < n; i++) {
        comm[i] = malloc(sizeof **comm);
        if (!comm[i]) return 1;
        comm[i]->rank = i;
    }
    nccl_ranks = n;
    nccl_queued = 0;
    return 0;
}
int ncclCommDestroy(fk_comm *c) { free(c); return 0; }
static int nccl_run(void)
{
    if (nccl_queued != nccl_ranks) return 5;   /* ncclInvalidUsage */
    size_t n = nccl_q[0].n;
    for (size_t i = 0; i < n; i++) {
        float sum = 0;
        for (int r = 0; r < nccl_ranks; r++) sum += nccl_q[r].send[i];
        for (int r = 0; r < nccl_ranks; r++) nccl_q[r].recv[i] = sum;
    }
    for (int r = 0; r < nccl_ranks; r++) maybe_wrong("nccl", nccl_q[r].recv, (long long)n);
    nccl_queued = 0;
    return 0;
}
int ncclAllReduce(const float *send, float *recv, size_t n, int type, int op, fk_comm *c, void *stream)
{
    (void)stream;
    if (type != 7 || op != 0 || !c || c->rank >= nccl_ranks) return 4;
    int s = (int)key("nccl", "fail", 0);
    if (s) return s;
    maybe_hang("nccl");
    nccl_q[c->rank].send = send;
    nccl_q[c->rank].recv = recv;
    nccl_q[c->rank].n = n;
    nccl_queued++;
    return nccl_group || nccl_queued < nccl_ranks ? 0 : nccl_run();
}
int ncclGroupStart(void) { nccl_group++; return 0; }
int ncclGroupEnd(void)
{
    if (nccl_group <= 0) return 5;
    return --nccl_group == 0 && nccl_queued ? nccl_run() : 0;
}
const char *ncclGetErrorString(int s) { return s == 2 ? "unhandled system error" : status_name(s); }
