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

/* Fill out with every copy found in the LD_LIBRARY_PATH folders, the
 * /etc/ld.so.cache entries, each toolkit of rt (lib64/, lib/,
 * targets/<*>/lib, extras/CUPTI/lib64) and the Python wheels
 * (site-packages/nvidia/<*>/lib under $VIRTUAL_ENV, $CONDA_PREFIX, the first
 * python3 on $PATH, /usr/local/lib/python3.<*>/dist-packages and
 * /usr/lib/python3/dist-packages), in that order; a file reached twice (links
 * resolved) is listed once, under its first finder.  Per copy: soname, real
 * path, version (versioned file name, else the wheel's dist-info folder),
 * the CUDA major it was built for (CP_UNKNOWN when it cannot be told) and
 * whether the dynamic loader hands it out for its soname (first
 * LD_LIBRARY_PATH folder holding it, else the first ld.so.cache entry; wheels
 * are loaded through their framework's RUNPATH, which is not modelled).
 * Environment values come from h->env.  Keeps CP_MAX_LIBS copies and counts
 * all in nlib_total.  Returns 0, -EINVAL for NULL arguments, -ENOMEM; what
 * cannot be read is simply not listed. */
int cp_libraries_observe(cp_fs *fs, const cp_host_facts *h, const cp_runtime_facts *rt,
                         cp_libraries_facts *out);

#endif
