/**
 * What an API or a pull request can put in front of `content pull`: an id that names a directory
 * elsewhere, and a symbolic link committed where a record's directory goes. Nothing is ever read
 * or written outside the content directory.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { answering, run, tempDir } from '../../../support/main.js';

let server: ApiServer | undefined;
afterEach(() => server?.close());

const page = (data: unknown[]) => ({
  success: true,
  pagination: { totalResults: data.length, returnedResults: data.length, perPage: 50, totalPages: 1, nextCursor: null, nextPage: null },
  data,
});

/** An account whose one component has this id. */
async function accountWithComponent(id: string): Promise<Record<string, string>> {
  server = await startApiServer({
    'GET /v1/api-key': (_req, res) => json(res, 200, { success: true, teamName: 'Acme' }),
    'GET /v1/components': (_req, res) => json(res, 200, page([{ id, name: 'Header', lmx: '<Paragraph>Hi</Paragraph>' }])),
  });
  return { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url };
}

/** A directory standing for what an attacker aims at, with a file that must survive. */
function victim(base: string): string {
  const directory = join(base, 'victim');
  mkdirSync(directory);
  writeFileSync(join(directory, 'keep.txt'), 'precious\n');
  return directory;
}

describe('content pull against a hostile account', () => {
  it('keeps an id such as x/../../../<dir> inside the pull directory, as one encoded directory name', async () => {
    const base = tempDir('loopsctl-content-');
    const target = victim(base);
    const root = join(base, 'repo', 'loops');
    const env = await accountWithComponent('x/../../../victim');
    const result = await run(['content', 'pull', root, '--only', 'components'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(target)).toEqual(['keep.txt']);
    expect(readFileSync(join(target, 'keep.txt'), 'utf8')).toBe('precious\n');
    expect(readdirSync(join(root, 'components'))).toEqual(['header--x%2F..%2F..%2F..%2Fvictim']);
    expect(readdirSync(join(root, 'components', 'header--x%2F..%2F..%2F..%2Fvictim')).sort()).toEqual(['component.json', 'component.lmx']);
  });

  it('refuses a symbolic link committed at a record directory, leaving its target untouched', async () => {
    const base = tempDir('loopsctl-content-');
    const target = victim(base);
    const root = join(base, 'loops');
    mkdirSync(join(root, 'components'), { recursive: true });
    symlinkSync(target, join(root, 'components', 'header--c1'));
    const env = await accountWithComponent('c1');
    const pull = await run(['content', 'pull', root, '--only', 'components'], { env });
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain(`${join(root, 'components', 'header--c1')} is a symbolic link: content is never read or written through a link`);
    expect(existsSync(join(root, 'loopsctl-state.json'))).toBe(false);
    // Reading the files for a diff does not follow it either.
    writeFileSync(join(root, 'loopsctl-state.json'), '{"format": 1, "kinds": ["components"], "accounts": {}}\n');
    const diff = await run(['content', 'diff', root, '--only', 'components'], { env });
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('is a symbolic link');
    expect(readdirSync(target)).toEqual(['keep.txt']);
  });

  it('refuses a symbolic link in place of a kind directory', async () => {
    const base = tempDir('loopsctl-content-');
    const target = victim(base);
    const root = join(base, 'loops');
    mkdirSync(root);
    symlinkSync(target, join(root, 'components'));
    const env = await accountWithComponent('c1');
    const pull = await run(['content', 'pull', root, '--only', 'components'], { env });
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain(`${join(root, 'components')} is a symbolic link`);
    expect(readdirSync(target)).toEqual(['keep.txt']);
  });
});

describe("a symbolic link committed inside a workflow's directory", () => {
  it.each(['emails/thank-you-for-upgrading/email.lmx', 'workflow.yaml'])(
    'at %s is refused by diff and push, which show nothing of what it points at',
    async (file) => {
      const base = tempDir('loopsctl-content-');
      const root = join(base, 'loops');
      const env = { LOOPSCTL_CONFIG_DIR: join(base, 'config') };
      expect((await run(['--sandbox', 'content', 'pull', root], { env })).code).toBe(0);
      const secret = join(base, 'environ');
      writeFileSync(secret, 'LOOPS_API_KEY=test-key-not-real\n');
      const path = join(root, 'workflows', 'upgrade-thank-you--c7g4cvwslrgc8e0zwloyv0qln', file);
      rmSync(path);
      symlinkSync(secret, path);
      for (const command of ['diff', 'push']) {
        const result = await run(
          ['--sandbox', 'content', command, root, '--yes'].filter((word) => command === 'push' || word !== '--yes'),
          { env },
        );
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`${path} is a symbolic link: content is never read or written through a link`);
        expect(result.stdout + result.stderr).not.toContain('test-key-not-real');
      }
    },
  );
});

describe('content push on a terminal', () => {
  it("escapes terminal controls in the question: the account's team name and the directory names", async () => {
    const root = join(tempDir('loopsctl-content-'), 'loops');
    const record = join(root, 'components', 'header\x1b[2J\x1b[1;1H');
    mkdirSync(record, { recursive: true });
    writeFileSync(join(record, 'component.json'), '{"name": "Header"}\n');
    writeFileSync(join(record, 'component.lmx'), '<Paragraph>Hi</Paragraph>\n');
    writeFileSync(join(root, 'loopsctl-state.json'), '{"format": 1, "kinds": ["components"], "accounts": {}}\n');
    server = await startApiServer({
      'GET /v1/api-key': (_req, res) => json(res, 200, { success: true, teamName: 'Acme\x1b]52;c;cm0gLXJmIH4=\x07' }),
      'GET /v1/components': (_req, res) => json(res, 200, page([])),
    });
    const env = { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url };
    const result = await run(['content', 'push', root, '--only', 'components'], { env, tty: { columns: 200 }, input: answering(['n']) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Create components/header\\x1b[2J\\x1b[1;1H in Acme\\x1b]52;c;cm0gLXJmIH4=\\x07? [y/N] ');
    expect(result.stderr).not.toContain('\x1b');
    expect(server.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

describe('a symbolic link committed in the tree is never read or written through', () => {
  const WELCOME = 'transactional/welcome--cx1';
  const FOOTER = 'components/footer--cmp1';
  const OCEAN = 'themes/ocean--th1';
  const SECRET = 'LOOPS_API_KEY=test-key-not-real-but-secret';
  const offline = { LOOPS_API_KEY: undefined };

  /** A pulled tree whose welcome email embeds the footer and names the Ocean theme, and a secret file beside it. */
  function treeWithSecret(): { root: string; secret: string } {
    const base = tempDir('loopsctl-content-');
    const root = join(base, 'loops');
    const files: Record<string, string> = {
      [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
      [`${WELCOME}/draft.json`]: '{"subject":"Welcome"}\n',
      [`${WELCOME}/draft.lmx`]: '<Style themeId="th1" />\n<H1>Welcome</H1>\n<Component componentId="cmp1" />\n',
      [`${FOOTER}/component.json`]: '{"name":"Footer"}\n',
      [`${FOOTER}/component.lmx`]: '<Paragraph>Acme Inc</Paragraph>\n',
      [`${OCEAN}/theme.json`]: '{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8"}}\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const secret = join(base, 'environ');
    writeFileSync(secret, `<Paragraph>${SECRET}</Paragraph>\n`);
    return { root, secret };
  }

  /** Puts a link to `target` in place of a file of the tree. */
  function linkInPlaceOf(root: string, path: string, target: string): void {
    rmSync(join(root, path));
    symlinkSync(target, join(root, path));
  }

  it.each([`${FOOTER}/component.lmx`, `${OCEAN}/theme.json`, `${WELCOME}/draft.json`])(
    'content render refuses a link at %s, and shows nothing of what it points at',
    async (path) => {
      const { root, secret } = treeWithSecret();
      linkInPlaceOf(root, path, secret);
      for (const json of [[], ['--json']]) {
        const result = await run(['content', 'render', join(root, WELCOME, 'draft.lmx'), ...json], { env: offline });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`${join(root, path)} is a symbolic link: content is never read or written through a link`);
        expect(result.stdout + result.stderr).not.toContain('test-key-not-real');
      }
    },
  );

  it('content render refuses a link at a component directory, and at the file it is asked to render', async () => {
    const { root, secret } = treeWithSecret();
    const outsideComponent = join(secret, '..', 'component');
    mkdirSync(outsideComponent);
    writeFileSync(join(outsideComponent, 'component.lmx'), `<Paragraph>${SECRET}</Paragraph>\n`);
    rmSync(join(root, FOOTER), { recursive: true });
    symlinkSync(outsideComponent, join(root, FOOTER));
    const embedding = await run(['content', 'render', join(root, WELCOME, 'draft.lmx')], { env: offline });
    expect(embedding.code).toBe(2);
    expect(embedding.stderr).toContain(`${join(root, FOOTER)} is a symbolic link`);
    expect(embedding.stdout).not.toContain('test-key-not-real');
    const named = join(root, WELCOME, 'linked.lmx');
    symlinkSync(secret, named);
    const direct = await run(['content', 'render', named], { env: offline });
    expect(direct.code).toBe(2);
    expect(direct.stderr).toContain(`${named} is a symbolic link`);
    expect(direct.stdout).not.toContain('test-key-not-real');
  });

  it('content render refuses a file of the tree reached through a linked record directory, and its draft.json there', async () => {
    const { root, secret } = treeWithSecret();
    const elsewhere = join(secret, '..', 'record');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'draft.lmx'), `<Paragraph>${SECRET}</Paragraph>\n`);
    const linked = 'transactional/linked--cx2';
    symlinkSync(elsewhere, join(root, linked));
    const result = await run(['content', 'render', join(root, linked, 'draft.lmx')], { env: offline });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(root, linked)} is a symbolic link`);
    expect(result.stdout + result.stderr).not.toContain('test-key-not-real');
  });

  it('content render --out never writes through a link at that name, dangling or not', async () => {
    const { root, secret } = treeWithSecret();
    const dangling = join(secret, '..', 'authorized_keys');
    const out = join(root, '..', 'welcome.html');
    symlinkSync(dangling, out);
    const result = await run(['content', 'render', join(root, WELCOME, 'draft.lmx'), '--out', out], { env: offline });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${out} is a symbolic link`);
    expect(existsSync(dangling)).toBe(false);
  });

  it('content diff refuses a state file that is a link, and quotes nothing of what it points at', async () => {
    const { root } = treeWithSecret();
    const secret = join(root, '..', 'credentials');
    writeFileSync(secret, `${SECRET}\n`);
    symlinkSync(secret, join(root, 'loopsctl-state.json'));
    // The state is read before anything is asked of the account.
    server = await startApiServer({});
    const diff = await run(['content', 'diff', root, '--only', 'components'], { env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url } });
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain(`${join(root, 'loopsctl-state.json')} is a symbolic link`);
    expect(diff.stdout + diff.stderr).not.toContain('LOOPS_API_KEY');
  });

  it('content check names a linked .lmx file rather than passing over it, and reads nothing through it', async () => {
    const { root, secret } = treeWithSecret();
    linkInPlaceOf(root, `${FOOTER}/component.lmx`, secret);
    const result = await run(['content', 'check', root], { env: offline });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(root, FOOTER, 'component.lmx')} is a symbolic link`);
    expect(result.stdout + result.stderr).not.toContain('test-key-not-real');
  });
});
