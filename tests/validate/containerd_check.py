#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Issue 69 item 2: dslc's containerd files keep every setting of the node's own
configuration, on every containerd release line dslc accepts.

containerd 1.x: Debian's real containerd (1.6) is the judge. Realistic config.toml
shapes (NVIDIA as the default runtime, SystemdCgroup, a sandbox image mirror, a
registry config_path, CDI on; the CRI header written, absent, single-quoted or
commented; the key absent, false or true; no config.toml at all; drop-ins in
conf.d) are edited by the dslc-containerd-cri script dslc writes for a `containerd
1.6` node, and `containerd config dump` of the result must equal the dump before
but for device_ownership_from_security_context, now true; a second run changes
nothing. Shapes containerd 1.x cannot take the key from (a conf.d file naming the
CRI section, which then replaces it; a dotted-key CRI table) must be refused with
config.toml untouched. A second writer during the run, and two runs at once, are
tested too. The old conf.d drop-in is shown to reset the node's settings under
the real containerd, as issue 69 says.

containerd 2.x: no containerd 2 runs here, so tests/fakes/containerd2_model.py,
written from the tags' sources (cited there), loads the configuration; the fake
containerd in tests/fakes/containerd2 answers the script with it. For each
release (2.0.0, 2.0.1, 2.0.2, 2.1, 2.2, 2.3) and root shape (Azure Linux 3's
stock config.toml, version-3 and version-2 configurations with and without
imports), the configuration the daemon runs with must have the key true in
io.containerd.cri.v1.runtime and equal the root's alone otherwise."""
import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples/hgx-b200-k8s/cluster.dsl")
FAKE2 = os.path.join(ROOT, "tests/fakes/containerd2")
sys.path.insert(0, os.path.join(ROOT, "tests/fakes"))
import containerd2_model as model  # noqa: E402

KEY = "device_ownership_from_security_context"
CRI = 'plugins."io.containerd.grpc.v1.cri"'
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   containerd {name}")
    else:
        failed += 1
        print(f"FAIL containerd {name}: {str(detail)[:900]}")


def build(dslc, tmp, name, edits):
    text = open(EXAMPLE).read()
    for a, b in edits:
        assert a in text, a
        text = text.replace(a, b, 1)
    text = text.replace('include "../hgx-b200/hardware.dsl"', f'include "{ROOT}/examples/hgx-b200/hardware.dsl"')
    src = os.path.join(tmp, name + ".dsl")
    open(src, "w").write(text)
    out = os.path.join(tmp, name)
    r = subprocess.run([dslc, "build", src, "-o", out], capture_output=True, text=True)
    return src, out, r


def node_files(out):
    n = os.path.join(out, "nodes/gpu001")
    got = {}
    for d, _, fs in os.walk(n):
        for f in fs:
            rel = os.path.relpath(os.path.join(d, f), n)
            if "containerd" in rel:
                got[rel] = open(os.path.join(d, f)).read()
    return got


# ---------------------------------------------------------------- containerd 1.x shapes
FEATURES = ("nvidia", "systemd_cgroup", "sandbox", "registry", "cdi")


def runtime_lines(table, q, nvidia, nvidia_cgroup, runc):
    """A site's runtimes under its CRI section `table` (quotes q): NVIDIA's as the
    default, and runc with SystemdCgroup."""
    out = []
    if nvidia:
        out += [f"  [{table}.containerd]", f"    default_runtime_name = {q}nvidia{q}",
                f"    [{table}.containerd.runtimes.nvidia]", f"      runtime_type = {q}io.containerd.runc.v2{q}",
                f"      [{table}.containerd.runtimes.nvidia.options]",
                f"        BinaryName = {q}/usr/bin/nvidia-container-runtime{q}"]
        if nvidia_cgroup:
            out.append("        SystemdCgroup = true")
    if runc:
        out += [f"    [{table}.containerd.runtimes.runc]", f"      runtime_type = {q}io.containerd.runc.v2{q}",
                f"      [{table}.containerd.runtimes.runc.options]", "        SystemdCgroup = true"]
    return out


def root_text(shape):
    """A config.toml as sites write them for containerd 1.x (version 2)."""
    if shape["missing"]:
        return None
    q = "'" if shape["header"] == "single" else '"'
    cri = f"plugins.{q}io.containerd.grpc.v1.cri{q}"
    out = ["# site configuration", "version = 2"]
    if shape["imports"]:
        out.append(f'imports = ["{shape["confd"]}/*.toml"]')
    out.append("")
    top = []
    if "sandbox" in shape["features"]:
        top.append('  sandbox_image = "registry.example.com/k8s/pause:3.9"')
    if "cdi" in shape["features"]:
        top += ["  enable_cdi = true", '  cdi_spec_dirs = ["/etc/cdi", "/var/run/cdi"]']
    if shape["key"] is not None:
        top.append(f"  {KEY} = {'true' if shape['key'] else 'false'}")
    if shape["header"] == "dotted":
        out.append("[plugins]")
        out += ['  "io.containerd.grpc.v1.cri".' + t.strip() for t in top] or ['  "io.containerd.grpc.v1.cri".enable_selinux = false']
    elif shape["header"] != "none" or top:
        comment = "  # the CRI plugin" if shape["header"] == "comment" else ""
        out.append(f"[{cri}]{comment}")
        out += top
    cgroup = "systemd_cgroup" in shape["features"]
    sub = runtime_lines(cri, '"', "nvidia" in shape["features"], cgroup, cgroup)
    if "registry" in shape["features"]:
        sub += [f"  [{cri}.registry]", '    config_path = "/etc/containerd/certs.d"']
    if shape["header"] == "none" and not top and not sub:
        sub = [f"  [{cri}.cni]", '    conf_dir = "/etc/cni/net.d"']
    out += [""] + sub
    return "\n".join(out) + "\n"


def dropin_text(kind):
    if kind == "cri":  # a tool's drop-in naming the CRI plugin, e.g. a runtime installer's
        return f'version = 2\n[{CRI}.containerd]\n  default_runtime_name = "nvidia"\n'
    return 'version = 2\n[plugins."io.containerd.internal.v1.opt"]\n  path = "/opt/containerd"\n'


def real_dump(conf):
    r = subprocess.run(["containerd", "--config", conf, "config", "dump"], capture_output=True, text=True)
    if r.returncode:
        return None
    import tomllib
    d = tomllib.loads(r.stdout)
    d.pop("imports", None)
    return d


def without_key(d):
    d = json.loads(json.dumps(d))
    d.get("plugins", {}).get("io.containerd.grpc.v1.cri", {}).pop(KEY, None)
    return d


def key_of(d):
    return (d or {}).get("plugins", {}).get("io.containerd.grpc.v1.cri", {}).get(KEY)


def lines_without_key(text):
    return [ln for ln in (text or "").split("\n") if KEY not in ln and ln.strip()]


def run_script(script, conf, confd, lock, path=None, env_extra=None):
    env = dict(os.environ, DSLC_CONTAINERD_CONFIG=conf, DSLC_CONTAINERD_CONFD=confd, DSLC_LOCK=lock)
    if path:
        env["PATH"] = path + ":" + env["PATH"]
    env.update(env_extra or {})
    return subprocess.run(["sh", script], capture_output=True, text=True, env=env)


def shape_1x(rng):
    s = {"features": sorted(f for f in FEATURES if rng.random() < 0.6),
         "header": rng.choice(["top", "top", "none", "single", "comment", "dotted"]),
         "key": rng.choice([None, None, False, True]), "missing": rng.random() < 0.06,
         "imports": rng.random() < 0.5, "mode": rng.choice([0o644, 0o600])}
    s["dropins"] = rng.choice([[], ["other"], ["cri"]]) if s["imports"] else []
    return s


def expect_1x(s):
    """What containerd 1.x allows, from its loader: a conf.d file naming the CRI
    section replaces it (mergeConfig), so nothing in config.toml reaches it; a
    table defined by dotted keys cannot be opened again with a header (TOML)."""
    if s["missing"]:
        return "edited"
    if "cri" in s["dropins"]:
        return "refused-import" if s["key"] is not True else "already-or-refused"
    if s["key"] is True:
        return "already"
    if s["header"] == "dotted":
        return "refused"
    return "edited"


def one_1x(script, tmp, i, s, stats):
    d = os.path.join(tmp, f"r{i}")
    confd = os.path.join(d, "conf.d")
    os.makedirs(confd)
    conf = os.path.join(d, "config.toml")
    s["confd"] = confd
    text = root_text(s)
    if text is not None:
        open(conf, "w").write(text)
        os.chmod(conf, s["mode"])
    for j, kind in enumerate(s["dropins"]):
        open(os.path.join(confd, f"{10 + j}-{kind}.toml"), "w").write(dropin_text(kind))
    before = real_dump(conf) if text is not None else real_dump_empty(d)
    want = expect_1x(s)
    name = f"1.6 shape {i} {json.dumps({k: v for k, v in s.items() if k != 'confd'}, sort_keys=True)}"
    if before is None:
        check(f"{name}: the test's config.toml loads under containerd 1.6", False, text)
        return
    r = run_script(script, conf, confd, os.path.join(d, "lock"))
    after_text = open(conf).read() if os.path.exists(conf) else None
    if want.startswith("refused") or (want == "already-or-refused" and key_of(before) is not True):
        stats["refused"] += 1
        check(f"{name}: refused, config.toml unchanged", r.returncode == 1 and after_text == text and
              "is unchanged" in r.stderr and not os.path.exists(conf + ".dslc-orig"), (r.returncode, r.stderr))
        if want == "refused-import":
            check(f"{name}: the refusal names the imported file", "10-cri.toml" in r.stderr, r.stderr)
        return
    if want in ("already", "already-or-refused"):
        stats["already"] += 1
        check(f"{name}: already true, nothing written", r.returncode == 0 and after_text == text and
              "already" in r.stdout, (r.returncode, r.stdout, r.stderr))
        return
    stats["edited"] += 1
    after = real_dump(conf)
    check(f"{name}: edited (exit 0), and containerd 1.6 now takes {KEY} = true", r.returncode == 0 and key_of(after) is True,
          (r.returncode, r.stderr, after_text))
    check(f"{name}: every other setting of containerd's configuration is as before", after is not None and
          without_key(after) == without_key(before), after_text)
    check(f"{name}: every line of the site's file is kept, in order", text is None or [ln for ln in lines_without_key(after_text)
          if ln != f"[{CRI}]"] == [ln for ln in lines_without_key(text) if ln != f"[{CRI}]"], after_text)
    import tomllib
    try:
        tomllib.loads(after_text)
        strict = True
    except tomllib.TOMLDecodeError as e:
        strict = e
    check(f"{name}: the edited file is valid TOML 1.0 (a stricter parser reads it too)", strict is True, strict)
    if text is not None:
        check(f"{name}: the original is kept in config.toml.dslc-orig, the mode stays {oct(s['mode'])}",
              open(conf + ".dslc-orig").read() == text and stat.S_IMODE(os.stat(conf).st_mode) == s["mode"])
    r2 = run_script(script, conf, confd, os.path.join(d, "lock"))
    check(f"{name}: a second run changes nothing", r2.returncode == 0 and open(conf).read() == after_text and
          "already" in r2.stdout, (r2.returncode, r2.stderr))


def real_dump_empty(d):
    e = os.path.join(d, ".empty.toml")
    open(e, "w").close()
    return real_dump(e)


def old_dropin_resets(tmp):
    """The drop-in dslc wrote before (version 2, the key under both plugin names), under the
    real containerd 1.6: the site's runtimes, SystemdCgroup, sandbox image and registry are gone."""
    d = os.path.join(tmp, "old")
    confd = os.path.join(d, "conf.d")
    os.makedirs(confd)
    s = {"features": list(FEATURES), "header": "top", "key": None, "missing": False, "imports": True, "confd": confd}
    conf = os.path.join(d, "config.toml")
    open(conf, "w").write(root_text(s))
    before = real_dump(conf)
    open(os.path.join(confd, "50-dslc.toml"), "w").write(
        f'version = 2\n[{CRI}]\n  {KEY} = true\n[plugins."io.containerd.cri.v1.runtime"]\n  {KEY} = true\n')
    after = real_dump(conf)
    b, a = before["plugins"]["io.containerd.grpc.v1.cri"], after["plugins"]["io.containerd.grpc.v1.cri"]
    check("1.6: the old conf.d drop-in resets the site's CRI settings (the issue's finding, so the test can see it)",
          b["containerd"]["default_runtime_name"] == "nvidia" and a["containerd"]["default_runtime_name"] == "runc" and
          b["sandbox_image"] != a["sandbox_image"] and b["registry"]["config_path"] and not a["registry"]["config_path"],
          (b.get("sandbox_image"), a.get("sandbox_image")))


def wrapper(tmp, body):
    """A containerd on PATH that runs the real one, with `body` (sh) before it."""
    w = os.path.join(tmp, "wrap-" + str(abs(hash(body)) % 10**8))
    os.makedirs(w)
    real = shutil.which("containerd")
    open(os.path.join(w, "containerd"), "w").write(f"#!/bin/sh\n{body}\nexec {real} \"$@\"\n")
    os.chmod(os.path.join(w, "containerd"), 0o755)
    return w


def actors_1x(script, script2x, tmp):
    base = {"features": ["nvidia", "systemd_cgroup", "registry"], "header": "top", "key": None,
            "missing": False, "imports": False, "dropins": []}
    # another writer changes config.toml while the script checks its edit
    d = os.path.join(tmp, "actor")
    os.makedirs(d)
    conf = os.path.join(d, "config.toml")
    s = dict(base, confd=d)
    open(conf, "w").write(root_text(s))
    theirs = root_text(dict(s, features=["sandbox"]))
    open(os.path.join(d, "theirs"), "w").write(theirs)
    # the third containerd call is the dump of the edited file: the other writer acts then
    w = wrapper(tmp, f'n=$(cat "{d}/calls" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"{d}/calls"\n'
                     f'[ $n = 3 ] && cp "{d}/theirs" "{conf}"')
    r = run_script(script, conf, d, os.path.join(d, "lock"), path=w)
    check("a writer that changes config.toml during the run wins: refused, its content kept",
          r.returncode == 1 and "changed while" in r.stderr and open(conf).read() == theirs, (r.returncode, r.stderr))
    # two runs at once (the unit and an operator): one edits, the other finds it done
    d2 = os.path.join(tmp, "twice")
    os.makedirs(d2)
    conf2 = os.path.join(d2, "config.toml")
    open(conf2, "w").write(root_text(dict(base, confd=d2)))
    env = dict(os.environ, DSLC_CONTAINERD_CONFIG=conf2, DSLC_CONTAINERD_CONFD=d2, DSLC_LOCK=os.path.join(d2, "lock"))
    ps = [subprocess.Popen(["sh", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate() + (p.returncode,) for p in ps]
    text = open(conf2).read()
    check("two runs at once: both exit 0, one edits and one finds the key, which is written once",
          all(o[2] == 0 for o in outs) and sum("already" in o[0] for o in outs) == 1 and text.count(KEY) == 1 and
          key_of(real_dump(conf2)) is True, outs)
    # the node runs another release than the one it was built for
    d3 = os.path.join(tmp, "wrongrel")
    os.makedirs(d3)
    conf3 = os.path.join(d3, "config.toml")
    text3 = root_text(dict(base, confd=d3))
    open(conf3, "w").write(text3)
    r = run_script(script2x, conf3, d3, os.path.join(d3, "lock"))
    check("a node built for containerd 2.x that runs 1.6: refused, naming both, config.toml unchanged",
          r.returncode == 1 and "found containerd '1.6" in r.stderr and "built for containerd 2" in r.stderr and
          open(conf3).read() == text3, r.stderr)
    w = wrapper(tmp, 'case "$1" in --version) echo "containerd github.com/containerd/containerd/v2 v2.1.4 abc"; exit 0;; esac')
    r = run_script(script, conf3, d3, os.path.join(d3, "lock"), path=w)
    check("a node built for containerd 1.6 that runs 2.1.4: refused, config.toml unchanged",
          r.returncode == 1 and "found containerd '2.1.4'" in r.stderr and open(conf3).read() == text3, r.stderr)
    os.symlink(conf3, os.path.join(d3, "link.toml"))
    r = run_script(script, os.path.join(d3, "link.toml"), d3, os.path.join(d3, "lock"))
    check("a config.toml that is a symbolic link: refused, its target unchanged",
          r.returncode == 1 and "symbolic link" in r.stderr and open(conf3).read() == text3, r.stderr)
    w = wrapper(tmp, "exit 1")
    r = run_script(script, conf3, d3, os.path.join(d3, "lock"), path=w)
    check("containerd that cannot load config.toml: refused, unchanged", r.returncode == 1 and open(conf3).read() == text3, r.stderr)


# ---------------------------------------------------------------- containerd 2.x (the model)
RELEASES_2 = ("2.0.0", "2.0.1", "2.0.2", "2.1.4", "2.2.1", "2.3.0")
RUNTIME = "io.containerd.cri.v1.runtime"


def root_2x(shape, confd):
    """config.toml shapes of 2.x nodes: Azure Linux 3's stock file (version 3, no imports;
    microsoft/azurelinux SPECS/containerd2/containerd.toml), a site's version-3 file, and a
    version-2 file kept from containerd 1.x."""
    v, rich, imports = shape["version"], shape["rich"], shape["imports"]
    out = [f"version = {v}"]
    if imports:
        out.append(f"imports = ['{confd}/*.toml']")
    elif shape.get("imports_other"):  # a site's own drop-in directory
        out.append("imports = ['/etc/site/containerd/*.toml']")
    if v == 3:
        rt = "plugins.'io.containerd.cri.v1.runtime'"
        out += ["[plugins]", f"  [{rt}]"]
        if shape["key"] is not None:
            out.append(f"    {KEY} = {'true' if shape['key'] else 'false'}")
        if rich:
            out += ["    enable_cdi = true", "    cdi_spec_dirs = ['/etc/cdi', '/var/run/cdi']"]
        out += runtime_lines(rt, "'", rich, True, True)
        if rich:
            im = "plugins.'io.containerd.cri.v1.images'"
            out += [f"  [{im}]", f"    [{im}.pinned_images]", "      sandbox = 'registry.example.com/k8s/pause:3.10'",
                    f"    [{im}.registry]", "      config_path = '/etc/containerd/certs.d'"]
    else:
        c = 'plugins."io.containerd.grpc.v1.cri"'
        out += [f"[{c}]"]
        if shape["key"] is not None:
            out.append(f"  {KEY} = {'true' if shape['key'] else 'false'}")
        if rich:
            out += ['  sandbox_image = "registry.example.com/k8s/pause:3.9"', "  enable_cdi = true"]
        out += runtime_lines(c, '"', rich, True, True)
        if rich:
            out += [f"  [{c}.registry]", '    config_path = "/etc/containerd/certs.d"',
                    f"  [{c}.cni]", '    bin_dir = "/opt/cni/bin"', '    conf_dir = "/etc/cni/net.d"']
    return "\n".join(out) + "\n"


def daemon(release, conf):
    try:
        return model.view(model.load(release, conf, migrate=True))
    except model.LoadError as e:
        return {"error": str(e)}


def strip(v):
    v = json.loads(json.dumps(v))
    v.pop("imports", None)
    v.get("plugins", {}).get(RUNTIME, {}).pop(KEY, None)
    return v


def one_2x(files, declared, actual, shape, tmp, i, stats):
    d = os.path.join(tmp, f"m{i}")
    confd = os.path.join(d, "conf.d")
    os.makedirs(confd)
    conf = os.path.join(d, "config.toml")
    text = root_2x(shape, confd)
    open(conf, "w").write(text)
    if shape.get("site_dropin"):  # a file of the site's: read with the root when it imports conf.d, else applied by importing it
        open(os.path.join(confd, "10-site.toml"), "w").write(
            "[plugins.'io.containerd.cri.v1.images'.pinned_images]\n  sandbox = 'registry.example.com/other/pause:3.8'\n")
    alone = daemon(actual, conf)
    name = f"{actual} (built for {declared}) {json.dumps(shape, sort_keys=True)} #{i}"
    open(os.path.join(confd, "50-dslc.toml"), "w").write(files["etc/containerd/conf.d/50-dslc.toml"])
    script = os.path.join(d, "dslc-containerd-cri")
    open(script, "w").write(files["usr/local/sbin/dslc-containerd-cri"])
    r = run_script(script, conf, confd, os.path.join(d, "lock"), path=FAKE2, env_extra={"FAKE_CONTAINERD_RELEASE": actual})
    after = daemon(actual, conf)
    rt = after.get("plugins", {}).get(RUNTIME, {})
    early = model.line(actual) == "2.0-early"
    built_early = declared.startswith("2.0") and declared not in ("2.0.2",)
    if early and not built_early:
        stats["2.x refused: release"] += 1
        check(f"{name}: a drop-in for 2.0.2+ on {actual}: refused, config.toml unchanged",
              r.returncode == 1 and open(conf).read() == text and f"found containerd '{actual}'" in r.stderr, r.stderr)
        return
    if shape["imports_other"] and alone.get("plugins", {}).get(RUNTIME, {}).get(KEY) is not True:
        stats["2.x refused: site imports"] += 1
        check(f"{name}: the site's own imports are not rewritten: refused, unchanged",
              r.returncode == 1 and open(conf).read() == text and "add \"" in r.stderr, r.stderr)
        return
    if "error" in alone:
        check(f"{name}: the root loads", False, alone)
        return
    root_true = alone.get("plugins", {}).get(RUNTIME, {}).get(KEY) is True
    would = None
    if shape.get("site_dropin") and not shape["imports"] and not root_true:
        # what importing conf.d would make the daemon run with, by the model alone
        w = os.path.join(d, ".would.toml")
        open(w, "w").write(f"imports = ['{confd}/*.toml']\n" + text)
        would = daemon(actual, w)
        os.unlink(w)
    if would is not None and strip(would) != strip(alone):
        stats["2.x refused: more than the key"] += 1
        check(f"{name}: importing conf.d would apply the site's other file too: refused, unchanged",
              r.returncode == 1 and open(conf).read() == text and "would change more than" in r.stderr, (r.returncode, r.stderr))
        return
    stats["2.x edited" if "edited" in r.stdout else "2.x already"] += 1
    check(f"{name}: exit 0, and the daemon takes {KEY} = true in {RUNTIME}", r.returncode == 0 and rt.get(KEY) is True,
          (r.returncode, r.stderr, after.get("error")))
    check(f"{name}: every other setting the daemon runs with is the root's alone", strip(after) == strip(alone),
          (strip(alone), strip(after)))
    r2 = run_script(script, conf, confd, os.path.join(d, "lock"), path=FAKE2, env_extra={"FAKE_CONTAINERD_RELEASE": actual})
    check(f"{name}: a second run changes nothing", r2.returncode == 0 and "already" in r2.stdout, r2.stderr)


def model_findings(tmp):
    """The model is not a rubber stamp: it shows what the issue says the old drop-in did."""
    d = os.path.join(tmp, "model")
    os.makedirs(os.path.join(d, "conf.d"))
    conf = os.path.join(d, "config.toml")
    confd = os.path.join(d, "conf.d")
    open(conf, "w").write(root_2x({"version": 3, "rich": True, "imports": True, "key": None}, confd))
    old = f'version = 2\n[plugins."io.containerd.grpc.v1.cri"]\n  {KEY} = true\n[plugins."{RUNTIME}"]\n  {KEY} = true\n'
    open(os.path.join(confd, "50-dslc.toml"), "w").write(old)
    v = daemon("2.0.0", conf)
    check("model: on 2.0.0 the old version-2 drop-in replaces a version-3 root's runtime section (NVIDIA lost)",
          v["plugins"][RUNTIME].get("containerd", {}).get("default_runtime_name") is None, v["plugins"][RUNTIME])
    v = daemon("2.1.4", conf)
    check("model: on 2.1 the old drop-in keeps the runtime section (2.0.2+ copy missing keys)",
          v["plugins"][RUNTIME]["containerd"]["default_runtime_name"] == "nvidia", v["plugins"][RUNTIME])
    # why 2.0.0 and 2.0.1 get the key under both names: a version-2 root
    open(conf, "w").write(root_2x({"version": 2, "rich": True, "imports": True, "key": None}, confd))
    open(os.path.join(confd, "50-dslc.toml"), "w").write(f'[plugins."{RUNTIME}"]\n  {KEY} = true\n')
    check("model: on 2.0.0 a runtime-only drop-in is lost under a version-2 root",
          daemon("2.0.0", conf)["plugins"][RUNTIME].get(KEY) is False)
    check("model: on 2.0.2 it is kept", daemon("2.0.2", conf)["plugins"][RUNTIME].get(KEY) is True)
    open(os.path.join(confd, "50-dslc.toml"), "w").write(f"version = 3\n[plugins.\"{RUNTIME}\"]\n  {KEY} = true\n")
    check("model: on 2.3 a version-3 drop-in under a version-2 root stops containerd",
          "higher than root config version" in daemon("2.3.0", conf).get("error", ""))


def lint_checks(dslc, tmp):
    """The release from the OS, a declared one, and the error where neither tells it."""
    _, out, r = build(dslc, tmp, "rocky", [("os azurelinux3", "os rocky9")])
    check("rocky9 without `containerd`: an error at the os line, nothing written",
          r.returncode != 0 and "error[k8s-containerd-release]" in r.stderr and "rocky9 ships none" in r.stderr and
          not os.path.exists(out), r.stderr[-400:])
    m = re.search(r"help: write `(containerd [0-9.]+)`", r.stderr)
    check("the help proposes a containerd line", m is not None, r.stderr[-300:])
    if m:
        _, out, r = build(dslc, tmp, "rocky-fixed", [("os azurelinux3", f"os rocky9\n  {m.group(1)}")])
        check(f"the help applied (`{m.group(1)}`): builds, and writes the 1.x script", r.returncode == 0 and
              "usr/local/sbin/dslc-containerd-cri" in node_files(out), r.stderr[-300:])
    for bad, why in (("1.5", "not supported"), ("3.0", "not supported"), ("2.x", "not a containerd release"),
                     ("2.1.", "not a containerd release"), ("v2.1", "not a containerd release")):
        _, out, r = build(dslc, tmp, "bad", [("os azurelinux3", f"os azurelinux3\n  containerd {bad}")])
        check(f"`containerd {bad}` refused at its line ({why})", r.returncode != 0 and why in r.stderr and
              "cluster.dsl" not in r.stderr.split("error")[0], r.stderr[-300:])
        shutil.rmtree(out, ignore_errors=True)
    import tomllib
    for decl, both in (("2.0.0", True), ("2.0.1", True), ("2.0", True), ("2.0.2", False), ("2.3.1", False)):
        _, out, r = build(dslc, tmp, f"d{decl}", [("os azurelinux3", f"os azurelinux3\n  containerd {decl}")])
        f = node_files(out)
        t = tomllib.loads(f.get("etc/containerd/conf.d/50-dslc.toml", "x="))
        check(f"containerd {decl}: a drop-in without version, the key in {RUNTIME}{' and grpc.v1.cri' if both else ' only'}",
              r.returncode == 0 and "version" not in t and t.get("plugins", {}).get(RUNTIME, {}).get(KEY) is True and
              ("io.containerd.grpc.v1.cri" in t["plugins"]) == both, (r.stderr[-200:], t))
    _, out, r = build(dslc, tmp, "deb12", [("os azurelinux3", "os debian12")])
    f = node_files(out)
    check("debian12 (containerd 1.6): no conf.d drop-in; the script, its unit before containerd, a preset",
          r.returncode == 0 and "etc/containerd/conf.d/50-dslc.toml" not in f and
          "Before=containerd.service" in f.get("etc/systemd/system/dslc-containerd-cri.service", "") and
          "enable dslc-containerd-cri.service" in f.get("etc/systemd/system-preset/50-dslc-containerd.preset", "") and
          "dslc_built=edit" in f.get("usr/local/sbin/dslc-containerd-cri", ""), sorted(f))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: containerd_check.py DSLC [SHAPES_1X] [SHAPES_2X]")
    dslc = sys.argv[1]
    # CONTAINERD_SHAPES=n1,n2 for a quicker run (tests/mutate.sh)
    quick = os.environ.get("CONTAINERD_SHAPES", "").split(",")
    n1 = int(sys.argv[2]) if len(sys.argv) > 2 else int(quick[0]) if quick[0] else 120
    n2 = int(sys.argv[3]) if len(sys.argv) > 3 else int(quick[1]) if len(quick) > 1 else 150
    try:
        import tomllib  # noqa: F401
    except ImportError:
        print("skip containerd: python has no tomllib (3.11+)")
        return 0
    from collections import Counter
    stats = Counter()
    rng = random.Random(692)
    with tempfile.TemporaryDirectory(prefix="dslc-containerd-") as tmp:
        deb = lint_checks(dslc, tmp)
        script1 = os.path.join(deb, "nodes/gpu001/usr/local/sbin/dslc-containerd-cri")
        _, az, _ = build(dslc, tmp, "az", [])
        script2 = os.path.join(az, "nodes/gpu001/usr/local/sbin/dslc-containerd-cri")
        model_findings(tmp)
        if not shutil.which("containerd"):
            print("skip containerd 1.x: containerd is not installed (apt-get install containerd)")
        else:
            old_dropin_resets(tmp)
            actors_1x(script1, script2, tmp)
            seen = set()
            pinned = [dict(features=list(FEATURES), header="top", key=None, missing=False, imports=True, mode=0o644, dropins=["other"]),
                      dict(features=["sandbox"], header="dotted", key=None, missing=False, imports=False, mode=0o644, dropins=[]),
                      dict(features=["nvidia"], header="none", key=True, missing=False, imports=True, mode=0o600, dropins=[]),
                      dict(features=["registry"], header="top", key=None, missing=False, imports=True, mode=0o644, dropins=["cri"]),
                      dict(features=[], header="top", key=None, missing=True, imports=False, mode=0o644, dropins=[])]
            for i in range(n1):
                s = pinned[i] if i < len(pinned) else shape_1x(rng)
                one_1x(script1, tmp, i, s, stats)
                seen.add(expect_1x(s))
            for need in ("edited", "already", "refused", "refused-import"):
                check(f"the 1.x shapes reach `{need}`", need in seen, seen)
        trees = {}
        for decl in ("2.0", "2.0.2", "2.1", "2.3"):
            _, out, r = build(dslc, tmp, f"t{decl}", [("os azurelinux3", f"os azurelinux3\n  containerd {decl}")])
            trees[decl] = node_files(out)
        for i in range(n2):
            actual = RELEASES_2[i % len(RELEASES_2)]
            declared = rng.choice([d for d in trees if d[:3] == actual[:3]] or ["2.1"]) if rng.random() < 0.85 else rng.choice(list(trees))
            shape = {"version": rng.choice([2, 3, 3]), "rich": rng.random() < 0.7,
                     "key": rng.choice([None, None, False, True]), "imports": rng.random() < 0.5}
            shape["imports_other"] = not shape["imports"] and rng.random() < 0.15
            shape["site_dropin"] = rng.random() < 0.15
            if i == 0:  # Azure Linux 3's own config.toml and release
                actual, declared = "2.0.0", "2.0"
                shape = {"version": 3, "rich": False, "key": None, "imports": False, "imports_other": False}
            elif i == 1:  # a site's own imports
                actual, declared = "2.1.4", "2.1"
                shape = {"version": 3, "rich": True, "key": None, "imports": False, "imports_other": True}
            elif i == 2:  # built for 2.1, the node runs 2.0.1
                actual, declared = "2.0.1", "2.1"
                shape = {"version": 2, "rich": True, "key": None, "imports": True, "imports_other": False}
            elif i == 3:  # already true in a version-2 root on 2.3
                actual, declared = "2.3.0", "2.3"
                shape = {"version": 2, "rich": True, "key": True, "imports": True, "imports_other": False}
            elif i == 4:  # conf.d holds a site file config.toml does not import yet
                actual, declared = "2.2.1", "2.1"
                shape = {"version": 3, "rich": True, "key": None, "imports": False, "imports_other": False, "site_dropin": True}
            one_2x(trees[declared], declared, actual, shape, tmp, i, stats)
            shutil.rmtree(os.path.join(tmp, f"m{i}"), ignore_errors=True)
        for need in ("2.x edited", "2.x already", "2.x refused: release", "2.x refused: site imports",
                     "2.x refused: more than the key"):
            check(f"the 2.x variants reach `{need}` ({stats[need]})", stats[need] > 0, dict(stats))
    print(f"containerd: {dict(sorted(stats.items()))}")
    print(f"containerd: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
