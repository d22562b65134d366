# SPDX-License-Identifier: BSD-2-Clause-Patent
"""containerd 2.x's configuration loader, written from each tag's source, for
the tests of dslc's containerd files (no containerd 2 runs here: Debian ships
1.6). What the daemon runs with is `load(release, path, migrate=True)`; the
fake containerd (containerd2/containerd) prints it for `config migrate` and,
on 2.0.x, the unmigrated merge for `config dump`.

- LoadConfig, 2.0.0-2.2.x (cmd/containerd/server/config/config.go:292 at
  v2.0.0): files in import order; a file of version 0 or 1 is migrated to the
  merged version so far (`case 0, 1`, line 316), any other is merged as it is;
  the merge (mergeConfig, line 432) is mergo.Merge WithOverride with
  sliceTransformer: a non-zero scalar overrides (`version` too), top-level
  lists are unions, plugin maps merge key by key (dario.cat/mergo merge.go
  deepMerge: a map into a map recurses, a list into a non-empty list is kept).
- The daemon then migrates the merged configuration when its version is
  below 3 (cmd/containerd/server/server.go:253): every plugin's
  ConfigMigration. `config migrate` does the same (command/config.go:120);
  `config dump` does not before 2.1 (line 95), from 2.1 it is dumpConfig,
  which does.
- LoadConfigWithPlugins, 2.3+ (config.go:451 at v2.3.0): the first file's
  version is the root's, a file above it is an error ("drop-in config version
  %d higher than root config version %d"); every file below the merged
  version is migrated on its own, plugins' migrations included, before the
  merge; the daemon migrates nothing after.
- The CRI runtime plugin's migration (plugins/cri/runtime/plugin.go): 2.0.0
  and 2.0.1 (line 54) make io.containerd.cri.v1.runtime the
  io.containerd.grpc.v1.cri section itself; 2.0.2 on (configMigration, line
  189, migrateConfig 206) copy into it only the keys it lacks, minus those
  that moved to the images plugin or the CRI server; from 2.1.0 the cni
  section too, bin_dir as bin_dirs. The images plugin's
  (plugins/cri/images/plugin.go:151) takes sandbox_image as
  pinned_images.sandbox and copies registry and the pull settings.
- Version migrations (config.go:46): 0 is 1; 1 to 2 renames short plugin
  names (v1MigratePluginName); 2 to 3 has plugin changes only."""
import copy
import re
import tomllib

CRI = "io.containerd.grpc.v1.cri"
RUNTIME = "io.containerd.cri.v1.runtime"
IMAGES = "io.containerd.cri.v1.images"
V1_NAMES = {"cri": CRI, "cgroups": "io.containerd.monitor.v1.cgroups", "linux": "io.containerd.runtime.v1.linux",
            "scheduler": "io.containerd.gc.v1.scheduler", "bolt": "io.containerd.metadata.v1.bolt",
            "task": "io.containerd.runtime.v2.task", "opt": "io.containerd.internal.v1.opt",
            "overlayfs": "io.containerd.snapshotter.v1.overlayfs"}
# keys the runtime migration leaves behind (plugin.go migrateConfig's skips)
TO_IMAGES = ("sandbox_image", "registry", "image_decryption", "max_concurrent_downloads",
             "image_pull_progress_timeout", "image_pull_with_sync_fs", "stats_collect_period")
TO_SERVER = ("disable_tcp_service", "stream_server_address", "stream_server_port", "stream_idle_timeout",
             "enable_tls_streaming", "x509_key_pair_streaming")
# the CRI server's own configuration in 2.x (criconfig.ServerConfig): all the
# grpc.v1.cri plugin decodes; any other key there is logged and dropped
SERVER_KEYS = TO_SERVER
# defaults the runtime plugin prints for keys not set (criconfig.DefaultRuntimeConfig, in part)
RUNTIME_DEFAULTS = {"device_ownership_from_security_context": False, "enable_selinux": False,
                    "max_container_log_line_size": 16384, "enable_cdi": True}
# and the images plugin's and the CRI server's (DefaultImageConfig, DefaultServerConfig, in part)
IMAGES_DEFAULTS = {"snapshotter": "overlayfs", "max_concurrent_downloads": 3, "image_pull_progress_timeout": "5m0s"}
SERVER_DEFAULTS = {"disable_tcp_service": True, "stream_server_address": "127.0.0.1", "stream_server_port": "0",
                   "stream_idle_timeout": "4h0m0s", "enable_tls_streaming": False}


class LoadError(Exception):
    pass


def line(release):
    """'2.0-early' (2.0.0, 2.0.1), '2.0-2.2' or '2.3+'."""
    major, minor, patch = (int(x) for x in re.match(r"(\d+)\.(\d+)\.(\d+)", release).groups())
    assert major == 2, release
    if minor == 0 and patch < 2:
        return "2.0-early"
    return "2.0-2.2" if minor < 3 else "2.3+"


def _read(path):
    try:
        with open(path, "rb") as f:
            conf = tomllib.load(f)
    except OSError as e:
        raise LoadError(f"failed to load TOML from {path}: {e.strerror}")
    except tomllib.TOMLDecodeError as e:
        raise LoadError(f"failed to load TOML from {path}: failed to unmarshal TOML: {e}")
    conf.setdefault("version", 0)
    conf.setdefault("plugins", {})
    return conf


def _resolve(parent, imports):
    import glob
    import os
    out = []
    for imp in imports:
        if not os.path.isabs(imp):
            imp = os.path.join(os.path.dirname(parent), imp)
        out += sorted(glob.glob(imp)) if any(c in imp for c in "*?[") else [imp]
    return out


def _deep(dst, src):
    """mergo.Merge WithOverride on map[string]any: maps merge, scalars override,
    a list never replaces a non-empty list."""
    for k, v in src.items():
        d = dst.get(k)
        if isinstance(v, dict) and isinstance(d, dict):
            _deep(d, v)
        elif isinstance(v, list) and isinstance(d, list) and d:
            continue
        else:
            dst[k] = copy.deepcopy(v)


def _merge(out, conf):
    for k, v in conf.items():
        if k == "plugins":
            _deep(out.setdefault("plugins", {}), v)
        elif isinstance(v, list):  # sliceTransformer: append what is missing
            lst = out.setdefault(k, [])
            lst += [x for x in v if x not in lst]
        elif isinstance(v, dict):
            out.setdefault(k, {}).update(v)  # proxy_plugins, timeouts...: whole entries replaced
        elif v not in (0, "", False, None):
            out[k] = v


def _migrate_version(conf, target):
    while conf["version"] < target:
        if conf["version"] == 1:
            conf["plugins"] = {V1_NAMES.get(k, k if "." in k else "io.containerd.grpc.v1." + k): v
                               for k, v in conf["plugins"].items()}
        conf["version"] += 1


def _runtime_migration(rel_line, plugins, cni):
    src = plugins.get(CRI)
    if not isinstance(src, dict):
        return
    if rel_line == "2.0-early":  # the section itself becomes the runtime's
        plugins[RUNTIME] = src
        return
    dst = plugins.get(RUNTIME)
    if not isinstance(dst, dict):
        dst = {}
    for k, v in src.items():
        if k == "containerd" or (k == "cni" and cni) or k in TO_IMAGES or k in TO_SERVER:
            continue
        dst.setdefault(k, v)
    if isinstance(src.get("containerd"), dict):
        nc = dst.get("containerd") if isinstance(dst.get("containerd"), dict) else {}
        for k, v in src["containerd"].items():
            if k not in ("snapshotter", "disable_snapshot_annotations", "discard_unpacked_layers"):
                nc.setdefault(k, v)
        dst["containerd"] = nc
    if cni and isinstance(src.get("cni"), dict):  # from 2.1.0: bin_dir becomes bin_dirs
        cni = dst.get("cni") if isinstance(dst.get("cni"), dict) else {}
        for k, v in src["cni"].items():
            if k == "bin_dir":
                cni.setdefault("bin_dirs", [v])
            else:
                cni.setdefault(k, v)
        dst["cni"] = cni
    plugins[RUNTIME] = dst


def _images_migration(plugins):
    src = plugins.get(CRI)
    if not isinstance(src, dict):
        return
    dst = plugins.get(IMAGES) if isinstance(plugins.get(IMAGES), dict) else {}
    if "sandbox_image" in src:
        dst.setdefault("pinned_images", {})["sandbox"] = src["sandbox_image"]
    for k in TO_IMAGES[1:]:
        if k in src:
            dst[k] = src[k]
    plugins[IMAGES] = dst


def _plugin_migrations(release, version, plugins):
    if version >= 3:
        return
    _images_migration(plugins)  # the registry's order: images before runtime
    _runtime_migration(line(release), plugins, cni=int(release.split(".")[1]) >= 1)


def load(release, path, migrate=True):
    rel_line = line(release)
    out = {"version": 3, "plugins": {}}  # command/config.go platformAgnosticDefaultConfig
    loaded, pending, root_version = [], [path], None
    while pending:
        p, pending = pending[0], pending[1:]
        if p in loaded:
            continue
        conf = _read(p)
        if rel_line == "2.3+":
            if root_version is None:
                root_version = conf["version"]
            if conf["version"] > root_version:
                raise LoadError(f"drop-in config version {conf['version']} higher than root config version {root_version}")
            if conf["version"] < out["version"]:
                for v in range(conf["version"], out["version"]):
                    _migrate_version(conf, v + 1)
                    _plugin_migrations(release, v, conf["plugins"])
        elif conf["version"] in (0, 1):
            _migrate_version(conf, out["version"])
        imports = conf.get("imports", [])
        _merge(out, conf)
        loaded.append(p)
        pending += _resolve(p, imports)
    out["imports"] = loaded
    if out["version"] > 3:
        raise LoadError(f"expected containerd config version equal to or less than `3`, got `{out['version']}`")
    daemon_migrates = rel_line != "2.3+"
    if migrate and daemon_migrates and out["version"] < 3:
        for v in range(out["version"], 3):
            _plugin_migrations(release, v, out["plugins"])
    return out


def view(conf):
    """What `config dump`/`migrate` print (command/config.go outputConfig):
    every loaded plugin decoded into its configuration, set or not (defaults
    filled, unknown keys dropped), the version 3."""
    conf = copy.deepcopy(conf)
    plugins = conf["plugins"]
    for name, defaults, keys in ((RUNTIME, RUNTIME_DEFAULTS, None), (IMAGES, IMAGES_DEFAULTS, None),
                                 (CRI, SERVER_DEFAULTS, SERVER_KEYS)):
        got = plugins.get(name) if isinstance(plugins.get(name), dict) else {}
        decoded = copy.deepcopy(defaults)
        _deep(decoded, {k: v for k, v in got.items() if keys is None or k in keys})
        plugins[name] = decoded
    conf["version"] = 3
    return conf


def _key(k):
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else "'" + k + "'"


def _val(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_val(x)}" for k, x in v.items()) + "}"
    return "'" + v + "'" if "'" not in v and "\n" not in v else '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dumps(conf, path=(), depth=0):
    """TOML as go-toml v2 writes it with SetIndentTables(true): a table's scalars
    under its header, sub-tables after, each level indented two spaces; keys that
    need quoting in single quotes."""
    out, ind = [], "  " * depth
    for k in sorted(conf):
        if not isinstance(conf[k], dict):
            out.append(f"{ind}{_key(k)} = {_val(conf[k])}\n")
    for k in sorted(conf):
        if isinstance(conf[k], dict):
            sub = path + (k,)
            out.append(f"\n{'  ' * depth}[{'.'.join(_key(x) for x in sub)}]\n")
            out.append(dumps(conf[k], sub, depth + 1))
    return "".join(out)
