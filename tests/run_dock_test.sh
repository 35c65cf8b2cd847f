#!/usr/bin/env bash
# The editor's Saves dock (addons/fast_var_codec/editor/, the plugin of plugin.cfg) in a real
# Godot 4.6.3 editor, headless, on saves real engines wrote. The addon must already be built
# (tests/build_addon.sh).
#
#   tests/run_dock_test.sh      (GODOT4 / GODOT3 may be preset; otherwise tests/install_engines.sh
#                                finds them)
#
# In a project made under tests/out/run_dock_test/ holding only the addon and the test's files
# (tests/dock/), with its user:// there too (XDG_DATA_HOME):
# 1. Godot 4.6.3 (tests/dock/write_saves.gd) writes store_var files with its own FileAccess, in
#    every container (plain, the four compressions, open_encrypted_with_pass, open_encrypted), and
#    ConfigFiles (plain, save_encrypted_pass); Godot 3.6.2 (tests/saves/check3/dock_saves.gd) writes
#    store_var files of the same values in every container with its own File; its fixture of
#    every value (tests/saves/godot3_6_2/plain.bin: full Curves, objects as ids) is copied beside.
# 2. The Godot 4.6.3 editor (--editor --headless) starts with the Saves plugin and the test's
#    plugin enabled (tests/dock/dock_test/): it finds the dock, and for each file opens it through
#    the dock's fields (password, key, classes), edits values (inside Dictionaries, Arrays and
#    packed arrays), undoes and redoes through the editor's UndoRedo, saves, and opens it again;
#    the Key field starts with the export presets' key; Refresh reads a file the game wrote
#    again unless it holds edits; Delete asks, then deletes; a wrong password fails; the fixture opens with Curve listed, read only (it holds objects
#    written as ids beside full ones), and fails without. The editor loads the plugins with no
#    error.
# 3. Godot 4.6.3 reads back the Godot 4 files with its own FileAccess.get_var and ConfigFile
#    (tests/dock/read_back.gd); Godot 3.6.2 the Godot 3 ones with its own File (open_compressed,
#    open_encrypted...) and get_var (tests/saves/check3/dock_saves.gd --check): every value as edited.
# Ends with "N passed, N failed"; exits non-zero on any failure. Engine output:
# tests/out/run_dock_test/*.log.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)

need_addon || exit 2
need_engines GODOT4 GODOT3 || exit 2

project="$out/project"
rm -rf "$project" "$out/data"
mkdir -p "$project/.godot" "$project/addons" "$project/dock_test_lib" "$out/data"
cp -rL "$repo/addons/fast_var_codec" "$project/addons/"
cp -r "$here/dock/dock_test" "$project/addons/fvc_dock_test"
cp "$here/dock/"*.gd "$project/dock_test_lib/"
echo "res://addons/fast_var_codec/fast_var_codec.gdextension" >"$project/.godot/extension_list.cfg"
cat >"$project/project.godot" <<'PROJECT'
; The Saves dock's test project (tests/run_dock_test.sh).
config_version=5

[application]

config/name="FastVarCodec dock test"

[editor_plugins]

enabled=PackedStringArray("res://addons/fast_var_codec/plugin.cfg", "res://addons/fvc_dock_test/plugin.cfg")
PROJECT
# An export preset holding the project's encryption key, which the dock's Key field starts with.
cat >"$project/export_presets.cfg" <<'PRESETS'
[preset.0]

name="Linux"
platform="Linux"
runnable=true
export_filter="all_resources"
include_filter=""
exclude_filter=""
script_encryption_key="030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc"

[preset.0.options]

binary_format/embed_pck=false
PRESETS
# user:// of this project: $XDG_DATA_HOME/godot/app_userdata/<name>; the editor's settings and
# caches beside it, so that the run starts from nothing and leaves nothing elsewhere.
export XDG_DATA_HOME="$out/data" XDG_CONFIG_HOME="$out/data/config" XDG_CACHE_HOME="$out/data/cache"
user="$XDG_DATA_HOME/godot/app_userdata/FastVarCodec dock test"
mkdir -p "$user/godot3"

tally_init
tally_run "Godot 4.6.3 writes the saves" "$out/write_saves" \
    "$DEADLINE" -k 10 120 "$GODOT4" --headless --path "$project" -s res://dock_test_lib/write_saves.gd
tally_run "Godot 3.6.2 writes the saves" "$out/write_saves3" \
    "$DEADLINE" -k 10 120 "$GODOT3" --no-window --path "$here/saves/check3" -s res://dock_saves.gd \
    --write --dir="$user/godot3"
cp "$repo/tests/saves/godot3_6_2/plain.bin" "$user/godot3/fixture_plain.bin"

# The editor, its progress lines (the first scan, the import of icon.svg) kept in
# editor.progress.log: the test's own lines are what it shows.
editor() {
    local status=0
    "$DEADLINE" -k 10 300 "$GODOT4" --headless --editor --path "$project" >"$out/editor.progress.log" || status=$?
    grep -E '^(PASS|FAIL|[0-9]+ passed, [0-9]+ failed$)' "$out/editor.progress.log"
    return "$status"
}
tally_run "the Saves dock in the Godot 4.6.3 editor" "$out/editor" editor
# No engine error while the editor loads the plugins and the dock works (GDScript's own errors
# are checked above).
tally_check "the editor reported errors (tests/out/run_dock_test/editor.log)" \
    bash -c "! grep -E '^(ERROR|USER ERROR):' '$out/editor.log' '$out/editor.progress.log'"
# Nor a warning about the extension's classes (an object as a property's default, say), which a
# user would see at every start of the editor.
tally_check "the editor warned about the extension's classes (tests/out/run_dock_test/editor.log)" \
    bash -c "! grep -E '^WARNING:.*FastVar' '$out/editor.log' '$out/editor.progress.log'"

tally_run "Godot 4.6.3 reads back the Godot 4 saves" "$out/read_back4" \
    "$DEADLINE" -k 10 120 "$GODOT4" --headless --path "$project" -s res://dock_test_lib/read_back.gd
tally_run "Godot 3.6.2 reads back the Godot 3 saves" "$out/read_back3" \
    "$DEADLINE" -k 10 120 "$GODOT3" --no-window --path "$here/saves/check3" -s res://dock_saves.gd \
    --check --dir="$user/godot3"
tally_end
