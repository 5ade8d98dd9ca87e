# Sourced by the test runners: find the processes a test left behind.
#
# A runner starts each test with CUPROBE_TEST_MARK=MARK in its environment;
# every process the test starts inherits it (fork keeps the environment), so
# one still carrying it after the test has exited was left behind.  Zombies
# have an empty environ and do not count (init reaps them).
#
# leftovers MARK        print "PID:COMMAND" for each live process with the mark
# leftovers_wait MARK   the same after giving killed processes up to 2 s to
#                       go; kills what is left, by pid, so the next test starts clean

leftovers() {
    grep -lszxF -- "CUPROBE_TEST_MARK=$1" /proc/[0-9]*/environ 2>/dev/null |
    while IFS=/ read -r _ _ pid _; do
        cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)
        [ -n "$cmd" ] && printf '%s:%s\n' "$pid" "${cmd% }"
    done
}

leftovers_wait() {
    n=0
    while :; do
        found=$(leftovers "$1")
        [ -z "$found" ] && return 0
        n=$((n + 1))
        [ $n -ge 20 ] && break
        sleep 0.1
    done
    printf '%s\n' "$found" | tr '\n' ' '
    printf '%s\n' "$found" | while IFS=: read -r pid _; do kill -9 "$pid" 2>/dev/null; done
    return 0
}
