# SPDX-License-Identifier: GPL-2.0
# Warden: the kernel tree, the kernel, the guest and the tests.
#
#   make demo            boot the patched kernel and run the /tmp attack
#   make check           build everything and run the test suite in QEMU
#   make check-all       what CI runs: static gates, the debug kernel and
#                        build-only variants, the suite on both kernels
#   make run CMD='...'   run a command as root in the guest (GUEST_DIR=dir
#                        copies a host folder to /mnt/guest first)
#   make shell           an interactive root shell in the guest
#   make vm              Debian 12 with systemd on the kernel: a root login
#                        on the console (harness/vm.sh, image.sh)
#   make vm CMD='...'    run a command as root in it, fail with its status
#   make series          the upstream patch series, checked
#   make bench           the benchmarks, timed and in instructions: two
#                        tables, bench/results/latest.csv, latest-icount.csv
#                        and latest.png (BENCH_MODE, BENCH_ROUNDS, BENCH_MEM)
#
# Settings (make VAR=value): WARDEN_CACHE (default ~/.cache/warden), ACCEL
# (tcg or kvm), JOBS, QEMU_TIMEOUT, KSRC_TARBALL, BUILD_FLAVOR (debug),
# WARDEN_STRESS_ATTEMPTS, ICOUNT=1 (a guest whose TSC counts
# instructions), WARDEN_COST_<NAME> (a bound of the instruction budget in
# make check).  Each target installs what it is missing with apt-get first.

SHELL := /bin/bash
H := harness

.PHONY: all deps tree kernel run shell vm check check-all demo series bench help

all: check

help:
	@sed -n '2,/^$$/s/^# \{0,1\}//p' Makefile

deps:
	@$(H)/deps.sh

tree: deps
	@$(H)/tree.sh

kernel: tree
	@$(H)/build.sh

# CMD reaches run.sh through the environment, not the shell's quoting:
# any command line works, quotes included.
run: export CMD := $(CMD)
run: kernel
	@$(H)/run.sh "$$CMD"

shell: kernel
	@$(H)/run.sh @interactive

vm: export CMD := $(CMD)
vm: kernel
	@$(H)/vm.sh "$$CMD"

check: kernel
	@$(H)/check.sh

check-all: tree
	@$(H)/check-all.sh

demo: kernel
	@$(H)/run.sh /warden/demo.sh

series: tree
	@$(H)/series.sh

bench: kernel
	@$(H)/bench.sh
