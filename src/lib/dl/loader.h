/*
 * One loader for every NVIDIA library cuprobe opens at run time.
 *
 * Each library is described once: its soname, the environment variable that
 * overrides it (tests, unusual installs) and a table of the symbols cuprobe
 * calls.  A symbol entry names the function as the source calls it, whether
 * the library is useless without it, and the exported names to try, newest
 * ABI first.  The loader fills a struct of function pointers at the offsets
 * the table gives and records what happened in a cp_lib_load, so a check can
 * say which file was opened, why it could not be, or which symbol it lacked.
 *
 * Adding a symbol: add the pointer to the library's struct (cuda_api.h,
 * nvml_api.h) and one line to its table (cuda_api.c, nvml_api.c).  Where the
 * vendor header #defines the name to a versioned symbol, list only the
 * versioned names: the plain name is the old ABI (REFERENCE 1.2).
 */
#ifndef CP_DL_LOADER_H
#define CP_DL_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "cuprobe/facts.h"

#define CP_DL_MAX_ALT 3

/* One symbol of a library's table.  alt[] lists the names to dlsym, newest
 * ABI first, NULL-terminated; when alt[0] is NULL the source name itself is
 * looked up.  offset is offsetof(the library's struct, its pointer). */
typedef struct {
    const char *name;
    bool required;
    const char *alt[CP_DL_MAX_ALT + 1];
    size_t offset;
} cp_dl_sym;

/* One library.  syms ends with an entry whose name is NULL. */
typedef struct {
    const char *soname;       /* "libcuda.so.1" */
    const char *env;          /* "CUPROBE_LIBCUDA": a path or name that replaces soname */
    const cp_dl_sym *syms;
    size_t table_size;        /* sizeof the library's struct of pointers */
} cp_dl_lib;

/* Open lib (its override variable when set and non-empty, else its soname)
 * with RTLD_NOW | RTLD_LOCAL and fill *table (table_size bytes, cleared
 * first) with the symbols of lib->syms.  Optional symbols that are absent
 * stay NULL.
 *
 * *rec is overwritten: requested (the name given to dlopen), loaded (dlopen
 * succeeded), path (the real file, via dladdr + realpath), error (dlerror
 * text), missing_symbol (the first required symbol not found) and
 * version_from_path.
 *
 * Returns the dlopen handle, or NULL when the library could not be opened or
 * lacks a required symbol; in the latter case the library is closed again,
 * *table is all NULL, rec->loaded stays true and rec->missing_symbol names
 * the symbol.  Never prints. */
void *cp_dl_load(const cp_dl_lib *lib, void *table, cp_lib_load *rec);

/* Close a handle from cp_dl_load (NULL is ignored).  Do not close libcuda
 * after cuInit: the driver leaves threads and exit handlers behind. */
void cp_dl_unload(void *handle);

/* Write into out (size n) the driver version carried in a library file name:
 * "/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04" -> "580.159.04".  Only a
 * suffix after ".so." made of digits and at least one dot counts, so
 * "libcuda.so.1" gives "".  Never fails; out is always terminated. */
void cp_dl_version_from_path(const char *path, char *out, size_t n);

/* Normalise a PCI bus id as the libraries print it ("00000000:00:06.0" from
 * NVML, "0000:3B:00.0" from CUDA) to "dddd:bb:dd.f" in lowercase.  Returns
 * false and leaves out "" when in is not a bus id. */
bool cp_dl_norm_pci_bus_id(const char *in, char *out, size_t n);

/* Copy src into dst (size n), always terminated, truncating; "" for NULL. */
void cp_dl_copy(char *dst, size_t n, const char *src);

#endif
