/*
 * Explain rows for the CUDA libraries: NCCL results and messages, cuBLAS
 * statuses (CUBLAS_STATUS_*), cuFFT results (CUFFT_*), cuSOLVER, cuSPARSE
 * and cuRAND statuses (also in the forms frameworks print them) and cuDNN
 * statuses (CUDNN_STATUS_*).
 *
 * Every status the installed headers declare (cublasStatus_t in
 * cublas_api.h, cufftResult in cufft.h, cusolverStatus_t in
 * cusolver_common.h, cusparseStatus_t in cusparse.h, curandStatus in
 * curand.h, cudnnStatus_t in cudnn_graph.h with cuDNN 9's sub-codes and
 * deprecated names, ncclResult_t in nccl.h) is claimed by exactly one row;
 * statuses share a row only where cause and fix coincide, and a row that
 * holds several names says which one means what.  A status name is matched
 * whole (word boundaries), so CUDNN_STATUS_BAD_PARAM does not fire inside
 * CUDNN_STATUS_BAD_PARAM_NULL_POINTER.  NCCL's messages are matched in the
 * forms ncclGetErrorString and PyTorch print them; the short ones only on
 * a line that says "nccl".
 *
 * To add a row: see signals_cuda.c.
 */
#include "signals.h"

#define HW CP_LAYER_HARDWARE
#define DR CP_LAYER_DRIVER
#define SY CP_LAYER_SYSTEM
#define LI CP_LAYER_LIBRARIES
#define AP CP_LAYER_APPLICATION

#define F_NCCL_DEBUG "rerun with NCCL_DEBUG=INFO (and NCCL_DEBUG_SUBSYS=INIT,NET) and read the first WARN line on every rank"
#define F_CUDNN_LOG "cuDNN's error log (CUDNN_LOGLEVEL_DBG=2 CUDNN_LOGDEST_DBG=stderr; cuDNN 8: CUDNN_LOGERR_DBG=1)"

const cp_signal cp_signals_libs[] = {
    { .id = "nccl.p2p_ipc_unsupported", .layer = CP_LAYER_SYSTEM, .match = { "failed to open CUDA IPC handle" },
      .also = { "peer access is not supported", " 217" },
      .cause = "NCCL's peer-to-peer transport could not map the other process's GPU memory: the two GPUs cannot "
               "reach each other by peer access as this process sees them: each worker sees only its own GPU "
               "(CUDA_VISIBLE_DEVICES set per process by Ray, Slurm or a launcher), or P2P is off (a VM, IOMMU/ACS, "
               "GPUs without P2P between their PCIe roots)",
      .fix = "let each worker see every GPU of the node and pick its own by index, or run with NCCL_P2P_DISABLE=1 "
             "(NCCL falls back to shared memory); `nvidia-smi topo -p2p r` shows which pairs can read each other",
      .check = "system.visibility" },
    { .id = "nccl.unhandled_cuda", .layer = LI, .match = { "ncclUnhandledCudaError", "unhandled cuda error" },
      .cause = "a CUDA call inside NCCL failed; the CUDA error underneath is the real cause (often a driver, peer-access or memory problem)",
      .fix = F_NCCL_DEBUG "; the CUDA error it names is what to fix",
      .check = "libraries.driver" },
    { .id = "nccl.system", .layer = SY, .match = { "ncclSystemError", "unhandled system error" },
      .cause = "an OS or network call failed in NCCL: often /dev/shm too small in a container, a wrong network interface, or InfiniBand setup",
      .fix = "give containers more shared memory (--shm-size=8g or --ipc=host), set NCCL_SOCKET_IFNAME to the right interface; " F_NCCL_DEBUG,
      .check = "system.container" },
    { .id = "nccl.internal", .layer = LI,
      .match = { "ncclInternalError", "internal error - please report this issue to the NCCL developers",
                 ", internal error, NCCL version" },   /* PyTorch with NCCL before 2.12 */
      .cause = "NCCL hit an internal inconsistency, often from mismatched NCCL versions across ranks or a broken topology detection",
      .fix = "use the same NCCL version on every rank, then " F_NCCL_DEBUG, .check = "libraries.shadow" },
    { .id = "nccl.ib_completion", .layer = SY, .match = { "NET/IB : Got completion", "with status=IBV_WC_" },
      .cause = "an InfiniBand/RoCE transfer between nodes failed on the NIC: error 12 (retry count exceeded) means the two NICs cannot "
               "reach each other or the link keeps timing out (a cable, switch port, RoCE routing or GID index), error 4 (local "
               "protection) a GPUDirect RDMA mapping the NIC may not use (ACS/IOMMU between NIC and GPU, peer memory module)",
      .fix = "test the pair of nodes with ib_write_bw and check the ports (ibstat: State Active); for RoCE set NCCL_IB_GID_INDEX; "
             "for error 4 disable PCIe ACS / the IOMMU on the path or load nvidia-peermem; NCCL_IB_DISABLE=1 (sockets) tells a "
             "fabric fault from the rest",
      .check = NULL },
    { .id = "nccl.duplicate_gpu", .layer = AP, .match = { "Duplicate GPU detected" },
      .cause = "two ranks of one NCCL communicator run on the same GPU: the processes did not each select their own device (no "
               "torch.cuda.set_device(local_rank), a hard-coded cuda:0 or default device), CUDA_VISIBLE_DEVICES gives every rank "
               "the same GPU, or more ranks were started than there are GPUs",
      .fix = "give each rank its own GPU: call torch.cuda.set_device(LOCAL_RANK) (or device=f\"cuda:{local_rank}\") before creating the "
             "process group, start no more processes per node than GPUs (--nproc_per_node), and leave CUDA_VISIBLE_DEVICES unset per "
             "rank or distinct",
      .check = "system.visibility" },
    { .id = "cudnn.zlib_missing", .layer = LI, .match = { "Could not locate zlibwapi.dll" },
      .cause = "cuDNN 8's Windows DLLs need zlibwapi.dll (zlib with the WINAPI calling convention), which is not "
               "installed or not on PATH",
      .fix = "install zlib for cuDNN (NVIDIA's cuDNN install guide links zlibwapi.dll) next to the cuDNN DLLs or "
             "on PATH, or move to cuDNN 9, which no longer needs it",
      .check = "libraries.shadow" },
    { .id = "nccl.invalid_usage", .layer = AP,
      .match = { "ncclInvalidUsage", "ncclInvalidArgument", "ncclInProgress",
                 "invalid argument (run with NCCL_DEBUG=WARN", "invalid usage (run with NCCL_DEBUG=WARN",
                 ", invalid argument, NCCL version", ", invalid usage, NCCL version",   /* PyTorch, older NCCL */
                 "'invalid usage'",                                                   /* nccl-tests, older NCCL */
                 "NCCL operation in progress" },
      .also = { "nccl" },
      .cause = "the program called NCCL wrongly: an invalid argument (a NULL or host buffer, a bad count, datatype, root, rank or config value), "
               "ranks that disagree on sizes, dtypes or the order of collectives, or two ranks on one GPU; "
               "ncclInProgress (\"NCCL operation in progress\") is no failure but the state of a non-blocking communicator (config.blocking = 0) whose call has not finished yet",
      .fix = "NCCL_DEBUG=WARN names the argument or check that failed (the \"Last error\" line): fix that call, run the same collectives in the same order on every rank, "
             "and give each rank its own GPU (LOCAL_RANK); with a non-blocking communicator poll ncclCommGetAsyncError until it stops returning ncclInProgress before using the communicator again",
      .check = "system.visibility" },
    { .id = "nccl.remote", .layer = SY,
      .match = { "ncclRemoteError", "remote process exited or there was a network error" },
      .cause = "a peer rank died or the network between ranks dropped; this rank only saw the consequence",
      .fix = "read the logs of the other ranks first (their first error is the cause); then check the network links", .check = NULL },
    /* the program's reading first: a rank that never reached the collective is most often its own doing */
    { .id = "nccl.watchdog_timeout", .layer = AP, .match = { "Watchdog caught collective operation timeout" },
      .cause = "a collective did not finish in time: some rank did not reach it: it is slower (uneven data, extra "
               "work such as evaluation or checkpointing on one rank), stuck, crashed, runs a different code path, "
               "or the timeout the program set is too short for its work",
      .fix = "find the rank that did not reach the collective (py-spy dump, TORCH_NCCL_DESYNC_DEBUG=1); raise the timeout only if work is just slow",
      .check = NULL },
    { .id = "nccl.watchdog_transport_maybe", .layer = LI, .alternative = 1,
      .match = { "Watchdog caught collective operation timeout" },
      .cause = "or NCCL itself hung with every rank inside the collective: a transport that stalls (a P2P or "
               "shared-memory path that deadlocks on this platform, an InfiniBand or RoCE link with errors)",
      .fix = "rerun with NCCL_DEBUG=INFO and, to test the paths, NCCL_P2P_DISABLE=1 or NCCL_SHM_DISABLE=1 or "
             "NCCL_IB_DISABLE=1 one at a time; nccl-tests' all_reduce_perf on the same GPUs shows whether NCCL "
             "alone hangs",
      .check = NULL },
    { .id = "nccl.no_pci_path", .layer = SY, .match = { "Could not find real path of /sys/class/pci_bus" },
      .cause = "NCCL cannot read the GPU's place in the PCI tree from /sys: the platform hides it (WSL2's GPU "
               "paravirtualisation has no PCI device, some VMs and containers mount a partial /sys), so its "
               "topology detection fails",
      .fix = "on WSL2 run one process per GPU without NCCL, or use a native Linux host; in a container mount the "
             "host's /sys (read-only) and check that /sys/bus/pci/devices lists the GPU",
      .check = NULL },
    { .id = "mpi.no_cuda_support", .layer = LI,
      .match = { "The user requested CUDA support with the", "GTL library is not linked",
                 "not compiled with CUDA support" },
      .also = { "CUDA", "cuda", "GPU" },
      .cause = "the MPI library in use has no CUDA support built in (a CUDA-unaware Open MPI package, Cray MPICH "
               "without its GPU transport library linked), so passing GPU buffers to it fails",
      .fix = "use a CUDA-aware MPI build (ompi_info --parsable --all | grep mpi_built_with_cuda_support:value; "
             "conda-forge's openmpi with the cuda build, or the site's module), and on Cray link with the "
             "compiler wrappers (cc, CC) so GTL is linked",
      .check = NULL },
    { .id = "hardware.ib_port_error", .layer = HW,
      .match = { "Got async event : port error", "Got async event : local catastrophic error",
                 "Got async event : GID table change" },
      .cause = "the InfiniBand (or RoCE) adapter reported its port going down or failing under NCCL: a flapping "
               "link (a cable, a transceiver, a switch port) or a failing adapter",
      .fix = "check the links' error counters and state (ibstat, ibqueryerrors, perfquery, the fabric manager's "
             "view such as UFM), reseat or replace the cable and transceiver, and move the job off the node meanwhile",
      .check = NULL },
    { .id = "system.profiling_restricted", .layer = SY,
      .match = { "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "ERR_NVGPUCTRPERM" },
      .cause = "the GPU's performance counters are open to administrators only (the driver's default, "
               "NVreg_RestrictProfilingToAdminUsers=1), and this process is not one: a normal user, or a "
               "container without CAP_SYS_ADMIN",
      .fix = "run the profiler as root or give the container --cap-add SYS_ADMIN; or let all users profile: "
             "options nvidia NVreg_RestrictProfilingToAdminUsers=0 in /etc/modprobe.d, then reload the module or "
             "reboot (Windows: the NVIDIA Control Panel's developer setting)",
      .check = NULL },
    { .id = "cupti.multiple_subscribers", .layer = CP_LAYER_FRAMEWORK, .match = { "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED" },
      .cause = "a second CUPTI client tried to subscribe in a process that already has one: the framework's own "
               "profiler (PyTorch's Kineto, TensorFlow's) and an injected or attached tool, or two profilers",
      .fix = "run one profiler at a time: turn the framework's profiler off while an outside tool (Nsight, a "
             "tracer) runs, or the other way round; a framework build that subscribes at start needs its fix",
      .check = NULL },
    { .id = "torch.cudnn_plan_warning", .layer = CP_LAYER_FRAMEWORK, .match = { "Plan failed with a cudnnException" },
      .cause = "PyTorch's cuDNN path tried a convolution plan cuDNN refused and fell back to another: PyTorch 2.3.0 "
               "warns of it for every such plan, although training goes on correctly",
      .fix = "nothing fails; upgrade PyTorch (2.3.1 and later keep it quiet), or filter the UserWarning",
      .check = "framework.cuda" },
    { .id = "app.collective_cpu_tensor", .layer = AP,
      .match = { "Tensors must be CUDA and dense", "No backend type associated with device type cpu" },
      .cause = "the program handed a CPU tensor to a collective of an NCCL process group, which moves only GPU "
               "tensors: a buffer or value left on the CPU, a model not moved to its GPU before DDP wraps it",
      .fix = "move the tensor (or the model, before DistributedDataParallel) to the rank's GPU first (.cuda(), "
             ".to(local_rank)), or run CPU collectives on a gloo group (init_process_group(\"cpu:gloo,cuda:nccl\"))",
      .check = NULL },
    { .id = "ucx.cuda_ipc", .layer = LI, .match = { "failed to open ipc mem handle" },
      .cause = "UCX's or UCC's CUDA IPC transport could not open another process's GPU memory handle: the "
               "processes do not share an IPC namespace (separate containers without --ipc=host), the GPUs "
               "cannot map each other's memory, or the library reopened a handle already open (a UCX/UCC bug)",
      .fix = "run the ranks in one IPC namespace (--ipc=host, one pod), check peer access between the GPUs, "
             "and leave the transport out to confirm (UCX_TLS=^cuda_ipc, UCC_TL_CUDA_TUNE or "
             "UCC_CL_BASIC_TLS=^cuda / ^mlx5); update UCX and UCC",
      .check = NULL },
    { .id = "nccl.shm_space", .layer = SY,
      .match = { "Call to posix_fallocate failed", "Error while creating shared memory segment", "Error while attaching to shared memory segment",
                 "failed to extend /dev/shm", "Call to shm_open failed", "Could not map /dev/shm/nccl-",
                 "failed to create shared memory file" },
      .cause = "NCCL's shared-memory transport could not create or open its segment in /dev/shm: the file system is too small (Docker "
               "gives a container 64 MB by default), full of stale segments, not writable, or not shared by the processes (separate "
               "containers without --ipc=host), so ranks on one host cannot exchange data through it",
      .fix = "give the container more shared memory (docker run --shm-size=8g or --ipc=host; Kubernetes: an emptyDir of medium Memory "
             "on /dev/shm) and check df -h /dev/shm; NCCL_SHM_DISABLE=1 avoids it at some speed cost",
      .check = "system.container" },
    { .id = "nccl.warn", .layer = LI, .match = { "NCCL WARN" },
      .unless = "Failed to open libibverbs",   /* no InfiniBand here: NCCL falls back to sockets */
      .cause = "NCCL logged a warning; the text after WARN says which part failed (socket, IB, shm, CUDA)",
      .fix = "read the first NCCL WARN line on each rank: it is usually the real cause of the later error", .check = NULL,
      .notice = 1 },   /* a row that knows the words after WARN (nccl.shm_space ...) ranks first */

    /* A CUDA library resolved against an older copy of the library it depends on */
    { .id = "libs.symbol_version", .layer = LI,
      .match = { "version libcublasLt.so", "version libnvJitLink.so", "version libcudnn", "version libcublas.so", "version libcusparse.so",
                 "version libcufft.so", "version libcudart.so", "version libnccl.so", "version libnvrtc.so", "version libcurand.so",
                 "version libcusolver.so" },
      .also = { "undefined symbol", "with link time reference" /* glibc's other form */ },
      .cause = "a CUDA library (often PyTorch's pip-installed cuBLAS or cuSPARSE) was bound to another, older copy of the library it "
               "depends on (cuBLASLt, nvJitLink, ...) that lacks the named symbol: a system CUDA or another package's copy on "
               "LD_LIBRARY_PATH (or in ld.so.conf) is found before the one installed with it",
      .fix = "remove the other CUDA's lib directory from LD_LIBRARY_PATH (or ld.so.conf) for this program, or reinstall the matching "
             "nvidia-* wheels (pip install --force-reinstall nvidia-cublas-cuXX nvidia-nvjitlink-cuXX) so both libraries come from one release; "
             "ldd on the library named first shows which copy is picked",
      .check = "libraries.shadow" },
    /* the same, read from torch's side: the nvidia-* wheels torch pins, out of step after another install */
    { .id = "framework.pinned_wheels_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { "version libnvJitLink.so", "version libcublasLt.so", "version libcusparse.so" },
      .also = { "site-packages/nvidia/", "site-packages\\nvidia\\", "site-packages/torch/" },
      .cause = "or torch's own install is out of step: its pinned nvidia-* wheels (cuSPARSE, nvJitLink, cuBLAS) come from "
               "another torch release or CUDA after a later pip install upgraded or downgraded one of them",
      .fix = "reinstall torch with its companions from one index (pip install --force-reinstall torch torchvision "
             "torchaudio --index-url https://download.pytorch.org/whl/cuXXX) so its nvidia-* wheels match it; "
             "pip check lists the mismatch",
      .check = "framework.libs" },

    /* cuBLAS (cublasStatus_t) */
    { .id = "cublas.not_initialized", .layer = LI,
      .match = { "CUBLAS_STATUS_NOT_INITIALIZED", "the library was not initialized" /* cublasGetStatusString */ },
      .cause = "cuBLAS could not create its handle, almost always because the GPU was out of memory or the CUDA context was already broken",
      .fix = "check free GPU memory and the first CUDA error in the log; a mismatched cuBLAS copy on the library path is the rarer cause",
      .check = "system.memory_headroom" },
    { .id = "cublas.alloc_failed", .layer = AP,
      .match = { "CUBLAS_STATUS_ALLOC_FAILED", "the resource allocation failed" /* cublasGetStatusString */ },
      .cause = "cuBLAS could not allocate its workspace: GPU memory is used up",
      .fix = "lower the batch size, free memory, or stop other processes on the GPU", .check = "system.memory_headroom" },
    { .id = "cublas.invalid_value", .layer = AP,
      .match = { "CUBLAS_STATUS_INVALID_VALUE", "an unsupported value or parameter was passed to the function" },
      .cause = "cuBLAS rejected an argument of the call: a negative size, a leading dimension smaller than the rows, a misaligned pointer, "
               "or a type or setting the routine does not take; behind a framework it is often a second cuBLAS release loaded in place of the one "
               "the framework was built with, or sizes past cuBLAS's 32-bit limits",
      .fix = "log the failing call's sizes, leading dimensions and types (CUBLAS_LOGINFO_DBG=1 CUBLAS_LOGDEST_DBG=stderr) and fix the wrong one; "
             "in a framework keep only the cuBLAS its build expects on the library path (pip list | grep nvidia-cublas, LD_LIBRARY_PATH) and split very large batches",
      .check = "libraries.shadow" },
    { .id = "cublas.other_library_maybe", .layer = LI, .alternative = 1,
      .match = { "CUBLAS_STATUS_INVALID_VALUE when calling", "CUBLAS_STATUS_NOT_SUPPORTED when calling" },
      .cause = "or, behind a framework, another cuBLAS than the one it was built with was loaded: a system CUDA "
               "or an LD_LIBRARY_PATH entry before the framework's own nvidia-cublas wheel (its routines then "
               "refuse arguments the framework's release takes)",
      .fix = "see which libcublas the process loads (LD_DEBUG=libs, or /proc/PID/maps); unset LD_LIBRARY_PATH or "
             "drop the system CUDA from it, and keep one cuBLAS (pip list | grep nvidia-cublas) matching the "
             "framework's CUDA",
      .check = "libraries.shadow" },
    { .id = "cublas.arch_mismatch", .layer = LI,
      .match = { "CUBLAS_STATUS_ARCH_MISMATCH", "requires an architectural feature absent from the device" },
      .cause = "the cuBLAS in use does not support this GPU's architecture (or the operation needs a newer GPU, e.g. a dtype)",
      .fix = "use a cuBLAS/CUDA release that supports this GPU, or a dtype the GPU supports", .check = "framework.arch" },
    /* the same, read from the program's side: the call it makes needs a newer GPU than the one it runs on */
    { .id = "application.gpu_too_old_for_call_maybe", .layer = CP_LAYER_APPLICATION, .alternative = 1,
      .match = { "CUBLAS_STATUS_ARCH_MISMATCH", "CUDNN_STATUS_ARCH_MISMATCH",
                 "cublasLt ran into an error" /* bitsandbytes' int8 matmul: Turing's int8 tensor cores */ },
      .cause = "or the program asks the library for a call this GPU is too old for, whatever the release: "
               "cublasGemmEx and tensor-op math need compute capability 5.0 or more, bf16 and tf32 8.0 (a Tesla "
               "K80 is 3.7), cuDNN at all 3.0 or more (a Fermi C2050 is 2.0), bitsandbytes' 8-bit matmul "
               "int8 tensor cores (7.5)",
      .fix = "run on a newer GPU, or switch the feature off in the program (float32 instead of bf16/fp16 "
             "GEMMs, cuDNN off as chainer's cuda.cudnn_enabled = False, 4-bit instead of 8-bit quantisation); "
             "`nvidia-smi --query-gpu=compute_cap --format=csv` gives the GPU's",
      .check = "framework.arch" },
    { .id = "cublas.mapping_error", .layer = AP,
      .match = { "CUBLAS_STATUS_MAPPING_ERROR", "an access to GPU memory space failed" /* cublasGetStatusString */ },
      .cause = "cuBLAS could not access GPU memory: a pointer it was given is not valid device memory (freed, host or out of range), "
               "or an earlier kernel's bad access (such as a label or index past the number of classes) left the context broken; "
               "a bound texture, the cause cuBLAS's documentation names, is rare",
      .fix = "rerun with CUDA_LAUNCH_BLOCKING=1 under compute-sanitizer to find the first bad access; check label and index ranges against the layer sizes",
      .check = "application.xid" },
    { .id = "cublas.execution_failed", .layer = LI,
      .match = { "CUBLAS_STATUS_EXECUTION_FAILED", "CUBLAS_STATUS_INTERNAL_ERROR",
                 "the function failed to launch on the GPU" /* cublasGetStatusString */ },
      .cause = "a cuBLAS kernel failed to launch or run (EXECUTION_FAILED), or an internal step, usually a device memory copy, failed (INTERNAL_ERROR): "
               "most often an earlier CUDA error already broke the context, GPU memory ran short, or the cuBLAS build does not support this GPU or driver",
      .fix = "rerun with CUDA_LAUNCH_BLOCKING=1 to find the first failing call and fix that error first; check free GPU memory, "
             "and that the framework's CUDA libraries support this GPU and driver (one cuBLAS copy, the CUDA major the framework was built for)",
      .check = "framework.libs" },
    /* the same, read from the framework's side: its wheel brings the cuBLAS, and the wheel is what changes */
    { .id = "framework.cublas_build_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { "CUBLAS_STATUS_EXECUTION_FAILED", "CUBLAS_STATUS_INTERNAL_ERROR" },
      .cause = "or the framework's build is the cause: its wheel brings a cuBLAS that cannot run on this GPU (a CUDA "
               "10 PyTorch on an RTX 30 or 40, a build for a newer CUDA than the driver), or its op has a bug for "
               "this shape or dtype that a later release fixes",
      .fix = "install the framework's build for a CUDA that supports this GPU (CUDA 11.1+ for RTX 30, 11.8+ for RTX "
             "40 and H100) and its newest release; python -c 'import torch; print(torch.version.cuda)' shows the "
             "CUDA it brings",
      .check = "framework.libs" },
    { .id = "cublas.not_supported", .layer = LI,
      .match = { "CUBLAS_STATUS_NOT_SUPPORTED", "CUBLAS_STATUS_LICENSE_ERROR",
                 "CUDA error: the requested functionality is not supported" /* cublasGetStatusString, as ggml's
                                                                             CUDA_CHECK prints it */ },
      .unless = "CUDA_R_16BF",   /* a bf16 GEMM refused: torch.bf16_unsupported says why */
      .cause = "cuBLAS has no implementation of the requested operation for these types, layouts or alignments on this GPU: most often bf16 (CUDA_R_16BF) "
               "or fp8 math on a GPU too old for that type, or a pointer or leading dimension that is not aligned; "
               "LICENSE_ERROR: the function needs a license that is missing, expired or not found through NVIDIA_LICENSE_FILE",
      .fix = "use a dtype this GPU supports (fp16 or fp32 instead of bf16 on older GPUs; torch.cuda.is_bf16_supported() tells), keep sizes and pointers aligned "
             "(multiples of 8 or 16 elements), or update cuBLAS; for LICENSE_ERROR point NVIDIA_LICENSE_FILE at a valid license",
      .check = NULL },
    /* the same refusal where a serving framework or kernel package chose the cuBLAS call: the package picked a
     * path this GPU or cuBLAS lacks, and its release is what the maintainers change */
    { .id = "framework.package_cublas_path_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .context = CP_CONTEXT_SERVING_KERNELS,
      .match = { "CUBLAS_STATUS_NOT_SUPPORTED", "CUDA error: the requested functionality is not supported" },
      .cause = "or the serving framework or kernel package chose a cuBLAS call this GPU or cuBLAS release does not "
               "have (ggml's bf16 GEMM with bf16 output on an RTX 30, flashinfer's cuBLASLt fp8 path on an RTX 50): "
               "a release of the package that picks another path fixes it",
      .fix = "update the package (llama.cpp or the program embedding ggml, flashinfer, vLLM) to a release whose "
             "tracker names the fix; meanwhile choose another backend or dtype (flashinfer's cutlass backend, "
             "fp16 instead of bf16)",
      .check = "framework.arch" },

    /* cuFFT (cufftResult; INCOMPLETE_PARAMETER_LIST, PARSE_ERROR and LICENSE_ERROR are older releases' names) */
    { .id = "cufft.alloc_failed", .layer = AP,
      .match = { "CUFFT_ALLOC_FAILED", "cuFFT failed to allocate GPU or CPU memory", "== CUFFT_SUCCESS (2 vs. 0)" /* glog CHECK_EQ */ },
      .cause = "cuFFT could not allocate the GPU (or host) memory for a plan or its work area: the transform, its batch or the memory others hold is too large",
      .fix = "lower the batch or transform size (FFT work areas can be as large as the data), free GPU memory or stop other processes on the GPU",
      .check = "system.memory_headroom" },
    { .id = "cufft.invalid_plan", .layer = LI, .match = { "CUFFT_INVALID_PLAN", "cuFFT was passed an invalid plan handle" },
      .cause = "cuFFT was given a plan handle that is not a valid plan: its creation failed unnoticed, it was destroyed, or it is used on another GPU or context; "
               "when a framework's own calls get it, the cuFFT release in use is the suspect (a regression of that release, or a second copy shadowing the framework's)",
      .fix = "check the return code of the plan-creation call before using the plan and use a plan only on the device it was made for; behind a framework "
             "try the framework build with another CUDA (and so another cuFFT) release, and keep one cuFFT copy on the library path",
      .check = "libraries.shadow" },
    { .id = "cufft.invalid_args", .layer = AP,
      .match = { "CUFFT_INVALID_VALUE", "CUFFT_INVALID_SIZE", "CUFFT_INVALID_TYPE", "CUFFT_UNALIGNED_DATA", "CUFFT_INVALID_DEVICE",
                 "CUFFT_NO_WORKSPACE", "CUFFT_INCOMPLETE_PARAMETER_LIST", "CUFFT_PARSE_ERROR" },
      .cause = "cuFFT rejected the call's arguments: a NULL or invalid pointer or parameter (INVALID_VALUE), a transform size it cannot take (INVALID_SIZE: zero, "
               "negative, or past its limits), a plan run on another GPU than it was made for (INVALID_DEVICE), no work area set after cufftSetAutoAllocation(0) "
               "(NO_WORKSPACE), or, in older releases, a wrong type, unaligned data, missing parameters or an unparsable plan string",
      .fix = "check the sizes, strides, batch and pointers passed to the plan and exec calls (and the device current when the plan was made); "
             "give the plan its work area (cufftSetWorkArea) when auto-allocation is off",
      .check = NULL },
    { .id = "cufft.internal_error", .layer = LI,
      .match = { "CUFFT_INTERNAL_ERROR", "CUFFT_EXEC_FAILED", "CUFFT_SETUP_FAILED", "== CUFFT_SUCCESS (5 vs. 0)", "== CUFFT_SUCCESS (6 vs. 0)" },
      .cause = "cuFFT failed inside: a driver or internal error (INTERNAL_ERROR), an FFT kernel that failed to run (EXEC_FAILED), or the library failed to "
               "initialise (SETUP_FAILED); most often a cuFFT too old for this GPU (the cuFFT of CUDA 11.7 and older fails on RTX 40 / Ada GPUs), "
               "an earlier CUDA error that broke the context, or GPU memory running short",
      .fix = "use a framework build with a newer CUDA (cu118 or later for RTX 40 and newer GPUs) so its cuFFT knows the GPU; rerun with CUDA_LAUNCH_BLOCKING=1 "
             "to find an earlier failing call, and check free GPU memory",
      .check = "framework.libs" },
    /* the same, where the fix is the framework's build: its wheel bundles the cuFFT it runs */
    { .id = "framework.bundled_cufft_too_old_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { "CUFFT_INTERNAL_ERROR" },
      .cause = "or the framework's build bundles a cuFFT older than this GPU (PyTorch's CUDA 11.7 wheels on an "
               "RTX 40 or other Ada GPU), which is the usual case where torch.stft or torch.fft fails this way",
      .fix = "install the framework's build of a newer CUDA (pip install torch from the cu118 or later index) "
             "rather than changing the system's cuFFT",
      .check = "framework.libs" },
    { .id = "cufft.not_supported", .layer = LI, .match = { "CUFFT_NOT_SUPPORTED", "CUFFT_NOT_IMPLEMENTED", "CUFFT_LICENSE_ERROR" },
      .cause = "cuFFT has no implementation for the requested transform: a size, precision or layout it does not support (half-precision FFTs take only powers "
               "of two, and need a GPU that has fp16 math), or a multi-GPU setting it does not take; LICENSE_ERROR: an old release's license check failed",
      .fix = "use a supported size and precision (pad half-precision transforms to a power of two, or compute in fp32), or update cuFFT",
      .check = NULL },
    { .id = "cufft.missing_dependency", .layer = LI,
      .match = { "CUFFT_MISSING_DEPENDENCY", "CUFFT_NVRTC_FAILURE", "CUFFT_NVJITLINK_FAILURE", "CUFFT_NVSHMEM_FAILURE" },
      .cause = "cuFFT needs a library it could not use: NVRTC or nvJitLink, which it loads to build kernels at run time (LTO callbacks, some sizes), "
               "or NVSHMEM for cuFFTMp; missing, of another CUDA release, or failing to compile",
      .fix = "install the NVRTC and nvJitLink of the same CUDA release as cuFFT (nvidia-cuda-nvrtc-cuXX, nvidia-nvjitlink-cuXX wheels, or the toolkit's libs) "
             "and keep them on the library path; for cuFFTMp install the NVSHMEM it was built with",
      .check = "libraries.found" },

    /* cuSOLVER (cusolverStatus_t) */
    { .id = "cusolver.not_initialized", .layer = LI, .match = { "CUSOLVER_STATUS_NOT_INITIALIZED" },
      .cause = "cuSOLVER could not create its handle: GPU memory was used up, the CUDA context was already broken, or the cuSOLVER/CUDA runtime in use does not "
               "support this GPU (a build for a CUDA older than the GPU, such as CUDA 11.0 on an RTX 30) or its libraries do not match",
      .fix = "check free GPU memory and the first CUDA error in the log; use a framework build for a CUDA that supports this GPU, with one matching cuSOLVER, "
             "cuBLAS and cuSPARSE copy on the library path",
      .check = "framework.libs" },
    { .id = "cusolver.alloc_failed", .layer = AP, .match = { "CUSOLVER_STATUS_ALLOC_FAILED" },
      .cause = "cuSOLVER could not allocate memory for its work: GPU memory is used up",
      .fix = "lower the matrix or batch size, free GPU memory, or stop other processes on the GPU", .check = "system.memory_headroom" },
    { .id = "cusolver.invalid_value", .layer = AP,
      .match = { "CUSOLVER_STATUS_INVALID_VALUE", "CUSOLVER_STATUS_INVALID_WORKSPACE", "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
                 "CUSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED", "CUSOLVER_STATUS_IRS_PARAMS_INVALID", "CUSOLVER_STATUS_IRS_PARAMS_INVALID_PREC",
                 "CUSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE", "CUSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER", "CUSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED",
                 "CUSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED", "CUSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES", "CUSOLVER_STATUS_IRS_OUT_OF_RANGE" },
      .cause = "cuSOLVER rejected the call's arguments: a negative size, a leading dimension smaller than the rows, a work area smaller than the buffer-size "
               "query asked for (INVALID_WORKSPACE), a matrix type or fill mode the routine does not take, or (IRS_*) iterative-refinement parameters "
               "or info objects that are not created, invalid, or out of range",
      .fix = "check sizes, leading dimensions and the work-area size (call the routine's _bufferSize first and pass what it returns); create and set the "
             "IRS params and infos objects before the solve and destroy them after",
      .check = NULL },
    { .id = "cusolver.execution_failed", .layer = LI,
      .match = { "CUSOLVER_STATUS_EXECUTION_FAILED", "CUSOLVER_STATUS_INTERNAL_ERROR", "CUSOLVER_STATUS_MAPPING_ERROR", "CUSOLVER_STATUS_IRS_INTERNAL_ERROR",
                 "cuSolver internal error", "cuSolver execution failed" /* jaxlib's texts for the statuses */ },
      .cause = "a cuSOLVER kernel failed to launch or run (EXECUTION_FAILED), an internal step failed (INTERNAL_ERROR), or it could not access GPU memory "
               "(MAPPING_ERROR): an earlier CUDA error that broke the context, GPU memory running short, a cuSOLVER release with a bug for this routine, "
               "or one that does not support this GPU",
      .fix = "rerun with CUDA_LAUNCH_BLOCKING=1 to find the first failing call; check free GPU memory; try a framework build with another CUDA release "
             "(cuSOLVER bugs are fixed by release), keeping one cuSOLVER copy on the library path",
      .check = "framework.libs" },
    { .id = "cusolver.not_supported", .layer = LI,
      .match = { "CUSOLVER_STATUS_ARCH_MISMATCH", "CUSOLVER_STATUS_NOT_SUPPORTED", "CUSOLVER_STATUS_IRS_NOT_SUPPORTED", "CUSOLVER_STATUS_INVALID_LICENSE" },
      .cause = "cuSOLVER has no implementation for this request: the GPU lacks a feature the routine needs (ARCH_MISMATCH), or the type, precision or option "
               "combination is not supported (NOT_SUPPORTED, IRS_NOT_SUPPORTED); INVALID_LICENSE: a license check failed",
      .fix = "use a dtype and routine this GPU and cuSOLVER support (fp32/fp64 instead of lower precisions), or update CUDA",
      .check = "framework.arch" },
    { .id = "cusolver.singular", .layer = AP, .match = { "CUSOLVER_STATUS_ZERO_PIVOT", "CUSOLVER_STATUS_IRS_MATRIX_SINGULAR" },
      .cause = "the matrix is singular (or not positive definite for a Cholesky): the factorization hit a zero pivot; the data, not the GPU",
      .fix = "check the input matrix (rank, NaNs, conditioning); add a small diagonal term (jitter) or use a solver for singular matrices (least squares, SVD)",
      .check = NULL },

    /* cuSPARSE (cusparseStatus_t) */
    { .id = "cusparse.not_initialized", .layer = LI, .match = { "CUSPARSE_STATUS_NOT_INITIALIZED" },
      .cause = "cuSPARSE could not create its handle: GPU memory was used up, the CUDA context was already broken (a driver older than "
               "the CUDA runtime in use is a frequent reason), or its library does not match the CUDA in use",
      .fix = "check free GPU memory and the first CUDA error in the log; keep one cuSPARSE copy, of the CUDA the framework was built for, on the library path",
      .check = "framework.libs" },
    { .id = "cusparse.alloc_failed", .layer = AP, .match = { "CUSPARSE_STATUS_ALLOC_FAILED" },
      .cause = "cuSPARSE could not allocate the memory the operation needs: GPU memory is used up",
      .fix = "free GPU memory, stop other processes on the GPU, or split the work into smaller blocks",
      .check = "system.memory_headroom" },
    { .id = "cusparse.insufficient_resources", .layer = LI,
      .match = { "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES", "insufficient resources when calling `",   /* PyTorch: cusparseGetErrorString */
                 "with error: insufficient resources (11)" },
      .also = { "cusparse" },
      .cause = "the resources cuSPARSE's algorithm needs for this input (GPU memory, shared memory, or the range of its index type) do not suffice: "
               "SpGEMM's default algorithm needs a work area that grows with the number of intermediate products",
      .fix = "use a memory-bounded algorithm (CUSPARSE_SPGEMM_ALG2 or ALG3, which take the work area in chunks), 64-bit indices for very large matrices, "
             "or split the product into row blocks; behind a framework, a release that picks such an algorithm, or compute the product in blocks",
      .check = NULL },
    { .id = "cusparse.invalid_value", .layer = AP,
      .match = { "CUSPARSE_STATUS_INVALID_VALUE", "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "CUSPARSE_STATUS_ZERO_PIVOT" },
      .cause = "cuSPARSE rejected the input: an invalid size, index base, pointer or descriptor (INVALID_VALUE), a matrix type it does not take for this routine, "
               "or (ZERO_PIVOT) a structural or numerical zero on the diagonal of a factorization or triangular solve",
      .fix = "check the sparse matrix's sizes, nnz, index arrays (sorted, in range, zero- or one-based as declared) and descriptors; for ZERO_PIVOT the matrix "
             "is singular: cusparseXcsrilu02_zeroPivot names the row",
      .check = NULL },
    { .id = "cusparse.execution_failed", .layer = LI,
      .match = { "CUSPARSE_STATUS_EXECUTION_FAILED", "CUSPARSE_STATUS_MAPPING_ERROR",
                 "kernel launch failure when calling `" /* PyTorch: cusparseGetErrorString of EXECUTION_FAILED */ },
      .also = { "cusparse" },
      .cause = "a cuSPARSE kernel failed to launch or run (EXECUTION_FAILED), or it could not access GPU memory (MAPPING_ERROR): most often an earlier "
               "CUDA error that broke the context, GPU memory running short, or a cuSPARSE that does not support this GPU",
      .fix = "rerun with CUDA_LAUNCH_BLOCKING=1 to find the first failing call and fix that error; check free GPU memory and that the framework's cuSPARSE is "
             "the one its build expects",
      .check = "framework.libs" },
    { .id = "cusparse.internal_error", .layer = LI,
      /* the text cusparseGetErrorString gives, behind PyTorch's "when calling `cusparse..." or the
       * library samples' "CUSPARSE API failed at line N with error: TEXT (N)" */
      .match = { "CUSPARSE_STATUS_INTERNAL_ERROR", "with error: internal error (7)", "CUDA error: internal error when calling `" },
      .also = { "cusparse" },
      .cause = "a cuSPARSE call failed inside the library: often an option this release no longer or not yet accepts (a compute type, algorithm or "
               "data type), an earlier CUDA error that broke the context, or GPU memory running short",
      .fix = "check the call's types and algorithm against the documentation of the installed cuSPARSE release; rerun with CUDA_LAUNCH_BLOCKING=1 "
             "to find an earlier failing call, and check free GPU memory",
      .check = "framework.libs" },
    { .id = "cusparse.not_supported", .layer = LI, .match = { "CUSPARSE_STATUS_ARCH_MISMATCH", "CUSPARSE_STATUS_NOT_SUPPORTED" },
      .cause = "cuSPARSE has no implementation for this request: the GPU lacks a feature it needs (ARCH_MISMATCH), or the types, layout, index type or "
               "algorithm are not supported together (NOT_SUPPORTED)",
      .fix = "use a supported combination (the routine's table in the cuSPARSE documentation: often fp32 values with int32 indices), or update CUDA",
      .check = "framework.arch" },
    /* cuSPARSE's own check of a call's arguments, printed before it returns (CUSPARSE_LOG or not) */
    { .id = "cusparse.argument_refused", .layer = LI, .match = { "On entry to " }, .also = { "cusparse" },
      .cause = "cuSPARSE refused an argument of the call it names (a layout, order, type or algorithm): often "
               "one this release does not take for that routine yet (row-major B for COO SpMM before cuSPARSE "
               "11.7u1), or a descriptor the program set up wrong",
      .fix = "check the argument against the routine's table in the installed cuSPARSE's documentation; update "
             "CUDA (or the nvidia-cusparse wheel) where a later release accepts it, else pass what this one does",
      .check = "libraries.found" },

    /* cuRAND (curandStatus) */
    { .id = "curand.version_mismatch", .layer = LI, .match = { "CURAND_STATUS_VERSION_MISMATCH" },
      .cause = "the cuRAND library loaded is not the one the program was built against (header and library versions differ)",
      .fix = "keep one cuRAND, of the CUDA the program was built with, on the library path (LD_LIBRARY_PATH, the nvidia-curand wheel)",
      .check = "libraries.shadow" },
    { .id = "curand.init_failed", .layer = DR, .match = { "CURAND_STATUS_INITIALIZATION_FAILED", "CURAND failure 203" },
      .cause = "cuRAND could not initialise CUDA: the CUDA driver failed to start (no usable GPU, a driver and library mismatch, a forward-compatibility "
               "libcuda on a GPU or driver it does not support)",
      .fix = "run `cuprobe doctor`: the driver's first failure says why; do not load a cuda-compat libcuda where it is not supported",
      .check = "driver.cuinit" },
    { .id = "curand.alloc_failed", .layer = AP, .match = { "CURAND_STATUS_ALLOCATION_FAILED" },
      .cause = "cuRAND could not allocate memory for its generator state or output: GPU memory is used up",
      .fix = "free GPU memory or stop other processes on the GPU; generate random numbers in smaller batches",
      .check = "system.memory_headroom" },
    { .id = "curand.length_not_multiple", .layer = AP, .match = { "CURAND_STATUS_LENGTH_NOT_MULTIPLE", "CURAND failure 105" /* CNTK */ },
      .cause = "the program asked cuRAND for a count of values its generator cannot make: normal and log-normal distributions make pairs, so an odd "
               "count fails with a pseudo-random generator; quasi-random generators need a multiple of their dimensions",
      .fix = "ask for an even number of normal samples (round up by one and drop the extra), a multiple of the dimensions for quasi-random generators",
      .check = NULL },
    { .id = "curand.invalid_args", .layer = AP,
      .match = { "CURAND_STATUS_OUT_OF_RANGE", "CURAND_STATUS_TYPE_ERROR", "CURAND_STATUS_NOT_INITIALIZED" },
      .cause = "cuRAND rejected the call: an argument out of range (OUT_OF_RANGE), a generator of the wrong type for the call (TYPE_ERROR), "
               "or a generator used before it was created (NOT_INITIALIZED)",
      .fix = "check the call's arguments against the cuRAND documentation; create the generator (curandCreateGenerator) before using it, "
             "with the type the call expects (pseudo- or quasi-random)",
      .check = NULL },
    { .id = "curand.launch_failure", .layer = LI,
      .match = { "CURAND_STATUS_LAUNCH_FAILURE", "CURAND_STATUS_PREEXISTING_FAILURE", "CURAND_STATUS_INTERNAL_ERROR" },
      .cause = "a cuRAND kernel failed to launch (LAUNCH_FAILURE), an earlier CUDA error was still pending when cuRAND was called (PREEXISTING_FAILURE), "
               "or an internal error: usually an earlier failure that broke the context",
      .fix = "rerun with CUDA_LAUNCH_BLOCKING=1 to find the first failing call and fix that error; a cuRAND copy that does not match the CUDA in use is the rarer cause",
      .check = "framework.libs" },
    { .id = "curand.arch_mismatch", .layer = LI, .match = { "CURAND_STATUS_ARCH_MISMATCH", "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED" },
      .cause = "the GPU lacks a feature the requested cuRAND generator or distribution needs (double precision for MRG32k3a, or another capability)",
      .fix = "use another generator (XORWOW or Philox) or a GPU that supports the feature",
      .check = "framework.arch" },

    /* cuDNN (cudnnStatus_t; cuDNN 9 adds fine-grained sub-codes and keeps older names as aliases) */
    { .id = "cudnn.no_algorithm", .layer = AP,
      .match = { "Unable to find a valid cuDNN algorithm to run convolution", "no valid convolution algorithms available in CuDNN" },
      .cause = "PyTorch tried every cuDNN convolution algorithm and none could run: almost always because GPU memory was used up (each "
               "algorithm needs a workspace), less often a cuDNN that does not support this GPU or this layer's shape and dtype",
      .fix = "lower the batch size or input size, free GPU memory (other processes, a second model on the same GPU), and check the "
             "GPU chosen is the one with free memory; if memory is plentiful, install the PyTorch build whose bundled cuDNN supports this GPU",
      .check = "system.memory_headroom" },
    { .id = "cudnn.not_initialized", .layer = LI, .match = { "CUDNN_STATUS_NOT_INITIALIZED" },
      .cause = "cuDNN could not initialise: out of GPU memory, or its sub-libraries or CUDA version do not match",
      .fix = "check free GPU memory; make sure only one cuDNN version is on the library path and it matches the framework's CUDA",
      .check = "libraries.load" },
    /* the same failure to start, read from the program's side: both rows' causes name a full GPU first */
    { .id = "application.handle_without_memory_maybe", .layer = AP, .alternative = 1,
      .match = { "CUBLAS_STATUS_NOT_INITIALIZED", "CUDNN_STATUS_NOT_INITIALIZED", "the library was not initialized" },
      .cause = "or the program itself: the GPU was already full when cuBLAS or cuDNN made its handle (a batch or model "
               "too large, a second model or process on the same GPU, memory the program's cache still holds), or it "
               "asked for a device that is not its own (a --device index beyond what CUDA_VISIBLE_DEVICES leaves)",
      .fix = "watch nvidia-smi while it starts: lower the batch or model size, or leave room before the first GEMM or "
             "convolution; pass device indexes that count from 0 within CUDA_VISIBLE_DEVICES",
      .check = "system.memory_headroom" },
    { .id = "cudnn.dso_not_loaded", .layer = LI, .match = { "Unable to load cuDNN DSO" },
      .cause = "TensorFlow could not load cuDNN: it is not installed, not on LD_LIBRARY_PATH, or is another "
               "release than the one this TensorFlow build loads by name (early releases took only one cuDNN "
               "major)",
      .fix = "install the cuDNN release TensorFlow's install guide lists for this version, and put its lib folder "
             "on LD_LIBRARY_PATH",
      .check = "libraries.found" },
    { .id = "cudnn.version_mismatch", .layer = LI,
      .match = { "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", "CUDNN_STATUS_VERSION_MISMATCH",
                 "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART",
                 "CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH", "Loaded runtime CuDNN library" },
      .cause = "the cuDNN in use does not match the rest of the stack: its sub-libraries come from different releases, it is not the version the framework "
               "was built with (another copy shadows it), or it was built for another CUDA runtime (INCOMPATIBLE_CUDART) or a newer CUDA than the driver "
               "supports (INCOMPATIBLE_CUDA_DRIVER); SERIALIZATION_VERSION_MISMATCH: a saved execution plan or cache was made by another cuDNN release",
      .fix = "keep one complete cuDNN release on the library path, the one the framework asks for and built for your CUDA major (remove the other copy from "
             "LD_LIBRARY_PATH or the extra nvidia-cudnn wheel); for INCOMPATIBLE_CUDA_DRIVER upgrade the driver or use the build for an older CUDA; "
             "re-create serialized plans and caches with the cuDNN in use",
      .check = "libraries.shadow" },
    /* XLA's and TensorFlow's load-time check, read from the package's side: the wheel wants a newer cuDNN
     * than the machine's, and the wheel is what changes where the system cuDNN cannot */
    { .id = "framework.built_for_newer_cudnn_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { "Loaded runtime CuDNN library" }, .also = { "but source was compiled with" },
      .cause = "or the framework's wheel was built for a newer cuDNN than the one this machine gives it (a jaxlib or "
               "tensorflow release that expects cuDNN 8.6 where the system, a module or a conda env has 8.4)",
      .fix = "install the framework's build for the cuDNN you have (jax[cuda11_cudnn82] rather than cudnn86, an older "
             "tensorflow), or its pip variant that brings its own cuDNN (jax[cuda12], tensorflow[and-cuda]) with the "
             "system copy off LD_LIBRARY_PATH",
      .check = "framework.libs" },
    { .id = "cudnn.sublibrary_missing", .layer = LI,
      .match = { "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", "CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE",
                 "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", "CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING" },
      .cause = "cuDNN could not load a library it opens at run time: one of its own sub-libraries (libcudnn_ops, _cnn, _adv, _graph, _heuristic, "
               "_engines_precompiled, _engines_runtime_compiled, ...) is missing or fails to load, often because a partial cuDNN wheel and a system copy are mixed; "
               "RUNTIME_PREREQUISITE_MISSING: libcuda or NVRTC (libnvrtc, libnvrtc-builtins) was not found",
      .fix = "install one complete cuDNN release in one directory on the loader path (every libcudnn_*.so.9, or one nvidia-cudnn-cuXX wheel and no second copy); "
             "for RUNTIME_PREREQUISITE_MISSING install NVRTC of your CUDA major (nvidia-cuda-nvrtc-cuXX or the toolkit) where the loader finds it; "
             F_CUDNN_LOG " names the file",
      .check = "libraries.load" },
    { .id = "cudnn.arch_mismatch", .layer = LI,
      .match = { "CUDNN_STATUS_ARCH_MISMATCH", "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH" },
      .cause = "the call needs a GPU feature this GPU lacks: the GPU is older than this cuDNN release supports, or the operation asks for something only newer GPUs have (e.g. tensor-core types such as fp8)",
      .fix = "use a cuDNN (and framework) release that still supports this GPU (see cuDNN's support matrix), run on a newer GPU, or avoid the feature (another dtype, or cuDNN disabled for that layer)",
      .check = "framework.arch" },
    { .id = "cudnn.bad_param", .layer = AP,
      .match = { "CUDNN_STATUS_BAD_PARAM", "CUDNN_STATUS_INVALID_VALUE",
                 "CUDNN_STATUS_BAD_PARAM_NULL_POINTER", "CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER",
                 "CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED", "CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND",
                 "CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT", "CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH",
                 "CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH", "CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES",
                 "CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE", "CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH",
                 "CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE" },
      .cause = "cuDNN rejected an argument of the call: a wrong value, shape or stride, a null or misaligned pointer, a descriptor not finalized or of the wrong type, "
               "a value out of range, a buffer too small, an unexpected stream or CUDA graph, inconsistent shapes, duplicated entries or a wrong attribute type; "
               "behind a framework it is usually a cuDNN release other than the one the framework was built with, or an input the framework does not check",
      .fix = "turn on " F_CUDNN_LOG " to see which parameter is rejected and fix that argument; in a framework use the cuDNN release it was built with (one copy on the library path)",
      .check = "libraries.shadow" },
    /* the same, read from the library's side: the cuDNN release is not the program's */
    { .id = "libraries.cudnn_release_not_programs_maybe", .layer = LI, .alternative = 1,
      .match = { "CUDNN_STATUS_BAD_PARAM" },
      .cause = "or the cuDNN release is not the one the program was written or built for: an old Caffe with "
               "cuDNN 6 or later, a cuDNN 5 where the program needs 6, or a second copy first on the library path",
      .fix = "install the cuDNN release the program or framework names (its README, or the framework's build) "
             "and keep one copy on the library path",
      .check = "libraries.shadow" },
    { .id = "cudnn.not_supported", .layer = LI, .unless = "Plan failed with a cudnnException",
      .match = { "CUDNN_STATUS_NOT_SUPPORTED", "CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN", "CUDNN_STATUS_NOT_SUPPORTED_SHAPE",
                 "CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE", "CUDNN_STATUS_NOT_SUPPORTED_LAYOUT", "CUDNN_STATUS_NOT_SUPPORTED_PADDING",
                 "CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT", "CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM",
                 "CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API", "CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE",
                 "CUDNN_STATUS_DEPRECATED", "CUDNN_STATUS_LICENSE_ERROR" },
      .cause = "cuDNN has no engine for this request: the operation graph, shape, dtype, layout, padding or dynamic shape is not supported, the kernel would need "
               "more shared memory or launch resources than this GPU gives, or the engine cannot use the native CUDA-graph API (sizes past its limits and "
               "non-contiguous inputs are the usual causes); DEPRECATED warns that a feature in use will be removed, LICENSE_ERROR is a missing or expired license",
      .fix = "make the input contiguous, try a smaller batch, another dtype or layout, or let the framework fall back (disable cuDNN for that layer); "
             "a newer cuDNN may support it; move off deprecated calls; for LICENSE_ERROR point NVIDIA_LICENSE_FILE at a valid license",
      .check = "framework.arch" },
    { .id = "cudnn.alloc_failed", .layer = AP,
      .match = { "CUDNN_STATUS_ALLOC_FAILED", "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED",
                 "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED" },
      .cause = "cuDNN could not allocate memory: the GPU memory is used up by this process (model, batch, the chosen algorithm's workspace) or by others; "
               "HOST_ALLOCATION_FAILED (which the deprecated ALLOC_FAILED equals in cuDNN 9) is a failed host-memory allocation",
      .fix = "lower the batch size, free cached memory or stop other processes on the GPU (nvidia-smi); in TensorFlow let GPU memory grow "
             "(TF_FORCE_GPU_ALLOW_GROWTH=true) so cuDNN finds room; for host memory free RAM or raise the process's memory limit",
      .check = "system.memory_headroom" },
    { .id = "xla.cudnn_libraries_mismatch", .layer = LI, .match = { "error before creating cudnn handle" },
      .cause = "XLA (JAX, TensorFlow) failed before it could create its cuDNN handle: the CUDA or cuDNN "
               "libraries it loaded lack functions it calls ('symbol not found'), so they are of another CUDA or "
               "cuDNN release than the one it was built for",
      .fix = "install the CUDA libraries of its build (pip install -U \"jax[cuda12]\" or tensorflow[and-cuda]) and "
             "drop other CUDA and cuDNN directories from LD_LIBRARY_PATH, so the wheels' own libraries load",
      .check = "framework.libs" },
    { .id = "tf.cudnn_handle", .layer = AP, .match = { "Could not create cudnn handle" },
      .cause = "TensorFlow could not create its cuDNN handle: almost always GPU memory, since TensorFlow maps "
               "nearly all of it at start and cuDNN's workspace no longer fits (or another process holds it); a "
               "cuDNN that does not match TensorFlow's build fails here too",
      .fix = "let TensorFlow grow its memory (tf.config.experimental.set_memory_growth(gpu, True) for each GPU, "
             "or TF_FORCE_GPU_ALLOW_GROWTH=true), stop other processes on the GPU (nvidia-smi); where it "
             "persists, install the cuDNN this TensorFlow release was built with",
      .check = "system.memory_headroom" },
    /* the same, read from cuDNN's side: JAX's and TensorFlow's pip builds fail here too when cuDNN is missing
     * or of another version, with plenty of memory free */
    { .id = "libraries.cudnn_for_handle_maybe", .layer = LI, .alternative = 1,
      .match = { "Could not create cudnn handle" },
      .cause = "or cuDNN itself: not installed where the framework looks, or of another version than jaxlib or "
               "TensorFlow was built for (their logs name the version they were built with); the memory line "
               "beside it then shows plenty free",
      .fix = "install the cuDNN the framework was built for (jax[cuda12] or the nvidia-cudnn-cuXX wheel at its "
             "pinned version; TensorFlow's tested-build table) and make sure the loader finds that copy first "
             "(ldconfig -p | grep cudnn)",
      .check = "libraries.found" },
    { .id = "cufft.half_precision_size", .layer = AP,
      .match = { "cuFFT only supports dimensions whose sizes are powers of two when computing in half precision" },
      .cause = "an FFT (an STFT, a spectrogram) ran in half precision on a size that is not a power of two, which "
               "cuFFT computes only in single or double precision: the program's fp16 or autocast setting",
      .fix = "run that FFT in float32 (x.float() before torch.stft, or outside autocast), or turn the program's fp16 "
             "training off (fp16_run: false), or pad to a power-of-two size",
      .check = NULL },
    { .id = "cudnn.failed", .layer = LI, .unless = "Could not create cudnn handle",
      .match = { "CUDNN_STATUS_EXECUTION_FAILED", "CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER", "CUDNN_STATUS_EXECUTION_FAILED_CUDART",
                 "Error in CuDNN: STATUS_EXECUTION_FAILED" /* Lua Torch's cudnn.torch */,
                 "CUDNN_STATUS_EXECUTION_FAILED_CUBLAS", "CUDNN_STATUS_EXECUTION_FAILED_CURAND",
                 "CUDNN_STATUS_INTERNAL_ERROR", "CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED",
                 "CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE", "CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM",
                 "CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED", "CUDNN_STATUS_MAPPING_ERROR",
                 "CUDNN_STATUS_RUNTIME_IN_PROGRESS" },
      .cause = "a cuDNN kernel failed to run or an internal step failed: most often GPU memory ran short, an earlier CUDA error broke the context, or the "
               "cuDNN/CUDA build does not support this GPU or driver; EXECUTION_FAILED_CUDA_DRIVER, _CUDART, _CUBLAS and _CURAND name the component whose "
               "error cuDNN got, COMPILATION_FAILED a kernel NVRTC could not build at run time, RUNTIME_FP_OVERFLOW a kernel whose values overflowed; "
               "RUNTIME_IN_PROGRESS is no failure: the stream's work had not finished when its status was asked",
      .fix = "rerun with CUDA_LAUNCH_BLOCKING=1 and " F_CUDNN_LOG " to see the failing step and the error underneath; check free GPU memory and that the "
             "framework's CUDA and cuDNN support this GPU and driver; for FP_OVERFLOW scale the inputs or compute in fp32; for IN_PROGRESS synchronize the stream and ask again",
      .check = "system.memory_headroom" },

    { .id = "cudnn.no_engine", .layer = LI,
      .match = { "was unable to find an engine to execute this computation", "No valid execution plans built" },
      .cause = "cuDNN has no kernel for this convolution on this GPU: its cuDNN build does not cover the GPU's "
               "architecture (a cuDNN or PyTorch older than the GPU), the workspace it needs could not be "
               "allocated (GPU memory nearly full), or the shapes and types ask for what no engine does",
      .fix = "install a PyTorch (and its cuDNN) built for this GPU's architecture; free GPU memory or use a smaller "
             "batch; as a test torch.backends.cudnn.enabled = False shows whether cuDNN is the cause",
      .check = "libraries.found" },
    { .id = "cublas.error_number", .layer = CP_LAYER_LIBRARIES, .fallback = 1, .match = { "cuBLAS error " },
      .also = { " at ", "cublas" },
      .cause = "a cuBLAS call failed with the status number the line gives (llama.cpp and ggml print it so: 15 "
               "is CUBLAS_STATUS_NOT_SUPPORTED, an operation this GPU's architecture lacks, e.g. tensor-core "
               "GEMMs below compute capability 7.0; 13 EXECUTION_FAILED; 3 ALLOC_FAILED)",
      .fix = "for 15 on an older GPU build or run without the tensor-core path (llama.cpp: GGML_CUDA_FORCE_MMQ, "
             "an older release supporting the GPU) or use a newer GPU; for others see `cuprobe explain "
             "CUBLAS_STATUS_...`",
      .check = "libraries.found" },
    { .id = "nvrtc.invalid_option", .layer = CP_LAYER_LIBRARIES,
      .match = { "NVRTC_ERROR_INVALID_OPTION", "nvrtc: error: invalid value for --gpu-architecture" },
      .cause = "NVRTC refused a compile option: most often an architecture (--gpu-architecture=sm_89, compute_90) "
               "newer than this NVRTC knows, because an older libnvrtc was loaded than the program expects",
      .fix = "load the NVRTC of the program's CUDA major and a release that knows the GPU (check which libnvrtc.so "
             "the process maps: `grep nvrtc /proc/PID/maps`), or compile for an architecture it knows",
      .check = "libraries.found" },
    /* the same refusal from the program's side: it chose the -arch value, and a release of it that knows the
     * GPU is the fix its maintainers give */
    { .id = "framework.jit_arch_choice_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { "NVRTC_ERROR_INVALID_OPTION", "nvrtc: error: invalid value for --gpu-architecture" },
      .cause = "or the program compiling its kernels at run time chose an architecture value its release gets "
               "wrong for this GPU (hashcat 6.1 on an RTX 30, a tool older than the GPU generation)",
      .fix = "update the program to a release made after this GPU generation (its tracker or changelog names "
             "the GPU), or use its option to pick the architecture by hand",
      .check = "framework.arch" },
    /* CuPy's NVRTCError: the source compiled may be CuPy's own elementwise or reduction kernel */
    { .id = "framework.cupy_kernel_compile_maybe", .layer = CP_LAYER_FRAMEWORK, .alternative = 1,
      .match = { "NVRTCError: NVRTC_ERROR_COMPILATION" },
      .cause = "or the source is CuPy's own (the kernels it generates for array operations, and its headers): a CuPy "
               "release whose headers do not compile for this GPU or toolkit (a regression, or a cupy-cudaXXx wheel "
               "of another CUDA than the one installed)",
      .fix = "where the failing call is a plain array operation, update CuPy (or take the release before it) and "
             "install the wheel for the CUDA in use (pip install cupy-cuda12x); where it is your RawKernel, its "
             "compile log says which line",
      .check = "framework.libs" },
    { .id = "nvrtc.error", .layer = CP_LAYER_LIBRARIES, .fallback = 1, .match = { "NVRTC_ERROR_" },
      .cause = "NVRTC, the run-time CUDA compiler, failed: the source does not compile (NVRTC_ERROR_COMPILATION, its "
               "log says where), an option or architecture it does not know, or a builtins library of another "
               "version (NVRTC_ERROR_BUILTIN_OPERATION_FAILURE)",
      .fix = "read the compile log the program prints; keep libnvrtc and libnvrtc-builtins of one version, and of "
             "a CUDA release that knows the GPU",
      .check = "libraries.found" },
    { .id = "nccl.socket", .layer = SY,
      .match = { "socketStartConnect: Connect to", "ncclOsSocketStartConnect: connect to",
                 "socketPollConnect: Connect to", "exceeded error retry count after",
                 "socketProgressOpt: Call to", "Connection closed by remote peer",
                 "socketTryAccept: Accept failed", "error encountered when getting address info" },
      .cause = "NCCL's TCP connection to another rank failed or dropped: the interface NCCL chose cannot reach "
               "that address (docker0, virbr0 or a NIC of another subnet picked), a firewall blocks the ports, "
               "the name does not resolve, the file-descriptor limit was hit, or the other rank died (its own "
               "error is the cause then)",
      .fix = "set NCCL_SOCKET_IFNAME to the interface the nodes reach each other on (e.g. eth0, ib0; "
             "^docker0,lo to exclude), open the ports between nodes, check each rank's own log for a crash, and "
             "run with NCCL_DEBUG=INFO to see the chosen interface",
      .check = "system.container" },
    { .id = "nccl.interface", .layer = SY,
      .match = { "Bootstrap : no socket interface found", "NET/Socket : no interface found",
                 "No usable listening interface found",
                 "Detected mixed local Net device counts across ranks" },
      .cause = "NCCL found no network interface it may use (NCCL_SOCKET_IFNAME names one this host or container "
               "lacks, or only loopback is up), or the nodes of the job see different numbers of NICs",
      .fix = "list the interfaces (ip -br addr) in the same container and set NCCL_SOCKET_IFNAME to one that "
             "exists on every node; give every node the same NICs (NCCL_IB_HCA)",
      .check = NULL },
    { .id = "nccl.ib_setup", .layer = SY,
      .match = { "Call to ibv_reg_mr failed with error", "Call to ibv_modify_qp failed with",
                 "NET/IB : Unable to open device" },
      .cause = "NCCL could not set up InfiniBand/RoCE: memory registration failed (the locked-memory limit is "
               "too low, or GPUDirect RDMA is not available for GPU memory), a queue pair could not connect (a "
               "GID index or routing the fabric cannot use), or the RDMA device is not open to this process "
               "(/dev/infiniband not in the container)",
      .fix = "raise the memlock limit (ulimit -l unlimited; docker --ulimit memlock=-1), load nvidia-peermem "
             "for GPUDirect RDMA, set NCCL_IB_GID_INDEX for RoCE, pass /dev/infiniband into the container",
      .check = NULL },
    { .id = "nccl.p2p_refused", .layer = SY,
      .match = { "failed to peer with device", "No transport found for rank",
                 "could not find CPU close to GPU" },
      .cause = "NCCL cannot connect two GPUs of a node: the platform refuses peer access (PCIe ACS or the IOMMU "
               "between them, a VM without P2P), every transport was switched off (NCCL_P2P_DISABLE, "
               "NCCL_SHM_DISABLE), or the PCI topology under /sys is hidden (a VM or container)",
      .fix = "disable ACS on the PCIe switches or boot with iommu=pt, or set NCCL_P2P_DISABLE=1 to fall back to "
             "shared memory; do not disable every transport; give the container the host's /sys",
      .check = "system.container" },
    { .id = "nccl.nvls", .layer = SY,
      .match = { "Failed to bind NVLink SHARP (NVLS) Multicast memory",
                 "configuration error in the Fabric Manager or NVSwitches",
                 "is available but not working on this system",
                 "Check the IMEX channel configuration" },
      .cause = "NCCL's NVLink SHARP or multi-node NVLink set-up failed: the NVSwitch fabric is not ready (the "
               "fabric manager down or of another version than the driver, multicast not offered in this VM or "
               "partition), or no IMEX channel is visible to the process",
      .fix = "check nvidia-fabricmanager (or the IMEX service on GB200 NVL) and nvidia-smi -q's fabric state; "
             "meanwhile NCCL_NVLS_ENABLE=0 (or NCCL_MNNVL_ENABLE=0) runs without them",
      .check = "driver.devices" },
    { .id = "nccl.rank_setup", .layer = AP,
      .match = { "ranks has already checked in", "Bootstrap Root : mismatch in rank count",
                 "Invalid rank requested :", "message truncated : receiving",
                 "Multiple Ranks are using the same GPU" },
      .cause = "the ranks of one NCCL communicator disagree: two use the same rank number or GPU, they pass "
               "different rank counts (WORLD_SIZE differs between nodes), or they call collectives of different "
               "sizes or in a different order",
      .fix = "give every process its own RANK and LOCAL_RANK and the same WORLD_SIZE (the launcher's "
             "variables), select the GPU per process (torch.cuda.set_device(local_rank)), and make every rank "
             "run the same collectives in the same order",
      .check = NULL },
    { .id = "nccl.buffer", .layer = AP,
      .match = { "is not a valid pointer", "mismatchs with NCCL device" },
      .cause = "a buffer given to an NCCL collective is not device memory of this communicator's GPU: host "
               "memory, freed memory, or memory of another GPU",
      .fix = "pass tensors on the communicator's GPU (tensor.to(f'cuda:{local_rank}')) and keep them alive "
             "until the collective completes",
      .check = NULL },
    { .id = "hardware.nccl_link", .layer = HW,
      .match = { "P2P is disabled between NVLINK connected GPUs", "async fatal event" },
      .also = { "nvlink", "NET/IB", "NCCL", "mlx" },
      .cause = "a link failed under NCCL: GPUs joined by NVLink report no peer access (a failed NVLink or "
               "NVSwitch, or no fabric manager on an NVSwitch machine), or the InfiniBand adapter raised a "
               "fatal event (adapter, cable or switch port)",
      .fix = "nvidia-smi nvlink -s and nvidia-smi -q for NVLink and fabric state, ibstat and the switch for the "
             "adapter; reset or replace the part, start the fabric manager",
      .check = "hardware.pci_gpu" },
    { .id = "cudnn.driver_too_old", .layer = DR,
      .match = { "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER" },
      .cause = "this cuDNN was built for a newer CUDA than the installed NVIDIA driver supports",
      .fix = "update the NVIDIA driver to one that supports cuDNN's CUDA (the CUDA release notes' table), or "
             "install a cuDNN built for the CUDA the driver supports",
      .check = "runtime.driver_compat" },
    { .id = "cudnn.fp_overflow", .layer = AP,
      .match = { "CUDNN_STATUS_RUNTIME_FP_OVERFLOW" },
      .cause = "cuDNN found a floating-point overflow in the values it computed: the program's data or scaling "
               "overflows (fp16's range, exploding activations or gradients)",
      .fix = "use bf16 or fp32 for that layer, scale the loss (GradScaler), normalise the inputs, lower the "
             "learning rate or clip gradients",
      .check = NULL },
    { .id = NULL }
};
