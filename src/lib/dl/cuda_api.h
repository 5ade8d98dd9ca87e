/*
 * The subset of the CUDA Driver API (libcuda.so.1) that cuprobe calls, as a
 * struct of function pointers filled by the loader from cp_cuda_lib.
 *
 * Each pointer is named as the source calls it; its type is the ABI of the
 * symbol actually resolved, which for remapped names is the versioned one
 * (cuDeviceTotalMem -> cuDeviceTotalMem_v2, REFERENCE 1.2).  Never dlsym the
 * plain name of a remapped function: it is the CUDA 2.x ABI with 32-bit
 * sizes and pointers.
 *
 * Required entries are non-NULL after a successful load; every other entry
 * may be NULL on an older driver and the caller must check it.
 */
#ifndef CP_DL_CUDA_API_H
#define CP_DL_CUDA_API_H

#include <stddef.h>

/* test_abi.c includes the official cuda.h first and defines this, so the
 * typedefs below are checked against the official prototypes. */
#ifndef CP_CUDA_API_OFFICIAL_TYPES
#include "dl/cuda_types.h"
#endif

#include "dl/loader.h"

/* CUresult values cuprobe tests for (REFERENCE 1.6). */
enum {
    CP_CUDA_SUCCESS = 0,
    CP_CUDA_ERROR_INVALID_VALUE = 1,
    CP_CUDA_ERROR_OUT_OF_MEMORY = 2,
    CP_CUDA_ERROR_NOT_INITIALIZED = 3,
    CP_CUDA_ERROR_STUB_LIBRARY = 34,
    CP_CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
    CP_CUDA_ERROR_NO_DEVICE = 100,
    CP_CUDA_ERROR_INVALID_DEVICE = 101,
    CP_CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CP_CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    CP_CUDA_ERROR_LAUNCH_FAILED = 719,
    CP_CUDA_ERROR_NOT_SUPPORTED = 801,
    CP_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
    CP_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
    CP_CUDA_ERROR_UNKNOWN = 999
};

/* CUdevice_attribute values (REFERENCE 1.5). */
enum {
    CP_CU_ATTR_MULTIPROCESSOR_COUNT = 16,
    CP_CU_ATTR_COMPUTE_MODE = 20,
    CP_CU_ATTR_PCI_BUS_ID = 33,
    CP_CU_ATTR_PCI_DEVICE_ID = 34,
    CP_CU_ATTR_PCI_DOMAIN_ID = 50,
    CP_CU_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
    CP_CU_ATTR_COMPUTE_CAPABILITY_MINOR = 76
};

/* Flags the runtime passes (rt/). */
enum {
    CP_CU_MEMHOSTALLOC_PORTABLE = 0x01,
    CP_CU_MEMHOSTALLOC_DEVICEMAP = 0x02,
    CP_CU_STREAM_NON_BLOCKING = 0x1,
    CP_CU_EVENT_DEFAULT = 0x0,
    CP_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1
};

/* The exact ABI of each symbol resolved, named after that symbol. */
typedef CUresult (*cp_cuInit_fn)(unsigned int flags);
typedef CUresult (*cp_cuDriverGetVersion_fn)(int *version);
typedef CUresult (*cp_cuDeviceGetCount_fn)(int *count);
typedef CUresult (*cp_cuDeviceGet_fn)(CUdevice *dev, int ordinal);
typedef CUresult (*cp_cuDeviceGetName_fn)(char *name, int len, CUdevice dev);
typedef CUresult (*cp_cuDeviceGetAttribute_fn)(int *value, CUdevice_attribute attr, CUdevice dev);
typedef CUresult (*cp_cuDeviceTotalMem_v2_fn)(size_t *bytes, CUdevice dev);
typedef CUresult (*cp_cuDeviceGetPCIBusId_fn)(char *bus_id, int len, CUdevice dev);
typedef CUresult (*cp_cuDeviceGetUuid_v2_fn)(CUuuid *uuid, CUdevice dev);
typedef CUresult (*cp_cuDeviceCanAccessPeer_fn)(int *can_access, CUdevice dev, CUdevice peer);
typedef CUresult (*cp_cuGetErrorName_fn)(CUresult error, const char **str);
typedef CUresult (*cp_cuGetErrorString_fn)(CUresult error, const char **str);
typedef CUresult (*cp_cuGetProcAddress_v2_fn)(const char *symbol, void **pfn, int cuda_version,
                                              cuuint64_t flags,
                                              CUdriverProcAddressQueryResult *status);
typedef CUresult (*cp_cuDevicePrimaryCtxRetain_fn)(CUcontext *ctx, CUdevice dev);
typedef CUresult (*cp_cuDevicePrimaryCtxRelease_v2_fn)(CUdevice dev);
typedef CUresult (*cp_cuCtxSetCurrent_fn)(CUcontext ctx);
typedef CUresult (*cp_cuCtxSynchronize_fn)(void);
typedef CUresult (*cp_cuMemGetInfo_v2_fn)(size_t *free_bytes, size_t *total_bytes);
typedef CUresult (*cp_cuMemAlloc_v2_fn)(CUdeviceptr *dptr, size_t bytes);
typedef CUresult (*cp_cuMemFree_v2_fn)(CUdeviceptr dptr);
typedef CUresult (*cp_cuMemcpyHtoD_v2_fn)(CUdeviceptr dst, const void *src, size_t bytes);
typedef CUresult (*cp_cuMemcpyDtoH_v2_fn)(void *dst, CUdeviceptr src, size_t bytes);
typedef CUresult (*cp_cuMemHostAlloc_fn)(void **p, size_t bytes, unsigned int flags);
typedef CUresult (*cp_cuMemFreeHost_fn)(void *p);
typedef CUresult (*cp_cuMemcpyHtoDAsync_v2_fn)(CUdeviceptr dst, const void *src, size_t bytes, CUstream s);
typedef CUresult (*cp_cuMemcpyDtoHAsync_v2_fn)(void *dst, CUdeviceptr src, size_t bytes, CUstream s);
typedef CUresult (*cp_cuMemcpyDtoD_v2_fn)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
typedef CUresult (*cp_cuMemcpyDtoDAsync_v2_fn)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream s);
typedef CUresult (*cp_cuMemsetD32_v2_fn)(CUdeviceptr dst, unsigned int value, size_t count);
typedef CUresult (*cp_cuMemsetD32Async_fn)(CUdeviceptr dst, unsigned int value, size_t count, CUstream s);
typedef CUresult (*cp_cuModuleLoadData_fn)(CUmodule *module, const void *image);
typedef CUresult (*cp_cuModuleUnload_fn)(CUmodule module);
typedef CUresult (*cp_cuModuleGetFunction_fn)(CUfunction *f, CUmodule module, const char *name);
typedef CUresult (*cp_cuLaunchKernel_fn)(CUfunction f, unsigned int grid_x, unsigned int grid_y,
                                         unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                         unsigned int block_z, unsigned int shared_bytes, CUstream s,
                                         void **params, void **extra);
typedef CUresult (*cp_cuStreamCreate_fn)(CUstream *s, unsigned int flags);
typedef CUresult (*cp_cuStreamDestroy_v2_fn)(CUstream s);
typedef CUresult (*cp_cuStreamSynchronize_fn)(CUstream s);
typedef CUresult (*cp_cuEventCreate_fn)(CUevent *e, unsigned int flags);
typedef CUresult (*cp_cuEventRecord_fn)(CUevent e, CUstream s);
typedef CUresult (*cp_cuEventSynchronize_fn)(CUevent e);
typedef CUresult (*cp_cuEventElapsedTime_v2_fn)(float *ms, CUevent start, CUevent end);
typedef CUresult (*cp_cuEventDestroy_v2_fn)(CUevent e);
typedef CUresult (*cp_cuStreamBeginCapture_v2_fn)(CUstream s, CUstreamCaptureMode mode);
typedef CUresult (*cp_cuStreamEndCapture_fn)(CUstream s, CUgraph *graph);
typedef CUresult (*cp_cuGraphInstantiateWithFlags_fn)(CUgraphExec *exec, CUgraph graph,
                                                      unsigned long long flags);
typedef CUresult (*cp_cuGraphLaunch_fn)(CUgraphExec exec, CUstream s);
typedef CUresult (*cp_cuGraphExecDestroy_fn)(CUgraphExec exec);
typedef CUresult (*cp_cuGraphDestroy_fn)(CUgraph graph);
typedef CUresult (*cp_cuMemHostGetDevicePointer_v2_fn)(CUdeviceptr *dptr, void *p, unsigned int flags);
typedef CUresult (*cp_cuCtxEnablePeerAccess_fn)(CUcontext peer, unsigned int flags);
typedef CUresult (*cp_cuMemcpyPeerAsync_fn)(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx,
                                            size_t bytes, CUstream s);

typedef struct {
    /* required: present in every libcuda since CUDA 2.0 */
    cp_cuInit_fn cuInit;
    cp_cuDriverGetVersion_fn cuDriverGetVersion;
    cp_cuDeviceGetCount_fn cuDeviceGetCount;
    cp_cuDeviceGet_fn cuDeviceGet;
    /* optional */
    cp_cuDeviceGetName_fn cuDeviceGetName;
    cp_cuDeviceGetAttribute_fn cuDeviceGetAttribute;
    cp_cuDeviceTotalMem_v2_fn cuDeviceTotalMem;          /* cuDeviceTotalMem_v2, CUDA >= 3.2 */
    cp_cuDeviceGetPCIBusId_fn cuDeviceGetPCIBusId;       /* CUDA >= 4.1 */
    cp_cuDeviceGetUuid_v2_fn cuDeviceGetUuid;            /* _v2 (11.4, MIG-aware), else 9.2's */
    cp_cuGetErrorName_fn cuGetErrorName;                 /* CUDA >= 6.0 */
    cp_cuGetErrorString_fn cuGetErrorString;             /* CUDA >= 6.0 */
    cp_cuGetProcAddress_v2_fn cuGetProcAddress;          /* cuGetProcAddress_v2 only, CUDA >= 12.0 */
    cp_cuDeviceCanAccessPeer_fn cuDeviceCanAccessPeer;   /* info's P2P matrix, CUDA >= 4.0 */
    /* level 2: contexts, memory, copies */
    cp_cuDevicePrimaryCtxRetain_fn cuDevicePrimaryCtxRetain;
    cp_cuDevicePrimaryCtxRelease_v2_fn cuDevicePrimaryCtxRelease; /* _v2, CUDA >= 11.0 */
    cp_cuCtxSetCurrent_fn cuCtxSetCurrent;
    cp_cuCtxSynchronize_fn cuCtxSynchronize;             /* the plain one: _v2 takes a ctx (13.0) */
    cp_cuMemGetInfo_v2_fn cuMemGetInfo;
    cp_cuMemAlloc_v2_fn cuMemAlloc;
    cp_cuMemFree_v2_fn cuMemFree;
    cp_cuMemcpyHtoD_v2_fn cuMemcpyHtoD;
    cp_cuMemcpyDtoH_v2_fn cuMemcpyDtoH;
    /* level 2 and bench: the runtime (rt/) */
    cp_cuMemHostAlloc_fn cuMemHostAlloc;
    cp_cuMemFreeHost_fn cuMemFreeHost;
    cp_cuMemcpyHtoDAsync_v2_fn cuMemcpyHtoDAsync;
    cp_cuMemcpyDtoHAsync_v2_fn cuMemcpyDtoHAsync;
    cp_cuMemcpyDtoD_v2_fn cuMemcpyDtoD;
    cp_cuMemcpyDtoDAsync_v2_fn cuMemcpyDtoDAsync;
    cp_cuMemsetD32_v2_fn cuMemsetD32;
    cp_cuMemsetD32Async_fn cuMemsetD32Async;
    cp_cuModuleLoadData_fn cuModuleLoadData;
    cp_cuModuleUnload_fn cuModuleUnload;
    cp_cuModuleGetFunction_fn cuModuleGetFunction;
    cp_cuLaunchKernel_fn cuLaunchKernel;                 /* CUDA >= 4.0 */
    cp_cuStreamCreate_fn cuStreamCreate;
    cp_cuStreamDestroy_v2_fn cuStreamDestroy;
    cp_cuStreamSynchronize_fn cuStreamSynchronize;
    cp_cuEventCreate_fn cuEventCreate;
    cp_cuEventRecord_fn cuEventRecord;
    cp_cuEventSynchronize_fn cuEventSynchronize;
    cp_cuEventElapsedTime_v2_fn cuEventElapsedTime;      /* cuEventElapsedTime_v2, CUDA >= 12.8 */
    cp_cuEventElapsedTime_v2_fn cuEventElapsedTime_v1;   /* the plain name, same ABI: older drivers */
    cp_cuEventDestroy_v2_fn cuEventDestroy;
    cp_cuStreamBeginCapture_v2_fn cuStreamBeginCapture;  /* _v2 takes the mode, CUDA >= 10.1 */
    cp_cuStreamEndCapture_fn cuStreamEndCapture;
    cp_cuGraphInstantiateWithFlags_fn cuGraphInstantiateWithFlags; /* CUDA >= 11.4 */
    cp_cuGraphLaunch_fn cuGraphLaunch;
    cp_cuGraphExecDestroy_fn cuGraphExecDestroy;
    cp_cuGraphDestroy_fn cuGraphDestroy;
    /* bench: mapped pinned memory for the SM copy kernels, peer copies */
    cp_cuMemHostGetDevicePointer_v2_fn cuMemHostGetDevicePointer; /* _v2, CUDA >= 3.2 */
    cp_cuCtxEnablePeerAccess_fn cuCtxEnablePeerAccess;
    cp_cuMemcpyPeerAsync_fn cuMemcpyPeerAsync;
} cp_cuda_api;

/* libcuda.so.1, overridden by $CUPROBE_LIBCUDA; fills a cp_cuda_api. */
extern const cp_dl_lib cp_cuda_lib;

#endif
