/*
 * Explain rows for the libraries and servers that sit on top of the CUDA
 * stack: the set-up messages of quantisation and attention libraries
 * (bitsandbytes, AutoGPTQ/exllama, flash-attention, xFormers) and of
 * TensorRT, compiled PyTorch extensions, JAX/XLA's checks of the CUDA
 * libraries it loads, device placement and too-old GPUs refused by
 * frameworks, and the memory planning of inference servers (vLLM and its
 * forks, TGI, ollama) and Triton kernels.  llama.cpp's ggml_cuda messages
 * carry the CUDA error text, which signals_cuda.c explains.
 *
 * Phrases come from the stable words each program prints (its source), not
 * from one user's paths or versions.  A phrase whose edge is a letter or
 * digit is matched on a word boundary, so mangled C++ names (undefined
 * symbol: _ZN3c10...) are matched through also, which is a plain substring.
 *
 * To add a row: see signals_cuda.c.
 */
#include "signals.h"

#define KE CP_LAYER_KERNEL
#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER
#define RT CP_LAYER_RUNTIME
#define LI CP_LAYER_LIBRARIES
#define FW CP_LAYER_FRAMEWORK
#define AP CP_LAYER_APPLICATION

/* a precision or kernel refused for the GPU's architecture (TensorRT's FP8, TensorRT-LLM's fused attention) */
#define FEATURE_NEEDS_NEWER_GPU "require hardware with FP8 support", "FP8 FMHA cannot be enabled except on", \
    "Assertion failed: Unsupported architecture" /* TensorRT-LLM's fused attention runner */

/* A framework or server refusing bfloat16 on this GPU, in its words (torch.bf16_unsupported and its
 * reading as the run's own setting share them). */
#define BF16_REFUSED "is only supported on GPUs with compute capability of at least", \
    "Current CUDA Device does not support bfloat16", "Your setup doesn't support bf16/gpu", "bf16 mixed precision requires"

/* flash-attention's and Triton's refusals of an older GPU, in their words (each row and the run's reading
 * share them) */
#define FLASH_ATTN_GPU_TOO_OLD "FlashAttention only supports Ampere GPUs or newer", \
    "FlashAttention only supports Turing GPUs or newer", "FlashAttention only supports Hopper GPUs"
#define TRITON_GPU_TOO_OLD "which is too old to be supported by the triton GPU compiler"

/* bitsandbytes' CUDA set-up failing on a GPU it saw (bitsandbytes.no_gpu_build and its reading as the
 * CUDA runtime off the path share them) */
#define BNB_SETUP_FAILED_WITH_GPU "CUDA Setup failed despite GPU being available", "did not contain ['libcudart.so'"

/* JAX's CUDA plugin finding no library at its version check (jaxlib/cuda/versions_helpers.cc): the phrase and
 * the words one of which its line holds, shared by jax.plugin_lib_not_found and its reading on a cluster */
#define JAX_PLUGIN_LIB_NOT_FOUND "library was not found"
#define JAX_PLUGIN_LINE "versions_helpers", "jax_plugins", "xla_cuda"

const cp_signal cp_signals_ecosystem[] = {
    /* Quantisation and attention libraries: their CUDA set-up */
    { .id = "bitsandbytes.no_gpu_build", .layer = FW,
      .match = { "compiled without GPU support", BNB_SETUP_FAILED_WITH_GPU, "Defaulting to libbitsandbytes_cpu",
                 "libbitsandbytes_cpu", "Could not find the bitsandbytes CUDA binary",
                 "Required library version not found: libbitsandbytes", "Configured CUDA binary not found at",
                 "object has no attribute 'cadam32bit_grad_fp32'", "CUDA_SETUP: WARNING" },
      .also = { "bitsandbytes", "CUDA Setup", "cadam32bit", "CUDA_SETUP", "libcudart" },
      .cause = "bitsandbytes loaded its CPU-only library because it found no CUDA binary of its own that fits: the release has none for "
               "this platform (releases before 0.43 shipped none for Windows), none for the CUDA version PyTorch reports, or it could not "
               "find the CUDA runtime; 8-bit and 4-bit optimizers and quantization then fail",
      .fix = "install a bitsandbytes release with CUDA binaries for this platform and CUDA (pip install -U bitsandbytes: 0.43 and newer ship "
             "Linux and Windows CUDA builds), with a CUDA build of PyTorch; `python -m bitsandbytes` shows what it found",
      .check = NULL },
    /* bitsandbytes' CUDA set-up failing on a GPU it saw: the CUDA runtime it loads was not where it looked */
    { .id = "runtime.bitsandbytes_cudart_path_maybe", .layer = RT, .alternative = 1,
      .match = { BNB_SETUP_FAILED_WITH_GPU },
      .cause = "or bitsandbytes has its CUDA binary and did not find the CUDA runtime it loads: the directory of "
               "libcudart.so (a toolkit's lib64, a conda environment's lib, pip's nvidia/cuda_runtime/lib) is not "
               "on LD_LIBRARY_PATH, or it holds only libcudart.so.N and the unversioned link is missing",
      .fix = "find it: find / -name 'libcudart.so*' 2>/dev/null; add its directory to LD_LIBRARY_PATH (in a "
             "container, in the image's ENV), or link libcudart.so to the versioned file; `python -m bitsandbytes` "
             "shows the paths it searched",
      .check = "runtime.toolkits" },
    { .id = "bitsandbytes.int8_matmul", .layer = FW,
      .match = { "cublasLt ran into an error", "cublasLt Encountered Error" },
      .cause = "bitsandbytes' 8-bit matrix multiply (LLM.int8: load_in_8bit, 8-bit training) failed inside cuBLASLt: releases "
               "before 0.37/0.39 need int8 tensor cores of a Turing or Ampere GPU in the tile layout they chose (older GPUs, H100, "
               "some RTX cards fail), or the inputs sit on another GPU than the weights",
      .fix = "upgrade bitsandbytes (pip install -U bitsandbytes), or load the model in 4-bit (load_in_4bit) or fp16 instead of "
             "8-bit; with several GPUs keep the 8-bit layers and their inputs on one device (device_map)",
      .check = "framework.arch" },
    { .id = "gptq.kernels_missing", .layer = FW,
      .match = { "CUDA kernels for auto_gptq are not installed", "Exllama kernel is not installed", "exllama_kernels not installed",
                 "CUDA extension not installed" },
      .cause = "AutoGPTQ (or another GPTQ loader) runs without its compiled CUDA kernels: the wheel was built without them (pre-built "
               "Windows wheels, BUILD_CUDA_EXT=0), for another PyTorch/CUDA than the one installed, or PyTorch is a CPU build; "
               "inference is then very slow or the model fails to load",
      .fix = "install the auto-gptq wheel built for the installed PyTorch and CUDA (the +cuXXX wheel from the project's index), or build it "
             "from source with a CUDA toolkit whose major matches torch.version.cuda; check that PyTorch itself is a CUDA build",
      .check = NULL },
    { .id = "flash_attn.gpu_too_old", .layer = FW,
      .match = { FLASH_ATTN_GPU_TOO_OLD },
      .cause = "flash-attention has no kernels for this GPU: FlashAttention 2 needs an Ampere or newer GPU (compute capability 8.0+, "
               "e.g. A100, RTX 30/40), FlashAttention 1 a Turing or newer one, FlashAttention 3 a Hopper (H100); V100, T4, P100 and "
               "older GPUs are refused",
      .fix = "turn flash attention off for this GPU (transformers: attn_implementation=\"sdpa\" or \"eager\"; vLLM picks another "
             "backend) or run on a GPU of compute capability 8.0 or newer",
      .check = "framework.arch" },
    /* a package whose setup.py builds its CUDA ops only where it finds a toolkit (GroundingDINO's _C) */
    { .id = "runtime.extension_built_without_toolkit", .layer = RT,
      .match = { "name '_C' is not defined", "Failed to load custom C++ ops" },
      .cause = "the package's compiled _C extension is missing: it was installed where its build found no CUDA "
               "toolkit (CUDA_HOME unset, or no nvcc on PATH), so setup.py skipped its CUDA ops and installed the "
               "Python part alone",
      .fix = "point CUDA_HOME at the toolkit of torch.version.cuda (export CUDA_HOME=/usr/local/cuda-12.X), then "
             "reinstall the package from its folder (pip install --no-build-isolation -e .) and check the build "
             "log for its extension; the import must no longer warn that it runs on the CPU",
      .check = "runtime.toolkits" },
    /* FlashInfer (under vLLM, SGLang) compiles its kernels at run time unless its prebuilt packages are there */
    { .id = "framework.flashinfer_jit_no_toolkit", .layer = FW,
      .match = { "Could not find nvcc and default cuda_home=" },
      .cause = "a package that compiles its CUDA kernels at run time (FlashInfer, under vLLM or SGLang) found no "
               "toolkit to compile them with, and its prebuilt kernels are not installed",
      .fix = "install the package's prebuilt kernels at its own version (flashinfer-cubin and flashinfer-jit-cache "
             "for the flashinfer-python release in use), or a CUDA toolkit with CUDA_HOME set",
      .check = "runtime.toolkits" },
    /* pynvml the unofficial package, or a Python-2 binding, where a tool needs NVIDIA's nvidia-ml-py */
    { .id = "framework.pynvml_package", .layer = FW,
      .match = { "module 'pynvml' has no attribute", "(pynvml.py, line" },
      .cause = "the Python NVML binding installed is not the one the tool needs: the unofficial pynvml package "
               "shadows NVIDIA's nvidia-ml-py (which also installs a module named pynvml), or a binding for "
               "Python 2 is installed under Python 3",
      .fix = "pip uninstall pynvml nvidia-ml-py3, then pip install nvidia-ml-py (a release at least as new as the "
             "driver's branch), and restart the tool",
      .check = "driver.nvml" },
    { .id = "framework.llamafile_no_cuda_module", .layer = FW, .match = { "/ggml-cuda.so not found" },
      .cause = "llamafile has no CUDA module to load: the release carries no prebuilt ggml-cuda for this platform "
               "(0.5 shipped none for Linux) and it could not build one (no nvcc under CUDA_PATH), so it runs on "
               "the CPU or fails",
      .fix = "take a llamafile release that ships the prebuilt CUDA module (0.6 and later), or install the CUDA "
             "toolkit so it compiles one on first run; pass -ngl 999 (--gpu nvidia) to offload",
      .check = "runtime.toolkits" },
    /* Windows' STATUS_DLL_NOT_FOUND as a child's exit status (ollama, llama.cpp servers, Tabby's llama-server) */
    { .id = "framework.windows_dll_not_found", .layer = FW,
      .match = { "-1073741515", "3221225781", "0xc0000135" },
      .cause = "a program exited with Windows' STATUS_DLL_NOT_FOUND (0xC0000135) before it ran: a DLL it links was "
               "not found, most often the CUDA runtime or cuBLAS DLL of the CUDA release the build was made for "
               "(cudart64_12.dll, cublas64_11.dll) on a machine with another CUDA or none",
      .fix = "take the program's build for the CUDA the machine has (a cuda12 rather than a cuda11 build, or its "
             "build that bundles the CUDA DLLs), or install that CUDA's runtime and put its DLL folder on PATH "
             "(CUDA 13 keeps them in bin\\x64); `where cudart64_*.dll` shows which CUDA DLLs PATH finds",
      .check = "runtime.toolkits" },
    { .id = "framework.extension_not_built", .layer = FW,
      .match = { "name 'selective_scan_cuda' is not defined", "No module named 'selective_scan_cuda'",
                 "No module named 'causal_conv1d_cuda'", "name 'autogptq_cuda_256' is not defined",
                 "name 'autogptq_cuda_64' is not defined", "No module named 'amp_C'", "No module named 'fused_layer_norm_cuda'",
                 "No module named 'flash_attn_2_cuda'", "No module named 'exllamav2_ext'", "No module named 'exllama_kernels'",
                 "No module named 'quant_cuda'", "No module named 'xformers._C'" },
      .cause = "a package's compiled CUDA extension is not installed: the package came in without its kernels (a "
               "source or Python-only install whose build was skipped or failed, a wheel for another PyTorch or "
               "CUDA), or the companion package that carries them (mamba-ssm, causal-conv1d) is missing",
      .fix = "install the package's build for this PyTorch and CUDA (its release wheel whose name names them), or "
             "rebuild it with the toolkit of torch.version.cuda (pip install --no-build-isolation --no-cache-dir "
             "PACKAGE, reading the build log for the first error); install the companion package it names",
      .check = "framework.found" },
    { .id = "framework.companion_version_mismatch", .layer = FW,
      .match = { "causal_conv1d_fwd(): incompatible function arguments", "selective_scan_fwd(): incompatible function arguments",
                 "cannot import name 'triton_key'", "cannot import name 'AttrsDescriptor'" },
      .cause = "two packages that must come in matching releases do not: the compiled kernels of one (causal-conv1d, "
               "Triton) have another interface than the release of the other (mamba-ssm, PyTorch's inductor) expects",
      .fix = "install the pair of releases made for each other (PyTorch's own pinned triton: pip install torch "
             "reinstalls it; mamba-ssm with the causal-conv1d release it names), not the newest of each",
      .check = "framework.found" },
    { .id = "app.exllama_modules_off_gpu", .layer = AP, .match = { "Using Exllama backend requires all the modules to be on GPU" },
      .cause = "the GPTQ model was loaded with some of its layers on the CPU or disk (device_map=\"auto\" without "
               "room, no device given), and the Exllama kernels run only with every module on the GPU",
      .fix = "load it on the GPU (device_map={\"\": 0} or device=\"cuda:0\"), with a GPU that holds it, or turn "
             "Exllama off in the quantization config (disable_exllama=True / use_exllama=False)",
      .check = NULL },
    { .id = "app.flash_attn_dtype", .layer = AP,
      .match = { "FlashAttention only support fp16 and bf16 data type", "FlashAttention only supports fp16 and bf16" },
      .cause = "FlashAttention was asked to run on float32 tensors: the model was loaded in its default float32 "
               "while attn_implementation=\"flash_attention_2\"",
      .fix = "load it in half precision (torch_dtype=torch.bfloat16 or \"auto\" in from_pretrained), or use "
             "attn_implementation=\"sdpa\" for float32",
      .check = NULL },
    { .id = "flash_attn.not_installed", .layer = FW,
      .match = { "the package flash_attn seems to be not installed", "FlashAttention2 has been toggled on, but it cannot be used" },
      .cause = "the program asks transformers for FlashAttention 2 (attn_implementation=\"flash_attention_2\") but the flash-attn "
               "package is missing from this environment or does not import (a wheel for another PyTorch or CUDA)",
      .fix = "install a flash-attn wheel built for this PyTorch, CUDA and Python (pip install flash-attn --no-build-isolation, or the "
             "release wheel whose name matches torch.__version__ and torch.version.cuda), or load the model with "
             "attn_implementation=\"sdpa\" instead",
      .check = NULL },
    { .id = "xformers.build_mismatch", .layer = FW,
      .match = { "xFormers can't load C++/CUDA extensions", "xFormers was built for:" },
      .cause = "the xFormers wheel was built for another PyTorch, CUDA or Python than the ones installed, so its C++/CUDA kernels do "
               "not load (memory-efficient attention and the other fused ops are missing)",
      .fix = "install the xFormers release built for the installed PyTorch and CUDA (pip install -U xformers --index-url "
             "https://download.pytorch.org/whl/cuXXX for torch's CUDA), or PyTorch matching the xFormers wheel",
      .check = NULL },
    { .id = "xformers.no_cuda_build", .layer = FW,
      .match = { "xFormers wasn't build with CUDA support", "xFormers wasn't built with CUDA support",
                 "Need to compile C++ extensions to use all xFormers features" },
      .cause = "the installed xFormers has no CUDA kernels (a CPU or source build without CUDA, or a wheel whose kernels were not "
               "compiled for this platform), so every GPU attention operator is unavailable",
      .fix = "install an xFormers wheel with CUDA kernels for the installed PyTorch and CUDA (the download.pytorch.org cuXXX index), or "
             "build it with the CUDA toolkit present; `python -m xformers.info` lists which operators are available",
      .check = NULL },
    { .id = "xformers.inputs_on_cpu", .layer = CP_LAYER_APPLICATION,
      .match = { "device=cpu (supported: {'cuda'})" },
      .cause = "xformers' attention kernels got tensors on the CPU: they run on CUDA tensors only (fp16/bf16 for "
               "most), so the model or its inputs were not moved to the GPU",
      .fix = "move the model and its inputs to the GPU (.to('cuda'), the pipeline's device argument) in the dtype "
             "the kernel lists, or turn xformers' attention off for a CPU run",
      .check = NULL },
    { .id = "xformers.no_operator", .layer = FW, .match = { "No operator found for `" }, .also = { "attention" },
      .cause = "no xFormers attention kernel accepts these inputs; the reasons listed under each operator say why: device=cpu "
               "(the tensors are on the CPU: a CPU-only PyTorch or a model not moved to the GPU), a dtype it does not take (float32 "
               "for flash kernels), \"xFormers wasn't build with CUDA support\", or a GPU capability too low for the kernel",
      .fix = "read the reasons: for device=cpu install a CUDA build of PyTorch and move the model and inputs to the GPU; use fp16/bf16 "
             "inputs for the flash kernels; install an xFormers wheel that matches PyTorch; or turn xFormers attention off",
      .check = "framework.cuda" },
    /* the engine's header read as version 0.0.0: the bytes are not a plan's */
    { .id = "tensorrt.plan_unreadable", .layer = AP, .match = { "got 0.0.0" },
      .also = { "TensorRT", "plan", "engine" },
      .cause = "the engine file's header reads as version 0.0.0, which no TensorRT writes: the bytes loaded are not the "
               "plan that was built (the program wrote or read it in text mode on Windows, the file is truncated or "
               "empty, another file's path, or a Git LFS pointer)",
      .fix = "open the plan with std::ios::binary (\"wb\"/\"rb\") where the program writes and reads it, check its size "
             "against the built engine, and rebuild it if it was cut",
      .check = NULL },
    { .id = "tensorrt.engine_version", .layer = LI,
      .match = { "Version tag does not match", "safeVersionRead == safeSerializationVersion", "Unexpected call to stub loadRunner",
                 "The engine plan file is not compatible with this version of TensorRT",
                 "The engine plan file is generated on an incompatible device", "Engine deserialization failed",
                 "magicTag == rt::kPLAN_MAGIC_TAG", "Magic tag does not match",
                 "Serialization version is not supported",
                 "expected size of serialized engine" /* TensorRT 7's deserialize assertion */ },
      .unless = "got 0.0.0",   /* tensorrt.plan_unreadable */
      .cause = "the serialized TensorRT engine (.engine/.plan) was built by another TensorRT release, or on another GPU model, than the "
               "one loading it; engines are not portable across TensorRT versions or compute capabilities",
      .fix = "rebuild the engine (trtexec or the builder) on this machine with the TensorRT it runs with, or run it with the exact "
             "TensorRT release that built it; keep one TensorRT version on the library path",
      .check = NULL },
    /* the same, read from the program's side: the engine is its cache, made on another machine or release */
    { .id = "application.engine_cache_stale_maybe", .layer = CP_LAYER_APPLICATION, .alternative = 1,
      .match = { "Version tag does not match", "The engine plan file is not compatible with this version of TensorRT",
                 "The engine plan file is generated on an incompatible device" },
      .cause = "or the engine is the program's own cache (a .trt/.engine file it builds once and reuses), made on "
               "another machine, GPU or TensorRT release and shipped or copied along",
      .fix = "delete the program's cached engine files so it builds them again here, and keep them out of what "
             "is copied between machines",
      .check = NULL },
    { .id = "tensorrt.unsupported_sm", .layer = LI,
      .match = { "Assertion Error in trtSmToCask", "Assertion failed: Unsupported SM" },
      .cause = "this TensorRT release has no kernels for the GPU's architecture (SM): the GPU is newer than the "
               "release (TensorRT 7.0 on an Ampere RTX A6000, 8.x before Hopper or Blackwell)",
      .fix = "install a TensorRT release that supports this GPU (its support matrix lists the compute "
             "capabilities), with the CUDA it needs, and rebuild the engines with it",
      .check = "framework.arch" },
    { .id = "tensorrt.lib_mismatch", .layer = LI,
      .match = { "TensorRT was linked against", "but running against cuBLAS", "but running against cuDNN" },
      .cause = "TensorRT loaded another cuDNN or cuBLAS/cuBLASLt release than the one it was built with: a warning while the versions "
               "differ only a little, an error (e.g. from Myelin) when the loaded copy is older than TensorRT needs",
      .fix = "install the cuDNN and CUDA (cuBLAS) releases listed in this TensorRT release's support matrix and remove other copies "
             "from the library path (LD_LIBRARY_PATH, PATH on Windows, extra nvidia-* wheels)",
      .check = "libraries.shadow" },
    { .id = "tensorrt.out_of_memory", .layer = AP,
      .match = { "Cuda Runtime (out of memory)", "Error Code 2: OutOfMemory", "Cuda Error in allocate: 2 (out of memory)",
                 "Requested amount of GPU memory" },
      .cause = "TensorRT could not allocate GPU memory while building or running an engine: the network's activations at this "
               "input size and batch, the builder's workspace or its tactics need more than the GPU has free",
      .fix = "build with smaller input shapes or batch (the optimization profile's max), cap the workspace (memory pool limit), "
             "free the GPU of other processes, or build on a GPU with more memory",
      .check = "system.memory_headroom" },
    { .id = "tensorrt.cuda_init_failed", .layer = DR, .match = { "CUDA initialization failure with error" },
      .cause = "TensorRT's first CUDA runtime call failed; the number is the cudaError_t: 35 (the most common) means the driver is "
               "older than the CUDA runtime TensorRT was built with, 100 no GPU visible to the process, 2 no memory, 3 or 999 a broken "
               "driver state",
      .fix = "for 35 upgrade the driver to one that supports this TensorRT's CUDA (or use a TensorRT/CUDA build for the driver you "
             "have); for 100 check CUDA_VISIBLE_DEVICES and the container's GPU access; run `cuprobe doctor`",
      .check = "runtime.driver_compat" },

    { .id = "tensorrt.lib_load", .layer = LI,
      .match = { "Unable to load library: libnvinfer_", "Unable to load library: libnvinfer.", "Unable to load library: nvinfer_",
                 "Unable to load library: nvinfer.", "libnvinfer_builder_resource.", "libnvinfer_builder_resource_" },
      .cause = "TensorRT could not load one of its own libraries at run time: the builder resource library (libnvinfer_builder_resource, "
               "needed to build engines), a lean or dispatch runtime, or a plugin library is missing from the install (a broken or "
               "partial package) or not on the loader path",
      .fix = "install a complete TensorRT of one release (the tensorrt wheel with its tensorrt-libs, or the tar/deb package) and put its "
             "lib directory on LD_LIBRARY_PATH (PATH on Windows); ls the directory: every libnvinfer*.so must carry the same version",
      .check = "libraries.load" },

    /* JAX / XLA: the CUDA libraries and tools it checks */
    { .id = "xla.ptxas_failed", .layer = CP_LAYER_RUNTIME, .match = { "ptxas exited with non-zero error code" },
      .cause = "XLA compiles its kernels with the ptxas it finds (the nvidia-cuda-nvcc wheel jax installs, or the "
               "CUDA toolkit on PATH) and that ptxas failed: older than the PTX XLA emits (Unsupported .version) "
               "or than the GPU's architecture",
      .fix = "install jax's CUDA extras of the same release (pip install -U \"jax[cuda12]\", which brings its "
             "ptxas), or put a toolkit at least as new as the jaxlib's CUDA first on PATH",
      .check = "runtime.toolkits" },
    { .id = "jax.lib_older", .layer = LI,
      .match = { "but JAX was built against version", "Outdated cuDNN installation", "Outdated CUDA installation", "Outdated cuBLAS installation",
                 "Outdated cuFFT installation", "Outdated cuSOLVER installation", "Outdated cuSPARSE installation",
                 "Outdated cuPTI installation", "Outdated NCCL installation", "The local installation version must be no lower than" },
      .cause = "a CUDA library JAX loaded (the CUDA runtime, cuDNN, cuBLAS, cuFFT, cuSOLVER, cuSPARSE or cuPTI named in the message) "
               "is older than the one this jaxlib was built against, so JAX refuses the GPU and falls back to the CPU",
      .fix = "install JAX with its CUDA libraries in a fresh environment (pip install -U \"jax[cuda12]\", which brings matching nvidia-* "
             "wheels), or upgrade the named library; remove older copies from LD_LIBRARY_PATH that shadow the wheels",
      .check = "framework.libs" },
    { .id = "jax.lib_missing", .layer = LI,
      .match = { "Unable to load cuPTI", "Unable to load cuDNN", "Unable to load cuFFT", "Unable to load cuSOLVER",
                 "Unable to load cuSPARSE", "Unable to load cuBLAS", "Unable to load CUDA.", "Unable to load NCCL" },
      .also = { "Is it installed" },
      .cause = "JAX's CUDA plugin could not load or query a CUDA library it needs (the named one): it is not installed, not on the "
               "loader path, or it fails to initialise (the traceback under it gives the library's own error)",
      .fix = "install JAX with its CUDA libraries (pip install -U \"jax[cuda12]\") or the named nvidia-* wheel, and remove an "
             "LD_LIBRARY_PATH that points at an older or partial CUDA; the error under the line says why the load failed",
      .check = "framework.libs" },
    /* the plugin's version check at start (jaxlib/cuda/versions_helpers.cc) */
    { .id = "jax.plugin_lib_not_found", .layer = CP_LAYER_FRAMEWORK, .match = { JAX_PLUGIN_LIB_NOT_FOUND },
      .also = { JAX_PLUGIN_LINE },
      .cause = "JAX's CUDA plugin could not load a library it asks for its version at start (the one named), and falls "
               "back to the CPU: most often the release's nvidia-* wheels do not go together (cuSPARSE and cuSOLVER "
               "need an nvJitLink at least as new as themselves, which the plugin must find and load first), or a "
               "wheel is missing",
      .fix = "upgrade jax with its CUDA wheels together in this environment (pip install -U \"jax[cuda12]\"), or pin "
             "nvidia-nvjitlink-cu12 to the cuSPARSE wheel's version; python -c \"import jax; print(jax.devices())\" "
             "shows whether the GPU is taken",
      .check = "framework.libs" },
    /* the same on a cluster: the environment a module system sets points the plugin at other copies */
    { .id = "system.jax_library_path_maybe", .layer = SY, .alternative = 1, .match = { JAX_PLUGIN_LIB_NOT_FOUND },
      .also = { JAX_PLUGIN_LINE },
      .cause = "or the wheels are there and the environment sends the plugin elsewhere: LD_LIBRARY_PATH, LD_PRELOAD or "
               "CUDA_HOME set by a cluster's modules or a job script put another CUDA's (or no) libraries first",
      .fix = "start the job with those unset (module purge; unset LD_PRELOAD CUDA_HOME), or put the environment's "
             "site-packages/nvidia/*/lib directories first on LD_LIBRARY_PATH",
      .check = "framework.libs" },
    { .id = "xla.dnn_init_failed", .layer = LI,
      .match = { "DNN library initialization failed", "DNN library is not found" },
      .cause = "XLA could not create its cuDNN handle: cuDNN is missing, or a release other than the one jaxlib (or TensorFlow) was "
               "built for (\"Loaded runtime CuDNN library: X but source was compiled with: Y\" above), or GPU memory was already "
               "taken (JAX preallocates 75 % of it; another process or framework on the GPU), or the driver is too old",
      .fix = "read the errors above it; install the cuDNN the framework was built for (pip install -U \"jax[cuda12]\" brings it), "
             "free GPU memory or set XLA_PYTHON_CLIENT_PREALLOCATE=false, and check the driver supports the CUDA in use",
      .check = "libraries.load" },
    { .id = "jax.jaxlib_version", .layer = FW,
      .match = { "but this version of jax requires version", "is newer than and incompatible with jax version" },
      .cause = "the installed jax and jaxlib (or its CUDA plugin) are releases that do not go together: jaxlib older than this jax "
               "needs, or newer than it supports (often jax upgraded alone, or a jaxlib pinned by a CUDA-specific wheel)",
      .fix = "install them together at matching versions in one step: pip install -U \"jax[cuda12]\" (it pins jaxlib and the CUDA "
             "plugin), or pin jax to the release of the jaxlib you must keep",
      .check = "framework.found" },
    { .id = "xla.ptxas_too_old", .layer = RT,
      .match = { "You are using ptxas", "XLA requires ptxas version", "is known to miscompile XLA code" },
      .cause = "XLA compiles its GPU kernels with the ptxas it finds on PATH (or in the CUDA it was pointed at), and that ptxas is "
               "older than XLA supports: an old CUDA toolkit earlier on PATH than the one JAX or TensorFlow needs",
      .fix = "put a ptxas of a supported CUDA first on PATH (the toolkit's bin/, or pip install nvidia-cuda-nvcc-cu12 with "
             "\"jax[cuda12]\"), or remove the old toolkit from PATH",
      .check = "runtime.toolkits" },

    /* Frameworks and servers: placement, too-old GPUs, memory planning */
    { .id = "torch.device_mismatch", .layer = AP,
      .match = { "Expected all tensors to be on the same device", "Expected object of device type cuda but got device type cpu",
                 "Expected object of device type cpu but got device type cuda", "Expected object of backend CUDA but got backend CPU",
                 "Expected object of backend CPU but got backend CUDA",
                 "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)",
                 "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor)",
                 "Input type (torch.cuda.HalfTensor) and weight type (torch.HalfTensor)" },
      .cause = "one operation got tensors on different devices: an input, a buffer or part of the model was left on the CPU or on "
               "another GPU (device_map=\"auto\" splitting a model over several GPUs, model code that makes tensors on a fixed device)",
      .fix = "move the inputs to the device of the layer that takes them (inputs.to(model.device)); with several GPUs load the model on "
             "one (device_map={\"\": 0} or CUDA_VISIBLE_DEVICES=0) unless it needs the split; the message names the two devices",
      .check = NULL },
    { .id = "torch.half_on_cpu", .layer = AP, .match = { "not implemented for 'Half'" },
      .cause = "a half-precision (fp16) tensor reached an operation with no fp16 kernel on its device: most often "
               "the model runs in half precision on the CPU, where many operations have none (the GPU was not "
               "used, or the model was moved to the CPU)",
      .fix = "run in full precision where it runs on the CPU (model.float(); web UIs: --no-half, --precision "
             "full); where it should run on the GPU, move it there (model.to('cuda')) and check "
             "torch.cuda.is_available()",
      .check = "framework.found" },
    { .id = "tf.dst_tensor", .layer = AP, .match = { "Dst tensor is not initialized" },
      .cause = "TensorFlow could not allocate a tensor on the GPU: its memory is used up (the batch, the model, "
               "or another process holding the GPU)",
      .fix = "lower the batch size or the model's size; let TensorFlow grow its memory "
             "(tf.config.experimental.set_memory_growth) and stop other processes on the GPU (nvidia-smi)",
      .check = "system.memory_headroom" },
    { .id = "torch.bf16_unsupported", .layer = FW,
      .match = { BF16_REFUSED, "CUBLAS_STATUS_NOT_SUPPORTED" },
      .also = { "bf16", "bfloat16", "CUDA_R_16BF" },   /* cuBLAS refusing a bf16 GEMM: its type name on the line */
      .cause = "the model or the run asks for bfloat16, which needs a GPU of compute capability 8.0 or newer (Ampere: A100, RTX 30 and "
               "later); V100, T4, P100, P40 and other older GPUs have no bf16 support",
      .fix = "use float16 instead (vLLM: --dtype=half; transformers: torch_dtype=torch.float16 or fp16=True instead of bf16=True), or "
             "float32; or run on a GPU of compute capability 8.0 or newer",
      .check = "framework.arch" },
    /* the same refusal, read from the run's side: the dtype is the launch's own setting (the model's config
     * defaults it), and the fix the maintainers give is a flag, not another build */
    { .id = "application.bf16_dtype_setting_maybe", .layer = AP, .alternative = 1,
      .match = { BF16_REFUSED },
      .also = { "bf16", "bfloat16", "Bfloat16" },
      .cause = "or it is the run's own setting: the model's config.json (torch_dtype: bfloat16) or the launch's flags "
               "(--bf16, --dtype auto) ask for bfloat16, which this GPU can run as float16",
      .fix = "set the dtype in the launch: vLLM --dtype half (dtype=\"half\" in LLM()), TGI --dtype float16, "
             "transformers torch_dtype=torch.float16, Trainer fp16=True in place of bf16=True",
      .check = "framework.arch" },
    { .id = "serving.gpu_too_old", .layer = FW,
      .match = { "GPUs with compute capability below", "CUDA GPU is too old" },
      .cause = "the inference server does not support this GPU's compute capability (vLLM needs 7.0 or newer; ollama skips GPUs below "
               "its minimum, 5.0 in recent releases), so it refuses or ignores the GPU",
      .fix = "run on a newer GPU, or use a server or an older release that still supports this architecture (llama.cpp built for "
             "this sm_XX, an older vLLM)",
      .check = "framework.arch" },
    { .id = "triton.gpu_too_old", .layer = FW, .match = { TRITON_GPU_TOO_OLD },
      .cause = "torch.compile (inductor) generates Triton kernels, and Triton supports only GPUs of compute capability 7.0 or newer; "
               "this GPU (Pascal or older: GTX 10xx, P100, P40) is refused",
      .fix = "run without torch.compile on this GPU (drop the compile call or the program's compile option, or set "
             "TORCHDYNAMO_DISABLE=1), or use a GPU of compute capability 7.0 or newer",
      .check = "framework.arch" },
    /* both refusals, read from the run's side: the feature was the program's or its launch's choice */
    { .id = "application.feature_off_for_old_gpu_maybe", .layer = AP, .alternative = 1,
      .match = { FLASH_ATTN_GPU_TOO_OLD, TRITON_GPU_TOO_OLD },
      .cause = "or the run's own choice: the program or its launch turned on a compiled path this GPU cannot take "
               "(torch.compile, attn_implementation=\"flash_attention_2\", a compile or flash-attention option), and "
               "nothing needs another build, only the feature turned off for this GPU",
      .fix = "turn it off in the program's options: TORCHDYNAMO_DISABLE=1 or the program's compile switch, "
             "attn_implementation=\"sdpa\", or the server's attention-backend setting",
      .check = "framework.arch" },
    { .id = "tf.gpu_too_old", .layer = FW, .match = { "The minimum required Cuda capability is" },
      .cause = "this TensorFlow build carries no code for the GPU's compute capability, so it ignores the GPU and runs on the CPU "
               "(each release sets a minimum: 3.0, 3.5, later 5.0 and more in recent builds)",
      .fix = "use a TensorFlow release whose minimum this GPU meets, or build TensorFlow (or TensorFlow Serving) from source with this "
             "compute capability in TF_CUDA_COMPUTE_CAPABILITIES",
      .check = "framework.arch" },
    { .id = "triton.out_of_resources", .layer = AP,
      .match = { "out of resource: shared memory", "OutOfResources: out of resource" },
      .cause = "a Triton kernel's configuration (block sizes times num_stages) needs more shared memory (or threads, registers) than "
               "this GPU has per block: configurations tuned for an A100 or H100 (up to 227 KB) fail on GPUs with about 100 KB, "
               "such as RTX 30/40 (sm_86/89)",
      .fix = "use smaller BLOCK sizes or fewer num_stages for this GPU (the message gives the amount required and the hardware "
             "limit); in a library, update it or pick a kernel/backend tuned for this GPU",
      .check = NULL },
    { .id = "vllm.kv_cache_too_small", .layer = AP,
      .match = { "is larger than the maximum number of tokens that can be stored in KV cache", "No available memory for the cache blocks",
                 "KV cache is needed, which is larger than the available KV cache memory",
                 "Available KV cache memory: -", "reserved for KV Cache is -" },   /* a negative budget: the weights alone take more */
      .cause = "after the model weights and the profiled activations, the GPU memory vLLM may use (gpu_memory_utilization of the total) "
               "leaves too little for the KV cache of one request of max_model_len tokens (or none at all)",
      .fix = "lower max_model_len (--max-model-len), raise --gpu-memory-utilization (0.95), use a smaller or more quantized model or "
             "kv-cache-dtype fp8, or spread the model over more GPUs (--tensor-parallel-size)",
      .check = "system.memory_headroom" },
    /* the same empty cache, read from the release's side: vLLM measures what the model needs, and a release's
     * measure can be off (the survey's threads: application 7, framework 3) */
    { .id = "framework.vllm_memory_profile_maybe", .layer = FW, .alternative = 1,
      .match = { "No available memory for the cache blocks", "Available KV cache memory: -", "reserved for KV Cache is -" },
      .cause = "or vLLM's own measure is off: the release profiles the memory the model needs before it sizes the KV "
               "cache, and a release that counts too much (CUDA graphs, memory another process holds, a regression "
               "for small models) leaves no room for the cache where the GPU had it",
      .fix = "where the same model and settings ran on another vLLM release, pin that release or the newest one whose "
             "tracker names the fix; meanwhile --enforce-eager drops the CUDA graphs' share",
      .check = "system.memory_headroom" },
    { .id = "vllm.free_memory_low", .layer = SY, .match = { "is less than desired GPU memory utilization" },
      .cause = "at start-up less GPU memory was free than gpu_memory_utilization asks for (a fraction of the total memory): another "
               "process, often an earlier vLLM instance or a second server on the same GPU, holds the rest",
      .fix = "stop the other processes on the GPU (nvidia-smi lists them), or lower --gpu-memory-utilization to what is free; two "
             "servers on one GPU need fractions that sum to less than 1",
      .check = "system.gpu_processes" },
    { .id = "llamacpp.alloc_failed", .layer = AP,
      .match = { "ggml_backend_cuda_buffer_type_alloc_buffer: allocating", "failed to allocate compute buffers",
                 "ggml_gallocr_reserve_n: failed to allocate", "alloc_tensor_range: failed to allocate",
                 "unable to allocate backend buffer",
                 "unable to allocate CUDA0 buffer", "unable to allocate CUDA1 buffer", "unable to allocate CUDA_Host buffer",
                 "failed to allocate compute pp buffers", "ggml_backend_sched_alloc_graph: failed to allocate graph" },
      .cause = "llama.cpp (or ollama, llama-cpp-python on top of it) could not place its plan in GPU memory: the offloaded layers "
               "(-ngl / --n-gpu-layers), the KV cache for the context size and the compute buffers need more than the named device has "
               "free; with several GPUs the split can overload one small GPU",
      .fix = "offload fewer layers (-ngl), lower the context (-c / num_ctx) or quantize the KV cache (-ctk q8_0 with -fa), use a smaller "
             "quantization, or balance the GPUs with --tensor-split / --main-gpu (leave a small GPU out with CUDA_VISIBLE_DEVICES)",
      .check = "system.memory_headroom" },
    { .id = "llamacpp.cpu_build", .layer = FW,
      .match = { "not compiled with GPU offload support", "no usable GPU found, --gpu-layers" },
      .cause = "this llama.cpp build (or the llama-cpp-python wheel, or the program bundling it) was compiled without a GPU backend, "
               "or its CUDA backend (ggml-cuda) did not load, so --n-gpu-layers is ignored and everything runs on the CPU",
      .fix = "use a CUDA build: rebuild with cmake -DGGML_CUDA=ON (older releases: LLAMA_CUBLAS=1), install a CUDA release binary, or "
             "reinstall llama-cpp-python with CMAKE_ARGS=\"-DGGML_CUDA=on\" (and --no-cache-dir)",
      .check = NULL },
    { .id = "sglang.mem_fraction", .layer = AP,
      .match = { "Not enough memory. Please try to increase --mem-fraction-static", "increase --mem-fraction-static" },
      .cause = "SGLang's memory plan left no room for the KV cache: the weights (or another process on the GPU) "
               "take more of the GPU's memory than --mem-fraction-static leaves them",
      .fix = "raise --mem-fraction-static (e.g. 0.85-0.9), lower --context-length or --max-running-requests, use "
             "more GPUs (--tp) or a quantised model, and free the GPU of other processes",
      .check = "system.memory_headroom" },
    { .id = "vllm.not_enough_gpus", .layer = SY, .match = { "The number of required GPUs exceeds the total number of available GPUs" },
      .cause = "vLLM was asked for more GPUs (tensor_parallel_size times pipeline_parallel_size) than its Ray placement group or "
               "cluster holds: fewer GPUs are visible to the process (CUDA_VISIBLE_DEVICES, the container's --gpus), Ray was started "
               "with fewer (--num-gpus), or other Ray workers already hold some",
      .fix = "make tensor_parallel_size x pipeline_parallel_size at most the GPUs visible (nvidia-smi -L in the same environment; "
             "ray status for a cluster), or give the process or container the GPUs it needs",
      .check = "system.visibility" },
    { .id = "tgi.warmup_memory", .layer = AP,
      .match = { "Not enough memory to handle", "You need to decrease `--max-batch-prefill-tokens`", "Unable to warmup model" },
      .also = { "tokens", "out of memory", "exceed allowed memory", "OutOfMemory" },
      .cause = "Text Generation Inference's warm-up ran the largest prefill batch it was configured for and it did not fit in the GPU "
               "memory left after the model",
      .fix = "lower --max-batch-prefill-tokens (and --max-total-tokens / --max-input-length), use a smaller or quantized model, or "
             "shard it over more GPUs (--num-shard)",
      .check = "system.memory_headroom" },
    /* the same refusal where the estimate was the release's: the maintainers' fix is another image */
    { .id = "framework.tgi_warmup_release_maybe", .layer = FW, .alternative = 1,
      .match = { "Not enough memory to handle" }, .also = { "tokens" },
      .cause = "or the Text Generation Inference release estimates the warm-up wrong: releases have refused prefill "
               "budgets far below what the GPU holds (a small --max-batch-prefill-tokens still refused), which later "
               "images fix",
      .fix = "where even small limits are refused, try the newest image (ghcr.io/huggingface/text-generation-inference:latest) "
             "or the release the same settings last ran on before lowering the limits further",
      .check = "system.memory_headroom" },
    { .id = "tei.compute_cap_image", .layer = FW, .match = { "is not compatible with compile time compute cap" },
      .cause = "text-embeddings-inference is compiled for one GPU architecture per image, and this image's "
               "(compute capability 8.0 for the plain tag) is not the GPU's",
      .fix = "run the image tag built for this GPU: turing- for compute capability 7.5 (T4, RTX 20), the plain "
             "tag for 8.0 (A100, A30), 86- for 8.6 (A10, A40, RTX 30), 89- for 8.9 (L4, RTX 40), hopper- for "
             "9.0 (H100); or build it with CUDA_COMPUTE_CAP set to the GPU's",
      .check = "framework.arch" },
    { .id = "ollama.device_context_lost", .layer = SY, .match = { "failed to get primary device context 800" },
      .cause = "CUDA refused the GPU with error 800 (not permitted) when ollama asked for it: in a container that "
               "had the GPU at start, its device access was revoked later, most often by a systemd reload "
               "under Docker's systemd cgroup driver, and ollama falls back to the CPU",
      .fix = "restart the container; to keep the access, set Docker's cgroup driver to cgroupfs (\"exec-opts\": "
             "[\"native.cgroupdriver=cgroupfs\"] in daemon.json) or give the devices through CDI",
      .check = "system.devnode_access" },
    { .id = "ollama.library_override", .layer = AP, .match = { "skipping available library at users request" },
      .cause = "OLLAMA_LLM_LIBRARY (or the deployment's env) names a library this ollama does not ship under that "
               "name (cuda, where its builds are cuda_v12 and cuda_v13), so ollama skips its GPU libraries and runs "
               "on the CPU",
      .fix = "unset OLLAMA_LLM_LIBRARY and let ollama choose, or set it to a folder name it lists (cuda_v12)",
      .check = NULL },
    { .id = "ollama.no_gpu", .layer = SY, .match = { "no compatible GPUs were discovered", "gpu support may not be enabled", "No NVIDIA/AMD GPU detected",
                                                     "No NVIDIA GPU detected. Ollama will run in CPU-only mode" /* install.sh */ },
      .cause = "ollama found no GPU it can use and runs on the CPU: in a container the GPU was not passed through (no --gpus / NVIDIA "
               "Container Toolkit, or Docker Desktop without WSL GPU support), or the driver is missing, or the GPU is older than "
               "ollama supports",
      .fix = "start the container with --gpus all (compose: deploy.resources.reservations.devices with driver: nvidia) and check "
             "nvidia-smi inside it; else install the driver; ollama's debug log (OLLAMA_DEBUG=1) says why each GPU was skipped",
      .check = "system.visibility" },
    { .id = "ollama.system_memory", .layer = AP, .match = { "model requires more system memory" },
      .cause = "ollama's memory plan for the model (weights plus context) needs more memory than the machine has free: the model is too "
               "large for this host (GPU memory and RAM together)",
      .fix = "use a smaller model or a smaller quantization (q4 tags), lower num_ctx, stop other loaded models (ollama ps / ollama stop), "
             "or add memory",
      .check = NULL },
    /* a precision or kernel the run asked for that this GPU's architecture lacks: the setting is the run's */
    { .id = "application.feature_needs_newer_gpu", .layer = AP,
      .match = { FEATURE_NEEDS_NEWER_GPU },
      .cause = "the run asked for a precision or kernel this GPU's architecture does not have: FP8 needs compute "
               "capability 8.9 or newer (Ada, Hopper, Blackwell), TensorRT-LLM's fused context attention sm_80 or "
               "newer, so an RTX A6000, A100, V100 or T4 cannot run it",
      .fix = "build or run without it: INT8 or FP16 instead of FP8, no --enable_context_fmha / --use_fp8_context_fmha "
             "on sm_70 and sm_75; or run on a GPU that has the feature (nvidia-smi --query-gpu=name,compute_cap "
             "--format=csv)",
      .check = "framework.arch" },
    /* the same refusal on a GPU that does have the feature: the release's check is older than the GPU */
    { .id = "framework.arch_check_release_maybe", .layer = FW, .alternative = 1,
      .match = { FEATURE_NEEDS_NEWER_GPU },
      .cause = "or this GPU does have the feature and the release's architecture check predates it (an RTX 50 or "
               "B200 on a TensorRT-LLM or TensorRT release older than Blackwell support)",
      .fix = "where nvidia-smi names a GPU of a generation the message allows, update TensorRT-LLM and TensorRT to a "
             "release that lists it in its support matrix",
      .check = "framework.arch" },
    /* TensorRT's own error form, whatever its sentence (a fallback: a row that says more wins the line) */
    { .id = "tensorrt.build_failed", .layer = LI,
      .match = { "Failed to parse onnx file", "Engine set up failed", "TensorRT EP failed to create engine",
                 "Network validation failed", "Engine could not be created" },
      .cause = "TensorRT could not build an engine for the model: its ONNX parser rejected an operator or opset, "
               "a precision or shape is unsupported, or the build ran out of memory; the first [E] line above "
               "says which",
      .fix = "run trtexec --onnx=model.onnx --verbose to find the failing node; simplify or re-export the model "
             "(polygraphy surgeon sanitize --fold-constants, a supported opset), raise the workspace, or upgrade "
             "TensorRT",
      .check = NULL },
    { .id = "tensorrt.error", .layer = LI, .fallback = 1,
      .match = { "[TRT] [E]", "[TRT] [F]", "[TensorRT-LLM][ERROR]", "[TensorRT-LLM][FATAL]", "[TRT-LLM]" },
      .also = { "[E]", "[F]", "ERROR", "FATAL" },
      .cause = "TensorRT (or TensorRT-LLM) failed building or running an engine: a layer or precision it cannot "
               "build for this GPU, an engine built by another TensorRT version or for another GPU, a plugin or "
               "library it cannot load, or a configuration the engine was not built for (parallelism, shapes)",
      .fix = "read TensorRT's own sentence (the error code names the part); rebuild the engine on this GPU with "
             "this TensorRT version, keep the TensorRT, CUDA and driver versions of one support matrix, and run "
             "it with the configuration it was built with",
      .check = NULL },
    { .id = "system.ngc_no_driver", .layer = SY, .match = { "The NVIDIA Driver was not detected" },
      .cause = "an NVIDIA NGC container found no driver inside it at start: the container was started without "
               "the GPUs (no --gpus all, no nvidia runtime, Docker Desktop's WSL GPU support off or stuck); "
               "under WSL2 the banner's own check can fail while the GPU works",
      .fix = "start it with docker run --gpus all (compose: the device reservation; Docker Desktop: restart WSL "
             "with wsl --shutdown); run nvidia-smi inside it: where that works, the banner alone is harmless",
      .check = "system.container" },
    { .id = "framework.ngc_gpu_too_new", .layer = FW,
      .match = { "is not yet supported in this version of the container" },
      .cause = "the NGC container's release is older than this GPU (its CUDA and frameworks predate the GPU's "
               "architecture), so the image refuses to run on it",
      .fix = "pull a newer release of the image (the NGC support matrix lists the first release for each GPU "
             "generation)",
      .check = "framework.arch" },
    { .id = "system.ngc_no_gpu", .layer = SY, .match = { "No supported GPU(s) detected to run this container" },
      .cause = "an NGC container saw no GPU it supports: started without the GPUs (plain docker run, no --gpus "
               "all or nvidia runtime), or on a GPU its release does not support (a line before says so)",
      .fix = "start it with docker run --gpus all (or the nvidia runtime) and check nvidia-smi inside it; where "
             "it names the GPU as not yet supported, pull a newer release",
      .check = "system.container" },
    { .id = "tensorrt.engine_config", .layer = AP,
      .match = { "dynamic input is missing dimensions in profile", "Could not find any implementation for node" },
      .cause = "TensorRT could not build the engine from the builder settings the program gave it: a dynamic input "
               "without an optimization profile (min, opt and max shapes), or a workspace too small for any "
               "tactic of a layer",
      .fix = "add an optimization profile for each dynamic input (trtexec --minShapes/--optShapes/--maxShapes, "
             "or builder.create_optimization_profile()), and give the builder more workspace (trtexec "
             "--memPoolSize=workspace:4096, config.set_memory_pool_limit)",
      .check = NULL },
    { .id = "trtllm.ranks_mismatch", .layer = AP, .match = { "mpiSize == tp * pp", "mpiSize == tp*pp" },
      .cause = "the TensorRT-LLM engine was built for tensor parallel x pipeline parallel ranks that differ from "
               "the number of MPI ranks the runner was started with",
      .fix = "start it with as many ranks as the engine was built for (mpirun -n TP*PP python run.py ..., or "
             "trtllm-serve with the same --tp_size and --pp_size), or rebuild the engine for the GPUs at hand",
      .check = NULL },
    /* memory planning in general: a server or library saying the GPU's memory is short (a fallback) */
    { .id = "app.gpu_memory_short", .layer = AP, .fallback = 1,
      .match = { "insufficient GPU memory", "not enough GPU memory", "Not enough VRAM", "not enough video memory",
                 "exceeds the available GPU memory", "exceeds available GPU memory", "exceeds the GPU memory",
                 "out of GPU memory", "GPU memory is insufficient", "out of GPU and shared host memory",
                 "unable to allocate enough memory to perform the requested operation" /* V-Ray GPU */ },
      .cause = "the program planned more GPU memory than the GPU has free: the model's weights, its KV cache or "
               "activations for the batch and context asked, on this GPU with what other processes hold",
      .fix = "give it less to hold: a smaller model or a quantised one, a shorter context or batch, fewer layers "
             "on the GPU, more GPUs (tensor parallel) or a lower memory fraction for the server; free what "
             "other processes hold (`nvidia-smi`)",
      .check = NULL },
    { .id = "cudapython.lib_not_found", .layer = LI,
      .match = { "DynamicLibNotFoundError", "Failure finding \"lib" },
      .cause = "cuda.pathfinder (cuda-python, CuPy, numba-cuda) searched the nvidia-* wheels, CONDA_PREFIX and "
               "CUDA_HOME and found no copy of a CUDA library it needs (NVRTC, nvJitLink, cuFFT...)",
      .fix = "install the library's wheel for this CUDA major (pip install nvidia-cuda-nvrtc-cu12, or "
             "\"cuda-toolkit[nvrtc,cufft]\"), or point CUDA_HOME at a toolkit that has it",
      .check = "framework.libs" },
    { .id = "onnxruntime.cpu_build", .layer = FW,
      .match = { "is not in available provider names", "Specified provider 'CUDAExecutionProvider' is unavailable",
                 "Specified provider 'TensorrtExecutionProvider' is unavailable" },
      .also = { "CUDAExecutionProvider", "TensorrtExecutionProvider" },
      .cause = "the onnxruntime installed has no CUDA execution provider: the CPU-only wheel (onnxruntime), or "
               "it shadows onnxruntime-gpu installed beside it, so sessions run on the CPU",
      .fix = "pip uninstall -y onnxruntime onnxruntime-gpu, then pip install onnxruntime-gpu (for this CUDA "
             "major); onnxruntime.get_available_providers() must list CUDAExecutionProvider",
      .check = "framework.cuda" },
    { .id = "onnxruntime.arena_alloc", .layer = AP,
      .match = { "BFCArena::AllocateRawInternal", "Failed to allocate memory for requested buffer of size" },
      .cause = "ONNX Runtime's CUDA memory arena could not get a buffer from the GPU: the model and its batch need "
               "more memory than is free (other processes, or the provider's gpu_mem_limit)",
      .fix = "lower the batch size or input size, raise or unset gpu_mem_limit, set arena_extend_strategy to "
             "kSameAsRequested, and free the GPU of other processes (nvidia-smi)",
      .check = "system.memory_headroom" },
    { .id = "onnxruntime.cuda_provider", .layer = LI,
      .match = { "onnxruntime_providers_cuda", "Failed to create CUDAExecutionProvider",
                 "CUDA_PATH is set but CUDA wasnt able to be loaded", "onnxruntime_providers_tensorrt",
                 "libonnxruntime_providers_cuda", "libonnxruntime_providers_tensorrt" },
      .also = { "LoadLibrary failed", "cannot open shared object", "Failed to create", "error 126", "Failed to load",
                "wasnt able to be loaded" },
      .cause = "onnxruntime's CUDA execution provider could not load: the CUDA and cuDNN libraries it was built "
               "for (onnxruntime-gpu 1.19+: CUDA 12 and cuDNN 9) are not on the library path, or are of another "
               "major version; it falls back to the CPU",
      .fix = "install the CUDA and cuDNN of the onnxruntime-gpu release's table (or `pip install onnxruntime-gpu[cuda,cudnn]`), "
             "or import torch first so its bundled CUDA libraries are loaded; on Windows add their bin folders to PATH",
      .check = "libraries.found" },
    { .id = "video.no_nvenc", .layer = CP_LAYER_HARDWARE, .match = { "OpenEncodeSessionEx failed: unsupported device",
                                                                 "No NVENC capable devices found",
                                                                 "No NVIDIA devices with NVENC support found",
                                                                 "AV1 encoding is not supported by any of the system's NVIDIA GPUs" },
      .cause = "the GPU has no video encoder (NVENC): the data-centre compute GPUs A100, H100, H200 and B200 have "
               "none (their NVDEC decoders remain)",
      .fix = "encode on the CPU (libx264, libx265) or on a GPU with NVENC (an L4, L40S, A10 or a GeForce/RTX card); "
             "decoding can stay on this GPU",
      .check = NULL },
    { .id = "video.decoder_missing", .layer = CP_LAYER_DRIVER, .match = { "Cannot load libnvcuvid", "Cannot load libnvidia-encode" },
      .cause = "FFmpeg could not load the driver's video library (libnvcuvid for decoding, libnvidia-encode for "
               "encoding): the driver's video libraries are not installed (a headless or compute-only package)",
      .fix = "install the driver's decode and encode libraries of the same version (libnvidia-decode-NNN, "
             "libnvidia-encode-NNN); in a container add video to NVIDIA_DRIVER_CAPABILITIES",
      .check = "driver.libcuda" },
    { .id = "video.ffmpeg_no_nvenc", .layer = CP_LAYER_FRAMEWORK,
      .match = { "Unknown encoder 'h264_nvenc'", "Unknown encoder 'hevc_nvenc'", "Unknown encoder 'av1_nvenc'",
                 "Unknown decoder 'h264_cuvid'", "Unknown decoder 'hevc_cuvid'" },
      .cause = "this ffmpeg was built without NVIDIA's encoders and decoders (many distribution and static builds leave "
               "out nvenc/cuvid), whatever the GPU and driver",
      .fix = "use an ffmpeg built with --enable-nvenc --enable-cuvid (ffnvcodec headers), e.g. a jellyfin-ffmpeg or "
             "BtbN build; ffmpeg -encoders | grep nvenc lists what a build has",
      .check = NULL },
    { .id = "video.nvenc_unsupported_mode", .layer = CP_LAYER_APPLICATION,
      .match = { "bit encode not supported", "Lossless encoding not supported", "YUV444P not supported",
                 "B frames as references are not supported", "Weighted Prediction not supported",
                 "doesn't support required NVENC features", "InitializeEncoder failed: invalid param" },
      .also = { "nvenc" },
      .cause = "the program asked NVENC for a mode this GPU's encoder lacks: 10-bit H.264 (no NVENC has it; "
               "10-bit needs HEVC or AV1), 4:4:4 or lossless on an older encoder, or a feature of a newer "
               "generation",
      .fix = "ask for what the encoder supports (8-bit H.264, or HEVC/AV1 for 10-bit HDR; NVIDIA's NVENC support "
             "matrix lists each GPU), or encode that stream on the CPU",
      .check = NULL },
    { .id = "video.nvenc_sessions", .layer = CP_LAYER_SYSTEM, .match = { "OpenEncodeSessionEx failed: out of memory" },
      .cause = "NVENC refused another encoding session: GeForce drivers cap the concurrent sessions per system "
               "(3 to 8 by driver release), and other encoders (another ffmpeg, OBS, a browser, Plex) hold them; or "
               "the GPU's memory is full",
      .fix = "end the other encoding processes (`nvidia-smi` lists them), encode fewer streams at once, use a "
             "newer driver (higher caps) or a professional/data-centre GPU with NVENC (no cap)",
      .check = NULL },
    { .id = "video.nvenc_driver", .layer = CP_LAYER_DRIVER,
      .match = { "OpenEncodeSessionEx failed: incompatible client key", "Cannot load cuvidGetDecodeCaps",
                 "Cannot load cuvidCreateVideoParser", "Cannot load NvEncodeAPICreateInstance",
                 "Missing NvEncodeAPIGetMaxSupportedVersion" },
      .cause = "FFmpeg was built for a newer NVENC/NVDEC API than the installed driver provides (a function or the "
               "API version it asks for is missing from the driver's libnvidia-encode / libnvcuvid)",
      .fix = "update the NVIDIA driver to the version the FFmpeg build's nv-codec-headers need, or use an FFmpeg "
             "built against older headers",
      .check = "driver.libcuda" },
    /* Blender Cycles words a CUDA error "<what> in <call>" */
    { .id = "cycles.out_of_memory", .layer = CP_LAYER_APPLICATION,
      .match = { "Out of memory in cuMemAlloc", "Out of memory in cuArray", "Out of memory in cuMemHostAlloc",
                 "Out of memory in cuLaunchKernel", "Out of memory in cuArray3DCreate", "Out of memory in cuArrayCreate",
                 "Out of memory in cuMemAllocManaged", "Out of memory in cuMemAllocPitch", "Out of memory in cuMemAlloc_v2",
                 "Out of memory in cuCtxCreate" },
      .cause = "the scene (geometry, textures, the BVH and the render buffers) needs more GPU memory than is free",
      .fix = "lower texture sizes or the tile/render size, simplify the scene, render with CPU+GPU, or free what "
             "other programs hold (`nvidia-smi`)",
      .check = NULL },
    { .id = "cycles.illegal_address", .layer = CP_LAYER_APPLICATION,
      .match = { "Illegal address in CUDA queue", "Illegal address in cuCtxSynchronize", "Illegal address in cuMemcpy",
                 "Illegal address in cuMemcpyDtoH", "Illegal address in cuMemcpyHtoD", "Illegal address in cuLaunchKernel",
                 "CUDA error at cuCtxCreate: Illegal address", "Failed to create CUDA context (Illegal address)" },
      .cause = "a Cycles kernel read or wrote outside its memory: a bug of this Blender version with this scene or "
               "GPU, or an unstable GPU (a factory or user overclock, heat) corrupting memory",
      .fix = "try the current Blender release and driver; render the same scene on the CPU to tell a scene bug from "
             "the GPU; run the GPU at stock clocks (its vendor's tool) and watch its temperature",
      .check = NULL },
    { .id = "cycles.launch_timeout", .layer = CP_LAYER_SYSTEM, .match = { "Launch exceeded timeout in" },
      .cause = "a kernel ran longer than the display watchdog allows (Windows TDR, about 2 s, or X's on Linux) on "
               "a GPU that also drives a display, and the OS reset it",
      .fix = "render on a GPU without a display, raise the watchdog (Windows TdrDelay in the registry), or use "
             "smaller tiles/samples per pass so each kernel runs shorter",
      .check = NULL },
    { .id = "cycles.no_device", .layer = CP_LAYER_SYSTEM, .match = { "Found no Cycles device of the specified type" },
      .cause = "Blender found no GPU of the device type asked for (CUDA, OptiX): none is attached to this machine or "
               "VM (a CPU-only cloud runtime), the driver does not load, or the GPU is too old for this Blender",
      .fix = "run on a machine with the GPU (`nvidia-smi` must list it), install the driver, or pick the device type "
             "the GPU supports (CUDA for Maxwell to Turing without RT cores, OptiX for RTX)",
      .check = "driver.devices" },
    { .id = "server.worker_died", .layer = AP, .notice = 1, .fallback = 1,
      .match = { "Engine core initialization failed", "EngineDeadError",
                 "EngineCore encountered an issue", "Error: ShardCannotStart",
                 "Error: ShardFailed", "Received sigquit from a child process",
                 "llama runner process has terminated" },
      .cause = "an inference server's worker (vLLM's EngineCore, a TGI shard, an SGLang scheduler, ollama's "
               "llama runner) died; this line only reports it, and the worker's own error above it (out of "
               "memory, a GPU too old, a CUDA or NCCL error) is the cause",
      .fix = "read the worker's own lines above this one ((EngineCore pid=...), 'Shard complete standard error "
             "output', the runner's log) and fix that error; alone, it most often is GPU memory: a smaller "
             "model or context, a lower memory fraction, or more GPUs",
      .check = "system.memory_headroom" },
    { .id = "ollama.runner_memory", .layer = AP,
      .match = { "model runner has unexpectedly stopped",
                 "timed out waiting for llama runner to start", "predicted usage exceeds VRAM" },
      .cause = "ollama's model runner died or did not come up: most often the model, its context (num_ctx) or "
               "parallel requests need more GPU or host memory than there is, or the load from a slow disk "
               "outran OLLAMA_LOAD_TIMEOUT",
      .fix = "use a smaller model or quantisation, lower num_ctx and OLLAMA_NUM_PARALLEL, keep one model loaded "
             "(OLLAMA_MAX_LOADED_MODELS=1), raise OLLAMA_LOAD_TIMEOUT for slow disks; the server log "
             "(journalctl -u ollama) has the runner's own error",
      .check = "system.memory_headroom" },
    { .id = "serving.no_gpu_visible", .layer = SY,
      .match = { "Failed to infer device type", "NotEnoughCUDADevices",
                 "has kind KIND_GPU but no GPUs are available",
                 "is larger than the number of available GPUs" },
      .cause = "the inference server sees no GPU, or fewer than it was told to use: the container started "
               "without the GPUs (--gpus, the NVIDIA runtime), CUDA_VISIBLE_DEVICES hides them, NVML cannot "
               "load, or the parallel size is larger than the GPUs of this node",
      .fix = "make nvidia-smi list the GPUs from the same container or environment; then ask for no more GPUs "
             "than it lists (--tensor-parallel-size, --num-shard, instance_group)",
      .check = "system.visibility" },
    /* vLLM's own platform detection failing where the GPU is visible: the Python environment is the fix */
    { .id = "framework.vllm_platform_detection_maybe", .layer = FW, .alternative = 1,
      .match = { "Failed to infer device type" },
      .cause = "or the GPU is visible and vLLM's platform detection failed in its Python environment: an old "
               "'pynvml' package shadowing nvidia-ml-py, a companion built for another torch (flash_attn) that fails "
               "on import, or a vLLM wheel for another platform (CPU, ROCm)",
      .fix = "python -c 'import vllm.platforms as p; print(p.current_platform)' says what it detected; replace pynvml "
             "by nvidia-ml-py (or pynvml 12 and later), uninstall companions built for another torch, reinstall "
             "vLLM's CUDA wheel",
      .check = "framework.found" },
    { .id = "vllm.heads_not_divisible", .layer = AP,
      .match = { "must be divisible by tensor parallel size" },
      .cause = "the tensor-parallel size does not divide the model's attention heads, so they cannot be split "
               "evenly over the GPUs",
      .fix = "use a tensor-parallel size that divides the head count (often 1, 2, 4 or 8), and pipeline "
             "parallelism for the rest",
      .check = NULL },
    { .id = "ollama.cuinit_unknown", .layer = KE,
      .match = { "unknown error initializing cuda driver library",
                 "cuda driver library init failure: 999" },
      .cause = "cuInit returned CUDA_ERROR_UNKNOWN (999) under ollama: on Linux the nvidia_uvm kernel module is "
               "almost always in a bad state, typically after suspend and resume or a driver update without a "
               "reboot",
      .fix = "reload nvidia_uvm (sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm, with ollama stopped) or "
             "reboot; keep the module from being unloaded across suspend",
      .check = "kernel.nvidia_module" },
    { .id = "llamacpp.archs_leave_out_gpu", .layer = FW, .value = CP_VALUE_ARCHS_MISS,
      .match = { "CUDA : ARCHS =" },
      .cause = "this llama.cpp (ggml) build's CUDA architectures all lie above the GPU's compute capability the "
               "log names: none of its kernels can run on that GPU (the build left out its architecture), so it "
               "fails or falls back to the CPU",
      .fix = "rebuild with the GPU's architecture (cmake -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=52 for a Tesla "
             "M60, or native), or use a release built for it",
      .check = "framework.arch" },
    { .id = "app.miner_dag_memory", .layer = AP,
      .match = { "does not have enough free memory to hold the DAG", "not enough GPU memory to place DAG" },
      .cause = "the mining DAG, which grows every epoch, no longer fits in the GPU's free memory (beside a second "
               "algorithm's data or the display's)",
      .fix = "mine an algorithm or coin whose DAG fits this GPU, drop the dual-mining second algorithm, or free the "
             "GPU's memory (no display on it); an overclock or more swap does not help",
      .check = "system.memory_headroom" },
    { .id = "llamacpp.arch_missing", .layer = FW,
      .match = { "has no device code compatible with CUDA arch",
                 "ggml was not compiled with support for this arch",
                 "compute capability not in compiled architectures" /* ollama */ },
      .cause = "this llama.cpp (ggml) CUDA build has no kernels for the GPU's architecture: it was compiled for "
               "a list of architectures that does not include this GPU's",
      .fix = "rebuild with the GPU's architecture (cmake -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=86 for an "
             "RTX 30, or native), or use a release built for it",
      .check = "framework.arch" },
    { .id = "tgi.flash_attention_required", .layer = FW,
      .match = { "requires Flash Attention enabled models" },
      .cause = "sharded (tensor-parallel) serving in text-generation-inference needs its flash-attention model "
               "classes, which did not import: the GPU is older than those kernels support, or this install "
               "lacks the kernels",
      .fix = "serve unsharded on one GPU, use a GPU of compute capability 8.0 or newer (7.5 for some models), "
             "or use TGI's official image that carries the kernels",
      .check = "framework.arch" },
    { .id = "tgi.shard_killed", .layer = AP,
      .match = { "Shard process was signaled to shutdown with signal 9" },
      .cause = "a TGI shard was killed (SIGKILL): while loading, that is the kernel's OOM killer or the "
               "container's memory limit, because host RAM ran out reading or converting the weights",
      .fix = "give the container more memory (or no limit), use safetensors weights, a smaller or quantised "
             "model, or more shards; dmesg shows the OOM killer",
      .check = NULL },
    { .id = "sglang.memory_unbalanced", .layer = AP,
      .match = { "The memory capacity is unbalanced" },
      .cause = "with tensor parallelism SGLang sizes every rank by the GPU with the least free memory, and one "
               "GPU has much less free than the others (another process, a leftover server, mixed GPU models)",
      .fix = "free the GPUs of other processes (nvidia-smi), use GPUs of one model, or lower "
             "--mem-fraction-static",
      .check = "system.gpu_processes" },
    { .id = "triton.gpu_config", .layer = AP,
      .match = { "specifies invalid or unsupported gpu id" },
      .cause = "the model's config.pbtxt names a GPU in instance_group { gpus: [...] } that this Triton does "
               "not have or cannot use (fewer GPUs visible than the config assumes, or one below the lowest "
               "compute capability)",
      .fix = "list only the GPU ids the message gives as usable, or make the GPUs visible to the container",
      .check = "system.visibility" },
    { .id = "triton.no_gpu_build", .layer = FW,
      .match = { "has kind KIND_GPU but server does not support GPUs" },
      .cause = "this tritonserver build has no GPU support (TRITON_ENABLE_GPU off, a CPU-only build), so "
               "KIND_GPU instance groups cannot run",
      .fix = "use NVIDIA's GPU image of Triton (nvcr.io/nvidia/tritonserver:XX.YY-py3) or build with GPU "
             "support",
      .check = "framework.cuda" },
    { .id = "sdwebui.nans", .layer = FW,
      .match = { "NaNs was produced in Unet", "NaNs was produced in VAE" },
      .cause = "the model ran in half precision (fp16) and produced NaNs: the GPU handles fp16 badly (GTX 16xx "
               "and older cards) or the model (an SDXL VAE) overflows fp16's range",
      .fix = "start with --no-half-vae (the VAE) or --no-half / --upcast-sampling (the UNet), or use a fixed "
             "fp16 VAE",
      .check = NULL },
    { .id = "ctranslate2.oom", .layer = AP,
      .match = { "CUDA failed with error out of memory" },
      .cause = "CTranslate2 (faster-whisper, WhisperX) found no GPU memory for the model or its batch: the "
               "model size, beam or batch is too large, or another process holds the memory",
      .fix = "use a smaller model or compute_type int8_float16, a smaller batch_size or beam_size, and free the "
             "GPU of other processes",
      .check = "system.memory_headroom" },
    { .id = "ctranslate2.unknown", .layer = DR,
      .match = { "CUDA failed with error unknown error" },
      .cause = "CUDA's first call under CTranslate2 returned cudaErrorUnknown: the driver is in a bad state "
               "(after suspend and resume, or an upgrade without a reboot) or nvidia_uvm is not loaded",
      .fix = "reload nvidia_uvm (sudo rmmod nvidia_uvm && sudo modprobe nvidia_uvm) or reboot; check nvidia-smi "
             "first",
      .check = "driver.cuinit" },
    { .id = "ctranslate2.compute_type", .layer = FW,
      .match = { "compute type, but the target device", "AWQ Gemm does not support for cuda arch" },
      .cause = "the GPU is too old for the requested compute type: float16 needs compute capability 7.0 for "
               "speed (5.3 at all), int8 6.1, bfloat16 8.0, AWQ 7.5",
      .fix = "ask for a compute type the GPU has (compute_type=\"float32\" or \"int8\"; \"default\" picks one), or "
             "run on a newer GPU",
      .check = "framework.arch" },
    { .id = "ctranslate2.no_cuda", .layer = FW,
      .match = { "CTranslate2 package was not compiled with CUDA" },
      .cause = "the installed ctranslate2 is a CPU-only build (macOS, ARM wheels, a source build without CUDA)",
      .fix = "install a CUDA wheel of ctranslate2 (Linux/Windows x86_64 from PyPI) or build it with "
             "-DWITH_CUDA=ON -DWITH_CUDNN=ON",
      .check = "framework.cuda" },
    { .id = "hashcat.no_nvrtc", .layer = RT,
      .match = { "CUDA SDK Toolkit not installed or incorrectly installed",
                 "CUDA SDK Toolkit required for proper device support",
                 "Failed to initialize NVIDIA RTC library", "Outdated NVIDIA NVRTC driver version" },
      .cause = "hashcat found the driver but not a usable NVRTC (libnvrtc / nvrtc64_*.dll, part of the CUDA "
               "toolkit), so it cannot build its CUDA kernels and falls back to OpenCL",
      .fix = "install the CUDA toolkit (or its NVRTC package, cuda-nvrtc) of a version the driver supports and "
             "put its library folder on the loader path",
      .check = NULL },
    { .id = "hashcat.memory", .layer = AP,
      .match = { "cuMemAlloc(): out of memory", "Not enough allocatable device memory for this" },
      .cause = "the attack's buffers (hash list, rules, workload tuning) do not fit in the GPU's free memory",
      .fix = "lower the workload (-w 1..3, -n/-u), split the hash list or rules, or use a GPU with more memory",
      .check = "system.memory_headroom" },
    { .id = "hashcat.no_platform", .layer = DR,
      .match = { "No OpenCL, HIP or CUDA compatible platform found" },
      .cause = "hashcat could load neither the driver's CUDA library (libcuda) nor an OpenCL driver for the "
               "GPU: no NVIDIA driver installed or working here, or a container without the GPU",
      .fix = "install the NVIDIA driver (nvidia-smi must work in the same environment), or give the container "
             "the GPU (--gpus all)",
      .check = "driver.libcuda" },
    { .id = "blender.gpu_too_old", .layer = FW,
      .match = { "CUDA device supported only with compute capability",
                 "Failed to load CUDA kernel from" },
      .unless = "Unsupported PTX version",     /* PTX newer than the driver's JIT: driver.too_old */
      .cause = "this Blender's Cycles kernels were not built for the GPU: it is older than the lowest "
               "architecture they support, or the prebuilt kernel for it is missing or needs a newer driver",
      .fix = "use a Blender release that still supports the GPU (or render on the CPU), or update the driver; "
             "build Cycles' kernels for the architecture if you build Blender",
      .check = "framework.arch" },
    { .id = "driver.optix", .layer = DR,
      .match = { "OptiX initialization failed with error code",
                 "driver does not support ABI version", "OPTIX_ERROR_UNSUPPORTED_ABI_VERSION",
                 "OPTIX_ERROR_LIBRARY_NOT_FOUND", "Error reading OptiX library" /* Accelerad */, "failed with code 7801",
                 "failed with code 7804" },
      .cause = "OptiX could not start: the driver is older than the OptiX ABI the program was built with, or "
               "its OptiX libraries (libnvoptix, libnvidia-rtcore) are missing (containers and WSL that do not "
               "mount them)",
      .fix = "update the NVIDIA driver; in a container give it the graphics capability "
             "(NVIDIA_DRIVER_CAPABILITIES=all) so the runtime mounts libnvoptix",
      .check = "driver.libcuda" },
    { .id = "frigate.tensorrt_amd64", .layer = FW,
      .match = { "TensorRT detector is no longer supported on amd64" },
      .cause = "Frigate 0.15 and newer removed the TensorRT detector from its x86-64 images",
      .fix = "switch the detector to onnx with the -tensorrt image (Frigate's docs list the models), or stay on "
             "0.14",
      .check = NULL },
    { .id = "gromacs.no_gpu_code", .layer = FW,
      .match = { "binary does not include support for the CUDA architecture",
                 "GROMACS binary has been built without GPU support", ", stat: incompatible" },
      .cause = "this GROMACS cannot use the GPU: it was built without GPU support, without kernels for this "
               "GPU's architecture, or the GPU is older than it supports",
      .fix = "build GROMACS with -DGMX_GPU=CUDA and the GPU's architecture (GMX_CUDA_TARGET_SM), or use a build "
             "or GPU it supports",
      .check = "framework.arch" },
    { .id = "gromacs.gpu_not_usable", .layer = SY,
      .match = { ", stat: unavailable", "on a GPU because no GPU is detected" },
      .cause = "GROMACS found no GPU it may use: none visible (CUDA_VISIBLE_DEVICES, a job or container without "
               "the GPU) or each one busy in exclusive-process mode with another process",
      .fix = "ask the scheduler or container for the GPU and check nvidia-smi in the same job; free a GPU held "
             "in exclusive mode",
      .check = "system.visibility" },
    { .id = "gromacs.gpu_nonfunctional", .layer = DR,
      .match = { ", stat: non-functional" },
      .cause = "GROMACS' test kernel could not run on the GPU: the driver is older than the CUDA runtime "
               "GROMACS was built with, or the driver or GPU is in a bad state",
      .fix = "update the driver to one that supports GROMACS' CUDA (nvidia-smi's CUDA Version), or reset the "
             "GPU",
      .check = "runtime.driver_compat" },
    { .id = NULL }
};
