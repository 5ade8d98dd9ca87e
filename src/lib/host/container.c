/*
 * Container detection from what an ordinary user may read: the marker files
 * docker and podman leave (/.dockerenv, /run/.containerenv) and the cgroup
 * paths of this process and of pid 1.
 *
 *   cgroup v1:  "12:memory:/docker/4f1c...\n11:cpu,cpuacct:/docker/4f1c..."
 *   cgroup v2:  "0::/kubepods.slice/kubepods-pod1234.slice/cri-containerd-ab.scope"
 */
#include "host/host.h"
#include "util/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CGROUP_MAX (64u * 1024)

/* Checked in this order: a kubernetes pod also runs under containerd or
 * docker, so the orchestrator wins over the runtime. */
static const struct {
    const char *needle;
    const char *kind;
} hints[] = {
    { "kubepods", "kubernetes" },
    { "libpod", "podman" },
    /* "/docker/ID" (cgroupfs driver), "docker-ID.scope" (systemd driver);
     * the host's own "docker.service" matches neither */
    { "/docker/", "docker" },
    { "docker-", "docker" },
    { "/lxc/", "lxc" },
    { "lxc.payload", "lxc" },
    { "cri-containerd", "containerd" },
    { "/containerd/", "containerd" },
};

typedef cp_span span;

/* Split "ID:CONTROLLERS:PATH"; false for a line of another shape. */
static bool split_cgroup_line(const char *line, size_t n, span *id, span *ctl, span *path)
{
    const char *c1 = memchr(line, ':', n);
    if (!c1)
        return false;
    size_t rest = n - (size_t)(c1 + 1 - line);
    const char *c2 = memchr(c1 + 1, ':', rest);
    if (!c2)
        return false;
    id->p = line;
    id->n = (size_t)(c1 - line);
    ctl->p = c1 + 1;
    ctl->n = (size_t)(c2 - c1 - 1);
    path->p = c2 + 1;
    path->n = n - (size_t)(c2 + 1 - line);
    return true;
}


static int hint_of(span path)
{
    for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++)
        if (memmem(path.p, path.n, hints[h].needle, strlen(hints[h].needle)))
            return (int)h;
    return -1;
}

/* Parse a /proc/PID/cgroup text into c: cgroup_version (2 when every line
 * is "0::", 1 otherwise), cgroup_path (the v2 path, or the memory
 * controller's, or the first one), and where a path names a container
 * runtime: in_container = CP_YES, kind and evidence.  Without such a hint
 * in_container, kind and evidence are left as they were.  Never fails. */
void cp_parse_cgroup(const char *text, size_t len, cp_container *c)
{
    if (!c)
        return;
    c->cgroup_version = CP_UNKNOWN;
    c->cgroup_path[0] = '\0';
    if (!text)
        return;
    bool any = false, all_v2 = true;
    int best = -1;
    span best_path = { NULL, 0 }, first = { NULL, 0 }, mem = { NULL, 0 }, v2path = { NULL, 0 };
    size_t pos = 0;
    span line;
    while (cp_line_next(text, len, &pos, &line)) {
        span id, ctl, path;
        if (split_cgroup_line(line.p, line.n, &id, &ctl, &path)) {
            bool v2 = id.n == 1 && id.p[0] == '0' && ctl.n == 0;
            all_v2 = all_v2 && v2;
            if (!any)
                first = path;
            if (v2 && !v2path.p)
                v2path = path;
            if (!mem.p && memmem(ctl.p, ctl.n, "memory", 6))
                mem = path;
            any = true;
            int h = hint_of(path);
            if (h >= 0 && (best < 0 || h < best)) {
                best = h;
                best_path = path;
            }
        }
    }
    /* hybrid v1/v2 hosts also list a "0::" line; v1's memory path is the one
     * that limits the process there */
    span chosen = all_v2 ? v2path : mem.p ? mem : first;
    if (!any)
        return;
    c->cgroup_version = all_v2 ? 2 : 1;
    cp_str_copy_n(c->cgroup_path, sizeof c->cgroup_path, chosen.p, chosen.n);
    if (best >= 0) {
        char p[128];
        cp_str_copy_n(p, sizeof p, best_path.p, best_path.n);
        c->in_container = CP_YES;
        snprintf(c->kind, sizeof c->kind, "%s", hints[best].kind);
        snprintf(c->evidence, sizeof c->evidence, "cgroup '%s'", p);
    }
}

static bool marker(cp_fs *fs, cp_container *c, const char *path, const char *kind)
{
    if (cp_fs_stat(fs, path, NULL, NULL, NULL) == CP_FS_MISSING)
        return false;
    c->in_container = CP_YES;
    snprintf(c->kind, sizeof c->kind, "%s", kind);
    snprintf(c->evidence, sizeof c->evidence, "%s", path);
    return true;
}

/* Read one cgroup file; hints only count when nothing has been found yet. */
static int read_cgroup(cp_fs *fs, const char *path, cp_container *c, bool keep_path)
{
    char *text = NULL;
    size_t len = 0;
    int rc = cp_fs_read_alloc(fs, path, CGROUP_MAX, &text, &len);
    if (rc)
        return rc;
    cp_container tmp = *c;
    cp_parse_cgroup(text, len, &tmp);
    free(text);
    if (keep_path) {
        c->cgroup_version = tmp.cgroup_version;
        memcpy(c->cgroup_path, tmp.cgroup_path, sizeof c->cgroup_path);
    }
    if (c->in_container != CP_YES && tmp.in_container == CP_YES) {
        c->in_container = CP_YES;
        memcpy(c->kind, tmp.kind, sizeof c->kind);
        memcpy(c->evidence, tmp.evidence, sizeof c->evidence);
    }
    return 0;
}

/* Fill c from the marker files and the cgroup files of this process and of
 * pid 1.  in_container is CP_YES with evidence when any of them names a
 * runtime; CP_NO when /proc/self/cgroup was read, named none and is not the
 * bare "/" a private cgroup namespace shows; CP_TRI_UNKNOWN otherwise.
 * Returns 0, or -errno when /proc/self/cgroup cannot be read. */
int cp_host_read_container(cp_fs *fs, cp_container *c)
{
    if (!c)
        return -EINVAL;
    memset(c, 0, sizeof *c);
    c->in_container = CP_TRI_UNKNOWN;
    c->cgroup_version = CP_UNKNOWN;
    if (!marker(fs, c, "/.dockerenv", "docker"))
        marker(fs, c, "/run/.containerenv", "podman");
    int rc = read_cgroup(fs, "/proc/self/cgroup", c, true);
    read_cgroup(fs, "/proc/1/cgroup", c, false);
    if (c->in_container != CP_YES && rc == 0 && c->cgroup_path[0] &&
        strcmp(c->cgroup_path, "/") != 0)
        c->in_container = CP_NO;
    return rc;
}
