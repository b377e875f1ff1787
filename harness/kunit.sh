#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KUnit suites with the tree's own runner, as a maintainer runs them:
# kunit.py run --kunitconfig security/warden, on a UML kernel built in
# $WARDEN_CACHE/kunit.  (check-all runs the same suites once, in the
# debug kernel's boot.)
. "$(dirname "$0")/env.sh"

make_options=()
command -v ccache >/dev/null && make_options=(--make_options "CC=ccache gcc")
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$WARDEN_CACHE}
cd "$TREE"
exec python3 tools/testing/kunit/kunit.py run --kunitconfig security/warden \
	--build_dir "$WARDEN_CACHE/kunit" --jobs "$JOBS" "${make_options[@]}"
