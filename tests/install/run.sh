#!/bin/sh
# Installs the build tree into a temporary prefix, then configures, builds and runs a consumer
# project that uses find_package(lowering_oracle).
# Usage: run.sh BUILD_DIR CONSUMER_SOURCE PLAN CXX_COMPILER GENERATOR [CXX_FLAGS]
set -eu
BUILD=$1
CONSUMER=$2
PLAN=$3
CXX=$4
GENERATOR=$5
FLAGS=${6:-}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lo-install.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

cmake --install "$BUILD" --prefix "$WORK/prefix" >"$WORK/install.log"
test -x "$WORK/prefix/bin/lowering-oracle" || { echo "binary not installed" >&2; exit 1; }
test -f "$WORK/prefix/include/lowering_oracle/ref/lowering.hpp" || { echo "headers not installed" >&2; exit 1; }
ls "$WORK"/prefix/lib*/cmake/lowering_oracle/lowering_oracleConfig.cmake >/dev/null
"$WORK/prefix/bin/lowering-oracle" --version
# The Python package (docs/python.md), when this build has it: the module, and the dist-info
# whose entry point registers the pytest plugin (read without importing the instrumented module).
if [ -d "$BUILD/python/lowering_oracle" ]; then
  site="$WORK/prefix/lib/python3/dist-packages"
  ls "$site"/lowering_oracle/_native.*.so "$site"/lowering_oracle/pytest_plugin.py >/dev/null
  /usr/bin/python3 -c 'import importlib.metadata as m, sys
d = next(m.distributions(path=[sys.argv[1]]))
ep = [e for e in d.entry_points if e.group == "pytest11"]
assert d.metadata["Name"] == "lowering-oracle" and ep and ep[0].value == "lowering_oracle.pytest_plugin", ep
print("python package installed:", d.metadata["Name"], d.version)' "$site"
fi

cmake -S "$CONSUMER" -B "$WORK/build" -G "$GENERATOR" -DCMAKE_PREFIX_PATH="$WORK/prefix" \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_EXE_LINKER_FLAGS="$FLAGS" \
  >"$WORK/configure.log" || { cat "$WORK/configure.log" >&2; exit 1; }
cmake --build "$WORK/build" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
"$WORK/build/consumer" "$PLAN"
