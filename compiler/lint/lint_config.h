/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* lint_config.h - a repository's lint settings, in one file that CI,
 * pre-commit and a person's shell all read: `.dslc-lint`, written in the
 * description language (no other parser), found from the working directory
 * upward to the repository's top (the directory that holds .git).
 *
 *     lint {
 *       roots   "clusters/prod/cluster.dsl" "clusters/lab/cluster.dsl"
 *       fail_on warning
 *       disable log-mask-debug "tracing ticket 4711"
 *       baseline "dslc-baseline.json"
 *       path "clusters/lab/cluster.dsl" {
 *         disable numa-pin-dropped "lab nodes share their cores"
 *         severity kubelet-hugepages error
 *       }
 *     }
 *
 * `dslc lint` with no file lints the roots; `dslc lint FILE` and `dslc
 * build` take its disabled rules and fail_on. The command line comes after
 * it: --fail-on replaces fail_on, --disable/--enable are applied after its
 * disables. A disabled rule needs its reason, and a rule that cannot be
 * disabled (unsafe-value...) cannot be disabled here either. */
#ifndef DSLC_LINT_CONFIG_H
#define DSLC_LINT_CONFIG_H

#include "compiler/base/strmap.h"
#include "compiler/lang/ast.h"
#include "compiler/model/kw.h"
#include "compile.h"

#define LINT_CONFIG_NAME ".dslc-lint"
/* Paths `roots` may name in all: each distinct file is compiled once, and a
 * settings file is a list a person keeps, not a generated one. */
enum { LINT_CONFIG_MAX_ROOTS = 1024 };
/* `path` sections at most, and a glob's longest length. */
enum { LINT_CONFIG_MAX_PATHS = 256, LINT_PATH_MAX_GLOB = 1024 };

/* A `path "GLOB" { ... }` section: what it changes for the findings of the
 * files it matches (lint_paths.c). Only rules that are warnings or notes by
 * default: an error stays an error, as `dslc build` refuses it. */
typedef enum lint_path_action { PATH_KEEP, PATH_DISABLE, PATH_ENABLE } lint_path_action;
typedef struct lint_path {
	const char *glob;               /* relative to the settings' directory */
	unsigned line;                  /* of `path` */
	unsigned char action[R__COUNT]; /* lint_path_action */
	signed char severity[R__COUNT]; /* -1: as it is */
	unsigned rule_line[R__COUNT];   /* where each rule was set */
	const char *reason[R__COUNT];
} lint_path;

typedef struct lint_config {
	const char *path;             /* the file read */
	const char *dir;              /* its directory, "" for the working directory: roots are relative to it */
	bool disabled[R__COUNT];
	const char *reason[R__COUNT]; /* each disabled rule's reason */
	bool has_fail_on;
	diag_severity fail_on;
	const char **roots;           /* as lint opens them: a relative one joined to dir */
	size_t nroots, roots_cap;
	size_t nmentions;             /* paths named, duplicates too (at most LINT_CONFIG_MAX_ROOTS) */
	size_t nrepeated;             /* of them, a file named before (the same realpath): linted once */
	unsigned repeated_line;       /* the first such mention's line */
	strmap seen;                  /* realpath of each root -> its path */
	compilation *comp;            /* the file's parse and findings: errors are printed as any lint's */
	const char *refused;          /* why the file was not read, when it is not a regular file */
	const char *baseline;         /* `baseline`, joined to dir; NULL: none */
	lint_path *paths;             /* `path` sections, in file order: a later one wins */
	size_t npaths, paths_cap;
} lint_config;

/* The keywords of the file, for `dslc keywords`, SPEC.md and dslc-language(5). */
extern const kw_table kw_lint;

/* The settings file that applies in the working directory: .dslc-lint in it
 * or in a parent, up to and including the first directory holding .git, and
 * not past a directory that neither the user nor root owns; NULL when there
 * is none (in the arena). A .dslc-lint found on the way that another user
 * owns ends the search unread: *untrusted names it (else NULL). */
const char *lint_config_find(arena *a, const char **untrusted);
/* Whether path names a settings file (its base name is .dslc-lint). */
bool lint_config_is_name(const char *path);
/* Reads path into cfg, whose strings live in comp (compiled here; the
 * caller frees it with compile_free). False when it cannot be read (errno,
 * or cfg->refused for a link or a device: its lines are never quoted);
 * its findings are in comp->dc, an error among them when a setting is wrong. */
bool lint_config_read(lint_config *cfg, compilation *comp, const char *path);

/* lint_paths.c: reads a `path` statement of the lint block into cfg. */
void lint_paths_read(lint_config *cfg, const ast_stmt *st);
/* Whether the glob (`*` within a name, `**` across directories, `?` one
 * character) matches rel, a path relative to the settings' directory. */
bool lint_path_match(const char *glob, const char *rel);
/* path relative to the settings' directory (both resolved), or NULL when
 * it is outside it or does not resolve. */
const char *lint_paths_relative(const lint_config *cfg, arena *a, const char *path);
/* The findings of dc whose file a section matches, as the sections say,
 * under the command line's toggles (toggled rules keep their state). */
void lint_paths_apply(const lint_config *cfg, diag_ctx *dc, const bool *toggled);
/* Every rule a section enables: lint compiles with them on (they are
 * dropped again where no section enables them). */
void lint_paths_enabled(const lint_config *cfg, bool *enabled);

#endif
