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

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
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
wspx__meminfo_parse(const char *buf, size_t n, const char *field,
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
wspx__meminfo_read(const char *path, const char *field, uint64_t *bytes)
{
	char buf[SLURPMAX];
	size_t len;
	int rc;

	rc = slurp(path != NULL ? path : MEMINFO, buf, sizeof(buf), &len);
	if (rc != 0)
		return rc;
	return wspx__meminfo_parse(buf, len, field, bytes);
}

int
wspx__memavailable_parse(const char *buf, size_t n, uint64_t *bytes)
{
	static const char *const old[] = { "MemFree", "Buffers", "Cached" };
	uint64_t sum = 0, v;
	size_t i;
	int rc;

	rc = wspx__meminfo_parse(buf, n, "MemAvailable", bytes);
	if (rc != -ENOENT)
		return rc;
	for (i = 0; i < sizeof(old) / sizeof(old[0]); i++) {
		if ((rc = wspx__meminfo_parse(buf, n, old[i], &v)) != 0)
			return rc;
		if (v > UINT64_MAX - sum)
			return -ERANGE;
		sum += v;
	}
	*bytes = sum;
	return 0;
}

int
wspx__memavailable(uint64_t *bytes)
{
	char buf[SLURPMAX];
	size_t len;
	int rc;

	if ((rc = slurp(MEMINFO, buf, sizeof(buf), &len)) != 0)
		return rc;
	return wspx__memavailable_parse(buf, len, bytes);
}

int
wspx__loadavg_parse(const char *buf, size_t n, double *load)
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
wspx__loadavg(double *load)
{
	char buf[256];
	size_t len;
	int rc;

	if ((rc = slurp(LOADAVG, buf, sizeof(buf), &len)) != 0)
		return rc;
	return wspx__loadavg_parse(buf, len, load);
}

/* The power of base that unit suffix u (the rest of a size after its
 * number) stands for; 1^0 for none.  Returns 0, or -EINVAL if u is not a
 * unit GNU parallel's multiply_binary_prefix() knows. */
static int
unit(const char *u, uint32_t *base, int *power)
{
	static const char lower[] = "kmgtpezyx", upper[] = "KMGTPEZYX";
	const char *l, *h;

	*base = 1;
	*power = 0;
	if (*u == '\0')
		return 0;
	l = strchr(lower, *u);
	h = strchr(upper, *u);
	if (l == NULL && h == NULL)
		return -EINVAL;
	*power = l != NULL ? (int)(l - lower) + 1 : (int)(h - upper) + 1;
	*base = h != NULL ? 1024 : 1000;
	if (u[1] == 'i' || u[1] == 'I') {
		*base = 1024;
		u++;
	}
	return u[1] == '\0' ? 0 : -EINVAL;
}

/*
 * A size is computed exactly in 128 bits: the unit goes up to 1024^9 =
 * 2^90, so "0.001Z" needs more than 64 bits on the way to a result that
 * fits.  Only multiplication and division by a small number are needed.
 */
struct big {
	uint32_t w[4];		/* little-endian 32-bit limbs */
};

/* a = a * m + b (b may be NULL).  The callers keep it under 2^128. */
static void
big_muladd(struct big *a, uint32_t m, const struct big *b)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < 4; i++) {
		c += (uint64_t)a->w[i] * m + (b != NULL ? b->w[i] : 0);
		a->w[i] = (uint32_t)c;
		c >>= 32;
	}
	assert(c == 0);
}

/* a = floor(a / 10). */
static void
big_div10(struct big *a)
{
	uint64_t r = 0, cur;
	size_t i;

	for (i = 4; i-- > 0;) {
		cur = r << 32 | a->w[i];
		a->w[i] = (uint32_t)(cur / 10);
		r = cur % 10;
	}
}

static bool
big_fits(const struct big *a, uint64_t *v)
{
	*v = (uint64_t)a->w[1] << 32 | a->w[0];
	return a->w[2] == 0 && a->w[3] == 0;
}

/* floor(digits * m) for the numeral [is, ie) . [fs, fe), into *bytes:
 * the integer part by Horner's rule, stopping once it is past 2^64; the
 * fraction from its last digit as t = floor((d * m + t) / 10), which is
 * exact because floor((a + floor(x)) / 10) == floor((a + x) / 10) for an
 * integer a.  Below 2^128 throughout: v < 2^64, t < m <= 2^90. */
static int
scale(const char *is, const char *ie, const char *fs, const char *fe,
    const struct big *m, uint64_t *bytes)
{
	struct big v = { { 0 } }, t = { { 0 } }, dm;
	uint64_t out;

	for (; is < ie; is++) {
		dm = *m;
		big_muladd(&dm, (uint32_t)(*is - '0'), NULL);
		big_muladd(&v, 10, &dm);
		if (!big_fits(&v, &out))
			return -ERANGE;
	}
	while (fe > fs) {
		dm = *m;
		big_muladd(&dm, (uint32_t)(*--fe - '0'), &t);
		big_div10(&dm);
		t = dm;
	}
	big_muladd(&v, 1, &t);
	if (!big_fits(&v, &out))
		return -ERANGE;
	*bytes = out;
	return 0;
}

int
wspx__size_parse(const char *s, uint64_t *bytes)
{
	const char *p = s, *ie, *fs, *fe;
	struct big m = { { 1 } };
	uint32_t base;
	int power, rc;

	while (isdig(*p))
		p++;
	ie = fs = fe = p;
	if (*p == '.') {
		for (fs = ++p; isdig(*p); p++)
			;
		fe = p;
	}
	if (ie == s && fe == fs)
		return -EINVAL;		/* no digit: "", ".", "K", "-1" */
	if ((rc = unit(p, &base, &power)) != 0)
		return rc;
	while (power-- > 0)
		big_muladd(&m, base, NULL);
	return scale(s, ie, fs, fe, &m, bytes);
}

const char *
wspx__size_format(uint64_t bytes, char *buf, size_t n)
{
	static const char units[] = "KMGTPE";
	uint64_t u = 1024, tenths;
	int i = 0;

	if (bytes < 1024) {
		snprintf(buf, n, "%" PRIu64, bytes);
		return buf;
	}
	while (i < 5 && bytes / u >= 1024) {
		u *= 1024;
		i++;
	}
	/* one decimal, rounded; 1023.96K becomes 1M, not 1024.0K */
	tenths = bytes / u * 10 + (bytes % u * 10 + u / 2) / u;
	if (tenths >= 10240 && i < 5) {
		u *= 1024;
		i++;
		tenths = bytes / u * 10 + (bytes % u * 10 + u / 2) / u;
	}
	if (tenths % 10 == 0)
		snprintf(buf, n, "%" PRIu64 "%c", tenths / 10, units[i]);
	else
		snprintf(buf, n, "%" PRIu64 ".%u%c", tenths / 10,
		    (unsigned)(tenths % 10), units[i]);
	return buf;
}
