/*
 * What is installed: CUDA toolkits, libcudart copies and ld.so.cache (the
 * runtime layer), the other CUDA libraries (libraries.h) and the Python
 * frameworks (frameworks.h), read through a cp_fs so a replayed snapshot
 * gives the same answers.  Same two kinds of functions as host/host.h:
 * cp_parse_* pure parsers (fuzzed), readers that take a cp_fs.
 */
#ifndef CP_INSTALLED_H
#define CP_INSTALLED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cuprobe/facts.h"
#include "fs/fs.h"
#include "util/str.h"

/* ---- runtime: toolkits (toolkit.c) and libcudart (cudart.c) ------------- */

/* Parse a toolkit's version.json; writes "13.0.2" (the "cuda" entry's
 * "version") to out.  Returns 0, or -1 when not found/garbage. */
int cp_parse_version_json(const char *text, size_t len, char *out, size_t cap);

/* Parse a toolkit's version.txt, the file before version.json (CUDA 11.0
 * and older): "CUDA Version 11.0.228" -> "11.0.228" in out (digits and dots,
 * a final dot dropped, cut to cap).  Returns 0, or -1 (out untouched) when
 * the text holds no such line. */
int cp_parse_version_txt(const char *text, size_t len, char *out, size_t cap);

/* Parse include/cuda.h for "#define CUDA_VERSION 13000" -> "13.0" in out
 * (the first such define; CUDA_VERSION_SOMETHING does not count).  Returns 0,
 * or -1 when there is none or its number has fewer than 4 digits. */
int cp_parse_cuda_h(const char *text, size_t len, char *out, size_t cap);

/* Parse glibc's /etc/ld.so.cache (new "glibc-ld.so.cache1.1" format, alone or
 * after the old "ld.so-1.7.0" one): cb(soname, path, arg) for every x86-64
 * entry.  Returns entries seen, or -1 for a file it cannot make sense of. */
typedef int (*cp_ldcache_cb)(const char *soname, const char *path, void *arg);
int cp_parse_ldcache(const unsigned char *data, size_t len, cp_ldcache_cb cb, void *arg);

/* One ld.so.cache entry (soname and the path it names), as the runtime and
 * libraries layers keep them, in cache order. */
typedef struct {
    char soname[64];
    char path[CP_PATH_MAX];
} cp_cache_entry;

/* The copy the dynamic loader opens for `soname`: the first LD_LIBRARY_PATH
 * folder (h's environment) holding that name, else the first entry of
 * cache[0..ncache) for it.  A program's own RUNPATH and the default folders
 * (/lib, /usr/lib) are not modelled.  Writes its resolved path to real and
 * returns true; false when neither has it (cudart.c). */
bool cp_loader_pick(cp_fs *fs, const cp_host_facts *h, const cp_cache_entry *cache, int ncache,
                    const char *soname, char *real, size_t cap);

/* The toolkit of rt whose tree holds the resolved path `real`, or NULL. */
const cp_toolkit *cp_toolkit_holding(const cp_runtime_facts *rt, const char *real);

/* Find CUDA toolkits and libcudart copies the way a program would (see
 * runtime facts).  Reads environment values from h->env (LD_LIBRARY_PATH,
 * CUDA_HOME, CUDA_PATH, PATH), so a replay sees the captured environment. */
int cp_runtime_observe(cp_fs *fs, const cp_host_facts *h, cp_runtime_facts *rt);

/* ---- Python environments and wheel metadata (pyenv.c) ------------------- */

#define CP_MAX_SITES 16

/* The site-packages folders a user's Python would read, in order, each once
 * (by real path). */
typedef struct {
    int n;
    char site[CP_MAX_SITES][CP_PATH_MAX];
} cp_pyenv;

/* Fill out with the site-packages folders of, in this order: the interpreter
 * `python` (the --python PATH, or NULL; a bare name is looked up on $PATH;
 * a pyvenv.cfg beside it or one folder up makes that folder its prefix, else
 * the folder above its real bin/), $VIRTUAL_ENV, $CONDA_PREFIX, the first
 * python3 on $PATH (found the same way), /usr/local/lib/python3.N/
 * dist-packages, /usr/lib/python3/dist-packages.  A prefix gives
 * PREFIX/lib/python3.N/site-packages for every N present.  Links resolved,
 * duplicates dropped, folders past CP_MAX_SITES dropped; environment values
 * come from h->env (h may be NULL), so a replay finds the captured machine's
 * folders.  Never runs Python.  NULL fs gives an empty list. */
void cp_pyenv_find(cp_fs *fs, const cp_host_facts *h, const char *python, cp_pyenv *out);

/* A wheel's metadata folder name, split.
 * "nvidia_cudnn_cu13-9.19.0.56.dist-info" gives
 *   name "nvidia_cudnn_cu13", base "nvidia_cudnn", cuda_major 13,
 *   version "9.19.0.56", release "9.19.0.56";
 * "torch-2.11.0+cu130.dist-info" gives name = base "torch", cuda_major
 * CP_UNKNOWN, version "2.11.0+cu130", release "2.11.0". */
typedef struct {
    cp_span name;             /* the distribution: everything before the first '-' */
    cp_span base;             /* name without a final "_cuNN" CUDA suffix */
    int64_t cuda_major;       /* NN of that suffix; CP_UNKNOWN without one */
    cp_span version;          /* everything between the '-' and ".dist-info" (may be empty) */
    cp_span release;          /* version's leading digits and dots, without a final dot;
                                 empty when version does not start with a digit */
} cp_dist_info;

/* Parse a NAME-VERSION.dist-info folder name of len bytes into *out, whose
 * spans point into text.  Returns 0, or -1 when text does not end in
 * ".dist-info", has no '-' or an empty name, or holds a NUL. */
int cp_parse_dist_info(const char *text, size_t len, cp_dist_info *out);

/* ---- Python source text (pytext.c) --------------------------------------- */

/* The value of `name = 'x'` or `name: Optional[str] = "x"` at a line start
 * (torch/version.py, jax/version.py, cupy/_version.py): a one-line quoted
 * string without escapes.  Returns 1 with the string in out, 0 for
 * `= None`, -1 (out "") when there is no such line or the value does not
 * fit cap.  cap must be at least 1. */
int cp_parse_py_assign(const char *text, size_t len, const char *name, char *out, size_t cap);

/* What TensorFlow's python/platform/build_info.py says, in either form it
 * has used ({'k': v} and [('k', v)]). */
typedef struct {
    bool cpu_only;            /* is_cuda_build is False */
    char cuda_version[16];    /* cuda_version's string, "" when absent */
    int ncodes;               /* cuda_compute_capabilities' sm_ and compute_ items, */
    char codes[CP_MAX_FW_CODES][16];   /* each once, in order */
} cp_tf_build_info;

/* Parse build_info.py text into *out (cleared first).  Never fails: what
 * is missing stays empty. */
void cp_parse_tf_build_info(const char *text, size_t len, cp_tf_build_info *out);

#endif
