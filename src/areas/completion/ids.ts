/**
 * `loopsctl completion __ids <list>`, which the completion scripts run when LOOPSCTL_COMPLETE_IDS=1:
 * the ids of one list with their names, one `id<TAB>name` per line; an id outside the safe
 * alphabet (SAFE_ID) is left out, as the shell would run or expand it. One request for the first
 * page, kept for a short while in the config dir so that pressing Tab again is instant. Completion must
 * never get in the way: any failure prints nothing (or what the cache still holds), and exits 0.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { secondsSetting } from '../../base/duration.js';
import { UsageError } from '../../base/errors.js';
import { writeJsonFile } from '../../base/json-file.js';
import { PER_PAGE_MAX } from '../../base/paging.js';
import { ensureDirectory, unsafeDirectoryReason } from '../../base/private-dir.js';
import { sanitize } from '../../base/sanitize.js';
import { z } from '../../base/shapes.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { ID_LISTS, type IdList } from '../../core/id-lists.js';
import { SAFE_ID } from './words.js';

const CACHE_FILE = 'completion-ids.json';
/** Long enough for the Tabs of one command line, short enough to see new records soon. */
const CACHE_MS = 60_000;
/** With Node's start, a Tab never waits two seconds; LOOPSCTL_COMPLETE_TIMEOUT (seconds) sets another. */
const ATTEMPT_MS = 1000;
/** A few lists of a few accounts: each entry holds one page (at most PER_PAGE_MAX lines). */
const CACHE_MAX_ENTRIES = 16;
/** Far above what CACHE_MAX_ENTRIES pages take; a larger file was not written by loopsctl. */
const CACHE_MAX_BYTES = 1024 * 1024;

const idAndName = z.looseObject({ id: z.string(), name: z.nullish(z.string()) });
const cacheSchema = z.record(z.string(), z.object({ at: z.number(), lines: z.array(z.string()) }));
type Cache = z.infer<typeof cacheSchema>;

export const completeIds: Handler<[string]> = handler(['out', 'client', 'key', 'config', 'clock', 'env', 'globals'], async (context, [list]) => {
  if (!Object.hasOwn(ID_LISTS, list)) throw new UsageError(`no list "${list}"`, { hint: `one of ${Object.keys(ID_LISTS).join(', ')}` });
  const file = join(context.configDir, CACHE_FILE);
  const now = context.runtime.now().getTime();
  const cache = readCache(file, now);
  let key: string;
  let apiKey: string;
  try {
    apiKey = (await context.credentials()).apiKey;
    key = cacheKey(context, list, apiKey);
  } catch {
    return;
  }
  let lines = cache[key]?.lines;
  if (lines === undefined || now - cache[key]!.at >= CACHE_MS) {
    try {
      lines = await fetchLines(context, list as IdList, apiKey);
      writeCache(file, cache, key, { at: now, lines }, now);
    } catch {
      // An old answer is better than none; the next Tab tries again.
    }
  }
  const shown = (lines ?? []).flatMap(safeLine);
  if (shown.length > 0) await context.out.write(`${shown.join('\n')}\n`);
});

/** An `id<TAB>name` line as it may be printed, or none: the cache is read from disk and checked again. */
function safeLine(line: string): string[] {
  const tab = line.indexOf('\t');
  const id = tab === -1 ? line : line.slice(0, tab);
  return SAFE_ID.test(id) ? [`${id}\t${sanitize(tab === -1 ? '' : line.slice(tab + 1))}`] : [];
}

/** The first page of the list, from one attempt of at most ATTEMPT_MS (or LOOPSCTL_COMPLETE_TIMEOUT), whatever --timeout and --retries say. */
async function fetchLines(context: Uses<'client' | 'env'>, list: IdList, apiKey: string): Promise<string[]> {
  const seconds = secondsSetting(context.env.LOOPSCTL_COMPLETE_TIMEOUT, ATTEMPT_MS) / 1000;
  const { client, close } = await context.clientWithLimits(apiKey, { timeout: seconds, retries: 0 });
  try {
    const lines: string[] = [];
    for await (const page of client.pages({ path: ID_LISTS[list], item: idAndName }, { perPage: PER_PAGE_MAX, limit: PER_PAGE_MAX })) {
      for (const { id, name } of page.data) if (SAFE_ID.test(id)) lines.push(`${id}\t${sanitize(name ?? '')}`);
    }
    return lines;
  } finally {
    await close();
  }
}

/** One entry per list and account: the key is hashed, never stored. */
function cacheKey(context: Uses<'env' | 'globals'>, list: string, apiKey: string): string {
  const server = context.globals.sandbox ? 'sandbox' : (context.globals.baseUrl ?? context.env.LOOPS_BASE_URL ?? '');
  return `${list} ${createHash('sha256').update(`${server}\n${apiKey}`).digest('hex').slice(0, 16)}`;
}

/** Whether the directory is one where only the user could have put the cache (as for the stored keys). */
function privateDirectory(dir: string): boolean {
  try {
    return unsafeDirectoryReason(dir) === undefined;
  } catch {
    return false;
  }
}

/**
 * The cache's entries, or none when the file could have been put there by someone else: in a
 * directory another user owns or can write, through a symlink, not a regular file of the user's,
 * or larger than any cache loopsctl writes. An entry dated in the future is dropped, never kept.
 */
function readCache(file: string, now: number): Cache {
  if (!privateDirectory(dirname(file))) return {};
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const stats = fstatSync(descriptor);
    if (!stats.isFile() || stats.size > CACHE_MAX_BYTES || (stats.mode & 0o022) !== 0 || stats.uid !== (process.getuid?.() ?? stats.uid)) return {};
    const text = readFileSync(descriptor, 'utf8');
    if (Buffer.byteLength(text) > CACHE_MAX_BYTES) return {};
    const cache = cacheSchema.parse(JSON.parse(text));
    return Object.fromEntries(Object.entries(cache).filter(([, entry]) => entry.at <= now));
  } catch {
    return {};
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Writes the entry, keeping the newest others still fresh, as the stored keys are written: in a
 * private directory only, under a new name then renamed over the path (never through a link).
 */
function writeCache(file: string, cache: Cache, key: string, entry: Cache[string], now: number): void {
  const kept = Object.entries(cache)
    .filter(([old, oldEntry]) => old !== key && now - oldEntry.at < CACHE_MS)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, CACHE_MAX_ENTRIES - 1);
  try {
    ensureDirectory(dirname(file));
    if (!privateDirectory(dirname(file))) return;
    writeJsonFile(file, Object.fromEntries([...kept, [key, entry]]));
  } catch {
    // Without a cache, the next Tab asks the API again.
  }
}
