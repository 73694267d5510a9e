#!/bin/sh
# The tree's layout rules (STYLE.md, sections 1-3), checked.
# usage: sh tests/layout.sh OBJ...
# Run from the top of a tree: it reads ./lib, ./cmd and ./tests/unit, and
# OBJ... are the objects of every lib/**/*.c.  Each violation is printed as
# "layout: PATH: what is wrong", sorted, then "layout: N problems", and the
# exit status is 1; with none it prints "layout: ok (F files, E folder
# edges)" and exits 0.  POSIX sh (it runs under dash), find, awk, sed, grep,
# nm and sort; file names are assumed to hold no blanks.

# ---- The map: this is the data; the rest of the script is the checks. ----

# The folders of lib/ and cmd/, each with a README.  Besides them only
# lib/wspx.h and cmd/main.c hold sources; in the edges below these two are
# the folders "lib" and "cmd".
FOLDERS='
lib/base lib/os lib/runtime lib/exec lib/builtins lib/jobfile
cmd/util cmd/input cmd/pipe cmd/remote cmd/report cmd/review cmd/options
cmd/run
cmd/graph
'
ROOTFILES='lib/wspx.h cmd/main.c'

# "folder: targets": which folders a folder's files may include.  A folder
# may also include whatever its targets may (the closure is taken), so a
# line need not repeat the layers below.  "lib/*" is every folder of lib/.
ALLOWED='
lib/base:     lib
lib/os:       lib/base
lib/runtime:  lib/base lib/os
lib/exec:     lib/base lib/os lib/runtime
lib/builtins: lib/base lib/os lib/runtime
lib/jobfile:  lib/base lib/os lib/runtime lib/exec lib/builtins
cmd/util:     lib lib/*
cmd/input:    cmd/util
cmd/pipe:     cmd/util cmd/input
cmd/remote:   cmd/util cmd/input
cmd/report:   cmd/util
cmd/review:   cmd/util cmd/report
cmd/options:  cmd/util cmd/input cmd/remote cmd/report
cmd/run:      cmd/options cmd/pipe
cmd/graph:    cmd/run
cmd:          cmd/*
'

# A file longer than this says at its top why it is one thing.
MAXLINES=800

# ---- Setup ----

set -u
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# Shared awk helpers: a file's folder (its directory), its base name, its
# top folder (lib or cmd), the text of a line of $tmp/code (which may hold
# tabs), and the regular expression of a C string or character literal.
AWKLIB='
function folder(p) { sub(/\/[^\/]*$/, "", p); return p }
function base(p) { sub(/.*\//, "", p); sub(/\.[^.]*$/, "", p); return p }
function top(p) { sub(/\/.*/, "", p); return p }
function code() { return substr($0, length($1) + length($2) + 3) }
BEGIN { LIT = "\"([^\"\\\\]|\\\\.)*\"|\047([^\047\\\\]|\\\\.)*\047" }
'

# ---- The facts, gathered once into $tmp ----

# all: every file under lib/ and cmd/ (what an include may name);
# src: the .c, .h and .pml files among them, which the rules are about.
list_files() {
	find lib cmd -type f 2>/dev/null | sed 's|^\./||' | sort > "$tmp/all"
	grep -E '\.(c|h|pml)$' "$tmp/all" > "$tmp/src" || [ $? -eq 1 ]
}

# code: "FILE<tab>LINE<tab>text" for each source line that has code, with
# /* */ and // comments blanked out and literals kept.  The approximation:
# a lexer of comments, "strings" and 'c' only; a literal continued with a
# backslash-newline, and code inside #if 0, are read as plain code.
strip_comments() {
	awk '
	FNR == 1 { incomment = 0 }
	{
		s = $0; out = ""
		while (s != "") {
			if (incomment) {
				if (!(i = index(s, "*/")))
					break
				s = substr(s, i + 2)
				incomment = 0; out = out " "
				continue
			}
			if (!match(s, "/[*]|//|[\"\047]")) {
				out = out s
				break
			}
			out = out substr(s, 1, RSTART - 1)
			q = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			if (q == "/*")
				incomment = 1
			else if (q == "//")
				s = ""
			else {
				match(s, "^([^" q "\\\\]|\\\\.)*")
				out = out q substr(s, 1, RLENGTH) q
				s = substr(s, RLENGTH + 2)
			}
		}
		if (out ~ /[^ \t]/)
			print FILENAME "\t" FNR "\t" out
	}' $(cat "$tmp/src") < /dev/null
}

# inc: "FILE LINE NAME TARGET" for each #include "NAME", TARGET being the
# file it resolves to (as the compiler with -Ilib -Icmd: the includer's
# directory, then lib/, then cmd/) or "-"; and for each #include <NAME>
# that names a file of lib/ or cmd/ (the same -I paths find those), which
# is a project include all the same.
resolve_includes() {
	awk -F '\t' "$AWKLIB"'
	function norm(p,   n, i, k, part, st, out) {
		n = split(p, part, "/"); k = 0
		for (i = 1; i <= n; i++)
			if (part[i] == ".." && k > 0 && st[k] != "..")
				k--
			else if (part[i] != "." && part[i] != "")
				st[++k] = part[i]
		out = st[1]
		for (i = 2; i <= k; i++)
			out = out "/" st[i]
		return out
	}
	function resolve(dir, name,   p) {
		if ((p = norm(dir "/" name)) in exists) return p
		if ((p = norm("lib/" name)) in exists) return p
		if ((p = norm("cmd/" name)) in exists) return p
		return "-"
	}
	FILENAME == ARGV[1] { exists[$0]; next }
	code() ~ /^[ \t]*#[ \t]*include[ \t]*"/ {
		name = code()
		sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
		print $1, $2, name, resolve(folder($1), name)
	}
	code() ~ /^[ \t]*#[ \t]*include[ \t]*</ {
		name = code()
		sub(/^[^<]*</, "", name); sub(/>.*/, "", name)
		if ((p = norm("lib/" name)) in exists ||
		    (p = norm("cmd/" name)) in exists)
			print $1, $2, name, p
	}' "$tmp/all" "$tmp/code"
}

# allowed: the ALLOWED lines as "FROM TO" pairs, "lib/*" expanded; a folder
# the map does not know is reported.  reach: their closure.
expand_allowed() {
	printf '%s\n' "$ALLOWED" | awk -v folders="lib cmd $(echo $FOLDERS)" \
	    -v out="$tmp/allowed" '
	BEGIN { n = split(folders, f); for (i = 1; i <= n; i++) known[f[i]] }
	function expand(name,   i, hits) {
		if (name !~ /\/\*$/)
			return (name in known) ? name : unknown(name)
		sub(/\*$/, "", name); hits = ""
		for (i = 1; i <= n; i++)
			if (index(f[i], name) == 1)
				hits = hits " " f[i]
		return hits != "" ? hits : unknown(name "*")
	}
	function unknown(name) {
		print "layout: allowed edges: " name \
		    " is not a folder of the map"
		return ""
	}
	/^[ \t]*(#|$)/ { next }
	!(colon = index($0, ":")) {
		print "layout: allowed edges: no colon in \"" $0 "\""
		next
	}
	{
		nf = split(expand(substr($0, 1, colon - 1)), from)
		nt = split(substr($0, colon + 1), t)
		for (j = 1; j <= nt; j++) {
			m = split(expand(t[j]), to)
			for (k = 1; k <= m; k++)
				for (i = 1; i <= nf; i++)
					print from[i], to[k] > out
		}
	}'
	: >> "$tmp/allowed"
	awk '{ node[$1]; node[$2]; reach[$1, $2] }
	END {
		for (k in node) for (i in node) for (j in node)
			if (((i, k) in reach) && ((k, j) in reach))
				reach[i, j]
		for (p in reach) { split(p, e, SUBSEP); print e[1], e[2] }
	}' "$tmp/allowed" > "$tmp/reach"
}

# ---- The rules; each prints its violations ----

# Rule 1: every source is in a folder of the map (or is lib/wspx.h or
# cmd/main.c), so that a new folder joins the map, and takes its place in
# the edges, on purpose.
check_folders() {
	awk -v folders="$(echo $FOLDERS)" -v roots="$ROOTFILES" "$AWKLIB"'
	BEGIN {
		n = split(folders, f); for (i = 1; i <= n; i++) known[f[i]]
		n = split(roots, f); for (i = 1; i <= n; i++) root[f[i]]
	}
	($0 in root) || (folder($0) in known) { next }
	folder($0) !~ /\// {
		print "layout: " $0 ": directly in " folder($0) \
		    "/, not in one of its folders"
		next
	}
	{ print "layout: " $0 ": folder " folder($0) " is not in the map" }
	' "$tmp/src"
}

# Rule 1: each folder's README says on its first line what the folder is
# for: a reader new to the tree starts there.
check_readmes() {
	for d in $FOLDERS; do
		if [ ! -f "$d/README" ]; then
			echo "layout: $d/README: missing"
		elif ! sed 1q "$d/README" | grep -q '[^[:space:]]'; then
			echo "layout: $d/README: the first line" \
			    "(the folder's purpose) is empty"
		fi
	done
}

# Rules 2-4: an include names an existing file (2); lib/ never includes
# from cmd/ (3), the library being usable without the program; and an
# include across folders follows an allowed edge (4), so that the folders
# stay layers.  Rule 4 is not applied to lib/ -> cmd/ (rule 3 says it) nor
# to a folder outside the map (rule 1 says it).
check_includes() {
	awk -v folders="lib cmd $(echo $FOLDERS)" "$AWKLIB"'
	BEGIN { n = split(folders, f); for (i = 1; i <= n; i++) known[f[i]] }
	FILENAME == ARGV[1] { reach[$1, $2]; next }
	{ at = "layout: " $1 ":" $2 ": "; a = folder($1); b = folder($4) }
	$4 == "-" { print at "#include \"" $3 "\" resolves to no file"; next }
	a == b { next }
	top(a) == "lib" && top(b) == "cmd" {
		print at "includes " $4 ": lib/ never includes from cmd/"
		next
	}
	!(a in known) || !(b in known) || ((a, b) in reach) { next }
	{ print at "includes " $4 ": " a " -> " b " is not an allowed edge" }
	' "$tmp/reach" "$tmp/inc"
}

# Rule 4: the allowed edges themselves run one way, or two folders could
# come to depend on each other: a folder that reaches itself through the
# closure is on a cycle, reported with the folders of that cycle.
check_allowed_cycle() {
	awk '{ reach[$1, $2]; node[$1]; node[$2] }
	END {
		for (a in node) {
			if (!((a, a) in reach) || (a in said))
				continue
			n = 0
			for (b in node)
				if (((a, b) in reach) && ((b, a) in reach)) {
					m[++n] = b
					said[b]
				}
			# (sorted, for a stable message)
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && m[j - 1] > m[j]; j--) {
					t = m[j]; m[j] = m[j - 1]; m[j - 1] = t
				}
			names = ""
			for (i = 1; i <= n; i++)
				names = names " " m[i]
			print "layout: allowed edges have a cycle:" names
		}
	}' "$tmp/reach" > "$tmp/cycles" || return 1
	sort "$tmp/cycles"
}

# Rule 5: no include cycle runs through two folders (the strongly
# connected components of the file graph, by Tarjan), and no two files of
# different folders include each other: either makes the two folders one.
# A component of two files is such a pair, and is reported as the pair.
check_file_cycles() {
	awk "$AWKLIB"'
	function visit(v,   i, w) {
		idx[v] = low[v] = ++count; stack[++sp] = v; on[v] = 1
		for (i = 1; i <= deg[v]; i++) {
			w = adj[v, i]
			if (!(w in idx)) {
				visit(w)
				if (low[w] < low[v]) low[v] = low[w]
			} else if (on[w] && idx[w] < low[v])
				low[v] = idx[w]
		}
		if (low[v] == idx[v])
			component(v)
	}
	function component(v,   n, i, j, m, w, dirs) {
		n = 0
		do {
			w = stack[sp--]; on[w] = 0
			for (i = ++n; i > 1 && m[i - 1] > w; i--)
				m[i] = m[i - 1]
			m[i] = w
		} while (w != v)
		for (i = 1; i <= n; i++)
			dirs[folder(m[i])]
		j = 0
		for (w in dirs) j++
		if (n < 3 || j < 2)
			return
		w = ""
		for (i = 1; i <= n; i++) w = w " " m[i]
		print "layout: " m[1] ": include cycle across folders:" w
	}
	$4 == "-" || $1 == $4 || (($1, $4) in edge) { next }
	{ edge[$1, $4]; adj[$1, ++deg[$1]] = $4; node[$1]; node[$4] }
	END {
		for (v in node)
			if (!(v in idx)) visit(v)
		for (p in edge) {
			split(p, e, SUBSEP)
			if (e[1] < e[2] && ((e[2], e[1]) in edge) &&
			    folder(e[1]) != folder(e[2]))
				print "layout: " e[1] ": includes " e[2] \
				    ", which includes it back"
		}
	}' "$tmp/inc"
}

# Rule 6: a base name (x of x.c, x.h, x.pml) lives in one folder only, so
# a module's name finds its files and its symbols' prefix is unambiguous.
# The first folder in sorted order is taken as the name's owner.
check_base_names() {
	awk "$AWKLIB"'
	!(base($0) in owner) { owner[base($0)] = folder($0) }
	folder($0) != owner[base($0)] {
		print "layout: " $0 ": base name " base($0) \
		    " is also used in " owner[base($0)]
	}' "$tmp/src"
}

# Rule 6: each tests/unit/X.c tests a module: lib/**/X.c or X.h, or
# cmd/**/X.c, exists, so a test outlives no module and names the right one.
check_unit_tests() {
	for t in tests/unit/*.c; do
		[ -f "$t" ] && echo "$t"
	done | awk "$AWKLIB"'
	FILENAME == ARGV[1] {
		if ($0 ~ /^lib\/.*\.[ch]$/ || $0 ~ /^cmd\/.*\.c$/)
			module[base($0)]
		next
	}
	!(base($0) in module) {
		print "layout: " $0 ": no module " base($0) " in lib/ or cmd/"
	}' "$tmp/src" -
}

# Rule 7: the symbol check sees every object of lib/, so it cannot pass
# because some were not given, and an argument names a real object of a
# lib/ source.  The objects to look at go to $tmp/objs.
check_objects() {
	for o; do
		printf '%s\n' "${o#./}"
	done | awk -v objs="$tmp/objs" '
	FILENAME == ARGV[1] {
		if ($0 ~ /^lib\/.*\.c$/) { o = $0; sub(/c$/, "o", o); want[o] }
		next
	}
	(getline byte < $0) < 0 {
		print "layout: " $0 ": no such object"
		next
	}
	{ close($0) }
	!($0 in want) {
		print "layout: " $0 ": not the object of a lib/ source"
	}
	($0 in want) && !($0 in given) { given[$0]; print > objs }
	END {
		printf "" > objs
		for (o in want)
			if (!(o in given))
				print "layout: " substr(o, 1, length(o) - 1) \
				    "c: no object " o " among the arguments"
	}' "$tmp/src" -
}

# Rule 7: a global symbol of lib/F/X.o is public (wspx_ and its name in
# lib/wspx.h) or internal and named after its file or folder:
# wspx__X[_...], wspx__F[_...], or F without a final s (builtins: builtin).
# So a symbol says where it is defined, and nothing clashes with a user's.
check_symbols() {
	set -- $(cat "$tmp/objs")
	[ $# -gt 0 ] || return 0
	header=lib/wspx.h
	[ -f "$header" ] || header=/dev/null
	# (nm's output goes through a file: in a pipe its failure would be
	# lost, and no symbol read would look like no symbol wrong)
	nm -A -P -g --defined-only "$@" > "$tmp/nm" || return 1
	awk "$AWKLIB"'
	function internal(sym, t) {
		return sym == "wspx__" t || index(sym, "wspx__" t "_") == 1
	}
	FILENAME == ARGV[1] {
		n = split($0, w, /[^A-Za-z0-9_]+/)
		for (i = 1; i <= n; i++) declared[w[i]]
		next
	}
	{ obj = $1; sub(/:$/, "", obj); sym = $2 }
	sym ~ /^wspx_[^_]/ && (sym in declared) { next }
	{
		x = base(obj); f = folder(obj); sub(/.*\//, "", f)
		s = f; sub(/s$/, "", s)
		if (internal(sym, x) || internal(sym, f) || internal(sym, s))
			next
		names = x
		if (f != x) names = names "," f
		if (s != f && s != x) names = names "," s
		print "layout: " obj ": global " sym " is neither in " \
		    "lib/wspx.h nor wspx__{" names "}_*"
	}' "$header" "$tmp/nm"
}

# Rule 8: a file over MAXLINES lines is usually two things; one that is
# not says so in its opening comment (the first /* */ block), in words
# that include "800 lines" (line breaks and leading *s are ignored).
check_long_files() {
	awk -v max="$MAXLINES" '
	function judge() {
		gsub(/[ \t]+/, " ", opening)
		if (lines > max && !index(opening, max " lines"))
			print "layout: " file ": " lines " lines, and its " \
			    "opening comment does not say why (\"" max \
			    " lines\")"
	}
	FNR == 1 {
		if (NR > 1) judge()
		file = FILENAME; state = 0; opening = ""
	}
	{ lines = FNR }
	state == 0 && (i = index($0, "/*")) {
		state = 1; $0 = substr($0, i + 2)
	}
	state == 1 {
		if ((i = index($0, "*/"))) {
			$0 = substr($0, 1, i - 1); state = 2
		}
		sub(/^[ \t]*\*+/, "")
		opening = opening " " $0
	}
	END { if (NR) judge() }' $(cat "$tmp/src") < /dev/null
}

# Rule 9: the library knows nothing of the program: it never prints the
# program's prefix, exits, reads the environment or prints.  Matched in
# the code of lib/'s .c and .h files with comments blanked out; calls
# are matched with literals blanked too (so "exit(" in a string is not
# a call).  A call through a macro or a pointer is not seen.
check_library_code() {
	awk -F '\t' "$AWKLIB"'
	BEGIN { n = split("exit( getenv( printf( perror( fprintf(stderr", call, " ") }
	function calls(text, c,   p) {
		p = index(c, "(")
		return text ~ ("(^|[^A-Za-z0-9_])" substr(c, 1, p - 1) \
		    "[ \t]*[(][ \t]*" substr(c, p + 1))
	}
	$1 !~ /^lib\/.*\.[ch]$/ { next }
	{ at = "layout: " $1 ":" $2 ": "; text = code() }
	index(text, "\"wspx: ") {
		print at "the program'"'"'s prefix \"wspx: \" in lib/"
	}
	{
		gsub(LIT, "\"\"", text)
		for (i = 1; i <= n; i++)
			if (calls(text, call[i]))
				print at "calls " call[i] " in lib/"
	}' "$tmp/code"
}

# Rule 10: platform code sits in lib/os/ alone: _GNU_SOURCE and "/proc/
# paths appear nowhere else in lib/ or cmd/ (comments aside).
check_platform_code() {
	awk -F '\t' "$AWKLIB"'
	$1 !~ /\.[ch]$/ || $1 ~ /^lib\/os\// { next }
	{ at = "layout: " $1 ":" $2 ": " }
	code() ~ /^[ \t]*#[ \t]*define[ \t]+_GNU_SOURCE([^A-Za-z0-9_]|$)/ {
		print at "#define _GNU_SOURCE outside lib/os/"
	}
	index(code(), "\"/proc/") {
		print at "a \"/proc/ path outside lib/os/"
	}
	' "$tmp/code"
}

# ---- Main ----

# A step that fails (an awk error, a missing tool) stops the script with
# status 2: the check must never pass because a rule did not run.
fail() {
	echo "layout: $1 failed" >&2
	exit 2
}
list_files || fail list_files
strip_comments > "$tmp/code" || fail strip_comments
resolve_includes > "$tmp/inc" || fail resolve_includes
for step in expand_allowed check_folders check_readmes check_includes \
    check_allowed_cycle check_file_cycles check_base_names check_unit_tests \
    check_objects check_symbols check_long_files check_library_code \
    check_platform_code; do
	"$step" "$@" >> "$tmp/found" || fail "$step"
done
sort -u "$tmp/found" > "$tmp/problems"

problems=$(wc -l < "$tmp/problems")
if [ "$problems" -gt 0 ]; then
	cat "$tmp/problems"
	[ "$problems" -eq 1 ] && echo "layout: 1 problem" ||
	    echo "layout: $((problems)) problems"
	exit 1
fi
files=$(wc -l < "$tmp/src")
edges=$(awk -F ' ' '$4 != "-" {
		a = $1; sub(/\/[^\/]*$/, "", a)
		b = $4; sub(/\/[^\/]*$/, "", b)
		if (a != b) print a, b
	}' "$tmp/inc" | sort -u | wc -l)
echo "layout: ok ($((files)) files, $((edges)) folder edges)"
