/**
 * `workflow test`: the account's workflow, or a pulled workflow file (offline), run on one contact
 * in a throwaway sandbox of this process, its clock moved through every wait; the journey and the
 * emails, in order, with their times after entry, and a check of them against the subjects expected.
 */

import { everyItem } from '../../api/client.js';
import { checkId } from '../../api/ids.js';
import { DURATION_UNITS, readDuration } from '../../base/duration.js';
import { isEmailAddress } from '../../base/email.js';
import { AuthError, UsageError } from '../../base/errors.js';
import { ExitCode } from '../../base/exit-codes.js';
import { jsonFault } from '../../base/parse-faults.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { parseAssignments } from '../../core/typed-values.js';
import { runWorkflowTrial, type TrialResult, type WorkflowTrial } from '../../emulator/index.js';
import { PROPERTY_NAME, RESERVED_PROPERTY_NAMES, TEXT_FIELDS } from '../../platform/contact-properties/typing.js';
import { checkAudienceFilterFrom } from '../../platform/segments/filter.js';
import type { AudienceSegment } from '../../platform/segments/schemas.js';
import type { WorkflowFile } from '../../platform/workflows/file.js';
import type { Workflow } from '../../platform/workflows/schemas.js';
import { renderJourneys, timeSinceStart } from '../sandbox/render.js';
import { getSegment, segments } from '../segments/client.js';
import * as api from './client.js';

interface TestOptions {
  file?: string;
  contact: string;
  contactProp?: string[];
  event?: string;
  prop?: string[];
  for?: string;
  expectEmails?: string;
}

/** The contact: an email alone, or a JSON object with its email. */
function contactOf(given: string): WorkflowTrial['contact'] {
  if (!given.trim().startsWith('{')) return { email: given.trim() };
  let contact: unknown;
  try {
    contact = JSON.parse(given);
  } catch {
    throw new UsageError(`--contact is neither an email nor JSON: ${jsonFault(given)}`);
  }
  if (typeof contact !== 'object' || contact === null || Array.isArray(contact)) throw new UsageError('--contact must be an email or a JSON object');
  const { email } = contact as { email?: unknown };
  if (typeof email !== 'string' || email === '') throw new UsageError('--contact needs an "email"');
  return contact as WorkflowTrial['contact'];
}

/** What the API would refuse in a contact's field, or undefined. */
function fieldProblem(name: string, value: unknown): string | undefined {
  if (TEXT_FIELDS.has(name)) return typeof value === 'string' || value === null ? undefined : 'must be text, or null';
  if (name === 'subscribed') return typeof value === 'boolean' ? undefined : 'must be true or false';
  if (name === 'mailingLists') return "is not given: the trial puts the contact on the workflow's mailing list itself";
  if (!PROPERTY_NAME.test(name)) return 'is not a name a contact property can have: it is camelCase, such as planName';
  if (RESERVED_PROPERTY_NAMES.has(name)) return 'is a name the platform keeps for itself';
  return typeof value === 'object' && value !== null ? 'must be a string, a number, true, false or null' : undefined;
}

/**
 * The contact checked as the API would take it, before the trial makes it: a field the sandbox would
 * refuse is the person's input, said as such (exit 2), never a failure of the trial itself.
 */
function checkTrialContact(contact: Record<string, unknown>): void {
  if (typeof contact.email !== 'string' || !isEmailAddress(contact.email)) throw new UsageError('--contact: the email is not an email address');
  for (const [name, value] of Object.entries(contact)) {
    const problem = name === 'email' ? undefined : fieldProblem(name, value);
    if (problem !== undefined) throw new UsageError(`the contact's ${JSON.stringify(name)} ${problem}`, { hint: 'set it with --contact or --contact-prop' });
  }
}

/** How far one trial may run: a year, as far as a workflow's timers reach. */
const MAX_TRIAL_MS = 365 * 86_400_000;

/** A duration such as 3d, 1h30m or 1y, at most a year: the grammar `sandbox clock advance` reads. */
function durationMs(text: string): number {
  const read = readDuration(text, MAX_TRIAL_MS);
  if ('ms' in read) return read.ms;
  if (read.problem === 'malformed' || read.problem === 'negative')
    throw new UsageError(`--for must be a duration such as 3d, 1h30m or 1y (units: ${DURATION_UNITS}), not "${text}"`);
  throw new UsageError(`--for must be longer than zero and at most a year, not "${text}"`);
}

/** The workflow with every node in full, and the segments its filters name, from the account. */
async function accountWorkflow(context: Uses<'client'>, id: string): Promise<Pick<WorkflowTrial, 'workflow' | 'segments'>> {
  const client = await context.client();
  const summary = await api.getWorkflow(client, id);
  const nodes = [];
  for (const nodeId of Object.keys(summary.nodes ?? {})) nodes.push(await api.getWorkflowNode(client, id, nodeId));
  const segmentIds = [
    ...new Set(nodes.flatMap((node) => (typeof node.audienceSegmentId === 'string' && node.audienceSegmentId !== '' ? [node.audienceSegmentId] : []))),
  ];
  const segments = [];
  for (const segmentId of segmentIds) segments.push(await getSegment(client, segmentId));
  return { workflow: trialWorkflow({ ...summary, id }, nodes), segments };
}

/**
 * The workflow a pulled file describes, read with no key and no request: each node's key for its
 * id, and its email named by the file it is kept in. A segment's conditions live in the account,
 * not the file: a filter by segment is run with the account's segment, its id read by its name when
 * a key is at hand, and refused, naming the node, when none is.
 */
async function localWorkflow(context: Uses<'client'>, path: string): Promise<Pick<WorkflowTrial, 'workflow' | 'segments'>> {
  const local = await import('./local.js');
  const read = local.readLocalFile(path);
  const byName = await accountSegments(context, path, read.file);
  const workflow = local.localWorkflow(read, {
    segmentId: (name) => byName.get(name)?.id,
    // A send-email node's message is named by its key in the throwaway sandbox.
    email: local.emailFieldsIn(read.directory, (key) => ({ emailMessageId: key })),
  });
  const nodes = Object.entries(workflow.nodes ?? {}).map(([key, node]) => {
    // A filter the platform could not take is named here, not run as one that lets no one on.
    if (typeof node.audienceFilter === 'object' && node.audienceFilter !== null)
      checkAudienceFilterFrom(`${path}: node ${key}: audienceFilter`, node.audienceFilter);
    return { ...node, id: key };
  });
  return { workflow: trialWorkflow({ ...workflow, workflowRevisionId: null }, nodes as WorkflowTrial['workflow']['nodes']), segments: [...byName.values()] };
}

/** The account's segments the file's filters name (by name), read only when it names some; none without a key is refused. */
async function accountSegments(context: Uses<'client'>, path: string, file: WorkflowFile): Promise<Map<string, AudienceSegment>> {
  const named = Object.entries(file.nodes).flatMap(([key, node]) =>
    typeof node.segment === 'string' && node.segment !== '' ? [[key, node.segment] as const] : [],
  );
  if (named.length === 0) return new Map();
  const [firstKey, firstName] = named[0]!;
  let client: Awaited<ReturnType<Uses<'client'>['client']>>;
  try {
    client = await context.client();
  } catch (error) {
    if (!(error instanceof AuthError) || error.code !== 'no_key') throw error;
    throw new UsageError(
      `${path}: node ${firstKey} filters by the segment "${firstName}", whose conditions are the account's, not the file's, and no key is at hand to read them`,
      {
        hint: "give a key (--sandbox, LOOPS_API_KEY or a profile) to read the account's segments, or write the node's condition as its audienceFilter",
      },
    );
  }
  const all = await everyItem(client, segments);
  const found = new Map<string, AudienceSegment>();
  for (const [key, name] of named) {
    const segment = all.find((candidate) => candidate.name === name);
    if (segment === undefined)
      throw new UsageError(`${path}: node ${key} filters by the segment "${name}", which the account does not have`, {
        hint: "see the account's segments with `loopsctl segments list`",
      });
    found.set(name, segment);
  }
  return found;
}

/** A workflow as the throwaway sandbox stores it, from the account's view of one (or a file's) and its nodes in full. */
function trialWorkflow(summary: Workflow, nodes: WorkflowTrial['workflow']['nodes']): WorkflowTrial['workflow'] {
  const now = new Date(0).toISOString();
  return {
    id: summary.id,
    workflowRevisionId: summary.workflowRevisionId ?? null,
    status: summary.status ?? 'Draft',
    name: summary.name ?? summary.id,
    description: summary.description ?? '',
    emoji: summary.emoji ?? '',
    mailingListId: summary.mailingListId ?? null,
    rootNodeId: summary.rootNodeId ?? nodes[0]?.id ?? null,
    createdAt: now,
    updatedAt: now,
    nodes,
  };
}

async function print(context: Uses<'out'>, result: TrialResult): Promise<void> {
  const { out } = context;
  if (out.json) return out.writeJson(result);
  if (result.notStarted !== undefined) return out.note(`Nothing started: ${result.notStarted}.`);
  await out.write(renderJourneys(out, result.journeys));
  if (result.emails.length === 0) out.note('No email was sent.');
  else await out.write(`\nEmails, in order:\n${result.emails.map((email) => `  ${timeSinceStart(email.afterMs).padEnd(8)} ${email.subject}`).join('\n')}\n`);
  if (!result.ended) out.note('Some journeys were still waiting when the run stopped (see --for).');
}

export const test: Handler<[string | undefined], TestOptions> = handler(['out', 'client', 'files'], async (context, [id], options) => {
  if ((id === undefined) === (options.file === undefined))
    throw new UsageError(id === undefined ? 'name a workflow: its id, or --file' : 'give a workflow id or --file, not both');
  const contact = { ...contactOf(options.contact), ...parseAssignments('--contact-prop', options.contactProp, 'scalar') };
  checkTrialContact(contact);
  if (options.prop !== undefined && options.event === undefined) throw new UsageError('--prop needs --event');
  const event = options.event === undefined ? undefined : { name: options.event, properties: parseAssignments('--prop', options.prop, 'scalar') };
  const forMs = options.for === undefined ? undefined : durationMs(options.for);
  // Every argument is checked before the workflow is read.
  const expected = options.expectEmails === undefined ? undefined : expectedSubjects(options.expectEmails);
  const graph = options.file === undefined ? await accountWorkflow(context, checkId(id, 'workflow id')) : await localWorkflow(context, options.file);
  const result = await runWorkflowTrial({ ...graph, contact, event, forMs });
  await print(context, result);
  if (expected === undefined) return undefined;
  const got = result.emails.map((email) => email.subject);
  // A contact the workflow never let in is what an expectation of emails exists to catch, whatever it expected.
  if (JSON.stringify(expected) === JSON.stringify(got) && result.notStarted === undefined) return undefined;
  context.out.note('The emails differ from --expect-emails:');
  context.out.note(`  expected: ${expected.join(' | ') || '(none)'}`);
  context.out.note(`  got:      ${got.join(' | ') || '(none)'}`);
  return ExitCode.mismatch;
});

/** The subjects of --expect-emails: comma-separated, or a JSON array of strings for subjects that hold a comma. */
function expectedSubjects(value: string): string[] {
  if (!value.trimStart().startsWith('[')) {
    return value
      .split(',')
      .map((subject) => subject.trim())
      .filter((subject) => subject !== '');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new UsageError(`--expect-emails: not a JSON array: ${jsonFault(value)}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((subject) => typeof subject === 'string'))
    throw new UsageError('--expect-emails: a JSON array must hold only subjects (strings)', { hint: '--expect-emails \'["Welcome aboard, Sam", "Day 2"]\'' });
  return parsed;
}
