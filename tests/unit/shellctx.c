/*
 * Unit tests for the places of ${{ }} expressions in a command
 * (jobfile/shellctx.h): each place of each language, the edits of a
 * quoted here-document, the refusals, and commands nested past the
 * scanner's depth.  The bats tests (tests/cli/values.bats) run the
 * results in the real shells; these pin the scanner's reading.
 *
 * usage: shellctx
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/shellctx.h"
#include "test.h"

#define E "${{ matrix.v }}"

/* The places of cmd's expressions for lang, as letters: w word, d "...",
 * s '...', c comment, h here-document; u and e for a quoted
 * here-document's unquoted delimiter and escaped text.  NULL if refused
 * (why in *err). */
static char *
places(enum wspx__shlang lang, const char *cmd, const char **err)
{
	static const char kinds[] = "wdsch";
	struct wspx__shscan sc;
	char *out;
	size_t i;

	*err = NULL;
	if (wspx__shellctx_scan(cmd, strlen(cmd), lang, &sc) != 0) {
		*err = sc.err;
		wspx__shellctx_free(&sc);
		return NULL;
	}
	out = calloc(sc.n + 1, 1);
	for (i = 0; out != NULL && i < sc.n; i++)
		out[i] = sc.edits[i].kind == WSPX__SHEDIT_UNQUOTE ? 'u' :
		    sc.edits[i].kind == WSPX__SHEDIT_ESCAPE ? 'e' :
		    kinds[sc.edits[i].ctx];
	wspx__shellctx_free(&sc);
	return out;
}

static void
expect(enum wspx__shlang lang, const char *cmd, const char *want)
{
	const char *err;
	char *got = places(lang, cmd, &err);

	if (got == NULL || strcmp(got, want) != 0)
		fprintf(stderr, "  %s: got %s (%s), want %s\n", cmd,
		    got != NULL ? got : "refusal", err != NULL ? err : "",
		    want);
	CHECK(got != NULL && strcmp(got, want) == 0);
	free(got);
}

static void
refused(enum wspx__shlang lang, const char *cmd, const char *why)
{
	const char *err;
	char *got = places(lang, cmd, &err);

	if (got != NULL || err == NULL || strstr(err, why) == NULL)
		fprintf(stderr, "  %s: got %s, want a refusal: %s\n", cmd,
		    got != NULL ? got : err != NULL ? err : "nothing", why);
	CHECK(got == NULL && err != NULL && strstr(err, why) != NULL);
	free(got);
}

static void
test_posix(void)
{
	expect(WSPX__SH_POSIX, "echo " E, "w");
	expect(WSPX__SH_POSIX, "echo \"a " E "\" '" E "'", "ds");
	expect(WSPX__SH_POSIX, "x=$(echo " E ") \"$(echo " E ")\"", "ww");
	expect(WSPX__SH_POSIX, "x=`echo " E "`", "w");
	expect(WSPX__SH_POSIX, "echo \"${X:-" E "}\" ${X:+" E "}", "dw");
	expect(WSPX__SH_POSIX, "echo a#" E " # " E "\necho " E, "wcw");
	expect(WSPX__SH_POSIX, "cat <<EOF\n" E "\nEOF\necho " E, "hw");
	expect(WSPX__SH_POSIX, "cat <<-EOF\n\t$(echo " E ")\n\tEOF", "w");
	expect(WSPX__SH_POSIX, "cat <<'EOF'\na " E " $b\nEOF", "uehe");
	expect(WSPX__SH_POSIX, "echo $((1 + 2)) " E " [" E "]", "ww");
	expect(WSPX__SH_POSIX, "echo \\$x " E, "w");
	expect(WSPX__SH_POSIX, "echo 'it''s' \"q\\\"" E "\"", "d");
	expect(WSPX__SH_POSIX, "echo none", "");
	/* (a # after } or ) is in a word, not a comment) */
	expect(WSPX__SH_POSIX, "echo ${X}#" E " $(c)#" E, "ww");
	expect(WSPX__SH_POSIX, "[ \"" E "\" = x ] && [[ " E " == y ]]", "dw");
	/* A here-document opened in `...` inside another's text ends with
	 * that text, as the shell reads it when it expands the outer one:
	 * its unended text used to run on over the rest of the command,
	 * whose expression was then edited twice, in two ways (found by
	 * tests/fuzz/jobfile: wspx run crashed on the overlap). */
	expect(WSPX__SH_POSIX, "c<<EOF\nn`e <<'Q'\nEOF\n" E "\n", "w");
	expect(WSPX__SH_POSIX, "c<<EOF\nn`e <<'Q'\n" E "\nEOF\n" E "\n",
	    "uhew");
	expect(WSPX__SH_POSIX, "c<<EOF\n$(e <<Q\n" E "\nQ\n)\nEOF\n" E,
	    "hw");
}

static void
test_posix_refused(void)
{
	refused(WSPX__SH_POSIX, "echo $((" E " + 1))", "arithmetic");
	refused(WSPX__SH_POSIX, "(( x = " E " ))", "arithmetic");
	refused(WSPX__SH_POSIX, "a[" E "]=1", "arithmetic");
	refused(WSPX__SH_POSIX, "echo ${x:" E "}", "name or an offset");
	refused(WSPX__SH_POSIX, "echo ${" E "}", "name or an offset");
	refused(WSPX__SH_POSIX, "echo $'" E "'", "$'...'");
	refused(WSPX__SH_POSIX, "echo \\" E, "backslash");
	refused(WSPX__SH_POSIX, "echo \"`echo " E "`\"", "`...` inside");
	refused(WSPX__SH_POSIX, "cat <<" E "\nx\n", "delimiter");
	/* arithmetic and subscripts wherever they are, whatever the
	 * scanner makes of the quotes */
	refused(WSPX__SH_POSIX, "for((i=0;i<" E ";i++)); do :; done",
	    "arithmetic");
	refused(WSPX__SH_POSIX, "a=([" E "]=1)", "subscript");
	refused(WSPX__SH_POSIX, "echo \"$a[" E "]\"", "subscript");
	refused(WSPX__SH_POSIX, "echo ${HOME}#$((" E "))", "arithmetic");
	refused(WSPX__SH_POSIX, "echo \"${x#'\"'}\" $((" E "))",
	    "arithmetic");
	refused(WSPX__SH_POSIX, "echo \"price: $" E "\"", "after a $");
	refused(WSPX__SH_POSIX, "cat <<'END X'\n" E "\nEND X",
	    "not a plain word");
}

static void
test_fish_csh(void)
{
	expect(WSPX__SH_FISH, "echo " E " \"" E "\" '" E "'", "wds");
	expect(WSPX__SH_FISH, "echo (echo " E ") \"$(echo " E ")\"", "ww");
	expect(WSPX__SH_FISH, "echo 'a\\'" E "' # " E, "sc");
	expect(WSPX__SH_CSH, "echo " E " \"" E "\" '" E "' `echo " E "`",
	    "wdsw");
	refused(WSPX__SH_CSH, "cat <<EOF\n" E "\nEOF", "<< of csh");
	refused(WSPX__SH_CSH, "cat <<'EOF'\n" E "\nEOF", "<< of csh");
	/* (tcsh: a # inside a word starts a comment; \ escapes nothing in
	 * "...": either could hide a here-document from a scanner) */
	refused(WSPX__SH_CSH, "echo a#don't\ncat <<EOF\n" E "\nEOF",
	    "<< of csh");
	refused(WSPX__SH_CSH, "echo \"C:\\\" <<EOF\n" E "\nEOF",
	    "<< of csh");
	expect(WSPX__SH_CSH, "echo a#" E, "c");
}

/* A command nested deeper than the scanner follows is taken if no
 * expression comes after the depth, refused if one does. */
static void
test_deep(void)
{
	char cmd[1024], *p;
	int i;

	p = cmd + sprintf(cmd, "echo " E " ");
	for (i = 0; i < 100; i++)
		p += sprintf(p, "$(");
	for (i = 0; i < 100; i++)
		p += sprintf(p, ")");
	expect(WSPX__SH_POSIX, cmd, "w");
	p = cmd + sprintf(cmd, "echo ");
	for (i = 0; i < 100; i++)
		p += sprintf(p, "$(");
	p += sprintf(p, E);
	for (i = 0; i < 100; i++)
		p += sprintf(p, ")");
	refused(WSPX__SH_POSIX, cmd, "nested deeper");
}

int
main(void)
{
	TEST(test_posix(), "shellctx: the places of sh");
	TEST(test_posix_refused(), "shellctx: the places sh cannot take data "
	    "in");
	TEST(test_fish_csh(), "shellctx: the places of fish and csh");
	TEST(test_deep(), "shellctx: nested past the depth");
	return test_done();
}
