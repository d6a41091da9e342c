#!/bin/sh
# campaign.sh 'WORDS' COMMAND...: runs COMMAND with WORDS appended, or as it is when LO_CAMPAIGN=1:
# the two instance sizes of a test labelled `campaign` whose size is an option of the command
# (docs/testing.md, "Tiers"); WORDS (e.g. `--bound 6`) give the small one, the command's own
# default or arguments the full one. The C++ and Python tests' twins: campaign.hpp, campaign.py.
set -eu
small=$1
shift
if [ "${LO_CAMPAIGN:-}" != 1 ]; then
  # shellcheck disable=SC2086 # WORDS are words
  set -- "$@" $small
fi
exec "$@"
