#!/bin/sh
# make install into a temporary DESTDIR, use what it installed (the tool's
# --version, a program built against the headers and the library, the bash
# completion), make uninstall, and check that nothing it installed is left.
# Usage: tests/install.sh BUILD [SANFLAGS]   (from the repository root; appends to
# BUILD/results.txt; SANFLAGS: the flags the build's library was compiled with)
build=$1
san=$2
out=$build/results.txt
dest=$(mktemp -d "${TMPDIR:-/tmp}/cuprobe-install.XXXXXX")
trap 'rm -rf "$dest"' EXIT
pass=0 fail=0
check() {   # check NAME COMMAND...: one result
    name=$1; shift
    if "$@" >"$dest.log" 2>&1; then pass=$((pass + 1)); printf 'ok     install %s\n' "$name"
    else fail=$((fail + 1)); printf 'FAIL   install %s\n' "$name"; sed 's/^/    | /' "$dest.log" | head -n 20; fi
    rm -f "$dest.log"
}
mk() { make --no-print-directory -s BUILD="$build" PREFIX=/usr/local DESTDIR="$dest" "$@"; }
p=$dest/usr/local
check make-install mk install
check version sh -c "'$p/bin/cuprobe' --version | grep -q '^cuprobe $(cat VERSION)\$'"
check files sh -c "test -f '$p/lib/libcuprobe.a' && test -f '$p/share/man/man1/cuprobe.1' &&
    test -f '$p/share/bash-completion/completions/cuprobe' && test -f '$p/include/cuprobe/cuprobe.h' &&
    test \$(ls '$p/include/cuprobe' | wc -l) = \$(ls include/cuprobe | wc -l)"
printf '#include <stdio.h>\n#include <cuprobe/cuprobe.h>\nint main(void) { puts(cp_version()); return 0; }\n' >"$dest/client.c"
check client sh -c "${CC:-cc} -std=c11 $san -I'$p/include' -o '$dest/client' '$dest/client.c' -L'$p/lib' -lcuprobe -ldl -lpthread -lm &&
    '$dest/client' | grep -q '$(cat VERSION)'"
rm -f "$dest/client" "$dest/client.c"
if command -v bash >/dev/null 2>&1; then
    check completion bash -c ". '$p/share/bash-completion/completions/cuprobe' &&
        COMP_WORDS=(cuprobe explain --fi) COMP_CWORD=2 && _cuprobe && test \"\${COMPREPLY[*]}\" = --file"
fi
check make-uninstall mk uninstall
check nothing-left sh -c "test -z \"\$(find '$dest' -type f)\" && test ! -e '$p/include/cuprobe'"
echo "install install $pass $fail 0" >>"$out"
printf '%d passed, %d failed\n' "$pass" "$fail"
exit 0
