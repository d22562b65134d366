/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* commands.h - the command line as data: every command with its synopsis,
 * options (and their defaults), exit status and an example.
 *
 * One table serves the parser's check (a command takes only its options),
 * `dslc help CMD` and `CMD --help`, the man page dslc(1), the shell
 * completions and SPEC.md's command reference: none of them is a second
 * hand copy. */
#ifndef DSLC_COMMANDS_H
#define DSLC_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What an option's value, or a positional argument, completes to. */
typedef enum cli_arg {
	ARG_NONE,   /* a flag */
	ARG_FILE,   /* a path */
	ARG_DIR,    /* a directory */
	ARG_WORD,   /* free text: a number, a duration, host names */
	ARG_CHOICE, /* one of the words of `arg`, split at '|' */
	ARG_RULES,  /* rule ids, comma separated */
	ARG_RULE,   /* one rule id */
	ARG_NODE,   /* a node of the description given before it */
	ARG_COMMAND /* a command name */
} cli_arg;

typedef struct cli_option {
	const char *name;  /* "--format" */
	const char *alias; /* "-o", or NULL */
	cli_arg kind;
	const char *arg;   /* as shown: "DIR", "text|json" (ARG_CHOICE: the choices) */
	const char *def;   /* the default as shown, or NULL */
	const char *doc;   /* one sentence */
} cli_option;

typedef struct cli_exit {
	int code;
	const char *meaning;
} cli_exit;

typedef struct cli_command {
	const char *name;
	const char *args;        /* the synopsis after the name and before [options] */
	const char *summary;     /* one line for `dslc help` */
	const char *description; /* a paragraph */
	const cli_option *const *options; /* NULL-terminated */
	cli_arg pos[2];          /* what the first two positional arguments complete to */
	const char *pos_choices; /* ARG_CHOICE positionals: the words, '|' separated */
	const cli_exit *exits;   /* ended by code -1 */
	const char *example;     /* one command line, '\n' between several */
} cli_command;

extern const cli_command cli_commands[];
extern const size_t cli_command_count;
/* --help and --version, which every command takes */
extern const cli_option cli_opt_help, cli_opt_version;

const cli_command *cli_command_find(const char *name);
/* The option of c spelled `arg` (a name or an alias), or NULL. */
const cli_option *cli_command_option(const cli_command *c, const char *arg);

/* Whether --name takes a value in the commands that have it. */
bool cli_option_takes_value(const char *name);

/* `dslc help`: the commands, one line each. */
void cli_print_overview(FILE *out);
/* `dslc help CMD` and `dslc CMD --help`. */
void cli_print_command_help(const cli_command *c, FILE *out);
/* SPEC.md's command reference (`dslc help --markdown`). */
void cli_print_markdown(FILE *out);

/* The environment dslc reads, for dslc(1) and SPEC.md. */
typedef struct cli_env {
	const char *name, *doc;
} cli_env;
extern const cli_env cli_environment[];
extern const size_t cli_environment_count;

#endif
