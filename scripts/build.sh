#!/usr/bin/env bash
# Installs dependencies and builds build/sluice (Release).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSLUICE_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
