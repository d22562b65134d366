/* context.h - what a change means on this node: the disruption table gives
 * a key's class; the node's storage and role can make it worse (a reboot
 * empties RAM SCM without MD-on-SSD; a server's control address cannot
 * change), and the change can need steps on other files (the table's
 * couplings: agents refreshed on every client, the kubelet's state). */
#ifndef DSLC_PLAN_CONTEXT_H
#define DSLC_PLAN_CONTEXT_H

#include <stdbool.h>

#include "compiler/model/model.h"
#include "compiler/tree/disruption.h"

typedef struct plan_node_context {
	bool server;     /* the node runs daos_server (on either side) */
	bool scm_in_ram; /* an engine keeps its SCM in tmpfs without MD-on-SSD (on either side) */
} plan_node_context;

/* The node `host` in the new model and, when given, the old one. */
plan_node_context plan_node_context_of(const model *nm, const model *om, const char *host);

/* The class of a change on a node with context c: the table's class cls,
 * or a worse one the node's storage or role makes it. file: the file's path
 * in the node; key, old, new as `dslc plan` compares them. */
disruption_class plan_context_class(const plan_node_context *c, const char *target, const char *file, const char *key,
				    const char *old, const char *new, disruption_class cls);

/* The coupling a change needs (disruption_couplings), or -1: the table's,
 * except that a management bond's address is no fabric address. */
int plan_coupling_of(const char *target, const char *file, const char *key);

#endif
