/*
 * Runtime layer sources: CUDA toolkits on disk (version files, dist-info,
 * stubs, compat) and cp_runtime_observe, which also gathers the libcudart
 * copies a program could load (cudart.c), found the way a program and the
 * dynamic loader would find them.  Everything is read through the cp_fs (never exec, never
 * dlopen), so replaying a snapshot sees the same answer; environment values
 * come from the captured h->env.  toolkit.c calls into cudart.c (through
 * runtime_int.h), never the other way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/str.h"
#include "host/host.h"
#include "installed/installed.h"
#include "kb/kb.h"
#include "installed/runtime_int.h"

/* ------------------------------------------------ other version files -- */

/* Copy the version-looking run (digits and dots, starting with a digit) at
 * p..end into out.  Returns 0 or -1. */
static int copy_version_run(const char *p, const char *end, char *out, size_t cap)
{
    size_t w = 0;
    if (cap == 0 || p >= end || !(*p >= '0' && *p <= '9'))
        return -1;
    while (p < end && ((*p >= '0' && *p <= '9') || *p == '.') && w + 1 < cap)
        out[w++] = *p++;
    while (w > 0 && out[w - 1] == '.')
        w--;   /* "11.8." at a sentence end */
    out[w] = '\0';
    return w ? 0 : -1;
}

/* version.txt, the file before version.json; see installed.h. */
int cp_parse_version_txt(const char *text, size_t len, char *out, size_t cap)
{
    static const char tag[] = "CUDA Version ";
    const char *p = memmem(text, len, tag, sizeof tag - 1);
    if (!p)
        return -1;
    p += sizeof tag - 1;
    return copy_version_run(p, text + len, out, cap);
}

/* include/cuda.h's CUDA_VERSION; see installed.h. */
int cp_parse_cuda_h(const char *text, size_t len, char *out, size_t cap)
{
    static const char tag[] = "#define CUDA_VERSION";
    const char *end = text + len, *p = text;
    if (cap == 0)
        return -1;
    while ((p = memmem(p, (size_t)(end - p), tag, sizeof tag - 1)) != NULL) {
        p += sizeof tag - 1;
        if (p >= end || (*p != ' ' && *p != '\t'))
            continue;   /* CUDA_VERSION_SOMETHING */
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        long long v = 0;
        int digits = 0;
        while (p < end && *p >= '0' && *p <= '9' && digits < 7) {
            v = v * 10 + (*p++ - '0');
            digits++;
        }
        if (digits < 4)
            return -1;
        cp_cuda_version_str(v, out, cap);
        return 0;
    }
    return -1;
}

/* ------------------------------------------------------------ observe -- */

static void toolkit_dist_info(cp_fs *fs, cp_toolkit *t);

/* "libcudart.so.13.0.96" (major.minor.patch, not the soname link) -> "13.0.96". */
static int cudart_file_cb(const char *name, cp_fs_type type, void *arg)
{
    cp_toolkit *t = arg;
    const char *v = name + 13;
    if (type != CP_FS_FILE || strncmp(name, "libcudart.so.", 13) != 0 || !(*v >= '0' && *v <= '9'))
        return 0;
    int dots = 0;
    for (const char *p = v; *p; p++) {
        if (*p == '.') dots++;
        else if (*p < '0' || *p > '9') return 0;
    }
    if (dots == 2 && !t->version[0]) cp_str_copy(t->version, sizeof t->version, v);
    return 0;
}

/* Prefer the sources that name the full release: version.json, version.txt,
 * then the dist-info folder names of pip-style trees; cuda.h, which only
 * knows major.minor, comes last (and its text then goes into snapshots). */
static void toolkit_version(cp_fs *fs, cp_toolkit *t)
{
    char path[CP_PATH_MAX + 32], small[512];
    char *buf = NULL;
    size_t n = 0;
    if (cp_path_join(path, sizeof path, t->path, "version.json") == 0 &&
        cp_fs_read_alloc(fs, path, 256 * 1024, &buf, &n) == 0) {
        int ok = cp_parse_version_json(buf, n, t->version, sizeof t->version) == 0;
        free(buf);
        if (ok) {
            cp_str_copy(t->version_source, sizeof t->version_source, "version.json");
            return;
        }
    }
    if (cp_path_join(path, sizeof path, t->path, "version.txt") == 0 &&
        cp_fs_read(fs, path, small, sizeof small, &n) == 0 &&
        cp_parse_version_txt(small, n, t->version, sizeof t->version) == 0) {
        cp_str_copy(t->version_source, sizeof t->version_source, "version.txt");
        return;
    }
    /* pip-style trees name their release in dist-info folder names */
    toolkit_dist_info(fs, t);
    if (t->version[0])
        return;
    /* the runtime's versioned file, libcudart.so.13.0.96, names it too */
    static const char *const libdirs[] = {"lib64", "lib"};
    for (size_t i = 0; i < 2 && !t->version[0]; i++)
        if (cp_path_join(path, sizeof path, t->path, libdirs[i]) == 0)
            cp_fs_list(fs, path, cudart_file_cb, t);
    if (t->version[0]) {
        cp_str_copy(t->version_source, sizeof t->version_source, "libcudart file");
        return;
    }
    /* CUDA_VERSION sits near the top of cuda.h (CUDA 13.0: line 263, byte 14 K of 1 MB) */
    if (cp_path_join(path, sizeof path, t->path, "include/cuda.h") == 0 &&
        cp_fs_read_alloc(fs, path, 32 * 1024, &buf, &n) == 0) {
        int ok = cp_parse_cuda_h(buf, n, t->version, sizeof t->version) == 0;
        free(buf);
        if (ok) {
            cp_str_copy(t->version_source, sizeof t->version_source, "cuda.h");
            return;
        }
    }
    t->version[0] = '\0';
}

typedef struct {
    const char *prefix;
    char *out;
    size_t cap;
} dist_arg;

/* "nvidia_cuda_runtime-13.0.96.dist-info" or
 * "nvidia_cuda_runtime_cu12-12.4.127.dist-info" with prefix
 * "nvidia_cuda_runtime" -> "13.0.96". */
static int dist_cb(const char *name, cp_fs_type type, void *arg)
{
    dist_arg *a = arg;
    cp_dist_info d;
    (void)type;
    if (cp_parse_dist_info(name, strlen(name), &d) != 0 || !cp_span_equals(d.base, a->prefix) || d.release.n == 0)
        return 0;
    cp_str_copy_n(a->out, a->cap, d.release.p, d.release.n);
    return 1;
}

/* Last resort: wheel metadata folders in TK/dist-info (runtime, then nvcc). */
static void toolkit_dist_info(cp_fs *fs, cp_toolkit *t)
{
    static const char *const prefixes[] = {"nvidia_cuda_runtime", "nvidia_cuda_nvcc"};
    char dir[CP_PATH_MAX + 16];
    if (t->version[0] || cp_path_join(dir, sizeof dir, t->path, "dist-info") != 0)
        return;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !t->version[0]; i++) {
        dist_arg a = {prefixes[i], t->version, sizeof t->version};
        cp_fs_list(fs, dir, dist_cb, &a);
    }
    if (t->version[0])
        cp_str_copy(t->version_source, sizeof t->version_source, "dist-info");
}

static int is_file(cp_fs *fs, const char *dir, const char *name)
{
    char path[2 * CP_PATH_MAX];
    return cp_path_join(path, sizeof path, dir, name) == 0 &&
           cp_fs_stat(fs, path, NULL, NULL, NULL) == CP_FS_FILE;
}

typedef struct {
    cp_fs *fs;
    const char *tk;
    bool found;
} stub_arg;

static int stub_cb(const char *name, cp_fs_type type, void *arg)
{
    stub_arg *a = arg;
    char path[2 * CP_PATH_MAX];
    (void)type;
    int n = snprintf(path, sizeof path, "%s/targets/%s/lib/stubs", a->tk, name);
    if (n > 0 && (size_t)n < sizeof path && is_file(a->fs, path, "libcuda.so"))
        a->found = true;
    return a->found;
}

/* lib64/ is the runfile layout, lib/ the one of some distribution and wheel
 * trees, targets/ARCH/lib the cross layout lib64 usually links to. */
static bool toolkit_has_stub(cp_fs *fs, const char *tk)
{
    char dir[2 * CP_PATH_MAX];
    if ((cp_path_join(dir, sizeof dir, tk, "lib64/stubs") == 0 && is_file(fs, dir, "libcuda.so")) ||
        (cp_path_join(dir, sizeof dir, tk, "lib/stubs") == 0 && is_file(fs, dir, "libcuda.so")))
        return true;
    stub_arg a = {fs, tk, false};
    if (cp_path_join(dir, sizeof dir, tk, "targets") == 0)
        cp_fs_list(fs, dir, stub_cb, &a);
    return a.found;
}

/* Is `tok` one of the ", "-separated items of `list`? */
static bool has_token(const char *list, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = list; (p = strstr(p, tok)) != NULL; p++)
        if ((p == list || (p >= list + 2 && p[-2] == ',' && p[-1] == ' ')) &&
            (p[n] == '\0' || p[n] == ','))
            return true;
    return false;
}

static int compat_cb(const char *name, cp_fs_type type, void *arg)
{
    cp_toolkit *t = arg;
    /* the versioned file: libcuda.so.580.95.05 (libcuda.so.1 links to it) */
    if (type == CP_FS_FILE && strncmp(name, "libcuda.so.", 11) == 0 && strchr(name + 11, '.') &&
        name[11] >= '0' && name[11] <= '9' && !t->compat_libcuda[0]) {
        char dir[CP_PATH_MAX + 8];
        if (cp_path_join(dir, sizeof dir, t->path, "compat") != 0 ||
            cp_path_join(t->compat_libcuda, sizeof t->compat_libcuda, dir, name) != 0) {
            t->compat_libcuda[0] = '\0';
            return 0;
        }
        cp_str_copy(t->compat_version, sizeof t->compat_version, name + 11);
    }
    return 0;
}

/* A cuda-compat package's newer (or older!) user-space driver in TK/compat. */
static void toolkit_compat(cp_fs *fs, cp_toolkit *t)
{
    char dir[CP_PATH_MAX + 8];
    if (cp_path_join(dir, sizeof dir, t->path, "compat") == 0)
        cp_fs_list(fs, dir, compat_cb, t);
}

/* Add the toolkit at `where` (any path; links resolved), found as `how`.
 * A toolkit already listed gets `how` appended to its found_as instead. */
static void add_toolkit(obs *o, const char *where, const char *how)
{
    char real[CP_PATH_MAX];
    cp_runtime_facts *rt = o->rt;
    if (cp_fs_stat_real(o->fs, where, real, sizeof real) != CP_FS_DIR)
        return;
    for (int i = 0; i < rt->ntk; i++) {
        cp_toolkit *t = &rt->tk[i];
        if (strcmp(t->path, real) != 0)
            continue;
        size_t used = strlen(t->found_as);
        if (!has_token(t->found_as, how) && used + 2 + strlen(how) < sizeof t->found_as)
            snprintf(t->found_as + used, sizeof t->found_as - used, ", %s", how);
        return;
    }
    if (rt->ntk >= CP_MAX_TOOLKITS)
        return;
    cp_toolkit *t = &rt->tk[rt->ntk++];
    memset(t, 0, sizeof *t);
    cp_str_copy(t->path, sizeof t->path, real);
    cp_str_copy(t->found_as, sizeof t->found_as, how);
    toolkit_version(o->fs, t);
    char bin[CP_PATH_MAX + 8];
    t->has_nvcc = cp_path_join(bin, sizeof bin, real, "bin") == 0 && is_file(o->fs, bin, "nvcc");
    t->has_stub_libcuda = toolkit_has_stub(o->fs, real);
    toolkit_compat(o->fs, t);
}

static int cuda_dir_cb(const char *name, cp_fs_type type, void *arg)
{
    char path[CP_PATH_MAX];
    (void)type;   /* links are followed by add_toolkit */
    if (strncmp(name, "cuda-", 5) == 0 && cp_path_join(path, sizeof path, "/usr/local", name) == 0)
        add_toolkit(arg, path, "/usr/local/cuda-*");
    return 0;
}

/* The first nvcc on PATH; its toolkit is the folder above its real bin/. */
static void find_nvcc(obs *o)
{
    char dir[CP_PATH_MAX], nvcc[CP_PATH_MAX], real[CP_PATH_MAX];
    const char *p = cp_host_getenv(o->h, "PATH");
    while (cp_list_next(&p, ':', dir, sizeof dir)) {
        if (dir[0] != '/' || cp_path_join(nvcc, sizeof nvcc, dir, "nvcc") != 0 ||
            cp_fs_stat_real(o->fs, nvcc, real, sizeof real) != CP_FS_FILE)
            continue;   /* relative entries depend on a cwd we do not know */
        cp_str_copy(o->rt->nvcc_on_path, sizeof o->rt->nvcc_on_path, nvcc);
        cp_path_parent(real);
        /* only a .../bin/nvcc names its toolkit; /usr/bin gives /usr, the
         * layout of distribution packages */
        if (cp_str_ends_with(real, "/bin")) {
            cp_path_parent(real);
            add_toolkit(o, real, "nvcc on PATH");
        }
        return;
    }
}

static void find_toolkits(obs *o)
{
    const char *v;
    add_toolkit(o, "/usr/local/cuda", "/usr/local/cuda");
    if ((v = cp_host_getenv(o->h, "CUDA_HOME")) != NULL && v[0] == '/')
        add_toolkit(o, v, "CUDA_HOME");
    if ((v = cp_host_getenv(o->h, "CUDA_PATH")) != NULL && v[0] == '/')
        add_toolkit(o, v, "CUDA_PATH");
    find_nvcc(o);
    cp_fs_list(o->fs, "/usr/local", cuda_dir_cb, o);
}

/* Fill rt with the toolkits (from /usr/local/cuda, $CUDA_HOME, $CUDA_PATH,
 * the first nvcc on $PATH and /usr/local/cuda-*, de-duplicated by real
 * path) and the libcudart copies (LD_LIBRARY_PATH folders, ld.so.cache,
 * each toolkit's lib64/ and lib/), marking per soname (libcudart.so.13,
 * libcudart.so.11.0) the copy the dynamic loader would pick.  Never runs programs.  Returns 0, -EINVAL for NULL
 * arguments, -ENOMEM; what could not be read stays unknown / empty. */
int cp_runtime_observe(cp_fs *fs, const cp_host_facts *h, cp_runtime_facts *rt)
{
    if (!fs || !h || !rt)
        return -EINVAL;
    memset(rt, 0, sizeof *rt);
    rt->ldcache_readable = CP_TRI_UNKNOWN;
    obs *o = cp_calloc(1, sizeof *o);
    if (!o)
        return -ENOMEM;
    o->fs = fs;
    o->h = h;
    o->rt = rt;

    find_toolkits(o);
    cp_rt_find_stubs(o);

    char dir[CP_PATH_MAX], lib[CP_PATH_MAX + 8];
    const char *p = cp_host_getenv(h, "LD_LIBRARY_PATH");
    while (cp_list_next(&p, ':', dir, sizeof dir))
        if (dir[0] == '/')
            cp_rt_scan_dir(o, dir, "LD_LIBRARY_PATH");
    cp_rt_read_ldcache(o);
    cp_rt_find_compat_on_path(o);
    for (int i = 0; i < rt->ntk; i++) {
        if (cp_path_join(lib, sizeof lib, rt->tk[i].path, "lib64") == 0)
            cp_rt_scan_dir(o, lib, "toolkit");
        if (cp_path_join(lib, sizeof lib, rt->tk[i].path, "lib") == 0)
            cp_rt_scan_dir(o, lib, "toolkit");
    }

    /* once per soname: marking is idempotent, the walk is cheap */
    for (int i = 0; i < rt->nrt; i++) {
        char soname[32];
        if (cp_rt_cudart_soname(rt->rt[i].major, rt->rt[i].minor, soname, sizeof soname) == 0)
            cp_rt_mark_would_load(o, soname);
    }
    free(o);
    return 0;
}
