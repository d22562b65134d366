/* kubelet.c - etc/kubernetes/kubelet.conf.d/50-dslc.conf, a
 * KubeletConfiguration drop-in (kubelet --config-dir) that keeps pods off the
 * OS and DAOS engine CPUs and off DAOS's memory. Field names from
 * kubernetes/kubelet config/v1beta1/types.go; cross-field rules from
 * ../shared/facts/node-artifacts.md section 4.3. */
#include <stdio.h>
#include <string.h>

#include "compiler/node_os.h"
#include "targets.h"
#include "yaml_out.h"

/* A Kubernetes quantity in the largest binary unit that divides it. */
static const char *quantity(arena *a, uint64_t bytes)
{
	static const struct { const char *u; uint64_t m; } units[] = {
		{"Gi", 1ULL << 30}, {"Mi", 1ULL << 20}, {"Ki", 1ULL << 10},
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (bytes && bytes % units[i].m == 0)
			return arena_printf(a, "%llu%s", (unsigned long long)(bytes / units[i].m), units[i].u);
	return arena_printf(a, "%llu", (unsigned long long)bytes);
}

static void kv(yaml_out *y, const char *k, const char *v)
{
	yo_name(y, k);
	yo_str(y, v);
}

target_result target_kubelet(const model *m, const node *nd, target_file *out)
{
	const kubelet_plan *k = out->index ? NULL : node_kubelet_plan(m, nd->spec);
	if (!k)
		return TARGET_SKIP;
	arena *a = m->ar;
	yaml_out y;
	if (!yo_begin(&y, out->data, m->release))
		return TARGET_FAIL;
	yo_map(&y);
	kv(&y, "apiVersion", "kubelet.config.k8s.io/v1beta1");
	kv(&y, "kind", "KubeletConfiguration");
	if (k->alpha_gate) {
		yo_name(&y, "featureGates");
		yo_map(&y);
		yo_name(&y, "CPUManagerPolicyAlphaOptions");
		yo_bool(&y, true);
		yo_map_end(&y);
	}
	kv(&y, "cpuManagerPolicy", k->cpu_manager);
	if (k->strict) {
		yo_name(&y, "cpuManagerPolicyOptions");
		yo_map(&y);
		kv(&y, "strict-cpu-reservation", "true");
		yo_map_end(&y);
	}
	kv(&y, "reservedSystemCPUs", k->reserved_cpus);
	kv(&y, "topologyManagerPolicy", k->topology);
	yo_name(&y, "systemReserved");
	yo_map(&y);
	kv(&y, "memory", quantity(a, k->system_reserved));
	yo_map_end(&y);
	yo_name(&y, "kubeReserved");
	yo_map(&y);
	kv(&y, "memory", quantity(a, k->kube_reserved));
	yo_map_end(&y);
	yo_name(&y, "evictionHard");
	yo_map(&y);
	kv(&y, "memory.available", quantity(a, k->eviction));
	yo_map_end(&y);
	if (strcmp(k->memory_manager, "static") == 0) {
		kv(&y, "memoryManagerPolicy", "Static");
		yo_name(&y, "reservedMemory");
		yo_seq(&y);
		for (int n = 0; n < k->nnuma; n++) {
			yo_map(&y);
			yo_name(&y, "numaNode");
			yo_int(&y, nd->spec->plan->topo->numa[n].os_index);
			yo_name(&y, "limits");
			yo_map(&y);
			kv(&y, "memory", quantity(a, k->numa_reserved[n]));
			yo_map_end(&y);
			yo_map_end(&y);
		}
		yo_seq_end(&y);
	} else {
		kv(&y, "memoryManagerPolicy", "None");
	}
	yo_map_end(&y);
	return yo_end(&y) ? TARGET_OK : TARGET_FAIL;
}
