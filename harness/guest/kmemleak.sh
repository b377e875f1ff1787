#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# TAP: no memory leak, by kmemleak (the debug kernel), after the boot's
# other tests.  An unreferenced object is reported only once it is 5 s
# old and unchanged since the scan before: wait for RCU callbacks and for
# that age, scan, and scan again.  Any leak fails, with its report.
kmemleak=/sys/kernel/debug/kmemleak
. /warden/tap.sh
TAP_PREFIX="- kmemleak."

sleep 5
echo scan > "$kmemleak"
sleep 1
echo scan > "$kmemleak"
cat "$kmemleak" > /tmp/kmemleak.out
leaks=$(grep -c '^unreferenced object' /tmp/kmemleak.out)
echo "# figure: kmemleak leaks=$leaks"
OUT=/tmp/kmemleak.out
ok no_leak [ "$leaks" -eq 0 ]
tap_done
