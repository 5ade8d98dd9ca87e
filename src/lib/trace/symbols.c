/*
 * Where in the program: the names of the return addresses a trace's STACK
 * records hold, found after the process is gone.  An address inside a perf
 * map entry (CPython 3.12+ with PYTHONPERFSUPPORT=1 writes
 * /tmp/perf-<pid>.map, one "START SIZE py::func:/path/file.py" line per
 * trampoline; `cuprobe trace` keeps it as <pid>.perf.map) is that Python
 * function; an address inside a MODULE record's range is the nearest
 * function symbol at or below it in that file's ELF .symtab (else
 * .dynsym), read now from the path the process had loaded.  A return
 * address is looked up one byte back (it points after its call).  Every
 * number read from a file is checked against the file's size; only 64-bit
 * little-endian ELF is read (x86-64, aarch64).  Names are not demangled.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cuprobe/trace.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/str.h"

#define MAX_SYMS (1u << 24)
#define MAX_SECTION (1ull << 31)
#define SHOWN_FRAMES 12

/* ------------------------------------------------------------ perf map -- */

static int by_perf_start(const void *a, const void *b)
{
    const cp_trace_perfsym *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int hex_field(const char **p, const char *end, uint64_t *v)
{
    const char *s = *p;
    uint64_t x = 0;
    int digits = 0;
    while (s < end && *s == ' ') s++;
    for (; s < end && digits <= 16; s++, digits++) {
        int c = (unsigned char)*s, d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                     : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) break;
        x = x << 4 | (uint64_t)d;
    }
    if (!digits || digits > 16 || s == end || *s != ' ') return -1;
    *p = s + 1;
    *v = x;
    return 0;
}

/* See trace.h. */
int cp_trace_perfmap_parse(cp_trace *t, const char *text, size_t n)
{
    for (size_t i = 0; i < t->nperf; i++) free(t->perf[i].name);
    free(t->perf);
    t->perf = NULL;
    t->nperf = 0;
    size_t cap = 0, pos = 0;
    cp_span l;
    while (cp_line_next(text, n, &pos, &l)) {
        const char *p = l.p, *end = l.p + l.n;
        uint64_t start, size;
        if (hex_field(&p, end, &start) < 0 || hex_field(&p, end, &size) < 0 || p == end || !size ||
            start > UINT64_MAX - size || (size_t)(end - p) > CP_TRACE_MAX_STRING || memchr(p, '\0', (size_t)(end - p)))
            continue;
        if (t->nperf == cap) {
            size_t c = cap ? cap * 2 : 256;
            cp_trace_perfsym *q = cp_realloc(t->perf, c * sizeof *q);
            if (!q) return -1;
            t->perf = q;
            cap = c;
        }
        char *name = cp_malloc((size_t)(end - p) + 1);
        if (!name) return -1;
        memcpy(name, p, (size_t)(end - p));
        name[end - p] = '\0';
        t->perf[t->nperf++] = (cp_trace_perfsym){ start, size, name };
    }
    if (t->nperf) qsort(t->perf, t->nperf, sizeof *t->perf, by_perf_start);
    return (int)t->nperf;
}

static const cp_trace_perfsym *perf_at(const cp_trace *t, uint64_t a)
{
    size_t lo = 0, hi = t->nperf;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->perf[mid].start <= a) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    const cp_trace_perfsym *p = &t->perf[lo - 1];
    return a - p->start < p->size ? p : NULL;
}

/* ----------------------------------------------------------------- ELF -- */

/* An ELF image, in memory or in a file. */
typedef struct {
    const unsigned char *mem;
    FILE *f;
    uint64_t size;
} image;

static int image_read(const image *im, uint64_t off, void *dst, uint64_t len)
{
    if (off > im->size || len > im->size - off) return -1;
    if (im->mem) {
        memcpy(dst, im->mem + off, (size_t)len);
        return 0;
    }
    if (fseeko(im->f, (off_t)off, SEEK_SET) != 0) return -1;
    return fread(dst, 1, (size_t)len, im->f) == (size_t)len ? 0 : -1;
}

static uint64_t le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

typedef struct {
    uint64_t value, size;
    uint32_t name;
} sym;

typedef struct {
    sym *v;
    size_t n;
    char *names;             /* the string table, NUL-ended */
    int loaded;              /* 1 read, -1 none to be had */
} symtab;

static int by_value(const void *a, const void *b)
{
    const sym *x = a, *y = b;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* A section header's type, offset, size and link. */
typedef struct {
    uint32_t type, link;
    uint64_t off, size;
} shdr;

/* The section header table of an image: 0, or -1 (not a 64-bit little-endian ELF file). */
static int sections(const image *im, uint64_t *shoff, uint64_t *shentsize, uint64_t *shnum)
{
    unsigned char eh[64];
    if (image_read(im, 0, eh, sizeof eh) < 0 || memcmp(eh, "\177ELF", 4) != 0 || eh[4] != 2 || eh[5] != 1) return -1;
    *shoff = le(eh + 0x28, 8);
    *shentsize = le(eh + 0x3a, 2);
    *shnum = le(eh + 0x3c, 2);
    if (*shentsize < 64 || !*shnum || *shoff > im->size || *shnum * *shentsize > im->size - *shoff) return -1;
    return 0;
}

/* The image's GNU build id into id: its length, 0 none, -1 not ELF. */
static int build_id(const image *im, unsigned char *id)
{
    uint64_t shoff, shentsize, shnum;
    if (sections(im, &shoff, &shentsize, &shnum) < 0) return -1;
    for (uint64_t i = 0; i < shnum; i++) {
        unsigned char sh[64], notes[1024];
        if (image_read(im, shoff + i * shentsize, sh, sizeof sh) < 0) return -1;
        uint64_t size = le(sh + 0x20, 8);
        if (le(sh + 4, 4) != 7 || size > sizeof notes || image_read(im, le(sh + 0x18, 8), notes, size) < 0) continue;
        size_t n = cp_trace_note_build_id(notes, (size_t)size, id);
        if (n) return (int)n;
    }
    return 0;
}

/* See trace.h. */
int cp_trace_elf_build_id(const unsigned char *data, size_t n, unsigned char *id)
{
    image im = { data, NULL, n };
    return build_id(&im, id);
}

/* Read the function symbols of an image: 0, -1 (none or not ELF), -2 (out of memory). */
static int load_syms(const image *im, symtab *st)
{
    memset(st, 0, sizeof *st);
    uint64_t shoff, shentsize, shnum;
    if (sections(im, &shoff, &shentsize, &shnum) < 0) return -1;
    shdr best = { 0 }, strs = { 0 };
    for (int want = 2; want <= 11 && !best.type; want += 9) {    /* SHT_SYMTAB, else SHT_DYNSYM */
        for (uint64_t i = 0; i < shnum; i++) {
            unsigned char sh[64];
            if (image_read(im, shoff + i * shentsize, sh, sizeof sh) < 0) return -1;
            if (le(sh + 4, 4) != (uint64_t)want) continue;
            best = (shdr){ (uint32_t)want, (uint32_t)le(sh + 0x28, 4), le(sh + 0x18, 8), le(sh + 0x20, 8) };
            break;
        }
    }
    if (!best.type || best.link >= shnum) return -1;
    unsigned char sh[64];
    if (image_read(im, shoff + best.link * shentsize, sh, sizeof sh) < 0) return -1;
    strs = (shdr){ (uint32_t)le(sh + 4, 4), 0, le(sh + 0x18, 8), le(sh + 0x20, 8) };
    if (strs.type != 3 || !strs.size || strs.size > MAX_SECTION || best.size > MAX_SECTION || best.size / 24 > MAX_SYMS)
        return -1;
    unsigned char *raw = cp_malloc((size_t)best.size + 1);
    st->names = cp_malloc((size_t)strs.size + 1);
    size_t count = (size_t)(best.size / 24);
    st->v = cp_calloc(count ? count : 1, sizeof *st->v);
    if (!raw || !st->names || !st->v) {
        free(raw);
        free(st->names);
        free(st->v);
        memset(st, 0, sizeof *st);
        return -2;
    }
    int rc = -1;
    if (image_read(im, best.off, raw, best.size) == 0 && image_read(im, strs.off, st->names, strs.size) == 0) {
        st->names[strs.size] = '\0';
        for (size_t i = 0; i < count; i++) {
            const unsigned char *s = raw + 24 * i;
            unsigned type = s[4] & 0xf;
            uint64_t value = le(s + 8, 8), name = le(s, 4);
            if ((type != 2 && type != 10) || le(s + 6, 2) == 0 || !value || name >= strs.size) continue;
            st->v[st->n++] = (sym){ value, le(s + 16, 8), (uint32_t)name };
        }
        if (st->n) {
            qsort(st->v, st->n, sizeof *st->v, by_value);
            rc = 0;
        }
    }
    free(raw);
    if (rc < 0) {
        free(st->names);
        free(st->v);
        memset(st, 0, sizeof *st);
    }
    return rc;
}

static const sym *sym_at(const symtab *st, uint64_t va)
{
    size_t lo = 0, hi = st->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->v[mid].value <= va) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    const sym *s = &st->v[lo - 1];
    return !s->size || va - s->value < s->size ? s : NULL;
}

static void symtab_free(symtab *st)
{
    free(st->v);
    free(st->names);
    memset(st, 0, sizeof *st);
}

/* See trace.h. */
int cp_trace_elf_symbol(const unsigned char *data, size_t n, uint64_t va, char *out, size_t outn, uint64_t *off)
{
    image im = { data, NULL, n };
    symtab st;
    if (load_syms(&im, &st) < 0) return -1;
    const sym *s = sym_at(&st, va);
    if (s) {
        cp_str_copy(out, outn, st.names + s->name);
        *off = va - s->value;
    }
    symtab_free(&st);
    return s ? 0 : -1;
}

/* ---------------------------------------------------------- symbolise -- */

/* The libraries a program calls CUDA through, and the runtimes under it:
 * never "the program's" frame. */
static int runtime_module(const char *base)
{
    static const char *const skip[] = { "libcuda.", "libcudart", "libcupti", "libcublas", "libcudnn", "libcufft",
                                        "libcurand", "libcusparse", "libcusolver", "libcuprobe", "libnccl",
                                        "libnvrtc", "libnvJit", "libtorch", "libc10", "libc.so", "libc-",
                                        "libm.so", "libpthread", "libstdc++", "libgcc_s", "ld-linux", "libpython",
                                        "python", "libjax", "libxla", "_pywrap", "libffi", "_ctypes" };
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (cp_str_starts_with(base, skip[i])) return 1;
    return 0;
}

/* The CUDA runtime linked into the program itself (nvcc links libcudart
 * statically by default): its API entry points (cudaMemcpy ...) and its
 * internals (cudart::..., __cudart...) are CUDA's frames, not the program's. */
static int runtime_symbol(const char *name)
{
    if (strncmp(name, "cuda", 4) == 0 && name[4] >= 'A' && name[4] <= 'Z') return 1;
    return strncmp(name, "__cuda", 6) == 0 || strncmp(name, "cudart", 6) == 0 || strncmp(name, "_ZN6cudart", 10) == 0;
}

/* A C++ function name as written, for the common Itanium forms: _Z3fooPf
 * -> foo, _ZN2ns3fooEv -> ns::foo (const/volatile marks after N skipped).
 * Anything else (templates, operators, substitutions) stays as it is. */
static void demangle(const char *m, char *out, size_t n)
{
    snprintf(out, n, "%s", m);
    if (strncmp(m, "_Z", 2) != 0) return;
    const char *p = m + 2;
    int nested = *p == 'N';
    if (nested) {
        p++;
        while (*p == 'K' || *p == 'V' || *p == 'r') p++;
    }
    char buf[512];
    size_t k = 0;
    for (int part = 0;; part++) {
        if (*p < '1' || *p > '9') break;
        unsigned long len = strtoul(p, (char **)&p, 10);
        if (len == 0 || len > strlen(p) || k + len + 3 >= sizeof buf) return;
        if (part) { buf[k++] = ':'; buf[k++] = ':'; }
        memcpy(buf + k, p, len);
        k += len;
        p += len;
        if (!nested) break;
    }
    if (!k || (nested && *p != 'E')) return;
    buf[k] = '\0';
    snprintf(out, n, "%s", buf);
}

typedef struct {
    uint64_t start;
    size_t i;                /* index in t->mods */
} mod_key;

typedef struct {
    cp_trace *t;
    mod_key *order;          /* the modules sorted by start */
    symtab *tabs;            /* by module index, read on first use */
} ctx;

static int by_mod_start(const void *a, const void *b)
{
    const mod_key *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;             /* the later record last */
}

static const cp_trace_module *mod_at(ctx *c, uint64_t a, size_t *index)
{
    size_t lo = 0, hi = c->t->nmods;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->order[mid].start <= a) lo = mid + 1;
        else hi = mid;
    }
    for (size_t k = lo, tries = 0; k > 0 && tries < 8; k--, tries++) {    /* the last one that holds a */
        const cp_trace_module *m = &c->t->mods[c->order[k - 1].i];
        if (a < m->end) {
            *index = c->order[k - 1].i;
            return m;
        }
    }
    return NULL;
}

static symtab *tab_of(ctx *c, size_t i)
{
    symtab *st = &c->tabs[i];
    if (st->loaded) return st->loaded > 0 ? st : NULL;
    st->loaded = -1;
    /* a regular file only: a path in a trace may name a FIFO or a device, which would hang a read */
    int fd = open(c->t->mods[i].path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    if (fd < 0) return NULL;
    FILE *f = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? fdopen(fd, "rb") : NULL;
    if (!f) {
        close(fd);
        return NULL;
    }
    image im = { NULL, f, 0 };
    const cp_trace_module *m = &c->t->mods[i];
    unsigned char id[CP_TRACE_MAX_BUILD_ID];
    if (fseeko(f, 0, SEEK_END) == 0) {
        off_t end = ftello(f);
        im.size = end > 0 ? (uint64_t)end : 0;
        int idlen = m->build_id_len ? build_id(&im, id) : 0;
        /* another build at the same path (a machine other than the traced one): its names would be wrong */
        int other = idlen > 0 && ((size_t)idlen != m->build_id_len || memcmp(id, m->build_id, (size_t)idlen) != 0);
        symtab got;
        if (!other && load_syms(&im, &got) == 0) {
            *st = got;
            st->loaded = 1;
        }
    }
    fclose(f);
    return st->loaded > 0 ? st : NULL;
}

/* One frame: its text into b; returns 1 when it is a Python frame, 2 a frame
 * of the program (where set), 0 another. */
static int frame(ctx *c, uint64_t a, cp_buf *b, cp_buf *where)
{
    const cp_trace_perfsym *p = perf_at(c->t, a);
    if (p) {
        cp_buf_append(b, p->name, strlen(p->name));
        if (strncmp(p->name, "py::", 4) == 0) {
            const char *fn = p->name + 4, *colon = strchr(fn, ':');
            if (colon) {
                const char *file = cp_path_base(colon + 1);
                cp_buf_printf(where, "%s:%.*s", file, (int)(colon - fn), fn);
            } else cp_buf_append(where, fn, strlen(fn));
            return 1;
        }
        cp_buf_append(where, p->name, strlen(p->name));
        return 2;
    }
    size_t mi = 0;
    const cp_trace_module *m = mod_at(c, a, &mi);
    if (!m) {
        cp_buf_printf(b, "0x%llx", (unsigned long long)a);
        return 0;
    }
    const char *base = cp_path_base(m->path);
    uint64_t va = a - m->bias;
    symtab *st = tab_of(c, mi);
    const sym *s = st ? sym_at(st, va) : NULL;
    if (s) cp_buf_printf(b, "%s+0x%llx (%s)", st->names + s->name, (unsigned long long)(va - s->value), base);
    else cp_buf_printf(b, "%s+0x%llx", base, (unsigned long long)va);
    if (runtime_module(base) || !*base || (s && runtime_symbol(st->names + s->name))) return 0;
    if (s) {
        char name[512];
        demangle(st->names + s->name, name, sizeof name);
        cp_buf_printf(where, "%s:%s", base, name);
    }
    else cp_buf_printf(where, "%s+0x%llx", base, (unsigned long long)va);
    return 2;
}

/* The interpreter's frames ("function\tfile\tline\n" each, innermost
 * first): the first as the place into py, all as "function (file:line)"
 * into frames. */
static void python_frames(const char *text, cp_buf *frames, cp_buf *py)
{
    size_t pos = 0, k = 0;
    cp_span l;
    while (cp_line_next(text, strlen(text), &pos, &l)) {
        const char *t1 = memchr(l.p, '\t', l.n);
        const char *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(l.p + l.n - t1 - 1)) : NULL;
        if (!t2) continue;
        int fn = (int)(t1 - l.p), fl = (int)(t2 - t1 - 1), ln = (int)(l.p + l.n - t2 - 1);
        if (!py->len) {
            const char *file = t1 + 1, *slash = NULL;
            for (const char *q = file; q < t2; q++)
                if (*q == '/') slash = q;
            if (slash) file = slash + 1;
            cp_buf_printf(py, "%.*s:%.*s", (int)(t2 - file), file, fn, l.p);
        }
        cp_buf_printf(frames, "%s%.*s (%.*s:%.*s)", k++ ? " < " : "", fn, l.p, fl, t1 + 1, ln, t2 + 1);
    }
}

static int symbolise_stack(ctx *c, cp_trace_stack *s)
{
    cp_buf frames = { 0 }, py = { 0 }, native = { 0 };
    if (s->python) python_frames(s->python, &frames, &py);
    if (frames.len && s->depth) cp_buf_append(&frames, " | ", 3);   /* then the native frames */
    size_t native_at = frames.len;
    for (size_t i = 0; i < s->depth; i++) {
        uint64_t a = c->t->pcs[s->first + i];
        if (a > 0) a--;                                 /* a return address: the call is before it */
        cp_buf text = { 0 }, w = { 0 };
        int k = frame(c, a, &text, &w);
        if (k == 1 && !py.len) cp_buf_append(&py, w.data, w.len);
        if (k == 2 && !native.len) cp_buf_append(&native, w.data, w.len);
        if (i < SHOWN_FRAMES) {
            if (frames.len > native_at) cp_buf_append(&frames, " < ", 3);
            cp_buf_append(&frames, text.data ? text.data : "", text.len);
        } else if (i == SHOWN_FRAMES) cp_buf_append(&frames, " < ...", 6);
        cp_buf_free(&text);
        cp_buf_free(&w);
    }
    cp_buf *w = py.len ? &py : native.len ? &native : NULL;
    int bad = frames.failed || py.failed || native.failed;
    free(s->where);
    free(s->frames);
    s->where = !bad && w ? cp_strdup(w->data) : NULL;
    s->frames = !bad && frames.len ? cp_strdup(frames.data) : NULL;
    bad |= (w && !s->where) || (frames.len && !s->frames);
    cp_buf_free(&frames);
    cp_buf_free(&py);
    cp_buf_free(&native);
    return bad ? -1 : 0;
}

/* See trace.h. */
int cp_trace_symbolise(cp_trace *t)
{
    if (!t->nstacks) return 0;
    ctx c = { t, NULL, NULL };
    int rc = -1;
    if (t->nmods) {
        c.order = cp_malloc(t->nmods * sizeof *c.order);
        c.tabs = cp_calloc(t->nmods, sizeof *c.tabs);
        if (!c.order || !c.tabs) goto out;
        for (size_t i = 0; i < t->nmods; i++) c.order[i] = (mod_key){ t->mods[i].start, i };
        qsort(c.order, t->nmods, sizeof *c.order, by_mod_start);
    }
    for (size_t i = 0; i < t->nstacks; i++)
        if (symbolise_stack(&c, &t->stacks[i]) < 0) goto out;
    rc = 0;
out:
    if (c.tabs)
        for (size_t i = 0; i < t->nmods; i++) symtab_free(&c.tabs[i]);
    free(c.tabs);
    free(c.order);
    return rc;
}
