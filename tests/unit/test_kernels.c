/*
 * The probe kernels' embedded image (src/lib/kernels/probe_kernels_fatbin.c,
 * made by `make kernels`) against its source and recipe, and the CPU twins
 * of kernels.h against values computed by hand.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "arch_describe.h"
#include "cuprobe/arch.h"
#include "kernels/kernels.h"

#define KERNEL_SRC "src/lib/kernels/probe_kernels.cu"
#define KERNEL_HEADER "src/lib/kernels/kernels.h"
#define KERNEL_RECIPE "tools/gen_kernels.sh"
#define KERNEL_C "src/lib/kernels/probe_kernels_fatbin.c"

/* What the recipe is meant to embed (docs/kernels.md). */
#define WANT_CODES "sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_110 sm_120 compute_75(6.3)"
#define WANT_KERNELS "cp_k_burn_f32 cp_k_copy_u128 cp_k_fill_u32 cp_k_fma_f32 cp_k_read_u128 cp_k_spin cp_k_write_u128"

/* ------------------------------------------------------------ sha256 -- */

typedef struct {
    uint32_t h[8];
    unsigned char blk[64];
    size_t fill;
    uint64_t bytes;
} sha256;

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha_block(sha256 *s)
{
    uint32_t w[64], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)s->blk[4 * i] << 24 | (uint32_t)s->blk[4 * i + 1] << 16 |
               (uint32_t)s->blk[4 * i + 2] << 8 | s->blk[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(v, s->h, sizeof v);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) +
                      sha_k[i] + w[i];
        uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof v[0]);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) s->h[i] += v[i];
}

static void sha_init(sha256 *s)
{
    static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    memcpy(s->h, h0, sizeof h0);
    s->fill = 0;
    s->bytes = 0;
}

static void sha_add(sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->bytes += n;
    while (n--) {
        s->blk[s->fill++] = *p++;
        if (s->fill == 64) { sha_block(s); s->fill = 0; }
    }
}

/* The digest as 64 lower-case hex digits into hex[65]. */
static void sha_hex(sha256 *s, char hex[65])
{
    uint64_t bits = s->bytes * 8;
    unsigned char pad = 0x80, len[8];
    sha_add(s, &pad, 1);
    pad = 0;
    while (s->fill != 56) sha_add(s, &pad, 1);
    for (int i = 0; i < 8; i++) len[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha_add(s, len, 8);
    for (int i = 0; i < 8; i++) snprintf(hex + 8 * i, 9, "%08x", (unsigned)s->h[i]);
}

/* ----------------------------------------------------------- helpers -- */

/* A whole file into a malloc'ed buffer (NUL-terminated); NULL if unreadable. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        char *bigger = realloc(buf, 2 * cap + 1);
        if (!bigger) { free(buf); buf = NULL; break; }
        buf = bigger;
        cap *= 2;
    }
    if (fclose(f) != 0 && buf) { free(buf); buf = NULL; }
    if (buf) { buf[n] = '\0'; *len = n; }
    return buf;
}

/* sha256 of the kernel source, its header and the recipe, as the recipe computes it. */
static int source_sha(char hex[65])
{
    const char *files[] = { KERNEL_SRC, KERNEL_HEADER, KERNEL_RECIPE };
    sha256 s;
    sha_init(&s);
    for (int i = 0; i < 3; i++) {
        size_t n;
        char *text = slurp(files[i], &n);
        if (!text) return -1;
        sha_add(&s, text, n);
        free(text);
    }
    sha_hex(&s, hex);
    return 0;
}

/* The distinct cp_k_* names in an image (the kernels' symbols in each cubin,
 * their .entry in the PTX, not its parameters), sorted, space-separated; *total counts them all. */
static const char *kernel_names(const unsigned char *img, size_t len, int *total)
{
    static char out[512];
    char names[32][48];
    int nn = 0;
    *total = 0;
    for (size_t i = 0; i + 5 <= len; i++) {
        if (memcmp(img + i, "cp_k_", 5) != 0) continue;
        size_t e = i + 5;
        while (e < len && e - i < 47 && (img[e] == '_' || (img[e] >= 'a' && img[e] <= 'z') || (img[e] >= '0' && img[e] <= '9')))
            e++;
        char nm[48];
        memcpy(nm, img + i, e - i);
        nm[e - i] = '\0';
        i = e - 1;
        if (strstr(nm, "_param_")) continue;     /* the PTX's parameter names */
        (*total)++;
        int k = 0;
        while (k < nn && strcmp(names[k], nm) != 0) k++;
        if (k == nn && nn < 32) snprintf(names[nn++], sizeof names[0], "%s", nm);
    }
    for (int a = 1; a < nn; a++)            /* insertion sort */
        for (int b = a; b > 0 && strcmp(names[b - 1], names[b]) > 0; b--) {
            char t[48];
            memcpy(t, names[b], sizeof t);
            memcpy(names[b], names[b - 1], sizeof t);
            memcpy(names[b - 1], t, sizeof t);
        }
    size_t n = 0;
    out[0] = '\0';
    for (int k = 0; k < nn && n < sizeof out; k++)
        n += (size_t)snprintf(out + n, sizeof out - n, "%s%s", k ? " " : "", names[k]);
    return out;
}

/* The bytes of the array in a generated file, back into a malloc'ed buffer. */
static unsigned char *array_bytes(const char *text, size_t *len)
{
    const char *p = strstr(text, "cp_probe_kernels_fatbin[] = {");
    const char *end = p ? strstr(p, "};") : NULL;
    if (!p || !end) return NULL;
    unsigned char *buf = malloc((size_t)(end - p) / 5 + 1);
    size_t n = 0;
    if (!buf) return NULL;
    for (p = strchr(p, '{') + 1; p < end; p++) {
        if (p[0] != '0' || p[1] != 'x') continue;
        char *e;
        unsigned long v = strtoul(p + 2, &e, 16);
        if (e != p + 4 || v > 255) { free(buf); return NULL; }
        buf[n++] = (unsigned char)v;
        p = e;
    }
    *len = n;
    return buf;
}

/* The " * nvcc: ..." line of a generated file. */
static const char *nvcc_line(const char *text, char *buf, size_t cap)
{
    const char *p = strstr(text, " * nvcc: ");
    size_t n = p ? strcspn(p, "\n") : 0;
    snprintf(buf, cap, "%.*s", (int)n, p ? p : "");
    return buf;
}

/* ------------------------------------------------------------- tests -- */

/* The committed image was made from the source, header and recipe as they
 * are: this fails after a change to any of them without `make kernels`. */
static void test_source_sha_current(void)
{
    char hex[65];
    CHECK_I64(source_sha(hex), 0);
    CHECK_I64(strlen(cp_probe_kernels_source_sha256), 64);
    if (strcmp(hex, cp_probe_kernels_source_sha256) != 0)
        fprintf(stderr, "  %s is stale against %s, %s, %s: run `make kernels`\n", KERNEL_C, KERNEL_SRC, KERNEL_HEADER,
                KERNEL_RECIPE);
    CHECK_STR(cp_probe_kernels_source_sha256, hex);
}

/* The sha256 itself, on the standard vectors. */
static void test_sha256_vectors(void)
{
    char hex[65];
    sha256 s;
    sha_init(&s);
    sha_hex(&s, hex);
    CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha_init(&s);
    sha_add(&s, "abc", 3);
    sha_hex(&s, hex);
    CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";   /* 56 bytes: two blocks */
    sha_init(&s);
    sha_add(&s, two, strlen(two));
    sha_hex(&s, hex);
    CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* cuprobe's own reader sees one fatbin with exactly the intended SASS and one
 * PTX at the lowest ISA, nothing compressed (older drivers may not read
 * zstd), every kernel in it; and 16-byte aligned as cuModuleLoadData wants. */
static void test_image_codes(void)
{
    cp_arch_summary s;
    char err[256];
    CHECK_I64(cp_arch_scan_bytes(cp_probe_kernels_fatbin, cp_probe_kernels_fatbin_len, &s, err, sizeof err), 0);
    CHECK_I64(s.format, CP_ARCH_FATBIN);
    CHECK_I64(s.containers, 1);
    CHECK_I64(s.entries, 9);
    CHECK_I64(s.unknown_entries, 0);
    CHECK_I64(s.lto_entries, 0);
    CHECK_STR(describe(&s), WANT_CODES);
    CHECK_I64((uintptr_t)cp_probe_kernels_fatbin % 16, 0);
    int total;
    CHECK_STR(kernel_names(cp_probe_kernels_fatbin, cp_probe_kernels_fatbin_len, &total), WANT_KERNELS);
    CHECK(total >= 9 * 7);                  /* each kernel in each of the 9 entries */
    /* the PTX, stored as text, declares the ISA the entry header says */
    CHECK(memmem(cp_probe_kernels_fatbin, cp_probe_kernels_fatbin_len, "\n.version 6.3\n.target sm_75\n", 28) != NULL);
    /* a GPU with a cubin runs it; one newer than every cubin JITs the PTX,
     * even under an old driver; one older than sm_75 runs nothing */
    char why[512];
    CHECK_I64(cp_arch_verdict(&s, 9, 0, 12020, why, sizeof why), CP_RUN_NATIVE);
    CHECK_I64(cp_arch_verdict(&s, 13, 0, 13000, why, sizeof why), CP_RUN_PTX_JIT);
    CHECK_I64(cp_arch_verdict(&s, 13, 0, 11000, why, sizeof why), CP_RUN_PTX_JIT);   /* ISA 6.3, not 9.0 */
    CHECK_I64(cp_arch_verdict(&s, 7, 0, 13000, why, sizeof why), CP_RUN_CANNOT);     /* Volta: nothing */
}

/* Where nvcc is installed, `make kernels` into a temporary file must give the
 * same codes and kernels; with the same nvcc, the same bytes (the recipe is
 * deterministic: two runs in different folders are byte-identical). */
static void test_regenerate_with_nvcc(void)
{
    const char *nvcc = "/usr/local/cuda/bin/nvcc";
    if (access(nvcc, X_OK) != 0 || getenv("CP_TEST_NO_NVCC")) {
        fprintf(stderr, "  skip: no %s\n", nvcc);
        return;
    }
    char dir[] = "/tmp/cp_kernels_XXXXXX", cmd[512], path[300], line_new[256], line_old[256];
    if (!mkdtemp(dir)) return;
    snprintf(path, sizeof path, "%s/k.c", dir);
    snprintf(cmd, sizeof cmd, "sh %s %s %s >/dev/null 2>&1", KERNEL_RECIPE, nvcc, path);
    int rc = system(cmd);
    CHECK_I64(rc, 0);
    size_t nlen = 0, olen = 0, blen = 0;
    char *fresh = rc == 0 ? slurp(path, &nlen) : NULL;
    char *committed = slurp(KERNEL_C, &olen);
    unsigned char *bytes = fresh ? array_bytes(fresh, &blen) : NULL;
    CHECK(fresh && committed && bytes);
    if (fresh && committed && bytes) {
        cp_arch_summary s;
        char err[256];
        int total_new, total_old;
        CHECK_I64(cp_arch_scan_bytes(bytes, blen, &s, err, sizeof err), 0);
        CHECK_STR(describe(&s), WANT_CODES);
        const char *names = kernel_names(bytes, blen, &total_new);
        CHECK_STR(names, WANT_KERNELS);
        (void)kernel_names(cp_probe_kernels_fatbin, cp_probe_kernels_fatbin_len, &total_old);
        CHECK_I64(total_new, total_old);
        if (strcmp(nvcc_line(fresh, line_new, sizeof line_new), nvcc_line(committed, line_old, sizeof line_old)) == 0) {
            CHECK_I64(blen, cp_probe_kernels_fatbin_len);
            CHECK(blen == cp_probe_kernels_fatbin_len && memcmp(bytes, cp_probe_kernels_fatbin, blen) == 0);
            CHECK(nlen == olen && memcmp(fresh, committed, nlen) == 0);
        } else {
            fprintf(stderr, "  note: %s is not the nvcc of %s: bytes not compared\n", line_new, KERNEL_C);
        }
    }
    free(fresh);
    free(committed);
    free(bytes);
    unlink(path);
    rmdir(dir);
}

/* The twins against values worked out by hand (python over the same
 * integer formulas; the float ones below in exact arithmetic). */
static void test_twins(void)
{
    CHECK_I64(cp_k_hash(0, 0), 0);
    CHECK_I64(cp_k_hash(1, 0), 0x688990c0);
    CHECK_I64(cp_k_hash(0, 1), 0xa4f7896c);
    CHECK_I64(cp_k_hash(0xdeadbeefu, 12345), 0xd4ffe5cd);
    CHECK_I64(cp_k_hash(7, (1ull << 40) + 3), 0x8252fd40);   /* the high half of i counts */
    uint32_t u[2];
    cp_k_fill_u32_cpu(u, 2, 0);
    CHECK_I64(u[0], 0);
    CHECK_I64(u[1], 0xa4f7896c);

    /* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: rounded first it would be 1 + 2^-11
     * and the sum 0; fused, the sum is exactly 2^-24. */
    float a = 1.0f + 0x1p-12f, x[2] = { 1.0f + 0x1p-12f, 2.0f }, y[2] = { -(1.0f + 0x1p-11f), 0.5f };
    cp_k_fma_f32_cpu(y, x, a, 2);
    CHECK(y[0] == 0x1p-24f);
    CHECK(y[1] == 2.5f + 0x1p-11f);         /* 2a + 0.5, exact */

    float out[2049];
    memset(out, 0xff, sizeof out);
    cp_k_burn_f32_cpu(out, 2049, 0, 2.0f, 1.0f);
    CHECK(out[0] == 0.0f);
    CHECK(out[1000] == 1.0f);               /* 1000 * 0x3a83126f = 1.0000000475, rounds to 1 */
    CHECK(out[2024] == out[1000]);          /* i & 1023 */
    cp_k_burn_f32_cpu(out, 4, 2, 2.0f, 1.0f);
    CHECK(out[0] == 3.0f);                  /* 0 -> 1 -> 3 */
    cp_k_burn_f32_cpu(out, 4, 1, 2.0f, 1.0f);
    uint32_t bits;
    memcpy(&bits, &out[3], sizeof bits);
    CHECK_I64(bits, 0x3f80c49c);            /* 3 * 0.001f = 0x3b449ba6, then 2v + 1 rounded once */
    cp_k_burn_f32_cpu(out, 4, -1, 2.0f, 1.0f);
    memcpy(&bits, &out[3], sizeof bits);
    CHECK_I64(bits, 0x3b449ba6);            /* no iterations: the start value */
}

int main(void)
{
    RUN(test_sha256_vectors);
    RUN(test_source_sha_current);
    RUN(test_image_codes);
    RUN(test_twins);
    RUN(test_regenerate_with_nvcc);
    return TEST_END();
}
