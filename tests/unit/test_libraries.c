/* Unit tests for the libraries layer: the search for CUDA library copies
 * over a fake tree built under /tmp (toolkit, ld.so.cache, LD_LIBRARY_PATH,
 * Python wheels), its snapshot replay, the H200 fixture, and the three
 * libraries checks on built facts. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks/check.h"
#include "cuprobe/facts.h"
#include "host/host.h"
#include "installed/installed.h"
#include "installed/libraries.h"
#include "test.h"
#include "fake_tree.h"
#include "probe/probe.h"

/* ------------------------------------------------------------ fake tree */

static void put_elf(const char *rel)
{
    put_bytes(rel, "elf", 3);
}

/* A file plus its soname link beside it: "DIR", "libcublas.so.13", "13.1.0.3". */
static void put_lib(const char *dir, const char *soname, const char *ver)
{
    char file[512], link[512], name[128];
    /* the versioned name repeats the soname's major: libcublas.so.13.1.0.3 */
    const char *so = strstr(soname, ".so.");
    snprintf(name, sizeof name, "%.*s%s", (int)(so - soname) + 4, soname, ver);
    snprintf(file, sizeof file, "%s/%s", dir, name);
    snprintf(link, sizeof link, "%s/%s", dir, soname);
    put_elf(file);
    put_link(link, name);
}

static void put32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

#if defined(__aarch64__)
#define ABI_FLAGS 0x0a03
#else
#define ABI_FLAGS 0x0303
#endif

/* A "glibc-ld.so.cache1.1" image of n (soname, path) pairs; returns its length. */
static size_t build_cache(unsigned char *buf, size_t cap, const char *const (*e)[2], int n)
{
    memset(buf, 0, cap);
    memcpy(buf, "glibc-ld.so.cache1.1", 20);
    put32(buf + 20, (uint32_t)n);
    size_t str = 48 + 24 * (size_t)n, s0 = str;
    for (int i = 0; i < n; i++) {
        unsigned char *en = buf + 48 + 24 * (size_t)i;
        put32(en, ABI_FLAGS);
        for (int k = 0; k < 2; k++) {
            put32(en + 4 + 4 * k, (uint32_t)str);
            strcpy((char *)buf + str, e[i][k]);
            str += strlen(e[i][k]) + 1;
        }
    }
    put32(buf + 24, (uint32_t)(str - s0));
    return str;
}

#define TK "/usr/local/cuda-13.0/targets/x86_64-linux/lib"
#define SITE "/home/u/venv/lib/python3.12/site-packages"
#define DIST "/usr/lib/python3/dist-packages"
#define DISTRO "/usr/lib/x86_64-linux-gnu"

static void build_tree(void)
{
    static unsigned char cache[4096];
    static const char *const ce[][2] = {
        {"libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so.13"},
        {"libcufft.so.12", "/usr/local/cuda/lib64/libcufft.so.12"},
        {"libnccl.so.2", DISTRO "/libnccl.so.2"},
        {"libcudnn.so.9", DISTRO "/libcudnn.so.9"},
        {"libcudnn_ops.so.9", DISTRO "/libcudnn_ops.so.9"},
        {"libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6"},
    };
    /* a CUDA 13.0 toolkit, runfile layout */
    put_bytes("/usr/local/cuda-13.0/version.json", "{\"cuda\":{\"version\":\"13.0.2\"}}", 29);
    put_lib(TK, "libcublas.so.13", "13.1.0.3");
    put_lib(TK, "libcublasLt.so.13", "13.1.0.3");
    put_link(TK "/libcublas.so", "libcublas.so.13");
    put_lib(TK, "libcufft.so.12", "12.0.0.61");
    put_lib(TK, "libnccl.so.2", "2.28.9");
    put_elf(TK "/libcupti.so.2025.3.1");
    put_link(TK "/libcupti.so.13", "libcupti.so.2025.3.1");
    put_elf(TK "/libcudnn_ops.so.9");
    put_elf(TK "/libcublas_static.a");
    put_link("/usr/local/cuda-13.0/lib64", "targets/x86_64-linux/lib");
    put_link("/usr/local/cuda", "cuda-13.0");
    /* the distribution's NCCL and cuDNN, through ld.so.cache */
    put_lib(DISTRO, "libnccl.so.2", "2.27.3");
    put_lib(DISTRO, "libcudnn.so.9", "9.10.2");
    put_lib(DISTRO, "libcudnn_ops.so.9", "9.10.2");
    put_bytes("/etc/ld.so.cache", cache, build_cache(cache, sizeof cache, ce, 6));
    /* older copies that LD_LIBRARY_PATH puts first */
    put_lib("/opt/old/lib", "libcublas.so.13", "13.0.0.19");
    put_lib("/opt/old/lib", "libcudnn.so.9", "9.8.0");
    /* a venv with CUDA 13 wheels: real files named by soname, versions in dist-info */
    put_elf("/usr/bin/python3.12");
    put_link("/home/u/venv/bin/python3", "/usr/bin/python3.12");
    put_elf(SITE "/nvidia/cu13/lib/libcublas.so.13");
    put_elf(SITE "/nvidia/cu13/lib/libcublasLt.so.13");
    put_elf(SITE "/nvidia/cu13/lib/libcufft.so.12");
    put_elf(SITE "/nvidia/cu13/lib/libnvrtc.so.13");
    put_elf(SITE "/nvidia/cu13/lib/libnvrtc-builtins.so.13.0");
    put_elf(SITE "/nvidia/cudnn/lib/libcudnn.so.9");
    put_elf(SITE "/nvidia/cudnn/lib/libcudnn_graph.so.9");
    put_elf(SITE "/nvidia/nccl/lib/libnccl.so.2");
    put_elf(SITE "/nvidia/cu13/include/cublas.h");
    put_dir(SITE "/nvidia_cublas-13.1.0.3.dist-info");
    put_dir(SITE "/nvidia_cublas_cu12-12.9.1.4.dist-info");   /* a stale CUDA 12 wheel */
    put_dir(SITE "/nvidia_cublasmp_cu13-0.6.0.dist-info");     /* another package */
    put_dir(SITE "/nvidia_cufft-12.0.0.61.dist-info");
    put_dir(SITE "/nvidia_cuda_nvrtc-13.0.88.dist-info");
    put_dir(SITE "/nvidia_cudnn_cu13-9.19.0.56.dist-info");
    put_dir(SITE "/nvidia_nccl_cu13-2.28.9.dist-info");
    put_dir(SITE "/torch");
    /* CUDA 12 wheels of the system Python: one folder per library */
    put_elf(DIST "/nvidia/cublas/lib/libcublas.so.12");
    put_elf(DIST "/nvidia/cufft/lib/libcufft.so.11");
    put_dir(DIST "/nvidia_cublas_cu12-12.4.5.8.dist-info");
    put_dir(DIST "/nvidia_cufft_cu12-11.2.1.3.dist-info");
}

static void tree_env(cp_host_facts *h)
{
    memset(h, 0, sizeof *h);
    set_env(h, "LD_LIBRARY_PATH", "relative:/opt/old/lib:/nowhere");
    set_env(h, "VIRTUAL_ENV", "/home/u/venv");
    set_env(h, "PATH", "/home/u/venv/bin:/usr/bin");
}

static const cp_library *lib_at(const cp_libraries_facts *L, const char *path)
{
    for (int i = 0; i < L->nlib; i++)
        if (strcmp(L->lib[i].path, path) == 0)
            return &L->lib[i];
    fprintf(stderr, "  no library at %s\n", path);
    return NULL;
}

/* Check one copy: found_by, soname, version (and its source), CUDA major, would_load. */
static void expect(const cp_libraries_facts *L, const char *path, const char *found_by, const char *soname,
                   const char *version, const char *source, int64_t major, bool loads)
{
    const cp_library *l = lib_at(L, path);
    CHECK(l != NULL);
    if (!l)
        return;
    CHECK_STR(l->found_by, found_by);
    CHECK_STR(l->soname, soname);
    CHECK_STR(l->version, version);
    CHECK_STR(l->version_source, source);
    CHECK_I64(l->cuda_major, major);
    CHECK_I64(l->would_load, loads);
}

static int observe(const char *at, bool record, const cp_host_facts *h, cp_runtime_facts *rt,
                   cp_libraries_facts *L, cp_fs **keep)
{
    cp_fs *fs = cp_fs_open(at, record);
    if (!fs)
        return -ENOMEM;
    static cp_pyenv py;
    int rc = cp_runtime_observe(fs, h, rt);
    cp_pyenv_find(fs, h, NULL, &py);
    if (rc == 0)
        rc = cp_libraries_observe(fs, h, rt, &py, L);
    if (keep)
        *keep = fs;
    else
        cp_fs_close(fs);
    return rc;
}

static void test_observe_tree(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    static cp_libraries_facts L;
    tree_env(&h);
    CHECK_I64(observe(root, false, &h, &rt, &L, NULL), 0);
    CHECK_I64(L.nlib, 17);
    CHECK_I64(L.nlib_total, 17);
    /* LD_LIBRARY_PATH's old cuBLAS wins over the toolkit's, which the cache names */
    expect(&L, "/opt/old/lib/libcublas.so.13.0.0.19", "LD_LIBRARY_PATH", "libcublas.so.13", "13.0.0.19",
           "file name", 13, true);
    expect(&L, TK "/libcublas.so.13.1.0.3", "ld.so.cache", "libcublas.so.13", "13.1.0.3", "file name", 13, false);
    expect(&L, TK "/libcublasLt.so.13.1.0.3", "toolkit", "libcublasLt.so.13", "13.1.0.3", "file name", 13, false);
    /* cuFFT keeps soname 12 in CUDA 13: its CUDA major is the toolkit's */
    expect(&L, TK "/libcufft.so.12.0.0.61", "ld.so.cache", "libcufft.so.12", "12.0.0.61", "file name", 13, true);
    expect(&L, TK "/libnccl.so.2.28.9", "toolkit", "libnccl.so.2", "2.28.9", "file name", 13, false);
    /* CUPTI's file carries a year; the soname link beside it names CUDA 13 */
    expect(&L, TK "/libcupti.so.2025.3.1", "toolkit", "libcupti.so.13", "2025.3.1", "file name", 13, false);
    expect(&L, DISTRO "/libnccl.so.2.27.3", "ld.so.cache", "libnccl.so.2", "2.27.3", "file name", CP_UNKNOWN, true);
    expect(&L, DISTRO "/libcudnn.so.9.10.2", "ld.so.cache", "libcudnn.so.9", "9.10.2", "file name", CP_UNKNOWN,
           false);
    expect(&L, "/opt/old/lib/libcudnn.so.9.8.0", "LD_LIBRARY_PATH", "libcudnn.so.9", "9.8.0", "file name",
           CP_UNKNOWN, true);
    /* wheels: versions from dist-info (the _cu12 one is not this copy's), never what the loader picks */
    expect(&L, SITE "/nvidia/cu13/lib/libcublas.so.13", "wheel", "libcublas.so.13", "13.1.0.3", "dist-info", 13,
           false);
    expect(&L, SITE "/nvidia/cu13/lib/libcublasLt.so.13", "wheel", "libcublasLt.so.13", "13.1.0.3", "dist-info",
           13, false);
    expect(&L, SITE "/nvidia/cu13/lib/libcufft.so.12", "wheel", "libcufft.so.12", "12.0.0.61", "dist-info", 13,
           false);
    expect(&L, SITE "/nvidia/cu13/lib/libnvrtc.so.13", "wheel", "libnvrtc.so.13", "13.0.88", "dist-info", 13, false);
    expect(&L, SITE "/nvidia/cudnn/lib/libcudnn.so.9", "wheel", "libcudnn.so.9", "9.19.0.56", "dist-info", 13,
           false);
    expect(&L, SITE "/nvidia/nccl/lib/libnccl.so.2", "wheel", "libnccl.so.2", "2.28.9", "dist-info", 13, false);
    expect(&L, DIST "/nvidia/cublas/lib/libcublas.so.12", "wheel", "libcublas.so.12", "12.4.5.8", "dist-info", 12,
           false);
    expect(&L, DIST "/nvidia/cufft/lib/libcufft.so.11", "wheel", "libcufft.so.11", "11.2.1.3", "dist-info", 12,
           false);
    for (int i = 0; i < L.nlib; i++) {
        CHECK(strstr(L.lib[i].path, "_ops") == NULL && strstr(L.lib[i].path, "builtins") == NULL);
        CHECK(strstr(L.lib[i].path, "/usr/local/cuda/") == NULL);   /* links resolved */
    }
    CHECK_I64(cp_libraries_observe(NULL, &h, &rt, NULL, &L), -EINVAL);
}

/* Nothing set, nothing found: every slot still unknown. */
static void test_observe_empty(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    static cp_libraries_facts L;
    char empty[300];
    snprintf(empty, sizeof empty, "%s/empty", root);
    mkdir(empty, 0755);
    memset(&h, 0, sizeof h);
    CHECK_I64(observe(empty, false, &h, &rt, &L, NULL), 0);
    CHECK_I64(L.nlib, 0);
    CHECK_I64(L.nlib_total, 0);
    CHECK_I64(L.lib[0].cuda_major, CP_UNKNOWN);
    CHECK_I64(L.lib[CP_MAX_LIBS - 1].cuda_major, CP_UNKNOWN);
    /* without LD_LIBRARY_PATH the cache decides, and no venv is searched */
    memset(&h, 0, sizeof h);
    CHECK_I64(observe(root, false, &h, &rt, &L, NULL), 0);
    const cp_library *l = lib_at(&L, TK "/libcublas.so.13.1.0.3");
    CHECK(l && l->would_load);
    l = lib_at(&L, DISTRO "/libcudnn.so.9.10.2");
    CHECK(l && l->would_load);
    for (int i = 0; i < L.nlib; i++)
        CHECK(strncmp(L.lib[i].path, "/home/u/", 8) != 0);
}

/* A snapshot of what observe read must replay to the same facts. */
static void test_observe_replay(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt, rt2;
    static cp_libraries_facts live, replay;
    char snap[300], err[256];
    cp_fs *fs = NULL;
    tree_env(&h);
    CHECK_I64(observe(root, true, &h, &rt, &live, &fs), 0);
    if (!fs)
        return;
    snprintf(snap, sizeof snap, "%s/snapshot", root);
    CHECK_I64(cp_fs_write_snapshot(fs, snap, err, sizeof err), 0);
    cp_fs_close(fs);
    CHECK_I64(observe(snap, false, &h, &rt2, &replay, NULL), 0);
    CHECK_I64(replay.nlib, live.nlib);
    CHECK(live.nlib == 17);
    for (int i = 0; i < live.nlib && i < replay.nlib; i++) {
        CHECK_STR(replay.lib[i].path, live.lib[i].path);
        CHECK_STR(replay.lib[i].version, live.lib[i].version);
        CHECK_I64(replay.lib[i].would_load, live.lib[i].would_load);
    }
    CHECK(memcmp(&live, &replay, sizeof live) == 0);
}

/* More copies than CP_MAX_LIBS: the first are kept, all are counted once. */
static void test_observe_many(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    static cp_libraries_facts L;
    char rel[128], at[300];
    for (int i = 0; i < CP_MAX_LIBS + 10; i++) {
        snprintf(rel, sizeof rel, "/many/lib/libcurand.so.10.%d", i);
        put_elf(rel);
    }
    snprintf(at, sizeof at, "%s/many", root);
    memset(&h, 0, sizeof h);
    set_env(&h, "LD_LIBRARY_PATH", "/lib:/lib/");   /* listed twice, counted once */
    CHECK_I64(observe(at, false, &h, &rt, &L, NULL), 0);
    CHECK_I64(L.nlib, CP_MAX_LIBS);
    CHECK_I64(L.nlib_total, CP_MAX_LIBS + 10);
    CHECK_I64(L.lib[CP_MAX_LIBS - 1].cuda_major, CP_UNKNOWN);
}

/* A read that fails at any point leaves a consistent, partial answer. */
static void test_observe_failing_reads(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    static cp_libraries_facts L;
    tree_env(&h);
    for (long n = 1; n < 8; n++) {
        cp_fs *fs = cp_fs_open(root, false);
        if (!fs)
            return;
        cp_fs_fail_read_at(fs, n);
        static cp_pyenv py;
        CHECK_I64(cp_runtime_observe(fs, &h, &rt), 0);
        cp_pyenv_find(fs, &h, NULL, &py);
        CHECK_I64(cp_libraries_observe(fs, &h, &rt, &py, &L), 0);
        CHECK(L.nlib >= 2 && L.nlib <= 17);
        for (int i = 0; i < L.nlib; i++)
            CHECK(L.lib[i].path[0] == '/' && L.lib[i].soname[0] == 'l');
        cp_fs_close(fs);
    }
}

/* The captured H200 machine: a CUDA 13.0 toolkit named by ld.so.cache. */
static void test_fixture_h200(void)
{
    static cp_host_facts h;
    static cp_runtime_facts rt;
    static cp_libraries_facts L;
    const char *fx = "tests/fixtures/h200-snap/root";
    if (access(fx, F_OK) != 0) {
        fprintf(stderr, "  skip: %s not found (run from the repository root)\n", fx);
        return;
    }
    memset(&h, 0, sizeof h);
    set_env(&h, "LD_LIBRARY_PATH", "/usr/local/nvidia/lib64:/usr/local/nvidia/lib");
    set_env(&h, "PATH", "/opt/torch/.venv/bin:/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/bin");
    CHECK_I64(observe(fx, false, &h, &rt, &L, NULL), 0);
#define FX "/usr/local/cuda-13.0/targets/x86_64-linux/lib"
    expect(&L, FX "/libcublas.so.13.1.0.3", "ld.so.cache", "libcublas.so.13", "13.1.0.3", "file name", 13, true);
    expect(&L, FX "/libcufft.so.12.0.0.61", "ld.so.cache", "libcufft.so.12", "12.0.0.61", "file name", 13, true);
    expect(&L, FX "/libcurand.so.10.4.0.35", "ld.so.cache", "libcurand.so.10", "10.4.0.35", "file name", 13, true);
    expect(&L, FX "/libcupti.so.2025.3.1", "ld.so.cache", "libcupti.so.13", "2025.3.1", "file name", 13, true);
    expect(&L, FX "/libnvJitLink.so.13.0.88", "ld.so.cache", "libnvJitLink.so.13", "13.0.88", "file name", 13,
           true);
#undef FX
    /* every toolkit copy knows its CUDA major; distribution packages
     * (/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0) may not say */
    for (int i = 0; i < L.nlib; i++)
        if (strncmp(L.lib[i].path, "/usr/local/cuda-13.0/", 21) == 0)
            CHECK(CP_KNOWN(L.lib[i].cuda_major));
    /* the CUDA release of each copy, whatever its own numbers: the toolkit's
     * CUPTI (2025.3.1) and the wheel's (dist-info 13.0.85) are both 13.0 */
    int cupti = 0;
    for (int i = 0; i < L.nlib; i++) {
        if (strcmp(L.lib[i].name, "cupti") != 0)
            continue;
        cupti++;
        CHECK_STR(L.lib[i].cuda_release, "13.0");
    }
    CHECK_I64(cupti, 2);
}

/* ---------------------------------------------------------------- checks */

static cp_library *add(cp_facts *f, const char *name, const char *soname, const char *path, const char *by,
                       const char *ver, int64_t major, bool loads)
{
    cp_library *l = &f->libraries.lib[f->libraries.nlib++];
    f->libraries.nlib_total++;
    snprintf(l->name, sizeof l->name, "%s", name);
    snprintf(l->soname, sizeof l->soname, "%s", soname);
    snprintf(l->path, sizeof l->path, "%s", path);
    snprintf(l->found_by, sizeof l->found_by, "%s", by);
    snprintf(l->version, sizeof l->version, "%s", ver);
    l->cuda_major = major;
    l->would_load = loads;
    return l;
}

static void base_facts(cp_facts *f)
{
    cp_facts_init(f);
    f->runtime.ntk = 1;
    snprintf(f->runtime.tk[0].path, sizeof f->runtime.tk[0].path, "/usr/local/cuda-13.0");
    add(f, "cublas", "libcublas.so.13", TK "/libcublas.so.13.1.0.3", "ld.so.cache", "13.1.0.3", 13, true);
    add(f, "cudnn", "libcudnn.so.9", SITE "/nvidia/cudnn/lib/libcudnn.so.9", "wheel", "9.19.0.56", 13, false);
}

static void run_check(void (*fn)(const cp_facts *, cp_finding *), const cp_facts *f, cp_finding *o)
{
    memset(o, 0, sizeof *o);
    fn(f, o);
    if (o->status == CP_WARN || o->status == CP_FAIL)
        CHECK(o->fix[0] != '\0');
    CHECK(o->summary[0] && !(o->summary[0] >= 'A' && o->summary[0] <= 'Z'));
    size_t n = strlen(o->summary);
    CHECK(n > 0 && o->summary[n - 1] != '.');
}

static void test_check_found(void)
{
    static cp_facts f;
    static cp_finding o;
    cp_facts_init(&f);
    run_check(cp_check_libraries_found, &f, &o);
    CHECK_I64(o.status, CP_SKIP);
    CHECK_STR(o.summary, "no CUDA library on the loader path or in Python wheels");
    base_facts(&f);
    add(&f, "cublas", "libcublas.so.13", SITE "/nvidia/cu13/lib/libcublas.so.13", "wheel", "13.1.0.3", 13, false);
    run_check(cp_check_libraries_found, &f, &o);
    CHECK_I64(o.status, CP_PASS);
    CHECK(strstr(o.evidence, "cublas 13.1.0.3 " TK "/libcublas.so.13.1.0.3 (ld.so.cache, the one programs get)"));
    CHECK(strstr(o.evidence, "cudnn 9.19.0.56 ") && strstr(o.evidence, "RUNPATH"));
    CHECK(strstr(o.evidence, "1 other copy"));
}

static void test_check_driver(void)
{
    static cp_facts f;
    static cp_finding o;
    base_facts(&f);
    run_check(cp_check_libraries_driver, &f, &o);
    CHECK_I64(o.status, CP_SKIP);   /* no driver answer */
    f.nvml.cuda_driver_version = 12020;
    run_check(cp_check_libraries_driver, &f, &o);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(strstr(o.evidence, "libcublas.so.13 (CUDA 13) needs a driver for CUDA 13; this driver supports CUDA 12.2"));
    CHECK(strstr(o.summary, "2 CUDA libraries built for CUDA 13"));
    CHECK(strstr(o.fix, "580"));
    f.cuda.driver_version = 13000;   /* cuDriverGetVersion wins over NVML */
    run_check(cp_check_libraries_driver, &f, &o);
    CHECK_I64(o.status, CP_PASS);
    for (int i = 0; i < f.libraries.nlib; i++)
        f.libraries.lib[i].cuda_major = CP_UNKNOWN;
    run_check(cp_check_libraries_driver, &f, &o);
    CHECK_I64(o.status, CP_SKIP);
}

static void test_check_shadow(void)
{
    static cp_facts f;
    static cp_finding o;
    cp_facts_init(&f);
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_SKIP);
    /* the same release twice (file name vs dist-info precision) is no shadow */
    base_facts(&f);
    add(&f, "cudnn", "libcudnn.so.9", "/opt/old/lib/libcudnn.so.9.19.0", "LD_LIBRARY_PATH", "9.19.0", CP_UNKNOWN, true);
    add(&f, "cublas", "libcublas.so.13", "/usr/local/cuda-13.1/lib64/libcublas.so.13.2.0.1", "toolkit", "13.2.0.1",
        13, false);   /* another toolkit's copy: not what programs expect here */
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_PASS);
    /* an older LD_LIBRARY_PATH cuDNN overrides the wheel torch would load */
    snprintf(f.libraries.lib[2].version, sizeof f.libraries.lib[2].version, "9.8.0");
    snprintf(f.libraries.lib[2].path, sizeof f.libraries.lib[2].path, "/opt/old/lib/libcudnn.so.9.8.0");
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_WARN);
    CHECK(strstr(o.summary, "'libcudnn.so.9' 9.8.0 from LD_LIBRARY_PATH hides version 9.19.0.56 in a Python wheel"));
    CHECK(strstr(o.evidence, "RUNPATH"));
    CHECK(strstr(o.fix, "/opt/old/lib/libcudnn.so.9.8.0") && strstr(o.fix, "LD_LIBRARY_PATH"));
    /* two ld.so.cache entries of one soname: the second is hidden; wheels are not */
    base_facts(&f);
    add(&f, "cublas", "libcublas.so.13", DISTRO "/libcublas.so.13.0.0.19", "ld.so.cache", "13.0.0.19", 13, false);
    add(&f, "cudnn", "libcudnn.so.9", DISTRO "/libcudnn.so.9.10.2", "ld.so.cache", "9.10.2", CP_UNKNOWN, true);
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_WARN);
    CHECK(strstr(o.summary, "'libcublas.so.13' 13.1.0.3 from ld.so.cache hides version 13.0.0.19 in ld.so.cache"));
    CHECK(strstr(o.evidence, "it hides the older 13.0.0.19"));
    CHECK(strstr(o.fix, "ldconfig"));
}

/* The checks on the observed tree: LD_LIBRARY_PATH shadows, CUDA 13 on a 12.2 driver. */
static void test_checks_on_tree(void)
{
    static cp_facts f;
    static cp_finding o;
    static cp_host_facts h;
    cp_facts_init(&f);
    tree_env(&h);
    CHECK_I64(observe(root, false, &h, &f.runtime, &f.libraries, NULL), 0);
    run_check(cp_check_libraries_found, &f, &o);
    CHECK_I64(o.status, CP_PASS);
    CHECK(strstr(o.evidence, "nvrtc 13.0.88 " SITE "/nvidia/cu13/lib/libnvrtc.so.13 (wheel"));
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_WARN);
    CHECK(strstr(o.summary, "5 copies"));
    f.cuda.driver_version = 12020;
    run_check(cp_check_libraries_driver, &f, &o);
    CHECK_I64(o.status, CP_FAIL);
}

/* The libraries probe dlopens what programs and frameworks get; the load
 * check turns a copy that does not load into a failure. */
static void test_probe_and_load_check(void)
{
    static cp_facts f;
    cp_facts_init(&f);
    /* a real shared object (libc's math library) stands in for a CUDA library */
    cp_library *ok = add(&f, "curand", "libcurand.so.10", "libm.so.6", "ld.so.cache", "", 13, true);
    cp_library *bad = add(&f, "cublas", "libcublas.so.13", "/nonexistent/libcublas.so.13", "LD_LIBRARY_PATH",
                          "13.1.0.3", 13, true);
    cp_library *wheel = add(&f, "nccl", "libnccl.so.2", "/nonexistent/wheel/libnccl.so.2", "wheel", "", 13, false);
    cp_library *idle = add(&f, "cufft", "libcufft.so.12", "/nonexistent/idle/libcufft.so.12", "toolkit", "", 13, false);
    cp_libs_probe_fill(&f.libraries);
    CHECK_I64(ok->loads, CP_YES);
    CHECK_STR(ok->version_call, "");            /* libm has no curandGetProperty */
    CHECK_I64(bad->loads, CP_NO);
    CHECK(strstr(bad->load_error, "libcublas.so.13") != NULL);
    CHECK_I64(wheel->loads, CP_NO);             /* wheels are tried: frameworks load them */
    CHECK_I64(idle->loads, CP_TRI_UNKNOWN);     /* nobody loads it by default: not tried */

    cp_finding o;
    memset(&o, 0, sizeof o);
    cp_check_libraries_load(&f, &o);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(strstr(o.summary, "libcublas.so.13") != NULL && o.fix[0]);
    bad->loads = wheel->loads = CP_YES;
    memset(&o, 0, sizeof o);
    cp_check_libraries_load(&f, &o);
    CHECK_I64(o.status, CP_PASS);
    for (int i = 0; i < f.libraries.nlib; i++) f.libraries.lib[i].loads = CP_TRI_UNKNOWN;
    memset(&o, 0, sizeof o);
    cp_check_libraries_load(&f, &o);
    CHECK_I64(o.status, CP_SKIP);
}

/* libraries.load says why nothing was loaded: which condition stopped the
 * probe on this machine, or that a snapshot carries no load answers. */
static void test_load_skip_words(void)
{
    CHECK(cp_libraries_load_skip(false, true, true, true) == NULL);
    CHECK_STR(cp_libraries_load_skip(true, true, false, true), CP_LIBS_LOAD_NOT_HERE);
    CHECK_STR(cp_libraries_load_skip(false, false, true, true), CP_LIBS_LOAD_NOT_HERE);   /* --root */
    const char *nogpu = cp_libraries_load_skip(false, true, true, false);
    CHECK(nogpu && strstr(nogpu, "no NVIDIA GPU"));
    static cp_facts f;
    cp_finding o;
    base_facts(&f);
    snprintf(f.origin, sizeof f.origin, "live");
    snprintf(f.libraries.load_skip, sizeof f.libraries.load_skip, "%s", nogpu ? nogpu : "");
    run_check(cp_check_libraries_load, &f, &o);
    CHECK_I64(o.status, CP_SKIP);
    CHECK(strstr(o.summary, "this machine shows no NVIDIA GPU") != NULL);
    CHECK(strstr(o.summary, "snapshot") == NULL);
    f.libraries.load_skip[0] = '\0';          /* the probe ran here and said nothing */
    run_check(cp_check_libraries_load, &f, &o);
    CHECK(strstr(o.summary, "the load probe gave no answer") != NULL);
    snprintf(f.origin, sizeof f.origin, "/tmp/snap");   /* an old snapshot without load answers */
    run_check(cp_check_libraries_load, &f, &o);
    CHECK_STR(o.summary, CP_LIBS_LOAD_NOT_HERE);
}

/* One CUPTI in two numbering schemes (a wheel's dist-info 13.0.85, the
 * toolkit's file 2025.3.1) is one release; another CUDA release is a shadow. */
static void test_check_shadow_schemes(void)
{
    static cp_facts f;
    static cp_finding o;
    cp_facts_init(&f);
    cp_library *w = add(&f, "cupti", "libcupti.so.13", SITE "/nvidia/cu13/lib/libcupti.so.13", "LD_LIBRARY_PATH",
                        "13.0.85", 13, true);
    cp_library *t = add(&f, "cupti", "libcupti.so.13", TK "/libcupti.so.2025.3.1", "ld.so.cache", "2025.3.1", 13, false);
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_PASS);              /* releases unknown: cannot tell, no shadow */
    snprintf(w->cuda_release, sizeof w->cuda_release, "13.0");
    snprintf(t->cuda_release, sizeof t->cuda_release, "13.0");
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_PASS);
    snprintf(w->cuda_release, sizeof w->cuda_release, "13.1");
    snprintf(w->version, sizeof w->version, "13.1.80");
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_WARN);
    CHECK(strstr(o.summary, "'libcupti.so.13' 13.1.80 from LD_LIBRARY_PATH hides version 2025.3.1") != NULL);
    /* one scheme on both sides compares the versions themselves */
    snprintf(w->version, sizeof w->version, "2025.1.0");
    snprintf(w->cuda_release, sizeof w->cuda_release, "13.0");
    run_check(cp_check_libraries_shadow, &f, &o);
    CHECK_I64(o.status, CP_WARN);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/cuprobe-libs-XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    build_tree();
    RUN(test_observe_tree);
    RUN(test_observe_empty);
    RUN(test_observe_replay);
    RUN(test_observe_many);
    RUN(test_observe_failing_reads);
    RUN(test_fixture_h200);
    RUN(test_check_found);
    RUN(test_check_driver);
    RUN(test_check_shadow);
    RUN(test_checks_on_tree);
    RUN(test_probe_and_load_check);
    RUN(test_load_skip_words);
    RUN(test_check_shadow_schemes);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", root);
    return TEST_END();
}
