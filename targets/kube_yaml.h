/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_yaml.h - the shapes the objects of cluster/kubernetes/ share: dslc's
 * metadata and labels, volumes, mounts, one document of a multi-document
 * file. Read by kubernetes.c (the DAOS DaemonSets), kube_client.c (the
 * client templates) and kube_plugins.c (the device plugins). */
#ifndef DSLC_KUBE_YAML_H
#define DSLC_KUBE_YAML_H

#include "targets.h"
#include "yaml_out.h"

void ky_int(yaml_out *y, const char *k, int64_t v);
void ky_bool(yaml_out *y, const char *k, bool v);
/* key: and an opened map or sequence */
void ky_map(yaml_out *y, const char *k);
void ky_seq(yaml_out *y, const char *k);
/* metadata: name, namespace (NULL: none, a cluster-scoped object), and the
 * labels of every dslc object: app.kubernetes.io/name, part-of the system,
 * managed-by dslc, and `label: value` when label is not NULL. */
void ky_metadata(yaml_out *y, const model *m, const char *name, const char *ns, const char *app, const char *label,
		 const char *value);
/* An object's opening: the map, apiVersion, kind and ky_metadata in the
 * DAOS namespace; the caller closes the map. */
void ky_head(yaml_out *y, const model *m, const char *api, const char *kind, const char *name, const char *app,
	     const char *label, const char *value);
/* A controller's selector, and the pod template it selects: the pods'
 * labels (app.kubernetes.io/name, and label: value when label is set).
 * ky_pod_template leaves template and its spec open: two yo_map_end. */
void ky_selector(yaml_out *y, const char *app, const char *label, const char *value);
void ky_pod_template(yaml_out *y, const char *app, const char *label, const char *value);
void ky_host_path(yaml_out *y, const char *name, const char *path, const char *type);
void ky_empty_dir(yaml_out *y, const char *name, const char *medium);
void ky_mount(yaml_out *y, const char *name, const char *path, const char *sub, bool ro);
/* A node affinity that selects the nodes carrying `label` (any value). */
void ky_node_has_label(yaml_out *y, const char *label);
/* One document of a multi-document file: "---" before all but the first. */
typedef void (*ky_doc_fn)(yaml_out *y, const model *m, const void *arg);
bool ky_doc(buf *out, const model *m, ky_doc_fn fn, const void *arg);
/* Documents: the DAOS namespace (arg unused; rollout-rbac.yaml, which a
 * cluster admin applies), and a ServiceAccount named arg in it without a
 * mounted token. */
void ky_namespace_doc(yaml_out *y, const model *m, const void *arg);
void ky_account_doc(yaml_out *y, const model *m, const void *arg);

#endif
