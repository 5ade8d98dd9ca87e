/*
 * Which pod holds each GPU: the kubelet's pod-resources API
 * (v1.PodResourcesLister/List, gRPC over HTTP/2 cleartext on a unix
 * socket), read with the HTTP/2 reader of h2.c and a bounded protobuf
 * decoder of the few messages it needs:
 *
 *   ListPodResourcesResponse { repeated PodResources pod_resources = 1; }
 *   PodResources { string name = 1; string namespace = 2; repeated ContainerResources containers = 3; }
 *   ContainerResources { string name = 1; repeated ContainerDevices devices = 2; ... }
 *   ContainerDevices { string resource_name = 1; repeated string device_ids = 2; ... }
 *
 * The client never blocks: a non-blocking socket, driven by the caller's
 * poll loop, every call under a deadline.
 */
#include "host/host.h"
#include "util/alloc.h"
#include "util/str.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* ---- protobuf: the wire format, bounded by the bytes given ---- */

typedef struct {
    const uint8_t *p, *end;
} pb;

typedef struct {
    int field, wire;
    uint64_t v;               /* a varint's value */
    const uint8_t *s;         /* a length-delimited field's bytes */
    size_t n;
} pb_field;

static int pb_varint(pb *b, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (b->p >= b->end) return -1;
        uint8_t c = *b->p++;
        *v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) return 0;
    }
    return -1;
}

/* The next field: 1, 0 at the end, -1 malformed. */
static int pb_next(pb *b, pb_field *f)
{
    if (b->p >= b->end) return 0;
    uint64_t key;
    if (pb_varint(b, &key) != 0 || key >> 3 == 0 || key >> 3 > 0x1fffffff) return -1;
    f->field = (int)(key >> 3);
    f->wire = (int)(key & 7);
    f->s = NULL;
    f->n = 0;
    switch (f->wire) {
    case 0:
        return pb_varint(b, &f->v) == 0 ? 1 : -1;
    case 1:
    case 5: {
        size_t k = f->wire == 1 ? 8 : 4;
        if ((size_t)(b->end - b->p) < k) return -1;
        b->p += k;
        return 1;
    }
    case 2: {
        uint64_t n;
        if (pb_varint(b, &n) != 0 || n > (uint64_t)(b->end - b->p)) return -1;
        f->s = b->p;
        f->n = (size_t)n;
        b->p += n;
        return 1;
    }
    default:
        return -1;   /* groups (3, 4) are not in these messages; 6, 7 do not exist */
    }
}

/* Field `want` (a string) of a message into out, the last one written wins:
 * 0, or -1 when the message is malformed or the field is not a string. */
static int pb_string(const uint8_t *s, size_t n, int want, char *out, size_t cap)
{
    pb b = { s, s + n };
    pb_field f;
    int rc;
    out[0] = '\0';
    while ((rc = pb_next(&b, &f)) == 1) {
        if (f.field != want) continue;
        if (f.wire != 2) return -1;
        cp_str_copy_n(out, cap, (const char *)f.s, f.n);
    }
    return rc;
}

static int gpu_resource(const char *name)
{
    return strcmp(name, "nvidia.com/gpu") == 0 || cp_str_starts_with(name, "nvidia.com/gpu.") ||
           cp_str_starts_with(name, "nvidia.com/mig-");
}

static int pb_devices(const uint8_t *s, size_t n, const char *pod, const char *ns, const char *ctr,
                      cp_podres_map *m)
{
    char resource[128];
    if (pb_string(s, n, 1, resource, sizeof resource) != 0) return -1;
    pb b = { s, s + n };
    pb_field f;
    int rc;
    while ((rc = pb_next(&b, &f)) == 1) {
        if (f.field != 2) continue;
        if (f.wire != 2) return -1;
        if (!gpu_resource(resource)) continue;
        m->total++;
        /* "GPU-uuid::3": the third replica of a time-sliced GPU is the GPU */
        size_t k = f.n;
        for (size_t i = 0; i + 1 < f.n; i++)
            if (f.s[i] == ':' && f.s[i + 1] == ':') { k = i; break; }
        if (k == 0 || k >= sizeof m->dev[0].device_id || memchr(f.s, '\0', k) || m->n >= CP_PODRES_MAX_DEVICES)
            continue;
        cp_podres_dev *d = &m->dev[m->n++];
        cp_str_copy_n(d->device_id, sizeof d->device_id, (const char *)f.s, k);
        cp_str_copy(d->pod, sizeof d->pod, pod);
        cp_str_copy(d->ns, sizeof d->ns, ns);
        cp_str_copy(d->container, sizeof d->container, ctr);
    }
    return rc;
}

static int pb_container(const uint8_t *s, size_t n, const char *pod, const char *ns, cp_podres_map *m)
{
    char name[64];
    if (pb_string(s, n, 1, name, sizeof name) != 0) return -1;
    pb b = { s, s + n };
    pb_field f;
    int rc;
    while ((rc = pb_next(&b, &f)) == 1) {
        if (f.field != 2) continue;
        if (f.wire != 2 || pb_devices(f.s, f.n, pod, ns, name, m) != 0) return -1;
    }
    return rc;
}

static int pb_pod(const uint8_t *s, size_t n, cp_podres_map *m)
{
    char pod[256], ns[64];
    if (pb_string(s, n, 1, pod, sizeof pod) != 0 || pb_string(s, n, 2, ns, sizeof ns) != 0) return -1;
    pb b = { s, s + n };
    pb_field f;
    int rc;
    while ((rc = pb_next(&b, &f)) == 1) {
        if (f.field != 3) continue;
        if (f.wire != 2 || pb_container(f.s, f.n, pod, ns, m) != 0) return -1;
    }
    return rc;
}

/* A ListPodResourcesResponse into m; see host.h. */
int cp_parse_podres(const uint8_t *msg, size_t len, cp_podres_map *m)
{
    m->n = 0;
    m->total = 0;
    if (!msg) return len ? -1 : 0;
    pb b = { msg, msg + len };
    pb_field f;
    int rc;
    while ((rc = pb_next(&b, &f)) == 1) {
        if (f.field != 1) continue;
        if (f.wire != 2 || pb_pod(f.s, f.n, m) != 0) return -1;
    }
    return rc;
}

/* The gRPC message of an ended call into m; 0, or -1 with err. */
static int grpc_message(const cp_h2_resp *r, cp_podres_map *m, char *err, size_t errcap)
{
    const cp_h2_headers *h = &r->head;
    if (h->status > 0 && h->status != 200) {
        snprintf(err, errcap, "HTTP status %d", h->status);
        return -1;
    }
    if (h->grpc_status > 0) {
        snprintf(err, errcap, "gRPC status %d%s%s", h->grpc_status, h->grpc_message[0] ? ": " : "",
                 h->grpc_message);
        return -1;
    }
    if (r->nbody < 5) {
        snprintf(err, errcap, "no gRPC message in the answer");
        return -1;
    }
    uint32_t n = (uint32_t)r->body[1] << 24 | (uint32_t)r->body[2] << 16 | (uint32_t)r->body[3] << 8 | r->body[4];
    if (r->body[0] != 0) {
        snprintf(err, errcap, "a compressed gRPC message (not asked for)");
        return -1;
    }
    if ((size_t)n > r->nbody - 5) {
        snprintf(err, errcap, "a gRPC message cut short (%u bytes said, %zu came)", (unsigned)n, r->nbody - 5);
        return -1;
    }
    if (cp_parse_podres(r->body + 5, n, m) != 0) {
        snprintf(err, errcap, "not a ListPodResourcesResponse (malformed protobuf)");
        return -1;
    }
    return 0;
}

/* A whole answer into m; see host.h. */
int cp_parse_podres_reply(const uint8_t *bytes, size_t len, cp_podres_map *m, char *err, size_t errcap)
{
    cp_h2_resp *r = cp_calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    cp_h2_resp_init(r, CP_PODRES_MAX_RESPONSE + 5);
    int rc = cp_h2_feed(r, bytes, len);
    if (rc < 0) snprintf(err, errcap, "%s", r->error);
    else if (rc == 0) snprintf(err, errcap, "the answer ended before its stream did");
    else rc = grpc_message(r, m, err, errcap) == 0 ? 1 : -1;
    cp_h2_resp_free(r);
    free(r);
    return rc == 1 ? 0 : -1;
}

/* The first container holding uuid; see telemetry.h. */
const cp_podres_dev *cp_podres_find(const cp_podres_map *m, const char *uuid)
{
    if (!m || !uuid || !uuid[0]) return NULL;
    for (int i = 0; i < m->n; i++)
        if (strcasecmp(m->dev[i].device_id, uuid) == 0) return &m->dev[i];
    return NULL;
}

/* ---- the client ---- */

struct cp_podres {
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    int path_too_long;
    int timeout_ms;
    int fd;
    int connecting;
    double deadline;
    cp_h2_resp r;
    uint8_t out[1024];   /* the request, then acknowledgements */
    size_t nout, sent;
    cp_podres_map map, next;
    int have_map;
    char error[384];
};

static double mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A client of the socket at path; see telemetry.h. */
cp_podres *cp_podres_open(const char *socket_path, int timeout_ms)
{
    cp_podres *c = cp_calloc(1, sizeof *c);
    if (!c) return NULL;
    c->path_too_long = !cp_str_copy(c->path, sizeof c->path, socket_path ? socket_path : CP_PODRES_SOCKET);
    c->timeout_ms = timeout_ms > 0 ? timeout_ms : 1000;
    c->fd = -1;
    return c;
}

static void put_frame(cp_podres *c, uint8_t type, uint8_t flags, uint32_t stream, const uint8_t *p, size_t n)
{
    if (c->nout + 9 + n > sizeof c->out) return;
    c->nout += cp_h2_put_frame(c->out + c->nout, type, flags, stream, p, n);
}

/* A literal header field without indexing, its name by static index (or a
 * literal name when idx is 0), plain strings (every one here is short). */
static size_t hp_literal(uint8_t *q, int idx, const char *name, const char *value)
{
    size_t k = 0;
    if (idx < 15) {
        q[k++] = (uint8_t)idx;
    } else {
        q[k++] = 0x0f;
        q[k++] = (uint8_t)(idx - 15);
    }
    if (!idx) {
        q[k++] = (uint8_t)strlen(name);
        memcpy(q + k, name, strlen(name));
        k += strlen(name);
    }
    q[k++] = (uint8_t)strlen(value);
    memcpy(q + k, value, strlen(value));
    return k + strlen(value);
}

static void build_request(cp_podres *c)
{
    static const char preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    c->nout = c->sent = 0;
    memcpy(c->out, preface, sizeof preface - 1);
    c->nout = sizeof preface - 1;
    /* HEADER_TABLE_SIZE 0 (no dynamic table), ENABLE_PUSH 0, INITIAL_WINDOW_SIZE
     * past the cap: the answer never waits for a WINDOW_UPDATE */
    uint32_t win = (uint32_t)CP_PODRES_MAX_RESPONSE + 65536;
    const uint8_t settings[18] = { 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 4,
                                   (uint8_t)(win >> 24), (uint8_t)(win >> 16), (uint8_t)(win >> 8), (uint8_t)win };
    put_frame(c, 4, 0, 0, settings, sizeof settings);
    uint32_t inc = win - 65535;   /* the connection's window, from its default */
    const uint8_t wu[4] = { (uint8_t)(inc >> 24), (uint8_t)(inc >> 16), (uint8_t)(inc >> 8), (uint8_t)inc };
    put_frame(c, 8, 0, 0, wu, sizeof wu);
    uint8_t h[256];
    size_t k = 0;
    h[k++] = 0x83;   /* :method POST */
    h[k++] = 0x86;   /* :scheme http */
    k += hp_literal(h + k, 4, NULL, "/v1.PodResourcesLister/List");
    k += hp_literal(h + k, 1, NULL, "localhost");
    k += hp_literal(h + k, 31, NULL, "application/grpc");
    k += hp_literal(h + k, 0, "te", "trailers");
    put_frame(c, 1, 0x4, 1, h, k);   /* END_HEADERS */
    const uint8_t empty[5] = { 0, 0, 0, 0, 0 };   /* ListPodResourcesRequest{}, uncompressed */
    put_frame(c, 0, 0x1, 1, empty, sizeof empty);   /* END_STREAM */
}

static void end_call(cp_podres *c, const char *why)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    c->connecting = 0;
    cp_str_copy(c->error, sizeof c->error, why ? why : "");
    cp_h2_resp_free(&c->r);
}

static void end_errno(cp_podres *c, const char *what, int e)
{
    char why[384], buf[96];
    snprintf(why, sizeof why, "%s %s: %s", what, c->path, cp_str_errno(e, buf, sizeof buf));
    end_call(c, why);
}

/* Start a call; see telemetry.h. */
void cp_podres_begin(cp_podres *c)
{
    if (c->fd >= 0) return;
    c->error[0] = '\0';
    if (c->path_too_long) {
        end_call(c, "the pod-resources socket's path is longer than a unix socket's");
        return;
    }
    cp_h2_resp_init(&c->r, CP_PODRES_MAX_RESPONSE + 5);
    build_request(c);
    c->deadline = mono_ms() + c->timeout_ms;
    c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0) {
        end_errno(c, "cannot make a socket for", errno);
        return;
    }
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    memcpy(a.sun_path, c->path, strlen(c->path));
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) == 0) return;
    if (errno == EINPROGRESS || errno == EAGAIN) {
        c->connecting = 1;
        return;
    }
    end_errno(c, "cannot connect to", errno);
}

/* What to poll; see telemetry.h. */
int cp_podres_fd(const cp_podres *c, short *events)
{
    if (events) *events = (short)(POLLIN | (c->connecting || c->sent < c->nout ? POLLOUT : 0));
    return c->fd;
}

/* How long until the deadline; see telemetry.h. */
int cp_podres_timeout_ms(const cp_podres *c)
{
    if (c->fd < 0) return -1;
    double left = c->deadline - mono_ms();
    return left > 0 ? (int)left + 1 : 0;
}

static void finish(cp_podres *c)
{
    char err[224];
    if (grpc_message(&c->r, &c->next, err, sizeof err) != 0) {
        char why[384];
        snprintf(why, sizeof why, "%s: %s", c->path, err);
        end_call(c, why);
        return;
    }
    c->map = c->next;
    c->have_map = 1;
    end_call(c, NULL);
}

/* Move the call on; see telemetry.h. */
int cp_podres_step(cp_podres *c)
{
    if (c->fd < 0) return 1;
    if (c->connecting) {
        int e = 0;
        socklen_t el = sizeof e;
        struct pollfd p = { c->fd, POLLOUT, 0 };
        if (poll(&p, 1, 0) > 0) {
            if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &e, &el) != 0) e = errno;
            if (e) {
                end_errno(c, "cannot connect to", e);
                return 1;
            }
            c->connecting = 0;
        }
    }
    while (!c->connecting && c->sent < c->nout) {
        ssize_t w = send(c->fd, c->out + c->sent, c->nout - c->sent, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (w <= 0) {
            end_errno(c, "cannot write to", w < 0 ? errno : EPIPE);
            return 1;
        }
        c->sent += (size_t)w;
    }
    if (c->sent == c->nout) c->sent = c->nout = 0;
    while (!c->connecting) {
        uint8_t buf[16384];
        ssize_t n = recv(c->fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n < 0) {
            end_errno(c, "cannot read from", errno);
            return 1;
        }
        if (n == 0) {
            char why[384];
            snprintf(why, sizeof why, "%s: the server closed the connection before answering", c->path);
            end_call(c, why);
            return 1;
        }
        int rc = cp_h2_feed(&c->r, buf, (size_t)n);
        /* acknowledgements go out on the next step's writes */
        if (c->r.nreply && c->nout + c->r.nreply <= sizeof c->out) {
            memcpy(c->out + c->nout, c->r.reply, c->r.nreply);
            c->nout += c->r.nreply;
        }
        c->r.nreply = 0;
        if (rc < 0) {
            char why[384];
            snprintf(why, sizeof why, "%s: %s", c->path, c->r.error);
            end_call(c, why);
            return 1;
        }
        if (rc == 1) {
            finish(c);
            return 1;
        }
    }
    if (mono_ms() >= c->deadline) {
        char why[384];
        snprintf(why, sizeof why, "%s: no answer within %d ms", c->path, c->timeout_ms);
        end_call(c, why);
        return 1;
    }
    return 0;
}

/* The last good answer; see telemetry.h. */
const cp_podres_map *cp_podres_map_of(const cp_podres *c)
{
    return c && c->have_map ? &c->map : NULL;
}

/* Why the last call failed; see telemetry.h. */
const char *cp_podres_error(const cp_podres *c)
{
    return c ? c->error : "";
}

/* Close the socket, free c; see telemetry.h. */
void cp_podres_close(cp_podres *c)
{
    if (!c) return;
    end_call(c, NULL);
    free(c);
}

/* One call, waited for; see telemetry.h. */
int cp_podres_list(const char *socket_path, int timeout_ms, cp_podres_map *out, char *err, size_t errcap)
{
    cp_podres *c = cp_podres_open(socket_path, timeout_ms);
    if (!c) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    cp_podres_begin(c);
    while (!cp_podres_step(c)) {
        short ev;
        struct pollfd p = { cp_podres_fd(c, &ev), 0, 0 };
        p.events = ev;
        if (poll(&p, 1, cp_podres_timeout_ms(c)) < 0 && errno != EINTR) break;
    }
    int rc = -1;
    if (cp_podres_map_of(c) && !cp_podres_error(c)[0]) {
        *out = c->map;
        rc = 0;
    } else {
        snprintf(err, errcap, "%s", cp_podres_error(c)[0] ? cp_podres_error(c) : "the call did not end");
    }
    cp_podres_close(c);
    return rc;
}
