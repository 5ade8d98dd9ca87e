/*
 * A small CUDA runtime on the Driver API: what level 2 and `bench` need,
 * through the one loader (dl/cuda_api.h), so cuprobe needs no libcudart and
 * no toolkit.  It runs only inside a probe child (probe/), after cuInit.
 *
 * Every call is checked.  A function returns 0, or -1 after recording the
 * failure in the runtime's last error: the Driver API call that failed, its
 * CUresult and the driver's name for it (cuGetErrorName; the knowledge
 * base's row for that name gives the meaning and the fix).  A call whose
 * symbol the driver lacks fails with CP_RT_NO_SYMBOL and the symbol's name.
 */
#ifndef CP_RT_RT_H
#define CP_RT_RT_H

#include <stddef.h>
#include <stdint.h>
#include "dl/cuda_api.h"

enum {
    CP_RT_NO_SYMBOL = -2,        /* cp_rt_error.result when the driver lacks the call */
    CP_RT_NO_HOST_MEMORY = -3    /* the runtime's own bookkeeping could not allocate (call "malloc") */
};

typedef struct {
    char call[48];            /* "cuMemAlloc_v2", the versioned name resolved */
    int result;               /* the CUresult, or CP_RT_NO_SYMBOL */
    char name[48];            /* "CUDA_ERROR_OUT_OF_MEMORY", or "" when the driver has no name for it */
} cp_rt_error;

typedef struct cp_rt cp_rt;               /* one device's primary context and what lives in it */
typedef uint64_t cp_rt_dptr;              /* a device address (CUdeviceptr) */
typedef struct cp_rt_stream cp_rt_stream; /* NULL: the legacy default stream, synchronous calls */
typedef struct cp_rt_event cp_rt_event;
typedef struct cp_rt_module cp_rt_module;
typedef struct cp_rt_graph cp_rt_graph;   /* an instantiated graph, from a stream capture */
typedef void *cp_rt_func;                 /* a CUfunction */

/* Retain device ordinal's primary context and make it current on this
 * thread.  api: a loaded libcuda after a successful cuInit.  *out is set
 * even on failure (then only cp_rt_last_error and cp_rt_close work). */
int cp_rt_open(const cp_cuda_api *api, int ordinal, cp_rt **out);
/* Free what is left (streams, events, modules, memory) and release the
 * primary context.  NULL does nothing. */
void cp_rt_close(cp_rt *rt);
/* The last failure, or NULL when none. */
const cp_rt_error *cp_rt_last_error(const cp_rt *rt);

int cp_rt_mem_info(cp_rt *rt, size_t *free_bytes, size_t *total_bytes);
int cp_rt_alloc(cp_rt *rt, size_t bytes, cp_rt_dptr *out);
int cp_rt_free(cp_rt *rt, cp_rt_dptr p);
/* Page-locked host memory (cuMemHostAlloc, portable). */
int cp_rt_host_alloc(cp_rt *rt, size_t bytes, void **out);
int cp_rt_host_free(cp_rt *rt, void *p);

/* Copies and memset: synchronous when s is NULL, else queued on s. */
int cp_rt_copy_htod(cp_rt *rt, cp_rt_dptr dst, const void *src, size_t bytes, cp_rt_stream *s);
int cp_rt_copy_dtoh(cp_rt *rt, void *dst, cp_rt_dptr src, size_t bytes, cp_rt_stream *s);
int cp_rt_copy_dtod(cp_rt *rt, cp_rt_dptr dst, cp_rt_dptr src, size_t bytes, cp_rt_stream *s);
int cp_rt_memset32(cp_rt *rt, cp_rt_dptr dst, uint32_t value, size_t count, cp_rt_stream *s);
int cp_rt_sync(cp_rt *rt);    /* cuCtxSynchronize */

/* Load a fatbinary or cubin image (the embedded probe kernels) and find a
 * kernel in it by its (extern "C") name. */
int cp_rt_module_load(cp_rt *rt, const void *image, cp_rt_module **out);
int cp_rt_function(cp_rt *rt, cp_rt_module *m, const char *name, cp_rt_func *out);
/* cuLaunchKernel: grid and block sizes in x only (the probe kernels are
 * one-dimensional), args as cuLaunchKernel's kernelParams. */
int cp_rt_launch(cp_rt *rt, cp_rt_func f, unsigned grid, unsigned block, unsigned shared_bytes,
                 cp_rt_stream *s, void **args);

int cp_rt_stream_create(cp_rt *rt, cp_rt_stream **out);   /* non-blocking */
/* The driver's CUstream of s, for a library call that takes one (cuBLASLt). */
CUstream cp_rt_stream_handle(const cp_rt_stream *s);
int cp_rt_stream_sync(cp_rt *rt, cp_rt_stream *s);
int cp_rt_stream_destroy(cp_rt *rt, cp_rt_stream *s);
int cp_rt_event_create(cp_rt *rt, cp_rt_event **out);
int cp_rt_event_record(cp_rt *rt, cp_rt_event *e, cp_rt_stream *s);
int cp_rt_event_sync(cp_rt *rt, cp_rt_event *e);
int cp_rt_event_elapsed_ms(cp_rt *rt, cp_rt_event *start, cp_rt_event *end, float *ms);
int cp_rt_event_destroy(cp_rt *rt, cp_rt_event *e);

/* bench: several devices in one process.  Each cp_rt's calls go to the
 * current context, so make rt's current before using it after another's. */
int cp_rt_make_current(cp_rt *rt);                        /* cuCtxSetCurrent */
/* Pinned memory mapped into the device's address space (portable and
 * device-mapped), for a kernel that reads or writes host memory over the
 * link: *out the host address, *dptr the device's (cuMemHostGetDevicePointer_v2).
 * Free with cp_rt_host_free. */
int cp_rt_host_alloc_mapped(cp_rt *rt, size_t bytes, void **out, cp_rt_dptr *dptr);
/* *can: 1 when rt's device can address peer's memory (cuDeviceCanAccessPeer). */
int cp_rt_can_access_peer(cp_rt *rt, const cp_rt *peer, int *can);
/* Let rt's context (made current) address peer's memory
 * (cuCtxEnablePeerAccess); already enabled counts as success. */
int cp_rt_enable_peer(cp_rt *rt, const cp_rt *peer);
/* Copy bytes from src (in src_rt's device) to dst (in dst_rt's), queued on
 * s, a stream of rt (cuMemcpyPeerAsync). */
int cp_rt_copy_peer(cp_rt *rt, cp_rt_dptr dst, const cp_rt *dst_rt, cp_rt_dptr src, const cp_rt *src_rt, size_t bytes,
                    cp_rt_stream *s);

/* CUDA graphs, for the launch-latency figure: capture what is queued on s
 * between begin and end into an instantiated graph; launch it on a stream. */
int cp_rt_capture_begin(cp_rt *rt, cp_rt_stream *s);
int cp_rt_capture_end(cp_rt *rt, cp_rt_stream *s, cp_rt_graph **out);
int cp_rt_graph_launch(cp_rt *rt, cp_rt_graph *g, cp_rt_stream *s);
int cp_rt_graph_destroy(cp_rt *rt, cp_rt_graph *g);

#endif
