#!/usr/bin/env bash
# Fuzzes the line decoder with libFuzzer: both parsers must agree on every line (see
# fuzz/LineDecoderFuzzer.swift). CI runs it briefly (scripts/test.sh).
#
#   scripts/fuzz.sh                  # 10 million inputs, one process
#   scripts/fuzz.sh -runs=1000000    # any libFuzzer option, e.g. -max_total_time=600
#
# Builds with the Swift toolchain's clang and swiftc (-sanitize=fuzzer,address) into
# .build/fuzz, seeds the corpus with the lines of sample-events/, and keeps what libFuzzer
# finds in .build/fuzz/corpus; a disagreement or crash is written to .build/fuzz/crash-*.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/.build/fuzz"
mkdir -p "$OUT/corpus" "$OUT/modules"
# The upcoming features Package.swift turns on for every target, so the sources build as there.
FEATURES=(-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility)

echo "building the fuzzer in $OUT" >&2
cd "$OUT"  # swiftc leaves module files in the current directory
cat > "$OUT/modules/module.modulemap" <<MAP
module CSimdjson {
  header "$ROOT/Sources/CSimdjson/include/pp_simdjson.h"
  export *
}
MAP
clang++ -std=c++17 -O1 -g -fsanitize=fuzzer-no-link,address -I "$ROOT/Sources/CSimdjson/include" \
  -c "$ROOT/Sources/CSimdjson/pp_simdjson.cpp" -o "$OUT/pp_simdjson.o"
mapfile -t CORE < <(find "$ROOT/Sources/PullParityCore" -name '*.swift' | sort)
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -wmo -package-name PullParity "${FEATURES[@]}" \
  -module-name PullParityCore -emit-module -emit-module-path "$OUT/modules/PullParityCore.swiftmodule" \
  -emit-object -o "$OUT/core.o" "${CORE[@]}"
# The decoder's files, as the module PullParityIngest: Ingest's Parsing folder, the parsing seam
# and the contract's rules without the database side.
DECODER=("$ROOT"/Sources/PullParityIngest/Parsing/*.swift)
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -wmo -package-name PullParity "${FEATURES[@]}" \
  -module-name PullParityIngest -I "$OUT/modules" -Xcc -fmodule-map-file="$OUT/modules/module.modulemap" \
  -emit-module -emit-module-path "$OUT/modules/PullParityIngest.swiftmodule" \
  -emit-object -o "$OUT/decoder.o" "${DECODER[@]}"
# The reference parser is test code (PullParityTestSupport): only its own files are built here.
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -wmo -package-name PullParity "${FEATURES[@]}" \
  -module-name LineDecoderFuzzer -I "$OUT/modules" -Xcc -fmodule-map-file="$OUT/modules/module.modulemap" \
  "$ROOT"/Tests/PullParityTestSupport/ReferenceParser/*.swift \
  "$ROOT/fuzz/LineDecoderFuzzer.swift" "$OUT/decoder.o" "$OUT/core.o" "$OUT/pp_simdjson.o" -lsimdjson -lstdc++ \
  -use-ld=lld -o "$OUT/line-decoder-fuzzer"

# Seed corpus: every line of the sample logs, one file each (bad lines included).
if [ -z "$(ls -A "$OUT/corpus")" ]; then
  for f in "$ROOT"/sample-events/*.jsonl "$ROOT"/sample-events/*.jsonl.gz; do
    # The first 1,000 lines of each file: every event type, and all of bad-lines.jsonl.
    case "$f" in *.gz) zcat "$f" ;; *) cat "$f" ;; esac | awk 'NR <= 1000'
  done | split -l 1 -a 5 - "$OUT/corpus/seed-"
fi

# One process, no -jobs: the machine is shared.
exec ./line-decoder-fuzzer -runs=10000000 -max_len=4096 -print_final_stats=1 "$@" corpus
