/*
 * Explain rows for the CUDA libraries: NCCL results and messages, cuBLAS
 * statuses (CUBLAS_STATUS_*) and cuDNN statuses (CUDNN_STATUS_*).
 *
 * To add a row: see signals_cuda.c.
 */
#include "signals.h"

#define SY CP_LAYER_SYSTEM
#define LI CP_LAYER_LIBRARIES
#define AP CP_LAYER_APPLICATION

#define F_NCCL_DEBUG "rerun with NCCL_DEBUG=INFO (and NCCL_DEBUG_SUBSYS=INIT,NET) and read the first WARN line on every rank"

const cp_signal cp_signals_libs[] = {
    { .id = "nccl.unhandled_cuda", .layer = LI, .match = { "ncclUnhandledCudaError", "unhandled cuda error" },
      .cause = "a CUDA call inside NCCL failed; the CUDA error underneath is the real cause (often a driver, peer-access or memory problem)",
      .fix = F_NCCL_DEBUG "; the CUDA error it names is what to fix",
      .check = "libraries.driver" },
    { .id = "nccl.system", .layer = SY, .match = { "ncclSystemError", "unhandled system error" },
      .cause = "an OS or network call failed in NCCL: often /dev/shm too small in a container, a wrong network interface, or InfiniBand setup",
      .fix = "give containers more shared memory (--shm-size=8g or --ipc=host), set NCCL_SOCKET_IFNAME to the right interface; " F_NCCL_DEBUG,
      .check = "system.container" },
    { .id = "nccl.internal", .layer = LI,
      .match = { "ncclInternalError", "internal error - please report this issue to the NCCL developers" },
      .cause = "NCCL hit an internal inconsistency, often from mismatched NCCL versions across ranks or a broken topology detection",
      .fix = "use the same NCCL version on every rank, then " F_NCCL_DEBUG, .check = "libraries.shadow" },
    { .id = "nccl.invalid_usage", .layer = AP, .match = { "ncclInvalidUsage", "ncclInvalidArgument" },
      .cause = "the program called NCCL wrongly: ranks disagree on sizes, dtypes or order of collectives, or two ranks use one GPU",
      .fix = "check that every rank runs the same collectives in the same order and that each rank has its own GPU (LOCAL_RANK); NCCL_DEBUG=WARN names the argument",
      .check = "system.visibility" },
    { .id = "nccl.remote", .layer = SY,
      .match = { "ncclRemoteError", "remote process exited or there was a network error" },
      .cause = "a peer rank died or the network between ranks dropped; this rank only saw the consequence",
      .fix = "read the logs of the other ranks first (their first error is the cause); then check the network links", .check = NULL },
    { .id = "nccl.watchdog_timeout", .layer = LI, .match = { "Watchdog caught collective operation timeout" },
      .cause = "a collective did not finish in time: some rank is stuck, crashed or runs a different code path, or the network is stalled",
      .fix = "find the rank that did not reach the collective (py-spy dump, TORCH_NCCL_DESYNC_DEBUG=1); raise the timeout only if work is just slow",
      .check = NULL },
    { .id = "nccl.warn", .layer = LI, .match = { "NCCL WARN" },
      .cause = "NCCL logged a warning; the text after WARN says which part failed (socket, IB, shm, CUDA)",
      .fix = "read the first NCCL WARN line on each rank: it is usually the real cause of the later error", .check = NULL },
    { .id = "cublas.not_initialized", .layer = LI, .match = { "CUBLAS_STATUS_NOT_INITIALIZED" },
      .cause = "cuBLAS could not create its handle, almost always because the GPU was out of memory or the CUDA context was already broken",
      .fix = "check free GPU memory and the first CUDA error in the log; a mismatched cuBLAS copy on the library path is the rarer cause",
      .check = "system.memory_headroom" },
    { .id = "cublas.alloc_failed", .layer = LI, .match = { "CUBLAS_STATUS_ALLOC_FAILED" },
      .cause = "cuBLAS could not allocate its workspace: GPU memory is used up",
      .fix = "lower the batch size, free memory, or stop other processes on the GPU", .check = "system.memory_headroom" },
    { .id = "cublas.arch_mismatch", .layer = LI, .match = { "CUBLAS_STATUS_ARCH_MISMATCH" },
      .cause = "the cuBLAS in use does not support this GPU's architecture (or the operation needs a newer GPU, e.g. a dtype)",
      .fix = "use a cuBLAS/CUDA release that supports this GPU, or a dtype the GPU supports", .check = "framework.arch" },
    { .id = "cublas.execution_failed", .layer = LI,
      .match = { "CUBLAS_STATUS_EXECUTION_FAILED", "CUBLAS_STATUS_INTERNAL_ERROR", "CUBLAS_STATUS_INVALID_VALUE",
                 "CUBLAS_STATUS_NOT_SUPPORTED", "CUBLAS_STATUS_MAPPING_ERROR" },
      .cause = "a cuBLAS call failed: a GPU kernel failed (often after an earlier CUDA error), the arguments or shapes are invalid, or the cuBLAS build does not support this GPU",
      .fix = "rerun with CUDA_LAUNCH_BLOCKING=1 to find the first failing call; check that the framework's CUDA libraries support this GPU",
      .check = "framework.libs" },
    { .id = "cudnn.not_initialized", .layer = LI, .match = { "CUDNN_STATUS_NOT_INITIALIZED" },
      .cause = "cuDNN could not initialise: out of GPU memory, or its sub-libraries or CUDA version do not match",
      .fix = "check free GPU memory; make sure only one cuDNN version is on the library path and it matches the framework's CUDA",
      .check = "libraries.load" },
    { .id = "cudnn.version_mismatch", .layer = LI,
      .match = { "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", "Loaded runtime CuDNN library" },
      .cause = "the cuDNN loaded at run time is not the version the framework was built with (another copy shadows it)",
      .fix = "remove the other cuDNN copy from LD_LIBRARY_PATH, or install the cuDNN version the framework asks for",
      .check = "libraries.shadow" },
    { .id = "cudnn.not_supported", .layer = LI,
      .match = { "CUDNN_STATUS_NOT_SUPPORTED", "CUDNN_STATUS_BAD_PARAM", "CUDNN_STATUS_ARCH_MISMATCH" },
      .cause = "cuDNN has no algorithm for this shape, dtype or layout on this GPU (sizes past its limits, non-contiguous input, or an old GPU)",
      .fix = "make the input contiguous, try a smaller batch or another dtype, or disable cuDNN for that layer",
      .check = "framework.arch" },
    { .id = "cudnn.failed", .layer = LI,
      .match = { "CUDNN_STATUS_EXECUTION_FAILED", "CUDNN_STATUS_INTERNAL_ERROR", "CUDNN_STATUS_ALLOC_FAILED",
                 "CUDNN_STATUS_MAPPING_ERROR" },
      .cause = "a cuDNN kernel or allocation failed, usually out of GPU memory or after an earlier CUDA error",
      .fix = "check free GPU memory and the first CUDA error in the log; rerun with CUDA_LAUNCH_BLOCKING=1",
      .check = "system.memory_headroom" },
    { .id = NULL }
};
