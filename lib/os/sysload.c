/*
 * The readings behind --memfree and --load (see sysload.h).  The files are
 * Linux's: /proc/meminfo and /proc/loadavg, each read whole with read(2)
 * into a buffer on the stack, then parsed as text.  Numbers are parsed by
 * hand, not with strtod(), so that a caller's setlocale() cannot turn the
 * decimal point into a comma.  The load average is read from /proc/loadavg
 * rather than with getloadavg(), which -D_POSIX_C_SOURCE hides and which
 * glibc implements by reading the same file.
 */
#include "sysload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#define MEMINFO		"/proc/meminfo"
#define LOADAVG		"/proc/loadavg"
#define SLURPMAX	8192	/* /proc/meminfo is under 2 KiB in 6.x */

static bool
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* Read the file at path into buf (size bytes) with read(2) until its end.
 * If it does not fit, the last partial line is dropped, so that a value
 * cut short is never parsed.  Returns 0 and sets *len, or -errno. */
static int
slurp(const char *path, char *buf, size_t size, size_t *len)
{
	size_t got = 0;
	ssize_t r;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < size) {
		r = read(fd, buf + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = -errno;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (err != 0)
		return err;
	if (got == size)
		while (got > 0 && buf[got - 1] != '\n')
			got--;
	*len = got;
	return 0;
}

/* Parse the decimal digits in [*p, end) into *v, advancing *p.  Returns 0,
 * -EINVAL if there is no digit, or -ERANGE on overflow. */
static int
digits(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	unsigned d;

	if (s == end || !isdig(*s))
		return -EINVAL;
	for (; s < end && isdig(*s); s++) {
		d = (unsigned)(*s - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*p = s;
	*v = x;
	return 0;
}

static const char *
skipblank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The value of one meminfo line after its "field:", [p, end). */
static int
meminfo_value(const char *p, const char *end, uint64_t *bytes)
{
	uint64_t v;
	int rc;

	p = skipblank(p, end);
	if ((rc = digits(&p, end, &v)) != 0)
		return rc;
	p = skipblank(p, end);
	if (end - p >= 2 && p[0] == 'k' && p[1] == 'B') {
		if (v > UINT64_MAX / 1024)
			return -ERANGE;
		v *= 1024;
		p = skipblank(p + 2, end);
	}
	if (p != end)
		return -EINVAL;
	*bytes = v;
	return 0;
}

int
wspx__sysload_meminfo_parse(const char *buf, size_t n, const char *field,
    uint64_t *bytes)
{
	const char *p = buf, *end = buf + n, *eol;
	size_t flen = strlen(field);

	if (flen == 0 || memchr(field, ':', flen) != NULL ||
	    memchr(field, '\n', flen) != NULL)
		return -EINVAL;
	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		if ((size_t)(eol - p) > flen && memcmp(p, field, flen) == 0 &&
		    p[flen] == ':')
			return meminfo_value(p + flen + 1, eol, bytes);
		p = eol + 1;
	}
	return -ENOENT;
}

int
wspx__sysload_meminfo_read(const char *path, const char *field,
    uint64_t *bytes)
{
	char buf[SLURPMAX];
	size_t len;
	int rc;

	rc = slurp(path != NULL ? path : MEMINFO, buf, sizeof(buf), &len);
	if (rc != 0)
		return rc;
	return wspx__sysload_meminfo_parse(buf, len, field, bytes);
}

int
wspx__sysload_memavailable_parse(const char *buf, size_t n, uint64_t *bytes)
{
	static const char *const old[] = { "MemFree", "Buffers", "Cached" };
	uint64_t sum = 0, v;
	size_t i;
	int rc;

	rc = wspx__sysload_meminfo_parse(buf, n, "MemAvailable", bytes);
	if (rc != -ENOENT)
		return rc;
	for (i = 0; i < sizeof(old) / sizeof(old[0]); i++) {
		if ((rc = wspx__sysload_meminfo_parse(buf, n, old[i],
		    &v)) != 0)
			return rc;
		if (v > UINT64_MAX - sum)
			return -ERANGE;
		sum += v;
	}
	*bytes = sum;
	return 0;
}

int
wspx__sysload_memavailable(uint64_t *bytes)
{
	char buf[SLURPMAX];
	size_t len;
	int rc;

	if ((rc = slurp(MEMINFO, buf, sizeof(buf), &len)) != 0)
		return rc;
	return wspx__sysload_memavailable_parse(buf, len, bytes);
}

int
wspx__sysload_loadavg_parse(const char *buf, size_t n, double *load)
{
	const char *p = buf, *end = buf + n;
	double v = 0, scale = 1;

	if (p == end || !isdig(*p))
		return -EINVAL;
	for (; p < end && isdig(*p); p++)
		v = v * 10 + (*p - '0');
	if (p < end && *p == '.')
		for (p++; p < end && isdig(*p); p++) {
			scale /= 10;
			v += scale * (*p - '0');
		}
	if (p < end && *p != ' ' && *p != '\t' && *p != '\n')
		return -EINVAL;
	*load = v;
	return 0;
}

int
wspx__sysload_loadavg(double *load)
{
	char buf[256];
	size_t len;
	int rc;

	if ((rc = slurp(LOADAVG, buf, sizeof(buf), &len)) != 0)
		return rc;
	return wspx__sysload_loadavg_parse(buf, len, load);
}
