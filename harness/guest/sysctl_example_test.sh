#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP: examples/sysctl.d/99-warden.conf, applied as sysctl --system would,
# sets every key it names to its value; then the settings are restored.
CONF=/warden/examples/99-warden.conf
n=0
keys=$(sed -n 's/^\([a-z_.]*\) *= *\([0-9]*\)$/\1=\2/p' "$CONF")
saved=
for kv in $keys; do
	k=${kv%%=*}
	saved="$saved $k=$(cat "/proc/sys/$(echo "$k" | tr . /)")"
done

sysctl -p "$CONF" > /dev/null 2>&1
rc=$?
n=$((n + 1))
if [ "$rc" = 0 ] && [ -n "$keys" ]; then
	echo "ok $n sysctl_example.applies"
else
	echo "not ok $n sysctl_example.applies # sysctl -p exited $rc"
fi
for kv in $keys; do
	k=${kv%%=*}
	got=$(cat "/proc/sys/$(echo "$k" | tr . /)")
	n=$((n + 1))
	if [ "$got" = "${kv#*=}" ]; then
		echo "ok $n sysctl_example.$k"
	else
		echo "not ok $n sysctl_example.$k # is $got"
	fi
done
for kv in $saved; do
	echo "${kv#*=}" > "/proc/sys/$(echo "${kv%%=*}" | tr . /)"
done
echo "1..$n"
