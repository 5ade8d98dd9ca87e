/*
 * An ELF file's dynamic section: the libraries it needs (DT_NEEDED) and
 * where it looks for them (DT_RUNPATH, else DT_RPATH).  This is how a
 * framework's library names the CUDA libraries it will load, and from where.
 * Read with pread through a small window, like the fatbin reader: a 500 MB
 * library costs a few pages.
 */
#ifndef CP_ELFDYN_H
#define CP_ELFDYN_H

#include <stddef.h>

#define CP_ELF_MAX_NEEDED 64

typedef struct {
    int nneeded;
    char needed[CP_ELF_MAX_NEEDED][64];  /* "libcublas.so.13", in file order */
    int needed_total;                    /* DT_NEEDED entries seen */
    char runpath[1024];                  /* DT_RUNPATH as written ("$ORIGIN/../../nvidia/cublas/lib:..."), "" if none */
    char rpath[1024];                    /* DT_RPATH as written, "" if none */
} cp_elf_dyn;

/* Read the dynamic section of an ELF64 little-endian file.  Returns 0 (a file
 * without a dynamic section is 0 with everything empty), or -1 with err
 * naming the file and the problem.  Strings longer than the fields are cut;
 * never reads outside the file. */
int cp_elf_dynamic(const char *path, cp_elf_dyn *out, char *err, size_t errcap);

/* The same over bytes in memory (tests, fuzzing). */
int cp_elf_dynamic_bytes(const unsigned char *data, size_t len, cp_elf_dyn *out, char *err, size_t errcap);

#endif
