/*
 * cuprobe facts: a plain description of what was seen on a machine.
 *
 * Facts are filled by the observe step (src/lib/host, src/lib/probe) and read
 * by the checks; nothing in here touches the OS.  Every numeric value that
 * may be unknown uses CP_UNKNOWN (never 0), every yes/no that may be unknown
 * uses cp_tri.  Strings are NUL-terminated and "" when unknown.
 *
 * Fixed-size arrays keep the facts one flat, copyable block: a machine with
 * more GPUs than CP_MAX_GPUS is described up to that many, and the *_total
 * counters say how many there really were.
 */
#ifndef CUPROBE_FACTS_H
#define CUPROBE_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "cuprobe/fields.h"

#define CP_UNKNOWN INT64_MIN
#define CP_KNOWN(v) ((v) != CP_UNKNOWN)

#define CP_MAX_GPUS 32
/* NVIDIA PCI functions kept (GPUs first, npci_total counts all): a 16-GPU
 * host with 15 SR-IOV virtual functions per GPU and its NVSwitches fits */
#define CP_MAX_PCI 256
#define CP_MAX_DEVNODES 48
#define CP_MAX_DEVMAJORS 160
#define CP_MAX_XIDS 64
#define CP_MAX_PROCS 16
#define CP_MAX_VIS 32
#define CP_MAX_TOOLKITS 12
#define CP_MAX_CUDARTS 24
#define CP_MAX_ENV 128
#define CP_PATH_MAX 512

typedef enum { CP_TRI_UNKNOWN = -1, CP_NO = 0, CP_YES = 1 } cp_tri;

/* ---------------------------------------------------------------- host -- */

/* One PCI function of vendor 0x10de (fields.h lists its fields). */
typedef struct {
    CP_PCI_FUNCTION_FIELDS(CP_FIELD_MEMBER_I, CP_FIELD_MEMBER_S)
} cp_pci_function;

/* The kernel modules cuprobe looks for, in this fixed order. */
enum { CP_MOD_NVIDIA, CP_MOD_NVIDIA_UVM, CP_MOD_NVIDIA_MODESET, CP_MOD_NVIDIA_DRM,
       CP_MOD_NOUVEAU, CP_MOD_COUNT };

typedef struct {
    char name[24];
    bool loaded;
    char state[16];           /* "Live", "Loading", "Unloading" */
    int64_t size_bytes;
    int64_t refcount;
} cp_module;

/* One GPU as listed in /proc/driver/nvidia/gpus/BUS/information. */
typedef struct {
    char bus[16];             /* "0000:00:06.0" */
    char model[96];
    char uuid[64];            /* "GPU-082af63b-..." */
    char vbios[32];
    char firmware[32];
    int64_t minor;            /* /dev/nvidiaN */
    cp_tri excluded;
} cp_procfs_gpu;

typedef struct {
    bool present;             /* /proc/driver/nvidia/version was read */
    char version[32];         /* kernel module version "580.159.04" */
    cp_tri open_module;       /* "Open Kernel Module" vs proprietary */
    char banner[256];         /* the NVRM version line as read */
    int ngpus;
    cp_procfs_gpu gpus[CP_MAX_GPUS];
} cp_procfs_nvidia;

typedef struct {
    char path[64];            /* "/dev/nvidia0" */
    bool exists;
    bool is_chr;
    char type[8];             /* what the path is: "char", "block", "file", "dir", "other";
                                 "" when not known (snapshots older than the key) */
    int64_t major, minor;     /* of a character or block device, else CP_UNKNOWN */
    int64_t mode;             /* permission bits, e.g. 0666 */
    cp_tri accessible;        /* read+write for this user (access(2)) */
    int64_t open_errno;       /* opened O_RDWR and closed at once (live only): 0, or the
                                 errno (EPERM: a device cgroup; EACCES: the mode);
                                 CP_UNKNOWN when not tried */
} cp_devnode;

/* One line of /proc/devices: a major number and the driver that registered it. */
typedef struct {
    int64_t major;
    bool block;               /* listed under "Block devices:" */
    char name[32];            /* "nvidia-frontend", "nvidia-uvm", "mem" */
} cp_devmajor;

typedef struct {
    bool present;             /* /proc/devices was read (not in snapshots older than it) */
    int n;                    /* kept in m[] */
    int64_t total;            /* lines seen */
    cp_devmajor m[CP_MAX_DEVMAJORS];
} cp_proc_devices;

typedef struct {
    cp_tri in_container;
    char kind[32];            /* "docker", "podman", "kubernetes", "lxc", "containerd", "" */
    char evidence[160];       /* what said so: "/.dockerenv", "cgroup /docker/..." */
    int64_t cgroup_version;   /* 1 or 2 */
    char cgroup_path[160];
} cp_container;

typedef enum { CP_VIS_INDEX, CP_VIS_UUID, CP_VIS_MIG, CP_VIS_INVALID } cp_vis_kind;

typedef struct {
    cp_vis_kind kind;
    int64_t index;            /* for CP_VIS_INDEX */
    char text[80];            /* the entry as written */
} cp_vis_entry;

/* CUDA_VISIBLE_DEVICES as the CUDA driver reads it: a comma list that stops at
 * the first entry it cannot use; everything from there on is ignored. */
typedef struct {
    bool set;
    char raw[256];
    int n;                    /* entries parsed, including the invalid one */
    cp_vis_entry e[CP_MAX_VIS];
    int first_invalid;        /* index into e[], or -1 */
} cp_cuda_visible;

typedef enum { CP_NVVIS_UNSET, CP_NVVIS_ALL, CP_NVVIS_NONE, CP_NVVIS_VOID,
               CP_NVVIS_EMPTY, CP_NVVIS_LIST } cp_nvvis_mode;

typedef struct {
    bool cuda_visible_set;
    cp_cuda_visible cuda;
    cp_nvvis_mode nvidia_mode;        /* NVIDIA_VISIBLE_DEVICES (container runtime) */
    char nvidia_raw[256];
    bool order_set;                   /* CUDA_DEVICE_ORDER */
    char order_raw[64];
    cp_tri order_valid;               /* FASTEST_FIRST or PCI_BUS_ID */
} cp_visibility;

typedef struct {
    int64_t xid;
    char pci[32];             /* "0000:9b:00" as the driver printed it */
    int64_t pid;              /* CP_UNKNOWN where the line has none */
    char process[32];
    char text[160];           /* the rest of the line */
    int64_t at_s;             /* seconds since boot from the record's timestamp; CP_UNKNOWN where none */
} cp_xid_event;

typedef struct {
    cp_tri readable;
    char source[32];          /* "/dev/kmsg" */
    char why[160];            /* why not readable */
    int nxid;                 /* events kept (the newest CP_MAX_XIDS) */
    int64_t xid_total;        /* events seen */
    int64_t fell_off_bus;     /* "GPU has fallen off the bus" lines, with or without an Xid */
    int64_t fell_off_bus_at_s;  /* the newest such line's time since boot (s); CP_UNKNOWN where none */
    int64_t api_mismatch;     /* "NVRM: API mismatch" lines */
    int64_t uptime_s;         /* /proc/uptime when the log was read; with at_s gives an event's age */
    cp_xid_event xids[CP_MAX_XIDS];
} cp_kernel_log;

typedef struct {
    char name[64];
    char value[1024];         /* redacted in snapshots where it looks secret */
} cp_env_var;

typedef struct {
    int npci;
    int64_t npci_total;
    cp_pci_function pci[CP_MAX_PCI];
    cp_module modules[CP_MOD_COUNT];
    bool modules_readable;
    cp_procfs_nvidia procfs;
    int ndev;
    cp_devnode dev[CP_MAX_DEVNODES];
    cp_proc_devices devices;  /* /proc/devices: which driver owns which major */
    cp_container container;
    cp_visibility vis;
    cp_kernel_log klog;
    int64_t uid;
    int nenv;
    cp_env_var env[CP_MAX_ENV];   /* the variables that matter to CUDA, see host/env.c */
} cp_host_facts;

/* -------------------------------------------------------------- driver -- */

/* How a probe that calls into an NVIDIA library ended. */
typedef enum {
    CP_PROBE_NOT_RUN = 0,     /* never attempted (e.g. replay without the answer) */
    CP_PROBE_DONE,            /* answered; see the fields */
    CP_PROBE_TIMEOUT,         /* did not answer within the deadline and was killed */
    CP_PROBE_CRASHED,         /* the probe process died (signal) */
    CP_PROBE_ERROR            /* cuprobe could not run the probe (fork, pipe) */
} cp_probe_state;

typedef struct {
    cp_probe_state state;
    double elapsed_ms;        /* until the answer; for a timeout, the deadline itself */
    int64_t signal;           /* for CP_PROBE_CRASHED */
    int64_t maxrss_kb;        /* the probe process's own peak RSS */
    char detail[160];
    char stage[16];           /* the probe's last step begun: "load" (dlopen), "init" (cuInit,
                                 nvmlInit_v2), "query" (the devices), "done"; "" unknown */
} cp_probe_run;

/* Result of loading one NVIDIA library through the loader. */
typedef struct {
    bool loaded;
    char requested[128];      /* name or override path given to dlopen */
    char path[CP_PATH_MAX];   /* real path loaded (dladdr/realpath) */
    char error[CP_PATH_MAX];  /* dlerror() when not loaded */
    char missing_symbol[64];  /* first required symbol not found */
    char version_from_path[32]; /* "580.95.05" from libcuda.so.580.95.05 */
} cp_lib_load;

/* What level 2 found on one device (fields.h). */
typedef struct {
    CP_CUDA_L2_FIELDS(CP_FIELD_MEMBER_I, CP_FIELD_MEMBER_S)
} cp_cuda_l2;

/* One device as libcuda sees it: inventory (fields.h), and level 2's
 * results when it ran. */
typedef struct {
    int ordinal;
    CP_CUDA_DEVICE_FIELDS(CP_FIELD_MEMBER_I, CP_FIELD_MEMBER_S)
    cp_cuda_l2 l2;
} cp_cuda_device;

typedef struct {
    cp_probe_run run;
    cp_lib_load lib;
    int64_t init_result;      /* CUresult of cuInit(0) */
    char init_name[64];       /* "CUDA_ERROR_NO_DEVICE" */
    char init_text[192];      /* cuGetErrorString */
    int64_t driver_version;   /* cuDriverGetVersion: 13000 */
    int64_t device_count;
    int ndev;
    cp_cuda_device dev[CP_MAX_GPUS];
    int64_t l2_level;         /* 2 when the probe was asked for level 2; CP_UNKNOWN: level 1 */
    char l2_skip[128];        /* why the level-2 steps did not run although asked, "" */
    cp_probe_run l2_run;      /* how level 2 ended when it was cut (deadline, crash): the level-1
                                 answers were whole, so `run` says done and this says the rest */
} cp_cuda_facts;

typedef struct {
    CP_GPU_PROCESS_FIELDS(CP_FIELD_MEMBER_I, CP_FIELD_MEMBER_S)
    /* read from /proc/PID at level 2 (host/procs.c), not answers: "" unknown */
    char comm[32];            /* /proc/PID/comm */
    char container[80];       /* the container id in /proc/PID/cgroup, "" none or unknown */
    char pod_uid[40];         /* Kubernetes: the pod UID in its kubepods cgroup path, "" none */
    cp_tri visible;           /* /proc/PID readable here: NO when NVML's (host) PID is not
                                 in this PID namespace, UNKNOWN when not looked */
} cp_gpu_process;

/* What an NVML device is, read once (fields.h says why each field is here). */
typedef struct {
    CP_NVML_INVENTORY_FIELDS(CP_FIELD_MEMBER_I, CP_FIELD_MEMBER_S)
} cp_nvml_inventory;

/* What an NVML device is doing, read every tick.  Plain data with fixed
 * arrays, so a sampler can copy one on its own (`cp_nvml_sample s = d->sample`). */
typedef struct {
    CP_NVML_SAMPLE_FIELDS(CP_FIELD_MEMBER_I, CP_FIELD_MEMBER_S)
    int nprocs;               /* kept in procs[]; nprocs_total says how many ran */
    cp_gpu_process procs[CP_MAX_PROCS];
} cp_nvml_sample;

typedef struct {
    int index;                /* NVML index (not the CUDA ordinal) */
    cp_nvml_inventory inv;
    cp_nvml_sample sample;
} cp_nvml_device;

typedef struct {
    cp_probe_run run;
    cp_lib_load lib;
    int64_t init_result;      /* nvmlReturn_t of nvmlInit_v2 */
    char init_text[128];      /* nvmlErrorString */
    char driver_version[32];  /* nvmlSystemGetDriverVersion: "580.159.04" */
    char nvml_version[32];
    int64_t cuda_driver_version;  /* 13000 */
    int64_t device_count;
    int ndev;
    cp_nvml_device dev[CP_MAX_GPUS];
} cp_nvml_facts;

/* ------------------------------------------------------------- runtime -- */

typedef struct {
    char path[CP_PATH_MAX];   /* "/usr/local/cuda-13.0" (resolved) */
    char found_as[CP_PATH_MAX]; /* how it was found: "/usr/local/cuda", "CUDA_HOME", "nvcc on PATH" */
    char version[32];         /* "13.0.2" or "13.0" */
    char version_source[32];  /* "version.json", "version.txt", "cuda.h", "dist-info" */
    bool has_nvcc;
    bool has_stub_libcuda;
    char compat_libcuda[CP_PATH_MAX]; /* cuda-compat libcuda in TK/compat, "" if none */
    char compat_version[32];  /* "580.95.05" from its file name */
} cp_toolkit;

typedef struct {
    char path[CP_PATH_MAX];
    char found_by[32];        /* "LD_LIBRARY_PATH", "ld.so.cache", "toolkit" */
    int64_t major, minor, patch;  /* from the file name or the toolkit; CP_UNKNOWN */
    bool would_load;          /* the copy the dynamic loader picks for its soname */
} cp_cudart;

typedef struct {
    int ntk;
    cp_toolkit tk[CP_MAX_TOOLKITS];
    int nrt;
    cp_cudart rt[CP_MAX_CUDARTS];
    cp_tri ldcache_readable;
    char stubs_on_ld_path[CP_PATH_MAX]; /* a .../stubs folder in LD_LIBRARY_PATH, else "" */
    char compat_on_loader_path[CP_PATH_MAX]; /* libcuda.so.1 inside a compat/ folder that
                                                LD_LIBRARY_PATH or ld.so.cache hands out */
    char nvcc_on_path[CP_PATH_MAX];
} cp_runtime_facts;

/* ----------------------------------------------------------- libraries -- */

#define CP_MAX_LIBS 96

/* One copy of a CUDA library a program could load. */
typedef struct {
    char name[24];            /* "cublas", "cublasLt", "cudnn", "cufft", "curand", "cusolver",
                                 "cusparse", "nccl", "nvrtc", "nvJitLink", "cupti" */
    char soname[48];          /* "libcublas.so.13" */
    char path[CP_PATH_MAX];   /* where it was found (links resolved) */
    char found_by[32];        /* "LD_LIBRARY_PATH", "ld.so.cache", "toolkit", "wheel" */
    char version[32];         /* "13.1.0.3"; "" when unknown */
    char version_source[24];  /* "file name", "dist-info", "header" */
    int64_t cuda_major;       /* the CUDA major it was built for; CP_UNKNOWN */
    char cuda_release[16];    /* the CUDA release it ships with, "13.0": its toolkit's version, or
                                 a wheel's dist-info where that counts in CUDA's numbers; "" unknown */
    bool would_load;          /* the copy the dynamic loader hands out for its soname */
    cp_tri loads;             /* dlopen in a probe child succeeded (copies programs get, and wheels) */
    char load_error[192];     /* dlerror() when it did not */
    char version_call[24];    /* what the library's own version call says: "13.1.0", "9.14.0" */
} cp_library;

typedef struct {
    int nlib;
    int64_t nlib_total;
    cp_library lib[CP_MAX_LIBS];
    char load_skip[128];      /* why the libraries probe did not run here, "" when it ran (or a
                                 snapshot gave its answers) */
} cp_libraries_facts;

/* Level 2's libraries, in the order they run (cp_l2_lib_names). */
enum { CP_L2_CUBLAS, CP_L2_CUFFT, CP_L2_CUDNN, CP_L2_NVRTC, CP_L2_NCCL, CP_L2_NLIBS };
extern const char *const cp_l2_lib_names[CP_L2_NLIBS];   /* "cublas", ... as cp_library.name */

/* One library's tiny run at level 2 (fields.h). */
typedef struct {
    CP_LIB_L2_FIELDS(CP_FIELD_MEMBER_I, CP_FIELD_MEMBER_S)
} cp_lib_l2;

/* What the level-2 libraries probe found (src/lib/probe/libs_l2.c): its
 * own child, beside the libcuda one, on the primary context of device 0. */
typedef struct {
    int64_t level;            /* 2 when the probe was asked; CP_UNKNOWN: it was not */
    char skip[128];           /* why no library ran although asked ("" when they ran) */
    cp_probe_run run;         /* how the child ended (stage: "cublas.run", ...) */
    int64_t device;           /* the ordinal the libraries ran on */
    int64_t rss_start_bytes;  /* the child's VmRSS before libcuda */
    int64_t rss_ctx_bytes;    /* after cuInit and the primary context */
    int64_t hwm_bytes;        /* its peak (VmHWM) once every library ran */
    cp_lib_l2 lib[CP_L2_NLIBS];
} cp_libs_l2_facts;

/* load_skip (and libraries.load's words) in a snapshot or under another
 * root: the libraries probe loads only on the machine itself. */
#define CP_LIBS_LOAD_NOT_HERE "no library was loaded (only on the machine itself, not from a snapshot or another root)"

/* ----------------------------------------------------------- framework -- */

#define CP_MAX_FRAMEWORKS 8
#define CP_MAX_PYENVS 8
#define CP_MAX_FW_CODES 24
#define CP_MAX_FW_LIBS 16

/* A CUDA library a framework's GPU library needs (DT_NEEDED), and the copy
 * the dynamic loader gives it: LD_LIBRARY_PATH first, then the framework's
 * RUNPATH ($ORIGIN/../../nvidia/...), then ld.so.cache. */
typedef struct {
    char soname[48];          /* "libcublas.so.13" */
    char path[CP_PATH_MAX];   /* the copy it gets, "" when none is found */
    char via[16];             /* "RPATH", "LD_LIBRARY_PATH", "RUNPATH", "ld.so.cache", "" */
    char runpath_copy[CP_PATH_MAX];  /* what its own RUNPATH/RPATH would give, "" if nothing */
} cp_fw_lib;

/* cp_framework.cuda_version of a build known to carry no CUDA at all (torch
 * with `cuda = None`, jax without a CUDA plugin, TensorFlow with
 * is_cuda_build False); "" stays "not known". */
#define CP_FW_CUDA_CPU "cpu"

typedef struct {
    char name[16];            /* "torch", "jax", "cupy", "tensorflow" */
    char version[48];         /* "2.11.0+cu130" */
    char package_dir[CP_PATH_MAX];  /* .../site-packages/torch */
    char cuda_version[16];    /* the CUDA it was built for: "13.0"; "cpu" for a CPU-only
                                 build; "" when unknown */
    char cuda_source[48];     /* where that came from: "torch/version.py", "dist-info name" */
    char gpu_lib[CP_PATH_MAX];  /* the library whose GPU code was read, "" if none */
    int ncodes;               /* distinct codes in gpu_lib: "sm_90", "compute_120" */
    char codes[CP_MAX_FW_CODES][16];
    int64_t code_entries[CP_MAX_FW_CODES]; /* fatbin entries of each code (kernels built for it);
                                              <= 0 when unknown (build_info lists, old snapshots) */
    char problem[256];        /* a broken install seen while reading it, "" if none */
    int nlibs;                /* CUDA libraries gpu_lib needs */
    cp_fw_lib libs[CP_MAX_FW_LIBS];
} cp_framework;

typedef struct {
    int npython;              /* site-packages folders examined */
    char python[CP_MAX_PYENVS][CP_PATH_MAX];
    int nfw;
    cp_framework fw[CP_MAX_FRAMEWORKS];
} cp_frameworks_facts;

/* ---------------------------------------------------------------- all -- */

typedef struct {
    char origin[CP_PATH_MAX]; /* "live" or the snapshot folder */
    char captured_at[32];     /* ISO date of the observation */
    char hostname[64];
    char kernel_release[96];
    char python[CP_PATH_MAX]; /* the --python interpreter the observation examined, "" none */
    cp_host_facts host;
    cp_cuda_facts cuda;
    cp_nvml_facts nvml;
    cp_runtime_facts runtime;
    cp_libraries_facts libraries;
    cp_frameworks_facts frameworks;
    cp_libs_l2_facts libs_l2;  /* level 2's library runs (doctor --level 2) */
} cp_facts;

/* Clear every field to "unknown / not seen".  Never fails. */
void cp_facts_init(cp_facts *f);

/* The same for one record, generated from its rows in fields.h: numbers
 * CP_UNKNOWN, strings "", counts 0.  The probes reset with these too, so
 * "unknown" is written in one place.  Never fail. */
void cp_pci_function_init(cp_pci_function *p);
void cp_cuda_device_init(cp_cuda_device *d, int ordinal);
void cp_cuda_l2_init(cp_cuda_l2 *l2);
void cp_lib_l2_init(cp_lib_l2 *l);
void cp_libs_l2_facts_init(cp_libs_l2_facts *l);
void cp_nvml_inventory_init(cp_nvml_inventory *inv);
void cp_nvml_sample_init(cp_nvml_sample *s);
void cp_nvml_device_init(cp_nvml_device *d, int index);
/* Everything a probe fills, run included (the probe keeps its own run). */
void cp_cuda_facts_init(cp_cuda_facts *c);
void cp_nvml_facts_init(cp_nvml_facts *n);

/* One compute capability among the machine's GPUs. */
typedef struct {
    int major, minor;
    int ordinal;              /* the first GPU that has it (CUDA ordinal, else NVML index) */
    const char *name;         /* its name, in f; "" when unknown */
} cp_gpu_cc;

/* The distinct compute capabilities of the GPUs in f: CUDA's devices, or
 * NVML's when CUDA gave none, each CC once, in device order.  Writes at most
 * cap and returns how many. */
int cp_facts_gpu_ccs(const cp_facts *f, cp_gpu_cc *out, int cap);

/* Take the process pid out of every NVML device's compute processes (and
 * their count): cuprobe's own libcuda probe holds a context at level 2, and
 * NVML, asked at the same time, lists it as if another job used the GPU.
 * Returns how many entries were taken out; pid <= 0 takes none. */
int cp_facts_drop_process(cp_facts *f, int64_t pid);

/* Facts helpers (facts.c), shared by checks, observe and explain. */
/* True for an NVIDIA display/3D controller function (class 0x03xx, vendor 0x10de). */
int cp_is_gpu_function(const cp_pci_function *p);
/* How many such functions the PCI bus shows. */
int cp_gpus_on_bus(const cp_facts *f);
/* The best name known for the GPU at a bus address (NVML, CUDA, procfs), or
 * "NVIDIA GPU"; the string lives in f. */
const char *cp_gpu_model(const cp_facts *f, const char *bus);
/* cuInit / nvmlInit_v2 ran and answered success. */
int cp_cuda_ok(const cp_facts *f);
/* The theoretical rate of a PCIe link in one direction, MB/s (10^6 bytes
 * a second): per lane 2.5, 5, 8, 16, 32, 64 GT/s for generations 1-6, less
 * the line code (8b/10b for 1-2, 128b/130b for 3-5, 242/256 of a FLIT for
 * 6), times the lanes.  CP_UNKNOWN for an unknown or impossible link. */
int64_t cp_pcie_link_mbs(int64_t gen, int64_t width);
int cp_nvml_ok(const cp_facts *f);

#endif
