/*
 * libcuprobe-trace.so: a CUPTI injection library.  The CUDA driver loads it
 * when CUDA_INJECTION64_PATH names it and calls InitializeInjection from
 * cuInit.  It turns on CUPTI's activity records (kernels, copies, memsets,
 * synchronisation, runtime and driver API calls, CUPTI's overhead), encodes
 * each completed buffer into our trace format (docs/trace-format.md) and
 * hands the bytes to a background thread that writes CUPROBE_TRACE_DIR/
 * <pid>.cptrace.  Rules it keeps, whatever happens:
 *   - never block the program: buffers are handed to CUPTI from a bounded
 *     pool; when the writer falls behind, CUPTI gets no buffer and drops
 *     records, which the file counts (DROPPED records);
 *   - never print into the program's output, never exit or abort: a failure
 *     is one line on stderr ("cuprobe-trace: ...") and the program runs on
 *     untraced;
 *   - libcupti is dlopen'ed (never linked), and its version checked against
 *     the record layouts this file was built for (the 13.x headers);
 *   - the program ends as it would untraced: at exit the last buffers are
 *     flushed and an END record closes the file; a fatal signal whose
 *     disposition was the default (SIGSEGV, SIGABRT, SIGTERM, SIGINT ...) is
 *     caught once, a rescue thread flushes (5 s at most; a second signal
 *     kills at once), an END record names the signal, and the signal is
 *     raised again with the default action, so the status, the core dump
 *     and the signal are the program's own (CUPROBE_TRACE_SIGNALS=0: no
 *     handler); a forked child that does not exec is untraced and writes
 *     nothing of the parent's; SIGKILL and _exit leave a file without END.
 * Built by the Makefile only where cupti.h is found.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cupti.h>
#include "cuprobe/trace.h"
#include "trace_inject.h"
#include "trace_stacks.h"

#define EXPORT __attribute__((visibility("default")))
#define BUF_SIZE (8u << 20)          /* one CUPTI buffer */
#define MAX_BUFFERS 64u              /* handed out and not yet written: 512 MiB at most */
#define NAME_SLOTS (1u << 16)        /* the kernel-name table (open addressing) */
#define API_NAME_BASE 1u             /* string ids: driver API cbid + 1, runtime cbid + 1 + 8192 */
#define KERNEL_NAME_BASE 16384u
#define FLUSH_PERIOD_MS 1000u
#define RESCUE_MS 5000                /* a fatal signal's flush waits this long at most */

/* The CUPTI calls, looked up with dlsym. */
static struct {
    CUptiResult (*GetVersion)(uint32_t *);
    CUptiResult (*ActivityEnable)(CUpti_ActivityKind);
    CUptiResult (*ActivityRegisterCallbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*ActivityFlushAll)(uint32_t);
    CUptiResult (*ActivityFlushPeriod)(uint32_t);
    CUptiResult (*ActivityGetNextRecord)(uint8_t *, size_t, CUpti_Activity **);
    CUptiResult (*ActivityGetNumDroppedRecords)(CUcontext, uint32_t, size_t *);
    CUptiResult (*GetCallbackName)(CUpti_CallbackDomain, uint32_t, const char **);
    CUptiResult (*GetResultString)(CUptiResult, const char **);
} cu;

typedef struct chunk {
    struct chunk *next;
    size_t len, cap;
    unsigned char *data;
    int end;                         /* holds the END record */
} chunk;

static struct {
    pthread_mutex_t lock;            /* the queue, the counters, the name tables */
    pthread_cond_t wake, drained;
    chunk *head, *tail;
    unsigned outstanding;            /* CUPTI buffers handed out, plus chunks queued */
    int stop, running, fd, disabled, end_written;
    pid_t pid;
    pthread_t writer;
    uint64_t refused;                /* buffers CUPTI asked for and did not get (it counts the records) */
    int rescue[2], rescued[2];       /* pipes: a fatal signal's number to the rescue thread, its answer */
    volatile sig_atomic_t rescuing;  /* a fatal signal is being flushed */
    /* kernel names: hash -> id, the name kept to compare */
    struct { uint64_t hash; uint32_t id; char *name; } names[NAME_SLOTS];
    uint32_t next_name;
    unsigned char api_named[2][8192];
} st = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER,
         .drained = PTHREAD_COND_INITIALIZER, .fd = -1, .next_name = KERNEL_NAME_BASE,
         .rescue = { -1, -1 }, .rescued = { -1, -1 } };

/* The signals whose default action ends the process, caught to flush first
 * where the program left them at the default. */
static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGHUP, SIGQUIT };
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static unsigned char caught[NFATAL];   /* ours installed for fatal_signals[i] */

/* One line on stderr, once per reason; never stdout. */
static void say(const char *what, const char *detail)
{
    char line[512];
    int n = snprintf(line, sizeof line, "cuprobe-trace: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    if (n > 0) {
        ssize_t w = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
        (void)w;
    }
}

/* See trace_inject.h. */
void cp_inject_say(const char *what, const char *detail)
{
    say(what, detail);
}

/* The one subscriber's callback: each domain to the part that enabled it. */
static void CUPTIAPI dispatch(void *user, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data)
{
    (void)user;
    if (dom == CUPTI_CB_DOMAIN_RESOURCE) cp_counters_callback(dom, cbid, data);
    else if (dom == CUPTI_CB_DOMAIN_RUNTIME_API || dom == CUPTI_CB_DOMAIN_DRIVER_API) cps_callback(dom, cbid, data);
}

/* See trace_inject.h. */
CUptiResult cp_inject_subscriber(void *libcupti, CUpti_SubscriberHandle *out)
{
    static int tried;
    static CUptiResult r = CUPTI_ERROR_NOT_SUPPORTED;
    static CUpti_SubscriberHandle sub;
    if (!tried) {
        tried = 1;
        CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
        *(void **)&subscribe = dlsym(libcupti, "cuptiSubscribe");
        if (subscribe) r = subscribe(&sub, dispatch, NULL);
    }
    *out = sub;
    return r;
}

static const char *cupti_error(CUptiResult r)
{
    const char *s = NULL;
    if (cu.GetResultString && cu.GetResultString(r, &s) == CUPTI_SUCCESS && s) return s;
    return "CUPTI error";
}

/* ------------------------------------------------------------ writer -- */

static void *writer_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&st.lock);
    for (;;) {
        while (!st.head && !st.stop) pthread_cond_wait(&st.wake, &st.lock);
        chunk *c = st.head;
        if (!c) break;                              /* stop, and nothing left */
        st.head = c->next;
        if (!st.head) st.tail = NULL;
        pthread_mutex_unlock(&st.lock);
        size_t off = 0;
        while (off < c->len && st.fd >= 0) {
            ssize_t w = write(st.fd, c->data + off, c->len - off);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {                           /* a full disk: stop writing, keep running */
                say("cannot write the trace file", strerror(errno));
                close(st.fd);
                st.fd = -1;
                break;
            }
            off += (size_t)w;
        }
        int end = c->end;
        free(c->data);
        free(c);
        pthread_mutex_lock(&st.lock);
        st.end_written |= end;
        st.outstanding--;
        pthread_cond_broadcast(&st.drained);
    }
    pthread_mutex_unlock(&st.lock);
    return NULL;
}

static int room(chunk *c, size_t n);

static void queue_locked(chunk *c)
{
    c->next = NULL;
    if (st.tail) st.tail->next = c;
    else st.head = c;
    st.tail = c;
    pthread_cond_signal(&st.wake);
}

static void queue(chunk *c)
{
    pthread_mutex_lock(&st.lock);
    queue_locked(c);
    pthread_mutex_unlock(&st.lock);
}

/* Hand n malloc'ed bytes (whole records) to the writer, which frees them:
 * 1 when queued; 0 when the library is not writing (untraced, after fork)
 * or, where wait is 0, when the lock is taken or the queue full (the
 * caller keeps them). */
static int hand(unsigned char *data, size_t n, int wait)
{
    if (wait) pthread_mutex_lock(&st.lock);
    else if (pthread_mutex_trylock(&st.lock) != 0) return 0;
    int ok = !st.disabled && st.running && st.pid == getpid() && (wait || st.outstanding < MAX_BUFFERS);
    chunk *c = ok ? calloc(1, sizeof *c) : NULL;
    if (c) {
        c->data = data;
        c->len = c->cap = n;
        st.outstanding++;                           /* the writer counts it down */
        queue_locked(c);
    }
    pthread_mutex_unlock(&st.lock);
    return c != NULL;
}

/* See trace_inject.h. */
void cp_inject_write(const unsigned char *data, size_t n)
{
    unsigned char *copy = malloc(n ? n : 1);
    if (!copy) return;
    memcpy(copy, data, n);
    if (!hand(copy, n, 1)) free(copy);
}

/* See trace_inject.h. */
int cp_inject_offer(unsigned char *data, size_t n)
{
    return hand(data, n, 0);
}

/* The stack records taken since the last buffer, into c (lock held). */
static void add_stacks(chunk *c)
{
    size_t len = 0;
    unsigned char *p = cps_take(&len);
    if (p && room(c, len)) {
        memcpy(c->data + c->len, p, len);
        c->len += len;
    }
    free(p);
}

/* Room for n more bytes in c (a failed growth leaves it unchanged: 0). */
static int room(chunk *c, size_t n)
{
    if (c->cap - c->len >= n) return 1;
    size_t cap = c->cap * 2 + n;
    unsigned char *p = realloc(c->data, cap);
    if (!p) return 0;
    c->data = p;
    c->cap = cap;
    return 1;
}

static void emit(chunk *c, const cp_trace_rec *r)
{
    if (room(c, 8 + CP_TREC_KERNEL_BODY)) c->len += cp_trace_encode_rec(c->data + c->len, c->cap - c->len, r);
}

static void emit_string(chunk *c, uint32_t id, const char *s)
{
    size_t len = strnlen(s, CP_TRACE_MAX_STRING);
    if (room(c, 16 + len + 8)) c->len += cp_trace_encode_string(c->data + c->len, c->cap - c->len, id, s, len);
}

/* The id of a kernel name, writing the string the first time (lock held). */
static uint32_t kernel_name(chunk *c, const char *name)
{
    if (!name) return 0;
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 1099511628211ull;
    for (uint32_t i = 0; i < NAME_SLOTS; i++) {
        uint32_t k = (uint32_t)(h + i) & (NAME_SLOTS - 1);
        if (st.names[k].id == 0) {
            if (st.next_name >= CP_TRACE_COUNTER_STRINGS) return 0;   /* the ids above are the counters' */
            char *copy = strdup(name);
            if (!copy) return 0;
            st.names[k].hash = h;
            st.names[k].name = copy;
            st.names[k].id = st.next_name++;
            emit_string(c, st.names[k].id, name);
            return st.names[k].id;
        }
        if (st.names[k].hash == h && strcmp(st.names[k].name, name) == 0) return st.names[k].id;
    }
    return 0;                                       /* the table is full: unnamed */
}

/* The id of an API call's name ("cudaLaunchKernel", the _vNNNN cut off). */
static uint32_t api_name(chunk *c, int runtime, uint32_t cbid)
{
    if (cbid >= 8192) return 0;
    uint32_t id = API_NAME_BASE + cbid + (runtime ? 8192u : 0u);
    if (!st.api_named[runtime][cbid]) {
        const char *n = NULL;
        st.api_named[runtime][cbid] = 1;
        if (!cu.GetCallbackName ||
            cu.GetCallbackName(runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, cbid, &n) !=
                CUPTI_SUCCESS || !n)
            return 0;
        char buf[256];
        snprintf(buf, sizeof buf, "%s", n);
        char *v = strstr(buf, "_v");
        if (v && v[2] >= '0' && v[2] <= '9') *v = '\0';
        emit_string(c, id, buf);
    }
    return id;
}

static void encode(chunk *c, const CUpti_Activity *a)
{
    cp_trace_rec r;
    memset(&r, 0, sizeof r);
    switch (a->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)a;
        r.type = CP_TREC_KERNEL;
        r.start = (int64_t)k->start; r.end = (int64_t)k->end;
        r.device = k->deviceId; r.context = k->contextId; r.stream = k->streamId; r.corr = k->correlationId;
        r.grid[0] = k->gridX; r.grid[1] = k->gridY; r.grid[2] = k->gridZ;
        r.block[0] = k->blockX; r.block[1] = k->blockY; r.block[2] = k->blockZ;
        r.name = kernel_name(c, k->name);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)a;
        r.type = CP_TREC_MEMCPY;
        r.start = (int64_t)m->start; r.end = (int64_t)m->end; r.bytes = m->bytes;
        r.device = m->deviceId; r.context = m->contextId; r.stream = m->streamId; r.corr = m->correlationId;
        r.copy_kind = m->copyKind; r.src_kind = m->srcKind; r.dst_kind = m->dstKind;
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)a;
        r.type = CP_TREC_MEMSET;
        r.start = (int64_t)m->start; r.end = (int64_t)m->end; r.bytes = m->bytes;
        r.device = m->deviceId; r.context = m->contextId; r.stream = m->streamId; r.corr = m->correlationId;
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const CUpti_ActivitySynchronization2 *s = (const CUpti_ActivitySynchronization2 *)a;
        r.type = CP_TREC_SYNC;
        r.start = (int64_t)s->start; r.end = (int64_t)s->end; r.sync_type = (uint32_t)s->type;
        r.context = s->contextId; r.stream = s->streamId; r.corr = s->correlationId;
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        const CUpti_ActivityAPI *p = (const CUpti_ActivityAPI *)a;
        int runtime = a->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
        r.type = CP_TREC_API;
        r.start = (int64_t)p->start; r.end = (int64_t)p->end; r.tid = p->threadId; r.cbid = p->cbid;
        r.corr = p->correlationId; r.domain = runtime ? CP_API_RUNTIME : CP_API_DRIVER;
        r.name = api_name(c, runtime, p->cbid);
        break;
    }
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
        const CUpti_ActivityOverhead3 *o = (const CUpti_ActivityOverhead3 *)a;
        r.type = CP_TREC_OVERHEAD;
        r.start = (int64_t)o->start; r.end = (int64_t)o->end; r.overhead_kind = (uint32_t)o->overheadKind;
        break;
    }
    default:
        return;
    }
    emit(c, &r);
}

/* ---------------------------------------------------- CUPTI callbacks -- */

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = NULL;
    *size = 0;
    *max_records = 0;
    pthread_mutex_lock(&st.lock);
    int ok = !st.disabled && st.outstanding < MAX_BUFFERS;
    if (ok) st.outstanding++;
    else st.refused++;
    pthread_mutex_unlock(&st.lock);
    if (!ok) return;                                /* CUPTI drops and counts: never wait */
    void *p = NULL;
    if (posix_memalign(&p, 8, BUF_SIZE) != 0) {
        pthread_mutex_lock(&st.lock);
        st.outstanding--;
        pthread_mutex_unlock(&st.lock);
        return;
    }
    *buffer = p;
    *size = BUF_SIZE;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)size;
    chunk *c = calloc(1, sizeof *c);
    if (c) {
        c->cap = valid / 2 + 4096;                  /* ours are smaller than CUPTI's records */
        c->data = malloc(c->cap);
        if (!c->data) { free(c); c = NULL; }
    }
    pthread_mutex_lock(&st.lock);                   /* the name tables; callbacks may run at once */
    if (c && !st.disabled) {
        CUpti_Activity *a = NULL;
        while (cu.ActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS) encode(c, a);
        size_t dropped = 0;
        if (cu.ActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped) {
            cp_trace_rec d = { .type = CP_TREC_DROPPED, .bytes = dropped };
            emit(c, &d);
        }
        add_stacks(c);
    }
    pthread_mutex_unlock(&st.lock);
    free(buffer);
    if (c && !st.disabled && st.running) {
        queue(c);                                   /* the buffer's count passes to the chunk */
        return;
    }
    if (c) { free(c->data); free(c); }
    pthread_mutex_lock(&st.lock);
    st.outstanding--;
    pthread_mutex_unlock(&st.lock);
}

/* ------------------------------------------------------ start and end -- */

/* Flush CUPTI, queue the END record (signal 0: a normal exit) behind what
 * the flush queued, and wait until the writer has written it: 10 s at most.
 * Returns 1 when the queue is empty. */
static int finish(uint32_t signo)
{
    cp_counters_stop();                             /* its last samples, before the last flush */
    cps_stop();
    cu.ActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    size_t left = 0;
    unsigned char *stacks = cps_take(&left);        /* the stacks no buffer took along, before the END */
    if (stacks && !hand(stacks, left, 1)) free(stacks);
    chunk *c = calloc(1, sizeof *c);
    if (c && (c->data = malloc(64)) != NULL) {
        c->cap = 64;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        cp_trace_rec e = { .type = CP_TREC_END, .signal = signo };
        e.start = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
        c->len = cp_trace_encode_rec(c->data, c->cap, &e);
        c->end = 1;
        pthread_mutex_lock(&st.lock);
        st.outstanding++;
        pthread_mutex_unlock(&st.lock);
        queue(c);
    } else {
        free(c);
        c = NULL;
    }
    pthread_mutex_lock(&st.lock);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;                             /* a hung disk does not hold the exit forever */
    while ((c ? !st.end_written : st.head != NULL) && pthread_cond_timedwait(&st.drained, &st.lock, &until) == 0) {}
    int done = !st.head;
    pthread_mutex_unlock(&st.lock);
    return done;
}

static void at_exit(void)
{
    if (st.disabled || !st.running || st.pid != getpid() || st.rescuing) return;
    int done = finish(0);
    pthread_mutex_lock(&st.lock);
    st.stop = 1;
    pthread_cond_signal(&st.wake);
    pthread_mutex_unlock(&st.lock);
    if (done) pthread_join(st.writer, NULL);
    st.running = 0;
    if (st.fd >= 0 && done) close(st.fd);
}

/* The rescue thread: waits for a fatal signal's number, flushes, answers. */
static void *rescue_main(void *arg)
{
    (void)arg;
    unsigned char sig;
    ssize_t got;
    while ((got = read(st.rescue[0], &sig, 1)) < 0 && errno == EINTR) {}
    if (got == 1 && st.running && !st.disabled) finish(sig);
    ssize_t w = write(st.rescued[1], &sig, 1);
    (void)w;
    return NULL;
}

/* A fatal signal (SA_RESETHAND: the default action is back already, and
 * SA_NODEFER: a second one kills at once): hand the flush to the rescue
 * thread, wait for it RESCUE_MS at most, then raise the signal again. */
static void on_fatal(int sig)
{
    int saved = errno;
    if (st.pid == getpid() && st.rescue[1] >= 0) {
        if (!st.rescuing) {
            st.rescuing = 1;
            unsigned char b = (unsigned char)sig;
            if (write(st.rescue[1], &b, 1) == 1) {
                struct pollfd p = { .fd = st.rescued[0], .events = POLLIN };
                while (poll(&p, 1, RESCUE_MS) < 0 && errno == EINTR) {}
            }
        } else {
            struct pollfd p = { .fd = st.rescued[0], .events = POLLIN };   /* another thread's flush */
            while (poll(&p, 1, RESCUE_MS) < 0 && errno == EINTR) {}
        }
    }
    errno = saved;
    raise(sig);                                     /* the default action: the program's own end */
}

/* Catch the fatal signals the program left at their default (see the top). */
static void catch_fatal(void)
{
    const char *e = getenv("CUPROBE_TRACE_SIGNALS");
    if (e && strcmp(e, "0") == 0) return;
    if (pipe2(st.rescue, O_CLOEXEC) != 0) return;
    if (pipe2(st.rescued, O_CLOEXEC) != 0) {
        close(st.rescue[0]); close(st.rescue[1]);
        st.rescue[0] = st.rescue[1] = -1;
        return;
    }
    sigset_t all, old;
    pthread_t t;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&t, NULL, rescue_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        close(st.rescue[0]); close(st.rescue[1]); close(st.rescued[0]); close(st.rescued[1]);
        st.rescue[0] = st.rescue[1] = st.rescued[0] = st.rescued[1] = -1;
        return;
    }
    pthread_detach(t);
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction now, ours;
        if (sigaction(fatal_signals[i], NULL, &now) != 0 || (now.sa_flags & SA_SIGINFO) ||
            now.sa_handler != SIG_DFL)
            continue;                               /* the program's own handler, or ignored: left alone */
        memset(&ours, 0, sizeof ours);
        ours.sa_handler = on_fatal;
        sigemptyset(&ours.sa_mask);
        ours.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK | SA_RESTART;
        if (sigaction(fatal_signals[i], &ours, NULL) == 0) caught[i] = 1;
    }
}

/* fork: the lock is taken around it, so the child's copy is not held by a
 * thread that does not exist there. */
static void before_fork(void) { pthread_mutex_lock(&st.lock); }
static void after_fork(void) { pthread_mutex_unlock(&st.lock); }

/* After fork, the child has no writer or rescue thread and shares the
 * parent's file: it stays untraced and writes nothing (the parent's queued
 * buffers are its copy, never written) unless it execs (then the new image
 * injects afresh), and its signals are the program's again. */
static void in_child(void)
{
    pthread_mutex_unlock(&st.lock);
    cps_child();
    st.disabled = 1;
    st.running = 0;
    if (st.fd >= 0) close(st.fd);
    st.fd = -1;
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction now;
        if (!caught[i] || sigaction(fatal_signals[i], NULL, &now) != 0 || now.sa_handler != on_fatal) continue;
        now.sa_handler = SIG_DFL;
        now.sa_flags = 0;
        sigaction(fatal_signals[i], &now, NULL);
        caught[i] = 0;
    }
    int *fds[] = { &st.rescue[0], &st.rescue[1], &st.rescued[0], &st.rescued[1] };
    for (size_t i = 0; i < 4; i++) {
        if (*fds[i] >= 0) close(*fds[i]);
        *fds[i] = -1;
    }
}

static void *open_cupti(void)
{
    const char *own = getenv("CUPROBE_CUPTI");
    const char *home = getenv("CUDA_HOME");
    char path[4096];
    void *h = NULL;
    if (own && *own) return dlopen(own, RTLD_NOW | RTLD_LOCAL);     /* the one to use: no other */
    if ((h = dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL))) return h;
    if ((h = dlopen("libcupti.so", RTLD_NOW | RTLD_LOCAL))) return h;
    const char *dirs[] = { home, "/usr/local/cuda" };
    for (int i = 0; i < 2 && !h; i++) {
        if (!dirs[i] || !*dirs[i]) continue;
        snprintf(path, sizeof path, "%s/lib64/libcupti.so.13", dirs[i]);
        if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL))) break;
        snprintf(path, sizeof path, "%s/extras/CUPTI/lib64/libcupti.so.13", dirs[i]);
        h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    return h;
}

/* Untraced after all: stop the writer, remove the file it began. */
static int give_up(const char *path)
{
    pthread_mutex_lock(&st.lock);
    st.disabled = 1;
    st.stop = 1;
    pthread_cond_signal(&st.wake);
    pthread_mutex_unlock(&st.lock);
    pthread_join(st.writer, NULL);
    st.running = 0;
    close(st.fd);
    st.fd = -1;
    unlink(path);
    return 0;
}

static int start(void)
{
    const char *dir = getenv("CUPROBE_TRACE_DIR");
    if (!dir || !*dir) {
        say("CUPROBE_TRACE_DIR is not set; running untraced", NULL);
        return 0;
    }
    void *h = open_cupti();
    if (!h) {
        say("libcupti could not be loaded (set CUPROBE_CUPTI to its path); running untraced", dlerror());
        return 0;
    }
#define SYM(m, n) (*(void **)&cu.m = dlsym(h, n))
    if (!SYM(GetVersion, "cuptiGetVersion") || !SYM(ActivityEnable, "cuptiActivityEnable") ||
        !SYM(ActivityRegisterCallbacks, "cuptiActivityRegisterCallbacks") ||
        !SYM(ActivityFlushAll, "cuptiActivityFlushAll") || !SYM(ActivityGetNextRecord, "cuptiActivityGetNextRecord") ||
        !SYM(ActivityGetNumDroppedRecords, "cuptiActivityGetNumDroppedRecords")) {
        say("libcupti lacks the activity API; running untraced", NULL);
        return 0;
    }
    SYM(GetCallbackName, "cuptiGetCallbackName");
    SYM(ActivityFlushPeriod, "cuptiActivityFlushPeriod");
    SYM(GetResultString, "cuptiGetResultString");
#undef SYM
    uint32_t v = 0;
    if (cu.GetVersion(&v) != CUPTI_SUCCESS || v / 10000 != CUPTI_API_VERSION / 10000 || v < 130000) {
        char d[96];
        snprintf(d, sizeof d, "its API version is %u, the record layouts here are for %u.x", v,
                 (unsigned)(CUPTI_API_VERSION / 10000));
        say("libcupti's version is not one this library was built for; running untraced", d);
        return 0;
    }
    st.pid = getpid();
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%ld%s", dir, (long)st.pid, CP_TRACE_SUFFIX);
    if (n < 0 || (size_t)n >= sizeof path) {
        say("the trace folder's path is too long; running untraced", NULL);
        return 0;
    }
    /* a file of that name already (the pid's earlier image before an exec, an
     * earlier run's in the same folder) is kept: this one is <pid>-N */
    st.fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    for (int k = 2; st.fd < 0 && errno == EEXIST && k < 100; k++) {
        n = snprintf(path, sizeof path, "%s/%ld-%d%s", dir, (long)st.pid, k, CP_TRACE_SUFFIX);
        if (n < 0 || (size_t)n >= sizeof path) break;
        st.fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    }
    if (st.fd < 0) {
        say("cannot create the trace file; running untraced", strerror(errno));
        return 0;
    }
    unsigned char hdr[CP_TRACE_HEADER_SIZE];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    cp_trace_encode_header(hdr, sizeof hdr, (uint32_t)st.pid, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
    if (write(st.fd, hdr, sizeof hdr) != (ssize_t)sizeof hdr) {
        say("cannot write the trace file; running untraced", strerror(errno));
        close(st.fd);
        st.fd = -1;
        return 0;
    }
    /* the writer takes no signal of the program's */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&st.writer, NULL, writer_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        say("cannot start the writer thread; running untraced", strerror(rc));
        close(st.fd);
        st.fd = -1;
        return 0;
    }
    st.running = 1;
    CUptiResult r = cu.ActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS) {
        say("CUPTI cannot subscribe (another profiler may hold it); running untraced", cupti_error(r));
        return give_up(path);
    }
    static const CUpti_ActivityKind kinds[] = {
        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
        CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER,
        CUPTI_ACTIVITY_KIND_OVERHEAD };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        r = cu.ActivityEnable(kinds[i]);
        if (r != CUPTI_SUCCESS && i == 0) {
            say("CUPTI cannot trace kernels (another profiler may hold it); running untraced", cupti_error(r));
            return give_up(path);
        }
    }
    /* CUPTI's own thread hands buffers over every second, so a program that crashes loses
     * at most its last second (atexit does not run then) */
    if (cu.ActivityFlushPeriod) cu.ActivityFlushPeriod(FLUSH_PERIOD_MS);
    const char *ctr = getenv("CUPROBE_TRACE_COUNTERS");
    if (ctr && strcmp(ctr, "1") == 0) cp_counters_start(h);     /* hardware counters: or a reason why not */
    cps_start(h);                                   /* where in the program: stacks, or said why not */
    pthread_atfork(before_fork, after_fork, in_child);
    atexit(at_exit);
    catch_fatal();
    return 1;
}

/* The driver's entry point (cuInit calls it once): returns 1 when traced.
 * Whatever it returns, the program runs on. */
EXPORT int InitializeInjection(void);
EXPORT int InitializeInjection(void)
{
    static int done;
    if (done) return 1;
    done = 1;
    start();
    return 1;
}
