/*
 * doctor --level 2's libraries, inside a probe child of their own: load
 * each CUDA library a program here would get, initialise it, run one tiny
 * job on the primary context of device 0 (NCCL: every visible device) on
 * fresh random data, output poisoned first, and compare every element
 * with a CPU reference:
 *
 *   cuBLAS  SGEMM 64 x 64 x 64 of small integers (exact in FP32 and TF32)
 *   cuFFT   a forward C2C FFT of 256 points, against a DFT in double
 *   cuDNN   a 3x3 convolution, 1x4x16x16 into 8 maps (IMPLICIT_GEMM, no workspace)
 *   NVRTC   compile y = fmaf(a, x, y) to PTX for the device, load, launch
 *   NCCL    an all-reduce (sum) of small integers over one rank per GPU
 *
 * The child's VmRSS is read before each library is loaded, after its load
 * and initialisation and after its run, so what each vendor library costs
 * shows apart.  Every call is checked: a failure names the call, its
 * status and the library's name for it, and ends that library's run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "dl/cuda_api.h"
#include "dl/libs_api.h"
#include "dl/loader.h"
#include "facts/facts_kv.h"
#include "fs/fs.h"
#include "kernels/kernels.h"
#include "probe/level2.h"
#include "probe/libs_l2.h"
#include "rt/rt.h"
#include "util/alloc.h"

enum {
    GEMM_N = 64,
    FFT_N = 256,
    CONV_C = 4, CONV_H = 16, CONV_W = 16, CONV_K = 8, CONV_R = 3,
    NVRTC_N = 4096,
    NCCL_N = 1024,
    ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76   /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_* */
};

/* The kernel NVRTC compiles: the same name and work as the embedded
 * cp_k_fma_f32, so its CPU twin (kernels.h) is the reference. */
static const char nvrtc_source[] =
    "extern \"C\" __global__ void cp_k_fma_f32(float *y, const float *x, float a, unsigned long long n)\n"
    "{\n"
    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
    "         i += (unsigned long long)blockDim.x * gridDim.x)\n"
    "        y[i] = fmaf(a, x[i], y[i]);\n"
    "}\n";

typedef struct {
    cp_probe_out *out;
    cp_libs_l2_facts *f;
    const cp_libs_l2_arg *arg;
    cp_fs *self;
    const cp_cuda_api *cuda;
    cp_rt *rt;                /* device 0's primary context, current */
    int ndev;
    int cc;                   /* 90 for 9.0 */
    uint32_t seed;
} ctx;

/* ------------------------------------------------------------- helpers -- */

static double now_us(void)
{
    return cp_now_ms() * 1000.0;
}

/* "VmRSS:" or "VmHWM:" of this process, bytes; CP_UNKNOWN when unreadable. */
static int64_t status_bytes(ctx *c, const char *key)
{
    char *text = NULL;
    size_t len = 0;
    int64_t v = CP_UNKNOWN;
    if (!c->self || cp_fs_read_alloc(c->self, "/proc/self/status", 1 << 16, &text, &len) != 0) return v;
    const char *p = strstr(text, key);
    long long kb;
    if (p && sscanf(p + strlen(key), " %lld", &kb) == 1 && kb >= 0) v = (int64_t)kb * 1024;
    free(text);
    return v;
}

static void stage(ctx *c, const char *what)
{
    cp_kv_put_str(&c->out->buf, "libl2.run.stage", what);
    cp_probe_flush(c->out);
}

/* The step library i begins, sent at once (a hang names it). */
static void step(ctx *c, int i, const char *name)
{
    char key[48], st[24];
    cp_lib_l2 *l = &c->f->lib[i];
    cp_dl_copy(l->step, sizeof l->step, name);
    snprintf(key, sizeof key, "libl2.%s.step", cp_l2_lib_names[i]);
    cp_kv_put_str(&c->out->buf, key, name);
    snprintf(st, sizeof st, "%s.%s", cp_l2_lib_names[i], name);
    stage(c, st);
}

/* A library call that failed: call, status, the library's name for it. */
static int lib_failed(cp_lib_l2 *l, const char *call, int status, const char *name)
{
    cp_dl_copy(l->result, sizeof l->result, "call");
    cp_dl_copy(l->call, sizeof l->call, call);
    l->status = status;
    cp_dl_copy(l->status_name, sizeof l->status_name, name ? name : "");
    return -1;
}

/* The runtime's last failure (a copy, an allocation) as the library's. */
static int rt_failed(ctx *c, cp_lib_l2 *l, cp_rt *rt)
{
    const cp_rt_error *e = cp_rt_last_error(rt ? rt : c->rt);
    return lib_failed(l, e ? e->call : "?", e ? e->result : -1, e ? e->name : "");
}

/* Compare got with want (each element within tol); count, keep the first. */
static void compare(cp_lib_l2 *l, const double *want, const float *got, size_t n, double tol)
{
    l->elements = (int64_t)n;
    l->wrong = 0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)got[i] - want[i]);
        if (d <= tol) continue;   /* NaN (the poison) fails this */
        if (l->wrong == 0) {
            l->wrong_index = (int64_t)i;
            snprintf(l->wrong_expected, sizeof l->wrong_expected, "%.9g", want[i]);
            snprintf(l->wrong_got, sizeof l->wrong_got, "%.9g", (double)got[i]);
        }
        l->wrong++;
    }
    cp_dl_copy(l->result, sizeof l->result, l->wrong ? "wrong" : "ok");
}

/* A small integer in [-4, 4] from the seed: exact in FP32 and TF32 sums. */
static float small_int(uint32_t seed, uint64_t i)
{
    return (float)((int)(cp_k_hash(seed, i) % 9u) - 4);
}

/* Device buffers of one run, freed together. */
typedef struct {
    cp_rt_dptr p[4];
    int n;
} dbufs;

static int dalloc(ctx *c, dbufs *b, size_t bytes, cp_rt_dptr *out)
{
    if (cp_rt_alloc(c->rt, bytes, out)) return -1;
    b->p[b->n++] = *out;
    return 0;
}

static void dfree(ctx *c, dbufs *b)
{
    for (int i = 0; i < b->n; i++) cp_rt_free(c->rt, b->p[i]);
    b->n = 0;
}

/* Host buffers in, a poisoned output, the call, the output back: the
 * shape of every run.  Returns 0 or -1 after recording the runtime's call. */
static int poison(ctx *c, cp_lib_l2 *l, cp_rt_dptr d, size_t floats)
{
    return cp_rt_memset32(c->rt, d, 0x7FC0DEADu, floats, NULL) ? rt_failed(c, l, NULL) : 0;
}

static int htod(ctx *c, cp_lib_l2 *l, cp_rt_dptr d, const void *h, size_t bytes)
{
    return cp_rt_copy_htod(c->rt, d, h, bytes, NULL) ? rt_failed(c, l, NULL) : 0;
}

static int sync_dtoh(ctx *c, cp_lib_l2 *l, void *h, cp_rt_dptr d, size_t bytes)
{
    memset(h, 0xff, bytes);
    if (cp_rt_sync(c->rt) || cp_rt_copy_dtoh(c->rt, h, d, bytes, NULL)) return rt_failed(c, l, NULL);
    return 0;
}

static int no_memory(cp_lib_l2 *l)
{
    return lib_failed(l, "malloc", -1, "out of host memory");
}

/* -------------------------------------------------------------- cuBLAS -- */

static const char *cublas_name(const cp_cublas_api *a, int s)
{
    return a->cublasGetStatusName ? a->cublasGetStatusName(s) : NULL;
}

static int run_cublas(ctx *c, cp_lib_l2 *l, void *table)
{
    const cp_cublas_api *a = table;
    enum { N = GEMM_N, E = GEMM_N * GEMM_N };
    cublasHandle_t h = NULL;
    dbufs b = { { 0 }, 0 };
    int rc = -1, s;
    float *A = cp_malloc(3 * E * sizeof(float)), *B = A ? A + E : NULL, *C = A ? A + 2 * E : NULL;
    double *want = cp_malloc(E * sizeof(double));
    double t = now_us();
    step(c, CP_L2_CUBLAS, "init");
    if (!A || !want) { rc = no_memory(l); goto out; }
    if ((s = a->cublasCreate(&h)) != 0) { lib_failed(l, "cublasCreate_v2", s, cublas_name(a, s)); h = NULL; goto out; }
    if ((s = a->cublasSetStream(h, NULL)) != 0) { lib_failed(l, "cublasSetStream_v2", s, cublas_name(a, s)); goto out; }
    l->init_us = (int64_t)(now_us() - t);
    l->rss_loaded_bytes = status_bytes(c, "VmRSS:");
    step(c, CP_L2_CUBLAS, "run");
    t = now_us();
    for (int i = 0; i < E; i++) {
        A[i] = small_int(c->seed ^ 0x1111u, (uint64_t)i);
        B[i] = small_int(c->seed ^ 0x2222u, (uint64_t)i);
    }
    for (int j = 0; j < N; j++)          /* column-major: C(i,j) = sum_k A(i,k) B(k,j) */
        for (int i = 0; i < N; i++) {
            double sum = 0;
            for (int k = 0; k < N; k++) sum += (double)A[i + k * N] * B[k + j * N];
            want[i + j * N] = sum;
        }
    cp_rt_dptr dA, dB, dC;
    const float one = 1.0f, zero = 0.0f;
    if (dalloc(c, &b, E * sizeof(float), &dA) || dalloc(c, &b, E * sizeof(float), &dB) ||
        dalloc(c, &b, E * sizeof(float), &dC)) { rt_failed(c, l, NULL); goto out; }
    if (htod(c, l, dA, A, E * sizeof(float)) || htod(c, l, dB, B, E * sizeof(float)) || poison(c, l, dC, E))
        goto out;
    if ((s = a->cublasSgemm(h, CP_CUBLAS_OP_N, CP_CUBLAS_OP_N, N, N, N, &one, (const float *)(uintptr_t)dA, N,
                            (const float *)(uintptr_t)dB, N, &zero, (float *)(uintptr_t)dC, N)) != 0) {
        lib_failed(l, "cublasSgemm_v2", s, cublas_name(a, s));
        goto out;
    }
    if (sync_dtoh(c, l, C, dC, E * sizeof(float))) goto out;
    compare(l, want, C, E, 1e-3);
    l->run_us = (int64_t)(now_us() - t);
    rc = 0;
out:
    dfree(c, &b);
    if (h) a->cublasDestroy(h);
    free(A);
    free(want);
    return rc;
}

/* --------------------------------------------------------------- cuFFT -- */

static const char *cufft_name(int s)
{
    static const char *const names[] = { "CUFFT_SUCCESS", "CUFFT_INVALID_PLAN", "CUFFT_ALLOC_FAILED",
        "CUFFT_INVALID_TYPE", "CUFFT_INVALID_VALUE", "CUFFT_INTERNAL_ERROR", "CUFFT_EXEC_FAILED",
        "CUFFT_SETUP_FAILED", "CUFFT_INVALID_SIZE", "CUFFT_UNALIGNED_DATA", NULL, "CUFFT_INVALID_DEVICE",
        NULL, "CUFFT_NO_WORKSPACE", "CUFFT_NOT_IMPLEMENTED", NULL, "CUFFT_NOT_SUPPORTED",
        "CUFFT_MISSING_DEPENDENCY", "CUFFT_NVRTC_FAILURE", "CUFFT_NVJITLINK_FAILURE", "CUFFT_NVSHMEM_FAILURE" };
    return s >= 0 && s < (int)(sizeof names / sizeof names[0]) ? names[s] : NULL;   /* cufft.h: cufftResult */
}

static int run_cufft(ctx *c, cp_lib_l2 *l, void *table)
{
    const cp_cufft_api *a = table;
    enum { N = FFT_N, F = 2 * FFT_N };   /* complex points, floats */
    cufftHandle plan = 0;
    int planned = 0, rc = -1, s;
    dbufs b = { { 0 }, 0 };
    float *x = cp_malloc(2 * F * sizeof(float)), *y = x ? x + F : NULL;
    double *want = cp_malloc(F * sizeof(double));
    double t = now_us();
    step(c, CP_L2_CUFFT, "init");
    if (!x || !want) { rc = no_memory(l); goto out; }
    if ((s = a->cufftPlan1d(&plan, N, CP_CUFFT_C2C, 1)) != 0) { lib_failed(l, "cufftPlan1d", s, cufft_name(s)); goto out; }
    planned = 1;
    l->init_us = (int64_t)(now_us() - t);
    l->rss_loaded_bytes = status_bytes(c, "VmRSS:");
    step(c, CP_L2_CUFFT, "run");
    t = now_us();
    double sum_abs = 0;
    for (int i = 0; i < F; i++) {
        x[i] = small_int(c->seed ^ 0x3333u, (uint64_t)i) / 4.0f;
        sum_abs += fabs(x[i]);
    }
    const double two_pi = 6.283185307179586476925;
    for (int k = 0; k < N; k++) {        /* X_k = sum_n x_n e^(-2 pi i k n / N) */
        double re = 0, im = 0;
        for (int n = 0; n < N; n++) {
            double ang = -two_pi * (double)((k * n) % N) / N, cr = cos(ang), ci = sin(ang);
            re += x[2 * n] * cr - x[2 * n + 1] * ci;
            im += x[2 * n] * ci + x[2 * n + 1] * cr;
        }
        want[2 * k] = re;
        want[2 * k + 1] = im;
    }
    cp_rt_dptr din, dout;
    if (dalloc(c, &b, F * sizeof(float), &din) || dalloc(c, &b, F * sizeof(float), &dout)) { rt_failed(c, l, NULL); goto out; }
    if (htod(c, l, din, x, F * sizeof(float)) || poison(c, l, dout, F)) goto out;
    if ((s = a->cufftExecC2C(plan, (cp_cufft_complex *)(uintptr_t)din, (cp_cufft_complex *)(uintptr_t)dout,
                             CP_CUFFT_FORWARD)) != 0) {
        lib_failed(l, "cufftExecC2C", s, cufft_name(s));
        goto out;
    }
    if (sync_dtoh(c, l, y, dout, F * sizeof(float))) goto out;
    compare(l, want, y, F, 1e-4 * sum_abs + 1e-5);   /* |X_k| <= sum |x|: FP32 rounding is far below */
    l->run_us = (int64_t)(now_us() - t);
    rc = 0;
out:
    dfree(c, &b);
    if (planned) a->cufftDestroy(plan);
    free(x);
    free(want);
    return rc;
}

/* --------------------------------------------------------------- cuDNN -- */

static int run_cudnn(ctx *c, cp_lib_l2 *l, void *table)
{
    const cp_cudnn_api *a = table;
    enum { XE = CONV_C * CONV_H * CONV_W, WE = CONV_K * CONV_C * CONV_R * CONV_R, YE = CONV_K * CONV_H * CONV_W };
    cudnnHandle_t h = NULL;
    cudnnTensorDescriptor_t xd = NULL, yd = NULL;
    cudnnFilterDescriptor_t wd = NULL;
    cudnnConvolutionDescriptor_t cd = NULL;
    dbufs b = { { 0 }, 0 };
    int rc = -1, s;
    const char *call = NULL;
    float *x = cp_malloc((XE + WE + YE) * sizeof(float)), *w = x ? x + XE : NULL, *y = x ? x + XE + WE : NULL;
    double *want = cp_malloc(YE * sizeof(double));
    double t = now_us();
    step(c, CP_L2_CUDNN, "init");
    if (!x || !want) { rc = no_memory(l); goto out; }
#define DNN(name, ...) do { if ((s = a->name(__VA_ARGS__)) != 0) { call = #name; goto fail; } } while (0)
    DNN(cudnnCreate, &h);
    DNN(cudnnCreateTensorDescriptor, &xd);
    DNN(cudnnCreateTensorDescriptor, &yd);
    DNN(cudnnCreateFilterDescriptor, &wd);
    DNN(cudnnCreateConvolutionDescriptor, &cd);
    DNN(cudnnSetTensor4dDescriptor, xd, CP_CUDNN_TENSOR_NCHW, CP_CUDNN_DATA_FLOAT, 1, CONV_C, CONV_H, CONV_W);
    DNN(cudnnSetTensor4dDescriptor, yd, CP_CUDNN_TENSOR_NCHW, CP_CUDNN_DATA_FLOAT, 1, CONV_K, CONV_H, CONV_W);
    DNN(cudnnSetFilter4dDescriptor, wd, CP_CUDNN_DATA_FLOAT, CP_CUDNN_TENSOR_NCHW, CONV_K, CONV_C, CONV_R, CONV_R);
    DNN(cudnnSetConvolution2dDescriptor, cd, 1, 1, 1, 1, 1, 1, CP_CUDNN_CROSS_CORRELATION, CP_CUDNN_DATA_FLOAT);
    l->init_us = (int64_t)(now_us() - t);
    l->rss_loaded_bytes = status_bytes(c, "VmRSS:");
    step(c, CP_L2_CUDNN, "run");
    t = now_us();
    for (int i = 0; i < XE; i++) x[i] = small_int(c->seed ^ 0x4444u, (uint64_t)i);
    for (int i = 0; i < WE; i++) w[i] = small_int(c->seed ^ 0x5555u, (uint64_t)i);
    for (int k = 0; k < CONV_K; k++)     /* y(k,i,j) = sum_c,r,s w(k,c,r,s) x(c, i+r-1, j+s-1), zero-padded */
        for (int i = 0; i < CONV_H; i++)
            for (int j = 0; j < CONV_W; j++) {
                double sum = 0;
                for (int ch = 0; ch < CONV_C; ch++)
                    for (int r = 0; r < CONV_R; r++)
                        for (int q = 0; q < CONV_R; q++) {
                            int yi = i + r - 1, xj = j + q - 1;
                            if (yi < 0 || yi >= CONV_H || xj < 0 || xj >= CONV_W) continue;
                            sum += (double)w[((k * CONV_C + ch) * CONV_R + r) * CONV_R + q] *
                                   x[(ch * CONV_H + yi) * CONV_W + xj];
                        }
                want[(k * CONV_H + i) * CONV_W + j] = sum;
            }
    cp_rt_dptr dx, dw, dy;
    const float one = 1.0f, zero = 0.0f;
    if (dalloc(c, &b, XE * sizeof(float), &dx) || dalloc(c, &b, WE * sizeof(float), &dw) ||
        dalloc(c, &b, YE * sizeof(float), &dy)) { rt_failed(c, l, NULL); goto out; }
    if (htod(c, l, dx, x, XE * sizeof(float)) || htod(c, l, dw, w, WE * sizeof(float)) || poison(c, l, dy, YE))
        goto out;
    DNN(cudnnConvolutionForward, h, &one, xd, (const void *)(uintptr_t)dx, wd, (const void *)(uintptr_t)dw, cd,
        CP_CUDNN_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, &zero, yd, (void *)(uintptr_t)dy);
#undef DNN
    if (sync_dtoh(c, l, y, dy, YE * sizeof(float))) goto out;
    compare(l, want, y, YE, 1e-3);
    l->run_us = (int64_t)(now_us() - t);
    rc = 0;
    goto out;
fail:
    lib_failed(l, call, s, a->cudnnGetErrorString ? a->cudnnGetErrorString(s) : NULL);
out:
    dfree(c, &b);
    if (cd) a->cudnnDestroyConvolutionDescriptor(cd);
    if (wd) a->cudnnDestroyFilterDescriptor(wd);
    if (yd) a->cudnnDestroyTensorDescriptor(yd);
    if (xd) a->cudnnDestroyTensorDescriptor(xd);
    if (h) a->cudnnDestroy(h);
    free(x);
    free(want);
    return rc;
}

/* --------------------------------------------------------------- NVRTC -- */

static const char *nvrtc_name(const cp_nvrtc_api *a, int s)
{
    return a->nvrtcGetErrorString ? a->nvrtcGetErrorString(s) : NULL;
}

/* The first line of the compile log into l->error. */
static void nvrtc_log(const cp_nvrtc_api *a, nvrtcProgram p, cp_lib_l2 *l)
{
    size_t n = 0;
    if (!a->nvrtcGetProgramLogSize || !a->nvrtcGetProgramLog || a->nvrtcGetProgramLogSize(p, &n) != 0 || n < 2 ||
        n > (1u << 20))
        return;
    char *log = cp_malloc(n + 1);
    if (!log) return;
    if (a->nvrtcGetProgramLog(p, log) == 0) {
        log[n] = '\0';
        log[strcspn(log, "\n")] = '\0';
        cp_dl_copy(l->error, sizeof l->error, log);
    }
    free(log);
}

static int run_nvrtc(ctx *c, cp_lib_l2 *l, void *table)
{
    const cp_nvrtc_api *a = table;
    enum { N = NVRTC_N };
    nvrtcProgram p = NULL;
    char *ptx = NULL, arch[48];
    cp_rt_module *m = NULL;
    cp_rt_func fn = NULL;
    dbufs b = { { 0 }, 0 };
    int rc = -1, s;
    size_t n = 0;
    float *x = cp_malloc(2 * N * sizeof(float)), *y = x ? x + N : NULL;
    float *want_f = cp_malloc(N * sizeof(float));
    double *want = cp_malloc(N * sizeof(double));
    double t = now_us();
    step(c, CP_L2_NVRTC, "init");
    if (!x || !want || !want_f) { rc = no_memory(l); goto out; }
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d", c->cc);
    const char *opts[] = { arch };
    if ((s = a->nvrtcCreateProgram(&p, nvrtc_source, "cuprobe_l2.cu", 0, NULL, NULL)) != 0) {
        lib_failed(l, "nvrtcCreateProgram", s, nvrtc_name(a, s));
        p = NULL;
        goto out;
    }
    if ((s = a->nvrtcCompileProgram(p, 1, opts)) != 0) {
        lib_failed(l, "nvrtcCompileProgram", s, nvrtc_name(a, s));
        nvrtc_log(a, p, l);
        goto out;
    }
    if ((s = a->nvrtcGetPTXSize(p, &n)) != 0 || n == 0 || n > (64u << 20)) {
        lib_failed(l, "nvrtcGetPTXSize", s, s ? nvrtc_name(a, s) : "no PTX");
        goto out;
    }
    if (!(ptx = cp_malloc(n + 1))) { rc = no_memory(l); goto out; }
    if ((s = a->nvrtcGetPTX(p, ptx)) != 0) { lib_failed(l, "nvrtcGetPTX", s, nvrtc_name(a, s)); goto out; }
    ptx[n] = '\0';
    l->init_us = (int64_t)(now_us() - t);
    l->rss_loaded_bytes = status_bytes(c, "VmRSS:");
    step(c, CP_L2_NVRTC, "run");
    t = now_us();
    if (cp_rt_module_load(c->rt, ptx, &m) || cp_rt_function(c->rt, m, "cp_k_fma_f32", &fn)) {
        rt_failed(c, l, NULL);
        goto out;
    }
    float av = small_int(c->seed, 99) + 0.5f;
    for (int i = 0; i < N; i++) {
        x[i] = small_int(c->seed ^ 0x6666u, (uint64_t)i) / 8.0f;
        want_f[i] = small_int(c->seed ^ 0x7777u, (uint64_t)i) / 8.0f;
    }
    cp_rt_dptr dx, dy;
    if (dalloc(c, &b, N * sizeof(float), &dx) || dalloc(c, &b, N * sizeof(float), &dy)) { rt_failed(c, l, NULL); goto out; }
    if (htod(c, l, dx, x, N * sizeof(float)) || htod(c, l, dy, want_f, N * sizeof(float))) goto out;
    cp_k_fma_f32_cpu(want_f, x, av, N);
    for (int i = 0; i < N; i++) want[i] = want_f[i];
    uint64_t nn = N;
    void *args[] = { &dy, &dx, &av, &nn };
    if (cp_rt_launch(c->rt, fn, N / 256, 256, 0, NULL, args)) { rt_failed(c, l, NULL); goto out; }
    if (sync_dtoh(c, l, y, dy, N * sizeof(float))) goto out;
    compare(l, want, y, N, 0);
    l->run_us = (int64_t)(now_us() - t);
    rc = 0;
out:
    dfree(c, &b);
    if (p) a->nvrtcDestroyProgram(&p);
    free(ptx);
    free(x);
    free(want_f);
    free(want);
    return rc;
}

/* ---------------------------------------------------------------- NCCL -- */

static const char *nccl_name(const cp_nccl_api *a, int s)
{
    return a->ncclGetErrorString ? a->ncclGetErrorString(s) : NULL;
}

static int run_nccl(ctx *c, cp_lib_l2 *l, void *table)
{
    const cp_nccl_api *a = table;
    enum { N = NCCL_N };
    int nd = c->ndev, rc = -1, s, inited = 0;
    ncclComm_t comm[CP_MAX_GPUS] = { NULL };
    cp_rt *rts[CP_MAX_GPUS] = { NULL };
    cp_rt_dptr send[CP_MAX_GPUS] = { 0 }, recv[CP_MAX_GPUS] = { 0 };
    float *host = cp_malloc(N * sizeof(float));
    double *want = cp_malloc(N * sizeof(double));
    double t = now_us();
    l->ranks = nd;
    step(c, CP_L2_NCCL, "init");
    if (!host || !want) { rc = no_memory(l); goto out; }
    if ((s = a->ncclCommInitAll(comm, nd, NULL)) != 0) { lib_failed(l, "ncclCommInitAll", s, nccl_name(a, s)); goto out; }
    inited = 1;
    l->init_us = (int64_t)(now_us() - t);
    l->rss_loaded_bytes = status_bytes(c, "VmRSS:");
    step(c, CP_L2_NCCL, "run");
    t = now_us();
    for (int i = 0; i < N; i++) want[i] = 0;
    for (int d = 0; d < nd; d++) {       /* each rank's data in its own context */
        cp_rt *r = d == 0 ? c->rt : NULL;
        if (d > 0 && cp_rt_open(c->cuda, d, &rts[d]) != 0) { rt_failed(c, l, rts[d]); goto out; }
        if (d > 0) r = rts[d];
        for (int i = 0; i < N; i++) {
            host[i] = small_int(c->seed ^ (0x8888u + (uint32_t)d), (uint64_t)i);
            want[i] += host[i];
        }
        if (cp_rt_alloc(r, N * sizeof(float), &send[d]) || cp_rt_alloc(r, N * sizeof(float), &recv[d]) ||
            cp_rt_copy_htod(r, send[d], host, N * sizeof(float), NULL) ||
            cp_rt_memset32(r, recv[d], 0x7FC0DEADu, N, NULL)) { rt_failed(c, l, r); goto out; }
    }
    if ((s = a->ncclGroupStart()) != 0) { lib_failed(l, "ncclGroupStart", s, nccl_name(a, s)); goto out; }
    for (int d = 0; d < nd; d++)
        if ((s = a->ncclAllReduce((const void *)(uintptr_t)send[d], (void *)(uintptr_t)recv[d], N, CP_NCCL_FLOAT32,
                                  CP_NCCL_SUM, comm[d], NULL)) != 0) {
            lib_failed(l, "ncclAllReduce", s, nccl_name(a, s));
            a->ncclGroupEnd();
            goto out;
        }
    if ((s = a->ncclGroupEnd()) != 0) { lib_failed(l, "ncclGroupEnd", s, nccl_name(a, s)); goto out; }
    int64_t wrong = 0, elements = 0, first = CP_UNKNOWN;
    char exp[32] = "", got[32] = "";
    for (int d = 0; d < nd; d++) {       /* every rank's result; its context made current again */
        cp_rt *cur = NULL, *own = d == 0 ? c->rt : rts[d];
        if (cp_rt_open(c->cuda, d, &cur) != 0 || cp_rt_sync(cur) ||
            cp_rt_copy_dtoh(cur, host, recv[d], N * sizeof(float), NULL)) {
            rt_failed(c, l, cur);
            cp_rt_close(cur);
            goto out;
        }
        /* freed while their context is current (NCCL moved it) */
        cp_rt_free(own, send[d]);
        cp_rt_free(own, recv[d]);
        send[d] = recv[d] = 0;
        cp_rt_close(cur);
        compare(l, want, host, N, 0);
        if (l->wrong && !CP_KNOWN(first)) {
            first = elements + l->wrong_index;
            cp_dl_copy(exp, sizeof exp, l->wrong_expected);
            cp_dl_copy(got, sizeof got, l->wrong_got);
        }
        wrong += l->wrong;
        elements += l->elements;
    }
    l->elements = elements;
    l->wrong = wrong;
    l->wrong_index = first;
    cp_dl_copy(l->wrong_expected, sizeof l->wrong_expected, exp);
    cp_dl_copy(l->wrong_got, sizeof l->wrong_got, got);
    cp_dl_copy(l->result, sizeof l->result, wrong ? "wrong" : "ok");
    l->run_us = (int64_t)(now_us() - t);
    rc = 0;
out:
    for (int d = 0; inited && d < nd; d++)
        if (comm[d]) a->ncclCommDestroy(comm[d]);
    for (int d = 0; d < nd; d++) {
        cp_rt *r = d == 0 ? c->rt : rts[d];
        if (r && send[d]) cp_rt_free(r, send[d]);
        if (r && recv[d]) cp_rt_free(r, recv[d]);
        if (d > 0) cp_rt_close(rts[d]);
    }
    free(host);
    free(want);
    return rc;
}

/* ------------------------------------------------------------ the child -- */

typedef int (*run_fn)(ctx *c, cp_lib_l2 *l, void *table);

/* The copy of library i a program here gets: the libraries layer's
 * would_load copy on the machine itself, else NULL (the soname). */
static const char *copy_of(const ctx *c, int i)
{
    const cp_libraries_facts *L = c->arg ? c->arg->libs : NULL;
    if (!L || !c->arg->use_paths) return NULL;
    for (int k = 0; k < L->nlib && k < CP_MAX_LIBS; k++)
        if (L->lib[k].would_load && strcmp(L->lib[k].name, cp_l2_lib_names[i]) == 0 && L->lib[k].path[0])
            return L->lib[k].path;
    return NULL;
}

static void run_lib(ctx *c, int i, const cp_dl_lib *desc, size_t table_size, run_fn run)
{
    cp_lib_l2 *l = &c->f->lib[i];
    cp_dl_lib d = *desc;
    const char *path = copy_of(c, i);
    if (path) d.soname = path;
    void *table = cp_calloc(1, table_size);
    cp_lib_load *rec = cp_malloc(sizeof *rec);
    step(c, i, "load");
    l->rss_before_bytes = status_bytes(c, "VmRSS:");
    double t = now_us();
    void *h = table && rec ? cp_dl_load(&d, table, rec) : NULL;
    l->load_us = (int64_t)(now_us() - t);
    if (!table || !rec) {
        no_memory(l);
    } else if (!h) {
        cp_dl_copy(l->path, sizeof l->path, rec->path[0] ? rec->path : rec->requested);
        if (rec->loaded) {
            cp_dl_copy(l->result, sizeof l->result, "load");
            snprintf(l->error, sizeof l->error, "lacks the symbol %s", rec->missing_symbol);
        } else {
            cp_dl_copy(l->result, sizeof l->result, strstr(rec->error, "No such file") ? "missing" : "load");
            cp_dl_copy(l->error, sizeof l->error, rec->error);
        }
    } else {
        cp_dl_copy(l->path, sizeof l->path, rec->path[0] ? rec->path : rec->requested);
        l->ranks = l->ranks == CP_UNKNOWN ? 1 : l->ranks;
        if (run(c, l, table) == 0) step(c, i, "done");
        /* no dlclose: the child exits soon, and some libraries leave threads */
    }
    l->rss_after_bytes = status_bytes(c, "VmRSS:");
    l->hwm_after_bytes = status_bytes(c, "VmHWM:");
    cp_facts_put_lib_l2(&c->out->buf, i, l);
    cp_probe_flush(c->out);
    free(table);
    free(rec);
}

/* Load libcuda, cuInit, retain device 0's context; "" or why not in skip. */
static void open_cuda(ctx *c, cp_cuda_api *api, cp_lib_load *rec)
{
    cp_libs_l2_facts *f = c->f;
    int count = 0, major = 0, minor = 0;
    stage(c, "cuda");
    if (!cp_dl_load(&cp_cuda_lib, api, rec)) {
        cp_dl_copy(f->skip, sizeof f->skip, "libcuda was not loaded");
        return;
    }
    if (api->cuInit(0) != CP_CUDA_SUCCESS) {
        cp_dl_copy(f->skip, sizeof f->skip, "cuInit did not succeed");
        return;
    }
    if (api->cuDeviceGetCount(&count) != CP_CUDA_SUCCESS || count <= 0) {
        cp_dl_copy(f->skip, sizeof f->skip, "libcuda lists no device");
        return;
    }
    c->cuda = api;
    c->ndev = count < CP_MAX_GPUS ? count : CP_MAX_GPUS;
    if (cp_rt_open(api, 0, &c->rt) != 0) {
        const cp_rt_error *e = cp_rt_last_error(c->rt);
        char why[200];
        snprintf(why, sizeof why, "the primary context of GPU 0 could not be retained (%s = %d %s)",
                 e ? e->call : "?", e ? e->result : -1, e ? e->name : "");
        cp_dl_copy(f->skip, sizeof f->skip, why);
        return;
    }
    CUdevice dev = 0;
    if (api->cuDeviceGet(&dev, 0) == CP_CUDA_SUCCESS && api->cuDeviceGetAttribute &&
        api->cuDeviceGetAttribute(&major, ATTR_CC_MAJOR, dev) == CP_CUDA_SUCCESS &&
        api->cuDeviceGetAttribute(&minor, ATTR_CC_MINOR, dev) == CP_CUDA_SUCCESS)
        c->cc = major * 10 + minor;
    if (c->cc <= 0) c->cc = 75;   /* the oldest architecture NVRTC 13 compiles for */
    f->device = 0;
}

/* See libs_l2.h. */
void cp_libs_l2_child(cp_probe_out *out, void *arg)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.out = out;
    c.arg = arg;
    c.f = cp_malloc(sizeof *c.f);
    cp_cuda_api *api = cp_malloc(sizeof *api);
    cp_lib_load *rec = cp_malloc(sizeof *rec);
    if (!c.f || !api || !rec) {
        out->buf.failed = true;
        goto out;
    }
    cp_libs_l2_facts_init(c.f);
    c.f->level = 2;
    /* NVLink SHARP buffers cost GBs of device memory and a long init: never here */
    if (!getenv("NCCL_NVLS_ENABLE")) setenv("NCCL_NVLS_ENABLE", "0", 1);
    c.self = cp_fs_open("/", false);
    c.seed = cp_level2_seed();
    c.f->rss_start_bytes = status_bytes(&c, "VmRSS:");
    open_cuda(&c, api, rec);
    c.f->rss_ctx_bytes = status_bytes(&c, "VmRSS:");
    cp_facts_put_libs_l2_head(&out->buf, c.f);
    cp_probe_flush(out);
    if (!c.f->skip[0]) {
        run_lib(&c, CP_L2_CUBLAS, &cp_cublas_lib, sizeof(cp_cublas_api), run_cublas);
        run_lib(&c, CP_L2_CUFFT, &cp_cufft_lib, sizeof(cp_cufft_api), run_cufft);
        run_lib(&c, CP_L2_CUDNN, &cp_cudnn_lib, sizeof(cp_cudnn_api), run_cudnn);
        run_lib(&c, CP_L2_NVRTC, &cp_nvrtc_lib, sizeof(cp_nvrtc_api), run_nvrtc);
        run_lib(&c, CP_L2_NCCL, &cp_nccl_lib, sizeof(cp_nccl_api), run_nccl);
    }
    c.f->hwm_bytes = status_bytes(&c, "VmHWM:");
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) c.f->run.maxrss_kb = (int64_t)ru.ru_maxrss;
    cp_dl_copy(c.f->run.stage, sizeof c.f->run.stage, "done");
    cp_facts_put_libs_l2_head(&out->buf, c.f);
    cp_kv_put_str(&out->buf, "libl2.end", "ok");
    cp_rt_close(c.rt);
out:
    cp_fs_close(c.self);
    free(c.f);
    free(api);
    free(rec);
}
