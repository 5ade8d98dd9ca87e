/* cuprobe explain: the corpus of real error texts, the knowledge base's
 * coverage, extraction, grouping and text cleaning. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "test.h"
#include "crafted_elf.h"
#include "json_check.h"
#include "cuprobe/explain.h"
#include "checks/check.h"
#include "explain/explain_int.h"
#include "kb/kb.h"
#include "kb/signals.h"
#include "util/str.h"

#define CORPUS "tests/explain-corpus"

static const cp_explain_signal *find(const cp_explain_result *r, const char *code)
{
    for (int i = 0; i < r->nsignals; i++)
        if (strcmp(r->signals[i].code, code) == 0) return &r->signals[i];
    return NULL;
}

static cp_explain_result explain(const char *s, size_t n)
{
    cp_explain_result r;
    if (cp_explain_text(s, n, &r) != 0) memset(&r, 0, sizeof r);
    return r;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = malloc(1 << 20);
    *len = b ? fread(b, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (b) b[*len] = '\0';
    return b;
}

/* Expected "LAYER ID" pairs of every corpus file, for the coverage test. */
#define MAX_SEEN 4096
static char seen_ids[MAX_SEEN][64];
static int nseen;
/* Negatives ("# expect: none"): texts with no CUDA problem, where explain
 * must find no signal at all. */
static int nnegative;
/* Files whose text was collected from a public thread ("# source: URL"),
 * and the layers they cover. */
static int nsourced;
static int sourced_layers[CP_LAYER_COUNT];

/* A corpus file: "# expect: LAYER ID" (or "# expect: none" for a text
 * without a CUDA problem), optionally "# source: URL", then the text as it
 * appeared there. */
static void check_corpus_file(const char *name)
{
    char path[512], layer[32] = "", id[64] = "", source[512] = "";
    snprintf(path, sizeof path, "%s/%s", CORPUS, name);
    size_t len;
    char *text = slurp(path, &len);
    CHECK(text != NULL);
    if (!text) return;
    const char *body = text;
    while (body[0] == '#' && body[1] == ' ') {   /* header lines; a text may open with "#error" */
        if (sscanf(body, "# expect: %31[^ \n]%*[ ]%63[^ \n]", layer, id) < 1) sscanf(body, "# source: %511s", source);
        const char *nl = strchr(body, '\n');
        body = nl ? nl + 1 : text + len;
    }
    if (strcmp(layer, "none") == 0 && !*id) {
        cp_explain_result r = explain(body, len - (size_t)(body - text));
        if (r.nsignals != 0) {
            fprintf(stderr, "  %s: expected no signal, got %d:", name, r.nsignals);
            for (int i = 0; i < r.nsignals; i++)
                fprintf(stderr, " %s/%s (line %ld)", cp_layer_name(r.signals[i].layer), r.signals[i].code,
                        r.signals[i].first_line);
            fputc('\n', stderr);
        }
        CHECK_I64(r.nsignals, 0);
        nnegative++;
        cp_explain_free(&r);
        free(text);
        return;
    }
    if (!*id) {
        fprintf(stderr, "  %s: no '# expect: LAYER ID' or '# expect: none' line\n", name);
        CHECK(0);
        free(text);
        return;
    }
    cp_explain_result r = explain(body, len - (size_t)(body - text));
    const cp_explain_signal *s = find(&r, id);
    if (!s || strcmp(cp_layer_name(s->layer), layer) != 0) {
        fprintf(stderr, "  %s: expected %s %s, got %d signals:", name, layer, id, r.nsignals);
        for (int i = 0; i < r.nsignals; i++)
            fprintf(stderr, " %s/%s", cp_layer_name(r.signals[i].layer), r.signals[i].code);
        fputc('\n', stderr);
        CHECK(0);
    } else if (strncmp(source, "https://", 8) == 0) {
        nsourced++;
        sourced_layers[s->layer]++;
    }
    CHECK(nseen < MAX_SEEN);
    if (nseen < MAX_SEEN) snprintf(seen_ids[nseen++], sizeof seen_ids[0], "%s", id);
    cp_explain_free(&r);
    free(text);
}

/* Every corpus file maps to its layer and id, or to no signal at all for
 * a negative; at least 80 of them are texts from public threads, and those
 * cover all eight layers; at least 30 are negatives. */
static void test_corpus(void)
{
    DIR *d = opendir(CORPUS);
    CHECK(d != NULL);
    if (!d) return;
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".txt") != 0) continue;
        check_corpus_file(e->d_name);
        files++;
    }
    closedir(d);
    CHECK(files >= 80);
    if (nnegative < 30) fprintf(stderr, "  only %d negative corpus texts ('# expect: none')\n", nnegative);
    CHECK(nnegative >= 30);
    if (nsourced < 80) fprintf(stderr, "  only %d corpus texts carry a source\n", nsourced);
    CHECK(nsourced >= 80);
    for (int l = 0; l < CP_LAYER_COUNT; l++) {
        if (!sourced_layers[l]) fprintf(stderr, "  no sourced corpus text in layer %s\n", cp_layer_name((cp_layer)l));
        CHECK(sourced_layers[l] > 0);
    }
}

static int corpus_has(const char *id)
{
    for (int i = 0; i < nseen; i++)
        if (strcmp(seen_ids[i], id) == 0 || (strcmp(id, "kernel.xid") == 0 && strncmp(seen_ids[i], "xid.", 4) == 0))
            return 1;
    return 0;
}

/* Every curated row has a corpus case; every generic (CUresult / NVML name)
 * row is found by its name alone; phrases fit the scanner's limits. */
static void test_kb_coverage(void)
{
    size_t n = cp_signals_all(NULL, 0);
    cp_signal *rows = malloc(n * sizeof *rows);
    CHECK(rows && cp_signals_all(rows, n) == n);
    int layers[CP_LAYER_COUNT] = { 0 };
    for (size_t i = 0; rows && i < n; i++) {
        const cp_signal *s = &rows[i];
        CHECK(s->cause && s->fix && s->layer < CP_LAYER_COUNT);
        for (int j = 0; j < CP_SIGNAL_MAX_MATCH && s->match[j]; j++)
            CHECK(strlen(s->match[j]) >= 4 && strlen(s->match[j]) < 200);
        for (size_t k = 0; k < i; k++) CHECK(strcmp(rows[k].id, s->id) != 0);
        layers[s->layer]++;
        if (s->marks) continue;                 /* a context marker gives no signal */
        if (strchr(s->id, '.')) {
            if (!corpus_has(s->id)) fprintf(stderr, "  no corpus case for %s\n", s->id);
            CHECK(corpus_has(s->id));
            continue;
        }
        cp_explain_result r = explain(s->id, strlen(s->id));
        CHECK_I64(r.nsignals, 1);
        if (r.nsignals == 1) CHECK_STR(r.signals[0].code, s->id);
        cp_explain_free(&r);
    }
    for (int l = 0; l < CP_LAYER_COUNT; l++) CHECK(layers[l] > 0);
    free(rows);
}

/* The enum names a header declares with `prefix`: every identifier that
 * starts an enumerator (after '{' or ',', comments skipped), or, with
 * `type` set, only those in the enum that ends "} type;".  Each must be
 * explained by its name alone, so no status of the installed toolkit is
 * missing from the knowledge base.  Skipped without the header. */
static void check_header_names(const char *path, const char *prefix, const char *type, int at_least)
{
    size_t len;
    char *h = slurp(path, &len);
    if (!h) { fprintf(stderr, "  (no %s: its names not checked)\n", path); return; }
    char *from = h, *to = h + len;
    if (type) {
        char end[96];
        snprintf(end, sizeof end, "} %s;", type);
        to = strstr(h, end);
        CHECK(to != NULL);
        if (!to) { free(h); return; }
        for (from = to; from > h && strncmp(from, "enum", 4) != 0; from--) {}
    }
    int names = 0;
    size_t pl = strlen(prefix);
    for (char *p = from; p < to; p++) {
        if (p[0] == '/' && p[1] == '*') { char *e = strstr(p + 2, "*/"); p = e ? e + 1 : to; continue; }
        if (p[0] == '/' && p[1] == '/') { while (p < to && *p != '\n') p++; continue; }
        if (*p != '{' && *p != ',') continue;
        char *q = p + 1;
        for (;;) {                              /* blanks and comments before the name */
            while (q < to && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')) q++;
            if (q + 1 < to && q[0] == '/' && q[1] == '*') { char *e = strstr(q + 2, "*/"); q = e ? e + 2 : to; }
            else if (q + 1 < to && q[0] == '/' && q[1] == '/') { while (q < to && *q != '\n') q++; }
            else break;
        }
        if ((size_t)(to - q) < pl || strncmp(q, prefix, pl) != 0) continue;
        char name[96];
        size_t n = 0;
        while (n + 1 < sizeof name && (q[n] == '_' || (q[n] >= '0' && q[n] <= '9') || (q[n] >= 'A' && q[n] <= 'Z') ||
                                       (q[n] >= 'a' && q[n] <= 'z')))
            name[n] = q[n], n++;
        name[n] = '\0';
        if (strstr(name, "Success") || strstr(name, "SUCCESS") || strstr(name, "NumResults")) continue;
        names++;
        cp_explain_result r = explain(name, n);
        if (r.nsignals < 1) fprintf(stderr, "  %s: no signal for %s\n", path, name);
        CHECK(r.nsignals >= 1);
        cp_explain_free(&r);
    }
    if (names < at_least) fprintf(stderr, "  %s: only %d names with %s\n", path, names, prefix);
    CHECK(names >= at_least);
    free(h);
}

static void test_header_names(void)
{
    check_header_names("/usr/local/cuda/include/driver_types.h", "cudaError", NULL, 100);
    check_header_names("/usr/local/cuda/include/cuda.h", "CUDA_ERROR_", "CUresult", 90);
    check_header_names("/usr/local/cuda/include/cublas_api.h", "CUBLAS_STATUS_", "cublasStatus_t", 9);
    check_header_names("/usr/local/cuda/include/cudnn_graph.h", "CUDNN_STATUS_", "cudnnStatus_t", 20);
    check_header_names("/usr/local/cuda/include/nccl.h", "nccl", "ncclResult_t", 7);
    check_header_names("/usr/local/cuda/include/cufft.h", "CUFFT_", "cufftResult", 17);
    check_header_names("/usr/local/cuda/include/cusolver_common.h", "CUSOLVER_STATUS_", "cusolverStatus_t", 24);
    check_header_names("/usr/local/cuda/include/cusparse.h", "CUSPARSE_STATUS_", "cusparseStatus_t", 11);
    check_header_names("/usr/local/cuda/include/curand.h", "CURAND_STATUS_", NULL, 12);   /* enum curandStatus { ... }; */
}

/* A confirming check names a check doctor really runs, so the advice
 * "see check X" never points nowhere. */
static void test_checks_exist(void)
{
    size_t n = cp_signals_all(NULL, 0);
    cp_signal *rows = malloc(n * sizeof *rows);
    CHECK(rows && cp_signals_all(rows, n) == n);
    for (size_t i = 0; rows && i < n; i++) {
        if (!rows[i].check) continue;
        int found = 0;
        for (const cp_check *c = cp_checks; c->id && !found; c++) found = strcmp(c->id, rows[i].check) == 0;
        if (!found) fprintf(stderr, "  %s names unknown check '%s'\n", rows[i].id, rows[i].check);
        CHECK(found);
    }
    free(rows);
}

/* doctor words a failed cuInit or nvmlInit with the meaning explain prints
 * for that name: one meaning per error name, whichever command shows it. */
static void test_doctor_wording(void)
{
    static cp_facts f;
    int n = 0;
    for (int nvml = 0; nvml <= 1; nvml++)
        for (int code = 1; code <= 999; code++) {
            cp_signal kb;
            if (cp_signal_for_code(code, nvml, &kb) != 0) continue;
            cp_facts_init(&f);
            cp_finding o;
            memset(&o, 0, sizeof o);
            if (nvml) {
                f.nvml.run.state = CP_PROBE_DONE;
                f.nvml.lib.loaded = 1;
                f.nvml.init_result = code;
                cp_check_nvml(&f, &o);
            } else {
                f.cuda.run.state = CP_PROBE_DONE;
                f.cuda.lib.loaded = 1;
                f.cuda.init_result = code;
                cp_check_cuinit(&f, &o);
            }
            CHECK_I64(o.status, CP_FAIL);
            /* the meaning is explain's; the fix is doctor's, from this machine's facts */
            CHECK(o.fix[0] != '\0' && strstr(o.fix, "arguments") == NULL);
            if (!strstr(o.evidence, kb.cause)) fprintf(stderr, "  code %d: evidence lacks the kb cause\n", code);
            CHECK(strstr(o.evidence, kb.cause) != NULL);
            n++;
        }
    CHECK(n > 100);
    cp_signal kb;
    CHECK_I64(cp_signal_for_code(0, 0, &kb), -1);
    CHECK_I64(cp_signal_for_code(100, 0, &kb), 0);
    CHECK_STR(kb.id, "cuda.no_device");
    CHECK_I64(cp_signal_for_code(1, 0, &kb), 0);
    CHECK_STR(kb.id, "CUDA_ERROR_INVALID_VALUE");
}

/* The libraries and packages a traceback names, for --check. */
static void test_paths(void)
{
    char p[CP_EXPLAIN_MAX_PATHS][256];
    const char *t = "  File \"/opt/py/lib/python3.11/site-packages/detectron2/layers/nms.py\", line 3\n"
                    "OSError: /usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9.1.0: cannot open shared object file\n"
                    "at /srv/app/build/libk.so.\n"
                    "(/a/dist-packages/torch/__init__.py) x=/a/dist-packages/torch/lib/libc10_cuda.so\n"
                    "see /usr/share/doc/readme.txt and /a/site-packages/six.py and http://x/y.so.html\n"
                    "C:\\Users\\x\\torch\\lib\\cudnn64_8.dll /a/site-packages/torch-2.5.dist-info/RECORD\n";
    int n = cp_explain_paths(t, strlen(t), p);
    CHECK_I64(n, 5);
    if (n == 5) {
        CHECK_STR(p[0], "/opt/py/lib/python3.11/site-packages/detectron2");
        CHECK_STR(p[1], "/usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9.1.0");
        CHECK_STR(p[2], "/srv/app/build/libk.so");
        CHECK_STR(p[3], "/a/dist-packages/torch");
        CHECK_STR(p[4], "/a/dist-packages/torch/lib/libc10_cuda.so");
    }
    char many[64 * 20] = "";
    for (int i = 0; i < 20; i++) snprintf(many + strlen(many), 64, "/l/lib%d.so ", i);
    CHECK_I64(cp_explain_paths(many, strlen(many), p), CP_EXPLAIN_MAX_PATHS);
    CHECK_I64(cp_explain_paths("/", 1, p), 0);
    CHECK_I64(cp_explain_paths("", 0, p), 0);
}

/* explain --check scans the libraries a traceback names: one crafted to
 * claim 2^24 sections (a sparse file) took 31 s, as arch did; the scan is
 * bounded by what a real file holds, and the file is named unreadable. */
static void test_confirm_crafted_library(void)
{
    char dir[] = "/tmp/cp_explain_crafted_XXXXXX", path[128], text[512];
    if (!mkdtemp(dir)) { CHECK(0); return; }
    snprintf(path, sizeof path, "%s/libcrafted.so", dir);
    if (crafted_elf(path, 1u << 24, 1) != 0) {
        fprintf(stderr, "  skip: cannot write a sparse file in /tmp\n");
        rmdir(dir);
        return;
    }
    static cp_facts f;
    cp_facts_init(&f);
    cp_report rep = { .findings = NULL, .nfindings = 0, .root = -1 };
    snprintf(text, sizeof text, "RuntimeError: CUDA error: no kernel image is available for execution on the "
             "device\n  File \"%s\", line 1\n", path);
    cp_explain_result r = explain(text, strlen(text));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cp_explain_confirm(&r, text, strlen(text), &f, &rep);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK(took < 1.0);
    const cp_explain_signal *s = find(&r, "cuda.no_kernel_image");
    CHECK(s && s->here.nfiles == 1);
    if (s && s->here.nfiles == 1) {
        CHECK_STR(s->here.files[0].path, path);
        CHECK_STR(s->here.files[0].verdict, "unreadable");
    }
    cp_explain_free(&r);
    unlink(path);
    rmdir(dir);
}

static int index_of(const cp_explain_result *r, const char *code)
{
    for (int i = 0; i < r->nsignals; i++)
        if (strcmp(r->signals[i].code, code) == 0) return i;
    return -1;
}

/* r rendered into buf, as JSON or for people; 0 when it fits (and, as
 * JSON, is well-formed). */
static int render_to(const cp_explain_result *r, int json, char *buf, size_t n)
{
    FILE *out = fmemopen(buf, n - 1, "w");
    if (!out) return -1;
    if (json) cp_explain_render_json(r, out);
    else cp_explain_render_text(r, out, 0);
    int bad = ferror(out);
    fclose(out);
    return bad || (json && !json_ok(buf)) ? -1 : 0;
}

/* --check chooses between a line's readings: what the machine confirms
 * comes first (the lowest layer first), then what it cannot tell, then what
 * it does not see; here_root is doctor's root cause. */
static void test_confirm_chooses(void)
{
    static cp_facts f;
    cp_facts_init(&f);
    cp_finding fs[] = {
        { .check = "kernel.uvm", .layer = CP_LAYER_KERNEL, .status = CP_FAIL, .summary = "nvidia_uvm is not loaded" },
        { .check = "driver.cuinit", .layer = CP_LAYER_DRIVER, .status = CP_FAIL, .summary = "cuInit failed" },
        { .check = "runtime.driver_compat", .layer = CP_LAYER_RUNTIME, .status = CP_PASS, .summary = "ok" },
        { .check = "system.container", .layer = CP_LAYER_SYSTEM, .status = CP_PASS, .summary = "no container" },
    };
    cp_report rep = { .findings = fs, .nfindings = 4, .root = 0 };
    const char *t = "CUDA driver version is insufficient for CUDA runtime version\n"
                    "RuntimeError: CUDA error: initialization error\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK(index_of(&r, "kernel.uvm_maybe") > index_of(&r, "cuda.init_error"));    /* the text's order: alternatives last */
    CHECK_I64(r.here_root.asked, 0);
    cp_explain_confirm(&r, t, strlen(t), &f, &rep);
    CHECK_I64(index_of(&r, "kernel.uvm_maybe"), 0);                              /* confirmed, lowest layer */
    CHECK_I64(index_of(&r, "cuda.init_error"), 1);                               /* confirmed, above it */
    for (int i = 2; i < r.nsignals; i++) CHECK(r.signals[i].here.verdict != CP_HERE_CONFIRMED);
    CHECK_I64(r.here_root.asked, 1);
    CHECK(r.here_root.check && strcmp(r.here_root.check, "kernel.uvm") == 0);
    CHECK_I64(r.here_root.layer, CP_LAYER_KERNEL);
    CHECK_STR(r.here_root.summary, "nvidia_uvm is not loaded");
    static char buf[1 << 16];
    CHECK(render_to(&r, 0, buf, sizeof buf) == 0);
    CHECK(strstr(buf, "here: this machine confirms [kernel] kernel.uvm_maybe, listed first") != NULL);
    CHECK(strstr(buf, "\nor, where the text does not say which") == NULL);
    const char *c = strstr(buf, "confirmed on this machine:"), *u = strstr(buf, "this machine cannot tell:");
    CHECK(c && u && c < u);
    cp_explain_free(&r);

    /* the module is fine and cuInit fails: its reading leads, the module's is not seen, last */
    fs[0].status = CP_PASS;
    rep.root = 1;
    r = explain(t, strlen(t));
    cp_explain_confirm(&r, t, strlen(t), &f, &rep);
    CHECK_I64(index_of(&r, "cuda.init_error"), 0);
    CHECK_I64(index_of(&r, "kernel.uvm_maybe"), r.nsignals - 1);
    CHECK_I64(r.signals[r.nsignals - 1].here.verdict, CP_HERE_NOT_SEEN);
    CHECK(r.here_root.check && strcmp(r.here_root.check, "driver.cuinit") == 0);
    CHECK(render_to(&r, 1, buf, sizeof buf) == 0);
    CHECK(strstr(buf, "\"here_root\": {\"layer\": \"driver\", \"check\": \"driver.cuinit\"") != NULL);
    cp_explain_free(&r);

    /* a warning above the readings (past application XIDs) is in here_root, not said first */
    fs[1].status = CP_PASS;
    cp_finding xid = { .check = "application.xid", .layer = CP_LAYER_APPLICATION, .status = CP_WARN,
                       .summary = "2 application XIDs in the kernel log" };
    cp_finding fs2[5] = { fs[0], fs[1], fs[2], fs[3], xid };
    cp_report rep2 = { .findings = fs2, .nfindings = 5, .root = 4 };
    r = explain(t, strlen(t));
    cp_explain_confirm(&r, t, strlen(t), &f, &rep2);
    CHECK(r.here_root.check && strcmp(r.here_root.check, "application.xid") == 0);
    CHECK(render_to(&r, 0, buf, sizeof buf) == 0);
    CHECK(strstr(buf, "layer fails first") == NULL && strstr(buf, "warns first") == NULL);
    CHECK(strstr(buf, "here: this machine shows none of these causes") != NULL);
    cp_explain_free(&r);

    /* a healthy machine: no root, and JSON says so */
    fs[1].status = CP_PASS;
    rep.root = -1;
    r = explain(t, strlen(t));
    cp_explain_confirm(&r, t, strlen(t), &f, &rep);
    CHECK(r.here_root.asked && r.here_root.check == NULL);
    for (int i = 0; i < r.nsignals; i++) CHECK(r.signals[i].here.verdict != CP_HERE_CONFIRMED);
    CHECK(render_to(&r, 1, buf, sizeof buf) == 0);
    CHECK(strstr(buf, "\"here_root\": null}") != NULL);
    cp_explain_free(&r);
}

/* --check verdicts from a report: fail or warn confirms, pass is "not
 * seen", a lower failing layer or a skip cannot tell, no check is said. */
static void test_confirm_verdicts(void)
{
    static cp_facts f;
    cp_facts_init(&f);
    cp_finding fs[3] = {
        { .check = "hardware.pci_gpu", .layer = CP_LAYER_HARDWARE, .status = CP_PASS, .summary = "1 GPU" },
        { .check = "system.visibility", .layer = CP_LAYER_SYSTEM, .status = CP_FAIL, .summary = "hidden" },
        { .check = "runtime.driver_compat", .layer = CP_LAYER_RUNTIME, .status = CP_PASS, .summary = "ok" },
    };
    cp_report rep = { .findings = fs, .nfindings = 3, .root = 1 };
    const char *t = "CUDA error: no CUDA-capable device is detected\n"
                    "CUDA driver version is insufficient for CUDA runtime version\n"
                    "NCCL WARN Call to connect returned Connection refused\n"
                    "no kernel image is available for execution on the device\n";
    cp_explain_result r = explain(t, strlen(t));
    cp_explain_confirm(&r, t, strlen(t), &f, &rep);
    const cp_explain_signal *s = find(&r, "cuda.no_device");
    CHECK(s && s->here.verdict == CP_HERE_CONFIRMED);
    if (s) CHECK_STR(s->here.summary, "hidden");
    s = find(&r, "cuda.insufficient_driver");
    CHECK(s && s->here.verdict == CP_HERE_UNKNOWN);          /* system fails below runtime */
    if (s) CHECK(strstr(s->here.summary, "the system layer fails first here: hidden") != NULL);
    s = find(&r, "cuda.no_kernel_image");                    /* framework.arch not in the report */
    CHECK(s && s->here.verdict == CP_HERE_UNKNOWN);
    rep.root = -1;
    fs[1].status = CP_PASS;
    cp_explain_confirm(&r, t, strlen(t), &f, &rep);
    s = find(&r, "cuda.insufficient_driver");
    CHECK(s && s->here.verdict == CP_HERE_NOT_SEEN);
    for (int i = 0; i < r.nsignals; i++)
        if (!r.signals[i].check) CHECK_I64(r.signals[i].here.verdict, CP_HERE_NO_CHECK);
    cp_explain_free(&r);

    /* a missing library: the facts' copies and what each framework gets decide */
    f.frameworks.nfw = 1;
    snprintf(f.frameworks.fw[0].name, sizeof f.frameworks.fw[0].name, "torch");
    f.frameworks.fw[0].nlibs = 1;
    snprintf(f.frameworks.fw[0].libs[0].soname, sizeof f.frameworks.fw[0].libs[0].soname, "libcusparse.so.12");
    f.libraries.nlib = 1;
    cp_library *l = &f.libraries.lib[0];
    snprintf(l->soname, sizeof l->soname, "libcufft.so.12");
    snprintf(l->path, sizeof l->path, "/opt/cuda/lib64/libcufft.so.12.0.0");
    const char *t2 = "ImportError: libcusparse.so.12: cannot open shared object file\n"
                     "OSError: libcufft.so.12: cannot open shared object file: No such file or directory\n"
                     "OSError: libcurand.so.10: cannot open shared object file: No such file or directory\n"
                     "OSError: libmystery.so.3: cannot open shared object file: No such file or directory\n";
    r = explain(t2, strlen(t2));
    cp_explain_confirm(&r, t2, strlen(t2), &f, &rep);
    static const struct { const char *soname; cp_here_verdict v; const char *says; } want[] = {
        { "libcusparse.so.12", CP_HERE_CONFIRMED, "torch needs libcusparse.so.12 and the loader finds no copy" },
        { "libcufft.so.12", CP_HERE_CONFIRMED, "is here only at /opt/cuda/lib64/libcufft.so.12.0.0" },
        { "libcurand.so.10", CP_HERE_CONFIRMED, "no copy of libcurand.so.10" },
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        const cp_explain_signal *m = NULL;
        for (int i = 0; i < r.nsignals; i++)
            if (strcmp(r.signals[i].soname, want[k].soname) == 0) m = &r.signals[i];
        CHECK(m != NULL);
        if (!m) continue;
        CHECK_I64(m->here.verdict, want[k].v);
        if (!strstr(m->here.summary, want[k].says)) fprintf(stderr, "  %s: '%s'\n", want[k].soname, m->here.summary);
        CHECK(strstr(m->here.summary, want[k].says) != NULL);
    }
    l->would_load = true;
    cp_explain_confirm(&r, t2, strlen(t2), &f, &rep);
    for (int i = 0; i < r.nsignals; i++)
        if (strcmp(r.signals[i].soname, "libcufft.so.12") == 0) CHECK_I64(r.signals[i].here.verdict, CP_HERE_NOT_SEEN);

    /* the answer with its "here" parts is well-formed JSON */
    static char buf[1 << 16];
    FILE *out = fmemopen(buf, sizeof buf - 1, "w");
    CHECK(out != NULL);
    if (out) {
        cp_explain_render_json(&r, out);
        fclose(out);
        CHECK(strstr(buf, "\"here\": {\"verdict\": \"confirmed\"") != NULL);
        CHECK(json_ok(buf));
    }
    cp_explain_free(&r);
}

static void test_unknown(void)
{
    const char *t = "hello world\nSegmentation fault (core dumped)\nOut of memory: Killed process 1234 (python)\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK_I64(r.nsignals, 0);
    cp_explain_free(&r);
    r = explain("", 0);
    CHECK_I64(r.nsignals, 0);
    cp_explain_free(&r);
    /* identifier prefixes need a word boundary */
    r = explain("CUDA_ERROR_NOT_MAPPED_AS_ARRAY", 30);
    CHECK_I64(r.nsignals, 1);
    if (r.nsignals) CHECK_STR(r.signals[0].code, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY");
    cp_explain_free(&r);
}

/* The ops rows stay quiet on the healthy lines of the same tools and leave
 * a line to the row that explains it better. */
static void test_ops_quiet(void)
{
    static const struct { const char *text; const char *only; } cases[] = {
        { "Building DKMS module 'nvidia-550.54' for kernel-6.8.0_1... done.", NULL },
        { "Building and installing nvidia-kmod [  OK  ]", NULL },
        { "Autoinstall on 6.8.0-45-generic succeeded for module(s) nvidia.", NULL },
        { "insmod: ERROR: could not insert module zfs.ko: Invalid parameters", NULL },
        { "src/foo.c:12:5: error: implicit declaration of function 'bar'", NULL },
        { "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service", "kernel.secure_boot" },
        { "nvidia-container-cli: mount error: failed to add device rules: open devices.allow: permission denied",
          "system.container_cli_cgroup" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cp_explain_result r = explain(cases[k].text, strlen(cases[k].text));
        CHECK_I64(r.nsignals, cases[k].only ? 1 : 0);
        if (cases[k].only && r.nsignals == 1) CHECK_STR(r.signals[0].code, cases[k].only);
        cp_explain_free(&r);
    }
}

static void test_extract_oom(void)
{
    const char *t = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total "
                    "capacity of 79.15 GiB of which 512.00 MiB is free.";
    cp_explain_result r = explain(t, strlen(t));
    const cp_explain_signal *s = find(&r, "torch.oom");
    CHECK(s != NULL);
    if (s) {
        CHECK_I64(s->requested_bytes, 2147483648LL);
        CHECK_I64(s->free_bytes, 536870912LL);
        CHECK_I64(s->total_bytes, (long long)(79.15 * 1073741824.0 + 0.5));
        CHECK_I64(s->gpu, 3);
    }
    cp_explain_free(&r);
    t = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; "
        "5.92 GiB already allocated; 11.94 MiB free; 6.37 GiB reserved in total by PyTorch)";
    r = explain(t, strlen(t));
    s = find(&r, "torch.oom");
    CHECK(s != NULL);
    CHECK_I64(r.nsignals, 1);
    if (s) {
        CHECK_I64(s->requested_bytes, 20971520LL);
        CHECK_I64(s->free_bytes, (long long)(11.94 * 1048576.0 + 0.5));
        CHECK_I64(s->total_bytes, (long long)(7.79 * 1073741824.0 + 0.5));
        CHECK_I64(s->gpu, 0);
    }
    cp_explain_free(&r);
}

/* A size past int64_t is no size: -1, not an undefined conversion (found
 * by fuzz_explain under UBSan). */
static void test_extract_huge_size(void)
{
    const char *t = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 999999999999999 TiB. GPU 0 has a "
                    "total capacity of 9999999999.00 TiB of which 1.00 GiB is free.";
    cp_explain_result r = explain(t, strlen(t));
    const cp_explain_signal *s = find(&r, "torch.oom");
    CHECK(s != NULL);
    if (s) {
        CHECK_I64(s->requested_bytes, -1);
        CHECK_I64(s->total_bytes, -1);
        CHECK_I64(s->free_bytes, 1073741824LL);
    }
    cp_explain_free(&r);
}

static void test_extract_xid_soname(void)
{
    const char *t = "[ 9.1] NVRM: Xid (PCI:0000:9b:00): 79, pid=1, name=x, GPU has fallen off the bus.\n"
                    "ImportError: libnvJitLink.so.12: cannot open shared object file: No such file or directory\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK_I64(r.nsignals, 3);                   /* and the soname's other reading: a package for another CUDA */
    CHECK(find(&r, "framework.built_for_other_cuda_maybe") != NULL);
    const cp_explain_signal *s = find(&r, "xid.79");
    CHECK(s != NULL);
    if (s) {
        CHECK_I64(s->xid, 79);
        CHECK_STR(s->pci, "0000:9b:00");
        CHECK_STR(cp_layer_name(s->layer), "hardware");
        CHECK_I64(s->first_line, 1);
    }
    s = find(&r, "loader.runtime");
    CHECK(s != NULL);
    if (s) {
        CHECK_STR(s->soname, "libnvJitLink.so.12");
        CHECK_STR(s->soname_version, "12");
        CHECK_I64(s->first_line, 2);
    }
    cp_explain_free(&r);
}

/* A signal that is one error code carries its enum and number. */
static void test_error_numbers(void)
{
    static const struct { const char *text, *code, *enumname; int number; } cases[] = {
        { "CUDA_ERROR_ILLEGAL_ADDRESS", "cuda.illegal_address", "CUresult", 700 },
        { "CUDA_ERROR_INVALID_IMAGE", "CUDA_ERROR_INVALID_IMAGE", "CUresult", 200 },
        { "cudaErrorInvalidConfiguration", "cudaErrorInvalidConfiguration", "cudaError_t", 9 },
        { "NVML_ERROR_GPU_IS_LOST", "hardware.fallen_off_bus", "nvmlReturn_t", 15 },
        { "NVML_ERROR_INSUFFICIENT_POWER", "NVML_ERROR_INSUFFICIENT_POWER", "nvmlReturn_t", 8 },
        { "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "torch.oom", NULL, -1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cp_explain_result r = explain(cases[i].text, strlen(cases[i].text));
        const cp_explain_signal *s = find(&r, cases[i].code);
        CHECK(s != NULL);
        if (s) {
            CHECK_I64(s->error_number, cases[i].number);
            if (cases[i].enumname) CHECK(s->error_enum && strcmp(s->error_enum, cases[i].enumname) == 0);
            else CHECK(s->error_enum == NULL);
        }
        cp_explain_free(&r);
    }
}

static void test_grouping(void)
{
    const char *t = "NVRM: Xid (PCI:0000:01:00): 13, a\nNVRM: Xid (PCI:0000:01:00): 31, b\n"
                    "RuntimeError: CUDA error: an illegal memory access was encountered\n"
                    "NVRM: Xid (PCI:0000:01:00): 13, c\nx\nCUDA error: an illegal memory access was encountered\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK_I64(r.nsignals, 5);   /* the other readings come last: XID 31's (a driver bug), the fault's (the framework's) */
    if (r.nsignals == 5) {
        CHECK_STR(r.signals[3].code, "driver.xid_fault_maybe");
        CHECK(r.signals[3].alternative);
        CHECK_I64(r.signals[3].first_line, 2);
        CHECK_STR(r.signals[4].code, "framework.kernel_bug_maybe");
        CHECK(r.signals[4].alternative);
        CHECK_I64(r.signals[4].count, 2);
        CHECK_STR(r.signals[0].code, "xid.13");
        CHECK_I64(r.signals[0].count, 2);
        CHECK_I64(r.signals[0].first_line, 1);
        CHECK_STR(r.signals[1].code, "xid.31");
        CHECK_STR(r.signals[2].code, "cuda.illegal_address");
        CHECK_I64(r.signals[2].count, 2);
        CHECK_I64(r.signals[2].first_line, 3);
    }
    cp_explain_free(&r);
}

/* Distinct XID numbers and missing libraries group apart, up to a bound:
 * a log of 20,000 different ones stays 2 x 32 groups and quick (and one
 * group of the missing libraries' other reading, which reads no soname). */
static void test_group_bound(void)
{
    size_t cap = 20000 * 120, n = 0;
    char *t = malloc(cap);
    CHECK(t != NULL);
    if (!t) return;
    for (int i = 0; i < 10000; i++) {
        n += (size_t)snprintf(t + n, cap - n, "NVRM: Xid (PCI:0000:01:00): %d, x\n", 1000 + i);
        n += (size_t)snprintf(t + n, cap - n, "OSError: libcublas.so.%d: cannot open shared object file\n", i);
    }
    cp_explain_result r = explain(t, n);
    CHECK_I64(r.nsignals, 65);
    long lines = 0;
    for (int i = 0; i < r.nsignals; i++) lines += r.signals[i].count;
    CHECK_I64(lines, 30000);
    cp_explain_free(&r);
    free(t);
}

static void test_cleaning(void)
{
    /* ANSI inside the phrase, CRLF, NUL between two messages, a 1 MB line */
    const char t[] = "\033[1mRuntimeError\033[0m: CUDA error: device-side \033[31massert\033[0m triggered\r\n"
                     "junk\0CUDA_ERROR_NO_DEVICE\r\n\033]0;title\007unspecified launch failure\n";
    cp_explain_result r = explain(t, sizeof t - 1);
    CHECK_I64(r.nsignals, 4);                   /* and the launch failure's other reading */
    const cp_explain_signal *s = find(&r, "cuda.device_assert");
    CHECK(s != NULL);
    if (s) CHECK_STR(s->evidence, "RuntimeError: CUDA error: device-side assert triggered");
    s = find(&r, "cuda.no_device");
    CHECK(s && s->first_line == 2);
    CHECK(find(&r, "cuda.launch_failure") != NULL);
    cp_explain_free(&r);

    size_t n = 1 << 20;
    char *big = malloc(n);
    CHECK(big != NULL);
    if (!big) return;
    memset(big, '=', n);
    const char *m = "no kernel image is available for execution on the device";
    memcpy(big + 4096 - 20, m, strlen(m));              /* across the first window edge */
    memcpy(big + n - 100, "CUDA_ERROR_ASSERT", 17);
    r = explain(big, n);
    CHECK_I64(r.nsignals, 3);                            /* the message in no program's words: both readings */
    CHECK(find(&r, "cuda.no_kernel_image") != NULL);
    CHECK(find(&r, "application.own_kernels_arch_maybe") != NULL);
    CHECK(find(&r, "cuda.device_assert") != NULL);
    for (int i = 0; i < r.nsignals; i++) CHECK(strlen(r.signals[i].evidence) <= 200);
    cp_explain_free(&r);
    free(big);
}

/* Text as people paste it: each form finds its phrase (first line, and
 * the evidence without prefixes or borders), and the forms that are no
 * continuation do not join. */
static void test_pasted(void)
{
    static const struct { const char *text, *code; long line; const char *evidence; } cases[] = {
        /* a terminal's hard wrap in the middle of a word, LF and CRLF */
        { "x\nRuntimeError: CUDA error: no kernel image is available for exec\nution on the device\n",
          "cuda.no_kernel_image", 2, "RuntimeError: CUDA error: no kernel image is available for exec \xe2\x8f\x8e ution on the device" },
        { "RuntimeError: CUDA error: no kernel image is available for exec\r\nution on the device\r\n",
          "cuda.no_kernel_image", 1, NULL },
        /* an issue tracker's wrap at a blank, with padding left at the line end */
        { "CUDA error: no kernel image is available for   \n    execution on the device\n", "cuda.no_kernel_image", 1,
          "CUDA error: no kernel image is available for \xe2\x8f\x8e execution on the device" },
        /* per-rank prefixes */
        { "[rank3]: RuntimeError: CUDA error: an illegal memory access\n[rank3]: was encountered\n",
          "cuda.illegal_address", 1, "RuntimeError: CUDA error: an illegal memory access \xe2\x8f\x8e was encountered" },
        { "[default0]:CUDA error: an illegal memory\n[default0]:access was encountered\n", "cuda.illegal_address", 1, NULL },
        { "rank 3: CUDA error: an illegal memory\nrank 3: access was encountered\n", "cuda.illegal_address", 1, NULL },
        { "[1,0]<stderr>:CUDA error: an illegal memory\n[1,0]<stderr>:access was encountered\n", "cuda.illegal_address", 1, NULL },
        /* docker compose */
        { "vllm-1  | RuntimeError: CUDA error: an illegal memory access was\nvllm-1  | encountered\n",
          "cuda.illegal_address", 1, NULL },
        /* a log's timestamp and level, the message continued on an indented line (rich's log) */
        { "14:10:16-737529 ERROR    RuntimeError: CUDA error: an illegal memory\n"
          "                         access was encountered\n",
          "cuda.illegal_address", 1, "RuntimeError: CUDA error: an illegal memory \xe2\x8f\x8e access was encountered" },
        { "2025-08-03 16:25:57 WARNING  CUDA error: an illegal memory access   cextension.py:282\n"
          "                             was encountered\n", "cuda.illegal_address", 1, NULL },
        { "W0129 18:26:32.738970 16225 device_context.cc:362] CUDA error: an illegal memory access\n"
          "was encountered\n", "cuda.illegal_address", 1, NULL },
        { "ERROR 11-18 18:07:28 engine.py:366] CUDA error: an illegal memory access\nwas encountered\n",
          "cuda.illegal_address", 1, NULL },
        { "[11/08/2024-08:46:50] [E] [TRT] CUDA error: an illegal memory\naccess was encountered\n",
          "cuda.illegal_address", 1, NULL },
        /* rich's traceback box: borders and their padding are blanks */
        { "\xe2\x94\x82 \xe2\x9d\xb1 20 \xe2\x94\x82   RuntimeError: CUDA error: device-side assert        \xe2\x94\x82\n"
          "\xe2\x94\x82 triggered                                            \xe2\x94\x82\n"
          "\xe2\x95\xb0\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\xe2\x95\xaf\n",
          "cuda.device_assert", 1, "20     RuntimeError: CUDA error: device-side assert \xe2\x8f\x8e triggered" },
        { "\xe2\x94\x83 CUDA error: device-side assert triggered \xe2\x94\x83\n", "cuda.device_assert", 1,
          "CUDA error: device-side assert triggered" },
        /* a terminal's wrap pasted as padding inside one line */
        { "W0129 device_context.cc:362] CUDA error: no kernel image is avail                                        "
          "able for execution on the device\n", "cuda.no_kernel_image", 1, NULL },
        /* no-break spaces */
        { "CUDA\xc2\xa0" "error: an illegal memory access was encountered\n", "cuda.illegal_address", 1, NULL },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cp_explain_result r = explain(cases[k].text, strlen(cases[k].text));
        const cp_explain_signal *s = find(&r, cases[k].code);
        if (!s) fprintf(stderr, "  case %zu: no %s\n", k, cases[k].code);
        CHECK(s != NULL);
        if (s) {
            CHECK_I64(s->first_line, cases[k].line);
            CHECK_I64(s->count, 1);
            if (cases[k].evidence) CHECK_STR(s->evidence, cases[k].evidence);
        }
        cp_explain_free(&r);
    }
    /* no join: a new log record, another rank or service, a blank line, a
     * CR inside a line (a progress bar) */
    static const char *const apart[] = {
        "2024-11-08 08:46:50 ERROR CUDA error: an illegal memory\n2024-11-08 08:46:51 INFO access was encountered\n",
        "[rank0]: CUDA error: an illegal memory\n[rank1]: access was encountered\n",
        "web-1  | CUDA error: an illegal memory\ndb-1    | access was encountered\n",
        "CUDA error: an illegal memory\n\naccess was encountered\n",
        "CUDA error: an illegal memory\rx\naccess was encountered\n",
        "[E] CUDA error: an illegal memory\n[E] access was encountered\n",
    };
    for (size_t k = 0; k < sizeof apart / sizeof apart[0]; k++) {
        cp_explain_result r = explain(apart[k], strlen(apart[k]));
        if (r.nsignals) fprintf(stderr, "  apart %zu: %s\n", k, r.signals[0].code);
        CHECK_I64(r.nsignals, 0);
        cp_explain_free(&r);
    }
    /* a phrase whole on its line is not found again across the cut */
    const char *t = "CUDA error: an illegal memory access was encountered\nwas encountered again\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK_I64(r.nsignals, 2);                   /* and its other reading */
    const cp_explain_signal *once = find(&r, "cuda.illegal_address");
    CHECK(once != NULL);
    if (once) CHECK_I64(once->count, 1);
    cp_explain_free(&r);
}

/* NCCL's WARN that libibverbs is absent is the fallback to sockets of a
 * node without InfiniBand, no failure (fairseq's healthy log); other WARN
 * lines still count. */
static void test_nccl_warn_ibverbs(void)
{
    const char *t = "node:5359:5359 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK_I64(r.nsignals, 0);
    cp_explain_free(&r);
    t = "node:5359:5359 [0] misc/socket.cc:538 NCCL WARN Net : Connect to 10.0.0.2<43873> failed\n";
    r = explain(t, strlen(t));
    CHECK(find(&r, "nccl.warn") != NULL);
    cp_explain_free(&r);
}

static void test_render(void)
{
    const char *t = "say \"hi\"\\ \xff CUDA error: misaligned address";
    cp_explain_result r = explain(t, strlen(t));
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    CHECK(f != NULL);
    if (!f) return;
    cp_explain_render_json(&r, f);
    fclose(f);
    CHECK(strstr(buf, "\"code\": \"cuda.misaligned_address\"") != NULL);
    CHECK(strstr(buf, "say \\\"hi\\\"\\\\ \\ufffd CUDA") != NULL);
    CHECK(strstr(buf, "\"count\": 1") != NULL);
    cp_explain_free(&r);
    f = fmemopen(buf, sizeof buf - 1, "w");
    if (!f) return;
    cp_explain_render_text(&r, f, 0);
    fclose(f);
    CHECK_STR(buf, "no known signal in the text\n");
}

/* explain's real output over text holding every kind of broken UTF-8 and
 * terminal controls, in the evidence, a soname and a PCI address: the JSON
 * is strictly valid UTF-8, the text safe for a terminal. */
static void test_strict_output(void)
{
    static const char *const bad[] = {
        "\xed\xa0\x80", "\xed\xbf\xbf", "\xc0\xaf", "\xe0\x80\xaf", "\xf0\x80\x80\xaf",
        "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xe2\x82", "\x80", "\xc2\x9b[2J",
        "\x1b]0;owned\x07", "\x1b[2J",
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char text[600];
        snprintf(text, sizeof text,
                 "RuntimeError: CUDA error: out of memory %s\n"
                 "ImportError: libcudart.so.12%s: cannot open shared object file: No such file or directory\n"
                 "NVRM: Xid (PCI:0000:9b:00%s): 79, pid=1, GPU has fallen off the bus.\n", bad[k], bad[k], bad[k]);
        cp_explain_result r;
        CHECK_I64(cp_explain_text(text, strlen(text), &r), 0);
        CHECK(r.nsignals >= 2);
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        CHECK(out != NULL);
        if (!out) continue;
        cp_explain_render_json(&r, out);
        fclose(out);
        CHECK(buf && json_ok(buf));
        if (buf && !json_ok(buf)) fprintf(stderr, "  bad JSON for case %zu:\n%s\n", k, buf);
        free(buf);
        buf = NULL;
        out = open_memstream(&buf, &len);
        CHECK(out != NULL);
        if (!out) continue;
        cp_explain_render_text(&r, out, 0);
        fclose(out);
        CHECK(buf && text_safe(buf));
        if (buf && !text_safe(buf)) fprintf(stderr, "  unsafe text for case %zu:\n%s\n", k, buf);
        free(buf);
        cp_explain_free(&r);
    }
}

/* `nvidia-smi -q` rows read the value: a sick value gives a signal with the
 * line (value included) as evidence; the same key with a healthy value, or
 * not opening its line, gives none. */
static void test_smi_values(void)
{
    static const struct { const char *line, *code; } sick[] = {
        { "        Pending                           : Yes", "hardware.smi_remap_pending" },
        { "        Pending Page Blacklist            : Yes", "hardware.smi_remap_pending" },
        { "        Remapping Failure Occurred        : Yes", "hardware.smi_remap_failure" },
        { "        Uncorrectable Error               : 3", "hardware.smi_uncorrectable" },
        { "            DRAM Uncorrectable            : 12", "hardware.smi_uncorrectable" },
        { "> SRAM Uncorrectable : 4", "hardware.smi_uncorrectable" },
        { "        HW Slowdown                       : Active", "hardware.smi_hw_slowdown" },
        { "            HW Thermal Slowdown\t: Active", "hardware.smi_thermal_slowdown" },
        { "        Reset Required                    : Yes", "hardware.smi_reset_required" },
        { "    GPU Recovery Action                   : Reboot", "hardware.smi_reset_required" },
    };
    for (size_t k = 0; k < sizeof sick / sizeof sick[0]; k++) {
        cp_explain_result r = explain(sick[k].line, strlen(sick[k].line));
        if (r.nsignals != 1 || strcmp(r.signals[0].code, sick[k].code) != 0)
            fprintf(stderr, "  %s: %d signals, first %s\n", sick[k].line, r.nsignals, r.nsignals ? r.signals[0].code : "-");
        CHECK_I64(r.nsignals, 1);
        if (r.nsignals == 1) {
            CHECK_STR(r.signals[0].code, sick[k].code);
            CHECK(strchr(r.signals[0].evidence, ':') != NULL);   /* the value is in the evidence */
            CHECK_I64(r.signals[0].layer, CP_LAYER_HARDWARE);
        }
        cp_explain_free(&r);
    }
    static const char *const healthy[] = {
        "        Pending                           : No",
        "        Pending                           : Enabled",      /* ECC Mode, MIG Mode */
        "        Pending Page Blacklist            : N/A",
        "        Remapping Failure Occurred        : No",
        "        Uncorrectable Error               : 0",
        "            DRAM Uncorrectable            : 0",
        "            SRAM Uncorrectable            : N/A",
        "        Double Bit ECC                    : 0x0",
        "        HW Slowdown                       : Not Active",
        "        HW Thermal Slowdown               : 0 us",            /* event counters */
        "        Reset Required                    : No",
        "    GPU Recovery Action                   : None",
        "Running: 0 reqs, Swapped: 0 reqs, Pending: 1 reqs",          /* not a -q key */
        "INFO updates Pending : yes",                                  /* the key must open the line */
        "        Pending",                                              /* no value */
        "        Pending                           :",
        "        HW Slowdown : Activated",
    };
    for (size_t k = 0; k < sizeof healthy / sizeof healthy[0]; k++) {
        cp_explain_result r = explain(healthy[k], strlen(healthy[k]));
        if (r.nsignals) fprintf(stderr, "  healthy '%s' gave %s\n", healthy[k], r.signals[0].code);
        CHECK_I64(r.nsignals, 0);
        cp_explain_free(&r);
    }
    /* a key that fails its value on one line still counts on the next */
    const char *two = "    Remapped Rows\n        Pending                           : No\n"
                      "    Retired Pages\n        Pending                           : Yes\n";
    cp_explain_result r = explain(two, strlen(two));
    CHECK_I64(r.nsignals, 1);
    if (r.nsignals == 1) CHECK_I64(r.signals[0].first_line, 4);
    cp_explain_free(&r);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_ANY, "x", 1, 0, 1), 1);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_NONZERO, "  total : 007", 13, 2, 7), 1);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_NONZERO, "  total : 000", 13, 2, 7), 0);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_NONZERO, "  total : 2.5 w", 15, 2, 7), 0);
    /* kubectl's resource rows: none to hand out is a 0, not 10, 0.5 or 0Gi */
    CHECK_I64(cp_explain_value_ok(CP_VALUE_ZERO, " nvidia.com/gpu:     0", 22, 1, 15), 1);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_ZERO, " nvidia.com/gpu:  00", 20, 1, 15), 1);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_ZERO, " nvidia.com/gpu:  10", 20, 1, 15), 0);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_ZERO, " nvidia.com/gpu:  0.5", 21, 1, 15), 0);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_ZERO, " nvidia.com/gpu:  0gi", 21, 1, 15), 0);
    CHECK_I64(cp_explain_value_ok(CP_VALUE_ZERO, " nvidia.com/gpu:  8", 19, 1, 15), 0);
    const char *node = "Capacity:\n  cpu:                64\n  nvidia.com/gpu:     8\n"
                       "Allocated resources:\n  nvidia.com/gpu     0            0\n";
    r = explain(node, strlen(node));
    CHECK_I64(r.nsignals, 0);                    /* GPUs advertised, none requested: healthy */
    cp_explain_free(&r);
}

/* A program that fails to read nvidia-smi's or NVML's values as numbers:
 * the placeholder of a field the GPU does not report, or a driver version
 * of three parts; any other value it fails on is its own business. */
static void test_smi_field_parse(void)
{
    /* lowercased, as the scanner hands lines to it */
    static const struct { const char *after; int strict, bare; } cases[] = {
        { " ' [n/a]'", 1, 0 }, { " '[not supported]'", 1, 0 }, { " [n/a]", 1, 0 }, { " '545.29.06'", 1, 0 },
        { " 367.36.02", 1, 0 }, { " \"535.104.05\"", 1, 0 }, { " '[insufficient permissions]'", 1, 0 },
        { " 'n/a'", 0, 1 }, { " 'n/'", 0, 1 }, { " 'insufficient'", 0, 1 }, { " not supported", 0, 1 },
        { " 'n/am'", 0, 0 }, { " 'insufficiently'", 0, 0 }, { " '545.29'", 0, 0 }, { " '2.4.1'", 0, 0 },
        { " '1545.29.06'", 0, 0 }, { " '545.2.06'", 0, 0 }, { " '545.29.061'", 0, 0 }, { " 'abc'", 0, 0 },
        { "", 0, 0 }, { " '", 0, 0 }, { " '545.", 0, 0 }, { " '545.29.", 0, 0 }, { " '545.29.0", 0, 0 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *low = cases[k].after;
        size_t n = strlen(low);
        if (cp_explain_smi_field(low, n, 0, 0) != cases[k].strict || cp_explain_smi_field(low, n, 0, 1) != cases[k].bare)
            fprintf(stderr, "  case %zu: %s\n", k, low);
        CHECK_I64(cp_explain_smi_field(low, n, 0, 0), cases[k].strict);
        CHECK_I64(cp_explain_smi_field(low, n, 0, 1), cases[k].bare);
    }
    const char *gputil = "  File \"GPUtil/__init__.py\", line 82, in getGPUs\n"
                         "ValueError: could not convert string to float: '[Not Supported]'\n";
    cp_explain_result r = explain(gputil, strlen(gputil));
    CHECK_I64(r.nsignals, 1);
    if (r.nsignals == 1) CHECK_STR(r.signals[0].code, "application.smi_value_parse");
    cp_explain_free(&r);
    const char *own = "ValueError: could not convert string to float: 'lr=0.1'\n";   /* the program's own value */
    r = explain(own, strlen(own));
    CHECK_I64(r.nsignals, 0);
    cp_explain_free(&r);
    /* a bare N/A speaks only in a text about the GPU */
    const char *csv = "ValueError: invalid literal for int() with base 10: 'N/A'\n";
    r = explain(csv, strlen(csv));
    CHECK_I64(r.nsignals, 0);
    cp_explain_free(&r);
    const char *xml = "  total = int(gpu.find('fb_memory_usage').find('total').text)  # nvidia-smi -q -x\n"
                      "ValueError: invalid literal for int() with base 10: 'N/A'\n";
    r = explain(xml, strlen(xml));
    CHECK_I64(r.nsignals, 1);
    if (r.nsignals == 1) CHECK_STR(r.signals[0].code, "application.smi_xml_value_parse");
    cp_explain_free(&r);
}

/* A notice must not outrank the fault it reports: XID 154 (a recovery
 * action), a remap recorded (63) and the module's load line rank after the
 * faults whatever their lines; alone, a notice is still the signal. */
static void test_notice_order(void)
{
    const char *t = "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  570.86.15\n"
                    "NVRM: Xid (PCI:0000:01:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)\n"
                    "NVRM: Xid (PCI:0000:01:00): 63, pid=1, Row Remapper: New row marked for remapping, reset gpu to activate.\n"
                    "NVRM: Xid (PCI:0000:01:00): 48, pid=1, An uncorrectable double bit error (DBE) has been detected on GPU.\n"
                    "NVRM: Xid (PCI:0000:01:00): 79, pid=1, GPU has fallen off the bus.\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK_I64(r.nsignals, 5);
    static const char *const order[] = { "xid.48", "xid.79", "kernel.module_loaded", "xid.154", "xid.63" };
    for (int i = 0; i < r.nsignals && i < 5; i++) {
        CHECK_STR(r.signals[i].code, order[i]);
        CHECK_I64(r.signals[i].notice, i >= 2);
    }
    if (r.nsignals) CHECK_I64(r.signals[0].layer, CP_LAYER_HARDWARE);
    cp_explain_free(&r);
    const char *alone = "NVRM: Xid (PCI:0000:01:00): 154, GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required)\n";
    r = explain(alone, strlen(alone));
    CHECK_I64(r.nsignals, 1);
    if (r.nsignals == 1) CHECK_STR(r.signals[0].code, "xid.154");
    cp_explain_free(&r);
    const char *gsp = "NVRM: _kgspRpcRecvPoll: GSP RM heartbeat timed out\n";
    r = explain(gsp, strlen(gsp));
    CHECK_I64(r.nsignals, 1);
    if (r.nsignals == 1) CHECK_I64(r.signals[0].notice, 0);
    cp_explain_free(&r);
    CHECK_I64(cp_xid_is_notice(154), 1);
    CHECK_I64(cp_xid_is_notice(79), 0);
}

/* A container shows in a shell prompt whose host is a container id
 * (docker names it by the first 12 hex digits of the id): then a missing
 * libnvidia-ml is the container's, not the host driver's.  A prompt of
 * another host, or an id of another length, shows nothing. */
static void test_container_prompt(void)
{
    static const struct { const char *prompt, *code; } cases[] = {
        { "root@3f2a1b4c5d6e:/workspace# nvidia-smi\n", "system.container_no_driver" },
        { "user@0123456789ab:~$ nvidia-smi\n", "system.container_no_driver" },
        { "root@gpu-node-01:~# nvidia-smi\n", "loader.libnvml" },
        { "root@3f2a1b4c5d6e7:/# nvidia-smi\n", "loader.libnvml" },
        { "root@3f2a1b4c5d6e /# nvidia-smi\n", "loader.libnvml" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char t[512];
        snprintf(t, sizeof t, "%sNVIDIA-SMI couldn't find libnvidia-ml.so library in your system.\n", cases[k].prompt);
        cp_explain_result r = explain(t, strlen(t));
        if (r.nsignals < 1 || strcmp(r.signals[0].code, cases[k].code) != 0)
            fprintf(stderr, "  prompt %zu: %s\n", k, r.nsignals ? r.signals[0].code : "-");
        CHECK(r.nsignals >= 1);
        if (r.nsignals >= 1) CHECK_STR(r.signals[0].code, cases[k].code);
        cp_explain_free(&r);
    }
}

/* The second readings of a message whose fix often lies in another layer:
 * each comes after the first, marked; where the line settles it (PyTorch's
 * own "CUDA error:" form, an XID the XID table gives no other layer), none. */
static void test_second_readings(void)
{
    static const struct { const char *text, *first, *second; } cases[] = {
        { "NVRM: Xid (PCI:0000:01:00): 31, pid=7, Ch 00000008, intr 10000000. MMU Fault\n", "xid.31",
          "driver.xid_fault_maybe" },
        { "NVRM: Xid (PCI:0000:01:00): 32, pid=7, Channel ID 00000010 intr 00040000\n", "xid.32",
          "driver.xid_fault_maybe" },
        { "NVRM: Xid (PCI:0000:01:00): 43, pid=7, Ch 00000008\n", "xid.43", NULL },
        { "CUDA kernel failed : no kernel image is available for execution on the device\n", "cuda.no_kernel_image",
          "application.own_kernels_arch_maybe" },
        { "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
          "cuda.no_kernel_image", NULL },
        { "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU "
          "has compute capability 7.5.\n", "torch.bf16_unsupported", "application.bf16_dtype_setting_maybe" },
        { "E cuda_dnn.cc:417] Loaded runtime CuDNN library: 8.4.1 but source was compiled with: 8.6.0.\n",
          "cudnn.version_mismatch", "framework.built_for_newer_cudnn_maybe" },
        { "RuntimeError: CUDA error: out of memory\n", "cuda.oom", "system.oom_elsewhere_maybe" },
        { "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n", "torch.oom", NULL },
        { "ggml_cuda_init: found 1 CUDA devices\nCUDA error: out of memory\n", "cuda.oom",
          "framework.server_memory_plan_maybe" },
        { "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n", "kernel.smi_no_driver",
          "system.smi_no_devices_maybe" },
        { "nvcc fatal   : Unsupported gpu architecture 'compute_89'\n", "build.nvcc_unknown_arch",
          "framework.extension_arch_flags_maybe" },
        { "RuntimeError: CUDA error: an illegal memory access was encountered\n", "cuda.illegal_address",
          "framework.kernel_bug_maybe" },
        { "RuntimeError: CUDA error: device-side assert triggered\n", "cuda.device_assert", NULL },
        { "CUDA error: invalid device function\n", "cuda.no_kernel_image", "runtime.toolkit_predates_gpu_maybe" },
        { "CUDA Setup failed despite GPU being available. Please run the following command\n",
          "bitsandbytes.no_gpu_build", "runtime.bitsandbytes_cudart_path_maybe" },
        { "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory\n", "loader.libcuda",
          "system.container_maybe" },
        { "ImportError: /x/ext.so: undefined symbol: THPVariableClass\n", "application.extension_before_torch",
          "framework.torch_symbols_local_maybe" },
        { "llama-server exited with status code -1073741515\n", "framework.windows_dll_not_found", NULL },
    };
    static const struct { const char *first, *third; } thirds[] = {
        { "build.nvcc_unknown_arch", "application.build_arch_list_maybe" },
        { "loader.libcuda", "framework.gpu_build_no_gpu_maybe" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cp_explain_result r = explain(cases[k].text, strlen(cases[k].text));
        /* a third reading, where a message has one, comes last */
        const char *third = NULL;
        for (size_t j = 0; j < sizeof thirds / sizeof thirds[0]; j++)
            if (strcmp(cases[k].first, thirds[j].first) == 0) third = thirds[j].third;
        int want = 1 + (cases[k].second != NULL) + (third != NULL);
        if (r.nsignals != want) fprintf(stderr, "  case %zu: %d signals\n", k, r.nsignals);
        CHECK_I64(r.nsignals, want);
        if (r.nsignals == want) {
            CHECK_STR(r.signals[0].code, cases[k].first);
            CHECK_I64(r.signals[0].alternative, 0);
            if (cases[k].second) {
                CHECK_STR(r.signals[1].code, cases[k].second);
                CHECK_I64(r.signals[1].alternative, 1);
            }
            if (third) {
                CHECK_STR(r.signals[2].code, third);
                CHECK_I64(r.signals[2].alternative, 1);
            }
        }
        cp_explain_free(&r);
    }
}

/* A line with two common readings in two layers the text does not settle
 * (the driver's libraries missing: the host's install, or a container
 * started without them) gives the first as its signal and the other after
 * every signal, marked; a text that shows the container gives that reading
 * alone; an alternative never stands alone nor beside its own layer. */
static void test_alternative_reading(void)
{
    const char *t = "NVRM: Xid (PCI:0000:01:00): 13, pid=1, Graphics Exception\n"
                    "nvidia-smi: error while loading shared libraries: libnvidia-ml.so.1: cannot open shared object file\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK_I64(r.nsignals, 3);
    if (r.nsignals == 3) {
        CHECK_STR(r.signals[0].code, "xid.13");
        CHECK_STR(r.signals[1].code, "loader.libnvml");
        CHECK_I64(r.signals[1].alternative, 0);
        CHECK_STR(r.signals[2].code, "system.container_maybe");
        CHECK_I64(r.signals[2].alternative, 1);
        CHECK_I64(r.signals[2].first_line, 2);
        char buf[8192];
        FILE *f = fmemopen(buf, sizeof buf, "w");
        CHECK(f != NULL);
        if (f) {
            cp_explain_render_json(&r, f);
            fclose(f);
            CHECK(strstr(buf, "\"code\": \"system.container_maybe\"") != NULL);
            CHECK(strstr(buf, "\"alternative\": true") != NULL);
        }
        f = fmemopen(buf, sizeof buf, "w");
        if (f) {
            cp_explain_render_text(&r, f, 0);
            fclose(f);
            CHECK(strstr(buf, "\nor, where the text does not say which") != NULL);
        }
    }
    cp_explain_free(&r);
    /* one reading only: the text shows the container; the device plugin's own form is the system
     * layer already (no second reading of the same layer); a line only an alternative and a named
     * component read gives the component, as before the alternative */
    static const struct { const char *text, *code; int named; } single[] = {
        { "$ docker run --rm -it pytorch/pytorch nvidia-smi\n"
          "nvidia-smi: error while loading shared libraries: libnvidia-ml.so.1: cannot open shared object file\n",
          "system.container_no_driver", 0 },
        { "Failed to start nvml with error:  could not load NVML library\n", "system.device_plugin_nvml", 0 },
        { "  Error: Could not load NVML library\n", "named.driver", 1 },
    };
    for (size_t k = 0; k < sizeof single / sizeof single[0]; k++) {
        r = explain(single[k].text, strlen(single[k].text));
        CHECK_I64(r.nsignals, 1);
        if (r.nsignals == 1) {
            CHECK_STR(r.signals[0].code, single[k].code);
            CHECK_I64(r.signals[0].alternative, 0);
            CHECK_I64(r.signals[0].named, single[k].named);
        }
        cp_explain_free(&r);
    }
    const char *init = "RuntimeError: CUDA error: initialization error\n";
    r = explain(init, strlen(init));
    CHECK_I64(r.nsignals, 2);
    if (r.nsignals == 2) {
        CHECK_STR(r.signals[0].code, "cuda.init_error");
        CHECK_STR(r.signals[1].code, "kernel.uvm_maybe");
    }
    cp_explain_free(&r);
}

/* A build's architecture list read against the GPUs the text named before
 * it: ggml's "CUDA : ARCHS = ..." that starts above a GPU's compute
 * capability says no kernel of the build runs there; one that covers it,
 * or a text that names no GPU first, says nothing. */
static void test_archs_reading(void)
{
    CHECK_I64(cp_explain_line_cc("  device 0: tesla m60, compute capability 5.2, vmm: yes", 54), 52);
    CHECK_I64(cp_explain_line_cc("compute capability 12.0", 23), 120);
    CHECK_I64(cp_explain_line_cc("compute capability x", 20), -1);
    CHECK_I64(cp_explain_line_cc("compute capability 5", 20), -1);
    const char *l = "cuda : archs = 600,610,700 | f16 = 1";
    size_t at = strlen("cuda : archs =");
    CHECK_I64(cp_explain_archs_miss(l, strlen(l), at, 52), 1);
    CHECK_I64(cp_explain_archs_miss(l, strlen(l), at, 60), 0);
    CHECK_I64(cp_explain_archs_miss(l, strlen(l), at, 0), 0);
    const char *cm = ": 75;80;86";
    CHECK_I64(cp_explain_archs_miss(cm, strlen(cm), 0, 61), 1);
    const char *sm = " sm_90a, sm_100f";
    CHECK_I64(cp_explain_archs_miss(sm, strlen(sm), 0, 89), 1);
    CHECK_I64(cp_explain_archs_miss(" = | f16", 8, 0, 52), 0);   /* no list: nothing read */
    static const struct { const char *text; int signal; } cases[] = {
        { "  Device 0: Tesla M60, compute capability 5.2, VMM: yes\n"
          "system_info: CUDA : ARCHS = 600,610,700,750,800,860,890,900 | F16 = 1\n", 1 },
        { "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n"
          "system_info: CUDA : ARCHS = 500,610,700,750,800,860,890 | F16 = 1\n", 0 },
        { "system_info: CUDA : ARCHS = 600,610,700 | F16 = 1\n"
          "  Device 0: Tesla M60, compute capability 5.2, VMM: yes\n", 0 },
        { "system_info: CUDA : ARCHS = 600,610,700 | F16 = 1\n", 0 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cp_explain_result r = explain(cases[k].text, strlen(cases[k].text));
        CHECK_I64(r.nsignals, cases[k].signal);
        if (r.nsignals == 1) CHECK_STR(r.signals[0].code, "llamacpp.archs_leave_out_gpu");
        cp_explain_free(&r);
    }
}

/* PyTorch's out-of-memory sizes read as a whole: where the GPU's total less
 * its free memory less this process's own leaves over half the GPU (and
 * 1 GiB at least) to others, the line is the system's (other processes hold the GPU), not the
 * workload's; each format's own figure for this process counts, and a line
 * without one, or with figures that do not add up, reads as before. */
static void test_oom_others(void)
{
    static const struct { const char *line; int others; } cases[] = {
        { "cuda out of memory. tried to allocate 20.00 mib (gpu 0; 23.65 gib total capacity; 1.20 gib already "
          "allocated; 15.06 mib free; 1.50 gib reserved in total by pytorch)", 1 },
        { "cuda out of memory. tried to allocate 130.00 mib (gpu 1; 7.80 gib total capacity; 5.91 gib already "
          "allocated; 33.56 mib free; 6.09 gib reserved in total by pytorch)", 0 },
        { "cuda out of memory. tried to allocate 20.00 mib. gpu 0 has a total capacity of 23.65 gib of which "
          "15.06 mib is free. process 1234 has 22.1 gib memory in use. including non-pytorch memory, this "
          "process has 1.5 gib memory in use.", 1 },
        { "cuda out of memory. tried to allocate 20.00 mib. gpu 0 has a total capacity of 79.15 gib of which "
          "12.44 mib is free. process 3397914 has 79.13 gib memory in use. of the allocated memory 78.47 gib "
          "is allocated by pytorch, and 107.07 mib is reserved by pytorch but unallocated.", 0 },
        { "cuda out of memory. tried to allocate 20.00 mib. gpu 0 has a total capacity of 79.15 gib of which "
          "12.44 mib is free. of the allocated memory 8.47 gib is allocated by pytorch, and 107.07 mib is "
          "reserved by pytorch but unallocated.", 1 },
        { "cuda out of memory. tried to allocate 20.00 mib (gpu 0; 23.65 gib total capacity; 15.06 mib free)", 0 },
        { "cuda out of memory. tried to allocate 20.00 mib (gpu 0; 2.00 gib total capacity; 9.00 gib free; "
          "0 bytes reserved in total by pytorch)", 0 },
        { "cuda out of memory. tried to allocate 20.00 mib", 0 },
        { "cuda out of memory. tried to allocate 338.00 mib (gpu 0; 3.95 gib total capacity; 1.62 gib already "
          "allocated; 23.00 mib free; 9.10 mib cached)", 1 },          /* PyTorch 1.0, the line's end */
        { "cuda out of memory. tried to allocate 338.00 mib (gpu 0; 3.95 gib total capacity; 3.62 gib already "
          "allocated; 23.00 mib free; 9.10 mib cached)", 0 },
        { "cuda out of memory. tried to allocate 20.00 mib (gpu 0; 23.65 gib total capacity; 15.06 mib free; "
          "1.50 gib reserved in total by pytorch", 1 },                /* cut at the line's end */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int others = cp_explain_oom_others(cases[k].line, strlen(cases[k].line));
        if (others != cases[k].others) fprintf(stderr, "  oom case %zu\n", k);
        CHECK_I64(others, cases[k].others);
    }
    const char *t = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total "
                    "capacity; 1.20 GiB already allocated; 15.06 MiB free; 1.50 GiB reserved in total by PyTorch)\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK_I64(r.nsignals, 1);                   /* the workload's reading of the line is dropped */
    if (r.nsignals == 1) {
        CHECK_STR(r.signals[0].code, "system.oom_other_processes");
        CHECK_I64(r.signals[0].layer, CP_LAYER_SYSTEM);
        CHECK_I64(r.signals[0].free_bytes, 15791555);
    }
    cp_explain_free(&r);
}

/* A line that only says a server's worker died ranks after the worker's own
 * error, wherever that is in the log; alone it still gives a reading. */
static void test_worker_died_order(void)
{
    const char *t = "(EngineCore_0 pid=812) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
                    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n";
    cp_explain_result r = explain(t, strlen(t));
    CHECK(r.nsignals >= 2);
    if (r.nsignals >= 2) {
        CHECK_STR(r.signals[0].code, "torch.oom");
        CHECK(find(&r, "server.worker_died") != NULL);
        CHECK_I64(r.signals[r.nsignals - 1].notice, 1);
    }
    cp_explain_free(&r);
    const char *alone = "RuntimeError: Engine core initialization failed. See root cause above.\n";
    r = explain(alone, strlen(alone));
    CHECK_I64(r.nsignals, 1);
    if (r.nsignals == 1) CHECK_STR(r.signals[0].code, "server.worker_died");
    cp_explain_free(&r);
}

/* The last tier: a component named on a line that says it failed (or next
 * to one), where nothing else was found; every layer's of those confirmed
 * most closely, the lowest layer's first; never on a healthy or
 * informational line, nor in a text that is not about the GPU.  `codes`
 * lists the signals in their order, blank-separated. */
static void test_named_components(void)
{
    static const struct { const char *text; const char *codes; } cases[] = {
        { "ERROR: Failed to run `/usr/sbin/dkms build -m nvidia -v 418.40.04 -k 5.3.0-1022-azure`", "named.kernel_module" },
        { "gpumon[12]: probe of NVML failed, giving up", "named.driver" },
        /* in a container NVML is the runtime's mount, or the image's own copy */
        { "docker run --rm gpumon\ngpumon[12]: probe of NVML failed, giving up",
          "named.driver_in_container named.driver" },
        /* each layer named, the lowest layer's first: the nvidia module before nvcc */
        { "nvcc step failed\nERROR: modprobe of nvidia-uvm failed", "named.kernel_module named.toolkit" },
        /* a name only next to a failing line yields to one on its own failing line */
        { "nvcc step\nERROR: modprobe of nvidia-uvm failed", "named.kernel_module" },
        /* '_' and a case change are boundaries for a name and start a failure word */
        { "mylib: cusolverDnCreate returned MYLIB_ERROR", "named.cuda_library" },
        { "RuntimeError: exec_cufft on gpu", "named.cuda_library" },
        /* no failure word, or one that is part of a name */
        { "dkms status: nvidia/550.54, 6.8.0-45-generic, x86_64: installed", NULL },
        { "ProcessGroupNCCL initialization options: NCCL_ASYNC_ERROR_HANDLING: 1, gpu 0", NULL },
        { "stderr of the nccl bootstrap on gpu 0", NULL },
        /* informational lines and the program's own Python errors */
        { "host:1:2 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.", NULL },
        { "cuDNN version: Could not collect", NULL },
        { "AttributeError: module 'torch.cuda' has no attribute 'is_availaible'", NULL },
        /* a name inside a longer word is no name ("progress" holds "gres") */
        { "aggressive progress failed on the gpu", NULL },
        /* a generic tool in a text that is not about the GPU */
        { "insmod: ERROR: could not insert module zfs.ko: Invalid parameters", NULL },
        { "Error: podman failed to pull the image", NULL },
        /* the line next to a name may say it failed; a name on its own failing line comes first */
        { "Building the DKMS module for nvidia 550\nError! the build stopped", "named.kernel_module" },
        { "Error! the build stopped\nBuilding the DKMS module for nvidia 550", "named.kernel_module" },
        { "NVIDIA driver reports CUDA 13.2 support\nGPU compute capability 7.5 is below the minimum required 8.0",
          "named.compute_capability" },
        { "host:1:2 [0] NCCL INFO Channel 00/02 : 0 1\nValueError: shapes (3,) and (4,) not aligned on gpu", NULL },
        { "Building the DKMS module for nvidia 550\n\nError! the build stopped", NULL },
        /* beside a known message the name says nothing more */
        { "ERROR: Failed to run `/usr/sbin/dkms build -m nvidia`\ntorch.cuda.OutOfMemoryError: CUDA out of memory. "
          "Tried to allocate 20.00 MiB", "torch.oom" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cp_explain_result r = explain(cases[k].text, strlen(cases[k].text));
        char got[256] = "";
        for (int i = 0; i < r.nsignals; i++) {
            cp_str_append(got, sizeof got, " ", r.signals[i].code);
            CHECK_I64(r.signals[i].named, strncmp(r.signals[i].code, "named.", 6) == 0);
        }
        if (strcmp(got, cases[k].codes ? cases[k].codes : "") != 0) fprintf(stderr, "  case %zu: %s\n", k, got);
        CHECK_STR(got, cases[k].codes ? cases[k].codes : "");
        cp_explain_free(&r);
    }
    /* every failure word is lowercase (the scanner matches them in lowercased text) */
    for (const char *const *w = cp_failure_words; *w; w++)
        for (const char *c = *w; *c; c++) CHECK(!(*c >= 'A' && *c <= 'Z'));
    for (const char *const *w = cp_not_failure_phrases; *w; w++)
        for (const char *c = *w; *c; c++) CHECK(!(*c >= 'A' && *c <= 'Z'));
}

int main(void)
{
    RUN(test_corpus);
    RUN(test_kb_coverage);
    RUN(test_checks_exist);
    RUN(test_header_names);
    RUN(test_doctor_wording);
    RUN(test_paths);
    RUN(test_confirm_verdicts);
    RUN(test_confirm_chooses);
    RUN(test_confirm_crafted_library);
    RUN(test_unknown);
    RUN(test_ops_quiet);
    RUN(test_named_components);
    RUN(test_smi_field_parse);
    RUN(test_extract_oom);
    RUN(test_extract_huge_size);
    RUN(test_extract_xid_soname);
    RUN(test_smi_values);
    RUN(test_notice_order);
    RUN(test_container_prompt);
    RUN(test_worker_died_order);
    RUN(test_alternative_reading);
    RUN(test_second_readings);
    RUN(test_archs_reading);
    RUN(test_oom_others);
    RUN(test_error_numbers);
    RUN(test_grouping);
    RUN(test_group_bound);
    RUN(test_cleaning);
    RUN(test_pasted);
    RUN(test_nccl_warn_ibverbs);
    RUN(test_render);
    RUN(test_strict_output);
    return TEST_END();
}
