#!/usr/bin/env python3
"""Checks the addon's claim "Godot 4.4 or later" against each Godot version's own API data.

The library is built against one API (gdext's `api-4-4`), but it also finds engine methods by
class, name and hash, calls GDExtension interface functions itself, and writes Variants in place
by a layout. None of that is covered by gdext's build, so each is checked here against the
`extension_api.json` of every Godot 4 version the `.gdextension` admits (its
`compatibility_minimum` up to the newest the `gdextension-api` crate holds) and against
`gdextension_interface.json`:

  methods    every engine class method the extension looks up by hash (`EngineMethod::new(CLASS,
             NAME, HASH)`, rust/gdextension/src/engine_methods.rs) is in each version, on that
             class or a base class, under that hash (its current one or a compatibility hash),
             as the engine's classdb_get_method_bind finds it; and its signature names no
             real_t type, so a double-precision engine has it under the same hash
  builtins   every builtin method looked up by hash (`builtin_method(CELL, TYPE, NAME, HASH)`,
             rust/gdextension/src/fast_access.rs) is in each version under that hash
  interface  every interface function the extension calls (`interface_fn!(NAME)` anywhere in
             rust/gdextension/src/) exists since the minimum version or earlier
  layout     the builtin types whose Variants or payloads the extension writes or reads in place
             (rust/gdextension/src/variant_layout.rs, fast_access.rs) and Variant itself have the
             same size and member offsets in each version, for the float_32 and float_64
             configurations (single precision); and for double_64 in each version from the
             double-precision library's minimum on, the same as in the API description it is
             built from (tests/double_api/double_api.json)
  claims     the .gdextension's minimum is not below the API the library is built against
             (rust/gdextension/Cargo.toml's default `api-4-N` feature); the double-precision
             library's minimum (its API description's version: gdext refuses an older engine at
             load) is stated in the .gdextension

The look-ups are read from the extension's source, not listed here again; a look-up by hash the
parser does not understand (a new call site of classdb_get_method_bind or
variant_get_ptr_builtin_method) fails the check rather than going unchecked.

  python3 tests/check_api_compat.py              the check; ends with "N passed, N failed"
  python3 tests/check_api_compat.py --self-test  the check on the real data must pass, and on
                                                 copies with one hash, offset, size or interface
                                                 version changed must fail, as on a source with a
                                                 look-up by hash it cannot read
  --api-dir DIR   the gdextension-api crate's src/ (default: found by `cargo metadata`)
"""

import argparse
import copy
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXT_SRC = os.path.join(ROOT, "rust", "gdextension", "src")
GDEXTENSION_FILE = os.path.join(ROOT, "addons", "fast_var_codec", "fast_var_codec.gdextension")
EXT_CARGO = os.path.join(ROOT, "rust", "gdextension", "Cargo.toml")
DOUBLE_API = os.path.join(ROOT, "tests", "double_api", "double_api.json")

# The builtin types whose layout depends on real_t: an engine method taking or returning one has
# another hash in a double-precision engine.
REAL_TYPES = {
    "float", "Vector2", "Vector3", "Vector4", "Rect2", "Transform2D", "Plane", "Quaternion",
    "AABB", "Basis", "Transform3D", "Projection", "PackedVector2Array", "PackedVector3Array",
    "PackedVector4Array",
}
# Interface functions that look something up by hash: each call site must be one the parser reads.
HASHED_LOOKUPS = {
    "classdb_get_method_bind": "engine_methods.rs",
    "variant_get_ptr_builtin_method": "fast_access.rs",
    "variant_get_ptr_utility_function": None,
}


def version_tuple(text):
    return tuple(int(x) for x in text.split("."))


def norm_type(name):
    """PACKED_BYTE_ARRAY, PackedByteArray and Packedbytearray alike: the key to compare by."""
    return name.replace("_", "").upper()


# --- the extension's source ---------------------------------------------------------------------

def read_sources():
    sources = {}
    for path in sorted(glob.glob(os.path.join(EXT_SRC, "**", "*.rs"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            sources[os.path.relpath(path, ROOT)] = f.read()
    return sources


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def split_args(text):
    """Splits a call's argument text at the commas outside brackets."""
    args, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args


def call_args(text, start):
    """The arguments of the call whose '(' is at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return split_args(text[start + 1:i])
    raise ValueError("unbalanced call")


def enclosing_function(text, pos):
    """The text of the function around pos: from its `fn` line to the next item's."""
    fn_re = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?fn\s+\w+", re.M)
    starts = [m.start() for m in fn_re.finditer(text)]
    begin = max((s for s in starts if s <= pos), default=0)
    end = min((s for s in starts if s > pos), default=len(text))
    return text[begin:end]


def hash_literal(text):
    return int(text.replace("_", ""))


class Source:
    """What the extension looks up, calls and lays out, read from its source."""

    def __init__(self, sources):
        self.problems = []
        self.engine_methods = []   # (class, name, hash, file)
        self.builtin_calls = []    # (candidate pairs, hash, literal names of the function, file)
        self.interface_fns = {}    # name -> [file]
        self.layout_types = set()  # builtin type names, normalized
        for path, raw in sources.items():
            text = strip_comments(raw)
            self._engine_methods(path, text)
            self._builtin_methods(path, text)
            self._interface(path, text)
        self._layout(sources)

    def _engine_methods(self, path, text):
        sites = [m for m in re.finditer(r"EngineMethod::new\s*\(", text)]
        for m in sites:
            args = call_args(text, m.end() - 1)
            lit = [re.fullmatch(r'"([^"]*)"', a) for a in args[:2]]
            if len(args) != 3 or not all(lit) or not re.fullmatch(r"-?[0-9_]+", args[2]):
                self.problems.append(f"{path}: EngineMethod::new({', '.join(args)}) is not "
                                     "(\"Class\", \"name\", hash) literals: the check cannot read it")
                continue
            self.engine_methods.append((lit[0].group(1), lit[1].group(1), hash_literal(args[2]), path))

    def _builtin_methods(self, path, text):
        for m in re.finditer(r"(?<!fn )\bbuiltin_method\s*\(", text):
            args = call_args(text, m.end() - 1)
            func = enclosing_function(text, m.start())
            if len(args) != 4 or not re.fullmatch(r"[0-9_]+", args[3]):
                self.problems.append(f"{path}: builtin_method({', '.join(args)}): no literal hash")
                continue
            ty, name = args[1], args[2]
            direct = re.fullmatch(r"(?:sys::)?GDEXTENSION_VARIANT_TYPE_(\w+)", ty)
            bound = re.search(r"let\s+" + re.escape(ty) + r"\s*=\s*(?:sys::)?GDEXTENSION_VARIANT_TYPE_(\w+)", func)
            if direct:
                types = {direct.group(1)}
            elif bound:
                types = {bound.group(1)}
            else:  # chosen in the function (a match): any type it names
                types = set(re.findall(r"GDEXTENSION_VARIANT_TYPE_(\w+)", func))
            literal = re.fullmatch(r'"([^"]*)"', name)
            func_names = set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', func))
            names = {literal.group(1)} if literal else func_names
            if not types or not names:
                self.problems.append(f"{path}: builtin_method({', '.join(args)}): its type or name "
                                     "cannot be read from the function")
                continue
            pairs = {(t, n) for t in types for n in names}
            self.builtin_calls.append((pairs, hash_literal(args[3]),
                                       frozenset() if literal else frozenset(func_names), path))

    def _interface(self, path, text):
        for m in re.finditer(r"interface_fn!\s*\(\s*(\w+)\s*\)", text):
            self.interface_fns.setdefault(m.group(1), []).append(path)
        for fn_name, home in HASHED_LOOKUPS.items():
            for m in re.finditer(r"interface_fn!\s*\(\s*" + fn_name + r"\s*\)", text):
                func = enclosing_function(text, m.start())
                ok = home is not None and path.endswith(home) and (
                    "&self" in func.split("{")[0] if fn_name == "classdb_get_method_bind"
                    else re.search(r"fn\s+builtin_method\b", func))
                if not ok:
                    self.problems.append(f"{path}: calls {fn_name} outside the look-up this check "
                                         "reads (EngineMethod::bind, fast_access::builtin_method)")

    def _layout(self, sources):
        for path, raw in sources.items():
            text = strip_comments(raw)
            if path.endswith(("variant_layout.rs", "fast_access.rs")):
                self.layout_types |= {norm_type(t) for t in re.findall(r"GDEXTENSION_VARIANT_TYPE_(\w+)", text)}
            if path.endswith("fast_access.rs"):
                m = re.search(r"payloads!\s*\{(.*?)\}", text, re.S)
                if not m:
                    self.problems.append(f"{path}: no payloads! list (the types read in place)")
                else:
                    self.layout_types |= {norm_type(t) for t in re.findall(r"=>\s*(\w+)", m.group(1))}
        self.layout_types.add(norm_type("Variant"))
        self.layout_types.discard(norm_type("Nil"))


# --- the API data -------------------------------------------------------------------------------

def find_api_dir():
    out = subprocess.run(["cargo", "metadata", "--format-version", "1"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    for pkg in json.loads(out)["packages"]:
        if pkg["name"] == "gdextension-api":
            return os.path.join(os.path.dirname(pkg["manifest_path"]), "src")
    raise SystemExit("check_api_compat.py: no gdextension-api package in `cargo metadata`")


class Api:
    """One version's extension_api.json, indexed."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        h = data["header"]
        self.name = f"{h['version_major']}.{h['version_minor']}"
        self.classes = {c["name"]: c for c in data["classes"]}
        self.builtins = {norm_type(c["name"]): c for c in data["builtin_classes"]}
        self.sizes = {c["build_configuration"]: {norm_type(s["name"]): s["size"] for s in c["sizes"]}
                      for c in data["builtin_class_sizes"]}
        self.offsets = {c["build_configuration"]: {norm_type(k["name"]): [(m["member"], m["offset"]) for m in k["members"]]
                                                   for k in c["classes"]}
                        for c in data["builtin_class_member_offsets"]}

    def class_method(self, cls, name, hash_):
        """(class it is found on, method) as classdb_get_method_bind finds it: on the class or a base,
        by its hash or a compatibility hash; (None, None) if not."""
        c = self.classes.get(cls)
        while c is not None:
            for m in c.get("methods", []):
                if m["name"] == name and (m.get("hash") == hash_ or hash_ in m.get("hash_compatibility", [])):
                    return c["name"], m
            c = self.classes.get(c.get("inherits"))
        return None, None

    def builtin_method(self, ty, name):
        b = self.builtins.get(norm_type(ty))
        for m in (b or {}).get("methods", []):
            if m["name"] == name:
                return m
        return None


def load_versions(api_dir, minimum):
    versions = []
    for d in sorted(os.listdir(api_dir)):
        path = os.path.join(api_dir, d, "extension_api.json")
        if re.fullmatch(r"\d+\.\d+", d) and os.path.isfile(path) and version_tuple(d) >= minimum[:2]:
            versions.append(Api(path))
    versions.sort(key=lambda a: version_tuple(a.name))
    return versions


# --- the checks ---------------------------------------------------------------------------------

class Result:
    def __init__(self, quiet=False):
        self.passed = 0
        self.failures = []
        self.quiet = quiet

    def check(self, ok, message):
        if ok:
            self.passed += 1
            if not self.quiet:
                print(f"PASS {message}")
        else:
            self.failures.append(message)
            if not self.quiet:
                print(f"FAIL {message}")


def gdextension_minimum(text):
    m = re.search(r'^compatibility_minimum\s*=\s*"([0-9.]+)"', text, re.M)
    return version_tuple(m.group(1)) if m else None


def check(api_dir, double_api_path=DOUBLE_API, quiet=False, sources=None):
    r = Result(quiet)
    with open(GDEXTENSION_FILE, encoding="utf-8") as f:
        gdext_text = f.read()
    minimum = gdextension_minimum(gdext_text)
    r.check(minimum is not None, "the .gdextension states compatibility_minimum")
    if minimum is None:
        return r
    min_name = ".".join(map(str, minimum))
    with open(EXT_CARGO, encoding="utf-8") as f:
        cargo = f.read()
    built = re.search(r'^default\s*=\s*\[\s*"api-(\d+)-(\d+)"', cargo, re.M)
    r.check(built is not None and minimum >= (int(built.group(1)), int(built.group(2))),
            f"the .gdextension's minimum {min_name} is not below the API the library is built against "
            f"(api-{built.group(1)}-{built.group(2)})" if built else "rust/gdextension/Cargo.toml builds against an api-4-N feature")

    versions = load_versions(api_dir, minimum)
    names = [a.name for a in versions]
    r.check(bool(versions) and versions[0].name == ".".join(map(str, minimum[:2])),
            f"API data for {min_name} to the newest in the gdextension-api crate: {', '.join(names)}")
    if not versions:
        return r

    # the double-precision library: its minimum is its API description's version
    double = Api(double_api_path)
    with open(double_api_path, encoding="utf-8") as f:
        header = json.load(f)["header"]
    double_min = (header["version_major"], header["version_minor"], header["version_patch"])
    double_name = ".".join(map(str, double_min))

    src = Source(sources if sources is not None else read_sources())
    for problem in src.problems:
        r.check(False, problem)

    # methods
    r.check(bool(src.engine_methods), f"engine methods looked up by hash, read from the source: {len(src.engine_methods)}")
    for cls, name, hash_, path in src.engine_methods:
        missing = []
        for api in versions:
            found_on, _ = api.class_method(cls, name, hash_)
            if found_on is None:
                missing.append(api.name)
        r.check(not missing, f"{cls}.{name} hash {hash_} ({os.path.basename(path)})"
                + (f" in every version {names[0]}-{names[-1]}" if not missing else f": missing in {', '.join(missing)}"))
        found_on, _ = double.class_method(cls, name, hash_)
        r.check(found_on is not None, f"{cls}.{name} hash {hash_} in the double-precision engine's API "
                f"(tests/double_api, {double_name})")
        _, m = versions[0].class_method(cls, name, hash_)
        if m is not None:
            types = [a["type"] for a in m.get("arguments", [])] + [m.get("return_value", {}).get("type", "void")]
            metas = [a.get("meta", "") for a in m.get("arguments", [])] + [m.get("return_value", {}).get("meta", "")]
            real = [t for t in types if t in REAL_TYPES] + [x for x in metas if x in ("float", "double", "real")]
            r.check(not real, f"{cls}.{name}'s signature has no real_t type (same hash in a double-precision engine)"
                    + (f": {real}" if real else ""))

    # builtins
    r.check(bool(src.builtin_calls), f"builtin methods looked up by hash, read from the source: {len(src.builtin_calls)} call sites")
    covered = {}
    for pairs, hash_, func_names, path in src.builtin_calls:
        used = {(t, n) for t, n in pairs if (m := versions[0].builtin_method(t, n)) and m.get("hash") == hash_}
        r.check(bool(used), f"builtin_method with hash {hash_} ({os.path.basename(path)}) is one of "
                f"{sorted(pairs) if len(pairs) < 4 else str(len(pairs)) + ' candidates'} in {names[0]}")
        if func_names:
            covered.setdefault(func_names, set()).update(n for _, n in used)
        for t, n in sorted(used):
            missing = [api.name for api in versions
                       if not ((m := api.builtin_method(t, n))
                               and (m.get("hash") == hash_ or hash_ in m.get("hash_compatibility", [])))]
            m = double.builtin_method(t, n)
            if not (m and m.get("hash") == hash_):
                missing.append(f"the double-precision engine's {double_name}")
            r.check(not missing, f"{t.title().replace('_', '')}.{n} hash {hash_}"
                    + (f" in every version {names[0]}-{names[-1]} and the double-precision {double_name}"
                       if not missing else f": missing in {', '.join(missing)}"))
    for func_names, got in covered.items():
        left = sorted(func_names - got)
        r.check(not left, "every method name of a function with builtin look-ups is checked"
                + (f": not {left}" if left else ""))

    # interface
    with open(os.path.join(api_dir, "gdextension_interface.json"), encoding="utf-8") as f:
        interface = {fn["name"]: fn for fn in json.load(f)["interface"]}
    r.check(bool(src.interface_fns), f"interface functions called, read from the source: {len(src.interface_fns)}")
    for fn_name, paths in sorted(src.interface_fns.items()):
        fn = interface.get(fn_name)
        since = fn.get("since") if fn else None
        ok = since is not None and version_tuple(since) <= minimum
        note = "" if not (fn and fn.get("deprecated")) else f" (deprecated since {fn['deprecated'].get('since')})"
        r.check(ok, f"interface function {fn_name} ({os.path.basename(paths[0])}) "
                + (f"since {since}, at or below {min_name}{note}" if ok else
                   f"since {since}, above {min_name}" if fn else "not in gdextension_interface.json"))

    # layout
    r.check(len(src.layout_types) > 5, f"builtin types laid out in place, read from the source: {len(src.layout_types)}")
    base = versions[0]

    def same_layout(config, apis, reference, ref_name):
        for ty in sorted(src.layout_types):
            size = reference.sizes.get(config, {}).get(ty)
            offsets = reference.offsets.get(config, {}).get(ty)
            if size is None:
                r.check(False, f"{config}: {ty} has no size in {ref_name}")
                continue
            differ = [a.name for a in apis
                      if a.sizes.get(config, {}).get(ty) != size or a.offsets.get(config, {}).get(ty) != offsets]
            r.check(not differ, f"{config}: {ty} size {size}"
                    + (f", members {','.join(f'{m}@{o}' for m, o in offsets)}" if offsets else "")
                    + (f" in every version {apis[0].name}-{apis[-1].name}" if not differ else f": differs in {', '.join(differ)}"))

    for config in ("float_32", "float_64"):
        same_layout(config, versions, base, base.name)

    double_versions = [a for a in versions if version_tuple(a.name) >= double_min[:2]]
    r.check(bool(double_versions), f"API data from the double-precision library's minimum {double_name} on: "
            f"{', '.join(a.name for a in double_versions)}")
    if double_versions:
        same_layout("double_64", double_versions, double, f"tests/double_api ({double_name})")
    stated = [line for line in gdext_text.splitlines() if line.startswith(";") and "double" in line.lower()]
    r.check(any(double_name in line for line in stated),
            f"the .gdextension states the double-precision library's minimum, {double_name}")
    return r


# --- the self-test ------------------------------------------------------------------------------

def self_test(api_dir):
    """The check passes on the real data and fails on copies with one thing changed."""
    r = Result()
    real = check(api_dir, quiet=True)
    r.check(not real.failures, f"the check passes on the real data ({real.passed} checks)"
            + (f": {real.failures[:3]}" if real.failures else ""))
    with open(GDEXTENSION_FILE, encoding="utf-8") as f:
        minimum = gdextension_minimum(f.read())
    versions = [a.name for a in load_versions(api_dir, minimum)]
    src = Source(read_sources())
    cls, name, hash_, _ = src.engine_methods[0]
    later = versions[1] if len(versions) > 1 else versions[0]
    newest = versions[-1]
    builtin_pair = sorted(next(iter(src.builtin_calls))[0])[0]

    def change_method(data):
        c = {c["name"]: c for c in data["classes"]}[cls]
        while True:
            for m in c.get("methods", []):
                if m["name"] == name:
                    m["hash"] = m["hash"] + 1
                    m.pop("hash_compatibility", None)
                    return
            c = {c["name"]: c for c in data["classes"]}[c["inherits"]]

    def change_builtin(data):
        for b in data["builtin_classes"]:
            if norm_type(b["name"]) == norm_type(builtin_pair[0]):
                for m in b["methods"]:
                    if m["name"] == builtin_pair[1]:
                        m["hash"] += 1

    def change_offset(config):
        def change(data):
            for c in data["builtin_class_member_offsets"]:
                if c["build_configuration"] == config:
                    for k in c["classes"]:
                        if k["name"] == "Vector2":
                            k["members"][1]["offset"] += 4
        return change

    def change_size(data):
        for c in data["builtin_class_sizes"]:
            if c["build_configuration"] == "float_32":
                for s in c["sizes"]:
                    if s["name"] == "Variant":
                        s["size"] += 8

    def change_interface(data):
        for fn in data["interface"]:
            if fn["name"] == sorted(src.interface_fns)[0]:
                fn["since"] = "4.99"

    cases = [
        (f"{cls}.{name}'s hash changed in {later}'s data", later, "extension_api.json", change_method, f"{cls}.{name}"),
        (f"{builtin_pair[0]}.{builtin_pair[1]}'s hash changed in {newest}'s data", newest, "extension_api.json",
         change_builtin, f".{builtin_pair[1]} hash"),
        (f"Vector2.y's float_64 offset changed in {later}'s data", later, "extension_api.json",
         change_offset("float_64"), "float_64: VECTOR2 "),
        (f"Vector2.y's double_64 offset changed in {newest}'s data", newest, "extension_api.json",
         change_offset("double_64"), "double_64: VECTOR2 "),
        (f"Variant's float_32 size changed in {newest}'s data", newest, "extension_api.json", change_size,
         "float_32: VARIANT "),
        (f"interface function {sorted(src.interface_fns)[0]} made newer than the minimum", None,
         "gdextension_interface.json", change_interface, f"interface function {sorted(src.interface_fns)[0]}"),
    ]
    for title, version, file_name, change, expect in cases:
        with tempfile.TemporaryDirectory(prefix="fvc_api_") as tmp:
            for entry in os.listdir(api_dir):
                s = os.path.join(api_dir, entry)
                if os.path.isdir(s):
                    os.makedirs(os.path.join(tmp, entry))
                    for f in os.listdir(s):
                        os.symlink(os.path.join(s, f), os.path.join(tmp, entry, f))
                else:
                    os.symlink(s, os.path.join(tmp, entry))
            rel = os.path.join(version, file_name) if version else file_name
            target = os.path.join(tmp, rel)
            with open(os.path.join(api_dir, rel), encoding="utf-8") as f:
                data = json.load(f)
            change(data)
            os.unlink(target)
            with open(target, "w", encoding="utf-8") as f:
                json.dump(data, f)
            changed = check(tmp, quiet=True)
            hit = [m for m in changed.failures if expect in m]
            r.check(bool(hit), f"the check fails when {title}: "
                    + (hit[0] if hit else f"no failure naming '{expect}' (failures: {changed.failures[:3]})"))
    # A look-up by hash the parser does not read fails the check instead of going unchecked.
    extra = dict(read_sources())
    extra["rust/gdextension/src/new_lookup.rs"] = (
        "unsafe fn find(c: StringName, n: StringName) -> usize {\n"
        "    unsafe { interface_fn!(classdb_get_method_bind)(c.string_sys(), n.string_sys(), 42) as usize }\n}\n")
    unread = check(api_dir, quiet=True, sources=extra)
    hit = [m for m in unread.failures if "new_lookup.rs" in m]
    r.check(bool(hit), "the check fails on a look-up by hash it cannot read (a new call of "
            "classdb_get_method_bind): " + (hit[0] if hit else f"no such failure ({unread.failures[:3]})"))
    return r


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api-dir")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    api_dir = args.api_dir or find_api_dir()
    print(f"API data: {api_dir}")
    r = self_test(api_dir) if args.self_test else check(api_dir)
    print(f"{r.passed} passed, {len(r.failures)} failed")
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
