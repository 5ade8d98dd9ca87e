/*
 * Private to src/lib/fatbin: the pieces of cp_arch_scan.
 *
 * The calls run one way, top to bottom:
 *
 *     fatbin.c   cp_arch_scan: picks ELF or bare fatbin, walks containers
 *       |  \        and entries, keeps the summary
 *     elf.c   \  finds the fatbin sections and hands each region to a callback
 *     formats.c|  archive members and the head of PTX text, likewise
 *       |      |
 *     src.c ---+  the bounded byte source (src.h)
 *
 * ptx_isa.c knows which CUDA a PTX ISA needs and judges what a GPU can run;
 * it reads summaries only.
 */
#ifndef CP_FATBIN_INT_H
#define CP_FATBIN_INT_H

#include <stddef.h>
#include <stdint.h>
#include "cuprobe/arch.h"
#include "fatbin/src.h"

#define CP_FATBIN_MAGIC 0xBA55ED50u

/* Walk the back-to-back fatbin containers in [off, off + size) of src (the
 * caller has checked that range lies inside it) and add every entry to s.
 * what names the region in errors (".nv_fatbin").  The walk stops at the
 * first bytes that are neither a container nor padding; *end (when not
 * NULL) gets the file offset after the last container.  Returns 0, or -1
 * with err "'NAME': WHAT: ..." when a container or entry runs out of the
 * region; entries before that stay counted. */
int cp_fatbin_walk(cp_src *src, uint64_t off, uint64_t size, cp_arch_summary *s, const char *what,
                   uint64_t *end, char *err, size_t errcap);

/* The `what` of a region that a relocation points at (see below). */
#define CP_ELF_REFERENCED "relocated data"

/* Called for each fatbin region of an ELF file: [off, off + size) lies
 * inside src; what is the section's name, or CP_ELF_REFERENCED for
 * containers outside those sections that a relocation points at, which
 * may run on for at most size bytes: fn sets *end to where they ended.
 * A non-zero return (with err filled) stops the search and is returned. */
typedef int (*cp_elf_region_fn)(cp_src *src, uint64_t off, uint64_t size, const char *what,
                                void *arg, uint64_t *end, char *err, size_t errcap);

/* Find the fatbin regions of an ELF file and call fn for each: first the
 * sections (.nv_fatbin, __nv_relfatbin) in section-table order, then, in
 * file order, the containers elsewhere that the dynamic relocations point
 * at (R_X86_64_RELATIVE, R_AARCH64_RELATIVE whose addend, mapped through
 * the PT_LOAD headers, is the start of a container): cuFFT keeps its
 * kernels in .ldata and finds them through its GOT.  A region inside one
 * already given is not given again.  Returns 0 (none found is 0 with fn
 * never called), fn's non-zero result, or -1 with err when a table is bad
 * or the file points at more containers than it can hold. */
int cp_elf_fatbin_sections(cp_src *src, cp_elf_region_fn fn, void *arg, char *err, size_t errcap);

/* Does src start like a static archive ("!<arch>\n")? */
int cp_ar_is(cp_src *src);

/* Called for each member of an archive but its symbol and long-name
 * tables, in file order: [off, off + size) lies inside src, name is the
 * member's ("cuda_device_runtime.o").  A non-zero return stops the walk. */
typedef int (*cp_ar_member_fn)(cp_src *src, uint64_t off, uint64_t size, const char *name, void *arg,
                               char *err, size_t errcap);

/* Walk the members of the archive src (cp_ar_is).  Returns 0, fn's
 * non-zero result, or -1 with err when a member header is bad or runs past
 * the end.  Each step moves at least a header on. */
int cp_ar_members(cp_src *src, cp_ar_member_fn fn, void *arg, char *err, size_t errcap);

/* The head of PTX text (n bytes of a file's start): its ".version X.Y" and
 * first ".target sm_NN[a|f]", with only comments and blank lines before
 * .version.  Returns 0, or -1 when text does not start like PTX. */
int cp_ptx_head(const char *text, size_t n, int *major, int *minor, int *sm, char *variant);

/* The oldest CUDA (1000 * major + 10 * minor) whose driver JIT-compiles PTX
 * of ISA major.minor (REFERENCE 5.3).  *known is false for an ISA newer
 * than the table, which is then guessed by the 9.x -> 13.x pattern. */
int64_t cp_ptx_isa_min_cuda(int major, int minor, int *known);

#endif
