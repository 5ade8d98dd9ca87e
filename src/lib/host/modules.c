/*
 * Kernel modules from /proc/modules:
 *   "nvidia 14299136 2 nvidia_uvm, Live 0xffffffffc0400000 (O)"
 * (name, size, refcount, users, state, address, taint).  A kernel without
 * module unloading prints "-" for refcount and users.
 */
#include "host/host.h"
#include "util/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const module_names[CP_MOD_COUNT] = {
    [CP_MOD_NVIDIA] = "nvidia",
    [CP_MOD_NVIDIA_UVM] = "nvidia_uvm",
    [CP_MOD_NVIDIA_MODESET] = "nvidia_modeset",
    [CP_MOD_NVIDIA_DRM] = "nvidia_drm",
    [CP_MOD_NOUVEAU] = "nouveau",
};

/* /proc/modules is a few tens of KiB even on busy machines */
#define MODULES_MAX (1u << 20)

typedef cp_span span;

/* Split one line into up to max blank-separated fields; returns the count. */
static int split_fields(const char *line, size_t len, span *f, int max)
{
    int nf = 0;
    size_t i = 0;
    while (i < len && nf < max) {
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= len)
            break;
        size_t start = i;
        while (i < len && line[i] != ' ' && line[i] != '\t')
            i++;
        f[nf].p = line + start;
        f[nf].n = i - start;
        nf++;
    }
    return nf;
}

static int64_t span_decimal(span s)
{
    if (s.n == 0 || s.n > 18)
        return CP_UNKNOWN;
    int64_t v = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (s.p[i] < '0' || s.p[i] > '9')
            return CP_UNKNOWN;
        v = v * 10 + (s.p[i] - '0');
    }
    return v;
}

static void clear_modules(cp_module mods[CP_MOD_COUNT])
{
    for (int m = 0; m < CP_MOD_COUNT; m++) {
        memset(&mods[m], 0, sizeof mods[m]);
        snprintf(mods[m].name, sizeof mods[m].name, "%s", module_names[m]);
        mods[m].loaded = false;
        mods[m].size_bytes = CP_UNKNOWN;
        mods[m].refcount = CP_UNKNOWN;
    }
}

static void parse_line(const char *line, size_t len, cp_module mods[CP_MOD_COUNT])
{
    span f[5];
    int nf = split_fields(line, len, f, 5);
    if (nf < 1)
        return;
    for (int m = 0; m < CP_MOD_COUNT; m++) {
        size_t nl = strlen(module_names[m]);
        if (f[0].n != nl || memcmp(f[0].p, module_names[m], nl) != 0)
            continue;
        cp_module *mod = &mods[m];
        mod->loaded = true;
        if (nf > 1)
            mod->size_bytes = span_decimal(f[1]);
        if (nf > 2)
            mod->refcount = span_decimal(f[2]);
        if (nf > 4)
            cp_str_copy_n(mod->state, sizeof mod->state, f[4].p, f[4].n);
        return;
    }
}

/* Fill mods[] (names always set) from /proc/modules text of len bytes; a
 * module not listed has loaded=false, unknown numbers are CP_UNKNOWN. */
void cp_parse_modules(const char *text, size_t len, cp_module mods[CP_MOD_COUNT])
{
    if (!mods)
        return;
    clear_modules(mods);
    if (!text)
        return;
    size_t pos = 0;
    cp_span line;
    while (cp_line_next(text, len, &pos, &line))
        parse_line(line.p, line.n, mods);
}

/* Fill h->modules from /proc/modules and set h->modules_readable.  Returns 0,
 * or -errno when the file cannot be read (modules then all read as absent,
 * and modules_readable=false says not to trust that). */
int cp_host_read_modules(cp_fs *fs, cp_host_facts *h)
{
    char *text = NULL;
    size_t len = 0;
    if (!h)
        return -EINVAL;
    clear_modules(h->modules);
    h->modules_readable = false;
    int rc = cp_fs_read_alloc(fs, "/proc/modules", MODULES_MAX, &text, &len);
    if (rc)
        return rc;
    cp_parse_modules(text, len, h->modules);
    h->modules_readable = true;
    free(text);
    return 0;
}
