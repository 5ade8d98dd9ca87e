/* Facts <-> answers text, driven by one field table per struct. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "facts_kv.h"

typedef enum { FT_I64, FT_STR, FT_BOOL, FT_INT, FT_DBL } ftype;

typedef struct {
    const char *key;
    ftype type;
    size_t off, size;
} field;

#define FI(S, m) { #m, FT_I64, offsetof(S, m), sizeof(((S *)0)->m) }
#define FS(S, m) { #m, FT_STR, offsetof(S, m), sizeof(((S *)0)->m) }
#define FB(S, m) { #m, FT_BOOL, offsetof(S, m), sizeof(((S *)0)->m) }
#define FN(S, m) { #m, FT_INT, offsetof(S, m), sizeof(((S *)0)->m) }
#define FD(S, m) { #m, FT_DBL, offsetof(S, m), sizeof(((S *)0)->m) }

/* Fields of the probe run and the library load, shared by cuda and nvml. */
#define RUN_AND_LIB(S) \
    FN(S, run.state), FD(S, run.elapsed_ms), FI(S, run.signal), FI(S, run.maxrss_kb), FS(S, run.detail), \
    FS(S, run.stage), \
    FB(S, lib.loaded), FS(S, lib.requested), FS(S, lib.path), FS(S, lib.error), \
    FS(S, lib.missing_symbol), FS(S, lib.version_from_path)

static const field cuda_fields[] = {
    RUN_AND_LIB(cp_cuda_facts),
    FI(cp_cuda_facts, init_result), FS(cp_cuda_facts, init_name), FS(cp_cuda_facts, init_text),
    FI(cp_cuda_facts, driver_version), FI(cp_cuda_facts, device_count),
    FI(cp_cuda_facts, l2_level), FS(cp_cuda_facts, l2_skip),
    FN(cp_cuda_facts, l2_run.state), FD(cp_cuda_facts, l2_run.elapsed_ms), FI(cp_cuda_facts, l2_run.signal),
    FS(cp_cuda_facts, l2_run.detail),
    { NULL, FT_INT, 0, 0 }
};

/* Answers rows from the field rows of fields.h: the key is the field name,
 * the offset that of ROW_OF(name) inside ROW_STRUCT, which each table below
 * defines (so an NVML sample field still answers as nvml.dev.N.power_mw). */
#define ROW_I(n, unit, help) \
    { #n, FT_I64, offsetof(ROW_STRUCT, ROW_OF(n)), sizeof(((ROW_STRUCT *)0)->ROW_OF(n)) },
#define ROW_S(n, sz, help) \
    { #n, FT_STR, offsetof(ROW_STRUCT, ROW_OF(n)), sizeof(((ROW_STRUCT *)0)->ROW_OF(n)) },

#define ROW_STRUCT cp_cuda_device
#define ROW_OF(n) n
static const field cuda_dev_fields[] = {
    CP_CUDA_DEVICE_FIELDS(ROW_I, ROW_S)
    { NULL, FT_INT, 0, 0 }
};
#undef ROW_STRUCT
#undef ROW_OF

#define ROW_STRUCT cp_cuda_l2
#define ROW_OF(n) n
static const field cuda_l2_fields[] = {
    CP_CUDA_L2_FIELDS(ROW_I, ROW_S)
    { NULL, FT_INT, 0, 0 }
};
#undef ROW_STRUCT
#undef ROW_OF

#define ROW_STRUCT cp_lib_l2
#define ROW_OF(n) n
static const field lib_l2_fields[] = {
    CP_LIB_L2_FIELDS(ROW_I, ROW_S)
    { NULL, FT_INT, 0, 0 }
};
#undef ROW_STRUCT
#undef ROW_OF

static const field libs_l2_fields[] = {
    FI(cp_libs_l2_facts, level), FS(cp_libs_l2_facts, skip),
    FN(cp_libs_l2_facts, run.state), FD(cp_libs_l2_facts, run.elapsed_ms), FI(cp_libs_l2_facts, run.signal),
    FI(cp_libs_l2_facts, run.maxrss_kb), FS(cp_libs_l2_facts, run.detail), FS(cp_libs_l2_facts, run.stage),
    FI(cp_libs_l2_facts, device), FI(cp_libs_l2_facts, rss_start_bytes), FI(cp_libs_l2_facts, rss_ctx_bytes),
    FI(cp_libs_l2_facts, hwm_bytes),
    { NULL, FT_INT, 0, 0 }
};

static const field nvml_fields[] = {
    RUN_AND_LIB(cp_nvml_facts),
    FI(cp_nvml_facts, init_result), FS(cp_nvml_facts, init_text),
    FS(cp_nvml_facts, driver_version), FS(cp_nvml_facts, nvml_version),
    FI(cp_nvml_facts, cuda_driver_version), FI(cp_nvml_facts, device_count),
    { NULL, FT_INT, 0, 0 }
};

/* Inventory first, then the sample: one flat key space per device. */
#define ROW_STRUCT cp_nvml_device
#define ROW_OF(n) inv.n
static const field nvml_dev_fields[] = {
    CP_NVML_INVENTORY_FIELDS(ROW_I, ROW_S)
#undef ROW_OF
#define ROW_OF(n) sample.n
    CP_NVML_SAMPLE_FIELDS(ROW_I, ROW_S)
    { NULL, FT_INT, 0, 0 }
};
#undef ROW_STRUCT
#undef ROW_OF

#define ROW_STRUCT cp_gpu_process
#define ROW_OF(n) n
static const field proc_fields[] = {
    CP_GPU_PROCESS_FIELDS(ROW_I, ROW_S)
    { NULL, FT_INT, 0, 0 }
};
#undef ROW_STRUCT
#undef ROW_OF

static const field devnode_fields[] = {
    FS(cp_devnode, path), FB(cp_devnode, exists), FB(cp_devnode, is_chr),
    FI(cp_devnode, major), FI(cp_devnode, minor), FI(cp_devnode, mode),
    FN(cp_devnode, accessible),
    /* newer keys: a snapshot without them leaves them unknown ("", CP_UNKNOWN) */
    FS(cp_devnode, type), FI(cp_devnode, open_errno), { NULL, FT_INT, 0, 0 }
};

static const field fw_fields[] = {
    FS(cp_framework, name), FS(cp_framework, version), FS(cp_framework, package_dir),
    FS(cp_framework, cuda_version), FS(cp_framework, cuda_source), FS(cp_framework, gpu_lib),
    FS(cp_framework, problem), { NULL, FT_INT, 0, 0 }
};

/* The libraries probe's answers, keyed by the copy's real path: a replay
 * matches them to the re-read list by path, not by position. */
static const field libprobe_fields[] = {
    FS(cp_library, path), FN(cp_library, loads), FS(cp_library, load_error), FS(cp_library, version_call),
    { NULL, FT_INT, 0, 0 }
};

static const field fwlib_fields[] = {
    FS(cp_fw_lib, soname), FS(cp_fw_lib, path), FS(cp_fw_lib, via), FS(cp_fw_lib, runpath_copy),
    { NULL, FT_INT, 0, 0 }
};

static const field meta_fields[] = {
    FS(cp_facts, captured_at), FS(cp_facts, hostname), FS(cp_facts, kernel_release), FS(cp_facts, python),
    { NULL, FT_INT, 0, 0 }
};

static void put_fields(cp_buf *b, const char *prefix, const field *t, const void *base)
{
    char key[160];
    for (; t->key; t++) {
        const char *p = (const char *)base + t->off;
        snprintf(key, sizeof key, "%s%s", prefix, t->key);
        switch (t->type) {
        case FT_I64: { int64_t v; memcpy(&v, p, sizeof v); cp_kv_put_i64(b, key, v); break; }
        case FT_STR: cp_kv_put_str(b, key, p); break;
        case FT_BOOL: { bool v; memcpy(&v, p, sizeof v); cp_kv_put_i64(b, key, v); break; }
        case FT_INT: { int v; memcpy(&v, p, sizeof v); cp_kv_put_i64(b, key, v); break; }
        case FT_DBL: { double v; memcpy(&v, p, sizeof v); cp_buf_printf(b, "%s %.3f\n", key, v); break; }
        }
    }
}

/* Set one field from its text; returns 0, or -1 for a value of the wrong type. */
static int set_field(const field *t, const char *name, void *base, const char *value)
{
    for (; t->key; t++) {
        if (strcmp(t->key, name) != 0) continue;
        char *p = (char *)base + t->off;
        int64_t v;
        switch (t->type) {
        case FT_STR:
            snprintf(p, t->size, "%s", value);
            return 0;
        case FT_DBL: {
            char *end;
            double d = strtod(value, &end);
            if (end == value || *end) return -1;
            memcpy(p, &d, sizeof d);
            return 0;
        }
        default:
            if (!cp_kv_i64(value, &v)) return -1;
            if (t->type == FT_I64) { memcpy(p, &v, sizeof v); return 0; }
            if (v == CP_UNKNOWN || v < -1000000 || v > 1000000) return -1;
            if (t->type == FT_BOOL) { bool bv = v != 0; memcpy(p, &bv, sizeof bv); }
            else { int iv = (int)v; memcpy(p, &iv, sizeof iv); }
            return 0;
        }
    }
    return 0;   /* unknown field: newer writer, ignore */
}

static const field lib_fields[] = {
    FB(cp_lib_load, loaded), FS(cp_lib_load, requested), FS(cp_lib_load, path), FS(cp_lib_load, error),
    FS(cp_lib_load, missing_symbol), FS(cp_lib_load, version_from_path), { NULL, FT_INT, 0, 0 }
};

/* Append one library's load record under prefix ("cuda.", "nvml."). */
void cp_facts_put_lib(cp_buf *b, const char *prefix, const cp_lib_load *lib)
{
    char p[32];
    snprintf(p, sizeof p, "%slib.", prefix);
    put_fields(b, p, lib_fields, lib);
}

/* Append the "cuda." block's lines but its end marker; level 2's lines
 * only when it was asked for (a level-1 answer stays as it was). */
void cp_facts_put_cuda_body(cp_buf *b, const cp_cuda_facts *c)
{
    char prefix[48];
    const field *t = cuda_fields;
    for (; t->key; t++) {
        if (strncmp(t->key, "l2_", 3) == 0 && !CP_KNOWN(c->l2_level)) continue;
        field one[2] = { *t, { NULL, FT_INT, 0, 0 } };
        put_fields(b, "cuda.", one, c);
    }
    cp_kv_put_i64(b, "cuda.ndev", c->ndev);
    for (int i = 0; i < c->ndev && i < CP_MAX_GPUS; i++) {
        snprintf(prefix, sizeof prefix, "cuda.dev.%d.", i);
        put_fields(b, prefix, cuda_dev_fields, &c->dev[i]);
        if (CP_KNOWN(c->l2_level)) cp_facts_put_cuda_l2(b, i, &c->dev[i].l2);
    }
}

/* Append one device's level-2 lines (cuda.dev.N.l2.NAME). */
void cp_facts_put_cuda_l2(cp_buf *b, int ordinal, const cp_cuda_l2 *l2)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "cuda.dev.%d.l2.", ordinal);
    put_fields(b, prefix, cuda_l2_fields, l2);
}

/* Append the "cuda." block. */
void cp_facts_put_cuda(cp_buf *b, const cp_cuda_facts *c)
{
    cp_facts_put_cuda_body(b, c);
    cp_kv_put_str(b, "cuda.end", "ok");
}

/* Append the "nvml." block. */
void cp_facts_put_nvml(cp_buf *b, const cp_nvml_facts *n)
{
    char prefix[64];
    put_fields(b, "nvml.", nvml_fields, n);
    cp_kv_put_i64(b, "nvml.ndev", n->ndev);
    for (int i = 0; i < n->ndev && i < CP_MAX_GPUS; i++) {
        const cp_nvml_device *d = &n->dev[i];
        snprintf(prefix, sizeof prefix, "nvml.dev.%d.", i);
        put_fields(b, prefix, nvml_dev_fields, d);
        snprintf(prefix, sizeof prefix, "nvml.dev.%d.nprocs", i);
        cp_kv_put_i64(b, prefix, d->sample.nprocs);
        for (int p = 0; p < d->sample.nprocs && p < CP_MAX_PROCS; p++) {
            snprintf(prefix, sizeof prefix, "nvml.dev.%d.proc.%d.", i, p);
            put_fields(b, prefix, proc_fields, &d->sample.procs[p]);
        }
    }
    cp_kv_put_str(b, "nvml.end", "ok");
}

/* Append the "host." block: uid, device nodes, environment. */
void cp_facts_put_host(cp_buf *b, const cp_host_facts *h, int redact_secrets)
{
    char prefix[80];
    cp_kv_put_i64(b, "host.uid", h->uid);
    cp_kv_put_i64(b, "host.ndev", h->ndev);
    for (int i = 0; i < h->ndev && i < CP_MAX_DEVNODES; i++) {
        snprintf(prefix, sizeof prefix, "host.dev.%d.", i);
        put_fields(b, prefix, devnode_fields, &h->dev[i]);
    }
    char kept[sizeof h->env[0].value + 64], why[256];
    for (int i = 0; i < h->nenv && i < CP_MAX_ENV; i++) {
        const cp_env_var *e = &h->env[i];
        snprintf(prefix, sizeof prefix, "host.env.%s", e->name);
        bool secret = redact_secrets && cp_secret_redact(e->name, e->value, kept, sizeof kept, why, sizeof why);
        cp_kv_put_str(b, prefix, secret ? kept : e->value);
    }
    /* what was redacted and why, never the value: the reader of a snapshot
     * knows which values are not the machine's */
    for (int i = 0; redact_secrets && i < h->nenv && i < CP_MAX_ENV; i++) {
        const cp_env_var *e = &h->env[i];
        if (!cp_secret_redact(e->name, e->value, kept, sizeof kept, why, sizeof why)) continue;
        snprintf(prefix, sizeof prefix, "host.redacted.%s", e->name);
        cp_kv_put_str(b, prefix, why);
    }
    cp_kv_put_str(b, "host.end", "ok");
}

/* Append the "fw." block: what the framework layer found, GPU codes
 * included (the libraries they come from are too big for a snapshot). */
void cp_facts_put_frameworks(cp_buf *b, const cp_frameworks_facts *fw)
{
    char key[64];
    for (int i = 0; i < fw->npython && i < CP_MAX_PYENVS; i++) {
        snprintf(key, sizeof key, "fw.python.%d", i);
        cp_kv_put_str(b, key, fw->python[i]);
    }
    for (int i = 0; i < fw->nfw && i < CP_MAX_FRAMEWORKS; i++) {
        const cp_framework *x = &fw->fw[i];
        char prefix[32], codes[CP_MAX_FW_CODES * 17] = "";
        snprintf(prefix, sizeof prefix, "fw.%d.", i);
        put_fields(b, prefix, fw_fields, x);
        size_t cused = 0;     /* room for every code: each is shorter than 17 */
        for (int c = 0; c < x->ncodes && c < CP_MAX_FW_CODES && cused < sizeof codes; c++)
            cused += (size_t)snprintf(codes + cused, sizeof codes - cused, "%s%s",
                                      codes[0] ? " " : "", x->codes[c]);
        snprintf(key, sizeof key, "fw.%d.codes", i);
        cp_kv_put_str(b, key, codes);
        char entries[CP_MAX_FW_CODES * 21] = "";
        size_t used = 0;
        for (int c = 0; c < x->ncodes && c < CP_MAX_FW_CODES; c++)
            used += (size_t)snprintf(entries + used, sizeof entries - used, "%s%lld", c ? " " : "",
                                     (long long)(x->code_entries[c] > 0 ? x->code_entries[c] : 0));
        snprintf(key, sizeof key, "fw.%d.code_entries", i);
        cp_kv_put_str(b, key, entries);
        for (int l = 0; l < x->nlibs && l < CP_MAX_FW_LIBS; l++) {
            snprintf(prefix, sizeof prefix, "fw.%d.lib.%d.", i, l);
            put_fields(b, prefix, fwlib_fields, &x->libs[l]);
        }
    }
    cp_kv_put_str(b, "fw.end", "ok");
}

/* Append the "libs." block: per copy its path, then what the libraries
 * probe said of it. */
void cp_facts_put_libs(cp_buf *b, const cp_libraries_facts *libs)
{
    char prefix[32];
    for (int i = 0; i < libs->nlib && i < CP_MAX_LIBS; i++) {
        snprintf(prefix, sizeof prefix, "libs.%d.", i);
        put_fields(b, prefix, libprobe_fields, &libs->lib[i]);
    }
    cp_kv_put_str(b, "libs.end", "ok");
}

/* Append the "libl2." block's lines for the child itself (no library, no
 * end marker). */
void cp_facts_put_libs_l2_head(cp_buf *b, const cp_libs_l2_facts *l)
{
    put_fields(b, "libl2.", libs_l2_fields, l);
}

/* Append one library's level-2 lines (libl2.NAME.FIELD). */
void cp_facts_put_lib_l2(cp_buf *b, int index, const cp_lib_l2 *l)
{
    char prefix[32];
    if (index < 0 || index >= CP_L2_NLIBS) return;
    snprintf(prefix, sizeof prefix, "libl2.%s.", cp_l2_lib_names[index]);
    put_fields(b, prefix, lib_l2_fields, l);
}

/* Append the "libl2." block whole, nothing when level 2 did not ask for it. */
void cp_facts_put_libs_l2(cp_buf *b, const cp_libs_l2_facts *l)
{
    if (!CP_KNOWN(l->level)) return;
    cp_facts_put_libs_l2_head(b, l);
    for (int i = 0; i < CP_L2_NLIBS; i++) cp_facts_put_lib_l2(b, i, &l->lib[i]);
    cp_kv_put_str(b, "libl2.end", "ok");
}

/* Append the "meta." block. */
void cp_facts_put_meta(cp_buf *b, const cp_facts *f)
{
    put_fields(b, "meta.", meta_fields, f);
    cp_kv_put_str(b, "meta.end", "ok");
}

typedef struct {
    cp_facts *f;
    int seen;
    char *err;
    size_t errcap;
    int bad;
} load_ctx;

/* "3.name" -> index 3 and *rest = "name"; -1 when out of range. */
static int take_index(const char *s, int max, const char **rest)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '.' || v < 0 || v >= max) return -1;
    *rest = end + 1;
    return (int)v;
}

static int load_nvml_dev(cp_nvml_facts *n, const char *k, const char *v)
{
    const char *rest;
    int i = take_index(k, CP_MAX_GPUS, &rest);
    if (i < 0) return -1;
    cp_nvml_device *d = &n->dev[i];
    cp_nvml_sample *s = &d->sample;
    if (i >= n->ndev) n->ndev = i + 1;
    if (strcmp(rest, "nprocs") == 0) {
        int64_t x;
        if (!cp_kv_i64(v, &x) || x < 0 || x > CP_MAX_PROCS) return -1;
        s->nprocs = (int)x;
        return 0;
    }
    if (strncmp(rest, "proc.", 5) == 0) {
        const char *pf;
        int p = take_index(rest + 5, CP_MAX_PROCS, &pf);
        if (p < 0) return -1;
        if (p >= s->nprocs) s->nprocs = p + 1;
        return set_field(proc_fields, pf, &s->procs[p], v);
    }
    return set_field(nvml_dev_fields, rest, d, v);
}

static int load_host(cp_host_facts *h, const char *k, const char *v)
{
    const char *rest;
    if (strcmp(k, "uid") == 0) return cp_kv_i64(v, &h->uid) ? 0 : -1;
    if (strcmp(k, "ndev") == 0) return 0;
    if (strncmp(k, "dev.", 4) == 0) {
        int i = take_index(k + 4, CP_MAX_DEVNODES, &rest);
        if (i < 0) return -1;
        if (i >= h->ndev) h->ndev = i + 1;
        return set_field(devnode_fields, rest, &h->dev[i], v);
    }
    if (strncmp(k, "env.", 4) == 0) {
        if (!k[4]) return -1;
        cp_env_var *e = NULL;   /* a later line for the same name wins, as for every other key */
        for (int i = 0; i < h->nenv && !e; i++)
            if (strncmp(h->env[i].name, k + 4, sizeof h->env[i].name - 1) == 0 && strlen(k + 4) < sizeof h->env[i].name)
                e = &h->env[i];
        if (!e && h->nenv >= CP_MAX_ENV) return -1;
        if (!e) e = &h->env[h->nenv++];
        snprintf(e->name, sizeof e->name, "%s", k + 4);
        snprintf(e->value, sizeof e->value, "%s", v);
        return 0;
    }
    return 0;
}

static int load_fw(cp_frameworks_facts *fw, const char *k, const char *v)
{
    const char *rest;
    if (strncmp(k, "python.", 7) == 0) {   /* "python.N", no field after the index */
        char *end;
        long n = strtol(k + 7, &end, 10);
        if (end == k + 7 || *end || n < 0 || n >= CP_MAX_PYENVS) return -1;
        if (n >= fw->npython) fw->npython = (int)n + 1;
        snprintf(fw->python[n], sizeof fw->python[n], "%s", v);
        return 0;
    }
    int i = take_index(k, CP_MAX_FRAMEWORKS, &rest);
    if (i < 0) return -1;
    cp_framework *x = &fw->fw[i];
    if (i >= fw->nfw) fw->nfw = i + 1;
    if (strncmp(rest, "lib.", 4) == 0) {
        const char *lf;
        int l = take_index(rest + 4, CP_MAX_FW_LIBS, &lf);
        if (l < 0) return -1;
        if (l >= x->nlibs) x->nlibs = l + 1;
        return set_field(fwlib_fields, lf, &x->libs[l], v);
    }
    if (strcmp(rest, "code_entries") == 0) {       /* "444 444 12": one count per code, in order */
        int c = 0;
        for (const char *p = v; *p && c < CP_MAX_FW_CODES; c++) {
            char *end;
            while (*p == ' ') p++;
            if (!*p) break;
            long long n = strtoll(p, &end, 10);
            if (end == p || n < 0 || (*end && *end != ' ')) return -1;
            x->code_entries[c] = n;
            p = end;
        }
        return 0;
    }
    if (strcmp(rest, "codes") != 0) return set_field(fw_fields, rest, x, v);
    x->ncodes = 0;
    for (const char *p = v; *p && x->ncodes < CP_MAX_FW_CODES;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n == 0) break;
        if (n >= sizeof x->codes[0]) return -1;
        memcpy(x->codes[x->ncodes], p, n);
        x->codes[x->ncodes++][n] = '\0';
        p += n;
    }
    return 0;
}

/* "cublas.result" -> that library's field; anything else is the child's. */
static int load_lib_l2(cp_libs_l2_facts *l, const char *k, const char *v)
{
    for (int i = 0; i < CP_L2_NLIBS; i++) {
        size_t n = strlen(cp_l2_lib_names[i]);
        if (strncmp(k, cp_l2_lib_names[i], n) == 0 && k[n] == '.')
            return set_field(lib_l2_fields, k + n + 1, &l->lib[i], v);
    }
    return set_field(libs_l2_fields, k, l, v);
}

static int load_one(const char *key, const char *value, void *arg)
{
    load_ctx *c = arg;
    cp_facts *f = c->f;
    const char *rest;
    int rc = 0;
    if (strncmp(key, "cuda.", 5) == 0) {
        const char *k = key + 5;
        if (strcmp(k, "end") == 0) c->seen |= CP_KV_CUDA;
        else if (strcmp(k, "ndev") == 0) rc = 0;
        else if (strncmp(k, "dev.", 4) == 0) {
            int i = take_index(k + 4, CP_MAX_GPUS, &rest);
            if (i < 0) rc = -1;
            else {
                if (i >= f->cuda.ndev) f->cuda.ndev = i + 1;
                if (strncmp(rest, "l2.", 3) == 0)
                    rc = set_field(cuda_l2_fields, rest + 3, &f->cuda.dev[i].l2, value);
                else rc = set_field(cuda_dev_fields, rest, &f->cuda.dev[i], value);
            }
        } else rc = set_field(cuda_fields, k, &f->cuda, value);
    } else if (strncmp(key, "nvml.", 5) == 0) {
        const char *k = key + 5;
        if (strcmp(k, "end") == 0) c->seen |= CP_KV_NVML;
        else if (strcmp(k, "ndev") == 0) rc = 0;
        else if (strncmp(k, "dev.", 4) == 0) rc = load_nvml_dev(&f->nvml, k + 4, value);
        else rc = set_field(nvml_fields, k, &f->nvml, value);
    } else if (strncmp(key, "host.", 5) == 0) {
        if (strcmp(key + 5, "end") == 0) c->seen |= CP_KV_HOST;
        else rc = load_host(&f->host, key + 5, value);
    } else if (strncmp(key, "libs.", 5) == 0) {
        if (strcmp(key + 5, "end") == 0) c->seen |= CP_KV_LIBS;
        else {
            int i = take_index(key + 5, CP_MAX_LIBS, &rest);
            rc = i < 0 ? -1 : set_field(libprobe_fields, rest, &f->libraries.lib[i], value);
        }
    } else if (strncmp(key, "libl2.", 6) == 0) {
        const char *k = key + 6;
        if (strcmp(k, "end") == 0) c->seen |= CP_KV_LIBL2;
        else rc = load_lib_l2(&f->libs_l2, k, value);
    } else if (strncmp(key, "fw.", 3) == 0) {
        if (strcmp(key + 3, "end") == 0) c->seen |= CP_KV_FW;
        else rc = load_fw(&f->frameworks, key + 3, value);
    } else if (strncmp(key, "meta.", 5) == 0) {
        if (strcmp(key + 5, "end") == 0) c->seen |= CP_KV_META;
        else rc = set_field(meta_fields, key + 5, f, value);
    }
    if (rc && !c->bad) {
        c->bad = 1;
        snprintf(c->err, c->errcap, "bad value for '%s': '%.60s'", key, value);
    }
    return 0;
}

/* Apply answers text to f; see facts_kv.h. */
int cp_facts_load(const char *text, size_t len, cp_facts *f, char *err, size_t errcap)
{
    load_ctx c = { f, 0, err, errcap, 0 };
    /* a last line without its newline was cut off: drop it, the missing end
     * marker then reports the truncation */
    while (len > 0 && text[len - 1] != '\n') len--;
    int malformed = cp_kv_parse(text, len, load_one, &c);
    if (malformed < 0) { snprintf(err, errcap, "out of memory"); return -1; }
    if (c.bad) return -1;
    if (malformed > 0) { snprintf(err, errcap, "%d malformed line%s", malformed, malformed > 1 ? "s" : ""); return -1; }
    return c.seen;
}

/* ------------------------------------------------------ snapshot framing -- */

/* One block of a snapshot's answers as the framing pass saw it. */
typedef struct {
    char name[24];
    bool listed, started, ended, late;
} frame_block;

typedef struct {
    frame_block b[16];
    int n;
    bool manifest;
    int after_end;            /* lines since the last end marker */
    bool any_end;
} frame_ctx;

/* The block named by a key's first component ("fw" for "fw.0.name"), added
 * when add; NULL when it is not tracked or there is no room. */
static frame_block *frame_find(frame_ctx *c, const char *key, size_t n, bool add)
{
    for (int i = 0; i < c->n; i++)
        if (strlen(c->b[i].name) == n && strncmp(c->b[i].name, key, n) == 0)
            return &c->b[i];
    if (!add || c->n == (int)(sizeof c->b / sizeof c->b[0]) || n == 0 || n >= sizeof c->b[0].name)
        return NULL;
    frame_block *b = &c->b[c->n++];
    memset(b, 0, sizeof *b);
    memcpy(b->name, key, n);
    b->name[n] = '\0';
    return b;
}

static int frame_one(const char *key, const char *value, void *arg)
{
    frame_ctx *c = arg;
    c->after_end++;
    if (strcmp(key, CP_KV_BLOCKS_KEY) == 0) {     /* the writer's list of its blocks */
        c->manifest = true;
        for (const char *p = value; *p;) {
            while (*p == ' ') p++;
            size_t n = strcspn(p, " ");
            frame_block *b = n ? frame_find(c, p, n, true) : NULL;
            if (b) b->listed = true;
            p += n;
        }
        return 0;
    }
    const char *dot = strchr(key, '.');
    if (!dot) return 0;
    frame_block *b = frame_find(c, key, (size_t)(dot - key), false);
    if (!b) return 0;                            /* a newer writer's block: ignored */
    if (strcmp(dot + 1, "end") == 0) {
        if (b->ended) b->late = true;
        b->ended = true;
        c->after_end = 0;
        c->any_end = true;
        return 0;
    }
    b->started = true;
    if (b->ended) b->late = true;
    return 0;
}

/* Load a snapshot's answers strictly; see facts_kv.h. */
int cp_facts_load_snapshot(const char *text, size_t len, cp_facts *f, char *err, size_t errcap)
{
    static const char *const known[] = { "meta", "host", "cuda", "nvml", "fw", "libs", "libl2" };
    char why[160];
    int seen = cp_facts_load(text, len, f, why, sizeof why);
    if (seen < 0) {
        snprintf(err, errcap, "is damaged: %s", why);
        return -1;
    }
    frame_ctx c;
    memset(&c, 0, sizeof c);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        frame_block *b = frame_find(&c, known[i], strlen(known[i]), true);
        if (b) b->listed = i < 4;                /* meta, host, cuda, nvml: always written */
    }
    size_t whole = len;
    while (whole > 0 && text[whole - 1] != '\n') whole--;
    if (cp_kv_parse(text, whole, frame_one, &c) < 0) { snprintf(err, errcap, "out of memory"); return -1; }
    for (int i = 0; i < c.n; i++) {
        const frame_block *b = &c.b[i];
        if ((b->listed || b->started) && !b->ended) {
            snprintf(err, errcap, "is truncated: the '%s' answers are incomplete (%s)", b->name,
                     b->started ? "cut before their end marker" : "missing");
            return -1;
        }
    }
    for (int i = 0; i < c.n; i++)
        if (c.b[i].late) {
            snprintf(err, errcap, "carries '%s' lines after that block's end marker", c.b[i].name);
            return -1;
        }
    if (c.after_end > 0) {
        snprintf(err, errcap, "carries %d line%s after its last end marker", c.after_end, c.after_end > 1 ? "s" : "");
        return -1;
    }
    /* comments too: the last line that is not blank must be an end marker */
    size_t e = whole;
    while (e > 0 && (text[e - 1] == '\n' || text[e - 1] == '\r' || text[e - 1] == ' ' || text[e - 1] == '\t')) e--;
    size_t b = e;
    while (b > 0 && text[b - 1] != '\n') b--;
    if (e > b && (e - b < 8 || memcmp(text + e - 7, ".end ok", 7) != 0 || text[b] == '#')) {
        snprintf(err, errcap, "carries text after its last end marker");
        return -1;
    }
    if (whole < len) {
        size_t i = whole;
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) i++;
        if (i < len) {
            snprintf(err, errcap, "ends inside a line: %zu byte%s after its last line", len - whole,
                     len - whole > 1 ? "s" : "");
            return -1;
        }
    }
    return seen;
}

/* ---- the sampler's answers (src/lib/telemetry/): a device's inventory
 * once, its sample every tick, under the same nvml.dev.N. keys ---- */

#define ROW_STRUCT cp_nvml_inventory
#define ROW_OF(n) n
static const field nvml_inv_fields[] = {
    CP_NVML_INVENTORY_FIELDS(ROW_I, ROW_S)
    { NULL, FT_INT, 0, 0 }
};
#undef ROW_STRUCT
#undef ROW_OF

#define ROW_STRUCT cp_nvml_sample
#define ROW_OF(n) n
static const field nvml_sample_fields[] = {
    CP_NVML_SAMPLE_FIELDS(ROW_I, ROW_S)
    { NULL, FT_INT, 0, 0 }
};
#undef ROW_STRUCT
#undef ROW_OF

/* Append device i's inventory lines (nvml.dev.I.name ...). */
void cp_facts_put_nvml_inventory(cp_buf *b, int i, const cp_nvml_inventory *inv)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "nvml.dev.%d.", i);
    put_fields(b, prefix, nvml_inv_fields, inv);
}

/* Append device i's sample lines, its processes included. */
void cp_facts_put_nvml_sample(cp_buf *b, int i, const cp_nvml_sample *s)
{
    char prefix[48];
    snprintf(prefix, sizeof prefix, "nvml.dev.%d.", i);
    put_fields(b, prefix, nvml_sample_fields, s);
    snprintf(prefix, sizeof prefix, "nvml.dev.%d.nprocs", i);
    cp_kv_put_i64(b, prefix, s->nprocs);
    for (int p = 0; p < s->nprocs && p < CP_MAX_PROCS; p++) {
        snprintf(prefix, sizeof prefix, "nvml.dev.%d.proc.%d.", i, p);
        put_fields(b, prefix, proc_fields, &s->procs[p]);
    }
}

/* Apply one "nvml.dev." line (key without that prefix); see facts_kv.h. */
int cp_facts_set_nvml_dev(cp_nvml_facts *n, const char *key, const char *value)
{
    return load_nvml_dev(n, key, value);
}
