#!/usr/bin/env bash
# Installs what sluice needs (when something is missing) and builds only build/sluice (Release, no tests),
# with the link build/fio -> sluice (a script written for fio runs sluice with build/ first in PATH).
# SLUICE_WERROR=ON (scripts/test.sh sets it) builds with the flags of the test build, so that build reuses
# every object instead of compiling everything a second time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSLUICE_TESTS=OFF -DSLUICE_WERROR="${SLUICE_WERROR:-OFF}" >/dev/null
cmake --build build -j"$(nproc)" --target sluice
