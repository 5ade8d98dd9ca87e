/* Unit tests for the framework layer: finding PyTorch, JAX, CuPy and
 * TensorFlow in fake Python environments under /tmp, and the four
 * framework checks on built facts. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks/check.h"
#include "checks/check.h"
#include "checks/framework_checks.h"
#include "cuprobe/facts.h"
#include "installed/frameworks.h"
#include "installed/installed.h"
#include "host/host.h"
#include "test.h"
#include "fake_tree.h"

/* ------------------------------------------------------------ fake tree */

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* A bare fatbin (REFERENCE 4.2-4.4): SASS sm_80, sm_90 and PTX compute_90
 * (ISA 8.4), 8-byte payloads. */
static size_t build_fatbin(unsigned char *b)
{
    static const struct { uint16_t kind; uint32_t arch; uint16_t vmaj, vmin; } e[] = {
        {2, 80, 1, 8}, {2, 90, 1, 8}, {1, 90, 8, 4}};
    memset(b, 0, 16 + 3 * 72);
    put32(b, 0xBA55ED50u);
    b[4] = 1;
    b[6] = 16;
    put64(b + 8, 3 * 72);
    for (int i = 0; i < 3; i++) {
        unsigned char *h = b + 16 + 72 * i;
        memcpy(h, &e[i].kind, 2);
        h[2] = h[3] = 1;
        put32(h + 4, 64);
        put64(h + 8, 8);
        memcpy(h + 24, &e[i].vmin, 2);
        memcpy(h + 26, &e[i].vmaj, 2);
        put32(h + 28, e[i].arch);
        put64(h + 40, 0x11);
    }
    return 16 + 3 * 72;
}

static const char torch_cu130[] =
    "from typing import Optional\n\n"
    "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'rocm', 'xpu']\n"
    "__version__ = '2.11.0+cu130'\n"
    "debug = False\n"
    "cuda: Optional[str] = '13.0'\n"
    "git_version = '70d99e998b4955e0049d13a98d77ae1b14db1f45'\n"
    "hip: Optional[str] = None\n";

static const char tf_info[] =
    "import collections\n"
    "build_info = collections.OrderedDict([('cpu_compiler', '/usr/bin/clang'), "
    "('cuda_compute_capabilities', ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']), "
    "('cuda_version', '12.3'), ('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', False)])\n";

#define VENV "/opt/venv/lib/python3.12/site-packages"
#define CONDA "/opt/conda/lib/python3.11/site-packages"
#define PY311 "/opt/py311/lib/python3.11/site-packages"
#define LOCAL "/usr/local/lib/python3.12/dist-packages"

static void build_tree(void)
{
    static unsigned char fb[512];
    /* a uv venv as on the H200 machine: python links out of the venv */
    put_file("/usr/bin/python3.12", "ELF");
    put_link("/usr/bin/python3", "python3.12");
    put_file("/opt/venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\n");
    put_link("/opt/venv/bin/python", "/usr/bin/python3.12");
    put_link("/opt/venv/bin/python3", "python");
    put_link("/opt/venv/lib64", "lib");
    put_file(VENV "/torch/version.py", torch_cu130);
    put_dir(VENV "/torch-2.11.0.dist-info");
    put_bytes(VENV "/torch/lib/libtorch_cuda.so", fb, build_fatbin(fb));
    put_dir(VENV "/torchvision");
    put_file(VENV "/jax/version.py", "# Copyright\nimport os\n_version = \"0.11.2\"\n__version__ = _get_version_string()\n");
    put_dir(VENV "/jax-0.11.2.dist-info");
    put_dir(VENV "/jaxlib");
    put_dir(VENV "/jaxlib-0.11.2.dist-info");
    put_dir(VENV "/jax_cuda13_plugin");
    put_dir(VENV "/jax_cuda13_plugin-0.11.2.dist-info");
    put_dir(VENV "/jax_cuda13_pjrt-0.11.2.dist-info");
    put_file(VENV "/jax_plugins/xla_cuda13/xla_cuda_plugin.so", "not a library at all");
    put_dir(VENV "/jaxtyping");
    put_file(VENV "/cupy/_version.py", "__version__ = '14.2.0'\n");
    put_dir(VENV "/cupy_cuda13x-14.2.0.dist-info");
    put_dir(VENV "/cupy_backends");
    /* conda: CPU-only torch, python3 a relative link */
    put_file("/opt/conda/bin/python3.11", "ELF");
    put_link("/opt/conda/bin/python3", "python3.11");
    put_file(CONDA "/torch/version.py", "__version__ = '2.11.0+cpu'\ncuda: Optional[str] = None\n");
    /* python3 on PATH through a link into another prefix: two CuPy wheels
     * over one folder, and a TensorFlow */
    put_file("/opt/py311/bin/python3.11", "ELF");
    put_link("/usr/local/bin/python3", "/opt/py311/bin/python3.11");
    put_file(PY311 "/cupy/__init__.py", "");
    put_dir(PY311 "/cupy_cuda12x-13.3.0.dist-info");
    put_dir(PY311 "/cupy_cuda13x-14.2.0.dist-info");
    put_file(PY311 "/tensorflow/python/platform/build_info.py", tf_info);
    put_dir(PY311 "/tensorflow-2.16.1.dist-info");
    put_dir(PY311 "/tensorflow_estimator-2.15.0.dist-info");
    /* a broken torch (no version.py) and a dist-info without its package */
    put_file(LOCAL "/torch/__init__.py", "");
    put_dir("/usr/lib/python3/dist-packages/tensorflow-2.16.1.dist-info");
}

static void env_venv(cp_host_facts *h)
{
    memset(h, 0, sizeof *h);
    set_env(h, "VIRTUAL_ENV", "/opt/venv");
    set_env(h, "PATH", "/opt/venv/bin:/usr/local/nvidia/bin:/usr/bin");
}

static void env_conda(cp_host_facts *h)
{
    memset(h, 0, sizeof *h);
    set_env(h, "CONDA_PREFIX", "/opt/conda");
    set_env(h, "PATH", "/usr/local/bin:/usr/bin");
}

/* The observe step's two calls: the Python environments once, then the
 * frameworks in them. */
static int observe_fw(cp_fs *fs, const cp_host_facts *h, const char *python, cp_frameworks_facts *out)
{
    static cp_pyenv py;
    cp_pyenv_find(fs, h, python, &py);
    return cp_frameworks_observe(fs, &py, out);
}

static const cp_framework *fw_in(const cp_frameworks_facts *fr, const char *name, const char *site)
{
    char want[CP_PATH_MAX];
    snprintf(want, sizeof want, "%s/%s", site, name);
    for (int i = 0; i < fr->nfw; i++)
        if (strcmp(fr->fw[i].package_dir, want) == 0)
            return &fr->fw[i];
    return NULL;
}

/* The venv found through VIRTUAL_ENV and again through PATH: examined once. */
static void test_observe_venv(void)
{
    static cp_host_facts h;
    static cp_frameworks_facts fr;
    env_venv(&h);
    cp_fs *fs = cp_fs_open(root, false);
    CHECK_I64(observe_fw(fs, &h, NULL, &fr), 0);
    cp_fs_close(fs);
    CHECK_I64(fr.npython, 3);
    CHECK_STR(fr.python[0], VENV);
    CHECK_STR(fr.python[1], LOCAL);
    CHECK_STR(fr.python[2], "/usr/lib/python3/dist-packages");
    const cp_framework *t = fw_in(&fr, "torch", VENV), *j = fw_in(&fr, "jax", VENV), *c = fw_in(&fr, "cupy", VENV);
    CHECK(t && j && c);
    if (!t || !j || !c)
        return;
    CHECK(t == &fr.fw[0] && j == &fr.fw[1] && c == &fr.fw[2]);
    CHECK_STR(t->version, "2.11.0+cu130");
    CHECK_STR(t->cuda_version, "13.0");
    CHECK_STR(t->cuda_source, "torch/version.py");
    CHECK_STR(t->gpu_lib, VENV "/torch/lib/libtorch_cuda.so");
    CHECK_I64(t->ncodes, 3);
    CHECK_STR(t->codes[0], "sm_80");
    CHECK_STR(t->codes[1], "sm_90");
    CHECK_STR(t->codes[2], "compute_90");
    CHECK(t->code_entries[0] > 0 && t->code_entries[1] > 0 && t->code_entries[2] > 0);
    CHECK_STR(t->problem, "");
    CHECK_STR(j->version, "0.11.2");
    CHECK_STR(j->cuda_version, "13");
    CHECK_STR(j->cuda_source, "jax_cuda13_plugin dist-info");
    /* a GPU library the reader cannot read: no codes, and the problem says why */
    CHECK_STR(j->gpu_lib, VENV "/jax_plugins/xla_cuda13/xla_cuda_plugin.so");
    CHECK_I64(j->ncodes, 0);
    CHECK(strncmp(j->problem, "cannot read its GPU code: '", 27) == 0);
    CHECK(strstr(j->problem, VENV "/jax_plugins/xla_cuda13/xla_cuda_plugin.so'") != NULL);
    CHECK_STR(c->version, "14.2.0");
    CHECK_STR(c->cuda_version, "13");
    CHECK_STR(c->cuda_source, "cupy_cuda13x dist-info");
    CHECK_STR(c->problem, "");
    const cp_framework *tf = fw_in(&fr, "tensorflow", "/usr/lib/python3/dist-packages");
    CHECK(tf && strstr(tf->problem, "tensorflow-2.16.1.dist-info' is there without the tensorflow folder"));
    CHECK_I64(fr.nfw, 5);
}

/* --python, CONDA_PREFIX, python3 on PATH through a link, Debian's folders. */
static void test_observe_conda_path(void)
{
    static cp_host_facts h;
    static cp_frameworks_facts fr;
    env_conda(&h);
    cp_fs *fs = cp_fs_open(root, false);
    CHECK_I64(observe_fw(fs, &h, "/opt/venv/bin/python3", &fr), 0);
    cp_fs_close(fs);
    CHECK_I64(fr.npython, 5);   /* five folders, all kept (CP_MAX_PYENVS is 8) */
    CHECK_STR(fr.python[0], VENV);
    CHECK_STR(fr.python[1], CONDA);
    CHECK_STR(fr.python[2], PY311);
    CHECK_STR(fr.python[3], LOCAL);
    CHECK_I64(fr.nfw, 8);
    const cp_framework *ct = fw_in(&fr, "torch", CONDA), *pc = fw_in(&fr, "cupy", PY311);
    const cp_framework *tf = fw_in(&fr, "tensorflow", PY311), *bt = fw_in(&fr, "torch", LOCAL);
    CHECK(ct && pc && tf && bt);
    if (!ct || !pc || !tf || !bt)
        return;
    CHECK_STR(ct->version, "2.11.0+cpu");
    CHECK_STR(ct->cuda_version, CP_FW_CUDA_CPU);
    CHECK_STR(ct->gpu_lib, "");
    CHECK_STR(ct->problem, "");
    CHECK_STR(pc->version, "13.3.0");
    CHECK_STR(pc->cuda_version, "12");
    CHECK(strstr(pc->problem, "both cupy_cuda12x and cupy_cuda13x are installed") != NULL);
    CHECK_STR(tf->version, "2.16.1");
    CHECK_STR(tf->cuda_version, "12.3");
    CHECK_STR(tf->cuda_source, "tensorflow build_info.py");
    CHECK_I64(tf->ncodes, 5);
    CHECK_STR(tf->codes[4], "compute_90");
    CHECK_STR(bt->version, "");
    CHECK(strstr(bt->problem, "has no version.py") != NULL);
}

/* A bare name for --python is looked up on PATH; relative paths and
 * missing interpreters add nothing. */
static void test_observe_python_arg(void)
{
    static cp_host_facts h;
    static cp_frameworks_facts fr;
    memset(&h, 0, sizeof h);
    set_env(&h, "PATH", "relative/bin::/opt/conda/bin");
    cp_fs *fs = cp_fs_open(root, false);
    CHECK_I64(observe_fw(fs, &h, "python3.11", &fr), 0);
    CHECK_STR(fr.python[0], CONDA);
    CHECK_I64(observe_fw(fs, &h, "bin/python3", &fr), 0);
    CHECK_STR(fr.python[0], CONDA);   /* from python3 on PATH */
    CHECK_I64(observe_fw(fs, NULL, "/nowhere/python", &fr), 0);
    CHECK_I64(fr.npython, 2);
    CHECK_STR(fr.python[0], LOCAL);
    CHECK_I64(observe_fw(NULL, &h, NULL, &fr), -EINVAL);
    cp_fs_close(fs);
}

/* A snapshot replays the same frameworks; the GPU library is a placeholder
 * there, so its codes are not read again. */
static void test_observe_replay(void)
{
    static cp_host_facts h;
    static cp_frameworks_facts live, replay;
    char snap[300], err[256];
    env_conda(&h);
    cp_fs *fs = cp_fs_open(root, true);
    CHECK_I64(observe_fw(fs, &h, "/opt/venv/bin/python3", &live), 0);
    snprintf(snap, sizeof snap, "%s/snapshot", root);
    CHECK_I64(cp_fs_write_snapshot(fs, snap, err, sizeof err), 0);
    cp_fs_close(fs);
    fs = cp_fs_open(snap, false);
    CHECK_I64(observe_fw(fs, &h, "/opt/venv/bin/python3", &replay), 0);
    cp_fs_close(fs);
    CHECK_I64(replay.nfw, live.nfw);
    CHECK_I64(replay.npython, live.npython);
    for (int i = 0; i < live.npython; i++)
        CHECK_STR(replay.python[i], live.python[i]);
    for (int i = 0; i < live.nfw && i < replay.nfw; i++) {
        CHECK_STR(replay.fw[i].package_dir, live.fw[i].package_dir);
        CHECK_STR(replay.fw[i].version, live.fw[i].version);
        CHECK_STR(replay.fw[i].cuda_version, live.fw[i].cuda_version);
        if (!live.fw[i].gpu_lib[0])
            CHECK_STR(replay.fw[i].problem, live.fw[i].problem);
        CHECK_STR(replay.fw[i].gpu_lib, "");
    }
}

/* Failing reads at any point leave a consistent answer. */
static void test_observe_failing_reads(void)
{
    static cp_host_facts h;
    static cp_frameworks_facts fr;
    env_conda(&h);
    for (long n = 1; n < 12; n++) {
        cp_fs *fs = cp_fs_open(root, false);
        cp_fs_fail_read_at(fs, n);
        CHECK_I64(observe_fw(fs, &h, "/opt/venv/bin/python3", &fr), 0);
        CHECK(fr.nfw <= CP_MAX_FRAMEWORKS && fr.npython <= CP_MAX_PYENVS);
        for (int i = 0; i < fr.nfw; i++)
            CHECK(fr.fw[i].name[0] && fr.fw[i].ncodes <= CP_MAX_FW_CODES);
        cp_fs_close(fs);
    }
}

/* ---------------------------------------------------------------- checks */

static void test_parse_code(void)
{
    int ptx = -1, sm = -1;
    char v = 'x';
    CHECK_I64(cp_fw_parse_code("sm_90", &ptx, &sm, &v), 0);
    CHECK(ptx == 0 && sm == 90 && v == 0);
    CHECK_I64(cp_fw_parse_code("sm_90a", &ptx, &sm, &v), 0);
    CHECK(ptx == 0 && sm == 90 && v == 'a');
    CHECK_I64(cp_fw_parse_code("compute_120f", &ptx, &sm, &v), 0);
    CHECK(ptx == 1 && sm == 120 && v == 'f');
    CHECK_I64(cp_fw_parse_code("sm_100", &ptx, &sm, &v), 0);
    CHECK(sm == 100 && v == 0);
    static const char *const bad[] = {"", "sm_", "sm_9", "sm_05", "sm_1000", "sm_90x", "sm_90aa", "compute90",
                                      "SM_90", "sm_-90", "lto_90", "sm_90 "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sm = -7;
        CHECK_I64(cp_fw_parse_code(bad[i], &ptx, &sm, &v), -1);
        CHECK_I64(sm, -7);
    }
    CHECK_I64(cp_fw_parse_code(NULL, &ptx, &sm, &v), -1);
}

static cp_facts F;
static cp_finding out;

static cp_framework *add_fw(const char *name, const char *ver, const char *cuda, const char *site, const char *codes)
{
    cp_framework *fw = &F.frameworks.fw[F.frameworks.nfw++];
    memset(fw, 0, sizeof *fw);
    snprintf(fw->name, sizeof fw->name, "%s", name);
    snprintf(fw->version, sizeof fw->version, "%s", ver);
    snprintf(fw->cuda_version, sizeof fw->cuda_version, "%s", cuda);
    snprintf(fw->package_dir, sizeof fw->package_dir, "%s/%s", site, name);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", codes);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        snprintf(fw->codes[fw->ncodes++], sizeof fw->codes[0], "%s", t);
    return fw;
}

/* A machine with one GPU of CC maj.min and a driver for CUDA drv. */
static void machine(int maj, int min, int64_t drv, const char *driver)
{
    cp_facts_init(&F);
    F.cuda.driver_version = drv;
    F.cuda.ndev = 1;
    F.cuda.dev[0].cc_major = maj;
    F.cuda.dev[0].cc_minor = min;
    snprintf(F.cuda.dev[0].name, sizeof F.cuda.dev[0].name, "NVIDIA H200");
    snprintf(F.host.procfs.version, sizeof F.host.procfs.version, "%s", driver);
}

static void run(cp_check_fn fn)
{
    memset(&out, 0, sizeof out);
    fn(&F, &out);
}

static void test_check_found(void)
{
    machine(9, 0, 13000, "580.95.05");
    F.frameworks.npython = 2;
    snprintf(F.frameworks.python[0], CP_PATH_MAX, VENV);
    snprintf(F.frameworks.python[1], CP_PATH_MAX, "/usr/lib/python3/dist-packages");
    run(cp_check_framework_found);
    CHECK_I64(out.status, CP_SKIP);
    CHECK_STR(out.summary, "no PyTorch, JAX, CuPy or TensorFlow in the Python environments found: " VENV
              ", /usr/lib/python3/dist-packages");
    add_fw("torch", "2.11.0+cu130", "13.0", VENV, "sm_90");
    add_fw("jax", "0.11.2", "13", VENV, "");
    run(cp_check_framework_found);
    CHECK_I64(out.status, CP_PASS);
    CHECK_STR(out.summary, "torch 2.11.0+cu130 (CUDA 13.0), jax 0.11.2 (CUDA 13)");
    snprintf(F.frameworks.fw[1].problem, sizeof F.frameworks.fw[1].problem, "jax is installed without jaxlib");
    run(cp_check_framework_found);
    CHECK_I64(out.status, CP_WARN);
    CHECK(strstr(out.summary, "jax in " VENV " looks broken: jax is installed without jaxlib") != NULL);
    CHECK(out.fix[0] != '\0');
}

static void test_check_cuda(void)
{
    machine(9, 0, 12090, "575.51.03");
    add_fw("torch", "2.11.0+cu130", "13.0", VENV, "");
    run(cp_check_framework_cuda);
    CHECK_I64(out.status, CP_FAIL);
    CHECK_STR(out.summary, "torch 2.11.0+cu130 is built for CUDA 13.0, which needs driver >= 580.65.06 "
              "(this driver: 575.51.03, CUDA 12.9)");
    CHECK(strstr(out.fix, "whl/cu129") != NULL && strstr(out.fix, "580.65.06") != NULL);
    /* the same build on a CUDA 13.0 driver, and a newer minor */
    machine(9, 0, 13000, "580.95.05");
    add_fw("torch", "2.11.0+cu130", "13.0", VENV, "");
    run(cp_check_framework_cuda);
    CHECK_I64(out.status, CP_PASS);
    add_fw("jax", "0.12.0", "13.1", VENV, "");
    run(cp_check_framework_cuda);
    CHECK_I64(out.status, CP_WARN);
    CHECK(strstr(out.summary, "newer than this driver's CUDA 13.0") != NULL);
    /* CPU-only build */
    machine(9, 0, 13000, "580.95.05");
    add_fw("torch", "2.11.0+cpu", CP_FW_CUDA_CPU, VENV, "");
    run(cp_check_framework_cuda);
    CHECK_I64(out.status, CP_WARN);
    CHECK_STR(out.summary, "torch is a CPU-only build: it will not use the GPU");
    CHECK(strstr(out.fix, "whl/cu130") != NULL);
    /* a driver of unknown CUDA version */
    F.cuda.driver_version = CP_UNKNOWN;
    F.nvml.cuda_driver_version = CP_UNKNOWN;
    run(cp_check_framework_cuda);
    CHECK_I64(out.status, CP_SKIP);
    /* NVML's answer stands in for CUDA's */
    F.nvml.cuda_driver_version = 12090;
    F.frameworks.fw[0].cuda_version[0] = '\0';
    run(cp_check_framework_cuda);
    CHECK_I64(out.status, CP_PASS);
}

static void test_check_arch(void)
{
    machine(9, 0, 13000, "580.95.05");
    add_fw("torch", "2.11.0+cu130", "13.0", VENV, "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120");
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_PASS);
    CHECK_STR(out.summary, "every framework carries native code for every GPU");
    /* missing arch */
    F.frameworks.nfw = 0;
    add_fw("torch", "2.11.0+cu130", "13.0", VENV, "sm_80 sm_100");
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_FAIL);
    CHECK_STR(out.summary, "torch carries no code for sm_90 (it has sm_80 sm_100): 'no kernel image is "
              "available for execution on the device'");
    CHECK(strstr(out.fix, "TORCH_CUDA_ARCH_LIST=\"9.0\"") != NULL);
    /* PTX rescue: passes, and says the first launch JIT-compiles */
    F.frameworks.nfw = 0;
    add_fw("torch", "2.11.0+cu130", "13.0", VENV, "sm_80 compute_80");
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_PASS);
    CHECK(strstr(out.summary, "only through PTX JIT") != NULL);
    CHECK(strstr(out.evidence, "JIT-compiling compute_80 at first launch") != NULL);
    /* the same PTX from a toolkit newer than the driver cannot be JIT-compiled */
    snprintf(F.frameworks.fw[0].cuda_version, 16, "13.1");
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_FAIL);
    CHECK(strstr(out.summary, "cannot JIT it") != NULL);
    /* a and f variants */
    F.frameworks.nfw = 0;
    add_fw("jax", "0.11.2", "13", VENV, "sm_90a");
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_PASS);
    machine(10, 3, 13000, "580.95.05");
    add_fw("jax", "0.11.2", "13", VENV, "sm_100f compute_90a");
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_PASS);
    F.frameworks.nfw = 0;
    add_fw("jax", "0.11.2", "13", VENV, "sm_100a sm_90 compute_90a");
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_FAIL);
    /* a variant that covers only some kernels: the rest JIT from PTX, or fail without it */
    machine(9, 0, 13000, "580.95.05");
    cp_framework *x = add_fw("torch", "2.11.0+cu130", "13.0", VENV, "sm_80 sm_90a compute_80");
    x->code_entries[0] = 444, x->code_entries[1] = 12, x->code_entries[2] = 444;
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_PASS);
    CHECK(strstr(out.summary, "only through PTX JIT") != NULL);
    CHECK(strstr(out.evidence, "sm_90a covers only 12 of the 444 kernels other GPUs get; the rest run by "
                               "JIT-compiling compute_80") != NULL);
    x->ncodes = 2;
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_FAIL);
    CHECK_STR(out.summary, "torch has sm_90 code for only some kernels (sm_90a covers only 12 of the 444 kernels "
              "other GPUs get): the others fail with 'no kernel image is available for execution on the device'");
    x->code_entries[1] = 444;                      /* built for sm_90a throughout: native */
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_PASS);
    CHECK_STR(out.summary, "every framework carries native code for every GPU");
    x->code_entries[0] = 0;                        /* counts unknown: judged by names, as before */
    x->code_entries[1] = 0;
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_PASS);
    /* a lower minor's SASS only runs on a higher minor */
    machine(8, 0, 13000, "580.95.05");
    add_fw("cupy", "14.2.0", "13", VENV, "sm_86 garbage");
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_FAIL);
    CHECK(strstr(out.fix, "install a cupy build that includes sm_80") != NULL);
    /* nothing to judge */
    F.frameworks.fw[0].ncodes = 0;
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_SKIP);
    F.cuda.ndev = 0;
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_SKIP);
    /* NVML's GPUs stand in for CUDA's; two of one CC are judged once */
    F.frameworks.fw[0].ncodes = 1;
    F.nvml.ndev = 2;
    for (int i = 0; i < 2; i++) {
        F.nvml.dev[i].inv.cc_major = 8;
        F.nvml.dev[i].inv.cc_minor = 6;
        snprintf(F.nvml.dev[i].inv.name, sizeof F.nvml.dev[i].inv.name, "NVIDIA A10");
    }
    run(cp_check_framework_arch);
    CHECK_I64(out.status, CP_PASS);
    CHECK_STR(out.evidence, "cupy on sm_86 (NVIDIA A10): native code sm_86");
    cp_gpu_cc cc[4];
    CHECK_I64(cp_facts_gpu_ccs(&F, cc, 4), 1);
    CHECK_I64(cc[0].ordinal, 0);
}

static void test_check_conflicts(void)
{
    machine(9, 0, 13000, "580.95.05");
    run(cp_check_framework_conflicts);
    CHECK_I64(out.status, CP_SKIP);
    add_fw("torch", "2.8.0+cu128", "12.8", VENV, "");
    add_fw("jax", "0.11.2", "13", VENV, "");
    add_fw("cupy", "14.2.0", "13", CONDA, "");
    run(cp_check_framework_conflicts);
    CHECK_I64(out.status, CP_WARN);
    CHECK_STR(out.summary, "torch (CUDA 12) and jax (CUDA 13) share one environment but need different CUDA majors");
    CHECK(out.fix[0] != '\0');
    snprintf(F.frameworks.fw[0].package_dir, CP_PATH_MAX, CONDA "/torch");
    snprintf(F.frameworks.fw[2].cuda_version, 16, "12");
    run(cp_check_framework_conflicts);
    CHECK_I64(out.status, CP_PASS);
    snprintf(F.frameworks.fw[2].cuda_version, 16, "%s", CP_FW_CUDA_CPU);
    run(cp_check_framework_conflicts);
    CHECK_I64(out.status, CP_PASS);
}

static void remove_tree(void)
{
    char cmd[300];
    if (strncmp(root, "/tmp/cuprobe-fw.", 16) != 0)
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "  could not remove %s\n", root);
}

/* ------------------------------------------------------ Python text */

static void test_py_text(void)
{
    char v[48];
    static const char t[] = "__version__ = '2.11.0+cu130'\ndebug = False\ncuda: Optional[str] = \"13.0\"\n"
                            "hip: Optional[str] = None\ngit = 'a\\b'\n__version__x = 'no'";
    CHECK_I64(cp_parse_py_assign(t, strlen(t), "__version__", v, sizeof v), 1);
    CHECK_STR(v, "2.11.0+cu130");
    CHECK_I64(cp_parse_py_assign(t, strlen(t), "cuda", v, sizeof v), 1);
    CHECK_STR(v, "13.0");
    CHECK_I64(cp_parse_py_assign(t, strlen(t), "hip", v, sizeof v), 0);
    CHECK_I64(cp_parse_py_assign(t, strlen(t), "git", v, sizeof v), -1);      /* escapes are not read */
    CHECK_I64(cp_parse_py_assign(t, strlen(t), "debug", v, sizeof v), -1);
    CHECK_STR(v, "");
    char tiny[4];
    CHECK_I64(cp_parse_py_assign(t, strlen(t), "__version__", tiny, sizeof tiny), -1);
    CHECK_I64(cp_parse_py_assign(t, 20, "__version__", v, sizeof v), -1);     /* the quote is past len */

    cp_tf_build_info bi;
    static const char d[] = "build_info = {'cuda_compute_capabilities': ['sm_60', 'sm_80', 'sm_80', 'compute_90', "
                            "'x'], 'cuda_version': '12.3', 'is_cuda_build': True}\n";
    cp_parse_tf_build_info(d, strlen(d), &bi);
    CHECK(!bi.cpu_only);
    CHECK_STR(bi.cuda_version, "12.3");
    CHECK_I64(bi.ncodes, 3);
    CHECK_STR(bi.codes[2], "compute_90");
    static const char pairs[] = "build_info = OrderedDict([(\"cuda_version\", \"11.2\"), (\"is_cuda_build\", True)])";
    cp_parse_tf_build_info(pairs, strlen(pairs), &bi);
    CHECK_STR(bi.cuda_version, "11.2");
    CHECK_I64(bi.ncodes, 0);
    static const char cpu[] = "build_info = {'cuda_version': '12.3', 'is_cuda_build': False}";
    cp_parse_tf_build_info(cpu, strlen(cpu), &bi);
    CHECK(bi.cpu_only);
    CHECK_STR(bi.cuda_version, "");
}

int main(void)
{
    RUN(test_py_text);
    RUN(test_parse_code);
    RUN(test_check_found);
    RUN(test_check_cuda);
    RUN(test_check_arch);
    RUN(test_check_conflicts);
    snprintf(root, sizeof root, "/tmp/cuprobe-fw.XXXXXX");
    if (!mkdtemp(root)) {
        fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
        return TEST_END() | 1;
    }
    build_tree();
    RUN(test_observe_venv);
    RUN(test_observe_conda_path);
    RUN(test_observe_python_arg);
    RUN(test_observe_replay);
    RUN(test_observe_failing_reads);
    remove_tree();
    return TEST_END();
}
