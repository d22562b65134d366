/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* show_svg.c - `dslc show FILE NODE --format svg`: the node as lstopo lays
 * it out (packages, their NUMA nodes, the cores in hwloc logical order, the
 * PCI devices under their NUMA node) with dslc's decisions on top: each
 * core coloured by what runs there, each engine a box tied to its NIC and
 * drives, the memory of each NUMA node as a bar, and the other nodes of
 * the hardware named where their plan differs. */
#include "show.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/base/svg.h"
#include "compiler/base/value.h"
#include "compiler/place/node_os.h"
#include "compiler/place/place.h"

enum {
	COLS = 10,      /* cores per row in a NUMA node */
	CELL_W = 34,
	CELL_H = 26,
	GAP = 2,
	PAD = 10,
	NUMA_W = COLS * (CELL_W + GAP) - GAP + 2 * PAD,
	ROW_H = 20,     /* a device */
	TEXT_MAX = 54,  /* bytes of a device's line before it is cut: 10px text in the row */
	MAX_LINES = 12, /* exceptions listed under the picture */
};

/* Each engine's colours: its system cores, targets, helpers, and what is
 * tied to it (its spare cores, NIC, drives). Engines past the fourth reuse
 * them; their label names them. */
static const char *const engine_fill[4][4] = {
	{"#0b3d91", "#3b7dd8", "#9cc3f0", "#dce9f9"},
	{"#1b5e20", "#43a047", "#a5d6a7", "#e3f2e4"},
	{"#4a148c", "#8e24aa", "#ce93d8", "#f3e5f5"},
	{"#7f2704", "#e6550d", "#fdae6b", "#feedde"},
};
#define FILL_OS "#8c8c8c"
#define FILL_PODS "#f2b233"
#define FILL_FREE "#ffffff"
#define FILL_UNUSED "#fde0dd"
#define FILL_OTHER_NIC "#eeeeee"
#define FILL_GPU "#76b900"
#define STROKE_ISOLATED "#d00000"
#define FILL_SCM "#6a51a3"
#define FILL_HUGE "#2b8cbe"
#define FILL_RESERVED "#636363"
#define FILL_LEFT "#e5e5e5"
#define FILL_OVER "#d00000"

typedef struct picture {
	buf b;
	arena *a;
	const model *m;
	const node *nd;
	const node_plan *p;
	const topology *t;
	bool kube;      /* the leftover cores are the kubelet's pods */
	bool *isolated; /* by core: a CPU of it is in the kernel's isolcpus */
} picture;

/* The role of the core at offset o of an engine's cores, as DAOS's legacy
 * allocator binds xstreams (src/engine/srv.c dss_start_xs_id: the system
 * and dRPC xstreams on the first core, SWIM on the second, xstream k + 1
 * on core k; dss_xstreams_init starts the targets' main xstreams, each
 * followed by its helpers, or all targets then all helpers when helpers
 * are not a multiple of targets, dss_helper_pool in src/engine/init.c). */
static int xstream_role(const engine_plan *ep, int o, int *which)
{
	*which = o;
	if (o < 2)
		return 0; /* system */
	if (o >= ep->needed)
		return 3; /* reserved beyond what DAOS uses */
	int k = o - 2, t = ep->targets, h = ep->helpers;
	if (t <= 0)
		return 2;
	if (h % t) {
		*which = k < t ? k : k - t;
		return k < t ? 1 : 2;
	}
	int per = h / t + 1;
	*which = k % per == 0 ? k / per : (k / per) * (per - 1) + k % per - 1;
	return k % per == 0 ? 1 : 2;
}

static const char *const role_name[] = {"system", "target", "helper", "spare"};

static const engine_plan *engine_at(const node_plan *p, int core)
{
	for (int i = 0; i < p->nengines; i++) {
		const engine_plan *ep = &p->engines[i];
		if (ep->placed && core >= ep->first_core && core < ep->first_core + ep->ncores)
			return ep;
	}
	return NULL;
}

static const char *pus_of(arena *a, const topo_core *c)
{
	const char *s = "";
	for (int i = 0; i < c->npus; i++)
		s = arena_printf(a, "%s%s%d", s, i ? "," : "", c->pus[i]);
	return s;
}

static void draw_core(picture *pc, int c, double x, double y)
{
	const node_plan *p = pc->p;
	const topo_core *tc = &pc->t->cores[c];
	int n = tc->numa;
	const char *cls, *fill, *what;
	const engine_plan *ep = engine_at(p, c);
	if (n >= 0 && n < MODEL_MAX_NUMA && c >= p->os_first[n] && c < p->os_first[n] + p->os_count[n]) {
		cls = "core os", fill = FILL_OS, what = "the OS and housekeeping";
	} else if (ep) {
		int which, r = xstream_role(ep, c - ep->first_core, &which);
		cls = arena_printf(pc->a, "core engine%d %s", ep->index, role_name[r]);
		fill = engine_fill[ep->index % 4][r];
		/* pinned mode: the dRPC xstream takes the SWIM xstream's core, which
		 * it does not clear (dss_start_xs_id's NUMA branch) */
		const char *sys = c == ep->first_core ? (p->pinned_mode ? "system xstream" : "system and dRPC xstreams")
						      : (p->pinned_mode ? "SWIM and dRPC xstreams" : "SWIM xstream");
		what = r == 0 ? arena_printf(pc->a, "engine %d: %s", ep->index, sys)
		     : r == 3 ? arena_printf(pc->a, "engine %d: reserved (cores %d, DAOS uses %d)", ep->index, ep->ncores, ep->needed)
			      : arena_printf(pc->a, "engine %d: %s %d", ep->index, role_name[r], which);
	} else if (pc->kube) {
		cls = "core pods", fill = FILL_PODS, what = "Kubernetes pods";
	} else {
		cls = "core free", fill = FILL_FREE, what = "free (dslc places nothing here)";
	}
	bool iso = pc->isolated && pc->isolated[c];
	const char *tip = arena_printf(pc->a, "core %d (CPUs %s): %s%s", c, pus_of(pc->a, tc), what,
				       iso ? "; isolated (isolcpus, nohz_full, rcu_nocbs)" : "");
	svg_rect(&pc->b, x, y, CELL_W, CELL_H, fill, iso ? STROKE_ISOLATED : "#555555", cls, tip);
	if (iso) /* a second, inner outline: isolation reads at any zoom */
		svg_rect(&pc->b, x + 2, y + 2, CELL_W - 4, CELL_H - 4, NULL, STROKE_ISOLATED, "isolated", NULL);
	bool dark = strcmp(fill, FILL_OS) == 0 || (ep && strcmp(fill, engine_fill[ep->index % 4][0]) == 0) ||
		    (ep && strcmp(fill, engine_fill[ep->index % 4][1]) == 0);
	svg_text(&pc->b, x + CELL_W / 2.0, y + 11, 10, "middle", false, dark ? "#ffffff" : "#000000",
		 arena_printf(pc->a, "%d", c), 0);
}

/* ---- memory ------------------------------------------------------------------ */

static const char *gib(arena *a, uint64_t bytes)
{
	if (bytes % GiB == 0 || bytes >= 100 * GiB)
		return arena_printf(a, "%llu GiB", (unsigned long long)((bytes + GiB / 2) / GiB));
	return arena_printf(a, "%.1f GiB", (double)bytes / (double)GiB);
}

/* The number alone, for a list that ends in the unit. */
static const char *gib_short(arena *a, uint64_t bytes)
{
	const char *s = gib(a, bytes);
	return arena_strndup(a, s, strlen(s) - 4);
}

static void draw_memory(picture *pc, int n, double x, double y, double w)
{
	numa_need need = place_numa_need(pc->m, pc->p, n);
	uint64_t total = pc->t->numa[n].memory;
	if (!total) {
		svg_text(&pc->b, x, y + 12, 11, "start", false, "#000000", "memory: not known (no size described)", 0);
		return;
	}
	struct {
		const char *cls, *fill, *what;
		uint64_t bytes;
	} seg[] = {
		{"mem scm", FILL_SCM, "SCM (RAM-backed)", need.scm},
		{"mem hugepages", FILL_HUGE, "hugepages", need.hugepages},
		{"mem reserved", FILL_RESERVED, "reserved (system_ram_reserved share and the engine's own)",
		 need.reserved + need.engine_reserve},
		{"mem left", FILL_LEFT, "left", need.total < total ? total - need.total : 0},
	};
	uint64_t scale = need.total > total ? need.total : total;
	double at = x;
	for (size_t i = 0; i < sizeof seg / sizeof seg[0]; i++) {
		if (!seg[i].bytes)
			continue;
		double sw = w * (double)seg[i].bytes / (double)scale;
		if (sw < 2)
			sw = 2;
		svg_rect(&pc->b, at, y, sw, 14, seg[i].fill, NULL, seg[i].cls,
			 arena_printf(pc->a, "%s: %s of %s", seg[i].what, gib(pc->a, seg[i].bytes), gib(pc->a, total)));
		at += sw;
	}
	if (need.total > total) /* the part beyond the node's memory, marked */
		svg_rect(&pc->b, x + w * (double)total / (double)scale, y - 2, w - w * (double)total / (double)scale, 18, NULL,
			 FILL_OVER, "mem over", arena_printf(pc->a, "over by %s", gib(pc->a, need.total - total)));
	const char *line = arena_printf(pc->a, "%s: SCM %s, hugepages %s, reserved %s, %s %s", gib(pc->a, total),
					gib_short(pc->a, need.scm), gib_short(pc->a, need.hugepages),
					gib_short(pc->a, need.reserved + need.engine_reserve), need.total > total ? "over by" : "left",
					gib(pc->a, need.total > total ? need.total - total : total - need.total));
	svg_text(&pc->b, x, y + 28, 11, "start", false, need.total > total ? FILL_OVER : "#000000", line, 0);
}

/* ---- devices ---------------------------------------------------------------- */

typedef struct device_row {
	const char *cls, *fill, *text, *tip;
	int engine; /* tied to engine (index), or -1 */
} device_row;

/* The engine whose drive list holds d, and where in it. */
static const engine_plan *drive_owner(const node_plan *p, const nvme_desc *d, int *at)
{
	for (int i = 0; i < p->nengines; i++)
		for (int k = 0; k < p->engines[i].nnvmes; k++)
			if (p->engines[i].nvmes[k] == d) {
				*at = k;
				return &p->engines[i];
			}
	return NULL;
}

static const char *tier_words(arena *a, const engine_plan *ep, int at)
{
	for (int t = 0; ep->spec->tiers_split && t < ep->ntiers; t++) {
		const tier_plan *tp = &ep->tiers[t];
		if (at < tp->first || at >= tp->first + tp->n || !tp->spec)
			continue;
		const char *roles = "";
		for (int r = 0; r < tp->spec->nroles; r++)
			roles = arena_printf(a, "%s%s%s", roles, r ? "," : "", tp->spec->roles[r]);
		return arena_printf(a, ", tier %d%s%s%s", t + 1, *roles ? " [" : "", roles, *roles ? "]" : "");
	}
	return "";
}

/* GPUs local to NUMA node n: the export's count, else `gpus N` in its numa block. */
static int numa_gpus(const picture *pc, int n)
{
	const hardware *hw = pc->nd->spec->hw;
	return pc->t->numa[n].gpus ? pc->t->numa[n].gpus : hw->numa_gpus[n].set ? (int)hw->numa_gpus[n].v : 0;
}

static size_t device_rows(picture *pc, int n, device_row *rows)
{
	const node_plan *p = pc->p;
	const hardware *hw = pc->nd->spec->hw;
	arena *a = pc->a;
	size_t k = 0;
	for (size_t i = 0; i < hw->nnics; i++) {
		const nic_desc *nic = &hw->nics[i];
		if (nic->numa != n)
			continue;
		const engine_plan *ep = NULL;
		for (int e = 0; e < p->nengines; e++)
			if (p->engines[e].nic == nic)
				ep = &p->engines[e];
		bool agent = false;
		for (int e = 0; p->client && e < p->nclient_nics; e++)
			agent |= p->client_nics[e] == nic;
		const char *what = ep ? arena_printf(a, "fabric_iface of engine %d", ep->index)
				 : agent ? "daos_agent's fabric_iface" : arena_printf(a, "%s, not DAOS's", nic->role);
		rows[k++] = (device_row){ep ? "nic engine" : agent ? "nic agent" : "nic other",
					 ep ? engine_fill[ep->index % 4][3] : agent ? "#fff3cd" : FILL_OTHER_NIC,
					 arena_printf(a, "NIC %s %s: %s", nic->name, nic->pci, what),
					 arena_printf(a, "NIC %s at %s, role %s%s%s%s%s", nic->name, nic->pci, nic->role,
						      nic->rdma ? ", RDMA device " : "", nic->rdma ? nic->rdma : "",
						      ep && ep->nic_why ? "; chosen: " : "", ep && ep->nic_why ? ep->nic_why : ""),
					 ep ? ep->index : -1};
	}
	for (size_t i = 0; i < hw->nnvmes; i++) {
		const nvme_desc *d = &hw->nvmes[i];
		if (d->numa != n)
			continue;
		int at = 0;
		const engine_plan *ep = drive_owner(p, d, &at);
		const char *what = ep ? arena_printf(a, "engine %d%s", ep->index, tier_words(a, ep, at)) : "not used";
		rows[k++] = (device_row){ep ? "drive engine" : "drive unused", ep ? engine_fill[ep->index % 4][3] : FILL_UNUSED,
					 arena_printf(a, "NVMe %s: %s", d->pci, what),
					 arena_printf(a, "NVMe drive %s%s%s: %s", d->pci, *d->endpoint ? " behind VMD endpoint " : "",
						      d->endpoint, ep ? what : "in no engine's bdev_list"),
					 ep ? ep->index : -1};
	}
	for (int e = 0; e < p->nengines; e++) {
		const engine_plan *ep = &p->engines[e];
		if (ep->numa == n && ep->scm_device)
			rows[k++] = (device_row){"pmem engine", engine_fill[ep->index % 4][3],
						 arena_printf(a, "PMem %s: SCM of engine %d at %s", ep->scm_device, ep->index,
							      ep->scm_mount),
						 arena_printf(a, "PMem namespace %s, class dcpm, mounted at %s", ep->scm_device,
							      ep->scm_mount),
						 ep->index};
	}
	int gpus = numa_gpus(pc, n);
	if (gpus > 0)
		rows[k++] = (device_row){"gpu", FILL_GPU, arena_printf(a, "GPU x %d", gpus),
					 arena_printf(a, "%d GPUs local to NUMA node %d", gpus, n), -1};
	return k;
}

static size_t device_count(const picture *pc, int n)
{
	const hardware *hw = pc->nd->spec->hw;
	size_t k = numa_gpus(pc, n) > 0; /* the GPUs' row */
	for (size_t i = 0; i < hw->nnics; i++)
		k += hw->nics[i].numa == n;
	for (size_t i = 0; i < hw->nnvmes; i++)
		k += hw->nvmes[i].numa == n;
	for (int e = 0; e < pc->p->nengines; e++)
		k += pc->p->engines[e].numa == n && pc->p->engines[e].scm_device;
	return k;
}

/* ---- one NUMA node ------------------------------------------------------------ */

static int core_rows(const topo_numa *tn)
{
	return (tn->ncores + COLS - 1) / COLS;
}

static int engines_on(const node_plan *p, int n)
{
	int k = 0;
	for (int i = 0; i < p->nengines; i++)
		k += p->engines[i].numa == n && p->engines[i].placed;
	return k;
}

static double numa_height(const picture *pc, int n, size_t ndev)
{
	return 22 + 36 + core_rows(&pc->t->numa[n]) * (CELL_H + GAP) + 8 + engines_on(pc->p, n) * 26 + (double)ndev * ROW_H +
	       24 + PAD;
}

static void draw_numa(picture *pc, int n, double x, double y, double h)
{
	const topology *t = pc->t;
	const topo_numa *tn = &t->numa[n];
	arena *a = pc->a;
	svg_group(&pc->b, "numa", arena_printf(a, "NUMA node %d (os index %d)", n, tn->os_index));
	svg_rect(&pc->b, x, y, NUMA_W, h, "#fafaf2", "#7a7a52", "numa-box", NULL);
	svg_text(&pc->b, x + PAD, y + 16, 12, "start", true, "#000000",
		 tn->ncores ? arena_printf(a, "NUMA node %d (os index %d), cores %d-%d", n, tn->os_index, tn->first_core,
					   tn->first_core + tn->ncores - 1)
			    : arena_printf(a, "NUMA node %d (os index %d), memory only", n, tn->os_index),
		 0);
	double cy = y + 24;
	draw_memory(pc, n, x + PAD, cy, NUMA_W - 2 * PAD);
	cy += 36;
	for (int k = 0; k < tn->ncores; k++)
		draw_core(pc, tn->first_core + k, x + PAD + (k % COLS) * (CELL_W + GAP), cy + (k / COLS) * (CELL_H + GAP));
	cy += core_rows(tn) * (CELL_H + GAP) + 8;
	/* each engine: a box, and a bar in its colour down the left edge to
	 * its NIC and drives */
	device_row *rows = arena_alloc(a, device_count(pc, n) * sizeof(*rows));
	size_t nrows = device_rows(pc, n, rows);
	double ey[MODEL_MAX_NUMA] = {0};
	int eidx[MODEL_MAX_NUMA], ne = 0;
	for (int i = 0; i < pc->p->nengines; i++) {
		const engine_plan *ep = &pc->p->engines[i];
		if (ep->numa != n || !ep->placed)
			continue;
		const char *const *f = engine_fill[ep->index % 4];
		const char *label = arena_printf(a, "engine %d: cores %d-%d, %d targets, %d helpers", ep->index, ep->first_core,
						 ep->first_core + ep->ncores - 1, ep->targets, ep->helpers);
		svg_rect(&pc->b, x + PAD, cy, NUMA_W - 2 * PAD, 22, f[0], NULL, arena_printf(a, "engine engine%d", ep->index),
			 arena_printf(a, "%s; %s %d", label, pc->p->pinned_mode ? "pinned_numa_node" : "first_core",
				      pc->p->pinned_mode ? tn->os_index : ep->first_core));
		svg_text(&pc->b, x + PAD + 6, cy + 15, 11, "start", true, "#ffffff", label, TEXT_MAX);
		eidx[ne] = ep->index;
		ey[ne++] = cy + 22;
		cy += 26;
	}
	for (size_t r = 0; r < nrows; r++) {
		double ry = cy + (double)r * ROW_H;
		svg_rect(&pc->b, x + PAD + 12, ry, NUMA_W - 2 * PAD - 12, ROW_H - 3, rows[r].fill, "#888888", rows[r].cls, rows[r].tip);
		svg_text(&pc->b, x + PAD + 16, ry + 12, 10, "start", false, strcmp(rows[r].fill, FILL_GPU) == 0 ? "#ffffff" : "#000000",
			 rows[r].text, TEXT_MAX);
		for (int e = 0; e < ne; e++)
			if (rows[r].engine == eidx[e]) { /* tie: from the engine's box to this row */
				const char *c = engine_fill[eidx[e] % 4][0];
				double lx = x + PAD + 4 + e * 3;
				svg_line(&pc->b, lx, ey[e], lx, ry + (ROW_H - 3) / 2.0, c, 2, false);
				svg_line(&pc->b, lx, ry + (ROW_H - 3) / 2.0, x + PAD + 12, ry + (ROW_H - 3) / 2.0, c, 2, false);
			}
	}
	cy += (double)nrows * ROW_H + 6;
	int left = 0;
	for (int c = tn->first_core; c < tn->first_core + tn->ncores; c++)
		left += !engine_at(pc->p, c) && !(c >= pc->p->os_first[n] && c < pc->p->os_first[n] + pc->p->os_count[n]);
	svg_text(&pc->b, x + PAD, cy + 10, 10, "start", false, "#333333",
		 tn->ncores ? arena_printf(a, "%d OS core%s, %d %s", pc->p->os_count[n], pc->p->os_count[n] == 1 ? "" : "s", left,
					   pc->kube ? "cores for Kubernetes pods" : "cores free")
			    : "no cores (a GPU's or HBM's memory, or CXL)",
		 0);
	svg_group_end(&pc->b);
}

/* ---- the nodes of the same hardware ------------------------------------------------ */

/* In words, how plan b differs from plan a (this picture's), "" when in
 * nothing the picture shows. */
static const char *plan_difference(arena *ar, const node_plan *a, const node_plan *b)
{
	const char *s = "";
	int shown = 0;
#define SAY(...)                                                                                       \
	do {                                                                                           \
		if (shown++ < 3)                                                                       \
			s = arena_printf(ar, "%s%s%s", s, *s ? "; " : "", arena_printf(ar, __VA_ARGS__)); \
	} while (0)
	if (b->client && !a->client)
		return "DAOS client only (no engines)";
	if (a->nengines != b->nengines)
		SAY("%d engines (here %d)", b->nengines, a->nengines);
	for (int n = 0; n < a->topo->nnuma && n < b->topo->nnuma && n < MODEL_MAX_NUMA; n++)
		if (a->os_first[n] != b->os_first[n] || a->os_count[n] != b->os_count[n])
			SAY("NUMA node %d: %d OS cores from %d (here %d from %d)", n, b->os_count[n], b->os_first[n], a->os_count[n],
			    a->os_first[n]);
	for (int i = 0; i < a->nengines && i < b->nengines; i++) {
		const engine_plan *x = &a->engines[i], *y = &b->engines[i];
		if (x->first_core != y->first_core || x->ncores != y->ncores)
			SAY("engine %d on cores %d-%d (here %d-%d)", i, y->first_core, y->first_core + y->ncores - 1, x->first_core,
			    x->first_core + x->ncores - 1);
		if (x->targets != y->targets || x->helpers != y->helpers)
			SAY("engine %d: %d targets, %d helpers (here %d, %d)", i, y->targets, y->helpers, x->targets, x->helpers);
		if ((x->nic == NULL) != (y->nic == NULL) || (x->nic && strcmp(x->nic->name, y->nic->name) != 0))
			SAY("engine %d on NIC %s (here %s)", i, y->nic ? y->nic->name : "none", x->nic ? x->nic->name : "none");
		for (int k = 0; k < x->nnvmes; k++) {
			bool in = false;
			for (int j = 0; j < y->nnvmes; j++)
				in |= strcmp(x->nvmes[k]->pci, y->nvmes[j]->pci) == 0;
			if (!in)
				SAY("engine %d does not use %s", i, x->nvmes[k]->pci);
		}
		for (int j = 0; j < y->nnvmes; j++) {
			bool in = false;
			for (int k = 0; k < x->nnvmes; k++)
				in |= strcmp(x->nvmes[k]->pci, y->nvmes[j]->pci) == 0;
			if (!in)
				SAY("engine %d also uses %s", i, y->nvmes[j]->pci);
		}
		if (x->scm_bytes != y->scm_bytes)
			SAY("engine %d: SCM %s (here %s)", i, gib(ar, y->scm_bytes), gib(ar, x->scm_bytes));
	}
	if (a->hugepage_bytes != b->hugepage_bytes)
		SAY("hugepages %s (here %s)", gib(ar, b->hugepage_bytes), gib(ar, a->hugepage_bytes));
	if (shown > 3)
		s = arena_printf(ar, "%s; %d more", s, shown - 3);
#undef SAY
	return s;
}

/* Lines under the picture: the nodes that share this plan, and each other
 * plan of the same hardware with how it differs. */
static size_t fleet_lines(picture *pc, const char **lines)
{
	const model *m = pc->m;
	const node_spec *mine = pc->nd->spec;
	size_t nl = 0, ngroups = 0, more = 0;
	const node_spec **specs = arena_alloc(pc->a, (m->nnodes + 1) * sizeof(*specs));
	const char ***hosts = arena_alloc(pc->a, (m->nnodes + 1) * sizeof(*hosts));
	size_t *nhosts = arena_alloc(pc->a, (m->nnodes + 1) * sizeof(*nhosts));
	for (size_t i = 0; i < m->nnodes; i++) {
		const node_spec *s = m->nodes[i].spec;
		if (!s || s->hw != mine->hw)
			continue;
		size_t g = 0;
		while (g < ngroups && specs[g] != s)
			g++;
		if (g == ngroups) {
			specs[ngroups] = s;
			hosts[ngroups] = arena_alloc(pc->a, m->nnodes * sizeof(char *));
			nhosts[ngroups++] = 0;
		}
		hosts[g][nhosts[g]++] = m->nodes[i].host;
	}
	for (size_t g = 0; g < ngroups; g++) /* this plan's nodes first */
		if (specs[g] == mine)
			lines[nl++] = arena_printf(pc->a, "This plan: %s (%zu node%s of hardware %s, %s)",
						   hostlist_compress(pc->a, hosts[g], nhosts[g]), nhosts[g], nhosts[g] == 1 ? "" : "s",
						   mine->hw->name, mine->origin);
	for (size_t g = 0; g < ngroups; g++) {
		if (specs[g] == mine)
			continue;
		const char *list = hostlist_compress(pc->a, hosts[g], nhosts[g]);
		const node_plan *other = specs[g]->plan;
		if (nl >= MAX_LINES - 1) {
			more++;
			continue;
		}
		const char *diff = other && other->ok ? plan_difference(pc->a, pc->p, other) : "no plan (errors)";
		lines[nl++] = arena_printf(pc->a, "Except %s (%s): %s", list, specs[g]->origin,
					   *diff ? diff : "the same placement (other settings differ)");
	}
	if (more)
		lines[nl++] = arena_printf(pc->a, "... and %zu more plans of hardware %s (dslc show each node)", more, mine->hw->name);
	return nl;
}

/* ---- the legend ------------------------------------------------------------------ */

static double draw_legend(picture *pc, double x, double y, double width)
{
	typedef struct {
		const char *fill, *stroke, *label;
	} key;
	key keys[24];
	size_t nk = 0;
	keys[nk++] = (key){FILL_OS, NULL, "OS, housekeeping"};
	for (int i = 0; i < pc->p->nengines && i < 4; i++) {
		keys[nk++] = (key){engine_fill[i][0], NULL, arena_printf(pc->a, "engine %d system", i)};
		keys[nk++] = (key){engine_fill[i][1], NULL, arena_printf(pc->a, "engine %d targets", i)};
		keys[nk++] = (key){engine_fill[i][2], NULL, arena_printf(pc->a, "engine %d helpers", i)};
	}
	keys[nk++] = pc->kube ? (key){FILL_PODS, NULL, "Kubernetes pods"} : (key){FILL_FREE, NULL, "free"};
	if (pc->isolated)
		keys[nk++] = (key){FILL_FREE, STROKE_ISOLATED, "isolated (isolcpus)"};
	keys[nk++] = (key){FILL_UNUSED, NULL, "drive not used"};
	keys[nk++] = (key){FILL_SCM, NULL, "memory: SCM"};
	keys[nk++] = (key){FILL_HUGE, NULL, "hugepages"};
	keys[nk++] = (key){FILL_RESERVED, NULL, "reserved"};
	keys[nk++] = (key){FILL_LEFT, NULL, "left"};
	double cx = x, cy = y;
	svg_group(&pc->b, "legend", "Legend");
	for (size_t i = 0; i < nk; i++) {
		double w = 22 + 6.5 * (double)strlen(keys[i].label) + 14;
		if (cx + w > x + width) {
			cx = x;
			cy += 20;
		}
		svg_rect(&pc->b, cx, cy, 16, 14, keys[i].fill, keys[i].stroke ? keys[i].stroke : "#555555", "key", NULL);
		svg_text(&pc->b, cx + 22, cy + 11, 11, "start", false, "#000000", keys[i].label, 0);
		cx += w;
	}
	svg_group_end(&pc->b);
	return cy + 20 - y;
}

/* ---- the picture ---------------------------------------------------------------- */

/* Cores with a CPU in the kernel plan's isolcpus list (flags such as
 * "domain," or "managed_irq," skipped); NULL when nothing is isolated. */
static bool *isolated_cores(const model *m, const node_spec *s, const topology *t)
{
	const kernel_plan *k = node_kernel_plan(m, s);
	const env_entry *e = k ? env_find(&k->params, "isolcpus") : NULL;
	if (!e || !e->value || !*e->value)
		return NULL;
	bool *iso = arena_alloc(m->ar, (size_t)t->ncores * sizeof(bool));
	bool any = false;
	for (const char *p = e->value; *p;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p) { /* a flag word */
			p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p);
			continue;
		}
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (int c = 0; c < t->ncores; c++)
			for (int j = 0; j < t->cores[c].npus; j++)
				if (t->cores[c].pus[j] >= lo && t->cores[c].pus[j] <= hi)
					iso[c] = any = true;
		p = *end == ',' ? end + 1 : end + strlen(end);
	}
	return any ? iso : NULL;
}

int show_node_svg(const model *m, const node *nd, FILE *out)
{
	picture pc = {.a = m->ar, .m = m, .nd = nd, .p = nd->spec->plan, .t = nd->spec->plan->topo};
	pc.kube = show_runs_kubelet(nd->spec);
	pc.isolated = isolated_cores(m, nd->spec, pc.t);
	const topology *t = pc.t;
	/* packages as lstopo draws them, side by side, each with its NUMA
	 * nodes side by side; a NUMA node without cores joins package 0 */
	int sockets = t->nsockets > 0 ? t->nsockets : 1;
	double pkg_h = 0, width = 0;
	double *nh = arena_alloc(m->ar, (size_t)t->nnuma * sizeof(double));
	for (int n = 0; n < t->nnuma; n++) {
		nh[n] = numa_height(&pc, n, device_count(&pc, n));
		pkg_h = nh[n] > pkg_h ? nh[n] : pkg_h;
	}
	int *pkg_of = arena_alloc(m->ar, (size_t)t->nnuma * sizeof(int));
	int *in_pkg = arena_alloc(m->ar, (size_t)sockets * sizeof(int));
	for (int n = 0; n < t->nnuma; n++) {
		int s = t->numa[n].ncores ? t->cores[t->numa[n].first_core].socket : 0;
		pkg_of[n] = s >= 0 && s < sockets ? s : 0;
		in_pkg[pkg_of[n]]++;
	}
	for (int s = 0; s < sockets; s++)
		if (in_pkg[s])
			width += in_pkg[s] * (NUMA_W + PAD) + PAD + 20;
	width += 20;
	if (width < 760)
		width = 760;
	const char *fleet[MAX_LINES + 1], *lines[3 * (MAX_LINES + 1)];
	size_t nfleet = fleet_lines(&pc, fleet), nlines = 0;
	size_t wrap = (size_t)((width - 40) / 6.6); /* bytes of 11px text per line */
	for (size_t i = 0; i < nfleet; i++)
		nlines += svg_wrap(m->ar, fleet[i], wrap, lines + nlines, 3);
	const char *title = arena_printf(m->ar, "%s: placement by dslc (hardware %s, %s)", nd->host, nd->spec->hw->name,
					 nd->spec->origin);
	const char *desc = arena_printf(
		m->ar, "%d cores in %d NUMA nodes. Each core is coloured by what runs there: the OS, an engine's system "
		       "xstreams, targets and helpers, %s. Each engine's box is tied to its NIC and drives. DAOS is told %s.",
		t->ncores, t->nnuma, pc.kube ? "Kubernetes pods" : "or nothing (free)",
		pc.p->pinned_mode ? "pinned_numa_node" : "first_core (absolute hwloc logical core indexes)");
	/* the legend's height depends on the width: measured in a scratch buffer */
	buf scratch = pc.b;
	buf_init(&pc.b);
	double legend_h = draw_legend(&pc, 20, 0, width - 40);
	buf_free(&pc.b);
	pc.b = scratch;
	double top = 56 + legend_h + 10;
	double height = top + pkg_h + 2 * PAD + 30 + 10 + (double)(nlines + 2) * 16 + 10;
	buf_init(&pc.b);
	svg_begin(&pc.b, (int)width, (int)height, title, desc);
	svg_text(&pc.b, 20, 24, 16, "start", true, "#000000", title, 0);
	svg_text(&pc.b, 20, 42, 11, "start", false, "#333333",
		 arena_printf(m->ar, "%d cores in %d NUMA nodes; DAOS is told %s%s", t->ncores, t->nnuma,
			      pc.p->client ? "nothing (client only)" : pc.p->pinned_mode ? "pinned_numa_node" : "first_core",
			      pc.p->nr_hugepages ? arena_printf(m->ar, "; %lld hugepages of %llu MiB", (long long)pc.p->nr_hugepages,
							      (unsigned long long)(pc.p->hugepage_size / MiB))
						 : ""),
		 0);
	draw_legend(&pc, 20, 56, width - 40);
	double x = 20;
	for (int s = 0; s < sockets; s++) {
		if (!in_pkg[s])
			continue;
		double pw = in_pkg[s] * (NUMA_W + PAD) + PAD;
		svg_group(&pc.b, "package", arena_printf(m->ar, "Package %d", s));
		svg_rect(&pc.b, x, top, pw, pkg_h + 2 * PAD + 20, "#f0f0f0", "#666666", "package-box", NULL);
		svg_text(&pc.b, x + PAD, top + 15, 12, "start", true, "#000000", arena_printf(m->ar, "Package %d", s), 0);
		double nx = x + PAD;
		for (int n = 0; n < t->nnuma; n++)
			if (pkg_of[n] == s) {
				draw_numa(&pc, n, nx, top + 22, pkg_h);
				nx += NUMA_W + PAD;
			}
		svg_group_end(&pc.b);
		x += pw + 20;
	}
	double ly = top + pkg_h + 2 * PAD + 20 + 24;
	for (size_t i = 0; i < nlines; i++)
		svg_text(&pc.b, 20, ly + (double)i * 16, 11, "start", false, "#000000", lines[i], wrap);
	svg_end(&pc.b);
	int rc = fwrite(pc.b.data, 1, pc.b.len, out) == pc.b.len ? 0 : 2;
	buf_free(&pc.b);
	return rc;
}
