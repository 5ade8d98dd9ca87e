#!/bin/sh
# deploy/ as far as this machine allows: the systemd unit passes
# `systemd-analyze verify` (with ExecStart pointed at the built tool), the
# DaemonSet manifest is valid YAML of the expected shape (PyYAML when
# python3 has it, else a check of its lines), and the exporter accepts the
# arguments both give it.  Usage: tests/deploy.sh TOOL BUILD
# Appends "cli deploy P F S" to BUILD/results.txt.
tool=$1
case $tool in */*) ;; *) tool=./$tool ;; esac   # "cuprobe" from make: the one here
build=$2
out=$build/results.txt
root=$(pwd)
pass=0 fail=0 skip=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-deploy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); printf 'ok     deploy %s\n' "$1"; }
bad() { fail=$((fail + 1)); printf 'FAIL   deploy %s\n' "$1"; [ -n "$2" ] && sed 's/^/    /' "$2" | tail -n 20; }
unit=deploy/cuprobe-exporter.service
manifest=deploy/cuprobe-exporter-daemonset.yaml
case $tool in /*) abs=$tool ;; *) abs=$root/$tool ;; esac

if command -v systemd-analyze >/dev/null 2>&1; then
    sed "s#/usr/local/bin/cuprobe#$abs#" "$unit" >"$tmp/cuprobe-exporter.service"
    if systemd-analyze verify "$tmp/cuprobe-exporter.service" >"$tmp/verify" 2>&1; then ok "systemd-analyze verify"
    else bad "systemd-analyze verify" "$tmp/verify"; fi
else
    skip=$((skip + 1)); echo "skip   deploy systemd-analyze verify (not installed)"
fi

if python3 -c 'import yaml' 2>/dev/null; then
    if python3 - "$manifest" >"$tmp/yaml" 2>&1 <<'PY'
import sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
kinds = [d["kind"] for d in docs]
assert kinds == ["Namespace", "DaemonSet"], kinds
ds = docs[1]
assert ds["apiVersion"] == "apps/v1"
ns = docs[0]["metadata"]["name"]
assert ds["metadata"]["namespace"] == ns
spec = ds["spec"]
labels = spec["template"]["metadata"]["labels"]
for k, v in spec["selector"]["matchLabels"].items():
    assert labels.get(k) == v, "selector does not match the pod's labels"
c = spec["template"]["spec"]["containers"][0]
args = c["args"]
assert args[0] == "exporter", args
port = int(args[args.index("--listen") + 1].rsplit(":", 1)[1])
names = {p["name"]: p["containerPort"] for p in c["ports"]}
assert port in names.values(), (port, names)
for probe in ("readinessProbe", "livenessProbe"):
    assert c[probe]["httpGet"]["port"] in names, probe
ann = spec["template"]["metadata"]["annotations"]
assert int(ann["prometheus.io/port"]) == port
print(" ".join(args[1:]))
PY
    then ok "the DaemonSet is YAML of the expected shape"
    else bad "the DaemonSet is YAML of the expected shape" "$tmp/yaml"; fi
else
    # no PyYAML: the lines at least (no tabs, both kinds, the args line)
    if ! grep -q "$(printf '\t')" "$manifest" && grep -q '^kind: DaemonSet$' "$manifest" &&
       grep -q '^kind: Namespace$' "$manifest" && grep -q 'args: \["exporter"' "$manifest"; then
        ok "the DaemonSet's lines (no PyYAML for a full parse)"
    else bad "the DaemonSet's lines"; fi
fi

# the exporter takes the arguments each gives it (on a port of its own here)
exec_args=$(sed -n 's#^ExecStart=/usr/local/bin/cuprobe exporter ##p' "$unit" | sed 's#--listen [^ ]*##')
ds_args=$(sed -n 's#.*args: \["exporter", \(.*\)\]#\1#p' "$manifest" | tr -d '",' | sed 's#--listen [^ ]*##')
for which in unit daemonset; do
    if [ $which = unit ]; then a=$exec_args; else a=$ds_args; fi
    # shellcheck disable=SC2086 # the words of the file's command line
    CUPROBE_LIBNVML=/nonexistent "$tool" exporter $a --listen 127.0.0.1:0 2>"$tmp/$which.log" &
    pid=$!
    n=0
    while [ $n -lt 50 ] && ! grep -q serving "$tmp/$which.log"; do sleep 0.1; n=$((n + 1)); done
    kill -TERM $pid 2>/dev/null
    wait $pid
    st=$?
    if [ $st = 0 ] && grep -q "serving" "$tmp/$which.log"; then ok "the exporter takes the $which's arguments"
    else bad "the exporter takes the $which's arguments (exit $st)" "$tmp/$which.log"; fi
done
echo "cli deploy $pass $fail $skip" >>"$out"
exit 0
