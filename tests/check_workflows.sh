#!/usr/bin/env bash
# Checks the GitHub Actions workflows (.github/workflows/*.yml), which cannot run here:
#   1. actionlint finds nothing: workflow syntax, expressions, job dependencies, action inputs,
#      runner labels, and, through shellcheck, every `run:` script;
#   2. they call only the project's own scripts: every `run:` is one line `bash tests/NAME.sh ...`
#      (or `bash .ci/run`) naming a script that exists, and every `uses:` is one of GitHub's
#      checkout, artifact and Pages actions; so what CI runs is what runs here;
#   3. both checks can fail: a workflow with an inline command and an unquoted variable fails
#      each (and shellcheck is seen to run).
# actionlint and shellcheck come from PyPI into the tool cache (tests/install_tools.sh).
# Ends with "N passed, N failed"; exits non-zero on any failure.
#   bash tests/check_workflows.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=tests/lib.sh
source tests/lib.sh
logs=$(fvc_out_dir) || exit 2
tally_init
pass() { tally 0; echo "PASS $*"; }

if ! tools=$(bash tests/install_tools.sh workflows 2>"$logs/install_tools.log"); then
    tail -n 20 "$logs/install_tools.log"
    tally 1 "installing actionlint and shellcheck into the tool cache (tests/install_tools.sh)"
    tally_end
    exit
fi
eval "$tools"
export PATH=$FVC_SHELLCHECK_BIN:$PATH
echo "actionlint $("$FVC_ACTIONLINT" --version | head -n 1) ($FVC_ACTIONLINT), $(shellcheck --version | sed -n 's/^version: /shellcheck /p')"

# lint DIR: actionlint over DIR's .github/workflows/, verbose output in $logs/actionlint.log.
lint() {
    (cd "$1" && "$FVC_ACTIONLINT" -verbose .github/workflows/*.yml) >"$logs/actionlint.out" 2>"$logs/actionlint.log"
}

# project_scripts_only DIR: rule 2 for DIR's workflows; prints each breach.
project_scripts_only() {
    python3 - "$1" <<'EOF'
import glob, os, re, sys
root = sys.argv[1]
allowed_uses = re.compile(r"actions/(checkout|upload-artifact|download-artifact|upload-pages-artifact|deploy-pages)@v\d+$")
project_run = re.compile(r"bash ((?:tests/[A-Za-z0-9_]+\.sh)|\.ci/run)(?: .*)?$")
bad = 0
files = sorted(glob.glob(os.path.join(root, ".github", "workflows", "*.yml")))
if not files:
    print("no workflow files")
    bad += 1
for path in files:
    name = os.path.relpath(path, root)
    previous = ""
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        m = re.match(r"\s*(?:-\s+)?(run|uses):\s*(.*?)\s*$", line)
        after_defaults = previous == "defaults:"
        if line.strip():
            previous = line.strip()
        if not m or (after_defaults and m.group(0).strip() == "run:"):  # defaults: run: shell:
            continue
        key, value = m.groups()
        if key == "uses":
            if not allowed_uses.match(value):
                print(f"{name}:{number}: uses {value}: not one of GitHub's checkout, artifact and Pages actions")
                bad += 1
            continue
        script = project_run.match(value)
        if not script:
            print(f"{name}:{number}: run: {value!r} is not one line calling a project script (bash tests/NAME.sh)")
            bad += 1
        elif not os.path.isfile(os.path.join(root, script.group(1))):
            print(f"{name}:{number}: run: {script.group(1)} does not exist")
            bad += 1
sys.exit(1 if bad else 0)
EOF
}

# --- 1. actionlint ---------------------------------------------------------------------------------
files=(.github/workflows/*.yml)
if lint "$root"; then
    pass "actionlint: ${#files[@]} workflows (${files[*]#.github/workflows/}), no finding"
else
    cat "$logs/actionlint.out"
    tally 1 "actionlint found problems in .github/workflows/ (above; ${logs#"$root/"}/actionlint.log)"
fi
if grep -q 'Rule "shellcheck" was disabled' "$logs/actionlint.log"; then
    tally 1 "actionlint did not run shellcheck on the run: scripts ($(grep 'Rule "shellcheck"' "$logs/actionlint.log" | head -n 1))"
else
    pass "actionlint ran shellcheck on every run: script"
fi

# --- 2. only project scripts -----------------------------------------------------------------------
if breaches=$(project_scripts_only "$root"); then
    pass "every run: of the workflows calls a project script, every uses: is checkout, an artifact or a Pages action"
else
    echo "$breaches"
    tally 1 "the workflows do more than call the project's scripts"
fi

# --- 3. both can fail ------------------------------------------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/.github/workflows"
cat >"$tmp/.github/workflows/bad.yml" <<'EOF'
name: bad
on: push
jobs:
  build:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v5
      - run: cargo build --release $CARGO_FLAGS
EOF
if lint "$tmp"; then
    tally 1 "actionlint passed a workflow with an unquoted variable in a run: script"
elif grep -q 'SC2086' "$logs/actionlint.out"; then
    pass "actionlint fails a workflow with an unquoted variable in a run: script (shellcheck SC2086)"
else
    tally 1 "actionlint failed the bad workflow, but not through shellcheck: $(head -n 1 "$logs/actionlint.out")"
fi
if project_scripts_only "$tmp" >"$logs/bad_rule.out"; then
    tally 1 "the project-script rule passed a workflow running cargo inline"
else
    pass "the project-script rule fails a workflow running cargo inline: $(head -n 1 "$logs/bad_rule.out")"
fi
echo
tally_end
