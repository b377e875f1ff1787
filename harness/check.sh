#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The test suite: boot the kernel a few times and count the guest's TAP.
#
# Each boot's TAP comes back over the result channel (qemu.sh), framed by
# run-tests.  A test program that exits non-zero without a "not ok", a plan
# that does not match its results, a kernel splat, or a boot without a
# verdict is a failure.  Skips are counted apart, never as passes.
#
# First wardenctl's host tests and the snapshot check.  BUILD_FLAVOR=debug
# runs four of the boots on the debug kernel (debug_boots, below), and
# first the KUnit tests it ran at boot, but not the NFS test, whose server
# and client only the main kernel has.
# WARDEN_STRESS_ATTEMPTS sets the size of the race tests, WARDEN_FUZZ_WRITES
# and WARDEN_FLOOD_DENIALS (unset: the tests' own) those of the settings
# fuzz and the flood; WARDEN_COST_<NAME> a bound of the budget
# (harness/guest/bench_cost.sh).
. "$(dirname "$0")/env.sh"

t=/warden/bin
kunit=
if grep -q '^CONFIG_SECURITY_WARDEN_KUNIT_TEST=y' "$BUILD/.config" 2>/dev/null; then
	kunit="'sh /warden/kunit.sh warden_fs warden_report warden_settings warden_policy warden_ptrace'"
fi
# protected_regular on NFSv3 (nfs_test.sh): on the main kernel, which
# has NFS (harness/config/nfs.config), not on the debug one.
nfs="'sh /warden/nfs_test.sh'"
[ "$BUILD_FLAVOR" != debug ] || nfs=
stress="WARDEN_STRESS_ATTEMPTS=$WARDEN_STRESS_ATTEMPTS"
fuzz_writes=${WARDEN_FUZZ_WRITES:+WARDEN_FUZZ_WRITES=$WARDEN_FUZZ_WRITES }
flood=${WARDEN_FLOOD_DENIALS:+WARDEN_FLOOD_DENIALS=$WARDEN_FLOOD_DENIALS }
# The bounds set in the environment, for the guest.
cost=$(env | grep -E "^WARDEN_COST_[A-Z0-9_]+=[^ '\"\\]*\$" | tr '\n' ' ') || true
fuzz="FUZZ_SEED=$FUZZ_SEED FUZZ_SYSCALLS=$FUZZ_SYSCALLS FUZZ_STRESS_SECONDS=$FUZZ_STRESS_SECONDS"
boots=(
	# name | kernel arguments | test commands [| settings of run.sh]
	"suite|audit=1|$kunit $t/symlink_test $t/symlink_owner_test $t/hardlink_test $t/sticky_create_test $t/sticky_writes_test $t/sysctl_test '$fuzz_writes$t/knob_fuzz_test' $t/ptrace_test $t/ptrace_read_test $t/policy_test $t/io_uring_test $t/report_test $t/lsm_list_modules_test 'sh /warden/wardenctl_test.sh' 'sh /warden/sysctl_example_test.sh' 'sh /warden/ausearch_test.sh' $nfs"
	# The races, with a preemptible kernel even without SMP; then complain
	# mode and the counters, without audit=1: the flood test makes
	# 100,000 denials (WARDEN_FLOOD_DENIALS).
	"stress|preempt=full|'$stress $t/symlink_race_test' '$stress $t/hardlink_race_test' '$stress $t/ptrace_race_test' '$flood$t/complain_test'"
	# The lock cannot be undone until reboot: boots of their own.
	"lock||'WARDEN_LOCK=1 $t/lock_test'"
	"boot_params|warden.protected_regular=2 warden.protected_fifos_complain=1 warden.ptrace_scope=2 warden.protected_sticky_symlinks=7 warden.lock=1|'WARDEN_EXPECT=\"protected_regular=2 protected_fifos_complain=1 ptrace_scope=2 protected_sticky_symlinks=1 lock=1\" WARDEN_INVALID=protected_sticky_symlinks $t/boot_params_test' $t/lock_test"
	# ptrace_scope 3 cannot be undone until reboot either; wardenctl's
	# test of it and of the lock comes after (setting 3 again is no
	# change).
	"ptrace_locked||'WARDEN_LOCK_PTRACE_SCOPE=1 $t/ptrace_locked_test' 'sh /warden/wardenctl_lock_test.sh'"
	"warden_first|lsm=warden,yama|$t/lsm_list_modules_test 'sh /warden/lsm.sh lsm_warden_first capability,warden,yama' 'sh /warden/bench_smoke.sh' 'sh /warden/attr_legacy_test.sh alone'"
	# Warden before a major LSM: the legacy /proc/PID/attr files stay its.
	"before_apparmor|lsm=warden,yama,apparmor|'sh /warden/lsm.sh lsm_before_apparmor capability,warden,yama,apparmor' 'sh /warden/attr_legacy_test.sh major'"
	# Warden's boot parameters do nothing when lsm= leaves it out.
	"without_warden|lsm=yama warden.protected_regular=2 warden.lock=1|'sh /warden/lsm.sh lsm_without_warden capability,yama' 'sh /warden/wardenctl_absent_test.sh'"
	# Warden's instruction budget, in a guest whose clock counts
	# instructions (QEMU -icount shift=0).
	"cost||'${cost}sh /warden/bench_cost.sh'|ICOUNT=1"
)
# A patch of the series, booted by series.sh: its SERIES_STEP_TESTS (the
# LSM list, the KUnit suites present), then the selftests of the boots
# "suite" and "stress" whose source is in $TREE at that patch.  The boots
# of their own (the lock, boot parameters, lsm= orders) and the guest's
# scripts test the whole series: they wait for make check.
if [ -n "${SERIES_STEP_TESTS:-}" ]; then
	step=$SERIES_STEP_TESTS
	for b in "${boots[@]}"; do
		IFS='|' read -r name args tests settings <<<"$b"
		[ "$name" = suite ] || [ "$name" = stress ] || continue
		eval "cmds=($tests)"
		for c in "${cmds[@]}"; do
			prog=$(grep -o "$t/[a-z_]*_test" <<<"$c") || continue
			[ -f "$TREE/tools/testing/selftests/warden/${prog#"$t"/}.c" ] &&
				step+=" '$c'"
		done
	done
	boots+=("step|audit=1|$step")
fi
# Tools nobody here wrote, on the debug kernel (or when BOOTS names it):
# trinity and stress-ng as an unprivileged user under the strictest
# settings, with a root process flipping them (fuzz.sh).  Its initramfs
# carries them (GUEST_TOOLS); the kernel log must hold every report of the
# run.
if [ "$BUILD_FLAVOR" = debug ] || [[ " ${BOOTS:-} " == *" fuzz "* ]]; then
	boots+=("fuzz|log_buf_len=4M|'$fuzz sh /warden/fuzz.sh'|GUEST_TOOLS=trinity,stress-ng")
fi

# The debug kernel boots those whose paths its detectors need: the
# selftests, the races, the boot parameters with the lock, the fuzz.  The
# others test what the main kernel's boots test (the lock alone,
# ptrace_scope 3, the lsm= orders, the cost), and each would cost two
# minutes of the debug kernel's boot.  BOOTS, if set, chooses instead.
debug_boots="suite stress boot_params fuzz"

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
total_pass=0 total_fail=0 total_skip=0

count() {	# count RESULT-FILE: print "pass fail skip"
	awk '
	{ sub(/\r$/, "") }
	function finish() {
		if (name == "") return
		if (!done) { fail++; print "not ok " name ": did not finish" > "/dev/stderr" }
		name = ""
	}
	/^warden-test: / { finish(); name = substr($0, 14); plan = -1; seen = 0; bad = 0; done = 0; next }
	/^1\.\./ { plan = substr($0, 4) + 0; next }
	/^ok / { seen++; if ($0 ~ /# SKIP/) skip++; else pass++; next }
	/^not ok / { seen++; bad++; fail++; next }
	/^warden-test-exit: / {
		done = 1; rc = $NF
		if (rc != 0 && !bad) { fail++; print "not ok " name ": exited " rc > "/dev/stderr" }
		if (plan >= 0 && seen != plan) { fail++; print "not ok " name ": " seen " results for a plan of " plan > "/dev/stderr" }
		next
	}
	/^# figure: / { print "  " substr($0, 3) > "/dev/stderr"; next }
	/^warden-kernel-log: / {
		if (!splat++) { fail++; print "not ok kernel log: a report of the kernel'"'"'s checkers:" > "/dev/stderr" }
		print "  " substr($0, 20) > "/dev/stderr"
		next
	}
	END { finish(); printf "%d %d %d\n", pass, fail, skip }
	' "$1"
}

# kunit_tap RESULT: the KUnit results of a boot, as TAP for count.  The
# guest's kunit.sh sent the kernel log from its first KTAP line on
# ("warden-kunit-log: ") and the suites that must be there
# ("warden-kunit-suites: "); the tree's own parser, kunit.py parse, reads
# the log, and each test case of its JSON (each parameter of a
# parameterised case) becomes one TAP line in their place, a suite that is
# missing or a parser that failed without a failed case one "not ok".
kunit_tap() {
	local f=$1 k=$results/kunit suites rc=0

	grep -q '^warden-kunit-suites: ' "$f" || return 0
	sed -n -e 's/\r$//' -e 's/^warden-kunit-log: //p' "$f" > "$k.log"
	suites=$(sed -n -e 's/\r$//' -e 's/^warden-kunit-suites: //p' "$f" | tail -n 1)
	rm -f "$k.json"
	python3 "$TREE/tools/testing/kunit/kunit.py" parse --json="$k.json" "$k.log" \
		> "$k.out" 2>&1 || rc=$?
	sed 's/\x1b\[[0-9;]*m//g' "$k.out" |
		grep -E 'Testing complete|FAILED|CRASHED|ERROR|[Ee]rror' | sed 's/^/  kunit.py parse: /' >&2
	{
		[ -s "$k.json" ] && jq -r '
			def leaves($p): (.test_cases[]? | "\(.status) \($p)\(.name)"),
				(.sub_groups[]? | leaves($p + .name + "."));
			.sub_groups[]? | leaves(.name + ".")' "$k.json" |
			awk '{ st = $1; sub(/^[^ ]* /, "") }
			     st == "PASS" { print "ok " $0; next }
			     st == "SKIP" { print "ok " $0 " # SKIP"; next }
			     { print "not ok " $0 " (" st ")" }'
		for s in $suites; do
			[ -s "$k.json" ] && jq -e --arg s "$s" 'any(.sub_groups[]?; .name == $s)' \
				"$k.json" >/dev/null ||
				echo "not ok $s: no KUnit results in the kernel log"
		done
	} > "$k.tap"
	if [ "$rc" != 0 ] && ! grep -q '^not ok ' "$k.tap"; then
		echo "not ok kunit.py parse: exited $rc" >> "$k.tap"
	fi
	awk -v tap="$k.tap" '
		{ sub(/\r$/, "") }
		/^warden-kunit-log: / { next }
		/^warden-kunit-suites: / {
			while ((getline line < tap) > 0) l[++n] = line
			print "1.." n
			for (i = 1; i <= n; i++) { sub(/ok /, "ok " i " ", l[i]); print l[i] }
			next
		}
		{ print }' "$f" > "$k.result"
	mv "$k.result" "$f"
}

# add NAME SECONDS PASS FAIL SKIP: one run's counts, said and added up.
add() {
	say "$1: $3 passed, $4 failed, $5 skipped ($2s)"
	total_pass=$((total_pass + $3))
	total_fail=$((total_fail + $4))
	total_skip=$((total_skip + $5))
}

# wardenctl's host tests (wardenctl/tests/host.sh, on a fake tree), counted
# as a boot is; once, on the main kernel's run: they need no kernel.
if [ -z "$BUILD_FLAVOR" ] && { [ -z "${BOOTS:-}" ] || [[ " $BOOTS " == *" host "* ]]; }; then
	say "host: wardenctl/tests/host.sh"
	start=$SECONDS
	rc=0
	gbin=$("$REPO/harness/progs.sh")
	sh "$REPO/wardenctl/tests/host.sh" "$gbin/wardenctl" > "$results/host.tap" 2>&1 || rc=$?
	grep -v '^ok ' "$results/host.tap" >&2 || true
	{
		echo "warden-test: wardenctl/tests/host.sh"
		grep -E '^(not )?ok |^1\.\.' "$results/host.tap" || true
		echo "warden-test-exit: host $rc"
	} > "$results/host"
	read -r pass fail skip < <(count "$results/host")
	add host "$((SECONDS - start))" "$pass" "$fail" "$skip"
fi

# The snapshot (env.sh: check_snapshot): kernel/ is what the series adds,
# as the series applied by tree.sh has it; one test, on the main kernel's
# run, unless check-all counted it already as its gate.
if [ -z "$BUILD_FLAVOR" ] && [ -z "${SNAPSHOT_CHECKED:-}" ] &&
   { [ -z "${BOOTS:-}" ] || [[ " $BOOTS " == *" snapshot "* ]]; }; then
	say "snapshot: kernel/ against the series"
	start=$SECONDS
	rc=0
	check_snapshot > "$results/snapshot.out" 2>&1 || rc=$?
	{
		echo "warden-test: snapshot"
		echo "1..1"
		if [ "$rc" = 0 ]; then echo "ok 1 snapshot"; else echo "not ok 1 snapshot"; fi
		echo "warden-test-exit: snapshot $rc"
	} > "$results/snapshot"
	[ "$rc" = 0 ] || sed 's/^/  /' "$results/snapshot.out" >&2
	read -r pass fail skip < <(count "$results/snapshot")
	add snapshot "$((SECONDS - start))" "$pass" "$fail" "$skip"
fi

# boot NAME ARGS TESTS SETTINGS: one boot, its console and the harness's
# words to $results/NAME.log, its verdict and time to NAME.rc and
# NAME.time, the guest's results to NAME.
boot() {
	local name=$1 args=$2 tests=$3 settings=$4 start=$SECONDS rc=0

	say "boot $name: $args${KERNEL_ARGS:+ $KERNEL_ARGS}"
	env $settings RESULT_COPY="$results/${name#*/}" "$REPO/harness/run.sh" \
		"sh /warden/run-tests $tests" $args || rc=$?
	echo "$rc" > "$results/${name#*/}.rc"
	echo "$((SECONDS - start))" > "$results/${name#*/}.time"
}

# The boots run SUITE_JOBS at a time (default 1): most of a boot's time
# is the guest's sleeps and one busy virtual CPU, so two fit on two cores.
# Each boot is a machine of its own; their outputs are said in the order
# of the list, each once it ended.
SUITE_JOBS=${SUITE_JOBS:-1}
names=()
for b in "${boots[@]}"; do
	IFS='|' read -r name args tests settings <<<"$b"
	# BOOTS="name ..." runs only those boots, to try a change quickly.
	[ -z "${BOOTS:-}" ] || [[ " $BOOTS " == *" $name "* ]] || continue
	[ "$name" != cost ] || [ -z "$BUILD_FLAVOR" ] || continue
	[ "$BUILD_FLAVOR" != debug ] || [ -n "${BOOTS:-}" ] ||
		[[ " $debug_boots " == *" $name "* ]] || continue
	name=${BUILD_FLAVOR:+$BUILD_FLAVOR/}$name
	names+=("$name")
	while [ "$(jobs -rp | wc -l)" -ge "$SUITE_JOBS" ]; do
		wait -n || true
	done
	if [ "$SUITE_JOBS" -le 1 ]; then
		# One at a time: said as it goes.
		boot "$name" "$args" "$tests" "$settings" 2>&1 | tee "$results/${name#*/}.log" >&2
		touch "$results/${name#*/}.said"
	else
		boot "$name" "$args" "$tests" "$settings" > "$results/${name#*/}.log" 2>&1 &
	fi
done
wait
for name in "${names[@]}"; do
	f=$results/${name#*/}
	[ -f "$f.said" ] || cat "$f.log" >&2
	[ -f "$f" ] || : > "$f"
	kunit_tap "$f"
	read -r pass fail skip < <(count "$f")
	rc=$(cat "$f.rc" 2>/dev/null || echo 125)
	if [ "$rc" = 125 ]; then
		echo "not ok boot $name: no verdict from the guest" >&2
		fail=$((fail + 1))
	elif [ "$rc" != 0 ] && [ "$fail" -eq 0 ]; then
		# The boot failed with no failed test to say why: its
		# initramfs or its kernel was not there, say.
		echo "not ok boot $name: exited $rc" >&2
		fail=$((fail + 1))
	fi
	add "boot $name" "$(cat "$f.time" 2>/dev/null || echo 0)" "$pass" "$fail" "$skip"
done

if [ "$total_skip" -gt 0 ]; then
	echo "$total_pass passed, $total_fail failed, $total_skip skipped"
else
	echo "$total_pass passed, $total_fail failed"
fi
[ "$total_fail" -eq 0 ]
