/*
 * Find the fatbin sections of an ELF64 little-endian file (REFERENCE 4.1):
 * .nv_fatbin (linked device code) and __nv_relfatbin (relocatable device
 * code, -rdc objects and libraries such as NCCL).  Sections are found by name
 * through the section-name string table; program headers are not needed.
 * This file only finds them: what is in a section is the caller's (the
 * callback of cp_elf_fatbin_sections), so nothing here calls upwards.
 */
#include <stdio.h>
#include <string.h>
#include "fatbin/fatbin_int.h"

#define EHDR_SIZE 64u
#define SHDR_SIZE 64u
#define SHT_PROGBITS 1u
#define SHT_NOBITS 8u
#define SHN_XINDEX 0xffffu
/* More fatbin sections than this is a hostile file (sections overlapping the
 * same bytes would multiply the work); real files have one or two. */
#define MAX_FATBIN_SECTIONS 64

typedef struct {
    uint32_t name, type;
    uint64_t offset, size;
    uint32_t link;
} shdr;

static shdr read_shdr(const unsigned char *p)
{
    shdr h;
    h.name = cp_le32(p);
    h.type = cp_le32(p + 4);
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

/* See fatbin_int.h. */
int cp_elf_fatbin_sections(cp_src *src, cp_elf_region_fn fn, void *arg, char *err, size_t errcap)
{
    uint64_t shoff, shentsize, shnum;
    shdr strs;
    if (read_table(src, &shoff, &shentsize, &shnum, &strs, err, errcap) != 0)
        return -1;
    int found = 0;
    for (uint64_t i = 1; i < shnum; i++) {
        shdr h;
        if (section(src, shoff, shentsize, i, &h, err, errcap) != 0)
            return -1;
        if (h.type != SHT_PROGBITS)
            continue;   /* fatbin sections hold bytes; no name to look up for the rest */
        const char *what = name_is(src, &strs, h.name, ".nv_fatbin") ? ".nv_fatbin"
                         : name_is(src, &strs, h.name, "__nv_relfatbin") ? "__nv_relfatbin"
                         : NULL;
        if (!what)
            continue;
        if (++found > MAX_FATBIN_SECTIONS) {
            cp_fatbin_err(err, errcap, "'%s': more than %d fatbin sections", src->name,
                          MAX_FATBIN_SECTIONS);
            return -1;
        }
        if (!in_file(h.offset, h.size, src->len)) {
            cp_fatbin_err(err, errcap, "'%s': section %s runs past the end of the file", src->name,
                          what);
            return -1;
        }
        int rc = fn(src, h.offset, h.size, what, arg, err, errcap);
        if (rc != 0)
            return rc;
    }
    return 0;
}
