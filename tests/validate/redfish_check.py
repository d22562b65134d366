#!/usr/bin/python3
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
    etag = 'W/"v1"'
    strict = False       # refuse If-Match: *
    rotate = False       # the settings change between GET and PATCH
    patches = []

    def log_message(self, *a):
        pass

    def reply(self, code, body=None, etag=None):
        self.send_response(code)
        if etag:
            self.send_header("ETag", etag)
        data = json.dumps(body).encode() if body is not None else b""
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path != "/redfish/v1/Systems/1/Bios":
            return self.reply(404, {"error": "not found"})
        self.reply(200, {"@odata.id": self.path, "Attributes": {"ACSEnable": "Disabled"},
                         "@Redfish.Settings": {"SettingsObject": {"@odata.id": "/redfish/v1/Systems/1/Bios/Settings"}}},
                   etag=Service.etag)
        if Service.rotate:
            Service.etag = 'W/"v2"'

    def do_PATCH(self):
        if self.path != "/redfish/v1/Systems/1/Bios/Settings":
            return self.reply(404, {"error": "not found"})
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        match = self.headers.get("If-Match")
        if match is None or (match == "*" and Service.strict):
            return self.reply(428, {"error": "If-Match required"})
        if match != "*" and match != Service.etag:
            return self.reply(412, {"error": "stale ETag"})
        Service.patches.append({"body": json.loads(body), "auth": self.headers.get("Authorization"), "if_match": match})
        self.reply(204)


def run_apply(directory, user="admin", password="s3cret pass", **env):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Service)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    e = dict(os.environ, REDFISH_BASE=f"http://127.0.0.1:{server.server_port}", REDFISH_USER=user,
             REDFISH_PASSWORD=password, **env)
    r = subprocess.run(["sh", os.path.join(directory, "apply.sh")], capture_output=True, text=True, env=e, timeout=30)
    server.shutdown()
    return r


def check_apply(directory):
    errors = []
    body = json.load(open(os.path.join(directory, "bios-settings.json")))
    script = open(os.path.join(directory, "apply.sh")).read()
    if "s3cret" in script or " -u " in script:
        errors.append("credentials on the command line or in the script")
    Service.etag, Service.strict, Service.rotate, Service.patches = 'W/"v1"', False, False, []
    r = run_apply(directory)
    if r.returncode != 0 or len(Service.patches) != 1:
        errors.append(f"normal run failed: {r.returncode} {r.stderr.strip()}")
    else:
        p = Service.patches[0]
        if p["body"] != body:
            errors.append("the PATCH body is not bios-settings.json")
        if p["if_match"] != 'W/"v1"':
            errors.append(f"If-Match {p['if_match']!r}, want the Bios ETag W/\"v1\"")
        if p["auth"] != "Basic " + base64.b64encode(b"admin:s3cret pass").decode():
            errors.append("credentials did not reach the BMC")
    # Credentials reach the BMC byte for byte: nothing in them is read as curl
    # configuration (a newline followed by an option was a second request).
    hostile = ['pa"ss', 'back\\slash\\', 'new\nline', 'per%cent %s', ' spaces  ', 'end\\',
               'x"\nurl = "http://127.0.0.1:9/"\n', "quo'te", 'tab\tcr\r', 'trailing\n\n', 'ünïcødé']
    for pw in hostile:
        for user in ("admin", 'ad"m\\in x'):
            Service.etag, Service.strict, Service.rotate, Service.patches = 'W/"v1"', False, False, []
            r = run_apply(directory, user=user, password=pw)
            want = "Basic " + base64.b64encode(f"{user}:{pw}".encode()).decode()
            if r.returncode != 0 or len(Service.patches) != 1 or Service.patches[0]["auth"] != want:
                got = Service.patches[0]["auth"] if Service.patches else None
                errors.append(f"credentials {user!r}:{pw!r} arrived as {got!r} (exit {r.returncode}, {r.stderr.strip()})")
    r = run_apply(directory, user="ad:min")
    if r.returncode == 0 or "':'" not in r.stderr:
        errors.append(f"a user with ':' was not refused: {r.returncode} {r.stderr.strip()}")
    Service.etag, Service.rotate, Service.patches = 'W/"v1"', True, []
    r = run_apply(directory)
    if r.returncode == 0 or "412" not in r.stderr or Service.patches:
        errors.append(f"a stale ETag was not reported: {r.returncode} {r.stderr.strip()}")
    Service.etag, Service.rotate, Service.strict, Service.patches = 'W/"v1"', False, True, []
    r = run_apply(directory, ETAG_SOURCE="any")
    if r.returncode == 0 or "428" not in r.stderr:
        errors.append(f"428 was not reported: {r.returncode} {r.stderr.strip()}")
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
