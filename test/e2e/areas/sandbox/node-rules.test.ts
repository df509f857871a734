/**
 * The platform's node rules the sandbox runs, driven through loopsctl against a sandbox with a
 * frozen clock (its state file, which `sandbox clock` and `sandbox journeys` read and move): an event trigger given its event by pattern id, an audience filter on what a
 * contact did with a workflow email (its simulated open, on the clock), a webhook experiment, and
 * the refusals of a pattern or a filter the platform does not have.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freezeClock } from '../../../../src/emulator/clock.js';
import { seedId } from '../../../../src/emulator/module.js';
import { workflows } from '../../../../src/emulator/routes/workflow-records.js';
import type { SandboxServer } from '../../../../src/emulator/server.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';

const servers: SandboxServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const T0 = '2024-11-01T08:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const TRIAL = seedId('workflow/Trial conversion');
const WIN_BACK = seedId('workflow/Win-back (draft)');
const node = (workflow: string, label: string) => seedId(`workflow/${workflow}/${label}`);
const NEWSLETTER = seedId('mailing-list/Product updates');

/** The demo team's sandbox with its clock frozen at the seed's date, webhooks queued with their engagement simulated, and loopsctl on it. */
async function sandbox(statuses: Record<string, string> = {}) {
  const stateFile = join(tempDir(), 'sandbox.json');
  const server = await startTestSandbox({
    stateFile,
    reset: true,
    seed: 'demo',
    webhookEndpoint: { url: 'http://127.0.0.1:9/', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', simulateEngagement: true },
  });
  servers.push(server);
  server.update((state) => {
    freezeClock(state);
    // The API cannot start a workflow; the app does, as the state holds it.
    for (const workflow of workflows.of(state)) workflow.status = statuses[workflow.id] ?? workflow.status;
  });
  const env = { ...sandboxEnv(server), LOOPSCTL_CONFIG_DIR: tempDir() };
  const loopsctl = async (...argv: string[]) => {
    const result = await run(argv, { env });
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  /** Runs loopsctl, which must refuse, saying why. */
  const refused = async (why: string, ...argv: string[]) => {
    const result = await run(argv, { env });
    expect(result.stderr).toContain(why);
    expect(result.code).not.toBe(0);
  };
  const journeys = async (contact: string, workflow: string) => {
    const [journey] = (await loopsctl('sandbox', 'journeys', '--state', stateFile, '--contact', contact, '--workflow', workflow, '--json')).json() as {
      steps: { typeName: string; outcome: string; at: string; why: string }[];
    }[];
    return journey?.steps.map((step) => `${step.at} ${step.typeName} ${step.outcome}: ${step.why}`);
  };
  const advance = (duration: string) => loopsctl('sandbox', 'clock', 'advance', duration, '--state', stateFile);
  return { loopsctl, refused, journeys, advance };
}

describe('an event trigger given its event by pattern', () => {
  it('waits for the pattern’s event once its id is set, and an id no pattern has is refused', async () => {
    const { loopsctl, refused, journeys, advance } = await sandbox();
    // The draft win-back workflow's trigger makes a pattern of a new event; the trial conversion takes it by id.
    await loopsctl(
      'workflow',
      'nodes',
      'update',
      WIN_BACK,
      node('Win-back (draft)', 'start'),
      '--set',
      'typeName=EventTrigger',
      '--set',
      'eventName=trial_extended',
    );
    const patterns = (await loopsctl('event-patterns', 'list', '--json')).json() as { id: string; eventName: string }[];
    const extended = patterns.find((pattern) => pattern.eventName === 'trial_extended')!;
    expect(extended).toBeDefined();
    await loopsctl('workflow', 'nodes', 'update', TRIAL, node('Trial conversion', 'trial-started'), '--set', `eventPatternId=${extended.id}`, '--live');
    const trigger = (await loopsctl('workflow', 'nodes', 'get', TRIAL, node('Trial conversion', 'trial-started'), '--json')).json() as Record<string, unknown>;
    expect(trigger).toMatchObject({ typeName: 'EventTrigger', eventName: 'trial_extended', reEligible: false });

    await loopsctl('events', 'send', 'trial_started', '--email', 'ada@example.com');
    expect(await journeys('ada@example.com', TRIAL)).toBeUndefined();
    // Event names are case-sensitive: a pattern matches its own name only.
    await loopsctl('events', 'send', 'Trial_Extended', '--email', 'ada@example.com');
    expect(await journeys('ada@example.com', TRIAL)).toBeUndefined();
    await loopsctl('events', 'send', 'trial_extended', '--email', 'ada@example.com');
    await advance('1h');
    expect(await journeys('ada@example.com', TRIAL)).toEqual([
      `${T0} EventTrigger entered: event "trial_extended" was sent`,
      `${T0} TimerAction waiting: waits 1 hour, until ${at(HOUR)}`,
      `${at(HOUR)} TimerAction released: the wait ended`,
      `${at(HOUR)} BranchNode exited: no branch matched the contact`,
    ]);

    await refused(
      'event pattern cnosuchpattern0000000000a not found',
      'workflow',
      'nodes',
      'update',
      TRIAL,
      node('Trial conversion', 'trial-started'),
      '--set',
      'eventPatternId=cnosuchpattern0000000000a',
      '--live',
    );
  });
});

describe('an audience filter on a contact’s activity, and a webhook experiment', () => {
  it('lets on the contact who opened the welcome email by the time it is evaluated, and splits it as an autosplit', async () => {
    const { loopsctl, refused, journeys, advance } = await sandbox({ [WIN_BACK]: 'Sending' });
    const winBack = (label: string) => node('Win-back (draft)', label);
    await loopsctl('workflow', 'nodes', 'update', WIN_BACK, winBack('start'), '--set', 'typeName=EventTrigger', '--set', 'eventName=winback_due', '--live');
    const opened = { type: 'activity', action: 'opened', negate: false, target: 'workflowEmail', id: node('Welcome series', 'welcome') };
    const payload = join(tempDir(), 'filter.json');
    writeFileSync(payload, JSON.stringify({ audienceFilter: { match: 'all', conditions: [opened] } }));
    await loopsctl('workflow', 'nodes', 'update', WIN_BACK, winBack('dormant'), '--payload-file', payload, '--live');
    await loopsctl('workflow', 'nodes', 'update', WIN_BACK, winBack('score'), '--set', 'samplingRate:=100', '--live');

    // Both readers get the welcome email at once; its simulated open follows two seconds later.
    for (const email of ['early@example.com', 'reader@example.com']) {
      await loopsctl('contacts', 'create', '--email', email, '--list', `${NEWSLETTER}=true`);
    }
    await loopsctl('contacts', 'create', '--email', 'stranger@example.com');
    await loopsctl('events', 'send', 'winback_due', '--email', 'early@example.com');
    await advance('1m');
    for (const email of ['reader@example.com', 'stranger@example.com']) await loopsctl('events', 'send', 'winback_due', '--email', email);

    expect(await journeys('early@example.com', WIN_BACK)).toEqual([
      `${T0} EventTrigger entered: event "winback_due" was sent`,
      `${T0} AudienceFilter filtered-out: does not match its filter`,
    ]);
    expect(await journeys('reader@example.com', WIN_BACK)).toEqual([
      `${at(MINUTE)} EventTrigger entered: event "winback_due" was sent`,
      `${at(MINUTE)} AudienceFilter matched: matches its filter, checked again at every later step`,
      `${at(MINUTE)} ExperimentBranchNode branched: in variant 2 of 2 (sampling rate 100%; a webhook experiment, split as an autosplit: the sandbox calls no webhook)`,
      `${at(MINUTE)} VariantNode variant: variant ${seedId('experiment/win-back/offer')}`,
      `${at(MINUTE)} SendEmailAction sent: sent "We saved your workspace"`,
      `${at(MINUTE)} ExitAction exited: an exit`,
    ]);
    expect(await journeys('stranger@example.com', WIN_BACK)).toEqual([
      `${at(MINUTE)} EventTrigger entered: event "winback_due" was sent`,
      `${at(MINUTE)} AudienceFilter filtered-out: does not match its filter`,
    ]);

    const unknownAction = JSON.stringify({ audienceFilter: { match: 'all', conditions: [{ ...opened, action: 'received' }] } });
    writeFileSync(payload, unknownAction);
    await refused(
      'payload.audienceFilter.conditions[0].action: "received" is not an activity action',
      ...['workflow', 'nodes', 'update', WIN_BACK, winBack('dormant'), '--payload-file', payload, '--live'],
    );
  });
});
