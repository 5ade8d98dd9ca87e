/*
 * The trace file's writer and reader (docs/trace-format.md): little-endian
 * fields at fixed offsets, written and read byte by byte so the file is the
 * same on every host.  The writer is pure (it fills memory) so the injection
 * library shares it; the reader trusts nothing in the file.
 */
#include <stdlib.h>
#include <string.h>
#include "cuprobe/trace.h"
#include "util/alloc.h"
#include "util/str.h"

static void put16(unsigned char *p, uint32_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get16(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const unsigned char *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }

static size_t body_size(unsigned type)
{
    switch (type) {
    case CP_TREC_KERNEL: return CP_TREC_KERNEL_BODY;
    case CP_TREC_MEMCPY: return CP_TREC_MEMCPY_BODY;
    case CP_TREC_MEMSET: return CP_TREC_MEMSET_BODY;
    case CP_TREC_SYNC: return CP_TREC_SYNC_BODY;
    case CP_TREC_API: return CP_TREC_API_BODY;
    case CP_TREC_OVERHEAD: return CP_TREC_OVERHEAD_BODY;
    case CP_TREC_DROPPED: return CP_TREC_DROPPED_BODY;
    case CP_TREC_END: return CP_TREC_END_BODY;
    case CP_TREC_COUNTERS: return CP_TREC_COUNTERS_BODY;
    case CP_TREC_SAMPLE: return CP_TREC_SAMPLE_BODY;
    default: return 0;
    }
}

/* Zero n bytes at dst and write a record head of type; the body's start. */
static unsigned char *rec_head(unsigned char *dst, unsigned type, size_t n)
{
    memset(dst, 0, n);
    put16(dst, type);
    put16(dst + 2, (uint32_t)n);
    return dst + CP_TRACE_REC_HEAD;
}

/* The file header; see trace.h. */
size_t cp_trace_encode_header(unsigned char *dst, size_t cap, uint32_t pid, int64_t wall_start_ns)
{
    if (cap < CP_TRACE_HEADER_SIZE) return CP_TRACE_HEADER_SIZE;
    memset(dst, 0, CP_TRACE_HEADER_SIZE);
    memcpy(dst, CP_TRACE_MAGIC, 8);
    put32(dst + 8, CP_TRACE_VERSION);
    put32(dst + 12, CP_TRACE_HEADER_SIZE);
    put32(dst + 16, pid);
    put64(dst + 24, (uint64_t)wall_start_ns);
    return CP_TRACE_HEADER_SIZE;
}

/* A fixed-size record; see trace.h. */
size_t cp_trace_encode_rec(unsigned char *dst, size_t cap, const cp_trace_rec *r)
{
    size_t body = body_size(r->type), n = CP_TRACE_REC_HEAD + body;
    if (!body) return 0;
    if (cap < n) return n;
    memset(dst, 0, n);
    put16(dst, r->type);
    put16(dst + 2, (uint32_t)n);
    unsigned char *b = dst + CP_TRACE_REC_HEAD;
    if (r->type == CP_TREC_END) put64(b, (uint64_t)r->start);
    else if (r->type != CP_TREC_DROPPED) {
        put64(b, (uint64_t)r->start);
        put64(b + 8, (uint64_t)r->end);
    }
    switch (r->type) {
    case CP_TREC_KERNEL:
        put32(b + 16, r->device); put32(b + 20, r->stream); put32(b + 24, r->context);
        put32(b + 28, r->corr); put32(b + 32, r->name);
        for (int i = 0; i < 3; i++) {
            put32(b + 36 + 4 * i, (uint32_t)r->grid[i]);
            put32(b + 48 + 4 * i, (uint32_t)r->block[i]);
        }
        break;
    case CP_TREC_MEMCPY:
    case CP_TREC_MEMSET:
        put64(b + 16, r->bytes); put32(b + 24, r->device); put32(b + 28, r->stream); put32(b + 32, r->corr);
        if (r->type == CP_TREC_MEMCPY) { b[36] = r->copy_kind; b[37] = r->src_kind; b[38] = r->dst_kind; }
        break;
    case CP_TREC_SYNC:
        put32(b + 16, r->sync_type); put32(b + 20, r->device); put32(b + 24, r->stream);
        put32(b + 28, r->context); put32(b + 32, r->corr);
        break;
    case CP_TREC_API:
        put64(b + 16, r->tid); put32(b + 24, r->cbid); put32(b + 28, r->name); put32(b + 32, r->corr);
        b[36] = r->domain;
        break;
    case CP_TREC_OVERHEAD:
        put32(b + 16, r->overhead_kind);
        break;
    case CP_TREC_DROPPED:
        put64(b, r->bytes); put32(b + 8, r->device);
        break;
    case CP_TREC_END:
        put32(b + 8, r->signal);
        break;
    case CP_TREC_COUNTERS:
        put32(b + 16, r->device); put32(b + 20, r->ctr_status);
        for (int i = 0; i < 3; i++) put32(b + 24 + 4 * i, r->ctr_metric[i]);
        put32(b + 36, r->name); put64(b + 40, (uint64_t)r->clk_real); put64(b + 48, (uint64_t)r->clk_mono);
        put64(b + 56, r->bytes);
        break;
    case CP_TREC_SAMPLE:
        put32(b + 16, r->device); put32(b + 20, (uint32_t)r->sm_cpct); put32(b + 24, (uint32_t)r->dram_cpct);
        break;
    default: break;
    }
    return n;
}

/* A string of the string table; see trace.h. */
size_t cp_trace_encode_string(unsigned char *dst, size_t cap, uint32_t id, const char *s, size_t len)
{
    if (len > CP_TRACE_MAX_STRING || id == 0 || id > CP_TRACE_MAX_STRING_ID) return 0;
    size_t n = CP_TRACE_REC_HEAD + 8 + ((len + 7) & ~(size_t)7);
    if (cap < n) return n;
    memset(dst, 0, n);
    put16(dst, CP_TREC_STRING);
    put16(dst + 2, (uint32_t)n);
    put32(dst + 8, id);
    put32(dst + 12, (uint32_t)len);
    if (len) memcpy(dst + 16, s, len);
    return n;
}

/* A STACK record; see trace.h. */
size_t cp_trace_encode_stack(unsigned char *dst, size_t cap, uint64_t tid, uint32_t corr, unsigned domain,
                             unsigned flags, const uint64_t *pcs, size_t depth, const char *py, size_t pylen)
{
    if (depth > CP_TRACE_MAX_DEPTH || (py && pylen > CP_TRACE_MAX_PYFRAMES)) return 0;
    flags = py ? flags | CP_STACK_PYTHON : flags & ~CP_STACK_PYTHON;
    size_t n = CP_TRACE_REC_HEAD + CP_TREC_STACK_HEAD + 8 * depth + (py ? 8 + ((pylen + 7) & ~(size_t)7) : 0);
    if (cap < n) return n;
    unsigned char *b = rec_head(dst, CP_TREC_STACK, n);
    put64(b, tid);
    put32(b + 8, corr);
    put16(b + 12, (uint32_t)depth);
    b[14] = (unsigned char)domain;
    b[15] = (unsigned char)flags;
    for (size_t i = 0; i < depth; i++) put64(b + CP_TREC_STACK_HEAD + 8 * i, pcs[i]);
    if (py) {
        unsigned char *q = b + CP_TREC_STACK_HEAD + 8 * depth;
        put32(q, (uint32_t)pylen);
        if (pylen) memcpy(q + 8, py, pylen);
    }
    return n;
}

/* A MODULE record; see trace.h. */
size_t cp_trace_encode_module(unsigned char *dst, size_t cap, uint64_t start, uint64_t end, uint64_t bias,
                              const char *path, size_t len, const unsigned char *build_id, size_t idlen)
{
    if (len > CP_TRACE_MAX_STRING || idlen > CP_TRACE_MAX_BUILD_ID) return 0;
    size_t plen = (len + 7) & ~(size_t)7;
    size_t n = CP_TRACE_REC_HEAD + CP_TREC_MODULE_HEAD + plen + ((idlen + 7) & ~(size_t)7);
    if (cap < n) return n;
    unsigned char *b = rec_head(dst, CP_TREC_MODULE, n);
    put64(b, start);
    put64(b + 8, end);
    put64(b + 16, bias);
    put32(b + 24, (uint32_t)len);
    put32(b + 28, (uint32_t)idlen);
    if (len) memcpy(b + CP_TREC_MODULE_HEAD, path, len);
    if (idlen) memcpy(b + CP_TREC_MODULE_HEAD + plen, build_id, idlen);
    return n;
}

/* See trace.h. */
size_t cp_trace_note_build_id(const unsigned char *p, size_t n, unsigned char *id)
{
    size_t off = 0;
    while (n - off >= 12) {
        uint32_t namesz = get32(p + off), descsz = get32(p + off + 4), type = get32(p + off + 8);
        size_t name_pad = ((size_t)namesz + 3) & ~(size_t)3, desc_pad = ((size_t)descsz + 3) & ~(size_t)3;
        off += 12;
        if (name_pad > n - off || desc_pad > n - off - name_pad) return 0;
        if (type == 3 && namesz == 4 && memcmp(p + off, "GNU", 4) == 0 && descsz && descsz <= CP_TRACE_MAX_BUILD_ID) {
            memcpy(id, p + off + name_pad, descsz);
            return descsz;
        }
        off += name_pad + desc_pad;
    }
    return 0;
}

/* See trace.h. */
int cp_trace_is_sync_name(const char *n)
{
    if (strstr(n, "Synchronize")) return 1;
    return (strncmp(n, "cudaMemcpy", 10) == 0 || strncmp(n, "cuMemcpy", 8) == 0) && !strstr(n, "Async");
}

static void decode(unsigned type, const unsigned char *b, cp_trace_rec *r)
{
    memset(r, 0, sizeof *r);
    r->type = (uint16_t)type;
    if (type != CP_TREC_DROPPED) {
        r->start = (int64_t)get64(b);
        r->end = (int64_t)get64(b + 8);
    }
    switch (type) {
    case CP_TREC_KERNEL:
        r->device = get32(b + 16); r->stream = get32(b + 20); r->context = get32(b + 24);
        r->corr = get32(b + 28); r->name = get32(b + 32);
        for (int i = 0; i < 3; i++) {
            r->grid[i] = (int32_t)get32(b + 36 + 4 * i);
            r->block[i] = (int32_t)get32(b + 48 + 4 * i);
        }
        break;
    case CP_TREC_MEMCPY:
    case CP_TREC_MEMSET:
        r->bytes = get64(b + 16); r->device = get32(b + 24); r->stream = get32(b + 28); r->corr = get32(b + 32);
        if (type == CP_TREC_MEMCPY) { r->copy_kind = b[36]; r->src_kind = b[37]; r->dst_kind = b[38]; }
        break;
    case CP_TREC_SYNC:
        r->sync_type = get32(b + 16); r->device = get32(b + 20); r->stream = get32(b + 24);
        r->context = get32(b + 28); r->corr = get32(b + 32);
        break;
    case CP_TREC_API:
        r->tid = get64(b + 16); r->cbid = get32(b + 24); r->name = get32(b + 28); r->corr = get32(b + 32);
        r->domain = b[36];
        break;
    case CP_TREC_OVERHEAD:
        r->overhead_kind = get32(b + 16);
        break;
    case CP_TREC_DROPPED:
        r->bytes = get64(b); r->device = get32(b + 8);
        break;
    case CP_TREC_COUNTERS:
        r->device = get32(b + 16); r->ctr_status = get32(b + 20);
        for (int i = 0; i < 3; i++) r->ctr_metric[i] = get32(b + 24 + 4 * i);
        r->name = get32(b + 36); r->clk_real = (int64_t)get64(b + 40); r->clk_mono = (int64_t)get64(b + 48);
        r->bytes = get64(b + 56);
        break;
    case CP_TREC_SAMPLE:
        r->device = get32(b + 16); r->sm_cpct = (int32_t)get32(b + 20); r->dram_cpct = (int32_t)get32(b + 24);
        break;
    default: break;
    }
}

static int fail(char *err, size_t errn, const char *why, cp_trace *t)
{
    cp_str_copy(err, errn, why);
    cp_trace_free(t);
    return -1;
}

static int add_string(cp_trace *t, uint32_t id, const unsigned char *s, size_t len)
{
    if (id >= t->nstrings) {
        size_t n = t->nstrings ? t->nstrings : 64;
        while (n <= id) n *= 2;
        char **p = cp_realloc(t->strings, n * sizeof *p);
        if (!p) return -1;
        memset(p + t->nstrings, 0, (n - t->nstrings) * sizeof *p);
        t->strings = p;
        t->nstrings = n;
    }
    char *c = cp_malloc(len + 1);
    if (!c) return -1;
    memcpy(c, s, len);
    c[len] = '\0';
    free(t->strings[id]);
    t->strings[id] = c;
    return 0;
}

/* A STACK record's body of blen bytes: 0, or -1 (bad, or out of memory). */
static int add_stack(cp_trace *t, const unsigned char *b, size_t blen)
{
    if (blen < CP_TREC_STACK_HEAD) return -1;
    size_t depth = get16(b + 12);
    if (depth > CP_TRACE_MAX_DEPTH || depth > (blen - CP_TREC_STACK_HEAD) / 8) return -1;
    if (t->nstacks == t->capstacks) {
        size_t cap = t->capstacks ? t->capstacks * 2 : 64;
        cp_trace_stack *p = cp_realloc(t->stacks, cap * sizeof *p);
        if (!p) return -2;
        t->stacks = p;
        t->capstacks = cap;
    }
    if (t->cappcs - t->npcs < depth) {
        size_t cap = t->cappcs ? t->cappcs * 2 : 1024;
        uint64_t *p = cp_realloc(t->pcs, cap * sizeof *p);
        if (!p) return -2;
        t->pcs = p;
        t->cappcs = cap;
    }
    cp_trace_stack *st = &t->stacks[t->nstacks++];
    memset(st, 0, sizeof *st);
    st->tid = get64(b);
    st->corr = get32(b + 8);
    st->depth = (uint16_t)depth;
    st->domain = b[14];
    st->flags = b[15];
    st->first = t->npcs;
    for (size_t i = 0; i < depth; i++) t->pcs[t->npcs++] = get64(b + CP_TREC_STACK_HEAD + 8 * i);
    if (st->flags & CP_STACK_PYTHON) {            /* the interpreter's frames after the addresses */
        size_t at = CP_TREC_STACK_HEAD + 8 * depth;
        if (blen - at < 8) return -1;
        size_t len = get32(b + at);
        if (len > CP_TRACE_MAX_PYFRAMES || len > blen - at - 8) return -1;
        if (!(st->python = cp_malloc(len + 1))) return -2;
        memcpy(st->python, b + at + 8, len);
        st->python[len] = '\0';
    }
    return 0;
}

/* A MODULE record's body: 0, -1 or -2, as add_stack. */
static int add_module(cp_trace *t, const unsigned char *b, size_t blen)
{
    if (blen < CP_TREC_MODULE_HEAD) return -1;
    size_t len = get32(b + 24), idlen = get32(b + 28), plen = (len + 7) & ~(size_t)7;
    if (len > CP_TRACE_MAX_STRING || plen > blen - CP_TREC_MODULE_HEAD || idlen > CP_TRACE_MAX_BUILD_ID ||
        idlen > blen - CP_TREC_MODULE_HEAD - plen)
        return -1;
    if (t->nmods == t->capmods) {
        size_t cap = t->capmods ? t->capmods * 2 : 64;
        cp_trace_module *p = cp_realloc(t->mods, cap * sizeof *p);
        if (!p) return -2;
        t->mods = p;
        t->capmods = cap;
    }
    char *path = cp_malloc(len + 1);
    if (!path) return -2;
    memcpy(path, b + CP_TREC_MODULE_HEAD, len);
    path[len] = '\0';
    cp_trace_module *m = &t->mods[t->nmods++];
    m->start = get64(b);
    m->end = get64(b + 8);
    m->bias = get64(b + 16);
    m->path = path;
    memset(m->build_id, 0, sizeof m->build_id);
    memcpy(m->build_id, b + CP_TREC_MODULE_HEAD + plen, idlen);
    m->build_id_len = idlen;
    return 0;
}

/* Parse a file in memory; see trace.h. */
int cp_trace_parse(const unsigned char *data, size_t n, cp_trace *t, char *err, size_t errn)
{
    memset(t, 0, sizeof *t);
    if (n < CP_TRACE_HEADER_SIZE || memcmp(data, CP_TRACE_MAGIC, 8) != 0)
        return fail(err, errn, "not a cuprobe trace file (no CPTRACE1 header)", t);
    t->version = get32(data + 8);
    uint32_t hsize = get32(data + 12);
    if (t->version != CP_TRACE_VERSION) return fail(err, errn, "a trace file version this cuprobe does not read", t);
    if (hsize < CP_TRACE_HEADER_SIZE || hsize > n) return fail(err, errn, "a trace file header of a bad size", t);
    t->pid = get32(data + 16);
    t->wall_start_ns = (int64_t)get64(data + 24);
    size_t off = hsize;
    while (off < n) {
        if (n - off < CP_TRACE_REC_HEAD) { t->truncated = 1; break; }
        unsigned type = get16(data + off);
        size_t size = get16(data + off + 2);
        if (size < CP_TRACE_REC_HEAD || (size & 7)) return fail(err, errn, "a trace record of a bad size", t);
        if (size > n - off) { t->truncated = 1; break; }
        const unsigned char *b = data + off + CP_TRACE_REC_HEAD;
        size_t blen = size - CP_TRACE_REC_HEAD;
        if (type == CP_TREC_STRING) {
            if (blen < 8) return fail(err, errn, "a trace string record of a bad size", t);
            uint32_t id = get32(b), len = get32(b + 4);
            if (id == 0 || id > CP_TRACE_MAX_STRING_ID || len > CP_TRACE_MAX_STRING || len > blen - 8)
                return fail(err, errn, "a bad trace string record", t);
            if (add_string(t, id, b + 8, len) < 0) return fail(err, errn, "out of memory", t);
        } else if (type == CP_TREC_STACK) {
            int k = add_stack(t, b, blen);
            if (k < 0) return fail(err, errn, k == -2 ? "out of memory" : "a bad trace stack record", t);
        } else if (type == CP_TREC_MODULE) {
            int k = add_module(t, b, blen);
            if (k < 0) return fail(err, errn, k == -2 ? "out of memory" : "a bad trace module record", t);
        } else if (body_size(type)) {
            if (blen < body_size(type)) return fail(err, errn, "a trace record shorter than its type", t);
            if (type == CP_TREC_END) {                      /* not a record of the run: how it ended */
                t->ended = 1;
                t->end_signal = get32(b + 8);
                off += size;
                continue;
            }
            if (t->n == t->cap) {
                size_t cap = t->cap ? t->cap * 2 : 1024;
                cp_trace_rec *p = cp_realloc(t->recs, cap * sizeof *p);
                if (!p) return fail(err, errn, "out of memory", t);
                t->recs = p;
                t->cap = cap;
            }
            cp_trace_rec *r = &t->recs[t->n];
            decode(type, b, r);
            if (type == CP_TREC_DROPPED) {
                if (r->bytes <= CP_TRACE_MAX_TIME) t->dropped += r->bytes;   /* no sum can wrap */
            } else if (r->start < 0 || r->start > CP_TRACE_MAX_TIME || r->end > CP_TRACE_MAX_TIME) {
                t->skipped++;                                   /* a time no clock gives */
                off += size;
                continue;
            } else {
                if (r->end < r->start) r->end = r->start;       /* a clock hiccup: an empty interval */
                if (r->end - r->start > CP_TRACE_MAX_DURATION) r->end = r->start + CP_TRACE_MAX_DURATION;
            }
            t->n++;
        }
        off += size;
    }
    return 0;
}

/* See trace.h. */
void cp_trace_free(cp_trace *t)
{
    for (size_t i = 0; i < t->nstrings; i++) free(t->strings[i]);
    free(t->strings);
    free(t->recs);
    for (size_t i = 0; i < t->nstacks; i++) {
        free(t->stacks[i].python);
        free(t->stacks[i].where);
        free(t->stacks[i].frames);
    }
    free(t->stacks);
    free(t->pcs);
    for (size_t i = 0; i < t->nmods; i++) free(t->mods[i].path);
    free(t->mods);
    for (size_t i = 0; i < t->nperf; i++) free(t->perf[i].name);
    free(t->perf);
    memset(t, 0, sizeof *t);
}

/* See trace.h. */
const char *cp_trace_str(const cp_trace *t, uint32_t id)
{
    return id < t->nstrings ? t->strings[id] : NULL;
}
