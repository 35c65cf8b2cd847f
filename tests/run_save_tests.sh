#!/usr/bin/env bash
# Godot 3 save files, the other direction and the migration, with real engines (the reading side,
# Godot 4 reading the engine-made fixtures, is godot_project/tests/test_saves.gd). The addon must
# already be built (tests/build_addon.sh).
#
#   tests/run_save_tests.sh      (GODOT4 / GODOT3 / GODOT32 may be preset; otherwise
#                                 tests/install_engines.sh finds them)
#
# 1. Godot 4.6.3 (godot_project/saves_tools/write_godot3_saves.gd) reads
#    tests/saves/godot3_6_2/plain.bin with FastVarCodec.read_var and writes its values back in the
#    Godot 3 dialect into tests/out/run_save_tests/saves4/: plain, the four compressed modes, encrypted with the
#    password and with the key, two encrypted ConfigFiles, and manifest.json.
# 2. Godot 3.6.2 and 3.2.3 (tests/saves/check3/check3.gd) open each of those files as a Godot 3 game
#    does (File.open, open_compressed, open_encrypted_with_pass, open_encrypted, ConfigFile.
#    load_encrypted_pass / load_encrypted) and compare every value with what the same engine reads
#    from its own fixture.
# 3. The migration demo (addons/fast_var_codec/tools/migrate_godot3_save.gd) turns each store_var fixture of
#    both engines into a Godot 4 save (tests/out/run_save_tests/migrated/), which Godot 4's own FileAccess.get_var
#    must read back as the fixture's values (godot_project/saves_tools/check_migrated.gd); and it
#    must refuse, writing nothing, a wrong password and a full object of a class not allowed.
# 4. The command-line tool (rust/cli, built here) converts the plain and encrypted store_var
#    fixtures of both engines to Godot 4 files (tests/out/run_save_tests/converted/), which Godot 4.6.3's own
#    FileAccess.get_var must read back as the fixture's values (check_migrated.gd --plain); and
#    converts the compressed and encrypted fixtures into the same container (convert --compress,
#    --encrypt; tests/out/run_save_tests/converted_containers/), which Godot 4.6.3 opens with its
#    own open_compressed / open_encrypted(_with_pass) (check_migrated.gd).
# 5. The command-line tool converts the text resources Godot 3.6.2 saved
#    (tests/golden/tres_godot3_6_2.jsonl) to Godot 4's (convert --to godot4;
#    tests/out/run_save_tests/converted_tres/), which Godot 4.6.3's own ResourceLoader must load
#    with the metadata Godot 3.6.2 read back and the save's properties and sub-resources as Godot
#    4.6.3 loads them from the Godot 3 file itself (godot_project/saves_tools/check_tres.gd).
# 6. The command-line tool writes values as compressed packets (from-json --packet MODE, each
#    mode, both dialects), which Godot 4.6.3's and 3.6.2's own PackedByteArray.decompress (and
#    decompress_dynamic) turn back into the values' bytes (check_packets.gd, in
#    godot_project/saves_tools/ and tests/saves/check3/).
# Prints the matrix (who wrote -> who read, per file kind: passed/failed checks), then
# "N passed, N failed"; exits non-zero on any failure. A run that does not end with its own
# "N passed, N failed" line, exits non-zero after reporting no failure, or whose engine output
# holds "SCRIPT ERROR" / "ObjectDB instances leaked" (tests/lib.sh) counts as a failure. Every engine
# run is bounded with timeout; engine output goes to tests/out/run_save_tests/save_*.log. Takes about 30 s.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
source "$here/lib.sh"
out=$(fvc_out_dir)
project="$repo/godot_project"
saves4="$out/saves4"
migrated="$out/migrated"
mkdir -p "$out"

die() { echo "run_save_tests.sh: $*" >&2; exit 2; }

need_addon || exit 2
need_engines GODOT4 GODOT3 GODOT32 || exit 2
bash "$repo/tests/setup_godot_project.sh" || die "cannot set up godot_project/"
rm -rf "$saves4" "$migrated" "$out/converted" "$out/converted_containers"
mkdir -p "$saves4" "$migrated"

PASSWORD='fvc secret ✓'
KEY_HEX=030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dc
KINDS=(plain compressed_fastlz compressed_deflate compressed_zstd compressed_gzip encrypted_pass encrypted_key)
COLUMNS=("${KINDS[@]}" config_encrypted_pass config_encrypted_key tres_values tres_save tres_plain tres_empty
    packet_fastlz packet_deflate packet_zstd packet_gzip)
g4=("$DEADLINE" -k 5 120 "$GODOT4" --headless --path "$project")

tally_init
declare -A cell   # "row|kind" -> "passed failed"
rows=()

engine_version() { # binary -> "3.6.2"
    "$1" --version 2>/dev/null | grep -Eo '^[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1
}
add_cell() { # row kind passed failed
    local key="$1|$2" p=0 f=0
    [ -n "${cell[$key]:-}" ] && read -r p f <<<"${cell[$key]}"
    cell[$key]="$((p + $3)) $((f + $4))"
}

v4=$(engine_version "$GODOT4")
echo "=== 1. Godot $v4 writes Godot 3 saves with FastVarCodec (tests/out/run_save_tests/saves4/)"
tally_run "write_godot3_saves" "$out/save_write4" \
    "${g4[@]}" -s res://saves_tools/write_godot3_saves.gd -- --out="$saves4" --fixture=res://saves/godot3_6_2

echo
echo "=== 2. Godot 3 reads them with its own File / ConfigFile"
for pair in "$GODOT3:godot3_6_2" "$GODOT32:godot3_2_3"; do
    engine=${pair%:*}
    fixture=${pair##*:}
    v=$(engine_version "$engine")
    row="Godot $v4 wrote -> Godot $v read"
    rows+=("$row")
    tally_run "check3 ($v)" "$out/save_check3_$fixture" \
        "$DEADLINE" -k 5 120 "$engine" --no-window --path "$repo/tests/saves/check3" -s res://check3.gd \
        --in="$saves4" --fixture="$repo/tests/saves/$fixture"
    while read -r _ kind p f; do
        add_cell "$row" "$kind" "$p" "$f"
    done < <(grep -E '^RESULT ' "$out/save_check3_$fixture.stdout")
    echo "  Godot $v: $(last_result "$out/save_check3_$fixture.stdout" | awk '{print $1 " passed, " $2 " failed"}')"
done

echo
echo "=== 3. the addon's tools/migrate_godot3_save.gd: Godot 3 saves -> Godot 4 saves, read by Godot $v4's own get_var"
for fixture in godot3_6_2 godot3_2_3; do
    v=${fixture#godot}
    v=${v//_/.}
    mkdir -p "$migrated/$fixture"
    for kind in "${KINDS[@]}"; do
        extra=()
        case $kind in
            compressed_*) extra=(--compressed="${kind#compressed_}") ;;
            encrypted_pass) extra=(--password="$PASSWORD") ;;
            encrypted_key) extra=(--key-hex="$KEY_HEX") ;;
        esac
        log="$out/save_migrate_${fixture}_$kind"
        "${g4[@]}" -s res://addons/fast_var_codec/tools/migrate_godot3_save.gd -- "$repo/tests/saves/$fixture/$kind.bin" \
            "$migrated/$fixture/$kind.save" "${extra[@]}" --allow-classes=Curve >"$log.stdout" 2>"$log.log"
        rc=$?
        if [ $rc -eq 0 ] && grep -q '^migrated 59 values' "$log.stdout" && engine_logs_clean "$log.log" >/dev/null; then
            tally 0; add_cell "Godot $v wrote -> migrated -> $v4 read" "$kind" 1 0
        else
            tally 1 "migrate $fixture/$kind.bin: exit code $rc ($(tail -n 1 "$log.log" | cut -c1-200))"
            add_cell "Godot $v wrote -> migrated -> $v4 read" "$kind" 0 1
        fi
    done
    rows+=("Godot $v wrote -> migrated -> $v4 read")
done
# What the migration must refuse, writing nothing: a wrong password, a class that is not allowed.
refuse() { # name expected-message-part ARGS...
    local name=$1 want=$2; shift 2
    local target="$migrated/refused.save"
    rm -f "$target"
    "${g4[@]}" -s res://addons/fast_var_codec/tools/migrate_godot3_save.gd -- "$@" >"$out/save_migrate_refused.stdout" 2>"$out/save_migrate_refused.log"
    local rc=$?
    if [ $rc -eq 1 ] && [ ! -e "$target" ] && grep -q "$want" "$out/save_migrate_refused.log"; then
        tally 0
    else
        tally 1 "migrate refuses $name: exit code $rc, $( [ -e "$target" ] && echo "OUT written" || echo "OUT not written"), $(grep migrate_godot3_save "$out/save_migrate_refused.log" | head -n 1 | cut -c1-200)"
    fi
}
refuse "an encrypted save without a password" "the file is encrypted: pass --password or --key-hex" "$repo/tests/saves/godot3_6_2/encrypted_pass.bin" "$migrated/refused.save"
refuse "a wrong password" "MD5" "$repo/tests/saves/godot3_6_2/encrypted_pass.bin" "$migrated/refused.save" --password=wrong
refuse "a full Curve without --allow-classes" "ERR_UNAUTHORIZED" "$repo/tests/saves/godot3_6_2/plain.bin" "$migrated/refused.save"
tally_run "check_migrated" "$out/save_check_migrated" \
    "${g4[@]}" -s res://saves_tools/check_migrated.gd -- --dir="$migrated"
while read -r _ fixture kind p f; do
    v=${fixture#godot}
    add_cell "Godot ${v//_/.} wrote -> migrated -> $v4 read" "$kind" "$p" "$f"
done < <(grep -E '^RESULT ' "$out/save_check_migrated.stdout")

echo
echo "=== 4. fast-var-codec convert (the command-line tool): Godot 3 saves -> Godot 4 files, read by Godot $v4's own get_var"
cli="$repo/target/debug/fast-var-codec"
# shellcheck disable=SC2086 # the selection's words
if cargo build -q $FVC_CORE_BUILD --bin fast-var-codec >"$out/save_cli_build.log" 2>&1; then
    tally 0
    cli_kinds=(plain encrypted_pass encrypted_key)
    for fixture in godot3_6_2 godot3_2_3; do
        mkdir -p "$out/converted/$fixture"
        for kind in "${cli_kinds[@]}"; do
            extra=()
            case $kind in
                encrypted_pass) extra=(--password "$PASSWORD") ;;
                encrypted_key) extra=(--key-hex "$KEY_HEX") ;;
            esac
            if "$cli" convert --from godot3 --to godot4 --allow-objects "${extra[@]}" \
                "$repo/tests/saves/$fixture/$kind.bin" "$out/converted/$fixture/$kind.save" \
                >"$out/save_cli_${fixture}_$kind.log" 2>&1; then
                tally 0
            else
                tally 1 "fast-var-codec convert $fixture/$kind.bin: $(tail -n 1 "$out/save_cli_${fixture}_$kind.log" | cut -c1-200)"
            fi
        done
    done
    tally_run "check_converted" "$out/save_check_converted" \
        "${g4[@]}" -s res://saves_tools/check_migrated.gd -- --dir="$out/converted" --plain \
        --kinds="$(IFS=,; echo "${cli_kinds[*]}")"
    while read -r _ fixture kind p f; do
        v=${fixture#godot}
        add_cell "Godot ${v//_/.} wrote -> fast-var-codec -> $v4 read" "$kind" "$p" "$f"
    done < <(grep -E '^RESULT ' "$out/save_check_converted.stdout")
    rows+=("Godot 3.6.2 wrote -> fast-var-codec -> $v4 read" "Godot 3.2.3 wrote -> fast-var-codec -> $v4 read")
    # Each fixture converted into the container it came in (convert --compress MODE, --encrypt
    # with the password from the environment or the key from a file), opened by Godot 4.6.3's own
    # open_compressed / open_encrypted(_with_pass).
    key_file="$out/converted_containers/key.txt"
    mkdir -p "$out/converted_containers"
    echo "$KEY_HEX" >"$key_file"
    container_kinds=(compressed_fastlz compressed_deflate compressed_zstd compressed_gzip encrypted_pass encrypted_key)
    for fixture in godot3_6_2 godot3_2_3; do
        mkdir -p "$out/converted_containers/$fixture"
        for kind in "${container_kinds[@]}"; do
            case $kind in
                compressed_*) extra=(--compress "${kind#compressed_}") ;;
                encrypted_pass) extra=(--password-env FVC_SAVE_PASSWORD --encrypt) ;;
                encrypted_key) extra=(--key-file "$key_file" --encrypt) ;;
            esac
            if FVC_SAVE_PASSWORD="$PASSWORD" "$cli" convert --to godot4 --allow-objects "${extra[@]}" \
                "$repo/tests/saves/$fixture/$kind.bin" "$out/converted_containers/$fixture/$kind.save" \
                >"$out/save_cli_containers_${fixture}_$kind.log" 2>&1; then
                tally 0
            else
                tally 1 "fast-var-codec convert ${extra[*]} $fixture/$kind.bin: $(tail -n 1 "$out/save_cli_containers_${fixture}_$kind.log" | cut -c1-200)"
            fi
        done
    done
    tally_run "check_converted_containers" "$out/save_check_converted_containers" \
        "${g4[@]}" -s res://saves_tools/check_migrated.gd -- --dir="$out/converted_containers" \
        --kinds="$(IFS=,; echo "${container_kinds[*]}")"
    while read -r _ fixture kind p f; do
        v=${fixture#godot}
        add_cell "Godot ${v//_/.} wrote -> fast-var-codec (same container) -> $v4 read" "$kind" "$p" "$f"
    done < <(grep -E '^RESULT ' "$out/save_check_converted_containers.stdout")
    rows+=("Godot 3.6.2 wrote -> fast-var-codec (same container) -> $v4 read" "Godot 3.2.3 wrote -> fast-var-codec (same container) -> $v4 read")

    echo
    echo "=== 5. fast-var-codec convert: Godot 3.6.2's text resources -> Godot 4's, loaded by Godot $v4's own ResourceLoader"
    # The .tres files of tests/golden/tres_godot3_6_2.jsonl (its metadata of every golden value,
    # a save whose items are sub-resources of res://tres/item.gd), converted; check_tres.gd
    # loads each with godot_project/tres/'s Godot 4 scripts.
    tres_in="$out/tres_godot3"
    tres_out="$out/converted_tres"
    rm -rf "$tres_in" "$tres_out"
    mkdir -p "$tres_in" "$tres_out"
    golden="$repo/tests/golden/tres_godot3_6_2.jsonl"
    python3 - "$golden" "$tres_in" <<'PY'
import json, pathlib, sys
for line in pathlib.Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()[1:]:
    case = json.loads(line)
    if "file" in case:
        (pathlib.Path(sys.argv[2]) / (case["name"] + ".tres")).write_bytes(bytes.fromhex(case["file"]))
PY
    for f in "$tres_in"/*.tres; do
        name=$(basename "$f")
        if "$cli" convert --to godot4 "$f" "$tres_out/$name" >"$out/save_cli_tres_$name.log" 2>&1; then
            tally 0
        else
            tally 1 "fast-var-codec convert --to godot4 $name: $(tail -n 1 "$out/save_cli_tres_$name.log" | cut -c1-200)"
        fi
    done
    tally_run "check_tres" "$out/save_check_tres" \
        "${g4[@]}" -s res://saves_tools/check_tres.gd -- --dir="$tres_out" --golden="$golden"
    while read -r _ name p f; do
        add_cell "Godot 3.6.2 wrote .tres -> fast-var-codec -> $v4 loaded" "tres_$name" "$p" "$f"
    done < <(grep -E '^RESULT ' "$out/save_check_tres.stdout")
    rows+=("Godot 3.6.2 wrote .tres -> fast-var-codec -> $v4 loaded")

    echo
    echo "=== 6. fast-var-codec from-json --packet: compressed packets, read by the engines' own decompress"
    # A value under 16 bytes (FastLZ pads it), two small containers, and a string past 64 KiB
    # (FastLZ's level 2): each written plain and as a packet of each mode, in each engine's
    # dialect; check_packets.gd (both engines) decompresses every packet to the plain bytes.
    v3=$(engine_version "$GODOT3")
    python3 - "$out/packet_values" <<'PY'
import json, pathlib, sys
d = pathlib.Path(sys.argv[1]); d.mkdir(parents=True, exist_ok=True)
values = {"int": 42, "player": {"name": "player", "hp": 100, "items": ["sword", "shield"]},
          "names": ["name %d" % i for i in range(200)], "long_string": "abc" * 25000}
for name, value in values.items():
    (d / (name + ".json")).write_text(json.dumps(value))
PY
    for pair in "godot4:$out/packets4" "godot3:$out/packets3"; do
        dialect=${pair%%:*}
        dir=${pair#*:}
        rm -rf "$dir"
        mkdir -p "$dir"
        for json in "$out/packet_values"/*.json; do
            name=$(basename "$json" .json)
            for mode in plain fastlz deflate zstd gzip; do
                packet=(--packet "$mode")
                [ "$mode" = plain ] && packet=()
                if "$cli" from-json --to "$dialect" "${packet[@]}" "$json" "$dir/$name.$mode" \
                    >"$out/save_cli_packet_$dialect.log" 2>&1; then
                    tally 0
                else
                    tally 1 "fast-var-codec from-json --packet $mode $name: $(tail -n 1 "$out/save_cli_packet_$dialect.log" | cut -c1-200)"
                fi
            done
        done
    done
    tally_run "check_packets" "$out/save_check_packets4" \
        "${g4[@]}" -s res://saves_tools/check_packets.gd -- --dir="$out/packets4"
    tally_run "check_packets ($v3)" "$out/save_check_packets3" \
        "$DEADLINE" -k 5 120 "$GODOT3" --no-window --path "$repo/tests/saves/check3" \
        -s res://check_packets.gd --dir="$out/packets3"
    for pair in "$v4:$out/save_check_packets4" "$v3:$out/save_check_packets3"; do
        while read -r _ kind p f; do
            add_cell "fast-var-codec --packet -> ${pair%%:*} read" "$kind" "$p" "$f"
        done < <(grep -E '^RESULT ' "${pair#*:}.stdout")
        rows+=("fast-var-codec --packet -> ${pair%%:*} read")
    done
else
    tally 1 "building fast-var-codec (tests/out/run_save_tests/save_cli_build.log)"
fi

echo
echo "=== Matrix: checks passed/failed per file kind (engine output: tests/out/run_save_tests/save_*.log)"
printf '  %-44s' ""
for c in "${COLUMNS[@]}"; do printf ' %-9s' "$(echo "$c" | sed -E 's/^compressed_//; s/^encrypted_/enc_/; s/^config_encrypted_/cfg_/')"; done
echo
for row in "${rows[@]}"; do
    printf '  %-44s' "$row"
    for c in "${COLUMNS[@]}"; do
        if [ -n "${cell[$row|$c]:-}" ]; then
            read -r p f <<<"${cell[$row|$c]}"
            printf ' %-9s' "$p/$f"
        else
            printf ' %-9s' "-"
        fi
    done
    echo
done
echo
tally_end
