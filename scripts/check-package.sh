#!/usr/bin/env bash
# Installs loopsctl as a user would get it: the packed tarball, into an empty prefix, with no
# development tree (every library is bundled into dist/, but for the keychain's native module, an
# optional dependency), then runs a few commands from there.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tarball `npm run release` makes and `npm publish` sends: no scripts, compressed rarely read files.
tarball=$(node src/build/release.mjs --tarball "$work" | tail -n 1)
install_log=$(npm install --global --prefix "$work/prefix" --omit=dev --no-audit --no-fund "$tarball" 2>&1)
# npm warns of any install script in the package (a `prepare` once travelled in it).
case "$install_log" in *install-scripts*loopsctl*) echo "the package has an install script: $install_log"; exit 1 ;; esac
npm publish --dry-run --ignore-scripts "$tarball" >/dev/null 2>"$work/publish.log" || { cat "$work/publish.log"; echo "npm publish --dry-run failed"; exit 1; }
bin="$work/prefix/bin/loopsctl"
package="$work/prefix/lib/node_modules/loopsctl"
# Under 5 MiB installed, the keychain's native module (an optional dependency) apart: in bytes, as
# npm counts a package's unpacked size, not in the file system's blocks (the 183 small help pages
# take 183 KiB, but 4 KiB each in blocks). What few runs read is compressed (src/build/release.mjs,
# COMPRESSED; the man pages gzipped), and what the CLI and its libraries (loopsctl/sandbox,
# loopsctl/webhooks) share is one file of dist/vendor/ each library requires as it is: zod, yaml,
# pg and the icons' glyphs.
size=$(du -sk --apparent-size --exclude=node_modules "$package" | cut -f 1)
[ "$size" -lt 5120 ] || { echo "the package takes $size KiB installed, over 5 MiB"; exit 1; }
echo "package check: loopsctl takes $size KiB installed, the keychain module $(du -sk "$package/node_modules" 2>/dev/null | cut -f 1 || echo 0) KiB"
grep -q '"scripts"' "$package/package.json" && { echo "the installed package.json has scripts"; exit 1; }
export LOOPSCTL_CONFIG_DIR="$work/config" XDG_CACHE_HOME="$work/cache"
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
# The man pages made by `npm run docs` are installed, gzipped, where man finds them.
man1="$work/prefix/share/man/man1"
[ -e "$man1/loopsctl.1.gz" ] && [ -e "$man1/loopsctl-themes-list.1.gz" ] || { echo "the man pages were not installed"; exit 1; }
gzip -dc "$man1/loopsctl-themes-list.1.gz" | grep -q '^\.TH "LOOPSCTL-THEMES-LIST" "1"' || { echo "the installed man page is not one"; exit 1; }
"$bin" --sandbox themes list >/dev/null
# A help page, which the package keeps compressed, printed as the build wrote it.
"$bin" themes list --help | grep -q '^Usage: loopsctl themes list' || { echo "loopsctl themes list --help printed no usage"; exit 1; }
# loopsctl/sandbox, imported by its name as an app does: the package ships no code cache, so its
# first start writes one in the cache directory, which the next start reads.
app_test="$work/prefix/lib/sandbox-check.mjs"
printf '%s\n' "import { startSandbox } from 'loopsctl/sandbox';" 'const sandbox = await startSandbox();' 'await sandbox.close();' >"$app_test"
first=$(LOOPSCTL_REPORT_CODE_CACHE=1 node "$app_test" 2>&1)
[ "$first" = 'sandbox code cache: not used (none yet)' ] || { echo "loopsctl/sandbox's first start: $first"; exit 1; }
second=$(LOOPSCTL_REPORT_CODE_CACHE=1 node "$app_test" 2>&1)
case "$second" in "sandbox code cache: used $work/cache/loopsctl/sandbox@"*) ;; *) echo "loopsctl/sandbox's code cache was not used: $second"; exit 1 ;; esac
# A YAML fixture file, which loopsctl/sandbox reads with the package's one copy of yaml.
fixtures_test="$work/prefix/lib/sandbox-fixtures.mjs"
printf '%s\n' 'contacts:' '  - email: ada@example.com' >"$work/prefix/lib/loops.yaml"
printf '%s\n' "import { startSandbox } from 'loopsctl/sandbox';" \
  "const sandbox = await startSandbox({ fixtures: '$work/prefix/lib/loops.yaml' });" \
  "const found = await fetch(sandbox.url + '/v1/contacts/find?email=ada%40example.com', { headers: { authorization: 'Bearer ' + sandbox.apiKey } });" \
  'console.log((await found.json())[0]?.email);' 'await sandbox.close();' >"$fixtures_test"
[ "$(node "$fixtures_test")" = ada@example.com ] || { echo "loopsctl/sandbox did not start from a YAML fixture file"; exit 1; }
# loopsctl/webhooks, imported and required by its name as an app does, and its types read by
# TypeScript as an app's module and CommonJS code read them: a signed fixture verifies.
webhooks_esm="$work/prefix/lib/webhooks-check.mts"
webhooks_cjs="$work/prefix/lib/webhooks-check.cts"
secret=whsec_bG9vcHNjdGwtcGFja2FnZS1jaGVjaw==
printf '%s\n' "import { signWebhookEvent, verifyWebhook, webhookFixture, type WebhookEvent } from 'loopsctl/webhooks';" \
  "const event: WebhookEvent = await verifyWebhook(signWebhookEvent(webhookFixture('email.hardBounced'), '$secret'), '$secret');" \
  "if (event.known && event.eventName === 'email.hardBounced') console.log(event.contactIdentity.email);" >"$webhooks_esm"
printf '%s\n' "import webhooks = require('loopsctl/webhooks');" \
  "webhooks.verifyWebhook(webhooks.signWebhookEvent(webhooks.webhookFixture('email.opened'), '$secret'), '$secret').then((event: webhooks.WebhookEvent) => console.log(event.eventName));" >"$webhooks_cjs"
node "$PWD/node_modules/typescript/bin/tsc" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 --types node --typeRoots "$PWD/node_modules/@types" "$webhooks_esm" "$webhooks_cjs" \
  || { echo "loopsctl/webhooks's types do not check in an app"; exit 1; }
cp "$webhooks_esm" "${webhooks_esm%.mts}.mjs" && sed -i 's/, type WebhookEvent//; s/const event: WebhookEvent =/const event =/' "${webhooks_esm%.mts}.mjs"
[ "$(node "${webhooks_esm%.mts}.mjs")" = jane.doe@example.com ] || { echo "loopsctl/webhooks did not verify its fixture as an ES module"; exit 1; }
printf '%s\n' "const webhooks = require('loopsctl/webhooks');" \
  "webhooks.verifyWebhook(webhooks.signWebhookEvent(webhooks.webhookFixture('email.opened'), '$secret'), '$secret').then((event) => console.log(event.eventName));" >"${webhooks_cjs%.cts}.cjs"
[ "$(node "${webhooks_cjs%.cts}.cjs")" = email.opened ] || { echo "loopsctl/webhooks did not verify its fixture as CommonJS"; exit 1; }
# A postgres:// store has it load pg from the package's one copy (nothing listens on port 9).
printf '%s\n' "require('loopsctl/webhooks').openDeliveryStore('postgres://127.0.0.1:9/deliveries').catch((error) => console.log(error.message));" >"$work/prefix/lib/webhooks-postgres.cjs"
case "$(node "$work/prefix/lib/webhooks-postgres.cjs")" in *"cannot be reached: nothing listens there"*) ;; *) echo "loopsctl/webhooks did not load pg for a postgres:// store"; exit 1 ;; esac
"$bin" --sandbox workflow show cnm1gv0otq1z57mnend2pws3y --format dot | grep -q '^digraph'
"$bin" --sandbox themes list --jq '.[0].name' >/dev/null
# The completion scripts the build made, and the HMAC library bundled with the webhooks commands.
"$bin" completion bash | grep -q '^__loopsctl_commands()'
printf '{}' | LOOPS_WEBHOOK_SECRET=whsec_bG9vcHNjdGwtcGFja2FnZS1jaGVjaw== "$bin" webhooks sign | grep -q '^webhook-signature: v1,'
# The keychain module loads from the install (where no keychain answers, the key goes to the file),
# and a request to a proxy (none there) ends as a proxy error (exit 10).
note=$(printf 'sk-package-check' | env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work" "$bin" auth login --with-key-stdin --skip-verify 2>&1 >/dev/null)
case "$note" in *"is not installed"*) echo "the keychain module did not load: $note"; exit 1 ;; esac
status=0
"$bin" --proxy http://127.0.0.1:9 --base-url http://127.0.0.1:9 --retries 0 ips list 2>/dev/null || status=$?
[ "$status" = 10 ] || { echo "a request through a proxy ended with $status, not 10"; exit 1; }
# The HTML parser, shipped compressed, as `content convert` reads an email with it.
printf '<html><body><h1>Welcome</h1><p>Hello from the package check.</p></body></html>' >"$work/welcome.html"
"$bin" content convert "$work/welcome.html" --out "$work/converted" >/dev/null 2>&1
grep -rq 'Hello from the package check.' "$work/converted" || { echo "content convert did not write the email it read"; exit 1; }
# The JavaScript parser, shipped compressed too, as `content convert` reads a React Email template with it.
printf "import { Body, Html, Text } from '@react-email/components';\nexport default function Welcome() {\n  return <Html><Body><Text>Hello from React.</Text></Body></Html>;\n}\n" >"$work/welcome.tsx"
"$bin" content convert "$work/welcome.tsx" --out "$work/converted-react" >/dev/null 2>&1
grep -rq 'Hello from React.' "$work/converted-react" || { echo "content convert did not write the React email it read"; exit 1; }
# The shipped skill, and the MCP server with the SDK bundle (it ends when its stdin does): its
# commands' bundle, like migrate's, is one the package keeps compressed.
"$bin" skill show | grep -q '^name: loopsctl$'
"$bin" mcp --sandbox </dev/null 2>/dev/null
"$bin" migrate report "$work/converted" | grep -q '^Templates: ' || { echo "migrate report printed no report"; exit 1; }
echo "package check: the tarball installs alone and runs"
# The README's Quickstart in a fresh clone, installed offline from npm's cache as a newcomer's
# `npm install` installs and builds it (test/spawned/quickstart.test.ts): a clone and a build of
# their own, which `npm test` leaves to this check for what they cost.
LOOPSCTL_TEST_QUICKSTART=1 npx vitest run test/spawned/quickstart.test.ts
