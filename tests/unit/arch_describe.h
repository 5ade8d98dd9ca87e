/*
 * One line for a scan's codes, for tests to compare:
 * "sm_90 sm_90a sm_100f compute_120(8.8)z1" (PTX with its ISA, xN for N
 * entries of one code, zN for N of them compressed).
 */
#ifndef CP_TEST_ARCH_DESCRIBE_H
#define CP_TEST_ARCH_DESCRIBE_H

#include <stdio.h>
#include "cuprobe/arch.h"

static const char *describe(const cp_arch_summary *s)
{
    static char buf[2048];     /* 64 codes of at most 30 characters */
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->ncodes; i++) {
        const cp_code *c = &s->codes[i];
        char nm[32];
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? " " : "", cp_code_name(c, nm, sizeof nm));
        if (c->kind == CP_CODE_PTX)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "(%d.%d)", c->ptx_major, c->ptx_minor);
        if (c->count != 1)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "x%lld", (long long)c->count);
        if (c->compressed)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "z%lld", (long long)c->compressed);
    }
    return buf;
}

#endif
