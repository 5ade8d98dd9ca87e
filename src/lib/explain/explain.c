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
 *
 * Text as people paste it: box-drawing characters (rich's tracebacks) and
 * no-break spaces are blanks; a line's known prefixes (timestamps, log
 * levels, "[rank3]:", "service-1  | ", glog headers) are stripped before
 * matching; and a phrase may run across a cut: a line break into a line
 * that continues it (no new timestamp or level, the same rank or service),
 * or a run of padding blanks inside a line (a terminal's wrap, pasted).  A
 * cut is matched joined both ways, with one blank and with none (a wrap in
 * the middle of a word), and only phrases that cross it count there; their
 * evidence shows the two real pieces with a "⏎" between them.
 *
 * Context: some rows only mark where the text ran (a container: "docker
 * run", a compose prefix), and some count only in a text so marked, on any
 * line, before or after; those are kept aside as the text is read and
 * dropped at its end where the context never showed (context_filter).
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
#define GAP 16                 /* blanks inside a line that are a pasted wrap's padding */
#define MAX_GAPS 8             /* such cuts joined per window; more are ignored */
#define PREFIX_MAX 160         /* bytes of prefixes stripped from a line's start, at most */
#define BREAK "\xe2\x8f\x8e"    /* U+23CF, where a joined phrase was cut */

typedef struct {
    const char *lower;         /* lowercased phrase (arena) */
    size_t len;
    int row;
    unsigned char word_start, word_end;  /* phrase edge is alphanumeric: demand a word boundary */
    unsigned char loose;       /* a component's name (last_resort): '_' and a case change are boundaries too */
    int next;                  /* next phrase in the bucket, -1 */
} pattern;

typedef struct { int row; size_t start, end; } hit;

typedef struct {
    int row;
    int key;                   /* XID number for kernel.xid groups, -1 otherwise */
    char soname[64];           /* the missing library for loader groups, "" otherwise */
    long last_line;
    int confirmed;             /* a named component's: 2 a line of it says it failed, 1 a line next to it */
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
    size_t maxlen;             /* the longest phrase */
    char *arena;               /* lowercased phrases, also[] and unless */
    const char **also_low;     /* nrows * CP_SIGNAL_MAX_ALSO */
    const char **unless_low;   /* nrows */
    int fail_first[256];       /* kb's failure words by their first byte: the first's index, -1 */
    int *fail_next;            /* the next word of the same first byte, -1 */
    size_t *fail_len;
} phrase_index;

/* The bytes phrases are matched in: a line's window (cut == 0), or two
 * pieces joined at a cut, where only a hit that starts before `cut` and
 * ends after `cut + sep` counts. */
typedef struct {
    const char *low, *orig;
    size_t n;
    size_t cut, sep;           /* join: the end of the first piece, 0 or 1 blank after it */
} view;

/* One call's state. */
typedef struct {
    const phrase_index *ix;
    cp_explain_result *out;
    group_meta *meta;
    int cap;
    char low[WINDOW], orig[WINDOW];
    cp_explain_signal scratch; /* values of a line before its group is known */
    size_t n;                  /* bytes in the window */
    size_t skip;               /* the line's prefix and leading blanks in the window */
    int first;                 /* the window is the line's first (its prefix not yet read) */
    long line;
    /* the end of the last line, for a phrase that runs on into the next */
    char tail_low[OVERLAP], tail_orig[OVERLAP];
    size_t ntail;              /* 0: nothing to join */
    long tail_line;
    char chan[32], tail_chan[32];  /* the line's rank or service prefix, lowercased */
    int newrec;                /* the line's prefix holds a timestamp or log level */
    char jlow[2 * OVERLAP + 1], jorig[2 * OVERLAP + 1];
    int oom;                   /* allocation failed */
    unsigned contexts;         /* CP_CONTEXT_ bits the text showed */
    long unconfirmed_line;     /* the last line with a named component not yet confirmed, 0 for none */
    int lowest_cc;             /* the lowest compute capability a line named (major * 10 + minor), 0 none */
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
        if (p->len > sc->maxlen) sc->maxlen = p->len;
        int plain = s->marks != 0;              /* a context shows in any spelling: libcuda, CUDA_HOME */
        p->word_start = (unsigned char)(!plain && is_alnum((unsigned char)p->lower[0]));
        p->word_end = (unsigned char)(!plain && is_alnum((unsigned char)p->lower[p->len - 1]));
        p->loose = (unsigned char)(s->last_resort != 0);
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
    size_t nfail = 0;
    while (cp_failure_words[nfail]) nfail++;
    sc->fail_next = cp_malloc((nfail + 1) * sizeof *sc->fail_next);
    sc->fail_len = cp_malloc((nfail + 1) * sizeof *sc->fail_len);
    if (!sc->pats || !sc->arena || !sc->also_low || !sc->unless_low || !sc->fail_next || !sc->fail_len) {
        free(sc->rows); free(sc->pats); free(sc->arena); free(sc->also_low); free(sc->unless_low);
        free(sc->fail_next); free(sc->fail_len);
        memset(sc, 0, sizeof *sc);
        return;
    }
    for (int c = 0; c < 256; c++) sc->fail_first[c] = -1;
    for (size_t w = nfail; w-- > 0;) {           /* lists in the table's order */
        unsigned char c = (unsigned char)cp_failure_words[w][0];
        sc->fail_len[w] = strlen(cp_failure_words[w]);
        sc->fail_next[w] = sc->fail_first[c];
        sc->fail_first[c] = (int)w;
    }
    for (int b = 0; b < NBUCKET; b++) sc->bucket[b] = sc->bucket4[b] = -1;
    size_t used = 0;
    for (size_t r = 0; r < n; r++) index_row(sc, r, &used);
    the_index_ok = 1;
}

static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }

static int is_lower(char c) { return c >= 'a' && c <= 'z'; }

/* Is there a word boundary between v's bytes at i - 1 and i?  Loosely, '_'
 * and a change from lower to upper case are boundaries too
 * ("cusolverDnCreate", "CUFFT_INTERNAL_ERROR", "RuntimeError"). */
static int boundary(const view *v, size_t i, int loose)
{
    if (i == 0 || i >= v->n) return 1;
    unsigned char a = (unsigned char)v->low[i - 1], b = (unsigned char)v->low[i];
    if (!is_word(a) || !is_word(b)) return 1;
    return loose && (a == '_' || b == '_' || (is_lower(v->orig[i - 1]) && is_upper(v->orig[i])));
}

/* Does phrase p occur at w[i] with the word boundaries it asks for? */
static int hit_at(const view *v, const pattern *p, size_t i)
{
    const char *w = v->low;
    if (p->len > v->n - i || memcmp(w + i, p->lower, p->len) != 0) return 0;
    if (p->word_start && !boundary(v, i, p->loose)) return 0;
    if (p->word_end && !boundary(v, i + p->len, p->loose)) return 0;
    return 1;
}

/* A hit that counts in v: anywhere in a line, across the cut in a join. */
static int crosses(const view *v, size_t start, size_t end)
{
    return !v->cut || (start < v->cut && end > v->cut + v->sep);
}

/* A marker whose contexts the text has already shown says nothing new:
 * it is not looked for again (and so cannot crowd a window's hits). */
static int marked_already(const scanner *sc, const pattern *p)
{
    unsigned m = sc->ix->rows[p->row].marks;
    return m && !(m & ~sc->contexts);
}

static int find_hits(const scanner *sc, const view *v, hit *hits)
{
    const phrase_index *ix = sc->ix;
    int nh = 0;
    for (size_t i = v->cut > 7 ? v->cut - 7 : 0; i + 4 <= v->n && nh < MAX_HITS; i++) {
        if (ix->nshort && (!v->cut || i < v->cut))
            for (int k = ix->bucket4[hash4(v->low + i)]; k >= 0 && nh < MAX_HITS; k = ix->pats[k].next)
                if (hit_at(v, &ix->pats[k], i) && crosses(v, i, i + ix->pats[k].len) && !marked_already(sc, &ix->pats[k]))
                    hits[nh++] = (hit){ ix->pats[k].row, i, i + ix->pats[k].len };
        if (i + 8 > v->n) continue;
        for (int k = ix->bucket[hash8(v->low + i)]; k >= 0 && nh < MAX_HITS; k = ix->pats[k].next) {
            const pattern *p = &ix->pats[k];
            if (i + 8 >= p->len && hit_at(v, p, i + 8 - p->len) && crosses(v, i + 8 - p->len, i + 8) &&
                !marked_already(sc, p))
                hits[nh++] = (hit){ p->row, i + 8 - p->len, i + 8 };
        }
    }
    return nh;
}

/* A hit inside a longer hit of another row is that row's detail, not a
 * signal of its own ("out of memory" inside "CUDA out of memory"), unless
 * that row needs a context or its absence (whether it counts is known at
 * the text's end) or is only another reading, or the shorter one replaces
 * the line's other signals or is itself another reading (of the line the
 * longer one explains). */
static int shadowed(const phrase_index *ix, const hit *hits, int nh, int i)
{
    if (ix->rows[hits[i].row].replaces_line) return 0;     /* it re-explains the line: see yields() */
    if (ix->rows[hits[i].row].alternative) return 0;       /* another reading of that very line */
    if (ix->rows[hits[i].row].marks) return 0;             /* a context, wherever it is written */
    for (int j = 0; j < nh; j++)
        if (j != i && hits[j].row != hits[i].row && !ix->rows[hits[j].row].context &&
            !ix->rows[hits[j].row].context_absent && !ix->rows[hits[j].row].alternative &&
            hits[j].start <= hits[i].start &&
            hits[j].end >= hits[i].end && hits[j].end - hits[j].start > hits[i].end - hits[i].start)
            return 1;
    return 0;
}

/* Does low[0..n) hold one of the first `max` phrases (fewer where a NULL
 * ends them)? */
static int holds_any(const char *low, size_t n, const char *const *phrases, size_t max)
{
    for (size_t j = 0; j < max && phrases[j]; j++)
        if (memmem(low, n, phrases[j], strlen(phrases[j]))) return 1;
    return 0;
}

/* Is v no failure line whatever its words (an informational level, a
 * program's own Python error): one of kb's not-failure phrases in v or,
 * on a line's own window, in the prefix the scanner skipped ("INFO ...")? */
static int quiet_line(const scanner *sc, const view *v)
{
    return holds_any(v->low, v->n, cp_not_failure_phrases, SIZE_MAX) ||
           (!v->cut && v->low == sc->low + sc->skip &&
            holds_any(sc->low, sc->skip, cp_not_failure_phrases, SIZE_MAX));
}

/* Does v say something failed: one of kb's failure words on word
 * boundaries, where '_' and a case change also start a word (but a word
 * ends only at a non-word byte: not "NCCL_ASYNC_ERROR_HANDLING"), on a
 * line that is not quiet? */
static int says_failure(const scanner *sc, const view *v)
{
    const phrase_index *ix = sc->ix;
    int found = 0;
    for (size_t i = 0; i < v->n && !found; i++) {
        int k = ix->fail_first[(unsigned char)v->low[i]];
        if (k < 0 || !boundary(v, i, 1)) continue;   /* "RuntimeError", "CUFFT_INTERNAL_ERROR" */
        for (; k >= 0 && !found; k = ix->fail_next[k]) {
            const char *w = cp_failure_words[k];
            size_t len = ix->fail_len[k];
            found = len <= v->n - i && memcmp(v->low + i, w, len) == 0 &&
                    (!is_alnum((unsigned char)w[len - 1]) || boundary(v, i + len, 0));
        }
    }
    return found && !quiet_line(sc, v);
}

/* Did the line before the one being read say something failed (its kept
 * end: the last OVERLAP bytes)? */
static int line_before_failed(const scanner *sc)
{
    if (!sc->ntail || sc->tail_line != sc->line - 1) return 0;
    view t = { sc->tail_low, sc->tail_orig, sc->ntail, 0, 0 };
    return says_failure(sc, &t);
}

static int line_allows(const scanner *sc, const view *v, int row)
{
    const char *const *also = &sc->ix->also_low[(size_t)row * CP_SIGNAL_MAX_ALSO];
    const char *unless = sc->ix->unless_low[row];
    if (unless && memmem(v->low, v->n, unless, strlen(unless))) return 0;
    if (sc->ix->rows[row].last_resort && quiet_line(sc, v)) return 0;
    return !also[0] || holds_any(v->low, v->n, also, CP_SIGNAL_MAX_ALSO);
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

/* The evidence: the n bytes of orig, blanks trimmed, at most cap - 1 of
 * them with the phrase at `start` kept in view. */
static void evidence_of(const char *orig, size_t n, size_t start, char *dst, size_t cap)
{
    size_t a = 0, b = n;
    while (a < b && (orig[a] == ' ')) a++;
    while (b > a && orig[b - 1] == ' ') b--;
    if (b - a > cap - 1 && start > a + 60) a = start - 60;   /* keep the phrase in view */
    if (b - a > cap - 1) b = a + cap - 1;
    memcpy(dst, orig + a, b - a);
    dst[b - a] = '\0';
}

/* A line's evidence is the line; a join's the two pieces as written, the
 * cut marked. */
static void evidence(const view *v, const hit *h, char *dst, size_t cap)
{
    if (!v->cut) { evidence_of(v->orig, v->n, h->start, dst, cap); return; }
    char both[2 * OVERLAP + 8];
    size_t rest = v->n - v->cut - v->sep;
    memcpy(both, v->orig, v->cut);
    memcpy(both + v->cut, " " BREAK " ", 5);
    memcpy(both + v->cut + 5, v->orig + v->cut + v->sep, rest);
    evidence_of(both, v->cut + 5 + rest, h->start, dst, cap);
}

static void record(scanner *sc, const view *v, const hit *h)
{
    const cp_signal *row = &sc->ix->rows[h->row];
    if (row->marks) {                           /* a context marker, no signal */
        sc->contexts |= row->marks;
        return;
    }
    int key = row->extract == CP_EXTRACT_XID ? cp_explain_xid_number(v->low, v->n) : -1;
    char soname[64] = "";                       /* each missing library is a signal of its own */
    if (row->extract == CP_EXTRACT_SONAME) {
        cp_explain_signal *t = &sc->scratch;
        memset(t, 0, sizeof *t);
        cp_explain_extract(row->extract, v->orig, v->low, v->n, h->start, t);
        snprintf(soname, sizeof soname, "%s", t->soname);
    }
    int confirmed = !row->last_resort || says_failure(sc, v) ? 2 : line_before_failed(sc);
    if (!confirmed) sc->unconfirmed_line = sc->line;    /* the next line may still say it failed */
    int g = group_find(sc, h->row, key, soname);
    if (g >= 0) {
        if (sc->meta[g].last_line != sc->line) sc->out->signals[g].count++;
        sc->meta[g].last_line = sc->line;
        if (confirmed > sc->meta[g].confirmed) sc->meta[g].confirmed = confirmed;
        return;
    }
    if ((g = group_new(sc, h->row, key, soname)) < 0) { sc->oom = 1; return; }
    sc->meta[g].last_line = sc->line;
    sc->meta[g].confirmed = confirmed;
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
    s->named = row->last_resort;
    s->alternative = row->alternative;
    s->error_enum = row->cu_code ? "CUresult" : row->nvml_code ? "nvmlReturn_t" : row->rt_code ? "cudaError_t" : NULL;
    evidence(v, h, s->evidence, sizeof s->evidence);
    cp_explain_extract(row->extract, v->orig, v->low, v->n, h->start, s);
}

/* Does hit h's row read what follows its phrase, and does that hold?  A
 * "Key : Value" row needs its value; an architecture list, a GPU named
 * before it that the list leaves out. */
static int value_holds(const scanner *sc, const view *v, const hit *h)
{
    cp_value_cond cond = sc->ix->rows[h->row].value;
    if (cond == CP_VALUE_ARCHS_MISS) return cp_explain_archs_miss(v->low, v->n, h->end, sc->lowest_cc);
    if (cond == CP_VALUE_OOM_OTHERS) return cp_explain_oom_others(v->low, v->n);
    if (cond == CP_VALUE_XID_ALSO) return cp_explain_xid_also(v->low, v->n, sc->ix->rows[h->row].layer);
    if (cond == CP_VALUE_SMI_FIELD || cond == CP_VALUE_SMI_FIELD_BARE)
        return cp_explain_smi_field(v->low, v->n, h->end, cond == CP_VALUE_SMI_FIELD_BARE);
    return cp_explain_value_ok(cond, v->low, v->n, h->start, h->end);
}

static void scan_view(scanner *sc, const view *v)
{
    hit hits[MAX_HITS];
    int cc = cp_explain_line_cc(v->low, v->n);
    if (cc > 0 && (!sc->lowest_cc || cc < sc->lowest_cc)) sc->lowest_cc = cc;
    int nh = find_hits(sc, v, hits);
    int done[MAX_HITS], ndone = 0;            /* rows recorded from this window */
    for (int i = 0; i < nh && !sc->oom; i++) {
        int dup = 0;
        for (int j = 0; j < ndone; j++) dup |= done[j] == hits[i].row;
        if (dup || shadowed(sc->ix, hits, nh, i) || !line_allows(sc, v, hits[i].row) || !value_holds(sc, v, &hits[i]))
            continue;
        record(sc, v, &hits[i]);
        done[ndone++] = hits[i].row;
    }
}

/* Match across the cut between a (na bytes, its end) and b (nb bytes, its
 * start), joined with one blank and with none; hits count on line `line`.
 * Only positions near the cut are looked at (find_hits), so a long first
 * piece costs a copy, and gives the evidence its context. */
static void scan_join(scanner *sc, const char *alow, const char *aorig, size_t na,
                      const char *blow, const char *borig, size_t nb, long line)
{
    size_t keep = sc->ix->maxlen ? sc->ix->maxlen - 1 : 0;   /* a crossing phrase's part after the cut */
    if (na > OVERLAP - 1) { alow += na - (OVERLAP - 1); aorig += na - (OVERLAP - 1); na = OVERLAP - 1; }
    if (nb > keep) nb = keep;
    if (!na || !nb) return;
    long at = sc->line;
    sc->line = line;
    for (size_t sep = 0; sep <= 1 && !sc->oom; sep++) {
        memcpy(sc->jlow, alow, na);
        memcpy(sc->jorig, aorig, na);
        sc->jlow[na] = sc->jorig[na] = ' ';
        memcpy(sc->jlow + na + sep, blow, nb);
        memcpy(sc->jorig + na + sep, borig, nb);
        view v = { sc->jlow, sc->jorig, na + sep + nb, na, sep };
        scan_view(sc, &v);
    }
    sc->line = at;
}

static int is_blank(char c) { return c == ' '; }

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Digits at p[i..]: their count (0 for none); *i moves past them. */
static size_t digits(const char *p, size_t n, size_t *i)
{
    size_t a = *i;
    while (*i < n && is_digit(p[*i])) (*i)++;
    return *i - a;
}

/* A timestamp at p[i..] ("2024-11-08 08:46:50.861", "[11/08/2024-08:46:50]",
 * "14:10:16-737529", "11-18 18:07:28", "2024-11-08T08:46:50Z"): groups of
 * digits joined by one of - / : . , T and blank, with at least two ':'.
 * Returns its end, or i when there is none. */
static size_t timestamp(const char *p, size_t n, size_t i)
{
    size_t j = i, end = i;
    int colons = 0, bracket = j < n && p[j] == '[';
    j += (size_t)bracket;
    while (digits(p, n, &j)) {
        end = j;
        if (j < n && p[j] == 'z') end = ++j;
        if (j + 1 < n && (p[j] == '+') && is_digit(p[j + 1])) { j++; continue; }
        char c = j + 1 < n && is_digit(p[j + 1]) ? p[j] : 0;
        if (c != '-' && c != '/' && c != ':' && c != '.' && c != ',' && c != 't' && c != ' ') break;
        colons += p[j] == ':';
        j++;
    }
    if (colons < 2) return i;
    if (bracket) return end < n && p[end] == ']' ? end + 1 : i;
    return end;
}

/* Is w[0..n) a log level's name? */
static int level_word(const char *w, size_t n)
{
    switch (n) {
    case 1: return memchr("iwefdv", w[0], 6) != NULL;
    case 3: return memcmp(w, "err", 3) == 0;
    case 4: return memcmp(w, "info", 4) == 0 || memcmp(w, "warn", 4) == 0;
    case 5: return memcmp(w, "error", 5) == 0 || memcmp(w, "debug", 5) == 0 || memcmp(w, "fatal", 5) == 0 ||
                   memcmp(w, "trace", 5) == 0;
    case 6: return memcmp(w, "notice", 6) == 0;
    case 7: return memcmp(w, "warning", 7) == 0 || memcmp(w, "verbose", 7) == 0;
    case 8: return memcmp(w, "critical", 8) == 0;
    default: return 0;
    }
}

/* A log level word at p[i..] ("info", "warning", "E", "stdout/INFO"),
 * bracketed or ending at a blank or ':'.  Returns its end or i. */
static size_t level(const char *p, size_t n, size_t i, int bracketed)
{
    size_t j = i;
    if (bracketed && (j >= n || p[j++] != '[')) return i;
    size_t a = j;
    while (j < n && j - a < 24 && ((p[j] >= 'a' && p[j] <= 'z') || p[j] == '/')) j++;
    size_t w = j;                              /* the word after the last '/' */
    while (w > a && p[w - 1] != '/') w--;
    if (!level_word(p + w, j - w)) return i;
    if (bracketed) return j < n && p[j] == ']' ? j + 1 : i;
    if (j < n && p[j] == ':') j++;
    return j == n || is_blank(p[j]) ? j : i;
}

/* "name:123]" or "name:123:" (a logger's source line), or a bracketed tag
 * of up to 16 letters ("[TRT]"), at p[i..].  Returns its end or i. */
static size_t source_tag(const char *p, size_t n, size_t i)
{
    size_t j = i;
    if (j < n && p[j] == '[') {
        while (++j < n && j - i <= 17 && ((p[j] >= 'a' && p[j] <= 'z') || is_digit(p[j]) || p[j] == '_')) {}
        return j < n && p[j] == ']' && j > i + 1 ? j + 1 : i;
    }
    while (j < n && (is_word((unsigned char)p[j]) || p[j] == '.' || p[j] == '-')) j++;
    if (j == i || j >= n || p[j] != ':') return i;
    j++;
    if (!digits(p, n, &j) || j >= n || (p[j] != ']' && p[j] != ':')) return i;
    return j + 1;
}

/* A rank or service prefix at p[i..]: "[rank3]:", "[default0]:",
 * "rank 3:", "[1,0]<stderr>:", "service-1  | ".  Returns its end or i. */
static size_t channel(const char *p, size_t n, size_t i)
{
    static const char *const open[] = { "[rank", "[default", "rank ", "rank" };
    for (size_t k = 0; k < sizeof open / sizeof open[0]; k++) {
        size_t l = strlen(open[k]), j = i + l;
        if (n - i < l || memcmp(p + i, open[k], l) != 0 || !digits(p, n, &j)) continue;
        if (open[k][0] == '[' && (j >= n || p[j++] != ']')) continue;
        if (j < n && p[j] == ':') return j + 1;
    }
    size_t j = i;
    if (j < n && p[j] == '[' && (++j, digits(p, n, &j)) && j < n && p[j] == ',' && (++j, digits(p, n, &j)) &&
        j < n && p[j] == ']') {
        j++;
        if (j < n && p[j] == '<') {
            while (j < n && p[j] != '>') j++;
            j++;
        }
        if (j < n && p[j] == ':') return j + 1;
    }
    j = i;                                      /* docker compose: "name  | " */
    while (j < n && (is_word((unsigned char)p[j]) || p[j] == '.' || p[j] == '-')) j++;
    if (j - i < 2 || j >= n || !is_blank(p[j])) return i;
    while (j < n && is_blank(p[j])) j++;
    if (j < n && p[j] == '|' && (j + 1 == n || is_blank(p[j + 1]))) return j + 1;
    return i;
}

/* A shell prompt inside a container at p[i..]: "root@3f2a1b4c5d6e:" (docker
 * names a container's host by the first 12 hex digits of its id). */
static int container_prompt(const char *p, size_t n, size_t i)
{
    size_t j = i;
    while (j < n && j - i < 32 && (is_word((unsigned char)p[j]) || p[j] == '-')) j++;
    if (j == i || j >= n || p[j] != '@') return 0;
    size_t h = ++j;
    while (j < n && ((p[j] >= '0' && p[j] <= '9') || (p[j] >= 'a' && p[j] <= 'f'))) j++;
    return j - h == 12 && j < n && p[j] == ':';
}

/* Is the channel p[c0, c1) docker compose's "name  | "? */
static int compose_channel(const char *p, size_t c0, size_t c1)
{
    return c1 > c0 && p[c1 - 1] == '|';
}

/* The prefixes at the start of the window's line, and the blanks around
 * them: sets sc->skip, sc->chan and sc->newrec. */
static void read_prefix(scanner *sc)
{
    const char *p = sc->low;
    size_t n = sc->n < PREFIX_MAX ? sc->n : PREFIX_MAX, i = 0, c0 = 0, c1 = 0;
    sc->newrec = 0;
    for (int round = 0; round < 8; round++) {
        while (i < n && is_blank(p[i])) i++;
        size_t j = channel(p, n, i);
        if (j > i && !c1) { c0 = i; c1 = j; i = j; continue; }
        j = timestamp(p, n, i);
        if (j == i && i + 5 < n && strchr("iwef", p[i]) && is_digit(p[i + 1]) && is_digit(p[i + 4]) &&
            is_blank(p[i + 5])) {              /* glog: "W0129 18:26:32.738970 16225 file.cc:362]" */
            size_t k = timestamp(p, n, i + 6);
            if (k > i + 6) {
                while (k < n && is_blank(p[k])) k++;
                digits(p, n, &k);
                j = k;
            }
        }
        if (j == i && p[i] == '[') j = level(p, n, i, 1);
        else if (j == i) {                      /* a level after a time, or "ERROR 11-18 18:07:28" */
            size_t k = level(p, n, i, 0), t = k;
            while (t < n && is_blank(p[t])) t++;
            if (k > i && (sc->newrec || timestamp(p, n, t) > t)) j = k;
        }
        if (j == i && sc->newrec) j = source_tag(p, n, i);
        if (j == i) break;
        sc->newrec = 1;
        i = j;
    }
    while (i < n && is_blank(p[i])) i++;
    sc->skip = i;
    if (compose_channel(p, c0, c1) || container_prompt(p, n, i)) sc->contexts |= CP_CONTEXT_CONTAINER;
    size_t cl = c1 - c0 < sizeof sc->chan ? c1 - c0 : sizeof sc->chan - 1;
    memcpy(sc->chan, p + c0, cl);
    sc->chan[cl] = '\0';
}

/* Padding inside the window (GAP blanks or more between two words): a
 * terminal's wrap, pasted; match across each.  Every such run holds a
 * byte at a step of GAP, so only those are looked at first. */
static void scan_gaps(scanner *sc, size_t from)
{
    int ngap = 0;
    size_t done = from;                         /* runs before this are handled */
    for (size_t k = from + GAP; k < sc->n && ngap < MAX_GAPS && !sc->oom; k += GAP) {
        if (!is_blank(sc->low[k]) || k < done) continue;
        size_t i = k, e = k;
        while (i > from && is_blank(sc->low[i - 1])) i--;
        while (e < sc->n && is_blank(sc->low[e])) e++;
        done = e;
        if (e - i >= GAP && i > from && e < sc->n) {
            scan_join(sc, sc->low + from, sc->orig + from, i - from, sc->low + e, sc->orig + e, sc->n - e, sc->line);
            ngap++;
        }
    }
}

/* The line after `line` says something failed: the named components last
 * seen on `line` are confirmed. */
static void confirm_named(scanner *sc, long line)
{
    for (int g = 0; g < sc->out->nsignals; g++)
        if (sc->ix->rows[sc->meta[g].row].last_resort && sc->meta[g].last_line == line && !sc->meta[g].confirmed)
            sc->meta[g].confirmed = 1;
    sc->unconfirmed_line = 0;
}

/* Scan what the window holds: on a line's first window read its prefix
 * and first match across the cut from the line before. */
static void scan_window(scanner *sc)
{
    if (sc->first) {
        read_prefix(sc);
        sc->first = 0;
        if (sc->ntail && !sc->newrec && sc->skip < sc->n && strcmp(sc->chan, sc->tail_chan) == 0)
            scan_join(sc, sc->tail_low, sc->tail_orig, sc->ntail, sc->low + sc->skip, sc->orig + sc->skip,
                      sc->n - sc->skip, sc->tail_line);
    }
    view v = { sc->low + sc->skip, sc->orig + sc->skip, sc->n - sc->skip, 0, 0 };
    if (sc->unconfirmed_line && sc->unconfirmed_line == sc->line - 1 && says_failure(sc, &v))
        confirm_named(sc, sc->unconfirmed_line);
    scan_view(sc, &v);
    scan_gaps(sc, sc->skip);
}

/* Keep the end of the line that ends for the next one to continue:
 * trailing blanks and a logger's "  file.py:282" column dropped. */
static void keep_tail(scanner *sc)
{
    size_t a = sc->skip, b = sc->n;
    while (b > a && is_blank(sc->low[b - 1])) b--;
    size_t c = b;                               /* rich's log column: "  cextension.py:282" */
    while (c > a && is_digit(sc->low[c - 1])) c--;
    if (c < b && c > a + 1 && sc->low[c - 1] == ':') {
        size_t d = c - 1;
        while (d > a && !is_blank(sc->low[d - 1])) d--;
        if (d >= a + 2 && is_blank(sc->low[d - 1]) && is_blank(sc->low[d - 2]) && memmem(sc->low + d, c - d, ".py:", 4))
            for (b = d; b > a && is_blank(sc->low[b - 1]);) b--;
    }
    if (b - a > OVERLAP - 1) a = b - (OVERLAP - 1);
    sc->ntail = b - a;
    memcpy(sc->tail_low, sc->low + a, sc->ntail);
    memcpy(sc->tail_orig, sc->orig + a, sc->ntail);
    sc->tail_line = sc->line;
    memcpy(sc->tail_chan, sc->chan, sizeof sc->chan);
}

/* End of a line (eol) or of a segment (a CR or NUL inside one, which no
 * phrase crosses): scan what the window holds and empty it. */
static void flush(scanner *sc, int eol)
{
    if (sc->n) scan_window(sc);
    if (eol && sc->n > sc->skip) keep_tail(sc);
    else sc->ntail = 0;
    sc->n = sc->skip = 0;
    sc->first = 1;
}

static void put(scanner *sc, char c)
{
    if (sc->n == WINDOW) {
        scan_window(sc);
        memmove(sc->low, sc->low + WINDOW - OVERLAP, OVERLAP);
        memmove(sc->orig, sc->orig + WINDOW - OVERLAP, OVERLAP);
        sc->n = OVERLAP;
        sc->skip = 0;
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

/* A character that is a blank to the scanner at t[i] (c == t[i] >= 0x80):
 * box drawing U+2500-U+257F (rich's borders), rich's marker U+2771, the
 * no-break space.  Returns its length, 0 for none. */
static size_t blank_char(const char *t, size_t len, size_t i)
{
    const unsigned char *u = (const unsigned char *)t + i;
    if (u[0] == 0xc2 && i + 1 < len && u[1] == 0xa0) return 2;
    if (u[0] != 0xe2 || i + 2 >= len || u[2] < 0x80 || u[2] > 0xbf) return 0;
    if (u[1] == 0x94 || u[1] == 0x95 || (u[1] == 0x9d && u[2] == 0xb1)) return 3;
    return 0;
}

static void scan_text(scanner *sc, const char *t, size_t len)
{
    sc->line = 1;
    sc->first = 1;
    for (size_t i = 0; i < len && !sc->oom; i++) {
        unsigned char c = (unsigned char)t[i];
        size_t b;
        if (c == '\n') { flush(sc, 1); sc->line++; }
        else if (c == '\033') i = skip_escape(t, len, i);
        else if (c == '\t') put(sc, ' ');
        else if (c == '\r' && i + 1 < len && t[i + 1] == '\n') {}   /* CRLF: one line end */
        else if (c < 0x20 || c == 0x7f) flush(sc, 0);   /* CR, NUL and binary: separators */
        else if (c >= 0x80 && (b = blank_char(t, len, i))) { put(sc, ' '); i += b - 1; }
        else put(sc, (char)c);
    }
    flush(sc, 1);
}

/* Where a signal ranks: the faults, then the notices, then the alternative
 * readings. */
static int rank_of(const cp_explain_signal *s)
{
    return s->alternative ? 2 : s->notice ? 1 : 0;
}

/* A notice must not outrank the fault it reports: move the notices (XID
 * 154, a remap recorded, the module's load line) after the other signals,
 * and the alternative readings after them, each part keeping its order of
 * first lines.  Returns -1 when out of memory. */
static int notices_last(cp_explain_result *out)
{
    int moved = 0;
    for (int i = 0; i < out->nsignals; i++) moved += rank_of(&out->signals[i]) != 0;
    if (moved == 0) return 0;
    cp_explain_signal *t = cp_malloc((size_t)out->nsignals * sizeof *t);
    if (!t) return -1;
    int k = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < out->nsignals; i++)
            if (rank_of(&out->signals[i]) == pass) t[k++] = out->signals[i];
    memcpy(out->signals, t, (size_t)out->nsignals * sizeof *t);
    free(t);
    return 0;
}

/* Is signal i dropped for signal j, first found on the same line: a
 * replacing row drops the higher layers' signals there, and a fallback row
 * yields to any other row there (a replacing one: to its layer or a lower);
 * an alternative reading neither yields nor makes yield: it only stands
 * beside another (alternative_filter). */
static int yields(const scanner *sc, int i, int j)
{
    const cp_explain_signal *a = &sc->out->signals[i], *b = &sc->out->signals[j];
    const cp_signal *ra = &sc->ix->rows[sc->meta[i].row], *rb = &sc->ix->rows[sc->meta[j].row];
    if (i == j || a->first_line != b->first_line || ra == rb || ra->alternative || rb->alternative) return 0;
    if (rb->replaces_line && !ra->replaces_line && a->layer > b->layer) return 1;
    if (!ra->fallback || rb->fallback) return 0;
    return !ra->replaces_line || b->layer <= a->layer;
}

/* An alternative reading stands only beside the signal of another row, of
 * another layer, first found on its line, that says something is wrong
 * and is a known message (not an alternative, not informational, not a
 * named component): drop the others, in place, the order kept. */
static void alternative_filter(scanner *sc)
{
    cp_explain_result *out = sc->out;
    const cp_signal *rows = sc->ix->rows;
    int k = 0;
    for (int i = 0; i < out->nsignals; i++) {
        int beside = !out->signals[i].alternative;
        for (int j = 0; j < out->nsignals && !beside; j++)
            beside = !out->signals[j].alternative && !rows[sc->meta[j].row].informational && !out->signals[j].named &&
                     out->signals[j].first_line == out->signals[i].first_line &&
                     out->signals[j].layer != out->signals[i].layer;
        if (!beside) continue;
        out->signals[k] = out->signals[i];
        sc->meta[k++] = sc->meta[i];
    }
    out->nsignals = k;
}

/* Components named on failing lines (last_resort rows) count only where
 * nothing else was found (an alternative reading is nothing else: it only
 * stands beside another row's signal), and then only those confirmed most
 * closely (a line of their own that says it failed before a line next to
 * it): drop the rest, in place.  The failing lines may name components of
 * several layers (torchvision's "CUDA major versions" names the framework
 * and the toolkit); each is a reading, the lowest layer's first, since the
 * lowest broken layer is the one to fix first (a stable sort: the text's
 * order within a layer). */
static void last_resort_filter(scanner *sc)
{
    cp_explain_result *out = sc->out;
    const cp_signal *rows = sc->ix->rows;
    int other = 0, best = 0, k = 0;
    for (int i = 0; i < out->nsignals; i++)
        if (!rows[sc->meta[i].row].last_resort) other |= !rows[sc->meta[i].row].alternative;
        else if (sc->meta[i].confirmed > best) best = sc->meta[i].confirmed;
    for (int i = 0; i < out->nsignals; i++) {
        int named = rows[sc->meta[i].row].last_resort;
        if (named && (other || !best || sc->meta[i].confirmed != best)) continue;
        out->signals[k] = out->signals[i];
        sc->meta[k++] = sc->meta[i];
    }
    out->nsignals = k;
    if (other) return;
    for (int i = 1; i < k; i++)                 /* what is left is named: the lowest layer first */
        for (int j = i; j > 0 && out->signals[j].layer < out->signals[j - 1].layer; j--) {
            cp_explain_signal ts = out->signals[j];
            group_meta tm = sc->meta[j];
            out->signals[j] = out->signals[j - 1];
            sc->meta[j] = sc->meta[j - 1];
            out->signals[j - 1] = ts;
            sc->meta[j - 1] = tm;
        }
}

/* The text is read: drop the signals whose row needs a context the text
 * never showed (or one it showed: .context_absent), the informational ones
 * where nothing else is left, the named components where anything else is
 * (last_resort_filter), then the ones another signal of their line speaks
 * for (yields).  In place, the order kept. */
static void context_filter(scanner *sc)
{
    cp_explain_result *out = sc->out;
    const cp_signal *rows = sc->ix->rows;
    int k = 0, any = 0, fault = 0;
    for (int i = 0; i < out->nsignals; i++) {
        const cp_signal *row = &rows[sc->meta[i].row];
        if ((row->context & sc->contexts) != row->context || (row->context_absent & sc->contexts)) continue;
        any |= row->replaces_line | row->fallback;
        out->signals[k] = out->signals[i];
        sc->meta[k++] = sc->meta[i];
    }
    out->nsignals = k;
    last_resort_filter(sc);
    for (int i = 0; i < out->nsignals; i++) {
        const cp_signal *row = &rows[sc->meta[i].row];
        fault |= !row->informational && !row->alternative;
    }
    if (!fault) out->nsignals = 0;              /* informational lines alone: nothing is wrong */
    if (!any) return;
    /* mark first, then drop: whether a signal yields must not hang on the order of the drops */
    char *drop = cp_calloc((size_t)out->nsignals + 1, 1);
    if (!drop) { sc->oom = 1; return; }
    for (int i = 0; i < out->nsignals; i++)
        for (int j = 0; j < out->nsignals && !drop[i]; j++) drop[i] = (char)yields(sc, i, j);
    k = 0;
    for (int i = 0; i < out->nsignals; i++) {
        if (drop[i]) continue;
        out->signals[k] = out->signals[i];
        sc->meta[k++] = sc->meta[i];
    }
    out->nsignals = k;
    free(drop);
}

/* The filters in their order; see context_filter. */
static void settle(scanner *sc)
{
    context_filter(sc);
    if (!sc->oom) alternative_filter(sc);
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
        if (!sc->oom) settle(sc);
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
