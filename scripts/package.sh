#!/usr/bin/env bash
# Builds the Debian package DIR/package/sluice_VERSION_ARCH.deb (DIR: --build-dir, default build): the binary,
# its man pages and shell completion (scripts/build.sh when DIR is not configured yet; else DIR's own
# configuration is kept), then CPack, whose Depends come from the libraries the binary links (dpkg-shlibdeps).
# Install it with `apt install ./build/package/sluice_*.deb`; remove it with `apt remove sluice`.
# The links to fio, sysbench, ... go to /usr/libexec/sluice/tools, never into PATH (docs/install.md).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
for arg in "$@"; do
  case "$arg" in
    --build-dir=*) build="${arg#*=}" ;;
    *) echo "usage: scripts/package.sh [--build-dir=DIR]" >&2; exit 2 ;;
  esac
done
if ! command -v dpkg-shlibdeps >/dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "package.sh: dpkg-shlibdeps is missing (Debian package dpkg-dev); run as root, or apt-get install dpkg-dev" >&2
    exit 1
  fi
  apt-get update -qq && apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
fi
if [ -f "$build/CMakeCache.txt" ]; then
  cmake "$build" >/dev/null  # finds dpkg-shlibdeps if it was installed just now
  cmake --build "$build" -j"$(nproc)" --target sluice >/dev/null
elif [ "$build" = build ]; then
  scripts/build.sh >/dev/null
else
  echo "package.sh: $build is not a configured build directory" >&2
  exit 1
fi
rm -f "$build"/package/sluice_*.deb
cpack --config "$build/CPackConfig.cmake" -B "$build/package" >/dev/null
ls "$build"/package/sluice_*.deb
