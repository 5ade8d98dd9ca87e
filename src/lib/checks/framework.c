/* Framework layer: PyTorch, JAX, CuPy and TensorFlow against the driver and the GPUs. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "checks/framework_checks.h"
#include "kb/kb.h"

static int64_t driver_cuda(const cp_facts *f)
{
    if (CP_KNOWN(f->cuda.driver_version) && f->cuda.driver_version > 0) return f->cuda.driver_version;
    if (CP_KNOWN(f->nvml.cuda_driver_version) && f->nvml.cuda_driver_version > 0) return f->nvml.cuda_driver_version;
    return CP_UNKNOWN;
}

static const char *driver_name(const cp_facts *f)
{
    if (f->host.procfs.version[0]) return f->host.procfs.version;
    if (f->nvml.driver_version[0]) return f->nvml.driver_version;
    return "version unknown";
}

static const char *vers(const cp_framework *fw)
{
    return fw->version[0] ? fw->version : "(version unknown)";
}

static bool is_cpu(const cp_framework *fw)
{
    return strcmp(fw->cuda_version, CP_FW_CUDA_CPU) == 0;
}

/* The CUDA major a framework was built for, or -1 (CPU build, unknown). */
static int64_t cuda_major(const cp_framework *fw)
{
    int64_t maj, min, patch;
    if (is_cpu(fw) || cp_version_split(fw->cuda_version, &maj, &min, &patch) < 1) return -1;
    return maj;
}

static const char *cuda_words(const cp_framework *fw, char *buf, size_t cap)
{
    if (is_cpu(fw)) snprintf(buf, cap, "CPU only");
    else if (fw->cuda_version[0]) snprintf(buf, cap, "CUDA %s", fw->cuda_version);
    else snprintf(buf, cap, "CUDA unknown");
    return buf;
}

/* The environment a framework lives in: its package folder's parent. */
static const char *env_of(const cp_framework *fw, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", fw->package_dir);
    char *s = strrchr(buf, '/');
    if (s && s != buf) *s = '\0';
    return buf;
}

static void codes_words(const cp_framework *fw, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < fw->ncodes && i < CP_MAX_FW_CODES; i++) {
        size_t n = strlen(buf);
        snprintf(buf + n, cap - n, "%s%s", i ? " " : "", fw->codes[i]);
    }
}

/* How to install a build of this framework for CUDA major.minor. */
static void install_hint(const cp_framework *fw, int64_t major, int64_t minor, char *buf, size_t cap)
{
    if (strcmp(fw->name, "torch") == 0)
        snprintf(buf, cap, "pip install torch --index-url https://download.pytorch.org/whl/cu%lld%lld "
                 "(or the newest cuXYZ index not above it)", (long long)major, (long long)minor);
    else if (strcmp(fw->name, "jax") == 0)
        snprintf(buf, cap, "pip install \"jax[cuda%lld]\"", (long long)major);
    else if (strcmp(fw->name, "cupy") == 0)
        snprintf(buf, cap, "pip uninstall the cupy-cuda* package, then pip install cupy-cuda%lldx", (long long)major);
    else
        snprintf(buf, cap, "install a %s release built for CUDA %lld", fw->name, (long long)major);
}

/* ----------------------------------------------------------- found -- */

/* Which frameworks are installed where; broken installs warn. */
void cp_check_framework_found(const cp_facts *f, cp_finding *o)
{
    const cp_frameworks_facts *fr = &f->frameworks;
    char list[CP_PATH_MAX * 2] = "", cw[32], codes[CP_MAX_FW_CODES * 16], env[CP_PATH_MAX];
    const cp_framework *bad = NULL;
    if (fr->nfw == 0) {
        for (int i = 0; i < fr->npython && i < 4; i++) {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", fr->python[i]);
        }
        cp_set(o, CP_SKIP, "no PyTorch, JAX, CuPy or TensorFlow in the Python environments found: %s",
               list[0] ? list : "none");
        return;
    }
    for (int i = 0; i < fr->nfw && i < CP_MAX_FRAMEWORKS; i++) {
        const cp_framework *fw = &fr->fw[i];
        size_t n = strlen(list);
        snprintf(list + n, sizeof list - n, "%s%s %s (%s)", i ? ", " : "", fw->name,
                 fw->version[0] ? fw->version : "version unknown", cuda_words(fw, cw, sizeof cw));
        cp_evidence(o, "%s %s in %s: %s%s%s", fw->name, vers(fw),
                    env_of(fw, env, sizeof env), cw, fw->cuda_source[0] ? ", from " : "", fw->cuda_source);
        codes_words(fw, codes, sizeof codes);
        if (fw->gpu_lib[0] || fw->ncodes)
            cp_evidence(o, "  GPU code%s%s: %s", fw->gpu_lib[0] ? " of " : "", fw->gpu_lib, codes[0] ? codes : "none read");
        if (fw->problem[0]) {
            cp_evidence(o, "  problem: %s", fw->problem);
            if (!bad) bad = fw;
        }
    }
    if (bad) {
        cp_set(o, CP_WARN, "%s in %s looks broken: %s", bad->name, env_of(bad, env, sizeof env), bad->problem);
        cp_fix(o, "reinstall it in that environment (pip install --force-reinstall %s), or remove the leftover "
               "folders pip no longer knows about", bad->name);
        return;
    }
    cp_set(o, CP_PASS, "%s", list);
}

/* ------------------------------------------------------------ cuda -- */

/* Can the driver run the CUDA each framework was built for?  Newer majors
 * need a newer driver branch; a newer minor runs by minor-version
 * compatibility (warn); a CPU-only build of a GPU framework warns. */
void cp_check_framework_cuda(const cp_facts *f, cp_finding *o)
{
    const cp_frameworks_facts *fr = &f->frameworks;
    int64_t drv = driver_cuda(f);
    char dv[16], hint[192];
    int worst = 0;
    if (fr->nfw == 0) { cp_set(o, CP_SKIP, "no frameworks found"); return; }
    if (!CP_KNOWN(drv)) { cp_set(o, CP_SKIP, "the driver's CUDA version is unknown"); return; }
    int64_t dmaj = drv / 1000, dmin = (drv % 1000) / 10;
    cp_cuda_version_str(drv, dv, sizeof dv);
    for (int i = 0; i < fr->nfw && i < CP_MAX_FRAMEWORKS; i++) {
        const cp_framework *fw = &fr->fw[i];
        int64_t maj, min, patch;
        if (is_cpu(fw)) {
            cp_evidence(o, "%s %s is a CPU-only build", fw->name, vers(fw));
            if (worst < 1) {
                worst = 1;
                cp_set(o, CP_WARN, "%s is a CPU-only build: it will not use the GPU", fw->name);
                install_hint(fw, dmaj, dmin, hint, sizeof hint);
                cp_fix(o, "install its CUDA build for this driver: %s", hint);
            }
            continue;
        }
        if (cp_version_split(fw->cuda_version, &maj, &min, &patch) < 1) {
            cp_evidence(o, "%s %s: the CUDA it was built for is unknown", fw->name, vers(fw));
            continue;
        }
        if (maj > dmaj) {
            const char *need = cp_cuda_min_driver(maj);
            cp_evidence(o, "%s %s is built for CUDA %s: needs driver >= %s", fw->name, vers(fw),
                        fw->cuda_version, need ? need : "(unknown)");
            if (worst < 2) {
                worst = 2;
                cp_set(o, CP_FAIL, "%s %s is built for CUDA %s, which needs driver >= %s (this driver: %s, CUDA %s)",
                       fw->name, vers(fw), fw->cuda_version, need ? need : "(unknown)", driver_name(f), dv);
                install_hint(fw, dmaj, dmin, hint, sizeof hint);
                cp_fix(o, "install the build for CUDA %lld (%s), or upgrade the driver to >= %s",
                       (long long)dmaj, hint, need ? need : "a branch for that CUDA");
            }
        } else if (maj == dmaj && CP_KNOWN(min) && min > dmin) {
            const char *full = cp_cuda_bundled_driver(maj, min);
            cp_evidence(o, "%s %s is built for CUDA %s, newer than the driver's CUDA %s: runs by minor-version "
                        "compatibility; its PTX cannot be JIT-compiled and newer APIs fail", fw->name, vers(fw),
                        fw->cuda_version, dv);
            if (worst < 1) {
                worst = 1;
                cp_set(o, CP_WARN, "%s is built for CUDA %s, newer than this driver's CUDA %s", fw->name,
                       fw->cuda_version, dv);
                cp_fix(o, "upgrade the driver to >= %s for full CUDA %s support", full ? full : "its bundled version",
                       fw->cuda_version);
            }
        } else {
            cp_evidence(o, "%s %s (CUDA %s): this driver (CUDA %s) runs it", fw->name, vers(fw), fw->cuda_version, dv);
        }
    }
    if (worst == 0) cp_set(o, CP_PASS, "the driver (CUDA %s) runs the CUDA every framework was built for", dv);
}

/* ------------------------------------------------------------ arch -- */

/* See framework_checks.h. */
int cp_fw_parse_code(const char *name, int *is_ptx, int *sm, char *variant)
{
    int ptx, v = 0, digits = 0;
    const char *p;
    if (!name) return -1;
    if (strncmp(name, "sm_", 3) == 0) { ptx = 0; p = name + 3; }
    else if (strncmp(name, "compute_", 8) == 0) { ptx = 1; p = name + 8; }
    else return -1;
    for (; *p >= '0' && *p <= '9' && digits < 4; p++, digits++) v = v * 10 + (*p - '0');
    if (digits < 2 || digits > 3 || v < 10) return -1;
    char var = (*p == 'a' || *p == 'f') ? *p++ : 0;
    if (*p) return -1;
    *is_ptx = ptx;
    *sm = v;
    *variant = var;
    return 0;
}

/* The rules of arch.h for one device: 2 when SASS runs natively (which
 * names it), 1 when only PTX can be JIT-compiled (which names the newest
 * such PTX, the one the driver picks), 0 when nothing fits.
 *
 * SASS that fits only as an arch-specific or family variant (sm_90a,
 * sm_100f) covers just the kernels built for it.  Where the entry counts
 * are known and that variant holds fewer than half the entries of the
 * library's largest SASS code, it is partial: the other kernels need PTX
 * (1) or have nothing (0), and *partial says so. */
static int judge(const cp_framework *fw, int cmaj, int cmin, char *which, size_t cap, char *partial, size_t pcap)
{
    int best = -1, variant = -1;
    int64_t most = 0;
    which[0] = partial[0] = '\0';
    for (int i = 0; i < fw->ncodes && i < CP_MAX_FW_CODES; i++) {
        int ptx, sm;
        char var;
        if (cp_fw_parse_code(fw->codes[i], &ptx, &sm, &var) != 0) continue;
        int maj = sm / 10, min = sm % 10, cc = cmaj * 10 + cmin;
        bool same = maj == cmaj && (var == 'a' ? cmin == min : cmin >= min);
        if (!ptx && fw->code_entries[i] > most) most = fw->code_entries[i];
        if (!ptx && same && !var) { snprintf(which, cap, "%s", fw->codes[i]); return 2; }
        if (!ptx && same && (variant < 0 || fw->code_entries[i] > fw->code_entries[variant])) variant = i;
        bool jit = var ? same : cc >= sm;   /* 'a' PTX: exactly; 'f' PTX: its family */
        if (ptx && jit && sm > best) { best = sm; snprintf(which, cap, "%s", fw->codes[i]); }
    }
    if (variant >= 0) {
        int64_t n = fw->code_entries[variant];
        if (n <= 0 || most <= 0 || 2 * n >= most) { snprintf(which, cap, "%s", fw->codes[variant]); return 2; }
        snprintf(partial, pcap, "%s covers only %lld of the %lld kernels other GPUs get", fw->codes[variant],
                 (long long)n, (long long)most);
    }
    return best >= 0 ? 1 : 0;
}

/* One framework on one device; returns 2 fail, 1 ptx note, 0 native. */
static int arch_one(const cp_facts *f, const cp_framework *fw, int cmaj, int cmin, const char *gpu, cp_finding *o,
                    int *worst)
{
    char which[16], codes[CP_MAX_FW_CODES * 16], dv[16], partial[128];
    int64_t drv = driver_cuda(f), maj, min, patch;
    int v = judge(fw, cmaj, cmin, which, sizeof which, partial, sizeof partial);
    if (v == 2) {
        cp_evidence(o, "%s on sm_%d%d (%s): native code %s", fw->name, cmaj, cmin, gpu, which);
        return 0;
    }
    codes_words(fw, codes, sizeof codes);
    if (v == 1) {
        /* under minor-version compatibility the driver's JIT is older than the PTX */
        bool newer = CP_KNOWN(drv) && cp_version_split(fw->cuda_version, &maj, &min, &patch) >= 2 &&
                     maj * 1000 + min * 10 > drv;
        if (!newer) {
            if (partial[0])
                cp_evidence(o, "%s on sm_%d%d (%s): %s; the rest run by JIT-compiling %s at first launch (slow start; "
                            "cached in ~/.nv/ComputeCache up to CUDA_CACHE_MAXSIZE)", fw->name, cmaj, cmin, gpu, partial, which);
            else
                cp_evidence(o, "%s on sm_%d%d (%s): no SASS, runs by JIT-compiling %s at first launch (slow start; "
                            "cached in ~/.nv/ComputeCache up to CUDA_CACHE_MAXSIZE)", fw->name, cmaj, cmin, gpu, which);
            return 1;
        }
        cp_evidence(o, "%s on sm_%d%d (%s): only %s, built by CUDA %s, newer than the driver's JIT (CUDA %s)", fw->name,
                    cmaj, cmin, gpu, which, fw->cuda_version, cp_cuda_version_str(drv, dv, sizeof dv));
        if (*worst < 2)
            cp_set(o, CP_FAIL, "%s has only %s for sm_%d%d and this driver cannot JIT it: 'the provided PTX was "
                   "compiled with an unsupported toolchain'", fw->name, which, cmaj, cmin);
    } else if (partial[0]) {
        cp_evidence(o, "%s on sm_%d%d (%s): %s, and no PTX for the rest (it has %s)", fw->name, cmaj, cmin, gpu,
                    partial, codes);
        if (*worst < 2)
            cp_set(o, CP_FAIL, "%s has sm_%d%d code for only some kernels (%s): the others fail with 'no kernel "
                   "image is available for execution on the device'", fw->name, cmaj, cmin, partial);
    } else {
        cp_evidence(o, "%s on sm_%d%d (%s): no code it can run (it has %s)", fw->name, cmaj, cmin, gpu, codes);
        if (*worst < 2)
            cp_set(o, CP_FAIL, "%s carries no code for sm_%d%d (it has %s): 'no kernel image is available for "
                   "execution on the device'", fw->name, cmaj, cmin, codes);
    }
    if (*worst < 2) {
        if (strcmp(fw->name, "torch") == 0)
            cp_fix(o, "install a torch build that includes sm_%d%d, or build from source with "
                   "TORCH_CUDA_ARCH_LIST=\"%d.%d\"", cmaj, cmin, cmaj, cmin);
        else
            cp_fix(o, "install a %s build that includes sm_%d%d (or upgrade the driver so it can JIT the PTX)",
                   fw->name, cmaj, cmin);
    }
    *worst = 2;
    return 2;
}

/* Does each framework carry GPU code every CUDA device can run? */
void cp_check_framework_arch(const cp_facts *f, cp_finding *o)
{
    const cp_frameworks_facts *fr = &f->frameworks;
    cp_gpu_cc cc[CP_MAX_GPUS];
    int worst = 0, jit = 0, nfw = 0;
    int ndev = cp_facts_gpu_ccs(f, cc, CP_MAX_GPUS);
    if (ndev == 0) { cp_set(o, CP_SKIP, "no CUDA device with a known compute capability"); return; }
    for (int i = 0; i < fr->nfw && i < CP_MAX_FRAMEWORKS; i++) {
        if (fr->fw[i].ncodes <= 0) continue;
        nfw++;
        for (int d = 0; d < ndev; d++)
            jit += arch_one(f, &fr->fw[i], cc[d].major, cc[d].minor, cc[d].name[0] ? cc[d].name : "GPU", o, &worst) == 1;
    }
    if (nfw == 0) { cp_set(o, CP_SKIP, "no framework's GPU code was read"); return; }
    if (worst == 2) return;
    /* PTX JIT works: pass, with the first-launch cost said in the summary */
    if (jit) cp_set(o, CP_PASS, "every framework runs on every GPU, %d of them only through PTX JIT (slow first launch)", jit);
    else cp_set(o, CP_PASS, "every framework carries native code for every GPU");
}

/* ------------------------------------------------------- conflicts -- */

/* Frameworks in one environment built for different CUDA majors pull two
 * sets of nvidia-* wheels whose pins fight, and load two CUDA majors'
 * libraries into one process. */
void cp_check_framework_conflicts(const cp_facts *f, cp_finding *o)
{
    const cp_frameworks_facts *fr = &f->frameworks;
    char ea[CP_PATH_MAX], eb[CP_PATH_MAX];
    int n = fr->nfw < CP_MAX_FRAMEWORKS ? fr->nfw : CP_MAX_FRAMEWORKS, found = 0;
    if (n == 0) { cp_set(o, CP_SKIP, "no frameworks found"); return; }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const cp_framework *a = &fr->fw[i], *b = &fr->fw[j];
            int64_t ma = cuda_major(a), mb = cuda_major(b);
            if (ma < 0 || mb < 0 || ma == mb || strcmp(env_of(a, ea, sizeof ea), env_of(b, eb, sizeof eb)) != 0)
                continue;
            cp_evidence(o, "%s (CUDA %s) and %s (CUDA %s) in %s", a->name, a->cuda_version, b->name, b->cuda_version, ea);
            if (found++) continue;
            cp_set(o, CP_WARN, "%s (CUDA %lld) and %s (CUDA %lld) share one environment but need different CUDA majors",
                   a->name, (long long)ma, b->name, (long long)mb);
            cp_fix(o, "give each its own virtual environment, or install builds of both for CUDA %lld",
                   (long long)(ma > mb ? ma : mb));
        }
    if (!found) cp_set(o, CP_PASS, "no two frameworks in one environment need different CUDA majors");
}

/* Which copy of each CUDA library each framework gets: a library it cannot
 * find fails its import; an LD_LIBRARY_PATH copy that hides the one its own
 * RUNPATH names (the wheel it was built with) is the classic works-here,
 * fails-there. */
void cp_check_framework_libs(const cp_facts *f, cp_finding *o)
{
    const cp_frameworks_facts *F = &f->frameworks;
    int seen = 0, missing = 0, shadowed = 0;
    const cp_framework *mfw = NULL, *sfw = NULL;
    const cp_fw_lib *ml = NULL, *sl = NULL;
    for (int i = 0; i < F->nfw; i++) {
        const cp_framework *x = &F->fw[i];
        for (int k = 0; k < x->nlibs && k < CP_MAX_FW_LIBS; k++) {
            const cp_fw_lib *l = &x->libs[k];
            seen++;
            if (!l->path[0]) {
                cp_evidence(o, "%s needs %s: not found on LD_LIBRARY_PATH, in its RUNPATH or the loader cache",
                            x->name, l->soname);
                if (!missing++) { mfw = x; ml = l; }
            } else if (strcmp(l->via, "LD_LIBRARY_PATH") == 0 && l->runpath_copy[0] &&
                       strcmp(l->path, l->runpath_copy) != 0) {
                cp_evidence(o, "%s gets %s from LD_LIBRARY_PATH: %s, not its own %s", x->name, l->soname,
                            l->path, l->runpath_copy);
                if (!shadowed++) { sfw = x; sl = l; }
            } else {
                cp_evidence(o, "%s gets %s from %s (%s)", x->name, l->soname, l->path, l->via);
            }
        }
    }
    if (!seen) {
        cp_set(o, CP_SKIP, "no framework GPU library was read for the CUDA libraries it needs");
        return;
    }
    if (missing) {
        cp_set(o, CP_FAIL, "%s needs %s and the loader cannot find it", mfw->name, ml->soname);
        cp_fix(o, "reinstall %s with its CUDA wheels (pip install --force-reinstall %s), or put the folder "
               "holding %s on LD_LIBRARY_PATH", mfw->name, mfw->name, ml->soname);
    } else if (shadowed) {
        cp_set(o, CP_WARN, "LD_LIBRARY_PATH hides the %s that %s was built with", sl->soname, sfw->name);
        cp_fix(o, "take '%s' out of LD_LIBRARY_PATH for this environment (frameworks bring their own CUDA "
               "libraries), or make both copies the same version", sl->path);
    } else {
        cp_set(o, CP_PASS, "each framework gets its own copy of the %d CUDA librar%s it needs", seen,
               seen == 1 ? "y" : "ies");
    }
}
