#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run harness scripts one after the other, holding the cache's lock across
# them all (env.sh: cache_lock), so that no other run moves the tree or
# rebuilds in between; stop at the first that fails.
#
# usage: locked.sh SCRIPT...
. "$(dirname "$0")/env.sh"

cache_lock
for script; do
	"$script" || exit
done
