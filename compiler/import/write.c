/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* write.c - the imported description as text: what dslc derives by itself
 * is left out (a value is written only where it differs from what the
 * build would derive), so the description reads like one written by hand,
 * and its layout is `dslc fmt`'s. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "import_data.h"

/* A value from a file as one word of the description: as it is when the
 * scanner reads it back as one word, else quoted (the keyword then judges
 * it, and the safety gate refuses what cannot be written). */
static void word(buf *b, arena *a, const char *s)
{
	/* grammar/lexer.l: a WORD neither starts nor ends with ':' ("ab:" would
	 * scan as "ab" and ':') */
	size_t n = strlen(s);
	bool plain = isalnum((unsigned char)s[0]) && s[n - 1] != ':';
	for (const char *p = s; *p && plain; p++)
		plain = isalnum((unsigned char)*p) || strchr("._:/@+-", *p);
	if (plain)
		buf_puts(b, s);
	else
		buf_puts(b, import_quoted(a, s));
}

static void write_cluster(const importer *im, buf *b)
{
	const imp_node *n = &im->nodes[0];
	buf_puts(b, "cluster ");
	word(b, im->a, n->name);
	buf_puts(b, " {\n");
	for (int k = 0; k < IC__COUNT; k++)
		if (n->cluster[k].line)
			buf_printf(b, "  %s\n", n->cluster[k].line);
	if (im->log_mask && strcmp(im->log_mask, "ERR") != 0) {
		buf_printf(b, "  log_mask %s\n", import_quoted(im->a, im->log_mask));
	}
	if (im->fabric_port != 31416)
		buf_printf(b, "  fabric_port %lld\n", (long long)im->fabric_port);
	for (size_t i = 0; i < im->ncommon_env; i++) {
		/* dslc's keyword for it; the build writes the same entry */
		const char *e = im->common_env[i];
		char *end;
		long long ms = strncmp(e, "SWIM_SUSPECT_TIMEOUT=", 21) == 0 ? strtoll(e + 21, &end, 10) : 0;
		if (ms > 0 && ms <= 86400000 && !*end && isdigit((unsigned char)e[21])) {
			if (ms % 1000)
				buf_printf(b, "  swim_suspect_timeout %lldms\n", ms);
			else
				buf_printf(b, "  swim_suspect_timeout %llds\n", ms / 1000);
			continue;
		}
		buf_printf(b, "  env %s\n", import_quoted(im->a, im->common_env[i]));
	}
	buf_puts(b, "}\n");
}

static const imp_engine *engine_on(const imp_node *n, int numa)
{
	for (int i = 0; i < n->neng; i++)
		if (n->eng[i].numa == numa)
			return &n->eng[i];
	return NULL;
}

static void write_hardware(const importer *im, const imp_group *g, buf *b)
{
	const imp_node *n = &im->nodes[g->first];
	buf_printf(b, "\nhardware %s_node {\n", g->name);
	if (im->topo) {
		buf_printf(b, "  topology %s\n", import_quoted(im->a, im->topo_path));
	} else {
		/* what the file says of the node: one NUMA node per socket, the
		 * least cores that hold its engines; describe the real node, or
		 * import with --topology */
		buf_printf(b, "  sockets          %d\n  cores_per_socket %d\n", g->nnuma, g->cores_per_socket);
	}
	for (int k = 0; k < g->nnuma; k++) {
		const imp_engine *e = engine_on(n, k);
		if (!e && !g->ndrives[k])
			continue;
		buf_printf(b, "  numa %d {\n", k);
		if (e) {
			buf_puts(b, "    nic  ");
			word(b, im->a, e->iface);
			buf_puts(b, "\n");
		}
		if (g->ndrives[k]) {
			buf_puts(b, "    nvme");
			for (int d = 0; d < g->ndrives[k]; d++) {
				buf_puts(b, " ");
				word(b, im->a, g->drives[k][d]);
			}
			buf_puts(b, "\n");
		}
		if (e && e->scm_device && strncmp(e->scm_device, "/dev/", 5) == 0) {
			buf_puts(b, "    pmem ");
			word(b, im->a, e->scm_device + 5);
			buf_puts(b, "\n");
		}
		buf_puts(b, "  }\n");
	}
	buf_puts(b, "}\n");
}

static void roles(buf *b, const imp_tier *t)
{
	if (!t->nroles)
		return;
	buf_puts(b, " [");
	for (int r = 0; r < t->nroles; r++)
		buf_printf(b, "%s%s", r ? " " : "", t->roles[r]);
	buf_puts(b, "]");
}

/* The lines of an engine block, without the block. */
static void engine_body(const importer *im, const imp_group *g, const imp_engine *e, buf *b)
{
	buf_printf(b, "    targets %lld\n    helpers %lld\n", (long long)e->targets, (long long)e->helpers);
	if (e->has_fc && !g->reserve_os)
		buf_printf(b, "    first_core %lld\n", (long long)e->first_core);
	if (strcmp(e->scm_class, "dcpm") == 0)
		buf_puts(b, "    scm pmem\n");
	else if (e->scm_size >= 0)
		buf_printf(b, "    scm ram %lldGiB\n", (long long)e->scm_size);
	else
		buf_puts(b, "    scm ram\n");
	char dflt[64];
	snprintf(dflt, sizeof(dflt), "/mnt/daos%d", e->index);
	if (e->scm_mount && strcmp(e->scm_mount, dflt) != 0) {
		buf_printf(b, "    scm_mount %s\n", import_quoted(im->a, e->scm_mount));
	}
	if (e->files.ndrives) {
		buf_puts(b, "    nvme file");
		for (int f = 0; f < e->files.ndrives; f++) {
			buf_printf(b, " %s", import_quoted(im->a, e->files.drives[f]));
		}
		buf_printf(b, " size %lldGiB\n", (long long)e->file_size);
	}
	if (e->ntiers == 1 && e->tiers[0].nroles) {
		buf_puts(b, "    nvme roles");
		roles(b, &e->tiers[0]);
		buf_puts(b, "\n");
	}
	for (int t = 0; e->ntiers > 1 && t < e->ntiers; t++) {
		buf_puts(b, "    nvme tier");
		roles(b, &e->tiers[t]);
		if (t + 1 < e->ntiers)
			buf_printf(b, " drives %d", e->tiers[t].ndrives);
		buf_puts(b, "\n");
	}
	if (e->has_port && e->port != im->fabric_port + 1000 * e->index)
		buf_printf(b, "    fabric_port %lld\n", (long long)e->port);
	if (!im->log_mask) {
		buf_printf(b, "    log_mask %s\n", import_quoted(im->a, e->log_mask));
	}
	snprintf(dflt, sizeof(dflt), "/var/log/daos/daos_engine.%d.log", e->index);
	if (e->log_file && strcmp(e->log_file, dflt) != 0) {
		buf_printf(b, "    log_file %s\n", import_quoted(im->a, e->log_file));
	}
	for (size_t v = 0; v < e->nenv; v++) {
		buf_printf(b, "    env %s\n", import_quoted(im->a, e->env[v]));
	}
}

/* `engine per numa` when every NUMA node has an engine and the engines'
 * blocks are the same; else one `engine numa N` block each. */
static void write_engines(const importer *im, const imp_group *g, const imp_node *n, buf *b)
{
	buf bodies[IMP_MAX_ENGINES];
	bool same = n->neng == g->nnuma;
	for (int i = 0; i < n->neng; i++) {
		buf_init(&bodies[i]);
		engine_body(im, g, &n->eng[i], &bodies[i]);
		same = same && (!i || (bodies[i].len == bodies[0].len && memcmp(bodies[i].data, bodies[0].data, bodies[0].len) == 0));
	}
	for (int i = 0; i < n->neng; i++) {
		if (same && i)
			break;
		if (same)
			buf_puts(b, "  engine per numa {\n");
		else
			buf_printf(b, "  engine numa %d {\n", n->eng[i].numa);
		buf_add(b, bodies[i].data, bodies[i].len);
		buf_puts(b, "  }\n");
	}
	for (int i = 0; i < n->neng; i++)
		buf_free(&bodies[i]);
}

static void write_group(const importer *im, size_t gi, buf *b)
{
	const imp_group *g = &im->groups[gi];
	const imp_node *n = &im->nodes[g->first];
	write_hardware(im, g, b);
	buf_printf(b, "\nprofile %s : %s_node {\n", g->name, g->name);
	if (g->reserve_os)
		buf_printf(b, "  reserve os %d cores per numa\n", g->reserve_os);
	if (g->hugepage_bytes) {
		if (g->hugepage_bytes % (1LL << 30) == 0)
			buf_printf(b, "  hugepages %lldGiB\n", (long long)(g->hugepage_bytes >> 30));
		else
			buf_printf(b, "  hugepages %lldMiB\n", (long long)(g->hugepage_bytes >> 20));
	}
	write_engines(im, g, n, b);
	buf_puts(b, "}\n\n");
	const char **hosts = arena_alloc(im->a, im->nnodes * sizeof(*hosts));
	size_t k = 0;
	for (size_t i = 0; i < im->nnodes; i++)
		if (im->nodes[i].group == (int)gi)
			hosts[k++] = im->nodes[i].host;
	buf_printf(b, "nodes %s : %s\n", hostlist_compress(im->a, hosts, k), g->name);
	for (size_t i = 0; i < im->nnodes; i++) {
		const imp_node *x = &im->nodes[i];
		if (x->group != (int)gi || !x->nexcluded)
			continue;
		buf_printf(b, "node %s { exclude nvme", x->host);
		for (int d = 0; d < x->nexcluded; d++) {
			buf_puts(b, " ");
			word(b, im->a, x->excluded[d]);
		}
		buf_puts(b, " }\n");
	}
}

void import_write(const importer *im, buf *b)
{
	buf_printf(b, "# Imported by `dslc import` from %zu daos_server.yml file%s", im->nnodes, im->nnodes == 1 ? "" : "s");
	buf_printf(b, im->nnodes == 1 ? " (%s).\n" : " (%s, ...).\n", im->nodes[0].path);
	if (!im->topo)
		buf_puts(b, "# The node types say only what the files say: describe the real node\n"
			    "# (CPUs, memory, every NIC and drive), or import again with --topology.\n");
	buf_printf(b, "\ndaos %s\n\n", im->rel->name);
	write_cluster(im, b);
	for (size_t g = 0; g < im->ngroups; g++)
		write_group(im, g, b);
}
