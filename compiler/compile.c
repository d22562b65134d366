#include "compile.h"

#include <errno.h>

#include "lint.h"
#include "parse.h"
#include "place.h"
#include "pools.h"

static bool compile_root(compilation *c, ast_block *root);

bool compile_file(compilation *c, const char *path)
{
	arena_init(&c->ar);
	src_set_init(&c->src, &c->ar);
	diag_init(&c->dc, &c->ar, &c->src);
	return compile_root(c, parse_program(&c->ar, &c->dc, &c->src, path));
}

bool compile_text(compilation *c, const char *name, const char *text)
{
	arena_init(&c->ar);
	src_set_init(&c->src, &c->ar);
	diag_init(&c->dc, &c->ar, &c->src);
	return compile_root(c, parse_program_text(&c->ar, &c->dc, &c->src, name, text));
}

static bool compile_root(compilation *c, ast_block *root)
{
	c->parsed = root != NULL;
	if (!root)
		return false;
	/* Syntax errors stop here: resolving a half-read file only cascades. */
	if (diag_count(&c->dc, SEV_ERROR))
		return true;
	model_resolve(&c->m, &c->ar, &c->dc, root);
	place_model(&c->m);
	lint_model(&c->m);
	pools_plan(&c->m);
	return true;
}

void compile_free(compilation *c)
{
	int e = errno;
	arena_free(&c->ar);
	errno = e;
}
