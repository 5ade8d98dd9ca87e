/*
 * A fake libcuda.so.1 driven by a scenario file (see fake_common.h for the
 * keys).  It exports the symbol names the real driver exports, including the
 * legacy unversioned cuDeviceTotalMem with its 32-bit ABI, which answers a
 * poisoned value: a caller that resolved the plain name instead of
 * cuDeviceTotalMem_v2 reads garbage and the tests notice.
 *
 * Its own types are declared here on purpose and not taken from cuprobe's
 * headers, so a mistake in those cannot hide itself.  The one cuprobe header
 * it includes is kernels/kernels.h, for the probe kernels' CPU twins: a
 * launch of a probe kernel runs its twin over the arguments.
 *
 * The runtime's calls (contexts, memory, copies, modules, launches, streams,
 * events, graphs: the end of this file) are carried out over host memory; see
 * fake_common.h for what each does and for the cuda.rt.* keys.
 */
#include <signal.h>
#include <time.h>
#include <stddef.h>
#include <unistd.h>

#include "fake_common.h"
#include "kernels/kernels.h"   /* the CPU twins a launch runs */

typedef int CUresult;
typedef int CUdevice;
typedef struct { unsigned char bytes[16]; } CUuuid;

enum {
    FK_SUCCESS = 0, FK_INVALID_VALUE = 1, FK_OUT_OF_MEMORY = 2, FK_NOT_INITIALIZED = 3, FK_STUB = 34,
    FK_NO_DEVICE = 100, FK_INVALID_DEVICE = 101, FK_INVALID_IMAGE = 200, FK_INVALID_CONTEXT = 201,
    FK_INVALID_HANDLE = 400, FK_NOT_FOUND = 500, FK_ILLEGAL_ADDRESS = 700, FK_LAUNCH_FAILED = 719,
    FK_NOT_SUPPORTED = 801, FK_CAPTURE_UNSUPPORTED = 900
};

#define FK_MAX_DEV 64

FK_LOAD_CONSTRUCTOR("cuda")

static int g_init;            /* the last cuInit succeeded */
static void rt_reset(void);   /* the runtime part's counters, below */
static int g_vis[FK_MAX_DEV]; /* visible ordinal -> physical device */
static int g_nvis;

static int is_stub(void)
{
    return fk_int("cuda.stub", 0) != 0;
}

/* The physical device whose "GPU-..." UUID starts with prefix, if exactly one. */
static int by_uuid_prefix(const char *prefix, int nphys)
{
    int found = -1;
    for (int i = 0; i < nphys; i++) {
        const char *u = fk_dev("cuda", i, "uuid");
        if (u && strncmp(u, prefix, strlen(prefix)) == 0) {
            if (found >= 0)
                return -1;
            found = i;
        }
    }
    return found;
}

static int one_visible(char *tok, int nphys)
{
    char *t = fk_trim(tok);
    if (!*t)
        return -1;
    if (strncmp(t, "GPU-", 4) == 0)
        return by_uuid_prefix(t, nphys);
    long long ord;
    if (!fk_num(t, &ord) || ord < 0 || ord >= nphys)
        return -1;
    return (int)ord;
}

/* CUDA_VISIBLE_DEVICES as the driver reads it: stop at the first entry that
 * is invalid or repeats one already taken. */
static void compute_visible(int nphys)
{
    const char *env = getenv("CUDA_VISIBLE_DEVICES");
    g_nvis = 0;
    if (!env) {
        for (int i = 0; i < nphys; i++)
            g_vis[g_nvis++] = i;
        return;
    }
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", env);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int phys = one_visible(tok, nphys);
        if (phys < 0)
            return;
        for (int i = 0; i < g_nvis; i++)
            if (g_vis[i] == phys)
                return;
        g_vis[g_nvis++] = phys;
    }
}

CUresult cuInit(unsigned int flags)
{
    fk_load(1);
    g_init = 0;
    if (is_stub())
        return FK_STUB;
    if (fk_int("cuda.crash", 0))
        raise(SIGSEGV);
    if (fk_int("cuda.init.hang", 0))
        for (;;)
            pause();
    long long init_ms = fk_int("cuda.init.ms", 0);
    if (init_ms > 0) {
        struct timespec t = { (time_t)(init_ms / 1000), (long)(init_ms % 1000) * 1000000L };
        while (nanosleep(&t, &t) != 0) {}
    }
    if (fk_int("cuda.init.fork_holder", 0) && fork() == 0)
        for (;;)
            pause();          /* keeps the caller's descriptors open forever */
    if (flags != 0)
        return FK_INVALID_VALUE;
    long long r = fk_int("cuda.init", 0);
    if (r != 0)
        return (CUresult)r;
    long long n = fk_int("cuda.devices", 0);
    compute_visible(n < 0 ? 0 : n > FK_MAX_DEV ? FK_MAX_DEV : (int)n);
    if (g_nvis == 0)
        return FK_NO_DEVICE;
    g_init = 1;
    rt_reset();
    return FK_SUCCESS;
}

/* Works before cuInit, like the driver's. */
CUresult cuDriverGetVersion(int *version)
{
    long long v;
    if (is_stub())
        return FK_STUB;
    if (!version)
        return FK_INVALID_VALUE;
    if (!fk_num(fk_get("cuda.version"), &v))
        return FK_NOT_SUPPORTED;
    *version = (int)v;
    return FK_SUCCESS;
}

static CUresult common(void)
{
    if (is_stub())
        return FK_STUB;
    return g_init ? FK_SUCCESS : FK_NOT_INITIALIZED;
}

/* Map a visible ordinal to the physical device. */
static CUresult physical(CUdevice dev, int *phys)
{
    CUresult r = common();
    if (r != FK_SUCCESS)
        return r;
    if (dev < 0 || dev >= g_nvis)
        return FK_INVALID_DEVICE;
    *phys = g_vis[dev];
    return FK_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    CUresult r = common();
    if (r != FK_SUCCESS)
        return r;
    if (!count)
        return FK_INVALID_VALUE;
    *count = (int)fk_int("cuda.count", g_nvis);
    return FK_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
    int phys;
    CUresult r = physical(ordinal, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!dev)
        return FK_INVALID_VALUE;
    *dev = ordinal;
    return FK_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!name || len <= 0)
        return FK_INVALID_VALUE;
    const char *v = fk_dev("cuda", phys, "name");
    if (!v)
        return FK_NOT_SUPPORTED;
    snprintf(name, (size_t)len, "%s", v);
    return FK_SUCCESS;
}

static CUresult attribute(int phys, int attr, int *value)
{
    int maj, min;
    unsigned dom, bus, slot, fn;
    long long v;
    const char *cc = fk_dev("cuda", phys, "cc"), *pci = fk_dev("cuda", phys, "pci");

    switch (attr) {
    case 75: case 76:
        if (!fk_cc(cc, &maj, &min))
            return FK_NOT_SUPPORTED;
        *value = attr == 75 ? maj : min;
        return FK_SUCCESS;
    case 33: case 34: case 50:
        if (!fk_pci(pci, &dom, &bus, &slot, &fn))
            return FK_NOT_SUPPORTED;
        *value = (int)(attr == 33 ? bus : attr == 34 ? slot : dom);
        return FK_SUCCESS;
    case 16: case 20:
        if (!fk_num(fk_dev("cuda", phys, attr == 16 ? "sms" : "compute_mode"), &v))
            return FK_NOT_SUPPORTED;
        *value = (int)v;
        return FK_SUCCESS;
    default: {
        /* any other attribute: cuda.devN.attr.NUM, else cuda.attr.NUM for
         * every device; neither: the driver does not know the number */
        char key[FK_KEY];
        snprintf(key, sizeof key, "attr.%d", attr);
        const char *a = fk_dev("cuda", phys, key);
        snprintf(key, sizeof key, "cuda.attr.%d", attr);
        if (!fk_num(a ? a : fk_get(key), &v))
            return FK_INVALID_VALUE;
        *value = (int)v;
        return FK_SUCCESS;
    }
    }
}

/* Is n in the comma list v ("1,3")? */
static int in_list(const char *v, int n)
{
    for (const char *p = v; p && *p;) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p) return 0;
        if (x == n) return 1;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* cuda.p2p=1|0 for every pair (missing: 801), cuda.devN.p2p_no=LIST the
 * physical devices N cannot reach. */
CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
    int phys, pphys;
    long long all;
    CUresult r = physical(dev, &phys);
    if (r == FK_SUCCESS)
        r = physical(peer, &pphys);
    if (r != FK_SUCCESS)
        return r;
    if (!can || phys == pphys)
        return FK_INVALID_VALUE;     /* the driver's answer for a device and itself */
    if (!fk_num(fk_get("cuda.p2p"), &all))
        return FK_NOT_SUPPORTED;
    *can = all && !in_list(fk_dev("cuda", phys, "p2p_no"), pphys);
    return FK_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, int attr, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!value)
        return FK_INVALID_VALUE;
    return attribute(phys, attr, value);
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    int phys;
    long long v;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!bytes)
        return FK_INVALID_VALUE;
    if (!fk_num(fk_dev("cuda", phys, "mem"), &v))
        return FK_NOT_SUPPORTED;
    *bytes = (size_t)v;
    return FK_SUCCESS;
}

/* The CUDA 2.x ABI still exported by the real driver: 32-bit size.  Answers
 * a poisoned value so a caller that picked this symbol is caught. */
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!bytes)
        return FK_INVALID_VALUE;
    *bytes = 0x0BADBAD0u;
    return FK_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev)
{
    int phys;
    unsigned dom, bus, slot, fn;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!bus_id || len <= 0)
        return FK_INVALID_VALUE;
    if (!fk_pci(fk_dev("cuda", phys, "pci"), &dom, &bus, &slot, &fn))
        return FK_NOT_SUPPORTED;
    /* the driver prints uppercase hex */
    snprintf(bus_id, (size_t)len, "%04X:%02X:%02X.%X", dom, bus, slot, fn);
    return FK_SUCCESS;
}

/* "GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e" -> 16 bytes. */
static int parse_uuid(const char *s, CUuuid *out)
{
    int n = 0;
    if (!s || strncmp(s, "GPU-", 4) != 0)
        return 0;
    for (s += 4; *s && n < 32; s++) {
        unsigned d;
        if (*s == '-')
            continue;
        if (sscanf(s, "%1x", &d) != 1)
            return 0;
        if (n % 2 == 0)
            out->bytes[n / 2] = (unsigned char)(d << 4);
        else
            out->bytes[n / 2] |= (unsigned char)d;
        n++;
    }
    return n == 32 && *s == '\0';
}

/* Not through the symbol table: cuDeviceGetUuid_v2 may be dropped. */
static CUresult get_uuid(CUuuid *uuid, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!uuid)
        return FK_INVALID_VALUE;
    return parse_uuid(fk_dev("cuda", phys, "uuid"), uuid) ? FK_SUCCESS : FK_NOT_SUPPORTED;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    return get_uuid(uuid, dev);
}

/* CUDA 9.2's name; the same answer without MIG. */
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    return get_uuid(uuid, dev);
}

static const struct { int code; const char *name, *text; } errors[] = {
    { 0, "CUDA_SUCCESS", "no error" },
    { 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
    { 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
    { 3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
    { 34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library" },
    { 46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "CUDA-capable device(s) is/are busy or unavailable" },
    { 100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
    { 101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
    { 200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid" },
    { 201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context" },
    { 400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
    { 500, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
    { 700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
    { 719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure" },
    { 801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
    { 900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "operation not permitted when stream is capturing" },
    { 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
      "system has unsupported display driver / cuda driver combination" },
    { 999, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

static CUresult error_lookup(CUresult e, const char **str, int want_name)
{
    if (is_stub())
        return FK_STUB;
    if (!str)
        return FK_INVALID_VALUE;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == e) {
            *str = want_name ? errors[i].name : errors[i].text;
            return FK_SUCCESS;
        }
    *str = NULL;
    return FK_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **str)
{
    return error_lookup(error, str, 1);
}

CUresult cuGetErrorString(CUresult error, const char **str)
{
    return error_lookup(error, str, 0);
}

/* ==== the runtime's calls, over host memory ==== */

typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef unsigned long long CUdeviceptr;

enum { FK_M_CTX = 0x66637478, FK_M_STREAM, FK_M_EVENT, FK_M_MODULE, FK_M_GRAPH, FK_M_EXEC };
#define FK_MAX_ARGS 5
#define FK_ALIGN 256

typedef struct { int magic; int dev; int refs; } fk_ctx;
static fk_ctx g_ctx[FK_MAX_DEV];
static fk_ctx *g_current;

typedef struct fk_alloc {
    unsigned char *p;
    size_t bytes;
    int dev;                  /* visible ordinal; -1: pinned host memory */
    struct fk_alloc *next;
} fk_alloc;
static fk_alloc *g_allocs;
static long long g_nalloc;    /* cuMemAlloc calls since cuInit */
static int g_illegal_done;    /* cuda.rt.illegal_address has struck */
static void *g_pending_700;   /* the stream whose next sync answers 700 */

struct fk_kernel;
typedef struct {
    const struct fk_kernel *k;
    unsigned char args[FK_MAX_ARGS][8];
} fk_launch;

typedef struct {
    int magic;
    int capturing;
    fk_launch *cap;
    size_t ncap;
} fk_stream;

typedef struct {
    int magic;
    fk_launch *l;
    size_t n;
} fk_graph;

typedef struct { int magic; int recorded; long long ns; } fk_event;
typedef struct { int magic; } fk_module;

static void rt_reset(void)
{
    g_nalloc = 0;
    g_current = NULL;
    g_illegal_done = 0;
    g_pending_700 = NULL;
    for (int i = 0; i < FK_MAX_DEV; i++)
        g_ctx[i] = (fk_ctx){ FK_M_CTX, i, 0 };
}

static void hang(void)
{
    for (;;)
        pause();
}

/* cuda.rt.sync_ms=N: the process's first synchronize takes N ms (a GPU
 * busy with a long kernel), every later one returns at once. */
static void slow_once(void)
{
    static int done;
    long long ms = fk_int("cuda.rt.sync_ms", 0);
    if (done || ms <= 0)
        return;
    done = 1;
    struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static CUresult need_ctx(void)
{
    CUresult r = common();
    if (r != FK_SUCCESS)
        return r;
    return g_current && g_current->refs > 0 ? FK_SUCCESS : FK_INVALID_CONTEXT;
}

/* ---- contexts ---- */

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    long long fail = fk_int("cuda.rt.ctx_fail", 0);
    if (fail != 0)
        return (CUresult)fail;
    if (!ctx)
        return FK_INVALID_VALUE;
    g_ctx[dev].refs++;
    *ctx = (CUcontext)(void *)&g_ctx[dev];
    return FK_SUCCESS;
}

/* Memory is never freed here: a caller that forgets some is caught. */
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (g_ctx[dev].refs <= 0)
        return FK_INVALID_CONTEXT;
    g_ctx[dev].refs--;
    return FK_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    CUresult r = common();
    if (r != FK_SUCCESS)
        return r;
    fk_ctx *c = (fk_ctx *)(void *)ctx;
    if (c && (c < g_ctx || c >= g_ctx + FK_MAX_DEV || c->magic != FK_M_CTX))
        return FK_INVALID_CONTEXT;
    g_current = c;
    return FK_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    if (fk_int("cuda.rt.sync_hang", 0))
        hang();
    slow_once();
    if (g_pending_700) {
        g_pending_700 = NULL;
        return FK_ILLEGAL_ADDRESS;
    }
    return FK_SUCCESS;
}

/* ---- memory ---- */

/* Total and free of the current device: cuda.devN.mem, less nvml.devN.mem_used
 * (what others hold), less what was allocated here.  0 when mem is absent. */
static int mem_of(int dev, size_t *free_bytes, size_t *total_bytes)
{
    long long total, used = 0;
    int phys = g_vis[dev];
    if (!fk_num(fk_dev("cuda", phys, "mem"), &total))
        return 0;
    (void)fk_num(fk_dev("nvml", phys, "mem_used"), &used);
    for (const fk_alloc *a = g_allocs; a; a = a->next)
        if (a->dev == dev)
            used += (long long)a->bytes;
    *total_bytes = (size_t)total;
    *free_bytes = used >= total ? 0 : (size_t)(total - used);
    return 1;
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    if (!free_bytes || !total_bytes)
        return FK_INVALID_VALUE;
    return mem_of(g_current->dev, free_bytes, total_bytes) ? FK_SUCCESS : FK_NOT_SUPPORTED;
}

static CUresult alloc(void **out, size_t bytes, int dev)
{
    if (!out || bytes == 0)
        return FK_INVALID_VALUE;
    fk_alloc *a = malloc(sizeof *a);
    size_t rounded = (bytes + FK_ALIGN - 1) / FK_ALIGN * FK_ALIGN;
    void *p = rounded >= bytes ? aligned_alloc(FK_ALIGN, rounded) : NULL;
    if (!a || !p) {
        free(a);
        free(p);
        return FK_OUT_OF_MEMORY;
    }
    *a = (fk_alloc){ p, bytes, dev, g_allocs };
    g_allocs = a;
    *out = p;
    return FK_SUCCESS;
}

static CUresult release(const void *p, int device)
{
    for (fk_alloc **at = &g_allocs; *at; at = &(*at)->next) {
        fk_alloc *a = *at;
        if (a->p == p && (a->dev >= 0) == device) {
            *at = a->next;
            free(a->p);
            free(a);
            return FK_SUCCESS;
        }
    }
    return FK_INVALID_VALUE;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
    size_t free_b, total_b;
    void *p;
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    if (!dptr || bytes == 0)
        return FK_INVALID_VALUE;
    if (++g_nalloc == fk_int("cuda.rt.oom_at", 0))
        return FK_OUT_OF_MEMORY;
    if (mem_of(g_current->dev, &free_b, &total_b) && bytes > free_b)
        return FK_OUT_OF_MEMORY;
    r = alloc(&p, bytes, g_current->dev);
    if (r == FK_SUCCESS)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return r;
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    return dptr == 0 ? FK_SUCCESS : release((void *)(uintptr_t)dptr, 1);
}

CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned int flags)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    if (flags & ~0x0fu)
        return FK_INVALID_VALUE;
    return alloc(p, bytes, -1);
}

CUresult cuMemFreeHost(void *p)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    return release(p, 0);
}

/* The host address of [d, d + bytes) when a device allocation holds it all. */
static void *dev_range(CUdeviceptr d, size_t bytes)
{
    uintptr_t lo = (uintptr_t)d;
    for (const fk_alloc *a = g_allocs; a; a = a->next) {
        uintptr_t b = (uintptr_t)a->p;
        if (a->dev >= 0 && lo >= b && lo - b <= a->bytes && bytes <= a->bytes - (lo - b))
            return (void *)lo;
    }
    return NULL;
}

/* A stream handle: the legacy and per-thread default streams give NULL. */
static CUresult get_stream(CUstream h, fk_stream **out)
{
    uintptr_t v = (uintptr_t)(void *)h;
    *out = NULL;
    if (v <= 2)
        return FK_SUCCESS;
    fk_stream *s = (fk_stream *)(void *)h;
    if (s->magic != FK_M_STREAM)
        return FK_INVALID_HANDLE;
    *out = s;
    return FK_SUCCESS;
}

/* Checks shared by the copies and memsets: context, stream, and a stream
 * being captured (only launches are captured here). */
static CUresult async_ok(CUstream h)
{
    fk_stream *s;
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    r = get_stream(h, &s);
    if (r != FK_SUCCESS)
        return r;
    return s && s->capturing ? FK_CAPTURE_UNSUPPORTED : FK_SUCCESS;
}

static CUresult htod(CUdeviceptr dst, const void *src, size_t bytes, CUstream h)
{
    CUresult r = async_ok(h);
    if (r != FK_SUCCESS)
        return r;
    void *d = dev_range(dst, bytes);
    if (!d || (!src && bytes))
        return FK_INVALID_VALUE;
    if (bytes)
        memcpy(d, src, bytes);
    return FK_SUCCESS;
}

static CUresult dtoh(void *dst, CUdeviceptr src, size_t bytes, CUstream h)
{
    CUresult r = async_ok(h);
    if (r != FK_SUCCESS)
        return r;
    void *s = dev_range(src, bytes);
    if (!s || (!dst && bytes))
        return FK_INVALID_VALUE;
    if (bytes)
        memcpy(dst, s, bytes);
    return FK_SUCCESS;
}

static CUresult dtod(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream h)
{
    CUresult r = async_ok(h);
    if (r != FK_SUCCESS)
        return r;
    void *d = dev_range(dst, bytes), *s = dev_range(src, bytes);
    if (!d || !s)
        return FK_INVALID_VALUE;
    if (bytes)
        memmove(d, s, bytes);
    return FK_SUCCESS;
}

static CUresult memset32(CUdeviceptr dst, unsigned int v, size_t count, CUstream h)
{
    CUresult r = async_ok(h);
    if (r != FK_SUCCESS)
        return r;
    if (count > SIZE_MAX / 4 || dst % 4)
        return FK_INVALID_VALUE;
    uint32_t *d = dev_range(dst, count * 4);
    if (!d)
        return FK_INVALID_VALUE;
    for (size_t i = 0; i < count; i++)
        d[i] = v;
    return FK_SUCCESS;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) { return htod(dst, src, bytes, NULL); }
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) { return dtoh(dst, src, bytes, NULL); }
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) { return dtod(dst, src, bytes, NULL); }
CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int v, size_t count) { return memset32(dst, v, count, NULL); }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, CUstream h)
{
    return htod(dst, src, bytes, h);
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, CUstream h)
{
    return dtoh(dst, src, bytes, h);
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream h)
{
    return dtod(dst, src, bytes, h);
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int v, size_t count, CUstream h)
{
    return memset32(dst, v, count, h);
}

/* ---- mapped host memory and peers ---- */

/* [p, p + bytes) inside one pinned allocation (a mapped host pointer), or NULL. */
static void *pinned_range(uintptr_t lo, size_t bytes)
{
    for (const fk_alloc *a = g_allocs; a; a = a->next) {
        uintptr_t b = (uintptr_t)a->p;
        if (a->dev < 0 && lo >= b && lo - b <= a->bytes && bytes <= a->bytes - (lo - b))
            return (void *)lo;
    }
    return NULL;
}

/* A pinned allocation's device address is its host address (unified addressing). */
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *dptr, void *p, unsigned int flags)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    if (!dptr || flags != 0)
        return FK_INVALID_VALUE;
    if (!pinned_range((uintptr_t)p, 1))
        return FK_INVALID_VALUE;
    *dptr = (CUdeviceptr)(uintptr_t)p;
    return FK_SUCCESS;
}

CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    fk_ctx *c = (fk_ctx *)(void *)peer;
    if (!c || c < g_ctx || c >= g_ctx + FK_MAX_DEV || c->magic != FK_M_CTX || flags != 0)
        return FK_INVALID_VALUE;
    return c == g_current ? FK_INVALID_DEVICE : FK_SUCCESS;
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t bytes,
                           CUstream h)
{
    if (!dst_ctx || !src_ctx)
        return FK_INVALID_CONTEXT;
    return dtod(dst, src, bytes, h);
}

/* ---- the probe kernels: each runs its CPU twin ---- */

/* Argument i of a launch, of the given size. */
static uint64_t arg_u64(void **a, int i) { uint64_t v; memcpy(&v, a[i], sizeof v); return v; }
static uint32_t arg_u32(void **a, int i) { uint32_t v; memcpy(&v, a[i], sizeof v); return v; }
static float arg_f32(void **a, int i) { float v; memcpy(&v, a[i], sizeof v); return v; }

/* The device memory n elements of size each at argument i, or NULL.  A
 * kernel may also address pinned host memory (cuMemHostGetDevicePointer_v2). */
static void *arg_mem(void **a, int i, uint64_t n, size_t size)
{
    if (n > SIZE_MAX / size)
        return NULL;
    void *d = dev_range((CUdeviceptr)arg_u64(a, i), (size_t)n * size);
    return d ? d : pinned_range((uintptr_t)arg_u64(a, i), (size_t)n * size);
}

/* cuda.rt.wrong_element=I: element I of a fill, fma or burn is off by one bit. */
static void wrong(void *base, uint64_t n)
{
    long long at = fk_int("cuda.rt.wrong_element", -1);
    if (at >= 0 && (uint64_t)at < n)
        ((uint32_t *)base)[at] ^= 1u;
}

static CUresult k_fill(void **a)
{
    uint64_t n = arg_u64(a, 1);
    uint32_t *dst = arg_mem(a, 0, n, 4);
    if (!dst)
        return FK_INVALID_VALUE;
    cp_k_fill_u32_cpu(dst, n, arg_u32(a, 2));
    wrong(dst, n);
    return FK_SUCCESS;
}

static CUresult k_fma(void **a)
{
    uint64_t n = arg_u64(a, 3);
    float *y = arg_mem(a, 0, n, 4), *x = arg_mem(a, 1, n, 4);
    if (!y || !x)
        return FK_INVALID_VALUE;
    cp_k_fma_f32_cpu(y, x, arg_f32(a, 2), n);
    wrong(y, n);
    return FK_SUCCESS;
}

static CUresult k_burn(void **a)
{
    uint64_t n = arg_u64(a, 1);
    float *out = arg_mem(a, 0, n, 4);
    if (!out)
        return FK_INVALID_VALUE;
    cp_k_burn_f32_cpu(out, n, (int)arg_u32(a, 2), arg_f32(a, 3), arg_f32(a, 4));
    wrong(out, n);
    return FK_SUCCESS;
}

static CUresult k_copy(void **a)
{
    uint64_t n = arg_u64(a, 2);
    void *dst = arg_mem(a, 0, n, 16), *src = arg_mem(a, 1, n, 16);
    if (!dst || !src)
        return FK_INVALID_VALUE;
    memmove(dst, src, (size_t)n * 16);
    return FK_SUCCESS;
}

static CUresult k_read(void **a)
{
    uint64_t n = arg_u64(a, 1);
    const uint32_t *src = arg_mem(a, 0, n, 16);
    uint32_t *sink = arg_mem(a, 2, 1, 4);
    if (!src || !sink)
        return FK_INVALID_VALUE;
    for (uint64_t i = 0; i < n * 4; i++)
        *sink ^= src[i];
    return FK_SUCCESS;
}

static CUresult k_write(void **a)
{
    uint64_t n = arg_u64(a, 1);
    uint32_t *dst = arg_mem(a, 0, n, 16), v = arg_u32(a, 2);
    if (!dst)
        return FK_INVALID_VALUE;
    for (uint64_t i = 0; i < n * 4; i++)
        dst[i] = v;
    return FK_SUCCESS;
}

static CUresult k_spin(void **a)
{
    uint32_t *done = arg_mem(a, 1, 1, 4);
    if (!done)
        return FK_INVALID_VALUE;
    *done = 1;                /* async work runs at once: no cycles to wait */
    return FK_SUCCESS;
}

typedef struct fk_kernel {
    const char *name;
    int nargs;
    unsigned char size[FK_MAX_ARGS];
    CUresult (*run)(void **args);
} fk_kernel;

/* kernels.h's list, with each parameter's size in bytes. */
static const fk_kernel kernels[] = {
    { "cp_k_fill_u32", 3, { 8, 8, 4 }, k_fill },
    { "cp_k_fma_f32", 4, { 8, 8, 4, 8 }, k_fma },
    { "cp_k_burn_f32", 5, { 8, 8, 4, 4, 4 }, k_burn },
    { "cp_k_copy_u128", 3, { 8, 8, 8 }, k_copy },
    { "cp_k_read_u128", 3, { 8, 8, 8 }, k_read },
    { "cp_k_write_u128", 3, { 8, 8, 4 }, k_write },
    { "cp_k_spin", 2, { 8, 8 }, k_spin },
};
#define FK_NKERNELS (sizeof kernels / sizeof kernels[0])

static const fk_kernel *get_kernel(CUfunction f)
{
    for (size_t i = 0; i < FK_NKERNELS; i++)
        if ((const void *)f == (const void *)&kernels[i])
            return &kernels[i];
    return NULL;
}

static CUresult replay(const fk_launch *l)
{
    void *args[FK_MAX_ARGS];
    for (int i = 0; i < FK_MAX_ARGS; i++)
        args[i] = (void *)l->args[i];
    return l->k->run(args);
}

/* ---- modules ---- */

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    if (!module || !image)
        return FK_INVALID_VALUE;
    const unsigned char *b = image;
    uint32_t magic = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    /* PTX text too ("//" first, as NVRTC writes it): level 2's NVRTC run */
    if (magic != 0xBA55ED50u && memcmp(b, "\177ELF", 4) != 0 && memcmp(b, "//", 2) != 0)
        return FK_INVALID_IMAGE;
    fk_module *m = malloc(sizeof *m);
    if (!m)
        return FK_OUT_OF_MEMORY;
    m->magic = FK_M_MODULE;
    *module = (CUmodule)(void *)m;
    return FK_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    fk_module *m = (fk_module *)(void *)module;
    if (!m || m->magic != FK_M_MODULE)
        return FK_INVALID_HANDLE;
    m->magic = 0;
    free(m);
    return FK_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule module, const char *name)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    const fk_module *m = (const fk_module *)(void *)module;
    if (!m || m->magic != FK_M_MODULE)
        return FK_INVALID_HANDLE;
    if (!f || !name)
        return FK_INVALID_VALUE;
    for (size_t i = 0; i < FK_NKERNELS; i++)
        if (strcmp(kernels[i].name, name) == 0) {
            *f = (CUfunction)(void *)(uintptr_t)&kernels[i];
            return FK_SUCCESS;
        }
    return FK_NOT_FOUND;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                        unsigned int by, unsigned int bz, unsigned int shared, CUstream h, void **params,
                        void **extra)
{
    fk_stream *s;
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    const fk_kernel *k = get_kernel(f);
    if (!k)
        return FK_INVALID_HANDLE;
    if (!gx || !gy || !gz || !bx || !by || !bz || (unsigned long long)bx * by * bz > 1024 ||
        shared > 228 * 1024 || !params || extra)
        return FK_INVALID_VALUE;
    r = get_stream(h, &s);
    if (r != FK_SUCCESS)
        return r;
    if (fk_int("cuda.rt.launch_fail", 0))
        return FK_LAUNCH_FAILED;
    fk_launch l;
    memset(&l, 0, sizeof l);
    l.k = k;
    for (int i = 0; i < k->nargs; i++) {
        if (!params[i])
            return FK_INVALID_VALUE;
        memcpy(l.args[i], params[i], k->size[i]);
    }
    if (s && s->capturing) {
        fk_launch *grown = realloc(s->cap, (s->ncap + 1) * sizeof *grown);
        if (!grown)
            return FK_OUT_OF_MEMORY;
        s->cap = grown;
        s->cap[s->ncap++] = l;
        return FK_SUCCESS;
    }
    r = replay(&l);
    if (r == FK_SUCCESS && s && !g_illegal_done && fk_int("cuda.rt.illegal_address", 0)) {
        g_illegal_done = 1;
        g_pending_700 = s;
    }
    return r;
}

/* ---- streams and events ---- */

/* A new zeroed handle object whose first member, an int, is its magic,
 * stored into *out (a CUstream * or CUevent *: a pointer-sized slot). */
static CUresult new_object(void *out, size_t size, int magic, unsigned flags, unsigned max_flags)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    if (!out || flags > max_flags)
        return FK_INVALID_VALUE;
    int *o = calloc(1, size);
    if (!o)
        return FK_OUT_OF_MEMORY;
    *o = magic;
    memcpy(out, &o, sizeof o);
    return FK_SUCCESS;
}

CUresult cuStreamCreate(CUstream *out, unsigned int flags)
{
    return new_object(out, sizeof(fk_stream), FK_M_STREAM, flags, 1);
}

CUresult cuStreamDestroy_v2(CUstream h)
{
    fk_stream *s;
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    r = get_stream(h, &s);
    if (r != FK_SUCCESS || !s)
        return r != FK_SUCCESS ? r : FK_INVALID_HANDLE;
    if (g_pending_700 == s)
        g_pending_700 = NULL;
    s->magic = 0;
    free(s->cap);
    free(s);
    return FK_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream h)
{
    fk_stream *s;
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    r = get_stream(h, &s);
    if (r != FK_SUCCESS)
        return r;
    if (s && s->capturing)
        return FK_CAPTURE_UNSUPPORTED;
    if (fk_int("cuda.rt.sync_hang", 0))
        hang();
    slow_once();
    if (g_pending_700 && (g_pending_700 == s || !s)) {
        g_pending_700 = NULL;
        return FK_ILLEGAL_ADDRESS;
    }
    return FK_SUCCESS;
}

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static fk_event *get_event(CUevent h)
{
    fk_event *e = (fk_event *)(void *)h;
    return e && e->magic == FK_M_EVENT ? e : NULL;
}

CUresult cuEventCreate(CUevent *out, unsigned int flags)
{
    return new_object(out, sizeof(fk_event), FK_M_EVENT, flags, 0xf);
}

/* Records the time at once (work queued before it is already done). */
CUresult cuEventRecord(CUevent h, CUstream sh)
{
    CUresult r = async_ok(sh);
    if (r != FK_SUCCESS)
        return r;
    fk_event *e = get_event(h);
    if (!e)
        return FK_INVALID_HANDLE;
    e->recorded = 1;
    e->ns = now_ns();
    return FK_SUCCESS;
}

CUresult cuEventSynchronize(CUevent h)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    if (!get_event(h))
        return FK_INVALID_HANDLE;
    if (fk_int("cuda.rt.sync_hang", 0))
        hang();
    slow_once();
    return FK_SUCCESS;
}

static CUresult elapsed(float *ms, CUevent start, CUevent end)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    const fk_event *a = get_event(start), *b = get_event(end);
    if (!ms)
        return FK_INVALID_VALUE;
    if (!a || !b || !a->recorded || !b->recorded)
        return FK_INVALID_HANDLE;
    *ms = (float)((double)(b->ns - a->ns) / 1e6);
    return FK_SUCCESS;
}

CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end)
{
    return elapsed(ms, start, end);
}

/* Before CUDA 12.8; the same answer. */
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
    return elapsed(ms, start, end);
}

CUresult cuEventDestroy_v2(CUevent h)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    fk_event *e = get_event(h);
    if (!e)
        return FK_INVALID_HANDLE;
    e->magic = 0;
    free(e);
    return FK_SUCCESS;
}

/* ---- graphs: a capture records the launches, a launch replays them ---- */

CUresult cuStreamBeginCapture_v2(CUstream h, int mode)
{
    fk_stream *s;
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    r = get_stream(h, &s);
    if (r != FK_SUCCESS)
        return r;
    if (!s)
        return FK_CAPTURE_UNSUPPORTED;   /* the legacy stream cannot be captured */
    if (mode < 0 || mode > 2 || s->capturing)
        return FK_INVALID_VALUE;
    s->capturing = 1;
    s->ncap = 0;
    return FK_SUCCESS;
}

static fk_graph *new_graph(int magic, const fk_launch *l, size_t n)
{
    fk_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->l = n ? malloc(n * sizeof *l) : NULL;
    if (n && !g->l) {
        free(g);
        return NULL;
    }
    if (n)
        memcpy(g->l, l, n * sizeof *l);
    g->magic = magic;
    g->n = n;
    return g;
}

static CUresult free_graph(void *h, int magic)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    fk_graph *g = h;
    if (!g || g->magic != magic)
        return FK_INVALID_HANDLE;
    g->magic = 0;
    free(g->l);
    free(g);
    return FK_SUCCESS;
}

CUresult cuStreamEndCapture(CUstream h, CUgraph *out)
{
    fk_stream *s;
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    r = get_stream(h, &s);
    if (r != FK_SUCCESS)
        return r;
    if (!s || !s->capturing || !out)
        return FK_INVALID_VALUE;
    s->capturing = 0;
    fk_graph *g = new_graph(FK_M_GRAPH, s->cap, s->ncap);
    s->ncap = 0;
    if (!g)
        return FK_OUT_OF_MEMORY;
    *out = (CUgraph)(void *)g;
    return FK_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *out, CUgraph graph, unsigned long long flags)
{
    CUresult r = need_ctx();
    if (r != FK_SUCCESS)
        return r;
    const fk_graph *g = (const fk_graph *)(void *)graph;
    if (!g || g->magic != FK_M_GRAPH)
        return FK_INVALID_HANDLE;
    if (!out || flags > 0xf)
        return FK_INVALID_VALUE;
    fk_graph *x = new_graph(FK_M_EXEC, g->l, g->n);
    if (!x)
        return FK_OUT_OF_MEMORY;
    *out = (CUgraphExec)(void *)x;
    return FK_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream h)
{
    CUresult r = async_ok(h);
    if (r != FK_SUCCESS)
        return r;
    const fk_graph *x = (const fk_graph *)(void *)exec;
    if (!x || x->magic != FK_M_EXEC)
        return FK_INVALID_HANDLE;
    for (size_t i = 0; i < x->n; i++)
        if ((r = replay(&x->l[i])) != FK_SUCCESS)
            return r;
    return FK_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec exec)
{
    return free_graph((void *)exec, FK_M_EXEC);
}

CUresult cuGraphDestroy(CUgraph graph)
{
    return free_graph((void *)graph, FK_M_GRAPH);
}
