/*
 * The runtime on the Driver API (rt.h).
 *
 * Every handle the runtime hands out is also kept on a list of its cp_rt,
 * so cp_rt_close frees whatever the caller left behind before it releases
 * the primary context: a probe child that stops half-way (a failed check)
 * still leaves the device clean.  Device and pinned allocations are kept
 * the same way.
 */
#include "rt/rt.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/str.h"

/* One handle of any kind: the lists hold these. */
typedef struct rt_node {
    void *h;                  /* the driver's handle, or the address */
    void *h2;                 /* a graph's CUgraph beside its CUgraphExec */
    struct rt_node *next;
} rt_node;

struct cp_rt_stream { rt_node n; };
struct cp_rt_event { rt_node n; };
struct cp_rt_module { rt_node n; };
struct cp_rt_graph { rt_node n; };

struct cp_rt {
    const cp_cuda_api *api;
    CUdevice dev;
    CUcontext ctx;            /* the primary context, once retained */
    bool retained;            /* the primary context is ours to release */
    bool failed;
    cp_rt_error err;
    rt_node *streams, *events, *modules, *graphs;
    rt_node *dmem, *hmem;     /* h is the address (a CUdeviceptr in a pointer's bits) */
};

/* ---- errors ---- */

static int fail(cp_rt *rt, const char *call, int result)
{
    const char *name = NULL;
    rt->failed = true;
    cp_str_copy(rt->err.call, sizeof rt->err.call, call);
    rt->err.result = result;
    rt->err.name[0] = '\0';
    if (result >= 0 && rt->api && rt->api->cuGetErrorName &&
        rt->api->cuGetErrorName(result, &name) == CP_CUDA_SUCCESS && name)
        cp_str_copy(rt->err.name, sizeof rt->err.name, name);
    return -1;
}

/* A driver call: 0, or -1 with the failure recorded under its name. */
static int check(cp_rt *rt, const char *call, CUresult r)
{
    return r == CP_CUDA_SUCCESS ? 0 : fail(rt, call, r);
}

/* Records the missing symbol; true when fn is absent. */
#define MISSING(rt, fn, sym) ((fn) == NULL && (fail((rt), (sym), CP_RT_NO_SYMBOL), true))

static int no_memory(cp_rt *rt)
{
    return fail(rt, "malloc", CP_RT_NO_HOST_MEMORY);
}

static CUstream stream_of(const cp_rt_stream *s)
{
    return s ? (CUstream)s->n.h : NULL;
}

/* ---- the lists ---- */

static void push(rt_node **list, rt_node *n)
{
    n->next = *list;
    *list = n;
}

/* Unlink n (found by address) from list; false when it is not on it. */
static bool unlink_node(rt_node **list, const rt_node *n)
{
    for (rt_node **p = list; *p; p = &(*p)->next)
        if (*p == n) {
            *p = n->next;
            return true;
        }
    return false;
}

/* Unlink and return the node whose handle is h, or NULL. */
static rt_node *take_handle(rt_node **list, const void *h)
{
    for (rt_node **p = list; *p; p = &(*p)->next)
        if ((*p)->h == h) {
            rt_node *n = *p;
            *p = n->next;
            return n;
        }
    return NULL;
}

static void *dptr_key(cp_rt_dptr p)
{
    void *k;
    _Static_assert(sizeof k == sizeof p, "64-bit pointers");
    memcpy(&k, &p, sizeof k);
    return k;
}

static cp_rt_dptr key_dptr(void *k)
{
    cp_rt_dptr p;
    memcpy(&p, &k, sizeof p);
    return p;
}

/* ---- context ---- */

/* Make the context current; also fills rt->dev.  Returns 0 or -1. */
static int open_ctx(cp_rt *rt, int ordinal)
{
    const cp_cuda_api *a = rt->api;
    CUcontext ctx = NULL;
    if (check(rt, "cuDeviceGet", a->cuDeviceGet(&rt->dev, ordinal)) != 0)
        return -1;
    if (MISSING(rt, a->cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") ||
        MISSING(rt, a->cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2") ||
        MISSING(rt, a->cuCtxSetCurrent, "cuCtxSetCurrent"))
        return -1;
    if (check(rt, "cuDevicePrimaryCtxRetain", a->cuDevicePrimaryCtxRetain(&ctx, rt->dev)) != 0)
        return -1;
    rt->retained = true;
    rt->ctx = ctx;
    return check(rt, "cuCtxSetCurrent", a->cuCtxSetCurrent(ctx));
}

/* Retain and make current the primary context of ordinal (rt.h).  When
 * even the cp_rt cannot be allocated, *out is NULL
 * and -1 is returned (cp_rt_last_error(NULL) is NULL). */
int cp_rt_open(const cp_cuda_api *api, int ordinal, cp_rt **out)
{
    cp_rt *rt = cp_calloc(1, sizeof *rt);
    *out = rt;
    if (!rt)
        return -1;
    rt->api = api;
    if (!api || !api->cuDeviceGet)
        return fail(rt, "cuDeviceGet", CP_RT_NO_SYMBOL);
    return open_ctx(rt, ordinal);
}

/* The last failure recorded, or NULL (rt.h). */
const cp_rt_error *cp_rt_last_error(const cp_rt *rt)
{
    return rt && rt->failed ? &rt->err : NULL;
}

/* cuCtxSynchronize: wait for all work of the context (rt.h). */
int cp_rt_sync(cp_rt *rt)
{
    if (MISSING(rt, rt->api->cuCtxSynchronize, "cuCtxSynchronize"))
        return -1;
    return check(rt, "cuCtxSynchronize", rt->api->cuCtxSynchronize());
}

/* ---- memory ---- */

/* Free and total bytes of the device, cuMemGetInfo_v2 (rt.h). */
int cp_rt_mem_info(cp_rt *rt, size_t *free_bytes, size_t *total_bytes)
{
    if (MISSING(rt, rt->api->cuMemGetInfo, "cuMemGetInfo_v2"))
        return -1;
    return check(rt, "cuMemGetInfo_v2", rt->api->cuMemGetInfo(free_bytes, total_bytes));
}

/* Device memory, kept on the list until freed; *out is 0 on failure (rt.h). */
int cp_rt_alloc(cp_rt *rt, size_t bytes, cp_rt_dptr *out)
{
    CUdeviceptr p = 0;
    *out = 0;
    if (MISSING(rt, rt->api->cuMemAlloc, "cuMemAlloc_v2") || MISSING(rt, rt->api->cuMemFree, "cuMemFree_v2"))
        return -1;
    rt_node *n = cp_calloc(1, sizeof *n);
    if (!n)
        return no_memory(rt);
    if (check(rt, "cuMemAlloc_v2", rt->api->cuMemAlloc(&p, bytes)) != 0) {
        free(n);
        return -1;
    }
    n->h = dptr_key(p);
    push(&rt->dmem, n);
    *out = p;
    return 0;
}

/* Free device memory from cp_rt_alloc (rt.h). */
int cp_rt_free(cp_rt *rt, cp_rt_dptr p)
{
    if (MISSING(rt, rt->api->cuMemFree, "cuMemFree_v2"))
        return -1;
    free(take_handle(&rt->dmem, dptr_key(p)));
    return check(rt, "cuMemFree_v2", rt->api->cuMemFree(p));
}

static int host_alloc(cp_rt *rt, size_t bytes, unsigned flags, void **out);

/* Portable page-locked host memory, kept on the list; *out NULL on failure (rt.h). */
int cp_rt_host_alloc(cp_rt *rt, size_t bytes, void **out)
{
    return host_alloc(rt, bytes, CP_CU_MEMHOSTALLOC_PORTABLE, out);
}

/* Mapped pinned memory and its device address; both NULL/0 on failure (rt.h). */
int cp_rt_host_alloc_mapped(cp_rt *rt, size_t bytes, void **out, cp_rt_dptr *dptr)
{
    CUdeviceptr d = 0;
    *dptr = 0;
    if (MISSING(rt, rt->api->cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2") ||
        host_alloc(rt, bytes, CP_CU_MEMHOSTALLOC_PORTABLE | CP_CU_MEMHOSTALLOC_DEVICEMAP, out) != 0)
        return -1;
    if (check(rt, "cuMemHostGetDevicePointer_v2", rt->api->cuMemHostGetDevicePointer(&d, *out, 0)) != 0) {
        cp_rt_error keep = rt->err;
        if (cp_rt_host_free(rt, *out) == 0) rt->err = keep;
        *out = NULL;
        return -1;
    }
    *dptr = d;
    return 0;
}

static int host_alloc(cp_rt *rt, size_t bytes, unsigned flags, void **out)
{
    *out = NULL;
    if (MISSING(rt, rt->api->cuMemHostAlloc, "cuMemHostAlloc") ||
        MISSING(rt, rt->api->cuMemFreeHost, "cuMemFreeHost"))
        return -1;
    rt_node *n = cp_calloc(1, sizeof *n);
    if (!n)
        return no_memory(rt);
    if (check(rt, "cuMemHostAlloc", rt->api->cuMemHostAlloc(out, bytes, flags)) != 0) {
        free(n);
        *out = NULL;
        return -1;
    }
    n->h = *out;
    push(&rt->hmem, n);
    return 0;
}

/* Free pinned memory from cp_rt_host_alloc (rt.h). */
int cp_rt_host_free(cp_rt *rt, void *p)
{
    if (MISSING(rt, rt->api->cuMemFreeHost, "cuMemFreeHost"))
        return -1;
    free(take_handle(&rt->hmem, p));
    return check(rt, "cuMemFreeHost", rt->api->cuMemFreeHost(p));
}

/* ---- copies and memset ---- */

/* Host to device: cuMemcpyHtoD_v2, or its Async_v2 form on s (rt.h). */
int cp_rt_copy_htod(cp_rt *rt, cp_rt_dptr dst, const void *src, size_t bytes, cp_rt_stream *s)
{
    const cp_cuda_api *a = rt->api;
    if (!s)
        return MISSING(rt, a->cuMemcpyHtoD, "cuMemcpyHtoD_v2") ? -1
               : check(rt, "cuMemcpyHtoD_v2", a->cuMemcpyHtoD(dst, src, bytes));
    return MISSING(rt, a->cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2") ? -1
           : check(rt, "cuMemcpyHtoDAsync_v2", a->cuMemcpyHtoDAsync(dst, src, bytes, stream_of(s)));
}

/* Device to host: cuMemcpyDtoH_v2, or its Async_v2 form on s (rt.h). */
int cp_rt_copy_dtoh(cp_rt *rt, void *dst, cp_rt_dptr src, size_t bytes, cp_rt_stream *s)
{
    const cp_cuda_api *a = rt->api;
    if (!s)
        return MISSING(rt, a->cuMemcpyDtoH, "cuMemcpyDtoH_v2") ? -1
               : check(rt, "cuMemcpyDtoH_v2", a->cuMemcpyDtoH(dst, src, bytes));
    return MISSING(rt, a->cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2") ? -1
           : check(rt, "cuMemcpyDtoHAsync_v2", a->cuMemcpyDtoHAsync(dst, src, bytes, stream_of(s)));
}

/* Device to device: cuMemcpyDtoD_v2, or its Async_v2 form on s (rt.h). */
int cp_rt_copy_dtod(cp_rt *rt, cp_rt_dptr dst, cp_rt_dptr src, size_t bytes, cp_rt_stream *s)
{
    const cp_cuda_api *a = rt->api;
    if (!s)
        return MISSING(rt, a->cuMemcpyDtoD, "cuMemcpyDtoD_v2") ? -1
               : check(rt, "cuMemcpyDtoD_v2", a->cuMemcpyDtoD(dst, src, bytes));
    return MISSING(rt, a->cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2") ? -1
           : check(rt, "cuMemcpyDtoDAsync_v2", a->cuMemcpyDtoDAsync(dst, src, bytes, stream_of(s)));
}

/* Fill count 32-bit words: cuMemsetD32_v2, or cuMemsetD32Async on s (rt.h). */
int cp_rt_memset32(cp_rt *rt, cp_rt_dptr dst, uint32_t value, size_t count, cp_rt_stream *s)
{
    const cp_cuda_api *a = rt->api;
    if (!s)
        return MISSING(rt, a->cuMemsetD32, "cuMemsetD32_v2") ? -1
               : check(rt, "cuMemsetD32_v2", a->cuMemsetD32(dst, value, count));
    return MISSING(rt, a->cuMemsetD32Async, "cuMemsetD32Async") ? -1
           : check(rt, "cuMemsetD32Async", a->cuMemsetD32Async(dst, value, count, stream_of(s)));
}

/* ---- modules and launches ---- */

/* Load a fatbinary or cubin; the module lives until cp_rt_close (rt.h). */
int cp_rt_module_load(cp_rt *rt, const void *image, cp_rt_module **out)
{
    CUmodule m = NULL;
    *out = NULL;
    if (MISSING(rt, rt->api->cuModuleLoadData, "cuModuleLoadData") ||
        MISSING(rt, rt->api->cuModuleUnload, "cuModuleUnload"))
        return -1;
    cp_rt_module *mod = cp_calloc(1, sizeof *mod);
    if (!mod)
        return no_memory(rt);
    if (check(rt, "cuModuleLoadData", rt->api->cuModuleLoadData(&m, image)) != 0) {
        free(mod);
        return -1;
    }
    mod->n.h = m;
    push(&rt->modules, &mod->n);
    *out = mod;
    return 0;
}

/* A kernel of m by name; *out NULL on failure (rt.h). */
int cp_rt_function(cp_rt *rt, cp_rt_module *m, const char *name, cp_rt_func *out)
{
    CUfunction f = NULL;
    *out = NULL;
    if (MISSING(rt, rt->api->cuModuleGetFunction, "cuModuleGetFunction"))
        return -1;
    if (check(rt, "cuModuleGetFunction", rt->api->cuModuleGetFunction(&f, m ? (CUmodule)m->n.h : NULL, name)) != 0)
        return -1;
    *out = f;
    return 0;
}

/* cuLaunchKernel in one dimension, on s or the legacy stream (rt.h). */
int cp_rt_launch(cp_rt *rt, cp_rt_func f, unsigned grid, unsigned block, unsigned shared_bytes,
                 cp_rt_stream *s, void **args)
{
    if (MISSING(rt, rt->api->cuLaunchKernel, "cuLaunchKernel"))
        return -1;
    return check(rt, "cuLaunchKernel", rt->api->cuLaunchKernel((CUfunction)f, grid, 1, 1, block, 1, 1, shared_bytes,
                                                               stream_of(s), args, NULL));
}

/* ---- streams and events ---- */

/* A non-blocking stream, kept on the list; *out NULL on failure (rt.h). */
int cp_rt_stream_create(cp_rt *rt, cp_rt_stream **out)
{
    CUstream h = NULL;
    *out = NULL;
    if (MISSING(rt, rt->api->cuStreamCreate, "cuStreamCreate") ||
        MISSING(rt, rt->api->cuStreamDestroy, "cuStreamDestroy_v2"))
        return -1;
    cp_rt_stream *s = cp_calloc(1, sizeof *s);
    if (!s)
        return no_memory(rt);
    if (check(rt, "cuStreamCreate", rt->api->cuStreamCreate(&h, CP_CU_STREAM_NON_BLOCKING)) != 0) {
        free(s);
        return -1;
    }
    s->n.h = h;
    push(&rt->streams, &s->n);
    *out = s;
    return 0;
}

/* The CUstream under s; NULL for the legacy stream (rt.h). */
CUstream cp_rt_stream_handle(const cp_rt_stream *s)
{
    return stream_of(s);
}

/* Wait for the work queued on s (rt.h).  NULL syncs the legacy default stream. */
int cp_rt_stream_sync(cp_rt *rt, cp_rt_stream *s)
{
    if (MISSING(rt, rt->api->cuStreamSynchronize, "cuStreamSynchronize"))
        return -1;
    return check(rt, "cuStreamSynchronize", rt->api->cuStreamSynchronize(stream_of(s)));
}

/* Destroy a stream (rt.h).  NULL does nothing. */
int cp_rt_stream_destroy(cp_rt *rt, cp_rt_stream *s)
{
    if (!s)
        return 0;
    unlink_node(&rt->streams, &s->n);
    CUstream h = stream_of(s);
    free(s);
    return check(rt, "cuStreamDestroy_v2", rt->api->cuStreamDestroy(h));
}

/* A timing event, kept on the list; *out NULL on failure (rt.h). */
int cp_rt_event_create(cp_rt *rt, cp_rt_event **out)
{
    CUevent h = NULL;
    *out = NULL;
    if (MISSING(rt, rt->api->cuEventCreate, "cuEventCreate") ||
        MISSING(rt, rt->api->cuEventDestroy, "cuEventDestroy_v2"))
        return -1;
    cp_rt_event *e = cp_calloc(1, sizeof *e);
    if (!e)
        return no_memory(rt);
    if (check(rt, "cuEventCreate", rt->api->cuEventCreate(&h, CP_CU_EVENT_DEFAULT)) != 0) {
        free(e);
        return -1;
    }
    e->n.h = h;
    push(&rt->events, &e->n);
    *out = e;
    return 0;
}

/* Record e on s (NULL: the legacy stream) (rt.h). */
int cp_rt_event_record(cp_rt *rt, cp_rt_event *e, cp_rt_stream *s)
{
    if (MISSING(rt, rt->api->cuEventRecord, "cuEventRecord"))
        return -1;
    return check(rt, "cuEventRecord", rt->api->cuEventRecord((CUevent)e->n.h, stream_of(s)));
}

/* Wait until e has happened (rt.h). */
int cp_rt_event_sync(cp_rt *rt, cp_rt_event *e)
{
    if (MISSING(rt, rt->api->cuEventSynchronize, "cuEventSynchronize"))
        return -1;
    return check(rt, "cuEventSynchronize", rt->api->cuEventSynchronize((CUevent)e->n.h));
}

/* Milliseconds between two recorded events (rt.h): cuEventElapsedTime_v2 where the driver has it, else
 * the plain name (same ABI, drivers before CUDA 12.8). */
int cp_rt_event_elapsed_ms(cp_rt *rt, cp_rt_event *start, cp_rt_event *end, float *ms)
{
    const cp_cuda_api *a = rt->api;
    CUevent s = (CUevent)start->n.h, e = (CUevent)end->n.h;
    if (a->cuEventElapsedTime)
        return check(rt, "cuEventElapsedTime_v2", a->cuEventElapsedTime(ms, s, e));
    if (MISSING(rt, a->cuEventElapsedTime_v1, "cuEventElapsedTime_v2"))
        return -1;
    return check(rt, "cuEventElapsedTime", a->cuEventElapsedTime_v1(ms, s, e));
}

/* Destroy an event (rt.h).  NULL does nothing. */
int cp_rt_event_destroy(cp_rt *rt, cp_rt_event *e)
{
    if (!e)
        return 0;
    unlink_node(&rt->events, &e->n);
    CUevent h = (CUevent)e->n.h;
    free(e);
    return check(rt, "cuEventDestroy_v2", rt->api->cuEventDestroy(h));
}

/* ---- several devices ---- */

/* Make rt's primary context current on this thread (rt.h). */
int cp_rt_make_current(cp_rt *rt)
{
    return check(rt, "cuCtxSetCurrent", rt->api->cuCtxSetCurrent(rt->ctx));
}

/* Can rt's device address peer's memory (rt.h). */
int cp_rt_can_access_peer(cp_rt *rt, const cp_rt *peer, int *can)
{
    *can = 0;
    if (MISSING(rt, rt->api->cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer"))
        return -1;
    return check(rt, "cuDeviceCanAccessPeer", rt->api->cuDeviceCanAccessPeer(can, rt->dev, peer->dev));
}

/* Enable rt's access to peer's memory; already enabled is success (rt.h). */
int cp_rt_enable_peer(cp_rt *rt, const cp_rt *peer)
{
    if (MISSING(rt, rt->api->cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess") || cp_rt_make_current(rt) != 0)
        return -1;
    CUresult r = rt->api->cuCtxEnablePeerAccess(peer->ctx, 0);
    return r == CP_CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED ? 0 : check(rt, "cuCtxEnablePeerAccess", r);
}

/* cuMemcpyPeerAsync between two devices' memory, on a stream of rt (rt.h). */
int cp_rt_copy_peer(cp_rt *rt, cp_rt_dptr dst, const cp_rt *dst_rt, cp_rt_dptr src, const cp_rt *src_rt, size_t bytes,
                    cp_rt_stream *s)
{
    if (MISSING(rt, rt->api->cuMemcpyPeerAsync, "cuMemcpyPeerAsync"))
        return -1;
    return check(rt, "cuMemcpyPeerAsync",
                 rt->api->cuMemcpyPeerAsync(dst, dst_rt->ctx, src, src_rt->ctx, bytes, stream_of(s)));
}

/* ---- graphs ---- */

/* Every call a graph needs, so none is found missing half-way. */
static bool graph_calls(cp_rt *rt)
{
    const cp_cuda_api *a = rt->api;
    return !(MISSING(rt, a->cuStreamBeginCapture, "cuStreamBeginCapture_v2") ||
             MISSING(rt, a->cuStreamEndCapture, "cuStreamEndCapture") ||
             MISSING(rt, a->cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags") ||
             MISSING(rt, a->cuGraphLaunch, "cuGraphLaunch") ||
             MISSING(rt, a->cuGraphExecDestroy, "cuGraphExecDestroy") ||
             MISSING(rt, a->cuGraphDestroy, "cuGraphDestroy"));
}

/* Start capturing s into a graph (rt.h).  Thread-local mode: the probe child has one thread. */
int cp_rt_capture_begin(cp_rt *rt, cp_rt_stream *s)
{
    const cp_cuda_api *a = rt->api;
    if (!graph_calls(rt))
        return -1;
    return check(rt, "cuStreamBeginCapture_v2",
                 a->cuStreamBeginCapture(stream_of(s), CP_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
}

/* End the capture on s and instantiate it; *out NULL on failure (rt.h).
 * A graph's other calls are known present from here on. */
int cp_rt_capture_end(cp_rt *rt, cp_rt_stream *s, cp_rt_graph **out)
{
    const cp_cuda_api *a = rt->api;
    CUgraph g = NULL;
    CUgraphExec x = NULL;
    *out = NULL;
    if (!graph_calls(rt))
        return -1;
    cp_rt_graph *graph = cp_calloc(1, sizeof *graph);
    /* the capture is ended even without memory, so the stream is usable again */
    if (check(rt, "cuStreamEndCapture", a->cuStreamEndCapture(stream_of(s), &g)) != 0) {
        free(graph);
        return -1;
    }
    if (!graph) {
        if (check(rt, "cuGraphDestroy", a->cuGraphDestroy(g)) != 0)
            return -1;
        return no_memory(rt);
    }
    if (check(rt, "cuGraphInstantiateWithFlags", a->cuGraphInstantiateWithFlags(&x, g, 0)) != 0) {
        cp_rt_error keep = rt->err;
        if (check(rt, "cuGraphDestroy", a->cuGraphDestroy(g)) == 0)
            rt->err = keep;   /* the first failure is the one to report */
        free(graph);
        return -1;
    }
    graph->n.h = x;
    graph->n.h2 = g;
    push(&rt->graphs, &graph->n);
    *out = graph;
    return 0;
}

/* Launch an instantiated graph on s (rt.h). */
int cp_rt_graph_launch(cp_rt *rt, cp_rt_graph *g, cp_rt_stream *s)
{
    return check(rt, "cuGraphLaunch", rt->api->cuGraphLaunch((CUgraphExec)g->n.h, stream_of(s)));
}

/* Both halves are destroyed; the first failure is recorded. */
static int graph_free(cp_rt *rt, cp_rt_graph *g)
{
    CUgraphExec x = (CUgraphExec)g->n.h;
    CUgraph graph = (CUgraph)g->n.h2;
    free(g);
    int rc = check(rt, "cuGraphExecDestroy", rt->api->cuGraphExecDestroy(x));
    if (rc != 0) {
        cp_rt_error keep = rt->err;
        if (check(rt, "cuGraphDestroy", rt->api->cuGraphDestroy(graph)) == 0)
            rt->err = keep;
        return -1;
    }
    return check(rt, "cuGraphDestroy", rt->api->cuGraphDestroy(graph));
}

/* Destroy a graph and its instantiation (rt.h).  NULL does nothing. */
int cp_rt_graph_destroy(cp_rt *rt, cp_rt_graph *g)
{
    if (!g)
        return 0;
    unlink_node(&rt->graphs, &g->n);
    return graph_free(rt, g);
}

/* ---- closing ---- */

/* Free what is left and release the primary context (rt.h).  Every leftover is freed; failures on the way are
 * recorded (the last one stays) and do not stop the rest. */
void cp_rt_close(cp_rt *rt)
{
    if (!rt)
        return;
    while (rt->graphs) {
        rt_node *n = rt->graphs;
        rt->graphs = n->next;
        (void)graph_free(rt, (cp_rt_graph *)n);
    }
    while (rt->events)
        (void)cp_rt_event_destroy(rt, (cp_rt_event *)rt->events);
    while (rt->streams)
        (void)cp_rt_stream_destroy(rt, (cp_rt_stream *)rt->streams);
    while (rt->modules) {
        rt_node *n = rt->modules;
        rt->modules = n->next;
        (void)check(rt, "cuModuleUnload", rt->api->cuModuleUnload((CUmodule)n->h));
        free(n);
    }
    while (rt->dmem)
        (void)cp_rt_free(rt, key_dptr(rt->dmem->h));
    while (rt->hmem)
        (void)cp_rt_host_free(rt, rt->hmem->h);
    if (rt->retained)
        (void)check(rt, "cuDevicePrimaryCtxRelease_v2", rt->api->cuDevicePrimaryCtxRelease(rt->dev));
    free(rt);
}
