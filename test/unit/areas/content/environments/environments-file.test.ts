import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { environmentsOf, readEnvironments, requireEnvironments } from '../../../../../src/areas/content/shared/environments.js';

const FILE = 'loops/environments.json';

const good = {
  environments: {
    staging: { profile: 'staging', values: { appUrl: 'https://staging.example.com' }, hosts: ['*.staging.example.com'] },
    production: { profile: 'production', expectTeam: 'Acme', values: { appUrl: 'https://app.example.com' } },
  },
};

describe('environments.json', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('gives each environment with its name, profile, team, values and hosts', () => {
    const { environments, problems } = environmentsOf(FILE, JSON.stringify(good));
    expect(problems).toEqual([]);
    expect([...environments!.keys()]).toEqual(['staging', 'production']);
    expect(environments!.get('production')).toEqual({
      name: 'production',
      profile: 'production',
      expectTeam: 'Acme',
      values: { appUrl: 'https://app.example.com' },
      hosts: [],
    });
  });

  it('names the line and column where text that is not JSON breaks, never quoting it', () => {
    const { environments, problems } = environmentsOf(FILE, '{\n  "environments": {\n    "staging": { "profile": "staging", }\n  }\n}\n');
    expect(environments).toBeUndefined();
    expect(problems).toEqual([{ file: FILE, line: 3, column: 40, message: 'not valid JSON' }]);
  });

  it('lists every problem of the shape, each at its path', () => {
    const text = JSON.stringify({
      environments: {
        staging: { values: { 'app url': 'x' } },
        production: { profile: 'production', values: { appUrl: 3 }, hosts: ['https://app.example.com/'], extra: true },
      },
    });
    const messages = environmentsOf(FILE, text).problems.map((problem) => problem.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^environments\.staging\.profile: /),
        expect.stringMatching(/^environments\.staging\.values\.app url: a value's name is/),
        expect.stringMatching(/^environments\.production\.values\.appUrl: /),
        expect.stringMatching(/^environments\.production\.hosts\.0: a host pattern is/),
        expect.stringMatching(/^environments\.production: .*extra/),
      ]),
    );
    expect(messages).toHaveLength(5);
  });

  it('refuses two environments with one profile, and a file with none', () => {
    const twice = { environments: { a: { profile: 'p' }, b: { profile: 'p' } } };
    expect(environmentsOf(FILE, JSON.stringify(twice)).problems.map((problem) => problem.message)).toEqual([
      'environments.b.profile: "p" is a\'s profile too; each environment is an account of its own',
    ]);
    expect(environmentsOf(FILE, '{"environments": {}}').problems.map((problem) => problem.message)).toEqual(['environments: name at least one environment']);
  });

  it('reads nothing where the tree has no file, and stops a command (exit 2) on one with problems, naming the file and place', () => {
    const root = mkdtempSync(join(tmpdir(), 'loopsctl-env-'));
    made.push(root);
    expect(readEnvironments(root)).toEqual({ problems: [] });
    expect(requireEnvironments(root)).toBeUndefined();
    writeFileSync(join(root, 'environments.json'), '{"environments": ');
    expect(() => requireEnvironments(root)).toThrow(
      expect.objectContaining({ exitCode: 2, message: `${join(root, 'environments.json')}:1:18: not valid JSON (it ends too early)` }),
    );
  });

  it('never reads the file through a link', () => {
    const root = mkdtempSync(join(tmpdir(), 'loopsctl-env-'));
    made.push(root);
    writeFileSync(join(root, 'elsewhere.json'), JSON.stringify(good));
    symlinkSync(join(root, 'elsewhere.json'), join(root, 'environments.json'));
    expect(() => readEnvironments(root)).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringContaining('is a symbolic link') }));
  });
});
