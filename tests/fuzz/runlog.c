/*
 * Fuzz target: wspx report FILE --svg OUT.  The input is FILE's content,
 * written to a file and read by review_main() as the command line's
 * "report" hands it over: a --trace file, an --events file or a joblog,
 * which a run wrote, a run killed midway cut short, or anyone edited.
 * Every byte of it goes through cmd/review/runlog.c (the format, the
 * joblog's rows) or jsonlog.c over lib/base/json.c (the events), then
 * the totals, critpath.c's walk over the needs and timeline.c's picture,
 * written to a file of the target's own.  A file that is not of a known
 * format exits, which the harness brings back; the report goes to
 * stdout, which libFuzzer sends to /dev/null.
 *
 * The picture is checked for what timeline.c promises of text from the
 * file: well-formed UTF-8 that XML may hold, and the whole document.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "review/review.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], svg[80];

static void
removesvg(void)
{
	unlink(svg);
	rmdir(dir);
}

/* The path of the picture, in a directory of the target's own. */
static const char *
svgpath(void)
{
	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "/tmp/wspx-fuzz-svg.XXXXXX");
		if (mkdtemp(dir) == NULL)
			abort();
		snprintf(svg, sizeof(svg), "%s/out.svg", dir);
		atexit(removesvg);
	}
	return svg;
}

/* The length of the UTF-8 character at s[0..n) if XML may hold it (no
 * control character but tab, newline and return; no overlong form,
 * surrogate, U+FFFE or U+FFFF, nothing past U+10FFFF), else 0. */
static size_t
xmlchar(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t u;

	if (s[0] < 0x80)
		return s[0] >= 0x20 || s[0] == '\t' || s[0] == '\n' ||
		    s[0] == '\r' ? 1 : 0;
	len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	if (len == 0 || len > n || s[0] > 0xf4)
		return 0;
	u = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		u = u << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && u < 0x80) || (len == 3 && u < 0x800) ||
	    (len == 4 && u < 0x10000) || u > 0x10ffff ||
	    (u >= 0xd800 && u <= 0xdfff) || u == 0xfffe || u == 0xffff)
		return 0;
	return len;
}

/* The picture at path: whole, and text that XML may hold. */
static void
checksvg(const char *path)
{
	static const char end[] = "</svg>\n";
	const size_t endlen = sizeof(end) - 1;
	unsigned char *s = NULL;
	size_t at, k;
	off_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || (len = lseek(fd, 0, SEEK_END)) < 0 ||
	    (s = malloc((size_t)len + 1)) == NULL ||
	    pread(fd, s, (size_t)len, 0) != len)
		fz_fail("report returned, but %s cannot be read", path);
	close(fd);
	if ((size_t)len < endlen ||
	    memcmp(s + len - (off_t)endlen, end, endlen) != 0)
		fz_fail("the picture is not whole");
	for (at = 0; at < (size_t)len; at += k)
		if ((k = xmlchar(s + at, (size_t)len - at)) == 0)
			fz_fail("the picture holds byte %#x at %zu, which "
			    "XML cannot", s[at], at);
	free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *out = svgpath();
	char *argv[] = { "report", (char *)fz_file(data, size), "--svg",
	    (char *)out, NULL };

	unlink(out);
	fz_begin();
	if (setjmp(fz_jump) == 0)
		review_main(4, argv);
	fz_done();
	if (!fz_exited())
		checksvg(out);
	return 0;
}
