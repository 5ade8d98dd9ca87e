#!/bin/sh
# Kernel- and system-layer faults made for real on a GPU machine, each in its
# own mount namespace so nothing outside cuprobe's run sees it, and without
# changing the GPU (no clocks, modes, persistence or reset; no module is
# unloaded): device nodes missing, replaced by another node or a file, or
# unreadable for the user; a device cgroup refusing a node; NVML or libcuda
# unloadable; the stub and an older compat libcuda on the loader path; the
# visibility variables.  Each case runs `cuprobe doctor --json` and checks
# the root cause's layer (and check) and words of its summary and fix, and
# prints one PASS, FAIL or SKIP line with the root cause it got; then a
# summary.  Exits 1 on any FAIL.  A case whose fault cannot be made here (no
# mount namespaces, bind mounts, tmpfs or mknod, as under some sandboxes) is
# a SKIP saying why.  Takes well under a minute on one H200.
#
# Usage: tests/gpu/faults.sh [TOOL] [OUTDIR]   as root (TOOL: ./cuprobe;
#        OUTDIR keeps each case's JSON); `make test-gpu` runs it.
tool=${1:-./cuprobe}
keep=${2:-}
pass=0 fail=0 skip=0
say() { printf '%-5s faults %-26s %s\n' "$1" "$2" "$3"; }
PASS() { pass=$((pass + 1)); say PASS "$1" "$2"; }
FAIL() { fail=$((fail + 1)); say FAIL "$1" "$2"; }
SKIP() { skip=$((skip + 1)); say SKIP "$1" "$2"; }
finish() {
    printf 'faults: %d passed, %d failed, %d skipped\n' "$pass" "$fail" "$skip"
    [ "$fail" = 0 ]
    exit $?
}

if [ ! -e /dev/nvidiactl ] || [ ! -r /proc/driver/nvidia/version ]; then
    SKIP all "no NVIDIA GPU on this machine"
    finish
fi
if [ ! -x "$tool" ]; then
    FAIL all "no cuprobe at '$tool'"
    finish
fi
if ! command -v python3 >/dev/null 2>&1; then
    SKIP all "python3 is needed to read the JSON reports"
    finish
fi

# A private folder every user can enter (the unprivileged cases run the tool
# from it), removed at the end whatever happened.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-faults.XXXXXX") || exit 2
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
if ! cp "$tool" "$tmp/cuprobe" || ! chmod 755 "$tmp/cuprobe"; then FAIL all "cannot copy $tool"; finish; fi
tool=$tmp/cuprobe
env_base="PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=$tmp"

# ---- what this machine lets us do ------------------------------------------

is_root=0
[ "$(id -u)" = 0 ] && is_root=1
can_ns=0 can_bind=0 can_tmpfs=0 can_mknod=0 why_ns="" why_bind="" why_tmpfs="" why_mknod=""
if [ $is_root = 0 ]; then
    why_ns="not root: mount namespaces need root"
elif ! command -v unshare >/dev/null 2>&1; then
    why_ns="unshare(1) is not installed"
elif ! unshare -m --propagation private true 2>"$tmp/ns.err"; then
    why_ns="unshare -m refused: $(head -n 1 "$tmp/ns.err")"
else
    can_ns=1
fi
if [ $can_ns = 1 ]; then
    mkdir -p "$tmp/probe/t" && : >"$tmp/probe/f"
    if unshare -m --propagation private sh -c "mount --bind /dev/null '$tmp/probe/f'" 2>"$tmp/bind.err"; then can_bind=1
    else why_bind="bind mounts refused: $(head -n 1 "$tmp/bind.err")"; fi
    if unshare -m --propagation private sh -c "mount -t tmpfs cuprobe-faults '$tmp/probe/t'" 2>"$tmp/tmpfs.err"; then can_tmpfs=1
    else why_tmpfs="tmpfs mounts refused: $(head -n 1 "$tmp/tmpfs.err")"; fi
    if [ $can_tmpfs = 1 ] && unshare -m --propagation private sh -c \
        "mount -t tmpfs cuprobe-faults '$tmp/probe/t' && mknod '$tmp/probe/t/n' c 1 3" 2>"$tmp/mknod.err"; then can_mknod=1
    else why_mknod="mknod refused: $(head -n 1 "$tmp/mknod.err" 2>/dev/null)"; fi
else
    why_bind=$why_ns why_tmpfs=$why_ns why_mknod=$why_ns
fi
[ $can_tmpfs = 1 ] || why_mknod=${why_mknod:-$why_tmpfs}
# an unprivileged user to run the tool as, for permission faults
as_user="" why_user=""
if [ $is_root = 0 ]; then
    why_user="not root: cannot switch user"
elif command -v setpriv >/dev/null 2>&1; then
    as_user="setpriv --reuid=65534 --regid=65534 --clear-groups --"
elif command -v runuser >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
    as_user="runuser -u nobody --"
else
    why_user="neither setpriv nor runuser is installed"
fi
echo "faults: root=$is_root namespaces=$can_ns bind=$can_bind tmpfs=$can_tmpfs mknod=$can_mknod user='${as_user%% *}'"

# ---- running one case --------------------------------------------------------

# run NAME NS USER SETUP [VAR=VALUE...]: cuprobe doctor --json into
# $tmp/NAME.json.  NS=1 runs SETUP and the tool in a private mount namespace
# (every mount made there ends with it); USER=1 runs the tool as the
# unprivileged user.  $tmp/NAME.err gets the setup's and the tool's errors.
run() {
    n=$1 ns=$2 user=$3 setup=$4
    shift 4
    who=""
    [ "$user" = 1 ] && who=$as_user
    {
        echo "set -e"
        echo "$setup"
        echo "set +e"
        # shellcheck disable=SC2016 # expanded by the case's own shell
        echo "exec $who env -i $env_base $* '$tool' doctor --json"
    } >"$tmp/$n.sh"
    if [ "$ns" = 1 ]; then
        unshare -m --propagation private sh "$tmp/$n.sh" >"$tmp/$n.json" 2>"$tmp/$n.err"
    else
        sh "$tmp/$n.sh" >"$tmp/$n.json" 2>"$tmp/$n.err"
    fi
    echo $? >"$tmp/$n.code"
    [ -n "$keep" ] && mkdir -p "$keep" && cp "$tmp/$n.json" "$tmp/$n.err" "$keep/" 2>/dev/null
    return 0
}

# expect NAME LAYER CHECK WORDS [EXIT]: LAYER "healthy" wants no failing
# layer (exit 0, or 1 with only warnings, as an old XID in the kernel log
# gives); else the root cause's layer, its check (unless CHECK is "-"), the
# exit code EXIT (default 2, a failure; 1 for a warning) and, case
# insensitively, a match for the regular expression WORDS in its summary
# plus fix.  Prints the case's line.
expect() {
    n=$1
    out=$(python3 - "$tmp/$n.json" "$(cat "$tmp/$n.code")" "$2" "$3" "$4" "${5:-2}" <<'EOF'
import json, re, sys
path, code, layer, check, words, want_code = sys.argv[1:7]
try:
    d = json.load(open(path))
except Exception as e:
    print("FAIL exit %s, no JSON report (%s)" % (code, e)); sys.exit()
rc = d.get("root_cause")
got = "healthy" if rc is None else "%s %s %s: %s | fix: %s" % (
    rc.get("layer"), rc.get("check"), rc.get("status"), rc.get("summary"), rc.get("fix"))
if layer == "healthy":
    ok = code in ("0", "1") and (rc is None or rc.get("status") == "warn")
else:
    text = (rc or {}).get("summary", "") + " " + (rc or {}).get("fix", "")
    ok = (rc is not None and rc.get("layer") == layer and (check == "-" or rc.get("check") == check)
          and re.search(words, text, re.I) is not None and code == want_code)
print("%s exit %s, %s" % ("PASS" if ok else "FAIL", code, got))
EOF
)
    case $out in
    PASS*) PASS "$n" "${out#PASS }" ;;
    *) FAIL "$n" "${out#FAIL } (wanted $2${3:+ $3}${4:+ /$4/})"; sed 's/^/      err| /' "$tmp/$n.err" | head -n 5 ;;
    esac
}

# ---- device nodes -----------------------------------------------------------

# The NVIDIA nodes libcuda opens: nvidiactl, nvidia-uvm and each GPU's.
nodes="/dev/nvidiactl /dev/nvidia-uvm"
for g in /dev/nvidia[0-9]*; do [ -c "$g" ] && nodes="$nodes $g"; done

# mask_dev HIDE: a shell snippet that lays a read-only tmpfs over /dev holding
# every entry of the real /dev (bound from it) except HIDE, so HIDE is
# missing and nothing can be created in its place (libcuda's helper
# nvidia-modprobe would make it again).
mask_dev() {
    cat <<EOF
real=$tmp/realdev.\$\$
mkdir -p "\$real"
mount --rbind /dev "\$real"
mount -t tmpfs -o mode=755 cuprobe-faults /dev
for e in "\$real"/* "\$real"/.[!.]*; do
    [ -e "\$e" ] || [ -L "\$e" ] || continue
    name=\${e##*/}
    [ "/dev/\$name" = "$1" ] && continue
    if [ -L "\$e" ]; then cp -P "\$e" "/dev/\$name"
    elif [ -d "\$e" ]; then mkdir "/dev/\$name"; mount --rbind "\$e" "/dev/\$name"
    else : >"/dev/\$name"; mount --bind "\$e" "/dev/\$name"; fi
done
mount -o remount,ro /dev
EOF
}

# can /dev be masked that way here (a sandbox may refuse a recursive bind)?
can_mask=0 why_mask=${why_tmpfs:-$why_bind}
if [ $can_tmpfs = 1 ] && [ $can_bind = 1 ]; then
    { mask_dev /dev/cuprobe-none; echo '[ -c /dev/null ] && [ -e /dev/nvidiactl ]'; } >"$tmp/mask.sh"
    if unshare -m --propagation private sh -e "$tmp/mask.sh" 2>"$tmp/mask.err"; then can_mask=1
    else why_mask="cannot lay a tmpfs with the other nodes over /dev: $(head -n 1 "$tmp/mask.err")"; fi
fi

for node in $nodes; do
    n=missing-${node#/dev/}
    if [ $can_mask = 0 ]; then SKIP "$n" "$why_mask"; continue; fi
    run "$n" 1 0 "$(mask_dev "$node")"
    expect "$n" kernel kernel.devnodes "missing: .*$node.*(--gpus|nvidia-modprobe)"
done
# a node CUDA does not need: its absence must not be a failure
if [ -c /dev/nvidia-uvm-tools ]; then
    if [ $can_mask = 0 ]; then SKIP missing-nvidia-uvm-tools "$why_mask"
    else
        run missing-nvidia-uvm-tools 1 0 "$(mask_dev /dev/nvidia-uvm-tools)"
        expect missing-nvidia-uvm-tools healthy
    fi
fi

# another node over the NVIDIA one: /dev/null (c 1:3) bound over each
for node in $nodes; do
    n=null-over-${node#/dev/}
    if [ $can_bind = 0 ]; then SKIP "$n" "$why_bind"; continue; fi
    run "$n" 1 0 "mount --bind /dev/null $node"
    expect "$n" kernel kernel.devnodes "$node is char 1:3.*it should be char .*(Container Toolkit|nvidia-modprobe)"
done
# the right driver, the wrong minor: nvidia-uvm-tools over nvidia-uvm
if [ -c /dev/nvidia-uvm-tools ]; then
    if [ $can_bind = 0 ]; then SKIP uvm-tools-over-uvm "$why_bind"
    else
        run uvm-tools-over-uvm 1 0 "mount --bind /dev/nvidia-uvm-tools /dev/nvidia-uvm"
        expect uvm-tools-over-uvm kernel kernel.devnodes "/dev/nvidia-uvm is char [0-9]+:1 .*it should be char [0-9]+:0"
    fi
fi
# a regular file over the first GPU's node
gpu0=$(echo "$nodes" | tr ' ' '\n' | grep '^/dev/nvidia[0-9]' | head -n 1)
if [ $can_bind = 0 ]; then SKIP file-over-gpu-node "$why_bind"
elif [ -z "$gpu0" ]; then SKIP file-over-gpu-node "no /dev/nvidiaN node here"
else
    : >"$tmp/empty-file"
    run file-over-gpu-node 1 0 "mount --bind $tmp/empty-file $gpu0"
    expect file-over-gpu-node kernel kernel.devnodes "$gpu0 is a regular file, it should be char 195:"
fi

# ---- permissions: the unprivileged user, and copies of the nodes with mode 000

if [ -z "$as_user" ]; then SKIP user-baseline "$why_user"
else
    run user-baseline 0 1 ":"
    expect user-baseline healthy
fi
for node in $nodes; do
    n=mode000-${node#/dev/}
    if [ -z "$as_user" ]; then SKIP "$n" "$why_user"; continue; fi
    if [ $can_mknod = 0 ] || [ $can_bind = 0 ]; then SKIP "$n" "${why_mknod:-$why_bind}"; continue; fi
    mm=$(stat -c '%t %T' "$node") || { SKIP "$n" "cannot stat $node"; continue; }
    maj=$((0x${mm% *})) min=$((0x${mm#* }))
    run "$n" 1 1 "c=$tmp/nodes.\$\$; mkdir -p \$c; mount -t tmpfs cuprobe-faults \$c
mknod -m 000 \$c/node c $maj $min; mount --bind \$c/node $node"
    expect "$n" system system.devnode_access "not accessible.*(NVreg_DeviceFileMode|usermod)"
done

# ---- a device cgroup that refuses /dev/nvidia-uvm (EPERM) ---------------------

# A child of this shell's cgroup that refuses char MAJ:MIN: on cgroup v2 a BPF
# device program (loaded by python3 through bpf(2); the programs above it
# still apply), on v1 a devices.deny rule.  The case's shell moves itself in
# before it starts the tool; the child is removed after.
cat >"$tmp/cgdeny.py" <<'EOF'
# cgdeny.py CGROUP2_MOUNT MAJOR MINOR: make a child of this process's cgroup v2
# whose BPF device program refuses char MAJOR:MINOR (every other device is
# left to the programs above it) and print its path.  Exit 1 with the reason.
import ctypes, ctypes.util, os, struct, sys
mnt, major, minor = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rel = [l.split("::", 1)[1].strip() for l in open("/proc/self/cgroup") if l.startswith("0::")]
if not rel:
    sys.exit("no cgroup v2 membership")
child = os.path.join(mnt + rel[0].rstrip("/"), "cuprobe-faults.%d" % os.getpid())
def insn(code, dst, src, off, imm):
    return struct.pack("<BBhi", code, dst | (src << 4), off, imm)
prog = b"".join([
    insn(0x61, 2, 1, 4, 0),          # r2 = ctx->major
    insn(0x61, 3, 1, 8, 0),          # r3 = ctx->minor
    insn(0x55, 2, 0, 3, major),      # if r2 != major goto allow
    insn(0x55, 3, 0, 2, minor),      # if r3 != minor goto allow
    insn(0xb7, 0, 0, 0, 0),          # r0 = 0 (refuse)
    insn(0x95, 0, 0, 0, 0),          # exit
    insn(0xb7, 0, 0, 0, 1),          # allow: r0 = 1
    insn(0x95, 0, 0, 0, 0),          # exit
])
libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
libc.syscall.restype = ctypes.c_long
NR_BPF = {"x86_64": 321, "aarch64": 280}.get(os.uname().machine)
if NR_BPF is None:
    sys.exit("unknown bpf syscall number on " + os.uname().machine)
insns = ctypes.create_string_buffer(prog, len(prog))
lic = ctypes.create_string_buffer(b"GPL")
log = ctypes.create_string_buffer(4096)
attr = ctypes.create_string_buffer(struct.pack("<IIQQIIQ", 15, len(prog) // 8, ctypes.addressof(insns),
                                               ctypes.addressof(lic), 1, len(log), ctypes.addressof(log)), 128)
fd = libc.syscall(NR_BPF, 5, attr, 128)            # BPF_PROG_LOAD, BPF_PROG_TYPE_CGROUP_DEVICE
if fd < 0:
    sys.exit("bpf(PROG_LOAD): %s %s" % (os.strerror(ctypes.get_errno()), log.value[:200]))
try:
    os.mkdir(child)
except OSError as e:
    sys.exit("cannot make %s: %s" % (child, e.strerror))
cfd = os.open(child, os.O_RDONLY | os.O_DIRECTORY)
attr = ctypes.create_string_buffer(struct.pack("<IIII", cfd, fd, 6, 2), 128)   # BPF_CGROUP_DEVICE, BPF_F_ALLOW_MULTI
if libc.syscall(NR_BPF, 8, attr, 128) < 0:            # BPF_PROG_ATTACH
    err = os.strerror(ctypes.get_errno())
    os.rmdir(child)
    sys.exit("bpf(PROG_ATTACH): " + err)
print(child)
EOF
mm=$(stat -c '%t %T' /dev/nvidia-uvm 2>/dev/null)
uvm_mm="$((0x${mm% *})) $((0x${mm#* }))"
cg2=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") { print $5; exit } break } }' /proc/self/mountinfo)
devcg="" why_cg=""
if [ $is_root = 0 ]; then
    why_cg="not root: cannot make a cgroup"
elif [ -n "$cg2" ] && grep -q '^0::' /proc/self/cgroup; then
    # shellcheck disable=SC2086 # major and minor are two arguments
    devcg=$(python3 "$tmp/cgdeny.py" "$cg2" $uvm_mm 2>"$tmp/cg.err") || { devcg=""; why_cg="cgroup v2: $(tail -n 1 "$tmp/cg.err")"; }
elif [ -d /sys/fs/cgroup/devices ]; then
    self=$(sed -n 's/^[0-9]*:devices:\(.*\)$/\1/p' /proc/self/cgroup | head -n 1)
    devcg=/sys/fs/cgroup/devices${self%/}/cuprobe-faults.$$
    if ! mkdir "$devcg" 2>"$tmp/cg.err"; then devcg=""; why_cg="cgroup v1: $(head -n 1 "$tmp/cg.err")"
    elif ! echo "c ${uvm_mm% *}:${uvm_mm#* } rwm" >"$devcg/devices.deny" 2>"$tmp/cg.err"; then
        rmdir "$devcg"; devcg=""; why_cg="cgroup v1: $(head -n 1 "$tmp/cg.err")"
    fi
else
    why_cg="no cgroup v2 mount and no cgroup v1 devices controller"
fi
if [ -z "$devcg" ]; then SKIP cgroup-eperm-uvm "cannot make a device cgroup: $why_cg"
else
    run cgroup-eperm-uvm 0 0 "echo \$\$ >$devcg/cgroup.procs"
    expect cgroup-eperm-uvm system system.devnode_access "device cgroup refuses /dev/nvidia-uvm.*(--gpus|DeviceAllow)"
    # the probe children may take a moment to leave it
    for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$devcg" 2>/dev/null && break; sleep 0.2; done
    [ -d "$devcg" ] && echo "faults: could not remove $devcg (remove it by hand)" >&2
fi

# ---- NVML and libcuda unloadable: an empty file over the real library ------

# real_lib SONAME: the file ld.so.cache hands out for SONAME (links followed).
real_lib() {
    p=$(ldconfig -p 2>/dev/null | awk -v s="$1" '$1 == s && /x86-64|x86_64|AArch64|aarch64/ { print $NF; exit }')
    [ -z "$p" ] && p=$(ldconfig -p 2>/dev/null | awk -v s="$1" '$1 == s { print $NF; exit }')
    [ -n "$p" ] && readlink -f "$p"
}
: >"$tmp/empty.so"
# (a broken NVML is a warning: CUDA itself works without it)
for lib in libnvidia-ml.so.1:nvml:driver.nvml:1 libcuda.so.1:libcuda:driver.libcuda:2; do
    so=${lib%%:*} rest=${lib#*:}; short=${rest%%:*} rest=${rest#*:}; check=${rest%%:*} code=${rest#*:}
    n=unloadable-$short
    real=$(real_lib "$so")
    if [ $can_bind = 0 ]; then SKIP "$n" "$why_bind"
    elif [ -z "$real" ]; then SKIP "$n" "ldconfig -p lists no $so"
    else
        run "$n" 1 0 "mount --bind $tmp/empty.so $real"
        expect "$n" driver "$check" "is there but cannot be loaded: .*file too short" "$code"
    fi
done

# ---- the stub libcuda, and an older cuda-compat libcuda, on the loader path --

stub=""
for s in /usr/local/cuda/lib64/stubs/libcuda.so /usr/local/cuda/targets/*/lib/stubs/libcuda.so; do
    [ -f "$s" ] && { stub=$s; break; }
done
if [ -z "$stub" ]; then SKIP stub-libcuda "no /usr/local/cuda/lib64/stubs/libcuda.so"
else
    mkdir -p "$tmp/stub" && ln -sf "$stub" "$tmp/stub/libcuda.so.1"
    run stub-libcuda 0 0 ":" "LD_LIBRARY_PATH=$tmp/stub"
    expect stub-libcuda driver - "stub"
fi

# "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ..."
driver=$(head -n 1 /proc/driver/nvidia/version | grep -o '[0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*' | head -n 1)
older="" found=""
for c in /usr/local/cuda*/compat/libcuda.so.*.*; do
    [ -f "$c" ] || continue
    v=${c##*/libcuda.so.}
    found="$found ${c%/libcuda.so.*} ($v)"
    first=$(printf '%s\n%s\n' "$v" "$driver" | sort -V | head -n 1)
    [ "$v" != "$driver" ] && [ "$first" = "$v" ] && older=${c%/*}
done
if [ -z "$driver" ]; then SKIP compat-older "cannot read the driver version in /proc/driver/nvidia/version"
elif [ -z "$older" ]; then SKIP compat-older "no cuda-compat libcuda older than the driver $driver (found:${found:- none})"
else
    run compat-older 0 0 ":" "LD_LIBRARY_PATH=$older"
    expect compat-older driver - "compat"
fi

# ---- visibility variables -------------------------------------------------------

run visible-minus-one 0 0 ":" "CUDA_VISIBLE_DEVICES=-1"
expect visible-minus-one system system.visibility "CUDA_VISIBLE_DEVICES"
run visible-empty 0 0 ":" "CUDA_VISIBLE_DEVICES="
expect visible-empty system system.visibility "CUDA_VISIBLE_DEVICES"
run visible-bad-uuid 0 0 ":" "CUDA_VISIBLE_DEVICES=GPU-00000000-0000-0000-0000-000000000000"
expect visible-bad-uuid system system.visibility "names no GPU.*CUDA_VISIBLE_DEVICES"
# read by the container runtime when a container starts: inside one that runs
# it changes nothing, and doctor must not call it a fault
run nvidia-visible-void 0 0 ":" "NVIDIA_VISIBLE_DEVICES=void"
expect nvidia-visible-void healthy

# ---- the untouched machine ------------------------------------------------------

run baseline 0 0 ":"
expect baseline healthy

# ---- nothing left behind: no cuprobe process, zombies included (a container's
#      init may never reap one), a second after the last case ------------------
sleep 1
left=$(ps -eo pid=,stat=,comm= 2>/dev/null | awk '$3 == "cuprobe" { print $1 "(" $2 ")" }' | tr '\n' ' ')
if ! command -v ps >/dev/null 2>&1; then SKIP no-process-left "ps is not installed"
elif [ -z "$left" ]; then PASS no-process-left "no cuprobe process (zombies included) after the cases"
else FAIL no-process-left "left: $left"; fi

finish
