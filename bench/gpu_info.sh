#!/bin/sh
# cuprobe info on the GPU machine: the text and the JSON, its wall time, and
# a cross-check of a few values against nvidia-smi -q (memory, max clocks,
# PCIe generation and width, ECC mode, MIG mode) and of the P2P matrix and
# NVLink state against nvidia-smi topo / nvlink.  Writes everything under
# $OUT (default ./out-gpu-info); prints a summary with one line per check.
# Usage (repo root on the GPU machine): sh bench/gpu_info.sh
OUT=${OUT:-./out-gpu-info}
mkdir -p "$OUT"
{
    date -u; uname -r; nvidia-smi -L; head -1 /proc/driver/nvidia/version
    make -j"$(nproc)" >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -40 "$OUT/build.log"; exit 1; }
    t0=$(date +%s%N); ./cuprobe info >"$OUT/info.txt" 2>"$OUT/info.err"; code=$?; t1=$(date +%s%N)
    echo "== cuprobe info: exit $code, $(( (t1 - t0) / 1000000 )) ms wall"
    ./cuprobe info --json >"$OUT/info.json" 2>>"$OUT/info.err"; echo "== cuprobe info --json: exit $?"
    cat "$OUT/info.txt"
    nvidia-smi -q >"$OUT/nvidia-smi-q.txt" 2>&1
    nvidia-smi -q -x >"$OUT/nvidia-smi-q.xml" 2>&1
    nvidia-smi topo -m >"$OUT/topo-m.txt" 2>&1
    nvidia-smi topo -p2p r >"$OUT/topo-p2p-r.txt" 2>&1
    nvidia-smi nvlink -s >"$OUT/nvlink-s.txt" 2>&1
    echo "== cross-check against nvidia-smi -q -x"
    python3 - "$OUT/info.json" "$OUT/nvidia-smi-q.xml" <<'PY'
import json, sys, xml.etree.ElementTree as ET
info = json.load(open(sys.argv[1]))
smi = ET.parse(sys.argv[2]).getroot()
def num(s):
    try: return int(str(s).split()[0])
    except (ValueError, IndexError, AttributeError): return None
bad = 0
def check(what, ours, theirs, tol=0):
    global bad
    ok = ours is not None and theirs is not None and abs(ours - theirs) <= tol
    bad += not ok
    print("%-4s %-44s cuprobe %-14s nvidia-smi %s" % ("ok" if ok else "DIFF", what, ours, theirs))
gpus = {g.get("id").lower().replace("00000000:", "0000:"): g for g in smi.findall("gpu")}
print("devices: cuprobe %d, nvidia-smi %d" % (len(info["devices"]), len(gpus)))
for d in info["devices"]:
    g = gpus.get((d["pci_bus_id"] or "").lower())
    if g is None:
        print("DIFF GPU%d %s: not in nvidia-smi" % (d["index"], d["pci_bus_id"])); bad += 1; continue
    a = d["attributes"] or {}
    p = "GPU%d " % d["index"]
    check(p + "memory total MiB (CUDA)", d["total_mem_bytes"] >> 20 if d["total_mem_bytes"] else None,
          num(g.findtext("fb_memory_usage/total")), tol=1024)
    check(p + "max SM clock MHz (NVML)", d["max_sm_clock_mhz"], num(g.findtext("max_clocks/sm_clock")))
    check(p + "max SM clock MHz (CU_..._CLOCK_RATE)", a.get("clock_khz") and a["clock_khz"] // 1000,
          num(g.findtext("max_clocks/sm_clock")))
    check(p + "max memory clock MHz (NVML)", d["max_mem_clock_mhz"], num(g.findtext("max_clocks/mem_clock")))
    check(p + "max memory clock MHz (CU_..._MEMORY_CLOCK)", a.get("mem_clock_khz") and a["mem_clock_khz"] // 1000,
          num(g.findtext("max_clocks/mem_clock")), tol=2)
    check(p + "PCIe generation max", d["pcie"]["gen_max"], num(g.findtext("pci/pci_gpu_link_info/pcie_gen/max_link_gen")))
    check(p + "PCIe width max", d["pcie"]["width_max"], num((g.findtext("pci/pci_gpu_link_info/link_widths/max_link_width") or "").rstrip("x")))
    ecc = (g.findtext("ecc_mode/current_ecc") or "").strip()
    check(p + "ECC current (NVML)", {True: 1, False: 0}.get(d["ecc"]["current"]), {"Enabled": 1, "Disabled": 0}.get(ecc))
    check(p + "ECC (CU_..._ECC_ENABLED)", {True: 1, False: 0}.get(a.get("ecc_enabled")), {"Enabled": 1, "Disabled": 0}.get(ecc))
    mig = (g.findtext("mig_mode/current_mig") or "").strip()
    if mig in ("Enabled", "Disabled"):
        check(p + "MIG current", {True: 1, False: 0}.get(d["mig"]["current"]), {"Enabled": 1, "Disabled": 0}.get(mig))
    links = (d["nvlink"] or {}).get("links") or []
    print("     %s NVLink: %d links, %d active; P2P row: %s" % (p, len(links), sum(l["active"] for l in links),
          " ".join("-" if v is None else "yes" if v else "no" for v in d["peer_access"])))
    nulls = [k for k, v in a.items() if v is None]
    if nulls: print("DIFF %s attributes unknown: %s" % (p, ", ".join(nulls))); bad += 1
print("cross-check: %d difference(s)" % bad)
PY
    echo "== nvidia-smi topo -p2p r (compare with the peer-access grid above)"; cat "$OUT/topo-p2p-r.txt"
    echo "== nvidia-smi nvlink -s (first lines)"; head -20 "$OUT/nvlink-s.txt"
    echo "== a snapshot replays to the same info"
    rm -rf "$OUT/snap"; ./cuprobe snapshot "$OUT/snap" >/dev/null 2>&1
    ./cuprobe info --from "$OUT/snap" >"$OUT/info-replay.txt" 2>&1; echo "exit $?"
    diff "$OUT/info.txt" "$OUT/info-replay.txt" | head -10
} 2>&1 | tee "$OUT/summary.txt"
