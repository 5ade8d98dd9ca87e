/*
 * The client side of one HTTP/2 call, as pure functions over the bytes a
 * server sent (RFC 9113, RFC 7541): frames, HPACK header blocks (static
 * table, Huffman strings; the dynamic table is held at size 0 by the
 * SETTINGS we send), DATA gathered up to a cap.  The kubelet's
 * pod-resources client (podres.c) drives it over a unix socket; the
 * fuzzer drives it over any bytes.
 */
#include "host/host.h"
#include "util/alloc.h"
#include "util/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { T_DATA = 0, T_HEADERS = 1, T_PRIORITY = 2, T_RST = 3, T_SETTINGS = 4, T_PUSH = 5, T_PING = 6,
       T_GOAWAY = 7, T_WINDOW = 8, T_CONTINUATION = 9 };
enum { F_END_STREAM = 0x1, F_ACK = 0x1, F_END_HEADERS = 0x4, F_PADDED = 0x8, F_PRIORITY = 0x20 };

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One frame at the head of buf; see host.h. */
int cp_parse_h2_frame(const uint8_t *buf, size_t len, cp_h2_frame *f)
{
    if (!buf || len < 9) return 0;
    uint32_t n = (uint32_t)buf[0] << 16 | (uint32_t)buf[1] << 8 | buf[2];
    if (n > CP_H2_MAX_FRAME) return -1;
    if (len < 9 + (size_t)n) return 0;
    f->len = n;
    f->type = buf[3];
    f->flags = buf[4];
    f->stream = be32(buf + 5) & 0x7fffffffu;
    f->payload = buf + 9;
    return 1;
}

/* ---- Huffman (RFC 7541 appendix B): the code is canonical, so the count
 * of codes of each length and the symbols in code order decode it ---- */

static const uint16_t huff_count[31] = { 0, 0, 0, 0, 0, 10, 26, 32, 6, 0, 5, 3, 2, 6, 2, 3,
                                         0, 0, 0, 3, 8, 13, 26, 29, 12, 4, 15, 19, 29, 0, 4 };
static const uint16_t huff_symbol[257] = {
    48, 49, 50, 97, 99, 101, 105, 111, 115, 116, 32, 37, 45, 46, 47, 51,
    52, 53, 54, 55, 56, 57, 61, 65, 95, 98, 100, 102, 103, 104, 108, 109,
    110, 112, 114, 117, 58, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76,
    77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 89, 106, 107, 113, 118,
    119, 120, 121, 122, 38, 42, 44, 59, 88, 90, 33, 34, 40, 41, 63, 39,
    43, 124, 35, 62, 0, 36, 64, 91, 93, 126, 94, 125, 60, 96, 123, 92,
    195, 208, 128, 130, 131, 162, 184, 194, 224, 226, 153, 161, 167, 172, 176, 177,
    179, 209, 216, 217, 227, 229, 230, 129, 132, 133, 134, 136, 146, 154, 156, 160,
    163, 164, 169, 170, 173, 178, 181, 185, 186, 187, 189, 190, 196, 198, 228, 232,
    233, 1, 135, 137, 138, 139, 140, 141, 143, 147, 149, 150, 151, 152, 155, 157,
    158, 165, 166, 168, 174, 175, 180, 182, 183, 188, 191, 197, 231, 239, 9, 142,
    144, 145, 148, 159, 171, 206, 215, 225, 236, 237, 199, 207, 234, 235, 192, 193,
    200, 201, 202, 205, 210, 213, 218, 219, 238, 240, 242, 243, 255, 203, 204, 211,
    212, 214, 221, 222, 223, 241, 244, 245, 246, 247, 248, 250, 251, 252, 253, 254,
    2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20,
    21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 127, 220, 249, 10, 13, 22,
    256,
};

/* Huffman-coded in into out; see host.h. */
int cp_parse_huffman(const uint8_t *in, size_t len, char *out, size_t cap, size_t *outlen)
{
    size_t n = 0;
    int32_t code = 0, first = 0, index = 0, bits = 0, ones = 1;
    for (size_t i = 0; i < len; i++) {
        for (int b = 7; b >= 0; b--) {
            int bit = (in[i] >> b) & 1;
            code |= bit;
            ones &= bit;
            bits++;
            int32_t count = huff_count[bits];
            if (code - count < first) {
                int sym = huff_symbol[index + (code - first)];
                if (sym == 256) return -1;   /* EOS inside a string */
                if (n + 1 < cap) out[n] = (char)sym;
                n++;
                code = first = index = bits = 0;
                ones = 1;
                continue;
            }
            index += count;
            first += count;
            first <<= 1;
            code <<= 1;
            if (bits >= 30) return -1;
        }
    }
    /* what is left must be padding: fewer than 8 bits, all ones */
    if (bits > 7 || !ones) return -1;
    if (cap) out[n < cap ? n : cap - 1] = '\0';
    if (outlen) *outlen = n;
    return 0;
}

/* ---- HPACK ---- */

static const char *const static_table[62][2] = {
    { "", "" }, { ":authority", "" }, { ":method", "GET" }, { ":method", "POST" }, { ":path", "/" },
    { ":path", "/index.html" }, { ":scheme", "http" }, { ":scheme", "https" }, { ":status", "200" },
    { ":status", "204" }, { ":status", "206" }, { ":status", "304" }, { ":status", "400" },
    { ":status", "404" }, { ":status", "500" }, { "accept-charset", "" },
    { "accept-encoding", "gzip, deflate" }, { "accept-language", "" }, { "accept-ranges", "" },
    { "accept", "" }, { "access-control-allow-origin", "" }, { "age", "" }, { "allow", "" },
    { "authorization", "" }, { "cache-control", "" }, { "content-disposition", "" },
    { "content-encoding", "" }, { "content-language", "" }, { "content-length", "" },
    { "content-location", "" }, { "content-range", "" }, { "content-type", "" }, { "cookie", "" },
    { "date", "" }, { "etag", "" }, { "expect", "" }, { "expires", "" }, { "from", "" }, { "host", "" },
    { "if-match", "" }, { "if-modified-since", "" }, { "if-none-match", "" }, { "if-range", "" },
    { "if-unmodified-since", "" }, { "last-modified", "" }, { "link", "" }, { "location", "" },
    { "max-forwards", "" }, { "proxy-authenticate", "" }, { "proxy-authorization", "" }, { "range", "" },
    { "referer", "" }, { "refresh", "" }, { "retry-after", "" }, { "server", "" }, { "set-cookie", "" },
    { "strict-transport-security", "" }, { "transfer-encoding", "" }, { "user-agent", "" },
    { "vary", "" }, { "via", "" }, { "www-authenticate", "" },
};

/* An HPACK integer with an N-bit prefix at *p; -1 when cut short or past 2^28. */
static int64_t hp_int(const uint8_t **p, const uint8_t *end, int nbits)
{
    if (*p >= end) return -1;
    int64_t max = (1 << nbits) - 1, v = **p & max;
    (*p)++;
    if (v < max) return v;
    for (int shift = 0; shift <= 21; shift += 7) {
        if (*p >= end) return -1;
        uint8_t b = *(*p)++;
        v += (int64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    return -1;
}

/* An HPACK string into out (cut to cap - 1 bytes; *truncated set then). */
static int hp_str(const uint8_t **p, const uint8_t *end, char *out, size_t cap, int *truncated)
{
    if (*p >= end) return -1;
    int huff = **p & 0x80;
    int64_t n = hp_int(p, end, 7);
    if (n < 0 || n > end - *p) return -1;
    size_t got = 0;
    if (huff) {
        if (cp_parse_huffman(*p, (size_t)n, out, cap, &got) != 0) return -1;
    } else {
        got = (size_t)n;
        size_t k = got < cap ? got : cap - 1;
        memcpy(out, *p, k);
        out[k] = '\0';
    }
    *truncated = got >= cap || memchr(out, '\0', got < cap ? got : cap - 1) != NULL;
    *p += n;
    return 0;
}

static void hp_field(const char *name, const char *value, cp_h2_headers *h)
{
    if (strcmp(name, ":status") == 0) {
        char *end;
        long v = strtol(value, &end, 10);
        h->status = end != value && *end == '\0' && v >= 100 && v <= 999 ? (int)v : 0;
    } else if (strcmp(name, "grpc-status") == 0) {
        char *end;
        long v = strtol(value, &end, 10);
        h->grpc_status = end != value && *end == '\0' && v >= 0 && v <= 1000 ? (int)v : 1000;
    } else if (strcmp(name, "grpc-message") == 0) {
        cp_str_copy(h->grpc_message, sizeof h->grpc_message, value);
    } else if (strcmp(name, "content-type") == 0) {
        cp_str_copy(h->content_type, sizeof h->content_type, value);
    }
}

/* One header block into h; see host.h. */
int cp_parse_hpack(const uint8_t *blk, size_t len, cp_h2_headers *h)
{
    const uint8_t *p = blk, *end = blk + len;
    char name[64], value[256];
    int tn = 0, tv = 0;
    while (p < end) {
        uint8_t b = *p;
        if (b & 0x80) {                        /* indexed field */
            int64_t i = hp_int(&p, end, 7);
            if (i < 1 || i > 61) return -1;    /* 0, or the dynamic table we keep empty */
            hp_field(static_table[i][0], static_table[i][1], h);
            continue;
        }
        if ((b & 0xe0) == 0x20) {              /* dynamic table size update */
            if (hp_int(&p, end, 5) < 0) return -1;
            continue;
        }
        /* a literal: with incremental indexing (01, 6-bit index) or without / never indexed (000x, 4-bit) */
        int64_t i = hp_int(&p, end, (b & 0x40) ? 6 : 4);
        if (i < 0 || i > 61) return -1;
        if (i == 0) {
            if (hp_str(&p, end, name, sizeof name, &tn) != 0) return -1;
        } else {
            cp_str_copy(name, sizeof name, static_table[i][0]);
            tn = 0;
        }
        if (hp_str(&p, end, value, sizeof value, &tv) != 0) return -1;
        if (!tn && !tv) hp_field(name, value, h);
    }
    return 0;
}

/* ---- one call's answer, frame by frame ---- */

/* Start reading an answer; see host.h. */
void cp_h2_resp_init(cp_h2_resp *r, size_t body_max)
{
    free(r->body);
    memset(r, 0, sizeof *r);
    r->body_max = body_max;
    r->head.status = -1;
    r->head.grpc_status = -1;
}

/* Free the body; see host.h. */
void cp_h2_resp_free(cp_h2_resp *r)
{
    free(r->body);
    r->body = NULL;
    r->nbody = 0;
}

static int fail(cp_h2_resp *r, const char *why)
{
    if (!r->failed) cp_str_copy(r->error, sizeof r->error, why);
    r->failed = 1;
    return -1;
}

/* A frame's header and payload into q; see host.h. */
size_t cp_h2_put_frame(uint8_t *q, uint8_t type, uint8_t flags, uint32_t stream, const uint8_t *p, size_t n)
{
    q[0] = (uint8_t)(n >> 16);
    q[1] = (uint8_t)(n >> 8);
    q[2] = (uint8_t)n;
    q[3] = type;
    q[4] = flags;
    q[5] = (uint8_t)(stream >> 24 & 0x7f);
    q[6] = (uint8_t)(stream >> 16);
    q[7] = (uint8_t)(stream >> 8);
    q[8] = (uint8_t)stream;
    if (n) memcpy(q + 9, p, n);
    return 9 + n;
}

static void reply(cp_h2_resp *r, uint8_t type, uint8_t flags, const uint8_t *payload, size_t n)
{
    if (r->nreply + 9 + n > sizeof r->reply) return;   /* a flood of pings: the rest unanswered */
    r->nreply += cp_h2_put_frame(r->reply + r->nreply, type, flags, 0, payload, n);
}

/* The payload of a HEADERS or DATA frame without its padding and priority. */
static int unpad(cp_h2_resp *r, const cp_h2_frame *f, const uint8_t **p, size_t *n)
{
    *p = f->payload;
    *n = f->len;
    if (f->flags & F_PADDED) {
        if (*n < 1) return fail(r, "a padded frame without its pad length");
        size_t pad = **p;
        (*p)++;
        (*n)--;
        if (pad > *n) return fail(r, "a frame's padding is longer than the frame");
        *n -= pad;
    }
    if (f->type == T_HEADERS && (f->flags & F_PRIORITY)) {
        if (*n < 5) return fail(r, "a HEADERS frame too short for its priority");
        *p += 5;
        *n -= 5;
    }
    return 0;
}

static int header_block_done(cp_h2_resp *r)
{
    if (cp_parse_hpack(r->hblk, r->nhblk, &r->head) != 0)
        r->head.undecodable = 1;   /* the headers are lost; the DATA may still be whole */
    r->nhblk = 0;
    r->in_headers = 0;
    if (r->hblk_end_stream) r->done = 1;
    return r->done;
}

static int frame(cp_h2_resp *r, const cp_h2_frame *f)
{
    if (r->in_headers && (f->type != T_CONTINUATION || f->stream != 1))
        return fail(r, "a header block was interrupted by another frame");
    const uint8_t *p;
    size_t n;
    switch (f->type) {
    case T_SETTINGS:
        if (f->stream != 0) return fail(r, "SETTINGS on a stream");
        if (f->flags & F_ACK) return f->len == 0 ? 0 : fail(r, "a SETTINGS acknowledgement with a payload");
        if (f->len % 6) return fail(r, "a SETTINGS frame of a wrong length");
        reply(r, T_SETTINGS, F_ACK, NULL, 0);
        return 0;
    case T_PING:
        if (f->stream != 0 || f->len != 8) return fail(r, "a malformed PING");
        if (!(f->flags & F_ACK)) reply(r, T_PING, F_ACK, f->payload, 8);
        return 0;
    case T_WINDOW:
        return f->len == 4 ? 0 : fail(r, "a WINDOW_UPDATE of a wrong length");
    case T_GOAWAY:
        if (f->len < 8) return fail(r, "a GOAWAY too short");
        if ((be32(f->payload) & 0x7fffffffu) < 1) {
            char why[96];
            snprintf(why, sizeof why, "the server went away before answering (GOAWAY, error %u)",
                     (unsigned)be32(f->payload + 4));
            return fail(r, why);
        }
        r->goaway = 1;
        return 0;
    case T_RST:
        if (f->len != 4) return fail(r, "a RST_STREAM of a wrong length");
        if (f->stream == 1) {
            char why[96];
            snprintf(why, sizeof why, "the server reset the call (RST_STREAM, error %u)",
                     (unsigned)be32(f->payload));
            return fail(r, why);
        }
        return 0;
    case T_PUSH:
        return fail(r, "a PUSH_PROMISE, which the client turned off");
    case T_HEADERS:
    case T_CONTINUATION:
        if (f->stream != 1) return f->type == T_HEADERS ? 0 : fail(r, "a CONTINUATION on another stream");
        if (f->type == T_CONTINUATION && !r->in_headers) return fail(r, "a CONTINUATION without HEADERS");
        if (f->type == T_HEADERS) {
            if (unpad(r, f, &p, &n) != 0) return -1;
            r->hblk_end_stream = (f->flags & F_END_STREAM) != 0;
            r->nblocks++;
        } else {
            p = f->payload;
            n = f->len;
        }
        if (r->nhblk + n > sizeof r->hblk) return fail(r, "a header block larger than 16 KB");
        memcpy(r->hblk + r->nhblk, p, n);
        r->nhblk += n;
        r->in_headers = 1;
        if (f->flags & F_END_HEADERS) header_block_done(r);
        return 0;
    case T_DATA:
        if (f->stream != 1) return 0;
        if (unpad(r, f, &p, &n) != 0) return -1;
        if (r->nbody + n > r->body_max) return fail(r, "an answer larger than the cap");
        if (n) {
            if (r->nbody + n > r->body_cap) {
                size_t cap = r->body_cap ? r->body_cap : 4096;
                while (cap < r->nbody + n) cap *= 2;
                if (cap > r->body_max) cap = r->body_max;
                uint8_t *nb = cp_realloc(r->body, cap);
                if (!nb) return fail(r, "out of memory");
                r->body = nb;
                r->body_cap = cap;
            }
            memcpy(r->body + r->nbody, p, n);
            r->nbody += n;
        }
        if (f->flags & F_END_STREAM) r->done = 1;
        return 0;
    default:
        return 0;   /* PRIORITY and unknown types: ignored, as the protocol asks */
    }
}

/* Feed what the server sent; see host.h. */
int cp_h2_feed(cp_h2_resp *r, const uint8_t *data, size_t len)
{
    while (!r->failed && !r->done) {
        size_t room = sizeof r->pend - r->npend, k = len < room ? len : room;
        if (k) memcpy(r->pend + r->npend, data, k);
        r->npend += k;
        data += k;
        len -= k;
        size_t off = 0;
        cp_h2_frame f;
        int rc;
        while (!r->failed && !r->done && (rc = cp_parse_h2_frame(r->pend + off, r->npend - off, &f)) != 0) {
            if (rc < 0) return fail(r, "a frame larger than 16 KB");
            off += 9 + f.len;
            if (frame(r, &f) != 0) return -1;
        }
        memmove(r->pend, r->pend + off, r->npend - off);
        r->npend -= off;
        if (!len) break;
    }
    return r->failed ? -1 : r->done;
}
