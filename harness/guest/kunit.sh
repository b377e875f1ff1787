#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The results of the KUnit suites named SUITE... that ran at boot, read
# from the kernel log and printed as one flat TAP stream, a line per case.
#
# usage: kunit.sh SUITE...
# KUnit prints a suite as "# Subtest: SUITE", its plan and one "ok N case"
# per case, indented by four spaces; a parameterised case's own results,
# one level deeper, are left out: the case's line sums them up.
out=/tmp/.kunit
: > "$out"
for suite in "$@"; do
	dmesg | sed -e 's/^\[[^]]*\] //' -e 's/\r$//' | awk -v suite="$suite" '
		BEGIN { header = "    # Subtest: " suite }
		$0 == header { on = 1; next }
		on && /^    (not )?ok / {
			sub(/^    /, "")
			sub(/ok [0-9]+ /, "ok 0 " suite ".")
			print
			next
		}
		on && /^(not )?ok / { exit }
	' > "$out.suite"
	[ -s "$out.suite" ] ||
		echo "not ok 0 $suite: no KUnit results in the kernel log" > "$out.suite"
	cat "$out.suite" >> "$out"
done
echo "1..$(wc -l < "$out")"
awk '{ sub(/ok 0 /, "ok " NR " "); print }' "$out"
! grep -q '^not ok ' "$out"
