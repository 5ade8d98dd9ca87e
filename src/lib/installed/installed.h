/*
 * What is installed: CUDA toolkits, libcudart copies and ld.so.cache (the
 * runtime layer), the other CUDA libraries (libraries.h) and the Python
 * frameworks (frameworks.h), read through a cp_fs so a replayed snapshot
 * gives the same answers.  Same two kinds of functions as host/host.h:
 * cp_parse_* pure parsers (fuzzed), readers that take a cp_fs.
 */
#ifndef CP_INSTALLED_H
#define CP_INSTALLED_H

#include <stddef.h>
#include <stdint.h>
#include "cuprobe/facts.h"
#include "fs/fs.h"

/* ---- runtime: toolkits (toolkit.c) and libcudart (cudart.c) ------------- */

/* Parse a toolkit's version.json; writes "13.0.2" (the "cuda" entry's
 * "version") to out.  Returns 0, or -1 when not found/garbage. */
int cp_parse_version_json(const char *text, size_t len, char *out, size_t cap);

/* Parse glibc's /etc/ld.so.cache (new "glibc-ld.so.cache1.1" format, alone or
 * after the old "ld.so-1.7.0" one): cb(soname, path, arg) for every x86-64
 * entry.  Returns entries seen, or -1 for a file it cannot make sense of. */
typedef int (*cp_ldcache_cb)(const char *soname, const char *path, void *arg);
int cp_parse_ldcache(const unsigned char *data, size_t len, cp_ldcache_cb cb, void *arg);

/* Find CUDA toolkits and libcudart copies the way a program would (see
 * runtime facts).  Reads environment values from h->env (LD_LIBRARY_PATH,
 * CUDA_HOME, CUDA_PATH, PATH), so a replay sees the captured environment. */
int cp_runtime_observe(cp_fs *fs, const cp_host_facts *h, cp_runtime_facts *rt);

#endif
