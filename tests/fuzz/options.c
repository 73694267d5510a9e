/*
 * Fuzz target: the command line.  The input is argv, its words separated
 * by NULs (argv[0] is "wspx"), taken as main() takes it up to the run:
 * the options with their abbreviations and values, GNU parallel's refused
 * options, COMMAND with its ::: and :::: sources and the checks of
 * options that cannot be combined; or, after a job file's command (run,
 * check, list, graph), the options among its words.  Usage errors exit,
 * which the harness brings back; --help and --version print and exit the
 * same way (libFuzzer closes the target's stdout and stderr).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph/jobfilecmd.h"
#include "harness.h"
#include "options/cmdline.h"
#include "options/config.h"
#include "options/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


static void
parse(int argc, char **argv, struct config *c)
{
	int first;
	size_t n;
	char **words;

	first = options_parse(c, argc, argv);
	if (first < argc && strcmp(argv[first], "report") == 0)
		return;		/* wspx report: its own target */
	if (first < argc && jobfile_command(argv[first]) &&
	    strcmp(argv[first - 1], "--") != 0) {
		words = cmdline_jobfile(c, argc, argv, first, &n);
		free(words);
		return;
	}
	cmdline_finish(c, argc, argv, first);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	size_t n;
	char **w = fz_words(data, size, size + 1, &n);
	char **argv = calloc(n + 2, sizeof(*argv));

	argv[0] = "wspx";
	memcpy(argv + 1, w, n * sizeof(*w));
	config_defaults(&c);
	fz_begin();
	if (setjmp(fz_jump) == 0)
		parse((int)n + 1, argv, &c);
	fz_done();
	if (!fz_exited())
		config_free(&c);
	free(argv);
	fz_freewords(w);
	return 0;
}
