/* lint_files.h - which files `dslc lint A B ...` lints. Each file given,
 * except a DSL file that another given description includes (its findings
 * come through that description, with the including line), and, in place of
 * a fragment (a DSL file with no `daos` line and no cluster block, such as a
 * shared hardware.dsl) that no given file includes, the descriptions that
 * include it, found under the parent of its directory (beside it and in
 * sibling directories): a pre-commit hook passes only the changed files,
 * and a fragment alone is not a cluster. */
#ifndef DSLC_LINT_FILES_H
#define DSLC_LINT_FILES_H

#include <stdio.h>

#include "compiler/base/arena.h"

/* Bounds of the search for including descriptions (a repository, not a
 * file system): directories starting with '.' are skipped, links not
 * followed. */
enum { LINT_SEARCH_MAX_DEPTH = 8, LINT_SEARCH_MAX_FILES = 5000 };

typedef struct lint_choice {
	const char **paths; /* what to lint, in the order given; "-" is stdin */
	size_t n;
} lint_choice;

/* Chooses from the n files given; says on `notes` which file stands in for
 * which. DSL detection by name: a file is YAML when yaml_lint_is_yaml says so. */
lint_choice lint_files_choose(arena *a, const char *const *given, size_t n, FILE *notes);

#endif
