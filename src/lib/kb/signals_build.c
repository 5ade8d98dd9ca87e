/*
 * Explain rows for building CUDA code: nvcc and its host compiler, CMake's
 * CUDA support, PyTorch's cpp_extension and the extensions and companion
 * packages built against one framework and imported into another.  Most
 * causes live in the toolkit the build finds (runtime layer); an extension
 * or companion package that does not match the installed framework is the
 * framework layer's.
 *
 * Phrases are the tools' fixed words ("nvcc fatal   : Unsupported gpu
 * architecture 'compute_89'" gives "Unsupported gpu architecture"), never
 * the versions, paths or architectures around them.
 *
 * To add a row: see signals_cuda.c.
 */
#include "signals.h"

#define SY CP_LAYER_SYSTEM
#define DR CP_LAYER_DRIVER
#define RT CP_LAYER_RUNTIME
#define LI CP_LAYER_LIBRARIES
#define FW CP_LAYER_FRAMEWORK

/* an undefined symbol in PyTorch's C++ namespaces (c10, at, torch, caffe2), as mangled on the line */
#define TORCH_CXX_SYMBOL { "symbol: _zn3c10", "symbol: _znk3c10", "symbol: _zn2at", "symbol: _znk2at", \
                           "symbol: _zn5torch", "symbol: _znk5torch", "symbol: _zn6caffe2" }

/* nvcc (and ptxas, clang, torch's cpp_extension) not knowing the architecture a build asks for */
#define NVCC_UNKNOWN_ARCH "Unsupported gpu architecture", "is not defined for option 'gpu-architecture'", \
    "is not defined for option 'gpu-name'" /* ptxas */, "unsupported CUDA gpu architecture" /* clang */, \
    "Unknown CUDA arch (" /* torch cpp_extension */

/* torch.utils.cpp_extension and apex refusing a toolkit other than the one PyTorch was built with */
#define TORCH_TOOLKIT_MISMATCH "mismatches the version that was used to compile", \
    "does not match the version torch was compiled with", \
    "Cuda extensions are being compiled with a version of Cuda that does not match" /* NVIDIA apex */

/* CMake finding no nvcc (build.cmake_no_nvcc and its reading as the project's own configuration share it) */
#define CMAKE_NO_NVCC "Could not find compiler set in environment variable CUDACXX", "CMAKE_CUDA_COMPILER not set", \
    "No CMAKE_CUDA_COMPILER could be found", "Failed to find nvcc", "CUDA compiler identification is unknown"

/* a compiler or linker missing the toolkit's headers or link libraries (build.toolkit_headers and the same
 * reading) */
#define TOOLKIT_HEADERS_MISSING "cuda_runtime.h: No such file", "cuda.h: No such file", \
    "cuda_runtime_api.h: No such file", "cannot find -lcudart", "cannot find -lcublas", \
    "cannot open source file \"cuda_runtime.h\"", "Cannot find source file: cuda_runtime.h"

const cp_signal cp_signals_build[] = {
    { .id = "build.nvcc_unknown_arch", .layer = RT, .match = { NVCC_UNKNOWN_ARCH },
      .cause = "this nvcc does not know the GPU architecture the build asks for: the toolkit is older than "
               "the GPU (sm_89/sm_90 need CUDA 11.8, sm_100/sm_120 need 12.8) or newer than the arch "
               "(CUDA 12 dropped sm_35/37, CUDA 13 sm_50 to sm_72)",
      .fix = "install a CUDA toolkit that supports the architecture and build with it (CUDA_HOME, PATH), "
             "or take the arch out of the list (TORCH_CUDA_ARCH_LIST, CMAKE_CUDA_ARCHITECTURES, -gencode/-arch)",
      .check = "runtime.toolkits" },
    /* the same, read from the build's side: the list is the project's or the user's setting */
    { .id = "application.build_arch_list_maybe", .layer = CP_LAYER_APPLICATION, .alternative = 1,
      .match = { NVCC_UNKNOWN_ARCH },
      .cause = "or the build's own list asks for it: the project's setup.py or CMakeLists hard-codes -gencode / "
               "CMAKE_CUDA_ARCHITECTURES, or TORCH_CUDA_ARCH_LIST names an arch, that this toolkit does not know "
               "(too new for it) or no longer has (compute_35 in CUDA 12)",
      .fix = "build for the GPU you have: TORCH_CUDA_ARCH_LIST=\"8.6\" (the GPU's compute capability), "
             "CMAKE_CUDA_ARCHITECTURES=86 or native, or remove the project's hard-coded -gencode line for the arch",
      .check = "runtime.toolkits" },
    /* the same, read from the framework's side: torch's extension builder (and packages that build for every
     * architecture) chose the arch, not the project */
    { .id = "framework.extension_arch_flags_maybe", .layer = FW, .alternative = 1,
      .match = { NVCC_UNKNOWN_ARCH },
      .cause = "or the framework's extension builder chose it: with no TORCH_CUDA_ARCH_LIST set, "
               "torch.utils.cpp_extension asks for the architecture of every visible GPU (and a PyTorch built for "
               "a newer CUDA for archs of its own list), so an RTX 30 or 40 GPU asks an older nvcc for sm_86 or "
               "sm_89; a package that builds fat binaries for all archs does the same",
      .fix = "set TORCH_CUDA_ARCH_LIST to architectures this nvcc lists (nvcc --list-gpu-arch) before building, "
             "or use a PyTorch whose CUDA (torch.version.cuda) matches the toolkit, or the package's release "
             "that builds only the archs the toolkit knows",
      .check = "runtime.toolkits" },
    { .id = "build.no_toolkit", .layer = RT,
      .match = { "CUDA_HOME environment variable is not set", "The nvcc binary could not be located",
                 "nvcc: not found", "nvcc: command not found", "'nvcc' is not recognized as an internal or external command",
                 "/bin/nvcc", "CUDA_HOME does not exist" /* DeepSpeed's op builder */ },
      .also = { "environment variable is not set", "could not be located", "not found", "not recognized",
                "No such file or directory", "does not exist" },
      .cause = "the build needs the CUDA toolkit's nvcc but cannot find it: no toolkit installed (a driver "
               "or the pip CUDA runtime has no nvcc), or it is not on PATH / CUDA_HOME where the build runs "
               "(sudo drops PATH; a stray ':' in CUDA_HOME)",
      .fix = "install the CUDA toolkit of the framework's CUDA version (or the conda/pip cuda-nvcc package), "
             "then export CUDA_HOME=/usr/local/cuda-X.Y and put $CUDA_HOME/bin on PATH in the shell that builds",
      .check = "runtime.toolkits" },
    { .id = "build.cmake_no_cuda", .layer = RT,
      .match = { "Failed to find nvcc", "No CMAKE_CUDA_COMPILER could be found", "Could NOT find CUDA (missing",
                 "Could NOT find CUDAToolkit", "The CUDA compiler identification is unknown",
                 "Failed to detect a default CUDA architecture", "CUDA_ARCHITECTURES is empty for target",
                 "CMAKE_CUDA_ARCHITECTURES must be non-empty" },
      .cause = "CMake cannot find or cannot use the CUDA compiler: nvcc is not installed or not on PATH, "
               "its test compile fails (unsupported host compiler, broken toolkit), or no CUDA "
               "architecture is given (policy CMP0104)",
      .fix = "install the toolkit and pass it to CMake (-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc or "
             "CUDAToolkit_ROOT), set -DCMAKE_CUDA_ARCHITECTURES (e.g. native or 86), and read "
             "CMakeFiles/CMakeError.log for the failing test compile",
      .check = "runtime.toolkits" },
    { .id = "build.torch_cuda_mismatch", .layer = RT,
      .unless = "accepting this combination",  /* DeepSpeed: same major, accepted */
      .match = { TORCH_TOOLKIT_MISMATCH },
      .cause = "the CUDA toolkit the extension build found (nvcc) differs from the CUDA the installed PyTorch "
               "was built with, so torch.utils.cpp_extension refuses to build",
      .fix = "point CUDA_HOME at a toolkit of torch's CUDA version (torch.version.cuda), or install the "
             "PyTorch build for the toolkit you have",
      .check = "runtime.toolkits" },
    /* the same, read from PyTorch's side: the wheel is what changes where the toolkit is the system's */
    { .id = "framework.torch_for_toolkit_maybe", .layer = FW, .alternative = 1,
      .unless = "accepting this combination",
      .match = { TORCH_TOOLKIT_MISMATCH },
      .cause = "or the PyTorch installed is the one to change: pip's default wheel is built for another CUDA "
               "(cu12x) than the toolkit this machine has, where the toolkit is the system's or the cluster's",
      .fix = "install the PyTorch build for the toolkit you have (nvcc --version; pip install torch --index-url "
             "https://download.pytorch.org/whl/cuXYZ), then rebuild the extension",
      .check = "framework.cuda" },
    { .id = "build.host_compiler", .layer = RT,
      .match = { "unsupported GNU version", "unsupported clang version", "unsupported Microsoft Visual Studio version",
                 "is greater than the maximum required version by CUDA", "Cannot find compiler 'cl.exe'" },
      .cause = "nvcc cannot use the host C++ compiler: it is newer than this CUDA toolkit supports (each "
               "toolkit caps the gcc, clang and MSVC versions) or, on Windows, not on PATH",
      .fix = "build with a supported older compiler (e.g. CC=gcc-12 CXX=g++-12, or nvcc -ccbin g++-12) or "
             "upgrade the CUDA toolkit; -allow-unsupported-compiler is a last resort" },
    { .id = "build.ninja_missing", .layer = RT, .match = { "Ninja is required to load C++ extensions", "op due to ninja not being installed" },
      .cause = "torch.utils.cpp_extension builds CUDA extensions with ninja, and no ninja is installed in this "
               "environment (or not on PATH)",
      .fix = "pip install ninja (or the distribution's ninja-build) in the same environment and run the build again" },
    { .id = "build.cxx_standard", .layer = RT,
      .match = { "C++17 or later compatible compiler is required to use PyTorch",
                 "C++17 or later compatible compiler is required", "requires at least C++17" },
      .cause = "the extension is compiled for an older C++ standard than PyTorch's headers need: an old host "
               "compiler, or -std=c++14 in the build's flags (nvcc's or the host compiler's)",
      .fix = "compile with -std=c++17 for both the host compiler and nvcc (extra_compile_args), with a gcc of 9 "
             "or newer that this CUDA toolkit supports" },
    { .id = "build.arch_too_low", .layer = RT,
      .match = { "no instance of overloaded function \"atomicAdd\" matches", "identifier \"__hmul2\" is undefined",
                 "identifier \"__hadd2\" is undefined", "identifier \"__hfma2\" is undefined",
                 "identifier \"__half2float\" is undefined", "identifier \"__shfl_sync\" is undefined",
                 "identifier \"__ldg\" is undefined", "identifier \"__nv_bfloat16\" is undefined" },
      .cause = "the code uses a device intrinsic that the architecture it is compiled for lacks: nvcc compiled for "
               "its default or an old -arch (atomicAdd on double needs sm_60, half arithmetic sm_53, bfloat16 "
               "sm_80)",
      .fix = "compile for the GPU's architecture: -arch=sm_XX (CMAKE_CUDA_ARCHITECTURES, TORCH_CUDA_ARCH_LIST), "
             "or guard the code with __CUDA_ARCH__ for older targets" },
    { .id = "kernel.package_firmware_files", .layer = CP_LAYER_KERNEL, .match = { "cannot stat 'firmware/gsp" },
      .cause = "a driver package's build script expects the GSP firmware files of another driver release: from "
               "525 the driver ships one file per GPU family (gsp_tu10x.bin, gsp_ga10x.bin) instead of one "
               "gsp.bin, so a script written for the older layout stops",
      .fix = "update the package's script (PKGBUILD, spec file) to the release's firmware list, or take the "
             "distribution's or NVIDIA's package of that release",
      .check = "kernel.nvidia_module" },
/* the linker, or CMake's FindCUDA at configure time, finding no libcuda.so */
#define CP_PHRASES_LIBCUDA_LINK "cannot find -lcuda", "CUDA_CUDA_LIBRARY (ADVANCED)"
    { .id = "driver.libcuda_link", .layer = DR, .match = { CP_PHRASES_LIBCUDA_LINK },
      .unless = "-lcudart",
      .cause = "the linker found no libcuda.so: the driver ships libcuda.so.1, and the unversioned link the "
               "linker needs comes with the driver's development package (Triton and torch.compile link their "
               "kernels' launchers against it; WSL keeps it in /usr/lib/wsl/lib)",
      .fix = "run `ldconfig -p | grep libcuda`: add the link (ln -s libcuda.so.1 libcuda.so in the driver's "
             "library folder, or install the driver's -dev package), set TRITON_LIBCUDA_PATH to its folder, or "
             "link against the toolkit's lib64/stubs for a build without a driver",
      .check = "driver.libcuda" },
    /* the same, read from the environment's side: the file is there and the build is not told where */
    { .id = "system.linker_path_maybe", .layer = SY, .alternative = 1, .match = { CP_PHRASES_LIBCUDA_LINK },
      .unless = "-lcudart",
      .cause = "or libcuda.so is there and the linker is not told where: it sits in a folder outside the "
               "linker's search path (the toolkit's lib64/stubs, /usr/lib/wsl/lib, a conda environment's lib), "
               "so the environment's LIBRARY_PATH or ldconfig's cache is what to change",
      .fix = "export LIBRARY_PATH=FOLDER:$LIBRARY_PATH for the folder that holds libcuda.so (the stubs folder for "
             "a build only; the driver's folder to run), and run ldconfig after adding the driver's folder",
      .check = "driver.libcuda" },
    { .id = "build.companion_cuda", .layer = FW,
      .match = { "were compiled with different CUDA", "Detected that PyTorch and",
                 "operator torchvision::nms does not exist" /* torchvision's ops built for another torch */ },
      .also = { "were compiled with different", "torchvision::" },  /* the message may wrap before "CUDA" */
      .cause = "a companion package (torchvision, torchaudio, torch_scatter...) was built for another CUDA "
               "version than the installed torch",
      .fix = "install torch and its companions from the same index (e.g. --index-url "
             "https://download.pytorch.org/whl/cu121) at matching versions",
      .check = "framework.conflicts" },
    /* the same, where the companion was built here from source: the toolkit that built it */
    { .id = "runtime.companion_toolkit_maybe", .layer = RT, .alternative = 1,
      .match = { "were compiled with different CUDA", "Detected that PyTorch and" },
      .also = { "were compiled with different" },
      .cause = "or the companion was built here from source (pip install without a wheel for this torch, setup.py) "
               "with a toolkit of another CUDA than torch's: the nvcc on PATH or under CUDA_HOME",
      .fix = "point CUDA_HOME (and PATH) at a toolkit of torch's CUDA (torch.version.cuda) and rebuild it with "
             "pip install --no-cache-dir --no-build-isolation, or take its prebuilt wheel for this torch and CUDA",
      .check = "runtime.toolkits" },
    { .id = "build.extension_abi", .layer = FW,
      .match = { "undefined symbol: " },
      /* the symbol's C++ namespace: c10, at, torch, caffe2 (mangled); xFormers' own wording is
       * xformers.build_mismatch's */
      .also = TORCH_CXX_SYMBOL,
      .cause = "a compiled PyTorch extension (flash-attn, xFormers, apex, vLLM's _C, torchvision, a model's custom op ...) was built "
               "against another PyTorch release or C++ ABI than the one installed, so a PyTorch (c10 / at::) function it calls does not exist",
      .fix = "install the extension's wheel built for exactly this PyTorch, CUDA and C++ ABI (flash-attn names them: "
             "+cu12torch2.Xcxx11abiTRUE/FALSE; torch._C._GLIBCXX_USE_CXX11_ABI tells which), or rebuild it against the installed "
             "PyTorch (pip install --no-build-isolation --force-reinstall --no-cache-dir PACKAGE)",
      .check = "framework.found" },
    /* the same where the extension lives in the project's own tree, not in an installed package: it is the
     * project's build, and the fix is rebuilding it in place */
    { .id = "application.own_extension_abi_maybe", .layer = CP_LAYER_APPLICATION, .alternative = 1,
      .match = { "undefined symbol: " }, .unless = "-packages/",
      .also = TORCH_CXX_SYMBOL,
      .cause = "or the extension is the project's own, built in its source tree (python setup.py build develop) against "
               "a PyTorch other than the one now installed",
      .fix = "remove the project's build/ folder and its compiled *.so files, then rebuild it with the installed PyTorch "
             "(python setup.py build develop, or pip install -e . --no-build-isolation)",
      .check = "framework.found" },
    /* libtorch_python's Python type of a tensor, whose name is not mangled: the extension was loaded before torch */
    { .id = "application.extension_before_torch", .layer = CP_LAYER_APPLICATION,
      .match = { "undefined symbol: THPVariableClass" },
      .cause = "a compiled PyTorch extension uses libtorch_python's THPVariableClass, which is loaded only "
               "by `import torch`: the program imported the extension's .so before torch",
      .fix = "import torch before the extension (import torch, then import the_extension) in the program and in "
             "any module that loads the extension; rebuild the extension if it still fails",
      .check = "framework.found" },
    /* the same, read from PyTorch's side: from 1.5 it loads its libraries so that extensions do not see them */
    { .id = "framework.torch_symbols_local_maybe", .layer = FW, .alternative = 1,
      .match = { "undefined symbol: THPVariableClass" },
      .cause = "or torch is imported first and its release hides the symbol from the extension: from 1.5 "
               "PyTorch loads its libraries with RTLD_LOCAL, so an extension that does not link libtorch_python "
               "itself no longer finds them",
      .fix = "rebuild the extension with the installed PyTorch's torch.utils.cpp_extension (it links "
             "libtorch_python) after removing its build folder, set TORCH_USE_RTLD_GLOBAL=YES before importing "
             "torch, or use the PyTorch release the extension was written for",
      .check = "framework.found" },
    { .id = "build.extension_abi_windows", .layer = FW, .match = { "DLL load failed while importing" },
      .also = { "procedure could not be found", "找不到指定的程序", "プロシージャが見つかりません" },
      .cause = "a compiled extension's DLL (exllamav2_ext, flash-attn, xFormers, a model's custom op) calls a "
               "function the installed PyTorch or CUDA DLLs do not export: it was built for another PyTorch, "
               "CUDA or Python than the ones installed",
      .fix = "install the extension's wheel built for exactly this Python, PyTorch and CUDA (its name says them: "
             "cp311, torch2.3.0, cu121), or the PyTorch it names; pip show torch and the wheel's name side by side "
             "tell which differs",
      .check = "framework.found" },
    { .id = "build.ptxas_ptx_too_new", .layer = RT, .match = { "Unsupported .version" },
      .also = { ".ptx, line" },               /* a toolkit's ptxas on a file; the driver's JIT says "ptx input" */
      .cause = "a toolkit's ptxas (the assembler nvcc, Triton or XLA ran) is older than the PTX it was given: the "
               "PTX was written for a newer PTX ISA than this toolkit knows",
      .fix = "use the newer assembler: a toolkit at least as new as the PTX (ptxas --version), or the one the tool "
             "bundles (Triton ships its own: unset TRITON_PTXAS_PATH; XLA: the nvidia-cuda-nvcc wheel)",
      .check = "runtime.toolkits" },
    { .id = "build.no_host_compiler", .layer = RT,
      .match = { "Failed to find C compiler. Please specify via CC environment variable" },
      .cause = "Triton compiles a small C launcher for each kernel with the system's C compiler, and none was found",
      .fix = "install a C compiler (build-essential / gcc, or the conda compilers) or point CC at one",
      .check = "runtime.toolkits" },
    { .id = "build.host_compiler_too_new", .layer = RT, .match = { "parameter packs not expanded with" },
      .also = { "std_function.h" },
      .cause = "nvcc's front end rejects the host compiler's C++ standard library: a GCC 11 libstdc++ "
               "(std_function.h) with CUDA 11.4-11.6, whose nvcc cannot parse it",
      .fix = "build with an older host compiler (CC=gcc-10 CXX=g++-10, or nvcc -ccbin g++-10) or a CUDA 11.7 or "
             "newer toolkit",
      .check = "runtime.toolkits" },
    { .id = "build.rdc_not_linked", .layer = CP_LAYER_APPLICATION, .match = { "undefined reference to `__cudaRegisterLinkedBinary_" },
      .cause = "CUDA code compiled as relocatable device code (-rdc=true, separable compilation) was never "
               "device-linked, so the registration function the device link writes is missing",
      .fix = "device-link it: in CMake set CUDA_SEPARABLE_COMPILATION ON (and CUDA_RESOLVE_DEVICE_SYMBOLS) on the "
             "target that links it, or add an nvcc -dlink step; or compile without -rdc",
      .check = NULL },
    { .id = "build.deepspeed_op_not_built", .layer = RT, .match = { "object has no attribute 'ds_opt_adam'" },
      .cause = "DeepSpeed's CPU Adam op was never built: its just-in-time build failed, most often because the "
               "CUDA toolkit it found differs from PyTorch's CUDA (or no toolkit or compiler is there)",
      .fix = "scroll up to the op's build error; install the toolkit of torch.version.cuda and point CUDA_HOME at "
             "it, or pre-build the op (DS_BUILD_CPU_ADAM=1 pip install deepspeed); ds_report shows which ops build",
      .check = "runtime.toolkits" },
    /* a tool's own error form, whatever its sentence (fallbacks: a row that says more wins the line) */
    { .id = "build.nvcc_fatal", .layer = RT, .fallback = 1, .match = { "nvcc fatal" },
      .cause = "nvcc stopped before compiling: an option it does not take (an architecture this toolkit does not "
               "know, a flag of a newer nvcc), a host compiler it does not support, or a file it cannot read or "
               "write (a full or unwritable TMPDIR)",
      .fix = "read nvcc's sentence; `nvcc --version` and `nvcc --list-gpu-arch` show what this toolkit takes; "
             "use the toolkit the framework was built with (CUDA_HOME), a supported host compiler (-ccbin), and "
             "a writable TMPDIR with room",
      .check = NULL },
/* nvcc refusing a language standard, in its words */
#define CP_PHRASES_NVCC_STD_VALUE "is not defined for option 'std'"
    /* an empty -std: the build's own flags are broken */
    { .id = "application.nvcc_std_empty", .layer = CP_LAYER_APPLICATION,
      .match = { "Value '' is not defined for option 'std'" },
      .cause = "the build gives nvcc an empty -std value: its flags are split wrong (a Makefile that put another "
               "flag between -std= and c++NN)",
      .fix = "fix the build's flags: one -std=c++NN, with nothing between = and the standard",
      .check = NULL },
    /* a standard this nvcc does not know: an older toolkit, or the host's flag handed to nvcc */
    { .id = "runtime.nvcc_std_unknown", .layer = RT, .match = { CP_PHRASES_NVCC_STD_VALUE },
      .unless = "Value ''",
      .cause = "the nvcc building the code does not know this language standard: it is older than the standard "
               "(c++14 needs CUDA 9, c++17 CUDA 11, c++20 CUDA 12), often another toolkit first on PATH or "
               "CUDA_HOME than the one the framework was built with",
      .fix = "`which nvcc; nvcc --version`: build with a toolkit that knows the standard (the framework's "
             "torch.version.cuda, first on PATH or in CUDA_HOME)",
      .check = "runtime.toolkits" },
    { .id = "application.nvcc_std_flag_maybe", .layer = CP_LAYER_APPLICATION, .alternative = 1,
      .match = { CP_PHRASES_NVCC_STD_VALUE }, .unless = "Value ''",
      .cause = "or the project's build hands nvcc a standard meant for the host compiler, which this nvcc does "
               "not take",
      .fix = "pass the host's standard with -Xcompiler / --compiler-options, or give nvcc a -std it lists "
             "(`nvcc --help | grep -A3 std`)",
      .check = NULL },
    /* PyTorch's CMake (before nvtx3) and others look for the NVTX 2 library, which CUDA 12.6 no longer ships */
    { .id = "framework.nvtoolsext_gone", .layer = CP_LAYER_FRAMEWORK,
      .match = { "Failed to find nvToolsExt", "Could not find nvToolsExt" },
      .cause = "the package's build looks for libnvToolsExt (NVTX 2), which CUDA 12.6 and later no longer ship "
               "(NVTX 3 is header-only): the package's CMake predates that toolkit",
      .fix = "build a package release that uses nvtx3 (PyTorch 2.5 and later, or its main branch), or build "
             "with a toolkit before 12.6; installing NVTX 2 from an older toolkit also satisfies it",
      .check = "runtime.toolkits" },
    { .id = "build.nvcc_failed", .layer = RT, .fallback = 1,
      .match = { "nvcc' failed with exit", "nvcc\" failed with exit", "nvcc failed with exit" },
      .cause = "a CUDA extension's build failed in nvcc; the first error above this line says why: most often a "
               "toolkit other than the one the framework was built with, a host compiler nvcc does not support, "
               "an architecture it does not know, or the compiler killed for memory (too many parallel jobs)",
      .fix = "scroll up to the first 'error'; build with the toolkit matching torch.version.cuda (CUDA_HOME), a "
             "supported gcc, TORCH_CUDA_ARCH_LIST set to the GPUs you have, and fewer jobs (MAX_JOBS=2), or install "
             "a prebuilt wheel for your torch and CUDA",
      .check = NULL },
    { .id = "build.toolkit_headers", .layer = RT,
      .match = { TOOLKIT_HEADERS_MISSING },
      .cause = "the build cannot find the CUDA toolkit's headers or its link libraries: only CUDA's run-time "
               "libraries are installed (a driver, conda's cudatoolkit, pip's nvidia-* wheels hold no headers "
               "or nvcc), or the build looks in another place than the toolkit's (CUDA_HOME, CPATH, LIBRARY_PATH)",
      .fix = "install the full CUDA toolkit of the version the framework uses (or conda's cuda-toolkit / "
             "cuda-nvcc and cuda-cudart-dev) and point the build at it: CUDA_HOME=/usr/local/cuda-X.Y, "
             "CPATH=$CUDA_HOME/include, LIBRARY_PATH=$CUDA_HOME/lib64",
      .check = "runtime.toolkits" },
    { .id = "build.extension_failed", .layer = RT, .fallback = 1,
      .match = { "Command '['ninja', '-v']' returned non-zero exit status", "Error building extension",
                 "Failed building wheel for", "Error compiling objects for extension", "Failed building editable for",
                 "ninja: build stopped: subcommand failed" },
      .also = { "ninja", "extension", "wheel", "editable" },
      .cause = "a CUDA or C++ extension failed to build (ahead of time or just in time); the compiler's first "
               "'error' above says why: most often a CUDA toolkit other than the framework's, a host compiler "
               "that nvcc does not support, an architecture it does not know, or memory for parallel jobs",
      .fix = "find the first 'error:' in the build output; build with the toolkit matching torch.version.cuda "
             "(CUDA_HOME), a gcc that toolkit supports, TORCH_CUDA_ARCH_LIST for your GPUs and MAX_JOBS=2, or "
             "install a prebuilt wheel of the package for your torch and CUDA",
      .check = NULL },
/* ptxas refusing a pre-Volta warp intrinsic, in its words */
#define CP_PHRASES_SHFL_WITHOUT_SYNC "without '.sync' is not supported on .target sm_"
/* what a compiler says of a name it does not know: g++, nvcc, clang, gcc's C */
#define CP_ALSO_UNDECLARED "was not declared in this scope", "is undefined", "undeclared identifier", \
    "undeclared (first use"
/* THC's headers, which PyTorch 1.11 removed */
#define CP_PHRASES_THC_HEADERS "THC/THC.h", "THC/THCAtomics.cuh", "THC/THCDeviceUtils.cuh", "THC/THCNumerics.cuh", \
    "THC/THCGeneral.h"
    /* PyTorch removed THC (its old CUDA helpers) in 1.11: an extension that still includes it fails to build */
    { .id = "application.extension_thc", .layer = CP_LAYER_APPLICATION,
      .match = { CP_PHRASES_THC_HEADERS }, .also = { "No such file", "cannot open" },
      .cause = "the extension's source includes THC, the CUDA helper headers PyTorch 1.11 removed: the project's "
               "CUDA extension was written for an older torch",
      .fix = "take the project's release or patch without THC (ATen's at::cuda::getCurrentCUDAStream, "
             "c10::cuda::CUDACachingAllocator, ATen/cuda/Atomic.cuh), or build against the torch < 1.11 it "
             "was written for",
      .check = "framework.found" },
    /* the same, where the code is a package's (horovod, a pip-installed extension library), not the project's */
    { .id = "framework.package_predates_torch_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { CP_PHRASES_THC_HEADERS }, .also = { "No such file", "cannot open" },
      .cause = "or the code is a package built on torch (horovod before 0.24, an extension library installed by "
               "pip) whose release predates this torch",
      .fix = "install the package's release for this torch (pip install -U PACKAGE), or the torch it names",
      .check = "framework.found" },
    /* PyTorch removed AT_CHECK in 1.5 (TORCH_CHECK replaces it): an extension written before fails to compile */
    { .id = "application.extension_at_check", .layer = CP_LAYER_APPLICATION, .match = { "AT_CHECK" },
      .also = { CP_ALSO_UNDECLARED, "identifier not found" },
      .cause = "the extension's source uses AT_CHECK, which PyTorch 1.5 removed (TORCH_CHECK replaced it): the "
               "project's CUDA/C++ extension was written for an older torch",
      .fix = "replace AT_CHECK with TORCH_CHECK in the extension's sources (or take the project's release that "
             "did), or build against the torch < 1.5 it was written for",
      .check = "framework.found" },
    /* warp shuffles without .sync: PTX ISA 6.4 rejects them for Volta and newer */
    { .id = "application.shfl_without_sync", .layer = CP_LAYER_APPLICATION, .match = { CP_PHRASES_SHFL_WITHOUT_SYNC },
      .cause = "the code being built uses the warp shuffle or vote intrinsics of before CUDA 9 (__shfl, __any "
               "without _sync), which PTX ISA 6.4 and later reject for sm_70 and newer: the project's own "
               "kernels, or an old header library it brings (CUB 1.5, an old moderngpu)",
      .fix = "move the code to the _sync intrinsics (__shfl_sync(0xffffffff, ...)), or update the header library "
             "it bundles (CUB 1.8 or later, or the toolkit's own CUB); an older -arch than sm_70 only hides it",
      .check = NULL },
    { .id = "libraries.header_library_old_maybe", .layer = LI, .alternative = 1,
      .match = { CP_PHRASES_SHFL_WITHOUT_SYNC },
      .cause = "or the shuffles come from a header library the build picks up (an old CUB, cutlass or "
               "moderngpu on the include path) rather than the project's own code",
      .fix = "point the build at a current release of that library (CUB_HOME, the include path) or the toolkit's "
             "own CUB",
      .check = NULL },
    /* CCCL (Thrust, CUB, libcu++) moves with the toolkit: code written for one CUDA fails against another's */
#define CP_PHRASES_CCCL_NAME_MISSING "namespace \"thrust\" has no member", "namespace \"cub\" has no member", \
    "namespace \"thrust::system\" has no member", "is not a member of 'thrust'", "is not a member of 'cub'"
    { .id = "runtime.cub_ns_qualifier", .layer = RT, .match = { "CUB requires a definition of CUB_NS_QUALIFIER" },
      .cause = "the project defines CUB_NS_PREFIX/CUB_NS_POSTFIX (CUB's old custom namespace), which the toolkit's "
               "CUB (CUDA 12.3 and later) only accepts with CUB_NS_QUALIFIER: the project was written for an "
               "older toolkit's CUB",
      .fix = "build with a toolkit the project supports (its README or CI names one, often CUDA 11.x or up to "
             "12.2), or take a project release written for the newer CUB (CUB_WRAPPED_NAMESPACE)",
      .check = "runtime.toolkits" },
    { .id = "application.cccl_api_changed", .layer = CP_LAYER_APPLICATION,
      .match = { CP_PHRASES_CCCL_NAME_MISSING },
      .cause = "the project's code uses a Thrust or CUB name the toolkit's CCCL no longer gives (CUDA 13 dropped "
               "deprecated APIs and the headers that brought others in), or one it does not have yet",
      .fix = "take the project's release or patch for this CUDA (include the header that declares the name, use "
             "its replacement), or build with the toolkit the project was written for",
      .check = "runtime.toolkits" },
    { .id = "runtime.cccl_api_changed_maybe", .layer = RT, .alternative = 1,
      .match = { CP_PHRASES_CCCL_NAME_MISSING },
      .cause = "or the toolkit on the build's path is another than the project supports (a newer CUDA first on "
               "PATH or CUDA_HOME)",
      .fix = "nvcc --version where it builds: put the toolkit the project names first (PATH, CUDA_HOME, CMake's "
             "CUDAToolkit_ROOT) and build again",
      .check = "runtime.toolkits" },
    /* a CUDA library's name the installed headers do not declare: the project's code and the library's
     * release disagree (an enum added or removed between releases: cuDNN 8 dropped
     * CUDNN_CONVOLUTION_FWD_PREFER_FASTEST, cuSPARSE 11.2 added CUSPARSE_SPMV_ALG_DEFAULT).  Its enum
     * names, quoted as gcc, clang and nvcc quote them; a function's name (cudnnFoo) has no boundary
     * a phrase could end on. */
#define CP_PHRASES_LIBRARY_ENUM_QUOTED "'CUSPARSE_", "\"CUSPARSE_", "'CUBLAS_", "\"CUBLAS_", "'CUDNN_", \
    "\"CUDNN_", "'CUFFT_", "\"CUFFT_", "'CUSOLVER", "\"CUSOLVER", "'CURAND_", "\"CURAND_"
    { .id = "application.library_name_undeclared", .layer = CP_LAYER_APPLICATION,
      .match = { CP_PHRASES_LIBRARY_ENUM_QUOTED },
      .also = { CP_ALSO_UNDECLARED },
      .cause = "the project's code names a cuSPARSE, cuBLAS, cuDNN, cuFFT, cuSOLVER or cuRAND constant that "
               "the installed library's headers do not declare: it was added in a later release, or "
               "removed in this one (cuSPARSE's legacy API in CUDA 11, cuDNN 8's and 9's removals), and the code "
               "does not choose by version",
      .fix = "take the project's release for this CUDA and library version (or guard the name by "
             "CUSPARSE_VERSION, CUDNN_MAJOR, CUDART_VERSION), or build against the library release it was "
             "written for",
      .check = "libraries.found" },
    { .id = "libraries.release_not_projects_maybe", .layer = LI, .alternative = 1,
      .match = { CP_PHRASES_LIBRARY_ENUM_QUOTED },
      .also = { CP_ALSO_UNDECLARED },
      .cause = "or the build finds another release of the library than the one installed for it (an old copy's "
               "headers first on the include path)",
      .fix = "check which header the build includes (`-H`, or the CMake find module's result) and point it at "
             "the release the project needs",
      .check = "libraries.shadow" },
    /* Rust crates' build scripts (cudarc, find_cuda_helper for cust and the miners built on it) */
    { .id = "framework.cudarc_toolkit_unknown", .layer = FW, .match = { "Unsupported cuda toolkit version:" },
      .cause = "the cudarc crate's build script does not know the installed CUDA toolkit's version: the crate's "
               "release predates that toolkit (each release lists the CUDA versions it has bindings for)",
      .fix = "update cudarc (cargo update -p cudarc, or the release of the program that depends on it) to one "
             "that knows this CUDA, or pick a listed version with its cuda-NNNNN feature",
      .check = "runtime.toolkits" },
    { .id = "framework.cudarc_lib_names", .layer = FW, .match = { "lib under the names [" },
      .also = { "Unable to find" },
      .cause = "cudarc looks for each CUDA library (nvrtc, cublas, curand, cudnn) under a list of file names its "
               "release knows; the installed toolkit's file (Windows' nvrtc64_120_0.dll, a newer CUDA's "
               "libnvrtc.so.13) carries a name the list lacks, or the library is not on the path at all",
      .fix = "update cudarc (cargo update -p cudarc, or the program's release that depends on a newer one); "
             "check that the library named is installed and on PATH (Windows) or LD_LIBRARY_PATH",
      .check = "libraries.found" },
    { .id = "runtime.rust_toolkit_not_found", .layer = RT, .match = { "Could not find a cuda installation" },
      .cause = "the crate's build script (find_cuda_helper, used by cust and the programs built on it) found no "
               "CUDA toolkit: none is installed, or CUDA_PATH / CUDA_ROOT / CUDA_TOOLKIT_ROOT_DIR do not name it",
      .fix = "install the CUDA toolkit (not only the driver) and set CUDA_PATH (Windows) or CUDA_ROOT to its "
             "folder, then build again",
      .check = "runtime.toolkits" },
    /* nvcc 9.2 and later put these calls in every kernel launch stub; an older libcudart has none */
    { .id = "build.cudart_older_than_nvcc", .layer = RT,
      .match = { "__cudaPushCallConfiguration", "__cudaPopCallConfiguration" },
      .cause = "objects compiled by nvcc 9.2 or later are linked against an older CUDA runtime: another toolkit's "
               "libcudart comes first on the link line or library path, or a compiler (PGI/NVHPC, an older "
               "toolkit) links its own bundled CUDA",
      .fix = "link with the libcudart of the nvcc that compiled the objects (its lib64 first, -L and -lcudart, or "
             "the same CUDA version selected in the other compiler, e.g. pgcc -ta=nvidia,cudaX.Y), or compile "
             "everything with one toolkit",
      .check = "runtime.toolkits" },
    /* the same failure read from the package's side: pip built it from source because no wheel fits */
    { .id = "framework.no_prebuilt_wheel_maybe", .layer = FW, .alternative = 1,
      .match = { "Failed building wheel for" },
      .cause = "or the package has no prebuilt wheel for this torch, CUDA and Python, so pip fell back to building "
               "it from source: an old release pinned against a newer torch (mmcv-full, torch-scatter, "
               "detectron2)",
      .fix = "install a release that has a prebuilt wheel for this torch and CUDA, from the project's own index "
             "(mmcv's -f https://download.openmmlab.com/mmcv/dist/cuXXX/torchX.Y/index.html, PyG's data.pyg.org), "
             "or the torch that the pinned release was built for",
      .check = "framework.found" },
    { .id = "build.library_headers", .layer = CP_LAYER_LIBRARIES,
      .match = { "cudnn.h: No such file", "cudnn_version.h: No such file", "nccl.h: No such file",
                 "cusparseLt.h: No such file", "cutensor.h: No such file", "cannot find -lcudnn", "cannot find -lnccl",
                 "cannot find -lcurand", "cannot find -lcufft", "cannot find -lcusparse", "cannot find -lcusolver" },
      .cause = "the build needs a CUDA library's headers or link library that is not where it looks: cuDNN and "
               "NCCL come apart from the toolkit (their -dev packages, or the nvidia-cudnn / nvidia-nccl wheels, "
               "whose include folders builds do not search by themselves); cuRAND, cuFFT, cuSPARSE and cuSOLVER "
               "from pip's nvidia-* wheels bring only libX.so.N, not the unversioned libX.so the linker's -lX needs",
      .fix = "install the library's development files for your CUDA major (libcudnn9-dev-cuda-12, libnccl-dev, "
             "or conda's cudnn / nccl) or point the build at the wheel's folders (CUDNN_INCLUDE_DIR / CPATH and "
             "LIBRARY_PATH to site-packages/nvidia/cudnn/include and lib); for -lcurand and its kin install the "
             "toolkit's library (cuda-libraries-dev) or link libX.so to the wheel's libX.so.N in a folder on "
             "LIBRARY_PATH",
      .check = "libraries.found" },
    { .id = "build.toolkit_mix", .layer = RT,
      .match = { "The version of CUB in your include path is not compatible with this release of Thrust",
                 "CUB version in your include path is not compatible" },
      .cause = "the build mixes two CUDA toolkits' headers: Thrust from one (often /usr/include, a distribution's "
               "CUDA) and CUB from another (the toolkit nvcc belongs to)",
      .fix = "build with one toolkit: remove the distribution's CUDA headers from the include path (or the "
             "package), put $CUDA_HOME/include first, and use that toolkit's nvcc",
      .check = "runtime.toolkits" },
    { .id = "build.ptxas_too_old", .layer = RT,
      .match = { "ptxas does not support CC", "ptxas too old", "ptxas is too old" },
      .cause = "the ptxas found (an older CUDA toolkit's, first on PATH) does not know this GPU's compute "
               "capability, so code for it cannot be assembled; XLA then falls back to the driver and may fail",
      .fix = "put a ptxas that knows the GPU first: the toolkit of the framework's CUDA (or the nvidia-cuda-nvcc "
             "wheel JAX installs with jax[cuda12]); remove the old toolkit from PATH",
      .check = "runtime.toolkits" },
    { .id = "build.nvvm_missing", .layer = RT,
      .match = { "libNVVM cannot be found", "open_cudalib('nvvm')", "NvvmSupportError", "NVVM not found",
                 "Missing libdevice file" /* Numba: libdevice.10.bc, part of nvvm */ },
      .cause = "Numba (or another JIT) cannot find NVVM, the CUDA toolkit's compiler library: no toolkit where it "
               "looks (CUDA_HOME, conda's cuda-nvcc), or only the run-time libraries are installed",
      .fix = "install the toolkit's NVVM for your CUDA (conda install cuda-nvcc, or pip install "
             "nvidia-cuda-nvcc-cuXX / numba-cuda[cuXX]) or set CUDA_HOME to a full toolkit",
      .check = "runtime.toolkits" },
    { .id = "build.cmake_no_nvcc", .layer = RT,
      .match = { CMAKE_NO_NVCC },
      .cause = "CMake found no working nvcc: CUDACXX or CMAKE_CUDA_COMPILER names a path where there is none, no "
               "CUDA toolkit is installed, or (Windows) the toolkit's Visual Studio integration is missing",
      .fix = "point CMake at the toolkit's nvcc (-DCMAKE_CUDA_COMPILER=$CUDA_HOME/bin/nvcc, or CUDACXX), install "
             "the toolkit (conda's cuda-nvcc works too), or on Windows reinstall it with the Visual Studio integration",
      .check = "runtime.toolkits" },
    /* the same two, read from the project's side: its build files decide where CUDA is asked for and looked up */
    { .id = "application.build_config_cuda_maybe", .layer = CP_LAYER_APPLICATION, .alternative = 1,
      .match = { CMAKE_NO_NVCC, TOOLKIT_HEADERS_MISSING },
      .cause = "or the project's own build files: they ask for CUDA where none is needed (a CUDA option that "
               "defaults to ON, pulled in by a dependency), or do not hand the toolkit on (a superbuild's inner "
               "build without CMAKE_CUDA_COMPILER, include and link folders written for another install)",
      .fix = "read the project's build options: turn its CUDA option off for a build without a GPU "
             "(-DENABLE_CUDA=OFF or its like), pass -DCMAKE_CUDA_COMPILER on to inner builds, and take the "
             "toolkit's folders from CMake (CUDAToolkit_INCLUDE_DIRS, CUDA::cudart) instead of fixed paths",
      .check = NULL },
    { .id = "build.ptxas_shared_memory", .layer = CP_LAYER_APPLICATION, .match = { "uses too much shared data" },
      .also = { "ptxas", "Entry function" },
      .cause = "a kernel of the program declares more static shared memory than the architecture it is built "
               "for allows a kernel to take statically (48 KiB): the program's code (a tile or block size) asks "
               "too much for that GPU generation",
      .fix = "use the project's fix or an older release that builds for this architecture; in the code, move "
             "the buffer to dynamic shared memory (extern __shared__, with cudaFuncSetAttribute for over 48 KiB) "
             "or shrink the tile; or build only for the newer architectures that fit it",
      .check = NULL },
    { .id = "system.build_oom", .layer = SY,
      .match = { "died due to signal 9", "Killed signal terminated program cc1plus",
                 "signal terminated program cicc", "signal terminated program cc1plus" },
      .cause = "the kernel's OOM killer (or a cgroup or Slurm memory limit) killed the compiler: too many "
               "parallel compile jobs ran out of host RAM on heavy CUDA sources (CUTLASS, flash-attention, "
               "xformers)",
      .fix = "build with fewer jobs (MAX_JOBS=2 for torch extensions, make -j2, CMAKE_BUILD_PARALLEL_LEVEL), "
             "add RAM or swap, or install a prebuilt wheel; dmesg shows the OOM killer",
      .check = NULL },
    /* the same, read from the package's build: it compiles every architecture where one would do */
    { .id = "framework.build_all_archs_maybe", .layer = FW, .alternative = 1,
      .match = { "died due to signal 9", "signal terminated program cicc" },
      .cause = "or the package's build compiles its heavy kernels for every architecture it supports (onnxruntime's "
               "and flash-attention's sm80/sm90 kernels, xformers), each a cicc run of several GB",
      .fix = "build only for this GPU's architecture (CMAKE_CUDA_ARCHITECTURES=86, TORCH_CUDA_ARCH_LIST=\"8.6\", "
             "onnxruntime's --cmake_extra_defines CMAKE_CUDA_ARCHITECTURES=...), or install the package's wheel",
      .check = NULL },
    { .id = "deepspeed.ops_mismatch", .layer = FW,
      .match = { "version mismatch! DeepSpeed ops were compiled" },
      .cause = "DeepSpeed's prebuilt ops were compiled against another torch or another CUDA than the torch now "
               "imported",
      .fix = "reinstall DeepSpeed against this torch (pip install deepspeed --no-cache-dir, DS_BUILD_OPS=1 if "
             "you prebuild), or install the torch it was built for",
      .check = "framework.libs" },
    { .id = "deepspeed.no_cuda_home", .layer = RT,
      .match = { "cuda is missing or is incompatible with installed torch",
                 "only cpu ops can be compiled" },
      .cause = "DeepSpeed found no CUDA toolkit (torch's CUDA_HOME is None: no nvcc where it looks), so it "
               "builds only its CPU ops",
      .fix = "install a CUDA toolkit of torch's CUDA major version and set CUDA_HOME to it (or conda install "
             "cuda-nvcc), then reinstall DeepSpeed",
      .check = NULL },
    { .id = "deepspeed.no_arch_left", .layer = RT,
      .match = { "no compute capabilities remaining after filtering" },
      .cause = "every architecture in TORCH_CUDA_ARCH_LIST (or every visible GPU) was filtered out by the op's "
               "lowest supported architecture, so nothing is left to compile for",
      .fix = "set TORCH_CUDA_ARCH_LIST to the GPUs' architectures the op supports (e.g. \"8.0;8.6;9.0\"), or skip "
             "that op",
      .check = NULL },
    { .id = "deepspeed.precompile_no_torch", .layer = FW,
      .match = { "Unable to pre-compile ops without torch installed" },
      .cause = "DS_BUILD_* asked for prebuilt ops, but the build environment has no torch (pip builds in an "
               "isolated environment)",
      .fix = "install torch first and build without isolation: pip install deepspeed --no-build-isolation",
      .check = "framework.found" },
    { .id = "deepspeed.gpu_too_old", .layer = FW,
      .match = { "NVIDIA Inference is only supported on Pascal and newer" },
      .cause = "the GPU's compute capability is below 6.0, so DeepSpeed's inference kernels are not available "
               "on it",
      .fix = "run on a Pascal or newer GPU, or without DeepSpeed's inference kernels",
      .check = "framework.arch" },
    { .id = "bitsandbytes.cuda_binary", .layer = FW,
      .match = { "is NOT distributed with this package",
                 "No compatible CUDA library found (tried:", "Configured CUDA binary not found at",
                 "No compatible CUDA binary found at" },
      .cause = "the bitsandbytes wheel has no library (libbitsandbytes_cudaXYZ.so) for the CUDA of this torch, "
               "or for the one BNB_CUDA_VERSION asks for",
      .fix = "pip install -U bitsandbytes (a release built for this CUDA), unset a stale BNB_CUDA_VERSION, or "
             "build it from source for this CUDA",
      .check = "framework.libs" },
    { .id = "bitsandbytes.missing_dependency", .layer = LI,
      .match = { "CUDA SETUP ERROR: Missing dependency",
                 "runtime libraries were not found in the LD_LIBRARY_PATH" },
      .cause = "bitsandbytes' CUDA library could not load a CUDA library it links (libcudart, libcublas, "
               "libcublasLt, libcusparse): it is not on the loader's path",
      .fix = "install the CUDA runtime libraries of that version (the nvidia-*-cu12 wheels or a toolkit) and "
             "put their folder on LD_LIBRARY_PATH",
      .check = "framework.libs" },
    { .id = "apex.python_only", .layer = FW,
      .match = { "Apex was installed without --cpp_ext --cuda_ext",
                 "MultiTensorApply is not available" },
      .cause = "NVIDIA apex was installed without its CUDA extensions (or they were built for another torch), "
               "so its fused kernels are missing",
      .fix = "reinstall apex with its extensions for this torch: pip install -v --no-build-isolation "
             "--config-settings \"--build-option=--cpp_ext\" --config-settings \"--build-option=--cuda_ext\" ./",
      .check = "framework.libs" },
    { .id = "build.toolkit_too_old", .layer = RT,
      .match = { "FlashAttention is only supported on CUDA 11.7 and above",
                 "FlashAttention-3 is only supported on CUDA 12.3" },
      .cause = "the CUDA toolkit (nvcc) the build found is older than the package needs",
      .fix = "install a newer toolkit and point CUDA_HOME (and PATH) at it, or install a prebuilt wheel",
      .check = NULL },
    { .id = "build.cmake_cuda_paths", .layer = RT,
      .match = { "Could not find the compiler specified in the environment variable CUDACXX",
                 "Could not find the compiler specified in the variable CMAKE_CUDA_HOST_COMPILER",
                 "environment variable CUDAHOSTCXX", "Couldn't find CUDA library root",
                 "No CUDA toolset found." },
      .cause = "CMake was pointed at CUDA pieces that are not there: CUDACXX or the host compiler names a path "
               "that does not exist, the toolkit next to nvcc is partial, or (Visual Studio) CUDA's MSBuild "
               "integration is missing",
      .fix = "point CUDACXX at an existing nvcc (and CMAKE_CUDA_HOST_COMPILER at an installed supported g++), "
             "install the whole toolkit, or on Windows reinstall CUDA with its Visual Studio integration after "
             "Visual Studio",
      .check = NULL },
    { .id = NULL }
};
