/*
 * Explain rows for the machinery around the GPU stack: building and loading
 * the nvidia kernel module (DKMS, akmods, the .run installer, driver
 * containers), the NVIDIA container stack (runtime registration, CDI,
 * nvidia-container-cli's mount, cgroup and device errors), Kubernetes
 * scheduling and the device plugin, and Slurm's GRES and pyxis/enroot.
 * Phrases are the words these tools always print (nvidia-installer's
 * kernel.c, DKMS, akmods, libnvidia-container, k8s-device-plugin, Slurm's
 * gres and gpu/nvml plugins, pyxis), never paths or versions.
 * Rows that older tables already held (Secure Boot, nouveau, module in
 * use, NVML Unknown Error, nvidia-container-cli initialization and
 * requirement errors) stay in signals_stack.c.
 *
 * To add a row: see signals_cuda.c.
 */
#include "signals.h"

#define HW CP_LAYER_HARDWARE
#define KE CP_LAYER_KERNEL
#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER

#define F_MODULE_LOG "the build log (DKMS make.log, the akmods .failed.log, /var/log/nvidia-installer.log) names the first error"

const cp_signal cp_signals_ops[] = {
    /* --- the nvidia kernel module: building it --- */
    { .id = "kernel.module_build_failed", .layer = KE,
      .match = { "Bad return status for module", "Building DKMS module", "Building rpms failed",
                 "Building and installing nvidia-kmod", "Unable to build the NVIDIA kernel module",
                 "the step: \"Building kernel modules\"", "Failed to install the kernel module through DKMS",
                 "Build of nvidia" /* old DKMS: "Error! Build of nvidia-uvm.ko failed for: ..." */,
                 "Autoinstall on", "failed to install during autoinstall" /* DKMS 3 */ },
      .also = { "failed", "error" },          /* "Building DKMS module ... done." and "[  OK  ]" are fine */
      .cause = "the kernel module (nvidia's, where the log names it) did not build for this kernel: its headers are missing or do not match, "
               "a build tool is missing or differs from the one that built the kernel, or the kernel is newer "
               "than this driver release supports; " F_MODULE_LOG,
      .fix = "read the first 'error:' in that log; install the running kernel's headers (linux-headers-$(uname -r), "
             "kernel-devel) and the build tools, or a driver release that supports this kernel (or boot an older "
             "kernel), then rebuild (`sudo dkms autoinstall`, `sudo akmods --force`) and reboot",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.module_build_compiler", .layer = KE,
      .match = { "Compiler version check failed", "Failed CC version check",
                 "The kernel was built by:" /* the kernel's own Makefile, when the compilers differ */,
                 "the compiler differs from the one used to build the kernel", "as: unrecognized option",
                 "option '-ftrivial-auto-var-init", "option '-mharden-sls", "option '-fzero-call-used-regs" },
      .cause = "the nvidia module is built with another compiler (or assembler) than the one that built the "
               "running kernel: the kernel's build flags are unknown to it, or the driver's compiler check bails "
               "out (a differing patch level alone is often harmless)",
      .fix = "install the compiler the kernel was built with (`cat /proc/version` names it, e.g. gcc-12) and "
             "rebuild with it (`sudo dkms autoinstall`, or CC=gcc-12 for the .run installer), or boot a kernel "
             "built with the installed compiler; IGNORE_CC_MISMATCH=1 only silences old drivers' check",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.module_build_tool", .layer = KE,
      .match = { "Unable to find the system utility" /* nvidia-installer */,
                 "g++: command not found" /* the open modules' C++ parts (nvidia-modeset) */ },
      .cause = "a tool the nvidia module build needs is not installed: the C compiler, make or ld for "
               "nvidia-installer, g++ for the open kernel modules' C++ parts (nvidia-open-dkms does not pull "
               "it in)",
      .fix = "install the named tool (gcc, gcc-c++ / g++, make, binutils, pkg-config; build-essential on "
             "Debian/Ubuntu) and rebuild (`sudo dkms autoinstall`, or run the installer again)",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.module_symvers", .layer = KE,
      .match = { "The Module.symvers file is missing", "module_symvers_sanity_check", "IGNORE_MISSING_MODULE_SYMVERS" },
      .cause = "the kernel build tree the nvidia module is built against has no usable Module.symvers: its "
               "headers package is incomplete or does not belong to the running kernel (a new kernel whose "
               "headers were not installed, a hand-built kernel's tree without `make modules`)",
      .fix = "install the full headers of the running kernel (linux-headers-$(uname -r), kernel-devel, the "
             "-headers package of the kernel flavour in use; for a custom kernel run `make modules` in its tree) "
             "and rebuild (`sudo dkms autoinstall`); IGNORE_MISSING_MODULE_SYMVERS=1 only hides the mismatch",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.dkms_stale_tree", .layer = KE,
      .match = { "Could not locate dkms.conf file", "does not appear to have module source" },
      .cause = "DKMS's tree (/var/lib/dkms/nvidia/VERSION) still lists a driver version whose sources are gone "
               "(removed by hand, or a package upgrade that left the old entry behind), so dkms status, "
               "autoinstall and new builds stop at it",
      .fix = "remove the stale entry (`sudo dkms remove nvidia/OLDVERSION --all`, or delete "
             "/var/lib/dkms/nvidia/OLDVERSION), then `dkms status` and rebuild the installed version "
             "(`sudo dkms autoinstall`)",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.dkms_version_sanity", .layer = KE,
      .match = { "DKMS will not replace this module", "is not newer than what is already found in kernel" },
      .cause = "DKMS refuses to install the module because one of the same or a newer version already lies in "
               "the kernel's module tree (put there by the .run installer, another package, or an earlier DKMS "
               "run); the build itself worked",
      .fix = "if the module loads (`modinfo nvidia`, `nvidia-smi`), nothing is broken; else remove the other copy "
             "(the other package, or `nvidia-installer --uninstall`) or install over it with `sudo dkms install "
             "--force nvidia/VERSION`",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.module_build_kernel_api", .layer = KE,
      .match = { "implicit declaration of function", "too few arguments to function", "too many arguments to function",
                 "has no member named" },
      .also = { "nvidia" },                   /* the driver's source path: /var/lib/dkms/nvidia/..., nvidia-drm/ */
      .cause = "the nvidia module's source does not compile against this kernel's API: the kernel (a new release "
               "or a custom one) is newer than this driver release supports",
      .fix = "install a driver release that supports this kernel (a newer branch, or the distribution's patched "
             "package), or boot a kernel the driver supports; for a custom kernel build against its own headers",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.headers_missing", .layer = KE,
      .match = { "Unable to find the kernel source tree", "Your kernel headers for kernel", "kernel headers for module",
                 "/autoconf.h: No such file", "Could not resolve Linux kernel version" /* GPU operator driver container */ },
      .cause = "the headers (kernel source tree) of the running kernel are not installed, so the nvidia module "
               "cannot be built for it; a GPU operator driver container says so when its package repositories "
               "no longer carry that kernel's headers",
      .fix = "install the headers of the running kernel (linux-headers-$(uname -r), kernel-devel-$(uname -r), "
             "the -headers package of a custom kernel) and rebuild the module; on Kubernetes, update the node to a "
             "kernel its repositories still carry or use precompiled driver images",
      .check = "kernel.nvidia_module" },
    { .id = "system.ubuntu_drivers_quirks", .layer = SY, .match = { "No module named 'Quirks'" },
      .cause = "the nvidia-dkms package's post-install step runs ubuntu-drivers-common's quirks-handler, whose "
               "Python module the default python3 cannot import (python3 pointed at another Python, or a broken "
               "ubuntu-drivers-common); the module build is not at fault",
      .fix = "point python3 back at the distribution's Python (update-alternatives) or reinstall "
             "ubuntu-drivers-common, then `sudo dpkg --configure -a`",
      .check = NULL },

    /* --- the nvidia kernel module: loading it --- */
    { .id = "kernel.module_load_failed", .layer = KE,
      .match = { "Unable to load the kernel module", "Unable to load the 'nvidia" /* installer: 'nvidia-drm' kernel module */,
                 "Kernel module load error", "could not insert 'nvidia",
                 "could not insert module", "failed to load GPU drivers" /* COS installer */, "nvidia: Unknown symbol" },
      .also = { "nvidia", "kernel module" },
      .unless = " key ",                      /* "Key was rejected", "Required key not": kernel.secure_boot */
      .cause = "the nvidia kernel module was built but the kernel refused to load it: Secure Boot refused an "
               "unsigned module, nouveau (or another driver) holds the GPU, the module was built against other "
               "kernel sources (unknown symbols), or no GPU here is supported by this driver release",
      .fix = "read the 'Kernel module load error' and kernel messages (`sudo dmesg | grep -iE 'nvidia|nvrm'`): "
             "sign the module or disable Secure Boot, blacklist nouveau, rebuild for the running kernel, or install "
             "a driver branch that supports the GPU",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.open_module_no_gsp", .layer = KE,
      .match = { "installed in this system is not supported by open", "does not include the required GPU" },
      .cause = "the open nvidia kernel modules (the default of newer driver packages) drive only GPUs with a GSP "
               "(Turing and newer); this GPU (Maxwell, Pascal, Volta or older) has none, so the module leaves it alone",
      .fix = "install the proprietary kernel module of the same driver (the .run installer's -m=kernel, "
             "nvidia-driver-NNN instead of -open, akmod-nvidia / dkms nvidia instead of nvidia-open; negativo17: "
             "kernel in /etc/nvidia/kernel.conf), or a legacy branch for GPUs the current one no longer supports",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.open_module_required", .layer = KE,
      .match = { "requires use of the NVIDIA open kernel modules", "requires use of NVIDIA open kernel modules" },
      .cause = "this GPU (Blackwell: GeForce RTX 50, RTX PRO Blackwell, B200, GB200 and newer) works only with the "
               "open nvidia kernel modules; the proprietary module loaded but leaves it uninitialised, so "
               "nvidia-smi finds no devices",
      .fix = "install the open flavour of the same driver (nvidia-driver-NNN-open, nvidia-open / akmod-nvidia-open, "
             "the .run installer's -m=kernel-open), purging the proprietary module package first, and reboot; "
             "`modinfo -F license nvidia` says Dual MIT/GPL for the open one",
      .check = "kernel.gpu_bound" },
    { .id = "context.blackwell", .layer = KE, .marks = CP_CONTEXT_BLACKWELL,
      .match = { "RTX 5090", "RTX 5080", "RTX 5070", "RTX 5060", "RTX 5050", "Blackwell", "GB202", "GB203",
                 "GB205", "GB206", "GB207", "NVIDIA B200", "NVIDIA B300", "NVIDIA GB200", "NVIDIA GB300", "NVIDIA GB10",
                 "sm_120", "sm_100", "10de:2b8", "10de:2c0", "10de:2c1", "10de:2c5", "10de:2d0", "10de:2d8" },
      .cause = "marks the text as one about a Blackwell GPU", .fix = "-" },
    { .id = "kernel.blackwell_module_flavour", .layer = KE, .context = CP_CONTEXT_BLACKWELL,
      .match = { "No devices were found", "No devices found", "Unable to determine the device handle for" },
      .cause = "a Blackwell GPU (GeForce RTX 50, RTX PRO Blackwell, B200) that the driver lists but does not "
               "drive: the proprietary kernel module cannot initialise it (only the open modules can), or the "
               "driver branch is older than the GPU (570 or newer is needed)",
      .fix = "`sudo dmesg | grep -i nvrm`: for \"requires use of the NVIDIA open kernel modules\" install the -open "
             "flavour of the driver (purge the proprietary module package first) and reboot; for an unsupported "
             "PCI ID install driver 570 or newer",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.smi_handle_not_found", .layer = KE,
      .match = { "Unable to determine the device handle for GPU", "Unable to determine the device handle for" },
      .also = { "Not Found" },
      .cause = "the kernel module sees this GPU on the bus but did not initialise it (RmInitAdapter failed): the "
               "module does not support it (the open modules on a GPU older than Turing, the proprietary module "
               "on Blackwell, a driver branch older or newer than the GPU's support) or its firmware failed to boot",
      .fix = "read `sudo dmesg | grep -i nvrm` for the GPU's init error; install the module flavour and driver "
             "branch that support the GPU (proprietary for Maxwell/Pascal/Volta, open for Blackwell)",
      .check = "kernel.gpu_bound" },
    { .id = "hardware.pci_bar_invalid", .layer = HW,
      .match = { "PCI I/O region assigned to your NVIDIA device is invalid", "The system BIOS may have misconfigured your GPU",
                 "BAR0 is 0M @" },
      .cause = "the system firmware gave the GPU's PCI BARs no address space (Thunderbolt eGPUs, large-BAR GPUs "
               "without Above 4G Decoding, or a BIOS bug), so the nvidia module cannot probe it",
      .fix = "enable Above 4G Decoding (and Resizable BAR; disable CSM) and update the BIOS; for an eGPU boot with "
             "pci=realloc (or larger hpmmiosize) so the kernel reassigns the bridge windows",
      .check = "hardware.pci_gpu" },

    /* --- the NVIDIA container stack --- */
    { .id = "system.container_runtime_unknown", .layer = SY,
      .match = { "invalid runtime name: nvidia", "Unknown runtime specified nvidia", "no runtime for \"nvidia\" is configured" },
      .cause = "the container engine has no runtime named nvidia: the NVIDIA Container Toolkit is not installed, "
               "or its runtime was never registered with docker/containerd (or the engine was not restarted after)",
      .fix = "install nvidia-container-toolkit, run `sudo nvidia-ctk runtime configure --runtime=docker` "
             "(containerd: --runtime=containerd) and restart the engine; or drop `runtime: nvidia` and ask for the "
             "GPUs with --gpus / device reservations (Docker Desktop: the WSL 2 backend)",
      .check = "system.container" },
    { .id = "system.docker_no_gpus_flag", .layer = SY, .match = { "unknown flag: --gpus" },
      .cause = "this docker client is older than 19.03 and has no --gpus option (or the command is not Docker's)",
      .fix = "upgrade Docker to 19.03 or newer and install nvidia-container-toolkit; with old nvidia-docker2 use "
             "--runtime=nvidia; with podman use --device nvidia.com/gpu=all (CDI)",
      .check = "system.container" },
    { .id = "system.container_cdi_unresolvable", .layer = SY,
      .match = { "unresolvable CDI devices", "failed to inject CDI devices",
                 "failed to stat CDI host device" /* a stale spec: its device nodes are gone */ },
      .cause = "the engine found no CDI spec naming the device asked for (nvidia.com/gpu=all, =N or a UUID): no "
               "spec was generated, it is stale after a driver upgrade, or it lies where the engine does not look",
      .fix = "generate it: `sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml` (again after every driver "
             "upgrade, or enable nvidia-cdi-refresh), check `nvidia-ctk cdi list` lists the name you ask for, and "
             "keep the spec in /etc/cdi or /var/run/cdi",
      .check = "system.container" },
    { .id = "system.container_cli_mount", .layer = SY, .match = { "container-cli: mount error" },
      .unless = "device rules",               /* system.container_cli_cgroup */
      .cause = "the NVIDIA container hook could not mount a driver file into the container: a target it cannot "
               "create (the nvidia-persistenced socket when /run is bound from the host or lies on a filesystem "
               "without sockets), or a mount an unprivileged user namespace may not make (rootless engines, enroot)",
      .fix = "read the path in the message: do not bind the host's /run into the container, keep the container "
             "root (enroot's data path) on a local filesystem, and for rootless or enroot setups allow the mount or "
             "set no-cgroups in /etc/nvidia-container-runtime/config.toml",
      .check = "system.container" },
    { .id = "system.container_cli_cgroup", .layer = SY,
      .match = { "failed to add device rules", "bpf_prog_query(BPF_CGROUP_DEVICE) failed",
                 "cgroup subsystem devices not found" },
      .cause = "the NVIDIA container hook could not set up the container's device cgroup (cgroup v1 devices.allow "
               "or the v2 BPF device filter): it runs without that privilege (rootless docker/podman, enroot/pyxis "
               "inside a Slurm job's cgroup, an unprivileged LXC), or its libnvidia-container predates cgroup v2",
      .fix = "set no-cgroups = true in /etc/nvidia-container-runtime/config.toml for rootless, enroot and LXC "
             "setups (the job's cgroup or CDI grants the device nodes), or run the engine as root; on a cgroup v2 "
             "host, or if it began with a libnvidia-container upgrade, move to a current toolkit release",
      .check = "system.devnode_access" },
    { .id = "system.container_cli_ldcache", .layer = SY, .match = { "container-cli: ldcache error" },
      .cause = "the NVIDIA container hook could not run ldconfig to add the driver libraries to the container's "
               "library cache: the ldconfig path in its config.toml does not exist on this host "
               "(@/sbin/ldconfig.real is Debian's), or ldconfig failed on the image's root",
      .fix = "set ldconfig in /etc/nvidia-container-runtime/config.toml to this host's ldconfig (@/sbin/ldconfig.real "
             "on Debian/Ubuntu, @/sbin/ldconfig elsewhere); if it still fails, try another image to see whether "
             "the image's library setup is at fault",
      .check = "system.container" },
    { .id = "driver.container_cli_detection", .layer = DR,
      .match = { "container-cli: detection error" },
      .cause = "the NVIDIA container hook reached the host driver but could not list its GPUs or files through "
               "NVML: a GPU the driver cannot read (ERR! in nvidia-smi, a GPU fallen off the bus), user-space "
               "libraries of another version than the kernel module (an upgrade without reboot), a driver library "
               "it lists but cannot open ('open failed: .../libnvidia-tls.so.VERSION' after a partial install or "
               "upgrade), or a driver older than this libnvidia-container expects ('function not found')",
      .fix = "run `nvidia-smi` and `nvidia-container-cli -k -d /dev/tty info` on the host: reboot after a driver "
             "upgrade, reinstall the driver when a library of it is missing, reset or replace a GPU shown as ERR!, "
             "and keep the driver and nvidia-container-toolkit on releases made for each other",
      .check = "driver.nvml" },
    { .id = "system.container_hook_missing", .layer = SY,
      .match = { "nvidia-container-runtime-hook", "inject NVIDIA hook" },
      .also = { "not found", "no such file" },
      .cause = "the nvidia runtime is registered with the engine but its prestart hook binary is not installed: "
               "the old nvidia-container-runtime package without nvidia-container-toolkit (which now ships the hook), "
               "or a toolkit removed or half upgraded",
      .fix = "install (or reinstall) nvidia-container-toolkit from NVIDIA's current repository, remove the "
             "obsolete nvidia-container-runtime-hook / nvidia-docker packages, run `sudo nvidia-ctk runtime "
             "configure` and restart the engine",
      .check = "system.container" },
    { .id = "system.container_cli_device", .layer = SY,
      .match = { "container-cli: device error", "container-cli.real: device error" },
      .cause = "the container asked for a GPU the host does not have: NVIDIA_VISIBLE_DEVICES (or --gpus "
               "device=) names an index, UUID or MIG device that does not exist (fewer GPUs, renumbered after a "
               "reset, an old MIG-GPU-... name, or a scheduler's placeholder)",
      .fix = "compare the value with `nvidia-smi -L` on the host and ask for devices that exist (all, or their "
             "MIG-/GPU- UUIDs); under Slurm or Kubernetes leave NVIDIA_VISIBLE_DEVICES to the scheduler",
      .check = "system.visibility" },

    /* --- Kubernetes --- */
    { .id = "system.k8s_insufficient_gpu", .layer = SY, .match = { "Insufficient nvidia" },
      .cause = "no node advertises enough free nvidia.com/gpu (or MIG) resources for the pod: the device plugin "
               "is not running or found no GPU on the nodes, or the GPUs are taken",
      .fix = "check `kubectl describe node` for nvidia.com/gpu under Allocatable; if it is missing, read the "
             "device plugin pod's log (driver, container toolkit or runtime class on that node); else lower the "
             "request or wait for GPUs to free up",
      .check = NULL },
    { .id = "system.k8s_plugin_no_nvml", .layer = SY,
      .match = { "did you set the docker default runtime", "did you configure the NVIDIA Container Toolkit",
                 "NVML not detected", "Incompatible strategy detected", "Incompatible platform detected",
                 "Detected non-NVML platform", "No devices found. Waiting indefinitely",
                 "ERROR_LIBRARY_NOT_FOUND" /* go-nvml: "nvml init failed: ERROR_LIBRARY_NOT_FOUND" */ },
      .cause = "the NVIDIA device plugin (or GPU feature discovery) pod cannot load libnvidia-ml: it was not "
               "started through the NVIDIA container runtime (nvidia not the default runtime, no runtime class), "
               "or its driver root does not point at where the driver is installed",
      .fix = "make nvidia the node's default runtime (`sudo nvidia-ctk runtime configure --runtime=containerd "
             "--set-as-default`, restart containerd) or deploy the plugin with runtimeClassName: nvidia; with the "
             "driver outside / (GPU operator, /opt) set the plugin's driver root",
      .check = "system.container" },

    { .id = "system.k8s_allocate_failed", .layer = SY,
      .match = { "requested number of devices unavailable for nvidia" },
      .cause = "the kubelet admitted a GPU pod the scheduler placed on the node, but its device manager has no "
               "free nvidia.com/gpu to hand out: its record of allocated devices is stale (pods force-deleted, "
               "a kubelet bug), or the device plugin restarted or marked GPUs unhealthy meanwhile",
      .fix = "read the device plugin pod's log on that node (unhealthy GPUs, XIDs) and `kubectl describe node`; "
             "delete the failed pods and restart the kubelet to rebuild its device state; upgrade the kubelet if "
             "it repeats",
      .check = NULL },

    { .id = "system.gpu_operator_driver_validation", .layer = SY,
      .match = { "failed to run command 'nvidia-smi'" },   /* driver-validation: chroot /run/nvidia/driver nvidia-smi */
      .cause = "the GPU operator's driver validation finds no driver under its driver root (/run/nvidia/driver): "
               "the driver daemonset pod has not installed it (still building, crash-looping), or the driver is "
               "installed on the host while the operator was deployed to manage it (driver.enabled=true)",
      .fix = "read the nvidia-driver-daemonset pod's log and fix its error; with a driver installed on the host, "
             "deploy the operator with driver.enabled=false (and toolkit.enabled=false for a host toolkit)",
      .check = NULL },

    /* --- Slurm --- */
    { .id = "system.slurm_gres_request", .layer = SY,
      .match = { "Invalid generic resource (gres) specification", "Requested GRES option unsupported",
                 "Invalid Trackable RESource (TRES) specification" },
      .cause = "the job asks for GPUs in a way this cluster does not define: a GRES name, type or count no node "
               "has, a --gpus option the select plugin does not support, or GRES variables inherited from an "
               "allocation the job was submitted from",
      .fix = "see what the nodes offer (`sinfo -o '%N %G'`, `scontrol show node`) and ask in that form "
             "(--gres=gpu[:TYPE]:N); submit from a login node rather than inside another job",
      .check = NULL },
    { .id = "system.slurm_gres_count", .layer = SY,
      .match = { "count reported lower than configured", "Count changed on node",
                 "gres/gpu count repor" },   /* sinfo -R's REASON column cuts the reason at 20 characters */
      .also = { "gres" },
      .cause = "slurmd found fewer GPUs on the node than slurm.conf declares (Gres=gpu:N), so the controller set "
               "it INVAL/DRAIN: the driver sees fewer GPUs, gres.conf lists others, AutoDetect found none, or the "
               "MIG layout changed",
      .fix = "compare `nvidia-smi -L` and `slurmd -G` on the node with its Gres= in slurm.conf, make gres.conf and "
             "slurm.conf match the GPUs (or MIG instances) there, restart slurmd and resume the node "
             "(`scontrol update nodename=NODE state=resume`)",
      .check = "driver.devices" },
    { .id = "system.slurm_gres_file", .layer = SY,
      .match = { "can't stat gres.conf file", "Waiting for gres.conf file" },
      .cause = "gres.conf names a device file (File=/dev/nvidiaN) that does not exist on this node: no GPU or no "
               "driver there, or the device nodes are not created yet when slurmd starts",
      .fix = "list only the node's GPUs in gres.conf (or use AutoDetect=nvml), load the driver and create the "
             "device nodes before slurmd starts (nvidia-persistenced, or nvidia-modprobe -c N)",
      .check = "kernel.devnodes" },
    { .id = "system.slurm_gres_conf", .layer = SY,
      .match = { "gres.conf duplicate records for", "invalid GRES core specification" },
      .cause = "gres.conf is wrong for this Slurm: a GPU listed twice (Name=gpu lines beside AutoDetect=nvml) or "
               "CPU/core ranges in a form it rejects",
      .fix = "list each GPU once (AutoDetect=nvml alone is enough), give Cores= as core ids of the node (`slurmd "
             "-C`, `nvidia-smi topo -m`) or drop them, and restart slurmd",
      .check = NULL },
    { .id = "system.slurm_gres_type", .layer = SY,
      .match = { "autodetected GPUs are being ignored",
                 "Could not find an unused configuration record with a GRES type" },
      .cause = "slurmd's NVML autodetection found GPUs (or MIG slices, named like nvidia_a100_1g.5gb) that no "
               "gres.conf/slurm.conf record matches by type and count, so slurmd ignores them and jobs cannot get them",
      .fix = "compare `slurmd -G` on the node with Gres= in slurm.conf and gres.conf: give the types autodetection "
             "reports (or substrings of them, e.g. Gres=gpu:1g.5gb:7 for MIG) with the counts present, or drop "
             "the types; restart slurmd and slurmctld",
      .check = "driver.devices" },
    { .id = "system.slurm_mig_no_devices", .layer = SY,
      .match = { "MIG mode is enabled, but no MIG devices were found" },
      .cause = "slurmd's AutoDetect=nvml found a GPU in MIG mode without any MIG instance, so it has nothing to "
               "offer from it and stops",
      .fix = "create the MIG instances (`nvidia-smi mig -cgi ... -C`, or nvidia-mig-parted) before slurmd starts, "
             "or disable MIG mode (`nvidia-smi -i N -mig 0`, then reset the GPU)",
      .check = "driver.devices" },
    { .id = "system.slurm_no_nvml", .layer = SY,
      .match = { "configured to autodetect nvml functionality", "configured with nvml functionality, but that lib" },
      .cause = "gres.conf asks for AutoDetect=nvml but slurmd cannot use NVML: this Slurm was built without NVML "
               "(no gpu_nvml plugin), or libnvidia-ml.so is not on the node's loader path",
      .fix = "install a Slurm built --with-nvml (its gpu_nvml.so plugin) or list the GPUs in gres.conf by hand; make "
             "sure the driver's libnvidia-ml.so.1 loads on the node",
      .check = "driver.nvml" },
    { .id = "system.pyxis_container", .layer = SY,
      .match = { "pyxis: container start failed", "pyxis: couldn't start container", "pyxis: failed to import docker image",
                 "enroot-mount: failed to mount" },
      .cause = "pyxis could not import or start the job's enroot container; the enroot lines it prints below "
               "say why (a runtime or data path the user cannot create, a bind mount the user may not read, an "
               "image name taken as a registry image, or the nvidia hook's error)",
      .fix = "read the enroot lines; run `enroot import` / `enroot start` by hand as that user on the node; make "
             "ENROOT_RUNTIME_PATH, ENROOT_DATA_PATH and ENROOT_CACHE_PATH per-user writable paths (enroot.conf), "
             "give a local .sqsh file with a / or ./ prefix, and mount only paths the user can read",
      .check = NULL },

    /* --- a tool's own error form, whatever its sentence: the layer is the tool's --- */
    { .id = "kernel.nvrm_failure", .fallback = 1, .layer = KE, .match = { "NVRM" },
      .also = { "failed", "error", "fail ", "timeout", "timed out", "cannot", "unable", "assert" },
      .unless = "Xid",                          /* kernel.xid explains those lines */
      .cause = "the nvidia kernel module (NVRM) reports a failure of its own: setting a GPU up (RmInitAdapter), "
               "booting the GSP firmware or its boot loaders (Booter, FWSEC, the VBIOS tables they read), or an RPC "
               "to the firmware that timed out; the GPU stays unusable until the module initialises it",
      .fix = "read the first NVRM line that failed (`sudo dmesg | grep NVRM`); try the driver branch NVIDIA "
             "supports for this GPU and kernel (the open modules need Turing or later), the other module flavour "
             "(open / proprietary), or NVreg_EnableGpuFirmware=0 where GSP is optional; update the VBIOS where "
             "the firmware's own tables are refused; report it with nvidia-bug-report.sh",
      .check = "kernel.nvidia_module" },
    { .id = "system.gpu_removed_in_use", .layer = SY, .match = { "with non-zero usage count" },
      .also = { "NVRM" },
      .cause = "something took the GPU away from the nvidia driver while programs still held it open: a graphics "
               "switcher (system76-power, prime-select, envycontrol) powering the dGPU off, an unbind for VFIO "
               "passthrough, or a hot-unplug; the driver keeps the device half-removed and later calls hang or fail",
      .fix = "stop what holds the GPU first (`sudo fuser -v /dev/nvidia*`: the display server, nvidia-persistenced, "
             "CUDA programs), then switch graphics modes or unbind; reboot to get the GPU back",
      .check = "system.gpu_processes" },
    { .id = "kernel.oops", .fallback = 1, .layer = KE,
      .match = { "[ cut here ]", "BUG: unable to handle", "kernel BUG at", "general protection fault:" },
      .cause = "the kernel printed a warning or an oops; in an nvidia log (its frames in nvidia.ko, or right after "
               "the module's lines) the module hit a bug or a state it did not expect, often with a kernel newer "
               "than the driver release supports",
      .fix = "read the trace below the line (the RIP and the frames name the module and function); use a driver "
             "release that supports this kernel, or the kernel the driver supports; report it with "
             "nvidia-bug-report.sh",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.module_compile_error", .layer = KE,
      .match = { "/kernel/nv", "kernel-open/", "nvidia-uvm/", "nvidia-drm/", "nvidia-modeset/", "common/inc/nv" },
      .also = { "error:", "\xe9\x94\x99\xe8\xaf\xaf" /* a Chinese locale's gcc: 错误 */ },
      .cause = "the nvidia kernel module's own sources do not compile against this kernel: the kernel changed an "
               "interface the driver release uses (a newer kernel than the release supports; legacy branches "
               "such as 340 and 390 stopped following new kernels)",
      .fix = "use a driver release that supports this kernel (the release notes list them; a patched legacy "
             "package from the distribution for old GPUs), or boot a kernel the release supports",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.build_tree_missing", .fallback = 1, .layer = KE, .match = { "/lib/modules/" },
      .also = { "No such file", "not found", "does not exist", "missing", "Cannot find" },
      .cause = "the running kernel's build tree (/lib/modules/$(uname -r)/build: its headers and Makefiles) is "
               "not installed, so no out-of-tree module, nvidia's included, can be built for it",
      .fix = "install the headers of the running kernel (linux-headers-$(uname -r), kernel-devel-$(uname -r), "
             "linux-lts-headers...), or boot the kernel whose headers are installed, then rebuild the module "
             "(`sudo dkms autoinstall` or run the installer again)",
      .check = "kernel.nvidia_module" },
    { .id = "system.slurm_error", .fallback = 1, .layer = SY,
      .match = { "sbatch: error:", "srun: error:", "salloc: error:", "slurmd: error:", "slurmstepd: error:",
                 "slurmctld: error:", "sbatch: fatal:", "srun: fatal:", "slurmd: fatal:" },
      .cause = "Slurm refused or ended the job or step before the program used the GPU: a request the partition "
               "or the nodes' GRES cannot meet (no --gres/--gpus in a GPU partition, a GPU type or count no node "
               "has), a submit filter's rule, or a limit the step crossed (memory: oom_kill, time)",
      .fix = "read Slurm's sentence: request GPUs as the cluster names them (`sinfo -o '%P %G'`, `scontrol show "
             "node`), in the partition that has them (-p), within its limits (`scontrol show partition`); for a "
             "node's own error check slurmd's log and gres.conf against `slurmd -G`",
      .check = NULL },
    { .id = "system.k8s_gpu_request_too_large", .layer = SY,
      .match = { "cannot exceed the total number of devices on the node", "all node scores do not meet" },
      .cause = "the GPU scheduler (HAMi's, Volcano's device share) found no node for the pod: it asks for more GPUs "
               "or GPU shares than any node has, so every node scores as unfit",
      .fix = "ask for at most the GPUs one node has (`kubectl describe node`: Allocatable), or split the job over "
             "several pods; check the scheduler's log line for the node's device count",
      .check = NULL },
    { .id = "system.k8s_unschedulable", .fallback = 1, .layer = SY, .match = { "nodes are available:" },
      .also = { "Insufficient", "didn't match", "untolerated taint", "had taint", "didn't have free" },
      .cause = "Kubernetes found no node for the pod: none advertises enough free units of the resource it asks "
               "for (nvidia.com/gpu, a MIG or shared-GPU resource, another device plugin's), or the pod's node "
               "selectors and the GPU nodes' taints keep it off them",
      .fix = "`kubectl describe node` on the GPU nodes: Allocatable must list the resource (else the device "
             "plugin is not running or sees no GPU: its pod's log); free GPUs held by other pods, ask for what "
             "exists, and add the GPU nodes' tolerations and selectors to the pod",
      .check = NULL },
    { .id = "system.device_plugin_nvml", .fallback = 1, .layer = SY,
      .match = { "Failed to start nvml", "Failed to initialize NVML: could not load NVML library" },
      .also = { "nvml" },
      .cause = "the NVIDIA device plugin (or GPU feature discovery) could not load NVML inside its pod: the pod "
               "was not started by the NVIDIA container runtime, which mounts the driver's libraries (nvidia "
               "not the node's default runtime, no runtime class), or the node has no driver",
      .fix = "make nvidia the node's default runtime (`sudo nvidia-ctk runtime configure --runtime=containerd "
             "--set-as-default`, or docker's) or deploy the plugin with runtimeClassName: nvidia; check "
             "`nvidia-smi` on the node itself",
      .check = "driver.nvml" },
    { .id = "system.container_cli_error", .fallback = 1, .layer = SY, .match = { "nvidia-container-cli:" },
      .also = { "error", "failed", "unknown" },
      .cause = "nvidia-container-cli, the NVIDIA container runtime's hook, failed as the container started: it "
               "could not reach the driver or NVML from the host, or mount the driver's files and devices into "
               "the container (its sentence after the colon says which)",
      .fix = "run `nvidia-smi` and `nvidia-container-cli -k -d /dev/tty info` on the host; reinstall the NVIDIA "
             "Container Toolkit from NVIDIA's repository and configure the engine (`sudo nvidia-ctk runtime "
             "configure`), reboot after a driver update",
      .check = NULL },

    { .id = "kernel.firmware_missing", .layer = KE, .match = { "Direct firmware load for nvidia/" },
      .also = { "failed" },
      .cause = "the nvidia module could not load its GSP firmware file (/lib/firmware/nvidia/VERSION/gsp_*.bin): "
               "the driver's firmware package is not installed or is of another version than the module",
      .fix = "install the firmware of the same driver version as the module (the distribution's "
             "nvidia-firmware / linux-firmware-nvidia-VERSION package, or the .run driver whole), or with the "
             "proprietary module set NVreg_EnableGpuFirmware=0 where the GPU allows it; then reload the module",
      .check = "kernel.nvidia_module" },
    { .id = "system.container_cli_permission", .layer = SY, .replaces_line = 1, .fallback = 1, .match = { "container-cli:" },
      .also = { "permission denied", "operation not permitted" },
      .cause = "the NVIDIA container hook was refused access to a driver file, socket or device on the host "
               "(rootless or unprivileged containers, enroot as a user, SELinux or AppArmor, a socket such as "
               "nvidia-fabricmanager's or nvidia-persistenced's that only root may open)",
      .fix = "for rootless use set no-cgroups = true in /etc/nvidia-container-runtime/config.toml; give the user "
             "read access to the path it names (or run that daemon with a socket the user may open); check "
             "SELinux/AppArmor denials (`ausearch -m avc`, dmesg)",
      .check = NULL },
    { .id = "kernel.driver_packages", .layer = KE,
      .match = { "Depends: nvidia-", "nvidia-kernel-common", "nvidia-dkms-", "nvidia-driver-" },
      .also = { "Depends:", "Unmet dependencies", "not going to be installed", "held broken packages", "conflicts with" },
      .cause = "the package manager cannot install the driver: its packages ask for each other at versions the "
               "configured repositories do not have together (NVIDIA's repository and the distribution's mixed, a "
               "half-done upgrade, a pinned or held package)",
      .fix = "install all driver packages from one source and one version (`apt-cache policy nvidia-driver-NNN "
             "nvidia-kernel-common-NNN`), remove the other source's or pin it, `sudo apt --fix-broken install`, "
             "then the driver again",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.driver_hang", .layer = KE, .match = { "blocked for more than" },
      .also = { "nvidia", "nv_", "task" },
      .cause = "a task hung in the kernel (state D) for minutes; where its stack runs through the nvidia module "
               "(os_acquire_rwlock, nv_ or rm_ frames, nvidia-persistenced, nvidia-smi) the driver is stuck, most "
               "often waiting on a GPU that stopped answering (an XID before it), or on its own lock",
      .fix = "read the kernel log from the first XID or NVRM line before the hang; the GPU needs a reset and "
             "usually the node a reboot; report it with nvidia-bug-report.sh, and try the current driver of the branch",
      .check = "kernel.nvidia_module" },
    { .id = "system.gpu_in_use", .layer = SY, .match = { "In use by another client" },
      .cause = "the GPU could not be reset or switched (MIG mode, a reset, a clocks or mode change) because "
               "processes still hold it: nvidia-persistenced, DCGM or dcgm-exporter, the device plugin, a "
               "monitoring agent, or a job",
      .fix = "stop what holds it (`sudo lsof /dev/nvidia*`, `nvidia-smi --query-compute-apps=pid --format=csv`; "
             "in Kubernetes drain the node or let the GPU operator's MIG manager stop its clients), then retry; "
             "a pending MIG mode takes effect after a reset or reboot",
      .check = NULL },
    { .id = "system.k8s_dra_mig", .layer = SY, .match = { "MIG device allocation failed", "error creating GPU instance" },
      .cause = "the NVIDIA DRA driver (or MIG manager) could not carve the MIG device a claim asked for: the GPU "
               "has no room of that profile left (\"Insufficient Resources\": other instances hold the slices), "
               "or MIG is not enabled on it",
      .fix = "list the GPU's instances and free slices (`nvidia-smi mig -lgi`, `nvidia-smi mig -lgip`); remove "
             "the stale instances or ask for a profile that fits; enable MIG mode (a reset) where it is off",
      .check = NULL },
    { .id = "system.cdi_generate", .layer = SY, .match = { "failed to generate CDI spec" },
      .cause = "nvidia-ctk could not write the CDI spec for this machine's GPUs: the mode it picked (nvml on a "
               "Jetson/Tegra board that needs csv or tegra mode, or NVML missing), or a device it could not read",
      .fix = "pick the mode for the platform (`nvidia-ctk cdi generate --mode=csv` on Jetson, or --mode=nvml "
             "where NVML works), update the NVIDIA Container Toolkit, and check `nvidia-ctk cdi list` afterwards",
      .check = NULL },
    { .id = "system.ray_no_gpu_node", .layer = SY, .match = { "No available node types can fulfill resource request" },
      .also = { "GPU" },
      .cause = "Ray cannot place the task: no node of the cluster offers the GPUs it asks for (the cluster was "
               "started with fewer GPUs visible than the job requests, num_gpus=0 at `ray start`, or "
               "CUDA_VISIBLE_DEVICES hid them)",
      .fix = "start the Ray nodes with the GPUs visible (`ray start --num-gpus N`, check `ray status`), or ask for "
             "no more GPUs than the cluster has (the trainer's n_gpus_per_node, num_gpus in the remote options)",
      .check = "driver.devices" },
    { .id = "system.shm_exhausted", .layer = SY,
      .match = { "insufficient shared memory (shm)", "signaled to shutdown with signal 7" },
      .cause = "a process died of SIGBUS (signal 7) writing to shared memory: /dev/shm is too small for the "
               "DataLoader workers' batches or for NCCL's shared-memory transport between ranks (docker's default "
               "is 64 MB)",
      .fix = "give the container more: `docker run --shm-size=16g` (or --ipc=host), shm_size in compose, an "
             "emptyDir with medium: Memory at /dev/shm in Kubernetes; or fewer DataLoader workers, "
             "NCCL_SHM_DISABLE=1 as a test",
      .check = NULL },

    { .id = "system.container_runtime_missing", .layer = SY,
      .match = { "\"nvidia-container-runtime\": executable file not found", "nvidia-container-runtime: executable file not found" },
      .cause = "the container engine is set to use the NVIDIA runtime (runtimes.nvidia in daemon.json, or the "
               "default runtime) but its binary is not installed on this host or not on the engine's PATH",
      .fix = "install the NVIDIA Container Toolkit (nvidia-container-toolkit package), or fix the runtime's path "
             "in /etc/docker/daemon.json (`sudo nvidia-ctk runtime configure --runtime=docker`), then restart docker",
      .check = NULL },
    { .id = "system.container_library_step", .layer = SY, .fallback = 1,
      .match = { "nvc_ldcache.c", "nvc_mount.c", "nvc_container.c", "nvc_info.c", "nvc.c:" },
      .also = { "could not", "failed", "error", "not permitted", "denied" },
      .cause = "libnvidia-container, under the NVIDIA container hook (docker's, enroot's, podman's), failed a step of "
               "setting the container up: running ldconfig in it, mounting the driver's files or /dev, or reading "
               "the driver (its log line names the step and the refusal)",
      .fix = "read the step and the error: a mount or ldconfig 'not permitted' means a rootless or restricted "
             "namespace (no-cgroups, user namespaces, enroot's config), a missing file means a partial driver "
             "install; `nvidia-container-cli -k -d /dev/tty info` on the host shows what it finds",
      .check = NULL },

    /* --- in a container: what the driver's absence means there --- */
    { .id = "context.container", .layer = SY, .marks = CP_CONTEXT_CONTAINER,
      .match = { "docker run", "docker: Error", "Error response from daemon", "docker-compose", "docker compose",
                 "nvidia-docker", "--runtime=nvidia", "--gpus", "podman run", "kubectl", "/.dockerenv",
                 "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "enroot", "apptainer", "singularity" },
      .cause = "marks the text as from a container", .fix = "-" },
    { .id = "context.container_runtime", .layer = SY, .marks = CP_CONTEXT_CONTAINER,
      .match = { "OCI runtime", "crun:", "runc create failed", "failed to create shim task", "containerd",
                 "podman", "nvidia-ctk", "nerdctl" },
      .cause = "marks the text as from a container (the engine's own words)", .fix = "-" },
    { .id = "context.kubernetes", .layer = SY, .marks = CP_CONTEXT_CONTAINER,
      .match = { "kubernetes", "k8s-device-plugin", "nvidia-device-plugin", "device-plugin", "kubelet",
                 "gpu-operator", "daemonset", "kube-system", "gpu-feature-discovery", "runtimeClassName",
                 "helm install" },
      .cause = "marks the text as from a Kubernetes pod (every pod runs in a container)", .fix = "-" },
    { .id = "system.container_no_driver", .layer = SY, .context = CP_CONTEXT_CONTAINER, .replaces_line = 1,
      .fallback = 1,
      .match = { "couldn't find libnvidia-ml.so", "couldn't find libnvidia-ml", "Found no NVIDIA driver on your system",
                 "libcuda.so.1: cannot open shared object file", "libnvidia-ml.so.1: cannot open shared object file",
                 "could not load NVML library", "NVIDIA driver on your system", "nvidia-smi: command not found",
                 "nvidia-smi: not found", "Cannot load libnvcuvid", "Cannot load libnvidia-encode",
                 "executable file `nvidia-smi` not found", "\"nvidia-smi\": executable file not found" },
      .cause = "in a container the driver's user-space libraries (libcuda, libnvidia-ml) and device nodes come "
               "from the host, mounted by the NVIDIA container runtime: this container was started without it, "
               "without the compute and utility capabilities, or its loader cache does not list them",
      .fix = "start it with the GPUs: `docker run --gpus all` (or --runtime=nvidia), in compose "
             "deploy.resources.reservations.devices with capabilities [gpu] and NVIDIA_DRIVER_CAPABILITIES="
             "compute,utility, in Kubernetes the nvidia runtime class, or CDI (--device nvidia.com/gpu=all); "
             "check with `docker run --rm --gpus all ubuntu nvidia-smi`; run ldconfig in the image if the "
             "libraries are there but not found",
      .check = NULL },
    { .id = "driver.package_conflict", .layer = DR,
      .match = { "trying to overwrite", "tentando sobrescrever", "intentando sobrescribir" },
      .also = { "nvidia" },
      .cause = "the package manager refused to install an NVIDIA driver package because another installed package "
               "owns the same file: driver packages of two branches or two sources (the distribution's and "
               "NVIDIA's or a PPA's, an old nvidia-340 beside a newer branch), or :i386 and :amd64 of different "
               "versions",
      .fix = "keep one driver branch from one source: list them (`dpkg -l | grep -i nvidia`), purge the other "
             "branch's packages, install the :i386 libraries of exactly the :amd64 version, then `sudo apt "
             "--fix-broken install`",
      .check = "driver.version_match" },
    { .id = NULL }
};
