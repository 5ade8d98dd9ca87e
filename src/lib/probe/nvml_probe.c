/*
 * The NVML probe: load libnvidia-ml, nvmlInit_v2, versions and the state of
 * each device, nvmlShutdown.  Every call's result is checked; a call that is
 * absent, unsupported or failing leaves its fields CP_UNKNOWN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "dl/loader.h"
#include "dl/nvml_api.h"
#include "probe/probe.h"
#include "probe/nvml_fill.h"

#define OK CP_NVML_SUCCESS

/* Room for processes that start between the two calls. */
#define PROC_SLACK 8
#define PROC_TRIES 3

/* Every field this probe owns to "unknown" (the init that cp_facts_init
 * uses, generated from fields.h); run belongs to the caller. */
static void nvml_clear(cp_nvml_facts *out)
{
    cp_probe_run run = out->run;
    cp_nvml_facts_init(out);
    out->run = run;
}

static int64_t u64_or_unknown(unsigned long long v)
{
    return v <= (unsigned long long)INT64_MAX ? (int64_t)v : CP_UNKNOWN;
}

/* One unsigned value from a (device, unsigned *) call, or CP_UNKNOWN. */
static int64_t dev_uint(cp_nvml_dev_uint_fn fn, nvmlDevice_t h)
{
    unsigned int v = 0;
    if (!fn || fn(h, &v) != OK)
        return CP_UNKNOWN;
    return v;
}

static int64_t dev_link_uint(cp_nvmlDeviceGetNvLinkVersion_fn fn, nvmlDevice_t h, unsigned link)
{
    unsigned int v = 0;
    if (!fn || fn(h, link, &v) != OK)
        return CP_UNKNOWN;
    return v;
}

static int64_t dev_state(cp_nvml_dev_state_fn fn, nvmlDevice_t h)
{
    nvmlEnableState_t v = 0;
    if (!fn || fn(h, &v) != OK)
        return CP_UNKNOWN;
    return v;
}

static void get_str(cp_nvml_dev_str_fn fn, nvmlDevice_t h, char *dst, size_t n)
{
    char buf[CP_NVML_DEVICE_UUID_V2_BUFFER_SIZE] = "";
    if (fn && fn(h, buf, sizeof buf) == OK) {
        buf[sizeof buf - 1] = '\0';
        cp_dl_copy(dst, n, buf);
    }
}

/* ---- inventory: what the GPU is, read once ---- */

static void fill_identity(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_inventory *inv)
{
    get_str(api->nvmlDeviceGetName, h, inv->name, sizeof inv->name);
    get_str(api->nvmlDeviceGetUUID, h, inv->uuid, sizeof inv->uuid);

    nvmlPciInfo_t pci;
    memset(&pci, 0, sizeof pci);
    if (api->nvmlDeviceGetPciInfo && api->nvmlDeviceGetPciInfo(h, &pci) == OK) {
        pci.busId[sizeof pci.busId - 1] = '\0';
        cp_dl_norm_pci_bus_id(pci.busId, inv->pci_bus_id, sizeof inv->pci_bus_id);
    }

    int major = 0, minor = 0;
    if (api->nvmlDeviceGetCudaComputeCapability &&
        api->nvmlDeviceGetCudaComputeCapability(h, &major, &minor) == OK) {
        inv->cc_major = major;
        inv->cc_minor = minor;
    }

    nvmlMemory_t mem;
    memset(&mem, 0, sizeof mem);
    if (api->nvmlDeviceGetMemoryInfo && api->nvmlDeviceGetMemoryInfo(h, &mem) == OK)
        inv->mem_total_bytes = u64_or_unknown(mem.total);

    inv->pcie_gen_max = dev_uint(api->nvmlDeviceGetMaxPcieLinkGeneration, h);
    inv->pcie_width_max = dev_uint(api->nvmlDeviceGetMaxPcieLinkWidth, h);
    inv->power_limit_mw = dev_uint(api->nvmlDeviceGetEnforcedPowerLimit, h);
}

static void fill_modes(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_inventory *inv)
{
    inv->persistence = dev_state(api->nvmlDeviceGetPersistenceMode, h);

    nvmlComputeMode_t mode = 0;
    if (api->nvmlDeviceGetComputeMode && api->nvmlDeviceGetComputeMode(h, &mode) == OK)
        inv->compute_mode = mode;

    /* NOT_SUPPORTED before Ampere: unknown, not "disabled" */
    unsigned int cur = 0, pend = 0;
    if (api->nvmlDeviceGetMigMode && api->nvmlDeviceGetMigMode(h, &cur, &pend) == OK) {
        inv->mig_current = cur;
        inv->mig_pending = pend;
    }

    nvmlEnableState_t ecur = 0, epend = 0;
    if (api->nvmlDeviceGetEccMode && api->nvmlDeviceGetEccMode(h, &ecur, &epend) == OK) {
        inv->ecc_current = ecur;
        inv->ecc_pending = epend;
    }
}

/* What `cuprobe info` shows beyond the inventory: clocks, NVLink links (state, the far end, version). */
static void fill_topology(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_inventory *inv)
{
    unsigned int mhz = 0;
    if (api->nvmlDeviceGetMaxClockInfo && api->nvmlDeviceGetMaxClockInfo(h, CP_NVML_CLOCK_SM, &mhz) == OK)
        inv->max_sm_clock_mhz = mhz;
    if (api->nvmlDeviceGetMaxClockInfo && api->nvmlDeviceGetMaxClockInfo(h, CP_NVML_CLOCK_MEM, &mhz) == OK)
        inv->max_mem_clock_mhz = mhz;

    if (!api->nvmlDeviceGetNvLinkState)
        return;
    size_t rlen = 0;
    for (unsigned l = 0; l < CP_NVML_NVLINK_MAX_LINKS && l + 1 < sizeof inv->nvlink_state; l++) {
        nvmlEnableState_t active = 0;
        if (api->nvmlDeviceGetNvLinkState(h, l, &active) != OK)
            break;             /* past the last link (or none): the list ends */
        inv->nvlink_state[l] = active ? '1' : '0';
        inv->nvlink_state[l + 1] = '\0';
        char bus[32] = "";
        nvmlPciInfo_t pci;
        memset(&pci, 0, sizeof pci);
        if (active && api->nvmlDeviceGetNvLinkRemotePciInfo &&
            api->nvmlDeviceGetNvLinkRemotePciInfo(h, l, &pci) == OK) {
            pci.busId[sizeof pci.busId - 1] = '\0';
            cp_dl_norm_pci_bus_id(pci.busId, bus, sizeof bus);
        }
        int w = snprintf(inv->nvlink_remote + rlen, sizeof inv->nvlink_remote - rlen, "%s%s",
                         l ? "," : "", bus);
        if (w > 0 && (size_t)w < sizeof inv->nvlink_remote - rlen) rlen += (size_t)w;
    }
    if (inv->nvlink_state[0])
        inv->nvlink_version = dev_link_uint(api->nvmlDeviceGetNvLinkVersion, h, 0);
}

/* NVML's second opinion on peer access: P2P reads from device i to every
 * other (fields.h, p2p_read); "" without the call or without a peer. */
static void fill_p2p(const cp_nvml_api *api, cp_nvml_facts *out, int i)
{
    char *s = out->dev[i].inv.p2p_read;
    const int cap = (int)sizeof out->dev[i].inv.p2p_read - 1;
    nvmlDevice_t a = NULL, b = NULL;
    if (out->ndev < 2 || !api->nvmlDeviceGetP2PStatus || api->nvmlDeviceGetHandleByIndex((unsigned)i, &a) != OK)
        return;
    int n = out->ndev < cap ? out->ndev : cap;
    for (int j = 0; j < n; j++) {
        nvmlGpuP2PStatus_t st = 0;
        if (j == i) s[j] = '-';
        else if (api->nvmlDeviceGetHandleByIndex((unsigned)j, &b) == OK &&
                 api->nvmlDeviceGetP2PStatus(a, b, CP_NVML_P2P_CAPS_INDEX_READ, &st) == OK)
            s[j] = st == CP_NVML_P2P_STATUS_OK ? '1' : '0';
        else s[j] = '?';
    }
    s[n] = '\0';
}

/* ---- samples: what the GPU is doing, read every tick ---- */

/* Compute processes, two calls: ask the count, then fetch with slack since
 * processes come and go in between; retry a few times if it still grew. */
static void fill_procs(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_sample *s)
{
    if (!api->nvmlDeviceGetComputeRunningProcesses)
        return;
    unsigned int count = 0;
    nvmlReturn_t r = api->nvmlDeviceGetComputeRunningProcesses(h, &count, NULL);
    if (r == OK) {
        s->nprocs_total = 0;   /* nothing running */
        return;
    }
    for (int tries = 0; r == CP_NVML_ERROR_INSUFFICIENT_SIZE && tries < PROC_TRIES; tries++) {
        unsigned int cap = count + PROC_SLACK;
        nvmlProcessInfo_t *buf = cp_calloc(cap, sizeof *buf);
        if (!buf)
            return;
        count = cap;
        r = api->nvmlDeviceGetComputeRunningProcesses(h, &count, buf);
        if (r == OK) {
            unsigned int n = count < cap ? count : cap;
            s->nprocs_total = n;
            s->nprocs = n < CP_MAX_PROCS ? (int)n : CP_MAX_PROCS;
            for (int i = 0; i < s->nprocs; i++) {
                s->procs[i].pid = buf[i].pid;
                s->procs[i].used_bytes = u64_or_unknown(buf[i].usedGpuMemory);
            }
        }
        free(buf);
    }
}

/* Memory health: remapped rows (Ampere+), retired pages (pre-Ampere),
 * volatile ECC counters. */
static void fill_health(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_sample *s)
{
    unsigned int corr = 0, unc = 0, pending = 0, failure = 0;
    if (api->nvmlDeviceGetRemappedRows &&
        api->nvmlDeviceGetRemappedRows(h, &corr, &unc, &pending, &failure) == OK) {
        s->remap_correctable = corr;
        s->remap_uncorrectable = unc;
        s->remap_pending = pending ? 1 : 0;
        s->remap_failure = failure ? 1 : 0;
    }

    s->retired_pending = dev_state(api->nvmlDeviceGetRetiredPagesPendingStatus, h);

    unsigned long long n = 0;
    if (api->nvmlDeviceGetTotalEccErrors &&
        api->nvmlDeviceGetTotalEccErrors(h, CP_NVML_MEMORY_ERROR_UNCORRECTED,
                                         CP_NVML_VOLATILE_ECC, &n) == OK)
        s->ecc_uncorrected_volatile = u64_or_unknown(n);
    n = 0;
    if (api->nvmlDeviceGetTotalEccErrors &&
        api->nvmlDeviceGetTotalEccErrors(h, CP_NVML_MEMORY_ERROR_CORRECTED,
                                         CP_NVML_VOLATILE_ECC, &n) == OK)
        s->ecc_corrected_volatile = u64_or_unknown(n);
}

/* The GPU's temperature through nvmlDeviceGetTemperatureV where the driver
 * has it; the deprecated call where it has not, or answers that it cannot
 * (at most two calls).  CP_UNKNOWN when neither answers. */
static int64_t gpu_temperature(const cp_nvml_api *api, nvmlDevice_t h)
{
    nvmlReturn_t r = CP_NVML_ERROR_FUNCTION_NOT_FOUND;
    if (api->nvmlDeviceGetTemperatureV) {
        nvmlTemperature_t t;
        memset(&t, 0, sizeof t);
        t.version = CP_NVML_TEMPERATURE_V1;
        t.sensorType = CP_NVML_TEMPERATURE_GPU;
        r = api->nvmlDeviceGetTemperatureV(h, &t);
        if (r == OK)
            return t.temperature;
    }
    unsigned int c = 0;
    if ((r == CP_NVML_ERROR_FUNCTION_NOT_FOUND || r == CP_NVML_ERROR_NOT_SUPPORTED) &&
        api->nvmlDeviceGetTemperature &&
        api->nvmlDeviceGetTemperature(h, CP_NVML_TEMPERATURE_GPU, &c) == OK)
        return c;
    return CP_UNKNOWN;
}

static void fill_load(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_sample *s)
{
    nvmlMemory_t mem;
    memset(&mem, 0, sizeof mem);
    if (api->nvmlDeviceGetMemoryInfo && api->nvmlDeviceGetMemoryInfo(h, &mem) == OK) {
        s->mem_used_bytes = u64_or_unknown(mem.used);
        s->mem_free_bytes = u64_or_unknown(mem.free);
    }

    unsigned long long reasons = 0;
    if (api->nvmlDeviceGetCurrentClocksEventReasons &&
        api->nvmlDeviceGetCurrentClocksEventReasons(h, &reasons) == OK)
        s->clock_event_reasons = u64_or_unknown(reasons);

    s->pcie_gen_cur = dev_uint(api->nvmlDeviceGetCurrPcieLinkGeneration, h);
    s->pcie_width_cur = dev_uint(api->nvmlDeviceGetCurrPcieLinkWidth, h);

    int64_t temp = gpu_temperature(api, h);
    if (CP_KNOWN(temp))
        s->temperature_c = temp;

    s->power_mw = dev_uint(api->nvmlDeviceGetPowerUsage, h);

    nvmlUtilization_t u = { 0, 0 };
    if (api->nvmlDeviceGetUtilizationRates && api->nvmlDeviceGetUtilizationRates(h, &u) == OK) {
        s->util_gpu_pct = u.gpu;
        s->util_mem_pct = u.memory;
    }
}

/* One tick's worth of a device; the sampler to come calls this alone. */
static void fill_sample(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_sample *s)
{
    fill_load(api, h, s);
    fill_procs(api, h, s);
    fill_health(api, h, s);
}

static void fill_system(const cp_nvml_api *api, cp_nvml_facts *out)
{
    char buf[CP_NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];

    buf[0] = '\0';
    if (api->nvmlSystemGetDriverVersion &&
        api->nvmlSystemGetDriverVersion(buf, sizeof buf) == OK) {
        buf[sizeof buf - 1] = '\0';
        cp_dl_copy(out->driver_version, sizeof out->driver_version, buf);
    }
    buf[0] = '\0';
    if (api->nvmlSystemGetNVMLVersion && api->nvmlSystemGetNVMLVersion(buf, sizeof buf) == OK) {
        buf[sizeof buf - 1] = '\0';
        cp_dl_copy(out->nvml_version, sizeof out->nvml_version, buf);
    }
    int v = 0;
    if (api->nvmlSystemGetCudaDriverVersion && api->nvmlSystemGetCudaDriverVersion(&v) == OK)
        out->cuda_driver_version = v;
}

/* Fill out from NVML, no hook (probe.h). */
void cp_nvml_probe_fill(cp_nvml_facts *out)
{
    cp_nvml_probe_fill_ex(out, NULL, NULL);
}

/* Load, call the hook, nvmlInit_v2, versions, per-device state, shutdown;
 * may hang, so it runs in a probe child (probe.h). */
void cp_nvml_probe_fill_ex(cp_nvml_facts *out, cp_loaded_hook loaded, void *arg)
{
    cp_nvml_api api;

    nvml_clear(out);
    if (!cp_dl_load(&cp_nvml_lib, &api, &out->lib))
        return;
    if (loaded)
        loaded("init", &out->lib, arg);

    nvmlReturn_t r = api.nvmlInit();
    out->init_result = r;
    if (api.nvmlErrorString) {
        const char *s = api.nvmlErrorString(r);
        cp_dl_copy(out->init_text, sizeof out->init_text, s);
    }
    if (r != OK)
        return;
    if (loaded)
        loaded("query", &out->lib, arg);

    fill_system(&api, out);

    unsigned int count = 0;
    if (api.nvmlDeviceGetCount(&count) == OK) {
        out->device_count = count;
        out->ndev = count < CP_MAX_GPUS ? (int)count : CP_MAX_GPUS;
    }
    for (int i = 0; i < out->ndev; i++) {
        nvmlDevice_t h = NULL;
        cp_nvml_device *d = &out->dev[i];
        if (api.nvmlDeviceGetHandleByIndex((unsigned)i, &h) != OK)
            continue;
        fill_identity(&api, h, &d->inv);
        fill_modes(&api, h, &d->inv);
        fill_topology(&api, h, &d->inv);
        fill_sample(&api, h, &d->sample);
    }
    for (int i = 0; i < out->ndev; i++)
        fill_p2p(&api, out, i);
    api.nvmlShutdown();
    /* left loaded, like libcuda: the probe's process exits soon after */
}

/* ---- for the sampler (src/lib/telemetry/), which keeps NVML open ---- */

/* What the GPU is (identity, modes, clocks and links), as the probe reads
 * it once. */
void cp_nvml_fill_inventory(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_inventory *inv)
{
    fill_identity(api, h, inv);
    fill_modes(api, h, inv);
    fill_topology(api, h, inv);
}

/* One tick of one device: the sample rows doctor's probe reads too. */
void cp_nvml_fill_sample(const cp_nvml_api *api, nvmlDevice_t h, cp_nvml_sample *s)
{
    fill_sample(api, h, s);
}
