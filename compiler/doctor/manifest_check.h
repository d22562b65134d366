/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* manifest_check.h - `dslc doctor --manifest DIR --node HOST`: a node's
 * installed files and running kernel command line against a built tree's
 * manifest, without the description. */
#ifndef DSLC_DOCTOR_MANIFEST_CHECK_H
#define DSLC_DOCTOR_MANIFEST_CHECK_H

#include "doctor.h"

/* 0 the node runs the tree's files, 1 drift, 2 usage or I/O (a manifest
 * that cannot be read, is not dslc's or lists nothing for the node). */
int doctor_manifest_run(const doctor_opts *o, const char *version);

#endif
