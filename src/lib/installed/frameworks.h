/*
 * Framework sources: PyTorch, JAX, CuPy and TensorFlow in the Python
 * environments a user would run, read as files through a cp_fs (version
 * files, dist-info folder names), plus the GPU code of each framework's main
 * GPU library, read with cp_arch_scan.
 */
#ifndef CP_FRAMEWORKS_H
#define CP_FRAMEWORKS_H

#include "cuprobe/facts.h"
#include "fs/fs.h"
#include "installed/installed.h"

/* Fill *out (cleared first) with the frameworks found in the site-packages
 * folders of py (cp_pyenv_find, installed.h), in that order.  Every small
 * file is read through fs; a GPU library is scanned at its real path below
 * the root (cp_fs_host_path) when it exists there and is not an empty
 * snapshot placeholder.  out->python[] keeps the first CP_MAX_PYENVS
 * folders examined, out->npython their count; frameworks past
 * CP_MAX_FRAMEWORKS are dropped.  Broken installs are facts (problem text),
 * not errors.  py NULL examines nothing.  Returns 0; -EINVAL when fs or out
 * is NULL. */
int cp_frameworks_observe(cp_fs *fs, const cp_pyenv *py, cp_frameworks_facts *out);

/* For each framework whose gpu_lib can be read: the CUDA libraries it needs
 * (DT_NEEDED) and the copy the dynamic loader gives it (RPATH,
 * LD_LIBRARY_PATH, RUNPATH with $ORIGIN, then the libraries layer's
 * ld.so.cache copy), in fw->libs (fwlibs.c).  Existence is checked through
 * fs, so fixtures and replays see their own trees. */
void cp_frameworks_resolve_libs(cp_fs *fs, const cp_host_facts *h, const cp_libraries_facts *libs,
                                cp_frameworks_facts *fw);

#endif
