#!/usr/bin/env bash
# Publishes the npm package's tarball that tests/build_npm.sh made (dist/fast-var-codec-VERSION.tgz)
# to the npm registry with `npm publish`: the release workflow's last job
# (.github/workflows/release.yml), which runs it only when the repository has an NPM_TOKEN secret.
#   NPM_TOKEN=... bash tests/publish_npm.sh TAG [--dry-run]
# The tag must be v followed by the project's version (tests/version.sh), the tarball's
# checksum must match dist/SHA256SUMS.npm (as the npm job left it), and its package.json must name
# fast-var-codec at that version: what is published is the file attached to the GitHub release.
# The token goes into a user config made for this run only (npm reads ${NPM_TOKEN} from the
# environment; the token is never written out), for the registry npm is configured with. With
# --dry-run: every check, then `npm publish --dry-run` (no token needed, nothing published).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tag=${1:?usage: $0 TAG [--dry-run]}
dry_run=0
[ "${2:-}" = --dry-run ] && dry_run=1
die() { echo "publish_npm.sh: $*" >&2; exit 1; }
version=$(bash tests/version.sh)
[ "$tag" = "v$version" ] || die "the tag $tag is not v$version (the version in Cargo.toml)"
tarball=dist/fast-var-codec-$version.tgz
[ -f "$tarball" ] && [ -f dist/SHA256SUMS.npm ] || die "no $tarball or dist/SHA256SUMS.npm"
(cd dist && sha256sum -c SHA256SUMS.npm) || die "dist/SHA256SUMS.npm does not match"
stated=$(tar -xOzf "$tarball" package/package.json \
    | node -e 'const p = JSON.parse(require("node:fs").readFileSync(0, "utf8")); console.log(p.name + "@" + p.version)')
[ "$stated" = "fast-var-codec@$version" ] || die "the tarball's package.json says $stated, not fast-var-codec@$version"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$dry_run" = 1 ]; then
    npm publish "./$tarball" --dry-run --access public
    exit
fi
[ -n "${NPM_TOKEN:-}" ] || die "NPM_TOKEN is not set"
# The registry's address without its scheme ("//host/"), the key npm files a token under.
registry=$(npm config get registry)
registry=${registry#*:}
registry=${registry%/}/
# shellcheck disable=SC2016 # npm expands ${NPM_TOKEN} itself, from the environment
printf '%s:_authToken=${NPM_TOKEN}\n' "$registry" >"$tmp/npmrc"
npm publish "./$tarball" --access public --userconfig "$tmp/npmrc"
echo "published fast-var-codec@$version"
