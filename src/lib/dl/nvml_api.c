/*
 * The symbol table of libnvidia-ml.so.1.
 *
 * To add a function: a pointer in cp_nvml_api (nvml_api.h), then one line
 * here: REQ or OPT, the field, and the exported names newest ABI first when
 * nvml.h #defines the name to a versioned symbol (then the plain name must
 * NOT be listed: it has the old struct layout).  Without names the field's
 * own name is looked up.
 */
#include "dl/nvml_api.h"

#define SYM(req, field, ...) \
    { .name = #field, .required = (req), .alt = { __VA_ARGS__ }, \
      .offset = offsetof(cp_nvml_api, field) }
#define REQ(field, ...) SYM(true, field, __VA_ARGS__)
#define OPT(field, ...) SYM(false, field, __VA_ARGS__)

static const cp_dl_sym nvml_syms[] = {
    REQ(nvmlInit, "nvmlInit_v2"),
    REQ(nvmlShutdown, NULL),
    REQ(nvmlDeviceGetCount, "nvmlDeviceGetCount_v2"),
    REQ(nvmlDeviceGetHandleByIndex, "nvmlDeviceGetHandleByIndex_v2"),
    OPT(nvmlErrorString, NULL),
    OPT(nvmlSystemGetDriverVersion, NULL),
    OPT(nvmlSystemGetNVMLVersion, NULL),
    OPT(nvmlSystemGetCudaDriverVersion, "nvmlSystemGetCudaDriverVersion"),
    OPT(nvmlDeviceGetName, NULL),
    OPT(nvmlDeviceGetUUID, NULL),
    OPT(nvmlDeviceGetPciInfo, "nvmlDeviceGetPciInfo_v3"),
    OPT(nvmlDeviceGetCudaComputeCapability, NULL),
    OPT(nvmlDeviceGetPersistenceMode, NULL),
    OPT(nvmlDeviceGetComputeMode, NULL),
    OPT(nvmlDeviceGetMigMode, NULL),
    OPT(nvmlDeviceGetMemoryInfo, NULL),
    OPT(nvmlDeviceGetComputeRunningProcesses, "nvmlDeviceGetComputeRunningProcesses_v3"),
    OPT(nvmlDeviceGetRemappedRows, NULL),
    OPT(nvmlDeviceGetRetiredPagesPendingStatus, NULL),
    OPT(nvmlDeviceGetEccMode, NULL),
    OPT(nvmlDeviceGetTotalEccErrors, NULL),
    OPT(nvmlDeviceGetCurrentClocksEventReasons, "nvmlDeviceGetCurrentClocksEventReasons",
        "nvmlDeviceGetCurrentClocksThrottleReasons"),
    OPT(nvmlDeviceGetCurrPcieLinkGeneration, NULL),
    OPT(nvmlDeviceGetCurrPcieLinkWidth, NULL),
    OPT(nvmlDeviceGetMaxPcieLinkGeneration, NULL),
    OPT(nvmlDeviceGetMaxPcieLinkWidth, NULL),
    OPT(nvmlDeviceGetTemperature, NULL),
    OPT(nvmlDeviceGetTemperatureV, NULL),
    OPT(nvmlDeviceGetPowerUsage, NULL),
    OPT(nvmlDeviceGetEnforcedPowerLimit, NULL),
    OPT(nvmlDeviceGetUtilizationRates, NULL),
    OPT(nvmlDeviceGetMaxClockInfo, NULL),
    OPT(nvmlDeviceGetNvLinkState, NULL),
    /* nvml.h maps the name to _v2; the plain one fills the old nvmlPciInfo_t */
    OPT(nvmlDeviceGetNvLinkRemotePciInfo, "nvmlDeviceGetNvLinkRemotePciInfo_v2"),
    OPT(nvmlDeviceGetNvLinkVersion, NULL),
    OPT(nvmlDeviceGetP2PStatus, NULL),
    /* telemetry */
    OPT(nvmlDeviceGetClockInfo, NULL),
    OPT(nvmlDeviceGetTotalEnergyConsumption, NULL),
    OPT(nvmlDeviceGetPcieThroughput, NULL),
    OPT(nvmlDeviceGetSupportedEventTypes, NULL),
    OPT(nvmlEventSetCreate, NULL),
    OPT(nvmlDeviceRegisterEvents, NULL),
    OPT(nvmlEventSetWait, "nvmlEventSetWait_v2"),
    OPT(nvmlEventSetFree, NULL),
    OPT(nvmlGpmQueryDeviceSupport, NULL),
    OPT(nvmlGpmSampleAlloc, NULL),
    OPT(nvmlGpmSampleFree, NULL),
    OPT(nvmlGpmSampleGet, NULL),
    OPT(nvmlGpmMetricsGet, NULL),
    OPT(nvmlDeviceGetMemoryInfo_v2, NULL),
    OPT(nvmlDeviceGetProcessUtilization, NULL),
    OPT(nvmlDeviceGetSamples, NULL),
    { .name = NULL },
};

const cp_dl_lib cp_nvml_lib = {
    .soname = "libnvidia-ml.so.1",
    .env = "CUPROBE_LIBNVML",
    .syms = nvml_syms,
    .table_size = sizeof(cp_nvml_api),
};
