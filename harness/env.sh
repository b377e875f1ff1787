# SPDX-License-Identifier: GPL-2.0
# Settings shared by the harness scripts; every one can be overridden from
# the environment or the make command line.

set -euo pipefail

REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WARDEN_CACHE=${WARDEN_CACHE:-$HOME/.cache/warden}
KSRC_PACKAGE=${KSRC_PACKAGE:-linux-source-6.12}
KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/$KSRC_PACKAGE.tar.xz}
PRISTINE=${PRISTINE:-$WARDEN_CACHE/pristine}
APPLY=${APPLY:-$WARDEN_CACHE/apply}
TREE=${TREE:-$WARDEN_CACHE/tree}
BUILD=${BUILD:-$WARDEN_CACHE/build}
JOBS=${JOBS:-$(nproc)}
ACCEL=${ACCEL:-tcg}
QEMU_MEM=${QEMU_MEM:-512M}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-300}

# The version the series was last tested on.
SERIES=${SERIES:-$REPO/patches/series}
TESTED_ON=$(cat "$REPO/harness/TESTED_ON")

die() {
	echo "warden: $*" >&2
	exit 1
}

say() {
	echo "==> $*" >&2
}
