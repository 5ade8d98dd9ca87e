#!/bin/sh
# The servers and tools `make test` drives beyond a C compiler: Debian's
# prometheus (the server and promtool: tests/exporter.sh scrapes the
# exporter with a real Prometheus on loopback), python3-grpcio (gRPC's own
# server stands in for the kubelet's pod-resources socket there), tmux
# (tests/top.sh drives `cuprobe top` in it) and chromium-headless-shell
# (tests/html.sh loads `cuprobe trace`'s HTML reports in it; Debian's
# chromium does too).  Run by `make test` first: as root with apt-get (a
# fresh machine, CI) whatever is missing is installed; otherwise it only
# says what is missing, and those parts of the tests report skip.
missing=
command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1 || missing="$missing prometheus"
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1 ||
    missing="$missing chromium-headless-shell"
/usr/bin/python3 -c 'import grpc' >/dev/null 2>&1 || missing="$missing python3-grpcio"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: installing$missing (Debian packages)"
    # shellcheck disable=SC2086
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing; } \
        >/dev/null 2>&1 || { echo "test-deps: could not install$missing"; exit 1; }
    # the package enables a server on :9090 where systemd runs; the tests start their own on loopback
    if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
        systemctl disable --now prometheus >/dev/null 2>&1 || :
    fi
else
    echo "test-deps: missing$missing (not root, or no apt-get): those tests will skip"
fi
