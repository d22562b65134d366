#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Issue 58: checks that pass whatever the product does, found by their shape.

Reads every shell test (tests/*.sh) and rejects the patterns that made
earlier checks unable to fail:

  grep-qv     `grep -qv` (or -vq, -v -q): true when any other line is
              printed, so it passes while the line it means to exclude is
              there. Write `! grep -q X`.
  last-only   a check's condition with `A && B; C`: only the last statement
              decides, the chain's status is discarded. Join with &&
              (`exits N CMD` in tests/lib.sh tests an exit status).
  pipe-status `CMD | ...; [ $? = N ]`: $? is the pipeline's last command's.
  cat-passes  a condition ending in `|| cat FILE` (or `|| echo ...`) without
              `false`: printing the file makes the check pass.
  always-true a condition ending in `|| true`, `|| :` or `; true`.
  absent-only a condition made only of `! grep` and `[ ! -e FILE ]` (-s, ...) terms: a
              dslc that crashed, printing and writing nothing, passes it.
              Add a positive term (the exit status, the summary line).
  vanishes    `command -v TOOL ... && check`, or an `if command -v TOOL`
              holding a check with no else: without the tool the check is
              gone, with no skip line (use skip_or_fail_in_ci).
  piped-loop  `CMD | while ...; do ... check ...; done`: a piped loop runs in
              a subshell, so its checks print FAIL and count nothing (the
              suite passes). Feed the loop with `done < <(CMD)` or a file.

A line (or the line above it) with `# pattern-ok: REASON` is let through.
Prints one ok line per pattern and a FAIL line per finding.
  tests/test_patterns.py [FILE...]
"""
import glob
import os
import re
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATTERNS = ["grep-qv", "last-only", "pipe-status", "cat-passes", "always-true", "absent-only", "vanishes",
            "piped-loop"]
# (`! grep -qv X` is "every line matches X", which is sound: only the bare form)
GREP_QV = re.compile(r"(?<!! )\bgrep\s+(-[a-zA-Z]*q[a-zA-Z]*v|-[a-zA-Z]*v[a-zA-Z]*q|-v\s+-q|-q\s+-v)\b")


def split_top(text, seps):
    """Splits shell text at the separators outside quotes, $( ), ( ) and { }.
    Returns [(piece, separator-before-it)]."""
    out, cur, depth, i, q, before = [], "", 0, 0, None, None
    while i < len(text):
        c = text[i]
        if q:
            cur += c
            if c == "\\" and q == '"' and i + 1 < len(text):
                cur += text[i + 1]
                i += 2
                continue
            if c == q:
                q = None
            i += 1
            continue
        if c in "'\"":
            q = c
        elif c == "\\" and i + 1 < len(text):
            cur += text[i:i + 2]
            i += 2
            continue
        elif c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
        if depth == 0:
            hit = next((s for s in seps if text.startswith(s, i)), None)
            # `|` alone, not `||`; `&&` and `||` before `|`, `;` alone
            if hit == "|" and text.startswith("||", i):
                hit = "||" if "||" in seps else None
            if hit:
                out.append((cur.strip(), before))
                cur, before = "", hit
                i += len(hit)
                continue
        cur += c
        i += 1
    out.append((cur.strip(), before))
    return [(p, b) for p, b in out if p]


def conditions(lines):
    """(line number, condition text) of every `check NAME COND` call."""
    i = 0
    while i < len(lines):
        line = lines[i]
        start = i
        m = re.match(r"^\s*(?:.*&&\s*)?check\s", line)
        if not m or line.lstrip().startswith("#"):
            i += 1
            continue
        text = line
        while text.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text.rstrip()[:-1] + " " + lines[i].strip()
        i += 1
        try:
            lex = shlex.shlex(text[text.index("check") + 5:], posix=True, punctuation_chars=False)
            lex.whitespace_split = True
            lex.commenters = ""
            words = list(lex)
        except ValueError:
            continue
        if len(words) >= 2 and words[1] not in ("", "\\"):
            yield start + 1, words[1]


def negative(term):
    """A term that only says something is absent from a file or the tree."""
    t = term.strip()
    return bool(re.match(r"^(! grep\b|\[ ! -[efdLs] |! \[ -[efdLs] )", t))


def judge(cond):
    """The patterns a condition has."""
    found = []
    stmts = split_top(cond, [";"])
    compound = re.search(r"\bdo\b", cond) and re.search(r"\bdone\b", cond)
    if len(stmts) > 1 and not compound:
        for k, (s, _) in enumerate(stmts[:-1]):
            nxt = stmts[k + 1][0]
            if re.match(r"^\[\s+\\?\$\?\s", nxt) and split_top(s, ["|"])[1:]:
                found.append("pipe-status")
            elif re.match(r"^\[\s+\\?\$\?\s", nxt):
                continue  # CMD; [ $? = N ]: a single command's status, tested
            elif split_top(s, ["&&", "||", "|"])[1:] or re.match(r"^(\[|!|grep |test |\$DSLC|\$\{?DSLC)", s):
                found.append("last-only")  # a result thrown away (setup commands are not)
    last = stmts[-1][0] if stmts else ""
    terms = split_top(last, ["&&", "||"])
    if terms and terms[-1][1] == "||":
        tail = terms[-1][0]
        if re.match(r"^(cat|echo|printf)\b", tail) or re.match(r"^\{\s*(cat|echo)[^}]*\}$", tail) and "false" not in tail:
            found.append("cat-passes")
        if tail in ("true", ":"):
            found.append("always-true")
    if last.strip() == "true":
        found.append("always-true")
    ands = [t for t, sep in terms if sep in (None, "&&")]
    if terms and all(sep != "||" for _, sep in terms) and ands and all(negative(t) for t in ands):
        found.append("absent-only")
    return found


def vanishing(lines):
    """Line numbers of checks that disappear without their tool."""
    out = []
    stack = []  # (line, tool, has_else, has_check)
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if re.match(r"^command -v \S+[^&]*&&\s*check\b", s):
            out.append(n)
        m = re.match(r"^if\s+(.*)", s)
        if m and re.search(r"\bthen\s*$", s):
            stack.append([n, "command -v" in m.group(1) and not m.group(1).lstrip().startswith("!"), False, False])
        elif re.match(r"^(else|elif)\b", s) and stack:
            stack[-1][2] = True
        elif re.match(r"^fi\b", s) and stack:
            start, tool, has_else, has_check = stack.pop()
            if tool and has_check and not has_else:
                out.append(start)
        elif re.match(r"^(check|shellcheck_ok)\s", s) and stack:
            stack[-1][3] = True
    return out


def piped_loops(lines):
    """Line numbers of piped loops (a subshell) whose body counts a check."""
    out = []
    for n, line in enumerate(lines, 1):
        if not re.search(r"\|\s*while\b.*\bdo\s*$", line) or line.lstrip().startswith("#"):
            continue
        depth = 0
        for body in lines[n - 1:]:
            if re.search(r"\b(while|for|until)\b.*\bdo\s*$", body):
                depth += 1
            elif re.match(r"^\s*done\b", body):
                depth -= 1
                if depth == 0:
                    break
            elif re.match(r"^\s*(check|ok|no|shellcheck_ok)\s", body):
                out.append(n)
                break
    return out


def allowed(lines, n):
    return "pattern-ok:" in lines[n - 1] or (n >= 2 and "pattern-ok:" in lines[n - 2])


# the checker's own cases: each earlier check that could not fail (issue 58
# names them) must be flagged with its pattern, and its fixed form must not
SELF = [
    ("""(cd "$R" && $DSLC lint a.dsl 2>/dev/null | grep -qv log-mask-debug)""", ["grep-qv"]),
    ("""$DSLC lint -q $F | grep -q "x"; $DSLC lint -q $F >/dev/null 2>&1; [ $? = 1 ]""", ["last-only"]),
    ("""$DSLC lint -q $F | grep -q "x" && exits 1 $DSLC lint -q $F""", []),
    ("""out=$($DSLC lint --color x $F 2>&1); [ $? = 2 ] && echo "$out" | grep -q takes""", []),
    ("""$DSLC lint $F | grep -q x; [ $? = 0 ]""", ["pipe-status"]),
    ("""[ -n '$v' ] && ! grep -q 'x' '$T/out' || { cat '$T/out'; }""", ["cat-passes"]),
    ("""[ -n '$v' ] && ! grep -q 'x' '$T/out' || cat '$T/out'""", ["cat-passes"]),
    ("""grep -q x '$T/out' || { cat '$T/out'; false; }""", []),
    ("""grep -q x '$T/out' || true""", ["always-true"]),
    ("""! grep -q scm-ram-volatile '$T/out'""", ["absent-only"]),
    ("""[ ! -e '$T/a/nodes/gpu014' ]""", ["absent-only"]),
    ("""[ ! -s '$T/untimed' ]""", ["absent-only"]),
    ("""[ $rc = 0 ] && [ ! -e '$T/a/nodes/gpu014' ]""", []),
    ("""for o in $(x); do grep -q "$o" f || exit 1; done""", []),
]
SELF_PIPED = [
    ("grep x f | while read -r a; do\n\tcheck \"$a\" \"[ -n '$a' ]\"\ndone", 1),
    ("while read -r a; do\n\tcheck \"$a\" \"[ -n '$a' ]\"\ndone < <(grep x f)", 0),
    ("grep x f | while read -r a; do\n\techo \"$a\"\ndone", 0),
]
SELF_VANISH = [
    ("command -v shellcheck >/dev/null && check \"x\" \"shellcheck f\"", 1),
    ("if command -v shellcheck >/dev/null; then\n\tcheck \"x\" \"shellcheck f\"\nfi", 1),
    ("if command -v shellcheck >/dev/null; then\n\tcheck \"x\" \"y\"\nelse\n\tskip_or_fail_in_ci z\nfi", 0),
]


def self_test():
    bad = []
    for cond, want in SELF:
        got = sorted(set(judge(cond) + (["grep-qv"] if GREP_QV.search(cond) else [])))
        if got != sorted(want):
            bad.append("%r: %s, not %s" % (cond, got, want))
    for text, want in SELF_VANISH:
        if len(vanishing(text.split("\n"))) != want:
            bad.append("%r: not %d vanishing" % (text, want))
    for text, want in SELF_PIPED:
        if len(piped_loops(text.split("\n"))) != want:
            bad.append("%r: not %d piped loops" % (text, want))
    for b in bad:
        print("FAIL test-patterns the checker itself: " + b)
    if not bad:
        print("ok   test-patterns the checker flags each of its %d bad cases and none of its good ones" % (len(SELF) + len(SELF_VANISH) + len(SELF_PIPED)))
    return len(bad)


def main(argv):
    fails = self_test()
    files = argv or sorted(glob.glob(os.path.join(ROOT, "tests", "*.sh")))
    hits = {p: [] for p in PATTERNS}
    for f in files:
        lines = open(f, encoding="utf-8", errors="replace").read().split("\n")
        rel = os.path.relpath(f, ROOT)
        for n, line in enumerate(lines, 1):
            if GREP_QV.search(line) and not line.lstrip().startswith("#") and not allowed(lines, n):
                hits["grep-qv"].append("%s:%d: %s" % (rel, n, line.strip()[:160]))
        for n, cond in conditions(lines):
            if allowed(lines, n):
                continue
            for p in judge(cond):
                hits[p].append("%s:%d: %s" % (rel, n, cond.strip()[:160]))
        for n in vanishing(lines):
            if not allowed(lines, n):
                hits["vanishes"].append("%s:%d: %s" % (rel, n, lines[n - 1].strip()[:160]))
        for n in piped_loops(lines):
            if not allowed(lines, n):
                hits["piped-loop"].append("%s:%d: %s" % (rel, n, lines[n - 1].strip()[:160]))
    for p in PATTERNS:
        if hits[p]:
            for h in hits[p]:
                print("FAIL test-patterns %s: %s" % (p, h))
                fails += 1
        else:
            print("ok   test-patterns no %s in %d test files" % (p, len(files)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
