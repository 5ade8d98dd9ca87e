/*
 * The Python environments a user would run: the one list of site-packages
 * folders that the libraries layer (wheels under site-packages/nvidia) and
 * the framework layer (torch, jax, cupy, tensorflow) both read, found once
 * per observe; and the one parser of wheel metadata folder names.
 *
 * Python is never run: an interpreter's prefix is found as Python finds it
 * (pyvenv.cfg, else the folder above the real executable's bin/), through
 * the cp_fs, so a replayed snapshot finds the same folders.
 */
#include <string.h>

#include "host/host.h"
#include "installed/installed.h"
#include "util/str.h"

/* Add a site-packages folder once, by real path, when it is a folder. */
static void add_site(cp_fs *fs, cp_pyenv *py, const char *dir)
{
    char real[CP_PATH_MAX];
    if (cp_fs_realpath(fs, dir, real, sizeof real) != 0 || cp_fs_stat(fs, real, NULL, NULL, NULL) != CP_FS_DIR)
        return;
    for (int i = 0; i < py->n; i++)
        if (strcmp(py->site[i], real) == 0)
            return;
    if (py->n < CP_MAX_SITES)
        cp_str_copy(py->site[py->n++], sizeof py->site[0], real);
}

typedef struct {
    cp_fs *fs;
    cp_pyenv *py;
    const char *libdir;       /* PREFIX/lib */
    const char *leaf;         /* "site-packages" or "dist-packages" */
} prefix_arg;

/* python3.N (N digits only: not python3.13t's free-threaded tree) */
static int pyver_cb(const char *name, cp_fs_type type, void *arg)
{
    prefix_arg *a = arg;
    char ver[CP_PATH_MAX], site[CP_PATH_MAX];
    const char *n = name + strlen("python3.");
    if (type != CP_FS_DIR || !*n || n[strspn(n, "0123456789")] != '\0')
        return 0;
    if (cp_path_join(ver, sizeof ver, a->libdir, name) == 0 && cp_path_join(site, sizeof site, ver, a->leaf) == 0)
        add_site(a->fs, a->py, site);
    return 0;
}

/* PREFIX/lib/python3.N/LEAF for every N present (a venv's lib64 is a link
 * to lib). */
static void add_prefix(cp_fs *fs, cp_pyenv *py, const char *prefix, const char *leaf)
{
    char libdir[CP_PATH_MAX];
    prefix_arg a = {fs, py, libdir, leaf};
    if (prefix && prefix[0] == '/' && cp_path_join(libdir, sizeof libdir, prefix, "lib") == 0)
        cp_fs_list_prefix(fs, libdir, "python3.", pyver_cb, &a);
}

/* The first NAME on $PATH, as found (links not resolved: a venv's python
 * is a link out of the venv).  Returns 0, or -1 when there is none. */
static int find_on_path(cp_fs *fs, const cp_host_facts *h, const char *name, char *out, size_t cap)
{
    const char *p = cp_host_getenv(h, "PATH");
    char dir[CP_PATH_MAX];
    while (cp_list_next(&p, ':', dir, sizeof dir))
        if (dir[0] == '/' && cp_path_join(out, cap, dir, name) == 0 &&
            cp_fs_stat(fs, out, NULL, NULL, NULL) == CP_FS_FILE)
            return 0;   /* relative entries depend on a cwd we do not know */
    return -1;
}

/* The site-packages of an interpreter, found as Python finds its prefix: a
 * pyvenv.cfg beside the executable or one folder up makes that folder the
 * prefix (before links are followed); otherwise the prefix is the folder
 * above the real executable's bin/. */
static void add_interpreter(cp_fs *fs, cp_pyenv *py, const cp_host_facts *h, const char *python)
{
    char path[CP_PATH_MAX], dir[CP_PATH_MAX], cfg[CP_PATH_MAX];
    if (!python || !python[0])
        return;
    if (!strchr(python, '/')) {
        if (find_on_path(fs, h, python, path, sizeof path) != 0)
            return;
    } else if (python[0] != '/' || !cp_str_copy(path, sizeof path, python)) {
        return;   /* relative: a replay has no working folder */
    }
    cp_str_copy(dir, sizeof dir, path);
    cp_path_parent(dir);
    for (int up = 0; up < 2; up++) {
        if (cp_path_join(cfg, sizeof cfg, dir, "pyvenv.cfg") == 0 &&
            cp_fs_stat(fs, cfg, NULL, NULL, NULL) == CP_FS_FILE) {
            add_prefix(fs, py, dir, "site-packages");
            return;
        }
        cp_path_parent(dir);
    }
    if (cp_fs_realpath(fs, path, dir, sizeof dir) != 0)
        return;
    cp_path_parent(dir);
    cp_path_parent(dir);
    add_prefix(fs, py, dir, "site-packages");
}

/* See installed.h. */
void cp_pyenv_find(cp_fs *fs, const cp_host_facts *h, const char *python, cp_pyenv *out)
{
    if (!out)
        return;
    out->n = 0;
    if (!fs)
        return;
    add_interpreter(fs, out, h, python);
    add_prefix(fs, out, cp_host_getenv(h, "VIRTUAL_ENV"), "site-packages");
    add_prefix(fs, out, cp_host_getenv(h, "CONDA_PREFIX"), "site-packages");
    add_interpreter(fs, out, h, "python3");
    add_prefix(fs, out, "/usr/local", "dist-packages");   /* Debian's pip outside a venv */
    add_site(fs, out, "/usr/lib/python3/dist-packages");  /* Debian's python3-* packages */
}

/* ------------------------------------------------------------ dist-info -- */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* See installed.h. */
int cp_parse_dist_info(const char *text, size_t len, cp_dist_info *out)
{
    static const char suffix[] = ".dist-info";
    const size_t slen = sizeof suffix - 1;
    memset(out, 0, sizeof *out);
    out->cuda_major = CP_UNKNOWN;
    if (!text || len <= slen || memcmp(text + len - slen, suffix, slen) != 0)
        return -1;
    const char *end = text + len - slen;
    const char *dash = memchr(text, '-', (size_t)(end - text));
    if (!dash || dash == text || memchr(text, '\0', len))
        return -1;
    out->name = (cp_span){text, (size_t)(dash - text)};
    out->version = (cp_span){dash + 1, (size_t)(end - dash - 1)};
    /* the release: the leading digits and dots, without a final dot
     * ("13.0.0.post1" -> "13.0.0") */
    size_t r = 0;
    if (out->version.n && is_digit(out->version.p[0]))
        while (r < out->version.n && (is_digit(out->version.p[r]) || out->version.p[r] == '.'))
            r++;
    while (r && out->version.p[r - 1] == '.')
        r--;
    out->release = (cp_span){out->version.p, r};
    /* a "_cuNN" CUDA suffix at the end of the name: nvidia_cudnn_cu13 */
    out->base = out->name;
    const char *s = text, *cu = NULL;
    while ((s = memchr(s, '_', (size_t)(dash - s))) != NULL) {
        cu = s;
        s++;
    }
    if (cu && (size_t)(dash - cu) > 3 && memcmp(cu, "_cu", 3) == 0) {
        int64_t v = 0;
        const char *d = cu + 3;
        while (d < dash && is_digit(*d) && d - cu < 12)
            v = v * 10 + (*d++ - '0');
        if (d == dash) {
            out->base.n = (size_t)(cu - text);
            out->cuda_major = v;
        }
    }
    return 0;
}
