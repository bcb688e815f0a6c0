// SPDX-License-Identifier: GPL-2.0
/*
 * userns_run [-n] [-u UID] -- PROGRAM [ARGS...]
 *
 * Run PROGRAM as the root of a new user namespace that an unprivileged
 * user (UID, default 65534, its group the same number) made, as
 * `setpriv --reuid=UID ... unshare -Ur[n]` would; with -n in a new network
 * namespace too.  The namespace's uid and gid 0 map to UID only, so its
 * root holds capabilities over the new namespaces and none outside.
 *
 * Why not unshare(1): the lab guests run chrooted into the host's root,
 * and the kernel refuses CLONE_NEWUSER to a chrooted caller.  So, still
 * real root, we keep a handle on our root, change root to PID 1's (the
 * mount namespace's own root), give up root for UID, make the namespaces,
 * and go back into the kept root, which the new namespace's root may do
 * (CAP_SYS_CHROOT over its own namespace), before exec.
 *
 * Exit: PROGRAM's, or 125 when a step fails (named on stderr).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "userns_run: %s: %s\n", what, strerror(errno));
	exit(125);
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		die(path);
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

int main(int argc, char **argv)
{
	int flags = CLONE_NEWUSER, opt, root;
	unsigned long uid = 65534;
	char map[64];

	while ((opt = getopt(argc, argv, "+nu:")) != -1) {
		switch (opt) {
		case 'n':
			flags |= CLONE_NEWNET;
			break;
		case 'u':
			uid = strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: userns_run [-n] [-u UID] -- PROGRAM [ARGS...]\n");
			return 125;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "userns_run: no program\n");
		return 125;
	}
	root = open("/", O_RDONLY | O_DIRECTORY);
	if (root < 0)
		die("open /");
	if (chroot("/proc/1/root") || chdir("/"))
		die("chroot to PID 1's root");
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		die("give up root");
	/* a uid change made us undumpable: /proc/self would be root's */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		die("PR_SET_DUMPABLE");
	if (unshare(flags))
		die("unshare");
	snprintf(map, sizeof(map), "0 %lu 1\n", uid);
	put("/proc/self/uid_map", map);
	put("/proc/self/setgroups", "deny");
	put("/proc/self/gid_map", map);
	if (fchdir(root) || chroot(".") || chdir("/"))
		die("back to our root");
	close(root);
	execvp(argv[optind], argv + optind);
	die(argv[optind]);
	return 125;
}
