/*
 * A fake libcuda.so.1 driven by a scenario file (see fake_common.h for the
 * keys).  It exports the symbol names the real driver exports, including the
 * legacy unversioned cuDeviceTotalMem with its 32-bit ABI, which answers a
 * poisoned value: a caller that resolved the plain name instead of
 * cuDeviceTotalMem_v2 reads garbage and the tests notice.
 *
 * Its own types are declared here on purpose and not taken from cuprobe's
 * headers, so a mistake in those cannot hide itself.
 */
#include <signal.h>
#include <time.h>
#include <stddef.h>
#include <unistd.h>

#include "fake_common.h"

typedef int CUresult;
typedef int CUdevice;
typedef struct { unsigned char bytes[16]; } CUuuid;

enum {
    FK_SUCCESS = 0, FK_INVALID_VALUE = 1, FK_NOT_INITIALIZED = 3, FK_STUB = 34,
    FK_NO_DEVICE = 100, FK_INVALID_DEVICE = 101, FK_NOT_SUPPORTED = 801
};

#define FK_MAX_DEV 64

FK_LOAD_CONSTRUCTOR("cuda")

static int g_init;            /* the last cuInit succeeded */
static int g_vis[FK_MAX_DEV]; /* visible ordinal -> physical device */
static int g_nvis;

static int is_stub(void)
{
    return fk_int("cuda.stub", 0) != 0;
}

/* The physical device whose "GPU-..." UUID starts with prefix, if exactly one. */
static int by_uuid_prefix(const char *prefix, int nphys)
{
    int found = -1;
    for (int i = 0; i < nphys; i++) {
        const char *u = fk_dev("cuda", i, "uuid");
        if (u && strncmp(u, prefix, strlen(prefix)) == 0) {
            if (found >= 0)
                return -1;
            found = i;
        }
    }
    return found;
}

static int one_visible(char *tok, int nphys)
{
    char *t = fk_trim(tok);
    if (!*t)
        return -1;
    if (strncmp(t, "GPU-", 4) == 0)
        return by_uuid_prefix(t, nphys);
    long long ord;
    if (!fk_num(t, &ord) || ord < 0 || ord >= nphys)
        return -1;
    return (int)ord;
}

/* CUDA_VISIBLE_DEVICES as the driver reads it: stop at the first entry that
 * is invalid or repeats one already taken. */
static void compute_visible(int nphys)
{
    const char *env = getenv("CUDA_VISIBLE_DEVICES");
    g_nvis = 0;
    if (!env) {
        for (int i = 0; i < nphys; i++)
            g_vis[g_nvis++] = i;
        return;
    }
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", env);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int phys = one_visible(tok, nphys);
        if (phys < 0)
            return;
        for (int i = 0; i < g_nvis; i++)
            if (g_vis[i] == phys)
                return;
        g_vis[g_nvis++] = phys;
    }
}

CUresult cuInit(unsigned int flags)
{
    fk_load(1);
    g_init = 0;
    if (is_stub())
        return FK_STUB;
    if (fk_int("cuda.crash", 0))
        raise(SIGSEGV);
    if (fk_int("cuda.init.hang", 0))
        for (;;)
            pause();
    long long init_ms = fk_int("cuda.init.ms", 0);
    if (init_ms > 0) {
        struct timespec t = { (time_t)(init_ms / 1000), (long)(init_ms % 1000) * 1000000L };
        while (nanosleep(&t, &t) != 0) {}
    }
    if (fk_int("cuda.init.fork_holder", 0) && fork() == 0)
        for (;;)
            pause();          /* keeps the caller's descriptors open forever */
    if (flags != 0)
        return FK_INVALID_VALUE;
    long long r = fk_int("cuda.init", 0);
    if (r != 0)
        return (CUresult)r;
    long long n = fk_int("cuda.devices", 0);
    compute_visible(n < 0 ? 0 : n > FK_MAX_DEV ? FK_MAX_DEV : (int)n);
    if (g_nvis == 0)
        return FK_NO_DEVICE;
    g_init = 1;
    return FK_SUCCESS;
}

/* Works before cuInit, like the driver's. */
CUresult cuDriverGetVersion(int *version)
{
    long long v;
    if (is_stub())
        return FK_STUB;
    if (!version)
        return FK_INVALID_VALUE;
    if (!fk_num(fk_get("cuda.version"), &v))
        return FK_NOT_SUPPORTED;
    *version = (int)v;
    return FK_SUCCESS;
}

static CUresult common(void)
{
    if (is_stub())
        return FK_STUB;
    return g_init ? FK_SUCCESS : FK_NOT_INITIALIZED;
}

/* Map a visible ordinal to the physical device. */
static CUresult physical(CUdevice dev, int *phys)
{
    CUresult r = common();
    if (r != FK_SUCCESS)
        return r;
    if (dev < 0 || dev >= g_nvis)
        return FK_INVALID_DEVICE;
    *phys = g_vis[dev];
    return FK_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    CUresult r = common();
    if (r != FK_SUCCESS)
        return r;
    if (!count)
        return FK_INVALID_VALUE;
    *count = (int)fk_int("cuda.count", g_nvis);
    return FK_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
    int phys;
    CUresult r = physical(ordinal, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!dev)
        return FK_INVALID_VALUE;
    *dev = ordinal;
    return FK_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!name || len <= 0)
        return FK_INVALID_VALUE;
    const char *v = fk_dev("cuda", phys, "name");
    if (!v)
        return FK_NOT_SUPPORTED;
    snprintf(name, (size_t)len, "%s", v);
    return FK_SUCCESS;
}

static CUresult attribute(int phys, int attr, int *value)
{
    int maj, min;
    unsigned dom, bus, slot, fn;
    long long v;
    const char *cc = fk_dev("cuda", phys, "cc"), *pci = fk_dev("cuda", phys, "pci");

    switch (attr) {
    case 75: case 76:
        if (!fk_cc(cc, &maj, &min))
            return FK_NOT_SUPPORTED;
        *value = attr == 75 ? maj : min;
        return FK_SUCCESS;
    case 33: case 34: case 50:
        if (!fk_pci(pci, &dom, &bus, &slot, &fn))
            return FK_NOT_SUPPORTED;
        *value = (int)(attr == 33 ? bus : attr == 34 ? slot : dom);
        return FK_SUCCESS;
    case 16: case 20:
        if (!fk_num(fk_dev("cuda", phys, attr == 16 ? "sms" : "compute_mode"), &v))
            return FK_NOT_SUPPORTED;
        *value = (int)v;
        return FK_SUCCESS;
    default:
        return FK_INVALID_VALUE;
    }
}

CUresult cuDeviceGetAttribute(int *value, int attr, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!value)
        return FK_INVALID_VALUE;
    return attribute(phys, attr, value);
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    int phys;
    long long v;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!bytes)
        return FK_INVALID_VALUE;
    if (!fk_num(fk_dev("cuda", phys, "mem"), &v))
        return FK_NOT_SUPPORTED;
    *bytes = (size_t)v;
    return FK_SUCCESS;
}

/* The CUDA 2.x ABI still exported by the real driver: 32-bit size.  Answers
 * a poisoned value so a caller that picked this symbol is caught. */
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!bytes)
        return FK_INVALID_VALUE;
    *bytes = 0x0BADBAD0u;
    return FK_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *bus_id, int len, CUdevice dev)
{
    int phys;
    unsigned dom, bus, slot, fn;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!bus_id || len <= 0)
        return FK_INVALID_VALUE;
    if (!fk_pci(fk_dev("cuda", phys, "pci"), &dom, &bus, &slot, &fn))
        return FK_NOT_SUPPORTED;
    /* the driver prints uppercase hex */
    snprintf(bus_id, (size_t)len, "%04X:%02X:%02X.%X", dom, bus, slot, fn);
    return FK_SUCCESS;
}

/* "GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e" -> 16 bytes. */
static int parse_uuid(const char *s, CUuuid *out)
{
    int n = 0;
    if (!s || strncmp(s, "GPU-", 4) != 0)
        return 0;
    for (s += 4; *s && n < 32; s++) {
        unsigned d;
        if (*s == '-')
            continue;
        if (sscanf(s, "%1x", &d) != 1)
            return 0;
        if (n % 2 == 0)
            out->bytes[n / 2] = (unsigned char)(d << 4);
        else
            out->bytes[n / 2] |= (unsigned char)d;
        n++;
    }
    return n == 32 && *s == '\0';
}

/* Not through the symbol table: cuDeviceGetUuid_v2 may be dropped. */
static CUresult get_uuid(CUuuid *uuid, CUdevice dev)
{
    int phys;
    CUresult r = physical(dev, &phys);
    if (r != FK_SUCCESS)
        return r;
    if (!uuid)
        return FK_INVALID_VALUE;
    return parse_uuid(fk_dev("cuda", phys, "uuid"), uuid) ? FK_SUCCESS : FK_NOT_SUPPORTED;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    return get_uuid(uuid, dev);
}

/* CUDA 9.2's name; the same answer without MIG. */
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
    return get_uuid(uuid, dev);
}

static const struct { int code; const char *name, *text; } errors[] = {
    { 0, "CUDA_SUCCESS", "no error" },
    { 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
    { 3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
    { 34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library" },
    { 46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "CUDA-capable device(s) is/are busy or unavailable" },
    { 100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
    { 101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
    { 801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
    { 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
      "system has unsupported display driver / cuda driver combination" },
    { 999, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

static CUresult error_lookup(CUresult e, const char **str, int want_name)
{
    if (is_stub())
        return FK_STUB;
    if (!str)
        return FK_INVALID_VALUE;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == e) {
            *str = want_name ? errors[i].name : errors[i].text;
            return FK_SUCCESS;
        }
    *str = NULL;
    return FK_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult error, const char **str)
{
    return error_lookup(error, str, 1);
}

CUresult cuGetErrorString(CUresult error, const char **str)
{
    return error_lookup(error, str, 0);
}
