/*
 * Inside the sampler: the child's side (child.c) and what both sides say
 * through the pipe.
 *
 * The child answers in the answers format (facts/kv.h).  Once started:
 *
 *     tele.error WHY                 only when NVML cannot be used
 *     tele.ndev N
 *     nvml.dev.I.NAME VALUE          inventory rows of each GPU asked
 *     tele.dev.I.inv 1               GPU I's inventory is whole (sent at once)
 *     tele.ready ok | fail
 *
 * then, for each request byte ('t'), one block per tick:
 *
 *     nvml.dev.I.NAME VALUE          sample rows of GPU I (state ok only)
 *     tele.dev.I.state ok|lost|error
 *     tele.dev.I.result N            the nvmlReturn_t behind lost or error
 *     tele.dev.I.done 1              GPU I is whole (sent at once)
 *     tele.dev.I.xid CODE            one line per XID event read this tick
 *     tele.xid_more 1                events were left for the next tick
 *     tele.tick.end 1
 *
 * A GPU's lines are sent as soon as it is done, so a later GPU that hangs
 * leaves the earlier ones answered and says which one it was.
 */
#ifndef CP_TELE_INT_H
#define CP_TELE_INT_H

#include "cuprobe/telemetry.h"
#include "util/buf.h"

/* What the parent tells a new child: the GPUs it must not touch (a call on
 * them hung before) and whether the event API hung before. */
typedef struct {
    int req_fd;                      /* the request socket's child end */
    unsigned char skip[CP_MAX_GPUS];
    int no_events;
} cp_tele_child_arg;

/* The child's state between ticks; opaque outside child.c. */
typedef struct cp_tele_child cp_tele_child;

/* Load NVML, init, read the inventory and set up events and GPM; the
 * start lines go to b.  Never NULL unless out of memory (a failed start is
 * an answer: tele.ready fail); flush(farg) after each GPU's inventory. */
cp_tele_child *cp_tele_child_start(const cp_tele_child_arg *a, cp_buf *b,
                                   void (*flush)(void *arg), void *farg);
/* One tick: sample every GPU, read the events; flush(arg) is called after
 * each GPU's lines so they leave at once (may be NULL). */
void cp_tele_child_tick(cp_tele_child *c, cp_buf *b, void (*flush)(void *arg), void *arg);
/* nvmlShutdown, free the GPM samples and the event set, free c. */
void cp_tele_child_end(cp_tele_child *c);

#endif
