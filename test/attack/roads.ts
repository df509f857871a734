/**
 * The roads an operation can take, declared against the command tree: each command that may write
 * (every one the declarations mark remote and above the read tier) with the operations it makes
 * and its words for a target, and the roads that are not one command's (`api`, plans, undo,
 * restore, clone, previews sent with a review), each walked by a file of its own. A command the
 * tree gains fails the suite (coverage.test.ts) until it is declared here; its MCP tools at each
 * tier and `run_command` are derived from it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specs } from '../../src/areas/registry.js';
import { type CommandSpec, longFlag, walkSpecs } from '../../src/core/declare.js';
import { words } from '../support/shell-words.js';
import type { Ids } from './arena.js';

/** What a command's words are made of: the target's ids, and where a file it names is. */
export interface Place extends Ids {
  file(name: string): string;
}

/** How an attack runs a command for an operation: its words after the command's own. */
export type Words = (place: Place) => string[];

/** A command's operations: its words for each, or `example` for one whose operations reach no one (its example is run dry by coverage.test.ts). */
export type CommandEntry = Record<string, Words | 'example'>;

const SCHEDULE = '2031-01-06T09:00:00Z';

export const COMMANDS: Record<string, CommandEntry> = {
  'transactional draft': { ensureTransactionalDraft: 'example' },
  'transactional create': { createTransactionalEmail: 'example' },
  'transactional update': { updateTransactionalEmail: 'example' },
  'transactional publish': { publishTransactionalEmail: (at) => [at.transactional] },
  'transactional send': {
    sendTransactionalEmail: (at) => [
      at.transactional,
      ...words('--to ada@example.com --var firstName=Ada --var resetUrl=https://example.com/r/1 --var expiresInMinutes:=30'),
    ],
  },
  'email-messages update': { updateEmailMessage: (at) => [at.message, '--subject', 'Changed by an attack', '--force'] },
  'email-messages preview': { previewEmailMessage: (at) => [at.message, '--to', 'alex@example.com'] },
  'uploads create': { createUpload: 'example', completeUpload: 'example' },
  'groups create': { createTransactionalGroup: 'example' },
  'groups update': { updateTransactionalGroup: 'example' },
  // A schedule sends: its option is the person's yes, which no tool call below the destructive tier may give.
  'campaigns create': { createCampaign: () => ['--name', 'Attack', '--schedule', SCHEDULE] },
  'campaigns update': { updateCampaign: (at) => [at.campaign, '--list', 'none'] },
  'campaign-groups create': { createCampaignGroup: 'example' },
  'campaign-groups update': { updateCampaignGroup: 'example' },
  'components create': { createComponent: 'example' },
  'components update': { updateComponent: (at) => [at.component, '--lmx-file', at.file('component.lmx')] },
  'workflow create': { createWorkflow: 'example' },
  'workflow update': { updateWorkflowProperties: 'example' },
  'workflow set-list': { changeWorkflowMailingList: (at) => [at.workflow, at.list] },
  'workflow delete': { deleteWorkflow: (at) => [at.workflow, '--force'] },
  'workflow nodes add': { createWorkflowNode: (at) => [at.workflow, '--type', 'TimerAction', '--between', at.filter, at.experiment] },
  'workflow nodes update': { updateWorkflowNode: (at) => [at.workflow, at.experiment, '--set', 'samplingRate:=30'] },
  'workflow nodes reroute': { rerouteNodeConnection: (at) => [at.workflow, at.control, '--to', at.send] },
  'workflow nodes add-branch': { addWorkflowBranch: (at) => [at.workflow, at.experiment] },
  'workflow nodes delete': {
    deleteWorkflowNode: (at) => [at.workflow, at.send],
    deleteWorkflowNodeRecursively: (at) => [at.workflow, at.variant, '--recursive'],
  },
  'themes create': { createTheme: 'example' },
  'themes update': { updateTheme: (at) => [at.theme, '--style', 'buttonBodyColor=#ff0000'] },
  'segments create': { createAudienceSegment: 'example' },
  'contacts create': { createContact: () => ['--email', 'alan@example.com', '--first-name', 'Alan'] },
  'contacts update': { updateContact: () => ['--email', 'ada@example.com', '--prop', 'seats:=15'] },
  'contacts delete': { deleteContact: () => ['--email', 'margaret@example.com'] },
  'contacts suppression remove': { removeContactSuppression: () => ['--email', 'linus@example.com'] },
  'contacts import': { createContact: (at) => [at.file('contacts.csv')] },
  'contact-properties create': { createContactProperty: 'example' },
  'events send': { sendEvent: () => ['trial_started', '--email', 'ada@example.com'] },
  'events import': { sendEvent: (at) => [at.file('events.jsonl')] },
};

/** The files the commands' words name, written into the root of the MCP server (and found there by the CLI). */
export const FILES: Record<string, string> = {
  'contacts.csv': 'email,firstName\nalan@example.com,Alan\n',
  'events.jsonl': '{"eventName":"trial_started","email":"ada@example.com"}\n',
  'component.lmx': '<Paragraph>Changed by an attack</Paragraph>\n',
};

/** The roads that are not one command's, and the file that walks each. */
export const OTHER_ROADS: Record<string, string> = {
  api: 'api.test.ts',
  'content push': 'plans.test.ts',
  'content promote': 'plans.test.ts',
  apply: 'plans.test.ts',
  undo: 'plans.test.ts',
};

/**
 * The options that are a person's yes (of the destructive tier) which no command attack gives (as
 * its --live, or among its words: a campaign's schedule at its create), each with the file that
 * walks it: an option the tree gains fails the suite (coverage.test.ts) until it is walked.
 */
export const YES_OPTIONS: Record<string, string> = {
  'campaigns update --schedule': 'options.test.ts',
  'content push --publish': 'options.test.ts',
  'content push --live': 'plans.test.ts',
  'content promote --live': 'plans.test.ts',
  'content review --send-previews': 'plans.test.ts',
  'apply --live': 'plans.test.ts',
  'undo --live': 'plans.test.ts',
};

/** Every command of the tree that may change the account, by its words. */
export function writeCommands(): Map<string, CommandSpec> {
  return new Map(walkSpecs(specs).flatMap(({ path, spec }) => (spec.remote && spec.tier !== 'read' ? [[path.join(' '), spec] as const] : [])));
}

/** How a person says yes on a command's run: its tier, an option of the destructive tier among its words, or `--live`; none when it has no way. */
export function yesOf(spec: CommandSpec, words: string[]): 'tier' | 'words' | '--live' | undefined {
  if (spec.tier === 'destructive') return 'tier';
  const destructive = (spec.options ?? []).filter((option) => option.tier === 'destructive').map(longFlag);
  if (words.some((word) => destructive.includes(word) && word !== '--live')) return 'words';
  return destructive.includes('--live') ? '--live' : undefined;
}

/** The command's words as a CLI run gives them: its own, then --yes where it asks on a terminal (a person at one means it). */
export function argvOf(path: string, spec: CommandSpec, words: string[], yes: boolean): string[] {
  const asks = (spec.options ?? []).some((option) => longFlag(option) === '--yes');
  return [...path.split(' '), ...words, ...(yes ? ['--live'] : []), ...(asks ? ['--yes'] : [])];
}

/** The command's words as a tool's input: its arguments by name, its options by their long flag (files relative to the server's root). */
export function inputOf(spec: CommandSpec, words: string[], root: string): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const args = [...(spec.args ?? [])];
  const relative = (word: string) => (word.startsWith(`${root}/`) ? word.slice(root.length + 1) : word);
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const option = word.startsWith('--') ? (spec.options ?? []).find((each) => longFlag(each) === word) : undefined;
    if (option === undefined) {
      const arg = args[0]!;
      if (arg.variadic) input[arg.name] = [...((input[arg.name] as string[] | undefined) ?? []), relative(word)];
      else {
        input[arg.name] = relative(word);
        args.shift();
      }
      continue;
    }
    const key = word.slice(2);
    // A file a tool takes in the call itself (an LMX body): its text, under the input's name.
    const inline = option.file?.inline;
    if (inline?.encoding === 'text') {
      input[inline.name] = readFileSync(words[++index]!, 'utf8');
      continue;
    }
    if (!/[<[]/.test(option.flags)) {
      input[key] = true;
      continue;
    }
    if (option.flags.includes('...')) {
      const values: string[] = [];
      while (index + 1 < words.length && !words[index + 1]!.startsWith('--')) values.push(words[++index]!);
      input[key] = values;
    } else if (option.repeatable) input[key] = [...((input[key] as string[] | undefined) ?? []), words[++index]!];
    else input[key] = words[++index]!;
  }
  return input;
}

/** A file's path for the CLI (under the root) and for a tool (relative to it). */
export function placeOf(ids: Ids, root: string): Place {
  return { ...ids, file: (name) => join(root, name) };
}

/** The record whose path an operation's request names, for the attack's check that the call went through. */
export function recordOf(operation: string, ids: Ids): string | undefined {
  if (operation === 'updateEmailMessage' || operation === 'previewEmailMessage') return ids.message;
  if (operation === 'updateCampaign') return ids.campaign;
  if (operation === 'publishTransactionalEmail') return ids.transactional;
  if (operation === 'updateComponent') return ids.component;
  if (operation === 'updateTheme') return ids.theme;
  if (/Workflow|NodeConnection/.test(operation)) return ids.workflow;
  return undefined;
}
