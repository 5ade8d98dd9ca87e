/*
 * cuprobe trace: the trace files the injection library (libcuprobe-trace.so)
 * writes, their reader and writer, and the analysis of what they hold: is
 * the GPU busy, or waiting on the host, and why.  The file format is
 * docs/trace-format.md; the JSON report's schema docs/trace.schema.json.
 * Everything here is pure C over memory or plain files: no GPU, no CUPTI.
 */
#ifndef CUPROBE_TRACE_H
#define CUPROBE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CP_TRACE_MAGIC "CPTRACE1"
#define CP_TRACE_VERSION 1u
#define CP_TRACE_HEADER_SIZE 32u
#define CP_TRACE_REC_HEAD 8u          /* u16 type, u16 size, u32 zero */
#define CP_TRACE_MAX_STRING 4096u     /* longest string a file may hold */
#define CP_TRACE_MAX_STRING_ID (1u << 20)   /* largest string id */
#define CP_TRACE_SUFFIX ".cptrace"
/* Bounds the reader holds times to, so no sum of them can overflow: a time
 * past 2^62 ns is skipped, a record longer than 2^40 ns (18 minutes) cut. */
#define CP_TRACE_MAX_TIME (INT64_C(1) << 62)
#define CP_TRACE_MAX_DURATION (INT64_C(1) << 40)

/* Record types; the numbers are the file's and never change. */
typedef enum {
    CP_TREC_STRING = 1, CP_TREC_KERNEL = 2, CP_TREC_MEMCPY = 3, CP_TREC_MEMSET = 4,
    CP_TREC_SYNC = 5, CP_TREC_API = 6, CP_TREC_OVERHEAD = 7, CP_TREC_DROPPED = 8,
    CP_TREC_COUNTERS = 11, CP_TREC_SAMPLE = 12,
    CP_TREC_END = 13,              /* the library's last record: how the process ended */
    CP_TREC_TYPES
} cp_trec_type;

/* Where in the program (docs/trace-format.md): the host call stack at an API
 * call, and the loaded objects its addresses fall in.  Both vary in length. */
enum { CP_TREC_STACK = 9, CP_TREC_MODULE = 10 };
#define CP_TREC_STACK_HEAD 16u       /* u64 thread, u32 correlation id, u16 depth, u8 domain, u8 flags */
#define CP_TREC_MODULE_HEAD 32u      /* u64 start, end, bias, u32 path length, u32 build-id length */
#define CP_TRACE_MAX_BUILD_ID 32u    /* a build id's bytes at most */
#define CP_TRACE_MAX_DEPTH 128u      /* frames a stack holds at most (PyTorch is deep below its Python frame) */
#define CP_STACK_SAMPLED 1u          /* flags: a sampled call, not a synchronising one */
#define CP_STACK_PYTHON 2u           /* flags: the interpreter's own frames follow the addresses */
#define CP_TRACE_MAX_PYFRAMES 2048u  /* their text's bytes at most */

/* Body sizes of the fixed-size records (after the 8-byte record head). */
#define CP_TREC_KERNEL_BODY 64u
#define CP_TREC_MEMCPY_BODY 40u
#define CP_TREC_MEMSET_BODY 40u
#define CP_TREC_SYNC_BODY 40u
#define CP_TREC_API_BODY 40u
#define CP_TREC_OVERHEAD_BODY 24u
#define CP_TREC_DROPPED_BODY 16u
#define CP_TREC_END_BODY 16u
#define CP_TREC_COUNTERS_BODY 64u
#define CP_TREC_SAMPLE_BODY 32u

/* Hardware counters (`cuprobe trace --counters`, docs/trace-format.md): a
 * COUNTERS record says how they were set up on a device (or why not), SAMPLE
 * records hold PM sampling's intervals.  String ids from this one up are the
 * counter library's (metric names, reasons); kernel names stay below. */
#define CP_TRACE_COUNTER_STRINGS (CP_TRACE_MAX_STRING_ID - 63u)
#define CP_CTR_ALL_DEVICES UINT32_MAX        /* COUNTERS' device when the failure came before any */
#define CP_CTR_NO_VALUE INT32_MIN            /* a SAMPLE value CUPTI did not give */
/* COUNTERS' status: why counters are there or missing. */
typedef enum {
    CP_CTR_OK = 0, CP_CTR_UNSUPPORTED = 1, CP_CTR_PRIVILEGES = 2, CP_CTR_BUSY = 3, CP_CTR_NO_API = 4,
    CP_CTR_FAILED = 5, CP_CTR_STATUSES
} cp_ctr_status;

/* Copy direction (CUPTI's CUpti_ActivityMemcpyKind numbers). */
enum { CP_COPY_UNKNOWN = 0, CP_COPY_HTOD = 1, CP_COPY_DTOH = 2, CP_COPY_HTOA = 3, CP_COPY_ATOH = 4,
       CP_COPY_ATOA = 5, CP_COPY_ATOD = 6, CP_COPY_DTOA = 7, CP_COPY_DTOD = 8, CP_COPY_HTOH = 9,
       CP_COPY_PTOP = 10 };
/* Memory kind of a copy's ends (CUPTI's CUpti_ActivityMemoryKind numbers). */
enum { CP_MEM_UNKNOWN = 0, CP_MEM_PAGEABLE = 1, CP_MEM_PINNED = 2, CP_MEM_DEVICE = 3, CP_MEM_ARRAY = 4,
       CP_MEM_MANAGED = 5, CP_MEM_DEVICE_STATIC = 6, CP_MEM_MANAGED_STATIC = 7 };
/* API domains. */
enum { CP_API_RUNTIME = 1, CP_API_DRIVER = 2 };
/* Synchronisation types (CUPTI's CUpti_ActivitySynchronizationType numbers). */
enum { CP_SYNC_EVENT_SYNC = 1, CP_SYNC_STREAM_WAIT_EVENT = 2, CP_SYNC_STREAM_SYNC = 3, CP_SYNC_CONTEXT_SYNC = 4 };

/* One record of any type: the fields its type uses are set, the rest 0.
 * Times are nanoseconds on CUPTI's clock. */
typedef struct {
    uint16_t type;                       /* cp_trec_type */
    uint8_t copy_kind, src_kind, dst_kind, domain;
    uint32_t device, stream, context, corr;
    uint32_t name;                       /* string id: kernel or API name (0: none) */
    uint32_t cbid, sync_type, overhead_kind;
    int64_t start, end;
    uint64_t bytes;                      /* copies and memsets; DROPPED: the count */
    uint64_t tid;                        /* API: the host thread */
    uint32_t signal;                     /* END: the fatal signal flushed at, 0: exit */
    int32_t grid[3], block[3];
    /* COUNTERS: status (cp_ctr_status), the metric names (string ids: SM, DRAM, a
     * second DRAM one summed with it; 0 none), the reason in name, the sampling
     * interval in bytes (ns), start = end = cuptiGetTimestamp() when the clocks
     * below were read (CLOCK_REALTIME, CLOCK_MONOTONIC, ns) */
    uint32_t ctr_status, ctr_metric[3];
    int64_t clk_real, clk_mono;
    /* SAMPLE: the interval on PM sampling's clock, SM and DRAM throughput in
     * hundredths of a percent of peak (CP_CTR_NO_VALUE: none) */
    int32_t sm_cpct, dram_cpct;
} cp_trace_rec;

/* A host call stack at an API call, as read; the symbolised names are set
 * by cp_trace_symbolise. */
typedef struct {
    uint64_t tid;
    uint32_t corr;                       /* the API call's correlation id */
    uint16_t depth;                      /* addresses at pcs[first ..] */
    uint8_t domain, flags;
    size_t first;
    char *python;                        /* the interpreter's frames, "function\tfile\tline\n" each, or NULL */
    char *where;                         /* the innermost frame of the program ("train.py:step"), or NULL */
    char *frames;                        /* the frames, innermost first, or NULL */
} cp_trace_stack;

/* A loaded object of the traced process: [start, end) mapped, file
 * addresses = address - bias. */
typedef struct {
    uint64_t start, end, bias;
    char *path;
    unsigned char build_id[CP_TRACE_MAX_BUILD_ID];   /* the GNU build id the process had loaded */
    size_t build_id_len;                             /* 0: none known */
} cp_trace_module;

/* A perf map entry (/tmp/perf-<pid>.map: "START SIZE NAME", hex). */
typedef struct {
    uint64_t start, size;
    char *name;
} cp_trace_perfsym;

/* One process's trace, as read. */
typedef struct {
    uint32_t version, pid;
    int64_t wall_start_ns;               /* CLOCK_REALTIME at the start, for the report only */
    cp_trace_rec *recs;
    size_t n, cap;
    char **strings;                      /* strings[id], NULL where the file named none */
    size_t nstrings;
    uint64_t dropped;                    /* the sum of the DROPPED records */
    int truncated;                       /* the file ended inside a record (a killed process) */
    int ended;                           /* an END record was read: the library's last flush ran */
    uint32_t end_signal;                 /* its signal: 0 at exit, else the signal the process died of */
    uint64_t skipped;                    /* records with a time out of bounds, left out */
    cp_trace_stack *stacks;              /* STACK records, in file order */
    size_t nstacks, capstacks;
    uint64_t *pcs;                       /* their return addresses */
    size_t npcs, cappcs;
    cp_trace_module *mods;               /* MODULE records, in file order */
    size_t nmods, capmods;
    cp_trace_perfsym *perf;              /* the perf map (cp_trace_perfmap_parse), sorted by start */
    size_t nperf;
} cp_trace;

/* Encode the header, a record, a string: write at most cap bytes to dst and
 * return the bytes the encoding takes (larger than cap: nothing useful was
 * written; 0: the record cannot be encoded, e.g. a string over the limit). */
size_t cp_trace_encode_header(unsigned char *dst, size_t cap, uint32_t pid, int64_t wall_start_ns);
size_t cp_trace_encode_rec(unsigned char *dst, size_t cap, const cp_trace_rec *r);
size_t cp_trace_encode_string(unsigned char *dst, size_t cap, uint32_t id, const char *s, size_t len);
/* A STACK record of depth addresses (at most CP_TRACE_MAX_DEPTH, innermost
 * first), with the interpreter's frames (py, pylen bytes, at most
 * CP_TRACE_MAX_PYFRAMES; NULL: none), and a MODULE record (a path of at most
 * CP_TRACE_MAX_STRING bytes). */
size_t cp_trace_encode_stack(unsigned char *dst, size_t cap, uint64_t tid, uint32_t corr, unsigned domain,
                             unsigned flags, const uint64_t *pcs, size_t depth, const char *py, size_t pylen);
size_t cp_trace_encode_module(unsigned char *dst, size_t cap, uint64_t start, uint64_t end, uint64_t bias,
                              const char *path, size_t len, const unsigned char *build_id, size_t idlen);
/* The GNU build id (an NT_GNU_BUILD_ID note) in n bytes of ELF notes into
 * id (CP_TRACE_MAX_BUILD_ID bytes): its length, 0 when there is none. */
size_t cp_trace_note_build_id(const unsigned char *notes, size_t n, unsigned char *id);
/* 1 when an API call of this name waits for the GPU: *Synchronize*, and a
 * copy without Async (it waits for the work queued before it). */
int cp_trace_is_sync_name(const char *name);

/* Parse a whole file held in memory into *t (zeroed first).  Returns 0, or -1
 * with a reason in err (bad magic, an unknown version, a record shorter than
 * its type, out of memory); a file cut inside its last record is read up to
 * it with t->truncated set.  Unknown record types are skipped (newer files). */
int cp_trace_parse(const unsigned char *data, size_t n, cp_trace *t, char *err, size_t errn);
/* Free what a parse kept and zero *t. */
void cp_trace_free(cp_trace *t);
/* The string with id, or NULL. */
const char *cp_trace_str(const cp_trace *t, uint32_t id);

/* Where in the program (src/lib/trace/symbols.c).  Parse a perf map's text
 * into t->perf (replacing what was there; malformed lines skipped).
 * Returns the entries kept, or -1 (out of memory). */
int cp_trace_perfmap_parse(cp_trace *t, const char *text, size_t n);
/* Name every stack's frames: an address in a perf map entry is a Python
 * function ("py::step:/path/train.py"); one in a module the nearest symbol
 * of that file's ELF .symtab or .dynsym (read now, from the module's path,
 * and only when its GNU build id is the one recorded), else module+offset.  Sets each stack's frames and where (the first Python
 * frame, else the first frame outside the CUDA, PyTorch, C and Python
 * runtimes' own libraries).  Returns 0, or -1 (out of memory). */
int cp_trace_symbolise(cp_trace *t);
/* The nearest function symbol at or below file address va of an ELF image
 * held in memory (.symtab, else .dynsym): its name into out and va's
 * offset from it into *off; 0, or -1 (none, or not an ELF file). */
int cp_trace_elf_symbol(const unsigned char *data, size_t n, uint64_t va, char *out, size_t outn, uint64_t *off);
/* The GNU build id of an ELF image in memory (its SHT_NOTE sections) into
 * id (CP_TRACE_MAX_BUILD_ID bytes): its length, 0 when it has none, -1 when
 * it is not a readable ELF file. */
int cp_trace_elf_build_id(const unsigned char *data, size_t n, unsigned char *id);

/* Analysis options. */
typedef struct {
    int64_t launch_gap_ns;   /* a gap between two kernels below this is launch overhead (default 50 us) */
    int top_gaps;            /* how many of the longest idle gaps to list (default 10) */
    int windows;             /* phases: the span cut into this many windows (default 10) */
    int top_kernels;         /* rows of the kernel table (default 15) */
} cp_trace_opts;
#define CP_TRACE_OPTS_DEFAULT { 50000, 10, 10, 15 }

/* What bounds a kernel, from its counters: SM or DRAM throughput at least
 * CP_TRACE_BOUND_PCT % of peak (the higher one names it), else neither
 * (latency, occupancy, launch configuration). */
typedef enum { CP_BOUND_UNMEASURED = 0, CP_BOUND_COMPUTE, CP_BOUND_MEMORY, CP_BOUND_NEITHER } cp_trace_bound;
#define CP_TRACE_BOUND_PCT 60.0

typedef struct {
    uint32_t name;
    const char *label;       /* the kernel's name (or "?") */
    uint64_t count;
    int64_t total_ns, mean_ns;
    double share;            /* of this GPU's kernel time, 0..1 */
    /* hardware counters (--counters): the samples' values weighted by their
     * overlap with this kernel's runs, NAN without; sampled_ns that overlap */
    double sm_pct, dram_pct;
    int64_t sampled_ns;
    cp_trace_bound bound;
} cp_trace_kernel_row;

/* The counters of one process on one GPU. */
typedef struct {
    int asked;               /* a COUNTERS record names this GPU (or every one): --counters was on */
    cp_ctr_status status;
    const char *reason;      /* why they are missing (status not OK), or NULL */
    const char *sm_metric, *dram_metric, *dram_metric2;   /* CUPTI's names; the second DRAM one summed */
    const char *clock;       /* the samples' clock as found: "cupti", "realtime", "monotonic" */
    int64_t interval_ns;     /* the samples' mean length; the interval asked when there are none */
    int64_t asked_interval_ns;   /* CUPROBE_TRACE_COUNTERS_US (the SYS clock trigger comes near it) */
    uint64_t samples;        /* this GPU's samples */
    int64_t sampled_kernel_ns;   /* kernel time the samples overlap */
} cp_trace_counters;

typedef struct {
    int64_t start, end;
    char kind;               /* 'h' host, 'l' launch, 's' sync, 'm' loading GPU code */
    const char *api;         /* the API call in progress (most overlap), or NULL */
    const char *where;       /* the program's frame at the API call in progress that has a stack, or NULL */
    const char *stack;       /* that call's frames, or NULL */
} cp_trace_gap;

/* Synchronisation idle time gathered by the program's place that waited. */
#define CP_TRACE_NO_PROGRAM_FRAME "(a stack with no frame of the program)"
typedef struct {
    const char *where;       /* "train.py:step", CP_TRACE_NO_PROGRAM_FRAME, or NULL: no stack was recorded */
    const char *api;         /* the synchronising call, or NULL: none named */
    int64_t ns;
    uint64_t gaps;
    uint64_t sampled;        /* synchronising calls whose stack names this place */
    uint64_t calls;          /* sampled, and the calls without a stack shared out as those (their ns and gaps too) */
} cp_trace_site;

typedef struct {
    int64_t start, end, busy_ns;
} cp_trace_window;

/* Verdicts, worst cause first in the JSON's vocabulary. */
typedef enum {
    CP_TV_NO_WORK = 0, CP_TV_GPU_BOUND, CP_TV_SYNC_BOUND, CP_TV_LAUNCH_BOUND, CP_TV_HOST_BOUND,
    CP_TV_PAGEABLE_BOUND
} cp_trace_verdict;

/* One process on one GPU. */
typedef struct {
    uint32_t pid, device;
    int64_t span_start, span_end, span_ns;   /* the span: this GPU's first work to its last (in the window) */
    int64_t startup_ns, tail_ns;              /* the process's records (window) before and after the span */
    int64_t window_start, window_end;         /* the program's cudaProfilerStart..Stop range; 0, 0: none */
    int64_t busy_ns;                          /* union of kernel, copy and memset time */
    int64_t kernel_ns;                        /* union of kernel time */
    int64_t pageable_ns;                      /* pageable copies not overlapped by other work */
    int64_t idle_host_ns, idle_launch_ns, idle_sync_ns;   /* span - busy, split */
    int64_t idle_load_ns;                     /* ... and the host loading GPU code (once per module) */
    uint64_t kernels, copies, memsets;
    uint64_t pageable_bytes, pinned_bytes;
    int64_t pageable_copy_ns, pinned_copy_ns;  /* the sums of the copies' own durations */
    double pageable_gbps, pinned_gbps;         /* bytes / duration, NAN if none */
    cp_trace_kernel_row *ktab;
    size_t nk;                                 /* rows (all kernels; the renderers cut at top_kernels) */
    cp_trace_gap *gaps;
    size_t ngaps;                              /* the longest, longest first */
    cp_trace_window *win;
    size_t nwin;
    cp_trace_site *sites;                      /* idle_sync_ns by place, most first */
    size_t nsites;
    cp_trace_verdict verdict;
    cp_trace_counters ctr;
    uint64_t nccl_kernels;                     /* NCCL's kernels (ncclKernel_*, ncclDevKernel_*) in the span */
    int64_t nccl_ns;                           /* the sum of their durations */
    int64_t nccl_wait_ns;                      /* of it, waiting for the slowest rank (see cp_trace_collectives) */
} cp_trace_gpu;

/* One host thread of a process: its CUDA API calls and the work they queued. */
typedef struct {
    uint64_t tid;                              /* CUPTI's thread id */
    uint64_t api_calls;
    int64_t api_ns;                            /* the union of its API calls (nested ones once) */
    int64_t sync_ns;                           /* the union of its synchronising calls */
    uint64_t kernels, copies;                  /* kernels, and copies and memsets, it launched */
    uint32_t streams;                          /* distinct streams that work ran on */
    int64_t first;                             /* its first call's start */
} cp_trace_thread;

/* One traced process: how its trace ended, and its host threads. */
typedef struct {
    uint32_t pid;
    int truncated;                             /* its file ends inside a record */
    int ended;                                 /* the library's last flush ran (an END record) */
    uint32_t end_signal;                       /* ended: 0 at exit, else the fatal signal */
    size_t gpus;                               /* GPUs it did work on */
    uint64_t kernels, copies;                  /* over its GPUs (copies with memsets) */
    uint64_t unattributed;                     /* of them, work no recorded API call launched */
    cp_trace_thread *threads;                  /* first call first */
    size_t nthreads;
} cp_trace_proc;

typedef struct {
    cp_trace_opts opts;
    cp_trace_proc *procs;                      /* one per trace, in the traces' order */
    size_t nprocs;
    cp_trace_gpu *gpus;
    size_t ngpus;
    uint64_t dropped;                          /* over every process */
    uint64_t api_calls, overhead_records;
    uint64_t stacks;                           /* STACK records over every process */
    size_t processes;
    int truncated;                             /* some file ended inside a record */
    struct {
        size_t ranks;                          /* GPU entries (process, GPU) with NCCL kernels */
        size_t matched;                        /* collectives matched across them, in order */
        int has_slowest;                       /* some rank waited: matched collectives of unequal lengths */
        size_t slowest;                        /* the gpus[] entry the others wait for (it waited least) */
    } coll;
} cp_trace_report;

/* Analyse n traces (one per process).  Returns 0, or -1 (out of memory).
 * The report points into the traces' strings: keep them until it is freed. */
int cp_trace_analyze(const cp_trace *traces, size_t n, const cp_trace_opts *o, cp_trace_report *r);
void cp_trace_report_free(cp_trace_report *r);
/* The counters of t on g's device into g->ctr and g->ktab's counter fields
 * (src/lib/trace/counters.c): each SAMPLE's interval, moved onto CUPTI's
 * clock, weighs its values on the kernels it overlaps.  0, or -1 (out of
 * memory).  cp_trace_analyze calls it. */
int cp_trace_counters_attribute(const cp_trace *t, cp_trace_gpu *g);
/* NCCL's kernels on each of r's GPU entries (nccl_kernels, nccl_ns) and,
 * where two or more entries (a data-parallel job's ranks) have them, how
 * long each waited for the slowest rank: the k-th NCCL kernels of the
 * ranks are matched while their names agree, and each one's duration
 * beyond the shortest of them is waiting (nccl_wait_ns, r->coll)
 * (src/lib/trace/collectives.c).  0, or -1 (out of memory).
 * cp_trace_analyze calls it. */
int cp_trace_collectives(const cp_trace *traces, size_t n, cp_trace_report *r);
/* "compute-bound", "memory-bound", "neither", "unmeasured". */
const char *cp_trace_bound_name(cp_trace_bound b);
/* A COUNTERS status in a word ("ok", "unsupported", "no-permission", "busy",
 * "no-api", "failed"). */
const char *cp_trace_ctr_status_name(cp_ctr_status s);
/* Verdict name ("gpu-bound") and a plain-words sentence with the fix. */
const char *cp_trace_verdict_name(cp_trace_verdict v);
const char *cp_trace_verdict_advice(cp_trace_verdict v);

/* Renderers.  Each returns 0, or -1 when writing failed. */
int cp_trace_render_text(FILE *out, const cp_trace_report *r);
int cp_trace_render_json(FILE *out, const cp_trace_report *r);
/* Chrome trace event / Perfetto JSON of the timeline (every record). */
int cp_trace_render_chrome(FILE *out, const cp_trace *traces, size_t n);
/* One self-contained HTML page: timeline and idle breakdown, no network. */
int cp_trace_render_html(FILE *out, const cp_trace_report *r, const cp_trace *traces, size_t n);

/* Read every *.cptrace file of dir (sorted by name) into a fresh array,
 * with the perf map <pid>.perf.map beside each where there is one, and
 * symbolise their stacks.  Returns the count (0: none there) or -1 with a
 * reason in err. */
int cp_trace_load_dir(const char *dir, cp_trace **out, char *err, size_t errn);
void cp_trace_free_all(cp_trace *t, size_t n);

#endif
