/*
 * `cuprobe explain --check`: does this machine confirm the explanation?
 *
 * Each knowledge-base row names the doctor check that would see its cause;
 * here that check's finding in this machine's report decides: fail or warn
 * confirms, pass says the cause is not here, skip or blocked cannot tell.
 *
 * "No kernel image" and its kin name the code, not the machine: the
 * library that lacks this GPU's code is usually the one in the traceback
 * (a custom extension more often than the framework itself).  So for those
 * rows the libraries the text names are scanned with cp_arch_scan and
 * judged against the GPUs in the facts; one that cannot run confirms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cuprobe/arch.h"
#include "cuprobe/explain.h"
#include "explain_int.h"
#include "fs/walk.h"

#define MAX_WALK 20000         /* directory entries looked at per package (once per pass) */
#define MAX_DEPTH 3            /* torch/lib/x.so is depth 1 */

typedef struct {
    cp_arch_target gpu[CP_MAX_GPUS];
    int ngpu;
    cp_here_file files[CP_HERE_MAX_FILES];
    int nfiles;
    int cannot;                /* a scanned library cannot run on a GPU here */
    int with_code, bad;        /* in the current package: libraries with GPU code, and that cannot run */
} arch_scan;

const char *cp_here_verdict_name(cp_here_verdict v)
{
    switch (v) {
    case CP_HERE_CONFIRMED: return "confirmed";
    case CP_HERE_NOT_SEEN: return "not seen here";
    case CP_HERE_UNKNOWN: return "cannot tell";
    case CP_HERE_NO_CHECK: return "no check";
    default: return "not asked";
    }
}

static const cp_finding *finding_for(const cp_report *rep, const char *check)
{
    for (int i = 0; rep && i < rep->nfindings; i++)
        if (rep->findings[i].check && strcmp(rep->findings[i].check, check) == 0) return &rep->findings[i];
    return NULL;
}

/* ---- paths the text names ---- */

static int path_char(unsigned char c)
{
    return c > 0x20 && c < 0x7f && !strchr("\"'`(),;:<>[]{}|=", c);
}

static void add_target(char targets[][256], int *n, const char *p, size_t len)
{
    if (len == 0 || len >= 256 || *n >= CP_EXPLAIN_MAX_PATHS) return;
    for (int i = 0; i < *n; i++)
        if (strlen(targets[i]) == len && memcmp(targets[i], p, len) == 0) return;
    memcpy(targets[*n], p, len);
    targets[(*n)++][len] = '\0';
}

/* One path token: a shared library ("/x/libfoo.so", "/x/libfoo.so.12.1")
 * or a file inside a Python package ("/x/site-packages/pkg/..." gives
 * "/x/site-packages/pkg"). */
static void take_path(char targets[][256], int *n, const char *p, size_t len)
{
    for (size_t i = 0; i + 3 <= len; i++) {
        if (memcmp(p + i, ".so", 3) != 0) continue;
        size_t e = i + 3;
        while (e + 1 < len && p[e] == '.' && p[e + 1] >= '0' && p[e + 1] <= '9') {
            e++;
            while (e < len && p[e] >= '0' && p[e] <= '9') e++;
        }
        if (e == len) { add_target(targets, n, p, e); return; }
    }
    static const char *const markers[] = { "/site-packages/", "/dist-packages/" };
    for (int m = 0; m < 2; m++) {
        size_t ml = strlen(markers[m]);
        for (size_t i = 0; i + ml < len; i++) {
            if (memcmp(p + i, markers[m], ml) != 0) continue;
            size_t s = i + ml, e = s;
            while (e < len && p[e] != '/') e++;
            if (e == len) return;                       /* a module file, not a package folder */
            if ((e - s > 10 && memcmp(p + e - 10, ".dist-info", 10) == 0) ||
                (e - s > 9 && memcmp(p + e - 9, ".egg-info", 9) == 0))
                return;                                 /* metadata, not code */
            add_target(targets, n, p, e);
            return;
        }
    }
}

/* The libraries and packages a text names; see explain_int.h. */
int cp_explain_paths(const char *text, size_t len, char targets[][256])
{
    int n = 0;
    for (size_t i = 0; i < len && n < CP_EXPLAIN_MAX_PATHS; i++) {
        if (text[i] != '/' || (i > 0 && path_char((unsigned char)text[i - 1]))) continue;
        if (i + 1 < len && text[i + 1] == '/') { i++; continue; }   /* "//host/..." of a URL */
        size_t e = i;
        while (e < len && path_char((unsigned char)text[e])) e++;
        while (e > i && text[e - 1] == '.') e--;
        take_path(targets, &n, text + i, e - i);
        i = e;
    }
    return n;
}

/* ---- scanning ---- */

/* Copy with truncation (paths may be longer than the field). */
static void copy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void add_file(arch_scan *a, const char *path, const char *verdict, const char *why)
{
    if (a->nfiles >= CP_HERE_MAX_FILES) return;
    cp_here_file *f = &a->files[a->nfiles++];
    copy(f->path, sizeof f->path, path);
    copy(f->verdict, sizeof f->verdict, verdict);
    copy(f->why, sizeof f->why, why);
}

#define NO_GPU (-2)

/* "sm_80 sm_90 compute_90" for what a file carries. */
static void carried(const cp_arch_summary *s, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < s->ncodes && n + 1 < cap; i++) {
        char nm[32];
        int w = snprintf(buf + n, cap - n, "%s%s", n ? " " : "", cp_code_name(&s->codes[i], nm, sizeof nm));
        if (w < 0 || (size_t)w >= cap - n) break;
        n += (size_t)w;
    }
}

/* How bad a verdict is for a program that loads the file: native, JIT,
 * some modules without code for the GPU, none at all. */
static int severity(cp_run_verdict v)
{
    switch (v) {
    case CP_RUN_NATIVE: return 0;
    case CP_RUN_PTX_JIT: return 1;
    case CP_RUN_PARTLY: return 2;
    case CP_RUN_CANNOT: return 3;
    default: return -1;
    }
}

/* Judge one library against every GPU with arch's own verdict
 * (cp_arch_judge: module coverage, so a file whose one module of many
 * carries the GPU's code is not "native"); the worst verdict counts.  Returns
 * the verdict, CP_RUN_NO_GPU_CODE for files without GPU code, NO_GPU when
 * there is no GPU to judge against, -1 when unreadable. */
static int judge(arch_scan *a, const char *path, char *why, size_t cap)
{
    cp_arch_summary s;
    char err[256];
    if (cp_arch_scan(path, &s, err, sizeof err) != 0) {
        copy(why, cap, err);
        return -1;
    }
    if (s.containers == 0) { snprintf(why, cap, "no GPU code"); return CP_RUN_NO_GPU_CODE; }
    int worst = CP_RUN_NATIVE;
    char list[128];
    carried(&s, list, sizeof list);
    if (!a->ngpu) { snprintf(why, cap, "carries %s; no GPU here to judge it against", list); return NO_GPU; }
    for (int g = 0; g < a->ngpu; g++) {
        char w[288];
        cp_arch_cover cover;
        cp_run_verdict v = cp_arch_judge(&s, a->gpu[g].major, a->gpu[g].minor, a->gpu[g].driver_cuda, &cover, w,
                                         sizeof w);
        if (g == 0 || severity(v) > severity((cp_run_verdict)worst)) {
            worst = (int)v;
            snprintf(why, cap, "GPU %d (CC %d.%d): %s", a->gpu[g].ordinal, a->gpu[g].major, a->gpu[g].minor, w);
        }
    }
    return worst;
}

static int is_library_name(const char *name)
{
    const char *so = strstr(name, ".so");
    return so && (so[3] == '\0' || so[3] == '.');
}

/* Folders of a package that hold no libraries worth a look (cp_walk's enter). */
static bool enter_folder(const char *path, const char *name, void *arg)
{
    static const char *const skip[] = { "include", "share", "__pycache__", "test", "tests", "testing", "docs", NULL };
    (void)path;
    (void)arg;
    for (int i = 0; skip[i]; i++)
        if (strcmp(name, skip[i]) == 0) return false;
    return true;
}

/* One library of a package (cp_walk's callback): records it when it cannot
 * run, counts it when it carries GPU code. */
static int on_library(const cp_walk_entry *e, void *arg)
{
    arch_scan *a = arg;
    if (e->event != CP_WALK_FILE || !is_library_name(e->name)) return 0;
    char why[320];
    int v = judge(a, e->path, why, sizeof why);
    if (v == -1 || v == CP_RUN_NO_GPU_CODE) return 0;
    a->with_code++;
    if (v == CP_RUN_CANNOT) {
        a->bad++;
        a->cannot = 1;
        add_file(a, e->path, cp_run_verdict_name(CP_RUN_CANNOT), why);
    } else if (v == CP_RUN_PARTLY) {
        /* listed, but no proof: a library whose unused modules target other
         * GPUs (cuFFT's sm_75-only one on an H200) is common and harmless */
        a->bad++;
        add_file(a, e->path, cp_run_verdict_name(CP_RUN_PARTLY), why);
    }
    return 0;
}

static void scan_target(arch_scan *a, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) { add_file(a, path, "absent", "not on this machine"); return; }
    if (S_ISREG(st.st_mode)) {
        char why[320];
        int v = judge(a, path, why, sizeof why);
        if (v == CP_RUN_CANNOT) a->cannot = 1;
        add_file(a, path, v == -1 ? "unreadable" : v == NO_GPU ? "no verdict" : cp_run_verdict_name((cp_run_verdict)v), why);
        return;
    }
    if (!S_ISDIR(st.st_mode)) return;
    /* this folder's files before its subfolders; hidden names, linked
     * folders and special files left out; a link to a library is looked
     * through (wheels link libfoo.so.1 to libfoo.so.1.2) */
    static const cp_walk_opts walk = { .max_depth = MAX_DEPTH, .max_entries = MAX_WALK, .files_first = true,
                                       .skip_hidden = true, .follow_file_links = true, .enter = enter_folder };
    a->with_code = a->bad = 0;
    cp_walk(path, &walk, on_library, a);
    int with_code = a->with_code;
    if (a->bad) return;
    char why[320];
    if (!with_code) snprintf(why, sizeof why, "no library with GPU code in this package");
    else if (!a->ngpu) snprintf(why, sizeof why, "%d libraries with GPU code; no GPU to judge them against", with_code);
    else snprintf(why, sizeof why, "all %d libraries with GPU code can run on the GPUs here", with_code);
    add_file(a, path, with_code && a->ngpu ? "can run" : "no verdict", why);
}

static void machine_gpus(arch_scan *a, const cp_facts *f)
{
    a->ngpu = cp_arch_machine_targets(f, a->gpu, CP_MAX_GPUS);
}

/* ---- verdicts ---- */

static void from_finding(cp_here *h, const char *check, const cp_report *rep)
{
    const cp_finding *c = check ? finding_for(rep, check) : NULL;
    if (!check) {
        h->verdict = CP_HERE_NO_CHECK;
        snprintf(h->summary, sizeof h->summary, "no check on this machine can see this signal");
        return;
    }
    if (!c) {
        h->verdict = CP_HERE_UNKNOWN;
        snprintf(h->summary, sizeof h->summary, "%s did not run", check);
        return;
    }
    h->status = cp_status_name(c->status);
    const cp_finding *root = rep->root >= 0 ? &rep->findings[rep->root] : NULL;
    if (c->status == CP_FAIL || c->status == CP_WARN) {
        h->verdict = CP_HERE_CONFIRMED;
        snprintf(h->summary, sizeof h->summary, "%s", c->summary);
    } else if (root && root->status == CP_FAIL && root->layer < c->layer) {
        /* a check above a broken layer sees little: neither its pass nor its skip says much */
        h->verdict = CP_HERE_UNKNOWN;
        snprintf(h->summary, sizeof h->summary, "the %s layer fails first here: %.200s",
                 cp_layer_name(root->layer), root->summary);
    } else {
        h->verdict = c->status == CP_PASS ? CP_HERE_NOT_SEEN : CP_HERE_UNKNOWN;
        snprintf(h->summary, sizeof h->summary, "%s", c->summary);
    }
}

/* ---- a library the loader could not find ---- */

/* The CUDA libraries the facts track, by file-name stem. */
static int tracked_stem(const char *stem)
{
    static const char *const stems[] = { "libcudart", "libcublas", "libcublasLt", "libcudnn", "libcufft", "libcurand",
                                         "libcusolver", "libcusparse", "libnccl", "libnvrtc", "libnvJitLink",
                                         "libcupti", NULL };
    for (int i = 0; stems[i]; i++)
        if (strcmp(stem, stems[i]) == 0) return 1;
    return 0;
}

/* "libcudart.so.11.0" -> stem "libcudart", major 11 (-1 when absent). */
static int split_soname(const char *soname, char *stem, size_t cap, int *major)
{
    const char *so = strstr(soname, ".so");
    if (!so || (size_t)(so - soname) >= cap) return -1;
    memcpy(stem, soname, (size_t)(so - soname));
    stem[so - soname] = '\0';
    *major = -1;
    if (so[3] == '.' && so[4] >= '0' && so[4] <= '9') *major = (int)strtol(so + 4, NULL, 10);
    return 0;
}

static int same_library(const char *soname_a, const char *soname_b)
{
    char sa[64], sb[64];
    int ma, mb;
    return split_soname(soname_a, sa, sizeof sa, &ma) == 0 && split_soname(soname_b, sb, sizeof sb, &mb) == 0 &&
           strcmp(sa, sb) == 0 && ma == mb;
}

/* Does this machine's loader find `soname`?  From the facts: the copies the
 * libraries layer found, the runtime's libcudart copies and what each
 * framework gets.  Fills h and returns 1 when the facts decide, 0 when the
 * library is not one they track. */
static int soname_here(const cp_facts *f, const char *soname, cp_here *h)
{
    char stem[64];
    int major;
    if (split_soname(soname, stem, sizeof stem, &major) != 0 || !tracked_stem(stem)) return 0;
    const char *elsewhere = NULL, *other = NULL;
    for (int i = 0; i < f->libraries.nlib && i < CP_MAX_LIBS; i++) {
        const cp_library *l = &f->libraries.lib[i];
        if (!same_library(l->soname, soname)) {
            char ls[64];
            int lm;
            if (!other && l->would_load && split_soname(l->soname, ls, sizeof ls, &lm) == 0 && strcmp(ls, stem) == 0)
                other = l->soname;
            continue;
        }
        if (l->would_load) {
            h->verdict = CP_HERE_NOT_SEEN;
            snprintf(h->summary, sizeof h->summary, "the loader here finds %.48s: %.150s (%.24s)", soname, l->path, l->found_by);
            return 1;
        }
        if (!elsewhere) elsewhere = l->path;
    }
    for (int i = 0; strcmp(stem, "libcudart") == 0 && i < f->runtime.nrt && i < CP_MAX_CUDARTS; i++) {
        const cp_cudart *r = &f->runtime.rt[i];
        if (r->major != major) {
            const char *base = strrchr(r->path, '/');
            if (!other && r->would_load) other = base ? base + 1 : r->path;
            continue;
        }
        if (r->would_load) {
            h->verdict = CP_HERE_NOT_SEEN;
            snprintf(h->summary, sizeof h->summary, "the loader here finds %.48s: %.150s (%.24s)", soname, r->path, r->found_by);
            return 1;
        }
        if (!elsewhere) elsewhere = r->path;
    }
    for (int i = 0; i < f->frameworks.nfw && i < CP_MAX_FRAMEWORKS; i++)
        for (int k = 0; k < f->frameworks.fw[i].nlibs && k < CP_MAX_FW_LIBS; k++) {
            const cp_fw_lib *l = &f->frameworks.fw[i].libs[k];
            if (!same_library(l->soname, soname)) continue;
            if (!l->path[0]) {
                h->verdict = CP_HERE_CONFIRMED;
                snprintf(h->summary, sizeof h->summary, "%.16s needs %.48s and the loader finds no copy for it here",
                         f->frameworks.fw[i].name, soname);
                return 1;
            }
            h->verdict = CP_HERE_NOT_SEEN;
            snprintf(h->summary, sizeof h->summary, "%.16s gets %.48s here: %.150s (%.16s)", f->frameworks.fw[i].name, soname,
                     l->path, l->via);
            return 1;
        }
    h->verdict = CP_HERE_CONFIRMED;
    if (elsewhere)
        snprintf(h->summary, sizeof h->summary, "%.48s is here only at %.140s, which the loader does not search", soname,
                 elsewhere);
    else
        snprintf(h->summary, sizeof h->summary, "no copy of %.48s where the loader looks here%s%.48s", soname,
                 other ? "; it would find " : "", other ? other : "");
    return 1;
}

/* ---- the machine chooses between the readings ---- */

/* The part of the answer a signal is listed in; see explain_int.h. */
int cp_here_part(const cp_explain_signal *s)
{
    return s->here.verdict == CP_HERE_CONFIRMED ? 0 : s->here.verdict == CP_HERE_NOT_SEEN ? 2 : 1;
}

typedef struct {
    int part, notice, layer, index;   /* notice and layer order only the confirmed part */
} here_key;

static int here_key_cmp(const void *pa, const void *pb)
{
    const here_key *a = pa, *b = pb;
    if (a->part != b->part) return a->part < b->part ? -1 : 1;
    if (a->notice != b->notice) return a->notice < b->notice ? -1 : 1;
    if (a->layer != b->layer) return a->layer < b->layer ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Reorder r's signals by cp_here_part; among the confirmed, faults before
 * notices and the lowest layer first.  Leaves the order as it was when
 * memory runs out. */
static void here_first(cp_explain_result *r)
{
    if (r->nsignals < 2) return;
    here_key *k = malloc((size_t)r->nsignals * sizeof *k);
    cp_explain_signal *t = malloc((size_t)r->nsignals * sizeof *t);
    if (k && t) {
        for (int i = 0; i < r->nsignals; i++) {
            const cp_explain_signal *s = &r->signals[i];
            k[i].part = cp_here_part(s);
            k[i].notice = k[i].part == 0 && s->notice;
            k[i].layer = k[i].part == 0 ? (int)s->layer : 0;
            k[i].index = i;
        }
        qsort(k, (size_t)r->nsignals, sizeof *k, here_key_cmp);
        for (int i = 0; i < r->nsignals; i++) t[i] = r->signals[k[i].index];
        memcpy(r->signals, t, (size_t)r->nsignals * sizeof *t);
    }
    free(k);
    free(t);
}

static void here_root(cp_here_root *h, const cp_report *rep)
{
    memset(h, 0, sizeof *h);
    h->asked = 1;
    if (!rep || rep->root < 0 || rep->root >= rep->nfindings) return;
    const cp_finding *c = &rep->findings[rep->root];
    if (c->status != CP_FAIL && c->status != CP_WARN) return;
    h->check = c->check;
    h->status = c->status;
    h->layer = c->layer;
    snprintf(h->summary, sizeof h->summary, "%s", c->summary);
}

/* Confirm every signal on this machine; see explain.h. */
void cp_explain_confirm(cp_explain_result *r, const char *text, size_t len, const cp_facts *f,
                        const cp_report *rep)
{
    arch_scan a;
    int scanned = 0;
    for (int i = 0; r && i < r->nsignals; i++) {
        cp_explain_signal *s = &r->signals[i];
        memset(&s->here, 0, sizeof s->here);
        from_finding(&s->here, s->check, rep);
        if (s->soname[0]) {
            cp_here h = s->here;
            if (soname_here(f, s->soname, &h)) {
                h.status = s->here.status;
                s->here = h;
            }
            continue;
        }
        if (!s->check || strcmp(s->check, "framework.arch") != 0) continue;
        if (!scanned) {
            char targets[CP_EXPLAIN_MAX_PATHS][256];
            memset(&a, 0, sizeof a);
            machine_gpus(&a, f);
            int n = text ? cp_explain_paths(text, len, targets) : 0;
            for (int t = 0; t < n; t++) scan_target(&a, targets[t]);
            scanned = 1;
        }
        memcpy(s->here.files, a.files, sizeof a.files);
        s->here.nfiles = a.nfiles;
        if (a.cannot) {
            s->here.verdict = CP_HERE_CONFIRMED;
            for (int k = 0; k < a.nfiles; k++)
                if (strcmp(a.files[k].verdict, cp_run_verdict_name(CP_RUN_CANNOT)) == 0) {
                    snprintf(s->here.summary, sizeof s->here.summary, "%s cannot run here: %s",
                             a.files[k].path, a.files[k].why);
                    break;
                }
        }
    }
    if (!r) return;
    here_root(&r->here_root, rep);
    here_first(r);
}
