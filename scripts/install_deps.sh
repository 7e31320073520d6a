#!/usr/bin/env bash
# Installs what pixflow's build, tests and benchmarks need on Debian 12
# (the OpenCL backend: the ICD loader and headers, and PoCL as the CPU
# OpenCL device its tests run on)
# (idempotent: does nothing when everything is already there). Extra
# package names given as arguments are installed too (scripts/test.sh adds
# the aarch64 cross toolchain and qemu-user this way).
set -euo pipefail
pkgs=(build-essential cmake pkg-config file clang libclang-rt-dev libopencv-dev python3 python3-pil python3-numpy
  python3-venv python3-dev python3-opencv
  ffmpeg libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  libjpeg62-turbo-dev libturbojpeg0-dev libpng-dev libwebp-dev
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
  libmicrohttpd-dev prometheus "$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install_deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Debian's prometheus package starts a system service on install; the
# tests run their own servers (loopback, temp dir, stopped by PID), so a
# running system one is stopped and disabled (a container without systemd
# has none running: policy-rc.d keeps it from starting there).
if command -v systemctl >/dev/null 2>&1 && systemctl is-enabled prometheus >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO systemctl disable --now prometheus >/dev/null 2>&1 || true
elif [ -x /etc/init.d/prometheus ] && /etc/init.d/prometheus status >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO /etc/init.d/prometheus stop >/dev/null 2>&1 || true
fi
