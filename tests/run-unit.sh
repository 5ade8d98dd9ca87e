#!/bin/sh
# Run every unit-test program of a build folder; append "unit NAME P F S" lines
# to BUILD/results.txt.  Usage: tests/run-unit.sh BUILD
# A test that leaves a process behind (see tests/leftovers.sh) fails.
build=$1
# shellcheck source=tests/leftovers.sh
. "$(dirname "$0")/leftovers.sh"
out=$build/results.txt
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    name=${t##*/}
    log=$build/tests/$name.log
    mark=$$.$name
    if CUPROBE_TEST_MARK=$mark "$t" >"$log" 2>&1; then st=ok; else st=FAIL; fi
    left=$(leftovers_wait "$mark")
    if [ -n "$left" ]; then echo "processes left behind: $left" >>"$log"; st=FAIL; fi
    line=$(tail -n 1 "$log")
    p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
    f=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
    if [ -z "$p" ]; then p=0; f=1; st=FAIL; fi        # crashed before its summary
    [ "$st" = FAIL ] && [ "$f" = 0 ] && f=1            # non-zero exit counts as a failure
    printf '%-6s %-28s %s passed, %s failed\n' "$st" "$name" "$p" "$f"
    [ "$st" = FAIL ] && sed 's/^/    /' "$log" | tail -n 30
    echo "unit $name $p $f 0" >>"$out"
done
exit 0
