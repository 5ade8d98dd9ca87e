/*
 * A tiny test harness: each tests/unit/test_*.c is one program that calls
 * RUN(fn) for its test functions and returns TEST_END().  The last line it
 * prints is "N passed, N failed" for tests/run-unit.sh to add up.
 */
#ifndef CP_TEST_H
#define CP_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int test_failed_checks;
static int test_pass, test_fail;

#define CHECK(cond) do { if (!(cond)) { test_failed_checks++; \
    fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } } while (0)

#define CHECK_I64(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) { test_failed_checks++; \
    fprintf(stderr, "  %s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #a, a_, b_); } } while (0)

#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) { test_failed_checks++; \
    fprintf(stderr, "  %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
            a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } } while (0)

#define RUN(fn) do { int before_ = test_failed_checks; fn(); \
    if (test_failed_checks == before_) test_pass++; \
    else { test_fail++; fprintf(stderr, "FAIL %s\n", #fn); } } while (0)

#define TEST_END() (printf("%d passed, %d failed\n", test_pass, test_fail), test_fail ? 1 : 0)

#endif
