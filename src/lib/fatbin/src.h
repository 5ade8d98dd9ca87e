/*
 * Private to src/lib/fatbin: the byte source every reader of this folder
 * (fatbin.c, elf.c, elfdyn.c) reads through, the bottom of the folder.  It
 * calls nothing else here.
 *
 * All offsets are file offsets; every byte is read through cp_src_at, which
 * refuses anything outside [0, len).
 */
#ifndef CP_FATBIN_SRC_H
#define CP_FATBIN_SRC_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
    uint64_t base;              /* where offset 0 is in the image or file (a member of an
                                 * archive); 0 for the whole */
    uint64_t len;               /* bytes from base on */
    const char *name;           /* for messages: the path, or "<memory>" */
    uint64_t win_off;           /* offset of win[0] (from base); set win_len 0 when base moves */
    size_t win_len;             /* valid bytes in win */
    unsigned char win[CP_SRC_WINDOW];
} cp_src;

/* n bytes (n <= CP_SRC_WINDOW) at off: a pointer valid until the next call,
 * or NULL when [off, off + n) is not all inside the source or a read fails
 * (errno then says why; 0 for a short read). */
const unsigned char *cp_src_at(cp_src *src, uint64_t off, size_t n);

/* Copy n bytes at off into buf without moving the window: for a few bytes
 * far from the headers being walked (a section's name), which would
 * otherwise refill the window twice per header.  Returns 0, or -1 like
 * cp_src_at. */
int cp_src_copy(cp_src *src, uint64_t off, void *buf, size_t n);

/* The most section headers (and program headers) a file may have before it
 * is called damaged.  The ELF format allows 2^32 through extended
 * numbering, and a crafted sparse file of 2^24 empty sections took 31 s;
 * real shared libraries have under a hundred, and the objects arch meets
 * (nvcc -c, static archives) a few thousand. */
#define CP_ELF_MAX_SECTIONS (1u << 18)
#define CP_ELF_MAX_SEGMENTS (1u << 12)

/* Fill err with "'NAME': cannot read at 0xOFF: WHY" after cp_src_at failed.
 * Returns -1 (inline, so callers' flow analysis sees it). */
static inline int cp_src_read_failed(cp_src *src, uint64_t off, char *err, size_t errcap)
{
    cp_fatbin_err(err, errcap, "'%s': cannot read at 0x%llx: %s", src->name,
                  (unsigned long long)off, errno ? strerror(errno) : "short read");
    return -1;
}

/* Run fn over the file at path as a cp_src (pread window on the heap).
 * Returns fn's result, or -1 with err naming the file when it cannot be
 * opened or is not a regular file.  Opening never blocks: a FIFO or device
 * given as path is refused, not read. */
typedef int (*cp_src_fn)(cp_src *src, void *out, char *err, size_t errcap);
int cp_src_run_file(const char *path, cp_src_fn fn, void *out, char *err, size_t errcap);

#endif
