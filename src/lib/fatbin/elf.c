/*
 * Find the fatbin sections of an ELF64 little-endian file (REFERENCE 4.1):
 * .nv_fatbin (linked device code) and __nv_relfatbin (relocatable device
 * code, -rdc objects and libraries such as NCCL).  Sections are found by name
 * through the section-name string table.  Containers outside them are found
 * through the dynamic relocations that point at them, mapped to the file
 * through the program headers (cp_elf_fatbin_sections in fatbin_int.h).
 * This file only finds them: what is in a region is the caller's (the
 * callback of cp_elf_fatbin_sections), so nothing here calls upwards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fatbin/fatbin_int.h"
#include "util/alloc.h"

#define EHDR_SIZE 64u
#define SHDR_SIZE 64u
#define SHT_PROGBITS 1u
#define SHT_NOBITS 8u
#define SHN_XINDEX 0xffffu
/* More fatbin sections than this is a hostile file (sections overlapping the
 * same bytes would multiply the work); real files have one or two. */
#define MAX_FATBIN_SECTIONS 64

#define SHT_RELA 4u
#define SHF_ALLOC 2u
#define SHF_EXECINSTR 4u
#define RELA_SIZE 24u
#define PHDR_SIZE 56u
#define PT_LOAD 1u
#define EM_X86_64 62u
#define EM_AARCH64 183u
#define R_X86_64_RELATIVE 8u
#define R_AARCH64_RELATIVE 1027u
#define CONTAINER_MAGIC_LEN 16u
/* Tables kept while the section headers are walked; past these the rest
 * are not used (real files have two or three RELA sections, a handful of
 * code sections and of PT_LOAD segments). */
#define MAX_RELA 16
#define MAX_EXEC 32
#define MAX_LOADS 32
/* Relocation targets kept to be looked at: more is a crafted file (the
 * largest library of CUDA 13.0, cuBLASLt, has 353,355 RELATIVE relocations,
 * about 100,000 of them into data).  8 bytes each: 16 MB at most. */
#define MAX_REFS (1u << 21)

typedef struct {
    uint32_t name, type;
    uint64_t flags, offset, size;
    uint32_t link;
} shdr;

typedef struct {
    uint64_t off, size;
} span;

/* What the section walk keeps for the relocation pass. */
typedef struct {
    int nfat, nrela, nexec;
    span fat[MAX_FATBIN_SECTIONS];   /* the fatbin sections given to the callback */
    span rela[MAX_RELA];             /* allocated SHT_RELA sections (the dynamic relocations) */
    span exec[MAX_EXEC];             /* code sections: a relocation into them is a code pointer */
} found;

static shdr read_shdr(const unsigned char *p)
{
    shdr h;
    h.name = cp_le32(p);
    h.type = cp_le32(p + 4);
    h.flags = cp_le64(p + 8);
    h.offset = cp_le64(p + 24);
    h.size = cp_le64(p + 32);
    h.link = cp_le32(p + 40);
    return h;
}

/* Is the name at strtab offset off exactly want, NUL included, inside the
 * table (which the caller has checked lies in the file)?  Read aside from
 * the window, which holds the section headers being walked. */
static int name_is(cp_src *src, const shdr *strtab, uint32_t off, const char *want)
{
    size_t n = strlen(want);
    unsigned char p[32];
    if (off >= strtab->size || strtab->size - off <= n || n + 1 > sizeof p)
        return 0;
    return cp_src_copy(src, strtab->offset + off, p, n + 1) == 0 && memcmp(p, want, n) == 0 &&
           p[n] == '\0';
}

static int in_file(uint64_t off, uint64_t size, uint64_t len)
{
    return off <= len && size <= len - off;
}

/* Section header i; the caller has checked the table lies in the file. */
static int section(cp_src *src, uint64_t shoff, uint64_t shentsize, uint64_t i, shdr *h,
                   char *err, size_t errcap)
{
    const unsigned char *p = cp_src_at(src, shoff + i * shentsize, SHDR_SIZE);
    if (!p) {
        cp_fatbin_err(err, errcap, "'%s': cannot read section header %llu", src->name,
                      (unsigned long long)i);
        return -1;
    }
    *h = read_shdr(p);
    return 0;
}

/* Check the ELF identification and read where the section table is. */
static int read_ehdr(cp_src *src, uint64_t *shoff, uint64_t *shentsize, uint64_t *shnum,
                     uint64_t *shstrndx, char *err, size_t errcap)
{
    const char *name = src->name;
    const unsigned char *data = cp_src_at(src, 0, src->len < EHDR_SIZE ? (size_t)src->len : EHDR_SIZE);
    if (!data) {
        cp_fatbin_err(err, errcap, "'%s': cannot read the ELF header", name);
        return -1;
    }
    if (src->len < 6 || data[4] != 2) {
        cp_fatbin_err(err, errcap, "'%s': 32-bit ELF files are unsupported", name);
        return -1;
    }
    if (data[5] != 1) {
        cp_fatbin_err(err, errcap, "'%s': big-endian ELF files are unsupported", name);
        return -1;
    }
    if (src->len < EHDR_SIZE) {
        cp_fatbin_err(err, errcap, "'%s': ELF header is truncated", name);
        return -1;
    }
    *shoff = cp_le64(data + 0x28);
    *shentsize = cp_le16(data + 0x3a);
    *shnum = cp_le16(data + 0x3c);
    *shstrndx = cp_le16(data + 0x3e);
    return 0;
}

/* The section table: where, how many, and the section-name table.  Returns
 * 0, or -1 with err. */
static int read_table(cp_src *src, uint64_t *shoff, uint64_t *shentsize, uint64_t *shnum,
                      shdr *strs, char *err, size_t errcap)
{
    const char *name = src->name;
    uint64_t shstrndx;
    if (read_ehdr(src, shoff, shentsize, shnum, &shstrndx, err, errcap) != 0)
        return -1;
    if (*shoff == 0) {
        *shnum = 0;  /* no section table (sstrip): nothing to find by name */
        return 0;
    }
    if (*shentsize < SHDR_SIZE || !in_file(*shoff, SHDR_SIZE, src->len)) {
        cp_fatbin_err(err, errcap, "'%s': section table out of bounds", name);
        return -1;
    }
    /* More than 0xff00 sections, or a string table index past that: the real
     * values sit in section 0 (ELF gABI extended numbering). */
    shdr zero;
    if (section(src, *shoff, *shentsize, 0, &zero, err, errcap) != 0)
        return -1;
    if (*shnum == 0) *shnum = zero.size;
    if (shstrndx == SHN_XINDEX) shstrndx = zero.link;
    if (*shnum > (src->len - *shoff) / *shentsize) {
        cp_fatbin_err(err, errcap, "'%s': section table out of bounds", name);
        return -1;
    }
    if (*shnum > CP_ELF_MAX_SECTIONS) {
        cp_fatbin_err(err, errcap, "'%s': %llu sections, more than a real binary holds (at most %u): "
                      "the file is damaged or crafted", name, (unsigned long long)*shnum,
                      CP_ELF_MAX_SECTIONS);
        return -1;
    }
    if (shstrndx >= *shnum || section(src, *shoff, *shentsize, shstrndx, strs, err, errcap) != 0 ||
        strs->type == SHT_NOBITS || !in_file(strs->offset, strs->size, src->len)) {
        cp_fatbin_err(err, errcap, "'%s': section name table out of bounds", name);
        return -1;
    }
    return 0;
}

static int in_spans(const span *sp, int n, uint64_t off)
{
    for (int i = 0; i < n; i++)
        if (off >= sp[i].off && off - sp[i].off < sp[i].size) return 1;
    return 0;
}

static int off_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The PT_LOAD segments of the file, with their bytes in it. */
typedef struct {
    int n;
    struct { uint64_t off, va, filesz; } seg[MAX_LOADS];
} loads;

static int read_loads(cp_src *src, loads *l, char *err, size_t errcap)
{
    const unsigned char *h = cp_src_at(src, 0, 64);
    if (!h) return cp_src_read_failed(src, 0, err, errcap);
    uint64_t phoff = cp_le64(h + 0x20), phentsize = cp_le16(h + 0x36), phnum = cp_le16(h + 0x38);
    l->n = 0;
    if (phoff == 0 || phentsize < PHDR_SIZE || phoff > src->len || phnum > CP_ELF_MAX_SEGMENTS ||
        phnum > (src->len - phoff) / phentsize)
        return 0;   /* no usable program headers: nothing is mapped, no reference followed */
    for (uint64_t i = 0; i < phnum && l->n < MAX_LOADS; i++) {
        const unsigned char *p = cp_src_at(src, phoff + i * phentsize, PHDR_SIZE);
        if (!p) return cp_src_read_failed(src, phoff + i * phentsize, err, errcap);
        uint64_t off = cp_le64(p + 8), va = cp_le64(p + 16), filesz = cp_le64(p + 32);
        if (cp_le32(p) != PT_LOAD || !in_file(off, filesz, src->len)) continue;
        l->seg[l->n].off = off;
        l->seg[l->n].va = va;
        l->seg[l->n++].filesz = filesz;
    }
    return 0;
}

/* The file offset of the relocation target va into *off, when it is
 * 8-aligned file bytes of a segment with room for a container header,
 * outside the fatbin sections walked and outside code.  0 when it is not. */
static int target(const loads *l, const found *fd, uint64_t va, uint64_t *off)
{
    for (int i = 0; i < l->n; i++) {
        if (va < l->seg[i].va || va - l->seg[i].va >= l->seg[i].filesz) continue;
        uint64_t o = l->seg[i].off + (va - l->seg[i].va), lim = l->seg[i].off + l->seg[i].filesz;
        if ((o & 7) || lim - o < CONTAINER_MAGIC_LEN || in_spans(fd->fat, fd->nfat, o) ||
            in_spans(fd->exec, fd->nexec, o))
            return 0;
        *off = o;
        return 1;
    }
    return 0;
}

/* Does a container start at off (its header inside limit)? */
static int container_at(cp_src *src, uint64_t off, uint64_t limit)
{
    const unsigned char *c = cp_src_at(src, off, CONTAINER_MAGIC_LEN);
    if (!c) return 0;
    uint64_t hdr = cp_le16(c + 6), body = cp_le64(c + 8);
    return cp_le32(c) == CP_FATBIN_MAGIC && hdr >= CONTAINER_MAGIC_LEN && hdr <= limit - off &&
           body <= limit - off - hdr;
}

/* The relocation pass of cp_elf_fatbin_sections: collect the file offsets
 * the RELATIVE relocations point at, sort them, and walk the containers
 * there in file order, each run of back-to-back containers once.  Looking
 * in file order keeps the window's reads sequential, so the cost is bounded
 * by the file's size whatever the number of relocations. */
static int follow_relocations(cp_src *src, uint32_t relative, const found *fd, cp_elf_region_fn fn,
                              void *arg, char *err, size_t errcap)
{
    loads l;
    if (read_loads(src, &l, err, errcap) != 0) return -1;
    if (l.n == 0 || fd->nrela == 0) return 0;
    uint64_t *offs = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (int k = 0; k < fd->nrela && rc == 0; k++) {
        for (uint64_t i = 0; i < fd->rela[k].size / RELA_SIZE; i++) {
            uint64_t at = fd->rela[k].off + i * RELA_SIZE, off;
            const unsigned char *p = cp_src_at(src, at, RELA_SIZE);
            if (!p) { rc = cp_src_read_failed(src, at, err, errcap); break; }
            if ((cp_le64(p + 8) & 0xffffffffu) != relative || !target(&l, fd, cp_le64(p + 16), &off))
                continue;
            if (n == cap) {
                if (cap >= MAX_REFS) {
                    cp_fatbin_err(err, errcap, "'%s': more than %u relocations into data: "
                                  "the file is damaged or crafted", src->name, MAX_REFS);
                    rc = -1;
                    break;
                }
                size_t ncap = cap ? 2 * cap : 256;
                uint64_t *m = cp_realloc(offs, ncap * sizeof *m);
                if (!m) {
                    cp_fatbin_err(err, errcap, "'%s': %s", src->name, strerror(ENOMEM));
                    rc = -1;
                    break;
                }
                offs = m;
                cap = ncap;
            }
            offs[n++] = off;
        }
    }
    if (rc == 0 && n) qsort(offs, n, sizeof *offs, off_cmp);
    uint64_t covered = 0;   /* the end of the last run walked */
    for (size_t i = 0; i < n && rc == 0; i++) {
        uint64_t off = offs[i], limit = 0;
        if ((i && off == offs[i - 1]) || (covered && off < covered))
            continue;   /* the same target again, or inside a run already walked */
        /* how far the bytes of its segment run (the first that holds it) */
        for (int k = 0; k < l.n && !limit; k++)
            if (off >= l.seg[k].off && off - l.seg[k].off < l.seg[k].filesz)
                limit = l.seg[k].off + l.seg[k].filesz;
        for (int k = 0; k < fd->nfat; k++)
            if (fd->fat[k].off > off && fd->fat[k].off < limit) limit = fd->fat[k].off;
        if (!limit || !container_at(src, off, limit))
            continue;
        uint64_t end = off;
        rc = fn(src, off, limit - off, CP_ELF_REFERENCED, arg, &end, err, errcap);
        covered = end > off ? end : off + 1;
    }
    free(offs);
    return rc;
}

/* See fatbin_int.h. */
int cp_elf_fatbin_sections(cp_src *src, cp_elf_region_fn fn, void *arg, char *err, size_t errcap)
{
    uint64_t shoff, shentsize, shnum;
    shdr strs;
    if (read_table(src, &shoff, &shentsize, &shnum, &strs, err, errcap) != 0)
        return -1;
    found fd;
    memset(&fd, 0, sizeof fd);
    for (uint64_t i = 1; i < shnum; i++) {
        shdr h;
        if (section(src, shoff, shentsize, i, &h, err, errcap) != 0)
            return -1;
        if (h.type == SHT_RELA && (h.flags & SHF_ALLOC) && fd.nrela < MAX_RELA &&
            in_file(h.offset, h.size, src->len))
            fd.rela[fd.nrela++] = (span){ h.offset, h.size };
        if (h.type != SHT_PROGBITS)
            continue;   /* fatbin sections hold bytes; no name to look up for the rest */
        if ((h.flags & SHF_EXECINSTR) && fd.nexec < MAX_EXEC && in_file(h.offset, h.size, src->len))
            fd.exec[fd.nexec++] = (span){ h.offset, h.size };
        const char *what = name_is(src, &strs, h.name, ".nv_fatbin") ? ".nv_fatbin"
                         : name_is(src, &strs, h.name, "__nv_relfatbin") ? "__nv_relfatbin"
                         : NULL;
        if (!what)
            continue;
        if (fd.nfat >= MAX_FATBIN_SECTIONS) {
            cp_fatbin_err(err, errcap, "'%s': more than %d fatbin sections", src->name,
                          MAX_FATBIN_SECTIONS);
            return -1;
        }
        if (!in_file(h.offset, h.size, src->len)) {
            cp_fatbin_err(err, errcap, "'%s': section %s runs past the end of the file", src->name,
                          what);
            return -1;
        }
        fd.fat[fd.nfat++] = (span){ h.offset, h.size };
        int rc = fn(src, h.offset, h.size, what, arg, NULL, err, errcap);
        if (rc != 0)
            return rc;
    }
    const unsigned char *h = cp_src_at(src, 0, 64);
    uint32_t machine = h ? cp_le16(h + 18) : 0;
    uint32_t relative = machine == EM_X86_64 ? R_X86_64_RELATIVE : machine == EM_AARCH64 ? R_AARCH64_RELATIVE : 0;
    return relative ? follow_relocations(src, relative, &fd, fn, arg, err, errcap) : 0;
}
