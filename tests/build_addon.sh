#!/usr/bin/env bash
# Builds the extension in release mode and puts the library into addons/fast_var_codec/bin/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release -p fast_var_codec_gdextension >&2
install -m 0755 target/release/libfast_var_codec.so addons/fast_var_codec/bin/libfast_var_codec.so
echo "addons/fast_var_codec/bin/libfast_var_codec.so" >&2
