/*
 * Framework sources: which PyTorch, JAX, CuPy and TensorFlow a user's Python
 * would import, what CUDA each was built for, and what GPU code its main GPU
 * library carries.
 *
 * Python is never run (no subprocess in this version): for these four
 * frameworks the version files and dist-info folder names say everything we
 * need, reading them works on a replayed snapshot, and an interpreter that
 * hangs on import (a GPU in a bad state, a broken CUDA library) cannot hang
 * cuprobe.  Every small file goes through the cp_fs; only the GPU library is
 * opened directly, by cp_arch_scan, because it can be 500 MB.  The Python
 * environments come from cp_pyenv_find (pyenv.c), the Python text parsers
 * from pytext.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/alloc.h"
#include "util/str.h"
#include "cuprobe/arch.h"
#include "installed/frameworks.h"
#include "installed/installed.h"
#include "host/host.h"

#define LIST_MAX 32
#define PY_TEXT_MAX 16384     /* jax/version.py is ~6 KB; the rest are smaller */
#define TF_INFO "tensorflow build_info.py"

typedef struct {
    cp_fs *fs;
    cp_frameworks_facts *out;
    char text[PY_TEXT_MAX];   /* the Python file being read */
} fw_obs;

typedef struct {
    int n;
    char name[LIST_MAX][128];
    cp_fs_type type[LIST_MAX];
} listing;

/* ------------------------------------------------------------ helpers -- */

static cp_fs_type kind(fw_obs *o, const char *path)
{
    return cp_fs_stat(o->fs, path, NULL, NULL, NULL);
}

static int read_text(fw_obs *o, const char *path, char *buf, size_t cap, size_t *len)
{
    return cp_fs_read(o->fs, path, buf, cap, len);
}

static int listing_cb(const char *name, cp_fs_type type, void *arg)
{
    listing *l = arg;
    if (l->n < LIST_MAX && strlen(name) < sizeof l->name[0]) { cp_str_copy(l->name[l->n], sizeof l->name[0], name); l->type[l->n++] = type; }
    return 0;
}

/* The entries of dir starting with prefix (only those are recorded). */
static void list_into(fw_obs *o, const char *dir, const char *prefix, listing *l)
{
    l->n = 0;
    cp_fs_list_prefix(o->fs, dir, prefix, listing_cb, l);
}

static bool has_dir(const listing *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->name[i], name) == 0 && l->type[i] == CP_FS_DIR) return true;
    return false;
}

/* "PKG-VERSION.dist-info" in the listing: VERSION into ver, its full name
 * into di (may be NULL).  Returns true when found. */
static bool dist_info(const listing *l, const char *pkg, char *ver, size_t cap, char *di, size_t dcap)
{
    for (int i = 0; i < l->n; i++) {
        cp_dist_info d;
        const char *n = l->name[i];
        if (cp_parse_dist_info(n, strlen(n), &d) != 0 || !cp_span_equals(d.name, pkg) || d.version.n == 0 ||
            d.version.n >= cap)
            continue;
        cp_str_copy_n(ver, cap, d.version.p, d.version.n);
        if (di) cp_str_copy(di, dcap, n);
        return true;
    }
    return false;
}

static void add_problem(cp_framework *fw, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_problem(cp_framework *fw, const char *fmt, ...)
{
    size_t n = strlen(fw->problem);
    va_list ap;
    if (n && cp_str_append(fw->problem, sizeof fw->problem, "", "; ")) n += 2;
    if (n + 1 >= sizeof fw->problem) return;
    va_start(ap, fmt);
    vsnprintf(fw->problem + n, sizeof fw->problem - n, fmt, ap);
    va_end(ap);
}

/* One code the GPU library carries, with its entry count (0: unknown). */
static void add_code(cp_framework *fw, const char *name, int64_t entries)
{
    if (!name || !name[0] || strlen(name) >= sizeof fw->codes[0] || fw->ncodes >= CP_MAX_FW_CODES) return;
    for (int i = 0; i < fw->ncodes; i++)
        if (strcmp(fw->codes[i], name) == 0) {
            fw->code_entries[i] += entries;   /* PTX of several ISAs for one sm is one code here */
            return;
        }
    fw->code_entries[fw->ncodes] = entries;
    cp_str_copy(fw->codes[fw->ncodes++], sizeof fw->codes[0], name);
}

static cp_framework *new_fw(fw_obs *o, const char *name, const char *pkg)
{
    if (o->out->nfw >= CP_MAX_FRAMEWORKS) return NULL;
    cp_framework *fw = &o->out->fw[o->out->nfw++];
    memset(fw, 0, sizeof *fw);
    cp_str_copy(fw->name, sizeof fw->name, name);
    cp_str_copy(fw->package_dir, sizeof fw->package_dir, pkg);
    return fw;
}

static void set_cuda(cp_framework *fw, const char *version, const char *source)
{
    cp_str_copy(fw->cuda_version, sizeof fw->cuda_version, version);
    cp_str_copy(fw->cuda_source, sizeof fw->cuda_source, source);
}

static bool is_cuda_build(const cp_framework *fw)
{
    return fw->cuda_version[0] && strcmp(fw->cuda_version, CP_FW_CUDA_CPU) != 0;
}

/* A framework entry for package `name` in site when its folder or a
 * DIST-VERSION.dist-info is there (version from the dist-info); NULL when
 * neither is, or there is no room.  *dir says whether the folder is. */
static cp_framework *start_fw(fw_obs *o, const char *site, const char *name, const listing *l,
                              const char *dist, bool *dir)
{
    char dv[48] = "", di[128] = "", pkg[CP_PATH_MAX];
    bool has_di = dist_info(l, dist, dv, sizeof dv, di, sizeof di);
    cp_framework *fw;
    *dir = has_dir(l, name);
    if ((!*dir && !has_di) || cp_path_join(pkg, sizeof pkg, site, name) != 0 || !(fw = new_fw(o, name, pkg))) return NULL;
    cp_str_copy(fw->version, sizeof fw->version, dv);
    if (!*dir)
        add_problem(fw, "'%s' is there without the %s folder: a half-removed install ('import %s' fails)", di, name,
                    name);
    return fw;
}

/* ------------------------------------------------------- GPU library -- */

/* Read the GPU code of `path` into fw->codes.  The library is opened at the
 * real path below the root, not through the cp_fs (it can be 500 MB; the
 * reader maps it and touches only headers); a replayed snapshot holds an
 * empty placeholder instead, which is skipped silently. */
static void scan_gpu_lib(fw_obs *o, cp_framework *fw, const char *path)
{
    char mpath[CP_PATH_MAX], real[2 * CP_PATH_MAX], err[256], name[32];
    struct stat st;
    if (cp_fs_realpath(o->fs, path, mpath, sizeof mpath) != 0 ||
        cp_fs_stat(o->fs, mpath, NULL, NULL, NULL) != CP_FS_FILE ||
        cp_fs_host_path(o->fs, mpath, real, sizeof real) != 0)
        return;
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) return;
    if (!cp_fs_is_live(o->fs) && st.st_size == 0) return;
    cp_arch_summary *s = cp_malloc(sizeof *s);
    if (!s) return;
    cp_str_copy(fw->gpu_lib, sizeof fw->gpu_lib, mpath);
    if (cp_arch_scan(real, s, err, sizeof err) != 0)
        add_problem(fw, "cannot read its GPU code: %s", err);   /* err names the file */
    else if (s->containers == 0)
        add_problem(fw, "'%s' carries no GPU code", mpath);
    else
        for (int i = 0; i < s->ncodes && i < CP_ARCH_MAX_CODES; i++)
            add_code(fw, cp_code_name(&s->codes[i], name, sizeof name), s->codes[i].count);
    free(s);
}

/* -------------------------------------------------------- frameworks -- */

static void find_torch(fw_obs *o, const char *site)
{
    listing l;
    char f[CP_PATH_MAX], cu[16], v[48];
    size_t len;
    bool dir;
    list_into(o, site, "torch", &l);
    cp_framework *fw = start_fw(o, site, "torch", &l, "torch", &dir);
    if (!fw || !dir) return;
    const char *pkg = fw->package_dir;
    if (cp_path_join(f, sizeof f, pkg, "version.py") != 0 || read_text(o, f, o->text, sizeof o->text, &len) != 0) {
        add_problem(fw, "'%s' has no version.py: a broken or partial install", pkg);
        return;
    }
    if (cp_parse_py_assign(o->text, len, "__version__", v, sizeof v) == 1)
        cp_str_copy(fw->version, sizeof fw->version, v);   /* has the +cu130 the dist-info name lacks */
    else add_problem(fw, "'%s' names no __version__", f);
    int r = cp_parse_py_assign(o->text, len, "cuda", cu, sizeof cu);
    if (r >= 0) set_cuda(fw, r ? cu : CP_FW_CUDA_CPU, "torch/version.py");
    if (!is_cuda_build(fw)) return;
    if (cp_path_join(f, sizeof f, pkg, "lib/libtorch_cuda.so") == 0 && kind(o, f) == CP_FS_FILE) scan_gpu_lib(o, fw, f);
    else add_problem(fw, "'%s' is missing from a CUDA build", f);
}

/* CUDA of jax from its plugin's dist-info ("jax_cuda13_plugin-0.11.2"), or
 * from an old jaxlib's local version ("0.4.20+cuda12.cudnn89"). */
static void jax_cuda(cp_framework *fw, const listing *l, const char *jaxlib_ver)
{
    for (int i = 0; i < l->n; i++) {
        const char *n = l->name[i], *p = n + 8;
        char major[8], ver[48], dist[32];
        cp_dist_info di;
        if (cp_parse_dist_info(n, strlen(n), &di) != 0 || !cp_str_starts_with(n, "jax_cuda")) continue;
        size_t d = strspn(p, "0123456789");
        if (d == 0 || d >= sizeof major || di.name.n != 8 + d + 7 || memcmp(p + d, "_plugin", 7) != 0) continue;
        cp_str_copy_n(major, sizeof major, p, d);
        cp_str_copy(fw->cuda_version, sizeof fw->cuda_version, major);
        snprintf(fw->cuda_source, sizeof fw->cuda_source, "jax_cuda%s_plugin dist-info", major);
        snprintf(dist, sizeof dist, "jax_cuda%s_plugin", major);
        /* jax loads a CUDA plugin only of its jaxlib's exact version */
        if (dist_info(l, dist, ver, sizeof ver, NULL, 0) && jaxlib_ver[0] && strcmp(ver, jaxlib_ver) != 0)
            add_problem(fw, "%s %s does not match jaxlib %s: jax will not use the plugin and runs on the CPU", dist,
                        ver, jaxlib_ver);
        return;
    }
    const char *cu = strstr(jaxlib_ver, "+cuda");
    if (cu && cu[5] >= '0' && cu[5] <= '9') {
        snprintf(fw->cuda_version, sizeof fw->cuda_version, "%.*s", (int)strspn(cu + 5, "0123456789"), cu + 5);
        cp_str_copy(fw->cuda_source, sizeof fw->cuda_source, "jaxlib version");
        return;
    }
    set_cuda(fw, CP_FW_CUDA_CPU, "no jax CUDA plugin installed");
}

static void find_jax(fw_obs *o, const char *site)
{
    listing l, pl = {0};
    char jl[48] = "", f[CP_PATH_MAX], v[48];
    size_t len;
    bool dir;
    list_into(o, site, "jax", &l);
    cp_framework *fw = start_fw(o, site, "jax", &l, "jax", &dir);
    if (!fw || !dir) return;
    const char *pkg = fw->package_dir;
    if (cp_path_join(f, sizeof f, pkg, "version.py") == 0 && read_text(o, f, o->text, sizeof o->text, &len) == 0 &&
        cp_parse_py_assign(o->text, len, "_version", v, sizeof v) == 1)
        cp_str_copy(fw->version, sizeof fw->version, v);
    if (!fw->version[0]) add_problem(fw, "'%s' has neither a readable version.py nor a dist-info", pkg);
    dist_info(&l, "jaxlib", jl, sizeof jl, NULL, 0);
    if (!has_dir(&l, "jaxlib")) add_problem(fw, "jax is installed without jaxlib: 'import jax' fails");
    jax_cuda(fw, &l, jl);
    if (!is_cuda_build(fw)) return;
    /* the PJRT plugin holds XLA's GPU runtime; jax_cudaNN_plugin only helpers */
    if (cp_path_join(f, sizeof f, site, "jax_plugins") == 0) list_into(o, f, "xla_cuda", &pl);
    for (int i = 0; i < pl.n; i++) {
        char lib[CP_PATH_MAX], sub[CP_PATH_MAX];
        if (cp_path_join(sub, sizeof sub, f, pl.name[i]) == 0 && cp_path_join(lib, sizeof lib, sub, "xla_cuda_plugin.so") == 0 &&
            kind(o, lib) == CP_FS_FILE) { scan_gpu_lib(o, fw, lib); return; }
    }
    add_problem(fw, "no jax_plugins/xla_cuda%s/xla_cuda_plugin.so (jax_cuda%s_pjrt missing): jax runs on the CPU",
                fw->cuda_version, fw->cuda_version);
}

/* "cupy_cuda13x" -> "13", "cupy_cuda117" -> "11.7", "cupy_cuda92" -> "9.2";
 * "" for a source build ("cupy"). */
static void cupy_cuda(const char *pkg, char *out, size_t cap)
{
    const char *p = pkg + strlen("cupy_cuda");
    size_t d = strncmp(pkg, "cupy_cuda", 9) == 0 ? strspn(p, "0123456789") : 0;
    out[0] = '\0';
    if (d >= 1 && p[d] == 'x' && p[d + 1] == '\0') snprintf(out, cap, "%.*s", (int)d, p);
    else if ((d == 2 || d == 3) && p[d] == '\0')
        snprintf(out, cap, "%.*s.%c", (int)d - 1, p, p[d - 1]);
}

static void find_cupy(fw_obs *o, const char *site)
{
    listing l, cl = {0};
    char pkg[CP_PATH_MAX], f[CP_PATH_MAX], first[64] = "";
    size_t len;
    int ndi = 0;
    list_into(o, site, "cupy", &l);
    bool dir = has_dir(&l, "cupy");
    cp_framework *fw = NULL;
    for (int i = 0; i < l.n; i++) {
        char n[64];
        cp_dist_info di;
        if (cp_parse_dist_info(l.name[i], strlen(l.name[i]), &di) != 0 || di.name.n >= sizeof first ||
            !cp_str_copy_n(n, sizeof n, di.name.p, di.name.n) ||
            (strcmp(n, "cupy") != 0 && !cp_str_starts_with(n, "cupy_cuda")))
            continue;   /* n is the package name */
        if (!fw && (cp_path_join(pkg, sizeof pkg, site, "cupy") != 0 || !(fw = new_fw(o, "cupy", pkg)))) return;
        if (ndi++ == 0) {
            cp_str_copy(first, sizeof first, n);
            cp_str_copy_n(fw->version, sizeof fw->version, di.version.p, di.version.n);
            cupy_cuda(n, fw->cuda_version, sizeof fw->cuda_version);
            if (fw->cuda_version[0]) snprintf(fw->cuda_source, sizeof fw->cuda_source, "%.36s dist-info", n);
        } else {
            add_problem(fw, "both %s and %s are installed: they share the cupy folder, so one overwrote "
                        "the other's files", first, n);
        }
    }
    if (!fw && (!dir || cp_path_join(pkg, sizeof pkg, site, "cupy") != 0 || !(fw = new_fw(o, "cupy", pkg)))) return;
    if (!dir) { add_problem(fw, "'%s' without the cupy folder: a half-removed install", first); return; }
    if (!fw->version[0] && cp_path_join(f, sizeof f, pkg, "_version.py") == 0 &&
        read_text(o, f, o->text, sizeof o->text, &len) == 0)
        cp_parse_py_assign(o->text, len, "__version__", fw->version, sizeof fw->version);
    /* CuPy compiles most kernels at run time with NVRTC; CUB is its largest
     * prebuilt GPU code, so that library speaks for it */
    if (cp_path_join(f, sizeof f, pkg, "cuda") == 0) list_into(o, f, "cub.", &cl);
    for (int i = 0; i < cl.n; i++) {
        char lib[CP_PATH_MAX];
        if (cp_str_ends_with(cl.name[i], ".so") && cp_path_join(lib, sizeof lib, f, cl.name[i]) == 0)
            { scan_gpu_lib(o, fw, lib); break; }
    }
}

/* TensorFlow's build_info.py: CUDA version, CUDA or not, and the codes it
 * was built with (its GPU code sits in a 1 GB library; the list is enough). */
static void tf_build_info(fw_obs *o, cp_framework *fw, const char *pkg)
{
    char f[CP_PATH_MAX];
    size_t len;
    cp_tf_build_info bi;
    if (cp_path_join(f, sizeof f, pkg, "python/platform/build_info.py") != 0 ||
        read_text(o, f, o->text, sizeof o->text, &len) != 0)
        return;
    cp_parse_tf_build_info(o->text, len, &bi);
    if (bi.cpu_only) { set_cuda(fw, CP_FW_CUDA_CPU, TF_INFO); return; }
    if (bi.cuda_version[0]) set_cuda(fw, bi.cuda_version, TF_INFO);
    for (int i = 0; i < bi.ncodes; i++) add_code(fw, bi.codes[i], 0);
}

static void find_tensorflow(fw_obs *o, const char *site)
{
    static const char *const dists[] = {"tensorflow_cpu", "tensorflow_gpu"};
    const char *dist = "tensorflow";
    listing l;
    char v[48];
    bool dir;
    list_into(o, site, "tensorflow", &l);
    for (size_t i = 0; i < 2; i++)
        if (!dist_info(&l, dist, v, sizeof v, NULL, 0) && dist_info(&l, dists[i], v, sizeof v, NULL, 0)) dist = dists[i];
    cp_framework *fw = start_fw(o, site, "tensorflow", &l, dist, &dir);
    if (!fw || !dir) return;
    const char *pkg = fw->package_dir;
    tf_build_info(o, fw, pkg);
    if (!fw->cuda_version[0] && strcmp(dist, "tensorflow_cpu") == 0) {
        set_cuda(fw, CP_FW_CUDA_CPU, "tensorflow_cpu dist-info");
    }
}

/* See frameworks.h. */
int cp_frameworks_observe(cp_fs *fs, const cp_pyenv *py, cp_frameworks_facts *out)
{
    if (!fs || !out) return -EINVAL;
    memset(out, 0, sizeof *out);
    fw_obs *o = cp_calloc(1, sizeof *o);
    if (!o) return 0;   /* nothing seen is a fact too; the caller has nothing to free */
    o->fs = fs;
    o->out = out;
    for (int i = 0; py && i < py->n && i < CP_MAX_SITES; i++) {
        const char *site = py->site[i];
        if (out->npython < CP_MAX_PYENVS) cp_str_copy(out->python[out->npython++], CP_PATH_MAX, site);
        find_torch(o, site);
        find_jax(o, site);
        find_cupy(o, site);
        find_tensorflow(o, site);
    }
    free(o);
    return 0;
}
