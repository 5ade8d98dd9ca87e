#!/bin/sh
# cuprobe trace's HTML report in a real browser: the report of every committed
# trace fixture (tests/fixtures/trace-*) is rendered with --analyze --html and
# loaded in headless Chromium (Debian's chromium-headless-shell, else chromium)
# with the network shut (a proxy that is not there, no name resolves: the page
# must be self-contained).  Each page must log no console message (an error, an
# uncaught exception, a resource it failed to fetch), its script must have run
# to the end (it marks <body data-timeline="drawn N"> with N the timeline's
# bars, N > 0), and the screenshot (BUILD/html/FIXTURE.png, 1200x900) must be a
# PNG of that size that is not blank.  Two pages that break those rules (a
# script error, a fetch) must be caught, or the check itself is broken.
# The pages load in parallel (a few seconds).  Usage: tests/html.sh TOOL BUILD [SANFLAGS];
# with SANFLAGS (the sanitized pass of make test) the pages are only rendered, by the
# sanitized tool, and not loaded again.  Skipped without Chromium, unless
# CUPROBE_REQUIRE_CHROMIUM=1.  Appends "cli html P F S" to BUILD/results.txt.
tool=$1
case $tool in */*) ;; *) tool=./$tool ;; esac
build=$2
san=$3
out=$build/results.txt
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); printf 'ok     html %s\n' "$1"; }
bad() { fail=$((fail + 1)); printf 'FAIL   html %s: %s\n' "$1" "$2"; [ -n "$3" ] && sed 's/^/    /' "$3" | tail -n 20; }
chrome=
[ -n "$san" ] && chrome=none
for c in /usr/lib/chromium/chromium-headless-shell chromium-headless-shell /usr/lib/chromium/chromium chromium; do
    [ -z "$chrome" ] && command -v "$c" >/dev/null 2>&1 && chrome=$(command -v "$c")
done
if [ -z "$chrome" ]; then
    if [ "${CUPROBE_REQUIRE_CHROMIUM:-0}" = 1 ]; then bad chromium "no chromium-headless-shell or chromium"
    else skip=1; echo "skip   html (no chromium-headless-shell or chromium: tools/test-deps.sh installs it as root)"; fi
    echo "cli html $pass $fail $skip" >>"$out"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-html.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
shots=$build/html
mkdir -p "$shots"

# load NAME PAGE: PAGE in Chromium; leaves $tmp/NAME.dom (the DOM after the script),
# $tmp/NAME.log (its log, console messages included) and $shots/NAME.png
load() {
    rm -f "$shots/$1.png"
    DBUS_SYSTEM_BUS_ADDRESS=disabled: DBUS_SESSION_BUS_ADDRESS=disabled: "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
        --user-data-dir="$tmp/profile-$1" --proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' \
        --enable-logging=stderr --v=0 --log-level=0 --hide-scrollbars --window-size=1200,900 \
        --screenshot="$shots/$1.png" --dump-dom "file://$2" >"$tmp/$1.dom" 2>"$tmp/$1.log"
}
# the PNG's width and height from its IHDR, "W H"
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'; }
# check NAME: the rules above; returns 1 with the reason in $tmp/NAME.why
check() {
    if grep -q 'CONSOLE' "$tmp/$1.log"; then grep 'CONSOLE' "$tmp/$1.log" >"$tmp/$1.why"; return 1; fi
    n=$(sed -n 's/.*data-timeline="drawn \([0-9]*\)".*/\1/p' "$tmp/$1.dom" | head -1)
    if [ -z "$n" ] || [ "$n" -lt 1 ]; then echo "the page's script did not mark the timeline drawn (data-timeline: '$n')" >"$tmp/$1.why"; return 1; fi
    if [ "$(head -c 8 "$shots/$1.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
        echo "no PNG screenshot" >"$tmp/$1.why"; return 1; fi
    if [ "$(png_size "$shots/$1.png")" != "1200 900" ]; then echo "the screenshot is $(png_size "$shots/$1.png"), not 1200 900" >"$tmp/$1.why"; return 1; fi
    # a blank 1200x900 page compresses to about 4 KB; the report with its timeline to 40 KB or more
    if [ "$(wc -c <"$shots/$1.png")" -lt 20000 ]; then echo "the screenshot looks blank ($(wc -c <"$shots/$1.png") bytes)" >"$tmp/$1.why"; return 1; fi
    return 0
}

names=
for f in tests/fixtures/trace-*/; do
    name=$(basename "$f")
    if ! "$tool" trace --analyze "$f" --html "$tmp/$name.html" >/dev/null 2>"$tmp/$name.err"; then
        bad "$name" "cuprobe trace --analyze --html failed" "$tmp/$name.err"; continue
    fi
    if grep -Eq '(src|href)=|url\(|@import' "$tmp/$name.html"; then bad "$name" "the page names an outside resource"; continue; fi
    names="$names $name"
    [ "$chrome" = none ] && ok "$name rendered"
done
if [ "$chrome" = none ]; then echo "cli html $pass $fail $skip" >>"$out"; exit 0; fi
# the checker's own checks: a script error, and a fetch the shut network refuses
printf '<!DOCTYPE html><html><body><svg class="tl"><rect/></svg><script>nosuch();document.body.setAttribute("data-timeline","drawn 1")</script></body></html>\n' >"$tmp/bad-script.html"
printf '<!DOCTYPE html><html><body><svg class="tl"><rect/></svg><img src="http://cuprobe.invalid/x.png"><script>document.body.setAttribute("data-timeline","drawn 1")</script></body></html>\n' >"$tmp/bad-fetch.html"
for name in $names bad-script bad-fetch; do load "$name" "$tmp/$name.html" & done
wait
for name in $names; do
    if check "$name"; then ok "$name"; else bad "$name" "$(head -3 "$tmp/$name.why")"; fi
done
for name in bad-script bad-fetch; do
    if check "$name"; then bad "$name" "the check passed a page that breaks its rules"; else ok "$name is caught"; fi
done
echo "cli html $pass $fail $skip" >>"$out"
