#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the kernel, run the benchmarks (bench/warden_bench.c) in the guest
# and report them: a table on stdout that says of each target whether it
# is met, the CSV as bench/results/latest.csv and the ptrace scaling curve
# as bench/results/latest.png.  The guest's console goes to stderr.
#
# Settings: BENCH_ROUNDS (default: warden_bench's), BENCH_ARGS (more
# warden_bench options), BENCH_MEM (the guest's memory, default 1G: 10,000 processes
# barely fit in QEMU_MEM's 512M), BENCH_TIMEOUT (seconds, default 900),
# BENCH_OUT (default bench/results).
. "$(dirname "$0")/env.sh"

out=${BENCH_OUT:-$REPO/bench/results}
export QEMU_MEM=${BENCH_MEM:-1G} QEMU_TIMEOUT=${BENCH_TIMEOUT:-900}

"$REPO/harness/deps.sh" gnuplot-nox
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say "benchmarks in a $QEMU_MEM guest ($ACCEL)"
RESULT_COPY=$tmp/result "$REPO/harness/run.sh" \
	"/warden/bin/warden_bench ${BENCH_ROUNDS:+-r $BENCH_ROUNDS} ${BENCH_ARGS:-} >/tmp/bench.csv &&
	sed 's/^/warden-bench: /' /tmp/bench.csv >&3" >&2 ||
	die "the benchmarks failed (the guest's console is above)"
sed -n 's/\r$//; s/^warden-bench: //p' "$tmp/result" > "$out/latest.csv"

# The table, then the targets: a row per workload (and number of
# processes), a column per configuration, each cell the median time of
# an operation and its median ratio to "off" in the same round, with the
# IQR of that ratio over the rounds.  latest.csv has the quartiles of the
# times and the range of the ratios too.
awk -F, -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v accel="$ACCEL" '
function row(w, c, n) { return w "," c "," n }
function target(name, value, ok) {
	printf "| %s | %s | %s |\n", name, value, ok ? "met" : "not met"
}
function cell(k) {
	if (ns[k] == "n/a") return "n/a"
	if (r[k] == 1 && q1[k] == 1 && q3[k] == 1) return sprintf("%.0f ns", ns[k])
	return sprintf("%.0f ns, %.3f (%.3f-%.3f)", ns[k], r[k], q1[k], q3[k])
}
NR == 1 { next }
{
	k = row($1, $2, $3)
	ns[k] = $6; r[k] = $9; q1[k] = $10; q3[k] = $11; rounds = $4
	g = $1 "," $3
	if (!(g in ncf)) { groups[++ng] = g; ncf[g] = 0 }
	cf[g, ++ncf[g]] = $2
	if ($1 == "ptrace_readv" && !($3 in seen)) { procs[++np] = $3; seen[$3] = 1 }
}
END {
	printf "Warden benchmarks, %s, %d rounds, %s guest\n", date, rounds, accel
	for (i = 1; i <= ng; i++) {
		g = groups[i]; split(g, wn, ",")
		head = "| workload |"; line = "|---|"
		for (j = 1; j <= ncf[g]; j++) { head = head " " cf[g, j] " |"; line = line "---|" }
		if (head != last) { printf "\n%s\n%s\n", head, line; last = head }
		printf "| %s |", wn[1] (wn[2] ? ", " wn[2] (wn[2] == 1 ? " process" : " processes") : "")
		for (j = 1; j <= ncf[g]; j++) printf " %s |", cell(row(wn[1], cf[g, j], wn[2]))
		print ""
	}
	print ""
	print "| target | value | |"
	print "|---|---|---|"
	# Warden on: enforcing, complaining, or by a per-process policy.
	split("stat_link open_link", links, " ")
	split("warden complain policy", ons, " ")
	for (i = 1; i in links; i++) for (j = 1; j in ons; j++) {
		w = row(links[i], ons[j], 0); m = row(links[i], "mainline", 0)
		if (ns[w] == "n/a" || !(w in ns)) {
			target(links[i] ": " ons[j] " / off", "n/a", 0)
			continue
		}
		target(links[i] ": " ons[j] " / off <= 1.02", sprintf("%.3f", r[w]), r[w] <= 1.02)
		target(links[i] ": " ons[j] " / off <= mainline / off + 0.01",
			sprintf("%.3f vs %.3f", r[w], r[m] + 0.01), r[w] <= r[m] + 0.01)
	}
	w = row("stat_plain", "warden", 0)
	target("stat_plain: warden / off is 1.00 within noise (the IQR holds 1)",
		sprintf("%.3f (%.3f-%.3f)", r[w], q1[w], q3[w]), q1[w] <= 1 && 1 <= q3[w])
	# The growth of the check: its ratio to off (same rounds) at the most
	# processes over that at the fewest, immune to a drift in between.
	a = procs[1]; b = procs[np]
	wg = r[row("ptrace_readv", "warden", b)] / r[row("ptrace_readv", "warden", a)]
	ya = r[row("ptrace_readv", "yama", a)]; yb = r[row("ptrace_readv", "yama", b)]
	target(sprintf("ptrace_readv: warden / off at %d exceptions over at %d <= 1.10", b, a),
		sprintf("%.3f (yama: %s)", wg, ya == "n/a" ? "n/a" : sprintf("%.3f", yb / ya)),
		wg <= 1.10)
}' "$out/latest.csv"

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
