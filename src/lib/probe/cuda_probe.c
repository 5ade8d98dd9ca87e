/*
 * The libcuda probe: load the driver library, cuInit, versions and the
 * properties of each visible device.  Level 1 creates no context; at
 * level 2 (cp_cuda_probe_run) the level-2 steps follow on every device
 * (level2.c).
 */
#include <stdio.h>
#include <string.h>

#include "dl/cuda_api.h"
#include "dl/loader.h"
#include "probe/level2.h"
#include "probe/probe.h"

/* Every field this probe owns to "unknown" (the init that cp_facts_init
 * uses, generated from fields.h); run belongs to the caller. */
static void cuda_clear(cp_cuda_facts *out)
{
    cp_probe_run run = out->run;
    cp_cuda_facts_init(out);
    out->run = run;
}

/* Name and text of a CUresult from the driver itself; "" where it cannot
 * say (the stub answers 34 to these as well). */
static void error_text(const cp_cuda_api *api, CUresult r, cp_cuda_facts *out)
{
    const char *s = NULL;
    if (api->cuGetErrorName && api->cuGetErrorName(r, &s) == CP_CUDA_SUCCESS && s)
        cp_dl_copy(out->init_name, sizeof out->init_name, s);
    s = NULL;
    if (api->cuGetErrorString && api->cuGetErrorString(r, &s) == CP_CUDA_SUCCESS && s)
        cp_dl_copy(out->init_text, sizeof out->init_text, s);
}

static int64_t attribute(const cp_cuda_api *api, CUdevice dev, int attr)
{
    int v = 0;
    if (!api->cuDeviceGetAttribute || api->cuDeviceGetAttribute(&v, attr, dev) != CP_CUDA_SUCCESS)
        return CP_UNKNOWN;
    return v;
}

/* "GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e", as nvidia-smi and NVML print it. */
static void format_uuid(const CUuuid *u, char *out, size_t n)
{
    const unsigned char *b = (const unsigned char *)u->bytes;
    snprintf(out, n,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
             b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static void fill_device(const cp_cuda_api *api, int ordinal, cp_cuda_device *d)
{
    CUdevice dev = 0;
    d->ordinal = ordinal;
    if (api->cuDeviceGet(&dev, ordinal) != CP_CUDA_SUCCESS)
        return;

    char name[sizeof d->name] = "";
    if (api->cuDeviceGetName && api->cuDeviceGetName(name, (int)sizeof name, dev) == CP_CUDA_SUCCESS) {
        name[sizeof name - 1] = '\0';
        cp_dl_copy(d->name, sizeof d->name, name);
    }

    int64_t major = attribute(api, dev, CP_CU_ATTR_COMPUTE_CAPABILITY_MAJOR);
    int64_t minor = attribute(api, dev, CP_CU_ATTR_COMPUTE_CAPABILITY_MINOR);
    if (CP_KNOWN(major) && CP_KNOWN(minor)) {
        d->cc_major = major;
        d->cc_minor = minor;
    }
    d->sm_count = attribute(api, dev, CP_CU_ATTR_MULTIPROCESSOR_COUNT);
    d->compute_mode = attribute(api, dev, CP_CU_ATTR_COMPUTE_MODE);
    /* info's attributes: a microsecond each, no context */
#define ASK(I_, name, unit, e, num, help) d->name = attribute(api, dev, num);
    CP_CUDA_ATTR_FIELDS(ASK, _)
#undef ASK

    /* cuDeviceTotalMem_v2: the plain symbol would truncate to 32 bits */
    size_t bytes = 0;
    if (api->cuDeviceTotalMem && api->cuDeviceTotalMem(&bytes, dev) == CP_CUDA_SUCCESS &&
        bytes <= (size_t)INT64_MAX)
        d->total_mem_bytes = (int64_t)bytes;

    char bus[64] = "";
    if (api->cuDeviceGetPCIBusId &&
        api->cuDeviceGetPCIBusId(bus, (int)sizeof bus, dev) == CP_CUDA_SUCCESS) {
        bus[sizeof bus - 1] = '\0';
        cp_dl_norm_pci_bus_id(bus, d->pci_bus_id, sizeof d->pci_bus_id);
    }

    CUuuid uuid;
    memset(&uuid, 0, sizeof uuid);
    if (api->cuDeviceGetUuid && api->cuDeviceGetUuid(&uuid, dev) == CP_CUDA_SUCCESS)
        format_uuid(&uuid, d->uuid, sizeof d->uuid);
}

/* cuDeviceCanAccessPeer from device i to every other: one character per
 * ordinal (fields.h, peer_access); left "" without the call or a peer. */
static void fill_peers(const cp_cuda_api *api, cp_cuda_facts *out, int i)
{
    cp_cuda_device *d = &out->dev[i];
    CUdevice dev = 0, peer = 0;
    if (out->ndev < 2 || !api->cuDeviceCanAccessPeer || api->cuDeviceGet(&dev, i) != CP_CUDA_SUCCESS)
        return;
    int n = out->ndev < (int)sizeof d->peer_access - 1 ? out->ndev : (int)sizeof d->peer_access - 1;
    for (int j = 0; j < n; j++) {
        int can = 0;
        char c = '?';
        if (j == i)
            c = '-';
        else if (api->cuDeviceGet(&peer, j) == CP_CUDA_SUCCESS &&
                 api->cuDeviceCanAccessPeer(&can, dev, peer) == CP_CUDA_SUCCESS)
            c = can ? '1' : '0';
        d->peer_access[j] = c;
    }
    d->peer_access[n] = '\0';
}

static void fill_devices(const cp_cuda_api *api, cp_cuda_facts *out)
{
    int count = 0;
    if (api->cuDeviceGetCount(&count) != CP_CUDA_SUCCESS || count < 0)
        return;
    out->device_count = count;
    out->ndev = count < CP_MAX_GPUS ? count : CP_MAX_GPUS;
    for (int i = 0; i < out->ndev; i++)
        fill_device(api, i, &out->dev[i]);
    for (int i = 0; i < out->ndev; i++)
        fill_peers(api, out, i);
}

/* Fill out from libcuda, no hook (probe.h). */
void cp_cuda_probe_fill(cp_cuda_facts *out)
{
    cp_cuda_probe_fill_ex(out, NULL, NULL);
}

/* Load, call the hook, cuInit, versions, devices; the api is left loaded
 * in *api for level 2.  Returns 1 when cuInit succeeded. */
static int fill(cp_cuda_facts *out, cp_cuda_api *api, cp_loaded_hook loaded, void *arg)
{
    cuda_clear(out);
    /* Kept open on purpose: after cuInit the driver owns threads and exit
     * handlers in this library, and the probe runs in a child that exits. */
    if (!cp_dl_load(&cp_cuda_lib, api, &out->lib))
        return 0;
    if (loaded)
        loaded("init", &out->lib, arg);

    CUresult r = api->cuInit(0);
    out->init_result = r;
    error_text(api, r, out);

    /* answers before cuInit, and tells the driver's CUDA version even when
     * cuInit fails (no device, mismatch) */
    int version = 0;
    if (api->cuDriverGetVersion(&version) == CP_CUDA_SUCCESS)
        out->driver_version = version;

    /* a stub (.../stubs/libcuda.so, 34) or any failed cuInit: the device
     * calls would only answer CUDA_ERROR_NOT_INITIALIZED */
    if (r != CP_CUDA_SUCCESS)
        return 0;
    if (loaded)
        loaded("query", &out->lib, arg);
    fill_devices(api, out);
    return 1;
}

/* Load, call the hook, cuInit, versions, devices; may hang in cuInit, so
 * it runs in a probe child (probe.h). */
void cp_cuda_probe_fill_ex(cp_cuda_facts *out, cp_loaded_hook loaded, void *arg)
{
    cp_cuda_api api;
    fill(out, &api, loaded, arg);
}

/* Level 1, then level 2 on every device; see probe.h. */
void cp_cuda_probe_run(cp_cuda_facts *out, int level, const cp_cuda_probe_hooks *h)
{
    static const cp_cuda_probe_hooks none = { NULL, NULL, NULL, NULL, NULL };
    cp_cuda_api api;
    if (!h) h = &none;
    int ok = fill(out, &api, h->loaded, h->arg);
    if (level < 2) return;
    out->l2_level = level;
    if (!ok)
        cp_dl_copy(out->l2_skip, sizeof out->l2_skip, out->lib.loaded ? "cuInit did not succeed"
                                                                      : "libcuda was not loaded");
    else if (out->ndev == 0)
        cp_dl_copy(out->l2_skip, sizeof out->l2_skip, "libcuda lists no device");
    if (h->level1_done) h->level1_done(out, h->arg);
    for (int i = 0; ok && i < out->ndev; i++) {
        cp_level2_device(&api, i, &out->dev[i].l2, h->l2_step, h->arg);
        if (h->l2_device_done) h->l2_device_done(i, &out->dev[i].l2, h->arg);
    }
}
