#!/usr/bin/env bash
# Installs loopsctl as a user would get it: the packed tarball, into an empty prefix, with no
# development tree (every library is bundled into dist/), then runs a few commands from there.
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
[ ! -e "$work/prefix/lib/node_modules/loopsctl/node_modules" ] || { echo "the install brought dependencies"; exit 1; }
"$bin" --version
# The man pages made by `npm run docs` are installed where man finds them.
[ -e "$work/prefix/share/man/man1/loopsctl.1" ] && [ -e "$work/prefix/share/man/man1/loopsctl-themes-list.1" ] || { echo "the man pages were not installed"; exit 1; }
"$bin" --sandbox themes list >/dev/null
"$bin" --sandbox workflow show cnm1gv0otq1z57mnend2pws3y --format dot | grep -q '^digraph'
"$bin" --sandbox themes list --jq '.[0].name' >/dev/null
# The completion scripts the build made, and the HMAC library bundled with the webhooks commands.
"$bin" completion bash | grep -q '^__loopsctl_commands()'
printf '{}' | LOOPS_WEBHOOK_SECRET=whsec_bG9vcHNjdGwtcGFja2FnZS1jaGVjaw== "$bin" webhooks sign | grep -q '^webhook-signature: v1,'
echo "package check: the tarball installs alone and runs"
