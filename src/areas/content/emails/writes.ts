/** How `content push` writes a record: the failures it explains, the files the account filled in (the writes it watches: change/watched-writes.ts). */
import { isDeepStrictEqual } from 'node:util';
import { InterruptedError, LoopsctlError, RejectedError, withDetails } from '../../../base/errors.js';
import { isJsonObject } from '../../../base/json-object.js';
import { type EnvValues, fillFile, unfillFiles } from '../shared/env-values.js';
import { type Files, REFERENCE_FILES } from '../shared/files.js';
import { type RecordFiles, writeRecordFiles } from '../shared/record-files.js';

/**
 * The JSON files of a record as the account holds them after a push, where they say all that the
 * local file said (every field of it, with the same value) and more or in another layout: the
 * defaults the account filled in, its two-space JSON. A file that differs in anything it said is
 * left out: the account did not take it as written, and the files keep what the person wrote.
 */
function filledIn(local: Files, account: Files): Files {
  const filled: Files = new Map();
  for (const [name, text] of account) {
    const mine = local.get(name);
    if (REFERENCE_FILES.has(name) || !name.endsWith('.json') || mine === text) continue;
    if (mine === undefined || saysNoMoreThan(mine, text)) filled.set(name, text);
  }
  return filled;
}

/**
 * Files written by hand (a new record's, a field left out) come back with the fields the account
 * filled in and in its JSON layout: written anew as a pull writes them, they stay in step with it.
 * A file that holds placeholders keeps them: it is written with the environment's values made
 * placeholders again, and only when filling that gives the account's text back. The files written,
 * as the account holds them: what the record's digest is taken with.
 */
export function writeFilledIn(root: string, local: RecordFiles, account: Files, values: EnvValues | undefined): Files {
  const filled = filledIn(local.files, account);
  const toWrite = new Map(
    [...filled].flatMap(([name, text]): [string, string][] => {
      if (values === undefined || local.written === undefined || local.written.get(name) === local.files.get(name)) return [[name, text]];
      const back = unfillFiles(new Map([[name, text]]), values).files.get(name)!;
      return fillFile(name, back, values) === text ? [[name, back]] : [];
    }),
  );
  if (toWrite.size > 0) writeRecordFiles(root, local.path, toWrite);
  return new Map([...filled].filter(([name]) => toWrite.has(name)));
}

function saysNoMoreThan(mine: string, theirs: string): boolean {
  try {
    const a: unknown = JSON.parse(mine);
    const b: unknown = JSON.parse(theirs);
    return isJsonObject(a) && isJsonObject(b) && Object.entries(a).every(([key, value]) => Object.hasOwn(b, key) && isDeepStrictEqual(value, b[key]));
  } catch {
    return false;
  }
}

/**
 * A failure while a record was being written, after a write was sent (a 5xx, a lost connection,
 * a refusal of a later write): the account may hold part of it, which the next push sees to.
 */
export function stoppedMidRecord(error: unknown, local: RecordFiles): unknown {
  if (!(error instanceof LoopsctlError) || error instanceof InterruptedError) return error;
  return withDetails(error, {
    message: error.message.startsWith(`${local.path}: `) ? error.message : `${local.path}: ${error.message}`,
    hint: `${error.hint === undefined ? '' : `${error.hint}; `}the next \`loopsctl content push\` checks what this one wrote of it`,
  });
}

/** A 409 on a message update: the account moved on since the read, or a campaign is no longer a draft. */
export function staleRevision(error: unknown, local: RecordFiles): unknown {
  if (error instanceof RejectedError && error.status === 409) {
    return new RejectedError(`${local.path}: ${error.message}`, {
      status: error.status,
      code: error.code,
      cause: error,
      hint: `${local.kind === 'campaigns' ? 'a campaign can be edited only while it is a draft; otherwise ' : ''}the record changed in the account while it was being pushed: run \`loopsctl content diff\` to see what moved`,
    });
  }
  return error;
}
