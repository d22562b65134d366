/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* storage.c - an engine's storage as placed: which NVMe drives it gets
 * (its NUMA node's, minus exclusions, or its own list) and how they split
 * into MD-on-SSD tiers. */
#include "storage.h"

#include <string.h>

#include "compiler/base/value.h"

bool storage_excluded(const node_spec *s, const char *pci)
{
	for (size_t i = 0; i < s->nexcluded; i++)
		if (strcmp(s->excluded[i].pci, pci) == 0)
			return true;
	return false;
}

/* The hardware's drive an engine's list names: by its address, or a drive
 * behind a VMD endpoint the hardware lists, by its backing address (a copy
 * that keeps the address as written, with the endpoint's NUMA node). */
static const nvme_desc *listed_drive(model *m, const hardware *hw, const pci_ref *r)
{
	for (size_t j = 0; j < hw->nnvmes; j++)
		if (strcmp(hw->nvmes[j].pci, r->pci) == 0)
			return &hw->nvmes[j];
	char ep[16];
	if (!topo_vmd_endpoint(r->pci, ep))
		return NULL;
	for (size_t j = 0; j < hw->nnvmes; j++)
		if (strcmp(hw->nvmes[j].pci, ep) == 0) {
			nvme_desc *d = arena_alloc(m->ar, sizeof(*d));
			*d = hw->nvmes[j];
			memcpy(d->pci, r->pci, sizeof(d->pci));
			memcpy(d->endpoint, ep, sizeof(d->endpoint));
			d->loc = r->loc;
			return d;
		}
	return NULL;
}

/* The drive is already in the list: the same address, or a backing
 * address and its endpoint (SPDK would claim the device twice). DAOS
 * refuses a bdev_list with a duplicate (storage/config.go, "bdev_list:
 * duplicate PCI address"). */
static const pci_ref *listed_before(const engine_spec *e, size_t i, const nvme_desc *d)
{
	for (size_t j = 0; j < i; j++) {
		char ep[16] = "";
		topo_vmd_endpoint(e->drives[j].pci, ep);
		if (strcmp(e->drives[j].pci, d->pci) == 0 || (d->endpoint[0] && strcmp(e->drives[j].pci, d->endpoint) == 0) ||
		    (ep[0] && strcmp(ep, d->pci) == 0))
			return &e->drives[j];
	}
	return NULL;
}

static void explicit_nvmes(model *m, node_plan *p, engine_plan *ep)
{
	const hardware *hw = p->spec->hw;
	const engine_spec *e = ep->spec;
	ep->nvmes = arena_alloc(m->ar, (e->ndrives + 1) * sizeof(*ep->nvmes));
	for (size_t i = 0; i < e->ndrives; i++) {
		const nvme_desc *found = listed_drive(m, hw, &e->drives[i]);
		const pci_ref *twice = found ? listed_before(e, i, found) : NULL;
		if (twice) {
			bool same = strcmp(twice->pci, e->drives[i].pci) == 0;
			diag *d = diag_report(m->dc, R_DUPLICATE, e->drives[i].loc, same ? "NVMe %s is listed twice"
						   : "NVMe %s and %s are one drive behind VMD endpoint %s", e->drives[i].pci,
					      twice->pci, found->endpoint[0] ? found->endpoint : found->pci);
			diag_note_at(m->dc, d, twice->loc, "%s is listed here", twice->pci);
			diag_help(m->dc, d, "drop this %s: DAOS refuses a bdev_list that names a drive twice", e->drives[i].pci);
			/* the edit takes the blank before it too */
			const src_file *f = src_get(m->dc->src, e->drives[i].loc.file);
			src_loc at = e->drives[i].loc;
			while (f && at.start > 0 && (f->text[at.start - 1] == ' ' || f->text[at.start - 1] == '\t'))
				at.start--;
			diag_fix_edit(m->dc, d, at, "%s", "");
			p->ok = false;
			continue;
		}
		if (!found) {
			diag *d = diag_report(m->dc, R_NVME_UNKNOWN, e->drives[i].loc, "hardware %s has no NVMe drive %s",
					      hw->name, e->drives[i].pci);
			diag_help(m->dc, d, "name a drive of the hardware block, or drop the list to use the NUMA node's drives");
			p->ok = false;
			continue;
		}
		if (found->numa != ep->numa) {
			diag *d = diag_report(m->dc, R_NVME_NOT_LOCAL, e->drives[i].loc,
					      "NVMe %s is on NUMA node %d, but this engine runs on NUMA node %d",
					      found->pci, found->numa, ep->numa);
			diag_note_at(m->dc, d, found->loc, "%s is described here", found->pci);
			diag_help(m->dc, d, "give the engine drives of NUMA node %d, or drop the list to use them all",
				  ep->numa);
			p->ok = false;
		}
		if (storage_excluded(p->spec, found->endpoint[0] ? found->endpoint : found->pci)) {
			diag *d = diag_report(m->dc, R_NVME_UNKNOWN, e->drives[i].loc, "%s names NVMe %s, which %s excludes",
					      "this engine", found->pci, p->spec->origin);
			diag_help(m->dc, d, "drop %s from the engine's list, or stop excluding it", found->pci);
			p->ok = false;
			continue;
		}
		ep->nvmes[ep->nnvmes++] = found;
	}
}

static void pick_nvmes(model *m, node_plan *p, engine_plan *ep)
{
	const hardware *hw = p->spec->hw;
	if (ep->spec->ndrives) {
		explicit_nvmes(m, p, ep);
		return;
	}
	ep->nvmes = arena_alloc(m->ar, (hw->nnvmes + 1) * sizeof(*ep->nvmes));
	for (size_t i = 0; i < hw->nnvmes; i++)
		if (hw->nvmes[i].numa == ep->numa && !storage_excluded(p->spec, hw->nvmes[i].pci))
			ep->nvmes[ep->nnvmes++] = &hw->nvmes[i];
}

/* Where a tier's explicit address is among the engine's drives, or -1 with
 * the reason reported. */
static int tier_drive(model *m, node_plan *p, engine_plan *ep, const pci_ref *r)
{
	for (int i = 0; i < ep->nnvmes; i++)
		if (strcmp(ep->nvmes[i]->pci, r->pci) == 0)
			return i;
	const nvme_desc *hw = listed_drive(m, p->spec->hw, r);
	diag *d;
	if (!hw) {
		d = diag_report(m->dc, R_NVME_UNKNOWN, r->loc, "hardware %s has no NVMe drive %s", p->spec->hw->name, r->pci);
		diag_help(m->dc, d, "name one of the engine's drives: %s", ep->nnvmes ? ep->nvmes[0]->pci : "none");
	} else if (hw->numa != ep->numa) {
		d = diag_report(m->dc, R_NVME_NOT_LOCAL, r->loc, "NVMe %s is on NUMA node %d, but this engine runs on NUMA node %d",
				r->pci, hw->numa, ep->numa);
		diag_note_at(m->dc, d, hw->loc, "%s is described here", r->pci);
		diag_help(m->dc, d, "give the tier drives of NUMA node %d", ep->numa);
	} else {
		d = diag_report(m->dc, R_NVME_TIERS, r->loc, "NVMe %s is not one of this engine's drives%s", r->pci,
				storage_excluded(p->spec, r->pci) ? ": it is excluded" : "");
		diag_help(m->dc, d, "name one of the engine's drives in its tiers");
	}
	p->ok = false;
	return -1;
}

/* A tier's explicit addresses. owner[i]: the tier of drive i, or -1. */
static bool tier_take_listed(model *m, node_plan *p, engine_plan *ep, int t, int *owner)
{
	const tier_spec *ts = &ep->spec->tiers[t];
	for (size_t j = 0; j < ts->ndrives; j++) {
		int i = tier_drive(m, p, ep, &ts->drives[j]);
		if (i < 0)
			return false;
		if (owner[i] >= 0) {
			diag *d = diag_report(m->dc, R_NVME_TIERS, ts->drives[j].loc, "NVMe %s is in two tiers", ts->drives[j].pci);
			diag_note_at(m->dc, d, ep->spec->tiers[owner[i]].loc, "the other tier");
			diag_help(m->dc, d, "give each drive to one tier");
			p->ok = false;
			return false;
		}
		owner[i] = t;
	}
	return true;
}

/* The next `drives N` of the engine's drives no tier has taken; the rest
 * tier (want: every drive) takes what is left without complaint. */
static bool tier_take_count(model *m, node_plan *p, engine_plan *ep, int t, int *owner, int want, bool rest)
{
	int got = 0;
	for (int i = 0; i < ep->nnvmes && got < want; i++)
		if (owner[i] < 0) {
			owner[i] = t;
			got++;
		}
	if (got == want || rest)
		return true;
	const tier_spec *ts = &ep->spec->tiers[t];
	diag *d = diag_report(m->dc, R_NVME_TIERS, ts->count.loc, "the tier wants %d drives, but %d of the engine's %d are left",
			      want, got, ep->nnvmes);
	if (got) {
		diag_help(m->dc, d, "write `drives %d`, or give the engine more drives", got);
		diag_fix_edit(m->dc, d, ts->count.loc, "%d", got); /* (the count alone: its loc is the number) */
	}
	else
		diag_help(m->dc, d, "give the engine more drives, or fewer tiers");
	p->ok = false;
	return false;
}

/* The engine's drives in tiers: explicit addresses first, then `drives N`
 * in the order the engine lists its drives, then one tier with neither
 * takes the rest. A drive in no tier would be a drive DAOS never uses:
 * that is an error, not a silent drop. */
static void split_tiers(model *m, node_plan *p, engine_plan *ep)
{
	const engine_spec *e = ep->spec;
	ep->ntiers = 0;
	if (!ep->nnvmes)
		return;
	if (!e->tiers_split) {
		ep->tiers[0] = (tier_plan){0, ep->nnvmes, e->ntiers ? &e->tiers[0] : NULL};
		ep->ntiers = 1;
		return;
	}
	int *owner = arena_alloc(m->ar, (size_t)ep->nnvmes * sizeof(int));
	for (int i = 0; i < ep->nnvmes; i++)
		owner[i] = -1;
	const tier_spec *rest = NULL;
	for (int t = 0; t < e->ntiers; t++) {
		const tier_spec *ts = &e->tiers[t];
		if (ts->ndrives || ts->count.set)
			continue;
		if (rest) {
			diag *d = diag_report(m->dc, R_NVME_TIERS, ts->loc, "two tiers take the rest of the engine's drives");
			diag_note_at(m->dc, d, rest->loc, "the other tier");
			diag_help(m->dc, d, "give this tier `drives <n>` or its drives' addresses");
			p->ok = false;
			return;
		}
		rest = ts;
	}
	for (int t = 0; t < e->ntiers; t++)
		if (!tier_take_listed(m, p, ep, t, owner))
			return;
	for (int t = 0; t < e->ntiers; t++)
		if (e->tiers[t].count.set && !tier_take_count(m, p, ep, t, owner, (int)e->tiers[t].count.v, false))
			return;
	if (rest)
		tier_take_count(m, p, ep, (int)(rest - e->tiers), owner, ep->nnvmes, true);
	const nvme_desc **order = arena_alloc(m->ar, (size_t)ep->nnvmes * sizeof(*order));
	int n = 0;
	for (int t = 0; t < e->ntiers; t++) {
		int first = n;
		for (int i = 0; i < ep->nnvmes; i++)
			if (owner[i] == t)
				order[n++] = ep->nvmes[i];
		if (n == first) {
			diag *d = diag_report(m->dc, R_NVME_TIERS, e->tiers[t].loc, "this tier gets none of the engine's %d drives",
					      ep->nnvmes);
			diag_help(m->dc, d, "give the engine more drives, or fewer tiers");
			p->ok = false;
			return;
		}
		ep->tiers[t] = (tier_plan){first, n - first, &e->tiers[t]};
	}
	if (n < ep->nnvmes) {
		int i = 0;
		while (owner[i] >= 0)
			i++;
		diag *d = diag_report(m->dc, R_NVME_TIERS, e->tiers[e->ntiers - 1].loc,
				      "%d of the engine's %d drives %s in no tier (%s first): DAOS would never use %s",
				      ep->nnvmes - n, ep->nnvmes, ep->nnvmes - n == 1 ? "is" : "are", ep->nvmes[i]->pci,
				      ep->nnvmes - n == 1 ? "it" : "them");
		diag_help(m->dc, d, "let one tier take the rest (drop its `drives` count), or exclude the drives with "
			  "`exclude nvme`");
		p->ok = false;
		return;
	}
	ep->nvmes = order;
	ep->ntiers = e->ntiers;
}

void storage_check_excluded(model *m, const node_spec *s)
{
	const hardware *hw = s->hw;
	for (size_t i = 0; i < s->nexcluded; i++) {
		bool found = false;
		for (size_t j = 0; j < hw->nnvmes && !found; j++)
			found = strcmp(hw->nvmes[j].pci, s->excluded[i].pci) == 0;
		if (!found) {
			diag *d = diag_report(m->dc, R_NVME_UNKNOWN, s->excluded[i].loc,
					      "hardware %s has no NVMe drive %s", hw->name, s->excluded[i].pci);
			if (hw->nnvmes)
				diag_note_at(m->dc, d, hw->nvmes[0].loc, "the drives of %s are described here", hw->name);
			diag_help(m->dc, d, "exclude an address the hardware block lists");
		}
	}
}

void storage_drives(model *m, node_plan *p, engine_plan *ep)
{
	pick_nvmes(m, p, ep);
	split_tiers(m, p, ep);
}

/* nvme file: the engine's one bdev tier is emulated; it takes no drive,
 * and a pod would not see the files (nothing mounts them). */
void storage_files(model *m, node_plan *p, engine_plan *ep)
{
	const engine_spec *e = ep->spec;
	if (e->drives || e->ntiers) {
		diag *d = diag_report(m->dc, R_BAD_VALUE, e->files_loc, "an engine with emulated NVMe files and NVMe drives");
		diag_help(m->dc, d, "keep `nvme file ...` or the drives (`nvme ...` lines), not both");
		p->ok = false;
	}
	if (spec_in_pods(p->spec)) {
		diag *d = diag_report(m->dc, R_BAD_VALUE, e->files_loc, "emulated NVMe files with `deploy kubernetes`");
		diag_note_at(m->dc, d, p->spec->deploy.loc, "the engines run in pods here");
		diag_help(m->dc, d, "use real drives in pods (dslc does not mount the files into the daos-server pod)");
		p->ok = false;
	}
	ep->files = e->files;
	ep->nfiles = (int)e->nfiles;
	/* one file in two engines' bdev_list: DAOS refuses the config
	 * (FaultConfigOverlappingBdevDeviceList, src/control/server/config/
	 * server.go validateMultiEngineConfig); `engine per numa` gives every
	 * engine the same paths */
	for (int k = 0; k < ep->index; k++)
		for (int i = 0; i < p->engines[k].nfiles; i++)
			for (int j = 0; j < ep->nfiles; j++)
				if (strcmp(p->engines[k].files[i], ep->files[j]) == 0) {
					diag *d = diag_report(m->dc, R_BAD_VALUE, e->files_loc,
							      "the engines on NUMA nodes %d and %d both emulate NVMe on %s",
							      p->engines[k].numa, ep->numa, ep->files[j]);
					diag_note_at(m->dc, d, SRC_LOC_NONE, "DAOS refuses a bdev_list entry two engines share "
						     "(\"bdev_list entry ... overlaps\")");
					long long gib = (long long)(e->file_size.v / (int64_t)GiB);
					diag_help(m->dc, d, "give the engine on NUMA node %d its own file: write `engine numa %d { "
						  "nvme file \"%s.%d\" size %lldGiB }` after this engine's block", ep->numa,
						  ep->numa, ep->files[j], ep->numa, gib);
					/* after the block: `engine numa N` then declares that engine's own file
					 * (model: a later statement's tiers replace the ones it inherits) */
					src_loc after = e->loc;
					after.start = after.end;
					if (e->per_numa && e->file_size.v % (int64_t)GiB == 0)
						diag_fix_quoted(m->dc, d, after, arena_printf(m->ar, "  engine numa %d { nvme file ", ep->numa),
								arena_printf(m->ar, "%s.%d", ep->files[j], ep->numa),
								arena_printf(m->ar, " size %lldGiB }", gib));
					p->ok = false;
					return;
				}
}

/* "pmem0, pmem1" of the hardware, for a help line. */
static const char *pmem_names(arena *a, const hardware *hw)
{
	const char *list = "";
	for (size_t i = 0; i < hw->npmems; i++)
		list = arena_printf(a, "%s%s/dev/%s (NUMA node %d)", list, i ? ", " : "", hw->pmems[i].name, hw->pmems[i].numa);
	return list;
}

void storage_pmem(model *m, node_plan *p, engine_plan *ep)
{
	const engine_spec *e = ep->spec;
	const hardware *hw = p->spec->hw;
	diag *d;
	if (spec_in_pods(p->spec)) {
		d = diag_report(m->dc, R_SCM_PMEM, e->scm_class.loc, "PMem SCM with `deploy kubernetes`: dslc does not give the "
				"daos-server pod the PMem device yet");
		diag_help(m->dc, d, "deploy these nodes with systemd, or use `scm ram <size>` with MD-on-SSD");
		p->ok = false;
		return;
	}
	const pmem_desc *local = NULL;
	for (size_t i = 0; i < hw->npmems; i++) {
		bool named = e->scm_device.set && strcmp(hw->pmems[i].name, e->scm_device.v + 5) == 0;
		if (named || (!e->scm_device.set && !local && hw->pmems[i].numa == ep->numa))
			local = &hw->pmems[i];
	}
	if (e->scm_device.set && hw->npmems && !local) {
		d = diag_report(m->dc, R_SCM_PMEM, e->scm_device.loc, "hardware %s has no PMem namespace %s", hw->name,
				e->scm_device.v);
		diag_help(m->dc, d, "name one of %s", pmem_names(m->ar, hw));
		p->ok = false;
		return;
	}
	if (local && local->numa != ep->numa) {
		d = diag_report(m->dc, R_SCM_PMEM, e->scm_device.loc, "/dev/%s is on NUMA node %d, but this engine runs on NUMA node %d",
				local->name, local->numa, ep->numa);
		if (src_loc_valid(local->loc))
			diag_note_at(m->dc, d, local->loc, "%s is described here", local->name);
		diag_help(m->dc, d, "give the engine the namespace of its own NUMA node, or drop the device to let dslc pick it");
		p->ok = false;
		return;
	}
	if (!local && hw->npmems) {
		d = diag_report(m->dc, R_SCM_PMEM, e->scm_class.loc, "no PMem namespace on NUMA node %d (hardware %s has %s)",
				ep->numa, hw->name, pmem_names(m->ar, hw));
		diag_help(m->dc, d, "describe the namespace of NUMA node %d (`pmem pmemN` in its numa block), or name one with "
			  "`scm pmem /dev/pmemN`", ep->numa);
		p->ok = false;
		return;
	}
	if (local) {
		ep->scm_device = arena_printf(m->ar, "/dev/%s", local->name);
		return;
	}
	if (e->scm_device.set) {
		ep->scm_device = e->scm_device.v;
		return;
	}
	/* `daos_server scm prepare` makes one interleaved region and
	 * namespace per socket: /dev/pmem<socket> */
	const topology *t = p->topo;
	ep->scm_device = arena_printf(m->ar, "/dev/pmem%d", t->cores[t->numa[ep->numa].first_core].socket);
}

void storage_cross_engine(model *m, node_plan *p)
{
	for (int i = 0; i < p->nengines; i++) {
		const engine_plan *a = &p->engines[i];
		if (!a->placed || !a->scm_class)
			continue;
		for (int j = 0; j < i; j++) {
			const engine_plan *b = &p->engines[j];
			if (!b->placed || !b->scm_class)
				continue;
			diag *d;
			if (strcmp(a->scm_class, b->scm_class) != 0) {
				d = diag_report(m->dc, R_SCM_PMEM, a->spec->scm_class.loc, "the engine on NUMA node %d has %s SCM, the "
						"one on NUMA node %d %s: DAOS wants one SCM class on every engine (FaultConfigScmDiffClass)",
						a->numa, a->scm_class, b->numa, b->scm_class);
				diag_note_at(m->dc, d, b->spec->scm_class.loc, "the other engine's SCM");
				diag_help(m->dc, d, "give every engine of the node `scm %s`", strcmp(b->scm_class, "dcpm") == 0 ? "pmem" : "ram <size>");
				p->ok = false;
				return;
			}
			if (a->scm_device && b->scm_device && strcmp(a->scm_device, b->scm_device) == 0) {
				d = diag_report(m->dc, R_SCM_PMEM, a->spec->scm_device.set ? a->spec->scm_device.loc : a->spec->scm_class.loc,
						"the engines on NUMA nodes %d and %d both use %s: DAOS refuses a PMem device in two engines "
						"(scm_list must be unique)", b->numa, a->numa, a->scm_device);
				diag_help(m->dc, d, "with two engines per socket, create two namespaces per socket (`daos_server scm "
					  "prepare --scm-ns-per-socket 2`) and name each engine's with `scm pmem /dev/pmemN`");
				p->ok = false;
				return;
			}
		}
	}
}
