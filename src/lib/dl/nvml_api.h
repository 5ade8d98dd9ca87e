/*
 * The subset of NVML (libnvidia-ml.so.1) that cuprobe calls: our own type
 * declarations (there is no nvml.h at build time) and a struct of function
 * pointers filled by the loader from cp_nvml_lib.
 *
 * Layouts follow the NVML header of CUDA 13.x on LP64 (REFERENCE 2.4);
 * tests/unit/test_abi.c asserts every size and offset listed there.  The
 * vendor's enums are passed like ints, so they are ints here.
 *
 * Only nvmlInit_v2, nvmlShutdown, nvmlDeviceGetCount_v2 and
 * nvmlDeviceGetHandleByIndex_v2 are required; every other pointer may be
 * NULL on an older driver and the caller must check it.
 */
#ifndef CP_DL_NVML_API_H
#define CP_DL_NVML_API_H

#include "dl/loader.h"

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef int nvmlEnableState_t;        /* 0 disabled, 1 enabled */
typedef int nvmlComputeMode_t;        /* 0 default, 1 exclusive thread, 2 prohibited, 3 exclusive process */
typedef int nvmlTemperatureSensors_t; /* 0 = GPU */
typedef int nvmlMemoryErrorType_t;    /* 0 corrected, 1 uncorrected */
typedef int nvmlEccCounterType_t;     /* 0 volatile, 1 aggregate */
typedef int nvmlValueType_t;         /* CP_NVML_VALUE_TYPE_* below */
typedef int nvmlSamplingType_t;       /* CP_NVML_GPU_UTILIZATION_SAMPLES ... */

/* nvmlReturn_t values cuprobe tests for (REFERENCE 2.2). */
enum {
    CP_NVML_SUCCESS = 0,
    CP_NVML_ERROR_UNINITIALIZED = 1,
    CP_NVML_ERROR_INVALID_ARGUMENT = 2,
    CP_NVML_ERROR_NOT_SUPPORTED = 3,
    CP_NVML_ERROR_NO_PERMISSION = 4,
    CP_NVML_ERROR_NOT_FOUND = 6,
    CP_NVML_ERROR_INSUFFICIENT_SIZE = 7,
    CP_NVML_ERROR_DRIVER_NOT_LOADED = 9,
    CP_NVML_ERROR_FUNCTION_NOT_FOUND = 13,
    CP_NVML_ERROR_GPU_IS_LOST = 15,
    CP_NVML_ERROR_LIB_RM_VERSION_MISMATCH = 18,
    CP_NVML_ERROR_UNKNOWN = 999
};

enum {
    CP_NVML_TEMPERATURE_GPU = 0,
    CP_NVML_MEMORY_ERROR_CORRECTED = 0,
    CP_NVML_MEMORY_ERROR_UNCORRECTED = 1,
    CP_NVML_VOLATILE_ECC = 0,
    CP_NVML_AGGREGATE_ECC = 1,
    CP_NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE = 80,
    CP_NVML_SYSTEM_NVML_VERSION_BUFFER_SIZE = 80,
    CP_NVML_DEVICE_NAME_V2_BUFFER_SIZE = 96,
    CP_NVML_DEVICE_UUID_V2_BUFFER_SIZE = 96
};

/* nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v3: 68 bytes. */
typedef struct {
    char busIdLegacy[16];        /* "%04X:%02X:%02X.0" */
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;    /* device id << 16 | vendor id */
    unsigned int pciSubSystemId;
    char busId[32];              /* "%08X:%02X:%02X.0" */
} nvmlPciInfo_t;

/* nvmlPciInfoExt_t, version 0x01000040: 64 bytes. */
typedef struct {
    unsigned int version;
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId, baseClass, subClass;
    char busId[32];
} nvmlPciInfoExt_t;

/* nvmlMemory_t (v1): 24 bytes; used = reserved + allocated. */
typedef struct {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

/* nvmlMemory_v2_t, version 0x02000028: 40 bytes. */
typedef struct {
    unsigned int version;
    unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;

typedef struct {
    unsigned int gpu;            /* % of time a kernel was running */
    unsigned int memory;         /* % of time device memory was read or written */
} nvmlUtilization_t;

/* nvmlProcessInfo_t (= _v2_t), for the _v2 and _v3 process queries: 24 bytes. */
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId;      /* 0xFFFFFFFF outside MIG */
    unsigned int computeInstanceId;
} nvmlProcessInfo_t;

/* nvmlProcessInfo_v1_t, for the unversioned symbol only: 16 bytes. */
typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;

typedef struct {
    nvmlDevice_t device;
    unsigned long long eventType;
    unsigned long long eventData;    /* the XID for XidCriticalError */
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlEventData_t;

/* nvmlValueType_t.  0..4 as in every published nvml.h (go-nvml's and
 * NVIDIA's of CUDA 11/12 checked); SIGNED_INT 5 and UNSIGNED_SHORT 6 are
 * from the CUDA 13 header's listing in REFERENCE 2.4 only (not verified
 * against a header at hand: the older ones end at 4). */
enum {
    CP_NVML_VALUE_TYPE_DOUBLE = 0,
    CP_NVML_VALUE_TYPE_UNSIGNED_INT = 1,
    CP_NVML_VALUE_TYPE_UNSIGNED_LONG = 2,
    CP_NVML_VALUE_TYPE_UNSIGNED_LONG_LONG = 3,
    CP_NVML_VALUE_TYPE_SIGNED_LONG_LONG = 4,
    CP_NVML_VALUE_TYPE_SIGNED_INT = 5,
    CP_NVML_VALUE_TYPE_UNSIGNED_SHORT = 6
};
/* nvmlSamplingType_t: the one cuprobe asks (the header's 1). */
enum { CP_NVML_GPU_UTILIZATION_SAMPLES = 1 };

/* nvmlValue_t: 8 bytes.  dVal, uiVal, ulVal, ullVal, sllVal as in the
 * published headers; siVal and usVal from REFERENCE 2.4 (CUDA 13), which
 * do not change the size or the offsets. */
typedef union {
    double dVal;
    int siVal;
    unsigned int uiVal;
    unsigned long ulVal;
    unsigned long long ullVal;
    signed long long sllVal;
    unsigned short usVal;
} nvmlValue_t;

typedef struct {
    unsigned long long timeStamp;    /* CPU microseconds */
    nvmlValue_t sampleValue;
} nvmlSample_t;

typedef struct {
    unsigned int version;
    nvmlTemperatureSensors_t sensorType;
    int temperature;
} nvmlTemperature_t;
/* nvmlTemperature_t (nvmlTemperature_v1_t), 12 bytes; the header's
 * nvmlTemperature_v1 is NVML_STRUCT_VERSION(Temperature, 1) =
 * sizeof | 1 << 24 = 0x0100000C (REFERENCE 2.4). */
#define CP_NVML_TEMPERATURE_V1 ((unsigned int)(sizeof(nvmlTemperature_t) | (1u << 24)))

typedef struct {
    unsigned int fieldId;
    unsigned int scopeId;
    long long timestamp;             /* microseconds since 1970 */
    long long latencyUsec;
    nvmlValueType_t valueType;
    nvmlReturn_t nvmlReturn;
    nvmlValue_t value;
} nvmlFieldValue_t;

typedef nvmlReturn_t (*cp_nvmlInit_v2_fn)(void);
typedef nvmlReturn_t (*cp_nvmlShutdown_fn)(void);
typedef const char *(*cp_nvmlErrorString_fn)(nvmlReturn_t result);
typedef nvmlReturn_t (*cp_nvml_str_fn)(char *buf, unsigned int length);
typedef nvmlReturn_t (*cp_nvml_int_fn)(int *value);
typedef nvmlReturn_t (*cp_nvml_uint_fn)(unsigned int *value);
typedef nvmlReturn_t (*cp_nvmlDeviceGetHandleByIndex_v2_fn)(unsigned int index, nvmlDevice_t *dev);
typedef nvmlReturn_t (*cp_nvml_dev_str_fn)(nvmlDevice_t dev, char *buf, unsigned int length);
typedef nvmlReturn_t (*cp_nvml_dev_uint_fn)(nvmlDevice_t dev, unsigned int *value);
typedef nvmlReturn_t (*cp_nvml_dev_ull_fn)(nvmlDevice_t dev, unsigned long long *value);
typedef nvmlReturn_t (*cp_nvml_dev_state_fn)(nvmlDevice_t dev, nvmlEnableState_t *state);
typedef nvmlReturn_t (*cp_nvml_dev_state2_fn)(nvmlDevice_t dev, nvmlEnableState_t *current,
                                              nvmlEnableState_t *pending);
typedef nvmlReturn_t (*cp_nvml_dev_uint2_fn)(nvmlDevice_t dev, unsigned int *current,
                                             unsigned int *pending);
typedef nvmlReturn_t (*cp_nvmlDeviceGetPciInfo_v3_fn)(nvmlDevice_t dev, nvmlPciInfo_t *pci);
typedef nvmlReturn_t (*cp_nvmlDeviceGetCudaComputeCapability_fn)(nvmlDevice_t dev, int *major,
                                                                 int *minor);
typedef nvmlReturn_t (*cp_nvmlDeviceGetComputeMode_fn)(nvmlDevice_t dev, nvmlComputeMode_t *mode);
typedef nvmlReturn_t (*cp_nvmlDeviceGetMemoryInfo_fn)(nvmlDevice_t dev, nvmlMemory_t *mem);
typedef nvmlReturn_t (*cp_nvmlDeviceGetComputeRunningProcesses_v3_fn)(nvmlDevice_t dev,
                                                                      unsigned int *count,
                                                                      nvmlProcessInfo_t *infos);
typedef nvmlReturn_t (*cp_nvmlDeviceGetRemappedRows_fn)(nvmlDevice_t dev, unsigned int *corr,
                                                        unsigned int *unc, unsigned int *pending,
                                                        unsigned int *failure);
typedef nvmlReturn_t (*cp_nvmlDeviceGetTotalEccErrors_fn)(nvmlDevice_t dev,
                                                          nvmlMemoryErrorType_t type,
                                                          nvmlEccCounterType_t counter,
                                                          unsigned long long *count);
typedef nvmlReturn_t (*cp_nvmlDeviceGetUtilizationRates_fn)(nvmlDevice_t dev, nvmlUtilization_t *u);
typedef int nvmlClockType_t;          /* 0 graphics, 1 SM, 2 memory, 3 video */
typedef int nvmlGpuP2PCapsIndex_t;    /* 0 read, 1 write, 2 NVLink, 3 atomics, 4 PCI */
typedef int nvmlGpuP2PStatus_t;       /* 0 ok, else why not */
enum { CP_NVML_CLOCK_SM = 1, CP_NVML_CLOCK_MEM = 2, CP_NVML_NVLINK_MAX_LINKS = 18,
       CP_NVML_P2P_CAPS_INDEX_READ = 0, CP_NVML_P2P_STATUS_OK = 0 };
typedef nvmlReturn_t (*cp_nvmlDeviceGetP2PStatus_fn)(nvmlDevice_t dev1, nvmlDevice_t dev2,
                                                     nvmlGpuP2PCapsIndex_t index, nvmlGpuP2PStatus_t *status);
typedef nvmlReturn_t (*cp_nvmlDeviceGetMaxClockInfo_fn)(nvmlDevice_t dev, nvmlClockType_t type,
                                                        unsigned int *mhz);
typedef nvmlReturn_t (*cp_nvmlDeviceGetNvLinkState_fn)(nvmlDevice_t dev, unsigned int link,
                                                       nvmlEnableState_t *active);
typedef nvmlReturn_t (*cp_nvmlDeviceGetNvLinkRemotePciInfo_v2_fn)(nvmlDevice_t dev, unsigned int link,
                                                                  nvmlPciInfo_t *pci);
typedef nvmlReturn_t (*cp_nvmlDeviceGetNvLinkVersion_fn)(nvmlDevice_t dev, unsigned int link,
                                                         unsigned int *version);
typedef nvmlReturn_t (*cp_nvmlDeviceGetTemperature_fn)(nvmlDevice_t dev,
                                                       nvmlTemperatureSensors_t sensor,
                                                       unsigned int *temp_c);
typedef nvmlReturn_t (*cp_nvmlDeviceGetTemperatureV_fn)(nvmlDevice_t dev, nvmlTemperature_t *t);
/* Samples newer than last_seen_us (CPU microseconds); samples NULL sets
 * *count to the buffer's size; NOT_FOUND when none is newer. */
typedef nvmlReturn_t (*cp_nvmlDeviceGetSamples_fn)(nvmlDevice_t dev, nvmlSamplingType_t type,
                                                   unsigned long long last_seen_us,
                                                   nvmlValueType_t *value_type,
                                                   unsigned int *count, nvmlSample_t *samples);

/* ---- telemetry (src/lib/telemetry/): clocks, energy, PCIe throughput,
 * events, GPM.  Layouts from the NVML header as published in go-nvml
 * (gen/nvml/nvml.h) and NVIDIA's nvml.h of CUDA 12.x; GPM's array size is
 * the one thing that differs between header versions (see below). */
typedef int nvmlPcieUtilCounter_t;    /* 0 TX bytes, 1 RX bytes */
typedef struct nvmlEventSet_st *nvmlEventSet_t;
typedef struct nvmlGpmSample_st *nvmlGpmSample_t;

enum {
    CP_NVML_ERROR_TIMEOUT = 10,
    CP_NVML_PCIE_UTIL_TX_BYTES = 0,
    CP_NVML_PCIE_UTIL_RX_BYTES = 1,
    CP_NVML_EVENT_TYPE_XID_CRITICAL_ERROR = 0x8,
    CP_NVML_GPM_SUPPORT_VERSION = 1,
    CP_NVML_GPM_METRICS_GET_VERSION = 1,
    CP_NVML_GPM_METRIC_SM_UTIL = 2,         /* % of time the SMs were busy, averaged over SMs */
    CP_NVML_GPM_METRIC_SM_OCCUPANCY = 3,    /* % of the warps an SM can hold that were resident */
    CP_NVML_GPM_METRIC_ANY_TENSOR_UTIL = 5, /* % of time the SMs ran any tensor instruction */
    CP_NVML_GPM_METRIC_DRAM_BW_UTIL = 10    /* % of the theoretical DRAM bandwidth used */
};

/* nvmlGpmSupport_t, version 1: 8 bytes. */
typedef struct {
    unsigned int version;
    unsigned int isSupportedDevice;
} nvmlGpmSupport_t;

/* nvmlGpmMetric_t: 40 bytes (metricId @0, nvmlReturn @4, value @8,
 * metricInfo's three pointers @16). */
typedef struct {
    unsigned int metricId;
    nvmlReturn_t nvmlReturn;
    double value;
    struct {
        char *shortName;
        char *longName;
        char *unit;
    } metricInfo;
} nvmlGpmMetric_t;

/* nvmlGpmMetricsGet_t, version 1: version @0, numMetrics @4, sample1 @8,
 * sample2 @16, metrics @24.  The header sizes metrics[] by
 * NVML_GPM_METRIC_MAX, which grew (98 in CUDA 12.0, 333 in the 12.4-era
 * headers) without a version change, so NVML reads numMetrics entries
 * only; 333 is kept so the struct is never smaller than any header's.
 * Not verified against a CUDA 13 nvml.h (none at hand). */
#define CP_NVML_GPM_METRIC_MAX 333
typedef struct {
    unsigned int version;
    unsigned int numMetrics;
    nvmlGpmSample_t sample1;
    nvmlGpmSample_t sample2;
    nvmlGpmMetric_t metrics[CP_NVML_GPM_METRIC_MAX];
} nvmlGpmMetricsGet_t;

typedef nvmlReturn_t (*cp_nvmlDeviceGetClockInfo_fn)(nvmlDevice_t dev, nvmlClockType_t type,
                                                     unsigned int *mhz);
typedef nvmlReturn_t (*cp_nvmlDeviceGetPcieThroughput_fn)(nvmlDevice_t dev,
                                                          nvmlPcieUtilCounter_t counter,
                                                          unsigned int *kbps);
typedef nvmlReturn_t (*cp_nvmlEventSetCreate_fn)(nvmlEventSet_t *set);
typedef nvmlReturn_t (*cp_nvmlDeviceRegisterEvents_fn)(nvmlDevice_t dev,
                                                       unsigned long long types,
                                                       nvmlEventSet_t set);
typedef nvmlReturn_t (*cp_nvmlEventSetWait_v2_fn)(nvmlEventSet_t set, nvmlEventData_t *data,
                                                  unsigned int timeout_ms);
typedef nvmlReturn_t (*cp_nvmlEventSetFree_fn)(nvmlEventSet_t set);
typedef nvmlReturn_t (*cp_nvmlGpmQueryDeviceSupport_fn)(nvmlDevice_t dev, nvmlGpmSupport_t *s);
typedef nvmlReturn_t (*cp_nvmlGpmSampleAlloc_fn)(nvmlGpmSample_t *sample);
typedef nvmlReturn_t (*cp_nvmlGpmSampleFree_fn)(nvmlGpmSample_t sample);
typedef nvmlReturn_t (*cp_nvmlGpmSampleGet_fn)(nvmlDevice_t dev, nvmlGpmSample_t sample);
typedef nvmlReturn_t (*cp_nvmlGpmMetricsGet_fn)(nvmlGpmMetricsGet_t *get);
typedef nvmlReturn_t (*cp_nvmlDeviceGetMemoryInfo_v2_fn)(nvmlDevice_t dev, nvmlMemory_v2_t *mem);

/* nvmlProcessUtilizationSample_t: 32 bytes (pid @0, timeStamp @8, smUtil
 * @16, memUtil @20, encUtil @24, decUtil @28). */
typedef struct {
    unsigned int pid;
    unsigned long long timeStamp;    /* CPU microseconds */
    unsigned int smUtil, memUtil, encUtil, decUtil;
} nvmlProcessUtilizationSample_t;
typedef nvmlReturn_t (*cp_nvmlDeviceGetProcessUtilization_fn)(nvmlDevice_t dev,
                                                               nvmlProcessUtilizationSample_t *s,
                                                               unsigned int *count,
                                                               unsigned long long last_seen_us);

typedef struct {
    /* required */
    cp_nvmlInit_v2_fn nvmlInit;                          /* nvmlInit_v2 */
    cp_nvmlShutdown_fn nvmlShutdown;
    cp_nvml_uint_fn nvmlDeviceGetCount;                  /* nvmlDeviceGetCount_v2 */
    cp_nvmlDeviceGetHandleByIndex_v2_fn nvmlDeviceGetHandleByIndex; /* _v2 */
    /* optional: system */
    cp_nvmlErrorString_fn nvmlErrorString;
    cp_nvml_str_fn nvmlSystemGetDriverVersion;
    cp_nvml_str_fn nvmlSystemGetNVMLVersion;
    /* v1 on purpose: _v2 dlopens libcuda and calls into it from NVML */
    cp_nvml_int_fn nvmlSystemGetCudaDriverVersion;
    /* optional: per device */
    cp_nvml_dev_str_fn nvmlDeviceGetName;
    cp_nvml_dev_str_fn nvmlDeviceGetUUID;
    cp_nvmlDeviceGetPciInfo_v3_fn nvmlDeviceGetPciInfo;  /* nvmlDeviceGetPciInfo_v3 */
    cp_nvmlDeviceGetCudaComputeCapability_fn nvmlDeviceGetCudaComputeCapability;
    cp_nvml_dev_state_fn nvmlDeviceGetPersistenceMode;
    cp_nvmlDeviceGetComputeMode_fn nvmlDeviceGetComputeMode;
    cp_nvml_dev_uint2_fn nvmlDeviceGetMigMode;           /* Ampere and newer */
    cp_nvmlDeviceGetMemoryInfo_fn nvmlDeviceGetMemoryInfo;
    cp_nvmlDeviceGetComputeRunningProcesses_v3_fn nvmlDeviceGetComputeRunningProcesses; /* _v3 */
    cp_nvmlDeviceGetRemappedRows_fn nvmlDeviceGetRemappedRows; /* Ampere and newer */
    cp_nvml_dev_state_fn nvmlDeviceGetRetiredPagesPendingStatus;
    cp_nvml_dev_state2_fn nvmlDeviceGetEccMode;
    cp_nvmlDeviceGetTotalEccErrors_fn nvmlDeviceGetTotalEccErrors;
    /* ...EventReasons (NVML >= 535), else the same call under its older name */
    cp_nvml_dev_ull_fn nvmlDeviceGetCurrentClocksEventReasons;
    cp_nvml_dev_uint_fn nvmlDeviceGetCurrPcieLinkGeneration;
    cp_nvml_dev_uint_fn nvmlDeviceGetCurrPcieLinkWidth;
    cp_nvml_dev_uint_fn nvmlDeviceGetMaxPcieLinkGeneration;
    cp_nvml_dev_uint_fn nvmlDeviceGetMaxPcieLinkWidth;
    cp_nvmlDeviceGetTemperature_fn nvmlDeviceGetTemperature; /* deprecated in 13.0, still exported */
    cp_nvmlDeviceGetTemperatureV_fn nvmlDeviceGetTemperatureV; /* its successor, in newer drivers only */
    cp_nvml_dev_uint_fn nvmlDeviceGetPowerUsage;
    cp_nvml_dev_uint_fn nvmlDeviceGetEnforcedPowerLimit;
    cp_nvmlDeviceGetUtilizationRates_fn nvmlDeviceGetUtilizationRates; /* not on MIG-enabled GPUs */
    /* cuprobe info */
    cp_nvmlDeviceGetMaxClockInfo_fn nvmlDeviceGetMaxClockInfo;
    cp_nvmlDeviceGetNvLinkState_fn nvmlDeviceGetNvLinkState;
    cp_nvmlDeviceGetNvLinkRemotePciInfo_v2_fn nvmlDeviceGetNvLinkRemotePciInfo; /* _v2: the v3 PCI layout */
    cp_nvmlDeviceGetNvLinkVersion_fn nvmlDeviceGetNvLinkVersion;
    cp_nvmlDeviceGetP2PStatus_fn nvmlDeviceGetP2PStatus;
    /* optional: telemetry (src/lib/telemetry/) */
    cp_nvmlDeviceGetClockInfo_fn nvmlDeviceGetClockInfo;
    cp_nvml_dev_ull_fn nvmlDeviceGetTotalEnergyConsumption; /* Volta and newer */
    cp_nvmlDeviceGetPcieThroughput_fn nvmlDeviceGetPcieThroughput; /* a 20 ms window per call */
    cp_nvml_dev_ull_fn nvmlDeviceGetSupportedEventTypes;
    cp_nvmlEventSetCreate_fn nvmlEventSetCreate;
    cp_nvmlDeviceRegisterEvents_fn nvmlDeviceRegisterEvents;
    cp_nvmlEventSetWait_v2_fn nvmlEventSetWait;        /* nvmlEventSetWait_v2 */
    cp_nvmlEventSetFree_fn nvmlEventSetFree;
    cp_nvmlGpmQueryDeviceSupport_fn nvmlGpmQueryDeviceSupport; /* Hopper and newer */
    cp_nvmlGpmSampleAlloc_fn nvmlGpmSampleAlloc;
    cp_nvmlGpmSampleFree_fn nvmlGpmSampleFree;
    cp_nvmlGpmSampleGet_fn nvmlGpmSampleGet;
    cp_nvmlGpmMetricsGet_fn nvmlGpmMetricsGet;
    cp_nvmlDeviceGetMemoryInfo_v2_fn nvmlDeviceGetMemoryInfo_v2; /* set version 0x02000028 */
    cp_nvmlDeviceGetProcessUtilization_fn nvmlDeviceGetProcessUtilization;
    cp_nvmlDeviceGetSamples_fn nvmlDeviceGetSamples;  /* not on MIG-enabled GPUs */
} cp_nvml_api;

/* libnvidia-ml.so.1, overridden by $CUPROBE_LIBNVML; fills a cp_nvml_api. */
extern const cp_dl_lib cp_nvml_lib;

#endif
