#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP: Warden under tools nobody here wrote (the fuzz boot of check.sh, on
# the debug kernel, whose checkers and kmemleak judge the run too).
#
# Mainline's fs.protected_* and Yama's ptrace scope are off, every Warden
# rule is at its strictest that can be undone (ptrace_scope 2, not 3).  In
# a scratch tmpfs, the victim (uid 1001) and root plant symlinks, FIFOs,
# files and hard link sources in a sticky world-writable folder and in a
# sticky group-writable one.  Then, as the attacker (uid 1000), each under
# a per-process policy raised by wardenctl exec, with at most 256
# processes, the most likely to be chosen by the OOM killer (everything
# else is protected from it):
#   trinity    FUZZ_SYSCALLS system calls with seed FUZZ_SEED, 4 children,
#              64-bit calls only, in its own folder, with the planted
#              files as its victims (-V); no sockets (their set-up takes
#              minutes under TCG and reaches no Warden hook); policy
#              symlinks=2 hardlinks=1 fifos=2 regular=2 symlink-owner=2
#              writes=2 ptrace=3.  Left
#              out: kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo,
#              pidfd_send_signal (its children would kill its main
#              process).
#   stress-ng  the stressors on Warden's paths, one worker each, at once,
#              for FUZZ_STRESS_SECONDS (an operation of link or symlink,
#              thousands of links, takes longer on this kernel under TCG:
#              the run ends later), seed FUZZ_SEED, temporary files in a sticky
#              world-writable folder; policy symlinks=2 hardlinks=1
#              fifos=2 regular=2 symlink-owner=2 writes=2 ptrace=1.  Each
#              stressor must make
#              progress; only ptrace's may instead be refused by the scope
#              the flipper set (then counted by Warden).  Killed after
#              400 s more than asked: a busy host slows the guest.
# Meanwhile a root process flips Warden's levels and complain modes at
# random (seeded), every eighth time back to the strictest, never the lock
# nor ptrace_scope 3; every write must succeed.
#
# Afterwards the kernel must still answer: the counters read back, and a
# planted symlink is still refused, and counted once.  Every report goes
# to the kernel log (log_buf_len=4M keeps them all): the counters' growth
# must equal the report lines plus what the ratelimit said it dropped
# ("warden: N reports suppressed", or per rule "rule=R suppressed=N").
# The figures go to the host as "# figure:" lines.
. /warden/tap.sh
TAP_PREFIX="- fuzz."
seed=${FUZZ_SEED:-1}
syscalls=${FUZZ_SYSCALLS:-20000}
seconds=${FUZZ_STRESS_SECONDS:-60}
w=/proc/sys/kernel/warden
counters=/sys/kernel/security/warden/counters
scratch=/tmp/fuzz
OUT=$scratch.out
ERR=$scratch.err
strictest="protected_sticky_symlinks=2 protected_nonaccess_hardlinks=1
	protected_fifos=2 protected_regular=2 ptrace_scope=2
	protected_symlink_owner=2 protected_sticky_writes=2
	protected_sticky_symlinks_complain=0 protected_nonaccess_hardlinks_complain=0
	protected_fifos_complain=0 protected_regular_complain=0 ptrace_scope_complain=0
	protected_symlink_owner_complain=0 protected_sticky_writes_complain=0"
policy="--symlinks=2 --hardlinks=1 --fifos=2 --regular=2 --symlink-owner=2 --writes=2"
stressors="symlink link rename fifo open dentry chown chmod fork exec ptrace procfs"

knobs() {	# knobs NAME=VALUE...: write Warden's sysctls
	for kv in "$@"; do
		echo "${kv#*=}" > "$w/${kv%%=*}" || return 1
	done
}

knobs_are() {	# knobs_are NAME=VALUE...: they read back so
	for kv in "$@"; do
		[ "$(cat "$w/${kv%%=*}")" = "${kv#*=}" ] || return 1
	done
}

counted() {	# counted: denied plus would_deny, over every rule
	awk -F'[ =]' '{ n += $4 + $6 } END { print n + 0 }' "$counters"
}

reported() {	# reported: reports in the log, logged or said suppressed
	dmesg | awk '/warden: rule=[a-z_]* verdict=/ { n++; next }
		/warden: rule=[a-z_]* suppressed=[0-9]/ {
			s = $0; sub(/.* suppressed=/, "", s); n += s + 0; next
		}
		/warden: [0-9]+ reports suppressed/ {
			for (i = 1; i < NF; i++) if ($(i + 1) == "reports") n += $i
		}
		END { print n + 0 }'
}

ptrace_denials() {	# ptrace_denials: what ptrace_scope refused so far
	sed -n 's/^rule=ptrace_scope denied=\([0-9]*\) .*/\1/p' "$counters"
}

as_attacker() {	# as_attacker CMD...: as uid 1000, the OOM killer's first pick
	(
		echo 1000 > /proc/self/oom_score_adj
		ulimit -u 256
		exec su -s /bin/sh attacker -c "exec $*"
	) 3>&-
}

# The flipper: random levels and modes until $scratch/stop appears; its
# number of flips in $scratch/flips, of refused writes in $scratch/refused.
flip() {
	RANDOM=$seed
	flips=0 refused=0
	while [ ! -e "$scratch/stop" ]; do
		r=$((RANDOM % 7))
		set -- protected_sticky_symlinks 3 protected_nonaccess_hardlinks 2 \
			protected_fifos 3 protected_regular 3 ptrace_scope 3 \
			protected_symlink_owner 3 protected_sticky_writes 3
		shift $((r * 2))
		if [ $((flips % 8)) = 7 ]; then
			knobs $strictest || refused=$((refused + 1))
		elif [ $((RANDOM % 2)) = 0 ]; then
			knobs "$1=$((RANDOM % $2))" || refused=$((refused + 1))
		else
			knobs "${1}_complain=$((RANDOM % 2))" || refused=$((refused + 1))
		fi
		flips=$((flips + 1))
		usleep 5000
	done
	echo "$flips" > "$scratch/flips"
	echo "$refused" > "$scratch/refused"
}

plant() {	# the victim's and root's files, in a sticky and a group-sticky folder
	v=$scratch/victims
	mkdir -p "$v/sticky" "$v/group" "$scratch/trinity" "$scratch/stress" &&
	chmod 1777 "$v/sticky" "$scratch/stress" &&
	chown root:attacker "$v/group" && chmod 1770 "$v/group" &&
	chown attacker:attacker "$scratch/trinity" &&
	for d in "$v/sticky" "$v/group"; do
		ln -s /etc/passwd "$d/link" && ln -s "$d" "$d/dir" &&
		mkfifo -m 666 "$d/fifo" && echo victim > "$d/file" &&
		chmod 666 "$d/file" && chown -h victim:victim "$d/link" \
			"$d/dir" "$d/fifo" "$d/file" &&
		echo secret > "$d/secret" && chmod 600 "$d/secret" &&
		echo setuid > "$d/setuid" && chmod 4755 "$d/setuid" || return 1
	done
}

for p in /proc/[0-9]*; do
	echo -1000 > "$p/oom_score_adj"
done 2>/dev/null
mkdir -p "$scratch"
mount -t tmpfs -o size=64m,mode=1777 fuzz "$scratch"
for f in /proc/sys/fs/protected_*; do
	echo 0 > "$f"
done
echo 0 > /proc/sys/kernel/yama/ptrace_scope
ok strictest_settings eval 'knobs $strictest && knobs_are $strictest'
ok planted plant
echo "# figure: seed=$seed"
counted0=$(counted)
reported0=$(reported)

flip &
flipper=$!

start=$(cut -d. -f1 /proc/uptime)
cd "$scratch/trinity"
# A hard bound besides -N: 8 minutes of guest time.
as_attacker timeout -s KILL 480 /warden/bin/wardenctl exec $policy --ptrace=3 -- \
	/usr/bin/trinity -q -l off -s "$seed" -N "$syscalls" -C 4 -a64 \
	-V "$scratch/victims" --disable-fds=sockets \
	-x kill -x tkill -x tgkill -x rt_sigqueueinfo -x rt_tgsigqueueinfo \
	-x pidfd_send_signal > "$scratch/trinity.log" 2>&1
trinity_rc=$?
as_attacker kill -9 -1 2>/dev/null
cd /
trinity_time=$(($(cut -d. -f1 /proc/uptime) - start))
tail -n 15 "$scratch/trinity.log" | sed 's/^/# trinity: /'
ran=$(sed -n 's/.*Ran \([0-9]*\) syscalls.*/\1/p' "$scratch/trinity.log" | tail -n 1)
echo "# figure: trinity syscalls=${ran:-0} seconds=$trinity_time exit=$trinity_rc"
OUT=$scratch/trinity.log
ok trinity_ran_to_its_limit eval '[ "${ran:-0}" -ge "$syscalls" ] &&
	! grep -q "became tainted" "$OUT"'

start=$(cut -d. -f1 /proc/uptime)
ptrace0=$(ptrace_denials)
args=
for s in $stressors; do
	args="$args --$s 1"
done
as_attacker timeout -s KILL $((seconds + 400)) /warden/bin/wardenctl exec $policy --ptrace=1 -- \
	/usr/bin/stress-ng --temp-path "$scratch/stress" --seed "$seed" -t "$seconds" \
	--metrics-brief --yaml "$scratch/stress.yaml" $args > "$scratch/stress.log" 2>&1
stress_rc=$?
as_attacker kill -9 -1 2>/dev/null
stress_time=$(($(cut -d. -f1 /proc/uptime) - start))
grep -E 'fail|error|skipp|metrc|info' "$scratch/stress.log" | head -n 40 | sed 's/^/# stress-ng: /'
echo "# figure: stress-ng seconds=$stress_time exit=$stress_rc"
OUT=$scratch/stress.log
for s in $stressors; do
	bogo=$(awk -v s="$s" '$1 == "-" && $2 == "stressor:" { cur = $3 }
		$1 == "bogo-ops:" && cur == s { print $2; exit }' "$scratch/stress.yaml" 2>/dev/null)
	echo "# figure: stress-ng $s bogo-ops=${bogo:-0}"
	if [ "$s" = ptrace ] && grep -q "ptrace: child cannot be traced.*errno=1 " "$OUT"; then
		# Refused by the scope the flipper had set: a denial counted.
		ok stress_ng_ptrace_refused_and_counted [ "$(ptrace_denials)" -gt "$ptrace0" ]
	else
		ok "stress_ng_$s" [ "${bogo:-0}" -gt 0 ]
	fi
done
ok stress_ng_passed [ "$stress_rc" = 0 ]

touch "$scratch/stop"
wait "$flipper"
flips=$(cat "$scratch/flips")
refused=$(cat "$scratch/refused")
echo "# figure: flipper flips=$flips refused=$refused"
ok flipper_flipped eval '[ "$flips" -gt 0 ] && [ "$refused" = 0 ]'
ok settings_restored eval 'knobs $strictest && knobs_are $strictest'

# Still answering: the counters, and one denial, counted once.
OUT=$counters
# One line per rule, as many as there are complain switches.
rules=$(ls $w | grep -c '_complain$')
ok counters_read_back eval '[ "$(grep -c "^rule=.* denied=[0-9]* would_deny=[0-9]*$" "$OUT")" = "$rules" ]'
before=$(counted)
ok symlink_still_refused eval '! su -s /bin/sh attacker -c "cat $scratch/victims/sticky/link" >/dev/null 2>&1'
ok denial_counted_once [ "$(counted)" = $((before + 1)) ]

# The ratelimit's last count comes 5 s after the last report.
sleep 6
counted1=$(counted)
reported1=$(reported)
sed 's/^/# figure: counters /' "$counters"
echo "# figure: denials counted=$((counted1 - counted0)) reported=$((reported1 - reported0))"
ok counters_agree_with_the_log [ $((counted1 - counted0)) = $((reported1 - reported0)) ]
ok denials_seen [ $((counted1 - counted0)) -gt 1 ]

umount "$scratch"
tap_done
