/**
 * `content push` runs that stop half-way or overlap, and record files too large to read: a push
 * that stopped after writing finishes (or reports) what it began on the next run; one run at a
 * time holds the directory; a file over the API's limit is refused before it is read.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readState } from '../../../../src/areas/content/shared/files.js';
import { takeFileLock } from '../../../../src/base/lock.js';
import { seedId } from '../../../../src/emulator/module.js';
import { closedAfter } from '../../../support/closing.js';
import { run, tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const PASSWORD_RESET = seedId('transactional/Password reset');
const PASSWORD_RESET_DRAFT = seedId('transactional/Password reset/draft');
const FOOTER = seedId('component/Footer');
const ONLY = ['--only', 'transactional,components,themes'];
const ACCOUNT = 'Acme Sandbox';

const sandboxes = sandboxEachTest();
const kept = closedAfter(afterEach);

function recordDir(root: string, kind: string, id: string): string {
  const name = readdirSync(join(root, kind)).find((entry) => entry.endsWith(`--${id}`));
  if (name === undefined) throw new Error(`no ${kind} record ${id} in ${root}`);
  return join(root, kind, name);
}

async function pulled(sandbox: RecordingSandbox): Promise<string> {
  const root = join(tempDir('loopsctl-content-'), 'loops');
  const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
  expect(pull.code, pull.stderr).toBe(0);
  return root;
}

/**
 * A server in front of the sandbox that passes every request on, but answers the first request
 * `fails` picks with a 500 after the sandbox has acted on it: the write happened, the push never hears.
 */
async function failingOnce(
  sandbox: RecordingSandbox,
  fails: (method: string, path: string) => boolean,
): Promise<{ env: Record<string, string>; failed: () => boolean }> {
  let failed = false;
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(`${sandbox.env.LOOPS_BASE_URL}${req.url}`, {
      method: req.method,
      headers: { authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? 'application/json' },
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const text = await answer.text();
    if (!failed && fails(req.method!, req.url!)) {
      failed = true;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal server error"}');
      return;
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  kept({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  return { env: { ...sandbox.env, LOOPS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, failed: () => failed };
}

describe('a content push that stopped after writing', () => {
  it('is recorded as pending, and the next push has Guardian check what it wrote rather than calling it unchanged', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    writeFileSync(join(recordDir(root, 'transactional', PASSWORD_RESET), 'draft.lmx'), '<Paragraph>Reset it</Paragraph>\n<Button>Reset</Button>');
    const front = await failingOnce(sandbox, (method, path) => method === 'GET' && path.endsWith('/guardian'));
    const stopped = await run(['content', 'push', root, ...ONLY, '--retries', '0'], { env: front.env });
    expect(front.failed()).toBe(true);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toMatch(
      /^LMX warnings in 1 file, sent anyway: .*\nError: transactional\/password-reset--\S+: Internal server error\nHint: the next `loopsctl content push` checks what this one wrote of it\n/,
    );
    expect(readState(root)!.pending?.[ACCOUNT]).toEqual({
      [`transactional/${recordDir(root, 'transactional', PASSWORD_RESET).split('/').at(-1)}`]: { digest: expect.any(String), check: true },
    });
    // The account holds the files, unchecked: the draft has the button without a link.
    expect((await sandbox.loopsctl(['email-messages', 'get', PASSWORD_RESET_DRAFT, '--lmx'])).stdout).toContain('<Button>Reset</Button>');

    const next = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(next.code).toBe(1);
    expect(next.stdout).toMatch(
      /refused\s+transactional\/password-reset--\S+\s+a push that stopped wrote it unchecked, and the account holds it; Guardian: Missing button link/,
    );
    expect(next.stderr).toContain('1 refused by Guardian');
    // Still pending until it passes: reported again, never "unchanged".
    const again = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^LMX warnings in 1 file, sent anyway: .*\nPushed 0 records to Acme Sandbox; \d+ unchanged, 1 refused by Guardian\.\n$/);
    expect(again.stdout).toContain('a push that stopped wrote it unchecked');

    writeFileSync(join(recordDir(root, 'transactional', PASSWORD_RESET), 'draft.lmx'), '<Paragraph>Reset it</Paragraph>\n');
    const fixed = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/updated\s+transactional\/password-reset--/);
    expect(readState(root)!.pending).toBeUndefined();
  });

  it('that passes Guardian is finished by the next push, and says so', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    writeFileSync(join(recordDir(root, 'transactional', PASSWORD_RESET), 'draft.lmx'), '<Paragraph>Reset your password</Paragraph>\n');
    const front = await failingOnce(sandbox, (method, path) => method === 'POST' && path.startsWith('/v1/email-messages/'));
    const stopped = await run(['content', 'push', root, ...ONLY, '--retries', '0'], { env: front.env });
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toMatch(/^Error: transactional\/password-reset--\S+: Internal server error\n/);
    expect(stopped.stderr).toContain('the next `loopsctl content push` checks what this one wrote of it');

    const next = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--json']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.json().records).toEqual([expect.objectContaining({ status: 'updated', note: 'finished a push that had stopped after writing it' })]);
    expect(sandbox.requests.some((request) => request.path.endsWith(`/${PASSWORD_RESET_DRAFT}/guardian`))).toBe(true);
    expect(readState(root)!.pending).toBeUndefined();
    const quiet = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('a content push that stopped before writing a record', () => {
  it('leaves it not pending: a refused write changed nothing, and the next push neither finishes nor checks it', async () => {
    const sandbox = await sandboxes();
    const root = join(tempDir('loopsctl-content-'), 'loops');
    expect((await sandbox.loopsctl(['content', 'pull', root])).code).toBe(0);
    // A sender's address with a domain: the API refuses the write (the team's sending domain is used).
    const fields = join(recordDir(root, 'transactional', PASSWORD_RESET), 'draft.json');
    const pulledFields = readFileSync(fields, 'utf8');
    writeFileSync(fields, pulledFields.replace(/"fromEmail": "[^"]*"/, '"fromEmail": "security@example.com"'));
    const refused = await sandbox.loopsctl(['content', 'push', root]);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('fromEmail must not include a domain');
    expect(refused.stderr).not.toContain('checks what this one wrote');
    expect(readState(root)!.pending).toBeUndefined();

    // Put back as pulled: nothing to do, and nothing said of a push that stopped.
    writeFileSync(fields, pulledFields);
    const before = sandbox.requests.length;
    const next = await sandbox.loopsctl(['content', 'push', root]);
    expect(next, next.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(next.stderr).not.toContain('finished');
    expect(sandbox.requests.slice(before).filter((request) => request.path.endsWith('/guardian'))).toEqual([]);
  });
});

describe('content runs on one directory', () => {
  it('one at a time: a push or pull while another run holds the directory is refused, naming it', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    writeFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), '<Paragraph>New footer</Paragraph>');
    const release = takeFileLock(join(root, '.loopsctl-run'));
    try {
      for (const command of ['push', 'pull']) {
        const refused = await sandbox.loopsctl(['content', command, root, ...ONLY]);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(`Error: ${root} is in use by another loopsctl run (process ${process.pid})`);
      }
    } finally {
      release();
    }
    expect(sandbox.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    expect((await sandbox.loopsctl(['content', 'push', root, ...ONLY])).code).toBe(0);
    expect(readdirSync(root).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('under --dry-run writes nothing, the state neither, where a push would record what the account holds', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    writeFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), '<Paragraph>New footer</Paragraph>');
    const plan = join(root, '..', 'change.json');
    expect((await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--out', plan])).code).toBe(0);
    const applied = await sandbox.loopsctl(['apply', plan]);
    expect(applied.code, applied.stderr).toBe(0);
    const file = join(root, 'loopsctl-state.json');
    const before = { text: readFileSync(file, 'utf8'), stat: statSync(file) };
    const dry = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before.text);
    expect(statSync(file).ino).toBe(before.stat.ino);
    expect(statSync(file).mtimeMs).toBe(before.stat.mtimeMs);
    // Without --dry-run, the push records what the account holds now: there was something to write.
    expect((await sandbox.loopsctl(['content', 'push', root, ...ONLY])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toBe(before.text);
  });

  it('takes over the lock of a run whose process is gone', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(root, '.loopsctl-run.lock'), JSON.stringify({ pid: Number(gone.stdout), since: Date.now() }));
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push.code, push.stderr).toBe(0);
  });

  it('a lock file that names no process: taken over once it is seconds old, else refused with a hint naming the file', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const lock = join(root, '.loopsctl-run.lock');
    // Empty, as a crash between creating and writing it leaves it, and dated ahead: it reads as just taken.
    writeFileSync(lock, '');
    const ahead = new Date(Date.now() + 60 * 60 * 1000);
    utimesSync(lock, ahead, ahead);
    const refused = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Error: ${root} is in use by another loopsctl run, or holds a lock file that names no process: ${lock}\n`);
    expect(refused.stderr).toContain(`Hint: if no other loopsctl run is under way on it, delete ${lock}`);
    // Committed to git and checked out a minute ago: no process has been writing it since.
    writeFileSync(lock, 'not a lock');
    const past = new Date(Date.now() - 60 * 1000);
    utimesSync(lock, past, past);
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY]);
    expect(push.code, push.stderr).toBe(0);
    expect(existsSync(lock)).toBe(false);
  });

  it("two pushes at once never drop each other's records from the state", async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const before = Object.keys(readState(root)!.accounts[ACCOUNT]!).sort();
    for (let round = 0; round < 3; round += 1) {
      writeFileSync(join(recordDir(root, 'components', FOOTER), 'component.lmx'), `<Paragraph>Footer ${round}</Paragraph>`);
      const results = await Promise.all([1, 2].map(() => sandbox.loopsctl(['content', 'push', root, ...ONLY])));
      expect(results.map((result) => result.code).sort()).toEqual([0, 2]);
      expect(Object.keys(readState(root)!.accounts[ACCOUNT]!).sort()).toEqual(before);
    }
  });
});

describe('a record file over the API limit', () => {
  it('is refused before it is read, by diff and push alike', async () => {
    const sandbox = await sandboxes();
    const root = await pulled(sandbox);
    const lmx = join(recordDir(root, 'components', FOOTER), 'component.lmx');
    // Sparse: 600 MB on paper, nothing on disk, and reading it whole would exhaust memory.
    writeFileSync(lmx, '');
    truncateSync(lmx, 600 * 1024 * 1024);
    for (const command of ['diff', 'push']) {
      const result = await sandbox.loopsctl(['content', command, root, ...ONLY]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`Error: ${lmx} is 629145600 bytes, more than the API takes (100 KB of LMX); it was not read`);
    }
    writeFileSync(lmx, 'x'.repeat(100 * 1024));
    const atTheLimit = await sandbox.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(atTheLimit.code).toBe(1);
    expect(atTheLimit.stderr).toContain(`1 record differs between ${root} and ${ACCOUNT}.`);
    writeFileSync(lmx, 'x'.repeat(100 * 1024 + 1));
    expect((await sandbox.loopsctl(['content', 'diff', root, ...ONLY])).stderr).toContain('is 102401 bytes');
    expect(readFileSync(lmx, 'utf8')).toHaveLength(102_401);
  });
});
