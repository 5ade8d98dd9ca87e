/*
 * The kernel log's NVIDIA lines: XIDs (the driver's numbered GPU errors),
 * "GPU has fallen off the bus" and "API mismatch" (user-space driver and
 * kernel module of different versions).
 *
 *   6,1234,5678,-;NVRM: Xid (PCI:0000:9b:00): 79, pid=2024380, name=nvidia-smi, GPU has fallen off the bus.
 *   [  123.456] NVRM: Xid (PCI:0000:01:00): 13, pid='<unknown>', name=<unknown>, Graphics Exception ...
 *   [  123.456] NVRM: Xid (0000:01:00): 62, 0000(0000) 00000000 00000000
 *
 * Lines are matched by substring, so the record prefix (kmsg, dmesg or
 * syslog) does not matter.  The time since boot is taken from a kmsg record
 * prefix ("prio,seq,usec,flags;") or a dmesg one ("[  123.456]", "<4>[ 1.2]")
 * at the start of the line; a syslog line's "[ 1.2]" after its date is not
 * trusted, since such files span boots.
 *
 * /proc/uptime, read beside the log, turns those times into ages.  Two clocks
 * differ: printk stamps do not advance while the machine is suspended and
 * /proc/uptime does, and lxcfs gives a container its own (shorter) uptime.
 * The first makes an age too long only on machines that sleep; the second
 * makes it too short, which errs towards "recent".
 */
#include "host/host.h"
#include "util/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XID_TAG "NVRM: Xid ("
#define OFF_BUS "GPU has fallen off the bus"
#define API_MISMATCH "NVRM: API mismatch"

/* Large enough for the default 128 KiB-1 MiB kernel ring many times over. */
#define KMSG_MAX (4u << 20)

typedef cp_span span;

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* s into out (up to a NUL, cut to fit) without its trailing blanks; the
 * leading ones are the caller's to skip. */
static void copy_rtrim(span s, char *out, size_t cap)
{
    const char *nul = memchr(s.p, '\0', s.n);
    size_t n = nul ? (size_t)(nul - s.p) : s.n;
    while (n > 0 && blank(s.p[n - 1]))
        n--;
    cp_str_copy_n(out, cap, s.p, n);
}

static void skip_blanks(span *s)
{
    while (s->n > 0 && blank(*s->p)) {
        s->p++;
        s->n--;
    }
}

static bool eat(span *s, const char *lit)
{
    size_t n = strlen(lit);
    if (s->n < n || memcmp(s->p, lit, n) != 0)
        return false;
    s->p += n;
    s->n -= n;
    return true;
}

/* Decimal number at the start of s; CP_UNKNOWN when none. */
static int64_t eat_number(span *s)
{
    int64_t v = 0;
    size_t d = 0;
    while (d < s->n && s->p[d] >= '0' && s->p[d] <= '9' && d < 18) {
        v = v * 10 + (s->p[d] - '0');
        d++;
    }
    if (d == 0)
        return CP_UNKNOWN;
    s->p += d;
    s->n -= d;
    return v;
}

/* The value of "KEY=VALUE," at the start of s, up to the next comma. */
static bool eat_field(span *s, const char *key, span *val)
{
    skip_blanks(s);
    if (!eat(s, key))
        return false;
    const char *c = memchr(s->p, ',', s->n);
    size_t n = c ? (size_t)(c - s->p) : s->n;
    val->p = s->p;
    val->n = n;
    s->p += n;
    s->n -= n;
    eat(s, ",");
    return true;
}

/* Seconds since boot of one log line, from its record prefix; CP_UNKNOWN
 * when the line has none or it is garbage. */
static int64_t line_time_s(const char *line, size_t n)
{
    span s = { line, n };
    if (eat(&s, "<")) {                 /* dmesg -r: "<4>[  1.2] ..." */
        if (eat_number(&s) == CP_UNKNOWN || !eat(&s, ">"))
            return CP_UNKNOWN;
    }
    if (eat(&s, "[")) {
        skip_blanks(&s);
        int64_t sec = eat_number(&s);
        if (sec == CP_UNKNOWN)
            return CP_UNKNOWN;
        if (eat(&s, "."))
            while (s.n > 0 && *s.p >= '0' && *s.p <= '9') {
                s.p++;
                s.n--;
            }
        skip_blanks(&s);
        return eat(&s, "]") ? sec : CP_UNKNOWN;
    }
    int64_t usec = CP_UNKNOWN;
    for (int field = 0; field < 3; field++) {       /* prio, seq, usec */
        usec = eat_number(&s);
        if (usec == CP_UNKNOWN || !eat(&s, ","))
            return CP_UNKNOWN;
    }
    return memchr(s.p, ';', s.n) ? usec / 1000000 : CP_UNKNOWN;
}

/* "(PCI:0000:9b:00): 79, pid=2024380, name=nvidia-smi, GPU has fallen off the bus." */
static void parse_xid(span s, cp_xid_event *e)
{
    memset(e, 0, sizeof *e);
    e->xid = CP_UNKNOWN;
    e->pid = CP_UNKNOWN;
    e->at_s = CP_UNKNOWN;
    const char *close = memchr(s.p, ')', s.n);
    if (!close)
        return;
    span pci = { s.p, (size_t)(close - s.p) };
    eat(&pci, "PCI:");
    copy_rtrim(pci, e->pci, sizeof e->pci);
    s.n -= (size_t)(close + 1 - s.p);
    s.p = close + 1;
    if (!eat(&s, ":"))
        return;
    skip_blanks(&s);
    e->xid = eat_number(&s);
    eat(&s, ",");
    span val;
    if (eat_field(&s, "pid=", &val)) {
        e->pid = eat_number(&val);
        if (val.n > 0 && e->pid != CP_UNKNOWN)
            e->pid = CP_UNKNOWN;          /* "pid=12x": not a number after all */
    }
    if (eat_field(&s, "name=", &val))
        copy_rtrim(val, e->process, sizeof e->process);
    skip_blanks(&s);
    copy_rtrim(s, e->text, sizeof e->text);
}

static void reset_counts(cp_kernel_log *k)
{
    k->nxid = 0;
    k->xid_total = 0;
    k->fell_off_bus = 0;
    k->fell_off_bus_at_s = CP_UNKNOWN;
    k->api_mismatch = 0;
}

/* Put the ring buffer's oldest kept event first. */
static void unroll(cp_kernel_log *k)
{
    if (k->xid_total <= CP_MAX_XIDS)
        return;
    size_t head = (size_t)(k->xid_total % CP_MAX_XIDS);
    cp_xid_event tmp[CP_MAX_XIDS];
    for (size_t i = 0; i < CP_MAX_XIDS; i++)
        tmp[i] = k->xids[(head + i) % CP_MAX_XIDS];
    memcpy(k->xids, tmp, sizeof tmp);
}

static void scan_line(const char *line, size_t n, cp_kernel_log *k)
{
    const char *x = memmem(line, n, XID_TAG, sizeof XID_TAG - 1);
    if (x) {
        size_t off = (size_t)(x - line) + sizeof XID_TAG - 1;
        span s = { line + off, n - off };
        cp_xid_event *e = &k->xids[k->xid_total % CP_MAX_XIDS];
        parse_xid(s, e);
        e->at_s = line_time_s(line, n);
        k->xid_total++;
    }
    if (memmem(line, n, OFF_BUS, sizeof OFF_BUS - 1)) {
        k->fell_off_bus++;
        k->fell_off_bus_at_s = line_time_s(line, n);     /* the newest line's, even if unknown */
    }
    if (memmem(line, n, API_MISMATCH, sizeof API_MISMATCH - 1))
        k->api_mismatch++;
}

/* Count and collect the NVIDIA lines of a kernel log text (see host.h).
 * Resets the counters and events of k first; readable, source, why and
 * uptime_s are left to the reader.  Never fails. */
void cp_parse_kernel_log(const char *text, size_t len, cp_kernel_log *k)
{
    if (!k)
        return;
    reset_counts(k);
    if (!text)
        return;
    size_t pos = 0;
    span line;
    while (cp_line_next(text, len, &pos, &line))
        scan_line(line.p, line.n, k);
    unroll(k);
    k->nxid = k->xid_total < CP_MAX_XIDS ? (int)k->xid_total : CP_MAX_XIDS;
}

/* "10457.16 9812.24\n" -> 10457 (see host.h). */
int64_t cp_parse_uptime(const char *text, size_t len)
{
    if (!text)
        return CP_UNKNOWN;
    span s = { text, len };
    skip_blanks(&s);
    int64_t sec = eat_number(&s);
    if (sec == CP_UNKNOWN)
        return CP_UNKNOWN;
    if (eat(&s, "."))
        eat_number(&s);
    if (s.n > 0 && !blank(*s.p) && *s.p != '\n')
        return CP_UNKNOWN;          /* "12x", or more digits than fit */
    return sec;
}

/* Read /dev/kmsg through fs and parse it into k, and /proc/uptime into
 * k->uptime_s (CP_UNKNOWN when unreadable).  Returns 0, or -errno with
 * k->readable = CP_NO and k->why saying what to do (a non-root user on a
 * kernel with dmesg_restrict is refused). */
int cp_host_read_kernel_log(cp_fs *fs, cp_kernel_log *k)
{
    char *text = NULL;
    size_t len = 0;
    if (!k)
        return -EINVAL;
    memset(k, 0, sizeof *k);
    reset_counts(k);
    k->readable = CP_TRI_UNKNOWN;
    snprintf(k->source, sizeof k->source, "/dev/kmsg");
    int rc = cp_fs_read_device_alloc(fs, "/dev/kmsg", KMSG_MAX, &text, &len);
    char up[64];
    size_t uplen = 0;
    k->uptime_s = cp_fs_read(fs, "/proc/uptime", up, sizeof up, &uplen) == 0
                  ? cp_parse_uptime(up, uplen) : CP_UNKNOWN;
    if (rc) {
        k->readable = CP_NO;
        if (rc == -EACCES || rc == -EPERM)
            snprintf(k->why, sizeof k->why, "cannot read /dev/kmsg: permission denied "
                     "(kernel.dmesg_restrict=1?); run as root to see XIDs");
        else if (rc == -ENOENT)
            snprintf(k->why, sizeof k->why, "cannot read /dev/kmsg: it does not exist");
        else {
            char msg[96];
            snprintf(k->why, sizeof k->why, "cannot read /dev/kmsg: %s", cp_str_errno(-rc, msg, sizeof msg));
        }
        return rc;
    }
    k->readable = CP_YES;
    cp_parse_kernel_log(text, len, k);
    free(text);
    return 0;
}
