/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rollout_svg.c - the rollout's waves as a picture: one column per wave in
 * the order the script runs them, each the nodes it stops (each node its own
 * fault domain at rd_lvl node, the level dslc's waves count), coloured by
 * the wave's most disruptive class, the access points and the clients'
 * wave marked, and the reason for each wave's size on the side. Runs of
 * alike waves are one column, so 16,384 nodes stay a picture of a few
 * dozen columns. */
#include "rollout.h"

#include <string.h>

#include "compiler/base/svg.h"
#include "compiler/base/value.h"
#include "compiler/tree/disruption.h"

enum {
	COL_W = 150,
	COL_GAP = 12,
	NODE_H = 18,
	MAX_COLUMNS = 30, /* columns drawn; beyond, one that says how many are left out */
	MAX_BOXES = 16,   /* nodes drawn in a column; the rest one box */
	SIDE_W = 420,     /* the reasons */
};

/* A class's colour by its rank in the disruption table (schemas/
 * disruption.def): the higher the rank, the hotter. */
static const char *const rank_fill[] = {
	"#d9d9d9", /* 0 none */
	"#c6dbef", /* 1 live, pools */
	"#9ecae1", /* 2 remount, agent */
	"#6baed6", /* 3 network-reload */
	"#c7e9c0", /* 4 node-added, client-removed */
	"#fdd835", /* 5 engine-restart */
	"#ffb74d", /* 6 kubelet-drain */
	"#fb8c00", /* 7 reboot */
	"#e65100", /* 8 bios-apply+reboot */
	"#8e24aa", /* 9 system-restart */
	"#c62828", /* 10 reformat, scm-lost, node-removed */
	"#6d0000", /* 11 pool- and container-immutable */
};
enum { NRANKS = sizeof rank_fill / sizeof rank_fill[0] };

static int top_class(unsigned classes)
{
	int top = -1;
	for (int c = 0; c < DC__COUNT; c++)
		if ((classes >> c) & 1 && (top < 0 || disruption_classes[c].rank >= disruption_classes[top].rank))
			top = c;
	return top;
}

static const char *class_fill(int c)
{
	int r = c < 0 ? 0 : disruption_classes[c].rank;
	return rank_fill[r >= 0 && r < NRANKS ? r : NRANKS - 1];
}

static bool dark_fill(int c)
{
	return c >= 0 && disruption_classes[c].rank >= 8;
}

static bool is_ap(const model *m, const char *host)
{
	for (size_t i = 0; m && i < m->cluster.naps; i++)
		if (strcmp(m->cluster.aps[i].host, host) == 0)
			return true;
	return false;
}

/* Waves that draw alike: the same classes, marks, size and reason. */
static bool alike(arena *a, const plan_waves *w, size_t i, size_t j)
{
	const plan_wave *x = &w->v[i], *y = &w->v[j];
	return x->classes == y->classes && x->nhosts == y->nhosts && x->clients == y->clients && x->after == y->after &&
	       x->access_points == y->access_points && x->drain == y->drain && x->format == y->format &&
	       strcmp(rollout_reason(a, w, x), rollout_reason(a, w, y)) == 0;
}

typedef struct column {
	size_t first, n; /* waves [first, first + n) */
} column;

/* The reasons, numbered in order of first use. */
typedef struct reasons {
	const char *text[MAX_COLUMNS + 2];
	size_t n;
} reasons;

static size_t reason_number(reasons *r, const char *why)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->text[i], why) == 0)
			return i + 1;
	r->text[r->n++] = why;
	return r->n;
}

static void draw_column(buf *b, arena *a, const model *m, const plan_waves *w, const column *col, double x, double y,
			reasons *rs)
{
	const plan_wave *v = &w->v[col->first];
	int top = top_class(v->classes);
	const char *classes = plan_class_words(a, v->classes, ", ");
	const char *label = col->n == 1 ? arena_printf(a, "wave %zu", col->first + 1)
					: arena_printf(a, "waves %zu-%zu", col->first + 1, col->first + col->n);
	size_t hosts = v->nhosts * col->n;
	svg_group(b, "wave", arena_printf(a, "%s: %zu node%s, %s", label, hosts, hosts == 1 ? "" : "s", classes));
	svg_text(b, x, y + 12, 12, "start", true, "#000000", label, 22);
	const char *sub = col->n == 1 ? arena_printf(a, "%zu node%s", v->nhosts, v->nhosts == 1 ? "" : "s")
				      : arena_printf(a, "%zu waves x %zu", col->n, v->nhosts);
	svg_text(b, x, y + 26, 10, "start", false, "#333333", sub, 24);
	const char *mark = v->after ? "clients' steps, after" : v->clients ? "client-only nodes" : v->access_points ? "access points" : NULL;
	if (mark)
		svg_text(b, x, y + 39, 10, "start", true, v->access_points ? "#000000" : "#1a5276", mark, 24);
	double by = y + 46;
	/* the nodes: one box each, one fault domain each */
	if (col->n == 1) {
		size_t shown = v->nhosts > MAX_BOXES ? MAX_BOXES - 1 : v->nhosts;
		for (size_t i = 0; i < shown; i++) {
			bool ap = is_ap(m, v->hosts[i]);
			const char *cls = arena_printf(a, "node class-%s%s", top >= 0 ? disruption_classes[top].id : "none", ap ? " ap" : "");
			svg_rect(b, x, by, COL_W, NODE_H - 2, class_fill(top), "#444444", cls,
				 arena_printf(a, "%s%s: %s", v->hosts[i], ap ? " (access point)" : "", classes));
			if (ap)
				svg_rect(b, x + 2, by + 2, COL_W - 4, NODE_H - 6, NULL, "#000000", "ap-mark", NULL);
			svg_text(b, x + 5, by + 12, 10, "start", ap, dark_fill(top) ? "#ffffff" : "#000000",
				 ap ? arena_printf(a, "%s  [AP]", v->hosts[i]) : v->hosts[i], 24);
			by += NODE_H;
		}
		if (shown < v->nhosts) {
			const char *rest = hostlist_compress(a, v->hosts + shown, v->nhosts - shown);
			svg_rect(b, x, by, COL_W, NODE_H * 2 - 2, class_fill(top), "#444444", "node more",
				 arena_printf(a, "%zu more: %s", v->nhosts - shown, rest));
			svg_text(b, x + 5, by + 12, 10, "start", false, dark_fill(top) ? "#ffffff" : "#000000",
				 arena_printf(a, "+ %zu more", v->nhosts - shown), 24);
			svg_text(b, x + 5, by + 26, 9, "start", false, dark_fill(top) ? "#ffffff" : "#000000", rest, 26);
			by += NODE_H * 2;
		}
	} else {
		/* a run of alike waves: one box, its hosts as a host list */
		const char **all = arena_alloc(a, hosts * sizeof(char *));
		size_t k = 0;
		for (size_t i = col->first; i < col->first + col->n; i++)
			for (size_t j = 0; j < w->v[i].nhosts; j++)
				all[k++] = w->v[i].hosts[j];
		const char *list = hostlist_compress(a, all, k);
		svg_rect(b, x, by, COL_W, NODE_H * 3 - 2, class_fill(top), "#444444",
			 arena_printf(a, "node run class-%s", top >= 0 ? disruption_classes[top].id : "none"),
			 arena_printf(a, "%zu waves of %zu, one after another: %s", col->n, v->nhosts, list));
		svg_text(b, x + 5, by + 13, 10, "start", true, dark_fill(top) ? "#ffffff" : "#000000",
			 arena_printf(a, "%zu nodes, %zu at a time", k, v->nhosts), 24);
		svg_text(b, x + 5, by + 27, 9, "start", false, dark_fill(top) ? "#ffffff" : "#000000", list, 26);
		by += NODE_H * 3;
	}
	svg_text(b, x, by + 12, 10, "start", false, "#000000", classes, 26);
	size_t r = reason_number(rs, rollout_reason(a, w, v));
	const char *flags = v->format ? ", drained, formatted" : v->drain ? ", drained first" : "";
	svg_text(b, x, by + 25, 10, "start", false, "#333333", arena_printf(a, "size: see (%zu)%s", r, flags), 26);
	svg_group_end(b);
}

static double column_height(const plan_waves *w, const column *col)
{
	const plan_wave *v = &w->v[col->first];
	if (col->n > 1)
		return 46 + NODE_H * 3 + 30;
	size_t boxes = v->nhosts > MAX_BOXES ? MAX_BOXES + 1 : v->nhosts;
	return 46 + (double)boxes * NODE_H + 30;
}

static void write_out(buf *out, buf *b)
{
	buf_add(out, b->data, b->len);
	buf_free(b);
}

/* A picture with only words in it: a refused or empty rollout. */
static void words_only(buf *out, arena *a, const char *title, const char *head, const char *text)
{
	const char *lines[24];
	size_t n = svg_wrap(a, text, 110, lines, 24);
	buf b;
	buf_init(&b);
	svg_begin(&b, 760, (int)(70 + 16 * n), title, arena_printf(a, "%s %s", head, text));
	svg_text(&b, 20, 26, 16, "start", true, "#000000", title, 0);
	svg_text(&b, 20, 48, 12, "start", true, strncmp(head, "Refused", 7) == 0 ? "#c62828" : "#000000", head, 0);
	for (size_t i = 0; i < n; i++)
		svg_text(&b, 20, 66 + 16 * (double)i, 11, "start", false, "#000000", lines[i], 112);
	svg_end(&b);
	write_out(out, &b);
}

void rollout_svg(buf *out, arena *a, const model *m, const plan_waves *w, const char *title)
{
	if (w->refused) { /* nothing is drawn: the script would do nothing */
		words_only(out, a, title, "Refused: no wave runs.", w->refused);
		return;
	}
	if (!w->n) {
		words_only(out, a, title, "No wave.", "No change stops an engine or a node: the files are installed without a rollout.");
		return;
	}
	/* columns: alike waves run together, at most MAX_COLUMNS */
	column *cols = arena_alloc(a, (w->n + 1) * sizeof(*cols));
	size_t ncols = 0;
	for (size_t i = 0; i < w->n;) {
		size_t j = i + 1;
		while (w->n > MAX_COLUMNS && j < w->n && alike(a, w, i, j))
			j++;
		cols[ncols++] = (column){i, j - i};
		i = j;
	}
	size_t left_out = 0;
	if (ncols > MAX_COLUMNS) { /* the first ones, and the last (the access points) */
		for (size_t c = MAX_COLUMNS - 2; c + 1 < ncols; c++)
			left_out += cols[c].n;
		cols[MAX_COLUMNS - 2] = (column){cols[MAX_COLUMNS - 2].first, 0}; /* the gap */
		cols[MAX_COLUMNS - 1] = cols[ncols - 1];
		ncols = MAX_COLUMNS;
	}
	double ch = 0;
	for (size_t c = 0; c < ncols; c++) {
		double h = cols[c].n ? column_height(w, &cols[c]) : 80;
		ch = h > ch ? h : ch;
	}
	/* the legend: the classes the waves have, and the marks */
	unsigned seen = 0;
	for (size_t i = 0; i < w->n; i++)
		seen |= 1u << (unsigned)top_class(w->v[i].classes);
	reasons rs = {.n = 0};
	double width = 20 + (double)ncols * (COL_W + COL_GAP) + SIDE_W + 20;
	const char *sub = arena_printf(a, "%zu wave%s, in order, left to right; each gated: the whole system checked first, "
				       "the same ranks Joined, every pool's rebuild done (at most %lld s)",
				       w->n, w->n == 1 ? "" : "s", w->rebuild_timeout);
	buf b, body;
	buf_init(&b);
	buf_init(&body);
	double top = 90;
	for (size_t c = 0; c < ncols; c++) {
		double x = 20 + (double)c * (COL_W + COL_GAP);
		if (!cols[c].n) {
			svg_group(&body, "wave gap", arena_printf(a, "%zu more waves", left_out));
			svg_text(&body, x, top + 12, 12, "start", true, "#000000", "...", 0);
			svg_text(&body, x, top + 28, 10, "start", false, "#333333", arena_printf(a, "%zu more waves", left_out), 0);
			svg_text(&body, x, top + 42, 10, "start", false, "#333333", "(the JSON and the script", 0);
			svg_text(&body, x, top + 56, 10, "start", false, "#333333", "list every wave)", 0);
			svg_group_end(&body);
			continue;
		}
		draw_column(&body, a, m, w, &cols[c], x, top, &rs);
		if (c + 1 < ncols) /* the order */
			svg_line(&body, x + COL_W + 1, top + 8, x + COL_W + COL_GAP - 1, top + 8, "#999999", 1, false);
	}
	/* the side: why each size, numbered */
	double sx = 20 + (double)ncols * (COL_W + COL_GAP) + 10, sy = top + 12;
	svg_text(&body, sx, sy, 12, "start", true, "#000000", "Why each wave has its size", 0);
	sy += 18;
	if (w->risk) {
		const char *lines[8];
		size_t n = svg_wrap(a, arena_printf(a, "UNSAFE: %s", w->risk), 66, lines, 8);
		for (size_t i = 0; i < n; i++, sy += 14)
			svg_text(&body, sx, sy, 10, "start", true, "#c62828", lines[i], 68);
		sy += 4;
	}
	for (size_t r = 0; r < rs.n; r++) {
		const char *lines[12];
		size_t n = svg_wrap(a, arena_printf(a, "(%zu) %s", r + 1, rs.text[r]), 66, lines, 12);
		for (size_t i = 0; i < n; i++, sy += 14)
			svg_text(&body, sx, sy, 10, "start", false, "#000000", lines[i], 68);
		sy += 6;
	}
	double height = (sy > top + ch ? sy : top + ch) + 20;
	svg_begin(&b, (int)width, (int)height, title, sub);
	svg_text(&b, 20, 26, 16, "start", true, "#000000", title, 0);
	svg_text(&b, 20, 44, 11, "start", false, "#333333", sub, 0);
	double lx = 20;
	svg_group(&b, "legend", "Legend");
	for (int c = DC__COUNT - 1; c >= 0; c--) { /* most disruptive first, as the text lists them */
		if (!((seen >> c) & 1))
			continue;
		svg_rect(&b, lx, 56, 16, 14, class_fill(c), "#444444", arena_printf(a, "key class-%s", disruption_classes[c].id), NULL);
		svg_text(&b, lx + 22, 67, 11, "start", false, "#000000", disruption_classes[c].id, 0);
		lx += 22 + 7 * (double)strlen(disruption_classes[c].id) + 16;
	}
	svg_rect(&b, lx, 56, 16, 14, "#ffffff", "#000000", "key ap", NULL);
	svg_text(&b, lx + 22, 67, 11, "start", false, "#000000", "[AP] access point (last, fewest at a time)", 0);
	svg_group_end(&b);
	buf_add(&b, body.data, body.len);
	buf_free(&body);
	svg_end(&b);
	write_out(out, &b);
}
