#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the kernel, run the benchmarks (bench/warden_bench.c) in the guest
# and report them, in two views: the time of each operation, and the
# instructions it runs (warden_bench -i in a guest booted with ICOUNT=1,
# QEMU's -icount shift=0).  Each view is a table on stdout
# (harness/bench-report.awk) that says of each target whether it is met,
# and a CSV: bench/results/latest.csv and latest-icount.csv; the ptrace
# scaling curve of the times goes to bench/results/latest.png.  The
# guest's console goes to stderr.
#
# Settings: BENCH_MODE (time, icount or both, the default), BENCH_ROUNDS
# (default: warden_bench's), BENCH_ARGS (more warden_bench options),
# BENCH_ICOUNT_ROUNDS and BENCH_ICOUNT_ARGS (the same for the
# instruction counts), BENCH_MEM (the guest's memory, default 1G: 10,000
# processes barely fit in QEMU_MEM's 512M), BENCH_TIMEOUT (seconds,
# default 900), BENCH_OUT (default bench/results).
. "$(dirname "$0")/env.sh"

out=${BENCH_OUT:-$REPO/bench/results}
mode=${BENCH_MODE:-both}
export QEMU_MEM=${BENCH_MEM:-1G} QEMU_TIMEOUT=${BENCH_TIMEOUT:-900}
case "$mode" in
time | icount | both) ;;
*) die "BENCH_MODE must be time, icount or both, not '$mode'" ;;
esac

"$REPO/harness/deps.sh" gnuplot-nox
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# bench_run CSV ARGS...: warden_bench ARGS in the guest, its CSV to CSV.
bench_run() {
	local csv=$1
	shift
	RESULT_COPY=$tmp/result "$REPO/harness/run.sh" \
		"/warden/bin/warden_bench $* >/tmp/bench.csv &&
		sed 's/^/warden-bench: /' /tmp/bench.csv >&3" >&2 ||
		die "the benchmarks failed (the guest's console is above)"
	sed -n 's/\r$//; s/^warden-bench: //p' "$tmp/result" > "$csv"
}

# report MODE CSV: the table and the targets.
report() {
	awk -F, -v mode="$1" -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" \
		-v accel="$ACCEL" -f "$REPO/harness/bench-report.awk" "$2"
}

if [ "$mode" != icount ]; then
	say "benchmarks in a $QEMU_MEM guest ($ACCEL)"
	bench_run "$out/latest.csv" ${BENCH_ROUNDS:+-r $BENCH_ROUNDS} ${BENCH_ARGS:-}
fi
if [ "$mode" != time ]; then
	say "benchmarks in instructions in a $QEMU_MEM guest (tcg, -icount shift=0)"
	ICOUNT=1 ACCEL=tcg bench_run "$out/latest-icount.csv" -i \
		${BENCH_ICOUNT_ROUNDS:+-r $BENCH_ICOUNT_ROUNDS} ${BENCH_ICOUNT_ARGS:-}
fi
if [ "$mode" != icount ]; then
	report time "$out/latest.csv"
fi
if [ "$mode" != time ]; then
	[ "$mode" = icount ] || echo
	report icount "$out/latest-icount.csv"
fi
[ "$mode" != icount ] || exit 0

gnuplot <<EOF
set terminal pngcairo noenhanced size 800,500
set output "$out/latest.png"
set datafile separator ","
set title "ptrace scope 1: process_vm_readv() of 1 byte, over scope 0 ($ACCEL guest)"
set xlabel "processes holding a PR_SET_PTRACER exception"
set ylabel "time / time at scope 0 (median, IQR over rounds)"
set logscale xy
set xrange [0.7:15000]
set yrange [0.8:*]
set key top left
set grid
plot for [c in "warden yama"] \
	"< grep '^ptrace_readv,'".c."',' '$out/latest.csv'" \
	using 3:9:10:11 with yerrorlines title c
EOF
