/**
 * Every area as a start knows it before it reads any area's declarations, in the order `--help`
 * lists them: a group by its name, aliases and summary, which is all a start that does not name it
 * declares of it, its declarations (src/areas/<area>/index.ts, in its area's bundle) loaded only
 * when a run names it; a top-level command by its declarations, which help lists with their
 * arguments. src/areas/registry.ts lists the same declarations at once, for the build and the
 * tests; test/unit/areas/directory.test.ts holds the two to the same names, aliases and summaries.
 */
import type { Spec } from '../core/declare.js';
import { spec as apply } from './apply/index.js';
import { spec as undo } from './undo/index.js';
import { spec as approve } from './approve/index.js';
import { spec as check } from './check/index.js';
import { spec as types } from './types/index.js';
import { spec as api } from './api/index.js';
import { spec as mcp } from './mcp/index.js';
import { spec as log } from './log/index.js';
import { spec as commands } from './commands/index.js';
import { spec as doctor } from './doctor/index.js';
export interface Area {
  name: string;
  aliases?: string[];
  summary: string;
  kind: Spec['kind'];
  /** Its declarations, loaded on first use. */
  declared: () => Promise<Spec>;
}

function group(name: string, summary: string, load: () => Promise<{ spec: Spec }>, aliases?: string[]): Area {
  let loaded: Promise<Spec> | undefined;
  return { name, aliases, summary, kind: 'group', declared: () => (loaded ??= load().then(({ spec }) => spec)) };
}

function known(spec: Spec): Area {
  return { name: spec.name, aliases: spec.aliases, summary: spec.summary, kind: spec.kind, declared: async () => spec };
}

export const areas: Area[] = [
  group('transactional', 'Transactional emails: list, get, metrics, drafts, create, update, publish', () => import('./transactional/index.js')),
  group('email-messages', 'Email message content: get, update (LMX in and out as files), preview, Guardian check', () => import('./email-messages/index.js'), [
    'emails',
  ]),
  group('uploads', 'Upload images for use in emails', () => import('./uploads/index.js')),
  group('groups', 'Transactional groups: list, get, create, update', () => import('./groups/index.js'), ['transactional-groups']),
  group('campaigns', 'Email campaigns: list, get, metrics, create, update', () => import('./campaigns/index.js')),
  group('campaign-groups', 'Campaign groups: list, get, create, update', () => import('./campaign-groups/index.js')),
  group('components', 'Email components (LMX): list, get, create, update', () => import('./components/index.js')),
  group('workflow', 'Workflows and their graphs: list, show, create, update, set-list, delete, nodes (alpha API)', () => import('./workflows/index.js'), [
    'workflows',
  ]),
  group('event-patterns', 'Events that start workflows, and their properties: list, get', () => import('./event-patterns/index.js')),
  group('themes', 'Email themes: list, get, create, update', () => import('./themes/index.js')),
  group(
    'content',
    'The account as code: pull emails, workflows and the audience they stand on into files, diff them, push back what changed',
    () => import('./content/index.js'),
  ),
  known(apply),
  known(undo),
  known(approve),
  known(check),
  group('migrate', "Moving from another email provider: report what an app's repository sends, and what it takes", () => import('./migrate/index.js')),
  known(types),
  group('segments', 'Audience segments: list, get, create', () => import('./segments/index.js'), ['audience-segments']),
  group('ips', 'Dedicated sending IP addresses: list, check an allow-list', () => import('./ips/index.js'), ['dedicated-sending-ips']),
  group('contacts', 'Contacts: find, create, update, delete, suppression, import', () => import('./contacts/index.js'), ['contact']),
  group('contact-properties', 'Contact properties: list, create', () => import('./contact-properties/index.js'), ['properties']),
  group('lists', 'Mailing lists: list', () => import('./lists/index.js'), ['mailing-lists']),
  group('events', 'Events that start workflows: send, import', () => import('./events/index.js'), ['event']),
  group('auth', 'Log in, list, switch and check profiles and their API keys', () => import('./auth/index.js')),
  group('open', "Open the account's pages in the Loops app in the browser: records, and what the API cannot change", () => import('./open/index.js')),
  known(api),
  group('webhooks', 'Receive, send, verify and sign webhook deliveries', () => import('./webhooks/index.js')),
  known(mcp),
  known(log),
  group('skill', "An agent skill (SKILL.md) that teaches loopsctl's safe habits: install it, or print it", () => import('./skill/index.js')),
  group('completion', 'Shell completion scripts for bash, zsh, fish and PowerShell', () => import('./completion/index.js')),
  known(commands),
  group('sandbox', 'Run a local emulator of the Loops API, with seed data; see what it would have sent', () => import('./sandbox/index.js')),
  known(doctor),
];

/** Every area's declarations, for what reads the whole tree (completion, `commands`, `mcp`, the picker). */
export function allSpecs(): Promise<Spec[]> {
  return Promise.all(areas.map((area) => area.declared()));
}
