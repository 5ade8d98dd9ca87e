// Kernels of known bounds for `cuprobe trace --counters` (bench/gpu_trace_counters.sh
// builds this with nvcc, traces it with --counters and runs ncu on it for comparison):
//   fma_loop      compute-bound: four independent FMA chains per thread, every SM full
//   triad         memory-bound: a[i] = b[i] + s * c[i] over three 256 MiB arrays
//   chase         latency-bound: one block of 32 threads, each following its own chain of
//                 dependent loads through a 256 MiB random cycle
// Usage: counters_cases MODE [SCALE [reset]]    MODE: compute, memory, latency or all (the three
// in turn, each phase its kernels back to back); SCALE multiplies the launches (default 1);
// reset: end with cudaDeviceReset, as CUDA's own samples do.
// Prints "MODE wall_s SECONDS" (the kernels' phases, from the first launch to the last sync)
// and "MODE done"; a CUDA error exits 1 with its name.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorName(e_)); exit(1); } } while (0)

extern "C" __global__ void fma_loop(float *out, int iters)
{
    float a = threadIdx.x * 1e-3f, b = a + 1.f, c = a + 2.f, d = a + 3.f;
    const float m = 1.0000001f, k = 1e-7f;
    for (int i = 0; i < iters; i++) {
        a = fmaf(a, m, k);
        b = fmaf(b, m, k);
        c = fmaf(c, m, k);
        d = fmaf(d, m, k);
    }
    if (a + b + c + d == 12345.f) out[blockIdx.x] = a;    // never true: keeps the loop
}

extern "C" __global__ void triad(float *a, const float *b, const float *c, float s, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) a[i] = b[i] + s * c[i];
}

extern "C" __global__ void chase(const unsigned *next, unsigned *out, int steps)
{
    unsigned p = threadIdx.x * 7919u;
    for (int i = 0; i < steps; i++) p = next[p];
    out[threadIdx.x] = p;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    double scale = argc > 2 ? atof(argv[2]) : 1.0;
    if (!(scale > 0)) scale = 1.0;
    int all = !strcmp(mode, "all");
    if (!all && strcmp(mode, "compute") && strcmp(mode, "memory") && strcmp(mode, "latency")) {
        fprintf(stderr, "usage: counters_cases compute|memory|latency|all [SCALE]\n");
        return 2;
    }
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t n = 64u << 20;                          // floats: 256 MiB per array
    float *a = nullptr, *b = nullptr, *c = nullptr;
    unsigned *next = nullptr, *out = nullptr;
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&b, n * sizeof(float)));
    CK(cudaMalloc(&c, n * sizeof(float)));
    CK(cudaMalloc(&out, 1024 * sizeof(unsigned)));
    CK(cudaMemset(b, 0, n * sizeof(float)));
    CK(cudaMemset(c, 0, n * sizeof(float)));
    if (all || !strcmp(mode, "latency")) {
        // one random cycle over n slots (Sattolo), so every load depends on the last and misses the caches
        unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
        if (!h) return 1;
        for (size_t i = 0; i < n; i++) h[i] = (unsigned)i;
        unsigned long long x = 88172645463325252ull;
        for (size_t i = n - 1; i > 0; i--) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            size_t j = (size_t)(x % i);
            unsigned t = h[i]; h[i] = h[j]; h[j] = t;
        }
        CK(cudaMalloc(&next, n * sizeof(unsigned)));
        CK(cudaMemcpy(next, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
        free(h);
    }
    CK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    if (all || !strcmp(mode, "compute")) {
        int launches = (int)(30 * scale) > 0 ? (int)(30 * scale) : 1;
        for (int i = 0; i < launches; i++) fma_loop<<<sms * 8, 256>>>(a, 100000);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    if (all || !strcmp(mode, "memory")) {
        int launches = (int)(400 * scale) > 0 ? (int)(400 * scale) : 1;
        for (int i = 0; i < launches; i++) triad<<<sms * 16, 256>>>(a, b, c, 1.5f, n);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    if (all || !strcmp(mode, "latency")) {
        int launches = (int)(10 * scale) > 0 ? (int)(10 * scale) : 1;
        for (int i = 0; i < launches; i++) chase<<<1, 32>>>(next, out, 20000);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("%s wall_s %.4f\n%s done\n", mode, wall, mode);
    if (argc > 3 && !strcmp(argv[3], "reset")) CK(cudaDeviceReset());
    return 0;
}
