/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* test_format.c - `dslc fmt` keeps the program: for every description the
 * parser accepts, parse(fmt(x)) is parse(x), value for value, with which
 * values touch (the resolver glues them: ERR,MGMT=DEBUG). The inputs are the
 * fuzz seeds, the examples and the rule fixtures, each as written and in the
 * class issue 54 found (item 11): blanks as tabs, and a block's '{' touching
 * the word before it, in every block kind those files have. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/lang/format.h"
#include "compiler/lang/parse.h"
#include "unit.h"

static void dump_values(buf *b, const ast_value *v)
{
	for (const ast_value *prev = NULL; v; prev = v, v = v->next) {
		bool touches = prev && prev->loc.end == v->loc.start;
		buf_printf(b, "%s%s:", touches ? "~" : " ", ast_kind_name(v->kind));
		if (v->kind == AST_LIST) {
			buf_puts(b, "[");
			dump_values(b, v->items);
			buf_puts(b, "]");
		} else {
			buf_printf(b, "%zu:%s", strlen(v->text), v->text);
		}
	}
}

static void dump_block(buf *b, const ast_block *blk)
{
	for (const ast_stmt *st = blk ? blk->first : NULL; st; st = st->next) {
		buf_puts(b, "(");
		dump_values(b, st->values);
		if (st->block) {
			buf_puts(b, " {");
			dump_block(b, st->block);
			buf_puts(b, "}");
		}
		buf_puts(b, ")\n");
	}
}

/* The tree of text as a string, or NULL when it does not parse. */
static char *tree_of(const char *text)
{
	arena a;
	arena_init(&a);
	src_set src;
	src_set_init(&src, &a);
	diag_ctx dc;
	diag_init(&dc, &a, &src);
	uint32_t id = src_add(&src, "x.dsl", text, strlen(text));
	ast_block *root = parse_file(&a, &dc, id);
	char *r = NULL;
	if (root && !diag_count(&dc, SEV_ERROR)) {
		buf b;
		buf_init(&b);
		dump_block(&b, root);
		r = strndup(b.data ? b.data : "", b.len);
		buf_free(&b);
	}
	arena_free(&a);
	return r;
}

/* fmt(text): true with *out set, false when fmt refused it. */
static bool fmt_of(const char *text, char **out)
{
	arena a;
	arena_init(&a);
	src_set src;
	src_set_init(&src, &a);
	diag_ctx dc;
	diag_init(&dc, &a, &src);
	uint32_t id = src_add(&src, "x.dsl", text, strlen(text));
	buf b;
	buf_init(&b);
	bool ok = format_file(&a, &dc, id, &b);
	*out = ok ? strndup(b.data ? b.data : "", b.len) : NULL;
	buf_free(&b);
	arena_free(&a);
	return ok;
}

enum { BLANKS_AS_TABS = 1, BRACE_TOUCHES = 2 };

/* text with the blanks between tokens as tabs and/or the blank before a
 * block's '{' gone; strings and comments as they are. */
static char *variant(const char *text, int how)
{
	size_t n = strlen(text);
	char *r = malloc(n + 1), *o = r;
	bool in_string = false, in_comment = false;
	for (size_t i = 0; i < n; i++) {
		char c = text[i];
		if (c == '\n')
			in_comment = in_string = false;
		else if (!in_string && c == '#')
			in_comment = true;
		else if (!in_comment && c == '"' && !(in_string && i && text[i - 1] == '\\'))
			in_string = !in_string;
		bool code = !in_string && !in_comment;
		if (code && (how & BRACE_TOUCHES) && c == ' ' && text[i + 1] == '{')
			continue;
		*o++ = code && (how & BLANKS_AS_TABS) && c == ' ' && i && text[i - 1] != '\n' && text[i - 1] != ' ' ? '\t' : c;
	}
	*o = '\0';
	return r;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *data = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&data, &len);
	char piece[4096];
	size_t got;
	while ((got = fread(piece, 1, sizeof(piece), f)) > 0)
		fwrite(piece, 1, got, m);
	fclose(f);
	fclose(m);
	return data;
}

typedef struct tally {
	unsigned parsed, checked;
} tally;

static void round_trip(const char *name, const char *text, tally *t)
{
	static const char *const hows[] = {"as written", "blanks as tabs", "'{' touching", "tabs and '{' touching"};
	for (int how = 0; how < 4; how++) {
		char *x = how ? variant(text, how) : strdup(text);
		char *tree = tree_of(x);
		t->checked++;
		if (tree) {
			t->parsed++;
			char *formatted;
			bool ok = fmt_of(x, &formatted);
			ck_assert_msg(ok, "%s (%s): fmt refused a description the parser accepts", name, hows[how]);
			char *again = tree_of(formatted);
			ck_assert_msg(again && strcmp(again, tree) == 0, "%s (%s): parse(fmt(x)) differs from parse(x)", name,
				      hows[how]);
			char *twice;
			ck_assert_msg(fmt_of(formatted, &twice) && strcmp(twice, formatted) == 0, "%s (%s): fmt is not idempotent",
				      name, hows[how]);
			free(twice);
			free(again);
			free(formatted);
			free(tree);
		}
		free(x);
	}
}

static void each_dsl(const char *dir, tally *t)
{
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "%s: not found (run from the repository)", dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 4, ".dsl") != 0)
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		char *text = slurp(path);
		ck_assert_ptr_nonnull(text);
		round_trip(path, text, t);
		free(text);
	}
	closedir(d);
}

START_TEST(touching_brace_with_tabs_is_formatted)
{
	const char *x = "daos 2.6\ncluster x {\n  provider \"ofi+verbs\"\n  fabric roce{ gid_index\t\t3 }\n}\n";
	char *out;
	ck_assert(fmt_of(x, &out));
	ck_assert_str_eq(out, "daos 2.6\ncluster x {\n  provider \"ofi+verbs\"\n  fabric roce { gid_index  3 }\n}\n");
	free(out);
	/* without the tab it is one word with a {group}: kept as it is */
	ck_assert(fmt_of("x roce{ a 3 }\n", &out));
	ck_assert_str_eq(out, "x roce{ a 3 }\n");
	free(out);
}
END_TEST

START_TEST(every_seed_round_trips)
{
	tally t = {0};
	const char *dirs[] = {"tests/fuzz/seeds/dsl", "tests/golden/diag", "examples/hgx-b200", "examples/hgx-b200-k8s",
			      "examples/aurora-like", "examples/md-on-ssd"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		each_dsl(dirs[i], &t);
	/* most variants parse: the property is not vacuous */
	ck_assert_uint_gt(t.checked, 900);
	ck_assert_uint_gt(t.parsed, t.checked / 2);
}
END_TEST

Suite *suite_format(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("round trip");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, touching_brace_with_tabs_is_formatted);
	tcase_add_test(tc, every_seed_round_trips);
	suite_add_tcase(s, tc);
	return s;
}
