/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_out.h - a thin layer over libyaml's emitter for the YAML targets.
 * Keys come from the release's key table (schemas/daos_keys.def), so a key
 * that does not exist in the declared release cannot be written. */
#ifndef DSLC_YAML_OUT_H
#define DSLC_YAML_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <yaml.h>

#include "compiler/base/arena.h"
#include "compiler/base/buf.h"
#include "compiler/model/daos.h"

typedef struct yaml_out {
	yaml_emitter_t em;
	buf *out;
	const daos_release *rel;
	bool failed;
} yaml_out;

bool yo_begin(yaml_out *y, buf *out, const daos_release *rel);
bool yo_end(yaml_out *y); /* false when anything failed */
void yo_map(yaml_out *y);
void yo_map_end(yaml_out *y);
void yo_seq(yaml_out *y);
void yo_seq_end(yaml_out *y);
void yo_key(yaml_out *y, daos_key k);
/* A key of a non-DAOS format (kubelet). */
void yo_name(yaml_out *y, const char *name);
void yo_str(yaml_out *y, const char *s);
void yo_int(yaml_out *y, int64_t v);
/* A multi-line string as a literal block (|), e.g. a file in a ConfigMap. */
void yo_literal(yaml_out *y, const char *s);
void yo_bool(yaml_out *y, bool v);
/* A string tagged !unsafe, which Ansible never templates: a value that holds
 * "{{" stays text, not an expression run on the controller. */
void yo_unsafe(yaml_out *y, const char *s);
/* key: value shorthands; yo_kv for keys of non-DAOS formats */
void yo_kv(yaml_out *y, const char *name, const char *s);
void yo_kstr(yaml_out *y, daos_key k, const char *s);
void yo_kint(yaml_out *y, daos_key k, int64_t v);
void yo_kbool(yaml_out *y, daos_key k, bool v);

/* A Kubernetes quantity in the largest binary unit that divides it
 * (Gi, Mi, Ki), else bytes: "130Gi", "35080Mi". */
const char *yo_quantity(arena *a, uint64_t bytes);

/* transport_config of the server or the agent (daos_server.c). */
struct model;
void transport_out(yaml_out *y, const struct model *m, bool server);

#endif
