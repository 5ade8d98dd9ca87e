/*
 * The probe kernels: what `doctor --level 2` and `bench` run on a GPU.
 * kernels.h is the contract (names, argument types and order, and the CPU
 * twin each result must equal bit for bit); docs/kernels.md says how the
 * embedded image is made.  After any change here or in kernels.h run
 * `make kernels` (test_kernels fails while probe_kernels_fatbin.c is stale).
 *
 * Every kernel is one-dimensional and grid-stride over a 64-bit element
 * count, so any grid covers any n.  Built without fast math and with
 * -fmad=false: a multiply stays a multiply, fmaf is the one fused step,
 * denormals are kept (no flush to zero), exactly as the C twins compute.
 */
#include <stdint.h>
#include "kernels.h"        /* cp_k_hash, compiled for the device as well */

/* for (i = this thread; i < n; i += every thread of the grid) */
#define CP_K_FOR(i, n) \
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (uint64_t)blockDim.x * gridDim.x)

/* dst[i] = cp_k_hash(seed, i) */
extern "C" __global__ void cp_k_fill_u32(uint32_t *dst, uint64_t n, uint32_t seed)
{
    CP_K_FOR(i, n) dst[i] = cp_k_hash(seed, i);
}

/* y[i] = fmaf(a, x[i], y[i]) */
extern "C" __global__ void cp_k_fma_f32(float *y, const float *x, float a, uint64_t n)
{
    CP_K_FOR(i, n) y[i] = fmaf(a, x[i], y[i]);
}

/* v = (float)(i & 1023) * 0.001f; iters times v = fmaf(v, a, b); out[i] = v */
extern "C" __global__ void cp_k_burn_f32(float *out, uint64_t n, int iters, float a, float b)
{
    CP_K_FOR(i, n) {
        float v = (float)(i & 1023) * 0.001f;
        for (int k = 0; k < iters; k++) v = fmaf(v, a, b);
        out[i] = v;
    }
}

/* dst[i] = src[i], 16 bytes per element: a copy done by the SMs */
extern "C" __global__ void cp_k_copy_u128(uint4 *dst, const uint4 *src, uint64_t n)
{
    CP_K_FOR(i, n) dst[i] = src[i];
}

/* *sink ^= the xor of every 32-bit word of src[0..n): the reads feed a
 * result, so they cannot be dropped.  One atomic per warp when the block is
 * whole warps (the usual launch), else one per thread. */
extern "C" __global__ void cp_k_read_u128(const uint4 *src, uint64_t n, uint32_t *sink)
{
    uint32_t acc = 0;
    CP_K_FOR(i, n) {
        uint4 v = src[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if ((blockDim.x & 31u) == 0) {
        for (int o = 16; o > 0; o >>= 1) acc ^= __shfl_xor_sync(0xffffffffu, acc, o);
        if ((threadIdx.x & 31u) == 0) atomicXor(sink, acc);
    } else {
        atomicXor(sink, acc);
    }
}

/* every 32-bit word of dst[0..n) = v */
extern "C" __global__ void cp_k_write_u128(uint4 *dst, uint64_t n, uint32_t v)
{
    CP_K_FOR(i, n) dst[i] = make_uint4(v, v, v, v);
}

/* Busy for at least `cycles` SM clocks, then *done = 1 (the overlap check
 * runs it on one stream while copies run on another). */
extern "C" __global__ void cp_k_spin(uint64_t cycles, uint32_t *done)
{
    long long start = clock64();
    while ((uint64_t)(clock64() - start) < cycles) {
    }
    *(volatile uint32_t *)done = 1;
    __threadfence_system();
}
