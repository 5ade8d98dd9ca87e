/*
 * The probe kernels (probe_kernels.cu, embedded as a fatbinary in
 * probe_kernels_fatbin.c by `make kernels`) and their CPU twins.
 *
 * Each kernel is extern "C", one-dimensional, grid-stride, and its result is
 * defined bit for bit, so a CPU computes what the GPU must: level 2 checks
 * every element against these twins, and the fake libcuda runs the twin
 * when a test "launches" the kernel.  Sizes are element counts.
 *
 *   cp_k_fill_u32(uint32_t *dst, uint64_t n, uint32_t seed)
 *       dst[i] = cp_k_hash(seed, i)
 *   cp_k_fma_f32(float *y, const float *x, float a, uint64_t n)
 *       y[i] = fmaf(a, x[i], y[i])
 *   cp_k_burn_f32(float *out, uint64_t n, int iters, float a, float b)
 *       v = (float)(i & 1023) * 0.001f; iters times v = fmaf(v, a, b); out[i] = v
 *   cp_k_copy_u128(uint4 *dst, const uint4 *src, uint64_t n)     SM-driven copy
 *   cp_k_read_u128(const uint4 *src, uint64_t n, uint32_t *sink) reads all, xor of
 *       every word into *sink (atomicXor), so the reads cannot be dropped
 *   cp_k_write_u128(uint4 *dst, uint64_t n, uint32_t v)          every word = v
 *   cp_k_spin(uint64_t cycles, uint32_t *done)                   busy for about
 *       `cycles` SM clocks (clock64), then *done = 1 (for the overlap check)
 */
#ifndef CP_KERNELS_KERNELS_H
#define CP_KERNELS_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* The embedded fatbinary (probe_kernels_fatbin.c, generated). */
extern const unsigned char cp_probe_kernels_fatbin[];
extern const size_t cp_probe_kernels_fatbin_len;
/* sha256 of probe_kernels.cu and the nvcc flags it was built with, as hex:
 * a test holds it to the source (the generated file is stale otherwise). */
extern const char cp_probe_kernels_source_sha256[];

/* probe_kernels.cu includes this header: nvcc compiles the hash for the GPU
 * too, so both sides run the one definition. */
#ifdef __CUDACC__
#define CP_K_HOST_DEVICE __host__ __device__
#else
#define CP_K_HOST_DEVICE
#endif

/* The fill pattern: a 32-bit mix of seed and index (both sides). */
static inline CP_K_HOST_DEVICE uint32_t cp_k_hash(uint32_t seed, uint64_t i)
{
    uint32_t x = seed ^ (uint32_t)(i * 0x9E3779B97F4A7C15ull >> 32) ^ (uint32_t)i;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static inline void cp_k_fill_u32_cpu(uint32_t *dst, uint64_t n, uint32_t seed)
{
    for (uint64_t i = 0; i < n; i++) dst[i] = cp_k_hash(seed, i);
}

static inline void cp_k_fma_f32_cpu(float *y, const float *x, float a, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) y[i] = fmaf(a, x[i], y[i]);
}

static inline void cp_k_burn_f32_cpu(float *out, uint64_t n, int iters, float a, float b)
{
    for (uint64_t i = 0; i < n; i++) {
        float v = (float)(i & 1023) * 0.001f;
        for (int k = 0; k < iters; k++) v = fmaf(v, a, b);
        out[i] = v;
    }
}

#endif
