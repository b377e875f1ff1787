#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the built kernel with an initramfs; exit with the guest's verdict.
#
# usage: qemu.sh INITRAMFS RESULT [KERNEL-ARGS...]
#
# The guest's init writes "warden-exit: N" to its second serial port, which
# lands in RESULT.  No verdict there (a hung guest killed after
# QEMU_TIMEOUT seconds, a panic, a crash) is a failure.  ACCEL=kvm uses
# KVM; the default is TCG, which works everywhere.  KERNEL is the bzImage
# (default: the build's).
#
# ICOUNT=1 (TCG only) makes the guest's clock an instruction counter:
# -icount shift=0 advances virtual time, and the TSC with it, by 1 ns for
# each instruction the guest runs; sleep=off jumps over idle time instead
# of waiting for the host's clock; -seed makes RDRAND and the like
# reproducible and -rtc starts the RTC at a fixed date on the virtual
# clock, so that two boots run the same instructions.
. "$(dirname "$0")/env.sh"

initrd=$1
result=$2
shift 2
kernel=${KERNEL:-$BUILD/arch/x86/boot/bzImage}
[ -f "$kernel" ] || die "no kernel at $kernel (run: make kernel)"

case "$ACCEL" in
kvm) accel=(-accel kvm -cpu host) ;;
tcg) accel=(-accel tcg -cpu max) ;;
*) die "ACCEL must be tcg or kvm, not '$ACCEL'" ;;
esac
if [ "${ICOUNT:-0}" = 1 ]; then
	[ "$ACCEL" = tcg ] || die "ICOUNT=1 needs ACCEL=tcg"
	accel+=(-icount shift=0,sleep=off,align=off -seed 1
		-rtc base=2026-01-01T00:00:00,clock=vm)
fi

qemu=(qemu-system-x86_64 "${accel[@]}" -m "$QEMU_MEM" -smp 2
	-display none -no-reboot -monitor none
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 oops=panic quiet loglevel=4 acpi=off audit_backlog_limit=8192 $KERNEL_ARGS $*")
: > "$result"
if [ -n "${INTERACTIVE:-}" ]; then
	"${qemu[@]}" -serial mon:stdio -serial "file:$result"
else
	timeout -k 5 "$QEMU_TIMEOUT" "${qemu[@]}" -serial stdio \
		-serial "file:$result" </dev/null | tee "$result.console" || true
fi
verdict=$(sed -n 's/^warden-exit: \([0-9]*\).*/\1/p' "$result" | tail -n 1)
if [ -z "$verdict" ]; then
	echo "warden: the guest gave no verdict (hung, crashed or timed out after ${QEMU_TIMEOUT}s)" >&2
	# A panic (panic_on_warn on the debug kernel): its report, again.
	if [ -f "$result.console" ] &&
	   grep -q -E 'Kernel panic|BUG:|WARNING:|KASAN:|UBSAN:' "$result.console"; then
		echo "warden: the guest's last kernel report:" >&2
		grep -E -A 40 -m 1 '\] (BUG:|WARNING:|KASAN:|UBSAN:|Kernel panic|general protection)' \
			"$result.console" | sed 's/^/  /' >&2
	fi
	rm -f "$result.console"
	exit 125
fi
rm -f "$result.console"
exit "$verdict"
