/** `loopsctl doctor`: each check says what it found; a failed one says how to fix it. */

import { proxyFor, shownProxy } from '../../api/proxy.js';
import { builtinModule } from '../../base/builtin.js';
import { LoopsctlError } from '../../base/errors.js';
import { ExitCode } from '../../base/exit-codes.js';
import { directoryRefusal, unsafeDirectoryReason } from '../../base/private-dir.js';
import { VERSION } from '../../base/version.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import type { Credentials } from '../../core/credentials.js';
import { upgradeCommand } from '../../core/installation.js';
import { compareVersions, latestVersion } from '../../core/update-check.js';
import { checkApiKey } from '../auth/client.js';
import { type Check, renderChecks } from './render.js';

/** The oldest Node loopsctl runs on (package.json's engines). */
const OLDEST_NODE = '22.13.0';
/** Past this, webhook signatures made or checked here and by the platform disagree on the time. */
const CLOCK_SKEW_LIMIT_SECONDS = 60;

const KEY_SOURCE: Record<Credentials['chosenBy'], string> = {
  '--profile': 'the --profile flag',
  LOOPSCTL_PROFILE: 'LOOPSCTL_PROFILE',
  'auth switch': 'the default profile (auth switch)',
  default: 'the profile "default"',
  LOOPS_API_KEY: 'the environment (LOOPS_API_KEY)',
  sandbox: 'the sandbox (--sandbox)',
};

export const doctor: Handler = handler(['out', 'client', 'key', 'config', 'clock', 'globals', 'programs'], async (context) => {
  const credentials = await context.credentials().catch((error: unknown) => failure(error));
  const checks: Check[] = [installCheck(context), nodeCheck(context), configCheck(context)];
  checks.push(keyCheck(credentials), await keychainCheck(context, credentials), await proxyCheck(context));
  const api = await apiCheck(context, credentials);
  checks.push(api.check, clockCheck(context, api.serverDate), await updateCheck(context));
  const ok = checks.every((check) => check.ok);
  await context.out.present({ ok, checks }, (out, result) => renderChecks(out, result.checks));
  return ok ? undefined : ExitCode.mismatch;
});

/** A failure of ours as what it says and its hint; anything else is a bug and goes on up. */
function failure(error: unknown): LoopsctlError {
  if (error instanceof LoopsctlError) return error;
  throw error;
}

function failed(name: string, error: LoopsctlError): Check {
  return { name, ok: false, detail: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }) };
}

function installCheck(context: Uses<'programs'>): Check {
  const installation = context.runtime.installation;
  const method = { executable: 'the executable', npm: 'npm', clone: 'a clone' };
  const how = installation === undefined ? 'run in-process' : `${method[installation.method]}, in ${installation.directory}`;
  return { name: 'version', ok: true, detail: `${VERSION} (${how})` };
}

function nodeCheck(context: Uses<'programs'>): Check {
  const node = context.runtime.installation?.node;
  if (node === undefined) return { name: 'node', ok: true, detail: 'not known (run in-process)' };
  if (compareVersions(node, OLDEST_NODE) < 0) {
    return {
      name: 'node',
      ok: false,
      detail: `${node}, older than ${OLDEST_NODE}`,
      hint: `install Node ${OLDEST_NODE} or newer, or the executable (see docs/install.md)`,
    };
  }
  return { name: 'node', ok: true, detail: node };
}

function configCheck(context: Uses<'config'>): Check {
  const dir = context.configDir;
  const fs = builtinModule('node:fs');
  if (!fs.existsSync(dir)) return { name: 'config', ok: true, detail: `${dir} (not made yet: the first login makes it, readable by you only)` };
  const refusal = directoryRefusal(dir, writeRefusal(dir));
  if (refusal !== undefined) return { name: 'config', ok: false, detail: `${dir}: ${refusal.reason}`, hint: refusal.fix };
  const unsafe = unsafeDirectoryReason(dir);
  if (unsafe !== undefined) return { name: 'config', ok: false, detail: `${dir}: ${unsafe.reason}`, hint: unsafe.fix };
  const mode = (fs.statSync(dir).mode & 0o777).toString(8).padStart(3, '0');
  return { name: 'config', ok: true, detail: `${dir} (mode ${mode})` };
}

/** Why this user cannot make files in the directory (the system's code, as ENOTDIR), or undefined when it can. */
function writeRefusal(dir: string): string | undefined {
  const fs = builtinModule('node:fs');
  if (!fs.statSync(dir).isDirectory()) return 'ENOTDIR';
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

function keyCheck(credentials: Credentials | LoopsctlError): Check {
  if (credentials instanceof LoopsctlError) return failed('key', credentials);
  const where = credentials.storage === undefined ? '' : `, stored in the ${credentials.storage === 'keychain' ? 'system keychain' : 'config file'}`;
  const profile = credentials.profile === undefined ? '' : `profile "${credentials.profile}" from `;
  return { name: 'key', ok: true, detail: `${profile}${KEY_SOURCE[credentials.chosenBy]}${where}` };
}

/** The platform's keychain, as @napi-rs/keyring reaches it; a failure only where the key in use lives there. */
async function keychainCheck(context: Uses<'programs'>, credentials: Credentials | LoopsctlError): Promise<Check> {
  const name = 'keychain';
  if (context.env.LOOPSCTL_KEY_STORAGE?.trim().toLowerCase() === 'file') return { name, ok: true, detail: 'not used (LOOPSCTL_KEY_STORAGE=file)' };
  const backend = { darwin: 'macOS Keychain', win32: 'Windows Credential Manager' }[context.runtime.platform as string] ?? 'Secret Service';
  const { openKeychain } = await import('../../config/keychain.js');
  try {
    await (await openKeychain(context.runtime.signal)).get('loopsctl-doctor');
    return { name, ok: true, detail: `${backend}, answering` };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const keyThere = !(credentials instanceof LoopsctlError) && credentials.storage === 'keychain';
    const hint = 'unlock or start the keychain, or store the key in the config file: loopsctl auth login --insecure-storage';
    // The reason already says which keychain did not answer, and why, in a person's words.
    if (keyThere) return { name, ok: false, detail: `${reason}, and the key in use is there`, hint };
    return { name, ok: true, detail: `${reason}; keys are stored in the config file` };
  }
}

async function proxyCheck(context: Uses<'client'>): Promise<Check> {
  const settings = context.proxySettings();
  if (settings === undefined) return { name: 'proxy', ok: true, detail: 'none (the sandbox runs in this process)' };
  try {
    const baseUrl = await context.baseUrl();
    const { proxy, exemptBy } = proxyFor(baseUrl, settings);
    if (proxy !== undefined) return { name: 'proxy', ok: true, detail: `${shownProxy(proxy.url)} (from ${proxy.from})` };
    return { name: 'proxy', ok: true, detail: exemptBy === undefined ? 'none: requests go directly' : `none for this address (${exemptBy})` };
  } catch (error) {
    return failed('proxy', failure(error));
  }
}

async function apiCheck(context: Uses<'client' | 'key' | 'globals'>, credentials: Credentials | LoopsctlError): Promise<{ check: Check; serverDate?: Date }> {
  if (credentials instanceof LoopsctlError) {
    return { check: { name: 'api', ok: false, detail: 'not asked: there is no key to ask with', hint: 'fix the key first (see above)' } };
  }
  try {
    const [baseUrl, transport] = await Promise.all([context.baseUrl(), context.transport(credentials.apiKey)]);
    const checked = await checkApiKey(transport);
    const { serverDate } = checked;
    if ('error' in checked) return { check: failed('api', failure(await context.withKeyHint(checked.error))), serverDate };
    const where = context.globals.sandbox ? 'the sandbox in this process' : baseUrl;
    return { check: { name: 'api', ok: true, detail: `${where} answers: the key is team "${checked.teamName}"'s` }, serverDate };
  } catch (error) {
    return { check: failed('api', failure(await context.withKeyHint(error))) };
  }
}

function clockCheck(context: Uses<'clock' | 'globals'>, serverDate: Date | undefined): Check {
  if (serverDate === undefined) return { name: 'clock', ok: true, detail: 'not compared (no answer with a Date header)' };
  // The Date header has whole seconds: the local time cut to the second reads 0 s on the same clock.
  const skew = Math.floor(context.runtime.now().getTime() / 1000) - serverDate.getTime() / 1000;
  const detail = `${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} the API's`;
  if (Math.abs(skew) <= CLOCK_SKEW_LIMIT_SECONDS) return { name: 'clock', ok: true, detail };
  // The sandbox in this process runs on this machine's clock: only a move of its own (`sandbox clock`) sets them apart.
  if (context.globals.sandbox) return { name: 'clock', ok: true, detail: `${detail}: the sandbox's clock was moved (loopsctl sandbox clock)` };
  const hint = 'set the clock from the network (timedatectl set-ntp true, or your system settings): webhook signatures carry the time';
  return { name: 'clock', ok: false, detail, hint };
}

async function updateCheck(context: Uses<'programs'>): Promise<Check> {
  const { env } = context;
  const off = ['CI', 'DO_NOT_TRACK', 'LOOPSCTL_NO_UPDATE_NOTIFIER'].find((name) => env[name]);
  if (off !== undefined) return { name: 'update', ok: true, detail: `not asked (${off} is set)` };
  const latest = await latestVersion(env, context.runtime.signal);
  if (latest === undefined) return { name: 'update', ok: true, detail: 'could not be asked (no answer from the release feed)' };
  if (compareVersions(latest, VERSION) <= 0) return { name: 'update', ok: true, detail: `${VERSION} is the latest` };
  const how = upgradeCommand(context.runtime.installation, context.env.HOME);
  return { name: 'update', ok: true, detail: `${latest} is out`, hint: `upgrade with: ${how}` };
}
