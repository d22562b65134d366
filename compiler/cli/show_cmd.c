/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* show_cmd.c - `dslc show FILE [NODE]`: the node names, or one node's plan
 * (show.c prints it). */
#include "cli.h"

#include <string.h>

#include "compiler/place/place.h"
#include "show.h"

int cli_cmd_show(const cli *c)
{
	compilation comp;
	int rc = cli_compile_or_fail(&comp, c->file, c->disabled);
	if (rc >= 0)
		return rc;
	if (!c->node) { /* the names a NODE can be (the shell completions ask) */
		for (size_t i = 0; i < comp.m.nnodes; i++)
			printf("%s\n", comp.m.nodes[i].host);
		diag_print_text(&comp.dc, stderr, c->max_findings);
		cli_print_summary(&comp, stderr, NULL);
		rc = diag_count(&comp.dc, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
		compile_free(&comp);
		return rc;
	}
	const node *nd = model_node(&comp.m, c->node);
	if (diag_count(&comp.dc, SEV_ERROR) || !nd || !nd->spec || !nd->spec->plan || !nd->spec->plan->ok) {
		diag_print_text(&comp.dc, stderr, c->max_findings);
		cli_print_summary(&comp, stderr, NULL);
		if (!nd)
			fprintf(stderr, "dslc: %s is not a node of %s\n", c->node, c->file);
		else
			fprintf(stderr, "dslc: the plan of %s cannot be shown: fix the errors above\n", c->node);
		compile_free(&comp);
		return EXIT_FINDINGS;
	}
	if (c->format && strcmp(c->format, "json") == 0)
		rc = show_node_json(&comp.m, nd, stdout);
	else if (c->format && strcmp(c->format, "svg") == 0)
		rc = show_node_svg(&comp.m, nd, stdout);
	else
		show_node_text(&comp.m, nd, stdout);
	compile_free(&comp);
	return rc > 0 ? rc : EXIT_CLEAN;
}
