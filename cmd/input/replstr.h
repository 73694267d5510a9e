/*
 * The names of the replacement strings: the default ones ({} {.} ...),
 * those that -I, --er, --bnr, --dnr, --bner, --seqreplace and
 * --slotreplace rename, and --parens' brackets of GNU parallel's Perl
 * expressions; and finding them in a template's text.
 */
#ifndef WSPX_CMD_REPLSTR_H
#define WSPX_CMD_REPLSTR_H

#include <stdbool.h>
#include <stddef.h>

/* What a replacement string stands for.  The first RM_RENAMED can be
 * renamed, in the order of struct replnames' array. */
enum replmod {
	RM_WHOLE,	/* {}    */
	RM_NOEXT,	/* {.}   */
	RM_BASE,	/* {/}   */
	RM_DIR,		/* {//}  */
	RM_BASENOEXT,	/* {/.}  */
	RM_SEQ,		/* {#}   */
	RM_SLOT,	/* {%}   */
	RM_SEQ0,	/* {0#}: {#} zero-padded to {##}'s width */
	RM_SLOT0,	/* {0%}: {%} zero-padded to -j's width */
	/* --plus */
	RM_PDIR,	/* {+/}: what {/} drops, or nothing */
	RM_PEXT,	/* {+.}: what {.} drops */
	RM_PEXT2,	/* {+..}: the last two extensions */
	RM_PEXT3,	/* {+...} */
	RM_NOEXT2,	/* {..}: without the last two */
	RM_NOEXT3,	/* {...} */
	RM_BASENOEXT2,	/* {/..} */
	RM_BASENOEXT3,	/* {/...} */
	RM_TOTAL	/* {##}: the number of jobs */
};

#define RM_RENAMED 7

/* The options' names: name[m] replaces m's default (NULL keeps it);
 * parens is --parens, the opening and closing strings of a Perl
 * expression one after the other (NULL: "{==}"). */
struct replnames {
	const char *name[RM_RENAMED];
	const char *parens;
};

/* A replacement string found in text. */
struct replmatch {
	enum replmod mod;
	size_t field;	/* the 1-based field, or 0 for all of them */
	bool fromend;	/* field counts from the last one */
};

struct replkeys;

/* The strings a template reads: names' (NULL: all defaults), with the
 * --plus ones when plus. */
struct replkeys *replkeys_new(const struct replnames *names, bool plus);

void replkeys_free(struct replkeys *k);

/* If a replacement string starts at p, describe it in *m and return its
 * length; else 0.  Where two could, the longer name wins. */
size_t replkeys_match(const struct replkeys *k, const char *p,
    struct replmatch *m);

/* If a Perl expression ("{= ... =}", or --parens') starts at p, return
 * its length; else 0.  One of a position alone ("{=2=}"), which GNU
 * parallel reads as {2}, is not Perl: that is a replacement string. */
size_t replkeys_perl(const struct replkeys *k, const char *p);

/* Whether s may hold a replacement string of names (a '{', or a renamed
 * string). */
bool replnames_maybe_in(const struct replnames *names, const char *s);

/* --header without --pipe, GNU parallel's names of fields: text with
 * each {NAME}, {NAME.}, {NAME/}, {NAME//} and {NAME/.} whose NAME is
 * names[k - 1] written as {k}, {k.} and so on.  Where several names fit,
 * the first wins; text is read once, so that what was written is not
 * read again.  An empty name is none (else {} would be one).  Returns a
 * malloc'd string, or NULL if text has none of the names. */
char *replstr_colnames(const char *text, char *const *names, size_t n);

#endif
