/*
 * Numbers as text for people: an unknown value (CP_UNKNOWN) reads "N/A",
 * never as the placeholder's digits.  The text lives in the returned
 * struct, so it is used in the call that prints it:
 *     cp_evidence(o, "%s GPUs", cp_num(n).s);
 * (C11 keeps such a temporary until the end of the full expression.)
 */
#ifndef CP_UTIL_NUM_H
#define CP_UTIL_NUM_H

#include <stdint.h>

typedef struct { char s[48]; } cp_numtext;

/* A decimal number, "N/A" when unknown. */
cp_numtext cp_num(int64_t v);
/* A permission mode in octal, "0666"; "N/A" when unknown. */
cp_numtext cp_mode(int64_t mode);
/* A compute capability "9.0", "N/A" when either part is unknown. */
cp_numtext cp_cc(int64_t major, int64_t minor);

#endif
