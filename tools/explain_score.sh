#!/bin/sh
# Score `cuprobe explain` on collected texts: each file holds "# expect: LAYER"
# (or "none" for a text with no CUDA problem), "# family: NAME" and
# "# source: URL" lines, then the text (tests/explain-corpus/README.md).
# A text is right when a signal explain finds names the expected layer (for
# "none": when it finds no signal at all); "wrong" when it finds signals but
# none on that layer; "missed" when it finds none.  The totals also say how
# many were right on the first signal alone (before any alternative
# reading or second signal).
# Usage: tools/explain_score.sh CUPROBE FILE...     prints a line per file, then
#        totals by family and overall
tool=$1; shift
tmp=$(mktemp "${TMPDIR:-/tmp}/cuprobe-score.XXXXXX")
trap 'rm -f "$tmp" "$tmp.res"' EXIT
: >"$tmp.res"
for f in "$@"; do
    want=$(sed -n 's/^# expect: *\([a-z]*\).*/\1/p' "$f" | head -1)
    fam=$(sed -n 's/^# family: *\([a-z0-9-]*\).*/\1/p' "$f" | head -1)
    sed '/^# \(expect\|family\|source\|why\|captured\):/d' "$f" >"$tmp"
    got=$("$tool" explain --json --file "$tmp" 2>/dev/null | grep -o '"layer": "[a-z]*"' | sed 's/.*: "\(.*\)"/\1/' |
          tr '\n' ' ' | sed 's/ $//')
    if [ "$want" = none ]; then
        if [ -z "$got" ]; then r=right; else r=wrong; fi
    elif [ -z "$got" ]; then r=missed
    elif printf ' %s ' "$got" | grep -q " $want "; then r=right
    else r=wrong; fi
    first=${got%% *}
    if [ "$r" = right ] && { [ "$want" = none ] || [ "$first" = "$want" ]; }; then r1=first; else r1=-; fi
    printf '%-6s %-12s %-11s %-30s %s\n' "$r" "${fam:-?}" "$want" "${got:--}" "$(basename "$f")"
    echo "${fam:-?} $want $r $r1" >>"$tmp.res"
done
awk '{ n[$1]++; if ($3 == "right") ok[$1]++; all++; if ($3 == "right") allok++
       if ($2 != "none") { pos++; if ($3 == "right") posok++; if ($4 == "first") posfirst++ }
       else { neg++; if ($3 == "right") negok++ } }
     END { for (f in n) printf "family %-12s %3d/%3d right (%.0f %%)\n", f, ok[f], n[f], 100 * ok[f] / n[f]
           if (pos) printf "texts with a problem: %d/%d on the right layer (%.1f %%)\n", posok, pos, 100 * posok / pos
           if (pos) printf "  of them on the first signal: %d/%d (%.1f %%)\n", posfirst, pos, 100 * posfirst / pos
           if (neg) printf "texts without one: %d/%d without a signal (%d false signals)\n", negok, neg, neg - negok }' "$tmp.res"
