/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* completion.c - see completion.h.
 *
 * The three scripts share one walk: the first word that is not an option is
 * the command, an option that takes a value skips the next word, and the
 * words after the command are counted as positionals. Everything a script
 * lists is printed here from the tables; the scripts hold no list of their
 * own. */
#include "completion.h"

#include <string.h>

#include "compiler/base/rules.h"
#include "commands.h"

/* The words of a '|' list, separated by sep. */
static void print_choices(FILE *out, const char *choices, const char *sep)
{
	for (const char *p = choices; *p;) {
		size_t n = strcspn(p, "|");
		fprintf(out, "%s%.*s", p == choices ? "" : sep, (int)n, p);
		p += n + (p[n] == '|');
	}
}

static void print_rule_ids(FILE *out)
{
	for (int i = 0; i < R__COUNT; i++)
		fprintf(out, "%s%s", i ? " " : "", rule_table[i].id);
}

static void print_command_names(FILE *out)
{
	for (size_t i = 0; i < cli_command_count; i++)
		fprintf(out, "%s%s", i ? " " : "", cli_commands[i].name);
}

/* Every option of every command that takes a value, once, separated by sep
 * ('|': a case pattern in bash and zsh; ' ': fish's switch). */
static void print_valued_options(FILE *out, const char *sep)
{
	const char *seen[128];
	size_t n = 0;
	for (size_t i = 0; i < cli_command_count; i++)
		for (const cli_option *const *o = cli_commands[i].options; *o; o++) {
			if ((*o)->kind == ARG_NONE)
				continue;
			for (int alias = 0; alias < 2; alias++) {
				const char *name = alias ? (*o)->alias : (*o)->name;
				bool dup = !name;
				for (size_t k = 0; k < n && !dup; k++)
					dup = strcmp(seen[k], name) == 0;
				if (!dup && n < 128) {
					fprintf(out, "%s%s", n ? sep : "", name);
					seen[n++] = name;
				}
			}
		}
}

/* An argument kind as the scripts' `kind` variable names it. */
static const char *shell_kind(cli_arg k)
{
	switch (k) {
	case ARG_FILE: return "file";
	case ARG_DIR: return "dir";
	case ARG_CHOICE: return "choice";
	case ARG_RULES: return "rules";
	case ARG_RULE: return "rule";
	case ARG_NODE: return "node";
	case ARG_COMMAND: return "command";
	default: return "none";
	}
}

/* ---- bash and zsh: one function body, the shells' own primitives -------- */

/* The `case "$cmd:$prev"` arms: what an option's value completes to. */
static void print_value_cases(FILE *out, const char *indent)
{
	for (size_t i = 0; i < cli_command_count; i++)
		for (const cli_option *const *o = cli_commands[i].options; *o; o++) {
			if ((*o)->kind == ARG_NONE)
				continue;
			fprintf(out, "%s%s:%s", indent, cli_commands[i].name, (*o)->name);
			if ((*o)->alias)
				fprintf(out, "|%s:%s", cli_commands[i].name, (*o)->alias);
			fprintf(out, ") kind=%s choices='", shell_kind((*o)->kind));
			if ((*o)->kind == ARG_CHOICE)
				print_choices(out, (*o)->arg, " ");
			fprintf(out, "' ;;\n");
		}
}

/* The `case "$cmd"` arms: the options of each command and its positionals. */
static void print_command_cases(FILE *out, const char *indent)
{
	for (size_t i = 0; i < cli_command_count; i++) {
		const cli_command *c = &cli_commands[i];
		fprintf(out, "%s%s) opts='", indent, c->name);
		for (const cli_option *const *o = c->options; *o; o++) {
			if ((*o)->alias)
				fprintf(out, "%s ", (*o)->alias);
			fprintf(out, "%s ", (*o)->name);
		}
		fprintf(out, "--help' pos0=%s pos1=%s pchoices='", shell_kind(c->pos[0]), shell_kind(c->pos[1]));
		if (c->pos_choices)
			print_choices(out, c->pos_choices, " ");
		fprintf(out, "' ;;\n");
	}
}

/* The walk and the decision, in the POSIX-ish subset bash and zsh share;
 * `words`/`cword` are set by each shell's wrapper. The result: `kind` and
 * `choices`, or `opts` when the word is an option. A positional after the
 * second takes the second's kind when that is a file (lint A B C). */
static void print_walk(FILE *out)
{
	fprintf(out, "\tlocal cmd='' first='' npos=0 i w kind=none choices='' opts='' pos0=none pos1=none pchoices=''\n"
		     "\ti=1\n"
		     "\twhile [ \"$i\" -lt \"$cword\" ]; do\n"
		     "\t\tw=${words[$((i + base))]}\n"
		     "\t\tcase $w in\n"
		     "\t\t");
	print_valued_options(out, "|");
	fprintf(out, ") i=$((i + 1)) ;;\n"
		     "\t\t-*) ;;\n"
		     "\t\t*) if [ -z \"$cmd\" ]; then cmd=$w; else [ \"$npos\" = 0 ] && first=$w; npos=$((npos + 1)); fi ;;\n"
		     "\t\tesac\n"
		     "\t\ti=$((i + 1))\n"
		     "\tdone\n"
		     "\tcase $cmd in\n");
	print_command_cases(out, "\t");
	fprintf(out, "\t'') case $cur in -*) kind=option opts='-h --help --version' ;; *) kind=command ;; esac ;;\n"
		     "\t*) return 0 ;;\n"
		     "\tesac\n"
		     "\tif [ -n \"$cmd\" ]; then\n"
		     "\t\tcase \"$cmd:$prev\" in\n");
	print_value_cases(out, "\t\t");
	fprintf(out, "\t\t*)\n"
		     "\t\t\tcase $cur in\n"
		     "\t\t\t-*) kind=option ;;\n"
		     "\t\t\t*) if [ \"$npos\" = 0 ]; then kind=$pos0; elif [ \"$npos\" = 1 ] || [ \"$pos1\" = file ]; then kind=$pos1; else kind=none; fi\n"
		     "\t\t\t\tchoices=$pchoices ;;\n"
		     "\t\t\tesac ;;\n"
		     "\t\tesac\n"
		     "\tfi\n");
}

/* bash: the word as typed (COMP_WORDS keeps quotes and backslashes) into
 * its value in _dslc_word, with nothing expanded but a leading ~/: the FILE
 * of `show "my dir/c.dsl" <TAB>`, and the prefix files are matched with. */
static void print_bash_dequote(FILE *out)
{
	fputs("_dslc_dequote()\n{\n"
	      "\tlocal w=$1 out='' c q=''\n"
	      "\tcase $w in '~/'*) w=$HOME/${w#'~/'} ;; esac\n"
	      "\twhile [ -n \"$w\" ]; do\n"
	      "\t\tc=${w:0:1} w=${w:1}\n"
	      "\t\tif [ \"$q\" = \"'\" ]; then\n"
	      "\t\t\tif [ \"$c\" = \"'\" ]; then q=''; else out=$out$c; fi\n"
	      "\t\telif [ \"$c\" = '\\' ] && [ -n \"$w\" ] && { [ -z \"$q\" ] || case ${w:0:1} in '\"'|'\\'|'$'|'`') true ;; *) false ;; esac; }; then\n"
	      "\t\t\tout=$out${w:0:1} w=${w:1}\n"
	      "\t\telif [ -z \"$q\" ] && { [ \"$c\" = \"'\" ] || [ \"$c\" = '\"' ]; }; then\n"
	      "\t\t\tq=$c\n"
	      "\t\telif [ \"$q\" = '\"' ] && [ \"$c\" = '\"' ]; then\n"
	      "\t\t\tq=''\n"
	      "\t\telse\n"
	      "\t\t\tout=$out$c\n"
	      "\t\tfi\n"
	      "\tdone\n"
	      "\t_dslc_word=$out\n"
	      "}\n", out);
}

static void print_bash(FILE *out)
{
	fprintf(out, "# bash completion for dslc (written by `dslc completion bash`: commands, options, rule ids, node names)\n");
	print_bash_dequote(out);
	fprintf(out, "_dslc()\n{\n"
		     "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
		     "\tlocal -a words=(\"${COMP_WORDS[@]}\")\n"
		     "\tlocal cword=$COMP_CWORD base=0 _dslc_word\n");
	print_walk(out);
	/* one match per line of compgen's output, never split at blanks or
	 * globbed (mapfile); file names matched by the shell's own glob from
	 * the dequoted prefix: a name may hold any byte, a newline too */
	fprintf(out, "\t_dslc_dequote \"$first\"\n"
		     "\tfirst=$_dslc_word\n"
		     "\tCOMPREPLY=()\n"
		     "\tcase $kind in\n"
		     "\toption) mapfile -t COMPREPLY < <(compgen -W \"$opts\" -- \"$cur\") ;;\n"
		     "\tcommand) mapfile -t COMPREPLY < <(compgen -W '");
	print_command_names(out);
	fprintf(out, "' -- \"$cur\") ;;\n"
		     "\tchoice) mapfile -t COMPREPLY < <(compgen -W \"$choices\" -- \"$cur\") ;;\n"
		     "\trule) mapfile -t COMPREPLY < <(compgen -W \"$_dslc_rules\" -- \"$cur\") ;;\n"
		     "\trules)\n"
		     "\t\tlocal done_ids=''\n"
		     "\t\tcase $cur in *,*) done_ids=${cur%%,*}, ;; esac\n"
		     "\t\tmapfile -t COMPREPLY < <(compgen -P \"$done_ids\" -W \"$_dslc_rules\" -- \"${cur##*,}\") ;;\n"
		     "\tnode) mapfile -t COMPREPLY < <(compgen -W \"$(command dslc show \"$first\" 2>/dev/null)\" -- \"$cur\") ;;\n"
		     "\tfile|dir)\n"
		     "\t\tcompopt -o filenames 2>/dev/null\n"
		     "\t\t_dslc_dequote \"$cur\"\n"
		     "\t\tlocal f globs\n"
		     "\t\tglobs=$(shopt -p failglob nullglob)\n"
		     "\t\tshopt -u failglob nullglob\n"
		     "\t\tfor f in \"$_dslc_word\"*; do\n"
		     "\t\t\tif [ \"$kind\" = dir ]; then [ -d \"$f\" ] || continue; else [ -e \"$f\" ] || [ -L \"$f\" ] || continue; fi\n"
		     "\t\t\tCOMPREPLY+=(\"$f\")\n"
		     "\t\tdone\n"
		     "\t\teval \"$globs\" ;;\n"
		     "\tesac\n"
		     "\treturn 0\n}\n"
		     "_dslc_rules='");
	print_rule_ids(out);
	fprintf(out, "'\ncomplete -F _dslc dslc\n");
}

static void print_zsh(FILE *out)
{
	fprintf(out, "#compdef dslc\n"
		     "# zsh completion for dslc (written by `dslc completion zsh`: commands, options, rule ids, node names)\n"
		     "_dslc()\n{\n"
		     "\temulate -L zsh\n"
		     "\tsetopt sh_word_split\n"
		     "\tlocal cur=${words[CURRENT]} prev=${words[CURRENT - 1]}\n"
		     "\tlocal cword=$((CURRENT - 1)) base=1\n");
	print_walk(out);
	/* the FILE word as typed ("my dir/c.dsl", my\\ dir/c.dsl): its value */
	fprintf(out, "\tfirst=${(Q)first}\n"
		     "\t[[ $first == '~/'* ]] && first=$HOME/${first#'~/'}\n");
	fprintf(out, "\tlocal -a list\n"
		     "\tcase $kind in\n"
		     "\toption) list=(${=opts}); compadd -a list ;;\n"
		     "\tcommand) list=(");
	print_command_names(out);
	fprintf(out, "); compadd -a list ;;\n"
		     "\tchoice) list=(${=choices}); compadd -a list ;;\n"
		     "\trule) list=(${=_dslc_rules}); compadd -a list ;;\n"
		     "\trules) list=(${=_dslc_rules}); compset -P '*,'; compadd -a list ;;\n"
		     "\tnode) list=(${(f)\"$(command dslc show \"$first\" 2>/dev/null)\"}); compadd -a list ;;\n"
		     "\tfile) _files ;;\n"
		     "\tdir) _files -/ ;;\n"
		     "\tesac\n"
		     "\treturn 0\n}\n"
		     "_dslc_rules='");
	print_rule_ids(out);
	fprintf(out, "'\nif [ \"$funcstack[1]\" = _dslc ]; then _dslc \"$@\"; else compdef _dslc dslc 2>/dev/null; fi\n");
}

/* A fish description: single quotes escaped. */
static void print_fish_quoted(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('\'', out);
}

static void print_fish(FILE *out)
{
	fprintf(out, "# fish completion for dslc (written by `dslc completion fish`: commands, options, rule ids, node names)\n"
		     "complete -c dslc -f\n"
		     "set -g __dslc_rules ");
	print_rule_ids(out);
	fprintf(out, "\n"
		     "# rule ids after the ones already given: --disable a,b<TAB>\n"
		     "function __dslc_rule_list\n"
		     "\tset -l pre (string match -r '.*,' -- (commandline -ct))\n"
		     "\tfor r in $__dslc_rules; echo \"$pre$r\"; end\n"
		     "end\n"
		     "# the positionals after the command: `show FILE <TAB>` wants a node\n"
		     "function __dslc_positionals\n"
		     "\tset -l skip 0; set -l seen\n"
		     "\tfor w in (commandline -opc)[2..-1]\n"
		     "\t\tif test $skip = 1; set skip 0; continue; end\n"
		     "\t\tswitch $w\n"
		     "\t\tcase ");
	print_valued_options(out, " "); /* fish's switch takes space-separated patterns */
	fprintf(out, "\n\t\t\tset skip 1\n"
		     "\t\tcase '-*'\n"
		     "\t\tcase '*'\n"
		     "\t\t\tset -a seen $w\n"
		     "\t\tend\n"
		     "\tend\n"
		     "\tprintf '%%s\\n' $seen\n"
		     "end\n"
		     "function __dslc_show_wants_node\n"
		     "\tset -l p (__dslc_positionals)\n"
		     "\ttest (count $p) = 2 -a \"$p[1]\" = show\n"
		     "end\n"
		     "function __dslc_nodes\n"
		     "\tset -l p (__dslc_positionals)\n"
		     "\tcommand dslc show $p[2] 2>/dev/null\n"
		     "end\n");
	for (size_t i = 0; i < cli_command_count; i++) {
		const cli_command *c = &cli_commands[i];
		fprintf(out, "complete -c dslc -n __fish_use_subcommand -a %s -d ", c->name);
		print_fish_quoted(out, c->summary);
		fputc('\n', out);
		for (const cli_option *const *o = c->options; *o; o++) {
			fprintf(out, "complete -c dslc -n '__fish_seen_subcommand_from %s' -l %s", c->name, (*o)->name + 2);
			if ((*o)->alias)
				fprintf(out, " -s %s", (*o)->alias + 1);
			switch ((*o)->kind) {
			case ARG_NONE: break;
			case ARG_FILE: fprintf(out, " -r -F"); break;
			case ARG_DIR: fprintf(out, " -x -a '(__fish_complete_directories)'"); break;
			case ARG_CHOICE: fprintf(out, " -x -a '"), print_choices(out, (*o)->arg, " "), fputc('\'', out); break;
			case ARG_RULES: fprintf(out, " -x -a '(__dslc_rule_list)'"); break;
			default: fprintf(out, " -x"); break;
			}
			fprintf(out, " -d ");
			print_fish_quoted(out, (*o)->doc);
			fputc('\n', out);
		}
		switch (c->pos[0]) {
		case ARG_FILE:
			fprintf(out, "complete -c dslc -n '__fish_seen_subcommand_from %s%s' -F\n", c->name,
				c->pos[1] == ARG_NODE ? "; and not __dslc_show_wants_node" : "");
			break;
		case ARG_RULE: fprintf(out, "complete -c dslc -n '__fish_seen_subcommand_from %s' -a '$__dslc_rules'\n", c->name); break;
		case ARG_COMMAND:
			fprintf(out, "complete -c dslc -n '__fish_seen_subcommand_from %s' -a '", c->name);
			print_command_names(out);
			fprintf(out, "'\n");
			break;
		case ARG_CHOICE:
			fprintf(out, "complete -c dslc -n '__fish_seen_subcommand_from %s' -a '", c->name);
			print_choices(out, c->pos_choices, " ");
			fprintf(out, "'\n");
			break;
		default: break;
		}
		if (c->pos[1] == ARG_NODE)
			fprintf(out, "complete -c dslc -n __dslc_show_wants_node -a '(__dslc_nodes)'\n");
	}
}

bool completion_print(const char *shell, FILE *out)
{
	if (strcmp(shell, "bash") == 0)
		print_bash(out);
	else if (strcmp(shell, "zsh") == 0)
		print_zsh(out);
	else if (strcmp(shell, "fish") == 0)
		print_fish(out);
	else
		return false;
	return true;
}
