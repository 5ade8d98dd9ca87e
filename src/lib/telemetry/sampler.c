/*
 * The sampler's parent side (cuprobe/telemetry.h): starts the child, asks
 * for each tick through a socket, reads the answers under a deadline, marks
 * what came late, kills and restarts a child that stops answering.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/alloc.h"
#include "facts/facts_kv.h"
#include "probe/deadline.h"
#include "fs/fs.h"
#include "host/host.h"
#include "tele_int.h"

/* After NVML refused to start (not installed, init failed), try again
 * this much later, not every tick; after a start that hung, this much
 * doubled for each one in a row, at most RETRY_MAX_MS: each hung start may
 * leave a process stuck in the driver. */
#define RETRY_MS 10000
#define RETRY_MAX_MS 300000
/* Answers past this size mean a broken child: it is killed. */
#define MAX_PENDING ((size_t)4 << 20)
#define MAX_LEFT 16

enum { IDLE, STARTING, TICKING, DONE_NOW };

struct cp_tele {
    cp_tele_opts o;
    cp_probe_job job;
    int running;
    int req;                             /* our end of the request socket */
    int phase;
    double t_begin, deadline, retry_at;
    int start_hangs;                     /* starts in a row that hung */
    pid_t left[MAX_LEFT];                /* killed, not yet reaped */
    int nleft;
    cp_buf in;
    cp_tele_child_arg arg;
    cp_nvml_facts scratch;               /* where the answers land */
    unsigned char done[CP_MAX_GPUS], inv_done[CP_MAX_GPUS];
    cp_tele_state st[CP_MAX_GPUS];
    int64_t res[CP_MAX_GPUS];
    int ready, tick_end, eof;
    char child_err[256];
    cp_tele_frame f;
    cp_fs *procfs;                       /* /proc/PID of the GPU processes */
};

/* "ok", "stale", ...; see telemetry.h. */
const char *cp_tele_state_name(cp_tele_state s)
{
    switch (s) {
    case CP_TELE_OK: return "ok";
    case CP_TELE_STALE: return "stale";
    case CP_TELE_LOST: return "lost";
    case CP_TELE_HUNG: return "hung";
    case CP_TELE_ERROR: return "error";
    }
    return "unknown";
}

static double wall_s(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* ---- the child ---- */

static void close_others(int keep1, int keep2)
{
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 3; fd < max; fd++)
        if (fd != keep1 && fd != keep2)
            close(fd);   /* the exporter's sockets, other probes' pipes */
}

static void flush_out(void *arg)
{
    cp_probe_flush(arg);
}

static void child_main(cp_probe_out *out, void *varg)
{
    const cp_tele_child_arg *a = varg;
    close_others(a->req_fd, out->fd);
    cp_tele_child *c = cp_tele_child_start(a, &out->buf, flush_out, out);
    cp_probe_flush(out);
    if (!c)
        return;
    for (;;) {
        char ch = 0;
        ssize_t r = read(a->req_fd, &ch, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0 || ch != 't')
            break;    /* the parent closed its end: leave */
        cp_tele_child_tick(c, &out->buf, flush_out, out);
    }
    cp_tele_child_end(c);
}

/* ---- this side ---- */

/* A new sampler; see telemetry.h. */
cp_tele *cp_tele_open(const cp_tele_opts *o)
{
    cp_tele *t = cp_calloc(1, sizeof *t);
    if (!t)
        return NULL;
    cp_tele_opts d = CP_TELE_OPTS_DEFAULTS;
    t->o = o ? *o : d;
    if (t->o.deadline_ms <= 0)
        t->o.deadline_ms = d.deadline_ms;
    if (t->o.start_ms <= 0)
        t->o.start_ms = d.start_ms;
    t->req = -1;
    t->job.fd = -1;
    t->phase = IDLE;
    t->procfs = cp_fs_open(t->o.proc_root ? t->o.proc_root : "/", false);
    t->o.proc_root = NULL;   /* not kept: the view is */
    if (!t->procfs) {
        free(t);
        return NULL;
    }
    cp_nvml_facts_init(&t->scratch);
    for (int i = 0; i < CP_MAX_GPUS; i++)
        t->f.gpu[i].xid_last = CP_UNKNOWN;
    return t;
}

static void reap_left(cp_tele *t)
{
    int k = 0;
    for (int i = 0; i < t->nleft; i++) {
        int status;
        if (waitpid(t->left[i], &status, WNOHANG) == 0)
            t->left[k++] = t->left[i];
    }
    t->nleft = k;
}

static void kill_child(cp_tele *t)
{
    if (!t->running)
        return;
    kill(-t->job.pid, SIGKILL);
    int status;
    if (waitpid(t->job.pid, &status, WNOHANG) != t->job.pid && t->nleft < MAX_LEFT)
        t->left[t->nleft++] = t->job.pid;   /* still leaving the driver: reaped later */
    close(t->job.fd);
    close(t->req);
    t->job.fd = t->req = -1;
    t->running = 0;
    cp_buf_free(&t->in);
}

static int start_child(cp_tele *t)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(t->f.error, sizeof t->f.error, "cannot create a socket: %s", strerror(errno));
        return -1;
    }
    t->arg.req_fd = sv[1];
    if (cp_probe_start(&t->job, child_main, &t->arg, NULL) != 0) {
        snprintf(t->f.error, sizeof t->f.error, "%s", t->job.run.detail);
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    close(sv[1]);
    t->req = sv[0];
    fcntl(t->job.fd, F_SETFL, fcntl(t->job.fd, F_GETFL) | O_NONBLOCK);
    t->running = 1;
    t->ready = t->eof = 0;
    t->child_err[0] = '\0';
    memset(t->inv_done, 0, sizeof t->inv_done);
    for (int i = 0; i < CP_MAX_GPUS; i++)
        if (!t->arg.skip[i])
            cp_nvml_device_init(&t->scratch.dev[i], i);
    return 0;
}

static void send_request(cp_tele *t)
{
    t->phase = TICKING;
    t->deadline = cp_now_ms() + t->o.deadline_ms;
    if (send(t->req, "t", 1, MSG_NOSIGNAL | MSG_DONTWAIT) != 1)
        t->eof = 1;   /* the child is gone: judged in step */
}

/* Ask for a tick; see telemetry.h. */
void cp_tele_begin(cp_tele *t)
{
    reap_left(t);
    t->f.seq++;
    t->f.unix_s = wall_s();
    t->f.error[0] = '\0';
    t->t_begin = cp_now_ms();
    t->tick_end = 0;
    memset(t->done, 0, sizeof t->done);
    for (int i = 0; i < CP_MAX_GPUS; i++) {
        t->st[i] = CP_TELE_STALE;
        cp_nvml_sample_init(&t->scratch.dev[i].sample);
    }
    if (!t->running) {
        if (t->t_begin < t->retry_at) {
            snprintf(t->f.error, sizeof t->f.error, "%s", t->child_err);
            t->phase = DONE_NOW;
            return;
        }
        if (t->nleft >= MAX_LEFT / 2) {
            snprintf(t->f.error, sizeof t->f.error,
                     "%d sampler children are stuck in the driver (killed, not gone): no new one is started",
                     t->nleft);
            t->phase = DONE_NOW;
            return;
        }
        if (start_child(t) != 0) {
            t->phase = DONE_NOW;
            return;
        }
        t->phase = STARTING;
        t->deadline = t->t_begin + t->o.start_ms;
        return;
    }
    send_request(t);
}

static int dev_index(const char *s, const char **rest)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '.' || v < 0 || v >= CP_MAX_GPUS)
        return -1;
    *rest = end + 1;
    return (int)v;
}

static void add_xid(cp_tele_gpu *g, int64_t code)
{
    g->xid_last = code;
    for (int k = 0; k < g->nxid; k++)
        if (g->xid[k].code == code) {
            g->xid[k].count++;
            return;
        }
    if (g->nxid < CP_TELE_XID_CODES) {
        g->xid[g->nxid].code = code;
        g->xid[g->nxid++].count = 1;
    } else {
        g->xid_other++;
    }
}

static int on_line(const char *key, const char *value, void *arg)
{
    cp_tele *t = arg;
    const char *rest;
    int64_t v = CP_UNKNOWN;
    if (strncmp(key, "nvml.dev.", 9) == 0) {
        cp_facts_set_nvml_dev(&t->scratch, key + 9, value);
    } else if (strncmp(key, "tele.dev.", 9) == 0) {
        int i = dev_index(key + 9, &rest);
        if (i < 0)
            return 0;
        cp_tele_gpu *g = &t->f.gpu[i];
        if (strcmp(rest, "state") == 0)
            t->st[i] = strcmp(value, "ok") == 0 ? CP_TELE_OK
                     : strcmp(value, "lost") == 0 ? CP_TELE_LOST : CP_TELE_ERROR;
        else if (strcmp(rest, "result") == 0 && cp_kv_i64(value, &v))
            t->res[i] = v;
        else if (strcmp(rest, "inv") == 0)
            t->inv_done[i] = 1;
        else if (strcmp(rest, "xid") == 0 && cp_kv_i64(value, &v))
            add_xid(g, v);
        else if (strcmp(rest, "done") == 0)
            t->done[i] = 1;
    } else if (strcmp(key, "tele.ndev") == 0 && cp_kv_i64(value, &v) && v >= 0) {
        t->f.ngpu = v < CP_MAX_GPUS ? (int)v : CP_MAX_GPUS;
    } else if (strcmp(key, "tele.ready") == 0) {
        t->ready = strcmp(value, "ok") == 0 ? 1 : -1;
    } else if (strcmp(key, "tele.error") == 0) {
        snprintf(t->child_err, sizeof t->child_err, "%s", value);
    } else if (strcmp(key, "tele.xid_more") == 0) {
        t->f.xid_deferred++;
    } else if (strcmp(key, "tele.tick.end") == 0) {
        t->tick_end = 1;
    }
    return 0;
}

/* Read what the child sent; whole lines are applied, the rest waits. */
static void read_answers(cp_tele *t)
{
    char chunk[8192];
    for (;;) {
        ssize_t r = read(t->job.fd, chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0 || (r < 0 && errno != EAGAIN)) {
            t->eof = 1;
            break;
        }
        if (r < 0)
            break;
        cp_buf_append(&t->in, chunk, (size_t)r);
        if (t->in.failed || t->in.len > MAX_PENDING) {
            t->eof = 1;   /* out of memory or a runaway child: judged as dead */
            break;
        }
    }
    if (!t->in.data)
        return;
    char *nl = memrchr(t->in.data, '\n', t->in.len);
    if (!nl)
        return;
    size_t whole = (size_t)(nl - t->in.data) + 1;
    cp_kv_parse(t->in.data, whole, on_line, t);
    memmove(t->in.data, t->in.data + whole, t->in.len - whole);
    t->in.len -= whole;
    t->in.data[t->in.len] = '\0';
}

static void finish(cp_tele *t)
{
    cp_tele_frame *f = &t->f;
    f->tick_ms = cp_now_ms() - t->t_begin;
    for (int i = 0; i < f->ngpu; i++) {
        cp_tele_gpu *g = &f->gpu[i];
        g->inv = t->scratch.dev[i].inv;
        g->state = t->arg.skip[i] ? CP_TELE_HUNG : t->done[i] ? t->st[i] : CP_TELE_STALE;
        g->nvml_result = g->state == CP_TELE_LOST || g->state == CP_TELE_ERROR ? t->res[i] : CP_UNKNOWN;
        if (g->state == CP_TELE_OK) {
            g->s = t->scratch.dev[i].sample;
            int64_t n = g->xid_other;
            for (int k = 0; k < g->nxid; k++)
                n += g->xid[k].count;
            g->s.xid_events = n;
            g->s.xid_last = g->xid_last;
            cp_host_read_sample_procs(t->procfs, &g->s);   /* name, container, pod, or not visible */
        } else {
            cp_nvml_sample_init(&g->s);
        }
    }
    t->phase = IDLE;
}

/* The first GPU of this tick (or start) that never answered: the one the
 * child hangs on. */
static int hung_gpu(const cp_tele *t, int starting)
{
    for (int i = 0; i < t->f.ngpu; i++) {
        if (t->arg.skip[i])
            continue;
        if (starting ? !t->inv_done[i] : (!t->done[i] && t->st[i] != CP_TELE_LOST))
            return i;
    }
    return -1;
}

static void hung(cp_tele *t, int starting)
{
    int i = hung_gpu(t, starting);
    /* ndev unknown yet: it hung in loading or nvmlInit_v2, no GPU to blame */
    int blamed = i >= 0 && (!starting || t->f.ngpu > 0);
    if (blamed)
        t->arg.skip[i] = 1;
    else if (!starting)
        t->arg.no_events = 1;   /* every GPU answered: the event read hung */
    const char *doing = !starting ? "sampling" : t->f.ngpu > 0 ? "reading the inventory of"
                                                                : "loading or initialising";
    if (blamed)
        snprintf(t->f.error, sizeof t->f.error,
                 "NVML did not answer within %d ms %s GPU %d: it is left alone from now on and the "
                 "sampler restarted", starting ? t->o.start_ms : t->o.deadline_ms, doing, i);
    else
        snprintf(t->f.error, sizeof t->f.error, "NVML did not answer within %d ms %s%s",
                 starting ? t->o.start_ms : t->o.deadline_ms, doing,
                 !starting ? " (reading XID events): events are off from now on and the sampler restarted"
                           : "");
    kill_child(t);
    t->f.restarts++;
}

/* Read and judge; see telemetry.h. */
int cp_tele_step(cp_tele *t)
{
    if (t->phase == IDLE)
        return 1;
    if (t->phase == DONE_NOW) {
        finish(t);
        return 1;
    }
    read_answers(t);
    double now = cp_now_ms();
    if (t->phase == STARTING) {
        if (t->ready == 1) {
            t->f.nvml_ok = 1;
            t->start_hangs = 0;
            send_request(t);
            return cp_tele_step(t);
        }
        if (t->ready == -1 || t->eof) {
            if (t->ready != -1)
                snprintf(t->child_err, sizeof t->child_err, "the sampler's child died while starting");
            snprintf(t->f.error, sizeof t->f.error, "%s", t->child_err);
            t->f.nvml_ok = 0;
            kill_child(t);
            t->retry_at = now + RETRY_MS;
            finish(t);
            return 1;
        }
        if (now >= t->deadline) {
            t->f.nvml_ok = 0;
            hung(t, 1);
            if (t->f.ngpu == 0) {
                /* no GPU to leave alone: wait before the next try */
                double wait = (double)RETRY_MS * (double)(1 << (t->start_hangs < 5 ? t->start_hangs : 5));
                t->start_hangs++;
                t->retry_at = now + (wait < RETRY_MAX_MS ? wait : RETRY_MAX_MS);
                size_t n = strlen(t->f.error);
                snprintf(t->f.error + n, sizeof t->f.error - n, " (next try in %.0f s)",
                         (t->retry_at - now) / 1000);
                memcpy(t->child_err, t->f.error, sizeof t->child_err);
            }
            finish(t);
            return 1;
        }
        return 0;
    }
    if (t->tick_end) {
        finish(t);
        return 1;
    }
    if (t->eof) {
        snprintf(t->f.error, sizeof t->f.error, "the sampler's child died; it is restarted");
        kill_child(t);
        t->f.restarts++;
        finish(t);
        return 1;
    }
    if (now >= t->deadline) {
        hung(t, 0);
        finish(t);
        return 1;
    }
    return 0;
}

/* The descriptor to poll; see telemetry.h. */
int cp_tele_fd(const cp_tele *t)
{
    return t->running && (t->phase == STARTING || t->phase == TICKING) ? t->job.fd : -1;
}

/* How long a poll may sleep; see telemetry.h. */
int cp_tele_timeout_ms(const cp_tele *t)
{
    if (t->phase != STARTING && t->phase != TICKING)
        return 0;
    double left = t->deadline - cp_now_ms();
    return left > 0 ? (int)left + 1 : 0;
}

/* The last whole tick; see telemetry.h. */
const cp_tele_frame *cp_tele_frame_of(const cp_tele *t)
{
    return &t->f;
}

/* Ask and wait; see telemetry.h. */
const cp_tele_frame *cp_tele_tick(cp_tele *t)
{
    cp_tele_begin(t);
    while (!cp_tele_step(t)) {
        struct pollfd p = { cp_tele_fd(t), POLLIN, 0 };
        int r = poll(&p, p.fd >= 0 ? 1 : 0, cp_tele_timeout_ms(t));
        if (r < 0 && errno != EINTR)
            break;
    }
    return &t->f;
}

/* Kill, reap, free; see telemetry.h. */
void cp_tele_close(cp_tele *t)
{
    if (!t)
        return;
    kill_child(t);
    if (t->nleft)
        cp_probe_reap(t->left, t->nleft, CP_PROBE_REAP_MS);
    cp_buf_free(&t->in);
    cp_fs_close(t->procfs);
    free(t);
}
