/* Fuzz the kubelet client's reading of an answer: HTTP/2 frames, HPACK
 * header blocks with Huffman strings, the gRPC message and its protobuf
 * (cp_parse_podres_reply), and the frame reader fed in two pieces. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cp_podres_map m;
    static cp_h2_resp r;
    char err[256];
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    int rc = cp_parse_podres_reply(buf, size, &m, err, sizeof err);
    if ((rc != 0 && rc != -1) || (rc == -1 && !err[0]) || m.n < 0 || m.n > CP_PODRES_MAX_DEVICES)
        abort();
    /* the same bytes in two pieces end the same way */
    cp_h2_resp_init(&r, CP_PODRES_MAX_RESPONSE + 5);
    size_t cut = size ? buf[0] % (size + 1) : 0;
    int a = cp_h2_feed(&r, buf, cut);
    if (a == 0) a = cp_h2_feed(&r, buf + cut, size - cut);
    if (a < -1 || a > 1 || r.nbody > r.body_max || r.nreply > sizeof r.reply || r.npend > sizeof r.pend ||
        !memchr(r.error, '\0', sizeof r.error) || !memchr(r.head.grpc_message, '\0', sizeof r.head.grpc_message))
        abort();
    cp_h2_resp_free(&r);
    /* the header decoder and the Huffman code on their own */
    cp_h2_headers h;
    memset(&h, 0, sizeof h);
    (void)cp_parse_hpack(buf, size, &h);
    char s[64];
    size_t n = 0;
    if (cp_parse_huffman(buf, size, s, sizeof s, &n) == 0 && (strlen(s) >= sizeof s || n < strlen(s)))
        abort();
    free(buf);
    return 0;
}
