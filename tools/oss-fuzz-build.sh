#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz the way OSS-Fuzz and ClusterFuzzLite expect
# (their build.sh): the compilers and flags come from CC, CXX, CFLAGS, CXXFLAGS (which carry the
# sanitizer and coverage flags), the engine from LIB_FUZZING_ENGINE, and everything lands in OUT:
# one binary per harness, NAME_seed_corpus.zip and NAME.dict.
#
# The project's dependencies must be installed in the build image first (Debian/Ubuntu:
# libsimdjson-dev libcli11-dev libgtest-dev cmake ninja-build zip). Locally, for example:
#   CC=clang-14 CXX=clang++-14 CFLAGS="-fsanitize=address,fuzzer-no-link" \
#   CXXFLAGS="-fsanitize=address,fuzzer-no-link" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#   OUT=/tmp/out tools/oss-fuzz-build.sh
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
: "${CC:=clang}" "${CXX:=clang++}" "${CFLAGS:=}" "${CXXFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:?OUT must name the output directory}"
work=${WORK:-$(mktemp -d)}
build="$work/lowering-oracle-fuzz"
harnesses=($(cd "$src/tests/fuzz/corpus" && ls)) # one folder per harness

cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DLO_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" -DLO_BUILD_PROOFS=OFF -DLO_WERROR=OFF
cmake --build "$build" --target fuzzers -j"$(nproc)"

mkdir -p "$OUT"
for name in "${harnesses[@]}"; do
  cp "$build/fuzz/fuzz_$name" "$OUT/$name"
  cp "$src/tests/fuzz/lowering-oracle.dict" "$OUT/$name.dict"
  rm -f "$OUT/${name}_seed_corpus.zip"
  (cd "$src/tests/fuzz/corpus/$name" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
done
echo "oss-fuzz-build: built ${harnesses[*]} into $OUT"
