/* yaml_lint.h - lint of hand-written daos_server.yml and daos_agent.yml:
 * DAOS's own strict loading and validation rules, the checks DAOS misses,
 * and with a topology export the placement and locality rules. */
#ifndef DSLC_YAML_LINT_H
#define DSLC_YAML_LINT_H

#include "diag.h"
#include "topology.h"

/* release: "2.6", "2.8" or NULL to detect it; topo may be NULL. */
void yaml_lint_file(arena *a, diag_ctx *dc, uint32_t file, const char *release, const topology *topo);
bool yaml_lint_is_yaml(const char *path);

#endif
