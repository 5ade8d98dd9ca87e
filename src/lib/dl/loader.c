/*
 * The generic loader: dlopen a library, fill its table, record what happened.
 */
#include "dl/loader.h"

#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Function pointers are stored by copying dlsym's void * into their slot:
 * POSIX guarantees the two have the same representation. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "function and object pointers must have the same size");

/* Bounded string copy, always NUL-terminated; NULL copies "" (loader.h). */
void cp_dl_copy(char *dst, size_t n, const char *src)
{
    if (n == 0)
        return;
    if (!src)
        src = "";
    size_t len = strlen(src);
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* dlerror() text or a fallback, so an error field is never empty. */
static void copy_dlerror(char *dst, size_t n, const char *fallback)
{
    const char *e = dlerror();
    cp_dl_copy(dst, n, e ? e : fallback);
}

/* "…/libcuda.so.580.159.04" -> "580.159.04", "" when the name has none (loader.h). */
void cp_dl_version_from_path(const char *path, char *out, size_t n)
{
    cp_dl_copy(out, n, "");
    if (!path || n == 0)
        return;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *so = strstr(base, ".so.");
    if (!so)
        return;
    const char *v = so + 4;
    size_t dots = 0, i;
    for (i = 0; v[i]; i++) {
        if (v[i] == '.')
            dots++;
        else if (!isdigit((unsigned char)v[i]))
            return;
    }
    /* "1" is the soname's ABI number, not a driver version. */
    if (dots == 0 || !isdigit((unsigned char)v[0]) || v[i - 1] == '.')
        return;
    cp_dl_copy(out, n, v);
}

/* Any domain:bus:dev.fn form -> "0000:00:06.0"; false for garbage (loader.h). */
bool cp_dl_norm_pci_bus_id(const char *in, char *out, size_t n)
{
    unsigned dom, bus, dev, fn;
    int end = 0;

    cp_dl_copy(out, n, "");
    if (!in)
        return false;
    /* Both "domain:bus:dev.fn" forms; NVML's domain has 8 digits. */
    if (sscanf(in, "%8x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &end) != 4 || in[end] != '\0')
        return false;
    if (dom > 0xffff || dev > 0x1f || fn > 7)
        return false;
    char buf[32];
    snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
    if (strlen(buf) >= n)
        return false;
    cp_dl_copy(out, n, buf);
    return true;
}

/* The real file behind handle: dladdr on a symbol it exports, else the link
 * map's name, then realpath so symlinks (libcuda.so.1 -> libcuda.so.580...)
 * resolve to the versioned file. */
static void record_path(void *handle, const void *sym, cp_lib_load *rec)
{
    const char *name = NULL;
    Dl_info info;
    struct link_map *lm = NULL;

    if (sym && dladdr(sym, &info) && info.dli_fname && info.dli_fname[0])
        name = info.dli_fname;
    else if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && lm->l_name[0])
        name = lm->l_name;
    if (!name) {
        dlerror();
        return;
    }
    char real[PATH_MAX];
    cp_dl_copy(rec->path, sizeof rec->path, realpath(name, real) ? real : name);
    cp_dl_version_from_path(rec->path, rec->version_from_path, sizeof rec->version_from_path);
}

/* Look up one table entry: each alternate in order, or the source name. */
static void *resolve(void *handle, const cp_dl_sym *s, char *err, size_t errn)
{
    const char *const *names = s->alt[0] ? s->alt : &s->name;
    size_t count = s->alt[0] ? CP_DL_MAX_ALT : 1;

    for (size_t i = 0; i < count && names[i]; i++) {
        dlerror();
        void *p = dlsym(handle, names[i]);
        if (p)
            return p;
        copy_dlerror(err, errn, "symbol not found");
    }
    return NULL;
}

/* dlopen a library and fill its symbol table, recording what happened in
 * rec; returns the handle, or NULL with rec saying why (loader.h). */
void *cp_dl_load(const cp_dl_lib *lib, void *table, cp_lib_load *rec)
{
    memset(rec, 0, sizeof *rec);
    memset(table, 0, lib->table_size);

    const char *want = lib->env ? getenv(lib->env) : NULL;
    if (!want || !want[0])
        want = lib->soname;
    cp_dl_copy(rec->requested, sizeof rec->requested, want);

    dlerror();
    void *h = dlopen(want, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        copy_dlerror(rec->error, sizeof rec->error, "dlopen failed");
        return NULL;
    }
    rec->loaded = true;

    const void *first = NULL;
    char err[sizeof rec->error];
    for (const cp_dl_sym *s = lib->syms; s->name; s++) {
        void *p = resolve(h, s, err, sizeof err);
        if (p) {
            memcpy((char *)table + s->offset, &p, sizeof p);
            if (!first)
                first = p;
        } else if (s->required && !rec->missing_symbol[0]) {
            cp_dl_copy(rec->missing_symbol, sizeof rec->missing_symbol,
                       s->alt[0] ? s->alt[0] : s->name);
            cp_dl_copy(rec->error, sizeof rec->error, err);
        }
    }
    record_path(h, first, rec);

    if (rec->missing_symbol[0]) {
        memset(table, 0, lib->table_size);
        dlclose(h);
        return NULL;
    }
    return h;
}

/* dlclose a handle from cp_dl_load; NULL is fine (loader.h). */
void cp_dl_unload(void *handle)
{
    if (handle)
        dlclose(handle);
}
