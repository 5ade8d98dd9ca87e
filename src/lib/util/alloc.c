/* Allocation through one door, with a failure countdown for tests (alloc.h). */
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"

static long countdown;        /* 0: disarmed; else allocations left before failing */
static int failing;           /* the countdown ran out: every allocation fails */
static long refused;

static int refuse(void)
{
    if (failing) { refused++; return 1; }
    if (countdown > 0 && --countdown == 0) { failing = 1; refused++; return 1; }
    return 0;
}

/* malloc(3), or NULL when the countdown says so. */
void *cp_malloc(size_t n)
{
    return refuse() ? NULL : malloc(n ? n : 1);
}

/* calloc(3), or NULL when the countdown says so. */
void *cp_calloc(size_t count, size_t size)
{
    return refuse() ? NULL : calloc(count ? count : 1, size ? size : 1);
}

/* realloc(3), or NULL (p untouched) when the countdown says so. */
void *cp_realloc(void *p, size_t n)
{
    return refuse() ? NULL : realloc(p, n ? n : 1);
}

/* strdup(3) through the countdown. */
char *cp_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cp_malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* Arm (n > 0) or disarm (0) the countdown. */
void cp_alloc_fail_at(long n)
{
    countdown = n > 0 ? n : 0;
    failing = 0;
    refused = 0;
}

/* Allocations refused since the countdown was armed. */
long cp_alloc_refused(void)
{
    return refused;
}
