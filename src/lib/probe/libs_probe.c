/*
 * The libraries probe: dlopen each CUDA library a program would get (and
 * each wheel copy a framework loads) and ask its own version call.  Loading
 * runs the library's constructors, so like the driver probes it runs in a
 * child process under the deadline; it never touches a GPU.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"
#include "util/version.h"

typedef int (*prop_fn)(int type, int *value);        /* xGetProperty(libraryPropertyType, int *) */
typedef size_t (*size_fn)(void);                     /* cudnnGetVersion */
typedef int (*int_fn)(int *v);                       /* ncclGetVersion */
typedef int (*two_fn)(int *major, int *minor);       /* nvrtcVersion */
typedef int (*twou_fn)(unsigned *major, unsigned *minor); /* nvJitLinkVersion */
typedef int (*u32_fn)(unsigned *v);                  /* cuptiGetVersion */

/* "major.minor.patch" from the three libraryPropertyType values (0, 1, 2). */
static void by_property(void *h, const char *sym, char *out, size_t cap)
{
    prop_fn f;
    int v[3];
    *(void **)&f = dlsym(h, sym);
    if (!f) return;
    for (int i = 0; i < 3; i++)
        if (f(i, &v[i]) != 0) return;
    snprintf(out, cap, "%d.%d.%d", v[0], v[1], v[2]);
}

static void version_call(void *h, const char *name, char *out, size_t cap)
{
    out[0] = '\0';
    if (!strcmp(name, "cublas")) by_property(h, "cublasGetProperty", out, cap);
    else if (!strcmp(name, "cublasLt")) by_property(h, "cublasLtGetProperty", out, cap);
    else if (!strcmp(name, "cufft")) by_property(h, "cufftGetProperty", out, cap);
    else if (!strcmp(name, "curand")) by_property(h, "curandGetProperty", out, cap);
    else if (!strcmp(name, "cusolver")) by_property(h, "cusolverGetProperty", out, cap);
    else if (!strcmp(name, "cusparse")) by_property(h, "cusparseGetProperty", out, cap);
    else if (!strcmp(name, "cudnn")) {
        size_fn f;
        *(void **)&f = dlsym(h, "cudnnGetVersion");
        if (f) cp_mmp_version_str((long long)f(), out, cap);
    } else if (!strcmp(name, "nccl")) {
        int_fn f;
        int v = 0;
        *(void **)&f = dlsym(h, "ncclGetVersion");
        if (f && f(&v) == 0) cp_mmp_version_str(v, out, cap);
    } else if (!strcmp(name, "nvrtc")) {
        two_fn f;
        int a = 0, b = 0;
        *(void **)&f = dlsym(h, "nvrtcVersion");
        if (f && f(&a, &b) == 0) snprintf(out, cap, "%d.%d", a, b);
    } else if (!strcmp(name, "nvJitLink")) {
        twou_fn f;
        unsigned a = 0, b = 0;
        *(void **)&f = dlsym(h, "nvJitLinkVersion");
        if (f && f(&a, &b) == 0) snprintf(out, cap, "%u.%u", a, b);
    } else if (!strcmp(name, "cupti")) {
        u32_fn f;
        unsigned v = 0;
        *(void **)&f = dlsym(h, "cuptiGetVersion");
        /* the CUPTI API version, 130001 = CUDA 13.0 update 1 since 13.0 */
        if (f && f(&v) == 0) snprintf(out, cap, "api %u", v);
    }
}

/* See probe.h. */
void cp_libs_probe_fill(cp_libraries_facts *libs)
{
    for (int i = 0; i < libs->nlib && i < CP_MAX_LIBS; i++) {
        cp_library *l = &libs->lib[i];
        l->loads = CP_TRI_UNKNOWN;
        l->load_error[0] = l->version_call[0] = '\0';
        if (!l->would_load && strcmp(l->found_by, "wheel") != 0)
            continue;   /* copies nobody loads by default: their files were seen, that is enough */
        dlerror();
        /* lazy binding: a missing dependency still fails here, the relocation
         * of thousands of symbols does not cost us */
        void *h = dlopen(l->path, RTLD_LAZY | RTLD_LOCAL);
        if (!h) {
            const char *e = dlerror();
            l->loads = CP_NO;
            snprintf(l->load_error, sizeof l->load_error, "%s", e ? e : "dlopen failed");
            continue;
        }
        l->loads = CP_YES;
        version_call(h, l->name, l->version_call, sizeof l->version_call);
        /* no dlclose: the child exits soon, and a library loaded stays loaded
         * for the next (cuSOLVER brings cuBLAS and cuBLASLt: 65 ms once) */
    }
}
