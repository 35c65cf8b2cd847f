#!/usr/bin/env bash
# Makes a fresh CI machine into the kind the project's scripts are written for, and nothing more
# (the workflows in .github/workflows/ call it first; a developer's machine already is one):
#   Linux (Debian, as root: the workflows' Debian 12 container)
#       the Debian packages the scripts take for granted (curl, git, a C compiler, python3 and pip,
#       unzip, zip, binutils, file), and Rust through rustup: the toolchain FVC_RUST_TOOLCHAIN
#       (default 1.95.0, what the project is tested with) with rustfmt and clippy. The other
#       tools each script installs itself (cross compilers, wine, qemu, the engines, zig).
#   macOS (a GitHub runner)   GNU bash and coreutils from Homebrew (the scripts use bash 4 and
#                             `timeout`); nothing else: the scene runs need only them and Godot.
#   Windows (Git Bash)        nothing: Git for Windows' bash and coreutils are enough.
# With --node, Linux also gets Debian's Node.js and npm (nodejs, npm: Node 18 in Debian 12) when
# there is no node: what tests/build_npm.sh and tests/build_web.sh need (the release workflow's
# npm job, the Pages workflow).
# On GitHub Actions (GITHUB_PATH set) the directories of what it installed are added to later
# steps' PATH, and the checkout is marked safe for git (a container runs as another user than the
# one who checked it out).
#   bash tests/ci_setup.sh [--node]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
with_node=0
for arg in "$@"; do
    case $arg in
        --node | node) with_node=1 ;;
        *) echo "[ci_setup] unknown argument $arg (only: --node)" >&2; exit 2 ;;
    esac
done
log() { echo "[ci_setup] $*" >&2; }
add_path() { # DIR: on PATH for this script and, on GitHub Actions, for later steps
    export PATH="$1:$PATH"
    if [ -n "${GITHUB_PATH:-}" ]; then echo "$1" >>"$GITHUB_PATH"; fi
}

case "$(uname -s)" in
    Linux)
        if [ "$(id -u)" != 0 ]; then log "run it as root (a Debian container)"; exit 2; fi
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends ca-certificates curl git build-essential \
            pkg-config python3 python3-pip unzip zip xz-utils binutils file procps >&2
        toolchain=${FVC_RUST_TOOLCHAIN:-1.95.0}
        if ! command -v rustup >/dev/null && [ ! -x "$HOME/.cargo/bin/rustup" ]; then
            log "rustup with Rust $toolchain"
            curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs \
                | sh -s -- -y --no-modify-path --profile minimal --default-toolchain "$toolchain" >&2
        fi
        add_path "$HOME/.cargo/bin"
        rustup toolchain install "$toolchain" --profile minimal --component rustfmt,clippy >&2
        rustup default "$toolchain" >&2
        if [ "$with_node" = 1 ] && ! command -v node >/dev/null; then
            log "Node.js and npm (Debian's nodejs, npm)"
            apt-get install -y -qq --no-install-recommends nodejs npm >&2
        fi
        ;;
    Darwin)
        brew install bash coreutils >&2
        add_path "$(brew --prefix coreutils)/libexec/gnubin"
        add_path "$(brew --prefix)/bin"
        ;;
    MINGW* | MSYS* | CYGWIN*) ;;
    *) log "unknown system $(uname -s)"; exit 2 ;;
esac
git config --global --add safe.directory "$root"
log "ready: $(uname -s), bash $BASH_VERSION$(command -v cargo >/dev/null && echo ", $(cargo --version)")$(command -v node >/dev/null && echo ", node $(node --version)")"
