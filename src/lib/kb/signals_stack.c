/*
 * Explain rows for the layers under CUDA: kernel log lines (NVRM, modprobe,
 * Secure Boot, nouveau), NVML and nvidia-smi, containers, and the dynamic
 * loader's "cannot open shared object file" for driver, runtime and library
 * sonames.
 *
 * To add a row: see signals_cuda.c.
 */
#include "signals.h"

#define HW CP_LAYER_HARDWARE
#define KE CP_LAYER_KERNEL
#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER
#define RT CP_LAYER_RUNTIME
#define LI CP_LAYER_LIBRARIES
#define AP CP_LAYER_APPLICATION

/* What a loader says when a library is missing: dlerror, ldd ("=> not
 * found"), and the "Could not load library X" / "Unable to load any of {X"
 * of the libraries and frameworks that dlopen their parts.  Each loader row
 * adds one more wording of its own (also[] holds four). */
#define LOADER_SAYS "cannot open shared object file", "not found", "load "

/* NVML's "the libraries and the loaded module differ", in its words (driver.nvml_mismatch and its
 * kernel reading share them) */
#define NVML_LIB_RM_MISMATCH "Driver/library version mismatch", "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "NVMLError_LibRmVersionMismatch"

/* nvidia-container-cli's refusal of an image's CUDA requirement (system.container_requirement and its reading
 * from the image's side share them) */
#define CONTAINER_REQUIRES_CUDA "requirement error: unsatisfied condition: cuda", \
    "requirements not met: unsatisfied condition: cuda", \
    "unsupported CUDA version:" /* nvidia-docker 1: "Error: unsupported CUDA version: 7.5 < 6.5" */

const cp_signal cp_signals_stack[] = {
    { .id = "kernel.xid", .layer = HW, .match = { "NVRM: Xid" },
      .cause = "the kernel driver reported an XID error", .fix = "see the XID table",
      .check = "hardware.xid", .extract = CP_EXTRACT_XID },
    { .id = "driver.xid_fault_maybe", .layer = DR, .alternative = 1, .match = { "NVRM: Xid" },
      .value = CP_VALUE_XID_ALSO,               /* the XID table's also_layer: 31 and 32 */
      .cause = "or a driver bug: XID 31 (a page fault) and 32 (a corrupted push buffer) also come from the driver "
               "itself, most often where the faulting engine is one the program does not drive (GRAPHICS under "
               "a game, a compositor or Xorg) or where many programs fault alike after a driver update",
      .fix = "where the program is yours, run it under compute-sanitizer first; where the faults follow a driver "
             "update or come from a game or the desktop, try the next (or the previous) driver release and "
             "report it to NVIDIA with nvidia-bug-report.sh",
      .check = "driver.xid" },
    { .id = "hardware.fallen_off_bus", .layer = HW,
      .match = { "fallen off the bus", "GPU is lost", "NVML_ERROR_GPU_IS_LOST", "ERROR_GPU_IS_LOST" /* go-nvml */,
                 "NVMLError_GpuIsLost" },
      .unless = "NVRM: Xid",                    /* kernel.xid explains that line */
      .cause = "the GPU stopped answering on PCIe (power, thermal, riser or slot problem, or a GPU fault)",
      .fix = "drain and reboot the node; check PCIe seating, power cables and cooling; if it repeats, RMA the GPU",
      .check = "hardware.pci_gpu", .nvml_code = 15 },
    { .id = "kernel.rm_init_failed", .layer = KE, .match = { "RmInitAdapter failed" },
      .cause = "the nvidia kernel module could not initialise the GPU (firmware/GSP failure, unsupported GPU for this driver, or a hardware fault)",
      .fix = "check that the driver supports this GPU, try a reboot, and read the NVRM lines around it; if it persists, test the GPU in another slot",
      .check = "kernel.gpu_bound" },
    /* the driver layer, as doctor reads the same line (driver.version_match): user space and module disagree */
    { .id = "driver.api_mismatch", .layer = DR, .match = { "NVRM: API mismatch" },
      .cause = "a user-space driver component of one version talked to a kernel module of another version",
      .fix = "reboot (or unload and reload the nvidia modules) after a driver upgrade so both sides have the same version",
      .check = "driver.version_match" },
    /* a Jetson's GPU driver (nvgpu) is part of L4T: its kernel has no nvidia module to load */
    { .id = "application.jetson_loads_nvidia_module_maybe", .layer = CP_LAYER_APPLICATION, .alternative = 1,
      .match = { "Module nvidia not found", "Module nvidia-uvm not found" }, .also = { "-tegra" },
      .cause = "or this is a Jetson (a -tegra kernel), whose GPU driver, nvgpu, comes with L4T: there is no nvidia "
               "module to load, and a script or tool that modprobes one was written for a PC or server",
      .fix = "skip the modprobe on Jetson in the script (its GPU needs no module load), and run containers there "
             "with the L4T images and --runtime nvidia",
      .check = NULL },
    { .id = "kernel.module_not_found", .layer = KE,
      .match = { "Module nvidia not found", "Module nvidia_uvm not found", "Module nvidia-uvm not found" },
      .cause = "no nvidia kernel module is built for the running kernel (kernel updated without a DKMS rebuild, or driver not installed)",
      .fix = "install the driver's kernel module for this kernel (dkms autoinstall, or the linux-modules-nvidia package for it) and reboot",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.secure_boot", .layer = KE,
      .match = { "Key was rejected by service", "Required key not available", "Secure Boot",
                 "not signed by a key that is trusted by the kernel" /* nvidia-installer */ },
      .also = { "nvidia", "modprobe", "module", "insmod" },
      .cause = "Secure Boot refused to load the unsigned nvidia kernel module",
      .fix = "sign the module and enrol the key with mokutil (DKMS can do it), use the distribution's signed driver, or disable Secure Boot",
      .check = "kernel.nvidia_module" },
    /* the kernel's own line as it refuses a module's signature: it names no module */
    { .id = "kernel.module_signature", .layer = KE, .match = { "PKCS#7 signature not signed with a trusted key" },
      .cause = "the kernel refused a module's signature: its key is not enrolled, so under Secure Boot (or "
               "module.sig_enforce) the module, most often a DKMS-built nvidia one, does not load",
      .fix = "enrol the key DKMS signs with (sudo mokutil --import /var/lib/dkms/mok.pub, then confirm at the next "
             "boot), use the distribution's signed driver packages, or disable Secure Boot; `mokutil "
             "--sb-state` says whether it is on",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.nouveau", .layer = KE,
      .match = { "Nouveau kernel driver is currently in use", "initialized nouveau", "nouveau 0000:",
                 "NVIDIA probe routine was not called", "nouveau, rivafb, nvidiafb or rivatv",
                 "obtained ownership of the NVIDIA device" },
      .cause = "the open-source nouveau driver holds the GPU, so the nvidia module cannot bind to it",
      .fix = "blacklist nouveau (modprobe.d: blacklist nouveau, options nouveau modeset=0), rebuild the initramfs and reboot",
      .check = "kernel.nouveau" },
    { .id = "kernel.module_in_use", .layer = KE,
      .match = { "appears to already be loaded in your kernel", "appears to be already loaded in your kernel",
                 "Could not unload NVIDIA driver kernel modules" /* GPU operator driver container */ },
      .also = { "nvidia" },
      .cause = "the NVIDIA installer cannot replace a kernel module that is in use: a display server, a CUDA program, nvidia-persistenced or a container still holds nvidia, nvidia_drm, nvidia_modeset or nvidia_uvm",
      .fix = "stop the users (systemctl isolate multi-user.target for the display manager, stop nvidia-persistenced and GPU jobs; lsof /dev/nvidia* lists them), then `sudo rmmod nvidia_drm nvidia_modeset nvidia_uvm nvidia` and rerun the installer; if rmmod still fails, reboot to a text console first",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.gpu_powered_off", .layer = KE, .match = { "Refused to change power state, currently in D3" },
      .cause = "the PCI device (on a laptop or a passthrough host, most often the NVIDIA GPU) is stuck in the D3 "
               "power state and did not wake: PCI runtime power management (powertop --auto-tune, TLP), "
               "bbswitch or a switcheroo turned it off and the platform cannot bring it back",
      .fix = "turn runtime PM off for the GPU (echo on > /sys/bus/pci/devices/0000:01:00.0/power/control; drop "
             "powertop --auto-tune or TLP's runtime PM for it), remove bbswitch when the NVIDIA driver's own "
             "power management is used, or boot with pcie_port_pm=off",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.no_adapter", .layer = KE,
      .match = { "NVRM: No NVIDIA graphics adapter found", "NVRM: No NVIDIA GPU found",
                 "NVIDIA: no NVIDIA devices found" /* nvidia-modprobe */ },
      .cause = "the nvidia module loaded but found no GPU it can drive: no NVIDIA GPU on the bus, the GPU bound to another driver (nouveau, vfio-pci), or a GPU too old or too new for this driver branch",
      .fix = "check `lspci -nnk -d 10de:` for the GPU and its 'Kernel driver in use'; unbind it from vfio-pci/nouveau, or install a driver branch that supports this GPU",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.module_loaded", .layer = KE, .match = { "NVRM: loading NVIDIA UNIX" }, .notice = 1,
      .informational = 1,                       /* a healthy boot log says nothing more */
      .cause = "informational: the nvidia kernel module loaded; the line gives its version",
      .fix = "nothing to do; compare this version with the user-space driver's (nvidia-smi) if other errors follow",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.smi_no_driver", .layer = KE,
      .match = { "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver",
                 "NVIDIA-SMI has failed because it couldn",    /* any apostrophe */
                 "NVML_ERROR_DRIVER_NOT_LOADED", "NVMLError_DriverNotLoaded", "Failed to initialize NVML: Driver Not Loaded",
                 "The NVIDIA driver is not loaded", "nvidia-modprobe: unable to load the NVIDIA kernel module",
                 "nvml error: driver not loaded" /* nvidia-container-cli */,
                 "Failed to communicate with NVIDIA driver", "failed to communicate with the NVIDIA driver" },
      .cause = "the nvidia kernel module is not loaded (kernel updated without a DKMS rebuild, Secure Boot, nouveau, or no device nodes in a container)",
      .fix = "load the module (sudo modprobe nvidia) and read its error; rebuild it for the running kernel if it is missing",
      .check = "kernel.nvidia_module", .nvml_code = 9 },
    /* nvidia-smi's own form of it, run where the host's driver is not handed over (a container, LXD, WSL) */
    { .id = "system.smi_no_devices_maybe", .layer = SY, .alternative = 1,
      .match = { "NVIDIA-SMI has failed because it couldn" },
      .cause = "or nvidia-smi ran where the host's driver is not handed over: a container started without the NVIDIA "
               "runtime (plain docker run with nvidia-smi mounted or baked into the image), an LXD/LXC container "
               "without the GPU device, a WSL instance whose GPU support is broken, an image that brings a driver "
               "of its own",
      .fix = "run nvidia-smi on the host first: where it works there, give the container the GPU (docker run --gpus "
             "all, the nvidia runtime, LXD's `gpu` device with nvidia.runtime=true) and remove any driver the image "
             "installs; under WSL, the driver is the Windows one (`wsl --update`, no Linux driver in the distro)",
      .check = "system.container" },
    { .id = "driver.smi_query_field_unknown", .layer = DR, .match = { "is not a valid field to query" },
      .cause = "nvidia-smi does not know a field the query asks for: the tool (an exporter, a monitoring "
               "template) was written for a newer driver, whose nvidia-smi added the field, and an old driver "
               "also answers [N/A] for what it cannot read on a newer GPU",
      .fix = "update the NVIDIA driver (nvidia-smi --help-query-gpu lists the fields this one knows), or drop the "
             "field from the tool's query",
      .check = "driver.nvml" },
    { .id = "driver.smi_missing", .layer = DR, .match = { "nvidia-smi: command not found", "nvidia-smi: not found",
                                                          "'nvidia-smi' is not recognized as an internal or external",
                                                          "Command 'nvidia-smi' not found" /* Ubuntu */,
                                                          "If 'nvidia-smi' is not a typo" /* openSUSE */ },
      .cause = "there is no nvidia-smi on PATH: the NVIDIA driver's user-space part is not installed here (a "
               "kernel module alone, a distribution's driver without its utilities package), or it sits "
               "outside PATH (Windows: C:\\Windows\\System32)",
      .fix = "install the driver's utilities (nvidia-utils-NNN on Debian/Ubuntu, the whole .run driver, "
             "nvidia-driver-cuda on RPM distributions) of the same version as the loaded module; in a container, "
             "start it with the GPUs and the utility capability",
      .check = "driver.nvml" },
    { .id = "driver.monitor_no_gpu", .layer = DR, .match = { "No GPU to monitor" },
      .cause = "nvtop found no GPU it can read: for NVIDIA GPUs it loads libnvidia-ml.so.1 at run time, and that "
               "library was not found by the loader or NVML did not start (no driver, a driver without its "
               "utilities, a loader cache that does not list the driver's directory)",
      .fix = "run nvidia-smi in the same environment: if it fails, fix the driver it names; if it works, make "
             "nvtop's loader find libnvidia-ml.so.1 (ldconfig -p | grep nvidia-ml; a nix or conda environment "
             "has its own loader and cache)",
      .check = "driver.nvml" },
    { .id = "driver.cuda_debugger_missing", .layer = DR, .match = { "Could not find CUDA Debugger back-end" },
      .cause = "cuda-gdb found no debugger back-end: libcudadebugger.so.1, which comes with the NVIDIA driver "
               "(not the toolkit), is missing here: a driver older than the toolkit's debugger needs, a driver "
               "install without it, or a container that does not mount it",
      .fix = "install a driver of the toolkit's branch or newer (ls /usr/lib/x86_64-linux-gnu/libcudadebugger.so*); "
             "in a container have the runtime mount it (apptainer: add libcudadebugger.so to nvliblist.conf)",
      .check = "driver.libcuda" },
    { .id = "system.windows_pagefile", .layer = SY, .match = { "The paging file is too small for this operation" },
      .context = CP_CONTEXT_GPU,
      .cause = "Windows ran out of commit space (RAM plus page file) while loading the CUDA DLLs: each process "
               "(every DataLoader worker) maps torch's and CUDA's large DLLs, and the page file is too small for them",
      .fix = "let Windows manage the page file or enlarge it on a disk with room, and use fewer DataLoader "
             "workers (num_workers)",
      .check = NULL },
    { .id = "hardware.windows_code43", .layer = HW, .match = { "(Code 43)" },
      .also = { "stopped this device", "reported problems" },
      .cause = "Windows stopped the GPU because it reported a failure while starting: most often the card itself "
               "(its power cables not all connected, a failing GPU, damaged or reflashed firmware on mining and "
               "engineering cards), less often a broken driver install or a GeForce in a VM under a driver "
               "older than 465",
      .fix = "check that every power connector is plugged, remove all NVIDIA drivers with Display Driver "
             "Uninstaller and install the current one (465 or newer in a VM), then try the card alone in another "
             "slot or machine: if it fails there too (under Linux its kernel log shows RmInitAdapter failing), "
             "replace it",
      .check = "hardware.pci_gpu" },
    { .id = "driver.windows_tdr", .layer = DR,
      .match = { "nvlddmkm stopped responding and has successfully recovered", "from source nvlddmkm",
                 "VIDEO_TDR_FAILURE", "Timeout Detection and Recovery", "TdrDelay" },
      .cause = "Windows' watchdog (TDR) reset the display driver: a GPU job ran longer than TdrDelay (2 s by "
               "default) on a GPU in WDDM mode, or the GPU hung (an overclock, power, heat); CUDA programs on it then "
               "fail with 'unknown error' or 'the launch timed out'",
      .fix = "split long kernels, or raise TdrDelay (HKLM\\System\\CurrentControlSet\\Control\\GraphicsDrivers); "
             "put a datacenter GPU in TCC mode (nvidia-smi -dm 1) or compute on a GPU that drives no display; undo "
             "overclocks and check power and temperatures",
      .check = NULL },
    { .id = "system.tegra_nvmap", .layer = SY,
      .match = { "NvRmMemInitNvmap failed", "NvRmMemInit failed", "NvRmGpuLibOpen failed" },
      .cause = "on a Jetson (Tegra) the process could not open the GPU's memory and channel devices (/dev/nvmap, "
               "/dev/nvhost-*): a container started without the NVIDIA runtime or those devices, or a user "
               "outside the video group",
      .fix = "run the container with --runtime nvidia (JetPack's container runtime) or pass /dev/nvmap and "
             "/dev/nvhost-*; add the user to the video group (sudo usermod -aG video $USER)",
      .check = "system.devnode_access" },
    { .id = "app.tegra_memory", .layer = AP, .match = { "NvMapMemAllocInternalTagged", "NvMapMemHandleAlloc: error" },
      .cause = "a Jetson ran out of memory for the GPU: its GPU shares the board's RAM, and the program (a model, "
               "its batch, or several processes) asked for more than is free",
      .fix = "use a smaller model, batch or resolution, free memory (stop the desktop, other containers), add "
             "swap for the CPU side, and watch tegrastats while it runs",
      .check = NULL },
    { .id = "system.smi_no_devices", .layer = SY,
      .match = { "No devices were found" },   /* nvidia-smi: NVML started, but sees no GPU */
      .cause = "nvidia-smi reached the driver but may use no GPU: the process's device cgroup hides them "
               "(a Slurm step without --gres/-G, a container or pod without the GPU), or the driver "
               "failed to initialise every GPU (RmInitAdapter lines in the kernel log)",
      .fix = "ask for the GPUs (`srun --gres=gpu:N` or -G N, docker --gpus, a pod's nvidia.com/gpu limit); on the "
             "host, if it says the same as root, read `sudo dmesg | grep -i nvrm` for the GPU's init error",
      .check = "system.visibility" },
    { .id = "driver.nvml_mismatch", .layer = DR,
      .match = { NVML_LIB_RM_MISMATCH },
      .cause = "user-space libnvidia-ml and the loaded kernel module have different versions, usually after a driver upgrade without reboot",
      .fix = "reboot, or unload the nvidia modules and load them again (stop processes using the GPU first)",
      .check = "driver.version_match", .nvml_code = 18 },
    { .id = "kernel.stale_module_maybe", .layer = KE, .alternative = 1,
      .match = { NVML_LIB_RM_MISMATCH },
      .cause = "or the kernel module is the stale side: the nvidia module still loaded is the release from before an "
               "upgrade (an unattended update of the driver packages, a node image whose packages changed at first "
               "boot), so the libraries are right and the module is not; inside a container the same holds for the host",
      .fix = "on the host, compare `cat /proc/driver/nvidia/version` with `modinfo -F version nvidia`: where they differ, "
             "reboot (or rmmod the nvidia modules and load them again), then hold the driver packages against unattended "
             "upgrades",
      .check = "driver.version_match" },
    { .id = "system.nvml_unknown", .layer = SY, .match = { "Failed to initialize NVML: Unknown Error" },
      .cause = "NVML could not open the device nodes; in a container this usually means its device cgroup rules were reset (e.g. systemctl daemon-reload)",
      .fix = "restart the container; on the host set up the nvidia-ctk cgroup/CDI config so device access survives daemon reloads",
      .check = "system.devnode_access" },
    /* NVML started but its shutdown call is missing: the library loaded is not the driver's */
    { .id = "driver.nvml_stub_loaded", .layer = DR,
      .match = { "Failed to properly shut down NVML: Function Not Found" },
      .cause = "the libnvidia-ml.so.1 that was loaded lacks NVML's own functions: a stub (the toolkit's "
               "stubs/libnvidia-ml.so, a build directory's empty copy, a shim) is found before the driver's, through "
               "LD_LIBRARY_PATH or a copy in an image or environment",
      .fix = "ldd $(which nvidia-smi) and ldconfig -p | grep libnvidia-ml show which copy is taken: remove the stub's "
             "directory from LD_LIBRARY_PATH (or the copy itself) so the driver's library, of the kernel module's "
             "version, is found",
      .check = "driver.nvml" },
    { .id = "NVML_ERROR_NO_PERMISSION", .layer = SY,
      .match = { "NVML_ERROR_NO_PERMISSION", "NVMLError_NoPermission", "Insufficient Permissions",
                 "Insufficient Pemmissions" /* go-nvml's spelling */ },
      .also = { "nvml", "Failed to", "nvidia-smi", "error" }, .context = CP_CONTEXT_GPU,
      .cause = "NVML refused the query for lack of privilege: a root-only query or setting (clocks, NVLink counters, ECC, MIG layout), device nodes (/dev/nvidia*, /dev/nvidia-caps) this user cannot open, or a whole-GPU query from inside a MIG instance",
      .fix = "run the query as root or grant access to /dev/nvidia* (and /dev/nvidia-caps for MIG); in a MIG container query the MIG device handle, not the parent GPU; for nvidia-container-cli, make nvidia-smi work as that user and check the toolkit's user and no-cgroups settings",
      .check = "system.devnode_access", .nvml_code = 4 },
    { .id = "system.container_no_gpu_runtime", .layer = SY,
      .match = { "with capabilities: [[gpu]]" },   /* driver "" (docker --gpus) or "nvidia" (compose) */
      .cause = "Docker has no GPU runtime: the NVIDIA Container Toolkit is not installed or not configured",
      .fix = "install nvidia-container-toolkit, run `nvidia-ctk runtime configure --runtime=docker` and restart dockerd",
      .check = "system.container" },
    /* gVisor's nvproxy knows each driver's ioctl interface by version */
    { .id = "system.gvisor_driver_unsupported", .layer = SY, .match = { "registering nvproxy driver: unsupported" },
      .cause = "gVisor's nvproxy (runsc --nvproxy) does not support the host's NVIDIA driver version: it "
               "implements the driver's interface release by release, and this one is not in its list",
      .fix = "install a host driver that the runsc release supports (runsc nvproxy list-supported-drivers), update "
             "runsc, or set --nvproxy-driver-version to a supported version whose interface is the same",
      .check = "driver.version_match" },
    { .id = "system.musl_image_glibc_driver", .layer = SY, .match = { "Error relocating" },
      .also = { "nvidia", "libcuda" },
      .cause = "a musl-based image (Alpine) cannot run the driver's programs and libraries that the NVIDIA "
               "container runtime mounts into it: they are built against glibc, whose symbols musl's loader "
               "does not find",
      .fix = "use a glibc-based image (Debian, Ubuntu, UBI, or the project's -glibc variant at a release whose "
             "glibc layer works) for GPU containers",
      .check = "system.container" },
    { .id = "system.compose_gpu_option_unknown", .layer = SY, .match = { "Unsupported config option for services" },
      .also = { "device_requests", "'runtime'", "'gpus'", "'deploy'" },
      .cause = "docker-compose refused the GPU settings of the compose file: a docker-compose 1.x older than 1.28 "
               "knows neither device_requests nor deploy.resources.reservations.devices, and the version 3 file "
               "format dropped `runtime: nvidia`",
      .fix = "install Compose v2 (the docker-compose-plugin package: `docker compose`, or docker-compose 1.28 and "
             "newer), ask for GPUs with deploy.resources.reservations.devices (driver: nvidia, capabilities: [gpu]), "
             "and install the NVIDIA Container Toolkit",
      .check = "system.container" },
    { .id = "system.container_cdi_disabled", .layer = SY,
      .match = { "could not select device driver \"cdi\"" },  /* docker --device nvidia.com/gpu=all without CDI */
      .cause = "Docker was asked for a CDI device (--device nvidia.com/gpu=all) but this daemon has CDI switched off, or finds no CDI "
               "spec for it (rootless daemons read their own configuration and spec folders)",
      .fix = "switch CDI on in the daemon's daemon.json (\"features\": {\"cdi\": true}, the rootless one in ~/.config/docker), generate the "
             "spec with `nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml` and restart the daemon; or use --gpus all",
      .check = "system.container" },
    { .id = "system.nvml_os_blocked", .layer = SY,
      .match = { "GPU access blocked by the operating system" },   /* nvmlErrorString(NVML_ERROR_OPERATING_SYSTEM) */
      .cause = "the operating system refused NVML the GPU: in a container, the device cgroup or a missing device node; in WSL, a GPU "
               "in TCC mode (WSL needs WDDM) or a host driver without WSL support; in a GPU-paravirtualised guest, NVIDIA user-space "
               "files (/usr/lib/wsl/lib) that are incomplete or not the host driver's",
      .fix = "in a container, pass the GPU through the NVIDIA Container Toolkit (--gpus / CDI); in WSL or a GPU-PV guest, copy the host "
             "driver's complete user-space files (the whole DriverStore folder of nvidia) into the guest and update the Windows driver",
      .check = "system.devnode_access", .nvml_code = 17 },
    /* the same in a GPU-paravirtualised guest, read from below: the guest's kernel lacks the module that carries the GPU */
    { .id = "kernel.gpu_pv_module_maybe", .layer = CP_LAYER_KERNEL, .alternative = 1,
      .context_absent = CP_CONTEXT_CONTAINER,
      .match = { "GPU access blocked by the operating system" },
      .cause = "or, in a Hyper-V GPU-PV or WSL guest, the guest's kernel has no dxgkrnl module, the driver that carries the "
               "GPU from the host (a stock distribution kernel: lspci shows a Microsoft 3D controller, /dev/dxg is missing)",
      .fix = "boot a kernel with dxgkrnl (WSL's kernel, or the module built for the guest's kernel); lsmod | grep dxgkrnl "
             "and ls /dev/dxg confirm it",
      .check = "kernel.devnodes" },
    { .id = "system.container_cli_init", .layer = SY, .match = { "container-cli: initialization error" },
      .cause = "the NVIDIA container hook could not talk to the driver on the host (module not loaded, NVML error, or a rootless setup)",
      .fix = "make nvidia-smi work on the host first; then check /etc/nvidia-container-runtime/config.toml (no-cgroups for rootless)",
      .check = "system.container" },
    { .id = "system.container_requirement", .layer = DR,
      .match = { CONTAINER_REQUIRES_CUDA,
                 "requirement error: unsatisfied condition: driver", "requirement error: unsatisfied condition: brand" },
      /* often after an escaped \n; "driver < 385" and "brand = tesla" are the image's escape clauses for older
       * data-centre drivers, reported when its CUDA condition failed too */
      .cause = "the image needs a newer CUDA than the host driver supports (NVIDIA_REQUIRE_CUDA)",
      .fix = "upgrade the host driver, or use an image built for an older CUDA",
      .check = "runtime.driver_compat" },
    /* the same, read from the image's side: the host's driver stays, the image's release changes */
    { .id = "framework.image_release_for_driver_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { CONTAINER_REQUIRES_CUDA },
      .cause = "or the host's driver is to stay (a cluster, a cloud image) and the image's release is newer than it can "
               "run: a server image (TGI, vLLM, Triton) moved to a newer CUDA in this tag",
      .fix = "pin the image's release built for the CUDA the driver supports (nvidia-smi's \"CUDA Version\"; the "
             "project's release notes name each tag's CUDA)",
      .check = "runtime.driver_compat" },
    /* the toolkit's link-time stub loaded at run time, by path: a loader path that puts stubs/ first */
    { .id = "system.stub_libcuda_on_path", .layer = SY, .match = { "stubs/libcuda.so" },
      .also = { "undefined symbol", "error", "failed", "cannot" },
      .cause = "the program loaded the toolkit's stub libcuda.so (lib64/stubs, for linking only) instead of the "
               "driver's: LD_LIBRARY_PATH (or an rpath, a module file) puts the stubs folder before the driver's "
               "library",
      .fix = "remove .../lib64/stubs from LD_LIBRARY_PATH (check the shell's startup files and module loads), "
             "keep it on LIBRARY_PATH for linking only; `ldconfig -p | grep libcuda` shows the driver's copy",
      .check = "runtime.stubs_on_path" },
    { .id = "loader.libcuda", .layer = DR, .match = { "libcuda.so", "nvcuda.dll" },
      .also = { LOADER_SAYS, "couldn't open", "Failed to load", "Failed to dlopen", "Did not find cuDriverGetVersion" },    /* TensorFlow 1: "Couldn't open CUDA library libcuda.so.1" */
      .cause = "the driver's libcuda.so.1 cannot be found: no NVIDIA driver, or a container started without the driver libraries",
      .fix = "install the NVIDIA driver; in a container use --gpus (NVIDIA Container Toolkit) so libcuda is mounted",
      .check = "driver.libcuda", .extract = CP_EXTRACT_SONAME },
    /* the same, read from the package's side: a machine with no NVIDIA GPU has no libcuda, and a package's GPU
     * build links it */
    { .id = "framework.gpu_build_no_gpu_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1, .context_absent = CP_CONTEXT_CONTAINER,
      .match = { "libcuda.so.1: cannot open shared object file" },
      .cause = "or this machine has no NVIDIA GPU (a login node, a CPU-only VM or laptop) and the package is its GPU "
               "build, which links libcuda at import (tensorflow-gpu, RAPIDS, a CUDA build of a project's own "
               "package): no driver is to be had here",
      .fix = "lspci | grep -i nvidia: with no GPU, install the package's CPU build in this environment (or run on a "
             "GPU node); with one, install the driver",
      .check = "hardware.pci_gpu" },
    /* the unversioned libcuda.so (cuDNN 8's sub-libraries and Triton open it by that name), read from the
     * loader's path: the driver is there, its link is not where the loader looks */
    { .id = "system.libcuda_link_path_maybe", .layer = SY, .alternative = 1,
      .match = { "libcuda.so: cannot open shared object file" },
      .cause = "or the driver is installed and the loader does not reach its unversioned libcuda.so link, which cuDNN 8 "
               "and Triton open by that name: under WSL /usr/lib/wsl/lib (where the Windows driver puts it) is not in "
               "ld.so.conf or LD_LIBRARY_PATH, or a conda environment's or image's library path hides it",
      .fix = "ldconfig -p | grep libcuda shows what the loader finds; under WSL add /usr/lib/wsl/lib to LD_LIBRARY_PATH "
             "(or an ld.so.conf.d file, then sudo ldconfig); where only libcuda.so.1 is found, link libcuda.so to it",
      .check = "driver.libcuda" },
    /* strace of a GPU program: the kernel refused it a device node */
    { .id = "system.devnode_refused", .layer = SY,
      .match = { "= -1 EPERM (Operation not permitted)", "= -1 EACCES (Permission denied)" },
      .also = { "/dev/nvidia" },
      .cause = "the kernel refused the process the GPU's device node (strace shows the open fail): a container's device "
               "cgroup (lost after the container engine's update or a systemctl daemon-reload), the node's owner and "
               "mode, or SELinux or AppArmor",
      .fix = "outside a container, check ls -l /dev/nvidia* and the user's groups; in one, restart it and make device "
             "access survive reloads (nvidia-ctk's CDI spec, the engine's device rules); where an engine update broke "
             "it, that engine's fixed release (or the one before)",
      .check = "system.devnode_access" },
    { .id = "driver.libcuda_not_found_rust", .layer = DR,
      .match = { "Unable to find cuda lib under the names", "Unable to dynamically load the \"cuda\" shared library" },
      .cause = "a Rust CUDA binding (cudarc, under candle or mistral.rs) found no libcuda.so to load: no NVIDIA "
               "driver here, or its directory is not on the loader's path (WSL keeps it in /usr/lib/wsl/lib)",
      .fix = "make nvidia-smi work in the same environment; add the directory that holds libcuda.so to "
             "LD_LIBRARY_PATH (WSL: /usr/lib/wsl/lib) or install the driver",
      .check = "driver.libcuda" },
    { .id = "driver.libcuda_too_old", .layer = DR, .match = { "libcuda.so.1: undefined" },
      .cause = "the program (or a library it loads, such as CUDA-aware MPI or UCX) asks libcuda.so.1 for a "
               "function it does not have: the driver is older than the CUDA it was built for",
      .fix = "upgrade the NVIDIA driver to one of the program's CUDA major or newer (nvidia-smi's CUDA Version), "
             "or use a build of the program for the driver's CUDA",
      .check = "runtime.driver_compat" },
    { .id = "driver.wsl_libcuda_copies", .layer = DR, .match = { "libcuda.so.1 is not a symbolic link" },
      .cause = "ldconfig warns that the driver's libcuda.so.1 is a copy, not a link: under WSL the Windows NVIDIA "
               "driver ships /usr/lib/wsl/lib/libcuda.so and libcuda.so.1 as copies of libcuda.so.1.1; "
               "CUDA still works",
      .fix = "nothing is broken; to quiet it, replace the two copies in C:\\Windows\\System32\\lxss\\lib with "
             "links to libcuda.so.1.1 (mklink), or ignore it (a driver update restores the copies)",
      .check = "driver.libcuda" },
    { .id = "numba.no_libcuda", .layer = DR, .match = { "CUDA driver library cannot be found" },
      .cause = "Numba (or numba-cuda) found no libcuda.so.1, the driver's user-space library, on the loader's path "
               "or in /usr/lib: no NVIDIA driver here, a container started without the GPUs, or WSL's "
               "/usr/lib/wsl/lib not on the path",
      .fix = "make nvidia-smi work in the same environment (install the driver; docker --gpus all); for a "
             "libcuda in an unusual place, NUMBA_CUDA_DRIVER=/path/to/libcuda.so.1",
      .check = "driver.libcuda" },
    { .id = "loader.libnvml", .layer = DR, .match = { "libnvidia-ml.so" },
      .also = { LOADER_SAYS, "couldn't find" },    /* "NVIDIA-SMI couldn't find libnvidia-ml.so library" */
      .cause = "the driver's libnvidia-ml.so.1 cannot be found: no NVIDIA driver, or a container without the driver libraries",
      .fix = "install the NVIDIA driver (its utils package), or start the container with --gpus",
      .check = "driver.nvml", .extract = CP_EXTRACT_SONAME },
    { .id = "loader.runtime", .layer = RT,
      .match = { "libcudart.so", "libnvJitLink.so", "libnvvm.so", "libnvToolsExt.so", "cudart64_", "nvJitLink_" },
      .also = { LOADER_SAYS, "failed to open" },
      .cause = "a CUDA toolkit runtime library (cudart, nvJitLink, NVVM, NVTX) of this major version is not installed or not on the library path",
      .fix = "install the CUDA runtime of that major (toolkit, or the nvidia-*-cuXX pip wheels) or add its lib directory to LD_LIBRARY_PATH (Windows: the toolkit's bin directory to PATH)",
      .check = "runtime.toolkits", .extract = CP_EXTRACT_SONAME },
    { .id = "loader.nvrtc", .layer = LI,            /* NVRTC and CUPTI are libraries (DESIGN.md), not the runtime */
      .match = { "libnvrtc.so", "libnvrtc-builtins.so", "nvrtc64_", "libcupti.so", "cupti64_" },
      .also = { LOADER_SAYS, "failed to open", ".dll" },   /* nvrtc: "failed to open libnvrtc-builtins.so.11.1" */
      .unless = "Located at",                 /* Numba's search listing: a library it found */
      .cause = "the CUDA runtime compiler NVRTC (or the profiling library CUPTI) of this major version is not installed or not "
               "on the library path: what compiles kernels at run time (CuPy, PyTorch's jiterator and nvFuser, JAX) needs it",
      .fix = "install it for your CUDA major (the toolkit, cuda-nvrtc-X-Y, or the nvidia-cuda-nvrtc-cuXX / nvidia-cuda-nvrtc pip wheel) "
             "or add its directory to LD_LIBRARY_PATH (Windows: PATH)",
      .check = "libraries.found", .extract = CP_EXTRACT_SONAME },
    { .id = "loader.libraries", .layer = LI,
      .match = { "libcublas.so", "libcublasLt.so", "libcufft.so", "libcurand.so", "libcusolver.so", "libcusparse.so",
                 "libcudnn.so", "libcudnn_", "libnccl.so", "libnvjpeg.so", "libnppc.so", "libnppig.so",
                 "libcufile.so", "libcusparseLt.so", "cudnn64_", "cudnn_" /* Windows: cudnn64_8.dll, cudnn_cnn_infer64_8.dll */,
                 "libcudss.so", "libcutensor.so", "libcutensorMg.so", "libnppicc.so", "libnppial.so",
                 "libnppidei.so", "libnpps.so", "cublas64_", "cublasLt64_", "cufft64_", "curand64_", "cusolver64_",
                 "cusparse64_" /* Windows: cublas64_12.dll */ },
      /* a Windows DLL line may carry only the name ('Error loading "...\lib\cudnn_cnn_infer64_8.dll" or'),
       * so any .dll line counts, except TensorFlow's success message */
      .also = { LOADER_SAYS, ".dll" }, .unless = "Successfully opened",
      .cause = "a CUDA library (cuBLAS, cuDNN, NCCL, ...) of this major version is not installed or not on the library path",
      .fix = "install that library for your CUDA major (system package or nvidia-*-cuXX pip wheel) or add its directory to LD_LIBRARY_PATH (Windows: PATH; cuDNN 8 there also needs zlibwapi.dll, the usual cause of error 126 for cudnn_*64_8.dll)",
      .check = "libraries.found", .extract = CP_EXTRACT_SONAME },
    /* a toolkit DLL Windows cannot find: the toolkit's bin folder, not the library, is what is missing */
    { .id = "runtime.toolkit_bin_off_path_maybe", .layer = RT, .alternative = 1,
      .match = { "nvrtc64_", "cublas64_", "cublasLt64_", "cufft64_", "curand64_", "cusolver64_", "cusparse64_",
                 "nvJitLink_" },
      .also = { ".dll" }, .unless = "Successfully opened",
      .cause = "or the toolkit is installed but its bin folder, where Windows keeps these DLLs, is not on PATH: "
               "the installer sets CUDA_PATH, and a shell or service started before it (or a conda environment "
               "that resets PATH) does not see the folder",
      .fix = "add %CUDA_PATH%\\bin to PATH (System Properties, Environment Variables) and open a new shell; "
             "`where nvrtc64_*.dll` shows what Windows finds",
      .check = "runtime.toolkits" },
    /* the same missing soname, read the other way: not a library to install, a package to swap */
    { .id = "framework.built_for_other_cuda_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { "libcudart.so.", "cudart64_", "libcublas.so.", "libcublasLt.so.", "cublas64_", "cublasLt64_",
                 "libnvrtc.so.", "nvrtc64_", "libcufft.so.", "cufft64_", "libcurand.so.", "curand64_",
                 "libcusolver.so.", "cusolver64_", "libcusparse.so.", "cusparse64_", "libcudnn.so.", "libcudnn_",
                 "cudnn64_", "libnvJitLink.so.", "libcufile.so.", "libnccl.so.", "libcusparseLt.so.", "libnvjpeg.so.",
                 "Failed to find dynamic library:", "that Paddle depends on is not configured" /* Paddle's loader */ },
      .also = { LOADER_SAYS, "failed to open", "Unable to load" }, .unless = "Successfully opened",
      .cause = "or the package asking for it was built for another CUDA (or cuDNN) than the one here: a wheel or "
               "extension (mmcv, CuPy's cupy-cudaNNx, llama-cpp-python, CTranslate2, onnxruntime-gpu, "
               "paddlepaddle-gpu's .postNN builds) linked against that major, where this machine has another",
      .fix = "compare the version it asks for with what is installed (nvidia-smi's CUDA Version, pip list | grep "
             "nvidia-, ls the toolkit's lib64): install the package's build for the CUDA you have (its cuXXX "
             "wheel or index, a release pinned to your cuDNN) rather than a second toolkit",
      .check = "framework.libs" },
    { .id = NULL }
};
