/*
 * The explain engine: clean the text (ANSI escapes, CR, NUL and other
 * control bytes), cut it into lines, and find every knowledge-base phrase in
 * each line with one pass over the line: phrases are lowercased once per call
 * and bucketed by a hash of their LAST 8 bytes (first 4 for shorter ones), so
 * the work per byte is a hash and a short bucket walk, whatever the size of
 * the knowledge base.  Last, not first: dozens of phrases start with "cuda",
 * few share an ending, so text full of "cuda" stays fast.
 *
 * A line longer than WINDOW bytes is scanned in windows that overlap by
 * OVERLAP bytes (longer than any phrase), so nothing is copied whole and a
 * phrase across a window edge is still found; a signal counts once per line.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"
#include "cuprobe/explain.h"
#include "explain_int.h"
#include "kb/signals.h"

#define WINDOW 4096
#define OVERLAP 256            /* > the longest phrase (checked by the unit test) */
#define NBUCKET 4096
#define MAX_HITS 64            /* matches kept per window; more are ignored */
#define MAX_KEYS 32            /* groups of one row: distinct XID numbers or missing libraries */

typedef struct {
    const char *lower;         /* lowercased phrase (arena) */
    size_t len;
    int row;
    unsigned char word_start, word_end;  /* phrase edge is alphanumeric: demand a word boundary */
    int next;                  /* next phrase in the bucket, -1 */
} pattern;

typedef struct { int row; size_t start, end; } hit;

typedef struct {
    int row;
    int key;                   /* XID number for kernel.xid groups, -1 otherwise */
    char soname[64];           /* the missing library for loader groups, "" otherwise */
    long last_line;
} group_meta;

/* The phrase index: built once per process from the knowledge base (which
 * is constant), then only read, so calls on several threads share it. */
typedef struct {
    cp_signal *rows;
    size_t nrows;
    pattern *pats;
    size_t npats;
    int bucket[NBUCKET];       /* phrases of >= 8 bytes, by their last 8 */
    int bucket4[NBUCKET];      /* shorter phrases, by their first 4 */
    int nshort;
    char *arena;               /* lowercased phrases, also[] and unless */
    const char **also_low;     /* nrows * CP_SIGNAL_MAX_ALSO */
    const char **unless_low;   /* nrows */
} phrase_index;

/* One call's state. */
typedef struct {
    const phrase_index *ix;
    cp_explain_result *out;
    group_meta *meta;
    int cap;
    char low[WINDOW], orig[WINDOW];
    cp_explain_signal scratch; /* values of a line before its group is known */
    size_t n;                  /* bytes in the window */
    long line;
    int oom;                   /* allocation failed */
} scanner;

static unsigned hash4(const char *p)
{
    unsigned k = (unsigned char)p[0] | (unsigned)(unsigned char)p[1] << 8 |
                 (unsigned)(unsigned char)p[2] << 16 | (unsigned)(unsigned char)p[3] << 24;
    return (k * 2654435761u) >> 20 & (NBUCKET - 1);
}

static unsigned hash8(const char *p)
{
    uint64_t k;
    memcpy(&k, p, 8);
    return (unsigned)((k * 0x9e3779b97f4a7c15ull) >> 52) & (NBUCKET - 1);
}

static int is_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int is_alnum(unsigned char c) { return is_word(c) && c != '_'; }

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

/* Copy s lowercased into the arena at *used; returns the copy. */
static const char *arena_low(char *arena, size_t *used, const char *s)
{
    char *d = arena + *used;
    size_t i = 0;
    for (; s[i]; i++) d[i] = lower(s[i]);
    d[i] = '\0';
    *used += i + 1;
    return d;
}

static size_t row_text_size(const cp_signal *s, size_t *npats)
{
    size_t sz = 0;
    for (int j = 0; j < CP_SIGNAL_MAX_MATCH && s->match[j]; j++, (*npats)++) sz += strlen(s->match[j]) + 1;
    for (int j = 0; j < CP_SIGNAL_MAX_ALSO && s->also[j]; j++) sz += strlen(s->also[j]) + 1;
    if (s->unless) sz += strlen(s->unless) + 1;
    return sz;
}

static void index_row(phrase_index *sc, size_t r, size_t *used)
{
    const cp_signal *s = &sc->rows[r];
    for (int j = 0; j < CP_SIGNAL_MAX_MATCH && s->match[j]; j++) {
        pattern *p = &sc->pats[sc->npats];
        p->lower = arena_low(sc->arena, used, s->match[j]);
        p->len = strlen(p->lower);
        if (p->len < 4 || p->len >= OVERLAP) continue;      /* the unit test rejects such rows */
        p->row = (int)r;
        p->word_start = (unsigned char)is_alnum((unsigned char)p->lower[0]);
        p->word_end = (unsigned char)is_alnum((unsigned char)p->lower[p->len - 1]);
        int *b = p->len >= 8 ? &sc->bucket[hash8(p->lower + p->len - 8)] : &sc->bucket4[hash4(p->lower)];
        sc->nshort += p->len < 8;
        p->next = *b;
        *b = (int)sc->npats++;
    }
    for (int j = 0; j < CP_SIGNAL_MAX_ALSO && s->also[j]; j++)
        sc->also_low[r * CP_SIGNAL_MAX_ALSO + j] = arena_low(sc->arena, used, s->also[j]);
    if (s->unless) sc->unless_low[r] = arena_low(sc->arena, used, s->unless);
}

static phrase_index the_index;
static int the_index_ok;
static pthread_mutex_t the_index_lock = PTHREAD_MUTEX_INITIALIZER;

/* Load the knowledge base and build the phrase index.  On OOM the_index_ok
 * stays 0 and the next call tries again (a one-time build that failed once
 * must not make every later call fail). */
static void index_build(void)
{
    phrase_index *sc = &the_index;
    size_t n = cp_signals_all(NULL, 0), text = 0, npats = 0;
    sc->rows = cp_malloc(n * sizeof *sc->rows);
    if (!sc->rows) return;
    sc->nrows = cp_signals_all(sc->rows, n);
    for (size_t r = 0; r < n; r++) text += row_text_size(&sc->rows[r], &npats);
    sc->pats = cp_malloc((npats ? npats : 1) * sizeof *sc->pats);
    sc->arena = cp_malloc(text ? text : 1);
    sc->also_low = cp_calloc(n * CP_SIGNAL_MAX_ALSO + 1, sizeof *sc->also_low);
    sc->unless_low = cp_calloc(n + 1, sizeof *sc->unless_low);
    if (!sc->pats || !sc->arena || !sc->also_low || !sc->unless_low) {
        free(sc->rows); free(sc->pats); free(sc->arena); free(sc->also_low); free(sc->unless_low);
        memset(sc, 0, sizeof *sc);
        return;
    }
    for (int b = 0; b < NBUCKET; b++) sc->bucket[b] = sc->bucket4[b] = -1;
    size_t used = 0;
    for (size_t r = 0; r < n; r++) index_row(sc, r, &used);
    the_index_ok = 1;
}

/* Does phrase p occur at w[i] with the word boundaries it asks for? */
static int hit_at(const scanner *sc, const pattern *p, size_t i)
{
    const char *w = sc->low;
    if (p->len > sc->n - i || memcmp(w + i, p->lower, p->len) != 0) return 0;
    if (p->word_start && i > 0 && is_word((unsigned char)w[i - 1])) return 0;
    if (p->word_end && i + p->len < sc->n && is_word((unsigned char)w[i + p->len])) return 0;
    return 1;
}

static int find_hits(const scanner *sc, hit *hits)
{
    const phrase_index *ix = sc->ix;
    int nh = 0;
    for (size_t i = 0; i + 4 <= sc->n && nh < MAX_HITS; i++) {
        if (ix->nshort)
            for (int k = ix->bucket4[hash4(sc->low + i)]; k >= 0 && nh < MAX_HITS; k = ix->pats[k].next)
                if (hit_at(sc, &ix->pats[k], i)) hits[nh++] = (hit){ ix->pats[k].row, i, i + ix->pats[k].len };
        if (i + 8 > sc->n) continue;
        for (int k = ix->bucket[hash8(sc->low + i)]; k >= 0 && nh < MAX_HITS; k = ix->pats[k].next) {
            const pattern *p = &ix->pats[k];
            if (i + 8 >= p->len && hit_at(sc, p, i + 8 - p->len))
                hits[nh++] = (hit){ p->row, i + 8 - p->len, i + 8 };
        }
    }
    return nh;
}

/* A hit inside a longer hit of another row is that row's detail, not a
 * signal of its own ("out of memory" inside "CUDA out of memory"). */
static int shadowed(const hit *hits, int nh, int i)
{
    for (int j = 0; j < nh; j++)
        if (j != i && hits[j].row != hits[i].row && hits[j].start <= hits[i].start &&
            hits[j].end >= hits[i].end && hits[j].end - hits[j].start > hits[i].end - hits[i].start)
            return 1;
    return 0;
}

static int line_allows(const scanner *sc, int row)
{
    const char *const *also = &sc->ix->also_low[(size_t)row * CP_SIGNAL_MAX_ALSO];
    const char *unless = sc->ix->unless_low[row];
    if (unless && memmem(sc->low, sc->n, unless, strlen(unless))) return 0;
    if (!also[0]) return 1;
    for (int j = 0; j < CP_SIGNAL_MAX_ALSO && also[j]; j++)
        if (memmem(sc->low, sc->n, also[j], strlen(also[j]))) return 1;
    return 0;
}

/* The group of (row, key, soname), or -1 for a new one.  A row keeps at
 * most MAX_KEYS groups (XID numbers, missing libraries); later keys join its
 * last group, so no text can make the groups, and the search, grow without
 * bound. */
static int group_find(const scanner *sc, int row, int key, const char *soname)
{
    int last = -1, nrow = 0;
    for (int g = 0; g < sc->out->nsignals; g++) {
        if (sc->meta[g].row != row) continue;
        if (sc->meta[g].key == key && strcmp(sc->meta[g].soname, soname) == 0) return g;
        last = g;
        nrow++;
    }
    return nrow >= MAX_KEYS ? last : -1;
}

static int group_new(scanner *sc, int row, int key, const char *soname)
{
    cp_explain_result *o = sc->out;
    if (o->nsignals == sc->cap) {
        int cap = sc->cap ? sc->cap * 2 : 16;
        cp_explain_signal *s = cp_realloc(o->signals, (size_t)cap * sizeof *s);
        if (!s) return -1;
        o->signals = s;
        group_meta *m = cp_realloc(sc->meta, (size_t)cap * sizeof *m);
        if (!m) return -1;
        sc->meta = m;
        sc->cap = cap;
    }
    int g = o->nsignals++;
    sc->meta[g] = (group_meta){ .row = row, .key = key };
    snprintf(sc->meta[g].soname, sizeof sc->meta[g].soname, "%s", soname);
    return g;
}

static void evidence(const scanner *sc, const hit *h, char *dst, size_t cap)
{
    size_t a = 0, b = sc->n;
    while (a < b && (sc->orig[a] == ' ')) a++;
    while (b > a && sc->orig[b - 1] == ' ') b--;
    if (b - a > cap - 1 && h->start > a + 60) a = h->start - 60;   /* keep the phrase in view */
    if (b - a > cap - 1) b = a + cap - 1;
    memcpy(dst, sc->orig + a, b - a);
    dst[b - a] = '\0';
}

static void record(scanner *sc, const hit *h)
{
    const cp_signal *row = &sc->ix->rows[h->row];
    int key = row->extract == CP_EXTRACT_XID ? cp_explain_xid_number(sc->low, sc->n) : -1;
    char soname[64] = "";                       /* each missing library is a signal of its own */
    if (row->extract == CP_EXTRACT_SONAME) {
        cp_explain_signal *t = &sc->scratch;
        memset(t, 0, sizeof *t);
        cp_explain_extract(row->extract, sc->orig, sc->low, sc->n, h->start, t);
        snprintf(soname, sizeof soname, "%s", t->soname);
    }
    int g = group_find(sc, h->row, key, soname);
    if (g >= 0) {
        if (sc->meta[g].last_line != sc->line) sc->out->signals[g].count++;
        sc->meta[g].last_line = sc->line;
        return;
    }
    if ((g = group_new(sc, h->row, key, soname)) < 0) { sc->oom = 1; return; }
    sc->meta[g].last_line = sc->line;
    cp_explain_signal *s = &sc->out->signals[g];
    memset(s, 0, sizeof *s);
    snprintf(s->code, sizeof s->code, "%s", row->id);
    s->layer = row->layer;
    s->cause = row->cause;
    s->fix = row->fix;
    s->check = row->check;
    s->first_line = sc->line;
    s->count = 1;
    s->requested_bytes = s->free_bytes = s->total_bytes = -1;
    s->gpu = s->xid = -1;
    s->error_number = row->cu_code ? row->cu_code : row->nvml_code ? row->nvml_code : row->rt_code ? row->rt_code : -1;
    s->notice = row->notice;
    s->error_enum = row->cu_code ? "CUresult" : row->nvml_code ? "nvmlReturn_t" : row->rt_code ? "cudaError_t" : NULL;
    evidence(sc, h, s->evidence, sizeof s->evidence);
    cp_explain_extract(row->extract, sc->orig, sc->low, sc->n, h->start, s);
}

static void scan_window(scanner *sc)
{
    hit hits[MAX_HITS];
    int nh = find_hits(sc, hits);
    int done[MAX_HITS], ndone = 0;            /* rows recorded from this window */
    for (int i = 0; i < nh && !sc->oom; i++) {
        int dup = 0;
        for (int j = 0; j < ndone; j++) dup |= done[j] == hits[i].row;
        if (dup || shadowed(hits, nh, i) || !line_allows(sc, hits[i].row) ||
            !cp_explain_value_ok(sc->ix->rows[hits[i].row].value, sc->low, sc->n, hits[i].start, hits[i].end))
            continue;
        record(sc, &hits[i]);
        done[ndone++] = hits[i].row;
    }
}

/* End of a line or segment: scan what the window holds and empty it. */
static void flush(scanner *sc)
{
    if (sc->n) scan_window(sc);
    sc->n = 0;
}

static void put(scanner *sc, char c)
{
    if (sc->n == WINDOW) {
        scan_window(sc);
        memmove(sc->low, sc->low + WINDOW - OVERLAP, OVERLAP);
        memmove(sc->orig, sc->orig + WINDOW - OVERLAP, OVERLAP);
        sc->n = OVERLAP;
    }
    sc->orig[sc->n] = c;
    sc->low[sc->n++] = lower(c);
}

/* Skip an escape sequence starting at text[i] == ESC; returns the index of
 * its last byte. */
static size_t skip_escape(const char *t, size_t len, size_t i)
{
    if (i + 1 >= len) return i;
    if (t[i + 1] == '[') {                      /* CSI: ESC [ params final(0x40-0x7e) */
        size_t j = i + 2;
        while (j < len && !((unsigned char)t[j] >= 0x40 && (unsigned char)t[j] <= 0x7e)) j++;
        return j < len ? j : len - 1;
    }
    if (t[i + 1] == ']') {                      /* OSC: ends at BEL or ESC \ */
        size_t j = i + 2;
        while (j < len && t[j] != '\a' && !(t[j] == '\033' && j + 1 < len && t[j + 1] == '\\')) j++;
        return j < len && t[j] == '\033' ? j + 1 : (j < len ? j : len - 1);
    }
    return i + 1;
}

static void scan_text(scanner *sc, const char *t, size_t len)
{
    sc->line = 1;
    for (size_t i = 0; i < len && !sc->oom; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\n') { flush(sc); sc->line++; }
        else if (c == '\033') i = skip_escape(t, len, i);
        else if (c == '\t') put(sc, ' ');
        else if (c < 0x20 || c == 0x7f) flush(sc);   /* CR, NUL and binary: separators */
        else put(sc, (char)c);
    }
    flush(sc);
}

/* A notice must not outrank the fault it reports: move the notices (XID
 * 154, a remap recorded, the module's load line) after the other signals,
 * each part keeping its order of first lines.  Returns -1 when out of
 * memory. */
static int notices_last(cp_explain_result *out)
{
    int nn = 0;
    for (int i = 0; i < out->nsignals; i++) nn += out->signals[i].notice != 0;
    if (nn == 0 || nn == out->nsignals) return 0;
    cp_explain_signal *t = cp_malloc((size_t)out->nsignals * sizeof *t);
    if (!t) return -1;
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < out->nsignals; i++)
            if ((out->signals[i].notice != 0) == pass) t[k++] = out->signals[i];
    memcpy(out->signals, t, (size_t)out->nsignals * sizeof *t);
    free(t);
    return 0;
}

/* Scan a text for every known signal; see explain.h. */
int cp_explain_text(const char *text, size_t len, cp_explain_result *out)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&the_index_lock);
    if (!the_index_ok) index_build();
    int ready = the_index_ok;
    pthread_mutex_unlock(&the_index_lock);
    if (!ready) return -1;
    scanner *sc = cp_calloc(1, sizeof *sc);
    if (!sc) return -1;
    sc->ix = &the_index;
    sc->out = out;
    int rc = 0;
    if (text) {
        scan_text(sc, text, len);
        out->lines = len ? sc->line - (text[len - 1] == '\n') : 0;
        if (sc->oom || notices_last(out) != 0) rc = -1;
    }
    free(sc->meta);
    free(sc);
    if (rc != 0) cp_explain_free(out);
    return rc;
}

/* Release a result; see explain.h. */
void cp_explain_free(cp_explain_result *r)
{
    if (!r) return;
    free(r->signals);
    memset(r, 0, sizeof *r);
}
