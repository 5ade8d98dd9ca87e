/*
 * Version strings and the tables that tie CUDA toolkits to Linux drivers
 * (REFERENCE 5.1).  Pure functions, no I/O.
 */
#include <stdio.h>
#include <stddef.h>

#include "cuprobe/facts.h"
#include "kb.h"

/* Components beyond this many digits are not version numbers; capping keeps
 * the arithmetic far from overflow for hostile input. */
#define MAX_COMPONENT 999999999LL

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Read one numeric component at *p (digits only, saturating), advance *p past
 * it.  Returns the value; 0 when there are no digits. */
static long long read_component(const char **p)
{
    long long v = 0;
    while (is_digit(**p)) {
        if (v <= MAX_COMPONENT)
            v = v * 10 + (**p - '0');
        (*p)++;
    }
    return v;
}

/* Compare dotted versions numerically; NULL sorts as "" (all zeros). */
int cp_version_cmp(const char *a, const char *b)
{
    const char *pa = a ? a : "";
    const char *pb = b ? b : "";
    /* A component ends at a non-digit; only a '.' leads to the next one, so
     * "12.4-rc1" compares as 12.4. */
    for (;;) {
        long long va = read_component(&pa);
        long long vb = read_component(&pb);
        if (va != vb)
            return va < vb ? -1 : 1;
        int more_a = *pa == '.';
        int more_b = *pb == '.';
        if (!more_a && !more_b)
            return 0;
        if (more_a)
            pa++;
        if (more_b)
            pb++;
    }
}

/* Split "13.0.2" into numbers; absent parts stay CP_UNKNOWN.  Any output
 * pointer may be NULL.  Returns the number of components parsed. */
int cp_version_split(const char *s, int64_t *major, int64_t *minor, int64_t *patch)
{
    int64_t v[3] = {CP_UNKNOWN, CP_UNKNOWN, CP_UNKNOWN};
    int n = 0;
    const char *p = s;

    while (p && n < 3 && is_digit(*p)) {
        const char *start = p;
        long long x = read_component(&p);
        if (p - start > 9 || x > MAX_COMPONENT)
            break;
        v[n++] = x;
        if (*p != '.' || !is_digit(p[1]))
            break;
        p++;
    }
    if (major)
        *major = v[0];
    if (minor)
        *minor = v[1];
    if (patch)
        *patch = v[2];
    return n;
}

/* Minimum driver per CUDA major for minor-version compatibility
 * (NVIDIA "CUDA Compatibility", REFERENCE 5.1/5.2). */
const char *cp_cuda_min_driver(int64_t major)
{
    switch (major) {
    case 11: return "450.80.02";
    case 12: return "525.60.13";
    case 13: return "580.65.06";
    default: return NULL;
    }
}

/* The GA release of each toolkit minor and the driver its runfile carried.
 * To add a release: append {major, minor, "driver"} in order. */
static const struct {
    int major, minor;
    const char *driver;
} bundled[] = {
    {11, 0, "450.51.05"}, {11, 1, "455.23"},    {11, 2, "460.27.03"},
    {11, 3, "465.19.01"}, {11, 4, "470.42.01"}, {11, 5, "495.29.05"},
    {11, 6, "510.39.01"}, {11, 7, "515.43.04"}, {11, 8, "520.61.05"},
    {12, 0, "525.60.13"}, {12, 1, "530.30.02"}, {12, 2, "535.54.03"},
    {12, 3, "545.23.06"}, {12, 4, "550.54.14"}, {12, 5, "555.42.02"},
    {12, 6, "560.28.03"}, {12, 8, "570.86.10"}, {12, 9, "575.51.03"},
    {13, 0, "580.65.06"},
};

/* Driver bundled with toolkit major.minor (GA); NULL when unknown (12.7 was
 * never released). */
const char *cp_cuda_bundled_driver(int64_t major, int64_t minor)
{
    for (size_t i = 0; i < sizeof(bundled) / sizeof(bundled[0]); i++)
        if (bundled[i].major == major && bundled[i].minor == minor)
            return bundled[i].driver;
    return NULL;
}

