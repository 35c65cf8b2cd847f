#!/usr/bin/env bash
# Uploads the Python package's wheels and sdist that tests/build_wheels.sh --all made
# (dist/wheels/) to PyPI with `maturin upload`: a job of the release workflow
# (.github/workflows/release.yml), which runs it only when the repository has a PYPI_TOKEN secret.
#   PYPI_TOKEN=... bash tests/publish_pypi.sh TAG [--dry-run]
# The tag must be v followed by the project's version (tests/version.sh); dist/wheels/SHA256SUMS.wheels
# must match and name exactly the four wheels (Linux x86_64 and aarch64, macOS universal2, Windows
# x64) and the sdist of that version, and each wheel's METADATA must say fast_var_codec at that
# version: what is uploaded is what the GitHub release carries. The token reaches maturin through
# its environment only (MATURIN_PYPI_TOKEN). With --dry-run: every check, nothing uploaded, no
# token needed. --skip-existing: a rerun of the job uploads only what is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tag=${1:?usage: $0 TAG [--dry-run]}
dry_run=0
[ "${2:-}" = --dry-run ] && dry_run=1
die() { echo "publish_pypi.sh: $*" >&2; exit 1; }
version=$(bash tests/version.sh)
[ "$tag" = "v$version" ] || die "the tag $tag is not v$version (the version in Cargo.toml)"
dir=dist/wheels
[ -f "$dir/SHA256SUMS.wheels" ] || die "no $dir/SHA256SUMS.wheels"
(cd "$dir" && sha256sum -c SHA256SUMS.wheels) || die "$dir/SHA256SUMS.wheels does not match"
want="fast_var_codec-$version-cp39-abi3-macosx_11_0_arm64.macosx_11_0_universal2.macosx_11_0_x86_64.whl
fast_var_codec-$version-cp39-abi3-manylinux2014_aarch64.manylinux_2_17_aarch64.whl
fast_var_codec-$version-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
fast_var_codec-$version-cp39-abi3-win_amd64.whl
fast_var_codec-$version.tar.gz"
want=$(echo "$want" | sort)
named=$(awk '{print $2}' "$dir/SHA256SUMS.wheels" | sed 's/^\*//' | sort)
[ "$named" = "$want" ] || die "$dir/SHA256SUMS.wheels names:
$named
not:
$want"
files=()
for f in $want; do
    files+=("$dir/$f")
    case $f in
        *.whl)
            stated=$(python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
m = z.read(sys.argv[2] + ".dist-info/METADATA").decode()
h = dict(l.split(": ", 1) for l in m.split("\n\n", 1)[0].splitlines() if ": " in l)
print(h.get("Name"), h.get("Version"))' "$dir/$f" "fast_var_codec-$version") || die "$f: no METADATA"
            [ "$stated" = "fast_var_codec $version" ] || die "$f: METADATA says $stated, not fast_var_codec $version" ;;
    esac
done
echo "to upload: ${files[*]}"
if [ "$dry_run" = 1 ]; then
    echo "dry run: nothing uploaded"
    exit
fi
[ -n "${PYPI_TOKEN:-}" ] || die "PYPI_TOKEN is not set"
eval "$(bash tests/install_tools.sh python)"
MATURIN_PYPI_TOKEN=$PYPI_TOKEN "$FVC_MATURIN" upload --non-interactive --skip-existing "${files[@]}"
echo "published fast_var_codec $version"
