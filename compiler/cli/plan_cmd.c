/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* plan_cmd.c - `dslc plan`: its options checked, then plan_run. */
#include "cli.h"

#include <string.h>

#include "compiler/plan/plan.h"

int cli_cmd_plan(const cli *c)
{
	if (!c->file || (!c->against == !c->against_source))
		return cli_usage_error("%s", "plan needs FILE and one of --against DIR or --against-source OLD.dsl");
	plan_opts o = {c->file, c->against, c->against_source, PLAN_TEXT, false, c->max_values, c->max_wave, c->unsafe_wave,
		       c->rebuild_timeout, c->picture};
	if (c->format && strcmp(c->format, "markdown") == 0)
		o.format = PLAN_MARKDOWN;
	else if (c->format && strcmp(c->format, "json") == 0)
		o.format = PLAN_JSON;
	else if (c->format && strcmp(c->format, "script") == 0)
		o.format = PLAN_SCRIPT;
	else if (c->format && strcmp(c->format, "svg") == 0)
		o.format = PLAN_SVG;
	else if (c->format && strcmp(c->format, "text") != 0)
		return cli_usage_error("plan --format takes text, markdown, json, script or svg, not '%s'", c->format);
	o.colour = o.format == PLAN_TEXT && diag_use_colour(stdout);
	return plan_run(&o, "dslc " DSLC_VERSION);
}
