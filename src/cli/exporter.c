/* cuprobe exporter: Prometheus metrics over HTTP.  One thread, one poll
 * loop: the sampler's tick (cuprobe/telemetry.h) and doctor's run (in a
 * child process) are waited for in the same loop that serves clients, so
 * neither a hung GPU nor a slow client stops the others.  Every scrape
 * gets the body built at the last tick; memory is bounded by the number of
 * clients (--max-clients), their request buffers (CP_HTTP_MAX_REQUEST) and
 * the body (at most BODY_MAX, shared by reference). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/report.h"
#include "cuprobe/telemetry.h"

#define CLIENT_TIMEOUT_MS 10000   /* a request must arrive and its answer leave within this */

/* CLIENT_TIMEOUT_MS, or $CUPROBE_TEST_CLIENT_TIMEOUT_MS (tests: a slow
 * client is dropped without waiting 10 s). */
static double client_timeout_ms(void)
{
    const char *v = getenv("CUPROBE_TEST_CLIENT_TIMEOUT_MS");
    long ms = v ? strtol(v, NULL, 10) : 0;
    return ms > 0 ? (double)ms : CLIENT_TIMEOUT_MS;
}
#define BODY_MAX ((size_t)8 << 20)
#define PODRES_EVERY_MS 10000     /* the kubelet is asked which pod holds each GPU this often */
#define PODRES_TIMEOUT_MS 2000    /* and each answer waited for this long, in the poll loop */
#define MAX_CLIENTS_CAP 1024

typedef struct {
    char *data;
    size_t len;
    int refs;
} body;

typedef struct {
    int fd;
    double deadline;
    char in[CP_HTTP_MAX_REQUEST];
    size_t inlen;
    char head[512];
    size_t headlen, sent;      /* sent counts the head, then the body */
    body *b;                   /* the body being sent, or NULL (head only) */
    int writing;
} client;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double wall_s(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void body_drop(body *b)
{
    if (b && --b->refs == 0) {
        free(b->data);
        free(b);
    }
}

/* PODRES_EVERY_MS, or $CUPROBE_TEST_PODRES_EVERY_MS (tests: a kubelet that
 * changes its answer is seen without waiting 10 s). */
static double podres_every_ms(void)
{
    const char *v = getenv("CUPROBE_TEST_PODRES_EVERY_MS");
    long ms = v ? strtol(v, NULL, 10) : 0;
    return ms > 0 ? (double)ms : PODRES_EVERY_MS;
}

/* The exposition of a frame into a new body (NULL when out of memory or
 * past BODY_MAX). */
static body *build_body(const cp_tele_frame *f, const cp_tele_fields *fl, const cp_tele_verdicts *v,
                        const cp_podres_map *pods)
{
    for (size_t cap = (size_t)64 << 10; cap <= BODY_MAX; cap *= 2) {
        char *buf = malloc(cap);
        if (!buf) return NULL;
        FILE *out = fmemopen(buf, cap, "w");
        if (!out) { free(buf); return NULL; }
        setvbuf(out, NULL, _IONBF, 0);
        cp_tele_prom_pods(out, f, fl, v, pods);
        long n = ftell(out);
        int full = ferror(out) || n < 0 || (size_t)n >= cap - 1;
        fclose(out);
        if (full) { free(buf); continue; }
        body *b = malloc(sizeof *b);
        if (!b) { free(buf); return NULL; }
        b->data = buf;
        b->len = (size_t)n;
        b->refs = 1;
        return b;
    }
    return NULL;
}

/* "127.0.0.1:9400", "[::1]:9400", ":9400" (every address: asked for) -> a
 * listening, non-blocking socket; -1 with err filled. */
static int listen_on(const char *spec, char *err, size_t errcap)
{
    char host[256], port[16];
    const char *colon = strrchr(spec, ':');
    if (!colon || colon[1] == '\0' || strlen(colon + 1) >= sizeof port) {
        snprintf(err, errcap, "--listen wants ADDRESS:PORT, got '%s'", spec);
        return -1;
    }
    size_t hn = (size_t)(colon - spec);
    if (hn >= sizeof host) {
        snprintf(err, errcap, "--listen: address too long");
        return -1;
    }
    memcpy(host, spec, hn);
    host[hn] = '\0';
    if (hn >= 2 && host[0] == '[' && host[hn - 1] == ']') {
        memmove(host, host + 1, hn - 2);
        host[hn - 2] = '\0';
    }
    snprintf(port, sizeof port, "%s", colon + 1);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int g = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
    if (g != 0) {
        snprintf(err, errcap, "--listen '%s': %s", spec, gai_strerror(g));
        return -1;
    }
    int fd = -1, e = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) { e = errno; continue; }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 128) != 0) {
            e = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) snprintf(err, errcap, "cannot listen on '%s': %s", spec, strerror(e));
    return fd;
}

static void client_close(client *c)
{
    if (c->fd >= 0) close(c->fd);
    body_drop(c->b);
    c->fd = -1;
    c->b = NULL;
}

static void respond(client *c, int code, const char *reason, const char *type, body *b, int head_only,
                    const char *text)
{
    size_t len = b ? b->len : strlen(text);
    int n = snprintf(c->head, sizeof c->head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\n\r\n%s",
                     code, reason, type, len, b || head_only ? "" : text);
    c->headlen = n > 0 && (size_t)n < sizeof c->head ? (size_t)n : 0;
    c->sent = 0;
    c->writing = 1;
    if (b && !head_only) {
        c->b = b;
        b->refs++;
    }
    shutdown(c->fd, SHUT_RD);
}

static void on_request(client *c, body *current)
{
    cp_http_req r;
    int rc = cp_http_parse(c->in, c->inlen, &r);
    if (rc == CP_HTTP_INCOMPLETE) return;
    if (rc == CP_HTTP_BAD) {
        respond(c, 400, "Bad Request", "text/plain", NULL, 0, "bad request\n");
        return;
    }
    if (rc == CP_HTTP_TOO_LARGE) {
        respond(c, 431, "Request Header Fields Too Large", "text/plain", NULL, 0, "request too large\n");
        return;
    }
    int head = strcmp(r.method, "HEAD") == 0;
    if (!head && strcmp(r.method, "GET") != 0) {
        respond(c, 405, "Method Not Allowed", "text/plain", NULL, 0, "GET or HEAD only\n");
        return;
    }
    if (strcmp(r.path, "/metrics") == 0) {
        if (current)
            respond(c, 200, "OK", "text/plain; version=0.0.4; charset=utf-8", current, head, NULL);
        else
            respond(c, 503, "Service Unavailable", "text/plain", NULL, head, "no sample yet\n");
    } else if (strcmp(r.path, "/") == 0) {
        respond(c, 200, "OK", "text/plain; charset=utf-8", NULL, head,
                "cuprobe exporter: metrics at /metrics\n");
    } else {
        respond(c, 404, "Not Found", "text/plain", NULL, head, "not found: try /metrics\n");
    }
}

/* Read what a client sent; 0, or -1 when it is to be dropped. */
static int client_read(client *c, body *current)
{
    for (;;) {
        if (c->inlen >= sizeof c->in) {
            on_request(c, current);
            if (!c->writing) return -1;
            return 0;
        }
        ssize_t r = recv(c->fd, c->in + c->inlen, sizeof c->in - c->inlen, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (r <= 0) return -1;    /* gone before asking */
        c->inlen += (size_t)r;
    }
    on_request(c, current);
    return 0;
}

/* Send what is left; 1 when all sent (then closed), 0 for more, -1 on error. */
static int client_write(client *c)
{
    for (;;) {
        const char *p;
        size_t n;
        if (c->sent < c->headlen) {
            p = c->head + c->sent;
            n = c->headlen - c->sent;
        } else if (c->b && c->sent - c->headlen < c->b->len) {
            p = c->b->data + (c->sent - c->headlen);
            n = c->b->len - (c->sent - c->headlen);
        } else {
            return 1;
        }
        ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        if (w <= 0) return -1;
        c->sent += (size_t)w;
    }
}

/* ---- doctor, in a child process, every --doctor-every minutes ---- */

typedef struct {
    pid_t pid;
    int fd;
    char buf[512];
    size_t len;
    double started;
} doctor_run;

static void doctor_child(int fd, int timeout_ms)
{
    long max = sysconf(_SC_OPEN_MAX);
    for (int i = 3; i < (max > 0 && max < 65536 ? max : 65536); i++)
        if (i != fd) close(i);   /* the sockets stay the exporter's */
    cp_observe_opts o = CP_OBSERVE_DEFAULTS;
    o.timeout_ms = timeout_ms;
    cp_session *s = NULL;
    char err[256];
    cp_report r;
    char line[512];
    int n = 0;
    if (cp_observe(&o, &s, err, sizeof err) == 0 && cp_doctor(cp_session_facts(s), 1, &r) == 0) {
        for (int l = 0; l < CP_LAYER_COUNT; l++)
            n += snprintf(line + n, sizeof line - (size_t)n, "%s%s", l ? " " : "",
                          cp_status_name(r.layer_status[l]));
        cp_report_free(&r);
    }
    n += snprintf(line + n, sizeof line - (size_t)n, "\n");
    if (write(fd, line, (size_t)n) != n) _exit(1);
    cp_session_free(s);
    _exit(0);
}

static int doctor_start(doctor_run *d, int timeout_ms)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        doctor_child(p[1], timeout_ms);
    }
    close(p[1]);
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    d->pid = pid;
    d->fd = p[0];
    d->len = 0;
    d->started = now_ms();
    return 0;
}

/* Read the child's line; 1 when the run ended (v filled when it answered). */
static int doctor_read(doctor_run *d, cp_tele_verdicts *v, char words[][16])
{
    for (;;) {
        ssize_t r = read(d->fd, d->buf + d->len, sizeof d->buf - 1 - d->len);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && errno == EAGAIN) return 0;
        if (r > 0) {
            d->len += (size_t)r;
            if (d->len < sizeof d->buf - 1) continue;
        }
        break;
    }
    d->buf[d->len] = '\0';
    int n = 0;
    const char *q = d->buf;
    while (n < CP_LAYER_COUNT) {
        int used = 0;
        if (sscanf(q, " %15[a-z]%n", words[n], &used) != 1) break;
        n++;
        q += used;
    }
    if (n == CP_LAYER_COUNT) {
        v->n = n;
        for (int l = 0; l < n; l++) {
            v->layer[l] = cp_layer_name((cp_layer)l);
            v->status[l] = words[l];
        }
        v->unix_s = wall_s();
    }
    close(d->fd);
    d->fd = -1;
    int status;
    kill(d->pid, SIGKILL);
    waitpid(d->pid, &status, 0);
    d->pid = -1;
    return 1;
}

/* `cuprobe exporter`; see cli.h. */
int cmd_exporter(int argc, char **argv)
{
    const char *listen_spec = "127.0.0.1:9400", *fields = NULL, *podres_path = CP_PODRES_SOCKET, *v;
    double interval = 1, doctor_min = 10;
    cp_observe_opts obs = CP_OBSERVE_DEFAULTS;   /* its --timeout, parsed the one way */
    long max_clients = 64;
    int id;
    cli_parser p;
    cli_parser_init(&p, "exporter", argc, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        char *end;
        if (id == CLI_STOP) return p.status;
        if (id == CLI_OPERAND) return cli_usage_error("exporter takes no operand, got '%s'", v);
        errno = 0;
        if (id == OPT_LISTEN) {
            listen_spec = v;
        } else if (id == OPT_FIELDS) {
            fields = v;
        } else if (id == OPT_INTERVAL) {
            if (cli_seconds("--interval", v, 0.1, 3600, &interval) != 0) return CP_EXIT_USAGE;
        } else if (id == OPT_DOCTOR_EVERY) {
            doctor_min = strtod(v, &end);
            if (errno || end == v || *end || !(doctor_min >= 0) || doctor_min > 10080)
                return cli_usage_error("--doctor-every wants minutes from 0 to 10080, got '%s'", v);
        } else if (id == OPT_MAX_CLIENTS) {
            max_clients = strtol(v, &end, 10);
            if (errno || end == v || *end || max_clients < 1 || max_clients > MAX_CLIENTS_CAP)
                return cli_usage_error("--max-clients wants 1 to %d, got '%s'", MAX_CLIENTS_CAP, v);
        } else if (id == OPT_POD_RESOURCES) {
            podres_path = v;
        } else if (id == OPT_TIMEOUT) {
            if (cli_observe_option(id, v, &obs) < 0) return CP_EXIT_USAGE;
        } else {
            return cli_unhandled(&p);
        }
    }
    cp_tele_fields fl;
    char err[256];
    if (cp_tele_fields_parse(fields, &fl, err, sizeof err) != 0) return cli_usage_error("%s", err);
    int lfd = listen_on(listen_spec, err, sizeof err);
    if (lfd < 0) return cli_error(CP_EXIT_ERROR, "%s", err);

    cli_catch_stop();
    signal(SIGPIPE, SIG_IGN);

    cp_tele *t = cli_sampler(interval, obs.timeout_ms);
    client *cl = calloc((size_t)max_clients, sizeof *cl);
    struct pollfd *pf = calloc((size_t)max_clients + 4, sizeof *pf);
    cp_podres *pr = podres_path[0] ? cp_podres_open(podres_path, PODRES_TIMEOUT_MS) : NULL;
    if (!t || !cl || !pf || (podres_path[0] && !pr)) {
        cp_podres_close(pr);
        cp_tele_close(t);
        free(cl);
        free(pf);
        close(lfd);
        return cli_error(CP_EXIT_ERROR, "out of memory");
    }
    for (long i = 0; i < max_clients; i++) cl[i].fd = -1;
    /* the first sample before the first answer: a scrape never finds no body
     * (the listener's backlog holds early clients; bounded by --timeout) */
    body *current = build_body(cp_tele_tick(t), &fl, NULL, NULL);
    fprintf(stderr, "cuprobe: exporter serving http://");
    cp_text_put(stderr, listen_spec);
    fprintf(stderr, "/metrics\n");

    static const char *const statuses[] = { "pass", "warn", "fail", "skip", "blocked", NULL };
    char words[CP_LAYER_COUNT][16];
    cp_tele_verdicts verdicts = { 0, { 0 }, { 0 }, statuses, 0 };
    doctor_run doc = { -1, -1, { 0 }, 0, 0 };
    double next_doctor = now_ms(), next_tick = now_ms() + interval * 1000;
    double client_ms = client_timeout_ms();
    int ticking = 0, asking = 0;
    char last_error[256] = "", last_podres[400] = "";
    int podres_said = 0;                  /* the first answer is always told */
    double next_podres = now_ms(), podres_ms = podres_every_ms();

    while (!cli_stop_now) {
        double now = now_ms();
        if (!ticking && now >= next_tick) {
            cp_tele_begin(t);
            ticking = 1;
            next_tick += interval * 1000;
            if (next_tick < now) next_tick = now + interval * 1000;   /* fell behind: skip, never burst */
        }
        if (ticking && cp_tele_step(t)) {
            ticking = 0;
            const cp_tele_frame *f = cp_tele_frame_of(t);
            if (strcmp(f->error, last_error) != 0) {
                if (f->error[0]) cli_error(0, "NVML: %s", f->error);
                snprintf(last_error, sizeof last_error, "%s", f->error);
            }
            body *b = build_body(f, &fl, &verdicts, cp_podres_map_of(pr));
            if (b) {
                body_drop(current);
                current = b;    /* clients still sending the old body keep their reference */
            }
        }
        if (pr && !asking && now >= next_podres) {
            cp_podres_begin(pr);
            asking = 1;
            next_podres = now + podres_ms;
        }
        if (asking && cp_podres_step(pr)) {
            asking = 0;
            /* one line when the labels come or go (and why they went), not one per refresh of an
             * outage whose reason changes as the kubelet goes down (reset, then refused) */
            const char *e = cp_podres_error(pr);
            if ((e[0] != 0) != (last_podres[0] != 0) || !podres_said) {
                podres_said = 1;
                const cp_podres_map *m = cp_podres_map_of(pr);
                if (!e[0])
                    cli_error(0, "pod labels from %s (%d NVIDIA device%s held by containers)", podres_path,
                              m->n, m->n == 1 ? "" : "s");
                else
                    cli_error(0, "no pod labels%s: %s", m ? " (keeping the last answer)" : "", e);
                snprintf(last_podres, sizeof last_podres, "%s", e);
            }
        }
        if (doc.pid < 0 && now >= next_doctor && next_doctor >= 0) {
            if (doctor_start(&doc, obs.timeout_ms) != 0) cli_error(0, "cannot start doctor: %s", strerror(errno));
            next_doctor = doctor_min > 0 ? now + doctor_min * 60000 : -1;
        }
        if (doc.pid > 0 && now - doc.started > 4 * (double)obs.timeout_ms + 5000) {
            kill(doc.pid, SIGKILL);   /* a doctor past every deadline of its own: given up */
            doctor_read(&doc, &verdicts, words);
        }

        /* the poll set: listener (while there is room), sampler, doctor, clients */
        int n = 0, nfree = 0;
        for (long i = 0; i < max_clients; i++) nfree += cl[i].fd < 0;
        int lslot = -1, tslot = -1, dslot = -1;
        if (nfree) { lslot = n; pf[n++] = (struct pollfd){ lfd, POLLIN, 0 }; }
        if (ticking && cp_tele_fd(t) >= 0) { tslot = n; pf[n++] = (struct pollfd){ cp_tele_fd(t), POLLIN, 0 }; }
        if (doc.fd >= 0) { dslot = n; pf[n++] = (struct pollfd){ doc.fd, POLLIN, 0 }; }
        short pev = 0;
        if (asking && cp_podres_fd(pr, &pev) >= 0) pf[n++] = (struct pollfd){ cp_podres_fd(pr, NULL), pev, 0 };
        int first_client = n;
        double wake = ticking ? now + cp_tele_timeout_ms(t) : next_tick;
        if (asking && now + cp_podres_timeout_ms(pr) < wake) wake = now + cp_podres_timeout_ms(pr);
        if (pr && !asking && next_podres < wake) wake = next_podres;
        for (long i = 0; i < max_clients; i++) {
            if (cl[i].fd < 0) continue;
            pf[n++] = (struct pollfd){ cl[i].fd, cl[i].writing ? POLLOUT : POLLIN, 0 };
            if (cl[i].deadline < wake) wake = cl[i].deadline;
        }
        if (doc.pid > 0 && doc.started + 4 * (double)obs.timeout_ms + 5000 < wake) wake = doc.started + 4 * (double)obs.timeout_ms + 5000;
        int wait = wake > now ? (int)(wake - now) + 1 : 0;
        int r = poll(pf, (nfds_t)n, wait);
        if (r < 0 && errno != EINTR) break;
        if (r <= 0) {
            now = now_ms();
        }
        now = now_ms();
        if (tslot >= 0) (void)pf[tslot];     /* read in cp_tele_step above, next turn */
        if (dslot >= 0 && pf[dslot].revents) doctor_read(&doc, &verdicts, words);
        /* clients: in the order of the poll set */
        int k = first_client;
        for (long i = 0; i < max_clients; i++) {
            client *c = &cl[i];
            if (c->fd < 0) continue;
            short ev = pf[k++].revents;
            if (ev & (POLLERR | POLLNVAL)) { client_close(c); continue; }
            if (!c->writing && (ev & (POLLIN | POLLHUP)) && client_read(c, current) != 0) { client_close(c); continue; }
            if (c->writing && (ev & (POLLOUT | POLLHUP))) {
                int w = client_write(c);
                if (w != 0) { client_close(c); continue; }
            }
            if (now >= c->deadline) client_close(c);   /* slow or silent: dropped */
        }
        if (lslot >= 0 && (pf[lslot].revents & POLLIN)) {
            for (long i = 0; i < max_clients; i++) {
                if (cl[i].fd >= 0) continue;
                int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                if (fd < 0) break;
                memset(&cl[i], 0, sizeof cl[i]);
                cl[i].fd = fd;
                cl[i].deadline = now + client_ms;
            }
        }
    }
    for (long i = 0; i < max_clients; i++) client_close(&cl[i]);
    if (doc.pid > 0) {
        kill(doc.pid, SIGKILL);
        doctor_read(&doc, &verdicts, words);
    }
    body_drop(current);
    close(lfd);
    cp_podres_close(pr);
    cp_tele_close(t);
    free(cl);
    free(pf);
    fprintf(stderr, "cuprobe: exporter stopped\n");
    return 0;
}
