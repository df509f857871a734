#!/usr/bin/env bash
# Installs loopsctl as a user would get it: the packed tarball, into an empty prefix, with no
# development tree (every library is bundled into dist/, but for the keychain's native module, an
# optional dependency), then runs a few commands from there.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(npm pack --silent --pack-destination "$work" | tail -n 1)
npm install --global --prefix "$work/prefix" --omit=dev --no-audit --no-fund "$work/$tarball" >/dev/null
bin="$work/prefix/bin/loopsctl"
export LOOPSCTL_CONFIG_DIR="$work/config"
# Nothing but loopsctl itself may be installed: its libraries are in the bundle.
installed=$(ls "$work/prefix/lib/node_modules")
[ "$installed" = loopsctl ] || { echo "the install brought more than loopsctl: $installed"; exit 1; }
# The one dependency installed is the optional native keychain module, with its platform's binary.
deps="$work/prefix/lib/node_modules/loopsctl/node_modules"
if [ -e "$deps" ]; then
  others=$(cd "$deps" && find . -mindepth 1 -maxdepth 2 -type d ! -name '.*' | sed 's|^\./||' | grep -v -e '^@napi-rs$' -e '^@napi-rs/keyring' || true)
  [ -z "$others" ] || { echo "the install brought dependencies besides the keychain module: $others"; exit 1; }
fi
"$bin" --version
# The man pages made by `npm run docs` are installed where man finds them.
[ -e "$work/prefix/share/man/man1/loopsctl.1" ] && [ -e "$work/prefix/share/man/man1/loopsctl-themes-list.1" ] || { echo "the man pages were not installed"; exit 1; }
"$bin" --sandbox themes list >/dev/null
"$bin" --sandbox workflow show cnm1gv0otq1z57mnend2pws3y --format dot | grep -q '^digraph'
"$bin" --sandbox themes list --jq '.[0].name' >/dev/null
# The completion scripts the build made, and the HMAC library bundled with the webhooks commands.
"$bin" completion bash | grep -q '^__loopsctl_commands()'
printf '{}' | LOOPS_WEBHOOK_SECRET=whsec_bG9vcHNjdGwtcGFja2FnZS1jaGVjaw== "$bin" webhooks sign | grep -q '^webhook-signature: v1,'
# The keychain module loads from the install (where no keychain answers, the key goes to the file),
# and undici, bundled on its own, carries a request to a proxy (none there: exit 10).
note=$(printf 'sk-package-check' | env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work" "$bin" auth login --with-key-stdin --skip-verify 2>&1 >/dev/null)
case "$note" in *"is not installed"*) echo "the keychain module did not load: $note"; exit 1 ;; esac
status=0
"$bin" --proxy http://127.0.0.1:9 --base-url http://127.0.0.1:9 --retries 0 ips list 2>/dev/null || status=$?
[ "$status" = 10 ] || { echo "a request through a proxy ended with $status, not 10"; exit 1; }
# The shipped skill, and the MCP server with the SDK bundle (it ends when its stdin does).
"$bin" skill show | grep -q '^name: loopsctl$'
"$bin" mcp --sandbox </dev/null 2>/dev/null
echo "package check: the tarball installs alone and runs"
