/* SPDX-License-Identifier: BSD-2-Clause-Patent */
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

#include "compiler/lint/compile.h"

/* Bounds of the search for including descriptions (a repository, not a
 * file system): directories starting with '.' are skipped, links not
 * followed. */
enum { LINT_SEARCH_MAX_DEPTH = 8, LINT_SEARCH_MAX_FILES = 5000, LINT_SEARCH_MAX_DIRS = 10000 };
/* Bytes the includer search reads in all (each file is read a piece at a
 * time, and left at its first NUL byte) */
#define LINT_SEARCH_MAX_BYTES (256ULL * 1024 * 1024)

/* What the choice needs of one file given: read from its compilation by
 * lint_file_of, so that the compilation can be reduced to its findings
 * (compile_keep_findings) before the next file is compiled. */
typedef struct lint_file {
	const char *path, *real; /* as given; its realpath (NULL: stdin, unreadable) */
	const char **includes;   /* realpaths of the other files it reads */
	size_t nincludes;
	bool dsl;                /* not stdin, not YAML */
	bool fragment;           /* resolved, with no `daos` line and no cluster block */
} lint_file;

lint_file lint_file_of(arena *a, const char *given, const compilation *comp);

/* The descriptions that include frag (a fragment, lint_file_of), as
 * lint_files_choose finds them: in name order, in *paths (the arena's). */
size_t lint_files_includers(arena *a, const lint_file *frag, const char ***paths, FILE *notes);

typedef struct lint_choice {
	bool *skip;          /* per file given: linted through another, or given twice */
	const char **extra;  /* descriptions to lint in place of fragments */
	size_t nextra;
} lint_choice;

/* Chooses from the n files given, each already compiled by the caller
 * (files[i] from its lint, so that a file is compiled once); says on `notes`
 * (NULL: -q, only a search cut short is said, on stderr) which file stands
 * in for which. A file is DSL unless it is "-" or
 * yaml_lint_is_yaml says so; stdin is never skipped. */
lint_choice lint_files_choose(arena *a, const lint_file *files, size_t n, FILE *notes);

#endif
