/** Every command, group and leaf, explains itself with an example. */
import { describe, expect, it } from 'vitest';
import { specs } from '../../../src/areas/registry.js';
import { type Spec, walkSpecs } from '../../../src/core/declare.js';
import { GLOBAL_OPTIONS } from '../../../src/core/program.js';
import { run } from '../../support/main.js';
import { runCli } from '../../support/run-cli.js';

const leaves = [
  'transactional list',
  'transactional metrics',
  'transactional draft',
  'transactional create',
  'groups list',
  'groups get',
  'campaign-groups list',
  'campaign-groups get',
  'campaign-groups update',
  'workflow list',
  'workflow show',
  'themes list',
  'segments list',
  'ips list',
  'auth login',
  'auth status',
  'auth logout',
];
const groups = [...new Set(leaves.map((leaf) => leaf.split(' ')[0]!))];

describe('help', () => {
  it.concurrent.each([...groups, ...leaves])('`%s --help` has usage and an example', async (command) => {
    const result = await runCli([...command.split(' '), '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: loopsctl ${command}`);
    expect(result.stdout).toMatch(/Examples:\n {2}\$ loopsctl /);
  });
});

describe('help fits and finds its way', () => {
  const widest = (text: string) =>
    Math.max(
      ...text
        .trimEnd()
        .split('\n')
        .filter((line) => !line.startsWith('  $ '))
        .map((line) => line.length),
    );

  it('breaks option descriptions at words, under their options, on a 60-column terminal', async () => {
    const { code, stdout } = await run(['workflow', 'nodes', 'add', '--help'], { tty: { columns: 60 } });
    expect(code).toBe(0);
    // Every line but the examples (commands to copy whole) fits, and no word is split.
    expect(widest(stdout)).toBeLessThanOrEqual(60);
    expect(stdout).toMatch(/\n {2}--after <nodeId>\n {6}after this node, which must have exactly one outgoing\n {6}connection\n/);
  });

  it('lays help out for 80 columns on a wider terminal, as off one: the pages the build writes serve it', async () => {
    const wide = await run(['workflow', 'nodes', 'add', '--help'], { tty: { columns: 160 } });
    const piped = await run(['workflow', 'nodes', 'add', '--help']);
    expect(wide).toMatchObject({ code: 0, stdout: piped.stdout });
    expect(widest(wide.stdout)).toBeLessThanOrEqual(80);
    expect(widest(wide.stdout)).toBeGreaterThan(70);
  });

  it('wraps a bare group’s help at 80 columns on a pipe, on stdout, with exit 0', async () => {
    const { code, stdout, stderr } = await run(['workflow']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('Usage: loopsctl workflow');
    expect(widest(stdout)).toBeLessThanOrEqual(80);
    expect(stdout).toMatch(/show\|get \[options\] \[id\] +Draw a workflow's graph as a tree from its\n {30,}trigger/);
  });

  it('prints the help of bare `loopsctl` on stdout, with exit 0', async () => {
    const { code, stdout, stderr } = await run([]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('Usage: loopsctl [options] [command]');
  });

  it('describes the global options once, in `loopsctl --help`, and only names them elsewhere', async () => {
    const root = await run(['--help']);
    expect(root.stdout).toMatch(/--retries <n> +retry a failed request/);
    for (const argv of [
      ['workflow', '--help'],
      ['themes', 'list', '--help'],
    ]) {
      const { stdout } = await run(argv);
      expect(stdout).not.toContain('retry a failed request');
      const section = stdout.slice(stdout.indexOf('Global options (described in `loopsctl --help`):\n'));
      expect(section).not.toBe(stdout);
      const named = section.split('\n\n')[0]!.split('\n').slice(1).join(' ');
      expect(named.split(/,\s*/).map((flag) => flag.trim())).toEqual(GLOBAL_OPTIONS.map(({ flags }) => flags.replace(/ <.*>$/, '').replace(/^-\w, /, '')));
    }
  });

  it('says that `help` names an unknown command, with exit 2', async () => {
    const unknown = await run(['help', 'xyzzy']);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toBe("Error: unknown command 'xyzzy' for `loopsctl`\nHint: see the commands with `loopsctl --help`\n");
    const typo = await run(['help', 'workflow', 'nodse']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'nodse' for `loopsctl workflow`\nHint: did you mean nodes?");
    const known = await run(['help', 'workflow', 'nodes', 'add']);
    expect(known.code).toBe(0);
    expect(known.stdout).toContain('Usage: loopsctl workflow nodes add|create [options] <id>');
  });

  it('prints a topic of the root help alone: help exit-codes, help environment', async () => {
    const codes = await run(['help', 'exit-codes']);
    expect(codes).toMatchObject({ code: 0, stderr: '' });
    expect(codes.stdout).toMatch(/^Exit codes:\n {2}0 {4}success\n/);
    expect(codes.stdout).toContain('\n  11   a write refused before anything was sent');
    expect(codes.stdout).not.toContain('Environment:');
    const root = await run(['--help']);
    expect(root.stdout).toContain(codes.stdout);
    const environment = await run(['help', 'environment']);
    expect(environment.code).toBe(0);
    expect(environment.stdout).toMatch(/^Environment:\n {2}LOOPS_API_KEY/);
    expect(root.stdout).toContain(environment.stdout);
    const typo = await run(['help', 'exit-code']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'exit-code' for `loopsctl`\nHint: did you mean exit-codes?");
    // A topic is the root's: a group's help takes command names only.
    const nested = await run(['workflow', 'help', 'exit-codes']);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain("unknown command 'exit-codes' for `loopsctl workflow`");
  });

  it('answers a usage error with a JSON error on stderr under --json', async () => {
    for (const [argv, message] of [
      [['--json', 'help', 'foo'], "unknown command 'foo' for `loopsctl`"],
      [['workflow', '--json'], '`loopsctl workflow` needs a command'],
      [['--jq', '.', 'bogus'], "unknown command 'bogus'"],
      [['themes', 'list', '--json', '--bogus'], "unknown option '--bogus'"],
    ] as const) {
      const { code, stdout, stderr } = await run([...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(JSON.parse(stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2, message } });
    }
  });
});

describe('help text of every command', () => {
  const groupPaths = (list: Spec[], prefix: string[] = []): string[][] =>
    list.flatMap((spec) => (spec.kind === 'group' ? [[...prefix, spec.name], ...groupPaths(spec.commands, [...prefix, spec.name])] : []));
  const paths = [[], ...groupPaths(specs), ...walkSpecs(specs).map(({ path }) => path)];

  it('sets its sections apart with one blank line, and fills its prose lines at 80 columns on a pipe', async () => {
    for (const path of paths) {
      const { code, stdout } = await run([...path, '--help']);
      const command = `loopsctl ${path.join(' ')} --help`;
      expect(code, command).toBe(0);
      expect(stdout, command).not.toMatch(/\n\n\n/);
      // A prose line followed by another means the next one's first word did not fit on it.
      const lines = stdout.split('\n');
      lines.forEach((line, index) => {
        const next = lines[index + 1] ?? '';
        if (!/^\S/.test(line) || !/^\S/.test(next) || line.endsWith(':')) return;
        expect(line.length + 1 + next.split(' ')[0]!.length, `${command}: "${line}" then "${next}"`).toBeGreaterThan(80);
      });
    }
  });
});
