/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* os_lint.h - the node OS rules (kernel-*, kubelet-*, bios-*, network-*,
 * and through kube_lint.h the k8s-* rules of a spec in pods), once per spec,
 * against the plans of node_os.h. */
#ifndef DSLC_OS_LINT_H
#define DSLC_OS_LINT_H

#include "compiler/model/model.h"

void node_os_lint(model *m, const node_spec *s);
/* The rules of node_os_lint that read single values of the spec (and its
 * hardware), for a spec that was not placed because something else in it is
 * wrong: an independent mistake is still reported. */
void node_os_lint_values(model *m, const node_spec *s);

#endif
