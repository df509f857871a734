'use strict';
/**
 * For the build (src/build/build.mjs): records V8's code cache of dist/sandbox/sandbox.cjs, which
 * dist/sandbox/index.cjs (sandbox-loader.cjs) reads. Runs the bundle as that loader does, then what
 * an app's tests do with it: a sandbox started from fixtures and one from the demo data, and the
 * requests a suite makes most (contacts, events, a transactional send, lists, workflows, a reset,
 * the clock, the fetch interceptor). V8 then holds the bytecode of every function they ran, which
 * the cache keeps, with the script's name, which stack traces show: the bundle is named where it
 * will be once the build is renamed into place. Usage: node record-sandbox-cache.cjs <dist/sandbox>
 * [<where it will be>]
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { request } = require('node:http');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

const dir = process.argv[2];
const bundle = join(dir, 'sandbox.cjs');
const script = new Script(module.constructor.wrap(readFileSync(bundle, 'utf8')), { filename: join(process.argv[3] ?? dir, 'sandbox.cjs') });
const loaded = { exports: {} };
// The bundle requires the vendored files it shares with the CLI (../vendor/) from where it lies.
script.runInThisContext().call(loaded.exports, loaded.exports, createRequire(bundle), loaded, bundle, dir);
const { interceptLoops, startSandbox } = loaded.exports;

const fixtures = {
  contacts: [{ email: 'ada@example.com', firstName: 'Ada', userId: 'u1' }],
  transactionalEmails: [{ id: 'welcome', name: 'Welcome', lmx: '<Paragraph>Hi {data.name}</Paragraph>' }],
  workflows: [{ name: 'Onboarding', eventName: 'signup' }],
};

/** One request over HTTP, as an app's client makes it; fails on an answer other than 200. */
function call(sandbox, method, path, body) {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${sandbox.url}${path}`,
      { method, headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' } },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode === 200) resolve(JSON.parse(text));
          else reject(new Error(`${method} ${path}: ${response.statusCode} ${text}`));
        });
      },
    );
    sent.on('error', reject);
    sent.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function exercise(sandbox) {
  for (let round = 0; round < 3; round += 1) {
    const email = `person${round}@example.com`;
    await call(sandbox, 'POST', '/v1/contacts/create', { email, firstName: 'Grace', userId: `user-${round}` });
    await call(sandbox, 'GET', `/v1/contacts/find?email=${encodeURIComponent(email)}`);
    await call(sandbox, 'PUT', '/v1/contacts/update', { email, lastName: 'Hopper' });
    await call(sandbox, 'POST', '/v1/events/send', { email, eventName: 'signup', eventProperties: { plan: 'pro' } });
    await call(sandbox, 'POST', '/v1/transactional', { transactionalId: 'welcome', email, dataVariables: { name: 'Grace' } });
    await call(sandbox, 'GET', '/v1/lists');
    await call(sandbox, 'GET', '/v1/workflows');
    await call(sandbox, 'POST', '/v1/contacts/delete', { email });
  }
  sandbox.outbox();
  await sandbox.advanceClock('1d');
  await sandbox.journeys();
  await sandbox.reset();
}

(async () => {
  const withFixtures = await startSandbox({ fixtures });
  await exercise(withFixtures);
  await withFixtures.close();
  const demo = await startSandbox({ seed: 'demo', clock: 'frozen' });
  await call(demo, 'GET', '/v1/contacts/find?email=ada%40example.com');
  await demo.close();
  const intercepted = await interceptLoops({ fixtures });
  const answer = await fetch('https://app.loops.so/api/v1/contacts/find?email=ada%40example.com', {
    headers: { authorization: `Bearer ${intercepted.apiKey}` },
  });
  if (answer.status !== 200) throw new Error(`the interceptor answered ${answer.status}`);
  await intercepted.close();
  // The name sandbox-loader.cjs reads the shipped cache from (shippedCache): change both together.
  writeFileSync(`${bundle}.${process.version}-${process.arch}.cache`, script.createCachedData());
})().catch((error) => {
  process.stderr.write(`recording the sandbox's code cache failed: ${error.stack}\n`);
  process.exitCode = 1;
});
