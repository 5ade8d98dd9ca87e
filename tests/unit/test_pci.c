/* PCI: the two sysfs number parsers and the reader against fixture trees. */
#include "test.h"
#include "host/host.h"
#include "fake_tree.h"
#include "checks/check.h"

#include <errno.h>
#include <stdlib.h>

#define S(lit) lit, sizeof(lit) - 1

static void test_link_speed(void)
{
    CHECK_I64(cp_parse_link_speed(S("32.0 GT/s PCIe\n")), 32000);
    CHECK_I64(cp_parse_link_speed(S("16.0 GT/s PCIe")), 16000);
    CHECK_I64(cp_parse_link_speed(S("2.5 GT/s PCIe\n")), 2500);
    CHECK_I64(cp_parse_link_speed(S("2.5 GT/s\n")), 2500);
    CHECK_I64(cp_parse_link_speed(S("8 GT/s\n")), 8000);
    CHECK_I64(cp_parse_link_speed(S("5.0 GT/s")), 5000);
    CHECK_I64(cp_parse_link_speed(S("64.0 GT/s PCIe\n")), 64000);
    CHECK_I64(cp_parse_link_speed(S("  8.0 GT/s PCIe  \n")), 8000);
    CHECK_I64(cp_parse_link_speed(S("8.0")), 8000);
    CHECK_I64(cp_parse_link_speed(S("2.5125 GT/s")), 2512);
    CHECK_I64(cp_parse_link_speed(S("Unknown\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S("Unknown speed\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S("")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S("\n")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S("8. GT/s")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S(".5 GT/s")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S("8 GB/s")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S("8 GT/s 9")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S("99999999999999999999 GT/s")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(S("8\0 GT/s")), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed(NULL, 4), CP_UNKNOWN);
    /* length is obeyed: "32" of "32.0 GT/s" */
    CHECK_I64(cp_parse_link_speed("32.0 GT/s", 2), 32000);
    CHECK_I64(cp_parse_link_speed("32.0 GT/s", 0), CP_UNKNOWN);
    CHECK_I64(cp_parse_link_speed("8 GT", 4), CP_UNKNOWN);
}

static void test_sysfs_int(void)
{
    CHECK_I64(cp_parse_sysfs_int(S("0x10de\n"), 1), 0x10de);
    CHECK_I64(cp_parse_sysfs_int(S("0x030200\n"), 1), 0x030200);
    CHECK_I64(cp_parse_sysfs_int(S("10DE"), 1), 0x10de);
    CHECK_I64(cp_parse_sysfs_int(S("0XA1"), 1), 0xa1);
    CHECK_I64(cp_parse_sysfs_int(S("16\n"), 0), 16);
    CHECK_I64(cp_parse_sysfs_int(S("-1\n"), 0), -1);
    CHECK_I64(cp_parse_sysfs_int(S(" \t 7 \n"), 0), 7);
    CHECK_I64(cp_parse_sysfs_int(S("0\n"), 0), 0);
    CHECK_I64(cp_parse_sysfs_int(S("0x10de"), 0), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int(S("0x"), 1), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int(S("-"), 0), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int(S(""), 0), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int(S("12 34"), 0), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int(S("12abc"), 0), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int(S("1\0002"), 0), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int(S("9223372036854775807"), 0), INT64_MAX);
    CHECK_I64(cp_parse_sysfs_int(S("-9223372036854775807"), 0), -INT64_MAX);
    CHECK_I64(cp_parse_sysfs_int(S("9223372036854775808"), 0), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int(S("0xffffffffffffffffff"), 1), CP_UNKNOWN);
    CHECK_I64(cp_parse_sysfs_int("0x10de", 4, 1), 0x10);
    CHECK_I64(cp_parse_sysfs_int(NULL, 3, 1), CP_UNKNOWN);
}

static cp_host_facts *new_facts(void)
{
    return calloc(1, sizeof(cp_host_facts));
}

static void test_read_1gpu(void)
{
    cp_host_facts *h = new_facts();
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-1gpu/root", false);
    CHECK_I64(cp_host_read_pci(fs, h), 0);
    CHECK_I64(h->npci, 1);
    CHECK_I64(h->npci_total, 1);
    cp_pci_function *p = &h->pci[0];
    CHECK_STR(p->addr, "0000:00:06.0");
    CHECK_I64(p->vendor, 0x10de);
    CHECK_I64(p->device, 0x2335);
    CHECK_I64(p->class_code, 0x030200);
    CHECK_I64(p->subsys_vendor, 0x10de);
    CHECK_I64(p->subsys_device, 0x18bf);
    CHECK_I64(p->revision, 0xa1);
    CHECK_I64(p->numa_node, -1);
    CHECK_I64(p->cur_speed_mts, 32000);
    CHECK_I64(p->max_speed_mts, 32000);
    CHECK_I64(p->cur_width, 16);
    CHECK_I64(p->max_width, 16);
    CHECK_STR(p->driver, "nvidia");
    cp_fs_close(fs);
    free(h);
}

static void test_read_2gpu(void)
{
    cp_host_facts *h = new_facts();
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-2gpu/root", false);
    CHECK_I64(cp_host_read_pci(fs, h), 0);
    CHECK_I64(h->npci, 2);
    CHECK_I64(h->npci_total, 2);
    CHECK_STR(h->pci[0].addr, "0000:00:06.0");
    CHECK_STR(h->pci[1].addr, "0000:00:07.0");
    CHECK_STR(h->pci[1].driver, "nvidia");
    CHECK_I64(h->pci[1].device, 0x2335);
    CHECK_STR(h->pci[1].local_cpulist, "0-31");
    cp_fs_close(fs);
    free(h);
}

/* sysfs local_cpulist: the list as written, the newline dropped; anything
 * else, or a list too long for the field, is unknown (""). */
static void test_cpulist(void)
{
    char out[16];
    cp_parse_cpulist("0-31,64-95\n", 11, out, sizeof out);
    CHECK_STR(out, "0-31,64-95");
    cp_parse_cpulist("7", 1, out, sizeof out);
    CHECK_STR(out, "7");
    cp_parse_cpulist("0-3\033[2J\n", 9, out, sizeof out);
    CHECK_STR(out, "");
    cp_parse_cpulist("0-1,2-3,4-5,6-7,8-9\n", 20, out, sizeof out);
    CHECK_STR(out, "");
    cp_parse_cpulist("\n", 1, out, sizeof out);
    CHECK_STR(out, "");
    cp_parse_cpulist("0-31", 4, out, 0);      /* no room: nothing written */
}

static void test_read_no_gpu(void)
{
    cp_host_facts *h = new_facts();
    cp_fs *fs = cp_fs_open("tests/fixtures/no-gpu/root", false);
    h->npci = 5;
    CHECK_I64(cp_host_read_pci(fs, h), 0);
    CHECK_I64(h->npci, 0);
    CHECK_I64(h->npci_total, 0);
    cp_fs_close(fs);

    /* no sysfs at all: unknown, not zero */
    fs = cp_fs_open("tests/fixtures/no-such-root", false);
    CHECK_I64(cp_host_read_pci(fs, h), -ENOENT);
    CHECK_I64(h->npci, 0);
    CHECK_I64(h->npci_total, CP_UNKNOWN);
    cp_fs_close(fs);
    CHECK_I64(cp_host_read_pci(NULL, h), -EINVAL);
    free(h);
}

/* Every read failing in turn: the reader never crashes and a failed
 * attribute reads as unknown, never as a made-up number. */
static void test_read_fault_injection(void)
{
    cp_host_facts *h = new_facts();
    for (long n = 1; n < 40; n++) {
        cp_fs *fs = cp_fs_open("tests/fixtures/h200-1gpu/root", false);
        cp_fs_fail_read_at(fs, n);
        CHECK_I64(cp_host_read_pci(fs, h), 0);
        CHECK(h->npci <= 1);
        for (int i = 0; i < h->npci; i++) {
            const cp_pci_function *p = &h->pci[i];
            CHECK(p->device == 0x2335 || p->device == CP_UNKNOWN);
            CHECK(p->cur_speed_mts == 32000 || p->cur_speed_mts == CP_UNKNOWN);
            CHECK(p->numa_node == -1 || p->numa_node == CP_UNKNOWN);
        }
        cp_fs_close(fs);
    }
    free(h);
}

static void test_recorded(void)
{
    cp_host_facts *h = new_facts();
    cp_fs *fs = cp_fs_open("tests/fixtures/h200-2gpu/root", true);
    CHECK_I64(cp_host_read_pci(fs, h), 0);
    char dir[] = "/tmp/cuprobe-pci-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char err[256];
    CHECK_I64(cp_fs_write_snapshot(fs, dir, err, sizeof err), 0);
    cp_fs_close(fs);
    /* replaying the snapshot gives the same facts */
    cp_host_facts *h2 = new_facts();
    fs = cp_fs_open(dir, false);
    CHECK_I64(cp_host_read_pci(fs, h2), 0);
    CHECK_I64(h2->npci, 2);
    CHECK(memcmp(h->pci, h2->pci, sizeof h->pci) == 0);
    cp_fs_close(fs);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    free(h);
    free(h2);
}

/* A large host: 300 NVIDIA functions (NVSwitch bridges, audio) with the
 * GPUs at the highest addresses.  Every GPU is kept, in address order, and
 * the count says how many functions were not. */
static void test_many_functions_gpus_last(void)
{
    snprintf(root, sizeof root, "/tmp/cuprobe-pci-many-XXXXXX");
    CHECK(mkdtemp(root) != NULL);
    char rel[128];
    for (int i = 0; i < 300; i++) {
        int gpu = i >= 296;
        char addr[16];
        snprintf(addr, sizeof addr, "0000:%02x:%02x.%d", i / 32, i % 32 / 8 * 2 + (gpu ? 1 : 0), i % 8);
        snprintf(rel, sizeof rel, "/sys/bus/pci/devices/%s/vendor", addr);
        put_file(rel, "0x10de\n");
        snprintf(rel, sizeof rel, "/sys/bus/pci/devices/%s/class", addr);
        put_file(rel, gpu ? "0x030200\n" : i % 2 ? "0x068000\n" : "0x040300\n");
        snprintf(rel, sizeof rel, "/sys/bus/pci/devices/%s/device", addr);
        put_file(rel, gpu ? "0x2335\n" : "0x22a3\n");
    }
    put_file("/sys/bus/pci/devices/0000:ff:00.0/vendor", "0x8086\n");   /* not NVIDIA: not counted */
    cp_host_facts *h = new_facts();
    cp_fs *fs = cp_fs_open(root, false);
    CHECK_I64(cp_host_read_pci(fs, h), 0);
    CHECK_I64(h->npci_total, 300);
    CHECK(h->npci <= CP_MAX_PCI);
    int gpus = 0;
    for (int i = 0; i < h->npci; i++) {
        gpus += (h->pci[i].class_code >> 16) == 0x03;
        if (i) CHECK(strcmp(h->pci[i - 1].addr, h->pci[i].addr) < 0);
    }
    CHECK_I64(gpus, 4);
    /* hardware.pci_gpu names the GPUs and says how many functions it did not keep */
    cp_facts *f = malloc(sizeof *f);
    cp_finding *o = calloc(1, sizeof *o);
    if (f && o) {
        cp_facts_init(f);
        f->host = *h;
        cp_check_pci_gpu(f, o);
        CHECK_I64(o->status, CP_PASS);
        CHECK(strstr(o->summary, "4 NVIDIA GPUs on the PCI bus") != NULL);
        CHECK(strstr(o->evidence, "0000:09:03.3") != NULL);
        char want[96];
        snprintf(want, sizeof want, "%d more NVIDIA functions not examined", 300 - h->npci);
        CHECK(strstr(o->evidence, want) != NULL);
    }
    free(f);
    free(o);
    cp_fs_close(fs);
    char cmd[320];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    free(h);
}

int main(void)
{
    RUN(test_link_speed);
    RUN(test_sysfs_int);
    RUN(test_read_1gpu);
    RUN(test_read_2gpu);
    RUN(test_cpulist);
    RUN(test_read_no_gpu);
    RUN(test_many_functions_gpus_last);
    RUN(test_read_fault_injection);
    RUN(test_recorded);
    return TEST_END();
}
