/*
 * What a GPU can run (REFERENCE 4.8) and which driver JIT-compiles which PTX
 * ISA (REFERENCE 5.3).  The PTX rule is the one that bites under minor-version
 * compatibility: PTX from a newer toolkit than the driver fails with
 * CUDA_ERROR_UNSUPPORTED_PTX_VERSION even though the GPU could run it.
 */
#include <stdio.h>
#include "fatbin/fatbin_int.h"
#include "util/version.h"

/* PTX ISA minor -> CUDA minor, per ISA major, from the PTX ISA release
 * table.  ISA 8.6 maps to a "12.7" that never shipped: a 12.6 driver refuses
 * it and 12.8 takes it, which is what 12070 says. */
static const struct { int major, minor; int64_t cuda; } isa_table[] = {
    { 7, 0, 11000 }, { 7, 1, 11010 }, { 7, 2, 11020 }, { 7, 3, 11030 }, { 7, 4, 11040 },
    { 7, 5, 11050 }, { 7, 6, 11060 }, { 7, 7, 11070 }, { 7, 8, 11080 },
    { 8, 0, 12000 }, { 8, 1, 12010 }, { 8, 2, 12020 }, { 8, 3, 12030 }, { 8, 4, 12040 },
    { 8, 5, 12050 }, { 8, 6, 12070 }, { 8, 7, 12080 }, { 8, 8, 12090 },
    { 9, 0, 13000 }, { 9, 1, 13010 },
};

/* See fatbin_int.h. */
int64_t cp_ptx_isa_min_cuda(int major, int minor, int *known)
{
    *known = 1;
    for (size_t i = 0; i < sizeof isa_table / sizeof isa_table[0]; i++)
        if (isa_table[i].major == major && isa_table[i].minor == minor)
            return isa_table[i].cuda;
    /* Before 7.0 is CUDA 10.2 or older: every driver this tool meets takes it. */
    if (major < 7)
        return 10020;
    /* 9.x beyond the table follows 9.x -> 13.x (docs list 9.4 = 13.4); later
     * majors are a guess on the same pattern, and said to be one. */
    if (major == 9 && minor >= 0 && minor <= 99)
        return 13000 + 10 * (int64_t)minor;
    *known = 0;
    if (major > 99 || minor < 0 || minor > 99)
        return INT64_MAX;
    return 1000 * (int64_t)(major + 4) + 10 * (int64_t)minor;
}

/* Does SASS sm_XY (variant v) run on CC major.minor? */
static int sass_runs(const cp_code *c, int major, int minor)
{
    if (c->sm / 10 != major)
        return 0;
    return c->variant == 'a' ? minor == c->sm % 10 : minor >= c->sm % 10;
}

/* Can PTX compute_XY (variant v) be compiled for CC major.minor, ISA aside? */
static int ptx_targets(const cp_code *c, int major, int minor)
{
    int x = c->sm / 10, y = c->sm % 10;
    if (c->variant == 'a') return major == x && minor == y;
    if (c->variant == 'f') return major == x && minor >= y;
    return major > x || (major == x && minor >= y);
}

/* No SASS fits: which PTX decides.  Returns the verdict with why filled, or
 * -1 when no PTX in the file can target this GPU at all. */
static int judge_ptx(const cp_arch_summary *s, int major, int minor,
                                int64_t driver_cuda, char *why, size_t whycap)
{
    const cp_code *jit = NULL, *too_new = NULL;
    int64_t need = 0;
    int known = 1;
    for (int i = 0; i < s->ncodes; i++) {
        const cp_code *c = &s->codes[i];
        if (c->kind != CP_CODE_PTX || !ptx_targets(c, major, minor))
            continue;
        int k;
        int64_t n = cp_ptx_isa_min_cuda(c->ptx_major, c->ptx_minor, &k);
        if (driver_cuda > 0 && n > driver_cuda) {
            if (!too_new) { too_new = c; need = n; known = k; }
        } else {
            jit = c;  /* sorted by sm: the last is the newest, which the driver picks */
        }
    }
    char nm[32], want[32], have[32];
    if (jit) {
        cp_code_name(jit, nm, sizeof nm);
        snprintf(why, whycap, "no SASS for CC %d.%d: the driver JIT-compiles %s (PTX %d.%d) at first load",
                 major, minor, nm, jit->ptx_major, jit->ptx_minor);
        return CP_RUN_PTX_JIT;
    }
    if (too_new) {
        cp_code_name(too_new, nm, sizeof nm);
        cp_cuda_version_str(need, want, sizeof want);
        cp_cuda_version_str(driver_cuda, have, sizeof have);
        snprintf(why, whycap, "no SASS for CC %d.%d and %s is PTX %d.%d, which needs a CUDA %s%s "
                 "driver; this one supports %s (CUDA_ERROR_UNSUPPORTED_PTX_VERSION)",
                 major, minor, nm, too_new->ptx_major, too_new->ptx_minor, want,
                 known ? "" : " (guessed)", have);
        return CP_RUN_CANNOT;
    }
    return -1;
}

/* One line listing the SASS of s: "sm_75 sm_80 sm_90a", or "none". */
static void sass_list(const cp_arch_summary *s, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->ncodes && n + 1 < cap; i++) {
        if (s->codes[i].kind != CP_CODE_SASS) continue;
        char nm[32];
        int w = snprintf(buf + n, cap - n, "%s%s", n ? " " : "", cp_code_name(&s->codes[i], nm, sizeof nm));
        if (w < 0) break;
        n += (size_t)w < cap - n ? (size_t)w : cap - n - 1;
    }
    if (!n) snprintf(buf, cap, "none");
}

/* See arch.h. */
cp_run_verdict cp_arch_verdict(const cp_arch_summary *s, int cc_major, int cc_minor,
                               int64_t driver_cuda, char *why, size_t whycap)
{
    char tmp[2];
    if (!why || whycap == 0) { why = tmp; whycap = sizeof tmp; }
    if (s->ncodes == 0) {
        snprintf(why, whycap, "the file carries no GPU code");
        return CP_RUN_NO_GPU_CODE;
    }
    const cp_code *best = NULL;
    for (int i = 0; i < s->ncodes; i++) {
        const cp_code *c = &s->codes[i];
        /* the newest that fits; at the same sm, the variant most entries have
         * (libtorch: sm_90 in 444 containers, sm_90a in 4) */
        if (c->kind == CP_CODE_SASS && sass_runs(c, cc_major, cc_minor) &&
            (!best || c->sm > best->sm || (c->sm == best->sm && c->count > best->count)))
            best = c;
    }
    char nm[32];
    if (best) {
        snprintf(why, whycap, "%s SASS runs natively on CC %d.%d", cp_code_name(best, nm, sizeof nm),
                 cc_major, cc_minor);
        return CP_RUN_NATIVE;
    }
    int v = judge_ptx(s, cc_major, cc_minor, driver_cuda, why, whycap);
    if (v >= 0)
        return (cp_run_verdict)v;
    char list[256];
    sass_list(s, list, sizeof list);
    snprintf(why, whycap, "no SASS for CC %d.%d (the file has %s) and no PTX that can target it",
             cc_major, cc_minor, list);
    return CP_RUN_CANNOT;
}

/* The codes of s in mask into t (a summary of those codes alone). */
static void codes_of(const cp_arch_summary *s, uint64_t mask, cp_arch_summary *t)
{
    t->ncodes = 0;
    for (int i = 0; i < s->ncodes; i++)
        if (mask & ((uint64_t)1 << i)) t->codes[t->ncodes++] = s->codes[i];
}

/* "sm_75 sm_80 compute_60" for the codes in mask, at most cap bytes. */
static void mask_list(const cp_arch_summary *s, uint64_t mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->ncodes && n + 1 < cap; i++) {
        if (!(mask & ((uint64_t)1 << i))) continue;
        char nm[32];
        int w = snprintf(buf + n, cap - n, "%s%s", n ? " " : "", cp_code_name(&s->codes[i], nm, sizeof nm));
        if (w < 0) break;
        n += (size_t)w < cap - n ? (size_t)w : cap - n - 1;
    }
}

/* See arch.h. */
cp_run_verdict cp_arch_judge(const cp_arch_summary *s, int cc_major, int cc_minor,
                             int64_t driver_cuda, cp_arch_cover *cover, char *why, size_t whycap)
{
    char tmp[2];
    if (!why || whycap == 0) { why = tmp; whycap = sizeof tmp; }
    cp_arch_cover c = { 0, 0, 0, 0 };
    cp_run_verdict whole = cp_arch_verdict(s, cc_major, cc_minor, driver_cuda, why, whycap);
    cp_arch_summary t;          /* the codes of one group of modules */
    uint64_t other = 0;         /* the codes of the modules that cannot run */
    for (int k = 0; k < s->nsets; k++) {
        codes_of(s, s->sets[k].codes, &t);
        cp_run_verdict v = cp_arch_verdict(&t, cc_major, cc_minor, driver_cuda, NULL, 0);
        int64_t m = s->sets[k].modules;
        c.total += m;
        if (v == CP_RUN_NATIVE) c.native += m;
        else if (v == CP_RUN_PTX_JIT) c.jit += m;
        else { c.none += m; other |= s->sets[k].codes; }
    }
    /* modules past the groups: judged by the file as a whole */
    c.total += s->modules_ungrouped;
    *(whole == CP_RUN_NATIVE ? &c.native : whole == CP_RUN_PTX_JIT ? &c.jit : &c.none) += s->modules_ungrouped;
    if (cover) *cover = c;
    if (c.none == 0 || c.native + c.jit == 0)
        return whole;   /* every module runs, or none does: the file's verdict is theirs */
    char list[160], head[256];
    mask_list(s, other, list, sizeof list);
    snprintf(head, sizeof head, "%s", why);
    snprintf(why, whycap, "%s in %lld of %lld modules (%lld natively, %lld by PTX JIT); %lld carry only "
             "%s: their kernels fail with 'no kernel image is available' if launched on CC %d.%d "
             "(a library that picks its kernels by GPU, as NVIDIA's do, does not launch them there)",
             head, (long long)(c.native + c.jit), (long long)c.total, (long long)c.native,
             (long long)c.jit, (long long)c.none, list, cc_major, cc_minor);
    return CP_RUN_PARTLY;
}

/* See arch.h. */
const char *cp_run_verdict_name(cp_run_verdict v)
{
    switch (v) {
    case CP_RUN_NATIVE: return "native";
    case CP_RUN_PTX_JIT: return "PTX JIT";
    case CP_RUN_CANNOT: return "cannot run";
    case CP_RUN_NO_GPU_CODE: return "no GPU code";
    case CP_RUN_PARTLY: return "runs only partly";
    }
    return "unknown";
}
