# SPDX-License-Identifier: BSD-2-Clause-Patent
# dslc - a compiler and linter for DAOS storage clusters.
#
#   make            build build/dslc
#   make check      unit, golden, validator and tree tests; then the whole
#                   suite again under ASan+UBSan, and under valgrind
#   make demo       build the reference example into out/hgx-b200
#   make golden     regenerate golden files (review the diff before committing)
#   make bench      build and lint figures for 1,000 to 65,536 nodes
#   make shapes     2,000 generated cluster shapes against DAOS's own loader
#   make mutate     product mutations in a scratch copy, each caught by a test
#   make fuzz       libFuzzer on the DSL front end, the YAML linter and the
#                   output writer (FUZZ_SECONDS per target, default 600)
#   make install    the binary, man pages, shell completions, JSON schemas and
#                   pre-commit hooks under $(DESTDIR)$(PREFIX) (default /usr/local)
#   make uninstall  removes exactly what install wrote
#   make deb        a Debian package (dpkg-buildpackage) in build/deb/

CC       ?= gcc
# quiet by default, as Linux and git build: one short line a step; V=1 prints
# every command (the packages build with V=1, so their logs keep the flags)
ifeq ($(V),1)
Q :=
say = @:
else
Q := @
say = @printf '  %-7s %s\n' '$(1)' '$(2)'
endif
PREFIX   ?= /usr/local
PKGS      = yaml-0.1 jansson nettle hwloc
CPPFLAGS += -I. -I$(BUILD) -D_GNU_SOURCE
OPT      ?= -O2 -g
CFLAGS   += $(OPT) -pthread -std=c11 -Wall -Wextra -Werror -MMD -MP $(shell pkg-config --cflags $(PKGS))
LDLIBS   += $(shell pkg-config --libs $(PKGS))
BUILD    ?= build
# the version, in one place: dslc --version, the man pages, the Debian package
VERSION  := $(shell cat VERSION)
CPPFLAGS += -DDSLC_VERSION='"$(VERSION)"'
# where the rules' documentation is linked (SARIF helpUri, JSON url, explain):
# SPEC.md as the packages install it, unless a site publishes its own copy
# (make DOCS_URL=https://docs.example.org/dslc/SPEC.md; then make clean first)
ifneq ($(DOCS_URL),)
CPPFLAGS += -DDSLC_DOCS_URL='"$(DOCS_URL)"'
endif
# the man pages' date: the last commit's (dpkg-buildpackage sets its own)
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null)
export SOURCE_DATE_EPOCH

# every stage folder of compiler/ (ARCHITECTURE.md) and every target: no
# hand list to keep in step; the command line's main() is not in the library
SRC_LIB = $(filter-out compiler/driver/main.c,$(wildcard compiler/*/*.c)) $(wildcard targets/*.c)
GEN     = $(BUILD)/parser.c $(BUILD)/lexer.c
OBJ_LIB = $(SRC_LIB:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/parser.o $(BUILD)/obj/lexer.o
UNIT_SRC = $(wildcard tests/unit/*.c)

MAN         = $(BUILD)/man/dslc.1 $(BUILD)/man/dslc-language.5 $(BUILD)/man/dslc-rules.7
COMPLETIONS = $(BUILD)/completion/dslc.bash $(BUILD)/completion/_dslc $(BUILD)/completion/dslc.fish

# editor support: syntax printed by dslc from its keyword tables, beside the
# hand-written filetype detection and client configurations of editors/
EDITOR = $(BUILD)/editor/vim/syntax/dslc.vim $(BUILD)/editor/dslc.tmLanguage.json

all: $(BUILD)/dslc $(MAN) $(COMPLETIONS) $(EDITOR)

$(BUILD)/parser.c $(BUILD)/parser.h &: grammar/parser.y
	@mkdir -p $(BUILD)
	$(call say,BISON,$<)
	$(Q)bison -Wall -Werror -d -o $(BUILD)/parser.c $<

$(BUILD)/lexer.c: grammar/lexer.l $(BUILD)/parser.h
	$(call say,FLEX,$<)
	$(Q)flex -o $@ $<

$(BUILD)/obj/%.o: %.c $(BUILD)/parser.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/parser.o: $(BUILD)/parser.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-unused-but-set-variable -c $< -o $@

$(BUILD)/obj/lexer.o: $(BUILD)/lexer.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-sign-compare -Wno-unused-function -c $< -o $@

# the generated scripts' shell functions stay shell (shellcheck reads them)
# and are compiled in as C string literals: each line quoted, \ " and ?
# escaped (? against trigraphs under -std=c11)
$(BUILD)/gen/%.inc: %.sh
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)sed -e 's/[\\"?]/\\&/g' -e 's/^/"/' -e 's/$$/\\n"/' $< >$@.tmp && mv $@.tmp $@

# the Ansible playbook the same way: ansible-lint reads it in place
$(BUILD)/gen/%.inc: %.yml
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)sed -e 's/[\\"?]/\\&/g' -e 's/^/"/' -e 's/$$/\\n"/' $< >$@.tmp && mv $@.tmp $@
$(BUILD)/obj/targets/ansible.o: $(BUILD)/gen/targets/ansible_apply.inc

$(BUILD)/obj/compiler/plan/rollout.o: $(BUILD)/gen/targets/dmg_lib.inc $(BUILD)/gen/targets/kube_lib.inc \
	$(BUILD)/gen/compiler/plan/rollout_lib.inc $(BUILD)/gen/compiler/plan/rollout_kube.inc
$(BUILD)/obj/targets/containerd.o: $(BUILD)/gen/targets/containerd_cri.inc
$(BUILD)/obj/targets/kube_ops.o: $(BUILD)/gen/targets/dmg_lib.inc $(BUILD)/gen/targets/kube_lib.inc \
	$(BUILD)/gen/targets/node_maintenance.inc

$(BUILD)/libdslc.a: $(OBJ_LIB)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^   # a fresh archive: a moved or removed file leaves no stale member

$(BUILD)/obj/compiler/driver/main.o: VERSION

$(BUILD)/dslc: $(BUILD)/obj/compiler/driver/main.o $(BUILD)/libdslc.a
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

# man pages and completions are printed by dslc from its own tables
$(MAN): $(BUILD)/dslc
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)$(BUILD)/dslc manpage $(basename $(notdir $@)) >$@.tmp && mv $@.tmp $@

$(BUILD)/completion/dslc.bash $(BUILD)/completion/_dslc $(BUILD)/completion/dslc.fish: $(BUILD)/dslc
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)$(BUILD)/dslc completion $(patsubst _dslc,zsh,$(patsubst dslc.%,%,$(notdir $@))) >$@.tmp && mv $@.tmp $@

$(BUILD)/editor/vim/syntax/dslc.vim: $(BUILD)/dslc
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)$(BUILD)/dslc syntax vim >$@.tmp && mv $@.tmp $@

$(BUILD)/editor/dslc.tmLanguage.json: $(BUILD)/dslc
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)$(BUILD)/dslc syntax textmate >$@.tmp && mv $@.tmp $@

# the test build: dslc with its two test seams compiled in (DSLC_TEST_CRASH_AFTER
# in the journal, DSLC_TEST_CORRUPT in daos_server.yml); the objects given
# first stand in for the library's, so the installed dslc has no seam
HOOK_SRC = compiler/tree/journal.c targets/daos_server.c
$(BUILD)/obj-hooks/%.o: %.c $(BUILD)/parser.h
	@mkdir -p $(dir $@)
	$(call say,CC,$< (test seams))
	$(Q)$(CC) $(CPPFLAGS) -DDSLC_TEST_HOOKS $(CFLAGS) -c $< -o $@

$(BUILD)/dslc-test-hooks: $(BUILD)/obj/compiler/driver/main.o $(HOOK_SRC:%.c=$(BUILD)/obj-hooks/%.o) $(BUILD)/libdslc.a
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/unit_tests: $(UNIT_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/libdslc.a
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LDLIBS) $(shell pkg-config --libs check) -o $@

# ---- tests -----------------------------------------------------------------

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# every (program, mode) pair, plain, ASan+UBSan, valgrind and fuzz, from one
# queue over the machine's cores; the ASan and fuzz builds are jobs of it
check: all $(BUILD)/unit_tests $(BUILD)/dslc-test-hooks
	@/usr/bin/python3 tests/check_queue.py --build $(BUILD)

# ---- fuzzing (clang + libFuzzer) --------------------------------------------

FUZZ_FLAGS   = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_TARGETS = fuzz_dsl fuzz_yaml fuzz_output fuzz_topology fuzz_lint_files fuzz_rollout fuzz_lsp fuzz_manifest fuzz_rootfs
FUZZ_SECONDS ?= 600

fuzz-build:
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang OPT="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" build-fuzz/libdslc.a
	@for t in $(FUZZ_TARGETS); do \
		clang -I. -Ibuild-fuzz -D_GNU_SOURCE -std=c11 -pthread -Wall -Wextra -Werror $(FUZZ_FLAGS) -fsanitize=fuzzer \
			tests/fuzz/$$t.c build-fuzz/libdslc.a $(LDLIBS) -o build-fuzz/$$t || exit 1; \
	done

fuzz: fuzz-build
	tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

# the ASan+UBSan binaries in ASAN_BUILD (make check's queue builds them as a job)
ASAN_BUILD ?= build-asan
asan-build:
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) OPT="$(SAN_FLAGS)" $(ASAN_BUILD)/dslc $(ASAN_BUILD)/unit_tests \
		$(ASAN_BUILD)/dslc-test-hooks $(ASAN_BUILD)/editor/vim/syntax/dslc.vim $(ASAN_BUILD)/editor/dslc.tmLanguage.json

asan-suite: $(BUILD)/dslc $(BUILD)/unit_tests $(BUILD)/dslc-test-hooks $(EDITOR)
	@tests/run_all.sh $(BUILD) asan

# every product mutation of tests/mutate.sh caught by a test (rebuilds in a
# scratch copy, once per mutation: outside check; about 15 minutes)
mutate:
	tests/mutate.sh

golden: all
	tests/golden.sh $(BUILD)/dslc update

demo: all
	$(Q)$(BUILD)/dslc lint examples/hgx-b200/cluster.dsl
	$(Q)$(BUILD)/dslc build examples/hgx-b200/cluster.dsl -o out/hgx-b200
	@echo "--- out/hgx-b200/nodes/gpu001/etc/daos/daos_server.yml, its first engine:"
	@awk '/^engines:/ { on = 1; next } on && /^- / && n++ { exit } on && /^  storage:/ { exit } on' \
		out/hgx-b200/nodes/gpu001/etc/daos/daos_server.yml
	@echo "---"
	@echo "The output is in out/hgx-b200: nodes/<host>/ holds each node's files (18 nodes), cluster/ the pool and"
	@echo "container commands, manifest.json every file with its hash. Open first:"
	@echo "  out/hgx-b200/nodes/gpu001/etc/daos/daos_server.yml   (both engines of one GPU node: cores, NICs, drives)"
	@echo "  out/hgx-b200/cluster/daos-pools.sh                   (dmg pool create / daos container create, in order)"
	@echo "  build/dslc show examples/hgx-b200/cluster.dsl gpu001  (the plan per NUMA node, and why)"

# ---- install ------------------------------------------------------------------

BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DATADIR     ?= $(PREFIX)/share/dslc
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
# Vim's and Neovim's system-wide runtime directories (Debian's vim reads
# vimfiles, Neovim its XDG data directory's site)
VIMDIR      ?= $(PREFIX)/share/vim/vimfiles
NVIMDIR     ?= $(PREFIX)/share/nvim/site
# SPEC.md (the man pages refer to it), the README and the examples
DOCDIR      ?= $(PREFIX)/share/doc/dslc
EXAMPLES     = $(wildcard examples/*/*)
VSCODE       = package.json extension.js language-configuration.json
SCHEMAS      = $(notdir $(wildcard schemas/*.json))
# every file install writes, which uninstall removes
INSTALLED = $(BINDIR)/dslc $(MANDIR)/man1/dslc.1 $(MANDIR)/man5/dslc-language.5 $(MANDIR)/man7/dslc-rules.7 \
	$(BASHCOMPDIR)/dslc $(ZSHCOMPDIR)/_dslc $(FISHCOMPDIR)/dslc.fish \
	$(addprefix $(DATADIR)/schemas/,$(SCHEMAS)) $(DATADIR)/pre-commit-hooks.yaml \
	$(VIMDIR)/syntax/dslc.vim $(VIMDIR)/ftdetect/dslc.vim $(NVIMDIR)/syntax/dslc.vim $(NVIMDIR)/ftdetect/dslc.vim \
	$(addprefix $(DATADIR)/editors/vscode/,$(VSCODE) dslc.tmLanguage.json) $(DATADIR)/editors/nvim/dslc.lua \
	$(DOCDIR)/SPEC.md $(DOCDIR)/README.md $(addprefix $(DOCDIR)/,$(EXAMPLES))

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR) $(DESTDIR)$(DATADIR)/schemas
	install -m 0755 $(BUILD)/dslc $(DESTDIR)$(BINDIR)/dslc
	install -m 0644 $(BUILD)/man/dslc.1 $(DESTDIR)$(MANDIR)/man1/dslc.1
	install -m 0644 $(BUILD)/man/dslc-language.5 $(DESTDIR)$(MANDIR)/man5/dslc-language.5
	install -m 0644 $(BUILD)/man/dslc-rules.7 $(DESTDIR)$(MANDIR)/man7/dslc-rules.7
	install -m 0644 $(BUILD)/completion/dslc.bash $(DESTDIR)$(BASHCOMPDIR)/dslc
	install -m 0644 $(BUILD)/completion/_dslc $(DESTDIR)$(ZSHCOMPDIR)/_dslc
	install -m 0644 $(BUILD)/completion/dslc.fish $(DESTDIR)$(FISHCOMPDIR)/dslc.fish
	install -m 0644 $(addprefix schemas/,$(SCHEMAS)) $(DESTDIR)$(DATADIR)/schemas/
	install -m 0644 .pre-commit-hooks.yaml $(DESTDIR)$(DATADIR)/pre-commit-hooks.yaml
	for d in $(VIMDIR) $(NVIMDIR); do \
		install -d $(DESTDIR)$$d/syntax $(DESTDIR)$$d/ftdetect && \
		install -m 0644 $(BUILD)/editor/vim/syntax/dslc.vim $(DESTDIR)$$d/syntax/dslc.vim && \
		install -m 0644 editors/vim/ftdetect/dslc.vim $(DESTDIR)$$d/ftdetect/dslc.vim || exit 1; \
	done
	install -d $(DESTDIR)$(DATADIR)/editors/vscode $(DESTDIR)$(DATADIR)/editors/nvim
	install -m 0644 $(addprefix editors/vscode/,$(VSCODE)) $(BUILD)/editor/dslc.tmLanguage.json $(DESTDIR)$(DATADIR)/editors/vscode/
	install -m 0644 editors/nvim/dslc.lua $(DESTDIR)$(DATADIR)/editors/nvim/dslc.lua
	install -d $(DESTDIR)$(DOCDIR) $(addprefix $(DESTDIR)$(DOCDIR)/,$(sort $(dir $(EXAMPLES))))
	install -m 0644 SPEC.md README.md $(DESTDIR)$(DOCDIR)/
	for f in $(EXAMPLES); do install -m 0644 $$f $(DESTDIR)$(DOCDIR)/$$f || exit 1; done

# removes what install wrote, and dslc's own directories once empty
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(DATADIR)/schemas $(DESTDIR)$(DATADIR)/editors/vscode $(DESTDIR)$(DATADIR)/editors/nvim \
		$(DESTDIR)$(DATADIR)/editors $(DESTDIR)$(DATADIR) 2>/dev/null
	-rmdir $(addprefix $(DESTDIR)$(DOCDIR)/,$(sort $(dir $(EXAMPLES)))) $(DESTDIR)$(DOCDIR)/examples \
		$(DESTDIR)$(DOCDIR) 2>/dev/null

# the Debian package, built from a copy of the committed tree (dpkg-buildpackage
# writes beside the source directory)
# a variable's value, for the tests (make -s print-VIMDIR)
print-%:
	@echo '$($*)'

deb:
	tests/package.sh build-only

rpm: all
	tests/package_rpm.sh build-only

# the source RPM alone, to rebuild on RHEL/Rocky 9, SLES 15 or Azure Linux 3
# (rpmbuild --rebuild); URL=... names where dslc is published
srpm:
	tests/package_rpm.sh srpm

vsix: all
	tests/vsix.sh $(BUILD)/dslc build-only

clean:
	rm -rf build build-asan build-fuzz out

.PHONY: all check asan-build asan-suite golden demo install uninstall deb rpm srpm vsix clean spec bench fuzz fuzz-build shapes mutate cascade

-include $(shell find $(BUILD)/obj $(BUILD)/obj-hooks -name '*.d' 2>/dev/null)

spec: all
	tests/update_spec.sh $(BUILD)/dslc

# the shape generator against DAOS's loader, longer than in `make check`
SHAPES_COUNT ?= 2000
shapes: all
	/usr/bin/python3 tests/shapes.py $(BUILD)/dslc --count $(SHAPES_COUNT)

# every value of the examples and rule fixtures corrupted both ways, and in
# pairs with the next two of its statement (make check corrupts each one way,
# the two ways in turn, and 60 of the fixtures in pairs with the next one)
cascade: all
	/usr/bin/python3 tests/cascade.py $(BUILD)/dslc --full --pairs 2

bench: all
	/usr/bin/python3 tests/bench.py $(BUILD)/dslc
	/usr/bin/python3 tests/bench_lsp.py $(BUILD)/dslc
	/usr/bin/python3 tests/bench_doctor.py $(BUILD)/dslc
