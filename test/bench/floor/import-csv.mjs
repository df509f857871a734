// The floor for an import: read the CSV, ask for the account's contact properties once (as
// loopsctl does, to refuse a column the account does not have before sending anything), create each
// row's contact with a POST carrying an Idempotency-Key, at loopsctl's pace (no more than n
// requests start in any second, the third argument, the properties request among them; at most 4
// in flight), and keep a journal as loopsctl does: a line written before each send and one with its
// outcome after it, synced at the end. Arguments: the API's base URL, the CSV file (a header line,
// then simple rows: no quoted fields), requests per second, the journal.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [base, csvFile, rate, journalFile] = process.argv.slice(2);
const REQUESTS_PER_SECOND = Number(rate);
const IN_FLIGHT = 4;
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const [header, ...rows] = readFileSync(csvFile, 'utf8')
  .split('\n')
  .filter((line) => line !== '');
const columns = header.split(',');
const journal = openSync(journalFile, 'wx');
const note = (entry) => writeSync(journal, `${JSON.stringify(entry)}\n`);

function send(path, method, headers, body) {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${base}${path}`, { method, agent, headers: { authorization: `Bearer ${process.env.LOOPS_API_KEY}`, ...headers } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function create(body, key) {
  return send('/v1/contacts/create', 'POST', { 'content-type': 'application/json', 'idempotency-key': key, 'content-length': Buffer.byteLength(body) }, body);
}

const started = performance.now();
// The properties request takes the first place in the first second.
const properties = await send('/v1/contacts/properties', 'GET', {});
if (properties.status !== 200) throw new Error(`the properties request failed (${properties.status})`);

let next = 0;
let created = 0;
async function worker() {
  while (next < rows.length) {
    const n = next;
    next += 1;
    const wait = started + Math.floor((n + 1) / REQUESTS_PER_SECOND) * 1000 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const values = rows[n].split(',');
    const contact = Object.fromEntries(columns.map((column, index) => [column, values[index]]));
    const digest = createHash('sha256').update(contact.email).digest('hex').slice(0, 12);
    note({ n: n + 1, line: n + 2, d: digest, status: 'sending' });
    const answer = await create(JSON.stringify(contact), randomUUID());
    note({ n: n + 1, line: n + 2, d: digest, status: answer.status === 200 ? 'created' : 'failed', id: answer.body.id });
    if (answer.status === 200) created += 1;
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
fsyncSync(journal);
closeSync(journal);
agent.destroy();
process.stdout.write(`${JSON.stringify({ created, failed: rows.length - created })}\n`);
