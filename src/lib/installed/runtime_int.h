/*
 * Private to the runtime layer: the working state of one cp_runtime_observe
 * call and the libcudart half of it (cudart.c: copies, ld.so.cache, loader
 * path), which toolkit.c (toolkits, cp_runtime_observe) calls.  The arrow
 * runs one way: cudart.c calls nothing of toolkit.c.  Nothing outside
 * src/lib/installed/ includes this.
 */
#ifndef CP_RUNTIME_INT_H
#define CP_RUNTIME_INT_H

#include <stddef.h>
#include <stdint.h>
#include "host/host.h"
#include "installed/installed.h"

/* Working state of one cp_runtime_observe call (heap: it is ~30 KB). */
typedef struct {
    cp_fs *fs;
    const cp_host_facts *h;
    cp_runtime_facts *rt;
    char real[CP_MAX_CUDARTS][CP_PATH_MAX];   /* resolved path of rt->rt[i] */
    int ncache;
    cp_cache_entry cache[CP_MAX_CUDARTS];         /* libcudart entries of ld.so.cache, in order */
    char cache_libcuda[CP_PATH_MAX];         /* the ld.so.cache entry for libcuda.so.1 */
} obs;

/* ---- libcudart copies and the loader path (cudart.c) ---- */

/* Add each libcudart.so.N* in `dir` as found by `found_by`. */
void cp_rt_scan_dir(obs *o, const char *dir, const char *found_by);
/* Note ld.so.cache's libcudart and libcuda.so.1 entries in o, add those copies. */
void cp_rt_read_ldcache(obs *o);
/* The soname a program built against cudart major.minor asks for; 0 or -1. */
int cp_rt_cudart_soname(int64_t major, int64_t minor, char *buf, size_t cap);
/* Mark the copy the dynamic loader would open for `soname`. */
void cp_rt_mark_would_load(obs *o, const char *soname);
/* A stubs folder on LD_LIBRARY_PATH into rt->stubs_on_ld_path. */
void cp_rt_find_stubs(obs *o);
/* The loader's libcuda.so.1 when it lives in a compat/ folder. */
void cp_rt_find_compat_on_path(obs *o);

#endif
