/* Unit tests for the runtime sources: version.json, ld.so.cache and the
 * toolkit / libcudart search over a fake tree built under /tmp. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuprobe/facts.h"
#include "host/host.h"
#include "installed/installed.h"
#include "test.h"
#include "fake_tree.h"

/* ---------------------------------------------------------- version.json */

static const char json13[] =
    "{\n"
    "   \"cuda\" : {\n"
    "      \"name\" : \"CUDA SDK\",\n"
    "      \"version\" : \"13.0.2\"\n"
    "   },\n"
    "   \"cuda_cccl\" : {\n"
    "      \"name\" : \"CUDA C++ Core Compute Libraries\",\n"
    "      \"version\" : \"13.0.85\"\n"
    "   },\n"
    "   \"cuda_cudart\" : {\n"
    "      \"name\" : \"CUDA Runtime (cudart)\",\n"
    "      \"version\" : \"13.0.96\"\n"
    "   },\n"
    "   \"nvidia_driver\" : {\n"
    "      \"name\" : \"NVIDIA Linux Driver\",\n"
    "      \"version\" : \"580.95.05\"\n"
    "   }\n"
    "}\n";

/* CUDA 12 files list the components first on some releases. */
static const char json12[] =
    "{\"cuda_cudart\":{\"name\":\"CUDA Runtime (cudart)\",\"version\":\"12.4.127\"},"
    "\"libcublas\":{\"name\":\"CUDA cuBLAS\",\"version\":\"12.4.5.8\",\"extra\":[1,2,{\"a\":null}]},"
    "\"cuda\":{\"version\":\"12.4.1\",\"name\":\"CUDA SDK\"}}";

static int vj(const char *s, char *out, size_t cap)
{
    return cp_parse_version_json(s, strlen(s), out, cap);
}

static void test_version_json_real(void)
{
    char v[32];
    CHECK_I64(vj(json13, v, sizeof v), 0);
    CHECK_STR(v, "13.0.2");
    CHECK_I64(vj(json12, v, sizeof v), 0);
    CHECK_STR(v, "12.4.1");
    CHECK_I64(vj("\xEF\xBB\xBF{\"cuda\":{\"version\":\"11.8.0\"}}", v, sizeof v), 0);
    CHECK_STR(v, "11.8.0");
    /* escapes and odd spacing elsewhere do not matter */
    CHECK_I64(vj("{\"a\\\"b\":\"x\\\\\\u00e9\",\r\n\t\"cuda\" :{ \"version\" : \"13.1\" } }", v, sizeof v), 0);
    CHECK_STR(v, "13.1");
}

static void test_version_json_bad(void)
{
    char v[32];
    size_t n = strlen(json13);
    /* every truncation of a good file either fails or still finds the value */
    for (size_t i = 0; i < n; i++) {
        int r = cp_parse_version_json(json13, i, v, sizeof v);
        CHECK(r == -1 || (r == 0 && strcmp(v, "13.0.2") == 0));
        if (r == -1)
            CHECK_STR(v, "");
    }
    CHECK_I64(vj("", v, sizeof v), -1);
    CHECK_I64(vj("garbage", v, sizeof v), -1);
    CHECK_I64(vj("[\"cuda\",{\"version\":\"1.0\"}]", v, sizeof v), -1);
    CHECK_I64(vj("{\"cuda_cudart\":{\"version\":\"13.0.96\"}}", v, sizeof v), -1);
    CHECK_I64(vj("{\"x\":{\"cuda\":{\"version\":\"1.0\"}}}", v, sizeof v), -1);
    CHECK_I64(vj("{\"cuda\":\"13.0\"}", v, sizeof v), -1);
    CHECK_I64(vj("{\"cuda\":{\"version\":13.0}}", v, sizeof v), -1);
    CHECK_I64(vj("{\"cuda\":{\"version\":\"\"}}", v, sizeof v), -1);
    CHECK_I64(vj("{\"cuda\":{\"version\":\"13.0 <script>\"}}", v, sizeof v), -1);
    CHECK_I64(vj("{\"cuda\":{\"version\":\"13.0.2\"}}", v, 4), -1);   /* does not fit */
    CHECK_I64(vj("{\"cuda\":{\"version\":\"13.0.2", v, sizeof v), -1);
    CHECK_I64(vj("{\"cuda\" {\"version\":\"13.0.2\"}}", v, sizeof v), -1);
    CHECK_I64(cp_parse_version_json(NULL, 5, v, sizeof v), -1);
    CHECK_I64(cp_parse_version_json("{\"cuda\":{\"version\":\"1\"}}", 24, NULL, 0), -1);
    /* a NUL inside the text stops nothing but is not valid in a string */
    CHECK_I64(cp_parse_version_json("{\"cuda\":{\"version\":\"1\0\"}}", 26, v, sizeof v), -1);
}

static void test_version_json_deep(void)
{
    char v[32];
    size_t depth = 200000;
    char *s = malloc(2 * depth + 64);
    CHECK(s != NULL);
    if (!s)
        return;
    /* a huge nested value before the key we want: skipped without recursion */
    size_t w = 0;
    w += (size_t)sprintf(s + w, "{\"deep\":");
    for (size_t i = 0; i < depth; i++)
        s[w++] = '[';
    for (size_t i = 0; i < depth; i++)
        s[w++] = ']';
    w += (size_t)sprintf(s + w, ",\"cuda\":{\"version\":\"13.0.2\"}}");
    CHECK_I64(cp_parse_version_json(s, w, v, sizeof v), 0);
    CHECK_STR(v, "13.0.2");
    /* and unbalanced nesting simply fails */
    CHECK_I64(cp_parse_version_json(s, 8 + depth, v, sizeof v), -1);
    free(s);
}

/* ---------------------------------------------------------- ld.so.cache */

typedef struct {
    int32_t flags;
    const char *soname, *path;
} fake_entry;

static void put32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* Build an ld.so.cache image into buf; with_old puts an old-format header
 * (with n entries) in front.  Returns its length. */
static size_t build_cache(unsigned char *buf, size_t cap, const fake_entry *e, int n, int with_old)
{
    memset(buf, 0, cap);
    size_t off = 0;
    if (with_old) {
        memcpy(buf, "ld.so-1.7.0", 11);
        put32(buf + 12, (uint32_t)n);
        off = 16 + 12 * (size_t)n;
        off = (off + 7) & ~(size_t)7;
    }
    unsigned char *h = buf + off;
    memcpy(h, "glibc-ld.so.cache1.1", 20);
    put32(h + 20, (uint32_t)n);
    size_t str = 48 + 24 * (size_t)n;
    size_t s0 = str;
    for (int i = 0; i < n; i++) {
        unsigned char *en = h + 48 + 24 * (size_t)i;
        put32(en, (uint32_t)e[i].flags);
        put32(en + 4, (uint32_t)str);
        strcpy((char *)h + str, e[i].soname);
        str += strlen(e[i].soname) + 1;
        put32(en + 8, (uint32_t)str);
        strcpy((char *)h + str, e[i].path);
        str += strlen(e[i].path) + 1;
    }
    put32(h + 24, (uint32_t)(str - s0));
    return off + str;
}

#define SEEN_MAX 4096

typedef struct {
    int n;
    char names[SEEN_MAX][128];
    char paths[SEEN_MAX][256];
} seen_list;

static int collect_cb(const char *soname, const char *path, void *arg)
{
    seen_list *s = arg;
    if (s->n < SEEN_MAX) {
        snprintf(s->names[s->n], sizeof s->names[0], "%s", soname);
        snprintf(s->paths[s->n], sizeof s->paths[0], "%s", path);
        s->n++;
    }
    return 0;
}

#if defined(__aarch64__)
#define ABI_FLAGS 0x0a03
#define LDCONFIG_ABI "libc6,AArch64"
#else
#define ABI_FLAGS 0x0303
#define LDCONFIG_ABI "libc6,x86-64"
#endif

static const fake_entry fake_entries[] = {
    {ABI_FLAGS, "libcudart.so.13", "/usr/lib/x86_64-linux-gnu/libcudart.so.13"},
    {0x0003, "libcudart.so.12", "/usr/lib/i386-linux-gnu/libcudart.so.12"},   /* i386 */
    {ABI_FLAGS, "libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6"},
};

static void test_ldcache_crafted(void)
{
    static unsigned char buf[4096];
    static seen_list s;
    for (int old = 0; old < 2; old++) {
        s.n = 0;
        size_t len = build_cache(buf, sizeof buf, fake_entries, 3, old);
        CHECK_I64(cp_parse_ldcache(buf, len, collect_cb, &s), 2);
        CHECK_I64(s.n, 2);
        CHECK_STR(s.names[0], "libcudart.so.13");
        CHECK_STR(s.paths[0], "/usr/lib/x86_64-linux-gnu/libcudart.so.13");
        CHECK_STR(s.names[1], "libc.so.6");
        /* every truncation is safe and never yields more entries */
        for (size_t cut = 0; cut < len; cut++) {
            unsigned char *copy = malloc(cut ? cut : 1);
            memcpy(copy, buf, cut);
            int r = cp_parse_ldcache(copy, cut, NULL, NULL);
            CHECK(r <= 2);
            free(copy);
        }
    }
    size_t len = build_cache(buf, sizeof buf, fake_entries, 3, 0);
    put32(buf + 48 + 4, 0xfffffff0u);   /* first entry's key out of range: skipped */
    CHECK_I64(cp_parse_ldcache(buf, len, NULL, NULL), 1);
    put32(buf + 20, 0x7fffffffu);        /* nlibs larger than the file */
    CHECK_I64(cp_parse_ldcache(buf, len, NULL, NULL), -1);
    len = build_cache(buf, sizeof buf, fake_entries, 3, 0);
    buf[len - 1] = 'x';                  /* last string loses its NUL */
    CHECK_I64(cp_parse_ldcache(buf, len, NULL, NULL), 1);
    memcpy(buf + 17, "2.0", 3);
    CHECK_I64(cp_parse_ldcache(buf, len, NULL, NULL), -1);
    CHECK_I64(cp_parse_ldcache((const unsigned char *)"ld.so-1.7.0", 11, NULL, NULL), -1);
    CHECK_I64(cp_parse_ldcache(NULL, 0, NULL, NULL), -1);
}

/* Parse `ldconfig -p` lines of this ABI into a list. */
static int ldconfig_list(seen_list *s)
{
    static const char *const cmds[] = {"/sbin/ldconfig -p 2>/dev/null",
                                       "/usr/sbin/ldconfig -p 2>/dev/null",
                                       "ldconfig -p 2>/dev/null"};
    char line[1024];
    for (size_t c = 0; c < 3; c++) {
        FILE *f = popen(cmds[c], "r");
        if (!f)
            continue;
        s->n = 0;
        int lines = 0;
        while (fgets(line, sizeof line, f)) {
            char *open = strstr(line, " (" LDCONFIG_ABI);
            char *arrow = strstr(line, ") => ");
            lines++;
            if (!open || !arrow || s->n >= SEEN_MAX)
                continue;
            char *name = line;
            while (*name == '\t' || *name == ' ')
                name++;
            *open = '\0';
            char *path = arrow + 5;
            path[strcspn(path, "\n")] = '\0';
            if (strlen(name) >= sizeof s->names[0] || strlen(path) >= sizeof s->paths[0])
                continue;
            strcpy(s->names[s->n], name);
            strcpy(s->paths[s->n], path);
            s->n++;
        }
        if (pclose(f) == 0 && lines > 0)
            return 0;
    }
    return -1;
}

typedef struct {
    const seen_list *want;
    int total, matched;
} cmp_arg;

static int compare_cb(const char *soname, const char *path, void *arg)
{
    cmp_arg *a = arg;
    for (int i = 0; i < a->want->n; i++)
        if (strcmp(a->want->names[i], soname) == 0 && strcmp(a->want->paths[i], path) == 0) {
            a->matched++;
            break;
        }
    a->total++;
    return 0;
}

static int count_abi_lines(void)
{
    char line[1024];
    int n = 0;
    FILE *f = popen("/sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        n += strstr(line, " (" LDCONFIG_ABI) != NULL;
    pclose(f);
    return n;
}

static void test_ldcache_real(void)
{
    FILE *f = fopen("/etc/ld.so.cache", "rb");
    if (!f) {
        fprintf(stderr, "  skip: no /etc/ld.so.cache\n");
        return;
    }
    static unsigned char buf[16 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    static seen_list want;
    if (ldconfig_list(&want) != 0) {
        fprintf(stderr, "  skip: ldconfig -p not available\n");
        return;
    }
    /* ldconfig -p prints every entry of this ABI; we must see the same set */
    cmp_arg a = {&want, 0, 0};
    int r = cp_parse_ldcache(buf, len, compare_cb, &a);
    CHECK(r > 0);
    CHECK_I64(r, a.total);
    CHECK_I64(a.total, count_abi_lines());
    CHECK_I64(want.n, a.total);
    CHECK_I64(a.matched, a.total);
}

/* ------------------------------------------------------------ fake tree */

static void build_tree(void)
{
    static unsigned char cache[4096];
    const fake_entry ce[] = {
        {ABI_FLAGS, "libcudart.so.13", "/usr/lib/x86_64-linux-gnu/libcudart.so.13"},
        {ABI_FLAGS, "libcudart.so.11.0", "/usr/local/cuda-11.8/lib64/libcudart.so.11.0"},
    };
    /* CUDA 12.4: the runfile layout, with /usr/local/cuda pointing at it */
    put_file("/usr/local/cuda-12.4/version.json",
             "{\"cuda\":{\"name\":\"CUDA SDK\",\"version\":\"12.4.1\"},"
             "\"cuda_cudart\":{\"name\":\"CUDA Runtime (cudart)\",\"version\":\"12.4.127\"}}");
    put_file("/usr/local/cuda-12.4/bin/nvcc", "#!/bin/false\n");
    put_file("/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudart.so.12.4.127", "elf");
    put_link("/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudart.so.12", "libcudart.so.12.4.127");
    put_link("/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudart.so", "libcudart.so.12");
    put_file("/usr/local/cuda-12.4/targets/x86_64-linux/lib/stubs/libcuda.so", "stub");
    put_link("/usr/local/cuda-12.4/lib64", "targets/x86_64-linux/lib");
    put_link("/usr/local/cuda", "cuda-12.4");
    /* CUDA 11.8: version.txt only, soname libcudart.so.11.0 */
    put_file("/usr/local/cuda-11.8/version.txt", "CUDA Version 11.8.89\n");
    put_file("/usr/local/cuda-11.8/lib64/libcudart.so.11.8.89", "elf");
    put_link("/usr/local/cuda-11.8/lib64/libcudart.so.11.0", "libcudart.so.11.8.89");
    /* CUDA 12.2 with neither version file nor metadata: its libcudart names it */
    put_file("/usr/local/cuda-12.2/lib64/libcudart.so.12.2.140", "elf");
    put_link("/usr/local/cuda-12.2/lib64/libcudart.so.12", "libcudart.so.12.2.140");
    put_file("/usr/local/cuda-12.2/include/cuda.h", "#define CUDA_VERSION 12020\n");
    /* CUDA 13.0 headers only, lib/ layout */
    put_file("/opt/cuda13/include/cuda.h", "/* x */\n#define CUDA_VERSION_X 1\n#define CUDA_VERSION 13000\n");
    /* a library wheel names its own release, not the toolkit's: cuda.h decides */
    put_file("/opt/cuda13/dist-info/nvidia_cublas-13.1.0.3.dist-info/METADATA", "");
    put_file("/opt/cuda13/lib/stubs/libcuda.so", "stub");
    put_file("/opt/wheel/dist-info/nvidia_cuda_nvcc_cu12-12.6.85.dist-info/RECORD", "");
    put_file("/opt/wheel/bin/nvcc", "x");
    /* a stray 12.1 runtime that LD_LIBRARY_PATH puts first */
    put_file("/opt/other/lib/libcudart.so.12.1.105", "elf");
    put_link("/opt/other/lib/libcudart.so.12", "/opt/other/lib/libcudart.so.12.1.105");
    put_link("/opt/badstub/libcuda.so.1", "/usr/local/cuda/lib64/stubs/libcuda.so");
    /* the distribution's cudart 13, found through the cache (absolute link) */
    put_file("/usr/lib/x86_64-linux-gnu/libcudart.so.13.0.96", "elf");
    put_link("/usr/lib/x86_64-linux-gnu/libcudart.so.13", "/usr/lib/x86_64-linux-gnu/libcudart.so.13.0.96");
    put_bytes("/etc/ld.so.cache", cache, build_cache(cache, sizeof cache, ce, 2, 0));
}

static const cp_toolkit *tk_at(const cp_runtime_facts *rt, const char *path)
{
    for (int i = 0; i < rt->ntk; i++)
        if (strcmp(rt->tk[i].path, path) == 0)
            return &rt->tk[i];
    return NULL;
}

static const cp_cudart *rt_at(const cp_runtime_facts *rt, const char *path)
{
    for (int i = 0; i < rt->nrt; i++)
        if (strcmp(rt->rt[i].path, path) == 0)
            return &rt->rt[i];
    return NULL;
}

static void test_observe_tree(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    cp_fs *fs = cp_fs_open(root, false);
    CHECK(fs != NULL);
    if (!fs)
        return;
    memset(&h, 0, sizeof h);
    set_env(&h, "CUDA_HOME", "/usr/local/cuda/");
    set_env(&h, "CUDA_PATH", "/opt/cuda13");
    set_env(&h, "PATH", "relative/bin:/usr/bin:/opt/wheel/bin:/usr/local/cuda/bin");
    set_env(&h, "LD_LIBRARY_PATH", ":/opt/other/lib:/usr/local/cuda/lib64:/usr/local/cuda/lib64/stubs/");
    CHECK_I64(cp_runtime_observe(fs, &h, &rt), 0);

    CHECK_I64(rt.ntk, 5);
    const cp_toolkit *t = tk_at(&rt, "/usr/local/cuda-12.4");
    CHECK(t != NULL);
    if (t) {
        CHECK_STR(t->found_as, "/usr/local/cuda, CUDA_HOME, /usr/local/cuda-*");
        CHECK_STR(t->version, "12.4.1");
        CHECK_STR(t->version_source, "version.json");
        CHECK(t->has_nvcc);
        CHECK(t->has_stub_libcuda);
    }
    t = tk_at(&rt, "/usr/local/cuda-12.2");
    CHECK(t && strcmp(t->version, "12.2.140") == 0 && strcmp(t->version_source, "libcudart file") == 0);
    t = tk_at(&rt, "/usr/local/cuda-11.8");
    CHECK(t && strcmp(t->version, "11.8.89") == 0 && strcmp(t->version_source, "version.txt") == 0);
    CHECK(t && !t->has_nvcc && !t->has_stub_libcuda);
    t = tk_at(&rt, "/opt/cuda13");
    CHECK(t && strcmp(t->version, "13.0") == 0 && strcmp(t->version_source, "cuda.h") == 0);
    CHECK(t && t->has_stub_libcuda && strcmp(t->found_as, "CUDA_PATH") == 0);
    t = tk_at(&rt, "/opt/wheel");
    CHECK(t && strcmp(t->version, "12.6.85") == 0 && strcmp(t->version_source, "dist-info") == 0);
    CHECK(t && strcmp(t->found_as, "nvcc on PATH") == 0 && t->has_nvcc);
    CHECK_STR(rt.nvcc_on_path, "/opt/wheel/bin/nvcc");
    CHECK_STR(rt.stubs_on_ld_path, "/usr/local/cuda/lib64/stubs");
    CHECK_I64(rt.ldcache_readable, CP_YES);

    /* the stray 12.1 wins for libcudart.so.12; the toolkit's copy is listed
     * once (through LD_LIBRARY_PATH) and does not load */
    const cp_cudart *c = rt_at(&rt, "/opt/other/lib/libcudart.so.12");
    CHECK(c && c->would_load && strcmp(c->found_by, "LD_LIBRARY_PATH") == 0);
    CHECK(c && c->major == 12 && c->minor == 1 && c->patch == 105);
    c = rt_at(&rt, "/usr/local/cuda/lib64/libcudart.so.12");
    CHECK(c && !c->would_load && c->major == 12 && c->minor == 4 && c->patch == 127);
    CHECK(rt_at(&rt, "/usr/local/cuda/lib64/libcudart.so.12.4.127") == NULL);
    CHECK(rt_at(&rt, "/usr/local/cuda-12.4/lib64/libcudart.so.12") == NULL);
    c = rt_at(&rt, "/usr/lib/x86_64-linux-gnu/libcudart.so.13");
    CHECK(c && c->would_load && strcmp(c->found_by, "ld.so.cache") == 0 && c->patch == 96);
    c = rt_at(&rt, "/usr/local/cuda-11.8/lib64/libcudart.so.11.0");
    CHECK(c && c->would_load && c->major == 11 && c->minor == 8 && c->patch == 89);
    int n12 = 0;
    for (int i = 0; i < rt.nrt; i++) {
        CHECK(rt.rt[i].path[0] == '/');
        n12 += rt.rt[i].major == 12 && rt.rt[i].would_load;
    }
    CHECK_I64(n12, 1);
    CHECK_I64(rt.nrt, 5);   /* + cuda-12.2's own */
    cp_fs_close(fs);
}

static void test_observe_empty_env(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    cp_fs *fs = cp_fs_open(root, false);
    if (!fs)
        return;
    memset(&h, 0, sizeof h);
    set_env(&h, "LD_LIBRARY_PATH", "/opt/badstub");
    CHECK_I64(cp_runtime_observe(fs, &h, &rt), 0);
    CHECK_I64(rt.ntk, 3);   /* /usr/local/cuda(-12.4), cuda-11.8, cuda-12.2 */
    CHECK_STR(rt.nvcc_on_path, "");
    CHECK_STR(rt.stubs_on_ld_path, "/opt/badstub");
    /* no LD_LIBRARY_PATH copy: the 12.4 toolkit's copy is not in the cache */
    const cp_cudart *c = rt_at(&rt, "/usr/local/cuda-12.4/lib64/libcudart.so.12");
    CHECK(c && !c->would_load && strcmp(c->found_by, "toolkit") == 0);
    CHECK_I64(cp_runtime_observe(NULL, &h, &rt), -EINVAL);
    cp_fs_close(fs);

    /* a root with nothing in it */
    char empty[300];
    snprintf(empty, sizeof empty, "%s/usr/local/cuda-11.8/bin", root);
    mkdir(empty, 0755);
    fs = cp_fs_open(empty, false);
    CHECK_I64(cp_runtime_observe(fs, &h, &rt), 0);
    CHECK_I64(rt.ntk, 0);
    CHECK_I64(rt.nrt, 0);
    CHECK_I64(rt.ldcache_readable, CP_NO);
    cp_fs_close(fs);
}

static void test_observe_link_loop(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    put_link("/loop/a", "/loop/b");
    put_link("/loop/b", "/loop/a");
    cp_fs *fs = cp_fs_open(root, false);
    if (!fs)
        return;
    memset(&h, 0, sizeof h);
    set_env(&h, "CUDA_HOME", "/loop/a");
    set_env(&h, "LD_LIBRARY_PATH", "/loop/a:/loop/../loop/b/x");
    CHECK_I64(cp_runtime_observe(fs, &h, &rt), 0);
    CHECK(tk_at(&rt, "/loop/a") == NULL);
    cp_fs_close(fs);
}

static void tree_env(cp_host_facts *h)
{
    memset(h, 0, sizeof *h);
    set_env(h, "CUDA_HOME", "/usr/local/cuda/");
    set_env(h, "CUDA_PATH", "/opt/cuda13");
    set_env(h, "PATH", "/opt/wheel/bin");
    set_env(h, "LD_LIBRARY_PATH", "/opt/other/lib:/usr/local/cuda/lib64:/opt/badstub");
}

/* A snapshot of what observe read must replay to the same facts. */
static void test_observe_replay(void)
{
    static cp_host_facts h;
    static cp_runtime_facts live, replay;
    char snap[300], err[256];
    tree_env(&h);
    cp_fs *fs = cp_fs_open(root, true);
    if (!fs)
        return;
    CHECK_I64(cp_runtime_observe(fs, &h, &live), 0);
    snprintf(snap, sizeof snap, "%s/snapshot", root);
    CHECK_I64(cp_fs_write_snapshot(fs, snap, err, sizeof err), 0);
    cp_fs_close(fs);
    fs = cp_fs_open(snap, false);
    if (!fs)
        return;
    CHECK_I64(cp_runtime_observe(fs, &h, &replay), 0);
    cp_fs_close(fs);
    CHECK_I64(replay.ntk, live.ntk);
    CHECK_I64(replay.nrt, live.nrt);
    CHECK(live.ntk == 5 && live.nrt >= 3);
    CHECK(memcmp(&live, &replay, sizeof live) == 0);
    for (int i = 0; i < live.ntk; i++) {
        CHECK_STR(replay.tk[i].path, live.tk[i].path);
        CHECK_STR(replay.tk[i].version, live.tk[i].version);
        CHECK_STR(replay.tk[i].found_as, live.tk[i].found_as);
        CHECK_I64(replay.tk[i].has_nvcc, live.tk[i].has_nvcc);
        CHECK_I64(replay.tk[i].has_stub_libcuda, live.tk[i].has_stub_libcuda);
    }
    for (int i = 0; i < live.nrt; i++) {
        CHECK_STR(replay.rt[i].path, live.rt[i].path);
        CHECK_I64(replay.rt[i].would_load, live.rt[i].would_load);
    }
    CHECK_STR(replay.stubs_on_ld_path, live.stubs_on_ld_path);
    CHECK_STR(replay.nvcc_on_path, live.nvcc_on_path);
    CHECK_I64(replay.ldcache_readable, live.ldcache_readable);
}

/* A read that fails at any point leaves a consistent, partial answer. */
static void test_observe_failing_reads(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    tree_env(&h);
    for (long n = 1; n < 12; n++) {
        cp_fs *fs = cp_fs_open(root, false);
        if (!fs)
            return;
        cp_fs_fail_read_at(fs, n);
        CHECK_I64(cp_runtime_observe(fs, &h, &rt), 0);
        CHECK(rt.ntk <= CP_MAX_TOOLKITS && rt.nrt <= CP_MAX_CUDARTS);
        for (int i = 0; i < rt.ntk; i++)
            CHECK(rt.tk[i].version[0] == '\0' || rt.tk[i].version_source[0] != '\0');
        cp_fs_close(fs);
    }
}

static void remove_tree(void)
{
    char cmd[300];
    if (strncmp(root, "/tmp/cuprobe-tk.", 16) != 0)
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", root);
}

/* ------------------------------------------------- other version texts */

static void test_version_txt_and_cuda_h(void)
{
    char v[32] = "untouched";
    static const char txt[] = "CUDA Version 11.0.228\n";
    CHECK_I64(cp_parse_version_txt(txt, strlen(txt), v, sizeof v), 0);
    CHECK_STR(v, "11.0.228");
    CHECK_I64(cp_parse_version_txt("CUDA Version 9.0.176.", 21, v, sizeof v), 0);
    CHECK_STR(v, "9.0.176");                     /* a sentence's full stop is not part of it */
    CHECK_I64(cp_parse_version_txt("CUDA Version x", 14, v, sizeof v), -1);
    CHECK_I64(cp_parse_version_txt("CUDA Version 11.0.228", 16, v, sizeof v), 0);
    CHECK_STR(v, "11");                          /* len is respected: "11." */
    char tiny[3];
    CHECK_I64(cp_parse_version_txt(txt, strlen(txt), tiny, sizeof tiny), 0);
    CHECK_STR(tiny, "11");
    CHECK_I64(cp_parse_version_txt(txt, strlen(txt), tiny, 0), -1);

    static const char h[] = "#define CUDA_VERSION_MINOR 9\n#define CUDA_VERSION\t13000\n";
    CHECK_I64(cp_parse_cuda_h(h, strlen(h), v, sizeof v), 0);
    CHECK_STR(v, "13.0");
    CHECK_I64(cp_parse_cuda_h("#define CUDA_VERSION 130", 24, v, sizeof v), -1);
    CHECK_I64(cp_parse_cuda_h("#define CUDA_VERSION 12080", 20, v, sizeof v), -1);
    CHECK_I64(cp_parse_cuda_h("", 0, v, sizeof v), -1);
}

/* The one dist-info name parser, as the toolkit, libraries and framework
 * layers read it. */
static void test_dist_info(void)
{
    cp_dist_info d;
    static const char a[] = "nvidia_cudnn_cu13-9.19.0.56.dist-info";
    CHECK_I64(cp_parse_dist_info(a, strlen(a), &d), 0);
    CHECK(cp_span_equals(d.name, "nvidia_cudnn_cu13"));
    CHECK(cp_span_equals(d.base, "nvidia_cudnn"));
    CHECK_I64(d.cuda_major, 13);
    CHECK(cp_span_equals(d.version, "9.19.0.56"));
    CHECK(cp_span_equals(d.release, "9.19.0.56"));
    static const char b[] = "torch-2.11.0+cu130.dist-info";
    CHECK_I64(cp_parse_dist_info(b, strlen(b), &d), 0);
    CHECK(cp_span_equals(d.name, "torch") && cp_span_equals(d.base, "torch"));
    CHECK_I64(d.cuda_major, CP_UNKNOWN);
    CHECK(cp_span_equals(d.version, "2.11.0+cu130"));
    CHECK(cp_span_equals(d.release, "2.11.0"));
    static const char c[] = "nvidia_nccl_cu13-2.28.9.post1.dist-info";
    CHECK_I64(cp_parse_dist_info(c, strlen(c), &d), 0);
    CHECK(cp_span_equals(d.release, "2.28.9"));
    static const char e[] = "nvidia_cuda_cupti-13.0.85.dist-info";   /* "_cupti" is no CUDA suffix */
    CHECK_I64(cp_parse_dist_info(e, strlen(e), &d), 0);
    CHECK(cp_span_equals(d.base, "nvidia_cuda_cupti"));
    CHECK_I64(d.cuda_major, CP_UNKNOWN);
    static const char f[] = "jax_cuda13_plugin-.dist-info";
    CHECK_I64(cp_parse_dist_info(f, strlen(f), &d), 0);
    CHECK(d.version.n == 0 && d.release.n == 0);
    static const char *const bad[] = {"torch", "torch.dist-info", "-1.0.dist-info", "torch-1.0.egg-info", ".dist-info"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_I64(cp_parse_dist_info(bad[i], strlen(bad[i]), &d), -1);
    CHECK_I64(cp_parse_dist_info("a-1\0.dist-info", 15, &d), -1);
}

int main(void)
{
    RUN(test_version_json_real);
    RUN(test_version_json_bad);
    RUN(test_version_json_deep);
    RUN(test_ldcache_crafted);
    RUN(test_ldcache_real);
    RUN(test_version_txt_and_cuda_h);
    RUN(test_dist_info);
    snprintf(root, sizeof root, "/tmp/cuprobe-tk.XXXXXX");
    if (!mkdtemp(root)) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        return TEST_END() | 1;
    }
    build_tree();
    RUN(test_observe_tree);
    RUN(test_observe_empty_env);
    RUN(test_observe_link_loop);
    RUN(test_observe_replay);
    RUN(test_observe_failing_reads);
    remove_tree();
    return TEST_END();
}
