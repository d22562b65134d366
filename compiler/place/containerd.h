/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* containerd.h - how a setting reaches containerd's CRI plugin on the
 * release a node runs, without resetting the node's own CRI settings.
 * Each release line loads its configuration differently (SPEC.md, "containerd's
 * CRI options"); the table in containerd.c says which way each line takes. */
#ifndef DSLC_CONTAINERD_H
#define DSLC_CONTAINERD_H

#include "compiler/model/model.h"

typedef enum ctrd_way {
	/* dslc cannot tell the release: it writes nothing (k8s-containerd-release) */
	CTRD_UNKNOWN,
	/* 1.6, 1.7: an imported file replaces every plugin section it names, so
	 * a boot script edits config.toml's CRI section (dslc-containerd-cri) */
	CTRD_EDIT,
	/* 2.0.0, 2.0.1, or 2.0 with no patch: a conf.d drop-in with no version
	 * key, the option under both CRI plugin names */
	CTRD_DROPIN_BOTH,
	/* 2.0.2 and later: a conf.d drop-in with no version key, the option
	 * under io.containerd.cri.v1.runtime alone */
	CTRD_DROPIN,
} ctrd_way;

typedef struct ctrd_release {
	ctrd_way way;
	const char *name; /* "1.7", "2.0.0" (the declared word or the OS's) */
	src_loc loc;      /* the containerd line, else the os line */
} ctrd_release;

/* The containerd of the spec's nodes: its `containerd` line, else the one
 * its `os` ships; CTRD_UNKNOWN when neither says. */
ctrd_release ctrd_of(const node_spec *s);

#endif
