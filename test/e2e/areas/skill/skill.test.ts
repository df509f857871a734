/** `loopsctl skill`: the shipped SKILL.md, and installing it where agents read skills (HOME a temp dir). */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../../src/base/exit-codes.js';
import { run, tempDir } from '../../../support/main.js';
import { spawnCli } from '../../../support/run-cli.js';

const SHIPPED = readFileSync(resolve(import.meta.dirname, '../../../../skills/loopsctl/SKILL.md'), 'utf8');

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function home(...agentFolders: string[]): string {
  const dir = tempDir('loopsctl-home-');
  homes.push(dir);
  for (const folder of agentFolders) mkdirSync(join(dir, folder));
  return dir;
}

const skillAt = (dir: string, ...folders: string[]) => join(dir, ...folders, 'loopsctl', 'SKILL.md');

describe('the shipped skill', () => {
  it('names itself, and lists every exit code loopsctl has', () => {
    expect(SHIPPED).toMatch(/^---\nname: loopsctl\ndescription: .{40,1024}\n---\n/);
    for (const { code } of EXIT_CODES) expect(SHIPPED).toMatch(new RegExp(`^\\| ${code} \\| `, 'm'));
    for (const habit of ['--sandbox', '--dry-run', '--jq', 'sandbox outbox']) expect(SHIPPED).toContain(habit);
  });

  it('quotes the workflow rule book word for word on what the API cannot do', () => {
    const section = SHIPPED.slice(SHIPPED.indexOf('## Building Loops workflows'));
    const quotes = [...section.matchAll(/"([^"]{20,})"/g)].map(([, quote]) => quote!.replace(/\s+/g, ' '));
    expect(quotes).toHaveLength(3);
    const book = ['src/platform/workflows/rules.ts', 'src/areas/content/workflows/plan.ts']
      .map((file) => readFileSync(resolve(import.meta.dirname, '../../../..', file), 'utf8'))
      .join('\n');
    for (const quote of quotes) expect(book, quote).toContain(quote);
  });

  it('is what the built binary prints', async () => {
    const result = await spawnCli(['skill', 'show']);
    expect(result).toMatchObject({ code: 0, stdout: SHIPPED });
  });
});

describe('loopsctl skill install', () => {
  it('--dry-run names the path of each agent found in the home, and writes nothing', async () => {
    const dir = home('.claude', '.cursor');
    const result = await run(['skill', 'install', '--dry-run'], { env: { HOME: dir } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Would create ~/.claude/skills/loopsctl/SKILL.md (claude)\nWould create ~/.cursor/skills/loopsctl/SKILL.md (cursor)\n');
    expect(existsSync(join(dir, '.claude', 'skills'))).toBe(false);
    const named = await run(['skill', 'install', '--dry-run', '--agent', 'codex', '--agent', `dir=${join(dir, 'project', '.claude', 'skills')}`, '--json'], {
      env: { HOME: dir },
    });
    expect(named.json()).toEqual([
      { agent: 'codex', path: skillAt(dir, '.agents', 'skills'), action: 'create', written: false },
      { agent: 'dir', path: skillAt(dir, 'project', '.claude', 'skills'), action: 'create', written: false },
    ]);
  });

  it('installs, leaves an untouched copy as it is, updates an older one, and keeps a changed one without --force', async () => {
    const dir = home('.claude');
    const installed = skillAt(dir, '.claude', 'skills');
    const shown = '~/.claude/skills/loopsctl/SKILL.md';
    expect((await run(['skill', 'install'], { env: { HOME: dir } })).stdout).toBe(`Created ${shown} (claude)\n`);
    const text = readFileSync(installed, 'utf8');
    expect(text.startsWith(SHIPPED)).toBe(true);
    expect((await run(['skill', 'install'], { env: { HOME: dir } })).stdout).toBe(`Up to date: ${shown} (claude)\n`);

    // A copy an older loopsctl installed, left as it was: brought up to date.
    const older = 'an older skill\n';
    writeFileSync(installed, text.replace(SHIPPED, older).replace(/sha256:[0-9a-f]+/, `sha256:${await sha256(older)}`));
    expect((await run(['skill', 'install'], { env: { HOME: dir } })).stdout).toBe(`Updated ${shown} (claude)\n`);
    expect(readFileSync(installed, 'utf8')).toBe(text);

    // A copy the person changed: kept, and nothing is written, unless --force.
    writeFileSync(installed, `${text}\nMy own notes.\n`);
    const refused = await run(['skill', 'install', '--agent', 'claude', '--agent', 'cursor'], { env: { HOME: dir } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${installed} was changed since loopsctl installed it; nothing was written`);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(installed, 'utf8')).toContain('My own notes.');
    expect(existsSync(skillAt(dir, '.cursor', 'skills'))).toBe(false);
    const forced = await run(['skill', 'install', '--force'], { env: { HOME: dir } });
    expect(forced.stdout).toBe(`Replaced ${shown} (claude)\n`);
    expect(readFileSync(installed, 'utf8')).toBe(text);
  });

  it('asks for an agent when none is found, and refuses one it does not know', async () => {
    const dir = home();
    const none = await run(['skill', 'install'], { env: { HOME: dir } });
    expect(none).toMatchObject({ code: 2, stderr: expect.stringContaining('--agent claude, codex, cursor or dir=<path>') });
    const unknown = await run(['skill', 'install', '--agent', 'emacs'], { env: { HOME: dir } });
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('not an agent loopsctl knows') });
  });
});

async function sha256(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(text).digest('hex');
}
