#!/usr/bin/env bash
# Builds the extension in release mode into addons/fast_var_codec/bin/:
#   tests/build_addon.sh            libfast_var_codec.so         (standard, single-precision engines)
#   tests/build_addon.sh --double   libfast_var_codec.double.so  (engines built with precision=double)
#   tests/build_addon.sh --double --refresh-api   the same, making tests/double_api/double_api.json
#                                                 anew from the engines first
# The .gdextension picks between them with Godot's "double" feature tag.
#
# The double-precision library needs an API description (gdext's api-custom-json): Godot's export
# templates cannot dump theirs, so the single-precision Godot 4.6.3 editor ($GODOT4) dumps its own
# and the double-precision engine ($GODOT4_DOUBLE) keeps what it binds alike
# (tests/double_api/trim_api.gd); rust/gdextension/Cargo.toml says why that is sound. The result
# is committed (tests/double_api/double_api.json): building needs only Rust.
# It builds in target/double/, beside the standard build, so neither rebuilds the other.
# With FVC_TEST_BUILD=1 (the test command) both build a quicker profile: tests/lib.sh's
# fvc_release_profile.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=tests/lib.sh
source tests/lib.sh
fvc_release_profile
if [ "${1:-}" != "--double" ]; then
    cargo build --release --timings -p fast_var_codec_gdextension >&2
    install -m 0755 target/release/libfast_var_codec.so addons/fast_var_codec/bin/libfast_var_codec.so
    echo "addons/fast_var_codec/bin/libfast_var_codec.so" >&2
    exit 0
fi
# The API description, committed beside the script that makes it, so that the library builds
# without those engines; --refresh-api makes it again from the engines (tests/run_all.sh does, and
# checks that the committed file is what they give).
api="$root/tests/double_api/double_api.json"
if [ "${2:-}" = "--refresh-api" ] || [ ! -s "$api" ]; then
    need_engines GODOT4 GODOT4_DOUBLE || {
        echo "build_addon.sh: making the API description needs Godot 4 and the double-precision engine (GODOT4_DOUBLE; ../shared/engines)" >&2
        exit 2
    }
    work="$root/target/double/api"
    mkdir -p "$work"
    # --dump-extension-api writes into the working directory; engine chatter goes to logs.
    (cd "$work" && "$GODOT4" --headless --dump-extension-api >dump.log 2>&1) || {
        echo "build_addon.sh: $GODOT4 --dump-extension-api failed (target/double/api/dump.log)" >&2
        exit 1
    }
    "$GODOT4_DOUBLE" --headless --path "$root/tests/double_api" -s res://trim_api.gd -- \
        "$work/extension_api.json" "$work/double_api.json.tmp" >"$work/trim.log" 2>&1 || {
        echo "build_addon.sh: tests/double_api/trim_api.gd failed (target/double/api/trim.log)" >&2
        exit 1
    }
    mv "$work/double_api.json.tmp" "$api"
    grep '^trim_api.gd:' "$work/trim.log" >&2
fi
# target/ may be a link to the build cache (tests/lib.sh: fvc_use_build_cache): its real path, the
# same for every clone sharing the cache, so that another clone's build finds the bindings current.
mkdir -p "$root/target"
api_dir="$(cd "$root/target" && pwd -P)/double/api"
mkdir -p "$api_dir"
# gdext regenerates its bindings when this variable changes, not when the file does: name the file
# by its content.
api_json="$api_dir/double_api-$(sha256sum "$api" | cut -c1-16).json"
cp "$api" "$api_json"
GDRUST_GODOT_API_JSON="$api_json" cargo build --release --timings -p fast_var_codec_gdextension \
    --no-default-features --features double-precision --target-dir target/double >&2
install -m 0755 target/double/release/libfast_var_codec.so addons/fast_var_codec/bin/libfast_var_codec.double.so
echo "addons/fast_var_codec/bin/libfast_var_codec.double.so" >&2
