/* cp_arch_scan: hand-built images, every truncation, the verdict rules and
 * the samples nvcc built (tests/fatbin-samples). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include "test.h"
#include "arch_describe.h"
#include "crafted_elf.h"
#include "cuprobe/arch.h"
#include "fatbin/elfdyn.h"

/* The bound of the crafted-file tests: a reader without the section caps
 * took 48-65 s on them; a capped one takes well under a second, and 10 s
 * leaves room for the sanitizer build on a busy machine (1.01 s was seen
 * there with three other jobs running: a wall-clock bound must not flake). */
#define SLOW_S 10.0

/* ------------------------------------------------------ image builder -- */

static unsigned char img[4096];
static size_t img_len;

static void put16(size_t off, uint64_t v) { for (int i = 0; i < 2; i++) img[off + i] = (unsigned char)(v >> (8 * i)); }
static void put32(size_t off, uint64_t v) { for (int i = 0; i < 4; i++) img[off + i] = (unsigned char)(v >> (8 * i)); }
static void put64(size_t off, uint64_t v) { for (int i = 0; i < 8; i++) img[off + i] = (unsigned char)(v >> (8 * i)); }

/* One entry at off: kind 1 PTX / 2 ELF; returns the offset after it. */
static size_t entry(size_t off, int kind, uint32_t hsz, uint64_t payload, int vmaj, int vmin,
                    uint32_t arch, uint64_t flags)
{
    put16(off, (uint64_t)kind);
    put16(off + 2, 0x0101);
    put32(off + 4, hsz);
    put64(off + 8, payload);
    if (flags & 0xA000) { put32(off + 16, (uint32_t)payload - 4); put64(off + 56, payload * 3); }
    put16(off + 24, (uint64_t)vmin);
    put16(off + 26, (uint64_t)vmaj);
    put32(off + 28, arch);
    put64(off + 40, flags);
    return off + hsz + payload;
}

static void container(size_t off, size_t end)
{
    put32(off, 0xBA55ED50);
    put16(off + 4, 1);
    put16(off + 6, 16);
    put64(off + 8, end - off - 16);
}

/* The fatbin data: container 1 {sm_90, sm_90a}, container 2 {compute_120
 * PTX 8.8 zstd, sm_100f with the 112-byte header}.  Returns its length. */
static size_t fatbin_at(size_t base)
{
    size_t e = entry(base + 16, 2, 64, 16, 1, 8, 90, 0x11);
    e = entry(e, 2, 64, 8, 1, 8, 90, 0x11 | 0x100000);
    container(base, e);
    size_t c2 = e;
    e = entry(c2 + 16, 1, 80, 24, 8, 8, 120, 0x11 | 0x8000);
    e = entry(e, 2, 112, 32, 1, 8, 100, 0x11 | 0x200000 | 0x1000000);
    container(c2, e);
    return e - base;
}

/* ELF64 LE: [0] null, [1] .shstrtab, [2] .text, [3] .nv_fatbin. */
static void build_elf(void)
{
    static const char names[] = "\0.shstrtab\0.text\0.nv_fatbin\0";
    memset(img, 0, sizeof img);
    memcpy(img, "\177ELF\2\1\1", 7);
    put16(16, 3);
    put16(18, 62);
    size_t strs = 64, fb = 128;
    memcpy(img + strs, names, sizeof names);
    size_t fblen = fatbin_at(fb);
    size_t sh = (fb + fblen + 7) & ~(size_t)7;
    put64(0x28, sh);
    put16(0x34, 64);
    put16(0x3a, 64);
    put16(0x3c, 4);
    put16(0x3e, 1);
    size_t h = sh + 64;
    put32(h, 1); put32(h + 4, 3); put64(h + 24, strs); put64(h + 32, sizeof names);
    h += 64;
    put32(h, 11); put32(h + 4, 1); put64(h + 24, 64); put64(h + 32, 16);
    h += 64;
    put32(h, 17); put32(h + 4, 1); put64(h + 24, fb); put64(h + 32, fblen);
    img_len = h + 64;
}

/* ------------------------------------------------------------- tests -- */

static void test_hand_built_elf(void)
{
    build_elf();
    cp_arch_summary s;
    char err[256];
    CHECK_I64(cp_arch_scan_bytes(img, img_len, &s, err, sizeof err), 0);
    CHECK(s.is_elf);
    CHECK_I64(s.containers, 2);
    CHECK_I64(s.entries, 4);
    CHECK_I64(s.unknown_entries, 0);
    CHECK_STR(describe(&s), "sm_90 sm_90a sm_100f compute_120(8.8)z1");
    CHECK_I64(s.codes[0].bytes, 16);
    CHECK_I64(s.codes[3].bytes, 24);
}

static void test_bare_fatbin(void)
{
    memset(img, 0, sizeof img);
    size_t n = fatbin_at(0);
    cp_arch_summary s;
    char err[256];
    CHECK_I64(cp_arch_scan_bytes(img, n, &s, err, sizeof err), 0);
    CHECK(!s.is_elf);
    CHECK_STR(describe(&s), "sm_90 sm_90a sm_100f compute_120(8.8)z1");
}

/* Every prefix must come back cleanly (ASan watches the reads): the copy is
 * exactly len bytes so any over-read is caught. */
static void test_every_truncation(void)
{
    build_elf();
    char err[256];
    int ok = 0;
    for (size_t len = 0; len <= img_len; len++) {
        unsigned char *p = malloc(len ? len : 1);
        memcpy(p, img, len);
        cp_arch_summary s;
        int rc = cp_arch_scan_bytes(p, len, &s, err, sizeof err);
        CHECK(rc == 0 || rc == -1);
        CHECK(rc == 0 || err[0] != '\0');
        ok += rc == 0;
        free(p);
    }
    CHECK_I64(ok, 1);  /* the section table is last: only the whole image is 0 */
    memset(img, 0, sizeof img);
    size_t n = fatbin_at(0);
    for (size_t len = 0; len <= n; len++) {
        unsigned char *p = malloc(len ? len : 1);
        memcpy(p, img, len);
        cp_arch_summary s;
        int rc = cp_arch_scan_bytes(p, len, &s, err, sizeof err);
        CHECK(rc == 0 || rc == -1);
        CHECK(s.entries <= 4);
        free(p);
    }
}

static void test_errors(void)
{
    cp_arch_summary s;
    char err[256];
    CHECK_I64(cp_arch_scan_bytes((const unsigned char *)"hello world", 11, &s, err, sizeof err), -1);
    CHECK_STR(err, "'<memory>': not an ELF file, fatbin, PTX or archive");
    build_elf();
    img[4] = 1;
    CHECK_I64(cp_arch_scan_bytes(img, img_len, &s, err, sizeof err), -1);
    CHECK_STR(err, "'<memory>': 32-bit ELF files are unsupported");
    build_elf();
    img[5] = 2;
    CHECK_I64(cp_arch_scan_bytes(img, img_len, &s, err, sizeof err), -1);
    CHECK_STR(err, "'<memory>': big-endian ELF files are unsupported");
    /* an entry claiming a huge payload, and one with a zero header size */
    build_elf();
    put64(128 + 16 + 8, UINT64_MAX - 3);
    CHECK_I64(cp_arch_scan_bytes(img, img_len, &s, err, sizeof err), -1);
    CHECK(strstr(err, "runs past its container") != NULL);
    build_elf();
    put32(128 + 16 + 4, 0);
    CHECK_I64(cp_arch_scan_bytes(img, img_len, &s, err, sizeof err), -1);
    CHECK(strstr(err, "bad header size") != NULL);
    /* a container of size 0 repeated: must move on, not loop */
    memset(img, 0, sizeof img);
    for (size_t o = 0; o + 16 <= sizeof img; o += 16) { put32(o, 0xBA55ED50); put16(o + 6, 16); }
    CHECK_I64(cp_arch_scan_bytes(img, sizeof img, &s, err, sizeof err), 0);
    CHECK_I64(s.containers, (int64_t)(sizeof img / 16));
    CHECK_I64(s.entries, 0);
    CHECK_I64(cp_arch_scan("/nonexistent/x.so", &s, err, sizeof err), -1);
    CHECK_STR(err, "cannot open '/nonexistent/x.so': No such file or directory");
    CHECK_I64(cp_arch_scan("tests", &s, err, sizeof err), -1);
    CHECK_STR(err, "'tests': a folder, not a regular file");
}

/* A summary holding exactly the codes named in spec ("sm_90 compute_80:9.0"). */
static cp_arch_summary codes(const char *spec)
{
    cp_arch_summary s;
    memset(&s, 0, sizeof s);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        cp_code *c = &s.codes[s.ncodes++];
        c->count = 1;
        int ptx = strncmp(t, "compute_", 8) == 0;
        char *p = t + (ptx ? 8 : 3), *end;
        c->kind = ptx ? CP_CODE_PTX : CP_CODE_SASS;
        c->sm = (int)strtol(p, &end, 10);
        if (*end == 'a' || *end == 'f') c->variant = *end++;
        if (ptx && *end == ':') sscanf(end + 1, "%d.%d", &c->ptx_major, &c->ptx_minor);
    }
    return s;
}

static cp_run_verdict judge(const char *spec, int maj, int min, int64_t drv)
{
    cp_arch_summary s = codes(spec);
    char why[256];
    cp_run_verdict v = cp_arch_verdict(&s, maj, min, drv, why, sizeof why);
    CHECK(why[0] != '\0');
    return v;
}

static void test_verdicts(void)
{
    CHECK_I64(judge("sm_90", 9, 0, 13000), CP_RUN_NATIVE);
    CHECK_I64(judge("sm_86", 8, 9, 13000), CP_RUN_NATIVE);
    CHECK_I64(judge("sm_86", 8, 0, 13000), CP_RUN_CANNOT);
    CHECK_I64(judge("sm_90a", 9, 0, 13000), CP_RUN_NATIVE);
    CHECK_I64(judge("sm_90a", 10, 0, 13000), CP_RUN_CANNOT);
    CHECK_I64(judge("sm_100a", 10, 3, 13000), CP_RUN_CANNOT);
    CHECK_I64(judge("sm_100f", 10, 3, 13000), CP_RUN_NATIVE);
    CHECK_I64(judge("sm_100f", 12, 0, 13000), CP_RUN_CANNOT);
    CHECK_I64(judge("compute_80:9.0", 9, 0, 13000), CP_RUN_PTX_JIT);
    CHECK_I64(judge("compute_80:9.0", 7, 5, 13000), CP_RUN_CANNOT);
    CHECK_I64(judge("compute_90a:9.0", 10, 0, 13000), CP_RUN_CANNOT);
    CHECK_I64(judge("sm_100", 9, 0, 13000), CP_RUN_CANNOT);
    CHECK_I64(judge("compute_90:9.0", 9, 0, 12090), CP_RUN_CANNOT);
    CHECK_I64(judge("compute_90:9.0", 9, 0, 13000), CP_RUN_PTX_JIT);
    CHECK_I64(judge("compute_90:9.0", 9, 0, 0), CP_RUN_PTX_JIT);   /* driver unknown */
    CHECK_I64(judge("compute_80:8.6", 9, 0, 12060), CP_RUN_CANNOT); /* the "12.7" ISA */
    CHECK_I64(judge("compute_80:8.6", 9, 0, 12080), CP_RUN_PTX_JIT);
    CHECK_I64(judge("sm_75 compute_120:8.8", 9, 0, 13000), CP_RUN_CANNOT);
    CHECK_I64(judge("sm_75 compute_120:8.8", 12, 1, 13000), CP_RUN_PTX_JIT);
    CHECK_I64(judge("", 9, 0, 13000), CP_RUN_NO_GPU_CODE);

    cp_arch_summary s = codes("sm_80 sm_90 compute_90:9.0");
    char why[256];
    CHECK_I64(cp_arch_verdict(&s, 9, 0, 13000, why, sizeof why), CP_RUN_NATIVE);
    CHECK_STR(why, "sm_90 SASS runs natively on CC 9.0");
    CHECK_I64(cp_arch_verdict(&s, 12, 0, 12090, why, sizeof why), CP_RUN_CANNOT);
    CHECK_STR(why, "no SASS for CC 12.0 and compute_90 is PTX 9.0, which needs a CUDA 13.0 driver; "
                   "this one supports 12.9 (CUDA_ERROR_UNSUPPORTED_PTX_VERSION)");
    CHECK_I64(cp_arch_verdict(&s, 12, 0, 13000, why, sizeof why), CP_RUN_PTX_JIT);
    CHECK_STR(why, "no SASS for CC 12.0: the driver JIT-compiles compute_90 (PTX 9.0) at first load");
    s = codes("sm_100");
    CHECK_I64(cp_arch_verdict(&s, 9, 0, 13000, why, sizeof why), CP_RUN_CANNOT);
    CHECK_STR(why, "no SASS for CC 9.0 (the file has sm_100) and no PTX that can target it");
    /* libtorch's shape: sm_90 in 444 containers, sm_90a in 4: the plain one decides */
    s = codes("sm_80 sm_90 sm_90a");
    s.codes[1].count = 444;
    s.codes[2].count = 4;
    CHECK_I64(cp_arch_verdict(&s, 9, 0, 13000, why, sizeof why), CP_RUN_NATIVE);
    CHECK_STR(why, "sm_90 SASS runs natively on CC 9.0");
    CHECK_STR(cp_run_verdict_name(CP_RUN_PTX_JIT), "PTX JIT");
    CHECK_STR(cp_run_verdict_name(CP_RUN_CANNOT), "cannot run");
}

/* The file reader (a 16 KB window) must see what the in-memory reader sees,
 * across window edges: 300 copies of the two containers, about 100 KB. */
static void test_file_matches_memory(void)
{
    memset(img, 0, sizeof img);
    size_t n = fatbin_at(0);
    char path[] = "/tmp/cp_fatbin_file_XXXXXX", err[256];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    for (int i = 0; i < 300; i++)
        CHECK_I64(write(fd, img, n), (long long)n);
    close(fd);
    cp_arch_summary s;
    CHECK_I64(cp_arch_scan(path, &s, err, sizeof err), 0);
    CHECK_I64(s.containers, 600);
    CHECK_STR(describe(&s), "sm_90x300 sm_90ax300 sm_100fx300 compute_120(8.8)x300z300");
    unlink(path);
}

/* What nvcc 13.0 put into each sample (make-samples.sh). */
static const struct { const char *file, *want; } samples[] = {
    { "sm90.so", "sm_90" },
    { "ptx80.so", "compute_80(9.0)z1" },
    { "sm100.so", "sm_100" },
    { "sm90a.so", "sm_90a" },
    { "sm100f.so", "sm_100f" },
    { "multi.so", "sm_75 sm_80 sm_90 compute_90(9.0)z1" },
    { "multi-zstd.so", "sm_75z1 sm_80z1 sm_90z1 compute_90(9.0)z1" },
    { "multi-lz4.so", "sm_80z1 compute_90(9.0)z1" },
    { "multi-none.so", "sm_80 compute_90(9.0)" },
    { "rdc80.obj", "sm_80z1" },  /* -rdc cubins are zstd-compressed by default */
    { "bare.fatbin", "sm_90 compute_90(9.0)z1" },
    /* cuFFT's layout: .nv_fatbin has sm_75 only, the rest is in .ldata */
    { "ldata.so", "sm_75 sm_80 sm_90x2 compute_90(9.0)z1" },
    /* a cubin, PTX text and an archive used to be "no GPU code" / "not an ELF file" */
    { "sm90.cubin", "sm_90" },
    { "sm90.ptx", "compute_90(9.0)" },
    { "objs.a", "sm_80 compute_90(9.0)z1" },
};

static void test_samples(void)
{
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        char path[256], err[256];
        snprintf(path, sizeof path, "tests/fatbin-samples/%s", samples[i].file);
        cp_arch_summary s;
        int rc = cp_arch_scan(path, &s, err, sizeof err);
        if (rc != 0) fprintf(stderr, "  %s\n", err);
        CHECK_I64(rc, 0);
        if (strcmp(describe(&s), samples[i].want) != 0)
            fprintf(stderr, "  %s:\n", samples[i].file);
        CHECK_STR(describe(&s), samples[i].want);
        CHECK_I64(s.unknown_entries, 0);
        CHECK(s.containers >= 1);
    }
}

/* Where nvcc is installed, build sm90.so again and expect the same codes:
 * the checked-in samples still say what the toolkit writes. */
static void test_rebuild_with_nvcc(void)
{
    const char *nvcc = "/usr/local/cuda/bin/nvcc";
    if (access(nvcc, X_OK) != 0 || getenv("CP_TEST_NO_NVCC")) {
        fprintf(stderr, "  skip: no %s\n", nvcc);
        return;
    }
    char dir[] = "/tmp/cp_fatbin_XXXXXX", cmd[512], path[300], err[256];
    if (!mkdtemp(dir)) return;
    snprintf(cmd, sizeof cmd, "%s -shared -Xcompiler -fPIC -cudart none -Xlinker -s "
             "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80 "
             "-o %s/k.so tests/fatbin-samples/k.cu >/dev/null 2>&1", nvcc, dir);
    int rc = system(cmd);
    snprintf(path, sizeof path, "%s/k.so", dir);
    if (rc == 0) {
        cp_arch_summary s;
        CHECK_I64(cp_arch_scan(path, &s, err, sizeof err), 0);
        CHECK_STR(describe(&s), "sm_90 compute_80(9.0)z1");
    } else {
        fprintf(stderr, "  skip: nvcc failed\n");
    }
    unlink(path);
    rmdir(dir);
}

/* cuFFT keeps its kernels in .ldata, found through relocations: the file
 * said "cannot run" on sm_90 from its one .nv_fatbin module (sm_75).  Now
 * every module is found and the verdict follows their coverage. */
static void test_coverage(void)
{
    cp_arch_summary s;
    cp_arch_cover c;
    char err[256], why[768];
    CHECK_I64(cp_arch_scan("tests/fatbin-samples/ldata.so", &s, err, sizeof err), 0);
    CHECK_I64(s.containers, 5);
    CHECK_I64(s.referenced, 4);          /* 3 pointed at, 1 right after one of them */
    CHECK_I64(s.lto_entries, 1);
    CHECK_I64(s.unknown_entries, 0);
    CHECK_I64(cp_arch_judge(&s, 9, 0, 0, &c, why, sizeof why), CP_RUN_PARTLY);
    CHECK_I64(c.total, 4);               /* the LTO IR module is not counted */
    CHECK_I64(c.native, 2);
    CHECK_I64(c.jit, 0);
    CHECK_I64(c.none, 2);
    CHECK(strstr(why, "in 2 of 4 modules") != NULL);
    CHECK(strstr(why, "carry only sm_75 sm_80") != NULL);
    CHECK_STR(cp_run_verdict_name(CP_RUN_PARTLY), "runs only partly");
    /* the file as a whole (what explain --check asks): sm_90 is there */
    CHECK_I64(cp_arch_verdict(&s, 9, 0, 0, why, sizeof why), CP_RUN_NATIVE);
    /* CC 10.0: only compute_90 reaches it, by JIT; CC 8.6: sm_80 */
    CHECK_I64(cp_arch_judge(&s, 10, 0, 0, &c, why, sizeof why), CP_RUN_PARTLY);
    CHECK_I64(c.jit, 1);
    CHECK_I64(c.native, 0);
    /* CC 5.0: nothing runs: "cannot run", not partly */
    CHECK_I64(cp_arch_judge(&s, 5, 0, 0, &c, why, sizeof why), CP_RUN_CANNOT);
    CHECK_I64(c.none, 4);
    /* one module, or every module covered: the plain verdict */
    CHECK_I64(cp_arch_scan("tests/fatbin-samples/multi.so", &s, err, sizeof err), 0);
    CHECK_I64(cp_arch_judge(&s, 9, 0, 0, &c, why, sizeof why), CP_RUN_NATIVE);
    CHECK_I64(c.total, 1);
    CHECK_I64(c.native, 1);
}

/* The formats beside ELF files with fatbins, each once; the archive's
 * damage at every cut. */
static void test_formats(void)
{
    cp_arch_summary s;
    char err[256];
    CHECK_I64(cp_arch_scan("tests/fatbin-samples/sm90.cubin", &s, err, sizeof err), 0);
    CHECK_I64(s.format, CP_ARCH_CUBIN);
    CHECK_I64(s.containers, 1);
    CHECK_I64(cp_arch_scan("tests/fatbin-samples/sm90.ptx", &s, err, sizeof err), 0);
    CHECK_I64(s.format, CP_ARCH_PTX);
    CHECK_I64(s.codes[0].ptx_major * 10 + s.codes[0].ptx_minor, 90);
    CHECK_I64(cp_arch_scan("tests/fatbin-samples/objs.a", &s, err, sizeof err), 0);
    CHECK_I64(s.format, CP_ARCH_ARCHIVE);
    CHECK_I64(s.members, 1);              /* notes.txt is passed over */
    CHECK_STR(cp_arch_format_name(s.format), "archive");
    /* PTX heads: comments first, variants; text that is not PTX */
    static const char *const ptx[] = {
        "//\n// Generated\n\n.version 8.8\n.target sm_100a\n", "  .version 7.0\n\t.target sm_75, debug\n",
    };
    CHECK_I64(cp_arch_scan_bytes((const unsigned char *)ptx[0], strlen(ptx[0]), &s, err, sizeof err), 0);
    CHECK_STR(describe(&s), "compute_100a(8.8)");
    CHECK_I64(cp_arch_scan_bytes((const unsigned char *)ptx[1], strlen(ptx[1]), &s, err, sizeof err), 0);
    CHECK_STR(describe(&s), "compute_75(7.0)");
    static const char *const not_ptx[] = {
        "hello\n.version 8.8\n.target sm_90\n", ".version 8.8\n", ".version x\n.target sm_90\n",
        ".version 8.8\n.target compute_90\n", "",
    };
    for (size_t i = 0; i < sizeof not_ptx / sizeof not_ptx[0]; i++)
        CHECK_I64(cp_arch_scan_bytes((const unsigned char *)not_ptx[i], strlen(not_ptx[i]), &s, err, sizeof err), -1);
    /* the archive cut at every length: an error or fewer codes, never a
     * read outside it (ASan), never a hang */
    static unsigned char a[16384];
    FILE *f = fopen("tests/fatbin-samples/objs.a", "rb");
    size_t n = f ? fread(a, 1, sizeof a, f) : 0;
    if (f) fclose(f);
    CHECK(n > 1000 && n < sizeof a);
    for (size_t cut = 0; cut < n; cut++) {
        int rc = cp_arch_scan_bytes(a, cut, &s, err, sizeof err);
        CHECK(rc == -1 || s.entries <= 2);
    }
    /* a member's size running past the end */
    a[8 + 48] = '9';
    CHECK_I64(cp_arch_scan_bytes(a, n, &s, err, sizeof err), -1);
}

/* The real cuFFT where the toolkit is installed: 23948 modules, not 1. */
static void test_real_cufft(void)
{
    const char *lib = "/usr/local/cuda/lib64/libcufft.so.12";
    cp_arch_summary s;
    cp_arch_cover c;
    char err[256], why[768];
    if (access(lib, R_OK) != 0) { fprintf(stderr, "  skip: no %s\n", lib); return; }
    CHECK_I64(cp_arch_scan(lib, &s, err, sizeof err), 0);
    CHECK(s.containers > 1000);
    CHECK(s.referenced > 1000);
    cp_run_verdict v = cp_arch_judge(&s, 9, 0, 0, &c, why, sizeof why);
    CHECK(v == CP_RUN_NATIVE || v == CP_RUN_PARTLY);
    CHECK(c.native > 0);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* arch on a crafted ELF of 2^24 sections took 31 s (and explain --check
 * paid the same for a traceback naming it): the work is bounded by what a
 * real file holds, well under a second for any input, and the file is
 * reported as damaged. */
static void test_huge_section_count(void)
{
    char path[] = "/tmp/cp_fatbin_huge_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) { CHECK(0); return; }
    close(fd);
    /* SHT_NULL (a sparse hole), SHT_PROGBITS; then just under the cap,
     * every section PROGBITS with its own name: read, and still fast */
    static const uint32_t types[] = { 0, 1, 1 };
    static const uint64_t counts[] = { 1u << 24, 1u << 24, (1u << 18) - 1 };
    for (size_t k = 0; k < 3; k++) {
        if (crafted_elf(path, counts[k], types[k]) != 0) {
            fprintf(stderr, "  skip: cannot write a sparse file in /tmp\n");
            break;
        }
        cp_arch_summary s;
        cp_elf_dyn d;
        char err[512] = "";
        double t0 = now_s();
        int rc = cp_arch_scan(path, &s, err, sizeof err);
        double t1 = now_s();
        CHECK_I64(rc, k < 2 ? -1 : 0);
        CHECK(k == 2 || strstr(err, "sections, more than a real binary holds") != NULL);
        if (t1 - t0 >= SLOW_S) fprintf(stderr, "  cp_arch_scan took %.2f s (type %u)\n", t1 - t0, types[k]);
        CHECK(t1 - t0 < SLOW_S);
        t0 = now_s();
        (void)cp_elf_dynamic(path, &d, err, sizeof err);
        t1 = now_s();
        if (t1 - t0 >= SLOW_S) fprintf(stderr, "  cp_elf_dynamic took %.2f s (type %u)\n", t1 - t0, types[k]);
        CHECK(t1 - t0 < SLOW_S);
    }
    unlink(path);
}

/* A crafted library of 2^20 RELATIVE relocations, each into its own 8
 * bytes of data, one of them at a container: the relocation pass looks in
 * file order (one read a window, not one a relocation), so it stays well
 * under a second, and finds the one. */
static void test_many_relocations(void)
{
    const uint64_t nrel = 1u << 20, data_len = 8 * nrel + 4096;
    const uint64_t phoff = 64, rela = 4096, data = rela + 24 * nrel, sh = data + data_len;
    const uint64_t len = sh + 4 * 64;
    unsigned char *b = calloc(1, len);
    if (!b) { CHECK(b); return; }
    static const char names[] = "\0.shstrtab\0.rela.dyn\0.data\0";
    memcpy(b, "\177ELF\2\1\1", 7);
    b[16] = 3; b[18] = 62;
#define P16(o, v) do { for (int i_ = 0; i_ < 2; i_++) b[(o) + i_] = (unsigned char)((uint64_t)(v) >> (8 * i_)); } while (0)
#define P32(o, v) do { for (int i_ = 0; i_ < 4; i_++) b[(o) + i_] = (unsigned char)((uint64_t)(v) >> (8 * i_)); } while (0)
#define P64(o, v) do { for (int i_ = 0; i_ < 8; i_++) b[(o) + i_] = (unsigned char)((uint64_t)(v) >> (8 * i_)); } while (0)
    P64(0x20, phoff); P64(0x28, sh); P16(0x36, 56); P16(0x38, 1); P16(0x3a, 64); P16(0x3c, 4); P16(0x3e, 1);
    /* one PT_LOAD: the whole file at address 0x100000 */
    P32(phoff, 1); P64(phoff + 8, 0); P64(phoff + 16, 0x100000); P64(phoff + 32, len); P64(phoff + 40, len);
    memcpy(b + 128, names, sizeof names);
    for (uint64_t i = 0; i < nrel; i++) {
        uint64_t r = rela + 24 * i;
        P64(r, 0x200000 + 8 * i); P64(r + 8, 8); P64(r + 16, 0x100000 + data + 8 * ((i * 7919) % nrel));
    }
    /* one container in .data, at the last 4 KB */
    uint64_t c = data + 8 * nrel;
    P32(c, 0xBA55ED50); P16(c + 4, 1); P16(c + 6, 16); P64(c + 8, 64);
    P16(c + 16, 2); P32(c + 20, 64); P32(c + 44, 90);
    P64(rela + 16, 0x100000 + c);   /* the first relocation points at it */
    uint64_t h = sh + 64;
    P32(h, 1); P32(h + 4, 3); P64(h + 24, 128); P64(h + 32, sizeof names);
    h += 64;
    P32(h, 11); P32(h + 4, 4); P64(h + 8, 2); P64(h + 24, rela); P64(h + 32, 24 * nrel); P64(h + 56, 24);
    h += 64;
    P32(h, 21); P32(h + 4, 1); P64(h + 8, 3); P64(h + 24, data); P64(h + 32, data_len);
#undef P16
#undef P32
#undef P64
    /* from a file, where each look outside the window is a read */
    char path[] = "/tmp/cp_fatbin_rel_XXXXXX";
    int fd = mkstemp(path);
    int wrote = fd >= 0 && write(fd, b, len) == (ssize_t)len;
    if (fd >= 0) close(fd);
    free(b);
    if (!wrote) { fprintf(stderr, "  skip: cannot write %s\n", path); unlink(path); return; }
    cp_arch_summary s;
    char err[256] = "";
    double t0 = now_s();
    int rc = cp_arch_scan(path, &s, err, sizeof err);
    double t1 = now_s();
    unlink(path);
    if (rc != 0) fprintf(stderr, "  %s\n", err);
    CHECK_I64(rc, 0);
    CHECK_I64(s.referenced, 1);
    CHECK_STR(describe(&s), "sm_90");
    if (t1 - t0 >= SLOW_S) fprintf(stderr, "  took %.2f s\n", t1 - t0);
    CHECK(t1 - t0 < SLOW_S);
}

int main(void)
{
    RUN(test_hand_built_elf);
    RUN(test_bare_fatbin);
    RUN(test_every_truncation);
    RUN(test_errors);
    RUN(test_verdicts);
    RUN(test_file_matches_memory);
    RUN(test_samples);
    RUN(test_rebuild_with_nvcc);
    RUN(test_huge_section_count);
    RUN(test_coverage);
    RUN(test_formats);
    RUN(test_real_cufft);
    RUN(test_many_relocations);
    return TEST_END();
}
