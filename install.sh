#!/bin/sh
# Installs the loopsctl executable for this machine from a release, checked against the release's
# SHA256SUMS:
#   curl -fsSL https://github.com/loopsctl/loopsctl/releases/latest/download/install.sh | sh
#   sh install.sh 0.1.0           a given version (the latest without one)
# LOOPSCTL_INSTALL_DIR    where it goes (default ~/.local/bin)
# LOOPSCTL_INSTALL_BASE_URL  a directory holding the release's files, instead of the project's releases
# Anything amiss (an unknown platform, a download cut short, a checksum that differs or is missing)
# stops it with one line and a non-zero exit, and leaves nothing installed.
set -eu

REPOSITORY=https://github.com/loopsctl/loopsctl

fail() {
  echo "loopsctl install: $*" >&2
  exit 1
}

version=${1:-}
version=${version#v}
case $version in
  '' | [0-9]*) ;;
  *) fail "\"$1\" is not a version (say 0.2.0, or nothing for the latest)" ;;
esac

case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) fail "no build for this system ($(uname -s)); install with npm instead: npm install -g loopsctl (before it is on the npm registry: npm install -g <path to a clone, or a release's loopsctl-<version>.tgz>)" ;;
esac
case $(uname -m) in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) fail "no build for this processor ($(uname -m)); install with npm instead: npm install -g loopsctl (before it is on the npm registry: npm install -g <path to a clone, or a release's loopsctl-<version>.tgz>)" ;;
esac

if [ -n "${LOOPSCTL_INSTALL_BASE_URL:-}" ]; then
  base=${LOOPSCTL_INSTALL_BASE_URL%/}
elif [ -n "$version" ]; then
  base=$REPOSITORY/releases/download/v$version
else
  base=$REPOSITORY/releases/latest/download
fi

# download URL FILE: the whole file or a failure (an HTTP error, a connection cut short).
if command -v curl >/dev/null 2>&1; then
  download() { curl -fsSL --proto '=https,http' -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  download() { wget -q -O "$2" "$1"; }
else
  fail "needs curl or wget to download"
fi

if command -v sha256sum >/dev/null 2>&1; then
  digest() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  digest() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  fail "needs sha256sum or shasum to check the download"
fi

if [ -n "${LOOPSCTL_INSTALL_DIR:-}" ]; then
  dir=$LOOPSCTL_INSTALL_DIR
elif [ -n "${HOME:-}" ]; then
  dir=$HOME/.local/bin
else
  fail "HOME is not set: set HOME, or LOOPSCTL_INSTALL_DIR to the directory to install into"
fi
mkdir -p "$dir" 2>/dev/null || fail "cannot make the install directory $dir"
# Absolute, as PATH needs it, and as it is said below.
dir=$(CDPATH='' cd -- "$dir" && pwd) || fail "cannot enter the install directory $dir"
[ -w "$dir" ] || fail "cannot write to the install directory $dir (set LOOPSCTL_INSTALL_DIR)"
# mv would put the executable inside a directory of that name, and the install would not run.
[ ! -d "$dir/loopsctl" ] || fail "$dir/loopsctl is a directory: move it aside, or set LOOPSCTL_INSTALL_DIR"

# Downloads land beside the target, so that the last step is a rename: an install is whole or absent.
sums=$dir/.loopsctl-SHA256SUMS.$$
part=$dir/.loopsctl-download.$$
trap 'rm -f "$sums" "$part"' EXIT
# A closed terminal (HUP) ends it as Ctrl-C (INT) and kill (TERM) do: through the EXIT trap above.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

download "$base/SHA256SUMS" "$sums" || fail "could not download $base/SHA256SUMS"
# Every line of a checksum list is 64 hex digits, two spaces and a name: anything else (a web page) is not one.
if grep -qv '^[0-9a-f]\{64\}  [A-Za-z0-9._-]*$' "$sums" || [ ! -s "$sums" ]; then
  fail "$base/SHA256SUMS is not a checksum list (is LOOPSCTL_INSTALL_BASE_URL the directory of the release's files?)"
fi

if [ -n "$version" ]; then
  file=loopsctl-$version-$os-$arch
  line=$(grep "  $file\$" "$sums" || true)
else
  line=$(grep "  loopsctl-[0-9][0-9A-Za-z.+-]*-$os-$arch\$" "$sums" | head -n 1 || true)
  file=${line#*  }
fi
[ -n "$line" ] || fail "the release has no checksum for ${file:-a build for $os-$arch}: not installed"
expected=${line%%  *}

download "$base/$file" "$part" || fail "could not download $base/$file"
actual=$(digest "$part")
[ "$actual" = "$expected" ] || fail "$file does not match its checksum (expected $expected, got $actual): not installed"

chmod 755 "$part"
mv -f "$part" "$dir/loopsctl"
echo "Installed $file as $dir/loopsctl"
case ":${PATH:-}:" in
  *":$dir:"* | *":$dir/:"*) ;;
  *) echo "$dir is not on your PATH: add  export PATH=\"$dir:\$PATH\"  to your shell's profile (~/.profile, ~/.bashrc or ~/.zshrc)" ;;
esac
