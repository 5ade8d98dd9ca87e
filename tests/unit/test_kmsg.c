/* The kernel log: XIDs, fallen-off-the-bus and API mismatch lines. */
#include "test.h"
#include "host/host.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define S(lit) lit, sizeof(lit) - 1

static cp_kernel_log k;

static const char kmsg_text[] =
    "6,1230,5670,-;nvidia: loading out-of-tree module taints kernel.\n"
    " SUBSYSTEM=module\n"
    " DEVICE=+module:nvidia\n"
    "4,1234,5678,-;NVRM: Xid (PCI:0000:9b:00): 79, pid=2024380, name=nvidia-smi, GPU has fallen off the bus.\n"
    "3,1235,5679,-;NVRM: GPU 0000:9b:00.0: GPU has fallen off the bus.\n"
    "4,1236,5680,-;NVRM: Xid (PCI:0000:18:00): 13, pid='<unknown>', name=<unknown>, "
    "Graphics SM Warp Exception on (GPC 0, TPC 0, SM 0): Out Of Range Address\n";

static const char dmesg_text[] =
    "[    0.541905] NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \n"
    "[  123.456] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n"
    "[  200.000] NVRM: API mismatch: the client has the version 580.95.05, but\n"
    "[  200.000] NVRM: this kernel module has the version 580.159.04.  Please\n"
    "[ 3000.1] NVRM: Xid (0000:02:00): 62, 0000(0000) 00000000 00000000\n"
    "[ 3001.2] NVRM: Xid (PCI:0000:03:00): 31, pid=1234, name=python3, Ch 00000010, intr 10000000";

static void test_kmsg_form(void)
{
    cp_parse_kernel_log(S(kmsg_text), &k);
    CHECK_I64(k.xid_total, 2);
    CHECK_I64(k.nxid, 2);
    CHECK_I64(k.fell_off_bus, 2);
    CHECK_I64(k.api_mismatch, 0);
    cp_xid_event *e = &k.xids[0];
    CHECK_I64(e->xid, 79);
    CHECK_STR(e->pci, "0000:9b:00");
    CHECK_I64(e->pid, 2024380);
    CHECK_STR(e->process, "nvidia-smi");
    CHECK_STR(e->text, "GPU has fallen off the bus.");
    e = &k.xids[1];
    CHECK_I64(e->xid, 13);
    CHECK_STR(e->pci, "0000:18:00");
    CHECK_I64(e->pid, CP_UNKNOWN);
    CHECK_STR(e->process, "<unknown>");
    CHECK(strncmp(e->text, "Graphics SM Warp Exception on (GPC 0", 36) == 0);
    /* microseconds since boot, whole seconds kept */
    CHECK_I64(k.xids[0].at_s, 0);
    CHECK_I64(k.fell_off_bus_at_s, 0);
    cp_parse_kernel_log(S("4,1234,345600123456,-;NVRM: Xid (PCI:0000:9b:00): 79, pid=1, name=a, GPU has fallen off the bus.\n"
                          "4,1235,345601999999,-,caller=T12;NVRM: Xid (PCI:0000:9b:00): 13, x\n"), &k);
    CHECK_I64(k.xids[0].at_s, 345600);
    CHECK_I64(k.xids[1].at_s, 345601);
    CHECK_I64(k.fell_off_bus_at_s, 345600);
}

static void test_dmesg_form(void)
{
    cp_parse_kernel_log(S(dmesg_text), &k);     /* no final newline */
    CHECK_I64(k.xid_total, 3);
    CHECK_I64(k.fell_off_bus, 1);
    CHECK_I64(k.api_mismatch, 1);
    CHECK_I64(k.xids[0].xid, 79);
    CHECK_STR(k.xids[0].pci, "0000:01:00");
    CHECK_I64(k.xids[0].pid, CP_UNKNOWN);
    CHECK_STR(k.xids[0].process, "");
    CHECK_STR(k.xids[0].text, "GPU has fallen off the bus.");
    CHECK_I64(k.xids[1].xid, 62);
    CHECK_STR(k.xids[1].pci, "0000:02:00");
    CHECK_STR(k.xids[1].text, "0000(0000) 00000000 00000000");
    CHECK_I64(k.xids[2].xid, 31);
    CHECK_I64(k.xids[2].pid, 1234);
    CHECK_STR(k.xids[2].process, "python3");
    CHECK_STR(k.xids[2].text, "Ch 00000010, intr 10000000");
    CHECK_I64(k.xids[0].at_s, 123);
    CHECK_I64(k.xids[1].at_s, 3000);
    CHECK_I64(k.xids[2].at_s, 3001);
    CHECK_I64(k.fell_off_bus_at_s, 123);
}

/* Timestamps that are missing, malformed or not trusted leave at_s unknown. */
static void test_times(void)
{
    static const struct { const char *line; long long at_s; } cases[] = {
        { "[  7.5] NVRM: Xid (PCI:0000:01:00): 79, x", 7 },
        { "[7] NVRM: Xid (PCI:0000:01:00): 79, x", 7 },
        { "[ 86400.000001 ]NVRM: Xid (PCI:0000:01:00): 79, x", 86400 },
        { "<4>[   12.25] NVRM: Xid (PCI:0000:01:00): 79, x", 12 },
        { "6,1,2000000,c;NVRM: Xid (PCI:0000:01:00): 79, x", 2 },
        { "NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "[] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "[abc] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "[ 12 NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "[-5.0] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "[1.2.3] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "[99999999999999999999.0] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "[Mon Nov 30 03:57:00 2026] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "<x>[ 1.0] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "<4 [ 1.0] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { " [ 1.0] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "Nov 30 03:57:00 h kernel: [ 5.0] NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "4,1,,-;NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "4,1,2000000-;NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "4,1,2000000,-NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "4,1,x2000000,-;NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "4,1,99999999999999999999,-;NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
        { "4,1;NVRM: Xid (PCI:0000:01:00): 79, x", CP_UNKNOWN },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cp_parse_kernel_log(cases[i].line, strlen(cases[i].line), &k);
        CHECK_I64(k.xid_total, 1);
        if (k.xids[0].at_s != cases[i].at_s)
            fprintf(stderr, "  line %zu: '%s'\n", i, cases[i].line);
        CHECK_I64(k.xids[0].at_s, cases[i].at_s);
        CHECK_I64(k.xids[0].xid, 79);
    }
    /* a NUL inside the prefix ends the timestamp */
    cp_parse_kernel_log(S("[ 5\0.0] NVRM: Xid (PCI:0000:01:00): 79, x"), &k);
    CHECK_I64(k.xids[0].at_s, CP_UNKNOWN);
    /* the newest fallen-off-the-bus line decides, even without a time */
    cp_parse_kernel_log(S("[ 5.0] NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n"
                          "NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n"), &k);
    CHECK_I64(k.fell_off_bus, 2);
    CHECK_I64(k.fell_off_bus_at_s, CP_UNKNOWN);
    cp_parse_kernel_log(S("[ 5.0] NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n"
                          "[ 9.0] NVRM: GPU 0000:01:00.0: GPU has fallen off the bus.\n"), &k);
    CHECK_I64(k.fell_off_bus_at_s, 9);
    cp_parse_kernel_log(S("[ 5.0] NVRM: nothing\n"), &k);
    CHECK_I64(k.fell_off_bus, 0);
    CHECK_I64(k.fell_off_bus_at_s, CP_UNKNOWN);
    /* the ring keeps each event's own time */
    cp_parse_kernel_log(S("[ 1.0] NVRM: Xid (PCI:0000:01:00): 13, a\n"
                          "NVRM: Xid (PCI:0000:01:00): 13, b\n"
                          "[ 3.0] NVRM: Xid (PCI:0000:01:00): 13, c\n"), &k);
    CHECK_I64(k.xids[0].at_s, 1);
    CHECK_I64(k.xids[1].at_s, CP_UNKNOWN);
    CHECK_I64(k.xids[2].at_s, 3);
}

static void test_uptime(void)
{
    CHECK_I64(cp_parse_uptime(S("10457.16 9812.24\n")), 10457);
    CHECK_I64(cp_parse_uptime(S("  42.5\n")), 42);
    CHECK_I64(cp_parse_uptime(S("42")), 42);
    CHECK_I64(cp_parse_uptime(S("42.")), 42);
    CHECK_I64(cp_parse_uptime(S("0.00 0.00\n")), 0);
    CHECK_I64(cp_parse_uptime(S("")), CP_UNKNOWN);
    CHECK_I64(cp_parse_uptime(S("\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_uptime(S("x 1\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_uptime(S("12x 1\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_uptime(S("-12 1\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_uptime(S("99999999999999999999.0 1\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_uptime(S("12\0 1\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_uptime("12", 1), 1);         /* len, not the NUL, ends the text */
    CHECK_I64(cp_parse_uptime(NULL, 4), CP_UNKNOWN);
}

static void test_keeps_newest(void)
{
    size_t cap = 200 * 100;
    char *text = malloc(cap);
    size_t len = 0;
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "[%d.0] NVRM: Xid (PCI:0000:01:00): %d, pid=%d, name=p, x\n",
                                i, i, i + 1000);
    cp_parse_kernel_log(text, len, &k);
    CHECK_I64(k.xid_total, 200);
    CHECK_I64(k.nxid, CP_MAX_XIDS);
    CHECK_I64(k.xids[0].xid, 200 - CP_MAX_XIDS);
    CHECK_I64(k.xids[CP_MAX_XIDS - 1].xid, 199);
    CHECK_I64(k.xids[CP_MAX_XIDS - 1].pid, 1199);
    for (int i = 1; i < CP_MAX_XIDS; i++)
        CHECK_I64(k.xids[i].xid, k.xids[i - 1].xid + 1);

    /* exactly CP_MAX_XIDS: nothing rotates */
    size_t cut = 0;
    for (int lines = 0; lines < CP_MAX_XIDS; cut++)
        if (text[cut] == '\n')
            lines++;
    cp_parse_kernel_log(text, cut, &k);
    CHECK_I64(k.nxid, CP_MAX_XIDS);
    CHECK_I64(k.xids[0].xid, 0);
    CHECK_I64(k.xids[CP_MAX_XIDS - 1].xid, CP_MAX_XIDS - 1);
    free(text);
}

static void test_garbage(void)
{
    cp_parse_kernel_log(S("NVRM: Xid ("), &k);
    CHECK_I64(k.xid_total, 1);
    CHECK_I64(k.xids[0].xid, CP_UNKNOWN);
    CHECK_STR(k.xids[0].pci, "");
    cp_parse_kernel_log(S("NVRM: Xid (PCI:0000:01:00): x, pid=12x, name="), &k);
    CHECK_I64(k.xids[0].xid, CP_UNKNOWN);
    CHECK_STR(k.xids[0].pci, "0000:01:00");
    cp_parse_kernel_log(S("NVRM: Xid (PCI:0000:01:00): 48, pid=12x, name=abc"), &k);
    CHECK_I64(k.xids[0].xid, 48);
    CHECK_I64(k.xids[0].pid, CP_UNKNOWN);
    CHECK_STR(k.xids[0].process, "abc");
    cp_parse_kernel_log(S("NVRM: Xid (PCI:0000:01:00) 48"), &k);
    CHECK_I64(k.xids[0].xid, CP_UNKNOWN);
    /* NULs inside a line: what follows is still searched */
    cp_parse_kernel_log(S("x\0NVRM: Xid (PCI:00\0:01:00): 94, pid=1, name=a\0b, c\0d\n"
                          "\0GPU has fallen off the bus\n"), &k);
    CHECK_I64(k.xid_total, 1);
    CHECK_I64(k.xids[0].xid, 94);
    CHECK_STR(k.xids[0].pci, "00");
    CHECK_STR(k.xids[0].process, "a");
    CHECK_STR(k.xids[0].text, "c");
    CHECK_I64(k.fell_off_bus, 1);
    /* overlong fields are cut */
    static char big[20000];
    memset(big, 'z', sizeof big);
    memcpy(big, "NVRM: Xid (PCI:", 15);
    big[5000] = ')';
    memcpy(big + 5001, ": 79, pid=1, name=", 18);
    cp_parse_kernel_log(big, sizeof big, &k);
    CHECK_I64(k.xids[0].xid, 79);
    CHECK_I64((long long)strlen(k.xids[0].pci), sizeof k.xids[0].pci - 1);
    CHECK_I64((long long)strlen(k.xids[0].process), sizeof k.xids[0].process - 1);
    cp_parse_kernel_log(S("NVRM: Xid (PCI:0): 99999999999999999999999999, x"), &k);
    CHECK(k.xids[0].xid >= 0 || k.xids[0].xid == CP_UNKNOWN);
    /* truncated tag */
    cp_parse_kernel_log(kmsg_text + 0, 120, &k);
    CHECK_I64(k.xid_total, 0);
    cp_parse_kernel_log(NULL, 4, &k);
    CHECK_I64(k.xid_total, 0);
    cp_parse_kernel_log("", 0, NULL);
}

static void test_reader(void)
{
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-1gpu/root", false);
    CHECK_I64(cp_host_read_kernel_log(fs, &k), 0);
    CHECK_I64(k.readable, CP_YES);
    CHECK_STR(k.source, "/dev/kmsg");
    CHECK_I64(k.xid_total, 0);
    CHECK_I64(k.fell_off_bus, 0);
    CHECK_I64(k.api_mismatch, 0);
    CHECK_I64(k.uptime_s, CP_UNKNOWN);              /* the fixture has no /proc/uptime */
    cp_fs_fail_read_at(fs, 1);
    CHECK_I64(cp_host_read_kernel_log(fs, &k), -EIO);
    CHECK_I64(k.readable, CP_NO);
    CHECK_STR(k.why, "cannot read /dev/kmsg: input/output error");
    cp_fs_close(fs);

    fs = cp_fs_open("tests/fixtures/no-gpu/root", false);
    CHECK_I64(cp_host_read_kernel_log(fs, &k), -ENOENT);
    CHECK_I64(k.readable, CP_NO);
    CHECK_STR(k.why, "cannot read /dev/kmsg: it does not exist");
    CHECK_I64(k.fell_off_bus_at_s, CP_UNKNOWN);
    CHECK_I64(k.uptime_s, CP_UNKNOWN);
    cp_fs_close(fs);
}

/* A tree of its own: /dev/kmsg beside /proc/uptime, then a bad uptime. */
static void test_reader_uptime(void)
{
    char dir[] = "/tmp/cuprobe-kmsg-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char p[128];
    snprintf(p, sizeof p, "%s/dev", dir);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/proc", dir);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/dev/kmsg", dir);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs("4,1201,912345678,-;NVRM: Xid (PCI:0000:00:06): 79, pid='<unknown>', name=<unknown>, "
              "GPU has fallen off the bus.\n", f);
        fclose(f);
    }
    snprintf(p, sizeof p, "%s/proc/uptime", dir);
    f = fopen(p, "w");
    if (f) {
        fputs("275112.48 4389011.52\n", f);
        fclose(f);
    }
    cp_fs *fs = cp_fs_open(dir, false);
    CHECK_I64(cp_host_read_kernel_log(fs, &k), 0);
    CHECK_I64(k.uptime_s, 275112);
    CHECK_I64(k.xids[0].at_s, 912);
    CHECK_I64(k.fell_off_bus_at_s, 912);
    f = fopen(p, "w");
    if (f) {
        fputs("soon\n", f);
        fclose(f);
    }
    CHECK_I64(cp_host_read_kernel_log(fs, &k), 0);
    CHECK_I64(k.uptime_s, CP_UNKNOWN);
    CHECK_I64(k.xids[0].at_s, 912);
    cp_fs_fail_read_at(fs, 2);                      /* /proc/uptime is the second read */
    CHECK_I64(cp_host_read_kernel_log(fs, &k), 0);
    CHECK_I64(k.uptime_s, CP_UNKNOWN);
    cp_fs_close(fs);
    unlink(p);
    snprintf(p, sizeof p, "%s/dev/kmsg", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/proc", dir);
    rmdir(p);
    snprintf(p, sizeof p, "%s/dev", dir);
    rmdir(p);
    rmdir(dir);
}

static void test_reader_denied(void)
{
    /* root reads everything: only an ordinary user can be refused */
    if (geteuid() == 0)
        return;
    char dir[] = "/tmp/cuprobe-kmsg-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char p[128];
    snprintf(p, sizeof p, "%s/dev", dir);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/dev/kmsg", dir);
    FILE *f = fopen(p, "w");
    if (f)
        fclose(f);
    chmod(p, 0);
    cp_fs *fs = cp_fs_open(dir, false);
    CHECK_I64(cp_host_read_kernel_log(fs, &k), -EACCES);
    CHECK_I64(k.readable, CP_NO);
    CHECK_STR(k.why, "cannot read /dev/kmsg: permission denied "
                     "(kernel.dmesg_restrict=1?); run as root to see XIDs");
    cp_fs_close(fs);
    unlink(p);
    snprintf(p, sizeof p, "%s/dev", dir);
    rmdir(p);
    rmdir(dir);
}

int main(void)
{
    RUN(test_kmsg_form);
    RUN(test_dmesg_form);
    RUN(test_keeps_newest);
    RUN(test_garbage);
    RUN(test_times);
    RUN(test_uptime);
    RUN(test_reader);
    RUN(test_reader_uptime);
    RUN(test_reader_denied);
    return TEST_END();
}
