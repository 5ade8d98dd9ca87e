/*
 * Names and short meanings of CUresult (CUDA 13.0 driver API) and
 * nvmlReturn_t codes.  The names are the enum spellings of the vendor headers
 * (what cuGetErrorName / the NVML header use); the texts are our own words,
 * written for a person who pasted the code and wants to know what it means.
 *
 * To add a code: append a row in numeric order (the lookup is a plain scan,
 * so order is for readers only).
 */
#include <stddef.h>

#include "kb.h"

typedef struct {
    int code;
    const char *name;
    const char *text;
} err_row;

/* Every CUresult of CUDA 13.0 cuda.h, in header order. */
static const err_row cuda_errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "an argument was out of range or invalid"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "not enough memory to complete the request"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "the driver is not initialised (cuInit not called or failed)"},
    {4, "CUDA_ERROR_DEINITIALIZED", "the driver is shutting down"},
    {5, "CUDA_ERROR_PROFILER_DISABLED", "profiling is disabled for this process"},
    {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED", "the profiler was not initialised (deprecated code)"},
    {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED", "the profiler was already started (deprecated code)"},
    {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED", "the profiler was already stopped (deprecated code)"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "the libcuda loaded is the toolkit's stub, not the real driver"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", "this call needs a newer driver than the one installed"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "the device is busy or unavailable (compute mode or another process)"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is visible"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "the device ordinal is not a valid device"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED", "the device lacks a valid grid license"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "the module image is not valid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "no valid context is current"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "the context is already current (deprecated code)"},
    {205, "CUDA_ERROR_MAP_FAILED", "a map or register operation failed"},
    {206, "CUDA_ERROR_UNMAP_FAILED", "an unmap or unregister operation failed"},
    {207, "CUDA_ERROR_ARRAY_IS_MAPPED", "the array is mapped and cannot be destroyed"},
    {208, "CUDA_ERROR_ALREADY_MAPPED", "the resource is already mapped"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image for this GPU's architecture and no usable PTX"},
    {210, "CUDA_ERROR_ALREADY_ACQUIRED", "the resource was already acquired"},
    {211, "CUDA_ERROR_NOT_MAPPED", "the resource is not mapped"},
    {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY", "the mapped resource is not usable as an array"},
    {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER", "the mapped resource is not usable as a pointer"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE", "an uncorrectable ECC memory error was detected"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT", "this limit is not supported by the device"},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "the context is already bound to another thread"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access is not supported between these devices"},
    {218, "CUDA_ERROR_INVALID_PTX", "PTX JIT compilation failed"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "invalid OpenGL or DirectX context"},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE", "an uncorrectable NVLink error was detected"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "the PTX JIT compiler library was not found"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "the PTX is newer than this driver's JIT compiler supports"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation is disabled"},
    {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", "the execution affinity type is not supported"},
    {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", "device-side synchronisation is not supported in this code"},
    {226, "CUDA_ERROR_CONTAINED", "a contained error hit this process; it must restart"},
    {300, "CUDA_ERROR_INVALID_SOURCE", "the kernel source is not valid"},
    {301, "CUDA_ERROR_FILE_NOT_FOUND", "a file was not found"},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "a shared-object symbol could not be resolved"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "a shared object failed to initialise"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM", "an operating-system call failed"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "a handle passed to the call is not valid"},
    {401, "CUDA_ERROR_ILLEGAL_STATE", "the resource is in a state that does not allow this call"},
    {402, "CUDA_ERROR_LOSSY_QUERY", "the query would lose information about the device state"},
    {500, "CUDA_ERROR_NOT_FOUND", "a named symbol (kernel, variable, texture) was not found"},
    {600, "CUDA_ERROR_NOT_READY", "the asynchronous work has not completed yet"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "a kernel accessed an illegal memory address; the process must restart"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "the launch needs more registers or resources than the device has"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT", "a kernel ran past the watchdog time limit; the process must restart"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", "the launch used an incompatible texturing mode"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access was already enabled"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access was never enabled"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "the primary context is already active"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "the context was destroyed"},
    {710, "CUDA_ERROR_ASSERT", "a device-side assert failed; the context must be destroyed"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS", "too many peer devices for peer access"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "the host memory is already registered"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "the host memory is not registered"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR", "a kernel hit a call-stack error; the process must restart"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION", "a kernel ran an illegal instruction; the process must restart"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "a kernel used a misaligned address; the process must restart"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE", "a kernel used an address in the wrong address space; the process must restart"},
    {718, "CUDA_ERROR_INVALID_PC", "a kernel's program counter became invalid; the process must restart"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "a kernel failed with an exception (unspecified launch failure); the process must restart"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks for a cooperative launch"},
    {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK", "a kernel exited without freeing its tensor memory"},
    {800, "CUDA_ERROR_NOT_PERMITTED", "the operation is not permitted"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "the operation is not supported on this system or device"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY", "the system is not ready (e.g. fabric manager not running)"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "the kernel driver and the user-mode libcuda versions do not match"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "a forward-compatibility libcuda was used on a GPU that does not support it"},
    {805, "CUDA_ERROR_MPS_CONNECTION_FAILED", "cannot connect to the MPS server"},
    {806, "CUDA_ERROR_MPS_RPC_FAILURE", "a remote call to the MPS server failed"},
    {807, "CUDA_ERROR_MPS_SERVER_NOT_READY", "the MPS server is not ready"},
    {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", "the MPS server has reached its client limit"},
    {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", "the MPS server has reached its connection limit"},
    {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED", "the MPS client was terminated by the server"},
    {811, "CUDA_ERROR_CDP_NOT_SUPPORTED", "dynamic parallelism is not supported here"},
    {812, "CUDA_ERROR_CDP_VERSION_MISMATCH", "the dynamic-parallelism version does not match"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", "the operation is not allowed while a stream is capturing"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", "the stream capture was invalidated by an earlier error"},
    {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE", "the operation would merge two separate captures"},
    {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", "the capture was not started in this stream"},
    {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED", "a forked capture stream was not joined back"},
    {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION", "the dependency would cross the capture boundary"},
    {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", "the operation would sync implicitly with a capturing stream"},
    {907, "CUDA_ERROR_CAPTURED_EVENT", "the operation is not allowed on an event recorded in a capture"},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", "the capture was ended from a different thread"},
    {909, "CUDA_ERROR_TIMEOUT", "the wait timed out"},
    {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", "the graph update broke an executable-graph rule"},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE", "an external device reported an error"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE", "the cluster size is not valid"},
    {913, "CUDA_ERROR_FUNCTION_NOT_LOADED", "the function is not loaded"},
    {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE", "the resource type is not valid"},
    {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", "the resource configuration is not valid"},
    {916, "CUDA_ERROR_KEY_ROTATION", "a confidential-computing key rotation failed"},
    {999, "CUDA_ERROR_UNKNOWN", "an unknown internal error"},
};

/* nvmlReturn_t as of the CUDA 13 NVML header (REFERENCE 2.2). */
static const err_row nvml_errors[] = {
    {0, "NVML_SUCCESS", "no error"},
    {1, "NVML_ERROR_UNINITIALIZED", "NVML was not initialised"},
    {2, "NVML_ERROR_INVALID_ARGUMENT", "an argument is not valid"},
    {3, "NVML_ERROR_NOT_SUPPORTED", "not supported on this device"},
    {4, "NVML_ERROR_NO_PERMISSION", "the current user lacks permission"},
    {5, "NVML_ERROR_ALREADY_INITIALIZED", "NVML was already initialised (deprecated code)"},
    {6, "NVML_ERROR_NOT_FOUND", "the object asked for was not found"},
    {7, "NVML_ERROR_INSUFFICIENT_SIZE", "the buffer given is too small"},
    {8, "NVML_ERROR_INSUFFICIENT_POWER", "a power cable is not connected properly"},
    {9, "NVML_ERROR_DRIVER_NOT_LOADED", "the NVIDIA kernel driver is not loaded"},
    {10, "NVML_ERROR_TIMEOUT", "the call timed out"},
    {11, "NVML_ERROR_IRQ_ISSUE", "the kernel detected an interrupt problem with the GPU"},
    {12, "NVML_ERROR_LIBRARY_NOT_FOUND", "a needed library (usually libcuda) was not found"},
    {13, "NVML_ERROR_FUNCTION_NOT_FOUND", "a function is missing from the loaded library"},
    {14, "NVML_ERROR_CORRUPTED_INFOROM", "the GPU's infoROM is corrupted"},
    {15, "NVML_ERROR_GPU_IS_LOST", "the GPU has fallen off the bus or is otherwise unreachable"},
    {16, "NVML_ERROR_RESET_REQUIRED", "the GPU needs a reset before it can be used again"},
    {17, "NVML_ERROR_OPERATING_SYSTEM", "the operating system blocked the call"},
    {18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "driver/library version mismatch: libnvidia-ml and the kernel module differ"},
    {19, "NVML_ERROR_IN_USE", "the GPU is in use by another process"},
    {20, "NVML_ERROR_MEMORY", "not enough memory"},
    {21, "NVML_ERROR_NO_DATA", "no data available"},
    {22, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", "ECC is not supported with vGPU here"},
    {23, "NVML_ERROR_INSUFFICIENT_RESOURCES", "not enough resources for the request"},
    {24, "NVML_ERROR_FREQ_NOT_SUPPORTED", "the frequency asked for is not supported"},
    {25, "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", "the structure version passed is not the one the library expects"},
    {26, "NVML_ERROR_DEPRECATED", "the call is deprecated"},
    {27, "NVML_ERROR_NOT_READY", "the system is not ready"},
    {28, "NVML_ERROR_GPU_NOT_FOUND", "no GPU matches the identifier"},
    {29, "NVML_ERROR_INVALID_STATE", "the resource is in a state that does not allow this call"},
    {30, "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED", "this reset type is not supported"},
    {999, "NVML_ERROR_UNKNOWN", "an unknown internal error"},
};

/* cudaError_t codes of the CUDA 13.0 runtime (driver_types.h) that have no
 * CUresult of the same number and meaning; the others share the driver's
 * number (cudaErrorIllegalAddress = 700 = CUDA_ERROR_ILLEGAL_ADDRESS). */
static const err_row cudart_only_errors[] = {
    {9, "cudaErrorInvalidConfiguration", "the launch asks for resources the GPU can never give (block size, shared memory or registers per block)"},
    {12, "cudaErrorInvalidPitchValue", "a pitch argument is out of range"},
    {13, "cudaErrorInvalidSymbol", "the symbol passed is not a device symbol of this program"},
    {16, "cudaErrorInvalidHostPointer", "a host pointer argument is not valid (deprecated code)"},
    {17, "cudaErrorInvalidDevicePointer", "a device pointer argument is not valid (deprecated code)"},
    {18, "cudaErrorInvalidTexture", "the texture passed is not valid"},
    {19, "cudaErrorInvalidTextureBinding", "the texture is not bound"},
    {20, "cudaErrorInvalidChannelDescriptor", "the channel format descriptor is not valid"},
    {21, "cudaErrorInvalidMemcpyDirection", "the cudaMemcpyKind passed is not a valid direction"},
    {22, "cudaErrorAddressOfConstant", "the address of a constant variable was taken (deprecated since CUDA 3.1)"},
    {23, "cudaErrorTextureFetchFailed", "a texture fetch failed (device emulation; deprecated since CUDA 3.1)"},
    {24, "cudaErrorTextureNotBound", "a texture was not bound (device emulation; deprecated since CUDA 3.1)"},
    {25, "cudaErrorSynchronizationError", "a synchronization failed (device emulation; deprecated since CUDA 3.1)"},
    {26, "cudaErrorInvalidFilterSetting", "linear filtering was asked for on a non-float texture"},
    {27, "cudaErrorInvalidNormSetting", "an unsupported type was read as a normalized float"},
    {28, "cudaErrorMixedDeviceExecution", "device and emulation code were mixed (deprecated since CUDA 3.1)"},
    {31, "cudaErrorNotYetImplemented", "the call is not implemented (deprecated code)"},
    {32, "cudaErrorMemoryValueTooLarge", "an emulated device pointer passed 32 bits (deprecated since CUDA 3.1)"},
    {37, "cudaErrorInvalidSurface", "the surface passed is not valid"},
    {43, "cudaErrorDuplicateVariableName", "several global or constant variables in different source files share one name"},
    {44, "cudaErrorDuplicateTextureName", "several textures in different source files share one name"},
    {45, "cudaErrorDuplicateSurfaceName", "several surfaces in different source files share one name"},
    {49, "cudaErrorIncompatibleDriverContext", "the current context, made with the driver API, does not fit this runtime"},
    {52, "cudaErrorMissingConfiguration", "a kernel was launched without a launch configuration"},
    {53, "cudaErrorPriorLaunchFailure", "an earlier launch failed (device emulation; deprecated since CUDA 3.1)"},
    {65, "cudaErrorLaunchMaxDepthExceeded", "a device-side launch would nest grids deeper than allowed"},
    {66, "cudaErrorLaunchFileScopedTex", "a device-side launch of a kernel that uses file-scoped textures"},
    {67, "cudaErrorLaunchFileScopedSurf", "a device-side launch of a kernel that uses file-scoped surfaces"},
    {68, "cudaErrorSyncDepthExceeded", "a device-side synchronize at a grid depth above the limit"},
    {69, "cudaErrorLaunchPendingCountExceeded", "a device-side launch beyond the pending-launch limit"},
    {103, "cudaErrorSoftwareValidityNotEstablished", "the runtime's self-tests of itself and the driver failed"},
    {127, "cudaErrorStartupFailure", "the CUDA runtime failed to start"},
    {10000, "cudaErrorApiFailureBase", "base of the codes a failing driver call returns through the runtime (deprecated)"},
};

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

static const err_row *find_row(const err_row *rows, size_t n, int64_t code)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].code == code)
            return &rows[i];
    return NULL;
}

/* CUresult -> enum spelling; NULL when the code is not in CUDA 13.0. */
const char *cp_cuda_error_name(int64_t code)
{
    const err_row *r = find_row(cuda_errors, NROWS(cuda_errors), code);
    return r ? r->name : NULL;
}

/* CUresult -> one short line for people; NULL when unknown. */
const char *cp_cuda_error_text(int64_t code)
{
    const err_row *r = find_row(cuda_errors, NROWS(cuda_errors), code);
    return r ? r->text : NULL;
}

/* nvmlReturn_t -> enum spelling; NULL when unknown. */
const char *cp_nvml_error_name(int64_t code)
{
    const err_row *r = find_row(nvml_errors, NROWS(nvml_errors), code);
    return r ? r->name : NULL;
}

/* nvmlReturn_t -> one short line for people; NULL when unknown. */
const char *cp_nvml_error_text(int64_t code)
{
    const err_row *r = find_row(nvml_errors, NROWS(nvml_errors), code);
    return r ? r->text : NULL;
}

/* The i-th cudaError_t code without a CUresult twin: fills *code and returns
 * its name, or NULL past the end. */
const char *cp_cudart_only_error(size_t i, int64_t *code, const char **text)
{
    if (i >= NROWS(cudart_only_errors)) return NULL;
    *code = cudart_only_errors[i].code;
    *text = cudart_only_errors[i].text;
    return cudart_only_errors[i].name;
}
