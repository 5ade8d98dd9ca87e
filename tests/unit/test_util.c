/* The ground floor (src/lib/util): strings, paths, lists, the JSON writer's
 * UTF-8 rule, version formatting and the buffer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/buf.h"
#include "util/json.h"
#include "util/text.h"
#include "util/str.h"
#include "util/version.h"
#include "test.h"

static void test_copy(void)
{
    char b[6];
    CHECK(cp_str_copy(b, sizeof b, "hello"));
    CHECK_STR(b, "hello");
    CHECK(!cp_str_copy(b, sizeof b, "hello!"));
    CHECK_STR(b, "hello");
    CHECK(cp_str_copy(b, sizeof b, NULL));
    CHECK_STR(b, "");
    CHECK(cp_str_copy_n(b, sizeof b, "abcdef", 3));
    CHECK_STR(b, "abc");
    CHECK(cp_str_copy_n(b, sizeof b, "ab\0cd", 5));      /* stops at the NUL */
    CHECK_STR(b, "ab");
    CHECK(cp_str_copy_trim(b, sizeof b, " \tab c\r\n", 8));
    CHECK_STR(b, "ab c");
    CHECK(!cp_str_copy(b, 0, "x"));                        /* cap 0 writes nothing */
}

static void test_append(void)
{
    char b[10] = "";
    CHECK(cp_str_append(b, sizeof b, ", ", "ab"));
    CHECK_STR(b, "ab");                                    /* no separator first */
    CHECK(cp_str_append(b, sizeof b, ", ", "cd"));
    CHECK_STR(b, "ab, cd");
    CHECK(!cp_str_append(b, sizeof b, ", ", "efg"));      /* all or nothing */
    CHECK_STR(b, "ab, cd");
    CHECK(cp_str_append(b, sizeof b, ", ", "e"));
    CHECK_STR(b, "ab, cd, e");
}

static void test_paths(void)
{
    char p[16];
    CHECK_I64(cp_path_join(p, sizeof p, "/usr", "lib"), 0);
    CHECK_STR(p, "/usr/lib");
    CHECK_I64(cp_path_join(p, sizeof p, "/usr/", "lib"), 0);
    CHECK_STR(p, "/usr/lib");
    CHECK_I64(cp_path_join(p, sizeof p, p, "x"), 0);       /* out may be dir */
    CHECK_STR(p, "/usr/lib/x");
    CHECK_I64(cp_path_join(p, sizeof p, "/a-long-folder", "name"), -1);
    CHECK_STR(p, "");
    char q[] = "/a/b";
    cp_path_parent(q);
    CHECK_STR(q, "/a");
    cp_path_parent(q);
    CHECK_STR(q, "/");
    CHECK_STR(cp_path_base("/x/lib.so"), "lib.so");
    CHECK_STR(cp_path_base("lib.so"), "lib.so");
    CHECK(cp_str_ends_with("libcuda.so.1", ".so.1"));
    CHECK(!cp_str_ends_with("so", ".so"));
    CHECK(cp_str_starts_with("libcudart.so", "libcuda"));
}

static void test_lists_and_lines(void)
{
    const char *p = "/a::/b";
    char e[8];
    CHECK(cp_list_next(&p, ':', e, sizeof e));
    CHECK_STR(e, "/a");
    CHECK(cp_list_next(&p, ':', e, sizeof e));
    CHECK_STR(e, "");                                      /* empty entries count */
    CHECK(cp_list_next(&p, ':', e, sizeof e));
    CHECK_STR(e, "/b");
    CHECK(!cp_list_next(&p, ':', e, sizeof e));
    const char *t = "one\ntwo\n\nlast";
    size_t pos = 0;
    cp_span l;
    int n = 0;
    while (cp_line_next(t, strlen(t), &pos, &l)) n++;
    CHECK_I64(n, 4);                                       /* a final line without '\n' counts */
}

/* What cp_json_str_n writes for some bytes. */
static const char *json_of(const char *s, size_t n)
{
    static char out[256];
    FILE *f = fmemopen(out, sizeof out, "w");
    if (!f) return "";
    cp_json_str_n(f, s, n);
    fclose(f);
    return out;
}

static void test_utf8_strict(void)
{
    CHECK_I64(cp_utf8_len((const unsigned char *)"\xc3\xa9", 2), 2);         /* e-acute */
    CHECK_I64(cp_utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4); /* U+1F600 */
    CHECK_I64(cp_utf8_len((const unsigned char *)"\xc0\xaf", 2), 0);         /* overlong '/' */
    CHECK_I64(cp_utf8_len((const unsigned char *)"\xe0\x80\xaf", 3), 0);     /* overlong */
    CHECK_I64(cp_utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0);     /* surrogate U+D800 */
    CHECK_I64(cp_utf8_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0); /* above U+10FFFF */
    CHECK_I64(cp_utf8_len((const unsigned char *)"\xf5\x80\x80\x80", 4), 0);
    CHECK_I64(cp_utf8_len((const unsigned char *)"\xe2\x82", 2), 0);         /* cut short */
    CHECK_I64(cp_utf8_len((const unsigned char *)"\x80", 1), 0);             /* stray continuation */
    CHECK_STR(json_of("a\"\\\n\t\x01\x7f", 7), "\"a\\\"\\\\\\n\\t\\u0001\\u007f\"");
    CHECK_STR(json_of("lib\xff.so", 7), "\"lib\\ufffd.so\"");
    CHECK_STR(json_of("\xed\xa0\x80", 3), "\"\\ufffd\\ufffd\\ufffd\"");
    CHECK_STR(json_of("\xc3\xa9", 2), "\"\xc3\xa9\"");
    CHECK_STR(json_of("a\0b", 3), "\"a\\u0000b\"");
}

/* What cp_text_put_n writes for some bytes. */
static const char *text_of(const char *s, size_t n, int keep_newline)
{
    static char out[256];
    memset(out, 0, sizeof out);
    FILE *f = fmemopen(out, sizeof out - 1, "w");
    if (!f) return "";
    cp_text_put_n(f, s, n, keep_newline);
    fclose(f);
    return out;
}

static void test_text_escape(void)
{
    CHECK_STR(text_of("plain text", 10, 1), "plain text");
    CHECK_STR(text_of("\033]0;title\007x", 11, 1), "\\x1b]0;title\\x07x");
    CHECK_STR(text_of("a\nb\tc", 5, 1), "a\nb\tc");
    CHECK_STR(text_of("a\nb", 3, 0), "a\\nb");
    CHECK_STR(text_of("\xc2\x9b" "31m", 5, 1), "\\u009b31m");           /* C1 CSI */
    CHECK_STR(text_of("\x9b" "31m", 4, 1), "\\x9b31m");                  /* raw 8-bit CSI */
    CHECK_STR(text_of("caf\xc3\xa9", 5, 1), "caf\xc3\xa9");
    CHECK_STR(text_of("\x7f\r", 2, 1), "\\x7f\\x0d");
    char line[64] = "";
    FILE *f = fmemopen(line, sizeof line - 1, "w");
    if (f) {
        cp_text_put_line(f, "one\ntwo\033[2J");
        cp_text_put_line(f, NULL);
        fclose(f);
    }
    CHECK_STR(line, "one\\ntwo\\x1b[2J");
    CHECK(cp_text_needs_escape("x\033[2J"));
    CHECK(!cp_text_needs_escape("GPU-1 \xc3\xa9\n"));
}

static void test_versions(void)
{
    char b[16];
    CHECK_STR(cp_cuda_version_str(13000, b, sizeof b), "13.0");
    CHECK_STR(cp_cuda_version_str(12020, b, sizeof b), "12.2");
    CHECK_STR(cp_cuda_version_str(INT64_MIN, b, sizeof b), "N/A");
    CHECK_STR(cp_mmp_version_str(91400, b, sizeof b), "9.14.0");
    CHECK_STR(cp_mmp_version_str(22803, b, sizeof b), "2.28.3");
    CHECK_STR(cp_mmp_version_str(0, b, sizeof b), "");
}

static void test_buf(void)
{
    cp_buf b = { 0 };
    for (int i = 0; i < 1000; i++) cp_buf_printf(&b, "%04d", i);
    cp_buf_append(&b, "!", 1);
    cp_buf_append(&b, "\0x", 2);
    CHECK(!b.failed);
    CHECK_I64(b.len, 4003);
    CHECK(memcmp(b.data, "00000001", 8) == 0);
    CHECK(b.data[b.len] == '\0');
    cp_buf_free(&b);
    CHECK(b.data == NULL && b.len == 0);
}

int main(void)
{
    RUN(test_copy);
    RUN(test_append);
    RUN(test_paths);
    RUN(test_lists_and_lines);
    RUN(test_utf8_strict);
    RUN(test_text_escape);
    RUN(test_versions);
    RUN(test_buf);
    return TEST_END();
}
