/*
 * NVIDIA device nodes: /dev/nvidiactl, /dev/nvidiaN, /dev/nvidia-uvm,
 * /dev/nvidia-uvm-tools, /dev/nvidia-modeset and /dev/nvidia-caps/<*>.
 * libcuda opens nvidiactl and nvidia-uvm before any GPU, so those two are
 * always reported, existing or not, for the checks to name them.
 *
 * And /proc/devices, which says which driver registered which major number:
 *   "Character devices:\n  1 mem\n195 nvidia-frontend\n238 nvidia-uvm\n..."
 *   "\nBlock devices:\n  7 loop\n  8 sd\n"
 * so a node that exists but is another device (/dev/null bound over
 * /dev/nvidia-uvm) can be told from the NVIDIA one.
 */
#include "host/host.h"
#include "util/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const required_nodes[] = { "/dev/nvidiactl", "/dev/nvidia-uvm" };

/* /proc/devices is about 1 KiB; a few hundred drivers still fit */
#define PROC_DEVICES_MAX (64u << 10)

static bool have_node(const cp_host_facts *h, const char *path)
{
    for (int i = 0; i < h->ndev; i++)
        if (strcmp(h->dev[i].path, path) == 0)
            return true;
    return false;
}

static const char *type_word(cp_fs_type t)
{
    switch (t) {
    case CP_FS_CHR: return "char";
    case CP_FS_BLK: return "block";
    case CP_FS_FILE: return "file";
    case CP_FS_DIR: return "dir";
    default: return "other";
    }
}

static bool is_caps(const char *path)
{
    return strncmp(path, "/dev/nvidia-caps/", 17) == 0;
}

static void add_node(cp_fs *fs, cp_host_facts *h, const char *path)
{
    if (h->ndev >= CP_MAX_DEVNODES || have_node(h, path))
        return;
    cp_devnode *d = &h->dev[h->ndev];
    memset(d, 0, sizeof *d);
    snprintf(d->path, sizeof d->path, "%s", path);
    d->major = d->minor = d->mode = d->open_errno = CP_UNKNOWN;
    d->accessible = CP_TRI_UNKNOWN;
    int64_t mode = CP_UNKNOWN, maj = CP_UNKNOWN, min = CP_UNKNOWN;
    cp_fs_type t = cp_fs_stat(fs, path, &mode, &maj, &min);
    h->ndev++;
    if (t == CP_FS_MISSING)
        return;
    d->exists = true;
    d->is_chr = t == CP_FS_CHR;
    cp_str_copy(d->type, sizeof d->type, type_word(t));
    d->mode = mode;
    d->major = maj;
    d->minor = min;
    int a = cp_fs_access_rw(fs, path);
    d->accessible = a == 1 ? CP_YES : a == 0 ? CP_NO : CP_TRI_UNKNOWN;
    /* what libcuda's own open would meet; a capability node is opened
     * read-only and only for MIG, so it is left alone */
    int err = 0;
    if (t == CP_FS_CHR && !is_caps(path) && cp_fs_try_open_rw(fs, path, &err))
        d->open_errno = err;
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
 * view `accessible` and `open_errno` stay unknown: the files' owners are not
 * the machine's. */
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

/* ---- /proc/devices ------------------------------------------------------ */

/* Parse /proc/devices text; see host.h. */
void cp_parse_proc_devices(const char *text, size_t len, cp_proc_devices *d)
{
    if (!d)
        return;
    d->n = 0;
    d->total = 0;
    for (int i = 0; i < CP_MAX_DEVMAJORS; i++) {
        d->m[i].major = CP_UNKNOWN;
        d->m[i].block = false;
        d->m[i].name[0] = '\0';
    }
    if (!text)
        return;
    int section = 0;          /* 0 none yet, 1 character, 2 block */
    size_t pos = 0;
    cp_span line;
    while (cp_line_next(text, len, &pos, &line)) {
        if (cp_span_equals(line, "Character devices:")) { section = 1; continue; }
        if (cp_span_equals(line, "Block devices:")) { section = 2; continue; }
        size_t i = 0;
        while (i < line.n && line.p[i] == ' ')
            i++;
        int64_t major = 0;
        size_t digits = 0;
        while (i < line.n && line.p[i] >= '0' && line.p[i] <= '9' && digits < 7) {
            major = major * 10 + (line.p[i] - '0');
            i++;
            digits++;
        }
        /* "NNN name": a major (at most 12 bits in Linux) and a name after a blank */
        if (!section || digits == 0 || digits >= 7 || major > 4095 || i >= line.n || line.p[i] != ' ')
            continue;
        while (i < line.n && line.p[i] == ' ')
            i++;
        if (i >= line.n)
            continue;
        d->total++;
        if (d->n >= CP_MAX_DEVMAJORS)
            continue;
        cp_devmajor *m = &d->m[d->n];
        cp_str_copy_trim(m->name, sizeof m->name, line.p + i, line.n - i);
        if (!m->name[0])
            continue;
        m->major = major;
        m->block = section == 2;
        d->n++;
    }
}

/* Read /proc/devices into h->devices; see host.h. */
int cp_host_read_proc_devices(cp_fs *fs, cp_host_facts *h)
{
    char *text = NULL;
    size_t len = 0;
    if (!h)
        return -EINVAL;
    h->devices.present = false;
    int rc = cp_fs_read_alloc(fs, "/proc/devices", PROC_DEVICES_MAX, &text, &len);
    cp_parse_proc_devices(rc == 0 ? text : NULL, rc == 0 ? len : 0, &h->devices);
    free(text);
    if (rc)
        return rc;
    h->devices.present = true;
    return 0;
}
