#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Warden's audit records, read with the audit tools a distribution ships
# (Debian 12's ausearch and aureport, from harness/deps.sh), as an
# administrator reads them: by type, by pid and by command.  Needs
# audit=1.  With no audit daemon, the kernel prints each record in its
# log: they are turned back into the lines auditd would have written.
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

# "audit: type=1702 audit(1.2:3): ..." -> "type=ANOM_LINK msg=audit(1.2:3): ..."
sleep 1
dmesg | sed -n 's/^.*audit: type=\([0-9]*\) \(audit([0-9.:]*)\): /type=\1 msg=\2: /p' |
	sed -e 's/^type=1702 /type=ANOM_LINK /' -e 's/^type=1400 /type=AVC /' \
	    -e 's/^type=1405 /type=MAC_CONFIG_CHANGE /' > $LOG

search() {	# search ARGS...: ausearch over $LOG, the records in $OUT
	ausearch -if $LOG "$@" > $OUT 2> $ERR
}

found() {	# found ARGS...: ausearch finds a record, with lsm=warden
	search "$@" && grep -q ' lsm=warden ' $OUT
}

none() {	# none ARGS...: ausearch finds nothing
	! search "$@" && grep -q '<no matches>' $ERR
}

ok follow.by_type_and_pid found -m ANOM_LINK -p $follow_pid
ok follow.by_command found -m ANOM_LINK -c cat -p $follow_pid
ok follow.other_pid_twin none -m ANOM_LINK -p 1
ok link.by_type_and_pid found -m ANOM_LINK -p $link_pid
ok link.names_the_rule grep -q 'rule=protected_nonaccess_hardlinks' $OUT
ok link.other_command_twin none -m ANOM_LINK -c cat -p $link_pid
ok creat.by_type_and_pid found -m AVC -p $creat_pid
ok creat.names_the_rule grep -q 'rule=protected_regular' $OUT
ok creat.by_command found -m AVC -c sh -p $creat_pid
ok creat.other_type_twin none -m ANOM_LINK -p $creat_pid
ok ptrace.by_type_and_pid found -m AVC -p $ptrace_pid
ok ptrace.names_the_rule grep -q 'rule=ptrace_scope' $OUT
ok ptrace.by_command found -m AVC -c cat -p $ptrace_pid
ok ptrace.other_command_twin none -m AVC -c gdb
ok config.by_type found -m MAC_CONFIG_CHANGE
ok config.old_and_new grep -q 'setting=kernel.warden.protected_regular old="1" new="2" via=sysctl' $OUT
# audit 3.0.9 reads no pid or comm in the record itself: the SYSCALL
# record of the same event has them.
ok config.by_pid_and_command found -m MAC_CONFIG_CHANGE -p $$ -c sh
ok config.other_pid_twin none -m MAC_CONFIG_CHANGE -p 1
ok config.other_auid_twin none -m MAC_CONFIG_CHANGE -ul 0
ok aureport.avc_lists_both eval \
	'aureport -if $LOG --avc > $OUT 2> $ERR && grep -q " process ptrace_attach " $OUT && grep -q " file open_creat " $OUT'
ok aureport.config_lists_the_change eval \
	'aureport -if $LOG --config > $OUT 2> $ERR && grep -q " MAC_CONFIG_CHANGE " $OUT'

for kv in $saved; do
	echo "${kv#*=}" > "${kv%%=*}"
done
rm -rf $DIR
tap_done
