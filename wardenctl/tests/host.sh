#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host tests of wardenctl on a fake tree (WARDENCTL_ROOT), in TAP.
#
# usage: host.sh [WARDENCTL]
#
# Every case where the tool must accept, or show, something has a twin
# where it must refuse, or show the other thing.  Run as root too: a write
# error comes from a directory where a sysctl should be, which no
# permission can write.

W=$(cd "$(dirname "${1:-./wardenctl}")" && pwd)/$(basename "${1:-./wardenctl}")
[ -x "$W" ] || { echo "Bail out! no wardenctl at $W"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ROOT=$tmp/root
WARDENCTL_ROOT=$ROOT
export WARDENCTL_ROOT
SYS=$ROOT/proc/sys/kernel/warden
SEC=$ROOT/sys/kernel/security/warden
KMSG=$ROOT/dev/kmsg
OUT=$tmp/out
ERR=$tmp/err

RULES="protected_sticky_symlinks protected_nonaccess_hardlinks protected_fifos protected_regular ptrace_scope protected_symlink_owner protected_sticky_writes"
# The repository's TAP helpers; the Debian source package (harness/deb.sh)
# carries a copy beside this file.
tap=$(dirname "$0")/tap.sh
[ -f "$tap" ] || tap=$(dirname "$0")/../../harness/guest/tap.sh
. "$tap"
TAP_PREFIX="- "

# A fake Warden: every rule at level 1, enforcing; counters i*10 and i*10+1.
fake_root() {
	rm -rf "$ROOT"
	mkdir -p "$SYS" "$SEC" "$ROOT/dev"
	i=0
	for r in $RULES; do
		echo 1 > "$SYS/$r"
		echo 0 > "$SYS/${r}_complain"
		echo "rule=$r denied=$((i * 10)) would_deny=$((i * 10 + 1))" >> "$SEC/counters"
		i=$((i + 1))
	done
	echo 0 > "$SYS/lock"
	: > "$KMSG"
}

value_is() {	# value_is FILE VALUE
	[ "$(cat "$1")" = "$2" ]
}

# Evaluates a Python expression over the JSON in $OUT, bound to j.
json_true() {
	python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$OUT" "$1"
}

# --help and --version

ok "--help prints the usage on stdout and exits 0" \
	eval 'status_is 0 --help && has "usage: wardenctl" && [ ! -s "$ERR" ]'
ok "-h after a command is that command's help" \
	eval 'status_is 0 set -h && has "usage: wardenctl"'
ok "--version prints the version and exits 0" \
	eval 'status_is 0 --version && grep -qE "^wardenctl [0-9]" "$OUT"'

# status

fake_root
ok "status prints a table and exits 0" status_is 0 status
ok "status table has a header" \
	eval 'head -n 1 "$OUT" | grep -qE "^RULE +ALIAS +LEVEL +RANGE +MODE +DENIED +WOULD_DENY$"'
ok "status table lists every rule in the kernel's order" \
	eval '[ "$(sed -n "2,8p" "$OUT" | awk "{ print \$1 }" | tr "\n" " ")" = "$RULES " ]'
# Every cell of a column starts where its header does (right-aligned
# numbers end where it ends).
aligned() {
	awk '
	NR == 1 { alias = index($0, "ALIAS"); mode = index($0, "MODE");
		  wd_end = length($0); next }
	NR >= 2 && NR <= 6 {
		split($0, f, / +/)
		if (index($0, " " f[2] " ") + 1 != alias) bad = 1
		if (substr($0, mode, 7) != "enforce" && substr($0, mode, 8) != "complain") bad = 1
		if (length($0) != wd_end) bad = 1
	}
	END { exit bad }' "$OUT"
}
ok "status table columns are aligned" aligned
ok "status table shows level, range, mode and counters" \
	eval 'grep -qE "^protected_fifos +fifos +1 +0\.\.2 +enforce +20 +21$" "$OUT"'
ok "status table says not locked" has "settings: not locked"
echo 1 > "$SYS/lock"
echo 1 > "$SYS/ptrace_scope_complain"
run status
ok "status table says locked when kernel.warden.lock is 1" has "settings: locked until reboot"
ok "status table shows complain mode" \
	eval 'grep -qE "^ptrace_scope +ptrace +1 +0\.\.3 +complain +40 +41$" "$OUT"'

fake_root
echo 2 > "$SYS/protected_regular"
echo 1 > "$SYS/protected_fifos_complain"
ok "status --json exits 0" status_is 0 status --json
ok "status --json is valid JSON" \
	eval 'python3 -m json.tool "$OUT" > /dev/null'
ok "status --json is one line" eval '[ "$(wc -l < "$OUT")" = 1 ]'
ok "status --json: locked is false" json_true 'j["locked"] is False'
ok "status --json lists every rule in order with its alias and range" \
	json_true '[(r["name"], r["alias"], r["max"]) for r in j["rules"]] == [("protected_sticky_symlinks", "symlinks", 2), ("protected_nonaccess_hardlinks", "hardlinks", 1), ("protected_fifos", "fifos", 2), ("protected_regular", "regular", 2), ("ptrace_scope", "ptrace", 3), ("protected_symlink_owner", "symlink-owner", 2), ("protected_sticky_writes", "writes", 2)]'
ok "status --json: a level of 2" json_true 'j["rules"][3]["level"] == 2'
ok "status --json: a level of 1" json_true 'j["rules"][2]["level"] == 1'
ok "status --json: complain mode" json_true 'j["rules"][2]["mode"] == "complain"'
ok "status --json: enforce mode" json_true 'j["rules"][3]["mode"] == "enforce"'
ok "status --json: counters as integers" \
	json_true '[(r["denied"], r["would_deny"]) for r in j["rules"]] == [(0, 1), (10, 11), (20, 21), (30, 31), (40, 41), (50, 51), (60, 61)]'
echo 1 > "$SYS/lock"
run status --json
ok "status --json: locked is true when kernel.warden.lock is 1" json_true 'j["locked"] is True'
printf 'rule=ptrace_scope denied=18446744073709551615 would_deny=0\n' > "$SEC/counters"
run status --json
ok "status --json: missing counters are null, and status exits 1" \
	eval '[ "$rc" = 1 ] && json_true "j[\"rules\"][0][\"denied\"] is None" && has_err "no counters for protected_sticky_symlinks"'
ok "status --json: a counter too big for JSON integers is null" \
	json_true 'j["rules"][4]["denied"] is None and j["rules"][4]["would_deny"] == 0'
fake_root
sed -i 's/^rule=protected_fifos denied=20 /rule=protected_fifos denied=20 denied=0 /' "$SEC/counters"
run status --json
ok "status --json: a counters line with a key twice is not read, and status exits 1" \
	eval '[ "$rc" = 1 ] && json_true "j[\"rules\"][2][\"denied\"] is None and j[\"rules\"][3][\"denied\"] == 30" && has_err "no counters for protected_fifos"'
fake_root
echo 1 > "$SYS/protected_fifos_complain"
run status --json
ok "status --json: its twin, with each key once, is read" \
	json_true 'j["rules"][2]["denied"] == 20 and j["rules"][2]["would_deny"] == 21'
rm "$SYS/protected_fifos_complain"
run status --json
ok "status --json: an unreadable mode is null, with a warning" \
	eval '[ "$rc" = 1 ] && json_true "j[\"rules\"][2][\"mode\"] is None" && has_err "cannot read kernel.warden.protected_fifos_complain"'

rm -rf "$ROOT/proc"
ok "status without Warden exits 1" status_is 1 status
ok "status without Warden says so on stderr, nothing on stdout" \
	eval 'has_err "Warden is not active" && [ ! -s "$OUT" ]'
ok "status --json without Warden exits 1" status_is 1 status --json
fake_root
ok "status with Warden exits 0" status_is 0 status --json

# set

fake_root
ok "set RULE LEVEL exits 0" status_is 0 set protected_sticky_symlinks 2
ok "set writes the level to the rule's sysctl" value_is "$SYS/protected_sticky_symlinks" 2
ok "set says what it set" has "kernel.warden.protected_sticky_symlinks = 2"
ok "set writes one line, the number only" \
	eval '[ "$(od -An -c "$SYS/protected_sticky_symlinks" | tr -d " ")" = "2\\n" ]'
ok "set by alias" eval 'status_is 0 set fifos 0 && value_is "$SYS/protected_fifos" 0'
ok "set by alias writes no other sysctl" \
	eval 'value_is "$SYS/protected_regular" 1 && value_is "$SYS/protected_fifos_complain" 0'
for r in symlinks:protected_sticky_symlinks:2 hardlinks:protected_nonaccess_hardlinks:1 \
	 fifos:protected_fifos:2 regular:protected_regular:2 ptrace:ptrace_scope:3 \
	 symlink-owner:protected_symlink_owner:2 writes:protected_sticky_writes:2; do
	alias=${r%%:*}
	rest=${r#*:}
	name=${rest%:*}
	max=${rest#*:}
	fake_root
	ok "set $alias $max, its highest level, is written" \
		eval 'status_is 0 set $alias $max && value_is "$SYS/$name" $max'
	fake_root
	ok "set $alias $((max + 1)) is out of range: exit 2, nothing written" \
		eval 'status_is 2 set $alias $((max + 1)) && value_is "$SYS/$name" 1 && has_err "0 to $max"'
done
fake_root
ok "set RULE complain exits 0" status_is 0 set regular complain
ok "set RULE complain writes 1 to RULE_complain" value_is "$SYS/protected_regular_complain" 1
ok "set RULE complain leaves the level" value_is "$SYS/protected_regular" 1
ok "set RULE enforce writes 0 to RULE_complain" \
	eval 'status_is 0 set protected_regular enforce && value_is "$SYS/protected_regular_complain" 0'

# Bad arguments: each class exits 2, prints the usage on stderr, writes
# nothing.
bad_usage() {
	fake_root
	run "$@"
	[ "$rc" = 2 ] && has_err "usage: wardenctl" && [ ! -s "$OUT" ] || return 1
	for r in $RULES; do
		value_is "$SYS/$r" 1 && value_is "$SYS/${r}_complain" 0 || return 1
	done
	value_is "$SYS/lock" 0
}
ok "no command: exit 2" bad_usage
ok "unknown command: exit 2" bad_usage frobnicate
ok "unknown global option: exit 2" bad_usage --frobnicate status
ok "unknown option of a command: exit 2" bad_usage status --jsn
ok "unknown short option of a command: exit 2" bad_usage status -x
ok "extra argument to status: exit 2" bad_usage status json
ok "extra argument to lock: exit 2" bad_usage lock now
ok "extra argument to set: exit 2" bad_usage set symlinks 1 2
ok "set without a level: exit 2" bad_usage set symlinks
ok "set without a rule: exit 2" bad_usage set
ok "set of an unknown rule: exit 2" bad_usage set symlink 1
ok "set of the lock as a rule: exit 2" bad_usage set lock 1
ok "set to a negative level: exit 2" bad_usage set symlinks -1
ok "set to a level with junk after it: exit 2" bad_usage set symlinks 1x
ok "set to a level with a sign: exit 2" bad_usage set symlinks +1
ok "set to an empty level: exit 2" bad_usage set symlinks ''
ok "set to a huge level: exit 2" bad_usage set ptrace 99999999999999999999
ok "set to a mode that is not one: exit 2" bad_usage set symlinks permissive
ok "explain -n 0: exit 2" bad_usage explain -n 0
ok "explain -n without a number: exit 2" bad_usage explain -n
ok "explain -n with junk: exit 2" bad_usage explain -n 3x
ok "watch --count 0: exit 2" bad_usage watch --count 0
ok "watch --count without a number: exit 2" bad_usage watch --count
ok "extra argument to watch: exit 2" bad_usage watch now
ok "extra argument to explain: exit 2" bad_usage explain now

# A write the "kernel" refuses, and its twin that succeeds.
fake_root
rm "$SYS/protected_regular"
mkdir "$SYS/protected_regular"
ok "set where the write fails exits 1" status_is 1 set regular 2
ok "set where the write fails says why, with strerror" \
	has_err "wardenctl: cannot set kernel.warden.protected_regular to 2: Is a directory"
fake_root
ok "set where the write works exits 0" status_is 0 set regular 2
fake_root
rm "$SYS/protected_fifos_complain"
mkdir "$SYS/protected_fifos_complain"
ok "set RULE complain where the write fails exits 1" \
	eval 'status_is 1 set fifos complain && has_err "cannot set kernel.warden.protected_fifos_complain to 1: Is a directory"'
fake_root
rm "$SYS/protected_fifos"
ok "set of a rule the kernel lacks exits 1" \
	eval 'status_is 1 set fifos 1 && has_err "No such file or directory"'
# /dev/null takes the write and reads back empty.
fake_root
rm "$SYS/protected_fifos"
ln -s /dev/null "$SYS/protected_fifos"
ok "set reads the value back and exits 1 if it did not stick" \
	eval 'status_is 1 set fifos 2 && has_err "cannot read kernel.warden.protected_fifos back"'
rm -rf "$ROOT/proc"
ok "set without Warden exits 1" \
	eval 'status_is 1 set fifos 2 && has_err "Warden is not active"'
ok "set without Warden still exits 2 on a bad level" status_is 2 set fifos 3

# lock

fake_root
ok "lock exits 0" status_is 0 lock
ok "lock writes 1 to kernel.warden.lock" value_is "$SYS/lock" 1
ok "lock says that settings are frozen until reboot" has "until reboot"
ok "lock when locked already exits 0 and says so" \
	eval 'status_is 0 lock && has "already locked"'
fake_root
rm "$SYS/lock"
mkdir "$SYS/lock"
ok "lock where the write fails exits 1" \
	eval 'status_is 1 lock && has_err "cannot set kernel.warden.lock to 1: Is a directory"'

# explain

# Warden's lines as the kernel writes them, as /dev/kmsg records with a
# dictionary line.  The kernel escapes a name's space as \x20, and
# /dev/kmsg escapes that backslash again: \x5cx20.
sample_log() {
	cat > "$KMSG" <<'EOF'
6,100,5000000,-;warden: Up and running.
5,101,5000100,-;warden: rule=protected_sticky_symlinks verdict=denied op=follow knob=kernel.warden.protected_sticky_symlinks allowed_at=0 source=global pid=35 uid=0 fsuid=0 ppid=1 link_uid=1000 dir_uid=0 dir_mode=1777 comm="demo.sh" pcomm="init" path="/tmp/backup-report.txt"
 SUBSYSTEM=warden
5,102,5000200,-;warden: rule=protected_regular verdict=would_deny op=open_creat knob=kernel.warden.protected_regular allowed_at=0 source=global pid=36 uid=0 fsuid=0 ppid=2 file_uid=1000 dir_uid=0 dir_mode=1777 comm="app\x5cx20job" pcomm="cron" path="/tmp/app\x5cx20log.txt"
6,103,5000300,-;eth0: link up
5,104,5000400,-;warden: rule=protected_regular suppressed=12 subject=user
5,105,5000450,-;warden: rule=ptrace_scope suppressed=1 subject=root
5,106,5000500,-;warden: rule=protected_nonaccess_hardlinks verdict=denied op=link knob=kernel.warden.protected_nonaccess_hardlinks allowed_at=0 source=global pid=37 uid=1000 fsuid=1000 ppid=30 file_uid=0 comm="ln" pcomm="sh" path="/usr/bin/vulnerable"
5,107,5000600,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=38 uid=0 fsuid=0 ppid=1 file_uid=1000 dir_uid=0 dir_mode=1777 comm="sh" pcomm="init" path="/tmp/fifo"
5,108,5000700,-;warden: rule=ptrace_scope verdict=denied op=attach knob=kernel.warden.ptrace_scope allowed_at=1 source=global scope=2 tracer_pid=40 tracer_uid=1000 target_pid=7 target_uid=0 ppid=39 tracer_comm="gdb" target_comm="sshd" pcomm="bash"
5,109,5000800,-;warden: rule=ptrace_scope verdict=would_deny op=traceme knob=kernel.warden.ptrace_scope allowed_at=0 source=global scope=1 tracer_pid=41 tracer_uid=1000 target_pid=42 target_uid=1000 ppid=41 tracer_comm="parent" target_comm="child" pcomm="parent"
EOF
}

fake_root
sample_log
ok "explain exits 0" status_is 0 explain
ok "explain explains every denial of a short log" \
	eval '[ "$(grep -c "^\[[0-9]*/6\] " "$OUT")" = 6 ]'
ok "explain skips lines that are not Warden denials" \
	eval '! grep -qE "initialized|eth0|SUBSYSTEM" "$OUT"'
ok "explain: who" has '"demo.sh" (pid 35, uid 0, fsuid 0), child of "init" (pid 1)'
ok "explain: what, with the directory" has 'follow the symlink "/tmp/backup-report.txt", owned by uid 1000'
ok "explain: the sticky directory's owner and mode" has 'owned by uid 0, mode 1777'
ok "explain: denied" has '[1/6] protected_sticky_symlinks: denied'
ok "explain: would_deny is a would-have-been denial" has '[2/6] protected_regular: would have been denied'
ok "explain: a denial names the knob that allows it" \
	has 'allowed with: sysctl kernel.warden.protected_sticky_symlinks=0  (wardenctl set symlinks 0)'
ok "explain: a denial offers complain mode" \
	has 'wardenctl set symlinks complain  (sysctl kernel.warden.protected_sticky_symlinks_complain=1)'
ok "explain: a complain-mode allow says it was allowed" has 'allowed, because the rule is in complain mode'
ok "explain: a complain-mode allow offers enforce mode" \
	has 'wardenctl set regular enforce  (sysctl kernel.warden.protected_regular_complain=0)'
ok "explain: a name stays escaped as the kernel wrote it, /dev/kmsg's escaping undone" \
	eval 'has "\"app\\x20job\" (pid 36" && has "\"/tmp/app\\x20log.txt\"" && ! has "x5c"'
ok "explain: an escaped name is not decoded for the terminal" \
	eval '! has "app job" && ! has "app log"'
ok "explain: the kind of file for protected_regular" has 'the existing regular file "/tmp/app\x20log.txt"'
ok "explain: the kind of file for protected_fifos" has 'the existing FIFO "/tmp/fifo"'
ok "explain: a hard link" has 'make a hard link to "/usr/bin/vulnerable", owned by uid 0'
ok "explain: reports dropped by the ratelimit, per rule and subject" \
	has '(12 reports of protected_regular by users were not logged: ratelimit; the counters count every one)'
ok "explain: one report dropped, of another rule, by root" \
	has '(1 report of ptrace_scope by root was not logged: ratelimit; the counters count every one)'
ok "explain: the notices come before the next denial in the log" \
	eval '[ "$(grep -A 2 "1 report of ptrace_scope" "$OUT" | tail -n 1)" = "[3/6] protected_nonaccess_hardlinks: denied" ]'
ok "explain: a ptrace attach, tracer as who" has '"gdb" (pid 40, uid 1000), child of "bash" (pid 39)'
ok "explain: a ptrace attach, target as what" has 'ptrace attach to "sshd" (pid 7, uid 0) at ptrace_scope 2'
ok "explain: PTRACE_TRACEME, tracee as who" has '"child" (pid 42, uid 1000), child of "parent" (pid 41)'
ok "explain: ptrace knob" has 'sysctl kernel.warden.ptrace_scope=1  (wardenctl set ptrace 1)'
ok "explain -n 2 explains the last two only" \
	eval 'status_is 0 explain -n 2 && has "[1/2] ptrace_scope: denied" && has "[2/2] ptrace_scope: would have been denied" && ! has "[3/"'
ok "explain -n 1 skips a ratelimit note that was before an earlier denial" \
	eval 'status_is 0 explain -n 1 && ! has "not logged"'
ok "explain -n 4 keeps the ratelimit note of its first denial" \
	eval 'status_is 0 explain -n 4 && has "12 reports of protected_regular"'

# A file rule's report as report.c prints it, a /dev/kmsg record at
# NOTICE: fs_report SEQ RULE OP ALLOWED_AT PATH [FIELDS BEFORE path=]
fs_report() {
	printf '5,%s,0,-;warden: rule=%s verdict=denied op=%s knob=kernel.warden.%s allowed_at=%s source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 dir_uid=0 dir_mode=1777 comm="cp" pcomm="sh"%s path="%s"\n' \
		"$1" "$2" "$3" "$2" "$4" "${6:+ $6}" "$5"
}

i=0
: > "$KMSG"
while [ $i -lt 15 ]; do
	fs_report $i protected_fifos open_creat 0 "/tmp/f$i" >> "$KMSG"
	i=$((i + 1))
done
run explain
ok "explain shows the last 10 by default" \
	eval 'has "[1/10]" && has "[10/10]" && ! has "[11/" && has "/tmp/f5\"" && has "/tmp/f14\"" && ! has "/tmp/f4\""'

# Lines that start as Warden's but are not in its shape: the kernel never
# prints them so, whoever did is not Warden.  Each has a twin in the shape.
printf '%s\n' \
	'5,1,0,-;warden: rule=protected_sticky_symlinks verdict=denied' \
	'5,2,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="cp" pcomm="sh" path="/tmp/half' \
	'5,3,0,-;warden: rule=protected_regular verdict=denied color=blue op=open_creat knob=kernel.warden.protected_regular allowed_at=2 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=5 comm="cp" pcomm="sh" path="/tmp/a"' \
	'5,4,0,-;warden: rule=protected_regular verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=5 comm="cp" pcomm="sh" path="/tmp/other-knob"' \
	'5,5,0,-;warden: rule=protected_regular verdict=denied op=open_creat knob=kernel.warden.protected_regular allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=01 file_uid=5 comm="cp" pcomm="sh" path="/tmp/zero"' \
	'warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="cp" pcomm="sh" path="/tmp/plain"' \
	'[   12.345678] warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="cp" pcomm="sh" path="/tmp/dmesg"' \
	'5,6,0,-;warden: rule=ptrace_scope verdict=denied op=attach knob=kernel.warden.ptrace_scope allowed_at=2 source=global scope=3 tracer_pid=40 tracer_uid=1000 target_pid=7 target_uid=0 ppid=39 tracer_comm="gdb" target_comm="sshd" pcomm="bash"' \
	'5,7,0,-;warden: rule=protected_future verdict=maybe op=frob knob=kernel.warden.protected_future allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=5 comm="cp" pcomm="sh" path="/x"' \
	> "$KMSG"
fs_report 8 protected_regular open_creat 0 /tmp/no-newline | tr -d '\n' >> "$KMSG"
run explain
ok "explain of lines out of Warden's shape exits 0" [ "$rc" = 0 ]
ok "explain: lines out of Warden's shape are skipped, and counted" \
	eval 'has "Skipped 7 lines that read like Warden'"'"'s but are not" && [ "$(grep -c "^\[[0-9]*/3\] " "$OUT")" = 3 ]'
ok "explain: a report with fields missing is not explained with '?'" \
	eval '! has "follow the symlink ?" && ! has "who:     ? "'
ok "explain: an unterminated quote, unknown fields, a knob not the rule's, a leading zero" \
	eval '! has "/tmp/half" && ! has "/tmp/a\"" && ! has other-knob && ! has /tmp/zero'
ok "explain: a line without a kmsg header, or of dmesg, has no priority: skipped" \
	eval '! has /tmp/plain && ! has /tmp/dmesg'
ok "explain: the source is named, and said not to be authenticated" \
	eval 'has "From the kernel log, /dev/kmsg: not an authenticated channel"'
ok "explain: ptrace_scope 3 has no complain mode" \
	eval 'has "ptrace_scope 3 cannot be lowered" && ! has "set ptrace complain"'
ok "explain: an unknown rule in Warden's shape gets no wardenctl set" \
	eval 'has "protected_future: maybe" && has "sysctl kernel.warden.protected_future_complain=1" && ! has "set protected_future"'
ok "explain: the last line without a newline" has '"/tmp/no-newline"'
# protected_symlink_owner where a user writes the owners: the link is the
# path, and its target was not compared.
printf '%s\n' '5,1,0,-;warden: rule=protected_symlink_owner verdict=denied op=follow_untrusted knob=kernel.warden.protected_symlink_owner allowed_at=0 source=global pid=51 uid=0 fsuid=0 ppid=1 link_uid=100000 target_uid=65534 comm="cp" pcomm="sh" path="/srv/vol/l"' > "$KMSG"
ok "explain: a link where a user writes the owners" \
	eval 'status_is 0 explain && has "follow, where a user writes the owners, the symlink \"/srv/vol/l\", owned by uid 100000" && ! has Skipped'
fs_report 1 protected_regular open_creat 0 /tmp/fine > "$KMSG"
ok "explain: the twin, all in Warden's shape, skips nothing" \
	eval 'status_is 0 explain && has "/tmp/fine" && ! has Skipped'

# The ptrace rule's reads and changes of limits: the reader, or the
# process that changes the limits, is the one acting.
printf '%s\n' \
	'5,1,0,-;warden: rule=ptrace_scope verdict=denied op=read knob=kernel.warden.ptrace_scope allowed_at=0 source=process scope=3 tracer_pid=50 tracer_uid=1000 target_pid=45 target_uid=1000 ppid=49 tracer_comm="perf" target_comm="keyring" pcomm="bash"' \
	'5,2,0,-;warden: rule=ptrace_scope verdict=would_deny op=setrlimit knob=kernel.warden.ptrace_scope allowed_at=0 source=global scope=1 tracer_pid=51 tracer_uid=1000 target_pid=45 target_uid=1000 ppid=49 tracer_comm="prlimit" target_comm="keyring" pcomm="bash"' \
	> "$KMSG"
ok "explain: a read and a change of limits exit 0, skipping nothing" \
	eval 'status_is 0 explain && [ "$(grep -c "^\[[0-9]*/2\] ptrace_scope: " "$OUT")" = 2 ] && ! has Skipped'
ok "explain: a read, the reader as who" has '"perf" (pid 50, uid 1000), child of "bash" (pid 49)'
ok "explain: a read, the target as what" \
	has 'read the /proc files (environ, fd, maps) or perf events of "keyring" (pid 45, uid 1000) at ptrace_scope 3'
ok "explain: a read the process's own scope refused" \
	has "the process's own policy refused it"
ok "explain: a change of limits, the target as what" \
	has 'change the resource limits (prlimit) of "keyring" (pid 45, uid 1000) at ptrace_scope 1'
ok "explain: a change of limits, allowed with the ptrace knob" \
	has 'sysctl kernel.warden.ptrace_scope=0  (wardenctl set ptrace 0)'

# explain: where an audit daemon keeps its log, it is named as the better
# source; a directory in its place is no log.
fake_root
fs_report 1 protected_regular open_creat 0 /tmp/fine > "$KMSG"
mkdir -p "$ROOT/var/log/audit/audit.log"
ok "explain: no audit log (a directory in its place), none named" \
	eval 'status_is 0 explain && has "/tmp/fine" && ! has "Audit keeps" && status_is 0 explain --json && json_true "j[\"audit_log\"] is None"'
rmdir "$ROOT/var/log/audit/audit.log"
: > "$ROOT/var/log/audit/audit.log"
ok "explain: the twin, an audit daemon's log, is named as the better source" \
	eval 'status_is 0 explain && has "/tmp/fine" && has "Audit keeps a log here, /var/log/audit/audit.log: its records, which"'
ok "explain --json: the audit daemon's log is named" \
	eval 'status_is 0 explain --json && json_true "j[\"audit_log\"] == \"/var/log/audit/audit.log\" and len(j[\"denials\"]) == 1"'

printf '6,1,0,-;warden: initialized\n5,2,0,-;warden: rule=protected_fifos suppressed=3 subject=root\n' > "$KMSG"
ok "explain of a log without denials exits 0 and says so" \
	eval 'status_is 0 explain && has "No Warden denial" && has "(3 more reports of protected_fifos by root were not logged: ratelimit; the counters count every one)"'
ok "explain of a log without settings changes says so" has "No change of a Warden setting in the kernel log."
printf '6,1,0,-;warden: initialized\n4,2,0,-;warden: 3 reports suppressed (ratelimit)\n' > "$KMSG"
ok "explain ignores the notice of the old kernel, which named no rule" \
	eval 'status_is 0 explain && has "No Warden denial" && ! has "not logged"'
rm "$KMSG"
ok "explain without a kernel log exits 1" \
	eval 'status_is 1 explain && has_err "cannot open the kernel log"'

# explain: what a user can put in a name cannot make a field.  The kernel
# escapes the quote and the space; /dev/kmsg escapes the backslash again.

fake_root
forged='path="/tmp/x\x5cx22\x5cx20allowed_at=2\x5cx20source=process\x5cx20comm=\x5cx22cron"'
echo "5,1,0,-;warden: rule=protected_regular verdict=denied op=open_creat knob=kernel.warden.protected_regular allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 dir_uid=0 dir_mode=1777 comm=\"backup\" pcomm=\"init\" $forged" > "$KMSG"
run explain
ok "explain: a forged path is explained with the true allowed_at and source" \
	eval 'has "allowed with: sysctl kernel.warden.protected_regular=0  (wardenctl set regular 0)" && ! has "own policy" && ! has "=2 "'
ok "explain: the forged path is shown whole, escaped, and the true comm" \
	eval 'has "regular file \"/tmp/x\\x22\\x20allowed_at=2\\x20source=process\\x20comm=\\x22cron\", owned by uid 1000" && has "who:     \"backup\" (pid 50"'
echo '5,1,0,-;warden: rule=protected_regular verdict=denied op=open_creat knob=kernel.warden.protected_regular allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="backup" pcomm="init" path="/tmp/x" allowed_at=2 source=process comm="cron"' > "$KMSG"
run explain
ok "explain: the same forgery unescaped is not in Warden's shape: skipped, counted" \
	eval '[ "$rc" = 0 ] && has "Skipped 1 line that reads like Warden'"'"'s but is not" && has "No Warden denial" && ! has "allowed with" && ! has "own policy"'
fs_report 1 protected_regular open_creat 0 '/tmp/x"y' > "$KMSG"
ok "explain: text stuck to a closing quote is not Warden's" \
	eval 'status_is 0 explain && has "Skipped 1 line" && ! has "/tmp/x"'
fs_report 1 protected_regular open_creat 0 '/tmp/x\x5cx22y' > "$KMSG"
ok "explain: its twin with the quote escaped is explained" \
	eval 'status_is 0 explain && has "regular file \"/tmp/x\\x22y\"" && ! has Skipped'
fs_report 1 protected_regular open_creat 0 '/tmp/x\x5cx41y' > "$KMSG"
fs_report 2 protected_regular open_creat 0 '/tmp/x\x5cx0Ay' >> "$KMSG"
ok "explain: an escape the kernel does not write (\\x41, \\x0A) is not Warden's" \
	eval 'status_is 0 explain && has "Skipped 2 lines" && has "No Warden denial"'
printf '%s\n' \
	'[    1.000000] warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="a\x22b" pcomm="sh" path="/tmp/a"' \
	'warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="c\x20d" pcomm="sh" path="/tmp/c"' > "$KMSG"
ok "explain: dmesg and syslog text tells no priority: skipped, though in the shape" \
	eval 'status_is 0 explain && has "Skipped 2 lines" && has "No Warden denial"'
fs_report 1 protected_fifos open_creat 0 '/tmp/\xe9t' > "$KMSG"
fs_report 2 protected_fifos open_creat 0 '/tmp/esc\x1b[2J' >> "$KMSG"
run explain
ok "explain: a control byte or a byte above 0x7e the kernel would have escaped: skipped" \
	eval 'has "Skipped 2 lines" && has "No Warden denial" && ! grep -q "$(printf "\\033")" "$OUT"'
fs_report 1 protected_fifos open_creat 0 '/tmp/\x5cxe9t\x5cxc3\x5cxa9' > "$KMSG"
fs_report 2 protected_fifos open_creat 0 '/tmp/esc\x5cx1b[2J' >> "$KMSG"
run explain
ok "explain: the twins as the kernel escapes them are shown as \\xHH" \
	eval 'has "\"/tmp/\\xe9t\\xc3\\xa9\"" && has "\"/tmp/esc\\x1b[2J\"" && ! has Skipped && ! LC_ALL=C grep -q "[^ -~]" "$OUT"'
printf '%s\n' \
	'12,1,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="cp" pcomm="sh" path="/tmp/from-user-space"' \
	'5,2,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="cp" pcomm="sh" path="/tmp/from-the-kernel"' > "$KMSG"
ok "explain: a record user space wrote to /dev/kmsg is not Warden's" \
	eval 'status_is 0 explain && ! has from-user-space && has "Skipped 1 line"'
ok "explain: its twin from the kernel is" has '"/tmp/from-the-kernel"'

# explain: a path too long for the record, and one d_path could not resolve

long=$(printf '/tmp/%0400d' 0)
fs_report 1 protected_regular open_creat 0 "...$long" path_cut=3000 > "$KMSG"
fs_report 2 protected_regular open_creat 0 "$long" >> "$KMSG"
fs_report 3 protected_regular open_creat 0 '?' >> "$KMSG"
fs_report 4 protected_regular open_creat 0 "...$long" path_cut=0 >> "$KMSG"
run explain
ok "explain: a cut path is shown with its marker and how much was left out" \
	has "\"...$long\" (cut: 3000 more bytes not logged), owned by uid 1000"
ok "explain: its twin, whole, is not said to be cut" \
	eval '[ "$(grep -c "(cut:" "$OUT")" = 2 ] && has "\"$long\", owned by uid 1000"'
ok "explain: a path longer than PATH_MAX is cut by an unknown count" \
	has "\"...$long\" (cut: longer than PATH_MAX, how much more is unknown)"
ok "explain: a path the kernel could not resolve" \
	has 'regular file ? (a path the kernel could not resolve), owned by uid 1000'

# explain: the changes of the settings

settings_log() {
	cat > "$KMSG" <<'EOF'
5,200,0,-;warden: setting=kernel.warden.protected_regular old="1" new="0" via=sysctl res=1 pid=300 uid=0 auid=1000 ses=3 comm="bash"
5,201,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=38 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="sh" pcomm="init" path="/tmp/fifo"
5,202,0,-;warden: setting=kernel.warden.protected_fifos_complain old="0" new="1" via=sysctl res=1 pid=301 uid=0 auid=1000 ses=3 comm="sysctl"
5,203,0,-;warden: setting=kernel.warden.ptrace_scope old="3" new="0" via=sysctl res=0 pid=302 uid=0 auid=4294967295 ses=4294967295 comm="evil\x5cx20sh"
5,204,0,-;warden: setting=kernel.warden.protected_sticky_symlinks old="1" new="2" via=boot res=1 pid=1 uid=0 auid=4294967295 ses=4294967295 comm="swapper/0"
5,205,0,-;warden: setting=policy suppressed=4
5,206,0,-;warden: setting=policy old="protected_sticky_symlinks=0 protected_nonaccess_hardlinks=0 protected_fifos=0 protected_regular=0 ptrace_scope=0" new="protected_sticky_symlinks=2 protected_nonaccess_hardlinks=0 protected_fifos=0 protected_regular=0 ptrace_scope=3" via=process res=1 pid=400 uid=1000 auid=1000 ses=3 comm="make"
5,207,0,-;warden: setting=kernel.warden.protected_regular_complain old="1" new="0" via=sysctl res=1 pid=303 uid=0 auid=1000 ses=3 comm="sysctl"
EOF
}
fake_root
settings_log
ok "explain with settings changes exits 0" status_is 0 explain
ok "explain lists the settings changes after the denials, oldest first" \
	eval 'has "The last 6 changes of Warden settings in the kernel log, oldest first:" && [ "$(grep -n "^\[" "$OUT" | head -n 2 | cut -d: -f2 | cut -c1-5 | tr "\n" " ")" = "[1/1] [1/6] " ]'
ok "explain: a setting's old and new value, and how" \
	has '[1/6] kernel.warden.protected_regular: 1 -> 0, by sysctl'
ok "explain: who changed a setting" has 'who:     "bash" (pid 300, uid 0, auid 1000, ses 3)'
ok "explain: a rule switched off is flagged" has 'warning: this switched protected_regular off'
ok "explain: a rule put in complain mode is flagged" \
	has 'warning: this put protected_fifos in complain mode: it logs, but denies nothing'
ok "explain: a change the kernel refused says so" \
	has '[3/6] kernel.warden.ptrace_scope: 3 -> 0, by sysctl: refused'
ok "explain: a refused attempt to switch a rule off is flagged as one" \
	has 'warning: a refused attempt to switch ptrace_scope off'
ok "explain: an unset auid and session, and an escaped comm" \
	has '"evil\x20sh" (pid 302, uid 0, auid unset, ses unset)'
ok "explain: a rule raised at boot is not flagged" \
	eval 'has "[4/6] kernel.warden.protected_sticky_symlinks: 1 -> 2, by a boot parameter" && [ "$(grep -c warning: "$OUT")" = 3 ]'
ok "explain: a process's policy, the levels it raised" \
	eval 'has "[5/6] policy: a process raised its own policy" && has "raised:  protected_sticky_symlinks 0 -> 2, ptrace_scope 0 -> 3"'
ok "explain: policy lines the ratelimit dropped" \
	has '(4 reports of process policy changes were not logged: ratelimit)'
ok "explain: complain mode switched off is not flagged" \
	eval 'has "[6/6] kernel.warden.protected_regular_complain: 1 -> 0" && [ "$(tail -n 1 "$OUT" | cut -c1-13)" = "    who:     " ]'
ok "explain -n 2 lists the last two settings changes" \
	eval 'status_is 0 explain -n 2 && has "[1/2] policy" && has "[2/2] kernel.warden.protected_regular_complain" && ! has "[3/"'
echo '5,1,0,-;warden: setting=kernel.warden.protected_regular old="1" new="0" via=sysctl res=1 pid=300 uid=0 auid=1000 ses=3 comm="x" res=0' > "$KMSG"
ok "explain: a settings line with a key twice is not Warden's: skipped" \
	eval 'status_is 0 explain && has "Skipped 1 line" && has "No change of a Warden setting" && ! has warning'
echo '5,1,0,-;warden: setting=kernel.warden.protected_regular old="1" new="0" via=sysctl res=1 pid=300 uid=0 auid=1000 ses=3 comm="x"' > "$KMSG"
ok "explain: its twin, each key once, is explained" \
	eval 'status_is 0 explain && ! has Skipped && has "warning: this switched protected_regular off"'

# explain --json

fake_root
settings_log
cp "$KMSG" "$tmp/settings.log"
sample_log
cat "$tmp/settings.log" >> "$KMSG"
ok "explain --json exits 0" status_is 0 explain --json
ok "explain --json is valid JSON, on one line" \
	eval 'python3 -m json.tool "$OUT" > /dev/null && [ "$(wc -l < "$OUT")" = 1 ]'
ok "explain --json: the denials, oldest first, with their fields as logged" \
	json_true '[d["fields"]["rule"] for d in j["denials"]] == ["protected_sticky_symlinks", "protected_regular", "protected_nonaccess_hardlinks", "protected_fifos", "ptrace_scope", "ptrace_scope", "protected_fifos"] and j["denials"][0]["fields"]["allowed_at"] == "0"'
ok "explain --json: a name stays escaped, its backslash escaped for JSON" \
	json_true 'j["denials"][1]["fields"]["comm"] == "app\\x20job" and j["denials"][1]["fields"]["path"] == "/tmp/app\\x20log.txt"'
ok "explain --json: the ratelimit's notices before a denial" \
	json_true 'j["denials"][2]["suppressed_before"] == [{"rule": "protected_regular", "subject": "user", "suppressed": 12}, {"rule": "ptrace_scope", "subject": "root", "suppressed": 1}] and j["denials"][1]["suppressed_before"] == []'
ok "explain --json: the settings changes, with the policy notice" \
	json_true 'len(j["settings"]) == 6 and j["settings"][0]["fields"]["new"] == "0" and j["settings"][4]["suppressed_before"] == [{"setting": "policy", "suppressed": 4}] and j["settings"][2]["fields"]["comm"] == "evil\\x20sh"'
fake_root
printf '%s\n' \
	'5,1,0,-;warden: rule=protected_regular verdict=denied op=open_creat knob=kernel.warden.protected_regular allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="cp" pcomm="sh" path="/a" path="/b"' \
	'5,2,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="q\x5cx22\x5cx5c\x5cx1b" pcomm="sh" path="/tmp/f"' \
	'5,3,0,-;warden: rule=protected_fifos suppressed=2 subject=user' > "$KMSG"
ok "explain --json of quotes, backslashes and control bytes in names is valid JSON" \
	eval 'status_is 0 explain --json && python3 -m json.tool "$OUT" > /dev/null'
ok "explain --json: a name's escapes, and a control byte as \\xHH" \
	json_true 'j["denials"][0]["fields"]["comm"] == "q\\x22\\x5c\\x1b"'
ok "explain --json: a line out of Warden's shape is skipped, and counted" \
	json_true 'len(j["denials"]) == 1 and j["denials"][0]["malformed"] is False and j["skipped"] == 1 and j["source"] == "/dev/kmsg"'
ok "explain --json: the notices after the last report" \
	json_true 'j["suppressed_after"] == [{"rule": "protected_fifos", "subject": "user", "suppressed": 2}] and j["settings"] == []'

# Errors in --json mode: one object {"error": ...} on stdout, with the
# exit status of the error; each has its twin without the error, or
# without --json.

# The error's text, with every byte as wardenctl's JSON writer escapes it.
json_error_is() {	# json_error_is TEXT
	EXPECTED=$1 python3 -c '
import json, os, sys
want = "".join(chr(b) if 0x20 <= b <= 0x7e else "\\x%02x" % b
               for b in os.fsencode(os.environ["EXPECTED"]))
sys.exit(0 if json.load(open(sys.argv[1])) == {"error": want} else 1)' "$OUT"
}
# The output is one line of printable ASCII, whatever the bytes of the text.
one_ascii_line() {
	[ "$(wc -l < "$OUT")" = 1 ] && ! LC_ALL=C grep -q '[^ -~]' "$OUT"
}

fake_root
rm -rf "$ROOT/proc"
ok "status --json without Warden: the error as JSON on stdout, exit 1" \
	eval 'status_is 1 status --json && json_error_is "Warden is not active: there is no /proc/sys/kernel/warden (not built in, or left out of lsm=)"'
ok "status --json without Warden: one line, nothing on stderr" \
	eval 'one_ascii_line && [ ! -s "$ERR" ]'
ok "status without --json and without Warden: nothing on stdout" \
	eval 'status_is 1 status && [ ! -s "$OUT" ] && has_err "Warden is not active"'
fake_root
ok "status --json with Warden has no error key" \
	eval 'status_is 0 status --json && json_true "\"error\" not in j"'
fake_effective_root() {
	fake_root
	mkdir -p "$ROOT/proc/42/attr/warden"
	for r in $RULES; do
		echo "rule=$r global=1 process=0 effective=1" >> "$ROOT/proc/42/attr/warden/effective"
	done
}
fake_effective_root
ok "status --pid --json of no process: the error as JSON, exit 1" \
	eval 'status_is 1 status --pid 43 --json && json_error_is "cannot read the policy of process 43 in $ROOT/proc/43/attr/warden/effective: No such process" && [ ! -s "$ERR" ]'
ok "status --pid --json of a process has no error key" \
	eval 'status_is 0 status --pid 42 --json && json_true "\"error\" not in j and j[\"pid\"] == 42"'
sed -i '/ptrace_scope/d' "$ROOT/proc/42/attr/warden/effective"
ok "status --pid --json with a rule missing: its output, the warning on stderr" \
	eval 'status_is 1 status --pid 42 --json && json_true "\"error\" not in j and j[\"rules\"][4][\"effective\"] is None" && has_err "no levels for ptrace_scope"'
fake_root
rm "$KMSG"
ok "explain --json without a kernel log: the error as JSON, exit 1" \
	eval 'status_is 1 explain --json && json_error_is "cannot open the kernel log $KMSG: No such file or directory" && [ ! -s "$ERR" ]'
ok "explain without --json and without a kernel log: nothing on stdout" \
	eval 'status_is 1 explain && [ ! -s "$OUT" ] && has_err "cannot open the kernel log"'
: > "$KMSG"
ok "explain --json with a kernel log has no error key" \
	eval 'status_is 0 explain --json && json_true "\"error\" not in j"'

# A bad command line with --json: still exit 2 and the usage on stderr,
# and the error on stdout, wherever --json stands.
json_usage() {	# json_usage TEXT ARGS...: exit 2, TEXT as JSON, the usage on stderr
	text=$1
	shift
	run "$@"
	[ "$rc" = 2 ] && json_error_is "$text" && has_err "usage: wardenctl" &&
		has_err "wardenctl: $text"
}
fake_root
ok "status --json with a bad option: exit 2, the error as JSON" \
	json_usage "status: bad option '--jsn'" status --json --jsn
ok "status with a bad option before --json: the error as JSON too" \
	json_usage "status: bad option '--jsn'" status --jsn --json
ok "explain with a bad -n before --json: the error as JSON" \
	json_usage "explain: -n needs a number from 1 to 1000000, not '0'" explain -n 0 --json
ok "explain --js, an abbreviation of --json, with an extra argument" \
	json_usage "explain: unexpected argument 'now'" explain --js now
ok "status --json --pid with a bad pid: the error as JSON" \
	json_usage "status: --pid needs a process id, not 'x'" status --json --pid x
ok "the twin without --json: nothing on stdout" bad_usage status --pid x
ok "status --pid --json: --json is the pid, the error is not JSON" \
	eval 'status_is 2 status --pid --json && [ ! -s "$OUT" ] && has_err "not '"'"'--json'"'"'"'

# The JSON writer escapes every string: a quote and a backslash for JSON,
# every control byte and every byte above 0x7e as \xHH, so the output is
# ASCII and valid JSON whatever the bytes.
fake_root
odd=$(printf 'a"q\\b\001\033[31m\177caf\303\251\nz')
ok "an error with a quote, a backslash, control bytes and UTF-8 is escaped" \
	eval 'json_usage "status: --pid needs a process id, not '"'"'$odd'"'"'" status --json --pid "$odd"'
ok "the escaped error is one line of printable ASCII" one_ascii_line
ok "its twin, a plain value, is written as it is" \
	eval 'json_usage "status: --pid needs a process id, not '"'"'abc'"'"'" status --json --pid abc && has "\"error\":\"status: --pid needs a process id, not '"'"'abc'"'"'\""'
odd_root=$tmp/$(printf 'r"\\\001\303\251')
mkdir -p "$odd_root"
ok "an error naming a path with those bytes is escaped" \
	eval 'WARDENCTL_ROOT=$odd_root status_is 1 explain --json && json_error_is "cannot open the kernel log $odd_root/dev/kmsg: No such file or directory" && one_ascii_line'
rmdir "$odd_root"
fake_root
printf '%s\n' \
	'5,1,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="caf\x5cxc3\x5cxa9\x5cx7f" pcomm="sh" path="/tmp/a\x5cx22\x5cx5c\x5cx0a"' \
	'5,2,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="cafe" pcomm="sh" path="/tmp/b"' \
	'5,3,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="caf\xc3\xa9\x7f" pcomm="sh" path="/tmp/raw"' > "$KMSG"
ok "explain --json of a name with UTF-8, DEL and a newline is one line of ASCII" \
	eval 'status_is 0 explain --json && one_ascii_line'
ok "explain --json: those bytes as \\xHH, quotes and backslashes as logged" \
	json_true 'j["denials"][0]["fields"]["comm"] == "caf\\xc3\\xa9\\x7f" and j["denials"][0]["fields"]["path"] == "/tmp/a\\x22\\x5c\\x0a"'
ok "explain --json: its twin, a plain name, as it is; the raw bytes the kernel would escape, skipped" \
	json_true 'j["denials"][1]["fields"]["comm"] == "cafe" and j["denials"][1]["line"].endswith("comm=\"cafe\" pcomm=\"sh\" path=\"/tmp/b\"") and len(j["denials"]) == 2 and j["skipped"] == 1'
ok "explain shows the same escapes as text" \
	eval 'status_is 0 explain && has "\"caf\\xc3\\xa9\\x7f\"" && ! LC_ALL=C grep -q "[^ -~]" "$OUT"'

# watch

fake_root
sample_log
printf '%s\n' \
	'5,120,5001000,-;audit: type=1430 audit(1700000000.123:45): lsm=warden rule=protected_sticky_symlinks op=follow res=0 permissive=0 allowed_at=0 source=global ppid=1 pid=35 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=4294967295 comm="demo.sh" exe="/bin/busybox" path="/tmp/l" ouid=1000 dir_uid=0 dir_mode=1777' \
	'5,121,5001100,-;audit: type=1400 audit(1700000000.124:46): apparmor="DENIED" operation="open" lsm=apparmor' \
	'5,122,5001200,-;audit: type=1430 audit(1700000000.125:47): lsm=warden rule=protected_regular op=open_creat res=1 permissive=1 allowed_at=0 source=global ppid=2 pid=36 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm=6170702A6A6F62 exe="/usr/bin/app" path="/tmp/f" ouid=1000 dir_uid=0 dir_mode=1777' \
	'5,123,5001300,-;audit: type=1430 audit(1700000000.126:48): lsm=warden rule=ptrace_scope op=attach res=0 permissive=0 allowed_at=1 source=global scope=2 pid=40 uid=1000 auid=1000 ses=2 comm="gdb" opid=7 ocomm="sshd"' \
	'5,124,5001400,-;audit: type=1431 audit(1700000000.127:49): lsm=warden op=set setting=kernel.warden.protected_regular old="1" new="0" via=sysctl ppid=1 pid=300 auid=1000 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=pts0 ses=3 comm="bash" exe="/usr/bin/bash" subj=/usr/bin/man (enforce) res=1' \
	'5,125,5001500,-;audit: type=1405 audit(1700000000.128:50): bool=secure_mode val=1 old_val=0 auid=0 ses=1' \
	'5,126,5001600,-;audit: type=1430 audit(1700000000.129:51): lsm=warden op=follow lsm=apparmor' \
	'5,127,5001700,-;audit: type=1430 audit(1700000000.130:52): rule=protected_regular op=open_creat res=1 permissive=1' \
	'5,128,5001800,-;audit: type=1430 audit(1700000000.131:53): lsm=warden rule=protected_nonaccess_hardlinks op=link res=0 permissive=0 allowed_at=0 source=global ppid=30 pid=37 auid=1000 uid=1000 gid=1000 euid=1000 suid=1000 fsuid=1000 egid=1000 sgid=1000 fsgid=1000 tty=pts1 ses=2 comm="ln" exe="/usr/bin/ln" path="/usr/bin/vulnerable" ouid=0' \
	'5,129,5001900,-;audit: type=1430 audit(1700000000.132:54): lsm=warden rule=protected_symlink_owner op=follow res=0 permissive=0 allowed_at=0 source=process ppid=1 pid=60 auid=4294967295 uid=33 gid=33 euid=33 suid=33 fsuid=33 egid=33 sgid=33 fsgid=33 tty=(none) ses=4294967295 comm="nginx" exe="/usr/sbin/nginx" path="/etc/shadow" ouid=1000 target_uid=0' \
	'5,131,5002000,-;audit: type=1431 audit(1700000000.133:55): lsm=warden op=set setting=policy old="protected_sticky_symlinks=0" new="protected_sticky_symlinks=2 protected_symlink_owner=1" via=process ppid=1 pid=301 auid=1000 uid=1000 gid=1000 euid=1000 suid=1000 fsuid=1000 egid=1000 sgid=1000 fsgid=1000 tty=pts0 ses=3 comm="wardenctl" exe="/usr/sbin/wardenctl" res=1' >> "$KMSG"
echo '5,130,0,-;warden: setting=kernel.warden.protected_regular old="1" new="0" via=sysctl res=1 pid=300 uid=0 auid=1000 ses=3 comm="ba\x5cx20sh"' >> "$KMSG"
ok "watch --all --count 2 exits 0" status_is 0 watch --all --count 2
ok "watch --all prints Warden's lines from the start, without the kmsg header" \
	eval '[ "$(cat "$OUT")" = "warden: Up and running.
warden: rule=protected_sticky_symlinks verdict=denied op=follow knob=kernel.warden.protected_sticky_symlinks allowed_at=0 source=global pid=35 uid=0 fsuid=0 ppid=1 link_uid=1000 dir_uid=0 dir_mode=1777 comm=\"demo.sh\" pcomm=\"init\" path=\"/tmp/backup-report.txt\"" ]'
ok "watch --all stops at the end of a file, and prints the ratelimit notices" \
	eval 'status_is 0 watch --all && [ "$(wc -l < "$OUT")" = 10 ] && has "warden: rule=protected_regular suppressed=12 subject=user" && has "warden: rule=ptrace_scope suppressed=1 subject=root"'
ok "watch prints the settings changes" \
	has 'warden: setting=kernel.warden.protected_regular old="1" new="0" via=sysctl res=1 pid=300 uid=0 auid=1000 ses=3 comm="ba\x20sh"'
ok "watch prints the names as the kernel escaped them, /dev/kmsg's escaping undone" \
	eval 'has "comm=\"app\\x20job\"" && ! has "x5c"'
ok "watch without --audit prints no audit record" eval '! grep -q "^audit" "$OUT"'
run watch --all --audit
ok "watch --audit prints Warden's audit records, of type 1430" \
	eval 'has "audit: type=1430 audit(1700000000.123:45): lsm=warden rule=protected_sticky_symlinks op=follow res=0 permissive=0 " && has "audit: type=1430 audit(1700000000.125:47)" && has "audit: type=1430 audit(1700000000.126:48): lsm=warden rule=ptrace_scope op=attach res=0 permissive=0 "'
ok "watch --audit prints a file rule's record as the kernel wrote it, its owner as ouid=" \
	has 'audit: type=1430 audit(1700000000.123:45): lsm=warden rule=protected_sticky_symlinks op=follow res=0 permissive=0 allowed_at=0 source=global ppid=1 pid=35 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=4294967295 comm="demo.sh" exe="/bin/busybox" path="/tmp/l" ouid=1000 dir_uid=0 dir_mode=1777'
ok "watch --audit prints a file rule's record without dir_uid=, and one with target_uid=" \
	eval 'has "audit: type=1430 audit(1700000000.131:53)" && has "audit: type=1430 audit(1700000000.132:54)"'
ok "watch --audit prints Warden's settings changes to audit, of type 1431" \
	eval 'has "audit: type=1431 audit(1700000000.127:49): lsm=warden op=set setting=kernel.warden.protected_regular" && has "audit: type=1431 audit(1700000000.133:55): lsm=warden op=set setting=policy"'
ok "watch --audit prints the seven records of Warden's, and no other" \
	eval '[ "$(grep -c "^audit: " "$OUT")" = 7 ]'
ok "watch --audit prints no other LSM's audit record" \
	eval '! has apparmor && ! has secure_mode'
ok "watch --audit prints no record without lsm=warden, nor one with lsm= twice" \
	eval '! has "1700000000.130:52" && ! has "1700000000.129:51"'
printf '%s\n' \
	'12,1,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="cp" pcomm="sh" path="/tmp/from-user-space"' \
	'5,2,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="\x5cx1b]0;owned\x5cx07" pcomm="sh" path="/tmp/f"' \
	'5,3,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 file_uid=1000 comm="\x1b]0;raw\x07" pcomm="sh" path="/tmp/f"' > "$KMSG"
run watch --all
ok "watch prints no record that user space wrote to /dev/kmsg, and says so on stderr" \
	eval '[ "$rc" = 0 ] && ! has from-user-space && has_err "skipped a kernel log record that reads like Warden'"'"'s but is not (seq 1)"'
ok "watch prints a control byte as the kernel escaped it, \\xHH, never to the terminal" \
	eval 'has "comm=\"\\x1b]0;owned\\x07\"" && ! grep -q "$(printf "\\033")" "$OUT"'
ok "watch skips a control byte the kernel would have escaped, and names its record" \
	eval '! has raw && has_err "(seq 3)" && ! grep -q "$(printf "\\033")" "$ERR"'
sample_log
ok "watch without --all skips the backlog" \
	eval 'status_is 0 watch && [ ! -s "$OUT" ]'

# A FIFO stands in for /dev/kmsg: it has no end while this shell holds it
# open, so watch waits for lines as it would for the kernel's.
wait_for_line() {	# wait_for_line COUNT: until $OUT has COUNT lines, 5 s at most
	t=0
	while [ "$(wc -l < "$OUT")" -lt "$1" ] && [ $t -lt 50 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	[ "$(wc -l < "$OUT")" -ge "$1" ]
}

fifo_line1='5,1,0,-;warden: rule=protected_fifos verdict=denied op=open_creat knob=kernel.warden.protected_fifos allowed_at=0 source=global pid=1 uid=0 fsuid=0 ppid=0 file_uid=1000 comm="a" pcomm="b" path="/tmp/f"'
fifo_line2='5,3,0,-;warden: rule=protected_regular verdict=would_deny op=open_creat knob=kernel.warden.protected_regular allowed_at=0 source=global pid=2 uid=0 fsuid=0 ppid=0 file_uid=1000 comm="a" pcomm="b" path="/tmp/r"'
watch_fifo() {	# watch_fifo SIGNAL: follows two lines, then is sent SIGNAL
	rm -f "$KMSG"
	mkfifo "$KMSG"
	exec 9<> "$KMSG"
	: > "$OUT"
	"$W" watch > "$OUT" 2> "$ERR" &
	pid=$!
	echo "$fifo_line1" >&9
	wait_for_line 1 || { kill "$pid"; exec 9>&-; return 1; }
	echo '6,2,0,-;other: line' >&9
	printf '%s' "${fifo_line2%% pid=*}" >&9
	sleep 0.2
	echo " pid=${fifo_line2#* pid=}" >&9
	wait_for_line 2 || { kill "$pid"; exec 9>&-; return 1; }
	kill -"$1" "$pid"
	wait "$pid"
	rc=$?
	exec 9>&-
	[ "$rc" = 0 ]
}
ok "watch follows new lines and exits 0 on SIGTERM" watch_fifo TERM
ok "watch puts a line written in two pieces back together" \
	eval '[ "$(cat "$OUT")" = "${fifo_line1#*;}
${fifo_line2#*;}" ]'
ok "watch exits 0 on SIGINT" watch_fifo INT
rm -f "$KMSG"
ok "watch without a kernel log exits 1" \
	eval 'status_is 1 watch && has_err "cannot open the kernel log"'

# exec: the policy it writes to the fake /proc/self/attr/warden/policy,
# and the command it runs; every refusal has its twin.

POLICY=$ROOT/proc/self/attr/warden/policy
fake_policy() {
	fake_root
	mkdir -p "$ROOT/proc/self/attr/warden"
	: > "$POLICY"
}
fake_policy
ok "exec runs the command with its arguments and exits with its status" \
	eval 'status_is 3 exec --symlinks=2 --ptrace=3 -- sh -c "echo \$0 \$1; exit 3" a b && [ "$(cat "$OUT")" = "a b" ]'
ok "exec writes every rule it is given, by name, in the kernel's order" \
	eval '[ "$(cat "$POLICY")" = "protected_sticky_symlinks=2 ptrace_scope=3" ]'
fake_policy
ok "exec takes the rules' names and a value in the next word" \
	eval 'status_is 0 exec --ptrace_scope 1 --fifos=0 true && [ "$(cat "$POLICY")" = "protected_fifos=0 ptrace_scope=1" ]'
fake_policy
ok "exec sets no_new_privs for the command" \
	eval 'status_is 0 exec --hardlinks=1 -- grep "^NoNewPrivs:" /proc/self/status && has "NoNewPrivs:	1"'
ok "the twin without exec has no no_new_privs" \
	eval 'grep -q "^NoNewPrivs:	0" /proc/self/status'
for r in symlinks:2 hardlinks:1 fifos:2 regular:2 ptrace:3; do
	alias=${r%:*}
	max=${r#*:}
	fake_policy
	ok "exec --$alias=$max, its highest level, runs the command" \
		eval 'status_is 0 exec --$alias=$max -- true && [ -s "$POLICY" ]'
	fake_policy
	ok "exec --$alias=$((max + 1)) is out of range: exit 2, nothing written, nothing run" \
		eval 'status_is 2 exec --$alias=$((max + 1)) -- touch "$tmp/ran" && [ ! -s "$POLICY" ] && [ ! -e "$tmp/ran" ] && has_err "0 to $max"'
done
bad_exec() {
	fake_policy
	run "$@"
	[ "$rc" = 2 ] && has_err "usage: wardenctl" && [ ! -s "$OUT" ] &&
		[ ! -s "$POLICY" ]
}
ok "exec without a command: exit 2" bad_exec exec --symlinks=1 --
ok "exec without a rule: exit 2" bad_exec exec -- true
ok "exec with an unknown rule: exit 2" bad_exec exec --links=1 -- true
ok "exec with a level with junk: exit 2" bad_exec exec --ptrace=1x -- true
ok "exec with a negative level: exit 2" bad_exec exec --ptrace=-1 -- true
ok "exec with a rule given twice: exit 2" bad_exec exec --ptrace=1 --ptrace=2 -- true
ok "exec with a rule's alias and name both: exit 2" \
	bad_exec exec --ptrace=1 --ptrace_scope=2 -- true
ok "exec with a prefix of several rules' names: exit 2" \
	bad_exec exec --protected=1 -- true
fake_policy
ok "the twin with a prefix of one rule's name raises that rule" \
	eval 'status_is 0 exec --protected_f=2 -- true && [ "$(cat "$POLICY")" = "protected_fifos=2" ]'
ok "exec with a rule without a level: exit 2" bad_exec exec --ptrace
fake_policy
ok "exec of a command that does not exist exits 127" \
	eval 'status_is 127 exec --ptrace=1 -- "$tmp/no-such-command" && has_err "cannot run $tmp/no-such-command: No such file or directory"'
fake_policy
rm -rf "$ROOT/proc/self"
ok "exec where the policy cannot be written exits 1 and runs nothing" \
	eval 'status_is 1 exec --ptrace=1 -- touch "$tmp/ran" && [ ! -e "$tmp/ran" ] && has_err "cannot raise the policy to ptrace_scope=1: No such file or directory"'
fake_policy
ok "the twin where it can be written runs the command" \
	eval 'status_is 0 exec --ptrace=1 -- touch "$tmp/ran" && [ -e "$tmp/ran" ]'
rm -f "$tmp/ran"
rm -rf "$ROOT/proc"
ok "exec without Warden exits 1" \
	eval 'status_is 1 exec --ptrace=1 -- true && has_err "Warden is not active"'

# explain of protected_symlink_owner: the path is where the link led
symlink_owner_log() {
	cat > "$KMSG" <<'EOF'
5,300,6000000,-;warden: rule=protected_symlink_owner verdict=denied op=follow knob=kernel.warden.protected_symlink_owner allowed_at=0 source=global pid=50 uid=0 fsuid=0 ppid=1 link_uid=1000 target_uid=0 comm="chown" pcomm="sh" path="/root/data"
EOF
}
fake_root
symlink_owner_log
ok "explain: symlink-owner names the link's owner, the target and its owner" \
	eval 'status_is 0 explain && has "follow a symlink owned by uid 1000 to \"/root/data\", owned by uid 0" && ! has "sticky directory"'
ok "explain: symlink-owner names its knob by its alias" \
	has 'wardenctl set symlink-owner 0'
sample_log
ok "explain: the twin, a sticky symlink, names the link, not a target" \
	eval 'status_is 0 explain && has "follow the symlink \"/tmp/backup-report.txt\", owned by uid 1000" && ! has "follow a symlink owned by"'

# explain of protected_sticky_writes: a write without O_CREAT
sticky_writes_log() {
	cat > "$KMSG" <<'EOF'
5,310,6000000,-;warden: rule=protected_sticky_writes verdict=denied op=write knob=kernel.warden.protected_sticky_writes allowed_at=0 source=global pid=51 uid=0 fsuid=0 ppid=1 file_uid=1000 dir_uid=0 dir_mode=1777 comm="rsync" pcomm="sh" path="/tmp/report.txt"
EOF
}
fake_root
sticky_writes_log
ok "explain: writes names the write, the file, its owner and the directory" \
	eval 'status_is 0 explain && has "write to (open for writing, or truncate) \"/tmp/report.txt\", owned by uid 1000" && has "in a sticky directory owned by uid 0, mode 1777" && ! has "O_CREAT"'
ok "explain: writes names its knob by its alias" \
	has 'wardenctl set writes 0'
sample_log
ok "explain: the twin, an O_CREAT reopen, is not called a write" \
	eval 'status_is 0 explain && ! has "write to (open for writing"'

# explain of an exec of a removed setuid file (hard-link rule)
unlinked_exec_log() {
	cat > "$KMSG" <<'EOF'
5,320,6000000,-;warden: rule=protected_nonaccess_hardlinks verdict=denied op=exec knob=kernel.warden.protected_nonaccess_hardlinks allowed_at=0 source=global pid=52 uid=1000 fsuid=1000 ppid=1 file_uid=0 comm="sh" pcomm="sh" path="/usr/bin/vulnerable\x5cx20(deleted)"
EOF
}
fake_root
unlinked_exec_log
ok "explain: op=exec names the removed file and its owner" \
	eval 'status_is 0 explain && has "run with its privileges the removed file \"/usr/bin/vulnerable\\x20(deleted)\", owned by uid 0" && ! has "make a hard link"'

# status --pid: the fake /proc/PID/attr/warden/effective

fake_effective() {
	fake_root
	mkdir -p "$ROOT/proc/42/attr/warden"
	i=0
	for r in $RULES; do
		p=$(( i == 0 ? 2 : i == 4 ? 3 : 0 ))
		e=$(( p > 1 ? p : 1 ))
		echo "rule=$r global=1 process=$p effective=$e" >> "$ROOT/proc/42/attr/warden/effective"
		i=$((i + 1))
	done
}
fake_effective
ok "status --pid exits 0" status_is 0 status --pid 42
ok "status --pid table has a header" \
	eval 'head -n 1 "$OUT" | grep -qE "^RULE +ALIAS +GLOBAL +PROCESS +EFFECTIVE$"'
ok "status --pid shows a raised rule" \
	eval 'grep -qE "^protected_sticky_symlinks +symlinks +1 +2 +2$" "$OUT"'
ok "status --pid shows a rule the process did not raise" \
	eval 'grep -qE "^protected_fifos +fifos +1 +0 +1$" "$OUT"'
ok "status --pid --json is valid JSON" \
	eval 'status_is 0 status --pid 42 --json && python3 -m json.tool "$OUT" > /dev/null'
ok "status --pid --json has the pid and every rule's levels" \
	json_true 'j["pid"] == 42 and [(r["name"], r["global"], r["process"], r["effective"]) for r in j["rules"]] == [("protected_sticky_symlinks", 1, 2, 2), ("protected_nonaccess_hardlinks", 1, 0, 1), ("protected_fifos", 1, 0, 1), ("protected_regular", 1, 0, 1), ("ptrace_scope", 1, 3, 3), ("protected_symlink_owner", 1, 0, 1), ("protected_sticky_writes", 1, 0, 1)]'
ok "status --pid ignores fields it does not know" \
	eval 'sed -i "s/\$/ future=1/" "$ROOT/proc/42/attr/warden/effective" && status_is 0 status --pid 42 --json && json_true "j[\"rules\"][4][\"effective\"] == 3"'
ok "status --pid of no process exits 1 and says so" \
	eval 'status_is 1 status --pid 43 && has_err "No such process" && [ ! -s "$OUT" ]'
sed -i '/ptrace_scope/d' "$ROOT/proc/42/attr/warden/effective"
ok "status --pid with a rule missing exits 1, with null" \
	eval 'status_is 1 status --pid 42 --json && json_true "j[\"rules\"][4][\"effective\"] is None" && has_err "no levels for ptrace_scope"'
ok "status --pid without a number: exit 2" bad_usage status --pid x
ok "status --pid 0: exit 2" bad_usage status --pid 0
ok "status --pid without a value: exit 2" bad_usage status --pid

# explain: a denial by a process's own policy

fake_root
echo '5,1,1,-;warden: rule=protected_sticky_symlinks verdict=denied op=follow knob=kernel.warden.protected_sticky_symlinks allowed_at=0 source=process pid=7 uid=0 fsuid=0 ppid=1 link_uid=1000 dir_uid=0 dir_mode=1777 comm="cat" pcomm="init" path="/tmp/l"' > "$KMSG"
ok "explain: a denial by the process's policy says nothing lowers it" \
	eval 'status_is 0 explain && has "the process'"'"'s own policy refused it" && ! has "wardenctl set symlinks 0"'
echo '5,1,1,-;warden: rule=protected_sticky_symlinks verdict=denied op=follow knob=kernel.warden.protected_sticky_symlinks allowed_at=0 source=global pid=7 uid=0 fsuid=0 ppid=1 link_uid=1000 dir_uid=0 dir_mode=1777 comm="cat" pcomm="init" path="/tmp/l"' > "$KMSG"
ok "explain: the twin by the global level names its sysctl" \
	eval 'status_is 0 explain && has "wardenctl set symlinks 0" && ! has "own policy"'

# Forged lines: a task named "warden: " that segfaults in a binary whose
# name carries the fields gets the kernel to print them, at KERN_INFO, or
# at KERN_EMERG for pid 1 (6.12's arch/x86/mm/fault.c, "%s[%d]: segfault
# at %lx ip %px sp %px error %lx" then " in %pD[%lx,%lx+%lx]"); the fields
# alone at INFO; at NOTICE, the fields then text; a key twice (the "%s=%u"
# of a file report as uid=, or a field added at the end); text stuck to
# the last quote; one user space wrote (facility 1).  None is Warden's,
# nor is a line with text before "warden: "; the twin, the true report at
# NOTICE, is.

fields='rule=protected_regular verdict=denied op=open_creat knob=kernel.warden.protected_regular allowed_at=0 source=global pid=1 uid=0 fsuid=0 ppid=1 file_uid=0 comm="x" pcomm="y" path="/etc/shadow"'
segv="6,123,456,-;warden: [1234]: segfault at 0 ip 0000000000401745 sp 00007ffd2b1c3e40 error 6 in $fields[1745,401000+79000] likely on CPU 0 (core 0, socket 0)"
segv_init="0,124,457,-;warden: [1]: segfault at 0 ip 0000000000401745 sp 00007ffd2b1c3e40 error 6 in $fields[1745,401000+79000] likely on CPU 1 (core 1, socket 0)"
segv_shape="6,125,458,-;warden: $fields"
near="5,126,459,-;warden: $fields [1745,401000+79000]"
user="12,127,460,-;warden: $fields"
dup_owner="5,128,461,-;warden: ${fields%% file_uid=*} uid=0 comm=\"x\" pcomm=\"y\" path=\"/etc/shadow\""
dup_end="5,129,462,-;warden: $fields comm=\"z\""
stuck="5,130,463,-;warden: $fields/x"
before="5,131,464,-;kernel: warden: $fields"
real='5,132,465,-;warden: rule=protected_regular verdict=denied op=open_creat knob=kernel.warden.protected_regular allowed_at=0 source=global pid=9 uid=0 fsuid=0 ppid=1 file_uid=1000 dir_uid=0 dir_mode=1777 comm="x" pcomm="y" path="/tmp/real"'
forged_log() {
	fake_root
	printf '%s\n' "$segv" "$segv_init" "$segv_shape" "$near" "$user" \
		"$dup_owner" "$dup_end" "$stuck" "$before" > "$KMSG"
}
forged_log
ok "explain of forged lines: no denial, no advice to switch a rule off" \
	eval 'status_is 0 explain && has "No Warden denial" && ! has "set kernel.warden" && ! has "sysctl kernel.warden" && ! has "wardenctl set" && ! has shadow'
ok "explain of forged lines: the eight that start as Warden's are counted as skipped" \
	has 'Skipped 8 lines that read like Warden'"'"'s but are not (see wardenctl(8)).'
ok "explain --json of forged lines: no denial, eight skipped" \
	eval 'status_is 0 explain --json && json_true "j[\"denials\"] == [] and j[\"settings\"] == [] and j[\"skipped\"] == 8"'
ok "watch of forged lines prints nothing, and names each on stderr" \
	eval 'status_is 0 watch --all && [ ! -s "$OUT" ] && [ "$(grep -c "reads like Warden" "$ERR")" = 8 ] && has_err "(seq 123)" && has_err "(seq 130)" && ! has_err "(seq 131)" && ! grep -q shadow "$ERR"'
ok "watch --audit of forged lines prints nothing either" \
	eval 'status_is 0 watch --all --audit && [ ! -s "$OUT" ]'
echo "$real" >> "$KMSG"
ok "the twin: the true report at NOTICE is explained, the forged ones still not" \
	eval 'status_is 0 explain && has "[1/1] protected_regular: denied" && has "\"/tmp/real\"" && ! has shadow && has "Skipped 8 lines"'
ok "the twin: explain --json has it, and only it" \
	eval 'status_is 0 explain --json && json_true "len(j[\"denials\"]) == 1 and j[\"denials\"][0][\"fields\"][\"path\"] == \"/tmp/real\" and j[\"skipped\"] == 8"'
ok "the twin: watch prints it, and only it" \
	eval 'status_is 0 watch --all && [ "$(cat "$OUT")" = "${real#*;}" ]'

# Warden's complaints about a boot parameter, at ERR, are Warden's: not
# skipped, and they explain nothing.  The twins: the same written by user
# space (facility 1, 11), at NOTICE, or with text after the last quote.

param_bad="warden: \`x y' invalid for parameter \`warden.ptrace_scope'"
param_unknown="warden: unknown parameter \`warden.foo'"
fake_root
printf '3,1,0,-;%s\n3,2,0,-;%s\n' "$param_bad" "$param_unknown" > "$KMSG"
ok "explain: Warden's complaints about a boot parameter are not skipped, nor explained" \
	eval 'status_is 0 explain && ! has Skipped && has "No Warden denial" && has "No change of a Warden setting"'
ok "watch: they are printed as Warden's, with no warning" \
	eval 'status_is 0 watch --all && [ "$(cat "$OUT")" = "$(printf "%s\n%s" "$param_bad" "$param_unknown")" ] && [ ! -s "$ERR" ]'
printf '11,1,0,-;%s\n5,2,0,-;%s\n3,3,0,-;%s x\n' "$param_bad" "$param_unknown" "$param_bad" > "$KMSG"
ok "explain: the twins, by user space, at NOTICE, or with text after, are skipped" \
	eval 'status_is 0 explain && has "Skipped 3 lines"'
ok "watch: the twins are not printed, but warned of" \
	eval 'status_is 0 watch --all && [ ! -s "$OUT" ] && [ "$(grep -c "reads like Warden" "$ERR")" = 3 ]'

# Forged audit records: a record at another level, one whose lsm=warden
# is not in its place, and one of another type; the twin is the kernel's.
audit_ptrace='5,10,0,-;audit: type=1430 audit(1700000000.007:9): lsm=warden rule=ptrace_scope op=attach res=0 permissive=0 allowed_at=1 source=global scope=2 pid=40 uid=1000 auid=1000 ses=2 comm="gdb" opid=7 ocomm="sshd"'
audit_file='5,11,0,-;audit: type=1430 audit(1700000000.008:10): lsm=warden rule=protected_regular op=open_creat res=1 permissive=1 allowed_at=0 source=global ppid=1 pid=36 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm="cp" exe="/usr/bin/cp" path="/tmp/f" ouid=1000 dir_uid=0 dir_mode=1777'
audit_setting='5,12,0,-;audit: type=1431 audit(1700000000.009:11): lsm=warden op=set setting=kernel.warden.lock old="0" new="1" via=sysctl ppid=1 pid=300 auid=1000 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=pts0 ses=3 comm="sysctl" exe="/usr/sbin/sysctl" res=1'
fake_root
printf '%s\n' \
	"6,1,0,-;${audit_ptrace#*;}" \
	'5,2,0,-;audit: type=1400 audit(1700000000.002:2): apparmor="DENIED" operation="open" name="/tmp/x" lsm=warden rule=ptrace_scope op=attach' \
	'5,3,0,-;audit: type=1107 audit(1700000000.003:3): pid=1 uid=0 msg='"'"'lsm=warden op=set setting=kernel.warden.lock old="1" new="0"'"'"'' \
	"13,4,0,-;${audit_ptrace#*;}" \
	> "$KMSG"
ok "watch --audit prints no audit record out of Warden's shape or level" \
	eval 'status_is 0 watch --all --audit && [ ! -s "$OUT" ] && [ "$(grep -c "reads like Warden" "$ERR")" = 4 ]'
echo "$audit_ptrace" >> "$KMSG"
ok "the twin: the kernel's record of Warden's is printed" \
	eval 'status_is 0 watch --all --audit && [ "$(cat "$OUT")" = "${audit_ptrace#*;}" ]'

# Warden's records as the kernel wrote them before they had types of
# their own: an ANOM_LINK (1702) of a file rule, an AVC (1400) of a file
# rule and of ptrace_scope, a MAC_CONFIG_CHANGE (1405), with mode=.  They
# are no longer Warden's shapes: each is skipped, and warned of.
fake_root
printf '%s\n' \
	'5,1,0,-;audit: type=1702 audit(1700000000.001:1): lsm=warden op=follow_link rule=protected_sticky_symlinks mode=enforce allowed_at=0 source=global ppid=1 pid=35 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=4294967295 comm="demo.sh" exe="/bin/busybox" path="/tmp/l" link_uid=1000 res=0' \
	'5,2,0,-;audit: type=1400 audit(1700000000.002:2): avc:  denied  { open_creat } for  pid=36 comm=6170702A6A6F62 path="/tmp/f" lsm=warden op=sticky_create_regular rule=protected_regular mode=complain allowed_at=0 source=global file_uid=1000 uid=0 auid=0 ses=1 tclass=file permissive=1' \
	'5,3,0,-;audit: type=1400 audit(1700000000.003:3): avc:  denied  { ptrace_attach } for  pid=40 comm="gdb" opid=7 ocomm="sshd" lsm=warden op=ptrace_attach rule=ptrace_scope mode=enforce scope=2 allowed_at=1 source=global uid=1000 auid=1000 ses=2 tclass=process permissive=0' \
	'5,4,0,-;audit: type=1405 audit(1700000000.004:4): lsm=warden op=set setting=kernel.warden.protected_regular old="1" new="0" via=sysctl ppid=1 pid=300 auid=1000 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=pts0 ses=3 comm="bash" exe="/usr/bin/bash" res=1' \
	> "$KMSG"
ok "watch --audit: Warden's old ANOM_LINK, AVC and MAC_CONFIG_CHANGE records are skipped, each warned of" \
	eval 'status_is 0 watch --all --audit && [ ! -s "$OUT" ] && [ "$(grep -c "reads like Warden" "$ERR")" = 4 ] && has_err "(seq 1)" && has_err "(seq 4)"'
ok "explain does not count audit records as skipped lines" \
	eval 'status_is 0 explain && ! has Skipped'

# The new fields under an old type, or the type as auditd spells it (the
# kernel prints the number), or with a field of the old shapes: skipped.
fake_root
printf '%s\n' \
	"5,1,0,-;audit: type=1400 ${audit_ptrace#*type=1430 }" \
	"5,2,0,-;audit: type=1702 ${audit_file#*type=1430 }" \
	"5,3,0,-;audit: type=1405 ${audit_setting#*type=1431 }" \
	"5,4,0,-;audit: type=UNKNOWN[1430] ${audit_file#*type=1430 }" \
	"5,5,0,-;${audit_file#*;} mode=complain" \
	"5,6,0,-;$(echo "${audit_file#*;}" | sed 's/ ouid=/ file_uid=/')" \
	"5,7,0,-;$(echo "${audit_ptrace#*;}" | sed 's/ op=attach / op=ptrace_attach mode=enforce /')" \
	> "$KMSG"
ok "watch --audit: Warden's fields under another type, or in the old field names, are skipped" \
	eval 'status_is 0 watch --all --audit && [ ! -s "$OUT" ] && [ "$(grep -c "reads like Warden" "$ERR")" = 7 ]'

# In Warden's shape, but not what the kernel writes: a res= that is not
# the permissive=, a res= other than 0 or 1, a file rule's record of
# ptrace_scope, and a key twice (in a subj= label).
fake_root
printf '%s\n' \
	"5,1,0,-;$(echo "${audit_ptrace#*;}" | sed 's/ permissive=0 / permissive=1 /')" \
	"5,2,0,-;$(echo "${audit_file#*;}" | sed 's/ res=1 permissive=1 / res=2 permissive=2 /')" \
	"5,3,0,-;$(echo "${audit_file#*;}" | sed 's/ rule=protected_regular / rule=ptrace_scope /')" \
	"5,4,0,-;$(echo "${audit_file#*;}" | sed 's/ exe="\/usr\/bin\/cp" / exe="\/usr\/bin\/cp" subj=x ouid=0 /')" \
	> "$KMSG"
ok "watch --audit: a record in Warden's shape that the kernel cannot write is skipped" \
	eval 'status_is 0 watch --all --audit && [ ! -s "$OUT" ] && [ "$(grep -c "reads like Warden" "$ERR")" = 4 ]'
printf '%s\n' "$audit_file" "$audit_ptrace" "$audit_setting" >> "$KMSG"
ok "the twins: the kernel's records of a file rule, ptrace_scope and a setting are printed, and only they" \
	eval 'status_is 0 watch --all --audit && [ "$(cat "$OUT")" = "$(printf "%s\n%s\n%s" "${audit_file#*;}" "${audit_ptrace#*;}" "${audit_setting#*;}")" ] && [ "$(grep -c "reads like Warden" "$ERR")" = 4 ]'

# The man page

man_page=$(dirname "$0")/../wardenctl.8
if command -v groff > /dev/null && [ -f "$man_page" ]; then
	ok "the man page renders without a groff warning" \
		eval '[ -z "$(groff -man -ww -z "$man_page" 2>&1)" ]'
else
	n=$((n + 1))
	echo "ok $n - the man page renders without a groff warning # SKIP no groff or no wardenctl.8"
fi

[ "$failed" = 0 ] && echo "# $n passed" || echo "# $failed of $n failed"
tap_done
