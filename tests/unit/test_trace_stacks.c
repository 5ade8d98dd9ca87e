/*
 * Where in the program: the STACK and MODULE records' writer and reader,
 * the perf map parser (on a map in the form CPython 3.12 writes), the ELF
 * symbol lookup and the symbolisation (on this test program's own file),
 * and the analysis that gathers sync idle time by the program's place.
 */
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "json_check.h"
#include "cuprobe/trace.h"
#include "util/alloc.h"
#include "trace_test.h"

static void put_stack(fbuf *f, uint32_t corr, const uint64_t *pcs, size_t depth)
{
    size_t k = cp_trace_encode_stack(f->b + f->n, sizeof f->b - f->n, 4242, corr, CP_API_RUNTIME, 0, pcs, depth, NULL, 0);
    CHECK(k > 0 && k <= sizeof f->b - f->n);
    f->n += k;
}

static unsigned char g_id[CP_TRACE_MAX_BUILD_ID];   /* the build id the module records carry */
static size_t g_idlen;

static void put_module(fbuf *f, uint64_t s, uint64_t e, uint64_t bias, const char *path)
{
    size_t k = cp_trace_encode_module(f->b + f->n, sizeof f->b - f->n, s, e, bias, path, strlen(path), g_id, g_idlen);
    CHECK(k > 0 && k <= sizeof f->b - f->n);
    f->n += k;
}

static cp_trace_rec kern(int64_t s, int64_t e)
{
    return (cp_trace_rec){ .type = CP_TREC_KERNEL, .start = s, .end = e, .name = 1 };
}

static cp_trace_rec api(int64_t s, int64_t e, uint32_t name, uint32_t corr)
{
    return (cp_trace_rec){ .type = CP_TREC_API, .start = s, .end = e, .name = name, .corr = corr, .tid = 4242,
                           .domain = CP_API_RUNTIME };
}

/* The program's own mapping (the first object dl_iterate_phdr lists). */
static struct {
    uint64_t lo, hi, bias;
    int done;
} self;

static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    if (self.done++) return 1;
    self.lo = UINT64_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD) continue;
        uint64_t a = info->dlpi_addr + p->p_vaddr, b = a + p->p_memsz;
        if (a < self.lo) self.lo = a;
        if (b > self.hi) self.hi = b;
    }
    self.bias = info->dlpi_addr;
    return 1;
}

/* This test program's path into exe (and its mapping into self); returns
 * its base name. */
static const char *self_exe(char *exe, size_t n)
{
    ssize_t l = readlink("/proc/self/exe", exe, n - 1);
    CHECK(l > 0);
    exe[l > 0 ? l : 0] = '\0';
    dl_iterate_phdr(first_object, NULL);
    return strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
}

/* A function of this program for the lookups to name. */
void train_step_here(void) __attribute__((noinline));
void train_step_here(void)
{
    static volatile int sink;
    sink++;
}

/* A statically linked CUDA runtime's entry point and a C++ function of the
 * program, under the names nvcc's objects give them. */
void static_runtime_entry(void) __asm__("cudaMemcpy") __attribute__((noinline, used));
void static_runtime_entry(void)
{
    static volatile int sink;
    sink++;
}
void cxx_function(void) __asm__("_Z10sync_stepsPf") __attribute__((noinline, used));
void cxx_function(void)
{
    static volatile int sink;
    sink++;
}

/* The program's frame is the first outside the CUDA runtime linked into it
 * (the H200's C sync case named trace_cases:cudaMemcpy), and its C++ name is
 * written as in the source (_Z10sync_stepsPf -> sync_steps). */
static void test_static_runtime(void)
{
    static fbuf f;
    char exe[1024];
    const char *base = self_exe(exe, sizeof exe);
    uint64_t pcs[2] = { (uint64_t)(uintptr_t)&static_runtime_entry + 1, (uint64_t)(uintptr_t)&cxx_function + 1 };
    put_hdr(&f, 9);
    put_module(&f, self.lo, self.hi, self.bias, exe);
    put_stack(&f, 77, pcs, 2);
    cp_trace t;
    char err[128];
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == 0);
    CHECK_I64(cp_trace_symbolise(&t), 0);
    char want[1100];
    snprintf(want, sizeof want, "%s:sync_steps", base);
    CHECK_STR(t.stacks[0].where, want);
    cp_trace_free(&t);
}

static void test_records(void)
{
    static fbuf f;
    uint64_t pcs[3] = { 0x1000, 0x2000, 0xffffffffffffffffull };
    put_hdr(&f, 9);
    put_stack(&f, 77, pcs, 3);
    put_module(&f, 0x400000, 0x500000, 0x400000, "/usr/bin/prog");
    put_stack(&f, 78, pcs, 0);
    cp_trace t;
    char err[128];
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == 0);
    CHECK_I64(t.nstacks, 2);
    CHECK_I64(t.stacks[0].corr, 77);
    CHECK_I64(t.stacks[0].tid, 4242);
    CHECK_I64(t.stacks[0].depth, 3);
    CHECK_I64(t.stacks[0].domain, CP_API_RUNTIME);
    CHECK(t.pcs[t.stacks[0].first + 2] == 0xffffffffffffffffull);
    CHECK_I64(t.stacks[1].depth, 0);
    CHECK_I64(t.nmods, 1);
    CHECK_STR(t.mods[0].path, "/usr/bin/prog");
    CHECK_I64(t.mods[0].build_id_len, 0);
    CHECK(t.mods[0].end == 0x500000);
    CHECK_I64(t.n, 0);                           /* not among the timed records */
    cp_trace_free(&t);
    /* more frames than the cap cannot be written */
    uint64_t many[CP_TRACE_MAX_DEPTH + 1] = { 0 };
    CHECK_I64(cp_trace_encode_stack(f.b, sizeof f.b, 1, 1, 1, 0, many, CP_TRACE_MAX_DEPTH + 1, NULL, 0), 0);
    /* a depth past the record's end, and a path past it: unreadable */
    put_hdr(&f, 9);
    put_stack(&f, 77, pcs, 3);
    f.b[CP_TRACE_HEADER_SIZE + 8 + 12] = 4;
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) < 0);
    CHECK(strstr(err, "stack") != NULL);
    put_hdr(&f, 9);
    put_module(&f, 1, 2, 0, "/lib/x.so");
    f.b[CP_TRACE_HEADER_SIZE + 8 + 24] = 200;
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) < 0);
    CHECK(strstr(err, "module") != NULL);
}

/* The interpreter's frames, as the capture writes them where the thread held the GIL. */
static void test_python_frames(void)
{
    static fbuf f;
    static const char py[] = "step\t/home/u/train.py\t42\nmain\t/home/u/train.py\t50\nbad line\n";
    uint64_t pcs[1] = { 0x10 };
    put_hdr(&f, 9);
    size_t k = cp_trace_encode_stack(f.b + f.n, sizeof f.b - f.n, 1, 5, CP_API_RUNTIME, 0, pcs, 1, py, sizeof py - 1);
    CHECK(k == CP_TRACE_REC_HEAD + CP_TREC_STACK_HEAD + 8 + 8 + 64);
    f.n += k;
    cp_trace t;
    char err[128];
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == 0);
    CHECK_I64(t.stacks[0].flags, CP_STACK_PYTHON);
    CHECK_STR(t.stacks[0].python, py);
    CHECK_I64(cp_trace_symbolise(&t), 0);
    CHECK_STR(t.stacks[0].where, "train.py:step");
    CHECK_STR(t.stacks[0].frames, "step (/home/u/train.py:42) < main (/home/u/train.py:50) | 0xf");
    cp_trace_free(&t);
    /* text past the record's end: unreadable */
    f.b[CP_TRACE_HEADER_SIZE + 8 + 24] = 200;
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) < 0);
    CHECK(strstr(err, "stack") != NULL);
    /* too much text cannot be written */
    static char big[CP_TRACE_MAX_PYFRAMES + 1];
    CHECK_I64(cp_trace_encode_stack(f.b, sizeof f.b, 1, 5, 1, 0, pcs, 1, big, sizeof big), 0);
}

/* The lines CPython 3.12 writes (perf_trampoline.c: "%" PRIxPTR " %x py::%s:%s"). */
static const char perf_map[] =
    "7f0a10000000 b py::<module>:/home/u/train.py\n"
    "7f0a10000010 b py::step:/home/u/train.py\n"
    "not a line\n"
    "7f0a10000020 0 py::empty:/x.py\n"
    "zz 10 py::bad:/x.py\n"
    "7f0a10000030 b py::Model.forward:/home/u/model.py\n"
    "7f0a10000040 b\n"
    "7f0a10000050 10 jitted_thing";

static void test_perfmap(void)
{
    cp_trace t;
    memset(&t, 0, sizeof t);
    CHECK_I64(cp_trace_perfmap_parse(&t, perf_map, sizeof perf_map - 1), 4);
    CHECK(t.perf[1].start == 0x7f0a10000010ull && t.perf[1].size == 0xb);
    CHECK_STR(t.perf[2].name, "py::Model.forward:/home/u/model.py");
    CHECK_STR(t.perf[3].name, "jitted_thing");
    CHECK_I64(cp_trace_perfmap_parse(&t, "", 0), 0);   /* replaces what was there */
    cp_trace_free(&t);
}

/* A trace whose stacks point into this program and into a perf map. */
static void stacks_trace(fbuf *f, char *exe)
{
    uint64_t here = (uint64_t)(uintptr_t)&train_step_here + 2;
    uint64_t py[] = { 0x7f0a10000015ull, 0x7f0a10000005ull };       /* step, called from <module> */
    uint64_t native[] = { 0x10, here, 0x7f0a10000015ull };          /* no object, this program, Python */
    uint64_t only[] = { here };
    put_hdr(f, 11);
    put_str(f, 1, "k");
    put_str(f, 2, "cudaStreamSynchronize");
    put_str(f, 3, "cudaLaunchKernel");
    put_module(f, self.lo, self.hi, self.bias, exe);
    /* kernels at 0-100, 300-400, 600-700, 900-1000; syncs in the gaps */
    put(f, kern(0, 100));
    put(f, kern(300, 400));
    put(f, kern(600, 700));
    put(f, kern(900, 1000));
    put(f, api(50, 300, 2, 500));      /* stack: Python, 200 ns of idle */
    put(f, api(350, 600, 2, 501));     /* stack: Python again */
    put(f, api(650, 900, 2, 502));     /* no stack recorded */
    put(f, api(0, 5, 3, 503));
    put_stack(f, 500, py, 2);
    put_stack(f, 501, native, 3);
    put_stack(f, 503, only, 1);
    size_t k = cp_trace_encode_stack(f->b + f->n, sizeof f->b - f->n, 1, 504, CP_API_RUNTIME, 0, only, 1,
                                     "f\t/a.py\t1\n", 10);
    CHECK(k > 0 && k <= sizeof f->b - f->n);
    f->n += k;                         /* the interpreter's frames, for a call of no API record */
}

static void test_symbolise(void)
{
    static fbuf f;
    char exe[1024];
    const char *base = self_exe(exe, sizeof exe);
    stacks_trace(&f, exe);
    cp_trace t;
    char err[128];
    CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == 0);
    CHECK_I64(cp_trace_perfmap_parse(&t, perf_map, sizeof perf_map - 1), 4);
    CHECK_I64(cp_trace_symbolise(&t), 0);
    CHECK_STR(t.stacks[0].where, "train.py:step");
    CHECK_STR(t.stacks[0].frames, "py::step:/home/u/train.py < py::<module>:/home/u/train.py");
    CHECK_STR(t.stacks[1].where, "train.py:step");      /* a Python frame first, wherever it is */
    CHECK(t.stacks[1].frames && strstr(t.stacks[1].frames, "0xf < train_step_here+0x") != NULL);
    char want[1100];
    snprintf(want, sizeof want, "%s:train_step_here", base);
    CHECK_STR(t.stacks[2].where, want);                 /* no Python frame: the program's own */

    cp_trace_report r;
    CHECK(cp_trace_analyze(&t, 1, NULL, &r) == 0);
    CHECK_I64(r.stacks, 4);
    CHECK_STR(t.stacks[3].where, "a.py:f");
    const cp_trace_gpu *g = &r.gpus[0];
    CHECK_I64(g->idle_sync_ns, 600);
    CHECK_I64(g->nsites, 1);               /* the call without a stack: counted as the two with one */
    CHECK_STR(g->sites[0].where, "train.py:step");
    CHECK_STR(g->sites[0].api, "cudaStreamSynchronize");
    CHECK_I64(g->sites[0].ns, 600);
    CHECK_I64(g->sites[0].gaps, 3);
    CHECK_I64(g->sites[0].sampled, 2);
    CHECK_I64(g->sites[0].calls, 3);
    CHECK_I64(g->ngaps, 3);
    CHECK_STR(g->gaps[0].where, "train.py:step");
    CHECK(g->gaps[2].where == NULL && g->gaps[2].stack == NULL);
    char *s = render(0, &r, NULL);
    CHECK(s && strstr(s, "100.0 % of idle time: synchronisation from train.py:step (cudaStreamSynchronize), 3 gap(s), "
                         "2 of 3 calls' stacks taken: the rest shared out as those\n"));
    CHECK(s && !strstr(s, "a place not recorded"));
    CHECK(s && strstr(s, "cudaStreamSynchronize from train.py:step\n"));
    free(s);
    s = render(1, &r, NULL);
    CHECK(s && json_ok(s));
    CHECK(s && strstr(s, "\"sync_sites\": [{\"where\": \"train.py:step\", \"api\": \"cudaStreamSynchronize\", \"ns\": 600, "
                         "\"idle_share\": 1, \"gaps\": 3, \"sampled\": 2, \"calls\": 3}]"));
    CHECK(s && strstr(s, "\"stacks\": 4"));
    static char schema[16384];
    CHECK(schema_load("docs/trace.schema.json", schema, sizeof schema));
    CHECK(strstr(schema, "\"sync_sites\"") && strstr(schema, "\"idle_share\"") && strstr(schema, "\"stack\""));
    free(s);
    cp_trace_report_free(&r);

    /* a module whose file is gone: module+offset, still the program's place */
    free(t.mods[0].path);
    t.mods[0].path = cp_strdup("/nonexistent/prog");
    CHECK_I64(cp_trace_symbolise(&t), 0);
    CHECK(t.stacks[2].where && strncmp(t.stacks[2].where, "prog+0x", 7) == 0);
    cp_trace_free(&t);
}

/* One synchronising call per gap: kernels end to end with a gap before
 * each next one, the call waiting from before the gap to its end. */
typedef struct {
    int64_t len;             /* the gap's length */
    uint32_t name;           /* 2 cudaMemcpy, 3 cudaDeviceSynchronize */
    uint64_t tid;
    const char *where;       /* its stack's place, or NULL: no stack */
} sync_call;

/* Parse the trace of the calls c[0..n) and give the stacks their places (no symbolisation). */
static int sync_trace(const sync_call *c, size_t n, cp_trace *t)
{
    static fbuf f;
    static const uint64_t pcs[] = { 0x1000 };
    put_hdr(&f, 9);
    put_str(&f, 1, "k");
    put_str(&f, 2, "cudaMemcpy");
    put_str(&f, 3, "cudaDeviceSynchronize");
    int64_t at = 0;
    put(&f, kern(0, 100));
    for (size_t i = 0; i < n; i++) {
        int64_t gs = at + 100, ge = gs + c[i].len;
        cp_trace_rec r = api(gs - 50, ge, c[i].name, (uint32_t)(700 + i));
        r.tid = c[i].tid;
        put(&f, r);
        if (c[i].where) put_stack(&f, (uint32_t)(700 + i), pcs, 1);
        put(&f, kern(ge, ge + 100));
        at = ge;
    }
    char err[128];
    if (cp_trace_parse(f.b, f.n, t, err, sizeof err) != 0) return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (c[i].where && k < t->nstacks) t->stacks[k++].where = cp_strdup(c[i].where);
    return 0;
}

/* The site's figures, as a test expects them. */
static void check_site(const cp_trace_site *s, const char *where, const char *api, int64_t ns, uint64_t gaps,
                       uint64_t sampled, uint64_t calls)
{
    CHECK(where ? s->where && strcmp(s->where, where) == 0 : s->where == NULL);
    CHECK_STR(s->api, api);
    CHECK_I64(s->ns, ns);
    CHECK_I64(s->gaps, gaps);
    CHECK_I64(s->sampled, sampled);
    CHECK_I64(s->calls, calls);
}

/* Stacks are a sample: 8 cudaMemcpy of one thread, 4 with a stack (3 at
 * a.c:hot, 1 at b.c:cold); the other 4's time is shared 3:1, the remainder
 * of the integer shares to the larger, the sites adding up to idle_sync_ns. */
static void test_sampled_sites(void)
{
    static const sync_call c[] = {
        { 100, 2, 1, "a.c:hot" }, { 100, 2, 1, "a.c:hot" }, { 100, 2, 1, "b.c:cold" }, { 100, 2, 1, "a.c:hot" },
        { 100, 2, 1, NULL }, { 100, 2, 1, NULL }, { 100, 2, 1, NULL }, { 101, 2, 1, NULL },
    };
    cp_trace t;
    CHECK_I64(sync_trace(c, sizeof c / sizeof c[0], &t), 0);
    cp_trace_report r;
    CHECK(cp_trace_analyze(&t, 1, NULL, &r) == 0);
    const cp_trace_gpu *g = &r.gpus[0];
    CHECK_I64(g->idle_sync_ns, 801);
    CHECK_I64(g->nsites, 2);
    check_site(&g->sites[0], "a.c:hot", "cudaMemcpy", 601, 6, 3, 6);    /* 300 + 401 * 3/4 = 300.75, +1 remainder */
    check_site(&g->sites[1], "b.c:cold", "cudaMemcpy", 200, 2, 1, 2);   /* 100 + 401 / 4 = 100.25 */
    char *s = render(0, &r, NULL);
    CHECK(s && strstr(s, " 75.0 % of idle time: synchronisation from a.c:hot (cudaMemcpy), 6 gap(s), 3 of 6 calls' "
                         "stacks taken: the rest shared out as those\n"));
    CHECK(s && strstr(s, " 25.0 % of idle time: synchronisation from b.c:cold (cudaMemcpy), 2 gap(s), 1 of 2 calls' "));
    CHECK(s && !strstr(s, "a place not recorded"));
    free(s);
    s = render(1, &r, NULL);
    CHECK(s && json_ok(s));
    CHECK(s && strstr(s, "\"ns\": 601, \"idle_share\": 0.7503121099, \"gaps\": 6, \"sampled\": 3, \"calls\": 6}"));
    free(s);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* The same thread's stacks first, then any thread's; an API with no stack
 * at all stays a place not recorded. */
static void test_sampled_threads(void)
{
    static const sync_call c[] = {
        { 100, 2, 1, "a.c:one" },   /* thread 1 */
        { 100, 2, 2, "b.c:two" },   /* thread 2 */
        { 100, 2, 2, NULL },        /* thread 2's: to b.c:two only */
        { 100, 3, 1, NULL },        /* cudaDeviceSynchronize: no stack of it anywhere */
        { 100, 2, 3, NULL },        /* thread 3 has none: 1:1 over both, the odd gap to the first */
    };
    cp_trace t;
    CHECK_I64(sync_trace(c, sizeof c / sizeof c[0], &t), 0);
    cp_trace_report r;
    CHECK(cp_trace_analyze(&t, 1, NULL, &r) == 0);
    const cp_trace_gpu *g = &r.gpus[0];
    CHECK_I64(g->idle_sync_ns, 500);
    CHECK_I64(g->nsites, 3);
    check_site(&g->sites[0], "b.c:two", "cudaMemcpy", 250, 2, 1, 2);
    check_site(&g->sites[1], "a.c:one", "cudaMemcpy", 150, 2, 1, 2);
    check_site(&g->sites[2], NULL, "cudaDeviceSynchronize", 100, 1, 0, 1);
    CHECK_I64(g->sites[0].ns + g->sites[1].ns + g->sites[2].ns, g->idle_sync_ns);
    char *s = render(0, &r, NULL);
    CHECK(s && strstr(s, " 20.0 % of idle time: synchronisation from a place not recorded (cudaDeviceSynchronize), 1 gap(s)\n"));
    free(s);
    s = render(1, &r, NULL);
    CHECK(s && json_ok(s));
    CHECK(s && strstr(s, "{\"where\": null, \"api\": \"cudaDeviceSynchronize\", \"ns\": 100, \"idle_share\": 0.2, "
                         "\"gaps\": 1, \"sampled\": 0, \"calls\": 1}"));
    free(s);
    cp_trace_report_free(&r);
    cp_trace_free(&t);
}

/* The ELF reader over memory: this program's file, and damaged copies of it. */
static void test_elf(void)
{
    FILE *in = fopen("/proc/self/exe", "rb");
    CHECK(in != NULL);
    if (!in) return;
    static unsigned char img[64 << 20];
    size_t n = fread(img, 1, sizeof img, in);
    fclose(in);
    char name[256];
    uint64_t off = 0;
    uint64_t va = (uint64_t)(uintptr_t)&train_step_here - self.bias + 1;
    CHECK_I64(cp_trace_elf_symbol(img, n, va, name, sizeof name, &off), 0);
    CHECK_STR(name, "train_step_here");
    CHECK_I64(off, 1);
    CHECK_I64(cp_trace_elf_symbol(img, 10, va, name, sizeof name, &off), -1);
    CHECK_I64(cp_trace_elf_symbol((const unsigned char *)"\177ELF\2\1", 6, va, name, sizeof name, &off), -1);
    unsigned char id[CP_TRACE_MAX_BUILD_ID];
    int idlen = cp_trace_elf_build_id(img, n, id);
    CHECK(idlen == 20);                             /* the toolchain's default: SHA-1 */
    CHECK_I64(cp_trace_elf_build_id(img, 10, id), -1);
    /* stacks of a module recorded with this build id are named; with another, not */
    static fbuf f;
    char exe[1024];
    self_exe(exe, sizeof exe);
    for (int wrong = 0; wrong < 2 && idlen > 0; wrong++) {
        memcpy(g_id, id, (size_t)idlen);
        g_idlen = (size_t)idlen;
        g_id[0] ^= (unsigned char)wrong;
        stacks_trace(&f, exe);
        cp_trace t;
        char err[128];
        CHECK(cp_trace_parse(f.b, f.n, &t, err, sizeof err) == 0);
        CHECK_I64(t.mods[0].build_id_len, 20);
        CHECK_I64(cp_trace_symbolise(&t), 0);
        CHECK(t.stacks[2].where && (strstr(t.stacks[2].where, ":train_step_here") != NULL) == !wrong);
        cp_trace_free(&t);
    }
    g_idlen = 0;
    unsigned char save = img[0x3c];
    img[0x3c] = 0xff;                               /* more section headers than the file holds */
    img[0x3d] = 0xff;
    CHECK_I64(cp_trace_elf_symbol(img, n, va, name, sizeof name, &off), -1);
    img[0x3c] = save;
}

static int symbolise_step(cp_trace *t)
{
    return cp_trace_perfmap_parse(t, perf_map, sizeof perf_map - 1) >= 0 && cp_trace_symbolise(t) == 0 ? 0 : -1;
}
/* Every allocation of parse, symbolisation and analysis may fail: said, nothing leaks. */
static void test_alloc_failures(void)
{
    static fbuf f;
    char exe[1024];
    self_exe(exe, sizeof exe);
    stacks_trace(&f, exe);
    CHECK(alloc_sweep(400, parse_analyze_run, &(sweep_trace){ &f, symbolise_step }) > 0);
}

/* A trace folder with the perf map beside the trace: read and used. */
static void test_load_dir(void)
{
    static fbuf f;
    char dir[] = "/tmp/cuprobe-stacks-XXXXXX", path[256], map[256], err[256], exe[1024];
    self_exe(exe, sizeof exe);
    CHECK(mkdtemp(dir) != NULL);
    stacks_trace(&f, exe);
    snprintf(path, sizeof path, "%s/11%s", dir, CP_TRACE_SUFFIX);
    snprintf(map, sizeof map, "%s/11.perf.map", dir);
    FILE *o = fopen(path, "wb");
    CHECK(o && fwrite(f.b, 1, f.n, o) == f.n);
    if (o) fclose(o);
    o = fopen(map, "wb");
    CHECK(o && fwrite(perf_map, 1, sizeof perf_map - 1, o) == sizeof perf_map - 1);
    if (o) fclose(o);
    cp_trace *t;
    CHECK_I64(cp_trace_load_dir(dir, &t, err, sizeof err), 1);
    CHECK_STR(t[0].stacks[0].where, "train.py:step");
    cp_trace_free_all(t, 1);
    unlink(map);
    CHECK_I64(cp_trace_load_dir(dir, &t, err, sizeof err), 1);   /* without the map: no Python names */
    CHECK(t[0].stacks[0].where == NULL);
    CHECK_STR(t[0].stacks[0].frames, "0x7f0a10000014 < 0x7f0a10000004");
    cp_trace_free_all(t, 1);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    RUN(test_records);
    RUN(test_static_runtime);
    RUN(test_python_frames);
    RUN(test_perfmap);
    RUN(test_symbolise);
    RUN(test_sampled_sites);
    RUN(test_sampled_threads);
    RUN(test_elf);
    RUN(test_alloc_failures);
    RUN(test_load_dir);
    return TEST_END();
}
