#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hand the KUnit results that the kernel printed at boot to the host, which
# parses them with the tree's own tools/testing/kunit/kunit.py parse
# (check.sh): the kernel log from its first "KTAP version" line on, and the
# suites SUITE... that must be in it, over the result channel (fd 3).
#
# usage: kunit.sh SUITE...
echo "warden-kunit-suites: $*" >&3
dmesg | sed -n -e '/K\{0,1\}TAP version [0-9]/,$s/^/warden-kunit-log: /p' >&3
