# SPDX-License-Identifier: GPL-2.0
# Settings shared by the harness scripts; every one can be overridden from
# the environment or the make command line.

set -euo pipefail

REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
WARDEN_CACHE=${WARDEN_CACHE:-$HOME/.cache/warden}
# KSRC picks the kernel tree: 7.3 (the default, the tree of every gate and
# of the series sent upstream), linux-source-7.3 of trixie-backports,
# downloaded by fetch.sh with apt's own configuration and unpacked into
# the cache (the host's apt setup is not touched), or 6.12, the LTS
# backport, Debian 12's linux-source-6.12, installed by deps.sh.  Each
# tree has its own folders in the cache; 6.12 keeps the names it always
# had, 7.3's end in -7.3.
KSRC=${KSRC:-7.3}
case "$KSRC" in
6.12)
	KSRC_SUITE=
	KSRC_DIRS=
	;;
7.3)
	KSRC_SUITE=${KSRC_SUITE:-trixie-backports}
	KSRC_DIRS=-$KSRC
	;;
*)
	echo "warden: no KSRC '$KSRC' (6.12 or 7.3)" >&2
	exit 1
	;;
esac
KSRC_PACKAGE=${KSRC_PACKAGE:-linux-source-$KSRC}
# fetch.sh's folder and mirror, for a tree of another suite.
KSRC_FETCH=${KSRC_FETCH:-$WARDEN_CACHE/src-$KSRC}
KSRC_MIRROR=${KSRC_MIRROR:-http://deb.debian.org/debian}
if [ -n "$KSRC_SUITE" ]; then
	KSRC_TARBALL=${KSRC_TARBALL:-$KSRC_FETCH/root/usr/src/$KSRC_PACKAGE.tar.xz}
else
	KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/$KSRC_PACKAGE.tar.xz}
fi
PRISTINE=${PRISTINE:-$WARDEN_CACHE/pristine$KSRC_DIRS}
APPLY=${APPLY:-$WARDEN_CACHE/apply$KSRC_DIRS}
TREE=${TREE:-$WARDEN_CACHE/tree$KSRC_DIRS}

# ksrc_version: the version of $KSRC_PACKAGE the tarball comes from, as
# dpkg installed it or fetch.sh unpacked it.
ksrc_version() {
	if [ -n "$KSRC_SUITE" ]; then
		[ -f "$KSRC_FETCH/fetched" ] && cut -d' ' -f2 "$KSRC_FETCH/fetched"
	else
		dpkg-query -W -f='${Version}' "$KSRC_PACKAGE" 2>/dev/null
	fi
}
# Debian packages the guest runs programs of, unpacked (deps.sh).
GUEST_DEBS=${GUEST_DEBS:-$WARDEN_CACHE/debs}
# BUILD_FLAVOR picks a kernel: empty for the one the suite boots, "debug"
# for the same with the kernel's bug detectors (harness/config/debug.config
# on top of base.config), or a build-only variant (nowarden, noaudit,
# nosysctl: harness/config/variant-<name>.config).  Each has its own build
# folder, and KERNEL_ARGS for every boot of it.
BUILD_FLAVOR=${BUILD_FLAVOR:-}
case "$BUILD_FLAVOR" in
'')
	BUILD=${BUILD:-$WARDEN_CACHE/build$KSRC_DIRS}
	FLAVOR_CONFIG=
	;;
debug)
	BUILD=${BUILD:-$WARDEN_CACHE/build$KSRC_DIRS-debug}
	FLAVOR_CONFIG=$REPO/harness/config/debug.config
	# A warning, a KASAN or a UBSAN report stops the guest at once, and
	# is printed on the console.  no5lvl: QEMU's "max" CPU has LA57, and
	# 7.3's identify_cpu() clears boot_cpu_data's feature words before
	# alternatives are applied, so an interrupt in that window sees
	# pgtable_l5_enabled() false, and KASAN calls the irq_desc's lock a
	# wild access (at 0.12 s, in one debug boot of nine of a check-all).
	KERNEL_ARGS=${KERNEL_ARGS:-panic_on_warn=1 loglevel=5 no5lvl}
	;;
*)
	BUILD=${BUILD:-$WARDEN_CACHE/build$KSRC_DIRS-$BUILD_FLAVOR}
	FLAVOR_CONFIG=$REPO/harness/config/variant-$BUILD_FLAVOR.config
	;;
esac
[ -z "$FLAVOR_CONFIG" ] || [ -f "$FLAVOR_CONFIG" ] ||
	{ echo "warden: no BUILD_FLAVOR '$BUILD_FLAVOR'" >&2; exit 1; }
KERNEL_ARGS=${KERNEL_ARGS:-}
JOBS=${JOBS:-$(nproc)}
ACCEL=${ACCEL:-tcg}
QEMU_MEM=${QEMU_MEM:-512M}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-300}
# Attempts of each race test (selftests/warden/*_race_test.c).
WARDEN_STRESS_ATTEMPTS=${WARDEN_STRESS_ATTEMPTS:-20000}
# The settings fuzz's writes to each knob and of each concurrent writer
# (knob_fuzz_test.c), the flood's denials (complain_test.c); unset, the
# tests' own: 1,500 and 2,000 writes, 100,000 denials.
WARDEN_FUZZ_WRITES=${WARDEN_FUZZ_WRITES:-}
WARDEN_FLOOD_DENIALS=${WARDEN_FLOOD_DENIALS:-}
# The fuzz boot (harness/guest/fuzz.sh): the seed of trinity, stress-ng and
# the settings flipper, trinity's number of system calls, and how long
# stress-ng runs.
FUZZ_SEED=${FUZZ_SEED:-20261203}
FUZZ_SYSCALLS=${FUZZ_SYSCALLS:-8000}
FUZZ_STRESS_SECONDS=${FUZZ_STRESS_SECONDS:-30}

# The variables of every make in the kernel tree (build.sh, series.sh,
# deb.sh): ccache, with paths relative to the cache, so that another cache
# (another checkout) hits the same ccache entries.
KMAKE_VARS=(ARCH=x86_64)
command -v ccache >/dev/null && KMAKE_VARS+=(CC="ccache gcc" HOSTCC="ccache gcc")
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$WARDEN_CACHE}

# The series: git format-patch's output, in order (edit.sh save), against
# 7.3, in patches/.  The 6.12 backport is what differs from it, in
# patches/6.12/ ($BACKPORT_DIR): a patch there replaces the patch of the
# same name (a per-tree version, for a patch whose context differs on
# 6.12), and a name patches/ does not have adds a patch (the fixups on
# top that take 7.3's framework back to 6.12's).  make save KSRC=6.12
# writes there only the patches that differ from patches/ in more than
# their index lines and line numbers (backport_same).
SERIES_DIR=${SERIES_DIR:-$REPO/patches}
if [ "$KSRC" = 7.3 ]; then
	BACKPORT_DIR=
else
	BACKPORT_DIR=${BACKPORT_DIR:-$SERIES_DIR/$KSRC}
fi

# series_patch NAME: the patch of the series of this tree named NAME.
series_patch() {
	if [ -n "$BACKPORT_DIR" ] && [ -f "$BACKPORT_DIR/$1" ]; then
		echo "$BACKPORT_DIR/$1"
	else
		echo "$SERIES_DIR/$1"
	fi
}

shopt -s nullglob
SERIES_PATCHES=("$SERIES_DIR"/[0-9][0-9][0-9][0-9]-*.patch)
if [ -n "$BACKPORT_DIR" ]; then
	mapfile -t SERIES_PATCHES < <(
		for p in "${SERIES_PATCHES[@]}" "$BACKPORT_DIR"/[0-9][0-9][0-9][0-9]-*.patch; do
			echo "${p##*/}"
		done | sort -u | while read -r p; do series_patch "$p"; done)
fi
shopt -u nullglob
# Where `make edit` puts the series as commits, to change it with git.
EDIT=${EDIT:-$WARDEN_CACHE/edit$KSRC_DIRS}
# The version the series was last tested on (harness/TESTED_ON-<KSRC>).
TESTED_ON=$(cat "$REPO/harness/TESTED_ON-$KSRC" 2>/dev/null || true)

# backport_same A B: true when patches A and B make the same change with
# the same message: all but their index lines and hunk headers, which
# differ between trees.
backport_same() {
	local norm='/^index [0-9a-f]*\.\.[0-9a-f]*/d; s/^@@ -[0-9,]* +[0-9,]* @@.*/@@/'

	[ -f "$2" ] && cmp -s <(sed -e "$norm" "$1") <(sed -e "$norm" "$2")
}

# write_series REPO-DIR OUT-DIR: the commits base..HEAD of REPO-DIR as
# patches, in one form whatever git's configuration, so that a saved
# series reads back byte for byte.
write_series() {
	git -c core.abbrev=12 -c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c format.signature= -C "$1" format-patch -q --no-numbered \
		--no-signature --zero-commit -o "$2" base..HEAD
}

# series_differs REPO-DIR: true, naming each patch that differs, when the
# commits base..HEAD of REPO-DIR are not patches/ as make save writes it.
series_differs() {
	local tmp p rc=1

	tmp=$(mktemp -d)
	write_series "$1" "$tmp"
	for p in "$tmp"/*.patch; do
		if [ -n "$BACKPORT_DIR" ] && [ ! -f "$BACKPORT_DIR/${p##*/}" ]; then
			backport_same "$p" "$SERIES_DIR/${p##*/}"
		else
			cmp -s "$p" "$(series_patch "${p##*/}")"
		fi || { echo "  ${p##*/}"; rc=0; }
	done
	for p in "${SERIES_PATCHES[@]}"; do
		[ -e "$tmp/${p##*/}" ] || { echo "  ${p##*/} (not written)"; rc=0; }
	done
	rm -rf "$tmp"
	return $rc
}

# The kernel code in the repository: the files the series adds (not its
# changes to the tree's files), as they stand at its last patch, at their
# paths in the tree: kernel/security/warden/fs.c, kernel/Documentation/...
# Written by make save (edit.sh), never edited by hand; the gate snapshot
# (check_snapshot) fails when it is not what the series adds.  It belongs
# to the series of patches/ on 7.3; the 6.12 backport has none.
if [ "$SERIES_DIR" = "$REPO/patches" ] && [ -z "$BACKPORT_DIR" ]; then
	SNAPSHOT_DIR=${SNAPSHOT_DIR:-$REPO/kernel}
else
	SNAPSHOT_DIR=${SNAPSHOT_DIR:-}
fi

# snapshot_write REPO-DIR OUT-DIR: the files that base..HEAD of REPO-DIR
# adds, as they are at HEAD, into OUT-DIR, made anew.
snapshot_write() {
	local files

	mapfile -d '' files < <(git -C "$1" diff -z --name-only --no-renames \
		--diff-filter=A base HEAD)
	rm -rf "$2"
	mkdir -p "$2"
	[ ${#files[@]} -eq 0 ] ||
		git --literal-pathspecs -C "$1" archive --format=tar HEAD -- "${files[@]}" |
		tar -x -C "$2"
}

# snapshot_differs REPO-DIR: true, naming each file that differs, when
# $SNAPSHOT_DIR is not the files base..HEAD of REPO-DIR adds, with their
# contents and executable bits.
snapshot_differs() {
	local tmp f rc=1

	tmp=$(mktemp -d)
	snapshot_write "$1" "$tmp/s"
	while IFS= read -r -d '' f; do
		f=${f#./}
		if [ ! -f "$SNAPSHOT_DIR/$f" ] || [ -L "$SNAPSHOT_DIR/$f" ]; then
			echo "  $f: missing"
			rc=0
		elif ! cmp -s "$tmp/s/$f" "$SNAPSHOT_DIR/$f"; then
			echo "  $f: differs from the series"
			diff -u "$tmp/s/$f" "$SNAPSHOT_DIR/$f" |
				sed -e '1,2d' -e 's/^/    /' | head -n 12
			rc=0
		elif [ "$(stat -c %A "$tmp/s/$f" | cut -c4)" != \
		       "$(stat -c %A "$SNAPSHOT_DIR/$f" | cut -c4)" ]; then
			echo "  $f: executable bit differs"
			rc=0
		fi
	done < <(cd "$tmp/s" && find . -type f -print0 | sort -z)
	if [ -d "$SNAPSHOT_DIR" ]; then
		while IFS= read -r -d '' f; do
			f=${f#./}
			[ -f "$tmp/s/$f" ] || { echo "  $f: not added by the series"; rc=0; }
		done < <(cd "$SNAPSHOT_DIR" && find . ! -type d -print0 | sort -z)
	fi
	rm -rf "$tmp"
	return $rc
}

# check_snapshot: the gate snapshot, run by check-all and make check: the
# series applied in $APPLY (tree.sh) must be patches/, and $SNAPSHOT_DIR
# exactly the files it adds.  Reads, builds nothing; about a second.
check_snapshot() {
	local name=${SNAPSHOT_DIR#"$REPO"/}

	if [ -z "$SNAPSHOT_DIR" ]; then
		echo "no snapshot for the series of $SERIES_DIR"
		return 0
	fi
	git -C "$APPLY" rev-parse -q --verify HEAD >/dev/null 2>&1 ||
		{ echo "no series applied in $APPLY (run: make tree)"; return 1; }
	if series_differs "$APPLY"; then
		echo "$APPLY is not the series of ${SERIES_DIR#"$REPO"/}/ (above; run: make tree)"
		return 1
	fi
	if snapshot_differs "$APPLY"; then
		echo "$name/ is not what the series adds (above).  It is written, never edited:"
		echo "change the series with make edit and make save, or write $name/ again"
		echo "from patches/ with make snapshot"
		return 1
	fi
	echo "$name/: the $(find "$SNAPSHOT_DIR" -type f | wc -l) files the series adds, as at its last patch"
}

# apt_own_setup DIR LINE: an apt configuration of the harness's own in
# DIR/apt (made anew), with LINE as its only source, signed-by Debian's
# archive keyring ($DEBIAN_KEYRING); APT_OWN, the options that make
# apt-get and apt-cache read it and nothing of the host's (fetch.sh,
# sparse.sh).  The host's apt setup is neither read nor changed.
DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
apt_own_setup() {
	[ -f "$DEBIAN_KEYRING" ] || die "no $DEBIAN_KEYRING (apt-get install debian-archive-keyring)"
	rm -rf "$1"
	mkdir -p "$1/apt/lists/partial" "$1/apt/cache/archives/partial" "$1/apt/empty"
	: > "$1/apt/status"
	echo "$2" > "$1/apt/sources.list"
	APT_OWN=(
		-o Dir::Etc::sourcelist="$1/apt/sources.list"
		-o Dir::Etc::sourceparts="$1/apt/empty"
		-o Dir::State::Lists="$1/apt/lists"
		-o Dir::State::status="$1/apt/status"
		-o Dir::Cache="$1/apt/cache"
		-o Dir::Etc::preferences=/dev/null
		-o Dir::Etc::preferencesparts="$1/apt/empty"
		-o Acquire::Languages=none
	)
}

die() {
	echo "warden: $*" >&2
	exit 1
}

say() {
	echo "==> $*" >&2
}

# The cache's lock.  One process at a time makes the tree, builds a kernel
# or the guest's programs, or packs an initramfs; boots, each from files of
# its own (run.sh), run beside each other.  cache_lock takes the lock on fd
# 9, waiting for it, unless a parent already holds it for us; cache_unlock
# lets it go if this process took it, and closes fd 9 so that no child
# (QEMU) keeps it.
cache_lock() {
	[ -z "${WARDEN_CACHE_LOCKED:-}" ] || return 0
	mkdir -p "$WARDEN_CACHE"
	exec 9>>"$WARDEN_CACHE/.lock"
	if ! flock -n 9; then
		say "waiting for another run on $WARDEN_CACHE"
		flock 9
	fi
	export WARDEN_CACHE_LOCKED=$$
}

cache_unlock() {
	if [ "${WARDEN_CACHE_LOCKED:-}" = $$ ]; then
		flock -u 9
		unset WARDEN_CACHE_LOCKED
	fi
	exec 9>&-
}
