/**
 * The emulator's reading of email bodies, on the LMX module: compiling a body as the API does
 * (422 with the first error, warnings in the answer), Guardian's checks on the same tree, and the
 * data variables a transactional email uses.
 */
import {
  checkLmx,
  elementsOf,
  LINK_SCHEMES,
  parseLmx,
  schemeOf,
  stopsCompiling,
  textOf,
  variablesOf,
  type LmxElement,
  type LmxKind,
  type LmxNamespace,
  type LmxProblem,
} from '../lmx/index.js';
import type { GuardianReport, GuardianRule, LmxWarning } from '../platform/email-messages/schemas.js';

export type ParentKind = 'transactional' | 'workflow' | 'campaign';

/** A body the API would refuse (422), with its first error. */
export class LmxCompileError extends Error {}

/** Where a problem is and what it is, as a one-line message. */
function describeProblem(problem: LmxProblem): string {
  return `line ${problem.line}, column ${problem.column}: ${problem.message} (${problem.rule}; ${problem.fix})`;
}

/** Compiles a body: its warnings, or LmxCompileError with the first error. */
export function compileLmx(lmx: string, kind: LmxKind, componentIds: ReadonlySet<string>): LmxWarning[] {
  const { problems } = checkLmx(lmx, { kind, componentIds });
  const error = problems.find(stopsCompiling);
  if (error !== undefined) throw new LmxCompileError(describeProblem(error));
  return problems
    .filter((problem) => problem.severity === 'warning')
    .map((problem) => ({
      rule: problem.rule,
      severity: 'warning',
      message: `${problem.message} (${problem.fix})`,
      path: `line ${problem.line}, column ${problem.column}`,
    }));
}

/** The names of the data variables a body uses, each once. */
export function dataVariablesIn(lmx: string): string[] {
  return variablesOf(parseLmx(lmx).document)
    .filter((variable) => variable.namespace === 'data')
    .map((variable) => variable.name);
}

const ACCEPTED: Record<ParentKind, LmxNamespace[]> = { transactional: ['data'], workflow: ['contact', 'event'], campaign: ['contact'] };

const UNSUPPORTED: Record<LmxNamespace, Pick<GuardianRule, 'rule' | 'title' | 'description'>> = {
  contact: {
    rule: 'unsupportedContactProperties',
    title: 'Contact property not available',
    description: 'Only campaign and workflow emails can show contact properties',
  },
  event: {
    rule: 'unsupportedEventProperties',
    title: 'Event property not available',
    description: 'Only workflow emails triggered by an event can show event properties',
  },
  data: { rule: 'unsupportedDataVariables', title: 'Data variable not available', description: 'Only transactional emails can show data variables' },
};

const MISSING_FALLBACK: Partial<Record<LmxNamespace, Pick<GuardianRule, 'rule' | 'title' | 'description'>>> = {
  contact: {
    rule: 'missingFallbackContactProperties',
    title: 'Contact property without fallback',
    description: 'Contacts without this property will see an empty space',
  },
  event: {
    rule: 'missingFallbackEventProperties',
    title: 'Event property without fallback',
    description: 'Events without this property will leave an empty space',
  },
};

/** `http, https, mailto, tel or sms`: the schemes Guardian's link rules name. */
const LINK_SCHEME_LIST = [...LINK_SCHEMES].join(', ').replace(/, (?=[^,]*$)/, ' or ');

/** Guardian's checks: links and buttons that go nowhere, and variables the email cannot fill. */
export function guardian(lmx: string, parent: ParentKind, fallbacks: Partial<Record<LmxNamespace, Record<string, string>>>): GuardianReport {
  const errors: GuardianRule[] = [];
  const warnings: GuardianRule[] = [];
  const add = (list: GuardianRule[], rule: Pick<GuardianRule, 'rule' | 'title' | 'description'>, items: GuardianRule['items']) => {
    if (items.length > 0) list.push({ ...rule, items });
  };
  const { document } = parseLmx(lmx);
  const elements = [...elementsOf(document)];
  const named = (name: string) => elements.filter((element) => element.name === name);
  const href = (element: LmxElement) => element.attributes.find((attribute) => attribute.name === 'href')?.value ?? '';
  const label = (element: LmxElement) => ({ label: textOf(element) || `<${element.name}> at line ${element.position.line}` });
  // A value that starts with a variable is filled at send time.
  const valid = (value: string) => value.startsWith('{') || LINK_SCHEMES.has(schemeOf(value) ?? '');
  add(
    errors,
    { rule: 'missingButtonHrefs', title: 'Missing button link', description: "Buttons won't work without an href value" },
    named('Button')
      .filter((button) => href(button) === '')
      .map(label),
  );
  add(
    errors,
    { rule: 'invalidButtonHrefs', title: 'Invalid button link', description: `Button links must be ${LINK_SCHEME_LIST} URLs` },
    named('Button')
      .filter((button) => href(button) !== '' && !valid(href(button)))
      .map(label),
  );
  add(
    errors,
    { rule: 'missingLinkHrefs', title: 'Missing text link', description: "Links won't work without an href value" },
    named('Link')
      .filter((link) => href(link) === '')
      .map(label),
  );
  add(
    errors,
    { rule: 'invalidLinkHrefs', title: 'Invalid text link', description: `Text links must be ${LINK_SCHEME_LIST} URLs` },
    named('Link')
      .filter((link) => href(link) !== '' && !valid(href(link)))
      .map(label),
  );
  const variables = variablesOf(document);
  for (const namespace of ['contact', 'event', 'data'] as const) {
    const used = variables.filter((variable) => variable.namespace === namespace);
    if (!ACCEPTED[parent].includes(namespace)) {
      add(
        errors,
        UNSUPPORTED[namespace],
        used.map(({ name }) => ({ label: name, codeName: name })),
      );
      continue;
    }
    const missing = MISSING_FALLBACK[namespace];
    if (missing !== undefined)
      add(
        warnings,
        missing,
        used.filter(({ name }) => fallbacks[namespace]?.[name] === undefined).map(({ name }) => ({ label: name, codeName: name })),
      );
  }
  return { errors, warnings };
}
