/*
 * cuprobe info's renderers (src/lib/report/info_render.c): unknown facts
 * print N/A or null and never CP_UNKNOWN as a number, the JSON is valid and
 * carries what docs/info.schema.json requires, the topology reads the peer
 * and NVLink strings of the field rows, hostile strings stay safe text.
 */
#include "test.h"
#include <stdlib.h>
#include "cuprobe/cuprobe.h"
#include "cuprobe/info.h"
#include "json_check.h"

static char *render(const cp_facts *f, int device, int json)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&buf, &n);
    if (!out) return NULL;
    if (json) cp_info_render_json(f, device, out);
    else cp_info_render_text(f, device, out);
    fclose(out);
    return buf;
}

/* CP_UNKNOWN printed as a number, in any form. */
static int prints_unknown(const char *s)
{
    return strstr(s, "9223372036854775808") != NULL || strstr(s, "-2147483648") != NULL ||
           strstr(s, "9223372036854775") != NULL;
}

/* Two H200s: CUDA and NVML devices joined by bus id, peer access 1 -> 0
 * refused, link 3 of GPU0 down, the PCI functions with their CPU lists. */
static void two_gpus(cp_facts *f)
{
    cp_facts_init(f);
    snprintf(f->hostname, sizeof f->hostname, "vm");
    f->cuda.run.state = CP_PROBE_DONE;
    f->cuda.lib.loaded = true;
    f->cuda.init_result = 0;
    f->cuda.driver_version = 13000;
    f->cuda.ndev = f->cuda.device_count = 2;
    f->nvml.ndev = 2;
    f->host.npci = 2;
    for (int i = 0; i < 2; i++) {
        cp_cuda_device *d = &f->cuda.dev[i];
        snprintf(d->name, sizeof d->name, "NVIDIA H200");
        snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "0000:00:0%d.0", 6 + i);
        d->cc_major = 9, d->cc_minor = 0, d->sm_count = 132, d->clock_khz = 1980000, d->l2_cache_bytes = 50 << 20;
        d->ecc_enabled = 1, d->managed_memory = 1, d->integrated = 0, d->async_engines = 5;
        snprintf(d->peer_access, sizeof d->peer_access, i == 0 ? "-1" : "0-");
        cp_nvml_inventory *inv = &f->nvml.dev[i].inv;
        f->nvml.dev[i].index = i;   /* NVML's order differs from CUDA's: the bus id joins them */
        snprintf(inv->pci_bus_id, sizeof inv->pci_bus_id, "0000:00:0%d.0", 7 - i);
        snprintf(inv->nvlink_state, sizeof inv->nvlink_state, i == 0 ? "1110" : "1111");
        snprintf(inv->nvlink_remote, sizeof inv->nvlink_remote, "0000:00:06.0,0000:00:06.0,0000:00:06.0,0000:00:06.0");
        inv->nvlink_version = 4;
        inv->ecc_current = 1;
        cp_pci_function *p = &f->host.pci[i];
        snprintf(p->addr, sizeof p->addr, "0000:00:0%d.0", 6 + i);
        p->vendor = 0x10de, p->class_code = 0x030200, p->numa_node = -1;
        snprintf(p->local_cpulist, sizeof p->local_cpulist, "0-31");
    }
    /* nvml.dev[1] is the GPU at 0000:00:06.0 (CUDA 0), its links reach CUDA 1 */
    snprintf(f->nvml.dev[1].inv.nvlink_remote, sizeof f->nvml.dev[1].inv.nvlink_remote,
             "0000:00:07.0,0000:00:07.0,0000:00:07.0,");
    snprintf(f->nvml.dev[1].inv.nvlink_state, sizeof f->nvml.dev[1].inv.nvlink_state, "1110");
    /* NVML's P2P by NVML index: CUDA1 (NVML 0) cannot read CUDA0 (NVML 1) */
    snprintf(f->nvml.dev[0].inv.p2p_read, sizeof f->nvml.dev[0].inv.p2p_read, "-0");
    snprintf(f->nvml.dev[1].inv.p2p_read, sizeof f->nvml.dev[1].inv.p2p_read, "1-");
}

static void test_nothing_known(void)
{
    static cp_facts f;
    cp_facts_init(&f);
    char why[256];
    CHECK_I64(cp_info_ndevices(&f), 0);
    CHECK_STR(cp_info_why_no_cuda(&f, why, sizeof why), "libcuda was not asked (a snapshot without its answers)");
    char *t = render(&f, -1, 0), *j = render(&f, -1, 1);
    CHECK(t && j);
    if (!t || !j) return;
    CHECK(strstr(t, "Driver API                 N/A\n") != NULL);
    CHECK(strstr(t, "No GPU: libcuda was not asked") != NULL);
    CHECK(!prints_unknown(t));
    CHECK(json_ok(j));
    CHECK(!prints_unknown(j));
    CHECK(strstr(j, "\"devices\": []") != NULL);
    free(t);
    free(j);
}

/* Devices known only as PCI functions and NVML devices with every field
 * unknown: every row N/A, every JSON value null. */
static void test_devices_all_unknown(void)
{
    static cp_facts f;
    cp_facts_init(&f);
    f.cuda.run.state = CP_PROBE_DONE;
    f.cuda.lib.loaded = true;
    f.cuda.init_result = 100;
    snprintf(f.cuda.init_name, sizeof f.cuda.init_name, "CUDA_ERROR_NO_DEVICE");
    f.nvml.ndev = 2;
    char *t = render(&f, -1, 0), *j = render(&f, -1, 1);
    CHECK(t && j);
    if (!t || !j) return;
    CHECK(strstr(t, "Device attributes          cuInit failed: CUDA_ERROR_NO_DEVICE") != NULL);
    CHECK(strstr(t, "GPU1   N/A (no NVLink, or NVML does not say)") != NULL);
    CHECK(strstr(t, "   N/A") != NULL);
    CHECK(!prints_unknown(t));
    CHECK(json_ok(j));
    CHECK(!prints_unknown(j));
    free(t);
    free(j);
    /* CUDA devices with nothing known: the attribute rows print N/A */
    f.cuda.init_result = 0;
    f.cuda.ndev = 1;
    t = render(&f, -1, 0);
    j = render(&f, -1, 1);
    CHECK(t && j);
    if (!t || !j) return;
    CHECK(strstr(t, "L2 cache                   N/A") != NULL);
    CHECK(strstr(t, "Features (N/A)") != NULL);
    CHECK(!prints_unknown(t));
    CHECK(json_ok(j));
    CHECK(strstr(j, "\"l2_cache_bytes\": null") != NULL);
    CHECK(strstr(j, "\"ecc_enabled\": null") != NULL);
    CHECK(!prints_unknown(j));
    free(t);
    free(j);
}

static void test_topology(void)
{
    static cp_facts f;
    two_gpus(&f);
    CHECK_I64(cp_info_ndevices(&f), 2);
    char *t = render(&f, -1, 0), *j = render(&f, -1, 1);
    CHECK(t && j);
    if (!t || !j) return;
    CHECK(strstr(t, "cuDeviceCanAccessPeer, from the row's GPU to the column's)\n              GPU0    GPU1\n"
                    "    GPU0         -     yes\n    GPU1        no       -\n") != NULL);
    CHECK(strstr(t, "NVML_P2P_CAPS_INDEX_READ: NVML's view)\n              GPU0    GPU1\n"
                    "    GPU0         -     yes\n    GPU1        no       -\n") != NULL);
    /* GPU0 is nvml.dev[1]: 3 of 4 links active to GPU1, the fourth down */
    CHECK(strstr(t, "GPU0   4 links, 3 active, version 4\n           links 0-2    active -> GPU1 0000:00:07.0\n"
                    "           link 3       down\n") != NULL);
    CHECK(strstr(t, "GPU1   4 links, 4 active") == NULL);
    CHECK(strstr(t, "links 0-2    active -> GPU0 0000:00:06.0\n           link 3       down -> GPU0") != NULL);
    CHECK(strstr(t, "L2 cache                   50 MiB") != NULL);
    CHECK(strstr(t, "SM clock                   1980 MHz") != NULL);
    CHECK(strstr(t, "CPU affinity               0-31") != NULL);
    CHECK(strstr(t, "Features (yes)             managed_memory") != NULL);
    CHECK(strstr(t, "Features (no)              integrated") != NULL);
    CHECK(!prints_unknown(t));
    CHECK(json_ok(j));
    CHECK(strstr(j, "\"peer_access\": [null, true]") != NULL);
    CHECK(strstr(j, "\"peer_access\": [false, null], \"nvml_p2p_read\": [false, null]") != NULL);
    CHECK(strstr(j, "\"peer_access\": [null, true], \"nvml_p2p_read\": [null, true]") != NULL);
    CHECK(strstr(j, "{\"link\": 3, \"active\": false, \"remote_pci_bus_id\": null, \"remote_gpu\": null") != NULL);
    CHECK(strstr(j, "{\"link\": 0, \"active\": true, \"remote_pci_bus_id\": \"0000:00:07.0\", \"remote_gpu\": 1") != NULL);
    free(t);
    free(j);
    /* one device: its section and its row of the matrix only */
    t = render(&f, 1, 0);
    j = render(&f, 1, 1);
    CHECK(t && j);
    if (!t || !j) return;
    CHECK(strstr(t, "Device 0:") == NULL && strstr(t, "Device 1:") != NULL);
    CHECK(strstr(t, "    GPU0         -") == NULL && strstr(t, "    GPU1        no       -") != NULL);
    CHECK(json_ok(j));
    CHECK(strstr(j, "\"index\": 0") == NULL && strstr(j, "\"index\": 1") != NULL);
    free(t);
    free(j);
}

/* A libcudart newer than the driver's CUDA gets a line pointing to doctor. */
static void test_runtime_newer(void)
{
    static cp_facts f;
    two_gpus(&f);
    f.runtime.nrt = 2;
    snprintf(f.runtime.rt[0].path, sizeof f.runtime.rt[0].path, "/opt/a/libcudart.so.12");
    f.runtime.rt[0].major = 12, f.runtime.rt[0].minor = 8, f.runtime.rt[0].would_load = true;
    snprintf(f.runtime.rt[1].path, sizeof f.runtime.rt[1].path, "/opt/b/libcudart.so.13");
    f.runtime.rt[1].major = 13, f.runtime.rt[1].minor = 1, f.runtime.rt[1].patch = 80, f.runtime.rt[1].would_load = true;
    char *t = render(&f, -1, 0), *j = render(&f, -1, 1);
    CHECK(t && j);
    if (!t || !j) return;
    CHECK(strstr(t, "Runtime API                13.1.80 (/opt/b/libcudart.so.13, the libcudart programs get)") != NULL);
    CHECK(strstr(t, "the runtime (13.1) is newer than the driver's CUDA (13.0): see cuprobe doctor") != NULL);
    CHECK(json_ok(j));
    CHECK(strstr(j, "\"runtime_api\": 13010, \"runtime_api_text\": \"13.1.80\"") != NULL);
    free(t);
    free(j);
    f.runtime.rt[1].would_load = false;   /* the 12.8 copy is older than the driver: no note */
    t = render(&f, -1, 0);
    CHECK(t && strstr(t, "newer than the driver") == NULL);
    CHECK(t && strstr(t, "12.8 (/opt/a/libcudart.so.12") != NULL);
    free(t);
}

/* A name with an escape sequence and a bus id with a control byte never
 * reach the terminal raw. */
static void test_hostile_strings(void)
{
    static cp_facts f;
    two_gpus(&f);
    snprintf(f.cuda.dev[0].name, sizeof f.cuda.dev[0].name, "H200\033]0;owned\007");
    snprintf(f.nvml.dev[1].inv.nvlink_remote, sizeof f.nvml.dev[1].inv.nvlink_remote, "\033[2J");
    char *t = render(&f, -1, 0), *j = render(&f, -1, 1);
    CHECK(t && j);
    if (!t || !j) return;
    CHECK(strchr(t, '\033') == NULL);
    CHECK(strstr(t, "H200\\x1b]0;owned\\x07") != NULL);
    CHECK(json_ok(j));
    CHECK(strchr(j, '\033') == NULL);
    free(t);
    free(j);
}

/* docs/info.schema.json requires what the renderer writes, every attribute
 * row included. */
static void test_schema_lists_them(void)
{
    static const char *const members[] = { "schema_version", "tool_version", "origin", "hostname", "versions",
        "driver_api", "runtime_api", "runtime_path", "no_cuda_devices", "devices", "cuda_ordinal", "nvml_index",
        "attributes", "pcie", "numa_node", "cpu_affinity", "ecc", "mig", "max_sm_clock_mhz", "peer_access",
        "nvml_p2p_read", "nvlink",
        "remote_pci_bus_id", "remote_gpu", "remote_nvswitch",
#define NAME(I_, name, unit, e, n, help) #name,
        CP_CUDA_ATTR_FIELDS(NAME, _)
#undef NAME
        NULL };
    static char schema[65536];
    FILE *fp = fopen("docs/info.schema.json", "r");
    CHECK(fp != NULL);
    if (!fp) return;
    size_t n = fread(schema, 1, sizeof schema - 1, fp);
    fclose(fp);
    schema[n] = '\0';
    CHECK(json_ok(schema));
    CHECK(strstr(schema, "draft/2020-12") != NULL);
    static cp_facts f;
    two_gpus(&f);
    char *j = render(&f, -1, 1);
    CHECK(j != NULL);
    if (!j) return;
    for (int i = 0; members[i]; i++) {
        char key[80];
        snprintf(key, sizeof key, "\"%s\"", members[i]);
        if (!strstr(schema, key)) fprintf(stderr, "  schema lacks %s\n", key);
        if (!strstr(j, key)) fprintf(stderr, "  output lacks %s\n", key);
        CHECK(strstr(schema, key) != NULL && strstr(j, key) != NULL);
    }
    free(j);
}

int main(void)
{
    RUN(test_nothing_known);
    RUN(test_devices_all_unknown);
    RUN(test_topology);
    RUN(test_runtime_newer);
    RUN(test_hostile_strings);
    RUN(test_schema_lists_them);
    return TEST_END();
}
