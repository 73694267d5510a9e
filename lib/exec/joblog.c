/*
 * The joblog (see joblog.h).  Rows are formatted in full before their one
 * write to a descriptor opened with O_APPEND, so rows written by several
 * threads never interleave and each lands whole at the end of the file,
 * even with another writer appending to it.
 */
#include "joblog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/proc.h"

static const char header[] = "Seq\tHost\tStarttime\tJobRuntime\tSend\t"
    "Receive\tExitval\tSignal\tCommand\n";

struct wspx__joblog {
	int fd;
	_Atomic(int) err;	/* first write error, or 0 */
};

int
wspx__joblog_open(struct wspx__joblog **out, const char *path, bool append)
{
	struct wspx__joblog *jl;
	struct stat st;
	int rc = 0;

	if ((jl = calloc(1, sizeof(*jl))) == NULL)
		return -ENOMEM;
	jl->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC |
	    (append ? 0 : O_TRUNC), 0666);
	if (jl->fd < 0 || fstat(jl->fd, &st) != 0)
		rc = -errno;
	else if (st.st_size == 0 || !S_ISREG(st.st_mode))
		rc = wspx__proc_writeall(jl->fd, header, sizeof(header) - 1);
	if (rc != 0) {
		if (jl->fd >= 0)
			close(jl->fd);
		free(jl);
		return rc;
	}
	atomic_init(&jl->err, 0);
	*out = jl;
	return 0;
}

const char *
wspx__joblog_header(void)
{
	return header;
}

char *
wspx__joblog_line(const struct wspx__joblog_row *r, size_t *len)
{
	size_t cmdlen = strlen(r->command), i, n;
	char *line, *p;

	/* the numbers take at most 160 bytes */
	if ((line = malloc(cmdlen + strlen(r->host) + 200)) == NULL)
		return NULL;
	n = (size_t)sprintf(line, "%llu\t%s\t%.3f\t%10.3f\t%llu\t%llu\t%d\t%d\t",
	    (unsigned long long)r->seq, r->host, r->start, r->runtime,
	    (unsigned long long)r->send, (unsigned long long)r->receive,
	    r->exitval, r->signal);
	p = line + n;
	for (i = 0; i < cmdlen; i++)
		*p++ = r->command[i] == '\n' ? ' ' : r->command[i];
	*p++ = '\n';
	*p = '\0';
	*len = (size_t)(p - line);
	return line;
}

int
wspx__joblog_write(struct wspx__joblog *jl,
    const struct wspx__joblog_row *r)
{
	char *line;
	size_t n;
	int rc, none = 0;

	if ((line = wspx__joblog_line(r, &n)) == NULL)
		return -ENOMEM;
	rc = wspx__proc_writeall(jl->fd, line, n);
	free(line);
	/* relaxed: only the first error is kept; read after the writers'
	 * threads are joined. */
	if (rc != 0)
		(void)atomic_compare_exchange_strong_explicit(&jl->err, &none,
		    rc, memory_order_relaxed, memory_order_relaxed);
	return rc;
}

int
wspx__joblog_close(struct wspx__joblog *jl)
{
	int rc;

	if (jl == NULL)
		return 0;
	rc = atomic_load_explicit(&jl->err, memory_order_relaxed);
	if (close(jl->fd) != 0 && rc == 0)
		rc = -errno;
	free(jl);
	return rc;
}

/* Read a decimal number ending at a tab: an unsigned one, or with sign a
 * signed one.  Returns the character after the tab, or NULL. */
static char *
number(char *s, bool sign, long long *v)
{
	char *end;

	if (!(*s >= '0' && *s <= '9') && !(sign && *s == '-'))
		return NULL;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno == 0 && *end == '\t' ? end + 1 : NULL;
}

/* A number with decimals (possibly padded with spaces) ending at a tab. */
static char *
decimal(char *s, double *v)
{
	char *end;

	while (*s == ' ')
		s++;
	if (!(*s >= '0' && *s <= '9'))
		return NULL;
	*v = strtod(s, &end);
	return *end == '\t' ? end + 1 : NULL;
}

/* Parse one row (its newline removed) into r.  Returns 0 or -EINVAL. */
static int
parserow(char *s, struct wspx__joblog_row *r)
{
	long long seq, send, receive, exitval, sig;
	char *host = NULL;

	if ((s = number(s, false, &seq)) == NULL || seq <= 0)
		return -EINVAL;
	host = s;
	if ((s = strchr(s, '\t')) == NULL || s == host)
		return -EINVAL;
	*s++ = '\0';
	if ((s = decimal(s, &r->start)) == NULL ||
	    (s = decimal(s, &r->runtime)) == NULL ||
	    (s = number(s, false, &send)) == NULL ||
	    (s = number(s, false, &receive)) == NULL ||
	    (s = number(s, true, &exitval)) == NULL ||
	    (s = number(s, false, &sig)) == NULL ||
	    exitval < -1000000 || exitval > 1000000 || sig > 1000)
		return -EINVAL;
	r->seq = (uint64_t)seq;
	r->host = host;
	r->send = (uint64_t)send;
	r->receive = (uint64_t)receive;
	r->exitval = (int)exitval;
	r->signal = (int)sig;
	r->command = s;
	return 0;
}

/* Give each line of the file f to fn; see wspx__joblog_read(). */
static int
readrows(FILE *f, wspx__joblog_fn *fn, void *ctx, size_t *line)
{
	struct wspx__joblog_row r;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	while (rc == 0 && (n = getline(&buf, &cap, f)) > 0) {
		++*line;
		if (buf[n - 1] == '\n')
			buf[--n] = '\0';
		if (*line == 1)
			rc = strncmp(buf, header, sizeof(header) - 2) == 0 &&
			    (size_t)n == sizeof(header) - 2 ? 0 : -EINVAL;
		else if ((rc = parserow(buf, &r)) == 0)
			rc = fn(ctx, &r);
	}
	if (rc == 0 && ferror(f)) {
		rc = -errno;
		*line = 0;
	}
	free(buf);
	return rc;
}

int
wspx__joblog_read(const char *path, wspx__joblog_fn *fn, void *ctx,
    size_t *line)
{
	FILE *f;
	int rc;

	*line = 0;
	if ((f = fopen(path, "re")) == NULL)
		return errno == ENOENT ? 0 : -errno;
	rc = readrows(f, fn, ctx, line);
	fclose(f);
	return rc;
}
