/*
 * Bounded strings, paths and lists: the one copy of each helper.  Every
 * writer NUL-terminates within cap (cap 0 writes nothing) and cuts short
 * rather than overflow; functions that can run out of room say so.
 */
#ifndef CP_UTIL_STR_H
#define CP_UTIL_STR_H

#include <stdbool.h>
#include <stddef.h>

/* A slice of a larger text, not NUL-terminated. */
typedef struct {
    const char *p;
    size_t n;
} cp_span;

/* src (NULL = "") into dst, cut short to fit.  Returns true when it fit. */
bool cp_str_copy(char *dst, size_t cap, const char *src);
/* The first n bytes of src (stopping early at a NUL) into dst, cut short to fit. */
bool cp_str_copy_n(char *dst, size_t cap, const char *src, size_t n);
/* Like cp_str_copy_n with leading and trailing white space (space, tab,
 * CR, LF) left out. */
bool cp_str_copy_trim(char *dst, size_t cap, const char *src, size_t n);

/* Append sep (only when dst is not empty) and s to dst, all or nothing:
 * returns false and leaves dst as it was when both do not fit.  For lists
 * such as "a, b, c". */
bool cp_str_append(char *dst, size_t cap, const char *sep, const char *s);

bool cp_str_starts_with(const char *s, const char *prefix);
/* strerror(e) into out with a lower-case first letter, to follow a colon
 * ("cannot read x: no such file or directory"); returns out. */
const char *cp_str_errno(int e, char *out, size_t cap);
bool cp_str_ends_with(const char *s, const char *suffix);

/* dir + "/" + name into out (no doubled slash after a dir ending in '/').
 * Returns 0, or -1 when it does not fit (out is then ""). */
int cp_path_join(char *out, size_t cap, const char *dir, const char *name);
/* Cut the last component off a path in place: "/a/b" -> "/a", "/a" -> "/",
 * "a" stays "a". */
void cp_path_parent(char *path);
/* The last component: "/a/b.so" -> "b.so"; a path ending in '/' gives "". */
const char *cp_path_base(const char *path);

/* Walk a separated list ("a:b::c" for sep ':'): copies the next entry into
 * out (an entry too long for out gives ""), advances *p past it and its
 * separator, and returns true; false once the list is used up.  Empty
 * entries are returned as "" (PATH gives them a meaning). */
bool cp_list_next(const char **p, char sep, char *out, size_t cap);

/* The next line of text[*pos..len): its span without the '\n' (a final line
 * without one counts), *pos moved past it.  False at the end. */
bool cp_line_next(const char *text, size_t len, size_t *pos, cp_span *line);

/* True when the span holds exactly the bytes of str (a NUL-terminated
 * string; NULL counts as ""). */
bool cp_span_equals(cp_span s, const char *str);

#endif
