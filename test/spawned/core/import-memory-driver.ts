/**
 * Run by import-memory.test.ts in a Node of a small heap: an import of ROWS contacts through the
 * bulk machinery and its journal (each send answered at once), then its resume, which finds every
 * record done. Prints the counts and the heap in use after each, once garbage is collected.
 */
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { recordCheck } from '../../../src/areas/contacts/import.js';
import { ImportProgress, type InputRecord, runBulk } from '../../../src/core/bulk.js';
import { Journal } from '../../../src/core/import-journal.js';
import type { Output } from '../../../src/render/output.js';

const [dir, rows] = [process.argv[2]!, Number(process.argv[3])];
const silent = new Writable({ write: (_chunk, _encoding, done) => done() });

/** The rows, checked as contacts import checks them (an email each, none twice). */
async function* records(): AsyncGenerator<InputRecord<Record<string, unknown>>> {
  const check = recordCheck('create');
  for (let line = 1; line <= rows; line += 1) {
    const source = `person${line}@example.com,Person ${line}`;
    yield check({ line, source, body: { email: `person${line}@example.com`, firstName: `Person ${line}` } });
  }
}

async function run(): Promise<Record<string, unknown>> {
  const journal = await Journal.open(join(dir, 'contacts.csv.journal.jsonl'), 'contacts', 'contacts.csv', new Date());
  const { summary } = await runBulk({
    records: records(),
    journal,
    statuses: ['created', 'skipped', 'failed'],
    concurrency: 4,
    send: async () => ({ status: 'created', id: 'c1' }),
    out: { stderr: silent } as unknown as Output,
    progress: new ImportProgress(
      () => silent,
      () => new Date(),
      undefined,
    ),
  });
  globalThis.gc!();
  return { ...summary, heapUsed: process.memoryUsage().heapUsed };
}

const first = await run();
const resumed = await run();
process.stdout.write(`${JSON.stringify({ first, resumed })}\n`);
