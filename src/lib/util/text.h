/*
 * Text for a terminal: values from the machine or from a snapshot (paths,
 * environment variables, device names) may hold control bytes.  Written
 * raw, an escape sequence in a snapshot someone sends you could set your
 * terminal's title and colours.  Every text renderer prints such values
 * through these two functions.
 */
#ifndef CP_UTIL_TEXT_H
#define CP_UTIL_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Write n bytes of s to out as safe text: well-formed UTF-8 and printable
 * ASCII pass; '\n' passes when keep_newline, else it is written "\n";
 * '\t' passes; every other C0 byte, DEL, a C1 control (U+0080-U+009F) and
 * any byte that is not part of well-formed UTF-8 is written "\xNN" (a
 * backslash itself stays a backslash). */
void cp_text_put_n(FILE *out, const char *s, size_t n, int keep_newline);

/* cp_text_put_n over a NUL-terminated string, newlines kept; NULL writes nothing. */
void cp_text_put(FILE *out, const char *s);

/* cp_text_put_n over a one-line value, a newline written "\n" (so a value
 * cannot start a line of its own); NULL writes nothing. */
void cp_text_put_line(FILE *out, const char *s);

/* True when s (NUL-terminated) holds a byte cp_text_put would escape. */
int cp_text_needs_escape(const char *s);

/* s as XML/HTML text or attribute value (SVG, HTML reports): & < > " ' escaped,
 * ill-formed UTF-8 (and U+FFFE, U+FFFF) as U+FFFD, control bytes as spaces. */
void cp_xml_text(FILE *out, const char *s);

#endif
