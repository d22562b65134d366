/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* diag.h - diagnostics are queued while compiling and printed at the end, in
 * source order, in any format. A finding reported twice at the same place
 * with the same text (a profile applied to 1,000 nodes) is kept once; one of
 * the same rule at the same place with another text (the same mistake on
 * another NUMA node or node) is kept as a note of the first, "also: ...". */
#ifndef DSLC_DIAG_H
#define DSLC_DIAG_H

#include <stdbool.h>
#include <stdio.h>

#include "rules.h"
#include "source.h"

/* Longest message, note or help text, and source excerpt, in bytes. */
enum { DIAG_MAX_TEXT = 400 };
/* Findings kept per compilation; one input-limit error says when more came. */
enum { DIAG_MAX_FINDINGS = 10000 };

typedef struct diag_note {
	src_loc loc; /* may be SRC_LOC_NONE */
	const char *msg;
	struct diag_note *next;
} diag_note;

/* A machine-applicable fix: replace the bytes at `at` (an insertion when
 * at.start == at.end) with `text`. Only exact edits that make the finding go
 * away: `dslc lint --fix`, SARIF `fixes` and JSON `fixes` carry them. */
typedef struct diag_fix {
	src_loc at;
	const char *text;
	struct diag_fix *next;
} diag_fix;

/* A span of the description a check read to reach its finding, besides the
 * finding's own place (a mount block's container line for "names no
 * container"): an error there makes the finding a cascade of it. */
typedef struct diag_read {
	src_loc loc;
	struct diag_read *next;
} diag_read;

typedef struct diag {
	const rule_info *rule;
	diag_severity severity;
	src_loc loc;
	const char *msg;
	const char *help; /* may be NULL */
	diag_note *notes, **notes_tail;
	diag_fix *fixes, **fixes_tail;
	diag_read *reads; /* what the check read besides loc: cascade_hold's causes */
	unsigned seq; /* report order, breaks ties */
	const char *context; /* the diag_ctx context it was reported in ("node gpu007"), or NULL */
	struct diag *into; /* a finding merged into an earlier one of its rule at its place: its
			    * notes, help and fixes go there (never in the report itself) */
} diag;

/* `# dslc: allow <rule-id> -- <reason>`, resolved to the byte range it covers. */
typedef struct suppression {
	const char *rule_id;
	const char *reason; /* NULL when missing */
	src_loc loc;        /* the comment */
	src_loc range;      /* what it silences; file 0 until resolved */
	bool used;
	struct suppression *next;
} suppression;

/* An open-addressing table of hashes, each with a finding (or NULL). */
typedef struct diag_table {
	struct diag_slot {
		unsigned long long h;
		struct diag *d;
	} *slots;
	size_t cap, n;
} diag_table;

typedef struct diag_ctx {
	arena *ar;
	src_set *src;
	diag **items;
	size_t n, cap;
	diag_table seen; /* the hash of every finding's rule, place and text */
	/* the first finding of each rule at each place: another one there (the
	 * same mistake seen from another NUMA node, engine or node) becomes its
	 * note, so one mistake is one finding that names every case */
	diag_table spans;
	diag sink; /* a duplicate's notes and help go here and are dropped */
	unsigned counts[3];
	const char *context; /* when set, each new finding gets the note "for <context>" */
	suppression *sups, **sups_tail;
	unsigned held; /* findings held back by cascade_hold until an error is fixed */
	/* findings a baseline file records (lint --baseline): out of items and
	 * the counts, kept for the formats that mark them (JSON, SARIF) */
	diag **baselined;
	size_t nbaselined, baselined_cap;
	bool baseline_used; /* a baseline was applied: the reports say new or unchanged */
} diag_ctx;

void diag_init(diag_ctx *dc, arena *ar, src_set *src);
diag *diag_report(diag_ctx *dc, rule_id rule, src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_note_at(diag_ctx *dc, diag *d, src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_help(diag_ctx *dc, diag *d, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Records that the check behind d read the text at `at` (besides d's own
 * place): an error there holds d back as its cascade (compiler/lint/cascade.c).
 * A check that reads nothing else records nothing, and its error is never
 * held by another in its statement, whatever the order they were found in. */
void diag_reads(diag_ctx *dc, diag *d, src_loc at);
/* Adds an exact edit that resolves the finding (with the help line that
 * says it in words). */
void diag_fix_edit(diag_ctx *dc, diag *d, src_loc at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A fix that puts the source text at `at` in double quotes: only when that
 * text is printable, on one line, and holds no quote, backslash, '#', '$' or
 * backquote (so the string it makes means those bytes and nothing more). */
void diag_fix_quote(diag_ctx *dc, diag *d, src_loc at);
/* A fix that replaces the name at `at` with `name`, only when the source
 * bytes there are exactly `was` (a name inside a host range or a longer
 * statement is not rewritten: the help still says it). */
void diag_fix_name(diag_ctx *dc, diag *d, src_loc at, const char *was, const char *name);
/* A fix that writes `prefix "value" suffix` at `at` (`reserved_cpus
 * "0-23,96-119"`, `engine numa 1 { nvme file "/var/daos/bdev.1" size 32GiB }`):
 * only when value is printable and holds no quote, backslash, '#', '$' or
 * backquote, so the string means those bytes and nothing more; prefix and
 * suffix are held to diag_fix_edit's bytes, but for braces that pair up
 * (a whole block, never a half one). */
void diag_fix_quoted(diag_ctx *dc, diag *d, src_loc at, const char *prefix, const char *value, const char *suffix);
/* An insertion right after the first '{' of the block statement at `block`
 * (a setting the block lacks: `caching off` in a mount block); nothing when
 * the statement has no block. */
void diag_fix_in_block(diag_ctx *dc, diag *d, src_loc block, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* `at` widened back over the keyword `word` written right before it, blanks
 * between (a kernel param's `name=value` becomes `param name=value`, to
 * replace or drop the whole statement); `at` itself when it is not there. */
src_loc diag_loc_with_keyword(const diag_ctx *dc, src_loc at, const char *word);
/* `at` widened to its whole line, newline included, when nothing else is
 * on that line (a statement a fix drops leaves no blank line behind). */
src_loc diag_loc_line_if_alone(const diag_ctx *dc, src_loc at);
unsigned diag_count(const diag_ctx *dc, diag_severity sev);
/* Raises or lowers one finding's severity (doctor --strict: a note becomes
 * an error), keeping the counts. */
void diag_set_severity(diag_ctx *dc, diag *d, diag_severity sev);
/* Records a `# dslc:` comment (text without the newline). */
void diag_suppression_comment(diag_ctx *dc, const char *text, size_t len, src_loc loc);
/* Drops the findings that resolved suppressions cover; reports unused ones. */
void diag_apply_suppressions(diag_ctx *dc);
/* Drops the findings of another context that sups (a compilation's resolved
 * suppressions) cover, saying nothing of unused ones: doctor's node-* findings
 * are silenced by the description's `# dslc: allow` comments. */
void diag_apply_allows(diag_ctx *dc, suppression *sups);
/* Holds back the findings i with hold[i] (cascades of an error, see
 * compiler/lint/cascade.c): dropped, and counted in dc->held. */
void diag_hold(diag_ctx *dc, const bool *hold);
/* Moves the findings i with known[i] out of the report into dc->baselined
 * (lint --baseline: they are not new). */
void diag_set_baselined(diag_ctx *dc, const bool *known);
/* Drops the findings i with drop[i] (.dslc-lint's path sections). */
void diag_drop(diag_ctx *dc, const bool *drop);
/* Drops every finding of a rule (--disable). */
void diag_drop_rule(diag_ctx *dc, const rule_info *rule);

/* Appends copies of from's findings, with their counts and held ones, to
 * to (allocated in to's arena; locations refer to the same file ids). */
void diag_copy_findings(diag_ctx *to, const diag_ctx *from);
/* Sorts by file, offset and report order. */
void diag_sort(diag_ctx *dc);
/* Text as a terminal may show it (a file name, a message quoting a node's
 * bytes): a control byte (a terminal's escape) or a byte that starts no
 * UTF-8 sequence as \xNN, the rest as it is. */
void diag_print_escaped(FILE *out, const char *text);
/* Prints at most max_shown diagnostics (0 = all) as text. */
void diag_print_text(diag_ctx *dc, FILE *out, unsigned max_shown);
typedef enum diag_colour_mode { COLOUR_AUTO, COLOUR_ALWAYS, COLOUR_NEVER } diag_colour_mode;
/* --color: the process's choice (auto by default). */
void diag_set_colour(diag_colour_mode m);
/* Whether text to out is coloured: --color always/never; for auto, never
 * with NO_COLOR set, always with FORCE_COLOR set, else on a terminal that is
 * not TERM=dumb. */
bool diag_use_colour(FILE *out);

#endif
