/*
 * Fatbin containers and entries (REFERENCE 4.2-4.4), and cp_arch_scan on
 * top of elf.c (which finds the sections) and src.c (which reads bytes).
 *
 * The input is hostile: every size is checked against the region before it
 * is used, every step moves forward by at least a header, and nothing is
 * allocated: the summary has a fixed number of code slots and a file is read
 * through one fixed window.
 */
#include <stdio.h>
#include <string.h>
#include "fatbin/fatbin_int.h"

#define CONTAINER_HDR 16u
#define ENTRY_HDR 64u
#define KIND_PTX 1u
#define KIND_ELF 2u
#define KIND_LTO 8u
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define FLAG_ARCH_A 0x100000u
#define FLAG_FAMILY_F 0x200000u
/* Zero bytes tolerated between containers: linkers pad input sections to
 * their alignment.  More than this is not a fatbin any more, and stopping
 * keeps a hostile all-zero section from being read page by page. */
#define MAX_PAD 4096u

static int variant_rank(char v)
{
    return v == 0 ? 0 : v == 'a' ? 1 : 2;
}

/* The order of cp_arch_summary.codes: SASS then PTX, each by sm, variant, ISA. */
static int code_cmp(const cp_code *a, const cp_code *b)
{
    if (a->kind != b->kind) return a->kind == CP_CODE_SASS ? -1 : 1;
    if (a->sm != b->sm) return a->sm < b->sm ? -1 : 1;
    if (a->variant != b->variant) return variant_rank(a->variant) - variant_rank(b->variant);
    if (a->ptx_major != b->ptx_major) return a->ptx_major < b->ptx_major ? -1 : 1;
    if (a->ptx_minor != b->ptx_minor) return a->ptx_minor < b->ptx_minor ? -1 : 1;
    return 0;
}

/* Count one entry under its code, inserting the code in sorted place; bit
 * i of *mod (the codes of the module being walked) and of every set's mask
 * follows codes[i] when later codes shift up.  When all CP_ARCH_MAX_CODES
 * slots are taken (no real file comes near) the entry is counted as
 * unknown rather than dropped silently. */
static void add_code(cp_arch_summary *s, const cp_code *c, int compressed, uint64_t bytes, uint64_t *mod)
{
    int i = 0, d = 1;
    while (i < s->ncodes && (d = code_cmp(&s->codes[i], c)) < 0)
        i++;
    if (i >= s->ncodes || d != 0) {
        if (s->ncodes >= CP_ARCH_MAX_CODES) {
            s->unknown_entries++;
            return;
        }
        memmove(&s->codes[i + 1], &s->codes[i], (size_t)(s->ncodes - i) * sizeof s->codes[0]);
        s->codes[i] = *c;
        s->ncodes++;
        uint64_t low = ((uint64_t)1 << i) - 1;   /* i < 64 here */
        for (int k = 0; k < s->nsets; k++)
            s->sets[k].codes = (s->sets[k].codes & low) | ((s->sets[k].codes & ~low) << 1);
        *mod = (*mod & low) | ((*mod & ~low) << 1);
    }
    s->codes[i].count++;
    s->codes[i].compressed += compressed;
    s->codes[i].bytes += (int64_t)bytes;
    *mod |= (uint64_t)1 << i;
}

/* One module walked: count it with the modules that carry the same codes.
 * A module of LTO IR alone (mod 0) runs nowhere as is and is left out. */
static void add_module(cp_arch_summary *s, uint64_t mod)
{
    if (!mod) return;
    for (int k = 0; k < s->nsets; k++)
        if (s->sets[k].codes == mod) {
            s->sets[k].modules++;
            return;
        }
    if (s->nsets >= CP_ARCH_MAX_SETS) {
        s->modules_ungrouped++;
        return;
    }
    s->sets[s->nsets].codes = mod;
    s->sets[s->nsets++].modules = 1;
}

/* One entry header e (at least ENTRY_HDR bytes, checked by the caller). */
static void add_entry(cp_arch_summary *s, const unsigned char *e, uint64_t payload, uint64_t *mod)
{
    uint16_t kind = cp_le16(e);
    uint32_t arch = cp_le32(e + 28);
    uint64_t flags = cp_le64(e + 40);
    s->entries++;
    if (kind == KIND_LTO) {
        s->lto_entries++;
        return;
    }
    /* sm_10 is the oldest there was; four digits leaves room and keeps
     * "compute_NNNN" in a name buffer. */
    if ((kind != KIND_PTX && kind != KIND_ELF) || arch < 10 || arch > 9999) {
        s->unknown_entries++;
        return;
    }
    cp_code c;
    memset(&c, 0, sizeof c);
    c.kind = kind == KIND_PTX ? CP_CODE_PTX : CP_CODE_SASS;
    c.sm = (int)arch;
    c.variant = (flags & FLAG_ARCH_A) ? 'a' : (flags & FLAG_FAMILY_F) ? 'f' : 0;
    if (kind == KIND_PTX) {
        /* version fields: minor at 24, major at 26 (the ISA of PTX entries) */
        c.ptx_minor = cp_le16(e + 24);
        c.ptx_major = cp_le16(e + 26);
    }
    add_code(s, &c, (flags & (FLAG_LZ4 | FLAG_ZSTD)) ? 1 : 0, payload, mod);
}

static int all_zero(const unsigned char *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* The entries of one container body [off, off + size). */
static int walk_entries(cp_src *src, uint64_t off, uint64_t size, cp_arch_summary *s,
                        const char *what, uint64_t *mod, char *err, size_t errcap)
{
    const char *name = src->name;
    uint64_t pos = 0;
    while (pos < size) {
        uint64_t rem = size - pos;
        const unsigned char *e = cp_src_at(src, off + pos, rem < ENTRY_HDR ? (size_t)rem : ENTRY_HDR);
        if (!e)
            return cp_src_read_failed(src, off + pos, err, errcap);
        if (rem < ENTRY_HDR) {
            if (all_zero(e, rem)) return 0;  /* padding at the end of a container */
            cp_fatbin_err(err, errcap, "'%s': %s: entry at 0x%llx is truncated", name, what,
                          (unsigned long long)(off + pos));
            return -1;
        }
        uint32_t hsz = cp_le32(e + 4);
        uint64_t payload = cp_le64(e + 8);
        if (hsz < ENTRY_HDR || hsz > rem) {
            cp_fatbin_err(err, errcap, "'%s': %s: entry at 0x%llx has a bad header size (%u)", name,
                          what, (unsigned long long)(off + pos), (unsigned)hsz);
            return -1;
        }
        if (payload > rem - hsz) {
            cp_fatbin_err(err, errcap, "'%s': %s: entry at 0x%llx runs past its container", name,
                          what, (unsigned long long)(off + pos));
            return -1;
        }
        add_entry(s, e, payload, mod);
        pos += hsz + payload;  /* hsz >= 64: always moves on */
    }
    return 0;
}

/* See fatbin_int.h. */
int cp_fatbin_walk(cp_src *src, uint64_t off, uint64_t size, cp_arch_summary *s, const char *what,
                   uint64_t *end, char *err, size_t errcap)
{
    const char *name = src->name;
    uint64_t pos = 0, pad = 0, last = 0;   /* last: the end of the last container */
    if (end) *end = off;
    while (pos < size && size - pos >= CONTAINER_HDR) {
        const unsigned char *c = cp_src_at(src, off + pos, CONTAINER_HDR);
        if (!c)
            return cp_src_read_failed(src, off + pos, err, errcap);
        if (cp_le32(c) != CP_FATBIN_MAGIC) {
            if (cp_le64(c) == 0 && pad < MAX_PAD) {
                pos += 8;
                pad += 8;
                continue;
            }
            break;  /* not a container: the fatbin data ends here */
        }
        pad = 0;
        uint64_t hdr = cp_le16(c + 6), body = cp_le64(c + 8);
        if (hdr < CONTAINER_HDR || hdr > size - pos || body > size - pos - hdr) {
            cp_fatbin_err(err, errcap, "'%s': %s: container at 0x%llx runs past the end", name, what,
                          (unsigned long long)(off + pos));
            return -1;
        }
        s->containers++;
        uint64_t mod = 0;
        if (walk_entries(src, off + pos + hdr, body, s, what, &mod, err, errcap) != 0)
            return -1;
        add_module(s, mod);
        pos += hdr + body;
        last = pos;
        if (end) *end = off + last;
        pos = (pos + 7) & ~(uint64_t)7;  /* containers are 8-byte aligned */
    }
    return 0;
}

/* One fatbin section of an ELF file, or the containers from one that a
 * relocation points at (cp_elf_fatbin_sections' callback). */
static int walk_region(cp_src *src, uint64_t off, uint64_t size, const char *what, void *arg,
                       uint64_t *end, char *err, size_t errcap)
{
    cp_arch_summary *s = arg;
    int64_t before = s->containers;
    int rc = cp_fatbin_walk(src, off, size, s, what, end, err, errcap);
    if (strcmp(what, CP_ELF_REFERENCED) == 0)
        s->referenced += s->containers - before;
    return rc;
}

#define EM_CUDA 190u

/* A cubin (nvcc -cubin): an ELF file of GPU code, one SASS module.  Its
 * sm is in e_flags: bits 8-15 from ELF ABI version 8 (CUDA 13), the low
 * byte before.  The a/f variant is not in the header, so none is said. */
static int scan_cubin(cp_src *src, const unsigned char *h, cp_arch_summary *out, char *err, size_t errcap)
{
    uint32_t flags = cp_le32(h + 0x30);
    uint32_t sm = h[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
    if (sm < 10) {
        cp_fatbin_err(err, errcap, "'%s': cubin of an unknown architecture (e_flags 0x%x)", src->name,
                      (unsigned)flags);
        return -1;
    }
    cp_code c;
    memset(&c, 0, sizeof c);
    c.kind = CP_CODE_SASS;
    c.sm = (int)sm;
    uint64_t mod = 0;
    out->containers++;
    out->entries++;
    add_code(out, &c, 0, src->len, &mod);
    add_module(out, mod);
    return 0;
}

/* An ELF file: a cubin, or a host file whose fatbins elf.c finds. */
static int scan_elf(cp_src *src, cp_arch_summary *out, char *err, size_t errcap)
{
    const unsigned char *h = src->len >= 64 ? cp_src_at(src, 0, 64) : NULL;
    out->is_elf = true;
    if (h && h[4] == 2 && h[5] == 1 && cp_le16(h + 18) == EM_CUDA) {
        if (out->format != CP_ARCH_ARCHIVE) out->format = CP_ARCH_CUBIN;
        unsigned char hh[64];
        memcpy(hh, h, sizeof hh);
        return scan_cubin(src, hh, out, err, errcap);
    }
    return cp_elf_fatbin_sections(src, walk_region, out, err, errcap);
}

/* PTX text: one PTX module of the ISA in its .version, for its .target. */
static int scan_ptx(cp_src *src, cp_arch_summary *out)
{
    size_t n = src->len < CP_SRC_WINDOW ? (size_t)src->len : CP_SRC_WINDOW;
    const unsigned char *p = n ? cp_src_at(src, 0, n) : NULL;
    int major, minor, sm;
    char variant;
    if (!p || cp_ptx_head((const char *)p, n, &major, &minor, &sm, &variant) != 0)
        return -1;
    cp_code c;
    memset(&c, 0, sizeof c);
    c.kind = CP_CODE_PTX;
    c.sm = sm;
    c.variant = variant;
    c.ptx_major = major;
    c.ptx_minor = minor;
    uint64_t mod = 0;
    out->format = CP_ARCH_PTX;
    out->containers++;
    out->entries++;
    add_code(out, &c, 0, src->len, &mod);
    add_module(out, mod);
    return 0;
}

/* One member of an archive (cp_ar_members' callback): read as a file of
 * its own, named "ARCHIVE(MEMBER)" in messages.  Members that are neither
 * ELF nor fatbin (text, other objects) are passed over. */
static int scan_member(cp_src *src, uint64_t off, uint64_t size, const char *name, void *arg,
                       char *err, size_t errcap)
{
    cp_arch_summary *out = arg;
    char who[512];
    const char *outer = src->name;
    uint64_t base = src->base, len = src->len;
    snprintf(who, sizeof who, "%s(%s)", outer, name);
    src->base = base + off;
    src->len = size;
    src->win_len = 0;
    src->name = who;
    const unsigned char *m = size >= 4 ? cp_src_at(src, 0, 4) : NULL;
    int rc = 0;
    if (m && memcmp(m, "\177ELF", 4) == 0) {
        out->members++;
        rc = scan_elf(src, out, err, errcap);
    } else if (m && cp_le32(m) == CP_FATBIN_MAGIC) {
        out->members++;
        rc = cp_fatbin_walk(src, 0, size, out, "fatbin", NULL, err, errcap);
    }
    src->base = base;
    src->len = len;
    src->win_len = 0;
    src->name = outer;
    return rc;
}

static int scan_src(cp_src *src, cp_arch_summary *out, char *err, size_t errcap)
{
    const unsigned char *m = cp_src_at(src, 0, 4);
    if (m && memcmp(m, "\177ELF", 4) == 0)
        return scan_elf(src, out, err, errcap);
    if (m && cp_le32(m) == CP_FATBIN_MAGIC) {
        out->format = CP_ARCH_FATBIN;
        return cp_fatbin_walk(src, 0, src->len, out, "fatbin", NULL, err, errcap);
    }
    if (cp_ar_is(src)) {
        out->format = CP_ARCH_ARCHIVE;
        return cp_ar_members(src, scan_member, out, err, errcap);
    }
    if (!m && src->len >= 4)
        return cp_src_read_failed(src, 0, err, errcap);
    if (scan_ptx(src, out) == 0)
        return 0;
    cp_fatbin_err(err, errcap, "'%s': not an ELF file, fatbin, PTX or archive", src->name);
    return -1;
}

/* See arch.h. */
int cp_arch_scan_bytes(const unsigned char *data, size_t len, cp_arch_summary *out, char *err,
                       size_t errcap)
{
    static const unsigned char none[1];
    cp_src src = { .data = data ? data : none, .fd = -1, .len = data ? len : 0, .name = "<memory>" };
    memset(out, 0, sizeof *out);
    if (err && errcap) err[0] = '\0';
    return scan_src(&src, out, err, errcap);
}

static int scan_src_any(cp_src *src, void *out, char *err, size_t errcap)
{
    return scan_src(src, out, err, errcap);
}

/* See arch.h.  A 1 GB library costs a few KB of memory and a few thousand
 * reads (cp_src_run_file). */
int cp_arch_scan(const char *path, cp_arch_summary *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    if (err && errcap) err[0] = '\0';
    return cp_src_run_file(path, scan_src_any, out, err, errcap);
}

/* See arch.h. */
const char *cp_arch_format_name(cp_arch_format f)
{
    switch (f) {
    case CP_ARCH_ELF: return "elf";
    case CP_ARCH_FATBIN: return "fatbin";
    case CP_ARCH_CUBIN: return "cubin";
    case CP_ARCH_PTX: return "ptx";
    case CP_ARCH_ARCHIVE: return "archive";
    }
    return "unknown";
}

/* See arch.h. */
const char *cp_code_name(const cp_code *c, char *buf, size_t cap)
{
    char v[2] = { c->variant, 0 };
    snprintf(buf, cap, "%s_%d%s", c->kind == CP_CODE_PTX ? "compute" : "sm", c->sm, v);
    return buf;
}
