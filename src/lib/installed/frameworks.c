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
 * opened directly, by cp_arch_scan, because it can be 500 MB.
 *
 * Every cp_fs call takes a path with its links resolved: a snapshot records a
 * path as it was asked for, and a file recorded below a link's name would
 * turn that link into a plain folder on replay.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/alloc.h"
#include "cuprobe/arch.h"
#include "installed/frameworks.h"
#include "host/host.h"

#define MAX_SITES 12          /* site-packages folders examined */
#define LIST_MAX 32
#define PY_TEXT_MAX 16384     /* jax/version.py is ~6 KB; the rest are smaller */
#define TF_INFO "tensorflow build_info.py"

typedef struct {
    cp_fs *fs;
    cp_frameworks_facts *out;
    int nsites;
    char sites[MAX_SITES][CP_PATH_MAX];
    char text[PY_TEXT_MAX];   /* the Python file being read */
} fw_obs;

typedef struct {
    int n;
    char name[LIST_MAX][128];
    cp_fs_type type[LIST_MAX];
} listing;

/* ------------------------------------------------------------ helpers -- */

static void setstr(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

static int join(char *out, size_t cap, const char *dir, const char *name)
{
    size_t d = strlen(dir);
    int n = snprintf(out, cap, "%s%s%s", dir, (d && dir[d - 1] == '/') ? "" : "/", name);
    return (n < 0 || (size_t)n >= cap) ? -1 : 0;
}

/* Cut the last component off an absolute path in place ("/a/b" -> "/a",
 * "/a" -> "/"). */
static void parent_dir(char *p)
{
    char *s = strrchr(p, '/');
    if (!s) return;
    if (s == p) p[1] = '\0';
    else *s = '\0';
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* realpath(3) through the cp_fs, without needing the last components to
 * exist.  ".." is applied after the links before it are followed, as the
 * kernel does.  Returns 0, or -1 for a relative path, a loop, or no room. */
static int resolve(cp_fs *fs, const char *in, char *out, size_t cap)
{
    char done[CP_PATH_MAX], rest[2 * CP_PATH_MAX], tmp[2 * CP_PATH_MAX], link[CP_PATH_MAX];
    size_t dn = 0;
    int hops = 0;
    if (!in || in[0] != '/' || strlen(in) >= sizeof rest) return -1;
    strcpy(rest, in);
    done[0] = '\0';
    const char *p = rest;
    for (;;) {
        while (*p == '/') p++;
        if (!*p) break;
        size_t n = strcspn(p, "/");
        bool dots = n == 2 && p[0] == '.' && p[1] == '.';
        if (dots) { while (dn && done[--dn] != '/') {} done[dn] = '\0'; }
        if (dots || (n == 1 && p[0] == '.')) { p += n; continue; }
        if (dn + 1 + n >= sizeof done) return -1;
        size_t parent = dn;
        done[dn++] = '/';
        memcpy(done + dn, p, n);
        done[dn += n] = '\0';
        p += n;
        if (cp_fs_readlink(fs, done, link, sizeof link) != 0)
            continue;   /* not a link, or missing: keep the name */
        if (++hops > 40)
            return -1;  /* ELOOP, as the kernel counts */
        int w = snprintf(tmp, sizeof tmp, "%s/%s", link, p);
        if (w < 0 || (size_t)w >= sizeof tmp) return -1;
        memcpy(rest, tmp, (size_t)w + 1);
        p = rest;
        dn = link[0] == '/' ? 0 : parent;
        done[dn] = '\0';
    }
    int w = snprintf(out, cap, "%s", dn ? done : "/");
    return (w < 0 || (size_t)w >= cap) ? -1 : 0;
}

static cp_fs_type kind(fw_obs *o, const char *path)
{
    char real[CP_PATH_MAX];
    if (resolve(o->fs, path, real, sizeof real) != 0) return CP_FS_MISSING;
    return cp_fs_stat(o->fs, real, NULL, NULL, NULL);
}

static int read_text(fw_obs *o, const char *path, char *buf, size_t cap, size_t *len)
{
    char real[CP_PATH_MAX];
    if (resolve(o->fs, path, real, sizeof real) != 0) return -ENAMETOOLONG;
    return cp_fs_read(o->fs, real, buf, cap, len);
}

static int listing_cb(const char *name, cp_fs_type type, void *arg)
{
    listing *l = arg;
    if (l->n < LIST_MAX && strlen(name) < sizeof l->name[0]) { strcpy(l->name[l->n], name); l->type[l->n++] = type; }
    return 0;
}

/* The entries of dir starting with prefix (only those are recorded). */
static void list_into(fw_obs *o, const char *dir, const char *prefix, listing *l)
{
    char real[CP_PATH_MAX];
    l->n = 0;
    if (resolve(o->fs, dir, real, sizeof real) == 0) cp_fs_list_prefix(o->fs, real, prefix, listing_cb, l);
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
    size_t plen = strlen(pkg), slen = strlen(".dist-info");
    for (int i = 0; i < l->n; i++) {
        const char *n = l->name[i];
        size_t len = strlen(n);
        if (strncmp(n, pkg, plen) != 0 || n[plen] != '-' || !ends_with(n, ".dist-info")) continue;
        size_t vlen = len - plen - 1 - slen;
        if (vlen == 0 || vlen >= cap) continue;
        memcpy(ver, n + plen + 1, vlen);
        ver[vlen] = '\0';
        if (di) setstr(di, dcap, n);
        return true;
    }
    return false;
}

static void add_problem(cp_framework *fw, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_problem(cp_framework *fw, const char *fmt, ...)
{
    size_t n = strlen(fw->problem);
    va_list ap;
    if (n && n + 2 < sizeof fw->problem) { strcpy(fw->problem + n, "; "); n += 2; }
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
    strcpy(fw->codes[fw->ncodes++], name);
}

static cp_framework *new_fw(fw_obs *o, const char *name, const char *pkg)
{
    if (o->out->nfw >= CP_MAX_FRAMEWORKS) return NULL;
    cp_framework *fw = &o->out->fw[o->out->nfw++];
    memset(fw, 0, sizeof *fw);
    setstr(fw->name, sizeof fw->name, name);
    setstr(fw->package_dir, sizeof fw->package_dir, pkg);
    return fw;
}

static void set_cuda(cp_framework *fw, const char *version, const char *source)
{
    setstr(fw->cuda_version, sizeof fw->cuda_version, version);
    setstr(fw->cuda_source, sizeof fw->cuda_source, source);
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
    if ((!*dir && !has_di) || join(pkg, sizeof pkg, site, name) != 0 || !(fw = new_fw(o, name, pkg))) return NULL;
    setstr(fw->version, sizeof fw->version, dv);
    if (!*dir)
        add_problem(fw, "'%s' is there without the %s folder: a half-removed install ('import %s' fails)", di, name,
                    name);
    return fw;
}

/* ------------------------------------------------------ Python text -- */

/* The quoted string at p ('x' or "x", one line, no escapes) into out.
 * Returns the bytes consumed, or -1 (out "") when there is none or it does
 * not fit. */
static int quoted(const char *p, const char *end, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    if (p >= end || (*p != '\'' && *p != '"')) return -1;
    for (const char *s = p + 1; s < end; s++) {
        if (*s == *p) { out[n] = '\0'; return (int)(s - p + 1); }
        if ((unsigned char)*s < 0x20 || *s == '\\' || n + 1 >= cap) break;
        out[n++] = *s;
    }
    out[0] = '\0';
    return -1;
}

/* The value of `name = 'x'` or `name: Optional[str] = "x"` at a line start
 * (torch/version.py, jax/version.py, cupy/_version.py).  Returns 1 with the
 * string in out, 0 for `= None`, -1 when no such line. */
static int py_assign(const char *t, size_t len, const char *name, char *out, size_t cap)
{
    const char *end = t + len, *line = t;
    size_t nl = strlen(name);
    while (line < end) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol) eol = end;
        const char *p = line + nl;
        if ((size_t)(eol - line) > nl && memcmp(line, name, nl) == 0 &&
            (*p == ' ' || *p == '=' || *p == ':')) {
            if (*p == ':')
                p = memchr(p, '=', (size_t)(eol - p));   /* skip the annotation */
            while (p && p < eol && *p == ' ') p++;
            if (p && p + 1 < eol && p[0] == '=' && p[1] != '=') {
                for (p++; p < eol && *p == ' '; p++) {}
                if (eol - p >= 4 && memcmp(p, "None", 4) == 0) return 0;
                if (quoted(p, eol, out, cap) > 0) return 1;
            }
        }
        line = eol + 1;
    }
    out[0] = '\0';
    return -1;
}

/* Where the value of a quoted key starts in a dict or pair list, the two
 * forms TensorFlow's build_info.py has used: {'k': v} and [('k', v)].
 * NULL when the key is absent. */
static const char *py_key(const char *t, size_t len, const char *key)
{
    char pat[64];
    const char *end = t + len;
    for (int q = 0; q < 2; q++) {
        snprintf(pat, sizeof pat, q ? "\"%s\"" : "'%s'", key);
        const char *p = memmem(t, len, pat, strlen(pat));
        if (!p) continue;
        for (p += strlen(pat); p < end && *p == ' '; p++) {}
        if (p < end && (*p == ':' || *p == ',')) p++;
        for (; p < end && *p == ' '; p++) {}
        return p < end ? p : NULL;
    }
    return NULL;
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
    if (resolve(o->fs, path, mpath, sizeof mpath) != 0 ||
        cp_fs_stat(o->fs, mpath, NULL, NULL, NULL) != CP_FS_FILE)
        return;
    snprintf(real, sizeof real, "%s%s", cp_fs_is_live(o->fs) ? "" : cp_fs_root(o->fs), mpath);
    if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) return;
    if (!cp_fs_is_live(o->fs) && st.st_size == 0) return;
    cp_arch_summary *s = cp_malloc(sizeof *s);
    if (!s) return;
    setstr(fw->gpu_lib, sizeof fw->gpu_lib, mpath);
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
    if (join(f, sizeof f, pkg, "version.py") != 0 || read_text(o, f, o->text, sizeof o->text, &len) != 0) {
        add_problem(fw, "'%s' has no version.py: a broken or partial install", pkg);
        return;
    }
    if (py_assign(o->text, len, "__version__", v, sizeof v) == 1)
        setstr(fw->version, sizeof fw->version, v);   /* has the +cu130 the dist-info name lacks */
    else add_problem(fw, "'%s' names no __version__", f);
    int r = py_assign(o->text, len, "cuda", cu, sizeof cu);
    if (r >= 0) set_cuda(fw, r ? cu : CP_FW_CUDA_CPU, "torch/version.py");
    if (!is_cuda_build(fw)) return;
    if (join(f, sizeof f, pkg, "lib/libtorch_cuda.so") == 0 && kind(o, f) == CP_FS_FILE) scan_gpu_lib(o, fw, f);
    else add_problem(fw, "'%s' is missing from a CUDA build", f);
}

/* CUDA of jax from its plugin's dist-info ("jax_cuda13_plugin-0.11.2"), or
 * from an old jaxlib's local version ("0.4.20+cuda12.cudnn89"). */
static void jax_cuda(cp_framework *fw, const listing *l, const char *jaxlib_ver)
{
    for (int i = 0; i < l->n; i++) {
        const char *n = l->name[i], *p = n + 8;
        char major[8], ver[48], dist[32];
        if (strncmp(n, "jax_cuda", 8) != 0 || !ends_with(n, ".dist-info")) continue;
        size_t d = strspn(p, "0123456789");
        if (d == 0 || d >= sizeof major || strncmp(p + d, "_plugin-", 8) != 0) continue;
        memcpy(major, p, d);
        major[d] = '\0';
        setstr(fw->cuda_version, sizeof fw->cuda_version, major);
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
        setstr(fw->cuda_source, sizeof fw->cuda_source, "jaxlib version");
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
    if (join(f, sizeof f, pkg, "version.py") == 0 && read_text(o, f, o->text, sizeof o->text, &len) == 0 &&
        py_assign(o->text, len, "_version", v, sizeof v) == 1)
        setstr(fw->version, sizeof fw->version, v);
    if (!fw->version[0]) add_problem(fw, "'%s' has neither a readable version.py nor a dist-info", pkg);
    dist_info(&l, "jaxlib", jl, sizeof jl, NULL, 0);
    if (!has_dir(&l, "jaxlib")) add_problem(fw, "jax is installed without jaxlib: 'import jax' fails");
    jax_cuda(fw, &l, jl);
    if (!is_cuda_build(fw)) return;
    /* the PJRT plugin holds XLA's GPU runtime; jax_cudaNN_plugin only helpers */
    if (join(f, sizeof f, site, "jax_plugins") == 0) list_into(o, f, "xla_cuda", &pl);
    for (int i = 0; i < pl.n; i++) {
        char lib[CP_PATH_MAX], sub[CP_PATH_MAX];
        if (join(sub, sizeof sub, f, pl.name[i]) == 0 && join(lib, sizeof lib, sub, "xla_cuda_plugin.so") == 0 &&
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
        char *n = l.name[i], *dash = strchr(n, '-');
        if (!dash || !ends_with(n, ".dist-info") || (size_t)(dash - n) >= sizeof first ||
            (strncmp(n, "cupy-", 5) != 0 && strncmp(n, "cupy_cuda", 9) != 0))
            continue;
        if (!fw && (join(pkg, sizeof pkg, site, "cupy") != 0 || !(fw = new_fw(o, "cupy", pkg)))) return;
        *dash = '\0';   /* n is now the package name */
        if (ndi++ == 0) {
            setstr(first, sizeof first, n);
            snprintf(fw->version, sizeof fw->version, "%.*s", (int)(strlen(dash + 1) - strlen(".dist-info")), dash + 1);
            cupy_cuda(n, fw->cuda_version, sizeof fw->cuda_version);
            if (fw->cuda_version[0]) snprintf(fw->cuda_source, sizeof fw->cuda_source, "%.36s dist-info", n);
        } else {
            add_problem(fw, "both %s and %s are installed: they share the cupy folder, so one overwrote "
                        "the other's files", first, n);
        }
    }
    if (!fw && (!dir || join(pkg, sizeof pkg, site, "cupy") != 0 || !(fw = new_fw(o, "cupy", pkg)))) return;
    if (!dir) { add_problem(fw, "'%s' without the cupy folder: a half-removed install", first); return; }
    if (!fw->version[0] && join(f, sizeof f, pkg, "_version.py") == 0 &&
        read_text(o, f, o->text, sizeof o->text, &len) == 0)
        py_assign(o->text, len, "__version__", fw->version, sizeof fw->version);
    /* CuPy compiles most kernels at run time with NVRTC; CUB is its largest
     * prebuilt GPU code, so that library speaks for it */
    if (join(f, sizeof f, pkg, "cuda") == 0) list_into(o, f, "cub.", &cl);
    for (int i = 0; i < cl.n; i++) {
        char lib[CP_PATH_MAX];
        if (ends_with(cl.name[i], ".so") && join(lib, sizeof lib, f, cl.name[i]) == 0)
            { scan_gpu_lib(o, fw, lib); break; }
    }
}

/* TensorFlow's build_info.py: CUDA version, CUDA or not, and the codes it
 * was built with (its GPU code sits in a 1 GB library; the list is enough). */
static void tf_build_info(fw_obs *o, cp_framework *fw, const char *pkg)
{
    char f[CP_PATH_MAX], v[16];
    const char *text = o->text;
    size_t len;
    if (join(f, sizeof f, pkg, "python/platform/build_info.py") != 0 ||
        read_text(o, f, o->text, sizeof o->text, &len) != 0)
        return;
    const char *end = text + len, *p = py_key(text, len, "is_cuda_build");
    if (p && end - p >= 5 && memcmp(p, "False", 5) == 0) { set_cuda(fw, CP_FW_CUDA_CPU, TF_INFO); return; }
    if ((p = py_key(text, len, "cuda_version")) && quoted(p, end, v, sizeof v) > 0) set_cuda(fw, v, TF_INFO);
    if (!(p = py_key(text, len, "cuda_compute_capabilities")) || *p != '[') return;
    for (p++; p < end && *p != ']' && *p != '\n';) {
        int n = quoted(p, end, v, sizeof v);
        if (n < 0) { p++; continue; }
        if (strncmp(v, "sm_", 3) == 0 || strncmp(v, "compute_", 8) == 0) add_code(fw, v, 0);
        p += n;
    }
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

/* ----------------------------------------------------- environments -- */

static void add_site(fw_obs *o, const char *dir)
{
    char real[CP_PATH_MAX];
    if (resolve(o->fs, dir, real, sizeof real) != 0 || cp_fs_stat(o->fs, real, NULL, NULL, NULL) != CP_FS_DIR) return;
    for (int i = 0; i < o->nsites; i++)
        if (strcmp(o->sites[i], real) == 0) return;
    if (o->nsites >= MAX_SITES) return;
    strcpy(o->sites[o->nsites++], real);
    if (o->out->npython < CP_MAX_PYENVS) setstr(o->out->python[o->out->npython++], CP_PATH_MAX, real);
    find_torch(o, real);
    find_jax(o, real);
    find_cupy(o, real);
    find_tensorflow(o, real);
}

/* PREFIX/lib/python3.N/LEAF for every N present (a venv's lib64 is a link
 * to lib). */
static void add_prefix(fw_obs *o, const char *prefix, const char *leaf)
{
    char libdir[CP_PATH_MAX], site[CP_PATH_MAX];
    listing l;
    if (join(libdir, sizeof libdir, prefix, "lib") != 0) return;
    list_into(o, libdir, "python3.", &l);
    for (int i = 0; i < l.n; i++) {
        const char *n = l.name[i] + strlen("python3.");
        if (l.type[i] != CP_FS_DIR || !*n || n[strspn(n, "0123456789")] != '\0') continue;
        if (snprintf(site, sizeof site, "%s/%s/%s", libdir, l.name[i], leaf) < (int)sizeof site) add_site(o, site);
    }
}

/* The first NAME on $PATH, as found (links not resolved: a venv's python
 * is a link out of the venv). */
static int find_on_path(fw_obs *o, const cp_host_facts *h, const char *name, char *out, size_t cap)
{
    const char *p = cp_host_getenv(h, "PATH");
    char dir[CP_PATH_MAX];
    while (p && *p) {
        size_t n = strcspn(p, ":");
        if (n > 0 && n < sizeof dir && p[0] == '/') {
            memcpy(dir, p, n);
            dir[n] = '\0';
            if (join(out, cap, dir, name) == 0 && kind(o, out) == CP_FS_FILE) return 0;
        }
        p += n + (p[n] == ':');
    }
    return -1;
}

/* The site-packages of an interpreter, found as Python finds its prefix: a
 * pyvenv.cfg beside the executable or one folder up makes that folder the
 * prefix (before links are followed); otherwise the prefix is the folder
 * above the real executable's bin/. */
static void add_interpreter(fw_obs *o, const cp_host_facts *h, const char *py)
{
    char path[CP_PATH_MAX], dir[CP_PATH_MAX], cfg[CP_PATH_MAX];
    if (!py || !py[0]) return;
    if (!strchr(py, '/')) { if (find_on_path(o, h, py, path, sizeof path) != 0) return; }
    else if (py[0] != '/' || strlen(py) >= sizeof path) return;   /* relative: a replay has no working folder */
    else strcpy(path, py);
    setstr(dir, sizeof dir, path);
    parent_dir(dir);
    for (int up = 0; up < 2; up++) {
        if (join(cfg, sizeof cfg, dir, "pyvenv.cfg") == 0 && kind(o, cfg) == CP_FS_FILE) { add_prefix(o, dir, "site-packages"); return; }
        parent_dir(dir);
    }
    if (resolve(o->fs, path, dir, sizeof dir) != 0) return;
    parent_dir(dir);
    parent_dir(dir);
    add_prefix(o, dir, "site-packages");
}

/* See frameworks.h. */
int cp_frameworks_observe(cp_fs *fs, const cp_host_facts *h, const char *python, cp_frameworks_facts *out)
{
    if (!fs || !out) return -EINVAL;
    memset(out, 0, sizeof *out);
    fw_obs *o = cp_calloc(1, sizeof *o);
    if (!o) return 0;   /* nothing seen is a fact too; the caller has nothing to free */
    o->fs = fs;
    o->out = out;
    add_interpreter(o, h, python);
    const char *v = cp_host_getenv(h, "VIRTUAL_ENV");
    if (v && v[0] == '/') add_prefix(o, v, "site-packages");
    v = cp_host_getenv(h, "CONDA_PREFIX");
    if (v && v[0] == '/') add_prefix(o, v, "site-packages");
    add_interpreter(o, h, "python3");
    add_prefix(o, "/usr/local", "dist-packages");   /* Debian's pip outside a venv */
    add_site(o, "/usr/lib/python3/dist-packages");  /* Debian's python3-* packages */
    free(o);
    return 0;
}
