/*
 * Private to the runtime layer: the working state of one cp_runtime_observe
 * call and the helpers shared by toolkit.c (toolkits, path helpers,
 * cp_runtime_observe), cudart.c (libcudart copies, ld.so.cache, loader
 * path) and libraries.c (the other CUDA libraries, which reuses the path
 * helpers).  Nothing outside src/lib/host/ includes this.
 */
#ifndef CP_RUNTIME_INT_H
#define CP_RUNTIME_INT_H

#include <stddef.h>
#include <stdint.h>
#include "host/host.h"
#include "installed/installed.h"

typedef struct {
    char soname[64];
    char path[CP_PATH_MAX];
} cache_hit;

/* Working state of one cp_runtime_observe call (heap: it is ~30 KB). */
typedef struct {
    cp_fs *fs;
    const cp_host_facts *h;
    cp_runtime_facts *rt;
    char real[CP_MAX_CUDARTS][CP_PATH_MAX];   /* resolved path of rt->rt[i] */
    int ncache;
    cache_hit cache[CP_MAX_CUDARTS];         /* libcudart entries of ld.so.cache, in order */
    char cache_libcuda[CP_PATH_MAX];         /* the ld.so.cache entry for libcuda.so.1 */
} obs;

/* ---- path helpers (toolkit.c) ---- */

cp_fs_type cp_rt_stat_real(cp_fs *fs, const char *path, char *real, size_t cap);
int cp_rt_list_real(cp_fs *fs, const char *dir, cp_fs_entry_cb cb, void *arg);
int cp_rt_read_real_alloc(cp_fs *fs, const char *path, size_t max, char **out, size_t *len);
int cp_rt_join(char *out, size_t cap, const char *dir, const char *name);
int cp_rt_next_entry(const char **p, char *out, size_t cap);
int cp_rt_ends_with(const char *s, const char *suffix);
void cp_rt_set_str(char *dst, size_t cap, const char *src);

/* ---- libcudart copies and the loader path (cudart.c) ---- */

void cp_rt_scan_dir(obs *o, const char *dir, const char *found_by);
void cp_rt_read_ldcache(obs *o);
int cp_rt_cudart_soname(int64_t major, int64_t minor, char *buf, size_t cap);
void cp_rt_mark_would_load(obs *o, const char *soname);
void cp_rt_find_stubs(obs *o);
void cp_rt_find_compat_on_path(obs *o);

#endif
