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
  load: () => Promise<{ register(group: Command): void }>;
}

export const commandGroups: CommandGroup[] = [
  { name: 'transactional', summary: 'Transactional emails: list, metrics, drafts, create', load: () => import('./transactional.js') },
  { name: 'groups', aliases: ['transactional-groups'], summary: 'Transactional groups', load: () => import('./groups.js') },
  { name: 'campaign-groups', summary: 'Campaign groups: list, show, rename', load: () => import('./campaign-groups.js') },
  { name: 'workflow', aliases: ['workflows'], summary: 'Workflows and their graphs (alpha API)', load: () => import('./workflows.js') },
  { name: 'themes', summary: 'Email themes', load: () => import('./themes.js') },
  { name: 'segments', summary: 'Audience segments', load: () => import('./segments.js') },
  { name: 'ips', summary: 'Dedicated sending IP addresses', load: () => import('./ips.js') },
  { name: 'auth', summary: 'Log in, check and log out API keys', load: () => import('./auth.js') },
  { name: 'sandbox', summary: 'Run a local emulator of the Loops API, with seed data', load: () => import('./sandbox.js') },
];

export function findGroup(name: string | undefined): CommandGroup | undefined {
  return commandGroups.find((group) => group.name === name || group.aliases?.includes(name ?? ''));
}
