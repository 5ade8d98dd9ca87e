#!/bin/sh
# Add up results files ("KIND NAME PASSED FAILED SKIPPED" lines) and print the
# one closing line CI reads.  Exit 1 when anything failed or nothing ran.
cat "$@" 2>/dev/null | awk '
  { p += $3; f += $4; s += $5; n++ }
  END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0 || n == 0) }'
