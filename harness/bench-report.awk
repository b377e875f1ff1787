# SPDX-License-Identifier: GPL-2.0
# The report of make bench (harness/bench.sh) from warden_bench's CSV: a
# table with a row per workload (and number of processes) and a column
# per configuration, then the targets, each met or not.
#
# usage: awk -F, -v mode=time|icount -v date=DATE -v accel=ACCEL \
#            -f bench-report.awk CSV
#
# mode=time: a cell is the median time of one operation and its median
# ratio to "off" in the same round, with the IQR of that ratio over the
# rounds (the CSV has the quartiles of the times and the range of the
# ratios too).  mode=icount (warden_bench -i, under QEMU -icount): a cell
# is the instructions of one operation (median over the rounds) and how
# many it adds to "off" in the same round, with their range over the
# rounds when the rounds do not agree; then what each check adds, in
# instructions, beside mainline's and Yama's.  Both CSVs have the main
# value in column 6 and the comparison to "off" (median, low, high) in
# columns 9 to 11.

function row(w, c, n) { return w "," c "," n }

function target(name, value, ok) {
	printf "| %s | %s | %s |\n", name, value, ok ? "met" : "not met"
}

# An instruction count: whole, or to a tenth.
function num(x) {
	return x == int(x) ? sprintf("%d", x) : sprintf("%.1f", x)
}

function signed(x) {
	return (x < 0 ? "" : "+") num(x)
}

function cell(k, c) {
	if (v[k] == "n/a")
		return "n/a"
	if (mode == "icount") {
		if (c == "off")
			return num(v[k]) " insn"
		return num(v[k]) " insn, " signed(x[k]) \
			(lo[k] == hi[k] ? "" : " (" signed(lo[k]) " to " signed(hi[k]) ")")
	}
	if (x[k] == 1 && lo[k] == 1 && hi[k] == 1)
		return sprintf("%.0f ns", v[k])
	return sprintf("%.0f ns, %.3f (%.3f-%.3f)", v[k], x[k], lo[k], hi[k])
}

# What configuration C adds to "off", in instructions per operation of
# workload W (with N processes), divided by PER; "" if not measured.
function added(w, c, n, per,    k) {
	k = row(w, c, n)
	if (!(k in v) || v[k] == "n/a")
		return ""
	return x[k] / (per ? per : 1)
}

# Equal, but for the rounding of the CSV's hundredths.
function near(a, b) {
	return a - b < 0.01 && b - a < 0.01
}

function insn(a) {
	return a == "" ? "n/a" : signed(a)
}

# A row of the table of costs: the check, then Warden's, mainline's and
# Yama's added instructions.
function cost(what, w, n, per, wc) {
	printf "| %s | %s | %s | %s |\n", what, insn(added(w, wc, n, per)),
		insn(added(w, "mainline", n, per)), insn(added(w, "yama", n, per))
}

# The links in a row of stat_deep: DEEP_LINKS in warden_bench.c.
BEGIN { deep = 16 }

NR == 1 { next }
{
	k = row($1, $2, $3)
	v[k] = $6; x[k] = $9; lo[k] = $10; hi[k] = $11; rounds = $4
	g = $1 "," $3
	if (!(g in ncf)) { groups[++ng] = g; ncf[g] = 0 }
	cf[g, ++ncf[g]] = $2
	if ($1 == "ptrace_readv" && !($3 in seen)) { procs[++np] = $3; seen[$3] = 1 }
}

END {
	if (mode == "icount")
		printf "Warden benchmarks in instructions (QEMU -icount shift=0), %s, %d rounds\n",
			date, rounds
	else
		printf "Warden benchmarks, %s, %d rounds, %s guest\n", date, rounds, accel
	for (i = 1; i <= ng; i++) {
		g = groups[i]; split(g, wn, ",")
		head = "| workload |"; line = "|---|"
		for (j = 1; j <= ncf[g]; j++) { head = head " " cf[g, j] " |"; line = line "---|" }
		if (head != last) { printf "\n%s\n%s\n", head, line; last = head }
		printf "| %s |", wn[1] (wn[2] ? ", " wn[2] (wn[2] == 1 ? " process" : " processes") : "")
		for (j = 1; j <= ncf[g]; j++) printf " %s |", cell(row(wn[1], cf[g, j], wn[2]), cf[g, j])
		print ""
	}
	print ""
	if (mode == "icount")
		icount_report()
	else
		time_targets()
}

function time_targets() {
	print "| target | value | |"
	print "|---|---|---|"
	# Warden on: enforcing, complaining, or by a per-process policy.
	split("stat_link open_link", links, " ")
	split("warden complain policy", ons, " ")
	for (i = 1; i in links; i++) for (j = 1; j in ons; j++) {
		w = row(links[i], ons[j], 0); m = row(links[i], "mainline", 0)
		if (v[w] == "n/a" || !(w in v)) {
			target(links[i] ": " ons[j] " / off", "n/a", 0)
			continue
		}
		target(links[i] ": " ons[j] " / off <= 1.02", sprintf("%.3f", x[w]), x[w] <= 1.02)
		target(links[i] ": " ons[j] " / off <= mainline / off + 0.01",
			sprintf("%.3f vs %.3f", x[w], x[m] + 0.01), x[w] <= x[m] + 0.01)
	}
	# The policy worker against its control, the worker that raised
	# nothing: both paired with "off" in the same rounds.
	split("stat_link open_link stat_plain", ws, " ")
	for (i = 1; i in ws; i++) {
		p = row(ws[i], "policy", 0); c = row(ws[i], "worker", 0)
		if (!(p in v) || !(c in v) || v[p] == "n/a" || v[c] == "n/a")
			continue
		target(ws[i] ": policy / off <= worker / off + 0.01",
			sprintf("%.3f vs %.3f", x[p], x[c] + 0.01), x[p] <= x[c] + 0.01)
	}
	w = row("stat_plain", "warden", 0)
	target("stat_plain: warden / off is 1.00 within noise (the IQR holds 1)",
		sprintf("%.3f (%.3f-%.3f)", x[w], lo[w], hi[w]), lo[w] <= 1 && 1 <= hi[w])
	# The growth of the check: its ratio to off (same rounds) at the most
	# processes over that at the fewest, immune to a drift in between.
	a = procs[1]; b = procs[np]
	wg = x[row("ptrace_readv", "warden", b)] / x[row("ptrace_readv", "warden", a)]
	ya = x[row("ptrace_readv", "yama", a)]; yb = x[row("ptrace_readv", "yama", b)]
	target(sprintf("ptrace_readv: warden / off at %d exceptions over at %d <= 1.10", b, a),
		sprintf("%.3f (yama: %s)", wg, ya == "n/a" ? "n/a" : sprintf("%.3f", yb / ya)),
		wg <= 1.10)
}

function icount_report() {
	print "Instructions each check adds to \"off\", per operation (median over the rounds):"
	print ""
	print "| check | Warden | mainline (fs.protected_*) | Yama |"
	print "|---|---|---|---|"
	cost("followed link, the last component, level 1 (stat_link)", "stat_link", 0, 1, "warden")
	cost("followed link, the last component, level 2 (stat_link)", "stat_link", 0, 1, "warden-2")
	cost("followed link, not the last, level 1 (stat_deep / " deep ")", "stat_deep", 0, deep, "warden")
	cost("followed link, not the last, level 2 (stat_deep / " deep ")", "stat_deep", 0, deep, "warden-2")
	cost("plain lookup, no link (stat_plain)", "stat_plain", 0, 1, "warden")
	cost("followed link of another user, to that user's file (stat_owner)", "stat_owner", 0, 1, "warden")
	cost("plain open, O_RDONLY (open_plain)", "open_plain", 0, 1, "warden")
	cost("O_CREAT open of an existing file (open_creat)", "open_creat", 0, 1, "warden")
	cost("O_WRONLY open of an own file in a sticky directory (open_write)", "open_write", 0, 1, "warden")
	cost("link() (link_unlink)", "link_unlink", 0, 1, "warden")
	for (i = 1; i <= np; i++)
		cost(sprintf("ptrace check, %d exception%s (ptrace_readv)", procs[i],
			procs[i] == 1 ? "" : "s"), "ptrace_readv", procs[i], 1, "warden")
	print ""
	print "| target | value | |"
	print "|---|---|---|"
	w = row("stat_plain", "warden", 0)
	target("stat_plain: warden adds 0 instructions, in every round",
		sprintf("%s (%s to %s)", signed(x[w]), signed(lo[w]), signed(hi[w])),
		x[w] == 0 && lo[w] == 0 && hi[w] == 0)
	w = row("open_plain", "warden", 0)
	if (w in v && v[w] != "n/a")
		target("open_plain: warden adds 0 instructions, in every round",
			sprintf("%s (%s to %s)", signed(x[w]), signed(lo[w]), signed(hi[w])),
			x[w] == 0 && lo[w] == 0 && hi[w] == 0)
	# A raised per-process level against its control, the same worker
	# with nothing raised: what it adds should be what the same levels
	# add as global sysctls.
	split("stat_link open_link stat_plain stat_deep link_unlink open_creat stat_owner open_write open_plain", ws, " ")
	for (i = 1; i in ws; i++) {
		p = added(ws[i], "policy", 0); c = added(ws[i], "worker", 0)
		g = added(ws[i], "warden", 0)
		if (p == "" || c == "")
			continue
		target(ws[i] ": policy - worker = warden - off",
			sprintf("%s vs %s", signed(p - c), signed(g)), near(p - c, g))
	}
	a = added("ptrace_readv", "warden", procs[1]); b = added("ptrace_readv", "warden", procs[np])
	target(sprintf("ptrace_readv: warden adds as much at %d exceptions as at %d", procs[np], procs[1]),
		sprintf("%s vs %s (yama: %s vs %s)", signed(b), signed(a),
			insn(added("ptrace_readv", "yama", procs[np])),
			insn(added("ptrace_readv", "yama", procs[1]))), near(a, b))
}
