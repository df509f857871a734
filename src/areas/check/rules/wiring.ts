/**
 * The wiring family: how the records fit together. A workflow that is not sending, an event
 * trigger with no event, a filter naming a property the account lacks, a scheduled campaign with
 * nothing to send, and what nothing uses (lists, components, themes: information, not errors).
 */
import { componentIdsOf, parseLmx, themeIdOf } from '../../../lmx/index.js';
import { RESERVED_PROPERTY_NAMES } from '../../../platform/contact-properties/typing.js';
import type { AudienceFilter } from '../../../platform/segments/schemas.js';
import { namesEvent, type StartRule, startProblems } from '../../../platform/workflows/rules.js';
import type { Account } from '../gather.js';
import { isScheduled, isSending } from '../gather.js';
import { appUrl, type Problem, problem, type RecordRef } from '../records.js';
import type { RulesFile } from '../rules-file.js';
import { declareRules, type RuleFamily } from './rule.js';

const { rules, severityOf } = declareRules('wiring', {
  'workflow-not-sending': { severity: 'warning', summary: 'a workflow that is a draft or paused, unless the rules file expects it so' },
  'event-trigger-without-event': {
    severity: 'error',
    summary: 'an event trigger that names no event (an error when the workflow is sending, a warning before)',
  },
  'property-trigger-without-property': {
    severity: 'error',
    summary: 'a contact property trigger that names no property (an error when the workflow is sending, a warning before)',
  },
  'branch-path-without-filter': {
    severity: 'error',
    summary: 'a branch whose path does not start with an audience filter (an error when the workflow is sending, a warning before)',
  },
  'experiment-without-path': {
    severity: 'error',
    summary: 'an experiment with no variant or control path (an error when the workflow is sending, a warning before)',
  },
  'experiment-path-without-email': {
    severity: 'error',
    summary: "an experiment's path with no email of its own (an error when the workflow is sending, a warning before)",
  },
  'event-without-pattern': { severity: 'warning', summary: 'an event trigger whose event has no event pattern: nothing in the account has sent it' },
  'unknown-contact-property': { severity: 'error', summary: 'a segment, campaign audience or workflow filter naming a contact property the account lacks' },
  'unknown-mailing-list': { severity: 'error', summary: 'a workflow or campaign naming a mailing list the account lacks' },
  'scheduled-campaign-empty': { severity: 'error', summary: 'a scheduled campaign with no email, or one without a subject or body' },
  'unused-mailing-list': { severity: 'info', summary: 'a mailing list no workflow or campaign uses' },
  'unused-component': { severity: 'info', summary: 'a component no email embeds' },
  'unused-theme': { severity: 'info', summary: 'a theme no email uses (the default theme aside)' },
});

const statusOf = (status: string | undefined) => (status ?? 'unknown').toLowerCase();

function workflowProblems(account: Account, expected: RulesFile, knownList: (id: string) => boolean): Problem[] {
  const patterns = new Set(account.eventPatterns.map((pattern) => pattern.eventName));
  const problems: Problem[] = [];
  for (const { record, ref } of account.workflows) {
    const sending = isSending(record);
    if (!sending && expected.workflows[ref.name]?.status === undefined) {
      problems.push(
        problem(
          ref,
          'workflow-not-sending',
          severityOf('workflow-not-sending'),
          `the workflow is ${statusOf(record.status) === 'draft' ? 'a draft' : statusOf(record.status)}: it sends nothing`,
          `start it in the app when it is ready, or say in loops.check.yaml that it is meant to be one (workflows: { ${JSON.stringify(ref.name)}: { status: ${statusOf(record.status)} } })`,
        ),
      );
    }
    if (record.mailingListId != null && !knownList(record.mailingListId)) problems.push(unknownList(ref, record.mailingListId));
    problems.push(...startRuleProblems(ref, record));
    for (const node of Object.values(record.nodes)) {
      const fields = node as { typeName: string; eventName?: string | null; mailingListId?: string | null; contactPropertyQuery?: { key?: string } | null };
      if (fields.typeName === 'EventTrigger' && namesEvent(fields.eventName) && account.listed.has('event patterns') && !patterns.has(fields.eventName)) {
        problems.push(
          problem(
            ref,
            'event-without-pattern',
            severityOf('event-without-pattern'),
            `its trigger waits for the event "${fields.eventName}", which has no event pattern: the account has never received it`,
            `check the event's name against what the app sends (\`loopsctl events send --event-name ${fields.eventName} ...\` records it)`,
          ),
        );
      }
      if (fields.typeName === 'AddToListTrigger' && fields.mailingListId != null && !knownList(fields.mailingListId))
        problems.push(unknownList(ref, fields.mailingListId));
    }
  }
  return problems;
}

/** The start rules' names in `check`'s words, by the rule book's (platform/workflows/rules.ts): one for each. */
const START_RULE_NAMES: Record<StartRule, string> = {
  'trigger-event': 'event-trigger-without-event',
  'trigger-property': 'property-trigger-without-property',
  'branch-children': 'branch-path-without-filter',
  'experiment-paths': 'experiment-without-path',
  'experiment-email': 'experiment-path-without-email',
};

/** The platform's start rules over the account's workflow, read as the rule book reads a file's nodes: the verdict `content check` gives its file. */
function startRuleProblems(ref: RecordRef, record: Account['workflows'][number]['record']): Problem[] {
  const nodes = Object.fromEntries(
    Object.entries(record.nodes).map(([id, node]) => {
      const { typeName, nextNodeIds, ...fields } = node as { typeName: string; nextNodeIds: string[] } & Record<string, unknown>;
      return [id, { ...fields, type: typeName, next: nextNodeIds }];
    }),
  );
  return startProblems(nodes, record.status).map((found) =>
    problem(ref, START_RULE_NAMES[found.rule], found.severity, `node ${found.key}: ${found.message}`, `in the app: ${found.fix}`),
  );
}

function unknownList(ref: RecordRef, listId: string): Problem {
  return problem(
    ref,
    'unknown-mailing-list',
    severityOf('unknown-mailing-list'),
    `it names the mailing list ${listId}, which the account does not have`,
    'choose an existing list in the app',
  );
}

/** Every filter of the account with the record it belongs to. */
function filtersOf(account: Account): { ref: RecordRef; where: string; keys: string[] }[] {
  const keysOf = (filter: AudienceFilter | null | undefined) =>
    (filter?.conditions ?? []).filter((condition) => condition.type === 'property' && typeof condition.key === 'string').map((condition) => condition.key!);
  return [
    ...account.segments.map((segment) => ({
      ref: { kind: 'segment' as const, name: segment.name, id: segment.id, url: appUrl('segment', segment) },
      where: 'its filter',
      keys: keysOf(segment.filter),
    })),
    ...account.campaigns.map(({ record, ref }) => ({ ref, where: 'its audience filter', keys: keysOf(record.audienceFilter) })),
    ...account.workflows.flatMap(({ ref, record, filters }) => [
      ...filters.map(({ nodeId, filter }) => ({ ref, where: `its audience filter ${nodeId}`, keys: keysOf(filter) })),
      ...Object.entries(record.nodes).flatMap(([nodeId, node]) => {
        const key = (node as { contactPropertyQuery?: { key?: string } | null }).contactPropertyQuery?.key;
        return key === undefined ? [] : [{ ref, where: `its trigger ${nodeId}`, keys: [key] }];
      }),
    ]),
  ];
}

function propertyProblems(account: Account): Problem[] {
  // Keys the contact properties listing leaves out are the platform's own fields: the names no custom property may have.
  const known = new Set([...RESERVED_PROPERTY_NAMES, ...account.contactProperties.map((property) => property.key)]);
  return filtersOf(account).flatMap(({ ref, where, keys }) =>
    [...new Set(keys)]
      .filter((key) => !known.has(key))
      .map((key) =>
        problem(
          ref,
          'unknown-contact-property',
          severityOf('unknown-contact-property'),
          `${where} names the contact property "${key}", which the account does not have: it matches no one`,
          `create it (\`loopsctl contact-properties create ${key} --type <type>\`) or fix the filter`,
        ),
      ),
  );
}

function campaignProblems(account: Account, knownList: (id: string) => boolean): Problem[] {
  return account.campaigns.flatMap(({ record, ref, email }) => {
    const problems: Problem[] = [];
    if (record.mailingListId !== null && !knownList(record.mailingListId)) problems.push(unknownList(ref, record.mailingListId));
    if (!isScheduled(record)) return problems;
    const empty =
      email === undefined
        ? 'it has no email'
        : email.lmx.trim() === ''
          ? 'its email has no body'
          : email.subject.trim() === ''
            ? 'its email has no subject'
            : undefined;
    if (empty !== undefined)
      problems.push(
        problem(
          ref,
          'scheduled-campaign-empty',
          severityOf('scheduled-campaign-empty'),
          `the campaign is ${statusOf(record.status)} and ${empty}`,
          'write the email, or unschedule the campaign in the app',
        ),
      );
    return problems;
  });
}

function unusedProblems(account: Account): Problem[] {
  const documents = account.allMessages.map((message) => parseLmx(message.lmx).document);
  const usedComponents = new Set(documents.flatMap(componentIdsOf));
  const usedThemes = new Set(documents.map(themeIdOf).filter((id) => id !== undefined));
  const usedLists = new Set<string>();
  for (const { record } of account.campaigns) if (record.mailingListId !== null) usedLists.add(record.mailingListId);
  for (const { record } of account.workflows) {
    if (record.mailingListId != null) usedLists.add(record.mailingListId);
    for (const node of Object.values(record.nodes)) {
      const listId = (node as { mailingListId?: string | null }).mailingListId;
      if (listId != null) usedLists.add(listId);
    }
  }
  const info = (ref: RecordRef, rule: 'unused-mailing-list' | 'unused-component' | 'unused-theme', message: string, fix: string) =>
    problem(ref, rule, severityOf(rule), message, fix);
  return [
    ...account.mailingLists
      .filter((list) => !usedLists.has(list.id))
      .map((list) =>
        info(
          { kind: 'list', name: list.name, id: list.id, url: appUrl('list', list) },
          'unused-mailing-list',
          'no workflow or campaign uses this mailing list',
          'use it, or delete it in the app if nobody subscribes to it',
        ),
      ),
    ...account.components
      .filter((component) => !usedComponents.has(component.id))
      .map((component) =>
        info(
          { kind: 'component', name: component.name, id: component.id },
          'unused-component',
          'no email embeds this component',
          'embed it, or delete it in the app',
        ),
      ),
    ...account.themes
      .filter((theme) => !theme.isDefault && !usedThemes.has(theme.id))
      .map((theme) => info({ kind: 'theme', name: theme.name, id: theme.id }, 'unused-theme', 'no email uses this theme', 'use it, or delete it in the app')),
  ];
}

export const wiring: RuleFamily = {
  family: 'wiring',
  rules,
  check(account, expected) {
    const lists = new Set(account.mailingLists.map((list) => list.id));
    // A listing that failed leaves nothing to compare with: no list is called unknown then.
    const knownList = (id: string) => lists.has(id) || !account.listed.has('mailing lists');
    return [
      ...workflowProblems(account, expected, knownList),
      ...(account.listed.has('contact properties') ? propertyProblems(account) : []),
      ...campaignProblems(account, knownList),
      // What was not read may be what uses a list, a component or a theme.
      ...(account.unchecked.length === 0 ? unusedProblems(account) : []),
    ];
  },
};
