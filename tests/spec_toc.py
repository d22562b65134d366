#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""SPEC.md's table of contents, from its headings: every `##` section and the
`###` subsections written by hand (the generated keyword and rule references
are listed by their section only). Anchors as GitHub makes them: lower case,
punctuation but '-' and '_' dropped, spaces as '-', a repeated one numbered.
Printed for the `toc` marker (tests/update_spec.sh, tests/check_spec.sh)."""
import re
import sys

seen = {}
fence = generated = False
out = []
for line in open(sys.argv[1] if len(sys.argv) > 1 else "SPEC.md", encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("```"):
        fence = not fence
        continue
    if fence:
        continue
    if line.startswith("<!-- BEGIN GENERATED: "):
        generated = True
    elif line == "<!-- END GENERATED -->":
        generated = False
    m = re.match(r"^(##|###) (.*)$", line)
    if not m or (generated and m.group(1) == "###"):
        continue
    title = m.group(2)
    anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
    n = seen.get(anchor, 0)
    seen[anchor] = n + 1
    if n:
        anchor = "%s-%d" % (anchor, n)
    if title.startswith("Contents"):
        continue
    out.append("%s- [%s](#%s)" % ("  " if m.group(1) == "###" else "", title.replace("`", ""), anchor))
print("\n".join(out))
