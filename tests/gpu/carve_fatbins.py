"""carve_fatbins.py FILE [SAMPLE]: every fatbin container in FILE, found by
its magic wherever it lies (an 8-aligned 0xBA55ED50 with a sane header),
cut out and given to cuobjdump one by one, which reads a bare fatbin but
looks only in .nv_fatbin of a library.  An independent check of what
`cuprobe arch` finds through the library's relocations (cuFFT keeps almost
all its kernels in .ldata).  SAMPLE: only that many containers, evenly
spread.  Prints "containers N", then "sass:" and "ptx:" with the codes
cuobjdump lists over the containers read (sm_XY, each once, sorted)."""
import os, re, struct, subprocess, sys, tempfile

path = sys.argv[1]
sample = int(sys.argv[2]) if len(sys.argv) > 2 else 0
data = open(path, "rb").read()
found = []
pos = data.find(b"\x50\xed\x55\xba")
while pos >= 0:
    if pos % 8 == 0 and pos + 16 <= len(data):
        magic, version, hsize, size = struct.unpack_from("<IHHQ", data, pos)
        if version == 1 and hsize == 16 and 0 < size <= len(data) - pos - 16:
            found.append((pos, 16 + size))
    pos = data.find(b"\x50\xed\x55\xba", pos + 4)
print("containers", len(found))
pick = found
if sample and len(found) > sample:
    pick = [found[i * len(found) // sample] for i in range(sample)]
sass, ptx = set(), set()
with tempfile.TemporaryDirectory() as tmp:
    for k, (off, n) in enumerate(pick):
        f = os.path.join(tmp, "c%d.fatbin" % k)
        open(f, "wb").write(data[off:off + n])
        for flag, into in (("--list-elf", sass), ("--list-ptx", ptx)):
            out = subprocess.run(["cuobjdump", flag, f], capture_output=True, text=True).stdout
            into.update(re.findall(r"sm_[0-9]+[af]?", out))
        os.unlink(f)
print("sass:", " ".join(sorted(sass)))
print("ptx:", " ".join(sorted(ptx)))
