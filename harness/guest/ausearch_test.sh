#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Warden's audit records, read with the audit tools a distribution ships
# (Debian 12's ausearch and aureport, from harness/deps.sh), as an
# administrator reads them: by type, by pid and by command.  Needs
# audit=1.  With no audit daemon, the kernel prints each record in its
# log: they are turned back into the lines auditd would have written.
# Warden's types are its own, AUDIT_WARDEN_ACCESS (1430) for every
# refusal and AUDIT_WARDEN_CONFIG_CHANGE (1431) for a change of a
# setting, which the audit tools have no name for: auditd writes them
# UNKNOWN[1430] and UNKNOWN[1431], and ausearch -m takes the number.
# Every search that must find a record has its twin that must not.
SYS=/proc/sys/kernel/warden
DIR=/tmp/ausearch
LOG=/tmp/ausearch.log
OUT=/tmp/ausearch.out
ERR=/tmp/ausearch.err
. /warden/tap.sh
TAP_PREFIX=ausearch.

saved=
for k in protected_sticky_symlinks protected_nonaccess_hardlinks \
	 protected_regular ptrace_scope; do
	saved="$saved $SYS/$k=$(cat $SYS/$k)"
	echo 1 > $SYS/$k
done
for k in protected_symlinks protected_hardlinks protected_regular; do
	saved="$saved /proc/sys/fs/$k=$(cat /proc/sys/fs/$k)"
	echo 0 > /proc/sys/fs/$k
done

rm -rf $DIR
mkdir -m 1777 $DIR
echo secret > $DIR/target
ln -s $DIR/target $DIR/planted
chown -h 1001:1001 $DIR/planted
echo data > $DIR/pinned
chown 1001:1001 $DIR/pinned
chmod 600 $DIR/pinned
echo old > $DIR/precreated
chown 1001:1001 $DIR/precreated

# Without an audit daemon, the kernel prints the records with
# printk_ratelimit(), at most 10 every 5 seconds, and each record below
# comes with its SYSCALL and PROCTITLE records: let the 15 through, in a
# window of their own.
saved="$saved /proc/sys/kernel/printk_ratelimit_burst=$(cat /proc/sys/kernel/printk_ratelimit_burst)"
echo 100 > /proc/sys/kernel/printk_ratelimit_burst
sleep 6

# Runs "sh -c CMD" as uid 1000 in the background: its pid in $pid.
as_attacker() {
	su -s /bin/sh attacker -c "exec $1" > /dev/null 2>&1 &
	pid=$!
	wait $pid
}

as_attacker "cat $DIR/planted"
follow_pid=$pid
as_attacker "ln $DIR/pinned $DIR/pin"
link_pid=$pid
sh -c "exec sh -c 'echo more >> $DIR/precreated'" 2> /dev/null &
creat_pid=$!
wait $creat_pid
# A sibling's memory: ptrace_scope 2 refuses it.  Scope 1 would too, but
# with no audit rule loaded writes no record of a refusal between two
# processes of one uid, which is harmless by construction.
echo 2 > $SYS/ptrace_scope
su -s /bin/sh attacker -c 'exec sleep 30' &
victim=$!
sleep 1
as_attacker "cat /proc/$victim/mem"
ptrace_pid=$pid
kill $victim 2> /dev/null
echo 1 > $SYS/ptrace_scope
echo 2 > $SYS/protected_regular

# "audit: type=1430 audit(1.2:3): ..." -> "type=UNKNOWN[1430] msg=audit(1.2:3): ...",
# as auditd writes a type it has no name for; the others (SYSCALL,
# PROCTITLE) stay numbers, which ausearch reads as well.
sleep 1
dmesg | sed -n 's/^.*audit: type=\([0-9]*\) \(audit([0-9.:]*)\): /type=\1 msg=\2: /p' |
	sed -e 's/^type=1430 /type=UNKNOWN[1430] /' \
	    -e 's/^type=1431 /type=UNKNOWN[1431] /' > $LOG

search() {	# search ARGS...: ausearch over $LOG, the records in $OUT
	ausearch -if $LOG "$@" > $OUT 2> $ERR
}

found() {	# found ARGS...: ausearch finds a record, with lsm=warden
	search "$@" && grep -q ' lsm=warden ' $OUT
}

none() {	# none ARGS...: ausearch finds nothing
	! search "$@" && grep -q '<no matches>' $ERR
}

warden_record() {	# warden_record TYPE: Warden's record of that type in $OUT, raw or -i
	grep -E "^type=UNKNOWN\[$1\] msg=audit\(.*\) ?: lsm=warden " $OUT
}

# audit 3.0.9 reads no pid or comm in a record of a type it does not
# know: the SYSCALL record of the same event has them.
ok follow.by_type_and_pid found -m 1430 -p $follow_pid
ok follow.names_the_rule grep -q 'rule=protected_sticky_symlinks op=follow res=0 permissive=0 ' $OUT
ok follow.by_command found -m 1430 -c cat -p $follow_pid
ok follow.other_pid_twin none -m 1430 -p 1
ok follow.other_type_twin none -m 1431 -p $follow_pid
ok follow.old_type_twin none -m ANOM_LINK -p $follow_pid
ok follow.raw_owner_is_uid eval 'search -m 1430 -p $follow_pid && warden_record 1430 | grep -q " ouid=1001 "'
# ausearch -i interprets the dictionary's fields: ouid= is a uid, the
# planted link's owner, victim (harness/guest/passwd); permissive= is
# written as it is, and no mode= is left for auparse to read as a file
# mode.
ok follow.interpreted_owner_is_victim eval 'search -i -m 1430 -p $follow_pid && warden_record 1430 > $OUT.rec && grep -q " ouid=victim " $OUT.rec && ! grep -q " ouid=1001 " $OUT.rec'
ok follow.interpreted_permissive_0_no_mode eval 'grep -q " permissive=0 " $OUT.rec && ! grep -q " mode=" $OUT.rec'
ok link.by_type_and_pid found -m 1430 -p $link_pid
ok link.names_the_rule grep -q 'rule=protected_nonaccess_hardlinks op=link ' $OUT
ok link.other_command_twin none -m 1430 -c cat -p $link_pid
ok creat.by_type_and_pid found -m 1430 -p $creat_pid
ok creat.names_the_rule grep -q 'rule=protected_regular op=open_creat ' $OUT
ok creat.by_command found -m 1430 -c sh -p $creat_pid
ok creat.other_type_twin none -m 1431 -p $creat_pid
ok ptrace.by_type_and_pid found -m 1430 -p $ptrace_pid
ok ptrace.names_the_rule grep -q 'rule=ptrace_scope op=attach res=0 permissive=0 ' $OUT
ok ptrace.by_command found -m 1430 -c cat -p $ptrace_pid
ok ptrace.other_command_twin none -m 1430 -c gdb
ok ptrace.old_type_twin none -m AVC -p $ptrace_pid
ok config.by_type found -m 1431
ok config.old_and_new grep -q 'setting=kernel.warden.protected_regular old="1" new="2" via=sysctl' $OUT
ok config.by_pid_and_command found -m 1431 -p $$ -c sh
ok config.other_pid_twin none -m 1431 -p 1
ok config.other_auid_twin none -m 1431 -ul 0
ok config.other_type_twin none -m 1430 -p $$
ok config.old_type_twin none -m MAC_CONFIG_CHANGE -p $$

# aureport: --avc and --config list neither type (they are not SELinux's
# AVC nor in the MAC range); the event report lists every event, with
# the type of its first record, Warden's.  audit 3.0.9 prints that
# type with audit_msg_type_to_name(), which has no name for 1430 or 1431:
# "(null)" from glibc, where a later version may print UNKNOWN[1430] or
# the number.  To be confirmed at the first boot; the line is found by
# the event's serial, and the twin, the same log without Warden's
# records, has that event listed under its SYSCALL record's type.
serial() {	# serial TYPE ARGS...: the serial of Warden's record ausearch finds
	t=$1
	shift
	search -m $t "$@" && warden_record $t |
		sed -n 's/^type=[^ ]* msg=audit([0-9.]*:\([0-9]*\)): .*/\1/p' | tail -n 1
}
follow_serial=$(serial 1430 -p $follow_pid)
config_serial=$(search -m 1431 && grep 'setting=kernel.warden.protected_regular old="1" new="2" via=sysctl' $OUT |
	sed -n 's/^type=[^ ]* msg=audit([0-9.]*:\([0-9]*\)): .*/\1/p' | tail -n 1)
echo "# serials: follow ${follow_serial:-none}, config ${config_serial:-none}"
event_type() {	# event_type SERIAL TYPES: aureport -e's line of that event names one of TYPES (an ERE)
	[ -n "$1" ] && grep -Eq "^[0-9]+\. [^ ]+ [^ ]+ $1 ($2) " $OUT
}
ok aureport.event_lists_the_refusal eval \
	'aureport -if $LOG -e -i > $OUT 2> $ERR && event_type "$follow_serial" "UNKNOWN\[1430\]|1430|\(null\)"'
ok aureport.event_lists_the_change \
	event_type "$config_serial" 'UNKNOWN\[1431\]|1431|\(null\)'
ok aureport.event_twin_without_the_record eval \
	'grep -v "^type=UNKNOWN\[143[01]\] " $LOG > $LOG.without && aureport -if $LOG.without -e -i > $OUT 2> $ERR && event_type "$follow_serial" SYSCALL && ! event_type "$follow_serial" "UNKNOWN\[1430\]|1430|\(null\)"'

for kv in $saved; do
	echo "${kv#*=}" > "${kv%%=*}"
done
rm -rf $DIR $LOG.without $OUT.rec
tap_done
