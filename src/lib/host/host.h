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
#include "cuprobe/telemetry.h"
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

/* ---- HTTP/2 and the kubelet's pod-resources API (gRPC on a unix socket) ---- */

#define CP_H2_MAX_FRAME 16384   /* the default SETTINGS_MAX_FRAME_SIZE, which the client keeps */

typedef struct {
    uint32_t len;             /* of the payload */
    uint8_t type, flags;
    uint32_t stream;
    const uint8_t *payload;   /* into the buffer parsed */
} cp_h2_frame;

/* The frame at the head of buf[0..len): 1 with f filled when it is whole,
 * 0 when more bytes must come, -1 when it says it is longer than
 * CP_H2_MAX_FRAME.  Pure. */
int cp_parse_h2_frame(const uint8_t *buf, size_t len, cp_h2_frame *f);

/* A frame's 9-byte header and its payload p[0..n) into q (which has room
 * for 9 + n bytes); returns 9 + n. */
size_t cp_h2_put_frame(uint8_t *q, uint8_t type, uint8_t flags, uint32_t stream, const uint8_t *p, size_t n);

/* The Huffman code of RFC 7541 (appendix B): in[0..len) decoded into out
 * (NUL-terminated, cut to cap - 1 bytes), *outlen the decoded length
 * (which may pass cap).  -1 for a code that is not one (EOS inside,
 * padding longer than 7 bits or not all ones).  Pure. */
int cp_parse_huffman(const uint8_t *in, size_t len, char *out, size_t cap, size_t *outlen);

/* What a response's header blocks said; -1: not said. */
typedef struct {
    int status;               /* :status (0: not a number) */
    int grpc_status;          /* grpc-status (1000: not a number) */
    char grpc_message[128];
    char content_type[64];
    int undecodable;          /* a block could not be decoded (its fields are lost) */
} cp_h2_headers;

/* One HPACK header block (RFC 7541) into h: indexed fields of the static
 * table, literals with a static or a literal name, plain or Huffman
 * strings; the dynamic table stays empty (the client's SETTINGS give it
 * size 0), so an index past 61 is refused.  0, or -1 for a malformed
 * block (h may hold the fields before the fault).  Pure. */
int cp_parse_hpack(const uint8_t *blk, size_t len, cp_h2_headers *h);

/* The server's side of one call on stream 1, fed as it arrives. */
typedef struct {
    uint8_t pend[9 + CP_H2_MAX_FRAME];   /* an unfinished frame */
    size_t npend;
    uint8_t hblk[16384];                 /* a header block, HEADERS + CONTINUATION */
    size_t nhblk;
    int in_headers, hblk_end_stream, nblocks;
    cp_h2_headers head;                  /* the headers and the trailers, merged */
    uint8_t *body;                       /* stream 1's DATA, at most body_max bytes */
    size_t nbody, body_cap, body_max;
    uint8_t reply[512];                  /* frames to send back: SETTINGS and PING acknowledgements */
    size_t nreply;
    int done;                            /* stream 1 ended */
    int goaway;                          /* the server said it will close after this call */
    int failed;
    char error[128];
} cp_h2_resp;

/* Start (or restart) reading an answer of at most body_max DATA bytes;
 * frees an earlier body.  Zero the struct before the first call. */
void cp_h2_resp_init(cp_h2_resp *r, size_t body_max);
void cp_h2_resp_free(cp_h2_resp *r);
/* Feed len bytes the server sent: 1 when stream 1 has ended (r->head,
 * r->body hold the answer), 0 while more must come, -1 when the answer is
 * broken (r->error says why: a malformed or oversized frame, a reset, a
 * GOAWAY before the call, a body past body_max, out of memory).  Frames
 * the client must answer are appended to r->reply. */
int cp_h2_feed(cp_h2_resp *r, const uint8_t *data, size_t len);

/* A ListPodResourcesResponse (protobuf) into m: for each container, the
 * device ids of its nvidia.com/gpu (and nvidia.com/gpu.*, nvidia.com/mig-*)
 * resources, without a "::N" replica suffix, with the pod, its namespace
 * and the container; at most CP_PODRES_MAX_DEVICES kept, m->total counts
 * every one.  0, or -1 for bytes that are not such a message (m then holds
 * what was read before the fault).  Pure. */
int cp_parse_podres(const uint8_t *msg, size_t len, cp_podres_map *m);

/* A whole answer as the server sent it (frames, then the gRPC message) into
 * m: 0, or -1 with err saying why not (an HTTP or gRPC error status, no
 * message, a compressed one, a bad frame or message).  Pure: the fuzzed
 * entry point of the client's reading. */
int cp_parse_podres_reply(const uint8_t *bytes, size_t len, cp_podres_map *m, char *err, size_t errcap);

#endif
