#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP: Warden's instruction budget.  The boot "cost" of harness/check.sh
# runs this in a guest under QEMU -icount shift=0 (ICOUNT=1), where the
# TSC counts instructions; warden_bench -i checks that it does, then
# counts the instructions of each operation in every configuration,
# paired with "off" in the same round.  Each bound is on what Warden adds
# to one operation, the median over 5 rounds (each the fewest of 3
# batches, so a timer interrupt does not count):
#
#   plain      stat() of a file in a sticky directory, no link: Warden
#              has no hook there (stat_plain, warden - off)
#   plain_policy  the same with the levels raised for the process
#              (stat_plain, policy - worker)
#   follow1    following a link, the last component, at level 1
#              (stat_link, warden - off)
#   follow2    following a link at level 2, one of 16 in a row
#              (stat_deep, (warden-2 - off) / 16)
#   follow1_policy  follow1 with the level raised for the process
#              (stat_link, policy - worker)
#   ptrace     a ptrace check at scope 1 with 1 and with 1000 processes
#              holding an exception (ptrace_readv, warden - off)
#   open_plain an O_RDONLY open of a file in no sticky directory: the open
#              hook sees every open, but has nothing to check in this one
#              (open_plain, warden - off)
#   open_write root's O_WRONLY open, without O_CREAT, of its own file in a
#              1777 directory, allowed by protected_sticky_writes at 1
#              (open_write, warden - off)
#   owner      root following, at protected_symlink_owner 1, a link in a
#              directory that is not sticky, owned by another user who
#              owns its target too (stat_owner, warden - off)
#
# follow1 and follow2 count protected_symlink_owner too, at the same
# level: each link there is root's, which the rule lets through at its
# first test, before it reads the target's owner.
#
# The bounds are the counts measured (bench/README.md) plus half, rounded
# up: on 2026-12-03 110 -> 165, 25 -> 38 (follow2); on 2026-12-05, with
# the two new rules in the configurations, 28 -> 42 (open_write), 33 ->
# 50 (owner); 0 stays 0, since the counts are exact.  follow1 (30 with
# both link rules at 1, 28 with the sticky rule alone) is held to 40, the
# budget issue 24 set for a followed link with both rules on.  On
# 2026-12-07 this boot counted the same on 7.3 and on 6.12 (follow1 30,
# follow2 25, open_write 28, owner 32, ptrace 110), so the bounds, set on
# 6.12, hold for both trees with the same margin.  With the series'
# patches 36-37 (where a link leads, one name for the directory owner's
# file, owners a user wrote), on 7.3: follow1 37, follow2 31, open_write
# 36, owner 37, ptrace 110, within the same bounds.
# WARDEN_COST_<NAME>=N overrides one (and WARDEN_COST_OPEN_WRITE=27 must
# fail).
csv=/tmp/bench_cost.csv
. /warden/tap.sh
TAP_PREFIX="- cost."

: "${WARDEN_COST_PLAIN:=0}"
: "${WARDEN_COST_PLAIN_POLICY:=0}"
: "${WARDEN_COST_FOLLOW1:=40}"
: "${WARDEN_COST_FOLLOW2:=38}"
: "${WARDEN_COST_FOLLOW1_POLICY:=40}"
: "${WARDEN_COST_PTRACE:=165}"
: "${WARDEN_COST_OPEN_PLAIN:=0}"
: "${WARDEN_COST_OPEN_WRITE:=42}"
: "${WARDEN_COST_OWNER:=50}"

cost_run() {
	/warden/bin/warden_bench -i -r 5 \
		-w stat_link,stat_plain,stat_deep,stat_owner,open_plain,open_write,ptrace_readv \
		-n 1,1000 > "$csv"
}

# added WORKLOAD CONFIG PROCS: the instructions CONFIG added to "off" per
# operation, the median over the rounds; their range as a TAP comment.
added() {
	awk -F, -v key="$1,$2,$3," '
		index($0, key) == 1 && $9 != "n/a" {
			print $9; found = 1
			printf "# %s, %s processes, %s - off: %s (%s to %s over the rounds)\n",
				$1, $3, $2, $9, $10, $11 > "/dev/stderr"
		}
		END { exit !found }' "$csv"
}

# within NAME BOUND ADDED [DIVISOR]: ADDED / DIVISOR <= BOUND, said as a
# TAP comment either way.
within() {
	[ -n "$3" ] || { echo "# $1: not measured"; return 1; }
	awk -v name="$1" -v bound="$2" -v added="$3" -v per="${4:-1}" 'BEGIN {
		if (bound !~ /^[0-9]+(\.[0-9]+)?$/) {
			printf "# %s: the bound \"%s\" is not a number\n", name, bound
			exit 1
		}
		printf "# %s: %.2f instructions added (bound %s)\n", name, added / per, bound
		exit !(added / per <= bound + 0)
	}'
}

# policy_added WORKLOAD: what the raised levels added to the same worker
# with nothing raised, per operation.
policy_added() {
	p=$(added "$1" policy 0) && c=$(added "$1" worker 0) &&
		awk -v p="$p" -v c="$c" 'BEGIN { print p - c }'
}

ok runs cost_run
ok plain within plain "$WARDEN_COST_PLAIN" "$(added stat_plain warden 0)"
ok plain_policy within plain_policy "$WARDEN_COST_PLAIN_POLICY" \
	"$(policy_added stat_plain)"
ok follow1 within follow1 "$WARDEN_COST_FOLLOW1" "$(added stat_link warden 0)"
ok follow2 within follow2 "$WARDEN_COST_FOLLOW2" \
	"$(added stat_deep warden-2 0)" 16
ok follow1_policy within follow1_policy "$WARDEN_COST_FOLLOW1_POLICY" \
	"$(policy_added stat_link)"
ok open_plain within open_plain "$WARDEN_COST_OPEN_PLAIN" \
	"$(added open_plain warden 0)"
ok open_write within open_write "$WARDEN_COST_OPEN_WRITE" \
	"$(added open_write warden 0)"
ok owner within owner "$WARDEN_COST_OWNER" "$(added stat_owner warden 0)"
for procs in 1 1000; do
	ok ptrace_$procs within ptrace_$procs "$WARDEN_COST_PTRACE" \
		"$(added ptrace_readv warden $procs)"
done
tap_done
