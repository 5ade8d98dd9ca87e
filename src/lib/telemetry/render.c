/*
 * The metrics of a tick, named once (cp_tele_metric_table): the CSV
 * columns, the JSON keys and the Prometheus names of `cuprobe monitor` and
 * `cuprobe exporter` all come from this table, with their units in the
 * name and their meaning in the help.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cuprobe/telemetry.h"
#include "kb/kb.h"
#include "util/json.h"

#define S(field) CP_TELE_FROM_SAMPLE, offsetof(cp_nvml_sample, field)
#define V(field) CP_TELE_FROM_INVENTORY, offsetof(cp_nvml_inventory, field)

static const cp_tele_metric table[] = {
    { "kernel_active_percent", "percent", "gauge",
      "kernel-active: share of the device's sample period (1/6 s to 1 s, by product: "
      "kernel_active_period_seconds) in which at least one kernel ran on the GPU, the mean of "
      "NVML's samples since the last tick; not how busy the SMs are: one tiny kernel on one SM "
      "reads 100 (sm_active_percent says how busy they are)", S(util_gpu_pct), 1 },
    { "kernel_active_period_seconds", "seconds", "gauge",
      "the device's own sample period behind kernel_active_percent: the spacing of the "
      "GPU-utilisation samples NVML keeps (absent until two were seen)", S(util_gpu_period_us), 1e-6 },
    { "kernel_active_samples", "count", "gauge",
      "NVML samples kernel_active_percent is the mean of, this tick; 0: none came and it is "
      "nvmlDeviceGetUtilizationRates' last period", S(util_gpu_samples), 1 },
    { "memory_active_percent", "percent", "gauge",
      "memory-controller activity: share of the sample period in which device memory was read or "
      "written; not how much memory is in use (memory_used_bytes)", S(util_mem_pct), 1 },
    { "sm_active_percent", "percent", "gauge",
      "SM activity (GPM, Hopper and newer): share of time the SMs had work, averaged over every SM, "
      "over the last tick", S(gpm_sm_active_pct), 1 },
    { "sm_occupancy_percent", "percent", "gauge",
      "SM occupancy (GPM): resident warps against the most the SMs can hold, over the last tick",
      S(gpm_sm_occupancy_pct), 1 },
    { "tensor_active_percent", "percent", "gauge",
      "tensor activity (GPM): share of time the SMs ran tensor-core instructions, over the last tick",
      S(gpm_tensor_active_pct), 1 },
    { "dram_bandwidth_percent", "percent", "gauge",
      "DRAM bandwidth utilisation (GPM): bytes moved against the memory's theoretical peak, over the "
      "last tick", S(gpm_dram_bw_pct), 1 },
    { "memory_used_bytes", "bytes", "gauge",
      "device memory in use: reserved by the driver plus allocated by processes", S(mem_used_bytes), 1 },
    { "memory_free_bytes", "bytes", "gauge", "device memory free", S(mem_free_bytes), 1 },
    { "memory_reserved_bytes", "bytes", "gauge",
      "device memory the driver reserves for itself (part of memory_used_bytes)", S(mem_reserved_bytes), 1 },
    { "memory_total_bytes", "bytes", "gauge", "device memory, total", V(mem_total_bytes), 1 },
    { "sm_clock_hertz", "hertz", "gauge", "SM clock now", S(clock_sm_mhz), 1e6 },
    { "sm_clock_max_hertz", "hertz", "gauge", "SM clock, the most this GPU can run",
      V(max_sm_clock_mhz), 1e6 },
    { "memory_clock_hertz", "hertz", "gauge", "memory clock now", S(clock_mem_mhz), 1e6 },
    { "memory_clock_max_hertz", "hertz", "gauge", "memory clock, the most this GPU can run",
      V(max_mem_clock_mhz), 1e6 },
    { "power_watts", "watts", "gauge",
      "power draw of the GPU and its board (a 1 s average on Ampere and newer)", S(power_mw), 1e-3 },
    { "power_limit_watts", "watts", "gauge",
      "enforced power limit: the GPU slows its clocks to stay under it", V(power_limit_mw), 1e-3 },
    { "energy_joules_total", "joules", "counter",
      "energy used since the driver loaded (Volta and newer)", S(energy_mj), 1e-3 },
    { "temperature_celsius", "celsius", "gauge", "GPU temperature", S(temperature_c), 1 },
    { "pcie_tx_bytes_per_second", "bytes/s", "gauge",
      "PCIe bytes sent by the GPU a second, over NVML's 20 ms window", S(pcie_tx_kbs), 1024 },
    { "pcie_rx_bytes_per_second", "bytes/s", "gauge",
      "PCIe bytes received by the GPU a second, over NVML's 20 ms window", S(pcie_rx_kbs), 1024 },
    { "pcie_link_generation", "generation", "gauge",
      "PCIe link generation now (it drops at idle to save power)", S(pcie_gen_cur), 1 },
    { "pcie_link_width_lanes", "lanes", "gauge", "PCIe link width now", S(pcie_width_cur), 1 },
    { "clock_event_reasons_bitmask", "bitmask", "gauge",
      "why the clocks are held down now, nvmlClocksEventReason bits (clock_event_reason has them "
      "by name)", S(clock_event_reasons), 1 },
    { "ecc_corrected_errors_total", "count", "counter",
      "corrected ECC errors since the driver loaded", S(ecc_corrected_volatile), 1 },
    { "ecc_uncorrected_errors_total", "count", "counter",
      "uncorrected ECC errors since the driver loaded", S(ecc_uncorrected_volatile), 1 },
    { "remapped_rows_correctable", "count", "gauge",
      "memory rows remapped for correctable errors", S(remap_correctable), 1 },
    { "remapped_rows_uncorrectable", "count", "gauge",
      "memory rows remapped for uncorrectable errors", S(remap_uncorrectable), 1 },
    { "remap_pending", "bool", "gauge", "1: a row remap waits for a GPU reset", S(remap_pending), 1 },
    { "compute_processes", "count", "gauge", "compute processes on the GPU", S(nprocs_total), 1 },
    { "xid_events_total", "count", "counter",
      "XID events (driver error reports) since the sampler started; xid_errors_total has them by code",
      S(xid_events), 1 },
};

#define NMETRICS ((int)(sizeof table / sizeof table[0]))

/* The table; see telemetry.h. */
const cp_tele_metric *cp_tele_metric_table(int *n)
{
    *n = NMETRICS;
    return table;
}

/* The value of m for g, CP_UNKNOWN when unknown; see telemetry.h. */
int64_t cp_tele_metric_raw(const cp_tele_metric *m, const cp_tele_gpu *g)
{
    const char *base = m->from == CP_TELE_FROM_SAMPLE ? (const char *)&g->s : (const char *)&g->inv;
    int64_t v;
    memcpy(&v, base + m->off, sizeof v);
    /* the inventory outlives the GPU; a value of a GPU that did not answer is not known */
    return g->state == CP_TELE_OK ? v : CP_UNKNOWN;
}

/* Row i of the clock-event reasons (kb's one table); see telemetry.h. */
int cp_tele_clock_reason(int i, int64_t *bit, const char **word)
{
    return cp_clock_event_reason(i, bit, word);
}

/* Parse --fields; see telemetry.h. */
int cp_tele_fields_parse(const char *list, cp_tele_fields *out, char *err, size_t errcap)
{
    out->n = 0;
    if (!list || !*list) {
        for (int i = 0; i < NMETRICS && i < CP_TELE_MAX_FIELDS; i++)
            out->idx[out->n++] = i;
        return 0;
    }
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = -1;
        for (int i = 0; i < NMETRICS; i++)
            if (strlen(table[i].name) == len && strncmp(table[i].name, p, len) == 0)
                found = i;
        if (found < 0) {
            snprintf(err, errcap, "unknown field '%.*s' (cuprobe monitor --list-fields names them)",
                     (int)(len > 64 ? 64 : len), p);
            return -1;
        }
        if (out->n >= CP_TELE_MAX_FIELDS) {
            snprintf(err, errcap, "more than %d fields", CP_TELE_MAX_FIELDS);
            return -1;
        }
        out->idx[out->n++] = found;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* A scaled value as Prometheus and CSV write it. */
static void put_value(FILE *out, const cp_tele_metric *m, int64_t v)
{
    if (m->scale == 1)
        fprintf(out, "%lld", (long long)v);
    else
        fprintf(out, "%.15g", (double)v * m->scale);
}

/* A machine string in a CSV cell: quoted, printable ASCII only. */
static void put_csv_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"')
            fputs("\"\"", out);
        else
            fputc(c >= 0x20 && c < 0x7f ? c : '?', out);
    }
    fputc('"', out);
}

/* The clock-event words joined by "; ", "" when unknown. */
static void reasons_words(int64_t bits, char *buf, int cap)
{
    buf[0] = '\0';
    if (!CP_KNOWN(bits))
        return;
    cp_clock_events_str(bits, buf, cap);
}

/* CSV header; see telemetry.h. */
void cp_tele_csv_header(FILE *out, const cp_tele_fields *fl)
{
    fputs("time_unix_seconds,gpu,uuid,pci_bus_id,name,state", out);
    for (int k = 0; k < fl->n; k++)
        fprintf(out, ",%s", table[fl->idx[k]].name);
    fputs(",clock_event_reasons,xid_last\n", out);
}

/* One CSV row per GPU; see telemetry.h. */
void cp_tele_csv(FILE *out, const cp_tele_frame *f, const cp_tele_fields *fl)
{
    char words[256];
    for (int i = 0; i < f->ngpu; i++) {
        const cp_tele_gpu *g = &f->gpu[i];
        fprintf(out, "%.3f,%d,", f->unix_s, i);
        put_csv_str(out, g->inv.uuid);
        fputc(',', out);
        put_csv_str(out, g->inv.pci_bus_id);
        fputc(',', out);
        put_csv_str(out, g->inv.name);
        fprintf(out, ",%s", cp_tele_state_name(g->state));
        for (int k = 0; k < fl->n; k++) {
            const cp_tele_metric *m = &table[fl->idx[k]];
            int64_t v = cp_tele_metric_raw(m, g);
            fputc(',', out);
            if (CP_KNOWN(v))   /* unknown is an empty cell, never 0 */
                put_value(out, m, v);
        }
        fputc(',', out);
        reasons_words(g->state == CP_TELE_OK ? g->s.clock_event_reasons : CP_UNKNOWN, words,
                      sizeof words);
        if (words[0])
            put_csv_str(out, words);
        fputc(',', out);
        if (CP_KNOWN(g->xid_last))
            fprintf(out, "%lld", (long long)g->xid_last);
        fputc('\n', out);
    }
}

/* One JSON object per tick; see telemetry.h. */
void cp_tele_jsonl(FILE *out, const cp_tele_frame *f, const cp_tele_fields *fl)
{
    fprintf(out, "{\"time_unix_seconds\": %.3f, \"seq\": %lld, \"tick_seconds\": %.6f, \"nvml\": %s",
            f->unix_s, (long long)f->seq, f->tick_ms / 1e3, f->nvml_ok ? "true" : "false");
    fputs(", \"error\": ", out);
    cp_json_str_or_null(out, f->error);
    fputs(", \"gpus\": [", out);
    for (int i = 0; i < f->ngpu; i++) {
        const cp_tele_gpu *g = &f->gpu[i];
        int first = 1;
        fputs(i ? ", {" : "{", out);
        cp_json_key(out, "gpu", &first);
        fprintf(out, "%d", i);
        cp_json_key(out, "uuid", &first);
        cp_json_str(out, g->inv.uuid);
        cp_json_key(out, "pci_bus_id", &first);
        cp_json_str(out, g->inv.pci_bus_id);
        cp_json_key(out, "name", &first);
        cp_json_str(out, g->inv.name);
        cp_json_key(out, "state", &first);
        cp_json_str(out, cp_tele_state_name(g->state));
        for (int k = 0; k < fl->n; k++) {
            const cp_tele_metric *m = &table[fl->idx[k]];
            int64_t v = cp_tele_metric_raw(m, g);
            cp_json_key(out, m->name, &first);
            if (!CP_KNOWN(v))
                fputs("null", out);
            else
                put_value(out, m, v);
        }
        cp_json_key(out, "clock_event_reasons", &first);
        int64_t bits = g->state == CP_TELE_OK ? g->s.clock_event_reasons : CP_UNKNOWN;
        if (!CP_KNOWN(bits)) {
            fputs("null", out);
        } else {
            fputc('[', out);
            int64_t bit;
            const char *word;
            int n = 0;
            for (int r = 0; cp_clock_event_reason(r, &bit, &word); r++)
                if (bits & bit) {
                    fputs(n++ ? ", " : "", out);
                    cp_json_str(out, word);
                }
            fputc(']', out);
        }
        cp_json_key(out, "processes", &first);
        fputc('[', out);
        for (int p = 0; g->state == CP_TELE_OK && p < g->s.nprocs; p++) {
            const cp_gpu_process *pr = &g->s.procs[p];
            fputs(p ? ", {\"pid\": " : "{\"pid\": ", out);
            cp_json_i64(out, pr->pid);
            fputs(", \"memory_used_bytes\": ", out);
            cp_json_i64(out, pr->used_bytes);
            fputs(", \"kernel_active_percent\": ", out);
            cp_json_i64(out, pr->sm_util_pct);
            fputs(", \"visible\": ", out);
            fputs(pr->visible == CP_YES ? "true" : pr->visible == CP_NO ? "false" : "null", out);
            fputs(", \"name\": ", out);
            cp_json_str_or_null(out, cp_tele_proc_name(pr));
            fputs(", \"container\": ", out);
            cp_json_str_or_null(out, pr->container);
            fputs(", \"pod_uid\": ", out);
            cp_json_str_or_null(out, pr->pod_uid);
            fputc('}', out);
        }
        fputc(']', out);
        cp_json_key(out, "xids", &first);
        fputc('{', out);
        for (int k = 0; k < g->nxid; k++)
            fprintf(out, "%s\"%lld\": %lld", k ? ", " : "", (long long)g->xid[k].code,
                    (long long)g->xid[k].count);
        fputs("}}", out);
    }
    fputs("]}\n", out);
}

/* What a process is called here; see telemetry.h. */
const char *cp_tele_proc_name(const cp_gpu_process *p)
{
    if (p->comm[0])
        return p->comm;
    return p->visible == CP_NO ? "pid not visible here" : "";
}

/* ---- Prometheus text exposition (format 0.0.4) ---- */

/* A label value: backslash, quote and newline escaped; anything outside
 * printable ASCII becomes '?' (the format wants UTF-8; GPU names are ASCII). */
static void put_label(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\' || c == '"')
            fprintf(out, "\\%c", c);
        else
            fputc(c >= 0x20 && c < 0x7f ? c : '?', out);
    }
    fputc('"', out);
}

/* The labels of a GPU's series; pod, namespace and container when pd (the
 * kubelet's answer) names the container holding it. */
static void put_gpu_labels(FILE *out, int i, const cp_tele_gpu *g, const cp_podres_dev *pd)
{
    fprintf(out, "{gpu=\"%d\",uuid=", i);
    put_label(out, g->inv.uuid);
    fputs(",pci_bus_id=", out);
    put_label(out, g->inv.pci_bus_id);
    fputs(",name=", out);
    put_label(out, g->inv.name);
    if (pd) {
        fputs(",pod=", out);
        put_label(out, pd->pod);
        fputs(",namespace=", out);
        put_label(out, pd->ns);
        fputs(",container=", out);
        put_label(out, pd->container);
    }
}

static void head(FILE *out, const char *name, const char *type, const char *help)
{
    fprintf(out, "# HELP cuprobe_%s %s\n# TYPE cuprobe_%s %s\n", name, help, name, type);
}

static void label_word(FILE *out, const char *word)
{
    fputc('"', out);
    for (; *word; word++)
        fputc(*word == ' ' ? '_' : *word, out);
    fputc('"', out);
}

static void put_proc_labels(FILE *out, int i, const cp_tele_gpu *g, const cp_gpu_process *p)
{
    fprintf(out, "{gpu=\"%d\",uuid=", i);
    put_label(out, g->inv.uuid);
    fprintf(out, ",pid=\"%lld\"", (long long)p->pid);
    const char *name = cp_tele_proc_name(p);
    if (name[0]) {   /* an empty label is no label: unknown stays out */
        fputs(",process=", out);
        put_label(out, name);
    }
    if (p->container[0]) {
        fputs(",container=", out);
        put_label(out, p->container);
    }
    if (p->pod_uid[0]) {
        fputs(",pod_uid=", out);
        put_label(out, p->pod_uid);
    }
    fputs("} ", out);
}

/* Each GPU's compute processes, at most CP_TELE_PROM_PROCS a GPU. */
static void put_procs(FILE *out, const cp_tele_frame *f)
{
    static const struct { const char *name, *help; int util; } rows[] = {
        { "gpu_process_memory_used_bytes", "device memory a compute process uses", 0 },
        { "gpu_process_kernel_active_percent",
          "share of the last tick in which the process had a kernel on the GPU "
          "(nvmlDeviceGetProcessUtilization; absent when NVML kept no sample of it)", 1 },
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        int any = 0;
        for (int i = 0; i < f->ngpu; i++) {
            const cp_tele_gpu *g = &f->gpu[i];
            for (int p = 0; g->state == CP_TELE_OK && p < g->s.nprocs && p < CP_TELE_PROM_PROCS; p++) {
                const cp_gpu_process *pr = &g->s.procs[p];
                int64_t val = rows[r].util ? pr->sm_util_pct : pr->used_bytes;
                if (!CP_KNOWN(val) || !CP_KNOWN(pr->pid))
                    continue;
                if (!any++) {
                    char help[512];
                    snprintf(help, sizeof help,
                             "%s; labels pid (NVML's, the host's), process (its name, or \"pid not "
                             "visible here\" from another PID namespace), container and pod_uid "
                             "where its cgroup names them; at most %d processes a GPU "
                             "(gpu_compute_processes counts them all)",
                             rows[r].help, CP_TELE_PROM_PROCS);
                    head(out, rows[r].name, "gauge", help);
                }
                fprintf(out, "cuprobe_%s", rows[r].name);
                put_proc_labels(out, i, g, pr);
                fprintf(out, "%lld\n", (long long)val);
            }
        }
    }
}

/* The exposition; see telemetry.h. */
void cp_tele_prom(FILE *out, const cp_tele_frame *f, const cp_tele_fields *fl,
                  const cp_tele_verdicts *v)
{
    cp_tele_prom_pods(out, f, fl, v, NULL);
}

/* The exposition with pod labels; see telemetry.h. */
void cp_tele_prom_pods(FILE *out, const cp_tele_frame *f, const cp_tele_fields *fl,
                       const cp_tele_verdicts *v, const cp_podres_map *pods)
{
    const cp_podres_dev *pd[CP_MAX_GPUS];
    for (int i = 0; i < CP_MAX_GPUS; i++)
        pd[i] = i < f->ngpu ? cp_podres_find(pods, f->gpu[i].inv.uuid) : NULL;
    head(out, "sampler_nvml_up", "gauge", "1: NVML is loaded and initialised in the sampler's child");
    fprintf(out, "cuprobe_sampler_nvml_up %d\n", f->nvml_ok ? 1 : 0);
    head(out, "sampler_tick_seconds", "gauge", "how long the last tick took, request to answer");
    fprintf(out, "cuprobe_sampler_tick_seconds %.6f\n", f->tick_ms / 1e3);
    head(out, "sampler_restarts_total", "counter",
         "sampler children killed for not answering within the deadline, and started again");
    fprintf(out, "cuprobe_sampler_restarts_total %lld\n", (long long)f->restarts);

    if (f->ngpu > 0) {
        head(out, "gpu_up", "gauge",
             "1: the GPU answered this tick; 0: stale, lost or hung (its other series are absent)");
        for (int i = 0; i < f->ngpu; i++) {
            fputs("cuprobe_gpu_up", out);
            put_gpu_labels(out, i, &f->gpu[i], pd[i]);
            fprintf(out, "} %d\n", f->gpu[i].state == CP_TELE_OK ? 1 : 0);
        }
        head(out, "gpu_state", "gauge",
             "1 for the GPU's state this tick: ok, stale (no answer in time), lost (fallen off the "
             "bus), hung (an NVML call on it never returned), error");
        static const cp_tele_state states[] = { CP_TELE_OK, CP_TELE_STALE, CP_TELE_LOST, CP_TELE_HUNG,
                                                CP_TELE_ERROR };
        for (int i = 0; i < f->ngpu; i++)
            for (size_t k = 0; k < sizeof states / sizeof states[0]; k++) {
                fputs("cuprobe_gpu_state", out);
                put_gpu_labels(out, i, &f->gpu[i], pd[i]);
                fprintf(out, ",state=\"%s\"} %d\n", cp_tele_state_name(states[k]),
                        f->gpu[i].state == states[k] ? 1 : 0);
            }
    }
    for (int k = 0; k < fl->n && f->ngpu > 0; k++) {
        const cp_tele_metric *m = &table[fl->idx[k]];
        int any = 0;
        for (int i = 0; i < f->ngpu; i++)
            any |= CP_KNOWN(cp_tele_metric_raw(m, &f->gpu[i]));
        if (!any)
            continue;   /* unknown everywhere: no series, never a 0 */
        char name[96];
        snprintf(name, sizeof name, "gpu_%s", m->name);
        head(out, name, m->type, m->help);
        for (int i = 0; i < f->ngpu; i++) {
            int64_t val = cp_tele_metric_raw(m, &f->gpu[i]);
            if (!CP_KNOWN(val))
                continue;
            fprintf(out, "cuprobe_%s", name);
            put_gpu_labels(out, i, &f->gpu[i], pd[i]);
            fputs("} ", out);
            put_value(out, m, val);
            fputc('\n', out);
        }
    }
    int any_reasons = 0, any_xid = 0;
    for (int i = 0; i < f->ngpu; i++) {
        any_reasons |= f->gpu[i].state == CP_TELE_OK && CP_KNOWN(f->gpu[i].s.clock_event_reasons);
        any_xid |= f->gpu[i].nxid > 0 || f->gpu[i].xid_other > 0;
    }
    if (any_reasons) {
        head(out, "gpu_clock_event_reason", "gauge",
             "1: this reason holds the clocks down now (gpu_idle and applications_clocks_setting "
             "are normal; the slowdowns and caps cost speed)");
        for (int i = 0; i < f->ngpu; i++) {
            const cp_tele_gpu *g = &f->gpu[i];
            if (g->state != CP_TELE_OK || !CP_KNOWN(g->s.clock_event_reasons))
                continue;
            int64_t bit;
            const char *word;
            for (int r = 0; cp_clock_event_reason(r, &bit, &word); r++) {
                fputs("cuprobe_gpu_clock_event_reason", out);
                put_gpu_labels(out, i, g, pd[i]);
                fputs(",reason=", out);
                label_word(out, word);
                fprintf(out, "} %d\n", (g->s.clock_event_reasons & bit) ? 1 : 0);
            }
        }
    }
    if (any_xid) {
        head(out, "gpu_xid_errors_total", "counter",
             "XID events by code since the sampler started (xid=\"other\": codes past the first 16)");
        for (int i = 0; i < f->ngpu; i++) {
            const cp_tele_gpu *g = &f->gpu[i];
            for (int k = 0; k < g->nxid; k++) {
                fputs("cuprobe_gpu_xid_errors_total", out);
                put_gpu_labels(out, i, g, pd[i]);
                fprintf(out, ",xid=\"%lld\"} %lld\n", (long long)g->xid[k].code,
                        (long long)g->xid[k].count);
            }
            if (g->xid_other) {
                fputs("cuprobe_gpu_xid_errors_total", out);
                put_gpu_labels(out, i, g, pd[i]);
                fprintf(out, ",xid=\"other\"} %lld\n", (long long)g->xid_other);
            }
        }
    }
    put_procs(out, f);
    if (v && v->n > 0) {
        head(out, "layer_status", "gauge",
             "1 for each layer's status in cuprobe's level-1 diagnosis (pass, warn, fail, skip, "
             "blocked: above a failed layer)");
        for (int l = 0; l < v->n; l++)
            for (int k = 0; v->statuses[k]; k++)
                fprintf(out, "cuprobe_layer_status{layer=\"%s\",status=\"%s\"} %d\n", v->layer[l],
                        v->statuses[k], strcmp(v->status[l], v->statuses[k]) == 0 ? 1 : 0);
        head(out, "doctor_timestamp_seconds", "gauge", "when the diagnosis above was made (Unix time)");
        fprintf(out, "cuprobe_doctor_timestamp_seconds %.3f\n", v->unix_s);
    }
}
