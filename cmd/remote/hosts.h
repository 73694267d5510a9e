/*
 * The hosts jobs run on over SSH, as -S/--sshlogin, --sshloginfile and a
 * job file's hosts: give them: [N/]SPEC, where SPEC is host, user@host,
 * host:port, user@host:port, or ":" for this machine, and N the host's job
 * slots.  Parsing only; remote.c runs the jobs.
 */
#ifndef WSPX_HOSTS_H
#define WSPX_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

struct host {
	char *spec;		/* as given, without N/: the joblog's Host */
	char *target;		/* what ssh is given: host or user@host */
	char *port;		/* or NULL: ssh's own */
	unsigned slots;		/* N, or 0: the host's CPUs decide */
	bool local;		/* ":": this machine, no ssh */
};

struct hostlist {
	struct host *v;
	size_t n;
};

/* Add the hosts of value, a comma-separated list of [N/]SPEC; where
 * names the value in an error ("-S", "FILE:LINE").  Returns NULL, or the
 * error's text (static). */
const char *hosts_add(struct hostlist *hl, const char *value);

/* Add the hosts of FILE (one [N/]SPEC list a line, # comments, blank lines
 * skipped); an error is fatal, naming FILE and the line. */
void hosts_file(struct hostlist *hl, const char *path);

void hosts_free(struct hostlist *hl);

#endif /* WSPX_HOSTS_H */
