/*
 * ssh's connections to the hosts of -S: the ControlMasters, each shared
 * by at most SSHCONN_SESSIONS jobs at once, opened all at once, checked,
 * and closed; and the ssh command lines that go through them.
 */
#ifndef WSPX_SSHCONN_H
#define WSPX_SSHCONN_H

#include <stddef.h>

#include "hosts.h"
#include "input/template.h"

/* Sessions one connection carries at once: OpenSSH's sshd allows 10 by
 * default (MaxSessions), and a session past them is refused. */
#define SSHCONN_SESSIONS 10

/* One host's connections. */
struct sshhost {
	const struct host *h;
	char **ctl;		/* the masters' sockets, ctl[0..nctl) open */
	unsigned nctl;
	unsigned nsock;		/* sockets named: ctl[0..nsock) */
	enum shellkind kind;	/* its login shell's quoting, which every
				 * command line sent there gets (sshd runs
				 * it with $SHELL -c) */
	char err[512];		/* why the last one failed to open */
};

struct sshconn;

/* ssh's words (ssh), and a private directory for the sockets; fatal if
 * it cannot be made. */
struct sshconn *sshconn_new(const char *ssh);

/* Open masters until each host i (not local) has want[i] (all at once);
 * one that fails leaves its host's nctl short, with the reason in err. */
void sshconn_connect(struct sshconn *c, struct sshhost *hs, size_t n,
    const unsigned *want);

/* Ask each connected host, over its first connection, its login shell
 * (which sets its kind) and its number of CPUs (cpus[i], 0 if unknown). */
void sshconn_probe(struct sshconn *c, struct sshhost *hs, size_t n,
    unsigned *cpus);

/* Run script on each host i with run[i] set, all at once, through its
 * first connection; ok[i] is whether it exited 0. */
void sshconn_each(struct sshconn *c, struct sshhost *hs, size_t n,
    const unsigned char *run, const char *script, unsigned char *ok);

/* The argv (one free()) that runs script, a POSIX shell script, on host
 * sh through master k: as `exec /bin/sh -c SCRIPT`, quoted for the host's
 * login shell. */
char **sshconn_argv(const struct sshconn *c, const struct sshhost *sh,
    unsigned k, const char *script);

/* Run script on host sh through master k, stdin from in_fd, stdout to
 * out_fd (-1: /dev/null); ssh's last stderr line into err (512 bytes).
 * Returns ssh's exit value, or -errno. */
int sshconn_run(const struct sshconn *c, const struct sshhost *sh,
    unsigned k, const char *script, int in_fd, int out_fd, char *err);

/* After an exit of 255 through master k: 0 if it is up, 1 if it was
 * down and is open again, -1 if it cannot be opened (err says why). */
int sshconn_recheck(struct sshconn *c, struct sshhost *sh, unsigned k,
    char *err);

/* Close every master of the n hosts, and free c. */
void sshconn_close(struct sshconn *c, struct sshhost *hs, size_t n);

#endif /* WSPX_SSHCONN_H */
