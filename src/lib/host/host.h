/*
 * Host sources: what the OS says about the CUDA stack, read through a cp_fs.
 *
 * Two kinds of functions live here:
 *   cp_parse_*  pure parsers of outside text: (text, len) in, facts out.
 *               They never read files, are bounds-checked for any input
 *               (NULs, no final newline, huge lines) and each has a fuzz
 *               target in tests/fuzz/.
 *   cp_host_*   readers: fetch the files through the cp_fs and call a parser.
 *               They return 0 when the source was read, -errno when it could
 *               not be (the facts then keep their "unknown" values).
 */
#ifndef CP_HOST_H
#define CP_HOST_H

#include <stddef.h>
#include <stdint.h>
#include "cuprobe/facts.h"
#include "fs/fs.h"

/* ---- PCI (/sys/bus/pci/devices) ---------------------------------------- */

/* "32.0 GT/s PCIe" -> 32000, "2.5 GT/s" -> 2500, "8 GT/s" -> 8000 (MT/s);
 * "Unknown" or garbage -> CP_UNKNOWN. */
int64_t cp_parse_link_speed(const char *text, size_t len);

/* "0x10de\n" -> 0x10de; "16\n" -> 16; "-1" -> -1; garbage -> CP_UNKNOWN.
 * Accepts optional 0x prefix when base16 is true, surrounding whitespace. */
int64_t cp_parse_sysfs_int(const char *text, size_t len, int base16);
/* A sysfs CPU list ("0-31,64-95\n") into out as written, without the
 * newline; "" for anything but digits, '-' and ',' or a list longer than
 * cap - 1.  Never fails. */
void cp_parse_cpulist(const char *text, size_t len, char *out, size_t cap);

/* Fill h->pci[] with the functions of vendor 0x10de, sorted by address: at
 * most CP_MAX_PCI, GPUs kept before any other function; npci_total counts
 * every one (pci.c says more). */
int cp_host_read_pci(cp_fs *fs, cp_host_facts *h);

/* ---- kernel modules (/proc/modules) ------------------------------------ */

/* Parse /proc/modules text into mods[CP_MOD_COUNT] (the fixed list in
 * facts.h; names are filled for every slot, loaded=false when absent). */
void cp_parse_modules(const char *text, size_t len, cp_module mods[CP_MOD_COUNT]);
int cp_host_read_modules(cp_fs *fs, cp_host_facts *h);

/* ---- /proc/driver/nvidia ----------------------------------------------- */

/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04 ..." */
void cp_parse_nvidia_version(const char *text, size_t len, cp_procfs_nvidia *p);
/* gpus/BUS/information ("Model: \t\t NVIDIA H200\n..."). */
void cp_parse_nvidia_gpu_info(const char *text, size_t len, cp_procfs_gpu *g);
int cp_host_read_procfs(cp_fs *fs, cp_procfs_nvidia *p);

/* ---- device nodes ------------------------------------------------------- */

/* /dev/nvidiactl, /dev/nvidia[0-9]*, /dev/nvidia-uvm, /dev/nvidia-uvm-tools,
 * /dev/nvidia-modeset, /dev/nvidia-caps/<*>: which exist, what each is (type,
 * major:minor), whether this user may read+write it, and, in a live view,
 * what opening it O_RDWR (then closing it at once, no ioctl) answered: the
 * errno a device cgroup (EPERM) or the mode (EACCES) gives.  A snapshot
 * carries these in its answers, so the observe step reads them live only. */
int cp_host_read_devnodes(cp_fs *fs, cp_host_facts *h);

/* Parse /proc/devices text ("Character devices:" then "NNN name" lines,
 * "Block devices:" then more) into d: every major with its driver's name
 * and section, in file order; lines outside a section or without a major
 * of at most 4095 and a name are skipped; past CP_MAX_DEVMAJORS only
 * counted (total).  Leaves d->present alone. */
void cp_parse_proc_devices(const char *text, size_t len, cp_proc_devices *d);
/* Read /proc/devices through the view (a snapshot keeps the file in its
 * root/, so a replay parses it again) into h->devices; present says it was
 * read.  Returns 0 or -errno (snapshots older than the file: -ENOENT). */
int cp_host_read_proc_devices(cp_fs *fs, cp_host_facts *h);

/* ---- containers and cgroups --------------------------------------------- */

/* Parse a /proc/PID/cgroup text: version (a single "0::" line -> 2), path,
 * and container hints in it (docker, kubepods, libpod, lxc, containerd). */
void cp_parse_cgroup(const char *text, size_t len, cp_container *c);
/* /.dockerenv, /run/.containerenv, /proc/1/cgroup, /proc/self/cgroup,
 * /proc/1/environ's container= is NOT read (root only). */
int cp_host_read_container(cp_fs *fs, cp_container *c);
/* The container a /proc/PID/cgroup text places a process in, as "KIND ID"
 * (the kind cp_parse_cgroup tells, the first 12 hex digits of the longest
 * hex run of the path: "docker 4f1c2a3b5c6d"), the kind alone when no id
 * shows, "" when no container runtime shows.  Never fails. */
void cp_parse_container_id(const char *text, size_t len, char *out, size_t cap);
/* For each compute process NVML listed: /proc/PID/comm into comm, and its
 * container (cp_parse_container_id of /proc/PID/cgroup) into container,
 * through fs (recorded in snapshots, re-read on replay).  A process that is
 * gone or hidden (another PID namespace) keeps "".  Never fails. */
void cp_host_read_gpu_procs(cp_fs *fs, cp_nvml_facts *n);
/* The same for one sample's processes (the sampler, every tick), and each
 * one's visible (NO: its /proc/PID is not here, the PID is the host's and
 * this is another PID namespace) and pod_uid (cp_parse_pod_uid). */
void cp_host_read_sample_procs(cp_fs *fs, cp_nvml_sample *s);
/* The Kubernetes pod UID a /proc/PID/cgroup text names
 * (".../kubepods-burstable-pod1b2c..._9f.slice/..." for the systemd driver,
 * ".../kubepods/besteffort/pod1b2c...-9f/..." for cgroupfs), with dashes,
 * into out; "" when no kubepods path shows one.  Never fails. */
void cp_parse_pod_uid(const char *text, size_t len, char *out, size_t cap);

/* ---- visibility variables ----------------------------------------------- */

/* Parse CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER
 * (NULL = unset) the way the CUDA driver and the container runtime do. */
void cp_parse_visibility(const char *cuda_visible, const char *nvidia_visible,
                         const char *device_order, cp_visibility *v);

/* ---- kernel log ---------------------------------------------------------- */

/* Find XID lines ("NVRM: Xid (PCI:0000:9b:00): 79, pid=..., name=..., text"),
 * "GPU has fallen off the bus" and "API mismatch" lines, in either /dev/kmsg
 * record form ("6,1234,5678,-;NVRM: ...") or dmesg form ("[  1.2] NVRM: ...").
 * Keeps the newest CP_MAX_XIDS events, each with its time since boot (at_s);
 * counts all. */
void cp_parse_kernel_log(const char *text, size_t len, cp_kernel_log *k);
/* /proc/uptime ("10457.16 9812.24\n") -> 10457 seconds; CP_UNKNOWN for
 * garbage. */
int64_t cp_parse_uptime(const char *text, size_t len);
/* Reads /dev/kmsg, and /proc/uptime so events get an age; where the log is
 * refused says why (readable = CP_NO). */
int cp_host_read_kernel_log(cp_fs *fs, cp_kernel_log *k);

/* ---- environment --------------------------------------------------------- */

/* Value of NAME in the captured environment, or NULL when unset. */
const char *cp_host_getenv(const cp_host_facts *h, const char *name);

#endif
