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

/* the nvidia module's build failing, said by DKMS, akmods or the installer (kernel.module_build_failed and the
 * log line that names nvidia's where another module failed too) */
#define C_MODULE_BUILD_FAILED "the kernel module (nvidia's, where the log names it) did not build for this kernel: its " \
    "headers are missing or do not match, a build tool is missing or differs from the one that built the kernel, " \
    "or the kernel is newer than this driver release supports; " F_MODULE_LOG
#define F_MODULE_BUILD_FAILED "read the first 'error:' in that log; install the running kernel's headers " \
    "(linux-headers-$(uname -r), kernel-devel) and the build tools, or a driver release that supports this kernel " \
    "(or boot an older kernel), then rebuild (`sudo dkms autoinstall`, `sudo akmods --force`) and reboot"

/* The driver's user-space pieces reported missing: the host driver's install
 * where the text shows no container, the container's start where it does. */
#define DRIVER_LIBS_ABSENT "couldn't find libnvidia-ml.so", "couldn't find libnvidia-ml", \
    "Found no NVIDIA driver on your system", "libcuda.so.1: cannot open shared object file", \
    "libnvidia-ml.so.1: cannot open shared object file", "could not load NVML library", "NVIDIA driver on your system", \
    "nvidia-smi: command not found", "nvidia-smi: not found", "Cannot load libnvcuvid", "Cannot load libnvidia-encode", \
    "executable file `nvidia-smi` not found", "\"nvidia-smi\": executable file not found", \
    "Cannot load libcuda.so", "Could not dynamically load CUDA" /* ffmpeg */, "No GPU to monitor" /* nvtop */, \
    "Could not find CUDA Debugger back-end" /* cuda-gdb: the driver's libcudadebugger */

const cp_signal cp_signals_ops[] = {
    /* --- the nvidia kernel module: building it --- */
    { .id = "kernel.module_build_failed", .layer = KE,
      .match = { "Bad return status for module", "Building DKMS module", "Building rpms failed",
                 "Building and installing nvidia-kmod", "Unable to build the NVIDIA kernel module",
                 "the step: \"Building kernel modules\"", "Failed to install the kernel module through DKMS",
                 "Build of nvidia" /* old DKMS: "Error! Build of nvidia-uvm.ko failed for: ..." */,
                 "Autoinstall on", "failed to install during autoinstall" /* DKMS 3 */,
                 "dkms install --no-depmod" /* Arch's hook: "`dkms install --no-depmod nvidia/VER -k KVER' exited 10" */ },
      .also = { "failed", "error", "' exited" },   /* "Building DKMS module ... done." and "[  OK  ]" are fine */
      .context_absent = CP_CONTEXT_OTHER_DKMS_MODULE,
      .cause = C_MODULE_BUILD_FAILED, .fix = F_MODULE_BUILD_FAILED, .check = "kernel.nvidia_module" },
    /* the same where DKMS failed for another module too: its pointer at nvidia's log says nvidia's failed */
    { .id = "kernel.module_build_log", .layer = KE, .context = CP_CONTEXT_OTHER_DKMS_MODULE,
      .match = { "Consult /var/lib/dkms/nvidia" },
      .cause = C_MODULE_BUILD_FAILED, .fix = F_MODULE_BUILD_FAILED, .check = "kernel.nvidia_module" },
    /* DKMS names the module whose build failed only on the line after its error: "Consult
     * /var/lib/dkms/MODULE/VERSION/build/make.log"; its BUILD_EXCLUSIVE warning opens with "Warning: The
     * /var/lib/dkms/MODULE/VERSION/KERNEL/ARCH/dkms.conf" */
    { .id = "context.other_dkms_module", .layer = KE, .marks = CP_CONTEXT_OTHER_DKMS_MODULE,
      .match = { "Consult /var/lib/dkms/", "The /var/lib/dkms/" }, .unless = "/var/lib/dkms/nvidia",
      .cause = "marks the text as one where DKMS failed to build a module other than nvidia's", .fix = "-" },
    { .id = "kernel.open_modules_build_order", .layer = KE,
      .match = { "nv-modeset-kernel.o_binary", "nv-kernel.o_binary" },
      .cause = "the open kernel modules were built from kernel-open/ alone: their prebuilt objects "
               "(nv-kernel.o_binary, nv-modeset-kernel.o_binary) are made by the tree's top-level make, which "
               "was not run",
      .fix = "build from the top of open-gpu-kernel-modules (make modules -j$(nproc), then sudo make "
             "modules_install), with the tag of the installed driver's version",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.module_build_compiler", .layer = KE,
      .match = { "Compiler version check failed", "Failed CC version check",
                 "The kernel was built by:" /* the kernel's own Makefile, when the compilers differ */,
                 "the compiler differs from the one used to build the kernel", "as: unrecognized option",
                 "option '-ftrivial-auto-var-init", "option '-mharden-sls", "option '-fzero-call-used-regs",
                 "gcc-version-check failed", "does not exactly match the current compiler" /* the 340 and older installers */,
                 "CC sanity check failed", "from CONFIG_CC_VERSION_TEXT in the kernel configuration" },
      .cause = "the nvidia module is built with another compiler (or assembler) than the one that built the "
               "running kernel: the kernel's build flags are unknown to it, or the driver's compiler check bails "
               "out (a differing patch level alone is often harmless)",
      .fix = "install the compiler the kernel was built with (`cat /proc/version` names it, e.g. gcc-12) and "
             "rebuild with it (`sudo dkms autoinstall`, or CC=gcc-12 for the .run installer), or boot a kernel "
             "built with the installed compiler; IGNORE_CC_MISMATCH=1 only silences old drivers' check",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.module_build_tool", .layer = KE,
      .match = { "Unable to find the system utility" /* nvidia-installer */,
                 "g++: command not found" /* the open modules' C++ parts (nvidia-modeset) */,
                 "Failed to find dkms on the system" },
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
      .match = { "Could not locate dkms.conf file", "does not appear to have module source",
                 "is broken! Missing the source directory", "Could not find module source directory" },
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
      .match = { "Unable to find the kernel source tree", "Your kernel headers for kernel", "kernel headers for module nvidia" /* Arch's DKMS hook */,
                 "/autoconf.h: No such file", "Could not resolve Linux kernel version" /* GPU operator driver container */,
                 "kernel header file exists. The most likely reason", "The kernel source path '",
                 "The kernel header file '" /* nvidia-installer: a tree of another kernel, or none */,
                 "No package kernel-headers-", "No package kernel-devel-" /* yum */,
                 "Unable to find a match: kernel-headers-", "Unable to find a match: kernel-devel-" /* dnf */,
                 "Unable to locate package linux-headers-", "Couldn't find any package by glob 'linux-headers-",
                 "Couldn't find any package by regex 'linux-headers-" /* apt */ },
      .cause = "the headers (kernel source tree) of the running kernel are not installed, or the configured "
               "repositories no longer carry them (an older kernel whose packages were superseded), so the "
               "nvidia module cannot be built for it; a GPU operator driver container says so when its package "
               "repositories do not carry that kernel's headers",
      .fix = "install the headers of the running kernel (linux-headers-$(uname -r), kernel-devel-$(uname -r), "
             "the -headers package of a custom kernel) and rebuild the module; where the repositories have none for "
             "this kernel, update the kernel to one they carry and reboot into it first (the node, on Kubernetes), or "
             "use precompiled driver images",
      .check = "kernel.nvidia_module" },
    /* a header the module's build includes is missing from the headers package: any module's build fails
     * alike (Debian's linux-headers-6.3.0-1 lacked the asm/orc_header.h that linux-kbuild-6.3 asks for) */
    { .id = "kernel.headers_incomplete", .layer = KE,
      .match = { "fatal error: asm/", "fatal error: linux/", "fatal error: generated/", "fatal error: uapi/" },
      .also = { "No such file" }, .unless = "/autoconf.h",   /* generated/autoconf.h: kernel.headers_missing */
      .cause = "building a kernel module against the installed headers, the compiler cannot find one of the "
               "kernel's own headers: the headers package is incomplete or of another build than the kernel's "
               "build scripts (kbuild) expect, or the module's source asks for a header this kernel no longer "
               "has; every DKMS module, nvidia's among them, fails the same way",
      .fix = "reinstall the headers of the running kernel (linux-headers-$(uname -r) with its -common and "
             "kbuild packages, kernel-devel-$(uname -r)) at the same version, update them if the distribution "
             "fixed the package, or boot a kernel whose headers are whole; then rebuild (`sudo dkms autoinstall`)",
      .check = "kernel.nvidia_module" },
    /* GCC 14 made incompatible pointer types an error, so the driver's conftest probes of the kernel's API
     * misfire and the module is built for the wrong API */
    { .id = "kernel.conftest_gcc14", .layer = KE, .match = { "[-Wincompatible-pointer-types]" },
      .also = { "conftest" },
      .cause = "the driver's conftest.sh, which probes the kernel's API before the module is built, fails under "
               "GCC 14 (incompatible pointer types became an error), so the module is built for the wrong API: "
               "driver releases before the fix (535, 545 and early 550) with GCC 14",
      .fix = "install a driver release with the conftest fix (550.90 or later of its branch), or build the module "
             "with an older GCC (CC=gcc-13 for DKMS, or the kernel's own compiler)",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.nixos_nvidia_open_unset", .layer = KE,
      .match = { "hardware.nvidia.open' is used but not defined" },
      .cause = "NixOS's nvidia module asks which kernel module to build, the open one or the proprietary one: "
               "since driver 560 `hardware.nvidia.open` has no default, and a configuration (or a "
               "nixos-hardware profile) that does not set it fails to evaluate",
      .fix = "set `hardware.nvidia.open = true;` (Turing and newer; Blackwell needs it) or `false;` (older GPUs) "
             "in the configuration, or update the nixos-hardware profile that should set it",
      .check = "kernel.nvidia_module" },
    { .id = "system.ubuntu_drivers_quirks", .layer = SY, .match = { "No module named 'Quirks'" },
      .cause = "the nvidia-dkms package's post-install step runs ubuntu-drivers-common's quirks-handler, whose "
               "Python module the default python3 cannot import (python3 pointed at another Python, or a broken "
               "ubuntu-drivers-common); the module build is not at fault",
      .fix = "point python3 back at the distribution's Python (update-alternatives) or reinstall "
             "ubuntu-drivers-common, then `sudo dpkg --configure -a`",
      .check = NULL },

    /* --- the driver's installer: no driver of this package for this GPU --- */
    { .id = "kernel.installer_gpu_unsupported", .layer = KE,
      .match = { "Couldn't find a driver suitable for your graphics card", "could not find compatible graphics hardware",
                 "graphics driver is not compatible with your device", "NVIDIA Installer cannot continue",
                 "graphics driver is not compatible with this device" },
      .cause = "the driver's installer found no GPU this package supports: the GPU is too old for this branch "
               "(legacy GPUs need a legacy branch), newer than the package, a mobile or data-centre part for "
               "which the package has no entry, or a card whose PCI ID is in no driver's list (engineering "
               "samples, mining cards)",
      .fix = "look the GPU up in the driver's supported-products list (lspci -nn | grep -i nvidia gives its "
             "10de:ID) and install the branch that lists it: a legacy branch for old GPUs, a newer release for a "
             "new one, the notebook or data-centre package for those parts",
      .check = "kernel.gpu_bound" },

    { .id = "driver.vgpu_guest_mismatch", .layer = DR,
      .match = { "Incompatible Guest/Host drivers", "Guest VGX version is older", "Guest VGX version is newer",
                 "Guest driver is incompatible with host driver" /* its XID 78 */ },
      .cause = "the vGPU manager on the host disabled this VM's vGPU: the guest's NVIDIA driver is not the vGPU "
               "(GRID) guest driver of a branch the host's manager supports",
      .fix = "install in the guest the vGPU guest driver released with the host's vGPU manager (the same "
             "branch; the vGPU software release notes list the pairs), not the GeForce or data-centre driver",
      .check = "driver.version_match" },

    /* NVRM's probe of a GPU the installed branch dropped: "supported through the NVIDIA 390.xx Legacy drivers" */
    { .id = "kernel.gpu_needs_legacy_branch", .layer = KE, .match = { "Legacy drivers" },
      .also = { "NVRM", "supported through" },
      .cause = "the installed driver branch no longer supports this GPU and ignores it: the GPU is served only by "
               "the legacy branch NVRM names (390.xx for Fermi, 470.xx for Kepler, and 580.xx for Maxwell, "
               "Pascal and Volta once newer branches drop them)",
      .fix = "remove the current driver packages and install the legacy branch NVRM names (nvidia-driver-470, "
             "akmod-nvidia-470xx, the 390.xx .run), with a CUDA toolkit that branch supports",
      .check = "kernel.gpu_bound" },
    /* --- the nvidia kernel module: loading it --- */
    { .id = "kernel.module_load_failed", .layer = KE,
      .match = { "Unable to load the kernel module", "Unable to load the 'nvidia" /* installer: 'nvidia-drm' kernel module */,
                 "Kernel module load error", "could not insert 'nvidia",
                 "could not insert module", "failed to load GPU drivers" /* COS installer */, "nvidia: Unknown symbol",
                 "Unknown symbol nvidia_" /* nvidia_peermem, nv_peer_mem */, "disagrees about version of symbol",
                 "could not insert 'nv_peer_mem", "nv_peer_mem: Unknown symbol" },
      .also = { "nvidia", "kernel module", "nv_peer_mem" },
      .unless = " key ",                      /* "Key was rejected", "Required key not": kernel.secure_boot */
      .cause = "the nvidia kernel module was built but the kernel refused to load it: Secure Boot refused an "
               "unsigned module, nouveau (or another driver) holds the GPU, the module was built against other "
               "kernel sources (unknown symbols, symbols whose versions disagree: a module such as nv_peer_mem "
               "built against another nvidia.ko or kernel than the one loaded), or no GPU here is supported by this "
               "driver release",
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
    { .id = "context.serving_kernels", .layer = CP_LAYER_FRAMEWORK, .marks = CP_CONTEXT_SERVING_KERNELS,
      .match = { "ggml-cuda", "ggml_cuda_", "ggml_backend_cuda", "llama-server", "llama_model_load", "llama.cpp",
                 "ollama", "vllm", "sglang", "ctranslate2", "exllama", "tensorrt_llm", "flash_attn", "flashinfer" },
      .cause = "marks the text as one whose CUDA kernels a serving framework or kernel package brings", .fix = "-" },
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
    { .id = "kernel.installer_failed", .layer = KE, .fallback = 1,
      .match = { "ERROR: Installation has failed", "Please see the file '/var/log/nvidia-installer.log'" },
      .cause = "the NVIDIA .run installer gave up; this is its summary line, and the reason (most often the "
               "kernel module failing to build or load) is earlier in its output and in /var/log/nvidia-installer.log",
      .fix = "grep -n -E 'ERROR|error:|Kernel module load error' /var/log/nvidia-installer.log | head, and fix "
             "the first error (kernel headers, compiler, nouveau, Secure Boot) before running it again",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.installer_alternate_driver", .layer = KE,
      .match = { "presence of an alternate driver installation" },
      .cause = "the NVIDIA .run installer found a driver installed by the package manager (nvidia-driver-NNN, "
               "nvidia-driver-latest-dkms, akmod-nvidia) and stops rather than overwrite its kernel module and "
               "libraries",
      .fix = "use one: either keep the packaged driver (and drop the .run), or remove the packages first "
             "(sudo apt purge 'nvidia-*' 'libnvidia-*'; sudo dnf remove 'nvidia-driver*' 'kmod-nvidia*') and "
             "run the installer again",
      .check = "kernel.nvidia_module" },
    { .id = "system.installer_x_running", .layer = SY, .match = { "You appear to be running an X server" },
      .cause = "a display server (X or Xwayland under GDM, SDDM, LightDM) is running on the NVIDIA driver, so the "
               "installer cannot unload and test the kernel modules",
      .fix = "stop the display manager and install from a text console (sudo systemctl isolate multi-user.target), "
             "then start it again (graphical.target)",
      .check = NULL },
    { .id = "kernel.module_flavour_installer", .layer = KE,
      .match = { "requires a kernel module type which is not present", "requires the open GPU kernel modules, but contains GPUs",
                 "kernel modules are incompatible with the GPU(s) detected" },
      .cause = "nvidia-installer says the kernel module flavour does not fit the GPUs: the open modules drive only "
               "Turing and newer and Blackwell needs them, the proprietary one drives Maxwell to Ada, and this "
               "package or the -m option gives the other one (or the GPUs need both)",
      .fix = "install the flavour the GPUs need (-m=kernel-open for Turing and newer, -m=kernel for Maxwell, "
             "Pascal, Volta) from a package that has it; one flavour serves every GPU of a machine",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.probe_failed", .layer = KE,
      .match = { "No NVIDIA devices probed", "None of the NVIDIA devices were initialized" },
      .cause = "nvidia.ko loaded but took no GPU: another driver owns it (nouveau, vfio-pci, a framebuffer "
               "driver), or probing failed for every GPU (the lines before it say why: an unsupported GPU or "
               "module flavour, a BAR the firmware left unassigned, a resource conflict)",
      .fix = "`lspci -nnk -d 10de:` shows the driver in use; blacklist nouveau or unbind vfio-pci and rebuild the "
             "initramfs; otherwise act on the NVRM lines before this one (driver branch, flavour, BIOS Above 4G)",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.legacy_gpu", .layer = KE, .match = { "ignoring the legacy GPU" },
      .cause = "this GPU is older than the driver branch supports: only a legacy branch (470, 390, 340) drives it, "
               "so nvidia.ko skips it",
      .fix = "install the legacy branch NVIDIA lists for this GPU, or use this branch with a newer GPU",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.gpu_excluded", .layer = KE, .match = { "not permitted for excluded" },
      .cause = "this GPU is excluded from use: the NVreg_ExcludedGpus module option names it, or the driver "
               "excluded it after a fault (the earlier kernel lines say which)",
      .fix = "grep -r ExcludedGpus /etc/modprobe.d /proc/driver/nvidia/params; drop its UUID and reload the "
             "module, or read why the driver excluded it",
      .check = "kernel.gpu_bound" },
    { .id = "kernel.unsupported_kernel", .layer = KE,
      .match = { "you are installing for is a Xen kernel", "is a PREEMPT_RT kernel", "does not support real-time kernels" },
      .cause = "the kernel the module is built for is a Xen or a PREEMPT_RT (real-time) kernel, which the NVIDIA "
               "kernel module refuses by default",
      .fix = "boot and build for the distribution's standard kernel; only if you accept the risk, "
             "IGNORE_PREEMPT_RT_PRESENCE=1 (or IGNORE_XEN_PRESENCE=1) for the build",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.dkms_build_exclusive", .layer = KE,
      .match = { "includes a BUILD_EXCLUSIVE directive", "which does not match this kernel/arch/config" },
      .context_absent = CP_CONTEXT_OTHER_DKMS_MODULE,
      .cause = "DKMS did not build the module: the driver package's dkms.conf limits the kernels it builds for "
               "(BUILD_EXCLUSIVE_KERNEL, _ARCH, _CONFIG) and this kernel is outside them, typically newer than "
               "the driver branch supports or configured without an option it needs",
      .fix = "grep BUILD_EXCLUSIVE /usr/src/nvidia-*/dkms.conf; boot a kernel inside the range or install a driver "
             "branch that supports this kernel, then `sudo dkms autoinstall -k $(uname -r)`",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.dkms_no_kernel_tree", .layer = KE,
      .match = { "install a module onto a non-existant kernel", "Problems with depmod detected",
                 "Install Failed (depmod problems)" },
      .cause = "DKMS could not install the built module: the kernel's /lib/modules tree is missing (a kernel "
               "removed or not yet installed, or a container's kernel version) or depmod failed on it",
      .fix = "ls /lib/modules and install for a kernel that is there (`sudo dkms install nvidia/VER -k "
             "$(uname -r)`); run `sudo depmod -a KERNEL` to see its error, and remove stale builds with dkms remove",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.unhandled_interrupts", .layer = KE, .match = { "Going over RM unhandled interrupt threshold" },
      .cause = "the GPU's interrupt line keeps firing with no work for nvidia.ko: a legacy INTx line shared with "
               "another device, an interrupt storm, or a GPU in a bad state",
      .fix = "let the driver use MSI (options nvidia NVreg_EnableMSI=1), see who shares the IRQ in "
             "/proc/interrupts, and reset the GPU or reboot if it is faulting",
      .check = "kernel.nvidia_module" },
    { .id = "hardware.power_cables", .layer = HW, .match = { "does not have the necessary power cables connected" },
      .cause = "the GPU reports its auxiliary power connectors unplugged or without power, so it stops "
               "initialising",
      .fix = "power off and connect every 8-pin / 12VHPWR connector firmly from a power supply that can feed it "
             "(no daisy-chained splitters), then boot again",
      .check = "hardware.pci_gpu" },
    { .id = "system.gpu_device_node_stale", .layer = SY, .match = { "open of non-existent GPU with minor number" },
      .cause = "a program opened /dev/nvidiaN for a GPU the loaded module does not have: stale device nodes, a "
               "container given other /dev/nvidiaN than the host's GPUs, or a GPU that failed to initialise",
      .fix = "compare ls -l /dev/nvidia[0-9]* with nvidia-smi -L; remove stale nodes (nvidia-modprobe -c N "
             "recreates them) or give the container the host's device list",
      .check = "system.devnode_access" },
    { .id = "system.suspend_units", .layer = SY,
      .match = { "PreserveVideoMemoryAllocations module parameter is set", "without driver procfs suspend interface" },
      .cause = "NVreg_PreserveVideoMemoryAllocations=1 is set but the system suspended without the driver's "
               "suspend interface: the nvidia-suspend, -hibernate and -resume units are not enabled, so suspend "
               "fails or video memory is lost",
      .fix = "sudo systemctl enable nvidia-suspend.service nvidia-hibernate.service nvidia-resume.service (or "
             "drop the NVreg_PreserveVideoMemoryAllocations option)",
      .check = NULL },
    { .id = "system.memory_onlining", .layer = SY,
      .match = { "onlining zone is not movable", "requires auto onlining mode online_movable" },
      .cause = "on a coherent system (Grace Hopper, Grace Blackwell) the kernel onlines hot-plugged memory into a "
               "zone that is not movable, so the GPU's memory cannot come up as its NUMA node",
      .fix = "set the policy before the driver loads: online_movable in /sys/devices/system/memory/"
             "auto_online_blocks (a udev rule, or memhp_default_state=online_movable on the kernel command "
             "line), then load the driver again",
      .check = NULL },
    { .id = "system.vf_no_iommu", .layer = SY, .match = { "since IOMMU is not present on the system" },
      .cause = "the GPU's SR-IOV virtual functions (vGPU) need the IOMMU, which is off in the firmware or on the "
               "kernel command line, so the driver does not probe them",
      .fix = "enable VT-d / AMD-Vi in the BIOS and boot with intel_iommu=on iommu=pt (or amd_iommu=on); "
             "ls /sys/kernel/iommu_groups shows groups when it is on",
      .check = NULL },
    { .id = "system.nvidia_modprobe", .layer = SY, .match = { "NVIDIA: failed to execute", "NVIDIA: failed to open" },
      .cause = "nvidia-modprobe (the setuid helper that loads nvidia.ko and makes /dev/nvidia* for CUDA and NVML) "
               "could not run modprobe or open a control file: it runs without root (setuid bit lost), in a "
               "container, or kmod is missing",
      .fix = "load the modules and make the device nodes on the host (sudo modprobe nvidia nvidia_uvm; "
             "nvidia-modprobe -u -c 0), check that nvidia-modprobe is setuid root, and install kmod where it runs",
      .check = "system.devnode_access" },
    { .id = "hardware.pci_bar_invalid", .layer = HW,
      .match = { "PCI I/O region assigned to your NVIDIA device is invalid", "The system BIOS may have misconfigured your GPU",
                 "BAR0 is 0M @", "No address space to allocate resized BAR1" },
      .cause = "the system firmware gave the GPU's PCI BARs no address space (Thunderbolt eGPUs, large-BAR GPUs "
               "without Above 4G Decoding, or a BIOS bug), so the nvidia module cannot probe it",
      .fix = "enable Above 4G Decoding (and Resizable BAR; disable CSM) and update the BIOS; for an eGPU boot with "
             "pci=realloc (or larger hpmmiosize) so the kernel reassigns the bridge windows",
      .check = "hardware.pci_gpu" },

    /* --- the NVIDIA container stack --- */
    { .id = "system.container_capabilities", .layer = SY,
      .match = { "unknown NVIDIA_DRIVER_CAPABILITIES value", "Unknown NVIDIA driver capability",
                 "unsupported capabilities found in" },
      .cause = "NVIDIA_DRIVER_CAPABILITIES (from the image or the run command) holds a word the NVIDIA hook does not "
               "accept (it knows compute, compat32, graphics, utility, video, display, all), so the container does "
               "not start",
      .fix = "set NVIDIA_DRIVER_CAPABILITIES=compute,utility (or all), or update the toolkit if the word is a newer one",
      .check = "system.container" },
    { .id = "system.container_unprivileged_envvar", .layer = SY,
      .match = { "Ignoring devices requested by environment variable(s) in unprivileged container",
                 "cannot set MIG_CONFIG_DEVICES in non privileged container",
                 "cannot set MIG_MONITOR_DEVICES in non privileged container" },
      .cause = "the NVIDIA runtime refuses what an unprivileged container asks through environment variables: "
               "GPUs by NVIDIA_VISIBLE_DEVICES when accept-nvidia-visible-devices-envvar-when-unprivileged is false "
               "(a hardened setting, the GPU operator's with volume mounts), MIG reconfiguration at all",
      .fix = "ask for the GPUs with --gpus or CDI (--device nvidia.com/gpu=all) or the device plugin's CDI or "
             "volume-mounts strategy; MIG configuration only from a privileged container",
      .check = "system.container" },
    { .id = "system.container_device_id", .layer = SY,
      .match = { "identifier is not a valid UUID or index", "no NVIDIA device nodes found" },
      .cause = "the NVIDIA toolkit could not map the devices asked for: an identifier that is neither an index "
               "nor a GPU-/MIG- UUID, or no /dev/nvidia* nodes on the host (the module not loaded, nodes never made "
               "on a headless host)",
      .fix = "use the indices or UUIDs of `nvidia-smi -L`; load the driver and make the nodes (nvidia-smi once, "
             "or nvidia-ctk system create-device-nodes --control-devices --load-kernel-modules), then regenerate "
             "the CDI spec",
      .check = "system.container" },
    { .id = "driver.apptainer_no_host_driver", .layer = DR,
      .match = { "Could not find any nv files on this host", "Could not find any nv libraries on this host" },
      .cause = "apptainer's --nv found none of the driver's programs or libraries (nvliblist.conf) on this host: "
               "the NVIDIA driver is not installed on this node (a login or CPU node), not in the ld cache, or in "
               "a place nvliblist.conf does not list (Jetson's tegra folder)",
      .fix = "run on a GPU node where nvidia-smi works and `ldconfig -p | grep libcuda` lists the driver; add a "
             "driver outside the ld cache to /etc/ld.so.conf.d, or use --nvccli",
      .check = "driver.libcuda" },
    { .id = "system.apptainer_nvccli", .layer = SY,
      .match = { "not writable in the container", "ldconfig is not owned by root user", "--fakeroot does not support --nvccli",
                 "NVIDIA_VISIBLE_DEVICES must be set or no GPUs will be available", "While finding nv bind points" },
      .cause = "apptainer could not set up the GPU for the container: with --nvccli, nvidia-container-cli needs a "
               "writable /usr/bin, a root-owned ldconfig, no fakeroot in a set-uid install and, with --contain, "
               "NVIDIA_VISIBLE_DEVICES; with --nv it needs ldconfig to find the driver's libraries",
      .fix = "use --writable-tmpfs, put /sbin first on PATH, drop --fakeroot or --nvccli, export "
             "NVIDIA_VISIBLE_DEVICES=all (or $CUDA_VISIBLE_DEVICES), and make ldconfig reachable",
      .check = "system.container" },
    { .id = "kernel.uvm_maybe", .layer = KE, .alternative = 1,
      .match = { "CUDA error: initialization error", "cudaErrorInitializationError", "cuInit: CUDA_ERROR_UNKNOWN",
                 "CUDA unknown error - this may be due to an incorrectly set up environment",
                 "failed to initialize CUDA: unknown error", "cuda driver library init failure" /* ollama */,
                 "cuInit(0) failed" /* ffmpeg */,
                 CP_PHRASES_FIRST_CALL_UNKNOWN_ERROR },
      .cause = "if nvidia-smi works but CUDA fails at its first call: the nvidia_uvm kernel module CUDA needs is "
               "not loaded, or is in a bad state after suspend and resume or a driver upgrade without a reboot "
               "(/dev/nvidia-uvm missing); on some GPUs the open kernel modules fail where the proprietary ones work",
      .fix = "sudo modprobe nvidia_uvm (or rmmod and modprobe it with nothing using the GPU), check ls -l "
             "/dev/nvidia-uvm*, reboot after a driver upgrade; nvidia-modprobe -u -c0 makes the node",
      .check = "kernel.uvm" },
    { .id = "kernel.uvm_not_loaded", .layer = KE,
      .match = { "Kernel module nvidia_uvm is not loaded", "Could not load UVM kernel module" /* nvidia-docker 1 */ },
      .cause = "the host has no nvidia_uvm module loaded (CUDA needs it; an unprivileged container runtime cannot "
               "load it), so CUDA in the container finds no device or fails to initialise",
      .fix = "on the host: sudo modprobe nvidia-uvm (or nvidia-modprobe -u -c0), and load it at boot "
             "(/etc/modules-load.d/nvidia-uvm.conf)",
      .check = "kernel.nvidia_module" },
    { .id = "system.enroot_hook", .layer = SY, .fallback = 1, .match = { "hooks.d/98-nvidia.sh exited with return code" },
      .cause = "enroot's NVIDIA hook (nvidia-container-cli configure) failed as the container started; the line "
               "before it gives nvidia-container-cli's own error",
      .fix = "read nvidia-container-cli's line above it; `nvidia-container-cli -k -d /dev/tty info` on the node "
             "shows what it sees",
      .check = "system.container" },
    { .id = "system.compose_gpu_syntax", .layer = SY,
      .match = { "('devices' was unexpected)", "Additional property devices is not allowed",
                 "Additional property gpus is not allowed", "unexpected keyword argument 'gpus'",
                 "missing property 'capabilities'" },
      .cause = "docker compose (or swarm's stack deploy) refused the file's GPU request: docker-compose before 1.28 "
               "knows no device reservations, swarm supports none, Compose releases differ on a service's own "
               "`gpus:` key, and a device reservation needs its capabilities list",
      .fix = "use a current docker compose (v2) with deploy.resources.reservations.devices: [{driver: nvidia, "
             "count: all, capabilities: [gpu]}] under the service; under swarm hand GPUs out as generic "
             "resources (node-generic-resources) instead",
      .check = "system.container" },
    { .id = "system.operator_driver_image", .layer = SY, .match = { "nvcr.io/nvidia/driver:" },
      .also = { "not found", "NotFound", "manifest unknown" },
      .cause = "the GPU operator's driver daemonset asks for a driver image that NVIDIA does not publish: one "
               "for this node's OS and version (the tag names them) does not exist, or not for this driver "
               "version",
      .fix = "run the nodes on an OS the operator's driver images support (its platform support list), pick a "
             "driver version published for that OS, or install the driver on the hosts and deploy the "
             "operator with driver.enabled=false",
      .check = NULL },
    { .id = "system.container_runtime_unknown", .layer = SY,
      .match = { "invalid runtime name: nvidia", "Unknown runtime specified nvidia", "no runtime for \"nvidia\" is configured",
                 "RuntimeHandler \"nvidia\" not supported" /* CRI-O, containerd */ },
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
    /* NVML lacking a function the hook calls, read from the toolkit's side: its release is newer than the driver */
    { .id = "system.container_toolkit_newer_maybe", .layer = SY, .alternative = 1,
      .match = { "nvml error: function not found" }, .also = { "container-cli" },
      .cause = "or the container toolkit is the newer part: its libnvidia-container release calls an NVML function this "
               "driver predates (3.2 and later call nvmlSystemGetCudaDriverVersion_v2, from driver 410.72)",
      .fix = "where the driver must stay, pin libnvidia-container1, libnvidia-container-tools and nvidia-container-toolkit "
             "(nvidia-docker2) to a release from the driver's time; otherwise update the driver",
      .check = "system.container" },
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
    { .id = "system.container_hook_failed", .layer = SY, .fallback = 1,
      .match = { "error executing hook", "error running hook", "error running prestart hook",
                 "error running createContainer hook" },
      .also = { "nvidia", "signal: segmentation fault" /* the hook itself crashed (libnvidia-container) */ },
      .cause = "the NVIDIA hook the engine runs as the container starts (nvidia-container-runtime-hook, or "
               "nvidia-cdi-hook for a CDI device) exited with an error: a CDI spec gone stale after a driver or "
               "image update (its files no longer exist), a driver it cannot reach or that hangs (a GPU without "
               "persistence mode in a VM), or a rootless engine it cannot configure",
      .fix = "run the hook's check on the host: `nvidia-container-cli -k -d /dev/tty info` (or `nvidia-ctk cdi list`); "
             "regenerate the CDI spec after every driver update (`sudo nvidia-ctk cdi generate --output="
             "/etc/cdi/nvidia.yaml`), update the NVIDIA Container Toolkit, and read the hook's own error in "
             "the engine's log (journalctl, the hook's log file)",
      .check = "system.container" },
    { .id = "system.lxc_gpu_hook", .layer = SY, .match = { "Failed to run mount hooks" },
      .cause = "an LXC or Incus container did not start because a mount hook failed: with GPUs that is the NVIDIA "
               "hook (lxc.hook.mount = /usr/share/lxc/hooks/nvidia, Incus' nvidia.runtime), which needs "
               "nvidia-container-cli on the host, an unprivileged container, and a container manager release whose "
               "hook works with it",
      .fix = "run the container unprivileged (the NVIDIA hook refuses privileged ones) or bind the device nodes and "
             "driver libraries by hand instead of the hook; check `nvidia-container-cli info` on the host and update "
             "the container manager's package (a broken release is fixed in its next); `lxc-start -F -l DEBUG` or "
             "`incus info --show-log NAME` shows the hook's own error",
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
    /* kubectl describe node's Capacity and Allocatable: the resource is there and holds no GPU */
    { .id = "system.k8s_node_zero_gpus", .layer = SY, .match = { "nvidia.com/gpu" }, .value = CP_VALUE_ZERO,
      .cause = "the node advertises nvidia.com/gpu 0: the device plugin registered and found no GPU it can hand out, "
               "because the container runtime it runs under is not the nvidia one (Docker's or containerd's default "
               "runtime), the driver is not loaded on the node, or it marked the GPUs unhealthy (XIDs)",
      .fix = "read the device plugin pod's log (kubectl logs -n kube-system on the nvidia-device-plugin pod of that "
             "node); make nvidia the default runtime (\"default-runtime\": \"nvidia\" in /etc/docker/daemon.json, or "
             "nvidia-ctk runtime configure --set-as-default for containerd) or give the plugin runtimeClassName: "
             "nvidia; check nvidia-smi on the node",
      .check = "system.container" },
    { .id = "hardware.k8s_xid_unhealthy", .layer = HW,
      .match = { "XidCriticalError: Xid=", "marking device as unhealthy" },
      .cause = "the device plugin saw a critical XID on this GPU through NVML and took it out of the node's "
               "allocatable nvidia.com/gpu (it skips the XIDs a program causes: 13, 31, 43, 45, 68, 109), so "
               "the GPU itself is suspect",
      .fix = "read the XID on the node (`dmesg | grep -i xid`); for 79, 48, 94, 95 or 119 drain the node and reset "
             "or replace the GPU; the plugin marks it healthy again only after it restarts",
      .check = "hardware.pci_gpu" },
    { .id = "system.k8s_plugin_register", .layer = SY, .match = { "Could not register device plugin" },
      .cause = "the device plugin could not reach the kubelet's registration socket: the kubelet keeps its state "
               "elsewhere than /var/lib/kubelet (k0s, k3s, microk8s, RKE), restarted, or the device-plugins "
               "folder is not mounted into the plugin's pod",
      .fix = "mount the kubelet's real device-plugins folder into the plugin (the Helm value, or the operator's "
             "kubelet root setting) and restart the plugin pod",
      .check = "system.container" },
    { .id = "system.gpu_operator_toolkit", .layer = SY,
      .match = { "toolkit is not ready", "error validating toolkit installation" },
      .cause = "the GPU operator's toolkit validation ran nvidia-smi in a container the NVIDIA runtime should have "
               "set up, and it was not: containerd or CRI-O has no nvidia runtime configured (or was not "
               "restarted), or the toolkit daemonset has not finished",
      .fix = "read the toolkit daemonset's log; check that the runtime's config has the nvidia runtime and that "
             "the runtime was restarted; for k3s, microk8s and other paths set the toolkit's CONTAINERD_CONFIG "
             "and CONTAINERD_SOCKET",
      .check = "system.container" },
    { .id = "system.gpu_operator_plugin", .layer = SY,
      .match = { "GPU resources are not discovered by the node", "GPU resources are not yet discovered",
                 "unable to find any allocatable GPU resource" },
      .cause = "the node never advertised nvidia.com/gpu (or a MIG resource): the device plugin is not running or "
               "registered, found no GPU (NVML failed, MIG on with no instances), or marked them all unhealthy",
      .fix = "read the device plugin daemonset's log and `kubectl describe node NODE | grep nvidia.com`; fix what "
             "the plugin reports, then restart the validator",
      .check = "system.container" },
    { .id = "system.gpu_operator_dev_char", .layer = SY, .match = { "Failed to create symlinks under /dev/char" },
      .cause = "the driver validator could not make the /dev/char links to the NVIDIA device nodes (runc with "
               "systemd cgroups needs them, or GPUs vanish from containers after systemctl daemon-reload): the "
               "nodes or modules could not be made from the driver root",
      .fix = "fix the inner error it prints, or set DISABLE_DEV_CHAR_SYMLINK_CREATION=true for the validator and "
             "run `nvidia-ctk system create-dev-char-symlinks --create-all` on the host",
      .check = "system.devnode_access" },
    { .id = "kernel.peermem_not_loaded", .layer = KE,
      .match = { "nvidia-peermem driver is not ready", "error validating nvidia-peermem driver installation" },
      .cause = "GPUDirect RDMA is enabled but the nvidia-peermem kernel module is not loaded, usually because the "
               "MOFED/OFED stack was missing when the driver container built it",
      .fix = "install MOFED on the host (then driver.rdma.useHostMofed=true) or deploy the network operator's "
             "driver first, restart the driver pod, and check `lsmod | grep nvidia_peermem`",
      .check = "kernel.nvidia_module" },
    { .id = "system.k8s_mig_config", .layer = SY,
      .match = { "has no MIG devices configured", "migEnabled=true was not configured correctly",
                 "Invalid configuration detected for mig-strategy=single", "mig-strategy=mixed is not supported with MPS" },
      .cause = "the device plugin's MIG strategy does not fit the GPUs: MIG mode is on with no GPU instances, "
               "mig-strategy=single with GPUs of different MIG layouts (or MIG on and off), or MPS sharing with "
               "mig-strategy=mixed",
      .fix = "create the instances (nvidia-smi mig -cgi ... -C, or the node label nvidia.com/mig.config for the MIG "
             "manager), give every GPU one layout for single, or use mixed (not with MPS), or turn MIG off",
      .check = "system.container" },
    { .id = "system.k8s_sharing_config", .layer = SY, .match = { "number of replicas must be >= 2" },
      .cause = "the device plugin's time-slicing or MPS sharing config gives a resource fewer than 2 replicas, so "
               "the plugin does not start",
      .fix = "set replicas: 2 or more under sharing.timeSlicing.resources (or sharing.mps), or remove the sharing block",
      .check = "system.container" },
    { .id = "system.k8s_plugin_start", .layer = SY, .fallback = 1,
      .match = { "Failed to start one or more plugins", "Failed to start plugin:" },
      .cause = "the NVIDIA device plugin could not start a resource plugin and keeps retrying: the reason is on an "
               "earlier line (NVML, the kubelet socket, the MPS daemon, its config)",
      .fix = "read the plugin's earlier error lines (kubectl logs of the device plugin daemonset) and fix that cause",
      .check = "system.container" },
    { .id = "system.dcgm_hostengine", .layer = SY,
      .match = { "Unable to connect to host engine", "unable to establish a connection to the specified host" },
      .cause = "dcgmi (or a DCGM client) found no DCGM host engine to talk to: nv-hostengine is not running, or "
               "listens elsewhere than the client asks",
      .fix = "start it: sudo systemctl --now enable nvidia-dcgm (or run nv-hostengine), then dcgmi discovery -l; "
             "for a remote or container host engine pass its address with --host",
      .check = NULL },
    { .id = "driver.fabric_manager_version", .layer = DR,
      .match = { "don't match with driver version", "does not match with driver version" },
      .also = { "fabric manager", "fabricmanager", "nv-fabricmanager" },
      .cause = "the NVSwitch fabric manager is of another release than the loaded NVIDIA driver: it needs exactly "
               "the driver's version (a driver updated without its nvidia-fabricmanager package, or the other "
               "way round)",
      .fix = "install nvidia-fabricmanager (and libnvidia-nscq) of exactly the version nvidia-smi shows, hold the "
             "driver and fabric manager packages together, then restart nvidia-fabricmanager",
      .check = "driver.version_match" },
    { .id = "system.fabric_manager", .layer = SY,
      .match = { "query NVSwitch device information", "number of NVSwitches don't match with any supported",
                 "fabric manager found but not active",
                 "nvidia-fabricmanager.service: Failed", "nvidia-fabricmanager.service: Main process exited" },
      .cause = "the NVSwitch fabric manager did not start: it found no NVSwitch to manage (NV_WARN_NOTHING_TO_DO: "
               "a machine or VM without its NVSwitches, the nvidia-nvswitch devices not enumerated or not passed "
               "through), a switch topology it does not know, or a version other than the driver's; on an "
               "HGX/DGX machine CUDA then fails with 'system not yet initialized'",
      .fix = "read /var/log/fabricmanager.log; on an NVSwitch machine install the nvidia-fabricmanager (and "
             "libnvidia-nscq) package of exactly the driver's version, check ls /dev/nvidia-nvswitch*, then "
             "systemctl enable --now nvidia-fabricmanager; where there are no NVSwitches (PCIe GPUs, GH200, an "
             "NVL72 compute tray) it is not needed: disable it",
      .check = "driver.devices" },
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
      .match = { "failed to run command 'nvidia-smi'", "driver is not ready:", "error checking driver container status",
                 "failed to validate the driver, retrying", "failed to locate driver libraries",
                 "error validating driver installation" },   /* driver-validation: chroot /run/nvidia/driver nvidia-smi */
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
                 "gres/gpu count repor",   /* sinfo -R's REASON column cuts the reason at 20 characters */
                 "count too low (", "Ignoring file-less GPU", "more configured than expected in slurm.conf" },
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
    { .id = "system.pyxis_error", .fallback = 1, .layer = SY, .match = { "error: pyxis:" },
      .cause = "pyxis, the Slurm plugin that runs a job step in an enroot container, failed setting the step up "
               "on the node: its runtime folders, the container's namespaces or seccomp filter, or the image",
      .fix = "read pyxis' sentence and the enroot lines after it; check that the user can create pyxis' and "
             "enroot's runtime paths on the node (/run/pyxis, ENROOT_RUNTIME_PATH), that the node's kernel "
             "supports what pyxis asks of it (a pyxis release for that kernel), then run `enroot start` by hand",
      .check = NULL },
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
    { .id = "system.slurm_error", .fallback = 1, .layer = SY, .context = CP_CONTEXT_GPU,
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
    { .id = "system.k8s_unschedulable", .fallback = 1, .layer = SY,
      .match = { "nodes are available:", "FailedScheduling", "node(s) had untolerated taint" },
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

    { .id = "kernel.firmware_missing", .layer = KE,
      .match = { "Direct firmware load for nvidia/", "RmFetchGspRmImages: No firmware image found",
                 "need firmware to initialize GSP" },
      .also = { "failed", "No firmware image", "need firmware" },
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
      .match = { "Depends: nvidia-", "nvidia-kernel-common", "nvidia-dkms-", "nvidia-driver-", "needed by kmod-nvidia",
                 "needed by akmod-nvidia", "conflicts between attempted installs of" /* dnf: two repositories' files */ },
      .also = { "Depends:", "Unmet dependencies", "not going to be installed", "held broken packages", "conflicts with",
                "nothing provides", "conflicts between" },
      .cause = "the package manager cannot install the driver: its packages ask for each other at versions the "
               "configured repositories do not have together (NVIDIA's repository and the distribution's mixed, a "
               "half-done upgrade, a pinned or held package)",
      .fix = "install all driver packages from one source and one version (`apt-cache policy nvidia-driver-NNN "
             "nvidia-kernel-common-NNN`), remove the other source's or pin it, `sudo apt --fix-broken install`, "
             "then the driver again",
      .check = "kernel.nvidia_module" },
    /* NVIDIA's CUDA repositories changed their signing key in April 2022 (7fa2af80 to 3bf863cc) */
    { .id = "kernel.cuda_repo_key", .layer = KE,
      .match = { "NO_PUBKEY A4B469963BF863CC", "NO_PUBKEY F60F4B3D7FA2AF80" },
      .cause = "apt does not trust NVIDIA's CUDA repository (developer.download.nvidia.com), so its driver and "
               "toolkit packages cannot be installed or updated: the machine or image holds the repository's old "
               "signing key, or none, since the key was replaced in April 2022",
      .fix = "install the repository's cuda-keyring package (the cuda-keyring_1.1-1_all.deb of the distribution's "
             "folder on developer.download.nvidia.com; sudo dpkg -i it) and drop the old key (sudo apt-key del "
             "7fa2af80); in an image or a GPU operator driver container, move to a release made after the change",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.driver_package_unknown", .layer = KE,
      .match = { "Unable to locate package nvidia-", "No package nvidia-", "Unable to find a match: nvidia-",
                 "Unable to find a match: akmod-nvidia", "Unable to find a match: kmod-nvidia", "target not found: nvidia" },
      .cause = "the package manager has no such NVIDIA driver package: the repository that has it is not "
               "enabled (Ubuntu's restricted, Debian's non-free and non-free-firmware, RPM Fusion, NVIDIA's CUDA "
               "repository), the package list is stale, or that branch is not packaged for this release",
      .fix = "enable the repository and refresh it (sudo apt update; dnf's RPM Fusion or NVIDIA repo), then list "
             "what exists (apt-cache search nvidia-driver, ubuntu-drivers list, dnf list 'nvidia*') and install a "
             "branch that is there",
      .check = "kernel.nvidia_module" },
    { .id = "kernel.driver_hang", .layer = KE, .match = { "blocked for more than" },
      .also = { "nvidia", "nv_", "task" },
      .cause = "a task hung in the kernel (state D) for minutes; where its stack runs through the nvidia module "
               "(os_acquire_rwlock, nv_ or rm_ frames, nvidia-persistenced, nvidia-smi) the driver is stuck, most "
               "often waiting on a GPU that stopped answering (an XID before it), or on its own lock",
      .fix = "read the kernel log from the first XID or NVRM line before the hang; the GPU needs a reset and "
             "usually the node a reboot; report it with nvidia-bug-report.sh, and try the current driver of the branch",
      .check = "kernel.nvidia_module" },
    { .id = "system.selinux_gpu_devices", .layer = SY, .context = CP_CONTEXT_GPU,
      .match = { "xserver_misc_device_t", "container_use_devices" },
      .cause = "SELinux denies the process the GPU's device nodes: Fedora's and RHEL's policy labels /dev/nvidia* "
               "xserver_misc_device_t, which a container (container_t) may not open unless the policy allows it",
      .fix = "allow it: `sudo setsebool -P container_use_devices=1` (and a policy release that grants it for "
             "xserver_misc_device_t), install the NVIDIA container SELinux module, or run the container with "
             "--security-opt label=disable; `ausearch -m avc -ts recent` shows the denials",
      .check = "system.devnode_access" },
    /* DCGM's client (dcgm-exporter's go-dcgm, dcgmi) and host engine of different releases */
    { .id = "libraries.dcgm_api_mismatch", .layer = CP_LAYER_LIBRARIES, .context = CP_CONTEXT_GPU,
      .match = { "API version mismatch" }, .also = { "hostengine", "busid", "dcgm", "device" },
      .cause = "DCGM's client and the library or host engine it talks to are of different DCGM releases: "
               "dcgm-exporter's bindings against the node's nv-hostengine or libdcgm (an exporter image "
               "re-pushed or newer than the node's DCGM)",
      .fix = "run the exporter image built for the node's DCGM (the GPU operator's matched versions, an image "
             "pinned by digest), or update DCGM on the node to the exporter's release",
      .check = NULL },
    { .id = "system.dcgm_module_not_loaded", .layer = SY,
      .match = { "serviced by a module of DCGM that is not currently loaded" },
      .cause = "dcgm-exporter (or a DCGM client) asked for fields of a DCGM module that is not loaded: most often "
               "the profiling (DCP) metrics, which only data-centre GPUs have; dcgm-exporter before 2.1.2 asked "
               "for them by default",
      .fix = "update dcgm-exporter (2.1.2 and later skip fields the GPU lacks), or remove the DCGM_FI_PROF_* "
             "lines from its counters CSV for this GPU",
      .check = NULL },
    /* Vulkan's VK_ERROR_INITIALIZATION_FAILED from the NVIDIA ICD, as Wine and DXVK print it */
    { .id = "kernel.vulkan_devices_after_update", .layer = KE, .match = { "Failed to enumerate physical devices" },
      .cause = "the NVIDIA Vulkan driver could not initialise the GPU: most often the driver's user-space files "
               "were updated while the kernel module loaded is still the old release, until a reboot",
      .fix = "reboot after a driver update (or reload the nvidia modules), then check that nvidia-smi and "
             "`vulkaninfo --summary` list the GPU with one driver version",
      .check = "driver.version_match" },
    { .id = "system.powerd_disabled", .layer = SY, .match = { "nvidia-powerd.service; disabled" },
      .cause = "nvidia-powerd, the driver's Dynamic Boost daemon for laptop GPUs, is not enabled: without it the GPU "
               "stays at its base power limit (nvidia-smi -q: Current Power Limit equals Default Power Limit) and "
               "runs well below its rated speed",
      .fix = "sudo systemctl enable --now nvidia-powerd, then check that nvidia-smi -q's Current Power Limit rises "
             "under load",
      .check = NULL },
    { .id = "system.gpu_in_use", .layer = SY, .match = { "In use by another client" },
      .cause = "the GPU could not be reset or switched (MIG mode, a reset, a clocks or mode change) because "
               "processes still hold it: nvidia-persistenced, DCGM or dcgm-exporter, the device plugin, a "
               "monitoring agent, or a job",
      .fix = "stop what holds it (`sudo lsof /dev/nvidia*`, `nvidia-smi --query-compute-apps=pid --format=csv`; "
             "in Kubernetes drain the node or let the GPU operator's MIG manager stop its clients), then retry; "
             "a pending MIG mode takes effect after a reset or reboot",
      .check = NULL },
    { .id = "system.k8s_dra_mig", .layer = SY,
      .match = { "MIG device allocation failed", "error creating GPU instance",
                 "Unable to create a GPU instance", "Failed to create GPU instances" /* nvidia-smi mig -cgi */,
                 "Unable to create a compute instance", "Failed to create compute instances" /* -cci */ },
      .cause = "the NVIDIA DRA driver, the MIG manager or `nvidia-smi mig` could not carve the MIG device asked for: the GPU "
               "has no room of that profile left (\"Insufficient Resources\": other instances hold the slices), "
               "or MIG is not enabled on it",
      .fix = "list the GPU's instances and free slices (`nvidia-smi mig -lgi`, `nvidia-smi mig -lgip`); remove "
             "the stale instances or ask for a profile that fits; enable MIG mode (a reset) where it is off",
      .check = NULL },
    /* NGC images start through /opt/nvidia/nvidia_entrypoint.sh, which execs what follows the image's name */
    { .id = "application.ngc_entrypoint_command", .layer = CP_LAYER_APPLICATION, .match = { "nvidia_entrypoint.sh:" },
      .also = { "exec:" },
      .cause = "the NVIDIA image's entrypoint ran what followed the image's name as a command: the docker run line "
               "put the program's options there without the program itself",
      .fix = "name the program after the image (docker run ... IMAGE /path/to/program --option ...), or pass "
             "--entrypoint for another start",
      .check = NULL },
    { .id = "system.cdi_spec_stale", .layer = SY,
      .match = { "failed to fulfil mount request" /* runc */, "cannot stat `/" /* crun */ },
      .also = { "nvidia", "libcuda" },
      .cause = "the container engine could not mount a driver file that the GPU's CDI spec lists: the spec was "
               "generated for a driver that is no longer installed (a driver upgrade since), so its files, named "
               "with the old version, are gone",
      .fix = "regenerate the spec after every driver change (`sudo nvidia-ctk cdi generate --output="
             "/etc/cdi/nvidia.yaml`; NVIDIA Container Toolkit 1.18 and later can do it itself with its "
             "nvidia-cdi-refresh units) and recreate the container",
      .check = "system.container" },
    { .id = "system.cdi_generate", .layer = SY, .match = { "failed to generate CDI spec" },
      .cause = "nvidia-ctk could not write the CDI spec for this machine's GPUs: the mode it picked (nvml on a "
               "Jetson/Tegra board that needs csv or tegra mode, or NVML missing), or a device it could not read",
      .fix = "pick the mode for the platform (`nvidia-ctk cdi generate --mode=csv` on Jetson, or --mode=nvml "
             "where NVML works), update the NVIDIA Container Toolkit, and check `nvidia-ctk cdi list` afterwards",
      .check = NULL },
    { .id = "system.ray_no_gpu_node", .layer = SY,
      .match = { "No available node types can fulfill resource request", "cannot be scheduled right now",
                 "is pending and cannot currently be scheduled", "Attempting to start raylet with" },
      .also = { "GPU" },
      .cause = "Ray cannot place the task: no node of the cluster offers the GPUs it asks for (the cluster was "
               "started with fewer GPUs visible than the job requests, num_gpus=0 at `ray start`, or "
               "CUDA_VISIBLE_DEVICES hid them), or other actors hold them all",
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

    { .id = "kernel.host_devnode_missing", .layer = KE,
      .match = { "no such file or directory" },
      .also = { "stat /dev/nvidia" /* the engine's lstat of a device it was given */ },
      .cause = "the container engine was told to pass a GPU device node (/dev/nvidia0, /dev/nvidiactl, "
               "/dev/nvidia-uvm) that the host does not have: no NVIDIA driver on the host, its module not "
               "loaded, or nodes never made (nvidia-uvm's appear only once CUDA first runs or nvidia-modprobe "
               "makes them)",
      .fix = "on the host: nvidia-smi, then ls -l /dev/nvidia*; install the driver or load it (sudo modprobe nvidia "
             "nvidia_uvm; nvidia-modprobe -u -c0 makes the uvm nodes); or pass the GPUs with --gpus all instead of "
             "listing device nodes",
      .check = "kernel.devnodes" },

    /* --- in a container: what the driver's absence means there --- */
    { .id = "context.container", .layer = SY, .marks = CP_CONTEXT_CONTAINER,
      .match = { "docker run", "docker: Error", "Error response from daemon", "docker-compose", "docker compose",
                 "nvidia-docker", "--runtime=nvidia", "--gpus", "podman run", "kubectl", "/.dockerenv",
                 "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "enroot", "apptainer", "singularity",
                 "Dockerfile", "docker build", "docker exec", "nvcr.io/", "nvidia/cuda:", "LXC container", "lxc.cgroup",
                 "lxc.mount" },
      .cause = "marks the text as from a container", .fix = "-" },
    { .id = "context.container_runtime", .layer = SY, .marks = CP_CONTEXT_CONTAINER,
      .match = { "OCI runtime", "crun:", "runc create failed", "failed to create shim task", "containerd",
                 "podman", "nvidia-ctk", "nerdctl" },
      .cause = "marks the text as from a container (the engine's own words)", .fix = "-" },
    { .id = "context.kubernetes", .layer = SY, .marks = CP_CONTEXT_CONTAINER,
      .match = { "kubernetes", "k8s-device-plugin", "nvidia-device-plugin", "device-plugin", "kubelet",
                 "gpu-operator", "daemonset", "kube-system", "gpu-feature-discovery", "runtimeClassName",
                 "helm install", "========== NVIDIA Software Installer" /* the GPU operator's driver container */ },
      .cause = "marks the text as from a Kubernetes pod (every pod runs in a container)", .fix = "-" },
    { .id = "system.container_no_driver", .layer = SY, .context = CP_CONTEXT_CONTAINER, .replaces_line = 1,
      .fallback = 1,
      .match = { DRIVER_LIBS_ABSENT },
      .cause = "in a container the driver's user-space libraries (libcuda, libnvidia-ml) and device nodes come "
               "from the host, mounted by the NVIDIA container runtime: this container was started without it, "
               "without the compute and utility capabilities, or its loader cache does not list them",
      .fix = "start it with the GPUs: `docker run --gpus all` (or --runtime=nvidia), in compose "
             "deploy.resources.reservations.devices with capabilities [gpu] and NVIDIA_DRIVER_CAPABILITIES="
             "compute,utility, in Kubernetes the nvidia runtime class, or CDI (--device nvidia.com/gpu=all); "
             "check with `docker run --rm --gpus all ubuntu nvidia-smi`; run ldconfig in the image if the "
             "libraries are there but not found",
      .check = NULL },
    { .id = "system.container_shm", .layer = SY,
      .match = { "out of shared memory. Please try to raise your shared memory limit",
                 "workers are out of shared memory" },
      .cause = "PyTorch's DataLoader workers ran out of shared memory (/dev/shm) passing batches to the main "
               "process: a container gets 64 MB of it by default (docker), far too little for image batches",
      .fix = "give the container more: docker run --shm-size=8g (or --ipc=host), compose's shm_size, in "
             "Kubernetes an emptyDir with medium: Memory mounted at /dev/shm; or fewer workers "
             "(num_workers) and smaller batches",
      .check = "system.container" },
    { .id = "system.operator_host_driver", .layer = SY, .context = CP_CONTEXT_CONTAINER, .replaces_line = 1,
      .match = { "Could not unload NVIDIA driver kernel modules, driver is in use" },
      .cause = "the GPU operator's driver container cannot put its driver in: the node already runs an NVIDIA "
               "driver of its own (installed on the host), which is loaded and in use",
      .fix = "use the host's driver: deploy the operator with driver.enabled=false (it detects a pre-installed "
             "driver), or remove the host's driver packages and reboot the node so the container's driver loads",
      .check = "kernel.nvidia_module" },
    { .id = "system.container_maybe", .layer = SY, .alternative = 1, .context_absent = CP_CONTEXT_CONTAINER,
      .match = { DRIVER_LIBS_ABSENT },
      .cause = "if this ran in a container (the text does not show where): there the driver's libraries and "
               "nvidia-smi come from the host, mounted by the NVIDIA container runtime, and this container was "
               "started without it or without the capability they belong to (compute, utility; video for NVENC "
               "and NVDEC)",
      .fix = "start it with the GPUs (docker run --gpus all, compose's device reservations, the nvidia runtime "
             "class, CDI) and the capabilities it needs (NVIDIA_DRIVER_CAPABILITIES=compute,utility,video or all); "
             "`docker run --rm --gpus all ubuntu nvidia-smi` checks the set-up",
      .check = "system.container" },
    { .id = "system.no_driver_given_maybe", .layer = SY, .alternative = 1,
      .match = { CP_PHRASES_INSUFFICIENT_DRIVER },
      .cause = "or no driver was reachable at all: the CUDA runtime reports a libcuda.so.1 it cannot load as a "
               "driver too old (error 35), as in a container started without the NVIDIA runtime or its GPUs "
               "(plain `docker run`, a template whose NVIDIA variables are unset or mistyped)",
      .fix = "where nvidia-smi in the same place fails or is missing, give it the GPUs (docker run --gpus all or "
             "--runtime=nvidia with NVIDIA_VISIBLE_DEVICES=all and NVIDIA_DRIVER_CAPABILITIES=compute,utility, "
             "compose's device reservations, the nvidia runtime class); where it works, compare its CUDA "
             "Version with the runtime's",
      .check = "system.container" },
    { .id = "driver.host_video_libs_maybe", .layer = DR, .alternative = 1, .context = CP_CONTEXT_CONTAINER,
      .match = { "Cannot load libnvcuvid", "Cannot load libnvidia-encode", "libnvcuvid.so.1: cannot open shared object file",
                 "libnvidia-encode.so.1: cannot open shared object file" },
      .cause = "or the host's driver has no video libraries to give the container: the server and headless "
               "driver packages (nvidia-headless-NNN-server, some cloud images) ship no libnvidia-encode or "
               "libnvcuvid (libnvidia-decode)",
      .fix = "on the host: ls /usr/lib/x86_64-linux-gnu/libnvidia-encode.so* libnvcuvid.so*; install "
             "libnvidia-encode-NNN and libnvidia-decode-NNN of the driver's branch (or the full driver package)",
      .check = "driver.libcuda" },
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
