/*
 * The guards of shellctx.c that do not rest on its reading of the shell's
 * quotes: found in the command's text alone, wherever they stand, so that
 * a scanner that misreads a quote (bash's '...' inside "${x#...}", a
 * comment that is not one) can never let a value into a place where a
 * shell evaluates it as code.  They refuse more than they must (an
 * expression in a '((' inside single quotes, or in a glob's [...] after
 * a name); the job file can always move such a value into env:.
 *
 *   POSIX sh: an expression inside ((...)) or $((...)) (arithmetic,
 *     wherever the (( is: for((, if((), inside $[...], or inside [...]
 *     right after a name or a '(' (a subscript: a[...]=, ([k]=v), zsh's
 *     $a[...]), where bash and zsh evaluate the value as an expression,
 *     $(...) and all.
 *   csh: an expression after a << anywhere: tcsh runs the backquotes of
 *     a variable's value in a here-document.
 */
#include "shellctx.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile.h"

/* The end of the span that opens at s[i] (past its opener, open bytes
 * long), counting nested open and close characters; n if it never
 * closes. */
static size_t
spanend(const char *s, size_t n, size_t i, char open, char close,
    unsigned depth)
{
	for (; i < n && depth > 0; i++)
		if (s[i] == open)
			depth++;
		else if (s[i] == close)
			depth--;
	return i;
}

static bool
namechar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

/* The end of the guarded place that opens at s[i] for POSIX sh (0 if
 * none does): arithmetic from a ((, a subscript or $[...] from a [ after
 * a name, a '(' or a '$'.  reach[0] and reach[1] are the furthest ends of
 * the (( and [ places found so far: one that opens inside a place of its
 * own kind ends inside it too (it counts from a depth below the outer
 * one's), and is not scanned again, which made a run of (( or a[
 * quadratic. */
static size_t
guardend(const char *s, size_t n, size_t i, size_t reach[2])
{
	if (s[i] == '(' && i + 1 < n && s[i + 1] == '(' && i >= reach[0])
		return reach[0] = spanend(s, n, i + 2, '(', ')', 2);
	if (s[i] == '[' && i > 0 && (s[i - 1] == '$' || s[i - 1] == '(' ||
	    namechar(s[i - 1])) && i >= reach[1])
		return reach[1] = spanend(s, n, i + 1, '[', ']', 1);
	return 0;
}

int
wspx__shellguard_check(const char *s, size_t n, enum wspx__shlang lang,
    size_t *at, const char **why)
{
	struct wspx__jfexpr e;
	size_t pos = 0, i = 0, reach = 0, end, kinds[2] = { 0, 0 };
	bool heredoc = false;

	/* One pass: the text before each expression is looked at once,
	 * reach being the furthest end of a guarded place opened so far. */
	while (wspx__jobfile_next(s, n, &pos, &e) != 0) {
		for (; i < e.start; i++) {
			heredoc |= s[i] == '<' && i + 1 < e.start &&
			    s[i + 1] == '<';
			if (lang == WSPX__SH_POSIX && (end = guardend(s, n,
			    i, kinds)) > reach)
				reach = end;
		}
		if (lang == WSPX__SH_CSH && heredoc) {
			*why = "follows a << of csh, where tcsh would run the "
			    "backquotes of its value";
			*at = e.start;
			return -1;
		}
		if (e.start < reach) {
			*why = "stands in arithmetic or a subscript, where "
			    "bash and zsh would evaluate its value as an "
			    "expression";
			*at = e.start;
			return -1;
		}
		/* (the expression's own text is no shell's) */
		i = e.end > e.start ? e.end : e.start + 1;
		pos = i;
	}
	return 0;
}
