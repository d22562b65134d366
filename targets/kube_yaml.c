/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* kube_yaml.c - see kube_yaml.h. */
#include "kube_yaml.h"

#include "compiler/place/kube.h"

void ky_int(yaml_out *y, const char *k, int64_t v)
{
	yo_name(y, k);
	yo_int(y, v);
}

void ky_bool(yaml_out *y, const char *k, bool v)
{
	yo_name(y, k);
	yo_bool(y, v);
}

void ky_map(yaml_out *y, const char *k)
{
	yo_name(y, k);
	yo_map(y);
}

void ky_seq(yaml_out *y, const char *k)
{
	yo_name(y, k);
	yo_seq(y);
}

void ky_metadata(yaml_out *y, const model *m, const char *name, const char *ns, const char *app, const char *label,
		 const char *value)
{
	ky_map(y, "metadata");
	yo_kv(y, "name", name);
	if (ns)
		yo_kv(y, "namespace", ns);
	ky_map(y, "labels");
	yo_kv(y, "app.kubernetes.io/name", app);
	yo_kv(y, "app.kubernetes.io/part-of", m->cluster.name);
	yo_kv(y, "app.kubernetes.io/managed-by", "dslc");
	if (label)
		yo_kv(y, label, value);
	yo_map_end(y);
	yo_map_end(y);
}

void ky_head(yaml_out *y, const model *m, const char *api, const char *kind, const char *name, const char *app,
	     const char *label, const char *value)
{
	yo_map(y);
	yo_kv(y, "apiVersion", api);
	yo_kv(y, "kind", kind);
	ky_metadata(y, m, name, kube_namespace(m), app, label, value);
}

static void pod_labels(yaml_out *y, const char *key, const char *app, const char *label, const char *value)
{
	ky_map(y, key);
	yo_kv(y, "app.kubernetes.io/name", app);
	if (label)
		yo_kv(y, label, value);
	yo_map_end(y);
}

void ky_selector(yaml_out *y, const char *app, const char *label, const char *value)
{
	ky_map(y, "selector");
	pod_labels(y, "matchLabels", app, label, value);
	yo_map_end(y);
}

void ky_pod_template(yaml_out *y, const char *app, const char *label, const char *value)
{
	ky_map(y, "template");
	ky_map(y, "metadata");
	pod_labels(y, "labels", app, label, value);
	yo_map_end(y);
	ky_map(y, "spec");
}

void ky_host_path(yaml_out *y, const char *name, const char *path, const char *type)
{
	yo_map(y);
	yo_kv(y, "name", name);
	ky_map(y, "hostPath");
	yo_kv(y, "path", path);
	yo_kv(y, "type", type);
	yo_map_end(y);
	yo_map_end(y);
}

void ky_empty_dir(yaml_out *y, const char *name, const char *medium)
{
	yo_map(y);
	yo_kv(y, "name", name);
	ky_map(y, "emptyDir");
	if (medium)
		yo_kv(y, "medium", medium);
	yo_map_end(y);
	yo_map_end(y);
}

void ky_mount(yaml_out *y, const char *name, const char *path, const char *sub, bool ro)
{
	yo_map(y);
	yo_kv(y, "name", name);
	yo_kv(y, "mountPath", path);
	if (sub)
		yo_kv(y, "subPath", sub);
	if (ro)
		ky_bool(y, "readOnly", true);
	yo_map_end(y);
}

void ky_node_has_label(yaml_out *y, const char *label)
{
	ky_map(y, "affinity");
	ky_map(y, "nodeAffinity");
	ky_map(y, "requiredDuringSchedulingIgnoredDuringExecution");
	ky_seq(y, "nodeSelectorTerms");
	yo_map(y);
	ky_seq(y, "matchExpressions");
	yo_map(y);
	yo_kv(y, "key", label);
	yo_kv(y, "operator", "Exists");
	yo_map_end(y);
	yo_seq_end(y);
	yo_map_end(y);
	yo_seq_end(y);
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

void ky_namespace_doc(yaml_out *y, const model *m, const void *arg)
{
	(void)arg;
	yo_map(y);
	yo_kv(y, "apiVersion", "v1");
	yo_kv(y, "kind", "Namespace");
	ky_map(y, "metadata");
	yo_kv(y, "name", kube_namespace(m));
	ky_map(y, "labels");
	yo_kv(y, "app.kubernetes.io/managed-by", "dslc");
	/* hostNetwork, hostPID, hostPath and SYS_ADMIN: the privileged level */
	yo_kv(y, "pod-security.kubernetes.io/enforce", "privileged");
	yo_map_end(y);
	yo_map_end(y);
	yo_map_end(y);
}

/* An account per kind of pod, so that a site's policies (and audit logs)
 * tell them apart; none of them calls the API server, so no token. */
void ky_account_doc(yaml_out *y, const model *m, const void *arg)
{
	const char *name = arg;
	ky_head(y, m, "v1", "ServiceAccount", name, name, NULL, NULL);
	ky_bool(y, "automountServiceAccountToken", false);
	yo_map_end(y);
}

bool ky_doc(buf *out, const model *m, ky_doc_fn fn, const void *arg)
{
	if (out->len)
		buf_puts(out, "---\n");
	yaml_out y;
	if (!yo_begin(&y, out, m->release))
		return false;
	fn(&y, m, arg);
	return yo_end(&y);
}
