#!/usr/bin/env bash
# Seeds rust/fuzz/corpus/<target>/ from the golden data (tests/golden/*.json, written by real
# engines): every "bytes" field (lowercase hex) of every case and malformed input becomes one
# file, prefixed with the targets' selector byte (rust/fuzz/src/lib.rs): 0x00, and also 0x01
# when the engine wrote or decoded it with objects (full_objects / allow_objects true).
#
#   decode_godot4         godot4_*.json
#   decode_godot3         godot3_*.json
#   decode_godot4_double  godot4_*.json, plus each Godot 4 value re-encoded at double precision
#                         (examples/widen_seeds.rs: an ordinary cargo build)
#   roundtrip             every golden file
#   transcode             every golden file
#   serde                 every golden file, and typed messages in each dialect
#                         (examples/serde_seeds.rs: an ordinary cargo build)
#   stream                golden values as length-prefixed messages, 1 to 4 per file, with
#                         varied flags (fuzz_targets/stream.rs: byte order, chunk sizes, dialect)
#   files                 the store_var files the engines wrote (tests/saves/), every container
#   json                  every golden file (Godot 3's with the selector's bit 7 set)
#   godot_text            every text of tests/golden/var_to_str_*.jsonl (Godot 4.6.3's
#                         var_to_str of the golden values), with and without objects
#
# Seeds are named seed-<dialect>-<n>, the committed regression inputs regression-<name>; files
# libFuzzer adds to a corpus are kept. The corpus is several MB once grown and is not committed
# (rust/fuzz/.gitignore). Needs perl.
set -euo pipefail
fuzz=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$fuzz/../.." && pwd)
golden="$root/tests/golden"
corpus="$fuzz/corpus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Writes "<objects 0|1> <hex>" for every entry of the given golden files.
entries() {
    perl -ne '
        next unless /"bytes":"([0-9a-f]*)"/;
        my $hex = $1;
        my $obj = /^\{"name":"[^"]*","(?:full_objects|allow_objects)":true/ ? 1 : 0;
        print "$obj $hex\n";
    ' "$@"
}

# seeds <target> <prefix> [mask] < entries: one file per distinct (selector, bytes); the mask's bits
# are set in every selector byte.
seeds() {
    local dir="$corpus/$1"
    mkdir -p "$dir"
    rm -f "$dir"/seed-"$2"-*
    perl -e '
        my ($dir, $prefix, $mask) = @ARGV;
        my (%seen, $n);
        while (<STDIN>) {
            my ($obj, $hex) = split;
            $hex //= "";
            for my $sel ($obj ? (0, 1) : (0)) {
                my $data = chr($sel | $mask) . pack("H*", $hex);
                next if $seen{$data}++;
                my $path = sprintf("%s/seed-%s-%05d", $dir, $prefix, $n++);
                open(my $fh, ">:raw", $path) or die "$path: $!";
                print $fh $data;
                close $fh;
            }
        }
        print STDERR "  $dir: $n seeds ($prefix)\n";
    ' "$dir" "$2" "${3:-0}"
}

shopt -s nullglob
g4=("$golden"/godot4_*.json)
g3=("$golden"/godot3_*.json)
[ ${#g4[@]} -gt 0 ] && [ ${#g3[@]} -gt 0 ] || { echo "no golden data in $golden" >&2; exit 1; }

echo "seeding $corpus from $golden"
entries "${g4[@]}" >"$tmp/g4"
entries "${g3[@]}" >"$tmp/g3"

seeds decode_godot4 g4 <"$tmp/g4"
seeds decode_godot3 g3 <"$tmp/g3"
seeds decode_godot4_double g4 <"$tmp/g4"
cut -d' ' -f2 "$tmp/g4" | (cd "$fuzz" && cargo run -q --release --example widen_seeds) \
    | sed 's/^/1 /' | seeds decode_godot4_double g4double
seeds roundtrip g4 <"$tmp/g4"
seeds roundtrip g3 <"$tmp/g3"
seeds transcode g4 <"$tmp/g4"
seeds transcode g3 <"$tmp/g3"
seeds serde g4 <"$tmp/g4"
seeds json g4 <"$tmp/g4"
seeds json g3 128 <"$tmp/g3"
seeds serde g3 <"$tmp/g3"
(cd "$fuzz" && cargo run -q --release --example serde_seeds) | sed 's/^/0 /' | seeds serde message

# stream: flags, seed, then messages (u32 length, little- or big-endian, + bytes).
frames() {
    local dir="$corpus/stream"
    mkdir -p "$dir"
    rm -f "$dir"/seed-"$2"-*
    perl -e '
        my ($dir, $prefix, $dialect) = @ARGV;
        my @hex = map { (split)[1] // "" } <STDIN>;
        my $n = 0;
        for (my $i = 0; $i < @hex; ) {
            my $count = 1 + $n % 4;
            my $big = ($n % 5 == 0) ? 1 : 0;
            my $flags = $big | $dialect | ((($n >> 2) % 4) << 4) | (($n % 7 == 0) ? 0x40 : 0);
            my $data = chr($flags) . chr($n % 256);
            for my $h (@hex[$i .. ($i + $count - 1 < $#hex ? $i + $count - 1 : $#hex)]) {
                my $b = pack("H*", $h);
                $data .= pack($big ? "N" : "V", length $b) . $b;
            }
            $i += $count;
            my $path = sprintf("%s/seed-%s-%05d", $dir, $prefix, $n++);
            open(my $fh, ">:raw", $path) or die "$path: $!";
            print $fh $data;
            close $fh;
        }
        print STDERR "  $dir: $n seeds ($prefix)\n";
    ' "$dir" "$2" "$3"
}
if [ -f "$fuzz/fuzz_targets/stream.rs" ]; then
    frames stream g4 0 <"$tmp/g4"
    frames stream g3 4 <"$tmp/g3"
fi
# files: every store_var file the engines wrote (tests/saves/), plain, compressed and encrypted,
# with the dialect found (flags 0x02: objects allowed) and named as Godot 3 (0x03).
if [ -f "$fuzz/fuzz_targets/files.rs" ]; then
    mkdir -p "$corpus/files"
    n=0
    for f in "$root"/tests/saves/godot3_*/{plain,compressed_*,encrypted_*,buffer_*}.bin; do
        [ -f "$f" ] || continue
        for flags in 02 03; do
            { printf "\x$flags"; cat "$f"; } >"$corpus/files/seed-$(basename "$(dirname "$f")")-$(basename "$f" .bin)-$flags"
            n=$((n + 1))
        done
    done
    echo "  $corpus/files: $n seeds (tests/saves)"
fi
# godot_text: the engine's var_to_str texts ("text": hex of UTF-8), every class admitted, objects off and on
# (selectors 0x02 and 0x03).
if [ -f "$fuzz/fuzz_targets/godot_text.rs" ]; then
    perl -ne 'print "1 $1\n" if /"text": "([0-9a-f]*)"/' "$golden"/var_to_str_*.jsonl \
        | seeds godot_text text 2
fi
# Inputs that once failed a target (rust/fuzz/regressions/<target>/, committed) run again first
# in every run, as libFuzzer reads its whole corpus before mutating.
for dir in "$fuzz"/regressions/*/; do
    target=$(basename "$dir")
    mkdir -p "$corpus/$target"
    for f in "$dir"*; do cp "$f" "$corpus/$target/regression-$(basename "$f")"; done
    echo "  $corpus/$target: $(ls "$dir" | wc -l) regression inputs"
done
du -sh "$corpus"/* 2>/dev/null | sed 's/^/  /'
