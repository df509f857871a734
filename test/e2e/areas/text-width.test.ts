import { expect, it } from 'vitest';
import { seedId } from '../../../src/emulator/module.js';
import { run } from '../../support/main.js';

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
