/**
 * Every command group, registered in this one place. A group's module is imported only when the
 * group is invoked (or when all of them are needed, for help on the whole tree), so a command
 * loads only what it needs.
 */
import type { Command } from 'commander';

export interface CommandGroup {
  name: string;
  aliases?: string[];
  summary: string;
  /** Shown under Examples in the group's help. */
  examples: string[];
  load: () => Promise<{ register(group: Command): void }>;
}

export const commandGroups: CommandGroup[] = [
  { name: 'transactional', summary: 'Transactional emails: list, metrics, drafts, create', examples: ['loopsctl transactional metrics cll42l54f20i1la0lfooe3z12'], load: () => import('./transactional.js') },
  { name: 'groups', aliases: ['transactional-groups'], summary: 'Transactional groups', examples: ['loopsctl groups list'], load: () => import('./groups.js') },
  { name: 'campaign-groups', summary: 'Campaign groups: list, show, rename', examples: ['loopsctl campaign-groups update clg7n5p3q1r9s7t5u3v1w9y7 --name Newsletters'], load: () => import('./campaign-groups.js') },
  { name: 'workflow', aliases: ['workflows'], summary: 'Workflows and their graphs (alpha API)', examples: ['loopsctl workflow show clw1a3b5c7d9e1f3g5h7i9j1'], load: () => import('./workflows.js') },
  { name: 'themes', summary: 'Email themes', examples: ['loopsctl themes list'], load: () => import('./themes.js') },
  { name: 'segments', summary: 'Audience segments', examples: ['loopsctl segments list --json'], load: () => import('./segments.js') },
  { name: 'ips', summary: 'Dedicated sending IP addresses', examples: ['loopsctl ips list --plain'], load: () => import('./ips.js') },
  { name: 'auth', summary: 'Log in, check and log out API keys', examples: ['loopsctl auth login'], load: () => import('./auth.js') },
  { name: 'webhooks', summary: 'Verify and sign webhook deliveries', examples: ['loopsctl webhooks verify --id msg_1 --timestamp 1614265330 --signature "v1,..." --body-file body.json'], load: () => import('./webhooks.js') },
  { name: 'completion', summary: 'Shell completion scripts for bash, zsh and fish', examples: ['loopsctl completion bash > ~/.local/share/bash-completion/completions/loopsctl'], load: () => import('./completion.js') },
  {
    name: 'sandbox',
    summary: 'Run a local emulator of the Loops API, with seed data',
    examples: ['loopsctl sandbox --port 4010', 'eval "$(loopsctl sandbox --port 4010 | grep ^export)"', 'loopsctl sandbox --state ./sandbox.json --reset'],
    load: () => import('./sandbox.js'),
  },
];

export function findGroup(name: string | undefined): CommandGroup | undefined {
  return commandGroups.find((group) => group.name === name || group.aliases?.includes(name ?? ''));
}

/**
 * Registers the subcommands of every group that is not loaded yet, for whatever needs the whole
 * tree (completion scripts). A group not yet loaded is one with no subcommands.
 */
export async function loadAllGroups(program: Command): Promise<void> {
  for (const group of commandGroups) {
    const command = program.commands.find((candidate) => candidate.name() === group.name);
    if (command !== undefined && command.commands.length === 0) (await group.load()).register(command);
  }
}
