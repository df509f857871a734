/**
 * The command reference (docs/commands/*.md, man/*.1 and package.json's "man"), and the tables
 * made from the declarations in docs/agents.md and docs/development.md, are what `npm run docs`
 * makes: a declaration changed without running it fails here.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableStart, withCapabilityTables } from '../../../src/build/capability-tables.js';
import { HAND_WRITTEN_END, HAND_WRITTEN_START, manPageList, referenceFiles, writtenReference } from '../../../src/build/reference.js';
import { handler } from '../../../src/core/capabilities.js';
import { command, group, type Spec } from '../../../src/core/declare.js';
import { GLOBAL_OPTIONS } from '../../../src/core/program.js';

const root = resolve(import.meta.dirname, '../../..');
const reference = await writtenReference(root);

describe('the committed reference', () => {
  it.each(Object.keys(reference.files))('%s is up to date (run `npm run docs`)', (path) => {
    expect(readFileSync(resolve(root, path), 'utf8')).toBe(reference.files[path]);
  });

  it('has no page left from a command that is gone', () => {
    expect(reference.stale).toEqual([]);
  });

  it("is installed with the package: package.json's man lists every man page, and files holds them", () => {
    const packageJson = readFileSync(resolve(root, 'package.json'), 'utf8');
    expect(packageJson).toBe(reference.packageJson);
    const { man, files } = JSON.parse(packageJson) as { man: string[]; files: string[] };
    expect(man).toContain('./man/loopsctl.1');
    expect(man).toContain('./man/loopsctl-themes-list.1');
    expect(files).toContain('man');
  });
});

describe('the man pages as man shows them', () => {
  it("end each group's summary before its See line, which goes on a line of its own", () => {
    const lines = reference.files['man/loopsctl.1']!.split('\n');
    const sees = lines.flatMap((line, index) => (line.startsWith('See \\fBloopsctl') ? [index] : []));
    expect(sees.length).toBeGreaterThan(10);
    for (const index of sees) {
      expect(lines[index - 1]).toBe('.br');
      expect(lines[index - 2]).toMatch(/\.$/);
    }
  });

  it('docs/output.md describes every global option', () => {
    const table = readFileSync(resolve(root, 'docs/output.md'), 'utf8');
    for (const { flags } of GLOBAL_OPTIONS) expect(table, flags).toContain(`| \`${flags}\``);
  });

  it("name every global option on each command's page", () => {
    const page = reference.files['man/loopsctl-themes-list.1']!;
    for (const { flags } of GLOBAL_OPTIONS)
      expect(page).toContain(
        flags
          .replace(/ <.*>$/, '')
          .replace(/^-\w, /, '')
          .replace(/-/g, '\\-'),
      );
  });
});

describe("docs/development.md's tables of capabilities", () => {
  it('are remade between their markers, the prose around them kept', async () => {
    const page = `prose\n${tableStart('capabilities')}\nold\n<!-- /capabilities -->\nmore\n${tableStart('capabilities by area')}\nold\n<!-- /capabilities by area -->\n`;
    const made = await withCapabilityTables(page, [group({ name: 'things', summary: 'Things', examples: [], commands: [] })]);
    expect(made).not.toContain('old');
    expect(made).toMatch(/^prose\n<!-- capabilities: [^\n]*-->\n\| capability \| the command \| what it is handed \|\n[\s\S]*\nmore\n/);
    expect(made).toContain('| area | commands | client |');
  });

  it('are refused when a table has lost its markers', async () => {
    await expect(withCapabilityTables('prose without tables\n', [])).rejects.toThrow(/lost the markers of its table of capabilities/);
  });
});

describe('making the reference', () => {
  const spec = (extra: boolean): Spec[] => [
    group({
      name: 'things',
      summary: 'Things: list',
      examples: [],
      commands: [
        command({
          name: 'list',
          summary: 'List things',
          options: extra ? [{ flags: '--colour <name>', description: 'only things of this colour' }] : [],
          examples: ['loopsctl things list'],
          remote: true,
          tier: 'read',
          load: async () => handler([], async () => {}),
        }),
        command({
          name: 'check',
          summary: 'Check things',
          mismatch: 'a thing is wrong',
          examples: [],
          remote: false,
          load: async () => handler([], async () => {}),
        }),
      ],
    }),
  ];
  const prose = `${HAND_WRITTEN_START}\n\nThings are *kept* as written.\n\n${HAND_WRITTEN_END}`;
  const read = (path: string) => (path === 'docs/commands/things.md' ? `# old\n\n${prose}\n\nold reference\n` : undefined);

  it('keeps the hand-written part and remakes the rest', () => {
    const page = referenceFiles(spec(false), '1.0.0', read).get('docs/commands/things.md')!;
    expect(page).toContain(prose);
    expect(page).not.toContain('old reference');
    expect(page).toContain('```\nloopsctl things list\n```');
  });

  it('changes when a declaration does, in the page and the man page', () => {
    const before = referenceFiles(spec(false), '1.0.0', read);
    const after = referenceFiles(spec(true), '1.0.0', read);
    expect(after.get('docs/commands/things.md')).not.toBe(before.get('docs/commands/things.md'));
    expect(after.get('docs/commands/things.md')).toContain('| `--colour <name>` | only things of this colour |');
    expect(after.get('man/loopsctl-things-list.1')).toContain('.B \\-\\-colour <name>');
    expect(before.get('man/loopsctl-things-list.1')).not.toContain('colour');
  });

  it('gives each command its exit codes: the API failures for a remote one, 1 where a check can fail', () => {
    const files = referenceFiles(spec(false), '1.0.0', read);
    const page = files.get('docs/commands/things.md')!;
    expect(page).toContain('Exit codes: 0, 2, 3, 4, 5, 6, 7, 8, 9, 70, 74, 130');
    expect(page).toContain('Exit codes: 0, 1 (a thing is wrong), 2, 70, 74, 130');
    expect(manPageList(files)).toEqual(['./man/loopsctl.1', './man/loopsctl-things.1', './man/loopsctl-things-list.1', './man/loopsctl-things-check.1']);
  });

  it('refuses a page whose markers were lost, rather than drop its prose', () => {
    expect(() => referenceFiles(spec(false), '1.0.0', () => '# things\n\nprose without markers\n')).toThrow(/hand-written markers/);
  });
});
