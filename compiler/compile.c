#include "compile.h"

#include <errno.h>

#include "lint.h"
#include "parse.h"
#include "place.h"

bool compile_file(compilation *c, const char *path)
{
	arena_init(&c->ar);
	src_set_init(&c->src, &c->ar);
	diag_init(&c->dc, &c->ar, &c->src);
	ast_block *root = parse_program(&c->ar, &c->dc, &c->src, path);
	c->parsed = root != NULL;
	if (!root)
		return false;
	/* Syntax errors stop here: resolving a half-read file only cascades. */
	if (diag_count(&c->dc, SEV_ERROR))
		return true;
	model_resolve(&c->m, &c->ar, &c->dc, root);
	place_model(&c->m);
	lint_model(&c->m);
	return true;
}

void compile_free(compilation *c)
{
	int e = errno;
	arena_free(&c->ar);
	errno = e;
}
