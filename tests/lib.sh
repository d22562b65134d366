# lib.sh - the counting every shell test shares. Source it after cd-ing to
# the repository, call tests_begin NAME, then ok/no/check, and end with
# tests_end, which prints "NAME: P passed, F failed" (run_all.sh reads it)
# and returns non-zero when anything failed.
tests_begin() { T_NAME=$1; pass=0; fail=0; }
ok() { pass=$((pass + 1)); echo "ok   $T_NAME $1"; }
no() { fail=$((fail + 1)); echo "FAIL $T_NAME $1"; }
check() { if eval "$2"; then ok "$1"; else no "$1"; fi; } # name, shell condition
tests_end() { echo "$T_NAME: $pass passed, $fail failed"; [ "$fail" = 0 ]; }
