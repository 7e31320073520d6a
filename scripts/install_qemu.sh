#!/usr/bin/env bash
# Installs the QEMU user-mode emulators that run pixflow's CPU matrix
# (scripts/test.sh: the suite under `qemu-x86_64 -cpu Nehalem|Haswell` and
# the aarch64 build under qemu-aarch64) and links them as
# /usr/local/bin/qemu-x86_64 and /usr/local/bin/qemu-aarch64.
#
# Why not Debian 12's own qemu-user (7.2): its TCG mis-emulates AVX2
# gathers whose index register is ymm4 (every lane reads offset 0), so the
# AVX2 resize kernels "fail" under it though they are right on real
# Haswells. QEMU 10.0 (bookworm-backports) fixed that but reads 32 bytes
# for vinserti128's 16-byte memory operand, so a load that ends at a guard
# page faults. QEMU 11.1 runs both correctly. Its Debian binaries are
# static-pie, so we take them from trixie-backports without installing
# the package or touching the system's apt sources. Idempotent.
set -euo pipefail
dest=/opt/pixflow-qemu
have_ok() {
  [ -x "$dest/bin/qemu-x86_64" ] && [ -x "$dest/bin/qemu-aarch64" ] &&
    "$dest/bin/qemu-x86_64" --version | grep -Eq 'version (1[1-9]|[2-9][0-9])\.'
}
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! have_ok; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/lists/partial"
  echo "deb http://deb.debian.org/debian trixie-backports main" >"$tmp/sources.list"
  apt_o=(-oDir::State::Lists="$tmp/lists" -oDir::Etc::SourceList="$tmp/sources.list"
    -oDir::Etc::SourceParts=/dev/null -oAPT::Sandbox::User=root -oDebug::NoLocking=1)
  echo "install_qemu: fetching qemu-user (>= 11) from trixie-backports into $dest"
  apt-get "${apt_o[@]}" update -qq
  (cd "$tmp" && apt-get "${apt_o[@]}" download -qq qemu-user)
  dpkg -x "$tmp"/qemu-user_*.deb "$tmp/x"
  for b in qemu-x86_64 qemu-aarch64; do
    file -L "$tmp/x/usr/bin/$b" 2>/dev/null | grep -q 'static' || {
      echo "install_qemu: $b from trixie-backports is not a static binary; cannot use it on Debian 12" >&2
      exit 1
    }
  done
  $SUDO mkdir -p "$dest/bin"
  $SUDO cp "$tmp/x/usr/bin/qemu-x86_64" "$tmp/x/usr/bin/qemu-aarch64" "$dest/bin/"
  have_ok || { echo "install_qemu: $dest/bin/qemu-x86_64 is not QEMU >= 11" >&2; exit 1; }
fi
$SUDO ln -sf "$dest/bin/qemu-x86_64" /usr/local/bin/qemu-x86_64
$SUDO ln -sf "$dest/bin/qemu-aarch64" /usr/local/bin/qemu-aarch64
