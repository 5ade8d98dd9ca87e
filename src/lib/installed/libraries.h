/*
 * Libraries layer sources: the copies of the CUDA math, communication and
 * compiler libraries (cuBLAS/cuBLASLt, cuDNN, cuFFT, cuRAND, cuSOLVER,
 * cuSPARSE, NCCL, NVRTC, nvJitLink, CUPTI) that a program could load, found
 * through the cp_fs only, so a replayed snapshot gives the same answer.
 */
#ifndef CP_LIBRARIES_H
#define CP_LIBRARIES_H

#include "cuprobe/facts.h"
#include "fs/fs.h"
#include "installed/installed.h"

/* Fill out with every copy found in the LD_LIBRARY_PATH folders, the
 * /etc/ld.so.cache entries, each toolkit of rt (lib64/, lib/,
 * targets/<*>/lib, extras/CUPTI/lib64) and the Python wheels
 * (site-packages/nvidia/<*>/lib in each folder of py, the Python
 * environments of cp_pyenv_find: --python, $VIRTUAL_ENV, $CONDA_PREFIX, ...;
 * NULL for none), in that order; a file reached twice (links resolved) is
 * listed once, under its first finder.  Per copy: soname, real
 * path, version (versioned file name, else the wheel's dist-info folder),
 * the CUDA major it was built for (CP_UNKNOWN when it cannot be told) and
 * whether the dynamic loader hands it out for its soname (first
 * LD_LIBRARY_PATH folder holding it, else the first ld.so.cache entry; wheels
 * are loaded through their framework's RUNPATH, which is not modelled).
 * Environment values come from h->env.  Keeps CP_MAX_LIBS copies and counts
 * all in nlib_total.  Returns 0, -EINVAL for NULL arguments, -ENOMEM; what
 * cannot be read is simply not listed. */
int cp_libraries_observe(cp_fs *fs, const cp_host_facts *h, const cp_runtime_facts *rt,
                         const cp_pyenv *py, cp_libraries_facts *out);

/* Put the libraries probe's answers (loads, load_error, version_call) that
 * a snapshot holds (`said`, as loaded from its libs. block) on the copies of
 * libs, the list re-read from the snapshot's files.  Matched by path
 * (libs.N.path), so a parser change that reorders discovery keeps each
 * answer on its library; a copy the snapshot has no answer for stays
 * unknown.  A snapshot without any libs.N.path (written before paths were
 * kept) is matched by position, as it was read then. */
void cp_libraries_attach_answers(cp_libraries_facts *libs, const cp_libraries_facts *said);

/* Does the libraries probe run in this observation?  NULL when it does;
 * else why not, in words for libraries.load (kept in out->load_skip by
 * the caller): a replayed snapshot, a file-system view other than this
 * machine's root, libcuda not observed live, or no NVIDIA GPU here (PCI or
 * /proc/driver/nvidia), where loading costs ~100 ms and tells nothing a
 * program could use. */
const char *cp_libraries_load_skip(bool snapshot, bool live_root, bool cuda_live, bool gpu_here);

#endif
