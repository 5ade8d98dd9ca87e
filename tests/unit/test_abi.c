/*
 * Our own CUDA and NVML declarations against the official ones.
 *
 * CUDA: where the official cuda.h can be included (the Makefile adds
 * -isystem /usr/local/cuda/include for this test when it exists), the types,
 * the enum values we use, and every function-pointer type of cp_cuda_api are
 * compared with the official declarations of the versioned symbols.  A
 * mismatch in a type is a compile error (_Static_assert), so a wrong ABI can
 * never build; values are also checked at run time for a readable message.
 * Without cuda.h that part reports a skip.
 *
 * NVML: there is no nvml.h on the build machines; sizes and offsets are
 * asserted against the numbers measured from the public header
 * (REFERENCE 2.4).
 */
#include <stddef.h>
#include <stdint.h>

#include "test.h"

#if defined(__has_include)
#if __has_include(<cuda.h>)
#define HAVE_CUDA_H 1
#endif
#endif

#ifdef HAVE_CUDA_H
/* Our types under other names, so they can sit beside the official ones. */
#define CUresult own_CUresult
#define CUdevice own_CUdevice
#define CUdevice_attribute own_CUdevice_attribute
#define CUdriverProcAddressQueryResult own_CUdriverProcAddressQueryResult
#define cuuint64_t own_cuuint64_t
#define CUdeviceptr own_CUdeviceptr
#define CUcontext own_CUcontext
#define CUstream own_CUstream
#define CUuuid own_CUuuid
#define CUuuid_st own_CUuuid_st
#define CUctx_st own_CUctx_st
#define CUstream_st own_CUstream_st
#define CUmodule own_CUmodule
#define CUfunction own_CUfunction
#define CUevent own_CUevent
#define CUgraph own_CUgraph
#define CUgraphExec own_CUgraphExec
#define CUstreamCaptureMode own_CUstreamCaptureMode
#define CUmod_st own_CUmod_st
#define CUfunc_st own_CUfunc_st
#define CUevent_st own_CUevent_st
#define CUgraph_st own_CUgraph_st
#define CUgraphExec_st own_CUgraphExec_st
#include "dl/cuda_types.h"
#undef CUresult
#undef CUdevice
#undef CUdevice_attribute
#undef CUdriverProcAddressQueryResult
#undef cuuint64_t
#undef CUdeviceptr
#undef CUcontext
#undef CUstream
#undef CUuuid
#undef CUuuid_st
#undef CUctx_st
#undef CUstream_st
#undef CUmodule
#undef CUfunction
#undef CUevent
#undef CUgraph
#undef CUgraphExec
#undef CUstreamCaptureMode
#undef CUmod_st
#undef CUfunc_st
#undef CUevent_st
#undef CUgraph_st
#undef CUgraphExec_st

#include <cuda.h>

/* cuda_api.h's pointer types, built from the official types. */
#define CP_CUDA_API_OFFICIAL_TYPES 1
#include "dl/cuda_api.h"

#define SAME_TYPE(a, b) _Generic((a){0}, b: 1, default: 0)

/* Scalars: same type where the header uses a plain type; same size and
 * integer class where it uses an enum (passed like an int). */
_Static_assert(SAME_TYPE(own_CUdevice, CUdevice), "CUdevice");
_Static_assert(SAME_TYPE(own_CUdeviceptr, CUdeviceptr), "CUdeviceptr is 64-bit");
_Static_assert(SAME_TYPE(own_cuuint64_t, cuuint64_t), "cuuint64_t");
_Static_assert(sizeof(own_CUresult) == sizeof(CUresult), "CUresult");
_Static_assert(sizeof(own_CUdevice_attribute) == sizeof(CUdevice_attribute), "attribute");
_Static_assert(sizeof(own_CUdriverProcAddressQueryResult) ==
               sizeof(CUdriverProcAddressQueryResult), "query result");
_Static_assert(sizeof(own_CUuuid) == sizeof(CUuuid) && sizeof(CUuuid) == 16, "CUuuid");
_Static_assert(offsetof(own_CUuuid, bytes) == offsetof(CUuuid, bytes), "CUuuid.bytes");
_Static_assert(sizeof(own_CUcontext) == sizeof(CUcontext), "CUcontext");
_Static_assert(sizeof(own_CUmodule) == sizeof(CUmodule), "CUmodule");
_Static_assert(sizeof(own_CUfunction) == sizeof(CUfunction), "CUfunction");
_Static_assert(sizeof(own_CUevent) == sizeof(CUevent), "CUevent");
_Static_assert(sizeof(own_CUgraph) == sizeof(CUgraph), "CUgraph");
_Static_assert(sizeof(own_CUgraphExec) == sizeof(CUgraphExec), "CUgraphExec");
_Static_assert(sizeof(own_CUstreamCaptureMode) == sizeof(CUstreamCaptureMode), "capture mode");

/* Each pointer type of cp_cuda_api is the official prototype of the symbol
 * the loader resolves: a different ABI does not compile. */
#define SAME_ABI(ours, symbol) \
    _Static_assert(_Generic(&symbol, ours: 1, default: 0), #symbol " does not match " #ours)
SAME_ABI(cp_cuInit_fn, cuInit);
SAME_ABI(cp_cuDriverGetVersion_fn, cuDriverGetVersion);
SAME_ABI(cp_cuDeviceGetCount_fn, cuDeviceGetCount);
SAME_ABI(cp_cuDeviceGet_fn, cuDeviceGet);
SAME_ABI(cp_cuDeviceGetName_fn, cuDeviceGetName);
SAME_ABI(cp_cuDeviceGetAttribute_fn, cuDeviceGetAttribute);
SAME_ABI(cp_cuDeviceTotalMem_v2_fn, cuDeviceTotalMem_v2);
SAME_ABI(cp_cuDeviceGetPCIBusId_fn, cuDeviceGetPCIBusId);
SAME_ABI(cp_cuDeviceGetUuid_v2_fn, cuDeviceGetUuid_v2);
SAME_ABI(cp_cuGetErrorName_fn, cuGetErrorName);
SAME_ABI(cp_cuGetErrorString_fn, cuGetErrorString);
SAME_ABI(cp_cuGetProcAddress_v2_fn, cuGetProcAddress_v2);
SAME_ABI(cp_cuDeviceCanAccessPeer_fn, cuDeviceCanAccessPeer);
SAME_ABI(cp_cuDevicePrimaryCtxRetain_fn, cuDevicePrimaryCtxRetain);
SAME_ABI(cp_cuDevicePrimaryCtxRelease_v2_fn, cuDevicePrimaryCtxRelease_v2);
SAME_ABI(cp_cuCtxSetCurrent_fn, cuCtxSetCurrent);
SAME_ABI(cp_cuCtxSynchronize_fn, cuCtxSynchronize);
SAME_ABI(cp_cuMemGetInfo_v2_fn, cuMemGetInfo_v2);
SAME_ABI(cp_cuMemAlloc_v2_fn, cuMemAlloc_v2);
SAME_ABI(cp_cuMemFree_v2_fn, cuMemFree_v2);
SAME_ABI(cp_cuMemcpyHtoD_v2_fn, cuMemcpyHtoD_v2);
SAME_ABI(cp_cuMemcpyDtoH_v2_fn, cuMemcpyDtoH_v2);
SAME_ABI(cp_cuMemHostAlloc_fn, cuMemHostAlloc);
SAME_ABI(cp_cuMemFreeHost_fn, cuMemFreeHost);
SAME_ABI(cp_cuMemcpyHtoDAsync_v2_fn, cuMemcpyHtoDAsync_v2);
SAME_ABI(cp_cuMemcpyDtoHAsync_v2_fn, cuMemcpyDtoHAsync_v2);
SAME_ABI(cp_cuMemcpyDtoD_v2_fn, cuMemcpyDtoD_v2);
SAME_ABI(cp_cuMemcpyDtoDAsync_v2_fn, cuMemcpyDtoDAsync_v2);
SAME_ABI(cp_cuMemsetD32_v2_fn, cuMemsetD32_v2);
SAME_ABI(cp_cuMemsetD32Async_fn, cuMemsetD32Async);
SAME_ABI(cp_cuModuleLoadData_fn, cuModuleLoadData);
SAME_ABI(cp_cuModuleUnload_fn, cuModuleUnload);
SAME_ABI(cp_cuModuleGetFunction_fn, cuModuleGetFunction);
SAME_ABI(cp_cuLaunchKernel_fn, cuLaunchKernel);
SAME_ABI(cp_cuStreamCreate_fn, cuStreamCreate);
SAME_ABI(cp_cuStreamDestroy_v2_fn, cuStreamDestroy_v2);
SAME_ABI(cp_cuStreamSynchronize_fn, cuStreamSynchronize);
SAME_ABI(cp_cuEventCreate_fn, cuEventCreate);
SAME_ABI(cp_cuEventRecord_fn, cuEventRecord);
SAME_ABI(cp_cuEventSynchronize_fn, cuEventSynchronize);
SAME_ABI(cp_cuEventElapsedTime_v2_fn, cuEventElapsedTime_v2);
SAME_ABI(cp_cuEventDestroy_v2_fn, cuEventDestroy_v2);
SAME_ABI(cp_cuStreamBeginCapture_v2_fn, cuStreamBeginCapture_v2);
SAME_ABI(cp_cuStreamEndCapture_fn, cuStreamEndCapture);
SAME_ABI(cp_cuGraphInstantiateWithFlags_fn, cuGraphInstantiateWithFlags);
SAME_ABI(cp_cuGraphLaunch_fn, cuGraphLaunch);
SAME_ABI(cp_cuGraphExecDestroy_fn, cuGraphExecDestroy);
SAME_ABI(cp_cuGraphDestroy_fn, cuGraphDestroy);
SAME_ABI(cp_cuMemHostGetDevicePointer_v2_fn, cuMemHostGetDevicePointer_v2);
SAME_ABI(cp_cuCtxEnablePeerAccess_fn, cuCtxEnablePeerAccess);
SAME_ABI(cp_cuMemcpyPeerAsync_fn, cuMemcpyPeerAsync);

static void test_cuda_values(void)
{
    CHECK_I64(CP_CUDA_SUCCESS, CUDA_SUCCESS);
    CHECK_I64(CP_CUDA_ERROR_INVALID_VALUE, CUDA_ERROR_INVALID_VALUE);
    CHECK_I64(CP_CUDA_ERROR_OUT_OF_MEMORY, CUDA_ERROR_OUT_OF_MEMORY);
    CHECK_I64(CP_CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_ILLEGAL_ADDRESS);
    CHECK_I64(CP_CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
    CHECK_I64(CP_CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_LAUNCH_FAILED);
    CHECK_I64(CP_CUDA_ERROR_NOT_INITIALIZED, CUDA_ERROR_NOT_INITIALIZED);
    CHECK_I64(CP_CUDA_ERROR_STUB_LIBRARY, CUDA_ERROR_STUB_LIBRARY);
    CHECK_I64(CP_CUDA_ERROR_DEVICE_UNAVAILABLE, CUDA_ERROR_DEVICE_UNAVAILABLE);
    CHECK_I64(CP_CUDA_ERROR_NO_DEVICE, CUDA_ERROR_NO_DEVICE);
    CHECK_I64(CP_CUDA_ERROR_INVALID_DEVICE, CUDA_ERROR_INVALID_DEVICE);
    CHECK_I64(CP_CUDA_ERROR_NOT_SUPPORTED, CUDA_ERROR_NOT_SUPPORTED);
    CHECK_I64(CP_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
    CHECK_I64(CP_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
              CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE);
    CHECK_I64(CP_CUDA_ERROR_UNKNOWN, CUDA_ERROR_UNKNOWN);
}

static void test_cuda_attributes(void)
{
    CHECK_I64(CP_CU_ATTR_MULTIPROCESSOR_COUNT, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    CHECK_I64(CP_CU_ATTR_COMPUTE_MODE, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE);
    CHECK_I64(CP_CU_ATTR_PCI_BUS_ID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
    CHECK_I64(CP_CU_ATTR_PCI_DEVICE_ID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
    CHECK_I64(CP_CU_ATTR_PCI_DOMAIN_ID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
    CHECK_I64(CP_CU_ATTR_COMPUTE_CAPABILITY_MAJOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    CHECK_I64(CP_CU_ATTR_COMPUTE_CAPABILITY_MINOR, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
#define INFO_ATTR(I_, name, unit, e, num, help) CHECK_I64(num, CU_DEVICE_ATTRIBUTE_##e);
    CP_CUDA_ATTR_FIELDS(INFO_ATTR, _)
#undef INFO_ATTR
    CHECK_I64(CP_CU_MEMHOSTALLOC_PORTABLE, CU_MEMHOSTALLOC_PORTABLE);
    CHECK_I64(CP_CU_MEMHOSTALLOC_DEVICEMAP, CU_MEMHOSTALLOC_DEVICEMAP);
    CHECK_I64(CP_CU_STREAM_NON_BLOCKING, CU_STREAM_NON_BLOCKING);
    CHECK_I64(CP_CU_EVENT_DEFAULT, CU_EVENT_DEFAULT);
    CHECK_I64(CP_CU_STREAM_CAPTURE_MODE_THREAD_LOCAL, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
}

/* The same facts at run time, so the count says they were checked. */
static void test_cuda_types(void)
{
    CHECK_I64(sizeof(own_CUuuid), sizeof(CUuuid));
    CHECK_I64(sizeof(own_CUdeviceptr), 8);
    CHECK_I64(sizeof(own_CUresult), sizeof(CUresult));
    CHECK_I64(CUDA_VERSION >= 12000, 1);   /* the _v2 names checked above exist */
}
#endif /* HAVE_CUDA_H */

#include "dl/nvml_api.h"

#define LAYOUT(type, size) _Static_assert(sizeof(type) == (size), #type " size")
#define AT(type, field, off) _Static_assert(offsetof(type, field) == (off), #type "." #field)

LAYOUT(nvmlPciInfo_t, 68);
AT(nvmlPciInfo_t, busIdLegacy, 0);
AT(nvmlPciInfo_t, domain, 16);
AT(nvmlPciInfo_t, bus, 20);
AT(nvmlPciInfo_t, device, 24);
AT(nvmlPciInfo_t, pciDeviceId, 28);
AT(nvmlPciInfo_t, pciSubSystemId, 32);
AT(nvmlPciInfo_t, busId, 36);
LAYOUT(nvmlPciInfoExt_t, 64);
AT(nvmlPciInfoExt_t, domain, 4);
AT(nvmlPciInfoExt_t, pciDeviceId, 16);
AT(nvmlPciInfoExt_t, baseClass, 24);
AT(nvmlPciInfoExt_t, busId, 32);
LAYOUT(nvmlMemory_t, 24);
AT(nvmlMemory_t, total, 0);
AT(nvmlMemory_t, free, 8);
AT(nvmlMemory_t, used, 16);
LAYOUT(nvmlMemory_v2_t, 40);
AT(nvmlMemory_v2_t, total, 8);
AT(nvmlMemory_v2_t, reserved, 16);
AT(nvmlMemory_v2_t, free, 24);
AT(nvmlMemory_v2_t, used, 32);
LAYOUT(nvmlUtilization_t, 8);
AT(nvmlUtilization_t, gpu, 0);
AT(nvmlUtilization_t, memory, 4);
LAYOUT(nvmlProcessInfo_t, 24);
AT(nvmlProcessInfo_t, pid, 0);
AT(nvmlProcessInfo_t, usedGpuMemory, 8);
AT(nvmlProcessInfo_t, gpuInstanceId, 16);
AT(nvmlProcessInfo_t, computeInstanceId, 20);
LAYOUT(nvmlProcessInfo_v1_t, 16);
LAYOUT(nvmlEventData_t, 32);
AT(nvmlEventData_t, eventType, 8);
AT(nvmlEventData_t, eventData, 16);
AT(nvmlEventData_t, gpuInstanceId, 24);
AT(nvmlEventData_t, computeInstanceId, 28);
/* GPM and process utilisation (telemetry): the published header's layouts, LP64 */
LAYOUT(nvmlProcessUtilizationSample_t, 32);
AT(nvmlProcessUtilizationSample_t, timeStamp, 8);
AT(nvmlProcessUtilizationSample_t, smUtil, 16);
AT(nvmlProcessUtilizationSample_t, decUtil, 28);
LAYOUT(nvmlGpmSupport_t, 8);
LAYOUT(nvmlGpmMetric_t, 40);
AT(nvmlGpmMetric_t, nvmlReturn, 4);
AT(nvmlGpmMetric_t, value, 8);
AT(nvmlGpmMetric_t, metricInfo, 16);
AT(nvmlGpmMetricsGet_t, numMetrics, 4);
AT(nvmlGpmMetricsGet_t, sample1, 8);
AT(nvmlGpmMetricsGet_t, sample2, 16);
AT(nvmlGpmMetricsGet_t, metrics, 24);
LAYOUT(nvmlValue_t, 8);
LAYOUT(nvmlSample_t, 16);
AT(nvmlSample_t, sampleValue, 8);
LAYOUT(nvmlTemperature_t, 12);
AT(nvmlTemperature_t, temperature, 8);
LAYOUT(nvmlFieldValue_t, 40);
AT(nvmlFieldValue_t, timestamp, 8);
AT(nvmlFieldValue_t, latencyUsec, 16);
AT(nvmlFieldValue_t, valueType, 24);
AT(nvmlFieldValue_t, nvmlReturn, 28);
AT(nvmlFieldValue_t, value, 32);
_Static_assert(sizeof(nvmlDevice_t) == sizeof(void *), "nvmlDevice_t is a pointer");

/* The versioned-struct tags are (version << 24) | sizeof. */
static void test_nvml_layouts(void)
{
    CHECK_I64((1u << 24) | sizeof(nvmlPciInfoExt_t), 0x01000040);
    CHECK_I64((2u << 24) | sizeof(nvmlMemory_v2_t), 0x02000028);
    CHECK_I64((1u << 24) | sizeof(nvmlTemperature_t), 0x0100000C);
    CHECK_I64(CP_NVML_TEMPERATURE_V1, 0x0100000C);
    CHECK_I64(CP_NVML_GPU_UTILIZATION_SAMPLES, 1);   /* nvmlSamplingType_t, REFERENCE 2.7 */
    CHECK_I64(CP_NVML_VALUE_TYPE_UNSIGNED_INT, 1);
    CHECK_I64(CP_NVML_VALUE_TYPE_SIGNED_LONG_LONG, 4);
    CHECK_I64(CP_NVML_VALUE_TYPE_UNSIGNED_SHORT, 6);
    CHECK_I64(offsetof(nvmlSample_t, timeStamp), 0);
    CHECK_I64(sizeof(nvmlPciInfo_t), 68);
    CHECK_I64(sizeof(nvmlProcessInfo_t), 24);
}

/* cuBLASLt: our declarations (dl/cublaslt_api.h) against cublasLt.h where it is installed. */
#if defined(HAVE_CUDA_H) && __has_include(<cublasLt.h>)
#include <cublasLt.h>
#include "dl/cublaslt_api.h"
_Static_assert(sizeof(cp_lt_heuristic) == sizeof(cublasLtMatmulHeuristicResult_t), "heuristic result");
_Static_assert(offsetof(cp_lt_heuristic, workspace_size) == offsetof(cublasLtMatmulHeuristicResult_t, workspaceSize),
               "workspaceSize");
_Static_assert(offsetof(cp_lt_heuristic, state) == offsetof(cublasLtMatmulHeuristicResult_t, state), "state");
_Static_assert(sizeof(cp_lt_algo) == sizeof(cublasLtMatmulAlgo_t), "algo");
_Static_assert(sizeof(cp_lt_status) == sizeof(cublasStatus_t), "status");
static void test_cublaslt_values(void)
{
    CHECK_I64(CP_LT_R_32F, CUDA_R_32F);
    CHECK_I64(CP_LT_R_16F, CUDA_R_16F);
    CHECK_I64(CP_LT_R_16BF, CUDA_R_16BF);
    CHECK_I64(CP_LT_COMPUTE_32F, CUBLAS_COMPUTE_32F);
    CHECK_I64(CP_LT_COMPUTE_32F_FAST_TF32, CUBLAS_COMPUTE_32F_FAST_TF32);
    CHECK_I64(CP_LT_OP_N, CUBLAS_OP_N);
    CHECK_I64(CP_LT_DESC_TRANSA, CUBLASLT_MATMUL_DESC_TRANSA);
    CHECK_I64(CP_LT_DESC_TRANSB, CUBLASLT_MATMUL_DESC_TRANSB);
    CHECK_I64(CP_LT_PREF_MAX_WORKSPACE_BYTES, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES);
}
#define HAVE_CUBLASLT_H 1
#endif

int main(void)
{
    RUN(test_nvml_layouts);
#ifdef HAVE_CUBLASLT_H
    RUN(test_cublaslt_values);
#endif
#ifdef HAVE_CUDA_H
    RUN(test_cuda_types);
    RUN(test_cuda_values);
    RUN(test_cuda_attributes);
#else
    printf("skip: cuda.h not found, CUDA declarations not compared "
           "(build with -isystem /usr/local/cuda/include)\n");
#endif
    return TEST_END();
}
