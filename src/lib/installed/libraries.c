/*
 * Libraries layer sources: copies of the CUDA libraries a program could load
 * (see libraries.h).  The folders are walked in the loader's order of
 * preference (LD_LIBRARY_PATH, ld.so.cache) and then the places a program
 * or a framework brings its own (toolkits, Python wheels).  Everything goes
 * through the cp_fs, which follows links itself; a copy is known by its real
 * path (cp_fs_stat_real), so a file reached twice is listed once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/str.h"
#include "util/version.h"
#include "host/host.h"
#include "installed/installed.h"
#include "installed/libraries.h"
#include "kb/kb.h"

/* How to tell the CUDA major of a library. */
enum { MAJOR_FROM_SONAME, MAJOR_FROM_PLACE };

typedef struct {
    const char *name;        /* cp_library.name */
    const char *prefix;      /* "libcublas.so." */
    const char *dist;        /* wheel dist-info name before "-" or "_cuNN-" */
    int major_rule;
    int minor_in_soname;     /* CUDA <= 11 nvrtc/cupti: "libnvrtc.so.11.2" */
    int cuda_numbered;       /* its wheel's dist-info counts in CUDA's numbers (13.0.85 is CUDA 13.0) */
} lib_kind;

/* cuFFT, cuRAND, cuSOLVER and cuSPARSE number their sonames on their own
 * (libcufft.so.12 ships in CUDA 13), cuDNN and NCCL are separate products:
 * their CUDA major comes from the toolkit or wheel they sit in.  cuDNN's
 * sub-libraries (libcudnn_ops.so.9, ...) never match "libcudnn.so.". */
static const lib_kind kinds[] = {
    {"cublas", "libcublas.so.", "nvidia_cublas", MAJOR_FROM_SONAME, 0, 0},
    {"cublasLt", "libcublasLt.so.", "nvidia_cublas", MAJOR_FROM_SONAME, 0, 0},
    {"cudnn", "libcudnn.so.", "nvidia_cudnn", MAJOR_FROM_PLACE, 0, 0},
    {"cufft", "libcufft.so.", "nvidia_cufft", MAJOR_FROM_PLACE, 0, 0},
    {"curand", "libcurand.so.", "nvidia_curand", MAJOR_FROM_PLACE, 0, 0},
    {"cusolver", "libcusolver.so.", "nvidia_cusolver", MAJOR_FROM_PLACE, 0, 0},
    {"cusparse", "libcusparse.so.", "nvidia_cusparse", MAJOR_FROM_PLACE, 0, 0},
    {"nccl", "libnccl.so.", "nvidia_nccl", MAJOR_FROM_PLACE, 0, 0},
    {"nvrtc", "libnvrtc.so.", "nvidia_cuda_nvrtc", MAJOR_FROM_SONAME, 1, 1},
    {"nvJitLink", "libnvJitLink.so.", "nvidia_nvjitlink", MAJOR_FROM_SONAME, 0, 1},
    {"cupti", "libcupti.so.", "nvidia_cuda_cupti", MAJOR_FROM_SONAME, 1, 1},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

#define MAX_CACHE 256

/* What the finder knew about one listed copy beyond cp_library. */
typedef struct {
    const lib_kind *kind;
    char site[CP_PATH_MAX];   /* site-packages of a wheel copy, "" otherwise */
    int64_t wheel_major;      /* from a nvidia/cuNN/ folder, CP_UNKNOWN */
} lib_extra;

/* Working state of one cp_libraries_observe call (heap: ~100 KB). */
typedef struct {
    cp_fs *fs;
    const cp_host_facts *h;
    const cp_runtime_facts *rt;
    const cp_pyenv *py;
    cp_libraries_facts *out;
    lib_extra extra[CP_MAX_LIBS];
    int ncache;
    cp_cache_entry cache[MAX_CACHE];       /* our libraries' ld.so.cache entries, in order */
    size_t nseen, capseen;            /* every real path met, past CP_MAX_LIBS too */
    char (*seen)[CP_PATH_MAX];
    int oom;
} lobs;

/* ------------------------------------------------------------- names -- */

/* The kind whose prefix `name` starts with, followed by digits and dots
 * only; NULL for anything else (libcublas.so, libcudnn_ops.so.9). */
static const lib_kind *kind_of(const char *name)
{
    for (size_t i = 0; i < NKINDS; i++) {
        size_t n = strlen(kinds[i].prefix);
        const char *p = name + n;
        if (strncmp(name, kinds[i].prefix, n) != 0 || !(*p >= '0' && *p <= '9'))
            continue;
        while ((*p >= '0' && *p <= '9') || *p == '.')
            p++;
        return *p ? NULL : &kinds[i];
    }
    return NULL;
}

/* Leading number of s, or CP_UNKNOWN when s starts with no digit. */
static int64_t lead_number(const char *s)
{
    int64_t v = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9' && digits < 9) {
        v = v * 10 + (*s++ - '0');
        digits++;
    }
    return digits ? v : CP_UNKNOWN;
}

/* "libcublas.so.13.1.0.3" -> "libcublas.so.13"; nvrtc and cupti of CUDA 11
 * and older kept major.minor ("libnvrtc.so.11.2").  Returns 0 or -1. */
static int soname_of(const lib_kind *k, const char *name, char *out, size_t cap)
{
    const char *p = name + strlen(k->prefix), *e = p;
    while (*e >= '0' && *e <= '9')
        e++;
    if (k->minor_in_soname && lead_number(p) <= 11 && e[0] == '.' && e[1] >= '0' && e[1] <= '9')
        for (e++; *e >= '0' && *e <= '9'; e++) {}
    size_t n = (size_t)(e - name);
    if (e == p || n >= cap)
        return -1;
    memcpy(out, name, n);
    out[n] = '\0';
    return 0;
}

/* ----------------------------------------------------------- copies -- */

/* Remember `real`; returns 1 when it was new, 0 when seen, -1 out of memory. */
static int note_seen(lobs *o, const char *real)
{
    for (size_t i = 0; i < o->nseen; i++)
        if (strcmp(o->seen[i], real) == 0)
            return 0;
    if (o->nseen == o->capseen) {
        size_t ncap = o->capseen ? 2 * o->capseen : 64;
        void *n = cp_realloc(o->seen, ncap * sizeof *o->seen);
        if (!n)
            return -1;
        o->seen = n;
        o->capseen = ncap;
    }
    cp_str_copy(o->seen[o->nseen++], CP_PATH_MAX, real);
    return 1;
}

/* A later finder of a listed file can still tell more: a shorter name is
 * the soname link (libcupti.so.13 beside libcupti.so.2025.3.1), and a wheel
 * folder put on LD_LIBRARY_PATH is still a wheel for its dist-info. */
static void improve(lobs *o, int i, const char *soname, const char *site, int64_t wheel_major)
{
    cp_library *l = &o->out->lib[i];
    if (strlen(soname) < strlen(l->soname))
        cp_str_copy(l->soname, sizeof l->soname, soname);
    if (site && !o->extra[i].site[0]) {
        cp_str_copy(o->extra[i].site, sizeof o->extra[i].site, site);
        o->extra[i].wheel_major = wheel_major;
    }
}

/* Add the copy at `path` (any path; `name` is its soname or file name). */
static void add_copy(lobs *o, const char *path, const char *name, const char *found_by,
                     const char *site, int64_t wheel_major)
{
    char real[CP_PATH_MAX], soname[48];
    const lib_kind *k = kind_of(name);
    if (!k || soname_of(k, name, soname, sizeof soname) != 0 ||
        cp_fs_stat_real(o->fs, path, real, sizeof real) != CP_FS_FILE)
        return;
    cp_libraries_facts *out = o->out;
    for (int i = 0; i < out->nlib; i++)
        if (strcmp(out->lib[i].path, real) == 0) {
            improve(o, i, soname, site, wheel_major);
            return;
        }
    int fresh = note_seen(o, real);
    if (fresh < 0)
        o->oom = 1;
    if (fresh <= 0)
        return;
    out->nlib_total++;
    if (out->nlib >= CP_MAX_LIBS)
        return;
    int i = out->nlib++;
    cp_library *l = &out->lib[i];
    cp_str_copy(l->name, sizeof l->name, k->name);
    cp_str_copy(l->soname, sizeof l->soname, soname);
    cp_str_copy(l->path, sizeof l->path, real);
    cp_str_copy(l->found_by, sizeof l->found_by, found_by);
    o->extra[i].kind = k;
    o->extra[i].wheel_major = wheel_major;
    cp_str_copy(o->extra[i].site, sizeof o->extra[i].site, site ? site : "");
}

typedef struct {
    lobs *o;
    const char *dir;
    const char *found_by;
    const char *site;
    int64_t wheel_major;
} scan_arg;

static int scan_cb(const char *name, cp_fs_type type, void *arg)
{
    scan_arg *a = arg;
    char path[2 * CP_PATH_MAX];
    (void)type;   /* links are followed by add_copy */
    if (kind_of(name) && cp_path_join(path, sizeof path, a->dir, name) == 0)
        add_copy(a->o, path, name, a->found_by, a->site, a->wheel_major);
    return 0;
}

/* Add every library copy in `dir`; only "lib*" names are listed, which
 * also keeps the rest of big folders out of snapshots. */
static void scan_dir(lobs *o, const char *dir, const char *found_by, const char *site,
                     int64_t wheel_major)
{
    scan_arg a = {o, dir, found_by, site, wheel_major};
    cp_fs_list_prefix(o->fs, dir, "lib", scan_cb, &a);
}

/* ----------------------------------------------------- loader's path -- */

static int cache_cb(const char *soname, const char *path, void *arg)
{
    lobs *o = arg;
    if (!kind_of(soname) || o->ncache >= MAX_CACHE || path[0] != '/')
        return 0;
    cp_cache_entry *c = &o->cache[o->ncache];
    if (strlen(soname) >= sizeof c->soname || strlen(path) >= sizeof c->path)
        return 0;
    cp_str_copy(c->soname, sizeof c->soname, soname);
    cp_str_copy(c->path, sizeof c->path, path);
    o->ncache++;
    return 0;
}

static void read_ldcache(lobs *o)
{
    char *buf = NULL;
    size_t n = 0;
    if (cp_fs_read_alloc(o->fs, "/etc/ld.so.cache", 16u << 20, &buf, &n) != 0)
        return;
    cp_parse_ldcache((const unsigned char *)buf, n, cache_cb, o);
    free(buf);
    for (int i = 0; i < o->ncache; i++)
        add_copy(o, o->cache[i].path, o->cache[i].soname, "ld.so.cache", NULL, CP_UNKNOWN);
}

/* Mark the copy the loader hands out for `soname` (cp_loader_pick). */
static void mark_would_load(lobs *o, const char *soname)
{
    char real[CP_PATH_MAX];
    if (!cp_loader_pick(o->fs, o->h, o->cache, o->ncache, soname, real, sizeof real))
        return;
    for (int i = 0; i < o->out->nlib; i++)
        if (strcmp(o->out->lib[i].path, real) == 0)
            o->out->lib[i].would_load = true;
}

/* ----------------------------------------------------------- toolkits -- */

typedef struct {
    lobs *o;
    const char *targets;      /* TK/targets */
} targets_arg;

static int targets_cb(const char *name, cp_fs_type type, void *arg)
{
    targets_arg *a = arg;
    char dir[2 * CP_PATH_MAX];
    if (type == CP_FS_DIR && cp_path_join(dir, sizeof dir, a->targets, name) == 0 &&
        cp_path_join(dir, sizeof dir, dir, "lib") == 0) {
        scan_dir(a->o, dir, "toolkit", NULL, CP_UNKNOWN);
    }
    return 0;
}

/* lib64/ (runfile), lib/ (distribution and wheel trees), targets/ARCH/lib
 * (what lib64 usually links to) and extras/CUPTI/lib64 (CUPTI before 13). */
static void scan_toolkit(lobs *o, const char *tk)
{
    static const char *const sub[] = {"lib64", "lib", "extras/CUPTI/lib64"};
    char dir[CP_PATH_MAX + 32];
    for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++)
        if (cp_path_join(dir, sizeof dir, tk, sub[i]) == 0)
            scan_dir(o, dir, "toolkit", NULL, CP_UNKNOWN);
    targets_arg a = {o, dir};
    if (cp_path_join(dir, sizeof dir, tk, "targets") == 0)
        cp_fs_list(o->fs, dir, targets_cb, &a);
}

/* ------------------------------------------------------------- wheels -- */

typedef struct {
    lobs *o;
    const char *site;         /* site-packages (real path) */
    const char *nv;           /* site-packages/nvidia */
} nv_arg;

/* nvidia/cu13/lib (CUDA 13 wheels), nvidia/cublas/lib (CUDA 12 wheels),
 * nvidia/cudnn/lib, nvidia/nccl/lib ... */
static int nv_cb(const char *name, cp_fs_type type, void *arg)
{
    nv_arg *a = arg;
    char dir[2 * CP_PATH_MAX + 8];
    int64_t major = CP_UNKNOWN;
    if (type != CP_FS_DIR)
        return 0;
    if (name[0] == 'c' && name[1] == 'u' && (major = lead_number(name + 2)) != CP_UNKNOWN) {
        const char *e = name + 2;
        while (*e >= '0' && *e <= '9')
            e++;
        if (*e)
            major = CP_UNKNOWN;   /* "cuda_nvrtc", "cublas", ... */
    }
    int n = snprintf(dir, sizeof dir, "%s/%s/lib", a->nv, name);
    if (n > 0 && (size_t)n < sizeof dir)
        scan_dir(a->o, dir, "wheel", a->site, major);
    return 0;
}

/* site-packages/nvidia/<*>/lib of every Python environment. */
static void scan_wheels(lobs *o)
{
    char dir[CP_PATH_MAX + 8];
    for (int i = 0; o->py && i < o->py->n && i < CP_MAX_SITES; i++) {
        nv_arg a = {o, o->py->site[i], dir};
        if (cp_path_join(dir, sizeof dir, o->py->site[i], "nvidia") == 0)
            cp_fs_list(o->fs, dir, nv_cb, &a);
    }
}

/* ------------------------------------------------ versions and majors -- */

/* "nvidia_cudnn_cu13-9.19.0.56.dist-info" with dist "nvidia_cudnn" ->
 * version "9.19.0.56", *cu 13; "nvidia_cublas-13.1.0.3.dist-info" -> *cu
 * CP_UNKNOWN.  Returns 0, or -1 when the name is not this package's. */
static int parse_dist(const char *name, const char *dist, char *ver, size_t cap, int64_t *cu)
{
    cp_dist_info d;
    if (cp_parse_dist_info(name, strlen(name), &d) != 0 || !cp_span_equals(d.base, dist) || d.release.n == 0)
        return -1;
    *cu = d.cuda_major;
    cp_str_copy_n(ver, cap, d.release.p, d.release.n);   /* "13.0.0.post1" keeps "13.0.0" */
    return 0;
}

typedef struct {
    const lib_kind *kind;
    int64_t want_cu;          /* the wheel folder's or the soname's CUDA major */
    int best;
    char version[32];
    int64_t cu;
} dist_arg;

/* Several releases of one package can share a site-packages (a _cu12 and a
 * _cu13 wheel): prefer the one of the CUDA major the copy is known to have. */
static int dist_cb(const char *name, cp_fs_type type, void *arg)
{
    dist_arg *a = arg;
    char ver[32];
    int64_t cu;
    (void)type;
    if (parse_dist(name, a->kind->dist, ver, sizeof ver, &cu) != 0)
        return 0;
    int score = 1;
    if (CP_KNOWN(a->want_cu) && (cu == a->want_cu ||
        (a->kind->major_rule == MAJOR_FROM_SONAME && lead_number(ver) == a->want_cu)))
        score = 2;
    if (score > a->best) {
        a->best = score;
        cp_str_copy(a->version, sizeof a->version, ver);
        a->cu = cu;
    }
    return 0;
}

/* The soname's number when it is a CUDA major (cupti's real files carry
 * years: libcupti.so.2025.3.1), else CP_UNKNOWN. */
static int64_t soname_major(const cp_library *l, const lib_kind *k)
{
    int64_t m = lead_number(l->soname + strlen(k->prefix));
    return CP_KNOWN(m) && m >= 1 && m < 100 ? m : CP_UNKNOWN;
}

/* Version and CUDA major of copy i, once every finder has been through. */
static void settle(lobs *o, int i)
{
    cp_library *l = &o->out->lib[i];
    const lib_extra *x = &o->extra[i];
    const lib_kind *k = x->kind;
    const char *file = cp_path_base(l->path);
    int64_t own = k->major_rule == MAJOR_FROM_SONAME ? soname_major(l, k) : CP_UNKNOWN;
    dist_arg d = {k, CP_KNOWN(x->wheel_major) ? x->wheel_major : own, 0, "", CP_UNKNOWN};
    if (x->site[0])
        cp_fs_list_prefix(o->fs, x->site, "nvidia", dist_cb, &d);
    /* a versioned file (libcublas.so.13.1.0.3) says more than its soname */
    if (strncmp(file, k->prefix, strlen(k->prefix)) == 0 && kind_of(file) &&
        strchr(file + strlen(k->prefix), '.')) {
        cp_str_copy(l->version, sizeof l->version, file + strlen(k->prefix));
        cp_str_copy(l->version_source, sizeof l->version_source, "file name");
    } else if (d.best) {
        cp_str_copy(l->version, sizeof l->version, d.version);
        cp_str_copy(l->version_source, sizeof l->version_source, "dist-info");
    }
    const cp_toolkit *tk = cp_toolkit_holding(o->rt, l->path);
    int64_t tmaj = CP_UNKNOWN, tmin = CP_UNKNOWN, tpatch;
    if (tk && cp_version_split(tk->version, &tmaj, &tmin, &tpatch) < 1)
        tmaj = CP_UNKNOWN;
    /* the release it ships with, whatever its own numbers: CUPTI's files
     * count years (libcupti.so.2025.3.1), its wheels CUDA's (13.0.85) */
    int64_t rmaj = CP_UNKNOWN, rmin = CP_UNKNOWN, rpatch;
    if (CP_KNOWN(tmaj)) {
        rmaj = tmaj;
        rmin = tmin;
    } else if (d.best && k->cuda_numbered && cp_version_split(d.version, &rmaj, &rmin, &rpatch) < 2) {
        rmaj = CP_UNKNOWN;
    }
    if (CP_KNOWN(rmaj) && CP_KNOWN(rmin) && rmaj > 0 && rmaj < 1000 && rmin >= 0 && rmin < 100)
        cp_cuda_version_str(rmaj * 1000 + rmin * 10, l->cuda_release, sizeof l->cuda_release);
    if (CP_KNOWN(own))
        l->cuda_major = own;
    else if (CP_KNOWN(tmaj))
        l->cuda_major = tmaj;
    else if (CP_KNOWN(x->wheel_major))
        l->cuda_major = x->wheel_major;
    else
        l->cuda_major = d.best ? d.cu : CP_UNKNOWN;
}

/* ------------------------------------------------------------ observe -- */

static void find_all(lobs *o)
{
    char dir[CP_PATH_MAX];
    const char *p = cp_host_getenv(o->h, "LD_LIBRARY_PATH");
    while (cp_list_next(&p, ':', dir, sizeof dir))
        if (dir[0] == '/')
            scan_dir(o, dir, "LD_LIBRARY_PATH", NULL, CP_UNKNOWN);
    read_ldcache(o);
    for (int i = 0; i < o->rt->ntk; i++)
        scan_toolkit(o, o->rt->tk[i].path);
    scan_wheels(o);
}

/* See libraries.h. */
int cp_libraries_observe(cp_fs *fs, const cp_host_facts *h, const cp_runtime_facts *rt,
                         const cp_pyenv *py, cp_libraries_facts *out)
{
    if (!fs || !h || !rt || !out)
        return -EINVAL;
    memset(out, 0, sizeof *out);
    for (int i = 0; i < CP_MAX_LIBS; i++) {
        out->lib[i].cuda_major = CP_UNKNOWN;
        out->lib[i].loads = CP_TRI_UNKNOWN;   /* the libraries probe may say */
    }
    lobs *o = cp_calloc(1, sizeof *o);
    if (!o)
        return -ENOMEM;
    o->fs = fs;
    o->h = h;
    o->rt = rt;
    o->py = py;
    o->out = out;
    find_all(o);
    for (int i = 0; i < out->nlib; i++) {
        settle(o, i);
        bool first = true;
        for (int j = 0; j < i && first; j++)
            first = strcmp(out->lib[j].soname, out->lib[i].soname) != 0;
        if (first)
            mark_would_load(o, out->lib[i].soname);
    }
    int rc = o->oom ? -ENOMEM : 0;
    free(o->seen);
    free(o);
    return rc;
}

/* See libraries.h. */
const char *cp_libraries_load_skip(bool snapshot, bool live_root, bool cuda_live, bool gpu_here)
{
    if (snapshot || !live_root || !cuda_live)
        return CP_LIBS_LOAD_NOT_HERE;
    if (!gpu_here)
        return "no library was loaded: this machine shows no NVIDIA GPU (PCI bus, /proc/driver/nvidia), "
               "so no program could use them";
    return NULL;
}

/* The answer of `said` for copy i of libs: by path when said names paths,
 * else by position; NULL when there is none. */
static const cp_library *answer_for(const cp_libraries_facts *libs, int i, const cp_libraries_facts *said,
                                    bool by_path)
{
    if (!by_path)
        return &said->lib[i];
    for (int j = 0; j < CP_MAX_LIBS; j++)
        if (strcmp(said->lib[j].path, libs->lib[i].path) == 0)
            return &said->lib[j];
    return NULL;
}

/* See libraries.h. */
void cp_libraries_attach_answers(cp_libraries_facts *libs, const cp_libraries_facts *said)
{
    bool by_path = false;
    for (int j = 0; j < CP_MAX_LIBS && !by_path; j++)
        by_path = said->lib[j].path[0] != '\0';
    for (int i = 0; i < libs->nlib && i < CP_MAX_LIBS; i++) {
        cp_library *l = &libs->lib[i];
        const cp_library *a = answer_for(libs, i, said, by_path);
        if (!a)
            continue;
        l->loads = a->loads;
        memcpy(l->load_error, a->load_error, sizeof l->load_error);
        memcpy(l->version_call, a->version_call, sizeof l->version_call);
    }
}
