/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_lint.h - the k8s-* rules: a `deploy kubernetes` cluster and each
 * spec whose engines run in pods, against the pod figures (kube.h) and the
 * node OS plans (node_os.h). */
#ifndef DSLC_KUBE_LINT_H
#define DSLC_KUBE_LINT_H

#include "compiler/model/model.h"

void kube_lint_cluster(model *m);
void kube_lint_spec(model *m, const node_spec *s);

#endif
