#!/usr/bin/env bash
# Installs every Debian package sluice needs to build, test and compare against its peers.
# Safe to run again: apt-get skips what is already installed.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: run as root (it calls apt-get)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
packages=(
  build-essential cmake pkg-config
  liburing-dev libaio-dev libblkid-dev libfmt-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev libxxhash-dev zlib1g-dev libssl-dev libsqlite3-dev
  util-linux e2fsprogs python3 python3-pandas
  fio fio-examples sysbench
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
