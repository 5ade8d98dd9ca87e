/*
 * The call-stack capture of libcuprobe-trace.so (trace_stacks.c): a CUPTI
 * callback subscription whose entry handler takes the host's native stack at
 * synchronising API calls (always) and at other calls (sampled), and the
 * map of loaded objects that lets the stacks be symbolised after the
 * process is gone.  It encodes STACK and MODULE records
 * (docs/trace-format.md) into bytes that trace_inject.c writes with the rest.
 */
#ifndef CUPROBE_TRACE_STACKS_H
#define CUPROBE_TRACE_STACKS_H

#include <stddef.h>

/* Hands len bytes (malloc'ed; ownership passes on 1) to the writer without
 * waiting; 0: not now (the caller keeps them). */
typedef int (*cps_offer_fn)(unsigned char *data, size_t len);
/* One line on stderr ("cuprobe-trace: what: detail"). */
typedef void (*cps_say_fn)(const char *what, const char *detail);

/* Subscribe to CUPTI's callback API through the libcupti handle cupti and
 * record the loaded objects.  Returns 1 when stacks are captured, 0 when not
 * (CUPROBE_TRACE_STACKS=0, or another tool holds the one subscription: said
 * once through say); the activity trace goes on either way. */
int cps_start(void *cupti, cps_say_fn say, cps_offer_fn offer);
/* The bytes encoded and not yet handed over (malloc'ed, the caller's), or
 * NULL; *len their count. */
unsigned char *cps_take(size_t *len);
/* At exit: record objects loaded since, and take no more stacks. */
void cps_stop(void);
/* In a forked child: take no stacks (the child is untraced). */
void cps_child(void);

#endif
