import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedId } from '../../../src/emulator/module.js';
import { type FixtureSandbox, KEYS, startFixtureSandbox } from '../../support/fixture-sandbox.js';
import { run } from '../../support/main.js';

let fixtures: FixtureSandbox;
beforeAll(async () => {
  fixtures = await startFixtureSandbox();
});
afterAll(() => fixtures.close());

/** Terminal columns of the widest line, colour codes left out (the views use no wide characters). */
const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.replace(/\x1b\[[0-9;]*m/g, '').length));

it.each([
  [['themes', 'get', seedId('theme/Midnight')]],
  [['themes', 'update', seedId('theme/Midnight'), '--style', 'borderWidth=2']],
  [['components', 'list']],
  [['components', 'get', seedId('component/Footer')]],
  [['event-patterns', 'list']],
  [['event-patterns', 'get', '--name', 'trial_started']],
  [['groups', 'get', seedId('transactional-group/Billing')]],
  [['campaign-groups', 'get', seedId('campaign-group/Newsletters')]],
])('%j fits 80 columns on a terminal', async (argv) => {
  const result = await run(['--sandbox', ...argv], { tty: { columns: 80 } });
  expect(result.code).toBe(0);
  expect(widest(result.stdout)).toBeLessThanOrEqual(80);
});

// A record's header (its name, its facts, a hint) wraps at a narrow terminal, as `workflow show`'s does.
it.each([
  [['themes', 'get', seedId('theme/Midnight')]],
  [['themes', 'update', seedId('theme/Midnight'), '--style', 'borderWidth=2']],
  [['components', 'get', seedId('component/Footer')]],
  [['workflow', 'show', seedId('workflow/Welcome series')]],
])('%j fits 60 columns on a terminal', async (argv) => {
  const result = await run(['--sandbox', ...argv], { tty: { columns: 60 } });
  expect(result.code).toBe(0);
  expect(widest(result.stdout)).toBeLessThanOrEqual(60);
});

// Tables of many rows and wide values (25 themes, 12 groups, metrics of two emails, a workflow's
// tree) as a person reads them: every line within the terminal, and no row separators.
it.each([60, 80, 160])('fits every line of a table at %i columns, with no row separators', async (columns) => {
  const env = { LOOPS_BASE_URL: fixtures.url, LOOPS_API_KEY: KEYS.valid };
  for (const args of [
    ['themes', 'list'],
    ['groups', 'list'],
    ['transactional', 'metrics', 'tx_welcome', 'tx_unsent'],
    ['workflow', 'show', 'wf_welcome'],
  ]) {
    const result = await run([...args, '--no-color'], { env, tty: { columns } });
    expect(result.code, args.join(' ')).toBe(0);
    // stderr's progress line, redrawn in place, is read as a terminal leaves it: its last state.
    const lines = `${result.stdout}\n${result.stderr}`
      .replace(/\r/g, '')
      .split('\n')
      .map((line) => line.split('\u001b[2K').at(-1)!)
      .filter((line) => line.trim() !== '');
    for (const line of lines) expect([...line].length, `${args.join(' ')}: ${line}`).toBeLessThanOrEqual(columns);
    expect(lines.some((line) => /^[-─+]+$/.test(line.trim()) && lines.indexOf(line) > 1)).toBe(false);
  }
});
