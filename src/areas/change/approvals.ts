/**
 * Changes an agent proposed that a person must approve: each a file of its own in `approvals/`
 * under the config directory (made for the user alone, 0700; its files 0600), holding what the
 * change does in words, the tool call that makes it, its expiry and a digest of all of it.
 * `loopsctl approve <id>`, run by a person on a terminal, writes the approval beside it: for that
 * digest only, and expiring with the proposal. The server applies a proposal once, and only with
 * an approval that matches it.
 *
 * The approval is not a signature: whoever can write in the directory can write one. It keeps the
 * model, which has no input that writes it, from approving its own change.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LocalFileError, ProtectedError } from '../../base/errors.js';
import { readJsonFile, UnusableFileError, writeJsonFile } from '../../base/json-file.js';
import { ensureDirectory, inKeptDirectory } from '../../base/private-dir.js';
import { sanitize } from '../../base/sanitize.js';
import { z } from '../../base/shapes.js';
import { anotherAccountsProposal } from './account.js';
import { canonicalJson, DEFAULT_EXPIRY_MS } from './plan-file.js';

export const APPROVALS_DIR = 'approvals';

/** What a proposal's id looks like: it names a file, so nothing else is ever read by it. */
const ID_SHAPE = /^p-[a-z0-9]{12}$/;

const proposalSchema = z.looseObject({
  format: z.literal(1),
  id: z.string().check(z.regex(ID_SHAPE)),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Who asked for it: the MCP client's name. */
  by: z.string(),
  /** The account it is for, in words (team, profile or the sandbox). */
  account: z.string(),
  /** The account it is for, as the server that proposed it reaches it (its team, profile, base URL): applied on that account alone. */
  binding: z.string(),
  /** What it does, a line each: what the person reads before approving. */
  words: z.array(z.string()),
  /**
   * What the person's yes is for, as the server makes it: the plan kept in the proposal's own
   * directory (`change.json`), by its digest (the calls, the account, the revisions and digests
   * they were judged on); or the calls the command makes, as the transport sends them (method,
   * target, the body's digest: src/core/bound-calls.ts). With either, `live`: the records that were
   * live when the person was asked (src/core/gate.ts, liveKey), which the yes covers and no other.
   * None for a new workflow proposed as a draft, which needs no yes.
   */
  bound: z.optional(
    z.union([
      z.looseObject({ plan: z.string(), live: z.optional(z.array(z.string())) }),
      z.looseObject({
        calls: z.array(z.looseObject({ method: z.string(), target: z.string(), body: z.optional(z.string()) })),
        live: z.optional(z.array(z.string())),
      }),
    ]),
  ),
  /** The tool call that makes the change, as the server runs it once approved. */
  call: z.looseObject({ tool: z.string(), input: z.record(z.string(), z.unknown()) }),
  digest: z.string(),
});
export type Proposal = z.infer<typeof proposalSchema>;

const approvalSchema = z.looseObject({
  id: z.string(),
  digest: z.string(),
  /** The account the person approved it for (the proposal's binding). */
  binding: z.string(),
  approvedAt: z.string(),
  expiresAt: z.string(),
  by: z.string(),
});
export type Approval = z.infer<typeof approvalSchema>;

/** The directory, made 0700 when missing; one that is a symbolic link is refused. */
export function approvalsDirectory(configDir: string): string {
  const dir = join(configDir, APPROVALS_DIR);
  inKeptDirectory(dir, () => ensureDirectory(dir));
  if (lstatSync(dir).isSymbolicLink())
    throw new LocalFileError(`${dir} is a symbolic link: approvals are kept only in a directory of loopsctl's own`, {
      hint: `move ${dir} aside (loopsctl makes it again)`,
    });
  return dir;
}

function digestOf(proposal: Omit<Proposal, 'digest'> | Proposal): string {
  const { digest: _digest, ...rest } = proposal as Proposal;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** A new proposal's id. */
export function newProposalId(): string {
  return `p-${[...randomBytes(12)].map((byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36]).join('')}`;
}

/** The directory of a proposal's own files (a workflow's pulled tree and its plan), made 0700. */
export function proposalDirectory(configDir: string, id: string): string {
  const dir = join(approvalsDirectory(configDir), checkedId(id));
  ensureDirectory(dir);
  return dir;
}

/**
 * The directories of proposals that can no longer be applied taken away: one whose proposal
 * expired, was applied, or is gone. A proposed workflow's pulled tree is the account's content,
 * kept no longer than its change may be made.
 */
export function sweepProposals(configDir: string, now: Date): void {
  const dir = approvalsDirectory(configDir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !ID_SHAPE.test(entry.name)) continue;
    let proposal: { expiresAt: string } | undefined;
    try {
      proposal = readJsonFile(join(dir, `${entry.name}.json`), z.looseObject({ expiresAt: z.string() }));
    } catch (error) {
      if (!(error instanceof UnusableFileError)) throw error;
    }
    if (proposal === undefined || now.getTime() >= Date.parse(proposal.expiresAt)) rmSync(join(dir, entry.name), { recursive: true, force: true });
  }
}

/** A new proposal, written to its file. */
export function propose(
  configDir: string,
  fields: Pick<Proposal, 'by' | 'account' | 'binding' | 'words' | 'call' | 'bound'>,
  now: Date,
  id = newProposalId(),
  expiresInMs = DEFAULT_EXPIRY_MS,
): Proposal {
  const body = { format: 1 as const, id, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + expiresInMs).toISOString(), ...fields };
  const proposal = { ...body, digest: digestOf(body) };
  writeJsonFile(join(approvalsDirectory(configDir), `${id}.json`), proposal);
  return proposal;
}

function checkedId(id: string): string {
  if (!ID_SHAPE.test(id)) throw new LocalFileError(`"${id}" is not the id of a proposed change`, { hint: 'give the id the tool answered with, as p-…' });
  return id;
}

function readChecked<S extends z.ZodMiniType>(file: string, schema: S, what: string): z.infer<S> | undefined {
  try {
    return readJsonFile(file, schema);
  } catch (error) {
    if (!(error instanceof UnusableFileError)) throw error;
    throw new LocalFileError(`${what} in ${file} cannot be used: ${error.message}`, { hint: 'propose the change again' });
  }
}

/** A proposal read and checked: its file, its digest, its expiry. */
export function readProposal(configDir: string, id: string, now: Date): Proposal {
  const file = join(approvalsDirectory(configDir), `${checkedId(id)}.json`);
  const proposal = readChecked(file, proposalSchema, 'the proposal');
  if (proposal === undefined) {
    const applied = readChecked(join(approvalsDirectory(configDir), `${id}.applied.json`), approvalSchema, 'the approval');
    if (applied !== undefined) throw new ProtectedError(`the change ${id} was applied already; nothing is sent twice`, { code: 'applied' });
    throw new LocalFileError(`no change ${id} is waiting for approval`, { hint: 'propose it again: the tool answers with its id' });
  }
  if (digestOf(proposal) !== proposal.digest)
    throw new LocalFileError(`the change ${id} was edited after it was proposed: its digest does not match what it holds`, {
      hint: 'propose it again, and approve the new one',
    });
  if (now.getTime() >= Date.parse(proposal.expiresAt))
    throw new LocalFileError(`the change ${id} expired at ${proposal.expiresAt}`, { code: 'expired', hint: 'propose it again, and approve the new one' });
  return proposal;
}

/**
 * A proposal is made on the account it was proposed for, and no other: a server on another account
 * (another key, profile, base URL, or the sandbox) that shares the config directory refuses it.
 */
export function checkBinding(proposal: Proposal, binding: string): void {
  if (proposal.binding === binding) return;
  throw anotherAccountsProposal(proposal.id, proposal.account);
}

/**
 * The question a person reads before a yes, line by line: who asks, the account, what the change
 * does. Built here alone (the client's question and `loopsctl approve`), from words made safe for a
 * terminal: no line break or bidirectional control of the model's inputs writes a line of its own.
 */
export function approvalQuestion(by: string, account: string, words: readonly string[]): string[] {
  return [`${sanitize(by)} asks to change ${sanitize(account)}:`, ...words.map((line) => `  ${sanitize(line)}`)];
}

/** The person's approval of exactly this proposal, to its expiry. */
export function recordApproval(configDir: string, proposal: Proposal, by: string, now: Date): Approval {
  const approval = { id: proposal.id, digest: proposal.digest, binding: proposal.binding, approvedAt: now.toISOString(), expiresAt: proposal.expiresAt, by };
  writeJsonFile(join(approvalsDirectory(configDir), `${proposal.id}.approved.json`), approval);
  return approval;
}

/**
 * The approval of the proposal, checked and used up: it must be for the proposal's digest and not
 * expired. It is taken (renamed aside) before the change is made, so that two applies at once, or
 * one after another, make it once.
 */
export function takeApproval(configDir: string, proposal: Proposal, now: Date, binding: string): Approval {
  const dir = approvalsDirectory(configDir);
  checkBinding(proposal, binding);
  const file = join(dir, `${proposal.id}.approved.json`);
  const approval = readChecked(file, approvalSchema, 'the approval');
  const ask = { hint: `a person approves it by running \`loopsctl approve ${proposal.id}\` in a terminal`, code: 'not_approved' };
  if (approval === undefined) throw new ProtectedError(`the change ${proposal.id} is waiting for a person's approval; nothing was sent`, ask);
  if (approval.id !== proposal.id || approval.digest !== proposal.digest || approval.binding !== proposal.binding)
    throw new ProtectedError(`the approval beside ${proposal.id} is for another change (another digest); nothing was sent`, ask);
  if (now.getTime() >= Date.parse(approval.expiresAt))
    throw new ProtectedError(`the approval of ${proposal.id} expired at ${approval.expiresAt}; nothing was sent`, { ...ask, code: 'expired' });
  try {
    renameSync(file, join(dir, `${proposal.id}.applied.json`));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new ProtectedError(`the change ${proposal.id} is being applied by another call; nothing is sent twice`, { code: 'applied' });
  }
  renameSync(join(dir, `${proposal.id}.json`), join(dir, `${proposal.id}.proposal-applied.json`));
  return approval;
}
