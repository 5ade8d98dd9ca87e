/*
 * The dynamic section of an ELF64 little-endian file: DT_NEEDED, DT_RPATH
 * and DT_RUNPATH.
 *
 * Every byte goes through cp_src_at (src.h), which refuses anything
 * outside the file and reads a file a 16 KB window at a time.  The dynamic
 * array is found through the section table (SHT_DYNAMIC, whose sh_link names
 * its string table) or, when there is none or it is unusable, through the
 * PT_DYNAMIC program header, with DT_STRTAB mapped to a file offset through
 * the PT_LOAD headers.  Nothing is allocated in proportion to the file: the
 * string offsets are kept in fixed arrays and resolved after the walk, and
 * every loop is bounded by a count checked against the file size.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fatbin/elfdyn.h"
#include "fatbin/src.h"

#define EHDR_SIZE 64u
#define SHDR_SIZE 64u
#define PHDR_SIZE 56u
#define DYN_SIZE 16u
#define SHT_STRTAB 3u
#define SHT_DYNAMIC 6u
#define PT_LOAD 1u
#define PT_DYNAMIC 2u
#define PN_XNUM 0xffffu
#define DT_NULL 0u
#define DT_NEEDED 1u
#define DT_STRTAB 5u
#define DT_STRSZ 10u
#define DT_RPATH 15u
#define DT_RUNPATH 29u

typedef struct {
    cp_src *src;
    uint64_t phoff, phentsize, phnum;  /* phnum 0 when the table is unusable */
    int ph_bad;                        /* there is a program header table, not in the file */
    uint64_t shoff, shentsize, shnum;  /* shnum 0 when the table is unusable */
} elf_info;

/* A byte range of the file, checked to lie inside it. */
typedef struct {
    int have;
    uint64_t off, size;
} range;

/* What the walk of the dynamic array found: offsets into the string table. */
typedef struct {
    int have_strtab, have_strsz;
    uint64_t strtab, strsz;
    int nneeded;
    int64_t needed_total;
    uint64_t needed[CP_ELF_MAX_NEEDED];
    int have_runpath, have_rpath;
    uint64_t runpath, rpath;
} dyn_walk;

static int in_file(uint64_t off, uint64_t size, uint64_t len)
{
    return off <= len && size <= len - off;
}

/* Is a table of num entries of entsize (>= need) bytes at off all inside? */
static int table_fits(uint64_t off, uint64_t entsize, uint64_t num, uint64_t need, uint64_t len)
{
    if (off == 0 || entsize < need || off > len)
        return 0;
    return num <= (len - off) / entsize;
}

/* ELF header: identification, then where the two tables are.  A table that
 * does not fit in the file is treated as absent (a truncated or sstripped
 * file can still be read through the other). */
static int read_header(cp_src *src, elf_info *e, char *err, size_t errcap)
{
    size_t n = src->len < EHDR_SIZE ? (size_t)src->len : EHDR_SIZE;
    errno = 0;
    const unsigned char *h = cp_src_at(src, 0, n);
    if (!h && n > 0)
        return cp_src_read_failed(src, 0, err, errcap);
    if (!h || n < 6 || memcmp(h, "\177ELF", 4) != 0 || h[4] != 2 || h[5] != 1) {
        cp_fatbin_err(err, errcap, "'%s': not an ELF64 little-endian file", src->name);
        return -1;
    }
    if (n < EHDR_SIZE) {
        cp_fatbin_err(err, errcap, "'%s': ELF header is truncated", src->name);
        return -1;
    }
    e->src = src;
    e->phoff = cp_le64(h + 0x20);
    e->shoff = cp_le64(h + 0x28);
    e->phentsize = cp_le16(h + 0x36);
    e->phnum = cp_le16(h + 0x38);
    e->shentsize = cp_le16(h + 0x3a);
    e->shnum = cp_le16(h + 0x3c);
    /* ELF gABI extended numbering: the real counts sit in section 0 */
    if ((e->shnum == 0 || e->phnum == PN_XNUM) &&
        table_fits(e->shoff, e->shentsize, 1, SHDR_SIZE, src->len)) {
        const unsigned char *s0 = cp_src_at(src, e->shoff, SHDR_SIZE);
        if (s0 && e->shnum == 0) e->shnum = cp_le64(s0 + 32);
        if (s0 && e->phnum == PN_XNUM) e->phnum = cp_le32(s0 + 44);
    }
    /* a table that cannot be real (src.h's caps) is as unusable as one
     * outside the file: the other table may still say where DT_NEEDED is */
    if (e->shnum > CP_ELF_MAX_SECTIONS ||
        !table_fits(e->shoff, e->shentsize, e->shnum, SHDR_SIZE, src->len))
        e->shnum = 0;
    e->ph_bad = 0;
    if (e->phnum && (e->phnum > CP_ELF_MAX_SEGMENTS ||
                     !table_fits(e->phoff, e->phentsize, e->phnum, PHDR_SIZE, src->len))) {
        e->phnum = 0;
        e->ph_bad = 1;
    }
    return 0;
}

/* The SHT_DYNAMIC section into *dyn and its sh_link string table (when that
 * is a string table inside the file) into *str.  Returns 0 (dyn->have 0
 * when there is none), or -1 with err. */
static int find_dyn_section(const elf_info *e, range *dyn, range *str, char *err, size_t errcap)
{
    cp_src *src = e->src;
    for (uint64_t i = 1; i < e->shnum; i++) {
        uint64_t at = e->shoff + i * e->shentsize;
        errno = 0;
        const unsigned char *p = cp_src_at(src, at, SHDR_SIZE);
        if (!p)
            return cp_src_read_failed(src, at, err, errcap);
        if (cp_le32(p + 4) != SHT_DYNAMIC)
            continue;
        uint64_t off = cp_le64(p + 24), size = cp_le64(p + 32), link = cp_le32(p + 40);
        if (!in_file(off, size, src->len)) {
            cp_fatbin_err(err, errcap, "'%s': dynamic section runs past the end of the file",
                          src->name);
            return -1;
        }
        *dyn = (range){ 1, off, size };
        if (link == 0 || link >= e->shnum)
            return 0;
        at = e->shoff + link * e->shentsize;
        errno = 0;
        p = cp_src_at(src, at, SHDR_SIZE);
        if (!p)
            return cp_src_read_failed(src, at, err, errcap);
        off = cp_le64(p + 24);
        size = cp_le64(p + 32);
        if (cp_le32(p + 4) == SHT_STRTAB && in_file(off, size, src->len))
            *str = (range){ 1, off, size };
        return 0;
    }
    return 0;
}

/* Program header i (the caller has checked the table fits): its type, and
 * file offset, virtual address and size in the file. */
static const unsigned char *phdr(const elf_info *e, uint64_t i, char *err, size_t errcap)
{
    uint64_t at = e->phoff + i * e->phentsize;
    errno = 0;
    const unsigned char *p = cp_src_at(e->src, at, PHDR_SIZE);
    if (!p)
        cp_src_read_failed(e->src, at, err, errcap);
    return p;
}

/* The PT_DYNAMIC segment into *dyn.  Returns 0 (dyn->have 0 when there is
 * none), or -1 with err. */
static int find_dyn_segment(const elf_info *e, range *dyn, char *err, size_t errcap)
{
    for (uint64_t i = 0; i < e->phnum; i++) {
        const unsigned char *p = phdr(e, i, err, errcap);
        if (!p)
            return -1;
        if (cp_le32(p) != PT_DYNAMIC)
            continue;
        uint64_t off = cp_le64(p + 8), size = cp_le64(p + 32);
        if (!in_file(off, size, e->src->len)) {
            cp_fatbin_err(err, errcap, "'%s': dynamic segment runs past the end of the file",
                          e->src->name);
            return -1;
        }
        *dyn = (range){ 1, off, size };
        return 0;
    }
    return 0;
}

/* Map the virtual address vaddr to the file through the PT_LOAD headers:
 * *str gets the file offset and the bytes of that segment (and file) from
 * there, cut to strsz when have_strsz.  Returns 0 (str->have 0 when no
 * segment holds vaddr), or -1 with err. */
static int map_vaddr(const elf_info *e, uint64_t vaddr, int have_strsz, uint64_t strsz, range *str,
                     char *err, size_t errcap)
{
    for (uint64_t i = 0; i < e->phnum; i++) {
        const unsigned char *p = phdr(e, i, err, errcap);
        if (!p)
            return -1;
        uint64_t off = cp_le64(p + 8), va = cp_le64(p + 16), filesz = cp_le64(p + 32);
        if (cp_le32(p) != PT_LOAD || vaddr < va || vaddr - va >= filesz)
            continue;
        uint64_t delta = vaddr - va;
        if (off > e->src->len || delta > e->src->len - off)
            continue;  /* this segment's bytes are not in the file */
        uint64_t avail = filesz - delta;
        if (avail > e->src->len - off - delta)
            avail = e->src->len - off - delta;
        if (have_strsz && strsz < avail)
            avail = strsz;
        *str = (range){ 1, off + delta, avail };
        return 0;
    }
    return 0;
}

/* Walk the Elf64_Dyn entries of dyn up to DT_NULL.  The later of two
 * DT_RUNPATH (or DT_RPATH) entries wins, as in glibc's loader. */
static int walk_dyn(cp_src *src, const range *dyn, dyn_walk *w, char *err, size_t errcap)
{
    uint64_t n = dyn->size / DYN_SIZE;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t at = dyn->off + i * DYN_SIZE;
        errno = 0;
        const unsigned char *p = cp_src_at(src, at, DYN_SIZE);
        if (!p)
            return cp_src_read_failed(src, at, err, errcap);
        uint64_t tag = cp_le64(p), val = cp_le64(p + 8);
        switch (tag) {
        case DT_NULL:
            return 0;
        case DT_NEEDED:
            if (w->nneeded < CP_ELF_MAX_NEEDED)
                w->needed[w->nneeded++] = val;
            w->needed_total++;
            break;
        case DT_STRTAB: w->have_strtab = 1; w->strtab = val; break;
        case DT_STRSZ: w->have_strsz = 1; w->strsz = val; break;
        case DT_RPATH: w->have_rpath = 1; w->rpath = val; break;
        case DT_RUNPATH: w->have_runpath = 1; w->runpath = val; break;
        default: break;
        }
    }
    return 0;
}

/* The string at offset o of the string table str into buf (cap bytes), cut
 * to fit; a string that runs to the end of the table ends there.  Returns
 * 0, or -1 with err naming what (the dynamic tag) when o is outside. */
static int get_str(cp_src *src, const range *str, uint64_t o, char *buf, size_t cap,
                   const char *what, char *err, size_t errcap)
{
    if (o >= str->size) {
        cp_fatbin_err(err, errcap, "'%s': %s string offset 0x%llx is outside the string table",
                      src->name, what, (unsigned long long)o);
        return -1;
    }
    uint64_t left = str->size - o;
    size_t n = left < cap - 1 ? (size_t)left : cap - 1;  /* cap <= 1024 < CP_SRC_WINDOW */
    errno = 0;
    const unsigned char *p = cp_src_at(src, str->off + o, n);
    if (!p)
        return cp_src_read_failed(src, str->off + o, err, errcap);
    size_t k = 0;
    while (k < n && p[k] != '\0') {
        buf[k] = (char)p[k];
        k++;
    }
    buf[k] = '\0';
    return 0;
}

/* Resolve the offsets the walk found into out. */
static int resolve(const elf_info *e, const dyn_walk *w, range str, cp_elf_dyn *out, char *err,
                   size_t errcap)
{
    cp_src *src = e->src;
    out->needed_total = w->needed_total > 0x7fffffff ? 0x7fffffff : (int)w->needed_total;
    if (w->nneeded == 0 && !w->have_runpath && !w->have_rpath)
        return 0;
    if (!str.have && w->have_strtab &&
        map_vaddr(e, w->strtab, w->have_strsz, w->strsz, &str, err, errcap) != 0)
        return -1;
    if (!str.have) {
        cp_fatbin_err(err, errcap, "'%s': the dynamic string table is not in the file", src->name);
        return -1;
    }
    for (int i = 0; i < w->nneeded; i++) {
        if (get_str(src, &str, w->needed[i], out->needed[i], sizeof out->needed[i], "DT_NEEDED",
                    err, errcap) != 0)
            return -1;
        out->nneeded = i + 1;
    }
    if (w->have_runpath && get_str(src, &str, w->runpath, out->runpath, sizeof out->runpath,
                                   "DT_RUNPATH", err, errcap) != 0)
        return -1;
    if (w->have_rpath && get_str(src, &str, w->rpath, out->rpath, sizeof out->rpath, "DT_RPATH",
                                 err, errcap) != 0)
        return -1;
    return 0;
}

static int dyn_src(cp_src *src, cp_elf_dyn *out, char *err, size_t errcap)
{
    elf_info e;
    if (read_header(src, &e, err, errcap) != 0)
        return -1;
    range dyn = { 0, 0, 0 }, str = { 0, 0, 0 };
    if (find_dyn_section(&e, &dyn, &str, err, errcap) != 0)
        return -1;
    if (!dyn.have && find_dyn_segment(&e, &dyn, err, errcap) != 0)
        return -1;
    if (!dyn.have && e.ph_bad) {
        cp_fatbin_err(err, errcap, "'%s': program header table out of bounds", src->name);
        return -1;
    }
    if (!dyn.have)
        return 0;  /* static executable, object file, or no usable table */
    dyn_walk w;
    memset(&w, 0, sizeof w);
    if (walk_dyn(src, &dyn, &w, err, errcap) != 0)
        return -1;
    return resolve(&e, &w, str, out, err, errcap);
}

/* See elfdyn.h. */
int cp_elf_dynamic_bytes(const unsigned char *data, size_t len, cp_elf_dyn *out, char *err,
                         size_t errcap)
{
    static const unsigned char none[1];
    cp_src src = { .data = data ? data : none, .fd = -1, .len = data ? len : 0, .name = "<memory>" };
    memset(out, 0, sizeof *out);
    if (err && errcap) err[0] = '\0';
    return dyn_src(&src, out, err, errcap);
}

static int dyn_src_any(cp_src *src, void *out, char *err, size_t errcap)
{
    return dyn_src(src, out, err, errcap);
}

/* See elfdyn.h.  Read through one 16 KB pread window (cp_src_run_file). */
int cp_elf_dynamic(const char *path, cp_elf_dyn *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (err && errcap) err[0] = '\0';
    return cp_src_run_file(path, dyn_src_any, out, err, errcap);
}
