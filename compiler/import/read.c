/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* read.c - one daos_server.yml into an imp_node. The file has passed the
 * YAML linter (DAOS's strict loading and validation), so keys and types are
 * DAOS's; what is left here is whether the description can say each value.
 * Every key is in one of three places: read into the node, accepted because
 * its value is DAOS's default (the `defaults` table), or refused at its
 * line (import-unsupported). Nothing is skipped silently. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "compiler/lint/yaml_rules.h"
#include "import_data.h"

/* Keys whose value is accepted when it is DAOS's default: the description
 * writes nothing for them and DAOS applies the same default. Sources:
 * src/control/server/config/server.go (DefaultServer), engine/config.go,
 * storage/config.go, security/config.go (DefaultServerTransportConfig) on
 * release/2.6 and release/2.8. */
typedef struct imp_default {
	const char *section, *key, *value; /* value: "false", "[]", or the text */
} imp_default;

static const imp_default defaults[] = {
	{"SERVER", "bdev_exclude", "[]"},
	{"SERVER", "disable_vfio", "false"},
	{"SERVER", "disable_vmd", "false"},
	{"SERVER", "enable_hotplug", "false"},
	{"SERVER", "disable_hotplug", "false"},
	{"SERVER", "disable_hugepages", "false"},
	{"SERVER", "allow_thp", "false"},
	{"SERVER", "control_log_json", "false"},
	{"SERVER", "hyperthreads", "false"},
	{"SERVER", "allow_numa_imbalance", "false"},
	{"SERVER", "disable_engine_auto_restart", "false"},
	{"SERVER", "disable_srx", "false"},
	{"SERVER", "bypass_health_chk", "false"},
	{"SERVER", "socket_dir", "/var/run/daos_server"},
	{"SERVER", "fault_cb", ""},
	{"SERVER", "fault_path", ""},
	{"ENGINE", "disable_srx", "false"},
	{"ENGINE", "bypass_health_chk", "false"},
	{"ENGINE", "env_pass_through", "[]"},
	{"TIER", "scm_hugepages_disabled", "false"},
	{"TRANSPORT", "client_cert_dir", "/etc/daos/certs/clients"},
	{"TRANSPORT", "ca_cert", "/etc/daos/certs/daosCA.crt"},
	{"TRANSPORT", "cert", "/etc/daos/certs/server.crt"},
	{"TRANSPORT", "key", "/etc/daos/certs/server.key"},
};

bool import_is_default(const char *section, const char *key, const ynode *v)
{
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		const imp_default *d = &defaults[i];
		if (strcmp(d->section, section) != 0 || strcmp(d->key, key) != 0)
			continue;
		if (yl_is_null(v))
			return true;
		if (strcmp(d->value, "[]") == 0)
			return v->kind == Y_SEQ && v->n == 0;
		if (strcmp(d->value, "false") == 0)
			return yl_scalar_bool(v) && !yl_is_true(v);
		return v->kind == Y_SCALAR && strcmp(v->text, d->value) == 0;
	}
	return false;
}

static void unsupported(importer *im, src_loc loc, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void unsupported(importer *im, src_loc loc, const char *help, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *msg = arena_vprintf(im->a, fmt, ap);
	va_end(ap);
	diag *d = diag_report(im->dc, R_IMPORT_UNSUPPORTED, loc, "%s", msg);
	diag_help(im->dc, d, "%s", help);
}

/* Every key of map that the reader does not take (read: a NULL-ended list)
 * must hold DAOS's default. */
static void check_rest(importer *im, const ynode *map, const char *section, const char *const *read)
{
	for (size_t i = 0; map && map->kind == Y_MAP && i < map->n; i++) {
		const ypair *p = &map->pairs[i];
		bool taken = false;
		const char *key = p->key->kind == Y_SCALAR && p->key->text ? p->key->text : "(a key that is not a name)";
		for (int k = 0; read[k] && !taken; k++)
			taken = strcmp(read[k], key) == 0;
		if (taken || import_is_default(section, key, p->value))
			continue;
		unsupported(im, src_loc_join(p->key->loc, p->value->loc),
			    "remove it if DAOS's default serves, or keep this node's file hand-written (`dslc lint` checks it)",
			    "%s: dslc has no keyword for this value, and the build would drop it", key);
	}
}

static void set(imp_node *n, int key, const char *line, src_loc loc)
{
	n->cluster[key].line = line;
	n->cluster[key].loc = loc;
}

/* access_points or mgmt_svc_replicas: hosts on the control port. */
static void read_access_points(importer *im, imp_node *n, int64_t port)
{
	const char *key = ydoc_get(n->root, "mgmt_svc_replicas") ? "mgmt_svc_replicas" : "access_points";
	const ynode *list = ydoc_get(n->root, key);
	if (!list || list->kind != Y_SEQ || !list->n) {
		unsupported(im, list ? list->loc : n->root->loc, "list the access points (1, 3 or 5 hosts)",
			    "%s: no access points; a description names them", key);
		return;
	}
	const char **hosts = arena_alloc(im->a, list->n * sizeof(*hosts));
	for (size_t i = 0; i < list->n; i++) {
		const char *t = list->items[i]->text, *colon = strrchr(t, ':');
		if (colon && strtoll(colon + 1, NULL, 10) != port) {
			unsupported(im, list->items[i]->loc, "give every access point the control port (`port`)",
				    "%s: %s listens on another port than the control port; dslc writes one port for all",
				    key, t);
			return;
		}
		hosts[i] = colon ? arena_strndup(im->a, t, (size_t)(colon - t)) : t;
		const char *why;
		if (!val_hostname(hosts[i], &why)) {
			unsupported(im, list->items[i]->loc, "name the access point by its host name, as the nodes are named",
				    "access point '%s': %s", hosts[i], why);
			return;
		}
	}
	buf b;
	buf_init(&b);
	for (size_t i = 0; i < list->n; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", hosts[i]);
	set(n, IC_ACCESS_POINTS, arena_printf(im->a, "access_points %s", b.data), yl_key_loc(n->root, key));
	buf_free(&b);
}

/* A value written into the description as a string: quoted, with '"' and
 * '\\' escaped as the scanner reads them back (grammar/lexer.l). */
const char *import_quoted(arena *a, const char *s)
{
	buf b;
	buf_init(&b);
	buf_puts(&b, "\"");
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			buf_puts(&b, "\\");
		buf_add(&b, p, 1);
	}
	buf_puts(&b, "\"");
	char *r = arena_strdup(a, b.data);
	buf_free(&b);
	return r;
}

/* A value the description writes as one string: the safety gate's rule. */
static bool one_line(importer *im, const ynode *v, const char *key)
{
	const char *why = safe_line(v->text);
	if (why)
		unsupported(im, v->loc, "write the value on one line of UTF-8 without control characters", "%s: %s", key, why);
	return !why;
}

static void read_transport(importer *im, imp_node *n)
{
	const ynode *t = ydoc_get(n->root, "transport_config");
	if (!t || t->kind != Y_MAP)
		return;
	const ynode *ins = ydoc_get(t, "allow_insecure");
	bool insecure = ins && yl_scalar_bool(ins) && yl_is_true(ins);
	if (insecure) /* DAOS reads no certificate then */
		set(n, IC_TRANSPORT, "transport insecure", yl_key_loc(t, "allow_insecure"));
	else
		check_rest(im, t, "TRANSPORT", (const char *const[]){"allow_insecure", NULL});
}

static void read_string_setting(importer *im, imp_node *n, int key, const char *yaml, const char *dflt, const char *kw)
{
	const ynode *v = ydoc_get(n->root, yaml);
	if (!v || yl_is_null(v) || !one_line(im, v, yaml))
		return;
	if (dflt && strcmp(v->text, dflt) == 0)
		return;
	set(n, key, arena_printf(im->a, "%s %s", kw, import_quoted(im->a, v->text)), yl_key_loc(n->root, yaml));
}

static void read_int_setting(importer *im, imp_node *n, int key, const char *yaml, int64_t dflt, const char *fmt)
{
	int64_t v;
	if (!yl_get_int(n->root, yaml, &v, NULL) || v == dflt)
		return;
	set(n, key, arena_printf(im->a, fmt, (long long)v), yl_key_loc(n->root, yaml));
}

/* client_env_vars: dslc writes FI_VERBS_GID_IDX there (and in every
 * engine's env) for `fabric roce { gid_index N }`, then each `client_env`
 * entry, in order: one setting of the node, its lines in that order. */
static void read_client_env(importer *im, imp_node *n)
{
	const ynode *v = ydoc_get(n->root, "client_env_vars");
	if (!v || v->kind != Y_SEQ)
		return;
	for (size_t i = 0; i < v->n; i++) {
		const char *e = v->items[i]->text;
		int64_t gid;
		char *end;
		if (strncmp(e, "FI_VERBS_GID_IDX=", 17) == 0 && !n->gid_env && (gid = strtoll(e + 17, &end, 10)) >= 0 &&
		    gid <= 255 && !*end && end != e + 17) {
			n->gid_env = e;
			set(n, IC_FABRIC, arena_printf(im->a, "fabric roce { gid_index %lld }", (long long)gid), v->items[i]->loc);
			continue;
		}
		const char *eq = strchr(e, '=');
		if (!eq || eq == e || !eq[1]) {
			unsupported(im, v->items[i]->loc, "write it as NAME=VALUE (clients drop other entries: src/mgmt/cli_mgmt.c _split_env)",
				    "client_env_vars: '%s' is not NAME=VALUE", e);
			continue;
		}
		const char *line = arena_printf(im->a, "client_env %s", import_quoted(im->a, e));
		const char *prev = n->cluster[IC_CLIENT_ENV].line;
		set(n, IC_CLIENT_ENV, prev ? arena_printf(im->a, "%s\n  %s", prev, line) : line,
		    prev ? n->cluster[IC_CLIENT_ENV].loc : v->items[i]->loc);
	}
}

static void read_tier_list(importer *im, const ynode *list, const char **out, int *n, int max, const char *what)
{
	for (size_t i = 0; list && list->kind == Y_SEQ && i < list->n; i++) {
		if (*n == max) {
			unsupported(im, list->items[i]->loc, "split the drives over fewer engines or tiers", "%s: more than %s",
				    what, max == IMP_MAX_DRIVES ? "64 drives" : "3 roles");
			return;
		}
		out[(*n)++] = list->items[i]->text;
	}
}

static void read_storage(importer *im, imp_engine *e, const ynode *storage)
{
	for (size_t i = 0; storage && storage->kind == Y_SEQ && i < storage->n; i++) {
		const ynode *t = storage->items[i];
		const char *cls = yl_get_str(t, "class");
		if (!cls)
			continue;
		if (i == 0 && (strcmp(cls, "ram") == 0 || strcmp(cls, "dcpm") == 0)) {
			e->scm_class = cls;
			yl_get_int(t, "scm_size", &e->scm_size, NULL);
			e->scm_mount = yl_get_str(t, "scm_mount");
			const ynode *l = ydoc_get(t, "scm_list");
			if (l && l->kind == Y_SEQ && l->n)
				e->scm_device = l->items[0]->text;
			check_rest(im, t, "TIER", (const char *const[]){"class", "scm_size", "scm_mount", "scm_list", NULL});
			continue;
		}
		if (strcmp(cls, "file") == 0 && !e->files.ndrives && !e->ntiers && !ydoc_get(t, "bdev_roles")) {
			read_tier_list(im, ydoc_get(t, "bdev_list"), e->files.drives, &e->files.ndrives, IMP_MAX_DRIVES, "bdev_list");
			yl_get_int(t, "bdev_size", &e->file_size, NULL);
			for (int f = 0; f < e->files.ndrives; f++)
				if (safe_mount_path(e->files.drives[f]))
					unsupported(im, ydoc_get(t, "bdev_list")->items[f]->loc, "write an absolute path of plain components",
						    "bdev_list: %s: %s", e->files.drives[f], safe_mount_path(e->files.drives[f]));
			check_rest(im, t, "TIER", (const char *const[]){"class", "bdev_list", "bdev_size", NULL});
			continue;
		}
		if (strcmp(cls, "nvme") != 0 || e->ntiers == IMP_MAX_TIERS || e->files.ndrives) {
			unsupported(im, yl_key_loc(t, "class"),
				    "give the engine up to 3 NVMe tiers of drives, or one emulated tier (class file) without roles",
				    "storage tier 'class: %s': dslc writes up to 3 NVMe tiers, or one class file tier without roles", cls);
			continue;
		}
		imp_tier *tier = &e->tiers[e->ntiers++];
		read_tier_list(im, ydoc_get(t, "bdev_list"), tier->drives, &tier->ndrives, IMP_MAX_DRIVES, "bdev_list");
		read_tier_list(im, ydoc_get(t, "bdev_roles"), tier->roles, &tier->nroles, 3, "bdev_roles");
		check_rest(im, t, "TIER", (const char *const[]){"class", "bdev_list", "bdev_roles", NULL});
	}
}

static void read_env(importer *im, imp_engine *e)
{
	const ynode *v = ydoc_get(e->map, "env_vars");
	if (!v || v->kind != Y_SEQ)
		return;
	e->env = arena_alloc(im->a, (v->n + 1) * sizeof(*e->env));
	for (size_t i = 0; i < v->n; i++)
		if (one_line(im, v->items[i], "env_vars"))
			e->env[e->nenv++] = v->items[i]->text;
}

static void read_engine(importer *im, imp_node *n, const ynode *map, int idx)
{
	imp_engine *e = &n->eng[idx];
	e->map = map;
	e->index = idx;
	e->numa = -1;
	e->scm_size = -1;
	yl_get_int(map, "targets", &e->targets, NULL);
	/* What DAOS takes for what the file leaves out: 0 helpers (yaml.v2
	 * decodes into a zero engine.Config: NewConfig's 2 is for engines made
	 * in code, and `daos-config-check -v` derives -x 0), and no D_LOG_MASK,
	 * which the engine reads as INFO (src/engine/init.c,
	 * daos_debug_init_ex(DAOS_LOG_DEFAULT, DLOG_INFO)) */
	e->helpers = 0;
	yl_get_int(map, "nr_xs_helpers", &e->helpers, NULL);
	e->has_fc = yl_get_int(map, "first_core", &e->first_core, NULL);
	e->has_pin = yl_get_int(map, "pinned_numa_node", &e->pinned, NULL);
	/* each as DAOS takes it, the top level's when the engine's is unset */
	const ypair *port = yl_fabric_pair(n->root, map, "fabric_iface_port"), *iface = yl_fabric_pair(n->root, map, "fabric_iface");
	e->has_port = port && yl_scalar_int(port->value, &e->port) && e->port != 0;
	e->iface = iface && iface->value->kind == Y_SCALAR && !yl_is_null(iface->value) ? iface->value->text : NULL;
	e->log_mask = yl_get_str(map, "log_mask");
	if (!e->log_mask)
		e->log_mask = "INFO";
	e->log_file = yl_get_str(map, "log_file");
	if (e->log_file && !one_line(im, ydoc_get(map, "log_file"), "log_file"))
		e->log_file = NULL;
	read_env(im, e);
	read_storage(im, e, ydoc_get(map, "storage"));
	/* the engine's own provider and crt_timeout must be the system's */
	static const char *const same[] = {"provider", "crt_timeout"};
	for (int k = 0; k < 2; k++) {
		const ynode *v = ydoc_get(map, same[k]), *top = ydoc_get(n->root, same[k]);
		if (v && !yl_is_null(v) && (!top || strcmp(v->text, top->text) != 0))
			unsupported(im, yl_key_loc(map, same[k]), "set it once at the top level, for every engine",
				    "engine %s: %s of its own; dslc writes one for the whole system", same[k],
				    v->text);
	}
	if (!e->iface || !*e->iface)
		unsupported(im, map->loc, "name the engine's interface (fabric_iface)",
			    "engine %d: no fabric_iface; dslc names each engine's NIC", idx);
	if (!e->scm_class)
		unsupported(im, yl_key_loc(map, "storage"), "give the engine an SCM tier first (class ram or dcpm)",
			    "engine %d: no SCM tier", idx);
	check_rest(im, map, "ENGINE",
		   (const char *const[]){"targets", "nr_xs_helpers", "first_core", "pinned_numa_node", "fabric_iface",
					 "fabric_iface_port", "log_mask", "log_file", "env_vars", "storage", "provider",
					 "crt_timeout", NULL});
}

/* control_metadata: dslc writes path /var/daos/config when an engine has
 * MD-on-SSD roles, and nothing otherwise. */
static void read_control_metadata(importer *im, imp_node *n)
{
	const ynode *cm = ydoc_get(n->root, "control_metadata");
	if (!cm || cm->kind != Y_MAP)
		return;
	const char *path = yl_get_str(cm, "path");
	bool roles = false;
	for (int i = 0; i < n->neng; i++)
		for (int t = 0; t < n->eng[i].ntiers; t++)
			roles |= n->eng[i].tiers[t].nroles > 0;
	if (path && (!roles || strcmp(path, "/var/daos/config") != 0))
		unsupported(im, yl_key_loc(cm, "path"),
			    roles ? "use /var/daos/config, where dslc keeps the control-plane metadata"
				  : "remove it: without MD-on-SSD roles dslc keeps the metadata on the SCM mount",
			    "control_metadata: path %s%s cannot be written", path, roles ? "" : " without MD-on-SSD roles");
	check_rest(im, cm, "CONTROL_METADATA", (const char *const[]){"path", NULL});
}

/* Every scalar, key or value, on one line without control characters: no
 * DAOS path or name holds a newline, and a YAML plain scalar folded over a
 * blank line keeps one, which would end a string of the description. */
static void refuse_control(importer *im, const ynode *v)
{
	if (!v)
		return;
	if (v->kind == Y_SCALAR) {
		const char *why = v->text ? safe_line(v->text) : NULL;
		if (why)
			unsupported(im, v->loc, "write the value on one line of UTF-8 without control characters (a plain "
				    "YAML value folded over a blank line keeps a newline)", "%s", why);
		return;
	}
	for (size_t i = 0; i < v->n; i++) {
		if (v->kind == Y_MAP) {
			refuse_control(im, v->pairs[i].key);
			refuse_control(im, v->pairs[i].value);
		} else {
			refuse_control(im, v->items[i]);
		}
	}
}

bool import_read_node(importer *im, imp_node *n)
{
	unsigned before = diag_count(im->dc, SEV_ERROR);
	refuse_control(im, n->root);
	if (diag_count(im->dc, SEV_ERROR) > before)
		return false;
	const ynode *r = n->root;
	n->name = yl_get_str(r, "name");
	n->name_loc = yl_key_loc(r, "name");
	if (!n->name)
		n->name = "daos_server"; /* DAOS's default system name */
	n->nr_hugepages = -1;
	if (yl_get_int(r, "nr_hugepages", &n->nr_hugepages, NULL))
		n->hugepages_loc = yl_key_loc(r, "nr_hugepages");
	int64_t port = 10001;
	yl_get_int(r, "port", &port, NULL);
	read_int_setting(im, n, IC_PORT, "port", 10001, "port %lld");
	read_access_points(im, n, port);
	const char *provider = yl_get_str(r, "provider");
	if (provider && one_line(im, ydoc_get(r, "provider"), "provider"))
		set(n, IC_PROVIDER, arena_printf(im->a, "provider %s", import_quoted(im->a, provider)), yl_key_loc(r, "provider"));
	read_transport(im, n);
	const char *mask = yl_get_str(r, "control_log_mask");
	if (mask && strcasecmp(mask, "INFO") != 0)
		set(n, IC_CONTROL_LOG_MASK, arena_printf(im->a, "control_log_mask %s", mask), yl_key_loc(r, "control_log_mask"));
	read_string_setting(im, n, IC_CONTROL_LOG_FILE, "control_log_file", "/var/log/daos/daos_server.log", "control_log_file");
	read_string_setting(im, n, IC_HELPER_LOG_FILE, "helper_log_file", "/var/log/daos/daos_server_helper.log",
			    "helper_log_file");
	read_int_setting(im, n, IC_TELEMETRY_PORT, "telemetry_port", 9191, "telemetry_port %lld");
	read_int_setting(im, n, IC_CRT_TIMEOUT, "crt_timeout", 0, "crt_timeout %llds");
	read_int_setting(im, n, IC_SYSTEM_RAM_RESERVED, "system_ram_reserved", im->rel->system_ram_reserved_gib,
			 "system_ram_reserved %lldGiB");
	read_client_env(im, n);
	const ynode *engines = ydoc_get(r, "engines");
	if (!engines || engines->kind != Y_SEQ || !engines->n) {
		unsupported(im, engines ? engines->loc : r->loc, "list the engines: a description places each one",
			    "engines: no engines (discovery mode); dslc describes the engines it writes");
	} else if (engines->n > IMP_MAX_ENGINES) {
		unsupported(im, engines->loc, "import at most 16 engines per node", "engines: more engines than a node has NUMA nodes");
	} else {
		for (size_t i = 0; i < engines->n; i++)
			read_engine(im, n, engines->items[i], n->neng++);
	}
	read_control_metadata(im, n);
	static const char *const top[] = {"name", "access_points", "mgmt_svc_replicas", "port", "provider",
					  "transport_config", "control_log_mask", "control_log_file", "helper_log_file",
					  "telemetry_port", "crt_timeout", "system_ram_reserved", "client_env_vars",
					  "nr_hugepages", "engines", "control_metadata", "fabric_iface", "fabric_iface_port", NULL};
	check_rest(im, r, "SERVER", top);
	return diag_count(im->dc, SEV_ERROR) == before;
}
