import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { specs } from '../../src/areas/registry.js';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/temp.js';

const hasShell = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const dir = tempDir('loopsctl-completion-');
const scripts: Record<string, string> = {};

// Every group, subcommand and flag the completion must offer, as a user sees them in help.
/** Each group with its subcommands, and the top level with every group: from the declarations. */
const EXPECTED: [string, string[]][] = [
  ['', [...specs.map((spec) => spec.name), 'help']],
  ...specs.flatMap((spec): [string, string[]][] =>
    spec.kind === 'group' ? [[spec.name, spec.commands.filter((command) => command.kind === 'group' || !command.hidden).map((command) => command.name)]] : [],
  ),
];
const FLAGS = ['--json', '--profile', '--base-url', '--timeout', '--debug', '--no-color', '--format', '--cidr', '--plain', '--tolerance', '--body-file', '--secret', '--per-page', '--limit', '--cursor'];

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    scripts[shell] = result.stdout;
    writeFileSync(join(dir, shell), result.stdout);
  }
});

/** Runs the bash completion function on a command line as typed; the last word is being completed. */
function complete(...words: string[]): string[] {
  const program = `source ${join(dir, 'bash')}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}
__loopsctl_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('completion scripts', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: names every command and flag', (shell) => {
    for (const [, commands] of EXPECTED) for (const command of commands) expect(scripts[shell]).toContain(command);
    for (const flag of FLAGS) expect(scripts[shell]).toContain(shell === 'fish' ? `-l ${flag.slice(2)}` : flag);
  });

  it('bash: is valid syntax', () => {
    expect(spawnSync('bash', ['-n', join(dir, 'bash')]).status).toBe(0);
  });

  it.skipIf(!hasShell('zsh'))('zsh: is valid syntax', () => {
    expect(spawnSync('zsh', ['-n', join(dir, 'zsh')]).status).toBe(0);
  });

  it.skipIf(!hasShell('fish'))('fish: is valid syntax', () => {
    expect(spawnSync('fish', ['--no-execute', join(dir, 'fish')]).status).toBe(0);
  });

  it.skipIf(!hasShell('fish'))('fish: completes groups, subcommands and flags as typed', () => {
    const fishComplete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${join(dir, 'fish')}; complete -C '${line}'`], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0]);
    expect(fishComplete('loopsctl work')).toEqual(['workflow']);
    expect(fishComplete('loopsctl workflow ')).toEqual(expect.arrayContaining(['list', 'show']));
    expect(fishComplete('loopsctl themes list --per')).toEqual(['--per-page']);
    expect(fishComplete('loopsctl ips ')).toEqual(expect.arrayContaining(['list', 'check']));
  });

  it('bash: completes groups, subcommands, aliases, flags and flag values', () => {
    for (const [group, commands] of EXPECTED) {
      const typed = group === '' ? ['loopsctl', ''] : ['loopsctl', group, ''];
      expect(complete(...typed)).toEqual(expect.arrayContaining(commands));
    }
    expect(complete('loopsctl', 'wo')).toEqual(['workflow']);
    expect(complete('loopsctl', 'workflows', 'sh')).toEqual(['show']);
    expect(complete('loopsctl', '--profile', 'work', 'workflow', 'show', 'wf1', '--format', '')).toEqual(['tree', 'mermaid', 'dot']);
    expect(complete('loopsctl', 'workflow', 'show', '--format', '=', 'm')).toEqual(['mermaid']);
    expect(complete('loopsctl', 'ips', 'list', '--c')).toEqual(['--cidr']);
    expect(complete('loopsctl', 'webhooks', 'verify', '--t').sort()).toEqual(['--timeout', '--timestamp', '--tolerance']);
    // The value of --profile is not taken for a command; file arguments are left to bash's default.
    expect(complete('loopsctl', '--profile', 'ips', '')).toEqual(expect.arrayContaining(['transactional', 'ips']));
    expect(complete('loopsctl', 'ips', 'check', '')).toEqual([]);
  });
});
