/*
 * Every allocation of the library goes through these, so a test can make
 * the Nth one fail (SQLite's fault simulator): cp_alloc_fail_at(n) arms a
 * countdown, and the allocation that takes it to zero returns NULL (and
 * every one after it, until the countdown is re-armed or cleared with 0).
 * Used by the ASan test run, which loops n over observe and each renderer.
 * Memory is released with free(3).
 */
#ifndef CP_UTIL_ALLOC_H
#define CP_UTIL_ALLOC_H

#include <stddef.h>

void *cp_malloc(size_t n);
void *cp_calloc(size_t count, size_t size);
void *cp_realloc(void *p, size_t n);
/* strdup(3) through the countdown. */
char *cp_strdup(const char *s);

/* Test hook: the nth allocation from now on fails, and so do all after it
 * (sticky, as an exhausted heap is); 0 disarms.  Not thread-safe: tests
 * arm it in a single-threaded program. */
void cp_alloc_fail_at(long n);
/* How many allocations were refused since the countdown was armed. */
long cp_alloc_refused(void);

#endif
