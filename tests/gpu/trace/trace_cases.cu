// Programs of known behaviour for `cuprobe trace` on a GPU machine
// (tests/gpu/trace.sh builds this with nvcc and checks each verdict):
//   trace_cases gemm      long compute kernels queued back to back, one sync at the end: busy >= 95 %
//   trace_cases launch    10000 empty kernels: launch-bound
//   trace_cases million   1,000,000 empty kernels: all traced, none dropped
//   trace_cases pageable  256 MiB copies from malloc'ed (pageable) memory with a tiny kernel: pageable-copy-bound
//   trace_cases sync      a short kernel, then a 4-byte copy back and a host read every step (.item()): sync-bound,
//                         the sync time from trace_cases:sync_steps
// Each prints one line "MODE done" and exits 0; a CUDA error exits 1 with its name.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void spin(float *out, int iters)
{
    float a = threadIdx.x * 1e-3f, b = 1.0001f;
    for (int i = 0; i < iters; i++) a = a * b + 1e-7f;
    if (a == 12345.f) out[blockIdx.x] = a;      // never true: keeps the loop
}

__global__ void empty_kernel() {}

__global__ void scale(float *p, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) p[i] *= 1.0001f;
}

// The sync case's loop in a function of its own: the report must name it (where in the program).
void sync_steps(float *d) __attribute__((noinline));
void sync_steps(float *d)
{
    float v = 0;
    for (int i = 0; i < 3000; i++) {
        spin<<<132, 256>>>(d, 2000);
        CK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));   // .item()
        volatile double host = 0;                                  // host work between steps
        for (int k = 0; k < 20000; k++) host += k * 1e-9;
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    float *d = nullptr;
    CK(cudaMalloc(&d, 256u << 20));
    CK(cudaDeviceSynchronize());
    if (!strcmp(mode, "gemm")) {
        for (int i = 0; i < 400; i++) spin<<<132 * 16, 256>>>(d, 200000);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    } else if (!strcmp(mode, "launch") || !strcmp(mode, "million")) {
        int n = mode[0] == 'm' ? 1000000 : 10000;
        for (int i = 0; i < n; i++) empty_kernel<<<1, 32>>>();
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    } else if (!strcmp(mode, "pageable")) {
        size_t n = 256u << 20;
        char *h = (char *)malloc(n);
        if (!h) return 1;
        memset(h, 1, n);
        for (int i = 0; i < 20; i++) {
            CK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
            scale<<<64, 256>>>(d, 64 * 256);
            CK(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));
        }
        free(h);
    } else if (!strcmp(mode, "sync")) {
        sync_steps(d);
    } else {
        fprintf(stderr, "usage: trace_cases gemm|launch|million|pageable|sync\n");
        return 2;
    }
    CK(cudaFree(d));
    printf("%s done\n", mode);
    return 0;
}
