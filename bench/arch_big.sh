#!/bin/sh
# How much memory and time `cuprobe arch` takes on a ~1 GB library.
#
# Builds, in $TMPDIR (default /tmp), two ELF files from a real nvcc sample
# (tests/fatbin-samples/bare.fatbin, a container with sm_90 SASS and
# compute_90 PTX):
#   sparse.so  1024 copies of that container in .nv_fatbin, each entry
#              padded to 512 KB: like libcublas, a few big entries
#   dense.so   the container repeated back to back, unpadded (~230k
#              containers): the worst case, every page holds a header
# and times `cuprobe arch --sm 90` on each with /usr/bin/time -v.
# Usage: bench/arch_big.sh [CUPROBE]  (default ./cuprobe)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$here/cuprobe}
tmp=${TMPDIR:-/tmp}/cp_arch_big.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM

cat >"$tmp/gen.c" <<'C'
/* gen SAMPLE OUT COPIES PAD: an ELF64 whose .nv_fatbin holds COPIES of the
 * sample's first container, every entry's payload grown by PAD zero bytes
 * (written as holes, so the file is quick to make). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void le(unsigned char *p, uint64_t v, int n) { for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> 8 * i); }
static uint64_t rd(const unsigned char *p, int n) { uint64_t v = 0; for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i]; return v; }
int main(int argc, char **argv)
{
    if (argc != 5) return 2;
    static unsigned char in[1 << 20];
    FILE *f = fopen(argv[1], "rb"), *o = fopen(argv[2], "wb");
    if (!f || !o) return 1;
    size_t n = fread(in, 1, sizeof in, f);
    long copies = atol(argv[3]);
    uint64_t pad = strtoull(argv[4], NULL, 10), body = rd(in + 8, 8), ne = 0;
    if (n < 16 || 16 + body > n) return 1;
    for (uint64_t e = 16; e < 16 + body; e += rd(in + e + 4, 4) + rd(in + e + 8, 8)) ne++;
    static const char names[] = "\0.shstrtab\0.nv_fatbin";
    unsigned char eh[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
    uint64_t csize = 16 + body + ne * pad, fb = 64 + 32, fblen = (uint64_t)copies * csize;
    le(eh + 16, 3, 2); le(eh + 18, 62, 2); le(eh + 0x28, fb + fblen, 8);
    le(eh + 0x34, 64, 2); le(eh + 0x3a, 64, 2); le(eh + 0x3c, 3, 2); le(eh + 0x3e, 1, 2);
    fwrite(eh, 1, 64, o);
    unsigned char nm[32] = { 0 };
    memcpy(nm, names, sizeof names);
    fwrite(nm, 1, 32, o);
    unsigned char ch[16];
    memcpy(ch, in, 16);
    le(ch + 8, csize - 16, 8);
    for (long c = 0; c < copies; c++) {
        fwrite(ch, 1, 16, o);
        for (uint64_t e = 16; e < 16 + body;) {
            uint64_t h = rd(in + e + 4, 4), p = rd(in + e + 8, 8);
            unsigned char hdr[256];
            memcpy(hdr, in + e, h);
            le(hdr + 8, p + pad, 8);
            fwrite(hdr, 1, h, o);
            fwrite(in + e + h, 1, p, o);
            if (pad) fseeko(o, (off_t)pad, SEEK_CUR);
            e += h + p;
        }
    }
    unsigned char sh[3 * 64] = { 0 };
    le(sh + 64, 1, 4); le(sh + 68, 3, 4); le(sh + 64 + 24, 64, 8); le(sh + 64 + 32, sizeof names, 8);
    le(sh + 128, 11, 4); le(sh + 132, 1, 4); le(sh + 128 + 24, fb, 8); le(sh + 128 + 32, fblen, 8);
    fwrite(sh, 1, sizeof sh, o);
    return fclose(o) != 0;
}
C
${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -o "$tmp/gen" "$tmp/gen.c"
sample=$here/tests/fatbin-samples/bare.fatbin
size=$(wc -c <"$sample")
"$tmp/gen" "$sample" "$tmp/sparse.so" 1024 524288
"$tmp/gen" "$sample" "$tmp/dense.so" $((1073741824 / size)) 0

for f in sparse.so dense.so; do
    echo "== $f: $(du -b "$tmp/$f" | cut -f1) bytes"
    cat "$tmp/$f" >/dev/null   # warm the page cache: time the scan, not the disk
    /usr/bin/time -v "$tool" arch --sm 90 "$tmp/$f" 2>"$tmp/time.txt" | head -n 6 || true
    grep -E 'Elapsed|Maximum resident' "$tmp/time.txt"
done
