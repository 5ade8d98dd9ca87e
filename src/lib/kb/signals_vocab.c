/*
 * Explain's last tier: the components of the stack by name.  A text whose
 * sentences no row knows often still names the component that failed
 * ("Error! ... /var/lib/dkms/nvidia/418.../make.log", "gpumounter: could
 * not load NVML", "cuvid: cannot load libnvcuvid").  A row here is such a
 * name on a line that says something failed (cp_failure_words), or next to
 * one, in a text about the GPU stack (the context.gpu markers); it counts
 * only where the text has no other signal, and then only the lowest layer's
 * of the most closely confirmed (the stack model: the lowest broken layer
 * is the one to fix first).  Its cause and its `named` mark say so, so the
 * reading is never mistaken for a known message.
 *
 * Names are the components' own (module, library, tool and package names),
 * each living in one layer; words several layers share ("driver", "CUDA",
 * "GPU", "memory") are none of them.  Rows of components frameworks and
 * servers print beside healthy work (torch, vllm) also ask for "cuda" or
 * "gpu" on the line.
 *
 * To add a row: see signals_cuda.c; a name here must not be a known
 * message (that is a row of its own table).
 */
#include "signals.h"

#define HW CP_LAYER_HARDWARE
#define KE CP_LAYER_KERNEL
#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER
#define RT CP_LAYER_RUNTIME
#define LI CP_LAYER_LIBRARIES
#define FW CP_LAYER_FRAMEWORK
#define AP CP_LAYER_APPLICATION

#define C_NAMED "no known message matched; the lines that say something failed name "

/* The driver's user-space side, read as the driver layer, or inside a container as the system layer. */
#define DRIVER_NAMES "libcuda", "libnvidia-ml", "libnvidia", "NVML", "cuInit", "CUDA driver", "NVIDIA driver", \
                     "nvidia-smi", "driver/library", "nvcuvid", "libnvcuvid", "cuvid", "NVENC", "NVDEC", "nvidia-utils", \
                     "nvcuda.dll", "nvlddmkm"

/* Words that say a line reports a failure, matched on word boundaries,
 * where '_' and a case change also start a word ("RuntimeError",
 * "CUFFT_INTERNAL_ERROR"; not "stderr" or "NCCL_ASYNC_ERROR_HANDLING").
 * Lowercase. */
const char *const cp_failure_words[] = {
    "error", "errors", "fail", "failed", "failure", "failing", "fails", "cannot", "can't", "could not",
    "couldn't", "unable", "not found", "no such", "invalid", "mismatch", "not supported", "unsupported",
    "denied", "refused", "timed out", "missing", "incompatible", "fatal", "abort", "aborted", "crash",
    "crashed", "panic", "not available", "unavailable", "unknown", "undefined", "killed", "not detected",
    "not recognized", "segmentation fault", "mismatches", "mismatched", "not set", "not installed",
    "not built", "not compiled", "not enabled", "not initialized", "insufficient", "too old",
    "out of resource", "below the minimum", "falling back to cpu", "fall back to cpu",
    "\xe6\x89\xbe\xe4\xb8\x8d\xe5\x88\xb0" /* 找不到, cannot find: a Chinese locale's ld and tools */,
    "\xe9\x94\x99\xe8\xaf\xaf" /* 错误, error */, "\xe5\xa4\xb1\xe8\xb4\xa5" /* 失败, failed */,
    "\xe6\x97\xa0\xe6\xb3\x95" /* 无法, unable */, NULL
};

/* A line holding one of these is no failure line, whatever its words, and
 * names no component: a log's informational level (NCCL's "Could not find:
 * libnccl-net.so" is its normal fallback, as is its WARN that libibverbs is
 * absent), PyTorch's collect_env leaving a field empty, and Python's errors
 * that are the program's own (a typo, a wrong type), not the stack's.
 * Lowercase. */
const char *const cp_not_failure_phrases[] = {
    "nccl info", "[info]", " info ", "info:", "could not collect", "libibverbs", "attributeerror", "nameerror",
    "syntaxerror", "typeerror", "keyerror", "indexerror",
    "register factory for plugin", "tf-trt warning", "to perform barrier as devices used by this process",
    "this is benign", "xformers not available", "library 'libnvinfer" /* TensorFlow: TensorRT is optional */,
    "successfully opened", "custom allreduce is disabled", "\xe2\x9c\x94" /* a check mark: a check that passed */,
    "\xe2\x9c\x93", "policy cmp0146", "torch_cuda_arch_list is not set", "memcpy nodes are added", "[i:onnxruntime",
    "lazy loading is not enabled", "numa node", "level=warning", "level=info" /* logrus' levels */,
    "(): not supported" /* an NVML getter a board lacks (hashcat's hwmon: nvmlDeviceGetFanSpeed(): Not Supported) */,
    "is not a supported wheel on this platform" /* pip: a wheel's Python or platform tag, not its CUDA */,
    " i tensorflow/" /* TensorFlow's INFO level: "2018-11-06 22:16:20.718059: I tensorflow/core/..." */,
    "strconv.parse" /* a Go program failing to parse a value it read: its own bug */,
    "there are no instances of module" /* DKMS asked to remove a module it does not have: a downgrade's noise */,
    "if cuda is unavailable, run" /* Arch's nvidia-utils install hint: "run 'nvidia-modprobe'" */,
    NULL
};

const cp_signal cp_signals_vocab[] = {
    /* Generic tools (modprobe, DKMS, podman, kubelet) fail for other reasons too: the rows below count
     * only in a text about the GPU stack.  Markers match in any spelling (libcuda, CUDA_HOME). */
    { .id = "context.gpu", .layer = DR, .marks = CP_CONTEXT_GPU,
      .match = { "nvidia", "cuda", " gpu", "gpu ", "gpu:", "gpus", "gpu_", "gpu-", "gpu.", "gpu=", "nvml", "nvcc",
                 "nouveau", "NVRM", "ptxas", "nvrtc", "nvswitch", "fabricmanager", "fabric manager",
                 "fb_memory_usage" /* nvidia-smi -q -x's element */, "dcgm" /* NVIDIA's GPU manager */ },
      .cause = "marks the text as one about the GPU stack", .fix = "-" },
    { .id = "context.gpu_libraries", .layer = DR, .marks = CP_CONTEXT_GPU,
      .match = { "cublas", "cudnn", "nccl", "cufft", "cusolver", "cusparse", "curand", "cupti", "tensorrt",
                 "nvinfer", "[TRT]", "xformers", "flash_attn", "bitsandbytes", "cutlass", "nvenc" },
      .cause = "marks the text as one about the GPU stack (a GPU library named)", .fix = "-" },
    { .id = "named.hardware", .layer = HW, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "fallen off the bus", "PCIe Bus Error", "AER:", "thermal", "overheat", "over temperature",
                 "power cable", "power supply", "PCIe link", "riser", "GPU is lost", "hardware failure",
                 "faulty GPU", "bad GPU", "GPU hardware" },
      .cause = C_NAMED "the GPU's hardware, its PCIe link, power or cooling",
      .fix = "read the kernel log for XIDs and PCIe errors (`sudo dmesg | grep -iE 'nvrm|xid|aer'`) and `nvidia-smi -q` "
             "for temperatures, power and ECC; reseat the GPU and its power cables, try another slot; if it "
             "follows the GPU, RMA",
      .check = "hardware.pci_gpu" },
    { .id = "named.kernel_module", .layer = KE, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .context_absent = CP_CONTEXT_OTHER_DKMS_MODULE,
      .match = { "DKMS", "nvidia.ko", "nvidia-uvm", "nvidia_uvm", "nvidia-drm", "nvidia_drm", "nvidia-modeset",
                 "nvidia_modeset", "kernel module", "kernel modules", "modprobe", "insmod", "nouveau", "kmod",
                 "akmods", "module nvidia", "kmod-nvidia", "nvidia-kmod", "nvidia-open", "vermagic",
                 "open-gpu-kernel-modules" },
      .also = { "nvidia", "nouveau", "nv-", "/nv", "nvrm" },
      .cause = C_NAMED "the nvidia kernel module: building it (DKMS, akmods), loading it, or the nouveau module in its way",
      .fix = "read the module's build log (DKMS make.log, akmods' .failed.log, /var/log/nvidia-installer.log) or "
             "`sudo dmesg | grep -i nvrm`; install the running kernel's headers and a driver release that "
             "supports this kernel, blacklist nouveau, then `sudo modprobe nvidia`",
      .check = "kernel.nvidia_module" },
    { .id = "named.kernel_boot", .layer = KE, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .context_absent = CP_CONTEXT_OTHER_DKMS_MODULE,     /* the failure is that module's */
      .match = { "Secure Boot", "SecureBoot", "mokutil", "kernel headers", "linux-headers", "kernel-devel",
                 "kernel source", "kernel sources", "GSP firmware", "gsp_", "vmlinux", "initramfs", "dracut",
                 "NVRM" },
      .cause = C_NAMED "the kernel around the nvidia module: its headers, Secure Boot's signature check, the "
                       "initramfs, or the GPU's firmware (GSP) the module loads",
      .fix = "install the headers of the running kernel (`uname -r`), sign the module or disable Secure Boot "
             "(`mokutil --sb-state`), rebuild the initramfs after a driver change, and read "
             "`sudo dmesg | grep -i nvrm` for the module's own reason",
      .check = "kernel.nvidia_module" },
    { .id = "named.container", .layer = SY, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "nvidia-container", "nvidia-docker", "nvidia-ctk", "container toolkit", "container runtime",
                 "--gpus", "runtimeClass", "nvidia runtime", "CDI spec", "CDI device", "podman", "containerd",
                 "singularity", "apptainer", "enroot", "pyxis" },
      .cause = C_NAMED "the container stack between the GPU and the program: the NVIDIA Container Toolkit, the "
                       "engine's runtime or CDI",
      .fix = "check the host first (`nvidia-smi`), then `nvidia-container-cli -k -d /dev/tty info`; install the "
             "NVIDIA Container Toolkit and register it with the engine (`sudo nvidia-ctk runtime configure`), "
             "regenerate CDI specs after a driver change (`nvidia-ctk cdi generate`)",
      .check = "system.container" },
    { .id = "named.orchestration", .layer = SY, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "device plugin", "device-plugin", "gpu-operator", "gpu operator", "feature discovery",
                 "gpu-feature-discovery", "kubelet", "FailedScheduling", "default-scheduler", "nvidia.com/gpu",
                 "MIG device", "MIG mode", "mig-parted", "mig strategy", "mig.strategy", "MIG profile" },
      .cause = C_NAMED "Kubernetes' GPU machinery (the device plugin, the GPU operator and its validators, "
                       "scheduling GPU pods) or MIG's set-up",
      .fix = "read the failing component's own log (the device plugin's or operator's pod); check that the "
             "node's driver works (`nvidia-smi`), that the node advertises what the pod asks for (`kubectl "
             "describe node`: Allocatable), and the MIG layout (`nvidia-smi mig -lgi`)",
      .check = "system.container" },
    { .id = "named.slurm", .layer = SY, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "sbatch", "srun", "salloc", "slurmd", "slurmstepd", "slurmctld", "GRES", "gres.conf",
                 "gres/gpu", "scontrol", "SelectType", "slurm" },
      .cause = C_NAMED "Slurm's GPU scheduling: GRES (gres.conf, the job's --gres/--gpus request), a node's "
                       "state, or its container plugin",
      .fix = "request GPUs as the cluster names them (`sinfo -o '%P %G'`, `scontrol show node`); on the node, "
             "compare gres.conf with what slurmd finds (`slurmd -G`) and read slurmd's log",
      .check = NULL },
    { .id = "named.platform", .layer = SY, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "WSL2", "/usr/lib/wsl", "dxgkrnl", "/dev/dxg", "fabric manager", "fabricmanager",
                 "nv-fabricmanager", "NVSwitch", "nvidia-cuda-mps", "MPS control", "persistenced", "Persistence Daemon", "SELinux",
                 "AppArmor", "vGPU", "passthrough", "/dev/nvidia", "NVIDIA_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
                 "Hyper-V", "VFIO", "IOMMU" },
      .cause = C_NAMED "the platform the GPU is reached through: WSL's GPU paravirtualisation, a VM's passthrough or "
                       "vGPU, the fabric manager of an NVSwitch system, MPS, device nodes or a security policy",
      .fix = "check the platform's own piece: WSL's driver comes from the Windows host (no Linux driver inside), a "
             "vGPU guest needs the guest driver of its host's branch and a licence, NVSwitch systems need "
             "nvidia-fabricmanager of the driver's version running, and /dev/nvidia* must be readable",
      .check = "system.devnode_access" },
    { .id = "named.driver", .layer = DR, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { DRIVER_NAMES },
      .cause = C_NAMED "the NVIDIA driver's user-space side: libcuda, NVML and nvidia-smi, or its video libraries (NVENC, NVDEC)",
      .fix = "run `nvidia-smi` and `cuprobe doctor`: the user-space libraries must be installed (libcuda.so.1, "
             "libnvidia-ml.so.1, libnvcuvid.so.1, libnvidia-encode.so.1) and of the kernel module's version; in a "
             "container, ask for the video or compute capability (NVIDIA_DRIVER_CAPABILITIES)",
      .check = "driver.libcuda" },
    { .id = "named.driver_in_container", .layer = SY, .last_resort = 1,
      .context = CP_CONTEXT_GPU | CP_CONTEXT_CONTAINER,
      .match = { DRIVER_NAMES },
      .cause = C_NAMED "the NVIDIA driver's user-space side inside a container: the container runtime mounts "
                       "those files (libcuda, NVML, nvidia-smi, the video libraries) from the host",
      .fix = "check the host first (`nvidia-smi`); start the container through the NVIDIA Container Toolkit "
             "(--gpus / --runtime=nvidia / CDI, runtimeClassName: nvidia in Kubernetes) with the capabilities "
             "it needs (NVIDIA_DRIVER_CAPABILITIES=compute,utility,video), and regenerate CDI specs after a "
             "driver update",
      .check = "system.container" },
    { .id = "named.toolkit", .layer = RT, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "nvcc", "CUDA_HOME", "CUDA_PATH", "cuda toolkit", "CUDA_TOOLKIT_ROOT_DIR", "cudart", "libcudart",
                 "cuda runtime", "cuda_runtime", "cuda.h", "ptxas", "nvvm", "libnvvm", "CMAKE_CUDA_COMPILER",
                 "FindCUDA", "cuda-compat", "cudart64", "libnvJitLink", "nvJitLink" },
      .cause = C_NAMED "the CUDA toolkit or runtime: nvcc and its tools, the CUDA runtime library, or where a build looks for them",
      .fix = "check which toolkit the build or program finds (`which nvcc`, `nvcc --version`, CUDA_HOME, "
             "`cuprobe doctor`'s runtime layer): one toolkit, of the CUDA the framework was built with, and a "
             "host compiler it supports",
      .check = "runtime.toolkits" },
    { .id = "named.build", .layer = RT, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "host_config.h", "CUDA compiler", "CUDA_ARCHITECTURES", "cpp_extension", "CUDAExtension",
                 "BuildExtension", "-lcudart", "TORCH_CUDA_ARCH_LIST", "cuda_runtime_api.h", "nvcc.exe",
                 "-gencode", "CUDA version", "CUDA_ARCH_LIST", "CMAKE_CUDA_ARCHITECTURES", "cuda_fp16.h",
                 "cuda_bf16.h" },
      .cause = C_NAMED "building CUDA code: the toolkit a build finds, its host compiler, the architectures "
                       "it is asked for, or the CUDA the framework was built with",
      .fix = "build with one toolkit (`nvcc --version`, CUDA_HOME, PATH), of the CUDA the framework was built "
             "with (torch.version.cuda), a host compiler that toolkit supports, and architectures it knows "
             "(TORCH_CUDA_ARCH_LIST, CMAKE_CUDA_ARCHITECTURES)",
      .check = "runtime.toolkits" },
    { .id = "named.cuda_library", .layer = LI, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "cublas", "libcublas", "cublasLt", "libcublasLt", "cudnn", "libcudnn", "nccl", "libnccl", "cufft",
                 "libcufft", "cusolver", "libcusolver", "cusparse", "libcusparse", "curand", "libcurand",
                 "cublas64", "cublasLt64", "cudnn64", "cufft64", "curand64", "cusolver64", "cusparse64", "nccl64",
                 "-lcublas", "-lcudnn", "-lnccl", "-lcufft", "-lcurand", "-lcusolver", "-lcusparse" /* the linker's */ },
      .cause = C_NAMED "a CUDA library (cuBLAS, cuDNN, NCCL, cuFFT, cuSOLVER, cuSPARSE, cuRAND): missing, of "
                       "another CUDA than the program, or failing its call",
      .fix = "find which copy loads (`cuprobe doctor`'s libraries layer, `ldd`, LD_DEBUG=libs) and make it the one "
             "the framework was built with; for NCCL, rerun with NCCL_DEBUG=INFO for its reason",
      .check = "libraries.found" },
    { .id = "named.gpu_library", .layer = LI, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "TensorRT", "libnvinfer", "nvinfer", "nvrtc", "libnvrtc", "cupti", "cutlass",
                 "CUDAExecutionProvider", "onnxruntime", "nvrtc64", "transformer_engine", "nvjpeg",
                 "DALI", "-lnvinfer", "-lnvonnxparser", "-lnvparsers", "-lnvrtc" /* the linker's */ },
      .cause = C_NAMED "a GPU library above the CUDA runtime (TensorRT, NVRTC, CUPTI, ONNX Runtime's CUDA "
                       "provider): missing, built for another CUDA or framework, or failing its call",
      .fix = "install the library's build for this CUDA and framework (its release notes list them), and check "
             "what it loads (`ldd` on its .so, `cuprobe doctor`'s libraries layer)",
      .check = "libraries.load" },
    /* the attention and quantisation packages are the framework's layer (DESIGN.md): their builds */
    { .id = "named.framework_package", .layer = FW, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "bitsandbytes", "flash_attn", "flash-attn", "flash attention", "xformers", "auto_gptq",
                 "exllama" },
      .cause = C_NAMED "an attention or quantisation package built on the framework (xFormers, flash-attention, "
                       "bitsandbytes, AutoGPTQ, exllama): its build for this framework, CUDA and GPU, or its "
                       "kernels failing on this GPU",
      .fix = "install the package's build for this framework release, CUDA and GPU (its wheel's name says them; "
             "a GPU newer than the release may have no kernels yet), or run without it (the framework's own "
             "attention: --use-pytorch-cross-attention, attn_implementation=\"sdpa\")",
      .check = "framework.found" },
    { .id = "named.compute_capability", .layer = FW, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "compute capability", "CUDA capability", "GPU architecture", "compute_", "capability" },
      .also = { "support", "minimum", "at least", "below", "too old", "older", "not compatible", "requires" },
      .cause = C_NAMED "the GPU's compute capability against what a build or feature needs: the framework or "
                       "library carries no code for this GPU, or refuses a feature it lacks (bf16, FlashAttention)",
      .fix = "check the GPU's compute capability (`nvidia-smi --query-gpu=compute_cap --format=csv`) against "
             "the build's list (`cuprobe arch FILE`, torch.cuda.get_arch_list()); use a build that still "
             "carries it, or turn the feature off (float16 for bf16, another attention kernel)",
      .check = "framework.arch" },
    { .id = "named.framework", .layer = FW, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "torch", "pytorch", "libtorch", "torchvision", "torchaudio", "tensorflow", "jaxlib", "jax.",
                 "XLA:", "cupy", "numba", "paddle", "paddlepaddle", "mxnet", "keras", "onnx" },
      .also = { "cuda", "gpu" },
      .cause = C_NAMED "a framework on a line about CUDA or the GPU: its CUDA build, or how the program uses it",
      .fix = "check the framework's build and what it sees (`cuprobe doctor`'s framework layer: its CUDA, its GPU "
             "architectures, the libraries it loads); reinstall its CUDA build for this driver",
      .check = "framework.cuda" },
    { .id = "named.server", .layer = AP, .last_resort = 1, .context = CP_CONTEXT_GPU,
      .match = { "vllm", "sglang", "ollama", "llama.cpp", "ggml", "text-generation-inference", "tritonserver",
                 "KV cache", "gpu_memory_utilization", "gpu-memory-utilization", "mem-fraction", "mem_fraction",
                 "max_model_len", "max-model-len", "text_generation_launcher", "EngineCore" },
      .also = { "cuda", "gpu", "memory", "cache", "device" },
      .cause = C_NAMED "an inference server or its settings for the GPU: what it plans to fit in GPU memory, "
                       "its parallelism, or its CUDA build",
      .fix = "read the server's own sentence above the trace; fit the model to the GPU (a lower memory fraction or "
             "context length, fewer sequences, quantisation, more GPUs) and use the server's build for this "
             "CUDA and GPU",
      .check = "system.memory_headroom" },
    { .id = NULL }
};
