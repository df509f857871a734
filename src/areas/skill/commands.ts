/**
 * What the `skill` commands do: print the shipped SKILL.md, or write it where agents read skills.
 * An installed copy ends with a line holding the checksum of what loopsctl wrote, so a later
 * install can tell a copy left as it was (brought up to date) from one the person changed (kept,
 * unless --force).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { builtinModule } from '../../base/builtin.js';
import { LocalFileError, UsageError } from '../../base/errors.js';
import { VERSION } from '../../base/version.js';
import { type Handler, handler } from '../../core/capabilities.js';
import type { Runtime } from '../../core/runtime.js';
import { skillFile } from './file.js';

/** Where each agent reads a user's skills, below the home directory; and the folder that shows it is installed. */
export const AGENTS = {
  claude: { skills: ['.claude', 'skills'], home: ['.claude'] },
  codex: { skills: ['.agents', 'skills'], home: ['.codex'] },
  cursor: { skills: ['.cursor', 'skills'], home: ['.cursor'] },
} as const;

type AgentName = keyof typeof AGENTS;

export interface Target {
  agent: string;
  path: string;
}

export type Action = 'create' | 'update' | 'unchanged' | 'replace' | 'keep';

export const show: Handler = handler(['out'], async (context) => {
  await context.out.write(shippedSkill());
});

export const install: Handler<[], { agent?: string[]; dryRun?: boolean; force?: boolean }> = handler(
  ['out', 'files', 'env'],
  async (context, _args, options) => {
    const { runtime, out } = context;
    const home = homeDirectory(runtime);
    const targets = (options.agent ?? foundAgents(home)).map((agent) => targetOf(agent, home));
    const skill = installedText(shippedSkill());
    const plan = targets.map((target) => ({ ...target, action: actionFor(target.path, skill, options.force === true) }));
    const kept = plan.filter(({ action }) => action === 'keep');
    if (kept.length > 0 && !options.dryRun) {
      throw new LocalFileError(
        `${kept.map(({ path }) => path).join(', ')} ${kept.length === 1 ? 'was' : 'were'} changed since loopsctl installed ${kept.length === 1 ? 'it' : 'them'}; nothing was written`,
        {
          hint: 'pass --force to replace the changed copy (its changes are lost), or move it away first',
        },
      );
    }
    if (!options.dryRun) for (const { path, action } of plan) if (action !== 'unchanged') writeAtomically(path, skill);
    const rows = plan.map(({ agent, path, action }) => ({ agent, path, action, written: !options.dryRun && action !== 'unchanged' && action !== 'keep' }));
    // Paths below the home directory are shown from ~, so that a line fits the terminal.
    const shown = (path: string) => (path.startsWith(`${home}${sep}`) ? `~${path.slice(home.length)}` : path);
    await out.present(rows, () =>
      rows.map(({ agent, path, action }) => `${options.dryRun ? wouldSay[action] : didSay[action]} ${shown(path)} (${agent})\n`).join(''),
    );
  },
);

const didSay: Record<Action, string> = { create: 'Created', update: 'Updated', replace: 'Replaced', unchanged: 'Up to date:', keep: 'Kept' };
const wouldSay: Record<Action, string> = {
  create: 'Would create',
  update: 'Would update',
  replace: 'Would replace (--force)',
  unchanged: 'Up to date:',
  keep: 'Would keep (changed; --force replaces it)',
};

function shippedSkill(): string {
  return readFileSync(skillFile(), 'utf8');
}

/** The skill as installed: the shipped text, then a line with its checksum. */
export function installedText(shipped: string): string {
  return `${shipped}\n<!-- installed by loopsctl ${VERSION}; sha256:${sha256(shipped)} -->\n`;
}

/** What an install does to the file at path. */
export function actionFor(path: string, skill: string, force: boolean): Action {
  if (!existsSync(path)) return 'create';
  const current = readFileSync(path, 'utf8');
  if (current === skill) return 'unchanged';
  return leftAsInstalled(current) ? 'update' : force ? 'replace' : 'keep';
}

/** An installed copy whose text still has the checksum its last line records. */
function leftAsInstalled(text: string): boolean {
  const match = /\n<!-- installed by loopsctl [^;]*; sha256:([0-9a-f]{64}) -->\n$/.exec(text);
  return match !== null && sha256(text.slice(0, match.index)) === match[1];
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function targetOf(agent: string, home: string): Target {
  if (agent.startsWith('dir=')) {
    const dir = agent.slice(4);
    if (dir === '') throw new UsageError('--agent dir= needs a path: dir=<path>');
    return { agent: 'dir', path: join(resolve(dir), 'loopsctl', 'SKILL.md') };
  }
  if (!Object.hasOwn(AGENTS, agent))
    throw new UsageError(`--agent ${agent}: not an agent loopsctl knows`, { hint: 'use claude, codex, cursor, or dir=<path> for any other folder of skills' });
  return { agent, path: join(home, ...AGENTS[agent as AgentName].skills, 'loopsctl', 'SKILL.md') };
}

/** The agents whose folder is in the home directory. */
function foundAgents(home: string): string[] {
  const found = (Object.keys(AGENTS) as AgentName[]).filter(
    (agent) => existsSync(join(home, ...AGENTS[agent].home)) || existsSync(join(home, ...AGENTS[agent].skills)),
  );
  if (found.length === 0) throw new UsageError(`found no agent's folder in ${home}`, { hint: 'name one: --agent claude, codex, cursor or dir=<path>' });
  return found;
}

function homeDirectory(runtime: Pick<Runtime, 'platform' | 'env'>): string {
  return (runtime.platform === 'win32' ? runtime.env.USERPROFILE : runtime.env.HOME) || builtinModule('node:os').homedir();
}

/** Whole or not at all: a temporary file beside it, renamed over it. */
function writeAtomically(path: string, text: string): void {
  const dir = resolve(path, '..');
  mkdirSync(dir, { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
