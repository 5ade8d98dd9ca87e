/*
 * Which copy of each CUDA library a framework gets.  A framework's GPU
 * library names the CUDA libraries it needs (DT_NEEDED) and where to look
 * (RUNPATH, e.g. "$ORIGIN/../../nvidia/cublas/lib" for the pip wheels); the
 * dynamic loader tries DT_RPATH, then LD_LIBRARY_PATH, then DT_RUNPATH, then
 * its cache.  So an LD_LIBRARY_PATH copy hides the wheel the framework was
 * built with: the classic "works in one shell, not in the other".
 */
#include <stdio.h>
#include <string.h>

#include "fatbin/elfdyn.h"
#include "installed/frameworks.h"
#include "host/host.h"
#include "util/str.h"

static const char *const cuda_libs[] = { "libcudart.so", "libcublas.so", "libcublasLt.so", "libcudnn.so",
    "libnccl.so", "libcufft.so", "libcurand.so", "libcusolver.so", "libcusparse.so", "libnvrtc.so",
    "libnvJitLink.so", "libcupti.so", NULL };

static int is_cuda_lib(const char *soname)
{
    for (int i = 0; cuda_libs[i]; i++) {
        size_t n = strlen(cuda_libs[i]);
        if (strncmp(soname, cuda_libs[i], n) == 0 && (soname[n] == '.' || soname[n] == '\0'))
            return 1;
    }
    return 0;
}

/* Look for soname in a ':'-separated folder list ($ORIGIN expanded to
 * origin); the first regular file wins.  Returns 1 and the path, else 0. */
static int search(cp_fs *fs, const char *list, const char *origin, const char *soname, char *out, size_t cap)
{
    const char *p = list;
    char entry[CP_PATH_MAX];
    while (cp_list_next(&p, ':', entry, sizeof entry)) {
        char dir[CP_PATH_MAX], path[CP_PATH_MAX];
        size_t o = 0;
        for (size_t i = 0; entry[i] && o + 1 < sizeof dir;) {
            if (strncmp(entry + i, "$ORIGIN", 7) == 0 || strncmp(entry + i, "${ORIGIN}", 9) == 0) {
                size_t skip = entry[i + 1] == '{' ? 9 : 7;
                if (!cp_str_copy(dir + o, sizeof dir - o, origin)) { o = 0; break; }
                o += strlen(dir + o);
                i += skip;
            } else dir[o++] = entry[i++];
        }
        dir[o] = '\0';
        char real[CP_PATH_MAX];
        /* RUNPATHs climb out of $ORIGIN with "..": the fs resolver folds it
         * after the links before it, as the kernel does */
        if (dir[0] != '/' || cp_path_join(path, sizeof path, dir, soname) != 0 ||
            cp_fs_realpath(fs, path, real, sizeof real) != 0)
            continue;
        if (cp_fs_stat(fs, real, NULL, NULL, NULL) == CP_FS_FILE) {
            cp_str_copy(out, cap, real);
            return 1;
        }
    }
    return 0;
}

/* The copy the loader hands out from its cache for soname, per the
 * libraries layer; "" when it has none. */
static const char *from_cache(const cp_libraries_facts *libs, const char *soname)
{
    for (int i = 0; i < libs->nlib; i++)
        if (libs->lib[i].would_load && strcmp(libs->lib[i].soname, soname) == 0 &&
            strcmp(libs->lib[i].found_by, "ld.so.cache") == 0)
            return libs->lib[i].path;
    return "";
}

static void resolve_one(cp_fs *fs, const cp_host_facts *h, const cp_libraries_facts *libs,
                        const cp_elf_dyn *d, const char *origin, cp_fw_lib *l)
{
    const char *llp = cp_host_getenv(h, "LD_LIBRARY_PATH");
    /* DT_RPATH counts only without DT_RUNPATH, and then comes before LD_LIBRARY_PATH */
    const char *own = d->runpath[0] ? d->runpath : d->rpath;
    search(fs, own, origin, l->soname, l->runpath_copy, sizeof l->runpath_copy);
    if (!d->runpath[0] && d->rpath[0] && l->runpath_copy[0]) {
        cp_str_copy(l->path, sizeof l->path, l->runpath_copy);
        cp_str_copy(l->via, sizeof l->via, "RPATH");
    } else if (llp && search(fs, llp, origin, l->soname, l->path, sizeof l->path)) {
        cp_str_copy(l->via, sizeof l->via, "LD_LIBRARY_PATH");
    } else if (l->runpath_copy[0]) {
        cp_str_copy(l->path, sizeof l->path, l->runpath_copy);
        cp_str_copy(l->via, sizeof l->via, "RUNPATH");
    } else if (from_cache(libs, l->soname)[0]) {
        cp_str_copy(l->path, sizeof l->path, from_cache(libs, l->soname));
        cp_str_copy(l->via, sizeof l->via, "ld.so.cache");
    }
}

/* Fill each framework's libs from its gpu_lib's dynamic section; see
 * frameworks.h.  Frameworks whose GPU library cannot be read keep nlibs 0. */
void cp_frameworks_resolve_libs(cp_fs *fs, const cp_host_facts *h, const cp_libraries_facts *libs,
                                cp_frameworks_facts *fw)
{
    for (int i = 0; i < fw->nfw; i++) {
        cp_framework *x = &fw->fw[i];
        char real[2 * CP_PATH_MAX], err[160], origin[CP_PATH_MAX];
        cp_elf_dyn d;
        x->nlibs = 0;
        if (!x->gpu_lib[0])
            continue;
        /* the library itself is read in place, not through cp_fs: it can be 500 MB */
        if (cp_fs_host_path(fs, x->gpu_lib, real, sizeof real) != 0 || cp_elf_dynamic(real, &d, err, sizeof err) != 0)
            continue;
        cp_str_copy(origin, sizeof origin, x->gpu_lib);
        cp_path_parent(origin);
        for (int n = 0; n < d.nneeded && x->nlibs < CP_MAX_FW_LIBS; n++) {
            if (!is_cuda_lib(d.needed[n]))
                continue;
            cp_fw_lib *l = &x->libs[x->nlibs++];
            memset(l, 0, sizeof *l);
            cp_str_copy(l->soname, sizeof l->soname, d.needed[n]);
            resolve_one(fs, h, libs, &d, origin, l);
        }
    }
}
