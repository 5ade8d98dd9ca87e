/* Runtime layer: CUDA toolkits and libcudart against the driver. */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "kb/kb.h"

/* What toolkits and runtimes are there. */
void cp_check_toolkits(const cp_facts *f, cp_finding *o)
{
    const cp_runtime_facts *r = &f->runtime;
    for (int i = 0; i < r->ntk; i++)
        cp_evidence(o, "toolkit %s at %s (found as %s; version from %s)%s", r->tk[i].version[0] ? r->tk[i].version : "?",
                    r->tk[i].path, r->tk[i].found_as, r->tk[i].version_source[0] ? r->tk[i].version_source : "nothing",
                    r->tk[i].has_nvcc ? ", has nvcc" : "");
    for (int i = 0; i < r->nrt; i++)
        cp_evidence(o, "%s (%s)%s", r->rt[i].path, r->rt[i].found_by, r->rt[i].would_load ? ", the one programs get" : "");
    if (r->nvcc_on_path[0]) cp_evidence(o, "nvcc on PATH: %s", r->nvcc_on_path);
    if (r->ntk == 0 && r->nrt == 0) {
        cp_set(o, CP_PASS, "no CUDA toolkit or libcudart on the loader path (frameworks bring their own)");
        return;
    }
    if (r->ntk) cp_set(o, CP_PASS, "CUDA toolkit %s at %s%s", r->tk[0].version[0] ? r->tk[0].version : "(version unknown)",
                       r->tk[0].path, r->ntk > 1 ? " (and others)" : "");
    else cp_set(o, CP_PASS, "libcudart found, no toolkit folder");
}

static int64_t driver_cuda(const cp_facts *f)
{
    if (CP_KNOWN(f->cuda.driver_version) && f->cuda.driver_version > 0) return f->cuda.driver_version;
    if (CP_KNOWN(f->nvml.cuda_driver_version) && f->nvml.cuda_driver_version > 0) return f->nvml.cuda_driver_version;
    return CP_UNKNOWN;
}

/* One runtime version against the driver: 2 fail, 1 warn, 0 fine. */
static int judge(const cp_facts *f, cp_finding *o, const char *what, int64_t maj, int64_t min, int64_t drv)
{
    int64_t dmaj = drv / 1000, dmin = (drv % 1000) / 10;
    char dv[16];
    cp_cuda_version_str(drv, dv, sizeof dv);
    if (!CP_KNOWN(maj)) return 0;
    if (maj > dmaj) {
        const char *need = cp_cuda_min_driver(maj);
        cp_evidence(o, "%s is CUDA %lld.%lld: needs a driver for CUDA %lld (>= %s); this driver %s supports CUDA %s",
                    what, (long long)maj, (long long)(CP_KNOWN(min) ? min : 0), (long long)maj, need ? need : "?",
                    f->host.procfs.version[0] ? f->host.procfs.version : f->nvml.driver_version, dv);
        return 2;
    }
    if (maj == dmaj && CP_KNOWN(min) && min > dmin) {
        cp_evidence(o, "%s is CUDA %lld.%lld, newer than the driver's CUDA %s: runs by minor-version "
                    "compatibility; newer APIs return CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER and its PTX cannot be JIT-compiled",
                    what, (long long)maj, (long long)min, dv);
        return 1;
    }
    cp_evidence(o, "%s is CUDA %lld.%lld: the driver (CUDA %s) runs it", what, (long long)maj,
                (long long)(CP_KNOWN(min) ? min : 0), dv);
    return 0;
}

/* Can this driver run the CUDA runtimes found here? */
void cp_check_driver_compat(const cp_facts *f, cp_finding *o)
{
    const cp_runtime_facts *r = &f->runtime;
    int64_t drv = driver_cuda(f);
    int worst = 0, n = 0;
    char what[CP_PATH_MAX + 32], dv[16];
    if (!CP_KNOWN(drv)) { cp_set(o, CP_SKIP, "the driver's CUDA version is unknown"); return; }
    for (int i = 0; i < r->ntk; i++) {
        int64_t maj, min, patch;
        if (cp_version_split(r->tk[i].version, &maj, &min, &patch) < 1) continue;
        snprintf(what, sizeof what, "toolkit %s", r->tk[i].path);
        int j = judge(f, o, what, maj, min, drv);
        worst = j > worst ? j : worst;
        n++;
    }
    for (int i = 0; i < r->nrt; i++) {
        if (!r->rt[i].would_load) continue;
        snprintf(what, sizeof what, "%s", r->rt[i].path);
        int j = judge(f, o, what, r->rt[i].major, r->rt[i].minor, drv);
        worst = j > worst ? j : worst;
        n++;
    }
    cp_cuda_version_str(drv, dv, sizeof dv);
    if (!n) { cp_set(o, CP_SKIP, "no CUDA runtime version to compare with the driver's CUDA %s", dv); return; }
    if (worst == 2) {
        cp_set(o, CP_FAIL, "the driver (CUDA %s) is too old for the CUDA runtime installed here", dv);
        cp_fix(o, "install a newer driver branch (see the evidence for the minimum), or use a toolkit/framework "
               "build for CUDA %lld", (long long)(drv / 1000));
    } else if (worst == 1) {
        cp_set(o, CP_WARN, "a CUDA runtime newer than the driver's CUDA %s runs by minor-version compatibility", dv);
        cp_fix(o, "upgrade the driver to the toolkit's bundled version for full support, and ship SASS (not only PTX) "
               "for your GPUs");
    } else cp_set(o, CP_PASS, "the driver (CUDA %s) runs every CUDA runtime found", dv);
}

/* A toolkit stubs folder on LD_LIBRARY_PATH hands programs a fake libcuda. */
void cp_check_stubs_on_path(const cp_facts *f, cp_finding *o)
{
    const char *s = f->runtime.stubs_on_ld_path;
    if (!s[0]) { cp_set(o, CP_PASS, "no toolkit stubs folder on LD_LIBRARY_PATH"); return; }
    cp_evidence(o, "LD_LIBRARY_PATH contains %s", s);
    cp_set(o, CP_WARN, "a toolkit stubs folder is on LD_LIBRARY_PATH");
    cp_fix(o, "programs may load the stub libcuda and fail with 'CUDA driver is a stub library': "
           "move '%s' to LIBRARY_PATH (link time only)", s);
}
