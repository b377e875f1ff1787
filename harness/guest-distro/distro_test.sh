#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The check-all boot "distro": Warden on Debian 13 with systemd, beside
# AppArmor (enforcing Debian's profiles), Landlock, Yama, TOMOYO,
# lockdown and SELinux (built, not enabled: AppArmor is the exclusive
# LSM), run as `harness/vm.sh /warden/distro_test.sh` once the system is
# up.  In one boot:
#
# 1. The system: multi-user reached with no failed unit, the LSMs in
#    Debian's order with Warden first, AppArmor enforcing, auditd up,
#    99-warden.conf applied after procps's 99-protect-links.conf.
# 2. Level 1 everywhere, enforcing, mainline's checks and Yama off: the
#    workload (workload.sh) as root, alice and bob passes and Warden
#    refuses nothing: no count, no report.  Then each rule's denied twin:
#    the demo's attacks, refused and counted once each.
# 3. Every rule at its strictest (2/1/2/2, ptrace_scope 1), complain
#    mode: the workload again; every would_deny is listed ("# would_deny:"
#    lines) and must be one of expected-would-deny, the table of
#    warden.rst ("Warden on Debian").  Then enforcing: the attacks,
#    in a sticky group-writable folder too, refused; ausearch finds the
#    records; journalctl -k and wardenctl explain read the same reports.
# 4. Landlock: the tree's sandboxer confines a shell, under wardenctl exec.
# 5. protected_symlink_owner and protected_sticky_writes: root's jobs
#    (a script, chown -R -L, cp, rsync --inplace) through bob's link in
#    his own folder, and onto his file in /tmp, refused in 2. and 3. and
#    doing their damage with both rules off.
# 6. A flood of harmless ptrace refusals by bob, auditd at -f 1: no record
#    lost, none written for them without an audit rule (one with), and
#    root's refusal after it found by ausearch.
. /warden/tap.sh
TAP_PREFIX=distro.
export PATH=/warden/bin:$PATH
K=/proc/sys/kernel/warden
OUT=/tmp/distro.out ERR=/tmp/distro.err
RULES="protected_sticky_symlinks protected_nonaccess_hardlinks protected_fifos protected_regular ptrace_scope protected_symlink_owner protected_sticky_writes"

q() { "$@" > $OUT 2> $ERR; }

count() {	# count RULE denied|would_deny
	sed -n "s/^rule=$1 .*$2=\([0-9]*\).*/\1/p" /sys/kernel/security/warden/counters
}

total() {	# total denied|would_deny: over every rule
	local r s=0
	for r in $RULES; do s=$((s + $(count $r $1))); done
	echo $s
}

cursor() {
	journalctl -k -n 0 --show-cursor -q | sed -n 's/^-- cursor: //p'
}

reports_since() {	# reports_since [CURSOR]: Warden's reports in the kernel log since
	journalctl -k -b -o cat -q --no-pager ${1:+--after-cursor="$1"} |
		grep -E '^warden: rule=.* (verdict|suppressed)='
}

levels() {	# levels SYMLINKS HARDLINKS FIFOS REGULAR PTRACE OWNER WRITES COMPLAIN
	local r v=("$1" "$2" "$3" "$4" "$5" "$6" "$7") i=0
	for r in $RULES; do
		echo "${v[$i]}" > $K/$r
		echo "$8" > $K/${r}_complain
		i=$((i + 1))
	done
}

as() {	# as USER COMMAND: a login shell of USER runs COMMAND
	su -l "$1" -c "$2"
}

workload() {	# workload TAG: as root, alice and bob
	local u
	/warden/workload.sh "$1"
	for u in alice bob; do
		as $u "/warden/workload.sh $1"
	done
}

# --- 1. The system.
state=$(systemctl is-system-running)
echo "# system: $state; lsm: $(cat /sys/kernel/security/lsm)"
ok reached_multi_user_no_failed_unit eval '[ "$state" = running ] || { systemctl --failed --no-pager; false; }'
ok multi_user_target_active systemctl -q is-active multi-user.target
ok lsm_order_debian_warden_first \
	[ "$(cat /sys/kernel/security/lsm)" = capability,warden,landlock,lockdown,yama,apparmor,tomoyo ]
profiles=$(grep -c '(enforce)' /sys/kernel/security/apparmor/profiles)
echo "# apparmor: $profiles profiles in enforce mode: $(sed -n 's/ (enforce)//p' /sys/kernel/security/apparmor/profiles | sort | xargs)"
ok apparmor_enforces_debian_profiles [ "$profiles" -gt 0 ]
ok apparmor_confines_man eval 'man -w ls >/dev/null && grep -q "^/usr/bin/man (enforce)" /sys/kernel/security/apparmor/profiles'
ok apparmor_man_filter_refuses_a_write eval '! aa-exec -p man_filter -- touch /root/aa-x 2>/dev/null &&
	grep -q "apparmor=\"DENIED\".*profile=\"man_filter\"" /var/log/audit/audit.log'
ok apparmor_unconfined_writes eval 'touch /root/aa-x'
echo "# apparmor label under aa-exec: $(aa-exec -p man_filter -- cat /proc/self/attr/apparmor/current 2>&1)"
# With Warden first in lsm=, the legacy /proc/PID/attr files (current,
# exec...) go to Warden, the first LSM with attribute hooks, not AppArmor.
echo "# legacy /proc/self/attr/current: $(cat /proc/self/attr/current 2>&1)"
ok auditd_active systemctl -q is-active auditd
ok sshd_active systemctl -q is-active ssh
ok sysctl_d_warden_after_protect_links eval '
	for k in symlinks hardlinks fifos regular; do [ "$(sysctl -n fs.protected_$k)" = 0 ] || exit 1; done
	grep -E "^kernel\.warden\." /etc/sysctl.d/99-warden.conf | tr -d " " | while IFS== read -r k v; do
		[ "$(sysctl -n "$k")" = "$v" ] || { echo "$k=$(sysctl -n "$k"), want $v"; exit 1; }
	done'
# check-all boots with every rule at its Kconfig default, and
# 99-warden.conf leaves the two past mainline as they are:
# protected_sticky_writes at 1, enforcing; protected_symlink_owner at 0
# (warden.rst, "Warden on Debian").  The system came up under them.
echo "# from boot: protected_symlink_owner=$(cat $K/protected_symlink_owner) protected_sticky_writes=$(cat $K/protected_sticky_writes)"
ok boot_defaults_past_mainline eval '[ "$(cat $K/protected_symlink_owner)$(cat $K/protected_sticky_writes)" = 01 ] &&
	[ "$(cat $K/protected_symlink_owner_complain)$(cat $K/protected_sticky_writes_complain)" = 00 ]'
ok boot_nothing_denied [ "$(total denied)" = 0 ]
boot_would=$(reports_since "" | grep -c 'verdict=would_deny')
echo "# boot with 99-warden.conf (strict, complain): $boot_would would_deny reports"
reports_since "" | grep 'verdict=would_deny' |
	sed -E 's/^warden: (rule=[^ ]*) .*(comm="[^"]*") (pcomm="[^"]*") (path="[^"]*").*/# would_deny at boot: \1 \2 \3 \4/' | sort | uniq -c

# Users: ssh keys, a cron job each.
for u in root alice bob; do
	h=$(getent passwd $u | cut -d: -f6)
	su -s /bin/sh $u -c "mkdir -p -m 700 $h/.ssh && ssh-keygen -q -t ed25519 -N '' -f $h/.ssh/id_ed25519 &&
		cp $h/.ssh/id_ed25519.pub $h/.ssh/authorized_keys"
done
echo '* * * * * root date >> /tmp/wl-cron-root.log' > /etc/cron.d/warden-wl
echo '* * * * * date >> /tmp/wl-cron-alice.log' | crontab -u alice -

# --- 2. Level 1, enforcing, mainline's checks off.
sysctl -q -w kernel.yama.ptrace_scope=0
levels 1 1 1 1 1 1 1 0
c=$(cursor)
before=$(total denied)
workload level1
ok level1_nothing_denied [ "$(total denied)" = "$before" ]
ok level1_nothing_reported eval '! reports_since "$c" | sed "s/^/# /" | grep .'

# The denied twins: the demo's attacks by bob, with the real programs.
plant() {	# plant: bob's link, FIFO and world-writable file in /tmp
	rm -rf /tmp/report.txt /tmp/pipe /tmp/app.log /var/tmp/bob-shadow /tmp/bob-app
	# A root-only file stands for /etc/shadow: a kernel that lets the
	# attack through must not break the system's logins.
	echo 'root:$y$j9T$secret-hash:19700:0:99999:7:::' > /root/victim
	chmod 600 /root/victim
	# And a folder of root's in /etc for the whole of /etc: bob's folder
	# in /tmp holds a link to it where a root job expects a folder.
	rm -rf /etc/warden-victim && mkdir -m 755 /etc/warden-victim
	echo 'root-config' > /etc/warden-victim/conf
	as bob 'ln -s /root/victim /tmp/report.txt; mkfifo -m 666 /tmp/pipe; echo bob-data > /tmp/app.log; chmod 666 /tmp/app.log
		mkdir -m 755 /tmp/bob-app && ln -s /etc/warden-victim /tmp/bob-app/cache'
}
# Root's jobs on bob's folder /tmp/bob-app (CVE-2018-6954's shape: a
# script, chown -R -L, cp) and rsync --inplace onto bob's /tmp/app.log:
# each fails when the rules refuse, and changes /etc or the file when not.
job_script() { sh -c 'echo generated > /tmp/bob-app/cache/out' 2>&1; }
job_chown() { chown -R -L bob /tmp/bob-app 2>&1; }
job_cp() { cp /etc/hostname /tmp/bob-app/cache/ 2>&1; }
job_rsync() { rsync --inplace /usr/share/doc/bash/copyright /tmp/app.log 2>&1; }
victim_untouched() {
	[ ! -e /etc/warden-victim/out ] && [ ! -e /etc/warden-victim/hostname ] &&
		[ "$(stat -c %U /etc/warden-victim/conf)" = root ]
}
attacks() {	# attacks TAG: each attack, refused and counted once
	local r
	plant
	for r in $RULES; do eval "n_$r=$(count $r denied)"; done
	ok "$1.symlink_to_root_file_refused" eval 'sh -c "echo report > /tmp/report.txt" 2>&1 | grep -q "Permission denied" && grep -q secret-hash /root/victim'
	# /var/tmp, not /tmp: Debian 13's /tmp is a tmpfs, where a link to
	# /etc/shadow fails with EXDEV whatever Warden says.
	ok "$1.hardlink_to_shadow_refused" eval 'as bob "ln /etc/shadow /var/tmp/bob-shadow" 2>&1 | grep -q "Operation not permitted"; r=$?; rm -f /var/tmp/bob-shadow; [ $r = 0 ]'
	ok "$1.planted_fifo_refused" eval 'timeout 5 sh -c "echo secret > /tmp/pipe" 2>&1 | grep -q "Permission denied"'
	ok "$1.planted_file_refused" eval 'sh -c "echo password=hunter2 >> /tmp/app.log" 2>&1 | grep -q "Permission denied" && [ "$(cat /tmp/app.log)" = bob-data ]'
	ok "$1.gdb_attach_to_sibling_refused" as bob 'sleep 20 & p=$!; gdb -q -batch -p $p -ex detach > /tmp/gdb-bob.out 2>&1; kill $p; grep -q "Operation not permitted" /tmp/gdb-bob.out'
	ok "$1.root_script_through_user_link_refused" eval 'job_script | grep -q "Permission denied" && victim_untouched'
	ok "$1.root_chown_R_L_through_user_link_refused" eval '! job_chown >/dev/null && victim_untouched'
	ok "$1.root_cp_through_user_link_refused" eval 'job_cp | grep -q "Permission denied" && victim_untouched'
	ok "$1.root_chown_R_of_user_folder_allowed" eval 'chown -R bob /tmp/bob-app && victim_untouched'
	ok "$1.rsync_inplace_onto_planted_file_refused" eval '! job_rsync >/dev/null && [ "$(cat /tmp/app.log)" = bob-data ]'
	ok "$1.truncate_no_create_of_planted_file_refused" eval 'truncate -c -s 0 /tmp/app.log 2>&1 | grep -q "Permission denied" && [ "$(cat /tmp/app.log)" = bob-data ]'
	ok "$1.rsync_inplace_onto_own_file_allowed" eval 'rm -f /tmp/root-copy && rsync --inplace /usr/share/doc/bash/copyright /tmp/root-copy && cmp -s /usr/share/doc/bash/copyright /tmp/root-copy && rm /tmp/root-copy'
	for r in $RULES; do
		ok "$1.$r.counted" eval "[ \$(($(count $r denied) - n_$r)) -ge 1 ]"
	done
}
c=$(cursor)
attacks level1
reports_since "$c" | grep -q 'verdict=denied' ; ok level1.attacks_reported [ $? = 0 ]

# --- 3. The strictest levels, complain mode.
levels 2 1 2 2 1 1 2 1
c=$(cursor)
before=$(total denied)
wbefore=$(total would_deny)
workload strict
for i in $(seq 90); do
	[ -s /tmp/wl-cron-root.log ] && [ -s /tmp/wl-cron-alice.log ] && break
	sleep 1
done
ok cron_jobs_ran eval '[ -s /tmp/wl-cron-root.log ] && [ -s /tmp/wl-cron-alice.log ]'
ok strict_complain_nothing_denied [ "$(total denied)" = "$before" ]
echo "# strict, complain: $(($(total would_deny) - wbefore)) would_deny"
reports_since "$c" | grep 'verdict=would_deny' > /tmp/would
sed -E 's/^warden: (rule=[^ ]*) .* (comm="[^"]*") (pcomm="[^"]*")( path="[^"]*")?.*/\1 \2 \3\4/' /tmp/would |
	sort | uniq -c | sed 's/^ */# would_deny: /'
unexpected=$(while read -r line; do
	grep -v '^#' /warden/expected-would-deny | grep -q . || { echo "$line"; continue; }
	m=0
	while read -r rule comm path; do
		[ -n "$rule" ] || continue
		case "$line" in
		*"rule=$rule "*) ;;
		*) continue ;;
		esac
		echo "$line" | grep -qE "comm=\"($comm)\" .*path=\"($path)\"" && { m=1; break; }
	done < <(grep -v '^#' /warden/expected-would-deny)
	[ $m = 1 ] || echo "$line"
done < /tmp/would)
ok strict_would_deny_all_expected eval '[ -z "$unexpected" ] || { echo "$unexpected" | sed "s/^/# unexpected: /"; false; }'

# Enforcing, the same attacks, and in a group-writable sticky folder.
levels 2 1 2 2 1 1 2 0
c=$(cursor)
attacks strict
mkdir -p /srv/team && chown root:alice /srv/team && chmod 1770 /srv/team
usermod -aG alice bob
as bob 'rm -f /srv/team/out; touch /srv/team/out; chmod 666 /srv/team/out'
ok strict.group_sticky_planted_file_refused eval 'sh -c "echo x >> /srv/team/out" 2>&1 | grep -q "Permission denied"'
# Warden's records are of its own types, which auditd writes as
# UNKNOWN[1430] (a refusal) and UNKNOWN[1431] (a change of a setting):
# ausearch -m takes the number, and the old types find none of Warden's.
ok strict.ausearch_finds_sticky_symlinks eval 'ausearch -m 1430 -ts boot 2>/dev/null | grep -q "rule=protected_sticky_symlinks"'
ok strict.ausearch_finds_regular eval 'ausearch -m 1430 -ts boot 2>/dev/null | grep -q "lsm=warden rule=protected_regular op=open_creat res=0 permissive=0 "'
ok strict.ausearch_old_types_twin eval '! ausearch -m AVC,ANOM_LINK,MAC_CONFIG_CHANGE -ts boot 2>/dev/null | grep -q "lsm=warden"'
# aureport --avc lists no record of Warden's any more; its event report
# lists each event with the type of its first record, Warden's, which
# audit has no name for: "(null)" in audit 3.0.9's aureport, maybe
# UNKNOWN[1430] or 1430 in Debian 13's (to be confirmed at the first
# boot).  The event is found by its serial.
regular_serial=$(ausearch -m 1430 -ts boot 2>/dev/null | grep "lsm=warden rule=protected_regular " |
	sed -n 's/.* msg=audit([0-9.]*:\([0-9]*\)): .*/\1/p' | tail -n 1)
echo "# aureport: the protected_regular refusal is event ${regular_serial:-none}"
ok strict.aureport_event_lists_the_refusal eval '[ -n "$regular_serial" ] && aureport -e -i -ts boot 2>/dev/null | grep -Eq "^[0-9]+\. [^ ]+ [^ ]+ $regular_serial (UNKNOWN\[1430\]|1430|\(null\)) "'
reports_since "$c" | tail -n 3 > /tmp/last
wardenctl explain -n 3 > /tmp/explain 2>&1
ok strict.journal_and_explain_same_reports eval '[ -s /tmp/last ] && while read -r l; do
		p=$(echo "$l" | sed -n "s/.* pid=\([0-9]*\) .*/\1/p")
		grep -q "$p" /tmp/explain || { echo "pid $p not explained"; cat /tmp/explain; exit 1; }
	done < /tmp/last'

# --- 4. Landlock beside Warden.
export LL_FS_RO=/ LL_FS_RW=/tmp:/dev
ok landlock.sandboxer_confines eval 'sandboxer /bin/sh -c "echo x > /tmp/ll-ok && ! echo x > /root/ll-no" >/dev/null 2>&1'
plant
levels 1 1 1 1 1 1 1 1
ok landlock.inside_wardenctl_exec_warden_refuses eval 'wardenctl exec --symlinks=2 -- sandboxer /bin/sh -c "cat /tmp/report.txt" 2>&1 | grep -q "Permission denied"'
ok landlock.inside_wardenctl_exec_allowed_works eval 'wardenctl exec --symlinks=2 -- sandboxer /bin/sh -c "echo y > /tmp/ll-ok && ! echo y > /root/ll-no" >/dev/null 2>&1'
unset LL_FS_RO LL_FS_RW

# --- 5. The same root jobs with the two new rules off: they write where
# bob's link and file lead, so the refusals above are the rules' doing.
levels 1 1 1 1 1 0 0 0
plant
ok owner_off.root_script_through_user_link_writes_etc eval 'job_script && [ "$(cat /etc/warden-victim/out)" = generated ]'
ok owner_off.root_cp_through_user_link_writes_etc eval 'job_cp && [ -e /etc/warden-victim/hostname ]'
ok owner_off.root_chown_R_L_hands_etc_files_over eval 'job_chown && [ "$(stat -c %U /etc/warden-victim/conf)" = bob ]'
ok writes_off.rsync_inplace_writes_into_planted_file eval 'job_rsync && cmp -s /usr/share/doc/bash/copyright /tmp/app.log'
rm -rf /etc/warden-victim /tmp/bob-app

# --- 6. An audit flood by one user hides nobody else's record.  bob reads
# a sibling's memory in a loop for 10 s (process_vm_readv, refused at
# scope 1 between two processes of his: harmless, so not audited without
# audit rules), auditd failing with printk (-f 1, not panic); then root
# follows a link bob planted, and that record is there.
levels 1 1 1 1 1 0 0 0
auditctl -f 1 > /dev/null
cat > /tmp/flood.py <<'EOF'
import ctypes, sys, time
libc = ctypes.CDLL(None, use_errno=True)
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
buf = ctypes.create_string_buffer(8)
local = iovec(ctypes.cast(buf, ctypes.c_void_p), 8)
remote = iovec(0x400000, 8)
pid, n, refused = int(sys.argv[1]), 0, 0
end = time.time() + float(sys.argv[2])
while time.time() < end:
    if libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) < 0 and ctypes.get_errno() == 1:
        refused += 1
    n += 1
print(n, refused)
EOF
chmod 644 /tmp/flood.py
flood() {	# flood SECONDS: bob's loop against his own sleeping sibling
	as bob "sleep 60 & p=\$!; python3 /tmp/flood.py \$p $1; kill \$p"
}
lost() { auditctl -s | sed -n 's/^lost \([0-9]*\)$/\1/p'; }
lost_before=$(lost)
n_before=$(count ptrace_scope denied)
read -r calls refused < <(flood 10)
echo "# flood: $calls calls, $refused refused (EPERM); audit lost before $lost_before, after $(lost)"
ok flood.loop_refused_by_warden eval '[ "${refused:-0}" -gt 1000 ] && [ $(($(count ptrace_scope denied) - n_before)) -ge "$refused" ]'
ok flood.no_audit_record_lost [ "$(lost)" = "$lost_before" ]
ok flood.no_warden_record_of_the_loop eval '! ausearch -m 1430 -c python3 -ts recent 2>/dev/null | grep -q "rule=ptrace_scope"'
plant
cat /tmp/report.txt > /dev/null 2>&1 &
follower=$!
wait $follower
ok flood.root_refusal_found_by_ausearch eval 'ausearch -m 1430 -p $follower 2>/dev/null | grep -q "rule=protected_sticky_symlinks"'
# The twin: an audit rule that asks for process_vm_readv gets Warden's
# records of the loop, within the ratelimit.  bob's bucket may have
# started a window at the end of the first loop, and have spent it: the
# twin loops for longer than a window (5 s), so that one begins in it.
auditctl -a always,exit -F arch=b64 -S process_vm_readv -k warden-flood > /dev/null
flood 7 > /dev/null
auditctl -d always,exit -F arch=b64 -S process_vm_readv -k warden-flood > /dev/null
ok flood.twin_audit_rule_gets_warden_records eval 'ausearch -m 1430 -c python3 -ts recent 2>/dev/null | grep -q "lsm=warden rule=ptrace_scope"'
rm -f /tmp/flood.py /root/victim
tap_done
