/* cuprobe info's renderers: the devices and their topology, from the facts
 * (include/cuprobe/info.h; JSON schema docs/info.schema.json). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cuprobe/cuprobe.h"
#include "cuprobe/info.h"
#include "kb/kb.h"
#include "util/json.h"
#include "util/text.h"
#include "util/version.h"

/* One device as info shows it: whichever sources know it, joined by bus id. */
typedef struct {
    const cp_cuda_device *cu;
    const cp_nvml_device *nv;
    const cp_pci_function *pci;
    const char *bus;
} view;

typedef struct { char s[64]; } txt;

static const cp_nvml_device *nvml_at(const cp_facts *f, const char *bus)
{
    for (int i = 0; bus[0] && i < f->nvml.ndev && i < CP_MAX_GPUS; i++)
        if (strcasecmp(f->nvml.dev[i].inv.pci_bus_id, bus) == 0) return &f->nvml.dev[i];
    return NULL;
}

static const cp_pci_function *pci_at(const cp_facts *f, const char *bus)
{
    for (int i = 0; bus[0] && i < f->host.npci && i < CP_MAX_PCI; i++)
        if (strcasecmp(f->host.pci[i].addr, bus) == 0) return &f->host.pci[i];
    return NULL;
}

/* The devices: CUDA's, else NVML's, else the PCI GPUs; returns how many. */
static int views(const cp_facts *f, view *v)
{
    int n = 0;
    if (f->cuda.ndev > 0) {
        for (int i = 0; i < f->cuda.ndev && i < CP_MAX_GPUS; i++, n++) {
            v[n].cu = &f->cuda.dev[i];
            v[n].bus = v[n].cu->pci_bus_id;
            v[n].nv = nvml_at(f, v[n].bus);
            if (!v[n].nv && f->nvml.ndev == f->cuda.ndev && !v[n].bus[0]) v[n].nv = &f->nvml.dev[i];
            v[n].pci = pci_at(f, v[n].bus);
        }
    } else if (f->nvml.ndev > 0) {
        for (int i = 0; i < f->nvml.ndev && i < CP_MAX_GPUS; i++, n++) {
            v[n].cu = NULL;
            v[n].nv = &f->nvml.dev[i];
            v[n].bus = v[n].nv->inv.pci_bus_id;
            v[n].pci = pci_at(f, v[n].bus);
        }
    } else {
        for (int i = 0; i < f->host.npci && i < CP_MAX_PCI && n < CP_MAX_GPUS; i++) {
            if (!cp_is_gpu_function(&f->host.pci[i])) continue;
            v[n].cu = NULL;
            v[n].nv = NULL;
            v[n].pci = &f->host.pci[i];
            v[n].bus = v[n].pci->addr;
            n++;
        }
    }
    return n;
}

/* The info device index of a bus id, or -1. */
static int gpu_at(const view *v, int n, const char *bus)
{
    for (int i = 0; bus[0] && i < n; i++)
        if (strcasecmp(v[i].bus, bus) == 0) return i;
    return -1;
}

/* Count of info's devices; see info.h. */
int cp_info_ndevices(const cp_facts *f)
{
    view v[CP_MAX_GPUS];
    return views(f, v);
}

/* Why libcuda gave no devices; see info.h. */
const char *cp_info_why_no_cuda(const cp_facts *f, char *buf, size_t cap)
{
    const cp_cuda_facts *c = &f->cuda;
    if (c->ndev > 0) return NULL;
    switch (c->run.state) {
    case CP_PROBE_NOT_RUN: return "libcuda was not asked (a snapshot without its answers)";
    case CP_PROBE_TIMEOUT: return "libcuda did not answer within the deadline (see cuprobe doctor)";
    case CP_PROBE_CRASHED: return "the libcuda probe crashed (see cuprobe doctor)";
    case CP_PROBE_ERROR: return "the libcuda probe could not be run";
    case CP_PROBE_DONE: break;
    }
    if (!c->lib.loaded) {
        snprintf(buf, cap, "libcuda was not loaded: %s", c->lib.error[0] ? c->lib.error : c->lib.missing_symbol);
        return buf;
    }
    if (c->init_result != 0) {
        const char *name = c->init_name[0] ? c->init_name : cp_cuda_error_name(c->init_result);
        if (name) snprintf(buf, cap, "cuInit failed: %s", name);
        else snprintf(buf, cap, "cuInit failed: CUresult %lld", (long long)c->init_result);
        return buf;
    }
    return "libcuda lists no device";
}

/* ------------------------------------------------------------ values -- */

static txt num(int64_t v)
{
    txt t;
    if (!CP_KNOWN(v)) snprintf(t.s, sizeof t.s, "N/A");
    else snprintf(t.s, sizeof t.s, "%lld", (long long)v);
    return t;
}

static txt size_text(int64_t v)
{
    txt t;
    if (!CP_KNOWN(v) || v < 0) snprintf(t.s, sizeof t.s, "N/A");
    else if (v >= (1 << 20) && v % (1 << 20) == 0) snprintf(t.s, sizeof t.s, "%lld MiB", (long long)(v >> 20));
    else if (v >= (1 << 20)) snprintf(t.s, sizeof t.s, "%lld MiB (%lld bytes)", (long long)(v >> 20), (long long)v);
    else if (v >= 1024 && v % 1024 == 0) snprintf(t.s, sizeof t.s, "%lld KiB", (long long)(v >> 10));
    else snprintf(t.s, sizeof t.s, "%lld bytes", (long long)v);
    return t;
}

static txt khz(int64_t v)
{
    txt t;
    if (!CP_KNOWN(v) || v < 0) snprintf(t.s, sizeof t.s, "N/A");
    else snprintf(t.s, sizeof t.s, "%lld MHz", (long long)(v / 1000));
    return t;
}

static const char *onoff(int64_t v)
{
    return !CP_KNOWN(v) ? "N/A" : v ? "on" : "off";
}

static const char *compute_mode(int64_t m)
{
    switch (m) {
    case 0: return "default";
    case 1: return "exclusive thread";
    case 2: return "prohibited";
    case 3: return "exclusive process";
    default: return CP_KNOWN(m) ? "other" : "N/A";
    }
}

/* A line "  Label   value": the value goes through cp_text_put_line. */
static void row(FILE *out, const char *label, const char *value)
{
    fprintf(out, "  %-26s ", label);
    cp_text_put_line(out, value);
    fputc('\n', out);
}

/* "1.2.3" of a libcudart copy, the unknown parts left out; "" all unknown. */
static void rt_version(const cp_cudart *r, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!CP_KNOWN(r->major)) return;
    if (!CP_KNOWN(r->minor)) snprintf(buf, cap, "%lld", (long long)r->major);
    else if (!CP_KNOWN(r->patch)) snprintf(buf, cap, "%lld.%lld", (long long)r->major, (long long)r->minor);
    else snprintf(buf, cap, "%lld.%lld.%lld", (long long)r->major, (long long)r->minor, (long long)r->patch);
}

/* The libcudart programs get: of the copies the loader would hand out
 * (one per soname), the newest; NULL when none. */
static const cp_cudart *runtime_copy(const cp_facts *f)
{
    const cp_cudart *best = NULL;
    for (int i = 0; i < f->runtime.nrt && i < CP_MAX_CUDARTS; i++) {
        const cp_cudart *r = &f->runtime.rt[i];
        if (!r->would_load || !CP_KNOWN(r->major)) continue;
        int64_t minor = CP_KNOWN(r->minor) ? r->minor : 0;
        if (!best || r->major > best->major ||
            (r->major == best->major && minor > (CP_KNOWN(best->minor) ? best->minor : 0)))
            best = r;
    }
    return best;
}

/* The runtime's CUDA version as the driver's integer (13000), or CP_UNKNOWN. */
static int64_t runtime_int(const cp_cudart *r)
{
    if (!r || !CP_KNOWN(r->major)) return CP_UNKNOWN;
    return 1000 * r->major + 10 * (CP_KNOWN(r->minor) ? r->minor : 0);
}

/* ------------------------------------------------------------ text ---- */

static void text_versions(const cp_facts *f, FILE *out)
{
    char v[32], line[CP_PATH_MAX + 128];
    const cp_cudart *rt = runtime_copy(f);
    fputs("Versions\n", out);
    if (CP_KNOWN(f->cuda.driver_version))
        snprintf(line, sizeof line, "%s (cuDriverGetVersion)", cp_cuda_version_str(f->cuda.driver_version, v, sizeof v));
    else
        snprintf(line, sizeof line, "N/A");
    row(out, "Driver API", line);
    if (rt) {
        char rv[64];
        rt_version(rt, rv, sizeof rv);
        snprintf(line, sizeof line, "%s (%s, the libcudart programs get)", rv, rt->path);
    } else {
        snprintf(line, sizeof line, "N/A (no libcudart on the loader path: frameworks bring their own)");
    }
    row(out, "Runtime API", line);
    snprintf(line, sizeof line, "%s (NVML), kernel module %s", f->nvml.driver_version[0] ? f->nvml.driver_version : "N/A",
             f->host.procfs.version[0] ? f->host.procfs.version : "N/A");
    row(out, "Driver", line);
    row(out, "NVML", f->nvml.nvml_version[0] ? f->nvml.nvml_version : "N/A");
    row(out, "Linux kernel", f->kernel_release[0] ? f->kernel_release : "N/A");
    int64_t ri = runtime_int(rt);
    if (CP_KNOWN(ri) && CP_KNOWN(f->cuda.driver_version) && ri > f->cuda.driver_version) {
        char dv[32];
        snprintf(line, sizeof line, "the runtime (%s) is newer than the driver's CUDA (%s): see cuprobe doctor",
                 cp_cuda_version_str(ri, v, sizeof v), cp_cuda_version_str(f->cuda.driver_version, dv, sizeof dv));
        row(out, "Note", line);
    }
}

static void text_link(const view *d, FILE *out)
{
    char line[512];
    int64_t gc = d->nv ? d->nv->sample.pcie_gen_cur : CP_UNKNOWN, gm = d->nv ? d->nv->inv.pcie_gen_max : CP_UNKNOWN;
    int64_t wc = d->nv ? d->nv->sample.pcie_width_cur : CP_UNKNOWN, wm = d->nv ? d->nv->inv.pcie_width_max : CP_UNKNOWN;
    if (CP_KNOWN(gc) || CP_KNOWN(gm)) {
        snprintf(line, sizeof line, "Gen%s x%s now, Gen%s x%s at most (NVML)", num(gc).s, num(wc).s, num(gm).s, num(wm).s);
    } else if (d->pci) {
        snprintf(line, sizeof line, "%s MT/s x%s now, %s MT/s x%s at most (sysfs)", num(d->pci->cur_speed_mts).s,
                 num(d->pci->cur_width).s, num(d->pci->max_speed_mts).s, num(d->pci->max_width).s);
    } else {
        snprintf(line, sizeof line, "N/A");
    }
    row(out, "PCIe link", line);
    if (d->pci) {
        int64_t node = d->pci->numa_node;
        snprintf(line, sizeof line, "%s%s", num(node).s, node == -1 ? " (the platform has no NUMA)" : "");
    } else {
        snprintf(line, sizeof line, "N/A");
    }
    row(out, "NUMA node", line);
    row(out, "CPU affinity", d->pci && d->pci->local_cpulist[0] ? d->pci->local_cpulist : "N/A");
}

/* The yes/no attributes on one line each side: "yes: a, b; no: c". */
static void text_features(const cp_cuda_device *c, FILE *out)
{
    static const char *const pass[] = { "yes", "no", "N/A" };
    for (int p = 0; p < 3; p++) {
        char line[512] = "";
        size_t len = 0;
#define FEATURE(I_, name, unit, e, n, help)                                                       \
        if (strcmp(unit, "bool") == 0 && strcmp(#name, "ecc_enabled") != 0 &&                     \
            (p == 2 ? !CP_KNOWN(c->name) : CP_KNOWN(c->name) && (c->name != 0) == (p == 0))) {   \
            int w = snprintf(line + len, sizeof line - len, "%s%s", len ? ", " : "", #name);      \
            if (w > 0 && (size_t)w < sizeof line - len) len += (size_t)w;                         \
        }
        CP_CUDA_ATTR_FIELDS(FEATURE, _)
#undef FEATURE
        if (len) {
            char label[32];
            snprintf(label, sizeof label, "Features (%s)", pass[p]);
            row(out, label, line);
        }
    }
}

static void text_cuda(const cp_cuda_device *c, const cp_nvml_device *nv, FILE *out)
{
    char line[512];
    snprintf(line, sizeof line, "%s.%s", num(c->cc_major).s, num(c->cc_minor).s);
    row(out, "Compute capability", CP_KNOWN(c->cc_major) && CP_KNOWN(c->cc_minor) ? line : "N/A");
    row(out, "Multiprocessors", num(c->sm_count).s);
    snprintf(line, sizeof line, "%s%s%s%s", khz(c->clock_khz).s, nv && CP_KNOWN(nv->inv.max_sm_clock_mhz) ? " (NVML max " : "",
             nv && CP_KNOWN(nv->inv.max_sm_clock_mhz) ? num(nv->inv.max_sm_clock_mhz).s : "",
             nv && CP_KNOWN(nv->inv.max_sm_clock_mhz) ? " MHz)" : "");
    row(out, "SM clock", line);
    row(out, "Memory", size_text(c->total_mem_bytes).s);
    snprintf(line, sizeof line, "%s%s%s%s", khz(c->mem_clock_khz).s, nv && CP_KNOWN(nv->inv.max_mem_clock_mhz) ? " (NVML max " : "",
             nv && CP_KNOWN(nv->inv.max_mem_clock_mhz) ? num(nv->inv.max_mem_clock_mhz).s : "",
             nv && CP_KNOWN(nv->inv.max_mem_clock_mhz) ? " MHz)" : "");
    row(out, "Memory clock", line);
    snprintf(line, sizeof line, "%s%s", num(c->mem_bus_bits).s, CP_KNOWN(c->mem_bus_bits) ? " bits" : "");
    row(out, "Memory bus width", line);
    row(out, "L2 cache", size_text(c->l2_cache_bytes).s);
    row(out, "Constant memory", size_text(c->const_mem_bytes).s);
    snprintf(line, sizeof line, "%s, %s opt-in", size_text(c->smem_block_bytes).s, size_text(c->smem_block_optin_bytes).s);
    row(out, "Shared memory per block", line);
    row(out, "Shared memory per SM", size_text(c->smem_sm_bytes).s);
    snprintf(line, sizeof line, "%s per block, %s per SM", num(c->regs_block).s, num(c->regs_sm).s);
    row(out, "Registers", line);
    row(out, "Warp size", num(c->warp_size).s);
    snprintf(line, sizeof line, "%s per block, %s per SM, %s blocks per SM", num(c->threads_block).s,
             num(c->threads_sm).s, num(c->blocks_sm).s);
    row(out, "Threads", line);
    snprintf(line, sizeof line, "%s x %s x %s", num(c->block_x).s, num(c->block_y).s, num(c->block_z).s);
    row(out, "Block dimensions", line);
    snprintf(line, sizeof line, "%s x %s x %s", num(c->grid_x).s, num(c->grid_y).s, num(c->grid_z).s);
    row(out, "Grid dimensions", line);
    row(out, "Copy engines", num(c->async_engines).s);
    row(out, "Compute mode", compute_mode(c->compute_mode));
    snprintf(line, sizeof line, "%s", num(c->host_numa_id).s);
    row(out, "Host NUMA node (CUDA)", line);
    text_features(c, out);
}

static void text_device(const cp_facts *f, const view *d, int i, FILE *out)
{
    char line[512], why[CP_PATH_MAX + 64];
    const char *name = d->cu && d->cu->name[0] ? d->cu->name : d->nv && d->nv->inv.name[0] ? d->nv->inv.name : cp_gpu_model(f, d->bus);
    fprintf(out, "\nDevice %d: ", i);
    cp_text_put_line(out, name);
    fputc('\n', out);
    row(out, "UUID", d->cu && d->cu->uuid[0] ? d->cu->uuid : d->nv && d->nv->inv.uuid[0] ? d->nv->inv.uuid : "N/A");
    row(out, "PCI bus id", d->bus[0] ? d->bus : "N/A");
    text_link(d, out);
    if (d->cu) text_cuda(d->cu, d->nv, out);
    else row(out, "Device attributes", cp_info_why_no_cuda(f, why, sizeof why));
    const cp_nvml_inventory *inv = d->nv ? &d->nv->inv : NULL;
    snprintf(line, sizeof line, "%s (NVML; %s after the next reboot)%s", onoff(inv ? inv->ecc_current : CP_UNKNOWN),
             onoff(inv ? inv->ecc_pending : CP_UNKNOWN),
             d->cu && CP_KNOWN(d->cu->ecc_enabled) ? (d->cu->ecc_enabled ? ", CUDA: on" : ", CUDA: off") : "");
    row(out, "ECC", line);
    snprintf(line, sizeof line, "%s (%s after the next GPU reset)", onoff(inv ? inv->mig_current : CP_UNKNOWN),
             onoff(inv ? inv->mig_pending : CP_UNKNOWN));
    row(out, "MIG", line);
}

/* The NVLink state and remote bus id of link l, from the field strings. */
static char link_state(const cp_nvml_inventory *inv, int l)
{
    return l < (int)strlen(inv->nvlink_state) ? inv->nvlink_state[l] : '-';
}

static void link_remote(const cp_nvml_inventory *inv, int l, char *out, size_t cap)
{
    const char *p = inv->nvlink_remote;
    out[0] = '\0';
    for (int i = 0; i < l && p; i++) {
        p = strchr(p, ',');
        if (p) p++;
    }
    if (!p) return;
    size_t n = strcspn(p, ",");
    if (n >= cap) n = cap - 1;
    memcpy(out, p, n);
    out[n] = '\0';
}

/* An NVSwitch at the far end of a link: a PCI bridge of class 0x0680 on the bus. */
static int is_nvswitch(const cp_facts *f, const char *bus)
{
    const cp_pci_function *p = pci_at(f, bus);
    return p && CP_KNOWN(p->class_code) && (p->class_code >> 8) == 0x0680;
}

static void text_nvlink(const cp_facts *f, const view *v, int n, int sel, FILE *out)
{
    fputs("  NVLink (nvmlDeviceGetNvLinkState; the far end: nvmlDeviceGetNvLinkRemotePciInfo_v2)\n", out);
    for (int i = 0; i < n; i++) {
        if (sel >= 0 && i != sel) continue;
        const cp_nvml_inventory *inv = v[i].nv ? &v[i].nv->inv : NULL;
        int links = inv ? (int)strlen(inv->nvlink_state) : 0, active = 0;
        for (int l = 0; l < links; l++) active += inv->nvlink_state[l] == '1';
        fprintf(out, "    GPU%-3d ", i);
        if (!inv || !links) {
            fputs(inv ? "N/A (no NVLink, or NVML does not say)\n" : "N/A (no NVML device)\n", out);
            continue;
        }
        fprintf(out, "%d links, %d active, version %s\n", links, active, num(inv->nvlink_version).s);
        for (int l = 0; l < links;) {
            char rem[48], next[48];
            link_remote(inv, l, rem, sizeof rem);
            int e = l;
            while (e + 1 < links && link_state(inv, e + 1) == link_state(inv, l)) {
                link_remote(inv, e + 1, next, sizeof next);
                if (strcmp(next, rem) != 0) break;
                e++;
            }
            char range[32];
            if (e == l) snprintf(range, sizeof range, "link %d", l);
            else snprintf(range, sizeof range, "links %d-%d", l, e);
            fprintf(out, "           %-12s %s", range, link_state(inv, l) == '1' ? "active" : "down");
            if (rem[0]) {
                int g = gpu_at(v, n, rem);
                if (g >= 0) fprintf(out, " -> GPU%d ", g);
                else fputs(is_nvswitch(f, rem) ? " -> NVSwitch " : " -> ", out);
                cp_text_put_line(out, rem);
            }
            fputc('\n', out);
            l = e + 1;
        }
    }
}

/* The answer from info device i to j: CUDA's peer_access (by ordinal, which
 * is info's index), or NVML's p2p_read (by NVML index): '1', '0' or '?'. */
static char peer(const view *v, int i, int j, int nvml)
{
    const char *s = nvml ? (v[i].nv ? v[i].nv->inv.p2p_read : "") : v[i].cu ? v[i].cu->peer_access : "";
    int k = nvml ? (v[j].nv ? v[j].nv->index : -1) : j;
    char c = k >= 0 && k < (int)strlen(s) ? s[k] : '?';
    return c == '1' || c == '0' ? c : '?';
}

static void text_peers(const view *v, int n, int sel, int nvml, FILE *out)
{
    fputs(nvml ? "  P2P reads (nvmlDeviceGetP2PStatus, NVML_P2P_CAPS_INDEX_READ: NVML's view)\n          "
               : "  Peer access (cuDeviceCanAccessPeer, from the row's GPU to the column's)\n          ", out);
    for (int j = 0; j < n; j++) fprintf(out, " %6s%d", "GPU", j);
    fputc('\n', out);
    for (int i = 0; i < n; i++) {
        if (sel >= 0 && i != sel) continue;
        fprintf(out, "    GPU%-3d", i);
        for (int j = 0; j < n; j++) {
            char c = peer(v, i, j, nvml);
            fprintf(out, " %7s", i == j ? "-" : c == '1' ? "yes" : c == '0' ? "no" : "N/A");
        }
        fputc('\n', out);
    }
}

/* The text; see info.h. */
void cp_info_render_text(const cp_facts *f, int device, FILE *out)
{
    view v[CP_MAX_GPUS];
    int n = views(f, v);
    char why[CP_PATH_MAX + 64];
    fputs("cuprobe info: ", out);
    cp_text_put_line(out, f->hostname[0] ? f->hostname : "this machine");
    fputs(" (", out);
    cp_text_put_line(out, f->origin[0] ? f->origin : "live");
    fprintf(out, "), %d device%s\n", n, n == 1 ? "" : "s");
    text_versions(f, out);
    const char *no = cp_info_why_no_cuda(f, why, sizeof why);
    if (no && !n) {
        fputs("\nNo GPU: ", out);
        cp_text_put_line(out, no);
        fputc('\n', out);
    }
    for (int i = 0; i < n; i++)
        if (device < 0 || i == device) text_device(f, &v[i], i, out);
    if (n == 0) return;
    fputs("\nTopology\n", out);
    int nvml_p2p = 0;
    for (int i = 0; i < n; i++) nvml_p2p |= v[i].nv && v[i].nv->inv.p2p_read[0];
    if (n > 1) text_peers(v, n, device, 0, out);
    if (n > 1 && nvml_p2p) text_peers(v, n, device, 1, out);
    text_nvlink(f, v, n, device, out);
}

/* ------------------------------------------------------------ JSON ---- */

static void json_bool(FILE *out, int64_t v)
{
    fputs(!CP_KNOWN(v) ? "null" : v ? "true" : "false", out);
}

static void json_attrs(const cp_cuda_device *c, FILE *out)
{
    int first = 1;
    fputc('{', out);
#define ATTR(I_, name, unit, e, n, help)                       \
    cp_json_key(out, #name, &first);                           \
    if (strcmp(unit, "bool") == 0) json_bool(out, c->name);    \
    else cp_json_i64(out, c->name);
    CP_CUDA_ATTR_FIELDS(ATTR, _)
#undef ATTR
    fputc('}', out);
}

static void json_nvlink(const cp_facts *f, const view *v, int n, const cp_nvml_inventory *inv, FILE *out)
{
    int links = inv ? (int)strlen(inv->nvlink_state) : 0;
    fputs("{\"version\": ", out);
    cp_json_i64(out, inv ? inv->nvlink_version : CP_UNKNOWN);
    fputs(", \"links\": ", out);
    if (!inv || !inv->nvlink_state[0]) {
        fputs("null}", out);
        return;
    }
    fputc('[', out);
    for (int l = 0; l < links; l++) {
        char rem[48];
        link_remote(inv, l, rem, sizeof rem);
        int g = gpu_at(v, n, rem);
        fprintf(out, "%s{\"link\": %d, \"active\": %s, \"remote_pci_bus_id\": ", l ? ", " : "", l,
                inv->nvlink_state[l] == '1' ? "true" : "false");
        cp_json_str_or_null(out, rem);
        fputs(", \"remote_gpu\": ", out);
        cp_json_i64(out, g >= 0 ? g : CP_UNKNOWN);
        fprintf(out, ", \"remote_nvswitch\": %s", rem[0] && is_nvswitch(f, rem) ? "true" : "false");
        fputc('}', out);
    }
    fputs("]}", out);
}

static void json_device(const cp_facts *f, const view *v, int n, int i, FILE *out)
{
    const view *d = &v[i];
    const cp_nvml_inventory *inv = d->nv ? &d->nv->inv : NULL;
    const char *name = d->cu && d->cu->name[0] ? d->cu->name : inv && inv->name[0] ? inv->name : cp_gpu_model(f, d->bus);
    fprintf(out, "    {\"index\": %d, \"cuda_ordinal\": ", i);
    cp_json_i64(out, d->cu ? d->cu->ordinal : CP_UNKNOWN);
    fputs(", \"nvml_index\": ", out);
    cp_json_i64(out, d->nv ? d->nv->index : CP_UNKNOWN);
    fputs(", \"name\": ", out);
    cp_json_str(out, name);
    fputs(", \"uuid\": ", out);
    cp_json_str_or_null(out, d->cu && d->cu->uuid[0] ? d->cu->uuid : inv ? inv->uuid : "");
    fputs(", \"pci_bus_id\": ", out);
    cp_json_str_or_null(out, d->bus);
    fputs(",\n     \"cc_major\": ", out);
    cp_json_i64(out, d->cu ? d->cu->cc_major : inv ? inv->cc_major : CP_UNKNOWN);
    fputs(", \"cc_minor\": ", out);
    cp_json_i64(out, d->cu ? d->cu->cc_minor : inv ? inv->cc_minor : CP_UNKNOWN);
    fputs(", \"sm_count\": ", out);
    cp_json_i64(out, d->cu ? d->cu->sm_count : CP_UNKNOWN);
    fputs(", \"total_mem_bytes\": ", out);
    cp_json_i64(out, d->cu ? d->cu->total_mem_bytes : inv ? inv->mem_total_bytes : CP_UNKNOWN);
    fputs(", \"compute_mode\": ", out);
    cp_json_i64(out, d->cu ? d->cu->compute_mode : inv ? inv->compute_mode : CP_UNKNOWN);
    fputs(",\n     \"attributes\": ", out);
    if (d->cu) json_attrs(d->cu, out);
    else fputs("null", out);
    fputs(",\n     \"pcie\": {\"gen_cur\": ", out);
    cp_json_i64(out, d->nv ? d->nv->sample.pcie_gen_cur : CP_UNKNOWN);
    fputs(", \"gen_max\": ", out);
    cp_json_i64(out, inv ? inv->pcie_gen_max : CP_UNKNOWN);
    fputs(", \"width_cur\": ", out);
    cp_json_i64(out, d->nv ? d->nv->sample.pcie_width_cur : d->pci ? d->pci->cur_width : CP_UNKNOWN);
    fputs(", \"width_max\": ", out);
    cp_json_i64(out, inv ? inv->pcie_width_max : d->pci ? d->pci->max_width : CP_UNKNOWN);
    fputs(", \"speed_cur_mts\": ", out);
    cp_json_i64(out, d->pci ? d->pci->cur_speed_mts : CP_UNKNOWN);
    fputs(", \"speed_max_mts\": ", out);
    cp_json_i64(out, d->pci ? d->pci->max_speed_mts : CP_UNKNOWN);
    fputs("}, \"numa_node\": ", out);
    cp_json_i64(out, d->pci ? d->pci->numa_node : CP_UNKNOWN);
    fputs(", \"cpu_affinity\": ", out);
    cp_json_str_or_null(out, d->pci ? d->pci->local_cpulist : "");
    fputs(",\n     \"ecc\": {\"current\": ", out);
    json_bool(out, inv ? inv->ecc_current : CP_UNKNOWN);
    fputs(", \"pending\": ", out);
    json_bool(out, inv ? inv->ecc_pending : CP_UNKNOWN);
    fputs("}, \"mig\": {\"current\": ", out);
    json_bool(out, inv ? inv->mig_current : CP_UNKNOWN);
    fputs(", \"pending\": ", out);
    json_bool(out, inv ? inv->mig_pending : CP_UNKNOWN);
    fputs("}, \"max_sm_clock_mhz\": ", out);
    cp_json_i64(out, inv ? inv->max_sm_clock_mhz : CP_UNKNOWN);
    fputs(", \"max_mem_clock_mhz\": ", out);
    cp_json_i64(out, inv ? inv->max_mem_clock_mhz : CP_UNKNOWN);
    for (int nvml = 0; nvml < 2; nvml++) {
        fputs(nvml ? "], \"nvml_p2p_read\": [" : ",\n     \"peer_access\": [", out);
        for (int j = 0; j < n; j++) {
            char c = peer(v, i, j, nvml);
            fputs(j ? ", " : "", out);
            fputs(i == j || c == '?' ? "null" : c == '1' ? "true" : "false", out);
        }
    }
    fputs("],\n     \"nvlink\": ", out);
    json_nvlink(f, v, n, inv, out);
    fputc('}', out);
}

/* The JSON; see info.h. */
void cp_info_render_json(const cp_facts *f, int device, FILE *out)
{
    view v[CP_MAX_GPUS];
    int n = views(f, v);
    char why[CP_PATH_MAX + 64], vbuf[32];
    const cp_cudart *rt = runtime_copy(f);
    fprintf(out, "{\n  \"schema_version\": %d, \"tool\": \"cuprobe\", \"tool_version\": ", CP_INFO_SCHEMA_VERSION);
    cp_json_str(out, cp_version());
    fputs(", \"origin\": ", out);
    cp_json_str_or_null(out, f->origin);
    fputs(", \"hostname\": ", out);
    cp_json_str_or_null(out, f->hostname);
    fputs(",\n  \"versions\": {\"driver_api\": ", out);
    cp_json_i64(out, f->cuda.driver_version);
    fputs(", \"driver_api_text\": ", out);
    cp_json_str_or_null(out, CP_KNOWN(f->cuda.driver_version) ? cp_cuda_version_str(f->cuda.driver_version, vbuf, sizeof vbuf) : "");
    char rv[64] = "";
    if (rt) rt_version(rt, rv, sizeof rv);
    fputs(", \"runtime_api\": ", out);
    cp_json_i64(out, runtime_int(rt));
    fputs(", \"runtime_api_text\": ", out);
    cp_json_str_or_null(out, rv);
    fputs(", \"runtime_path\": ", out);
    cp_json_str_or_null(out, rt ? rt->path : "");
    fputs(", \"driver\": ", out);
    cp_json_str_or_null(out, f->nvml.driver_version);
    fputs(", \"nvml\": ", out);
    cp_json_str_or_null(out, f->nvml.nvml_version);
    fputs(", \"kernel_module\": ", out);
    cp_json_str_or_null(out, f->host.procfs.version);
    fputs("},\n  \"no_cuda_devices\": ", out);
    const char *no = cp_info_why_no_cuda(f, why, sizeof why);
    cp_json_str_or_null(out, no ? no : "");
    fputs(",\n  \"devices\": [", out);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (device >= 0 && i != device) continue;
        fputs(k++ ? ",\n" : "\n", out);
        json_device(f, v, n, i, out);
    }
    fputs(k ? "\n  ]\n}\n" : "]\n}\n", out);
}
