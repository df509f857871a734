/**
 * A sandbox that keeps a state file commits the writes that arrive together once, and answers each
 * only once its change is in the file.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCore } from '../../../src/emulator/core.js';
import { SANDBOX_KEY } from '../../../src/emulator/keys.js';
import { writeState } from '../../../src/emulator/state/index.js';
import { seedState } from '../../support/sandbox.js';
import { commitsLogged, queryState as query } from '../../support/state-file.js';
import { tempDir } from '../../support/temp.js';

const create = (email: string) => ({
  method: 'POST',
  target: '/v1/contacts/create',
  headers: { authorization: `Bearer ${SANDBOX_KEY}`, 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ email })),
});

describe('group commit', () => {
  it('makes the writes that arrive together in one transaction, each answered once the group is in the file', async () => {
    const file = join(tempDir('loopsctl-group-commit-'), 'state.db');
    writeState(file, seedState());
    const core = await openCore({ stateFile: file, rateLimit: false });
    const before = commitsLogged(file);
    try {
      const emails = Array.from({ length: 5 }, (_, index) => `group${index}@example.com`);
      const seen: number[] = [];
      const answers = await Promise.all(
        emails.map(async (email) => {
          const answer = await core.answer(create(email), 'http://sandbox.invalid');
          // Answered: another connection already reads every contact of the group.
          seen.push(Number(query(file, "SELECT count(*) AS count FROM rows WHERE slice = 'contacts' AND key0 LIKE 'group%'")[0]!.count));
          return answer;
        }),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(seen).toEqual([5, 5, 5, 5, 5]);
      expect(commitsLogged(file) - before).toBe(1);
      // A write made after the answers is a transaction of its own.
      expect((await core.answer(create('after@example.com'), 'http://sandbox.invalid')).status).toBe(200);
      expect(commitsLogged(file) - before).toBe(2);
    } finally {
      await core.close();
    }
  });

  it('answers each write of a group as it would alone: a refused one refused, the others made', async () => {
    const file = join(tempDir('loopsctl-group-refused-'), 'state.db');
    writeState(file, seedState());
    const core = await openCore({ stateFile: file, rateLimit: false });
    try {
      const answers = await Promise.all(
        ['one@example.com', 'ada@example.com', 'two@example.com'].map((email) => core.answer(create(email), 'http://sandbox.invalid')),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 409, 200]);
      expect(query(file, "SELECT key0 FROM rows WHERE slice = 'contacts' AND key0 IN ('one@example.com', 'two@example.com')")).toHaveLength(2);
    } finally {
      await core.close();
    }
  });
});
