#!/usr/bin/env bash
# Publishes a GitHub release of the zip that tests/package.sh made and its checksum file: the last
# job of the release workflow (.github/workflows/release.yml), run for a tag vVERSION.
#   GH_TOKEN=... bash tests/publish_release.sh TAG
# The tag must be v followed by the project's version (tests/version.sh), so that a release is
# never published under another number than the one its libraries report. The release's notes are
# CHANGELOG.md's entry for that version. Needs the gh command (on GitHub's runners) and dist/ as
# the package job left it: fast_var_codec-VERSION.zip and SHA256SUMS, which must match.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tag=${1:?usage: $0 TAG}
die() { echo "publish_release.sh: $*" >&2; exit 1; }
version=$(bash tests/version.sh)
[ "$tag" = "v$version" ] || die "the tag $tag is not v$version (the version in Cargo.toml)"
zip=dist/fast_var_codec-$version.zip
[ -f "$zip" ] && [ -f dist/SHA256SUMS ] || die "no $zip or dist/SHA256SUMS"
(cd dist && sha256sum -c SHA256SUMS) || die "dist/SHA256SUMS does not match"
notes=$(mktemp)
trap 'rm -f "$notes"' EXIT
# The entry: from "## VERSION" to the next "## " heading.
awk -v v="$version" '/^## / { on = ($2 == v) ; next } on' CHANGELOG.md >"$notes"
[ -s "$notes" ] || die "CHANGELOG.md has no entry '## $version'"
gh release create "$tag" "$zip" dist/SHA256SUMS --verify-tag --title "FastVarCodec $version" --notes-file "$notes"
