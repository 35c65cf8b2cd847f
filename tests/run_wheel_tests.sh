#!/usr/bin/env bash
# The Linux x86_64 wheel a release ships (tests/build_wheels.sh x86_64), checked as a file and run
# where the oldest systems it admits are:
#   * auditwheel (pinned, in the tool cache) finds it consistent with manylinux_2_17_x86_64; the
#     newest glibc symbol version its extension needs is 2.17 or older (objdump -T); the extension
#     carries no debug sections and no symbol table (readelf -S); its METADATA has the name and
#     the project's version, License-Expression MIT with its License-File and no License
#     classifier, Requires-Python >=3.9, a Markdown description, https project URLs (when there
#     are any: tests/build_wheels.sh says when); the wheel is smaller than 1 MiB;
#   * in Debian 11 "bullseye" (glibc 2.31, CPython 3.9.2, pip 20.3.4; tests/install_oldglibc.sh),
#     entered with chroot in a mount namespace of its own (unshare; the repository, the engine
#     cache and the engines' folders bound at their own paths): bullseye's pip installs the wheel
#     and the 3.9 test set (pytest 8.4.2, numpy 2.0.2; tests/install_tools.sh wheels) offline
#     into a fresh venv, and pytest runs all of rust/python/tests against Godot 4.6.3 and 3.6.2
#     ($GODOT4, $GODOT3) and the root's own Godot 3.2.3 as $GODOT32.
# The wheel: tests/out/run_python_tests/wheel/'s (the `python` step's), else one built here into
# tests/out/run_wheel_tests/wheel/.
# --all: the release's wheels in DIR (-o DIR; default dist/wheels/, what tests/build_wheels.sh
# --all makes there; missing ones are built), the x86_64 one as above, and besides
#   * aarch64: the same file checks as x86_64 (manylinux_2_17_aarch64); then run under
#     qemu-aarch64 in an arm64 bullseye root (tests/install_oldglibc.sh --arm64): its CPython
#     3.9.2 and pip install it with the aarch64 3.9 test set into a venv, and pytest runs
#     rust/python/tests but for the tests that start Python itself as a child process
#     (test_save_editor.py, test_live_engines.py, one of test_edges.py: no binfmt_misc here);
#   * Windows: the .pyd exports PyInit__native alone, imports python3.dll (the stable ABI; no
#     python3X.dll) and Windows system DLLs only, not PyUnicode_AsUTF8AndSize (python3.dll has it
#     from 3.10 only), carries no symbol table; delvewheel finds nothing to vendor. Not run;
#   * macOS: tests/macos/check_macho.py (lief): both slices, PyInit__native exported, system
#     libraries only (no libpython), macOS 11.0, the arm64 slice signed; under 2 MiB. Not run.
# Every wheel: METADATA as above.
# Each check counts once, pytest's passed tests each (its failures, errors and skips as
# failures); ends with "N passed, N failed", exits 1 on a failure. Needs root (unshare, mount,
# chroot). Logs: tests/out/run_wheel_tests/.
#   bash tests/run_wheel_tests.sh [--all [-o DIR]]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
all=0
dir=$fvc_root/dist/wheels
while [ $# -gt 0 ]; do
    case $1 in
        --all) all=1 ;;
        -o) [ $# -ge 2 ] || { echo "usage: -o DIR" >&2; exit 2; }; dir=$2; shift ;;
        *) echo "usage: $0 [--all [-o DIR]]" >&2; exit 2 ;;
    esac
    shift
done
need_engines GODOT3 GODOT4 GODOT32 || exit 2
out=$(fvc_out_dir)
tally_init
pass() { tally 0; echo "PASS $*"; }
fail() { tally 1 "$*"; }

tools=$(bash tests/install_tools.sh wheels 2>"$out/install_tools.log") \
    || { tail -n 20 "$out/install_tools.log"; fail "tests/install_tools.sh wheels"; tally_end; exit 1; }
eval "$tools"
oldglibc=$(bash tests/install_oldglibc.sh 2>"$out/install_oldglibc.log") \
    || { tail -n 20 "$out/install_oldglibc.log"; fail "tests/install_oldglibc.sh"; tally_end; exit 1; }
eval "$oldglibc"

version=$(bash tests/version.sh)
declare -A names=(
    [x86_64]=fast_var_codec-$version-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
    [aarch64]=fast_var_codec-$version-cp39-abi3-manylinux2014_aarch64.manylinux_2_17_aarch64.whl
    [macos]=fast_var_codec-$version-cp39-abi3-macosx_11_0_arm64.macosx_11_0_universal2.macosx_11_0_x86_64.whl
    [windows]=fast_var_codec-$version-cp39-abi3-win_amd64.whl
)
if [ "$all" = 1 ]; then
    mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
    missing=()
    for platform in x86_64 aarch64 macos windows; do
        [ -f "$dir/${names[$platform]}" ] || missing+=("$platform")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "=== tests/build_wheels.sh ${missing[*]} -o ${dir#"$fvc_root/"} (log: ${out#"$fvc_root/"}/build_wheels.log)"
        if ! bash tests/build_wheels.sh "${missing[@]}" -o "$dir" >"$out/build_wheels.log" 2>&1; then
            tail -n 20 "$out/build_wheels.log"
            fail "the wheels did not build"
            tally_end
            exit 1
        fi
    fi
    wheel=$dir/${names[x86_64]}
else
    wheel=$fvc_root/tests/out/run_python_tests/wheel/${names[x86_64]}
    if [ ! -f "$wheel" ]; then
        wheel=$out/wheel/${names[x86_64]}
        echo "=== no wheel from the python step: tests/build_wheels.sh x86_64 -o ${out#"$fvc_root/"}/wheel"
        if ! bash tests/build_wheels.sh x86_64 -o "$out/wheel" >"$out/build_wheels.log" 2>&1; then
            tail -n 20 "$out/build_wheels.log"
            fail "the wheel did not build"
            tally_end
            exit 1
        fi
    fi
fi

# unpack WHEEL PLATFORM: the wheel unzipped into $out/unpacked/PLATFORM (printed).
unpack() {
    local to=$out/unpacked/$2
    rm -rf "$to" && mkdir -p "$to"
    python3 -m zipfile -e "$1" "$to"
    echo "$to"
}

# check_metadata WHEEL PLATFORM
check_metadata() {
    local meta
    meta=$(compgen -G "$out/unpacked/$2/fast_var_codec-$version.dist-info/METADATA" || true)
    if [ -n "$meta" ] && python3 - "$meta" "$version" <<'PY'
import sys
from email.parser import Parser
meta = Parser().parsestr(open(sys.argv[1], encoding="utf-8").read())
version = sys.argv[2]
problems = []
def want(field, value):
    if meta.get(field) != value:
        problems.append(f"{field}: {meta.get(field)!r}, not {value!r}")
want("Name", "fast_var_codec")
want("Version", version)
want("License-Expression", "MIT")
want("License-File", "LICENSE")
want("Requires-Python", ">=3.9")
if not (meta.get("Description-Content-Type") or "").startswith("text/markdown"):
    problems.append(f"Description-Content-Type: {meta.get('Description-Content-Type')!r}")
if "fast_var_codec" not in meta.get_payload():
    problems.append("no description")
if any(c.startswith("License ::") for c in meta.get_all("Classifier") or []):
    problems.append("a License classifier beside License-Expression")
urls = meta.get_all("Project-URL") or []
problems += [f"Project-URL {u!r} is not https" for u in urls if not u.split(", ", 1)[-1].startswith("https://")]
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"{len(urls)} project URLs, {len(meta.get_all('Classifier') or [])} classifiers")
PY
    then
        pass "$2: METADATA: name, version $version, License-Expression MIT, License-File, Requires-Python >=3.9, a Markdown description"
    else
        fail "$2: METADATA of the wheel"
    fi
}

# check_size WHEEL PLATFORM [MIB]: smaller than MIB MiB (default 1; the macOS wheel holds two
# architectures).
check_size() {
    local size mib=${3:-1}
    size=$(stat -c %s "$1")
    if [ "$size" -lt $((mib * 1024 * 1024)) ]; then
        pass "$2: the wheel is $size bytes (under $mib MiB)"
    else
        fail "$2: the wheel is $size bytes ($mib MiB at most)"
    fi
}

# check_linux WHEEL ARCH: the manylinux2014 checks.
check_linux() {
    local wheel=$1 arch=$2 so newest sections
    echo "=== ${wheel#"$fvc_root/"} ($(stat -c %s "$wheel") bytes)"
    PYTHONPATH=$FVC_WHEEL_TOOLS_PYTHONPATH python3 -m auditwheel show "$wheel" >"$out/auditwheel_$arch.log" 2>&1
    if tr '\n' ' ' <"$out/auditwheel_$arch.log" | grep -q "consistent with the following platform tag: *\"manylinux_2_17_$arch\""; then
        pass "$arch: auditwheel show: consistent with manylinux_2_17_$arch"
    else
        cat "$out/auditwheel_$arch.log"
        fail "$arch: auditwheel show: not consistent with manylinux_2_17_$arch"
    fi
    so=$(unpack "$wheel" "$arch")/fast_var_codec/_native.abi3.so
    if [ -f "$so" ]; then
        newest=$(objdump -T "$so" | grep -Eo 'GLIBC_[0-9.]+' | sort -uV | tail -n 1)
        if [ -n "$newest" ] && [ "$(printf '%s\nGLIBC_2.17\n' "$newest" | sort -V | tail -n 1)" = GLIBC_2.17 ]; then
            pass "$arch: the newest glibc symbol version the extension needs: $newest (2.17 at most)"
        else
            fail "$arch: the extension needs ${newest:-no glibc symbol version at all}, newer than GLIBC_2.17"
        fi
        sections=$(readelf -SW "$so" | grep -Eo '\.(debug_[a-z_]+|symtab)\b' | sort -u | tr '\n' ' ')
        if [ -z "$sections" ]; then
            pass "$arch: the extension is stripped: no .debug_* and no .symtab"
        else
            fail "$arch: the extension is not stripped: $sections"
        fi
    else
        fail "$arch: no fast_var_codec/_native.abi3.so in the wheel"
    fi
    check_metadata "$wheel" "$arch"
    check_size "$wheel" "$arch"
}

# check_windows WHEEL
check_windows() {
    local wheel=$1 pyd dump exports imports others
    echo "=== ${wheel#"$fvc_root/"} ($(stat -c %s "$wheel") bytes)"
    pyd=$(unpack "$wheel" windows)/fast_var_codec/_native.pyd
    if [ ! -f "$pyd" ]; then
        fail "windows: no fast_var_codec/_native.pyd in the wheel"
        return
    fi
    dump=$(x86_64-w64-mingw32-objdump -p "$pyd")
    exports=$(echo "$dump" | sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' | sed -n 's/^\s*\[ *[0-9]*\] //p' | tr '\n' ' ')
    if [ "$exports" = "PyInit__native " ]; then
        pass "windows: the .pyd exports PyInit__native alone"
    else
        fail "windows: the .pyd exports: ${exports:-nothing}"
    fi
    imports=$(echo "$dump" | sed -n 's/^\s*DLL Name: //p' | sort -uf)
    echo "imports: $(echo "$imports" | tr '\n' ' ')"
    # Windows' own DLLs (and the API sets that forward to them), and python3.dll.
    others=$(echo "$imports" | grep -viE '^(python3|kernel32|kernelbase|ntdll|advapi32|userenv|ws2_32|bcrypt|bcryptprimitives|msvcrt|ucrtbase|user32|ole32|oleaut32|shell32|secur32|crypt32|ncrypt|dbghelp|synchronization|api-ms-win-[a-z0-9-]+)\.dll$' || true)
    if echo "$imports" | grep -qix 'python3.dll' && [ -z "$others" ]; then
        pass "windows: imports python3.dll (the stable ABI) and Windows system DLLs only"
    else
        fail "windows: imports ${others:-no python3.dll}"
    fi
    if echo "$dump" | grep -qw PyUnicode_AsUTF8AndSize; then
        fail "windows: imports PyUnicode_AsUTF8AndSize, which python3.dll has from 3.10 only"
    else
        pass "windows: does not import PyUnicode_AsUTF8AndSize (python3.dll has it from 3.10 only)"
    fi
    if x86_64-w64-mingw32-objdump -h "$pyd" | grep -qE '\.debug_|\.symtab'; then
        fail "windows: the .pyd carries debug sections"
    else
        pass "windows: no debug sections"
    fi
    if PYTHONPATH=$FVC_WHEEL_TOOLS_PYTHONPATH python3 -m delvewheel show "$wheel" >"$out/delvewheel.log" 2>&1 \
            && grep -q 'will be copied into the wheel' "$out/delvewheel.log" \
            && sed -n '/will be copied into the wheel/,/^$/p' "$out/delvewheel.log" | grep -q 'None'; then
        pass "windows: delvewheel show: nothing to copy into the wheel"
    else
        cat "$out/delvewheel.log"
        fail "windows: delvewheel show"
    fi
    check_metadata "$wheel" windows
    check_size "$wheel" windows
}

# check_macos WHEEL
check_macos() {
    local wheel=$1 so
    echo "=== ${wheel#"$fvc_root/"} ($(stat -c %s "$wheel") bytes)"
    so=$(unpack "$wheel" macos)/fast_var_codec/_native.abi3.so
    if [ ! -f "$so" ]; then
        fail "macos: no fast_var_codec/_native.abi3.so in the wheel"
        return
    fi
    eval "$(bash tests/install_tools.sh macos 2>>"$out/install_tools.log")"
    PYTHONPATH=$FVC_TOOLS_PYTHONPATH python3 tests/macos/check_macho.py --entry PyInit__native \
        --min-macos 11.0 --install-name any "$so" >"$out/check_macho.log" 2>&1
    tally_result "macos: tests/macos/check_macho.py" "$out/check_macho.log" $?
    grep -E '^(PASS|FAIL)' "$out/check_macho.log" | sed "s/^/macos: /; s|$out/||g"
    check_metadata "$wheel" macos
    check_size "$wheel" macos 2
}

check_linux "$wheel" x86_64
if [ "$all" = 1 ]; then
    check_linux "$dir/${names[aarch64]}" aarch64
    check_windows "$dir/${names[windows]}"
    check_macos "$dir/${names[macos]}"
fi

echo "=== in Debian bullseye (${FVC_OLDGLIBC_ROOT}): bullseye's pip installs the wheel, pytest rust/python/tests"
R=$FVC_OLDGLIBC_ROOT
cache=${FVC_ENGINE_CACHE:-/var/cache/fast_var_codec}
# Bound at their own paths inside: the repository (the tests, the golden files), the engine
# cache (the sid root the engines' wrappers run through) and each engine's own folder. The wheel
# and the 3.9 test set (in the tool cache, wherever FVC_TOOL_CACHE puts it) are copied into the
# root's /tmp before chroot, while the host's paths are still seen: nothing inside reads the
# tool cache.
binds=("$fvc_root" "$cache")
for engine in "$GODOT4" "$GODOT3"; do
    d=$(dirname "$(realpath "$engine")")
    case "$d/" in "$fvc_root/"*|"$cache/"*) ;; *) binds+=("$d") ;; esac
done
# shellcheck disable=SC2016 # expanded by the inner shell
R=$R WHEEL=$wheel PY39=$FVC_PY39_WHEELS/x86_64 PINS=$FVC_PY39_TEST_PINS BINDS="${binds[*]}" \
    GODOT4=$GODOT4 GODOT3=$GODOT3 FVC_ROOT=$fvc_root OUT=$out \
    "$DEADLINE" 900 unshare --mount --propagation private bash -ec '
    mount -t proc proc "$R/proc"
    mount --rbind /dev "$R/dev"
    # The root'"'"'s own /tmp first: the binds go over it, so a clone under /tmp stays seen.
    mount -t tmpfs tmpfs "$R/tmp"
    for d in $BINDS; do mkdir -p "$R$d"; mount --bind "$d" "$R$d"; done
    mkdir -p "$R/tmp/wheels"
    cp "$WHEEL" "$PY39"/*.whl "$R/tmp/wheels/"
    exec chroot "$R" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        GODOT4="$GODOT4" GODOT3="$GODOT3" GODOT32=/usr/bin/godot3-server FVC_REQUIRE_ENGINES=1 \
        PYTHONDONTWRITEBYTECODE=1 FVC_PYTHON_TEST_OUT="$OUT" PINS="$PINS" WHEEL="/tmp/wheels/${WHEEL##*/}" FVC_ROOT="$FVC_ROOT" \
        bash -ec "
            echo \"inside: \$(ldd --version | head -n 1), \$(python3 -V), pip \$(python3 -m pip --version | cut -d\" \" -f2)\"
            python3 -m venv /tmp/venv
            /tmp/venv/bin/pip install --quiet --disable-pip-version-check --no-index --find-links /tmp/wheels \$PINS \$WHEEL
            /tmp/venv/bin/pip list --disable-pip-version-check 2>/dev/null | grep -E \"^(fast-var-codec|fast_var_codec|pytest|numpy) \" | tr -s \" \" | tr \"\n\" \" \"; echo
            cd \$FVC_ROOT/rust/python/tests
            exec /tmp/venv/bin/python -m pytest -q -p no:cacheprovider -rfEs
        "
' >"$out/pytest.log" 2>&1
status=$?

grep -E '^(inside: |fast-var-codec )' "$out/pytest.log"
count_pytest "$out/pytest.log" "$status" "the bullseye run"

if [ "$all" = 1 ]; then
    # The aarch64 wheel in an arm64 bullseye root under qemu-aarch64 -L (the guest's absolute
    # paths looked up in the root first). No binfmt_misc here: an aarch64 program cannot start
    # another one, so the tests that run sys.executable as a child are left out (they run in
    # the x86_64 runs above); the engines they start are x86_64 programs, run natively.
    echo "=== the aarch64 wheel in Debian bullseye arm64 under qemu-aarch64: pytest rust/python/tests"
    if ! command -v qemu-aarch64 >/dev/null; then
        fvc_setup_locked env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >&2
    fi
    if arm64=$(bash tests/install_oldglibc.sh --arm64 2>>"$out/install_oldglibc.log"); then
        eval "$arm64"
        A=$FVC_OLDGLIBC_ARM64_ROOT
        venv=$out/venv_aarch64
        rm -rf "$venv"
        (
            set -e
            run() { "$DEADLINE" 1200 qemu-aarch64 -L "$A" "$@"; }
            echo "inside: $(run "$A/usr/bin/python3.9" -c 'import platform, sys; print(platform.machine(), "Python", sys.version.split()[0])')"
            run "$A/usr/bin/python3.9" -m venv --without-pip "$venv"
            # pip from bullseye's own wheel of it (ensurepip would start an aarch64 child).
            # shellcheck disable=SC2086 # the pins are words
            run "$venv/bin/python" "$(compgen -G "$A/usr/share/python-wheels/pip-*.whl")/pip" install --quiet \
                --disable-pip-version-check --no-compile --no-index --find-links "$FVC_PY39_WHEELS/aarch64" \
                $FVC_PY39_TEST_PINS "$dir/${names[aarch64]}"
            cd rust/python/tests
            PYTHONDONTWRITEBYTECODE=1 FVC_REQUIRE_ENGINES=1 GODOT32=$GODOT32 FVC_PYTHON_TEST_OUT=$out/aarch64 \
                run "$venv/bin/python" -m pytest -q -p no:cacheprovider -rfEs \
                --ignore=test_save_editor.py --ignore=test_live_engines.py \
                -k 'not test_a_small_file_announcing_1_gib_is_refused_before_it_is_inflated'
        ) >"$out/pytest_aarch64.log" 2>&1
        status=$?
        grep -E '^inside: ' "$out/pytest_aarch64.log"
        count_pytest "$out/pytest_aarch64.log" "$status" "the aarch64 run"
    else
        tail -n 20 "$out/install_oldglibc.log"
        fail "tests/install_oldglibc.sh --arm64"
    fi
fi
tally_end
