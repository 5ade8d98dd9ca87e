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

#endif
