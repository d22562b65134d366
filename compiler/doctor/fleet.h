/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* fleet.h - `dslc doctor FILE --snapshots DIR`: every node's collected
 * snapshot (DIR/HOST, written by --collect) checked at once, and the
 * machines' exports parsed once per distinct machine. */
#ifndef DSLC_FLEET_H
#define DSLC_FLEET_H

#include "checks.h"

typedef struct topo_cache topo_cache;

topo_cache *topo_cache_new(arena *a);
/* Gives back the machines it keeps (the topologies it returned with them). */
void topo_cache_free(topo_cache *tc);
/* The topology of an export (xml[len] == '\0'; xml is changed). Exports of
 * one machine type differ in what no check reads: host names, serial
 * numbers, GUIDs, UUIDs, OS and firmware versions, NIC hardware addresses
 * (an address keeps its length, which tells Ethernet from InfiniBand), page
 * counts, a little memory per NUMA node, and the names of drives' block
 * devices, which Linux gives in probe order. They are parsed once, and each
 * node's own memory per NUMA node is given back in a copy allocated in
 * `node`. NULL with *why. */
const topology *topo_cache_get(topo_cache *tc, arena *node, char *xml, size_t len, const char **why);
/* The machine of c's root, through the cache: hwloc's view of the running
 * machine for the live root, else the snapshot's export (dslc-topology.xml);
 * a note (an error with --strict) when it cannot be read, none when a
 * snapshot has no export (doctor_check says that). *xml: the text as read,
 * when collecting. */
void topo_cache_machine(doctor_ctx *c, topo_cache *tc, const char **xml, size_t *len);
/* How many distinct machines were met. The cache keeps the most recently
 * needed (CACHE_KEEP) and parses one given back again when a node needs it. */
size_t topo_cache_parsed(const topo_cache *tc);

/* Checks the nodes with a snapshot under dir (only `only` when not NULL)
 * into dc, with a note for nodes without one and for snapshots of no node.
 * 2 when dir cannot be read, else 0. */
int fleet_run(const model *m, const char *dir, const node *only, bool strict, diag_ctx *dc);

#endif
