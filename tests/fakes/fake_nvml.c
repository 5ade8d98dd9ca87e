/*
 * A fake libnvidia-ml.so.1 driven by a scenario file (see fake_common.h for
 * the keys).  It exports the versioned names the NVML header maps to
 * (nvmlInit_v2, nvmlDeviceGetPciInfo_v3, ...) and declares its own types, as
 * the real header lays them out, independently of cuprobe's nvml_api.h.
 */
#include <stddef.h>
#include <time.h>
#include <unistd.h>

#include "fake_common.h"

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st { int index; } *nvmlDevice_t;

typedef struct {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

typedef struct {
    unsigned long long total, free, used;
} nvmlMemory_t;

typedef struct {
    unsigned int gpu, memory;
} nvmlUtilization_t;

typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory;
    unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_t;

enum {
    FK_SUCCESS = 0, FK_UNINITIALIZED = 1, FK_INVALID_ARGUMENT = 2, FK_NOT_SUPPORTED = 3,
    FK_INSUFFICIENT_SIZE = 7
};

#define FK_MAX_DEV 64

FK_LOAD_CONSTRUCTOR("nvml")
#define FK_MAX_PROCS 256

static int g_init;            /* nvmlInit_v2 reference count */
static long long fk_calls;    /* exported NVML calls made in this process */
static struct nvmlDevice_st g_devs[FK_MAX_DEV];

nvmlReturn_t nvmlInit_v2(void)
{
    fk_calls++;
    fk_load(1);
    if (fk_int("nvml.init.hang", 0))
        for (;;)
            pause();
    long long r = fk_int("nvml.init", 0);
    if (r != 0)
        return (nvmlReturn_t)r;
    g_init++;
    return FK_SUCCESS;
}

nvmlReturn_t nvmlShutdown(void)
{
    fk_calls++;
    if (g_init <= 0)
        return FK_UNINITIALIZED;
    g_init--;
    return FK_SUCCESS;
}

static const struct { int code; const char *text; } errors[] = {
    { 0, "Success" }, { 1, "Uninitialized" }, { 2, "Invalid Argument" },
    { 3, "Not Supported" }, { 4, "Insufficient Permissions" }, { 7, "Insufficient Size" },
    { 9, "Driver Not Loaded" }, { 12, "NVML Shared Library Not Found" },
    { 15, "GPU is lost" }, { 18, "Driver/library version mismatch" },
};

const char *nvmlErrorString(nvmlReturn_t result)
{
    fk_calls++;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == result)
            return errors[i].text;
    return "Unknown Error";
}

static nvmlReturn_t put_str(const char *v, char *buf, unsigned int length)
{
    if (!g_init)
        return FK_UNINITIALIZED;
    if (!buf)
        return FK_INVALID_ARGUMENT;
    if (!v)
        return FK_NOT_SUPPORTED;
    if (strlen(v) + 1 > length)
        return FK_INSUFFICIENT_SIZE;
    memcpy(buf, v, strlen(v) + 1);
    return FK_SUCCESS;
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
    fk_calls++;
    return put_str(fk_get("nvml.driver"), version, length);
}

nvmlReturn_t nvmlSystemGetNVMLVersion(char *version, unsigned int length)
{
    fk_calls++;
    return put_str(fk_get("nvml.version"), version, length);
}

/* Not through the symbol table, here and below: a name may be dropped. */
static nvmlReturn_t cuda_driver_version(int *version)
{
    long long v;
    if (!g_init)
        return FK_UNINITIALIZED;
    if (!version)
        return FK_INVALID_ARGUMENT;
    if (!fk_num(fk_get("nvml.cuda"), &v))
        return FK_NOT_SUPPORTED;
    *version = (int)v;
    return FK_SUCCESS;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *version)
{
    fk_calls++;
    return cuda_driver_version(version);
}

/* The real _v2 asks libcuda; here it answers the same. */
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *version)
{
    fk_calls++;
    return cuda_driver_version(version);
}

static int ndevices(void)
{
    long long n = fk_int("nvml.devices", 0);
    return n < 0 ? 0 : n > FK_MAX_DEV ? FK_MAX_DEV : (int)n;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count)
{
    fk_calls++;
    if (!g_init)
        return FK_UNINITIALIZED;
    if (!count)
        return FK_INVALID_ARGUMENT;
    *count = (unsigned)ndevices();
    return FK_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
    fk_calls++;
    if (!g_init)
        return FK_UNINITIALIZED;
    if (!device || index >= (unsigned)ndevices())
        return FK_INVALID_ARGUMENT;
    g_devs[index].index = (int)index;
    *device = &g_devs[index];
    return FK_SUCCESS;
}

static nvmlReturn_t fk_dev_fault(int index);

/* The scenario value of one field of a device handle; *rc says why not. */
static const char *field(nvmlDevice_t d, const char *name, nvmlReturn_t *rc)
{
    *rc = FK_SUCCESS;
    if (!g_init) {
        *rc = FK_UNINITIALIZED;
        return NULL;
    }
    if (!d || d < g_devs || d >= g_devs + FK_MAX_DEV || d->index >= ndevices()) {
        *rc = FK_INVALID_ARGUMENT;
        return NULL;
    }
    *rc = fk_dev_fault(d->index);
    if (*rc != FK_SUCCESS)
        return NULL;
    const char *v = fk_dev("nvml", d->index, name);
    if (!v)
        *rc = FK_NOT_SUPPORTED;
    return v;
}

static nvmlReturn_t dev_num(nvmlDevice_t d, const char *name, long long *out)
{
    nvmlReturn_t rc;
    const char *v = field(d, name, &rc);
    if (rc != FK_SUCCESS)
        return rc;
    return fk_num(v, out) ? FK_SUCCESS : FK_NOT_SUPPORTED;
}

/* A field that may be absent once the call is known to be supported. */
static long long opt_num(nvmlDevice_t d, const char *name, long long dflt)
{
    long long v;
    return dev_num(d, name, &v) == FK_SUCCESS ? v : dflt;
}

static nvmlReturn_t dev_uint(nvmlDevice_t d, const char *name, unsigned int *out)
{
    long long v;
    nvmlReturn_t rc = dev_num(d, name, &v);
    if (rc == FK_SUCCESS && !out)
        return FK_INVALID_ARGUMENT;
    if (rc == FK_SUCCESS)
        *out = (unsigned)v;
    return rc;
}

static nvmlReturn_t dev_int(nvmlDevice_t d, const char *name, int *out)
{
    return dev_uint(d, name, (unsigned int *)out);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int length)
{
    fk_calls++;
    nvmlReturn_t rc;
    const char *v = field(d, "name", &rc);
    return rc != FK_SUCCESS ? rc : put_str(v, name, length);
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int length)
{
    fk_calls++;
    nvmlReturn_t rc;
    const char *v = field(d, "uuid", &rc);
    return rc != FK_SUCCESS ? rc : put_str(v, uuid, length);
}

/* Fill pci from "0000:00:06.0" in the formats of the real header (uppercase,
 * function always 0), ids 0; 0 when v is no bus id. */
static int put_pci(const char *v, nvmlPciInfo_t *pci)
{
    unsigned dom, bus, slot, fn;
    if (!fk_pci(v, &dom, &bus, &slot, &fn))
        return 0;
    memset(pci, 0, sizeof *pci);
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", dom, bus, slot);
    snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", dom, bus, slot);
    pci->domain = dom;
    pci->bus = bus;
    pci->device = slot;
    return 1;
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *pci)
{
    fk_calls++;
    nvmlReturn_t rc;
    const char *v = field(d, "pci", &rc);
    if (rc != FK_SUCCESS)
        return rc;
    if (!pci)
        return FK_INVALID_ARGUMENT;
    if (!put_pci(v, pci))
        return FK_NOT_SUPPORTED;
    pci->pciDeviceId = 0x233510deu;   /* H200 */
    pci->pciSubSystemId = 0x18f810deu;
    return FK_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor)
{
    fk_calls++;
    nvmlReturn_t rc;
    const char *v = field(d, "cc", &rc);
    if (rc != FK_SUCCESS)
        return rc;
    if (!major || !minor)
        return FK_INVALID_ARGUMENT;
    return fk_cc(v, major, minor) ? FK_SUCCESS : FK_NOT_SUPPORTED;
}

nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, int *mode)
{
    fk_calls++;
    return dev_int(d, "persistence", mode);
}

nvmlReturn_t nvmlDeviceGetComputeMode(nvmlDevice_t d, int *mode)
{
    fk_calls++;
    return dev_int(d, "compute_mode", mode);
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int *current, unsigned int *pending)
{
    fk_calls++;
    nvmlReturn_t rc = dev_uint(d, "mig", current);
    if (rc == FK_SUCCESS && !pending)
        return FK_INVALID_ARGUMENT;
    if (rc == FK_SUCCESS)
        *pending = (unsigned)opt_num(d, "mig_pending", *current);
    return rc;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *mem)
{
    fk_calls++;
    long long total;
    nvmlReturn_t rc = dev_num(d, "mem_total", &total);
    if (rc != FK_SUCCESS)
        return rc;
    if (!mem)
        return FK_INVALID_ARGUMENT;
    mem->total = (unsigned long long)total;
    mem->used = (unsigned long long)opt_num(d, "mem_used", 0);
    mem->free = mem->total - mem->used;
    return FK_SUCCESS;
}

/* "pid:bytes,pid:bytes" -> list; returns the count, -1 when malformed. */
static int parse_procs(const char *v, nvmlProcessInfo_t *out, int max)
{
    int n = 0;
    while (*v) {
        unsigned pid;
        unsigned long long bytes;
        int used = 0;
        if (sscanf(v, " %u:%llu%n", &pid, &bytes, &used) != 2)
            return -1;
        if (n < max) {
            out[n].pid = pid;
            out[n].usedGpuMemory = bytes;
            out[n].gpuInstanceId = 0xFFFFFFFFu;   /* not in MIG mode */
            out[n].computeInstanceId = 0xFFFFFFFFu;
        }
        n++;
        v += used;
        while (*v == ',' || *v == ' ')
            v++;
    }
    return n;
}

/* Two-call pattern: a short buffer gets INSUFFICIENT_SIZE and the count. */
nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int *count,
                                                     nvmlProcessInfo_t *infos)
{
    fk_calls++;
    nvmlReturn_t rc;
    nvmlProcessInfo_t all[FK_MAX_PROCS];
    const char *v = field(d, "procs", &rc);
    if (rc != FK_SUCCESS)
        return rc;
    if (!count)
        return FK_INVALID_ARGUMENT;
    int n = parse_procs(v, all, FK_MAX_PROCS);
    if (n < 0)
        return FK_NOT_SUPPORTED;
    if (n > FK_MAX_PROCS)
        n = FK_MAX_PROCS;
    if (*count < (unsigned)n) {
        *count = (unsigned)n;
        return FK_INSUFFICIENT_SIZE;
    }
    if (n > 0 && !infos)
        return FK_INVALID_ARGUMENT;
    if (n > 0)
        memcpy(infos, all, sizeof all[0] * (size_t)n);
    *count = (unsigned)n;
    return FK_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t d, unsigned int *corr, unsigned int *unc,
                                       unsigned int *pending, unsigned int *failure)
{
    fk_calls++;
    nvmlReturn_t rc = dev_uint(d, "remap_pending", pending);
    if (rc != FK_SUCCESS)
        return rc;
    if (!corr || !unc || !failure)
        return FK_INVALID_ARGUMENT;
    *corr = (unsigned)opt_num(d, "remap_corr", 0);
    *unc = (unsigned)opt_num(d, "remap_unc", 0);
    *failure = (unsigned)opt_num(d, "remap_failure", 0);
    return FK_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetRetiredPagesPendingStatus(nvmlDevice_t d, int *pending)
{
    fk_calls++;
    return dev_int(d, "retired_pending", pending);
}

nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, int *current, int *pending)
{
    fk_calls++;
    nvmlReturn_t rc = dev_int(d, "ecc", current);
    if (rc == FK_SUCCESS && !pending)
        return FK_INVALID_ARGUMENT;
    if (rc == FK_SUCCESS)
        *pending = (int)opt_num(d, "ecc_pending", *current);
    return rc;
}

/* Volatile counters only: type 0 corrected, 1 uncorrected. */
nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t d, int type, int counter,
                                         unsigned long long *count)
{
    fk_calls++;
    long long v;
    if (counter != 0 || (type != 0 && type != 1))
        return FK_NOT_SUPPORTED;
    nvmlReturn_t rc = dev_num(d, type ? "ecc_unc" : "ecc_corr", &v);
    if (rc == FK_SUCCESS && !count)
        return FK_INVALID_ARGUMENT;
    if (rc == FK_SUCCESS)
        *count = (unsigned long long)v;
    return rc;
}

static nvmlReturn_t clock_events(nvmlDevice_t d, unsigned long long *reasons)
{
    long long v;
    nvmlReturn_t rc = dev_num(d, "clock_events", &v);
    if (rc == FK_SUCCESS && !reasons)
        return FK_INVALID_ARGUMENT;
    if (rc == FK_SUCCESS)
        *reasons = (unsigned long long)v;
    return rc;
}

nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *reasons)
{
    fk_calls++;
    return clock_events(d, reasons);
}

/* The pre-535 name of the same call. */
nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long *reasons)
{
    fk_calls++;
    return clock_events(d, reasons);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned int *gen)
{
    fk_calls++;
    return dev_uint(d, "pcie_gen_cur", gen);
}

nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned int *width)
{
    fk_calls++;
    return dev_uint(d, "pcie_width_cur", width);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned int *gen)
{
    fk_calls++;
    return dev_uint(d, "pcie_gen_max", gen);
}

nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned int *width)
{
    fk_calls++;
    return dev_uint(d, "pcie_width_max", width);
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int *temp)
{
    fk_calls++;
    if (sensor != 0)
        return FK_INVALID_ARGUMENT;
    return dev_uint(d, "temp", temp);
}

/* nvmlTemperature_v1_t, version 0x0100000C: temp_v when given (3 when it is
 * "unsupported"), else temp. */
typedef struct {
    unsigned int version;
    int sensorType;
    int temperature;
} fk_temperature_v1;

nvmlReturn_t nvmlDeviceGetTemperatureV(nvmlDevice_t d, fk_temperature_v1 *t)
{
    nvmlReturn_t rc;
    fk_calls++;
    const char *v = field(d, "temp_v", &rc);
    if (rc != FK_SUCCESS && rc != FK_NOT_SUPPORTED)
        return rc;
    if (!t)
        return FK_INVALID_ARGUMENT;
    if (t->version != ((unsigned)sizeof *t | 1u << 24))
        return 25;   /* VERSION_MISMATCH */
    if (t->sensorType != 0)
        return FK_INVALID_ARGUMENT;
    if (v && strcmp(v, "unsupported") == 0)
        return FK_NOT_SUPPORTED;
    unsigned int c;
    rc = dev_uint(d, v ? "temp_v" : "temp", &c);
    if (rc == FK_SUCCESS)
        t->temperature = (int)c;
    return rc;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *power_mw)
{
    fk_calls++;
    return dev_uint(d, "power_mw", power_mw);
}

nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned int *limit_mw)
{
    fk_calls++;
    return dev_uint(d, "power_limit_mw", limit_mw);
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u)
{
    fk_calls++;
    unsigned int gpu;
    nvmlReturn_t rc = dev_uint(d, "util_gpu", &gpu);
    if (rc == FK_SUCCESS && !u)
        return FK_INVALID_ARGUMENT;
    if (rc == FK_SUCCESS) {
        u->gpu = gpu;
        u->memory = (unsigned)opt_num(d, "util_mem", 0);
    }
    return rc;
}

/* cuprobe info: clocks, NVLink (fake_common.h's keys). */
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned int *mhz)
{
    fk_calls++;
    if (type != 1 && type != 2)
        return FK_NOT_SUPPORTED;
    return dev_uint(d, type == 1 ? "max_sm_clock" : "max_mem_clock", mhz);
}

/* A link below nvml.devN.nvlinks (missing: no NVLink, 3); else 2. */
static nvmlReturn_t link_ok(nvmlDevice_t d, unsigned int link)
{
    long long n;
    nvmlReturn_t rc = dev_num(d, "nvlinks", &n);
    if (rc != FK_SUCCESS)
        return rc;
    return link < (unsigned long long)n ? FK_SUCCESS : FK_INVALID_ARGUMENT;
}

/* nvml.devN.nvlink_down=LIST: the links not active. */
nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned int link, int *active)
{
    fk_calls++;
    nvmlReturn_t rc = link_ok(d, link);
    if (rc != FK_SUCCESS)
        return rc;
    if (!active)
        return FK_INVALID_ARGUMENT;
    *active = 1;
    const char *down = fk_dev("nvml", d->index, "nvlink_down");
    for (const char *p = down; p && *p;) {
        char *end;
        unsigned long x = strtoul(p, &end, 10);
        if (end == p) break;
        if (x == link) *active = 0;
        p = *end == ',' ? end + 1 : end;
    }
    return FK_SUCCESS;
}

/* nvml.devN.nvlink_remote=BUS[,BUS...]: link l's far end is the lth entry,
 * or the last one for a shorter list (one bus id for every link). */
nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t d, unsigned int link, nvmlPciInfo_t *pci)
{
    fk_calls++;
    nvmlReturn_t rc = link_ok(d, link);
    if (rc != FK_SUCCESS)
        return rc;
    const char *v = fk_dev("nvml", d->index, "nvlink_remote");
    if (!v)
        return FK_NOT_SUPPORTED;
    if (!pci)
        return FK_INVALID_ARGUMENT;
    char one[64] = "";
    const char *p = v;
    for (unsigned l = 0; ; l++) {
        size_t len = strcspn(p, ",");
        if (len < sizeof one) { memcpy(one, p, len); one[len] = '\0'; }
        if (l == link || !p[len]) break;
        p += len + 1;
    }
    return put_pci(one, pci) ? FK_SUCCESS : FK_NOT_SUPPORTED;
}

/* The old layout's name: never called by cuprobe, so a poisoned answer. */
nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo(nvmlDevice_t d, unsigned int link, nvmlPciInfo_t *pci)
{
    fk_calls++;
    (void)d; (void)link;
    if (pci) memset(pci, 0x5a, sizeof *pci);
    return FK_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkVersion(nvmlDevice_t d, unsigned int link, unsigned int *version)
{
    fk_calls++;
    nvmlReturn_t rc = link_ok(d, link);
    return rc != FK_SUCCESS ? rc : dev_uint(d, "nvlink_version", version);
}

/* nvml.p2p=1|0 for every pair and capability (missing: 3), nvml.devN.p2p_no=LIST
 * the NVML indices N cannot read from (status 5, NOT_SUPPORTED). */
nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t a, nvmlDevice_t b, int index, int *status)
{
    fk_calls++;
    nvmlReturn_t rc;
    long long all;
    field(a, "name", &rc);
    if (rc == FK_UNINITIALIZED || rc == FK_INVALID_ARGUMENT)
        return rc;
    field(b, "name", &rc);
    if (rc == FK_UNINITIALIZED || rc == FK_INVALID_ARGUMENT)
        return rc;
    if (!status || index < 0 || index > 4)
        return FK_INVALID_ARGUMENT;
    if (!fk_num(fk_get("nvml.p2p"), &all))
        return FK_NOT_SUPPORTED;
    int no = !all;
    const char *v = fk_dev("nvml", a->index, "p2p_no");
    for (const char *p = v; p && *p;) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p) break;
        if (x == b->index) no = 1;
        p = *end == ',' ? end + 1 : end;
    }
    *status = no ? 5 : 0;
    return FK_SUCCESS;
}

/* ---- telemetry: clocks, energy, PCIe throughput, events, GPM, faults ---- */

enum { FK_TIMEOUT = 10, FK_GPU_IS_LOST = 15, FK_VERSION_MISMATCH = 25 };

/* A device's number, -1 when absent. */
static long long fk_int_dev(int dev, const char *field)
{
    long long v;
    return fk_num(fk_dev("nvml", dev, field), &v) ? v : -1;
}

static long long g_ticks[FK_MAX_DEV];   /* nvmlDeviceGetClockInfo(SM) calls: the sampler's ticks */

/* lost_after / hang_after: once a device's ticks pass N, every call on it
 * answers 15 GPU_IS_LOST, or never returns. */
static nvmlReturn_t fk_dev_fault(int index)
{
    long long lost = fk_int_dev(index, "lost_after"), hang = fk_int_dev(index, "hang_after");
    if (hang >= 0 && g_ticks[index] > hang)
        for (;;)
            pause();
    if (lost >= 0 && g_ticks[index] > lost)
        return FK_GPU_IS_LOST;
    return FK_SUCCESS;
}

/* The number of exported calls this process made (tests read it with dlsym). */
long long fake_nvml_calls(void)
{
    return fk_calls;
}

/* The clock now: .clock_sm or .clock_mem (the maximum is info's
 * .max_sm_clock / .max_mem_clock, nvmlDeviceGetMaxClockInfo). */
static nvmlReturn_t clock_key(nvmlDevice_t d, int type, unsigned int *mhz)
{
    if (type != 1 && type != 2)
        return FK_NOT_SUPPORTED;
    return dev_uint(d, type == 1 ? "clock_sm" : "clock_mem", mhz);
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz)
{
    fk_calls++;
    if (type == 1 && d >= g_devs && d < g_devs + FK_MAX_DEV)
        g_ticks[d->index]++;
    return clock_key(d, type, mhz);
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *mj)
{
    long long v;
    fk_calls++;
    nvmlReturn_t rc = dev_num(d, "energy_mj", &v);
    if (rc == FK_SUCCESS && !mj)
        return FK_INVALID_ARGUMENT;
    if (rc == FK_SUCCESS)
        *mj = (unsigned long long)v;
    return rc;
}

nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t d, int counter, unsigned int *kbps)
{
    fk_calls++;
    if (counter != 0 && counter != 1)
        return FK_INVALID_ARGUMENT;
    return dev_uint(d, counter ? "pcie_rx_kbs" : "pcie_tx_kbs", kbps);
}

/* One event set; each device's queue is its xids list, xid_repeat times. */
static struct fk_set { int used; } g_set;
static int g_registered[FK_MAX_DEV];
static long long g_xid_pos[FK_MAX_DEV];

nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t d, unsigned long long *types)
{
    long long v;
    fk_calls++;
    nvmlReturn_t rc = dev_num(d, "events", &v);
    if (rc == FK_SUCCESS && !types)
        return FK_INVALID_ARGUMENT;
    if (rc == FK_SUCCESS)
        *types = (unsigned long long)v;
    return rc;
}

nvmlReturn_t nvmlEventSetCreate(struct fk_set **set)
{
    fk_calls++;
    if (!g_init)
        return FK_UNINITIALIZED;
    if (!set)
        return FK_INVALID_ARGUMENT;
    g_set.used = 1;
    *set = &g_set;
    return FK_SUCCESS;
}

nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t d, unsigned long long types, struct fk_set *set)
{
    long long v;
    fk_calls++;
    if (set != &g_set || !g_set.used)
        return FK_INVALID_ARGUMENT;
    nvmlReturn_t rc = dev_num(d, "events", &v);
    if (rc != FK_SUCCESS)
        return rc;
    if (types & ~(unsigned long long)v)
        return FK_NOT_SUPPORTED;
    g_registered[d->index] = 1;
    g_xid_pos[d->index] = 0;
    return FK_SUCCESS;
}

/* The k-th XID of a device's queue, or -1 past its end. */
static long long xid_at(int dev, long long k)
{
    const char *list = fk_dev("nvml", dev, "xids");
    long long n = 0, codes[64];
    while (list && *list && n < 64) {
        char *end;
        codes[n++] = strtoll(list, &end, 10);
        if (end == list)
            return -1;
        list = *end == ',' ? end + 1 : end;
    }
    long long repeat = fk_int_dev(dev, "xid_repeat");
    if (repeat < 0)
        repeat = 1;
    if (n == 0 || k >= n * repeat)
        return -1;
    return codes[k % n];
}

typedef struct {
    nvmlDevice_t device;
    unsigned long long eventType, eventData;
    unsigned int gpuInstanceId, computeInstanceId;
} fk_event;

nvmlReturn_t nvmlEventSetWait_v2(struct fk_set *set, fk_event *data, unsigned int timeout_ms)
{
    fk_calls++;
    (void)timeout_ms;     /* answered at once: the queue is known */
    if (set != &g_set || !data)
        return FK_INVALID_ARGUMENT;
    for (int i = 0; i < ndevices(); i++) {
        if (!g_registered[i] || fk_dev_fault(i) != FK_SUCCESS)
            continue;
        long long x = xid_at(i, g_xid_pos[i]);
        if (x < 0)
            continue;
        g_xid_pos[i]++;
        data->device = &g_devs[i];
        data->eventType = 0x8;
        data->eventData = (unsigned long long)x;
        data->gpuInstanceId = data->computeInstanceId = 0xFFFFFFFFu;
        return FK_SUCCESS;
    }
    return FK_TIMEOUT;
}

nvmlReturn_t nvmlEventSetFree(struct fk_set *set)
{
    fk_calls++;
    if (set != &g_set)
        return FK_INVALID_ARGUMENT;
    g_set.used = 0;
    memset(g_registered, 0, sizeof g_registered);
    return FK_SUCCESS;
}

/* GPM: gpm=1 supported (0: a device that is not); a sample remembers its
 * device; the metrics are gpm_sm_active, gpm_sm_occupancy, gpm_tensor,
 * gpm_dram_bw (percent, decimals allowed). */
typedef struct { unsigned int version, isSupportedDevice; } fk_gpm_support;
typedef struct fk_gpm_sample { int dev, taken; } *fk_gpm_sample_t;
typedef struct {
    unsigned int metricId;
    nvmlReturn_t nvmlReturn;
    double value;
    struct { char *shortName, *longName, *unit; } metricInfo;
} fk_gpm_metric;
typedef struct {
    unsigned int version, numMetrics;
    fk_gpm_sample_t sample1, sample2;
    fk_gpm_metric metrics[1];   /* numMetrics of them, as the caller sized it */
} fk_gpm_get;

nvmlReturn_t nvmlGpmQueryDeviceSupport(nvmlDevice_t d, fk_gpm_support *s)
{
    unsigned int v;
    fk_calls++;
    if (!s)
        return FK_INVALID_ARGUMENT;
    if (s->version != 1)
        return FK_VERSION_MISMATCH;
    nvmlReturn_t rc = dev_uint(d, "gpm", &v);
    if (rc == FK_SUCCESS)
        s->isSupportedDevice = v ? 1 : 0;
    return rc;
}

nvmlReturn_t nvmlGpmSampleAlloc(fk_gpm_sample_t *s)
{
    fk_calls++;
    if (!s)
        return FK_INVALID_ARGUMENT;
    *s = calloc(1, sizeof **s);
    return *s ? FK_SUCCESS : 20;
}

nvmlReturn_t nvmlGpmSampleFree(fk_gpm_sample_t s)
{
    fk_calls++;
    free(s);
    return FK_SUCCESS;
}

nvmlReturn_t nvmlGpmSampleGet(nvmlDevice_t d, fk_gpm_sample_t s)
{
    unsigned int v;
    fk_calls++;
    nvmlReturn_t rc = dev_uint(d, "gpm", &v);
    if (rc != FK_SUCCESS)
        return rc;
    if (!v)
        return FK_NOT_SUPPORTED;
    if (!s)
        return FK_INVALID_ARGUMENT;
    s->dev = d->index;
    s->taken++;
    return FK_SUCCESS;
}

nvmlReturn_t nvmlGpmMetricsGet(fk_gpm_get *g)
{
    fk_calls++;
    if (!g)
        return FK_INVALID_ARGUMENT;
    if (g->version != 1)
        return FK_VERSION_MISMATCH;
    if (!g->sample1 || !g->sample2 || !g->sample1->taken || !g->sample2->taken ||
        g->sample1->dev != g->sample2->dev)
        return FK_INVALID_ARGUMENT;
    for (unsigned int k = 0; k < g->numMetrics; k++) {
        fk_gpm_metric *m = &g->metrics[k];
        const char *key = m->metricId == 2 ? "gpm_sm_active" : m->metricId == 3 ? "gpm_sm_occupancy"
                        : m->metricId == 5 ? "gpm_tensor" : m->metricId == 10 ? "gpm_dram_bw" : NULL;
        const char *v = key ? fk_dev("nvml", g->sample1->dev, key) : NULL;
        char *end = NULL;
        m->value = v ? strtod(v, &end) : 0.0;
        m->nvmlReturn = v && end != v && !*end ? FK_SUCCESS : FK_NOT_SUPPORTED;
    }
    return FK_SUCCESS;
}

/* nvmlMemory_v2_t, version 0x02000028: reserved from .mem_reserved (0 when
 * absent), used = allocated only (the struct's comment; REFERENCE 2.4). */
typedef struct {
    unsigned int version;
    unsigned long long total, reserved, free, used;
} fk_memory_v2;

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, fk_memory_v2 *mem)
{
    long long total;
    fk_calls++;
    nvmlReturn_t rc = dev_num(d, "mem_total", &total);
    if (rc != FK_SUCCESS)
        return rc;
    if (!mem)
        return FK_INVALID_ARGUMENT;
    if (mem->version != 0x02000028u)
        return FK_VERSION_MISMATCH;
    mem->total = (unsigned long long)total;
    mem->reserved = (unsigned long long)opt_num(d, "mem_reserved", 0);
    mem->used = (unsigned long long)opt_num(d, "mem_used", 0) - mem->reserved;
    mem->free = mem->total - mem->used - mem->reserved;
    return FK_SUCCESS;
}

/* proc_util=pid:sm,pid:sm: one sample a process, stamped now; a caller's
 * buffer too short answers 7 with the count, a last-seen time from the
 * future 6 NOT_FOUND. */
typedef struct {
    unsigned int pid;
    unsigned long long timeStamp;
    unsigned int smUtil, memUtil, encUtil, decUtil;
} fk_proc_util;

nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t d, fk_proc_util *out, unsigned int *count,
                                             unsigned long long last_seen)
{
    nvmlReturn_t rc;
    nvmlProcessInfo_t all[FK_MAX_PROCS];
    fk_calls++;
    const char *v = field(d, "proc_util", &rc);
    if (rc != FK_SUCCESS)
        return rc;
    if (!count)
        return FK_INVALID_ARGUMENT;
    int n = parse_procs(v, all, FK_MAX_PROCS);   /* pid:value, the value is the SM share */
    if (n < 0)
        return FK_NOT_SUPPORTED;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long now = (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000;
    if (last_seen >= now)
        return 6;
    if (!out || *count < (unsigned)n) {
        *count = (unsigned)n;
        return FK_INSUFFICIENT_SIZE;
    }
    for (int k = 0; k < n; k++) {
        out[k].pid = all[k].pid;
        out[k].timeStamp = now;
        out[k].smUtil = (unsigned)all[k].usedGpuMemory;
        out[k].memUtil = out[k].encUtil = out[k].decUtil = 0;
    }
    *count = (unsigned)n;
    return FK_SUCCESS;
}

/* nvmlSample_t with a uiVal: util_samples=V,V,... (oldest first) are the
 * GPU-utilisation samples, util_period_us apart (default 166667), the last
 * on the newest multiple of the period before now; only those newer than
 * last_seen come back (none: 6 NOT_FOUND); samples NULL sets the count, a
 * short buffer answers 7; any other type 3. */
typedef struct {
    unsigned long long timeStamp;
    union { double d; unsigned int ui; unsigned long long ull; } v;
} fk_sample;

nvmlReturn_t nvmlDeviceGetSamples(nvmlDevice_t d, int type, unsigned long long last_seen,
                                  int *value_type, unsigned int *count, fk_sample *out)
{
    nvmlReturn_t rc;
    fk_calls++;
    const char *v = field(d, "util_samples", &rc);
    if (rc != FK_SUCCESS)
        return rc;
    if (type != 1)
        return FK_NOT_SUPPORTED;
    if (!value_type || !count)
        return FK_INVALID_ARGUMENT;
    unsigned int vals[256];
    unsigned int n = 0;
    for (const char *p = v; *p && n < 256;) {
        char *end;
        vals[n++] = (unsigned)strtoul(p, &end, 10);
        if (end == p)
            return FK_NOT_SUPPORTED;
        p = *end == ',' ? end + 1 : end;
    }
    unsigned long long period = (unsigned long long)opt_num(d, "util_period_us", 166667);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long now = (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000;
    unsigned long long newest = now / period * period;
    *value_type = 1;   /* UNSIGNED_INT */
    if (!out) {
        *count = n;
        return FK_SUCCESS;
    }
    unsigned int k = 0;
    for (unsigned int j = 0; j < n; j++) {
        unsigned long long at = newest - (unsigned long long)(n - 1 - j) * period;
        if (at <= last_seen)
            continue;
        if (k >= *count) {
            *count = n;
            return FK_INSUFFICIENT_SIZE;
        }
        out[k].timeStamp = at;
        out[k].v.ull = 0;
        out[k].v.ui = vals[j];
        k++;
    }
    *count = k;
    return k ? FK_SUCCESS : 6;
}
