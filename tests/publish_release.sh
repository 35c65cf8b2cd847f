#!/usr/bin/env bash
# Publishes a GitHub release of the zip that tests/package.sh made, the npm package's tarball that
# tests/build_npm.sh made, the web page's zip that tests/build_web.sh made, the Python package's
# wheels and sdist that tests/build_wheels.sh --all made, and one checksum file for them all: a
# job of the release workflow
# (.github/workflows/release.yml), run for a tag vVERSION.
#   GH_TOKEN=... bash tests/publish_release.sh TAG
# The tag must be v followed by the project's version (tests/version.sh), so that a release is
# never published under another number than the one its libraries and its package report. The
# release's notes are CHANGELOG.md's entry for that version. Needs the gh command (on GitHub's
# runners) and dist/ as the package and npm jobs left it: fast_var_codec-VERSION.zip with
# SHA256SUMS, fast-var-codec-VERSION.tgz with SHA256SUMS.npm, fast-var-codec-web-VERSION.zip with
# SHA256SUMS.web, dist/wheels/ with the four wheels, the sdist and SHA256SUMS.wheels, each
# checked; the release's SHA256SUMS holds every file's line (`sha256sum -c SHA256SUMS` checks
# every download).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tag=${1:?usage: $0 TAG}
die() { echo "publish_release.sh: $*" >&2; exit 1; }
version=$(bash tests/version.sh)
[ "$tag" = "v$version" ] || die "the tag $tag is not v$version (the version in Cargo.toml)"
zip=dist/fast_var_codec-$version.zip
tgz=dist/fast-var-codec-$version.tgz
web=dist/fast-var-codec-web-$version.zip
[ -f "$zip" ] && [ -f dist/SHA256SUMS ] || die "no $zip or dist/SHA256SUMS"
[ -f "$tgz" ] && [ -f dist/SHA256SUMS.npm ] || die "no $tgz or dist/SHA256SUMS.npm"
[ -f "$web" ] && [ -f dist/SHA256SUMS.web ] || die "no $web or dist/SHA256SUMS.web"
(cd dist && sha256sum -c SHA256SUMS) || die "dist/SHA256SUMS does not match"
(cd dist && sha256sum -c SHA256SUMS.npm) || die "dist/SHA256SUMS.npm does not match"
(cd dist && sha256sum -c SHA256SUMS.web) || die "dist/SHA256SUMS.web does not match"
grep -q " fast_var_codec-$version.zip\$" dist/SHA256SUMS || die "dist/SHA256SUMS does not name the zip"
grep -q " fast-var-codec-$version.tgz\$" dist/SHA256SUMS.npm || die "dist/SHA256SUMS.npm does not name the tarball"
grep -q " fast-var-codec-web-$version.zip\$" dist/SHA256SUMS.web || die "dist/SHA256SUMS.web does not name the web page's zip"
# The Python package: the files tests/publish_pypi.sh uploads, checked the same way.
bash tests/publish_pypi.sh "$tag" --dry-run || die "dist/wheels/ is not the release's wheels and sdist"
python_files=()
while read -r _sum name; do
    python_files+=("dist/${name#\*}")
done <dist/wheels/SHA256SUMS.wheels
cp dist/wheels/fast_var_codec-* dist/
# One checksum file for the release: the zip's line, the tarball's, the web page's, the wheels'.
cat dist/SHA256SUMS.npm dist/SHA256SUMS.web dist/wheels/SHA256SUMS.wheels >>dist/SHA256SUMS
rm dist/SHA256SUMS.npm dist/SHA256SUMS.web
(cd dist && sha256sum -c SHA256SUMS) || die "the merged dist/SHA256SUMS does not match"
notes=$(mktemp)
trap 'rm -f "$notes"' EXIT
# The entry: from "## VERSION" to the next "## " heading.
awk -v v="$version" '/^## / { on = ($2 == v) ; next } on' CHANGELOG.md >"$notes"
[ -s "$notes" ] || die "CHANGELOG.md has no entry '## $version'"
gh release create "$tag" "$zip" "$tgz" "$web" "${python_files[@]}" dist/SHA256SUMS --verify-tag --title "FastVarCodec $version" --notes-file "$notes"
