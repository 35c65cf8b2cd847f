#!/usr/bin/env python3
"""Checks that the project has one version and that everything which states it agrees.

The version is set once, `[workspace.package] version` in the root Cargo.toml (printed by
tests/version.sh). Checked:
  * every crate of the workspace takes it (`version.workspace = true`), so the extension's
    `FastVarCodec.get_version()` (CARGO_PKG_VERSION) reports it;
  * the addon's files that a user sees state it: the first line of fast_var_codec.gdextension and
    addons/fast_var_codec/README.md each say "FastVarCodec X.Y.Z", and no other
    "FastVarCodec X.Y.Z" there names another version; the editor plugin's plugin.cfg states it
    (version="X.Y.Z");
  * CHANGELOG.md's first entry is that version;
  * tests/version.sh prints it (the release zip is named by it);
  * the npm package (rust/wasm) takes it: its package.json (rust/wasm/js/package.json) states no
    version, tests/build_npm.sh writes the packed copy's version from tests/version.sh and names
    the tarball by it, and states no version of its own (its WebAssembly's version() is the
    crate's, which the first check covers).

  python3 tests/check_version.py              the check; ends with "N passed, N failed"
  python3 tests/check_version.py --self-test  the same check against another version must fail
                                              on every statement, and the npm check on a
                                              build_npm.sh or a package.json that states a
                                              version of its own
"""

import json
import os
import re
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADDON = os.path.join(ROOT, "addons", "fast_var_codec")
STATED = re.compile(r"FastVarCodec (\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


PACKAGE_JSON = os.path.join("rust", "wasm", "js", "package.json")


def npm_statements(build_npm, package_json):
    """(ok, message) for each way tests/build_npm.sh and the package.json it stamps (their
    texts) must take the version."""
    takes = re.search(r"^version=\$\(bash tests/version\.sh\)$", build_npm, re.M) is not None
    passes = re.search(r'^node - rust/wasm/js/package\.json "\$pkg/package\.json" "\$version"', build_npm,
                       re.M) is not None
    try:
        template = json.loads(package_json)
    except ValueError:
        template = None
    template_version = template.get("version") if isinstance(template, dict) else None
    # The package.json writer: its object takes the argument (`version,`), no literal.
    writer = build_npm.split("const pkg = {", 1)[1].split("};", 1)[0] if "const pkg = {" in build_npm else ""
    shorthand = re.search(r"^\s*version,\s*$", writer, re.M) is not None
    literal = re.findall(r"\d+\.\d+\.\d+", writer)
    named = 'fast-var-codec-$version.tgz' in build_npm
    return [
        (takes, "tests/build_npm.sh takes the version from tests/version.sh (version=$(bash tests/version.sh))"),
        (passes and shorthand and not literal,
         "tests/build_npm.sh writes package.json's version from it, stating none of its own"
         + (f" (it states {', '.join(literal)})" if literal else "")),
        (named, "tests/build_npm.sh names the tarball fast-var-codec-$version.tgz"),
        (isinstance(template, dict) and template_version is None,
         f"{PACKAGE_JSON} states no version (tests/build_npm.sh stamps the packed copy's)"
         + (f" (it states {template_version})" if template_version is not None else "")
         + ("" if isinstance(template, dict) else " (it is not a JSON object)")),
    ]


def check(version=None, quiet=False):
    """(passed, failures); `version` replaces the workspace's (the self-test)."""
    passed, failures = 0, []

    def ok(cond, message):
        nonlocal passed
        if cond:
            passed += 1
        else:
            failures.append(message)
        if not quiet:
            print(("PASS " if cond else "FAIL ") + message)

    root = tomllib.loads(read("Cargo.toml"))
    workspace_version = root.get("workspace", {}).get("package", {}).get("version")
    ok(workspace_version is not None, f"Cargo.toml sets [workspace.package] version ({workspace_version})")
    version = version or workspace_version
    for member in root["workspace"]["members"]:
        package = tomllib.loads(read(os.path.join(member, "Cargo.toml")))["package"]
        ok(package.get("version") == {"workspace": True},
           f"{member}/Cargo.toml takes the workspace's version (version.workspace = true)")
    printed = subprocess.run(["bash", os.path.join(ROOT, "tests", "version.sh")],
                             capture_output=True, text=True).stdout.strip()
    ok(printed == version, f"tests/version.sh prints {printed}, the version {version}")
    for name in ("fast_var_codec.gdextension", "README.md"):
        text = read(os.path.join("addons", "fast_var_codec", name))
        first = text.splitlines()[0] if text else ""
        m = STATED.search(first)
        ok(m is not None and m.group(1) == version,
           f"addons/fast_var_codec/{name}'s first line states FastVarCodec {version}"
           + ("" if m and m.group(1) == version else f" (it says: {first.strip()!r})"))
        others = sorted({v for v in STATED.findall(text) if v != version})
        ok(not others, f"addons/fast_var_codec/{name} names no other version"
           + (f" ({', '.join(others)})" if others else ""))
    plugin = read(os.path.join("addons", "fast_var_codec", "plugin.cfg"))
    stated = re.search(r'^version="([^"]*)"', plugin, re.M)
    ok(stated is not None and stated.group(1) == version,
       f"addons/fast_var_codec/plugin.cfg states version=\"{version}\""
       + ("" if stated and stated.group(1) == version
          else f" (it says: {stated.group(0) if stated else 'nothing'})"))
    changelog = read("CHANGELOG.md") if os.path.exists(os.path.join(ROOT, "CHANGELOG.md")) else ""
    first_entry = re.search(r"^## \[?(\d+\.\d+\.\d+[^\]\s]*)", changelog, re.M)
    ok(first_entry is not None and first_entry.group(1) == version,
       f"CHANGELOG.md's first entry is {version}"
       + ("" if first_entry and first_entry.group(1) == version
          else f" (it is {first_entry.group(1) if first_entry else 'missing'})"))
    for cond, message in npm_statements(read(os.path.join("tests", "build_npm.sh")), read(PACKAGE_JSON)):
        ok(cond, message)
    return passed, failures


def main():
    if "--self-test" in sys.argv[1:]:
        real_passed, real_failures = check(quiet=True)
        print(("PASS" if not real_failures else "FAIL")
              + f" the check passes with the real version ({real_passed} checks){': ' + str(real_failures) if real_failures else ''}")
        _, failures = check(version="9.9.9", quiet=True)
        stated = [f for f in failures if "9.9.9" in f]
        # tests/version.sh, three addon files, CHANGELOG.md
        good = len(stated) == 5
        print(("PASS" if good else "FAIL")
              + f" the same check against version 9.9.9 fails on every statement ({len(stated)} of 5): "
              + "; ".join(stated))
        # The npm check: a build_npm.sh whose package.json writer, or a checked-in package.json,
        # that states a version of its own fails, each on one statement.
        build_npm = read(os.path.join("tests", "build_npm.sh"))
        package_json = read(PACKAGE_JSON)
        altered = build_npm.replace("  version,\n", '  version: "9.9.9",\n', 1)
        npm_failed = [m for c, m in npm_statements(altered, package_json) if not c]
        stamped = package_json.replace("{", '{\n  "version": "9.9.9",', 1)
        json_failed = [m for c, m in npm_statements(build_npm, stamped) if not c]
        npm_good = (len(npm_failed) == 1 and "9.9.9" in npm_failed[0]
                    and len(json_failed) == 1 and "9.9.9" in json_failed[0])
        print(("PASS" if npm_good else "FAIL")
              + " the npm check fails on a build_npm.sh, and on a package.json, that states version 9.9.9: "
              + "; ".join(npm_failed + json_failed))
        ok = not real_failures and good and npm_good
        n_pass = int(not real_failures) + int(good) + int(npm_good)
        print(f"{n_pass} passed, {3 - n_pass} failed")
        return 0 if ok else 1
    passed, failures = check()
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
