/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* containerd.c - which way a CRI option reaches containerd, per release line.
 *
 * From containerd's sources, per tag:
 * - 1.6, 1.7 (services/server/config/config.go mergeConfig): an imported
 *   file's plugin sections replace the root's whole ("Replace entire sections
 *   instead of merging map's values"): a drop-in naming
 *   io.containerd.grpc.v1.cri resets the node's runtimes, SystemdCgroup,
 *   sandbox image and registry. No drop-in can add one key.
 * - 2.x (cmd/containerd/server/config/config.go mergeConfig): plugin maps are
 *   merged key by key (mergo.WithOverride). A drop-in's `version` overrides
 *   the merged one, and a version-2 result is migrated at start
 *   (server.go New); 2.0.0 and 2.0.1 then replace io.containerd.cri.v1.runtime
 *   with io.containerd.grpc.v1.cri's section (plugins/cri/runtime/plugin.go
 *   ConfigMigration), 2.0.2 on copy only its missing keys. A drop-in with no
 *   version is migrated to the root's (LoadConfig, `case 0, 1`) and never
 *   lowers it; from 2.3 every file is migrated on its own
 *   (LoadConfigWithPlugins).
 * So 2.x takes a versionless drop-in; 2.0.0 and 2.0.1 with a version-2
 * config.toml read the key only from grpc.v1.cri's section, which
 * their migration carries over. */
#include <stdio.h>
#include <string.h>

#include "containerd.h"

/* The containerd each OS ships in its own repositories. The RHEL family
 * ships none (Podman and CRI-O): its nodes run Docker's or a vendor's. */
static const struct {
	const char *os, *release;
} os_containerd[] = {
	{"debian12", "1.6"},    /* bookworm: 1.6.20 */
	{"debian13", "1.7"},    /* trixie: 1.7.24 */
	{"ubuntu22.04", "1.7"}, /* jammy-updates */
	{"ubuntu24.04", "1.7"}, /* noble */
	{"sles15", "1.7"},
	{"azurelinux3", "2.0.0"}, /* containerd2 (SPECS/containerd2/containerd2.spec) */
};

static ctrd_way way_of(const char *release)
{
	int major = 0, minor = 0, patch = -1;
	if (sscanf(release, "%d.%d.%d", &major, &minor, &patch) < 2)
		return CTRD_UNKNOWN;
	if (major == 1)
		return CTRD_EDIT;
	if (major == 2 && minor == 0 && patch < 2)
		return CTRD_DROPIN_BOTH;
	return major == 2 ? CTRD_DROPIN : CTRD_UNKNOWN;
}

ctrd_release ctrd_of(const node_spec *s)
{
	if (s->containerd.set)
		return (ctrd_release){way_of(s->containerd.v), s->containerd.v, s->containerd.loc};
	for (size_t i = 0; s->os.set && i < sizeof(os_containerd) / sizeof(os_containerd[0]); i++)
		if (strcmp(s->os.v, os_containerd[i].os) == 0)
			return (ctrd_release){way_of(os_containerd[i].release), os_containerd[i].release, s->os.loc};
	return (ctrd_release){CTRD_UNKNOWN, NULL, s->os.set ? s->os.loc : s->deploy.loc};
}
