/*
 * The symbol table of libcuda.so.1.
 *
 * To add a function: a pointer in cp_cuda_api (cuda_api.h), then one line
 * here: REQ or OPT, the field, and the exported names newest ABI first when
 * cuda.h #defines the name to a versioned symbol (then the plain name must
 * NOT be listed: it is the old ABI).  Without names the field's own name is
 * looked up.
 */
#include "dl/cuda_api.h"

#define SYM(req, field, ...) \
    { .name = #field, .required = (req), .alt = { __VA_ARGS__ }, \
      .offset = offsetof(cp_cuda_api, field) }
#define REQ(field, ...) SYM(true, field, __VA_ARGS__)
#define OPT(field, ...) SYM(false, field, __VA_ARGS__)

static const cp_dl_sym cuda_syms[] = {
    REQ(cuInit, NULL),
    REQ(cuDriverGetVersion, NULL),
    REQ(cuDeviceGetCount, NULL),
    REQ(cuDeviceGet, NULL),
    OPT(cuDeviceGetName, NULL),
    OPT(cuDeviceGetAttribute, NULL),
    OPT(cuDeviceTotalMem, "cuDeviceTotalMem_v2"),
    OPT(cuDeviceGetPCIBusId, NULL),
    OPT(cuDeviceGetUuid, "cuDeviceGetUuid_v2", "cuDeviceGetUuid"),
    OPT(cuGetErrorName, NULL),
    OPT(cuGetErrorString, NULL),
    /* the plain cuGetProcAddress is the 4-argument 11.3 ABI */
    OPT(cuGetProcAddress, "cuGetProcAddress_v2"),
    OPT(cuDeviceCanAccessPeer, NULL),
    OPT(cuDevicePrimaryCtxRetain, NULL),
    OPT(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
    OPT(cuCtxSetCurrent, NULL),
    OPT(cuCtxSynchronize, NULL),
    OPT(cuMemGetInfo, "cuMemGetInfo_v2"),
    OPT(cuMemAlloc, "cuMemAlloc_v2"),
    OPT(cuMemFree, "cuMemFree_v2"),
    OPT(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
    OPT(cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
    OPT(cuMemHostAlloc, NULL),
    OPT(cuMemFreeHost, NULL),
    OPT(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
    OPT(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
    OPT(cuMemcpyDtoD, "cuMemcpyDtoD_v2"),
    OPT(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
    OPT(cuMemsetD32, "cuMemsetD32_v2"),
    OPT(cuMemsetD32Async, NULL),
    OPT(cuModuleLoadData, NULL),
    OPT(cuModuleUnload, NULL),
    OPT(cuModuleGetFunction, NULL),
    OPT(cuLaunchKernel, NULL),
    OPT(cuStreamCreate, NULL),
    OPT(cuStreamDestroy, "cuStreamDestroy_v2"),
    OPT(cuStreamSynchronize, NULL),
    OPT(cuEventCreate, NULL),
    OPT(cuEventRecord, NULL),
    OPT(cuEventSynchronize, NULL),
    /* 13.0's cuda.h maps the name to _v2; the plain one has the same ABI,
     * kept as its own entry so the runtime can name the one it called */
    OPT(cuEventElapsedTime, "cuEventElapsedTime_v2"),
    OPT(cuEventElapsedTime_v1, "cuEventElapsedTime"),
    OPT(cuEventDestroy, "cuEventDestroy_v2"),
    /* the plain cuStreamBeginCapture is the 10.0 ABI without the mode */
    OPT(cuStreamBeginCapture, "cuStreamBeginCapture_v2"),
    OPT(cuStreamEndCapture, NULL),
    OPT(cuGraphInstantiateWithFlags, NULL),
    OPT(cuGraphLaunch, NULL),
    OPT(cuGraphExecDestroy, NULL),
    OPT(cuGraphDestroy, NULL),
    OPT(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"),
    OPT(cuCtxEnablePeerAccess, NULL),
    /* cuda.h maps the name to _ptsz only with the per-thread default stream */
    OPT(cuMemcpyPeerAsync, NULL),
    { .name = NULL },
};

const cp_dl_lib cp_cuda_lib = {
    .soname = "libcuda.so.1",
    .env = "CUPROBE_LIBCUDA",
    .syms = cuda_syms,
    .table_size = sizeof(cp_cuda_api),
};
