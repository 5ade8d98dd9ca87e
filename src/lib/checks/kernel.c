/* Kernel layer: modules, the GPU bound to nvidia, device nodes. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "util/str.h"

static const char *in_container_hint(const cp_facts *f)
{
    return f->host.container.in_container == CP_YES
        ? "; in a container the module lives on the host: fix it there" : "";
}

/* nouveau loaded (or bound to the GPU) keeps nvidia away. */
void cp_check_nouveau(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    int bound = 0;
    for (int i = 0; i < h->npci; i++)
        if (cp_is_gpu_function(&h->pci[i]) && strcmp(h->pci[i].driver, "nouveau") == 0) {
            bound++;
            cp_evidence(o, "%s is bound to nouveau", h->pci[i].addr);
        }
    if (!h->modules_readable && !bound) { cp_set(o, CP_SKIP, "/proc/modules not readable"); return; }
    if (!h->modules[CP_MOD_NOUVEAU].loaded && !bound) {
        cp_set(o, CP_PASS, "nouveau is not loaded");
        return;
    }
    cp_evidence(o, "/proc/modules: nouveau %s", h->modules[CP_MOD_NOUVEAU].loaded ? "loaded" : "not loaded");
    if (bound || !h->modules[CP_MOD_NVIDIA].loaded) {
        cp_set(o, CP_FAIL, "the open-source nouveau driver holds the GPU instead of nvidia");
        cp_fix(o, "blacklist nouveau (echo 'blacklist nouveau' > /etc/modprobe.d/blacklist-nouveau.conf; "
               "options nouveau modeset=0), rebuild the initramfs (update-initramfs -u or dracut -f) and reboot");
    } else {
        cp_set(o, CP_WARN, "nouveau is loaded beside nvidia");
        cp_fix(o, "blacklist nouveau so it can never claim a GPU first, then rebuild the initramfs");
    }
}

/* The nvidia kernel module is loaded and answers in /proc/driver/nvidia. */
void cp_check_nvidia_module(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    const cp_module *m = &h->modules[CP_MOD_NVIDIA];
    if (h->modules_readable)
        cp_evidence(o, "/proc/modules: nvidia %s%s%s", m->loaded ? "loaded" : "not loaded",
                    m->loaded && m->state[0] ? ", " : "", m->loaded ? m->state : "");
    if (h->procfs.present)
        cp_evidence(o, "/proc/driver/nvidia/version: %s", h->procfs.banner);
    if (h->procfs.present) {
        cp_set(o, CP_PASS, "nvidia %s loaded%s", h->procfs.version[0] ? h->procfs.version : "",
               h->procfs.open_module == CP_YES ? " (open kernel module)" :
               h->procfs.open_module == CP_NO ? " (proprietary kernel module)" : "");
        return;
    }
    if (!h->modules_readable && !m->loaded) {
        cp_set(o, CP_FAIL, "the nvidia kernel driver does not answer (/proc/driver/nvidia/version missing)");
    } else if (m->loaded) {
        cp_set(o, CP_FAIL, "nvidia module is loaded but /proc/driver/nvidia/version is missing");
    } else {
        cp_set(o, CP_FAIL, "the nvidia kernel module is not loaded");
    }
    cp_fix(o, "load it with 'sudo modprobe nvidia'; if that fails, see 'dmesg | grep -i nvrm': after a "
           "kernel update rebuild it (dkms autoinstall, or reinstall the driver package), with Secure "
           "Boot on sign it or enroll the MOK key (mokutil --sb-state)%s", in_container_hint(f));
}

/* Every NVIDIA GPU on the bus is bound to the nvidia driver and not excluded. */
void cp_check_gpu_bound(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    int unbound = 0, other = 0, excluded = 0, total = 0;
    for (int i = 0; i < h->npci; i++) {
        const cp_pci_function *p = &h->pci[i];
        if (!cp_is_gpu_function(p)) continue;
        total++;
        cp_evidence(o, "%s bound to %s", p->addr, p->driver[0] ? p->driver : "no driver");
        if (!p->driver[0]) unbound++;
        else if (strcmp(p->driver, "nvidia") != 0 && strcmp(p->driver, "nouveau") != 0) other++;
    }
    for (int i = 0; i < h->procfs.ngpus; i++)
        if (h->procfs.gpus[i].excluded == CP_YES) {
            excluded++;
            cp_evidence(o, "%s: 'GPU Excluded: Yes' in /proc/driver/nvidia", h->procfs.gpus[i].bus);
        }
    if (other) {
        cp_set(o, CP_FAIL, "%d GPU%s bound to another driver (e.g. vfio-pci for a VM)", other, other > 1 ? "s" : "");
        cp_fix(o, "the GPU is reserved for passthrough: unbind it from that driver "
               "(driverctl unset-override <addr>) or remove the vfio-pci ids= option, then reload nvidia");
    } else if (excluded) {
        cp_set(o, CP_FAIL, "%d GPU%s excluded by the nvidia driver", excluded, excluded > 1 ? "s" : "");
        cp_fix(o, "the driver excluded the GPU after an error or by NVreg_ExcludedGpus: read the kernel log "
               "for the reason, then reset the GPU or reboot");
    } else if (unbound && f->host.modules[CP_MOD_NVIDIA].loaded) {
        cp_set(o, CP_FAIL, "%d GPU%s not claimed by the loaded nvidia driver", unbound, unbound > 1 ? "s" : "");
        cp_fix(o, "the driver may not support this GPU or failed to start it: 'dmesg | grep -i nvrm' "
               "says which; install a driver branch that supports this GPU");
    } else if (unbound) {
        cp_set(o, CP_SKIP, "GPUs have no driver bound because the nvidia module is not loaded");
    } else if (total) {
        cp_set(o, CP_PASS, "every GPU bound to nvidia");
    } else {
        cp_set(o, CP_SKIP, "PCI driver bindings not visible here");
    }
}

/* ---- what a device node should be ----------------------------------------- */

/* The major the driver called `name` registered (/proc/devices), or CP_UNKNOWN. */
static int64_t devices_major(const cp_proc_devices *pd, const char *name, bool block)
{
    for (int i = 0; pd->present && i < pd->n; i++)
        if (pd->m[i].block == block && strcmp(pd->m[i].name, name) == 0)
            return pd->m[i].major;
    return CP_UNKNOWN;
}

/* The name /proc/devices gives a major, or "". */
static const char *devices_name(const cp_proc_devices *pd, int64_t major, bool block)
{
    for (int i = 0; pd->present && CP_KNOWN(major) && i < pd->n; i++)
        if (pd->m[i].block == block && pd->m[i].major == major)
            return pd->m[i].name;
    return "";
}

/* What a node's name says it is: its driver's name in /proc/devices, its
 * minor (CP_UNKNOWN: any), and whether CUDA cannot start without it. */
typedef struct {
    const char *driver;
    int64_t minor;
    bool needed;
} node_want;

/* "12" -> 12; anything but 1-6 digits -> CP_UNKNOWN. */
static int64_t all_digits(const char *s)
{
    int64_t v = 0;
    size_t n = strlen(s);
    if (n == 0 || n > 6) return CP_UNKNOWN;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return CP_UNKNOWN;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* The driver's node names (nv.c, nvidia-modprobe): nvidiactl is minor 255
 * of the frontend, nvidia-modeset 254, nvidiaN minor N; nvidia-uvm is minor
 * 0 of its own major, nvidia-uvm-tools 1; nvidia-capN minor N of
 * nvidia-caps.  False for a name with no fixed meaning. */
static bool node_want_of(const char *path, node_want *w)
{
    static const struct { const char *path; const char *driver; int64_t minor; bool needed; } fixed[] = {
        { "/dev/nvidiactl", "nvidia-frontend", 255, true },
        { "/dev/nvidia-modeset", "nvidia-frontend", 254, false },
        { "/dev/nvidia-uvm", "nvidia-uvm", 0, true },
        { "/dev/nvidia-uvm-tools", "nvidia-uvm", 1, false },
        { "/dev/nvidia-nvswitchctl", "nvidia-nvswitch", CP_UNKNOWN, false },
        { "/dev/nvidia-nvlink", "nvidia-nvlink", CP_UNKNOWN, false },
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(path, fixed[i].path) == 0) {
            *w = (node_want){ fixed[i].driver, fixed[i].minor, fixed[i].needed };
            return true;
        }
    int64_t n;
    if (cp_str_starts_with(path, "/dev/nvidia-caps/nvidia-cap") && CP_KNOWN(n = all_digits(path + 27))) {
        *w = (node_want){ "nvidia-caps", n, false };
        return true;
    }
    if (cp_str_starts_with(path, "/dev/nvidia-nvswitch") && CP_KNOWN(all_digits(path + 20))) {
        *w = (node_want){ "nvidia-nvswitch", CP_UNKNOWN, false };
        return true;
    }
    if (CP_KNOWN(n = all_digits(path + 11)) && strncmp(path, "/dev/nvidia", 11) == 0) {
        *w = (node_want){ "nvidia-frontend", n, true };
        return true;
    }
    return false;
}

/* The major the node's driver has: /proc/devices, and for the frontend,
 * where that is not known (snapshots older than the file, or no
 * /proc/devices here), the number the driver always takes (195,
 * NV_MAJOR_DEVICE_NUMBER).  CP_UNKNOWN: not known, nothing to compare. */
static int64_t want_major(const cp_facts *f, const char *driver)
{
    const cp_proc_devices *pd = &f->host.devices;
    int64_t m = devices_major(pd, driver, false);
    if (strcmp(driver, "nvidia-frontend") == 0) {
        if (!CP_KNOWN(m)) m = devices_major(pd, "nvidia", false);
        if (!CP_KNOWN(m)) m = 195;
    }
    return m;
}

/* A node's type as recorded; snapshots older than the type key say only
 * whether it was a character device. */
static const char *node_type(const cp_devnode *d)
{
    return d->type[0] ? d->type : d->is_chr ? "char" : "";
}

/* "char 1:3 ('mem')", "block 7:0 ('loop')", "a regular file", ... */
static void node_is(const cp_facts *f, const cp_devnode *d, char *out, size_t cap)
{
    const char *t = node_type(d);
    bool chr = strcmp(t, "char") == 0, blk = strcmp(t, "block") == 0;
    if ((chr || blk) && CP_KNOWN(d->major) && CP_KNOWN(d->minor)) {
        const char *name = devices_name(&f->host.devices, d->major, blk);
        snprintf(out, cap, "%s %lld:%lld%s%s%s", t, (long long)d->major, (long long)d->minor,
                 name[0] ? " ('" : "", name, name[0] ? "')" : "");
    } else if (chr || blk) {
        snprintf(out, cap, "a %s device", chr ? "character" : "block");
    } else if (strcmp(t, "file") == 0) {
        snprintf(out, cap, "a regular file");
    } else if (strcmp(t, "dir") == 0) {
        snprintf(out, cap, "a folder");
    } else if (strcmp(t, "other") == 0) {
        snprintf(out, cap, "not a device (a pipe or socket)");
    } else {
        snprintf(out, cap, "not a character device");
    }
}

/* "char 238:0 ('nvidia-uvm')", or without a known major "the nvidia-uvm character device". */
static void node_should(const cp_facts *f, const node_want *w, char *out, size_t cap)
{
    int64_t maj = want_major(f, w->driver);
    /* the frontend registers as "nvidia-frontend" in older drivers and as
     * "nvidia" (and "nvidiactl") in newer ones: name it as this machine does */
    const char *name = w->driver;
    if (strcmp(name, "nvidia-frontend") == 0 && !CP_KNOWN(devices_major(&f->host.devices, name, false))
        && CP_KNOWN(devices_major(&f->host.devices, "nvidia", false)))
        name = "nvidia";
    if (!CP_KNOWN(maj))
        snprintf(out, cap, "the %s character device", name);
    else if (CP_KNOWN(w->minor))
        snprintf(out, cap, "char %lld:%lld ('%s')", (long long)maj, (long long)w->minor, name);
    else
        snprintf(out, cap, "a char %lld:* node ('%s')", (long long)maj, name);
}

/* Is an existing node the NVIDIA device its name says?  1 yes, 0 no (another
 * device, a file, a folder), -1 when nothing says what it should be. */
static int node_matches(const cp_facts *f, const cp_devnode *d, node_want *w)
{
    if (!node_want_of(d->path, w)) return -1;
    if (strcmp(node_type(d), "char") != 0) return 0;
    int64_t maj = want_major(f, w->driver);
    if (CP_KNOWN(maj) && CP_KNOWN(d->major) && d->major != maj) return 0;
    if (CP_KNOWN(w->minor) && CP_KNOWN(d->minor) && d->minor != w->minor) return 0;
    return 1;
}

/* The node at path, or NULL. */
static const cp_devnode *find_node(const cp_host_facts *h, const char *path)
{
    for (int i = 0; i < h->ndev; i++)
        if (strcmp(h->dev[i].path, path) == 0) return &h->dev[i];
    return NULL;
}

/* nvidia_uvm is what CUDA needs beside nvidia. */
void cp_check_uvm(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    const cp_devnode *d = find_node(h, "/dev/nvidia-uvm");
    node_want w;
    int node = d && d->exists, right = node && node_matches(f, d, &w) != 0;
    bool listed = CP_KNOWN(devices_major(&h->devices, "nvidia-uvm", false));
    char is[96];
    if (h->modules_readable)
        cp_evidence(o, "/proc/modules: nvidia_uvm %s", h->modules[CP_MOD_NVIDIA_UVM].loaded ? "loaded" : "not loaded");
    if (node && !right) {
        node_is(f, d, is, sizeof is);
        cp_evidence(o, "/dev/nvidia-uvm present but not the uvm device: %s", is);
    } else {
        cp_evidence(o, "/dev/nvidia-uvm %s", node ? "present" : "missing");
    }
    if (!h->modules_readable && h->devices.present)
        cp_evidence(o, "/proc/devices %s nvidia-uvm", listed ? "lists" : "does not list");
    if (h->modules[CP_MOD_NVIDIA_UVM].loaded || (!h->modules_readable && (listed || (!h->devices.present && right)))) {
        cp_set(o, CP_PASS, "nvidia_uvm loaded");
        return;
    }
    if (!h->modules_readable && !h->devices.present) { cp_set(o, CP_SKIP, "/proc/modules not readable"); return; }
    cp_set(o, CP_FAIL, "nvidia_uvm is not loaded: CUDA programs fail to initialise");
    cp_fix(o, "sudo modprobe nvidia-uvm (or nvidia-modprobe -u -c=0, which also creates /dev/nvidia-uvm)%s",
           in_container_hint(f));
}

/* The device nodes CUDA opens exist and are the NVIDIA devices their names
 * say: a character device with the major /proc/devices gives the driver and
 * the minor of the name. */
void cp_check_devnodes(const cp_facts *f, cp_finding *o)
{
    const cp_host_facts *h = &f->host;
    char missing[256] = "", wrong[256] = "", first[240] = "";
    int nmissing = 0, ngpu_nodes = 0, nwrong = 0, nwrong_needed = 0, ndead = 0;
    if (h->ndev == 0) { cp_set(o, CP_SKIP, "device nodes were not examined"); return; }
    for (int i = 0; i < h->ndev; i++) {
        const cp_devnode *d = &h->dev[i];
        node_want w;
        int m = d->exists ? node_matches(f, d, &w) : -1;
        bool gpu_node = CP_KNOWN(all_digits(d->path + 11)) && strncmp(d->path, "/dev/nvidia", 11) == 0;
        bool needed = strcmp(d->path, "/dev/nvidiactl") == 0 || strcmp(d->path, "/dev/nvidia-uvm") == 0 || gpu_node;
        if (d->exists && strcmp(node_type(d), "char") == 0 && CP_KNOWN(d->major) && CP_KNOWN(d->minor))
            cp_evidence(o, "%s char %s:%s mode %s", d->path, cp_num(d->major).s, cp_num(d->minor).s,
                        cp_mode(d->mode).s);
        else if (d->exists && strcmp(node_type(d), "char") == 0)
            cp_evidence(o, "%s char (major:minor not recorded) mode %s", d->path, cp_mode(d->mode).s);
        else if (d->exists && m != 0) {   /* a node named for a device says so below */
            char is[96];
            node_is(f, d, is, sizeof is);
            cp_evidence(o, "%s is %s", d->path, is);
        }
        if (d->exists && gpu_node) ngpu_nodes++;
        if (needed && !d->exists) {
            nmissing++;
            cp_str_append(missing, sizeof missing, ", ", d->path);
        } else if (m == 0 || (d->exists && (d->open_errno == ENXIO || d->open_errno == ENODEV))) {
            char is[96], should[96], line[240];
            if (m == 0) {
                node_is(f, d, is, sizeof is);
                node_should(f, &w, should, sizeof should);
                snprintf(line, sizeof line, "%s is %s, it should be %s", d->path, is, should);
            } else {
                ndead++;
                snprintf(line, sizeof line, "%s: no driver answers it (open: %s)", d->path, strerror((int)d->open_errno));
            }
            cp_evidence(o, "%s", line);
            if (!first[0] || (needed && !nwrong_needed)) cp_str_copy(first, sizeof first, line);
            nwrong++;
            if (needed) nwrong_needed++;
            cp_str_append(wrong, sizeof wrong, ", ", d->path);
        }
    }
    for (int i = 0; i < h->procfs.ngpus; i++) {
        char path[40];
        snprintf(path, sizeof path, "/dev/nvidia%lld", (long long)h->procfs.gpus[i].minor);
        const cp_devnode *d = find_node(h, path);
        if ((!d || !d->exists) && CP_KNOWN(h->procfs.gpus[i].minor) && cp_str_append(missing, sizeof missing, ", ", path))
            nmissing++;
    }
    bool container = h->container.in_container == CP_YES;
    if (nwrong_needed || (nwrong && !nmissing)) {
        if (nwrong == 1)
            cp_set(o, nwrong_needed ? CP_FAIL : CP_WARN, "%s%s", ndead ? "" : "not the NVIDIA device: ", first);
        else
            cp_set(o, nwrong_needed ? CP_FAIL : CP_WARN, "%d device nodes are not the NVIDIA devices they are named for: %s",
                   nwrong, wrong);
        if (nmissing) cp_evidence(o, "also missing: %s", missing);
        if (ndead == nwrong)
            cp_fix(o, "the node is left over from a driver that is not loaded or a GPU that is gone: load the modules "
                   "(sudo modprobe nvidia nvidia-uvm) and recreate the nodes with 'sudo nvidia-modprobe -c=0 -u'%s",
                   in_container_hint(f));
        else if (container)
            cp_fix(o, "a bind mount or a hand-made device list put another file at that path: start the container with "
                   "the GPU through the NVIDIA Container Toolkit (--gpus all, or CDI --device nvidia.com/gpu=all) or the "
                   "NVIDIA device plugin, not --device lists or bind mounts of single nodes");
        else
            cp_fix(o, "another file sits at that path (a bind mount, or a node made by hand): unmount or remove it, "
                   "then let the driver make it again with 'sudo nvidia-modprobe -c=0 -u' (the majors are in /proc/devices)");
        return;
    }
    if (nmissing) {
        cp_set(o, CP_FAIL, "device node%s missing: %s", nmissing > 1 ? "s" : "", missing);
        if (container)
            cp_fix(o, "the container was started without the GPU devices: use --gpus all (Docker with the "
                   "NVIDIA Container Toolkit) or the NVIDIA device plugin, not a bare bind mount");
        else
            cp_fix(o, "create them with 'sudo nvidia-modprobe -c=0 -u' (or load the modules with udev "
                   "rules in place); nvidia-persistenced also keeps them present");
        return;
    }
    cp_set(o, CP_PASS, "/dev/nvidiactl, /dev/nvidia-uvm and %d GPU node%s present", ngpu_nodes, ngpu_nodes == 1 ? "" : "s");
}
