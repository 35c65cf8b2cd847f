#!/usr/bin/env bash
# Runs the GDScript snippets of README.md and docs/*.md as written, so that a snippet that stops
# working fails the test command. (Their Rust snippets are doctests of the core crate: the core
# step runs them.)
#   bash tests/run_snippets.sh      (after tests/build_addon.sh; GODOT4/GODOT3 may be preset)
#
# A snippet is a ```gdscript block right after a line `<!-- snippet: NAME -->`; it is a whole
# script file. This extracts each into godot_project/snippets/NAME.gd (not committed) and runs
# its check, godot_project/snippet_checks/NAME.gd, headless in Godot 4.6.3; a snippet without a
# check, or a check without a snippet, fails. The godot3_client snippet talks to a real Godot 3.6.2
# server (tests/peers/godot3_server.gd) on 127.0.0.1. Also checks that README.md stays under 300
# lines. Ends with "N passed, N failed".
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo" || exit 2
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)
project="$repo/godot_project"
need_engines GODOT4 GODOT3 || exit 2
need_addon || exit 2
bash "$here/setup_godot_project.sh" >/dev/null || { echo "run_snippets.sh: cannot prepare godot_project/" >&2; exit 2; }
tally_init

rm -rf "$project/snippets"
mkdir -p "$project/snippets"
# Extract: prints the name of each snippet written.
names=$(perl -e '
    my ($dir, @files) = @ARGV;
    for my $file (@files) {
        open(my $in, "<", $file) or die "$file: $!";
        my ($name, $body, $state) = ("", "", 0);
        while (my $line = <$in>) {
            if ($state == 0 && $line =~ /^<!-- snippet: ([a-z0-9_]+)/) { $name = $1; $state = 1; next; }
            if ($state == 1) { $state = ($line =~ /^```gdscript\s*$/) ? 2 : 0; $body = ""; next; }
            if ($state == 2) {
                if ($line =~ /^```\s*$/) {
                    open(my $outf, ">", "$dir/$name.gd") or die "$dir/$name.gd: $!";
                    print $outf $body;
                    close $outf;
                    print "$name\n";
                    $state = 0;
                } else { $body .= $line; }
            }
        }
    }
' "$project/snippets" README.md docs/*.md)

port=47690
for name in $names; do
    check="$project/snippet_checks/$name.gd"
    if [ ! -f "$check" ]; then
        tally 1 "snippet $name has no check (godot_project/snippet_checks/$name.gd)"
        continue
    fi
    echo "=== snippet $name"
    spid=""
    if [ "$name" = godot3_client ]; then
        "$DEADLINE" -k 5 60 "$GODOT3" --no-window --path tests/peers -s res://godot3_server.gd --mode=tcp \
            --port=$port --timeout=40 >"$out/$name.server.log" 2>&1 &
        spid=$!
        sleep 1
    fi
    tally_run "snippet $name" "$out/$name" "$DEADLINE" -k 5 60 "$GODOT4" --headless --path "$project" \
        -s "res://snippet_checks/$name.gd" -- --port=$port
    if [ -n "$spid" ]; then
        kill "$spid" 2>/dev/null
        wait "$spid" 2>/dev/null
    fi
done
for check in "$project"/snippet_checks/*.gd; do
    name=$(basename "$check" .gd)
    [ "$name" = lib ] && continue
    case " $(echo $names) " in
        *" $name "*) ;;
        *) tally 1 "godot_project/snippet_checks/$name.gd checks a snippet that no document has" ;;
    esac
done
# The README is the front page a newcomer reads whole: under 300 lines, the rest in docs/.
readme_lines=$(wc -l <README.md)
if [ "$readme_lines" -lt 300 ]; then
    echo "README.md: $readme_lines lines, under 300"
    tally 0
else
    tally 1 "README.md has $readme_lines lines, 300 or more: move detail into docs/"
fi
tally_end
