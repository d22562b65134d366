/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* snapshot.h - `dslc doctor --collect DIR`: what the checks read on the
 * node, written as a root of its own (DIR/proc/cmdline, DIR/sys/...,
 * DIR/etc/...) with the machine's hwloc export beside it, so the same
 * checks run later off the node (`--root DIR`, or a fleet's with
 * `--snapshots`). */
#ifndef DSLC_SNAPSHOT_H
#define DSLC_SNAPSHOT_H

#include "checks.h"

/* The machine's export inside a snapshot. */
#define SNAPSHOT_TOPOLOGY "dslc-topology.xml"
/* The modes of the files read, as data: {"format": "dslc-snapshot-modes",
 * "modes": {"etc/daos/daos_server.yml": "0640", ...}}. Every file of a
 * snapshot is written 0644 (directories 0755), whatever the node's mode:
 * a setuid or world-writable file there is never made one here. */
#define SNAPSHOT_MODES "dslc-modes.json"

/* Writes c's reads and xml (may be NULL) to dir, which must not exist or be
 * empty: into a directory beside it, renamed when complete, so a snapshot is
 * whole or absent. False with *why. */
bool snapshot_write(const doctor_ctx *c, const char *dir, const char *xml, size_t xml_len, const char **why);
/* The modes a snapshot under c's root recorded (c->modes), for doctor_read
 * to give in place of the copies' own; none when the root has no
 * SNAPSHOT_MODES (a node, an image); a note, and no mode compared
 * (c->modes_unknown), when it cannot be read. */
void snapshot_load_modes(doctor_ctx *c);

#endif
