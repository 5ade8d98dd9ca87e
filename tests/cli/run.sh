#!/bin/sh
# CLI cases as data: every tests/cli/cases/*.case runs the tool once and
# checks its exit code and output.  Usage: tests/cli/run.sh TOOL BUILD
#
# Case file lines ("key: value"; '#' starts a comment):
#   args:       the command line; @SNAP@ is the case's private fixture copy,
#               @ROOT@ the repository (both also in write, link and stdin)
#   fixture:    tests/fixtures/NAME to copy to @SNAP@ before the run
#   write:      PATH = TEXT     write TEXT (printf %b escapes) to @SNAP@/PATH
#   remove:     PATH            delete @SNAP@/PATH (file or folder)
#   link:       PATH = TARGET   make @SNAP@/PATH a symlink to TARGET
#   answer:     KEY VALUE       add to @SNAP@/answers.txt, last in KEY's block (later lines
#                               win; printf %b escapes)
#   scenario:   NAME            load the fake libcuda/libnvidia-ml/libcublasLt with
#                               tests/fakes/scenarios/NAME.txt
#   env:        NAME=VALUE      set in the tool's (otherwise empty) environment (@SNAP@, @ROOT@,
#                               @BUILD@ replaced)
#   stdin:      FILE            feed FILE (a repository path, or @SNAP@/...) to the tool; else /dev/null
#   exit:       N               expected exit code
#   stdout:     TEXT            stdout must contain TEXT (any number of lines)
#   not-stdout: TEXT            stdout must not contain TEXT
#   not-stdout-bytes: TEXT      the same, TEXT with printf %b escapes (\033: no raw ESC byte)
#   stderr:     TEXT            stderr must contain TEXT
#   stdout-is:  FILE            stdout must equal FILE (repository path)
#   stdout-to:  FILE            send stdout to FILE (e.g. /dev/full) instead of the
#                               checked output file (stdout/stdout-is then see nothing)
#   max-ms:     N               the run must take at most N milliseconds
#   needs:      PATH            run the case only where PATH exists (any number of lines; @BUILD@: the build folder;
#                               e.g. what builds only where an SDK header is found); else skip it
#
# After every case the runner looks for processes left behind: the tool runs
# with CUPROBE_TEST_MARK=<runner pid>.<case> in its environment, which every
# process it starts inherits (probe children, what a fake driver forks), so a
# process still carrying the mark once the tool has exited (2 s allowed for
# a killed one to go) fails the case and is killed by its pid.
tool=$1
build=$2
out=$build/results.txt
root=$(pwd)
pass=0 fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/^$1: //p" "$2"; }
# shellcheck source=tests/leftovers.sh
. "$(dirname "$0")/../leftovers.sh"

for case in tests/cli/cases/${CLI_CASES:-*}.case; do
    name=${case##*/}; name=${name%.case}
    snap=$tmp/$name
    fixture=$(field fixture "$case")
    [ -n "$fixture" ] && cp -R "tests/fixtures/$fixture" "$snap"
    mkdir -p "$snap"
    sub() { sed "s#@SNAP@#$snap#g; s#@ROOT@#$root#g; s#@BUILD@#$root/$build#g"; }
    need=$(field needs "$case" | sub | while IFS= read -r n; do [ -e "$n" ] || { echo "$n"; break; }; done)
    if [ -n "$need" ]; then printf 'skip   cli %s: no %s\n' "$name" "$need"; continue; fi
    field remove "$case" | while IFS= read -r p; do rm -rf "${snap:?}/$p"; done
    field write "$case" | sub | while IFS= read -r w; do
        p=${w%% = *}; t=${w#* = }; mkdir -p "$(dirname "$snap/$p")"; rm -rf "${snap:?}/$p"; printf '%b' "$t" >"$snap/$p"; done
    field link "$case" | sub | while IFS= read -r w; do
        p=${w%% = *}; t=${w#* = }; mkdir -p "$(dirname "$snap/$p")"; rm -rf "${snap:?}/$p"; ln -s "$t" "$snap/$p"; done
    # each answer goes last in its block, just before the block's end marker
    # (a line after it would be damage); one of a block the file lacks goes last
    field answer "$case" | while IFS= read -r a; do printf '%b\n' "$a"; done >>"$snap/answers.txt.add"
    if [ -s "$snap/answers.txt.add" ] && [ -f "$snap/answers.txt" ]; then
        awk -v add="$snap/answers.txt.add" '
            BEGIN { while ((getline l < add) > 0) { p = l; sub(/\..*/, "", p); more[p] = more[p] l "\n" } }
            $1 ~ /\.end$/ { p = substr($1, 1, length($1) - 4); if (p in more) { printf "%s", more[p]; delete more[p] } }
            { print }
            END { for (p in more) printf "%s", more[p] }' "$snap/answers.txt" >"$snap/answers.txt.new" &&
            mv "$snap/answers.txt.new" "$snap/answers.txt"
    fi
    rm -f "$snap/answers.txt.add"
    set -- PATH=/usr/bin:/bin HOME="$tmp"
    scen=$(field scenario "$case")
    if [ -n "$scen" ]; then
        set -- "$@" CUPROBE_FAKE_SCENARIO="$root/tests/fakes/scenarios/$scen.txt" \
            CUPROBE_LIBCUDA="$root/$build/fakes/libcuda.so.1" CUPROBE_LIBNVML="$root/$build/fakes/libnvidia-ml.so.1" \
            CUPROBE_LIBCUBLASLT="$root/$build/fakes/libcublasLt.so.13"
        # level 2's libraries: the fakes too (a case's env: line may point one elsewhere)
        for l in libcublas.so.13:CUBLAS libcufft.so.12:CUFFT libcudnn.so.9:CUDNN libnvrtc.so.13:NVRTC libnccl.so.2:NCCL; do
            set -- "$@" "CUPROBE_LIB${l#*:}=$root/$build/fakes/${l%%:*}"
        done
    fi
    while IFS= read -r e; do [ -n "$e" ] && set -- "$@" "$e"; done <<EOT
$(field env "$case" | sub)
EOT
    args=$(field args "$case" | sub)
    input=$(field stdin "$case" | sub)
    case $input in ''|/*) ;; *) input=$root/$input ;; esac
    sink=$(field stdout-to "$case")
    : >"$tmp/$name.out"
    t0=$(date +%s%N)
    # shellcheck disable=SC2086 # args are split on purpose
    mark=$$.$name
    env -i "$@" ASAN_OPTIONS=detect_leaks=1 CUPROBE_TEST_MARK="$mark" "$root/$tool" $args <"${input:-/dev/null}" >"${sink:-$tmp/$name.out}" 2>"$tmp/$name.err"
    code=$?
    left=$(leftovers_wait "$mark")
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    ok=1 why=""
    want=$(field exit "$case")
    [ "$code" = "$want" ] || { ok=0; why="exit $code, expected $want"; }
    while IFS= read -r s; do
        [ -z "$s" ] && continue
        grep -qF -- "$s" "$tmp/$name.out" || { ok=0; why="$why; stdout lacks: $s"; }
    done <<EOT
$(field stdout "$case")
EOT
    while IFS= read -r s; do
        [ -z "$s" ] && continue
        grep -qF -- "$s" "$tmp/$name.out" && { ok=0; why="$why; stdout has: $s"; }
    done <<EOT
$(field not-stdout "$case")
EOT
    while IFS= read -r s; do
        [ -z "$s" ] && continue
        b=$(printf '%b' "$s")
        grep -qF -- "$b" "$tmp/$name.out" && { ok=0; why="$why; stdout has the bytes: $s"; }
    done <<EOT
$(field not-stdout-bytes "$case")
EOT
    while IFS= read -r s; do
        [ -z "$s" ] && continue
        grep -qF -- "$s" "$tmp/$name.err" || { ok=0; why="$why; stderr lacks: $s"; }
    done <<EOT
$(field stderr "$case")
EOT
    same=$(field stdout-is "$case")
    [ -n "$same" ] && ! cmp -s "$same" "$tmp/$name.out" && { ok=0; why="$why; stdout differs from $same"; }
    # every root cause a JSON report names carries a fix a person can act on
    if grep -q '"root_cause": {' "$tmp/$name.out" && ! grep '"root_cause": {' "$tmp/$name.out" | grep -q '"fix": "[^"]'; then
        ok=0; why="$why; root cause without a fix"
    fi
    maxms=$(field max-ms "$case")
    [ -n "$maxms" ] && [ "$ms" -gt "$maxms" ] && { ok=0; why="$why; took $ms ms > $maxms"; }
    grep -q "ERROR: AddressSanitizer\|runtime error:" "$tmp/$name.err" && { ok=0; why="$why; sanitizer report"; }
    [ -n "$left" ] && { ok=0; why="$why; processes left behind: $left"; }
    # an unknown number (CP_UNKNOWN) is never printed as one
    grep -q -- "-9223372036854775808" "$tmp/$name.out" "$tmp/$name.err" 2>/dev/null && { ok=0; why="$why; an unknown value printed as a number"; }
    if [ $ok = 1 ]; then pass=$((pass + 1)); printf 'ok     cli %s\n' "$name"
    else
        fail=$((fail + 1)); printf 'FAIL   cli %s: %s\n' "$name" "$why"
        sed 's/^/    out| /' "$tmp/$name.out" | head -n 40; sed 's/^/    err| /' "$tmp/$name.err" | head -n 20
    fi
done
echo "cli cases $pass 0 0" | awk -v p=$pass -v f=$fail '{print "cli", "cases", p, f, 0}' >>"$out"
printf '%d passed, %d failed\n' "$pass" "$fail"
exit 0
