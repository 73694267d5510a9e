/*
 * GNU parallel's options that wspx does not have, each refused by name
 * with one line that says so and why, never as an unknown option: a
 * script written for GNU parallel fails at once and plainly.  A long name
 * is matched whole first, then as an abbreviation only when no option of
 * wspx's own starts with it (options.c asks here last).
 */
#include "refused.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The names, '|' between the spellings of one option. */
static const struct refused {
	const char *names;
	const char *why;
} refused[] = {
	{ "sql|sql-master|sqlmaster|sql-worker|sqlworker|sql-and-worker|"
	    "sqlandworker", "GNU parallel's SQL job queue is not part of wspx" },
	{ "ssh-delay|sshdelay|basefile|bf|rsync-opts|rsyncopts|onall|nonall|"
	    "filter-hosts|filterhosts|filter-host|hgrp|hostgrp|hostgroup|"
	    "hostgroups", "wspx's remote jobs have -S, --ssh, --workdir, --env, "
	    "--transfer-file, --return and --cleanup only" },
	{ "use-sockets-instead-of-threads|"
	    "usesocketsinsteadofthreads|use-cores-instead-of-threads|"
	    "usecoresinsteadofthreads|use-cpus-instead-of-cores|"
	    "usecpusinsteadofcores", "-j counts the hardware threads wspx "
	    "may run on (nproc)" },
	{ "tmux|tmux-pane|tmuxpane|open-tty|ctrl-c|ctrlc|"
	    "no-ctrl-c|no-ctrlc|noctrlc", "jobs never get a terminal of their "
	    "own from wspx" },
	{ "rpl", "its replacement strings are Perl code, which wspx does "
	    "not run (-I, --er and their kin rename the built-in ones)" },
	{ "tee|shard|bin|group-by|groupby|remove-rec-sep|removerecsep|rrs|"
	    "block-timeout|blocktimeout|bt|skip-first-line|skipfirstline",
	    "not part of wspx's --pipe" },
	{ "csv", "--colsep splits records at a regular expression; CSV "
	    "quoting is not read" },
	{ "ctag|ctag-string|ctagstring|color|colour|color-failed|"
	    "colour-failed|colorfailed|colourfailed|color-fail|colour-fail|"
	    "colorfail|colourfail|cf", "output is never coloured" },
	{ "latest-line|latestline|ll", "the status line shows progress, not "
	    "the jobs' last lines" },
	{ "shebang|hashbang|embed|shell-completion|shellcompletion|"
	    "min-version|minversion|tollef|gnu|bug|debug|record-env|recordenv|"
	    "session|template|tmpl|filter|limit|memsuspend|noswap|"
	    "shuf|term-seq|termseq|process-slot-var|"
	    "processslotvar|max-line-length-allowed|maxlinelengthallowed|"
	    "linkinputsource|"
	    "xapplyinputsource|shell-quote|shellquote|shell_quote",
	    "wspx does not have it (see wspx(1), DIFFERENCES FROM GNU "
	    "PARALLEL)" },
};

/* GNU parallel's one-letter options wspx lacks, with their long names,
 * or why, for one GNU parallel retired. */
static const struct {
	char c;
	const char *as;
	const char *why;
} shorts[] = { { 'B', "basefile", NULL }, { 'o', "open-tty", NULL },
    { 'D', "debug", NULL },
    { 'U', NULL, "GNU parallel retired it (use --er)" },
    { 'Y', "shebang", NULL }};

/* Whether names (a '|' list) has name[0..n), whole or (prefix) as the
 * start of one of its spellings. */
static bool
hasname(const char *names, const char *name, size_t n, bool prefix)
{
	const char *p = names, *bar;
	size_t len;

	for (;;) {
		bar = strchr(p, '|');
		len = bar != NULL ? (size_t)(bar - p) : strlen(p);
		if ((len == n || (prefix && len > n)) &&
		    strncmp(p, name, n) == 0)
			return true;
		if (bar == NULL)
			return false;
		p = bar + 1;
	}
}

static _Noreturn void
refuse(const char *typed, const char *why)
{
	fprintf(stderr, PROGNAME ": %s is GNU parallel's and not supported: "
	    "%s\n", typed, why);
	exit(EXIT_USAGE);
}

void
refused_long(const char *name, size_t n, bool prefix)
{
	char typed[80];
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (!hasname(refused[i].names, name, n, prefix))
			continue;
		snprintf(typed, sizeof(typed), "--%.*s", (int)(n > 60 ? 60 :
		    n), name);
		refuse(typed, refused[i].why);
	}
}

void
refused_short(char c)
{
	char typed[3] = { '-', c, '\0' };
	size_t i, k;

	for (i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++) {
		if (shorts[i].c != c)
			continue;
		if (shorts[i].why != NULL)
			refuse(typed, shorts[i].why);
		for (k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
			if (hasname(refused[k].names, shorts[i].as,
			    strlen(shorts[i].as), false))
				refuse(typed, refused[k].why);
		refuse(typed, "wspx does not have it");
	}
}
