#!/usr/bin/env bash
# The Python package (rust/python): builds the wheel a release ships for Linux x86_64
# (tests/build_wheels.sh x86_64: manylinux2014, with maturin and zig from the tool cache; the `wheels`
# step tests the same file in an old-glibc root), installs it into a fresh venv under
# tests/out/run_python_tests/ with pytest, mypy and numpy (pinned there; the package needs none of them), and runs
#   * pytest over rust/python/tests: every engine's golden corpus (tests/golden/, the files the
#     Rust tests read), the Godot 3 save fixtures (tests/saves/), the save editor of
#     docs/python.md run verbatim against a real Godot 3.6.2 ($GODOT3), the files the package
#     writes opened by Godot 3.6.2, 3.2.3 ($GODOT32) and 4.6.3 ($GODOT4), the API, and the
#     asyncio server of rust/python/examples/asyncio_echo_server.py exchanging values over TCP
#     with a live Godot 4.6.3 and Godot 3.6.2, each through its own StreamPeerTCP put_var/get_var
#     (rust/python/tests/test_live_engines.py; engine logs in tests/out/run_python_tests/live_engines/);
#   * mypy --strict on a small user script (rust/python/tests/typed_user.py) and the asyncio example,
#     and on rust/python/tests/typed_misuse.py, which must fail on exactly its marked lines;
#   * mypy's stubtest on the installed package: the type hints (_native.pyi, the .py files) list
#     every module, class, function, method and parameter the runtime has, and no other, so the
#     Python API cannot change on one side only (what it cannot check, with why:
#     rust/python/tests/stubtest_allowlist.txt).
# Shows pytest's own summary line, then ends with "N passed, N failed" (pytest's passed tests,
# its failures, errors and skips as failures, and each mypy run and stubtest as one check); exits 1
# on any failure.
#   bash tests/run_python_tests.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
need_engines GODOT3 GODOT32 GODOT4 || exit 2
out=$(fvc_out_dir)
tally_init
tools=$(bash tests/install_tools.sh python) || { echo "FAIL tests/install_tools.sh python"; tally_add 0 1; tally_end; exit 1; }
eval "$tools"

echo "=== the wheel: the release's x86_64 manylinux2014 wheel (tests/build_wheels.sh x86_64; log: ${out#"$fvc_root/"}/build_wheels.log)"
rm -rf "$out/wheel"
if ! bash tests/build_wheels.sh x86_64 -o "$out/wheel" >"$out/build_wheels.log" 2>&1; then
    tail -n 20 "$out/build_wheels.log"
    tally 1 "the wheel did not build"
    tally_end
    exit 1
fi
grep -F '.whl (' "$out/build_wheels.log" | sed "s#$fvc_root/##"

echo "=== a fresh venv with the wheel, $FVC_PYTHON_TEST_PINS"
python3 -m venv --clear "$out/venv" || { tally 1 "python3 -m venv"; tally_end; exit 1; }
# shellcheck disable=SC2086 # the pins are words
if ! "$out/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        $FVC_PYTHON_TEST_PINS "$out"/wheel/*.whl >"$out/pip.log" 2>&1; then
    tail -n 20 "$out/pip.log"
    tally 1 "pip install of the wheel and the test tools"
    tally_end
    exit 1
fi

echo "=== pytest rust/python/tests"
(cd rust/python/tests && PYTHONDONTWRITEBYTECODE=1 FVC_REQUIRE_ENGINES=1 "$out/venv/bin/python" -m pytest -q -p no:cacheprovider \
    -rfEs) >"$out/pytest.log" 2>&1
status=$?
count_pytest "$out/pytest.log" "$status" "pytest"

echo "=== mypy --strict rust/python/tests/typed_user.py rust/python/examples/asyncio_echo_server.py"
if (cd rust/python/tests && "$out/venv/bin/python" -m mypy --strict --cache-dir "$out/mypy_cache" typed_user.py \
        ../examples/asyncio_echo_server.py) \
        >"$out/mypy.log" 2>&1; then
    tally 0
    tail -n 1 "$out/mypy.log"
else
    cat "$out/mypy.log" | head -n 20
    tally 1 "mypy --strict on typed_user.py and asyncio_echo_server.py"
fi

echo "=== mypy --strict rust/python/tests/typed_misuse.py: it must report exactly its marked lines"
# Each line marked "# mypy: error" (a misspelled dialect, precision or compression, a str given
# as bytes) must be reported, and no other line.
(cd rust/python/tests && "$out/venv/bin/python" -m mypy --strict --cache-dir "$out/mypy_cache" typed_misuse.py) \
    >"$out/mypy_misuse.log" 2>&1
want=$(grep -n '  # mypy: error$' rust/python/tests/typed_misuse.py | cut -d: -f1 | sort -n | tr '\n' ' ')
got=$(grep -Eo '^typed_misuse\.py:[0-9]+: error' "$out/mypy_misuse.log" | cut -d: -f2 | sort -nu | tr '\n' ' ')
if [ -n "$want" ] && [ "$want" = "$got" ]; then
    tally 0
    echo "mypy reports the marked lines: $got"
else
    head -n 20 "$out/mypy_misuse.log"
    tally 1 "mypy --strict on typed_misuse.py: lines marked $want, reported ${got:-none}"
fi

echo "=== mypy's stubtest fast_var_codec: the type hints against the runtime (allowlist: rust/python/tests/stubtest_allowlist.txt)"
# Run in the out dir, so that the package imported is the installed wheel's.
if (cd "$out" && "$out/venv/bin/python" -m mypy.stubtest \
        --allowlist "$fvc_root/rust/python/tests/stubtest_allowlist.txt" fast_var_codec) \
        >"$out/stubtest.log" 2>&1; then
    tally 0
    tail -n 1 "$out/stubtest.log"
else
    # One line per disagreement (the log has each one's stub and runtime); a crash: its end.
    if grep -qE '^(error|note): ' "$out/stubtest.log"; then
        grep -E '^(error|note): ' "$out/stubtest.log" | head -n 20
        tail -n 1 "$out/stubtest.log"
    else
        tail -n 20 "$out/stubtest.log"
    fi
    tally 1 "stubtest: the type hints and the runtime of fast_var_codec disagree (${out#"$fvc_root/"}/stubtest.log)"
fi
tally_end
