/*
 * Where in the program: the host call stack at CUDA API calls, for
 * libcuprobe-trace.so (see trace_stacks.h).  CUPTI's callback API (on the
 * library's one subscriber) runs on the program's own thread at the entry
 * and exit of the API calls it is enabled for: by default only the
 * synchronising calls' ids (sync_rt and sync_drv below: the waits,
 * *Synchronize* and the copies without Async, as cp_trace_is_sync_name names
 * them), one cuptiEnableCallback each, so that the program's other calls (a
 * launch, ~11 calls a PyTorch op) cost nothing; the whole runtime and driver
 * API domains only when the user asks for sampled stacks of the other calls
 * (CUPROBE_TRACE_STACK_EVERY=N > 0: one in N, at most STACKS_PER_S a
 * second).  The stack is taken at the call's EXIT: the frames are the same,
 * the wait is over, and the call starts when the program made it (an unwind
 * at the entry of a sync delays the call past the moment the GPU runs dry,
 * so the idle gap would no longer begin inside it).  A synchronising call's
 * stack is always taken (up to SYNC_STACKS_PER_S a second: a program that
 * syncs more often than that is told so by its sync share anyway): the
 * native stack with glibc's backtrace() (at most CP_TRACE_MAX_DEPTH frames),
 * encoded as a STACK record (the call's correlation id, the same at exit as
 * at entry, the thread, the return addresses).  A driver call made inside an
 * enabled runtime call is not taken again: the runtime call's stack holds
 * it.
 *
 * The addresses mean something only beside the loaded objects: MODULE
 * records (path, address range, load bias) for every object
 * dl_iterate_phdr lists, at the start, whenever a stack holds an address of
 * no known object and the loader has loaded something since, and at exit.
 * Addresses in no object (a JIT, CPython's perf trampolines) stay as they
 * are: the analysis names those from the perf map (/tmp/perf-<pid>.map).
 *
 * Cost and safety: nothing here waits on the disk; the records go into one
 * pending buffer (a mutex held for a copy) that trace_inject.c's writer
 * takes with CUPTI's buffers, or that the thread offers itself once it
 * passes PENDING_OFFER bytes; past PENDING_MAX the stacks are left out.
 * Only one CUPTI subscriber may exist a process: the library's one
 * (cp_inject_subscriber, shared with --counters) calls cps_callback; when it
 * could not be had because another tool holds it, that is said once and the
 * trace goes on without stacks.
 */
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cupti.h>
#include "cuprobe/trace.h"
#include "trace_inject.h"
#include "trace_stacks.h"

#define MAX_MODULES 4096u
#define PENDING_OFFER (256u << 10)
#define PENDING_MAX (16u << 20)
#define STACKS_PER_S 200             /* sampled calls' stacks a second, at most */
#define SYNC_STACKS_PER_S 1000       /* synchronising calls' stacks a second, at most (a stack costs ~5 us) */
#define DEFAULT_EVERY 0               /* sampled stacks of other calls: only when asked */
#define MAX_CBID 8192u

typedef struct {
    uintptr_t lo, hi;
} range;

static struct {
    CUptiResult (*EnableDomain)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain);
    CUptiResult (*EnableCallback)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);
    CUptiResult (*GetResultString)(CUptiResult, const char **);
} cb;

static struct {
    pthread_mutex_t lock;              /* pending, the module table */
    unsigned char *pending;
    size_t len, cap;
    range mods[MAX_MODULES];           /* sorted by lo */
    size_t nmods;
    unsigned long long adds;           /* the loader's dlpi_adds at the last scan */
    atomic_int on;
    long every;
    struct rate { atomic_long second, count; } sampled, syncs;
    atomic_uchar kind[2][MAX_CBID];    /* 0 not yet known, 1 synchronising, 2 other */
    uint64_t left_out;                 /* stacks not kept: the pending buffer was full */
} sk = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* CPython's frame API, found in the process (dlsym RTLD_DEFAULT) when it
 * is a Python program: used only on a thread that holds the GIL already
 * (never taken here: the thread is inside a CUDA call, and waiting for the
 * GIL there could deadlock).  PyObject is opaque here. */
typedef struct py_object py_object;
static struct {
    int ok;
    int (*IsInitialized)(void);
    int (*GILState_Check)(void);
    void *(*CurrentThreadState)(void);         /* PyThreadState_GetUnchecked / _PyThreadState_UncheckedGet */
    py_object *(*GetFrame)(void);              /* PyEval_GetFrame: borrowed */
    py_object *(*FrameGetCode)(py_object *);   /* new reference */
    py_object *(*FrameGetBack)(py_object *);   /* new reference, or NULL */
    int (*FrameGetLineNumber)(py_object *);
    py_object *(*GetAttrString)(py_object *, const char *);
    const char *(*AsUTF8)(py_object *);
    void (*DecRef)(py_object *);
    void (*ErrFetch)(py_object **, py_object **, py_object **);
    void (*ErrRestore)(py_object *, py_object *, py_object *);
} py;

#define PY_FRAMES 8

static _Thread_local int tl_in_runtime;   /* inside an enabled runtime call: its driver calls are not taken */
static _Thread_local long tl_calls;

/* Room for n more pending bytes (lock held); 0: past the bound or no memory. */
static int room(size_t n)
{
    if (sk.cap - sk.len >= n) return 1;
    if (sk.len + n > PENDING_MAX) return 0;
    size_t cap = sk.cap ? sk.cap * 2 : 64u << 10;
    while (cap - sk.len < n) cap *= 2;
    unsigned char *p = realloc(sk.pending, cap);
    if (!p) return 0;
    sk.pending = p;
    sk.cap = cap;
    return 1;
}

/* ------------------------------------------------------------ modules -- */

typedef struct {
    range r;
    uintptr_t bias;
    char path[512];
    unsigned char id[CP_TRACE_MAX_BUILD_ID];
    size_t idlen;
} found_mod;

typedef struct {
    found_mod *v;
    size_t n, cap;
    unsigned long long adds;
    int first, unchanged;
} scan;

static int on_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    scan *s = arg;
    (void)size;
    if (s->first) {
        s->first = 0;
        s->adds = info->dlpi_adds;
        if (s->unchanged) return 1;               /* nothing loaded since the last scan */
    }
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    found_mod *m = s->n < s->cap ? &s->v[s->n] : NULL;
    if (m) m->idlen = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_NOTE && m && !m->idlen)     /* the notes are mapped: the build id, from memory */
            m->idlen = cp_trace_note_build_id((const unsigned char *)(info->dlpi_addr + p->p_vaddr), p->p_memsz, m->id);
        if (p->p_type != PT_LOAD) continue;
        uintptr_t a = info->dlpi_addr + p->p_vaddr, b = a + p->p_memsz;
        if (a < lo) lo = a;
        if (b > hi) hi = b;
    }
    if (hi <= lo || !m) return 0;
    m->r.lo = lo;
    m->r.hi = hi;
    m->bias = info->dlpi_addr;
    const char *name = info->dlpi_name;
    if (name && *name) {
        size_t l = strnlen(name, sizeof m->path - 1);
        memcpy(m->path, name, l);
        m->path[l] = '\0';
    } else if (s->n == 0) {                       /* the program itself comes first, unnamed */
        ssize_t l = readlink("/proc/self/exe", m->path, sizeof m->path - 1);
        m->path[l > 0 ? l : 0] = '\0';
    } else return 0;                              /* the vDSO and the like: no file */
    s->n++;
    return 0;
}

static size_t mod_find(uintptr_t a)
{
    size_t lo = 0, hi = sk.nmods;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (sk.mods[mid].lo <= a) lo = mid + 1;
        else hi = mid;
    }
    return lo;                                    /* mods[lo-1] is the last one starting at or below a */
}

static int mod_known(uintptr_t a)
{
    size_t i = mod_find(a);
    return i > 0 && a < sk.mods[i - 1].hi;
}

/* List the loaded objects (outside the lock: the loader takes its own) and
 * record the ones not seen before.  force: even when the loader says
 * nothing was loaded since the last scan. */
static void scan_modules(int force)
{
    static found_mod buf[1024];                   /* one scan at a time: under scan_lock */
    static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&scan_lock);
    scan s = { buf, 0, sizeof buf / sizeof buf[0], 0, 1, 0 };
    pthread_mutex_lock(&sk.lock);
    unsigned long long last = sk.adds;
    pthread_mutex_unlock(&sk.lock);
    s.unchanged = !force && last != 0;
    dl_iterate_phdr(on_object, &s);
    if (!(s.unchanged && s.adds == last)) {
        pthread_mutex_lock(&sk.lock);
        sk.adds = s.adds ? s.adds : 1;
        for (size_t i = 0; i < s.n && sk.nmods < MAX_MODULES; i++) {
            found_mod *m = &s.v[i];
            size_t k = mod_find(m->r.lo);
            if (k > 0 && sk.mods[k - 1].lo == m->r.lo && sk.mods[k - 1].hi == m->r.hi) continue;
            size_t plen = strlen(m->path);
            if (!room(CP_TRACE_REC_HEAD + CP_TREC_MODULE_HEAD + plen + 8 + CP_TRACE_MAX_BUILD_ID)) continue;
            memmove(&sk.mods[k + 1], &sk.mods[k], (sk.nmods - k) * sizeof sk.mods[0]);
            sk.mods[k] = m->r;
            sk.nmods++;
            sk.len += cp_trace_encode_module(sk.pending + sk.len, sk.cap - sk.len, m->r.lo, m->r.hi, m->bias,
                                             m->path, plen, m->id, m->idlen);
        }
        pthread_mutex_unlock(&sk.lock);
    }
    pthread_mutex_unlock(&scan_lock);
}

/* ------------------------------------------------------------- stacks -- */

static int is_sync_call(int runtime, uint32_t cbid, const char *name)
{
    if (cbid >= MAX_CBID) return name && cp_trace_is_sync_name(name);
    unsigned char k = atomic_load_explicit(&sk.kind[runtime][cbid], memory_order_relaxed);
    if (!k) {
        k = name && cp_trace_is_sync_name(name) ? 1 : 2;
        atomic_store_explicit(&sk.kind[runtime][cbid], k, memory_order_relaxed);
    }
    return k == 1;
}

/* 1 while this second has taken fewer than per_s stacks of this kind. */
static int within(struct rate *r, long per_s)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    long sec = (long)now.tv_sec;
    if (atomic_load_explicit(&r->second, memory_order_relaxed) != sec) {
        atomic_store_explicit(&r->second, sec, memory_order_relaxed);
        atomic_store_explicit(&r->count, 0, memory_order_relaxed);
    }
    return atomic_fetch_add_explicit(&r->count, 1, memory_order_relaxed) < per_s;
}

/* A sampled call's turn: one in `every`, and at most STACKS_PER_S a second. */
static int sample_now(void)
{
    if (sk.every <= 0 || ++tl_calls % sk.every) return 0;
    return within(&sk.sampled, STACKS_PER_S);
}

static void find_python(void)
{
#define PY(m, n) (*(void **)&py.m = dlsym(RTLD_DEFAULT, n))
    PY(IsInitialized, "Py_IsInitialized");
    PY(GILState_Check, "PyGILState_Check");
    if (!PY(CurrentThreadState, "PyThreadState_GetUnchecked")) PY(CurrentThreadState, "_PyThreadState_UncheckedGet");
    PY(GetFrame, "PyEval_GetFrame");
    PY(FrameGetCode, "PyFrame_GetCode");
    PY(FrameGetBack, "PyFrame_GetBack");
    PY(FrameGetLineNumber, "PyFrame_GetLineNumber");
    PY(GetAttrString, "PyObject_GetAttrString");
    PY(AsUTF8, "PyUnicode_AsUTF8");
    PY(DecRef, "Py_DecRef");
    PY(ErrFetch, "PyErr_Fetch");
    PY(ErrRestore, "PyErr_Restore");
#undef PY
    py.ok = py.IsInitialized && py.GILState_Check && py.CurrentThreadState && py.GetFrame && py.FrameGetCode &&
            py.FrameGetBack && py.FrameGetLineNumber && py.GetAttrString && py.AsUTF8 && py.DecRef && py.ErrFetch &&
            py.ErrRestore;
}

/* A code object's attribute as text into b at *len (a tab-free copy). */
static void py_attr(py_object *code, const char *name, char *b, size_t cap, size_t *len)
{
    py_object *v = py.GetAttrString(code, name);
    const char *s = v ? py.AsUTF8(v) : NULL;
    for (; s && *s && *len + 1 < cap; s++) b[(*len)++] = *s == '\t' || *s == '\n' ? ' ' : *s;
    if (v) py.DecRef(v);
}

/* The interpreter's innermost frames as "function\tfile\tline\n" lines into b;
 * the count of bytes, 0 when this thread does not hold the GIL. */
static size_t python_frames(char *b, size_t cap)
{
    if (!py.ok || !py.IsInitialized() || py.GILState_Check() != 1 || !py.CurrentThreadState()) return 0;
    py_object *et, *ev, *tb;
    py.ErrFetch(&et, &ev, &tb);                   /* a pending exception stays as it was */
    size_t len = 0;
    py_object *f = py.GetFrame(), *owned = NULL;
    for (int k = 0; f && k < PY_FRAMES && len + 64 < cap; k++) {    /* cap - 24 for the names: the line fits */
        py_object *code = py.FrameGetCode(f);
        if (code) {
            py_attr(code, "co_name", b, cap - 24, &len);
            b[len++] = '\t';
            py_attr(code, "co_filename", b, cap - 24, &len);
            int w = snprintf(b + len, cap - len, "\t%d\n", py.FrameGetLineNumber(f));
            py.DecRef(code);
            if (w < 0 || (size_t)w >= cap - len) break;
            len += (size_t)w;
        }
        py_object *back = py.FrameGetBack(f);
        if (owned) py.DecRef(owned);
        owned = f = back;
    }
    if (owned) py.DecRef(owned);
    py.ErrRestore(et, ev, tb);
    return len < cap ? len : 0;
}

static void take_stack(int runtime, uint32_t corr, int sampled)
{
    void *pcs[CP_TRACE_MAX_DEPTH];
    uint64_t addr[CP_TRACE_MAX_DEPTH];
    int n = backtrace(pcs, (int)CP_TRACE_MAX_DEPTH);
    if (n <= 1) return;
    /* frame 0 is this function: leave it out */
    size_t depth = (size_t)n - 1;
    for (size_t i = 0; i < depth; i++) addr[i] = (uint64_t)(uintptr_t)pcs[i + 1];
    char pyf[CP_TRACE_MAX_PYFRAMES];
    size_t pylen = python_frames(pyf, sizeof pyf);
    unsigned char rec[CP_TRACE_REC_HEAD + CP_TREC_STACK_HEAD + 8 * CP_TRACE_MAX_DEPTH + 8 + CP_TRACE_MAX_PYFRAMES];
    size_t len = cp_trace_encode_stack(rec, sizeof rec, (uint64_t)pthread_self(), corr,
                                       runtime ? CP_API_RUNTIME : CP_API_DRIVER, sampled ? CP_STACK_SAMPLED : 0,
                                       addr, depth, pylen ? pyf : NULL, pylen);
    if (!len || len > sizeof rec) return;
    int unknown = 0;
    unsigned char *give = NULL;
    size_t give_len = 0;
    pthread_mutex_lock(&sk.lock);
    for (size_t i = 0; i < depth && !unknown; i++) unknown = !mod_known((uintptr_t)addr[i]);
    if (room(len)) {
        memcpy(sk.pending + sk.len, rec, len);
        sk.len += len;
    } else sk.left_out++;
    if (sk.len >= PENDING_OFFER) {
        give = sk.pending;
        give_len = sk.len;
        sk.pending = NULL;
        sk.len = sk.cap = 0;
    }
    pthread_mutex_unlock(&sk.lock);
    if (give && !cp_inject_offer(give, give_len)) {      /* not now: put them back in front */
        pthread_mutex_lock(&sk.lock);
        if (!sk.pending) {
            sk.pending = give;
            sk.len = sk.cap = give_len;
            give = NULL;
        } else if (room(give_len)) {
            memmove(sk.pending + give_len, sk.pending, sk.len);
            memcpy(sk.pending, give, give_len);
            sk.len += give_len;
        }
        pthread_mutex_unlock(&sk.lock);
        free(give);
    }
    if (unknown) scan_modules(0);
}

/* See trace_stacks.h. */
void cps_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const CUpti_CallbackData *d = data;
    int runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    if (d->callbackSite == CUPTI_API_ENTER) {     /* only counted: the stack is taken at the exit */
        if (runtime) tl_in_runtime++;
        return;
    }
    if (d->callbackSite != CUPTI_API_EXIT) return;
    if (runtime) {
        if (tl_in_runtime > 0) tl_in_runtime--;
    } else if (tl_in_runtime > 0) return;         /* the runtime call around it has its turn at its exit */
    if (!atomic_load_explicit(&sk.on, memory_order_relaxed)) return;
    int sync = is_sync_call(runtime, cbid, d->functionName);
    if (sync ? !within(&sk.syncs, SYNC_STACKS_PER_S) : !sample_now()) return;
    take_stack(runtime, d->correlationId, !sync);
}

/* ------------------------------------------------------ start and end -- */

/* The synchronising calls (cp_trace_is_sync_name's rule), every version
 * CUPTI names: the callbacks enabled when no sampled stacks are asked. */
static const CUpti_CallbackId sync_rt[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2D_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DArrayToArray_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DFromArray_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy2DToArray_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3D_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_v4000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DPeer_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyArrayToArray_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromArray_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToArray_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyFromSymbol_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyToSymbol_ptds_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeer_v4000,
};
static const CUpti_CallbackId sync_drv[] = {
    CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyPeer_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoA_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoD_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoA_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoH_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyAtoA_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DUnaligned_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3D_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy3DPeer_ptds,
};

/* Call back where stacks are due: the whole API domains when other calls
 * are sampled, else the synchronising calls alone (an id this libcupti
 * refuses, one it does not know, is left out).  0: refused, all of them. */
static int enable_callbacks(CUpti_SubscriberHandle sub)
{
    if (sk.every > 0)
        return cb.EnableDomain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API) == CUPTI_SUCCESS &&
               cb.EnableDomain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API) == CUPTI_SUCCESS;
    size_t on = 0;
    for (size_t i = 0; i < sizeof sync_rt / sizeof sync_rt[0]; i++)
        on += cb.EnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API, sync_rt[i]) == CUPTI_SUCCESS;
    for (size_t i = 0; i < sizeof sync_drv / sizeof sync_drv[0]; i++)
        on += cb.EnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, sync_drv[i]) == CUPTI_SUCCESS;
    return on > 0;
}

/* See trace_stacks.h. */
int cps_start(void *cupti)
{
    const char *off = getenv("CUPROBE_TRACE_STACKS");
    if (off && strcmp(off, "0") == 0) return 0;
    const char *every = getenv("CUPROBE_TRACE_STACK_EVERY");
    sk.every = DEFAULT_EVERY;
    if (every && *every) {
        char *end;
        long v = strtol(every, &end, 10);
        if (*end == '\0' && v >= 0) sk.every = v;
    }
#define SYM(m, n) (*(void **)&cb.m = dlsym(cupti, n))
    if (!dlsym(cupti, "cuptiSubscribe") || !SYM(EnableDomain, "cuptiEnableDomain") ||
        !SYM(EnableCallback, "cuptiEnableCallback")) {
        cp_inject_say("libcupti lacks the callback API; tracing without call stacks", NULL);
        return 0;
    }
    SYM(GetResultString, "cuptiGetResultString");
#undef SYM
    void *warm[4];
    if (backtrace(warm, 4) <= 0) {                /* the first call loads libgcc_s: not inside a CUDA call */
        cp_inject_say("backtrace() gives no stack here; tracing without call stacks", NULL);
        return 0;
    }
    find_python();
    scan_modules(1);
    CUpti_SubscriberHandle sub;
    CUptiResult r = cp_inject_subscriber(cupti, &sub);  /* the library's one subscriber: cps_callback */
    if (r != CUPTI_SUCCESS) {
        const char *s = NULL;
        if (!cb.GetResultString || cb.GetResultString(r, &s) != CUPTI_SUCCESS) s = NULL;
        cp_inject_say("CUPTI's callback API is held by another tool; tracing without call stacks", s ? s : "CUPTI error");
        return 0;
    }
    if (!enable_callbacks(sub)) {
        cp_inject_say("CUPTI would not call back at API calls; tracing without call stacks", NULL);
        return 0;
    }
    atomic_store(&sk.on, 1);
    return 1;
}

/* See trace_stacks.h. */
unsigned char *cps_take(size_t *len)
{
    pthread_mutex_lock(&sk.lock);
    unsigned char *p = sk.len ? sk.pending : NULL;
    *len = p ? sk.len : 0;
    if (p) {
        sk.pending = NULL;
        sk.len = sk.cap = 0;
    }
    pthread_mutex_unlock(&sk.lock);
    return p;
}

/* See trace_stacks.h. */
void cps_stop(void)
{
    if (!atomic_exchange(&sk.on, 0)) return;
    scan_modules(0);
}

/* See trace_stacks.h. */
void cps_child(void)
{
    atomic_store(&sk.on, 0);
}
