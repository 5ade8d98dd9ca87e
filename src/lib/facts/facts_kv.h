/*
 * Facts <-> answers text (kv.h).  Used by the probe children to send their
 * results to the parent, and by snapshots to store everything that is not a
 * plain file.  Every writer ends its block with "<prefix>.end ok" so a
 * truncated file is recognised.
 */
#ifndef CP_FACTS_KV_H
#define CP_FACTS_KV_H

#include <stddef.h>
#include "cuprobe/facts.h"
#include "kv.h"
#include "facts/secret.h"

/* Append the "cuda." / "nvml." / "host." / "meta." blocks. */
void cp_facts_put_cuda(cp_buf *b, const cp_cuda_facts *c);
void cp_facts_put_nvml(cp_buf *b, const cp_nvml_facts *n);
/* The "cuda." block without its end marker (a probe child sends level 1's
 * answers this way before level 2 begins), and one device's level-2 lines. */
void cp_facts_put_cuda_body(cp_buf *b, const cp_cuda_facts *c);
void cp_facts_put_cuda_l2(cp_buf *b, int ordinal, const cp_cuda_l2 *l2);
/* Only a library's load record ("cuda.lib.*"): what a probe child sends
 * before a call that may hang.  No end marker. */
void cp_facts_put_lib(cp_buf *b, const char *prefix, const cp_lib_load *lib);
/* Host answers that are not files: uid, device nodes, environment. */
void cp_facts_put_host(cp_buf *b, const cp_host_facts *h, int redact_secrets);
void cp_facts_put_meta(cp_buf *b, const cp_facts *f);
/* The libraries probe's answers ("libs." block: loads, load_error,
 * version_call per library index; optional in snapshots). */
void cp_facts_put_libs(cp_buf *b, const cp_libraries_facts *libs);
/* Level 2's library runs ("libl2." block, written only when level 2 asked
 * for them; optional in snapshots): the child's own lines, one library's
 * lines (what the probe child sends as each library ends), the whole block. */
void cp_facts_put_libs_l2_head(cp_buf *b, const cp_libs_l2_facts *l);
void cp_facts_put_lib_l2(cp_buf *b, int index, const cp_lib_l2 *l);
void cp_facts_put_libs_l2(cp_buf *b, const cp_libs_l2_facts *l);
/* The framework layer's findings ("fw." block, optional in snapshots). */
void cp_facts_put_frameworks(cp_buf *b, const cp_frameworks_facts *fw);

/* Which blocks a load saw complete (bit per block). */
enum { CP_KV_CUDA = 1, CP_KV_NVML = 2, CP_KV_HOST = 4, CP_KV_META = 8, CP_KV_FW = 16, CP_KV_LIBS = 32,
       CP_KV_LIBL2 = 64 };

/* Apply answers text to f (keys of unknown blocks or fields are ignored, so
 * newer snapshots load in older tools).  Returns the mask of blocks whose
 * end marker was seen, or -1 with err filled for malformed text. */
int cp_facts_load(const char *text, size_t len, cp_facts *f, char *err, size_t errcap);

/* The first answers line of a snapshot: the blocks its writer wrote, in
 * order ("answers.blocks meta host cuda nvml fw libs"), so that a reader can
 * tell a file cut between two blocks from one that never had the second. */
#define CP_KV_BLOCKS_KEY "answers.blocks"
#define CP_KV_BLOCKS "meta host cuda nvml fw libs"

/* cp_facts_load for a snapshot's answers.txt, which must be whole: every
 * block listed by CP_KV_BLOCKS_KEY (meta, host, cuda and nvml when there is
 * no such line, in snapshots of older writers) and every block that has a
 * line ends with its end marker, no block has lines after its end marker,
 * nothing but comments follows the last end marker, and the file ends with
 * a newline.  Returns the mask of blocks seen, or -1 with err saying what
 * is damaged ("is truncated: the 'fw' answers are incomplete (...)",
 * "carries 2 lines after its last end marker", ...), worded to follow the
 * file's name. */
int cp_facts_load_snapshot(const char *text, size_t len, cp_facts *f, char *err, size_t errcap);

/* The sampler's answers (src/lib/telemetry/): device i's inventory, or
 * its sample with the processes, as nvml.dev.I.NAME lines (no end marker);
 * and the reader of one such line, key given without "nvml.dev."
 * ("0.power_mw"): 0, or -1 for an index out of range or a value of the
 * wrong type (a field this build does not know is ignored). */
void cp_facts_put_nvml_inventory(cp_buf *b, int i, const cp_nvml_inventory *inv);
void cp_facts_put_nvml_sample(cp_buf *b, int i, const cp_nvml_sample *s);
int cp_facts_set_nvml_dev(cp_nvml_facts *n, const char *key, const char *value);

#endif
