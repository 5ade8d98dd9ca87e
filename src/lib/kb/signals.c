/*
 * The explain knowledge base as one list: the curated tables of
 * signals_*.c, then a generic row for every CUresult and nvmlReturn_t name in
 * errors.c that no curated row claims, and one for every cudaError_t that
 * has no CUresult twin, so a pasted CUDA_ERROR_X or
 * NVML_ERROR_X name is always explained.  A generic row's layer, fix and
 * check come from the range tables below, its other spellings (cudaErrorX,
 * NVMLError_X, the library's message) from the spelling tables.
 *
 * To add a curated table: declare it in signals.h and add it to `tables`.
 */
#include <stdint.h>
#include "kb.h"
#include "signals.h"

static const cp_signal *const tables[] = {
    cp_signals_cuda, cp_signals_stack, cp_signals_ops, cp_signals_libs, cp_signals_frameworks, cp_signals_health,
    cp_signals_build, cp_signals_ecosystem, cp_signals_vocab, NULL
};

typedef struct {
    int lo, hi;               /* code range, inclusive */
    cp_layer layer;
    const char *fix;
    const char *check;
} code_rule;

#define F_APP "a program bug or misuse of the API: rerun with CUDA_LAUNCH_BLOCKING=1 and compute-sanitizer to find the call"
#define F_STICKY "the process must restart; run it under compute-sanitizer to find the faulting kernel"

/* CUresult ranges, first match wins (cuda.h groups codes by hundreds). */
static const code_rule cu_rules[] = {
    { 3, 4, CP_LAYER_DRIVER, "run `cuprobe doctor`: cuInit is failing", "driver.cuinit" },
    { 34, 36, CP_LAYER_DRIVER, "upgrade the driver or use a CUDA build the driver supports", "runtime.driver_compat" },
    { 46, 46, CP_LAYER_SYSTEM, "find the other process on the GPU or set compute mode DEFAULT", "system.compute_mode" },
    { 100, 102, CP_LAYER_SYSTEM, "check which GPUs the process may see (CUDA_VISIBLE_DEVICES, container --gpus)", "system.visibility" },
    { 209, 209, CP_LAYER_FRAMEWORK, "use a build that carries code for this GPU", "framework.arch" },
    { 214, 214, CP_LAYER_HARDWARE, "drain the GPU and reset it; if it repeats, RMA", "hardware.memory_health" },
    { 220, 220, CP_LAYER_HARDWARE, "check the NVLink fabric and the kernel log for XIDs", "hardware.xid" },
    { 218, 223, CP_LAYER_RUNTIME, "upgrade the driver to one whose JIT supports this PTX, or ship SASS for the GPU", "runtime.driver_compat" },
    { 226, 226, CP_LAYER_HARDWARE, "restart the process; check the kernel log for XID 94/95", "hardware.xid" },
    { 304, 304, CP_LAYER_SYSTEM, "look at the OS error near it (permissions, limits, /dev/shm)", "system.devnode_access" },
    { 700, 721, CP_LAYER_APPLICATION, F_STICKY, "application.xid" },
    { 800, 800, CP_LAYER_SYSTEM, "check permissions and the compute mode", "system.compute_mode" },
    { 801, 801, CP_LAYER_DRIVER, "check that the feature is supported on this GPU and platform", "driver.devices" },
    { 802, 802, CP_LAYER_SYSTEM, "start the fabric manager (NVSwitch systems) and wait for it to be ready", "driver.devices" },
    { 803, 804, CP_LAYER_DRIVER, "make the user-space driver match the kernel module; drop cuda-compat where unsupported", "driver.version_match" },
    { 805, 810, CP_LAYER_SYSTEM, "check the MPS control daemon and its client limits", "system.compute_mode" },
    { 999, 999, CP_LAYER_DRIVER, "check the kernel log for XIDs and run `cuprobe doctor`", "driver.cuinit" },
    { 0, 999, CP_LAYER_APPLICATION, F_APP, "application.xid" },
};

/* nvmlReturn_t ranges. */
static const code_rule nvml_rules[] = {
    { 4, 4, CP_LAYER_SYSTEM, "run as a user allowed to open /dev/nvidia*", "system.devnode_access" },
    { 9, 9, CP_LAYER_KERNEL, "load the nvidia kernel module", "kernel.nvidia_module" },
    { 12, 13, CP_LAYER_DRIVER, "install the driver's libnvidia-ml.so.1 of the same version as the kernel module", "driver.nvml" },
    { 14, 16, CP_LAYER_HARDWARE, "drain the GPU, reset it or reboot; if it repeats, RMA", "hardware.pci_gpu" },
    { 18, 18, CP_LAYER_DRIVER, "reboot or reload the nvidia modules", "driver.version_match" },
    /* results nvmlInit_v2 gives on real machines: never the arguments' fault */
    { 7, 7, CP_LAYER_DRIVER, "install the libnvidia-ml of the kernel module's version (one driver package)", "driver.nvml" },
    { 17, 17, CP_LAYER_SYSTEM, "the OS refused the call: in a container, pass the GPU through the NVIDIA Container Toolkit (--gpus); "
      "else check SELinux/AppArmor denials in 'dmesg'", "system.devnode_access" },
    { 20, 20, CP_LAYER_SYSTEM, "free host memory or raise the process's memory limits", "driver.nvml" },
    { 999, 999, CP_LAYER_DRIVER, "read 'dmesg | grep -i nvrm' for the driver's reason and run `cuprobe doctor`; after a driver "
      "upgrade, reboot", "driver.nvml" },
    { 0, 999, CP_LAYER_DRIVER, "check the NVML call's arguments and the driver version", "driver.nvml" },
};

/* More spellings of a code for its generic row: the runtime API's name
 * (cudaErrorX) or pynvml's exception class (NVMLError_X), and the message
 * the library prints for the code where that message is specific (the
 * driver's cuGetErrorString and the runtime's cudaGetErrorString agree).
 * A generic row fires only on a line that also says "cuda" ("nvml"), as
 * every name does, so a message alone in an unrelated log stays silent.
 * Codes with a curated row carry their spellings there. */
typedef struct {
    int code;
    const char *also_as[3];
} spelling;

static const spelling cu_spellings[] = {
    { 4, { "cudaErrorCudartUnloading", "driver shutting down" } },
    { 5, { "cudaErrorProfilerDisabled" } },
    { 6, { "cudaErrorProfilerNotInitialized" } },
    { 7, { "cudaErrorProfilerAlreadyStarted" } },
    { 8, { "cudaErrorProfilerAlreadyStopped" } },
    { 36, { "cudaErrorCallRequiresNewerDriver", "API call is not supported in the installed CUDA driver" } },
    { 101, { "cudaErrorInvalidDevice", "invalid device ordinal" } },
    { 102, { "cudaErrorDeviceNotLicensed", "device doesn't have valid Grid license" } },
    { 200, { "cudaErrorInvalidKernelImage", "device kernel image is invalid" } },
    { 205, { "cudaErrorMapBufferObjectFailed", "mapping of buffer object failed" } },
    { 206, { "cudaErrorUnmapBufferObjectFailed", "unmapping of buffer object failed" } },
    { 207, { "cudaErrorArrayIsMapped" } },
    { 208, { "cudaErrorAlreadyMapped" } },
    { 210, { "cudaErrorAlreadyAcquired" } },
    { 211, { "cudaErrorNotMapped" } },
    { 212, { "cudaErrorNotMappedAsArray" } },
    { 213, { "cudaErrorNotMappedAsPointer" } },
    { 215, { "cudaErrorUnsupportedLimit", "limit is not supported on this architecture" } },
    { 216, { "cudaErrorDeviceAlreadyInUse", "exclusive-thread device already in use by a different thread" } },
    { 217, { "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices" } },
    { 219, { "cudaErrorInvalidGraphicsContext", "invalid OpenGL or DirectX context" } },
    { 220, { "cudaErrorNvlinkUncorrectable", "uncorrectable NVLink error detected" } },
    { 221, { "cudaErrorJitCompilerNotFound", "PTX JIT compiler library not found" } },
    { 223, { "cudaErrorJitCompilationDisabled", "PTX JIT compilation was disabled" } },
    { 224, { "cudaErrorUnsupportedExecAffinity" } },
    { 225, { "cudaErrorUnsupportedDevSideSync" } },
    { 226, { "cudaErrorContained" } },
    { 300, { "cudaErrorInvalidSource" } },
    { 301, { "cudaErrorFileNotFound" } },
    { 302, { "cudaErrorSharedObjectSymbolNotFound", "shared object symbol not found" } },
    { 303, { "cudaErrorSharedObjectInitFailed", "shared object initialization failed" } },
    { 304, { "cudaErrorOperatingSystem", "OS call failed or operation not supported on this OS" } },
    { 401, { "cudaErrorIllegalState", "the operation cannot be performed in the present state" } },
    { 402, { "cudaErrorLossyQuery" } },
    { 500, { "cudaErrorSymbolNotFound", "named symbol not found" } },
    { 600, { "cudaErrorNotReady", "CUDA error: device not ready" } },
    { 703, { "cudaErrorLaunchIncompatibleTexturing", "launch uses incompatible texturing mode" } },
    { 704, { "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled" } },
    { 705, { "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled" } },
    { 708, { "cudaErrorSetOnActiveProcess", "cannot set while device is active in this process" } },
    { 709, { "cudaErrorContextIsDestroyed", "context is destroyed" } },
    { 711, { "cudaErrorTooManyPeers", "peer mapping resources exhausted" } },
    { 712, { "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped" } },
    { 713, { "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region" } },
    { 714, { "cudaErrorHardwareStackError", "hardware stack error" } },
    { 717, { "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space" } },
    { 718, { "cudaErrorInvalidPc", "invalid program counter" } },
    { 720, { "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch" } },
    { 721, { "cudaErrorTensorMemoryLeak" } },
    { 800, { "cudaErrorNotPermitted" } },   /* its message is a prefix of 900's and 907's */
    { 805, { "cudaErrorMpsConnectionFailed", "MPS client failed to connect to the MPS control daemon" } },
    { 806, { "cudaErrorMpsRpcFailure", "remote procedural call between the MPS server and the MPS client failed" } },
    { 807, { "cudaErrorMpsServerNotReady", "MPS server is not ready to accept new MPS client requests" } },
    { 808, { "cudaErrorMpsMaxClientsReached", "required to create MPS client have been exhausted" } },
    { 809, { "cudaErrorMpsMaxConnectionsReached", "required to support device connections have been exhausted" } },
    { 810, { "cudaErrorMpsClientTerminated", "the MPS client has been terminated by the server" } },
    { 811, { "cudaErrorCdpNotSupported" } },
    { 812, { "cudaErrorCdpVersionMismatch" } },
    { 900, { "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing" } },
    { 901, { "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture" } },
    { 902, { "cudaErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences" } },
    { 903, { "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began" } },
    { 904, { "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work" } },
    { 905, { "cudaErrorStreamCaptureIsolation", "dependency created on uncaptured work in another stream" } },
    { 906, { "cudaErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream" } },
    { 907, { "cudaErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream" } },
    { 908, { "cudaErrorStreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread" } },
    { 909, { "cudaErrorTimeout", "wait operation timed out" } },
    { 910, { "cudaErrorGraphExecUpdateFailure" } },
    { 911, { "cudaErrorExternalDevice" } },
    { 912, { "cudaErrorInvalidClusterSize" } },
    { 913, { "cudaErrorFunctionNotLoaded" } },
    { 914, { "cudaErrorInvalidResourceType" } },
    { 915, { "cudaErrorInvalidResourceConfiguration" } },
};

/* nvidia-container-cli words an NVML failure "nvml error: <nvmlErrorString>". */
static const spelling nvml_spellings[] = {
    { 1, { "NVMLError_Uninitialized", "nvml error: uninitialized" } },
    { 2, { "NVMLError_InvalidArgument", "nvml error: invalid argument" } },
    { 3, { "NVMLError_NotSupported", "nvml error: not supported" } },
    { 5, { "NVMLError_AlreadyInitialized" } },
    { 6, { "NVMLError_NotFound", "nvml error: not found" } },
    { 7, { "NVMLError_InsufficientSize" } },
    { 8, { "NVMLError_InsufficientPower", "Insufficient External Power" } },
    { 10, { "NVMLError_Timeout" } },
    { 11, { "NVMLError_IrqIssue", "Interrupt request issue" } },
    { 12, { "NVMLError_LibraryNotFound", "NVML Shared Library Not Found" } },
    { 13, { "NVMLError_FunctionNotFound", "nvml error: function not found" } },
    { 14, { "NVMLError_CorruptedInforom", "Corrupted infoROM" } },
    { 16, { "NVMLError_ResetRequired", "GPU requires restart" } },
    { 17, { "NVMLError_OperatingSystem" } },
    { 19, { "NVMLError_InUse" } },
    { 20, { "NVMLError_Memory" } },
    { 21, { "NVMLError_NoData" } },
    { 22, { "NVMLError_VgpuEccNotSupported" } },
    { 23, { "NVMLError_InsufficientResources" } },
    { 24, { "NVMLError_FreqNotSupported" } },
    { 25, { "NVMLError_ArgumentVersionMismatch" } },
    { 26, { "NVMLError_Deprecated" } },
    { 27, { "NVMLError_NotReady" } },
    { 28, { "NVMLError_GpuNotFound" } },
    { 29, { "NVMLError_InvalidState" } },
    { 999, { "NVMLError_Unknown" } },
};

static const spelling *spelling_for(int code, int nvml)
{
    const spelling *t = nvml ? nvml_spellings : cu_spellings;
    size_t n = nvml ? sizeof nvml_spellings / sizeof nvml_spellings[0] : sizeof cu_spellings / sizeof cu_spellings[0];
    for (size_t i = 0; i < n; i++)
        if (t[i].code == code) return &t[i];
    return NULL;
}

static const code_rule *rule_for(const code_rule *rules, size_t n, int code)
{
    for (size_t i = 0; i < n; i++)
        if (code >= rules[i].lo && code <= rules[i].hi) return &rules[i];
    return &rules[n - 1];
}

/* The layer the CUresult rule table gives a code; see signals.h. */
cp_layer cp_signal_cu_layer(int code)
{
    return rule_for(cu_rules, sizeof cu_rules / sizeof cu_rules[0], code)->layer;
}

/* The curated row that claims a code, or NULL. */
static const cp_signal *claimant(int code, int nvml)
{
    for (int t = 0; tables[t]; t++)
        for (const cp_signal *s = tables[t]; s->id; s++)
            if ((nvml ? s->nvml_code : s->cu_code) == code) return s;
    return NULL;
}

static int claimed(int code, int nvml) { return claimant(code, nvml) != NULL; }

static cp_signal generic_row(int code, int nvml, const char *name)
{
    const code_rule *rules = nvml ? nvml_rules : cu_rules;
    size_t nrules = nvml ? sizeof nvml_rules / sizeof nvml_rules[0] : sizeof cu_rules / sizeof cu_rules[0];
    const code_rule *r = rule_for(rules, nrules, code);
    cp_signal s = { .id = name, .layer = r->layer, .match = { name }, .also = { nvml ? "nvml" : "cuda" },
                    .cause = nvml ? cp_nvml_error_text(code) : cp_cuda_error_text(code),
                    .fix = r->fix, .check = r->check, .cu_code = nvml ? 0 : code, .nvml_code = nvml ? code : 0 };
    const spelling *sp = spelling_for(code, nvml);
    for (int i = 0; sp && i < 3 && sp->also_as[i]; i++) s.match[1 + i] = sp->also_as[i];
    return s;
}

/* Runtime-only codes: what fixes and checks them, and the runtime's own
 * message where it is specific enough to match. */
typedef struct {
    int code;
    cp_layer layer;
    const char *message;
} cudart_rule;

static const cudart_rule cudart_rules[] = {
    { 9, CP_LAYER_APPLICATION, "invalid configuration argument" },
    { 12, CP_LAYER_APPLICATION, "invalid pitch argument" },
    { 13, CP_LAYER_APPLICATION, "invalid device symbol" },
    { 17, CP_LAYER_APPLICATION, "invalid device pointer" },
    { 21, CP_LAYER_APPLICATION, "invalid copy direction for memcpy" },
    { 103, CP_LAYER_DRIVER, NULL },
    { 127, CP_LAYER_DRIVER, NULL },
};

/* One generic row per runtime-only cudaError_t. */
static size_t add_cudart_only(cp_signal *rows, size_t cap, size_t n)
{
    int64_t code;
    const char *text, *name;
    for (size_t i = 0; (name = cp_cudart_only_error(i, &code, &text)); i++) {
        const cudart_rule *r = NULL;
        for (size_t k = 0; k < sizeof cudart_rules / sizeof cudart_rules[0]; k++)
            if (cudart_rules[k].code == code) r = &cudart_rules[k];
        if (n < cap) {
            int drv = r && r->layer == CP_LAYER_DRIVER;
            cp_signal s = { .id = name, .layer = r ? r->layer : CP_LAYER_APPLICATION,
                            .match = { name, r ? r->message : NULL }, .also = { "cuda" }, .cause = text,
                            .fix = drv ? "run `cuprobe doctor`: the runtime cannot start on this driver" : F_APP,
                            .check = drv ? "driver.cuinit" : "application.xid", .rt_code = (int)code };
            rows[n] = s;
        }
        n++;
    }
    return n;
}

static size_t add_generic(cp_signal *rows, size_t cap, size_t n, int nvml)
{
    for (int code = 1; code <= 999; code++) {
        const char *name = nvml ? cp_nvml_error_name(code) : cp_cuda_error_name(code);
        if (!name || claimed(code, nvml)) continue;
        if (n < cap) rows[n] = generic_row(code, nvml, name);
        n++;
    }
    return n;
}

/* Every row, curated then generic; see signals.h. */
size_t cp_signals_all(cp_signal *rows, size_t cap)
{
    size_t n = 0;
    for (int t = 0; tables[t]; t++)
        for (const cp_signal *s = tables[t]; s->id; s++) {
            if (n < cap) rows[n] = *s;
            n++;
        }
    n = add_generic(rows, cap, n, 0);
    n = add_generic(rows, cap, n, 1);
    return add_cudart_only(rows, cap, n);
}

/* The row that explains one CUresult or nvmlReturn_t; see signals.h. */
int cp_signal_for_code(int code, int nvml, cp_signal *out)
{
    const char *name = nvml ? cp_nvml_error_name(code) : cp_cuda_error_name(code);
    if (code <= 0 || !name) return -1;
    const cp_signal *c = claimant(code, nvml);
    *out = c ? *c : generic_row(code, nvml, name);
    return 0;
}
