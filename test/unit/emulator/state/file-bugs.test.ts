/**
 * What a sandbox's state file got wrong once: contacts not found by the email they have, a member
 * that does not parse ending the command as a bug, and a database under the older default name
 * read as JSON.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../../src/base/errors.js';
import { stateFileRequest } from '../../../../src/emulator/index.js';
import { type SandboxServer, startServer } from '../../../../src/emulator/server.js';
import { defaultStatePath, readState, writeState } from '../../../../src/emulator/state/index.js';
import { sandboxModules, seedState } from '../../../support/sandbox.js';
import { callSandbox } from '../../../support/sandbox-http.js';
import { queryState as run } from '../../../support/state-file.js';
import { tempDir } from '../../../support/temp.js';

const started: SandboxServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.close()));
});

async function start(stateFile: string): Promise<SandboxServer> {
  const sandbox = await startServer({ stateFile });
  started.push(sandbox);
  return sandbox;
}

const request = (sandbox: SandboxServer, method: string, path: string, body?: unknown) =>
  callSandbox({ url: sandbox.url, apiKey: 'sandbox-key' }, method, path, body);

const findByEmail = (sandbox: SandboxServer, email: string) => request(sandbox, 'GET', `/v1/contacts/find?email=${encodeURIComponent(email)}`);

describe('a contact in a state file', () => {
  it('is found by its email in any case, created with capitals, in the request after and after a restart', async () => {
    const file = join(tempDir('loopsctl-state-case-'), 'state.db');
    writeState(file, seedState());
    const sandbox = await start(file);
    const made = await request(sandbox, 'POST', '/v1/contacts/create', { email: 'Mixed.Case@Example.COM' });
    expect(made.status).toBe(200);
    for (const asked of ['mixed.case@example.com', 'Mixed.Case@Example.COM', 'MIXED.CASE@EXAMPLE.COM'])
      expect((await findByEmail(sandbox, asked)).body).toMatchObject([{ id: made.body.id, email: 'Mixed.Case@Example.COM' }]);
    const again = await start(file);
    expect((await findByEmail(again, 'mixed.case@example.com')).body).toMatchObject([{ id: made.body.id }]);
  });

  it('is found by the email it was changed to, and no longer by the one before', async () => {
    const file = join(tempDir('loopsctl-state-moved-'), 'state.db');
    writeState(file, seedState());
    const sandbox = await start(file);
    // Ada's userId names her; the email is changed to one with capitals.
    expect((await request(sandbox, 'PUT', '/v1/contacts/update', { userId: 'usr_ada', email: 'Ada.Moved@Example.com' })).status).toBe(200);
    expect((await findByEmail(sandbox, 'ada.moved@example.com')).body).toMatchObject([{ email: 'Ada.Moved@Example.com', userId: 'usr_ada' }]);
    expect((await findByEmail(sandbox, 'ada@example.com')).body).toEqual([]);
    const again = await start(file);
    expect((await findByEmail(again, 'ADA.MOVED@example.com')).body).toMatchObject([{ userId: 'usr_ada' }]);
    expect((await findByEmail(again, 'ada@example.com')).body).toEqual([]);
  });
});

describe('a state file whose member does not parse', () => {
  it('is said to be unusable, naming the member, by a reader, a server and a request without one', async () => {
    const file = join(tempDir('loopsctl-state-member-'), 'state.db');
    writeState(file, seedState());
    run(file, "UPDATE members SET value = '[{not json' WHERE key = 'themes'");
    const refusal = (() => {
      try {
        readState(file, sandboxModules);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(LocalFileError);
    expect((refusal as LocalFileError).message).toBe(`the sandbox state file ${file} could not be read: themes: it is not valid JSON`);
    expect((refusal as LocalFileError).hint).toContain('loopsctl sandbox reset');

    run(file, "UPDATE members SET value = '{not json' WHERE key = 'clock'");
    const unanswered = await stateFileRequest(file, 'GET', '/_sandbox/clock').catch((error: unknown) => error);
    expect(unanswered).toBeInstanceOf(LocalFileError);
    expect((unanswered as LocalFileError).message).toBe(`the sandbox state file ${file} could not be read: clock: it is not valid JSON`);
    const sandbox = await start(file);
    const answer = await request(sandbox, 'GET', '/_sandbox/clock');
    expect(answer.status).toBe(500);
    expect(answer.body.message).toContain('clock: it is not valid JSON');
  });
});

describe('the older default state file', () => {
  it('is read as the database it is, and replaced by the default one at the first change', async () => {
    const configDir = tempDir('loopsctl-state-older-db-');
    mkdirSync(configDir, { recursive: true });
    const older = join(configDir, 'sandbox-state.json');
    writeState(older, { ...seedState(), teamName: 'Kept as a database' });
    const file = defaultStatePath(configDir);
    expect(readState(file, sandboxModules)!.teamName).toBe('Kept as a database');
    const sandbox = await start(file);
    expect((await request(sandbox, 'GET', '/v1/api-key')).body.teamName).toBe('Kept as a database');
    expect((await request(sandbox, 'POST', '/v1/transactional-emails', { name: 'Kept' })).status).toBe(201);
    expect(existsSync(older)).toBe(false);
    expect(readState(file, sandboxModules)!.teamName).toBe('Kept as a database');
  });
});
