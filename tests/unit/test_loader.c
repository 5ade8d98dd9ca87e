/*
 * The loader and the two library probes against the fake libcuda / NVML.
 *
 * Fakes come from $CUPROBE_TEST_FAKES (default: the fakes/ folder of this
 * program's own build folder, BUILD/tests/../fakes, so `make BUILD=x` tests
 * x's fakes), scenarios from $CUPROBE_TEST_SCENARIOS (default
 * tests/fakes/scenarios).  Without the fake libraries the test reports a skip.  The probes run in this process, so no
 * scenario here may hang or crash.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dl/cuda_api.h"
#include "dl/loader.h"
#include "dl/nvml_api.h"
#include "facts/facts_kv.h"
#include "probe/probe.h"
#include "fake_libs.h"
#include "test.h"

#define H200_MEM 150754820096LL   /* 143771 MiB: more than 32 bits hold */

static char fakes[PATH_MAX], scenarios[PATH_MAX];
static char fake_cuda[PATH_MAX], fake_nvml[PATH_MAX];

static void use_scenario(const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", scenarios, name);
    setenv("CUPROBE_FAKE_SCENARIO", path, 1);
}

static void use_fakes(void)
{
    setenv("CUPROBE_LIBCUDA", fake_cuda, 1);
    setenv("CUPROBE_LIBNVML", fake_nvml, 1);
    unsetenv("CUDA_VISIBLE_DEVICES");
}

static void test_version_from_path(void)
{
    char v[32];
    cp_dl_version_from_path("/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04", v, sizeof v);
    CHECK_STR(v, "580.159.04");
    cp_dl_version_from_path("/usr/lib64/libnvidia-ml.so.535.104.05", v, sizeof v);
    CHECK_STR(v, "535.104.05");
    cp_dl_version_from_path("libcuda.so.580.95.05", v, sizeof v);
    CHECK_STR(v, "580.95.05");
    cp_dl_version_from_path("/x/libcuda.so.1", v, sizeof v);
    CHECK_STR(v, "");
    cp_dl_version_from_path("/usr/local/cuda/lib64/stubs/libcuda.so", v, sizeof v);
    CHECK_STR(v, "");
    cp_dl_version_from_path("/x.so.1.2/libcuda.so", v, sizeof v);
    CHECK_STR(v, "");
    cp_dl_version_from_path("libcuda.so.580.", v, sizeof v);
    CHECK_STR(v, "");
    cp_dl_version_from_path("libcuda.so.580.1x", v, sizeof v);
    CHECK_STR(v, "");
    cp_dl_version_from_path(NULL, v, sizeof v);
    CHECK_STR(v, "");
    cp_dl_version_from_path("libcuda.so.580.159.04", v, 4);
    CHECK_STR(v, "580");
}

static void test_norm_pci(void)
{
    char b[32];
    CHECK(cp_dl_norm_pci_bus_id("00000000:00:06.0", b, sizeof b));
    CHECK_STR(b, "0000:00:06.0");
    CHECK(cp_dl_norm_pci_bus_id("0000:9A:00.0", b, sizeof b));
    CHECK_STR(b, "0000:9a:00.0");
    CHECK(cp_dl_norm_pci_bus_id("00000001:DB:1f.7", b, sizeof b));
    CHECK_STR(b, "0001:db:1f.7");
    CHECK(!cp_dl_norm_pci_bus_id("0000:00:06", b, sizeof b));
    CHECK_STR(b, "");
    CHECK(!cp_dl_norm_pci_bus_id("0000:00:06.0 trailing", b, sizeof b));
    CHECK(!cp_dl_norm_pci_bus_id("", b, sizeof b));
    CHECK(!cp_dl_norm_pci_bus_id(NULL, b, sizeof b));
    CHECK(!cp_dl_norm_pci_bus_id("0000:00:06.0", b, 8));
}

/* The real file behind a versioned symlink is recorded, with its version. */
static void test_load_records_path(void)
{
    char dir[] = "/tmp/cuprobe-loader-XXXXXX";
    char file[PATH_MAX], link[PATH_MAX], real[PATH_MAX];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(file, sizeof file, "%s/libcuda.so.580.159.04", dir);
    snprintf(link, sizeof link, "%s/libcuda.so.1", dir);
    CHECK(copy_file(fake_cuda, file));
    CHECK(symlink("libcuda.so.580.159.04", link) == 0);
    CHECK(realpath(file, real) != NULL);
    setenv("CUPROBE_LIBCUDA", link, 1);

    cp_cuda_api api;
    cp_lib_load rec;
    void *h = cp_dl_load(&cp_cuda_lib, &api, &rec);
    CHECK(h != NULL);
    CHECK(rec.loaded);
    CHECK_STR(rec.requested, link);
    CHECK_STR(rec.path, real);
    CHECK_STR(rec.version_from_path, "580.159.04");
    CHECK_STR(rec.error, "");
    CHECK_STR(rec.missing_symbol, "");
    if (h) {
        /* the versioned symbol, never the 32-bit legacy one */
        void *v2 = dlsym(h, "cuDeviceTotalMem_v2"), *v1 = dlsym(h, "cuDeviceTotalMem");
        void *got;
        memcpy(&got, &api.cuDeviceTotalMem, sizeof got);
        CHECK(v2 != NULL && v1 != NULL && got == v2 && got != v1);
        memcpy(&got, &api.cuDeviceGetUuid, sizeof got);
        CHECK(got == dlsym(h, "cuDeviceGetUuid_v2"));
        /* optional and not exported by the fake: stays NULL */
        CHECK(api.cuGetProcAddress == NULL);
        /* the runtime's remapped names resolve to the versioned symbols */
        memcpy(&got, &api.cuMemAlloc, sizeof got);
        CHECK(got == dlsym(h, "cuMemAlloc_v2"));
        memcpy(&got, &api.cuStreamBeginCapture, sizeof got);
        CHECK(got != NULL && got == dlsym(h, "cuStreamBeginCapture_v2"));
        memcpy(&got, &api.cuEventElapsedTime, sizeof got);
        CHECK(got != NULL && got == dlsym(h, "cuEventElapsedTime_v2"));
        memcpy(&got, &api.cuEventElapsedTime_v1, sizeof got);
        CHECK(got != NULL && got == dlsym(h, "cuEventElapsedTime"));
    }
    cp_dl_unload(h);
    unlink(link);
    unlink(file);
    rmdir(dir);
    use_fakes();
}

static void test_load_missing_library(void)
{
    cp_cuda_api api;
    cp_lib_load rec;
    setenv("CUPROBE_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    CHECK(cp_dl_load(&cp_cuda_lib, &api, &rec) == NULL);
    CHECK(!rec.loaded);
    CHECK_STR(rec.requested, "/nonexistent/libcuda.so.1");
    CHECK(strstr(rec.error, "/nonexistent/libcuda.so.1") != NULL);
    CHECK_STR(rec.path, "");
    CHECK(api.cuInit == NULL);

    cp_cuda_facts f;
    memset(&f, 0x5a, sizeof f);
    f.run.state = CP_PROBE_DONE;
    cp_cuda_probe_fill(&f);
    CHECK(!f.lib.loaded);
    CHECK(f.run.state == CP_PROBE_DONE);
    CHECK_I64(f.init_result, CP_UNKNOWN);
    CHECK_I64(f.driver_version, CP_UNKNOWN);
    CHECK_I64(f.ndev, 0);
    use_fakes();
}

/* A real library that is not the one asked for names the missing symbol. */
static void test_load_missing_symbol(void)
{
    cp_cuda_api api;
    cp_nvml_api napi;
    cp_lib_load rec;
    setenv("CUPROBE_LIBCUDA", "libm.so.6", 1);
    CHECK(cp_dl_load(&cp_cuda_lib, &api, &rec) == NULL);
    CHECK(rec.loaded);
    CHECK_STR(rec.missing_symbol, "cuInit");
    CHECK(strstr(rec.error, "cuInit") != NULL);
    CHECK(strstr(rec.path, "libm") != NULL);
    CHECK(api.cuInit == NULL);

    setenv("CUPROBE_LIBNVML", "libm.so.6", 1);
    CHECK(cp_dl_load(&cp_nvml_lib, &napi, &rec) == NULL);
    CHECK_STR(rec.missing_symbol, "nvmlInit_v2");
    use_fakes();
}

/* A scenario file of its own, for a test; the caller unlinks it. */
static bool write_scenario(char *path, const char *text)
{
    int fd = mkstemp(path);
    if (fd < 0)
        return false;
    bool ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    close(fd);
    setenv("CUPROBE_FAKE_SCENARIO", path, 1);
    return ok;
}

/* The fakes drop any exported name by scenario, at load time: a copy under
 * another name is loaded afresh (the fake in use stays loaded in this
 * process), and the loader names the first required symbol it lacks, the
 * file asked for and the real path. */
static void test_load_dropped_symbols(void)
{
    char dir[] = "/tmp/cuprobe-drop-XXXXXX", scen[] = "/tmp/cuprobe-scenario-XXXXXX";
    char cuda[PATH_MAX], nvml[PATH_MAX], real[PATH_MAX];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(cuda, sizeof cuda, "%s/libcuda.so.1", dir);
    snprintf(nvml, sizeof nvml, "%s/libnvidia-ml.so.1", dir);
    CHECK(copy_file(fake_cuda, cuda) && copy_file(fake_nvml, nvml));
    CHECK(realpath(cuda, real) != NULL);
    CHECK(write_scenario(scen, "# filled below\n"));
    /* include= is relative to the scenario's folder: name the real one */
    char inc[PATH_MAX + 64];
    snprintf(inc, sizeof inc, "%s/healthy-1gpu.txt", scenarios);
    FILE *fp = fopen(scen, "w");
    CHECK(fp != NULL);
    if (fp) {
        fprintf(fp, "include=%s\ncuda.drop=cuDeviceGetCount , cuDeviceGetUuid_v2\nnvml.drop=nvmlInit_v2\n", inc);
        fclose(fp);
    }
    setenv("CUPROBE_LIBCUDA", cuda, 1);
    setenv("CUPROBE_LIBNVML", nvml, 1);

    cp_cuda_api api;
    cp_lib_load rec;
    CHECK(cp_dl_load(&cp_cuda_lib, &api, &rec) == NULL);
    CHECK(rec.loaded);
    CHECK_STR(rec.missing_symbol, "cuDeviceGetCount");
    CHECK_STR(rec.requested, cuda);
    CHECK_STR(rec.path, real);
    CHECK(strstr(rec.error, "cuDeviceGetCount") != NULL);

    /* an optional name dropped stays NULL, the rest loads */
    fp = fopen(scen, "w");
    if (fp) {
        fprintf(fp, "include=%s\ncuda.drop=cuDeviceGetUuid_v2,cuDeviceGetUuid\n", inc);
        fclose(fp);
    }
    void *h = cp_dl_load(&cp_cuda_lib, &api, &rec);
    CHECK(h != NULL);
    CHECK(api.cuDeviceGetUuid == NULL && api.cuInit != NULL);
    /* kept loaded from here on (the probe does not close libcuda either) */

    cp_nvml_facts n;
    fp = fopen(scen, "w");
    if (fp) {
        fprintf(fp, "include=%s\nnvml.drop=nvmlInit_v2\n", inc);
        fclose(fp);
    }
    cp_nvml_probe_fill(&n);
    CHECK(n.lib.loaded);
    CHECK_STR(n.lib.missing_symbol, "nvmlInit_v2");
    CHECK_I64(n.init_result, CP_UNKNOWN);

    unlink(scen);
    unlink(cuda);
    unlink(nvml);
    rmdir(dir);
    use_fakes();
}

static void test_cuda_healthy(void)
{
    cp_cuda_facts f;
    use_scenario("healthy-1gpu.txt");
    memset(&f, 0, sizeof f);
    f.run.state = CP_PROBE_DONE;
    cp_cuda_probe_fill(&f);
    CHECK(f.run.state == CP_PROBE_DONE);
    CHECK(f.lib.loaded);
    CHECK(strstr(f.lib.path, "libcuda.so.1") != NULL);
    CHECK_I64(f.init_result, 0);
    CHECK_STR(f.init_name, "CUDA_SUCCESS");
    CHECK_STR(f.init_text, "no error");
    CHECK_I64(f.driver_version, 13000);
    CHECK_I64(f.device_count, 1);
    CHECK_I64(f.ndev, 1);
    CHECK_STR(f.dev[0].name, "NVIDIA H200");
    CHECK_I64(f.dev[0].cc_major, 9);
    CHECK_I64(f.dev[0].cc_minor, 0);
    /* only cuDeviceTotalMem_v2 can answer more than 4 GiB */
    CHECK_I64(f.dev[0].total_mem_bytes, H200_MEM);
    CHECK_STR(f.dev[0].pci_bus_id, "0000:00:06.0");
    CHECK_STR(f.dev[0].uuid, "GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e");
    CHECK_I64(f.dev[0].sm_count, 132);
    CHECK_I64(f.dev[0].compute_mode, 0);
    CHECK_I64(f.dev[1].sm_count, CP_UNKNOWN);
}

static void test_cuda_stub(void)
{
    cp_cuda_facts f;
    use_scenario("stub.txt");
    cp_cuda_probe_fill(&f);
    CHECK(f.lib.loaded);
    CHECK_I64(f.init_result, CP_CUDA_ERROR_STUB_LIBRARY);
    CHECK_STR(f.init_name, "");          /* the stub answers 34 to that too */
    CHECK_I64(f.driver_version, CP_UNKNOWN);
    CHECK_I64(f.device_count, CP_UNKNOWN);
    CHECK_I64(f.ndev, 0);
}

static void test_cuda_failed_init_keeps_version(void)
{
    cp_cuda_facts f;
    use_scenario("nvml-mismatch.txt");
    cp_cuda_probe_fill(&f);
    CHECK_I64(f.init_result, CP_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
    CHECK_STR(f.init_name, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH");
    CHECK(f.init_text[0] != '\0');
    CHECK_I64(f.driver_version, 13000);
    CHECK_I64(f.device_count, CP_UNKNOWN);

    use_scenario("driver-old.txt");
    cp_cuda_probe_fill(&f);
    CHECK_I64(f.init_result, 0);
    CHECK_I64(f.driver_version, 12020);
}

static void test_cuda_visible_devices(void)
{
    cp_cuda_facts f;
    use_scenario("healthy-2gpu.txt");
    cp_cuda_probe_fill(&f);
    CHECK_I64(f.device_count, 2);
    CHECK_STR(f.dev[1].pci_bus_id, "0000:00:07.0");

    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    cp_cuda_probe_fill(&f);
    CHECK_I64(f.device_count, 1);
    CHECK_STR(f.dev[0].uuid, "GPU-02ece098-d9c9-7d14-2642-3f6aff79accd");

    /* a UUID prefix, then an ordinal, then a repeat that ends the list */
    setenv("CUDA_VISIBLE_DEVICES", "GPU-02ece,0,1", 1);
    cp_cuda_probe_fill(&f);
    CHECK_I64(f.device_count, 2);
    CHECK_STR(f.dev[0].pci_bus_id, "0000:00:07.0");
    CHECK_STR(f.dev[1].pci_bus_id, "0000:00:06.0");

    setenv("CUDA_VISIBLE_DEVICES", "0,7,1", 1);
    cp_cuda_probe_fill(&f);
    CHECK_I64(f.device_count, 1);

    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    cp_cuda_probe_fill(&f);
    CHECK_I64(f.init_result, CP_CUDA_ERROR_NO_DEVICE);
    CHECK_STR(f.init_name, "CUDA_ERROR_NO_DEVICE");
    CHECK_I64(f.device_count, CP_UNKNOWN);
    unsetenv("CUDA_VISIBLE_DEVICES");
}

static void test_cuda_8gpu(void)
{
    static const char *bus[] = { "18", "2a", "3a", "5d", "9a", "ab", "ba", "db" };
    cp_cuda_facts f;
    use_scenario("healthy-8gpu.txt");
    cp_cuda_probe_fill(&f);
    CHECK_I64(f.device_count, 8);
    CHECK_I64(f.ndev, 8);
    for (int i = 0; i < 8; i++) {
        char want[16];
        snprintf(want, sizeof want, "0000:%s:00.0", bus[i]);
        CHECK_STR(f.dev[i].pci_bus_id, want);   /* the fake answers uppercase */
        CHECK_I64(f.dev[i].total_mem_bytes, H200_MEM);
    }
}

static void test_nvml_healthy(void)
{
    cp_nvml_facts f;
    use_scenario("healthy-1gpu.txt");
    memset(&f, 0, sizeof f);
    f.run.state = CP_PROBE_DONE;
    cp_nvml_probe_fill(&f);
    CHECK(f.run.state == CP_PROBE_DONE);
    CHECK(f.lib.loaded);
    CHECK_I64(f.init_result, 0);
    CHECK_STR(f.init_text, "Success");
    CHECK_STR(f.driver_version, "580.159.04");
    CHECK_STR(f.nvml_version, "13.580.159.04");
    CHECK_I64(f.cuda_driver_version, 13000);
    CHECK_I64(f.device_count, 1);
    CHECK_I64(f.ndev, 1);
    const cp_nvml_device *d = &f.dev[0];
    CHECK_STR(d->inv.name, "NVIDIA H200");
    CHECK_STR(d->inv.uuid, "GPU-082af63b-aecb-ecc3-16f5-ca2658e93a3e");
    CHECK_STR(d->inv.pci_bus_id, "0000:00:06.0");
    CHECK_I64(d->inv.cc_major, 9);
    CHECK_I64(d->inv.cc_minor, 0);
    CHECK_I64(d->inv.persistence, 1);
    CHECK_I64(d->inv.compute_mode, 0);
    CHECK_I64(d->inv.mig_current, 0);
    CHECK_I64(d->inv.mig_pending, 0);
    CHECK_I64(d->inv.mem_total_bytes, H200_MEM);
    CHECK_I64(d->sample.mem_used_bytes, 645922816);
    CHECK_I64(d->sample.mem_free_bytes, H200_MEM - 645922816);
    CHECK_I64(d->sample.nprocs_total, 0);
    CHECK_I64(d->sample.nprocs, 0);
    CHECK_I64(d->sample.remap_pending, 0);
    CHECK_I64(d->sample.remap_failure, 0);
    CHECK_I64(d->sample.retired_pending, CP_UNKNOWN);   /* N/A on Hopper */
    CHECK_I64(d->inv.ecc_current, 1);
    CHECK_I64(d->inv.ecc_pending, 1);
    CHECK_I64(d->sample.ecc_uncorrected_volatile, 0);
    CHECK_I64(d->sample.clock_event_reasons, 1);
    CHECK_I64(d->sample.pcie_gen_cur, 5);
    CHECK_I64(d->inv.pcie_width_max, 16);
    CHECK_I64(d->sample.temperature_c, 36);
    CHECK_I64(d->sample.power_mw, 109450);
    CHECK_I64(d->inv.power_limit_mw, 700000);
    CHECK_I64(d->sample.util_gpu_pct, 0);               /* idle, as captured */
    CHECK_I64(d->sample.util_mem_pct, 0);
    CHECK_I64(f.dev[1].sample.temperature_c, CP_UNKNOWN);
}

/* A sample travels from the fake NVML through the probe and the answers
 * text (what a probe child sends, what a snapshot stores) into the facts. */
static void test_nvml_sample_answers(void)
{
    static cp_nvml_facts f;
    static cp_facts back;
    char err[128];
    use_scenario("busy-1gpu.txt");
    cp_nvml_probe_fill(&f);
    f.run.state = CP_PROBE_DONE;
    CHECK_I64(f.dev[0].sample.util_gpu_pct, 87);
    CHECK_I64(f.dev[0].sample.util_mem_pct, 41);

    cp_buf b = { 0 };
    cp_facts_put_nvml(&b, &f);
    CHECK(!b.failed);
    CHECK(strstr(b.data, "\nnvml.dev.0.util_gpu_pct 87\n") != NULL);
    CHECK(strstr(b.data, "\nnvml.dev.0.util_mem_pct 41\n") != NULL);
    cp_facts_init(&back);
    CHECK_I64(cp_facts_load(b.data, b.len, &back, err, sizeof err), CP_KV_NVML);
    const cp_nvml_device *d = &back.nvml.dev[0];
    CHECK_I64(d->sample.util_gpu_pct, 87);
    CHECK_I64(d->sample.util_mem_pct, 41);
    CHECK_I64(d->sample.mem_used_bytes, 68719476736LL);
    CHECK_I64(d->sample.temperature_c, 61);
    CHECK_I64(d->sample.power_mw, 512300);
    CHECK_I64(d->inv.mem_total_bytes, H200_MEM);       /* the inventory is the healthy one */
    CHECK_STR(d->inv.name, "NVIDIA H200");
    /* the whole sample, copied on its own, is what came back */
    cp_nvml_sample copy = f.dev[0].sample;
#define SAME_I(n, unit, help) CHECK_I64(d->sample.n, copy.n);
#define SAME_S(n, size, help) CHECK_STR(d->sample.n, copy.n);
    CP_NVML_SAMPLE_FIELDS(SAME_I, SAME_S)
    CHECK_I64(d->sample.nprocs, copy.nprocs);
    cp_buf_free(&b);
}

static void test_nvml_mismatch(void)
{
    cp_nvml_facts f;
    use_scenario("nvml-mismatch.txt");
    cp_nvml_probe_fill(&f);
    CHECK(f.lib.loaded);
    CHECK_I64(f.init_result, CP_NVML_ERROR_LIB_RM_VERSION_MISMATCH);
    CHECK_STR(f.init_text, "Driver/library version mismatch");
    CHECK_STR(f.driver_version, "");
    CHECK_I64(f.device_count, CP_UNKNOWN);
    CHECK_I64(f.ndev, 0);
}

static void test_nvml_processes(void)
{
    cp_nvml_facts f;
    use_scenario("other-procs.txt");
    cp_nvml_probe_fill(&f);
    const cp_nvml_device *d = &f.dev[0];
    CHECK_I64(d->sample.nprocs_total, 2);
    CHECK_I64(d->sample.nprocs, 2);
    CHECK_I64(d->sample.procs[0].pid, 4242);
    CHECK_I64(d->sample.procs[0].used_bytes, 8589934592LL);
    CHECK_I64(d->sample.procs[1].pid, 4343);
    CHECK_I64(d->sample.procs[1].used_bytes, 17179869184LL);
    CHECK_I64(d->sample.clock_event_reasons, 0);
}

static void test_nvml_health_scenarios(void)
{
    cp_nvml_facts f;
    use_scenario("row-remap-pending.txt");
    cp_nvml_probe_fill(&f);
    CHECK_I64(f.dev[0].sample.remap_pending, 1);
    CHECK_I64(f.dev[0].sample.remap_uncorrectable, 1);
    CHECK_I64(f.dev[0].sample.ecc_uncorrected_volatile, 1);

    use_scenario("pcie-degraded.txt");
    cp_nvml_probe_fill(&f);
    CHECK_I64(f.dev[0].sample.pcie_gen_cur, 3);
    CHECK_I64(f.dev[0].inv.pcie_gen_max, 5);
    CHECK_I64(f.dev[0].sample.pcie_width_cur, 8);
    CHECK_I64(f.dev[0].inv.pcie_width_max, 16);

    use_scenario("compute-prohibited.txt");
    cp_nvml_probe_fill(&f);
    CHECK_I64(f.dev[0].inv.compute_mode, 2);

    use_scenario("driver-old.txt");
    cp_nvml_probe_fill(&f);
    CHECK_STR(f.driver_version, "535.104.05");
    CHECK_I64(f.cuda_driver_version, 12020);

    use_scenario("healthy-2gpu.txt");
    cp_nvml_probe_fill(&f);
    CHECK_I64(f.ndev, 2);
    CHECK_STR(f.dev[1].inv.pci_bus_id, "0000:00:07.0");
    CHECK_I64(f.dev[1].sample.temperature_c, 33);
}

/* A device whose every query is unsupported stays unknown, never 0. */
static void test_nvml_all_unsupported(void)
{
    char path[] = "/tmp/cuprobe-scenario-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    static const char text[] = "# nothing but a device\nnvml.devices=1\ncuda.devices=1\n";
    CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fd);
    setenv("CUPROBE_FAKE_SCENARIO", path, 1);

    cp_nvml_facts f;
    cp_nvml_probe_fill(&f);
    CHECK_I64(f.init_result, 0);
    CHECK_I64(f.device_count, 1);
    CHECK_STR(f.driver_version, "");
    CHECK_I64(f.cuda_driver_version, CP_UNKNOWN);
    const cp_nvml_device *d = &f.dev[0];
    CHECK_STR(d->inv.name, "");
    CHECK_STR(d->inv.pci_bus_id, "");
    const int64_t *all[] = { &d->inv.cc_major, &d->inv.persistence, &d->inv.compute_mode, &d->inv.mig_current,
                             &d->inv.mem_total_bytes, &d->sample.nprocs_total, &d->sample.remap_pending,
                             &d->sample.retired_pending, &d->inv.ecc_current, &d->sample.ecc_corrected_volatile,
                             &d->sample.clock_event_reasons, &d->sample.pcie_gen_cur, &d->inv.pcie_width_max,
                             &d->sample.temperature_c, &d->sample.power_mw, &d->inv.power_limit_mw };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK_I64(*all[i], CP_UNKNOWN);
    /* and every number the rows of fields.h declare, the ones added later too */
#define UNKNOWN_INV(n, unit, help) CHECK_I64(d->inv.n, CP_UNKNOWN);
#define UNKNOWN_SAMPLE(n, unit, help) CHECK_I64(d->sample.n, CP_UNKNOWN);
#define EMPTY_INV(n, size, help) CHECK_STR(d->inv.n, "");
#define EMPTY_SAMPLE(n, size, help) CHECK_STR(d->sample.n, "");
    CP_NVML_INVENTORY_FIELDS(UNKNOWN_INV, EMPTY_INV)
    CP_NVML_SAMPLE_FIELDS(UNKNOWN_SAMPLE, EMPTY_SAMPLE)

    cp_cuda_facts c;
    cp_cuda_probe_fill(&c);
    CHECK_I64(c.init_result, 0);
    CHECK_I64(c.driver_version, CP_UNKNOWN);
    CHECK_I64(c.device_count, 1);
    CHECK_STR(c.dev[0].name, "");
    CHECK_STR(c.dev[0].uuid, "");
    CHECK_I64(c.dev[0].cc_major, CP_UNKNOWN);
    CHECK_I64(c.dev[0].total_mem_bytes, CP_UNKNOWN);
    CHECK_I64(c.dev[0].sm_count, CP_UNKNOWN);
    unlink(path);
}

/* cuprobe info's answers: the attributes, peer access and NVLink from the
 * fakes, through the answers and back; without the scenario keys they stay
 * unknown, and the poisoned legacy NvLinkRemotePciInfo is never called. */
static void test_info_answers(void)
{
    static cp_cuda_facts c;
    static cp_nvml_facts n;
    static cp_facts back;
    char err[128];
    use_scenario("info-degraded.txt");
    cp_cuda_probe_fill(&c);
    cp_nvml_probe_fill(&n);
    c.run.state = n.run.state = CP_PROBE_DONE;
    CHECK_I64(c.ndev, 2);
    CHECK_I64(c.dev[0].clock_khz, 1980000);
    CHECK_I64(c.dev[0].l2_cache_bytes, 52428800);
    CHECK_I64(c.dev[1].async_engines, 5);
    CHECK_I64(c.dev[1].host_numa_id, -1);
    CHECK_STR(c.dev[0].peer_access, "-1");
    CHECK_STR(c.dev[1].peer_access, "0-");
    CHECK_I64(n.dev[0].inv.max_sm_clock_mhz, 1980);
    CHECK_I64(n.dev[1].inv.max_mem_clock_mhz, 3201);
    CHECK_STR(n.dev[0].inv.nvlink_state, "111011111111111110");
    CHECK_STR(n.dev[1].inv.nvlink_state, "111111111111111111");
    CHECK(strncmp(n.dev[0].inv.nvlink_remote, "0000:00:07.0,0000:00:07.0,0000:00:07.0,,0000:00:07.0", 52) == 0);
    CHECK_I64(n.dev[0].inv.nvlink_version, 4);
    CHECK_STR(n.dev[0].inv.p2p_read, "-1");
    CHECK_STR(n.dev[1].inv.p2p_read, "0-");

    cp_buf b = { 0 };
    cp_facts_put_cuda(&b, &c);
    cp_facts_put_nvml(&b, &n);
    CHECK(!b.failed);
    CHECK(strstr(b.data, "\ncuda.dev.1.peer_access 0-\n") != NULL);
    CHECK(strstr(b.data, "\ncuda.dev.0.mem_bus_bits 6144\n") != NULL);
    cp_facts_init(&back);
    CHECK(cp_facts_load(b.data, b.len, &back, err, sizeof err) >= 0);
#undef SAME_I
#undef SAME_S
#define SAME_I(nm, unit, help) CHECK_I64(back.cuda.dev[1].nm, c.dev[1].nm);
#define SAME_S(nm, size, help) CHECK_STR(back.cuda.dev[1].nm, c.dev[1].nm);
    CP_CUDA_DEVICE_FIELDS(SAME_I, SAME_S)
#undef SAME_I
#undef SAME_S
#define SAME_I(nm, unit, help) CHECK_I64(back.nvml.dev[0].inv.nm, n.dev[0].inv.nm);
#define SAME_S(nm, size, help) CHECK_STR(back.nvml.dev[0].inv.nm, n.dev[0].inv.nm);
    CP_NVML_INVENTORY_FIELDS(SAME_I, SAME_S)
#undef SAME_I
#undef SAME_S
    cp_buf_free(&b);

    use_scenario("healthy-2gpu.txt");       /* no info keys */
    cp_cuda_probe_fill(&c);
    cp_nvml_probe_fill(&n);
    CHECK_I64(c.dev[0].clock_khz, CP_UNKNOWN);
    CHECK_I64(c.dev[0].ecc_enabled, CP_UNKNOWN);
    CHECK_STR(c.dev[0].peer_access, "-?");
    CHECK_I64(n.dev[0].inv.max_sm_clock_mhz, CP_UNKNOWN);
    CHECK_STR(n.dev[0].inv.nvlink_state, "");
    CHECK_STR(n.dev[0].inv.nvlink_remote, "");
    CHECK_I64(n.dev[0].inv.nvlink_version, CP_UNKNOWN);
    CHECK_STR(n.dev[0].inv.p2p_read, "-?");
}

int main(void)
{
    snprintf(fakes, sizeof fakes, "%s", env_or("CUPROBE_TEST_FAKES", own_fakes()));
    snprintf(scenarios, sizeof scenarios, "%s",
             env_or("CUPROBE_TEST_SCENARIOS", "tests/fakes/scenarios"));
    snprintf(fake_cuda, sizeof fake_cuda, "%.*s/libcuda.so.1", PATH_MAX - 20, fakes);
    snprintf(fake_nvml, sizeof fake_nvml, "%.*s/libnvidia-ml.so.1", PATH_MAX - 24, fakes);

    RUN(test_version_from_path);
    RUN(test_norm_pci);
    if (!exists(fake_cuda) || !exists(fake_nvml)) {
        /* the pure tests above still count */
        printf("skip: fake libraries not found in '%s' (set CUPROBE_TEST_FAKES)\n", fakes);
        return TEST_END();
    }
    use_fakes();
    RUN(test_load_records_path);
    RUN(test_load_missing_library);
    RUN(test_load_missing_symbol);
    RUN(test_load_dropped_symbols);
    RUN(test_cuda_healthy);
    RUN(test_cuda_stub);
    RUN(test_cuda_failed_init_keeps_version);
    RUN(test_cuda_visible_devices);
    RUN(test_cuda_8gpu);
    RUN(test_nvml_healthy);
    RUN(test_nvml_sample_answers);
    RUN(test_info_answers);
    RUN(test_nvml_mismatch);
    RUN(test_nvml_processes);
    RUN(test_nvml_health_scenarios);
    RUN(test_nvml_all_unsupported);
    return TEST_END();
}
