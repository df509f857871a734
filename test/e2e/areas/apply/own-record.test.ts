/**
 * A plan's unit writes only its own record, at the path the transport sends, and a unit that lacks
 * what its kind needs is refused as none loopsctl wrote (exit 2), never a fault of loopsctl's
 * (exit 70): against a sandbox that records every request, each forged plan (its digest written
 * anew, as anyone can) is refused with nothing sent.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PlanFile, planDigest } from '../../../../src/areas/change/plan-file.js';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { startMcp } from '../../../support/mcp.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const BILLING = seedId('transactional-group/Billing');
const WIN_BACK_DRAFT = seedId('workflow/Win-back (draft)');
const PAYMENT_FAILED = seedId('transactional/Payment failed');
const NOVEMBER = seedId('campaign/November newsletter');
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

/** The plan loopsctl wrote in `plan`, with `change` made to it and its digest written anew. */
function rewrite(plan: string, change: (plan: PlanFile) => void): void {
  const { digest: _digest, ...body } = JSON.parse(readFileSync(plan, 'utf8')) as PlanFile;
  change(body as PlanFile);
  writeFileSync(plan, JSON.stringify({ ...body, digest: planDigest(body as PlanFile) }));
}

async function planned(sandbox: RecordingSandbox, args: string[]): Promise<string> {
  const plan = join(tempDir('loopsctl-own-'), 'change.json');
  const made = await sandbox.loopsctl([...args, '--plan', '--out', plan]);
  expect(made.code, made.stderr).toBe(0);
  return plan;
}

async function applied(sandbox: RecordingSandbox, plan: string, ...more: string[]) {
  sandbox.requests.length = 0;
  return sandbox.loopsctl(['apply', plan, ...more]);
}

describe("a plan call written as an edit of a draft's node", () => {
  it('is refused when its path would be sent as a contact delete, and nothing is sent, on every road', async () => {
    const sandbox = await sandboxes();
    // ada@example.com is a contact of the sandbox's seed.
    expect((await sandbox.loopsctl(['contacts', 'find', '--email', 'ada@example.com', '--json'])).json<unknown[]>()).toHaveLength(1);
    const climbing = 'y\\..\\..\\..\\..\\contacts\\delete';
    const plan = await planned(sandbox, ['groups', 'update', BILLING, '--description', 'Receipts']);
    rewrite(plan, (body) => {
      body.units = [
        {
          record: `workflow node ${WIN_BACK_DRAFT}/${climbing}`,
          kind: 'workflow',
          id: WIN_BACK_DRAFT,
          recordPath: `/v1/workflows/${WIN_BACK_DRAFT}`,
          calls: [
            {
              op: 'request',
              operation: 'updateWorkflowNode',
              method: 'POST',
              path: `/v1/workflows/${WIN_BACK_DRAFT}/nodes/${climbing}`,
              body: { expectedRevisionId: 'r', email: 'ada@example.com' },
            },
          ],
        },
      ];
    });
    for (const live of [[], ['--live']]) {
      const apply = await applied(sandbox, plan, ...live);
      expect(apply.code, apply.stderr).toBe(2);
      expect(apply.stderr).toContain(`is not sent as written: it holds a \\, which is sent as /`);
      expect(writes(sandbox.requests)).toEqual([]);
    }
    // `loopsctl api`, as a person or an agent would send it by hand.
    sandbox.requests.length = 0;
    const api = await sandbox.loopsctl(['api', '-X', 'POST', `/v1/workflows/${WIN_BACK_DRAFT}/nodes/${climbing}`, '-f', 'email=ada@example.com']);
    expect(api.code, api.stderr).toBe(2);
    expect(api.stderr).toContain('is not sent as written');
    expect(sandbox.requests).toEqual([]);
    // An agent's: `run_command` of `api`, and of `apply` of the plan, on a server that may do everything.
    const mcp = await startMcp(['--allow-destructive', '--tools', 'meta', '--root', dirname(plan)], { env: sandbox.env });
    try {
      const runCommand = async (command: string, args: Record<string, unknown>) =>
        ((await mcp.client.callTool({ name: 'run_command', arguments: { command, arguments: args } })) as { structuredContent: any }).structuredContent;
      sandbox.requests.length = 0;
      const viaApi = await runCommand('api', { path: `/v1/workflows/${WIN_BACK_DRAFT}/nodes/${climbing}`, method: 'POST', field: ['email=ada@example.com'] });
      expect(viaApi.error).toMatchObject({ exitCode: 2, message: expect.stringContaining('is not sent as written') });
      const viaApply = await runCommand('apply', { plan: 'change.json', live: true });
      expect(viaApply.error).toMatchObject({ exitCode: 2, message: expect.stringContaining('is not sent as written') });
      expect(writes(sandbox.requests)).toEqual([]);
    } finally {
      await mcp.close();
    }
    const found = await sandbox.loopsctl(['contacts', 'find', '--email', 'ada@example.com', '--json']);
    expect(found.json<unknown[]>()).toHaveLength(1);
  });
});

describe('a plan call whose body asks for a dry run', () => {
  it('is refused, nothing sent: a forged `dryRun` never carries a publish past the gate', async () => {
    const sandbox = await sandboxes();
    const plan = await planned(sandbox, ['transactional', 'publish', PAYMENT_FAILED]);
    rewrite(plan, (body) => {
      body.units[0]!.calls[0]!.body = { dryRun: true };
    });
    const apply = await applied(sandbox, plan);
    expect(apply.code, apply.stderr).toBe(2);
    expect(apply.stderr).toContain('publishTransactionalEmail asks for a dry run, which no plan holds');
    expect(writes(sandbox.requests)).toEqual([]);
  });
});

describe("a content push's unit of one email", () => {
  it("is refused when it writes another record's email message (a campaign's, in the unit of a transactional email)", async () => {
    const sandbox = await sandboxes();
    const campaign = (await sandbox.loopsctl(['campaigns', 'get', NOVEMBER, '--json'])).json<{ emailMessageId: string }>();
    const message = (await sandbox.loopsctl(['email-messages', 'get', campaign.emailMessageId, '--json'])).json<{
      contentRevisionId: string;
      subject: string;
    }>();
    const plan = await planned(sandbox, ['groups', 'update', BILLING, '--description', 'Receipts']);
    rewrite(plan, (body) => {
      body.units = [
        {
          record: `transactional/payment-failed--${PAYMENT_FAILED}`,
          kind: 'transactional email',
          id: PAYMENT_FAILED,
          calls: [
            { op: 'updateEmailMessage', messageId: campaign.emailMessageId, expectedRevisionId: message.contentRevisionId, body: { subject: 'Hijacked' } },
          ],
        },
      ];
    });
    const apply = await applied(sandbox, plan);
    expect(apply.code, apply.stderr).toBe(2);
    expect(apply.stderr).toContain(
      `updateEmailMessage of ${campaign.emailMessageId}, which is not the email message of transactional/payment-failed--${PAYMENT_FAILED} (${PAYMENT_FAILED}) in the account`,
    );
    expect(writes(sandbox.requests)).toEqual([]);
    expect((await sandbox.loopsctl(['email-messages', 'get', campaign.emailMessageId, '--json'])).json<{ subject: string }>().subject).toBe(message.subject);
  });
});

describe('a unit missing a field its kind needs', () => {
  /** Each field of the plan's units and of their calls, left out one at a time. */
  function* withoutEachField(plan: PlanFile): Generator<[string, (body: PlanFile) => void]> {
    for (const [index, unit] of plan.units.entries()) {
      for (const field of Object.keys(unit)) yield [`units.${index}.${field}`, (body) => delete (body.units[index] as Record<string, unknown>)[field]];
      for (const [at, call] of unit.calls.entries())
        for (const field of Object.keys(call))
          yield [`units.${index}.calls.${at}.${field}`, (body) => delete (body.units[index]!.calls[at] as Record<string, unknown>)[field]];
    }
  }

  it('is refused with exit 2 and nothing sent, never exit 70, whatever field it lacks', async () => {
    const sandbox = await sandboxes();
    const plans = [
      await planned(sandbox, ['groups', 'update', BILLING, '--description', 'Receipts']),
      await planned(sandbox, ['transactional', 'publish', PAYMENT_FAILED]),
      await planned(sandbox, ['campaigns', 'update', NOVEMBER, '--name', 'Renamed']),
    ];
    for (const plan of plans) {
      const written = readFileSync(plan, 'utf8');
      for (const [field, drop] of withoutEachField(JSON.parse(written) as PlanFile)) {
        writeFileSync(plan, written);
        rewrite(plan, drop);
        const apply = await applied(sandbox, plan, '--live');
        expect(apply.code, `${field}: ${apply.stderr}`).toBe(2);
        expect(apply.stderr, field).toMatch(/holds what no plan of loopsctl holds|is not a plan loopsctl wrote|its digest does not match/);
        expect(writes(sandbox.requests), field).toEqual([]);
      }
    }
  });
});
