/*
 * Small pure helpers of cuprobe bench shared by the parent, the child and
 * the GEMM (bench_int.h): the --only filter, the median of repeats, and
 * the 16-bit float conversions of the GEMM's spot check.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_int.h"
#include "util/str.h"

/* Is id selected by the comma list of id prefixes (bench_int.h). */
bool cp_bench_selected(const char *only, const char *id)
{
    if (!only || !only[0])
        return true;
    const char *p = only;
    char tok[64];
    while (cp_list_next(&p, ',', tok, sizeof tok)) {
        size_t n = strlen(tok);
        if (n == 0)
            continue;
        if (strncmp(id, tok, n) == 0 && (id[n] == '\0' || id[n] == '.'))
            return true;
    }
    return false;
}

/* The runtime's last failure as a detail (bench_int.h). */
int cp_bench_rt_detail(const cp_rt *rt, char *detail, size_t cap)
{
    const cp_rt_error *e = cp_rt_last_error(rt);
    if (!e || e->result == CP_RT_NO_HOST_MEMORY) {
        cp_str_copy(detail, cap, e ? "malloc: out of host memory" : "out of host memory");
        return CP_RT_NO_HOST_MEMORY;
    }
    cp_str_copy(detail, cap, e->call);
    if (e->result == CP_RT_NO_SYMBOL) {
        cp_str_append(detail, cap, "", ": the driver lacks this call");
        return e->result;
    }
    char tail[96];
    snprintf(tail, sizeof tail, ": %s (%d)", e->name[0] ? e->name : "unnamed error", e->result);
    cp_str_append(detail, cap, "", tail);
    return e->result;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and spread of n repeats (bench_int.h). */
double cp_bench_median(double *v, int n, double *spread)
{
    *spread = NAN;
    if (n < 1)
        return NAN;
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    if (med > 0)
        *spread = (v[n - 1] - v[0]) / med;
    return med;
}

static uint32_t bits_of(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

static float float_of(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* bf16: the upper half of the float, rounded to nearest even (bench_int.h). */
uint16_t cp_bench_f32_to_bf16(float f)
{
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);   /* NaN stays NaN */
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

/* bf16 back to float: exact (bench_int.h). */
float cp_bench_bf16_to_f32(uint16_t h)
{
    return float_of((uint32_t)h << 16);
}

/* IEEE half, rounded to nearest even, overflow to infinity (bench_int.h). */
uint16_t cp_bench_f32_to_f16(float f)
{
    uint32_t x = bits_of(f);
    uint32_t sign = (x >> 16) & 0x8000u, fexp = (x >> 23) & 0xffu, mant = x & 0x7fffffu;
    if (fexp == 0xffu)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    int32_t exp = (int32_t)fexp - 127 + 15;
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) {                             /* a subnormal half, or zero */
        if (exp < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp), h = mant >> shift, rem = mant & ((1u << shift) - 1u);
        uint32_t half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;                                    /* a carry into the exponent is right */
    return (uint16_t)(sign | h);
}

/* IEEE half back to float: exact (bench_int.h). */
float cp_bench_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0) {
        float v = ldexpf((float)m, -24);
        return sign ? -v : v;
    }
    if (e == 31)
        return float_of(sign | 0x7f800000u | (m << 13));
    return float_of(sign | ((e - 15 + 127) << 23) | (m << 13));
}
