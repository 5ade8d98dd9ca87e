/*
 * Explain rows for CUDA runtime and driver errors, matched by the message
 * cudaGetErrorString prints, the runtime name (cudaErrorX) and the driver
 * name (CUDA_ERROR_X).  Short, common messages ("out of memory", "unknown
 * error") are matched only in the forms CUDA tools print them (behind
 * "CUDA error: ", ": ", "failed: ", "cuda runtime error (N) : ", deviceQuery's
 * "-> ") and, through also, only on a line that says "cuda", so an unrelated
 * log line does not fire.  The runtime numbers in such lines changed in CUDA
 * 10.1 (old: 30 unknown, 74 misaligned), so numbers are matched only where
 * both numberings agree or are spelled out.
 *
 * To add a row: give it a stable id, the lowest layer where the cause lives,
 * phrases of at least 4 bytes, and the doctor check that confirms it; put at
 * least one real example in tests/explain-corpus/.  cu_code claims the
 * CUresult so signals.c makes no generic row for its name.
 */
#include "signals.h"

#define HW CP_LAYER_HARDWARE
#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER
#define RT CP_LAYER_RUNTIME
#define FW CP_LAYER_FRAMEWORK
#define AP CP_LAYER_APPLICATION

#define F_STICKY "the process must exit; rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel, then " \
                 "run it under compute-sanitizer (memcheck) to find the bad access"

/* The runtime's "no kernel image" in the words a program prints it (cuda.no_kernel_image and its
 * reading as the project's own kernels share them). */
#define NO_KERNEL_IMAGE "no kernel image is available for execution" /* "on the device"; PyTorch 1.7: "on the driver" */, \
    "cudaErrorNoKernelImageForDevice", "invalid device function"

/* The runtime's "busy or unavailable" in its two message forms (cuda.devices_busy and its reading as the
 * program's own second open share them). */
#define DEVICES_BUSY "CUDA-capable device(s) is/are busy or unavailable", "all CUDA-capable devices are busy or unavailable"

const cp_signal cp_signals_cuda[] = {
    { .id = "cuda.no_kernel_image", .layer = FW,
      .match = { NO_KERNEL_IMAGE, "CUDA_ERROR_NO_BINARY_FOR_GPU", "cudaErrorInvalidDeviceFunction" },
      .cause = "the program or framework carries no machine code (SASS) for this GPU's compute capability and no PTX it can JIT",
      .fix = "install a build that includes this GPU's architecture (e.g. a newer PyTorch wheel), or rebuild with -gencode for its sm_XX; `cuprobe arch FILE` shows what a binary carries",
      .check = "framework.arch", .cu_code = 209 },
    /* the same error in any words but PyTorch's and ggml's "CUDA error: ...": a project's own check (its macro,
     * its kernel's name, its .cu file), so the kernel that has no image may be the project's, built for another
     * GPU or outside the environment it runs in */
    { .id = "application.own_kernels_arch_maybe", .layer = AP, .alternative = 1,
      .match = { NO_KERNEL_IMAGE }, .unless = "CUDA error: ",
      .cause = "or the kernel is the project's own (its CUDA code checked the launch): its extension or .cu files were "
               "compiled without this GPU's sm_XX, or built in another environment (outside the container, for another "
               "GPU) than the one it runs in",
      .fix = "rebuild the project's CUDA code where it runs, for this GPU (TORCH_CUDA_ARCH_LIST=\"X.Y\" or -gencode "
             "arch=compute_XY,code=sm_XY; python setup.py develop / pip install -e . inside the container); "
             "`cuprobe arch FILE.so` lists what a built extension carries",
      .check = "framework.arch" },
    /* "invalid device function" is the older name CUDA gave a missing architecture, seen most with code built
     * by a toolkit older than the GPU it runs on; cuDNN's EXECUTION_FAILED is what a cuDNN of such a toolkit
     * says there */
    { .id = "runtime.toolkit_predates_gpu_maybe", .layer = RT, .alternative = 1,
      .match = { "invalid device function", "cudaErrorInvalidDeviceFunction",
                 "CUDNN_STATUS_EXECUTION_FAILED" /* a cuDNN of that CUDA has no kernels for the GPU either */,
                 "Error in CuDNN: STATUS_EXECUTION_FAILED" /* Lua Torch's cudnn.torch */ },
      .cause = "or the toolkit that compiled the code is older than this GPU and put in no code it can run (CUDA "
               "7.5 knows no Pascal, 10.2 no Ampere, 11.7 no Ada or Hopper): an old CUDA first on PATH or "
               "CUDA_HOME at build time, or an image or library built with one",
      .fix = "nvcc --version where the code was built: put a toolkit that knows the GPU first (PATH, CUDA_HOME, "
             "CMake's CUDAToolkit_ROOT) and rebuild, or use an image or library built with one; `cuprobe arch "
             "FILE` shows what a binary carries",
      .check = "runtime.toolkits" },
    { .id = "cuda.insufficient_driver", .layer = DR,
      .match = { CP_PHRASES_INSUFFICIENT_DRIVER },
      .cause = "the installed driver is older than the CUDA runtime needs (or libcuda was not found at all)",
      .fix = "upgrade the NVIDIA driver to one that supports this CUDA major, or install a framework build for an older CUDA",
      .check = "runtime.driver_compat" },
    /* the same, read from the package's side: where the driver cannot change (a cluster, a cloud image, an old GPU's
     * last branch), the fix is the package's build for the CUDA this driver supports */
    { .id = "framework.built_for_newer_cuda_maybe", .layer = FW, .alternative = 1,
      .match = { CP_PHRASES_INSUFFICIENT_DRIVER, "The NVIDIA driver on your system is too old" },
      .cause = "or the package was built for a newer CUDA than this driver supports: a wheel for CUDA 12 (CTranslate2 4, "
               "torch cu12x, onnxruntime-gpu 1.19+, jax[cuda12]) on a driver of the CUDA 11 era, where updating the "
               "driver is not an option",
      .fix = "nvidia-smi's \"CUDA Version\" is the newest CUDA the driver runs: install the package's build for that CUDA or "
             "older (the cu118 index, CTranslate2 3.x for CUDA 11, a release pinned to CUDA 11), or add the "
             "cuda-compat package on a data-centre GPU",
      .check = "runtime.driver_compat" },
    { .id = "cuda.no_device", .layer = SY,
      .match = { "no CUDA-capable device is detected", "cudaErrorNoDevice", "CUDA_ERROR_NO_DEVICE",
                 "No CUDA GPUs are available", "ProcessGroupNCCL is only supported with GPUs, no GPUs found",
                 "no nvidia devices detected by library" /* ollama */ },
      .cause = "no GPU is visible to the process: CUDA_VISIBLE_DEVICES empty or wrong, a container started without GPUs, or the GPU not bound to the nvidia driver",
      .fix = "check CUDA_VISIBLE_DEVICES, start containers with --gpus all (or the device plugin), and make sure nvidia-smi lists the GPU",
      .check = "system.visibility", .cu_code = 100 },
    /* the same outside a container, read from below: libcuda loads and the kernel module behind it drives no GPU */
    { .id = "kernel.no_device_module_maybe", .layer = CP_LAYER_KERNEL, .alternative = 1,
      .context_absent = CP_CONTEXT_CONTAINER,
      .match = { "no CUDA-capable device is detected", "no nvidia devices detected by library" },
      .cause = "or the driver's kernel module does not drive the GPU: after a kernel or driver update the module was not "
               "built or loaded for the running kernel, or packages of two driver sources (the distribution's and "
               "NVIDIA's repository) left a module that does not match the libraries",
      .fix = "on the host: lsmod | grep nvidia, nvidia-smi and dkms status; where the module is missing or nvidia-smi fails, "
             "reinstall the driver packages of one source for the running kernel and reboot",
      .check = "kernel.nvidia_module" },
    { .id = "cuda.devices_busy", .layer = SY,
      .match = { DEVICES_BUSY, "cudaErrorDevicesUnavailable", "CUDA_ERROR_DEVICE_UNAVAILABLE" },
      .cause = "the GPU is in EXCLUSIVE_PROCESS compute mode with another process on it, or in PROHIBITED mode",
      .fix = "find the other process (nvidia-smi), or set the compute mode to DEFAULT: nvidia-smi -c DEFAULT",
      .check = "system.compute_mode", .cu_code = 46 },
    /* the same, read from the program's side: under EXCLUSIVE_PROCESS the other process is often its own */
    { .id = "application.exclusive_mode_own_open_maybe", .layer = AP, .alternative = 1,
      .match = { DEVICES_BUSY },
      .cause = "or the process holding the GPU is the program's own: on a cluster whose GPUs are in EXCLUSIVE_PROCESS "
               "mode, DDP ranks that all start on GPU 0 (no torch.cuda.set_device(local_rank)), or a parent process "
               "that touched CUDA before starting its workers, open one GPU twice",
      .fix = "give each rank its own GPU before any CUDA work (torch.cuda.set_device(int(os.environ[\"LOCAL_RANK\"])), "
             "device=f\"cuda:{rank}\"), and create CUDA objects only in the processes that use them (spawn the "
             "workers first); nvidia-smi -q | grep -i 'compute mode' shows the mode",
      .check = "system.compute_mode" },
    /* TensorFlow's CHECK of a driver call, its result as a number: 216 is a context already current in another
     * thread, which EXCLUSIVE_THREAD mode refuses */
    { .id = "cuda.context_in_use", .layer = SY,
      .match = { "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "cudaErrorDeviceAlreadyInUse",
                 "exclusive-thread device already in use by a different thread", "(0 vs. 216)" },
      .cause = "the GPU is in EXCLUSIVE_THREAD compute mode (an old mode, kept on some clusters) and its context is "
               "already current in another thread; frameworks that use several threads per GPU (TensorFlow) are refused",
      .fix = "set the compute mode to DEFAULT or EXCLUSIVE_PROCESS (sudo nvidia-smi -c 0, or -c 3; ask the cluster's "
             "admins), or ask the scheduler for a GPU in that mode; nvidia-smi shows \"E. Thread\" in its Compute M. column",
      .check = "system.compute_mode", .cu_code = 216 },
    { .id = "cuda.illegal_address", .layer = AP,
      .match = { "an illegal memory access was encountered", "cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS" },
      .cause = "a kernel read or wrote memory it does not own (out-of-bounds index, freed or host pointer); the context is now unusable",
      .fix = F_STICKY, .check = "application.xid", .cu_code = 700 },
    { .id = "cuda.launch_failure", .layer = AP,
      .match = { "unspecified launch failure", "cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED" },
      .cause = "a kernel raised an exception on the device (bad pointer, shared-memory overrun, trap); the context is now unusable",
      .fix = F_STICKY, .check = "application.xid", .cu_code = 719 },
    /* A kernel that faulted where the program's kernels are a serving framework's own: the user wrote
     * none of them, so the fault is the framework's (a regression, a broken path for this GPU or split). */
    { .id = "framework.kernel_fault", .layer = FW, .context = CP_CONTEXT_SERVING_KERNELS, .replaces_line = 1,
      .match = { "an illegal memory access was encountered", "cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS",
                 "unspecified launch failure", "cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED",
                 "misaligned address", "an illegal instruction was encountered" },
      .cause = "a CUDA kernel of the serving framework itself faulted (llama.cpp's ggml-cuda, vLLM's or "
               "ollama's kernels, a flash-attention kernel): the program runs the framework's kernels, not its "
               "own, so this is most often a regression of that release or a broken path for this GPU, model "
               "or split across GPUs",
      .fix = "try the release before it (the project's tracker often names the commit) or the newest; turn off "
             "the path it faulted in (llama.cpp: -fa off, no --tensor-split, GGML_CUDA_FORCE_CUBLAS=1; vLLM: "
             "--enforce-eager) and report it with the build's version line; a fault that moves between runs "
             "and programs points at the GPU instead",
      .check = "framework.arch" },
    { .id = "cuda.device_assert", .layer = AP,
      .match = { "device-side assert triggered", "cudaErrorAssert", "CUDA_ERROR_ASSERT",
                 "] Assertion `" },
      /* the kernel's own line, "f: block: [1,0,0], thread: [73,0,0] Assertion `x` failed.", needs its
       * "thread: ["; the other phrases hold the rest of also */
      .also = { "thread: [", "device-side assert", "errorassert", "error_assert" },
      .cause = "an assert inside a kernel failed, most often an index out of range (class label >= number of classes, embedding index)",
      .fix = "rerun with CUDA_LAUNCH_BLOCKING=1 (or on CPU) to see the failing operation and check its index inputs; the process must restart",
      .check = "application.xid", .cu_code = 710 },
    /* A kernel fault in a program that runs a framework's kernels, read from the framework's side: most
     * programs write no CUDA of their own, and the fault (or the bad index fed to a kernel) is then the
     * framework's or its library's, fixed by another release.  A serving framework says so first
     * (framework.kernel_fault above). */
    { .id = "framework.kernel_bug_maybe", .layer = FW, .alternative = 1, .context_absent = CP_CONTEXT_SERVING_KERNELS,
      .match = { "an illegal memory access was encountered", "cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS",
                 "unspecified launch failure", "cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED", "misaligned address" },
      .cause = "or the kernel, or the index fed to it, is the framework's: where the program writes no CUDA of its own, "
               "a PyTorch op, a library it calls (transformers resizing no embeddings for added tokens, a kernel "
               "package) or a nightly has a bug for this GPU, shape or release",
      .fix = "run it on the CPU or with CUDA_LAUNCH_BLOCKING=1 to find the op; where the op and your inputs are "
             "sound, try the release before it or the newest of the framework and its kernel packages (the "
             "tracker often has the issue), and report it with torch.__version__ and the GPU",
      .check = "framework.cuda" },
    { .id = "cuda.oom", .layer = AP,
      .match = { "CUDA error: out of memory", "cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY",
                 "out of memory while trying to allocate", ": out of memory", "error 2 out of memory",
                 "Cuda failure 2 'out of memory'", "Cuda failure 'out of memory'",   /* NCCL's WARN and Last error */
                 "SimpleCudaMalloc_impl.hpp(42)" },   /* mallocMC's heap cudaMalloc; its message is on the next line */
      .also = { "cuda", "resource_exhausted", "resource exhausted", "while trying to allocate" },
      .unless = "out of memory: kill",         /* the Linux OOM killer */
      .cause = "a device allocation failed: the GPU memory is used up by this process or by others",
      .fix = "lower the batch size or model size, free cached memory, or stop other processes on the GPU (nvidia-smi)",
      .check = "system.memory_headroom", .cu_code = 2 },
    /* the runtime's bare form (no sizes, unlike PyTorch's "Tried to allocate"): as often memory this program
     * was never given as memory it used up (a serving framework plans its own: the next row) */
    { .id = "system.oom_elsewhere_maybe", .layer = SY, .alternative = 1, .context_absent = CP_CONTEXT_SERVING_KERNELS,
      .match = { "CUDA error: out of memory", "CUDA_ERROR_OUT_OF_MEMORY" }, .unless = "Tried to allocate",
      .cause = "or the memory was not this program's to take: other processes hold the GPU, or a limit below the "
               "GPU's size applies (WSL2's share of host and pinned memory, a scheduler's slice, a MIG instance), "
               "most likely where it fails at a first small allocation (creating the context, building the model)",
      .fix = "nvidia-smi --query-compute-apps=pid,used_memory --format=csv shows who holds the GPU: pick a free one "
             "(CUDA_VISIBLE_DEVICES) or stop the other work; under WSL2 raise memory in .wslconfig or turn pinned "
             "memory off (pin_memory=False); under Slurm ask for the whole GPU (--gres=gpu:1, one task per GPU)",
      .check = "system.memory_holders" },
    /* the same in a serving framework that plans GPU memory itself (ollama picks the layers it offloads): a
     * wrong plan is the framework's, and a release fixes it */
    { .id = "framework.server_memory_plan_maybe", .layer = FW, .alternative = 1, .context = CP_CONTEXT_SERVING_KERNELS,
      .match = { "CUDA error: out of memory", "cudaMalloc failed: out of memory", "CUDA_ERROR_OUT_OF_MEMORY",
                 ": out of memory" /* ggml's older CUDA_CHECK: "CUDA error 2 at ggml-cuda.cu:9132: out of memory" */ },
      .also = { "cuda" },
      .cause = "or the server planned the memory wrong: ollama (and tools that set llama.cpp's or vLLM's limits for "
               "you) choose how many layers to offload and how large the KV cache and pools are, and a release "
               "whose estimate is off for this model, GPU or platform (WSL2, Jetson) runs out where the GPU had room",
      .fix = "where the same model ran before: try the release before it or the newest (the tracker often names the "
             "fix); meanwhile set the plan by hand (ollama: num_gpu layers, a smaller num_ctx; llama.cpp: -ngl; vLLM: "
             "--gpu-memory-utilization, --max-model-len)",
      .check = "system.memory_headroom" },
    { .id = "cuda.init_error", .layer = DR,
      .match = { "CUDA error: initialization error", "cudaErrorInitializationError", "CUDA_ERROR_NOT_INITIALIZED",
                 ": initialization error", "-> initialization error" },
      .also = { "cuda", "-> initialization error" }, .unless = "container-cli",
      .cause = "cuInit failed: CUDA was used in a child after fork(), or the driver is not loaded or broken",
      .fix = "use the 'spawn' start method instead of fork for CUDA workers; otherwise run `cuprobe doctor` to see why cuInit fails",
      .check = "driver.cuinit", .cu_code = 3 },
    { .id = "cuda.driver_mismatch", .layer = DR,
      .match = { "system has unsupported display driver / cuda driver combination", "cudaErrorSystemDriverMismatch",
                 "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH" },
      .cause = "the loaded kernel module and the user-space libcuda have different versions (driver upgraded without reboot, or a stray libcuda)",
      .fix = "libcuda and the kernel module are different releases: reboot (or reload the nvidia modules) after a driver upgrade, and remove stray or cuda-compat libcuda.so.1 copies from the loader path",
      .check = "driver.version_match", .cu_code = 803 },
    { .id = "cuda.compat_unsupported", .layer = DR,
      .match = { CP_PHRASES_COMPAT_UNSUPPORTED },
      .cause = "a cuda-compat (forward compatibility) libcuda is in use on a GPU that does not support it (GeForce, most workstation cards)",
      .fix = "remove the cuda-compat directory from LD_LIBRARY_PATH (or the image) and upgrade the driver instead",
      .check = "driver.compat", .cu_code = 804 },
    /* the same, read from the image's side: it was built for a newer CUDA than the host's driver and brings
     * the compat libraries to bridge them */
    { .id = "framework.image_newer_cuda_maybe", .layer = FW, .alternative = 1,
      .match = { CP_PHRASES_COMPAT_UNSUPPORTED },
      .cause = "or the image or package was built for a newer CUDA than the host's driver runs and brings the cuda-compat "
               "libraries to bridge them, which this GPU cannot use: a prebuilt server image (llama.cpp, ollama, vLLM, "
               "Triton) of a newer CUDA than the driver",
      .fix = "take the image or build made for the CUDA the driver runs (nvidia-smi's \"CUDA Version\" or older), or build "
             "it from source against the host's CUDA; a newer driver also cures it",
      .check = "driver.compat" },
    { .id = "cuda.unsupported_ptx", .layer = DR,        /* the fix is first the driver's: a lower layer */
      .match = { "the provided PTX was compiled with an unsupported toolchain", "cudaErrorUnsupportedPtxVersion",
                 "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" },
      .cause = "the PTX was generated by a newer CUDA toolkit than the driver's JIT compiler understands",
      .fix = "upgrade the driver to one that supports the toolkit that built the code, or build with the toolkit that matches the driver",
      .check = "runtime.driver_compat", .cu_code = 222 },
    { .id = "cuda.stub_library", .layer = DR,
      .match = { "CUDA driver is a stub library", "cudaErrorStubLibrary", "CUDA_ERROR_STUB_LIBRARY",
                 "CUDA error: error code 34" },  /* a stub cannot name its own error */
      .cause = "the libcuda.so loaded is the toolkit's link-time stub (lib64/stubs), not the driver's library",
      .fix = "remove .../lib64/stubs from LD_LIBRARY_PATH and make sure the driver's libcuda.so.1 is installed",
      .check = "runtime.stubs_on_path", .cu_code = 34 },
    { .id = "cuda.not_supported", .layer = DR,
      .match = { CP_PHRASES_NOT_SUPPORTED }, .also = { CP_ALSO_NOT_SUPPORTED },
      .cause = "the call is not supported on this GPU, driver or platform (e.g. peer access, managed memory or IPC in a VM or container)",
      .fix = "check that the feature is supported here (nvidia-smi topo -m for peer access); set the framework option that avoids it",
      .check = "driver.devices", .cu_code = 801 },
    /* the same, read from the platform's side: a vGPU, a VM, WSL or MIG withholds the feature */
    { .id = "system.platform_withholds_maybe", .layer = SY, .alternative = 1,
      .match = { CP_PHRASES_NOT_SUPPORTED }, .also = { CP_ALSO_NOT_SUPPORTED },
      .cause = "or the platform withholds the feature: a vGPU profile or a VM (unified memory, memory pools, peer access "
               "and profiling need the hypervisor's and the profile's support), WSL, or a MIG instance (no peer access, "
               "no IPC between instances)",
      .fix = "run on the bare-metal GPU or a passthrough VM, turn the feature on in the vGPU profile (unified memory is "
             "off by default), or turn the framework's use of it off (its memory pool, peer access, CUDA IPC)",
      .check = "system.mig" },
    { .id = "cuda.misaligned_address", .layer = AP,
      .match = { "CUDA error: misaligned address", "cudaErrorMisalignedAddress", "CUDA_ERROR_MISALIGNED_ADDRESS",
                 "misaligned address" },
      .also = { "cuda" }, .unless = "for type",   /* UBSan: "load of misaligned address 0x.. for type 'int'" */
      .cause = "a kernel accessed memory at an address not aligned to the access size (often a vectorised load on an offset view)",
      .fix = F_STICKY, .check = "application.xid", .cu_code = 716 },
    { .id = "cuda.illegal_instruction", .layer = AP,
      .match = { "an illegal instruction was encountered", "cudaErrorIllegalInstruction", "CUDA_ERROR_ILLEGAL_INSTRUCTION" },
      .cause = "a kernel executed an illegal instruction (miscompiled kernel, corrupted code, or code built for another architecture)",
      .fix = F_STICKY, .check = "application.xid", .cu_code = 715 },
    { .id = "cuda.too_many_resources", .layer = AP,
      .match = { "too many resources requested for launch", "cudaErrorLaunchOutOfResources",
                 "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES" },
      .cause = "the launch asks for more registers, shared memory or threads per block than the GPU has",
      .fix = "launch with fewer threads per block, or limit registers (-maxrregcount / __launch_bounds__)",
      .check = "framework.arch", .cu_code = 701 },
    { .id = "cuda.launch_timeout", .layer = AP,
      .match = { "the launch timed out and was terminated", "cudaErrorLaunchTimeout", "CUDA_ERROR_LAUNCH_TIMEOUT" },
      .cause = "a kernel ran past the display watchdog limit on a GPU that also drives a display",
      .fix = "run on a GPU without a display, or split the work into shorter kernels",
      .check = "application.xid", .cu_code = 702 },
    { .id = "cuda.ecc_uncorrectable", .layer = HW,
      .match = { "uncorrectable ECC error encountered", "cudaErrorECCUncorrectable", "CUDA_ERROR_ECC_UNCORRECTABLE" },
      .cause = "the GPU reported an uncorrectable ECC memory error",
      .fix = "drain the GPU and reset it so the bad row is remapped; if it repeats, RMA",
      .check = "hardware.memory_health", .cu_code = 214 },
    { .id = "cuda.unknown", .layer = DR,
      .match = { "CUDA error: unknown error", "cudaErrorUnknown", "CUDA_ERROR_UNKNOWN",
                 CP_PHRASES_FIRST_CALL_UNKNOWN_ERROR, "failed: unknown error",
                 "-> unknown error", "failed to initialize CUDA: unknown error" /* llama.cpp's ggml_cuda_init */ },
      .also = { "cuda", "-> unknown error" },
      .cause = "the driver returned an unclassified error, often after a GPU fault, a lost GPU or a broken driver install",
      .fix = "look at the kernel log for an Xid near that time (dmesg | grep -i xid), make sure nvidia_uvm is loaded, and run `cuprobe doctor`",
      .check = "driver.cuinit", .cu_code = 999 },
    { .id = "CUDA_ERROR_INVALID_VALUE", .layer = AP,
      .match = { "CUDA_ERROR_INVALID_VALUE", "cudaErrorInvalidValue", "CUDA error: invalid argument",
                 "with error: invalid argument", "failed: invalid argument", " : invalid argument",
                 "-> invalid argument", "failed: invalid value",
                 "passed to the API call is not within an acceptable range of values" },
      /* not strerror(EINVAL) in a container hook's mount or cgroup error */
      .also = { "cuda", "to the API call", "-> invalid argument" }, .unless = "container-cli",
      .cause = "a CUDA call rejected one of its arguments: a size or offset past the end of an allocation, a host pointer where a device pointer belongs (or the reverse), a pointer already freed or from another context, or a flag the call does not take",
      .fix = "find the call (CUDA_LAUNCH_BLOCKING=1, or compute-sanitizer, which names the failing API call) and check its sizes and pointers against the allocations; with pycuda/cupy check that the host array is contiguous and has the dtype and size of the device buffer",
      .check = "application.xid", .cu_code = 1 },
    { .id = "CUDA_ERROR_INVALID_CONTEXT", .layer = AP,
      .match = { "CUDA_ERROR_INVALID_CONTEXT", "cudaErrorDeviceUninitialized", "cudaErrorDeviceUninitilialized",
                 "invalid device context", "no context bound to the current thread" },
      .also = { "cuda" },
      .cause = "the call ran with no CUDA context current on its thread, or with one already destroyed: driver-API or pycuda code in a thread that never made the context current, use after ctx.pop()/detach() or cudaDeviceReset(), or CUDA state inherited across fork()",
      .fix = "make the context current in every thread that calls CUDA (cuCtxSetCurrent or cudaSetDevice; pycuda: ctx.push()/ctx.pop() around the work), keep it alive while its memory and streams are used, and create CUDA state only after fork (or use the spawn start method)",
      .check = "application.xid", .cu_code = 201 },
    { .id = "CUDA_ERROR_INVALID_PTX", .layer = RT,
      .match = { "CUDA_ERROR_INVALID_PTX", "cudaErrorInvalidPtx", "a PTX JIT compilation failed" },
      .cause = "the driver's JIT could not compile the PTX in the program: it targets a newer PTX ISA or GPU than this driver knows (built with a newer toolkit), or it is malformed; the JIT only runs because the binary has no SASS for this GPU",
      .fix = "upgrade the driver to one that supports the toolkit that built the code, or rebuild with SASS for this GPU (-gencode arch=compute_XX,code=sm_XX) so nothing is JIT-compiled; `cuprobe arch FILE` shows what a binary carries",
      .check = "runtime.driver_compat", .cu_code = 218 },
    { .id = "CUDA_ERROR_INVALID_HANDLE", .layer = AP,
      .match = { "CUDA_ERROR_INVALID_HANDLE", "cudaErrorInvalidResourceHandle", "invalid resource handle",
                 "resource handle passed to the API call was not valid" },
      .also = { "cuda", "to the API call" },
      .cause = "a stream, event, graph, module or library handle passed to a CUDA call is not valid: already destroyed, never created, or made on another device or context than the current one (e.g. a stream of GPU 0 used after cudaSetDevice(1), or kept across cudaDeviceReset)",
      .fix = "find the call with CUDA_LAUNCH_BLOCKING=1 or compute-sanitizer; create streams, events and cuBLAS/cuDNN handles on the device that uses them (set the device in each thread first), and never use them after destroying them or resetting the device",
      .check = "application.xid", .cu_code = 400 },
    { .id = "CUDA_ERROR_SYSTEM_NOT_READY", .layer = SY,
      .match = { "CUDA_ERROR_SYSTEM_NOT_READY", "cudaErrorSystemNotReady", "system not yet initialized",
                 "init failure: 802" /* ollama */, "cuInit err: 802" },
      .also = { "cuda", "-> system not yet initialized", "error code system not yet initialized",
                "): system not yet initialized" /* gpu_burn's "Error (file.cpp:298): ..." */, "802" },
      .cause = "CUDA will not start until the system is set up: on NVSwitch systems (HGX/DGX A100, H100, H200) nvidia-fabricmanager is not running, failed, or is not the driver's exact version, so the NVLink fabric is not ready",
      .fix = "check `systemctl status nvidia-fabricmanager`: install the fabricmanager package of exactly the driver's version, enable and start it, and wait until `nvidia-smi -q` shows the fabric state Completed; read /var/log/fabricmanager.log if it fails",
      .check = "driver.devices", .cu_code = 802 },
    { .id = NULL }
};
