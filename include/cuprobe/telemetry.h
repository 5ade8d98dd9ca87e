/*
 * cuprobe telemetry: what the GPUs are doing, tick by tick, with what each
 * number means (`cuprobe monitor`, `cuprobe exporter`).
 *
 * The sampler asks NVML in a long-lived child process, never in this one
 * (a GPU that fell off the bus hangs NVML inside the kernel).  The child
 * initialises NVML once, reads each GPU's inventory, then samples every GPU
 * when asked and sends one block of answers per tick through a pipe.  This
 * side waits for each tick under a deadline:
 *
 *   - a GPU that did not answer in time is STALE this tick: its sample is
 *     unknown, never 0;
 *   - a child that stops answering is killed and started again at the next
 *     tick; the GPU it hung on is left alone from then on (HUNG), so the
 *     others keep being sampled;
 *   - a GPU that NVML calls lost (NVML_ERROR_GPU_IS_LOST) is LOST and no
 *     longer asked; the others go on.
 *
 *     cp_tele *t = cp_tele_open(&opts);
 *     for (;;) { const cp_tele_frame *f = cp_tele_tick(t); ...; sleep; }
 *     cp_tele_close(t);
 *
 * A caller with a poll loop of its own (the exporter) drives a tick in
 * steps instead: cp_tele_begin, then cp_tele_fd in its poll set and
 * cp_tele_step until it answers 1.
 */
#ifndef CUPROBE_TELEMETRY_H
#define CUPROBE_TELEMETRY_H

#include <stddef.h>
#include <stdio.h>
#include "cuprobe/facts.h"

typedef enum {
    CP_TELE_OK = 0,   /* answered this tick */
    CP_TELE_STALE,    /* no answer within this tick's deadline */
    CP_TELE_LOST,     /* NVML_ERROR_GPU_IS_LOST: fallen off the bus, no longer asked */
    CP_TELE_HUNG,     /* an NVML call on it never returned: no longer asked */
    CP_TELE_ERROR     /* NVML refused it (nvml_result says how) */
} cp_tele_state;

/* "ok", "stale", "lost", "hung", "error". */
const char *cp_tele_state_name(cp_tele_state s);

/* XID counts by code, kept since the sampler started. */
#define CP_TELE_XID_CODES 16
typedef struct {
    int64_t code, count;
} cp_tele_xid;

typedef struct {
    cp_nvml_inventory inv;       /* read once, when the child starts */
    cp_nvml_sample s;            /* every field unknown unless state is CP_TELE_OK */
    cp_tele_state state;
    int64_t nvml_result;         /* the nvmlReturn_t that made it LOST or ERROR */
    int nxid;
    cp_tele_xid xid[CP_TELE_XID_CODES];
    int64_t xid_other;           /* events whose code found no room in xid[] */
    int64_t xid_last;            /* the last code seen, CP_UNKNOWN before any */
} cp_tele_gpu;

typedef struct {
    int64_t seq;                 /* ticks asked, from 1 */
    double unix_s;               /* wall-clock time the tick was asked */
    double tick_ms;              /* from the request to the answer (or the deadline) */
    int nvml_ok;                 /* NVML is loaded and initialised in the child */
    char error[256];             /* why not, or what happened to the child this tick */
    int64_t restarts;            /* children killed for not answering and started again */
    int64_t xid_deferred;        /* ticks whose events passed the per-tick bound */
    int ngpu;
    cp_tele_gpu gpu[CP_MAX_GPUS];
} cp_tele_frame;

typedef struct {
    int deadline_ms;             /* a tick's answer (default 1000) */
    int start_ms;                /* loading and initialising NVML in a new child (default 5000) */
    const char *proc_root;       /* where /proc/PID of the GPU processes is read (NULL: "/") */
} cp_tele_opts;

#define CP_TELE_OPTS_DEFAULTS { 1000, 5000, NULL }

/* Bounds per tick: NVML calls per GPU (a liveness call, the rows of
 * doctor's probe, then the memory clock, reserved memory, energy, PCIe
 * throughput both ways, two GPM calls, the processes' utilisation and the
 * GPU-utilisation samples), and events read
 * (nvmlEventSetWait_v2 with timeout 0) before the rest waits for the next
 * tick. */
#define CP_TELE_CALLS_PER_GPU 26
#define CP_TELE_EVENTS_PER_TICK 64

typedef struct cp_tele cp_tele;

/* A sampler; its child starts with the first tick.  NULL when out of
 * memory. */
cp_tele *cp_tele_open(const cp_tele_opts *o);

/* Ask for a tick and wait for it (at most start_ms + deadline_ms when a
 * child must be started, else deadline_ms).  The frame stays valid until
 * the next tick or cp_tele_close. */
const cp_tele_frame *cp_tele_tick(cp_tele *t);

/* The same in steps: begin asks (starting a child first when none runs);
 * fd is the descriptor to poll for input (-1 when none); step reads what
 * arrived and returns 1 once the tick is whole or its deadline passed
 * (then cp_tele_frame_of holds it), 0 while it waits; timeout_ms says how
 * long a poll may sleep before step must be called again. */
void cp_tele_begin(cp_tele *t);
int cp_tele_fd(const cp_tele *t);
int cp_tele_step(cp_tele *t);
int cp_tele_timeout_ms(const cp_tele *t);
const cp_tele_frame *cp_tele_frame_of(const cp_tele *t);

/* Kill the child and reap it (at most CP_PROBE_REAP_MS), free t. */
void cp_tele_close(cp_tele *t);

/* ---- what a tick's numbers are called and mean: one table for
 * monitor's CSV columns and JSON keys and the exporter's metric names
 * (cuprobe_gpu_NAME); units in the name, the meaning in help ---- */

enum { CP_TELE_FROM_SAMPLE, CP_TELE_FROM_INVENTORY };

typedef struct {
    const char *name;     /* "kernel_active_percent" */
    const char *unit;     /* "percent", "bytes", "hertz", "watts", ... */
    const char *type;     /* Prometheus type: "gauge" or "counter" */
    const char *help;     /* what it means, and what it does not */
    int from;             /* CP_TELE_FROM_SAMPLE or _INVENTORY */
    size_t off;           /* of the int64_t field in cp_nvml_sample or cp_nvml_inventory */
    double scale;         /* the field times scale is the value in unit */
} cp_tele_metric;

/* The table and its length. */
const cp_tele_metric *cp_tele_metric_table(int *n);
/* m's field for g, unscaled; CP_UNKNOWN when unknown or g did not answer. */
int64_t cp_tele_metric_raw(const cp_tele_metric *m, const cp_tele_gpu *g);

/* The clock-event reasons by row (the words doctor uses too): row i's bit
 * and words; 0 past the last row. */
int cp_tele_clock_reason(int i, int64_t *bit, const char **word);

/* The metrics chosen (--fields): indexes into the table. */
#define CP_TELE_MAX_FIELDS 64
typedef struct {
    int n;
    int idx[CP_TELE_MAX_FIELDS];
} cp_tele_fields;

/* "kernel_active_percent,power_watts" -> out; NULL or "" chooses every
 * metric.  Returns 0, or -1 with err naming the unknown field. */
int cp_tele_fields_parse(const char *list, cp_tele_fields *out, char *err, size_t errcap);

/* CSV: the header line, then one row per GPU a tick (unknown: an empty
 * cell).  JSON lines: one object per tick (unknown: null), each GPU with
 * its processes (pid, memory, their own kernel-active share). */
void cp_tele_csv_header(FILE *out, const cp_tele_fields *fl);
void cp_tele_csv(FILE *out, const cp_tele_frame *f, const cp_tele_fields *fl);
void cp_tele_jsonl(FILE *out, const cp_tele_frame *f, const cp_tele_fields *fl);

/* cuprobe's own verdict per layer, for the exposition (the caller runs
 * doctor: the telemetry floor sits below the checks). */
typedef struct {
    int n;
    const char *layer[16];
    const char *status[16];
    const char *const *statuses;  /* every status name, NULL-terminated */
    double unix_s;
} cp_tele_verdicts;

/* What a GPU process is called here: its comm, "pid not visible here"
 * when its /proc/PID is not in this PID namespace, "" when not known. */
const char *cp_tele_proc_name(const cp_gpu_process *p);

/* Per-process series in the exposition: at most this many a GPU. */
#define CP_TELE_PROM_PROCS CP_MAX_PROCS

/* Prometheus text exposition (format 0.0.4) of a tick: HELP and TYPE for
 * every metric, labels gpu, uuid, pci_bus_id, name; a metric unknown on a
 * GPU has no series there (never a 0); XIDs as a counter by code, clock
 * event reasons as labelled gauges, each GPU's processes (memory and
 * kernel-active share, labels gpu, uuid, pid, process, container, pod_uid;
 * at most CP_TELE_PROM_PROCS a GPU), the verdicts when v is not NULL. */
void cp_tele_prom(FILE *out, const cp_tele_frame *f, const cp_tele_fields *fl,
                  const cp_tele_verdicts *v);

/* ---- Kubernetes: the pod, namespace and container holding each GPU,
 * from the kubelet's pod-resources API (gRPC, v1.PodResourcesLister/List,
 * on a unix socket) ---- */

#define CP_PODRES_SOCKET "/var/lib/kubelet/pod-resources/kubelet.sock"
#define CP_PODRES_MAX_DEVICES 256                 /* device ids kept from one answer */
#define CP_PODRES_MAX_RESPONSE ((size_t)4 << 20)  /* the answer's bytes, at most */

typedef struct {
    char device_id[96];   /* "GPU-8f2c..." or "MIG-...", as the device plugin names it */
    char pod[256];
    char ns[64];
    char container[64];
} cp_podres_dev;

typedef struct {
    int n;
    int64_t total;        /* NVIDIA device ids in the answer, kept or not */
    cp_podres_dev dev[CP_PODRES_MAX_DEVICES];
} cp_podres_map;

/* The first container holding the GPU (or MIG device) of this UUID
 * (case-insensitive); NULL when none does or m is NULL. */
const cp_podres_dev *cp_podres_find(const cp_podres_map *m, const char *uuid);

/* The kubelet client, for a poll loop: begin starts a List call (connects
 * and queues the request; a call under way is left alone); fd and events
 * are what to poll (-1 when no call is under way); step moves the call on
 * without blocking and returns 1 once it has ended, answered or not, 0
 * while it waits; timeout_ms is how long a poll may sleep before step must
 * be called again.  Every call ends within the timeout given to open: a
 * kubelet that never answers costs that much, never more.  map_of is the
 * last good answer (NULL before one), kept when later calls fail; error
 * says why the last call failed ("" when it answered). */
typedef struct cp_podres cp_podres;
cp_podres *cp_podres_open(const char *socket_path, int timeout_ms);   /* NULL: out of memory */
void cp_podres_begin(cp_podres *c);
int cp_podres_fd(const cp_podres *c, short *events);
int cp_podres_step(cp_podres *c);
int cp_podres_timeout_ms(const cp_podres *c);
const cp_podres_map *cp_podres_map_of(const cp_podres *c);
const char *cp_podres_error(const cp_podres *c);
void cp_podres_close(cp_podres *c);

/* One List call, waited for (at most timeout_ms): 0 with out filled, or -1
 * with err saying why not. */
int cp_podres_list(const char *socket_path, int timeout_ms, cp_podres_map *out, char *err, size_t errcap);

/* cp_tele_prom, with each GPU's series also labelled pod, namespace and
 * container where pods (NULL: none) names a container holding the GPU. */
void cp_tele_prom_pods(FILE *out, const cp_tele_frame *f, const cp_tele_fields *fl,
                       const cp_tele_verdicts *v, const cp_podres_map *pods);

/* ---- the exporter's HTTP requests ---- */

#define CP_HTTP_MAX_REQUEST 8192   /* request line and headers, in all */

enum { CP_HTTP_INCOMPLETE, CP_HTTP_OK, CP_HTTP_BAD, CP_HTTP_TOO_LARGE };

typedef struct {
    char method[16];     /* "GET" */
    char path[256];      /* "/metrics", without the query */
    int minor;           /* HTTP/1.minor */
    int keep_alive;      /* 1.1 without "Connection: close", or 1.0 with keep-alive */
    size_t consumed;     /* bytes of the request, up to the empty line */
} cp_http_req;

/* Parse the bytes a client sent so far (a pure function, for any bytes):
 * CP_HTTP_OK with r filled once the request line and headers are whole;
 * CP_HTTP_INCOMPLETE while they may still come; CP_HTTP_BAD for a request
 * that is not HTTP/1.0 or 1.1 of the expected shape (a control byte, a
 * space in a header name, a folded header, a target not starting with '/');
 * CP_HTTP_TOO_LARGE past CP_HTTP_MAX_REQUEST bytes or a 256-byte target.
 * A body is not read: the exporter serves GET and HEAD only. */
int cp_http_parse(const char *buf, size_t len, cp_http_req *r);

#endif
