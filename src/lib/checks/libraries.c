/* Libraries layer: the CUDA libraries a program could load, against the
 * driver and against each other (libraries_checks.h). */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "host/host.h"
#include "kb/kb.h"
#include "util/str.h"

/* The file's version, else what the library's own version call said. */
static const char *ver_or(const cp_library *l)
{
    return l->version[0] ? l->version : l->version_call[0] ? l->version_call : "(version unknown)";
}

/* ", loads, says 13.1.0" / ", does NOT load" / "" (not tried). */
static const char *load_words(const cp_library *l, char *buf, size_t cap)
{
    if (l->loads == CP_YES)
        snprintf(buf, cap, ", loads%s%s", l->version_call[0] ? ", its version call says " : "", l->version_call);
    else if (l->loads == CP_NO)
        snprintf(buf, cap, ", does NOT load");
    else
        buf[0] = '\0';
    return buf;
}

static bool by(const cp_library *l, const char *finder)
{
    return strcmp(l->found_by, finder) == 0;
}

/* Is some copy of library `name` the one the loader hands out? */
static bool name_loads(const cp_libraries_facts *L, const char *name)
{
    for (int i = 0; i < L->nlib; i++)
        if (L->lib[i].would_load && strcmp(L->lib[i].name, name) == 0)
            return true;
    return false;
}

/* What the loader hands out, per library. */
void cp_check_libraries_found(const cp_facts *f, cp_finding *o)
{
    const cp_libraries_facts *L = &f->libraries;
    int loaded = 0, elsewhere = 0, hidden = 0;
    if (L->nlib == 0) {
        cp_set(o, CP_SKIP, "no CUDA library on the loader path or in Python wheels");
        return;
    }
    for (int i = 0; i < L->nlib; i++) {
        const cp_library *l = &L->lib[i];
        if (!l->would_load)
            continue;
        char lw[96];
        cp_evidence(o, "%s %s %s (%s, the one programs get%s)", l->name, ver_or(l), l->path, l->found_by,
                    load_words(l, lw, sizeof lw));
        loaded++;
    }
    /* libraries the loader does not know: frameworks load wheels by RUNPATH,
     * programs built against a toolkit by their own RUNPATH or not at all */
    for (int i = 0; i < L->nlib; i++) {
        const cp_library *l = &L->lib[i];
        if (l->would_load)
            continue;
        if (name_loads(L, l->name)) {
            hidden++;
            continue;
        }
        cp_evidence(o, "%s %s %s (%s, %s)", l->name, ver_or(l), l->path, l->found_by,
                    by(l, "wheel") ? "loaded by its framework through RUNPATH" : "not on the loader path");
        elsewhere++;
    }
    if (hidden)
        cp_evidence(o, "%d other cop%s of these libraries not handed out by the loader (see libraries.shadow)",
                    hidden, hidden == 1 ? "y" : "ies");
    if (L->nlib_total > L->nlib)
        cp_evidence(o, "%s copies found; the first %d are described", cp_num(L->nlib_total).s, L->nlib);
    if (elsewhere)
        cp_set(o, CP_PASS, "%d CUDA librar%s on the loader path, %d more cop%s in wheels or toolkits only",
               loaded, loaded == 1 ? "y" : "ies", elsewhere, elsewhere == 1 ? "y" : "ies");
    else
        cp_set(o, CP_PASS, "%d CUDA librar%s on the loader path", loaded, loaded == 1 ? "y" : "ies");
}

/* cuDriverGetVersion, else NVML's answer; CP_UNKNOWN when neither answered. */
static int64_t driver_cuda(const cp_facts *f)
{
    if (CP_KNOWN(f->cuda.driver_version) && f->cuda.driver_version > 0)
        return f->cuda.driver_version;
    if (CP_KNOWN(f->nvml.cuda_driver_version) && f->nvml.cuda_driver_version > 0)
        return f->nvml.cuda_driver_version;
    return CP_UNKNOWN;
}

/* Same soname and CUDA major: one evidence line says it for all copies. */
static bool same_group(const cp_library *a, const cp_library *b)
{
    return a->cuda_major == b->cuda_major && strcmp(a->soname, b->soname) == 0;
}

static bool first_of_group(const cp_libraries_facts *L, int i)
{
    for (int j = 0; j < i; j++)
        if (same_group(&L->lib[j], &L->lib[i]))
            return false;
    return true;
}

/* One line per soname: the copy programs get (else the first) stands for
 * the others, so a machine with many wheels still fits the evidence. */
static void too_new(cp_finding *o, const cp_libraries_facts *L, int i, const char *dv)
{
    const cp_library *l = &L->lib[i], *shown = l;
    int copies = 0;
    for (int j = i; j < L->nlib; j++) {
        if (!same_group(&L->lib[j], l))
            continue;
        copies++;
        if (L->lib[j].would_load)
            shown = &L->lib[j];
    }
    cp_evidence(o, "%s (CUDA %lld) needs a driver for CUDA %lld; this driver supports CUDA %s: %s%s",
                l->soname, (long long)l->cuda_major, (long long)l->cuda_major, dv, shown->path,
                copies > 1 ? " (and other copies)" : "");
}

/* Can this driver run the CUDA major each library was built for? */
void cp_check_libraries_driver(const cp_facts *f, cp_finding *o)
{
    const cp_libraries_facts *L = &f->libraries;
    int64_t drv = driver_cuda(f), need = CP_UNKNOWN;
    int known = 0, bad = 0;
    char dv[16];
    if (!CP_KNOWN(drv)) {
        cp_set(o, CP_SKIP, "the driver's CUDA version is unknown");
        return;
    }
    cp_cuda_version_str(drv, dv, sizeof dv);
    for (int i = 0; i < L->nlib; i++) {
        const cp_library *l = &L->lib[i];
        if (!CP_KNOWN(l->cuda_major))
            continue;
        known++;
        if (l->cuda_major <= drv / 1000)
            continue;
        if (!CP_KNOWN(need) || l->cuda_major > need)
            need = l->cuda_major;
        bad++;
        if (first_of_group(L, i))
            too_new(o, L, i, dv);
    }
    if (!known) {
        cp_set(o, CP_SKIP, "no library's CUDA major is known");
        return;
    }
    if (!bad) {
        cp_set(o, CP_PASS, "the driver (CUDA %s) runs the CUDA major of every library found", dv);
        cp_evidence(o, "%d cop%s with a known CUDA major, none newer than %lld", known,
                    known == 1 ? "y" : "ies", (long long)(drv / 1000));
        return;
    }
    const char *min = cp_cuda_min_driver(need);
    cp_set(o, CP_FAIL, "%d CUDA librar%s built for CUDA %lld, newer than the driver's CUDA %s", bad,
           bad == 1 ? "y" : "ies", (long long)need, dv);
    cp_fix(o, "install a driver for CUDA %lld (%s%s or newer), or use CUDA %lld builds of these libraries "
           "(a CUDA %lld toolkit, or pip wheels with the _cu%lld suffix)", (long long)need,
           min ? "version " : "a newer branch", min ? min : "", (long long)(drv / 1000),
           (long long)(drv / 1000), (long long)(drv / 1000));
}

/* Different releases?  Only the components both name are compared, so a
 * file name's "9.19.0" and a dist-info's "9.19.0.56" are the same one. */
static bool differ(const char *a, const char *b)
{
    if (!a[0] || !b[0])
        return false;   /* unknown: cannot tell */
    while (*a && *b) {
        int64_t x = 0, y = 0;
        for (; *a >= '0' && *a <= '9'; a++) x = x * 10 + (*a - '0');
        for (; *b >= '0' && *b <= '9'; b++) y = y * 10 + (*b - '0');
        if (x != y)
            return true;
        if (*a != '.' || *b != '.')
            return false;
        a++;
        b++;
    }
    return false;
}

/* Different releases of one soname?  Like is compared with like: a copy's
 * version may count in the library's own numbers (CUPTI's files count
 * years, libcupti.so.2025.3.1) or in CUDA's (its wheel's dist-info says
 * 13.0.85 for the same CUPTI); one soname binds the leading number of one
 * scheme, so where those differ the two are compared by the CUDA release
 * each ships with, and an unknown release cannot tell. */
static bool releases_differ(const cp_library *a, const cp_library *b)
{
    int64_t la, lb, x, y;
    if (cp_version_split(a->version, &la, &x, &y) < 1 || cp_version_split(b->version, &lb, &x, &y) < 1)
        return false;
    if (la == lb)
        return differ(a->version, b->version);
    return differ(a->cuda_release, b->cuda_release);
}

/* Inside the default toolkit (/usr/local/cuda or the first one found)? */
static bool in_default_toolkit(const cp_facts *f, const char *path)
{
    const char *tk = f->runtime.ntk > 0 ? f->runtime.tk[0].path : "";
    size_t n = strlen(tk);
    return n && strncmp(path, tk, n) == 0 && path[n] == '/';
}

typedef struct {
    int n;                    /* hidden copies */
    bool ld;                  /* one was hidden by an LD_LIBRARY_PATH copy */
    char ld_path[CP_PATH_MAX]; /* that copy */
    char first[256];          /* summary for a single one */
} shadow_state;

/* Note that `w`, which the loader hands out, hides `c`. */
static void hides(cp_finding *o, shadow_state *s, const cp_library *w, const cp_library *c)
{
    const char *order = cp_version_cmp(c->version, w->version) > 0 ? "newer" : "older";
    if (by(c, "wheel"))
        cp_evidence(o, "LD_LIBRARY_PATH hands out %s %s (%s) instead of the wheel's %s (%s): frameworks load "
                    "their wheels through RUNPATH, which LD_LIBRARY_PATH comes before",
                    w->soname, w->version, w->path, c->version, c->path);
    else
        cp_evidence(o, "programs get %s %s (%s, %s); it hides the %s %s (%s, %s)",
                    w->soname, w->version, w->path, w->found_by, order, c->version, c->path, c->found_by);
    if (s->n++ == 0)
        snprintf(s->first, sizeof s->first, "'%s' %s from %s hides version %s in %s", w->soname, w->version,
                 w->found_by, c->version, by(c, "wheel") ? "a Python wheel" : c->found_by);
    if (by(w, "LD_LIBRARY_PATH") && !s->ld) {
        s->ld = true;
        snprintf(s->ld_path, sizeof s->ld_path, "%s", w->path);
    }
}

/* Does the copy the loader hands out hide another release of its soname? */
void cp_check_libraries_shadow(const cp_facts *f, cp_finding *o)
{
    const cp_libraries_facts *L = &f->libraries;
    shadow_state s;
    memset(&s, 0, sizeof s);
    if (L->nlib == 0) {
        cp_set(o, CP_SKIP, "no CUDA library on the loader path or in Python wheels");
        return;
    }
    for (int i = 0; i < L->nlib; i++) {
        const cp_library *w = &L->lib[i];
        if (!w->would_load)
            continue;
        for (int j = 0; j < L->nlib; j++) {
            const cp_library *c = &L->lib[j];
            if (j == i || strcmp(c->soname, w->soname) != 0 || !releases_differ(w, c))
                continue;
            /* a wheel only loses to LD_LIBRARY_PATH: its RUNPATH beats ld.so.cache */
            bool hidden = by(c, "wheel") ? by(w, "LD_LIBRARY_PATH")
                                         : by(c, "LD_LIBRARY_PATH") || by(c, "ld.so.cache") ||
                                           in_default_toolkit(f, c->path);
            if (hidden)
                hides(o, &s, w, c);
        }
    }
    if (s.n == 0) {
        cp_set(o, CP_PASS, "no CUDA library copy hides another of a different version");
        return;
    }
    if (s.n == 1)
        cp_set(o, CP_WARN, "%s", s.first);
    else
        cp_set(o, CP_WARN, "%d copies of CUDA libraries are hidden by another version (first: %s)", s.n, s.first);
    if (s.ld)
        cp_fix(o, "take the folder of '%s' out of LD_LIBRARY_PATH, or put the folder of the version you want "
               "before it", s.ld_path);
    else
        cp_fix(o, "remove the unwanted copy, or order /etc/ld.so.conf.d so the wanted folder comes first, "
               "then run 'ldconfig'");
}

/* The copies programs and frameworks get must load: a missing dependency
 * (libcublasLt beside libcublas, a cuDNN sub-library) fails here the way it
 * fails a program at start. */
void cp_check_libraries_load(const cp_facts *f, cp_finding *o)
{
    const cp_libraries_facts *L = &f->libraries;
    int tried = 0, failed = 0;
    const cp_library *first = NULL;
    for (int i = 0; i < L->nlib; i++) {
        const cp_library *l = &L->lib[i];
        if (l->loads == CP_TRI_UNKNOWN)
            continue;
        tried++;
        if (l->loads == CP_NO) {
            failed++;
            if (!first) first = l;
            cp_evidence(o, "%s: %s", l->path, l->load_error);
        }
    }
    if (!tried) {
        if (L->load_skip[0])
            cp_set(o, CP_SKIP, "%s", L->load_skip);
        else if (strcmp(f->origin, "live") != 0)   /* a snapshot without the probe's answers */
            cp_set(o, CP_SKIP, "%s", CP_LIBS_LOAD_NOT_HERE);
        else if (L->nlib == 0)
            cp_set(o, CP_SKIP, "no CUDA library on the loader path or in Python wheels");
        else   /* the probe ran on this machine and said nothing */
            cp_set(o, CP_SKIP, "no library was loaded: the load probe gave no answer before the deadline "
                   "(it was stopped or died)");
        return;
    }
    if (failed) {
        cp_set(o, CP_FAIL, "%d CUDA librar%s a program would get do%s not load, first %s", failed,
               failed == 1 ? "y" : "ies", failed == 1 ? "es" : "", first->soname);
        cp_fix(o, "the dynamic loader says why above (usually a dependency not on the library path): install "
               "the missing package or put its folder on LD_LIBRARY_PATH, then check with 'ldd %s'", first->path);
        return;
    }
    cp_set(o, CP_PASS, "the %d librar%s programs and frameworks get load, each with its dependencies", tried,
           tried == 1 ? "y" : "ies");
}

/* ------------------------------------------------------------- level 2 -- */

static const char *const l2_titles[CP_L2_NLIBS] = { "cuBLAS", "cuFFT", "cuDNN", "NVRTC", "NCCL" };
static const char *const l2_jobs[CP_L2_NLIBS] = {
    "SGEMM 64x64x64", "a 256-point C2C FFT", "a 3x3 convolution", "an fma kernel compiled to PTX and launched",
    "an all-reduce (sum)" };

/* "12.3" (ms) from microseconds; "?" when unknown. */
static const char *ms_words(int64_t us, char *buf, size_t cap)
{
    if (CP_KNOWN(us)) snprintf(buf, cap, "%.1f", (double)us / 1000.0);
    else snprintf(buf, cap, "N/A");
    return buf;
}

/* A change in MiB with its sign: "+152", "-2", "0"; "N/A" when unknown. */
static const char *delta_words(int64_t mib_change, char *buf, size_t cap)
{
    if (!CP_KNOWN(mib_change)) snprintf(buf, cap, "N/A");
    else snprintf(buf, cap, "%+lld", (long long)mib_change);
    return buf;
}

static int64_t mib(int64_t bytes)
{
    return CP_KNOWN(bytes) ? (bytes + (1 << 19)) >> 20 : CP_UNKNOWN;
}

static int64_t mib_diff(int64_t a, int64_t b)
{
    return CP_KNOWN(a) && CP_KNOWN(b) ? mib(a - b) : CP_UNKNOWN;
}

/* What one library's load, initialisation and run cost, in time and RSS. */
static void l2_figures(cp_finding *o, const char *title, const cp_lib_l2 *l)
{
    char a[16], b[16], c[16], d1[24], d2[24];
    cp_evidence(o, "%s: load %s ms, init %s ms, run %s ms; RSS %s MiB -> %s MiB loaded and initialised (%s MiB), "
                "%s MiB after the run (%s MiB), peak %s MiB",
                title, ms_words(l->load_us, a, sizeof a), ms_words(l->init_us, b, sizeof b),
                ms_words(l->run_us, c, sizeof c), cp_num(mib(l->rss_before_bytes)).s,
                cp_num(mib(l->rss_loaded_bytes)).s,
                delta_words(mib_diff(l->rss_loaded_bytes, l->rss_before_bytes), d1, sizeof d1),
                cp_num(mib(l->rss_after_bytes)).s,
                delta_words(mib_diff(l->rss_after_bytes, l->rss_loaded_bytes), d2, sizeof d2),
                cp_num(mib(l->hwm_after_bytes)).s);
}

/* CUDA_FORCE_PTX_JIT set to something other than 0: the driver JIT-compiles
 * the PTX of every module and ignores its SASS (seen on the H200: cuBLAS's
 * create then fails with CUBLAS_STATUS_INTERNAL_ERROR, cuDNN's convolution
 * with CUDNN_STATUS_EXECUTION_FAILED). */
static bool forced_jit(const cp_facts *f)
{
    const char *v = cp_host_getenv(&f->host, "CUDA_FORCE_PTX_JIT");
    return v && v[0] && strcmp(v, "0") != 0;
}

/* hardware.compute's wrong element: the GPU itself computes wrong. */
static bool gpu_computes_wrong(const cp_facts *f)
{
    for (int d = 0; d < f->cuda.ndev && d < CP_MAX_GPUS; d++)
        if (CP_KNOWN(f->cuda.dev[d].l2.wrong) && f->cuda.dev[d].l2.wrong > 0) return true;
    return false;
}

/* Level 2: each CUDA library's tiny run, checked against the CPU. */
void cp_check_libraries_l2(const cp_facts *f, cp_finding *o)
{
    const cp_libs_l2_facts *L = &f->libs_l2;
    const cp_probe_run *r = &L->run;
    if (!CP_KNOWN(L->level)) {
        cp_set(o, CP_SKIP, "the libraries were not run (%s)",
               strcmp(f->origin, "live") == 0 ? "libcuda was not asked" : "the snapshot holds no level-2 library runs");
        return;
    }
    if (r->state == CP_PROBE_ERROR) {
        cp_set(o, CP_SKIP, "the libraries' probe process could not be started: %s", r->detail);
        return;
    }
    if (L->skip[0]) {
        cp_set(o, CP_SKIP, "the libraries did not run: %s", L->skip);
        return;
    }
    bool cut = r->state == CP_PROBE_TIMEOUT || r->state == CP_PROBE_CRASHED;
    int ok = 0, bad = 0, missing = 0, wrong = 0;
    char okn[96] = "", first[200] = "";
    const char *fix_path = NULL, *fix_kind = NULL;
    for (int i = 0; i < CP_L2_NLIBS; i++) {
        const cp_lib_l2 *l = &L->lib[i];
        const char *t = l2_titles[i], *res = l->result;
        if (strcmp(res, "ok") == 0) {
            ok++;
            cp_str_append(okn, sizeof okn, ", ", t);
            if (i == CP_L2_NCCL)
                cp_evidence(o, "%s (%s): %s over %s GPU%s: %s elements equal the CPU's", t, l->path, l2_jobs[i],
                            cp_num(l->ranks).s, l->ranks == 1 ? "" : "s", cp_num(l->elements).s);
            else
                cp_evidence(o, "%s (%s): %s: %s elements equal the CPU's", t, l->path, l2_jobs[i], cp_num(l->elements).s);
            l2_figures(o, t, l);
            continue;
        }
        if (strcmp(res, "missing") == 0) {
            missing++;
            cp_evidence(o, "%s: not installed (%s)", t, l->error);
            continue;
        }
        if (!res[0] && !l->step[0]) {   /* the run ended before it: said above */
            if (cut) cp_evidence(o, "%s: not reached", t);
            continue;
        }
        bad++;
        if (strcmp(res, "wrong") == 0) {
            wrong++;
            cp_evidence(o, "%s (%s): %s: %s of %s elements differ from the CPU's; first: element %s, expected %s, got %s",
                        t, l->path, l2_jobs[i], cp_num(l->wrong).s, cp_num(l->elements).s, cp_num(l->wrong_index).s,
                        l->wrong_expected, l->wrong_got);
            l2_figures(o, t, l);
            if (!fix_kind) {
                fix_kind = "wrong";
                fix_path = l->path;
                snprintf(first, sizeof first, "%s computed %s wrong element%s of %s", t, cp_num(l->wrong).s,
                         l->wrong == 1 ? "" : "s", cp_num(l->elements).s);
            }
        } else if (strcmp(res, "call") == 0) {
            cp_evidence(o, "%s (%s): %s = %s %s", t, l->path, l->call, cp_num(l->status).s,
                        l->status_name[0] ? l->status_name : "(no name)");
            if (l->error[0]) cp_evidence(o, "%s: %s", t, l->error);
            if (!fix_kind) {
                fix_kind = "call";
                fix_path = l->path;
                snprintf(first, sizeof first, "%s: %s failed (%s %s)", t, l->call, cp_num(l->status).s, l->status_name);
            }
        } else if (strcmp(res, "load") == 0) {
            cp_evidence(o, "%s (%s): does not load: %s", t, l->path, l->error);
            if (!fix_kind) {
                fix_kind = "load";
                fix_path = l->path;
                snprintf(first, sizeof first, "%s does not load", t);
            }
        } else if (r->state == CP_PROBE_CRASHED) {
            cp_evidence(o, "%s: the probe process died in the %s step (%s)", t, l->step[0] ? l->step : "load", r->detail);
            if (!fix_kind) {
                fix_kind = "crash";
                fix_path = l->path;
                snprintf(first, sizeof first, "the probe process died in %s's %s step", t, l->step[0] ? l->step : "load");
            }
        } else {
            cp_evidence(o, "%s: the %s step did not finish within the %.2g s level-2 deadline", t,
                        l->step[0] ? l->step : "load", r->elapsed_ms / 1000);
            if (!fix_kind) {
                fix_kind = "hang";
                fix_path = l->path;
                snprintf(first, sizeof first, "%s did not finish its %s step", t, l->step[0] ? l->step : "load");
            }
        }
    }
    cp_evidence(o, "the libraries' probe process: VmRSS %s MiB at start, %s MiB after cuInit and the primary "
                "context, peak %s MiB (VmHWM)", cp_num(mib(L->rss_start_bytes)).s, cp_num(mib(L->rss_ctx_bytes)).s,
                cp_num(mib(L->hwm_bytes)).s);
    if (bad) {
        if (bad > 1) cp_set(o, CP_FAIL, "%s, and %d more librar%s failed", first, bad - 1, bad > 2 ? "ies" : "y");
        else cp_set(o, CP_FAIL, "%s", first);
        if (!strcmp(fix_kind, "wrong") && gpu_computes_wrong(f))
            cp_fix(o, "the GPU itself computes wrong answers (hardware.compute): fix the GPU first, then rerun");
        else if (!strcmp(fix_kind, "wrong"))
            cp_fix(o, "the GPU computes right with cuprobe's own kernels but this library does not: reinstall %s "
                   "(or use the copy your framework ships) and check it against the driver (libraries.driver)", fix_path);
        else if (!strcmp(fix_kind, "call") && forced_jit(f))
            cp_fix(o, "CUDA_FORCE_PTX_JIT=%s makes the driver ignore every library's SASS and compile its PTX, and "
                   "NVIDIA's libraries do not carry PTX for every kernel: unset it (it is a test switch)",
                   cp_host_getenv(&f->host, "CUDA_FORCE_PTX_JIT"));
        else if (!strcmp(fix_kind, "call"))
            cp_fix(o, "look the status up (`cuprobe explain` with the status name); a library that fails a tiny run "
                   "on a healthy GPU is a broken or mismatched install: reinstall %s", fix_path);
        else if (!strcmp(fix_kind, "load"))
            cp_fix(o, "reinstall %s or install what it needs (`ldd` on it lists the missing pieces)", fix_path);
        else
            cp_fix(o, "a library that does not finish a tiny run hangs in the driver or, for NCCL, in its transport: "
                   "rerun with a longer --timeout; then NCCL_DEBUG=INFO shows where NCCL waits, and 'dmesg' any XIDs");
        return;
    }
    if (!ok) {
        cp_set(o, CP_SKIP, "none of cuBLAS, cuFFT, cuDNN, NVRTC and NCCL is installed here");
        return;
    }
    if (missing)
        cp_set(o, CP_PASS, "%s computed the CPU's answers (%d not installed)", okn, missing);
    else
        cp_set(o, CP_PASS, "%s computed the CPU's answers", okn);
}
