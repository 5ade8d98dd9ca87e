/* The XID checks: an XID's age decides whether it is news or history. */
#include "test.h"
#include "checks/check.h"
#include "host/host.h"

#define DAY (24 * 3600)

static cp_facts f;
static cp_finding o;

/* Run the XID check of a layer over a log text read at uptime_s. */
static void run(cp_layer layer, const char *log, int64_t uptime_s)
{
    cp_facts_init(&f);
    f.host.klog.readable = CP_YES;
    cp_parse_kernel_log(log, strlen(log), &f.host.klog);
    f.host.klog.uptime_s = uptime_s;
    memset(&o, 0, sizeof o);
    o.layer = layer;
    cp_check_xid(&f, &o);
}

static int has(const char *text, const char *part)
{
    if (!strstr(text, part)) {
        fprintf(stderr, "  '%s' lacks '%s'\n", text, part);
        return 0;
    }
    return 1;
}

#define XID79 "NVRM: Xid (PCI:0000:9b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
#define XID48 "NVRM: Xid (PCI:0000:9b:00): 48, pid=1, name=a, DBE\n"
#define XID13 "NVRM: Xid (PCI:0000:9b:00): 13, pid=1, name=a, Graphics Exception\n"
#define OFFBUS "NVRM: GPU 0000:9b:00.0: GPU has fallen off the bus.\n"

static void test_old_is_history(void)
{
    /* 3 d 4 h between the line (1000 s) and the reading */
    run(CP_LAYER_HARDWARE, "[ 1000.5] " XID79, 1000 + 3 * DAY + 4 * 3600 + 59);
    CHECK_I64(o.status, CP_WARN);
    CHECK(has(o.summary, "1 hardware XID in the kernel log, worst Xid 79 is old (3 d 4 h ago): "));
    CHECK(has(o.evidence, "Xid 79 at 0000:9b:00 GPU_HAS_FALLEN_OFF_THE_BUS, 3 d 4 h ago: GPU has fallen off the bus."));
    CHECK(has(o.fix, "older than 24 h"));
    CHECK(has(o.fix, "watch the kernel log for a repeat"));
    CHECK(has(o.fix, "reset it"));
}

static void test_recent_fails(void)
{
    run(CP_LAYER_HARDWARE, "[ 1000.5] " XID79, 1000 + 5 * 3600 + 12 * 60);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(has(o.summary, "1 hardware XID in the kernel log, worst Xid 79: "));
    CHECK(has(o.evidence, "GPU_HAS_FALLEN_OFF_THE_BUS, 5 h 12 min ago: "));
    CHECK(!strstr(o.fix, "older than"));
    /* exactly the threshold is still news */
    run(CP_LAYER_HARDWARE, "[ 1000.5] " XID79, 1000 + DAY);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(has(o.evidence, "1 d 0 h ago"));
    run(CP_LAYER_HARDWARE, "[ 1000.5] " XID79, 1000 + DAY + 1);
    CHECK_I64(o.status, CP_WARN);
    run(CP_LAYER_HARDWARE, "[ 1000.5] " XID79, 1040);
    CHECK(has(o.evidence, ", 40 s ago: "));
    run(CP_LAYER_HARDWARE, "[ 1000.5] " XID79, 1000 + 12 * 60 + 5);
    CHECK(has(o.evidence, ", 12 min ago: "));
}

static void test_unknown_age(void)
{
    /* no /proc/uptime: as before ages existed */
    run(CP_LAYER_HARDWARE, "[ 1000.5] " XID79, CP_UNKNOWN);
    CHECK_I64(o.status, CP_FAIL);
    CHECK_STR(o.evidence, "Xid 79 at 0000:9b:00 GPU_HAS_FALLEN_OFF_THE_BUS: GPU has fallen off the bus.");
    /* no timestamp on the line */
    run(CP_LAYER_HARDWARE, XID79, 10 * DAY);
    CHECK_I64(o.status, CP_FAIL);
    /* a line stamped after the uptime (a container's own uptime): not trusted */
    run(CP_LAYER_HARDWARE, "[ 900000.0] " XID79, 10 * DAY);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(!strstr(o.evidence, "ago"));
}

static void test_mixed(void)
{
    /* an old double-bit error and a recent one: the recent one speaks */
    run(CP_LAYER_HARDWARE, "[ 10.0] " XID48 "[ 500000.0] " XID48, 500000 + 60);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(has(o.summary, "2 hardware XIDs in the kernel log (1 older than 24 h), worst Xid 48: "));
    CHECK(strstr(o.evidence, "1 min ago") < strstr(o.evidence, "5 d 18 h ago"));   /* recent first */
    /* an old fall off the bus under a recent application XID: the layers keep apart */
    run(CP_LAYER_APPLICATION, "[ 10.0] " XID79 "[ 500000.0] " XID13, 500000 + 60);
    CHECK_I64(o.status, CP_WARN);
    CHECK(has(o.summary, "1 application XID in the kernel log, worst Xid 13: "));
    run(CP_LAYER_HARDWARE, "[ 10.0] " XID79 "[ 500000.0] " XID13, 500000 + 60);
    CHECK_I64(o.status, CP_WARN);
    CHECK(has(o.summary, "worst Xid 79 is old (5 d 18 h ago)"));
}

static void test_off_bus_lines(void)
{
    /* without an Xid: aged by the newest line */
    run(CP_LAYER_HARDWARE, "[ 10.0] " OFFBUS "[ 20.0] " OFFBUS, 20 + 2 * DAY);
    CHECK_I64(o.status, CP_WARN);
    CHECK(has(o.evidence, "2 kernel log lines: GPU has fallen off the bus, the newest 2 d 0 h ago"));
    CHECK(has(o.summary, "1 hardware XID in the kernel log, worst Xid 79 is old (2 d 0 h ago)"));
    run(CP_LAYER_HARDWARE, "[ 10.0] " OFFBUS "[ 200000.0] " OFFBUS, 200000 + 30);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(has(o.evidence, "the newest 30 s ago"));
    /* the newest line has no time: as before */
    run(CP_LAYER_HARDWARE, "[ 10.0] " OFFBUS OFFBUS, 20 * DAY);
    CHECK_I64(o.status, CP_FAIL);
    CHECK_STR(o.evidence, "2 kernel log lines: GPU has fallen off the bus");
    /* an old Xid 79 and a recent fall without an Xid: news */
    run(CP_LAYER_HARDWARE, "[ 10.0] " XID79 "[ 500000.0] " OFFBUS, 500000 + 60);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(has(o.evidence, "2 kernel log lines: GPU has fallen off the bus, the newest 1 min ago"));
    /* an old double-bit error and a recent fall without an Xid */
    run(CP_LAYER_HARDWARE, "[ 10.0] " XID48 "[ 500000.0] " OFFBUS, 500000 + 60);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(has(o.summary, "2 hardware XIDs in the kernel log (1 older than 24 h), worst Xid 79: "));
    CHECK(!strstr(o.fix, "older than"));
    /* an old Xid 79 is its own fallen-off-the-bus line: listed once */
    run(CP_LAYER_HARDWARE, "[ 10.0] " XID79, 10 * DAY);
    CHECK_I64(o.status, CP_WARN);
    CHECK(!strstr(o.evidence, "kernel log line"));
}

static void test_driver_layer(void)
{
    /* an API mismatch still fails however old the XIDs beside it */
    run(CP_LAYER_DRIVER, "[ 10.0] NVRM: API mismatch: the client has the version 1\n", 10 * DAY);
    CHECK_I64(o.status, CP_FAIL);
    CHECK(has(o.summary, "API mismatch"));
    run(CP_LAYER_DRIVER, "", 10 * DAY);
    CHECK_I64(o.status, CP_PASS);
    CHECK_STR(o.summary, "no driver XIDs in the kernel log");
}

int main(void)
{
    RUN(test_old_is_history);
    RUN(test_recent_fails);
    RUN(test_unknown_age);
    RUN(test_mixed);
    RUN(test_off_bus_lines);
    RUN(test_driver_layer);
    return TEST_END();
}
