#!/usr/bin/env bash
# Checks the editor help of the extension's classes: every class, method, property, constant and
# signal that Godot lists for the extension's classes (FastVarCodec, FastVarStream, FastVarTextResource,
# FastVarResourceReference) has a description.
#   tests/check_docs.sh          (after tests/build_addon.sh; GODOT4 may be preset, otherwise
#                                 install_engines.sh finds it; needs cargo)
#
# How. Godot's doctool (`godot --doctool DIR --gdextension-docs`, Godot 4.3+) lists the classes
# as the loaded library registered them, but it never sees the help that the library hands a
# running editor (gdext's `register-docs`, through `editor_help_load_xml_from_utf8_chars_and_len`):
# it fills descriptions only from class XML already in DIR/doc_classes, as for C++ extensions,
# whose help lives in such files. So that folder first gets gdext's XML, as the editor receives
# it (written by the crate's unit test `editor_help::xml_per_class`); the doctool merges it, by
# name, into its own listing from the built library, with Godot's own XML parser. What comes out
# empty has no help in the editor either: a member without a `///` comment (or, for the
# per-value methods, without text in direct_methods.rs's table), or help under a wrong name.
#
# The help comes from the sources (the unit test's build), the classes and members from the built
# library, so build the addon from the same sources first (tests/run_all.sh does).
# The doctool runs on a temporary copy of the project (it may write caches), bounded by
# FVC_DOCTOOL_TIMEOUT seconds (default 120); its output is kept in tests/out/editor_help/.
# Every property (<member>) must also have its default (default="…"), which the doctool writes
# only for properties registered for the editor or storage.
# Prints each empty description and each member without a default, and ends with "N passed, N
# failed" (one check per class description, brief description and member, and one per member's
# default); exits non-zero on any failure.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo" || exit 2
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
addon="$repo/addons/fast_var_codec"
out=$(fvc_out_dir)

die() { echo "check_docs.sh: $*" >&2; exit 2; }

need_engines GODOT4 || exit 2
need_addon || exit 2

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fvc_check_docs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out/gdext" "$tmp/project/.godot" "$tmp/project/addons" "$tmp/doc/doc_classes"

# 1. gdext's help XML, one file per class, into the doctool's folder.
if ! FVC_EDITOR_HELP_DIR="$tmp/doc/doc_classes" cargo test -q -p fast_var_codec_gdextension \
        --lib editor_help::xml_per_class >"$out/cargo_test.log" 2>&1; then
    tail -n 20 "$out/cargo_test.log"
    die "the unit test writing the editor help failed (tests/out/check_docs/cargo_test.log)"
fi
classes=$(cd "$tmp/doc/doc_classes" && ls -- *.xml 2>/dev/null | sed 's/\.xml$//')
[ -n "$classes" ] || die "the unit test wrote no editor help"
cp "$tmp/doc/doc_classes/"*.xml "$out/gdext/"

# 2. The doctool, in a copy of the project that holds only the addon (the repository stays as it is).
cp "$repo/godot_project/project.godot" "$tmp/project/"
cp -rL "$addon" "$tmp/project/addons/"
echo "res://addons/fast_var_codec/fast_var_codec.gdextension" >"$tmp/project/.godot/extension_list.cfg"
status=0
limit=${FVC_DOCTOOL_TIMEOUT:-120}
"$DEADLINE" -k 10 "$limit" "$GODOT4" --headless --path "$tmp/project" --doctool "$tmp/doc" --gdextension-docs \
    >"$out/doctool.stdout.log" 2>"$out/doctool.stderr.log" || status=$?
if [ "$status" -ne 0 ]; then
    tail -n 20 "$out/doctool.stdout.log" "$out/doctool.stderr.log"
    die "the doctool failed (exit code $status; limit $limit s; logs in tests/out/check_docs/)"
fi
cp "$tmp/doc/doc_classes/"*.xml "$out/" 2>/dev/null
# Every class the doctool lists (the extension's own only), and every class gdext has help for.
classes=$( { echo "$classes"; cd "$tmp/doc/doc_classes" && ls -- *.xml 2>/dev/null | sed 's/\.xml$//'; } | sort -u)

# 3. Every description in the doctool's XML. Godot writes one tag per line: a class's
# <brief_description> and <description>, and per item (<method>, <member>, <constant>, <signal>…)
# its text, directly inside (members, constants) or in a <description> (methods, signals).
tally_init
tally_logs_clean --only-failure "the engine reported leaked objects or GDScript errors during the doctool run:" \
    "$out/doctool.stdout.log" "$out/doctool.stderr.log"
# Variant's builtin types, as the doctool names them (any other member type is a class).
builtin_types='^(bool|int|float|String|StringName|NodePath|Vector[234]i?|Rect2i?|Transform[23]D|Plane|Quaternion|AABB|Basis|Projection|Color|RID|Callable|Signal|Dictionary|Array|Packed[A-Za-z0-9]+Array|Variant)$'
for class in $classes; do
    xml="$out/$class.xml"
    if [ ! -f "$xml" ]; then
        tally 1 "$class: the doctool wrote no $class.xml (the library registers no such class)"
        continue
    fi
    report=$(awk -v class="$class" -v BUILTIN="$builtin_types" '
        function strip(s) { gsub(/<[^>]*>/, "", s); gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
        function finish(what) {
            if (text == "") { printf "FAIL %s %s: no description\n", class, what; bad++ } else ok++
            text = ""
        }
        { line = $0; sub(/^[ \t]+/, "", line) }
        item == "" && section == "" && match(line, /^<(method|member|constant|signal|annotation|constructor|operator|theme_item) name="[^"]*"/) {
            kind = substr(line, 2); sub(/ .*/, "", kind)
            name = line; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
            item = kind " " name; text = strip(line)
            # A member without default= shows no default in the help: the engine reads defaults
            # only of properties registered for the editor (or storage). It writes none for an
            # object (a class-typed member), in its own classes too: those say it in words.
            if (kind == "member") {
                type = line; sub(/^.* type="/, "", type); sub(/".*/, "", type)
                if (type !~ BUILTIN) { }
                else if (line ~ / default="/) ok++
                else { printf "FAIL %s %s: no default\n", class, item; bad++ }
            }
            if (line ~ ("</" kind ">$") || line ~ /\/>$/) { finish(item); item = "" }
            next
        }
        item != "" && line ~ ("^</" kind ">") { finish(item); item = ""; next }
        item != "" { t = strip(line); if (t != "") text = text " " t; next }
        line ~ /^<(brief_description|description)>/ {
            section = (line ~ /^<brief/) ? "class brief_description" : "class description"
            text = strip(line)
            if (line ~ /<\/(brief_description|description)>$/) { finish(section); section = "" }
            next
        }
        section != "" && line ~ /^<\/(brief_description|description)>/ { finish(section); section = ""; next }
        section != "" { t = strip(line); if (t != "") text = text " " t; next }
        END { print "COUNTS", ok + 0, bad + 0 }
    ' "$xml")
    grep -v '^COUNTS ' <<<"$report"
    read -r _ p f < <(grep '^COUNTS ' <<<"$report")
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        tally 1 "$class: no description found in $class.xml"
        continue
    fi
    echo "$class: $p descriptions and defaults found, $f missing"
    tally_add "$p" "$f"
done
echo "(the doctool's XML: tests/out/check_docs/)"
tally_end
