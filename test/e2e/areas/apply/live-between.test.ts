/**
 * The write gate's reads that an apply of many writes keeps, and what each takes the place of
 * (src/core/gate.ts, "What can email people now" in docs/changes.md): the round before the first
 * write takes the state from what the run has just read (the account check's read of each
 * workflow, the emails' list), a workflow's second node write is judged by the first one's
 * answer, and an email's draft by the page of the emails' list read within the 20 requests before
 * it. A record that turns live in between is still judged live at its own write, from the read
 * just before it or from the answer of the write just before it: refused without a yes, and
 * nothing of it sent; a draft published within the page's 20 requests is refused by the platform.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PlanFile, planDigest } from '../../../../src/areas/change/plan-file.js';
import type { StateCore } from '../../../../src/emulator/module.js';
import { findMessage } from '../../../../src/emulator/routes/email-message-records.js';
import { transactionalEmails } from '../../../../src/emulator/routes/transactional.js';
import { workflows } from '../../../../src/emulator/routes/workflow-records.js';
import { plannedChange } from '../../../support/change-plan.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, recordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const sandboxes = sandboxEachTest();

interface PlannedUnit {
  kind: string;
  record: string;
  id: string;
  calls: { op: string; messageId?: string }[];
}

/**
 * The change's plan (50 emails' drafts, then two waits of each of 10 workflows), its units, and the
 * sandbox's state it was planned against: made once for the file. Each test applies the plan to a
 * sandbox of its own holding a copy of that state, as the account stood when the plan was made.
 */
let change: { state: StateCore; plan: string; units: PlannedUnit[] };
beforeAll(async () => {
  const sandbox = await recordingSandbox();
  try {
    const plan = await plannedChange(sandbox.server, sandbox.env.LOOPS_API_KEY, (args) => sandbox.loopsctl(args), tempDir('loopsctl-between-'));
    change = { state: structuredClone(sandbox.server.state()), plan, units: JSON.parse(readFileSync(plan, 'utf8')).units };
  } finally {
    await sandbox.close();
  }
});

/**
 * A sandbox of the test's own, holding the account as the plan found it, and the plan addressed to
 * it: the same account at another address, which a plan names (its digest written again, as the
 * plan's writer writes it).
 */
async function planned(): Promise<{ sandbox: RecordingSandbox; plan: string; units: PlannedUnit[] }> {
  const sandbox = await sandboxes();
  sandbox.server.update((state) => {
    for (const key of Object.keys(state)) delete (state as Record<string, unknown>)[key];
    Object.assign(state, structuredClone(change.state));
  });
  const { digest: _digest, ...body } = JSON.parse(readFileSync(change.plan, 'utf8')) as PlanFile;
  const addressed = { ...body, account: { ...body.account, baseUrl: sandbox.env.LOOPS_BASE_URL } };
  const plan = join(tempDir('loopsctl-between-'), 'change.json');
  writeFileSync(plan, JSON.stringify({ ...addressed, digest: planDigest(addressed) }));
  return { sandbox, plan, units: change.units };
}

/** Runs `change` (on the sandbox's state) once the sandbox has recorded its answer to the request `at` picks: the answer keeps the state before. */
function changedAfter(
  sandbox: RecordingSandbox,
  at: (request: Recorded, earlier: Recorded[]) => boolean,
  change: Parameters<RecordingSandbox['server']['update']>[0],
): () => boolean {
  const recorded = sandbox.requests;
  const push = recorded.push.bind(recorded);
  let done = false;
  recorded.push = (...items: Recorded[]) => {
    if (!done && items.some((item) => at(item, recorded))) {
      done = true;
      sandbox.server.update(change);
    }
    return push(...items);
  };
  return () => done;
}

const startWorkflow = (id: string) => (state: Parameters<typeof workflows.of>[0]) => {
  workflows.of(state).find((workflow) => workflow.id === id)!.status = 'Sending';
};

const readOf = (request: Recorded, path: string) => request.method === 'GET' && request.path === path;
const writesTo = (requests: Recorded[], prefix: string) => requests.filter((request) => request.method !== 'GET' && request.path.startsWith(prefix));

describe("the gate's reads of an apply of 70 writes", () => {
  it("refuses a workflow started after the account check read it, at its own first write, though the round before took that read's answer", async () => {
    const { sandbox, plan, units } = await planned();
    const last = units.filter((unit) => unit.kind === 'workflow').at(-1)!;
    // Started in the moment after the account check's read of it, which answered Draft.
    const started = changedAfter(sandbox, (request) => readOf(request, `/v1/workflows/${last.id}`), startWorkflow(last.id));
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(started()).toBe(true);
    expect(apply.code, apply.stderr).toBe(11);
    expect(apply.stderr).toContain(`/v1/workflows/${last.id}/nodes/`);
    expect(apply.stderr).toContain("edits a workflow that is Sending: contacts move through it, which needs a person's yes; nothing more was sent");
    // Read again just before its first write, which was not sent; what came before it was (50 emails, 9 workflows).
    expect(sandbox.requests.filter((request) => readOf(request, `/v1/workflows/${last.id}`))).toHaveLength(2);
    expect(writesTo(sandbox.requests, `/v1/workflows/${last.id}/`)).toEqual([]);
    expect(writesTo(sandbox.requests, '/v1/')).toHaveLength(50 + 2 * 9);
  });

  it("refuses an email's draft made its published message after the emails' list was read, at the draft's own write", async () => {
    const { sandbox, plan, units } = await planned();
    const last = units.filter((unit) => unit.kind === 'transactional email').at(-1)!;
    const draft = last.calls.find((call) => call.op === 'updateEmailMessage')!.messageId!;
    // The draft becomes what every send uses once the list, the round's source for the email's record, was answered.
    const published = changedAfter(
      sandbox,
      (request) => readOf(request, '/v1/transactional-emails'),
      (state) => {
        transactionalEmails.of(state).find((email) => email.record.id === last.id)!.record.publishedEmailMessageId = draft;
      },
    );
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(published()).toBe(true);
    expect(apply.code, apply.stderr).toBe(11);
    expect(apply.stderr).toContain(`/v1/email-messages/${draft} edits an email message that is the published email of transactional email`);
    // Judged by the list's page read again within the 20 requests before the draft's write (core/gate.ts, PAGE_REQUESTS),
    // never by the email's own read; the write was not sent, and the 49 emails before it were.
    expect(sandbox.requests.filter((request) => readOf(request, '/v1/transactional-emails')).length).toBeGreaterThan(2);
    expect(sandbox.requests.filter((request) => readOf(request, `/v1/transactional-emails/${last.id}`))).toEqual([]);
    expect(writesTo(sandbox.requests, `/v1/email-messages/${draft}`)).toEqual([]);
    expect(writesTo(sandbox.requests, '/v1/')).toHaveLength(49);
  });

  it("leaves a draft published within the page's 20 requests to the platform, which refuses its write: nothing after it sent", async () => {
    const { sandbox, plan, units } = await planned();
    const first = units.find((unit) => unit.kind === 'transactional email')!;
    const draft = first.calls.find((call) => call.op === 'updateEmailMessage')!.messageId!;
    // Published once the account check's page was answered, a few requests before the draft's write, which the gate
    // judges by that page: the platform refuses the update ("The campaign or transactional email that owns this email
    // message must be in `Draft` status", the API's reference of `POST /v1/email-messages/{emailMessageId}`).
    const published = changedAfter(
      sandbox,
      (request) => readOf(request, '/v1/transactional-emails'),
      (state) => {
        // "The draft becomes the published version and the draft is cleared" (the API's reference of the publish): the
        // message itself, which the sandbox's own publish copies into a published message of its own.
        Object.assign(transactionalEmails.of(state).find((email) => email.record.id === first.id)!.record, {
          publishedEmailMessageId: draft,
          draftEmailMessageId: null,
        });
        findMessage(state, draft)!.parent.published = true;
      },
    );
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(published()).toBe(true);
    expect(apply.code, apply.stderr).toBe(5);
    expect(apply.stderr).toContain('Applied 0 records of 60 in ');
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent: pull, plan again and review.');
    // Stopped there as a record changed since the plan, in the kind's words and the platform's.
    const conflict = 'the transactional email changed in the account since the plan was made: Transactional email is not in draft status';
    expect(apply.stdout).toMatch(new RegExp(`conflict\\s+${first.record}\\s+${conflict}`));
    const writes = writesTo(sandbox.requests, '/v1/');
    expect(writes).toHaveLength(1);
    expect(writes[0]!.status).toBe(409);
  });

  it("refuses a workflow's second node write once the first one's answer says it was started, reading nothing between", async () => {
    const { sandbox, plan, units } = await planned();
    const first = units.find((unit) => unit.kind === 'workflow')!;
    const path = `/v1/workflows/${first.id}`;
    // Started once the gate's read just before its first node write answered Draft (the account check's read is the first):
    // the write goes, and its answer ("the latest simplified workflow") says Sending.
    const started = changedAfter(sandbox, (request, earlier) => readOf(request, path) && earlier.some((each) => readOf(each, path)), startWorkflow(first.id));
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(started()).toBe(true);
    expect(apply.code, apply.stderr).toBe(11);
    expect(apply.stderr).toContain("edits a workflow that is Sending: contacts move through it, which needs a person's yes; nothing more was sent");
    const nodeWrites = writesTo(sandbox.requests, `${path}/nodes/`);
    expect(nodeWrites).toHaveLength(1);
    expect((nodeWrites[0]!.answer as { workflow: { status: string } }).workflow.status).toBe('Sending');
    // The second write was judged by that answer: no read of the workflow after the first write.
    const afterFirst = sandbox.requests.slice(sandbox.requests.indexOf(nodeWrites[0]!) + 1);
    expect(afterFirst.filter((request) => readOf(request, path))).toEqual([]);
  });
});
