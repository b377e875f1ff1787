# SPDX-License-Identifier: GPL-2.0
# Warden: the kernel tree, the kernel, the guest and the tests.
#
#   make demo            boot the patched kernel and run the /tmp attack
#   make check           build everything and run the test suite in QEMU
#   make check-all       what CI runs: static gates, the debug kernel and
#                        build-only variants, the suite on both kernels
#   make check-distro    Debian 13 with the administrator's workload and a
#                        rootless container's links, at the Kconfig
#                        defaults, enforcing (on demand: 6 minutes)
#   make run CMD='...'   run a command as root in the guest (GUEST_DIR=dir
#                        copies a host folder to /mnt/guest first)
#   make shell           an interactive root shell in the guest
#   make vm              Debian 13 with systemd on the kernel: a root login
#                        on the console (harness/vm.sh, image.sh);
#                        DISTRO=bookworm for Debian 12
#   make vm CMD='...'    run a command as root in it, fail with its status
#   make series          the upstream patch series, checked: checkpatch,
#                        git am, a build and a boot at every patch
#   make edit            the series as git commits in $(WARDEN_CACHE)/edit-7.3
#                        (KSRC=6.12: the backport, in .../edit), to change
#                        with git
#   make save            write those commits back to patches/, and the
#                        files they add to kernel/ (read-only, generated);
#                        KSRC=6.12: the backport's patches that differ
#                        from patches/, to patches/6.12/
#   make snapshot        write kernel/ again from patches/
#   make range-diff SINCE=<commit>
#                        what changed in the series since the series at
#                        <commit> of this repository, by git range-diff
#   make kunit           the KUnit suites on UML with the tree's kunit.py
#   make deb             wardenctl as a Debian package, checked by lintian
#   make bench           the benchmarks, timed and in instructions: two
#                        tables, bench/results/latest.csv, latest-icount.csv
#                        and latest.png (BENCH_MODE, BENCH_ROUNDS, BENCH_MEM)
#   make kernel, make tree, make deps
#                        the steps on their own
#
# Settings (make VAR=value): WARDEN_CACHE (default ~/.cache/warden), ACCEL
# (tcg or kvm), JOBS, QEMU_TIMEOUT, KSRC (7.3, the default, from
# trixie-backports by harness/fetch.sh; or 6.12, the LTS backport, with
# patches/6.12/), KSRC_TARBALL, BUILD_FLAVOR (debug),
# WARDEN_STRESS_ATTEMPTS, ICOUNT=1 (a guest whose TSC counts
# instructions), WARDEN_COST_<NAME> (a bound of the instruction budget in
# make check); all of them in harness/README.md.  Each target installs what
# it is missing with apt-get first.

SHELL := /bin/bash
H := harness

.PHONY: all deps tree kernel run shell vm check check-all check-distro demo series edit save snapshot range-diff bench kunit deb help

all: check

help:
	@sed -n '2,/^$$/s/^# \{0,1\}//p' Makefile

deps:
	@$(H)/deps.sh

# The cache's lock is held from the tree to the kernel (kernel.sh): two
# runs on one cache take turns there, and boot side by side.
tree: deps
	@$(H)/locked.sh $(H)/tree.sh

kernel: deps
	@$(H)/kernel.sh

# CMD reaches run.sh through the environment, not the shell's quoting,
# and unexpanded by make ($(value)): any command line works, quotes and
# dollars included.
ifneq ($(origin CMD),undefined)
override CMD := $(value CMD)
export CMD
endif

run: kernel
	@$(H)/run.sh "$$CMD"

shell: kernel
	@$(H)/run.sh @interactive

vm: kernel
	@$(H)/vm.sh "$$CMD"

check: kernel
	@$(H)/check.sh

check-all: tree
	@$(H)/check-all.sh

# The Debian boot with the whole workload at the Kconfig defaults,
# enforcing (harness/guest-distro/defaults_test.sh): on demand, not in
# check-all, whose distro boot runs the part that checks the defaults.
check-distro: kernel
	@DISTRO_TIMEOUT=$${DISTRO_TIMEOUT:-1800} $(H)/vm.sh /warden/defaults_test.sh

demo: kernel
	@$(H)/run.sh /warden/demo.sh

series: tree
	@$(H)/series.sh

edit: tree
	@$(H)/edit.sh

save:
	@$(H)/edit.sh save

snapshot: tree
	@$(H)/edit.sh snapshot

# Without SINCE, or with one that is no commit of the series, range-diff.sh
# prints its usage and exits 2.
range-diff: deps
	@$(H)/range-diff.sh "$(SINCE)"

bench: kernel
	@$(H)/bench.sh

kunit: tree
	@$(H)/locked.sh $(H)/kunit.sh

deb: kernel
	@$(H)/deb.sh
