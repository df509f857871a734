/** What `content push` decides before it sends anything: the LMX check, each record's step, the plan. */

import { join } from 'node:path';
import type { ApiClient } from '../../../api/client.js';
import { settled } from '../../../api/concurrency.js';
import { MismatchError } from '../../../base/errors.js';
import type { Uses } from '../../../core/capabilities.js';
import { explained } from '../../../core/explain.js';
import { countOf } from '../../../render/numbers.js';
import { checkRecord, checkSource } from '../shared/check.js';
import { treeComponents } from '../shared/check-paths.js';
import { REFERENCE_FILES, type SyncedRecord } from '../shared/files.js';
import { LMX_KIND_OF } from '../shared/lmx-files.js';
import { accountFiles, type LmxNames, lackingWords } from '../shared/lmx-names.js';
import type { RecordFiles } from '../shared/record-files.js';
import { patchOnTerminal, recordDiff, renderChecks } from '../shared/render.js';
import { CONTENT } from '../shared/scope.js';
import { type Standing, standingOf } from '../shared/standing.js';
import { noteNoSubject } from '../shared/subject.js';
import { fetchRecord, type RemoteRecord, readEmailsAhead, transactionalGroupIds } from './remote.js';
import { describe, fetchAll, type Pair, pairRecords, pathOf } from './sides.js';

export interface Step {
  pair: Pair;
  standing: Standing;
  /** What the push does with it. */
  action: 'update' | 'create' | 'skip';
  why?: string;
  /** A skip the person has to settle: the push and its plan exit 5 for it. */
  held?: 'conflict' | 'not editable' | 'unresolved';
}

/**
 * The records a push would send, looked at first: an email with no subject is said (the platform
 * sends it so), and, unless --no-check, their LMX is checked: nothing is sent while one has
 * errors; warnings are listed.
 */
export async function checkBeforePush(
  context: Uses<'out'>,
  shown: string,
  root: string,
  records: RecordFiles[],
  options: { plan?: boolean; check: boolean },
): Promise<void> {
  noteNoSubject(context, records);
  if (!options.check) return;
  const plan = options.plan === true;
  const components = treeComponents(root);
  const checks = records.flatMap((record) =>
    [...record.files]
      .filter(([name]) => name.endsWith('.lmx') && !REFERENCE_FILES.has(name))
      .map(([name, source]) => checkSource(join(shown, record.path, name), source, LMX_KIND_OF[record.kind], components)),
  );
  const failing = checks.filter((file) => file.errors.length > 0);
  const { out } = context;
  if (failing.length === 0) {
    const warned = checks.filter((file) => file.warnings.length > 0);
    if (warned.length > 0)
      out.note(
        `LMX warnings in ${countOf(warned.length, 'file')}, ${plan ? 'which a push sends' : 'sent'} anyway: ${warned.map((file) => file.file).join(', ')} (see \`loopsctl content check\`).`,
      );
    return;
  }
  if (out.json) await out.writeJson(failing.map(checkRecord));
  else
    await out.write(
      renderChecks(
        out,
        failing.map((file) => ({ ...file, warnings: [] })),
      ),
    );
  const errors = failing.reduce((sum, file) => sum + file.errors.length, 0);
  throw new MismatchError(`${countOf(errors, 'LMX error')} in ${countOf(failing.length, 'file')}; nothing was sent`, {
    hint: 'the API refuses LMX that does not compile: fix the files (`loopsctl content check` shows every problem) and push again',
  });
}

/** The account's side of each changed record: by its known id, else by name among its kind. */
export async function pairCandidates(client: ApiClient, candidates: RecordFiles[], synced: Record<string, SyncedRecord>): Promise<Pair[]> {
  const known = candidates.filter((local) => synced[local.path] !== undefined);
  const emails = known.filter((local) => local.kind === 'transactional').length;
  await explained(readEmailsAhead(client, emails), CONTENT);
  // The account's transactional groups, listed once for all the emails read by id.
  const groups = emails > 0 ? transactionalGroupIds(client) : undefined;
  const byId = await settled(known, (local) => explained(fetchRecord(client, local.kind, synced[local.path]!.id, groups), CONTENT));
  const unknownKinds = [...new Set(candidates.filter((local) => synced[local.path] === undefined).map((local) => local.kind))];
  const listed = await fetchAll(client, unknownKinds);
  const remotes = [...byId.filter((remote): remote is RemoteRecord => remote !== undefined), ...listed];
  // Only the candidates: the account's other records are not this push's business.
  return pairRecords(candidates, remotes, synced).filter((pair) => pair.local !== undefined);
}

/**
 * A folder that ends in the id of another the state knows, and was not taken for a rename of it
 * (that folder is still here, or several new ones claim it): what to say of it, since a copy is
 * created, or matched by name, as a record of its own.
 */
export function lookalikeNote(path: string, was: string, here: ReadonlySet<string>): string {
  return here.has(was)
    ? `${path} ends in the id of ${was}, which is still here: it is not taken for that record but pushed as a record of its own; to rename ${was}, remove the old folder`
    : `${path} ends in the id of ${was}, as another new folder does: neither is taken for that record; rename all but one back to ${was}, or name the copies without that id`;
}

/**
 * A step that would send LMX naming a component or theme of the tree that `account` lacks and the
 * push does not make: skipped instead, naming the file and the record, since no id can stand for it.
 */
export function unresolvedStep(step: Step, names: LmxNames, account: string): Step | undefined {
  if (step.action === 'skip') return undefined;
  const { missing } = accountFiles(step.pair.local!.files, names);
  if (missing.length === 0) return undefined;
  return { ...step, action: 'skip', held: 'unresolved', why: lackingWords(missing, account) };
}

/** Why a campaign the account lacks is left out of a push, and its plan. */
export const CAMPAIGN_NOT_CREATED = 'campaigns are made in the app of each account; not created';

/** A record's step; `named` when --only named its directory, to be put back from the files if the account lost or changed it. */
export function stepFor(pair: Pair, force: boolean, interrupted: boolean, named = false): Step {
  const standing = standingOf(pair);
  // Not sent at all, --force or not: the API would refuse it, and the records after it still go.
  if (pair.remote?.locked !== undefined && (standing === 'local' || standing === 'conflict'))
    return { pair, standing, action: 'skip', why: pair.remote.locked, held: 'not editable' };
  switch (standing) {
    case 'local':
      return { pair, standing, action: 'update' };
    case 'missing':
      // A campaign is a send to one account's audience, made in its app: never created, so the plan never says it would be.
      if (pair.local?.kind === 'campaigns') return { pair, standing, action: 'skip', why: CAMPAIGN_NOT_CREATED };
      return {
        pair,
        standing,
        action: 'create',
        why: pair.synced === undefined ? 'not in the account yet' : `deleted in the account since the last pull (${pair.synced.id}): created anew`,
      };
    case 'remote':
      if (!named) return { pair, standing, action: 'skip', why: 'changed in the account only; pull to update the files' };
      // Named to be put back: the account's change is overwritten only with --force, as any change of the account's is.
      if (force) return { pair, standing, action: 'update', why: "put back as the files have it, over the account's change (--force)" };
      return {
        pair,
        standing,
        action: 'skip',
        held: 'conflict',
        why: "changed in the account since the last pull: push it with --force to put the files' version back, or pull to keep the account's",
      };
    case 'conflict':
      if (force) return { pair, standing, action: 'update', why: 'taking the local side (--force)' };
      return {
        pair,
        standing,
        action: 'skip',
        held: 'conflict',
        why:
          pair.synced === undefined && interrupted
            ? 'an earlier push from here began to create it and stopped half-way: push with --force to finish it'
            : pair.synced === undefined
              ? "the account has a record of this name that these files were never pulled from: pull with --force to take the account's side (keep your changes aside first), or push with --force to replace it"
              : 'changed in the account since the last pull: pull with --force into a clean checkout and merge, or push with --force to take the local side',
      };
    case 'ambiguous':
      return {
        pair,
        standing,
        action: 'skip',
        held: 'conflict',
        why: 'several records in the account have this name: rename them in the app so that one matches',
      };
    default:
      return { pair, standing, action: 'skip' };
  }
}

/** The plan printed, unless --json: then its document is returned, which the caller prints with the workflows' and the audience's. */
export async function reportPlan(context: Uses<'out'>, account: string, steps: Step[]): Promise<Record<string, unknown>> {
  const { out } = context;
  const planned = steps.filter((step) => step.standing !== 'same');
  const json = {
    account,
    plan: planned.map((step) => ({
      ...describe(step.pair),
      action: step.action,
      standing: step.standing,
      why: step.why,
      patch: recordDiff(step.pair.remote?.files, step.pair.local?.files, pathOf(step.pair)),
    })),
  };
  if (out.json) return json;
  const verbs = { update: 'would update', create: 'would create', skip: 'would skip' } as const;
  const text = planned
    .map(
      (step) =>
        `# ${pathOf(step.pair)}: ${verbs[step.action]}${step.why === undefined ? '' : ` (${step.why})`}\n${step.action === 'skip' ? '' : patchOnTerminal(out, recordDiff(step.pair.remote?.files, step.pair.local?.files, pathOf(step.pair)))}`,
    )
    .join('\n');
  if (text !== '') await out.write(text);
  out.note(
    `Plan for ${account}: ${planned.filter((step) => step.action !== 'skip').length} to send, ${planned.filter((step) => step.action === 'skip').length} skipped; nothing was sent.`,
  );
  return json;
}
