/*
 * Explain rows for framework messages: PyTorch, JAX, TensorFlow and CuPy.
 * The CUDA error a framework wraps is matched by signals_cuda.c as well.
 *
 * To add a row: see signals_cuda.c.
 */
#include "signals.h"

#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER
#define RT CP_LAYER_RUNTIME
#define LI CP_LAYER_LIBRARIES
#define FW CP_LAYER_FRAMEWORK
#define AP CP_LAYER_APPLICATION

/* A framework's "no GPU" printed bare: the user's own check (torch.cuda.is_available(), TensorFlow's
 * tutorial count), a trainer's start-up line (Lightning's "GPU available: False") or a launcher's test
 * of torch.cuda.is_available(). */
#define NO_GPU_SEEN "torch.cuda.is_available() False", "is_available() returns False", \
    "is_available() returned False", "is_available() is False", "is_available() returning False", \
    "is_available(): False", "is_available() = False", "is_available() -> False", "is_available()=False", \
    "CUDA available: False", "CUDA is available: False", "cuda_available: False", \
    "GPU available: False", "GPU is NOT AVAILABLE", "Num GPUs Available: 0", "Num GPUs Available:  0", \
    "Torch is not able to use GPU" /* stable-diffusion-webui's launcher */

const cp_signal cp_signals_frameworks[] = {
    { .id = "torch.oom", .layer = AP,
      .match = { "CUDA out of memory. Tried to allocate", "torch.OutOfMemoryError", "torch.cuda.OutOfMemoryError" },
      .cause = "PyTorch could not allocate GPU memory: the model, batch or cached blocks need more than is free",
      .fix = "lower the batch size or sequence length, use mixed precision or gradient checkpointing; if much is reserved but unallocated, set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
      .check = "system.memory_headroom", .extract = CP_EXTRACT_OOM },
    { .id = "system.oom_other_processes", .layer = SY, .value = CP_VALUE_OOM_OTHERS, .replaces_line = 1,
      .match = { "CUDA out of memory. Tried to allocate", "Tried to allocate" /* a paste cut before it */ },
      .cause = "the GPU is full, but not with this process's memory: its sizes leave over half the GPU held by "
               "other processes (another job, a notebook kernel left running, a zombie after a crash, or this "
               "job's other ranks all placed on the same GPU)",
      .fix = "nvidia-smi (or nvidia-smi --query-compute-apps=pid,used_memory --format=csv) lists who holds it: "
             "stop them, or give this job a free GPU (CUDA_VISIBLE_DEVICES); where they are this job's own ranks, "
             "each must take its own GPU (torch.cuda.set_device(local_rank) before any CUDA work)",
      .check = "system.memory_holders", .extract = CP_EXTRACT_OOM },
    /* the same cut before its sizes, in a server that sizes its pools from the whole GPU (vLLM's
     * gpu_memory_utilization is a share of the total): where the sizes are there, the row above reads them */
    { .id = "system.server_memory_taken_maybe", .layer = SY, .alternative = 1, .context = CP_CONTEXT_SERVING_KERNELS,
      .match = { "CUDA out of memory. Tried to allocate" }, .unless = "capacity",
      .cause = "or another process holds part of this GPU: a server that plans its KV cache as a share of the GPU's "
               "whole memory (vLLM's gpu_memory_utilization) runs out where a second process, often another server "
               "on the same GPU, took what the plan counted on",
      .fix = "nvidia-smi --query-compute-apps=pid,used_memory --format=csv lists who holds it: give each server its "
             "own GPU (CUDA_VISIBLE_DEVICES), or lower --gpu-memory-utilization to leave the others' share",
      .check = "system.memory_holders" },
    { .id = "torch.alloc_conf", .layer = FW,
      .match = { "expandable_segments", "Unrecognized CachingAllocator option", "expandable_segment_ INTERNAL ASSERT" },
      .unless = "Tried to allocate",
      .cause = "PyTorch rejected or tripped over a PYTORCH_CUDA_ALLOC_CONF setting: an option this version does not know (a typo, a wrong separator, a value such as a path), or expandable_segments where this platform or version does not support it or has a bug",
      .fix = "check the variable (echo $PYTORCH_CUDA_ALLOC_CONF; `set` on Windows): it takes key:value pairs joined by commas (max_split_size_mb:128,expandable_segments:True); drop unknown options, and drop expandable_segments if PyTorch says it is unsupported or asserts on it (or upgrade PyTorch)",
      .check = "framework.cuda" },
    { .id = "torch.no_driver", .layer = DR, .match = { "Found no NVIDIA driver on your system" },
      .cause = "PyTorch found no libcuda.so.1: no NVIDIA driver, or a container started without GPU support",
      .fix = "install the NVIDIA driver (check with nvidia-smi); in a container use --gpus all",
      .check = "driver.libcuda" },
    /* the same messages on a machine with no NVIDIA GPU at all (a laptop, a Mac, a CPU-only server or runtime) */
    { .id = "application.cuda_asked_without_gpu_maybe", .layer = AP, .alternative = 1,
      .match = { "Found no NVIDIA driver on your system", "Torch not compiled with CUDA enabled" },
      .cause = "or the machine has no NVIDIA GPU (a laptop's integrated or AMD graphics, a Mac, a CPU-only server "
               "or notebook runtime) and the program asks for CUDA all the same: a .cuda() call, device=\"cuda\", "
               "a checkpoint loaded to the GPU",
      .fix = "where lspci | grep -i nvidia shows nothing, run on the CPU: the program's --device cpu or --cpu flag, "
             "device = \"cuda\" if torch.cuda.is_available() else \"cpu\", torch.load(..., map_location=\"cpu\") "
             "in place of the .cuda() calls; on a Mac, device \"mps\" (Apple's GPU) or the CPU",
      .check = "hardware.pci_gpu" },
    { .id = "torch.cudnn_version", .layer = LI,
      .match = { "cuDNN version incompatibility", "cuDNN version mismatch: PyTorch was compiled against" },
      .cause = "PyTorch loaded a cuDNN other than the one it was built with: an older copy on LD_LIBRARY_PATH (a system CUDA or "
               "conda cudnn) shadows the cuDNN its wheel brings",
      .fix = "remove the other cuDNN's directory from LD_LIBRARY_PATH (or uninstall the conda/system cudnn) so PyTorch finds its "
             "bundled one, or install the cuDNN release the message names",
      .check = "libraries.shadow" },
    { .id = "torch.driver_too_old", .layer = DR, .match = { "The NVIDIA driver on your system is too old" },
      .cause = "the driver is older than the CUDA version this PyTorch build was compiled with",
      .fix = "upgrade the driver, or install the PyTorch wheel for an older CUDA (e.g. the cu118 or cu121 index)",
      .check = "framework.cuda" },
    { .id = "torch.arch_unsupported", .layer = FW,
      .match = { "is not compatible with the current PyTorch installation",
                 "PyTorch no longer supports this GPU because it is too old",
                 "The minimum cuda capability supported by this library is", "The minimum cuda capability that we support is" },
      .cause = "this PyTorch build has no kernels for the GPU's compute capability (GPU too new or too old for the wheel)",
      .fix = "install a PyTorch build whose arch list includes this GPU (newer wheel for new GPUs, older release for old GPUs)",
      .check = "framework.arch" },
    { .id = "torch.not_compiled", .layer = FW, .match = { "Torch not compiled with CUDA enabled" },
      .cause = "the installed PyTorch is a CPU-only build",
      .fix = "install a CUDA build of PyTorch (pip install torch --index-url https://download.pytorch.org/whl/cuXXX)",
      .check = "framework.cuda" },
    { .id = "torch.cuda_unknown_init", .layer = DR,
      .match = { "CUDA unknown error - this may be due to an incorrectly set up environment" },
      .cause = "cuInit failed with an unknown error: often CUDA_VISIBLE_DEVICES changed after start, nvidia_uvm not loaded, or a driver left broken by a suspend or upgrade",
      .fix = "load nvidia_uvm (sudo modprobe nvidia_uvm), set CUDA_VISIBLE_DEVICES before the program starts, or reboot after a driver upgrade",
      .check = "driver.cuinit" },
    { .id = "torch.driver_init_failed", .layer = DR,
      .match = { "CUDA driver initialization failed, you might not have a CUDA gpu" },
      .cause = "PyTorch's cuInit failed: the driver's libcuda could not initialise the GPU (no GPU visible to "
               "this process, the kernel module not loaded or of another version than libcuda, nvidia_uvm "
               "missing, or a container started without the GPU)",
      .fix = "run `nvidia-smi` and `cuprobe doctor` where the program runs; load the module (sudo modprobe nvidia "
             "nvidia_uvm), match libcuda to the loaded module (reboot after a driver update), or start the "
             "container with --gpus all",
      .check = "driver.cuinit" },
    { .id = "torch.device_index", .layer = CP_LAYER_SYSTEM, .match = { "device >= 0 && device < num_gpus" },
      .cause = "the program asked for a GPU index this process does not have: CUDA_VISIBLE_DEVICES (or the "
               "scheduler's GPU binding) shows fewer GPUs than the index, local_rank or device_map assumes",
      .fix = "check `echo $CUDA_VISIBLE_DEVICES` and `nvidia-smi -L` where it runs; count from 0 over the visible "
             "GPUs only, and start as many ranks per node as GPUs it is given (torchrun --nproc-per-node)",
      .check = "driver.devices" },
    { .id = "torch.device_count_error", .layer = DR, .match = { "Unexpected error from cudaGetDeviceCount()" },
      .cause = "PyTorch could not count the GPUs: the CUDA driver failed to initialise (the error number it gives says why)",
      .fix = "look at the error number in the message (803: driver versions differ, 804: cuda-compat on an unsupported GPU) and run `cuprobe doctor`",
      .check = "driver.cuinit" },
    { .id = "jax.cpu_jaxlib", .layer = FW, .match = { "a CUDA-enabled jaxlib is not installed" },
      .cause = "JAX is installed without its CUDA plugin, so it runs on the CPU",
      .fix = "install the CUDA build: pip install -U \"jax[cuda12]\" (or cuda13)",
      .check = "framework.found" },
    { .id = "jax.backend_init", .layer = FW,
      .match = { "Unable to initialize backend 'cuda'", "CUDA backend failed to initialize",
                 "Backend 'cuda' failed to initialize", "Backend 'gpu' failed to initialize",
                 "Unable to use CUDA because of the following issues" },
      .cause = "JAX could not start its CUDA backend: the rest of the message names the cause (driver too old, missing CUDA libraries, version mismatch)",
      .fix = "read the cause after the colon; check that the jax-cuda plugin's CUDA version is supported by the driver",
      .check = "framework.cuda",
      .notice = 1 },   /* it wraps the cause: the row of the cause ranks first */
    { .id = "jax.no_gpu", .layer = FW, .match = { "No GPU/TPU found, falling back to CPU", "requested, but no platforms that are instances of",
                 "Unknown backend: 'gpu'", "Unknown backend: 'cuda'" },
      .cause = "JAX found no accelerator: a CPU-only jaxlib, or no GPU visible to the process",
      .fix = "install jax[cuda12] and check that nvidia-smi sees the GPU from the same environment",
      .check = "framework.found" },
    /* the framework's build is the usual reason, no working driver the other */
    { .id = "framework.no_gpu_seen", .layer = FW,
      .match = { NO_GPU_SEEN }, .unless = "deserialize object on a CUDA device",   /* torch.deserialize_no_gpu */
      .cause = "the framework sees no GPU and says no more: most often its build has no CUDA (a CPU-only "
               "PyTorch wheel, '+cpu'; TensorFlow 2.11 and later on native Windows, which has no GPU build; a "
               "CPU jaxlib), or the CUDA libraries it loads at start are missing",
      .fix = "ask the framework: python -c \"import torch; print(torch.__version__, torch.version.cuda)\" (None "
             "or +cpu: install the CUDA wheel from pytorch.org's index); TensorFlow: pip install "
             "tensorflow[and-cuda] on Linux, WSL2 on Windows; then nvidia-smi in the same environment",
      .check = "framework.found" },
    { .id = "driver.no_gpu_seen_maybe", .layer = DR, .alternative = 1,
      .match = { NO_GPU_SEEN },
      .cause = "or the framework's build has CUDA but no driver answered it: no NVIDIA driver here, one older than "
               "the framework's CUDA, or (in a container) none passed in",
      .fix = "run nvidia-smi in the same environment: fix what it says (install or upgrade the driver; docker run "
             "--gpus all); its 'CUDA Version' must be at least the framework's (torch.version.cuda)",
      .check = "driver.libcuda" },
    { .id = "torch.deserialize_no_gpu", .layer = AP, .match = { "Attempting to deserialize object on a CUDA device" },
      .cause = "torch.load was given a checkpoint saved from GPU tensors where PyTorch sees no GPU: a CPU-only "
               "machine or PyTorch build, or a process told to use a GPU it does not have",
      .fix = "to load it on the CPU pass map_location=torch.device('cpu') (or map_location='cuda:0' for one GPU); "
             "where a GPU should be seen, python -c \"import torch; print(torch.__version__, "
             "torch.cuda.is_available())\" and nvidia-smi say which part is missing",
      .check = "framework.found" },
    { .id = "framework.wheel_not_found", .layer = FW,
      .match = { "No matching distribution found for torch", "satisfies the requirement torch",
                 "No matching distribution found for tensorflow-gpu", "No matching distribution found for jaxlib",
                 "satisfies the requirement jaxlib", "No matching distribution found for cupy-cuda",
                 "No matching distribution found for onnxruntime-gpu", "No matching distribution found for nvidia-" },
      .cause = "pip found no wheel of that name and version for this Python and platform: the CUDA builds of "
               "PyTorch (+cu118, +cu121...) are on PyTorch's own index, not PyPI; tensorflow-gpu is no longer "
               "published (tensorflow[and-cuda] replaced it); or this Python version or OS has no such wheel",
      .fix = "install from the framework's own index (pip install torch --index-url "
             "https://download.pytorch.org/whl/cu121), use tensorflow[and-cuda] or jax[cuda12], and a Python "
             "version the release supports (python --version against its list)",
      .check = "framework.found" },
    /* the same for any package whose CUDA build has its own name (spconv-cu114, paddlepaddle-gpu) */
    { .id = "framework.cuda_wheel_not_found", .layer = FW, .fallback = 1,
      .match = { "No matching distribution found for" },
      .also = { "-cu1", "-cuda1", "+cu1", "-gpu" },
      .cause = "pip found no build of this CUDA package for this Python, platform or CUDA: many projects publish "
               "their CUDA wheels (NAME-cuXXX, NAME-gpu) for x86-64 Linux and a few Python versions only, none "
               "for Jetson's aarch64 or for every CUDA, or only on their own index",
      .fix = "read the project's table of wheels for this platform, Python and CUDA: install from its own index "
             "or find-links page, use a Python it lists, or build it from source (on a Jetson, build it there)",
      .check = "framework.found" },
    { .id = "tf.dlopen", .layer = LI, .match = { "Could not load dynamic library" },
      .unless = "libnvinfer",                 /* TensorRT, optional: TensorFlow warns of it at every start */
      .cause = "TensorFlow could not load a CUDA library it needs; the GPU will not be used",
      .fix = "install the CUDA and cuDNN versions this TensorFlow release was built for (pip install tensorflow[and-cuda])",
      .check = "framework.libs", .extract = CP_EXTRACT_SONAME },
    { .id = "tf.cannot_dlopen", .layer = FW, .match = { "Cannot dlopen some GPU libraries", "Skipping registering GPU devices" },
      .cause = "TensorFlow is skipping the GPU because some CUDA libraries failed to load (the lines above name them)",
      .fix = "install the CUDA libraries named above for this TensorFlow release (pip install tensorflow[and-cuda])",
      .check = "framework.libs" },
    { .id = "cupy.not_installed", .layer = FW,
      .match = { "CuPy is not correctly installed", "make sure that the version of CuPy you installed matches",
                 "Failed to import CuPy", "multiple CuPy packages are installed" },
      .cause = "the CuPy wheel does not match the CUDA on this machine, or its CUDA libraries are missing",
      .fix = "install the cupy-cudaXXx wheel that matches the CUDA major the driver supports",
      .check = "framework.libs" },
    { .id = "cupy.optional_library", .layer = LI,
      .match = { "cutensor library could not be loaded", "nccl library could not be loaded",
                 "cusparselt library could not be loaded", "cudnn library could not be loaded" },
      .cause = "CuPy could not load an optional CUDA library (cuTENSOR, NCCL, cuSPARSELt, cuDNN) of the version it "
               "was built for; the features that need it fail, the rest works",
      .fix = "install the library the warning names for this CUDA major (it prints the pip or conda command), or "
             "ignore it if nothing needs that library",
      .check = "framework.libs" },
    { .id = "numba.cuda_disabled", .layer = FW, .match = { "CUDA is disabled due to setting NUMBA_DISABLE_CUDA" },
      .cause = "Numba's CUDA target is switched off: NUMBA_DISABLE_CUDA=1 is set in the environment (or in "
               ".numba_config.yaml), or the Python is 32-bit",
      .fix = "unset NUMBA_DISABLE_CUDA (look in the image's or job's environment and .numba_config.yaml) and use a "
             "64-bit Python",
      .check = NULL },
    { .id = "numba.gpu_too_old", .layer = FW, .match = { "has compute capability < (" },
      .cause = "this GPU's compute capability is below the lowest the installed Numba (or numba-cuda) supports",
      .fix = "run on a newer GPU, or pin an older Numba and CUDA toolkit that still support this architecture",
      .check = "framework.arch" },
    /* torch's own DLLs on Windows: torch/__init__.py's _load_dll_libraries names the one that failed */
    { .id = "framework.torch_windows_dll", .layer = FW, .match = { "Error loading \"" },
      .also = { "torch\\lib\\" }, .unless = "WinError 1455",   /* the paging file: system.windows_pagefile */
      .cause = "Windows could not load one of torch's own DLLs (shm.dll, c10.dll, torch_cuda.dll) or a DLL it "
               "needs: a wheel shipped without some of its DLLs (cuDNN's in a broken nightly), the Microsoft "
               "Visual C++ Redistributable missing, or another folder on PATH holding an older copy of one",
      .fix = "reinstall torch (pip install --force-reinstall torch from the index of its CUDA), install the current "
             "Visual C++ Redistributable (x64), and check with `where` that no other folder on PATH holds cudnn*, "
             "cublas* or libiomp5md DLLs; for a nightly, take an older one",
      .check = "framework.found" },
    /* every libcuda has cuInit: a "driver" without it is another library */
    { .id = "system.cuda_driver_path_not_libcuda", .layer = SY, .match = { "missing function: cuInit" },
      .cause = "the library loaded as the CUDA driver has no cuInit, so it is not the driver's libcuda at all: "
               "NUMBA_CUDA_DRIVER (NUMBAPRO_CUDA_DRIVER in old releases) or the program's own setting names "
               "libcudart or another CUDA library instead",
      .fix = "unset that variable, or point it at the driver's library (/usr/lib/x86_64-linux-gnu/libcuda.so.1, "
             "/usr/lib64/libcuda.so.1; nvcuda.dll on Windows), then try again",
      .check = "driver.libcuda" },
    /* a tool telling the driver is too old for it, in its own words (a fallback) */
    { .id = "driver.too_old", .layer = CP_LAYER_DRIVER, .fallback = 1,
      .match = { "Driver does not support the required", "minimum required Nvidia driver", "Please update your GPU driver",
                 "please update your NVIDIA driver", "requires a newer NVIDIA driver", "requires a newer driver",
                 "NVIDIA driver is too old", "driver version is too old", "update your NVIDIA driver",
                 "Driver missing function:" /* Numba: libcuda lacks an entry point */, "old CUDA driver detected",
                 "Outdated NVIDIA CUDA driver version", "driver does not support this NVENC version",
                 "Current driver version does not support this NVENC",
                 "Unsupported PTX version" /* Blender Cycles: PTX newer than the driver's JIT */ },
      .cause = "the program (or a library in it: a video encoder, a CUDA runtime, a server) needs a newer NVIDIA "
               "driver than the one installed: each CUDA, NVENC or library release has a minimum driver",
      .fix = "install a driver at least as new as the one it names (the CUDA toolkit release notes' table for "
             "CUDA; the Video Codec SDK's for NVENC), or use a build of the program made for the older driver",
      .check = "runtime.driver_compat" },
    { .id = "mxnet.no_cuda", .layer = CP_LAYER_FRAMEWORK, .match = { "Compile with USE_CUDA=1 to enable GPU usage" },
      .cause = "this MXNet build (libmxnet.so of the pip, conda or R package installed) has no CUDA: asking for a GPU "
               "context fails whatever the machine has",
      .fix = "install a CUDA build of MXNet for this CUDA (mxnet-cu1xx wheels, or build it with USE_CUDA=1 "
             "USE_CUDNN=1; for R, build the R package against that library)",
      .check = "framework.cuda" },
    { .id = "opencv.no_cuda", .layer = CP_LAYER_FRAMEWORK,
      .match = { "DNN module was not built with CUDA backend", "OpenCV was built without CUDA support",
                 "is not compiled with CUDA support", "OpenCV was not built to work with the selected device",
                 "The called functionality is disabled for current build or platform" },
      .cause = "this OpenCV build has no CUDA backend (the pip wheels opencv-python and opencv-contrib-python have "
               "none), so it runs on the CPU",
      .fix = "build OpenCV with -DWITH_CUDA=ON -DWITH_CUDNN=ON -DOPENCV_DNN_CUDA=ON for this GPU's CUDA_ARCH_BIN, "
             "or install a CUDA build of it (some conda channels, NVIDIA's containers)",
      .check = NULL },
    { .id = "dgl.cpu_build", .layer = FW,
      .match = { "Device API cuda is not enabled", "Device API gpu is not enabled" /* DGL 0.x */ },
      .cause = "the installed DGL is its CPU-only build (pip's plain dgl), so it has no CUDA device API",
      .fix = "install DGL's CUDA build for this torch and CUDA from DGL's own wheel index (dgl==VER+cuXXX, -f "
             "https://data.dgl.ai/wheels/torch-X.Y/cuXXX/repo.html)",
      .check = "framework.cuda" },
    /* CUDA's invalid device ordinal, read from the program's side: it asks for a GPU index beyond those it has */
    { .id = "application.device_index_maybe", .layer = AP, .alternative = 1,
      .match = { "invalid device ordinal" },        /* the runtime's words; the enum names stay one reading */
      .cause = "or the program asks for more GPUs, or a higher GPU index, than the machine has: more ranks or "
               "model-parallel parts (nproc_per_node, MP, tensor_parallel_size) than GPUs, or a hard-coded cuda:N",
      .fix = "match the launch to the GPUs there are (nvidia-smi -L; torch.cuda.device_count()): fewer ranks or "
             "model-parallel parts, a checkpoint split for that many GPUs, or device indices below the count",
      .check = "system.visibility" },
    { .id = "cuda.forked_child", .layer = AP,
      .match = { "Cannot re-initialize CUDA in forked subprocess", "CUDA initialized before forking" },
      .cause = "the program forked worker processes (multiprocessing's default start method on Linux, DataLoader "
               "workers, a server's worker pool) after CUDA was initialised in the parent: a forked child cannot "
               "use the parent's CUDA context",
      .fix = "start the workers with the spawn method (multiprocessing.set_start_method('spawn'), "
             "torch.multiprocessing with spawn, a server's option for spawned workers) or initialise CUDA only "
             "inside each worker",
      .check = NULL },
    /* the same, where the workers are the framework's own: it initialised CUDA before forking them */
    { .id = "framework.forks_after_cuda_maybe", .layer = FW, .alternative = 1,
      .match = { "Cannot re-initialize CUDA in forked subprocess" },
      .cause = "or the framework or server forks its own workers after something it imports initialised CUDA "
               "(vLLM 0.5 with flash-attn installed, a serving stack's worker pool): the program did not ask for "
               "the fork",
      .fix = "take the framework's release that fixes it, or its own switch for spawned workers "
             "(VLLM_WORKER_MULTIPROC_METHOD=spawn); uninstalling the package that initialises CUDA on import "
             "also works",
      .check = NULL },
    { .id = "torchvision.ops_mismatch", .layer = FW,
      .match = { "Couldn't load custom C++ ops", "PyTorch and torchvision versions are incompatible" },
      .cause = "torchvision's compiled operators (nms, roi_align) were built for another torch release or CUDA "
               "than the torch installed beside it",
      .fix = "install the torchvision release paired with this torch, from the same index (pip install "
             "torch==X torchvision==Y --index-url https://download.pytorch.org/whl/cuXXX)",
      .check = "framework.libs" },
    { .id = "tf.no_cuda_driver", .layer = DR, .match = { "Could not find cuda drivers on your machine" },
      .cause = "TensorFlow could not load libcuda, the driver's user-space library: no NVIDIA driver in this "
               "machine, VM or container, or libcuda.so.1 not on the loader's path (WSL: /usr/lib/wsl/lib), so "
               "it runs on the CPU",
      .fix = "make nvidia-smi work in the same environment first (install the driver; start containers with "
             "--gpus all); then pip install tensorflow[and-cuda] for the CUDA libraries",
      .check = "driver.libcuda" },
/* a PTX assembler refusing a newer PTX ISA, in its words; not XLA's own ptxas (xla.ptxas_failed) */
#define CP_PHRASES_PTX_TOO_NEW "Unsupported .version"
#define CP_ALSO_PTX_TOO_NEW "current version is"
#define CP_UNLESS_PTX_TOO_NEW "ptxas exited"
    { .id = "cuda.ptx_too_new", .layer = CP_LAYER_DRIVER, .match = { CP_PHRASES_PTX_TOO_NEW },
      .also = { CP_ALSO_PTX_TOO_NEW }, .unless = CP_UNLESS_PTX_TOO_NEW,
      .fallback = 1,                          /* a toolkit's ptxas on a file: build.ptxas_ptx_too_new */
      .cause = "the PTX declares a newer PTX ISA version than the assembler reading it supports: in a JIT (Numba, "
               "cuLinkAddData, a framework loading PTX) that is the driver's, older than the toolkit that wrote "
               "the PTX; from a toolkit's own ptxas, that toolkit is the older one",
      .fix = "update the NVIDIA driver to one that supports the CUDA version that generated the PTX (or generate "
             "it with an older toolkit / Numba's matching CUDA); for a toolkit's ptxas, use the newer toolkit",
      .check = "runtime.driver_compat" },
    /* the same, read from the toolkit's side: where the driver stays, the PTX must come from an older CUDA */
    { .id = "runtime.ptx_toolkit_newer_maybe", .layer = RT, .alternative = 1, .match = { CP_PHRASES_PTX_TOO_NEW },
      .also = { CP_ALSO_PTX_TOO_NEW }, .unless = CP_UNLESS_PTX_TOO_NEW,
      .cause = "or the toolkit that wrote the PTX (conda's cudatoolkit under Numba or CuPy, CUDA_HOME's nvcc) is "
               "newer than this driver can take, where the driver cannot change (a cluster, an old GPU's last "
               "branch)",
      .fix = "use the toolkit of the CUDA version the driver supports (`nvidia-smi` shows it): conda install "
             "cudatoolkit=X.Y or the cuda-nvcc of that version, or point CUDA_HOME at it",
      .check = "runtime.driver_compat" },
    { .id = "tf.bfc_oom", .layer = AP,
      .match = { "ran out of memory trying to allocate", "OOM when allocating tensor" },
      .cause = "TensorFlow's or JAX's GPU allocator (BFC) found no free block this large: the model, its batch "
               "or another process on the GPU uses the device's memory (JAX preallocates 75 % of it by default)",
      .fix = "lower the batch size or model size; let TensorFlow grow its memory "
             "(TF_FORCE_GPU_ALLOW_GROWTH=true) or JAX allocate on demand (XLA_PYTHON_CLIENT_PREALLOCATE=false, "
             "XLA_PYTHON_CLIENT_MEM_FRACTION); free the GPU of other processes",
      .check = "system.memory_headroom" },
    { .id = "tf.bfc_fragmentation", .layer = AP, .notice = 1,
      .match = { "Garbage collection: deallocate free memory regions" },
      .cause = "the GPU allocator ran so close to the memory limit that it freed and remade regions to avoid "
               "running out: the program is at the edge of the GPU's memory",
      .fix = "lower the batch size, or let the allocator grow on demand (TF_FORCE_GPU_ALLOW_GROWTH=true, "
             "TF_GPU_ALLOCATOR=cuda_malloc_async)",
      .check = "system.memory_headroom" },
    { .id = "driver.dso_mismatch", .layer = DR,
      .match = { "does not match DSO version", "cannot find working devices in this configuration" },
      .cause = "the libcuda a framework loaded is of another driver release than the kernel module running "
               "(/proc/driver/nvidia/version): a driver upgrade without a reboot, or an image that carries its "
               "own libcuda",
      .fix = "reboot after the driver upgrade (or reload the modules); in a container remove the image's own "
             "libcuda.so* so the host's is mounted in",
      .check = "driver.version_match" },
    { .id = "system.torch_store_bind", .layer = SY,
      .match = { "The server socket has failed to bind to" },
      .cause = "rank 0's rendezvous store (c10d TCPStore) cannot listen on MASTER_PORT: another job, or a "
               "previous torchrun left running, holds the port",
      .fix = "pick another MASTER_PORT (or --rdzv-endpoint port), or end the process holding it (ss -ltnp | "
             "grep PORT)",
      .check = NULL },
    { .id = "system.torch_store_connect", .layer = SY,
      .match = { "The client socket has failed to connect to",
                 "The client socket has timed out after", "seconds waiting for clients.",
                 "DistStoreError: Socket Timeout", "workers but somaxconn is" },
      .cause = "the ranks could not meet at the rendezvous store (MASTER_ADDR:MASTER_PORT): rank 0 is not "
               "running or died, a rank uses another address, port or WORLD_SIZE, a firewall or interface "
               "blocks the port, or ranks never started",
      .fix = "check that every rank has the same MASTER_ADDR, MASTER_PORT and WORLD_SIZE, that rank 0 is up, "
             "and that the port is reachable from each node (nc -zv ADDR PORT); open the port or pick the right "
             "interface",
      .check = NULL },
    { .id = "torch.triton_missing", .layer = FW,
      .match = { "Cannot find a working triton installation" },
      .cause = "torch.compile (inductor) needs Triton for GPU code and finds no triton matching this torch: not "
               "installed (Windows, CPU or source builds), or another version than the one torch was released "
               "with",
      .fix = "install the triton paired with this torch (pip install torch from the PyTorch index pulls it), or "
             "compile with another backend (torch.compile(backend='eager' or 'aot_eager'))",
      .check = "framework.cuda" },
    /* a notice, normal in a build without a GPU (docker build): it says why beside a fault */
    { .id = "build.no_gpu_at_build", .layer = FW, .notice = 1, .informational = 1,
      .match = { "No CUDA runtime is found, using CUDA_HOME=" },
      .cause = "torch.utils.cpp_extension found a toolkit but torch sees no GPU: a CPU-only torch wheel, or a "
               "build where no GPU is visible (docker build, a login node), so it cannot pick the GPU's "
               "architecture",
      .fix = "install a CUDA build of torch; when building without a GPU set TORCH_CUDA_ARCH_LIST to the GPUs' "
             "architectures (e.g. \"8.0;9.0\")",
      .check = "framework.cuda" },
/* cpp_extension's _get_cuda_arch_flags on an empty list, in the traceback */
#define CP_PHRASES_EMPTY_ARCH_LIST "arch_list[-1] += '+PTX'"
    { .id = "build.no_gpu_arch_list", .layer = FW, .match = { CP_PHRASES_EMPTY_ARCH_LIST },
      .cause = "torch.utils.cpp_extension had no architecture to compile the extension for: torch sees no GPU "
               "(a CPU-only torch, or a machine or build step without one) and TORCH_CUDA_ARCH_LIST is not "
               "set, so its list is empty (IndexError: list index out of range)",
      .fix = "build where torch sees the GPU (a CUDA build of torch, a GPU runtime or node), or set "
             "TORCH_CUDA_ARCH_LIST to the target GPUs' architectures (e.g. \"8.0;8.6;9.0\") before building",
      .check = "framework.cuda" },
    /* the same, read from the project's side: its own build step runs where no GPU is */
    { .id = "application.build_step_no_gpu_maybe", .layer = CP_LAYER_APPLICATION, .alternative = 1,
      .match = { CP_PHRASES_EMPTY_ARCH_LIST },
      .cause = "or it is the project's own build step that runs without a GPU (a Dockerfile's RUN, a CI job, a "
               "notebook's setup cell on a CPU runtime): `docker build` never sees the GPU, so the step must name "
               "the architectures itself",
      .fix = "set TORCH_CUDA_ARCH_LIST in the build step (ARG/ENV TORCH_CUDA_ARCH_LIST=\"8.0;8.6;9.0\" in the "
             "Dockerfile, or the job's environment), or build the extension at first start, on the GPU",
      .check = NULL },
    { .id = "build.compiler_not_torchs", .layer = RT, .notice = 1,
      .match = { "is not compatible with the compiler Pytorch",
                 "may be ABI-incompatible with PyTorch" },
      .cause = "the host compiler the extension is built with is not the one PyTorch was built with (or too old "
               "for its ABI), so the extension may fail to build or to load",
      .fix = "build with g++ (Linux) or clang (macOS) of a version this CUDA toolkit supports: CXX=g++ or "
             "CC/CXX pointing at it",
      .check = NULL },
    { .id = "build.no_cxx_compiler", .layer = RT,
      .match = { "No working C++ compiler found in" },
      .cause = "torch.compile needs a host C++ compiler (for its CPU kernels and wrappers) and finds none: a "
               "slim container, or Windows without MSVC",
      .fix = "install one (apt install g++, or the Visual Studio build tools on Windows) or point CXX at it",
      .check = NULL },
    { .id = "jax.cudnn_9100", .layer = LI,
      .match = { "cuDNN 9.10.0 had a binary backward-compatibility issue" },
      .cause = "the cuDNN loaded is 9.10.0, which broke binary compatibility with programs built against other "
               "9.x releases, so JAX will not use it",
      .fix = "install another cuDNN 9 (pip install -U nvidia-cudnn-cu12, 9.10.1 or newer) and check which copy "
             "is loaded first (LD_LIBRARY_PATH, conda)",
      .check = "framework.libs" },
    { .id = "jax.cublas_tmem", .layer = LI, .notice = 1,
      .match = { "has a known issue where many kernels free TMEM buffers" },
      .cause = "on a Blackwell GPU this cuBLAS release has a known bug in freeing tensor memory that can "
               "corrupt results when kernels run concurrently",
      .fix = "install the cuBLAS release JAX names as fixed (pip install -U nvidia-cublas-cu12 or -cu13)",
      .check = "framework.libs" },
    { .id = "torch.store_no_libuv", .layer = FW,
      .match = { "PyTorch was build without libuv support" },
      .cause = "the libuv TCPStore (PyTorch's default since 2.4) was asked for but this torch build (Windows, "
               "some source or conda builds) has no libuv",
      .fix = "set USE_LIBUV=0 in the environment (or use_libuv=False for the store), or install a torch build "
             "with libuv",
      .check = NULL },
    { .id = "torch.no_nccl", .layer = FW,
      .match = { "Distributed package doesn't have NCCL built in" },
      .cause = "this torch build has no NCCL (the Windows and macOS builds, CPU wheels, some source builds), so "
               "the nccl backend cannot be used",
      .fix = "on Linux install a CUDA build of torch (it bundles NCCL); on Windows use the gloo backend "
             "(init_process_group('gloo')) or WSL 2",
      .check = "framework.cuda" },
    { .id = "torch.deterministic_cublas", .layer = AP,
      .match = { "this operation is not deterministic because it uses CuBLAS" },
      .cause = "the program asked for deterministic algorithms (torch.use_deterministic_algorithms(True)), and "
               "cuBLAS is deterministic only with a fixed workspace configuration, which is not set",
      .fix = "set CUBLAS_WORKSPACE_CONFIG=:4096:8 (or :16:8) in the environment before the program starts, or "
             "drop the deterministic setting",
      .check = NULL },
    { .id = "tf.devices_initialized", .layer = AP,
      .match = { "Physical devices cannot be modified after being initialized",
                 "Virtual devices cannot be modified after being initialized" },
      .cause = "the program set GPU options (memory growth, visible devices, virtual devices) after TensorFlow "
               "had already initialised the GPUs",
      .fix = "call tf.config.experimental.set_memory_growth / set_visible_devices at the very start, before any "
             "tensor or model is created",
      .check = NULL },
    { .id = NULL }
};
