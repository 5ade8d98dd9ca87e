/* A crafted ELF for the tests that must stay fast on any input
 * (test_fatbin, test_explain). */
#ifndef CP_TEST_CRAFTED_ELF_H
#define CP_TEST_CRAFTED_ELF_H

#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* Write a crafted ELF to a sparse file: extended section numbering
 * (e_shnum 0, the count in section 0's sh_size) claiming nsec sections of
 * type `type` right after the header, the section-name table at index
 * strndx.  The file is as long as the table, so "sections x entsize within
 * the file" holds; it is sparse, so it costs no disk. */
static inline int crafted_elf(const char *path, uint64_t nsec, uint32_t type)
{
    unsigned char h[128];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    memset(h, 0, sizeof h);
    memcpy(h, "\177ELF\2\1\1", 7);
    h[16] = 1;                                   /* ET_REL */
    h[18] = 62;
    h[0x28] = 64;                                /* e_shoff */
    h[0x3a] = 64;                                /* e_shentsize; e_shnum stays 0 */
    h[0x3e] = 0xff; h[0x3f] = 0xff;              /* e_shstrndx = SHN_XINDEX: in section 0's sh_link */
    for (int i = 0; i < 8; i++) h[64 + 32 + i] = (unsigned char)(nsec >> (8 * i));   /* sh_size */
    h[64 + 40] = 2;                              /* sh_link: section 2 names the sections */
    int ok = pwrite(fd, h, sizeof h, 0) == (ssize_t)sizeof h;
    /* section 1 and 2: of `type`, section 2 a name table over the header */
    for (uint64_t i = 1; ok && i < 3; i++) {
        unsigned char sh[64];
        memset(sh, 0, sizeof sh);
        sh[4] = (unsigned char)type;
        sh[24] = 0; sh[32] = 64;                 /* sh_offset 0, sh_size 64 */
        if (i == 2) sh[4] = 3;
        ok = pwrite(fd, sh, sizeof sh, (off_t)(64 + 64 * i)) == (ssize_t)sizeof sh;
    }
    /* every later header: `type`, each naming a different offset of the name table */
    unsigned char blk[64 * 64];
    memset(blk, 0, sizeof blk);
    for (int i = 0; type && i < 64; i++) { blk[64 * i] = (unsigned char)i; blk[64 * i + 4] = (unsigned char)type; }
    for (uint64_t at = 64 + 64 * 3; ok && type && at + sizeof blk <= 64 + 64 * nsec && at < (64u << 20); at += sizeof blk)
        ok = pwrite(fd, blk, sizeof blk, (off_t)at) == (ssize_t)sizeof blk;
    ok = ok && ftruncate(fd, (off_t)(64 + 64 * nsec)) == 0;
    close(fd);
    return ok ? 0 : -1;
}

#endif
