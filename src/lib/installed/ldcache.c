/*
 * Parser of glibc's /etc/ld.so.cache, the table the dynamic loader consults
 * for a soname after LD_LIBRARY_PATH.  Pure: bytes in, callbacks out.
 *
 * Layout (glibc elf/cache.c, native byte order):
 *
 *   [optional old header]  "ld.so-1.7.0" (11 bytes) + pad to 12, u32 nlibs,
 *                          then nlibs entries {i32 flags, u32 key, u32 value}
 *   new header (48 bytes)  "glibc-ld.so.cache" "1.1", u32 nlibs,
 *                          u32 len_strings, u8 flags, 3 pad, u32 ext_offset,
 *                          u32 unused[3]
 *   entries (24 bytes)     i32 flags, u32 key, u32 value, u32 osversion,
 *                          u64 hwcap
 *   strings
 *
 * With an old header the new one starts at the next 8-byte boundary after
 * the old entries.  key and value are offsets from the start of the new
 * header to NUL-terminated strings (soname, path).
 */
#include <stdint.h>
#include <string.h>

#include "host/host.h"
#include "installed/installed.h"

#define OLD_MAGIC "ld.so-1.7.0"
#define OLD_MAGIC_LEN 11
#define OLD_HEADER 16          /* magic padded to 12, then u32 nlibs */
#define OLD_ENTRY 12
#define NEW_MAGIC "glibc-ld.so.cache"
#define NEW_MAGIC_LEN 17
#define NEW_VERSION "1.1"
#define NEW_HEADER 48
#define NEW_ENTRY 24

#define FLAG_TYPE_MASK 0x00ff
#define FLAG_ELF_LIBC6 0x0003
#define FLAG_REQUIRED_MASK 0xff00
/* The loader only uses entries of its own ABI; a cache on a multilib system
 * also lists i386 (required 0) and x32 entries. */
#if defined(__aarch64__)
#define FLAG_THIS_ABI 0x0a00   /* FLAG_AARCH64_LIB64 */
#else
#define FLAG_THIS_ABI 0x0300   /* FLAG_X8664_LIB64 */
#endif

static uint32_t load_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);   /* the cache is native-endian and may be unaligned in a buffer */
    return v;
}

/* The string at base+off, or NULL when off is outside [0, size) or the
 * string has no NUL before the end. */
static const char *string_at(const unsigned char *base, size_t size, uint32_t off)
{
    if (off >= size)
        return NULL;
    if (!memchr(base + off, '\0', size - off))
        return NULL;
    return (const char *)(base + off);
}

/* Offset of the new-format header in the file, or -1 when there is none. */
static long find_new_header(const unsigned char *data, size_t len)
{
    if (len >= NEW_MAGIC_LEN && memcmp(data, NEW_MAGIC, NEW_MAGIC_LEN) == 0)
        return 0;
    if (len < OLD_HEADER || memcmp(data, OLD_MAGIC, OLD_MAGIC_LEN) != 0)
        return -1;
    uint64_t nold = load_u32(data + 12);
    /* 64-bit arithmetic: nold * 12 cannot overflow, and the sum is checked
     * against len before it is used. */
    uint64_t off = OLD_HEADER + nold * OLD_ENTRY;
    off = (off + 7) & ~(uint64_t)7;
    if (off > len || len - off < NEW_MAGIC_LEN)
        return -1;
    if (memcmp(data + off, NEW_MAGIC, NEW_MAGIC_LEN) != 0)
        return -1;
    return (long)off;
}

/* Walk the x86-64 (this ABI's) entries of an ld.so.cache image; cb may
 * return non-zero to stop.  Entries with bad offsets are skipped.  Returns
 * the number of entries passed to cb, or -1 when the image has no valid
 * new-format header or its entry table does not fit. */
int cp_parse_ldcache(const unsigned char *data, size_t len, cp_ldcache_cb cb, void *arg)
{
    if (!data)
        return -1;
    long hoff = find_new_header(data, len);
    if (hoff < 0)
        return -1;
    const unsigned char *base = data + hoff;
    size_t size = len - (size_t)hoff;
    if (size < NEW_HEADER || memcmp(base + NEW_MAGIC_LEN, NEW_VERSION, 3) != 0)
        return -1;
    uint32_t nlibs = load_u32(base + 20);
    if (nlibs > (size - NEW_HEADER) / NEW_ENTRY)
        return -1;

    int seen = 0;
    for (uint32_t i = 0; i < nlibs; i++) {
        const unsigned char *e = base + NEW_HEADER + (size_t)i * NEW_ENTRY;
        uint32_t flags = load_u32(e);
        if ((flags & FLAG_TYPE_MASK) != FLAG_ELF_LIBC6 ||
            (flags & FLAG_REQUIRED_MASK) != FLAG_THIS_ABI)
            continue;
        const char *soname = string_at(base, size, load_u32(e + 4));
        const char *path = string_at(base, size, load_u32(e + 8));
        if (!soname || !path)
            continue;
        if (seen == INT32_MAX)
            break;
        seen++;
        if (cb && cb(soname, path, arg) != 0)
            break;
    }
    return seen;
}
