#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Checks redfish/bios-settings.json and runs redfish/apply.sh against a
small Redfish service on 127.0.0.1 (no other address is ever contacted).

- flat bodies: DMTF's Bios.v1_2_3 Attributes and Settings.v1_4_0
  PreferredApplyTime definitions from ../shared/reference/redfish/ (skipped
  when absent), $refs resolved to those local files;
- nested bodies: schemas/redfish-bios-nested.schema.json;
- apply.sh: reads the ETag, PATCHes with If-Match; the server answers 428
  without If-Match (or for * in strict mode), 412 for a stale ETag, records
  the body and the credentials it got.

usage: redfish_check.py --flat FILE | --nested FILE | --apply DIR
"""
import base64
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jsonschema

REF = "../shared/reference/redfish"


def validate_flat(path):
    body = json.load(open(path))
    if not os.path.isdir(REF):
        print(f"skip: {REF} is absent; DMTF schema not checked")
        return []
    store = {}
    for f in os.listdir(REF):
        if f.endswith(".json"):
            doc = json.load(open(os.path.join(REF, f)))
            store[f"http://redfish.dmtf.org/schemas/v1/{f}"] = doc
    store["http://redfish.dmtf.org/schemas/v1/odata.v4_0_5.json"] = store["http://redfish.dmtf.org/schemas/v1/odata-v4.json"]
    errors = []

    def check(value, uri):
        base, frag = uri.split("#")
        schema = {"$ref": uri}
        resolver = jsonschema.RefResolver(base_uri=base, referrer=store[base], store=store)
        try:
            jsonschema.Draft7Validator(schema, resolver=resolver).validate(value)
        except jsonschema.ValidationError as e:
            errors.append(f"{uri}: {e.message}")

    if set(body) - {"Attributes", "@Redfish.SettingsApplyTime"}:
        errors.append(f"unexpected top-level keys {sorted(set(body))}")
    check(body.get("Attributes"), "http://redfish.dmtf.org/schemas/v1/Bios.v1_2_3.json#/definitions/Attributes")
    if "@Redfish.SettingsApplyTime" in body:
        check(body["@Redfish.SettingsApplyTime"], "http://redfish.dmtf.org/schemas/v1/Settings.v1_4_0.json#/definitions/PreferredApplyTime")
    return errors


def validate_nested(path):
    schema = json.load(open("schemas/redfish-bios-nested.schema.json"))
    try:
        jsonschema.Draft7Validator(schema).validate(json.load(open(path)))
        return []
    except jsonschema.ValidationError as e:
        return [e.message]


class Service(BaseHTTPRequestHandler):
    """A BMC written from DMTF DSP0266 and RFC 9110, not from apply.sh.

    - the Bios resource names its settings resource in @Redfish.Settings
      (SettingsObject, SupportedApplyTimes); a PATCH goes to that resource;
    - ETags: If-Match is compared with the current ETag of the resource being
      PATCHed (RFC 9110 13.1.1): mismatch 412; a BMC may require it, 428;
    - asynchronous operations: 202 Accepted with a Location header naming a task
      monitor; GET on the monitor answers 202 while the task runs, then the
      Task resource with its TaskState and Messages.

    Personalities (class attributes set by each run):
      standard    the settings resource has its own ETag, which If-Match must match
      parent      the reference deployment's BMC: If-Match must carry the Bios ETag
      direct      no @Redfish.Settings: the Bios resource itself takes the PATCH
      task-fails  the PATCH answers 202; the task ends in Exception
    nested_only: the converged HGX B200 talk's BMC ("Body uses nested
      AmdSetup.ACSEnable; flat form returns 400"): an attribute that is not a
      group object is refused with 400.
    """
    personality = "standard"
    bios_etag = 'W/"bios-1"'
    settings_etag = 'W/"settings-7"'
    supported = ["OnReset", "Immediate"]
    rotate = False      # the ETag changes after every GET (settings changed meanwhile)
    star_ok = False     # accept If-Match: *
    ami = False         # AMI MegaRAC: GET of the settings resource is 404 while nothing is
                        # pending, and only If-Match: * is taken (facts 3.2)
    nested_only = False
    patches = []
    polls = 0

    def log_message(self, *a):
        pass

    def reply(self, code, body=None, etag=None, headers=()):
        self.send_response(code)
        if etag:
            self.send_header("ETag", etag)
        for k, v in headers:
            self.send_header(k, v)
        data = json.dumps(body).encode() if body is not None else b""
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    BIOS = "/redfish/v1/Systems/1/Bios"
    SETTINGS = "/redfish/v1/Systems/1/Bios/Settings"
    MONITOR = "/redfish/v1/TaskService/TaskMonitors/1"

    def do_GET(self):
        cls = Service
        if self.path == self.BIOS:
            body = {"@odata.id": self.BIOS, "Attributes": {"ACSEnable": "Disabled"}}
            if cls.personality != "direct":
                body["@Redfish.Settings"] = {"SettingsObject": {"@odata.id": self.SETTINGS},
                                             "SupportedApplyTimes": cls.supported}
            self.reply(200, body, etag=cls.bios_etag)
        elif self.path == self.SETTINGS and cls.personality != "direct" and not cls.ami:
            self.reply(200, {"@odata.id": self.SETTINGS, "Attributes": {}}, etag=cls.settings_etag)
            if cls.rotate:
                cls.settings_etag = cls.settings_etag + "x"
        elif self.path == self.MONITOR:
            cls.polls += 1
            if cls.polls < 3:
                return self.reply(202, {"TaskState": "Running"}, headers=[("Location", self.MONITOR)])
            self.reply(200, {"@odata.id": "/redfish/v1/TaskService/Tasks/1", "TaskState": "Exception",
                             "Messages": [{"MessageId": "Base.1.8.PropertyValueNotInList",
                                           "Message": "The value Enabled for ACSEnable is not in the list of acceptable values."}]})
        else:
            self.reply(404, {"error": "not found"})

    def do_PATCH(self):
        cls = Service
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        match = self.headers.get("If-Match")
        if cls.personality == "direct":
            if self.path != self.BIOS:
                return self.reply(405, {"error": "the Bios has no settings resource"})
            want = cls.bios_etag
        else:
            if self.path != self.SETTINGS:
                return self.reply(405, {"error": "PATCH the settings resource"})
            want = cls.bios_etag if cls.personality == "parent" else cls.settings_etag
        if match is None:
            return self.reply(428, {"error": "If-Match required"})
        if not ((match == want and not cls.ami) or (match == "*" and (cls.star_ok or cls.ami))):
            return self.reply(412, {"error": "stale or foreign ETag"})
        doc = json.loads(body)
        if cls.nested_only and any(not isinstance(v, dict) for v in doc.get("Attributes", {}).values()):
            return self.reply(400, {"error": {"code": "Base.1.8.PropertyUnknown",
                                              "message": "flat attributes are not supported; group them"}})
        apply_time = doc.get("@Redfish.SettingsApplyTime", {}).get("ApplyTime")
        if apply_time and cls.personality != "direct" and apply_time not in cls.supported:
            return self.reply(400, {"error": f"ApplyTime {apply_time} not supported"})
        cls.patches.append({"body": doc, "auth": self.headers.get("Authorization"), "if_match": match, "path": self.path})
        if cls.personality == "task-fails":
            cls.polls = 0
            return self.reply(202, {"TaskState": "New"}, headers=[("Location", self.MONITOR)])
        self.reply(204)


def reset(personality, **kw):
    Service.personality, Service.bios_etag, Service.settings_etag = personality, 'W/"bios-1"', 'W/"settings-7"'
    Service.supported, Service.rotate, Service.star_ok, Service.patches, Service.polls = ["OnReset", "Immediate"], False, False, [], 0
    Service.ami = False
    Service.nested_only = False
    for k, v in kw.items():
        setattr(Service, k, v)


def run_apply(directory, user="admin", password="s3cret pass", **env):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Service)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    e = dict(os.environ, REDFISH_BASE=f"http://127.0.0.1:{server.server_port}", REDFISH_USER=user,
             REDFISH_PASSWORD=password, REDFISH_TASK_INTERVAL="0", **env)
    r = subprocess.run(["sh", os.path.join(directory, "apply.sh")], capture_output=True, text=True, env=e, timeout=60)
    server.shutdown()
    return r


def etag_source(script):
    for line in script.splitlines():
        if line.startswith("DEFAULT_ETAG_SOURCE="):
            return line.split("=", 1)[1].strip("'")
    return "auto"


def check_apply(directory):
    errors = []
    body = json.load(open(os.path.join(directory, "bios-settings.json")))
    script = open(os.path.join(directory, "apply.sh")).read()
    if "s3cret" in script or " -u " in script:
        errors.append("credentials on the command line or in the script")
    source = etag_source(script)
    nested = all(isinstance(v, dict) for v in body.get("Attributes", {}).values())
    # the personalities, with the script's default ETAG_SOURCE: auto reaches every one; bios (vendor
    # ami) the BMCs that take the Bios ETag, and a standard one refuses it with 412
    runs = (("standard", 'W/"settings-7"', "settings resource"), ("parent", 'W/"bios-1"', "Bios resource"),
            ("direct", 'W/"bios-1"', "bios resource"))
    if source == "bios":
        runs = runs[1:]
        reset("standard")
        r = run_apply(directory)
        if r.returncode == 0 or Service.patches or "412" not in r.stderr:
            errors.append(f"etag bios against a BMC that wants the settings ETag: not a clear 412 failure: {r.returncode} {r.stderr.strip()}")
    for personality, want_match, want_say in runs:
        reset(personality, nested_only=nested and personality == "parent")
        r = run_apply(directory)
        p = Service.patches
        if r.returncode != 0 or len(p) != 1:
            errors.append(f"{personality}: exit {r.returncode}, {len(p)} PATCH taken: {r.stderr.strip()}")
            continue
        if p[0]["body"] != body:
            errors.append(f"{personality}: the PATCH body is not bios-settings.json")
        if p[0]["if_match"] != want_match:
            errors.append(f"{personality}: If-Match {p[0]['if_match']!r}, want {want_match!r}")
        if want_say.lower() not in (r.stdout + r.stderr).lower():
            errors.append(f"{personality}: the script does not say which ETag the BMC took: {r.stdout.strip()}")
        if p[0]["auth"] != "Basic " + base64.b64encode(b"admin:s3cret pass").decode():
            errors.append(f"{personality}: credentials did not reach the BMC")
    if not nested:
        # the talk's BMC refuses a flat body: the script fails and says so
        reset("parent", nested_only=True)
        r = run_apply(directory, ETAG_SOURCE="bios")
        if r.returncode == 0 or "400" not in r.stderr:
            errors.append(f"a flat body refused with 400 was not a clear failure: {r.returncode} {r.stderr.strip()}")
    ok_personality = "parent" if source == "bios" else "standard"
    reset("task-fails")
    r = run_apply(directory, ETAG_SOURCE="auto")
    if r.returncode == 0 or "Exception" not in r.stderr or "not in the list of acceptable values" not in r.stderr:
        errors.append(f"task-fails: a task ending in Exception was not a failure with its message: {r.returncode} {r.stderr.strip()}")
    if Service.polls < 3:
        errors.append(f"task-fails: the task monitor was polled {Service.polls} times, not to the end")
    # the apply time is sent only when the BMC lists it
    if "@Redfish.SettingsApplyTime" in body:
        reset(ok_personality, supported=["Immediate"])
        r = run_apply(directory)
        if r.returncode != 0 or not Service.patches or "@Redfish.SettingsApplyTime" in Service.patches[0]["body"]:
            errors.append(f"an apply time the BMC does not support was sent: {r.returncode} {r.stderr.strip()}")
    # Credentials reach the BMC byte for byte: nothing in them is read as curl
    # configuration (a newline followed by an option was a second request).
    hostile = ['pa"ss', 'back\\slash\\', 'new\nline', 'per%cent %s', ' spaces  ', 'end\\',
               'x"\nurl = "http://127.0.0.1:9/"\n', "quo'te", 'tab\tcr\r', 'trailing\n\n', 'ünïcødé']
    for pw in hostile:
        for user in ("admin", 'ad"m\\in x'):
            reset(ok_personality)
            r = run_apply(directory, user=user, password=pw)
            want = "Basic " + base64.b64encode(f"{user}:{pw}".encode()).decode()
            if r.returncode != 0 or len(Service.patches) != 1 or Service.patches[0]["auth"] != want:
                got = Service.patches[0]["auth"] if Service.patches else None
                errors.append(f"credentials {user!r}:{pw!r} arrived as {got!r} (exit {r.returncode}, {r.stderr.strip()})")
    reset(ok_personality)
    r = run_apply(directory, user="ad:min")
    if r.returncode == 0 or "':'" not in r.stderr:
        errors.append(f"a user with ':' was not refused: {r.returncode} {r.stderr.strip()}")
    # every If-Match refused: a clear failure, nothing applied
    reset("standard", rotate=True)
    r = run_apply(directory, ETAG_SOURCE="auto")
    if r.returncode == 0 or Service.patches or "took no If-Match" not in r.stderr:
        errors.append(f"an ETag that changes under the script was not reported: {r.returncode} {r.stderr.strip()}")
    # an AMI-like BMC that accepts only *: auto reaches it
    reset("standard", ami=True)
    r = run_apply(directory, ETAG_SOURCE="auto")
    if r.returncode != 0 or not Service.patches or Service.patches[0]["if_match"] != "*":
        errors.append(f"auto did not fall back to If-Match: *: {r.returncode} {r.stderr.strip()}")
    return errors


def main(argv):
    mode, target = argv[0], argv[1]
    errors = {"--flat": validate_flat, "--nested": validate_nested, "--apply": check_apply}[mode](target)
    for e in errors:
        print(e)
    print(f"redfish_check {mode}: {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
