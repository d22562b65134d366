/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "compile.h"

#include <errno.h>

#include "compiler/lang/parse.h"
#include "compiler/model/topology.h"
#include "compiler/place/place.h"
#include "compiler/place/pools.h"
#include "compiler/place/safety.h"
#include "cascade.h"
#include "lint.h"
#include "yaml_lint.h"

static bool compile_root(compilation *c, ast_block *root, const bool *disabled);

/* The statement with a block that starts inside [from, to) of file, if any. */
static const ast_stmt *block_on_line(const ast_block *b, uint32_t file, uint32_t from, uint32_t to)
{
	for (const ast_stmt *s = b ? b->first : NULL; s; s = s->next) {
		if (s->block && s->loc.file == file && s->loc.start >= from && s->loc.start < to)
			return s;
		const ast_stmt *in = block_on_line(s->block, file, from, to);
		if (in)
			return in;
	}
	return NULL;
}

/* A suppression covers its own line when it trails code, else the next line
 * with code; and the whole block when that line opens one. */
static void resolve_suppressions(compilation *c, const ast_block *root)
{
	for (suppression *sp = c->dc.sups; sp; sp = sp->next) {
		const src_file *f = src_get(&c->src, sp->loc.file);
		if (!f)
			continue;
		const char *t = f->text;
		uint32_t ls = sp->loc.start;
		while (ls > 0 && t[ls - 1] != '\n')
			ls--;
		bool trailing = false;
		for (uint32_t i = ls; i < sp->loc.start; i++)
			trailing |= t[i] != ' ' && t[i] != '\t';
		uint32_t line = ls;
		if (!trailing) {
			/* the next line that holds more than blanks and comments */
			uint32_t p = sp->loc.end;
			for (;;) {
				while (p < f->len && t[p] != '\n')
					p++;
				if (p >= f->len)
					break;
				p++;
				uint32_t q = p;
				while (q < f->len && (t[q] == ' ' || t[q] == '\t'))
					q++;
				if (q < f->len && t[q] != '\n' && t[q] != '#') {
					line = p;
					break;
				}
			}
			if (line == ls)
				continue; /* nothing follows: unused */
		}
		uint32_t le = line;
		while (le < f->len && t[le] != '\n')
			le++;
		const ast_stmt *s = block_on_line(root, sp->loc.file, line, le);
		sp->range = (src_loc){sp->loc.file, line, s ? s->block->loc.end : le};
	}
}

void compile_init(compilation *c)
{
	arena_init(&c->ar);
	src_set_init(&c->src, &c->ar);
	diag_init(&c->dc, &c->ar, &c->src);
}

bool compile_file_as(compilation *c, const char *path, const char *name, const bool disabled[R__COUNT])
{
	compile_init(c);
	return compile_root(c, parse_program_as(&c->ar, &c->dc, &c->src, path, name), disabled);
}

bool compile_file_with(compilation *c, const char *path, const bool disabled[R__COUNT])
{
	return compile_file_as(c, path, path, disabled);
}

bool compile_file(compilation *c, const char *path)
{
	return compile_file_with(c, path, NULL);
}

bool compile_text(compilation *c, const char *name, const char *text)
{
	compile_init(c);
	return compile_root(c, parse_program_text(&c->ar, &c->dc, &c->src, name, text), NULL);
}

static bool compile_root(compilation *c, ast_block *root, const bool *disabled)
{
	c->parsed = root != NULL;
	if (!root)
		return false;
	/* Syntax errors stop here: resolving a half-read file only cascades. */
	if (diag_count(&c->dc, SEV_ERROR))
		return true;
	model_resolve(&c->m, &c->ar, &c->dc, root);
	unsigned resolved = (unsigned)c->dc.n;
	place_model(&c->m);
	lint_model(&c->m);
	pools_plan(&c->m);
	resolve_suppressions(c, root);
	diag_apply_suppressions(&c->dc);
	for (int i = 0; disabled && i < R__COUNT; i++)
		if (disabled[i])
			diag_drop_rule(&c->dc, &rule_table[i]);
	/* last: whatever was silenced above, unsafe output is still refused */
	safety_check_model(&c->m);
	/* what an error makes unknowable waits for its fix; an error stays */
	cascade_hold(&c->dc, root, resolved);
	return true;
}

bool compile_yaml(compilation *c, const char *path, const char *release, const char *topology_path, int64_t mem_gib,
		  uint64_t hugepage_size)
{
	compile_init(c);
	uint32_t id = src_load(&c->src, path, false);
	c->parsed = id != 0;
	if (!id)
		return false;
	const topology *topo = NULL;
	if (topology_path) {
		const char *why;
		topo = topo_load_xml(&c->ar, topology_path, false, &why);
		if (!topo) {
			diag *d = diag_report(&c->dc, R_TOPOLOGY_LOAD, (src_loc){id, 0, 0}, "cannot load topology '%s': %s", topology_path, why);
			diag_help(&c->dc, d, "give an `lstopo --of xml` export of this node (hwloc 2.x; `--of v2xml` from hwloc 3.x)");
		}
	}
	yaml_lint_opts o = {release, topo, mem_gib, hugepage_size};
	yaml_lint_file(&c->ar, &c->dc, id, &o);
	return true;
}

void compile_keep_findings(compilation *c)
{
	arena kept;
	arena_init(&kept);
	src_set src;
	src_set_init(&src, &kept);
	src.overlay = c->src.overlay;
	src_copy_files(&src, &c->src);
	diag_ctx dc;
	diag_init(&dc, &kept, &src);
	diag_copy_findings(&dc, &c->dc);
	bool parsed = c->parsed;
	compile_free(c);
	memset(c, 0, sizeof(*c));
	c->ar = kept; /* the same blocks: the sets below now point at c->ar */
	c->src = src;
	c->src.ar = &c->ar;
	c->dc = dc;
	c->dc.ar = &c->ar;
	c->dc.src = &c->src;
	c->parsed = parsed;
}

void compile_free(compilation *c)
{
	int e = errno;
	arena_free(&c->ar);
	errno = e;
}
