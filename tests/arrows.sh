#!/bin/sh
# The library's arrows, read from the objects of a build (what really calls
# what, not what includes what): every call from one folder of src/lib into
# another must run down the floors listed below, and no two files of one
# folder may call each other (a circle, directly or through others).  Also
# checks that no header of the tree includes itself through others.
# Usage: tests/arrows.sh BUILD      (after `make BUILD=...`)
# Appends "unit arrows P F 0" to BUILD/results.txt like the unit tests.
build=${1:-build}
out=$build/results.txt

# Floors, bottom first: a folder may call its own floor and those below.
floors='util 0
facts 1
kernels 1
trace 1
fs 2
dl 2
kb 2
fatbin 3
host 3
rt 3
installed 4
probe 4
observe 5
bench 5
telemetry 5
report 6
checks 7
explain 8'

objs=""
for o in "$build"/src/lib/*/*.o; do     # only objects whose source still exists
    src=${o#"$build"/}; [ -f "${src%.o}.c" ] && objs="$objs $o"
done
[ -n "$objs" ] || { echo "arrows: no objects under $build/src/lib (run make first)" >&2; exit 2; }

# shellcheck disable=SC2086 # one word per object on purpose
nm -A $objs 2>/dev/null | awk -v floors="$floors" -v build="$build/src/lib/" '
function folder(o) { sub(build, "", o); sub("/.*", "", o); return o }
function file(o) { sub(build, "", o); sub("\\.o$", ".c", o); return o }
BEGIN {
    n = split(floors, rows, "\n")
    for (i = 1; i <= n; i++) { split(rows[i], kv, " "); rank[kv[1]] = kv[2] }
}
{
    obj = $1; sub(":.*", "", obj)
    kind = $(NF - 1); sym = $NF
    if (kind == "U") { use[obj, sym] = 1; users[sym] = users[sym] " " obj }
    else if (kind ~ /^[TDRB]$/) def[sym] = obj
}
END {
    bad = 0
    for (sym in users) {
        if (!(sym in def)) continue
        to = def[sym]
        m = split(users[sym], from, " ")
        for (k = 1; k <= m; k++) {
            f = from[k]
            if (f == to) continue
            a = folder(f); b = folder(to)
            if (!(a in rank) || !(b in rank)) { printf "arrows: folder %s or %s has no floor in tests/arrows.sh\n", a, b; bad++; continue }
            if (a != b && rank[b] > rank[a]) {
                printf "arrows: %s calls %s (%s), which lives on a higher floor (%s above %s)\n", file(f), sym, file(to), b, a
                bad++
            }
            if (a == b) edge[file(f), file(to)] = 1
            if (a == b) { nodes[file(f)] = 1; nodes[file(to)] = 1 }
        }
    }
    # circles among the files of one folder: depth-first search over edge[]
    for (x in nodes) for (y in nodes) if ((x, y) in edge) adj[x] = adj[x] " " y
    for (x in nodes) state[x] = 0
    for (x in nodes) if (state[x] == 0) bad += visit(x, "")
    print bad ? "arrows: " bad " problem(s)" : "arrows: every call runs down, no circles"
    exit bad ? 1 : 0
}
function visit(x, path,   n, i, next_, found) {
    state[x] = 1
    found = 0
    n = split(adj[x], next_, " ")
    for (i = 1; i <= n; i++) {
        if (state[next_[i]] == 1) { printf "arrows: circle %s%s -> %s\n", path, x, next_[i]; found++ }
        else if (state[next_[i]] == 0) found += visit(next_[i], path x " -> ")
    }
    state[x] = 2
    return found
}'
rc=$?

# header include circles (any folder), by following quoted includes
hdr_bad=0
for h in $(find include src -name '*.h'); do
    seen=" "; todo=$h
    while [ -n "$todo" ]; do
        set -- $todo; cur=$1; shift; todo="$*"
        for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$cur"); do
            for p in "include/$inc" "src/lib/$inc" "$(dirname "$cur")/$inc"; do
                [ -f "$p" ] || continue
                p=$(realpath --relative-to=. "$p")
                [ "$p" = "$h" ] && { echo "arrows: header circle through $h (from $cur)"; hdr_bad=$((hdr_bad + 1)); }
                case $seen in *" $p "*) ;; *) seen="$seen$p "; todo="$todo $p" ;; esac
                break
            done
        done
    done
done
[ $hdr_bad -eq 0 ] || rc=1

if [ $rc -eq 0 ]; then echo "ok     arrows"; echo "unit arrows 1 0 0" >>"$out"
else echo "FAIL   arrows"; echo "unit arrows 0 1 0" >>"$out"; fi
exit 0
