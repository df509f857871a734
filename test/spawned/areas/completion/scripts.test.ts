import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { powershellScript } from '../../../../src/areas/completion/powershell.js';
import { specs } from '../../../../src/areas/registry.js';
import { needs } from '../../../support/programs.js';
import { runCli } from '../../../support/run-cli.js';
import { tempDir } from '../../../support/temp.js';

const zsh = needs('zsh');
const fish = needs('fish');
const pwsh = needs('pwsh');
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
const FLAGS = [
  '--json',
  '--profile',
  '--base-url',
  '--timeout',
  '--debug',
  '--no-color',
  '--format',
  '--cidr',
  '--plain',
  '--tolerance',
  '--body-file',
  '--secret',
  '--per-page',
  '--limit',
  '--cursor',
  '--dry-run',
  '--allow-writes',
  '--expect-team',
];

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish', 'powershell']) {
    const result = await runCli(['completion', shell]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    scripts[shell] = result.stdout;
    writeFileSync(join(dir, shell), result.stdout);
  }
});

/** Runs the bash completion function on a command line as typed; the last word is being completed. */
function complete(...words: string[]): string[] {
  return completeWithFallback(...words).offered;
}

/**
 * The same, and whether bash may still fall back to file names: `compopt +o default`, which turns
 * the fallback off, is recorded by a stand-in (the real one works only while bash completes a line).
 */
function completeWithFallback(...words: string[]): { offered: string[]; files: boolean } {
  const program = `source ${join(dir, 'bash')}
files=yes; compopt() { [ "$*" = "+o default" ] && files=no; }
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}
__loopsctl_complete; printf '%s\\n' "files=$files" "\${COMPREPLY[@]}"`;
  const [files, ...offered] = execFileSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return { offered, files: files === 'files=yes' };
}

describe('completion scripts', () => {
  it.each(['bash', 'zsh', 'fish', 'powershell'])('%s: names every command and flag', (shell) => {
    for (const [, commands] of EXPECTED) for (const command of commands) expect(scripts[shell]).toContain(command);
    for (const flag of FLAGS) expect(scripts[shell]).toContain(shell === 'fish' ? `-l ${flag.slice(2)}` : flag);
  });

  it('bash: file names only where a file goes, never for an id or a flag such as --email', () => {
    expect(completeWithFallback('loopsctl', 'contacts', 'find', '--email', '')).toEqual({ offered: [], files: false });
    expect(completeWithFallback('loopsctl', 'workflow', 'show', '')).toEqual({ offered: [], files: false });
    expect(completeWithFallback('loopsctl', 'themes', 'get', 'c')).toEqual({ offered: [], files: false });
    expect(completeWithFallback('loopsctl', 'segments', 'create', '--filter-file', '')).toEqual({ offered: [], files: true });
    expect(completeWithFallback('loopsctl', 'ips', 'check', '')).toEqual({ offered: [], files: true });
  });

  it('fish: a value flag other than a file offers no file names; a file flag does', () => {
    expect(scripts.fish).toMatch(/-l email -x -d /);
    expect(scripts.fish).toMatch(/-l filter-file -r -F -d /);
  });

  it('powershell: one entry per command path, with its subcommands, aliases, flags and choices', () => {
    const script = scripts.powershell!;
    expect(script).toContain("Register-ArgumentCompleter -Native -CommandName 'loopsctl'");
    for (const [group, commands] of EXPECTED) {
      const entry = new RegExp(`^  '${group}' = @\\{ 'Commands' = @\\((.*?)\\); 'Resolve'`, 'm').exec(script);
      expect(entry, group).not.toBeNull();
      for (const command of commands.filter((name) => name !== 'help' || group === '')) expect(entry![1]).toContain(`@('${command}', `);
    }
    expect(script).toContain("'workflows' = 'workflow'");
    expect(script).toMatch(/^ {2}'workflow show' = @\{.*'Choices' = @\{ '--format' = @\('tree', 'mermaid', 'dot'\)/m);
    expect(script).toMatch(/^ {2}'workflow show' = @\{.*'Ids' = 'workflows' \}$/m);
    // Typographic single quotes are quotes to PowerShell: doubled inside its strings, as ' is.
    const tree = {
      name: 'loopsctl',
      aliases: [],
      description: '',
      commands: [],
      options: [{ names: ['--key'], takesValue: false, takesFile: false, choices: [], description: "the team’s 'own' key" }],
    };
    expect(powershellScript(tree)).toContain("@('--key', 'the team’’s ''own'' key')");
  });

  it.skipIf(pwsh.skip)(pwsh.title('powershell: completes when pwsh runs it'), () => {
    const line = (text: string) =>
      execFileSync(
        'pwsh',
        [
          '-NoProfile',
          '-Command',
          `. ${join(dir, 'powershell')}; (TabExpansion2 -inputScript '${text}' -cursorColumn ${text.length}).CompletionMatches.CompletionText`,
        ],
        { encoding: 'utf8' },
      )
        .split('\n')
        .map((entry) => entry.trim())
        .filter(Boolean);
    expect(line('loopsctl wo')).toEqual(['workflow']);
    expect(line('loopsctl workflow show x --format m')).toEqual(['mermaid']);
    expect(line('loopsctl ips list --c')).toEqual(['--cidr']);
  });

  it('bash: offers the global flags and their values under every command, from one list of them', () => {
    expect(complete('loopsctl', 'ips', 'list', '--pro').sort()).toEqual(['--profile', '--proxy']);
    expect(complete('loopsctl', 'themes', 'list', '--output', '')).toEqual(['json', 'text']);
    expect(complete('loopsctl', 'workflow', 'nodes', 'get', '-o', 'j')).toEqual(['json']);
    // A global flag's value is not taken for a command, below the top level too.
    expect(complete('loopsctl', 'ips', '--profile', 'list', '')).toEqual(expect.arrayContaining(['list', 'check']));
    expect(complete('loopsctl', 'ips', 'list', '--profile', 'work', '--c')).toEqual(['--cidr']);
    // Said once for all commands, not once for each: a shell reads the whole script at every start.
    const named = (flag: string) => scripts.bash!.split(new RegExp(`(?<=[ ('])${flag}(?=[ )'])`)).length - 1;
    expect(named('--expect-team')).toBe(4);
    expect(named('--cidr')).toBeLessThanOrEqual(4);
  });

  it.skipIf(zsh.skip)(zsh.title("zsh: looks up a command's own flags, then the global ones, with their values"), () => {
    const lookup = (call: string) =>
      execFileSync('zsh', ['-f', '-c', `source ${join(dir, 'zsh')} 2>/dev/null; ${call}`], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
    const options = lookup("__loopsctl_options 'ips list'");
    expect(options).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--cidr:/), expect.stringMatching(/^--profile:/), expect.stringMatching(/^--output:/)]),
    );
    expect(options.filter((line) => line.startsWith('--profile:'))).toHaveLength(1);
    expect(lookup("__loopsctl_options ''")).toEqual(expect.arrayContaining([expect.stringMatching(/^--version:/)]));
    expect(lookup("__loopsctl_options 'ips list'").some((line) => line.startsWith('--version:'))).toBe(false);
    expect(lookup(`print -r -- " $(__loopsctl_value_options 'workflow show') "`)[0]).toMatch(/ --format .* --profile /);
    expect(lookup("__loopsctl_choices 'themes list' --output")).toEqual(['json', 'text']);
    // A word names a command as itself or by an alias, and nothing else.
    expect(lookup("__loopsctl_resolve '' workflows; __loopsctl_resolve 'transactional' ls; __loopsctl_resolve 'transactional' send")).toEqual([
      'workflow',
      'list',
      'send',
    ]);
    expect(lookup("__loopsctl_resolve 'transactional' nope; __loopsctl_resolve 'nope' list")).toEqual([]);
  });

  it('bash: is valid syntax', () => {
    expect(spawnSync('bash', ['-n', join(dir, 'bash')]).status).toBe(0);
  });

  it.skipIf(zsh.skip)(zsh.title('zsh: is valid syntax'), () => {
    expect(spawnSync('zsh', ['-n', join(dir, 'zsh')]).status).toBe(0);
  });

  it.skipIf(fish.skip)(fish.title('fish: is valid syntax'), () => {
    expect(spawnSync('fish', ['--no-execute', join(dir, 'fish')]).status).toBe(0);
  });

  it.skipIf(fish.skip)(fish.title('fish: completes groups, subcommands and flags as typed'), () => {
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

  it('bash: after help, the commands of the group it follows, the topics at the top, and no file names', () => {
    expect(completeWithFallback('loopsctl', 'help', '')).toEqual({
      offered: expect.arrayContaining(['workflow', 'themes', 'environment', 'exit-codes']),
      files: false,
    });
    expect(complete('loopsctl', 'help', 'ex')).toEqual(['exit-codes']);
    expect(complete('loopsctl', '--sandbox', 'help', 'env')).toEqual(['environment']);
    expect(complete('loopsctl', 'help', 'workflow', 'sh')).toEqual(['show']);
    expect(complete('loopsctl', 'workflows', 'help', '')).toEqual(expect.arrayContaining(['list', 'show', 'set-list']));
    // A group's help has no topics.
    expect(complete('loopsctl', 'workflow', 'help', 'ex')).toEqual([]);
  });

  it.skipIf(zsh.skip)(zsh.title('zsh: after help, the commands of the group it follows and the topics at the top'), () => {
    const zshComplete = (...words: string[]) => {
      // Stand-ins for compsys print what they are given.
      const driver = `compdef() { :; }
source ${join(dir, 'zsh')}
_describe() { local name=$4; print -rl -- "\${(@P)name}"; }
_files() { print FILES; }
words=(${words.map((word) => `'${word}'`).join(' ')}); CURRENT=${words.length}
_loopsctl`;
      return execFileSync('zsh', ['-f', '-c', driver], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(':')[0]);
    };
    expect(zshComplete('loopsctl', 'help', '')).toEqual(expect.arrayContaining(['workflow', 'environment', 'exit-codes']));
    expect(zshComplete('loopsctl', 'help', '')).not.toContain('FILES');
    expect(zshComplete('loopsctl', 'help', 'workflow', '')).toEqual(expect.arrayContaining(['list', 'show']));
    expect(zshComplete('loopsctl', 'workflow', 'help', '')).not.toContain('exit-codes');
  });

  it.skipIf(fish.skip)(fish.title('fish: after help, the commands of the group it follows and the topics at the top'), () => {
    const fishComplete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${join(dir, 'fish')}; complete -C '${line}'`], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0]);
    expect(fishComplete('loopsctl help ')).toEqual(expect.arrayContaining(['workflow', 'themes', 'environment', 'exit-codes']));
    expect(fishComplete('loopsctl help ex')).toEqual(['exit-codes']);
    expect(fishComplete('loopsctl help workflow ').sort()).toEqual(['create', 'delete', 'list', 'nodes', 'set-list', 'show', 'test', 'update']);
    expect(fishComplete('loopsctl workflow help ').sort()).toEqual(['create', 'delete', 'list', 'nodes', 'set-list', 'show', 'test', 'update']);
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
    // The places of `open`, and the options every write takes.
    expect(complete('loopsctl', 'open', 'a').sort()).toEqual(['api-keys', 'audience']);
    expect(complete('loopsctl', 'themes', 'create', '--dry')).toEqual(['--dry-run']);
    expect(complete('loopsctl', 'themes', 'list', '--dry')).toEqual([]);
    expect(complete('loopsctl', 'webhooks', 'verify', '--t').sort()).toEqual(['--timeout', '--timestamp', '--tolerance']);
    // The value of --profile is not taken for a command; file arguments are left to bash's default.
    expect(complete('loopsctl', '--profile', 'ips', '')).toEqual(expect.arrayContaining(['transactional', 'ips']));
    expect(complete('loopsctl', 'ips', 'check', '')).toEqual([]);
  });
});
