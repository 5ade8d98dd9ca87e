/*
 * /proc/driver/nvidia: the kernel module's version banner and one
 * information file per GPU the module has claimed.
 *
 *   NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...
 *   NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023
 */
#include "host/host.h"
#include "util/str.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define NVRM_TAG "NVRM version:"

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* "580.159.04", "535.54", "470.256.02.1": digits, then one or more ".digits". */
static bool looks_like_version(const char *s, size_t n)
{
    size_t i = 0, dots = 0;
    for (;;) {
        size_t d = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
            d++;
        }
        if (d == 0)
            return false;
        if (i == n)
            return dots >= 1;
        if (s[i] != '.')
            return false;
        dots++;
        i++;
    }
}

/* First version-looking token of line[from, len). */
static void find_version(const char *line, size_t len, size_t from, char *out, size_t cap)
{
    size_t i = from;
    while (i < len) {
        while (i < len && blank(line[i]))
            i++;
        size_t start = i;
        while (i < len && !blank(line[i]) && line[i] != '\0')
            i++;
        if (i > start && looks_like_version(line + start, i - start)) {
            cp_str_copy_trim(out, cap, line + start, i - start);
            return;
        }
        if (i < len && line[i] == '\0')
            i++;
    }
}

/* Parse the text of /proc/driver/nvidia/version into p->banner, p->version
 * and p->open_module.  Fields not found stay "" / CP_TRI_UNKNOWN; p->present
 * and the GPU list are left to the reader.  Never fails. */
void cp_parse_nvidia_version(const char *text, size_t len, cp_procfs_nvidia *p)
{
    if (!p)
        return;
    p->version[0] = '\0';
    p->banner[0] = '\0';
    p->open_module = CP_TRI_UNKNOWN;
    if (!text)
        return;
    size_t pos = 0;
    cp_span span;
    while (cp_line_next(text, len, &pos, &span)) {
        const char *line = span.p;
        size_t n = span.n;
        size_t lead = 0;
        while (lead < n && blank(line[lead]))
            lead++;
        size_t tag = sizeof NVRM_TAG - 1;
        if (n - lead >= tag && memcmp(line + lead, NVRM_TAG, tag) == 0) {
            cp_str_copy_trim(p->banner, sizeof p->banner, line, n);
            const char *km = memmem(line, n, "Kernel Module", 13);
            size_t from = km ? (size_t)(km - line) + 13 : lead + tag;
            find_version(line, n, from, p->version, sizeof p->version);
            if (memmem(line, n, "Open Kernel Module", 18))
                p->open_module = CP_YES;
            else if (km)
                p->open_module = CP_NO;
            return;
        }
    }
}

static bool key_is(const char *k, size_t kn, const char *want)
{
    size_t wn = strlen(want);
    return kn == wn && memcmp(k, want, wn) == 0;
}

static void gpu_info_line(const char *line, size_t n, cp_procfs_gpu *g)
{
    const char *colon = memchr(line, ':', n);
    if (!colon)
        return;
    size_t kn = (size_t)(colon - line);
    while (kn > 0 && blank(line[kn - 1]))
        kn--;
    const char *v = colon + 1;
    size_t vn = n - (size_t)(v - line);
    char *dst = NULL;
    size_t cap = 0;
    if (key_is(line, kn, "Model"))
        dst = g->model, cap = sizeof g->model;
    else if (key_is(line, kn, "GPU UUID"))
        dst = g->uuid, cap = sizeof g->uuid;
    else if (key_is(line, kn, "Video BIOS"))
        dst = g->vbios, cap = sizeof g->vbios;
    else if (key_is(line, kn, "Bus Location"))
        dst = g->bus, cap = sizeof g->bus;
    else if (key_is(line, kn, "GPU Firmware"))
        dst = g->firmware, cap = sizeof g->firmware;
    if (dst) {
        cp_str_copy_trim(dst, cap, v, vn);
        return;
    }
    char val[32];
    cp_str_copy_trim(val, sizeof val, v, vn);
    if (key_is(line, kn, "Device Minor"))
        g->minor = cp_parse_sysfs_int(val, strlen(val), 0);
    else if (key_is(line, kn, "GPU Excluded"))
        g->excluded = strcmp(val, "Yes") == 0 ? CP_YES
                    : strcmp(val, "No") == 0 ? CP_NO : CP_TRI_UNKNOWN;
}

/* Parse one gpus/BUS/information text into g; every field is reset first
 * ("" and CP_UNKNOWN), so keys that are absent stay unknown.  Never fails. */
void cp_parse_nvidia_gpu_info(const char *text, size_t len, cp_procfs_gpu *g)
{
    if (!g)
        return;
    memset(g, 0, sizeof *g);
    g->minor = CP_UNKNOWN;
    g->excluded = CP_TRI_UNKNOWN;
    if (!text)
        return;
    size_t pos = 0;
    cp_span line;
    while (cp_line_next(text, len, &pos, &line))
        gpu_info_line(line.p, line.n, g);
}

typedef struct {
    cp_fs *fs;
    cp_procfs_nvidia *p;
} gpu_walk;

static int gpu_entry(const char *name, cp_fs_type type, void *arg)
{
    gpu_walk *w = arg;
    char path[256], buf[4096];
    size_t len = 0;
    if (type != CP_FS_DIR || w->p->ngpus >= CP_MAX_GPUS)
        return 0;
    snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%s/information", name);
    cp_procfs_gpu *g = &w->p->gpus[w->p->ngpus];
    if (cp_fs_read(w->fs, path, buf, sizeof buf, &len) != 0)
        len = 0;
    cp_parse_nvidia_gpu_info(buf, len, g);
    /* the folder name is the bus address even when the file is unreadable */
    if (!g->bus[0])
        snprintf(g->bus, sizeof g->bus, "%s", name);
    w->p->ngpus++;
    return 0;
}

/* Fill p from /proc/driver/nvidia/version and gpus/<*>/information.
 * Returns 0 when the version file was read (p->present = true), else -errno
 * with p left "not present".  A missing gpus folder is not an error. */
int cp_host_read_procfs(cp_fs *fs, cp_procfs_nvidia *p)
{
    char buf[4096];
    size_t len = 0;
    if (!p)
        return -EINVAL;
    memset(p, 0, sizeof *p);
    p->open_module = CP_TRI_UNKNOWN;
    for (int i = 0; i < CP_MAX_GPUS; i++) {
        p->gpus[i].minor = CP_UNKNOWN;
        p->gpus[i].excluded = CP_TRI_UNKNOWN;
    }
    int rc = cp_fs_read(fs, "/proc/driver/nvidia/version", buf, sizeof buf, &len);
    if (rc)
        return rc;
    p->present = true;
    cp_parse_nvidia_version(buf, len, p);
    gpu_walk w = { fs, p };
    cp_fs_list(fs, "/proc/driver/nvidia/gpus", gpu_entry, &w);
    return 0;
}
