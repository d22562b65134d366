/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "selfcheck.h"

#include <string.h>

#include "compiler/base/strmap.h"
#include "compiler/lint/yaml_lint.h"
#include "compiler/place/place.h"
#include "render.h"
#include "targets/targets.h"

/* Which engine of the rendered daos_server.yml holds offset: engines is the
 * file's last key and each engine an item at column 0 ("- targets: ..."). */
static int engine_at(const char *text, uint32_t offset)
{
	const char *eng = strstr(text, "\nengines:\n");
	if (!eng || (uint32_t)(eng - text) > offset)
		return -1;
	int idx = -1;
	for (const char *p = eng + 1; p && (uint32_t)(p - text) <= offset; p = strchr(p + 1, '\n'))
		if (p[1] == '-' && p[2] == ' ')
			idx++;
	return idx;
}

/* The statement that produced a value of the file: the engine's own
 * declaration for a value inside an engine, else the first engine's (the
 * node type's engines), else the hardware's name. */
static src_loc origin_of(const node_spec *s, int engine)
{
	const node_plan *p = s->plan;
	if (engine >= 0 && engine < p->nengines)
		return p->engines[engine].spec->loc;
	if (p->nengines)
		return p->engines[0].spec->loc;
	return s->hw->name_loc;
}

static void silenced_rules(const model *m, const bool *disabled, bool out[R__COUNT])
{
	for (int i = 0; i < R__COUNT; i++)
		out[i] = disabled && disabled[i];
	for (const suppression *sp = m->dc->sups; sp; sp = sp->next) {
		const rule_info *r = rule_find(sp->rule_id);
		if (r)
			out[r->rule] = true;
	}
}

/* A hand-described drive that an engine names a VMD backing address behind
 * (7c0005:01:00.0 behind 0000:7c:00.5): the description says it is a VMD
 * endpoint, as placement read it (place/storage.c listed_drive). */
static bool named_as_vmd(const node_spec *s, const char *pci)
{
	const node_plan *p = s->plan;
	for (int e = 0; p && e < p->nengines; e++)
		for (int i = 0; i < p->engines[e].nnvmes; i++)
			if (strcmp(p->engines[e].nvmes[i]->endpoint, pci) == 0)
				return true;
	return false;
}

/* The topology the YAML linter gets: the export as loaded, or for a hand
 * description its regular CPUs with the NICs and drives the numa blocks
 * describe (a NIC's RDMA device and link are then what the block says; a
 * drive an engine names a backing address behind is a VMD endpoint). */
static const topology *topology_of(model *m, const node_spec *s)
{
	const hardware *hw = s->hw;
	if (hw->topology_file.set)
		return hw->topo;
	topology *t = arena_alloc(m->ar, sizeof(*t));
	*t = *hw->topo;
	t->ndevices = (int)(hw->nnics + hw->nnvmes);
	topo_device *d = arena_alloc(m->ar, (size_t)(t->ndevices + 1) * sizeof(*d));
	for (size_t i = 0; i < hw->nnics; i++) {
		const nic_desc *n = &hw->nics[i];
		d[i] = (topo_device){.kind = TOPO_NIC, .net = n->name, .rdma = n->rdma, .link = n->link, .fabric = true,
				     .rdma_unknown = !n->exported, .numa = n->numa, .numa_mask = 1ULL << n->numa};
		memcpy(d[i].pci, n->pci, sizeof(d[i].pci));
	}
	for (size_t i = 0; i < hw->nnvmes; i++) {
		topo_device *v = &d[hw->nnics + i];
		*v = (topo_device){.kind = named_as_vmd(s, hw->nvmes[i].pci) ? TOPO_VMD : TOPO_NVME, .numa = hw->nvmes[i].numa,
				   .numa_mask = 1ULL << hw->nvmes[i].numa};
		memcpy(v->pci, hw->nvmes[i].pci, sizeof(v->pci));
	}
	t->devices = d;
	return t;
}

/* Lints one rendered file; its errors become internal-consistency errors. */
static unsigned check_file(model *m, const node_spec *s, const char *path, const char *data, size_t len,
			   const bool silenced[R__COUNT])
{
	arena *a = m->ar;
	diag_ctx *dc = m->dc;
	const char *name = arena_printf(a, "%s: %s", s->origin, path);
	uint32_t file = src_add(dc->src, name, data, len);
	diag_ctx scratch;
	diag_init(&scratch, a, dc->src);
	yaml_lint_opts o = {m->release->name, topology_of(m, s), 0, s->plan->hugepage_size};
	yaml_lint_file(a, &scratch, file, &o);
	unsigned n = 0;
	const src_file *f = src_get(dc->src, file);
	for (size_t i = 0; i < scratch.n; i++) {
		const diag *y = scratch.items[i];
		if (y->severity != SEV_ERROR || silenced[y->rule->rule])
			continue;
		src_loc at = origin_of(s, strstr(path, "server") ? engine_at(f->text, y->loc.start) : -1);
		diag *d = diag_report(dc, R_INTERNAL_CONSISTENCY, at, "the %s dslc rendered for %s fails its own check: %s [%s]",
				      path, s->origin, y->msg, y->rule->id);
		src_pos pos = src_position(dc->src, file, y->loc.start);
		size_t len;
		const char *line = src_line_text(dc->src, file, pos.line, &len);
		while (len && (*line == ' ' || *line == '-')) {
			line++;
			len--;
		}
		diag_note_at(dc, d, y->loc, "the rendered line is `%.*s`", (int)(len > 120 ? 120 : len), line);
		diag_help(dc, d, "nothing was written: the lint rules missed this shape, a dslc defect; please report it "
			  "with this description");
		n++;
	}
	return n;
}

unsigned selfcheck_model(model *m, const bool *disabled, render_memo *memo)
{
	if (!m->release)
		return 0;
	bool silenced[R__COUNT];
	silenced_rules(m, disabled, silenced);
	static const struct {
		const char *target, *path;
	} configs[] = {{"daos_server", "etc/daos/daos_server.yml"}, {"daos_agent", "etc/daos/daos_agent.yml"}};
	strmap seen;
	strmap_init(&seen, m->ar);
	buf pod;
	buf_init(&pod);
	unsigned errors = 0;
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_spec *s = m->specs[i];
		if (!s->used || !s->plan || !s->plan->ok || !s->hw || !s->hw->topo)
			continue;
		for (size_t c = 0; c < sizeof(configs) / sizeof(configs[0]); c++) {
			size_t n;
			const rendered *f = render_spec_files(m, s, configs[c].target, memo, &n);
			rendered in_pods = {0};
			if (!f && !n)
				continue; /* a value failed its safety check: unsafe-value says so */
			if (!n && spec_in_pods(s)) {
				/* the group's ConfigMap holds what the file would; a
				 * client-only node has no daos_server.yml */
				if (c == 0 && s->plan->client)
					continue;
				buf_reset(&pod);
				if (!(c == 0 ? daos_server_yaml(m, s, &pod) : daos_agent_yaml(m, s, &pod)))
					continue;
				in_pods.data = pod.data ? pod.data : "";
				in_pods.len = pod.len;
				sha256_bytes(in_pods.data, in_pods.len, in_pods.sha);
				f = &in_pods;
				n = 1;
			}
			if (!n)
				continue;
			/* one lint per distinct file and hardware */
			char hex[65];
			sha256_to_hex(f->sha, hex);
			char key[96];
			snprintf(key, sizeof(key), "%s/%p", hex, (const void *)s->hw);
			if (strmap_get(&seen, key))
				continue;
			strmap_put(&seen, arena_strdup(m->ar, key), (void *)s);
			errors += check_file(m, s, configs[c].path, f->data, f->len, silenced);
		}
	}
	buf_free(&pod);
	return errors;
}
