# Sourced by the test runners (run_all.sh, run_godot_tests.sh, run_peer_tests.sh): reading a
# run's result line and checking engine logs, in one place.

fvc_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# last_result FILE: prints "P F" from the last "P passed, F failed" line of FILE (the line every
# runner ends with); fails when there is none.
last_result() {
    local line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" 2>/dev/null | tail -n 1)
    [ -n "$line" ] || return 1
    echo "$line" | awk '{print $1, $3}'
}

# What in an engine's output fails a run even when every check passed: objects still alive at
# exit (Godot 3 and 4 print "ObjectDB instances leaked at exit"), and GDScript errors (a runtime
# error silently aborts the function it happens in).
ENGINE_PROBLEMS='ObjectDB instances leaked|SCRIPT ERROR'

# engine_logs_clean LOG...: succeeds when no LOG (missing ones are skipped) holds such a line.
# Otherwise prints, per log, its name and the first few such lines (each SCRIPT ERROR with the
# line after it, which says where); the logs themselves stay out of the output (engines print
# a lot on malformed input).
engine_logs_clean() {
    local log clean=0
    for log in "$@"; do
        [ -f "$log" ] || continue
        if grep -qE "$ENGINE_PROBLEMS" "$log"; then
            clean=1
            echo "  in ${log#"$fvc_root/"}:"
            grep -E -A1 "$ENGINE_PROBLEMS" "$log" | grep -v '^--$' | head -n 6 | cut -c1-200 | sed 's/^/    /'
        fi
    done
    return $clean
}
