#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP: a smoke run of the benchmarks (warden_bench -s: 3 rounds, small
# batches, 1 and 100 processes) gives every workload and configuration
# one row of positive numbers, so that make bench cannot rot.  A row may
# be n/a only for a configuration this kernel does not have: "complain"
# without its sysctls, "yama" without Yama, "worker" and "policy"
# without /proc/self/attr/warden/policy, and every configuration that
# sets Warden's rules without protected_symlink_owner and
# protected_sticky_writes.
csv=/tmp/bench_smoke.csv
w=/proc/sys/kernel/warden
. /warden/tap.sh
TAP_PREFIX="- bench_smoke."

# row KEY numbers|n/a: exactly one row for KEY, numbers all > 0, or n/a.
row() {
	awk -F, -v key="$1," -v want="$2" '
	index($0, key) == 1 {
		rows++
		for (i = 6; i <= 13; i++)
			if (want == "n/a" ? $i != "n/a" : !($i + 0 > 0))
				bad = 1
	}
	END { exit !(rows == 1 && !bad) }' "$csv"
}

# expect WORKLOAD PROCS CONFIG:AVAILABLE...  (PROCS 0: not a ptrace row)
expect() {
	wl=$1
	procs=$2
	shift 2
	for c in "$@"; do
		name=$wl.${c%%:*}
		[ "$procs" = 0 ] || name=$name.${procs}_processes
		want=numbers
		[ "${c#*:}" = 1 ] || want=n/a
		ok "$name" row "$wl,${c%%:*},$procs" $want
	done
}

smoke_run() {
	read -r start _ < /proc/uptime
	/warden/bin/warden_bench -s > "$csv" || return
	read -r end _ < /proc/uptime
	echo "# smoke run: $(awk "BEGIN { print $end - $start }") s"
}

ok runs smoke_run
complain=0
[ -e $w/protected_sticky_symlinks_complain ] && complain=1
policy=0
[ -e /proc/self/attr/warden/policy ] && policy=1
yama=0
[ -e /proc/sys/kernel/yama/ptrace_scope ] && yama=1
new=0
[ -e $w/protected_symlink_owner ] && [ -e $w/protected_sticky_writes ] && new=1
for wl in stat_link open_link stat_plain stat_deep link_unlink open_creat \
	stat_owner open_write open_plain; do
	expect $wl 0 off:1 mainline:1 warden:$new warden-2:$new \
		complain:$((complain && new)) worker:$((policy && new)) \
		policy:$((policy && new))
done
for procs in 1 100; do
	expect ptrace_readv $procs off:1 warden:$new yama:$yama
done
tap_done
