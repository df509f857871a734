/**
 * A write may take fewer bytes than it was given (a signal, a full pipe, some file systems): the
 * journal goes on writing the rest, so every line is whole. Here every write of the journal takes
 * at most 7 bytes (test/support/patch-builtin.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../../../support/main.js';
import { cutWritesShort } from '../../../support/patch-builtin.js';
import { sandboxEachTest } from '../../../support/recording.js';

const openSandbox = sandboxEachTest();

it('writes whole journal lines when the system takes a few bytes at a time', async () => {
  cutWritesShort();
  const { loopsctl, requests } = await openSandbox();
  const file = join(tempDir(), 'events.jsonl');
  writeFileSync(file, [1, 2, 3].map((n) => JSON.stringify({ eventName: 'signup', email: `p${n}@example.com` })).join('\n'));
  expect((await loopsctl(['events', 'import', file, '--json'])).json()).toMatchObject({ sent: 3, failed: 0 });
  const lines = readFileSync(`${file}.journal.jsonl`, 'utf8').trimEnd().split('\n');
  expect(lines).toHaveLength(7);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  expect((await loopsctl(['events', 'import', file, '--json'])).json()).toMatchObject({ sent: 0, skipped: 3 });
  expect(requests.filter((request) => request.path === '/v1/events/send')).toHaveLength(3);
});
