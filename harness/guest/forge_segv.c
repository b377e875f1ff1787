// SPDX-License-Identifier: GPL-2.0
/*
 * forge_segv - Name the task "warden: " and segfault, so that the kernel
 * prints "warden: [PID]: segfault at 0 ip ... in FILE[...]" (at KERN_INFO,
 * arch/x86/mm/fault.c): with FILE, this program's file name, in the shape
 * of one of Warden's reports, a line that reads like Warden's but is not.
 * wardenctl_test.sh checks that wardenctl takes it for no report.
 */
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>

int main(void)
{
	/* Volatile: the compiler must emit the store, not drop it or trap. */
	volatile int *volatile null = NULL;

	if (prctl(PR_SET_NAME, "warden: ", 0, 0, 0)) {
		perror("prctl");
		return 1;
	}
	*null = 0;
	return 1;
}
