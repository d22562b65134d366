#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The pictures of issue 75, checked by their consumers and against the plan
they draw:

- `dslc show FILE NODE --format svg` and `dslc plan ... --format svg` parsed
  by a real XML parser (Python's expat) and validated against the SVG 1.1
  DTD (xmllint, the DTD from Debian's w3c-sgml-lib); the same bytes twice;
  the golden SVGs of tests/golden/svg/ (reviewed by looking at them:
  `--update` rewrites them and renders each to a PNG beside it, under
  build/pictures/);
- what the node picture draws held against `dslc show --format json` of the
  same node: every core's role (the OS's, each engine's cores in the order
  DAOS's legacy allocator binds its xstreams, src/engine/srv.c
  dss_start_xs_id and dss_xstreams_init: the system and SWIM cores, then
  each target's main xstream followed by its helpers, or every target then
  every helper when the helpers are not a multiple of the targets,
  src/engine/init.c), the pods' or free cores, isolated cores, the drives
  no engine uses, and the other nodes of the hardware named with their
  difference;
- what the waves picture draws held against `dslc plan --format json`: the
  hosts of each wave in order, the access points marked, each wave's class;
  a refused plan draws no node; 16,384 nodes stay under 1 MiB;
- each picture rendered by Debian's headless Chromium, and the PNG read
  back: its size is the SVG's, and at every core, memory bar and wave node
  the pixel is the colour the SVG gives it (no blank, clipped or shifted
  picture); every role's colour differs from every other's;
- names that are not XML (a file name with < & " and bytes that are not
  UTF-8) escaped: the SVG stays well-formed and the text reads back;
- the progress line (issue 75 item 3): on a terminal (a pty) after
  DSLC_PROGRESS_DELAY, erased at the end; nothing when stderr is a pipe,
  with NO_PROGRESS or TERM=dumb.

usage: tests/pictures.py DSLC [--update | --no-render]
"""
import json
import os
import pty
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DSLC = [os.path.abspath(a) if "/" in a and os.path.exists(a) else a for a in shlex.split(sys.argv[1])]
UPDATE = "--update" in sys.argv[2:]
# the ASan pass: the same pictures and checks, not drawn again by Chromium
# (the plain pass renders them; the renderer does not depend on dslc's build)
RENDER = "--no-render" not in sys.argv[2:]
DTD = "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd"
NS = "{http://www.w3.org/2000/svg}"
GOLDEN = os.path.join(REPO, "tests", "golden", "svg")
IN_CI = bool(os.environ.get("CI"))
passed = failed = skipped = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   pictures {name}")
    else:
        failed += 1
        print(f"FAIL pictures {name}{': ' + str(detail)[:1500] if detail else ''}")


def skip(name, why):
    """A consumer that is absent: said, and a failure in CI, which installs it."""
    global skipped
    if IN_CI:
        result(False, name, f"{why} (CI installs it: scripts/install-deps.sh)")
        return
    skipped += 1
    print(f"skip pictures {name}: {why}")


def dslc(*args, cwd=REPO):
    return subprocess.run(DSLC + list(args), cwd=cwd, capture_output=True)


def chromium():
    for c in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(c):
            return shutil.which(c)
    return None


# ---- PNG, as Chromium writes it (8-bit RGB or RGBA, not interlaced) ---------

def png_read(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


def render(svg_path, png_path):
    """The SVG in Chromium, headless, at its own size; (w, h, pixel) or None."""
    root = ET.parse(svg_path).getroot()
    w, h = int(root.get("width")), int(root.get("height"))
    r = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--force-device-scale-factor=1", f"--window-size={w},{h}", f"--screenshot={png_path}",
                        "file://" + os.path.abspath(svg_path)], capture_output=True, timeout=120)
    if r.returncode != 0 or not os.path.exists(png_path):
        return None, r.stderr.decode(errors="replace")[-800:]
    return png_read(png_path), ""


def hexrgb(s):
    return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))


def near(a, b, tol=6):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def rects(root):
    for r in root.iter(NS + "rect"):
        yield r, r.get("class", "").split(), float(r.get("x")), float(r.get("y")), float(r.get("width")), float(r.get("height"))


def title_of(el):
    t = el.find(NS + "title")
    return t.text if t is not None else ""


# ---- consumers ---------------------------------------------------------------

def xml_checks(name, path, tmp):
    """Parsed, DTD-valid, self-contained."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        result(False, f"{name}: a real XML parser reads it", e)
        return None
    text = open(path, encoding="utf-8").read()
    result(root.tag == NS + "svg" and root.find(NS + "title") is not None and root.find(NS + "desc") is not None
           and "<script" not in text and "href" not in text and "@font-face" not in text and "<image" not in text,
           f"{name}: one <svg> with <title> and <desc>, no script, link, image or font to fetch")
    if not shutil.which("xmllint") or not os.path.exists(DTD):
        skip(f"{name}: valid against the SVG 1.1 DTD", "xmllint or Debian's w3c-sgml-lib is missing")
    else:
        r = subprocess.run(["xmllint", "--noout", "--nonet", "--dtdvalid", DTD, path], capture_output=True, text=True)
        result(r.returncode == 0, f"{name}: valid against the SVG 1.1 DTD (xmllint --dtdvalid)", r.stderr)
    return root


def golden(name, path, tmp):
    want = os.path.join(GOLDEN, name + ".svg")
    got = open(path, "rb").read()
    if UPDATE:
        with open(want, "wb") as f:
            f.write(got)
        os.makedirs(os.path.join(REPO, "build", "pictures"), exist_ok=True)
        if chromium():
            render(path, os.path.join(REPO, "build", "pictures", name + ".png"))
        print(f"updated {want} (look at build/pictures/{name}.png before committing it)")
        return
    exists = os.path.exists(want)
    result(exists and open(want, "rb").read() == got, f"{name}: the golden SVG tests/golden/svg/{name}.svg",
           "differs (review: tests/pictures.py DSLC --update, then look at build/pictures/)" if exists else "missing")


def pixels(name, root, path, tmp, classes):
    """Chromium draws each rect of these classes in its own colour, where the SVG puts it."""
    if not RENDER:
        return
    if not chromium():
        skip(f"{name}: rendered by Chromium", "Debian's chromium is missing")
        return
    png = os.path.join(tmp, name + ".png")
    got, err = render(path, png)
    if got is None:
        result(False, f"{name}: rendered by headless Chromium", err)
        return
    w, h, px = got
    result((w, h) == (int(root.get("width")), int(root.get("height"))),
           f"{name}: the PNG is the SVG's size ({w}x{h})", (w, h))
    bad, seen = [], 0
    for r, cls, x, y, rw, rh in rects(root):
        if not cls or cls[0] not in classes or r.get("fill") in (None, "none"):
            continue
        # clear of the label (a core's at its top, a row's at its left) and
        # of the inner outline that marks an isolated core or an access point
        if cls[0] == "core":
            sx, sy = int(x + rw / 2), int(y + rh - 6)
        elif cls[0] in ("drive", "nic", "gpu"):
            sx, sy = int(x + rw - 4), int(y + rh / 2)
        else:
            sx, sy = int(x + rw * 0.85), int(y + rh / 2)
        if sx >= w or sy >= h:
            bad.append(f"{' '.join(cls)} at {sx},{sy} outside the picture")
            continue
        seen += 1
        if not near(px(sx, sy), hexrgb(r.get("fill"))):
            bad.append(f"{' '.join(cls)} at {sx},{sy}: {px(sx, sy)} not {r.get('fill')}")
    result(seen > 0 and not bad, f"{name}: {seen} boxes drawn in their colours where the SVG puts them", bad[:8])


# ---- the node picture ---------------------------------------------------------

def xstream_roles(ncores, targets, helpers):
    """What DAOS's legacy allocator runs on each of an engine's cores
    (src/engine/srv.c dss_start_xs_id: xstream 0 and dRPC on the first core,
    SWIM on the second, xstream k+1 on core k; dss_xstreams_init: targets'
    main xstreams each followed by their helpers, or all targets then all
    helpers when helpers % targets != 0, dss_helper_pool in init.c)."""
    roles = ["system", "system"]
    if helpers % targets:
        roles += ["target"] * targets + ["helper"] * helpers
    else:
        for _ in range(targets):
            roles += ["target"] + ["helper"] * (helpers // targets)
    return roles + ["spare"] * (ncores - len(roles))


def cpus_of(spec):
    out = set()
    for part in filter(None, spec.split(",")):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def node_checks(name, root, plan, isolated=None):
    cores = {}
    for r, cls, *_ in rects(root):
        if cls and cls[0] == "core":
            m = re.match(r"core (\d+) \(CPUs ([\d,]+)\)", title_of(r))
            cores[int(m.group(1))] = (cls[1:], {int(c) for c in m.group(2).split(",")})
    want = {}
    for n in plan["numa_nodes"]:
        for c in n["cores"]:
            want[c] = ["pods"] if "kubernetes_cpus" in n else ["free"]
        for c in n["os_cores"]:
            want[c] = ["os"]
        e = n["engine"]
        if e:
            for c, role in zip(e["cores"], xstream_roles(len(e["cores"]), e["targets"], e["helpers"])):
                want[c] = [f"engine{e['index']}", role]
    got = {c: v[0] for c, v in cores.items()}
    result(got == want, f"{name}: every core's role as the plan has it (OS, each engine's xstreams in DAOS's "
           "order, pods or free)", {c: (got.get(c), want.get(c)) for c in set(got) | set(want) if got.get(c) != want.get(c)})
    if isolated is not None:
        iso = {c for r, cls, *_ in rects(root) if cls and cls[0] == "core" and "isolated" in title_of(r)
               for c in [int(re.match(r"core (\d+)", title_of(r)).group(1))]}
        want_iso = {c for c, (_, pus) in cores.items() if pus & isolated}
        result(iso == want_iso and iso, f"{name}: the cores of the kernel's isolcpus marked isolated ({len(iso)})",
               (sorted(iso), sorted(want_iso)))
    used = {d for n in plan["numa_nodes"] if n["engine"] for d in n["engine"]["bdev_list"]}
    drives = {d for n in plan["numa_nodes"] for d in n["nvme"]}
    unused = {re.match(r"NVMe drive (\S+)", title_of(r)).group(1).rstrip(":") for r, cls, *_ in rects(root) if cls[:2] == ["drive", "unused"]}
    result(unused == drives - used, f"{name}: the drives no engine uses marked ({sorted(unused)})", sorted(drives - used))


def show_pictures(tmp):
    h = os.path.join(REPO, "examples", "hgx-b200", "cluster.dsl")
    cases = [("hgx-b200-gpu001", h, "gpu001"), ("hgx-b200-gpu007", h, "gpu007"),
             ("aurora-like-daos0001", os.path.join(REPO, "examples", "aurora-like", "cluster.dsl"), "daos0001"),
             ("md-on-ssd-st01", os.path.join(REPO, "examples", "md-on-ssd", "cluster.dsl"), "st01"),
             ("hgx-b200-k8s-gpu001", os.path.join(REPO, "examples", "hgx-b200-k8s", "cluster.dsl"), "gpu001")]
    # the IO500 layout: the engines' cores isolated
    iso = os.path.join(tmp, "iso")
    shutil.copytree(os.path.join(REPO, "examples", "aurora-like"), iso)
    text = open(os.path.join(iso, "cluster.dsl")).read().replace("  kernel { iommu pt }", "  kernel { iommu pt  isolate engines }", 1)
    open(os.path.join(iso, "cluster.dsl"), "w").write(text)
    cases.append(("aurora-like-isolated", os.path.join(iso, "cluster.dsl"), "daos0002"))
    for name, src, host in cases:
        path = os.path.join(tmp, name + ".svg")
        r = dslc("show", src, host, "--format", "svg")
        open(path, "wb").write(r.stdout)
        result(r.returncode == 0 and r.stdout.startswith(b"<?xml"), f"{name}: dslc show --format svg exits 0",
               r.stderr.decode(errors="replace")[-600:])
        if r.returncode:
            continue
        result(dslc("show", src, host, "--format", "svg").stdout == r.stdout, f"{name}: the same bytes twice")
        root = xml_checks(name, path, tmp)
        if root is None:
            continue
        j = dslc("show", src, host, "--format", "json")
        plan = json.loads(j.stdout)
        isolated = None
        if name.endswith("isolated"):  # the kernel command line the build writes for the node
            out = os.path.join(tmp, "iso-out")
            dslc("build", src, "-o", out)
            found = [m.group(1) for top, _, files in os.walk(os.path.join(out, "nodes", host)) for f in files
                     for m in [re.search(r"isolcpus=([\d,-]+)", open(os.path.join(top, f), errors="replace").read())] if m]
            isolated = cpus_of(found[0]) if found else set()
        node_checks(name, root, plan, isolated)
        if name != "aurora-like-isolated":
            golden(name, path, tmp)
        pixels(name, root, path, tmp, {"core", "mem", "drive", "nic", "gpu"})
        texts = " ".join(t.text or "" for t in root.iter(NS + "text"))
        result(host in texts and (plan["hardware"] in texts), f"{name}: the node and its hardware named in text a reader finds")
    # gpu007's own drive excluded: named under gpu001's picture, and the reverse
    root = ET.parse(os.path.join(tmp, "hgx-b200-gpu001.svg")).getroot()
    texts = [t.text or "" for t in root.iter(NS + "text")]
    g7 = json.loads(dslc("show", h, "gpu007", "--format", "json").stdout)
    g1 = json.loads(dslc("show", h, "gpu001", "--format", "json").stdout)
    lost = sorted({d for n in g1["numa_nodes"] if n["engine"] for d in n["engine"]["bdev_list"]} -
                  {d for n in g7["numa_nodes"] if n["engine"] for d in n["engine"]["bdev_list"]})
    line = [t for t in texts if t.startswith("Except gpu007")]
    result(len(lost) == 1 and line and lost[0] in line[0] and "does not use" in line[0],
           f"gpu001's picture names gpu007's exception: the drive it does not use ({lost})", line)
    line = [t for t in texts if t.startswith("This plan: ")]
    result(line and "gpu[001-006,008-014]" in line[0], "gpu001's picture names the nodes that share its plan", line)


# ---- the waves picture ----------------------------------------------------------

def expand(hosts):
    m = re.match(r"^(.*)\[(.*)\]$", hosts)
    if not m:
        return hosts.split(",")
    out = []
    for part in m.group(2).split(","):
        lo, _, hi = part.partition("-")
        out += [f"{m.group(1)}{i:0{len(lo)}d}" for i in range(int(lo), int(hi or lo) + 1)]
    return out


def plan_pictures(tmp):
    ex = os.path.join(tmp, "ex")
    shutil.copytree(os.path.join(REPO, "examples", "hgx-b200"), ex)
    src = open(os.path.join(ex, "cluster.dsl")).read()
    variants = {
        "old": src.replace("tolerate 2 node failures", "tolerate 3 node failures"),
        "restart": src.replace("tolerate 2 node failures", "tolerate 3 node failures").replace(
            "swim_suspect_timeout 120s", "swim_suspect_timeout 60s"),
        "aps": src.replace("access_points        gpu[001-003]", "access_points        gpu[004-006]"),
    }
    for k, v in variants.items():
        open(os.path.join(ex, k + ".dsl"), "w").write(v)
    result(variants["restart"] != variants["old"] and variants["aps"] != src, "the plan variants change what they mean to")
    name, path = "plan-restart", os.path.join(tmp, "plan-restart.svg")
    args = ["plan", "restart.dsl", "--against-source", "old.dsl"]
    r = dslc(*args, "--format", "svg", cwd=ex)
    open(path, "wb").write(r.stdout)
    result(r.returncode == 3, f"{name}: plan --format svg exits 3 (changes)", r.stderr.decode(errors="replace")[-600:])
    root = xml_checks(name, path, tmp)
    if root is not None:
        waves = json.loads(dslc(*args, "--format", "json", cwd=ex).stdout)["rollout"]["waves"]
        cols = [g for g in root.iter(NS + "g") if g.get("class") == "wave"]
        drawn = [[title_of(r).split(" ")[0].rstrip(":") for r, cls, *_ in rects(g) if cls[:1] == ["node"]] for g in cols]
        result(drawn == [expand(w["hosts"]) for w in waves], f"{name}: each wave's column holds its nodes, in order ({len(cols)} waves)",
               (drawn, [w["hosts"] for w in waves]))
        aps = {title_of(r).split(" ")[0].rstrip(":") for g in cols for r, cls, *_ in rects(g) if "ap" in cls}
        result(aps == {"gpu001", "gpu002", "gpu003"}, f"{name}: the access points marked ({sorted(aps)})")
        kinds = [{c for r, cls, *_ in rects(g) for c in cls if c.startswith("class-")} for g in cols]
        result(kinds == [{"class-" + w["classes"][0]} for w in waves], f"{name}: each wave coloured by its most disruptive class", kinds)
        golden(name, path, tmp)
        pixels(name, root, path, tmp, {"node"})
        # markdown links the picture written beside it, whole
        pic = os.path.join(tmp, "plan-markdown.svg")
        md = dslc(*args, "--format", "markdown", "--picture", pic, cwd=ex)
        result(md.returncode == 3 and f"![The rollout's waves]({pic})".encode() in md.stdout and open(pic, "rb").read() == r.stdout,
               "markdown with --picture links the SVG it wrote, the same bytes as --format svg")
    # refused: words, no wave drawn
    r = dslc("plan", "aps.dsl", "--against-source", "cluster.dsl", "--format", "svg", cwd=ex)
    path = os.path.join(tmp, "plan-refused.svg")
    open(path, "wb").write(r.stdout)
    root = xml_checks("plan-refused", path, tmp)
    if root is not None:
        texts = " ".join(t.text or "" for t in root.iter(NS + "text"))
        nodes = [r for r, cls, *_ in rects(root) if cls[:1] == ["node"]]
        result(r.returncode == 4 and not nodes and "Refused" in texts and "access point" in texts,
               "a refused plan: exit 4, nothing drawn, the reason in words", (r.returncode, len(nodes), texts[:300]))
    # 16,384 nodes: alike waves grouped, under 1 MiB
    def big(text):
        for a, b in (("gpu[001-014]", "gpu[00001-16384]"), ("gpu[001-003]", "gpu[00001-00003]"), ("node gpu007", "node gpu00007")):
            text = text.replace(a, b)
        text = re.sub(r"10\.(\d+)\.0\.\{10\+i\}", r"10.\1.{i/200}.{10+i%200}", text)
        return text.replace(".0.{100+i}", ".250.{10+i}")
    open(os.path.join(ex, "big-old.dsl"), "w").write(big(variants["old"]))
    open(os.path.join(ex, "big-new.dsl"), "w").write(big(variants["restart"]))
    r = dslc("plan", "big-new.dsl", "--against-source", "big-old.dsl", "--format", "svg", cwd=ex)
    path = os.path.join(tmp, "plan-big.svg")
    open(path, "wb").write(r.stdout)
    root = xml_checks("plan-big", path, tmp)
    if root is not None:
        cols = [g for g in root.iter(NS + "g") if (g.get("class") or "").startswith("wave")]
        result(r.returncode == 3 and len(r.stdout) < 1 << 20 and len(cols) <= 30 and "gpu[00004-16383]" in r.stdout.decode(),
               f"16,384 nodes in 8,194 waves: {len(r.stdout)} bytes, {len(cols)} columns (alike waves one column)",
               (r.returncode, len(r.stdout), len(cols)))


# ---- hostile names -----------------------------------------------------------------

def hostile(tmp):
    d = os.path.join(tmp, "hostile")
    shutil.copytree(os.path.join(REPO, "examples", "hgx-b200"), d)
    name = b'a<b>&"c\'\xff\x01.dsl'
    dst = os.path.join(d.encode(), name)
    os.rename(os.path.join(d, "cluster.dsl").encode(), dst)
    src = open(dst, "rb").read()
    open(os.path.join(d.encode(), b"new.dsl"), "wb").write(src.replace(b"swim_suspect_timeout 120s", b"swim_suspect_timeout 60s"))
    r = subprocess.run(DSLC + [b"plan", b"new.dsl", b"--against-source", name, b"--format", b"svg"], cwd=d, capture_output=True)
    path = os.path.join(tmp, "hostile.svg")
    open(path, "wb").write(r.stdout)
    try:
        root = ET.parse(path).getroot()
        title = root.find(NS + "title").text
        ok = r.returncode == 3 and 'a<b>&"c\'\ufffd\ufffd.dsl' in title
    except (ET.ParseError, AttributeError) as e:
        ok, title = False, e
    result(ok, "a file name with < > & \" ' and bytes that are not UTF-8: escaped, the SVG well-formed, the name reads back", title)


# ---- progress ------------------------------------------------------------------------

def on_tty(argv, env):
    """argv with stderr (and stdout) on a pty: what the terminal got."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(env)
        os.execvp(argv[0], argv)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, st = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(st), out


def progress(tmp):
    src = os.path.join(REPO, "examples", "hgx-b200", "cluster.dsl")
    env = {"DSLC_PROGRESS_DELAY": "0", "TERM": "xterm"}
    env_off = dict(env, NO_PROGRESS="1")
    rc, out = on_tty(DSLC + ["build", src, "-o", os.path.join(tmp, "p1")], env)
    lines = re.findall(rb"\rdslc: building nodes (\d+)/18 \(\d+%\)\x1b\[K", out)
    result(rc == 0 and lines and b"\r\x1b[K" in out, f"build on a terminal: a progress line ({len(lines)} redraws of n/18), erased at the end",
           out[:400])
    clean = re.sub(rb"\rdslc: building nodes [^\r]*\x1b\[K|\r\x1b\[K", b"", out)
    rc2, plain = on_tty(DSLC + ["build", src, "-o", os.path.join(tmp, "p2")], env_off)
    # the whole output path, not "p1": a temporary folder such as /tmp/tmp8esqp1i0 holds "p1" too
    p1, p2 = os.path.join(tmp, "p1").encode(), os.path.join(tmp, "p2").encode()
    result(clean.replace(p1, p2) == plain, "with the progress line erased, the terminal reads as with NO_PROGRESS",
           (clean[:300], plain[:300]))
    rc3, dumb = on_tty(DSLC + ["build", src, "-o", os.path.join(tmp, "p3")], dict(env, TERM="dumb"))
    result(b"building nodes" not in plain and b"building nodes" not in dumb, "NO_PROGRESS and TERM=dumb: no progress line")
    p = subprocess.run(DSLC + ["build", src, "-o", os.path.join(tmp, "p4")], capture_output=True,
                       env=dict(os.environ, **env))
    result(p.returncode == 0 and b"building nodes" not in p.stderr and b"\x1b" not in p.stderr,
           "stderr a pipe (a CI log): no progress line, no escape")
    # a healthy node as the kernel lays it out (tests/doctor_roots.py), collected, then the fleet checked
    sys.path.insert(0, os.path.join(REPO, "tests"))
    from doctor_roots import make_root
    xml = os.path.join(REPO, "examples", "hgx-b200", "hgx-b200.xml")
    root = make_root(os.path.join(tmp, "p1", "nodes", "gpu001"), xml, os.path.join(tmp, "root"))
    snaps = os.path.join(tmp, "snaps")
    os.makedirs(snaps)
    rc, out = on_tty(DSLC + ["doctor", src, "--node", "gpu001", "--root", root, "--topology", xml, "--collect",
                             os.path.join(snaps, "gpu001")], env)
    result(re.search(rb"\rdslc: collecting: reading the machine\x1b\[K", out) is not None and b"\r\x1b[K" in out,
           "doctor --collect on a terminal: its phases on one line, erased", out[:300])
    c = subprocess.CompletedProcess([], rc, b"", out)
    if c.returncode in (0, 1) and os.path.isdir(os.path.join(snaps, "gpu001")):
        rc, out = on_tty(DSLC + ["doctor", src, "--snapshots", snaps], env)
        result(re.search(rb"\rdslc: checking snapshots \d+/18 \(\d+%\)\x1b\[K", out) is not None,
               "doctor --snapshots on a terminal: a progress line over the fleet", out[:300])
    else:
        result(False, "doctor --collect made a snapshot to check", c.stderr[-400:])


# ---- SPEC.md: the colours it explains, the pictures it shows ----------------------------

def spec_agrees(tmp):
    """Every colour row of SPEC.md's picture tables is a key of a legend the
    pictures draw, with its label; every legend key is a row; the PNGs it
    shows were rendered from the golden SVGs at their size (a layout change
    makes them stale)."""
    spec = open(os.path.join(REPO, "SPEC.md")).read()
    sections = re.findall(r"#### Pictures: .*?(?=\n#### )", spec, re.S)
    rows = [re.findall(r"^\| `(#[0-9a-f]{6})` \| ([^|]*?) \|", sec, re.M) for sec in sections]
    node_rows = dict((label.strip(), hx) for hx, label in rows[0]) if rows else {}
    node_keys, wave_keys = {}, {}
    for f in sorted(os.listdir(tmp)) + ["golden:" + g for g in sorted(os.listdir(GOLDEN))]:
        path = os.path.join(GOLDEN, f[7:]) if f.startswith("golden:") else os.path.join(tmp, f)
        if not path.endswith(".svg"):
            continue
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        waves = os.path.basename(path).startswith(("plan", "hostile"))
        for g in root.iter(NS + "g"):
            kids = list(g)
            for i, el in enumerate(kids if g.get("class") == "legend" else []):
                cls = (el.get("class") or "").split()
                if el.tag != NS + "rect" or "key" not in cls or i + 1 == len(kids):
                    continue
                if waves:
                    wave_keys.update({c[6:]: el.get("fill") for c in cls if c.startswith("class-")})
                    continue
                label = kids[i + 1].text
                if not re.match(r"engine [23] ", label):  # engines 2 and 3: SPEC names their hues
                    node_keys[label] = el.get("stroke") if label.startswith("isolated") else el.get("fill")
    result(len(sections) == 2 and node_rows == node_keys, "SPEC.md's node picture table is the legend the pictures draw",
           {k: (node_rows.get(k), node_keys.get(k)) for k in set(node_rows) | set(node_keys) if node_rows.get(k) != node_keys.get(k)})
    wave_rows = {c.strip(): hx for hx, label in (rows[1] if len(rows) > 1 else []) for c in label.split("(")[0].split(",")}
    result(wave_keys and all(wave_rows.get(k) == v for k, v in wave_keys.items()),
           f"SPEC.md's class colours are those the waves pictures draw ({sorted(wave_keys)})", (wave_keys, wave_rows))
    for png, svg in (("hgx-b200-gpu007.png", "hgx-b200-gpu007.svg"), ("plan-restart.png", "plan-restart.svg")):
        path = os.path.join(REPO, "docs", "pictures", png)
        shown = f"](docs/pictures/{png})" in spec
        ok = shown and os.path.exists(path)
        if ok:
            w, h, _ = png_read(path)
            root = ET.parse(os.path.join(GOLDEN, svg)).getroot()
            ok = (w, h) == (int(root.get("width")), int(root.get("height")))
        result(ok, f"SPEC.md shows docs/pictures/{png}, rendered from tests/golden/svg/{svg} at its size")


with tempfile.TemporaryDirectory() as tmp:
    for t in (show_pictures, plan_pictures, hostile, progress, spec_agrees):
        t(tmp)
print(f"pictures: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
