/* cuprobe bench's pure helpers (bench/stats.c): the --only filter, the
 * median and spread of repeats, and the 16-bit float conversions the GEMM
 * spot check rounds its operands with. */
#include <math.h>
#include <string.h>

#include "test.h"
#include "bench/bench_int.h"

static void test_selected(void)
{
    CHECK(cp_bench_selected(NULL, "copy.h2d.pinned.ce"));
    CHECK(cp_bench_selected("", "gemm.bf16"));
    CHECK(cp_bench_selected("copy", "copy.h2d.pinned.ce"));
    CHECK(cp_bench_selected("hbm,copy.d2d", "copy.d2d.sm"));
    CHECK(cp_bench_selected("gemm.bf16", "gemm.bf16"));
    CHECK(!cp_bench_selected("gemm.bf", "gemm.bf16"));       /* a prefix ends at a dot */
    CHECK(!cp_bench_selected("copy", "hbm.read"));
    CHECK(cp_bench_selected("peer", "peer.0-1.write"));
    CHECK(!cp_bench_selected(",,", "copy.d2d.ce"));
}

static void test_median(void)
{
    double v[] = { 3, 1, 2 }, sp;
    CHECK(fabs(cp_bench_median(v, 3, &sp) - 2) < 1e-12);
    CHECK(fabs(sp - 1.0) < 1e-12);                           /* (3 - 1) / 2 */
    double w[] = { 4, 1, 2, 3 };
    CHECK(fabs(cp_bench_median(w, 4, &sp) - 2.5) < 1e-12);
    CHECK(isnan(cp_bench_median(w, 0, &sp)) && isnan(sp));
}

static void test_bf16(void)
{
    CHECK_I64(cp_bench_f32_to_bf16(1.0f), 0x3f80);
    CHECK_I64(cp_bench_f32_to_bf16(-2.0f), 0xc000);
    /* 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to even (1) */
    CHECK_I64(cp_bench_f32_to_bf16(1.00390625f), 0x3f80);
    /* 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: to even (1 + 2^-6) */
    CHECK_I64(cp_bench_f32_to_bf16(1.01171875f), 0x3f82);
    CHECK(cp_bench_bf16_to_f32(0x3f80) == 1.0f);
    CHECK(isnan(cp_bench_bf16_to_f32(cp_bench_f32_to_bf16(NAN))));
}

static void test_f16(void)
{
    CHECK_I64(cp_bench_f32_to_f16(1.0f), 0x3c00);
    CHECK_I64(cp_bench_f32_to_f16(-0.5f), 0xb800);
    CHECK_I64(cp_bench_f32_to_f16(65504.0f), 0x7bff);
    CHECK_I64(cp_bench_f32_to_f16(1e6f), 0x7c00);            /* overflow: infinity */
    CHECK_I64(cp_bench_f32_to_f16(ldexpf(1, -24)), 0x0001);  /* the smallest subnormal */
    CHECK_I64(cp_bench_f32_to_f16(ldexpf(1, -26)), 0x0000);  /* under half of it: zero */
    CHECK_I64(cp_bench_f32_to_f16(1.0f + ldexpf(1, -11)), 0x3c00);   /* halfway: to even */
    CHECK_I64(cp_bench_f32_to_f16(1.0f + 3 * ldexpf(1, -11)), 0x3c02);
    CHECK(cp_bench_f16_to_f32(0x3c00) == 1.0f);
    CHECK(cp_bench_f16_to_f32(0x0001) == ldexpf(1, -24));
    CHECK(isinf(cp_bench_f16_to_f32(0x7c00)));
    /* every finite half goes round the trip unchanged */
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if ((h & 0x7c00) == 0x7c00) continue;
        if (cp_bench_f32_to_f16(cp_bench_f16_to_f32((uint16_t)h)) != h) bad++;
    }
    CHECK_I64(bad, 0);
}

int main(void)
{
    RUN(test_selected);
    RUN(test_median);
    RUN(test_bf16);
    RUN(test_f16);
    return TEST_END();
}
