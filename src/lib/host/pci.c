/*
 * PCI functions of NVIDIA (vendor 0x10de) from /sys/bus/pci/devices: ids,
 * class, NUMA node, link speed and width, and the bound kernel driver.
 */
#include "host/host.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define NVIDIA_VENDOR 0x10de

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A sysfs number: optional blanks, sign, "0x" (base16 only), digits, blanks.
 * Anything else, or a value beyond int64, is CP_UNKNOWN.  Reads only len bytes. */
int64_t cp_parse_sysfs_int(const char *text, size_t len, int base16)
{
    size_t i = 0;
    bool neg = false;
    if (!text)
        return CP_UNKNOWN;
    while (i < len && is_space(text[i]))
        i++;
    if (i < len && (text[i] == '-' || text[i] == '+')) {
        neg = text[i] == '-';
        i++;
    }
    if (base16 && i + 1 < len && text[i] == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X'))
        i += 2;
    int base = base16 ? 16 : 10;
    uint64_t v = 0;
    size_t digits = 0;
    for (; i < len; i++, digits++) {
        int d = hex_value(text[i]);
        if (d < 0 || d >= base)
            break;
        if (v > ((uint64_t)INT64_MAX - (uint64_t)d) / (uint64_t)base)
            return CP_UNKNOWN;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (digits == 0)
        return CP_UNKNOWN;
    while (i < len && is_space(text[i]))
        i++;
    if (i != len)
        return CP_UNKNOWN;
    return neg ? -(int64_t)v : (int64_t)v;
}

/* "32.0 GT/s PCIe" -> 32000 MT/s (three fraction digits kept); a bare number
 * is taken as GT/s too.  Garbage or "Unknown" is CP_UNKNOWN. */
int64_t cp_parse_link_speed(const char *text, size_t len)
{
    size_t i = 0;
    if (!text)
        return CP_UNKNOWN;
    while (i < len && is_space(text[i]))
        i++;
    int64_t whole = 0, frac = 0;
    size_t digits = 0;
    for (; i < len && text[i] >= '0' && text[i] <= '9'; i++, digits++) {
        if (digits >= 6)              /* no link runs at a million GT/s */
            return CP_UNKNOWN;
        whole = whole * 10 + (text[i] - '0');
    }
    if (digits == 0)
        return CP_UNKNOWN;
    if (i < len && text[i] == '.') {
        int64_t scale = 100;          /* MT/s: three fraction digits matter */
        size_t fd = 0;
        for (i++; i < len && text[i] >= '0' && text[i] <= '9'; i++, fd++) {
            frac += (text[i] - '0') * scale;
            scale /= 10;
        }
        if (fd == 0)
            return CP_UNKNOWN;
    }
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    /* "32.0 GT/s PCIe", "8 GT/s", or a bare number */
    if (i + 4 <= len && memcmp(text + i, "GT/s", 4) == 0) {
        i += 4;
        while (i < len && (text[i] == ' ' || (text[i] >= 'A' && text[i] <= 'Z') ||
                           (text[i] >= 'a' && text[i] <= 'z')))
            i++;
    }
    while (i < len && is_space(text[i]))
        i++;
    if (i != len)
        return CP_UNKNOWN;
    return whole * 1000 + frac;
}

/* Read ADDR/name and parse it as an integer; CP_UNKNOWN when missing. */
static int64_t read_int(cp_fs *fs, const char *addr, const char *name, int base16)
{
    char path[128], buf[64];
    size_t len = 0;
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/%s", addr, name);
    if (cp_fs_read(fs, path, buf, sizeof buf, &len) != 0)
        return CP_UNKNOWN;
    return cp_parse_sysfs_int(buf, len, base16);
}

static int64_t read_speed(cp_fs *fs, const char *addr, const char *name)
{
    char path[128], buf[64];
    size_t len = 0;
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/%s", addr, name);
    if (cp_fs_read(fs, path, buf, sizeof buf, &len) != 0)
        return CP_UNKNOWN;
    return cp_parse_link_speed(buf, len);
}

/* Parse a CPU list; see host.h. */
void cp_parse_cpulist(const char *text, size_t len, char *out, size_t cap)
{
    if (!cap) return;
    out[0] = '\0';
    while (len && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
    if (len >= cap) return;
    for (size_t i = 0; i < len; i++)
        if (!((text[i] >= '0' && text[i] <= '9') || text[i] == '-' || text[i] == ','))
            return;
    memcpy(out, text, len);
    out[len] = '\0';
}

static void read_cpulist(cp_fs *fs, const char *addr, char *out, size_t cap)
{
    char path[128], buf[256];
    size_t len = 0;
    out[0] = '\0';
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/local_cpulist", addr);
    if (cp_fs_read(fs, path, buf, sizeof buf, &len) == 0)
        cp_parse_cpulist(buf, len, out, cap);
}

static void read_driver(cp_fs *fs, const char *addr, char *out, size_t cap)
{
    char path[128], target[512];
    out[0] = '\0';
    snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/driver", addr);
    if (cp_fs_readlink(fs, path, target, sizeof target) != 0)
        return;
    const char *base = strrchr(target, '/');
    base = base ? base + 1 : target;
    size_t n = strlen(base);
    if (n > cap - 1)
        n = cap - 1;
    memcpy(out, base, n);
    out[n] = '\0';
}

static void fill_function(cp_fs *fs, const char *addr, int64_t vendor, cp_pci_function *p)
{
    snprintf(p->addr, sizeof p->addr, "%s", addr);
    p->vendor = vendor;
    p->device = read_int(fs, addr, "device", 1);
    p->class_code = read_int(fs, addr, "class", 1);
    p->subsys_vendor = read_int(fs, addr, "subsystem_vendor", 1);
    p->subsys_device = read_int(fs, addr, "subsystem_device", 1);
    p->revision = read_int(fs, addr, "revision", 1);
    p->numa_node = read_int(fs, addr, "numa_node", 0);
    read_cpulist(fs, addr, p->local_cpulist, sizeof p->local_cpulist);
    p->cur_speed_mts = read_speed(fs, addr, "current_link_speed");
    p->max_speed_mts = read_speed(fs, addr, "max_link_speed");
    p->cur_width = read_int(fs, addr, "current_link_width", 0);
    p->max_width = read_int(fs, addr, "max_link_width", 0);
    read_driver(fs, addr, p->driver, sizeof p->driver);
}

typedef struct {
    cp_fs *fs;
    cp_host_facts *h;
} pci_walk;

/* The last kept function that is not a GPU, or -1. */
static int last_non_gpu(const cp_host_facts *h)
{
    for (int i = h->npci - 1; i >= 0; i--)
        if (!cp_is_gpu_function(&h->pci[i]))
            return i;
    return -1;
}

static int pci_entry(const char *name, cp_fs_type type, void *arg)
{
    pci_walk *w = arg;
    cp_host_facts *h = w->h;
    (void)type;                   /* entries are links to folders; a vendor file decides */
    if (strlen(name) >= sizeof h->pci[0].addr)
        return 0;
    int64_t vendor = read_int(w->fs, name, "vendor", 1);
    if (vendor != NVIDIA_VENDOR)
        return 0;
    h->npci_total++;
    if (h->npci < CP_MAX_PCI) {
        fill_function(w->fs, name, vendor, &h->pci[h->npci++]);
        return 0;
    }
    /* full: a GPU still takes the place of the last function that is not one */
    int64_t cls = read_int(w->fs, name, "class", 1);
    int k = CP_KNOWN(cls) && (cls >> 16) == 0x03 ? last_non_gpu(h) : -1;
    if (k >= 0) {
        memmove(&h->pci[k], &h->pci[k + 1], (size_t)(h->npci - 1 - k) * sizeof h->pci[0]);
        cp_pci_function_init(&h->pci[h->npci - 1]);
        fill_function(w->fs, name, vendor, &h->pci[h->npci - 1]);
    }
    return 0;
}

/* Fill h->pci[] with the NVIDIA functions in address order: at most
 * CP_MAX_PCI, every GPU (display class 0x03) before any other function when
 * there are more; npci_total counts all, so npci_total - npci were not kept.
 * An unreadable attribute stays CP_UNKNOWN.  Returns 0, or -errno when the
 * devices folder cannot be listed (npci_total is then CP_UNKNOWN). */
int cp_host_read_pci(cp_fs *fs, cp_host_facts *h)
{
    if (!fs || !h)
        return -EINVAL;
    h->npci = 0;
    h->npci_total = 0;
    pci_walk w = { fs, h };
    int rc = cp_fs_list(fs, "/sys/bus/pci/devices", pci_entry, &w);
    if (rc < 0) {
        h->npci = 0;
        h->npci_total = CP_UNKNOWN;
        return rc;
    }
    return 0;
}
