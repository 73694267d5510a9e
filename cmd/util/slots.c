/*
 * -j's value (see slots.h), as GNU parallel reads it.
 */
#include "slots.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define STR(x)		#x
#define XSTR(x)		STR(x)

const char *
slots_parse(const char *spec, unsigned ncpus, unsigned *slots)
{
	long cpus = ncpus, n;
	const char *digits = *spec == '+' || *spec == '-' ? spec + 1 : spec;
	char *end;

	errno = 0;
	n = strtol(digits, &end, 10);
	if (*digits < '0' || *digits > '9' ||
	    (*end != '\0' && strcmp(end, "%") != 0) ||
	    (*end == '%' && digits != spec))
		return "is not a number of jobs (N, N%, +N, -N)";
	if (errno == ERANGE || n > MAXJOBS)
		return "is more than " XSTR(MAXJOBS) " jobs";
	if (*end == '%')
		n = cpus * n / 100;
	else if (*spec == '+')
		n = cpus + n;
	else if (*spec == '-')
		n = cpus - n;
	else if (n == 0) {
		*slots = 0;	/* as many as possible: the caller's bound */
		return NULL;
	}
	*slots = n < 1 ? 1 : n > MAXJOBS ? MAXJOBS : (unsigned)n;
	return NULL;
}
