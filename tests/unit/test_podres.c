/* The kubelet's pod-resources client: HTTP/2 frames, HPACK and its Huffman
 * code, the ListPodResourcesResponse decoder, whole answers (a transcript
 * of gRPC's own server, and hand-made ones: malformed, truncated,
 * oversized), the client against a socket that answers, one that never
 * does and none at all, and the labels it puts on a GPU's series. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/host.h"
#include "util/alloc.h"
#include "test.h"

#define GPU0 "GPU-2a36941f-b41a-b60b-0006-61ebcd2ec0aa"
#define GPU1 "GPU-02ece098-d9c9-7d14-2642-3f6aff79accd"

static cp_podres_map m;

/* ---- hand-made protobuf ---- */

typedef struct {
    uint8_t b[1 << 16];
    size_t n;
} bytes;

static void put_varint(bytes *o, uint64_t v)
{
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        o->b[o->n++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
}

static void put_field(bytes *o, int field, const void *p, size_t n)
{
    put_varint(o, (uint64_t)field << 3 | 2);
    put_varint(o, n);
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void put_str(bytes *o, int field, const char *s)
{
    put_field(o, field, s, strlen(s));
}

static void put_msg(bytes *o, int field, const bytes *m_)
{
    put_field(o, field, m_->b, m_->n);
}

/* A pod of one container holding ids of resource. */
static void put_pod(bytes *o, const char *pod, const char *ns, const char *ctr, const char *resource,
                    const char *const *ids, int nids)
{
    static bytes dev, c, p;
    dev.n = c.n = p.n = 0;
    put_str(&dev, 1, resource);
    for (int i = 0; i < nids; i++) put_str(&dev, 2, ids[i]);
    put_str(&c, 1, ctr);
    put_msg(&c, 2, &dev);
    put_str(&p, 1, pod);
    put_str(&p, 2, ns);
    put_msg(&p, 3, &c);
    put_msg(o, 1, &p);
}

static void test_protobuf(void)
{
    static bytes o;
    o.n = 0;
    const char *a[] = { GPU1 }, *b[] = { GPU0 "::3" }, *nic[] = { "nic-1" }, *mig[] = { "MIG-5c4b" };
    put_pod(&o, "trainer-0", "ml", "pytorch", "nvidia.com/gpu", a, 1);
    put_pod(&o, "infer-7", "serving", "server", "nvidia.com/gpu.shared", b, 1);
    put_pod(&o, "web", "default", "nginx", "example.com/nic", nic, 1);
    put_pod(&o, "small", "ml", "tiny", "nvidia.com/mig-1g.18gb", mig, 1);
    CHECK_I64(cp_parse_podres(o.b, o.n, &m), 0);
    CHECK_I64(m.n, 3);
    CHECK_I64(m.total, 3);
    const cp_podres_dev *d = cp_podres_find(&m, GPU1);
    CHECK(d != NULL);
    if (d) {
        CHECK_STR(d->pod, "trainer-0");
        CHECK_STR(d->ns, "ml");
        CHECK_STR(d->container, "pytorch");
    }
    d = cp_podres_find(&m, "gpu-2a36941f-b41a-b60b-0006-61ebcd2ec0aa");   /* a replica's GPU, any case */
    CHECK(d != NULL && strcmp(d->pod, "infer-7") == 0);
    CHECK(cp_podres_find(&m, "MIG-5c4b") != NULL);
    CHECK(cp_podres_find(&m, "nic-1") == NULL);
    CHECK(cp_podres_find(&m, "") == NULL);
    CHECK(cp_podres_find(NULL, GPU1) == NULL);

    /* names after the containers, unknown fields of every wire type: the same answer */
    static bytes dev, c, p;
    o.n = dev.n = c.n = p.n = 0;
    put_varint(&dev, 3 << 3 | 0);   /* topology's place, as a varint: skipped */
    put_varint(&dev, 300);
    put_str(&dev, 2, GPU1);
    put_str(&dev, 1, "nvidia.com/gpu");
    put_msg(&c, 2, &dev);
    put_varint(&c, 9 << 3 | 1);
    memset(c.b + c.n, 0, 8);
    c.n += 8;
    put_varint(&c, 10 << 3 | 5);
    memset(c.b + c.n, 0, 4);
    c.n += 4;
    put_str(&c, 1, "late");
    put_msg(&p, 3, &c);
    put_str(&p, 2, "ns2");
    put_str(&p, 1, "pod2");
    put_msg(&o, 1, &p);
    CHECK_I64(cp_parse_podres(o.b, o.n, &m), 0);
    CHECK_I64(m.n, 1);
    CHECK_STR(m.dev[0].container, "late");
    CHECK_STR(m.dev[0].pod, "pod2");
    CHECK_STR(m.dev[0].ns, "ns2");

    /* an empty answer: no pods */
    CHECK_I64(cp_parse_podres(NULL, 0, &m), 0);
    CHECK_I64(m.n, 0);
}

static void test_protobuf_malformed(void)
{
    static bytes o;
    const char *a[] = { GPU1 };
    o.n = 0;
    put_pod(&o, "p", "n", "c", "nvidia.com/gpu", a, 1);
    /* every cut short of the whole is refused or reads fewer devices, never more */
    for (size_t k = 0; k < o.n; k++) {
        int rc = cp_parse_podres(o.b, k, &m);
        CHECK(rc == -1 || m.n == 0);
    }
    static const uint8_t group[] = { 0x0b, 0x0c };               /* field 1 as a group */
    static const uint8_t wire7[] = { 0x0f };
    static const uint8_t field0[] = { 0x02, 0x00 };              /* field number 0 */
    static const uint8_t longvar[] = { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
    static const uint8_t toolong[] = { 0x0a, 0x7f, 0x00 };       /* 127 bytes said, 1 there */
    static const uint8_t podvarint[] = { 0x08, 0x01 };           /* pod_resources as a varint */
    static const uint8_t name_varint[] = { 0x0a, 0x02, 0x08, 0x01 };   /* a pod's name as a varint */
    CHECK_I64(cp_parse_podres(group, sizeof group, &m), -1);
    CHECK_I64(cp_parse_podres(wire7, sizeof wire7, &m), -1);
    CHECK_I64(cp_parse_podres(field0, sizeof field0, &m), -1);
    CHECK_I64(cp_parse_podres(longvar, sizeof longvar, &m), -1);
    CHECK_I64(cp_parse_podres(toolong, sizeof toolong, &m), -1);
    CHECK_I64(cp_parse_podres(podvarint, sizeof podvarint, &m), -1);
    CHECK_I64(cp_parse_podres(name_varint, sizeof name_varint, &m), -1);
    static const uint8_t garbage[] = { 0xff, 0xff, 0xff, 0xff };   /* what the garbage test server sends */
    CHECK_I64(cp_parse_podres(garbage, sizeof garbage, &m), -1);
}

static void test_protobuf_caps(void)
{
    static bytes o;
    static char ids[300][48];
    const char *p[300];
    for (int i = 0; i < 300; i++) {
        snprintf(ids[i], sizeof ids[i], "GPU-%08d", i);
        p[i] = ids[i];
    }
    o.n = 0;
    put_pod(&o, "big", "ml", "c", "nvidia.com/gpu", p, 300);
    CHECK_I64(cp_parse_podres(o.b, o.n, &m), 0);
    CHECK_I64(m.n, CP_PODRES_MAX_DEVICES);
    CHECK_I64(m.total, 300);
    /* an id longer than a device id can be, an empty one, one with a NUL: counted, not kept */
    char longid[200];
    memset(longid, 'a', sizeof longid - 1);
    longid[sizeof longid - 1] = '\0';
    const char *odd[] = { longid, "", "::1" };
    o.n = 0;
    put_pod(&o, "odd", "ml", "c", "nvidia.com/gpu", odd, 3);
    static const char nul_id[] = { 'G', 0, 'U' };
    static bytes dev, c, pp;
    dev.n = c.n = pp.n = 0;
    put_str(&dev, 1, "nvidia.com/gpu");
    put_field(&dev, 2, nul_id, sizeof nul_id);
    put_msg(&c, 2, &dev);
    put_msg(&pp, 3, &c);
    put_msg(&o, 1, &pp);
    CHECK_I64(cp_parse_podres(o.b, o.n, &m), 0);
    CHECK_I64(m.n, 0);
    CHECK_I64(m.total, 4);
    /* a pod name longer than its field: cut, still terminated */
    char longpod[400];
    memset(longpod, 'p', sizeof longpod - 1);
    longpod[sizeof longpod - 1] = '\0';
    const char *one[] = { GPU0 };
    o.n = 0;
    put_pod(&o, longpod, "ml", "c", "nvidia.com/gpu", one, 1);
    CHECK_I64(cp_parse_podres(o.b, o.n, &m), 0);
    CHECK_I64(m.n, 1);
    CHECK_I64(strlen(m.dev[0].pod), sizeof m.dev[0].pod - 1);
}

/* ---- Huffman and HPACK (RFC 7541's examples, appendix C) ---- */

static void test_huffman(void)
{
    static const uint8_t www[] = { 0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff };
    static const uint8_t nocache[] = { 0xa8, 0xeb, 0x10, 0x64, 0x9c, 0xbf };
    static const uint8_t cval[] = { 0x25, 0xa8, 0x49, 0xe9, 0x5b, 0xb8, 0xe8, 0xb4, 0xbf };
    static const uint8_t date[] = { 0xd0, 0x7a, 0xbe, 0x94, 0x10, 0x54, 0xd4, 0x44, 0xa8, 0x20, 0x05,
                                    0x95, 0x04, 0x0b, 0x81, 0x66, 0xe0, 0x82, 0xa6, 0x2d, 0x1b, 0xff };
    char s[64];
    size_t n = 0;
    CHECK_I64(cp_parse_huffman(www, sizeof www, s, sizeof s, &n), 0);
    CHECK_STR(s, "www.example.com");
    CHECK_I64(n, 15);
    CHECK_I64(cp_parse_huffman(nocache, sizeof nocache, s, sizeof s, &n), 0);
    CHECK_STR(s, "no-cache");
    CHECK_I64(cp_parse_huffman(cval, sizeof cval, s, sizeof s, &n), 0);
    CHECK_STR(s, "custom-value");
    CHECK_I64(cp_parse_huffman(date, sizeof date, s, sizeof s, &n), 0);
    CHECK_STR(s, "Mon, 21 Oct 2013 20:13:21 GMT");
    /* cut to the room given, the whole length said */
    CHECK_I64(cp_parse_huffman(www, sizeof www, s, 4, &n), 0);
    CHECK_STR(s, "www");
    CHECK_I64(n, 15);
    static const uint8_t zero_pad0[] = { 0x00 };                 /* '0' then padding of zeros */
    static const uint8_t eos[] = { 0xff, 0xff, 0xff, 0xff };     /* EOS inside */
    static const uint8_t pad8[] = { 0x07, 0xff };                /* '0', then 11 bits of padding */
    static const uint8_t zero[] = { 0x07 };                      /* '0' and three ones */
    CHECK_I64(cp_parse_huffman(zero_pad0, 1, s, sizeof s, &n), -1);
    CHECK_I64(cp_parse_huffman(eos, sizeof eos, s, sizeof s, &n), -1);
    CHECK_I64(cp_parse_huffman(pad8, sizeof pad8, s, sizeof s, &n), -1);
    CHECK_I64(cp_parse_huffman(zero, 1, s, sizeof s, &n), 0);
    CHECK_STR(s, "0");
    CHECK_I64(cp_parse_huffman(NULL, 0, s, sizeof s, &n), 0);
    CHECK_STR(s, "");
}

static int hpack(const void *p, size_t n, cp_h2_headers *h)
{
    memset(h, 0, sizeof *h);
    h->status = h->grpc_status = -1;
    return cp_parse_hpack(p, n, h);
}

static void test_hpack(void)
{
    cp_h2_headers h;
    /* gRPC's server: a size update to 0, :status 200 indexed, literals with new names */
    static const char resp[] = "\x20\x88\x40\x0c" "content-type" "\x10" "application/grpc";
    CHECK_I64(hpack(resp, sizeof resp - 1, &h), 0);
    CHECK_I64(h.status, 200);
    CHECK_STR(h.content_type, "application/grpc");
    CHECK_I64(h.grpc_status, -1);
    static const char trl[] = "\x40\x0b" "grpc-status" "\x01" "7" "\x00\x0c" "grpc-message" "\x03" "no!";
    CHECK_I64(hpack(trl, sizeof trl - 1, &h), 0);
    CHECK_I64(h.grpc_status, 7);
    CHECK_STR(h.grpc_message, "no!");
    /* Huffman name and value: "grpc-status" "0"; literal name index 31 never indexed, Huffman value */
    static const uint8_t huff[] = { 0x00, 0x88, 0x9a, 0xca, 0xc8, 0xb2, 0x12, 0x34, 0xda, 0x8f, 0x81, 0x07,
                                    0x1f, 0x10, 0x8b, 0x1d, 0x75, 0xd0, 0x62, 0x0d, 0x26, 0x3d, 0x4c, 0x4d, 0x65, 0x64 };
    CHECK_I64(hpack(huff, sizeof huff, &h), 0);
    CHECK_I64(h.grpc_status, 0);
    CHECK_STR(h.content_type, "application/grpc");
    /* a :status by a literal value, not a number; a grpc-status not a number */
    static const char bad_status[] = "\x08\x03" "abc" "\x40\x0b" "grpc-status" "\x02" "x1";
    CHECK_I64(hpack(bad_status, sizeof bad_status - 1, &h), 0);
    CHECK_I64(h.status, 0);
    CHECK_I64(h.grpc_status, 1000);
    /* malformed: index 0, an index into the (empty) dynamic table, a string cut
     * short, an integer past its bound, a bad Huffman string */
    CHECK_I64(hpack("\x80", 1, &h), -1);
    CHECK_I64(hpack("\xbe", 1, &h), -1);
    CHECK_I64(hpack("\x40\x05" "ab", 4, &h), -1);
    CHECK_I64(hpack("\x0f\xff\xff\xff\xff\xff\x01", 7, &h), -1);
    CHECK_I64(hpack("\x00\x81\x00\x01" "0", 5, &h), -1);
    CHECK_I64(hpack("\x7f\x80", 2, &h), -1);   /* a name index cut short */
    CHECK_I64(hpack("", 0, &h), 0);
}

/* ---- frames and whole answers ---- */

static size_t frame(uint8_t *q, uint8_t type, uint8_t flags, uint32_t stream, const void *p, size_t n)
{
    return cp_h2_put_frame(q, type, flags, stream, p, n);
}

static void test_frames(void)
{
    cp_h2_frame f;
    uint8_t b[64];
    size_t n = frame(b, 1, 0x4, 0x80000003u, "ab", 2);   /* the reserved bit never written */
    CHECK_I64(n, 11);
    CHECK(memcmp(b, "\0\0\x02\x01\x04\0\0\0\x03" "ab", 11) == 0);
    n = frame(b, 6, 0, 0, "12345678", 8);
    for (size_t k = 0; k < n; k++) CHECK_I64(cp_parse_h2_frame(b, k, &f), 0);
    CHECK_I64(cp_parse_h2_frame(b, n, &f), 1);
    CHECK_I64(f.len, 8);
    CHECK_I64(f.type, 6);
    CHECK(f.payload == b + 9);
    b[0] = 0;
    b[1] = 0x40;   /* 16385 bytes said */
    b[2] = 0x01;
    CHECK_I64(cp_parse_h2_frame(b, 9, &f), -1);
    b[5] = 0x80;   /* the reserved bit of the stream id is not part of it */
    b[1] = b[2] = 0;
    CHECK_I64(cp_parse_h2_frame(b, 9, &f), 1);
    CHECK_I64(f.stream, 0);
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    static uint8_t buf[1 << 16];
    *n = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    return buf;
}

/* A grpcio server's whole answer (tests/kubelet/podres_server.py, mode ok),
 * in one piece, byte by byte, and cut short at every length. */
static void test_grpcio_transcript(void)
{
    size_t n = 0;
    uint8_t *b = slurp("tests/fuzz/corpus/podres_reply/grpcio-ok.bin", &n);
    CHECK(b != NULL && n > 100);
    if (!b) return;
    char err[256] = "";
    CHECK_I64(cp_parse_podres_reply(b, n, &m, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK_I64(m.n, 2);
    const cp_podres_dev *d = cp_podres_find(&m, GPU1);
    CHECK(d && strcmp(d->pod, "trainer-0") == 0 && strcmp(d->container, "pytorch") == 0);
    d = cp_podres_find(&m, GPU0);
    CHECK(d && strcmp(d->ns, "serving") == 0 && strcmp(d->container, "server") == 0);

    static cp_h2_resp r;
    cp_h2_resp_init(&r, CP_PODRES_MAX_RESPONSE);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) rc = cp_h2_feed(&r, b + i, 1);
    CHECK_I64(rc, 1);
    CHECK_I64(r.head.status, 200);
    CHECK_I64(r.head.grpc_status, 0);
    CHECK_I64(r.head.undecodable, 0);
    /* its SETTINGS and PING were answered: a SETTINGS ack and a PING ack */
    CHECK_I64(r.nreply, 9 + 17);
    CHECK(r.reply[3] == 4 && r.reply[4] == 1 && r.reply[9 + 3] == 6 && r.reply[9 + 4] == 1);
    cp_h2_resp_free(&r);

    for (size_t k = 0; k < n; k++) {
        err[0] = '\0';
        CHECK_I64(cp_parse_podres_reply(b, k, &m, err, sizeof err), -1);
        CHECK(err[0] != '\0');
    }
    b = slurp("tests/fuzz/corpus/podres_reply/grpcio-denied.bin", &n);
    CHECK(b != NULL);
    if (!b) return;
    CHECK_I64(cp_parse_podres_reply(b, n, &m, err, sizeof err), -1);
    CHECK_STR(err, "gRPC status 7: not for you");
}

/* Headers, DATA of the message, trailers with grpc-status. */
static size_t answer(uint8_t *q, const uint8_t *msg, size_t n, int pad)
{
    size_t k = 0;
    k += frame(q + k, 1, 0x4, 1, "\x88", 1);
    uint8_t d[4096];
    size_t dn = 0;
    if (pad) d[dn++] = 3;
    d[dn++] = 0;
    d[dn++] = (uint8_t)(n >> 24);
    d[dn++] = (uint8_t)(n >> 16);
    d[dn++] = (uint8_t)(n >> 8);
    d[dn++] = (uint8_t)n;
    memcpy(d + dn, msg, n);
    dn += n;
    if (pad) { memset(d + dn, 0, 3); dn += 3; }
    k += frame(q + k, 0, pad ? 0x8 : 0, 1, d, dn);
    static const char trl[] = "\x40\x0b" "grpc-status" "\x01" "0";
    k += frame(q + k, 1, 0x5, 1, trl, sizeof trl - 1);
    return k;
}

static void test_replies(void)
{
    static bytes o;
    const char *a[] = { GPU1 };
    o.n = 0;
    put_pod(&o, "p", "n", "c", "nvidia.com/gpu", a, 1);
    static uint8_t q[1 << 16];
    char err[256];
    size_t k = answer(q, o.b, o.n, 0);
    CHECK_I64(cp_parse_podres_reply(q, k, &m, err, sizeof err), 0);
    CHECK_I64(m.n, 1);
    k = answer(q, o.b, o.n, 1);   /* padded DATA */
    CHECK_I64(cp_parse_podres_reply(q, k, &m, err, sizeof err), 0);
    CHECK_I64(m.n, 1);

    /* the headers split over a CONTINUATION, a PRIORITY frame, an unknown frame type */
    size_t j = 0;
    j += frame(q + j, 2, 0, 1, "\0\0\0\0\x10", 5);
    j += frame(q + j, 0xfa, 0, 0, "xyz", 3);
    j += frame(q + j, 1, 0, 1, "\x20", 1);
    j += frame(q + j, 9, 0x4, 1, "\x88", 1);
    uint8_t d[5] = { 0, 0, 0, 0, 0 };
    j += frame(q + j, 0, 0x1, 1, d, 5);   /* an empty message, the stream ended by DATA */
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), 0);
    CHECK_I64(m.n, 0);

    /* the ways an answer is refused, each with its reason */
    j = frame(q, 3, 0, 1, "\0\0\0\x02", 4);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    CHECK_STR(err, "the server reset the call (RST_STREAM, error 2)");
    j = frame(q, 7, 0, 0, "\0\0\0\0\0\0\0\x0b", 8);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    CHECK_STR(err, "the server went away before answering (GOAWAY, error 11)");
    j = frame(q, 5, 0x4, 1, "\0\0\0\x02", 4);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    j = frame(q, 1, 0x4, 1, "\x8d", 1);   /* :status 404 */
    j += frame(q + j, 1, 0x5, 1, "", 0);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    CHECK_STR(err, "HTTP status 404");
    j = frame(q, 1, 0x5, 1, "\x88", 1);   /* a trailers-only answer without grpc-status or message */
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    CHECK_STR(err, "no gRPC message in the answer");
    j = frame(q, 1, 0x4, 1, "\x88", 1);
    j += frame(q + j, 1, 0, 1, "\x88", 1);   /* headers interrupted by DATA */
    j += frame(q + j, 0, 0x1, 1, d, 5);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    CHECK_STR(err, "a header block was interrupted by another frame");
    uint8_t z[5] = { 1, 0, 0, 0, 0 };   /* compressed */
    j = frame(q, 0, 0x1, 1, z, 5);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    CHECK_STR(err, "a compressed gRPC message (not asked for)");
    uint8_t cut[7] = { 0, 0, 0, 0, 9, 0x0a, 0x00 };   /* 9 bytes said, 2 came */
    j = frame(q, 0, 0x1, 1, cut, 7);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    CHECK_STR(err, "a gRPC message cut short (9 bytes said, 2 came)");
    uint8_t pad[3] = { 9, 0, 0 };   /* padding longer than the frame */
    j = frame(q, 0, 0x8, 1, pad, 3);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    j = frame(q, 4, 0, 0, "12345", 5);   /* SETTINGS not a multiple of 6 */
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    j = frame(q, 6, 0, 0, "1234", 4);    /* a short PING */
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    j = frame(q, 9, 0x4, 1, "\x88", 1);  /* CONTINUATION out of the blue */
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    q[0] = 0; q[1] = 0x40; q[2] = 0x01; q[3] = 0; q[4] = 0;   /* a frame past 16 KB */
    memset(q + 5, 0, 4);
    CHECK_I64(cp_parse_podres_reply(q, 9 + 16385, &m, err, sizeof err), -1);
    CHECK_STR(err, "a frame larger than 16 KB");
    /* garbage in the message (the garbage test server) */
    uint8_t g[9] = { 0, 0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff };
    j = frame(q, 0, 0x1, 1, g, 9);
    CHECK_I64(cp_parse_podres_reply(q, j, &m, err, sizeof err), -1);
    CHECK_STR(err, "not a ListPodResourcesResponse (malformed protobuf)");

    /* past the body cap: refused as soon as it passes */
    static cp_h2_resp r;
    cp_h2_resp_init(&r, 100);
    static uint8_t big[200];
    j = frame(q, 0, 0, 1, big, 60);
    CHECK_I64(cp_h2_feed(&r, q, j), 0);
    CHECK_I64(cp_h2_feed(&r, q, j), -1);
    CHECK_STR(r.error, "an answer larger than the cap");
    cp_h2_resp_free(&r);

    /* a flood of PINGs: acknowledged while there is room, never past it */
    cp_h2_resp_init(&r, 100);
    for (int i = 0; i < 100; i++) {
        j = frame(q, 6, 0, 0, "12345678", 8);
        CHECK_I64(cp_h2_feed(&r, q, j), 0);
    }
    CHECK(r.nreply <= sizeof r.reply && r.nreply >= 17);
    cp_h2_resp_free(&r);

    /* out of memory: said so */
    k = answer(q, o.b, o.n, 0);
    cp_alloc_fail_at(1);
    CHECK_I64(cp_parse_podres_reply(q, k, &m, err, sizeof err), -1);
    CHECK_STR(err, "out of memory");
    cp_alloc_fail_at(2);
    CHECK_I64(cp_parse_podres_reply(q, k, &m, err, sizeof err), -1);
    CHECK_STR(err, "out of memory");
    cp_alloc_fail_at(0);
}

/* ---- the client, against sockets of this test ---- */

static double ms_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* A server in a child: mode 0 reads the request and sends bytes back, 1
 * accepts and says nothing, 2 closes at once.  Returns its pid. */
static pid_t serve(const char *path, int mode, const uint8_t *data, size_t n)
{
    unlink(path);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 4) != 0) return -1;
    pid_t pid = fork();
    if (pid != 0) {
        close(s);
        return pid;
    }
    int c = accept(s, NULL, NULL);
    if (c < 0) _exit(1);
    if (mode == 2) _exit(0);
    if (mode == 1) { sleep(30); _exit(0); }
    uint8_t in[4096];
    if (read(c, in, sizeof in) <= 0) _exit(1);
    if (write(c, data, n) != (ssize_t)n) _exit(1);
    sleep(5);   /* held open: the client ends the call, not the server */
    _exit(0);
}

static void reap(pid_t pid)
{
    if (pid <= 0) return;
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void test_client(void)
{
    char path[64], err[512];
    snprintf(path, sizeof path, "/tmp/cuprobe-podres-%d.sock", (int)getpid());
    size_t n = 0;
    uint8_t *b = slurp("tests/fuzz/corpus/podres_reply/grpcio-ok.bin", &n);
    CHECK(b != NULL);
    if (!b) return;
    pid_t pid = serve(path, 0, b, n);
    CHECK(pid > 0);
    CHECK_I64(cp_podres_list(path, 2000, &m, err, sizeof err), 0);
    CHECK_I64(m.n, 2);
    reap(pid);

    /* a socket that never answers: the call ends at its deadline, not later */
    pid = serve(path, 1, NULL, 0);
    double t0 = ms_now();
    CHECK_I64(cp_podres_list(path, 300, &m, err, sizeof err), -1);
    double took = ms_now() - t0;
    CHECK(took >= 290 && took < 1500);
    CHECK(strstr(err, "no answer within 300 ms") != NULL);
    reap(pid);

    /* a server that hangs up */
    pid = serve(path, 2, NULL, 0);
    CHECK_I64(cp_podres_list(path, 2000, &m, err, sizeof err), -1);
    CHECK(strstr(err, "closed the connection before answering") != NULL || strstr(err, "cannot") != NULL);
    reap(pid);
    unlink(path);

    /* no socket at all, a path too long for one */
    CHECK_I64(cp_podres_list(path, 2000, &m, err, sizeof err), -1);
    CHECK(strstr(err, "cannot connect to /tmp/cuprobe-podres-") != NULL);
    char longp[200];
    memset(longp, 'x', sizeof longp - 1);
    longp[0] = '/';
    longp[sizeof longp - 1] = '\0';
    CHECK_I64(cp_podres_list(longp, 2000, &m, err, sizeof err), -1);
    CHECK(strstr(err, "longer than a unix socket's") != NULL);

    /* the last good answer is kept when a later call fails */
    pid = serve(path, 0, b, n);
    cp_podres *c = cp_podres_open(path, 2000);
    CHECK(c != NULL);
    if (!c) return;
    CHECK(cp_podres_map_of(c) == NULL);
    CHECK_I64(cp_podres_fd(c, NULL), -1);
    cp_podres_begin(c);
    while (!cp_podres_step(c)) {
        short ev;
        struct pollfd p = { cp_podres_fd(c, &ev), 0, 0 };
        p.events = ev;
        poll(&p, 1, cp_podres_timeout_ms(c));
    }
    CHECK_STR(cp_podres_error(c), "");
    CHECK(cp_podres_map_of(c) != NULL && cp_podres_map_of(c)->n == 2);
    reap(pid);
    unlink(path);
    cp_podres_begin(c);
    CHECK_I64(cp_podres_step(c), 1);
    CHECK(cp_podres_error(c)[0] != '\0');
    CHECK(cp_podres_map_of(c) != NULL && cp_podres_map_of(c)->n == 2);
    cp_podres_close(c);
}

/* ---- the labels ---- */

static void test_labels(void)
{
    static cp_tele_frame f;
    memset(&f, 0, sizeof f);
    f.ngpu = 2;
    f.nvml_ok = 1;
    for (int i = 0; i < 2; i++) {
        f.gpu[i].state = CP_TELE_OK;
        snprintf(f.gpu[i].inv.uuid, sizeof f.gpu[i].inv.uuid, "%s", i ? GPU1 : GPU0);
        snprintf(f.gpu[i].inv.name, sizeof f.gpu[i].inv.name, "NVIDIA H200");
    }
    memset(&m, 0, sizeof m);
    m.n = 1;
    snprintf(m.dev[0].device_id, sizeof m.dev[0].device_id, "%s", GPU1);
    snprintf(m.dev[0].pod, sizeof m.dev[0].pod, "trainer-0");
    snprintf(m.dev[0].ns, sizeof m.dev[0].ns, "ml");
    snprintf(m.dev[0].container, sizeof m.dev[0].container, "py\"torch");
    cp_tele_fields fl;
    char err[64];
    CHECK_I64(cp_tele_fields_parse(NULL, &fl, err, sizeof err), 0);
    static char buf[1 << 16];
    FILE *out = fmemopen(buf, sizeof buf, "w");
    CHECK(out != NULL);
    if (!out) return;
    cp_tele_prom_pods(out, &f, &fl, NULL, &m);
    fclose(out);
    CHECK(strstr(buf, "cuprobe_gpu_up{gpu=\"1\",uuid=\"" GPU1 "\",pci_bus_id=\"\",name=\"NVIDIA H200\","
                      "pod=\"trainer-0\",namespace=\"ml\",container=\"py\\\"torch\"} 1\n") != NULL);
    CHECK(strstr(buf, "cuprobe_gpu_up{gpu=\"0\",uuid=\"" GPU0 "\",pci_bus_id=\"\",name=\"NVIDIA H200\"} 1\n") != NULL);
    CHECK(strstr(buf, "gpu=\"0\",uuid=\"" GPU0 "\",pci_bus_id=\"\",name=\"NVIDIA H200\",pod=") == NULL);
    /* without a map: no pod labels anywhere */
    out = fmemopen(buf, sizeof buf, "w");
    CHECK(out != NULL);
    if (!out) return;
    cp_tele_prom(out, &f, &fl, NULL);
    fclose(out);
    CHECK(strstr(buf, "pod=") == NULL);
}

int main(void)
{
    RUN(test_protobuf);
    RUN(test_protobuf_malformed);
    RUN(test_protobuf_caps);
    RUN(test_huffman);
    RUN(test_hpack);
    RUN(test_frames);
    RUN(test_grpcio_transcript);
    RUN(test_replies);
    RUN(test_client);
    RUN(test_labels);
    return TEST_END();
}
