#!/usr/bin/env bash
# Builds the Python package's wheels (rust/python) for release: one abi3 wheel per platform, for
# CPython 3.9 and later, built by maturin on this Linux machine (no Python of the target needed):
#   x86_64   manylinux2014 (glibc 2.17 or later): zig as the linker against glibc 2.17's symbols
#            (maturin --zig), stripped
#   aarch64  the same for Linux arm64
#   macos    one universal2 wheel (x86_64 + arm64, macOS 11.0 or later), linked by zig; not
#            stripped afterwards (that would break the arm64 slice's ad-hoc signature), it links
#            without a debug map or local symbols instead (rust/python/build.rs)
#   windows  win_amd64 (x86_64-pc-windows-gnu, Debian's MinGW linker; pyo3 makes python3.dll's
#            import library), stripped
#   sdist    the source package (maturin sdist)
#   --all    every one of them
# Default: x86_64. Into DIR (-o DIR; default dist/wheels/), whose earlier wheels of the same
# platforms are removed first; then DIR/SHA256SUMS.wheels (`sha256sum -c` format) over every
# wheel and sdist in DIR. Checks each file's name (version, cp39-abi3, the platform tag) and
# prints its path and size.
# The package's [project.urls] (Homepage, Source; on GitHub Documentation, Changelog, Issues):
# from FVC_PYPI_REPOSITORY when set (set and empty: none), else the git remote "origin" when it is
# an address others can reach (https://, ssh://, git@host:path), any user or token left out;
# else none, rather than a guessed one. When there is one, rust/python/pyproject.toml holds them
# for the build's duration and is restored afterwards.
# Tools: maturin, zig (ziglang) from tests/install_tools.sh into the tool cache; Rust targets from rustup
# (added when missing); for windows Debian's gcc-mingw-w64-x86-64 (apt, when missing). Logs:
# tests/out/build_wheels/maturin_PLATFORM.log. Builds use the default target dir ($CARGO_TARGET_DIR
# when set), release profile without debug info.
#   bash tests/build_wheels.sh [x86_64] [aarch64] [macos] [windows] [sdist] [--all] [-o DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=tests/lib.sh
source tests/lib.sh
logs=$(fvc_out_dir)
dir=$root/dist/wheels
platforms=()
while [ $# -gt 0 ]; do
    case $1 in
        x86_64|aarch64|macos|windows|sdist) platforms+=("$1") ;;
        --all) platforms+=(x86_64 aarch64 macos windows sdist) ;;
        -o) [ $# -ge 2 ] || { echo "usage: -o DIR" >&2; exit 2; }; dir=$2; shift ;;
        *) echo "usage: $0 [x86_64] [aarch64] [macos] [windows] [sdist] [--all] [-o DIR]" >&2; exit 2 ;;
    esac
    shift
done
[ ${#platforms[@]} -gt 0 ] || platforms=(x86_64)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log() { echo "[build_wheels] $*" >&2; }

eval "$(bash tests/install_tools.sh macos python 2>"$logs/install_tools.log")" \
    || { tail -n 20 "$logs/install_tools.log"; exit 1; }
export PYTHONPATH=$FVC_TOOLS_PYTHONPATH${PYTHONPATH:+:$PYTHONPATH}
export CARGO_PROFILE_RELEASE_DEBUG=0
version=$(bash tests/version.sh)

# --- the project URLs ----------------------------------------------------------------------------
if [ -n "${FVC_PYPI_REPOSITORY+set}" ]; then
    remote=$FVC_PYPI_REPOSITORY
else
    remote=$(git remote get-url origin 2>/dev/null || true)
fi
# An https address to browse, without a user or token; "" for none (a local path, file://).
address=$(python3 - "$remote" <<'PY'
import re, sys
from urllib.parse import urlsplit
text = sys.argv[1].strip()
m = re.fullmatch(r"[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):(?!/)(.+)", text)
if m:
    host, path = m.group(1), m.group(2)
else:
    u = urlsplit(text)
    host, path = (u.hostname or "", u.path.lstrip("/")) if u.scheme in ("https", "ssh", "git+https", "git+ssh") else ("", "")
path = re.sub(r"\.git$", "", path.rstrip("/"))
print(f"https://{host}/{path}" if host and path else "")
PY
)
pyproject=rust/python/pyproject.toml
if [ -n "$address" ]; then
    cp "$pyproject" "$logs/pyproject.toml.orig"
    trap 'cp "$logs/pyproject.toml.orig" "$root/$pyproject"' EXIT
    {
        echo
        echo "[project.urls]"
        echo "Homepage = \"$address\""
        echo "Source = \"$address\""
        if [[ $address == https://github.com/* ]]; then
            echo "Documentation = \"$address/blob/HEAD/docs/python.md\""
            echo "Changelog = \"$address/blob/HEAD/CHANGELOG.md\""
            echo "Issues = \"$address/issues\""
        fi
    } >>"$pyproject"
    log "project URLs: $address"
else
    log "project URLs: none (no FVC_PYPI_REPOSITORY and no public git remote \"origin\")"
fi

# --- the builds ----------------------------------------------------------------------------------
need_target() {
    if ! compgen -G "$(rustc --print target-libdir --target "$1" 2>/dev/null)/libstd-*.rlib" >/dev/null; then
        log "rustup target add $1"
        fvc_setup_locked timeout 600 rustup target add "$1" >&2
    fi
}
maturin_build() { # platform expected-glob maturin-args...
    local platform=$1 want=$2 built
    shift 2
    rm -f "$dir"/fast_var_codec-*"$want"
    log "maturin build $platform (log: ${logs#"$root/"}/maturin_$platform.log)"
    if ! nice -n 10 "$FVC_MATURIN" build --release -m rust/python/Cargo.toml -o "$dir" "$@" \
            >"$logs/maturin_$platform.log" 2>&1; then
        tail -n 30 "$logs/maturin_$platform.log" >&2
        log "the $platform wheel did not build"
        exit 1
    fi
    built=$(compgen -G "$dir/fast_var_codec-$version-$want" || true)
    if [ -z "$built" ] || [ "$(echo "$built" | wc -l)" != 1 ]; then
        log "expected one fast_var_codec-$version-$want in $dir; there: $(cd "$dir" && ls)"
        exit 1
    fi
    echo "$built ($(stat -c %s "$built") bytes)"
}
for platform in "${platforms[@]}"; do
    case $platform in
        x86_64)
            maturin_build x86_64 cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl \
                --strip --zig --compatibility manylinux2014 -i python3 ;;
        aarch64)
            need_target aarch64-unknown-linux-gnu
            maturin_build aarch64 cp39-abi3-manylinux2014_aarch64.manylinux_2_17_aarch64.whl \
                --strip --zig --compatibility manylinux2014 --target aarch64-unknown-linux-gnu -i python3 ;;
        macos)
            need_target aarch64-apple-darwin
            need_target x86_64-apple-darwin
            MACOSX_DEPLOYMENT_TARGET=11.0 maturin_build macos cp39-abi3-macosx_11_0_arm64.macosx_11_0_universal2.macosx_11_0_x86_64.whl \
                --zig --strip false --target universal2-apple-darwin -i python3 ;;
        windows)
            need_target x86_64-pc-windows-gnu
            if ! command -v x86_64-w64-mingw32-gcc >/dev/null || ! command -v x86_64-w64-mingw32-dlltool >/dev/null; then
                log "apt-get install gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64"
                fvc_setup_locked env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
                    gcc-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 >&2
            fi
            maturin_build windows cp39-abi3-win_amd64.whl \
                --strip --target x86_64-pc-windows-gnu -i python3 ;;
        sdist)
            rm -f "$dir"/fast_var_codec-*.tar.gz
            log "maturin sdist (log: ${logs#"$root/"}/maturin_sdist.log)"
            "$FVC_MATURIN" sdist -m rust/python/Cargo.toml -o "$dir" >"$logs/maturin_sdist.log" 2>&1 \
                || { tail -n 30 "$logs/maturin_sdist.log" >&2; exit 1; }
            built=$dir/fast_var_codec-$version.tar.gz
            [ -f "$built" ] || { log "expected $built; there: $(cd "$dir" && ls)"; exit 1; }
            echo "$built ($(stat -c %s "$built") bytes)" ;;
    esac
done
(cd "$dir" && sha256sum fast_var_codec-* >SHA256SUMS.wheels.tmp && mv SHA256SUMS.wheels.tmp SHA256SUMS.wheels)
