/*
 * Private to src/lib/fatbin: the pieces of cp_arch_scan.
 *
 * elf.c finds the fatbin regions of a file (ELF sections, or the whole file
 * for a bare fatbin), fatbin.c walks the containers and entries in a region
 * and keeps the summary, ptx_isa.c knows which CUDA a PTX ISA needs and
 * judges what a GPU can run.  All offsets are file offsets; every byte is
 * read through cp_src_at, which refuses anything outside [0, len).
 */
#ifndef CP_FATBIN_INT_H
#define CP_FATBIN_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cuprobe/arch.h"

#define CP_FATBIN_MAGIC 0xBA55ED50u

/* Little-endian loads that need no alignment: the file is untrusted and
 * sections need not be aligned in it. */
static inline uint16_t cp_le16(const unsigned char *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t cp_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t cp_le64(const unsigned char *p)
{
    return (uint64_t)cp_le32(p) | (uint64_t)cp_le32(p + 4) << 32;
}

/* snprintf into err (NULL or 0 capacity allowed). */
void cp_fatbin_err(char *err, size_t errcap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Where the bytes come from: an image in memory (tests, fuzzing), or a file
 * read a window at a time.  A file is read, not mapped: with a warm page
 * cache the kernel maps 64 KB around every faulting header ("fault-around"),
 * which put 130 MB in the RSS of a 1 GB library with 2048 entries; pread of
 * the headers alone keeps it at the size of the window. */
#define CP_SRC_WINDOW 16384
typedef struct {
    const unsigned char *data;  /* the whole image, or NULL to read fd */
    int fd;
    uint64_t len;               /* bytes in the image or file */
    const char *name;           /* for messages: the path, or "<memory>" */
    uint64_t win_off;           /* file offset of win[0] */
    size_t win_len;             /* valid bytes in win */
    unsigned char win[CP_SRC_WINDOW];
} cp_src;

/* n bytes (n <= CP_SRC_WINDOW) at off: a pointer valid until the next call,
 * or NULL when [off, off + n) is not all inside the source or a read fails. */
const unsigned char *cp_src_at(cp_src *src, uint64_t off, size_t n);

/* Walk the back-to-back fatbin containers in [off, off + size) of src (the
 * caller has checked that range lies inside it) and add every entry to s.
 * what names the region in errors (".nv_fatbin").  Returns 0, or -1 with err
 * "'NAME': WHAT: ..." when a container or entry runs out of the region;
 * entries before that stay counted. */
int cp_fatbin_walk(cp_src *src, uint64_t off, uint64_t size, cp_arch_summary *s, const char *what,
                   char *err, size_t errcap);

/* Find the fatbin sections of an ELF file and walk each.  Returns 0 (no such
 * section is 0 with nothing added), or -1 with err. */
int cp_elf_scan(cp_src *src, cp_arch_summary *s, char *err, size_t errcap);

/* The oldest CUDA (1000 * major + 10 * minor) whose driver JIT-compiles PTX
 * of ISA major.minor (REFERENCE 5.3).  *known is false for an ISA newer
 * than the table, which is then guessed by the 9.x -> 13.x pattern. */
int64_t cp_ptx_isa_min_cuda(int major, int minor, int *known);

/* Run fn over the file at path as a cp_src (pread window on the heap).
 * Returns fn's result, or -1 with err naming the file when it cannot be
 * opened or is not a regular file. */
typedef int (*cp_src_fn)(cp_src *src, void *out, char *err, size_t errcap);
int cp_src_run_file(const char *path, cp_src_fn fn, void *out, char *err, size_t errcap);

#endif
