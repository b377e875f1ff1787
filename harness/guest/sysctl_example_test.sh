#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP: examples/sysctl.d/99-warden.conf, applied as sysctl --system would,
# sets every key it names to its value; then the settings are restored.
. /warden/tap.sh
TAP_PREFIX=sysctl_example.
W=sysctl
OUT=/tmp/sysctl_example.out
ERR=/tmp/sysctl_example.err
CONF=/warden/examples/99-warden.conf

sysctl_path() {	# sysctl_path KEY: kernel.warden.x -> /proc/sys/kernel/warden/x
	echo "/proc/sys/$(echo "$1" | tr . /)"
}

value_is() {	# value_is KEY VALUE
	got=$(cat "$(sysctl_path "$1")")
	[ "$got" = "$2" ] || { echo "# $1 is $got, not $2"; false; }
}

keys=$(sed -n 's/^\([a-z_.]*\) *= *\([0-9]*\)$/\1=\2/p' "$CONF")
saved=
for kv in $keys; do
	saved="$saved ${kv%%=*}=$(cat "$(sysctl_path "${kv%%=*}")")"
done

ok applies eval '[ -n "$keys" ] && status_is 0 -p "$CONF"'
for kv in $keys; do
	ok "${kv%%=*}" value_is "${kv%%=*}" "${kv#*=}"
done
for kv in $saved; do
	echo "${kv#*=}" > "$(sysctl_path "${kv%%=*}")"
done
rm -f "$OUT" "$ERR"
tap_done
