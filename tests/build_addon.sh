#!/usr/bin/env bash
# Builds the extension in release mode into addons/fast_var_codec/bin/:
#   tests/build_addon.sh            libfast_var_codec.so         (standard, single-precision engines)
#   tests/build_addon.sh --double   libfast_var_codec.double.so  (engines built with precision=double)
# The .gdextension picks between them with Godot's "double" feature tag.
#
# The double-precision library needs an API description (gdext's api-custom-json): Godot's export
# templates cannot dump theirs, so the single-precision Godot 4.6.3 editor ($GODOT4) dumps its own
# and the double-precision engine ($GODOT4_DOUBLE) keeps what it binds alike
# (tests/double_api/trim_api.gd); rust/gdextension/Cargo.toml says why that is sound.
# It builds in target/double/, beside the standard build, so neither rebuilds the other.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ "${1:-}" != "--double" ]; then
    cargo build --release -p fast_var_codec_gdextension >&2
    install -m 0755 target/release/libfast_var_codec.so addons/fast_var_codec/bin/libfast_var_codec.so
    echo "addons/fast_var_codec/bin/libfast_var_codec.so" >&2
    exit 0
fi
if [ -z "${GODOT4:-}" ]; then
    eval "$(bash tests/install_engines.sh 2>/dev/null)"
fi
[ -n "${GODOT4_DOUBLE:-}" ] || {
    echo "build_addon.sh: --double needs the double-precision engine (GODOT4_DOUBLE; ../shared/engines)" >&2
    exit 2
}
api_dir="$root/target/double/api"
mkdir -p "$api_dir"
if [ ! -s "$api_dir/double_api.json" ]; then
    # --dump-extension-api writes into the working directory; engine chatter goes to logs.
    (cd "$api_dir" && "$GODOT4" --headless --dump-extension-api >dump.log 2>&1) || {
        echo "build_addon.sh: $GODOT4 --dump-extension-api failed (target/double/api/dump.log)" >&2
        exit 1
    }
    "$GODOT4_DOUBLE" --headless --path "$root/tests/double_api" -s res://trim_api.gd -- \
        "$api_dir/extension_api.json" "$api_dir/double_api.json.tmp" >"$api_dir/trim.log" 2>&1 || {
        echo "build_addon.sh: tests/double_api/trim_api.gd failed (target/double/api/trim.log)" >&2
        exit 1
    }
    mv "$api_dir/double_api.json.tmp" "$api_dir/double_api.json"
    grep '^trim_api.gd:' "$api_dir/trim.log" >&2
fi
# gdext regenerates its bindings when this variable changes, not when the file does: name the file
# by its content.
api_json="$api_dir/double_api-$(sha256sum "$api_dir/double_api.json" | cut -c1-16).json"
cp "$api_dir/double_api.json" "$api_json"
GDRUST_GODOT_API_JSON="$api_json" cargo build --release -p fast_var_codec_gdextension \
    --no-default-features --features double-precision --target-dir target/double >&2
install -m 0755 target/double/release/libfast_var_codec.so addons/fast_var_codec/bin/libfast_var_codec.double.so
echo "addons/fast_var_codec/bin/libfast_var_codec.double.so" >&2
