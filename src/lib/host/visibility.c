/*
 * The variables that decide which GPUs a CUDA program sees.
 *
 * CUDA_VISIBLE_DEVICES, as the CUDA driver reads it: a comma list of
 * ordinals ("0,2"), GPU UUIDs or unique UUID prefixes ("GPU-082af63b"), or
 * MIG instances ("MIG-<uuid>", older "MIG-GPU-<uuid>/gi/ci").  The driver
 * stops at the first entry it cannot use and ignores the rest, so "0,-1,1"
 * means only device 0 and "-1" or "none" means no device at all.
 */
#include "host/host.h"
#include "util/str.h"

#include <stdio.h>
#include <string.h>

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "0", " 1 " -> ordinal; false when not all decimal digits or too large. */
static bool parse_ordinal(const char *s, size_t n, int64_t *out)
{
    if (n == 0 || n > 9)
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

/* "GPU-" followed by hex digits and dashes (a whole UUID or a prefix). */
static bool is_gpu_uuid(const char *s, size_t n)
{
    if (n <= 4 || memcmp(s, "GPU-", 4) != 0)
        return false;
    bool hex = false;
    for (size_t i = 4; i < n; i++) {
        if (is_hex(s[i]))
            hex = true;
        else if (s[i] != '-')
            return false;
    }
    return hex;
}

/* "MIG-<uuid>" or "MIG-GPU-<uuid>/<gi>/<ci>". */
static bool is_mig(const char *s, size_t n)
{
    if (n <= 4 || memcmp(s, "MIG-", 4) != 0)
        return false;
    bool hex = false;
    for (size_t i = 4; i < n; i++) {
        char c = s[i];
        if (is_hex(c))
            hex = true;
        else if (c != '-' && c != '/' && c != 'G' && c != 'P' && c != 'U')
            return false;
    }
    return hex;
}

static bool is_duplicate(const cp_cuda_visible *cv, const cp_vis_entry *e)
{
    for (int i = 0; i < cv->n; i++) {
        const cp_vis_entry *o = &cv->e[i];
        if (o->kind != e->kind)
            continue;
        if (e->kind == CP_VIS_INDEX ? o->index == e->index : strcmp(o->text, e->text) == 0)
            return true;
    }
    return false;
}

/* Classify one trimmed entry into e. */
static void classify(const char *s, size_t n, cp_vis_entry *e)
{
    cp_str_copy_n(e->text, sizeof e->text, s, n);
    e->index = CP_UNKNOWN;
    int64_t v;
    if (parse_ordinal(s, n, &v)) {
        e->kind = CP_VIS_INDEX;
        e->index = v;
    } else if (is_gpu_uuid(s, n)) {
        e->kind = CP_VIS_UUID;
    } else if (is_mig(s, n)) {
        e->kind = CP_VIS_MIG;
    } else {
        e->kind = CP_VIS_INVALID;
    }
}

static void parse_cuda_visible(const char *val, cp_cuda_visible *cv)
{
    memset(cv, 0, sizeof *cv);
    cv->first_invalid = -1;
    if (!val)
        return;
    cv->set = true;
    size_t len = strlen(val);
    cp_str_copy_n(cv->raw, sizeof cv->raw, val, len);
    if (len == 0)
        return;                       /* set but empty: no device */
    size_t i = 0;
    while (cv->n < CP_MAX_VIS) {
        const char *comma = memchr(val + i, ',', len - i);
        size_t end = comma ? (size_t)(comma - val) : len;
        size_t a = i, b = end;
        while (a < b && blank(val[a]))
            a++;
        while (b > a && blank(val[b - 1]))
            b--;
        cp_vis_entry *e = &cv->e[cv->n];
        classify(val + a, b - a, e);
        if (e->kind != CP_VIS_INVALID && is_duplicate(cv, e))
            e->kind = CP_VIS_INVALID;
        cv->n++;
        if (e->kind == CP_VIS_INVALID) {
            cv->first_invalid = cv->n - 1;
            return;
        }
        if (!comma)
            return;
        i = end + 1;
    }
}

static cp_nvvis_mode nvidia_mode(const char *val)
{
    if (!val)
        return CP_NVVIS_UNSET;
    if (!*val)
        return CP_NVVIS_EMPTY;
    if (strcmp(val, "all") == 0)
        return CP_NVVIS_ALL;
    if (strcmp(val, "none") == 0)
        return CP_NVVIS_NONE;
    if (strcmp(val, "void") == 0)
        return CP_NVVIS_VOID;
    return CP_NVVIS_LIST;
}

/* Fill v from the three values (NULL = unset); see host.h.  Long values are
 * cut to the fixed fields and at most CP_MAX_VIS entries are kept (the parse
 * stops there).  Never fails. */
void cp_parse_visibility(const char *cuda_visible, const char *nvidia_visible,
                         const char *device_order, cp_visibility *v)
{
    if (!v)
        return;
    memset(v, 0, sizeof *v);
    parse_cuda_visible(cuda_visible, &v->cuda);
    v->cuda_visible_set = v->cuda.set;
    v->nvidia_mode = nvidia_mode(nvidia_visible);
    if (nvidia_visible)
        cp_str_copy_n(v->nvidia_raw, sizeof v->nvidia_raw, nvidia_visible, strlen(nvidia_visible));
    v->order_valid = CP_TRI_UNKNOWN;
    if (device_order) {
        v->order_set = true;
        cp_str_copy_n(v->order_raw, sizeof v->order_raw, device_order, strlen(device_order));
        v->order_valid = (strcmp(device_order, "FASTEST_FIRST") == 0 ||
                          strcmp(device_order, "PCI_BUS_ID") == 0) ? CP_YES : CP_NO;
    }
}
