/*
 * Which GPU code a binary carries, and whether a GPU can run it.
 *
 * cp_arch_scan reads an ELF executable, shared library or object, a cubin,
 * a bare fatbin, PTX text or a static archive of those, without loading it: the fatbin containers in its .nv_fatbin
 * and __nv_relfatbin sections and those elsewhere that its relocations
 * point at (cuFFT's .ldata), and every entry in them (SASS for sm_XX with
 * its a/f variant, PTX with its ISA version).  It reads only the headers,
 * with pread through one 16 KB window, so a 1 GB library costs little memory.
 *
 * cp_arch_report is `cuprobe arch` itself: it walks the files and folders
 * it is given (one walker, src/lib/fs/walk.h), scans each file, judges it
 * against targets (--sm values, cp_arch_target_sm, or this machine's GPUs,
 * cp_arch_machine_targets) and writes text or JSON (docs/arch.schema.json):
 *
 *     cp_arch_target t[CP_MAX_GPUS];
 *     int nt = cp_arch_machine_targets(cp_session_facts(s), t, CP_MAX_GPUS);
 *     cp_arch_opts o = { .targets = t, .ntargets = nt, .json = true };
 *     int code = cp_arch_report(&o, paths, npaths, stdout);
 */
#ifndef CUPROBE_ARCH_H
#define CUPROBE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cuprobe/facts.h"

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
#define CP_ARCH_MAX_SETS 256

/* Modules (fatbin containers: what one translation unit registers) that
 * carry the same codes: bit i of codes is codes[i] of the summary. */
typedef struct {
    uint64_t codes;
    int64_t modules;
} cp_code_set;

/* What kind of file a summary is of. */
typedef enum {
    CP_ARCH_ELF,              /* an ELF executable, library or object with fatbins */
    CP_ARCH_FATBIN,           /* a bare fatbin (nvcc -fatbin) */
    CP_ARCH_CUBIN,            /* an ELF file of GPU code itself (nvcc -cubin): one SASS module */
    CP_ARCH_PTX,              /* PTX text (nvcc -ptx): one PTX module */
    CP_ARCH_ARCHIVE           /* a static archive (ar) of such files: libcudadevrt.a */
} cp_arch_format;

typedef struct {
    bool is_elf;              /* an ELF file, cubin included (else a bare fatbin, or neither) */
    cp_arch_format format;
    int64_t members;          /* archive: members read (ELF, cubin or fatbin ones) */
    int64_t containers;       /* fatbin containers found: the file's modules */
    int64_t entries;          /* entries in them */
    int ncodes;
    cp_code codes[CP_ARCH_MAX_CODES];  /* sorted: SASS by sm, then PTX by sm */
    int64_t unknown_entries;  /* entries of a kind this reader does not know */
    int64_t lto_entries;      /* LTO IR (nvcc code=lto_XX): for nvJitLink at run time, never
                               * run as is; counted apart, not among codes */
    int64_t referenced;       /* containers found outside the fatbin sections, through the
                               * relocations that point at them (cuFFT's .ldata) */
    /* Which codes each module carries, to judge coverage (cp_arch_judge):
     * modules with SASS or PTX, grouped by their codes.  Past
     * CP_ARCH_MAX_SETS distinct groups the rest are counted in
     * modules_ungrouped and judged by the file as a whole. */
    int nsets;
    cp_code_set sets[CP_ARCH_MAX_SETS];
    int64_t modules_ungrouped;
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
    CP_RUN_NO_GPU_CODE,       /* the file carries no GPU code at all */
    CP_RUN_PARTLY             /* cp_arch_judge only: some modules run (natively or by JIT),
                               * others carry code only for other GPUs */
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

/* How many of a file's modules a GPU can run: natively, only by JIT, not
 * at all; total counts the modules with SASS or PTX (LTO IR alone is not
 * run as is). */
typedef struct {
    int64_t total, native, jit, none;
} cp_arch_cover;

/* The verdict of cp_arch_report: cp_arch_verdict over the file as a whole,
 * and the coverage of its modules into *cover.  When some modules can run
 * on the GPU and others cannot, the verdict is CP_RUN_PARTLY (the file is
 * neither "native" because one module of 2782 carries sm_90, nor "cannot
 * run" because its fatbin section carries sm_75 only), and why says how
 * many modules run and what the others carry. */
cp_run_verdict cp_arch_judge(const cp_arch_summary *s, int cc_major, int cc_minor,
                             int64_t driver_cuda, cp_arch_cover *cover, char *why, size_t whycap);

/* "sm_90a", "compute_120f" for one code. */
const char *cp_code_name(const cp_code *c, char *buf, size_t cap);

/* "native", "PTX JIT", "cannot run", "no GPU code", "runs only partly". */
const char *cp_run_verdict_name(cp_run_verdict v);

/* "elf", "fatbin", "cubin", "ptx", "archive" (the JSON names). */
const char *cp_arch_format_name(cp_arch_format f);

/* ---- what to judge against ---- */

/* One kind of GPU to judge code against. */
typedef struct {
    int major, minor;         /* compute capability */
    int ordinal;              /* its first GPU (CUDA ordinal, else NVML index); -1 for --sm */
    int64_t driver_cuda;      /* the driver's CUDA (13000); 0 when unknown: PTX is judged
                               * by the GPU alone */
    char label[192];          /* "GPU 0,1 NVIDIA H200" or "--sm 90" */
} cp_arch_target;

/* Fill t from a --sm value: "90", "90a", "9.0", "sm_90", "compute_90",
 * "12.1" (an a or f variant says nothing more about a GPU and is dropped);
 * the label is "--sm V" and the driver unknown.  Returns 0, or -1 (t
 * untouched) when v is none of those or outside CC 1.0..99.9. */
int cp_arch_target_sm(const char *v, cp_arch_target *t);

/* The GPUs in f as targets: one per compute capability cp_facts_gpu_ccs
 * finds (CUDA's devices, else NVML's) and per GPU name within it, in device
 * order, each labelled with every GPU of its kind ("GPU 1,3 NVIDIA H200");
 * the driver's CUDA is CUDA's, else NVML's, else unknown.  Writes at most
 * cap and returns how many (0 without a GPU). */
int cp_arch_machine_targets(const cp_facts *f, cp_arch_target *out, int cap);

/* ---- `cuprobe arch`: a report over files and folders ---- */

typedef struct {
    const cp_arch_target *targets;  /* judged against each, in order */
    int ntargets;             /* 0: no GPU to judge against, which the report says */
    bool json;                /* JSON (docs/arch.schema.json) instead of text */
    /* Called once per problem (a file or folder that cannot be read or
     * scanned, a folder too deep), with a message that names it, e.g.
     * "cannot read folder 'DIR': Permission denied"; NULL drops them. */
    void (*problem)(const char *msg, void *arg);
    void *arg;
} cp_arch_opts;

/* Scan every path (a folder is walked: every regular ELF or fatbin file
 * under it, in name order, symbolic links not followed, at most 64 folders
 * deep) and write the report to out.  A file named in paths is always
 * reported; one met in a folder only when it carries GPU code (the rest
 * are counted).  Returns the exit code: 0 when everything runs natively on
 * every target (or there is no target), 1 when some code only through PTX
 * JIT or a file runs only partly (cp_arch_judge), 2 when some cannot run, 3 when a file or folder could not be read
 * (the worst wins; report.h's CP_EXIT_*).  Allocates only the listing of
 * the folders being walked. */
int cp_arch_report(const cp_arch_opts *o, const char *const *paths, int npaths, FILE *out);

#endif
