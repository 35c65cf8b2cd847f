#!/usr/bin/env bash
# Prepares godot_project/ for a headless run against the built FastVarCodec extension:
#   * links the addon (addons/fast_var_codec -> godot_project/addons/fast_var_codec), the
#     golden corpus (tests/golden -> godot_project/golden), the Godot 3 save-file fixtures
#     (tests/saves -> godot_project/saves) and the two scripts the golden corpus names
#     (godot_project/golden_item.gd, golden_holder.gd), relative symlinks, all gitignored;
#   * lists the extension in godot_project/.godot/extension_list.cfg (headless Godot 4 loads only
#     the extensions listed there; never run --import, which crashes this build);
#   * creates tests/out/.
#   tests/setup_godot_project.sh            (idempotent; exits 2 with a message on failure)
# It checks that the library has been built (tests/build_addon.sh) but does not build it, and it
# does not look for an engine (tests/install_engines.sh does).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
project="$repo/godot_project"
addon="$repo/addons/fast_var_codec"
# FVC_ADDON_LIBRARY: the library the run will load, when not the x86_64 one (tests/run_arm64.sh).
lib=${FVC_ADDON_LIBRARY:-$addon/bin/libfast_var_codec.so}
gdext="$addon/fast_var_codec.gdextension"

die() { echo "setup_godot_project.sh: $*" >&2; exit 2; }

[ -f "$lib" ] || die "the extension library is missing: $lib (build it: bash tests/build_addon.sh)"
[ -f "$gdext" ] || die "the extension descriptor is missing: $gdext"
[ -d "$repo/tests/golden" ] || die "the golden corpus is missing: $repo/tests/golden"
[ -d "$repo/tests/saves" ] || die "the save-file fixtures are missing: $repo/tests/saves"

# Symlinks (relative, so that the checkout can move), replacing stale links.
# Test steps run at the same time (tests/run_all.sh), each setting the project up before its
# engines start: what is already right is left untouched, so that an engine starting meanwhile
# never sees a link or file half made.
link() { # target linkname
    if [ -L "$2" ] && [ "$(readlink "$2")" = "$1" ]; then
        return 0
    elif [ -L "$2" ] || [ ! -e "$2" ]; then
        ln -sfn "$1" "$2"
    elif [ "$(readlink -f "$2")" != "$(readlink -f "$(dirname "$2")/$1")" ]; then
        die "$2 exists and is not a symlink to $1; remove it"
    fi
}
mkdir -p "$project/addons" "$project/.godot" "$repo/tests/out"
link ../../addons/fast_var_codec "$project/addons/fast_var_codec"
link ../tests/golden "$project/golden"
link ../tests/saves "$project/saves"
extensions="res://addons/fast_var_codec/fast_var_codec.gdextension"
if [ "$(cat "$project/.godot/extension_list.cfg" 2>/dev/null)" != "$extensions" ]; then
    echo "$extensions" >"$project/.godot/extension_list.cfg.$$"
    mv -f "$project/.godot/extension_list.cfg.$$" "$project/.godot/extension_list.cfg"
fi
# The two scripts the golden corpus names by res:// path (its full objects and script-typed
# containers), at those paths, so that decoding them finds the scripts the generator's engine had.
# The corpus's values themselves (golden_values.gd) are reached through the golden link.
for name in golden_item.gd golden_holder.gd; do
    link "../tests/golden/gen/godot4/$name" "$project/$name"
done
# Stale links to the generator's other scripts, which no scene needs, are removed.
for name in reals.gd golden_values.gd; do
    if [ -L "$project/$name" ] && [ "$(readlink "$project/$name")" = "../tests/golden/gen/godot4/$name" ]; then
        rm -f "$project/$name"
    fi
done
