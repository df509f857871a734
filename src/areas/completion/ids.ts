/**
 * `loopsctl completion __ids <list>`, which the completion scripts run when LOOPSCTL_COMPLETE_IDS=1:
 * the ids of one list with their names, one `id<TAB>name` per line; an id outside the safe
 * alphabet (SAFE_ID) is left out, as the shell would run or expand it. One request for the first
 * page, kept for a short while in the config dir so that pressing Tab again is instant. Completion must
 * never get in the way: any failure prints nothing (or what the cache still holds), and exits 0.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { PER_PAGE_MAX } from '../../api/paging.js';
import { z } from '../../api/schemas.js';
import { readJsonFile } from '../../config/json-file.js';
import { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { ID_LISTS, type IdList } from '../../core/id-lists.js';
import { sanitize } from '../../render/sanitize.js';
import { SAFE_ID } from './scripts.js';

const CACHE_FILE = 'completion-ids.json';
/** Long enough for the Tabs of one command line, short enough to see new records soon. */
const CACHE_MS = 60_000;
/** With Node's start, a Tab never waits two seconds. */
const ATTEMPT_SECONDS = 1;

const idAndName = z.looseObject({ id: z.string(), name: z.string().nullish() });
const cacheSchema = z.record(z.string(), z.object({ at: z.number(), lines: z.array(z.string()) }));
type Cache = z.infer<typeof cacheSchema>;

export const completeIds: Handler<[string]> = async (context, [list]) => {
  if (!Object.hasOwn(ID_LISTS, list)) throw new UsageError(`no list "${list}"`, { hint: `one of ${Object.keys(ID_LISTS).join(', ')}` });
  const file = join(context.configDir, CACHE_FILE);
  const cache = readCache(file);
  const now = context.runtime.now().getTime();
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
  if (lines !== undefined && lines.length > 0) await context.out.write(`${lines.join('\n')}\n`);
};

/** The first page of the list, from one attempt of at most ATTEMPT_SECONDS, whatever --timeout and --retries say. */
async function fetchLines(context: CommandContext, list: IdList, apiKey: string): Promise<string[]> {
  const quick = new CommandContext(context.runtime, { ...context.globals, timeout: ATTEMPT_SECONDS, retries: 0 }, context.spec);
  try {
    const client = await quick.clientWithKey(apiKey);
    const lines: string[] = [];
    for await (const page of client.pages({ path: ID_LISTS[list], item: idAndName }, { perPage: PER_PAGE_MAX, limit: PER_PAGE_MAX })) {
      for (const { id, name } of page.data) if (SAFE_ID.test(id)) lines.push(`${id}\t${sanitize(name ?? '')}`);
    }
    return lines;
  } finally {
    await quick.close();
  }
}

/** One entry per list and account: the key is hashed, never stored. */
function cacheKey(context: CommandContext, list: string, apiKey: string): string {
  const server = context.globals.sandbox ? 'sandbox' : (context.globals.baseUrl ?? context.env.LOOPS_BASE_URL ?? '');
  return `${list} ${createHash('sha256').update(`${server}\n${apiKey}`).digest('hex').slice(0, 16)}`;
}

function readCache(file: string): Cache {
  try {
    return readJsonFile(file, cacheSchema) ?? {};
  } catch {
    return {};
  }
}

/** Writes the entry, dropping the ones too old to be used. */
function writeCache(file: string, cache: Cache, key: string, entry: Cache[string], now: number): void {
  const kept = Object.fromEntries(Object.entries(cache).filter(([, old]) => now - old.at < CACHE_MS));
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ ...kept, [key]: entry }), { mode: 0o600 });
  } catch {
    // Without a cache, the next Tab asks the API again.
  }
}
