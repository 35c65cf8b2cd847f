"""Checks a macOS GDExtension library (a universal Mach-O dylib) with lief's Mach-O parser.

    python3 tests/macos/check_macho.py [--min-macos 11.0] [--entry gdext_rust_init]
                                       [--install-name @rpath/|any] LIBRARY...

For each LIBRARY: a fat (universal) file holding exactly the slices x86_64 and arm64; each slice a
64-bit MH_DYLIB that exports the entry symbol (with Mach-O's leading underscore), whose
LC_LOAD_DYLIB commands name only system libraries (/usr/lib/ or /System/Library/), whose install
name (LC_ID_DYLIB) is an @rpath/ one rather than a path of the build machine (--install-name any
leaves that out: a Python extension is opened by its path, its install name unused), and whose
LC_BUILD_VERSION names the platform macOS with the given minimum; the arm64 slice has an
LC_CODE_SIGNATURE whose blob lief can read, and which holds a CodeDirectory. Prints one line per
check ("PASS ..." / "FAIL ...") and then "N passed, N failed"; exits 1 when a check failed.
Needs lief (tests/install_tools.sh puts it in the tool cache: FVC_TOOLS_PYTHONPATH).
"""

import argparse
import struct
import sys

import lief

SYSTEM_PREFIXES = ("/usr/lib/", "/System/Library/")
WANTED_SLICES = {"x86_64": lief.MachO.Header.CPU_TYPE.X86_64, "arm64": lief.MachO.Header.CPU_TYPE.ARM64}
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
            print("PASS", what)
        else:
            self.failed += 1
            print("FAIL", what)
        return ok


def arch_name(binary):
    for name, cpu in WANTED_SLICES.items():
        if binary.header.cpu_type == cpu:
            return name
    return str(binary.header.cpu_type)


def version_text(v):
    return ".".join(str(x) for x in v)


def code_directory_count(binary):
    """The number of CodeDirectory blobs in the slice's embedded signature (a SuperBlob, big
    endian), read from the bytes LC_CODE_SIGNATURE points at."""
    sig = binary.code_signature
    content = bytes(sig.content)
    if len(content) < 12:
        return 0
    magic, _length, count = struct.unpack(">III", content[:12])
    if magic != CSMAGIC_EMBEDDED_SIGNATURE:
        return 0
    found = 0
    for i in range(count):
        _type, offset = struct.unpack(">II", content[12 + 8 * i : 20 + 8 * i])
        if struct.unpack(">I", content[offset : offset + 4])[0] == CSMAGIC_CODEDIRECTORY:
            found += 1
    return found


def check_library(path, min_macos, entry, install_name, c):
    fat = lief.MachO.parse(path)
    if not c.check(fat is not None, f"{path}: lief parses it as Mach-O"):
        return
    raw = open(path, "rb").read(4)
    c.check(raw == b"\xca\xfe\xba\xbe", f"{path}: a fat (universal) file (magic {raw.hex()})")
    slices = {arch_name(b): b for b in fat}
    c.check(sorted(slices) == sorted(WANTED_SLICES) and fat.size == 2,
            f"{path}: slices {sorted(slices)} (wanted x86_64 and arm64)")
    want_min = tuple(int(x) for x in min_macos.split(".")) + (0,) * (3 - len(min_macos.split(".")))
    for name, b in sorted(slices.items()):
        where = f"{path} [{name}]"
        c.check(b.header.magic == lief.MachO.MACHO_TYPES.MAGIC_64, f"{where}: 64-bit Mach-O")
        c.check(b.header.file_type == lief.MachO.Header.FILE_TYPE.DYLIB, f"{where}: MH_DYLIB ({b.header.file_type})")
        exported = {s.name for s in b.exported_symbols}
        c.check("_" + entry in exported, f"{where}: exports _{entry}")
        loads = [cmd.name for cmd in b.libraries if cmd.command == lief.MachO.LoadCommand.TYPE.LOAD_DYLIB]
        # Weak, re-exported, lazy and upward loads too (the slice's own LC_ID_DYLIB is no load).
        weak = [cmd.name for cmd in b.libraries
                if cmd.command not in (lief.MachO.LoadCommand.TYPE.LOAD_DYLIB, lief.MachO.LoadCommand.TYPE.ID_DYLIB)]
        others = [n for n in loads + weak if not n.startswith(SYSTEM_PREFIXES)]
        c.check(loads and not others,
                f"{where}: loads only system libraries: {', '.join(loads + weak)}"
                + (f" (not system: {', '.join(others)})" if others else ""))
        ids = [cmd for cmd in b.commands if cmd.command == lief.MachO.LoadCommand.TYPE.ID_DYLIB]
        if install_name != "any":
            c.check(len(ids) == 1 and ids[0].name.startswith(install_name),
                    f"{where}: install name {ids[0].name if ids else None} (wanted {install_name}...)")
        builds = [cmd for cmd in b.commands if cmd.command == lief.MachO.LoadCommand.TYPE.BUILD_VERSION]
        ok = (len(builds) == 1 and builds[0].platform == lief.MachO.BuildVersion.PLATFORMS.MACOS
              and tuple(builds[0].minos) == want_min)
        c.check(ok, f"{where}: LC_BUILD_VERSION "
                + (f"platform {builds[0].platform}, minos {version_text(builds[0].minos)}, sdk {version_text(builds[0].sdk)}"
                   if builds else "missing")
                + f" (wanted MACOS, minos {min_macos})")
        if name == "arm64":
            has = b.has_code_signature
            c.check(has, f"{where}: LC_CODE_SIGNATURE present (arm64 macOS loads only signed code)")
            if has:
                n = code_directory_count(b)
                c.check(n >= 1, f"{where}: the signature is an embedded SuperBlob with {n} CodeDirectory")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--min-macos", default="11.0")
    p.add_argument("--entry", default="gdext_rust_init")
    p.add_argument("--install-name", default="@rpath/")
    p.add_argument("libraries", nargs="+")
    a = p.parse_args()
    lief.logging.disable()
    c = Checks()
    for path in a.libraries:
        check_library(path, a.min_macos, a.entry, a.install_name, c)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
