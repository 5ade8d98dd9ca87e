/* cuprobe top: a live view of every GPU, with what each number means.
 * Plain VT100/ANSI sequences (what xterm, tmux, screen and any ssh client
 * speak), no terminal library: the whole frame is drawn into one buffer
 * and written at once over the old one (cursor home, each line cleared to
 * its end), so nothing flickers; the alternate screen keeps the user's
 * scrollback.  The terminal is put back on every way out: q, SIGINT,
 * SIGTERM, SIGHUP, an error. */
#include <errno.h>
#include <locale.h>
#include <langinfo.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "options.h"
#include "cuprobe/cuprobe.h"
#include "cuprobe/telemetry.h"

#define HIST 120

static struct termios saved;
static int raw_on;
static volatile sig_atomic_t resized = 1;

static void on_winch(int sig)
{
    (void)sig;
    resized = 1;
}

/* Put the terminal back: cursor shown, main screen, the saved modes. */
static void restore(void)
{
    if (!raw_on) return;
    static const char back[] = "\033[0m\033[?25h\033[?1049l\033[?25h";
    if (write(STDOUT_FILENO, back, sizeof back - 1) < 0) {}
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    raw_on = 0;
}

static int enter(void)
{
    if (tcgetattr(STDIN_FILENO, &saved) != 0) return -1;
    struct termios t = saved;
    t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) != 0) return -1;
    raw_on = 1;
    atexit(restore);
    static const char in[] = "\033[?1049h\033[?25l\033[H\033[2J";
    if (write(STDOUT_FILENO, in, sizeof in - 1) < 0) return -1;
    return 0;
}

typedef struct {
    char *p;
    size_t len, cap;
} out_buf;

static void put(out_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 65536) + n;
        char *q = realloc(b->p, cap);
        if (!q) return;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

/* One screen line: at most `width` columns of text (cols counts what the
 * caller wrote), then cleared to its end. */
typedef struct {
    out_buf *b;
    int width, cols, rows, height;
    int utf8;
} screen;

static void text(screen *s, const char *t)
{
    /* printable ASCII and whole UTF-8 sequences only, cut at the width */
    for (const unsigned char *p = (const unsigned char *)t; *p && s->cols < s->width;) {
        int n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : (*p & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) { put(s->b, "?", 1); p++; s->cols++; continue; }
        int whole = 1;
        for (int k = 1; k < n; k++) whole &= (p[k] & 0xC0) == 0x80;
        if (!whole) { put(s->b, "?", 1); p++; s->cols++; continue; }
        put(s->b, (const char *)p, (size_t)n);
        p += n;
        s->cols++;
    }
}

static void textf(screen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void textf(screen *s, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    text(s, line);
}

static void style(screen *s, const char *sgr)
{
    put(s->b, sgr, strlen(sgr));
}

static void endline(screen *s)
{
    if (s->rows >= s->height) return;
    put(s->b, "\033[0m\033[K", 7);
    s->rows++;
    s->cols = 0;
    if (s->rows < s->height) put(s->b, "\r\n", 2);
}

static const char *bar_full(const screen *s) { return s->utf8 ? "\xe2\x96\x88" : "#"; }

static void bar(screen *s, int64_t pct, int w)
{
    text(s, "[");
    int n = CP_KNOWN(pct) ? (int)((pct > 100 ? 100 : pct < 0 ? 0 : pct) * w / 100) : 0;
    for (int i = 0; i < w; i++) text(s, i < n ? bar_full(s) : CP_KNOWN(pct) ? " " : "?");
    text(s, "]");
}

static void spark(screen *s, const int16_t *h, int n, int head, int w)
{
    static const char *const u[] = { " ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
                                     "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88" };
    static const char *const a[] = { " ", ".", ".", "-", "-", "=", "=", "#", "#" };
    for (int i = w; i > 0; i--) {
        if (i > n) { text(s, " "); continue; }   /* no history yet: a blank, the columns stay put */
        int v = h[(head - i + HIST) % HIST];
        text(s, v < 0 ? "?" : (s->utf8 ? u : a)[(v * 8 + 50) / 100]);
    }
}

static void pct_text(screen *s, int64_t v)
{
    if (CP_KNOWN(v)) textf(s, " %3lld %%", (long long)v);
    else text(s, "   ? %");
}

/* "  label [####    ]  62 %" */
static void meter(screen *s, const char *label, int64_t pct, int w)
{
    text(s, label);
    bar(s, pct, w);
    pct_text(s, pct);
}

static void gib(char *buf, size_t n, int64_t bytes)
{
    if (CP_KNOWN(bytes)) snprintf(buf, n, "%.1f", (double)bytes / (1024.0 * 1024 * 1024));
    else snprintf(buf, n, "?");
}

typedef struct {
    int16_t ka[HIST], sm[HIST];
} history;

static int16_t h_of(int64_t v)
{
    return CP_KNOWN(v) && v >= 0 && v <= 100 ? (int16_t)v : -1;
}

static void help_screen(screen *s)
{
    int n;
    const cp_tele_metric *m = cp_tele_metric_table(&n);
    style(s, "\033[1m");
    text(s, "cuprobe top: what each number means  (? or Esc: back, q: quit)");
    endline(s);
    endline(s);
    for (int i = 0; i < n && s->rows < s->height - 1; i++) {
        style(s, "\033[1m");
        textf(s, "%s", m[i].name);
        style(s, "\033[0m");
        textf(s, " (%s): ", m[i].unit);
        /* wrap the meaning at word ends */
        const char *p = m[i].help;
        while (*p && s->rows < s->height - 1) {
            int room = s->width - s->cols;
            int len = (int)strlen(p);
            if (len <= room) { text(s, p); break; }
            int cut = room;
            while (cut > 0 && p[cut] != ' ') cut--;
            if (cut == 0) cut = room;
            char part[1024];
            snprintf(part, sizeof part, "%.*s", cut, p);
            text(s, part);
            endline(s);
            text(s, "    ");
            p += cut;
            while (*p == ' ') p++;
        }
        endline(s);
    }
}

/* The frame: a header, then each GPU in full (6 lines) when they all fit,
 * else in one line each. */
static void draw(screen *s, const cp_tele_frame *f, const history *h, int head, int nhist, double interval)
{
    char t[16], lim[32], mx[32], used[32], total[32], reasons[256];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(t, sizeof t, "%H:%M:%S", &tm);
    style(s, "\033[1m");
    textf(s, "cuprobe top  %s  every %g s  %d GPU%s", t, interval, f->ngpu, f->ngpu == 1 ? "" : "s");
    style(s, "\033[0m");
    text(s, "   ?: what the numbers mean   q: quit");
    endline(s);
    if (f->error[0]) {
        style(s, "\033[33m");
        text(s, "NVML: ");
        text(s, f->error);
        endline(s);
    }
    int full = 2 + f->ngpu * 6 <= s->height - s->rows;
    if (!full) {
        style(s, "\033[2m");
        text(s, "GPU  state kernel-active   SM active   mem    used/tot GiB  watts   temp  clocks held by");
        endline(s);
    }
    for (int i = 0; i < f->ngpu && s->rows < s->height; i++) {
        const cp_tele_gpu *g = &f->gpu[i];
        const cp_nvml_sample *x = &g->s;
        int ok = g->state == CP_TELE_OK;
        gib(used, sizeof used, ok ? x->mem_used_bytes : CP_UNKNOWN);
        gib(total, sizeof total, g->inv.mem_total_bytes);
        reasons[0] = '\0';
        if (ok && CP_KNOWN(x->clock_event_reasons) && (x->clock_event_reasons & ~(int64_t)0x1)) {
            int n = 0;
            const char *w;
            int64_t bit;
            for (int r = 0; cp_tele_clock_reason(r, &bit, &w); r++)
                if ((x->clock_event_reasons & bit) && bit != 0x1)
                    n += snprintf(reasons + n, sizeof reasons - (size_t)n, "%s%s", n ? ", " : "", w);
        }
        int64_t xids = 0;
        for (int k = 0; k < g->nxid; k++) xids += g->xid[k].count;
        if (!full) {
            textf(s, "%-3d  ", i);
            if (!ok) style(s, "\033[31m");
            textf(s, "%-5s", cp_tele_state_name(g->state));
            style(s, "\033[0m");
            pct_text(s, ok ? x->util_gpu_pct : CP_UNKNOWN);
            text(s, " ");
            spark(s, h[i].ka, nhist, head, 8);
            pct_text(s, ok ? x->gpm_sm_active_pct : CP_UNKNOWN);
            text(s, " ");
            spark(s, h[i].sm, nhist, head, 4);
            pct_text(s, ok ? x->util_mem_pct : CP_UNKNOWN);
            textf(s, "  %6s/%-6s", used, total);
            if (ok && CP_KNOWN(x->power_mw)) textf(s, "  %5.0f", (double)x->power_mw / 1000);
            else text(s, "      ?");
            if (ok && CP_KNOWN(x->temperature_c)) textf(s, "  %3lld C", (long long)x->temperature_c);
            else text(s, "     ?");
            textf(s, "  %s", reasons[0] ? reasons : "-");
            if (xids) textf(s, "  XID x%lld", (long long)xids);
            endline(s);
            continue;
        }
        style(s, "\033[1m");
        textf(s, "GPU %d  ", i);
        text(s, g->inv.name);
        style(s, "\033[0m");
        text(s, "  ");
        text(s, g->inv.pci_bus_id);
        text(s, "  ");
        if (!ok) style(s, "\033[31m");
        text(s, cp_tele_state_name(g->state));
        style(s, "\033[0m");
        if (ok && CP_KNOWN(x->temperature_c)) textf(s, "  %lld C", (long long)x->temperature_c);
        snprintf(lim, sizeof lim, "?");
        if (CP_KNOWN(g->inv.power_limit_mw)) snprintf(lim, sizeof lim, "%.0f", (double)g->inv.power_limit_mw / 1000);
        snprintf(mx, sizeof mx, "?");
        if (CP_KNOWN(g->inv.max_sm_clock_mhz)) snprintf(mx, sizeof mx, "%lld", (long long)g->inv.max_sm_clock_mhz);
        if (ok && CP_KNOWN(x->power_mw)) textf(s, "  %.0f/%s W", (double)x->power_mw / 1000, lim);
        if (ok && CP_KNOWN(x->clock_sm_mhz)) textf(s, "  SM %lld/%s MHz", (long long)x->clock_sm_mhz, mx);
        endline(s);
        int bw = s->width > 120 ? 40 : s->width > 90 ? 25 : 16;
        int sw = s->width - (16 + bw + 2 + 6 + 2) - 2;
        if (sw > HIST) sw = HIST;
        int64_t period = ok ? x->util_gpu_period_us : CP_UNKNOWN;
        meter(s, "  kernel-active ", ok ? x->util_gpu_pct : CP_UNKNOWN, bw);
        text(s, "  ");
        spark(s, h[i].ka, nhist, head, CP_KNOWN(period) && sw > 24 ? sw - 12 : sw);
        if (CP_KNOWN(period) && sw > 24)   /* the device's own sample period behind it */
            textf(s, " per %lld ms", (long long)((period + 500) / 1000));
        endline(s);
        meter(s, "  SM active     ", ok ? x->gpm_sm_active_pct : CP_UNKNOWN, bw);
        text(s, "  ");
        spark(s, h[i].sm, nhist, head, sw);
        endline(s);
        meter(s, "  memory busy   ", ok ? x->util_mem_pct : CP_UNKNOWN, bw);
        textf(s, "  used %s of %s GiB", used, total);
        if (ok && CP_KNOWN(x->gpm_tensor_active_pct)) textf(s, "  tensor %lld %%", (long long)x->gpm_tensor_active_pct);
        endline(s);
        text(s, "  clocks held by: ");
        if (reasons[0]) style(s, "\033[33m");
        text(s, !ok ? "?" : reasons[0] ? reasons : "nothing");
        style(s, "\033[0m");
        text(s, "   XIDs: ");
        if (g->nxid == 0) text(s, "none");
        for (int k = 0; k < g->nxid; k++) {
            style(s, "\033[31m");
            textf(s, "%s%lld x%lld", k ? ", " : "", (long long)g->xid[k].code, (long long)g->xid[k].count);
            style(s, "\033[0m");
        }
        endline(s);
        text(s, "  processes: ");
        if (!ok || x->nprocs == 0) text(s, ok ? "none" : "?");
        for (int p = 0; ok && p < x->nprocs; p++) {
            char mem[32];
            gib(mem, sizeof mem, x->procs[p].used_bytes);
            const cp_gpu_process *pr = &x->procs[p];
            const char *name = cp_tele_proc_name(pr);
            textf(s, "%s%lld ", p ? ", " : "", (long long)pr->pid);
            text(s, name[0] ? name : "?");
            if (pr->container[0] || pr->pod_uid[0]) {   /* where it runs, where known */
                text(s, " [");
                text(s, pr->container);
                if (pr->pod_uid[0]) textf(s, "%spod %.8s", pr->container[0] ? " " : "", pr->pod_uid);
                text(s, "]");
            }
            textf(s, " %s GiB", mem);
            if (CP_KNOWN(pr->sm_util_pct)) textf(s, " %lld %%", (long long)pr->sm_util_pct);
        }
        endline(s);
    }
    if (s->rows < s->height) {
        style(s, "\033[2m");
        text(s, "kernel-active: share of time any kernel ran (not how busy the SMs are); SM active: how busy they are");
        endline(s);
    }
}

/* `cuprobe top`; see cli.h. */
int cmd_top(int argc, char **argv)
{
    double interval = 1;
    cp_observe_opts obs = CP_OBSERVE_DEFAULTS;   /* its --timeout, parsed the one way */
    const char *v;
    int id;
    cli_parser p;
    cli_parser_init(&p, "top", argc, argv, 0);
    while ((id = cli_next(&p, &v)) != CLI_END) {
        if (id == CLI_STOP) return p.status;
        if (id == CLI_OPERAND) return cli_usage_error("top takes no operand, got '%s'", v);
        if (id == OPT_INTERVAL) {
            if (cli_seconds("--interval", v, 0.1, 3600, &interval) != 0) return CP_EXIT_USAGE;
        } else if (id == OPT_TIMEOUT) {
            if (cli_observe_option(id, v, &obs) < 0) return CP_EXIT_USAGE;
        } else {
            return cli_unhandled(&p);
        }
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return cli_error(CP_EXIT_USAGE, "top needs a terminal; for a stream use cuprobe monitor");
    setlocale(LC_CTYPE, "");
    int utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    cp_tele *t = cli_sampler(interval, obs.timeout_ms);
    history *h = calloc(CP_MAX_GPUS, sizeof *h);
    if (!t || !h) {
        cp_tele_close(t);
        free(h);
        return cli_error(CP_EXIT_ERROR, "out of memory");
    }
    for (int i = 0; i < CP_MAX_GPUS; i++)
        for (int k = 0; k < HIST; k++) h[i].ka[k] = h[i].sm[k] = -1;
    cli_catch_stop();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_winch;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGWINCH, &sa, NULL);
    struct sigaction stop;
    sigaction(SIGTERM, NULL, &stop);
    sigaction(SIGHUP, &stop, NULL);   /* a closed ssh session stops it cleanly too */
    if (enter() != 0) {
        restore();
        cp_tele_close(t);
        free(h);
        return cli_error(CP_EXIT_ERROR, "cannot set up the terminal: %s", strerror(errno));
    }
    out_buf b = { NULL, 0, 0 };
    int help = 0, head = 0, nhist = 0, width = 80, height = 24;
    const cp_tele_frame *f = cp_tele_frame_of(t);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double next = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    int redraw = 1;
    while (!cli_stop_now) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
        if (now >= next) {
            f = cp_tele_tick(t);
            for (int i = 0; i < f->ngpu && i < CP_MAX_GPUS; i++) {
                int ok = f->gpu[i].state == CP_TELE_OK;
                h[i].ka[head] = h_of(ok ? f->gpu[i].s.util_gpu_pct : CP_UNKNOWN);
                h[i].sm[head] = h_of(ok ? f->gpu[i].s.gpm_sm_active_pct : CP_UNKNOWN);
            }
            head = (head + 1) % HIST;
            if (nhist < HIST) nhist++;
            next += interval;
            if (next < now) next = now + interval;
            redraw = 1;
        }
        if (resized) {
            struct winsize ws;
            if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
                width = ws.ws_col;
                height = ws.ws_row;
            }
            resized = 0;
            put(&b, "\033[2J", 4);
            redraw = 1;
        }
        if (redraw) {
            screen s = { &b, width, 0, 0, height, utf8 };
            put(&b, "\033[H", 3);
            if (help) help_screen(&s);
            else draw(&s, f, h, head, nhist, interval);
            put(&b, "\033[0m\033[J", 7);
            size_t off = 0;
            while (off < b.len) {
                ssize_t w = write(STDOUT_FILENO, b.p + off, b.len - off);
                if (w < 0 && errno == EINTR) continue;
                if (w <= 0) break;
                off += (size_t)w;
            }
            b.len = 0;
            redraw = 0;
        }
        clock_gettime(CLOCK_MONOTONIC, &ts);
        now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
        int wait = next > now ? (int)((next - now) * 1000) + 1 : 0;
        struct pollfd pf = { STDIN_FILENO, POLLIN, 0 };
        if (poll(&pf, 1, wait) > 0 && (pf.revents & POLLIN)) {
            char keys[32];
            ssize_t n = read(STDIN_FILENO, keys, sizeof keys);
            if (n == 0) break;   /* the terminal is gone */
            for (ssize_t k = 0; k < n; k++) {
                if (keys[k] == 'q' || keys[k] == 'Q') cli_stop_now = 1;
                else if (keys[k] == '?' || keys[k] == 'h') { help = !help; redraw = 1; }
                else if (keys[k] == 27 && help) { help = 0; redraw = 1; }
            }
        }
    }
    restore();
    free(b.p);
    free(h);
    cp_tele_close(t);
    return 0;
}
