/**
 * The change cycle reads each record once a run (src/api/read-cache.ts): an apply of 50 emails (half
 * of them published) and 10 workflows (70 writes) counted by the requests the sandbox recorded, and the guards that read
 * the account just before their write still reading it there.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { themes } from '../../../../src/emulator/routes/themes.js';
import { changedTree, EMAILS, PLANNED_WRITES, PUBLISHED, PUSH_ARGS, plannedChange, WORKFLOWS } from '../../../support/change-plan.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, sandboxEachTest } from '../../../support/recording.js';
import { plannedThemeEdit } from '../../../support/theme-plan.js';

const sandboxes = sandboxEachTest();

/** Each request as `METHOD path`, an id shown as <id>, and how many times it was sent. */
function counted(requests: Recorded[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of requests) {
    const key = `${request.method} ${request.path.replace(/c[a-z0-9]{24}/g, '<id>')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The reads of one path and query (a page of a list) sent more than once. */
function readAgain(requests: Recorded[]): string[] {
  const reads = requests.filter((request) => request.method === 'GET').map((request) => `${request.path}?${request.query.toString()}`);
  return reads.filter((read, index) => reads.indexOf(read) !== index);
}

describe('the change cycle', () => {
  it('applies 70 writes reading each record once, before its write, and each list once, and undoes them so', async () => {
    const sandbox = await sandboxes();
    const plan = await plannedChange(
      sandbox.server,
      sandbox.env.LOOPS_API_KEY,
      (args) => sandbox.loopsctl(args),
      tempDir('loopsctl-reads-'),
      () => {
        sandbox.requests.length = 0;
      },
    );
    // The plan's sides, its impact and its review read each record and each page once; the emails' records from their list's two pages.
    expect(readAgain(sandbox.requests)).toEqual([]);
    expect(counted(sandbox.requests).get('GET /v1/transactional-emails')).toBe(2);
    // 368 before the run kept its reads, 198 before the emails came from their list; 149 with no email published, 174 with half
    // of them, whose published message the plan reads too (docs/performance-log.md, "The change cycle's reads").
    expect(sandbox.requests.length).toBeLessThanOrEqual(175);
    sandbox.requests.length = 0;
    const env = { LOOPSCTL_CONFIG_DIR: join(tempDir('loopsctl-reads-'), 'config') };
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain(`Applied ${EMAILS + WORKFLOWS} records of ${EMAILS + WORKFLOWS}`);
    const requests = sandbox.requests;
    const counts = counted(requests);
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(PLANNED_WRITES);
    // Each email's draft: written with the revision the plan read it at. What it held before (its before-image) is the
    // plan's, which a write the platform takes at that revision overwrote; where it was left is its write's answer. Neither it
    // nor a published message is read, and Guardian, which the platform runs on a draft when it is published, is not asked.
    expect(counts.get('GET /v1/email-messages/<id>')).toBeUndefined();
    expect(counts.get('GET /v1/email-messages/<id>/guardian')).toBeUndefined();
    // The emails' records: read from their list's pages (two pages are fewer reads than 50 records), never after a write: the
    // draft's revision, which undo compares, is the write's answer's. Whether each email's draft reaches people now, judged by
    // the gate from the page that holds its email, read again once 20 requests have gone since (core/gate.ts, PAGE_REQUESTS):
    // three times for the 50 drafts (more only where 20 requests took over 5 s, PAGE_FRESH_MS). The round before the first
    // write takes the pages the account check read.
    expect(counts.get('GET /v1/transactional-emails')).toBeGreaterThanOrEqual(2 + 3);
    expect(counts.get('GET /v1/transactional-emails/<id>')).toBeUndefined();
    // Each workflow: before (the account check, whose answer the gate's round before the first write takes); by the gate just
    // before its first write, whose answer ("the latest simplified workflow") judges the second, sent back to back. Where it
    // was left is its last write's answer.
    expect(counts.get('GET /v1/workflows/<id>')).toBe(2 * WORKFLOWS);
    expect(counts.get('GET /v1/transactional-groups')).toBe(1);
    // 575 before the run kept its reads, 306 before the after-images came from the writes' answers and the emails from their
    // list; 198 before the gate read each target's state at each write; 343 before the drafts' before-images came from the
    // plan; 268 before the gate took the run's fresh answers; 198 before it took an email from its list's page and Guardian
    // was left to the publish (docs/performance-log.md, "The change cycle's reads"). The goal: 1.5 requests a write.
    expect(requests.length - counts.get('GET /v1/transactional-emails')!).toBe(96);
    expect(requests.length).toBeLessThanOrEqual(1.5 * PLANNED_WRITES);
    requests.length = 0;
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    // Its undo: each record's inverse, its impact and its apply share one read of each record. An email's draft is read once, for
    // the difference its inverse writes (guarded by the revision the apply left it at), never its published message; the emails'
    // records from their list. 767 before an undo kept its reads, 318 before the gate took the run's fresh answers
    // (docs/performance-log.md, "The change cycle's reads").
    const undone = counted(requests);
    // Each workflow read for its inverse (the account check and the round before the first write take that read), and by the
    // gate just before its first write; the second is judged by the first one's answer.
    expect(undone.get('GET /v1/workflows/<id>')).toBe(2 * WORKFLOWS);
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(PLANNED_WRITES);
    expect(undone.get('GET /v1/email-messages/<id>')).toBe(EMAILS);
    expect(undone.get('GET /v1/transactional-emails')).toBeGreaterThanOrEqual(2 + 3);
    expect(undone.get('GET /v1/transactional-emails/<id>')).toBeUndefined();
    expect(undone.get('GET /v1/transactional-groups')).toBe(1);
    expect(requests.length).toBeLessThanOrEqual(201);
  });

  it("pushes the same change in one run, taking where each write left its email or workflow from the write's answer", async () => {
    const sandbox = await sandboxes();
    const root = await changedTree(sandbox.server, sandbox.env.LOOPS_API_KEY, (args) => sandbox.loopsctl(args), tempDir('loopsctl-reads-'));
    sandbox.requests.length = 0;
    const push = await sandbox.loopsctl(PUSH_ARGS(root));
    expect(push.code, push.stderr).toBe(0);
    const requests = sandbox.requests;
    const counts = counted(requests);
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(PLANNED_WRITES);
    // Each message read once, before its write, for the comparison with the tree (a published email's published one too):
    // where the write left it, which the tree's state and undo record, is its answer.
    expect(counts.get('GET /v1/email-messages/<id>')).toBe(EMAILS + PUBLISHED);
    // The emails' records from their list, whose pages the gate reads again once 20 requests have gone since.
    expect(counts.get('GET /v1/transactional-emails')).toBeLessThanOrEqual(2 + 5);
    expect(counts.get('GET /v1/transactional-emails/<id>')).toBeLessThanOrEqual(1);
    // Each workflow read for the comparison, and by the gate just before its first node write: the second is judged by the first
    // one's answer, and where the push left it is the last one's ("the latest simplified workflow").
    expect(counts.get('GET /v1/workflows/<id>')).toBe(2 * WORKFLOWS);
    // 345 when each email was read again once its writes were done, 295 before a write's answer judged the next, 285 before
    // where the push left each workflow came from its last write's answer, 275 before the gate took an email from its list's
    // page (docs/performance-log.md, "The change cycle's reads").
    expect(requests.length).toBeLessThanOrEqual(230);
  });

  it('reads a theme just before its write, so a change made in the app while the apply runs is a conflict', async () => {
    const sandbox = await sandboxes();
    const { id, plan } = await plannedThemeEdit(sandbox, tempDir('loopsctl-reads-'));
    // The theme changes in the app once the apply has read it the first time (to check the account and keep its before-image).
    const recorded = sandbox.requests;
    const push = recorded.push.bind(recorded);
    let changed = false;
    recorded.push = (...items: Recorded[]) => {
      if (!changed && items.some((request) => request.method === 'GET' && request.path === `/v1/themes/${id}`)) {
        changed = true;
        // A new record: the answer being sent keeps the one it was made of.
        sandbox.server.update((state) => {
          const held = themes.of(state);
          const at = held.findIndex((each) => each.id === id);
          held[at] = { ...held[at]!, styles: { ...held[at]!.styles, buttonBorderRadius: 17 } };
        });
      }
      return push(...items);
    };
    recorded.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(changed).toBe(true);
    expect(apply.code).toBe(5);
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(apply.stdout).toContain('the theme changed in the account since the plan was made');
    expect(recorded.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(recorded.filter((request) => request.path === `/v1/themes/${id}`)).toHaveLength(2);
  });
});
