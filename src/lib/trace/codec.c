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
    memset(t, 0, sizeof *t);
}

/* See trace.h. */
const char *cp_trace_str(const cp_trace *t, uint32_t id)
{
    return id < t->nstrings ? t->strings[id] : NULL;
}
