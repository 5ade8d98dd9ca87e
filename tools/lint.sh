#!/bin/sh
# make lint: the house formatting rules and the banned-function list.
#
#   formatting  C sources (src/, include/, tests/, bench/): no tabs, at most
#               160 columns (the knowledge-base rows in src/lib/kb/, prose
#               data, at most 320); those and the shell scripts and the
#               Makefile: no trailing white space, a final newline
#   banned      calls in src/ of functions that overflow, do not terminate,
#               or fail silently (see BANNED below, with what to use instead)
#
# Prints one "FILE:LINE: what" line per problem and exits 1 when there is
# one.
# Usage: tools/lint.sh   (from the repository root)
cd "$(dirname "$0")/.." || exit 2

# function|what to use instead
BANNED='strcpy|cp_str_copy (util/str.h) or snprintf
strncpy|cp_str_copy_n (util/str.h): strncpy may leave no NUL
strcat|cp_buf (util/buf.h), or snprintf at the end
strncat|cp_buf (util/buf.h), or snprintf at the end
sprintf|snprintf
vsprintf|vsnprintf
gets|fgets
strtok|strcspn / cp_list_next (util/str.h): strtok keeps hidden state
atoi|strtol with an end check: atoi cannot fail
atol|strtol with an end check: atol cannot fail
atoll|strtoll with an end check: atoll cannot fail
atof|strtod with an end check: atof cannot fail
tmpnam|mkstemp
tempnam|mkstemp
mktemp|mkstemp'

c_files=$(find src include tests bench -name '*.[ch]' -type f | LC_ALL=C sort)
text_files=$(find tests tools bench .ci -name '*.sh' -type f | LC_ALL=C sort; echo .ci/run; echo Makefile)

problems=$(
    # shellcheck disable=SC2086 # file lists are split on purpose
    awk '
        FNR == 1 { width = FILENAME ~ /^src\/lib\/kb\// ? 320 : 160 }
        /\t/ { printf "%s:%d: tab (indent with spaces)\n", FILENAME, FNR }
        length($0) > width { printf "%s:%d: %d columns (at most %d)\n", FILENAME, FNR, length($0), width }
    ' $c_files
    # shellcheck disable=SC2086
    awk '/[ \t]$/ { printf "%s:%d: trailing white space\n", FILENAME, FNR }' $c_files $text_files
    for f in $c_files $text_files; do
        [ -s "$f" ] && [ -n "$(tail -c 1 "$f")" ] && echo "$f: no newline at the end"
    done
    echo "$BANNED" | while IFS='|' read -r fn use; do
        # comments and string literals do not count: strip them, then look for a call
        # shellcheck disable=SC2046
        grep -nE "(^|[^A-Za-z0-9_.>])$fn[[:space:]]*\(" $(find src -name '*.[ch]' -type f | LC_ALL=C sort) /dev/null |
        sed 's#"\([^"\\]\|\\.\)*"#""#g; s#/\*.*\*/##g; s#//.*##' |
        grep -E "^[^:]+:[0-9]+:.*(^|[^A-Za-z0-9_.>])$fn[[:space:]]*\(" |
        grep -vE '^[^:]+:[0-9]+:[[:space:]]*\*' |
        while IFS=: read -r file line _; do
            echo "$file:$line: banned function '$fn' (use $use)"
        done
    done
    # every shell script parses as POSIX sh (dash: a function named 'times'
    # is a syntax error there, found only on the GPU machine once)
    for f in $(find bench tests tools .ci -name '*.sh' -type f 2>/dev/null | LC_ALL=C sort); do
        sh -n "$f" 2>&1 | sed "s#^#$f: #"
    done
)

if [ -n "$problems" ]; then
    echo "$problems"
    echo "lint: $(echo "$problems" | wc -l) problem(s)"
    exit 1
fi
echo "lint: ok ($(echo "$c_files" | wc -l) C files)"
