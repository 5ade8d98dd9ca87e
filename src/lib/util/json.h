/*
 * The one JSON writer: every renderer (doctor, explain, arch) writes its
 * strings and numbers through these, so one escaping rule holds everywhere.
 * Output is always strictly valid UTF-8 JSON: a byte that does not start a
 * well-formed UTF-8 sequence (stray continuation bytes, overlong forms,
 * surrogates U+D800..DFFF, anything above U+10FFFF, a cut sequence) is
 * written as \ufffd; control bytes and DEL as \u00XX (\n and \t as such).
 * The layout (line breaks, indentation) stays the caller's.
 */
#ifndef CP_UTIL_JSON_H
#define CP_UTIL_JSON_H

#include <stdint.h>
#include <stdio.h>

/* Length (1..4) of the well-formed UTF-8 sequence at s[0..n), or 0. */
int cp_utf8_len(const unsigned char *s, size_t n);

/* A quoted, escaped string; NULL writes null. */
void cp_json_str(FILE *out, const char *s);
/* The same for n bytes (which may hold NULs, written as \u0000). */
void cp_json_str_n(FILE *out, const char *s, size_t n);
/* A string, or null for NULL and "". */
void cp_json_str_or_null(FILE *out, const char *s);
/* A number; INT64_MIN (CP_UNKNOWN) writes null. */
void cp_json_i64(FILE *out, int64_t v);
/* A number (10 significant digits, "%.10g"); NAN or an infinity writes null. */
void cp_json_double(FILE *out, double v);

/* Members of an object written on one line: `"key": value`, preceded by
 * ", " unless *first (which is then cleared).  cp_json_member_str leaves a
 * NULL or "" value out; cp_json_member_i64 leaves a negative one out. */
void cp_json_key(FILE *out, const char *key, int *first);
void cp_json_member_str(FILE *out, const char *key, const char *v, int *first);
void cp_json_member_i64(FILE *out, const char *key, int64_t v, int *first);

#endif
