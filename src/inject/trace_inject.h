/*
 * What the injection library's files (trace_inject.c, trace_counters.c,
 * trace_stacks.c) share: the way into the trace file, the one CUPTI
 * subscriber and the one-line complaint.
 */
#ifndef CUPROBE_TRACE_INJECT_H
#define CUPROBE_TRACE_INJECT_H

#include <stddef.h>
#include <cupti.h>

/* Queue n encoded bytes (whole records) for the writer thread; dropped when
 * the library is not writing (untraced, after fork, out of memory). */
void cp_inject_write(const unsigned char *data, size_t n);
/* Hand n malloc'ed bytes (whole records) to the writer without waiting:
 * 1 when it took them (and frees them), 0 when not now (the lock is taken,
 * the queue is full, the library is not writing: the caller keeps them). */
int cp_inject_offer(unsigned char *data, size_t n);
/* The library's one CUPTI subscriber (CUPTI takes one a process): made at
 * the first call through the libcupti handle, its callback sends the
 * resource domain to cp_counters_callback and the runtime and driver API
 * domains to cps_callback (trace_stacks.h).  Every call gets the same
 * handle in *out and the same result (not CUPTI_SUCCESS: another tool holds
 * the subscription, or libcupti has no callback API), so each part says
 * the failure in its own words.  Called from the start-up thread only. */
CUptiResult cp_inject_subscriber(void *libcupti, CUpti_SubscriberHandle *out);
/* One line "cuprobe-trace: what: detail" on stderr (never stdout). */
void cp_inject_say(const char *what, const char *detail);

/* Hardware counters (trace_counters.c), on when CUPROBE_TRACE_COUNTERS=1:
 * start with the dlopen'ed libcupti, on the one subscriber (returns 1 when PM sampling was set up
 * to start on each GPU as its first context is made, 0 when counters are
 * missing: the reason is written to the trace and said on stderr), and stop
 * before the trace is flushed at exit (decoding what is left). */
int cp_counters_start(void *libcupti);
void cp_counters_stop(void);
/* The resource callback that starts a GPU's sampling at its first context
 * (CUPTI_CBID_RESOURCE_CONTEXT_CREATED; other ids are ignored).  CUPTI takes
 * one subscriber per process: cp_inject_subscriber's callback forwards to it. */
void cp_counters_callback(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data);

#endif
