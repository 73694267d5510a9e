/*
 * Fuzz target: SSH login specs, as -S/--sshlogin takes them (a comma-
 * separated list of [N/]SPEC) and as --sshloginfile reads them (one list
 * a line, # comments).  The first byte picks which; the rest is the value
 * or the file.
 *
 * A host that is accepted becomes an argument of ssh and a word of the
 * job's command line, so besides the sanitizers the target checks what
 * keeps it from being anything else: the name given to ssh is not empty,
 * does not start with '-' (an option of ssh's) and holds no blank and no
 * shell syntax; a port is a number from 1 to 65535 and N from 1 to
 * 100000.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "remote/hosts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
checkport(const char *spec, const char *port)
{
	char *end;
	unsigned long v;

	if (port == NULL)
		return;
	v = strtoul(port, &end, 10);
	if (port[0] < '0' || port[0] > '9' || *end != '\0' || v < 1 ||
	    v > 65535)
		fz_fail("host '%s': port '%s'", spec, port);
}

static void
checkhost(const struct host *h)
{
	const char *t = h->target;
	size_t i;

	if (h->spec == NULL || h->slots > 100000)
		fz_fail("a host without its spec, or %u slots", h->slots);
	if (h->local)
		return;
	if (t == NULL || t[0] == '\0' || t[0] == '-')
		fz_fail("host '%s': ssh is given '%s'", h->spec,
		    t != NULL ? t : "(null)");
	for (i = 0; t[i] != '\0'; i++)
		if ((unsigned char)t[i] <= ' ' || t[i] == 0x7f ||
		    strchr("'\"\\;|&$`<>(){}*?", t[i]) != NULL)
			fz_fail("host '%s': ssh is given '%s'", h->spec, t);
	checkport(h->spec, h->port);
}

static void
parse(const uint8_t *data, size_t size, struct hostlist *hl)
{
	char *s;

	if (data[0] % 2 == 0) {
		s = fz_string(data + 1, size - 1);
		hosts_add(hl, s);
		free(s);
	} else {
		hosts_file(hl, fz_file(data + 1, size - 1));
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hostlist hl = { NULL, 0 };
	size_t i;

	if (size < 1)
		return 0;
	fz_begin();
	if (setjmp(fz_jump) == 0)
		parse(data, size, &hl);
	fz_done();
	if (fz_exited())
		return 0;	/* hl's hosts were freed with the jump */
	for (i = 0; i < hl.n; i++)
		checkhost(&hl.v[i]);
	hosts_free(&hl);
	return 0;
}
