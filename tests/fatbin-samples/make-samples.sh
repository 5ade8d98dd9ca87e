#!/bin/sh
# Rebuild the fatbin samples that tests/unit/test_fatbin.c reads.  They are
# checked in (our own build output) so the tests run without a CUDA toolkit;
# run this only to refresh them.  Usage: make-samples.sh [OUTDIR] (default:
# this folder).  NVCC overrides the compiler (default /usr/local/cuda/bin/nvcc).
#
# Shared objects are linked with -cudart none and stripped (-Xlinker -s) so
# that each one is little more than its .nv_fatbin section.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$out"

so() {  # so NAME NVCC-ARGS...: a stripped shared object from k.cu
    name=$1; shift
    "$nvcc" -shared -Xcompiler -fPIC -cudart none -Xlinker -s "$@" -o "$out/$name" "$here/k.cu"
}

so sm90.so          -gencode arch=compute_90,code=sm_90
so ptx80.so         -gencode arch=compute_80,code=compute_80
so sm100.so         -gencode arch=compute_100,code=sm_100
so sm90a.so         -gencode arch=compute_90a,code=sm_90a
so sm100f.so        -gencode arch=compute_100f,code=sm_100f
so multi.so         -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
                    -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
so multi-zstd.so    -Xfatbin -compress-all \
                    -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
                    -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
so multi-lz4.so     -Xfatbin -compress-all -Xfatbin -compress-mode=speed \
                    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90
so multi-none.so    -Xfatbin -compress-mode=none \
                    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90
# A relocatable object (-rdc): device code for the device linker, in
# __nv_relfatbin.  Named .obj because .gitignore drops *.o.
"$nvcc" -c -rdc=true -gencode arch=compute_80,code=sm_80 -o "$out/rdc80.obj" "$here/k.cu"
strip --strip-unneeded "$out/rdc80.obj" 2>/dev/null || true
# A bare fatbin file, as `nvcc -fatbin` writes it.
"$nvcc" -fatbin -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
    -o "$out/bare.fatbin" "$here/k.cu"
# cuFFT's layout in small (ldata.c): one module in .nv_fatbin (sm_75), the
# others in .ldata, found only through the pointers to them, which are
# R_X86_64_RELATIVE relocations: sm_90 + compute_90 (pointed at), sm_90
# (right after it, not pointed at), sm_80 (after 8 bytes of other data,
# pointed at), LTO IR for sm_90 (pointed at).
tmp=$(mktemp -d)
"$nvcc" -fatbin -gencode arch=compute_75,code=sm_75 -o "$tmp/f75.fatbin" "$here/k.cu"
"$nvcc" -fatbin -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
    -o "$tmp/f90p.fatbin" "$here/k.cu"
"$nvcc" -fatbin -gencode arch=compute_90,code=sm_90 -o "$tmp/f90.fatbin" "$here/k.cu"
"$nvcc" -fatbin -gencode arch=compute_80,code=sm_80 -o "$tmp/f80.fatbin" "$here/k.cu"
"$nvcc" -fatbin -gencode arch=compute_90,code=lto_90 -o "$tmp/flto.fatbin" "$here/k.cu"
(cd "$tmp" && ${CC:-cc} -shared -fPIC -nostdlib -Wl,-s -o "$out/ldata.so" "$here/ldata.c")
rm -rf "$tmp"
# A standalone cubin (nvcc -cubin: an ELF file of GPU code itself), PTX text
# (nvcc -ptx), and a static archive (ar) of an object with a .nv_fatbin
# section, under a name long enough for the archive's long-name table, beside
# a text member that is passed over.
"$nvcc" -cubin -arch sm_90 -o "$out/sm90.cubin" "$here/k.cu"
"$nvcc" -ptx -arch sm_90 -o "$out/sm90.ptx" "$here/k.cu"
tmp=$(mktemp -d)
"$nvcc" -c -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 \
    -o "$tmp/a_member_with_a_long_name.o" "$here/k.cu"
strip --strip-unneeded "$tmp/a_member_with_a_long_name.o" 2>/dev/null || true
echo "not an object" >"$tmp/notes.txt"
rm -f "$out/objs.a"
(cd "$tmp" && ar rcS "$out/objs.a" notes.txt a_member_with_a_long_name.o)
rm -rf "$tmp"
