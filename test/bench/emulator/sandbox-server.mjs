/**
 * The emulator as an app's test suite starts it: `startSandbox()` from the built package entry
 * (dist/sandbox/index.mjs, loopsctl/sandbox).
 *   node sandbox-server.mjs <repository root> one     starts a new team's sandbox, answers one request, stops; prints {"startMs"}
 *   node sandbox-server.mjs <repository root> serve   starts one with a contact and a transactional email as fixtures,
 *                                                     prints {"url"}, serves until stdin ends
 * startMs is the time of `await startSandbox()` in this process, the module loaded.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, mode] = process.argv.slice(2);
const { startSandbox } = await import(pathToFileURL(join(root, 'dist/sandbox/index.mjs')).href);
const fixtures = {
  contacts: [{ email: 'ada@example.com', firstName: 'Ada', userId: 'ada' }],
  transactionalEmails: [{ id: 'welcome', name: 'Welcome', lmx: '<Paragraph>Hi {data.name}</Paragraph>' }],
};
// A new team's sandbox, as `startSandbox()` gives it: fixtures cost what the requests that make their records do.
const started = performance.now();
const sandbox = await startSandbox(mode === 'one' ? undefined : { fixtures });
const startMs = performance.now() - started;
if (mode === 'one') {
  await new Promise((resolve, reject) => {
    request(`${sandbox.url}/v1/contacts/find?email=ada%40example.com`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } }, (response) => {
      response.resume().on('end', resolve);
      if (response.statusCode !== 200) reject(new Error(`the sandbox answered ${response.statusCode}`));
    })
      .on('error', reject)
      .end();
  });
  await sandbox.close();
  process.stdout.write(JSON.stringify({ startMs }));
} else {
  process.stdout.write(`${JSON.stringify({ url: sandbox.url, apiKey: sandbox.apiKey })}\n`);
  process.stdin.resume().on('end', () => sandbox.close());
}
