/* Which copy of each CUDA library a framework gets (fwlibs.c) and the
 * framework.libs check, on a fake environment holding a real ELF that
 * needs libcublas.so.13 and libcudnn.so.9 through a wheel-style RUNPATH. */
#include "test.h"
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "checks/check.h"
#include "checks/framework_checks.h"
#include "installed/frameworks.h"

#define SAMPLE "tests/fatbin-samples/fakefw/libtorch_cuda.so"
#define SP "/venv/lib/python3.12/site-packages"

static char root[] = "/tmp/cuprobe-fwlibs-XXXXXX";

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(p);
}

static void put(const char *path, const char *from)
{
    char full[600], cmd[1400];
    snprintf(full, sizeof full, "%s%s", root, path);
    if (from) snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", full, from, full);
    else snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && echo elf > '%s'", full, full);
    CHECK(system(cmd) == 0);
}

static void setup(cp_facts *f, const char *llp)
{
    cp_facts_init(f);
    f->frameworks.nfw = 1;
    cp_framework *t = &f->frameworks.fw[0];
    snprintf(t->name, sizeof t->name, "torch");
    snprintf(t->gpu_lib, sizeof t->gpu_lib, "%s/torch/lib/libtorch_cuda.so", SP);
    if (llp) {
        f->host.nenv = 1;
        snprintf(f->host.env[0].name, sizeof f->host.env[0].name, "LD_LIBRARY_PATH");
        snprintf(f->host.env[0].value, sizeof f->host.env[0].value, "%s", llp);
    }
}

static cp_status judge(cp_facts *f, char *summary, size_t cap)
{
    cp_finding o;
    memset(&o, 0, sizeof o);
    cp_check_framework_libs(f, &o);
    snprintf(summary, cap, "%s", o.summary);
    if (o.status == CP_WARN || o.status == CP_FAIL) CHECK(o.fix[0] != '\0');
    return o.status;
}

static void test_wheels_resolve(void)
{
    static cp_facts f;
    char s[256];
    setup(&f, NULL);
    cp_fs *fs = cp_fs_open(root, false);
    cp_frameworks_resolve_libs(fs, &f.host, &f.libraries, &f.frameworks);
    const cp_framework *t = &f.frameworks.fw[0];
    CHECK_I64(t->nlibs, 2);
    CHECK_STR(t->libs[0].soname, "libcublas.so.13");
    CHECK_STR(t->libs[0].via, "RUNPATH");
    CHECK_STR(t->libs[0].path, SP "/nvidia/cublas/lib/libcublas.so.13");
    CHECK_STR(t->libs[1].soname, "libcudnn.so.9");
    CHECK_STR(t->libs[1].via, "RUNPATH");
    CHECK_I64(judge(&f, s, sizeof s), CP_PASS);
    cp_fs_close(fs);
}

static void test_ld_library_path_hides_the_wheel(void)
{
    static cp_facts f;
    char s[256];
    setup(&f, "/nowhere:/opt/old");
    cp_fs *fs = cp_fs_open(root, false);
    cp_frameworks_resolve_libs(fs, &f.host, &f.libraries, &f.frameworks);
    const cp_fw_lib *l = &f.frameworks.fw[0].libs[0];
    CHECK_STR(l->via, "LD_LIBRARY_PATH");
    CHECK_STR(l->path, "/opt/old/libcublas.so.13");
    CHECK_STR(l->runpath_copy, SP "/nvidia/cublas/lib/libcublas.so.13");
    CHECK_I64(judge(&f, s, sizeof s), CP_WARN);
    CHECK_STR(s, "LD_LIBRARY_PATH hides the libcublas.so.13 that torch was built with");
    cp_fs_close(fs);
}

static void test_missing_library(void)
{
    static cp_facts f;
    char s[256], p[600];
    snprintf(p, sizeof p, "%s" SP "/nvidia/cudnn/lib/libcudnn.so.9", root);
    CHECK(unlink(p) == 0);
    setup(&f, NULL);
    cp_fs *fs = cp_fs_open(root, false);
    cp_frameworks_resolve_libs(fs, &f.host, &f.libraries, &f.frameworks);
    CHECK_STR(f.frameworks.fw[0].libs[1].path, "");
    CHECK_I64(judge(&f, s, sizeof s), CP_FAIL);
    CHECK_STR(s, "torch needs libcudnn.so.9 and the loader cannot find it");
    /* the loader cache has one: that copy is taken */
    f.libraries.nlib = 1;
    cp_library *c = &f.libraries.lib[0];
    snprintf(c->soname, sizeof c->soname, "libcudnn.so.9");
    snprintf(c->path, sizeof c->path, "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0");
    snprintf(c->found_by, sizeof c->found_by, "ld.so.cache");
    c->would_load = true;
    cp_frameworks_resolve_libs(fs, &f.host, &f.libraries, &f.frameworks);
    CHECK_STR(f.frameworks.fw[0].libs[1].via, "ld.so.cache");
    CHECK_I64(judge(&f, s, sizeof s), CP_PASS);
    cp_fs_close(fs);
}

static void test_unreadable_lib(void)
{
    static cp_facts f;
    char s[256];
    setup(&f, NULL);
    snprintf(f.frameworks.fw[0].gpu_lib, sizeof f.frameworks.fw[0].gpu_lib, "/nonexistent/libtorch_cuda.so");
    cp_fs *fs = cp_fs_open(root, false);
    cp_frameworks_resolve_libs(fs, &f.host, &f.libraries, &f.frameworks);
    CHECK_I64(f.frameworks.fw[0].nlibs, 0);
    CHECK_I64(judge(&f, s, sizeof s), CP_SKIP);
    cp_fs_close(fs);
}

int main(void)
{
    if (access(SAMPLE, R_OK) != 0 || !mkdtemp(root)) {
        printf("skip: %s not found (run from the repository root)\n0 passed, 0 failed\n", SAMPLE);
        return 0;
    }
    put(SP "/torch/lib/libtorch_cuda.so", SAMPLE);
    put(SP "/nvidia/cublas/lib/libcublas.so.13", NULL);
    put(SP "/nvidia/cudnn/lib/libcudnn.so.9", NULL);
    put("/opt/old/libcublas.so.13", NULL);
    RUN(test_wheels_resolve);
    RUN(test_ld_library_path_hides_the_wheel);
    RUN(test_missing_library);
    RUN(test_unreadable_lib);
    nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return TEST_END();
}
