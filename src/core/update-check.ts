/**
 * The update check (see update-notice.ts): asks the feed for the latest version, keeps the answer
 * for a day, and says when it is newer than this one. A feed that hangs, fails, answers garbage or
 * names an older version is silence; the command's exit code is never touched.
 */
import { dirname } from 'node:path';
import { boundedBody } from '../base/bounded-body.js';
import { builtinModule } from '../base/builtin.js';
import { secondsSetting } from '../base/duration.js';
import { writeJsonFile } from '../base/json-file.js';
import { VERSION } from '../base/version.js';
import { upgradeCommand } from './installation.js';
import type { Runtime } from './runtime.js';

/** The latest published version, as npm's registry answers it (`version`); a GitHub release's `tag_name` is read too. */
export const DEFAULT_UPDATE_FEED = 'https://registry.npmjs.org/loopsctl/latest';
/** What the last check found, kept in the cache directory. */
export interface LastCheck {
  checkedAt: string;
  latest: string | null;
}

/** Long enough for a feed on a slow line, short enough that nobody waits on it after their output. */
const FEED_TIMEOUT_MS = 1500;

/**
 * How long the feed is waited for: LOOPSCTL_UPDATE_TIMEOUT's seconds where they are a positive
 * number, for a line slower than the default allows; the default otherwise, since the notice comes
 * after the command's output and has no place to refuse a setting.
 */
export function feedTimeoutMs(env: Record<string, string | undefined>): number {
  return secondsSetting(env.LOOPSCTL_UPDATE_TIMEOUT, FEED_TIMEOUT_MS);
}
/**
 * The most of a feed's answer that is read: npm's manifest of a version (with the package's list of
 * man pages) is about 10 KB. A larger answer is not a version feed, and is not read to its end.
 */
export const MAX_FEED_BYTES = 64 * 1024;

export async function checkForUpdate(runtime: Runtime, file: string): Promise<void> {
  const latest = await latestVersion(runtime.env, runtime.signal);
  writeLastCheck(file, { checkedAt: runtime.now().toISOString(), latest: latest ?? null });
  if (latest === undefined || compareVersions(latest, VERSION) <= 0 || runtime.signal.aborted) return;
  runtime.stderr.write(`A newer loopsctl is out: ${latest} (this is ${VERSION}). Upgrade with: ${upgradeCommand(runtime.installation, runtime.env.HOME)}\n`);
}

/** The version the feed of the environment names (LOOPSCTL_UPDATE_URL), if it answers in time with one; undefined for anything else. */
export async function latestVersion(env: Record<string, string | undefined>, signal: AbortSignal): Promise<string | undefined> {
  try {
    const feed = env.LOOPSCTL_UPDATE_URL || DEFAULT_UPDATE_FEED;
    const response = await fetch(feed, { signal: AbortSignal.any([signal, AbortSignal.timeout(feedTimeoutMs(env))]), headers: { accept: 'application/json' } });
    if (!response.ok) return undefined;
    // A response's body as text if it holds at most MAX_FEED_BYTES; the rest left unread otherwise.
    if (response.body === null) return undefined;
    const bytes = await boundedBody(response.body, response.headers, MAX_FEED_BYTES);
    if (bytes === undefined) return undefined;
    const body = JSON.parse(bytes.toString('utf8')) as { version?: unknown; tag_name?: unknown };
    const named = typeof body.version === 'string' ? body.version : typeof body.tag_name === 'string' ? body.tag_name : undefined;
    const version = named?.replace(/^v/, '');
    return version !== undefined && /^\d+\.\d+\.\d+$/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Compares two x.y.z versions: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const [left, right] = [a, b].map((version) => version.split(/[.-]/, 3).map(Number));
  for (let index = 0; index < 3; index += 1) {
    const difference = (left![index] ?? 0) - (right![index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Written whole or not at all; a cache that cannot be written means checking again next time. */
function writeLastCheck(file: string, check: LastCheck): void {
  try {
    builtinModule('node:fs').mkdirSync(dirname(file), { recursive: true });
    writeJsonFile(file, check);
  } catch {
    // Nothing to say: the next run checks again.
  }
}
