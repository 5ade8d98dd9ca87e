/* cp_elf_dynamic: real libraries on this machine, the nvcc-built samples,
 * a hand-built image, every truncation of it, and garbage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "fatbin/elfdyn.h"

/* ------------------------------------------------------ image builder -- */

#define IMG_CAP 8192
static unsigned char img[IMG_CAP];
static size_t img_len;

static void put16(size_t off, uint64_t v) { for (int i = 0; i < 2; i++) img[off + i] = (unsigned char)(v >> (8 * i)); }
static void put32(size_t off, uint64_t v) { for (int i = 0; i < 4; i++) img[off + i] = (unsigned char)(v >> (8 * i)); }
static void put64(size_t off, uint64_t v) { for (int i = 0; i < 8; i++) img[off + i] = (unsigned char)(v >> (8 * i)); }

#define VBASE 0x400000u
#define PHOFF 64u
#define STROFF 0x100u
#define DYNOFF 0x180u
#define NDYN 6u
#define FULL_LEN 0x200u

static const char strtab[] = "\0libfoo.so.1\0libbar.so.2\0$ORIGIN/../lib";  /* + final NUL */
#define S_FOO 1u
#define S_BAR 13u
#define S_RUNPATH 25u

static void dyn(unsigned i, uint64_t tag, uint64_t val)
{
    put64(DYNOFF + 16 * i, tag);
    put64(DYNOFF + 16 * i + 8, val);
}

static void phdr(unsigned i, uint32_t type, uint64_t off, uint64_t vaddr, uint64_t filesz)
{
    size_t p = PHOFF + 56 * i;
    put32(p, type);
    put32(p + 4, 4);
    put64(p + 8, off);
    put64(p + 16, vaddr);
    put64(p + 24, vaddr);
    put64(p + 32, filesz);
    put64(p + 40, filesz);
    put64(p + 48, 8);
}

/* ELF64 LE ET_DYN, no section table: PT_LOAD maps the whole file at VBASE,
 * PT_DYNAMIC at DYNOFF.  DT_STRTAB comes after the first DT_NEEDED. */
static void build(void)
{
    memset(img, 0, sizeof img);
    memcpy(img, "\177ELF\2\1\1", 7);
    put16(16, 3);     /* ET_DYN */
    put16(18, 62);    /* EM_X86_64 */
    put32(20, 1);
    put64(0x20, PHOFF);
    put64(0x28, 0);   /* no sections */
    put16(0x34, 64);
    put16(0x36, 56);
    put16(0x38, 2);
    put16(0x3a, 64);
    phdr(0, 1, 0, VBASE, FULL_LEN);
    phdr(1, 2, DYNOFF, VBASE + DYNOFF, 16 * NDYN);
    memcpy(img + STROFF, strtab, sizeof strtab);
    dyn(0, 1, S_FOO);
    dyn(1, 5, VBASE + STROFF);
    dyn(2, 1, S_BAR);
    dyn(3, 10, sizeof strtab);
    dyn(4, 29, S_RUNPATH);
    dyn(5, 0, 0);
    img_len = FULL_LEN;
}

/* Run on an exact-size copy so ASan sees any over-read. */
static int scan(size_t len, cp_elf_dyn *d, char *err, size_t cap)
{
    unsigned char *buf = malloc(len ? len : 1);
    memcpy(buf, img, len);
    int rc = cp_elf_dynamic_bytes(buf, len, d, err, cap);
    free(buf);
    return rc;
}

/* ------------------------------------------------------------- tests -- */

static void test_image(void)
{
    build();
    cp_elf_dyn d;
    char err[256];
    CHECK_I64(scan(img_len, &d, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK_I64(d.nneeded, 2);
    CHECK_I64(d.needed_total, 2);
    CHECK_STR(d.needed[0], "libfoo.so.1");
    CHECK_STR(d.needed[1], "libbar.so.2");
    CHECK_STR(d.runpath, "$ORIGIN/../lib");
    CHECK_STR(d.rpath, "");
}

/* The same dynamic array found through a section table: SHT_DYNAMIC with
 * sh_link to the SHT_STRTAB, and DT_STRTAB pointing nowhere. */
static void test_sections(void)
{
    build();
    dyn(1, 5, 0xdead0000);
    dyn(3, 15, S_BAR);  /* DT_RPATH instead of DT_STRSZ */
    size_t sh = FULL_LEN;
    put64(0x28, sh);
    put16(0x3c, 3);
    put32(sh + 64 + 4, 3);
    put64(sh + 64 + 24, STROFF);
    put64(sh + 64 + 32, sizeof strtab);
    put32(sh + 128 + 4, 6);
    put64(sh + 128 + 24, DYNOFF);
    put64(sh + 128 + 32, 16 * NDYN);
    put32(sh + 128 + 40, 1);
    img_len = sh + 3 * 64;
    cp_elf_dyn d;
    char err[256];
    CHECK_I64(scan(img_len, &d, err, sizeof err), 0);
    CHECK_I64(d.nneeded, 2);
    CHECK_STR(d.needed[1], "libbar.so.2");
    CHECK_STR(d.runpath, "$ORIGIN/../lib");
    CHECK_STR(d.rpath, "libbar.so.2");
    /* without sh_link the unmapped DT_STRTAB is an error */
    put32(sh + 128 + 40, 0);
    CHECK_I64(scan(img_len, &d, err, sizeof err), -1);
    CHECK(strstr(err, "string table") != NULL);
}

/* Every prefix of the image returns cleanly: 0 or -1 with a message. */
static void test_truncations(void)
{
    build();
    for (size_t len = 0; len <= img_len; len++) {
        cp_elf_dyn d;
        char err[256];
        int rc = scan(len, &d, err, sizeof err);
        if (rc != 0) {
            CHECK_I64(rc, -1);
            CHECK(err[0] != '\0');
            CHECK(strncmp(err, "'<memory>': ", 12) == 0);
        } else {
            CHECK(len >= DYNOFF + 16 * NDYN);
            CHECK_I64(d.nneeded, 2);
        }
        if (len < 64) CHECK_I64(rc, -1);
    }
}

static void test_limits(void)
{
    cp_elf_dyn d;
    char err[256];
    /* 70 DT_NEEDED in a longer array: 64 kept, 70 counted; no DT_NULL */
    build();
    phdr(1, 2, 0x400, VBASE + 0x400, 16 * 70);
    for (unsigned i = 0; i < 70; i++) {
        put64(0x400 + 16 * i, i == 3 ? 5 : 1);
        put64(0x400 + 16 * i + 8, i == 3 ? VBASE + STROFF : S_FOO);
    }
    phdr(0, 1, 0, VBASE, 0x400 + 16 * 70);
    img_len = 0x400 + 16 * 70;
    CHECK_I64(scan(img_len, &d, err, sizeof err), 0);
    CHECK_I64(d.nneeded, 64);
    CHECK_I64(d.needed_total, 69);
    CHECK_STR(d.needed[63], "libfoo.so.1");

    /* a long unterminated string at the end of the table is cut */
    build();
    memset(img + STROFF + S_RUNPATH, 'x', 0x180 - STROFF - S_RUNPATH);
    dyn(3, 10, 0x80);
    CHECK_I64(scan(img_len, &d, err, sizeof err), 0);
    CHECK_I64((long long)strlen(d.runpath), 0x80 - S_RUNPATH);

    /* string offset past DT_STRSZ */
    build();
    dyn(2, 1, sizeof strtab);
    CHECK_I64(scan(img_len, &d, err, sizeof err), -1);
    CHECK(strstr(err, "DT_NEEDED") != NULL);

    /* DT_STRTAB outside every PT_LOAD */
    build();
    dyn(1, 5, VBASE + FULL_LEN);
    CHECK_I64(scan(img_len, &d, err, sizeof err), -1);

    /* PT_DYNAMIC past the end of the file */
    build();
    phdr(1, 2, DYNOFF, VBASE + DYNOFF, 0x1000);
    CHECK_I64(scan(img_len, &d, err, sizeof err), -1);

    /* no PT_DYNAMIC: a static file, 0 with nothing */
    build();
    put32(PHOFF + 56, 4);
    CHECK_I64(scan(img_len, &d, err, sizeof err), 0);
    CHECK_I64(d.needed_total, 0);
    CHECK_STR(d.runpath, "");
}

static void test_garbage(void)
{
    cp_elf_dyn d;
    char err[256];
    const char *want = "'<memory>': not an ELF64 little-endian file";
    CHECK_I64(cp_elf_dynamic_bytes(NULL, 0, &d, err, sizeof err), -1);
    CHECK_STR(err, want);
    build();
    img[4] = 1;  /* 32-bit */
    CHECK_I64(scan(img_len, &d, err, sizeof err), -1);
    CHECK_STR(err, want);
    build();
    img[5] = 2;  /* big-endian */
    CHECK_I64(scan(img_len, &d, err, sizeof err), -1);
    CHECK_STR(err, want);
    memset(img, 0, sizeof img);
    memcpy(img, "#!/bin/sh\necho hi\n", 18);
    CHECK_I64(scan(18, &d, err, sizeof err), -1);
    CHECK_STR(err, want);
    /* pseudo-random bytes behind a valid identification */
    uint32_t x = 12345;
    for (int round = 0; round < 2000; round++) {
        for (size_t i = 0; i < 1024; i++) {
            x = x * 1103515245u + 12345u;
            img[i] = (unsigned char)(x >> 16);
        }
        memcpy(img, "\177ELF\2\1", 6);
        if (round & 1) { put64(0x20, 64); put16(0x36, 56); put16(0x38, 8); }
        int rc = scan(1024, &d, err, sizeof err);
        CHECK(rc == 0 || (rc == -1 && err[0]));
        CHECK(d.nneeded >= 0 && d.nneeded <= CP_ELF_MAX_NEEDED);
    }
    CHECK_I64(cp_elf_dynamic("/nonexistent/libx.so", &d, err, sizeof err), -1);
    CHECK(strstr(err, "/nonexistent/libx.so") != NULL);
    CHECK_I64(cp_elf_dynamic("/", &d, err, sizeof err), -1);
}

/* --------------------------------------------------------- real files -- */

static void test_cublas(void)
{
    const char *path = "/usr/local/cuda/lib64/libcublas.so.13";
    if (access(path, R_OK) != 0) {
        fprintf(stderr, "  skip: no %s\n", path);
        return;
    }
    static const char *want[] = { "libcublasLt.so.13", "librt.so.1", "libpthread.so.0",
                                  "libdl.so.2", "libm.so.6", "libgcc_s.so.1", "libc.so.6",
                                  "ld-linux-x86-64.so.2" };
    cp_elf_dyn d;
    char err[256];
    CHECK_I64(cp_elf_dynamic(path, &d, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK_I64(d.nneeded, 8);
    CHECK_I64(d.needed_total, 8);
    for (int i = 0; i < 8 && i < d.nneeded; i++)
        CHECK_STR(d.needed[i], want[i]);
    CHECK_STR(d.runpath, "$ORIGIN");
    CHECK_STR(d.rpath, "");
}

static void test_samples(void)
{
    static const char *files[] = { "multi.so", "multi-lz4.so", "multi-none.so", "multi-zstd.so",
                                   "ptx80.so", "sm100.so", "sm100f.so", "sm90.so", "sm90a.so" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/fatbin-samples/%s", files[i]);
        if (access(path, R_OK) != 0) {
            fprintf(stderr, "  skip: no %s\n", path);
            continue;
        }
        cp_elf_dyn d;
        char err[256];
        CHECK_I64(cp_elf_dynamic(path, &d, err, sizeof err), 0);
        CHECK_I64(d.nneeded, 3);
        CHECK_STR(d.needed[0], "libstdc++.so.6");
        CHECK_STR(d.needed[1], "libgcc_s.so.1");
        CHECK_STR(d.needed[2], "libc.so.6");
        CHECK_STR(d.runpath, "");
        CHECK_STR(d.rpath, "");
    }
    /* a relocatable object has no dynamic section */
    cp_elf_dyn d;
    char err[256];
    if (access("tests/fatbin-samples/rdc80.obj", R_OK) == 0) {
        CHECK_I64(cp_elf_dynamic("tests/fatbin-samples/rdc80.obj", &d, err, sizeof err), 0);
        CHECK_I64(d.needed_total, 0);
    }
    if (access("tests/fatbin-samples/bare.fatbin", R_OK) == 0) {
        CHECK_I64(cp_elf_dynamic("tests/fatbin-samples/bare.fatbin", &d, err, sizeof err), -1);
        CHECK_STR(err, "'tests/fatbin-samples/bare.fatbin': not an ELF64 little-endian file");
    }
}

int main(void)
{
    RUN(test_image);
    RUN(test_sections);
    RUN(test_truncations);
    RUN(test_limits);
    RUN(test_garbage);
    RUN(test_cublas);
    RUN(test_samples);
    return TEST_END();
}
