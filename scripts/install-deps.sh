#!/usr/bin/env bash
# Installs the Debian packages sluice needs to build; with --with-peers also what its tests need
# (GoogleTest) and the peer tools they compare against (fio). Does nothing, and needs no root, when
# everything is already installed.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  liburing-dev libaio-dev libblkid-dev libfmt-dev nlohmann-json3-dev libxxhash-dev zlib1g-dev libssl-dev
  libarchive-dev
  libnuma-dev  # numa_cpu_nodes / numa_mem_policy (libnuma, as fio)
  libsqlite3-dev
  libopenmpi-dev openmpi-bin  # sluice under mpirun (src/mpi)
  libfuse3-dev fuse3  # the lab's FUSE daemon (src/lab, sluice lab serve); tests/support/faultfs
)
if [ "${1:-}" = "--with-peers" ]; then
  packages+=(libgtest-dev libgmock-dev util-linux e2fsprogs python3 python3-pandas fio fio-examples linux-perf)
  packages+=(chromium fonts-liberation)  # the report's test opens it in a headless browser (fonts: a recommends)
  packages+=(sysbench)  # bench/vs_sysbench.py
  packages+=(iproute2)  # it_mpi's network-namespace hosts
  packages+=(postmark)  # the real PostMark: it_postmark_test's cross-check and bench/vs_postmark.py
  packages+=(bonnie++)  # bench/vs_bonnie*.py and the bon_csv2html check of sluice bonnie's CSV
  packages+=(nginx-light wrk apache2-utils)  # it_net's local nginx; bench/vs_wrk.py (wrk, ab)
  packages+=(python3-aiosmtpd postal make gcc)  # it_smtp_test's sink, bench/vs_postal.py, it_scale_test's make project
  packages+=(clang libfuzzer-14-dev)  # the sanitizer build of scripts/test.sh and the fuzz targets (fuzz/)
  packages+=(clang-tidy clang-format)  # scripts/tidy.sh (.clang-tidy), scripts/format.sh --check (.clang-format)
  packages+=(strace)  # it_vector_engines, it_splice_engine, it_e4defrag_engine: system calls next to fio's
  packages+=(nbdkit libnbd-bin)  # it_lab_nbdkit_test, bench/lab-nbdkit.sh: the lab's cross-check (nbdkit's delay filter, nbdfuse)
  packages+=(xfsprogs)  # it_atomic_writes_test: an XFS loop filesystem with (software) atomic writes
  packages+=(stress-ng)  # scripts/fresh-check.sh --load: the whole suite beside a CPU hog
  packages+=(python3-jsonschema)  # scripts/validate-result.py: every command's JSON against docs/schema (it_cli)
  packages+=(python3-lxml)  # compare_junit_test, it_compare_test: sluice compare --output-format=junit against tests/compare/junit.xsd
  packages+=(python3-prometheus-client)  # it_interval_log_test: --metrics-file through Prometheus's OpenMetrics parser
  packages+=(man-db dpkg-dev zsh)  # it_install_test: man -l renders every page; cpack's Depends (dpkg-shlibdeps); zsh -n
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: missing packages: ${missing[*]}; run as root (it calls apt-get)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
