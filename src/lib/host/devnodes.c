/*
 * NVIDIA device nodes: /dev/nvidiactl, /dev/nvidiaN, /dev/nvidia-uvm,
 * /dev/nvidia-uvm-tools, /dev/nvidia-modeset and /dev/nvidia-caps/<*>.
 * libcuda opens nvidiactl and nvidia-uvm before any GPU, so those two are
 * always reported, existing or not, for the checks to name them.
 */
#include "host/host.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const required_nodes[] = { "/dev/nvidiactl", "/dev/nvidia-uvm" };

static bool have_node(const cp_host_facts *h, const char *path)
{
    for (int i = 0; i < h->ndev; i++)
        if (strcmp(h->dev[i].path, path) == 0)
            return true;
    return false;
}

static void add_node(cp_fs *fs, cp_host_facts *h, const char *path)
{
    if (h->ndev >= CP_MAX_DEVNODES || have_node(h, path))
        return;
    cp_devnode *d = &h->dev[h->ndev];
    memset(d, 0, sizeof *d);
    snprintf(d->path, sizeof d->path, "%s", path);
    d->major = d->minor = d->mode = CP_UNKNOWN;
    d->accessible = CP_TRI_UNKNOWN;
    int64_t mode = CP_UNKNOWN, maj = CP_UNKNOWN, min = CP_UNKNOWN;
    cp_fs_type t = cp_fs_stat(fs, path, &mode, &maj, &min);
    h->ndev++;
    if (t == CP_FS_MISSING)
        return;
    d->exists = true;
    d->is_chr = t == CP_FS_CHR;
    d->mode = mode;
    d->major = maj;
    d->minor = min;
    int a = cp_fs_access_rw(fs, path);
    d->accessible = a == 1 ? CP_YES : a == 0 ? CP_NO : CP_TRI_UNKNOWN;
}

typedef struct {
    cp_fs *fs;
    cp_host_facts *h;
    const char *dir;          /* "/dev" or "/dev/nvidia-caps" */
    bool want_prefix;         /* only names starting with "nvidia" */
} dev_walk;

static int dev_entry(const char *name, cp_fs_type type, void *arg)
{
    dev_walk *w = arg;
    char path[64];
    if (type == CP_FS_DIR)
        return 0;
    if (w->want_prefix && strncmp(name, "nvidia", 6) != 0)
        return 0;
    int n = snprintf(path, sizeof path, "%s/%s", w->dir, name);
    if (n < 0 || (size_t)n >= sizeof path)
        return 0;
    add_node(w->fs, w->h, path);
    return 0;
}

/* Fill h->dev[] (see host.h).  Returns 0, or -errno when /dev cannot be
 * listed; the required nodes are reported in either case.  On a snapshot
 * view `accessible` stays unknown: the files' owners are not the machine's. */
int cp_host_read_devnodes(cp_fs *fs, cp_host_facts *h)
{
    if (!h)
        return -EINVAL;
    h->ndev = 0;
    for (size_t i = 0; i < sizeof required_nodes / sizeof required_nodes[0]; i++)
        add_node(fs, h, required_nodes[i]);
    dev_walk w = { fs, h, "/dev", true };
    int rc = cp_fs_list_prefix(fs, "/dev", "nvidia", dev_entry, &w);
    dev_walk caps = { fs, h, "/dev/nvidia-caps", false };
    cp_fs_list(fs, "/dev/nvidia-caps", dev_entry, &caps);
    return rc < 0 ? rc : 0;
}
