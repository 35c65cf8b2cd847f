#!/usr/bin/env bash
# Cross-engine matrix for Godot's save-file containers (File/FileAccess.open_compressed in every
# mode, open_encrypted[_with_pass], ConfigFile.save_encrypted[_pass]):
#   1. Godot 3.6.2, Godot 3.2.3 and Godot 4.6.3 each write the same payloads (g3/matrix3.gd,
#      g4/matrix4.gd, --phase=write) into a temporary directory;
#   2. each engine reads what every engine wrote (--phase=read) and compares with the writer's
#      raw payload; Godot 4 also reads the committed fixtures in tests/saves/godot3_*/;
#   3. prints the matrix, then every attempt with the engine's first error message.
# Usage: bash tests/saves/matrix/run.sh [--keep]   (--keep: keep the work directory)
# Exits non-zero only when an engine run itself fails.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
# shellcheck source=tests/lib.sh
source "$repo/tests/lib.sh"
need_engines GODOT3 GODOT32 GODOT4 || exit 2
keep=0
[ "${1:-}" = "--keep" ] && keep=1

w=$(mktemp -d "${TMPDIR:-/tmp}/fvc_saves_matrix.XXXXXX")
mkdir -p "$w/files" "$w/g4"
cp "$here/g4/project.godot" "$here/g4/matrix4.gd" "$w/g4/"
status=0
writers=g36,g32,g46

# run LABEL PHASE [extra args...]
run() {
    local label=$1 phase=$2
    shift 2
    local log="$w/$label.$phase"
    case $label in
        g36) timeout 600 "$GODOT3" --no-window --path "$here/g3" -s res://matrix3.gd \
                 "--phase=$phase" "--dir=$w/files" "--label=$label" "$@" >"$log.out" 2>"$log.err" ;;
        g32) timeout 600 "$GODOT32" --no-window --path "$here/g3" -s res://matrix3.gd \
                 "--phase=$phase" "--dir=$w/files" "--label=$label" "$@" >"$log.out" 2>"$log.err" ;;
        g46) timeout 600 "$GODOT4" --headless --path "$w/g4" -s res://matrix4.gd \
                 "--phase=$phase" "--dir=$w/files" "--label=$label" "$@" >"$log.out" 2>"$log.err" ;;
    esac
    local rc=$?
    if [ $rc -ne 0 ]; then
        echo "[saves matrix] $label $phase: engine exit $rc (logs: $log.out, $log.err)" >&2
        keep=1
        status=1
    fi
}

# Godot 4 imports its project once before the script runs cleanly.
timeout 120 "$GODOT4" --headless --path "$w/g4" --import >/dev/null 2>&1
for e in g36 g32 g46; do run "$e" write; done
for e in g36 g32; do run "$e" read "--writers=$writers" "--out=$w/$e.tsv"; done
run g46 read "--writers=$writers" "--out=$w/g46.tsv" "--fixtures=$repo/tests/saves"

# Attach to each attempt the first engine error line printed after its "@@M id" marker.
for e in g36 g32 g46; do
    awk '/^@@M /{id=$2; next} id!="" && !(id in seen) && /ERROR/ {
            sub(/^[ \t]*ERROR: */, ""); seen[id]=1; print id "\t" $0 }' "$w/$e.read.err"
done >"$w/errors.tsv"
cat "$w"/g36.tsv "$w"/g32.tsv "$w"/g46.tsv 2>/dev/null >"$w/all.tsv"

name() { case $1 in g36) echo "3.6.2";; g32) echo "3.2.3";; g46) echo "4.6.3";; fixture:godot3_6_2) echo "3.6.2 fixture";; fixture:godot3_2_3) echo "3.2.3 fixture";; *) echo "$1";; esac; }

echo "== File.open_compressed / FileAccess.open_compressed: payload sizes 0, 5, 4096, 8192, 12295, 300000 =="
printf '%-22s %-8s %-10s %-10s %-10s %-10s\n' "writer -> reader" "" fastlz deflate zstd gzip
for wr in g36 g32 g46; do
    for rd in g36 g32 g46; do
        row=""
        for m in fastlz deflate zstd gzip; do
            cell=$(awk -F'\t' -v w="$wr" -v r="$rd" -v m="$m" '$2==r && $3==w && $4=="compressed" && $5==m {
                    n++; if ($7=="ok") ok++ } END { if (n==0) print "-"; else if (ok==n) print "ok"; else printf "FAIL %d/%d\n", n-ok, n }' "$w/all.tsv")
            row="$row$(printf '%-10s ' "$cell")"
        done
        printf '%-22s %-8s %s\n' "$(name $wr) -> $(name $rd)" "" "$row"
    done
done
echo
echo "== Are the compressed files the same bytes whichever engine wrote them? =="
same=0; total=0; diffs=""
for f in "$w"/files/g36/*.gcpf; do
    b=$(basename "$f")
    for other in g32 g46; do
        total=$((total + 1))
        if cmp -s "$f" "$w/files/$other/$b"; then same=$((same + 1)); else diffs="$diffs $other/$b"; fi
    done
done
echo "$same of $total files written by 3.2.3 or 4.6.3 are byte-identical to 3.6.2's${diffs:+; differ:$diffs}"
echo
echo "== Same files opened with another mode argument (the header's mode is used?) =="
awk -F'\t' '$4 ~ /^compressed_opened_as_/ { n++; if ($7=="ok") ok++ } END { printf "%d of %d opened and read correctly\n", ok, n }' "$w/all.tsv"
echo
echo "== Encrypted files and encrypted ConfigFiles (writer -> reader: result) =="
for what in encrypted_pass encrypted_key config_plain config_encrypted_pass config_encrypted_key; do
    echo "-- $what"
    awk -F'\t' -v what="$what" '$4==what' "$w/all.tsv" | while IFS=$'\t' read -r id rd wr _what _m _n res detail; do
        err=$(awk -F'\t' -v id="$id" '$1==id { $1=""; print substr($0,2); exit }' "$w/errors.tsv")
        printf '   %-16s %-8s %-9s %s%s\n' "$(name $wr) -> $(name $rd)" "" "$res" "$detail" "${err:+ | engine: $err}"
    done
done
echo
echo "== Godot 4.6.3 reading the committed Godot 3 fixtures =="
awk -F'\t' '$3 ~ /^fixture:/ && $4 != "fixture_config_plain_value" && $4 != "fixture_get_var"' "$w/all.tsv" |
    while IFS=$'\t' read -r id rd wr what m n res detail; do
        err=$(awk -F'\t' -v id="$id" '$1==id { $1=""; print substr($0,2); exit }' "$w/errors.tsv")
        printf '   %-14s %-36s %-9s %s%s\n' "$(name $wr)" "${what#fixture_}" "$res" "$detail" "${err:+ | engine: $err}"
    done
echo
echo "== Godot 4.6.3 ConfigFile.load of a Godot 3 plain ConfigFile: type seen, value =="
awk -F'\t' '$4 == "fixture_config_plain_value" { printf "   %-14s %-20s %s\n", $3, $7, $8 }' "$w/all.tsv" | sed 's/fixture:godot3_/3./; s/_\([0-9]\) /.\1 /'
echo
echo "== Godot 4.6.3 FileAccess.get_var on a Godot 3 store_var file (plain.bin, at each value's offset) =="
awk -F'\t' '$4 == "fixture_get_var"' "$w/all.tsv" | while IFS=$'\t' read -r id rd wr what m n res detail; do
    err=$(awk -F'\t' -v id="$id" '$1==id { $1=""; print substr($0,2); exit }' "$w/errors.tsv")
    printf '   %-14s %-20s %s%s\n' "$(name $wr)" "$res" "$detail" "${err:+ | engine: $err}"
done
echo
echo "== Every attempt that did not read back exactly =="
awk -F'\t' '$7 != "ok" && $4 !~ /^fixture_(config_plain_value|get_var)$/' "$w/all.tsv" | while IFS=$'\t' read -r id rd wr what m n res detail; do
    err=$(awk -F'\t' -v id="$id" '$1==id { $1=""; print substr($0,2); exit }' "$w/errors.tsv")
    printf '   %s -> %s %s %s size %s: %s (%s)%s\n' "$(name $wr)" "$(name $rd)" "$what" "$m" "$n" "$res" "$detail" "${err:+ | engine: $err}"
done

if [ $keep -eq 1 ]; then echo "work directory kept: $w" >&2; else rm -rf "$w"; fi
exit $status
