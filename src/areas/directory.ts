/**
 * Every area as a start knows it before it reads any area's declarations, in the order `--help`
 * lists them: a group by its name, aliases and summary, which is all a start that does not name it
 * declares of it, its declarations (src/areas/<area>/index.ts, in its area's bundle) loaded only
 * when a run names it; a top-level command by its name and summary too, its declarations (which
 * help lists with their arguments) loaded with the other top-level commands' when a run reaches
 * them, so that a run naming a group first makes none. src/areas/registry.ts lists the same
 * declarations at once, for the build and the tests; test/unit/areas/directory.test.ts holds the
 * two to the same names, aliases and summaries.
 */
import type { Spec } from '../core/declare.js';
import { type RecordRow, withRecordAreas } from '../platform/whole-rows.js';
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

type TopLevel = typeof import('./top-level.js');
let topLevel: Promise<TopLevel> | undefined;

/** A top-level command: its declarations, with the other top-level commands' (src/areas/top-level.ts), loaded on first use. */
function command(name: keyof TopLevel, summary: string): Area {
  return { name, summary, kind: 'command', declared: async () => (await (topLevel ??= import('./top-level.js')))[name] };
}

/** The group of a resource described whole by its row: its words are its row's, its declarations made from the row by records/. */
function recordArea(row: RecordRow): Area {
  const { name, summary, aliases } = row.records.area;
  return group(name, summary, async () => ({ spec: (await import('./records/index.js')).recordSpec(row) }), aliases === undefined ? undefined : [...aliases]);
}

/** Every area; a resource described whole by its row (platform/operation-row.ts, RecordResource) is put in where its row says, declared by records/. */
export const areas: Area[] = withRecordAreas(
  [
    group('transactional', 'Transactional emails: list, get, metrics, drafts, create, update, publish', () => import('./transactional/index.js')),
    group(
      'email-messages',
      'Email message content: get, update (LMX in and out as files), preview, Guardian check',
      () => import('./email-messages/index.js'),
      ['emails'],
    ),
    group('uploads', 'Upload images for use in emails', () => import('./uploads/index.js')),
    group('campaigns', 'Email campaigns: list, get, metrics, create, update', () => import('./campaigns/index.js')),
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
    command('apply', 'Apply a plan file written with `--plan --out` (content push, node edits, schedules…): exactly its calls, each guarded as planned'),
    command('undo', 'Take back a change loopsctl applied: the inverse plan from what its records held before, applied as any plan'),
    command('approve', 'Approve a change an agent proposed through `loopsctl mcp`, as a person at a terminal'),
    command('check', 'Check the whole account: email content, rendering, what recipients meet, how records are wired, and the rules file; exit 1 on errors'),
    group('migrate', "Moving from another email provider: report what an app's repository sends, and what it takes", () => import('./migrate/index.js')),
    command('types', "Write a TypeScript module of the account's transactional emails, events, contact properties and lists; --check fails on drift"),
    group('segments', 'Audience segments: list, get, create', () => import('./segments/index.js'), ['audience-segments']),
    group('ips', 'Dedicated sending IP addresses: list, check an allow-list', () => import('./ips/index.js'), ['dedicated-sending-ips']),
    group('contacts', 'Contacts: find, create, update, delete, suppression, import', () => import('./contacts/index.js'), ['contact']),
    group('contact-properties', 'Contact properties: list, create', () => import('./contact-properties/index.js'), ['properties']),
    group('lists', 'Mailing lists: list', () => import('./lists/index.js'), ['mailing-lists']),
    group('events', 'Events that start workflows: send, import', () => import('./events/index.js'), ['event']),
    group('auth', 'Log in, list, switch and check profiles and their API keys', () => import('./auth/index.js')),
    group('open', "Open the account's pages in the Loops app in the browser: records, and what the API cannot change", () => import('./open/index.js')),
    command('api', 'Send a request to any API path and print the answer as received'),
    group('webhooks', 'Receive, send, verify and sign webhook deliveries', () => import('./webhooks/index.js')),
    group('deliveries', 'Search, count, replay, judge and prune the webhook deliveries kept in a delivery store', () => import('./deliveries/index.js')),
    group('metrics', 'What a change did: snapshots of the counters, their history by day or week, experiment verdicts', () => import('./metrics/index.js')),
    command('mcp', 'Serve the commands as tools of a local MCP server for agents, read-only unless allowed more'),
    command('log', 'The changes loopsctl made to accounts: who, when, which records, with what outcome'),
    group('skill', "An agent skill (SKILL.md) that teaches loopsctl's safe habits: install it, or print it", () => import('./skill/index.js')),
    group('completion', 'Shell completion scripts for bash, zsh, fish and PowerShell', () => import('./completion/index.js')),
    command('commands', 'List every command with its arguments and options (--json: all details, for scripts)'),
    group('sandbox', 'Run a local emulator of the Loops API, with seed data; see what it would have sent', () => import('./sandbox/index.js')),
    command('doctor', 'Check the install, the config, the key in use, the proxy, the API and the clock; exit 1 with hints when a check fails'),
  ],
  (area) => area.name,
  recordArea,
);

/** Every area's declarations, for what reads the whole tree (completion, `commands`, `mcp`, the picker). */
export function allSpecs(): Promise<Spec[]> {
  return Promise.all(areas.map((area) => area.declared()));
}
