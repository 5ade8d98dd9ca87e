/*
 * Runtime layer sources, second half: the libcudart copies a program could
 * load (LD_LIBRARY_PATH folders, ld.so.cache, each toolkit's lib64/ and
 * lib/), their versions, the copy the dynamic loader would pick per soname,
 * and the stubs / compat libcuda on the loader path.  Called from
 * cp_runtime_observe in toolkit.c; read through the cp_fs only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"
#include "host/host.h"
#include "installed/installed.h"
#include "kb/kb.h"
#include "installed/runtime_int.h"

/* "libcudart.so.12.4.127" -> 12, 4, 127; returns components parsed. */
static int cudart_name_version(const char *path, int64_t v[3])
{
    const char *name = cp_path_base(path);
    v[0] = v[1] = v[2] = CP_UNKNOWN;
    if (strncmp(name, "libcudart.so.", 13) != 0)
        return 0;
    return cp_version_split(name + 13, &v[0], &v[1], &v[2]);
}

/* The toolkit whose tree holds `real`; see installed.h. */
const cp_toolkit *cp_toolkit_holding(const cp_runtime_facts *rt, const char *real)
{
    for (int i = 0; i < rt->ntk; i++) {
        size_t n = strlen(rt->tk[i].path);
        if (n && strncmp(real, rt->tk[i].path, n) == 0 && real[n] == '/')
            return &rt->tk[i];
    }
    return NULL;
}

/* Version of one copy: from its file name or its link target's name,
 * whichever says more; else from the toolkit it lives in, when the majors
 * agree. */
static void cudart_version(const obs *o, cp_cudart *c, const char *real)
{
    int64_t a[3], b[3], t[3];
    int na = cudart_name_version(c->path, a);
    int nb = cudart_name_version(real, b);
    const int64_t *best = nb > na ? b : a;
    c->major = best[0];
    c->minor = best[1];
    c->patch = best[2];
    const cp_toolkit *tk = cp_toolkit_holding(o->rt, real);
    if ((na > nb ? na : nb) >= 3 || !tk ||
        cp_version_split(tk->version, &t[0], &t[1], &t[2]) == 0)
        return;
    if (CP_KNOWN(c->major) && c->major != t[0])
        return;   /* a stray copy dropped into a toolkit of another major */
    c->major = t[0];
    c->minor = t[1];
    c->patch = t[2];
}

/* Add one libcudart copy at `path` unless the same real file is already
 * listed (the first finder wins: LD_LIBRARY_PATH, ld.so.cache, toolkit). */
static void add_cudart(obs *o, const char *path, const char *found_by)
{
    char real[CP_PATH_MAX];
    cp_runtime_facts *rt = o->rt;
    if (cp_fs_stat_real(o->fs, path, real, sizeof real) != CP_FS_FILE)
        return;
    for (int i = 0; i < rt->nrt; i++)
        if (strcmp(o->real[i], real) == 0)
            return;
    if (rt->nrt >= CP_MAX_CUDARTS)
        return;
    cp_cudart *c = &rt->rt[rt->nrt];
    memset(c, 0, sizeof *c);
    cp_str_copy(c->path, sizeof c->path, path);
    cp_str_copy(c->found_by, sizeof c->found_by, found_by);
    cp_str_copy(o->real[rt->nrt], sizeof o->real[0], real);
    rt->nrt++;
    cudart_version(o, c, real);
}

typedef struct {
    obs *o;
    const char *dir;
    const char *found_by;
} dir_arg;

static int cudart_dir_cb(const char *name, cp_fs_type type, void *arg)
{
    dir_arg *a = arg;
    char path[CP_PATH_MAX];
    (void)type;
    /* libcudart.so.N[.M.P]; the bare libcudart.so is the link-time name only */
    if (strncmp(name, "libcudart.so.", 13) == 0 && name[13] >= '0' && name[13] <= '9' &&
        cp_path_join(path, sizeof path, a->dir, name) == 0)
        add_cudart(a->o, path, a->found_by);
    return 0;
}

/* Add each libcudart.so.N* in `dir` as found by `found_by`. */
void cp_rt_scan_dir(obs *o, const char *dir, const char *found_by)
{
    dir_arg a = {o, dir, found_by};
    cp_fs_list(o->fs, dir, cudart_dir_cb, &a);
}

static int cache_cb(const char *soname, const char *path, void *arg)
{
    obs *o = arg;
    if (strcmp(soname, "libcuda.so.1") == 0 && !o->cache_libcuda[0] && strlen(path) < sizeof o->cache_libcuda)
        cp_str_copy(o->cache_libcuda, sizeof o->cache_libcuda, path);
    if (strncmp(soname, "libcudart.so.", 13) != 0 || o->ncache >= CP_MAX_CUDARTS)
        return 0;
    cp_cache_entry *c = &o->cache[o->ncache];
    if (strlen(soname) >= sizeof c->soname || strlen(path) >= sizeof c->path || path[0] != '/')
        return 0;
    cp_str_copy(c->soname, sizeof c->soname, soname);
    cp_str_copy(c->path, sizeof c->path, path);
    o->ncache++;
    return 0;
}

/* Note ld.so.cache's libcudart and libcuda.so.1 entries in o, add those copies. */
void cp_rt_read_ldcache(obs *o)
{
    char *buf = NULL;
    size_t n = 0;
    if (cp_fs_read_alloc(o->fs, "/etc/ld.so.cache", 16u << 20, &buf, &n) != 0) {
        o->rt->ldcache_readable = CP_NO;
        return;
    }
    int r = cp_parse_ldcache((const unsigned char *)buf, n, cache_cb, o);
    free(buf);
    /* a cache we cannot parse tells the loader's answer no better than none */
    o->rt->ldcache_readable = r < 0 ? CP_NO : CP_YES;
    for (int i = 0; i < o->ncache; i++)
        add_cudart(o, o->cache[i].path, "ld.so.cache");
}

/* The soname a program built against cudart major.minor asks for: every
 * 11.x shares "libcudart.so.11.0", 10.x and older carry major.minor, 12 and
 * later the major alone.  Returns 0, or -1 when it cannot be told. */
int cp_rt_cudart_soname(int64_t major, int64_t minor, char *buf, size_t cap)
{
    if (!CP_KNOWN(major) || major < 0 || major > 999)
        return -1;
    if (major >= 12)
        snprintf(buf, cap, "libcudart.so.%lld", (long long)major);
    else if (major == 11)
        snprintf(buf, cap, "libcudart.so.11.0");
    else if (CP_KNOWN(minor) && minor >= 0 && minor <= 999)
        snprintf(buf, cap, "libcudart.so.%lld.%lld", (long long)major, (long long)minor);
    else
        return -1;
    return 0;
}

/* The copy the loader opens for a soname; see installed.h. */
bool cp_loader_pick(cp_fs *fs, const cp_host_facts *h, const cp_cache_entry *cache, int ncache,
                    const char *soname, char *real, size_t cap)
{
    char dir[CP_PATH_MAX], path[2 * CP_PATH_MAX];
    const char *p = cp_host_getenv(h, "LD_LIBRARY_PATH");
    while (cp_list_next(&p, ':', dir, sizeof dir))
        if (dir[0] == '/' && cp_path_join(path, sizeof path, dir, soname) == 0 &&
            cp_fs_stat_real(fs, path, real, cap) == CP_FS_FILE)
            return true;
    for (int i = 0; i < ncache; i++)
        if (strcmp(cache[i].soname, soname) == 0 &&
            cp_fs_stat_real(fs, cache[i].path, real, cap) == CP_FS_FILE)
            return true;
    return false;
}

/* Mark the libcudart copy the dynamic loader would open for `soname`
 * (cp_loader_pick). */
void cp_rt_mark_would_load(obs *o, const char *soname)
{
    char real[CP_PATH_MAX];
    if (!cp_loader_pick(o->fs, o->h, o->cache, o->ncache, soname, real, sizeof real))
        return;
    for (int i = 0; i < o->rt->nrt; i++)
        if (strcmp(o->real[i], real) == 0)
            o->rt->rt[i].would_load = true;
}

/* A stubs folder on LD_LIBRARY_PATH: named .../stubs, or holding a libcuda
 * that really lives in one.  Programs then load the stub and fail with
 * CUDA_ERROR_STUB_LIBRARY (34). */
void cp_rt_find_stubs(obs *o)
{
    static const char *const names[] = {"libcuda.so.1", "libcuda.so"};
    char dir[CP_PATH_MAX], path[2 * CP_PATH_MAX], real[CP_PATH_MAX];
    const char *p = cp_host_getenv(o->h, "LD_LIBRARY_PATH");
    while (cp_list_next(&p, ':', dir, sizeof dir)) {
        size_t n = strlen(dir);
        while (n > 1 && dir[n - 1] == '/')
            dir[--n] = '\0';
        bool stub = cp_str_ends_with(dir, "/stubs");
        for (size_t i = 0; !stub && dir[0] == '/' && i < 2; i++)
            stub = cp_path_join(path, sizeof path, dir, names[i]) == 0 &&
                   cp_fs_stat_real(o->fs, path, real, sizeof real) == CP_FS_FILE &&
                   strstr(real, "/stubs/");
        if (stub) {
            cp_str_copy(o->rt->stubs_on_ld_path, sizeof o->rt->stubs_on_ld_path, dir);
            return;
        }
    }
}

/* The libcuda.so.1 the dynamic loader hands out (first LD_LIBRARY_PATH
 * folder holding one, else ld.so.cache), when it lives in a compat/ folder. */
void cp_rt_find_compat_on_path(obs *o)
{
    char dir[CP_PATH_MAX], path[2 * CP_PATH_MAX], real[CP_PATH_MAX];
    const char *p = cp_host_getenv(o->h, "LD_LIBRARY_PATH");
    while (cp_list_next(&p, ':', dir, sizeof dir)) {
        if (dir[0] != '/' || cp_path_join(path, sizeof path, dir, "libcuda.so.1") != 0 ||
            cp_fs_stat_real(o->fs, path, real, sizeof real) != CP_FS_FILE)
            continue;
        if (strstr(real, "/compat/")) cp_str_copy(o->rt->compat_on_loader_path, sizeof o->rt->compat_on_loader_path, real);
        return;   /* the first libcuda.so.1 on LD_LIBRARY_PATH wins, compat or not */
    }
    if (o->cache_libcuda[0] && cp_fs_stat_real(o->fs, o->cache_libcuda, real, sizeof real) == CP_FS_FILE &&
        strstr(real, "/compat/"))
        cp_str_copy(o->rt->compat_on_loader_path, sizeof o->rt->compat_on_loader_path, real);
}
