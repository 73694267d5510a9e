/*
 * The SVG timeline (see timeline.h).  Pixels are computed here, so the
 * file holds what is drawn and nothing more: each row's bars are walked
 * in time order and a bar that would be under two pixels wide joins the
 * one before it when they touch; the merged bar says in its title how
 * many jobs it stands for and takes the colour of the worst of them.
 * The strip below counts the attempts running in each pixel column from
 * the spans themselves (a difference array, so linear in the jobs).
 * Text that came from the run (job names) is escaped for XML, and bytes
 * that XML cannot hold (control characters, broken UTF-8) become "?".
 */
#include "timeline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

#define WIDTH		1200.0	/* the picture, px */
#define LEFT		110.0	/* the row labels */
#define RIGHT		20.0
#define TOP		56.0	/* the title and the legend */
#define PLOT_MAX	720.0	/* the rows, at most */
#define ROW_MAX		18.0	/* a row, at most */
#define STRIP		70.0	/* the running jobs */
#define AXIS		34.0
#define PLOTW		(WIDTH - LEFT - RIGHT)

static const char *const fills[] = {
	[SPAN_OK] = "#43a047", [SPAN_FAILED] = "#e53935",
	[SPAN_TIMEDOUT] = "#fb8c00", [SPAN_STOPPED] = "#9e9e9e"
};
static const char *const words[] = {
	[SPAN_OK] = "ok", [SPAN_FAILED] = "failed",
	[SPAN_TIMEDOUT] = "timed out", [SPAN_STOPPED] = "stopped"
};

/* A row: a (host, slot) pair, or a pool worker's (slot 0). */
struct row {
	unsigned host, slot, worker;
};

struct picture {
	FILE *f;
	const struct runlog *rl;
	const char **crit;	/* the critical path's names, sorted */
	size_t ncrit;
	double wall;
	struct row *rows;
	size_t nrows;
	double rowh;
};

/* Whether c is a UTF-8 continuation byte from lo to hi. */
static bool
cont(unsigned char c, unsigned lo, unsigned hi)
{
	return c >= lo && c <= hi;
}

/* The length of the character at p if XML may hold it (UTF-8 as RFC
 * 3629 has it: no overlong form, no surrogate, nothing past U+10FFFF;
 * and not U+FFFE, U+FFFF or a control character), else 0.  p is
 * NUL-terminated, and a NUL fails every test, so nothing past it is
 * read. */
static size_t
xmlchar(const unsigned char *p)
{
	if (p[0] < 0x80)
		return p[0] >= 0x20 || p[0] == '\t' || p[0] == '\n' ? 1 : 0;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		return cont(p[1], 0x80, 0xbf) ? 2 : 0;
	if (p[0] >= 0xe0 && p[0] <= 0xef) {
		if (!cont(p[1], p[0] == 0xe0 ? 0xa0 : 0x80, p[0] == 0xed ?
		    0x9f : 0xbf) || !cont(p[2], 0x80, 0xbf))
			return 0;
		return p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe ? 0 : 3;
	}
	if (p[0] >= 0xf0 && p[0] <= 0xf4)
		return cont(p[1], p[0] == 0xf0 ? 0x90 : 0x80, p[0] == 0xf4 ?
		    0x8f : 0xbf) && cont(p[2], 0x80, 0xbf) && cont(p[3], 0x80,
		    0xbf) ? 4 : 0;
	return 0;
}

/* s as XML text: escaped, with what XML cannot hold as "?". */
static void
xmltext(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p != '\0') {
		if ((n = xmlchar(p)) == 0) {
			fputc('?', f);
			p++;
		} else if (*p == '&' || *p == '<' || *p == '>' || *p == '"') {
			fputs(*p == '&' ? "&amp;" : *p == '<' ? "&lt;" :
			    *p == '>' ? "&gt;" : "&quot;", f);
			p++;
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
}

/* A duration as a label: the report's, and 0 as 0. */
static void
label(char *b, size_t size, double s)
{
	if (s <= 0)
		snprintf(b, size, "0");
	else
		(void)runlog_duration(b, size, s);
}

static int
byrow(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->host != y->host)
		return (x->host > y->host) - (x->host < y->host);
	if (x->slot != y->slot)
		return (x->slot > y->slot) - (x->slot < y->slot);
	return (x->worker > y->worker) - (x->worker < y->worker);
}

/* The rows, sorted: every (host, slot) a span used. */
static void
findrows(struct picture *pc)
{
	const struct runlog *rl = pc->rl;
	size_t i, k, n = 0;

	pc->rows = xmalloc((rl->nspans + 1) * sizeof(*pc->rows));
	for (i = 0; i < rl->nspans; i++) {
		pc->rows[n].host = rl->spans[i].host;
		pc->rows[n].slot = rl->spans[i].slot;
		pc->rows[n++].worker = rl->spans[i].worker;
	}
	if (n > 0)
		qsort(pc->rows, n, sizeof(*pc->rows), byrow);
	for (i = k = 0; i < n; i++)
		if (k == 0 || byrow(&pc->rows[k - 1], &pc->rows[i]) != 0)
			pc->rows[k++] = pc->rows[i];
	pc->nrows = k;
	pc->rowh = k > 0 && PLOT_MAX / (double)k < ROW_MAX ?
	    PLOT_MAX / (double)k : ROW_MAX;
}

static double
xat(const struct picture *pc, double t)
{
	return LEFT + (pc->wall > 0 ? t / pc->wall * PLOTW : 0);
}

static size_t
rowof(const struct picture *pc, const struct span *sp)
{
	struct row key = { sp->host, sp->slot, sp->worker };
	const struct row *r = bsearch(&key, pc->rows, pc->nrows,
	    sizeof(key), byrow);

	return (size_t)(r - pc->rows);
}

/* Bars merged as they are drawn (see the top). */
struct bar {
	double x0, x1;
	size_t n, failed;
	enum spanend worst;
	bool critical;
	const struct span *first;
};

/* A bar's job name on it, as much as fits (6.5 px a character). */
static void
barlabel(struct picture *pc, const struct bar *b, double y)
{
	double room = (b->x1 - b->x0 - 6) / 6.5;
	const char *s = b->first->name;
	size_t fits, n;
	char *cut;

	if (!(room >= 3))
		return;
	fits = room < 4096 ? (size_t)room : 4096;
	n = strlen(s);
	cut = xmalloc(n + 4);
	strcpy(cut, s);
	if (n > fits) {
		/* (not inside a UTF-8 sequence) */
		n = fits - 1;
		while (n > 0 && (s[n] & 0xc0) == 0x80)
			n--;
		strcpy(cut + n, "\xe2\x80\xa6");	/* ... */
	}
	fprintf(pc->f, "<text x=\"%.2f\" y=\"%.2f\" fill=\"#fff\" "
	    "pointer-events=\"none\">", b->x0 + 3, y);
	xmltext(pc->f, cut);
	fputs("</text>\n", pc->f);
	free(cut);
}

static void
drawbar(struct picture *pc, size_t row, const struct bar *b)
{
	double y = TOP + (double)row * pc->rowh, h = pc->rowh > 3 ?
	    pc->rowh - 1 : pc->rowh;
	char t[32];

	fprintf(pc->f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
	    "height=\"%.2f\" fill=\"%s\"%s><title>", b->x0, y,
	    b->x1 - b->x0 > 0.5 ? b->x1 - b->x0 : 0.5, h, fills[b->worst],
	    b->critical ? " stroke=\"#000\" stroke-width=\"1.5\"" : "");
	if (b->n == 1) {
		xmltext(pc->f, b->first->name);
		label(t, sizeof(t), b->first->end - b->first->start);
		fprintf(pc->f, ": %s, %s", t, words[b->first->end_as]);
		if (b->first->attempt > 1)
			fprintf(pc->f, ", attempt %u", b->first->attempt);
	} else {
		fprintf(pc->f, "%zu jobs", b->n);
		if (b->failed > 0)
			fprintf(pc->f, ", %zu not ok", b->failed);
	}
	fputs("</title></rect>\n", pc->f);
	if (b->n == 1 && pc->rowh >= 12)
		barlabel(pc, b, y + h - 3.5);
}

/* Whether span sp (at x0..x1) joins bar b rather than starting one. */
static bool
joins(const struct bar *b, double x0, double x1)
{
	return b->n > 0 && x0 < b->x1 + 1 && (x1 - x0 < 2 ||
	    b->x1 - b->x0 < 2);
}

static void
addto(struct picture *pc, struct bar *b, const struct span *sp,
    double x0, double x1)
{
	bool crit = critpath_has(pc->crit, pc->ncrit, sp->name);

	if (b->n == 0) {
		memset(b, 0, sizeof(*b));
		b->x0 = x0;
		b->first = sp;
	}
	if (x1 > b->x1 || b->n == 0)
		b->x1 = x1;
	b->n++;
	if (sp->end_as != SPAN_OK)
		b->failed++;
	/* (failed over timed out over stopped over ok) */
	if (sp->end_as == SPAN_FAILED || (sp->end_as == SPAN_TIMEDOUT &&
	    b->worst != SPAN_FAILED) || (sp->end_as == SPAN_STOPPED &&
	    b->worst == SPAN_OK))
		b->worst = sp->end_as;
	b->critical = b->critical || crit;
}

struct placed {
	size_t row;
	const struct span *sp;
};

static int
byrowstart(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->row != y->row)
		return (x->row > y->row) - (x->row < y->row);
	return (x->sp->start > y->sp->start) - (x->sp->start < y->sp->start);
}

static void
drawbars(struct picture *pc)
{
	const struct runlog *rl = pc->rl;
	struct placed *p = xmalloc((rl->nspans + 1) * sizeof(*p));
	struct bar b;
	size_t i;
	double x0, x1;

	for (i = 0; i < rl->nspans; i++) {
		p[i].row = rowof(pc, &rl->spans[i]);
		p[i].sp = &rl->spans[i];
	}
	if (rl->nspans > 0)
		qsort(p, rl->nspans, sizeof(*p), byrowstart);
	b.n = 0;
	for (i = 0; i < rl->nspans; i++) {
		x0 = xat(pc, p[i].sp->start);
		x1 = xat(pc, p[i].sp->end);
		if (b.n > 0 && (p[i].row != p[i - 1].row || !joins(&b, x0,
		    x1))) {
			drawbar(pc, p[i - 1].row, &b);
			b.n = 0;
		}
		addto(pc, &b, p[i].sp, x0, x1);
	}
	if (b.n > 0)
		drawbar(pc, p[rl->nspans - 1].row, &b);
	free(p);
}

static void
drawrows(struct picture *pc)
{
	size_t i;
	double y;

	for (i = 0; i < pc->nrows; i++) {
		y = TOP + (double)i * pc->rowh;
		if (i % 2 == 1)
			fprintf(pc->f, "<rect x=\"%.0f\" y=\"%.2f\" width="
			    "\"%.0f\" height=\"%.2f\" fill=\"#f4f4f4\"/>\n",
			    LEFT, y, PLOTW, pc->rowh);
		if (pc->rowh < 9)
			continue;
		fprintf(pc->f, "<text x=\"%.0f\" y=\"%.2f\" "
		    "text-anchor=\"end\">", LEFT - 6, y + pc->rowh - 4);
		if (pc->rows[i].host > 0) {
			xmltext(pc->f, pc->rl->hosts[pc->rows[i].host - 1]);
			fputc(' ', pc->f);
		}
		if (pc->rows[i].slot == 0 && pc->rows[i].worker > 0)
			fprintf(pc->f, "worker %u", pc->rows[i].worker);
		else if (pc->rows[i].slot == 0)
			fputs("in process", pc->f);
		else
			fprintf(pc->f, "slot %u", pc->rows[i].slot);
		fputs("</text>\n", pc->f);
	}
}

/* Add to col, per pixel column, the part of it the span from x0 to x1
 * (px from the plot's left) covers; whole columns go through slope, a
 * difference array summed afterwards. */
static void
cover(double *col, double *slope, size_t ncols, double x0, double x1)
{
	size_t c0, c1;

	x0 = x0 < 0 ? 0 : x0 > (double)ncols ? (double)ncols : x0;
	x1 = x1 < x0 ? x0 : x1 > (double)ncols ? (double)ncols : x1;
	c0 = (size_t)x0;
	c1 = (size_t)x1;
	if (c0 >= ncols)
		c0 = ncols - 1;
	if (c1 >= ncols)
		c1 = ncols - 1;
	if (c0 == c1) {
		col[c0] += x1 - x0;
		return;
	}
	col[c0] += (double)(c0 + 1) - x0;
	col[c1] += x1 - (double)c1;
	slope[c0 + 1] += 1;
	slope[c1] -= 1;
}

/* The strip: the attempts running in each pixel column, on average over
 * it (so never more than the slots), as an area. */
static void
drawstrip(struct picture *pc, double top)
{
	size_t ncols = (size_t)PLOTW, i;
	double *col = xcalloc(ncols + 1, sizeof(*col)), most = 0, y, run = 0,
	    *slope = xcalloc(ncols + 1, sizeof(*slope));
	const struct span *sp;

	for (i = 0; i < pc->rl->nspans; i++) {
		sp = &pc->rl->spans[i];
		cover(col, slope, ncols, xat(pc, sp->start) - LEFT,
		    xat(pc, sp->end) - LEFT);
	}
	for (i = 0; i < ncols; i++) {
		run += slope[i];
		col[i] += run;
		if (col[i] > most)
			most = col[i];
	}
	fprintf(pc->f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
	    "running</text>\n<text x=\"%.0f\" y=\"%.0f\" text-anchor="
	    "\"end\" class=\"small\">max %.3g</text>\n<polygon "
	    "fill=\"#5c6bc0\" points=\"%.0f,%.0f", LEFT - 6, top + 14,
	    LEFT - 6, top + 28, most, LEFT, top + STRIP);
	for (i = 0; i < ncols; i++) {
		y = top + STRIP - (most > 0 ? col[i] / most : 0) * (STRIP - 4);
		fprintf(pc->f, " %.0f,%.1f %.0f,%.1f", LEFT + (double)i, y,
		    LEFT + (double)i + 1, y);
	}
	fprintf(pc->f, " %.0f,%.0f\"><title>jobs running, on average over "
	    "each pixel: at most %.3g</title></polygon>\n", LEFT + PLOTW,
	    top + STRIP, most);
	free(col);
	free(slope);
}

/* A step for at most 8 ticks: 1, 2 or 5 times a power of ten, and past
 * a minute whole minutes and hours. */
static double
tickstep(double wall)
{
	static const double times[] = { 1, 2, 5 }, clock[] = { 60, 120, 300,
	    600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400 };
	double power = 1e-3;
	size_t i;

	for (i = 0; wall > 8 * 30 && i < sizeof(clock) / sizeof(*clock); i++)
		if (wall / clock[i] <= 8)
			return clock[i];
	for (; power < 1e300; power *= 10)
		for (i = 0; i < 3; i++)
			if (wall / (times[i] * power) <= 8)
				return times[i] * power;
	return wall > 0 ? wall : 1;
}

static void
drawaxis(struct picture *pc, double top)
{
	double step = tickstep(pc->wall), t, x;
	char b[32];
	int k;

	fprintf(pc->f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
	    "stroke=\"#555\"/>\n", LEFT, top, LEFT + PLOTW, top);
	/* (at most 9 ticks, whatever rounding does) */
	for (t = 0, k = 0; k < 10 && (t <= pc->wall * 1.0000001 || t == 0);
	    t += step, k++) {
		x = xat(pc, t);
		label(b, sizeof(b), t);
		fprintf(pc->f, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" "
		    "y2=\"%.0f\" stroke=\"#555\"/><text x=\"%.2f\" "
		    "y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", x, top,
		    x, top + 5, x, top + 18, b);
		if (pc->wall <= 0)
			break;
	}
}

static void
drawhead(struct picture *pc, const char *title)
{
	static const char *const keys[] = { "ok", "failed", "timed out",
	    "stopped" };
	char b[32];
	size_t i;
	double x = WIDTH - RIGHT - 420;

	fputs("<text x=\"10\" y=\"20\" class=\"title\">", pc->f);
	xmltext(pc->f, title);
	label(b, sizeof(b), pc->wall);
	fprintf(pc->f, "</text>\n<text x=\"10\" y=\"40\">%zu attempt%s on "
	    "%zu row%s in %s</text>\n", pc->rl->nspans, pc->rl->nspans == 1 ?
	    "" : "s", pc->nrows, pc->nrows == 1 ? "" : "s", b);
	for (i = 0; i < 4; i++, x += 85)
		fprintf(pc->f, "<rect x=\"%.0f\" y=\"29\" width=\"12\" "
		    "height=\"12\" fill=\"%s\"/><text x=\"%.0f\" y=\"40\">%s"
		    "</text>\n", x, fills[i], x + 16, keys[i]);
	fprintf(pc->f, "<rect x=\"%.0f\" y=\"29\" width=\"12\" height=\"12\" "
	    "fill=\"#fff\" stroke=\"#000\" stroke-width=\"1.5\"/><text "
	    "x=\"%.0f\" y=\"40\">critical path</text>\n", x, x + 16);
}

static void
draw(struct picture *pc, const char *title)
{
	double plot = (double)pc->nrows * pc->rowh, h = TOP + plot + 8 +
	    STRIP + AXIS;

	fprintf(pc->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	    "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family="
	    "\"sans-serif\" font-size=\"11\">\n<style>.title{font-size:"
	    "14px;font-weight:bold}.small{font-size:9px;fill:#555}"
	    "</style>\n<rect width=\"100%%\" height=\"100%%\" "
	    "fill=\"#fff\"/>\n", WIDTH, h, WIDTH, h);
	drawhead(pc, title);
	drawrows(pc);
	drawbars(pc);
	drawstrip(pc, TOP + plot + 8);
	drawaxis(pc, TOP + plot + 8 + STRIP);
	fputs("</svg>\n", pc->f);
}

int
timeline_write(const char *path, const char *title,
    const struct runlog *rl, const struct critjob *crit, size_t ncrit)
{
	struct picture pc;
	char *tmp = xmalloc(strlen(path) + 16);
	size_t i;
	int fd, err = 0;
	mode_t mask;

	memset(&pc, 0, sizeof(pc));
	pc.rl = rl;
	pc.ncrit = ncrit;
	pc.wall = rl->wall > 0 ? rl->wall : 0;
	for (i = 0; i < rl->nspans; i++)
		if (rl->spans[i].end > pc.wall)
			pc.wall = rl->spans[i].end;
	sprintf(tmp, "%s.XXXXXX", path);
	mask = umask(0);
	(void)umask(mask);
	/* (mkstemp's file is 0600; the picture is for whoever may read) */
	if ((fd = mkstemp(tmp)) < 0 || fchmod(fd, 0666 & ~mask) != 0 ||
	    (pc.f = fdopen(fd, "w")) == NULL) {
		err = -errno;
		if (fd >= 0)
			(void)close(fd);
		free(tmp);
		return err;
	}
	pc.crit = critpath_names(crit, ncrit);
	findrows(&pc);
	draw(&pc, title);
	if (ferror(pc.f) || fflush(pc.f) != 0)
		err = errno != 0 ? -errno : -EIO;
	if (fclose(pc.f) != 0 && err == 0)
		err = -errno;
	if (err == 0 && rename(tmp, path) != 0)
		err = -errno;
	if (err != 0)
		(void)unlink(tmp);
	free(pc.rows);
	free(pc.crit);
	free(tmp);
	return err;
}
