/* Private to src/lib/explain: value extractors (extract.c). */
#ifndef CP_EXPLAIN_INT_H
#define CP_EXPLAIN_INT_H

#include <stddef.h>
#include "cuprobe/explain.h"
#include "kb/signals.h"

/* The XID number of an "NVRM: Xid (PCI:...): N," line given lowercased, or
 * -1 when the line does not have that shape. */
int cp_explain_xid_number(const char *low, size_t n);

/* Fill the values of `kind` into *s from one cleaned line: orig is the text
 * as written, low the same bytes lowercased, n their length, at the offset
 * of the matched phrase.  Leaves absent values as they are (-1 / ""); for
 * XIDs also sets the layer, cause and fix from the XID table. */
void cp_explain_extract(cp_extract_kind kind, const char *orig, const char *low, size_t n,
                        size_t at, cp_explain_signal *s);

/* Does the matched key low[start, end) of one lowercased line carry a
 * value that meets `cond`?  For CP_VALUE_ANY always 1; otherwise the key
 * must open the line (only spaces or a quoting '>' before it) and be
 * followed by spaces, ':' and the value: "pending : yes" meets
 * CP_VALUE_YES, "uncorrectable error : 3" CP_VALUE_NONZERO, "hw slowdown :
 * active" CP_VALUE_ACTIVE ("not active", "0", "no", "n/a" meet none),
 * "nvidia.com/gpu: 0" CP_VALUE_ZERO ("10", "0.5" do not).
 * Pure. */
int cp_explain_value_ok(cp_value_cond cond, const char *low, size_t n, size_t start, size_t end);

/* The compute capability a lowercased line names ("compute capability 5.2",
 * ggml's and many tools' words) as major * 10 + minor, or -1 for none.
 * Pure. */
int cp_explain_line_cc(const char *low, size_t n);

/* CP_VALUE_ARCHS_MISS: does the list of architectures after low[end] ("=
 * 600,610,700,750", "60;70", "sm_60, sm_70") start above `cc` (major * 10 +
 * minor; -1 or 0: no GPU named, then 0)?  Its numbers are ggml's (600 for
 * 6.0, 1200 for 12.0: 300 and up) or CMake's and sm_'s (60, 120); the list
 * must hold one at least.  Pure. */
int cp_explain_archs_miss(const char *low, size_t n, size_t end, int cc);

/* The part of --check's answer a signal is listed in: 0 what this machine
 * confirms, 1 what it cannot tell (or has no check for), 2 what it does not
 * see.  confirm.c orders by it, render.c heads each part.  Pure. */
int cp_here_part(const cp_explain_signal *s);

/* CP_VALUE_SMI_FIELD: is what follows offset `end` of this lowercased line,
 * past blanks and one quote, nvidia-smi's word for a field the GPU does not
 * report ("[n/a]", "[not supported]", "[insufficient permissions]") or an
 * NVIDIA driver version of three parts (3 digits, 2 or 3, then 2:
 * "545.29.06", "535.104.05")?  With `bare` (CP_VALUE_SMI_FIELD_BARE),
 * instead: is it one of those words without brackets, as `nvidia-smi -q -x`
 * writes them, or cut ("n/a", "n/", "not supported", "insufficient"),
 * ending at a quote, a blank or the line's end?  Pure. */
int cp_explain_smi_field(const char *low, size_t n, size_t end, int bare);

/* CP_VALUE_XID_ALSO: does the XID table say that the XID of this lowercased
 * NVRM line ("nvrm: xid (pci:...): 31, ...") may also lie in `layer`
 * (cp_xid_info.also_layer)?  0 for a line without a known XID.  Pure. */
int cp_explain_xid_also(const char *low, size_t n, cp_layer layer);

/* CP_VALUE_OOM_OTHERS: do PyTorch's out-of-memory sizes on one lowercased
 * line show other processes holding over half the GPU, and 1 GiB at least
 * (this process's CUDA context, which PyTorch does not count, and a
 * desktop's share can come near that on a small GPU)?  They are the GPU's
 * total and free memory and what this process holds: "this process has X
 * memory in use" (PyTorch 2.1 and later), else PyTorch's own reserve ("X
 * reserved in total by PyTorch"; PyTorch 1.0's "A already allocated; ...
 * C cached"; "X is allocated by PyTorch, and Y is reserved by PyTorch but
 * unallocated").  A line lacking any of them holds nothing.  Pure. */
int cp_explain_oom_others(const char *low, size_t n);

#define CP_EXPLAIN_MAX_PATHS 8

/* The files `explain --check` scans for GPU code: absolute paths in the
 * text to shared libraries ("/x/libfoo.so", "/x/libfoo.so.12.1": the path
 * up to the version) and the package folders of paths inside site-packages
 * or dist-packages ("/x/site-packages/pkg/mod.py" gives
 * "/x/site-packages/pkg").  Distinct, in order of appearance, at most
 * CP_EXPLAIN_MAX_PATHS, each shorter than 256 bytes.  Returns the count.
 * Pure: reads nothing but the text. */
int cp_explain_paths(const char *text, size_t len, char out[][256]);

#endif
