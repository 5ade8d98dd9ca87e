/*
 * Shared by the fake vendor libraries (fake_cuda.c -> libcuda.so.1,
 * fake_nvml.c -> libnvidia-ml.so.1): reading the scenario file.
 *
 * The fakes export the same symbol names as the real driver (versioned names
 * included) and answer from a scenario file named by $CUPROBE_FAKE_SCENARIO.
 * They depend on libc only and are not sanitized, so they can be dlopen'ed
 * into an ASan process like the real libraries.  The file is re-read by
 * cuInit / nvmlInit_v2 (and whenever the variable changes), so one process
 * can run several scenarios.
 *
 * Scenario file: "key=value" lines; blank lines and lines starting with '#'
 * are ignored; spaces around key and value are trimmed; a later line wins
 * over an earlier one.  "include=FILE" reads FILE (relative to the including
 * file's folder) at that point, so a scenario can be "healthy + one change".
 *
 * A missing per-device key makes the call that reads it fail with
 * NOT_SUPPORTED (CUDA 801, NVML 3), so tests say exactly what exists.  Where
 * one call returns several values, its first key listed decides support and
 * the others default to 0.  Global keys and their defaults:
 *
 *   cuda.stub=1            every libcuda call returns 34 CUDA_ERROR_STUB_LIBRARY
 *   cuda.init=N            CUresult of cuInit (default 0)
 *   cuda.init.hang=1       cuInit never returns
 *   cuda.crash=1           cuInit raises SIGSEGV
 *   cuda.version=13000     cuDriverGetVersion (missing: 801)
 *   cuda.devices=N         physical devices (default 0; cuInit then gives 100)
 *   cuda.devN.name         cuDeviceGetName
 *   cuda.devN.cc=9.0       attributes 75/76
 *   cuda.devN.mem=BYTES    cuDeviceTotalMem_v2 (the legacy cuDeviceTotalMem
 *                          always answers 0x0BADBAD0 in 32 bits)
 *   cuda.devN.pci=0000:00:06.0   cuDeviceGetPCIBusId (answered in uppercase,
 *                          like the driver) and attributes 33/34/50
 *   cuda.devN.uuid=GPU-... cuDeviceGetUuid / _v2, and CUDA_VISIBLE_DEVICES
 *   cuda.devN.sms=132      attribute 16
 *   cuda.devN.compute_mode=0     attribute 20
 *
 *   CUDA_VISIBLE_DEVICES is honoured like the driver: a comma list of
 *   ordinals or "GPU-" UUID prefixes (unique), read up to the first invalid
 *   or repeated entry; no device left -> cuInit returns 100.
 *
 *   nvml.init=N            nvmlReturn_t of nvmlInit_v2 (default 0)
 *   nvml.init.hang=1       nvmlInit_v2 never returns
 *   nvml.driver=580.159.04 nvmlSystemGetDriverVersion
 *   nvml.version=13.580.159.04   nvmlSystemGetNVMLVersion
 *   nvml.cuda=13000        nvmlSystemGetCudaDriverVersion
 *   nvml.devices=N         (default 0)
 *   nvml.devN.name, .uuid  nvmlDeviceGetName / GetUUID
 *   nvml.devN.pci          nvmlDeviceGetPciInfo_v3 ("0000:00:06.0")
 *   nvml.devN.cc=9.0       nvmlDeviceGetCudaComputeCapability
 *   nvml.devN.persistence=0|1, .compute_mode=0..3
 *   nvml.devN.mig=0        current mode; .mig_pending (default = mig)
 *   nvml.devN.mem_total, .mem_used   bytes; free = total - used
 *   nvml.devN.procs=pid:bytes,pid:bytes   compute processes ("" = none)
 *   nvml.devN.remap_pending, .remap_failure, .remap_corr, .remap_unc
 *   nvml.devN.retired_pending=0|1
 *   nvml.devN.ecc=0|1      current; .ecc_pending (default = ecc)
 *   nvml.devN.ecc_unc, .ecc_corr     volatile totals
 *   nvml.devN.clock_events=0x1       clock event reason bits (hex)
 *   nvml.devN.pcie_gen_cur, .pcie_gen_max, .pcie_width_cur, .pcie_width_max
 *   nvml.devN.temp=36      degrees C
 *   nvml.devN.power_mw, .power_limit_mw
 *   nvml.devN.util_gpu=0, .util_mem   nvmlDeviceGetUtilizationRates, percent
 */
#ifndef CP_FAKE_COMMON_H
#define CP_FAKE_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FK_MAX_ENTRIES 1024
#define FK_KEY 64
#define FK_VAL 256
#define FK_PATH 1024
#define FK_MAX_DEPTH 4

typedef struct {
    char key[FK_KEY];
    char val[FK_VAL];
} fk_entry;

static fk_entry fk_entries[FK_MAX_ENTRIES];
static int fk_n;
static int fk_loaded;
static char fk_loaded_from[FK_PATH];

static char *fk_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static void fk_read(const char *path, int depth);

static void fk_line(const char *path, char *line, int depth)
{
    char *s = fk_trim(line);
    char *eq = strchr(s, '=');
    if (!*s || *s == '#' || !eq)
        return;
    *eq = '\0';
    char *key = fk_trim(s), *val = fk_trim(eq + 1);
    if (strcmp(key, "include") == 0) {
        char inc[FK_PATH];
        const char *slash = strrchr(path, '/');
        if (val[0] != '/' && slash)
            snprintf(inc, sizeof inc, "%.*s/%s", (int)(slash - path), path, val);
        else
            snprintf(inc, sizeof inc, "%s", val);
        fk_read(inc, depth + 1);
        return;
    }
    if (fk_n >= FK_MAX_ENTRIES)
        return;
    snprintf(fk_entries[fk_n].key, FK_KEY, "%s", key);
    snprintf(fk_entries[fk_n].val, FK_VAL, "%s", val);
    fk_n++;
}

static void fk_read(const char *path, int depth)
{
    if (depth > FK_MAX_DEPTH)
        return;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[FK_KEY + FK_VAL + 64];
    while (fgets(line, sizeof line, f))
        fk_line(path, line, depth);
    fclose(f);
}

/* (Re)read the scenario; force = 1 from the init calls. */
static void fk_load(int force)
{
    const char *path = getenv("CUPROBE_FAKE_SCENARIO");
    if (!path)
        path = "";
    if (!force && fk_loaded && strcmp(path, fk_loaded_from) == 0)
        return;
    fk_n = 0;
    fk_loaded = 1;
    snprintf(fk_loaded_from, sizeof fk_loaded_from, "%s", path);
    if (path[0])
        fk_read(path, 0);
}

/* The value of key, the last one written wins; NULL when absent. */
static const char *fk_get(const char *key)
{
    fk_load(0);
    for (int i = fk_n - 1; i >= 0; i--)
        if (strcmp(fk_entries[i].key, key) == 0)
            return fk_entries[i].val;
    return NULL;
}

static const char *fk_dev(const char *lib, int dev, const char *field)
{
    char key[FK_KEY];
    snprintf(key, sizeof key, "%s.dev%d.%s", lib, dev, field);
    return fk_get(key);
}

/* Parse a number (decimal, or hex with 0x); 0 when absent or not a number. */
static int fk_num(const char *v, long long *out)
{
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    int hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    long long x = strtoll(v, &end, hex ? 16 : 10);
    if (errno || *end)
        return 0;
    *out = x;
    return 1;
}

static long long fk_int(const char *key, long long dflt)
{
    long long v;
    return fk_num(fk_get(key), &v) ? v : dflt;
}

/* "9.0" -> 9 and 0. */
static int fk_cc(const char *v, int *major, int *minor)
{
    return v && sscanf(v, "%d.%d", major, minor) == 2;
}

/* "0000:00:06.0" -> its parts. */
static int fk_pci(const char *v, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn)
{
    return v && sscanf(v, "%x:%x:%x.%x", dom, bus, dev, fn) == 4;
}

#endif
