# SPDX-License-Identifier: GPL-2.0
# TAP for the shell tests, in the guest (/warden/tap.sh) and on the host
# (wardenctl/tests/host.sh).  Source it, then set:
#   TAP_PREFIX  what comes before each test's name ("wardenctl.", "- ")
#   W           the program that run and status_is run
#   OUT, ERR    the files its output goes to, shown when a test fails
# Each case is one "ok NAME COMMAND..."; tap_done prints the plan and
# exits 1 if any case failed.
n=0
failed=0

ok() {	# ok NAME COMMAND...: one result, COMMAND's exit status
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $TAP_PREFIX$desc"
	else
		echo "not ok $n $TAP_PREFIX$desc"
		failed=$((failed + 1))
		tap_show stdout "${OUT:-}"
		tap_show stderr "${ERR:-}"
	fi
}

tap_show() {	# tap_show LABEL FILE: FILE's first lines as TAP comments
	[ -n "$2" ] && [ -s "$2" ] || return 0
	sed "s/^/# $1: /" "$2" | head -n 20
}

tap_done() {
	echo "1..$n"
	exit $((failed > 0))
}

run() {	# run ARGS...: runs $W, its status in $rc, its output in $OUT and $ERR
	"$W" "$@" > "$OUT" 2> "$ERR"
	rc=$?
}

status_is() {	# status_is N ARGS...: run exits N
	want=$1
	shift
	run "$@"
	[ "$rc" = "$want" ]
}

has() {	# has TEXT: TEXT is in $OUT
	grep -qF -- "$1" "$OUT"
}

has_err() {	# has_err TEXT: TEXT is in $ERR
	grep -qF -- "$1" "$ERR"
}
