#!/usr/bin/env bash
# Prints the project's one version: `[workspace.package] version` in the root Cargo.toml, which
# every crate of the workspace takes (`version.workspace = true`) and the addon states
# (tests/check_version.py checks that they agree). The release zip is named by it.
#   bash tests/version.sh        -> 1.0.0
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n '/^\[workspace\.package\]/,/^\[/ s/^version *= *"\([^"]*\)".*/\1/p' "$root/Cargo.toml" | head -n 1)
[ -n "$version" ] || { echo "version.sh: no [workspace.package] version in Cargo.toml" >&2; exit 1; }
echo "$version"
