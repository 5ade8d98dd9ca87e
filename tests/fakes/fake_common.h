/*
 * Shared by the fake vendor libraries (fake_cuda.c -> libcuda.so.1,
 * fake_nvml.c -> libnvidia-ml.so.1, fake_libs.c -> the CUDA libraries level
 * 2 runs, whose lib.NAME.* keys it lists): reading the scenario file.
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
 *   cuda.drop=cuInit,cuDeviceGetCount   these exported names are absent:
 *                          dlsym does not find them (see fk_drop below)
 *   cuda.load.hang=1       loading the library (dlopen) never finishes
 *   cuda.count=N           cuDeviceGetCount answers N whatever the devices
 *                          (a driver whose answers contradict each other)
 *   cuda.stub=1            every libcuda call returns 34 CUDA_ERROR_STUB_LIBRARY
 *   cuda.init=N            CUresult of cuInit (default 0)
 *   cuda.init.hang=1       cuInit never returns
 *   cuda.init.ms=N         cuInit takes N milliseconds before it answers
 *   cuda.init.fork_holder=1  cuInit forks a process that keeps every inherited
 *                          descriptor (the probe's answer pipe too) open and
 *                          sleeps forever, as a driver helper might; it
 *                          inherits the environment (and a test's marker)
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
 *   cuda.devN.attr.NUM=V   any other attribute NUM; cuda.attr.NUM=V for
 *                          every device (neither: 1 CUDA_ERROR_INVALID_VALUE)
 *   cuda.p2p=1             cuDeviceCanAccessPeer for every pair (missing: 801);
 *   cuda.devN.p2p_no=1,3   the physical devices N cannot reach
 *
 *   The runtime's calls (what src/lib/rt/ uses) are carried out over host
 *   memory.  cuDevicePrimaryCtxRetain / _Release_v2 count references and
 *   cuCtxSetCurrent binds one; the calls below answer 201 without a current
 *   retained context.  A device allocation is host memory (256-byte
 *   aligned) and its CUdeviceptr is the address; cuMemGetInfo_v2 answers
 *   total = cuda.devN.mem and free = total - nvml.devN.mem_used - what is
 *   allocated (801 without cuda.devN.mem), and cuMemAlloc_v2 past free
 *   answers 2.  Release never frees memory, so a leak shows.  Copies and
 *   memsets check that the device range lies in one allocation (else 1) and
 *   are memcpy / fills; "async" work runs at once.  Events record a
 *   CLOCK_MONOTONIC time.  cuModuleLoadData takes an image starting with
 *   the fatbin magic 0xBA55ED50 (little-endian u32) or "\177ELF" (else 200);
 *   cuModuleGetFunction knows the probe kernels of kernels/kernels.h by name
 *   (else 500), and cuLaunchKernel runs the kernel's CPU twin over
 *   kernelParams (device arguments out of range: 1).  A stream being
 *   captured (cuStreamBeginCapture_v2) records launches only (copies,
 *   memsets, event records and syncs there answer 900); the graph and its
 *   instantiation replay them on cuGraphLaunch.
 *   cuda.rt.oom_at=N       the Nth cuMemAlloc_v2 since cuInit answers 2
 *                          CUDA_ERROR_OUT_OF_MEMORY
 *   cuda.rt.wrong_element=I  a launched cp_k_fill_u32 / cp_k_fma_f32 /
 *                          cp_k_burn_f32 writes element I with its lowest bit
 *                          flipped (when I < n)
 *   cuda.rt.launch_fail=1  cuLaunchKernel answers 719 CUDA_ERROR_LAUNCH_FAILED
 *   cuda.rt.sync_hang=1    cuCtxSynchronize, cuStreamSynchronize and
 *                          cuEventSynchronize never return
 *   cuda.rt.sync_ms=N      the process's first of them takes N ms
 *   cuda.rt.illegal_address=1  after the first launch on a non-default stream
 *                          the next cuStreamSynchronize of that stream (or of
 *                          the default stream, or cuCtxSynchronize) answers
 *                          700 CUDA_ERROR_ILLEGAL_ADDRESS, once
 *   cuda.rt.ctx_fail=N     cuDevicePrimaryCtxRetain answers N
 *   (cuMemHostGetDevicePointer_v2 gives a pinned block's own address, which
 *   launches accept; cuCtxEnablePeerAccess succeeds for another device's
 *   context; cuMemcpyPeerAsync is a device-to-device copy.)
 *
 *   CUDA_VISIBLE_DEVICES is honoured like the driver: a comma list of
 *   ordinals or "GPU-" UUID prefixes (unique), read up to the first invalid
 *   or repeated entry; no device left -> cuInit returns 100.
 *
 *   nvml.drop=nvmlInit_v2,nvmlShutdown   exported names made absent
 *   nvml.load.hang=1       loading the library never finishes
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
 *   nvml.devN.temp=36      degrees C (nvmlDeviceGetTemperature, and
 *                          nvmlDeviceGetTemperatureV unless .temp_v says
 *                          otherwise: a number, or "unsupported" for 3)
 *   nvml.devN.power_mw, .power_limit_mw
 *   nvml.devN.util_gpu=0, .util_mem   nvmlDeviceGetUtilizationRates, percent
 *   nvml.devN.max_sm_clock, .max_mem_clock   nvmlDeviceGetMaxClockInfo, MHz
 *   nvml.devN.nvlinks=18   links 0..N-1 exist (missing: no NVLink, 3; past: 2)
 *   nvml.devN.nvlink_down=3,5   those links are not active
 *   nvml.devN.nvlink_remote=BUS[,BUS..]  far end of link l: the lth, else the last
 *   nvml.devN.nvlink_version=4   nvmlDeviceGetNvLinkVersion
 *   nvml.p2p=1             nvmlDeviceGetP2PStatus answers OK for every pair (0: 5
 *                          NOT_SUPPORTED; missing: 3); nvml.devN.p2p_no=LIST the
 *                          NVML indices N cannot reach
 *   For the sampler (src/lib/telemetry/):
 *   nvml.devN.clock_sm, .clock_mem   nvmlDeviceGetClockInfo, MHz (each SM
 *                          clock call counts as one tick of the device)
 *   nvml.devN.energy_mj    nvmlDeviceGetTotalEnergyConsumption
 *   nvml.devN.mem_reserved nvmlDeviceGetMemoryInfo_v2's reserved (default 0)
 *   nvml.devN.proc_util=pid:sm,...   nvmlDeviceGetProcessUtilization, one
 *                          sample a process stamped now, SM share in percent
 *   nvml.devN.pcie_tx_kbs, .pcie_rx_kbs   nvmlDeviceGetPcieThroughput
 *   nvml.devN.util_samples=100,100,0   nvmlDeviceGetSamples' GPU-utilisation
 *                          samples, oldest first, .util_period_us apart
 *                          (default 166667), the newest on the last multiple
 *                          of the period before now (absent: 3)
 *   nvml.devN.events=0x8   supported event types; registering needs it
 *   nvml.devN.xids=13,79   XIDs queued at registration, one per
 *                          nvmlEventSetWait_v2; .xid_repeat=N the list N times
 *   nvml.devN.gpm=0|1      nvmlGpmQueryDeviceSupport (absent: 3)
 *   nvml.devN.gpm_sm_active, .gpm_sm_occupancy, .gpm_tensor, .gpm_dram_bw
 *                          GPM metrics, percent (decimals allowed)
 *   nvml.devN.lost_after=K after K ticks every call on the device answers
 *                          15 GPU_IS_LOST
 *   nvml.devN.hang_after=K after K ticks the next call on it never returns
 *   The fake counts its exported calls: fake_nvml_calls() (dlsym).
 *
 * Dropping a symbol: a constructor (FK_LOAD_CONSTRUCTOR in each fake) reads
 * the scenario when the library is loaded and points the dynamic-symbol
 * entry of each listed name at the empty string, so dlsym's hash chain
 * finds the entry but its name no longer compares equal.  The change is
 * made in this process's private copy of the page (mprotect writable,
 * restore), never in the file.  It happens once per load: a process that
 * keeps the library loaded (the in-process unit tests) and wants another
 * drop list loads a copy of the file under another name.  The fakes'
 * exported functions never call each other through the symbol table, so a
 * dropped name cannot break the others.
 */
#ifndef CP_FAKE_COMMON_H
#define CP_FAKE_COMMON_H

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FK_MAX_ENTRIES 1024
#define FK_KEY 64
#define FK_VAL 512
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

/* ---- dropping exported names (see the header comment) ---- */

static int fk_anchor;         /* an address inside this library */

typedef struct {
    ElfW(Addr) base;
    const ElfW(Phdr) *phdr;
    int phnum;
} fk_self;

static int fk_find_self(struct dl_phdr_info *info, size_t size, void *arg)
{
    fk_self *self = arg;
    ElfW(Addr) a = (ElfW(Addr))&fk_anchor;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        ElfW(Addr) lo = info->dlpi_addr + p->p_vaddr;
        if (p->p_type == PT_LOAD && a >= lo && a < lo + p->p_memsz) {
            self->base = info->dlpi_addr;
            self->phdr = info->dlpi_phdr;
            self->phnum = info->dlpi_phnum;
            return 1;
        }
    }
    return 0;
}

/* A d_ptr of the dynamic section: glibc relocates them in place on most
 * targets, not on all. */
static ElfW(Addr) fk_dyn_addr(const fk_self *self, ElfW(Addr) v)
{
    return v < self->base ? v + self->base : v;
}

/* Number of dynamic symbols, from DT_HASH or DT_GNU_HASH. */
static size_t fk_nsyms(const fk_self *self, const ElfW(Dyn) *dyn)
{
    const uint32_t *hash = NULL, *gnu = NULL;
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_HASH) hash = (const uint32_t *)fk_dyn_addr(self, d->d_un.d_ptr);
        if (d->d_tag == DT_GNU_HASH) gnu = (const uint32_t *)fk_dyn_addr(self, d->d_un.d_ptr);
    }
    if (hash)
        return hash[1];
    if (!gnu)
        return 0;
    uint32_t nbuckets = gnu[0], symoffset = gnu[1], bloom_size = gnu[2];
    const uint32_t *buckets = (const uint32_t *)((const ElfW(Addr) *)&gnu[4] + bloom_size);
    const uint32_t *chain = buckets + nbuckets;
    uint32_t last = 0;
    for (uint32_t b = 0; b < nbuckets; b++)
        if (buckets[b] > last) last = buckets[b];
    if (last < symoffset)
        return symoffset;
    while (!(chain[last - symoffset] & 1))
        last++;
    return (size_t)last + 1;
}

/* The protection a PT_LOAD segment of ours gives address a. */
static int fk_prot_at(const fk_self *self, ElfW(Addr) a)
{
    for (int i = 0; i < self->phnum; i++) {
        const ElfW(Phdr) *p = &self->phdr[i];
        ElfW(Addr) lo = self->base + p->p_vaddr;
        if (p->p_type == PT_LOAD && a >= lo && a < lo + p->p_memsz)
            return (p->p_flags & PF_R ? PROT_READ : 0) | (p->p_flags & PF_W ? PROT_WRITE : 0) |
                   (p->p_flags & PF_X ? PROT_EXEC : 0);
    }
    return PROT_READ;
}

/* Make the exported name `name` unfindable by dlsym in this process. */
static void fk_drop_one(const fk_self *self, const ElfW(Dyn) *dyn, const char *name)
{
    const char *strtab = NULL;
    ElfW(Sym) *symtab = NULL;
    size_t strsz = 0;
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_STRTAB) strtab = (const char *)fk_dyn_addr(self, d->d_un.d_ptr);
        if (d->d_tag == DT_SYMTAB) symtab = (ElfW(Sym) *)fk_dyn_addr(self, d->d_un.d_ptr);
        if (d->d_tag == DT_STRSZ) strsz = d->d_un.d_val;
    }
    size_t n = fk_nsyms(self, dyn);
    if (!strtab || !symtab || strsz == 0)
        return;
    long page = sysconf(_SC_PAGESIZE);
    for (size_t i = 1; i < n; i++) {
        ElfW(Sym) *s = &symtab[i];
        if (s->st_shndx == SHN_UNDEF || s->st_name == 0 || s->st_name >= strsz ||
            strcmp(strtab + s->st_name, name) != 0)
            continue;
        ElfW(Addr) a = (ElfW(Addr))&s->st_name;
        void *pg = (void *)(a & ~(ElfW(Addr))(page - 1));
        int prot = fk_prot_at(self, a);
        if (mprotect(pg, (size_t)page, PROT_READ | PROT_WRITE) != 0)
            return;
        s->st_name = 0;       /* "": the hash still leads here, the name no longer matches */
        mprotect(pg, (size_t)page, prot);
    }
}

/* Drop every name the scenario lists under key ("cuda.drop"). */
static void fk_drop(const char *key)
{
    const char *list = fk_get(key);
    fk_self self = { 0, NULL, 0 };
    if (!list || !*list || !dl_iterate_phdr(fk_find_self, &self))
        return;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < self.phnum; i++)
        if (self.phdr[i].p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(self.base + self.phdr[i].p_vaddr);
    if (!dyn)
        return;
    char buf[FK_VAL];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *t = fk_trim(tok);
        if (*t)
            fk_drop_one(&self, dyn, t);
    }
}

/* In each fake (lib "cuda" or "nvml"): when the library is loaded, drop the
 * names of LIB.drop, and with LIB.load.hang=1 never finish loading. */
#define FK_LOAD_CONSTRUCTOR(lib) \
    __attribute__((constructor)) static void fk_at_load(void) \
    { \
        fk_drop(lib ".drop"); \
        if (fk_int(lib ".load.hang", 0)) \
            for (;;) \
                pause(); \
    }

#endif
