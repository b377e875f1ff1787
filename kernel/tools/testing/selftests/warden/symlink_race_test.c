// SPDX-License-Identifier: GPL-2.0-only
/*
 * Warden tests - A privileged opener racing a user who swaps the name
 *
 *   root/		0755 root
 *   root/secret/	0700 root
 *   root/secret/file	0600 root, SECRET_CONTENT
 *   root/shared/	1777 root: the /tmp the attackers share with root
 *   root/shared/victim	swapped, again and again, by USER_UID between a
 *			regular file of theirs and a symlink of theirs to
 *			root/secret/file
 *
 * With protected_sticky_symlinks at 1, root opening root/shared/victim
 * must never reach root/secret/file: each open gets the user's file, or
 * EACCES (the link), or ENOENT (between an unlink and a rename), and
 * nothing else.  One attempt is one open by root.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "common.h"

#define SECRET_CONTENT "Warden race secret\n"
#define USER_CONTENT "Warden race user\n"
#define ATTACKERS 2
#define DEFAULT_ATTEMPTS 20000

FIXTURE(sticky_symlink_race) {
	char root[PATH_MAX];
	char secret_dir[PATH_MAX];
	char secret[PATH_MAX];
	char shared[PATH_MAX];
	char victim[PATH_MAX];
	struct knob mainline, warden;
	pid_t attackers[ATTACKERS];
};

FIXTURE_SETUP(sticky_symlink_race)
{
	int fd;

	tmpfs_setup(_metadata, self->root);
	make_dir(_metadata, self->secret_dir, self->root, "secret", 0700,
		 ROOT_UID);
	path_join(_metadata, self->secret, self->secret_dir, "file");
	fd = open(self->secret, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ(strlen(SECRET_CONTENT),
		  (size_t)write(fd, SECRET_CONTENT, strlen(SECRET_CONTENT)));
	ASSERT_EQ(0, close(fd));
	make_dir(_metadata, self->shared, self->root, "shared", 01777,
		 ROOT_UID);
	path_join(_metadata, self->victim, self->shared, "victim");

	/* Only Warden may decide. */
	knob_set(_metadata, &self->mainline, MAINLINE_KNOB, "0");
	knob_set(_metadata, &self->warden, WARDEN_KNOB, "1");
}

FIXTURE_TEARDOWN_PARENT(sticky_symlink_race)
{
	knob_restore(_metadata, &self->warden);
	knob_restore(_metadata, &self->mainline);
	tmpfs_teardown(_metadata, self->root);
}

struct attacker {
	const char *shared;
	const char *victim;
	const char *secret;
	int id;
};

/* Puts @tmp in place of the victim, atomically or not. */
static int swap_in(const char *const tmp, const char *const victim,
		   const bool atomic)
{
	if (!atomic && unlink(victim) && errno != ENOENT)
		return errno;
	if (rename(tmp, victim))
		return errno;
	return 0;
}

/* Runs as USER_UID until killed. */
static int attack(const void *const arg)
{
	const struct attacker *const a = arg;
	char link[PATH_MAX], file[PATH_MAX];
	unsigned int round;
	int fd, err;

	if (die_with_parent())
		return errno;
	snprintf(link, sizeof(link), "%s/.link%d", a->shared, a->id);
	snprintf(file, sizeof(file), "%s/.file%d", a->shared, a->id);
	for (round = 0;; round++) {
		unlink(link);
		if (symlink(a->secret, link))
			return errno;
		err = swap_in(link, a->victim, round & 2);
		if (err)
			return err;

		unlink(file);
		fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return errno;
		if (write(fd, USER_CONTENT, strlen(USER_CONTENT)) < 0)
			return errno;
		close(fd);
		err = swap_in(file, a->victim, round & 4);
		if (err)
			return err;

		/* A symlink made in place, not renamed over the name. */
		if (round & 8) {
			if (unlink(a->victim) && errno != ENOENT)
				return errno;
			if (symlink(a->secret, a->victim) && errno != EEXIST)
				return errno;
		}
	}
}

TEST_F_TIMEOUT(sticky_symlink_race, root_never_opens_the_target,
	       STRESS_TIMEOUT_S)
{
	const unsigned long attempts = stress_attempts(DEFAULT_ATTEMPTS);
	unsigned long i, opened = 0, denied = 0, absent = 0;
	struct attacker a[ATTACKERS];
	struct stat secret, st;
	char buf[64];
	int n, fd;

	ASSERT_EQ(0, stat(self->secret, &secret));
	for (n = 0; n < ATTACKERS; n++) {
		a[n] = (struct attacker){
			.shared = self->shared,
			.victim = self->victim,
			.secret = self->secret,
			.id = n,
		};
		self->attackers[n] = spawn_as(USER_UID, attack, &a[n]);
		ASSERT_LT(0, self->attackers[n]);
	}

	for (i = 0; i < attempts; i++) {
		fd = open(self->victim, O_RDONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == EACCES) {
				denied++;
				continue;
			}
			if (errno == ENOENT) {
				absent++;
				continue;
			}
			ASSERT_EQ(EACCES, errno)
			{
				TH_LOG("Attempt %lu: open failed with %s", i,
				       strerror(errno));
			}
		}
		opened++;
		ASSERT_EQ(0, fstat(fd, &st));
		n = read(fd, buf, sizeof(buf) - 1);
		ASSERT_LE(0, n);
		buf[n] = '\0';
		ASSERT_EQ(0, close(fd));
		if ((st.st_dev == secret.st_dev && st.st_ino == secret.st_ino) ||
		    strstr(buf, "secret")) {
			ASSERT_TRUE(false)
			{
				TH_LOG("Attempt %lu: root opened the target through a link",
				       i);
			}
		}
		/* The user's file, whole or still being written. */
		ASSERT_EQ(USER_UID, st.st_uid);
	}

	for (n = 0; n < ATTACKERS; n++) {
		int status;

		/* An attacker that stopped early made no attack. */
		ASSERT_EQ(0, waitpid(self->attackers[n], &status, WNOHANG));
		kill_child(&self->attackers[n]);
	}
	TH_LOG("%lu attempts: %lu opened the user's file, %lu denied, %lu found no name",
	       attempts, opened, denied, absent);
	/* The race happened both ways. */
	EXPECT_LT(0, denied);
	EXPECT_LT(0, opened);
}

TEST_HARNESS_MAIN
