/*
 * cp_arch_report (arch.h): the targets to judge against and the walk over
 * the files and folders of `cuprobe arch`.  Rendering is arch_render.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuprobe/report.h"
#include "fatbin/arch_int.h"
#include "fs/walk.h"
#include "util/alloc.h"
#include "util/str.h"

/* Directory trees deeper than this are loops or hostile; stop there. */
#define MAX_DEPTH 64

/* ---- targets ---- */

/* "90", "90a", "9.0", "sm_90", "12.1" -> 9.0; -1 when it is none of those. */
static int parse_sm(const char *v, int *major, int *minor)
{
    if (strncmp(v, "sm_", 3) == 0) v += 3;
    else if (strncmp(v, "compute_", 8) == 0) v += 8;
    int n = 0, a = 0, b = 0;
    if (strchr(v, '.')) {
        if (sscanf(v, "%3d.%1d%n", &a, &b, &n) != 2) return -1;
    } else {
        int sm;
        if (sscanf(v, "%4d%n", &sm, &n) != 1 || n < 2) return -1;
        a = sm / 10;
        b = sm % 10;
    }
    if (v[n] == 'a' || v[n] == 'f') n++;  /* a GPU is a CC: the variant says nothing more */
    if (v[n] != '\0' || a < 1 || a > 99 || b < 0 || b > 9) return -1;
    *major = a;
    *minor = b;
    return 0;
}

/* See arch.h. */
int cp_arch_target_sm(const char *v, cp_arch_target *t)
{
    int major, minor;
    if (!v || parse_sm(v, &major, &minor) != 0)
        return -1;
    memset(t, 0, sizeof *t);
    t->major = major;
    t->minor = minor;
    t->ordinal = -1;
    snprintf(t->label, sizeof t->label, "--sm %s", v);
    return 0;
}

/* One more GPU of a kind already listed: "GPU 0 NAME" -> "GPU 0,1 NAME"
 * (cut short, as snprintf cuts, when it no longer fits). */
static void label_add(cp_arch_target *t, int ordinal)
{
    char *sp = strchr(t->label + 4, ' ');   /* after "GPU 0,1" */
    char tail[sizeof t->label];
    if (!sp) return;
    cp_str_copy(tail, sizeof tail, sp);
    snprintf(sp, sizeof t->label - (size_t)(sp - t->label), ",%d%s", ordinal, tail);
}

/* See arch.h.  The compute capabilities are cp_facts_gpu_ccs'; the devices
 * walked here to label each target are the ones it read (CUDA's, else
 * NVML's). */
int cp_arch_machine_targets(const cp_facts *f, cp_arch_target *out, int cap)
{
    cp_gpu_cc cc[CP_MAX_GPUS];
    const char *kind[CP_MAX_GPUS];          /* the GPU name of out[j] */
    int ncc = cp_facts_gpu_ccs(f, cc, CP_MAX_GPUS), n = 0;
    int from_cuda = f->cuda.ndev > 0;
    int total = from_cuda ? f->cuda.ndev : f->nvml.ndev;
    int64_t drv = CP_KNOWN(f->cuda.driver_version) ? f->cuda.driver_version
                : CP_KNOWN(f->nvml.cuda_driver_version) ? f->nvml.cuda_driver_version : 0;
    for (int i = 0; i < total && i < CP_MAX_GPUS; i++) {
        int64_t ma = from_cuda ? f->cuda.dev[i].cc_major : f->nvml.dev[i].inv.cc_major;
        int64_t mi = from_cuda ? f->cuda.dev[i].cc_minor : f->nvml.dev[i].inv.cc_minor;
        int ord = from_cuda ? f->cuda.dev[i].ordinal : f->nvml.dev[i].index;
        const char *name = from_cuda ? f->cuda.dev[i].name : f->nvml.dev[i].inv.name;
        int c = 0, j = 0;
        while (c < ncc && !(cc[c].major == ma && cc[c].minor == mi)) c++;
        if (c == ncc) continue;  /* a CC cp_facts_gpu_ccs does not count */
        while (j < n && !(out[j].major == ma && out[j].minor == mi && strcmp(kind[j], name) == 0))
            j++;
        if (j < n) {
            label_add(&out[j], ord);
            continue;
        }
        if (n >= cap) continue;
        cp_arch_target *t = &out[n];
        kind[n++] = name;
        memset(t, 0, sizeof *t);
        t->major = (int)ma;
        t->minor = (int)mi;
        t->ordinal = ord;
        t->driver_cuda = drv;
        snprintf(t->label, sizeof t->label, "GPU %d %s", ord, name[0] ? name : "(unnamed)");
    }
    return n;
}

/* ---- the walk ---- */

static void problem(cp_arch_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(cp_arch_run *r, const char *fmt, ...)
{
    char msg[PATH_MAX + 256];
    va_list ap;
    if (!r->o->problem) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->o->problem(msg, r->o->arg);
}

/* Scan one file.  Files met in a folder (named == 0) that carry no GPU
 * code are only counted: a lib folder is mostly host code. */
static void scan_file(cp_arch_run *r, const char *path, int named)
{
    cp_arch_summary s;
    char err[768];
    if (cp_arch_scan(path, &s, err, sizeof err) != 0) {
        problem(r, "%s", err);
        cp_arch_worse(r, CP_EXIT_ERROR);
        if (r->o->json) cp_arch_render_file(r, path, &s, err);
        return;
    }
    if (!named && s.entries == 0) {
        r->no_code++;
        return;
    }
    cp_arch_render_file(r, path, &s, NULL);
}

/* Remember a file the walk left out.  Out of memory is a problem reported
 * like any other (exit 3), not a silent gap in the list. */
static void skip(cp_arch_run *r, const char *path, const char *why)
{
    char *p = NULL;
    if (r->nskipped == r->capskipped) {
        size_t cap = r->capskipped ? 2 * r->capskipped : 16;
        cp_arch_skip *m = cp_realloc(r->skipped, cap * sizeof *m);
        if (m) {
            r->skipped = m;
            r->capskipped = cap;
        }
    }
    if (r->nskipped < r->capskipped) p = cp_strdup(path);
    if (!p) {
        problem(r, "cannot list the files skipped: %s", strerror(ENOMEM));
        cp_arch_worse(r, CP_EXIT_ERROR);
        return;
    }
    r->skipped[r->nskipped].path = p;
    r->skipped[r->nskipped++].why = why;
}

#define NOT_GPU_FILE "not an ELF file, fatbin, PTX or archive"

/* Does the file start like one arch reads (ELF, fatbin, archive), or is it
 * named .ptx?  -1 (errno set) when it cannot be opened.  O_NONBLOCK: a file
 * swapped for a FIFO since the walk saw it does not block the open; it is
 * then no regular file, 0. */
static int has_magic(const char *path)
{
    unsigned char m[8];
    struct stat st;
    if (cp_str_ends_with(path, ".ptx")) return 1;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 0;
    }
    ssize_t n = read(fd, m, sizeof m);
    int e = errno;
    close(fd);
    if (n < 0) { errno = e; return -1; }
    return (n >= 4 && (memcmp(m, "\177ELF", 4) == 0 || memcmp(m, "\x50\xed\x55\xba", 4) == 0)) ||
           (n == 8 && memcmp(m, "!<arch>\n", 8) == 0);
}

/* cp_walk's callback: every file arch reads is scanned; the rest are
 * listed as skipped, with why. */
static int on_entry(const cp_walk_entry *e, void *arg)
{
    cp_arch_run *r = arg;
    switch (e->event) {
    case CP_WALK_FILE: {
        int m = has_magic(e->path);
        if (m < 0) {
            problem(r, "cannot open '%s': %s", e->path, strerror(errno));
            cp_arch_worse(r, CP_EXIT_ERROR);
        } else if (m) {
            scan_file(r, e->path, 0);
        } else {
            skip(r, e->path, NOT_GPU_FILE);
        }
        break;
    }
    case CP_WALK_SKIPPED:
        skip(r, e->path, e->why);
        break;
    case CP_WALK_UNREADABLE:
        problem(r, "cannot read folder '%s': %s", e->path, strerror(e->err));
        cp_arch_worse(r, CP_EXIT_ERROR);
        break;
    case CP_WALK_TOO_DEEP:
        problem(r, "'%s': deeper than %d folders, not scanned", e->path, MAX_DEPTH);
        break;
    case CP_WALK_TOO_LONG:
        problem(r, "path too long: '%s%s%s'", e->path, cp_str_ends_with(e->path, "/") ? "" : "/", e->name);
        cp_arch_worse(r, CP_EXIT_ERROR);
        break;
    }
    return 0;
}

/* See arch.h. */
int cp_arch_report(const cp_arch_opts *o, const char *const *paths, int npaths, FILE *out)
{
    /* Symbolic links are not followed inside a folder: a library folder
     * links each file two or three times, and a linked folder could loop. */
    static const cp_walk_opts walk = { .max_depth = MAX_DEPTH, .report_skipped = true };
    cp_arch_run r = { .o = o, .out = out };
    cp_arch_render_begin(&r);
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) cp_walk(paths[i], &walk, on_entry, &r);
        else scan_file(&r, paths[i], 1);
    }
    cp_arch_render_end(&r);
    for (size_t i = 0; i < r.nskipped; i++)
        free(r.skipped[i].path);
    free(r.skipped);
    return r.worst;
}
