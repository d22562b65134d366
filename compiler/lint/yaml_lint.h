/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_lint.h - lint of hand-written daos_server.yml and daos_agent.yml:
 * DAOS's own strict loading and validation rules, the checks DAOS misses,
 * and with a topology export the placement and locality rules. */
#ifndef DSLC_YAML_LINT_H
#define DSLC_YAML_LINT_H

#include "compiler/base/diag.h"
#include "compiler/model/topology.h"

/* release: "2.6", "2.8" or NULL to detect it; topo may be NULL. */
/* What the linter knows beyond the file: the release (NULL: detect), the
 * node's topology (NULL: none), its memory in GiB (0: unknown; from
 * --mem-gib, else the topology's) and its hugepage size (--hugepage-size). */
typedef struct yaml_lint_opts {
	const char *release;
	const topology *topo;
	int64_t mem_gib;
	uint64_t hugepage_size; /* bytes; 0: the topology's, else 2 MiB */
} yaml_lint_opts;

void yaml_lint_file(arena *a, diag_ctx *dc, uint32_t file, const yaml_lint_opts *opts);
bool yaml_lint_is_yaml(const char *path);

#endif
