/*
 * Which GPU code a binary carries, and whether a GPU can run it.
 *
 * cp_arch_scan reads an ELF executable, shared library or object (or a bare
 * fatbin file) without loading it: the fatbin containers in its .nv_fatbin
 * and __nv_relfatbin sections, and every entry in them (SASS for sm_XX with
 * its a/f variant, PTX with its ISA version).  It maps the file and touches
 * only the headers, so a 1 GB library costs little memory.
 */
#ifndef CUPROBE_ARCH_H
#define CUPROBE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CP_CODE_SASS, CP_CODE_PTX } cp_code_kind;

/* One distinct kind of code in a file: entries with the same kind, sm and
 * variant (and, for PTX, ISA) are counted together. */
typedef struct {
    cp_code_kind kind;
    int sm;                   /* 90 for sm_90 / compute_90 */
    char variant;             /* 0, 'a' (arch-specific) or 'f' (family) */
    int ptx_major, ptx_minor; /* PTX ISA of a PTX entry (9.0); 0 for SASS */
    int64_t count;            /* entries of this kind */
    int64_t compressed;       /* of which compressed (LZ4 or zstd) */
    int64_t bytes;            /* payload bytes as stored */
} cp_code;

#define CP_ARCH_MAX_CODES 64

typedef struct {
    bool is_elf;              /* an ELF file (else a bare fatbin, or neither) */
    int64_t containers;       /* fatbin containers found */
    int64_t entries;          /* entries in them */
    int ncodes;
    cp_code codes[CP_ARCH_MAX_CODES];  /* sorted: SASS by sm, then PTX by sm */
    int64_t unknown_entries;  /* entries of a kind this reader does not know */
} cp_arch_summary;

/* Scan one file.  Returns 0 (a file without GPU code is 0 with
 * containers == 0), or -1 with err naming the problem ("'F': not an ELF
 * file", "'F': section table out of bounds").  Never reads outside the file,
 * whatever it holds. */
int cp_arch_scan(const char *path, cp_arch_summary *out, char *err, size_t errcap);

/* The same over bytes in memory (tests, fuzzing). */
int cp_arch_scan_bytes(const unsigned char *data, size_t len, cp_arch_summary *out,
                       char *err, size_t errcap);

typedef enum {
    CP_RUN_NATIVE,            /* SASS the GPU runs as is */
    CP_RUN_PTX_JIT,           /* only PTX the driver can compile: works, first launch pays the JIT */
    CP_RUN_CANNOT,            /* nothing this GPU (or this driver's JIT) can run */
    CP_RUN_NO_GPU_CODE        /* the file carries no GPU code at all */
} cp_run_verdict;

/* Can a GPU of compute capability cc_major.cc_minor run this code, under a
 * driver supporting CUDA driver_cuda (1000*major + 10*minor; <= 0 when
 * unknown, then PTX is judged by the GPU alone)?  Rules: SASS sm_XY runs on
 * CC X.Z with Z >= Y (same major); "a" only on exactly X.Y; "f" within its
 * family (same major, Z >= Y); PTX compute_XY JIT-compiles for any CC >= X.Y
 * ("a" PTX only for exactly X.Y) if the driver knows its ISA.  why gets one
 * line naming the code that decides.  Returns the verdict. */
cp_run_verdict cp_arch_verdict(const cp_arch_summary *s, int cc_major, int cc_minor,
                               int64_t driver_cuda, char *why, size_t whycap);

/* "sm_90a", "compute_120f" for one code. */
const char *cp_code_name(const cp_code *c, char *buf, size_t cap);

/* "native", "PTX JIT", "cannot run", "no GPU code". */
const char *cp_run_verdict_name(cp_run_verdict v);

#endif
